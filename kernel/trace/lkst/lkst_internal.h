/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LKST internals shared by the files in kernel/trace/lkst/.
 *
 * Locking: lkst_mutex serializes the whole control plane (tracefs
 * writes, handler and buffer registration, maskset changes).  Functions
 * named __lkst_*() expect the caller to hold it.  The data plane (the
 * tracepoint probes) only reads lkst_cur_table, an immutable table that
 * is published with RCU and freed after lkst_synchronize_readers().
 */
#ifndef _LKST_INTERNAL_H
#define _LKST_INTERNAL_H

#include <linux/bitmap.h>
#include <linux/hardirq.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <asm/local.h>
#include <linux/lkst.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/utsname.h>

#include "../trace.h"

#define LKST_NAME_MAX		32	/* including the NUL */
#define LKST_LINE_MAX		128	/* of a maskset table */
#define LKST_NAME_CHARS		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
#define LKST_MAX_USER_MASKSETS	64
#define LKST_MAX_USER_BUFFERS	16
#define LKST_DEFAULT_BUFFER	"default"
#define LKST_NR_IDS		(LKST_EV_DYN_LAST + 1)	/* fixed and dynamic */

struct dentry;
struct inode;
struct trace_buffer;

extern struct mutex lkst_mutex;

/*
 * Text for tracefs files is produced into a struct seq_buf, so that the
 * KUnit tests read exactly what a reader of the file would, without a
 * seq_file.  A show() callback lends the producer the free part of the
 * seq_file's buffer; on overflow, seq_commit(-1) makes seq_read() call it
 * again with a buffer twice as large.
 */
static inline void lkst_seq_buf_get(struct seq_file *m, struct seq_buf *s)
{
	char *buf;
	size_t size = seq_get_buf(m, &buf);

	seq_buf_init(s, buf, size);
}

static inline void lkst_seq_buf_commit(struct seq_file *m, struct seq_buf *s)
{
	seq_commit(m, seq_buf_has_overflowed(s) ? -1 : seq_buf_used(s));
}

/* lkst_events.c: the event table and the probes */
struct lkst_event_desc {
	unsigned int	id;
	const char	*name;
	const char	*args[LKST_NR_ARGS];
	const char	*argfmt;	/* how the trace file prints args */
	bool		primary;	/* part of RDEFAULT */
	const char	*hook;		/* the tracepoint (or notifier) */
	int		(*attach)(void);
	void		(*detach)(void);
	/* a dynamic event's, to tell it from earlier events of its ID */
	u32		gen;
};

const struct lkst_event_desc *lkst_event_desc(unsigned int id);
const struct lkst_event_desc *lkst_event_lookup(const char *name);
int __lkst_events_attach(const unsigned long *need);
void __lkst_events_detach_unneeded(const unsigned long *need);
bool __lkst_event_attached(unsigned int id);
void lkst_events_print(struct seq_buf *s);
void __lkst_save_comms(bool on);

const struct lkst_event_desc *lkst_event_next(const struct lkst_event_desc *d);
void __lkst_event_forget(unsigned int id);

/* lkst_dynevent.c: events on kprobes, from lkst/dynamic_events */
#ifdef CONFIG_LKST_DYNAMIC_EVENTS
const struct lkst_event_desc *lkst_dynevent_desc(unsigned int id);
int __lkst_dynevent_arm(unsigned int id, bool on);
int lkst_dynevent_command(const char *cmd);
int lkst_dynevent_remove_all(void);
void lkst_dynevents_print(struct seq_buf *s);
int lkst_dynevent_create_files(struct dentry *top);
#else
static inline const struct lkst_event_desc *lkst_dynevent_desc(unsigned int id)
{
	return NULL;
}

static inline int __lkst_dynevent_arm(unsigned int id, bool on)
{
	return -ENODEV;
}

static inline int lkst_dynevent_create_files(struct dentry *top)
{
	return 0;
}
#endif

/* lkst_handler.c */
extern struct lkst_handler lkst_handler_default;
extern struct lkst_handler lkst_handler_nothing;
struct lkst_handler *__lkst_handler_lookup(const char *name);
int __lkst_handler_pin(struct lkst_handler *h);
void __lkst_handler_unpin(struct lkst_handler *h);
void lkst_handlers_print(struct seq_buf *s);

/* lkst_buffer.c */
#define LKST_BUF_MIN_KB		8	/* the tests' buffers */
#define LKST_BUF_DEFAULT_KB	256

/*
 * An LKST buffer is a trace instance: "lkst" for the default buffer,
 * "lkst.NAME" for user buffer NAME.  Its ring buffer, size, overwrite
 * mode, tracing_on and statistics are the instance's; LKST adds the name
 * masksets use, the pinning by masksets and open files, and the count of
 * the records the ring buffer refused (@refused: the dropped events and
 * commit overruns its stats count too, and the refusals nothing else
 * counts, such as a resize or a reset under way, the recursion guard, a
 * CPU out of tracing_cpumask).  The buffer
 * of lkst/last_boot/ is read only: the instance "lkst_last_boot" in the
 * previous boot's memory or, with no records of it to show, an empty
 * ring buffer of no instance (@tr NULL, @rb set).
 */
struct lkst_buffer {
	struct list_head	list;		/* on lkst_buffers */
	char			name[LKST_NAME_MAX];
	struct trace_array	*tr;		/* the instance, pinned */
	struct trace_buffer	*rb;		/* an empty last_boot only */
	local_t __percpu	*refused;	/* never reset */
	struct kref		kref;		/* open files, lkst_buffer_get() */
	unsigned int		users;		/* table entries, under lkst_mutex */
	bool			removed;	/* set under lkst_mutex */
	bool			last_boot;	/* lkst/last_boot/: read only */
	struct dentry		*dir;		/* buffers/NAME, NULL for default */
};

/*
 * ftrace's type of each LKST event, by LKST ID: the common_type of its
 * records (lkst_tevent.c).  0 while the event is not registered.
 */
extern u16 lkst_event_type[LKST_NR_IDS];

/**
 * lkst_event_is_record - is a ring buffer event an LKST record?
 * @ev: the event
 * @last_boot: it was written by the previous boot
 *
 * LKST's buffers are ftrace's instances, where a user may enable other
 * events too: LKST's readers skip them.  A record of this boot has the
 * type of its event; one of the previous boot only for a fixed event, as
 * dynamic events get their types in the order they are defined.
 */
static inline bool lkst_event_is_record(struct ring_buffer_event *ev,
					bool last_boot)
{
	const struct lkst_record *rec = ring_buffer_event_data(ev);

	if (ring_buffer_event_length(ev) < sizeof(*rec) ||
	    rec->event >= LKST_NR_IDS)
		return false;
	if (last_boot && rec->event >= LKST_EV_DYN_FIRST)
		return true;
	return READ_ONCE(lkst_event_type[rec->event]) == rec->type;
}

/*
 * common_flags of a record, the context bits ftrace's tracing_gen_ctx_dec()
 * sets from whether interrupts are off (@irqs_off) and preempt_count() (@pc):
 * interrupts off, NMI, hard interrupt, softirq, bottom halves off.  Not
 * recorded, to keep the record within its cost: the need-resched bits, and
 * the preempt and migrate-disable depths (common_preempt_count is 0).
 * Task context, the common case, is one test.
 */
static __always_inline u8 lkst_trace_ctx(unsigned long pc, bool irqs_off)
{
	u8 flags = irqs_off ? TRACE_FLAG_IRQS_OFF : 0;

	if (likely(!(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK))))
		return flags;
	if (pc & NMI_MASK)
		flags |= TRACE_FLAG_NMI;
	if (pc & HARDIRQ_MASK)
		flags |= TRACE_FLAG_HARDIRQ;
	if (pc & SOFTIRQ_OFFSET)
		flags |= TRACE_FLAG_SOFTIRQ;
	if ((pc & SOFTIRQ_MASK) >> (SOFTIRQ_SHIFT + 1))
		flags |= TRACE_FLAG_BH_OFF;
	return flags;
}

/*
 * lkst_record() without the preempt_disable(), inlined into the probes,
 * which already run with preemption disabled.  The record is reserved in
 * the ring buffer and filled in place, as ftrace's events are: no copy on
 * the stack, no memcpy().  A record is a small event, which the ring
 * buffer's fast path (ring_buffer_reserve_fast()) writes whenever it does
 * not start or end a sub-buffer or interrupt another write.  See
 * lkst_record() for the return values.
 */
static_assert(sizeof(struct lkst_record) == 48);
static_assert(offsetof(struct lkst_record, event) == 8);
static_assert(offsetof(struct lkst_record, arg) == 16);

/*
 * The first 16 bytes of a record: ftrace's common fields, then event,
 * handler and the reserved bytes.  Two stores where the byte order
 * allows, the second a constant in the probes.
 */
static __always_inline void lkst_record_head(struct lkst_record *rec, u16 type,
					     u8 ctx, pid_t pid, u16 event,
					     u8 handler)
{
#ifdef __LITTLE_ENDIAN
	u64 *w = (u64 *)rec;

	w[0] = type | (u64)ctx << 16 | (u64)(u32)pid << 32;
	w[1] = event | (u64)handler << 16;
#else
	rec->type = type;
	rec->flags = ctx;
	rec->preempt_count = 0;
	rec->pid = pid;
	rec->event = event;
	rec->handler = handler;
	rec->__reserved = 0;
	rec->__pad = 0;
#endif
}

/*
 * The pid argument of __lkst_record4_ctx() and __lkst_dispatch_table()
 * for the task the probe runs in: current's pid, read after the reserve,
 * so that it is not kept across the call (no task has pid -1).
 */
#define LKST_PID_CURRENT	(-1)

/*
 * Is the record one of a task that the buffer's instance keeps out, by
 * its set_event_notrace_pid or set_event_pid?  ftrace keeps the answer
 * for the task on the CPU in the instance's per-CPU ignore_pid, which its
 * probes on sched_switch and the wakeups update (trace_events.c).  As in
 * trace_event_ignore_this_pid(), a list must exist too: a probe that ran
 * on while __ftrace_clear_event_pids() reset the flags may have set one
 * again.  LKST applies it in task context only (@pc is the preempt count
 * of the context the record is about): interrupts, softirqs and NMIs that
 * hit a listed task are recorded, as they are not its doing.  ftrace's
 * rule for switches and wakeups holds: one is recorded unless both tasks
 * are kept out, so that a state chart shows when a listed task leaves the
 * CPU and comes back.
 */
static __always_inline bool lkst_ignore_pid(struct trace_array *tr,
					    unsigned long pc)
{
	if (likely(!this_cpu_read(tr->array_buffer.data->ignore_pid)))
		return false;
	if (!rcu_access_pointer(tr->filtered_pids) &&
	    !rcu_access_pointer(tr->filtered_no_pids))
		return false;
	return !(pc & (NMI_MASK | HARDIRQ_MASK)) && !in_serving_softirq();
}

/*
 * @pc_sub: what to take off preempt_count() for the context of the code
 * the event is about (a kprobe's int3 handler runs as an NMI); the
 * context is read after the reserve, so that it is not kept across it.
 * @irqs_off: whether that code runs with interrupts off.
 */
static __always_inline int __lkst_record4_ctx(struct lkst_buffer *buf,
					      unsigned int event, u8 handler,
					      pid_t pid, u64 a0, u64 a1,
					      u64 a2, u64 a3,
					      unsigned long pc_sub,
					      bool irqs_off)
{
	struct trace_array *tr = buf->tr;
	struct ring_buffer_event *ev;
	struct lkst_record *rec;
	struct trace_buffer *rb;

	if (lkst_ignore_pid(tr, preempt_count() - pc_sub))
		return -EAGAIN;
	/* Read each time: it is the instance's, which its files change. */
	rb = READ_ONCE(tr->array_buffer.buffer);
	ev = ring_buffer_reserve_fast(rb, sizeof(struct lkst_record));
	if (unlikely(!ev)) {
		/*
		 * -EAGAIN: tracing_on is 0, not counted.  -ENOBUFS, counted
		 * as refused: full in stop mode or a nested writer's
		 * reservation reached (a dropped event or a commit overrun in
		 * the instance's stats too), a resize or a reset under way,
		 * nested too deep, a CPU out of tracing_cpumask, ...
		 */
		if (!ring_buffer_record_is_set_on(rb))
			return -EAGAIN;
		local_inc(this_cpu_ptr(buf->refused));
		return -ENOBUFS;
	}
	if (pid == LKST_PID_CURRENT)
		pid = current->pid;
	rec = ring_buffer_event_data(ev);
	lkst_record_head(rec, lkst_event_type[event],
			 lkst_trace_ctx(preempt_count() - pc_sub, irqs_off), pid,
			 event, handler);
	rec->arg[0] = a0;
	rec->arg[1] = a1;
	rec->arg[2] = a2;
	rec->arg[3] = a3;
	ring_buffer_commit_fast(rb);
	return 0;
}

static __always_inline int __lkst_record4(struct lkst_buffer *buf,
					  unsigned int event, u8 handler,
					  pid_t pid, u64 a0, u64 a1, u64 a2,
					  u64 a3)
{
	return __lkst_record4_ctx(buf, event, handler, pid, a0, a1, a2, a3, 0,
				  irqs_disabled());
}

static __always_inline int __lkst_record(struct lkst_buffer *buf,
					 unsigned int event, u8 handler,
					 pid_t pid, const u64 *args)
{
	return __lkst_record4(buf, event, handler, pid, args[0], args[1],
			      args[2], args[3]);
}

struct lkst_buffer *__lkst_buffer_lookup(const char *name);
struct lkst_buffer *__lkst_buffer_create(const char *name, unsigned long size_kb);
int __lkst_buffer_remove(struct lkst_buffer *buf);
const char *lkst_buffer_name(const struct lkst_buffer *buf);
void __lkst_buffer_pin(struct lkst_buffer *buf);
void __lkst_buffer_unpin(struct lkst_buffer *buf);
int lkst_buffers_init(void);
struct list_head *__lkst_buffers_list(void);
struct lkst_buffer *lkst_buffer_wrap(const char *name, struct trace_array *tr,
				     struct trace_buffer *rb);
struct trace_buffer *lkst_buffer_rb(struct lkst_buffer *buf);
bool lkst_buffer_is_on(struct lkst_buffer *buf);
unsigned long lkst_buffer_refused(struct lkst_buffer *buf, int cpu);
struct trace_array *lkst_instance_create(const char *name, unsigned long size,
					 unsigned long start, unsigned long range);
bool lkst_instance_exists(const char *name);

void lkst_user_buffers_print(struct seq_buf *s);
unsigned int lkst_user_buffers_count(void);
void lkst_buffers_wake_readers(void);
int __lkst_user_buffers_clear(void);
void __lkst_buffers_clear(void);

/* lkst_buffer_files.c */
int __lkst_buffer_create_files(struct lkst_buffer *buf, struct dentry *dir);

/* lkst_tevent.c: the events in events/lkst */
void lkst_record_print_args(struct seq_buf *s, const struct lkst_event_desc *d,
			    const struct lkst_record *rec);
#if IS_ENABLED(CONFIG_LKST_KUNIT_TEST)
enum print_line_t lkst_tevent_print(struct trace_iterator *iter,
				    unsigned int id);
#endif
int lkst_tevent_add(const struct lkst_event_desc *d);
bool lkst_tevent_arg_name_ok(const char *name);
void lkst_tevent_remove(unsigned int id);
int lkst_tevents_init(void);

/*
 * Wait for every reader of what LKST publishes with RCU: the tracepoint
 * probes (tracepoint_srcu), and the kprobe handlers of dynamic events and
 * the other readers that run with preemption disabled (RCU).
 */
static inline void lkst_synchronize_readers(void)
{
	tracepoint_synchronize_unregister();
	synchronize_rcu();
}

/* lkst_maskset.c */

/*
 * struct lkst_table - what the probes see: per event ID, the handler
 * (NULL for NOTHING) and the buffer.  Immutable once published.
 */
struct lkst_table_entry {
	struct lkst_handler	*handler;
	struct lkst_buffer	*buf;
};

struct lkst_table {
	struct lkst_table_entry	ent[LKST_NR_IDS];
	DECLARE_BITMAP(used, LKST_NR_IDS);
	/* the generation of the dynamic event each line named */
	u32			dyn_gen[LKST_EV_DYN_MAX];
};

struct lkst_maskset {
	struct list_head	list;
	char			name[LKST_NAME_MAX];
	bool			builtin;
	bool			removed;	/* set under lkst_mutex */
	bool			last_boot;	/* lkst/last_boot/: read only */
	bool			persistent;	/* in reserve_mem: fixed size */
	/* current + lkst_maskset_get() holders; removal is -EBUSY while > 0 */
	atomic_t		users;
	/* the memory: the list and open files of masksets/NAME */
	struct kref		kref;
	struct lkst_table __rcu	*table;
	struct dentry		*file;
};

extern struct lkst_table __rcu *lkst_cur_table;

void lkst_dispatch(unsigned int event, u64 a0, u64 a1, u64 a2, u64 a3);
void lkst_call_handler(struct lkst_handler *h, struct lkst_buffer *buf,
		       unsigned int event, pid_t pid, u64 a0, u64 a1, u64 a2,
		       u64 a3);
void lkst_dispatch_table(const struct lkst_table *t, unsigned int event,
			 pid_t pid, const u64 *args);

/*
 * The data plane, inlined into every probe: a DEFAULT record makes no
 * call of LKST's own, only the ring buffer's reserve and commit.
 *
 * Must be called with preemption disabled: that is the read side
 * rcu_dereference_sched() and the table's release by
 * lkst_synchronize_readers() rely on.
 */
static __always_inline void
__lkst_dispatch_table(const struct lkst_table *t, unsigned int event,
		      pid_t pid, u64 a0, u64 a1, u64 a2, u64 a3)
{
	const struct lkst_table_entry *e = &t->ent[event];
	/* READ_ONCE: __lkst_maskset_drop_handler() may clear it under us. */
	struct lkst_handler *h = READ_ONCE(e->handler);

	if (!h)
		return;
	if (likely(h == &lkst_handler_default)) {
		__lkst_record4(e->buf, event, LKST_HANDLER_DEFAULT, pid,
			       a0, a1, a2, a3);
	} else if (h != &lkst_handler_nothing) {
		/*
		 * No handler runs for a task the line's buffer keeps out:
		 * one that reacts to the events of a recorder would react
		 * to its own notifications.
		 */
		if (lkst_ignore_pid(e->buf->tr, preempt_count()))
			return;
		if (pid == LKST_PID_CURRENT)
			pid = current->pid;
		lkst_call_handler(h, e->buf, event, pid, a0, a1, a2, a3);
	}
}

/*
 * Tracepoint probes run under SRCU (tracepoint_srcu), preemptible: disable
 * preemption around the dispatch, as ftrace's event probes do.
 */
static __always_inline void
__lkst_dispatch(unsigned int event, u64 a0, u64 a1, u64 a2, u64 a3)
{
	const struct lkst_table *t;

	guard(preempt_notrace)();
	t = rcu_dereference_sched(lkst_cur_table);
	if (likely(t))
		__lkst_dispatch_table(t, event, LKST_PID_CURRENT, a0, a1, a2,
				      a3);
}

struct lkst_maskset *__lkst_maskset_lookup(const char *name);
struct lkst_maskset *__lkst_maskset_create(const char *name);
int __lkst_maskset_remove(struct lkst_maskset *ms);
void lkst_maskset_free(struct kref *kref);
int __lkst_maskset_set_current(struct lkst_maskset *ms);
struct lkst_maskset *lkst_maskset_current(void);
struct lkst_table *lkst_table_alloc(void);
void __lkst_table_free(struct lkst_table *t);
int __lkst_maskset_parse_line(struct lkst_maskset *ms, struct lkst_table *t,
			      char *line);
int __lkst_maskset_parse(struct lkst_maskset *ms, char *text,
			 struct lkst_table **tablep);
int __lkst_maskset_replace(struct lkst_maskset *ms, struct lkst_table *t);
int __lkst_maskset_commit(struct lkst_maskset *ms, struct lkst_table *t,
			  bool merge);
int __lkst_maskset_write(struct lkst_maskset *ms, char *text);
bool lkst_buffer_recording(struct lkst_buffer *buf);
void __lkst_maskset_drop_handler(struct lkst_handler *h);
bool __lkst_masksets_use_event(unsigned int id);
void lkst_maskset_print(struct seq_buf *s, struct lkst_maskset *ms);
struct list_head *__lkst_masksets_list(void);
void lkst_maskset_create_file(struct lkst_maskset *ms);
void lkst_sync_probes(void);
void lkst_sync_flush(void);
int lkst_masksets_init(void);

/* lkst_control.c */

/*
 * DEFINE_SHOW_ATTRIBUTE() with the check every file under tracing/ makes
 * on open: none while the kernel is locked down (LOCKDOWN_TRACEFS).
 */
#define LKST_DEFINE_SHOW_ATTRIBUTE(__name)				\
static int __name ## _open(struct inode *inode, struct file *file)	\
{									\
	int ret = tracing_check_open_get_tr(NULL);			\
									\
	return ret ? ret : single_open(file, __name ## _show,		\
				       inode->i_private);		\
}									\
									\
static const struct file_operations __name ## _fops = {		\
	.open		= __name ## _open,				\
	.read		= seq_read,					\
	.llseek		= seq_lseek,					\
	.release	= single_release,				\
}

extern struct dentry *lkst_masksets_dir;
extern struct dentry *lkst_buffers_dir;
int lkst_control_files_init(struct dentry *top);

/* lkst_dump.c */
#define LKST_DUMP_MAX		1000	/* records per CPU, and in all */

int lkst_dump_set(unsigned int nr);
unsigned int lkst_dump_get(void);
int lkst_dump_create_files(struct dentry *top);
int lkst_dump_init(void);

/* lkst_persist.c */
#define LKST_PERSIST_MAGIC		0x4c4b5354	/* "LKST" */
#define LKST_PERSIST_VERSION		2
#define LKST_PERSIST_MIN_PAGES		4	/* per CPU */
#define LKST_PERSIST_REASON_MAX		160
#define LKST_LAST_BOOT_INSTANCE		"lkst_last_boot"
#define LKST_PERSIST_ENDED_OOPS		BIT(0)
#define LKST_PERSIST_ENDED_PANIC	BIT(1)
#define LKST_PERSIST_ENDED_REBOOT	BIT(2)
/* set while a boot validates the memory, until it records into it */
#define LKST_PERSIST_ENDED_VALIDATING	BIT(3)

/*
 * The first page of the reserved memory: what a later boot needs to
 * trust the records of the boot that wrote it.  Version 2: one instance
 * in the rest of the memory (version 1 had two halves, and their index).
 */
struct lkst_persist_hdr {
	u32	magic;
	u32	version;
	u32	hdr_size;
	u32	nr_cpus;	/* nr_cpu_ids */
	u64	range_size;	/* of the reserved memory */
	u64	boot;		/* sequence number of the boot */
	s64	boot_time;	/* its wall-clock time at boot, s */
	u32	ended;		/* LKST_PERSIST_ENDED_* */
	char	release[__NEW_UTS_LEN + 1];
	char	kversion[__NEW_UTS_LEN + 1];
	u64	nonce;		/* random: with boot and boot_time, its name */
};

void lkst_persist_hdr_init(struct lkst_persist_hdr *hdr, u64 range_size,
			   u64 boot);
bool lkst_persist_check(const struct lkst_persist_hdr *hdr, u64 range_size,
			char *why, size_t len);
struct trace_array *lkst_persist_init(void);
void lkst_persist_attach(void);
void lkst_persist_boot_print(struct seq_buf *s, const char *name,
			     const struct lkst_persist_hdr *hdr, bool nonce);
void lkst_persist_info_print(struct seq_buf *s);
int lkst_persist_create_files(struct dentry *top);

/*
 * lkst_vmcore.c: what 'lkst extract' reads from a vmcore, found through
 * SYMBOL(lkst_vmcore) in VMCOREINFO.  Fixed-size fields only: the layout
 * is an ABI of version LKST_VMCORE_VERSION.
 */
#define LKST_VMCORE_MAGIC	0x52434d5654534b4cULL	/* "LKSTVMCR" */
#define LKST_VMCORE_VERSION	1
#define LKST_VMCORE_MAX_BUFFERS	(1 + LKST_MAX_USER_BUFFERS)
#define LKST_VMCORE_TEXT_MAX	16384

enum {
	LKST_VMCORE_FORMAT,
	LKST_VMCORE_HEADER_PAGE,
	LKST_VMCORE_HEADER_EVENT,
	LKST_VMCORE_EVENTS,		/* available_events */
	LKST_VMCORE_NR_TEXTS
};

struct lkst_vmcore {
	u64	magic;
	u32	version;
	u32	size;			/* sizeof(struct lkst_vmcore) */
	u64	page_offset;		/* direct map: phys = virt - page_offset */
	u32	nr_cpus;		/* nr_cpu_ids */
	u32	record_size;		/* sizeof(struct lkst_record) */
	u32	max_buffers;		/* entries of buf[] */
	u32	nr_buffers;		/* in use, the default buffer first */
	u64	text[LKST_VMCORE_NR_TEXTS];	/* NUL-terminated copies */
	u32	text_len[LKST_VMCORE_NR_TEXTS];
	struct {
		char	name[LKST_NAME_MAX];
		u64	rb;		/* struct trace_buffer *, see ring_buffer.c */
	} buf[LKST_VMCORE_MAX_BUFFERS];
};

#ifdef CONFIG_VMCORE_INFO
extern struct lkst_vmcore lkst_vmcore;
void lkst_format_print(struct seq_buf *s);
void __lkst_vmcore_update(void);
void __lkst_vmcore_events_update(void);
int lkst_vmcore_print_text(char *buf, size_t size,
			   void (*print)(struct seq_buf *s));
#else
static inline void __lkst_vmcore_update(void) { }
static inline void __lkst_vmcore_events_update(void) { }
#endif

/* lkst_core.c */

/* Why a write was refused, as error_log says (texts in lkst_core.c). */
enum lkst_err_type {
	LKST_ERR_UNKNOWN_EVENT,
	LKST_ERR_MISSING_HANDLER,
	LKST_ERR_UNKNOWN_HANDLER,
	LKST_ERR_UNKNOWN_BUFFER,
	LKST_ERR_TOO_MANY_FIELDS,
	LKST_ERR_DUP_EVENT,
	LKST_ERR_LINE_TOO_LONG,
	LKST_ERR_HANDLER_GOING,
	LKST_ERR_UNKNOWN_MASKSET,
	LKST_ERR_BAD_NAME,
	LKST_ERR_NO_SUCH_NAME,
	LKST_ERR_NAME_EXISTS,
	LKST_ERR_TOO_MANY,
	LKST_ERR_IN_USE,
	LKST_ERR_BUILTIN,
	LKST_ERR_NUL_BYTE,
	LKST_ERR_WRITE_TOO_LARGE,
	LKST_ERR_REMOVED,
	LKST_ERR_NOT_NUMBER,
	LKST_ERR_EARLIER_ERROR,
	LKST_ERR_NO_MEMORY,
	LKST_ERR_DUMP_RANGE,
	LKST_ERR_DYN_COMMAND,
	LKST_ERR_DYN_NAME,
	LKST_ERR_DYN_NO_EVENT,
	LKST_ERR_DYN_NOT_KPROBE,
	LKST_ERR_DYN_BOUND,
	LKST_ERR_DYN_TOO_MANY_ARGS,
	LKST_ERR_DYN_NOT_NUMERIC,
	LKST_ERR_DYN_ARG_NAME,
	LKST_ERR_INSTANCE_EXISTS,
	LKST_ERR_EVENT_REPLACED,
	LKST_NR_ERRS
};

void lkst_log_err(const char *loc, const char *cmd, enum lkst_err_type type,
		  int pos);
const char *lkst_last_err(const char **cmd, int *pos);
bool lkst_name_valid(const char *name);
bool lkst_file_live(struct inode *inode);
int lkst_get_user_text(const char *loc, const char __user *ubuf, size_t cnt,
		       char *buf, size_t size);

#endif /* _LKST_INTERNAL_H */
