// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for LKST dynamic events: LKST events bound to ftrace's kprobe
 * events by the lines "NAME GROUP/EVENT" and "-:NAME" of dynamic_events.
 * Good bindings take their arguments from the kprobe event's definition;
 * bad ones are refused with the errno and error_log text of the ABI; IDs
 * are given in turn from the documented range; a probe and a return probe
 * on a function of this module record the exact arguments, pinning no
 * module; an event named by a maskset is not unbound; a bound kprobe event
 * cannot be deleted; a kprobe event enabled in ftrace too gives both its hits.
 *
 * The kprobe events are made in the kernel, with kprobe_event_gen_cmd_start()
 * or, in another group than "kprobes", a dynevent_cmd; each is deleted when
 * its case ends, pass or fail.  kprobes are needed, so this suite runs in a
 * VM (the kselftest test_dynamic_events.sh loads it), not under UML.  It
 * unbinds every dynamic event no maskset names and leaves RNOTHING current
 * after the cases that record: run it on a test machine.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#include "lkst_kunit.h"
#include "../../trace_probe.h"

#define LKST_DYN_E_COMMAND	"Expected NAME GROUP/EVENT or -:NAME"
#define LKST_DYN_E_NAME		"Event names are [A-Z][A-Z0-9_]*, at most 31 characters"
#define LKST_DYN_E_EXISTS	"Name already exists"
#define LKST_DYN_E_NO_EVENT	"No such event"
#define LKST_DYN_E_NOT_KPROBE	"Not a kprobe event"
#define LKST_DYN_E_BOUND	"Bound to another LKST event"
#define LKST_DYN_E_TOO_MANY	"At most 4 fetchargs"
#define LKST_DYN_E_NOT_NUMERIC	"Numeric fetchargs, a string only last; no array or symstr"
#define LKST_DYN_E_ARG_NAME	"Argument name is a field of the record"
#define LKST_DYN_E_NO_SUCH	"No such name"
#define LKST_DYN_E_IN_USE	"In use"
#define LKST_DYN_E_ID_RANGE	"Too many user objects"

/* The function the probes are on: this module's, if the suite is one */
static noinline __noclone int lkst_dyn_kunit_target(unsigned long a, int b,
						    const char *s)
{
	/* Not folded into the caller, not a tail call */
	barrier();
	return b + 1;
}

#define LKST_KU_SYM		"lkst_dyn_kunit_target"
#ifdef MODULE
/* MOD:SYM, the form the documentation gives for a function of a module */
#define LKST_KU_MODSYM		KBUILD_MODNAME ":" LKST_KU_SYM
#else
#define LKST_KU_MODSYM		LKST_KU_SYM
#endif

/* Nothing pins a module: the count of this one is still @refs */
static void lkst_test_no_pin(struct kunit *test, int refs)
{
	if (LKST_TEST_COUNTS_REFS)
		KUNIT_EXPECT_EQ(test, lkst_test_modref(), refs);
}

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
	KUNIT_ASSERT_FALSE(test, seq_buf_has_overflowed(&s));
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

/**
 * struct lkst_dyn_kp - a kprobe event that a case defines
 * @group: its group; NULL for "kprobes", made by kprobe_event_gen_cmd_start()
 * @event: its name
 * @loc: the probed place; NULL for lkst_dyn_kunit_target
 * @ret: a return probe
 * @fields: its fetchargs, as kprobe_events takes them, NULL-terminated
 */
struct lkst_dyn_kp {
	const char	*group;
	const char	*event;
	const char	*loc;
	bool		ret;
	const char	*fields[LKST_NR_ARGS + 2];
};

/* One line of kprobe_events, run through a dynevent_cmd */
static int lkst_test_kprobe_cmd(const char *line)
{
	struct dynevent_cmd cmd;
	char *buf;
	int ret;

	buf = kzalloc(MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	kprobe_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	seq_buf_puts(&cmd.seq, line);
	ret = seq_buf_has_overflowed(&cmd.seq) ? -E2BIG : dynevent_create(&cmd);
	kfree(buf);
	return ret;
}

static int lkst_test_kprobe_create(const struct lkst_dyn_kp *kp)
{
	const char *loc = kp->loc ?: LKST_KU_SYM;
	struct dynevent_cmd cmd;
	struct seq_buf s;
	char *buf;
	int i, ret;

	buf = kzalloc(MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (kp->group) {
		/* kprobe_event_gen_cmd_start() makes events of "kprobes" only */
		seq_buf_init(&s, buf, MAX_DYNEVENT_CMD_LEN);
		seq_buf_printf(&s, "%c:%s/%s %s", kp->ret ? 'r' : 'p', kp->group,
			       kp->event, loc);
		for (i = 0; kp->fields[i]; i++)
			seq_buf_printf(&s, " %s", kp->fields[i]);
		ret = seq_buf_has_overflowed(&s) ? -E2BIG :
		      lkst_test_kprobe_cmd(seq_buf_str(&s));
		kfree(buf);
		return ret;
	}
	kprobe_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	if (kp->ret)
		ret = kretprobe_event_gen_cmd_start(&cmd, kp->event, loc);
	else
		ret = kprobe_event_gen_cmd_start(&cmd, kp->event, loc);
	for (i = 0; !ret && kp->fields[i]; i++)
		ret = kprobe_event_add_field(&cmd, kp->fields[i]);
	if (!ret)
		ret = kp->ret ? kretprobe_event_gen_cmd_end(&cmd) :
				kprobe_event_gen_cmd_end(&cmd);
	kfree(buf);
	return ret;
}

static void lkst_test_kprobe_delete(void *name)
{
	int ret;

	/* A bound kprobe event is busy: unbind (the masksets went first) */
	lkst_dynevent_remove_all();
	ret = kprobe_event_delete(name);
	/* -ENOENT: the case deleted it */
	WARN(ret && ret != -ENOENT, "lkst: kprobe event %s left: %d\n",
	     (char *)name, ret);
}

/* "GROUP/EVENT" of @kp, in a test-managed buffer */
static char *lkst_test_kprobe_name(struct kunit *test,
				   const struct lkst_dyn_kp *kp)
{
	char *name;

	name = kunit_kzalloc(test, MAX_EVENT_NAME_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, name);
	snprintf(name, MAX_EVENT_NAME_LEN, "%s/%s", kp->group ?: "kprobes",
		 kp->event);
	return name;
}

/* Define kprobe event @kp, to be deleted when the case ends */
static void lkst_test_kprobe(struct kunit *test, const struct lkst_dyn_kp *kp)
{
	char *name = lkst_test_kprobe_name(test, kp);

	KUNIT_ASSERT_EQ_MSG(test, lkst_test_kprobe_create(kp), 0,
			    "defining kprobe event %s", name);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_kprobe_delete,
						  name));
}

/* kprobes/@event at lkst_dyn_kunit_target, without fetchargs */
static void lkst_test_kprobe_plain(struct kunit *test, const char *event)
{
	const struct lkst_dyn_kp kp = { .event = event };

	lkst_test_kprobe(test, &kp);
}

/*
 * Is kprobe event @group/@event enabled, for ftrace, perf or LKST?  Its
 * flags, which its kprobes follow: the kselftests read kprobes/list,
 * which shows them [DISABLED] while it is not.
 */
static bool lkst_test_kprobe_enabled(struct kunit *test, const char *group,
				     const char *event)
{
	struct trace_event_file *file;
	struct trace_event_call *call;
	struct trace_probe *tp = NULL;
	bool on;

	file = trace_get_event_file(NULL, group, event);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
	call = file->event_call;
	if (call->flags & TRACE_EVENT_FL_KPROBE)
		tp = trace_probe_primary_from_call(call);
	on = tp && trace_probe_is_enabled(tp);
	/* Put before asserting: a reference left would keep the event */
	trace_put_event_file(file);
	KUNIT_ASSERT_NOT_NULL_MSG(test, tp, "%s/%s is no kprobe event", group, event);
	return on;
}

/*
 * Is there an event lkst/@name in events/?  Its ftrace type is set while
 * it is registered (trace_get_event_file() does not give LKST's events,
 * which cannot be enabled in ftrace's instances).
 */
static bool lkst_test_tevent_exists(const char *name)
{
	const struct lkst_event_desc *d;

	guard(mutex)(&lkst_mutex);
	d = lkst_event_lookup(name);
	return d && READ_ONCE(lkst_event_type[d->id]);
}

/* The ID of dynamic event @name */
static unsigned int lkst_test_dyn_id(struct kunit *test, const char *name)
{
	const struct lkst_event_desc *d;
	unsigned int id;

	scoped_guard(mutex, &lkst_mutex) {
		d = lkst_event_lookup(name);
		id = d ? d->id : 0;
	}
	KUNIT_ASSERT_NE_MSG(test, id, 0, "no event %s", name);
	KUNIT_EXPECT_GE(test, id, LKST_EV_DYN_FIRST);
	KUNIT_EXPECT_LE(test, id, LKST_EV_DYN_LAST);
	return id;
}

/* The ID given after @id, the range being used in turn */
static unsigned int lkst_dyn_next_id(unsigned int id)
{
	return id == LKST_EV_DYN_LAST ? LKST_EV_DYN_FIRST : id + 1;
}

/*
 * Dynamic event @name: its description in LKST's table, as bound and
 * disarmed; arguments @args printed as @argfmt says.
 */
static unsigned int lkst_test_dyn_check(struct kunit *test, const char *name,
					const char *const *args,
					const char *argfmt)
{
	const struct lkst_event_desc *d;
	unsigned int id = lkst_test_dyn_id(test, name);
	int i;

	/* No assertion under the mutex: a failed one would leave it held */
	scoped_guard(mutex, &lkst_mutex) {
		d = lkst_event_lookup(name);
		KUNIT_EXPECT_NOT_NULL(test, d);
		if (!d)
			break;
		KUNIT_EXPECT_PTR_EQ(test, lkst_event_desc(id), d);
		KUNIT_EXPECT_STREQ(test, d->name, name);
		KUNIT_EXPECT_FALSE(test, d->primary);
		KUNIT_EXPECT_STREQ(test, d->argfmt, argfmt);
		for (i = 0; i < LKST_NR_ARGS; i++)
			KUNIT_EXPECT_STREQ(test, d->args[i], args[i]);
		/* Bound disarmed: the current maskset does not use it */
		KUNIT_EXPECT_FALSE(test, __lkst_event_attached(id));
	}
	KUNIT_EXPECT_TRUE(test, lkst_test_tevent_exists(name));
	return id;
}

/* The newest LKST error: @msg, about @cmd, the caret at @pos */
static void lkst_test_dyn_err(struct kunit *test, const char *cmd,
			      const char *msg, int pos)
{
	const char *last, *what;
	int at;

	last = lkst_last_err(&what, &at);
	KUNIT_ASSERT_NOT_NULL(test, last);
	KUNIT_EXPECT_STREQ(test, last, msg);
	KUNIT_EXPECT_STREQ(test, what, cmd);
	KUNIT_EXPECT_EQ(test, at, pos);
}

/* Make RNOTHING current and remove maskset @data (its name) */
static void lkst_test_dyn_ms_remove(void *data)
{
	struct lkst_maskset *ms;

	guard(mutex)(&lkst_mutex);
	__lkst_maskset_set_current(__lkst_maskset_lookup("RNOTHING"));
	ms = __lkst_maskset_lookup(data);
	if (ms)
		__lkst_maskset_remove(ms);
}

/* A user maskset @name with the lines @text (if any), removed at the end */
static struct lkst_maskset *lkst_test_dyn_maskset(struct kunit *test,
						  const char *name,
						  const char *text)
{
	struct lkst_maskset *ms;

	scoped_guard(mutex, &lkst_mutex)
		ms = __lkst_maskset_create(name);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ms);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_dyn_ms_remove,
						  (void *)name));
	if (text)
		KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, text), 0);
	return ms;
}

/* Make maskset @name current: the events it names are armed */
static void lkst_test_ms_current(struct kunit *test, const char *name)
{
	int ret;

	scoped_guard(mutex, &lkst_mutex)
		ret = __lkst_maskset_set_current(__lkst_maskset_lookup(name));
	KUNIT_ASSERT_EQ(test, ret, 0);
}

/* lkst_dynevent_good: bindings that are accepted, as they read back */

/**
 * struct lkst_dyn_good - a binding that is accepted
 * @kp: the kprobe event it binds
 * @cmd: the line of dynamic_events
 * @name: the LKST event
 * @show: what dynamic_events shows then
 * @args: the argument names of the LKST event
 * @argfmt: how its arguments are printed
 */
struct lkst_dyn_good {
	struct lkst_dyn_kp	kp;
	const char		*cmd;
	const char		*name;
	const char		*show;
	const char		*args[LKST_NR_ARGS];
	const char		*argfmt;
};

static const struct lkst_dyn_good lkst_dyn_goods[] = {
	{ .kp = { .event = "lkst_ku_good" },
	  .cmd = "PLAIN kprobes/lkst_ku_good", .name = "PLAIN",
	  .show = "PLAIN kprobes/lkst_ku_good\n",
	  .args = { "-", "-", "-", "-" }, .argfmt = "----" },
	/* ftrace names the unnamed ones arg1.., by their place; x64 by default */
	{ .kp = { .event = "lkst_ku_good",
		  .fields = { "$stack0", "$arg1:u16", "$arg2:s8", "$arg3:s64" } },
	  .cmd = "UNNAMED kprobes/lkst_ku_good", .name = "UNNAMED",
	  .show = "UNNAMED kprobes/lkst_ku_good\n",
	  .args = { "arg1", "arg2", "arg3", "arg4" }, .argfmt = "xudd" },
	{ .kp = { .event = "lkst_ku_good",
		  .fields = { "a=$arg1:x8", "b=$arg2:x16", "c=$arg3:x32",
			      "d=$stack0:x64" } },
	  .cmd = "HEX kprobes/lkst_ku_good", .name = "HEX",
	  .show = "HEX kprobes/lkst_ku_good\n",
	  .args = { "a", "b", "c", "d" }, .argfmt = "xxxx" },
	{ .kp = { .event = "lkst_ku_good",
		  .fields = { "f=$stack0:symbol", "n=$arg2:s32" } },
	  .cmd = "SYM kprobes/lkst_ku_good", .name = "SYM",
	  .show = "SYM kprobes/lkst_ku_good\n",
	  .args = { "f", "n", "-", "-" }, .argfmt = "pd--" },
	/* A string last, filling the slots left */
	{ .kp = { .event = "lkst_ku_good",
		  .fields = { "dfd=$arg2:s32", "name=+0($arg3):string" } },
	  .cmd = "STR kprobes/lkst_ku_good", .name = "STR",
	  .show = "STR kprobes/lkst_ku_good\n",
	  .args = { "dfd", "name", "-", "-" }, .argfmt = "ds--" },
	{ .kp = { .event = "lkst_ku_good", .fields = { "+0($arg3):ustring" } },
	  .cmd = "USTR kprobes/lkst_ku_good", .name = "USTR",
	  .show = "USTR kprobes/lkst_ku_good\n",
	  .args = { "arg1", "-", "-", "-" }, .argfmt = "s---" },
	{ .kp = { .event = "lkst_ku_good",
		  .fields = { "a=$arg1:u64", "b=$arg2:u32", "c=$arg3:u8", "$comm" } },
	  .cmd = "COMM kprobes/lkst_ku_good", .name = "COMM",
	  .show = "COMM kprobes/lkst_ku_good\n",
	  .args = { "a", "b", "c", "arg4" }, .argfmt = "uuus" },
	/* A return probe: $retval, and an argument of the entry */
	{ .kp = { .event = "lkst_ku_good", .ret = true,
		  .fields = { "$retval:s32", "a=$arg1:u64" } },
	  .cmd = "RET kprobes/lkst_ku_good", .name = "RET",
	  .show = "RET kprobes/lkst_ku_good\n",
	  .args = { "arg1", "a", "-", "-" }, .argfmt = "du--" },
	/* Another group than kprobes */
	{ .kp = { .group = "lkst_ku_grp", .event = "lkst_ku_good",
		  .fields = { "v=$arg2:s16" } },
	  .cmd = "GROUP lkst_ku_grp/lkst_ku_good", .name = "GROUP",
	  .show = "GROUP lkst_ku_grp/lkst_ku_good\n",
	  .args = { "v", "-", "-", "-" }, .argfmt = "d---" },
	/* 31 characters, blanks around the words, a comment */
	{ .kp = { .event = "lkst_ku_good" },
	  .cmd = " \tABCDEFGHIJKLMNOPQRSTUVWXYZ01234 \t kprobes/lkst_ku_good  # a comment",
	  .name = "ABCDEFGHIJKLMNOPQRSTUVWXYZ01234",
	  .show = "ABCDEFGHIJKLMNOPQRSTUVWXYZ01234 kprobes/lkst_ku_good\n",
	  .args = { "-", "-", "-", "-" }, .argfmt = "----" },
};

static void lkst_dyn_good_desc(const struct lkst_dyn_good *g, char *desc)
{
	strscpy(desc, g->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lkst_dyn_good, lkst_dyn_goods, lkst_dyn_good_desc);

static void lkst_dynevent_good(struct kunit *test)
{
	const struct lkst_dyn_good *g = test->param_value;
	const char *group = g->kp.group ?: "kprobes";
	char *line;

	lkst_test_dyn_init(test);
	lkst_test_kprobe(test, &g->kp);
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command(g->cmd), 0);
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test), g->show);
	lkst_test_dyn_check(test, g->name, g->args, g->argfmt);
	/* Bound, not armed: not enabled */
	KUNIT_EXPECT_FALSE(test, lkst_test_kprobe_enabled(test, group, g->kp.event));

	/* The line read back binds the same again: NAME exists */
	line = kunit_kstrdup(test, g->show, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, line);
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command(strim(line)), -EEXIST);
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test), g->show);
}

/* lkst_dynevent_bad: refused, nothing bound or unbound, the error as logged */

/**
 * struct lkst_dyn_bad - a line that is refused
 * @cmd: the line, words separated by one space (error_log's form)
 * @kp: a kprobe event of its own, if @kp.event is set
 * @synth: needs the synthetic event synthetic/lkst_ku_synth
 * @err: the errno
 * @msg: the text in error_log
 * @pos: the caret, an offset in @cmd
 */
struct lkst_dyn_bad {
	const char		*cmd;
	struct lkst_dyn_kp	kp;
	bool			synth;
	int			err;
	const char		*msg;
	int			pos;
};

/*
 * Each case has KEEP bound to kprobes/lkst_ku_keep, and kprobes/lkst_ku_free
 * unbound.  The caret is at the word the error is about: NAME; GROUP/EVENT
 * (offset 2 after "A ") for what is wrong with the kprobe event, including
 * its fetchargs, which are not in the line; a word too many; the end of
 * a line that lacks GROUP/EVENT.  An earlier kernel's p: or r: definition
 * has it at its start.
 */
static const struct lkst_dyn_bad lkst_dyn_bads[] = {
	/* The syntax */
	{ .cmd = "A", .err = -EINVAL, .msg = LKST_DYN_E_COMMAND, .pos = 1 },
	{ .cmd = "A kprobes", .err = -EINVAL, .msg = LKST_DYN_E_COMMAND, .pos = 2 },
	{ .cmd = "A kprobes/", .err = -EINVAL, .msg = LKST_DYN_E_COMMAND, .pos = 2 },
	{ .cmd = "A kprobes/lkst_ku_free extra", .err = -EINVAL,
	  .msg = LKST_DYN_E_COMMAND, .pos = 23 },
	{ .cmd = "-:KEEP extra", .err = -EINVAL, .msg = LKST_DYN_E_COMMAND,
	  .pos = 7 },
	/* The old syntax */
	{ .cmd = "p:A lkst_dyn_kunit_target", .err = -EINVAL,
	  .msg = LKST_DYN_E_COMMAND, .pos = 0 },
	{ .cmd = "r:A lkst_dyn_kunit_target $retval", .err = -EINVAL,
	  .msg = LKST_DYN_E_COMMAND, .pos = 0 },
	/* NAME */
	{ .cmd = "lower kprobes/lkst_ku_free", .err = -EINVAL,
	  .msg = LKST_DYN_E_NAME, .pos = 0 },
	{ .cmd = "9A kprobes/lkst_ku_free", .err = -EINVAL,
	  .msg = LKST_DYN_E_NAME, .pos = 0 },
	{ .cmd = "_A kprobes/lkst_ku_free", .err = -EINVAL,
	  .msg = LKST_DYN_E_NAME, .pos = 0 },
	{ .cmd = "A-B kprobes/lkst_ku_free", .err = -EINVAL,
	  .msg = LKST_DYN_E_NAME, .pos = 0 },
	{ .cmd = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345 kprobes/lkst_ku_free",
	  .err = -EINVAL, .msg = LKST_DYN_E_NAME, .pos = 0 },
	/* A fixed event, a dynamic one, an ftrace event lkst/NAME */
	{ .cmd = "PROCESS_FORK kprobes/lkst_ku_free", .err = -EEXIST,
	  .msg = LKST_DYN_E_EXISTS, .pos = 0 },
	{ .cmd = "KEEP kprobes/lkst_ku_free", .err = -EEXIST,
	  .msg = LKST_DYN_E_EXISTS, .pos = 0 },
	{ .cmd = "TAKEN kprobes/lkst_ku_free",
	  .kp = { .group = "lkst", .event = "TAKEN" },
	  .err = -EEXIST, .msg = LKST_DYN_E_EXISTS, .pos = 0 },
	/* GROUP/EVENT */
	{ .cmd = "A kprobes/lkst_ku_none", .err = -ENOENT,
	  .msg = LKST_DYN_E_NO_EVENT, .pos = 2 },
	{ .cmd = "A lkst_ku_nogroup/lkst_ku_free", .err = -ENOENT,
	  .msg = LKST_DYN_E_NO_EVENT, .pos = 2 },
	{ .cmd = "A sched/sched_switch", .err = -EINVAL,
	  .msg = LKST_DYN_E_NOT_KPROBE, .pos = 2 },
	{ .cmd = "A lkst/PROCESS_FORK", .err = -EINVAL,
	  .msg = LKST_DYN_E_NOT_KPROBE, .pos = 2 },
	{ .cmd = "A lkst/KEEP", .err = -EINVAL,
	  .msg = LKST_DYN_E_NOT_KPROBE, .pos = 2 },
	{ .cmd = "A synthetic/lkst_ku_synth", .synth = true, .err = -EINVAL,
	  .msg = LKST_DYN_E_NOT_KPROBE, .pos = 2 },
	{ .cmd = "OTHER kprobes/lkst_ku_keep", .err = -EBUSY,
	  .msg = LKST_DYN_E_BOUND, .pos = 6 },
	/* The kprobe event's fetchargs */
	{ .cmd = "A kprobes/lkst_ku_5args",
	  .kp = { .event = "lkst_ku_5args",
		  .fields = { "$arg1", "$arg2", "$arg3", "$stack0", "$stack1" } },
	  .err = -E2BIG, .msg = LKST_DYN_E_TOO_MANY, .pos = 2 },
	{ .cmd = "A kprobes/lkst_ku_array",
	  .kp = { .event = "lkst_ku_array", .fields = { "+0($arg3):u8[4]" } },
	  .err = -EINVAL, .msg = LKST_DYN_E_NOT_NUMERIC, .pos = 2 },
	/* larger than four numbers: refused as an array, with no WARN */
	{ .cmd = "A kprobes/lkst_ku_array5",
	  .kp = { .event = "lkst_ku_array5", .fields = { "+0($arg3):u64[5]" } },
	  .err = -EINVAL, .msg = LKST_DYN_E_NOT_NUMERIC, .pos = 2 },
	{ .cmd = "A kprobes/lkst_ku_symstr",
	  .kp = { .event = "lkst_ku_symstr",
		  .fields = { "a=$arg2:s32", "f=$stack0:symstr" } },
	  .err = -EINVAL, .msg = LKST_DYN_E_NOT_NUMERIC, .pos = 2 },
	{ .cmd = "A kprobes/lkst_ku_str_first",
	  .kp = { .event = "lkst_ku_str_first",
		  .fields = { "+0($arg3):string", "$arg1:u32" } },
	  .err = -EINVAL, .msg = LKST_DYN_E_NOT_NUMERIC, .pos = 2 },
	{ .cmd = "A kprobes/lkst_ku_ustr_first",
	  .kp = { .event = "lkst_ku_ustr_first",
		  .fields = { "+0($arg3):ustring", "$arg2:s32" } },
	  .err = -EINVAL, .msg = LKST_DYN_E_NOT_NUMERIC, .pos = 2 },
	{ .cmd = "A kprobes/lkst_ku_comm_first",
	  .kp = { .event = "lkst_ku_comm_first", .fields = { "$comm", "$arg1:u64" } },
	  .err = -EINVAL, .msg = LKST_DYN_E_NOT_NUMERIC, .pos = 2 },
	{ .cmd = "A kprobes/lkst_ku_two_strs",
	  .kp = { .event = "lkst_ku_two_strs",
		  .fields = { "+0($arg3):string", "+0($arg3):string" } },
	  .err = -EINVAL, .msg = LKST_DYN_E_NOT_NUMERIC, .pos = 2 },
	{ .cmd = "A kprobes/lkst_ku_an_event",
	  .kp = { .event = "lkst_ku_an_event", .fields = { "lkst_event=$arg1" } },
	  .err = -EINVAL, .msg = LKST_DYN_E_ARG_NAME, .pos = 2 },
	{ .cmd = "A kprobes/lkst_ku_an_handler",
	  .kp = { .event = "lkst_ku_an_handler", .fields = { "lkst_handler=$arg1" } },
	  .err = -EINVAL, .msg = LKST_DYN_E_ARG_NAME, .pos = 2 },
	{ .cmd = "A kprobes/lkst_ku_an_reserved",
	  .kp = { .event = "lkst_ku_an_reserved", .fields = { "lkst_reserved=$arg1" } },
	  .err = -EINVAL, .msg = LKST_DYN_E_ARG_NAME, .pos = 2 },
	{ .cmd = "A kprobes/lkst_ku_an_pad",
	  .kp = { .event = "lkst_ku_an_pad",
		  .fields = { "a=$arg1:u32", "lkst_pad=$arg2:s32" } },
	  .err = -EINVAL, .msg = LKST_DYN_E_ARG_NAME, .pos = 2 },
	/* -:NAME */
	{ .cmd = "-:NONE", .err = -ENOENT, .msg = LKST_DYN_E_NO_SUCH, .pos = 0 },
};

static void lkst_dyn_bad_desc(const struct lkst_dyn_bad *b, char *desc)
{
	strscpy(desc, b->cmd, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lkst_dyn_bad, lkst_dyn_bads, lkst_dyn_bad_desc);

#if IS_ENABLED(CONFIG_SYNTH_EVENTS)
static void lkst_test_synth_delete(void *name)
{
	WARN_ON(synth_event_delete(name));
}

/* synthetic/@name, a dynamic event that is not a kprobe event */
static void lkst_test_synth(struct kunit *test, const char *name)
{
	struct synth_field_desc fields[] = { { .type = "u64", .name = "a" } };

	/* No module: its deletion would reset every buffer, LKST's too */
	KUNIT_ASSERT_EQ(test, synth_event_create(name, fields, ARRAY_SIZE(fields),
						 NULL), 0);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_synth_delete,
						  (void *)name));
}
#else
static void lkst_test_synth(struct kunit *test, const char *name)
{
	kunit_skip(test, "needs CONFIG_SYNTH_EVENTS");
}
#endif

static void lkst_dynevent_bad(struct kunit *test)
{
	const struct lkst_dyn_bad *b = test->param_value;
	const char *before;

	lkst_test_dyn_init(test);
	lkst_test_kprobe_plain(test, "lkst_ku_keep");
	lkst_test_kprobe_plain(test, "lkst_ku_free");
	if (b->kp.event)
		lkst_test_kprobe(test, &b->kp);
	if (b->synth)
		lkst_test_synth(test, "lkst_ku_synth");
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("KEEP kprobes/lkst_ku_keep"), 0);
	before = lkst_test_dyn_show(test);
	KUNIT_ASSERT_STREQ(test, before, "KEEP kprobes/lkst_ku_keep\n");
	/* An error of another file: the one checked is this command's */
	lkst_log_err("kunit", "marker", LKST_ERR_NOT_NUMBER, 0);

	KUNIT_EXPECT_EQ(test, lkst_dynevent_command(b->cmd), b->err);
	lkst_test_dyn_err(test, b->cmd, b->msg, b->pos);
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test), before);
	scoped_guard(mutex, &lkst_mutex) {
		KUNIT_EXPECT_NULL(test, lkst_event_lookup("A"));
		KUNIT_EXPECT_NULL(test, lkst_event_lookup("OTHER"));
	}
	KUNIT_EXPECT_FALSE(test, lkst_test_tevent_exists("A"));

	/* Nothing holds the kprobe events the refused line named */
	KUNIT_EXPECT_EQ(test, kprobe_event_delete("kprobes/lkst_ku_free"), 0);
	if (b->kp.event)
		KUNIT_EXPECT_EQ(test, kprobe_event_delete(lkst_test_kprobe_name(test, &b->kp)),
				0);
	/* KEEP is still bound, and its kprobe event busy */
	KUNIT_EXPECT_EQ(test, kprobe_event_delete("kprobes/lkst_ku_keep"), -EBUSY);
}

/*
 * IDs come from the documented range, in turn: not reused at once, each
 * binding gets the next one, around the range.  The 65th binding is
 * -ENOSPC.  dynamic_events shows the bindings in ID order.
 */
static void lkst_dynevent_ids(struct kunit *test)
{
	char name[16], cmd[48], ev[24], *want, (*lines)[64];
	unsigned int first, id, prev, i;
	struct seq_buf s;

	lkst_test_dyn_init(test);
	for (i = 0; i <= LKST_EV_DYN_MAX; i++) {
		snprintf(ev, sizeof(ev), "lkst_ku_id%u", i);
		lkst_test_kprobe_plain(test, ev);
	}
	lines = kunit_kcalloc(test, LKST_EV_DYN_MAX, sizeof(*lines), GFP_KERNEL);
	want = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lines);
	KUNIT_ASSERT_NOT_NULL(test, want);

	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("ID_A kprobes/lkst_ku_id0"), 0);
	first = lkst_test_dyn_id(test, "ID_A");
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("-:ID_A"), 0);
	scoped_guard(mutex, &lkst_mutex) {
		KUNIT_EXPECT_NULL(test, lkst_event_lookup("ID_A"));
		KUNIT_EXPECT_NULL(test, lkst_event_desc(first));
	}
	KUNIT_EXPECT_FALSE(test, lkst_test_tevent_exists("ID_A"));

	/* lkst_ku_id0 is free again: ID_B binds it, and gets the next ID */
	prev = first;
	for (i = 0; i < LKST_EV_DYN_MAX; i++) {
		if (i)
			snprintf(name, sizeof(name), "FILL%u", i);
		else
			strscpy(name, "ID_B");
		snprintf(cmd, sizeof(cmd), "%s kprobes/lkst_ku_id%u", name, i);
		KUNIT_ASSERT_EQ_MSG(test, lkst_dynevent_command(cmd), 0, "%s", cmd);
		id = lkst_test_dyn_id(test, name);
		KUNIT_ASSERT_EQ_MSG(test, id, lkst_dyn_next_id(prev), "%s", cmd);
		snprintf(lines[id - LKST_EV_DYN_FIRST], sizeof(*lines), "%s\n", cmd);
		prev = id;
	}

	/* Every ID is taken; lkst_ku_id64 stays unbound */
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("ONE_MORE kprobes/lkst_ku_id64"),
			-ENOSPC);
	lkst_test_dyn_err(test, "ONE_MORE kprobes/lkst_ku_id64",
			  LKST_DYN_E_ID_RANGE, 0);
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_EXPECT_NULL(test, lkst_event_lookup("ONE_MORE"));
	KUNIT_EXPECT_EQ(test, kprobe_event_delete("kprobes/lkst_ku_id64"), 0);

	seq_buf_init(&s, want, PAGE_SIZE);
	for (i = 0; i < LKST_EV_DYN_MAX; i++)
		seq_buf_puts(&s, lines[i]);
	KUNIT_ASSERT_FALSE(test, seq_buf_has_overflowed(&s));
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test), want);

	KUNIT_EXPECT_EQ(test, lkst_dynevent_remove_all(), 0);
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test), "");
}

static const struct lkst_dyn_kp lkst_dyn_ku_entry = {
	.event = "lkst_ku_entry", .loc = LKST_KU_MODSYM,
	.fields = { "a=$arg1:x64", "b=$arg2:s32", "$arg2:u8", "s=+0($arg3):string" },
};

static const struct lkst_dyn_kp lkst_dyn_ku_ret = {
	.event = "lkst_ku_ret", .loc = LKST_KU_MODSYM, .ret = true,
	.fields = { "$retval:s32", "a=$arg1:x64", "s=+0($arg3):string" },
};

/*
 * A probe and a return probe on a function of this module, bound and routed
 * to a buffer by a user maskset: armed only while that maskset is current,
 * they record the exact arguments and return value, in the context of the
 * caller.  Binding and arming pin no module.
 */
static void lkst_dynevent_records(struct kunit *test)
{
	static const char *const ent_args[] = { "a", "b", "arg3", "s" };
	static const char *const ret_args[] = { "arg1", "a", "s", "-" };
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_dyn");
	struct lkst_record rec, recs[2];
	unsigned int ent, ret_id;
	int refs;

	lkst_test_dyn_init(test);
	lkst_test_kprobe(test, &lkst_dyn_ku_entry);
	lkst_test_kprobe(test, &lkst_dyn_ku_ret);
	refs = lkst_test_modref();
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("KU_ENTRY kprobes/lkst_ku_entry"), 0);
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("KU_RET kprobes/lkst_ku_ret"), 0);
	lkst_test_no_pin(test, refs);
	ent = lkst_test_dyn_check(test, "KU_ENTRY", ent_args, "xdus");
	ret_id = lkst_test_dyn_check(test, "KU_RET", ret_args, "dxs-");
	KUNIT_EXPECT_FALSE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_entry"));
	KUNIT_EXPECT_FALSE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_ret"));

	lkst_test_dyn_maskset(test, "kunit_dyn",
			      "KU_ENTRY DEFAULT kunit_dyn\nKU_RET DEFAULT kunit_dyn\n");
	lkst_test_ms_current(test, "kunit_dyn");
	scoped_guard(mutex, &lkst_mutex) {
		KUNIT_EXPECT_TRUE(test, __lkst_event_attached(ent));
		KUNIT_EXPECT_TRUE(test, __lkst_event_attached(ret_id));
	}
	KUNIT_EXPECT_TRUE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_entry"));
	KUNIT_EXPECT_TRUE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_ret"));
	lkst_test_no_pin(test, refs);

	KUNIT_EXPECT_EQ(test, lkst_dyn_kunit_target(0xfeedface12345678UL, -7,
						    "kunit-string-longer"), -6);

	lkst_test_ms_current(test, "RNOTHING");
	scoped_guard(mutex, &lkst_mutex) {
		KUNIT_EXPECT_FALSE(test, __lkst_event_attached(ent));
		KUNIT_EXPECT_FALSE(test, __lkst_event_attached(ret_id));
	}
	KUNIT_EXPECT_FALSE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_entry"));
	KUNIT_EXPECT_FALSE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_ret"));
	/* Disarmed: not recorded */
	KUNIT_EXPECT_EQ(test, lkst_dyn_kunit_target(1, 2, "x"), 3);
	lkst_test_no_pin(test, refs);

	/* Two records, on one CPU or, if the test migrated, on two */
	KUNIT_ASSERT_TRUE(test, lkst_test_consume(buf, &recs[0]));
	KUNIT_ASSERT_TRUE(test, lkst_test_consume(buf, &recs[1]));
	KUNIT_EXPECT_FALSE(test, lkst_test_consume(buf, &rec));
	if (recs[0].event == ret_id)
		swap(recs[0], recs[1]);
	rec = recs[0];
	KUNIT_EXPECT_EQ(test, rec.event, ent);
	KUNIT_EXPECT_EQ(test, rec.type, READ_ONCE(lkst_event_type[ent]));
	KUNIT_EXPECT_EQ(test, rec.handler, LKST_HANDLER_DEFAULT);
	KUNIT_EXPECT_EQ(test, rec.pid, current->pid);
	/* The caller's context: a task, interrupts on (not the int3's NMI) */
	KUNIT_EXPECT_EQ(test, rec.flags, 0);
	KUNIT_EXPECT_EQ(test, rec.arg[0], 0xfeedface12345678ULL);
	KUNIT_EXPECT_EQ(test, rec.arg[1], (u64)-7LL);
	KUNIT_EXPECT_EQ(test, rec.arg[2], 0xf9ULL);
	/* A string in the last slot: 7 characters and the NUL */
	KUNIT_EXPECT_MEMEQ(test, &rec.arg[3], "kunit-s", 8);
	rec = recs[1];
	KUNIT_EXPECT_EQ(test, rec.event, ret_id);
	KUNIT_EXPECT_EQ(test, rec.type, READ_ONCE(lkst_event_type[ret_id]));
	KUNIT_EXPECT_EQ(test, rec.handler, LKST_HANDLER_DEFAULT);
	KUNIT_EXPECT_EQ(test, rec.pid, current->pid);
	KUNIT_EXPECT_EQ(test, rec.flags, 0);
	KUNIT_EXPECT_EQ(test, rec.arg[0], (u64)-6LL);
	KUNIT_EXPECT_EQ(test, rec.arg[1], 0xfeedface12345678ULL);
	/* In the two slots left: 15 characters and the NUL */
	KUNIT_EXPECT_MEMEQ(test, &rec.arg[2], "kunit-string-lo", 16);

	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("-:KU_ENTRY"), -EBUSY);
	lkst_test_dyn_ms_remove("kunit_dyn");
	KUNIT_EXPECT_EQ(test, lkst_dynevent_remove_all(), 0);
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test), "");
	lkst_test_no_pin(test, refs);
}

static void lkst_test_table_free(struct lkst_table *t)
{
	guard(mutex)(&lkst_mutex);
	__lkst_table_free(t);
}

/*
 * A line of a maskset written while an event existed binds to that event,
 * not to its ID: once the event is gone and another took its ID, closing
 * the file installs nothing.  One kprobe event is bound and unbound until
 * the ID comes round again, after the 63 others.
 */
static void lkst_dynevent_reused_id(struct kunit *test)
{
	const struct lkst_event_desc *d;
	struct lkst_table *draft;
	struct lkst_maskset *ms;
	unsigned int id, got = 0, i;
	char line[32];
	int ret;

	lkst_test_dyn_init(test);
	lkst_test_kprobe_plain(test, "lkst_ku_gen");
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("GEN_A kprobes/lkst_ku_gen"), 0);
	id = lkst_test_dyn_id(test, "GEN_A");
	ms = lkst_test_dyn_maskset(test, "kunit_gen", NULL);
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

	for (i = 0; i < LKST_EV_DYN_MAX; i++) {
		ret = lkst_dynevent_command("GEN_B kprobes/lkst_ku_gen");
		if (ret)
			break;
		scoped_guard(mutex, &lkst_mutex) {
			d = lkst_event_lookup("GEN_B");
			got = d ? d->id : 0;
		}
		if (!got || got == id)
			break;
		ret = lkst_dynevent_command("-:GEN_B");
		if (ret)
			break;
	}
	if (ret || got != id)
		lkst_test_table_free(draft);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, got, id);
	KUNIT_EXPECT_EQ(test, i, LKST_EV_DYN_MAX - 1);

	scoped_guard(mutex, &lkst_mutex) {
		ret = __lkst_maskset_commit(ms, draft, false);
		if (ret)
			__lkst_table_free(draft);
	}
	KUNIT_EXPECT_EQ(test, ret, -ENOENT);
	KUNIT_EXPECT_STREQ(test, lkst_last_err(NULL, NULL),
			   "An event of the table was removed since its line was written");
	/* The event in the ID is named by no maskset: it can go */
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("-:GEN_B"), 0);
}

/*
 * -:NAME and the truncation of dynamic_events: refused while any maskset,
 * current or not, names the event, the truncation then unbinding none.  The
 * kprobe event stays, unbound, and can be bound again.
 */
static void lkst_dynevent_unbind(struct kunit *test)
{
	struct lkst_maskset *ms;

	lkst_test_dyn_init(test);
	lkst_test_kprobe_plain(test, "lkst_ku_rm_a");
	lkst_test_kprobe_plain(test, "lkst_ku_rm_b");
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("R_A kprobes/lkst_ku_rm_a"), 0);
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("R_B kprobes/lkst_ku_rm_b"), 0);
	ms = lkst_test_dyn_maskset(test, "kunit_rm", "R_A DEFAULT\n");

	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("-:R_A"), -EBUSY);
	lkst_test_dyn_err(test, "-:R_A", LKST_DYN_E_IN_USE, 0);
	KUNIT_EXPECT_EQ(test, lkst_dynevent_remove_all(), -EBUSY);
	KUNIT_EXPECT_TRUE(test, lkst_test_tevent_exists("R_A"));
	KUNIT_EXPECT_TRUE(test, lkst_test_tevent_exists("R_B"));

	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("-:R_B"), 0);
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_EXPECT_NULL(test, lkst_event_lookup("R_B"));
	KUNIT_EXPECT_FALSE(test, lkst_test_tevent_exists("R_B"));
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("-:R_B"), -ENOENT);
	lkst_test_dyn_err(test, "-:R_B", LKST_DYN_E_NO_SUCH, 0);
	/* The kprobe event stays, ftrace's, free for another binding */
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("R_C kprobes/lkst_ku_rm_b"), 0);
	KUNIT_EXPECT_EQ(test, lkst_dynevent_remove_all(), -EBUSY);

	/* No line names R_A: every binding goes, no kprobe event does */
	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "PROCESS_FORK DEFAULT\n"), 0);
	KUNIT_EXPECT_EQ(test, lkst_dynevent_remove_all(), 0);
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test), "");
	scoped_guard(mutex, &lkst_mutex) {
		KUNIT_EXPECT_NULL(test, lkst_event_lookup("R_A"));
		KUNIT_EXPECT_NULL(test, lkst_event_lookup("R_C"));
	}
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("R_A kprobes/lkst_ku_rm_b"), 0);
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("-:R_A"), 0);
	KUNIT_EXPECT_EQ(test, kprobe_event_delete("kprobes/lkst_ku_rm_a"), 0);
	KUNIT_EXPECT_EQ(test, kprobe_event_delete("kprobes/lkst_ku_rm_b"), 0);
}

/*
 * While bound, armed or not, the kprobe event is busy: ftrace's deletion
 * is -EBUSY, by kprobe_event_delete() or a dynevent_cmd.  Once unbound it
 * goes, and a binding to it is refused as to any missing event.
 */
static void lkst_dynevent_kprobe_busy(struct kunit *test)
{
	lkst_test_dyn_init(test);
	lkst_test_kprobe_plain(test, "lkst_ku_busy");
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("BUSY kprobes/lkst_ku_busy"), 0);

	KUNIT_EXPECT_EQ(test, kprobe_event_delete("kprobes/lkst_ku_busy"), -EBUSY);
	KUNIT_EXPECT_EQ(test, lkst_test_kprobe_cmd("-:kprobes/lkst_ku_busy"), -EBUSY);
	KUNIT_EXPECT_FALSE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_busy"));

	lkst_test_dyn_maskset(test, "kunit_busy", "BUSY DEFAULT\n");
	lkst_test_ms_current(test, "kunit_busy");
	KUNIT_EXPECT_TRUE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_busy"));
	KUNIT_EXPECT_EQ(test, kprobe_event_delete("kprobes/lkst_ku_busy"), -EBUSY);
	lkst_test_dyn_ms_remove("kunit_busy");
	KUNIT_EXPECT_FALSE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_busy"));
	KUNIT_EXPECT_EQ(test, lkst_test_kprobe_cmd("-:kprobes/lkst_ku_busy"), -EBUSY);
	KUNIT_EXPECT_STREQ(test, lkst_test_dyn_show(test), "BUSY kprobes/lkst_ku_busy\n");

	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("-:BUSY"), 0);
	KUNIT_EXPECT_EQ(test, kprobe_event_delete("kprobes/lkst_ku_busy"), 0);
	KUNIT_EXPECT_EQ(test, lkst_test_kprobe_cmd("-:kprobes/lkst_ku_busy"), -ENOENT);
	KUNIT_EXPECT_EQ(test, lkst_dynevent_command("BUSY kprobes/lkst_ku_busy"), -ENOENT);
	lkst_test_dyn_err(test, "BUSY kprobes/lkst_ku_busy", LKST_DYN_E_NO_EVENT, 5);
}

static void lkst_test_instance_remove(void *data)
{
	struct trace_array *tr = data;

	trace_array_put(tr);
	WARN_ON(trace_array_destroy(tr));
}

/*
 * The kprobe event enabled in a trace instance too: LKST and ftrace each
 * get the hits while they use it, and the probe stays enabled while either
 * does.  LKST's hits write no kprobe record.
 */
static void lkst_dynevent_shared(struct kunit *test)
{
	static const struct lkst_dyn_kp kp = {
		.event = "lkst_ku_shared", .fields = { "a=$arg1:u64" },
	};
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_dsh");
	unsigned long seen = 0, base;
	struct lkst_record rec;
	struct trace_array *tr;
	unsigned int id, n = 0;

	lkst_test_dyn_init(test);
	lkst_test_kprobe(test, &kp);
	/* Removed before the kprobe event: it disables the event */
	tr = trace_array_get_by_name("lkst_ku_shared", NULL);
	KUNIT_ASSERT_NOT_NULL(test, tr);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_instance_remove, tr));
	KUNIT_ASSERT_EQ(test, lkst_dynevent_command("SHARED kprobes/lkst_ku_shared"), 0);
	id = lkst_test_dyn_id(test, "SHARED");
	lkst_test_dyn_maskset(test, "kunit_dsh", "SHARED DEFAULT kunit_dsh\n");

	/* What the instance has already, if a run before left it */
	base = ring_buffer_entries(tr->array_buffer.buffer);

	/* LKST alone */
	lkst_test_ms_current(test, "kunit_dsh");
	KUNIT_EXPECT_EQ(test, lkst_dyn_kunit_target(1, 0, ""), 1);
	KUNIT_EXPECT_EQ(test, ring_buffer_entries(tr->array_buffer.buffer), base + 0);
	/* Both */
	KUNIT_ASSERT_EQ(test, trace_array_set_clr_event(tr, "kprobes", "lkst_ku_shared",
							true), 0);
	KUNIT_EXPECT_EQ(test, lkst_dyn_kunit_target(2, 0, ""), 1);
	KUNIT_EXPECT_EQ(test, ring_buffer_entries(tr->array_buffer.buffer), base + 1);
	/* ftrace stops, LKST keeps the probe enabled */
	KUNIT_ASSERT_EQ(test, trace_array_set_clr_event(tr, "kprobes", "lkst_ku_shared",
							false), 0);
	KUNIT_EXPECT_TRUE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_shared"));
	KUNIT_EXPECT_EQ(test, lkst_dyn_kunit_target(3, 0, ""), 1);
	KUNIT_EXPECT_EQ(test, ring_buffer_entries(tr->array_buffer.buffer), base + 1);
	/* LKST stops, ftrace keeps it */
	KUNIT_ASSERT_EQ(test, trace_array_set_clr_event(tr, "kprobes", "lkst_ku_shared",
							true), 0);
	lkst_test_ms_current(test, "RNOTHING");
	KUNIT_EXPECT_TRUE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_shared"));
	KUNIT_EXPECT_EQ(test, lkst_dyn_kunit_target(4, 0, ""), 1);
	KUNIT_EXPECT_EQ(test, ring_buffer_entries(tr->array_buffer.buffer), base + 2);
	/* Neither */
	KUNIT_ASSERT_EQ(test, trace_array_set_clr_event(tr, "kprobes", "lkst_ku_shared",
							false), 0);
	KUNIT_EXPECT_FALSE(test, lkst_test_kprobe_enabled(test, "kprobes", "lkst_ku_shared"));
	KUNIT_EXPECT_EQ(test, lkst_dyn_kunit_target(5, 0, ""), 1);
	KUNIT_EXPECT_EQ(test, ring_buffer_entries(tr->array_buffer.buffer), base + 2);

	/* LKST recorded the calls 1 to 3, each once */
	while (n < 8 && lkst_test_consume(buf, &rec)) {
		KUNIT_EXPECT_EQ(test, rec.event, id);
		if (rec.arg[0] < 32)
			seen |= BIT(rec.arg[0]);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, seen, BIT(1) | BIT(2) | BIT(3));
}

static struct kunit_case lkst_dynevent_test_cases[] = {
	KUNIT_CASE_PARAM(lkst_dynevent_good, lkst_dyn_good_gen_params),
	KUNIT_CASE_PARAM(lkst_dynevent_bad, lkst_dyn_bad_gen_params),
	KUNIT_CASE(lkst_dynevent_ids),
	KUNIT_CASE(lkst_dynevent_reused_id),
	KUNIT_CASE(lkst_dynevent_records),
	KUNIT_CASE(lkst_dynevent_unbind),
	KUNIT_CASE(lkst_dynevent_kprobe_busy),
	KUNIT_CASE(lkst_dynevent_shared),
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
