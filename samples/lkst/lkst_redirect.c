// SPDX-License-Identifier: GPL-2.0-only
/*
 * LKST sample: capture one task's events in a buffer of its own.
 *
 * The handler REDIRECT records every event it is given.  Events of the
 * task whose pid is target_pid go to the buffer named by the buffer
 * parameter; all others go, as with DEFAULT, to the buffer of their
 * maskset line.  The per-task buffer is not overwritten by the rest of
 * the system's activity, so it keeps much more of that task's history.
 *
 * The administrator creates the buffer before loading the module, which
 * looks it up once with lkst_buffer_get() (the handler runs in atomic
 * context and cannot look names up):
 *
 *   # cd /sys/kernel/tracing/lkst
 *   # echo capture >> user_buffers
 *   # modprobe lkst_redirect buffer=capture target_pid=1234
 *   # echo mine >> user_masksets
 *   # printf 'PROCESS_CONTEXTSWITCH REDIRECT\nSYSCALL_ENTRY REDIRECT\n' \
 *	> masksets/mine
 *   # echo mine > maskset
 *   # cat ../instances/lkst.capture/trace	# only pid 1234
 *   # cat ../instances/lkst/trace		# everybody else
 *
 * The reference taken by lkst_buffer_get() keeps the buffer's memory, not
 * its name: if the administrator removes the buffer from user_buffers
 * anyway, the handler goes on writing into memory nobody can read until
 * the module is removed.  target_pid can be changed at any time.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/lkst.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static char *buffer = "redirect";
module_param(buffer, charp, 0444);
MODULE_PARM_DESC(buffer, "name of the user buffer for the target task (looked up at load)");

/* Read by the handler in any context: see lkst_pid_filter.c */
static int target_pid = -1;

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
MODULE_PARM_DESC(target_pid, "pid of the task whose events are redirected (-1: none)");

static struct lkst_buffer *target_buf;

/*
 * @buf is the buffer of the maskset line (the default buffer when the
 * line names none); lkst_record() may be given any buffer we hold.
 */
static void redirect_fn(struct lkst_handler *h, struct lkst_buffer *buf,
			unsigned int event, pid_t pid, const u64 *args)
{
	if (pid == READ_ONCE(target_pid))
		buf = target_buf;
	lkst_record(buf, event, h->id, pid, args);
}

static struct lkst_handler redirect_handler = {
	.name	= "REDIRECT",
	.owner	= THIS_MODULE,
	.func	= redirect_fn,
};

static int __init lkst_redirect_init(void)
{
	int ret;

	target_buf = lkst_buffer_get(buffer);
	if (!target_buf) {
		pr_err("no buffer named %s; create it with: echo %s >> user_buffers\n",
		       buffer, buffer);
		return -ENOENT;
	}
	ret = lkst_register_handler(&redirect_handler);
	if (ret) {
		lkst_buffer_put(target_buf);
		return ret;
	}
	pr_info("handler %s registered with ID %u, redirects to buffer %s\n",
		redirect_handler.name, redirect_handler.id, buffer);
	return 0;
}

static void __exit lkst_redirect_exit(void)
{
	lkst_unregister_handler(&redirect_handler);
	lkst_buffer_put(target_buf);
}

module_init(lkst_redirect_init);
module_exit(lkst_redirect_exit);

MODULE_AUTHOR("Seed 896462b0 maintainers <maintainers@users.noreply.a-seed-896462b0.example>");
MODULE_DESCRIPTION("LKST sample: capture one task's events in a buffer of its own");
MODULE_LICENSE("GPL");
