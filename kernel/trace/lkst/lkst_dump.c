// SPDX-License-Identifier: GPL-2.0
/*
 * Dump the last records of the default buffer to the console when the
 * kernel oopses or panics: lkst.dump_on_oops=N on the command line, or N
 * written to lkst/dump_on_oops, prints the last N records of every CPU,
 * merged by time, in the trace file's format, between the lines
 * "LKST dump begin" and "LKST dump end".
 *
 * The dump runs in a dying kernel, maybe in NMI (a hard lockup, an
 * unknown NMI), so it allocates nothing, never sleeps, never waits for a
 * lock and does not consume:
 *
 * - the per-CPU ring-buffer iterators it reads with are allocated when N
 *   becomes non-zero and kept.  As long as they exist the ring buffer
 *   cannot be resized, so lkst_buffer_resize() of the default buffer lets
 *   them go for the time of the resize (lkst_dump_suspend()/resume());
 * - each read of a CPU buffer tries its reader lock
 *   (ring_buffer_iter_trylock()).  A CPU whose lock is held, by a reader
 *   that the panic stopped or that the NMI interrupted, is left out, and
 *   the line after the dump says so.  No lock is held between two reads,
 *   nor while a line is printed;
 * - each line is formatted into a static buffer, and one dump runs at a
 *   time;
 * - the whole dump is bounded: at most N records of each CPU and at most
 *   LKST_DUMP_MAX lines in all (the newest), ~10 s on a serial console;
 *   the watchdogs are touched while it walks the buffers and prints.
 *
 * Recording into the default buffer stops while the dump runs.  After a
 * panic it stays off, so that what the console showed stays in the buffer
 * for the persistent buffer and a vmcore; so it does after an oops that
 * oops_end() makes a panic (panic_on_oops, an oops in interrupt context),
 * whose panic then prints no second dump.  Any other oops may be
 * survived: recording goes on as it was, so that the flight recorder has
 * the next crash too, and the next dump prints only records newer than
 * the ones this one ended with.
 *
 * CPUs that came online after N was set have no iterator and are left
 * out of the dump.  On a panic, the panic notifiers run only if kdump is
 * not loaded or the command line has crash_kexec_post_notifiers: see
 * Documentation/trace/lkst.rst.
 */
#include <kunit/visibility.h>
#include <linux/init.h>
#include <linux/kdebug.h>
#include <linux/nmi.h>
#include <linux/notifier.h>
#include <linux/panic.h>
#include <linux/panic_notifier.h>
#include <linux/preempt.h>
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
static atomic_t lkst_dump_running = ATOMIC_INIT(0);
/* An oops's dump stopped recording for the panic that follows */
static bool lkst_dump_stopped;
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

/*
 * Each read of a CPU's iterator tries the CPU buffer's reader lock, and
 * never waits for it: a CPU whose lock is taken, by a reader that the
 * panic stopped or that this NMI interrupted, is left out from then on.
 * No lock is held from one read to the next, so none is held while the
 * dump prints, and a reader on another CPU waits for one read at most.
 */
static bool lkst_dump_trylock(struct lkst_dump_cpu *c)
{
	if (c->skipped)
		return false;
	if (ring_buffer_iter_trylock(c->it))
		return true;
	c->skipped = true;
	c->left = 0;
	return false;
}

/*
 * The next LKST record of @c, skipping other events: the iterator's copy,
 * valid until the next read of @c.
 */
static struct lkst_record *lkst_dump_peek(struct lkst_dump_cpu *c, u64 *ts)
{
	struct lkst_record *rec = NULL;
	struct ring_buffer_event *ev;

	if (!lkst_dump_trylock(c))
		return NULL;
	while ((ev = ring_buffer_iter_peek(c->it, ts))) {
		if (lkst_event_is_record(ev, false)) {
			rec = ring_buffer_event_data(ev);
			break;
		}
		ring_buffer_iter_advance(c->it);
	}
	ring_buffer_iter_unlock(c->it);
	return rec;
}

static void lkst_dump_advance(struct lkst_dump_cpu *c)
{
	if (!lkst_dump_trylock(c))
		return;
	ring_buffer_iter_advance(c->it);
	ring_buffer_iter_unlock(c->it);
}

static void lkst_dump_reset(struct lkst_dump_cpu *c)
{
	if (!lkst_dump_trylock(c))
		return;
	ring_buffer_iter_reset(c->it);
	ring_buffer_iter_unlock(c->it);
}

/* Walking a large buffer takes a while, with interrupts disabled. */
static void lkst_dump_step(struct lkst_dump_cpu *c, unsigned int *walked)
{
	lkst_dump_advance(c);
	if (!(++*walked % 1024))
		touch_nmi_watchdog();
}

/*
 * Is the record at @ts, the next of a walk in order, newer than what the
 * last dump saw?  @eq counts the walk's records at the timestamp the last
 * dump ended at.
 */
static bool lkst_dump_is_new(struct lkst_dump_cpu *c, u64 ts, unsigned int *eq)
{
	if (!c->dumped || ts > c->since_ts)
		return true;
	return ts == c->since_ts && ++*eq > c->since_run;
}

/*
 * Put @c's iterator on the first of its last @nr records that are newer
 * than what an earlier dump saw, and count them.
 */
static void lkst_dump_seek(struct lkst_dump_cpu *c, unsigned int nr)
{
	unsigned int n = 0, skip, walked = 0, eq = 0;
	u64 ts;

	c->seen = false;
	lkst_dump_reset(c);
	for (; lkst_dump_peek(c, &ts); lkst_dump_step(c, &walked)) {
		if (lkst_dump_is_new(c, ts, &eq))
			n++;
		if (!c->seen || ts != c->last_ts)
			c->last_run = 0;
		c->seen = true;
		c->last_ts = ts;
		c->last_run++;
	}
	lkst_dump_reset(c);
	skip = n > nr ? n - nr : 0;
	for (eq = 0; lkst_dump_peek(c, &ts); lkst_dump_step(c, &walked)) {
		if (!lkst_dump_is_new(c, ts, &eq))
			continue;
		if (!skip)
			break;
		skip--;
	}
	/* left out meanwhile: nothing of it */
	c->left = c->skipped ? 0 : min(n, nr);
}

/* The CPU whose next record is the oldest, or -1 if none is left. */
static int lkst_dump_oldest(struct lkst_dump_iters *di,
			    struct lkst_record **recp, u64 *tsp)
{
	struct lkst_record *rec;
	unsigned int cpu;
	int min_cpu = -1;
	u64 ts;

	for (cpu = 0; cpu < di->nr_cpus; cpu++) {
		struct lkst_dump_cpu *c = &di->cpu[cpu];

		if (!c->left)
			continue;
		rec = lkst_dump_peek(c, &ts);
		if (!rec) {
			c->left = 0;
			continue;
		}
		if (min_cpu < 0 || ts < *tsp) {
			*recp = rec;
			*tsp = ts;
			min_cpu = cpu;
		}
	}
	return min_cpu;
}

/**
 * lkst_dump_records - format the last records of every CPU, merged by time
 * @di: iterators from lkst_dump_iters_alloc()
 * @nr: how many of the last records of each CPU
 * @max: how many records in all, at the most: the newest are printed
 * @out: called with each line (NUL-terminated, ending in a newline)
 * @data: passed to @out
 *
 * Does not allocate, sleep, wait for a lock or consume, and holds no lock
 * while it calls @out.  A CPU whose reader lock is taken when it is read
 * is left out from then on, with its ->skipped set.  Records that
 * an earlier call over @di saw are not printed again: only those newer
 * than the newest of each CPU then.  Lines are formatted by
 * lkst_record_print() into one static buffer, so calls must not run
 * concurrently (lkst_dump() runs one at a time).
 *
 * Context: interrupts disabled.
 * Return: the number of lines.
 */
unsigned int lkst_dump_records(struct lkst_dump_iters *di, unsigned int nr,
			       unsigned int max,
			       void (*out)(const char *line, void *data),
			       void *data)
{
	unsigned int cpu, total = 0, lines = 0, walked = 0;
	struct lkst_record *rec;
	struct seq_buf s;
	int next;
	u64 ts;

	for (cpu = 0; cpu < di->nr_cpus; cpu++) {
		struct lkst_dump_cpu *c = &di->cpu[cpu];

		c->left = 0;
		c->skipped = false;
		if (!c->it)
			continue;
		lkst_dump_seek(c, nr);
		total += c->left;
	}
	/* One bound for the whole dump: the oldest go */
	for (; total > max; total--) {
		next = lkst_dump_oldest(di, &rec, &ts);
		if (next < 0)
			break;
		lkst_dump_step(&di->cpu[next], &walked);
		/* 0 already if the CPU was left out meanwhile */
		if (di->cpu[next].left)
			di->cpu[next].left--;
	}
	while ((next = lkst_dump_oldest(di, &rec, &ts)) >= 0) {
		seq_buf_init(&s, lkst_dump_line, sizeof(lkst_dump_line));
		lkst_record_print(&s, rec, next, ts);
		/* A truncated line still ends the line. */
		if (seq_buf_has_overflowed(&s))
			lkst_dump_line[sizeof(lkst_dump_line) - 2] = '\n';
		out(seq_buf_str(&s), data);
		lines++;
		lkst_dump_advance(&di->cpu[next]);
		/* 0 already if the CPU was left out meanwhile */
		if (di->cpu[next].left)
			di->cpu[next].left--;
	}
	for (cpu = 0; cpu < di->nr_cpus; cpu++) {
		struct lkst_dump_cpu *c = &di->cpu[cpu];

		if (!c->it || c->skipped)
			continue;
		if (c->seen) {
			c->dumped = true;
			c->since_ts = c->last_ts;
			c->since_run = c->last_run;
		}
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

/* "; cpu1, cpu3 left out: a reader holds each buffer's lock" */
static void lkst_dump_skipped(struct seq_buf *s, struct lkst_dump_iters *di)
{
	unsigned int cpu, n = 0;

	for (cpu = 0; cpu < di->nr_cpus; cpu++) {
		if (!di->cpu[cpu].skipped)
			continue;
		seq_buf_printf(s, "%scpu%u", n++ ? ", " : "; ", cpu);
	}
	if (n)
		seq_buf_printf(s, " left out: a reader holds %s buffer's lock",
			       n > 1 ? "each" : "its");
}

static void lkst_dump(const char *why, bool panic)
{
	unsigned int nr = READ_ONCE(lkst_dump_nr);
	struct lkst_buffer *buf = lkst_buffer_default();
	static char note[256];
	struct lkst_dump_iters *di;
	unsigned long flags;
	unsigned int lines;
	struct seq_buf s;
	bool swapped, on;

	if (!nr || !buf)
		return;
	if (atomic_cmpxchg(&lkst_dump_running, 0, 1)) {
		pr_emerg("lkst: dump on %s: none, another dump is running\n", why);
		return;
	}
	if (panic && lkst_dump_stopped) {
		pr_emerg("lkst: dump on panic: nothing new since the dump on oops, which stopped recording\n");
		goto out;
	}
	/* Keeps lkst_dump_suspend() from freeing the iterators meanwhile. */
	local_irq_save(flags);
	/* What the console shows is what stays in the buffer. */
	on = tracer_tracing_is_on(buf->tr);
	tracer_tracing_off(buf->tr);
	di = READ_ONCE(lkst_dump_its);
	/* A snapshot of instances/lkst swapped the buffer under them */
	swapped = di && di->rb != lkst_buffer_rb(buf);
	pr_emerg("lkst: dump on %s: the last %u records of each CPU of the default buffer, %u in all at the most\n",
		 why, nr, LKST_DUMP_MAX);
	pr_emerg("LKST dump begin\n");
	lines = di && !swapped ?
		lkst_dump_records(di, nr, LKST_DUMP_MAX, lkst_dump_print, NULL) : 0;
	pr_emerg("LKST dump end\n");
	seq_buf_init(&s, note, sizeof(note));
	if (!di)
		seq_buf_puts(&s, " (the buffer was being resized)");
	else if (swapped)
		seq_buf_puts(&s, " (a snapshot of instances/lkst swapped the buffer)");
	else
		lkst_dump_skipped(&s, di);
	if (seq_buf_has_overflowed(&s))
		memcpy(note + sizeof(note) - 4, "...", 4);
	pr_emerg("lkst: dump on %s: %u records%s\n", why, lines, seq_buf_str(&s));
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
	local_irq_restore(flags);
out:
	atomic_set(&lkst_dump_running, 0);
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
