// SPDX-License-Identifier: GPL-2.0
/*
 * lkst record: select a maskset and stream every CPU's raw file to a
 * directory with splice(), until the command ends or a signal comes.
 *
 * One thread polls all CPUs and a signalfd, so that stopping is just the
 * end of a loop: switch back to the previous maskset, then drain what is
 * left in the buffers without blocking.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <tracefs.h>
#include <traceevent/event-parse.h>

#include "lkst.h"

#define LKST_TRACEFS_DIR	"lkst"
#define LKST_INSTANCE		"lkst"	/* instances/lkst, the default buffer's */
/* its size, relative to lkst/ as the other files */
#define LKST_SIZE_FILE		"../instances/" LKST_INSTANCE "/buffer_size_kb"
/* instances/lkst_last_boot: the previous boot's records (lkst.persist=) */
#define LKST_LAST_BOOT_INSTANCE	"lkst_last_boot"
#define LKST_INTERVAL_MS	100	/* between two reads of the buffers */
#define LKST_COMM_SCAN_MS	250	/* names of new processes */
#define LKST_PIPE_SIZE		(256 << 10)
#define LKST_COMMIT_MASK	((1UL << 27) - 1)	/* see header_page */
#define LKST_MAX_RECORD		128	/* bytes: a record with its headers */

struct lkst_cpu {
	int		cpu;
	int		raw;		/* per_cpu/cpuN/raw, O_NONBLOCK */
	int		pipe[2];
	int		out;
	unsigned long	seq;		/* of the current file, rotating */
	unsigned long long file_bytes;
	unsigned long long bytes;	/* all written */
	unsigned long	rotated_out;	/* records in the files removed */
	unsigned long	rotated_files;
	unsigned long long refused;	/* per_cpu/cpuN/refused at the start */
	bool		eof;
};

struct lkst_rec {
	const char	*dir;
	char		*dir_alloc;	/* dir, when made from a config file */
	const char	*maskset;
	unsigned long	size_kb;
	unsigned long long rotate_size;	/* bytes, 0: no rotation */
	unsigned long	rotate_count;
	char		**cmd;
	bool		no_filter;	/* record the recorder too */
	bool		filtered;	/* our pid is in set_event_notrace_pid */
	pid_t		self;
	struct lkst_cpu	*cpus;		/* one per per_cpu/cpuN */
	int		nr_cpus;
	long		page_size;
	long		pipe_size;	/* bytes the pipe takes in one go */
	int		page_pipe[2];	/* one page on its way to a CPU's pipe */
	int		hdr_pipe[2];	/* a copy of its header */
	ssize_t		hdr_size;	/* of a page: time stamp and commit */
	unsigned long	full_size;	/* commit of a page the writer left */
	FILE		*comm;
	/* comm names already written, indexed by pid, to write changes only */
	char		(*names)[16];
	unsigned long	nr_names;
};

static void lkst_record_usage(FILE *f)
{
	fprintf(f,
		"usage: lkst record [-m MASKSET] [-s SIZE_KB] [-o DIR] [--rotate SIZE,COUNT]\n"
		"                   [--no-filter] [-c FILE] [-- COMMAND [ARGS...]]\n"
		"       lkst record --last-boot [-o DIR]\n"
		"       lkst record --last-boot [--save-dir DIR] [--keep N] [-c FILE]\n"
		"\n"
		"Select MASKSET, stream every CPU's LKST buffer into DIR until COMMAND\n"
		"exits (or until SIGINT/SIGTERM without one), then restore the previous\n"
		"maskset and say what was recorded and lost.  The buffer is cleared first.\n"
		"SIGINT/SIGTERM with COMMAND sends it SIGTERM, a second one SIGKILL, and\n"
		"recording goes on until it has ended.\n"
		"DIR gets cpuN.raw per CPU and the files that describe them (with a copy\n"
		"of /proc/kallsyms for the names of code addresses), so that it can be\n"
		"analysed anywhere with 'lkst report|states|latency|export DIR'.\n"
		"When the recording ends, DIR/trace.dat gets the same records in trace-cmd's\n"
		"format (version 7, buffer instance lkst), for 'trace-cmd report -i\n"
		"DIR/trace.dat', KernelShark and 'lkst report DIR/trace.dat'; with --rotate,\n"
		"of the files kept.\n"
		"The recorder keeps its own events out of the recording (its pid is in\n"
		"instances/lkst/set_event_notrace_pid while it runs), but for its context\n"
		"switches and wakeups; COMMAND's are recorded.  At the end it\n"
		"says how many events were kept, how many the rotation removed on\n"
		"purpose and how many the kernel lost (overwritten before they were\n"
		"read, or dropped by a full buffer).\n"
		"\n"
		"With --last-boot, save the records the previous boot left in the\n"
		"persistent buffer (lkst/last_boot/, see lkst.persist=) as such a\n"
		"recording instead; nothing is recorded, and the records stay there.\n"
		"Its trace.dat has this boot's event formats, written only when they\n"
		"describe every record (the same kernel, no dynamic events).\n"
		"With --save-dir (what lkst-last-boot.service runs at each boot), the\n"
		"recording is DIR/boot-ID, ID the previous boot's id (as journalctl\n"
		"--list-boots shows it), found in DIR/boots, where each boot notes its id\n"
		"with its last_boot/info this_boot and this_boot_time; boot-unknown-SEQ-TIME\n"
		"when the previous boot did not note it.  A previous boot without records,\n"
		"or already saved, is not an error.  The oldest boot-* beyond N are removed.\n"
		"\n"
		"With -c FILE (what lkst-record.service runs), FILE's [record] gives the\n"
		"directory (its dir/BOOT_ID, keeping keep_boots of them), --rotate and -m.\n"
		"\n"
		"  -m, --maskset NAME     maskset to record with (default RDEFAULT)\n"
		"  -s, --size KB          per-CPU buffer size while recording\n"
		"  -o, --output DIR       recording directory (default lkst.data)\n"
		"  -r, --rotate SIZE,COUNT  flight recorder on disk: at most COUNT files of\n"
		"                         SIZE KiB per CPU (cpuN.raw.SEQ), oldest removed\n"
		"      --no-filter        record the recorder's own events too\n"
		"      --last-boot        save the previous boot's records\n"
		"      --save-dir DIR     with --last-boot: into DIR/boot-ID (default\n"
		"                         " LKST_SAVE_DIR ", or [save] dir of -c FILE)\n"
		"      --keep N           with --save-dir: keep N boots (default 10, or\n"
		"                         [save] keep of -c FILE)\n"
		"  -c, --config FILE      take the settings of FILE (e.g. " LKST_CONF_DEFAULT ")\n"
		"  -h, --help             this text\n"
		"\n"
		"Needs root (or write access to /sys/kernel/tracing/lkst).\n");
}

static char *lkst_lkst_file(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), LKST_TRACEFS_DIR "/%s", name);
	return tracefs_instance_get_file(NULL, path);
}

/* Read @rel under the tracing directory; NULL with a message on failure */
static char *lkst_tracing_read(const char *rel)
{
	char *path = tracefs_instance_get_file(NULL, rel);
	char *buf = NULL;
	int ret = -ENOMEM;

	if (path)
		ret = lkst_read_file(path, &buf, NULL);
	if (ret)
		lkst_err("%s: %s", path ? path : rel, strerror(-ret));
	tracefs_put_tracing_file(path);
	return ret ? NULL : buf;
}

/*
 * lkst/[buffers/NAME/]per_cpu/cpuN/refused: the records the ring buffer
 * refused, which only grows; 0, with a message, if it cannot be read
 */
static unsigned long long lkst_refused_read(const char *bufdir, int cpu)
{
	char rel[160], *buf;
	unsigned long long v = 0;

	snprintf(rel, sizeof(rel), LKST_TRACEFS_DIR "/%sper_cpu/cpu%d/refused",
		 bufdir, cpu);
	buf = lkst_tracing_read(rel);
	if (buf)
		v = strtoull(buf, NULL, 10);
	free(buf);
	return v;
}

/* The stats of @cpu in instance @inst ("lkst", "lkst.NAME"), as text */
static char *lkst_stats_read(const char *inst, int cpu)
{
	char rel[160];

	snprintf(rel, sizeof(rel), "instances/%s/per_cpu/cpu%d/stats", inst, cpu);
	return lkst_tracing_read(rel);
}

/*
 * The ring buffer's page and event headers of instance @inst, as its
 * events/header_page and events/header_event say: each buffer has its
 * own sub-buffer size.  @name is LKST_FILE_HPAGE or LKST_FILE_HEVENT.
 */
static char *lkst_header_read(const char *inst, const char *name)
{
	char rel[160];

	snprintf(rel, sizeof(rel), "instances/%s/events/%s", inst, name);
	return lkst_tracing_read(rel);
}

/*
 * Drop the records of the default buffer, as "> trace" of its instance
 * does; 0 or -errno with a message.
 */
static int lkst_clear(void)
{
	char *path = tracefs_instance_get_file(NULL, "instances/" LKST_INSTANCE "/trace");
	int fd, ret = -ENOMEM;

	if (path) {
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		ret = fd < 0 ? -errno : 0;
		if (fd >= 0)
			close(fd);
	}
	if (ret)
		lkst_err("clearing %s: %s", path ? path : "instances/" LKST_INSTANCE "/trace",
			 strerror(-ret));
	tracefs_put_tracing_file(path);
	return ret;
}

/* Read a tracefs lkst file; NULL with a message on failure */
static char *lkst_tracefs_read(const char *name)
{
	char rel[256];

	snprintf(rel, sizeof(rel), LKST_TRACEFS_DIR "/%s", name);
	return lkst_tracing_read(rel);
}

static int lkst_tracefs_write(const char *name, const char *val)
{
	char *path = lkst_lkst_file(name);
	ssize_t n = -1;
	int fd, err = ENOMEM;

	if (path) {
		fd = open(path, O_WRONLY);
		if (fd >= 0) {
			n = write(fd, val, strlen(val));
			err = errno;
			close(fd);
		} else {
			err = errno;
		}
	}
	if (n < 0)
		lkst_err("writing '%s' to %s: %s", val, path ? path : name,
			 strerror(err));
	tracefs_put_tracing_file(path);
	return n < 0 ? -err : 0;
}

static void lkst_chomp(char *s)
{
	size_t len = strlen(s);

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		s[--len] = '\0';
}

/* Is @name listed in available_masksets ("[NAME]" marks the current one)? */
static bool lkst_maskset_known(const char *list, const char *name)
{
	const char *p = list;
	size_t len = strlen(name);

	while (*p) {
		if (*p == '[')
			p++;
		if (!strncmp(p, name, len) && (p[len] == '\n' || p[len] == ']' ||
					       !p[len]))
			return true;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return false;
}

/* The ring-buffer page layout of instance @inst, from its header_page */
static int lkst_page_layout(struct lkst_rec *r, const char *inst)
{
	struct tep_handle *tep = tep_alloc();
	char *hp = lkst_header_read(inst, LKST_FILE_HPAGE);
	int ret = -EINVAL;

	if (tep && hp && !tep_parse_header_page(tep, hp, strlen(hp), sizeof(long))) {
		r->page_size = tep_get_sub_buffer_size(tep);
		r->hdr_size = 8 + tep_get_header_page_size(tep);
		if (r->hdr_size <= 16 && r->page_size > r->hdr_size + 2 * LKST_MAX_RECORD) {
			r->full_size = r->page_size - r->hdr_size - LKST_MAX_RECORD;
			ret = 0;
		}
	}
	if (ret && hp)
		lkst_err("instances/%s/events/%s: unexpected page layout",
			 inst, LKST_FILE_HPAGE);
	free(hp);
	if (tep)
		tep_free(tep);
	return ret;
}

/* Write LEN bytes of BUF to DIR/NAME; 0 or -errno, with a message */
static int lkst_save(const char *dir, const char *name, const char *buf,
		     size_t len)
{
	char *path = lkst_path(dir, name);
	int ret;

	ret = lkst_write_file(path, buf, len);
	if (ret)
		lkst_err("%s: %s", path, strerror(-ret));
	free(path);
	return ret;
}

/* Save @buf (NULL: it could not be read) as DIR/NAME, and free it */
static int lkst_save_read(const char *dir, const char *name, char *buf)
{
	int ret;

	if (!buf)
		return -EIO;
	ret = lkst_save(dir, name, buf, strlen(buf));
	free(buf);
	return ret;
}

/* Copy lkst/SRC to DIR/DST; 0 or -errno, with a message */
static int lkst_copy_lkst_file(const char *dir, const char *src,
			       const char *dst)
{
	return lkst_save_read(dir, dst, lkst_tracefs_read(src));
}

/* Copy the page and event headers of instance @inst into DIR */
static int lkst_copy_headers(const char *dir, const char *inst)
{
	int ret;

	ret = lkst_save_read(dir, LKST_FILE_HPAGE,
			     lkst_header_read(inst, LKST_FILE_HPAGE));
	if (ret)
		return ret;
	return lkst_save_read(dir, LKST_FILE_HEVENT,
			      lkst_header_read(inst, LKST_FILE_HEVENT));
}

/*
 * Copy the format of every LKST event of instance @inst into
 * DIR/events/lkst/NAME/format: the layout of the records, which the
 * decoder reads.  Other events of the system lkst (a kprobe event
 * "p:lkst/NAME" may be one) are not LKST's records, and a dynamic event
 * removed meanwhile is left out.
 */
static int lkst_copy_formats(const char *dir, const char *inst)
{
	char rel[320], *src, *path, *sub, *buf;
	struct dirent *de;
	int ret = 0, n = 0;
	DIR *d;

	snprintf(rel, sizeof(rel), "instances/%s/events/lkst", inst);
	src = tracefs_instance_get_file(NULL, rel);
	d = src ? opendir(src) : NULL;
	if (!d) {
		lkst_err("%s: %s", src ? src : rel, strerror(src ? errno : ENOMEM));
		tracefs_put_tracing_file(src);
		return -EIO;
	}
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/%s/" LKST_FILE_FORMAT, src, de->d_name) < 0) {
			ret = -ENOMEM;
			break;
		}
		buf = NULL;
		ret = lkst_read_file(path, &buf, NULL);
		/* the system's enable and filter; an event just removed */
		if (ret == -ENOTDIR || ret == -ENOENT || ret == -ENODEV) {
			ret = 0;
		} else if (ret) {
			lkst_err("%s: %s", path, strerror(-ret));
		} else if (lkst_format_is_lkst(buf)) {
			if (asprintf(&sub, "%s/" LKST_DIR_FORMATS "/%s", dir,
				     de->d_name) < 0) {
				ret = -ENOMEM;
			} else {
				ret = lkst_mkdir_p(sub);
				if (ret)
					lkst_err("%s: %s", sub, strerror(-ret));
				else
					ret = lkst_save(sub, LKST_FILE_FORMAT, buf,
							strlen(buf));
				free(sub);
				n++;
			}
		}
		free(buf);
		free(path);
	}
	closedir(d);
	if (!ret && !n) {
		lkst_err("%s: no LKST event formats", src);
		ret = -ENOENT;
	}
	tracefs_put_tracing_file(src);
	return ret;
}

/*
 * The definitions of the kprobe events that the lines "NAME GROUP/EVENT"
 * of lkst/dynamic_events (@binds) bind LKST events to: their lines of
 * ftrace's dynamic_events (kprobe_events without it), "p:GROUP/EVENT
 * SYMBOL NAME=FETCHARG:TYPE ...", in the order of the bindings, into
 * DIR/kprobe_events.  Not written when nothing is bound, nor, with a
 * warning, when ftrace's file cannot be read.  (An LKST that
 * defined its events itself read them back as "p:NAME SYMBOL ...", which
 * need nothing more.)
 */
static int lkst_copy_kprobes(const char *dir, const char *binds)
{
	char *copy, *line, *save = NULL, *s2, *name, *ge, *defs = NULL, *path;
	const char *rel = "dynamic_events", *def;
	char *out = NULL;
	size_t len, out_len = 0;
	FILE *f = NULL;
	int ret = 0;

	copy = lkst_strdup(binds);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		s2 = NULL;
		name = strtok_r(line, " \t", &s2);
		ge = name ? strtok_r(NULL, " \t", &s2) : NULL;
		if (!ge || name[0] == '#' || strchr(name, ':'))
			continue;
		if (!f) {
			path = tracefs_instance_get_file(NULL, rel);
			if (path && access(path, F_OK))
				rel = "kprobe_events";
			tracefs_put_tracing_file(path);
			defs = lkst_tracing_read(rel);
			if (!defs) {
				/* a recording without the types is still one */
				lkst_warn("%s not saved: the arguments of the dynamic events will print by their names",
					  LKST_FILE_KPROBES);
				break;
			}
			f = open_memstream(&out, &out_len);
			if (!f) {
				ret = -errno;
				lkst_err("%s: %s", LKST_FILE_KPROBES, strerror(-ret));
				break;
			}
		}
		def = lkst_kprobe_def(defs, ge, &len);
		if (def)
			fprintf(f, "%.*s\n", (int)len, def);
		else
			lkst_warn("%s has no kprobe event %s, which LKST event %s is bound to: its arguments will print by their names",
				  rel, ge, name);
	}
	if (f) {
		if (fclose(f)) {
			ret = -errno;
			lkst_err("%s: %s", LKST_FILE_KPROBES, strerror(-ret));
		} else if (!ret) {
			ret = lkst_save(dir, LKST_FILE_KPROBES, out, out_len);
		}
	}
	free(out);
	free(defs);
	free(copy);
	return ret;
}

/*
 * The definitions of the dynamic events, which say how to print their
 * arguments (lkst report): lkst/dynamic_events, and the kprobe events it
 * binds them to.  A kernel without dynamic events has none.
 */
static int lkst_copy_dynevents(const char *dir)
{
	char *path = lkst_lkst_file(LKST_FILE_DYNEVENTS);
	char *buf = NULL;
	int ret = 0;

	if (path && !access(path, R_OK)) {
		ret = lkst_read_file(path, &buf, NULL);
		if (ret)
			lkst_err("%s: %s", path, strerror(-ret));
	}
	tracefs_put_tracing_file(path);
	if (!buf)
		return ret;
	ret = lkst_save(dir, LKST_FILE_DYNEVENTS, buf, strlen(buf));
	if (!ret)
		ret = lkst_copy_kprobes(dir, buf);
	free(buf);
	return ret;
}

/*
 * What DIR/trace.dat names besides the records: the clock of the buffer
 * instance (its trace_clock, "[local] global ..."), and the machine (uname
 * -a, whose release goes into the VERSION option).  Saved now, since the
 * clock can change and trace.dat is written from DIR alone.
 */
static int lkst_save_clock_uname(const char *dir, const char *instance)
{
	char name[96], *path, *buf = NULL, uts[5 * 65 + 8];
	struct utsname u;
	int ret = -ENOENT;

	snprintf(name, sizeof(name), "instances/%s/trace_clock", instance);
	path = tracefs_instance_get_file(NULL, name);
	/* without it (no such instance), trace.dat names the clock "local" */
	if (path)
		ret = lkst_read_file(path, &buf, NULL);
	if (ret) {
		lkst_warn("%s: %s: trace.dat will name the clock \"local\"",
			  path ? path : name, strerror(-ret));
		ret = 0;
	} else {
		ret = lkst_save(dir, LKST_FILE_CLOCK, buf, strlen(buf));
	}
	tracefs_put_tracing_file(path);
	free(buf);
	if (ret)
		return ret;
	if (uname(&u))
		return 0;
	snprintf(uts, sizeof(uts), "%s %s %s %s %s\n", u.sysname, u.nodename,
		 u.release, u.version, u.machine);
	return lkst_save(dir, LKST_FILE_UNAME, uts, strlen(uts));
}

static int lkst_copy_meta(const struct lkst_rec *r, const char *instance)
{
	int ret;

	ret = lkst_copy_formats(r->dir, instance);
	if (!ret)
		ret = lkst_copy_headers(r->dir, instance);
	if (!ret)
		ret = lkst_copy_lkst_file(r->dir, LKST_FILE_EVENTS, LKST_FILE_EVENTS);
	if (ret)
		return ret;
	ret = lkst_save_clock_uname(r->dir, instance);
	if (ret)
		return ret;
	return lkst_copy_dynevents(r->dir);
}

/* Does every line of a kallsyms file have address 0 (kptr_restrict)? */
static bool lkst_kallsyms_hidden(const char *buf)
{
	const char *p;

	for (p = buf; *p; p++) {
		p += strspn(p, "0");
		if (*p != ' ' && *p != '\n')
			return false;
		p = strchr(p, '\n');
		if (!p)
			break;
	}
	return true;
}

/*
 * Save /proc/kallsyms as DIR/kallsyms, as trace-cmd does, so that code
 * addresses can be printed as symbols on any machine: when the recording
 * starts, so that a recording cut short has it, and again at the end, for
 * modules loaded meanwhile.  Addresses hidden from this user
 * (kptr_restrict) are of no use: then nothing is saved.
 */
static void lkst_save_kallsyms(const struct lkst_rec *r, bool first)
{
	char *buf, *path, *tmp;
	size_t len;
	int ret;

	ret = lkst_read_file("/proc/kallsyms", &buf, &len);
	if (ret) {
		if (first)
			lkst_warn("/proc/kallsyms: %s; code addresses will be shown in hex",
				  strerror(-ret));
		return;
	}
	if (!len || lkst_kallsyms_hidden(buf)) {
		if (first)
			lkst_warn("/proc/kallsyms hides the addresses (kernel.kptr_restrict, or not root): not saved, code addresses will be shown in hex");
		free(buf);
		return;
	}
	path = lkst_path(r->dir, LKST_FILE_KALLSYMS);
	tmp = lkst_path(r->dir, LKST_FILE_KALLSYMS ".tmp");
	ret = lkst_write_file(tmp, buf, len);
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		lkst_warn("%s: %s", path, strerror(-ret));
		unlink(tmp);
	}
	free(tmp);
	free(path);
	free(buf);
}

/*
 * Write "PID NAME" for every task whose name is new or changed since the
 * last scan (threads too: records carry thread ids).
 */
static void lkst_comm_scan(struct lkst_rec *r)
{
	char path[96], name[32];
	struct dirent *pe, *te;
	unsigned long pid, tid;
	DIR *proc, *task;
	size_t len;
	ssize_t n;
	int fd;

	proc = opendir("/proc");
	if (!proc)
		return;
	while ((pe = readdir(proc))) {
		if (lkst_parse_uint(pe->d_name, &pid))
			continue;
		snprintf(path, sizeof(path), "/proc/%lu/task", pid);
		task = opendir(path);
		if (!task)
			continue;
		while ((te = readdir(task))) {
			if (lkst_parse_uint(te->d_name, &tid) || tid > (1UL << 22))
				continue;
			snprintf(path, sizeof(path), "/proc/%lu/task/%lu/comm",
				 pid, tid);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				continue;
			n = read(fd, name, sizeof(name) - 1);
			close(fd);
			if (n <= 0)
				continue;
			name[n] = '\0';
			lkst_chomp(name);
			if (tid >= r->nr_names) {
				unsigned long nr = tid + 1024;

				r->names = lkst_realloc_array(r->names, nr,
							      sizeof(*r->names));
				memset(r->names + r->nr_names, 0,
				       (nr - r->nr_names) * sizeof(*r->names));
				r->nr_names = nr;
			}
			if (!strncmp(r->names[tid], name, sizeof(r->names[0])))
				continue;
			/* comm is at most 15 characters; cut anything longer */
			len = strnlen(name, sizeof(r->names[0]) - 1);
			memcpy(r->names[tid], name, len);
			r->names[tid][len] = '\0';
			fprintf(r->comm, "%lu %s\n", tid, name);
		}
		closedir(task);
	}
	closedir(proc);
	fflush(r->comm);
}

static int lkst_open_out(struct lkst_rec *r, struct lkst_cpu *c)
{
	char name[64], *path;

	if (r->rotate_size)
		snprintf(name, sizeof(name), "cpu%d.raw.%06lu", c->cpu, c->seq);
	else
		snprintf(name, sizeof(name), "cpu%d.raw", c->cpu);
	path = lkst_path(r->dir, name);
	/* O_CLOEXEC: the command must not keep rotated-out files alive */
	c->out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (c->out < 0)
		lkst_err("%s: %s", path, strerror(errno));
	free(path);
	c->file_bytes = 0;
	return c->out < 0 ? -1 : 0;
}

/* Start the next file of a rotating CPU; drop the oldest beyond COUNT. */
static int lkst_rotate(struct lkst_rec *r, struct lkst_cpu *c)
{
	char name[64], *path;

	close(c->out);
	c->seq++;
	if (c->seq >= r->rotate_count) {
		unsigned long events, own;

		snprintf(name, sizeof(name), "cpu%d.raw.%06lu", c->cpu,
			 c->seq - r->rotate_count);
		/* What the rotation removes on purpose is counted, not lost. */
		if (!lkst_rawfile_count(r->dir, name, r->self, &events, &own)) {
			c->rotated_out += events;
			c->rotated_files++;
		}
		path = lkst_path(r->dir, name);
		if (unlink(path) && errno != ENOENT)
			lkst_warn("%s: %s", path, strerror(errno));
		free(path);
	}
	return lkst_open_out(r, c);
}

/* Move what is in the pipe to the file */
static int lkst_flush_pipe(struct lkst_cpu *c, ssize_t len)
{
	ssize_t n;

	while (len > 0) {
		n = splice(c->pipe[0], NULL, c->out, NULL, len, SPLICE_F_MOVE);
		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			lkst_err("cpu%d: writing the recording: %s", c->cpu,
				 n ? strerror(errno) : "short write");
			return -1;
		}
		len -= n;
		c->bytes += n;
		c->file_bytes += n;
	}
	return 0;
}

/*
 * Splice one page of the CPU's buffer into its pipe; 0 when there is
 * none.  Peek at the page header on the way (tee() copies no data) to
 * tell a full page from one the writer is still filling: reading the
 * latter again and again would mostly collect the recorder's own events.
 */
static ssize_t lkst_splice_page(struct lkst_rec *r, struct lkst_cpu *c,
				bool *full)
{
	unsigned char hdr[32];
	unsigned long commit = 0;
	ssize_t n, m, moved;

	n = splice(c->raw, NULL, r->page_pipe[1], NULL, r->page_size,
		   SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
	if (n <= 0)
		return n;
	*full = false;
	if (tee(r->page_pipe[0], r->hdr_pipe[1], r->hdr_size, 0) == r->hdr_size &&
	    read(r->hdr_pipe[0], hdr, r->hdr_size) == r->hdr_size) {
		memcpy(&commit, hdr + 8, r->hdr_size - 8);
		*full = (commit & LKST_COMMIT_MASK) >= r->full_size;
	}
	for (moved = 0; moved < n; moved += m) {
		m = splice(r->page_pipe[0], NULL, c->pipe[1], NULL, n - moved,
			   SPLICE_F_MOVE);
		if (m <= 0) {
			lkst_err("cpu%d: splice: %s", c->cpu,
				 m ? strerror(errno) : "pipe empty");
			errno = EIO;
			return -1;
		}
	}
	return n;
}

/*
 * Batches of a pipe's worth one CPU may move per round of the loop:
 * a recorder that records itself (--no-filter) and cannot keep up would
 * otherwise never get back to notice that its command has ended.  The
 * next round then starts at once.
 */
#define LKST_MAX_BATCHES	8

/*
 * Move the CPU's full pages to its file, in batches of a pipe's worth;
 * with @all, everything up to the last partial page.  A rotated file
 * always ends on a page.  Returns 0, 1 if full pages are left after
 * LKST_MAX_BATCHES (not with @all), or -1 on an error (reported).
 */
static int lkst_drain_cpu(struct lkst_rec *r, struct lkst_cpu *c, bool all)
{
	unsigned long long room;
	bool empty = false, full = true;
	ssize_t n, in_pipe;
	int batches = 0;

	/*
	 * raw reads as end of file while nothing records into the buffer,
	 * which a maskset switch during the recording can make temporary.
	 */
	if (!all)
		c->eof = false;
	while (!c->eof && !empty && (full || all) &&
	       (all || batches++ < LKST_MAX_BATCHES)) {
		if (r->rotate_size && c->file_bytes >= r->rotate_size &&
		    lkst_rotate(r, c))
			return -1;
		room = r->pipe_size;
		if (r->rotate_size && r->rotate_size - c->file_bytes < room)
			room = r->rotate_size - c->file_bytes;
		for (in_pipe = 0; in_pipe < (ssize_t)room && (full || all); ) {
			n = lkst_splice_page(r, c, &full);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno != EAGAIN) {
				lkst_err("cpu%d: reading raw: %s", c->cpu,
					 strerror(errno));
				return -1;
			}
			if (n <= 0) {
				empty = true;
				c->eof = !n;
				break;
			}
			in_pipe += n;
		}
		if (lkst_flush_pipe(c, in_pipe))
			return -1;
	}
	return !all && !c->eof && !empty && full;
}

static int lkst_open_cpus(struct lkst_rec *r)
{
	char *dir = lkst_lkst_file("per_cpu"), path[512];
	struct dirent *de;
	struct lkst_cpu *c;
	int cpu;
	DIR *d;

	d = dir ? opendir(dir) : NULL;
	if (!d) {
		lkst_err("%s: %s", dir ? dir : "per_cpu", strerror(errno));
		tracefs_put_tracing_file(dir);
		return -1;
	}
	while ((de = readdir(d))) {
		unsigned long v;
		char *end;

		if (strncmp(de->d_name, "cpu", 3) || de->d_name[3] < '0' ||
		    de->d_name[3] > '9')
			continue;
		errno = 0;
		v = strtoul(de->d_name + 3, &end, 10);
		if (*end)
			continue;
		if (errno || v >= LKST_MAX_CPUS) {
			lkst_err("%s/%s: CPU number too large (at most %d)", dir,
				 de->d_name, LKST_MAX_CPUS - 1);
			break;
		}
		cpu = v;
		r->cpus = lkst_realloc_array(r->cpus, r->nr_cpus + 1,
					     sizeof(*r->cpus));
		c = &r->cpus[r->nr_cpus];
		memset(c, 0, sizeof(*c));
		c->cpu = cpu;
		c->out = -1;
		snprintf(path, sizeof(path), "%s/%s/raw", dir, de->d_name);
		c->raw = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->raw < 0) {
			lkst_err("%s: %s", path, strerror(errno));
			break;
		}
		if (pipe2(c->pipe, O_CLOEXEC)) {
			lkst_err("pipe: %s", strerror(errno));
			close(c->raw);
			break;
		}
		fcntl(c->pipe[1], F_SETPIPE_SZ, LKST_PIPE_SIZE);
		r->pipe_size = fcntl(c->pipe[1], F_GETPIPE_SZ);
		if (r->pipe_size < r->page_size)
			r->pipe_size = r->page_size;
		r->pipe_size -= r->pipe_size % r->page_size;
		r->nr_cpus++;
		if (lkst_open_out(r, c))
			break;
	}
	closedir(d);
	tracefs_put_tracing_file(dir);
	if (de || !r->nr_cpus)
		return -1;
	return 0;
}

static void lkst_close_cpus(struct lkst_rec *r)
{
	int i;

	for (i = 0; i < r->nr_cpus; i++) {
		close(r->cpus[i].raw);
		close(r->cpus[i].pipe[0]);
		close(r->cpus[i].pipe[1]);
		if (r->cpus[i].out >= 0)
			close(r->cpus[i].out);
	}
	free(r->cpus);
	r->cpus = NULL;
	r->nr_cpus = 0;
}

/* The records now in the files of a CPU, and the recorder's own among them */
static void lkst_count_kept(struct lkst_rec *r, struct lkst_cpu *c,
			    unsigned long *kept, unsigned long *own)
{
	unsigned long seq, first = 0, events, mine;
	char name[64];

	*kept = 0;
	*own = 0;
	if (r->rotate_size && c->seq + 1 > r->rotate_count)
		first = c->seq + 1 - r->rotate_count;
	for (seq = first; seq <= c->seq; seq++) {
		if (r->rotate_size)
			snprintf(name, sizeof(name), "cpu%d.raw.%06lu", c->cpu, seq);
		else
			snprintf(name, sizeof(name), "cpu%d.raw", c->cpu);
		if (lkst_rawfile_count(r->dir, name, r->self, &events, &mine))
			continue;
		*kept += events;
		*own += mine;
		if (!r->rotate_size)
			break;
	}
}

/*
 * Say what happened to the events: per CPU, read = kept + rotated out
 * (on purpose), and what the kernel lost: overwritten before they were
 * read, or dropped by a full buffer.  False if the kernel lost any.
 */
static bool lkst_report_stats(struct lkst_rec *r)
{
	unsigned long long total = 0, bytes = 0, overrun = 0, lost = 0;
	unsigned long long kept_all = 0, rot_all = 0, own_all = 0, files = 0;
	unsigned long long v, read, ovr, lst;
	char *buf, *p, *save = NULL;
	unsigned long kept, own;
	bool ok = true;
	int i;

	for (i = 0; i < r->nr_cpus; i++) {
		struct lkst_cpu *c = &r->cpus[i];

		buf = lkst_stats_read(LKST_INSTANCE, c->cpu);
		if (!buf)
			continue;
		read = 0;
		ovr = 0;
		for (p = strtok_r(buf, "\n", &save); p;
		     p = strtok_r(NULL, "\n", &save)) {
			if (sscanf(p, "read events: %llu", &v) == 1)
				read = v;
			else if (sscanf(p, "overrun: %llu", &v) == 1)
				ovr = v;
		}
		free(buf);
		/*
		 * Lost: overwritten before they were read, or refused (a
		 * full buffer in stop mode, a commit overrun, a resize, ...)
		 */
		lst = lkst_refused_read("", c->cpu) - c->refused;
		lkst_count_kept(r, c, &kept, &own);
		printf("  cpu%-3d %10llu events read: %10lu kept, %8lu rotated out;"
		       " %8llu overwritten, %8llu dropped\n",
		       c->cpu, read, kept, c->rotated_out, ovr, lst);
		if (kept + c->rotated_out != read)
			lkst_warn("cpu%d: %lu kept + %lu rotated out != %llu read: damaged files?",
				  c->cpu, kept, c->rotated_out, read);
		total += read;
		bytes += c->bytes;
		overrun += ovr;
		lost += lst;
		kept_all += kept;
		rot_all += c->rotated_out;
		files += c->rotated_files;
		own_all += own;
	}
	printf("lkst: recorded %llu events (%llu KiB) in %s: %llu kept", total,
	       bytes >> 10, r->dir, kept_all);
	if (r->rotate_size)
		printf(", %llu in the %llu oldest files the rotation removed",
		       rot_all, files);
	printf("\n");
	if (overrun || lost) {
		printf("lkst: LOST in the kernel: %llu", overrun + lost);
		printf(" (%llu overwritten before they were read, %llu dropped)\n",
		       overrun, lost);
		printf("lkst: use a larger buffer (-s) or fewer events (-m)\n");
		ok = false;
	} else {
		printf("lkst: nothing lost in the kernel\n");
	}
	printf("lkst: the recorder's own events: %llu", own_all);
	if (r->filtered)
		printf(" (its switches and wakeups; set_event_notrace_pid kept out the rest)\n");
	else
		printf(" of %llu kept\n", kept_all);
	return ok;
}

/*
 * DIR/trace.dat, for trace-cmd and the other readers of ftrace's files,
 * from what DIR holds and the formats of the events of system lkst.  A
 * recording that cannot have one (see lkst_tracedat_write()) is not a
 * failed recording: DIR is complete without it.
 */
static int lkst_save_tracedat(const char *dir, bool last_boot)
{
	const char *tracing = tracefs_tracing_dir();
	char *events;
	int ret;

	if (!tracing || asprintf(&events, "%s/events/lkst", tracing) < 0) {
		lkst_err("tracefs not found: no %s/%s", dir, LKST_FILE_TRACEDAT);
		return -1;
	}
	ret = lkst_tracedat_write(dir, events, last_boot);
	free(events);
	return ret < 0 ? -1 : 0;
}

/*
 * Keep @pid out of the recording of instance @inst (@add), or let it back
 * in: the instance's set_event_notrace_pid.  An open without O_TRUNC adds.
 * ftrace's list has no syntax to take one pid out: that reads the list
 * and, if @pid is in it, writes back the rest (so the list is empty for a
 * moment, and every task in it recorded).  lkst's commands take an flock()
 * on the file around that, so that they do not undo each other's change.
 * Return: 0, also when there was nothing to take out; -ENOENT, quietly,
 * without the file; another -errno with a message.
 */
static int lkst_notrace_inst(const char *inst, pid_t pid, bool add)
{
	char name[160], *path, *list = NULL, *rest = NULL, *p, *save;
	int lock, fd, ret = 0;
	size_t len = 0;
	bool found = false;
	ssize_t n;
	FILE *f;

	snprintf(name, sizeof(name), "instances/%s/set_event_notrace_pid", inst);
	path = tracefs_instance_get_file(NULL, name);
	if (!path)
		return -ENOMEM;
	lock = open(path, O_RDONLY | O_CLOEXEC);
	if (lock < 0) {
		ret = -errno;
		if (ret != -ENOENT)
			lkst_err("%s: %s", path, strerror(-ret));
		tracefs_put_tracing_file(path);
		return ret;
	}
	if (flock(lock, LOCK_EX)) {
		ret = -errno;
		goto out;
	}
	if (add) {
		if (asprintf(&rest, "%d\n", (int)pid) < 0) {
			rest = NULL;
			ret = -ENOMEM;
			goto out;
		}
	} else {
		ret = lkst_read_file(path, &list, NULL);
		if (ret)
			goto out;
		f = open_memstream(&rest, &len);
		if (!f) {
			ret = -errno;
			goto out;
		}
		for (p = strtok_r(list, "\n\t ", &save); p;
		     p = strtok_r(NULL, "\n\t ", &save)) {
			if (atoi(p) == pid)
				found = true;
			else
				fprintf(f, "%s ", p);
		}
		if (fclose(f)) {
			ret = -ENOMEM;
			goto out;
		}
		if (!found)
			goto out;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC | (add ? 0 : O_TRUNC));
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	len = strlen(rest);
	n = len ? write(fd, rest, len) : 0;
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
out:
	if (ret)
		lkst_err("%s: %s pid %d: %s", path, add ? "adding" : "removing",
			 (int)pid, strerror(-ret));
	close(lock);
	free(rest);
	free(list);
	tracefs_put_tracing_file(path);
	return ret;
}

/*
 * @pid out of (@add) or back into the recording of every LKST buffer:
 * instances/lkst, then the lkst.NAME of each user buffer there is now (one
 * created later records the pid).  Taking out goes through every instance
 * whatever fails, so that what was put in comes out.  A pid left in a list
 * (the command was killed) stays there until the list is written: without
 * options/event-fork, ftrace does not take out the pids of tasks that
 * exit, and a later task that gets the number is not recorded either.
 *
 * Return: 0 when instances/lkst's list took (or let go of) @pid; a user
 * buffer's failure only says so.  -ENOENT, quietly, if the kernel has no
 * pid lists.
 */
static int lkst_notrace(pid_t pid, bool add)
{
	char *list, *line, *end, inst[64];
	int ret;

	ret = lkst_notrace_inst(LKST_INSTANCE, pid, add);
	if (ret && add)
		return ret;
	list = lkst_tracefs_read("user_buffers");
	for (line = list; line && *line; line = end) {
		end = strchrnul(line, '\n');
		if (*end)
			*end++ = '\0';
		if (!*line)
			continue;
		snprintf(inst, sizeof(inst), LKST_INSTANCE ".%s", line);
		/* a buffer removed meanwhile has no file: -ENOENT, quietly */
		lkst_notrace_inst(inst, pid, add);
	}
	free(list);
	return ret;
}

static pid_t lkst_start_cmd(struct lkst_rec *r, const sigset_t *oldmask)
{
	char **cmd = r->cmd;
	pid_t pid = fork();

	if (pid < 0) {
		lkst_err("fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		/*
		 * With options/event-fork set, the command inherited our
		 * exclusion (without it, this finds nothing to take out).
		 */
		if (r->filtered)
			lkst_notrace(getpid(), false);
		sigprocmask(SIG_SETMASK, oldmask, NULL);
		execvp(cmd[0], cmd);
		lkst_err("%s: %s", cmd[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/*
 * The loop: every LKST_INTERVAL_MS, move the full pages of the buffers
 * to the files, until the command ends or a signal asks to stop.
 * Reading on a timer rather than on every wakeup, and full pages only,
 * keeps the recorder's own activity, which LKST records too, small.
 */
static int lkst_stream(struct lkst_rec *r, int sfd, pid_t child, int *status)
{
	struct signalfd_siginfo si;
	struct pollfd pfd = { .fd = sfd, .events = POLLIN };
	struct timespec last, now;
	bool stop = false, busy = false;
	int i, n, signals = 0;

	clock_gettime(CLOCK_MONOTONIC, &last);
	while (!stop) {
		n = poll(&pfd, 1, busy ? 0 : LKST_INTERVAL_MS);
		if (n < 0 && errno != EINTR) {
			lkst_err("poll: %s", strerror(errno));
			return -1;
		}
		if (n > 0 && read(sfd, &si, sizeof(si)) == sizeof(si) &&
		    si.ssi_signo != SIGCHLD) {
			/*
			 * With a command, stop when it has ended, recording
			 * meanwhile; a second signal kills it.
			 */
			if (child > 0)
				kill(child, signals++ ? SIGKILL : SIGTERM);
			else
				stop = true;
		}
		busy = false;
		for (i = 0; i < r->nr_cpus; i++) {
			n = lkst_drain_cpu(r, &r->cpus[i], false);
			if (n < 0)
				return -1;
			busy |= n;
		}
		if (child > 0 && waitpid(child, status, WNOHANG) == child) {
			child = 0;
			stop = true;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - last.tv_sec) * 1000 +
		    (now.tv_nsec - last.tv_nsec) / 1000000 >= LKST_COMM_SCAN_MS) {
			lkst_comm_scan(r);
			last = now;
		}
	}
	if (child > 0)
		waitpid(child, status, 0);
	return 0;
}

/* SIZE_KB,COUNT of --rotate and of [record] rotate =; 0 or -EINVAL */
int lkst_parse_rotate_arg(const char *arg, unsigned long *size,
			  unsigned long *count)
{
	char *end;

	errno = 0;
	if (*arg < '0' || *arg > '9')
		return -EINVAL;
	*size = strtoul(arg, &end, 10);
	if (errno || end == arg || *end != ',')
		return -EINVAL;
	arg = end + 1;
	if (*arg < '0' || *arg > '9')
		return -EINVAL;
	*count = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || !*size || !*count ||
	    *size > BIT(30) || *count > 1000000)
		return -EINVAL;
	return 0;
}

static int lkst_parse_rotate(struct lkst_rec *r, const char *arg)
{
	unsigned long size, count;

	if (lkst_parse_rotate_arg(arg, &size, &count))
		return -EINVAL;
	r->rotate_size = (unsigned long long)size << 10;
	r->rotate_count = count;
	return 0;
}

static int lkst_prepare_dir(const char *dir)
{
	struct dirent *de;
	char *path;
	int ret;
	DIR *d;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		lkst_err("%s: %s", dir, strerror(errno));
		return -1;
	}
	d = opendir(dir);
	if (!d) {
		lkst_err("%s: %s", dir, strerror(errno));
		return -1;
	}
	/* Replace an earlier recording, and only that */
	while ((de = readdir(d)))
		if ((!strncmp(de->d_name, "cpu", 3) && strstr(de->d_name, ".raw")) ||
		    !strcmp(de->d_name, LKST_FILE_KALLSYMS) ||
		    !strcmp(de->d_name, LKST_FILE_CLOCK) ||
		    !strcmp(de->d_name, LKST_FILE_UNAME) ||
		    !strcmp(de->d_name, LKST_FILE_TRACEDAT) ||
		    !strcmp(de->d_name, LKST_FILE_TRACEDAT_TMP) ||
		    !strcmp(de->d_name, LKST_FILE_DYNEVENTS) ||
		    !strcmp(de->d_name, LKST_FILE_KPROBES) ||
		    /* an older tool's layout of the records */
		    !strcmp(de->d_name, LKST_FILE_FORMAT))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	/* the formats of the events of the kernel that recorded it */
	path = lkst_path(dir, LKST_DIR_FORMATS);
	ret = lkst_remove_tree(path);
	if (ret)
		lkst_err("%s: %s", path, strerror(-ret));
	free(path);
	return ret ? -1 : 0;
}

/*
 * available_events without the dynamic events (IDs from 256): those of
 * the previous boot are not known, and an ID may name another event now.
 * Their records are reported as UNKNOWN_ID.
 */
static int lkst_copy_fixed_events(const char *dir)
{
	char *buf, *line, *end, *out;
	size_t len = 0;
	int ret;

	buf = lkst_tracefs_read(LKST_FILE_EVENTS);
	if (!buf)
		return -EIO;
	out = lkst_zalloc(strlen(buf) + 1);
	for (line = buf; *line; line = end) {
		end = strchrnul(line, '\n');
		if (*end)
			end++;
		if (strtoul(line, NULL, 10) >= LKST_EV_DYN_FIRST)
			continue;
		memcpy(out + len, line, end - line);
		len += end - line;
	}
	ret = lkst_save(dir, LKST_FILE_EVENTS, out, len);
	free(out);
	free(buf);
	return ret;
}

/* A "key: value" line of last_boot/info, or NULL */
static char *lkst_info_value(const char *info, const char *key, char *val,
			     size_t size)
{
	size_t len = strlen(key);
	const char *p = info, *end;

	while (p && *p) {
		if (!strncmp(p, key, len) && p[len] == ':' && p[len + 1] == ' ') {
			p += len + 2;
			end = strchrnul(p, '\n');
			snprintf(val, size, "%.*s", (int)(end - p), p);
			return val;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/*
 * kallsyms of this boot, moved to where the previous boot had its code
 * (text_delta is this boot's address minus the previous one's: KASLR).
 */
static void lkst_save_kallsyms_moved(const char *dir, long long delta)
{
	char *buf, *line, *next, *path, *end;
	unsigned long long addr;
	FILE *f;

	if (lkst_read_file("/proc/kallsyms", &buf, NULL)) {
		lkst_warn("/proc/kallsyms unreadable: code addresses will be shown in hex");
		return;
	}
	if (lkst_kallsyms_hidden(buf)) {
		lkst_warn("/proc/kallsyms hides the addresses: code addresses will be shown in hex");
		free(buf);
		return;
	}
	path = lkst_path(dir, LKST_FILE_KALLSYMS);
	f = fopen(path, "w");
	if (!f) {
		lkst_warn("%s: %s", path, strerror(errno));
		goto out;
	}
	for (line = buf; *line; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		errno = 0;
		addr = strtoull(line, &end, 16);
		if (errno || end != line + 16 || *end != ' ')
			continue;
		fprintf(f, "%016llx%s\n", addr - delta, line + 16);
	}
	if (fclose(f))
		lkst_warn("%s: %s", path, strerror(errno));
out:
	free(path);
	free(buf);
}

/*
 * Copy last_boot/per_cpu/cpuN/raw_copy into DIR/cpuN.raw, which leaves the
 * records there (a kernel without raw_copy: drain raw); -1 if there is none
 */
static long long lkst_save_last_boot_cpu(const char *dir, int cpu)
{
	char name[64], *path, *out, page[65536];
	long long total = 0;
	ssize_t n;
	int in, fd;

	snprintf(name, sizeof(name), "last_boot/per_cpu/cpu%d/raw_copy", cpu);
	path = lkst_lkst_file(name);
	in = path ? open(path, O_RDONLY) : -1;
	tracefs_put_tracing_file(path);
	if (in < 0 && errno == ENOENT) {
		snprintf(name, sizeof(name), "last_boot/per_cpu/cpu%d/raw", cpu);
		path = lkst_lkst_file(name);
		in = path ? open(path, O_RDONLY | O_NONBLOCK) : -1;
		tracefs_put_tracing_file(path);
	}
	if (in < 0)
		return -1;
	snprintf(name, sizeof(name), "cpu%d.raw", cpu);
	out = lkst_path(dir, name);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		lkst_err("%s: %s", out, strerror(errno));
		total = -2;
		goto out;
	}
	while ((n = read(in, page, sizeof(page))) > 0) {
		if (write(fd, page, n) != n) {
			lkst_err("%s: %s", out, strerror(errno));
			total = -2;
			break;
		}
		total += n;
	}
	if (n < 0 && errno != EAGAIN) {
		lkst_err("%s: %s", name, strerror(errno));
		total = -2;
	}
	close(fd);
out:
	free(out);
	close(in);
	return total;
}

/* lkst record --last-boot: a recording of what the previous boot left */
static int lkst_record_last_boot(const char *dir)
{
	char *info, val[256], *path;
	long long delta = 0, n;
	int cpu, ret = LKST_EXIT_FAIL;
	FILE *comm;

	if (!tracefs_file_exists(NULL, LKST_TRACEFS_DIR "/last_boot/info")) {
		lkst_err("no %s/last_boot/info: this kernel has no persistent LKST buffer, tracefs is not mounted, or you are not root",
			 LKST_TRACEFS_DIR);
		return LKST_EXIT_FAIL;
	}
	info = lkst_tracefs_read("last_boot/info");
	if (!info)
		return LKST_EXIT_FAIL;
	if (!lkst_info_value(info, "status", val, sizeof(val)) ||
	    strcmp(val, "kept")) {
		lkst_err("no records of the previous boot: %s",
			 lkst_info_value(info, "reason", val, sizeof(val)) ?
			 val : "see last_boot/info");
		goto out;
	}
	if (lkst_info_value(info, "text_delta", val, sizeof(val)))
		delta = strtoll(val, NULL, 10);
	if (lkst_prepare_dir(dir) ||
	    lkst_copy_formats(dir, LKST_LAST_BOOT_INSTANCE) ||
	    lkst_copy_headers(dir, LKST_LAST_BOOT_INSTANCE) ||
	    lkst_copy_lkst_file(dir, "last_boot/info", LKST_FILE_LAST_BOOT) ||
	    /* the same kernel: the same fixed events */
	    lkst_copy_fixed_events(dir))
		goto out;
	/* its clock if last_boot/info names it, else the default one */
	if (lkst_info_value(info, "trace_clock", val, sizeof(val)) ||
	    lkst_info_value(info, "clock", val, sizeof(val))) {
		char clock[300];

		snprintf(clock, sizeof(clock), "%s%s%s\n", strchr(val, '[') ? "" : "[",
			 val, strchr(val, '[') ? "" : "]");
		if (lkst_save(dir, LKST_FILE_CLOCK, clock, strlen(clock)))
			goto out;
	} else if (lkst_save(dir, LKST_FILE_CLOCK, "[local]\n", 8)) {
		goto out;
	}
	/* The previous boot's process names are not known */
	path = lkst_path(dir, LKST_FILE_COMM);
	comm = fopen(path, "w");
	if (!comm || fclose(comm)) {
		lkst_err("%s: %s", path, strerror(errno));
		free(path);
		goto out;
	}
	free(path);
	lkst_save_kallsyms_moved(dir, delta);

	for (cpu = 0; cpu < LKST_MAX_CPUS; cpu++) {
		n = lkst_save_last_boot_cpu(dir, cpu);
		if (n == -1)
			break;
		if (n < 0)
			goto out;
		fprintf(stderr, "lkst: cpu%d: %lld bytes of the previous boot\n",
			cpu, n);
	}
	if (!cpu) {
		lkst_err("%s/last_boot/per_cpu: no CPUs", LKST_TRACEFS_DIR);
		goto out;
	}
	fprintf(stderr, "lkst: saved the previous boot (%s) into %s\n",
		lkst_info_value(info, "release", val, sizeof(val)) ? val : "?",
		dir);
	ret = LKST_EXIT_OK;
	/*
	 * The same kernel registers its fixed events in the same order:
	 * their formats of this boot describe the previous boot's records
	 * too, which lkst_tracedat_write() checks record by record.
	 */
	lkst_tracedat_signals(true);
	if (lkst_save_tracedat(dir, true))
		ret = LKST_EXIT_FAIL;
	lkst_tracedat_signals(false);
out:
	free(info);
	return ret;
}

static int lkst_rm_one(const char *path, const struct stat *st, int flag,
		       struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

/* This boot's id as systemd writes it (%b): 32 hex digits; 0 or -1 */
static int lkst_boot_id(char *id, size_t size)
{
	char *buf, *p;
	size_t n = 0;

	if (lkst_read_file("/proc/sys/kernel/random/boot_id", &buf, NULL)) {
		lkst_err("/proc/sys/kernel/random/boot_id: %s", strerror(errno));
		return -1;
	}
	for (p = buf; *p && *p != '\n' && n + 1 < size; p++)
		if (*p != '-')
			id[n++] = *p;
	id[n] = '\0';
	free(buf);
	return n == 32 ? 0 : -1;
}

#define LKST_BOOTS_FILE	"boots"
#define LKST_BOOTS_MAX	100

static bool lkst_is_boot_id(const char *s)
{
	return strlen(s) == 32 && strspn(s, "0123456789abcdef") == 32;
}

/*
 * The name last_boot/info gives a boot, "SEQ<TAB>TIME<TAB>NONCE" of its
 * lines @key, @key_time and @key_nonce; NULL if it has none (no
 * persistent buffer)
 */
static char *lkst_boot_key(const char *info, const char *key, char *buf,
			   size_t size)
{
	char name[32], seq[32], when[64], nonce[32];

	snprintf(name, sizeof(name), "%s", key);
	if (!lkst_info_value(info, name, seq, sizeof(seq)))
		return NULL;
	snprintf(name, sizeof(name), "%s_time", key);
	if (!lkst_info_value(info, name, when, sizeof(when)))
		return NULL;
	snprintf(name, sizeof(name), "%s_nonce", key);
	if (!lkst_info_value(info, name, nonce, sizeof(nonce)))
		return NULL;
	snprintf(buf, size, "%s\t%s\t%s", seq, when, nonce);
	return buf;
}

/* Write @f's buffers to the disk before it is renamed; 0 or -1 */
static int lkst_fclose_sync(FILE *f)
{
	int ret = fflush(f) || ferror(f) || fsync(fileno(f)) ? -1 : 0;

	return fclose(f) || ret ? -1 : 0;
}

/* Every file of @dir's file system on the disk; 0 or -1 with a message */
static int lkst_syncfs(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = -1;

	if (fd >= 0) {
		ret = syncfs(fd);
		close(fd);
	}
	if (ret)
		lkst_err("%s: %s", dir, strerror(errno));
	return ret;
}

static void lkst_sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		if (fsync(fd))
			lkst_warn("%s: %s", dir, strerror(errno));
		close(fd);
	}
}

/*
 * Note this boot in SAVE_DIR/boots: "SEQ<TAB>TIME<TAB>NONCE<TAB>ID", its
 * name in last_boot/info (this_boot, this_boot_time, this_boot_nonce) and
 * its boot id, so that the next boot, which finds the name as its boot,
 * boot_time and boot_nonce, knows the id.  The newest LKST_BOOTS_MAX
 * lines are kept.  Synced: a crash right after must not lose it.
 */
static void lkst_boots_note(const char *savedir, const char *info,
			    const char *id)
{
	char key[160], *path, *tmp, *buf = NULL, *line, *next;
	char **lines = NULL;
	int nr = 0, i;
	FILE *f;

	if (!lkst_boot_key(info, "this_boot", key, sizeof(key)))
		return;
	path = lkst_path(savedir, LKST_BOOTS_FILE);
	tmp = lkst_path(savedir, LKST_BOOTS_FILE ".tmp");
	if (!lkst_read_file(path, &buf, NULL)) {
		for (line = buf; *line; line = next) {
			next = strchrnul(line, '\n');
			if (*next)
				*next++ = '\0';
			/* this boot, once (the unit may run again) */
			if (!*line || strstr(line, id))
				continue;
			lines = lkst_realloc_array(lines, nr + 1, sizeof(*lines));
			lines[nr++] = line;
		}
	}
	f = fopen(tmp, "we");
	if (!f) {
		lkst_warn("%s: %s: the next boot's recording will not be named after this boot",
			  tmp, strerror(errno));
		goto out;
	}
	for (i = nr >= LKST_BOOTS_MAX ? nr - LKST_BOOTS_MAX + 1 : 0; i < nr; i++)
		fprintf(f, "%s\n", lines[i]);
	fprintf(f, "%s\t%s\n", key, id);
	if (lkst_fclose_sync(f) || rename(tmp, path))
		lkst_warn("%s: %s: the next boot's recording will not be named after this boot",
			  path, strerror(errno));
	else
		lkst_sync_dir(savedir);
out:
	free(lines);
	free(buf);
	free(tmp);
	free(path);
}

/* The id SAVE_DIR/boots has for the previous boot, or NULL */
static char *lkst_boots_find(const char *savedir, const char *info,
			     char *id, size_t size)
{
	char key[160], *path, *buf, *p, *found = NULL;
	size_t len;

	if (!lkst_boot_key(info, "boot", key, sizeof(key)))
		return NULL;
	len = strlen(key);
	path = lkst_path(savedir, LKST_BOOTS_FILE);
	if (lkst_read_file(path, &buf, NULL)) {
		free(path);
		return NULL;
	}
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char cand[64];

		if (strncmp(p, key, len) || p[len] != '\t')
			continue;
		snprintf(cand, sizeof(cand), "%.*s", (int)strcspn(p + len + 1, "\n"),
			 p + len + 1);
		if (lkst_is_boot_id(cand)) {
			snprintf(id, size, "%s", cand);
			found = id;
		}
	}
	free(buf);
	free(path);
	return found;
}

struct lkst_saved {
	char	*name;
	time_t	t;
};

static int lkst_saved_cmp(const void *a, const void *b)
{
	const struct lkst_saved *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * Remove the oldest recordings in DIR beyond @keep: the directories named
 * PREFIX* (not *.tmp) that hold a previous boot's recording (its
 * last_boot.info), or with a NULL @prefix those named by a boot id that
 * hold a recording (its available_events file).  @current, this boot's, is
 * never removed and is one of the @keep.
 */
static void lkst_prune_dirs(const char *dir, const char *prefix,
			    unsigned long keep, const char *why,
			    const char *current)
{
	struct lkst_saved *e = NULL;
	size_t nr = 0, i, len = prefix ? strlen(prefix) : 0;
	char sub[NAME_MAX + 2 + sizeof(LKST_FILE_EVENTS)], *path;
	struct dirent *de;
	struct stat st;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return;
	if (keep)
		keep--;		/* @current's place */
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		size_t l = strlen(n);

		if (!strcmp(n, current))
			continue;
		if (prefix && (strncmp(n, prefix, len) ||
			       (l > 4 && !strcmp(n + l - 4, ".tmp"))))
			continue;
		if (!prefix && !lkst_is_boot_id(n))
			continue;
		/* a recording of ours, not another program's directory */
		snprintf(sub, sizeof(sub), "%s/%s", n,
			 prefix ? LKST_FILE_LAST_BOOT : LKST_FILE_EVENTS);
		if (faccessat(dirfd(d), sub, F_OK, AT_SYMLINK_NOFOLLOW))
			continue;
		if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode))
			continue;
		e = lkst_realloc_array(e, nr + 1, sizeof(*e));
		e[nr].name = lkst_strdup(n);
		e[nr++].t = st.st_mtime;
	}
	closedir(d);
	if (nr)
		qsort(e, nr, sizeof(*e), lkst_saved_cmp);
	for (i = 0; i < nr; i++) {
		if (i + keep < nr) {
			path = lkst_path(dir, e[i].name);
			if (nftw(path, lkst_rm_one, 16, FTW_DEPTH | FTW_PHYS))
				lkst_warn("%s: not removed: %s", path, strerror(errno));
			else
				fprintf(stderr, "lkst: removed %s (%s %lu)\n", path,
					why, keep + 1);
			free(path);
		}
		free(e[i].name);
	}
	free(e);
}

/* Remove the boot-*.tmp a save that did not finish left (under the lock) */
static void lkst_remove_tmp(const char *dir)
{
	struct dirent *de;
	char *path;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (strncmp(de->d_name, "boot-", 5) || l < 9 ||
		    strcmp(de->d_name + l - 4, ".tmp"))
			continue;
		path = lkst_path(dir, de->d_name);
		if (!nftw(path, lkst_rm_one, 16, FTW_DEPTH | FTW_PHYS))
			fprintf(stderr, "lkst: removed %s, left by a save that did not finish\n",
				path);
		else
			lkst_warn("%s: not removed: %s", path, strerror(errno));
		free(path);
	}
	closedir(d);
}

/*
 * lkst record --last-boot --save-dir DIR: the previous boot's records into
 * DIR/boot-ID/, ID the previous boot's id; what lkst-last-boot.service
 * runs at each boot.  Nothing to save is not an error.  DIR/.lock keeps
 * two of them (the unit and a person) apart.
 */
static int lkst_save_last_boot(const char *savedir, unsigned long keep)
{
	char *info, id[64], prev[64] = "", val[128] = "", name[160], *path, *tmp;
	int ret = LKST_EXIT_FAIL, err, lock = -1;
	struct stat st;

	if (!tracefs_file_exists(NULL, LKST_TRACEFS_DIR "/last_boot/info")) {
		lkst_err("no %s/last_boot/info: this kernel has no LKST, tracefs is not mounted, or you are not root",
			 LKST_TRACEFS_DIR);
		return LKST_EXIT_FAIL;
	}
	info = lkst_tracefs_read("last_boot/info");
	if (!info)
		return LKST_EXIT_FAIL;
	err = lkst_mkdir_p(savedir);
	if (err) {
		lkst_err("%s: %s", *savedir ? savedir : "''", strerror(-err));
		goto out;
	}
	path = lkst_path(savedir, ".lock");
	lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lock < 0 || flock(lock, LOCK_EX)) {
		lkst_err("%s: %s", path, strerror(errno));
		free(path);
		goto out;
	}
	free(path);
	if (lkst_boot_id(id, sizeof(id)))
		goto out;
	lkst_boots_note(savedir, info, id);
	lkst_remove_tmp(savedir);

	ret = LKST_EXIT_OK;
	if (!lkst_info_value(info, "status", val, sizeof(val)) ||
	    strcmp(val, "kept")) {
		fprintf(stderr, "lkst: nothing to save: %s\n",
			lkst_info_value(info, "reason", val, sizeof(val)) ?
			val : "see last_boot/info");
		goto out;
	}
	if (lkst_info_value(info, "records", val, sizeof(val)) && !strcmp(val, "0")) {
		fprintf(stderr, "lkst: nothing to save: the previous boot left no records\n");
		goto out;
	}
	if (lkst_boots_find(savedir, info, prev, sizeof(prev)))
		snprintf(name, sizeof(name), "boot-%s", prev);
	else if (lkst_info_value(info, "boot_nonce", val, sizeof(val)) &&
		 strspn(val, "0123456789abcdef") == strlen(val))
		/* not noted: it ended before LKST's unit ran, or that failed */
		snprintf(name, sizeof(name), "boot-unknown-%s", val);
	else
		snprintf(name, sizeof(name), "boot-unknown");
	path = lkst_path(savedir, name);
	if (!stat(path, &st)) {
		fprintf(stderr, "lkst: %s: already saved\n", path);
		free(path);
		goto out;
	}
	snprintf(name + strlen(name), sizeof(name) - strlen(name), ".tmp");
	tmp = lkst_path(savedir, name);
	ret = lkst_record_last_boot(tmp);
	/* its files on the disk before the name says it is complete */
	if (ret == LKST_EXIT_OK && lkst_syncfs(tmp))
		ret = LKST_EXIT_FAIL;
	if (ret == LKST_EXIT_OK && rename(tmp, path)) {
		lkst_err("%s: %s", path, strerror(errno));
		ret = LKST_EXIT_FAIL;
	}
	if (ret == LKST_EXIT_OK) {
		/* the next boot may come soon: a crash loop */
		lkst_sync_dir(savedir);
		fprintf(stderr, "lkst: the previous boot's recording is %s\n", path);
		name[strlen(name) - 4] = '\0';
		lkst_prune_dirs(savedir, "boot-", keep, "keep", name);
	}
	free(tmp);
	free(path);
out:
	if (lock >= 0)
		close(lock);
	free(info);
	return ret;
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "maskset",	required_argument,	NULL, 'm' },
		{ "size",	required_argument,	NULL, 's' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "rotate",	required_argument,	NULL, 'r' },
		{ "last-boot",	no_argument,		NULL, 'L' },
		{ "save-dir",	required_argument,	NULL, 'S' },
		{ "keep",	required_argument,	NULL, 'K' },
		{ "config",	required_argument,	NULL, 'c' },
		{ "no-filter",	no_argument,		NULL, 'F' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	struct lkst_rec *r = lkst_zalloc(sizeof(*r));
	char *prev = NULL, *list = NULL, *old_size = NULL, *path, val[32];
	int opt, sfd = -1, status = 0, ret = LKST_EXIT_FAIL;
	const char *save_dir = NULL, *config = NULL;
	struct lkst_conf_dirs *conf = NULL;
	unsigned long keep = 0;
	sigset_t mask, oldmask;
	bool dat = false;
	bool last_boot = false;
	pid_t child = 0;

	r->dir = NULL;
	r->maskset = NULL;
	while ((opt = getopt_long(argc, argv, "+m:s:o:r:c:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			r->maskset = optarg;
			break;
		case 's':
			if (lkst_parse_uint(optarg, &r->size_kb) || !r->size_kb) {
				lkst_err("bad buffer size '%s' (KiB)", optarg);
				goto usage;
			}
			break;
		case 'o':
			r->dir = optarg;
			break;
		case 'r':
			if (lkst_parse_rotate(r, optarg)) {
				lkst_err("bad --rotate '%s': SIZE_KB,COUNT, both > 0",
					 optarg);
				goto usage;
			}
			break;
		case 'L':
			last_boot = true;
			break;
		case 'S':
			save_dir = optarg;
			break;
		case 'K':
			if (lkst_parse_uint(optarg, &keep) || !keep) {
				lkst_err("bad --keep '%s': a number > 0", optarg);
				goto usage;
			}
			break;
		case 'c':
			config = optarg;
			break;
		case 'F':
			r->no_filter = true;
			break;
		case 'h':
			lkst_record_usage(stdout);
			free(r);
			return LKST_EXIT_OK;
		default:
			goto usage;
		}
	}
	if (optind < argc)
		r->cmd = argv + optind;
	if (last_boot) {
		if (r->cmd || r->size_kb || r->rotate_size || r->no_filter ||
		    r->maskset || (r->dir && (save_dir || keep || config))) {
			lkst_err("--last-boot takes -o DIR, or --save-dir DIR, --keep N and -c FILE");
			goto usage;
		}
		if (r->dir || (!save_dir && !config && !keep)) {
			ret = lkst_record_last_boot(r->dir ? r->dir : "lkst.data");
			free(r);
			return ret;
		}
		conf = lkst_zalloc(sizeof(*conf));
		if (config && lkst_conf_dirs_read(config, conf))
			goto out_conf;
		if (!save_dir)
			save_dir = config ? conf->save_dir : LKST_SAVE_DIR;
		if (!keep)
			keep = config ? conf->save_keep : 10;
		ret = lkst_save_last_boot(save_dir, keep);
out_conf:
		free(conf);
		free(r);
		return ret;
	}
	if (save_dir || keep) {
		lkst_err("--save-dir and --keep go with --last-boot");
		goto usage;
	}
	if (config) {
		/* lkst-record.service: [record]'s settings, a directory a boot */
		char id[64], *dir;
		int err;

		conf = lkst_zalloc(sizeof(*conf));
		if (lkst_conf_dirs_read(config, conf) || lkst_boot_id(id, sizeof(id)))
			goto out;
		if (r->dir) {
			lkst_err("-c FILE records into [record] dir = (%s)/BOOT_ID, not -o",
				 conf->record_dir);
			goto usage;
		}
		dir = lkst_path(conf->record_dir, id);
		r->dir = dir;
		r->dir_alloc = dir;
		err = lkst_mkdir_p(conf->record_dir);
		if (err) {
			lkst_err("%s: %s", conf->record_dir, strerror(-err));
			goto out;
		}
		if (!r->maskset)
			r->maskset = conf->record_maskset;
		if (!r->rotate_size && lkst_parse_rotate(r, conf->record_rotate))
			goto out;
	}
	if (!r->dir)
		r->dir = "lkst.data";
	if (!r->maskset)
		r->maskset = "RDEFAULT";

	if (!tracefs_file_exists(NULL, LKST_TRACEFS_DIR "/maskset")) {
		lkst_err("no %s/%s/maskset: this kernel has no LKST (CONFIG_LKST), tracefs is not mounted, or you are not root",
			 tracefs_tracing_dir() ? tracefs_tracing_dir() :
			 "/sys/kernel/tracing", LKST_TRACEFS_DIR);
		goto out;
	}
	list = lkst_tracefs_read("available_masksets");
	prev = lkst_tracefs_read("maskset");
	if (!list || !prev)
		goto out;
	lkst_chomp(prev);
	if (!lkst_maskset_known(list, r->maskset)) {
		lkst_chomp(list);
		for (path = list; *path; path++)
			if (*path == '\n')
				*path = ' ';
		lkst_err("unknown maskset '%s'; available: %s", r->maskset, list);
		goto out;
	}

	if (lkst_page_layout(r, LKST_DAT_BUFFER) || lkst_prepare_dir(r->dir) ||
	    lkst_copy_meta(r, LKST_DAT_BUFFER))
		goto out;
	/* -c: this boot's directory is one of the keep_boots kept */
	if (conf)
		lkst_prune_dirs(conf->record_dir, NULL, conf->record_keep_boots,
				"keep_boots", strrchr(r->dir, '/') + 1);
	lkst_save_kallsyms(r, true);
	path = lkst_path(r->dir, LKST_FILE_COMM);
	r->comm = fopen(path, "we");
	if (!r->comm)
		lkst_err("%s: %s", path, strerror(errno));
	free(path);
	if (!r->comm)
		goto out;
	lkst_comm_scan(r);

	if (r->size_kb) {
		old_size = lkst_tracefs_read(LKST_SIZE_FILE);
		snprintf(val, sizeof(val), "%lu", r->size_kb);
		if (!old_size || lkst_tracefs_write(LKST_SIZE_FILE, val))
			goto out;
		lkst_chomp(old_size);
	}

	/*
	 * A shell without job control starts "lkst record &" with SIGINT
	 * ignored, and an ignored signal never reaches the signalfd.
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, &oldmask);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0) {
		lkst_err("signalfd: %s", strerror(errno));
		goto out_sig;
	}

	if (pipe2(r->page_pipe, O_CLOEXEC) || pipe2(r->hdr_pipe, O_CLOEXEC)) {
		lkst_err("pipe: %s", strerror(errno));
		goto out_sig;
	}
	if (lkst_clear() || lkst_open_cpus(r))
		goto out_cpus;
	for (opt = 0; opt < r->nr_cpus; opt++)
		r->cpus[opt].refused = lkst_refused_read("", r->cpus[opt].cpu);
	r->self = getpid();
	if (!r->no_filter) {
		if (!lkst_notrace(r->self, true))
			r->filtered = true;
		else
			lkst_warn("cannot keep the recorder out of the recording (no instances/lkst/set_event_notrace_pid): its own events are recorded too");
	}
	if (lkst_tracefs_write("maskset", r->maskset))
		goto out_cpus;
	if (r->cmd) {
		child = lkst_start_cmd(r, &oldmask);
	} else {
		fprintf(stderr, "lkst: recording %s into %s; Ctrl-C to stop\n",
			r->maskset, r->dir);
	}
	if (child >= 0 && !lkst_stream(r, sfd, child, &status))
		ret = LKST_EXIT_OK;

	/* Stop recording, then take what is left in the buffers. */
	if (lkst_tracefs_write("maskset", prev))
		ret = LKST_EXIT_FAIL;
	for (opt = 0; opt < r->nr_cpus; opt++)
		if (lkst_drain_cpu(r, &r->cpus[opt], true))
			ret = LKST_EXIT_FAIL;
	lkst_comm_scan(r);
	lkst_save_kallsyms(r, false);
	fflush(r->comm);
	/* losses are reported, but what was recorded is fine */
	lkst_report_stats(r);
	/* DIR/trace.dat once the buffer and the signals are as they were */
	dat = true;
	if (r->filtered && lkst_notrace(r->self, false))
		ret = LKST_EXIT_FAIL;
	r->filtered = false;
	if (r->cmd && child > 0 && WIFEXITED(status) && WEXITSTATUS(status))
		lkst_warn("%s exited with status %d", r->cmd[0],
			  WEXITSTATUS(status));
out_cpus:
	if (r->filtered)
		lkst_notrace(r->self, false);
	lkst_close_cpus(r);
out_sig:
	for (opt = 0; opt < 2; opt++) {
		if (r->page_pipe[opt] > 0)
			close(r->page_pipe[opt]);
		if (r->hdr_pipe[opt] > 0)
			close(r->hdr_pipe[opt]);
	}
	if (sfd >= 0)
		close(sfd);
	/*
	 * The buffer size back while SIGINT and SIGTERM still wait; then
	 * one pending or arriving stops the trace.dat write cleanly.
	 */
	if (old_size)
		lkst_tracefs_write(LKST_SIZE_FILE, old_size);
	free(old_size);
	old_size = NULL;
	if (dat)
		lkst_tracedat_signals(true);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	if (dat) {
		if (r->comm && fclose(r->comm))
			lkst_err("%s/%s: %s", r->dir, LKST_FILE_COMM, strerror(errno));
		r->comm = NULL;
		if (lkst_save_tracedat(r->dir, false))
			ret = LKST_EXIT_FAIL;
		lkst_tracedat_signals(false);
	}
out:
	if (old_size)
		lkst_tracefs_write(LKST_SIZE_FILE, old_size);
	if (r->comm)
		fclose(r->comm);
	free(old_size);
	free(prev);
	free(list);
	free(r->names);
	free(r->dir_alloc);
	free(r);
	free(conf);
	return ret;
usage:
	lkst_record_usage(stderr);
	free(r->dir_alloc);
	free(r);
	free(conf);
	return LKST_EXIT_USAGE;
}

/*
 * lkst snapshot: what the buffers hold now, saved as a recording, while
 * recording goes on.  Every CPU's per_cpu/cpuN/raw_copy is opened first,
 * so that one moment cuts them all, then copied into DIR/cpuN.raw; the
 * records stay in the buffers and the maskset is not touched.  The
 * CPU's stats before and after say what the copy could not save:
 * records overwritten before it reached them (a busy flight recorder) or
 * consumed meanwhile by a reader of raw.
 */

struct lkst_snap_stats {
	unsigned long	entries, overrun, lost, read;
};

struct lkst_snap_cpu {
	int			cpu;
	int			in;	/* raw_copy */
	struct lkst_snap_stats	before, after;
	long long		bytes;
	unsigned long		records;
};

static void lkst_snapshot_usage(FILE *f)
{
	fprintf(f,
		"usage: lkst snapshot [-o DIR] [-b NAME | --all]\n"
		"\n"
		"Save what LKST's buffers hold now into DIR (default lkst.snapshot), as\n"
		"a recording that 'lkst report', 'states', 'latency', 'export' and\n"
		"trace-cmd (DIR/trace.dat) read.  Nothing is consumed, the maskset is\n"
		"not changed and recording goes on: the records stamped after the\n"
		"snapshot began are not in it.  DIR/snapshot.info says, per CPU, what\n"
		"the buffer held and what the copy could not save.\n"
		"\n"
		"  -o, --output DIR  where to save (files of an earlier recording there\n"
		"                    are replaced)\n"
		"  -b, --buffer NAME a user buffer (lkst/buffers/NAME) instead of the\n"
		"                    default buffer\n"
		"  -a, --all         the default buffer into DIR and every user buffer\n"
		"                    into DIR/buffers/NAME\n"
		"  -h, --help        this text\n");
}

/*
 * The stats of @cpu in instance @inst, and its refused count in LKST's
 * directory @bufdir ("" or "buffers/NAME/"): the lost records
 */
static int lkst_snap_stats_read(const char *inst, const char *bufdir, int cpu,
				struct lkst_snap_stats *st)
{
	char val[32], *buf;

	buf = lkst_stats_read(inst, cpu);
	if (!buf)
		return -1;
	memset(st, 0, sizeof(*st));
	if (lkst_info_value(buf, "entries", val, sizeof(val)))
		st->entries = strtoul(val, NULL, 10);
	if (lkst_info_value(buf, "overrun", val, sizeof(val)))
		st->overrun = strtoul(val, NULL, 10);
	st->lost = lkst_refused_read(bufdir, cpu);
	if (lkst_info_value(buf, "read events", val, sizeof(val)))
		st->read = strtoul(val, NULL, 10);
	free(buf);
	return 0;
}

/* Copy an open raw_copy into DIR/cpuN.raw: its size, or -1 */
static long long lkst_snap_copy(const char *dir, struct lkst_snap_cpu *c)
{
	char name[32], *out, page[65536];
	long long total = 0;
	ssize_t n;
	int fd;

	snprintf(name, sizeof(name), "cpu%d.raw", c->cpu);
	out = lkst_path(dir, name);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		lkst_err("%s: %s", out, strerror(errno));
		free(out);
		return -1;
	}
	while ((n = read(c->in, page, sizeof(page))) > 0) {
		ssize_t w = write(fd, page, n);

		if (w != n) {
			lkst_err("%s: %s", out, w < 0 ? strerror(errno) : "short write");
			total = -1;
			break;
		}
		total += n;
	}
	if (n < 0) {
		lkst_err("cpu%d raw_copy: %s", c->cpu, strerror(errno));
		total = -1;
	}
	if (close(fd) && total >= 0) {
		lkst_err("%s: %s", out, strerror(errno));
		total = -1;
	}
	free(out);
	return total;
}

/* "comm": the names of the tasks alive now; exited ones are not known */
static int lkst_snap_comm(struct lkst_rec *r)
{
	char *path = lkst_path(r->dir, LKST_FILE_COMM);
	int ret = 0;

	r->comm = fopen(path, "we");
	if (!r->comm) {
		lkst_err("%s: %s", path, strerror(errno));
		ret = -1;
	} else {
		lkst_comm_scan(r);
		if (fclose(r->comm)) {
			lkst_err("%s: %s", path, strerror(errno));
			ret = -1;
		}
		r->comm = NULL;
	}
	free(r->names);
	r->names = NULL;
	r->nr_names = 0;
	free(path);
	return ret;
}

/*
 * Save one buffer: @name NULL for the default one, into @dir.  Returns
 * 0, or -1 with a message.
 */
static int lkst_snapshot_buffer(const char *dir, const char *name)
{
	char bufdir[96], instance[96], path[192], *maskset, *file, *info = NULL;
	unsigned long own, over, gone, lost, saved = 0, missing = 0;
	struct lkst_snap_cpu *cpus = NULL, *c;
	struct lkst_rec r = { .dir = dir };
	int nr = 0, i, ret = -1;
	struct timespec now;
	char *bid = NULL;
	size_t len = 0;
	FILE *f;

	if (name) {
		snprintf(bufdir, sizeof(bufdir), "buffers/%s/", name);
		snprintf(instance, sizeof(instance), LKST_DAT_BUFFER ".%s", name);
	} else {
		bufdir[0] = '\0';
		snprintf(instance, sizeof(instance), LKST_DAT_BUFFER);
	}
	snprintf(path, sizeof(path), LKST_TRACEFS_DIR "/%sper_cpu/cpu0", bufdir);
	if (!tracefs_dir_exists(NULL, path)) {
		lkst_err("no %s: %s", path, name ? "no such user buffer" :
			 "no LKST in this kernel, tracefs not mounted, or not root");
		return -1;
	}
	snprintf(path, sizeof(path), LKST_TRACEFS_DIR "/%sper_cpu/cpu0/raw_copy", bufdir);
	if (!tracefs_file_exists(NULL, path)) {
		lkst_err("no %s: this kernel's LKST cannot copy its buffers without consuming them",
			 path);
		return -1;
	}

	/* The stats of every CPU, then every CPU opened: one cut for all */
	for (i = 0; i < LKST_MAX_CPUS; i++) {
		snprintf(path, sizeof(path), LKST_TRACEFS_DIR "/%sper_cpu/cpu%d/raw_copy",
			 bufdir, i);
		if (!tracefs_file_exists(NULL, path))
			break;
		cpus = lkst_realloc_array(cpus, nr + 1, sizeof(*cpus));
		c = &cpus[nr++];
		memset(c, 0, sizeof(*c));
		c->cpu = i;
		c->in = -1;
		if (lkst_snap_stats_read(instance, bufdir, i, &c->before))
			goto out;
	}
	for (i = 0; i < nr; i++) {
		c = &cpus[i];
		snprintf(path, sizeof(path), LKST_TRACEFS_DIR "/%sper_cpu/cpu%d/raw_copy",
			 bufdir, c->cpu);
		file = tracefs_instance_get_file(NULL, path);
		c->in = file ? open(file, O_RDONLY | O_CLOEXEC) : -1;
		if (c->in < 0)
			lkst_err("%s: %s", file ? file : path, strerror(errno));
		tracefs_put_tracing_file(file);
		if (c->in < 0)
			goto out;
	}
	if (lkst_page_layout(&r, instance) || lkst_prepare_dir(dir))
		goto out;
	for (i = 0; i < nr; i++) {
		c = &cpus[i];
		c->bytes = lkst_snap_copy(dir, c);
		close(c->in);
		c->in = -1;
		if (c->bytes < 0 ||
		    lkst_snap_stats_read(instance, bufdir, c->cpu, &c->after))
			goto out;
	}
	if (lkst_copy_meta(&r, instance) || lkst_snap_comm(&r))
		goto out;
	lkst_save_kallsyms(&r, true);
	for (i = 0; i < nr; i++) {
		c = &cpus[i];
		snprintf(path, sizeof(path), "cpu%d.raw", c->cpu);
		if (lkst_rawfile_count(dir, path, 0, &c->records, &own)) {
			lkst_err("%s/%s: cannot be read back", dir, path);
			goto out;
		}
	}

	f = open_memstream(&info, &len);
	if (!f) {
		lkst_err("open_memstream: %s", strerror(errno));
		goto out;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	lkst_read_file("/proc/sys/kernel/random/boot_id", &bid, NULL);
	maskset = lkst_tracefs_read("maskset");
	if (bid)
		lkst_chomp(bid);
	if (maskset)
		lkst_chomp(maskset);
	fprintf(f, "buffer: %s\nmaskset: %s\ntime: %lld\nboot_id: %s\n",
		instance, maskset ? maskset : "?", (long long)now.tv_sec,
		bid ? bid : "?");
	free(bid);
	free(maskset);
	for (i = 0; i < nr; i++) {
		c = &cpus[i];
		over = c->after.overrun - c->before.overrun;
		gone = c->after.read - c->before.read;
		lost = c->after.lost - c->before.lost;
		saved += c->records;
		missing += over + gone + lost;
		fprintf(f, "cpu%d: held %lu saved %lu ", c->cpu,
			c->before.entries, c->records);
		fprintf(f, "overwritten_while_saving %lu ", over);
		fprintf(f, "consumed_while_saving %lu lost_while_saving %lu\n",
			gone, lost);
		fprintf(stderr, "lkst: cpu%d: %lu records saved of %lu held%s\n",
			c->cpu, c->records, c->before.entries, over + gone + lost ?
			" (some overwritten, consumed or lost meanwhile)" : "");
	}
	if (fclose(f) || !info) {
		lkst_err("snapshot.info: %s", strerror(errno));
		goto out;
	}
	if (lkst_save(dir, "snapshot.info", info, len))
		goto out;
	if (missing)
		lkst_warn("%lu records left the buffers or were not recorded while they were saved (see %s/snapshot.info)",
			  missing, dir);
	fprintf(stderr, "lkst: saved %lu records of %s into %s\n", saved,
		instance, dir);
	lkst_tracedat_signals(true);
	ret = lkst_save_tracedat(dir, false) ? -1 : 0;
	lkst_tracedat_signals(false);
out:
	for (i = 0; i < nr; i++)
		if (cpus[i].in >= 0)
			close(cpus[i].in);
	free(cpus);
	free(info);
	return ret;
}

/* Buffer @name (NULL: the default one) into @dir; with @all, also DIR/buffers/ */
static int lkst_snapshot(const char *dir, const char *name, bool all)
{
	char *list, *line, *end, *sub;
	int ret = 0;

	if (lkst_snapshot_buffer(dir, name))
		return -1;
	if (!all)
		return 0;

	list = lkst_tracefs_read("user_buffers");
	if (!list)
		return -1;
	sub = lkst_path(dir, "buffers");
	if (mkdir(sub, 0755) && errno != EEXIST) {
		lkst_err("%s: %s", sub, strerror(errno));
		ret = -1;
	}
	for (line = list; !ret && *line; line = end) {
		char *bdir;

		end = strchrnul(line, '\n');
		if (*end)
			*end++ = '\0';
		if (!*line || *line == '#')
			continue;
		bdir = lkst_path(sub, line);
		ret = lkst_snapshot_buffer(bdir, line);
		free(bdir);
	}
	free(sub);
	free(list);
	return ret;
}

/* The arguments left after the options, -b NAME and --all; 0 or -1 */
static int lkst_snap_args_ok(int argc, char **argv, const char *name, bool all)
{
	if (optind < argc) {
		lkst_err("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (all && name) {
		lkst_err("-b and --all exclude each other");
		return -1;
	}
	if (name && (!*name || strchr(name, '/') || !strcmp(name, ".") ||
		     !strcmp(name, ".."))) {
		lkst_err("bad buffer name '%s'", name);
		return -1;
	}
	return 0;
}

int cmd_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output",	required_argument,	NULL, 'o' },
		{ "buffer",	required_argument,	NULL, 'b' },
		{ "all",	no_argument,		NULL, 'a' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	const char *dir = "lkst.snapshot", *name = NULL;
	bool all = false, filtered;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "o:b:ah", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			dir = optarg;
			break;
		case 'b':
			name = optarg;
			break;
		case 'a':
			all = true;
			break;
		case 'h':
			lkst_snapshot_usage(stdout);
			return LKST_EXIT_OK;
		default:
			goto usage;
		}
	}
	if (lkst_snap_args_ok(argc, argv, name, all))
		goto usage;
	/* Its own reads and writes would overwrite what it saves */
	filtered = !lkst_notrace(getpid(), true);
	ret = lkst_snapshot(dir, name, all) ? LKST_EXIT_FAIL : LKST_EXIT_OK;
	if (filtered)
		lkst_notrace(getpid(), false);
	return ret;
usage:
	lkst_snapshot_usage(stderr);
	return LKST_EXIT_USAGE;
}

/*
 * lkst watch: a snapshot each time a handler calls lkst_notify() (e.g.
 * lkst_escalate on a SIGSEGV), numbered DIR/000001, DIR/000002, ... (one
 * more than the highest already there: the kernel's count starts again
 * at each boot), each written as NNNNNN.tmp and renamed when complete.
 * Notifications that come while a snapshot is taken give one more
 * snapshot, not one each; snapshot.info says how many it stands for.
 */

static void lkst_watch_usage(FILE *f)
{
	fprintf(f,
		"usage: lkst watch [-o DIR] [--keep N] [--delay MS] [--restore MASKSET]\n"
		"                  [-b NAME | --all] [-c FILE]\n"
		"\n"
		"Wait for lkst/notify (a handler saying that something went wrong, e.g.\n"
		"lkst_escalate) and take a snapshot each time (see 'lkst snapshot'), into\n"
		"DIR/000001, DIR/000002, ... (default DIR: lkst.watch), until SIGINT or\n"
		"SIGTERM.\n"
		"\n"
		"  -o, --output DIR       where the snapshots go\n"
		"  -k, --keep N           keep the N newest snapshots, remove older ones\n"
		"                         (default: all)\n"
		"  -d, --delay MS         wait MS milliseconds before the snapshot, so that\n"
		"                         it holds what a switched maskset records after\n"
		"                         the trigger\n"
		"  -r, --restore MASKSET  switch to MASKSET after each snapshot (e.g. back\n"
		"                         from the one lkst_escalate switched to)\n"
		"  -b, --buffer NAME      a user buffer instead of the default buffer\n"
		"  -a, --all              every buffer, as 'lkst snapshot --all'\n"
		"  -c, --config FILE      DIR and N from FILE's [save]: DIR is its dir/watch\n"
		"                         (" LKST_SAVE_DIR "/watch), N its keep (10)\n"
		"  -h, --help             this text\n");
}

/* The numbers of DIR's snapshots, sorted; their count, or -1 */
static int lkst_watch_list(const char *dir, unsigned long **nums)
{
	unsigned long *n = NULL, v;
	struct dirent *de;
	int nr = 0, i, j;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		lkst_err("%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (strlen(de->d_name) != 6 || strspn(de->d_name, "0123456789") != 6)
			continue;
		v = strtoul(de->d_name, NULL, 10);
		n = lkst_realloc_array(n, nr + 1, sizeof(*n));
		for (i = nr; i > 0 && n[i - 1] > v; i--)
			n[i] = n[i - 1];
		n[i] = v;
		nr++;
	}
	closedir(d);
	for (i = j = 0; i < nr; i++)
		if (!j || n[j - 1] != n[i])
			n[j++] = n[i];
	*nums = n;
	return j;
}

static void lkst_watch_prune(const char *dir, unsigned long keep)
{
	unsigned long *nums;
	char name[16], *path;
	int nr, i;

	nr = lkst_watch_list(dir, &nums);
	for (i = 0; keep && nr > 0 && i < nr - (int)keep; i++) {
		snprintf(name, sizeof(name), "%06lu", nums[i]);
		path = lkst_path(dir, name);
		if (nftw(path, lkst_rm_one, 16, FTW_DEPTH | FTW_PHYS))
			lkst_warn("%s: not removed: %s", path, strerror(errno));
		else
			fprintf(stderr, "lkst: removed %s (--keep %lu)\n", path, keep);
		free(path);
	}
	if (nr > 0)
		free(nums);
}

/* One snapshot for notification @count (@seen before it): 0 or -1 */
static int lkst_watch_take(const char *dir, const char *name, bool all,
			   long count, long seen, const char *reason)
{
	unsigned long *nums, next = 1;
	char num[16], tmpname[24], *final, *tmp, line[96];
	int nr, ret;

	nr = lkst_watch_list(dir, &nums);
	if (nr < 0)
		return -1;
	if (nr > 0) {
		next = nums[nr - 1] + 1;
		free(nums);
	}
	if (next > 999999) {
		lkst_err("%s: no snapshot number left (999999 taken)", dir);
		return -1;
	}
	snprintf(num, sizeof(num), "%06lu", next);
	snprintf(tmpname, sizeof(tmpname), "%s.tmp", num);
	final = lkst_path(dir, num);
	tmp = lkst_path(dir, tmpname);
	nftw(tmp, lkst_rm_one, 16, FTW_DEPTH | FTW_PHYS);	/* a crashed one's */
	ret = lkst_snapshot(tmp, name, all);
	if (!ret) {
		char *info = lkst_path(tmp, "snapshot.info");
		FILE *f = fopen(info, "ae");

		snprintf(line, sizeof(line), "notify: %ld %s\ncoalesced: %ld\n",
			 count, reason, count - seen - 1);
		if (!f || fputs(line, f) < 0 || fclose(f)) {
			lkst_err("%s: %s", info, strerror(errno));
			ret = -1;
		}
		free(info);
	}
	if (!ret && rename(tmp, final)) {
		lkst_err("%s: %s", final, strerror(errno));
		ret = -1;
	}
	if (!ret)
		fprintf(stderr, "lkst: notification %ld (reason %s): snapshot %s\n",
			count, reason, final);
	else
		nftw(tmp, lkst_rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(final);
	free(tmp);
	return ret;
}

int cmd_watch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output",	required_argument,	NULL, 'o' },
		{ "keep",	required_argument,	NULL, 'k' },
		{ "delay",	required_argument,	NULL, 'd' },
		{ "restore",	required_argument,	NULL, 'r' },
		{ "buffer",	required_argument,	NULL, 'b' },
		{ "all",	no_argument,		NULL, 'a' },
		{ "config",	required_argument,	NULL, 'c' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	const char *dir = NULL, *name = NULL, *restore = NULL, *config = NULL;
	struct lkst_conf_dirs *conf = NULL;
	unsigned long keep = 0, delay = 0;
	int opt, nfd = -1, sfd = -1, ret = LKST_EXIT_FAIL;
	char buf[64], reason[32], *path = NULL, *notify = NULL;
	long count, seen;
	sigset_t mask, oldmask;
	bool all = false, filtered = false, sigs = false;
	ssize_t n;

	while ((opt = getopt_long(argc, argv, "o:k:d:r:b:ac:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			dir = optarg;
			break;
		case 'k':
			if (lkst_parse_uint(optarg, &keep) || !keep) {
				lkst_err("bad --keep '%s': a number > 0", optarg);
				goto usage;
			}
			break;
		case 'd':
			if (lkst_parse_uint(optarg, &delay) || delay > 3600000) {
				lkst_err("bad --delay '%s': milliseconds, at most 3600000",
					 optarg);
				goto usage;
			}
			break;
		case 'r':
			restore = optarg;
			break;
		case 'b':
			name = optarg;
			break;
		case 'a':
			all = true;
			break;
		case 'c':
			config = optarg;
			break;
		case 'h':
			lkst_watch_usage(stdout);
			return LKST_EXIT_OK;
		default:
			goto usage;
		}
	}
	if (lkst_snap_args_ok(argc, argv, name, all))
		goto usage;
	if (restore) {
		char *list = lkst_tracefs_read("available_masksets");

		if (!list)
			return LKST_EXIT_FAIL;
		if (!lkst_maskset_known(list, restore)) {
			lkst_err("--restore: no maskset '%s' (see available_masksets)",
				 restore);
			free(list);
			return LKST_EXIT_FAIL;
		}
		free(list);
	}
	if (config) {
		conf = lkst_zalloc(sizeof(*conf));
		if (lkst_conf_dirs_read(config, conf))
			goto out;
		if (!dir) {
			path = lkst_path(conf->save_dir, "watch");
			dir = path;
		}
		if (!keep)
			keep = conf->save_keep;
	}
	if (!dir)
		dir = "lkst.watch";
	n = lkst_mkdir_p(dir);
	if (n) {
		lkst_err("%s: %s", *dir ? dir : "''", strerror(-n));
		goto out;
	}

	/* As for lkst record: "lkst watch &" may start with SIGINT ignored */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, &oldmask);
	sigs = true;
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	notify = lkst_lkst_file("notify");
	nfd = notify ? open(notify, O_RDONLY | O_CLOEXEC) : -1;
	if (sfd < 0 || nfd < 0) {
		lkst_err("%s: %s", sfd < 0 ? "signalfd" : notify ? notify : "notify",
			 strerror(errno));
		goto out;
	}
	/* The count so far; what happened before is not this watch's */
	n = pread(nfd, buf, sizeof(buf) - 1, 0);
	if (n > 0)
		buf[n] = '\0';
	if (n <= 0 || sscanf(buf, "%ld %31s", &seen, reason) != 2) {
		lkst_err("%s: unreadable", notify);
		goto out;
	}
	/* Its own reads and writes would overwrite what it saves */
	filtered = !lkst_notrace(getpid(), true);
	fprintf(stderr, "lkst: watching %s, snapshots into %s\n", notify, dir);
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = nfd, .events = POLLIN | POLLPRI },
			{ .fd = sfd, .events = POLLIN },
		};

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			lkst_err("poll: %s", strerror(errno));
			goto out;
		}
		if (pfd[1].revents) {
			struct signalfd_siginfo si;

			/* consumed, or unblocking it at the end would kill us */
			if (read(sfd, &si, sizeof(si)) != sizeof(si))
				lkst_warn("signalfd: %s", strerror(errno));
			ret = LKST_EXIT_OK;
			break;
		}
		if (!pfd[0].revents)
			continue;
		if (delay) {
			struct timespec ts = { delay / 1000, (delay % 1000) * 1000000 };

			nanosleep(&ts, NULL);
		}
		/* Read now: later notifications wake the next poll() */
		n = pread(nfd, buf, sizeof(buf) - 1, 0);
		if (n <= 0) {
			lkst_err("%s: %s", notify, n ? strerror(errno) : "empty");
			goto out;
		}
		buf[n] = '\0';
		if (sscanf(buf, "%ld %31s", &count, reason) != 2) {
			lkst_err("%s: unexpected '%s'", notify, buf);
			goto out;
		}
		if (count == seen)
			continue;
		/* A failed snapshot (a full disk) is said, and watching goes on */
		if (lkst_watch_take(dir, name, all, count, seen, reason))
			lkst_warn("notification %ld: no snapshot; watching on", count);
		seen = count;
		if (restore && lkst_tracefs_write("maskset", restore))
			goto out;
		lkst_watch_prune(dir, keep);
	}
out:
	if (filtered)
		lkst_notrace(getpid(), false);
	if (nfd >= 0)
		close(nfd);
	if (sfd >= 0)
		close(sfd);
	tracefs_put_tracing_file(notify);
	if (sigs)
		sigprocmask(SIG_SETMASK, &oldmask, NULL);
	free(path);
	free(conf);
	return ret;
usage:
	lkst_watch_usage(stderr);
	return LKST_EXIT_USAGE;
}
