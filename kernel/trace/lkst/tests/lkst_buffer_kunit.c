// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for LKST buffers: record round trip, overwrite and stop
 * modes, exact counts in the ring buffer's statistics, resize while
 * writing, isolation.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>

#include "../../trace.h"
#include "../lkst_internal.h"
#include "lkst_kunit.h"

/* Write @n records; the number written */
static unsigned int lkst_write_n(struct lkst_buffer *buf, unsigned int n)
{
	u64 args[LKST_NR_ARGS] = { 0 };
	unsigned int i, ok = 0;

	for (i = 0; i < n; i++) {
		args[0] = i;
		if (!lkst_record(buf, LKST_EV_PROCESS_FORK, LKST_HANDLER_DEFAULT,
				 1, args))
			ok++;
	}
	return ok;
}

/* What the instance's per_cpu/cpuN/stats show, and LKST's refused */
struct lkst_test_counts {
	unsigned long	entries, overrun, dropped, read, refused;
};

static void lkst_test_counts(struct lkst_buffer *buf, int cpu,
			     struct lkst_test_counts *st)
{
	struct trace_buffer *rb = lkst_buffer_rb(buf);

	st->entries = ring_buffer_entries_cpu(rb, cpu);
	st->overrun = ring_buffer_overrun_cpu(rb, cpu);
	st->dropped = ring_buffer_dropped_events_cpu(rb, cpu);
	st->read = ring_buffer_read_events_cpu(rb, cpu);
	st->refused = lkst_buffer_refused(buf, cpu);
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

/* Overwrite mode: every record is kept or counted as overrun */
static void lkst_buffer_overwrite_keeps_newest(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_ow");
	struct lkst_test_counts st;
	u64 first = 0, last = 0;
	unsigned int n, ok;
	int cpu;

	cpu = get_cpu();
	ok = lkst_write_n(buf, LKST_TEST_N);
	put_cpu();

	KUNIT_EXPECT_EQ(test, ok, LKST_TEST_N);
	lkst_test_counts(buf, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 0);
	KUNIT_EXPECT_EQ(test, st.refused, 0);
	KUNIT_EXPECT_GT(test, st.overrun, 0);
	KUNIT_EXPECT_EQ(test, st.entries + st.overrun, LKST_TEST_N);

	n = lkst_drain(buf, cpu, &first, &last);
	KUNIT_EXPECT_EQ(test, n, st.entries);
	KUNIT_EXPECT_EQ(test, last, LKST_TEST_N - 1);
	KUNIT_EXPECT_EQ(test, first, st.overrun);
	lkst_test_counts(buf, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.read, n);
	KUNIT_EXPECT_EQ(test, st.entries, 0);
}

/*
 * Stop mode: a record a full buffer refuses fails with -ENOBUFS and is
 * counted as a dropped event.
 */
static void lkst_buffer_stop_keeps_oldest(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_stop");
	struct lkst_test_counts st;
	u64 first = 0, last = 0;
	unsigned int n, ok;
	int cpu;

	ring_buffer_change_overwrite(lkst_buffer_rb(buf), 0);
	cpu = get_cpu();
	ok = lkst_write_n(buf, LKST_TEST_N);
	put_cpu();

	lkst_test_counts(buf, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.overrun, 0);
	KUNIT_EXPECT_GT(test, st.dropped, 0);
	KUNIT_EXPECT_EQ(test, st.entries, ok);
	KUNIT_EXPECT_EQ(test, st.entries + st.dropped, LKST_TEST_N);
	KUNIT_EXPECT_EQ(test, st.refused, st.dropped);

	n = lkst_drain(buf, cpu, &first, &last);
	KUNIT_EXPECT_EQ(test, n, st.entries);
	KUNIT_EXPECT_EQ(test, first, 0);
	KUNIT_EXPECT_EQ(test, last, n - 1);
}

/* tracing_on 0: -EAGAIN, nothing written, nothing counted */
static void lkst_buffer_off_not_counted(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_off");
	const u64 args[LKST_NR_ARGS] = { 0 };
	struct lkst_test_counts st;
	int cpu;

	ring_buffer_record_off(lkst_buffer_rb(buf));
	cpu = get_cpu();
	KUNIT_EXPECT_EQ(test, lkst_record(buf, 1, 1, 1, args), -EAGAIN);
	put_cpu();
	ring_buffer_record_on(lkst_buffer_rb(buf));
	lkst_test_counts(buf, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.entries, 0);
	KUNIT_EXPECT_EQ(test, st.dropped, 0);
	KUNIT_EXPECT_EQ(test, st.refused, 0);
}

/*
 * The records of every buffer go when a dynamic event is removed, as
 * ftrace's do (its type would be given to the next event); recording
 * goes on afterwards.
 */
static void lkst_buffers_clear_drops_all(struct kunit *test)
{
	struct lkst_buffer *a, *b;
	struct lkst_test_counts sa, sb;
	int cpu;

	/* It clears the default buffer too: not while a boot maskset records */
	if (strcmp(lkst_maskset_current()->name, "RNOTHING"))
		kunit_skip(test, "the default buffer is in use");
	a = lkst_test_buffer(test, "kunit_clra");
	b = lkst_test_buffer(test, "kunit_clrb");
	cpu = get_cpu();
	KUNIT_EXPECT_EQ(test, lkst_write_n(a, 3), 3);
	KUNIT_EXPECT_EQ(test, lkst_write_n(b, 5), 5);
	put_cpu();
	lkst_test_counts(a, cpu, &sa);
	KUNIT_EXPECT_EQ(test, sa.entries, 3);
	scoped_guard(mutex, &lkst_mutex)
		__lkst_buffers_clear();
	lkst_test_counts(a, cpu, &sa);
	lkst_test_counts(b, cpu, &sb);
	KUNIT_EXPECT_EQ(test, sa.entries + sa.overrun + sa.read + sa.dropped, 0);
	KUNIT_EXPECT_EQ(test, sb.entries + sb.overrun + sb.read + sb.dropped, 0);

	cpu = get_cpu();
	KUNIT_EXPECT_EQ(test, lkst_write_n(a, 2), 2);
	put_cpu();
	lkst_test_counts(a, cpu, &sa);
	KUNIT_EXPECT_EQ(test, sa.entries, 2);
}

struct lkst_writer {
	struct lkst_buffer	*buf;
	unsigned int		n;
	unsigned int		written;
	struct completion	done;
};

static int lkst_writer_fn(void *data)
{
	struct lkst_writer *w = data;
	unsigned int i;

	for (i = 0; i < w->n; i += 100) {
		preempt_disable();
		w->written += lkst_write_n(w->buf, 100);
		preempt_enable();
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

/*
 * Grow and shrink the ring buffer while a thread writes, as the
 * instance's buffer_size_kb does: every record written is in the buffer
 * or counted as overrun (a shrink drops the oldest), every other one is
 * counted as refused.
 */
static void lkst_buffer_resize_under_writes(struct kunit *test)
{
	struct lkst_buffer *buf = lkst_test_buffer(test, "kunit_rsz");
	struct lkst_writer w = { .buf = buf, .n = 100 * LKST_TEST_N };
	static const unsigned long sizes[] = { 64, 8, 32, 8 };
	unsigned long held = 0, refused = 0, size;
	struct task_struct *t;
	int cpu, i;

	/* created with LKST_BUF_MIN_KB, the last of @sizes */
	cpu = cpumask_first(cpu_online_mask);
	size = ring_buffer_size(lkst_buffer_rb(buf), cpu);
	init_completion(&w.done);
	t = kthread_run(lkst_writer_fn, &w, "lkst_kunit_writer");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		KUNIT_EXPECT_EQ(test, ring_buffer_resize(lkst_buffer_rb(buf),
							 sizes[i] << 10,
							 RING_BUFFER_ALL_CPUS), 0);
		usleep_range(100, 200);
	}
	wait_for_completion(&w.done);

	/* back at the size it was created with */
	KUNIT_EXPECT_EQ(test, ring_buffer_size(lkst_buffer_rb(buf), cpu), size);
	for_each_possible_cpu(cpu) {
		struct lkst_test_counts st;

		lkst_test_counts(buf, cpu, &st);
		held += st.entries + st.overrun;
		refused += st.refused;
	}
	kunit_info(test, "%u records written, %lu refused during the resizes\n",
		   w.written, refused);
	KUNIT_EXPECT_GT(test, w.written, 0);
	KUNIT_EXPECT_EQ(test, held, w.written);
	KUNIT_EXPECT_EQ(test, refused, w.n - w.written);
}

static void lkst_buffers_isolated(struct kunit *test)
{
	struct lkst_buffer *a = lkst_test_buffer(test, "kunit_a");
	struct lkst_buffer *b = lkst_test_buffer(test, "kunit_b");
	struct lkst_test_counts sa, sb;
	u64 first = 0, last = 0;
	int cpu;

	cpu = get_cpu();
	lkst_write_n(a, 3);
	lkst_write_n(b, 5);
	put_cpu();

	lkst_test_counts(a, cpu, &sa);
	lkst_test_counts(b, cpu, &sb);
	KUNIT_EXPECT_EQ(test, sa.entries, 3);
	KUNIT_EXPECT_EQ(test, sb.entries, 5);
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
 * A buffer is the instance lkst.NAME, a flight recorder from the start,
 * of the size LKST gave it, and LKST holds it.  (test_buffers.sh checks
 * the same through tracefs, and rmdir.)
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
	KUNIT_EXPECT_EQ(test, tr->buffer_disabled, 0);
	KUNIT_EXPECT_TRUE(test, tr->trace_flags & TRACE_ITER(OVERWRITE));

	/* ftrace's buffer_size_kb: the data bytes of the pages that hold it */
	cpu = raw_smp_processor_id();
	entries = per_cpu_ptr(tr->array_buffer.data, cpu)->entries;
	KUNIT_EXPECT_EQ(test, entries, ring_buffer_size(lkst_buffer_rb(buf), cpu));
	KUNIT_EXPECT_GE(test, entries, LKST_BUF_MIN_KB << 10);
	KUNIT_EXPECT_LT(test, entries, (LKST_BUF_MIN_KB << 10) + PAGE_SIZE);
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
	KUNIT_CASE(lkst_buffers_clear_drops_all),
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
