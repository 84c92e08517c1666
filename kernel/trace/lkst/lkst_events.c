// SPDX-License-Identifier: GPL-2.0
/*
 * LKST event table: stable event IDs, the meaning of their arguments,
 * and the probes that attach them to existing tracepoints.
 *
 * A probe only computes the four u64 arguments and calls __lkst_dispatch();
 * everything else (which handler, which buffer) is decided there from the
 * current maskset table.  Probes are attached only while the current
 * maskset uses their event, so an unused event costs nothing.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/interrupt.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/panic.h>
#include <linux/panic_notifier.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <trace/events/irq.h>
#include <trace/events/kmem.h>
#include <trace/events/lock.h>
#include <trace/events/printk.h>
#include <trace/events/sched.h>
#include <trace/events/signal.h>
#include <trace/events/timer.h>
#include <trace/events/workqueue.h>

#ifdef CONFIG_MMU
#include <trace/events/vmalloc.h>
#endif
#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
#include <asm/syscall.h>
#include <trace/events/syscalls.h>
#endif
#ifdef CONFIG_X86
#include <trace/events/exceptions.h>
#endif
#ifdef CONFIG_BLOCK
#include <linux/blk-mq.h>
#include <trace/events/block.h>
#endif
#ifdef CONFIG_NET
#include <linux/netdevice.h>
#include <trace/events/net.h>
#endif

#include "../trace.h"
#ifdef CONFIG_LKST_DYNAMIC_EVENTS
#include "../trace_probe.h"
#endif
#include "lkst_internal.h"

/* Attached events, changed under lkst_mutex only. */
static DECLARE_BITMAP(lkst_attached, LKST_NR_IDS);

#define LKST_U(x)	((u64)(unsigned long)(x))

/* Define attach/detach for an event that maps onto one tracepoint. */
#define LKST_TP(tp)							\
static int lkst_attach_##tp(void)					\
{									\
	return register_trace_##tp(lkst_probe_##tp, NULL);		\
}									\
static void lkst_detach_##tp(void)					\
{									\
	unregister_trace_##tp(lkst_probe_##tp, NULL);			\
}

/* Process events */

static void lkst_probe_sched_switch(void *data, bool preempt,
				    struct task_struct *prev,
				    struct task_struct *next,
				    unsigned int prev_state)
{
	unsigned int state = preempt ? 0 :
		__task_state_index(prev_state, prev->exit_state);

	__lkst_dispatch(LKST_EV_PROCESS_CONTEXTSWITCH, prev->pid, next->pid,
			state, ((u64)prev->prio << 32) | (u32)next->prio);
}

LKST_TP(sched_switch)

static void lkst_probe_sched_wakeup(void *data, struct task_struct *p)
{
	__lkst_dispatch(LKST_EV_PROCESS_WAKEUP, p->pid, p->prio, task_cpu(p), 0);
}

static void lkst_probe_sched_wakeup_new(void *data, struct task_struct *p)
{
	__lkst_dispatch(LKST_EV_PROCESS_WAKEUP, p->pid, p->prio, task_cpu(p), 1);
}

/* Both wakeup tracepoints feed one event; arg3 tells them apart. */
static int lkst_attach_wakeup(void)
{
	int ret;

	ret = register_trace_sched_wakeup(lkst_probe_sched_wakeup, NULL);
	if (ret)
		return ret;
	ret = register_trace_sched_wakeup_new(lkst_probe_sched_wakeup_new, NULL);
	if (ret)
		unregister_trace_sched_wakeup(lkst_probe_sched_wakeup, NULL);
	return ret;
}

static void lkst_detach_wakeup(void)
{
	unregister_trace_sched_wakeup_new(lkst_probe_sched_wakeup_new, NULL);
	unregister_trace_sched_wakeup(lkst_probe_sched_wakeup, NULL);
}

static void lkst_probe_signal_generate(void *data, int sig,
				       struct kernel_siginfo *info,
				       struct task_struct *task, int group,
				       int result)
{
	__lkst_dispatch(LKST_EV_PROCESS_SIGSEND, sig, task->pid, group, result);
}

LKST_TP(signal_generate)

/*
 * trace-cmd and ftrace's trace file name a record's task from
 * saved_cmdlines, which ftrace fills on every context switch and wakeup
 * while its events record.  LKST keeps its switch cheaper: while a
 * maskset records, it saves a comm where one begins (fork, exec), and
 * those of the tasks that exist when a maskset starts recording.
 */
static void lkst_comm_fork(void *data, struct task_struct *parent,
			   struct task_struct *child)
{
	/* Probes are preemptible; trace_save_cmdline() must not be */
	guard(preempt_notrace)();
	trace_save_cmdline(child);
}

static void lkst_comm_exec(void *data, struct task_struct *p, pid_t old_pid,
			   struct linux_binprm *bprm)
{
	guard(preempt_notrace)();
	trace_save_cmdline(p);
}

static bool lkst_comm_on;

/**
 * __lkst_save_comms - keep saved_cmdlines up to date while recording
 * @on: a maskset that records is current
 *
 * Context: process context, under lkst_mutex.
 */
void __lkst_save_comms(bool on)
{
	struct task_struct *g, *t;

	lockdep_assert_held(&lkst_mutex);
	if (on && !lkst_comm_on) {
		if (register_trace_sched_process_fork(lkst_comm_fork, NULL))
			return;
		if (register_trace_sched_process_exec(lkst_comm_exec, NULL)) {
			unregister_trace_sched_process_fork(lkst_comm_fork, NULL);
			return;
		}
		lkst_comm_on = true;
		/* newest last: saved_cmdlines keeps the last 128 by default */
		scoped_guard(rcu) {
			for_each_process_thread(g, t) {
				guard(preempt)();
				trace_save_cmdline(t);
			}
		}
	} else if (!on && lkst_comm_on) {
		unregister_trace_sched_process_exec(lkst_comm_exec, NULL);
		unregister_trace_sched_process_fork(lkst_comm_fork, NULL);
		lkst_comm_on = false;
	}
}

static void lkst_probe_sched_process_fork(void *data,
					  struct task_struct *parent,
					  struct task_struct *child)
{
	__lkst_dispatch(LKST_EV_PROCESS_FORK, parent->pid, child->pid,
			child->tgid, 0);
}

LKST_TP(sched_process_fork)

static void lkst_probe_sched_process_exec(void *data, struct task_struct *p,
					  pid_t old_pid,
					  struct linux_binprm *bprm)
{
	__lkst_dispatch(LKST_EV_PROCESS_EXEC, p->pid, old_pid, p->tgid, 0);
}

LKST_TP(sched_process_exec)

static void lkst_probe_sched_process_exit(void *data, struct task_struct *p,
					  bool group_dead)
{
	__lkst_dispatch(LKST_EV_PROCESS_EXIT, p->pid, p->tgid, p->exit_code, 0);
}

LKST_TP(sched_process_exit)

static void lkst_probe_sched_migrate_task(void *data, struct task_struct *p,
					  int dest_cpu)
{
	__lkst_dispatch(LKST_EV_PROCESS_MIGRATE, p->pid, task_cpu(p), dest_cpu,
			p->prio);
}

LKST_TP(sched_migrate_task)

/* Interrupt events */

static void lkst_probe_irq_handler_entry(void *data, int irq,
					 struct irqaction *action)
{
	__lkst_dispatch(LKST_EV_INT_HARDWARE_ENTRY, irq, LKST_U(action->handler),
			0, 0);
}

LKST_TP(irq_handler_entry)

static void lkst_probe_irq_handler_exit(void *data, int irq,
					struct irqaction *action, int ret)
{
	__lkst_dispatch(LKST_EV_INT_HARDWARE_EXIT, irq, ret, 0, 0);
}

LKST_TP(irq_handler_exit)

static void lkst_probe_softirq_entry(void *data, unsigned int vec_nr)
{
	__lkst_dispatch(LKST_EV_INT_SOFTIRQ_ENTRY, vec_nr, 0, 0, 0);
}

LKST_TP(softirq_entry)

static void lkst_probe_softirq_exit(void *data, unsigned int vec_nr)
{
	__lkst_dispatch(LKST_EV_INT_SOFTIRQ_EXIT, vec_nr, 0, 0, 0);
}

LKST_TP(softirq_exit)

static void lkst_probe_tasklet_entry(void *data, struct tasklet_struct *t,
				     void *func)
{
	__lkst_dispatch(LKST_EV_INT_TASKLET_ENTRY, LKST_U(t), LKST_U(func), 0, 0);
}

LKST_TP(tasklet_entry)

static void lkst_probe_tasklet_exit(void *data, struct tasklet_struct *t,
				    void *func)
{
	__lkst_dispatch(LKST_EV_INT_TASKLET_EXIT, LKST_U(t), LKST_U(func), 0, 0);
}

LKST_TP(tasklet_exit)

/* Exceptions: the page-fault tracepoints exist only on x86. */
#ifdef CONFIG_X86
static void lkst_probe_page_fault_user(void *data, unsigned long address,
				       struct pt_regs *regs,
				       unsigned long error_code)
{
	__lkst_dispatch(LKST_EV_EXCEPTION_PAGEFAULT_USER, address, regs->ip,
			error_code, 0);
}

LKST_TP(page_fault_user)

static void lkst_probe_page_fault_kernel(void *data, unsigned long address,
					 struct pt_regs *regs,
					 unsigned long error_code)
{
	__lkst_dispatch(LKST_EV_EXCEPTION_PAGEFAULT_KERNEL, address, regs->ip,
			error_code, 0);
}

LKST_TP(page_fault_kernel)
#endif

#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
static void lkst_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	/*
	 * Filled in completely by syscall_get_arguments(): without
	 * zero-initializing it first (CONFIG_INIT_STACK_ALL_ZERO), the
	 * compiler keeps only the three loads that are recorded.
	 */
	unsigned long args[6] __uninitialized;

	syscall_get_arguments(current, regs, args);
	__lkst_dispatch(LKST_EV_SYSCALL_ENTRY, id, args[0], args[1], args[2]);
}

LKST_TP(sys_enter)

static void lkst_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	__lkst_dispatch(LKST_EV_SYSCALL_EXIT, syscall_get_nr(current, regs), ret,
			0, 0);
}

LKST_TP(sys_exit)
#endif

/* Memory events: high rate, not in RDEFAULT */

static void lkst_probe_mm_page_alloc(void *data, struct page *page,
				     unsigned int order, gfp_t gfp_flags,
				     int migratetype)
{
	__lkst_dispatch(LKST_EV_MEM_PAGE_ALLOC, page ? page_to_pfn(page) : -1UL,
			order, (__force u32)gfp_flags, migratetype);
}

LKST_TP(mm_page_alloc)

static void lkst_probe_mm_page_free(void *data, struct page *page,
				    unsigned int order)
{
	__lkst_dispatch(LKST_EV_MEM_PAGE_FREE, page_to_pfn(page), order, 0, 0);
}

LKST_TP(mm_page_free)

static void lkst_probe_kmalloc(void *data, unsigned long call_site,
			       const void *ptr, size_t bytes_req,
			       size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	__lkst_dispatch(LKST_EV_MEM_KMALLOC, call_site, LKST_U(ptr), bytes_req,
			bytes_alloc);
}

LKST_TP(kmalloc)

static void lkst_probe_kfree(void *data, unsigned long call_site,
			     const void *ptr)
{
	__lkst_dispatch(LKST_EV_MEM_KFREE, call_site, LKST_U(ptr), 0, 0);
}

LKST_TP(kfree)

static void lkst_probe_kmem_cache_alloc(void *data, unsigned long call_site,
					const void *ptr, struct kmem_cache *s,
					gfp_t gfp_flags, int node)
{
	__lkst_dispatch(LKST_EV_MEM_CACHE_ALLOC, call_site, LKST_U(ptr),
			LKST_U(s), (__force u32)gfp_flags);
}

LKST_TP(kmem_cache_alloc)

static void lkst_probe_kmem_cache_free(void *data, unsigned long call_site,
				       const void *ptr,
				       const struct kmem_cache *s)
{
	__lkst_dispatch(LKST_EV_MEM_CACHE_FREE, call_site, LKST_U(ptr), LKST_U(s),
			0);
}

LKST_TP(kmem_cache_free)

#ifdef CONFIG_MMU
static void lkst_probe_alloc_vmap_area(void *data, unsigned long addr,
				       unsigned long size, unsigned long align,
				       unsigned long vstart, unsigned long vend,
				       int failed)
{
	__lkst_dispatch(LKST_EV_MEM_VMALLOC, addr, size, align, failed);
}

LKST_TP(alloc_vmap_area)
#endif

/* Block and network events */

#ifdef CONFIG_BLOCK
static u64 lkst_rq_dev(struct request *rq)
{
	return rq->q->disk ? disk_devt(rq->q->disk) : 0;
}

static void lkst_probe_block_rq_issue(void *data, struct request *rq)
{
	__lkst_dispatch(LKST_EV_FS_DEVRW, lkst_rq_dev(rq), blk_rq_pos(rq),
			blk_rq_bytes(rq), (__force u32)rq->cmd_flags);
}

LKST_TP(block_rq_issue)

static void lkst_probe_block_rq_complete(void *data, struct request *rq,
					 blk_status_t error,
					 unsigned int nr_bytes)
{
	__lkst_dispatch(LKST_EV_FS_DEVEND, lkst_rq_dev(rq), blk_rq_pos(rq),
			nr_bytes, blk_status_to_errno(error));
}

LKST_TP(block_rq_complete)
#endif

#ifdef CONFIG_NET
static void lkst_probe_net_dev_xmit(void *data, struct sk_buff *skb, int rc,
				    struct net_device *dev,
				    unsigned int skb_len)
{
	__lkst_dispatch(LKST_EV_NET_PKTSEND, dev->ifindex, skb_len, rc,
			LKST_U(skb));
}

LKST_TP(net_dev_xmit)

static void lkst_probe_netif_receive_skb(void *data, struct sk_buff *skb)
{
	__lkst_dispatch(LKST_EV_NET_PKTRECV, skb->dev ? skb->dev->ifindex : 0,
			skb->len, be16_to_cpu(skb->protocol), LKST_U(skb));
}

LKST_TP(netif_receive_skb)
#endif

/* Lock contention: high rate, not in RDEFAULT */

static void lkst_probe_contention_begin(void *data, void *lock,
					unsigned int flags)
{
	__lkst_dispatch(LKST_EV_LK_CONTENTION_BEGIN, LKST_U(lock), flags, 0, 0);
}

LKST_TP(contention_begin)

static void lkst_probe_contention_end(void *data, void *lock, int ret)
{
	__lkst_dispatch(LKST_EV_LK_CONTENTION_END, LKST_U(lock), ret, 0, 0);
}

LKST_TP(contention_end)

/* Timers and work */

static void lkst_probe_timer_start(void *data, struct timer_list *timer,
				   unsigned long bucket_expiry)
{
	__lkst_dispatch(LKST_EV_TIMER_ADD, LKST_U(timer), LKST_U(timer->function),
			timer->expires, timer->flags);
}

LKST_TP(timer_start)

static void lkst_probe_timer_expire_entry(void *data, struct timer_list *timer,
					  unsigned long baseclk)
{
	__lkst_dispatch(LKST_EV_TIMER_RUN, LKST_U(timer), LKST_U(timer->function),
			baseclk, 0);
}

LKST_TP(timer_expire_entry)

static void lkst_probe_timer_cancel(void *data, struct timer_list *timer)
{
	__lkst_dispatch(LKST_EV_TIMER_DEL, LKST_U(timer), 0, 0, 0);
}

LKST_TP(timer_cancel)

static void lkst_probe_hrtimer_expire_entry(void *data, struct hrtimer *t,
					    ktime_t now)
{
	__lkst_dispatch(LKST_EV_HRTIMER_RUN, LKST_U(t),
			LKST_U(ACCESS_PRIVATE(t, function)), now, 0);
}

LKST_TP(hrtimer_expire_entry)

static void lkst_probe_workqueue_execute_start(void *data,
					       struct work_struct *work)
{
	__lkst_dispatch(LKST_EV_WQ_EXECUTE, LKST_U(work), LKST_U(work->func), 0, 0);
}

LKST_TP(workqueue_execute_start)

/* Others: the first 24 bytes of a text go into arg1..arg3. */

static void lkst_dispatch_text(unsigned int event, u64 a0, const char *text,
			       size_t len)
{
	u64 t[3] = { 0 };

	memcpy(t, text, min(len, sizeof(t)));
	__lkst_dispatch(event, a0, t[0], t[1], t[2]);
}

#ifdef CONFIG_PRINTK
/*
 * Not while an oops or panic is being printed: those lines are on the
 * console and in the kernel log anyway, and would push what led to the
 * crash out of the buffer and out of lkst.dump_on_oops.
 */
static void lkst_probe_console(void *data, const char *text, size_t len)
{
	if (unlikely(oops_in_progress))
		return;
	lkst_dispatch_text(LKST_EV_O_PRINTK, len, text, len);
}

LKST_TP(console)
#endif

#ifdef CONFIG_PRINTK
/*
 * Panic is not a tracepoint.  panic() prints "Kernel panic - not syncing:
 * MSG" before it starts a kdump kernel, which the panic notifiers only
 * follow (and so would not record) unless crash_kexec_post_notifiers is
 * set: take the record from that line, on the CPU that panics.
 */
#define LKST_PANIC_PREFIX	"Kernel panic - not syncing: "

static void lkst_probe_console_panic(void *data, const char *text, size_t len)
{
	const size_t plen = sizeof(LKST_PANIC_PREFIX) - 1;
	int cpu = raw_smp_processor_id();

	if (len < plen || atomic_read(&panic_cpu) != cpu ||
	    memcmp(text, LKST_PANIC_PREFIX, plen))
		return;
	lkst_dispatch_text(LKST_EV_O_PANIC, cpu, text + plen, len - plen);
}

static int lkst_attach_panic(void)
{
	return register_trace_console(lkst_probe_console_panic, NULL);
}

static void lkst_detach_panic(void)
{
	unregister_trace_console(lkst_probe_console_panic, NULL);
}
#else
/* Without printk, the panic notifier chain (which kdump skips). */
static int lkst_panic_notify(struct notifier_block *nb, unsigned long code,
			     void *msg)
{
	lkst_dispatch_text(LKST_EV_O_PANIC, raw_smp_processor_id(), msg,
			   msg ? strnlen(msg, 24) : 0);
	return NOTIFY_DONE;
}

static struct notifier_block lkst_panic_nb = {
	.notifier_call	= lkst_panic_notify,
	.priority	= INT_MAX,
};

static int lkst_attach_panic(void)
{
	return atomic_notifier_chain_register(&panic_notifier_list,
					      &lkst_panic_nb);
}

static void lkst_detach_panic(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list, &lkst_panic_nb);
}
#endif

#define LKST_EVENT(_id, _prim, _fn, _fmt, ...)				\
	[LKST_EV_##_id] = {						\
		.id = LKST_EV_##_id, .name = #_id, .primary = _prim,	\
		.args = { __VA_ARGS__ }, .argfmt = _fmt, .hook = #_fn,	\
		.attach = lkst_attach_##_fn, .detach = lkst_detach_##_fn, \
	}

/*
 * The table, indexed by ID.  .argfmt says how the trace file prints each
 * argument: d signed, u unsigned, x hex, S task state, s text, - unused,
 * and, following ftrace's rules for pointers in its event output, p a
 * code address as a symbol (%ps), P a data pointer hashed (%p).  The
 * raw files always carry the full values.
 */
static const struct lkst_event_desc lkst_events[LKST_NR_EVENTS] = {
	LKST_EVENT(PROCESS_CONTEXTSWITCH, true, sched_switch, "ddSx",
		   "prev", "next", "state", "prio"),
	LKST_EVENT(PROCESS_WAKEUP, true, wakeup, "dddd",
		   "pid", "prio", "cpu", "new"),
	LKST_EVENT(PROCESS_SIGSEND, true, signal_generate, "dddd",
		   "sig", "pid", "group", "result"),
	LKST_EVENT(PROCESS_FORK, true, sched_process_fork, "ddd-",
		   "parent", "child", "tgid", "-"),
	LKST_EVENT(PROCESS_EXEC, true, sched_process_exec, "ddd-",
		   "pid", "old_pid", "tgid", "-"),
	LKST_EVENT(PROCESS_EXIT, true, sched_process_exit, "ddx-",
		   "pid", "tgid", "code", "-"),
	LKST_EVENT(PROCESS_MIGRATE, true, sched_migrate_task, "dddd",
		   "pid", "from", "to", "prio"),
	LKST_EVENT(INT_HARDWARE_ENTRY, true, irq_handler_entry, "dp--",
		   "irq", "handler", "-", "-"),
	LKST_EVENT(INT_HARDWARE_EXIT, true, irq_handler_exit, "dd--",
		   "irq", "ret", "-", "-"),
	LKST_EVENT(INT_SOFTIRQ_ENTRY, true, softirq_entry, "u---",
		   "vec", "-", "-", "-"),
	LKST_EVENT(INT_SOFTIRQ_EXIT, true, softirq_exit, "u---",
		   "vec", "-", "-", "-"),
	LKST_EVENT(INT_TASKLET_ENTRY, true, tasklet_entry, "Pp--",
		   "tasklet", "func", "-", "-"),
	LKST_EVENT(INT_TASKLET_EXIT, true, tasklet_exit, "Pp--",
		   "tasklet", "func", "-", "-"),
#ifdef CONFIG_X86
	LKST_EVENT(EXCEPTION_PAGEFAULT_USER, true, page_fault_user, "xxx-",
		   "address", "ip", "error", "-"),
	LKST_EVENT(EXCEPTION_PAGEFAULT_KERNEL, true, page_fault_kernel, "xpx-",
		   "address", "ip", "error", "-"),
#endif
#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
	LKST_EVENT(SYSCALL_ENTRY, true, sys_enter, "dxxx",
		   "nr", "a0", "a1", "a2"),
	LKST_EVENT(SYSCALL_EXIT, true, sys_exit, "dd--",
		   "nr", "ret", "-", "-"),
#endif
	LKST_EVENT(MEM_PAGE_ALLOC, false, mm_page_alloc, "xuxd",
		   "pfn", "order", "gfp", "migratetype"),
	LKST_EVENT(MEM_PAGE_FREE, false, mm_page_free, "xu--",
		   "pfn", "order", "-", "-"),
	LKST_EVENT(MEM_KMALLOC, false, kmalloc, "pPuu",
		   "call_site", "ptr", "req", "alloc"),
	LKST_EVENT(MEM_KFREE, false, kfree, "pP--",
		   "call_site", "ptr", "-", "-"),
	LKST_EVENT(MEM_CACHE_ALLOC, false, kmem_cache_alloc, "pPPx",
		   "call_site", "ptr", "cache", "gfp"),
	LKST_EVENT(MEM_CACHE_FREE, false, kmem_cache_free, "pPP-",
		   "call_site", "ptr", "cache", "-"),
#ifdef CONFIG_MMU
	LKST_EVENT(MEM_VMALLOC, false, alloc_vmap_area, "Puud",
		   "addr", "size", "align", "failed"),
#endif
#ifdef CONFIG_BLOCK
	LKST_EVENT(FS_DEVRW, true, block_rq_issue, "xuux",
		   "dev", "sector", "bytes", "flags"),
	LKST_EVENT(FS_DEVEND, true, block_rq_complete, "xuud",
		   "dev", "sector", "bytes", "error"),
#endif
#ifdef CONFIG_NET
	LKST_EVENT(NET_PKTSEND, true, net_dev_xmit, "dudP",
		   "ifindex", "len", "rc", "skb"),
	LKST_EVENT(NET_PKTRECV, true, netif_receive_skb, "duxP",
		   "ifindex", "len", "proto", "skb"),
#endif
	LKST_EVENT(LK_CONTENTION_BEGIN, false, contention_begin, "Px--",
		   "lock", "flags", "-", "-"),
	LKST_EVENT(LK_CONTENTION_END, false, contention_end, "Pd--",
		   "lock", "ret", "-", "-"),
	LKST_EVENT(TIMER_ADD, true, timer_start, "Ppux",
		   "timer", "func", "expires", "flags"),
	LKST_EVENT(TIMER_RUN, true, timer_expire_entry, "Ppu-",
		   "timer", "func", "now", "-"),
	LKST_EVENT(TIMER_DEL, true, timer_cancel, "P---",
		   "timer", "-", "-", "-"),
	LKST_EVENT(HRTIMER_RUN, true, hrtimer_expire_entry, "Ppd-",
		   "hrtimer", "func", "now", "-"),
	LKST_EVENT(WQ_EXECUTE, true, workqueue_execute_start, "Pp--",
		   "work", "func", "-", "-"),
#ifdef CONFIG_PRINTK
	LKST_EVENT(O_PRINTK, true, console, "us--",
		   "len", "text", "-", "-"),
#endif
	LKST_EVENT(O_PANIC, true, panic, "ds--",
		   "cpu", "msg", "-", "-"),
};

#ifdef CONFIG_LKST_DYNAMIC_EVENTS
/*
 * The dynamic events: slot i is ID LKST_EV_DYN_FIRST + i, changed under
 * lkst_mutex, read under it or RCU.  lkst_dynevent.c binds them, and adds
 * and removes them here.
 */
static const struct lkst_event_desc __rcu *lkst_dyn_descs[LKST_EV_DYN_MAX];
/* The slot to try first: IDs are given out in turn. */
static unsigned int lkst_dyn_next;
/* Attached since it was added: records of it may be in the buffers */
static DECLARE_BITMAP(lkst_dyn_recorded, LKST_EV_DYN_MAX);

static const struct lkst_event_desc *lkst_dyn_desc(unsigned int id)
{
	if (id < LKST_EV_DYN_FIRST || id > LKST_EV_DYN_LAST)
		return NULL;
	return rcu_dereference_check(lkst_dyn_descs[id - LKST_EV_DYN_FIRST],
				     lockdep_is_held(&lkst_mutex));
}

/*
 * A dynamic event records the hits of its kprobe event while the consumer
 * is armed: the kprobe event's probes stay enabled while ftrace or perf
 * use them too.
 */
static int lkst_dyn_arm(const struct lkst_event_desc *d, bool on)
{
	int ret = trace_kprobe_consumer_arm(d->call, d->consumer, on);

	if (on && !ret)
		__set_bit(d->id - LKST_EV_DYN_FIRST, lkst_dyn_recorded);
	return ret;
}

/**
 * __lkst_event_dyn_id - the ID for a new dynamic event
 *
 * Return: the next free dynamic ID in turn, or -ENOSPC.
 */
int __lkst_event_dyn_id(void)
{
	unsigned int i, slot;

	lockdep_assert_held(&lkst_mutex);
	for (i = 0; i < LKST_EV_DYN_MAX; i++) {
		slot = (lkst_dyn_next + i) % LKST_EV_DYN_MAX;
		if (!rcu_access_pointer(lkst_dyn_descs[slot]))
			return LKST_EV_DYN_FIRST + slot;
	}
	return -ENOSPC;
}

/**
 * __lkst_event_add - make a dynamic event available
 * @d: its description, with the ID __lkst_event_dyn_id() gave and the
 *     kprobe event's consumer, attached; it must stay valid until an RCU
 *     grace period after __lkst_event_remove()
 */
void __lkst_event_add(const struct lkst_event_desc *d)
{
	unsigned int slot = d->id - LKST_EV_DYN_FIRST;

	lockdep_assert_held(&lkst_mutex);
	__clear_bit(slot, lkst_dyn_recorded);
	rcu_assign_pointer(lkst_dyn_descs[slot], d);
	lkst_dyn_next = (slot + 1) % LKST_EV_DYN_MAX;
}

/**
 * __lkst_event_recorded - may the buffers hold records of a dynamic event?
 * @id: its ID
 *
 * Return: true if it was attached since it was added.
 */
bool __lkst_event_recorded(unsigned int id)
{
	lockdep_assert_held(&lkst_mutex);
	return lkst_dyn_desc(id) &&
	       test_bit(id - LKST_EV_DYN_FIRST, lkst_dyn_recorded);
}

/**
 * __lkst_event_remove - take a dynamic event away
 * @id: its ID; no maskset may have a line for it
 *
 * The event is detached and no longer found.  Its consumer may still be
 * called, and its description read, until an RCU grace period has passed.
 */
void __lkst_event_remove(unsigned int id)
{
	lockdep_assert_held(&lkst_mutex);
	if (!lkst_dyn_desc(id))
		return;
	if (__test_and_clear_bit(id, lkst_attached))
		lkst_dyn_arm(lkst_dyn_desc(id), false);
	RCU_INIT_POINTER(lkst_dyn_descs[id - LKST_EV_DYN_FIRST], NULL);
}
#else
static const struct lkst_event_desc *lkst_dyn_desc(unsigned int id)
{
	return NULL;
}

static int lkst_dyn_arm(const struct lkst_event_desc *d, bool on)
{
	return -ENODEV;
}
#endif

/**
 * lkst_event_desc - the description of an available event
 * @id: event ID
 *
 * A dynamic event's description stays valid while lkst_mutex or the RCU
 * read lock is held.
 *
 * Return: the event, or NULL if @id is unused or configured out.
 */
const struct lkst_event_desc *lkst_event_desc(unsigned int id)
{
	if (id >= LKST_EV_DYN_FIRST)
		return lkst_dyn_desc(id);
	if (id >= LKST_NR_EVENTS || !lkst_events[id].name)
		return NULL;
	return &lkst_events[id];
}
EXPORT_SYMBOL_IF_KUNIT(lkst_event_desc);

/**
 * lkst_event_next - iterate over the available events
 * @d: the previous event, or NULL to start
 *
 * Return: the available event with the next higher ID, or NULL.
 */
const struct lkst_event_desc *lkst_event_next(const struct lkst_event_desc *d)
{
	const struct lkst_event_desc *next;
	unsigned int id;

	for (id = d ? d->id + 1 : 0; id < LKST_NR_IDS; id++) {
		next = lkst_event_desc(id);
		if (next)
			return next;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_event_next);

/**
 * lkst_event_lookup - find an available event by name
 * @name: e.g. "PROCESS_CONTEXTSWITCH"
 *
 * Return: the event, or NULL.
 */
const struct lkst_event_desc *lkst_event_lookup(const char *name)
{
	const struct lkst_event_desc *d;

	for (d = lkst_event_next(NULL); d; d = lkst_event_next(d))
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_event_lookup);

/* Fixed events have their own attach/detach, dynamic ones arm a kprobe. */
static int lkst_event_attach(const struct lkst_event_desc *d)
{
	if (d->id >= LKST_EV_DYN_FIRST)
		return lkst_dyn_arm(d, true);
	return d->attach();
}

static void lkst_event_detach(const struct lkst_event_desc *d)
{
	if (d->id >= LKST_EV_DYN_FIRST)
		lkst_dyn_arm(d, false);
	else
		d->detach();
}

bool __lkst_event_attached(unsigned int id)
{
	lockdep_assert_held(&lkst_mutex);
	return id < LKST_NR_IDS && test_bit(id, lkst_attached);
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_event_attached);

/**
 * __lkst_events_attach - attach the probes of every event in @need
 * @need: bitmap of event IDs
 *
 * Events already attached are left alone.  On failure, the probes this
 * call attached are detached again, so the set is unchanged.
 *
 * Return: 0 or the -errno of the failing tracepoint registration.
 */
int __lkst_events_attach(const unsigned long *need)
{
	DECLARE_BITMAP(done, LKST_NR_IDS);
	const struct lkst_event_desc *d;
	unsigned int id;
	int ret;

	lockdep_assert_held(&lkst_mutex);
	bitmap_zero(done, LKST_NR_IDS);

	for_each_set_bit(id, need, LKST_NR_IDS) {
		d = lkst_event_desc(id);
		if (!d || test_bit(id, lkst_attached))
			continue;
		ret = lkst_event_attach(d);
		if (ret) {
			pr_warn("cannot attach event %s (%s): %d\n",
				d->name, d->hook, ret);
			goto unwind;
		}
		__set_bit(id, done);
		__set_bit(id, lkst_attached);
	}
	return 0;

unwind:
	for_each_set_bit(id, done, LKST_NR_IDS) {
		lkst_event_detach(lkst_event_desc(id));
		__clear_bit(id, lkst_attached);
	}
	return ret;
}

/**
 * __lkst_events_detach_unneeded - detach every attached event not in @need
 * @need: bitmap of event IDs still in use
 *
 * The probes may still be running on other CPUs when this returns:
 * callers free what the probes can see only after
 * lkst_synchronize_readers().
 */
void __lkst_events_detach_unneeded(const unsigned long *need)
{
	unsigned int id;

	lockdep_assert_held(&lkst_mutex);
	for_each_set_bit(id, lkst_attached, LKST_NR_IDS) {
		if (test_bit(id, need))
			continue;
		lkst_event_detach(lkst_event_desc(id));
		__clear_bit(id, lkst_attached);
	}
}

/* available_events: "ID NAME arg0 arg1 arg2 arg3" */
void lkst_events_print(struct seq_buf *s)
{
	const struct lkst_event_desc *d;
	int i;

	guard(rcu)();
	for (d = lkst_event_next(NULL); d; d = lkst_event_next(d)) {
		seq_buf_printf(s, "%u %s", d->id, d->name);
		for (i = 0; i < LKST_NR_ARGS; i++)
			seq_buf_printf(s, " %s", d->args[i]);
		seq_buf_putc(s, '\n');
	}
}
EXPORT_SYMBOL_IF_KUNIT(lkst_events_print);
