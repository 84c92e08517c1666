// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the LKST event table, names, the record's layout and
 * the text of the trace file.
 */
#include <kunit/test.h>
#include <linux/ctype.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>

#include "../../trace.h"
#include "../lkst_internal.h"

struct lkst_name_case {
	const char	*name;
	bool		valid;
};

static const struct lkst_name_case lkst_name_cases[] = {
	{ "RALL", true },
	{ "my-set_2", true },
	{ "a", true },
	{ "0123456789012345678901234567890", true },	/* 31 */
	{ "01234567890123456789012345678901", false },	/* 32 */
	{ "", false },
	{ "a b", false },
	{ "a/b", false },
	{ "!a", false },
	{ "a\n", false },
};

/* Parameter descriptions go into KTAP lines: no control characters, no # */
static void lkst_test_printable(char *desc)
{
	for (; *desc; desc++)
		if (!isprint(*desc) || *desc == '#')
			*desc = '.';
}

static void lkst_name_desc(const struct lkst_name_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->name);
	lkst_test_printable(desc);
}

KUNIT_ARRAY_PARAM(lkst_name, lkst_name_cases, lkst_name_desc);

static void lkst_name_validation(struct kunit *test)
{
	const struct lkst_name_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, lkst_name_valid(c->name), c->valid);
}

/* IDs are ABI: spot-check that nobody renumbered them. */
static void lkst_event_ids_stable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, LKST_EV_PROCESS_CONTEXTSWITCH, 1);
	KUNIT_EXPECT_EQ(test, LKST_EV_INT_HARDWARE_ENTRY, 16);
	KUNIT_EXPECT_EQ(test, LKST_EV_SYSCALL_ENTRY, 48);
	KUNIT_EXPECT_EQ(test, LKST_EV_MEM_PAGE_ALLOC, 64);
	KUNIT_EXPECT_EQ(test, LKST_EV_O_PANIC, 241);
	KUNIT_EXPECT_EQ(test, LKST_HANDLER_DEFAULT, 1);
	KUNIT_EXPECT_EQ(test, LKST_HANDLER_NOTHING, 255);
}

static void lkst_event_table_consistent(struct kunit *test)
{
	const struct lkst_event_desc *d, *e;
	unsigned int n = 0;
	int i;

	/* The events, dynamic ones included, stay while lkst_mutex is held */
	guard(mutex)(&lkst_mutex);
	for (d = lkst_event_next(NULL); d; d = lkst_event_next(d)) {
		n++;
		KUNIT_EXPECT_PTR_EQ(test, d, lkst_event_desc(d->id));
		KUNIT_EXPECT_PTR_EQ(test, d, lkst_event_lookup(d->name));
		KUNIT_EXPECT_TRUE(test, lkst_name_valid(d->name));
		KUNIT_EXPECT_EQ(test, strlen(d->argfmt), LKST_NR_ARGS);
		KUNIT_EXPECT_NOT_NULL(test, d->hook);
		KUNIT_EXPECT_EQ_MSG(test, strspn(d->argfmt, "duxpPSs-"),
				    LKST_NR_ARGS, "%s: bad argfmt \"%s\"",
				    d->name, d->argfmt);
		/* dynamic events arm a kprobe instead */
		if (d->id < LKST_EV_DYN_FIRST) {
			KUNIT_EXPECT_NOT_NULL(test, d->attach);
			KUNIT_EXPECT_NOT_NULL(test, d->detach);
		}
		for (i = 0; i < LKST_NR_ARGS; i++)
			KUNIT_EXPECT_NOT_NULL(test, d->args[i]);
	}
	/* Events present everywhere, UML included */
	for (i = LKST_EV_PROCESS_CONTEXTSWITCH; i <= LKST_EV_PROCESS_MIGRATE; i++)
		KUNIT_EXPECT_NOT_NULL(test, lkst_event_desc(i));
	e = lkst_event_lookup("PROCESS_CONTEXTSWITCH");
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_STREQ(test, e->args[0], "prev");
	KUNIT_EXPECT_STREQ(test, e->args[1], "next");
	KUNIT_EXPECT_STREQ(test, e->args[2], "state");
	KUNIT_EXPECT_NULL(test, lkst_event_lookup("process_contextswitch"));
	KUNIT_EXPECT_NULL(test, lkst_event_desc(0));
	KUNIT_EXPECT_NULL(test, lkst_event_desc(LKST_NR_EVENTS));
	KUNIT_EXPECT_GE(test, n, 30);
}

static void lkst_record_layout(struct kunit *test)
{
	/* v2: struct trace_entry first */
	KUNIT_EXPECT_EQ(test, sizeof(struct lkst_record), 48);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, type), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, flags), 2);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, preempt_count), 3);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, pid), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, event), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, handler), 10);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, arg), 16);
}

/* A seq_buf over a test-managed page, the size a tracefs read starts with */
static void lkst_test_seq_buf(struct kunit *test, struct seq_buf *s)
{
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	seq_buf_init(s, buf, PAGE_SIZE);
}

/* Something with a stable address to stand for a timer. */
static struct { u64 pad[4]; } lkst_test_timer;

/*
 * The trace file prints pointers by ftrace's rules: a code address as
 * its symbol, a data pointer hashed as %p does (raw only with the
 * no_hash_pointers boot parameter).
 */
static void lkst_trace_symbol_and_hashed_pointer(struct kunit *test)
{
	const u64 timer = (unsigned long)&lkst_test_timer;
	const struct lkst_record rec = {
		.event		= LKST_EV_TIMER_RUN,
		.handler	= LKST_HANDLER_DEFAULT,
		.arg		= { timer, (unsigned long)lkst_record_print_args, 7 },
	};
	char want[128], raw[24], hashed[24];
	struct seq_buf s;
	const char *text;

	if (!IS_ENABLED(CONFIG_KALLSYMS))
		kunit_skip(test, "symbols need CONFIG_KALLSYMS");
	lkst_test_seq_buf(test, &s);
	lkst_record_print_args(&s, lkst_event_desc(LKST_EV_TIMER_RUN), &rec);
	KUNIT_ASSERT_FALSE(test, seq_buf_has_overflowed(&s));
	text = seq_buf_str(&s);

	snprintf(want, sizeof(want),
		 " timer=%p func=lkst_record_print_args now=7", &lkst_test_timer);
	KUNIT_EXPECT_STREQ(test, text, want);

	snprintf(raw, sizeof(raw), "%llx", timer);
	/* %p prints what %px does only with no_hash_pointers */
	snprintf(hashed, sizeof(hashed), "%p", &lkst_test_timer);
	if (strcmp(hashed, raw))
		KUNIT_EXPECT_NULL_MSG(test, strstr(text, raw),
				      "raw pointer %s in \"%s\"", raw, text);
}

/*
 * A signed argument; a text argument runs to the first NUL over the
 * arguments that follow, with what is not printable as a dot; an
 * extended handler's record names its handler.
 */
static void lkst_trace_text_and_handler(struct kunit *test)
{
	struct lkst_record rec = {
		.event		= LKST_EV_O_PANIC,
		.handler	= LKST_HANDLER_DEFAULT,
		.arg		= { -1 },
	};
	struct seq_buf s;

	memcpy(&rec.arg[1], "hello\tworld", 12);
	lkst_test_seq_buf(test, &s);
	lkst_record_print_args(&s, lkst_event_desc(LKST_EV_O_PANIC), &rec);
	KUNIT_EXPECT_STREQ(test, seq_buf_str(&s),
			   " cpu=-1 msg=\"hello.world\"");

	/* all three arguments' 24 bytes, with no NUL */
	memset(&rec.arg[1], 'x', 3 * sizeof(u64));
	rec.handler = 5;
	lkst_test_seq_buf(test, &s);
	lkst_record_print_args(&s, lkst_event_desc(LKST_EV_O_PANIC), &rec);
	KUNIT_EXPECT_STREQ(test, seq_buf_str(&s),
			   " cpu=-1 msg=\"xxxxxxxxxxxxxxxxxxxxxxxx\" handler=5");
}

/* The line the output function of event @id prints for @rec in @tr */
static const char *lkst_test_trace_line(struct kunit *test, unsigned int id,
					const struct lkst_record *rec,
					struct trace_array *tr)
{
	struct trace_iterator *iter;

	iter = kunit_kzalloc(test, sizeof(*iter), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, iter);
	iter->ent = (struct trace_entry *)rec;
	iter->ent_size = sizeof(*rec);
	iter->tr = tr;
	trace_seq_init(&iter->seq);
	KUNIT_EXPECT_EQ(test, lkst_tevent_print(iter, id), TRACE_TYPE_HANDLED);
	return seq_buf_str(&iter->seq.seq);
}

static const struct lkst_event_desc lkst_test_dyn_desc = {
	.id	= LKST_EV_DYN_LAST,
	.name	= "KUNIT_TRACE_DYN",
	.args	= { "value", "-", "-", "-" },
	.argfmt	= "u---",
};

static void lkst_test_tevent_remove(void *id)
{
	lkst_tevent_remove((unsigned long)id);
}

/*
 * An event prints its own records; a record of another event with its
 * type, as a previous boot's may be, is printed as an ID and values.
 * A previous boot's fixed events are known, its dynamic events are not:
 * this boot may have given their IDs and types to others.
 */
static void lkst_trace_line_of_a_record(struct kunit *test)
{
	struct trace_array *last = kunit_kzalloc(test, sizeof(*last), GFP_KERNEL);
	struct lkst_record rec = {
		.event		= LKST_EV_PROCESS_FORK,
		.handler	= LKST_HANDLER_DEFAULT,
		.arg		= { 1, 2, 3 },
	};
	char want[96];

	KUNIT_ASSERT_NOT_NULL(test, last);
	last->flags = TRACE_ARRAY_FL_BOOT | TRACE_ARRAY_FL_LAST_BOOT;
	KUNIT_EXPECT_STREQ(test, lkst_test_trace_line(test, LKST_EV_PROCESS_FORK,
						      &rec, NULL),
			   "PROCESS_FORK: parent=1 child=2 tgid=3\n");
	KUNIT_EXPECT_STREQ(test, lkst_test_trace_line(test, LKST_EV_PROCESS_FORK,
						      &rec, last),
			   "PROCESS_FORK: parent=1 child=2 tgid=3\n");

	rec.event = LKST_EV_PROCESS_EXIT;
	snprintf(want, sizeof(want), "UNKNOWN: id=%u args=0x1,0x2,0x3,0x0\n",
		 LKST_EV_PROCESS_EXIT);
	KUNIT_EXPECT_STREQ(test, lkst_test_trace_line(test, LKST_EV_PROCESS_FORK,
						      &rec, last), want);

	KUNIT_ASSERT_EQ(test, lkst_tevent_add(&lkst_test_dyn_desc), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lkst_test_tevent_remove,
							(void *)LKST_EV_DYN_LAST), 0);
	rec.event = LKST_EV_DYN_LAST;
	KUNIT_EXPECT_STREQ(test, lkst_test_trace_line(test, LKST_EV_DYN_LAST,
						      &rec, NULL),
			   "KUNIT_TRACE_DYN: value=1\n");
	snprintf(want, sizeof(want), "UNKNOWN: id=%u args=0x1,0x2,0x3,0x0\n",
		 LKST_EV_DYN_LAST);
	KUNIT_EXPECT_STREQ(test, lkst_test_trace_line(test, LKST_EV_DYN_LAST,
						      &rec, last), want);
}

static struct kunit_case lkst_core_test_cases[] = {
	KUNIT_CASE_PARAM(lkst_name_validation, lkst_name_gen_params),
	KUNIT_CASE(lkst_event_ids_stable),
	KUNIT_CASE(lkst_event_table_consistent),
	KUNIT_CASE(lkst_record_layout),
	KUNIT_CASE(lkst_trace_symbol_and_hashed_pointer),
	KUNIT_CASE(lkst_trace_text_and_handler),
	KUNIT_CASE(lkst_trace_line_of_a_record),
	{}
};

static struct kunit_suite lkst_core_test_suite = {
	.name = "lkst_core",
	.test_cases = lkst_core_test_cases,
};

kunit_test_suite(lkst_core_test_suite);

MODULE_DESCRIPTION("KUnit tests for the LKST event table and trace text");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
