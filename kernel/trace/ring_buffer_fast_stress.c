// SPDX-License-Identifier: GPL-2.0
/*
 * A stress test of the ring buffer's fast write path
 * (ring_buffer_reserve_fast() and ring_buffer_commit_fast()).
 *
 * On every online CPU, for @seconds: a kthread writes in a loop, a pinned
 * hard-irq hrtimer writes every @period_us, and (on x86) every @nmi_every
 * timer ticks the timer sends an NMI to the next CPU, whose handler writes
 * too.  So the three contexts interrupt each other at every point of the
 * write path, on sub-buffer boundaries included (the records vary in
 * size, and every 97th is too large for the fast path).  A reader kthread
 * consumes meanwhile; the rest is read after the writers stop.
 *
 * Each record carries its CPU, context, a sequence number per CPU and
 * context, and a payload computed from the three.  The test checks that:
 *
 *  - every record read is intact: its length, CPU, context and payload;
 *  - sequence numbers increase per CPU and context;
 *  - time stamps never go backwards on a CPU;
 *  - per CPU, the records written equal those read plus those the ring
 *    buffer counts as overwritten, the losses reported to the reader
 *    equal those overwritten, and the writes refused equal what the ring
 *    buffer counts as dropped (commit overruns and, when it does not
 *    overwrite, dropped events): exactly.
 *
 * The result is printed ("ring_buffer_fast_stress: PASS: ..." or "FAIL:
 * ..."), and a failure fails the module load with -EIO.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/slab.h>

#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#define RB_STRESS_NMI	1
#else
#define RB_STRESS_NMI	0
#endif

static unsigned int seconds = 3;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "How long the writers write (1-60 s)");

static unsigned int buffer_kb = 16;
module_param(buffer_kb, uint, 0444);
MODULE_PARM_DESC(buffer_kb, "The size of each CPU's buffer in KiB (4-4096)");

static bool overwrite = true;
module_param(overwrite, bool, 0444);
MODULE_PARM_DESC(overwrite, "Overwrite the oldest records (else drop new ones)");

static unsigned int period_us = 50;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "The period of the hrtimer writer (10-100000 us)");

static unsigned int nmi_every = 2;
module_param(nmi_every, uint, 0444);
MODULE_PARM_DESC(nmi_every, "Send an NMI every this many timer ticks (0: none; x86)");

enum rb_stress_ctx {
	RB_STRESS_TASK,
	RB_STRESS_IRQ,
	RB_STRESS_NMI_CTX,
	RB_STRESS_NR_CTX,
};

static const char * const rb_stress_ctx_name[] = { "task", "hardirq", "nmi" };

struct rb_stress_rec {
	u16	cpu;
	u8	ctx;
	u8	words;
	u32	seq;
	u32	payload[];
};

/* Records of 8 to 112 bytes, and every 97th of 168: a fast-path fallback */
#define RB_STRESS_MAX_WORDS	40

/* What each CPU's writers did: each context writes only its own stream */
struct rb_stress_cpu {
	u64			written[RB_STRESS_NR_CTX];
	u64			refused[RB_STRESS_NR_CTX];
	u32			next_seq[RB_STRESS_NR_CTX];
	struct hrtimer		timer;
	unsigned int		ticks;
	atomic_t		nmi_pending;
	struct task_struct	*writer;
};

/* What the reader saw of each CPU */
struct rb_stress_seen {
	u64	read[RB_STRESS_NR_CTX];
	s64	last_seq[RB_STRESS_NR_CTX];
	u64	last_ts;
	u64	lost;
};

static struct trace_buffer *rb_stress_buffer;
static DEFINE_PER_CPU(struct rb_stress_cpu, rb_stress_cpu);
static struct rb_stress_seen *rb_stress_seen;
static bool rb_stress_stop;
static atomic_t rb_stress_errors;

static u32 rb_stress_word(unsigned int cpu, unsigned int ctx, u32 seq,
			  unsigned int i)
{
	return (seq * 2654435761U) ^ (cpu << 24) ^ (ctx << 16) ^ i;
}

/* One record from context @ctx of this CPU */
static void rb_stress_write(struct rb_stress_cpu *sc, enum rb_stress_ctx ctx)
{
	unsigned int cpu = smp_processor_id();
	struct ring_buffer_event *event;
	struct rb_stress_rec *rec;
	u32 seq = sc->next_seq[ctx];
	unsigned int words, i;

	words = seq % 97 == 96 ? RB_STRESS_MAX_WORDS : seq % 27;
	event = ring_buffer_reserve_fast(rb_stress_buffer,
					 struct_size(rec, payload, words));
	if (!event) {
		sc->refused[ctx]++;
		return;
	}
	rec = ring_buffer_event_data(event);
	rec->cpu = cpu;
	rec->ctx = ctx;
	rec->words = words;
	rec->seq = seq;
	for (i = 0; i < words; i++)
		rec->payload[i] = rb_stress_word(cpu, ctx, seq, i);
	ring_buffer_commit_fast(rb_stress_buffer);
	sc->next_seq[ctx] = seq + 1;
	sc->written[ctx]++;
}

#if RB_STRESS_NMI
static int rb_stress_nmi(unsigned int type, struct pt_regs *regs)
{
	struct rb_stress_cpu *sc = this_cpu_ptr(&rb_stress_cpu);

	if (!atomic_xchg(&sc->nmi_pending, 0))
		return NMI_DONE;
	rb_stress_write(sc, RB_STRESS_NMI_CTX);
	return NMI_HANDLED;
}

/*
 * At most one NMI of ours in flight per CPU, so that none merges with
 * another and each one sent is claimed by the handler.
 */
static void rb_stress_send_nmi(unsigned int cpu)
{
	unsigned int target = cpumask_next(cpu, cpu_online_mask);

	if (target >= nr_cpu_ids)
		target = cpumask_first(cpu_online_mask);
	if (atomic_cmpxchg(&per_cpu(rb_stress_cpu, target).nmi_pending, 0, 1))
		return;
	__apic_send_IPI_mask(cpumask_of(target), NMI_VECTOR);
}

/* Wait up to a second for the NMIs in flight; false if one never came */
static bool rb_stress_nmis_taken(void)
{
	int cpu, i;

	for (i = 0; i < 100; i++) {
		bool pending = false;

		for_each_online_cpu(cpu)
			pending |= atomic_read(&per_cpu(rb_stress_cpu, cpu).nmi_pending);
		if (!pending)
			return true;
		usleep_range(10000, 20000);
	}
	return false;
}
#else
static void rb_stress_send_nmi(unsigned int cpu) { }
static inline bool rb_stress_nmis_taken(void) { return true; }
#endif

static enum hrtimer_restart rb_stress_tick(struct hrtimer *timer)
{
	struct rb_stress_cpu *sc = container_of(timer, struct rb_stress_cpu,
						timer);

	if (READ_ONCE(rb_stress_stop))
		return HRTIMER_NORESTART;
	rb_stress_write(sc, RB_STRESS_IRQ);
	if (RB_STRESS_NMI && nmi_every && ++sc->ticks % nmi_every == 0)
		rb_stress_send_nmi(smp_processor_id());
	hrtimer_forward_now(timer, ns_to_ktime((u64)period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int rb_stress_writer(void *arg)
{
	struct rb_stress_cpu *sc = arg;
	unsigned int n = 0;

	/* Pinned: the timer stays on the CPU it is started on */
	hrtimer_start(&sc->timer, ns_to_ktime((u64)period_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	while (!kthread_should_stop()) {
		if (!READ_ONCE(rb_stress_stop)) {
			preempt_disable();
			rb_stress_write(sc, RB_STRESS_TASK);
			preempt_enable();
		}
		if (++n % 64 == 0) {
			if (READ_ONCE(rb_stress_stop))
				schedule_timeout_interruptible(1);
			else
				cond_resched();
		}
	}
	return 0;
}

#define rb_stress_err(fmt, ...)						\
	do {								\
		if (atomic_inc_return(&rb_stress_errors) <= 10)		\
			pr_err(fmt, ##__VA_ARGS__);			\
	} while (0)

static void rb_stress_check(int cpu, struct ring_buffer_event *event, u64 ts,
			    unsigned long lost)
{
	struct rb_stress_seen *seen = &rb_stress_seen[cpu];
	struct rb_stress_rec *rec = ring_buffer_event_data(event);
	unsigned int len = ring_buffer_event_length(event);
	unsigned int i;

	seen->lost += lost;
	if (ts < seen->last_ts)
		rb_stress_err("cpu%d: time went backwards: %llu after %llu\n",
			      cpu, ts, seen->last_ts);
	seen->last_ts = ts;

	if (len < sizeof(*rec) || rec->words > RB_STRESS_MAX_WORDS ||
	    len < struct_size(rec, payload, rec->words) ||
	    len > struct_size(rec, payload, rec->words) + 8 ||
	    rec->cpu != cpu || rec->ctx >= RB_STRESS_NR_CTX) {
		rb_stress_err("cpu%d: bad record: length %u, cpu %u, context %u, %u words (after a ring buffer WARN above, recording stopped)\n",
			      cpu, len, rec->cpu, rec->ctx, rec->words);
		return;
	}
	for (i = 0; i < rec->words; i++) {
		if (rec->payload[i] != rb_stress_word(cpu, rec->ctx, rec->seq, i)) {
			rb_stress_err("cpu%d: %s record %u: word %u is %#x\n",
				      cpu, rb_stress_ctx_name[rec->ctx],
				      rec->seq, i, rec->payload[i]);
			return;
		}
	}
	if ((s64)rec->seq <= seen->last_seq[rec->ctx])
		rb_stress_err("cpu%d: %s record %u after %lld\n", cpu,
			      rb_stress_ctx_name[rec->ctx], rec->seq,
			      seen->last_seq[rec->ctx]);
	seen->last_seq[rec->ctx] = rec->seq;
	seen->read[rec->ctx]++;
}

/*
 * Consume what each CPU's buffer holds, up to @batch records a CPU (0:
 * all of it), so that the reader turns to every CPU while the writers
 * outpace it.
 */
static void rb_stress_consume(unsigned int batch)
{
	struct ring_buffer_event *event;
	unsigned long lost;
	unsigned int n;
	u64 ts;
	int cpu;

	for_each_online_cpu(cpu) {
		for (n = 0; !batch || n < batch; n++) {
			event = ring_buffer_consume(rb_stress_buffer, cpu, &ts,
						    &lost);
			if (!event)
				break;
			rb_stress_check(cpu, event, ts, lost);
			if (n % 256 == 255)
				cond_resched();
		}
	}
}

static int rb_stress_reader(void *arg)
{
	while (!kthread_should_stop()) {
		rb_stress_consume(1024);
		/* Let the writers fill the buffers, and overwrite them */
		usleep_range(200, 400);
	}
	return 0;
}

static bool rb_stress_account(int cpu)
{
	struct rb_stress_cpu *sc = per_cpu_ptr(&rb_stress_cpu, cpu);
	struct rb_stress_seen *seen = &rb_stress_seen[cpu];
	unsigned long overrun, commit_overrun, dropped;
	u64 written = 0, refused = 0, read = 0;
	bool ok = true;
	int ctx;

	for (ctx = 0; ctx < RB_STRESS_NR_CTX; ctx++) {
		written += sc->written[ctx];
		refused += sc->refused[ctx];
		read += seen->read[ctx];
		if (seen->last_seq[ctx] >= (s64)sc->next_seq[ctx]) {
			pr_err("cpu%d: %s record %lld read, %u written\n", cpu,
			       rb_stress_ctx_name[ctx], seen->last_seq[ctx],
			       sc->next_seq[ctx]);
			ok = false;
		}
	}
	overrun = ring_buffer_overrun_cpu(rb_stress_buffer, cpu);
	commit_overrun = ring_buffer_commit_overrun_cpu(rb_stress_buffer, cpu);
	dropped = ring_buffer_dropped_events_cpu(rb_stress_buffer, cpu);

	/* Writes attempted per context: written or refused */
	pr_info("cpu%d: written %llu = read %llu + overwritten %lu; refused %llu = commit overrun %lu + dropped %lu; lost %llu; task %llu, hardirq %llu, nmi %llu\n",
		cpu, written, read, overrun, refused, commit_overrun, dropped,
		seen->lost,
		sc->written[RB_STRESS_TASK] + sc->refused[RB_STRESS_TASK],
		sc->written[RB_STRESS_IRQ] + sc->refused[RB_STRESS_IRQ],
		sc->written[RB_STRESS_NMI_CTX] + sc->refused[RB_STRESS_NMI_CTX]);
	if (written != read + overrun) {
		pr_err("cpu%d: %llu records written, %llu read and %lu overwritten\n",
		       cpu, written, read, overrun);
		ok = false;
	}
	/* What the reader was told it missed is what was overwritten */
	if (seen->lost != overrun) {
		pr_err("cpu%d: %llu records reported lost, %lu overwritten\n",
		       cpu, seen->lost, overrun);
		ok = false;
	}
	if (refused != commit_overrun + dropped) {
		pr_err("cpu%d: %llu writes refused, %lu counted\n", cpu, refused,
		       commit_overrun + dropped);
		ok = false;
	}
	return ok;
}

static int __init rb_stress_init(void)
{
	struct task_struct *reader;
	u64 written = 0, read = 0, lost = 0, nmi = 0;
	bool ok = true;
	int cpu, ctx, ret = 0;

	if (seconds < 1 || seconds > 60 || buffer_kb < 4 || buffer_kb > 4096 ||
	    period_us < 10 || period_us > 100000) {
		pr_err("seconds 1-60, buffer_kb 4-4096, period_us 10-100000\n");
		return -EINVAL;
	}

	rb_stress_seen = kcalloc(nr_cpu_ids, sizeof(*rb_stress_seen),
				 GFP_KERNEL);
	if (!rb_stress_seen)
		return -ENOMEM;
	rb_stress_buffer = ring_buffer_alloc(buffer_kb * 1024,
					     overwrite ? RB_FL_OVERWRITE : 0);
	if (!rb_stress_buffer) {
		ret = -ENOMEM;
		goto out_free;
	}

	/* The CPUs written from stay online: hotplug waits for the test */
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct rb_stress_cpu *sc = per_cpu_ptr(&rb_stress_cpu, cpu);

		for (ctx = 0; ctx < RB_STRESS_NR_CTX; ctx++)
			rb_stress_seen[cpu].last_seq[ctx] = -1;
		hrtimer_setup(&sc->timer, rb_stress_tick, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
#if RB_STRESS_NMI
	ret = register_nmi_handler(NMI_LOCAL, rb_stress_nmi, 0, "rb_stress");
	if (ret)
		goto out_unlock;
#endif
	reader = kthread_run(rb_stress_reader, NULL, "rb_stress_reader");
	if (IS_ERR(reader)) {
		ret = PTR_ERR(reader);
		goto out_nmi;
	}
	for_each_online_cpu(cpu) {
		struct rb_stress_cpu *sc = per_cpu_ptr(&rb_stress_cpu, cpu);

		sc->writer = kthread_create_on_cpu(rb_stress_writer, sc, cpu,
						   "rb_stress/%u");
		if (IS_ERR(sc->writer)) {
			ret = PTR_ERR(sc->writer);
			sc->writer = NULL;
			break;
		}
		wake_up_process(sc->writer);
	}

	if (!ret)
		msleep(seconds * 1000);

	/* Stop the writers, the timers and the NMIs, then read the rest */
	WRITE_ONCE(rb_stress_stop, true);
	for_each_online_cpu(cpu) {
		struct rb_stress_cpu *sc = per_cpu_ptr(&rb_stress_cpu, cpu);

		if (sc->writer)
			kthread_stop(sc->writer);
		hrtimer_cancel(&sc->timer);
	}
	kthread_stop(reader);
out_nmi:
#if RB_STRESS_NMI
	/*
	 * No NMI of ours may come after the handler is gone ("NMI received
	 * for unknown reason"): wait for those in flight.  Unregistering
	 * waits for a handler that runs.
	 */
	if (!rb_stress_nmis_taken()) {
		pr_err("an NMI sent was not taken in a second\n");
		atomic_inc(&rb_stress_errors);
	}
	unregister_nmi_handler(NMI_LOCAL, "rb_stress");
out_unlock:
#endif
	if (ret) {
		cpus_read_unlock();
		ring_buffer_free(rb_stress_buffer);
		goto out_free;
	}
	rb_stress_consume(0);

	for_each_online_cpu(cpu) {
		struct rb_stress_cpu *sc = per_cpu_ptr(&rb_stress_cpu, cpu);

		ok &= rb_stress_account(cpu);
		for (ctx = 0; ctx < RB_STRESS_NR_CTX; ctx++) {
			written += sc->written[ctx];
			read += rb_stress_seen[cpu].read[ctx];
		}
		nmi += sc->written[RB_STRESS_NMI_CTX] +
		       sc->refused[RB_STRESS_NMI_CTX];
		lost += rb_stress_seen[cpu].lost;
	}
	cpus_read_unlock();
	ring_buffer_free(rb_stress_buffer);

	if (atomic_read(&rb_stress_errors))
		ok = false;
	if (RB_STRESS_NMI && nmi_every && !nmi) {
		pr_err("no write was made from NMI\n");
		ok = false;
	}
	if (ok)
		pr_info("PASS: %llu records on %u CPUs in %u s (%s, %u KiB a CPU), %llu read, %llu lost, %llu writes from NMI\n",
			written, num_online_cpus(), seconds,
			overwrite ? "overwrite" : "stop when full", buffer_kb,
			read, lost, nmi);
	else
		pr_err("FAIL: %llu records on %u CPUs in %u s, %llu read, %llu lost, %d errors\n",
		       written, num_online_cpus(), seconds, read, lost,
		       atomic_read(&rb_stress_errors));
	ret = ok ? 0 : -EIO;
out_free:
	kfree(rb_stress_seen);
	return ret;
}

static void __exit rb_stress_exit(void)
{
}

module_init(rb_stress_init);
module_exit(rb_stress_exit);

MODULE_DESCRIPTION("Stress test of the ring buffer's fast write path");
MODULE_LICENSE("GPL");
