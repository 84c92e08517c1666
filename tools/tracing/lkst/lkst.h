/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LKST_TOOL_H
#define __LKST_TOOL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BIT(nr)			(1UL << (nr))

/* CPU numbers: below Linux's largest NR_CPUS (x86 MAXSMP, powerpc) */
#define LKST_MAX_CPUS		8192

/* Exit statuses of every command */
#define LKST_EXIT_OK		0
#define LKST_EXIT_FAIL		1	/* error, or damaged input */
#define LKST_EXIT_USAGE		2

#define LKST_NR_ARGS		4
#define LKST_EV_DYN_FIRST	256	/* dynamic events: include/linux/lkst.h */

/* Files of a recording directory, as written by 'lkst record' */
#define LKST_FILE_FORMAT	"format"	/* also that of an older tool */
#define LKST_DIR_FORMATS	"events/lkst"	/* DIR/events/lkst/NAME/format */
#define LKST_FILE_HPAGE		"header_page"
#define LKST_FILE_HEVENT	"header_event"
#define LKST_FILE_EVENTS	"available_events"
#define LKST_FILE_DYNEVENTS	"dynamic_events"	/* their bindings */
#define LKST_FILE_KPROBES	"kprobe_events"	/* the bound kprobe events */
#define LKST_FILE_COMM		"comm"
#define LKST_FILE_KALLSYMS	"kallsyms"	/* /proc/kallsyms, for symbols */
#define LKST_FILE_LAST_BOOT	"last_boot.info"	/* record --last-boot */
#define LKST_FILE_TRACEDAT	"trace.dat"	/* for trace-cmd, at the end */
#define LKST_FILE_TRACEDAT_TMP	"trace.dat.tmp"	/* while it is written */
#define LKST_FILE_CLOCK		"trace_clock"	/* instances/lkst/trace_clock */
#define LKST_FILE_UNAME		"uname"		/* uname -a of the recorder */

/* The buffer instance of a trace.dat whose records are LKST's */
#define LKST_DAT_BUFFER		"lkst"

/* One decoded record: struct lkst_record plus its time and CPU */
struct lkst_event {
	uint64_t	ts;		/* ns, the ring buffer's clock */
	uint64_t	arg[LKST_NR_ARGS];
	uint32_t	pid;
	uint32_t	seq;		/* position in its CPU's stream */
	uint32_t	cpu;
	uint16_t	id;
	uint16_t	type;		/* ftrace's event type (v2), else 0 */
	uint8_t		flags;		/* LKST_CTX_* */
};

/* struct lkst_event.flags: the context the event was recorded in */
#define LKST_CTX_HARDIRQ	0x01
#define LKST_CTX_SOFTIRQ	0x02
#define LKST_CTX_NMI		0x04

struct lkst_evdesc {
	char		*name;
	char		*args[LKST_NR_ARGS];	/* NULL where unused ("-") */
	uint8_t		code;		/* BIT(i): args[i] is a code address */
	/* a dynamic event's argument types: d, u, x, p (symbol), s (text), 0 unknown */
	char		fmt[LKST_NR_ARGS];
};

struct lkst_comm {
	uint32_t	pid;
	uint32_t	order;		/* line in the comm file */
	char		comm[24];
};

/* The events the analyses need, looked up by name in available_events */
enum lkst_known {
	LKST_K_SWITCH,
	LKST_K_WAKEUP,
	LKST_K_FORK,
	LKST_K_EXIT,
	LKST_K_SYS_ENTER,
	LKST_K_SYS_EXIT,
	LKST_K_IRQ_ENTRY,
	LKST_K_IRQ_EXIT,
	LKST_K_NR,
};

/* The kernel's symbols, from the recording's kallsyms (ksyms.c) */
struct lkst_ksym;

struct lkst_ksyms {
	char			*buf;		/* the file; names point into it */
	struct lkst_ksym	*sym;		/* sorted by address */
	size_t			nr;
};

/* A recording (directory or trace.dat), decoded and sorted by time */
struct lkst_trace {
	const char		*dir;		/* or the trace.dat file */
	bool			dat;		/* read from a trace.dat */
	void			*dat_handle;	/* its tracecmd_input, for symbols */
	char			*dat_kallsyms;	/* its kallsyms section, if plain */
	struct lkst_event	*ev;
	size_t			nr;
	struct lkst_evdesc	*desc;		/* indexed by event ID */
	unsigned int		nr_desc;
	struct lkst_comm	*comm;		/* sorted by pid */
	size_t			nr_comm;
	struct lkst_ksyms	ksyms;		/* empty until lkst_ksyms_load() */
	int			known[LKST_K_NR];	/* event ID or -1 */
	int			nr_cpus;	/* highest CPU seen + 1 */
	uint64_t		start, end;	/* first and last timestamps */
	unsigned long		pages;
	unsigned long		missed;		/* events the kernel flagged lost */
	bool			missed_unknown;	/* pages flagged lost, no count */
	bool			damaged;	/* some input could not be decoded */
};

/* cpuN.raw, or cpuN.raw.SEQ when recorded with --rotate */
struct lkst_rawfile {
	char		*name;
	unsigned int	cpu;
	unsigned long	seq;
};

/* trace.c */
int lkst_trace_load(struct lkst_trace *t, const char *dir);
int lkst_rawfiles(const char *dir, struct lkst_rawfile **filesp, size_t *nrp);
void lkst_rawfiles_free(struct lkst_rawfile *files, size_t nr);
int lkst_raw_pages(const char *dir, const char *name,
		   int (*fn)(const void *page, void *arg), void *arg,
		   unsigned int *page_size, unsigned long *skipped);
int lkst_rawfile_count(const char *dir, const char *name, uint32_t pid,
		       unsigned long *events, unsigned long *own);
void lkst_trace_free(struct lkst_trace *t);
const char *lkst_comm(const struct lkst_trace *t, uint32_t pid);
const struct lkst_evdesc *lkst_desc(const struct lkst_trace *t, unsigned int id);
bool lkst_is(const struct lkst_trace *t, const struct lkst_event *e,
	     enum lkst_known k);
int lkst_event_id(const struct lkst_trace *t, const char *name);
void lkst_trace_warn_missed(const struct lkst_trace *t);

/* tracedat.c */
int lkst_tracedat_write(const char *dir, const char *events_dir, bool last_boot);
void lkst_tracedat_signals(bool on);
int lkst_tracedat_info(const char *path, const char *buffer, int *nr_cpus,
		       char **kallsyms);

/* ksyms.c */
void lkst_ksyms_load(struct lkst_trace *t);
void lkst_ksyms_free(struct lkst_ksyms *k);
const char *lkst_ksym(const struct lkst_trace *t, uint64_t addr,
		      uint64_t *off, const char **mod);
void lkst_print_ksym(FILE *f, const struct lkst_trace *t, uint64_t addr);

/* utils.c */
void lkst_err(const char *fmt, ...);
void lkst_warn(const char *fmt, ...);
void *lkst_zalloc(size_t size);
void *lkst_realloc_array(void *p, size_t nmemb, size_t size);
char *lkst_strdup(const char *s);
char *lkst_path(const char *dir, const char *name);
int lkst_read_file(const char *path, char **buf, size_t *size);
int lkst_write_file(const char *path, const char *buf, size_t size);
int lkst_mkdir_p(const char *path);
int lkst_remove_tree(const char *path);
bool lkst_format_is_lkst(const char *fmt);
const char *lkst_kprobe_def(const char *buf, const char *ge, size_t *len);
void lkst_fmt_time(char *buf, size_t len, uint64_t ns);
int lkst_parse_time(const char *s, uint64_t *ns);
int lkst_parse_uint(const char *s, unsigned long *val);
bool lkst_pid_wanted(const unsigned long *pids, size_t nr, uint64_t pid);
const char *lkst_syscall_name(unsigned long nr);
const char *lkst_state_name(uint64_t state);

/* sampled durations, for the latency command */
struct lkst_samples {
	uint64_t	*v;
	size_t		nr, alloc;
};

void lkst_samples_add(struct lkst_samples *s, uint64_t v);
void lkst_samples_sort(struct lkst_samples *s);
uint64_t lkst_samples_pct(const struct lkst_samples *s, unsigned int pct);
void lkst_samples_free(struct lkst_samples *s);

/* states.c, shared with the exporter */
enum lkst_pstate {
	LKST_S_RUNNING,
	LKST_S_READY,
	LKST_S_BLOCKED,
	LKST_S_NR,
	LKST_S_UNKNOWN = LKST_S_NR,
	LKST_S_DEAD,
};

struct lkst_span {
	uint64_t	from, to;
	uint32_t	cpu;		/* for LKST_S_RUNNING */
	uint8_t		state;
};

struct lkst_proc {
	uint32_t	pid;
	int		state;
	uint64_t	since;
	int		cpu;
	uint64_t	first, last;		/* lifetime inside the trace */
	uint64_t	time[LKST_S_NR];
	unsigned long	trans[LKST_S_NR][LKST_S_NR];
	struct lkst_span *span;
	size_t		nr_span, alloc_span;
};

struct lkst_procs {
	struct lkst_proc	*p;
	size_t			nr, alloc;
};

int lkst_states_build(const struct lkst_trace *t, struct lkst_procs *ps,
		      bool spans);
void lkst_states_free(struct lkst_procs *ps);
extern const char * const lkst_state_names[LKST_S_NR];

/* apply.c: the configuration file's [save] and [record] */
#define LKST_CONF_DEFAULT	"/etc/lkst/lkst.conf"
#define LKST_SAVE_DIR		"/var/lib/lkst"
#define LKST_RECORD_DIR		"/var/log/lkst"

struct lkst_conf_dirs {
	char		save_dir[PATH_MAX];	/* boot-ID/, watch/ */
	unsigned long	save_keep;		/* of each */
	char		record_dir[PATH_MAX];	/* BOOT_ID/ */
	char		record_rotate[48];	/* SIZE_KB,COUNT */
	unsigned long	record_keep_boots;
	char		record_maskset[32];
};

int lkst_conf_dirs_read(const char *file, struct lkst_conf_dirs *d);

/* record.c */
int lkst_parse_rotate_arg(const char *arg, unsigned long *size,
			  unsigned long *count);

/* The commands */
int cmd_record(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_states(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_extract(int argc, char **argv);

/* svg.c */
int lkst_svg_write(const struct lkst_trace *t, const struct lkst_procs *ps,
		   const char *path);

#endif /* __LKST_TOOL_H */
