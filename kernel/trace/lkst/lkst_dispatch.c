// SPDX-License-Identifier: GPL-2.0
/*
 * LKST's data path, out of line: what the probes read (the current
 * table, the events' ftrace types), the system handlers DEFAULT and
 * NOTHING, and lkst_record() for the extended handlers.  The inline part,
 * which every probe has, is in lkst_record.h, with a diagram of the path.
 *
 * Nothing here calls into another file of LKST: the layers above publish
 * what the probes read, and the probes call down into it.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/preempt.h>

#include "lkst_record.h"

/* Published by the masksets (lkst_maskset.c); see lkst_record.h */
struct lkst_table __rcu *lkst_cur_table;
EXPORT_SYMBOL_IF_KUNIT(lkst_cur_table);

/* Set as the events register with ftrace (lkst_tevent.c) */
u16 lkst_event_type[LKST_NR_IDS] __read_mostly;
EXPORT_SYMBOL_IF_KUNIT(lkst_event_type);

/**
 * lkst_record - write one record into an LKST buffer
 * @buf:	the buffer, e.g. the one a handler was called with
 * @event:	event ID
 * @handler:	ID of the handler writing the record
 * @pid:	pid to record
 * @args:	LKST_NR_ARGS arguments
 *
 * The record is timestamped by the ring buffer and written to the buffer
 * of the current CPU.  A record the ring buffer refuses is counted in the
 * buffer's per_cpu/cpuN/refused, so callers usually ignore the return
 * value.
 *
 * Context: any, including NMI.  Does not sleep.
 * Return: 0; -EAGAIN if the buffer is off (tracing_on is 0), or if its
 * instance's pid lists keep out the task on the CPU (in task context,
 * whatever @pid says); -ENOBUFS if the ring buffer refused the record,
 * counted as refused: for example full in stop mode, a nested writer's
 * reservation reached, being resized or reset, the call nested too deep,
 * or the CPU not in the instance's tracing_cpumask.
 */
int lkst_record(struct lkst_buffer *buf, unsigned int event, u8 handler,
		pid_t pid, const u64 *args)
{
	int ret;

	/* __lkst_buffers_clear() waits for this preempt-disabled section. */
	preempt_disable_notrace();
	ret = __lkst_record(buf, event, handler, pid, args);
	preempt_enable_notrace();
	return ret;
}
EXPORT_SYMBOL_GPL(lkst_record);

static void lkst_default_fn(struct lkst_handler *h, struct lkst_buffer *buf,
			    unsigned int event, pid_t pid, const u64 *args)
{
	lkst_record(buf, event, LKST_HANDLER_DEFAULT, pid, args);
}

struct lkst_handler lkst_handler_default = {
	.name	= "DEFAULT",
	.func	= lkst_default_fn,
	.id	= LKST_HANDLER_DEFAULT,
};
EXPORT_SYMBOL_IF_KUNIT(lkst_handler_default);

/* Never called: the dispatch path compares with it and returns. */
static void lkst_nothing_fn(struct lkst_handler *h, struct lkst_buffer *buf,
			    unsigned int event, pid_t pid, const u64 *args)
{
}

struct lkst_handler lkst_handler_nothing = {
	.name	= "NOTHING",
	.func	= lkst_nothing_fn,
	.id	= LKST_HANDLER_NOTHING,
};
EXPORT_SYMBOL_IF_KUNIT(lkst_handler_nothing);

/**
 * lkst_dispatch_table - run the handler @t chooses for @event
 * @t:		a published table
 * @event:	event ID, < LKST_NR_EVENTS
 * @pid:	pid to record
 * @args:	LKST_NR_ARGS arguments
 *
 * The out-of-line form of __lkst_dispatch_table(), for the KUnit tests.
 * Must be called with preemption disabled, as tracepoint probes are.
 */
void lkst_dispatch_table(const struct lkst_table *t, unsigned int event,
			 pid_t pid, const u64 *args)
{
	__lkst_dispatch_table(t, event, pid, args[0], args[1], args[2],
			      args[3]);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dispatch_table);

/*
 * Extended handlers get the arguments as an array.  Out of line, so that
 * the probes, which inline the DEFAULT and NOTHING cases, need no stack
 * frame for it.
 */
void lkst_call_handler(struct lkst_handler *h, struct lkst_buffer *buf,
		       unsigned int event, pid_t pid, u64 a0, u64 a1, u64 a2,
		       u64 a3)
{
	const u64 args[LKST_NR_ARGS] = { a0, a1, a2, a3 };

	h->func(h, buf, event, pid, args);
}

/* What every probe does (inlined there), as a function for the tests. */
void lkst_dispatch(unsigned int event, u64 a0, u64 a1, u64 a2, u64 a3)
{
	__lkst_dispatch(event, a0, a1, a2, a3);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dispatch);
