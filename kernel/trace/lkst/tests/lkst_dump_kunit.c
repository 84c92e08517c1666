// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the dump on oops and panic: the last N records of a
 * buffer's instance, in order, printed by ftrace_dump_instance() in the
 * format of the instance's trace file, consuming nothing, bounded in all,
 * and without the CPUs whose reader lock is taken.
 */
#include <kunit/test.h>
#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>
#include <linux/string.h>

#include "../../trace.h"
#include "../lkst_internal.h"
#include "lkst_kunit.h"

#define LKST_TEST_LINES		16
#define LKST_TEST_LINE_MAX	256

struct lkst_test_out {
	char		line[LKST_TEST_LINES][LKST_TEST_LINE_MAX];
	unsigned int	n;
};

static struct lkst_test_out *lkst_test_out(struct kunit *test)
{
	struct lkst_test_out *out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	return out;
}

static void lkst_test_collect(struct trace_seq *s, void *data)
{
	struct lkst_test_out *out = data;

	if (out->n < LKST_TEST_LINES)
		strscpy(out->line[out->n], s->buffer,
			min_t(size_t, LKST_TEST_LINE_MAX, trace_seq_used(s) + 1));
	out->n++;
}

KUNIT_DEFINE_ACTION_WRAPPER(lkst_test_dump_release, trace_array_dump_release,
			    struct trace_array *);

/* A buffer whose instance a dump can read */
static struct lkst_buffer *lkst_test_dump_buffer(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_dump");

	KUNIT_ASSERT_EQ(test, trace_array_dump_prepare(buf->tr), 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lkst_test_dump_release,
							   buf->tr));
	return buf;
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

/* A record's line: "... [CPU] FLAGS TIME: PROCESS_FORK: ARGS\n" */
static void lkst_test_expect(struct kunit *test, const char *line, int cpu,
			     u64 arg0)
{
	struct lkst_record rec = {
		.event = LKST_EV_PROCESS_FORK,
		.handler = LKST_HANDLER_DEFAULT,
		.pid = 42,
		.arg = { arg0, 2, 3, 0 },
	};
	char want[LKST_TEST_LINE_MAX], at[16];
	struct seq_buf s;

	seq_buf_init(&s, want, sizeof(want));
	seq_buf_puts(&s, ": PROCESS_FORK:");
	lkst_record_print_args(&s, lkst_event_desc(LKST_EV_PROCESS_FORK), &rec);
	seq_buf_putc(&s, '\n');
	KUNIT_ASSERT_FALSE(test, seq_buf_has_overflowed(&s));
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, seq_buf_str(&s)),
				  "line '%s', expected its end '%s'", line,
				  seq_buf_str(&s));
	KUNIT_EXPECT_STREQ(test, strstr(line, seq_buf_str(&s)) ?: "",
			   seq_buf_str(&s));
	snprintf(at, sizeof(at), " [%03d] ", cpu);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, at), "line '%s', not of %s",
				  line, at);
}

/* The dump's first two and last lines */
static void lkst_test_frame(struct kunit *test, struct lkst_test_out *out,
			    struct lkst_buffer *buf, unsigned int last,
			    unsigned int max, unsigned int lines)
{
	char want[LKST_TEST_LINE_MAX];

	KUNIT_ASSERT_EQ(test, out->n, lines + 3);
	snprintf(want, sizeof(want),
		 "Dumping ftrace instance %s buffer: the last %u entries of each CPU, %u in all at the most\n",
		 buf->tr->name, last, max);
	KUNIT_EXPECT_STREQ(test, out->line[0], want);
	KUNIT_EXPECT_STREQ(test, out->line[1], "---------------------------------\n");
	if (lines + 2 < LKST_TEST_LINES)
		KUNIT_EXPECT_STREQ(test, out->line[lines + 2],
				   "---------------------------------\n");
}

static int lkst_test_dump(struct lkst_buffer *buf, unsigned int last,
			  unsigned int max, struct lkst_test_out *out)
{
	out->n = 0;
	return __ftrace_dump_instance(buf->tr, last, max, lkst_test_collect, out);
}

static void lkst_dump_last_n(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_dump_buffer(test);
	struct lkst_test_out *out = lkst_test_out(test);
	unsigned int i;
	int cpu;

	cpu = get_cpu();
	lkst_test_write(buf, 100, 10);
	put_cpu();

	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 3, LKST_DUMP_MAX, out), 3);
	lkst_test_frame(test, out, buf, 3, LKST_DUMP_MAX, 3);
	for (i = 0; i < 3; i++)
		lkst_test_expect(test, out->line[2 + i], cpu, 107 + i);
}

/* Fewer records than asked: all of them; and nothing is consumed */
static void lkst_dump_consumes_nothing(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_dump_buffer(test);
	struct lkst_test_out *a = lkst_test_out(test);
	struct lkst_test_out *b = lkst_test_out(test);
	unsigned int i;
	int cpu;

	cpu = get_cpu();
	lkst_test_write(buf, 0, 5);
	put_cpu();

	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 50, LKST_DUMP_MAX, a), 5);
	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 50, LKST_DUMP_MAX, b), 5);
	lkst_test_frame(test, b, buf, 50, LKST_DUMP_MAX, 5);
	for (i = 0; i < 5; i++) {
		lkst_test_expect(test, b->line[2 + i], cpu, i);
		KUNIT_EXPECT_STREQ(test, a->line[2 + i], b->line[2 + i]);
	}
	KUNIT_EXPECT_EQ(test, ring_buffer_entries_cpu(lkst_buffer_rb(buf), cpu), 5);
	KUNIT_EXPECT_EQ(test, ring_buffer_read_events_cpu(lkst_buffer_rb(buf), cpu), 0);
	/* Recording goes on after the dump */
	KUNIT_EXPECT_TRUE(test, lkst_buffer_is_on(buf));
	cpu = get_cpu();
	lkst_test_write(buf, 5, 1);
	put_cpu();
	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 1, LKST_DUMP_MAX, b), 1);
	lkst_test_expect(test, b->line[2], cpu, 5);
}

/* At most max records in all: the newest of the last nr */
static void lkst_dump_bounded_in_all(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_dump_buffer(test);
	struct lkst_test_out *out = lkst_test_out(test);
	unsigned int i;
	int cpu;

	cpu = get_cpu();
	lkst_test_write(buf, 0, 10);
	put_cpu();

	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 8, 3, out), 3);
	lkst_test_frame(test, out, buf, 8, 3, 3);
	for (i = 0; i < 3; i++)
		lkst_test_expect(test, out->line[2 + i], cpu, 7 + i);
}

/*
 * A CPU whose reader lock is held (a reader the panic stopped, or one the
 * NMI interrupted) is left out, not waited for, and a line says so; the
 * next dump reads it.
 */
KUNIT_DEFINE_ACTION_WRAPPER(lkst_test_read_finish, ring_buffer_read_finish,
			    struct ring_buffer_iter *);

static void lkst_dump_skips_a_locked_cpu(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_dump_buffer(test);
	struct lkst_test_out *a = lkst_test_out(test);
	struct lkst_test_out *b = lkst_test_out(test);
	struct ring_buffer_iter *reader;
	char want[LKST_TEST_LINE_MAX];
	unsigned long flags;
	bool locked;
	int cpu, n = 0;

	/*
	 * On UP, a spin lock is no lock without DEBUG_SPINLOCK, and with it
	 * a failed trylock turns lock debugging off for the suites after
	 * this one
	 */
	if (!IS_ENABLED(CONFIG_SMP))
		kunit_skip(test, "a UP kernel");
	cpu = get_cpu();
	lkst_test_write(buf, 0, 4);
	put_cpu();
	reader = ring_buffer_read_start(lkst_buffer_rb(buf), cpu, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, reader);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_read_finish, reader));

	/* No assertion while interrupts are off: it would leave them off */
	local_irq_save(flags);
	locked = ring_buffer_iter_trylock(reader);
	if (locked) {
		n = lkst_test_dump(buf, 10, LKST_DUMP_MAX, a);
		ring_buffer_iter_unlock(reader);
	}
	local_irq_restore(flags);
	KUNIT_ASSERT_TRUE(test, locked);
	KUNIT_EXPECT_EQ(test, n, 0);
	KUNIT_ASSERT_EQ(test, a->n, 5);
	KUNIT_EXPECT_STREQ(test, a->line[2], "   (ftrace buffer empty)\n");
	snprintf(want, sizeof(want),
		 "CPUs %d left out: a reader held the buffer's lock, or its size or sub-buffer size changed\n",
		 cpu);
	KUNIT_EXPECT_STREQ(test, a->line[4], want);

	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 10, LKST_DUMP_MAX, b), 4);
	lkst_test_frame(test, b, buf, 10, LKST_DUMP_MAX, 4);
}

/*
 * Larger sub-buffers than the dump's iterators can copy: every CPU is
 * left out, and named, until the sub-buffers are back (or the dump is
 * prepared again)
 */
static void lkst_dump_leaves_out_larger_sub_buffers(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_dump_buffer(test);
	struct lkst_test_out *out = lkst_test_out(test);
	char want[LKST_TEST_LINE_MAX];

	KUNIT_ASSERT_EQ(test, ring_buffer_subbuf_order_set(lkst_buffer_rb(buf), 1), 0);
	lkst_test_write(buf, 0, 2);
	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 10, LKST_DUMP_MAX, out), 0);
	KUNIT_ASSERT_EQ(test, out->n, 5);
	KUNIT_EXPECT_STREQ(test, out->line[2], "   (ftrace buffer empty)\n");
	snprintf(want, sizeof(want),
		 "CPUs %*pbl left out: a reader held the buffer's lock, or its size or sub-buffer size changed\n",
		 cpumask_pr_args(cpu_online_mask));
	KUNIT_EXPECT_STREQ(test, out->line[4], want);

	KUNIT_ASSERT_EQ(test, ring_buffer_subbuf_order_set(lkst_buffer_rb(buf), 0), 0);
	lkst_test_write(buf, 0, 2);
	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 10, LKST_DUMP_MAX, out), 2);
	KUNIT_EXPECT_EQ(test, out->n, 5);
}

static void lkst_dump_empty(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_dump_buffer(test);
	struct lkst_test_out *out = lkst_test_out(test);

	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 10, LKST_DUMP_MAX, out), 0);
	KUNIT_ASSERT_EQ(test, out->n, 4);
	KUNIT_EXPECT_STREQ(test, out->line[2], "   (ftrace buffer empty)\n");
	/* 0 records per CPU prints nothing either */
	lkst_test_write(buf, 0, 3);
	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 0, LKST_DUMP_MAX, out), 0);
	KUNIT_EXPECT_EQ(test, out->n, 4);
}

/* Without trace_array_dump_prepare() there is nothing to read with */
static void lkst_dump_not_prepared(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_dump");
	struct lkst_test_out *out = lkst_test_out(test);

	lkst_test_write(buf, 0, 3);
	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 10, LKST_DUMP_MAX, out), -ENODEV);
	KUNIT_EXPECT_EQ(test, out->n, 0);
	KUNIT_ASSERT_EQ(test, trace_array_dump_prepare(buf->tr), 0);
	trace_array_dump_release(buf->tr);
	KUNIT_EXPECT_EQ(test, lkst_test_dump(buf, 10, LKST_DUMP_MAX, out), -ENODEV);
}

static void lkst_dump_set_bounds(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_buffer_default();
	unsigned long size = ring_buffer_size(lkst_buffer_rb(buf),
					      cpumask_first(cpu_online_mask));
	unsigned int old = lkst_dump_get();

	KUNIT_EXPECT_EQ(test, lkst_dump_set(LKST_DUMP_MAX + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, lkst_dump_get(), old);
	KUNIT_EXPECT_EQ(test, lkst_dump_set(LKST_DUMP_MAX), 0);
	KUNIT_EXPECT_EQ(test, lkst_dump_get(), LKST_DUMP_MAX);
	KUNIT_EXPECT_NOT_NULL(test, rcu_access_pointer(buf->tr->dump_iters));
	/* The instance can be resized while the dump is set: nothing holds it */
	KUNIT_EXPECT_EQ(test, ring_buffer_resize(lkst_buffer_rb(buf), size * 2,
						 RING_BUFFER_ALL_CPUS), 0);
	KUNIT_EXPECT_EQ(test, ring_buffer_resize(lkst_buffer_rb(buf), size,
						 RING_BUFFER_ALL_CPUS), 0);
	KUNIT_EXPECT_EQ(test, lkst_dump_set(0), 0);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(buf->tr->dump_iters));
	KUNIT_EXPECT_EQ(test, lkst_dump_set(old), 0);
	KUNIT_EXPECT_EQ(test, lkst_dump_get(), old);
}

static struct kunit_case lkst_dump_test_cases[] = {
	KUNIT_CASE(lkst_dump_last_n),
	KUNIT_CASE(lkst_dump_consumes_nothing),
	KUNIT_CASE(lkst_dump_bounded_in_all),
	KUNIT_CASE(lkst_dump_skips_a_locked_cpu),
	KUNIT_CASE(lkst_dump_leaves_out_larger_sub_buffers),
	KUNIT_CASE(lkst_dump_empty),
	KUNIT_CASE(lkst_dump_not_prepared),
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
