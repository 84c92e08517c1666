// SPDX-License-Identifier: GPL-2.0
/*
 * The persistent default buffer: with
 *
 *	reserve_mem=SIZE:ALIGN:LABEL lkst.persist=LABEL
 *
 * on the command line, the default buffer lives in memory that a warm
 * reboot (reboot -f, a panic with panic=N, a watchdog reset) does not
 * clear, and the records of the previous boot are readable in
 * lkst/last_boot/ after the next boot of the same kernel.
 *
 * The reserved memory holds a header page and, in the rest, the boot
 * mapped instance "lkst" (the default buffer), as trace_instance=NAME@LABEL
 * makes one.  LKST records from the first second of a boot (lkst.maskset=),
 * before anybody could read the previous boot's records there, so those
 * are first copied into the backup instance "lkst_last_boot", as
 * trace_instance=NAME=lkst would, in vmalloc memory, which holds them for
 * as long as this boot runs (the cost of the copy: the size of the
 * reserved memory, when it holds records of this kernel).
 *
 * The header says which kernel recorded (release and version strings),
 * its CPU count and the size, and how the boot ended (oops, panic, clean
 * reboot).  The previous boot's records are kept only if all of that
 * matches this boot and the ring buffer found every CPU's data valid:
 * otherwise last_boot/ is empty and last_boot/info and the kernel log say
 * why.  Nothing is attached in a kdump kernel, which must not touch the
 * memory of the kernel that crashed.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/crash_dump.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/kdebug.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/random.h>
#include <linux/reboot.h>
#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include <linux/tracefs.h>
#include <linux/utsname.h>

#include <asm/ring_buffer.h>

#include "../trace.h"
#include "lkst_internal.h"

static char lkst_persist_label[LKST_NAME_MAX] __initdata;

static int __init lkst_set_persist(char *str)
{
	strscpy(lkst_persist_label, str);
	return 1;
}
__setup("lkst.persist=", lkst_set_persist);

/* This boot's header, in the reserved memory; NULL if not persistent. */
static struct lkst_persist_hdr *lkst_persist_hdr;
/* ... until lkst_persist_attach() publishes it */
static struct lkst_persist_hdr *lkst_persist_new_hdr __initdata;

/* What last_boot/info shows, settled at boot. */
static struct {
	char			label[LKST_NAME_MAX];
	phys_addr_t		start;
	phys_addr_t		size;
	bool			attached;	/* this boot records into it */
	bool			kept;		/* last_boot/ has the records */
	char			reason[LKST_PERSIST_REASON_MAX];
	struct lkst_persist_hdr	prev;		/* the previous boot's header */
	unsigned long		records;
	u64			last_ts;	/* of its last record, ns */
	bool			panic_record;	/* an O_PANIC record was seen */
	long			text_delta;	/* KASLR: this boot - previous */
} lkst_last;

static struct lkst_buffer *lkst_last_buf;

/* The memory the records go to, after the header page; 0 if too small */
static phys_addr_t lkst_persist_records_size(phys_addr_t size)
{
	phys_addr_t records;

	if (size <= PAGE_SIZE)
		return 0;
	records = round_down(size - PAGE_SIZE, PAGE_SIZE);
	/* the ring buffer needs a meta page and three sub-buffers per CPU */
	if (records < (phys_addr_t)nr_cpu_ids * LKST_PERSIST_MIN_PAGES * PAGE_SIZE)
		return 0;
	return records;
}

/**
 * lkst_persist_hdr_init - describe this boot in a header
 * @hdr: the header
 * @range_size: the size of the reserved memory
 * @boot: the boot's sequence number
 */
void lkst_persist_hdr_init(struct lkst_persist_hdr *hdr, u64 range_size,
			   u64 boot)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->magic = LKST_PERSIST_MAGIC;
	hdr->version = LKST_PERSIST_VERSION;
	hdr->hdr_size = sizeof(*hdr);
	hdr->nr_cpus = nr_cpu_ids;
	hdr->range_size = range_size;
	hdr->boot = boot;
	hdr->boot_time = ktime_get_real_seconds();
	/* the clock may still be near 1970 here, and the sequence restarts */
	hdr->nonce = get_random_u64();
	strscpy(hdr->release, init_utsname()->release);
	strscpy(hdr->kversion, init_utsname()->version);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_persist_hdr_init);

/**
 * lkst_persist_check - may the previous boot's records be read by this boot
 * @hdr: the header the previous boot wrote
 * @range_size: the size of the reserved memory now
 * @why: the reason if not, for last_boot/info and the kernel log
 * @len: the size of @why
 *
 * Return: true if @hdr was written by this kernel with this CPU count and
 * this size; false with the reason in @why otherwise.
 */
bool lkst_persist_check(const struct lkst_persist_hdr *hdr, u64 range_size,
			char *why, size_t len)
{
	const struct new_utsname *uts = init_utsname();

	if (hdr->magic != LKST_PERSIST_MAGIC) {
		snprintf(why, len,
			 "no LKST records in the reserved memory (first boot, or it was cleared)");
		return false;
	}
	if (hdr->version != LKST_PERSIST_VERSION ||
	    hdr->hdr_size != sizeof(*hdr)) {
		snprintf(why, len,
			 "header version %u (%u bytes), this kernel reads version %u (%zu bytes)",
			 hdr->version, hdr->hdr_size, LKST_PERSIST_VERSION,
			 sizeof(*hdr));
		return false;
	}
	if (strncmp(hdr->release, uts->release, sizeof(hdr->release)) ||
	    strncmp(hdr->kversion, uts->version, sizeof(hdr->kversion))) {
		snprintf(why, len, "recorded by another kernel: %.*s %.*s",
			 (int)sizeof(hdr->release), hdr->release,
			 (int)sizeof(hdr->kversion), hdr->kversion);
		return false;
	}
	if (hdr->nr_cpus != nr_cpu_ids) {
		snprintf(why, len, "recorded with %u CPUs, this boot has %u",
			 hdr->nr_cpus, nr_cpu_ids);
		return false;
	}
	if (hdr->range_size != range_size) {
		snprintf(why, len, "recorded in %llu bytes of reserved memory, this boot has %llu",
			 hdr->range_size, range_size);
		return false;
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_persist_check);

static void lkst_persist_set_reason(const char *why)
{
	strscpy(lkst_last.reason, why);
}

/*
 * Write the header back from the cache, as the ring buffer does with its
 * own pages at a panic: the next boot reads it from memory.
 */
static void lkst_persist_flush(const struct lkst_persist_hdr *hdr)
{
	arch_ring_buffer_flush_range((unsigned long)hdr,
				     (unsigned long)(hdr + 1));
}

/* The same for SIZE bytes of the reserved memory at START */
static void lkst_persist_flush_range(unsigned long start, phys_addr_t size)
{
	arch_ring_buffer_flush_range(start, start + size);
}

/* How the boot that is recording ended, for the next boot. */
static void lkst_persist_ended(u32 how)
{
	struct lkst_persist_hdr *hdr = READ_ONCE(lkst_persist_hdr);

	if (!hdr)
		return;
	WRITE_ONCE(hdr->ended, hdr->ended | how);
	lkst_persist_flush(hdr);
}

static int lkst_persist_die_notify(struct notifier_block *nb,
				   unsigned long val, void *data)
{
	if (val == DIE_OOPS)
		lkst_persist_ended(LKST_PERSIST_ENDED_OOPS);
	return NOTIFY_DONE;
}

static struct notifier_block lkst_persist_die_nb = {
	.notifier_call	= lkst_persist_die_notify,
};

static int lkst_persist_panic_notify(struct notifier_block *nb,
				     unsigned long val, void *data)
{
	lkst_persist_ended(LKST_PERSIST_ENDED_PANIC);
	return NOTIFY_DONE;
}

static struct notifier_block lkst_persist_panic_nb = {
	.notifier_call	= lkst_persist_panic_notify,
	.priority	= INT_MAX,
};

static int lkst_persist_reboot_notify(struct notifier_block *nb,
				      unsigned long val, void *data)
{
	struct lkst_persist_hdr *hdr = READ_ONCE(lkst_persist_hdr);

	lkst_persist_ended(LKST_PERSIST_ENDED_REBOOT);
	if (!hdr)
		return NOTIFY_DONE;
	/*
	 * The ring buffer writes its pages back from the cache at a panic
	 * only: at a reboot, write back the records (recording goes on, so
	 * the last records may still be missed).
	 */
	lkst_persist_flush_range((unsigned long)hdr + PAGE_SIZE,
				 lkst_persist_records_size(hdr->range_size));
	return NOTIFY_DONE;
}

static struct notifier_block lkst_persist_reboot_nb = {
	.notifier_call	= lkst_persist_reboot_notify,
};

/* Count the previous boot's records and find the newest. */
static void __init lkst_persist_scan(struct trace_buffer *rb)
{
	struct ring_buffer_event *ev;
	struct ring_buffer_iter *it;
	int cpu;
	u64 ts;

	for_each_possible_cpu(cpu) {
		it = ring_buffer_read_start(rb, cpu, GFP_KERNEL);
		if (!it)
			continue;
		while ((ev = ring_buffer_iter_peek(it, &ts))) {
			struct lkst_record *rec = ring_buffer_event_data(ev);

			if (lkst_event_is_record(ev, true)) {
				lkst_last.records++;
				lkst_last.last_ts = max(lkst_last.last_ts, ts);
				if (rec->event == LKST_EV_O_PANIC)
					lkst_last.panic_record = true;
			}
			ring_buffer_iter_advance(it);
		}
		ring_buffer_read_finish(it);
	}
}

/*
 * The previous boot's records, copied from the reserved memory into the
 * backup instance lkst_last_boot before this boot records there: ftrace
 * reads it as it reads a trace_instance=NAME=BOOT of the previous boot
 * (trace, trace_pipe_raw, last_boot_info), and so do trace-cmd and LKST's
 * own last_boot/ files.  The records are kept only if the ring buffer
 * finds every CPU's data valid; otherwise the copy is emptied, and the
 * reason says why.
 */
static struct trace_array *__init
lkst_persist_backup(unsigned long addr, phys_addr_t size)
{
	struct trace_array *last;
	int cpu;

	last = trace_array_create_backup_pinned(LKST_LAST_BOOT_INSTANCE, addr,
						size);
	if (IS_ERR(last)) {
		snprintf(lkst_last.reason, sizeof(lkst_last.reason),
			 "cannot create the instance %s: %pe",
			 LKST_LAST_BOOT_INSTANCE, last);
		return NULL;
	}
	/* Nothing of this boot goes into it. */
	tracer_tracing_off(last);
	for_each_possible_cpu(cpu) {
		if (ring_buffer_range_cpu_lost(last->array_buffer.buffer, cpu)) {
			snprintf(lkst_last.reason, sizeof(lkst_last.reason),
				 "cpu%d: the records are corrupted (see the \"Ring buffer\" lines of the kernel log)",
				 cpu);
			/* Emptied, and no longer adjusted as the last boot */
			tracing_update_buffers(last);
			return last;
		}
	}
	lkst_last.kept = true;
	lkst_last.text_delta = last->text_delta;
	lkst_persist_scan(last->array_buffer.buffer);
	return last;
}

/**
 * lkst_persist_init - attach the default buffer to reserved memory
 *
 * Called once at boot, before the default buffer is created.  Nothing is
 * published (the header's address, the notifiers) before the caller
 * holds the instance: a boot instance is never removed.
 *
 * Return: the instance "lkst" in the reserved memory, to use as the
 * default buffer, or NULL to use an ordinary one (no lkst.persist=, or it
 * cannot be attached: the reason is in the kernel log and last_boot/info).
 */
struct trace_array *__init lkst_persist_init(void)
{
	struct trace_array *tr = NULL, *last = NULL;
	struct lkst_persist_hdr *hdr, orig;
	struct trace_buffer *empty;
	phys_addr_t start, size, records;
	unsigned long base;
	bool prev_ok = false;
	u64 boot = 1;

	if (!lkst_persist_label[0]) {
		lkst_persist_set_reason("no lkst.persist= on the command line");
		return NULL;
	}
	strscpy(lkst_last.label, lkst_persist_label);
	if (is_kdump_kernel()) {
		lkst_persist_set_reason("not attached: this is a kdump kernel");
		goto out;
	}
	if (!reserve_mem_find_by_name(lkst_persist_label, &start, &size)) {
		snprintf(lkst_last.reason, sizeof(lkst_last.reason),
			 "no reserve_mem=SIZE:ALIGN:%s on the command line",
			 lkst_persist_label);
		goto out;
	}
	lkst_last.start = start;
	lkst_last.size = size;
	records = lkst_persist_records_size(size);
	if (!records) {
		snprintf(lkst_last.reason, sizeof(lkst_last.reason),
			 "reserve_mem %s is too small: %u CPUs need at least %lu KiB",
			 lkst_persist_label, nr_cpu_ids,
			 (PAGE_SIZE + nr_cpu_ids * LKST_PERSIST_MIN_PAGES *
			  PAGE_SIZE) >> 10);
		goto out;
	}
	hdr = memremap(start, size, MEMREMAP_WB);
	if (!hdr) {
		lkst_persist_set_reason("cannot map the reserved memory");
		goto out;
	}
	base = (unsigned long)hdr + PAGE_SIZE;
	/* What to put back if the records cannot be copied */
	orig = *hdr;

	if (lkst_persist_check(hdr, size, lkst_last.reason,
			       sizeof(lkst_last.reason))) {
		lkst_last.prev = *hdr;
		boot = hdr->boot + 1;
		if (hdr->ended & LKST_PERSIST_ENDED_VALIDATING)
			/* What stopped that boot is still there: clear it */
			snprintf(lkst_last.reason, sizeof(lkst_last.reason),
				 "boot %llu stopped while it validated the reserved memory, which was cleared",
				 hdr->boot);
		else
			prev_ok = true;
	}
	/*
	 * Until the records are validated, by the ring buffer as their
	 * backup is created, the header says so: if the validation brings
	 * the machine down, the next boot clears the memory instead of going
	 * down the same way.
	 */
	lkst_persist_hdr_init(hdr, size, boot);
	hdr->ended = LKST_PERSIST_ENDED_VALIDATING;
	lkst_persist_flush(hdr);
	if (prev_ok) {
		last = lkst_persist_backup(base, records);
		if (!last) {
			/*
			 * The records stay for a later boot (lkst record
			 * --last-boot there), with their header; this boot
			 * records into ordinary memory.
			 */
			pr_warn("cannot copy the previous boot's records: this boot records into ordinary memory, and so will the next boots until they can\n");
			*hdr = orig;
			lkst_persist_flush(hdr);
			memunmap(hdr);
			goto out;
		}
	}

	/*
	 * This boot starts empty: the ring buffer validates none of the
	 * memory, now or when a CPU first comes online (clearing the
	 * instance would reset only the CPUs online now).
	 */
	memset((void *)base, 0, records);
	lkst_persist_flush_range(base, records);
	tr = lkst_instance_create(LKST_DEFAULT_BUFFER, 0, base, records);
	if (IS_ERR(tr)) {
		pr_warn("cannot create the instance lkst in reserve_mem %s: %pe\n",
			lkst_persist_label, tr);
		/* (the previous boot's records are kept, if they were) */
		if (!last)
			snprintf(lkst_last.reason, sizeof(lkst_last.reason),
				 "cannot create the instance lkst: %pe", tr);
		tr = NULL;
		/* This boot records into ordinary memory, and leaves none */
		memset(hdr, 0, sizeof(*hdr));
		lkst_persist_flush(hdr);
		memunmap(hdr);
		goto out;
	}
	/*
	 * What ftrace does when it starts a boot instance: note in its
	 * scratch area this kernel's address and modules for the next boot
	 * (update_last_data()).
	 */
	tracing_update_buffers(tr);
	lkst_persist_hdr_init(hdr, size, boot);
	lkst_persist_flush(hdr);
	lkst_persist_new_hdr = hdr;
	lkst_last.attached = true;
	pr_info("default buffer in reserve_mem %s (%pa bytes at %pa): %lu KiB per CPU, boot %llu\n",
		lkst_persist_label, &size, &start,
		ring_buffer_size(tr->array_buffer.buffer, 0) >> 10, boot);
out:
	if (last) {
		/*
		 * Without its wrapper the instance stays, pinned: removing an
		 * instance before tracefs is up is not safe.
		 */
		lkst_last_buf = lkst_buffer_wrap("last_boot", last, NULL);
	} else {
		/* last_boot/ has its files also when empty: they read nothing */
		empty = ring_buffer_alloc(0, RB_FL_OVERWRITE);
		if (empty) {
			lkst_last_buf = lkst_buffer_wrap("last_boot", NULL, empty);
			if (!lkst_last_buf)
				ring_buffer_free(empty);
		}
	}
	if (!lkst_last_buf && lkst_last.kept) {
		lkst_last.kept = false;
		lkst_persist_set_reason("out of memory");
	}
	if (lkst_last.kept)
		pr_info("last_boot: %lu records of the previous boot (%s)\n",
			lkst_last.records, lkst_last.prev.release);
	else
		pr_info("last_boot: empty: %s\n", lkst_last.reason);
	return tr;
}

/**
 * lkst_persist_attach - record into the reserved memory from now on
 *
 * Called once the instance lkst_persist_init() returned is the default
 * buffer's.  Publishes the header, for the notifiers that note in it how
 * this boot ends.
 */
void __init lkst_persist_attach(void)
{
	if (WARN_ON_ONCE(!lkst_persist_new_hdr))
		return;
	WRITE_ONCE(lkst_persist_hdr, lkst_persist_new_hdr);
	register_die_notifier(&lkst_persist_die_nb);
	atomic_notifier_chain_register(&panic_notifier_list,
				       &lkst_persist_panic_nb);
	register_reboot_notifier(&lkst_persist_reboot_nb);
}

static const char *lkst_persist_ended_str(void)
{
	u32 ended = lkst_last.prev.ended;

	if (ended & LKST_PERSIST_ENDED_VALIDATING)
		return "a crash while it validated the reserved memory";
	if (ended & LKST_PERSIST_ENDED_PANIC || lkst_last.panic_record)
		return "panic";
	if (ended & LKST_PERSIST_ENDED_OOPS)
		return "oops";
	if (ended & LKST_PERSIST_ENDED_REBOOT)
		return "reboot";
	return "unknown (reset, hang or power loss)";
}

/**
 * lkst_persist_boot_print - the lines naming a boot in last_boot/info
 * @s: where they go
 * @name: "boot" for the previous boot, "this_boot" for this one
 * @hdr: the boot's header
 * @nonce: with the NAME_nonce line (the previous boot's comes later)
 *
 * A boot is named by its sequence number, its wall-clock time at boot and
 * a random number: the sequence restarts after a cold boot, and the clock
 * may not be set yet when the header is written (no RTC), so only the
 * random number tells two boots apart for sure.  A program that notes this
 * boot's lines (with, say, its boot id) finds them as the previous boot's
 * in the next boot's last_boot/info.
 */
void lkst_persist_boot_print(struct seq_buf *s, const char *name,
			     const struct lkst_persist_hdr *hdr, bool nonce)
{
	struct tm tm;

	time64_to_tm(hdr->boot_time, 0, &tm);
	seq_buf_printf(s, "%s: %llu\n", name, hdr->boot);
	seq_buf_printf(s, "%s_time: %04ld-%02d-%02d %02d:%02d:%02d UTC\n",
		       name, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		       tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (nonce)
		seq_buf_printf(s, "%s_nonce: %016llx\n", name, hdr->nonce);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_persist_boot_print);

/*
 * Were the records kept at boot, and are they still there?  ftrace clears
 * a boot instance of the last boot when it is started for this boot, or
 * forgets it was one when its trace_pipe or trace_pipe_raw is read empty
 * (update_last_data(): an event enabled or disabled in it, its clock or
 * tracer set, its trace truncated).  Records consumed through LKST's own
 * raw files leave it one: those still count as kept.
 */
static const char lkst_persist_started[] =
	"the instance " LKST_LAST_BOOT_INSTANCE " was started or read empty in this boot";

static bool lkst_persist_kept(void)
{
	struct trace_array *tr = lkst_last_buf ? lkst_last_buf->tr : NULL;

	return lkst_last.kept &&
	       (!tr || (READ_ONCE(tr->flags) & TRACE_ARRAY_FL_LAST_BOOT));
}

/**
 * lkst_persist_info_print - the text of last_boot/info
 * @s: where it goes
 */
void lkst_persist_info_print(struct seq_buf *s)
{
	const struct lkst_persist_hdr *p = &lkst_last.prev;
	const struct lkst_persist_hdr *hdr = READ_ONCE(lkst_persist_hdr);
	bool kept = lkst_persist_kept();
	u64 sec;
	u32 nsec;
	int cpu;

	seq_buf_printf(s, "status: %s\n", kept ? "kept" : "empty");
	if (!kept)
		seq_buf_printf(s, "reason: %s\n", lkst_last.kept ?
			       lkst_persist_started : lkst_last.reason);
	seq_buf_printf(s, "persist: %s\n", lkst_last.label[0] ?
		       lkst_last.label : "none");
	if (lkst_last.size)
		seq_buf_printf(s, "reserve_mem: %llu bytes at 0x%llx\n",
			       (u64)lkst_last.size, (u64)lkst_last.start);
	seq_buf_printf(s, "recording: %s\n", lkst_last.attached ?
		       "this boot records into reserve_mem" :
		       "this boot records into ordinary memory");
	if (hdr)
		lkst_persist_boot_print(s, "this_boot", hdr, true);
	/* The previous boot, if its header was for this kernel */
	if (p->magic != LKST_PERSIST_MAGIC)
		return;
	seq_buf_printf(s, "release: %s\n", p->release);
	seq_buf_printf(s, "version: %s\n", p->kversion);
	lkst_persist_boot_print(s, "boot", p, false);
	seq_buf_printf(s, "ended_by: %s\n", lkst_persist_ended_str());
	if (!kept)
		return;
	sec = lkst_last.last_ts;
	nsec = do_div(sec, NSEC_PER_SEC);
	seq_buf_printf(s, "uptime_at_last_record: %llu.%06u\n", sec,
		       (u32)(nsec / NSEC_PER_USEC));
	seq_buf_printf(s, "text_delta: %ld\n", lkst_last.text_delta);
	seq_buf_printf(s, "records: %lu\n", lkst_last.records);
	seq_buf_printf(s, "boot_nonce: %016llx\n", p->nonce);
	for_each_possible_cpu(cpu)
		seq_buf_printf(s, "cpu%d: %lu\n", cpu,
			       ring_buffer_entries_cpu(lkst_buffer_rb(lkst_last_buf), cpu));
}
EXPORT_SYMBOL_IF_KUNIT(lkst_persist_info_print);

static int lkst_persist_info_show(struct seq_file *m, void *v)
{
	struct seq_buf s;

	lkst_seq_buf_get(m, &s);
	lkst_persist_info_print(&s);
	lkst_seq_buf_commit(m, &s);
	return 0;
}

static int lkst_persist_info_open(struct inode *inode, struct file *filp)
{
	int ret = security_locked_down(LOCKDOWN_TRACEFS);

	return ret ? ret : single_open(filp, lkst_persist_info_show, NULL);
}

static const struct file_operations lkst_persist_info_fops = {
	.open		= lkst_persist_info_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/**
 * lkst_persist_last_buffer - the buffer of lkst/last_boot/
 *
 * Return: the read-only buffer of the previous boot's records, or NULL
 * without lkst.persist=.
 */
struct lkst_buffer *lkst_persist_last_buffer(void)
{
	return lkst_last_buf;
}

/**
 * lkst_persist_create_files - create lkst/last_boot/ and its info file
 * @top: lkst/
 *
 * Return: the directory, for the files of lkst_persist_last_buffer(), or
 * ERR_PTR(-ENOMEM).
 */
struct dentry *lkst_persist_create_files(struct dentry *top)
{
	struct dentry *dir;

	dir = tracefs_create_dir("last_boot", top);
	if (IS_ERR_OR_NULL(dir))
		return ERR_PTR(-ENOMEM);
	if (!trace_create_file("info", TRACE_MODE_READ, dir, NULL,
			       &lkst_persist_info_fops))
		return ERR_PTR(-ENOMEM);
	return dir;
}
