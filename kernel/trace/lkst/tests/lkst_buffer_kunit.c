// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for LKST buffers: record round trip, overwrite and stop
 * modes, exact accounting, resize while writing, isolation.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>

#include "../../trace.h"
#include "../lkst_internal.h"
#include "lkst_kunit.h"

static void lkst_write_n(struct lkst_buffer *buf, unsigned int n)
{
	u64 args[LKST_NR_ARGS] = { 0 };
	unsigned int i;

	for (i = 0; i < n; i++) {
		args[0] = i;
		lkst_record(buf, LKST_EV_PROCESS_FORK, LKST_HANDLER_DEFAULT, 1,
			    args);
	}
}

/* The @n records written add up: written = read + entries + overrun + lost */
static void lkst_expect_written(struct kunit *test, struct lkst_buffer *buf,
				int cpu, unsigned long n)
{
	struct lkst_buffer_stats st;

	lkst_buffer_stats(buf, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.written, n);
	KUNIT_EXPECT_EQ_MSG(test, st.written,
			    st.read + st.entries + st.overrun + st.lost,
			    "cpu%d: read %lu entries %lu overrun %lu lost %lu",
			    cpu, st.read, st.entries, st.overrun, st.lost);
}

/*
 * common_flags from the interrupt flags and preempt_count(), as
 * tracing_gen_ctx_dec() sets them
 */
static void lkst_buffer_context_flags(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lkst_trace_ctx(0, false), 0x00);
	KUNIT_EXPECT_EQ(test, lkst_trace_ctx(0, true), 0x01);
	KUNIT_EXPECT_EQ(test, lkst_trace_ctx(PREEMPT_OFFSET * 3, false), 0x00);
	KUNIT_EXPECT_EQ(test, lkst_trace_ctx(SOFTIRQ_DISABLE_OFFSET, false),
			0x80);
	KUNIT_EXPECT_EQ(test, lkst_trace_ctx(SOFTIRQ_OFFSET, false), 0x10);
	KUNIT_EXPECT_EQ(test, lkst_trace_ctx(SOFTIRQ_OFFSET +
					     SOFTIRQ_DISABLE_OFFSET, false), 0x90);
	KUNIT_EXPECT_EQ(test, lkst_trace_ctx(HARDIRQ_OFFSET, true), 0x09);
	KUNIT_EXPECT_EQ(test, lkst_trace_ctx(HARDIRQ_OFFSET + SOFTIRQ_OFFSET,
					     true), 0x19);
	KUNIT_EXPECT_EQ(test, lkst_trace_ctx(NMI_OFFSET + HARDIRQ_OFFSET, true),
			0x49);
	/* the bits are ftrace's */
	KUNIT_EXPECT_EQ(test, TRACE_FLAG_IRQS_OFF, LKST_RECORD_IRQS_OFF);
	KUNIT_EXPECT_EQ(test, TRACE_FLAG_NMI, LKST_RECORD_NMI);
	KUNIT_EXPECT_EQ(test, TRACE_FLAG_HARDIRQ, LKST_RECORD_HARDIRQ);
	KUNIT_EXPECT_EQ(test, TRACE_FLAG_SOFTIRQ, LKST_RECORD_SOFTIRQ);
	KUNIT_EXPECT_EQ(test, TRACE_FLAG_BH_OFF, LKST_RECORD_BH_OFF);
}

static void lkst_buffer_round_trip(struct kunit *test)
{
	const u64 args[LKST_NR_ARGS] = {
		0, 1ULL << 63, 0x0123456789abcdefULL, ~0ULL,
	};
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_rt");
	struct ring_buffer_event *ev;
	struct lkst_record *rec;
	int cpu;
	u64 ts;

	cpu = get_cpu();
	KUNIT_EXPECT_EQ(test, lkst_record(buf, LKST_EV_PROCESS_EXIT, 7, 4321,
					  args), 0);
	put_cpu();

	ev = ring_buffer_consume(lkst_buffer_rb(buf), cpu, &ts, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_GE(test, ring_buffer_event_length(ev), sizeof(*rec));
	rec = ring_buffer_event_data(ev);
	/* ftrace's header: the event's type, task context */
	KUNIT_EXPECT_NE(test, lkst_event_type[LKST_EV_PROCESS_EXIT], 0);
	KUNIT_EXPECT_EQ(test, rec->type, lkst_event_type[LKST_EV_PROCESS_EXIT]);
	/* task context, interrupts on */
	KUNIT_EXPECT_EQ(test, rec->flags, 0);
	KUNIT_EXPECT_EQ(test, rec->preempt_count, 0);
	KUNIT_EXPECT_EQ(test, rec->pid, 4321);
	KUNIT_EXPECT_EQ(test, rec->event, LKST_EV_PROCESS_EXIT);
	KUNIT_EXPECT_EQ(test, rec->handler, 7);
	KUNIT_EXPECT_EQ(test, rec->__reserved, 0);
	KUNIT_EXPECT_EQ(test, rec->__pad, 0);
	KUNIT_EXPECT_EQ(test, rec->arg[0], args[0]);
	KUNIT_EXPECT_EQ(test, rec->arg[1], args[1]);
	KUNIT_EXPECT_EQ(test, rec->arg[2], args[2]);
	KUNIT_EXPECT_EQ(test, rec->arg[3], args[3]);
	KUNIT_EXPECT_GT(test, ts, 0);
	KUNIT_EXPECT_NULL(test, ring_buffer_consume(lkst_buffer_rb(buf), cpu,
						    &ts, NULL));
}

/* Consume everything of @cpu; return the count, first and last arg0. */
static unsigned int lkst_drain(struct lkst_buffer *buf, int cpu, u64 *first,
			       u64 *last)
{
	struct ring_buffer_event *ev;
	unsigned int n = 0;
	u64 prev = 0;

	while ((ev = ring_buffer_consume(lkst_buffer_rb(buf), cpu, NULL, NULL))) {
		struct lkst_record *rec = ring_buffer_event_data(ev);

		if (!n)
			*first = rec->arg[0];
		else if (rec->arg[0] != prev + 1)
			return 0;	/* a hole: fail the caller's checks */
		prev = rec->arg[0];
		*last = prev;
		n++;
	}
	return n;
}

#define LKST_TEST_N	2000	/* several times what 8 KiB holds */

static void lkst_buffer_overwrite_keeps_newest(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_ow");
	struct lkst_buffer_stats st;
	u64 first = 0, last = 0;
	unsigned int n;
	int cpu;

	cpu = get_cpu();
	lkst_write_n(buf, LKST_TEST_N);
	put_cpu();

	lkst_buffer_stats(buf, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.written, LKST_TEST_N);
	KUNIT_EXPECT_EQ(test, st.lost, 0);
	KUNIT_EXPECT_GT(test, st.overrun, 0);
	KUNIT_EXPECT_EQ(test, st.entries + st.overrun, LKST_TEST_N);

	n = lkst_drain(buf, cpu, &first, &last);
	KUNIT_EXPECT_EQ(test, n, st.entries);
	KUNIT_EXPECT_EQ(test, last, LKST_TEST_N - 1);
	KUNIT_EXPECT_EQ(test, first, st.overrun);
	lkst_buffer_stats(buf, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.read, n);
	KUNIT_EXPECT_EQ(test, st.entries, 0);
	lkst_expect_written(test, buf, cpu, LKST_TEST_N);
}

static void lkst_buffer_stop_keeps_oldest(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_stop");
	struct lkst_buffer_stats st;
	u64 first = 0, last = 0;
	unsigned int n;
	int cpu;

	lkst_buffer_set_overwrite(buf, false);
	cpu = get_cpu();
	lkst_write_n(buf, LKST_TEST_N);
	put_cpu();

	lkst_buffer_stats(buf, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.written, LKST_TEST_N);
	KUNIT_EXPECT_EQ(test, st.overrun, 0);
	KUNIT_EXPECT_GT(test, st.lost, 0);
	KUNIT_EXPECT_EQ(test, st.entries + st.lost, LKST_TEST_N);

	n = lkst_drain(buf, cpu, &first, &last);
	KUNIT_EXPECT_EQ(test, n, st.entries);
	KUNIT_EXPECT_EQ(test, first, 0);
	KUNIT_EXPECT_EQ(test, last, n - 1);
	lkst_expect_written(test, buf, cpu, LKST_TEST_N);
}

static void lkst_buffer_off_not_counted(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_off");
	const u64 args[LKST_NR_ARGS] = { 0 };
	struct lkst_buffer_stats st;
	int cpu;

	lkst_buffer_set_on(buf, false);
	cpu = get_cpu();
	KUNIT_EXPECT_EQ(test, lkst_record(buf, 1, 1, 1, args), -EAGAIN);
	put_cpu();
	lkst_buffer_stats(buf, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.written, 0);
	KUNIT_EXPECT_EQ(test, st.entries, 0);
}

static void lkst_buffer_clear_resets(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_clr");
	struct lkst_buffer_stats st;
	int cpu;

	cpu = get_cpu();
	lkst_write_n(buf, LKST_TEST_N);
	put_cpu();
	KUNIT_EXPECT_EQ(test, lkst_buffer_clear(buf), 0);
	lkst_buffer_stats(buf, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.written, 0);
	KUNIT_EXPECT_EQ(test, st.entries, 0);
	KUNIT_EXPECT_EQ(test, st.overrun, 0);
	KUNIT_EXPECT_EQ(test, st.lost, 0);
	KUNIT_EXPECT_EQ(test, st.read, 0);
}

struct lkst_writer {
	struct lkst_buffer	*buf;
	unsigned int		n;
	struct completion	done;
};

static int lkst_writer_fn(void *data)
{
	struct lkst_writer *w = data;
	unsigned int i;

	for (i = 0; i < w->n; i += 100) {
		preempt_disable();
		lkst_write_n(w->buf, 100);
		preempt_enable();
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

/* Grow and shrink while a thread writes: nothing may go uncounted. */
static void lkst_buffer_resize_under_writes(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_rsz");
	struct lkst_writer w = { .buf = buf, .n = 100 * LKST_TEST_N };
	static const unsigned long sizes[] = { 64, 8, 32, 8 };
	unsigned long written = 0;
	struct task_struct *t;
	int cpu, i;

	init_completion(&w.done);
	t = kthread_run(lkst_writer_fn, &w, "lkst_kunit_writer");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		KUNIT_EXPECT_EQ(test, lkst_buffer_resize(buf, sizes[i]), 0);
		usleep_range(100, 200);
	}
	wait_for_completion(&w.done);

	KUNIT_EXPECT_EQ(test, lkst_buffer_size_kb(buf), 8);
	for_each_possible_cpu(cpu) {
		struct lkst_buffer_stats st;

		lkst_buffer_stats(buf, cpu, &st);
		KUNIT_EXPECT_EQ(test, st.written,
				st.read + st.entries + st.overrun + st.lost);
		written += st.written;
	}
	KUNIT_EXPECT_EQ(test, written, w.n);
	KUNIT_EXPECT_EQ(test, lkst_buffer_resize(buf, LKST_BUF_MIN_KB - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, lkst_buffer_resize(buf, LKST_BUF_MAX_KB + 1), -EINVAL);
}

static void lkst_buffers_isolated(struct kunit *test)
{
	struct lkst_buffer *a = lkst_test_buffer(test, "kunit_a");
	struct lkst_buffer *b = lkst_test_buffer(test, "kunit_b");
	struct lkst_buffer_stats sa, sb;
	u64 first = 0, last = 0;
	int cpu;

	cpu = get_cpu();
	lkst_write_n(a, 3);
	lkst_write_n(b, 5);
	put_cpu();

	lkst_buffer_stats(a, cpu, &sa);
	lkst_buffer_stats(b, cpu, &sb);
	KUNIT_EXPECT_EQ(test, sa.written, 3);
	KUNIT_EXPECT_EQ(test, sb.written, 5);
	KUNIT_EXPECT_EQ(test, lkst_drain(a, cpu, &first, &last), 3);
	KUNIT_EXPECT_EQ(test, lkst_drain(b, cpu, &first, &last), 5);
}

static void lkst_buffer_names(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_n");

	guard(mutex)(&lkst_mutex);
	KUNIT_EXPECT_PTR_EQ(test, __lkst_buffer_lookup("kunit_n"), buf);
	KUNIT_EXPECT_PTR_EQ(test, __lkst_buffer_lookup("default"),
			    lkst_buffer_default());
	KUNIT_EXPECT_EQ(test, PTR_ERR(__lkst_buffer_create("kunit_n", 8)),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, PTR_ERR(__lkst_buffer_create("bad name", 8)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, __lkst_buffer_remove(lkst_buffer_default()),
			-EPERM);
}

/*
 * A buffer is the instance lkst.NAME: its tracing_on, options/overwrite
 * and buffer_size_kb are LKST's, and LKST holds it.  (test_buffers.sh
 * checks the same through tracefs, and rmdir.)
 */
static void lkst_buffer_is_instance(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_inst");
	struct trace_array *tr = buf->tr;
	unsigned long entries;
	int cpu;

	KUNIT_ASSERT_NOT_NULL(test, tr);
	KUNIT_EXPECT_STREQ(test, tr->name, "lkst.kunit_inst");
	KUNIT_EXPECT_STREQ(test, lkst_buffer_default()->tr->name, "lkst");
	KUNIT_EXPECT_PTR_EQ(test, lkst_buffer_rb(buf), tr->array_buffer.buffer);
	/* rmdir's test: the directory's reference and LKST's */
	KUNIT_EXPECT_EQ(test, tr->ref, 2);

	KUNIT_EXPECT_TRUE(test, lkst_buffer_is_on(buf));
	KUNIT_EXPECT_EQ(test, lkst_buffer_set_on(buf, false), 0);
	KUNIT_EXPECT_EQ(test, tr->buffer_disabled, 1);
	KUNIT_EXPECT_EQ(test, lkst_buffer_set_on(buf, true), 0);
	KUNIT_EXPECT_EQ(test, tr->buffer_disabled, 0);

	KUNIT_EXPECT_TRUE(test, tr->trace_flags & TRACE_ITER(OVERWRITE));
	KUNIT_EXPECT_EQ(test, lkst_buffer_set_overwrite(buf, false), 0);
	KUNIT_EXPECT_FALSE(test, tr->trace_flags & TRACE_ITER(OVERWRITE));

	KUNIT_EXPECT_EQ(test, lkst_buffer_size_kb(buf), LKST_BUF_MIN_KB);
	KUNIT_EXPECT_EQ(test, lkst_buffer_resize(buf, 16), 0);
	KUNIT_EXPECT_EQ(test, lkst_buffer_size_kb(buf), 16);
	/* ftrace's buffer_size_kb: the data bytes of the pages that hold it */
	cpu = raw_smp_processor_id();
	entries = per_cpu_ptr(tr->array_buffer.data, cpu)->entries;
	KUNIT_EXPECT_EQ(test, entries, ring_buffer_size(lkst_buffer_rb(buf), cpu));
	KUNIT_EXPECT_GE(test, entries, 16 << 10);
	KUNIT_EXPECT_LT(test, entries, (16 << 10) + PAGE_SIZE);
}

/* A user's instance of the name is not adopted. */
static void lkst_buffer_instance_taken(struct kunit *test)
{
	struct trace_array *tr = trace_array_get_by_name("lkst.kunit_taken",
							 NULL);

	KUNIT_ASSERT_NOT_NULL(test, tr);
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_EXPECT_EQ(test,
				PTR_ERR(__lkst_buffer_create("kunit_taken", 8)),
				-EEXIST);
	trace_array_put(tr);
	KUNIT_EXPECT_EQ(test, trace_array_destroy(tr), 0);
}

static struct kunit_case lkst_buffer_test_cases[] = {
	KUNIT_CASE(lkst_buffer_context_flags),
	KUNIT_CASE(lkst_buffer_round_trip),
	KUNIT_CASE(lkst_buffer_overwrite_keeps_newest),
	KUNIT_CASE(lkst_buffer_stop_keeps_oldest),
	KUNIT_CASE(lkst_buffer_off_not_counted),
	KUNIT_CASE(lkst_buffer_clear_resets),
	KUNIT_CASE_SLOW(lkst_buffer_resize_under_writes),
	KUNIT_CASE(lkst_buffers_isolated),
	KUNIT_CASE(lkst_buffer_names),
	KUNIT_CASE(lkst_buffer_is_instance),
	KUNIT_CASE(lkst_buffer_instance_taken),
	{}
};

static struct kunit_suite lkst_buffer_test_suite = {
	.name = "lkst_buffer",
	.test_cases = lkst_buffer_test_cases,
};

kunit_test_suite(lkst_buffer_test_suite);

MODULE_DESCRIPTION("KUnit tests for LKST buffers");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
