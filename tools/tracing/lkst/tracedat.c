// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat files, the format of trace-cmd (trace-cmd.dat.v7(5)).
 *
 * lkst record ends by writing DIR/trace.dat from the recording directory,
 * so that trace-cmd report, KernelShark and any libtracecmd reader read
 * LKST's records.  libtracecmd has no writer in its public API, so the
 * file is written here, version 7 without compression:
 *
 *   magic, "tracing", "7", endianness, long size, page size, "none", ""
 *   offset of the options section
 *   strings section       the sections' descriptions
 *   header info section   header_page and header_event of the recording
 *   ftrace events section no formats: LKST records none of ftrace's events
 *   event formats section system "lkst": events/lkst/<event>/format
 *   kallsyms section      the recording's kallsyms
 *   printk section        printk_formats
 *   cmdlines section      "PID COMM" of the recording's process names
 *   buffer section ""     the top buffer: no CPUs
 *   buffer section "lkst" per CPU, page aligned, the pages of its raw
 *                         files (the kept ones of a rotation), in order
 *   options section       where the sections are, CPU count, the clock
 *                         (DIR/trace_clock), uname (DIR/uname), version
 *                         "lkst RELEASE", the CPUs of buffer "lkst"
 *
 * The records go into the buffer instance "lkst", which is where LKST's
 * default buffer lives in ftrace and where trace-cmd extract -B lkst
 * puts them: both kinds of file read alike.  The pages are those lkst
 * report decodes, by the same validator (lkst_raw_pages()): a corrupt
 * page and a truncated last page are left out, as lkst report skips
 * them, since a reader of trace.dat trusts the pages it is given.  That
 * the directory is damaged is not carried into the file.
 *
 * Reading the records is libtracecmd's (trace.c); lkst_tracedat_info()
 * only finds what its public API does not tell: a buffer's CPU count and
 * the text of an uncompressed kallsyms section.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <traceevent/event-parse.h>

#include "lkst.h"

/* Section and option IDs of trace-cmd.dat.v7(5) */
#define DAT_OPT_DONE		0
#define DAT_OPT_BUFFER		3
#define DAT_OPT_TRACECLOCK	4
#define DAT_OPT_UNAME		5
#define DAT_OPT_CPUCOUNT	8
#define DAT_OPT_VERSION		9
#define DAT_OPT_STRINGS		15
#define DAT_OPT_HEADER_INFO	16
#define DAT_OPT_FTRACE_EVENTS	17
#define DAT_OPT_EVENT_FORMATS	18
#define DAT_OPT_KALLSYMS	19
#define DAT_OPT_PRINTK		20
#define DAT_OPT_CMDLINES	21
#define DAT_SEC_COMPRESS	1
#define DAT_MAGIC		"\027\010\104tracing"

/* descriptions of the sections: offsets into the strings section */
static const char * const dat_strings[] = {
	"strings", "headers", "ftrace events", "events format", "kallsyms",
	"printk", "command lines", "buffer flyrecord ",
	("buffer flyrecord " LKST_DAT_BUFFER), "options",
};

enum {
	S_STRINGS, S_HEADERS, S_FTRACE, S_EVENTS, S_KALLSYMS, S_PRINTK,
	S_CMDLINES, S_TOP, S_LKST, S_OPTIONS, S_NR
};

struct dat_out {
	FILE		*f;
	int		err;		/* errno of the first failure */
	uint32_t	str[S_NR];	/* offsets of dat_strings */
	/* options: what they point to */
	uint64_t	sec[DAT_OPT_CMDLINES + 1];
	uint64_t	top, lkst;	/* the two buffer sections */
	/* buffer lkst's CPUs */
	uint64_t	*cpu_off, *cpu_size;
	int		nr_cpus;
	unsigned int	page_size;	/* of the ring buffer */
	unsigned long	pages, skipped;
};

/*
 * SIGINT and SIGTERM while the file is written: the write stops, the
 * temporary file goes, the recording directory stays as it is.
 */
static int dat_signal;	/* __atomic accesses: set by the handler */
static struct sigaction dat_old_int, dat_old_term;

static void dat_on_signal(int sig)
{
	__atomic_store_n(&dat_signal, sig, __ATOMIC_RELAXED);
}

static bool dat_interrupted(void)
{
	return __atomic_load_n(&dat_signal, __ATOMIC_RELAXED) != 0;
}

/**
 * lkst_tracedat_signals - catch SIGINT and SIGTERM around a trace.dat write
 * @on: true before lkst_tracedat_write() (and before unblocking those
 *	signals, so that a pending one is caught), false after it
 */
void lkst_tracedat_signals(bool on)
{
	struct sigaction sa = { .sa_handler = dat_on_signal };

	if (on) {
		__atomic_store_n(&dat_signal, 0, __ATOMIC_RELAXED);
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &dat_old_int);
		sigaction(SIGTERM, &sa, &dat_old_term);
	} else {
		sigaction(SIGINT, &dat_old_int, NULL);
		sigaction(SIGTERM, &dat_old_term, NULL);
	}
}

static void dat_write(struct dat_out *o, const void *p, size_t n)
{
	if (!o->err && n && fwrite(p, 1, n, o->f) != n)
		o->err = errno ? errno : EIO;
}

/* numbers in the host's byte order, which the file header names */
static void dat_w2(struct dat_out *o, uint16_t v) { dat_write(o, &v, 2); }
static void dat_w4(struct dat_out *o, uint32_t v) { dat_write(o, &v, 4); }
static void dat_w8(struct dat_out *o, uint64_t v) { dat_write(o, &v, 8); }
static void dat_str(struct dat_out *o, const char *s) { dat_write(o, s, strlen(s) + 1); }

static uint64_t dat_pos(struct dat_out *o)
{
	off_t pos = ftello(o->f);

	if (pos < 0 && !o->err)
		o->err = errno;
	return pos < 0 ? 0 : pos;
}

static void dat_seek(struct dat_out *o, uint64_t pos)
{
	if (!o->err && fseeko(o->f, pos, SEEK_SET))
		o->err = errno;
}

/* A section header with its size to come; returns where the size goes */
static uint64_t dat_sec_begin(struct dat_out *o, uint16_t id, int desc,
			      uint64_t *start)
{
	uint64_t pos;

	if (start)
		*start = dat_pos(o);
	dat_w2(o, id);
	dat_w2(o, 0);			/* flags: not compressed */
	dat_w4(o, o->str[desc]);
	pos = dat_pos(o);
	dat_w8(o, 0);
	return pos;
}

static void dat_sec_end(struct dat_out *o, uint64_t size_pos)
{
	uint64_t end = dat_pos(o);

	dat_seek(o, size_pos);
	dat_w8(o, end - size_pos - 8);
	dat_seek(o, end);
}

/* A file's contents, or NULL (and *len 0) */
static char *dat_slurp(const char *path, size_t *len)
{
	char *buf = NULL;

	*len = 0;
	if (!path || lkst_read_file(path, &buf, len))
		return NULL;
	return buf;
}

static char *dat_tracefs(const char *name, size_t *len)
{
	char *path = tracefs_instance_get_file(NULL, name);
	char *buf = dat_slurp(path, len);

	tracefs_put_tracing_file(path);
	return buf;
}

/* The size of a ring-buffer page, from the recording's header_page */
static int dat_page_size(const char *dir, unsigned int *size)
{
	char *path = lkst_path(dir, LKST_FILE_HPAGE);
	struct tep_handle *tep = tep_alloc();
	size_t len;
	char *buf = dat_slurp(path, &len);
	int ret = -1;

	if (tep && buf && !tep_parse_header_page(tep, buf, len, sizeof(long))) {
		*size = tep_get_sub_buffer_size(tep);
		ret = *size >= 64 && !(*size & (*size - 1)) ? 0 : -1;
	}
	if (ret)
		lkst_err("%s: unexpected page layout", path);
	if (tep)
		tep_free(tep);
	free(buf);
	free(path);
	return ret;
}

/* One event format of events/lkst: its text, ftrace ID and name */
struct dat_format {
	char		*text;
	size_t		len;
	unsigned long	id;
	char		name[64];
};

static int dat_formats(const char *events_dir, struct dat_format **fmts,
		       size_t *nr)
{
	struct dat_format *v = NULL;
	struct dirent *de;
	char *path, *p;
	size_t n = 0;
	DIR *d;

	d = opendir(events_dir);
	if (!d) {
		lkst_err("%s: %s", events_dir, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		struct dat_format f = { };

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/%s/format", events_dir, de->d_name) < 0)
			continue;
		f.text = dat_slurp(path, &f.len);
		free(path);
		if (!f.text)
			continue;
		p = strstr(f.text, "\nID: ");
		if (!p || sscanf(f.text, "name: %63s", f.name) != 1) {
			free(f.text);
			continue;
		}
		f.id = strtoul(p + 5, NULL, 10);
		v = lkst_realloc_array(v, n + 1, sizeof(*v));
		v[n++] = f;
	}
	closedir(d);
	*fmts = v;
	*nr = n;
	return 0;
}

static const struct dat_format *dat_format_by_id(const struct dat_format *f,
						 size_t nr, unsigned int id)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (f[i].id == id)
			return &f[i];
	return NULL;
}

/*
 * Do the formats name every record's type as its LKST event?  Records of
 * another boot (--last-boot) have that boot's types; a dynamic event of
 * the recording may be gone.  Returns the number of records that do not
 * match, with the first one described in @why.
 */
static size_t dat_check_types(const struct lkst_trace *t,
			      const struct dat_format *f, size_t nr,
			      char *why, size_t len)
{
	const struct dat_format *fmt;
	const struct lkst_evdesc *d;
	size_t i, bad = 0;

	for (i = 0; i < t->nr; i++) {
		const struct lkst_event *e = &t->ev[i];

		fmt = dat_format_by_id(f, nr, e->type);
		d = lkst_desc(t, e->id);
		if (fmt && d && !strcmp(fmt->name, d->name))
			continue;
		if (!bad++)
			snprintf(why, len, "a record of event %u (%s) has type %u, %s%s",
				 e->id, d ? d->name : "unknown", e->type,
				 fmt ? "the format of " : "which no format names",
				 fmt ? fmt->name : "");
	}
	return bad;
}

static void dat_header_file(struct dat_out *o, const char *dir,
			    const char *name)
{
	char *path = lkst_path(dir, name);
	size_t len;
	char *buf = dat_slurp(path, &len);

	free(path);
	dat_str(o, name);
	dat_w8(o, len);
	dat_write(o, buf, len);
	free(buf);
}

struct dat_cpu_write {
	struct dat_out	*o;
	uint64_t	bytes;
};

static int dat_page(const void *page, void *arg)
{
	struct dat_cpu_write *w = arg;

	if (dat_interrupted())
		return -EINTR;
	dat_write(w->o, page, w->o->page_size);
	w->bytes += w->o->page_size;
	w->o->pages++;
	return w->o->err ? -w->o->err : 0;
}

/* buffer lkst: each CPU's pages from a page-aligned offset */
static int dat_buffer(struct dat_out *o, const char *dir)
{
	struct lkst_rawfile *files = NULL;
	struct dat_cpu_write w = { .o = o };
	size_t nr = 0, i;
	unsigned long skipped;
	unsigned int psize;
	uint64_t size_pos, pos;

	int cpu, ret;

	ret = lkst_rawfiles(dir, &files, &nr);
	if (ret)
		return ret;
	o->nr_cpus = nr ? files[nr - 1].cpu + 1 : 0;
	o->cpu_off = lkst_zalloc((o->nr_cpus + 1) * sizeof(*o->cpu_off));
	o->cpu_size = lkst_zalloc((o->nr_cpus + 1) * sizeof(*o->cpu_size));
	size_pos = dat_sec_begin(o, DAT_OPT_BUFFER, S_LKST, &o->lkst);
	for (cpu = 0, i = 0; cpu < o->nr_cpus; cpu++) {
		pos = dat_pos(o);
		pos = (pos + o->page_size - 1) / o->page_size * o->page_size;
		dat_seek(o, pos);
		o->cpu_off[cpu] = pos;
		w.bytes = 0;
		for (; i < nr && (int)files[i].cpu == cpu; i++) {
			ret = lkst_raw_pages(dir, files[i].name, dat_page, &w,
					     &psize, &skipped);
			if (ret)
				goto out;
			o->skipped += skipped;
		}
		o->cpu_size[cpu] = w.bytes;
	}
	/* the data ends the section: its size covers it */
	if (!o->err && fflush(o->f))
		o->err = errno;
	dat_sec_end(o, size_pos);
out:
	lkst_rawfiles_free(files, nr);
	return ret;
}

static void dat_opt(struct dat_out *o, uint16_t id, const void *data,
		    uint32_t len)
{
	dat_w2(o, id);
	dat_w4(o, len);
	dat_write(o, data, len);
}

static void dat_opt_buffer(struct dat_out *o, uint64_t off, const char *name,
			   const char *clock, int cpus)
{
	uint32_t len = 8 + strlen(name) + 1 + strlen(clock) + 1 + 4 + 4 +
		       cpus * (4 + 8 + 8);
	int cpu;

	dat_w2(o, DAT_OPT_BUFFER);
	dat_w4(o, len);
	dat_w8(o, off);
	dat_str(o, name);
	dat_str(o, clock);
	dat_w4(o, o->page_size);
	dat_w4(o, cpus);
	for (cpu = 0; cpu < cpus; cpu++) {
		dat_w4(o, cpu);
		dat_w8(o, o->cpu_off[cpu]);
		dat_w8(o, o->cpu_size[cpu]);
	}
}

/* "[local] global ..." of trace_clock: the one in brackets */
static void dat_clock(const char *buf, char *clock, size_t len)
{
	const char *p = buf ? strchr(buf, '[') : NULL;
	size_t n = p ? strcspn(p + 1, "]") : 0;

	snprintf(clock, len, "local");
	if (n && n < len && p[1 + n] == ']')
		snprintf(clock, len, "%.*s", (int)n, p + 1);
}

/* The value of "KEY: value" in DIR/last_boot.info, or "" */
static void dat_info_value(const char *dir, const char *key, char *val,
			   size_t len)
{
	char *path = lkst_path(dir, LKST_FILE_LAST_BOOT), *p;
	size_t n, klen = strlen(key);
	char *buf = dat_slurp(path, &n);

	free(path);
	*val = '\0';
	for (p = buf; p && *p; p = strchrnul(p, '\n'), p += !!*p) {
		if (strncmp(p, key, klen) || p[klen] != ':')
			continue;
		p += klen + 1;
		p += strspn(p, " \t");
		snprintf(val, len, "%.*s", (int)strcspn(p, "\n"), p);
		break;
	}
	free(buf);
}

static int dat_write_file(struct dat_out *o, const char *dir,
			  const struct lkst_trace *t,
			  const struct dat_format *fmts, size_t nr_fmts,
			  bool last_boot)
{
	char *buf, clock[64], *kallsyms, *path, rel[80], ver[96];
	uint64_t opt_pos, size_pos, off = 0;
	unsigned char hl[2];
	size_t len, i;
	uint32_t v;
	int ret;

	for (i = 0; i < S_NR; i++) {
		o->str[i] = off;
		off += strlen(dat_strings[i]) + 1;
	}
	/* the file header: endianness (0 little), the size of a long */
	v = 1;
	hl[0] = *(unsigned char *)&v == 1 ? 0 : 1;
	hl[1] = sizeof(long);
	dat_write(o, DAT_MAGIC, 10);
	dat_str(o, "7");
	dat_write(o, hl, 2);
	dat_w4(o, getpagesize());
	dat_str(o, "none");
	dat_str(o, "");
	opt_pos = dat_pos(o);
	dat_w8(o, 0);

	size_pos = dat_sec_begin(o, DAT_OPT_STRINGS, S_STRINGS, NULL);
	for (i = 0; i < S_NR; i++)
		dat_str(o, dat_strings[i]);
	dat_sec_end(o, size_pos);

	size_pos = dat_sec_begin(o, DAT_OPT_HEADER_INFO, S_HEADERS,
				 &o->sec[DAT_OPT_HEADER_INFO]);
	dat_header_file(o, dir, LKST_FILE_HPAGE);
	dat_header_file(o, dir, LKST_FILE_HEVENT);
	dat_sec_end(o, size_pos);

	size_pos = dat_sec_begin(o, DAT_OPT_FTRACE_EVENTS, S_FTRACE,
				 &o->sec[DAT_OPT_FTRACE_EVENTS]);
	dat_w4(o, 0);
	dat_sec_end(o, size_pos);

	size_pos = dat_sec_begin(o, DAT_OPT_EVENT_FORMATS, S_EVENTS,
				 &o->sec[DAT_OPT_EVENT_FORMATS]);
	dat_w4(o, 1);
	dat_str(o, "lkst");
	dat_w4(o, nr_fmts);
	for (i = 0; i < nr_fmts; i++) {
		dat_w8(o, fmts[i].len);
		dat_write(o, fmts[i].text, fmts[i].len);
	}
	dat_sec_end(o, size_pos);

	size_pos = dat_sec_begin(o, DAT_OPT_KALLSYMS, S_KALLSYMS,
				 &o->sec[DAT_OPT_KALLSYMS]);
	path = lkst_path(dir, LKST_FILE_KALLSYMS);
	kallsyms = dat_slurp(path, &len);
	free(path);
	dat_w4(o, len);
	dat_write(o, kallsyms, len);
	free(kallsyms);
	dat_sec_end(o, size_pos);

	/* trace_printk()'s formats: of no use for another boot's records */
	size_pos = dat_sec_begin(o, DAT_OPT_PRINTK, S_PRINTK,
				 &o->sec[DAT_OPT_PRINTK]);
	buf = last_boot ? NULL : dat_tracefs("printk_formats", &len);
	dat_w4(o, buf ? len : 0);
	dat_write(o, buf, buf ? len : 0);
	free(buf);
	dat_sec_end(o, size_pos);

	/*
	 * The names lkst report uses: the comm file's, and those inherited
	 * at a fork; not "<unknown>" (a child of an unknown parent), which
	 * a reader finds out again.
	 */
	size_pos = dat_sec_begin(o, DAT_OPT_CMDLINES, S_CMDLINES,
				 &o->sec[DAT_OPT_CMDLINES]);
	len = 0;
	for (i = 0; i < t->nr_comm; i++)
		if (t->comm[i].comm[0] != '<')
			len += snprintf(NULL, 0, "%u %s\n", t->comm[i].pid,
					t->comm[i].comm);
	dat_w8(o, len);
	for (i = 0; i < t->nr_comm && !o->err; i++)
		if (t->comm[i].comm[0] != '<' &&
		    fprintf(o->f, "%u %s\n", t->comm[i].pid, t->comm[i].comm) < 0)
			o->err = errno;
	dat_sec_end(o, size_pos);

	/* the top buffer, empty: trace-cmd's readers expect one */
	size_pos = dat_sec_begin(o, DAT_OPT_BUFFER, S_TOP, &o->top);
	dat_sec_end(o, size_pos);
	ret = dat_buffer(o, dir);
	if (ret) {
		if (!o->err)
			o->err = ret < 0 ? -ret : EIO;
		return -1;
	}

	/* the options, pointing at all of the above */
	off = dat_pos(o);
	size_pos = dat_sec_begin(o, DAT_OPT_DONE, S_OPTIONS, NULL);
	for (i = DAT_OPT_HEADER_INFO; i <= DAT_OPT_CMDLINES; i++)
		dat_opt(o, i, &o->sec[i], 8);
	v = o->nr_cpus;
	dat_opt(o, DAT_OPT_CPUCOUNT, &v, 4);
	/*
	 * The clock, as trace-cmd writes it: the text of the instance's
	 * trace_clock, saved by lkst record ("[local]" for --last-boot or
	 * an older recording).  Readers print the time stamps as seconds
	 * only for the clocks that count nanoseconds (not "counter").
	 */
	path = lkst_path(dir, LKST_FILE_CLOCK);
	buf = dat_slurp(path, &len);
	free(path);
	if (!buf || !len || !memchr(buf, '[', len) || memchr(buf, '\0', len)) {
		free(buf);
		buf = lkst_strdup("[local]\n");
		len = strlen(buf);
	}
	dat_clock(buf, clock, sizeof(clock));
	dat_opt(o, DAT_OPT_TRACECLOCK, buf, len + 1);
	free(buf);
	/* uname -a and -r of the recording machine, saved by lkst record */
	rel[0] = '\0';
	path = lkst_path(dir, LKST_FILE_UNAME);
	buf = dat_slurp(path, &len);
	free(path);
	if (buf && len && !memchr(buf, '\0', len)) {
		buf[strcspn(buf, "\n")] = '\0';
		dat_opt(o, DAT_OPT_UNAME, buf, strlen(buf) + 1);
		/* sysname nodename release ... */
		if (sscanf(buf, "%*s %*s %79s", rel) != 1)
			rel[0] = '\0';
	}
	free(buf);
	if (!rel[0])
		dat_info_value(dir, "release", rel, sizeof(rel));
	snprintf(ver, sizeof(ver), "lkst%s%s", rel[0] ? " " : "", rel);
	dat_opt(o, DAT_OPT_VERSION, ver, strlen(ver) + 1);
	dat_opt_buffer(o, o->top, "", clock, 0);
	dat_opt_buffer(o, o->lkst, LKST_DAT_BUFFER, clock, o->nr_cpus);
	dat_w2(o, DAT_OPT_DONE);
	dat_w4(o, 8);
	dat_w8(o, 0);			/* no further options section */
	dat_sec_end(o, size_pos);
	dat_seek(o, opt_pos);
	dat_w8(o, off);
	return o->err ? -1 : 0;
}

/**
 * lkst_tracedat_write - write DIR/trace.dat from a recording directory
 * @dir: the recording
 * @events_dir: events/lkst of tracefs, whose formats describe the records
 * @last_boot: the records are the previous boot's (record --last-boot)
 *
 * Writes nothing, and says why, when the formats do not describe the
 * records: when a record's ftrace type is not the ID of the format of its
 * LKST event (another boot's types, a dynamic event removed meanwhile),
 * or when the records predate LKST's ftrace events (no type).
 *
 * The file is written as DIR/trace.dat.tmp and renamed when complete; on
 * a write error, or SIGINT/SIGTERM caught by lkst_tracedat_signals(), the
 * temporary file is removed.
 *
 * Return: 0 when written, 1 when not written for such a reason, -1 on an
 * error or an interruption (reported).
 */
int lkst_tracedat_write(const char *dir, const char *events_dir, bool last_boot)
{
	struct dat_out o = { };
	struct dat_format *fmts = NULL;
	char *path, *tmp, why[256];
	size_t nr_fmts = 0, bad, i;
	struct lkst_trace t;
	int ret = -1, rc;

	path = lkst_path(dir, LKST_FILE_TRACEDAT);
	tmp = lkst_path(dir, LKST_FILE_TRACEDAT_TMP);
	unlink(path);
	unlink(tmp);
	memset(&t, 0, sizeof(t));
	if (dat_interrupted()) {
		lkst_err("%s: interrupted: not written", path);
		goto out_free;
	}
	if (lkst_trace_load(&t, dir))
		goto out_free;
	if (dat_interrupted()) {
		lkst_err("%s: interrupted: not written", path);
		goto out;
	}
	if (dat_formats(events_dir, &fmts, &nr_fmts))
		goto out;
	bad = dat_check_types(&t, fmts, nr_fmts, why, sizeof(why));
	if (bad) {
		lkst_warn("no %s: the event formats of %s do not describe %zu of the %zu records (%s)",
			  path, events_dir, bad, t.nr, why);
		ret = 1;
		goto out;
	}
	o.f = fopen(tmp, "w");
	if (!o.f) {
		lkst_err("%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (dat_page_size(dir, &o.page_size))
		goto out_tmp;
	rc = dat_write_file(&o, dir, &t, fmts, nr_fmts, last_boot);
	if (dat_interrupted()) {
		lkst_err("%s: interrupted", tmp);
		goto out_tmp;
	}
	if (rc)
		goto out_err;
	rc = fclose(o.f);
	o.f = NULL;
	if (rc) {
		o.err = errno ? errno : EIO;
		goto out_err;
	}
	if (rename(tmp, path)) {
		lkst_err("%s: %s", path, strerror(errno));
		goto out_tmp;
	}
	fprintf(stderr, "lkst: wrote %s: %lu pages of %d CPUs%s (trace-cmd report -i %s)\n",
		path, o.pages, o.nr_cpus,
		o.skipped ? ", without the corrupt ones" : "", path);
	if (o.skipped)
		lkst_warn("%s: %lu corrupt or truncated pages left out (lkst report %s says so, a reader of %s cannot)",
			  path, o.skipped, dir, path);
	ret = 0;
	goto out;
out_err:
	lkst_err("%s: %s", tmp, strerror(o.err ? o.err : EIO));
out_tmp:
	if (o.f)
		fclose(o.f);
	unlink(tmp);
out:
	lkst_trace_free(&t);
out_free:
	for (i = 0; i < nr_fmts; i++)
		free(fmts[i].text);
	free(fmts);
	free(o.cpu_off);
	free(o.cpu_size);
	free(path);
	free(tmp);
	return ret;
}

/* Reading: the few things libtracecmd's public API does not tell */
static int dat_read(FILE *f, void *p, size_t n)
{
	return fread(p, 1, n, f) == n ? 0 : -1;
}

static int dat_read_str(FILE *f, char *buf, size_t len)
{
	size_t i;
	int c;

	for (i = 0; (c = fgetc(f)) != EOF; i++) {
		if (i < len)
			buf[i] = c;
		if (!c)
			return i < len ? 0 : -1;
	}
	return -1;
}

/**
 * lkst_tracedat_info - a buffer's CPU count and the kallsyms text of a
 *			trace.dat of version 7
 * @path: the file
 * @buffer: the buffer instance's name, "" for the top buffer
 * @nr_cpus: receives the highest CPU of @buffer + 1, 0 if unknown
 * @kallsyms: receives the kallsyms section's text if it is not
 *	      compressed, else NULL; free() it
 *
 * Return: 0, or -1 for a file of another version or byte order (nothing
 * is found out then).
 */
int lkst_tracedat_info(const char *path, const char *buffer, int *nr_cpus,
		       char **kallsyms)
{
	char magic[10], str[256], *data = NULL, *p, *end;
	uint64_t opt, off, ksyms = 0, size;
	uint16_t id, flags;
	uint32_t desc, len, cpus, i, cpu;
	unsigned char hdr[2];
	int ret = -1, loops = 0;
	uint32_t one = 1;
	struct stat st;
	uint64_t fsize;
	FILE *f;

	*nr_cpus = 0;
	*kallsyms = NULL;
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fstat(fileno(f), &st) || st.st_size < 0) {
		fclose(f);
		return -1;
	}
	fsize = st.st_size;
	if (dat_read(f, magic, 10) || memcmp(magic, DAT_MAGIC, 10) ||
	    dat_read_str(f, str, sizeof(str)) || strtoul(str, NULL, 10) < 7 ||
	    dat_read(f, hdr, 2) || hdr[0] != (*(char *)&one == 1 ? 0 : 1) ||
	    dat_read(f, &len, 4) || dat_read_str(f, str, sizeof(str)) ||
	    dat_read_str(f, str, sizeof(str)) || dat_read(f, &opt, 8))
		goto out;
	/* the options sections, chained by their DONE options */
	/* every offset and length read from the file: inside the file */
	while (opt && loops++ < 64) {
		if (fsize < 16 || opt > fsize - 16 ||
		    fseeko(f, opt, SEEK_SET) || dat_read(f, &id, 2) ||
		    dat_read(f, &flags, 2) || dat_read(f, &desc, 4) ||
		    dat_read(f, &size, 8) || id != DAT_OPT_DONE ||
		    (flags & DAT_SEC_COMPRESS) || size > (64 << 20) ||
		    size > fsize - opt - 16)
			goto out;
		data = malloc(size ? size : 1);
		if (!data || dat_read(f, data, size))
			goto out;
		opt = 0;
		for (p = data, end = data + size; end - p >= 6; p += 6 + len) {
			memcpy(&id, p, 2);
			memcpy(&len, p + 2, 4);
			if (len > end - p - 6)
				break;
			if (id == DAT_OPT_DONE && len >= 8)
				memcpy(&opt, p + 6, 8);
			if (id == DAT_OPT_KALLSYMS && len >= 8)
				memcpy(&ksyms, p + 6, 8);
			if (id != DAT_OPT_BUFFER || len < 9 ||
			    strnlen(p + 14, len - 8) >= len - 8 ||
			    strcmp(p + 14, buffer))
				continue;
			/* offset, name, clock, page size, cpus, cpus * (id, offset, size) */
			off = 6 + 8 + strlen(p + 14) + 1;
			if (off >= 6 + len || !memchr(p + off, 0, 6 + len - off))
				continue;
			off += strlen(p + off) + 1 + 4;
			if (off + 4 > 6 + len)
				continue;
			memcpy(&cpus, p + off, 4);
			off += 4;
			for (i = 0; i < cpus && off + 20 <= 6 + len; i++, off += 20) {
				memcpy(&cpu, p + off, 4);
				if (cpu < LKST_MAX_CPUS && (int)cpu + 1 > *nr_cpus)
					*nr_cpus = cpu + 1;
			}
		}
		free(data);
		data = NULL;
	}
	ret = 0;
	if (!ksyms || fsize < 20 || ksyms > fsize - 20 ||
	    fseeko(f, ksyms, SEEK_SET) || dat_read(f, &id, 2) ||
	    dat_read(f, &flags, 2) || dat_read(f, &desc, 4) ||
	    dat_read(f, &size, 8) || id != DAT_OPT_KALLSYMS ||
	    (flags & DAT_SEC_COMPRESS) || dat_read(f, &len, 4) || !len ||
	    size < 4 || len > size - 4 || len > fsize - ksyms - 20)
		goto out;
	*kallsyms = malloc((size_t)len + 1);
	if (*kallsyms && dat_read(f, *kallsyms, len)) {
		free(*kallsyms);
		*kallsyms = NULL;
	} else if (*kallsyms) {
		(*kallsyms)[len] = '\0';
	}
out:
	free(data);
	fclose(f);
	return ret;
}
