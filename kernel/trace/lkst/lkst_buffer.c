// SPDX-License-Identifier: GPL-2.0
/*
 * LKST event buffers: named wrappers around the tracing ring buffer
 * (kernel/trace/ring_buffer.c), which already is per-CPU, lockless,
 * resizable, has an overwrite (flight recorder) mode and handles CPU
 * hotplug.  What LKST adds is the accounting that makes every record a
 * handler tried to write show up somewhere, per CPU:
 *
 *	written = read + entries + overrun + lost
 *
 * written	records attempted while the buffer was on (ours)
 * lost		reserve failures: full in stop mode, resize in progress,
 *		nested too deep (ours)
 * read		records consumed by readers (ring_buffer_read_events_cpu)
 * entries	records still in the buffer (ring_buffer_entries_cpu)
 * overrun	records overwritten in flight-recorder mode or dropped by a
 *		shrinking resize (ring_buffer_overrun_cpu)
 *
 * The identity holds because ring_buffer_entries_cpu() is defined as
 * committed - (overrun + read), and every successful reserve is committed.
 * written could be computed from the others; it is counted instead, for
 * three instructions a record, so that the identity checks the ring
 * buffer's counters rather than defining them.
 *
 * Lifetime: a buffer is on lkst_buffers while it can be named; table
 * entries pin it (->users, -EBUSY on removal); open files and
 * lkst_buffer_get() callers hold the kref, so the ring buffer is freed
 * only after the last reader is gone.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/hardirq.h>
#include <asm/local.h>
#include <linux/percpu.h>
#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/tracepoint.h>

#include "lkst_internal.h"

static LIST_HEAD(lkst_buffers);
static unsigned int lkst_nr_user_buffers;
static struct lkst_buffer *lkst_default_buf;

/**
 * lkst_record - write one record into an LKST buffer
 * @buf:	the buffer, e.g. the one a handler was called with
 * @event:	event ID
 * @handler:	ID of the handler writing the record
 * @pid:	pid to record
 * @args:	LKST_NR_ARGS arguments
 *
 * The record is timestamped by the ring buffer and written to the buffer
 * of the current CPU.  Failures are counted in the buffer's per-CPU
 * statistics, so callers usually ignore the return value.
 *
 * Context: any, including NMI.  Does not sleep.
 * Return: 0; -EAGAIN if the buffer is off (tracing_on is 0); -ENOBUFS if
 * the record was lost (counted as lost).
 */
int lkst_record(struct lkst_buffer *buf, unsigned int event, u8 handler,
		pid_t pid, const u64 *args)
{
	int ret;

	/* lkst_buffer_clear() waits for this preempt-disabled section. */
	preempt_disable_notrace();
	ret = __lkst_record(buf, event, handler, pid, args);
	preempt_enable_notrace();
	return ret;
}
EXPORT_SYMBOL_GPL(lkst_record);

/**
 * lkst_buffer_default - the default buffer
 *
 * It always exists and is never freed, so no reference is needed.
 *
 * Return: the buffer named "default", whose files are in lkst/.
 */
struct lkst_buffer *lkst_buffer_default(void)
{
	return lkst_default_buf;
}
EXPORT_SYMBOL_GPL(lkst_buffer_default);

struct lkst_buffer *__lkst_buffer_lookup(const char *name)
{
	struct lkst_buffer *buf;

	lockdep_assert_held(&lkst_mutex);
	list_for_each_entry(buf, &lkst_buffers, list)
		if (!strcmp(buf->name, name))
			return buf;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_buffer_lookup);

/**
 * lkst_buffer_get - look up a buffer by name and take a reference
 * @name: buffer name ("default" for the default buffer)
 *
 * The reference keeps the buffer's memory alive (it can still be removed
 * from lkst/user_buffers, after which records go nowhere visible).
 *
 * Context: process context; takes lkst_mutex.
 * Return: the buffer, or NULL.
 */
struct lkst_buffer *lkst_buffer_get(const char *name)
{
	struct lkst_buffer *buf;

	guard(mutex)(&lkst_mutex);
	buf = __lkst_buffer_lookup(name);
	if (buf)
		kref_get(&buf->kref);
	return buf;
}
EXPORT_SYMBOL_GPL(lkst_buffer_get);

static void lkst_buffer_release(struct kref *kref)
{
	struct lkst_buffer *buf = container_of(kref, struct lkst_buffer, kref);

	ring_buffer_free(buf->rb);
	free_percpu(buf->cpu);
	kfree(buf);
}

/**
 * lkst_buffer_put - drop a reference taken by lkst_buffer_get()
 * @buf: the buffer, or NULL
 *
 * Context: process context (the last put frees the ring buffer).
 */
void lkst_buffer_put(struct lkst_buffer *buf)
{
	if (buf)
		kref_put(&buf->kref, lkst_buffer_release);
}
EXPORT_SYMBOL_GPL(lkst_buffer_put);

const char *lkst_buffer_name(const struct lkst_buffer *buf)
{
	return buf->name;
}

struct trace_buffer *lkst_buffer_rb(struct lkst_buffer *buf)
{
	return buf->rb;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_buffer_rb);

void __lkst_buffer_pin(struct lkst_buffer *buf)
{
	lockdep_assert_held(&lkst_mutex);
	buf->users++;
}

void __lkst_buffer_unpin(struct lkst_buffer *buf)
{
	lockdep_assert_held(&lkst_mutex);
	buf->users--;
}

/* A buffer around @rb, which it frees with the last reference; on, overwrite */
static struct lkst_buffer *lkst_buffer_new(const char *name,
					   struct trace_buffer *rb,
					   unsigned long size_kb)
{
	struct lkst_buffer *buf;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL_ACCOUNT);
	if (!buf)
		return NULL;
	buf->cpu = alloc_percpu(struct lkst_buffer_cpu);
	if (!buf->cpu) {
		kfree(buf);
		return NULL;
	}
	buf->rb = rb;
	strscpy(buf->name, name);
	kref_init(&buf->kref);
	mutex_init(&buf->resize_lock);
	buf->size_kb = size_kb;
	buf->overwrite = true;
	buf->on = true;
	return buf;
}

/**
 * lkst_buffer_wrap - a read-only buffer around another boot's records
 * @name: its name (it is not on the list of buffers masksets name)
 * @rb: the ring buffer, owned by the buffer from now on if this succeeds
 *
 * Return: the buffer, off, or NULL.
 */
struct lkst_buffer *lkst_buffer_wrap(const char *name, struct trace_buffer *rb)
{
	struct lkst_buffer *buf;

	buf = lkst_buffer_new(name, rb, ring_buffer_size(rb, 0) >> 10);
	if (buf) {
		buf->on = false;
		buf->last_boot = true;
	}
	return buf;
}

/**
 * __lkst_buffer_create - create a buffer (its files are made separately)
 * @name: its name
 * @size_kb: per-CPU size in KiB
 *
 * Return: the buffer or ERR_PTR(): -EINVAL bad name or size, -EEXIST,
 * -ENOSPC too many user buffers, -ENOMEM.
 */
struct lkst_buffer *__lkst_buffer_create(const char *name, unsigned long size_kb)
{
	struct trace_buffer *rb;
	struct lkst_buffer *buf;

	lockdep_assert_held(&lkst_mutex);
	if (!lkst_name_valid(name) || size_kb < LKST_BUF_MIN_KB ||
	    size_kb > LKST_BUF_MAX_KB)
		return ERR_PTR(-EINVAL);
	if (__lkst_buffer_lookup(name))
		return ERR_PTR(-EEXIST);
	if (lkst_default_buf && lkst_nr_user_buffers >= LKST_MAX_USER_BUFFERS)
		return ERR_PTR(-ENOSPC);

	rb = ring_buffer_alloc(size_kb << 10, RB_FL_OVERWRITE);
	if (!rb)
		return ERR_PTR(-ENOMEM);
	buf = lkst_buffer_new(name, rb, size_kb);
	if (!buf) {
		ring_buffer_free(rb);
		return ERR_PTR(-ENOMEM);
	}
	if (lkst_default_buf)
		lkst_nr_user_buffers++;
	list_add_tail(&buf->list, &lkst_buffers);
	__lkst_vmcore_update();
	return buf;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_buffer_create);

/**
 * __lkst_buffer_remove - remove a user buffer
 * @buf: the buffer
 *
 * Blocked readers are woken and see end of file; the memory goes with the
 * last open file.
 *
 * Return: 0; -EPERM for the default buffer; -EBUSY while a maskset
 * routes events to it.
 */
int __lkst_buffer_remove(struct lkst_buffer *buf)
{
	lockdep_assert_held(&lkst_mutex);
	if (buf == lkst_default_buf)
		return -EPERM;
	if (buf->users)
		return -EBUSY;
	list_del(&buf->list);
	/* Out of the vmcore's description before its memory can go */
	__lkst_vmcore_update();
	lkst_nr_user_buffers--;
	WRITE_ONCE(buf->removed, true);
	tracefs_remove(buf->dir);
	ring_buffer_wake_waiters(buf->rb, RING_BUFFER_ALL_CPUS);
	lkst_buffer_put(buf);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_buffer_remove);

/**
 * lkst_buffer_stats - the per-CPU accounting of a buffer
 * @buf: the buffer
 * @cpu: the CPU
 * @st: filled in; see the comment at the top of this file
 *
 * Exact only while nobody writes to @cpu's buffer, as any snapshot is.
 */
void lkst_buffer_stats(struct lkst_buffer *buf, int cpu,
		       struct lkst_buffer_stats *st)
{
	struct lkst_buffer_cpu *c = per_cpu_ptr(buf->cpu, cpu);

	st->entries = ring_buffer_entries_cpu(buf->rb, cpu);
	st->overrun = ring_buffer_overrun_cpu(buf->rb, cpu);
	st->read = ring_buffer_read_events_cpu(buf->rb, cpu);
	st->bytes = ring_buffer_bytes_cpu(buf->rb, cpu);
	st->lost = local_read(&c->lost);
	st->written = local_read(&c->written);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_buffer_stats);

/**
 * lkst_buffer_clear - drop all records and zero the statistics
 * @buf: the buffer
 *
 * Writers are kept out while the ring buffer and the counters are reset
 * together, so the accounting identity still holds afterwards.
 *
 * Context: process context; takes lkst_mutex.
 * Return: 0; -ENODEV if @buf was removed.
 */
int lkst_buffer_clear(struct lkst_buffer *buf)
{
	bool on;
	int cpu;

	guard(mutex)(&lkst_mutex);
	if (buf->removed)
		return -ENODEV;
	on = buf->on;
	WRITE_ONCE(buf->on, false);
	/* Wait for lkst_record() callers, which run with preemption off. */
	tracepoint_synchronize_unregister();
	ring_buffer_reset(buf->rb);
	for_each_possible_cpu(cpu) {
		struct lkst_buffer_cpu *c = per_cpu_ptr(buf->cpu, cpu);

		local_set(&c->written, 0);
		local_set(&c->lost, 0);
	}
	WRITE_ONCE(buf->on, on);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_buffer_clear);

/**
 * lkst_buffer_resize - change the per-CPU size, also while recording
 * @buf: the buffer
 * @size_kb: new per-CPU size in KiB
 *
 * Records dropped by shrinking count as overrun; records attempted while
 * the ring buffer is being resized count as lost.
 *
 * Return: 0; -EINVAL if @size_kb is outside the bounds; -EPERM for a
 * persistent buffer (its size is set by reserve_mem=); -EBUSY while
 * the buffer's trace file is open (its iterators pin the pages); -ENODEV
 * if @buf was removed; -ENOMEM.
 */
int lkst_buffer_resize(struct lkst_buffer *buf, unsigned long size_kb)
{
	int ret;

	if (size_kb < LKST_BUF_MIN_KB || size_kb > LKST_BUF_MAX_KB)
		return -EINVAL;
	/* Its memory is what reserve_mem= set aside */
	if (buf->persistent)
		return -EPERM;
	/*
	 * A removed buffer's ring buffer lives as long as the caller's
	 * reference; a large resize may take seconds, and must not keep
	 * lkst_mutex from the other files meanwhile.
	 */
	scoped_guard(mutex, &lkst_mutex) {
		if (buf->removed)
			return -ENODEV;
	}
	guard(mutex)(&buf->resize_lock);
	/* The dump's iterators would make the resize fail with -EBUSY. */
	if (buf == lkst_default_buf)
		lkst_dump_suspend();
	ret = ring_buffer_resize(buf->rb, size_kb << 10, RING_BUFFER_ALL_CPUS);
	if (!ret)
		WRITE_ONCE(buf->size_kb, size_kb);
	if (buf == lkst_default_buf)
		lkst_dump_resume();
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_buffer_resize);

/* 1: overwrite the oldest records (flight recorder); 0: stop when full */
int lkst_buffer_set_overwrite(struct lkst_buffer *buf, bool on)
{
	guard(mutex)(&lkst_mutex);
	if (buf->removed)
		return -ENODEV;
	ring_buffer_change_overwrite(buf->rb, on);
	buf->overwrite = on;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_buffer_set_overwrite);

/* Pause or resume recording; records attempted while off are not counted. */
int lkst_buffer_set_on(struct lkst_buffer *buf, bool on)
{
	/* Under the mutex so that lkst_buffer_clear() restores the new value */
	guard(mutex)(&lkst_mutex);
	if (buf->removed)
		return -ENODEV;
	WRITE_ONCE(buf->on, on);
	/* Readers of an empty buffer that is off read end of file. */
	ring_buffer_wake_waiters(buf->rb, RING_BUFFER_ALL_CPUS);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_buffer_set_on);

/* Make blocked readers of raw check again whether to read end of file. */
void lkst_buffers_wake_readers(void)
{
	struct lkst_buffer *buf;

	lockdep_assert_held(&lkst_mutex);
	list_for_each_entry(buf, &lkst_buffers, list)
		ring_buffer_wake_waiters(buf->rb, RING_BUFFER_ALL_CPUS);
}

struct list_head *__lkst_buffers_list(void)
{
	lockdep_assert_held(&lkst_mutex);
	return &lkst_buffers;
}

unsigned int lkst_user_buffers_count(void)
{
	lockdep_assert_held(&lkst_mutex);
	return lkst_nr_user_buffers;
}

/* user_buffers */
void lkst_user_buffers_print(struct seq_buf *s)
{
	struct lkst_buffer *buf;

	lockdep_assert_held(&lkst_mutex);
	list_for_each_entry(buf, &lkst_buffers, list)
		if (buf != lkst_default_buf)
			seq_buf_printf(s, "%s\n", buf->name);
}

/* "> user_buffers" removes all user buffers, or none if one is in use. */
int __lkst_user_buffers_clear(void)
{
	struct lkst_buffer *buf, *tmp;

	lockdep_assert_held(&lkst_mutex);
	list_for_each_entry(buf, &lkst_buffers, list)
		if (buf != lkst_default_buf && buf->users)
			return -EBUSY;
	list_for_each_entry_safe(buf, tmp, &lkst_buffers, list)
		if (buf != lkst_default_buf)
			__lkst_buffer_remove(buf);
	return 0;
}

int __init lkst_buffers_init(void)
{
	struct lkst_buffer *buf;
	struct trace_buffer *rb;
	unsigned long size_kb;

	guard(mutex)(&lkst_mutex);
	rb = lkst_persist_init(&size_kb);
	if (!rb) {
		buf = __lkst_buffer_create(LKST_DEFAULT_BUFFER, LKST_BUF_DEFAULT_KB);
		if (IS_ERR(buf))
			return PTR_ERR(buf);
		lkst_default_buf = buf;
		return 0;
	}
	buf = lkst_buffer_new(LKST_DEFAULT_BUFFER, rb, size_kb);
	if (!buf)
		return -ENOMEM;
	buf->persistent = true;
	list_add_tail(&buf->list, &lkst_buffers);
	__lkst_vmcore_update();
	lkst_default_buf = buf;
	return 0;
}
