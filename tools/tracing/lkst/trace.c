// SPDX-License-Identifier: GPL-2.0
/*
 * Decode a recording: a directory made by 'lkst record', or a trace.dat
 * file (lkst record's DIR/trace.dat, trace-cmd's) read with libtracecmd.
 *
 * The per-CPU files hold ring-buffer pages exactly as the kernel's
 * lkst/per_cpu/cpuN/raw hands them out (the trace_pipe_raw format).
 * libtraceevent does the parsing: tep reads header_page and the record
 * layout in the events' formats (DIR/events/lkst/NAME/format; DIR/format
 * in an older recording or a vmcore's extract), kbuffer walks the events
 * of a page.  kbuffer trusts
 * the page it is given, though (a bad length can make it loop or read
 * past the page), so every page is checked here first and skipped, with a
 * message, when it is not well formed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <trace-cmd.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "lkst.h"

/* Event type_len values of the ring buffer (see header_event) */
#define RB_TYPE_DATA_MAX	28
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31
#define RB_COMMIT_MASK		((1U << 27) - 1)
#define RB_MISSED_EVENTS	BIT(31)
#define RB_MISSED_STORED	BIT(30)

/* kbuffer may read a few bytes past the commit: keep them in our buffer */
#define PAGE_SLACK		64

/* common_flags bits: TRACE_FLAG_* of include/linux/trace_events.h */
#define TRACE_FLAG_HARDIRQ	0x08
#define TRACE_FLAG_SOFTIRQ	0x10
#define TRACE_FLAG_NMI		0x40

struct lkst_decoder {
	struct tep_handle	*tep;
	struct kbuffer		*kbuf;
	struct tep_format_field	*f_event, *f_flags, *f_pid;
	struct tep_format_field	*f_type;	/* ftrace's type (v2), or NULL */
	unsigned int		arg_off;	/* of the LKST_NR_ARGS u64s */
	unsigned int		rec_size;	/* bytes of struct lkst_record */
	bool			ftrace_flags;	/* flags are common_flags (v2) */
	unsigned int		page_size;	/* sub-buffer: header + data */
	unsigned int		data_off;	/* of the data in a page */
	unsigned char		*page;		/* page_size + PAGE_SLACK */
};

/*
 * The context of a record as struct lkst_event keeps it: LKST_CTX_*, the
 * innermost one.  A recording of a kernel before LKST's records became
 * ftrace events has these bits in its flags field already.
 */
static unsigned int lkst_context(const struct lkst_decoder *d,
				 unsigned long long flags)
{
	if (!d->ftrace_flags)
		return flags & (LKST_CTX_HARDIRQ | LKST_CTX_SOFTIRQ | LKST_CTX_NMI);
	if (flags & TRACE_FLAG_NMI)
		return LKST_CTX_NMI;
	if (flags & TRACE_FLAG_HARDIRQ)
		return LKST_CTX_HARDIRQ;
	if (flags & TRACE_FLAG_SOFTIRQ)
		return LKST_CTX_SOFTIRQ;
	return 0;
}

static const char * const lkst_known_names[LKST_K_NR] = {
	[LKST_K_SWITCH]		= "PROCESS_CONTEXTSWITCH",
	[LKST_K_WAKEUP]		= "PROCESS_WAKEUP",
	[LKST_K_FORK]		= "PROCESS_FORK",
	[LKST_K_EXIT]		= "PROCESS_EXIT",
	[LKST_K_SYS_ENTER]	= "SYSCALL_ENTRY",
	[LKST_K_SYS_EXIT]	= "SYSCALL_EXIT",
	[LKST_K_IRQ_ENTRY]	= "INT_HARDWARE_ENTRY",
	[LKST_K_IRQ_EXIT]	= "INT_HARDWARE_EXIT",
};

/* Their IDs, which are ABI (Documentation/trace/lkst/masksets.rst, "The events") */
static const uint16_t lkst_known_ids[LKST_K_NR] = {
	[LKST_K_SWITCH]		= 1,
	[LKST_K_WAKEUP]		= 2,
	[LKST_K_FORK]		= 4,
	[LKST_K_EXIT]		= 6,
	[LKST_K_SYS_ENTER]	= 48,
	[LKST_K_SYS_EXIT]	= 49,
	[LKST_K_IRQ_ENTRY]	= 16,
	[LKST_K_IRQ_EXIT]	= 17,
};

static int lkst_read_meta(const struct lkst_trace *t, const char *name,
			  char **buf, size_t *size)
{
	char *path = lkst_path(t->dir, name);
	int ret;

	ret = lkst_read_file(path, buf, size);
	if (ret)
		lkst_err("%s: %s%s", path, strerror(-ret),
			 ret == -ENOENT ?
			 " (not a directory written by 'lkst record')" : "");
	free(path);
	return ret;
}

static struct tep_format_field *lkst_field(struct tep_event *ev,
					   const char *name, const char *file)
{
	/* no blank line in format: tep takes the fields as "common" ones */
	struct tep_format_field *f = tep_find_any_field(ev, name);

	if (!f)
		lkst_err("%s: no field '%s'", file, name);
	return f;
}

/*
 * The layout of DIR/format: one text for all records, from a kernel
 * before lkst/format went (its fields event, flags, pid, arg[4], and type
 * since LKST's records are ftrace events), or from a vmcore's descriptor.
 */
static int lkst_decoder_format(struct lkst_decoder *d, const struct lkst_trace *t)
{
	struct tep_format_field *arg;
	struct tep_event *ev = NULL;
	char *fmt, *file;
	size_t flen;
	int ret;

	ret = lkst_read_meta(t, LKST_FILE_FORMAT, &fmt, &flen);
	if (ret)
		return ret;
	file = lkst_path(t->dir, LKST_FILE_FORMAT);
	ret = -EINVAL;
	if (tep_parse_format(d->tep, &ev, fmt, flen, "lkst") || !ev) {
		lkst_err("%s: cannot be parsed", file);
		goto out;
	}
	d->f_event = lkst_field(ev, "event", file);
	d->f_flags = lkst_field(ev, "flags", file);
	d->f_pid = lkst_field(ev, "pid", file);
	arg = lkst_field(ev, "arg", file);
	if (!d->f_event || !d->f_flags || !d->f_pid || !arg)
		goto out;
	if (arg->size != LKST_NR_ARGS * 8) {
		lkst_err("%s: arg is %d bytes, expected %d", file, arg->size,
			 LKST_NR_ARGS * 8);
		goto out;
	}
	d->arg_off = arg->offset;
	d->rec_size = arg->offset + arg->size;
	/* Since LKST's records are ftrace events, flags is common_flags */
	d->f_type = tep_find_any_field(ev, "type");
	d->ftrace_flags = !!d->f_type;
	ret = 0;
out:
	free(file);
	free(fmt);
	return ret;
}

/*
 * The layout from the events' own formats, DIR/events/lkst/NAME/format:
 * ftrace's common fields, then lkst_event, lkst_handler and the padding
 * up to the arguments, the same in every event (their names differ).
 * What has no lkst_event is not an LKST record's format and is left out.
 * Return: 0; -ENOENT, without a message, if there is no LKST event's format.
 */
static int lkst_decoder_events(struct lkst_decoder *d, const char *evdir)
{
	struct tep_format_field *ev_f, *flags, *pid, *type, *pad;
	struct tep_event *ev;
	struct dirent *de;
	char *file, *fmt;
	int ret = 0, n = 0;
	size_t flen;
	DIR *dir;

	dir = opendir(evdir);
	if (!dir) {
		lkst_err("%s: %s", evdir, strerror(errno));
		return -EIO;
	}
	while (!ret && (de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&file, "%s/%s/" LKST_FILE_FORMAT, evdir, de->d_name) < 0) {
			ret = -ENOMEM;
			break;
		}
		fmt = NULL;
		ret = lkst_read_file(file, &fmt, &flen);
		if (ret == -ENOENT || ret == -ENOTDIR) {
			/* not an event's directory */
			ret = 0;
			free(file);
			continue;
		}
		if (ret) {
			lkst_err("%s: %s", file, strerror(-ret));
			free(file);
			break;
		}
		/* another event of the system lkst: a kprobe event's */
		if (!lkst_format_is_lkst(fmt))
			goto next;
		ev = NULL;
		ret = -EINVAL;
		if (tep_parse_format(d->tep, &ev, fmt, flen, "lkst") || !ev) {
			lkst_err("%s: cannot be parsed", file);
			goto next;
		}
		type = lkst_field(ev, "common_type", file);
		flags = lkst_field(ev, "common_flags", file);
		pid = lkst_field(ev, "common_pid", file);
		ev_f = lkst_field(ev, "lkst_event", file);
		pad = lkst_field(ev, "lkst_pad", file);
		if (!type || !flags || !pid || !ev_f || !pad)
			goto next;
		if (!n) {
			d->f_type = type;
			d->f_flags = flags;
			d->f_pid = pid;
			d->f_event = ev_f;
			d->arg_off = pad->offset + pad->size;
			d->rec_size = d->arg_off + LKST_NR_ARGS * 8;
		} else if (ev_f->offset != d->f_event->offset ||
			   ev_f->size != d->f_event->size ||
			   pid->offset != d->f_pid->offset ||
			   pid->size != d->f_pid->size ||
			   flags->offset != d->f_flags->offset ||
			   flags->size != d->f_flags->size ||
			   type->offset != d->f_type->offset ||
			   type->size != d->f_type->size ||
			   pad->offset + pad->size != (int)d->arg_off) {
			lkst_err("%s: a layout unlike the other events'", file);
			goto next;
		}
		n++;
		ret = 0;
next:
		free(fmt);
		free(file);
	}
	closedir(dir);
	if (!ret && !n)
		return -ENOENT;
	d->ftrace_flags = true;
	return ret;
}

static int lkst_decoder_init(struct lkst_decoder *d, struct lkst_trace *t)
{
	char *hpage = NULL, *evdir, *fmt;
	struct stat st;
	size_t hlen;
	int ret;

	memset(d, 0, sizeof(*d));
	ret = lkst_read_meta(t, LKST_FILE_HPAGE, &hpage, &hlen);
	if (ret)
		goto out;

	ret = -EINVAL;
	d->tep = tep_alloc();
	if (!d->tep) {
		lkst_err("out of memory");
		goto out;
	}
	tep_set_long_size(d->tep, sizeof(long));
	if (tep_parse_header_page(d->tep, hpage, hlen, sizeof(long))) {
		lkst_err("%s/header_page: cannot be parsed", t->dir);
		goto out;
	}
	/*
	 * A recording of this tool has the events' formats; one of an older
	 * tool, or what lkst extract wrote, has DIR/format instead.
	 */
	evdir = lkst_path(t->dir, LKST_DIR_FORMATS);
	ret = -ENOENT;
	if (!stat(evdir, &st) && S_ISDIR(st.st_mode)) {
		ret = lkst_decoder_events(d, evdir);
		fmt = lkst_path(t->dir, LKST_FILE_FORMAT);
		if (ret == -ENOENT && access(fmt, F_OK)) {
			lkst_err("%s: no LKST event's format", evdir);
			ret = -EINVAL;
		}
		free(fmt);
	}
	if (ret == -ENOENT)
		ret = lkst_decoder_format(d, t);
	free(evdir);
	if (ret)
		goto out;
	ret = -EINVAL;

	/* the page header: u64 time stamp, then the commit, a long */
	d->data_off = 8 + tep_get_header_page_size(d->tep);
	d->page_size = tep_get_sub_buffer_size(d->tep);
	if (d->data_off < 12 || d->page_size <= d->data_off ||
	    d->page_size > (1U << 24)) {
		lkst_err("%s/header_page: unexpected page layout (%u/%u)",
			 t->dir, d->data_off, d->page_size);
		goto out;
	}
	d->kbuf = tep_kbuffer(d->tep);
	if (!d->kbuf) {
		lkst_err("out of memory");
		goto out;
	}
	d->page = lkst_zalloc(d->page_size + PAGE_SLACK);
	ret = 0;
out:
	free(hpage);
	return ret;
}

static void lkst_decoder_exit(struct lkst_decoder *d)
{
	kbuffer_free(d->kbuf);
	if (d->tep)
		tep_free(d->tep);
	free(d->page);
}

static uint32_t lkst_le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * Is the page in d->page well formed?  Every event header and length
 * must stay inside the committed data and the walk must move forward.
 * Returns NULL, or what is wrong.
 */
static const char *lkst_page_check(const struct lkst_decoder *d,
				   unsigned long *commitp)
{
	const unsigned char *data = d->page + d->data_off;
	unsigned long flags = 0;
	unsigned int off = 0, size, len, type;

	memcpy(&flags, d->page + 8, d->data_off - 8 < sizeof(flags) ?
	       d->data_off - 8 : sizeof(flags));
	size = flags & RB_COMMIT_MASK;
	*commitp = flags;
	if (size > d->page_size - d->data_off)
		return "commit size larger than the page";
	if ((flags & RB_MISSED_STORED) &&
	    size + sizeof(long) > d->page_size - d->data_off)
		return "no room for the missed-events count";

	while (off < size) {
		if (size - off < 4)
			return "event header cut by the end of the data";
		type = lkst_le32(data + off) & 0x1f;
		switch (type) {
		case RB_TYPE_PADDING:
			if (size - off < 8)
				return NULL;	/* padding up to the end */
			len = 4 + lkst_le32(data + off + 4);
			if (len < 8)
				return "bad padding length";
			break;
		case RB_TYPE_TIME_EXTEND:
		case RB_TYPE_TIME_STAMP:
			len = 8;
			break;
		case 0:
			if (size - off < 8)
				return "event length cut by the end of the data";
			len = lkst_le32(data + off + 4);
			if (len < 4 || len > size)
				return "bad event length";
			len = 8 + ((len - 4 + 3) & ~3U);
			break;
		default:
			len = 4 + type * 4;
			break;
		}
		if (len > size - off)
			return "event runs past the end of the data";
		off += len;
	}
	return NULL;
}

static void lkst_trace_add(struct lkst_trace *t, size_t *alloc,
			   const struct lkst_event *e)
{
	if (t->nr == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 4096;
		t->ev = lkst_realloc_array(t->ev, *alloc, sizeof(*t->ev));
	}
	t->ev[t->nr++] = *e;
}

/*
 * The one validator of a page read from a raw file, for lkst report (and
 * every reader of a directory), the record counts and the pages written
 * into trace.dat alike: the page layout (lkst_page_check()), then every
 * record at least as large as struct lkst_record.  On success the page
 * is loaded into d->kbuf.  Returns NULL, or what is wrong.
 */
static const char *lkst_page_valid(struct lkst_decoder *d)
{
	unsigned long long ts;
	unsigned long commit;
	const char *why;
	void *rec;

	why = lkst_page_check(d, &commit);
	if (why)
		return why;
	if (kbuffer_load_subbuffer(d->kbuf, d->page))
		return "page header not readable";
	for (rec = kbuffer_read_event(d->kbuf, &ts); rec;
	     rec = kbuffer_next_event(d->kbuf, &ts))
		if (kbuffer_event_size(d->kbuf) < (int)d->rec_size)
			return "record smaller than struct lkst_record";
	if (kbuffer_load_subbuffer(d->kbuf, d->page))
		return "page header not readable";
	return NULL;
}

/* Decode one page lkst_page_valid() accepted into t->ev */
static bool lkst_page_decode(struct lkst_decoder *d, struct lkst_trace *t,
			     size_t *alloc, int cpu, uint32_t *seq)
{
	unsigned long long ts, v;
	struct lkst_event e;
	void *rec;
	int missed, i;

	missed = kbuffer_missed_events(d->kbuf);
	if (missed > 0)
		t->missed += missed;
	else if (missed < 0)
		t->missed_unknown = true;

	for (rec = kbuffer_read_event(d->kbuf, &ts); rec;
	     rec = kbuffer_next_event(d->kbuf, &ts)) {
		if (kbuffer_event_size(d->kbuf) < (int)d->rec_size)
			return false;
		memset(&e, 0, sizeof(e));
		e.ts = ts;
		e.cpu = cpu;
		e.seq = (*seq)++;
		if (tep_read_number_field(d->f_event, rec, &v))
			return false;
		e.id = v;
		if (d->f_type && !tep_read_number_field(d->f_type, rec, &v))
			e.type = v;
		tep_read_number_field(d->f_flags, rec, &v);
		e.flags = lkst_context(d, v);
		tep_read_number_field(d->f_pid, rec, &v);
		e.pid = v;
		for (i = 0; i < LKST_NR_ARGS; i++)
			e.arg[i] = tep_read_number(d->tep, (char *)rec +
						   d->arg_off + i * 8, 8);
		lkst_trace_add(t, alloc, &e);
	}
	return true;
}

static int lkst_file_decode(struct lkst_decoder *d, struct lkst_trace *t,
			    size_t *alloc, const char *name, int cpu,
			    uint32_t *seq)
{
	char *path = lkst_path(t->dir, name);
	const char *why;
	size_t n, pg = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		lkst_err("%s: %s", path, strerror(errno));
		free(path);
		t->damaged = true;
		return -errno;
	}
	for (;; pg++) {
		n = fread(d->page, 1, d->page_size, f);
		if (!n)
			break;
		if (n < d->page_size) {
			lkst_warn("%s: truncated: last page has %zu of %u bytes, ignored",
				  path, n, d->page_size);
			t->damaged = true;
			break;
		}
		memset(d->page + d->page_size, 0, PAGE_SLACK);
		t->pages++;
		why = lkst_page_valid(d);
		if (!why && !lkst_page_decode(d, t, alloc, cpu, seq))
			why = "record not readable";
		if (why) {
			lkst_warn("%s: page %zu (offset %zu) is corrupt: %s; skipped",
				  path, pg, pg * d->page_size, why);
			t->damaged = true;
		}
	}
	if (ferror(f)) {
		lkst_err("%s: read error", path);
		t->damaged = true;
	}
	fclose(f);
	free(path);
	return 0;
}

/**
 * lkst_rawfile_count - count the records of one raw file of a recording
 * @dir:	the recording, for its format and header_page
 * @name:	the file in @dir, e.g. cpu0.raw.000003
 * @pid:	whose task-context records to count in @own
 * @events:	receives the number of records
 * @own:	receives the number of records of @pid in task context
 *
 * Streams the file page by page; corrupt pages are skipped, as when the
 * recording is loaded.  Returns 0 or -errno.
 */
int lkst_rawfile_count(const char *dir, const char *name, uint32_t pid,
		       unsigned long *events, unsigned long *own)
{
	struct lkst_trace t = { .dir = dir };
	unsigned long long ts, v, flags;
	struct lkst_decoder d;
	char *path;
	void *rec;
	FILE *f;
	int ret = 0;

	*events = 0;
	*own = 0;
	if (lkst_decoder_init(&d, &t)) {
		lkst_decoder_exit(&d);
		return -EINVAL;
	}
	path = lkst_path(dir, name);
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		goto out;
	}
	while (fread(d.page, 1, d.page_size, f) == d.page_size) {
		memset(d.page + d.page_size, 0, PAGE_SLACK);
		if (lkst_page_valid(&d))
			continue;
		for (rec = kbuffer_read_event(d.kbuf, &ts); rec;
		     rec = kbuffer_next_event(d.kbuf, &ts)) {
			(*events)++;
			if (tep_read_number_field(d.f_pid, rec, &v) ||
			    tep_read_number_field(d.f_flags, rec, &flags))
				continue;
			if (v == pid && !lkst_context(&d, flags))
				(*own)++;
		}
	}
	if (ferror(f))
		ret = -EIO;
	fclose(f);
out:
	free(path);
	lkst_decoder_exit(&d);
	return ret;
}

static int lkst_rawfile_cmp(const void *a, const void *b)
{
	const struct lkst_rawfile *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/**
 * lkst_raw_pages - the well-formed pages of a raw file of a recording
 * @dir:	the recording, for its format and header_page
 * @name:	the file in @dir
 * @fn:		called with each page that decodes (page_size bytes); a
 *		non-zero return stops the walk and is returned
 * @arg:	for @fn
 * @page_size:	receives the size of a page
 * @skipped:	receives the number of pages left out: corrupt, or a
 *		truncated last one (lkst report warns about each)
 *
 * Return: 0, what @fn returned, or -errno.
 */
int lkst_raw_pages(const char *dir, const char *name,
		   int (*fn)(const void *page, void *arg), void *arg,
		   unsigned int *page_size, unsigned long *skipped)
{
	struct lkst_trace t = { .dir = dir };
	struct lkst_decoder d;
	char *path;
	size_t n;
	FILE *f;
	int ret = 0;

	*skipped = 0;
	if (lkst_decoder_init(&d, &t)) {
		lkst_decoder_exit(&d);
		return -EINVAL;
	}
	*page_size = d.page_size;
	path = lkst_path(dir, name);
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		goto out;
	}
	while (!ret && (n = fread(d.page, 1, d.page_size, f))) {
		if (n < d.page_size) {
			(*skipped)++;
			break;
		}
		memset(d.page + d.page_size, 0, PAGE_SLACK);
		if (lkst_page_valid(&d)) {
			(*skipped)++;
			continue;
		}
		ret = fn(d.page, arg);
	}
	if (!ret && ferror(f))
		ret = -EIO;
	fclose(f);
out:
	free(path);
	lkst_decoder_exit(&d);
	return ret;
}

/**
 * lkst_rawfiles - the raw files of a recording directory
 * @dir: the directory
 * @filesp: receives them, by CPU then sequence; free with lkst_rawfiles_free()
 * @nrp: receives their number
 *
 * Return: 0 or -errno (reported).
 */
int lkst_rawfiles(const char *dirname, struct lkst_rawfile **filesp,
		  size_t *nrp)
{
	struct lkst_rawfile *files = NULL;
	size_t nr = 0, alloc = 0;
	struct dirent *de;
	unsigned long cpu, seq;
	DIR *dir;

	dir = opendir(dirname);
	if (!dir) {
		lkst_err("%s: %s", dirname, strerror(errno));
		return -errno;
	}
	while ((de = readdir(dir))) {
		char *p;

		seq = 0;
		if (strncmp(de->d_name, "cpu", 3) || de->d_name[3] < '0' ||
		    de->d_name[3] > '9')
			continue;
		/* ULONG_MAX if it overflows */
		cpu = strtoul(de->d_name + 3, &p, 10);
		if (strncmp(p, ".raw", 4))
			continue;
		p += 4;
		if (*p == '.' && p[1] && strspn(p + 1, "0123456789") == strlen(p + 1))
			seq = strtoul(p + 1, NULL, 10);
		else if (*p)
			continue;
		if (cpu >= LKST_MAX_CPUS) {
			lkst_err("%s/%s: CPU number too large (at most %d)",
				 dirname, de->d_name, LKST_MAX_CPUS - 1);
			closedir(dir);
			lkst_rawfiles_free(files, nr);
			return -ERANGE;
		}
		if (nr == alloc) {
			alloc = alloc ? alloc * 2 : 16;
			files = lkst_realloc_array(files, alloc, sizeof(*files));
		}
		files[nr].name = lkst_strdup(de->d_name);
		files[nr].cpu = cpu;
		files[nr].seq = seq;
		nr++;
	}
	closedir(dir);
	if (nr)
		qsort(files, nr, sizeof(*files), lkst_rawfile_cmp);
	*filesp = files;
	*nrp = nr;
	return 0;
}

void lkst_rawfiles_free(struct lkst_rawfile *files, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(files[i].name);
	free(files);
}

static int lkst_ev_cmp(const void *a, const void *b)
{
	const struct lkst_event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The arguments that hold code addresses, printed as symbols: the kernel's
 * trace file prints them with %ps.  (The ip of a user page fault is a user
 * address.)
 */
static const struct {
	const char	*event;
	const char	*arg;
} lkst_code_args[] = {
	{ "INT_HARDWARE_ENTRY",		"handler" },
	{ "INT_TASKLET_ENTRY",		"func" },
	{ "INT_TASKLET_EXIT",		"func" },
	{ "EXCEPTION_PAGEFAULT_KERNEL",	"ip" },
	{ "MEM_KMALLOC",		"call_site" },
	{ "MEM_KFREE",			"call_site" },
	{ "MEM_CACHE_ALLOC",		"call_site" },
	{ "MEM_CACHE_FREE",		"call_site" },
	{ "TIMER_ADD",			"func" },
	{ "TIMER_RUN",			"func" },
	{ "HRTIMER_RUN",		"func" },
	{ "WQ_EXECUTE",			"func" },
};

static uint8_t lkst_code_mask(const struct lkst_evdesc *d)
{
	uint8_t mask = 0;
	size_t i;
	int a;

	for (i = 0; i < ARRAY_SIZE(lkst_code_args); i++) {
		if (strcmp(d->name, lkst_code_args[i].event))
			continue;
		for (a = 0; a < LKST_NR_ARGS; a++)
			if (d->args[a] && !strcmp(d->args[a], lkst_code_args[i].arg))
				mask |= BIT(a);
	}
	return mask;
}

/* available_events: "ID NAME arg0 arg1 arg2 arg3", "-" for no argument */
static int lkst_load_events(struct lkst_trace *t)
{
	char *buf, *line, *save = NULL, *tok, *s2;
	unsigned long id;
	int ret, i;

	ret = lkst_read_meta(t, LKST_FILE_EVENTS, &buf, NULL);
	if (ret)
		return ret;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		s2 = NULL;
		tok = strtok_r(line, " \t", &s2);
		if (!tok || lkst_parse_uint(tok, &id) || id > 65535)
			continue;
		tok = strtok_r(NULL, " \t", &s2);
		if (!tok)
			continue;
		if (id >= t->nr_desc) {
			t->desc = lkst_realloc_array(t->desc, id + 1,
						     sizeof(*t->desc));
			memset(t->desc + t->nr_desc, 0,
			       (id + 1 - t->nr_desc) * sizeof(*t->desc));
			t->nr_desc = id + 1;
		}
		if (t->desc[id].name)
			continue;
		t->desc[id].name = lkst_strdup(tok);
		for (i = 0; i < LKST_NR_ARGS; i++) {
			tok = strtok_r(NULL, " \t", &s2);
			if (tok && strcmp(tok, "-"))
				t->desc[id].args[i] = lkst_strdup(tok);
		}
		t->desc[id].code = lkst_code_mask(&t->desc[id]);
	}
	free(buf);
	for (i = 0; i < LKST_K_NR; i++)
		t->known[i] = lkst_event_id(t, lkst_known_names[i]);
	return 0;
}

/*
 * How an argument of a dynamic event prints, from its fetch type: as the
 * kernel's print format does (char and a bitfield bW@O/S are unsigned)
 */
static char lkst_dyn_fmt(const char *type)
{
	if (!strcmp(type, "string") || !strcmp(type, "ustring"))
		return 's';
	if (!strcmp(type, "symbol"))
		return 'p';
	if (type[0] == 's')
		return 'd';
	if (type[0] == 'u' || type[0] == 'b' || !strcmp(type, "char"))
		return 'u';
	return 'x';
}

/*
 * The argument types of dynamic event @id, from a definition @def,
 * "X:NAME SYMBOL[+OFFS] [NAME=]FETCHARG[:TYPE] ...": that of a kprobe
 * event, or of an LKST that defined its events itself.  Without a type a
 * fetcharg is x64, $comm a string.
 */
static void lkst_dyn_types(struct lkst_trace *t, int id, char *def)
{
	char *save = NULL, *tok, *type;
	int i;

	if (id < LKST_EV_DYN_FIRST || !strtok_r(def, " \t", &save) ||
	    !strtok_r(NULL, " \t", &save))
		return;
	for (i = 0; i < LKST_NR_ARGS; i++) {
		tok = strtok_r(NULL, " \t", &save);
		if (!tok)
			break;
		type = strrchr(tok, ':');
		if (!type && (strstr(tok, "$comm") || strstr(tok, "$COMM")))
			type = ":string";
		t->desc[id].fmt[i] = lkst_dyn_fmt(type ? type + 1 : "x64");
	}
}

/*
 * dynamic_events of the recording: the types of the dynamic events'
 * arguments.  Each line "NAME GROUP/EVENT" binds LKST event NAME to a
 * kprobe event, whose definition is in the recording's kprobe_events.
 * An LKST that defined its events itself wrote "p:NAME SYMBOL[+OFFS]
 * ARG=FETCHARG[:TYPE] ..." (or "r:NAME ...") instead.  Recordings of a
 * kernel without dynamic events have none; without the definition of an
 * event, its arguments print by their names.
 */
static void lkst_load_dynevents(struct lkst_trace *t)
{
	char *buf, *line, *save = NULL, *tok, *s2, *def, *kprobes = NULL;
	char *path = lkst_path(t->dir, LKST_FILE_DYNEVENTS);
	const char *kdef;
	size_t len;
	int id;

	if (lkst_read_file(path, &buf, NULL)) {
		free(path);
		return;
	}
	free(path);
	path = lkst_path(t->dir, LKST_FILE_KPROBES);
	if (lkst_read_file(path, &kprobes, NULL))
		kprobes = NULL;
	free(path);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		def = NULL;
		s2 = NULL;
		if (line[0] && line[1] == ':') {
			/* p:NAME, r:NAME */
			def = lkst_strdup(line);
			tok = strtok_r(line, " \t", &s2);
			id = lkst_event_id(t, tok + 2);
		} else {
			tok = strtok_r(line, " \t", &s2);
			id = tok && tok[0] != '#' ? lkst_event_id(t, tok) : -1;
			tok = id >= 0 ? strtok_r(NULL, " \t", &s2) : NULL;
			kdef = NULL;
			if (tok && kprobes)
				kdef = lkst_kprobe_def(kprobes, tok, &len);
			if (kdef) {
				def = lkst_zalloc(len + 1);
				memcpy(def, kdef, len);
			}
		}
		if (def)
			lkst_dyn_types(t, id, def);
		free(def);
	}
	free(kprobes);
	free(buf);
}

static int lkst_comm_cmp(const void *a, const void *b)
{
	const struct lkst_comm *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int lkst_comm_order_cmp(const void *a, const void *b)
{
	const struct lkst_comm *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * comm: "PID NAME" lines, first the snapshot taken when the recording
 * started, then names seen later; the last line for a pid wins.
 */
static void lkst_load_comm(struct lkst_trace *t)
{
	char *buf, *line, *save = NULL, *name;
	size_t alloc = 0, i, j;
	unsigned long pid;
	char *path;

	path = lkst_path(t->dir, LKST_FILE_COMM);
	if (lkst_read_file(path, &buf, NULL)) {
		lkst_warn("%s: missing, process names unknown", path);
		free(path);
		return;
	}
	free(path);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		name = strchr(line, ' ');
		if (!name)
			continue;
		*name++ = '\0';
		if (lkst_parse_uint(line, &pid) || pid > UINT32_MAX)
			continue;
		if (t->nr_comm == alloc) {
			alloc = alloc ? alloc * 2 : 256;
			t->comm = lkst_realloc_array(t->comm, alloc,
						     sizeof(*t->comm));
		}
		t->comm[t->nr_comm].pid = pid;
		t->comm[t->nr_comm].order = t->nr_comm;
		snprintf(t->comm[t->nr_comm].comm, sizeof(t->comm->comm), "%s",
			 name);
		/* one word, so that reports split on blanks */
		for (i = 0; t->comm[t->nr_comm].comm[i]; i++)
			if ((unsigned char)t->comm[t->nr_comm].comm[i] <= ' ')
				t->comm[t->nr_comm].comm[i] = '_';
		t->nr_comm++;
	}
	free(buf);
	if (!t->nr_comm)
		return;
	qsort(t->comm, t->nr_comm, sizeof(*t->comm), lkst_comm_order_cmp);
	for (i = 0, j = 0; i < t->nr_comm; i++) {
		if (j && t->comm[j - 1].pid == t->comm[i].pid)
			j--;	/* the later line wins */
		t->comm[j++] = t->comm[i];
	}
	t->nr_comm = j;
}

/* A task forked during the recording is named after its parent. */
static void lkst_comm_inherit(struct lkst_trace *t)
{
	int fork = t->known[LKST_K_FORK];
	struct lkst_comm c;
	size_t i, pos;

	if (fork < 0)
		return;
	for (i = 0; i < t->nr; i++) {
		const struct lkst_event *e = &t->ev[i];

		if (e->id != fork || e->arg[1] > UINT32_MAX ||
		    lkst_comm(t, e->arg[1])[0] != '<')
			continue;
		c.pid = e->arg[1];
		c.order = 0;
		snprintf(c.comm, sizeof(c.comm), "%s", lkst_comm(t, e->arg[0]));
		for (pos = 0; pos < t->nr_comm && t->comm[pos].pid < c.pid; pos++)
			;
		t->comm = lkst_realloc_array(t->comm, t->nr_comm + 1,
					     sizeof(*t->comm));
		memmove(t->comm + pos + 1, t->comm + pos,
			(t->nr_comm - pos) * sizeof(*t->comm));
		t->comm[pos] = c;
		t->nr_comm++;
	}
}

const char *lkst_comm(const struct lkst_trace *t, uint32_t pid)
{
	struct lkst_comm key = { .pid = pid }, *c;

	if (!pid)
		return "<idle>";
	c = t->nr_comm ? bsearch(&key, t->comm, t->nr_comm, sizeof(*t->comm),
				 lkst_comm_cmp) : NULL;
	return c ? c->comm : "<unknown>";
}

const struct lkst_evdesc *lkst_desc(const struct lkst_trace *t, unsigned int id)
{
	return id < t->nr_desc && t->desc[id].name ? &t->desc[id] : NULL;
}

int lkst_event_id(const struct lkst_trace *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->nr_desc; i++)
		if (t->desc[i].name && !strcmp(t->desc[i].name, name))
			return i;
	return -1;
}

bool lkst_is(const struct lkst_trace *t, const struct lkst_event *e,
	     enum lkst_known k)
{
	return t->known[k] >= 0 && e->id == t->known[k];
}

void lkst_trace_warn_missed(const struct lkst_trace *t)
{
	if (t->missed)
		lkst_warn("the kernel lost %lu events while recording%s",
			  t->missed, t->missed_unknown ? " (at least)" : "");
	else if (t->missed_unknown)
		lkst_warn("the kernel lost events while recording");
}

/*
 * Reading a trace.dat: libtracecmd walks the pages, libtraceevent names
 * the records' types.  The LKST event IDs, which the events' formats do
 * not carry, come from the records' lkst_event field: each event type
 * met gives the description of its ID, with the argument names of its
 * fields (the names of available_events) and, for a dynamic event, the
 * argument formats of its print fmt (the fetch types of its definition).
 */
struct lkst_dat_ctx {
	struct lkst_trace	*t;
	struct tep_handle	*tep;
	size_t			alloc;
	uint32_t		*seq;		/* per CPU, as CPUs appear */
	int			nr_seq;
	unsigned long		other;		/* records not LKST's */
	unsigned long		bad;		/* records not read */
	char			why[160];	/* the first one's reason */
};

/* A record the file's formats do not let us read: the trace is damaged */
static void lkst_dat_bad(struct lkst_dat_ctx *c, const struct tep_event *ev,
			 const struct tep_format_field *f, const char *name,
			 unsigned int size)
{
	c->t->damaged = true;
	if (c->bad++)
		return;
	if (f)
		snprintf(c->why, sizeof(c->why),
			 "field %s of %s at offset %d, size %d, past the end of its %u-byte record",
			 f->name, ev ? ev->name : "an event", f->offset,
			 f->size, size);
	else
		snprintf(c->why, sizeof(c->why), "%s of %u bytes: %s",
			 ev ? ev->name : "a record", size, name);
}

/*
 * Read field @name of @rec, with the offset and size the file's format
 * gives, only when they lie inside the record.  Returns 0, -ENOENT when
 * the event has no such field, -EINVAL when it lies outside (counted as
 * damage).
 */
static int lkst_dat_field(struct lkst_dat_ctx *c, struct tep_event *ev,
			  struct tep_format_field *f, const char *name,
			  struct tep_record *rec, unsigned long long *v)
{
	if (!f)
		return -ENOENT;
	if (f->size <= 0 || f->size > 8) {
		lkst_dat_bad(c, ev, NULL, "a field of its format not a number of 1 to 8 bytes",
			     rec->size);
		return -EINVAL;
	}
	if (f->offset < 0 ||
	    (unsigned int)f->offset + (unsigned int)f->size > (unsigned int)rec->size) {
		lkst_dat_bad(c, ev, f, name, rec->size);
		return -EINVAL;
	}
	if (tep_read_number_field(f, rec->data, v)) {
		lkst_dat_bad(c, ev, f, name, rec->size);
		return -EINVAL;
	}
	return 0;
}

/* How a dynamic event's argument NAME prints, from the print fmt */
static char lkst_dat_argfmt(const struct tep_event *ev, const char *name)
{
	static const struct {
		const char	*conv;
		char		fmt;
	} conv[] = {
		{ "%lld", 'd' }, { "%llu", 'u' }, { "0x%llx", 'x' },
		{ "%ps", 'p' }, { "\"%s\"", 's' }, { "\\\"%s", 's' },
		{ "%s", 's' },
	};
	const char *p = ev->print_fmt.format;
	size_t len = strlen(name), i;

	while (p && (p = strstr(p, name))) {
		if ((p == ev->print_fmt.format || p[-1] == ' ' || p[-1] == '"') &&
		    p[len] == '=') {
			for (i = 0; i < ARRAY_SIZE(conv); i++)
				if (!strncmp(p + len + 1, conv[i].conv,
					     strlen(conv[i].conv)))
					return conv[i].fmt;
			return 0;
		}
		p += len;
	}
	return 0;
}

/* The description of LKST event @id, from the format of @ev */
static void lkst_dat_desc(struct lkst_trace *t, unsigned int id,
			  struct tep_event *ev)
{
	struct tep_format_field *f;
	struct lkst_evdesc *d;
	int i;

	if (id >= t->nr_desc) {
		t->desc = lkst_realloc_array(t->desc, id + 1, sizeof(*t->desc));
		memset(t->desc + t->nr_desc, 0,
		       (id + 1 - t->nr_desc) * sizeof(*t->desc));
		t->nr_desc = id + 1;
	}
	d = &t->desc[id];
	if (d->name)
		return;
	d->name = lkst_strdup(ev->name);
	for (f = ev->format.fields; f; f = f->next) {
		if (f->offset < 16 || (f->offset - 16) % 8 ||
		    f->offset >= 16 + 8 * LKST_NR_ARGS ||
		    !strncmp(f->name, "__unused", 8))
			continue;
		i = (f->offset - 16) / 8;
		d->args[i] = lkst_strdup(f->name);
		if (id >= LKST_EV_DYN_FIRST)
			d->fmt[i] = lkst_dat_argfmt(ev, f->name);
	}
	d->code = lkst_code_mask(d);
}

static int lkst_dat_record(struct tracecmd_input *h, struct tep_record *rec,
			   int cpu, void *data)
{
	struct lkst_dat_ctx *c = data;
	struct lkst_trace *t = c->t;
	struct tep_format_field *f;
	unsigned long long v;
	struct tep_event *ev;
	struct lkst_event e;
	int i;

	(void)h;
	/*
	 * libtraceevent reads common_type where the formats say (those of
	 * its first event): only inside the record.
	 */
	ev = tep_get_first_event(c->tep);
	f = ev ? tep_find_common_field(ev, "common_type") : NULL;
	if (!f || lkst_dat_field(c, ev, f, "common_type", rec, &v))
		return 0;
	ev = tep_find_event_by_record(c->tep, rec);
	if (!ev || !ev->system || strcmp(ev->system, "lkst")) {
		c->other++;
		return 0;
	}
	if (cpu < 0 || cpu >= LKST_MAX_CPUS) {
		lkst_dat_bad(c, ev, NULL, "CPU out of range", rec->size);
		return 0;
	}
	if (cpu >= c->nr_seq) {
		c->seq = lkst_realloc_array(c->seq, cpu + 1, sizeof(*c->seq));
		memset(c->seq + c->nr_seq, 0,
		       (cpu + 1 - c->nr_seq) * sizeof(*c->seq));
		c->nr_seq = cpu + 1;
	}
	if (rec->size < 16 + 8 * LKST_NR_ARGS) {
		lkst_dat_bad(c, ev, NULL, "smaller than struct lkst_record",
			     rec->size);
		return 0;
	}
	if (rec->missed_events > 0)
		t->missed += rec->missed_events;
	else if (rec->missed_events < 0)
		t->missed_unknown = true;
	memset(&e, 0, sizeof(e));
	e.ts = rec->ts;
	e.cpu = cpu;
	e.seq = c->seq[cpu]++;
	e.type = ev->id;
	f = tep_find_field(ev, "lkst_event");
	if (!f) {
		lkst_dat_bad(c, ev, NULL, "no field lkst_event", rec->size);
		return 0;
	}
	if (lkst_dat_field(c, ev, f, "lkst_event", rec, &v))
		return 0;
	e.id = v;
	f = tep_find_common_field(ev, "common_pid");
	if (f && lkst_dat_field(c, ev, f, "common_pid", rec, &v))
		return 0;
	e.pid = f ? (uint32_t)v : 0;
	f = tep_find_common_field(ev, "common_flags");
	if (f && lkst_dat_field(c, ev, f, "common_flags", rec, &v))
		return 0;
	if (f) {
		if (v & TRACE_FLAG_NMI)
			e.flags = LKST_CTX_NMI;
		else if (v & TRACE_FLAG_HARDIRQ)
			e.flags = LKST_CTX_HARDIRQ;
		else if (v & TRACE_FLAG_SOFTIRQ)
			e.flags = LKST_CTX_SOFTIRQ;
	}
	for (i = 0; i < LKST_NR_ARGS; i++)
		e.arg[i] = tep_read_number(c->tep, (char *)rec->data + 16 + i * 8, 8);
	lkst_dat_desc(t, e.id, ev);
	lkst_trace_add(t, &c->alloc, &e);
	if (cpu + 1 > t->nr_cpus)
		t->nr_cpus = cpu + 1;
	return 0;
}

static int lkst_u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The process names of the trace.dat's saved cmdlines, for the pids the
 * records name: the recording's own and those of their arguments.
 */
static void lkst_dat_comms(struct lkst_trace *t, struct tep_handle *tep)
{
	uint32_t *pid = NULL;
	size_t nr = 0, alloc = 0, i, j;
	const char *name;
	int a;

	for (i = 0; i < t->nr; i++) {
		for (a = -1; a < LKST_NR_ARGS; a++) {
			uint64_t v = a < 0 ? t->ev[i].pid : t->ev[i].arg[a];

			if (!v || v > (1U << 22))
				continue;
			if (nr == alloc) {
				alloc = alloc ? alloc * 2 : 4096;
				pid = lkst_realloc_array(pid, alloc, sizeof(*pid));
			}
			pid[nr++] = v;
		}
	}
	if (nr)
		qsort(pid, nr, sizeof(*pid), lkst_u32_cmp);
	for (i = 0, j = 0; i < nr; i++) {
		if (i && pid[i] == pid[i - 1])
			continue;
		name = tep_data_comm_from_pid(tep, pid[i]);
		if (!name || !strcmp(name, "<...>"))
			continue;
		t->comm = lkst_realloc_array(t->comm, j + 1, sizeof(*t->comm));
		t->comm[j].pid = pid[i];
		t->comm[j].order = j;
		snprintf(t->comm[j].comm, sizeof(t->comm->comm), "%s", name);
		for (a = 0; t->comm[j].comm[a]; a++)
			if ((unsigned char)t->comm[j].comm[a] <= ' ')
				t->comm[j].comm[a] = '_';
		j++;
	}
	t->nr_comm = j;
	free(pid);
}

/*
 * lkst_dat_load - decode a trace.dat: the records of its buffer instance
 * "lkst" (lkst record, trace-cmd extract/record -B lkst), or of its top
 * buffer when it has no such instance.
 */
static int lkst_dat_load(struct lkst_trace *t, const char *path)
{
	struct tracecmd_input *top, *h;
	struct lkst_dat_ctx c = { .t = t };
	const char *buffer = "";
	int i, n, cpus = 0;

	t->dat = true;
	tracecmd_set_loglevel(TEP_LOG_ERROR);
	top = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!top) {
		lkst_err("%s: not a trace.dat file libtracecmd can read, nor a recording directory",
			 path);
		return -EINVAL;
	}
	h = top;
	n = tracecmd_buffer_instances(top);
	for (i = 0; i < n; i++) {
		if (strcmp(tracecmd_buffer_instance_name(top, i), LKST_DAT_BUFFER))
			continue;
		h = tracecmd_buffer_instance_handle(top, i);
		if (!h) {
			lkst_err("%s: buffer %s cannot be read", path, LKST_DAT_BUFFER);
			tracecmd_close(top);
			return -EINVAL;
		}
		buffer = LKST_DAT_BUFFER;
		break;
	}
	c.tep = tracecmd_get_tep(h);
	if (!c.tep || tracecmd_iterate_events(h, NULL, 0, lkst_dat_record, &c) < 0) {
		lkst_err("%s: the records cannot be read", path);
		t->damaged = true;
	}
	free(c.seq);
	if (c.bad)
		lkst_warn("%s: %lu records not read: their formats do not fit them (%s)",
			  path, c.bad, c.why);
	if (!t->nr && !c.other && !c.bad)
		lkst_warn("%s: no records in buffer %s", path,
			  *buffer ? buffer : "(top)");
	else if (!t->nr)
		lkst_warn("%s: no LKST records in buffer %s (trace-cmd extract -B %s saves them)",
			  path, *buffer ? buffer : "(top)", LKST_DAT_BUFFER);
	/*
	 * An event the analyses need but the records do not have: its
	 * format says that the kernel has it, with the ID of the ABI, as
	 * available_events says in a directory.
	 */
	for (i = 0; i < LKST_K_NR; i++) {
		struct tep_event *ev;

		t->known[i] = lkst_event_id(t, lkst_known_names[i]);
		if (t->known[i] >= 0 || !c.tep ||
		    lkst_desc(t, lkst_known_ids[i]))
			continue;
		ev = tep_find_event_by_name(c.tep, "lkst", lkst_known_names[i]);
		if (!ev)
			continue;
		lkst_dat_desc(t, lkst_known_ids[i], ev);
		t->known[i] = lkst_known_ids[i];
	}
	if (t->nr) {
		qsort(t->ev, t->nr, sizeof(*t->ev), lkst_ev_cmp);
		t->start = t->ev[0].ts;
		t->end = t->ev[t->nr - 1].ts;
	}
	if (c.tep)
		lkst_dat_comms(t, c.tep);
	lkst_comm_inherit(t);
	/* what the public API does not tell: the buffer's CPUs, kallsyms */
	if (!lkst_tracedat_info(path, buffer, &cpus, &t->dat_kallsyms) &&
	    cpus > t->nr_cpus)
		t->nr_cpus = cpus;
	if (h != top)
		tracecmd_close(h);
	t->dat_handle = top;
	return 0;
}

/**
 * lkst_trace_load - decode a recording directory
 * @t: filled in; free with lkst_trace_free()
 * @dir: the directory, or a trace.dat file
 *
 * Damaged raw files are decoded as far as possible, t->damaged says so.
 *
 * Return: 0, or -errno when the directory cannot be used at all.
 */
int lkst_trace_load(struct lkst_trace *t, const char *dir)
{
	struct lkst_rawfile *files = NULL;
	struct lkst_decoder d;
	size_t nr = 0, alloc = 0, i;
	uint32_t seq = 0;
	int ret, cpu = -1;
	struct stat st;

	memset(t, 0, sizeof(*t));
	t->dir = dir;
	if (!stat(dir, &st) && !S_ISDIR(st.st_mode)) {
		ret = lkst_dat_load(t, dir);
		if (ret)
			lkst_trace_free(t);
		return ret;
	}
	ret = lkst_load_events(t);
	if (ret)
		return ret;
	lkst_load_dynevents(t);
	ret = lkst_decoder_init(&d, t);
	if (ret)
		goto out;
	ret = lkst_rawfiles(t->dir, &files, &nr);
	if (ret)
		goto out;
	if (!nr) {
		lkst_err("%s: no cpuN.raw files", dir);
		ret = -ENOENT;
		goto out;
	}
	for (i = 0; i < nr; i++) {
		if ((int)files[i].cpu != cpu)
			seq = 0;
		cpu = files[i].cpu;
		lkst_file_decode(&d, t, &alloc, files[i].name, cpu, &seq);
		if (cpu + 1 > t->nr_cpus)
			t->nr_cpus = cpu + 1;
	}
	if (t->nr) {
		qsort(t->ev, t->nr, sizeof(*t->ev), lkst_ev_cmp);
		t->start = t->ev[0].ts;
		t->end = t->ev[t->nr - 1].ts;
	}
	lkst_load_comm(t);
	lkst_comm_inherit(t);
out:
	for (i = 0; i < nr; i++)
		free(files[i].name);
	free(files);
	lkst_decoder_exit(&d);
	if (ret)
		lkst_trace_free(t);
	return ret;
}

void lkst_trace_free(struct lkst_trace *t)
{
	unsigned int i, j;

	for (i = 0; i < t->nr_desc; i++) {
		free(t->desc[i].name);
		for (j = 0; j < LKST_NR_ARGS; j++)
			free(t->desc[i].args[j]);
	}
	free(t->desc);
	free(t->ev);
	free(t->comm);
	lkst_ksyms_free(&t->ksyms);
	free(t->dat_kallsyms);
	if (t->dat_handle)
		tracecmd_close(t->dat_handle);
	t->dat_handle = NULL;
	t->dat_kallsyms = NULL;
	t->desc = NULL;
	t->ev = NULL;
	t->comm = NULL;
	t->nr_desc = 0;
	t->nr = 0;
	t->nr_comm = 0;
}
