// SPDX-License-Identifier: GPL-2.0
/*
 * lkst apply: set LKST up from a configuration file, all or nothing.
 *
 * The file names user buffers and their settings, user masksets and their
 * tables, the default buffer's settings, dump_on_oops and the maskset to
 * make current.  It is read and checked whole first (syntax, names,
 * events, handlers and buffers against the running kernel), every error
 * named by its line; nothing is written before all of it passes.  Then
 * the kernel files are written in an order where the likely refusals
 * (a table line) come before anything hard to take back, each change
 * logged with what undoes it: a refusal undoes everything done so far,
 * backwards, and names the line that was refused, with the kernel's
 * error_log entry.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <tracefs.h>

#include "lkst.h"

#define LKST_NAME_LEN		32	/* names are 1 to 31 characters */
#define LKST_LINE_MAX		128	/* a maskset table line, in the kernel */
#define LKST_MAX_BUFFERS	16
#define LKST_MAX_MASKSETS	64

struct conf_line {
	int	lineno;
	char	*text;
};

struct conf_buffer {
	char	name[LKST_NAME_LEN];
	int	lineno;
	long	size_kb;		/* -1: not set */
	int	size_line;
	int	overwrite;		/* -1: not set */
	int	overwrite_line;
};

struct conf_maskset {
	char			name[LKST_NAME_LEN];
	int			lineno;
	struct conf_line	*lines;
	int			nr_lines;
};

struct conf {
	const char		*file;
	int			errors;
	char			maskset[LKST_NAME_LEN];
	int			maskset_line;
	long			dump_on_oops;	/* -1: not set */
	int			dump_line;
	struct conf_buffer	deflt;		/* the default buffer */
	struct conf_buffer	buffers[LKST_MAX_BUFFERS];
	int			nr_buffers;
	struct conf_maskset	masksets[LKST_MAX_MASKSETS];
	int			nr_masksets;
	struct lkst_conf_dirs	dirs;		/* [save] and [record] */
	int			record_maskset_line;
	int			sect;		/* of the line being read */
	int			hint;		/* 's' or 'r': a refused header's */
	int			dirs_errors;	/* in [save] and [record] */
};

static void conf_err(struct conf *c, int lineno, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "lkst: %s:%d: ", c->file, lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	c->errors++;
	if (c->sect == 's' || c->sect == 'r')
		c->dirs_errors++;
}

static bool lkst_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n < LKST_NAME_LEN &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

static bool lkst_builtin_maskset(const char *s)
{
	return !strcmp(s, "RDEFAULT") || !strcmp(s, "RALL") || !strcmp(s, "RNOTHING");
}

static char *trim(char *s)
{
	char *e;

	s += strspn(s, " \t");
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* A decimal number from @min to @max; 0 or -1 */
static int parse_long(const char *s, long min, long max, long *v)
{
	unsigned long u;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	u = strtoul(s, &end, 10);
	if (errno || *end || u < (unsigned long)min || u > (unsigned long)max)
		return -1;
	*v = u;
	return 0;
}

/*
 * A directory of [save] or [record]: absolute, written plainly (no ".",
 * "..", "//"), and not the root, whose other directories pruning could
 * take for its own
 */
static void conf_dir(struct conf *c, int lineno, const char *key,
		     const char *val, char *dir, size_t size)
{
	size_t len = strlen(val);

	if (*val != '/' || len < 2 || len >= size || strstr(val, "//") ||
	    strstr(val, "/./") || strstr(val, "/../") ||
	    (len >= 2 && !strcmp(val + len - 2, "/.")) ||
	    (len >= 3 && !strcmp(val + len - 3, "/..")))
		conf_err(c, lineno, "%s: '%.64s%s' is not a plain absolute directory other than /",
			 key, val, len > 64 ? "..." : "");
	else
		snprintf(dir, size, "%s", val);
}

static void conf_key(struct conf *c, int sect, struct conf_buffer *b,
		     int lineno, char *key, char *val)
{
	struct lkst_conf_dirs *d = &c->dirs;
	unsigned long size, count;
	long v;

	if ((sect == 's' || sect == 'r') && !strcmp(key, "dir")) {
		if (sect == 's')
			conf_dir(c, lineno, key, val, d->save_dir, sizeof(d->save_dir));
		else
			conf_dir(c, lineno, key, val, d->record_dir, sizeof(d->record_dir));
	} else if (sect == 's' && !strcmp(key, "keep")) {
		if (parse_long(val, 1, 1000000, &v))
			conf_err(c, lineno, "keep: '%s' is not a number from 1 to 1000000", val);
		else
			d->save_keep = v;
	} else if (sect == 'r' && !strcmp(key, "keep_boots")) {
		if (parse_long(val, 1, 1000, &v))
			conf_err(c, lineno, "keep_boots: '%s' is not a number from 1 to 1000", val);
		else
			d->record_keep_boots = v;
	} else if (sect == 'r' && !strcmp(key, "rotate")) {
		if (lkst_parse_rotate_arg(val, &size, &count))
			conf_err(c, lineno, "rotate: '%s' is not SIZE_KB,COUNT, both > 0", val);
		else
			snprintf(d->record_rotate, sizeof(d->record_rotate), "%s", val);
	} else if (sect == 'r' && !strcmp(key, "maskset")) {
		if (!lkst_name_ok(val))
			conf_err(c, lineno, "maskset: bad name '%s'", val);
		else
			snprintf(d->record_maskset, sizeof(d->record_maskset), "%s", val);
		c->record_maskset_line = lineno;
	} else if (sect == 'l' && !strcmp(key, "maskset")) {
		if (!lkst_name_ok(val))
			conf_err(c, lineno, "maskset: bad name '%s'", val);
		else
			snprintf(c->maskset, sizeof(c->maskset), "%s", val);
		c->maskset_line = lineno;
	} else if (sect == 'l' && !strcmp(key, "dump_on_oops")) {
		if (parse_long(val, 0, 1000, &c->dump_on_oops))
			conf_err(c, lineno, "dump_on_oops: '%s' is not a number from 0 to 1000",
				 val);
		c->dump_line = lineno;
	} else if ((sect == 'l' || sect == 'b') &&
		   !strcmp(key, sect == 'l' ? "buffer_size_kb" : "size_kb")) {
		if (parse_long(val, 8, 262144, &v))
			conf_err(c, lineno, "%s: '%s' is not a size from 8 to 262144 (KiB)",
				 key, val);
		else
			b->size_kb = v;
		b->size_line = lineno;
	} else if ((sect == 'l' || sect == 'b') && !strcmp(key, "overwrite")) {
		if (strcmp(val, "0") && strcmp(val, "1"))
			conf_err(c, lineno, "overwrite: '%s' is not 0 or 1", val);
		else
			b->overwrite = *val - '0';
		b->overwrite_line = lineno;
	} else {
		conf_err(c, lineno, "unknown key '%s' in this section", key);
	}
}

/* Read and check the syntax of @c->file; 0, or -1 after the messages */
static int conf_parse(struct conf *c)
{
	char *buf, *line, *next, *s, *eq, *name, *tok;
	struct conf_maskset *m = NULL;
	struct conf_buffer *b = NULL;
	int lineno = 0, sect = 0, ret, i;

	ret = lkst_read_file(c->file, &buf, NULL);
	if (ret) {
		lkst_err("%s: %s", c->file, strerror(-ret));
		return -1;
	}
	for (line = buf; *line; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		lineno++;
		s = trim(line);
		if (!*s || *s == '#')
			continue;
		c->sect = sect ? sect : c->hint;
		if (*s == '[') {
			char *end = strchr(s, ']');

			m = NULL;
			b = NULL;
			sect = 0;
			/*
			 * A header's errors, and those of the lines after a
			 * refused one, are [save]'s or [record]'s if it looks
			 * like theirs ([Save], [save]])
			 */
			c->hint = !strncasecmp(s, "[save", 5) ? 's' :
				  !strncasecmp(s, "[record", 7) ? 'r' : 0;
			c->sect = c->hint;
			if (end) {
				char *rest = trim(end + 1);

				if (*rest && *rest != '#')
					end = NULL;
			}
			if (!end) {
				conf_err(c, lineno, "bad section line '%s'", s);
				continue;
			}
			*end = '\0';
			s = trim(s + 1);
			name = strpbrk(s, " \t");
			if (name) {
				*name++ = '\0';
				name = trim(name);
			}
			if (!strcmp(s, "lkst") || !strcmp(s, "save") ||
			    !strcmp(s, "record")) {
				c->sect = *s;
				if (name)
					conf_err(c, lineno, "[%s] takes no name", s);
				sect = *s;
				continue;
			}
			if (strcmp(s, "buffer") && strcmp(s, "maskset")) {
				conf_err(c, lineno, "unknown section [%s]", s);
				continue;
			}
			if (!name || !lkst_name_ok(name)) {
				conf_err(c, lineno, "[%s NAME]: bad name '%s' (1 to 31 of A-Z a-z 0-9 _ -)",
					 s, name ? name : "");
				continue;
			}
			if (*s == 'b') {
				for (i = 0; i < c->nr_buffers; i++)
					if (!strcmp(c->buffers[i].name, name))
						break;
				if (i < c->nr_buffers) {
					conf_err(c, lineno, "buffer %s: already defined at line %d",
						 name, c->buffers[i].lineno);
					continue;
				}
				if (c->nr_buffers == LKST_MAX_BUFFERS) {
					conf_err(c, lineno, "more than %d user buffers",
						 LKST_MAX_BUFFERS);
					continue;
				}
				b = &c->buffers[c->nr_buffers++];
				snprintf(b->name, sizeof(b->name), "%s", name);
				b->lineno = lineno;
				b->size_kb = -1;
				b->overwrite = -1;
				sect = 'b';
			} else {
				if (lkst_builtin_maskset(name)) {
					conf_err(c, lineno, "maskset %s: a built-in maskset cannot be changed",
						 name);
					continue;
				}
				for (i = 0; i < c->nr_masksets; i++)
					if (!strcmp(c->masksets[i].name, name))
						break;
				if (i < c->nr_masksets) {
					conf_err(c, lineno, "maskset %s: already defined at line %d",
						 name, c->masksets[i].lineno);
					continue;
				}
				if (c->nr_masksets == LKST_MAX_MASKSETS) {
					conf_err(c, lineno, "more than %d user masksets",
						 LKST_MAX_MASKSETS);
					continue;
				}
				m = &c->masksets[c->nr_masksets++];
				snprintf(m->name, sizeof(m->name), "%s", name);
				m->lineno = lineno;
				sect = 'm';
			}
			continue;
		}
		if (sect == 'm') {
			char copy[LKST_LINE_MAX + 2];
			int n = 0;

			/* a comment after the line: the kernel would take it as a field */
			tok = strpbrk(s, "#");
			if (tok && tok > s && (tok[-1] == ' ' || tok[-1] == '\t')) {
				*tok = '\0';
				s = trim(s);
			}

			if (strlen(s) > LKST_LINE_MAX) {
				conf_err(c, lineno, "maskset %s: a line of more than %d characters",
					 m->name, LKST_LINE_MAX);
				continue;
			}
			snprintf(copy, sizeof(copy), "%s", s);
			for (tok = strtok(copy, " \t"); tok; tok = strtok(NULL, " \t"))
				n++;
			if (n < 2 || n > 3) {
				conf_err(c, lineno, "maskset %s: '%s' is not EVENT HANDLER [BUFFER]",
					 m->name, s);
				continue;
			}
			m->lines = lkst_realloc_array(m->lines, m->nr_lines + 1,
						      sizeof(*m->lines));
			m->lines[m->nr_lines].lineno = lineno;
			m->lines[m->nr_lines].text = lkst_strdup(s);
			m->nr_lines++;
			continue;
		}
		eq = strchr(s, '=');
		if (!sect) {
			conf_err(c, lineno, "'%s' before any section", s);
			continue;
		}
		if (!eq) {
			conf_err(c, lineno, "'%s' is not KEY = VALUE", s);
			continue;
		}
		*eq = '\0';
		/* a comment after the value, after a blank */
		for (tok = eq + 1; (tok = strchr(tok, '#')); tok++)
			if (tok[-1] == ' ' || tok[-1] == '\t') {
				*tok = '\0';
				break;
			}
		conf_key(c, sect, sect == 'b' ? b : &c->deflt, lineno, trim(s), trim(eq + 1));
	}
	free(buf);
	return c->errors ? -1 : 0;
}

/* @path under the tracing directory, read; NULL with a message */
static char *tracing_get(const char *path)
{
	char *file, *buf = NULL;
	int ret = -ENOMEM;

	file = tracefs_instance_get_file(NULL, path);
	if (file)
		ret = lkst_read_file(file, &buf, NULL);
	if (ret)
		lkst_err("%s: %s", file ? file : path, strerror(-ret));
	tracefs_put_tracing_file(file);
	return ret ? NULL : buf;
}

/* lkst/NAME, read; NULL with a message */
static char *lkst_get(const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "lkst/%s", name);
	return tracing_get(path);
}

/* Is @word a whole word (between blanks, [] or line ends) of @list, in column @col? */
static bool listed(const char *list, const char *word, int col)
{
	const char *l = list;
	char w[LKST_LINE_MAX];
	int i, n;

	while (l && *l) {
		const char *p = l;

		for (i = 0; i <= col; i++) {
			p += strspn(p, " \t[");
			n = strcspn(p, " \t\n]");
			if (i == col && n < (int)sizeof(w)) {
				memcpy(w, p, n);
				w[n] = '\0';
				if (!strcmp(w, word))
					return true;
			}
			p += n;
			if (*p == '\n')
				break;
		}
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return false;
}

/*
 * Check the file against the running kernel, before anything is written:
 * the events, handlers and buffers the tables name, and the maskset to
 * make current.  0, or -1 after the messages.
 */
static int conf_check_kernel(struct conf *c, const char *buffers,
			     const char *masksets)
{
	char *events = lkst_get("available_events");
	char *handlers = lkst_get("available_handlers");
	int i, j, k;

	if (!events || !handlers) {
		free(events);
		free(handlers);
		return -1;
	}
	for (i = 0; i < c->nr_masksets; i++) {
		struct conf_maskset *m = &c->masksets[i];

		for (j = 0; j < m->nr_lines; j++) {
			char copy[LKST_LINE_MAX + 2], *f[3] = { }, *save;
			int ln = m->lines[j].lineno;

			snprintf(copy, sizeof(copy), "%s", m->lines[j].text);
			f[0] = strtok_r(copy, " \t", &save);
			f[1] = strtok_r(NULL, " \t", &save);
			f[2] = strtok_r(NULL, " \t", &save);
			if (!listed(events, f[0], 1))
				conf_err(c, ln, "maskset %s: unknown event '%s' (see available_events)",
					 m->name, f[0]);
			/* a module's handler must be registered first (modules-load.d) */
			if (!listed(handlers, f[1], 1))
				conf_err(c, ln, "maskset %s: unknown handler '%s' (see available_handlers)",
					 m->name, f[1]);
			if (f[2]) {
				for (k = 0; k < c->nr_buffers; k++)
					if (!strcmp(c->buffers[k].name, f[2]))
						break;
				if (k == c->nr_buffers && !listed(buffers, f[2], 0))
					conf_err(c, ln, "maskset %s: unknown buffer '%s' (not in user_buffers nor in this file)",
						 m->name, f[2]);
			}
			for (k = 0; k < j; k++) {
				const char *other = m->lines[k].text;
				size_t len = strcspn(other, " \t");

				if (len == strlen(f[0]) && !strncmp(other, f[0], len))
					conf_err(c, ln, "maskset %s: event %s already at line %d",
						 m->name, f[0], m->lines[k].lineno);
			}
		}
	}
	if (*c->maskset && !listed(masksets, c->maskset, 0)) {
		for (i = 0; i < c->nr_masksets; i++)
			if (!strcmp(c->masksets[i].name, c->maskset))
				break;
		if (i == c->nr_masksets)
			conf_err(c, c->maskset_line, "maskset: no maskset '%s' (not in available_masksets nor in this file)",
				 c->maskset);
	}
	if (c->record_maskset_line && !listed(masksets, c->dirs.record_maskset, 0)) {
		for (i = 0; i < c->nr_masksets; i++)
			if (!strcmp(c->masksets[i].name, c->dirs.record_maskset))
				break;
		if (i == c->nr_masksets)
			conf_err(c, c->record_maskset_line, "maskset: no maskset '%s' (not in available_masksets nor in this file)",
				 c->dirs.record_maskset);
	}
	free(events);
	free(handlers);
	return c->errors ? -1 : 0;
}

/* The undo log: what to write where to take a change back */
struct undo {
	char	file[96];
	char	*val;
	bool	trunc;
};

struct undo_log {
	struct undo	*u;
	int		nr;
};

static void undo_push(struct undo_log *log, const char *file, const char *val,
		      bool trunc)
{
	struct undo *u;

	log->u = lkst_realloc_array(log->u, log->nr + 1, sizeof(*log->u));
	u = &log->u[log->nr++];
	snprintf(u->file, sizeof(u->file), "%s", file);
	u->val = lkst_strdup(val);
	u->trunc = trunc;
}

/* The last LKST entry of the tracing error_log, on one line, for a message */
static void last_error(char *buf, size_t size)
{
	char *log = tracing_get("error_log"), *p, *last = NULL;

	*buf = '\0';
	if (!log)
		return;
	for (p = log; (p = strstr(p, "] lkst: ")); p++)
		last = p + 2;
	if (last)
		snprintf(buf, size, " (error_log: %.*s)", (int)strcspn(last, "\n"), last);
	free(log);
}

/*
 * Write @val to lkst/@file in one write() (each of @nr lines in its own
 * write() if @lines); -1 and *@bad = the index of the refused line.
 */
static int lkst_put(const char *file, const char *val, bool trunc,
		    const struct conf_line *lines, int nr, int *bad, int *err)
{
	char path[160], *f;
	int fd, i, ret = 0;

	snprintf(path, sizeof(path), "lkst/%s", file);
	f = tracefs_instance_get_file(NULL, path);
	fd = f ? open(f, O_WRONLY | (trunc ? O_TRUNC : 0) | O_CLOEXEC) : -1;
	tracefs_put_tracing_file(f);
	*bad = -1;
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	if (lines) {
		for (i = 0; i < nr && !ret; i++) {
			char l[LKST_LINE_MAX + 2];
			int n = snprintf(l, sizeof(l), "%s\n", lines[i].text);

			if (write(fd, l, n) != n) {
				*err = errno;
				*bad = i;
				ret = -1;
			}
		}
	} else if (write(fd, val, strlen(val)) != (ssize_t)strlen(val)) {
		*err = errno;
		ret = -1;
	}
	if (close(fd) && !ret) {
		*err = errno;
		ret = -1;
	}
	return ret;
}

/* Take back what was done, newest first; the number of failures */
static int undo_all(struct undo_log *log)
{
	int i, bad, err, failed = 0;

	for (i = log->nr - 1; i >= 0; i--) {
		if (lkst_put(log->u[i].file, log->u[i].val, log->u[i].trunc,
			     NULL, 0, &bad, &err)) {
			lkst_err("undo: writing '%s' to lkst/%s: %s",
				 log->u[i].val, log->u[i].file, strerror(err));
			failed++;
		}
	}
	return failed;
}

static void undo_free(struct undo_log *log)
{
	int i;

	for (i = 0; i < log->nr; i++)
		free(log->u[i].val);
	free(log->u);
}

/* A setting of a buffer (@dir "" or "buffers/NAME/"): write, log the old */
static int apply_setting(struct conf *c, struct undo_log *log, const char *dir,
			 const char *file, long val, int lineno)
{
	char name[96], v[32], why[300], *old;
	int bad, err;

	snprintf(name, sizeof(name), "%s%s", dir, file);
	old = lkst_get(name);
	if (!old)
		return -1;
	snprintf(v, sizeof(v), "%ld\n", val);
	if (lkst_put(name, v, false, NULL, 0, &bad, &err)) {
		/*
		 * An instance's file, by its path in tracefs: ftrace's files
		 * log nothing, so error_log's last line is not about it.
		 */
		if (strncmp(name, "../", 3))
			last_error(why, sizeof(why));
		else
			*why = '\0';
		conf_err(c, lineno, "%s: %s%s",
			 strncmp(name, "../", 3) ? name : name + 3,
			 strerror(err), why);
		free(old);
		return -1;
	}
	undo_push(log, name, old, false);
	free(old);
	return 0;
}

/* 0, -1 after a refusal undone, -2 if the undo failed too */
static int conf_apply(struct conf *c, const char *buffers, const char *masksets)
{
	struct undo_log log = { };
	char v[64], why[300], file[96], *old;
	int i, bad, err, ret;

	/* 1. buffers and masksets the kernel does not have yet */
	for (i = 0; i < c->nr_buffers; i++) {
		if (listed(buffers, c->buffers[i].name, 0))
			continue;
		snprintf(v, sizeof(v), "%s\n", c->buffers[i].name);
		if (lkst_put("user_buffers", v, false, NULL, 0, &bad, &err)) {
			last_error(why, sizeof(why));
			conf_err(c, c->buffers[i].lineno, "buffer %s: %s%s",
				 c->buffers[i].name, strerror(err), why);
			goto fail;
		}
		snprintf(v, sizeof(v), "!%s\n", c->buffers[i].name);
		undo_push(&log, "user_buffers", v, false);
	}
	for (i = 0; i < c->nr_masksets; i++) {
		if (listed(masksets, c->masksets[i].name, 0))
			continue;
		snprintf(v, sizeof(v), "%s\n", c->masksets[i].name);
		if (lkst_put("user_masksets", v, false, NULL, 0, &bad, &err)) {
			last_error(why, sizeof(why));
			conf_err(c, c->masksets[i].lineno, "maskset %s: %s%s",
				 c->masksets[i].name, strerror(err), why);
			goto fail;
		}
		snprintf(v, sizeof(v), "!%s\n", c->masksets[i].name);
		undo_push(&log, "user_masksets", v, false);
	}
	/* 2. the tables: one write() a line, so a refusal names its line */
	for (i = 0; i < c->nr_masksets; i++) {
		struct conf_maskset *m = &c->masksets[i];

		snprintf(file, sizeof(file), "masksets/%s", m->name);
		old = lkst_get(file);
		if (!old)
			goto fail;
		if (lkst_put(file, NULL, true, m->lines, m->nr_lines, &bad, &err)) {
			last_error(why, sizeof(why));
			conf_err(c, bad >= 0 ? m->lines[bad].lineno : m->lineno,
				 "maskset %s: %s%s", m->name, strerror(err), why);
			free(old);
			goto fail;
		}
		undo_push(&log, file, old, true);
		free(old);
	}
	/* 3. settings of the buffers */
	for (i = 0; i < c->nr_buffers; i++) {
		struct conf_buffer *b = &c->buffers[i];

		/* the instance's files (paths are relative to lkst/) */
		snprintf(file, sizeof(file), "../instances/lkst.%s/options/", b->name);
		if (b->overwrite >= 0 &&
		    apply_setting(c, &log, file, "overwrite", b->overwrite, b->overwrite_line))
			goto fail;
		snprintf(file, sizeof(file), "../instances/lkst.%s/", b->name);
		if (b->size_kb >= 0 &&
		    apply_setting(c, &log, file, "buffer_size_kb", b->size_kb, b->size_line))
			goto fail;
	}
	if (c->deflt.overwrite >= 0 &&
	    apply_setting(c, &log, "../instances/lkst/options/", "overwrite",
			  c->deflt.overwrite, c->deflt.overwrite_line))
		goto fail;
	if (c->deflt.size_kb >= 0 &&
	    apply_setting(c, &log, "../instances/lkst/", "buffer_size_kb",
			  c->deflt.size_kb, c->deflt.size_line))
		goto fail;
	if (c->dump_on_oops >= 0 &&
	    apply_setting(c, &log, "", "dump_on_oops", c->dump_on_oops, c->dump_line))
		goto fail;
	/* 4. the current maskset, last */
	if (*c->maskset) {
		old = lkst_get("maskset");
		if (!old)
			goto fail;
		snprintf(v, sizeof(v), "%s\n", c->maskset);
		if (lkst_put("maskset", v, false, NULL, 0, &bad, &err)) {
			last_error(why, sizeof(why));
			conf_err(c, c->maskset_line, "maskset %s: %s%s", c->maskset,
				 strerror(err), why);
			free(old);
			goto fail;
		}
		undo_push(&log, "maskset", old, false);
		free(old);
	}
	undo_free(&log);
	return 0;
fail:
	ret = undo_all(&log) ? -2 : -1;
	undo_free(&log);
	return ret;
}

static void lkst_apply_usage(FILE *f)
{
	fprintf(f,
		"usage: lkst apply [--check] [FILE]\n"
		"\n"
		"Set LKST up as FILE (default " LKST_CONF_DEFAULT ") says: user buffers\n"
		"and their settings, user masksets and their tables, the default buffer's\n"
		"settings, dump_on_oops, and the maskset to make current.  All or nothing:\n"
		"an error names its line and leaves LKST as it was.\n"
		"\n"
		"  -c, --check  check FILE against the running kernel, change nothing\n"
		"  -h, --help   this text\n"
		"\n"
		"FILE, one statement a line, '#' starts a comment:\n"
		"  [lkst]              maskset = NAME, buffer_size_kb = KB, overwrite = 0|1,\n"
		"                      dump_on_oops = N\n"
		"  [buffer NAME]       size_kb = KB, overwrite = 0|1\n"
		"  [maskset NAME]      EVENT HANDLER [BUFFER] lines, as masksets/NAME takes\n"
		"  [save]              dir = DIR (" LKST_SAVE_DIR "), keep = N (10): where\n"
		"                      'lkst record --last-boot -c' and 'lkst watch -c' save\n"
		"  [record]            dir = DIR (" LKST_RECORD_DIR "),\n"
		"                      rotate = KB,COUNT (4096,16), keep_boots = N (3),\n"
		"                      maskset = NAME (RDEFAULT):\n"
		"                      'lkst record -c', one directory a boot\n"
		"See lkst.conf(5).\n");
}

static void conf_init(struct conf *c, const char *file)
{
	struct lkst_conf_dirs *d = &c->dirs;

	c->file = file;
	c->dump_on_oops = -1;
	c->deflt.size_kb = -1;
	c->deflt.overwrite = -1;
	snprintf(d->save_dir, sizeof(d->save_dir), "%s", LKST_SAVE_DIR);
	d->save_keep = 10;
	snprintf(d->record_dir, sizeof(d->record_dir), "%s", LKST_RECORD_DIR);
	snprintf(d->record_rotate, sizeof(d->record_rotate), "4096,16");
	d->record_keep_boots = 3;
	snprintf(d->record_maskset, sizeof(d->record_maskset), "RDEFAULT");
}

static void conf_free(struct conf *c)
{
	int i, j;

	for (i = 0; i < c->nr_masksets; i++) {
		for (j = 0; j < c->masksets[i].nr_lines; j++)
			free(c->masksets[i].lines[j].text);
		free(c->masksets[i].lines);
	}
	free(c);
}

/**
 * lkst_conf_dirs_read - the [save] and [record] settings of a config file
 * @file: the file, NULL for /etc/lkst/lkst.conf
 * @d: filled with them, defaults where the file is silent
 *
 * The whole file is parsed as 'lkst apply' parses it (not checked against
 * the kernel), and its errors are said, but only those of [save] and
 * [record] fail: a bad maskset line must not keep a boot from saving the
 * previous boot's records.  A missing file gives the defaults, with a
 * warning, for the same reason.
 *
 * Return: 0, or -1 after the messages.
 */
int lkst_conf_dirs_read(const char *file, struct lkst_conf_dirs *d)
{
	struct conf *c = lkst_zalloc(sizeof(*c));
	int ret = 0;

	conf_init(c, file ? file : LKST_CONF_DEFAULT);
	if (access(c->file, F_OK) && errno == ENOENT) {
		lkst_warn("%s: no such file: the default [save] and [record] settings",
			  c->file);
	} else if (conf_parse(c)) {
		if (c->dirs_errors || !c->errors)
			ret = -1;
		else
			lkst_warn("%s: the errors above are not in [save] or [record]: going on",
				  c->file);
	}
	*d = c->dirs;
	conf_free(c);
	return ret;
}

int cmd_apply(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "check",	no_argument,	NULL, 'c' },
		{ "help",	no_argument,	NULL, 'h' },
		{ }
	};
	struct conf *c = lkst_zalloc(sizeof(*c));
	char *buffers = NULL, *masksets = NULL;
	int opt, i, ret = LKST_EXIT_FAIL;
	sigset_t mask, oldmask;
	bool check = false;

	while ((opt = getopt_long(argc, argv, "ch", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			check = true;
			break;
		case 'h':
			lkst_apply_usage(stdout);
			free(c);
			return LKST_EXIT_OK;
		default:
			lkst_apply_usage(stderr);
			free(c);
			return LKST_EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		lkst_err("one FILE at most");
		lkst_apply_usage(stderr);
		free(c);
		return LKST_EXIT_USAGE;
	}
	conf_init(c, optind < argc ? argv[optind] : LKST_CONF_DEFAULT);
	if (conf_parse(c))
		goto out;
	if (!tracefs_file_exists(NULL, "lkst/maskset")) {
		lkst_err("no lkst/maskset: no LKST in this kernel, tracefs not mounted, or not root");
		goto out;
	}
	buffers = lkst_get("user_buffers");
	masksets = lkst_get("available_masksets");
	if (!buffers || !masksets || conf_check_kernel(c, buffers, masksets))
		goto out;
	if (check) {
		fprintf(stderr, "lkst: %s: no error\n", c->file);
		ret = LKST_EXIT_OK;
		goto out;
	}
	/* Not stopped half-way (a service's stop timeout) */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, &oldmask);
	i = conf_apply(c, buffers, masksets);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	if (i == -2) {
		fprintf(stderr, "lkst: %s: partly applied: the undo failed as said above\n",
			c->file);
		goto out;
	}
	if (i) {
		fprintf(stderr, "lkst: %s: not applied, LKST left as it was\n", c->file);
		goto out;
	}
	fprintf(stderr, "lkst: applied %s: %d buffers, %d masksets, maskset %s\n",
		c->file, c->nr_buffers, c->nr_masksets,
		*c->maskset ? c->maskset : "unchanged");
	ret = LKST_EXIT_OK;
out:
	free(buffers);
	free(masksets);
	conf_free(c);
	return ret;
}
