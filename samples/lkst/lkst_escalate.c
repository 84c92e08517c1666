// SPDX-License-Identifier: GPL-2.0-only
/*
 * LKST sample: switch to a more detailed maskset when something goes wrong.
 *
 * A flight recorder can run with a cheap maskset most of the time and
 * record in detail only once trouble starts.  This module registers the
 * handler ESCALATE, which records nothing by itself but watches the
 * events it is given for two conditions:
 *
 *  - PROCESS_SIGSEND of SIGSEGV or SIGBUS (a task is about to crash);
 *  - a system call that took longer than slow_syscall_us microseconds
 *    (route both SYSCALL_ENTRY and SYSCALL_EXIT to ESCALATE; 0, the
 *    default, turns this check off).
 *
 * On either, it records the triggering event (with its own handler ID; for
 * a slow call, arg2 of the SYSCALL_EXIT record holds the duration in
 * microseconds), switches to the maskset named by the detail parameter with
 * lkst_maskset_switch(), right there in the tracepoint, and wakes up
 * whoever polls lkst/notify, giving the event ID as the reason:
 *
 *   # cd /sys/kernel/tracing/lkst
 *   # echo quiet >> user_masksets
 *   # printf 'PROCESS_SIGSEND ESCALATE\nPROCESS_EXIT DEFAULT\n' > masksets/quiet
 *   # modprobe lkst_escalate detail=RALL
 *   # echo quiet > maskset
 *   ... a task gets SIGSEGV ...
 *   # cat maskset notify
 *   RALL
 *   1 3
 *
 * The detail maskset is looked up once, at load, with lkst_maskset_get():
 * the handler runs in atomic context, where it could not take the mutex
 * that a lookup by name needs.  The reference also keeps a user maskset
 * from being removed while the module is loaded.  Going back to the quiet
 * maskset is left to the administrator (or to the program that polls
 * lkst/notify), after it has saved the buffer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/lkst.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched/clock.h>
#include <linux/signal.h>
#include <linux/time64.h>

static char *detail = "RALL";
module_param(detail, charp, 0444);
MODULE_PARM_DESC(detail, "maskset to switch to on a trigger (looked up at load)");

static unsigned int slow_syscall_us;
module_param(slow_syscall_us, uint, 0644);
MODULE_PARM_DESC(slow_syscall_us, "escalate on a system call slower than this (0: off)");

static atomic_t escalations = ATOMIC_INIT(0);

static int escalations_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&escalations));
}

/* No .set: the parameter is read-only, a counter for the administrator. */
static const struct kernel_param_ops escalations_ops = {
	.get	= escalations_get,
};

module_param_cb(escalations, &escalations_ops, NULL, 0444);
MODULE_PARM_DESC(escalations, "number of triggers so far");

static struct lkst_maskset *detail_ms;

/*
 * Start times of system calls in progress.  The handler may not allocate,
 * so a fixed table indexed by pid is used; two tasks whose pids collide
 * can hide each other's slow call, which is fine for a heuristic.
 *
 * Each slot packs the pid (low 22 bits: pid_max is at most 2^22) and the
 * start time in units of 1024 ns (high 42 bits, wrapping after ~52 days)
 * into one atomic64_t, so that a slot is always read whole, whatever the
 * other CPUs do.
 */
#define SLOT_BITS	10
#define PID_BITS	22
#define PID_MASK	((1ULL << PID_BITS) - 1)
#define TIME_SHIFT	10

static atomic64_t syscall_start[1 << SLOT_BITS];

static atomic64_t *syscall_slot(pid_t pid)
{
	return &syscall_start[pid & ((1 << SLOT_BITS) - 1)];
}

static u64 time_units(void)
{
	return local_clock() >> TIME_SHIFT;
}

/* Record why, switch, tell user space.  Safe in any context. */
static void escalate(struct lkst_handler *h, struct lkst_buffer *buf,
		     unsigned int event, pid_t pid, const u64 *args)
{
	lkst_record(buf, event, h->id, pid, args);
	lkst_maskset_switch(detail_ms);
	atomic_inc(&escalations);
	lkst_notify(event);
}

static void escalate_fn(struct lkst_handler *h, struct lkst_buffer *buf,
			unsigned int event, pid_t pid, const u64 *args)
{
	unsigned int threshold = READ_ONCE(slow_syscall_us);
	u64 a[LKST_NR_ARGS], start, ns;

	switch (event) {
	case LKST_EV_PROCESS_SIGSEND:
		/* args: sig, target pid, group, result */
		if (args[0] == SIGSEGV || args[0] == SIGBUS)
			escalate(h, buf, event, pid, args);
		break;
	case LKST_EV_SYSCALL_ENTRY:
		if (threshold)
			atomic64_set(syscall_slot(pid),
				     time_units() << PID_BITS | (u64)pid);
		break;
	case LKST_EV_SYSCALL_EXIT:
		/* Take the slot, so that one call is judged only once. */
		start = atomic64_xchg(syscall_slot(pid), 0);
		if (!threshold || !start || (start & PID_MASK) != pid)
			break;
		/* Unsigned subtraction, masked: correct across the wrap. */
		ns = ((time_units() - (start >> PID_BITS)) &
		      ((1ULL << (64 - PID_BITS)) - 1)) << TIME_SHIFT;
		if (ns < (u64)threshold * NSEC_PER_USEC)
			break;
		/* args: nr, ret; put the duration in the unused arg2 */
		memcpy(a, args, sizeof(a));
		a[2] = div_u64(ns, NSEC_PER_USEC);
		escalate(h, buf, event, pid, a);
		break;
	}
}

static struct lkst_handler escalate_handler = {
	.name	= "ESCALATE",
	.owner	= THIS_MODULE,
	.func	= escalate_fn,
};

static int __init lkst_escalate_init(void)
{
	int ret;

	detail_ms = lkst_maskset_get(detail);
	if (!detail_ms) {
		pr_err("no maskset named %s\n", detail);
		return -ENOENT;
	}
	ret = lkst_register_handler(&escalate_handler);
	if (ret) {
		lkst_maskset_put(detail_ms);
		return ret;
	}
	pr_info("handler %s registered with ID %u, escalates to %s\n",
		escalate_handler.name, escalate_handler.id, detail);
	return 0;
}

/* The reverse of init: no maskset uses the handler once exit can run. */
static void __exit lkst_escalate_exit(void)
{
	lkst_unregister_handler(&escalate_handler);
	lkst_maskset_put(detail_ms);
}

module_init(lkst_escalate_init);
module_exit(lkst_escalate_exit);

MODULE_AUTHOR("Seed 896462b0 maintainers <maintainers@users.noreply.a-seed-896462b0.example>");
MODULE_DESCRIPTION("LKST sample: switch to a detailed maskset on a crash or a slow system call");
MODULE_LICENSE("GPL");
