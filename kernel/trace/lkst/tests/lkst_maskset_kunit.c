// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for LKST masksets, dispatch and handlers.
 *
 * Tests that make a maskset current only use events that do not fire on
 * their own during a test (O_PANIC) and restore RNOTHING afterwards.
 */
#include <kunit/test.h>
#include <linux/ctype.h>
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../lkst_internal.h"
#include "lkst_kunit.h"

/* Helpers */

static void lkst_test_maskset_remove(void *data)
{
	struct lkst_maskset *ms = data;

	guard(mutex)(&lkst_mutex);
	__lkst_maskset_remove(ms);
}

static struct lkst_maskset *lkst_test_maskset(struct kunit *test,
					      const char *name)
{
	struct lkst_maskset *ms;

	scoped_guard(mutex, &lkst_mutex)
		ms = __lkst_maskset_create(name);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ms);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_maskset_remove, ms));
	return ms;
}

/*
 * Tests that switch masksets put back the one that was current (maybe a
 * boot maskset).  Registered after the masksets and buffers of the test,
 * so it runs before their removal: cleanup actions run in reverse.
 */
static void lkst_test_restore_current(void *data)
{
	scoped_guard(mutex, &lkst_mutex)
		__lkst_maskset_set_current(data);
	lkst_sync_flush();	/* takes lkst_mutex in its work item */
}

static void lkst_test_save_current(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_restore_current,
						  lkst_maskset_current()));
}

/* The text of masksets/NAME, in a test-managed buffer. */
static const char *lkst_test_show(struct kunit *test, struct lkst_maskset *ms)
{
	struct seq_buf s;
	char *buf;

	buf = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	seq_buf_init(&s, buf, 2 * PAGE_SIZE);
	scoped_guard(mutex, &lkst_mutex)
		lkst_maskset_print(&s, ms);
	KUNIT_ASSERT_FALSE(test, seq_buf_has_overflowed(&s));
	return seq_buf_str(&s);
}

static struct lkst_table *lkst_test_table(struct lkst_maskset *ms)
{
	return rcu_dereference_protected(ms->table, true);
}

static void lkst_dispatch_synthetic(struct lkst_table *t, unsigned int event,
				    u64 tag)
{
	const u64 args[LKST_NR_ARGS] = { tag, 2, 3, 4 };

	preempt_disable();
	lkst_dispatch_table(t, event, 99, args);
	preempt_enable();
}

/* lkst_maskset: built-in masksets route every event as documented */

static const char * const lkst_builtin_names[] = { "RDEFAULT", "RALL", "RNOTHING" };

static void lkst_builtin_desc(const char * const *name, char *desc)
{
	strscpy(desc, *name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lkst_builtin, lkst_builtin_names, lkst_builtin_desc);

static void lkst_builtin_routing(struct kunit *test)
{
	const char *name = *(const char * const *)test->param_value;
	struct lkst_buffer *def = lkst_buffer_default();
	const struct lkst_event_desc *d;
	struct lkst_maskset *ms;
	struct lkst_record rec;
	struct lkst_table *t;
	bool traced, dispatch;

	scoped_guard(mutex, &lkst_mutex)
		ms = __lkst_maskset_lookup(name);
	KUNIT_ASSERT_NOT_NULL(test, ms);
	KUNIT_EXPECT_TRUE(test, ms->builtin);
	t = lkst_test_table(ms);
	/*
	 * Dispatching into the default buffer needs it to ourselves: not
	 * while a boot maskset records into it.
	 */
	dispatch = !strcmp(lkst_maskset_current()->name, "RNOTHING");
	if (dispatch)
		ring_buffer_reset(lkst_buffer_rb(def));
	else
		kunit_info(test, "default buffer in use: dispatch not checked\n");

	/* The events, dynamic ones included, stay while lkst_mutex is held */
	guard(mutex)(&lkst_mutex);
	for (d = lkst_event_next(NULL); d; d = lkst_event_next(d)) {
		if (d->id >= LKST_EV_DYN_FIRST)
			traced = false;		/* never built in */
		else if (!strcmp(name, "RALL"))
			traced = true;
		else if (!strcmp(name, "RDEFAULT"))
			traced = d->primary;
		else
			traced = false;

		KUNIT_EXPECT_EQ_MSG(test, test_bit(d->id, t->used), traced,
				    "%s", d->name);
		KUNIT_EXPECT_PTR_EQ_MSG(test, t->ent[d->id].handler,
					traced ? &lkst_handler_default : NULL,
					"%s", d->name);
		if (!traced)
			continue;
		KUNIT_EXPECT_PTR_EQ(test, t->ent[d->id].buf, def);
		if (!dispatch)
			continue;

		lkst_dispatch_synthetic(t, d->id, d->id * 10);
		KUNIT_ASSERT_TRUE_MSG(test, lkst_test_consume(def, &rec),
				      "%s", d->name);
		KUNIT_EXPECT_EQ(test, rec.event, d->id);
		KUNIT_EXPECT_EQ(test, rec.handler, LKST_HANDLER_DEFAULT);
		KUNIT_EXPECT_EQ(test, rec.pid, 99);
		KUNIT_EXPECT_EQ(test, rec.arg[0], d->id * 10);
	}
	if (dispatch)
		KUNIT_EXPECT_FALSE(test, lkst_test_consume(def, &rec));
	/* High-rate events are not primary */
	if (!strcmp(name, "RDEFAULT")) {
		KUNIT_EXPECT_FALSE(test, test_bit(LKST_EV_MEM_KMALLOC, t->used));
		KUNIT_EXPECT_FALSE(test, test_bit(LKST_EV_LK_CONTENTION_BEGIN, t->used));
		KUNIT_EXPECT_TRUE(test, test_bit(LKST_EV_PROCESS_CONTEXTSWITCH, t->used));
	}
}

struct lkst_parse_case {
	const char	*text;
	int		ret;
	const char	*err;		/* expected error_log message */
	int		pos;		/* and caret position */
	const char	*shown;		/* expected masksets/NAME on success */
};

static const struct lkst_parse_case lkst_parse_cases[] = {
	{ "PROCESS_FORK DEFAULT\n", 0, NULL, 0, "PROCESS_FORK DEFAULT\n" },
	{ "", 0, NULL, 0, "" },
	{ "# comment\n\n\tPROCESS_EXIT\tDEFAULT  kunit_pbuf\n", 0, NULL, 0,
	  "PROCESS_EXIT DEFAULT kunit_pbuf\n" },
	/* NOTHING lines read back as written (ID order) */
	{ "PROCESS_EXIT DEFAULT default\nPROCESS_FORK NOTHING", 0, NULL, 0,
	  "PROCESS_FORK NOTHING\nPROCESS_EXIT DEFAULT\n" },
	{ "PROCESS_EXIT DEFAULT\nPROCESS_FORK DEFAULT\n", 0, NULL, 0,
	  "PROCESS_FORK DEFAULT\nPROCESS_EXIT DEFAULT\n" },	/* ID order */
	{ "FORK DEFAULT", -EINVAL, "Unknown event", 0 },
	{ "PROCESS_FORK", -EINVAL, "Missing handler", 12 },
	{ "PROCESS_FORK BOGUS", -EINVAL, "Unknown handler", 13 },
	{ "PROCESS_FORK DEFAULT nobuf", -EINVAL, "Unknown buffer", 21 },
	{ "PROCESS_FORK DEFAULT default x", -EINVAL, "Too many fields", 29 },
	{ "PROCESS_FORK DEFAULT\nPROCESS_FORK NOTHING", -EINVAL,
	  "Duplicate event", 0 },
	{ NULL /* a 200-character line */, -EINVAL, "Line too long", 0 },
	{ "PROCESS_FORK NOTHING\nPROCESS_FORK DEFAULT", -EINVAL,
	  "Duplicate event", 0 },
};

/* Parameter descriptions go into KTAP lines: no control characters, no # */
static void lkst_test_printable(char *desc)
{
	for (; *desc; desc++)
		if (!isprint(*desc) || *desc == '#')
			*desc = '.';
}

static void lkst_parse_desc(const struct lkst_parse_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s%s", c->ret ? "bad: " : "ok: ",
		 c->err ?: c->text);
	lkst_test_printable(desc);
}

KUNIT_ARRAY_PARAM(lkst_parse, lkst_parse_cases, lkst_parse_desc);

static void lkst_maskset_parse_lines(struct kunit *test)
{
	const struct lkst_parse_case *c = test->param_value;
	const char *before, *after, *msg, *cmd, *text;
	struct lkst_maskset *ms;
	char *long_line;
	int pos;

	/* Buffers first: cleanup runs in reverse, masksets pin buffers */
	lkst_test_buffer(test, "kunit_pbuf");
	ms = lkst_test_maskset(test, "kunit_parse");
	/* A known state to compare with after a failed write */
	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "PROCESS_WAKEUP DEFAULT\n"), 0);
	before = lkst_test_show(test, ms);

	if (c->text) {
		text = c->text;
	} else {
		long_line = kunit_kzalloc(test, 201, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, long_line);
		memset(long_line, 'x', 200);
		memcpy(long_line, "PROCESS_FORK DEFAULT ", 21);
		text = long_line;
	}
	KUNIT_EXPECT_EQ(test, lkst_test_maskset_write(ms, text), c->ret);
	after = lkst_test_show(test, ms);
	if (c->ret) {
		KUNIT_EXPECT_STREQ(test, after, before);
		msg = lkst_last_err(&cmd, &pos);
		KUNIT_ASSERT_NOT_NULL(test, msg);
		KUNIT_EXPECT_STREQ(test, msg, c->err);
		KUNIT_EXPECT_EQ(test, pos, c->pos);
	} else {
		KUNIT_EXPECT_STREQ(test, after, c->shown);
	}
}

/* cat masksets/A > f; cat f > masksets/B makes B equal to A */
static void lkst_maskset_round_trip(struct kunit *test)
{
	struct lkst_maskset *b = lkst_test_maskset(test, "kunit_rt");
	struct lkst_maskset *a;
	const char *text;

	scoped_guard(mutex, &lkst_mutex)
		a = __lkst_maskset_lookup("RDEFAULT");
	KUNIT_ASSERT_NOT_NULL(test, a);
	text = lkst_test_show(test, a);
	KUNIT_EXPECT_EQ(test, lkst_test_maskset_write(b, text), 0);
	KUNIT_EXPECT_STREQ(test, lkst_test_show(test, b), text);
	KUNIT_EXPECT_TRUE(test, bitmap_equal(lkst_test_table(a)->used,
					     lkst_test_table(b)->used,
					     LKST_NR_IDS));
}

static void lkst_maskset_names_and_busy(struct kunit *test)
{
	struct lkst_maskset *ms = lkst_test_maskset(test, "kunit_busy");
	struct lkst_maskset *got = lkst_maskset_get("kunit_busy");

	KUNIT_EXPECT_PTR_EQ(test, got, ms);
	KUNIT_EXPECT_NULL(test, lkst_maskset_get("kunit_none"));

	mutex_lock(&lkst_mutex);
	KUNIT_EXPECT_EQ(test, PTR_ERR(__lkst_maskset_create("kunit_busy")), -EEXIST);
	KUNIT_EXPECT_EQ(test, PTR_ERR(__lkst_maskset_create("RALL")), -EEXIST);
	KUNIT_EXPECT_EQ(test, PTR_ERR(__lkst_maskset_create("a b")), -EINVAL);
	KUNIT_EXPECT_EQ(test, __lkst_maskset_remove(__lkst_maskset_lookup("RALL")),
			-EPERM);
	KUNIT_EXPECT_EQ(test, __lkst_maskset_remove(ms), -EBUSY);
	mutex_unlock(&lkst_mutex);

	lkst_maskset_put(got);
	KUNIT_EXPECT_EQ(test, atomic_read(&ms->users), 0);
}

/* A buffer a maskset routes to cannot be removed. */
static void lkst_maskset_pins_buffer(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_pinbuf");
	struct lkst_maskset *ms = lkst_test_maskset(test, "kunit_pin");

	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "O_PANIC DEFAULT kunit_pinbuf\n"), 0);
	KUNIT_EXPECT_EQ(test, buf->users, 1);
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_EXPECT_EQ(test, __lkst_buffer_remove(buf), -EBUSY);
	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "\n"), 0);
	KUNIT_EXPECT_EQ(test, buf->users, 0);
}

/* Replacing the current table is atomic and moves the probes with it. */
static void lkst_maskset_atomic_replace(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_curbuf");
	struct lkst_maskset *ms = lkst_test_maskset(test, "kunit_cur");
	struct lkst_record rec;
	struct lkst_table *old;

	lkst_test_save_current(test);
	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "O_PANIC DEFAULT kunit_curbuf\n"), 0);
	scoped_guard(mutex, &lkst_mutex) {
		KUNIT_ASSERT_EQ(test, __lkst_maskset_set_current(ms), 0);
		KUNIT_EXPECT_TRUE(test, __lkst_event_attached(LKST_EV_O_PANIC));
	}
	KUNIT_EXPECT_PTR_EQ(test, lkst_maskset_current(), ms);
	old = rcu_dereference_protected(lkst_cur_table, true);
	KUNIT_EXPECT_PTR_EQ(test, old, lkst_test_table(ms));

	/* A bad write changes nothing, not even the published pointer */
	KUNIT_EXPECT_EQ(test, lkst_test_maskset_write(ms, "O_PANIC BOGUS\n"), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, rcu_dereference_protected(lkst_cur_table, true), old);

	/* NOTHING keeps the probe attached and records nothing */
	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "O_PANIC NOTHING\n"), 0);
	KUNIT_EXPECT_PTR_NE(test, rcu_dereference_protected(lkst_cur_table, true), old);
	KUNIT_EXPECT_PTR_EQ(test, rcu_dereference_protected(lkst_cur_table, true),
			    lkst_test_table(ms));
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_EXPECT_TRUE(test, __lkst_event_attached(LKST_EV_O_PANIC));
	KUNIT_EXPECT_STREQ(test, lkst_test_show(test, ms), "O_PANIC NOTHING\n");

	preempt_disable();
	lkst_dispatch(LKST_EV_O_PANIC, 1, 2, 3, 4);
	preempt_enable();
	KUNIT_EXPECT_FALSE(test, lkst_test_consume(buf, &rec));

	/* An event the table does not list has no probe */
	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, ""), 0);
	scoped_guard(mutex, &lkst_mutex) {
		KUNIT_EXPECT_FALSE(test, __lkst_event_attached(LKST_EV_O_PANIC));
		KUNIT_EXPECT_EQ(test, __lkst_maskset_remove(ms), -EBUSY);
	}
}

/* Commit a draft table built from @text, merged or not. */
static int lkst_test_commit(struct lkst_maskset *ms, const char *text, bool merge)
{
	char *s = kstrdup(text, GFP_KERNEL);
	struct lkst_table *t;
	int ret;

	if (!s)
		return -ENOMEM;
	scoped_guard(mutex, &lkst_mutex) {
		ret = __lkst_maskset_parse(ms, s, &t);
		if (!ret) {
			ret = __lkst_maskset_commit(ms, t, merge);
			if (ret)
				__lkst_table_free(t);
		}
	}
	kfree(s);
	return ret;
}

/* ">>" adds to the table as it is at commit time, ">" replaces it */
static void lkst_maskset_commit_merges(struct kunit *test)
{
	struct lkst_maskset *ms = lkst_test_maskset(test, "kunit_merge");

	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "PROCESS_FORK DEFAULT\n"
					      "PROCESS_EXIT DEFAULT\n"), 0);
	KUNIT_ASSERT_EQ(test, lkst_test_commit(ms, "PROCESS_EXIT NOTHING\n"
					       "PROCESS_WAKEUP DEFAULT\n", true), 0);
	KUNIT_EXPECT_STREQ(test, lkst_test_show(test, ms),
			   "PROCESS_WAKEUP DEFAULT\nPROCESS_FORK DEFAULT\n"
			   "PROCESS_EXIT NOTHING\n");
	KUNIT_ASSERT_EQ(test, lkst_test_commit(ms, "PROCESS_EXEC DEFAULT\n", false), 0);
	KUNIT_EXPECT_STREQ(test, lkst_test_show(test, ms), "PROCESS_EXEC DEFAULT\n");
	/* A built-in maskset is never written */
	scoped_guard(mutex, &lkst_mutex)
		ms = __lkst_maskset_lookup("RALL");
	KUNIT_EXPECT_EQ(test, lkst_test_commit(ms, "PROCESS_EXEC DEFAULT\n", true),
			-EPERM);
}

/*
 * An open masksets/NAME holds a reference: after removal the struct is
 * still there, marked removed, and a commit through it fails with -ENODEV
 * instead of landing in a maskset created later at the same address.
 */
static void lkst_maskset_removed_while_referenced(struct kunit *test)
{
	struct lkst_maskset *ms, *other;
	struct lkst_table *t;

	scoped_guard(mutex, &lkst_mutex)
		ms = __lkst_maskset_create("kunit_gone");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ms);
	kref_get(&ms->kref);			/* as open() does */
	scoped_guard(mutex, &lkst_mutex) {
		KUNIT_EXPECT_EQ(test, __lkst_maskset_remove(ms), 0);
		KUNIT_EXPECT_TRUE(test, ms->removed);
		KUNIT_EXPECT_NULL(test, __lkst_maskset_lookup("kunit_gone"));
		other = __lkst_maskset_create("kunit_gone");
	}
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);
	KUNIT_EXPECT_PTR_NE(test, other, ms);
	KUNIT_EXPECT_EQ(test, lkst_test_commit(ms, "PROCESS_FORK DEFAULT\n", false),
			-ENODEV);
	KUNIT_EXPECT_STREQ(test, lkst_test_show(test, other), "");
	scoped_guard(mutex, &lkst_mutex) {
		t = lkst_table_alloc();
		KUNIT_EXPECT_EQ(test, __lkst_maskset_commit(ms, t, true), -ENODEV);
		__lkst_table_free(t);
		kref_put(&ms->kref, lkst_maskset_free);	/* as close() */
		KUNIT_EXPECT_EQ(test, __lkst_maskset_remove(other), 0);
	}
}

/* raw reads end of file once nothing records into the buffer any more */
static void lkst_maskset_buffer_recording(struct kunit *test)
{
	struct lkst_buffer *a = lkst_test_buffer(test, "kunit_reca");
	struct lkst_buffer *b = lkst_test_buffer(test, "kunit_recb");
	struct lkst_maskset *ms = lkst_test_maskset(test, "kunit_rec");
	struct lkst_maskset *none;

	lkst_test_save_current(test);
	scoped_guard(mutex, &lkst_mutex) {
		none = __lkst_maskset_lookup("RNOTHING");
		KUNIT_ASSERT_EQ(test, __lkst_maskset_set_current(none), 0);
	}
	KUNIT_EXPECT_FALSE(test, lkst_buffer_recording(a));

	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "O_PANIC DEFAULT kunit_reca\n"
					      "PROCESS_FORK NOTHING kunit_recb\n"), 0);
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_ASSERT_EQ(test, __lkst_maskset_set_current(ms), 0);
	KUNIT_EXPECT_TRUE(test, lkst_buffer_recording(a));
	KUNIT_EXPECT_FALSE(test, lkst_buffer_recording(b));	/* NOTHING */

	scoped_guard(mutex, &lkst_mutex)
		KUNIT_ASSERT_EQ(test, __lkst_maskset_set_current(none), 0);
	KUNIT_EXPECT_FALSE(test, lkst_buffer_recording(a));
}

/* lkst_handler: extended handlers */

struct lkst_test_priv {
	unsigned int		calls;
	unsigned int		event;
	pid_t			pid;
	u64			arg0;
	struct lkst_buffer	*buf;
	struct lkst_maskset	*switch_to;
	int			switch_ret;
};

static void lkst_test_handler_fn(struct lkst_handler *h, struct lkst_buffer *buf,
				 unsigned int event, pid_t pid, const u64 *args)
{
	struct lkst_test_priv *p = h->private;

	p->calls++;
	p->event = event;
	p->pid = pid;
	p->arg0 = args[0];
	p->buf = buf;
	if (p->switch_to)
		p->switch_ret = lkst_maskset_switch(p->switch_to);
	lkst_record(buf, event, h->id, pid, args);
}

static void lkst_test_handler_unregister(void *data)
{
	lkst_unregister_handler(data);
}

static struct lkst_handler *lkst_test_handler(struct kunit *test, const char *name)
{
	struct lkst_handler *h;

	h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	h->private = kunit_kzalloc(test, sizeof(struct lkst_test_priv), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h->private);
	h->name = name;
	h->owner = THIS_MODULE;
	h->func = lkst_test_handler_fn;
	KUNIT_ASSERT_EQ(test, lkst_register_handler(h), 0);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_handler_unregister, h));
	return h;
}

static void lkst_handler_register_rules(struct kunit *test)
{
	struct lkst_handler *h = lkst_test_handler(test, "kunit_h");
	struct lkst_handler bad = { .name = "kunit_h", .func = lkst_test_handler_fn };

	KUNIT_EXPECT_GT(test, h->id, LKST_HANDLER_DEFAULT);
	KUNIT_EXPECT_LT(test, h->id, LKST_HANDLER_NOTHING);
	KUNIT_EXPECT_EQ(test, lkst_register_handler(&bad), -EEXIST);
	bad.name = "DEFAULT";
	KUNIT_EXPECT_EQ(test, lkst_register_handler(&bad), -EEXIST);
	bad.name = "NOTHING";
	KUNIT_EXPECT_EQ(test, lkst_register_handler(&bad), -EINVAL);
	bad.name = "has space";
	KUNIT_EXPECT_EQ(test, lkst_register_handler(&bad), -EINVAL);
	bad.name = "kunit_nofn";
	bad.func = NULL;
	KUNIT_EXPECT_EQ(test, lkst_register_handler(&bad), -EINVAL);
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_EXPECT_PTR_EQ(test, __lkst_handler_lookup("kunit_h"), h);
}

/* A maskset line routes to the handler, which gets every argument. */
static void lkst_handler_dispatch(struct kunit *test)
{
	struct lkst_handler *h = lkst_test_handler(test, "kunit_d");
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_hbuf");
	struct lkst_maskset *ms = lkst_test_maskset(test, "kunit_hd");
	struct lkst_test_priv *p = h->private;
	struct lkst_record rec;

	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "PROCESS_FORK kunit_d kunit_hbuf\n"), 0);
	KUNIT_EXPECT_STREQ(test, lkst_test_show(test, ms),
			   "PROCESS_FORK kunit_d kunit_hbuf\n");
	KUNIT_EXPECT_EQ(test, h->users, 1);

	lkst_dispatch_synthetic(lkst_test_table(ms), LKST_EV_PROCESS_FORK, 77);
	KUNIT_EXPECT_EQ(test, p->calls, 1);
	KUNIT_EXPECT_EQ(test, p->event, LKST_EV_PROCESS_FORK);
	KUNIT_EXPECT_EQ(test, p->pid, 99);
	KUNIT_EXPECT_EQ(test, p->arg0, 77);
	KUNIT_EXPECT_PTR_EQ(test, p->buf, buf);
	KUNIT_ASSERT_TRUE(test, lkst_test_consume(buf, &rec));
	KUNIT_EXPECT_EQ(test, rec.handler, h->id);

	/* Events not in the table do not reach it */
	lkst_dispatch_synthetic(lkst_test_table(ms), LKST_EV_PROCESS_EXIT, 1);
	KUNIT_EXPECT_EQ(test, p->calls, 1);

	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "\n"), 0);
	KUNIT_EXPECT_EQ(test, h->users, 0);
}

/* While a maskset uses a handler, its module cannot go away. */
static void lkst_handler_pins_module(struct kunit *test)
{
	struct lkst_handler *h = lkst_test_handler(test, "kunit_m");
	struct lkst_maskset *ms = lkst_test_maskset(test, "kunit_hm");
	int before = lkst_test_modref();

	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "PROCESS_FORK kunit_m\n"
						  "PROCESS_EXIT kunit_m\n"), 0);
	KUNIT_EXPECT_EQ(test, h->users, 2);
	KUNIT_EXPECT_EQ(test, lkst_test_modref(),
			before + (LKST_TEST_COUNTS_REFS ? 2 : 0));
	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "\n"), 0);
	KUNIT_EXPECT_EQ(test, h->users, 0);
	KUNIT_EXPECT_EQ(test, lkst_test_modref(), before);
}

#ifdef CONFIG_MODULES
/* A handler whose module is being unloaded cannot be put in a maskset. */
static void lkst_handler_going_module(struct kunit *test)
{
	struct lkst_handler *h = lkst_test_handler(test, "kunit_g");
	struct lkst_maskset *ms = lkst_test_maskset(test, "kunit_hg");
	struct module *mod;
	const char *msg;

	mod = kunit_kzalloc(test, sizeof(*mod), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mod);
	mod->state = MODULE_STATE_GOING;
	h->owner = mod;
	KUNIT_EXPECT_EQ(test, lkst_test_maskset_write(ms, "PROCESS_FORK kunit_g\n"), -ENODEV);
	msg = lkst_last_err(NULL, NULL);
	KUNIT_EXPECT_STREQ(test, msg, "Handler is being removed");
	KUNIT_EXPECT_EQ(test, h->users, 0);
	h->owner = THIS_MODULE;
}
#endif

/* A handler switches the current maskset from interrupt context. */
static void lkst_handler_switches_maskset(struct kunit *test)
{
	struct lkst_handler *h = lkst_test_handler(test, "kunit_sw");
	struct lkst_maskset *from = lkst_test_maskset(test, "kunit_from");
	struct lkst_maskset *to = lkst_test_maskset(test, "kunit_to");
	struct lkst_test_priv *p = h->private;
	unsigned long flags;

	lkst_test_save_current(test);
	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(from, "O_PANIC kunit_sw\n"), 0);
	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(to, "\n"), 0);
	p->switch_to = lkst_maskset_get("kunit_to");
	KUNIT_ASSERT_PTR_EQ(test, p->switch_to, to);
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_ASSERT_EQ(test, __lkst_maskset_set_current(from), 0);

	local_irq_save(flags);
	lkst_dispatch(LKST_EV_O_PANIC, 5, 0, 0, 0);
	local_irq_restore(flags);

	KUNIT_EXPECT_EQ(test, p->calls, 1);
	KUNIT_EXPECT_EQ(test, p->switch_ret, 0);
	KUNIT_EXPECT_PTR_EQ(test, lkst_maskset_current(), to);
	KUNIT_EXPECT_PTR_EQ(test, rcu_dereference_protected(lkst_cur_table, true),
			    lkst_test_table(to));
	KUNIT_EXPECT_EQ(test, atomic_read(&from->users), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&to->users), 2);	/* get + current */

	/* The deferred work detaches the probe no longer needed. */
	lkst_sync_flush();
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_EXPECT_FALSE(test, __lkst_event_attached(LKST_EV_O_PANIC));

	/* Not called any more */
	preempt_disable();
	lkst_dispatch(LKST_EV_O_PANIC, 5, 0, 0, 0);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, p->calls, 1);

	lkst_maskset_put(p->switch_to);
	p->switch_to = NULL;
}

/* A stand-in for a pid list: LKST only tests that the instance has one */
static unsigned long lkst_test_pid_list;

static void lkst_test_record_is(struct kunit *test, struct lkst_buffer *buf,
				u64 arg, u8 flags)
{
	struct lkst_record rec;

	KUNIT_ASSERT_TRUE(test, lkst_test_consume(buf, &rec));
	KUNIT_EXPECT_EQ(test, rec.arg[0], arg);
	KUNIT_EXPECT_EQ(test, rec.flags, flags);
	KUNIT_EXPECT_EQ(test, rec.pid, current->pid);
}

/*
 * The instance's pid lists: while ftrace's per-CPU ignore_pid is set and
 * the instance has a list (ftrace's probes set the flag while a task
 * listed in set_event_notrace_pid runs), a record in task context, bottom
 * halves off or not, is not written; one from an interrupt or a softirq
 * that hit the task is.  A flag without a list is stale: recorded.
 */
static void lkst_maskset_ignore_pid(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_pidbuf");
	struct lkst_maskset *ms = lkst_test_maskset(test, "kunit_pid");
	struct trace_array *tr = buf->tr;
	struct lkst_record rec;
	unsigned long flags;

	lkst_test_save_current(test);
	KUNIT_ASSERT_EQ(test, lkst_test_maskset_write(ms, "O_PANIC DEFAULT kunit_pidbuf\n"), 0);
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_ASSERT_EQ(test, __lkst_maskset_set_current(ms), 0);

	local_irq_save(flags);
	this_cpu_write(tr->array_buffer.data->ignore_pid, true);
	lkst_dispatch(LKST_EV_O_PANIC, 1, 0, 0, 0);
	rcu_assign_pointer(tr->filtered_no_pids,
			   (struct trace_pid_list *)&lkst_test_pid_list);
	lkst_dispatch(LKST_EV_O_PANIC, 2, 0, 0, 0);
	__preempt_count_add(SOFTIRQ_DISABLE_OFFSET);
	lkst_dispatch(LKST_EV_O_PANIC, 3, 0, 0, 0);
	__preempt_count_sub(SOFTIRQ_DISABLE_OFFSET);
	/* on PREEMPT_RT, a softirq is not in the preempt count */
	if (!IS_ENABLED(CONFIG_PREEMPT_RT)) {
		__preempt_count_add(SOFTIRQ_OFFSET);
		lkst_dispatch(LKST_EV_O_PANIC, 4, 0, 0, 0);
		__preempt_count_sub(SOFTIRQ_OFFSET);
	}
	__preempt_count_add(HARDIRQ_OFFSET);
	lkst_dispatch(LKST_EV_O_PANIC, 5, 0, 0, 0);
	__preempt_count_sub(HARDIRQ_OFFSET);
	RCU_INIT_POINTER(tr->filtered_no_pids, NULL);
	this_cpu_write(tr->array_buffer.data->ignore_pid, false);
	lkst_dispatch(LKST_EV_O_PANIC, 6, 0, 0, 0);
	local_irq_restore(flags);

	lkst_test_record_is(test, buf, 1, TRACE_FLAG_IRQS_OFF);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		lkst_test_record_is(test, buf, 4,
				    TRACE_FLAG_SOFTIRQ | TRACE_FLAG_IRQS_OFF);
	lkst_test_record_is(test, buf, 5, TRACE_FLAG_HARDIRQ | TRACE_FLAG_IRQS_OFF);
	lkst_test_record_is(test, buf, 6, TRACE_FLAG_IRQS_OFF);
	KUNIT_EXPECT_FALSE(test, lkst_test_consume(buf, &rec));
}

static struct kunit_case lkst_maskset_test_cases[] = {
	KUNIT_CASE_PARAM(lkst_builtin_routing, lkst_builtin_gen_params),
	KUNIT_CASE_PARAM(lkst_maskset_parse_lines, lkst_parse_gen_params),
	KUNIT_CASE(lkst_maskset_round_trip),
	KUNIT_CASE(lkst_maskset_names_and_busy),
	KUNIT_CASE(lkst_maskset_pins_buffer),
	KUNIT_CASE(lkst_maskset_atomic_replace),
	KUNIT_CASE(lkst_maskset_commit_merges),
	KUNIT_CASE(lkst_maskset_removed_while_referenced),
	KUNIT_CASE(lkst_maskset_buffer_recording),
	KUNIT_CASE(lkst_maskset_ignore_pid),
	{}
};

static struct kunit_suite lkst_maskset_test_suite = {
	.name = "lkst_maskset",
	.test_cases = lkst_maskset_test_cases,
};

static struct kunit_case lkst_handler_test_cases[] = {
	KUNIT_CASE(lkst_handler_register_rules),
	KUNIT_CASE(lkst_handler_dispatch),
	KUNIT_CASE(lkst_handler_pins_module),
#ifdef CONFIG_MODULES
	KUNIT_CASE(lkst_handler_going_module),
#endif
	KUNIT_CASE(lkst_handler_switches_maskset),
	{}
};

static struct kunit_suite lkst_handler_test_suite = {
	.name = "lkst_handler",
	.test_cases = lkst_handler_test_cases,
};

kunit_test_suites(&lkst_maskset_test_suite, &lkst_handler_test_suite);

MODULE_DESCRIPTION("KUnit tests for LKST masksets and handlers");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
