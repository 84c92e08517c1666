/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LKST internals shared by the files in kernel/trace/lkst/.
 *
 * Layers, bottom to top.  A file calls into its own layer and the layers
 * below it, never up: no lower file takes a lock, or calls a function, of
 * a higher one (scripts/build/layers checks the objects against this
 * list).
 *
 *   L0 helpers		lkst_util.c: lkst_mutex, error_log, names, writes
 *   L1 data path		lkst_dispatch.c and lkst_record.h: the current
 *			table, the record, DEFAULT and NOTHING
 *   L2 event table	lkst_events.c: the events, their probes, the
 *			dynamic events' slots; lkst_tevent.c: events/lkst
 *   L3 objects		lkst_handler.c: the registry of handlers;
 *			lkst_buffer.c: buffers on pinned instances
 *   L4 masksets		lkst_maskset.c: tables, their parser, switching
 *   L5 crash paths	lkst_dump.c, lkst_persist.c, lkst_vmcore.c
 *   L6 control plane	lkst_control.c, lkst_buffer_files.c,
 *			lkst_dynevent.c: the tracefs files, what they
 *			create and remove, the bindings of dynamic events
 *   L7 init		lkst_core.c
 *
 * Buffers are below masksets, not above: a table holds and pins its
 * buffers, and the parser resolves their names, while a buffer never
 * needs a table.  What describes the buffers (the vmcore's description,
 * last_boot/'s files) is kept by the layers above them.
 *
 * Locking: lkst_mutex serializes the whole control plane (tracefs
 * writes, handler and buffer registration, maskset changes).  Functions
 * named __lkst_*() expect the caller to hold it.  The data plane (the
 * tracepoint probes) only reads lkst_cur_table, an immutable table that
 * is published with RCU and freed after lkst_synchronize_readers().
 */
#ifndef _LKST_INTERNAL_H
#define _LKST_INTERNAL_H

#include <linux/mutex.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/utsname.h>

#include "../trace.h"
#include "lkst_record.h"

#define LKST_LINE_MAX		128	/* of a maskset table */
#define LKST_NAME_CHARS		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
#define LKST_MAX_USER_MASKSETS	64
#define LKST_MAX_USER_BUFFERS	16
#define LKST_DEFAULT_BUFFER	"default"

struct dentry;
struct inode;
struct trace_buffer;
struct trace_event_call;
struct trace_probe_consumer;

/* lkst_util.c */

extern struct mutex lkst_mutex;

/* Why a write was refused, as error_log says (texts in lkst_util.c). */
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
	/* a dynamic event's: the kprobe event whose hits it records */
	struct trace_event_call		*call;
	struct trace_probe_consumer	*consumer;
};

const struct lkst_event_desc *lkst_event_desc(unsigned int id);
const struct lkst_event_desc *lkst_event_lookup(const char *name);
int __lkst_events_attach(const unsigned long *need);
void __lkst_events_detach_unneeded(const unsigned long *need);
bool __lkst_event_attached(unsigned int id);
void lkst_events_print(struct seq_buf *s);
void __lkst_save_comms(bool on);

const struct lkst_event_desc *lkst_event_next(const struct lkst_event_desc *d);
#ifdef CONFIG_LKST_DYNAMIC_EVENTS
int __lkst_event_dyn_id(void);
void __lkst_event_add(const struct lkst_event_desc *d);
bool __lkst_event_recorded(unsigned int id);
void __lkst_event_remove(unsigned int id);
#endif

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

/* lkst_handler.c */
struct lkst_handler *__lkst_handler_lookup(const char *name);
int __lkst_handler_pin(struct lkst_handler *h);
void __lkst_handler_unpin(struct lkst_handler *h);
void __lkst_handler_remove(struct lkst_handler *h);
void lkst_handlers_print(struct seq_buf *s);

/* lkst_buffer.c */
#define LKST_BUF_MIN_KB		8	/* the tests' buffers */
#define LKST_BUF_DEFAULT_KB	256

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

struct lkst_buffer *__lkst_buffer_lookup(const char *name);
struct lkst_buffer *__lkst_buffer_create(const char *name, unsigned long size_kb);
int __lkst_buffer_remove(struct lkst_buffer *buf);
const char *lkst_buffer_name(const struct lkst_buffer *buf);
void __lkst_buffer_pin(struct lkst_buffer *buf);
void __lkst_buffer_unpin(struct lkst_buffer *buf);
struct lkst_buffer *lkst_buffer_default_alloc(void);
int __lkst_buffer_default_init(struct lkst_buffer *buf, struct trace_array *tr);
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
void __lkst_buffers_clear(void);

/* lkst_maskset.c */

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
void lkst_sync_probes(void);
void lkst_sync_flush(void);
int lkst_masksets_init(void);

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
struct lkst_buffer *lkst_persist_last_buffer(void);
struct dentry *lkst_persist_create_files(struct dentry *top);

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
int lkst_last_boot_files_init(struct dentry *top);
int __lkst_user_buffer_create(const char *name);
int __lkst_user_buffer_remove(struct lkst_buffer *buf);

/* lkst_buffer_files.c */
int __lkst_buffer_create_files(struct lkst_buffer *buf, struct dentry *dir);

/* lkst_dynevent.c: events on kprobes, from lkst/dynamic_events */
#ifdef CONFIG_LKST_DYNAMIC_EVENTS
int lkst_dynevent_command(const char *cmd);
int lkst_dynevent_remove_all(void);
void lkst_dynevents_print(struct seq_buf *s);
int lkst_dynevent_create_files(struct dentry *top);
#else
static inline int lkst_dynevent_create_files(struct dentry *top)
{
	return 0;
}
#endif

#endif /* _LKST_INTERNAL_H */
