// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the lkst commands: messages, memory, files, times.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "lkst.h"
#include "syscalls.h"	/* generated from <asm/unistd.h> by the Makefile */

void lkst_err(const char *fmt, ...)
{
	va_list ap;

	fputs("lkst: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void lkst_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("lkst: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Out of memory is not worth a recovery path in a command-line tool. */
static void *lkst_oom(void *p)
{
	if (!p) {
		lkst_err("out of memory");
		exit(LKST_EXIT_FAIL);
	}
	return p;
}

void *lkst_zalloc(size_t size)
{
	return lkst_oom(calloc(1, size ? size : 1));
}

void *lkst_realloc_array(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		return lkst_oom(NULL);
	size *= nmemb;
	return lkst_oom(realloc(p, size ? size : 1));
}

char *lkst_strdup(const char *s)
{
	return lkst_oom(strdup(s));
}

char *lkst_path(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *p = lkst_zalloc(len);

	snprintf(p, len, "%s/%s", dir, name);
	return p;
}

/* Read a whole file, NUL-terminated; -errno on failure. */
int lkst_read_file(const char *path, char **buf, size_t *size)
{
	size_t len = 0, alloc = 4096;
	char *b;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	b = lkst_zalloc(alloc + 1);
	for (;;) {
		n = read(fd, b + len, alloc - len);
		if (n < 0) {
			n = -errno;
			free(b);
			close(fd);
			return n;
		}
		if (!n)
			break;
		len += n;
		if (len == alloc) {
			alloc *= 2;
			b = lkst_realloc_array(b, alloc + 1, 1);
		}
	}
	close(fd);
	b[len] = '\0';
	*buf = b;
	if (size)
		*size = len;
	return 0;
}

int lkst_write_file(const char *path, const char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	while (size) {
		n = write(fd, buf, size);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		buf += n;
		size -= n;
	}
	return close(fd) ? -errno : 0;
}

/* mkdir -p PATH, mode 0755; 0 or -errno */
int lkst_mkdir_p(const char *path)
{
	char *p, *s;
	int ret = 0;

	if (!*path)
		return -ENOENT;
	p = lkst_strdup(path);
	for (s = p + 1; ; s++) {
		if (*s && *s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST) {
			ret = -errno;
			break;
		}
		if (!path[s - p])
			break;
		*s = '/';
	}
	free(p);
	return ret;
}

static int lkst_remove_one(const char *path, const struct stat *st,
			   int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

/* Remove @path and what is below it; 0 also if it does not exist */
int lkst_remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	return nftw(path, lkst_remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}

/*
 * Does @fmt, an event's format, describe an LKST record?  Other events
 * of the system lkst (a kprobe event "p:lkst/NAME" may be one) do not.
 */
bool lkst_format_is_lkst(const char *fmt)
{
	return strstr(fmt, "\tfield:u16 lkst_event;\t") &&
	       strstr(fmt, "\tfield:u32 lkst_pad;\t");
}

/*
 * The definition of kprobe event @ge ("GROUP/EVENT") in @buf, lines as
 * ftrace reads back its dynamic_events and kprobe_events: "p:GROUP/EVENT
 * SYMBOL[+OFFS] NAME=FETCHARG[:TYPE] ...", "r:" or, with a maxactive,
 * "r10:" for a return probe, SYMBOL also "MOD:SYMBOL" or an address.
 * Other events' lines differ, or name other events: a uprobe's is
 * "p:GROUP/EVENT PATH:OFFS", but no two events have one GROUP/EVENT.
 * Return: the start of its line in @buf, @len its length without the
 * newline; NULL if @buf has none.
 */
const char *lkst_kprobe_def(const char *buf, const char *ge, size_t *len)
{
	size_t n = strlen(ge);
	const char *l, *w, *end;

	for (l = buf; *l; l = end + 1) {
		end = strchrnul(l, '\n');
		w = l;
		if (*w == 'p' || *w == 'r') {
			w = w + 1 + strspn(w + 1, "0123456789");
			if (*w == ':' && !strncmp(w + 1, ge, n) &&
			    (w[1 + n] == ' ' || w[1 + n] == '\t')) {
				*len = end - l;
				return l;
			}
		}
		if (!*end)
			break;
	}
	return NULL;
}

/* hh:mm:ss.uuuuuu of the ring buffer's clock (time since boot) */
void lkst_fmt_time(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ULL;

	snprintf(buf, len, "%02llu:%02llu:%02llu.%06llu",
		 (unsigned long long)(s / 3600), (unsigned long long)(s / 60 % 60),
		 (unsigned long long)(s % 60),
		 (unsigned long long)(ns % 1000000000ULL / 1000));
}

/* "SEC[.FRAC]", "MM:SS[.FRAC]" or "HH:MM:SS[.FRAC]" to ns */
int lkst_parse_time(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ULL;
	int colons = 0, digits;
	const char *p = s;

	if (!*p)
		return -EINVAL;
	for (;;) {
		uint64_t part = 0;

		digits = 0;
		while (*p >= '0' && *p <= '9' && digits < 12) {
			part = part * 10 + (*p++ - '0');
			digits++;
		}
		if (!digits)
			return -EINVAL;
		sec = sec * 60 + part;
		if (*p != ':')
			break;
		if (++colons > 2)
			return -EINVAL;
		p++;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (scale > 1) {
				scale /= 10;
				frac += (*p - '0') * scale;
			}
			p++;
		}
	}
	if (*p)
		return -EINVAL;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

int lkst_parse_uint(const char *s, unsigned long *val)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*val = strtoul(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

const char *lkst_syscall_name(unsigned long nr)
{
	static char buf[24];

	if (nr < ARRAY_SIZE(lkst_syscalls) &&
	    lkst_syscalls[nr])
		return lkst_syscalls[nr];
	snprintf(buf, sizeof(buf), "syscall_%lu", nr);
	return buf;
}

/* The task state letters of PROCESS_CONTEXTSWITCH's "state" argument */
const char *lkst_state_name(uint64_t state)
{
	static const char * const names[] = {
		"R", "S", "D", "T", "t", "X", "Z", "P", "I",
	};

	return state < ARRAY_SIZE(names) ? names[state] : "?";
}

/* Whether --pid options (none means every task) select @pid. */
bool lkst_pid_wanted(const unsigned long *pids, size_t nr, uint64_t pid)
{
	size_t i;

	if (!nr)
		return true;
	for (i = 0; i < nr; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

void lkst_samples_add(struct lkst_samples *s, uint64_t v)
{
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? s->alloc * 2 : 64;
		s->v = lkst_realloc_array(s->v, s->alloc, sizeof(*s->v));
	}
	s->v[s->nr++] = v;
}

static int lkst_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void lkst_samples_sort(struct lkst_samples *s)
{
	if (s->nr)
		qsort(s->v, s->nr, sizeof(*s->v), lkst_u64_cmp);
}

/* Nearest-rank percentile of sorted samples */
uint64_t lkst_samples_pct(const struct lkst_samples *s, unsigned int pct)
{
	size_t rank;

	if (!s->nr)
		return 0;
	rank = (s->nr * pct + 99) / 100;
	return s->v[rank ? rank - 1 : 0];
}

void lkst_samples_free(struct lkst_samples *s)
{
	free(s->v);
	s->v = NULL;
	s->nr = 0;
	s->alloc = 0;
}
