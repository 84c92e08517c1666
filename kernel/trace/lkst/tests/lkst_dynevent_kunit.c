// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for LKST dynamic events: the parser of dynamic_events
 * lines (good and bad definitions, table-driven), the ID range, the
 * removal rules, and a probe on a function of this module that records
 * the exact arguments it was called with.
 *
 * kprobes are needed, so this suite runs in a VM (the kselftest
 * test_dynamic_events.sh loads it), not under UML.  It removes every
 * dynamic event no maskset names: run it on a test machine.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>

#include "lkst_kunit.h"

/* What dynamic_events shows, in a test-managed buffer */
static const char *lkst_test_dyn_show(struct kunit *test)
{
	struct seq_buf s;
	char *buf;

	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	seq_buf_init(&s, buf, PAGE_SIZE);
	scoped_guard(mutex, &lkst_mutex)
		lkst_dynevents_print(&s);
	return seq_buf_str(&s);
}

static void lkst_test_dyn_cleanup(void *unused)
{
	/* The masksets that named events are removed first (LIFO) */
	WARN_ON(lkst_dynevent_remove_all());
}

static void lkst_test_dyn_init(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, lkst_dynevent_remove_all(), 0);
	KUNIT_ASSERT_STREQ(test, lkst_test_dyn_show(test), "");
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_dyn_cleanup, NULL));
}

/* lkst_dynevent_good: definitions that are accepted, as they read back */

struct lkst_dyn_good {
	const char *cmd;
	const char *show;	/* the line of dynamic_events */
	const char *args[LKST_NR_ARGS];
	const char *argfmt;
};

static const struct lkst_dyn_good lkst_dyn_goods[] = {
	{ "p:OPEN do_sys_openat2", "p:OPEN do_sys_openat2\n",
	  { "-", "-", "-", "-" }, "----" },
	{ "p:OPEN do_sys_openat2 $arg1 flags=$arg3",
	  "p:OPEN do_sys_openat2 arg0=$arg1 flags=$arg3\n",
	  { "arg0", "flags", "-", "-" }, "xx--" },
	{ "p:OPEN  do_sys_openat2\t%di:s32 %si:u16 $stack0:x8 @do_sys_openat2",
	  "p:OPEN do_sys_openat2 arg0=%di:s32 arg1=%si:u16 arg2=$stack0:x8 arg3=@do_sys_openat2\n",
	  { "arg0", "arg1", "arg2", "arg3" }, "duxx" },
	{ "r:OPEN_RET do_sys_openat2 ret=$retval:s64 dfd=$arg1:s32",
	  "r:OPEN_RET do_sys_openat2 ret=$retval:s64 dfd=$arg1:s32\n",
	  { "ret", "dfd", "-", "-" }, "dd--" },
	{ "p:DEREF do_sys_openat2 +0($arg3):u64 +8(+0($arg3)):x32 f=$arg1:symbol",
	  "p:DEREF do_sys_openat2 arg0=+0($arg3):u64 arg1=+8(+0($arg3)):x32 f=$arg1:symbol\n",
	  { "arg0", "arg1", "f", "-" }, "uxp-" },
	{ "p:A1 do_sys_openat2+0 # a comment", "p:A1 do_sys_openat2\n",
	  { "-", "-", "-", "-" }, "----" },
	{ "p:NAMED do_sys_openat2 dfd=$arg1:s32 name=+0($arg2):ustring",
	  "p:NAMED do_sys_openat2 dfd=$arg1:s32 name=+0($arg2):ustring\n",
	  { "dfd", "name", "-", "-" }, "ds--" },
	{ "p:COMM do_sys_openat2 $comm", "p:COMM do_sys_openat2 arg0=$comm\n",
	  { "arg0", "-", "-", "-" }, "s---" },
};

static void lkst_dyn_good_desc(const struct lkst_dyn_good *g, char *desc)
{
	strscpy(desc, g->cmd, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lkst_dyn_good, lkst_dyn_goods, lkst_dyn_good_desc);

static void lkst_dynevent_good(struct kunit *test)
{
	const struct lkst_dyn_good *g = test->param_value;
	const struct lkst_event_desc *d;
	char name[LKST_NAME_MAX];
	int i;

	lkst_test_dyn_init(test);
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command(g->cmd), 0);
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test), g->show);

	strscpy(name, g->show + 2,
		min_t(size_t, strchrnul(g->show, ' ') - g->show - 1,
		      sizeof(name)));
	scoped_guard(mutex, &lkst_mutex) {
		d = lkst_event_lookup(name);
		KUNIT_ASSERT_NOT_NULL(test, d);
		KUNIT_EXPECT_GE(test, d->id, LKST_EV_DYN_FIRST);
		KUNIT_EXPECT_LE(test, d->id, LKST_EV_DYN_LAST);
		KUNIT_EXPECT_PTR_EQ(test, lkst_event_desc(d->id), d);
		KUNIT_EXPECT_FALSE(test, d->primary);
		KUNIT_EXPECT_STREQ(test, d->argfmt, g->argfmt);
		for (i = 0; i < LKST_NR_ARGS; i++)
			KUNIT_EXPECT_STREQ(test, d->args[i], g->args[i]);
		/* Defined disarmed: the current maskset does not use it */
		KUNIT_EXPECT_FALSE(test, __lkst_event_attached(d->id));
	}
	/* The line read back defines the same event again */
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command(g->cmd), -EEXIST);
}

/* lkst_dynevent_bad: refused, nothing created, the error as logged */

struct lkst_dyn_bad {
	const char *cmd;
	int err;
	const char *msg;	/* NULL: trace_probe's parser logs its own */
	int pos;
};

static const struct lkst_dyn_bad lkst_dyn_bads[] = {
	{ "x:A do_sys_openat2", -EINVAL,
	  "Expected p:NAME SYMBOL[+OFFS], r:NAME SYMBOL or -:NAME", 0 },
	{ "p do_sys_openat2", -EINVAL,
	  "Expected p:NAME SYMBOL[+OFFS], r:NAME SYMBOL or -:NAME", 0 },
	{ "p:A", -EINVAL,
	  "Expected p:NAME SYMBOL[+OFFS], r:NAME SYMBOL or -:NAME", 3 },
	{ "p:lower do_sys_openat2", -EINVAL,
	  "Event names are [A-Z][A-Z0-9_]*, at most 31 characters", 0 },
	{ "p:9A do_sys_openat2", -EINVAL,
	  "Event names are [A-Z][A-Z0-9_]*, at most 31 characters", 0 },
	{ "p:A-B do_sys_openat2", -EINVAL,
	  "Event names are [A-Z][A-Z0-9_]*, at most 31 characters", 0 },
	{ "p:ABCDEFGHIJKLMNOPQRSTUVWXYZ012345 do_sys_openat2", -EINVAL,
	  "Event names are [A-Z][A-Z0-9_]*, at most 31 characters", 0 },
	{ "p:PROCESS_FORK do_sys_openat2", -EEXIST,
	  "Name already exists", 0 },
	{ "p:A lkst_no_such_symbol", -ENOENT, "Unknown symbol", 4 },
	{ "p:A do_sys_openat2-4", -EINVAL,
	  "Expected p:NAME SYMBOL[+OFFS], r:NAME SYMBOL or -:NAME", 4 },
	{ "p:A do_sys_openat2+0x100000000", -EINVAL,
	  "Expected p:NAME SYMBOL[+OFFS], r:NAME SYMBOL or -:NAME", 4 },
	{ "p:A 0xffffffff81000000", -EINVAL, "Unknown symbol", 4 },
	{ "p:A vmlinux:do_sys_openat2", -EINVAL, "Unknown symbol", 4 },
	{ "p:A do_sys_openat2%return", -EINVAL, "Unknown symbol", 4 },
	{ "p:A do_sys_openat2+1", -EILSEQ,
	  "Probe point is not an instruction boundary", 4 },
	{ "r:A do_sys_openat2+4", -EINVAL,
	  "A return probe takes a function, no offset", 4 },
	{ "p:A kprobe_int3_handler", -EINVAL,
	  "Cannot probe here: kprobes blacklist or not kernel text", 4 },
	{ "p:A do_sys_openat2 $arg1 $arg2 $arg3 $arg4 $stack0", -E2BIG,
	  "At most 4 fetchargs", 43 },
	{ "p:A do_sys_openat2 $arg1:symstr", -EINVAL,
	  "Numeric fetchargs, a string only last; no array or symstr", 19 },
	{ "p:A do_sys_openat2 +0($arg2):string %di", -EINVAL,
	  "Numeric fetchargs, a string only last; no array or symstr", 19 },
	{ "p:A do_sys_openat2 +0($arg2):u8[4]", -EINVAL,
	  "Numeric fetchargs, a string only last; no array or symstr", 19 },
	{ "p:A do_sys_openat2 arg1=%di %si", -EINVAL,
	  "Duplicate argument name", 28 },
	{ "p:A do_sys_openat2 %nosuchreg", -EINVAL, NULL, 0 },
	{ "p:A do_sys_openat2 $retval", -EINVAL, NULL, 0 },
	{ "p:A do_sys_openat2 $arg1:nosuchtype", -EINVAL, NULL, 0 },
	{ "p:A do_sys_openat2 @lkst_no_such_symbol", -ENOENT,
	  "Unknown symbol", 19 },
	{ "-:NOSUCH", -ENOENT, "No such name", 0 },
	{ "-:A extra", -EINVAL, "Too many fields", 4 },
};

static void lkst_dyn_bad_desc(const struct lkst_dyn_bad *b, char *desc)
{
	strscpy(desc, b->cmd, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lkst_dyn_bad, lkst_dyn_bads, lkst_dyn_bad_desc);

static void lkst_dynevent_bad(struct kunit *test)
{
	const struct lkst_dyn_bad *b = test->param_value;
	const char *msg, *cmd;
	char before[64];
	int pos;

	lkst_test_dyn_init(test);
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("p:KEEP do_sys_openat2"), 0);
	lkst_log_err("kunit", "marker", LKST_ERR_NOT_NUMBER, 0);
	strscpy(before, lkst_test_dyn_show(test));

	KUNIT_EXPECT_EQ(test, lkst_dynevent_command(b->cmd), b->err);
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test), before);
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_EXPECT_NULL(test, lkst_event_lookup("A"));

	msg = lkst_last_err(&cmd, &pos);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	if (!b->msg) {
		/* trace_probe logged it; LKST's last error is untouched */
		KUNIT_EXPECT_STREQ(test, cmd, "marker");
		return;
	}
	KUNIT_EXPECT_STREQ(test, msg, b->msg);
	KUNIT_EXPECT_EQ(test, pos, b->pos);
}

/* IDs come from the documented range, in turn, not reused at once */
static void lkst_dynevent_ids(struct kunit *test)
{
	unsigned int first, id, i;
	char cmd[64];

	lkst_test_dyn_init(test);
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("p:ID_A do_sys_openat2"), 0);
	scoped_guard(mutex, &lkst_mutex)
		first = lkst_event_lookup("ID_A")->id;
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("-:ID_A"), 0);
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("p:ID_B do_sys_openat2"), 0);
	scoped_guard(mutex, &lkst_mutex) {
		KUNIT_EXPECT_NULL(test, lkst_event_lookup("ID_A"));
		id = lkst_event_lookup("ID_B")->id;
	}
	KUNIT_EXPECT_EQ(test, id, first == LKST_EV_DYN_LAST ?
			LKST_EV_DYN_FIRST : first + 1);

	/* Fill the range: one more is -ENOSPC */
	for (i = 1; i < LKST_EV_DYN_MAX; i++) {
		snprintf(cmd, sizeof(cmd), "p:FILL%u do_sys_openat2", i);
		KUNIT_ASSERT_EQ(test, lkst_dynevent_command(cmd), 0);
	}
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("p:ONE_MORE do_sys_openat2"),
			-ENOSPC);
	KUNIT_EXPECT_STREQ(test, lkst_last_err(NULL, NULL),
			   "Too many user objects");
	KUNIT_EXPECT_EQ(test, lkst_dynevent_remove_all(), 0);
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test), "");
}

static noinline __noclone int lkst_dyn_kunit_target(unsigned long a, int b,
						    const char *s)
{
	/* Not folded into the caller, not a tail call */
	barrier();
	return b + 1;
}

static const char lkst_dyn_kunit_entry[] =
	"p:KUNIT_ENTRY lkst_dyn_kunit_target a=$arg1 b=$arg2:s32 $arg2:u8 s=+0($arg3):string";
static const char lkst_dyn_kunit_ret[] =
	"r:KUNIT_RET lkst_dyn_kunit_target $retval:s32 a=$arg1";

static void lkst_test_dyn_ms_remove(void *data)
{
	struct lkst_maskset *ms;

	guard(mutex)(&lkst_mutex);
	__lkst_maskset_set_current(__lkst_maskset_lookup("RNOTHING"));
	ms = __lkst_maskset_lookup(data);
	if (ms)
		__lkst_maskset_remove(ms);
}

/*
 * A probe and a return probe on a function of this module: routed to a
 * buffer by a user maskset, they record the exact arguments and return
 * value; removal is -EBUSY while the maskset names them, and the event
 * pins this module.
 */
static void lkst_dynevent_records(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_dyn");
	unsigned int ent, ret_id, refs;
	struct lkst_maskset *ms;
	struct lkst_record rec, recs[2];
	const char *shown;
	char *text;

	lkst_test_dyn_init(test);
	refs = module_refcount(THIS_MODULE);
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command(lkst_dyn_kunit_entry), 0);
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command(lkst_dyn_kunit_ret), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs + 2);

	scoped_guard(mutex, &lkst_mutex) {
		ent = lkst_event_lookup("KUNIT_ENTRY")->id;
		ret_id = lkst_event_lookup("KUNIT_RET")->id;
		ms = __lkst_maskset_create("kunit_dyn");
	}
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ms);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_dyn_ms_remove,
						  "kunit_dyn"));
	text = kstrdup("KUNIT_ENTRY DEFAULT kunit_dyn\nKUNIT_RET DEFAULT kunit_dyn\n",
		       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	scoped_guard(mutex, &lkst_mutex) {
		KUNIT_EXPECT_EQ(test, __lkst_maskset_write(ms, text), 0);
		KUNIT_EXPECT_EQ(test, __lkst_maskset_set_current(ms), 0);
		KUNIT_EXPECT_TRUE(test, __lkst_event_attached(ent));
		KUNIT_EXPECT_TRUE(test, __lkst_event_attached(ret_id));
	}
	kfree(text);

	KUNIT_EXPECT_EQ(test, lkst_dyn_kunit_target(0xfeedface12345678UL, -7,
						    "kunit-string"), -6);

	scoped_guard(mutex, &lkst_mutex) {
		__lkst_maskset_set_current(__lkst_maskset_lookup("RNOTHING"));
		KUNIT_EXPECT_FALSE(test, __lkst_event_attached(ent));
	}
	/* Disarmed: not recorded */
	KUNIT_EXPECT_EQ(test, lkst_dyn_kunit_target(1, 2, "x"), 3);

	/* Two records, on one CPU or, if the test migrated, on two */
	KUNIT_ASSERT_TRUE(test, lkst_test_consume(buf, &recs[0]));
	KUNIT_ASSERT_TRUE(test, lkst_test_consume(buf, &recs[1]));
	if (recs[0].event == ret_id)
		swap(recs[0], recs[1]);
	rec = recs[0];
	KUNIT_EXPECT_EQ(test, rec.event, ent);
	KUNIT_EXPECT_EQ(test, rec.handler, LKST_HANDLER_DEFAULT);
	KUNIT_EXPECT_EQ(test, rec.pid, current->pid);
	KUNIT_EXPECT_EQ(test, rec.arg[0], 0xfeedface12345678ULL);
	KUNIT_EXPECT_EQ(test, rec.arg[1], (u64)-7LL);
	KUNIT_EXPECT_EQ(test, rec.arg[2], 0xf9ULL);
	/* a string in the last slot: 7 characters and the NUL */
	KUNIT_EXPECT_MEMEQ(test, &rec.arg[3], "kunit-s", 8);
	rec = recs[1];
	KUNIT_EXPECT_EQ(test, rec.event, ret_id);
	KUNIT_EXPECT_EQ(test, rec.arg[0], (u64)-6LL);
	KUNIT_EXPECT_EQ(test, rec.arg[1], 0xfeedface12345678ULL);
	KUNIT_EXPECT_FALSE(test, lkst_test_consume(buf, &rec));

	/* Named by a maskset: not removed, by -: or by truncation */
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("-:KUNIT_ENTRY"), -EBUSY);
	KUNIT_EXPECT_STREQ(test, lkst_last_err(NULL, NULL), "In use");
	KUNIT_EXPECT_EQ(test, lkst_dynevent_remove_all(), -EBUSY);
	shown = lkst_test_dyn_show(test);
	KUNIT_EXPECT_TRUE(test, str_has_prefix(shown, "p:KUNIT_ENTRY "));
	KUNIT_EXPECT_NOT_NULL(test, strstr(shown, "\nr:KUNIT_RET "));
	text = kstrdup("KUNIT_RET DEFAULT kunit_dyn\n", GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_EXPECT_EQ(test, __lkst_maskset_write(ms, text), 0);
	kfree(text);
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("-:KUNIT_ENTRY"), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs + 1);
	/* None removed while one is named */
	KUNIT_EXPECT_EQ(test, lkst_dynevent_remove_all(), -EBUSY);
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test),
			   "r:KUNIT_RET lkst_dyn_kunit_target arg0=$retval:s32 a=$arg1\n");
	lkst_test_dyn_ms_remove("kunit_dyn");
	KUNIT_EXPECT_EQ(test, lkst_dynevent_remove_all(), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs);
}

static void lkst_test_table_free(struct lkst_table *t)
{
	guard(mutex)(&lkst_mutex);
	__lkst_table_free(t);
}

/*
 * A line of a maskset written while an event existed binds to that event,
 * not to its ID: once the event is gone and another took its ID, closing
 * the file installs nothing.
 */
static void lkst_dynevent_reused_id(struct kunit *test)
{
	const struct lkst_event_desc *d;
	struct lkst_table *draft;
	struct lkst_maskset *ms;
	unsigned int id, got = 0, i;
	char line[32], cmd[48];
	int ret;

	lkst_test_dyn_init(test);
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("p:GEN_A do_sys_openat2"), 0);
	scoped_guard(mutex, &lkst_mutex) {
		id = lkst_event_lookup("GEN_A")->id;
		ms = __lkst_maskset_create("kunit_gen");
	}
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ms);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_dyn_ms_remove,
						  "kunit_gen"));
	draft = lkst_table_alloc();
	KUNIT_ASSERT_NOT_NULL(test, draft);
	strscpy(line, "GEN_A DEFAULT");
	scoped_guard(mutex, &lkst_mutex)
		ret = __lkst_maskset_parse_line(ms, draft, line);
	if (!ret)
		ret = lkst_dynevent_command("-:GEN_A");
	if (ret)
		lkst_test_table_free(draft);
	KUNIT_ASSERT_EQ(test, ret, 0);

	/* GEN_A went; events are made until one has its ID */
	for (i = 0; i < LKST_EV_DYN_MAX && got != id; i++) {
		snprintf(cmd, sizeof(cmd), "p:GEN_B%u do_sys_openat2", i);
		ret = lkst_dynevent_command(cmd);
		snprintf(line, sizeof(line), "GEN_B%u", i);
		scoped_guard(mutex, &lkst_mutex) {
			d = lkst_event_lookup(line);
			got = d ? d->id : 0;
		}
		if (ret || !d)
			break;
	}
	if (got != id)
		lkst_test_table_free(draft);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, got, id);

	scoped_guard(mutex, &lkst_mutex) {
		ret = __lkst_maskset_commit(ms, draft, false);
		if (ret)
			__lkst_table_free(draft);
	}
	KUNIT_EXPECT_EQ(test, ret, -ENOENT);
	KUNIT_EXPECT_STREQ(test, lkst_last_err(NULL, NULL),
			   "An event of the table was removed since its line was written");
	/* The event in the ID is named by no maskset: it can go */
	snprintf(cmd, sizeof(cmd), "-:GEN_B%u", i - 1);
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command(cmd), 0);
}

static struct kunit_case lkst_dynevent_test_cases[] = {
	KUNIT_CASE_PARAM(lkst_dynevent_good, lkst_dyn_good_gen_params),
	KUNIT_CASE_PARAM(lkst_dynevent_bad, lkst_dyn_bad_gen_params),
	KUNIT_CASE(lkst_dynevent_ids),
	KUNIT_CASE(lkst_dynevent_reused_id),
	KUNIT_CASE(lkst_dynevent_records),
	{}
};

static struct kunit_suite lkst_dynevent_test_suite = {
	.name = "lkst_dynevent",
	.test_cases = lkst_dynevent_test_cases,
};

kunit_test_suites(&lkst_dynevent_test_suite);

MODULE_DESCRIPTION("KUnit tests for LKST dynamic events");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
