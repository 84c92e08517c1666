/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit test of the ring buffer's fast write path: which writes
 * ring_buffer_reserve_fast() takes and which it leaves to the generic
 * code, and that both write the events and time stamps the generic code
 * writes.  Included by ring_buffer.c to see why a write fell back.
 *
 * The buffer has a clock of the test's own, so that every time stamp
 * and delta is exact.
 */

#ifdef CONFIG_RING_BUFFER_FAST_KUNIT_TEST

#include <kunit/test.h>
#include <linux/vmalloc.h>

static u64 rb_kunit_now;

static u64 rb_kunit_clock(void)
{
	return READ_ONCE(rb_kunit_now);
}

struct rb_kunit_ctx {
	struct trace_buffer	*buffer;
	int			cpu;
};

/* Not a value of enum rb_fast_fallback: what no write noted */
#define RB_KUNIT_NONE	((enum rb_fast_fallback)-1)

static void rb_kunit_free(void *buffer)
{
	ring_buffer_free(buffer);
}

static int rb_kunit_init(struct kunit *test)
{
	struct rb_kunit_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->buffer = ring_buffer_alloc(4 * PAGE_SIZE, RB_FL_OVERWRITE);
	KUNIT_ASSERT_NOT_NULL(test, ctx->buffer);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rb_kunit_free,
							ctx->buffer), 0);
	ring_buffer_set_clock(ctx->buffer, rb_kunit_clock);
	/* Every write and read of a case on one CPU (init runs in its thread) */
	ctx->cpu = raw_smp_processor_id();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(ctx->cpu)), 0);
	test->priv = ctx;
	return 0;
}

/* The path the last write to the test's buffer took, and why */
static enum rb_fast_fallback rb_kunit_last(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;

	return READ_ONCE(ctx->buffer->buffers[ctx->cpu]->fast_last);
}

static void rb_kunit_forget(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;

	WRITE_ONCE(ctx->buffer->buffers[ctx->cpu]->fast_last, RB_KUNIT_NONE);
}

/*
 * Reserve @len bytes through the fast path at time @now and fill them,
 * starting with @val; the caller commits.  *@why is the path taken.
 */
static struct ring_buffer_event *
rb_kunit_reserve(struct kunit *test, u64 now, unsigned long len, u32 val,
		 enum rb_fast_fallback *why)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_event *event;
	u32 *data;

	WRITE_ONCE(rb_kunit_now, now);
	rb_kunit_forget(test);
	event = ring_buffer_reserve_fast(ctx->buffer, len);
	KUNIT_ASSERT_NOT_NULL(test, event);
	*why = rb_kunit_last(test);
	data = ring_buffer_event_data(event);
	/* An event of less than 4 bytes has 4 */
	memset(data, 0, max(len, sizeof(*data)));
	*data = val;
	return event;
}

/* Write @len bytes starting with @val at time @now; return the path taken */
static enum rb_fast_fallback rb_kunit_write(struct kunit *test, u64 now,
					    unsigned long len, u32 val)
{
	struct rb_kunit_ctx *ctx = test->priv;
	enum rb_fast_fallback why;

	rb_kunit_reserve(test, now, len, val, &why);
	ring_buffer_commit_fast(ctx->buffer);
	return why;
}

/*
 * Read the next event: it must be @val, at time @ts, written with @len
 * bytes of data.  Its length is what the generic code gives @len; the
 * 8-byte alignment of some architectures (and of UML) adds array[0].
 */
static void rb_kunit_expect(struct kunit *test, u64 ts, unsigned long len,
			    u32 val)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_event *event;
	unsigned long lost = 0;
	u64 read_ts = 0;

	event = ring_buffer_consume(ctx->buffer, ctx->cpu, &read_ts, &lost);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_EXPECT_EQ(test, read_ts, ts);
	KUNIT_EXPECT_EQ(test, lost, 0);
	KUNIT_EXPECT_EQ(test, rb_event_length(event),
			rb_calculate_event_length(len));
	KUNIT_EXPECT_EQ(test, *(u32 *)ring_buffer_event_data(event), val);
}

static void rb_kunit_expect_empty(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;

	KUNIT_EXPECT_NULL(test, ring_buffer_consume(ctx->buffer, ctx->cpu,
						    NULL, NULL));
}

/* The first event of a sub-buffer is generic, the next ones are fast */
static void rb_fast_taken(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_per_cpu *cpu_buffer = ctx->buffer->buffers[ctx->cpu];
	struct ring_buffer_event *event;
	unsigned long len48;

	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 1000, 48, 1),
			RB_FAST_PAGE_START);
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 1010, 48, 2), RB_FAST_TAKEN);
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 1030, 8, 3), RB_FAST_TAKEN);

	/* The header the fast path wrote: 48 bytes of data, delta 10 */
	len48 = rb_calculate_event_length(48);
	event = __rb_page_index(cpu_buffer->tail_page, len48);
	if (RB_FORCE_8BYTE_ALIGNMENT) {
		KUNIT_EXPECT_EQ(test, len48, 56);
		KUNIT_EXPECT_EQ(test, (u32)event->type_len, 0);
		KUNIT_EXPECT_EQ(test, event->array[0], 52);
	} else {
		KUNIT_EXPECT_EQ(test, len48, 52);
		KUNIT_EXPECT_EQ(test, (u32)event->type_len, 12);
	}
	KUNIT_EXPECT_EQ(test, (u32)event->time_delta, 10);
	/* 8 bytes take 16 (rb_calculate_event_length()'s padding rule) */
	KUNIT_EXPECT_EQ(test, rb_calculate_event_length(8), 16);
	KUNIT_EXPECT_EQ(test, local_read(&cpu_buffer->tail_page->page->commit),
			2 * len48 + 16);
	KUNIT_EXPECT_EQ(test, ring_buffer_entries_cpu(ctx->buffer, ctx->cpu), 3);

	rb_kunit_expect(test, 1000, 48, 1);
	rb_kunit_expect(test, 1010, 48, 2);
	rb_kunit_expect(test, 1030, 8, 3);
	rb_kunit_expect_empty(test);
}

/* A delta that needs a time extend: 2^27 - 1 fits, 2^27 does not */
static void rb_fast_delta(struct kunit *test)
{
	u64 t = 5000;

	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, t, 16, 1),
			RB_FAST_PAGE_START);
	t += (1 << 27) - 1;
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, t, 16, 2), RB_FAST_TAKEN);
	t += 1 << 27;
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, t, 16, 3), RB_FAST_DELTA);
	t += 1;
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, t, 16, 4), RB_FAST_TAKEN);

	rb_kunit_expect(test, 5000, 16, 1);
	rb_kunit_expect(test, 5000 + (1 << 27) - 1, 16, 2);
	rb_kunit_expect(test, 5000 + (1 << 28) - 1, 16, 3);
	rb_kunit_expect(test, 5000 + (1 << 28), 16, 4);
	rb_kunit_expect_empty(test);
}

/* The event that does not fit in the sub-buffer, and the one after it */
static void rb_fast_page_end(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct buffer_page *page = ctx->buffer->buffers[ctx->cpu]->tail_page;
	/* 112 bytes of data, the largest small event */
	unsigned int per_page = rb_page_capacity(page) /
				rb_calculate_event_length(112);
	unsigned int i;

	/* 4080 bytes of a 4 KiB sub-buffer hold 35 of 116, or 34 of 120 */
	if (PAGE_SIZE == 4096 && sizeof(long) == 8)
		KUNIT_EXPECT_EQ(test, per_page, RB_FORCE_8BYTE_ALIGNMENT ? 34 : 35);

	for (i = 0; i < per_page + 2; i++) {
		enum rb_fast_fallback expected = RB_FAST_TAKEN;

		if (i == 0)
			expected = RB_FAST_PAGE_START;
		else if (i == per_page)
			expected = RB_FAST_PAGE_END;
		KUNIT_EXPECT_EQ_MSG(test, rb_kunit_write(test, 100 + i, 112, i),
				    expected, "write %u", i);
	}
	for (i = 0; i < per_page + 2; i++)
		rb_kunit_expect(test, 100 + i, 112, i);
	rb_kunit_expect_empty(test);
}

/*
 * A write nested in another (an interrupt's, here allowed by
 * ring_buffer_nest_start()) is generic; the outer one commits both.
 */
static void rb_fast_nested(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_per_cpu *cpu_buffer = ctx->buffer->buffers[ctx->cpu];
	unsigned long len16 = rb_calculate_event_length(16);
	enum rb_fast_fallback taken, inner;
	long commit;

	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 2000, 16, 1),
			RB_FAST_PAGE_START);

	/*
	 * Preemption stays off until the outer commit: no expectation is
	 * checked in between, a failing one would allocate.
	 */
	rb_kunit_reserve(test, 2010, 16, 2, &taken);

	ring_buffer_nest_start(ctx->buffer);
	inner = rb_kunit_write(test, 2015, 16, 3);
	ring_buffer_nest_end(ctx->buffer);
	/* Only the first event is committed: the outer write owns the commit */
	commit = local_read(&cpu_buffer->commit_page->page->commit);
	ring_buffer_commit_fast(ctx->buffer);

	KUNIT_EXPECT_EQ(test, taken, RB_FAST_TAKEN);
	KUNIT_EXPECT_EQ(test, inner, RB_FAST_NESTED);
	KUNIT_EXPECT_EQ(test, commit, len16);
	KUNIT_EXPECT_EQ(test, local_read(&cpu_buffer->commit_page->page->commit),
			3 * len16);

	rb_kunit_expect(test, 2000, 16, 1);
	rb_kunit_expect(test, 2010, 16, 2);
	rb_kunit_expect(test, 2015, 16, 3);
	rb_kunit_expect_empty(test);
}

/*
 * A nested write that moves the tail to the next sub-buffer between the
 * outer write's reserve and commit: the commit is left to the generic
 * code, which commits both pages.
 */
static void rb_fast_nested_page_end(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct buffer_page *page = ctx->buffer->buffers[ctx->cpu]->tail_page;
	unsigned int per_page = rb_page_capacity(page) /
				rb_calculate_event_length(112);
	enum rb_fast_fallback taken, inner;
	unsigned int i;

	for (i = 0; i < per_page - 1; i++)
		rb_kunit_write(test, 3000 + i, 112, i);

	rb_kunit_reserve(test, 3000 + i, 112, i, &taken);

	ring_buffer_nest_start(ctx->buffer);
	inner = rb_kunit_write(test, 3000 + i + 1, 112, i + 1);
	ring_buffer_nest_end(ctx->buffer);
	ring_buffer_commit_fast(ctx->buffer);
	KUNIT_EXPECT_EQ(test, taken, RB_FAST_TAKEN);
	KUNIT_EXPECT_EQ(test, inner, RB_FAST_NESTED);

	for (i = 0; i < per_page + 1; i++)
		rb_kunit_expect(test, 3000 + i, 112, i);
	rb_kunit_expect_empty(test);
}

/* Empty and large events, and absolute time stamps, are generic */
static void rb_fast_length(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 10, 16, 1),
			RB_FAST_PAGE_START);
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 20, 113, 2), RB_FAST_LENGTH);
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 30, 112, 3), RB_FAST_TAKEN);
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 40, 0, 0), RB_FAST_LENGTH);

	ring_buffer_set_time_stamp_abs(ctx->buffer, true);
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 50, 16, 5), RB_FAST_LENGTH);
	ring_buffer_set_time_stamp_abs(ctx->buffer, false);
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 60, 16, 6), RB_FAST_TAKEN);

	rb_kunit_expect(test, 10, 16, 1);
	rb_kunit_expect(test, 20, 113, 2);
	rb_kunit_expect(test, 30, 112, 3);
	rb_kunit_expect(test, 40, 0, 0);
	rb_kunit_expect(test, 50, 16, 5);
	rb_kunit_expect(test, 60, 16, 6);
	rb_kunit_expect_empty(test);
}

/*
 * After an interrupted write the two stamps differ: the next write is
 * generic, and takes an absolute time stamp.
 */
static void rb_fast_stamp(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_per_cpu *cpu_buffer = ctx->buffer->buffers[ctx->cpu];

	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 700, 16, 1),
			RB_FAST_PAGE_START);
	rb_time_set(&cpu_buffer->before_stamp, 750);
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 800, 16, 2), RB_FAST_STAMP);
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 900, 16, 3), RB_FAST_TAKEN);

	rb_kunit_expect(test, 700, 16, 1);
	rb_kunit_expect(test, 800, 16, 2);
	rb_kunit_expect(test, 900, 16, 3);
	rb_kunit_expect_empty(test);
}

/* A disabled buffer reserves nothing, on either path */
static void rb_fast_disabled(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 10, 16, 1),
			RB_FAST_PAGE_START);
	ring_buffer_record_off(ctx->buffer);
	KUNIT_EXPECT_NULL(test, ring_buffer_reserve_fast(ctx->buffer, 16));
	ring_buffer_record_on(ctx->buffer);
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 30, 16, 3), RB_FAST_TAKEN);

	rb_kunit_expect(test, 10, 16, 1);
	rb_kunit_expect(test, 30, 16, 3);
	rb_kunit_expect_empty(test);
}

/*
 * ring_buffer_event_time_stamp() of a fast event between its reserve and
 * commit, and the bytes the buffer counts.
 */
static void rb_fast_time_stamp_and_bytes(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_event *event;
	enum rb_fast_fallback taken;
	u64 ts;

	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 400, 16, 1),
			RB_FAST_PAGE_START);
	event = rb_kunit_reserve(test, 420, 40, 2, &taken);
	ts = ring_buffer_event_time_stamp(ctx->buffer, event);
	ring_buffer_commit_fast(ctx->buffer);

	KUNIT_EXPECT_EQ(test, taken, RB_FAST_TAKEN);
	KUNIT_EXPECT_EQ(test, ts, 420);
	KUNIT_EXPECT_EQ(test, ring_buffer_bytes_cpu(ctx->buffer, ctx->cpu),
			rb_calculate_event_length(16) +
			rb_calculate_event_length(40));
	rb_kunit_expect(test, 400, 16, 1);
	rb_kunit_expect(test, 420, 40, 2);
	rb_kunit_expect_empty(test);
}

/*
 * A fast event discarded before its commit leaves nothing behind; the
 * write after it takes its place, with its own time stamp.
 */
static void rb_fast_discard(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_per_cpu *cpu_buffer = ctx->buffer->buffers[ctx->cpu];
	unsigned long len16 = rb_calculate_event_length(16);
	struct ring_buffer_event *event;
	enum rb_fast_fallback taken;
	long write;

	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 500, 16, 1),
			RB_FAST_PAGE_START);
	event = rb_kunit_reserve(test, 510, 16, 2, &taken);
	ring_buffer_discard_commit(ctx->buffer, event);
	KUNIT_EXPECT_EQ(test, taken, RB_FAST_TAKEN);
	/* Removed, not padded: the write index is back */
	write = local_read(&cpu_buffer->tail_page->write) & RB_WRITE_MASK;
	KUNIT_EXPECT_EQ(test, write, len16);
	/* The discard zeroes before_stamp: the next write is generic */
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 520, 16, 3), RB_FAST_STAMP);
	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 530, 16, 4), RB_FAST_TAKEN);

	rb_kunit_expect(test, 500, 16, 1);
	rb_kunit_expect(test, 520, 16, 3);
	rb_kunit_expect(test, 530, 16, 4);
	rb_kunit_expect_empty(test);
}

/* Either reserve may be committed by either commit */
static void rb_fast_cross_pairs(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_event *event;
	enum rb_fast_fallback taken;

	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 600, 16, 1),
			RB_FAST_PAGE_START);

	WRITE_ONCE(rb_kunit_now, 610);
	event = ring_buffer_lock_reserve(ctx->buffer, 16);
	KUNIT_ASSERT_NOT_NULL(test, event);
	*(u32 *)ring_buffer_event_data(event) = 2;
	ring_buffer_commit_fast(ctx->buffer);

	rb_kunit_reserve(test, 620, 16, 3, &taken);
	ring_buffer_unlock_commit(ctx->buffer);
	KUNIT_EXPECT_EQ(test, taken, RB_FAST_TAKEN);

	KUNIT_EXPECT_EQ(test, rb_kunit_write(test, 630, 16, 4), RB_FAST_TAKEN);
	KUNIT_EXPECT_EQ(test, ring_buffer_entries_cpu(ctx->buffer, ctx->cpu), 4);

	rb_kunit_expect(test, 600, 16, 1);
	rb_kunit_expect(test, 610, 16, 2);
	rb_kunit_expect(test, 620, 16, 3);
	rb_kunit_expect(test, 630, 16, 4);
	rb_kunit_expect_empty(test);
}

/*
 * The one-store header writes what the bit fields would: the type, and
 * the low 27 bits of the delta, even for a delta with more (on
 * big-endian, the bits above would land in type_len).
 */
static void rb_fast_header(struct kunit *test)
{
	struct ring_buffer_event event = {};

	rb_event_set_header(&event, 3, 5);
	KUNIT_EXPECT_EQ(test, (u32)event.type_len, 3);
	KUNIT_EXPECT_EQ(test, (u32)event.time_delta, 5);
	rb_event_set_header(&event, RINGBUF_TYPE_DATA_TYPE_LEN_MAX, TS_MASK);
	KUNIT_EXPECT_EQ(test, (u32)event.type_len, RINGBUF_TYPE_DATA_TYPE_LEN_MAX);
	KUNIT_EXPECT_EQ(test, (u32)event.time_delta, TS_MASK);
	rb_event_set_header(&event, 0, (1ULL << TS_SHIFT) + 5);
	KUNIT_EXPECT_EQ(test, (u32)event.type_len, 0);
	KUNIT_EXPECT_EQ(test, (u32)event.time_delta, 5);
}

static struct kunit_case rb_fast_cases[] = {
	KUNIT_CASE(rb_fast_header),
	KUNIT_CASE(rb_fast_taken),
	KUNIT_CASE(rb_fast_delta),
	KUNIT_CASE(rb_fast_page_end),
	KUNIT_CASE(rb_fast_nested),
	KUNIT_CASE(rb_fast_nested_page_end),
	KUNIT_CASE(rb_fast_length),
	KUNIT_CASE(rb_fast_stamp),
	KUNIT_CASE(rb_fast_disabled),
	KUNIT_CASE(rb_fast_time_stamp_and_bytes),
	KUNIT_CASE(rb_fast_discard),
	KUNIT_CASE(rb_fast_cross_pairs),
	{}
};

static struct kunit_suite rb_fast_suite = {
	.name		= "ring_buffer_fast",
	.init		= rb_kunit_init,
	.test_cases	= rb_fast_cases,
};

kunit_test_suite(rb_fast_suite);

/*
 * ring_buffer_iter_read_page(): a copy of the events in trace_pipe_raw's
 * page format, through an iterator, leaving them in the buffer.
 */

/* The time stamp of the last event copied by the current case */
static u64 rb_kunit_copied;

/* Read one page from @iter, over bytes that must be cleared */
static int rb_kunit_iter_page(struct ring_buffer_iter *iter, void *page,
			      size_t len, u64 end)
{
	memset(page, 0xa5, len);
	return ring_buffer_iter_read_page(iter, page, len, &rb_kunit_copied, end);
}

KUNIT_DEFINE_ACTION_WRAPPER(rb_kunit_read_finish, ring_buffer_read_finish,
			    struct ring_buffer_iter *);

static struct ring_buffer_iter *rb_kunit_iter(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_iter *iter;

	rb_kunit_copied = 0;
	iter = ring_buffer_read_start(ctx->buffer, ctx->cpu, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, iter);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rb_kunit_read_finish,
							iter), 0);
	return iter;
}

/* Check the event at @off of @bpage: @delta, @len bytes of data, @val */
static unsigned int rb_kunit_page_event(struct kunit *test,
					struct buffer_data_page *bpage,
					unsigned int off, u64 delta,
					unsigned long len, u32 val)
{
	struct ring_buffer_event *event = (void *)bpage->data + off;

	KUNIT_EXPECT_LE(test, (u32)event->type_len, RINGBUF_TYPE_DATA_TYPE_LEN_MAX);
	KUNIT_EXPECT_EQ(test, (u64)event->time_delta, delta);
	KUNIT_EXPECT_EQ(test, rb_event_length(event), rb_calculate_event_length(len));
	KUNIT_EXPECT_EQ(test, *(u32 *)ring_buffer_event_data(event), val);
	return off + rb_event_length(event);
}

/* Deltas from the page's first event, a time extend, a long event */
static void rb_iter_page_copy(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	size_t len = ring_buffer_subbuf_size_get(ctx->buffer);
	struct buffer_data_page *bpage;
	struct ring_buffer_event *ext;
	struct ring_buffer_iter *iter;
	u64 far = 100 + 10 + (3ULL << TS_SHIFT) + 5;
	unsigned int off, commit;
	char *rest;

	bpage = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bpage);
	rb_kunit_write(test, 100, 16, 1);
	rb_kunit_write(test, 110, 200, 2);
	rb_kunit_write(test, far, 8, 3);
	iter = rb_kunit_iter(test);

	commit = rb_calculate_event_length(16) + rb_calculate_event_length(200) +
		 RB_LEN_TIME_EXTEND + rb_calculate_event_length(8);
	KUNIT_ASSERT_EQ(test, rb_kunit_iter_page(iter, bpage, len, U64_MAX),
			commit);
	KUNIT_EXPECT_EQ(test, bpage->time_stamp, 100);
	KUNIT_EXPECT_EQ(test, local_read(&bpage->commit), commit);
	off = rb_kunit_page_event(test, bpage, 0, 0, 16, 1);
	off = rb_kunit_page_event(test, bpage, off, 10, 200, 2);
	ext = (void *)bpage->data + off;
	KUNIT_EXPECT_EQ(test, (u32)ext->type_len, RINGBUF_TYPE_TIME_EXTEND);
	KUNIT_EXPECT_EQ(test, rb_event_time_stamp(ext), far - 110);
	off = rb_kunit_page_event(test, bpage, off + RB_LEN_TIME_EXTEND, 0, 8, 3);
	KUNIT_EXPECT_EQ(test, off, commit);
	rest = (char *)bpage->data + commit;
	KUNIT_EXPECT_TRUE(test, !rest[0] &&
			  !memcmp(rest, rest + 1, len - BUF_PAGE_HDR_SIZE - commit - 1));

	/* Nothing more, and nothing consumed */
	KUNIT_EXPECT_EQ(test, rb_kunit_iter_page(iter, bpage, len, U64_MAX), 0);
	KUNIT_EXPECT_EQ(test, local_read(&bpage->commit), 0);
	rb_kunit_expect(test, 100, 16, 1);
	rb_kunit_expect(test, 110, 200, 2);
	rb_kunit_expect(test, far, 8, 3);
	rb_kunit_expect_empty(test);
}

/* Events after @end stay out; more events than a page go on the next */
static void rb_iter_page_end_and_split(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	size_t len = ring_buffer_subbuf_size_get(ctx->buffer);
	unsigned int per_page, n = 0, i, off, event_len;
	struct buffer_data_page *bpage;
	struct ring_buffer_iter *iter;
	int commit;

	bpage = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bpage);
	event_len = rb_calculate_event_length(16);
	per_page = (len - BUF_PAGE_HDR_SIZE) / event_len;
	for (i = 0; i < per_page + 10; i++)
		rb_kunit_write(test, 1000 + i, 16, i);
	rb_kunit_write(test, 5000, 16, 9999);
	iter = rb_kunit_iter(test);

	/* The first page is full, the second has the rest up to @end */
	KUNIT_ASSERT_EQ(test, rb_kunit_iter_page(iter, bpage, len, 4999),
			per_page * event_len);
	KUNIT_EXPECT_EQ(test, bpage->time_stamp, 1000);
	for (off = 0, i = 0; i < per_page; i++, n++)
		off = rb_kunit_page_event(test, bpage, off, i ? 1 : 0, 16, n);
	KUNIT_ASSERT_EQ(test, rb_kunit_iter_page(iter, bpage, len, 4999),
			10 * event_len);
	KUNIT_EXPECT_EQ(test, bpage->time_stamp, 1000 + per_page);
	for (off = 0, i = 0; i < 10; i++, n++)
		off = rb_kunit_page_event(test, bpage, off, i ? 1 : 0, 16, n);
	KUNIT_EXPECT_EQ(test, rb_kunit_iter_page(iter, bpage, len, 4999), 0);

	/* Too small for the header and an event */
	commit = ring_buffer_iter_read_page(iter, bpage, BUF_PAGE_HDR_SIZE + 4,
					    &rb_kunit_copied, U64_MAX);
	KUNIT_EXPECT_EQ(test, commit, -EINVAL);
	/* The one after @end is still there */
	KUNIT_EXPECT_EQ(test, rb_kunit_iter_page(iter, bpage, len, U64_MAX),
			event_len);
	KUNIT_EXPECT_EQ(test, bpage->time_stamp, 5000);
	KUNIT_EXPECT_EQ(test, ring_buffer_entries_cpu(ctx->buffer, ctx->cpu),
			per_page + 11);
}

/*
 * A consuming read meanwhile makes the iterator start over at the oldest
 * unread event: what was copied already is not copied again, and what
 * was consumed before the copy reached it is simply not there.
 */
static void rb_iter_page_after_a_consumer(struct kunit *test)
{
	unsigned int i, off, event_len = rb_calculate_event_length(16);
	size_t len = BUF_PAGE_HDR_SIZE + 4 * event_len;
	struct buffer_data_page *bpage;
	struct ring_buffer_iter *iter;

	bpage = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bpage);
	for (i = 0; i < 10; i++)
		rb_kunit_write(test, 100 + 10 * i, 16, i);
	iter = rb_kunit_iter(test);

	/* A page of four: 0 to 3 */
	KUNIT_ASSERT_EQ(test, rb_kunit_iter_page(iter, bpage, len, U64_MAX),
			4 * event_len);
	for (off = 0, i = 0; i < 4; i++)
		off = rb_kunit_page_event(test, bpage, off, i ? 10 : 0, 16, i);

	/* 0 to 5 consumed: the copy goes on with 6 */
	for (i = 0; i < 6; i++)
		rb_kunit_expect(test, 100 + 10 * i, 16, i);
	KUNIT_ASSERT_EQ(test, rb_kunit_iter_page(iter, bpage, len, U64_MAX),
			4 * event_len);
	KUNIT_EXPECT_EQ(test, bpage->time_stamp, 160);
	KUNIT_EXPECT_EQ(test, local_read(&bpage->commit), 4 * event_len);
	for (off = 0, i = 6; i < 10; i++)
		off = rb_kunit_page_event(test, bpage, off, i > 6 ? 10 : 0, 16, i);
	KUNIT_EXPECT_EQ(test, rb_kunit_iter_page(iter, bpage, len, U64_MAX), 0);
}

/*
 * An iterator started on an empty buffer, with the writer then starting
 * the page it stands on: nothing was lost, and no page says so.  Then,
 * the iterator at the end of the commit page, the writer appends: the
 * copy goes on with the new events, stamped as they were written.
 */
static void rb_iter_page_after_the_writer(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	size_t len = ring_buffer_subbuf_size_get(ctx->buffer);
	unsigned int i, off, event_len = rb_calculate_event_length(16);
	struct buffer_data_page *bpage;
	struct ring_buffer_iter *iter;

	bpage = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bpage);
	iter = rb_kunit_iter(test);
	KUNIT_EXPECT_EQ(test, rb_kunit_iter_page(iter, bpage, len, U64_MAX), 0);

	for (i = 0; i < 5; i++)
		rb_kunit_write(test, 100 + 10 * i, 16, i);
	KUNIT_ASSERT_EQ(test, rb_kunit_iter_page(iter, bpage, len, U64_MAX),
			5 * event_len);
	KUNIT_EXPECT_EQ(test, bpage->time_stamp, 100);
	KUNIT_EXPECT_EQ(test, local_read(&bpage->commit), 5 * event_len);
	for (off = 0, i = 0; i < 5; i++)
		off = rb_kunit_page_event(test, bpage, off, i ? 10 : 0, 16, i);

	/* More on the same page: the copy goes on after the last one */
	for (i = 5; i < 8; i++)
		rb_kunit_write(test, 100 + 10 * i, 16, i);
	KUNIT_ASSERT_EQ(test, rb_kunit_iter_page(iter, bpage, len, U64_MAX),
			3 * event_len);
	KUNIT_EXPECT_EQ(test, bpage->time_stamp, 150);
	KUNIT_EXPECT_EQ(test, local_read(&bpage->commit), 3 * event_len);
	for (off = 0, i = 5; i < 8; i++)
		off = rb_kunit_page_event(test, bpage, off, i > 5 ? 10 : 0, 16, i);
	KUNIT_EXPECT_EQ(test, rb_kunit_iter_page(iter, bpage, len, U64_MAX), 0);
}

static struct kunit_case rb_iter_page_cases[] = {
	KUNIT_CASE(rb_iter_page_copy),
	KUNIT_CASE(rb_iter_page_end_and_split),
	KUNIT_CASE(rb_iter_page_after_a_consumer),
	KUNIT_CASE(rb_iter_page_after_the_writer),
	{}
};

static struct kunit_suite rb_iter_page_suite = {
	.name		= "ring_buffer_iter_page",
	.init		= rb_kunit_init,
	.test_cases	= rb_iter_page_cases,
};

kunit_test_suite(rb_iter_page_suite);

/*
 * The iterators of a dump (ring_buffer_iter_alloc()): started without
 * waiting, holding off a resize only while started, and put on the last
 * events by sub-buffer counts.
 */
KUNIT_DEFINE_ACTION_WRAPPER(rb_kunit_iter_free, ring_buffer_iter_free,
			    struct ring_buffer_iter *);

static struct ring_buffer_iter *rb_kunit_dump_iter(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_iter *iter;

	iter = ring_buffer_iter_alloc(ctx->buffer, ctx->cpu, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, iter);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rb_kunit_iter_free,
							iter), 0);
	return iter;
}

/* Write @n events of 16 bytes, the first u32 of each @first, @first + 1, ... */
static void rb_kunit_write_n(struct kunit *test, u32 first, u32 n)
{
	struct rb_kunit_ctx *ctx = test->priv;
	u32 data[4] = { 0 }, i;

	for (i = 0; i < n; i++) {
		data[0] = first + i;
		rb_kunit_now += 10;
		KUNIT_ASSERT_EQ(test, ring_buffer_write(ctx->buffer, sizeof(data), data), 0);
	}
}

/* Start @iter, keep its last @nr events, and read their first u32s */
static unsigned long rb_kunit_dump_last(struct ring_buffer_iter *iter,
					unsigned long nr, u32 *vals,
					unsigned int max, unsigned int *got)
{
	struct ring_buffer_event *event;
	unsigned long left;
	int ret;

	*got = 0;
	scoped_guard(irqsave) {
		ret = ring_buffer_iter_start_nowait(iter);
		if (ret)
			return ret;
	}
	left = ring_buffer_iter_skip_to_last(iter, nr);
	while (*got < max && (event = ring_buffer_iter_peek(iter, NULL))) {
		vals[(*got)++] = *(u32 *)ring_buffer_event_data(event);
		ring_buffer_iter_advance(iter);
	}
	ring_buffer_iter_stop(iter);
	return left;
}

/* Events of 16 bytes in a sub-buffer of the test's buffer */
static unsigned int rb_kunit_per_page(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;

	return rb_subbuf_capacity(ctx->buffer) / rb_calculate_event_length(16);
}

static void rb_dump_skip_to_last(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	unsigned int per_page = rb_kunit_per_page(test);
	/* Three sub-buffers and about half of a fourth, none overwritten */
	unsigned int n = 3 * per_page + per_page / 2, on_last;
	struct ring_buffer_iter *iter;
	unsigned int got, i;
	u32 vals[16];

	KUNIT_ASSERT_EQ(test, ring_buffer_resize(ctx->buffer,
						 8 * rb_subbuf_capacity(ctx->buffer),
						 RING_BUFFER_ALL_CPUS), 0);
	rb_kunit_write_n(test, 0, n);
	KUNIT_ASSERT_EQ(test, ring_buffer_overrun_cpu(ctx->buffer, ctx->cpu), 0);
	/* The first event has a time extend: count the last sub-buffer's */
	on_last = rb_page_entries(ctx->buffer->buffers[ctx->cpu]->commit_page);
	KUNIT_ASSERT_GT(test, on_last, 1);
	KUNIT_ASSERT_LT(test, on_last, n / 3);
	iter = rb_kunit_dump_iter(test);

	KUNIT_EXPECT_EQ(test, rb_kunit_dump_last(iter, 10, vals, 16, &got), 10);
	KUNIT_ASSERT_EQ(test, got, 10);
	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ(test, vals[i], n - 10 + i);

	/* The last sub-buffer exactly, one event more, one, all of them */
	KUNIT_EXPECT_EQ(test, rb_kunit_dump_last(iter, on_last, vals, 16, &got), on_last);
	KUNIT_EXPECT_EQ(test, vals[0], n - on_last);
	KUNIT_EXPECT_EQ(test, rb_kunit_dump_last(iter, on_last + 1, vals, 16, &got),
			on_last + 1);
	KUNIT_EXPECT_EQ(test, vals[0], n - on_last - 1);
	KUNIT_EXPECT_EQ(test, rb_kunit_dump_last(iter, 1, vals, 16, &got), 1);
	KUNIT_ASSERT_EQ(test, got, 1);
	KUNIT_EXPECT_EQ(test, vals[0], n - 1);
	KUNIT_EXPECT_EQ(test, rb_kunit_dump_last(iter, n, vals, 16, &got), n);
	KUNIT_ASSERT_EQ(test, got, 16);
	KUNIT_EXPECT_EQ(test, vals[0], 0);
	/* Nothing was consumed */
	KUNIT_EXPECT_EQ(test, ring_buffer_entries_cpu(ctx->buffer, ctx->cpu), n);
}

/* A flight recorder: the buffer overwrote its oldest events many times */
static void rb_dump_skip_overwritten(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	unsigned int n = 20 * rb_kunit_per_page(test);
	struct ring_buffer_iter *iter;
	unsigned int got, i;
	u32 vals[16];

	rb_kunit_write_n(test, 0, n);
	KUNIT_ASSERT_GT(test, ring_buffer_overrun_cpu(ctx->buffer, ctx->cpu), 0);
	iter = rb_kunit_dump_iter(test);
	KUNIT_EXPECT_EQ(test, rb_kunit_dump_last(iter, 16, vals, 16, &got), 16);
	KUNIT_ASSERT_EQ(test, got, 16);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, vals[i], n - 16 + i);
}

/*
 * A consumer after the start: the skip starts at the new reader page;
 * one during the reads ends the iterator, and its stop says so
 */
static void rb_dump_consumer_meanwhile(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	unsigned int n = 2 * rb_kunit_per_page(test);
	struct ring_buffer_event *event;
	struct ring_buffer_iter *iter;
	unsigned long left;
	int ret;

	KUNIT_ASSERT_EQ(test, ring_buffer_resize(ctx->buffer,
						 8 * rb_subbuf_capacity(ctx->buffer),
						 RING_BUFFER_ALL_CPUS), 0);
	rb_kunit_write_n(test, 0, n);
	iter = rb_kunit_dump_iter(test);
	scoped_guard(irqsave)
		ret = ring_buffer_iter_start_nowait(iter);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_NOT_NULL(test, ring_buffer_consume(ctx->buffer, ctx->cpu, NULL, NULL));
	left = ring_buffer_iter_skip_to_last(iter, n);
	KUNIT_EXPECT_EQ(test, left, n - 1);
	event = ring_buffer_iter_peek(iter, NULL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_EXPECT_EQ(test, *(u32 *)ring_buffer_event_data(event), 1);
	KUNIT_EXPECT_EQ(test, ring_buffer_iter_stop(iter), 0);

	scoped_guard(irqsave)
		ret = ring_buffer_iter_start_nowait(iter);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, ring_buffer_iter_skip_to_last(iter, 4), 4);
	KUNIT_ASSERT_NOT_NULL(test, ring_buffer_consume(ctx->buffer, ctx->cpu, NULL, NULL));
	KUNIT_EXPECT_NULL(test, ring_buffer_iter_peek(iter, NULL));
	KUNIT_EXPECT_EQ(test, ring_buffer_iter_stop(iter), -ESTALE);
}

/*
 * Larger sub-buffers than the iterator was allocated for: refused, as
 * the iterator could not copy their events
 */
static void rb_dump_start_after_an_order_change(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_iter *iter;
	int ret;

	iter = rb_kunit_dump_iter(test);
	/* An allocated iterator does not hold the order either */
	KUNIT_ASSERT_EQ(test, ring_buffer_subbuf_order_set(ctx->buffer, 1), 0);
	scoped_guard(irqsave)
		ret = ring_buffer_iter_start_nowait(iter);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	/* Back to the size it knows */
	KUNIT_ASSERT_EQ(test, ring_buffer_subbuf_order_set(ctx->buffer, 0), 0);
	scoped_guard(irqsave)
		ret = ring_buffer_iter_start_nowait(iter);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (!ret)
		ring_buffer_iter_stop(iter);
}

/* After a consumer took some, and with fewer events than asked */
static void rb_dump_skip_after_a_consumer(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_iter *iter;
	unsigned int got, i;
	u32 vals[16];

	rb_kunit_write_n(test, 0, 8);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_NOT_NULL(test, ring_buffer_consume(ctx->buffer, ctx->cpu,
								NULL, NULL));
	iter = rb_kunit_dump_iter(test);
	KUNIT_EXPECT_EQ(test, rb_kunit_dump_last(iter, 10, vals, 16, &got), 5);
	KUNIT_ASSERT_EQ(test, got, 5);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, vals[i], 3 + i);
	KUNIT_EXPECT_EQ(test, rb_kunit_dump_last(iter, 2, vals, 16, &got), 2);
	KUNIT_ASSERT_EQ(test, got, 2);
	KUNIT_EXPECT_EQ(test, vals[0], 6);
	KUNIT_EXPECT_EQ(test, vals[1], 7);
}

/* A started iterator holds off a resize; an allocated one does not */
static void rb_dump_start_holds_resize(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_iter *iter;
	int ret;

	iter = rb_kunit_dump_iter(test);
	KUNIT_EXPECT_EQ(test, ring_buffer_resize(ctx->buffer, 8 * PAGE_SIZE,
						 RING_BUFFER_ALL_CPUS), 0);
	scoped_guard(irqsave)
		ret = ring_buffer_iter_start_nowait(iter);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, ring_buffer_resize(ctx->buffer, 4 * PAGE_SIZE,
						 RING_BUFFER_ALL_CPUS), -EBUSY);
	KUNIT_EXPECT_EQ(test, ring_buffer_subbuf_order_set(ctx->buffer, 1), -EBUSY);
	ring_buffer_iter_stop(iter);
	KUNIT_EXPECT_EQ(test, ring_buffer_resize(ctx->buffer, 4 * PAGE_SIZE,
						 RING_BUFFER_ALL_CPUS), 0);
}

/*
 * A buffer being resized is not waited for, and nothing stays held.  (A
 * held reader lock is lkst_dump's case: a failed trylock on a UP kernel
 * with DEBUG_SPINLOCK turns lock debugging off for the suites after it.)
 */
static void rb_dump_start_busy(struct kunit *test)
{
	struct rb_kunit_ctx *ctx = test->priv;
	struct ring_buffer_iter *iter;
	int ret;

	iter = rb_kunit_dump_iter(test);
	atomic_inc(&ctx->buffer->resizing);
	scoped_guard(irqsave)
		ret = ring_buffer_iter_start_nowait(iter);
	atomic_dec(&ctx->buffer->resizing);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	KUNIT_EXPECT_EQ(test, ring_buffer_resize(ctx->buffer, 8 * PAGE_SIZE,
						 RING_BUFFER_ALL_CPUS), 0);
}

static struct kunit_case rb_dump_iter_cases[] = {
	KUNIT_CASE(rb_dump_skip_to_last),
	KUNIT_CASE(rb_dump_skip_overwritten),
	KUNIT_CASE(rb_dump_consumer_meanwhile),
	KUNIT_CASE(rb_dump_skip_after_a_consumer),
	KUNIT_CASE(rb_dump_start_after_an_order_change),
	KUNIT_CASE(rb_dump_start_holds_resize),
	KUNIT_CASE(rb_dump_start_busy),
	{}
};

static struct kunit_suite rb_dump_iter_suite = {
	.name		= "ring_buffer_dump_iter",
	.init		= rb_kunit_init,
	.test_cases	= rb_dump_iter_cases,
};

kunit_test_suite(rb_dump_iter_suite);

/*
 * ring_buffer_range_cpu_lost() of a buffer allocated over memory that
 * held one: the "previous boot" is a buffer freed over the same range.
 */
/* The buffer's meta data, and a CPU's meta data and four sub-buffers */
#define RB_KUNIT_RANGE_SIZE	(PAGE_SIZE * (2 + 6 * nr_cpu_ids))

KUNIT_DEFINE_ACTION_WRAPPER(rb_kunit_vfree, vfree, const void *);

static struct trace_buffer *rb_kunit_range_alloc(struct kunit *test, void *mem)
{
	struct trace_buffer *buffer;

	buffer = ring_buffer_alloc_range(PAGE_SIZE * 8, RB_FL_OVERWRITE, 0,
					 (unsigned long)mem,
					 RB_KUNIT_RANGE_SIZE, 0);
	KUNIT_ASSERT_NOT_NULL(test, buffer);
	return buffer;
}

/*
 * Ten events into a buffer over @mem, started over as a boot that records
 * does, on one CPU, whose meta data is returned with the CPU; the buffer
 * is freed, its memory kept.
 */
static struct ring_buffer_cpu_meta *
rb_kunit_range_record(struct kunit *test, void *mem, int *cpu)
{
	struct ring_buffer_cpu_meta *meta;
	struct trace_buffer *buffer;
	int i, ret = 0;
	u32 val;

	buffer = rb_kunit_range_alloc(test, mem);
	ring_buffer_reset(buffer);
	migrate_disable();
	*cpu = raw_smp_processor_id();
	for (i = 0; i < 10 && !ret; i++) {
		val = i;
		ret = ring_buffer_write(buffer, sizeof(val), &val);
	}
	migrate_enable();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, ring_buffer_entries_cpu(buffer, *cpu), 10UL);
	meta = buffer->buffers[*cpu]->ring_meta;
	ring_buffer_free(buffer);
	return meta;
}

static void rb_range_lost_until_reset(struct kunit *test)
{
	struct ring_buffer_cpu_meta *meta;
	struct trace_buffer *buffer;
	void *mem;
	int cpu;

	mem = vzalloc(RB_KUNIT_RANGE_SIZE);
	if (!mem)
		kunit_skip(test, "no memory for %lu bytes", RB_KUNIT_RANGE_SIZE);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rb_kunit_vfree, mem), 0);

	/* Memory that never held a buffer has lost nothing */
	buffer = rb_kunit_range_alloc(test, mem);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_FALSE(test, ring_buffer_range_cpu_lost(buffer, cpu));
	ring_buffer_free(buffer);

	/* A valid previous buffer gives its events back, and lost nothing */
	rb_kunit_range_record(test, mem, &cpu);
	buffer = rb_kunit_range_alloc(test, mem);
	KUNIT_EXPECT_FALSE(test, ring_buffer_range_cpu_lost(buffer, cpu));
	KUNIT_EXPECT_EQ(test, ring_buffer_entries_cpu(buffer, cpu), 10UL);
	ring_buffer_free(buffer);

	/* Its head moved off a sub-buffer: the CPU lost its events ... */
	meta = rb_kunit_range_record(test, mem, &cpu);
	meta->head_buffer += 8;
	buffer = rb_kunit_range_alloc(test, mem);
	KUNIT_EXPECT_TRUE(test, ring_buffer_range_cpu_lost(buffer, cpu));
	KUNIT_EXPECT_EQ(test, ring_buffer_entries_cpu(buffer, cpu), 0UL);
	/* ... until the buffer starts over */
	ring_buffer_reset(buffer);
	KUNIT_EXPECT_FALSE(test, ring_buffer_range_cpu_lost(buffer, cpu));
	ring_buffer_free(buffer);

	/* The same, reset through ring_buffer_reset_cpu() */
	meta = rb_kunit_range_record(test, mem, &cpu);
	meta->head_buffer += 8;
	buffer = rb_kunit_range_alloc(test, mem);
	KUNIT_EXPECT_TRUE(test, ring_buffer_range_cpu_lost(buffer, cpu));
	ring_buffer_reset_cpu(buffer, cpu);
	KUNIT_EXPECT_FALSE(test, ring_buffer_range_cpu_lost(buffer, cpu));
	ring_buffer_free(buffer);
}

static struct kunit_case rb_range_cases[] = {
	KUNIT_CASE(rb_range_lost_until_reset),
	{}
};

static struct kunit_suite rb_range_suite = {
	.name		= "ring_buffer_range_lost",
	.test_cases	= rb_range_cases,
};

kunit_test_suite(rb_range_suite);

#endif /* CONFIG_RING_BUFFER_FAST_KUNIT_TEST */
