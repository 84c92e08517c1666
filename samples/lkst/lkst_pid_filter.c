// SPDX-License-Identifier: GPL-2.0-only
/*
 * LKST sample: record the events of one task only.
 *
 * This is the t_pid example of the original LKST, as a handler module.
 * It registers the handler PID_FILTER, which records an event into the
 * buffer of its maskset line when the event happened in the task whose pid
 * is target_pid, and drops it otherwise.  target_pid can be changed at any
 * time, while the handler is in use:
 *
 *   # modprobe lkst_pid_filter target_pid=1234
 *   # cd /sys/kernel/tracing/lkst
 *   # echo pidonly >> user_masksets
 *   # printf 'PROCESS_CONTEXTSWITCH PID_FILTER\nSYSCALL_ENTRY PID_FILTER\n' \
 *	> masksets/pidonly
 *   # echo pidonly > maskset
 *   # echo 5678 > /sys/module/lkst_pid_filter/parameters/target_pid
 *   # cat trace
 *   ...  5678 SYSCALL_ENTRY: nr=0 a0=0x3 ... handler=2
 *
 * The default, -1, matches no task, so loading the module alone records
 * nothing.  While a maskset uses PID_FILTER the module cannot be removed
 * (rmmod says it is in use); switch to a maskset without it and remove the
 * handler from the table first.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/lkst.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

/*
 * The handler reads target_pid locklessly from any context, so it is
 * written and read with WRITE_ONCE()/READ_ONCE(): a change is seen by the
 * next event on every CPU, and never half-written.
 */
static int target_pid = -1;

/*
 * The "set" hook of the parameter: it runs for modprobe target_pid=N and
 * for every write to /sys/module/lkst_pid_filter/parameters/target_pid.
 * Rejecting a bad value here keeps the handler simple.
 */
static int target_pid_set(const char *val, const struct kernel_param *kp)
{
	int pid, ret;

	ret = kstrtoint(val, 0, &pid);
	if (ret)
		return ret;
	if (pid < -1)
		return -EINVAL;
	WRITE_ONCE(*(int *)kp->arg, pid);
	return 0;
}

static const struct kernel_param_ops target_pid_ops = {
	.set	= target_pid_set,
	.get	= param_get_int,
};

module_param_cb(target_pid, &target_pid_ops, &target_pid, 0644);
MODULE_PARM_DESC(target_pid, "pid of the task whose events are recorded (-1: none)");

/*
 * Called in tracepoint context with preemption disabled: no sleeping, no
 * allocation, no locks.  lkst_record() is safe in any context.  The
 * record carries our handler ID (h->id), so readers can tell which
 * handler wrote it ("handler=N" at the end of a trace line).
 */
static void pid_filter_fn(struct lkst_handler *h, struct lkst_buffer *buf,
			  unsigned int event, pid_t pid, const u64 *args)
{
	if (pid != READ_ONCE(target_pid))
		return;
	lkst_record(buf, event, h->id, pid, args);
}

static struct lkst_handler pid_filter_handler = {
	.name	= "PID_FILTER",
	.owner	= THIS_MODULE,
	.func	= pid_filter_fn,
};

static int __init lkst_pid_filter_init(void)
{
	int ret;

	ret = lkst_register_handler(&pid_filter_handler);
	if (ret)
		return ret;
	pr_info("handler %s registered with ID %u\n", pid_filter_handler.name,
		pid_filter_handler.id);
	return 0;
}

/*
 * A maskset that uses the handler holds a reference on this module, so
 * by the time this runs no maskset refers to the handler any more.
 */
static void __exit lkst_pid_filter_exit(void)
{
	lkst_unregister_handler(&pid_filter_handler);
}

module_init(lkst_pid_filter_init);
module_exit(lkst_pid_filter_exit);

MODULE_AUTHOR("Seed 896462b0 maintainers <maintainers@users.noreply.a-seed-896462b0.example>");
MODULE_DESCRIPTION("LKST sample: record the events of one task only");
MODULE_LICENSE("GPL");
