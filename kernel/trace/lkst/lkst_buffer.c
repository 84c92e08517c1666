// SPDX-License-Identifier: GPL-2.0
/*
 * LKST event buffers are trace instances: the default buffer is
 * instances/lkst, user buffer NAME is instances/lkst.NAME.  Their ring
 * buffer (per-CPU, lockless, resizable, an overwrite mode, CPU hotplug),
 * their size, options/overwrite, tracing_on, trace (O_TRUNC clears it),
 * per-CPU files, stats (overrun, dropped events, read events, ...) and
 * pid lists are ftrace's.  LKST creates the instances and holds a
 * reference to them, so that rmdir gives -EBUSY while LKST uses them, and
 * adds the name masksets route to.
 *
 * Lifetime: a buffer is on lkst_buffers while it can be named; table
 * entries pin it (->users, -EBUSY on removal); open files and
 * lkst_buffer_get() callers hold the kref, so the ring buffer is freed
 * only after the last reader is gone.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/hardirq.h>
#include <linux/percpu.h>
#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/tracepoint.h>

#include "../trace.h"
#include "lkst_internal.h"

#define LKST_INSTANCE_NAME_MAX	(sizeof("lkst.") + LKST_NAME_MAX)

static LIST_HEAD(lkst_buffers);
static unsigned int lkst_nr_user_buffers;
static struct lkst_buffer *lkst_default_buf;

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

/* The instance goes with LKST's reference, unless a user holds a file. */
static void lkst_instance_release(struct trace_array *tr)
{
	char name[LKST_INSTANCE_NAME_MAX];

	/* tr is ftrace's once released */
	strscpy(name, tr->name);
	if (trace_array_destroy_pinned(tr))
		pr_info("instance %s is in use: it stays, unpinned\n", name);
}

static void lkst_buffer_release(struct kref *kref)
{
	struct lkst_buffer *buf = container_of(kref, struct lkst_buffer, kref);

	if (buf->tr)
		lkst_instance_release(buf->tr);
	else if (buf->rb)
		ring_buffer_free(buf->rb);
	free_percpu(buf->refused);
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

/*
 * The ring buffer records go to: the instance's (its snapshot, which
 * would swap it, is refused, as LKST pins the instance).
 */
struct trace_buffer *lkst_buffer_rb(struct lkst_buffer *buf)
{
	return buf->tr ? READ_ONCE(buf->tr->array_buffer.buffer) : buf->rb;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_buffer_rb);

/* The instance's tracing_on; last_boot/ is always off */
bool lkst_buffer_is_on(struct lkst_buffer *buf)
{
	return !buf->last_boot && !READ_ONCE(buf->tr->buffer_disabled);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_buffer_is_on);

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

/* A buffer around @tr or @rb, which goes with its last reference */
static struct lkst_buffer *lkst_buffer_new(const char *name,
					   struct trace_array *tr,
					   struct trace_buffer *rb)
{
	struct lkst_buffer *buf;

	buf = kzalloc_obj(*buf, GFP_KERNEL_ACCOUNT);
	if (!buf)
		return NULL;
	buf->refused = alloc_percpu_gfp(local_t, GFP_KERNEL_ACCOUNT);
	if (!buf->refused) {
		kfree(buf);
		return NULL;
	}
	buf->tr = tr;
	buf->rb = rb;
	strscpy(buf->name, name);
	kref_init(&buf->kref);
	return buf;
}

/*
 * A new instance is a flight recorder whatever the top level's options
 * are; the rest of its options are the top level's, as for mkdir.
 */
/* "lkst" for the default buffer, "lkst.NAME" for user buffer NAME */
static void lkst_instance_name(char *iname, const char *name)
{
	if (strcmp(name, LKST_DEFAULT_BUFFER))
		snprintf(iname, LKST_INSTANCE_NAME_MAX, "lkst.%s", name);
	else
		strscpy(iname, "lkst", LKST_INSTANCE_NAME_MAX);
}

/* Would creating buffer @name fail for an instance a user made? */
bool lkst_instance_exists(const char *name)
{
	char iname[LKST_INSTANCE_NAME_MAX];

	lkst_instance_name(iname, name);
	guard(mutex)(&trace_types_lock);
	return trace_array_find(iname);
}

struct trace_array *lkst_instance_create(const char *name, unsigned long size,
					 unsigned long start, unsigned long range)
{
	char iname[LKST_INSTANCE_NAME_MAX];
	struct trace_array *tr;

	lkst_instance_name(iname, name);
	tr = trace_array_create_pinned(iname, size, start, range);
	if (IS_ERR(tr))
		return tr;
	scoped_guard(mutex, &trace_types_lock)
		set_tracer_flag(tr, TRACE_ITER(OVERWRITE), 1);
	return tr;
}

/**
 * lkst_buffer_wrap - a read-only buffer around another boot's records
 * @name: its name (it is not on the list of buffers masksets name)
 * @tr: the instance that holds them, pinned, or NULL for @rb
 * @rb: a ring buffer of no instance, or NULL for @tr
 *
 * The buffer owns @tr or @rb from now on, if this succeeds.
 *
 * Return: the buffer, off, or NULL.
 */
struct lkst_buffer *lkst_buffer_wrap(const char *name, struct trace_array *tr,
				     struct trace_buffer *rb)
{
	struct lkst_buffer *buf;

	buf = lkst_buffer_new(name, tr, rb);
	if (buf)
		buf->last_boot = true;
	return buf;
}

/**
 * __lkst_buffer_create - create a buffer (its files are made separately)
 * @name: its name
 * @size_kb: per-CPU size in KiB
 *
 * The buffer is the trace instance lkst.NAME ("lkst" for the default
 * buffer), which must not exist yet.
 *
 * Return: the buffer or ERR_PTR(): -EINVAL bad name, -EEXIST
 * (also for an instance of that name that a user made), -ENOSPC too many
 * user buffers, -ENOMEM.
 */
struct lkst_buffer *__lkst_buffer_create(const char *name, unsigned long size_kb)
{
	struct trace_array *tr;
	struct lkst_buffer *buf;

	lockdep_assert_held(&lkst_mutex);
	if (!lkst_name_valid(name))
		return ERR_PTR(-EINVAL);
	if (__lkst_buffer_lookup(name))
		return ERR_PTR(-EEXIST);
	if (lkst_default_buf && lkst_nr_user_buffers >= LKST_MAX_USER_BUFFERS)
		return ERR_PTR(-ENOSPC);

	tr = lkst_instance_create(name, size_kb << 10, 0, 0);
	if (IS_ERR(tr))
		return ERR_CAST(tr);
	buf = lkst_buffer_new(name, tr, NULL);
	if (!buf) {
		lkst_instance_release(tr);
		return ERR_PTR(-ENOMEM);
	}
	if (lkst_default_buf)
		lkst_nr_user_buffers++;
	list_add_tail(&buf->list, &lkst_buffers);
	return buf;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_buffer_create);

/**
 * __lkst_buffer_remove - remove a user buffer
 * @buf: the buffer
 *
 * Blocked readers are woken and see end of file; the memory goes with the
 * last reference, which may be the list's, dropped here.  A caller that
 * describes the buffers elsewhere (the vmcore's description) holds a
 * reference of its own across the call and the update.
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
	lkst_nr_user_buffers--;
	WRITE_ONCE(buf->removed, true);
	tracefs_remove(buf->dir);
	ring_buffer_wake_waiters(lkst_buffer_rb(buf), RING_BUFFER_ALL_CPUS);
	lkst_buffer_put(buf);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_buffer_remove);

/**
 * __lkst_buffers_clear - drop the records of every buffer
 *
 * Records of a dynamic event that was removed carry a type that ftrace
 * gives to the next event it registers, whose output would misread them:
 * ftrace clears its buffers for the same reason (clear_trace).  LKST's
 * instances have no snapshot buffer to clear: they refuse one.
 *
 * Context: process context, under lkst_mutex.
 */
void __lkst_buffers_clear(void)
{
	struct lkst_buffer *buf;

	lockdep_assert_held(&lkst_mutex);
	list_for_each_entry(buf, &lkst_buffers, list)
		ring_buffer_record_disable(buf->tr->array_buffer.buffer);
	/* Wait for the writers that reserved before. */
	lkst_synchronize_readers();
	list_for_each_entry(buf, &lkst_buffers, list) {
		ring_buffer_reset(buf->tr->array_buffer.buffer);
		ring_buffer_record_enable(buf->tr->array_buffer.buffer);
	}
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_buffers_clear);

/* per_cpu/cpuN/refused: see struct lkst_buffer */
unsigned long lkst_buffer_refused(struct lkst_buffer *buf, int cpu)
{
	return local_read(per_cpu_ptr(buf->refused, cpu));
}
EXPORT_SYMBOL_IF_KUNIT(lkst_buffer_refused);

/* Make blocked readers of raw check again whether to read end of file. */
void lkst_buffers_wake_readers(void)
{
	struct lkst_buffer *buf;

	lockdep_assert_held(&lkst_mutex);
	list_for_each_entry(buf, &lkst_buffers, list)
		ring_buffer_wake_waiters(lkst_buffer_rb(buf), RING_BUFFER_ALL_CPUS);
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

/* The default buffer's wrapper, before it has an instance */
struct lkst_buffer *__init lkst_buffer_default_alloc(void)
{
	return lkst_buffer_new(LKST_DEFAULT_BUFFER, NULL, NULL);
}

/**
 * __lkst_buffer_default_init - make @buf the default buffer
 * @buf: from lkst_buffer_default_alloc(); freed on failure
 * @tr: the instance to record into, pinned (the boot instance in the
 *	reserved memory), or NULL for a new instance of the default size
 *
 * Return: 0 or the -errno of __lkst_buffer_create().
 */
int __init __lkst_buffer_default_init(struct lkst_buffer *buf,
				      struct trace_array *tr)
{
	lockdep_assert_held(&lkst_mutex);
	if (tr) {
		buf->tr = tr;
		list_add_tail(&buf->list, &lkst_buffers);
	} else {
		lkst_buffer_put(buf);
		buf = __lkst_buffer_create(LKST_DEFAULT_BUFFER,
					   LKST_BUF_DEFAULT_KB);
		if (IS_ERR(buf))
			return PTR_ERR(buf);
	}
	lkst_default_buf = buf;
	return 0;
}
