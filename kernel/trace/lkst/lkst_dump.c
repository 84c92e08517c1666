// SPDX-License-Identifier: GPL-2.0
/*
 * Dump the last records of the default buffer to the console when the
 * kernel oopses or panics: lkst.dump_on_oops=N on the command line, or N
 * written to lkst/dump_on_oops, prints the last N records of every CPU,
 * merged by time, in the trace file's format, between the lines
 * "LKST dump begin" and "LKST dump end".
 *
 * The dump runs in a dying kernel, so it allocates nothing, never sleeps
 * and does not consume:
 *
 * - the per-CPU ring-buffer iterators it reads with are allocated when N
 *   becomes non-zero and kept.  As long as they exist the ring buffer
 *   cannot be resized, so lkst_buffer_resize() of the default buffer lets
 *   them go for the time of the resize (lkst_dump_suspend()/resume());
 * - each line is formatted into a static buffer;
 * - one dump runs per boot: the first CPU to oops or panic prints it,
 *   later oopses print nothing (the console would otherwise repeat the
 *   same records);
 * - recording into the default buffer stops when the dump starts, so that
 *   what the console shows is what stays in the buffer, for the persistent
 *   buffer and for a vmcore.  tracing_on reads 0 after an oops that the
 *   kernel survived; write 1 to record again.
 *
 * Limits: the iterators take each CPU buffer's reader lock.  A CPU that
 * was stopped (by the panic's NMI) while holding it, that is while reading
 * that CPU's raw or trace file, makes the dump wait for that lock forever,
 * as ftrace_dump_on_oops and kdb's ftdump would.  CPUs that came online
 * after N was set have no iterator and are left out of the dump.  On a
 * panic, the panic notifiers run only if kdump is not loaded or the
 * command line has crash_kexec_post_notifiers: see Documentation/trace/lkst.rst.
 */
#include <kunit/visibility.h>
#include <linux/init.h>
#include <linux/kdebug.h>
#include <linux/nmi.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/printk.h>
#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/tracefs.h>

#include "../trace.h"
#include "lkst_internal.h"

static unsigned int lkst_dump_nr;
static unsigned int lkst_dump_boot_nr __initdata;
/* The iterators, published for the dump; replaced under lkst_dump_lock. */
static struct lkst_dump_iters *lkst_dump_its;
static DEFINE_MUTEX(lkst_dump_lock);
static atomic_t lkst_dump_done = ATOMIC_INIT(0);
static char lkst_dump_line[LKST_DUMP_LINE_MAX];

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

/**
 * lkst_dump_iters_alloc - iterators over every CPU of a buffer
 * @rb: the ring buffer
 *
 * CPUs the ring buffer has not set up (never online) get none.
 *
 * Return: the iterators, or NULL.
 */
struct lkst_dump_iters *lkst_dump_iters_alloc(struct trace_buffer *rb)
{
	struct lkst_dump_iters *di;
	int cpu;

	di = kzalloc(struct_size(di, cpu, nr_cpu_ids), GFP_KERNEL);
	if (!di)
		return NULL;
	di->rb = rb;
	di->nr_cpus = nr_cpu_ids;
	for_each_possible_cpu(cpu)
		di->cpu[cpu].it = ring_buffer_read_start(rb, cpu, GFP_KERNEL);
	return di;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dump_iters_alloc);

void lkst_dump_iters_free(struct lkst_dump_iters *di)
{
	unsigned int cpu;

	if (!di)
		return;
	for (cpu = 0; cpu < di->nr_cpus; cpu++)
		if (di->cpu[cpu].it)
			ring_buffer_read_finish(di->cpu[cpu].it);
	kfree(di);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dump_iters_free);

/* The next LKST record of @it, skipping other events. */
static struct lkst_record *lkst_dump_peek(struct ring_buffer_iter *it, u64 *ts)
{
	struct ring_buffer_event *ev;

	while ((ev = ring_buffer_iter_peek(it, ts))) {
		if (lkst_event_is_record(ev, false))
			return ring_buffer_event_data(ev);
		ring_buffer_iter_advance(it);
	}
	return NULL;
}

/* Put @it on the first of its last @nr records; return how many follow. */
static unsigned int lkst_dump_seek(struct ring_buffer_iter *it, unsigned int nr)
{
	unsigned int n = 0, skip;
	u64 ts;

	ring_buffer_iter_reset(it);
	for (; lkst_dump_peek(it, &ts); ring_buffer_iter_advance(it))
		n++;
	ring_buffer_iter_reset(it);
	for (skip = n > nr ? n - nr : 0; skip && lkst_dump_peek(it, &ts); skip--)
		ring_buffer_iter_advance(it);
	return min(n, nr);
}

/**
 * lkst_dump_records - format the last records of every CPU, merged by time
 * @di: iterators from lkst_dump_iters_alloc()
 * @nr: how many of the last records of each CPU
 * @out: called with each line (NUL-terminated, ending in a newline)
 * @data: passed to @out
 *
 * Does not allocate, sleep or consume: it can run again over the same
 * records.  Lines are formatted by lkst_record_print() into one static
 * buffer, so calls must not run concurrently (lkst_dump() runs once).
 *
 * Return: the number of lines.
 */
unsigned int lkst_dump_records(struct lkst_dump_iters *di, unsigned int nr,
			       void (*out)(const char *line, void *data),
			       void *data)
{
	unsigned int cpu, lines = 0;
	struct seq_buf s;

	for (cpu = 0; cpu < di->nr_cpus; cpu++)
		di->cpu[cpu].left = di->cpu[cpu].it ?
				    lkst_dump_seek(di->cpu[cpu].it, nr) : 0;
	for (;;) {
		struct lkst_record *rec, *min_rec = NULL;
		unsigned int min_cpu = 0;
		u64 ts, min_ts = 0;

		for (cpu = 0; cpu < di->nr_cpus; cpu++) {
			if (!di->cpu[cpu].left)
				continue;
			rec = lkst_dump_peek(di->cpu[cpu].it, &ts);
			if (!rec) {
				di->cpu[cpu].left = 0;
				continue;
			}
			if (!min_rec || ts < min_ts) {
				min_rec = rec;
				min_ts = ts;
				min_cpu = cpu;
			}
		}
		if (!min_rec)
			break;
		seq_buf_init(&s, lkst_dump_line, sizeof(lkst_dump_line));
		lkst_record_print(&s, min_rec, min_cpu, min_ts);
		/* A truncated line still ends the line. */
		if (seq_buf_has_overflowed(&s))
			lkst_dump_line[sizeof(lkst_dump_line) - 2] = '\n';
		out(seq_buf_str(&s), data);
		lines++;
		ring_buffer_iter_advance(di->cpu[min_cpu].it);
		di->cpu[min_cpu].left--;
	}
	return lines;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dump_records);

static void lkst_dump_print(const char *line, void *data)
{
	pr_emerg("%s", line);
	/* A slow serial console takes ~10 ms a line. */
	touch_nmi_watchdog();
}

static void lkst_dump(const char *why)
{
	unsigned int nr = READ_ONCE(lkst_dump_nr);
	struct lkst_buffer *buf = lkst_buffer_default();
	struct lkst_dump_iters *di;
	unsigned long flags;
	unsigned int lines;
	bool swapped;

	if (!nr || !buf || atomic_cmpxchg(&lkst_dump_done, 0, 1))
		return;
	/* Keeps lkst_dump_suspend() from freeing the iterators meanwhile. */
	local_irq_save(flags);
	/* What the console shows is what stays in the buffer. */
	tracer_tracing_off(buf->tr);
	di = READ_ONCE(lkst_dump_its);
	/* A snapshot of instances/lkst swapped the buffer under them */
	swapped = di && di->rb != lkst_buffer_rb(buf);
	pr_emerg("lkst: dump on %s: the last %u records of each CPU of the default buffer\n",
		 why, nr);
	pr_emerg("LKST dump begin\n");
	lines = di && !swapped ? lkst_dump_records(di, nr, lkst_dump_print, NULL) : 0;
	pr_emerg("LKST dump end\n");
	pr_emerg("lkst: dump on %s: %u records%s\n", why, lines,
		 !di ? " (the buffer was being resized)" :
		 swapped ? " (a snapshot of instances/lkst swapped the buffer)" : "");
	local_irq_restore(flags);
}

static int lkst_dump_die_notify(struct notifier_block *nb, unsigned long val,
				void *data)
{
	if (val == DIE_OOPS)
		lkst_dump("oops");
	return NOTIFY_DONE;
}

static struct notifier_block lkst_dump_die_nb = {
	.notifier_call	= lkst_dump_die_notify,
};

static int lkst_dump_panic_notify(struct notifier_block *nb,
				  unsigned long val, void *data)
{
	lkst_dump("panic");
	return NOTIFY_DONE;
}

static struct notifier_block lkst_dump_panic_nb = {
	.notifier_call	= lkst_dump_panic_notify,
	/* Before the notifiers that reboot (panic=N does not use one). */
	.priority	= INT_MAX - 1,
};

/* Swap in new iterators (or none); the dump may be reading the old ones. */
static void __lkst_dump_replace(struct lkst_dump_iters *di)
{
	struct lkst_dump_iters *old;

	lockdep_assert_held(&lkst_dump_lock);
	old = lkst_dump_its;
	WRITE_ONCE(lkst_dump_its, di);
	if (old) {
		/* The dump reads them with interrupts disabled. */
		synchronize_rcu();
		lkst_dump_iters_free(old);
	}
}

/**
 * lkst_dump_set - set how many records of each CPU an oops or panic dumps
 * @nr: records per CPU, 0 to dump nothing
 *
 * Iterators are allocated again, so that CPUs that came online since are
 * dumped too.
 *
 * Context: process context.
 * Return: 0; -EINVAL if @nr is above LKST_DUMP_MAX; -ENOMEM.
 */
int lkst_dump_set(unsigned int nr)
{
	struct lkst_dump_iters *di = NULL;

	if (nr > LKST_DUMP_MAX)
		return -EINVAL;
	guard(mutex)(&lkst_dump_lock);
	/* New iterators also for CPUs that came online since the last time */
	if (nr) {
		di = lkst_dump_iters_alloc(lkst_buffer_rb(lkst_buffer_default()));
		if (!di)
			return -ENOMEM;
	}
	__lkst_dump_replace(di);
	WRITE_ONCE(lkst_dump_nr, nr);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dump_set);

unsigned int lkst_dump_get(void)
{
	return READ_ONCE(lkst_dump_nr);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dump_get);

/*
 * Iterators keep the ring buffer from being resized: drop them meanwhile.
 * Returns with lkst_dump_lock held, until lkst_dump_resume().
 */
void lkst_dump_suspend(void)
{
	mutex_lock(&lkst_dump_lock);
	__lkst_dump_replace(NULL);
}

void lkst_dump_resume(void)
{
	if (lkst_dump_nr)
		__lkst_dump_replace(lkst_dump_iters_alloc(lkst_buffer_rb(lkst_buffer_default())));
	mutex_unlock(&lkst_dump_lock);
}

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
