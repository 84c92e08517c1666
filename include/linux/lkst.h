/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LKST: Linux Kernel State Tracer, the interface for handler modules.
 *
 * The event IDs, handler IDs and struct lkst_record below are ABI: they
 * appear in the raw records user space reads from
 * /sys/kernel/tracing/lkst/per_cpu/cpuN/raw.  Never renumber them; new
 * events get new IDs at the end of the table.
 */
#ifndef _LINUX_LKST_H
#define _LINUX_LKST_H

#include <linux/types.h>

struct module;

/* Number of u64 arguments every event record carries. */
#define LKST_NR_ARGS		4

/**
 * enum lkst_event_id - stable numeric IDs of the LKST events
 * @LKST_EV_PROCESS_CONTEXTSWITCH: sched_switch
 * @LKST_EV_PROCESS_WAKEUP: sched_wakeup, sched_wakeup_new
 * @LKST_EV_PROCESS_SIGSEND: signal_generate
 * @LKST_EV_PROCESS_FORK: sched_process_fork
 * @LKST_EV_PROCESS_EXEC: sched_process_exec
 * @LKST_EV_PROCESS_EXIT: sched_process_exit
 * @LKST_EV_PROCESS_MIGRATE: sched_migrate_task
 * @LKST_EV_INT_HARDWARE_ENTRY: irq_handler_entry
 * @LKST_EV_INT_HARDWARE_EXIT: irq_handler_exit
 * @LKST_EV_INT_SOFTIRQ_ENTRY: softirq_entry
 * @LKST_EV_INT_SOFTIRQ_EXIT: softirq_exit
 * @LKST_EV_INT_TASKLET_ENTRY: tasklet_entry
 * @LKST_EV_INT_TASKLET_EXIT: tasklet_exit
 * @LKST_EV_EXCEPTION_PAGEFAULT_USER: page_fault_user (x86)
 * @LKST_EV_EXCEPTION_PAGEFAULT_KERNEL: page_fault_kernel (x86)
 * @LKST_EV_SYSCALL_ENTRY: sys_enter
 * @LKST_EV_SYSCALL_EXIT: sys_exit
 * @LKST_EV_MEM_PAGE_ALLOC: mm_page_alloc
 * @LKST_EV_MEM_PAGE_FREE: mm_page_free
 * @LKST_EV_MEM_KMALLOC: kmalloc
 * @LKST_EV_MEM_KFREE: kfree
 * @LKST_EV_MEM_CACHE_ALLOC: kmem_cache_alloc
 * @LKST_EV_MEM_CACHE_FREE: kmem_cache_free
 * @LKST_EV_MEM_VMALLOC: alloc_vmap_area
 * @LKST_EV_FS_DEVRW: block_rq_issue
 * @LKST_EV_FS_DEVEND: block_rq_complete
 * @LKST_EV_NET_PKTSEND: net_dev_xmit
 * @LKST_EV_NET_PKTRECV: netif_receive_skb
 * @LKST_EV_LK_CONTENTION_BEGIN: contention_begin
 * @LKST_EV_LK_CONTENTION_END: contention_end
 * @LKST_EV_TIMER_ADD: timer_start
 * @LKST_EV_TIMER_RUN: timer_expire_entry
 * @LKST_EV_TIMER_DEL: timer_cancel
 * @LKST_EV_HRTIMER_RUN: hrtimer_expire_entry
 * @LKST_EV_WQ_EXECUTE: workqueue_execute_start
 * @LKST_EV_O_PRINTK: console
 * @LKST_EV_O_PANIC: panic(), from its "Kernel panic - not syncing" line
 * @LKST_NR_EVENTS: one past the highest ID
 *
 * Each entry names the tracepoint the event is attached to.
 * The meaning of each argument is listed in available_events and in
 * kernel/trace/lkst/lkst_events.c.  An ID whose subsystem is configured
 * out is simply absent from available_events; it is never reused.
 */
enum lkst_event_id {
	LKST_EV_PROCESS_CONTEXTSWITCH	= 1,
	LKST_EV_PROCESS_WAKEUP		= 2,
	LKST_EV_PROCESS_SIGSEND		= 3,
	LKST_EV_PROCESS_FORK		= 4,
	LKST_EV_PROCESS_EXEC		= 5,
	LKST_EV_PROCESS_EXIT		= 6,
	LKST_EV_PROCESS_MIGRATE		= 7,
	LKST_EV_INT_HARDWARE_ENTRY	= 16,
	LKST_EV_INT_HARDWARE_EXIT	= 17,
	LKST_EV_INT_SOFTIRQ_ENTRY	= 18,
	LKST_EV_INT_SOFTIRQ_EXIT	= 19,
	LKST_EV_INT_TASKLET_ENTRY	= 20,
	LKST_EV_INT_TASKLET_EXIT	= 21,
	LKST_EV_EXCEPTION_PAGEFAULT_USER	= 32,
	LKST_EV_EXCEPTION_PAGEFAULT_KERNEL	= 33,
	LKST_EV_SYSCALL_ENTRY		= 48,
	LKST_EV_SYSCALL_EXIT		= 49,
	LKST_EV_MEM_PAGE_ALLOC		= 64,
	LKST_EV_MEM_PAGE_FREE		= 65,
	LKST_EV_MEM_KMALLOC		= 66,
	LKST_EV_MEM_KFREE		= 67,
	LKST_EV_MEM_CACHE_ALLOC		= 68,
	LKST_EV_MEM_CACHE_FREE		= 69,
	LKST_EV_MEM_VMALLOC		= 70,
	LKST_EV_FS_DEVRW		= 80,
	LKST_EV_FS_DEVEND		= 81,
	LKST_EV_NET_PKTSEND		= 96,
	LKST_EV_NET_PKTRECV		= 97,
	LKST_EV_LK_CONTENTION_BEGIN	= 112,
	LKST_EV_LK_CONTENTION_END	= 113,
	LKST_EV_TIMER_ADD		= 128,
	LKST_EV_TIMER_RUN		= 129,
	LKST_EV_TIMER_DEL		= 130,
	LKST_EV_HRTIMER_RUN		= 131,
	LKST_EV_WQ_EXECUTE		= 144,
	LKST_EV_O_PRINTK		= 240,
	LKST_EV_O_PANIC			= 241,
	LKST_NR_EVENTS
};

/*
 * IDs of the dynamic events defined in lkst/dynamic_events: from
 * LKST_EV_DYN_FIRST to LKST_EV_DYN_LAST, given out in turn, so that an ID
 * is not reused while its event exists, nor soon after it is removed.
 */
#define LKST_EV_DYN_FIRST	256
#define LKST_EV_DYN_LAST	319
#define LKST_EV_DYN_MAX		(LKST_EV_DYN_LAST - LKST_EV_DYN_FIRST + 1)

/* Handler IDs: as in the original LKST, 1 records and 255 drops. */
#define LKST_HANDLER_DEFAULT	1
#define LKST_HANDLER_NOTHING	255

/*
 * lkst_record.flags: the context the event was recorded in, the bits
 * ftrace sets in common_flags (TRACE_FLAG_* in linux/trace_events.h).
 */
#define LKST_RECORD_IRQS_OFF	0x01
#define LKST_RECORD_HARDIRQ	0x08
#define LKST_RECORD_SOFTIRQ	0x10
#define LKST_RECORD_NMI		0x40
#define LKST_RECORD_BH_OFF	0x80

/**
 * struct lkst_record - one LKST event as stored in an event buffer
 * @type:	ftrace's type of the event: the ID: line of
 *		events/lkst/NAME/format (common_type)
 * @flags:	LKST_RECORD_* context bits (common_flags)
 * @preempt_count: 0 (common_preempt_count: not recorded)
 * @pid:	pid of the task running when the event happened (common_pid)
 * @event:	stable LKST event ID (enum lkst_event_id)
 * @handler:	ID of the handler that wrote the record
 * @__reserved:	0
 * @__pad:	0; puts @arg at offset 16
 * @arg:	event arguments, meaning per event (see available_events)
 *
 * 48 bytes, no padding. The first 8 bytes are ftrace's struct trace_entry,
 * so that every reader of ftrace's buffers reads LKST's records as the
 * events of the system "lkst".  The timestamp is the one in the
 * ring-buffer event header; the layout is published in each event's
 * events/lkst/NAME/format.
 */
struct lkst_record {
	u16	type;
	u8	flags;
	u8	preempt_count;
	u32	pid;
	u16	event;
	u8	handler;
	u8	__reserved;
	u32	__pad;
	u64	arg[LKST_NR_ARGS];
};

struct lkst_buffer;
struct lkst_maskset;
struct lkst_handler;

/**
 * typedef lkst_handler_fn - an LKST event handler
 * @h:		the handler, as registered (use @h->private for state)
 * @buf:	the buffer chosen by the maskset line of @event
 * @event:	event ID
 * @pid:	pid of the current task
 * @args:	the LKST_NR_ARGS event arguments
 *
 * Called from the tracepoint probe with preemption disabled, in any
 * context (hard/soft interrupt, NMI-like paths, the idle task).  It must
 * not sleep, allocate memory or take locks that may be held where
 * tracepoints fire.
 */
typedef void (*lkst_handler_fn)(struct lkst_handler *h, struct lkst_buffer *buf,
				unsigned int event, pid_t pid, const u64 *args);

/**
 * struct lkst_handler - an extended event handler
 * @name:	name used in maskset lines; unique, at most 31 characters
 * @owner:	THIS_MODULE; pinned while a maskset uses the handler
 * @func:	the callback
 * @private:	for the handler's own use
 * @id:		assigned by lkst_register_handler() (2..254)
 * @list:	internal
 * @users:	internal: number of maskset lines that use the handler
 */
struct lkst_handler {
	const char		*name;
	struct module		*owner;
	lkst_handler_fn		func;
	void			*private;
	/* Filled in by LKST */
	u8			id;
	struct list_head	list;
	unsigned int		users;
};

#ifdef CONFIG_LKST
int lkst_register_handler(struct lkst_handler *h);
void lkst_unregister_handler(struct lkst_handler *h);

int lkst_record(struct lkst_buffer *buf, unsigned int event, u8 handler,
		pid_t pid, const u64 *args);
struct lkst_buffer *lkst_buffer_default(void);
struct lkst_buffer *lkst_buffer_get(const char *name);
void lkst_buffer_put(struct lkst_buffer *buf);

struct lkst_maskset *lkst_maskset_get(const char *name);
void lkst_maskset_put(struct lkst_maskset *ms);
int lkst_maskset_switch(struct lkst_maskset *ms);

void lkst_notify(unsigned int reason);
#endif /* CONFIG_LKST */

#endif /* _LINUX_LKST_H */
