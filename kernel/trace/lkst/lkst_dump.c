// SPDX-License-Identifier: GPL-2.0
/*
 * Dump the last records of the default buffer to the console when the
 * kernel oopses or panics: lkst.dump_on_oops=N on the command line, or N
 * written to lkst/dump_on_oops, prints the last N records of every CPU,
 * LKST_DUMP_MAX in all at the most, merged by time, in the format of
 * instances/lkst/trace, through ftrace_dump_instance().  That dump
 * allocates nothing, consumes nothing, waits for no lock and is bounded:
 * see its comment.  The instance can be resized while N is set.
 *
 * After a panic recording stays off, so that what the console showed
 * stays in the buffer for the persistent buffer and a vmcore; so it does
 * after an oops that oops_end() makes a panic (panic_on_oops, an oops in
 * interrupt context), whose panic then prints no second dump.  Any other
 * oops may be survived: recording goes on as it was, so that the flight
 * recorder has the next crash too.
 *
 * On a panic, the panic notifiers run only if kdump is not loaded or the
 * command line has crash_kexec_post_notifiers: see
 * Documentation/trace/lkst/crash.rst.
 */
#include <kunit/visibility.h>
#include <linux/init.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/panic.h>
#include <linux/panic_notifier.h>
#include <linux/printk.h>
#include <linux/tracefs.h>

#include "../trace.h"
#include "lkst_internal.h"

static unsigned int lkst_dump_nr;
static unsigned int lkst_dump_boot_nr __initdata;
static DEFINE_MUTEX(lkst_dump_lock);
/* An oops's dump stopped recording for the panic that follows */
static bool lkst_dump_stopped;

static int __init lkst_set_dump_on_oops(char *str)
{
	if (kstrtouint(str, 10, &lkst_dump_boot_nr) ||
	    lkst_dump_boot_nr > LKST_DUMP_MAX) {
		pr_warn("lkst.dump_on_oops=%s: not a number in [0, %u]\n",
			str, LKST_DUMP_MAX);
		lkst_dump_boot_nr = 0;
	}
	return 1;
}
__setup("lkst.dump_on_oops=", lkst_set_dump_on_oops);

static void lkst_dump(const char *why, bool panic)
{
	unsigned int nr = READ_ONCE(lkst_dump_nr);
	struct lkst_buffer *buf = lkst_buffer_default();
	int lines;
	bool on;

	if (!nr || !buf)
		return;
	if (panic && lkst_dump_stopped) {
		pr_emerg("lkst: dump on panic: nothing new since the dump on oops, which stopped recording\n");
		return;
	}
	/* What the console shows is what stays in the buffer. */
	on = tracer_tracing_is_on(buf->tr);
	tracer_tracing_off(buf->tr);
	pr_emerg("lkst: dump on %s: the last %u records of each CPU of instances/%s\n",
		 why, nr, buf->tr->name);
	lines = ftrace_dump_instance(buf->tr, nr, LKST_DUMP_MAX);
	if (lines == -EBUSY)
		pr_emerg("lkst: dump on %s: none, another dump is running\n", why);
	else if (lines < 0)
		pr_emerg("lkst: dump on %s: none, the dump is not set up (%d)\n",
			 why, lines);
	else
		pr_emerg("lkst: dump on %s: %d records\n", why, lines);
	/*
	 * The kernel may survive an oops: go on recording for the next one.
	 * After a panic, or an oops that is about to be one (oops_end()
	 * panics on an oops in interrupt context or with panic_on_oops,
	 * make_task_dead() on one of the idle task or of init), the buffer
	 * keeps what the console showed, without the oops's own lines that
	 * the console prints afterwards.
	 */
	if (!panic) {
		if (panic_on_oops || in_interrupt() || !current->pid ||
		    is_global_init(current))
			lkst_dump_stopped = true;
		else if (on)
			tracer_tracing_on(buf->tr);
	}
}

static int lkst_dump_die_notify(struct notifier_block *nb, unsigned long val,
				void *data)
{
	if (val == DIE_OOPS)
		lkst_dump("oops", false);
	return NOTIFY_DONE;
}

static struct notifier_block lkst_dump_die_nb = {
	.notifier_call	= lkst_dump_die_notify,
};

static int lkst_dump_panic_notify(struct notifier_block *nb,
				  unsigned long val, void *data)
{
	lkst_dump("panic", true);
	return NOTIFY_DONE;
}

static struct notifier_block lkst_dump_panic_nb = {
	.notifier_call	= lkst_dump_panic_notify,
	/* Before the notifiers that reboot (panic=N does not use one). */
	.priority	= INT_MAX - 1,
};

/**
 * lkst_dump_set - set how many records of each CPU an oops or panic dumps
 * @nr: records per CPU, 0 to dump nothing
 *
 * The dump's iterators are allocated again, so that CPUs that came online
 * since are dumped too.
 *
 * Context: process context.
 * Return: 0; -EINVAL if @nr is above LKST_DUMP_MAX; -ENOMEM.
 */
int lkst_dump_set(unsigned int nr)
{
	struct lkst_buffer *buf = lkst_buffer_default();
	int ret;

	if (nr > LKST_DUMP_MAX)
		return -EINVAL;
	guard(mutex)(&lkst_dump_lock);
	if (nr) {
		ret = trace_array_dump_prepare(buf->tr);
		if (ret)
			return ret;
	} else {
		trace_array_dump_release(buf->tr);
	}
	WRITE_ONCE(lkst_dump_nr, nr);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dump_set);

unsigned int lkst_dump_get(void)
{
	return READ_ONCE(lkst_dump_nr);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dump_get);

/* dump_on_oops */

static ssize_t lkst_dump_read(struct file *filp, char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	char tmp[16];
	int len;

	len = snprintf(tmp, sizeof(tmp), "%u\n", lkst_dump_get());
	return simple_read_from_buffer(ubuf, cnt, ppos, tmp, len);
}

static ssize_t lkst_dump_write(struct file *filp, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	char text[24], *p;
	unsigned int nr;
	int ret;

	ret = lkst_get_user_text("dump_on_oops", ubuf, cnt, text, sizeof(text));
	if (ret)
		return ret;
	p = strim(text);
	if (kstrtouint(p, 10, &nr)) {
		lkst_log_err("dump_on_oops", p, LKST_ERR_NOT_NUMBER, 0);
		return -EINVAL;
	}
	if (nr > LKST_DUMP_MAX) {
		lkst_log_err("dump_on_oops", p, LKST_ERR_DUMP_RANGE, 0);
		return -EINVAL;
	}
	ret = lkst_dump_set(nr);
	if (ret == -ENOMEM)
		lkst_log_err("dump_on_oops", p, LKST_ERR_NO_MEMORY, 0);
	return ret ? ret : cnt;
}

static const struct file_operations lkst_dump_fops = {
	.open		= tracing_open_generic,
	.read		= lkst_dump_read,
	.write		= lkst_dump_write,
	.llseek		= default_llseek,
};

int lkst_dump_create_files(struct dentry *top)
{
	if (!trace_create_file("dump_on_oops", TRACE_MODE_WRITE, top, NULL,
			       &lkst_dump_fops))
		return -ENOMEM;
	return 0;
}

int __init lkst_dump_init(void)
{
	int ret;

	ret = register_die_notifier(&lkst_dump_die_nb);
	if (ret)
		return ret;
	atomic_notifier_chain_register(&panic_notifier_list,
				       &lkst_dump_panic_nb);
	if (lkst_dump_boot_nr)
		return lkst_dump_set(lkst_dump_boot_nr);
	return 0;
}
