/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LKST's data path: what a probe does for an event, inlined into every
 * probe.  Layer 1 of kernel/trace/lkst (see lkst_internal.h): it uses
 * ftrace's ring buffer and lkst_dispatch.c, and nothing above.
 *
 *   tracepoint (or a kprobe event's hit, lkst_dynevent.c)
 *     |
 *     v
 *   lkst_probe_*() (lkst_events.c)          reads the tracepoint's arguments
 *     |
 *     v
 *   __lkst_dispatch()                       preemption off
 *     |  t = rcu_dereference_sched(lkst_cur_table)
 *     v
 *   __lkst_dispatch_table(t, event, ...)    e = &t->ent[event]
 *     |
 *     +-- e->handler == NULL or NOTHING:    return
 *     |
 *     +-- DEFAULT:  __lkst_record4(e->buf, ...)
 *     |               lkst_ignore_pid(e->buf->tr)  the instance's pid lists
 *     |               ring_buffer_reserve_fast()   on e->buf->tr's buffer
 *     |               lkst_record_head() + 4 arguments, in place
 *     |               ring_buffer_commit_fast()
 *     |
 *     +-- extended: lkst_call_handler(h, e->buf, ...)  out of line
 *                     h->func(h, buf, event, pid, args)  a module's
 *                       lkst_record(), lkst_maskset_switch(), lkst_notify()
 *
 * The table is immutable once published: the masksets (layer 4) replace
 * it with rcu_assign_pointer() and free the old one after
 * lkst_synchronize_readers().
 */
#ifndef _LKST_RECORD_H
#define _LKST_RECORD_H

#include <linux/bitmap.h>
#include <linux/hardirq.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/lkst.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <asm/local.h>

#include "../trace.h"

#define LKST_NAME_MAX		32	/* including the NUL */
#define LKST_NR_IDS		(LKST_EV_DYN_LAST + 1)	/* fixed and dynamic */

struct dentry;

/*
 * An LKST buffer is a trace instance: "lkst" for the default buffer,
 * "lkst.NAME" for user buffer NAME.  Its ring buffer, size, overwrite
 * mode, tracing_on and statistics are the instance's; LKST adds the name
 * masksets use, the pinning by masksets and open files, and the count of
 * the records the ring buffer refused (@refused: the dropped events and
 * commit overruns its stats count too, and the refusals nothing else
 * counts, such as a resize or a reset under way, the recursion guard, a
 * CPU out of tracing_cpumask).  The buffer
 * of lkst/last_boot/ is read only: the instance "lkst_last_boot" in the
 * previous boot's memory or, with no records of it to show, an empty
 * ring buffer of no instance (@tr NULL, @rb set).
 */
struct lkst_buffer {
	struct list_head	list;		/* on lkst_buffers */
	char			name[LKST_NAME_MAX];
	struct trace_array	*tr;		/* the instance, pinned */
	struct trace_buffer	*rb;		/* an empty last_boot only */
	local_t __percpu	*refused;	/* never reset */
	struct kref		kref;		/* open files, lkst_buffer_get() */
	unsigned int		users;		/* table entries, under lkst_mutex */
	bool			removed;	/* set under lkst_mutex */
	bool			last_boot;	/* lkst/last_boot/: read only */
	struct dentry		*dir;		/* buffers/NAME, NULL for default */
};

/*
 * ftrace's type of each LKST event, by LKST ID: the common_type of its
 * records (lkst_tevent.c).  0 while the event is not registered.
 */
extern u16 lkst_event_type[LKST_NR_IDS];

/*
 * common_flags of a record, the context bits ftrace's tracing_gen_ctx_dec()
 * sets from whether interrupts are off (@irqs_off) and preempt_count() (@pc):
 * interrupts off, NMI, hard interrupt, softirq, bottom halves off.  Not
 * recorded, to keep the record within its cost: the need-resched bits, and
 * the preempt and migrate-disable depths (common_preempt_count is 0).
 * Task context, the common case, is one test.
 */
static __always_inline u8 lkst_trace_ctx(unsigned long pc, bool irqs_off)
{
	u8 flags = irqs_off ? TRACE_FLAG_IRQS_OFF : 0;

	if (likely(!(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK))))
		return flags;
	if (pc & NMI_MASK)
		flags |= TRACE_FLAG_NMI;
	if (pc & HARDIRQ_MASK)
		flags |= TRACE_FLAG_HARDIRQ;
	if (pc & SOFTIRQ_OFFSET)
		flags |= TRACE_FLAG_SOFTIRQ;
	if ((pc & SOFTIRQ_MASK) >> (SOFTIRQ_SHIFT + 1))
		flags |= TRACE_FLAG_BH_OFF;
	return flags;
}

/*
 * lkst_record() without the preempt_disable(), inlined into the probes,
 * which already run with preemption disabled.  The record is reserved in
 * the ring buffer and filled in place, as ftrace's events are: no copy on
 * the stack, no memcpy().  A record is a small event, which the ring
 * buffer's fast path (ring_buffer_reserve_fast()) writes whenever it does
 * not start or end a sub-buffer or interrupt another write.  See
 * lkst_record() for the return values.
 */
static_assert(sizeof(struct lkst_record) == 48);
static_assert(offsetof(struct lkst_record, event) == 8);
static_assert(offsetof(struct lkst_record, arg) == 16);

/*
 * The first 16 bytes of a record: ftrace's common fields, then event,
 * handler and the reserved bytes.  Two stores where the byte order
 * allows, the second a constant in the probes.
 */
static __always_inline void lkst_record_head(struct lkst_record *rec, u16 type,
					     u8 ctx, pid_t pid, u16 event,
					     u8 handler)
{
#ifdef __LITTLE_ENDIAN
	u64 *w = (u64 *)rec;

	w[0] = type | (u64)ctx << 16 | (u64)(u32)pid << 32;
	w[1] = event | (u64)handler << 16;
#else
	rec->type = type;
	rec->flags = ctx;
	rec->preempt_count = 0;
	rec->pid = pid;
	rec->event = event;
	rec->handler = handler;
	rec->__reserved = 0;
	rec->__pad = 0;
#endif
}

/*
 * The pid argument of __lkst_record4_ctx() and __lkst_dispatch_table()
 * for the task the probe runs in: current's pid, read after the reserve,
 * so that it is not kept across the call (no task has pid -1).
 */
#define LKST_PID_CURRENT	(-1)

/*
 * Is the record one of a task that the buffer's instance keeps out, by
 * its set_event_notrace_pid or set_event_pid?  ftrace keeps the answer
 * for the task on the CPU in the instance's per-CPU ignore_pid, which its
 * probes on sched_switch and the wakeups update (trace_events.c).  As in
 * trace_event_ignore_this_pid(), a list must exist too: a probe that ran
 * on while __ftrace_clear_event_pids() reset the flags may have set one
 * again.  LKST applies it in task context only (@pc is the preempt count
 * of the context the record is about): interrupts, softirqs and NMIs that
 * hit a listed task are recorded, as they are not its doing.  ftrace's
 * rule for switches and wakeups holds: one is recorded unless both tasks
 * are kept out, so that a state chart shows when a listed task leaves the
 * CPU and comes back.
 */
static __always_inline bool lkst_ignore_pid(struct trace_array *tr,
					    unsigned long pc)
{
	if (likely(!this_cpu_read(tr->array_buffer.data->ignore_pid)))
		return false;
	if (!rcu_access_pointer(tr->filtered_pids) &&
	    !rcu_access_pointer(tr->filtered_no_pids))
		return false;
	return !(pc & (NMI_MASK | HARDIRQ_MASK)) && !in_serving_softirq();
}

/*
 * @pc_sub: what to take off preempt_count() for the context of the code
 * the event is about (a kprobe's int3 handler runs as an NMI); the
 * context is read after the reserve, so that it is not kept across it.
 * @irqs_off: whether that code runs with interrupts off.
 */
static __always_inline int __lkst_record4_ctx(struct lkst_buffer *buf,
					      unsigned int event, u8 handler,
					      pid_t pid, u64 a0, u64 a1,
					      u64 a2, u64 a3,
					      unsigned long pc_sub,
					      bool irqs_off)
{
	struct trace_array *tr = buf->tr;
	struct ring_buffer_event *ev;
	struct lkst_record *rec;
	struct trace_buffer *rb;

	if (lkst_ignore_pid(tr, preempt_count() - pc_sub))
		return -EAGAIN;
	/* Read each time: it is the instance's, which its files change. */
	rb = READ_ONCE(tr->array_buffer.buffer);
	ev = ring_buffer_reserve_fast(rb, sizeof(struct lkst_record));
	if (unlikely(!ev)) {
		/*
		 * -EAGAIN: tracing_on is 0, not counted.  -ENOBUFS, counted
		 * as refused: full in stop mode or a nested writer's
		 * reservation reached (a dropped event or a commit overrun in
		 * the instance's stats too), a resize or a reset under way,
		 * nested too deep, a CPU out of tracing_cpumask, ...
		 */
		if (!ring_buffer_record_is_set_on(rb))
			return -EAGAIN;
		local_inc(this_cpu_ptr(buf->refused));
		return -ENOBUFS;
	}
	if (pid == LKST_PID_CURRENT)
		pid = current->pid;
	rec = ring_buffer_event_data(ev);
	lkst_record_head(rec, lkst_event_type[event],
			 lkst_trace_ctx(preempt_count() - pc_sub, irqs_off), pid,
			 event, handler);
	rec->arg[0] = a0;
	rec->arg[1] = a1;
	rec->arg[2] = a2;
	rec->arg[3] = a3;
	ring_buffer_commit_fast(rb);
	return 0;
}

static __always_inline int __lkst_record4(struct lkst_buffer *buf,
					  unsigned int event, u8 handler,
					  pid_t pid, u64 a0, u64 a1, u64 a2,
					  u64 a3)
{
	return __lkst_record4_ctx(buf, event, handler, pid, a0, a1, a2, a3, 0,
				  irqs_disabled());
}

static __always_inline int __lkst_record(struct lkst_buffer *buf,
					 unsigned int event, u8 handler,
					 pid_t pid, const u64 *args)
{
	return __lkst_record4(buf, event, handler, pid, args[0], args[1],
			      args[2], args[3]);
}

/*
 * Wait for every reader of what LKST publishes with RCU: the tracepoint
 * probes (tracepoint_srcu), and the kprobe handlers of dynamic events and
 * the other readers that run with preemption disabled (RCU).
 */
static inline void lkst_synchronize_readers(void)
{
	tracepoint_synchronize_unregister();
	synchronize_rcu();
}

/*
 * struct lkst_table - what the probes see: per event ID, the handler
 * (NULL for NOTHING) and the buffer.  Immutable once published.
 */
struct lkst_table_entry {
	struct lkst_handler	*handler;
	struct lkst_buffer	*buf;
};

struct lkst_table {
	struct lkst_table_entry	ent[LKST_NR_IDS];
	DECLARE_BITMAP(used, LKST_NR_IDS);
	/* the generation of the dynamic event each line named */
	u32			dyn_gen[LKST_EV_DYN_MAX];
};

extern struct lkst_table __rcu *lkst_cur_table;
extern struct lkst_handler lkst_handler_default;
extern struct lkst_handler lkst_handler_nothing;

void lkst_dispatch(unsigned int event, u64 a0, u64 a1, u64 a2, u64 a3);
void lkst_call_handler(struct lkst_handler *h, struct lkst_buffer *buf,
		       unsigned int event, pid_t pid, u64 a0, u64 a1, u64 a2,
		       u64 a3);
void lkst_dispatch_table(const struct lkst_table *t, unsigned int event,
			 pid_t pid, const u64 *args);

/*
 * The data plane, inlined into every probe: a DEFAULT record makes no
 * call of LKST's own, only the ring buffer's reserve and commit.
 *
 * Must be called with preemption disabled: that is the read side
 * rcu_dereference_sched() and the table's release by
 * lkst_synchronize_readers() rely on.
 */
static __always_inline void
__lkst_dispatch_table(const struct lkst_table *t, unsigned int event,
		      pid_t pid, u64 a0, u64 a1, u64 a2, u64 a3)
{
	const struct lkst_table_entry *e = &t->ent[event];
	/* READ_ONCE: __lkst_maskset_drop_handler() may clear it under us. */
	struct lkst_handler *h = READ_ONCE(e->handler);

	if (!h)
		return;
	if (likely(h == &lkst_handler_default)) {
		__lkst_record4(e->buf, event, LKST_HANDLER_DEFAULT, pid,
			       a0, a1, a2, a3);
	} else if (h != &lkst_handler_nothing) {
		/*
		 * No handler runs for a task the line's buffer keeps out:
		 * one that reacts to the events of a recorder would react
		 * to its own notifications.
		 */
		if (lkst_ignore_pid(e->buf->tr, preempt_count()))
			return;
		if (pid == LKST_PID_CURRENT)
			pid = current->pid;
		lkst_call_handler(h, e->buf, event, pid, a0, a1, a2, a3);
	}
}

/*
 * Tracepoint probes run under SRCU (tracepoint_srcu), preemptible: disable
 * preemption around the dispatch, as ftrace's event probes do.
 */
static __always_inline void
__lkst_dispatch(unsigned int event, u64 a0, u64 a1, u64 a2, u64 a3)
{
	const struct lkst_table *t;

	guard(preempt_notrace)();
	t = rcu_dereference_sched(lkst_cur_table);
	if (likely(t))
		__lkst_dispatch_table(t, event, LKST_PID_CURRENT, a0, a1, a2,
				      a3);
}

#endif /* _LKST_RECORD_H */
