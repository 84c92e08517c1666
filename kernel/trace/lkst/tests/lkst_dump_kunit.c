// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the dump on oops and panic: the last N records of a
 * buffer, in order, formatted as the trace file does, without consuming,
 * bounded in all, only what an earlier dump did not see, and without the
 * CPUs whose reader lock is taken.
 */
#include <kunit/test.h>
#include <linux/ring_buffer.h>
#include <linux/string.h>

#include "../lkst_internal.h"
#include "lkst_kunit.h"

#define LKST_TEST_LINES	16

struct lkst_test_out {
	char		line[LKST_TEST_LINES][LKST_DUMP_LINE_MAX];
	unsigned int	n;
};

static struct lkst_test_out *lkst_test_out(struct kunit *test)
{
	struct lkst_test_out *out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	return out;
}

static void lkst_test_collect(const char *line, void *data)
{
	struct lkst_test_out *out = data;

	if (out->n < LKST_TEST_LINES)
		strscpy(out->line[out->n], line);
	out->n++;
}

static void lkst_test_iters_free(void *data)
{
	lkst_dump_iters_free(data);
}

/* PROCESS_FORK records with arg0 = first, first + 1, ..., on one CPU */
static void lkst_test_write(struct lkst_buffer *buf, u64 first, unsigned int n)
{
	u64 args[LKST_NR_ARGS] = { 0, 2, 3, 0 };
	unsigned int i;

	guard(preempt)();
	for (i = 0; i < n; i++) {
		args[0] = first + i;
		lkst_record(buf, LKST_EV_PROCESS_FORK, LKST_HANDLER_DEFAULT,
			    42, args);
	}
}

/* A line without its timestamp: from the CPU field on */
static const char *lkst_test_tail(const char *line)
{
	const char *p = strstr(line, " [");

	return p ? p : line;
}

static void lkst_test_expect(struct kunit *test, const char *line, u64 arg0)
{
	struct lkst_record rec = {
		.event = LKST_EV_PROCESS_FORK,
		.handler = LKST_HANDLER_DEFAULT,
		.pid = 42,
		.arg = { arg0, 2, 3, 0 },
	};
	char want[LKST_DUMP_LINE_MAX];
	struct seq_buf s;

	seq_buf_init(&s, want, sizeof(want));
	lkst_record_print(&s, &rec, raw_smp_processor_id(), 0);
	KUNIT_EXPECT_STREQ(test, lkst_test_tail(line),
			   lkst_test_tail(seq_buf_str(&s)));
}

/* The dump runs with interrupts disabled */
static unsigned int lkst_test_dump(struct lkst_dump_iters *di, unsigned int nr,
				   unsigned int max, struct lkst_test_out *out)
{
	guard(irqsave)();
	return lkst_dump_records(di, nr, max, lkst_test_collect, out);
}

static struct lkst_dump_iters *lkst_test_iters(struct kunit *test,
					       struct lkst_buffer *buf)
{
	struct lkst_dump_iters *di;

	di = lkst_dump_iters_alloc(lkst_buffer_rb(buf));
	KUNIT_ASSERT_NOT_NULL(test, di);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_iters_free, di));
	return di;
}

static void lkst_dump_last_n(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_dump");
	struct lkst_test_out *out;
	struct lkst_dump_iters *di;
	unsigned int i;

	out = lkst_test_out(test);
	lkst_test_write(buf, 100, 10);
	di = lkst_test_iters(test, buf);

	KUNIT_EXPECT_EQ(test, lkst_test_dump(di, 3, LKST_DUMP_MAX, out), 3);
	KUNIT_ASSERT_EQ(test, out->n, 3);
	for (i = 0; i < 3; i++)
		lkst_test_expect(test, out->line[i], 107 + i);
	KUNIT_EXPECT_EQ(test, out->line[2][strlen(out->line[2]) - 1], '\n');
}

static void lkst_dump_all_when_fewer(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_dump");
	struct lkst_record fake = {
		.type	= lkst_event_type[LKST_EV_PROCESS_FORK] + 1,
		.event	= LKST_EV_PROCESS_FORK,
	};
	struct lkst_test_out *out;
	struct lkst_dump_iters *di;
	unsigned int i;

	out = lkst_test_out(test);
	lkst_test_write(buf, 0, 4);
	/* Not LKST records, left out: too short, or not of the event's type */
	scoped_guard(preempt) {
		ring_buffer_write(lkst_buffer_rb(buf), 4, &i);
		ring_buffer_write(lkst_buffer_rb(buf), sizeof(fake), &fake);
	}
	lkst_test_write(buf, 4, 2);
	di = lkst_test_iters(test, buf);

	KUNIT_EXPECT_EQ(test, lkst_test_dump(di, 50, LKST_DUMP_MAX, out), 6);
	KUNIT_ASSERT_EQ(test, out->n, 6);
	for (i = 0; i < 6; i++)
		lkst_test_expect(test, out->line[i], i);
}

/*
 * A dump consumes nothing, and a second one prints only what came after
 * the first: an oops the kernel survived, then a panic.
 */
static void lkst_dump_only_newer(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_dump");
	struct lkst_test_out *a, *b, *c;
	struct lkst_dump_iters *di;
	unsigned int i;
	int cpu;

	a = lkst_test_out(test);
	b = lkst_test_out(test);
	c = lkst_test_out(test);
	cpu = get_cpu();
	lkst_test_write(buf, 0, 5);
	put_cpu();
	di = lkst_test_iters(test, buf);

	KUNIT_EXPECT_EQ(test, lkst_test_dump(di, 5, LKST_DUMP_MAX, a), 5);
	KUNIT_EXPECT_EQ(test, lkst_test_dump(di, 5, LKST_DUMP_MAX, b), 0);
	KUNIT_EXPECT_EQ(test, ring_buffer_entries_cpu(lkst_buffer_rb(buf), cpu), 5);
	KUNIT_EXPECT_EQ(test, ring_buffer_read_events_cpu(lkst_buffer_rb(buf), cpu), 0);

	cpu = get_cpu();
	lkst_test_write(buf, 5, 2);
	put_cpu();
	KUNIT_EXPECT_EQ(test, lkst_test_dump(di, 5, LKST_DUMP_MAX, c), 2);
	KUNIT_ASSERT_EQ(test, c->n, 2);
	for (i = 0; i < 2; i++)
		lkst_test_expect(test, c->line[i], 5 + i);
	KUNIT_EXPECT_EQ(test, ring_buffer_entries_cpu(lkst_buffer_rb(buf), cpu), 7);
}

/* At most max records in all: the newest of the last nr */
static void lkst_dump_bounded_in_all(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_dump");
	struct lkst_test_out *out;
	struct lkst_dump_iters *di;
	unsigned int i;

	out = lkst_test_out(test);
	lkst_test_write(buf, 0, 10);
	di = lkst_test_iters(test, buf);

	KUNIT_EXPECT_EQ(test, lkst_test_dump(di, 8, 3, out), 3);
	KUNIT_ASSERT_EQ(test, out->n, 3);
	for (i = 0; i < 3; i++)
		lkst_test_expect(test, out->line[i], 7 + i);
}

/*
 * A CPU whose reader lock is held (a reader the panic stopped, or one the
 * NMI interrupted) is left out, not waited for; the next dump reads it.
 */
static void lkst_test_read_finish(void *it)
{
	ring_buffer_read_finish(it);
}

static void lkst_dump_skips_a_locked_cpu(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_dump");
	struct ring_buffer_iter *reader;
	struct lkst_test_out *a, *b;
	struct lkst_dump_iters *di;
	unsigned long flags;
	unsigned int n = 0;
	bool locked;
	int cpu;

	a = lkst_test_out(test);
	b = lkst_test_out(test);
	cpu = get_cpu();
	lkst_test_write(buf, 0, 4);
	put_cpu();
	di = lkst_test_iters(test, buf);
	reader = ring_buffer_read_start(lkst_buffer_rb(buf), cpu, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, reader);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_read_finish, reader));

	/* No assertion while interrupts are off: it would leave them off */
	local_irq_save(flags);
	locked = ring_buffer_iter_trylock(reader);
	if (locked) {
		n = lkst_dump_records(di, 10, LKST_DUMP_MAX, lkst_test_collect, a);
		ring_buffer_iter_unlock(reader);
	}
	local_irq_restore(flags);
	KUNIT_ASSERT_TRUE(test, locked);
	KUNIT_EXPECT_EQ(test, n, 0);
	KUNIT_EXPECT_EQ(test, a->n, 0);
	KUNIT_EXPECT_TRUE(test, di->cpu[cpu].skipped);

	KUNIT_EXPECT_EQ(test, lkst_test_dump(di, 10, LKST_DUMP_MAX, b), 4);
	KUNIT_EXPECT_FALSE(test, di->cpu[cpu].skipped);
}

static void lkst_dump_empty(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_dump");
	struct lkst_test_out *out;
	struct lkst_dump_iters *di;

	out = lkst_test_out(test);
	di = lkst_test_iters(test, buf);
	KUNIT_EXPECT_EQ(test, lkst_test_dump(di, 10, LKST_DUMP_MAX, out), 0);
	KUNIT_EXPECT_EQ(test, out->n, 0);
	/* 0 records per CPU prints nothing either */
	lkst_test_write(buf, 0, 3);
	KUNIT_EXPECT_EQ(test, lkst_test_dump(di, 0, LKST_DUMP_MAX, out), 0);
}

static void lkst_dump_set_bounds(struct kunit *test)
{
	unsigned int old = lkst_dump_get();

	KUNIT_EXPECT_EQ(test, lkst_dump_set(LKST_DUMP_MAX + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, lkst_dump_get(), old);
	KUNIT_EXPECT_EQ(test, lkst_dump_set(LKST_DUMP_MAX), 0);
	KUNIT_EXPECT_EQ(test, lkst_dump_get(), LKST_DUMP_MAX);
	/* The default buffer can still be resized: the iterators step aside. */
	KUNIT_EXPECT_EQ(test, lkst_buffer_resize(lkst_buffer_default(),
						 LKST_BUF_DEFAULT_KB * 2), 0);
	KUNIT_EXPECT_EQ(test, lkst_buffer_resize(lkst_buffer_default(),
						 LKST_BUF_DEFAULT_KB), 0);
	KUNIT_EXPECT_EQ(test, lkst_dump_set(old), 0);
	KUNIT_EXPECT_EQ(test, lkst_dump_get(), old);
}

static struct kunit_case lkst_dump_test_cases[] = {
	KUNIT_CASE(lkst_dump_last_n),
	KUNIT_CASE(lkst_dump_all_when_fewer),
	KUNIT_CASE(lkst_dump_only_newer),
	KUNIT_CASE(lkst_dump_bounded_in_all),
	KUNIT_CASE(lkst_dump_skips_a_locked_cpu),
	KUNIT_CASE(lkst_dump_empty),
	KUNIT_CASE(lkst_dump_set_bounds),
	{}
};

static struct kunit_suite lkst_dump_test_suite = {
	.name = "lkst_dump",
	.test_cases = lkst_dump_test_cases,
};

kunit_test_suite(lkst_dump_test_suite);

MODULE_DESCRIPTION("KUnit tests for the LKST dump on oops and panic");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
