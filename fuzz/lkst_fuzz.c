// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_fuzz: a seeded, reproducible, time-bounded fuzzer of LKST's tracefs
 * files (Documentation/trace/lkst/index.rst).
 *
 * It is not part of the patch series: scripts/test/fuzz ('make fuzz') builds it
 * against the patched kernel tree, for kselftest.h, and runs it in the VM.
 *
 *   lkst_fuzz [-s SEED] [-t SECONDS] [-w WORKERS] [-l LOGFILE] [-x OP]... [-v]
 *
 * WORKERS processes (default 2, pinned to CPU 0, 1, ...) open random LKST
 * files with random open modes and run random sequences of read, write,
 * lseek, poll, splice, mmap, ioctl, fcntl, ... on them.  Payloads come
 * from the grammar of each file (maskset names, "EVENT HANDLER [BUFFER]"
 * lines, NAME and !NAME, sizes, booleans), often mutated (bit flips,
 * truncation, NUL, \t, \r, '#', long tokens, non-ASCII), sometimes huge
 * (64 KiB to 1 MiB) or split over several write() calls.  Workers keep
 * files open across steps, and so across the removal of the maskset or
 * buffer behind them.
 *
 * A chaos process meanwhile creates and removes user masksets and buffers,
 * runs maskset switch storms, loads and unloads the sample handler modules
 * under a switch storm, resizes buffers while they record and are read,
 * toggles tracing_on and overwrite, and takes CPU 1 offline and back while
 * recording.  After each of its steps it pauses the workers and checks the
 * documented state:
 *
 *   a. available_masksets shows exactly one maskset in [brackets], the one
 *      that maskset reads;
 *   b. every user maskset is in available_masksets and has masksets/NAME,
 *      every user buffer has buffers/NAME/, and there is nothing else;
 *   c. every table line is "EVENT HANDLER" or "EVENT HANDLER BUFFER" with
 *      a known event, handler and buffer, one line per event, in ID order;
 *   d. with RNOTHING current, nothing is written: on every CPU of every
 *      buffer, the instance's stats stop changing.
 *
 * Failing syscalls must fail with an errno of the documented set; others
 * are reported as warnings.  The parent only supervises: it watches the
 * kernel log (/dev/kmsg) for splats, its children for unexpected deaths
 * and for tasks stuck in D state, and stops everything at the deadline.
 * A last process checks the state once more and puts LKST back in a sane
 * state: RNOTHING, no user masksets or buffers, no sample module, CPU 1
 * online, the default buffer's size and overwrite mode as found (in its
 * instance, instances/lkst), tracing_on 1.
 *
 * Every decision comes from a xorshift64* generator seeded with SEED + i
 * in process i (the workers, then chaos), drawn once per step to seed that
 * step: the same -s and -w make each process take the same decisions in
 * the same order, up to what depends on the kernel's answers and on
 * timing.  Each step is logged in a ring in shared memory, and the last
 * steps of every process are printed on failure; -v prints every step, -l
 * appends them to a file.  -x leaves out a syscall (e.g. lseek) or a chaos
 * step (e.g. hotplug), to look past a known bug; the other decisions stay
 * the same.
 *
 * Exit status: 0 pass, 1 fail, 4 skip (not root, no LKST).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"	/* tools/testing/selftests/ of the kernel tree */

#define MAX_WORKERS	8
#define MAX_PROCS	(MAX_WORKERS + 3)	/* + chaos, its helper, final */
#define MAX_SLOTS	8	/* files a worker keeps open */
#define MAX_CPUS	64
#define MAX_FOUND	1024	/* files found by walking lkst/ */
#define MAX_NAMES	128
#define PATH_LEN	160
#define LOG_RING	64
#define LOG_LEN		200
#define LOG_SHOW	20
#define NR_ERRNO	600
#define NR_MODE		24	/* 3 access modes x O_APPEND, O_TRUNC, O_NONBLOCK */
#define BIG		(1024 * 1024)
#define TEXT_MAX	(256 * 1024)

#define STEP_MS		2000	/* watchdog of one worker step */
#define PAUSE_S		15	/* to wait for the workers to pause */
#define GRACE_S		10	/* after the deadline, before SIGKILL */
#define KILL_S		60	/* after SIGKILL, before giving up */
#define SLOW_S		10	/* this long in D state is worth a note */
#define STUCK_S		60	/* and this long a hang */
#define FINAL_S		120	/* for the final check and restore */
#define MODPROBE_S	30

#define NR_UMS		8	/* fuzz maskset names fzm0..fzm7 */
#define NR_UBUF		6	/* fuzz buffer names fzb0..fzb5 */
#define MAX_UMS		64	/* documented limits */
#define MAX_UBUF	16

#define ERR_NOTSUPP	524	/* the kernel's ENOTSUPP, seen from mmap/ioctl */
#define IOCTL_FIFREEZE	0xc0045877u	/* would freeze tracefs: never */
#define IOCTL_FITHAW	0xc0045878u

/*
 * File classes.  Those before FC_TRACE have a grammar (gen_valid()); from
 * FC_SIZE to FC_TRACE, fc_name[] is the buffer's file for buf_path().
 * FC_TRACE is the instance's trace: read, written, and cleared by an open
 * with O_TRUNC.
 */
enum fclass {
	FC_MASKSET, FC_AV_MASKSETS, FC_AV_EVENTS, FC_AV_HANDLERS,
	FC_USER_MASKSETS, FC_USER_BUFFERS, FC_MS_BUILTIN, FC_MS_USER,
	FC_SIZE, FC_OVERWRITE, FC_TRACING_ON, FC_TRACE, FC_RAW, FC_STATS,
	FC_ERROR_LOG, FC_NOTIFY, FC_FORMAT, FC_HEADER_PAGE, FC_HEADER_EVENT,
	FC_OTHER, NR_FC
};

static const char *const fc_name[NR_FC] = {
	"maskset", "available_masksets", "available_events",
	"available_handlers", "user_masksets", "user_buffers",
	"masksets/<builtin>", "masksets/<user>", "buffer_size_kb",
	"overwrite", "tracing_on", "trace", "per_cpu/cpuN/raw",
	"per_cpu/cpuN/stats", "error_log", "notify", "format", "header_page",
	"header_event", "(other files)",
};

enum op {
	OP_OPEN, OP_READ, OP_PREAD, OP_READV, OP_WRITE, OP_SPLIT, OP_HUGE,
	OP_PWRITE, OP_WRITEV, OP_LSEEK, OP_POLL, OP_SPLICE_IN, OP_SPLICE_OUT,
	OP_MMAP, OP_IOCTL, OP_FCNTL, OP_FSTAT, OP_FTRUNC, OP_CLOSE, NR_OP
};

static const char *const op_name[NR_OP] = {
	"open", "read", "pread", "readv", "write", "split", "huge", "pwrite",
	"writev", "lseek", "poll", "splice", "splice", "mmap", "ioctl",
	"fcntl", "fstat", "ftruncate", "close",
};

/* Column titles of the summary (spl>p: file to pipe, p>spl: back) */
static const char *const op_short[NR_OP] = {
	"open", "read", "pread", "readv", "write", "split", "huge", "pwrit",
	"writv", "lseek", "poll", "spl>p", "p>spl", "mmap", "ioctl", "fcntl",
	"fstat", "trunc", "close",
};

/* Relative weights of the operations on an open file */
static const unsigned char op_weight[NR_OP] = {
	[OP_READ] = 20, [OP_PREAD] = 4, [OP_READV] = 4, [OP_WRITE] = 18,
	[OP_SPLIT] = 8, [OP_HUGE] = 2, [OP_PWRITE] = 3, [OP_WRITEV] = 4,
	[OP_LSEEK] = 8, [OP_POLL] = 6, [OP_SPLICE_IN] = 5, [OP_SPLICE_OUT] = 3,
	[OP_MMAP] = 3, [OP_IOCTL] = 4, [OP_FCNTL] = 3, [OP_FSTAT] = 2,
	[OP_FTRUNC] = 1,
};

enum chaos {
	CH_NAMES, CH_LIMITS, CH_STORM, CH_MODULE, CH_RESIZE, CH_HOTPLUG,
	CH_TOGGLE, CH_ERRLOG, CH_IDLE, NR_CH
};

static const char *const ch_name[NR_CH] = {
	"names", "limits", "storm", "module", "resize", "hotplug", "toggle",
	"error_log", "idle",
};

static const unsigned char ch_weight[NR_CH] = {
	[CH_NAMES] = 22, [CH_LIMITS] = 3, [CH_STORM] = 15, [CH_MODULE] = 15,
	[CH_RESIZE] = 15, [CH_HOTPLUG] = 12, [CH_TOGGLE] = 10,
	[CH_ERRLOG] = 4, [CH_IDLE] = 4,
};

enum counter {
	C_SWITCH, C_SWITCH_FAIL, C_LOAD, C_LOAD_FAIL, C_UNLOAD, C_UNLOAD_FAIL,
	C_RESIZE, C_RESIZE_FAIL, C_OFFLINE, C_ONLINE, C_CREATE, C_REMOVE,
	C_CHECK, C_CHECK_SKIP, C_STATS_STILL, C_TABLE_LINES, NR_COUNTER
};

/* One process: its step log and its counters, in shared memory */
struct proc {
	pid_t pid;
	char name[16];
	int running;		/* set by the process itself */
	int paused;		/* acknowledges shared.pause */
	int exited;		/* reaped by the parent */
	unsigned long long steps;
	unsigned int head;	/* next line of log */
	char log[LOG_RING][LOG_LEN];
	unsigned int ops[NR_FC][NR_OP];
	unsigned int modes[NR_FC][NR_MODE];
	unsigned int errs[NR_OP][NR_ERRNO];
	unsigned int chaos[NR_CH];
	unsigned int count[NR_COUNTER];
};

struct shared {
	int stop;		/* everybody: finish now */
	int pause;		/* workers: wait (for a check) */
	int helper_stop;
	int failed;
	char why[512];
	unsigned char warned[NR_OP][NR_ERRNO];
	struct proc p[MAX_PROCS];
};

/* An open file kept by a worker */
struct slot {
	bool used;		/* opened, even if open() failed */
	int fd;			/* -1: not open */
	int flags, mode;
	int cls;
	char rel[PATH_LEN];
	char tag[PATH_LEN + 24];	/* "rel(mode)", for the log */
};

/* A payload being built */
struct pl {
	char *b;
	size_t len, max;
};

struct rng {
	uint64_t s;
};

static struct shared *sh;
static struct proc *me;
static bool verbose;
static int logfd = -1;
static unsigned long long seed = 1;
static int seconds = 60;
static int nworkers = 2;
static double deadline;
static unsigned int skip_ops, skip_chaos;	/* -x: bit per op, action */

static char lkst[PATH_LEN];	/* .../tracing/lkst */
static int ncpus;		/* per_cpu/cpuN directories */
static int nonline;		/* online CPUs at start */
static char *events[MAX_NAMES];
static int nevents;
static char *handlers[MAX_NAMES];
static int nhandlers;
static long orig_size_kb;	/* instances/lkst/buffer_size_kb at start */
static int orig_overwrite = 1;
static bool have_modprobe, have_hotplug;
static const char cpu1_online[] = "/sys/devices/system/cpu/cpu1/online";

static struct fpath {
	char rel[PATH_LEN];
	int cls;
} cands[256], found[MAX_FOUND];
static int ncands, nfound;

static char *big;		/* BIG bytes of payload */
static char *rbuf;		/* BIG bytes to read into */
static char *nopage;		/* a PROT_NONE page after a writable one */
static int pipefd[2] = { -1, -1 };

static const char *const builtin_ms[] = { "RDEFAULT", "RALL", "RNOTHING" };
static const char *const sample_mod[] = {
	"lkst_pid_filter", "lkst_escalate", "lkst_redirect"
};

static const char *const sample_handler[] = {
	"PID_FILTER", "ESCALATE", "REDIRECT"
};

/* Output: one write() per line, so that processes do not mix lines */

static __printf(1, 2) void say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	if (write(STDOUT_FILENO, line, n) < 0)
		return;
}

static bool stopping(void)
{
	return __atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE);
}

static bool failed(void)
{
	return __atomic_load_n(&sh->failed, __ATOMIC_ACQUIRE);
}

static __printf(1, 2) void fail(const char *fmt, ...)
{
	char msg[480];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say("# FAIL: %s: %s\n", me->name, msg);
	if (!__atomic_exchange_n(&sh->failed, 1, __ATOMIC_SEQ_CST))
		snprintf(sh->why, sizeof(sh->why), "%s: %s", me->name, msg);
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Random numbers: xorshift64*, seeded through splitmix64 */

static void rng_seed(struct rng *r, uint64_t s)
{
	s += 0x9e3779b97f4a7c15ULL;
	s = (s ^ (s >> 30)) * 0xbf58476d1ce4e5b9ULL;
	s = (s ^ (s >> 27)) * 0x94d049bb133111ebULL;
	s ^= s >> 31;
	r->s = s ? s : 1;
}

static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static unsigned int below(struct rng *r, unsigned int n)
{
	return n ? rnd(r) % n : 0;
}

static bool chance(struct rng *r, unsigned int percent)
{
	return below(r, 100) < percent;
}

static int weighted(struct rng *r, const unsigned char *w, int n)
{
	unsigned int sum = 0, x;
	int i;

	for (i = 0; i < n; i++)
		sum += w[i];
	x = below(r, sum);
	for (i = 0; i < n; i++) {
		if (x < w[i])
			return i;
		x -= w[i];
	}
	return n - 1;
}

/* The step log */

/* Printable form of the start of a payload, for the log */
static const char *esc(const char *s, size_t len, char *out, size_t size)
{
	size_t i, o = 0;

	for (i = 0; i < len && o + 5 < size; i++) {
		unsigned char c = s[i];

		if (c == '\n')
			o += snprintf(out + o, size - o, "\\n");
		else if (c == '\\')
			o += snprintf(out + o, size - o, "\\\\");
		else if (isprint(c))
			out[o++] = c;
		else
			o += snprintf(out + o, size - o, "\\x%02x", c);
	}
	if (i < len && o + 4 < size)
		o += snprintf(out + o, size - o, "...");
	out[o] = '\0';
	return out;
}

static void log_out(const char *line)
{
	char buf[LOG_LEN + 32];
	int n;

	if (logfd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%s %s\n", me->name, line);
	if (write(logfd, buf, n) < 0)
		logfd = -1;
}

/* Log what a step is about to do, before doing it: a crash leaves it. */
static __printf(1, 2) void step_begin(const char *fmt, ...)
{
	char *l = me->log[me->head % LOG_RING];
	va_list ap;
	int n;

	n = snprintf(l, LOG_LEN, "%llu ", me->steps);
	va_start(ap, fmt);
	vsnprintf(l + n, LOG_LEN - n, fmt, ap);
	va_end(ap);
	__atomic_store_n(&me->head, me->head + 1, __ATOMIC_RELEASE);
	log_out(l);
}

/* Add the outcome to the line of step_begin(). */
static __printf(1, 2) void step_end(const char *fmt, ...)
{
	char *l = me->log[(me->head - 1) % LOG_RING];
	size_t n = strlen(l);
	va_list ap;

	n += snprintf(l + n, LOG_LEN - n, " -> ");
	if (n < LOG_LEN) {
		va_start(ap, fmt);
		vsnprintf(l + n, LOG_LEN - n, fmt, ap);
		va_end(ap);
	}
	if (verbose)
		say("# %s %s\n", me->name, l);
	log_out(l);
}

static const char *errname(int e)
{
	static const struct {
		int e;
		const char *name;
	} names[] = {
		{ EINVAL, "EINVAL" }, { E2BIG, "E2BIG" }, { EBUSY, "EBUSY" },
		{ EEXIST, "EEXIST" }, { ENOENT, "ENOENT" },
		{ ENOSPC, "ENOSPC" }, { EPERM, "EPERM" }, { ENODEV, "ENODEV" },
		{ EAGAIN, "EAGAIN" }, { ESPIPE, "ESPIPE" }, { EBADF, "EBADF" },
		{ ENOMEM, "ENOMEM" }, { EFAULT, "EFAULT" },
		{ EACCES, "EACCES" }, { ENOTTY, "ENOTTY" }, { EINTR, "EINTR" },
		{ ENXIO, "ENXIO" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ ERR_NOTSUPP, "ENOTSUPP" }, { EIO, "EIO" },
		{ EISDIR, "EISDIR" }, { ENOTDIR, "ENOTDIR" },
		{ EOVERFLOW, "EOVERFLOW" }, { ERANGE, "ERANGE" },
		{ EPIPE, "EPIPE" }, { EROFS, "EROFS" },
		{ EXDEV, "EXDEV" }, { ENOLCK, "ENOLCK" },
	};
	static char other[24];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(other, sizeof(other), "errno%d", e);
	return other;
}

/*
 * The errnos documented for LKST's files and the syscalls used on them,
 * and ftrace's for the instance's files of a buffer
 */
static bool errno_expected(int op, int e)
{
	switch (e) {
	case EINVAL:
	case E2BIG:
	case EBUSY:
	case EEXIST:
	case ENOENT:
	case ENOSPC:
	case EPERM:
	case ENODEV:
	case EAGAIN:
	case ESPIPE:
	case EBADF:
	case ENOMEM:
	case EFAULT:
	case EACCES:
	case ENOTTY:
	case EINTR:
	case ENXIO:
		return true;
	case EOPNOTSUPP:
	case ERR_NOTSUPP:
		return op == OP_MMAP || op == OP_IOCTL;
	case ERANGE:
		/*
		 * A number too big for kstrtoul(), in the instance's number
		 * files (ftrace's): buffer_size_kb, tracing_on, overwrite
		 */
		return op == OP_WRITE || op == OP_SPLIT || op == OP_HUGE ||
		       op == OP_PWRITE || op == OP_WRITEV ||
		       op == OP_SPLICE_OUT;
	}
	return false;
}

/*
 * Count one syscall @op on a file of class @cls; @ret < 0 means that it
 * failed, with errno.  Returns the errno (0 on success), unchanged.
 */
static int account(int cls, int op, long ret, const char *what)
{
	int e = ret < 0 ? errno : 0;
	int slot = e < NR_ERRNO ? e : 0;

	me->ops[cls][op]++;
	if (!e)
		return 0;
	me->errs[op][slot]++;
	if (!errno_expected(op, e) &&
	    !__atomic_exchange_n(&sh->warned[op][slot], 1, __ATOMIC_RELAXED))
		say("# warning: %s step %llu: %s of %s failed with %s, not a documented errno\n",
		    me->name, me->steps, op_name[op], what, errname(e));
	errno = e;
	return e;
}

static const char *res(long ret, int e)
{
	static char buf[32];

	if (ret < 0)
		return errname(e);
	snprintf(buf, sizeof(buf), "%ld", ret);
	return buf;
}

/*
 * Step watchdog: SIGALRM, without SA_RESTART, ends a blocking syscall;
 * it repeats, so that a second blocking call in the same step ends too.
 */
static void on_alarm(int sig)
{
}

static void arm_ms(unsigned int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	struct itimerval it = { tv, tv };

	setitimer(ITIMER_REAL, &it, NULL);
}

/* Files */

static void lpath(char *out, size_t size, const char *rel)
{
	snprintf(out, size, "%s/%s", lkst, rel);
}

/* Read a whole file into @buf, NUL-terminated: its length or -errno. */
static int read_abs(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd, e;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			close(fd);
			return -e;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return len;
}

static int read_rel(const char *rel, char *buf, size_t size)
{
	char path[PATH_LEN * 2];

	lpath(path, sizeof(path), rel);
	return read_abs(path, buf, size);
}

/* Open @path with @flags, write @text if not empty, close: 0 or -errno */
static int write_abs(const char *path, int flags, const char *text)
{
	size_t len = strlen(text);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	if (len && write(fd, text, len) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The same, on a file under lkst/, logged and counted */
static int cmd(const char *rel, int flags, const char *text);

static bool is_builtin_ms(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(builtin_ms); i++)
		if (!strcmp(name, builtin_ms[i]))
			return true;
	return false;
}

/* Paths are relative to lkst/; LKST's errors are in the tracing error log */
#define ERROR_LOG	"../error_log"

/*
 * A buffer's file, relative to lkst/: @file of the buffer in @dir ("" for
 * the default buffer, "buffers/NAME/"), or, for what is its instance's
 * (instances/lkst/, instances/lkst.NAME/), the instance's file:
 * buffer_size_kb, options/overwrite, tracing_on, trace (opened with
 * O_TRUNC, it clears), per_cpu/cpuN/stats, events/header_page,
 * events/header_event, an event's format.  What stays in @dir is
 * per_cpu/cpuN/raw (and raw_copy, refused).
 */
static void buf_path(char *out, size_t size, const char *dir, const char *file)
{
	static const struct {
		const char *file, *inst;
	} moved[] = {
		{ "buffer_size_kb", "buffer_size_kb" },
		{ "overwrite", "options/overwrite" },
		{ "tracing_on", "tracing_on" },
		{ "trace", "trace" },
		{ "header_page", "events/header_page" },
		{ "header_event", "events/header_event" },
		{ "format", "events/lkst/PROCESS_FORK/format" },
	};
	size_t i, len = strlen(file);
	char inst[64];

	if (!strncmp(dir, "buffers/", 8))
		snprintf(inst, sizeof(inst), "../instances/lkst.%.*s/",
			 (int)(strlen(dir) - 9), dir + 8);
	else
		snprintf(inst, sizeof(inst), "../instances/lkst/");
	for (i = 0; i < ARRAY_SIZE(moved); i++) {
		if (!strcmp(file, moved[i].file)) {
			snprintf(out, size, "%s%s", inst, moved[i].inst);
			return;
		}
	}
	if (!strncmp(file, "per_cpu/", 8) && len > 6 &&
	    !strcmp(file + len - 6, "/stats")) {
		snprintf(out, size, "%s%s", inst, file);
		return;
	}
	snprintf(out, size, "%s%s", dir, file);
}

static int classify(const char *rel)
{
	static const struct {
		const char *name;
		int cls;
	} top[] = {
		{ "maskset", FC_MASKSET },
		{ "available_masksets", FC_AV_MASKSETS },
		{ "available_events", FC_AV_EVENTS },
		{ "available_handlers", FC_AV_HANDLERS },
		{ "user_masksets", FC_USER_MASKSETS },
		{ "user_buffers", FC_USER_BUFFERS },
		{ "notify", FC_NOTIFY },
	};
	const char *base = strrchr(rel, '/');
	size_t i;

	base = base ? base + 1 : rel;
	/* the tracing error log, where LKST reports */
	if (!strcmp(rel, ERROR_LOG))
		return FC_ERROR_LOG;
	/* the instance's files of a buffer (buf_path()) */
	if (!strncmp(rel, "../instances/", 13)) {
		if (!strcmp(base, "buffer_size_kb"))
			return FC_SIZE;
		if (!strcmp(base, "overwrite"))
			return FC_OVERWRITE;
		if (!strcmp(base, "tracing_on"))
			return FC_TRACING_ON;
		if (!strcmp(base, "trace"))
			return FC_TRACE;
		if (!strcmp(base, "stats"))
			return FC_STATS;
		if (!strcmp(base, "header_page"))
			return FC_HEADER_PAGE;
		if (!strcmp(base, "header_event"))
			return FC_HEADER_EVENT;
		if (!strcmp(base, "format"))
			return FC_FORMAT;
		return FC_OTHER;
	}
	if (!strncmp(rel, "masksets/", 9))
		return is_builtin_ms(base) ? FC_MS_BUILTIN : FC_MS_USER;
	/* what a buffer has in lkst/: per_cpu/cpuN/raw, raw_copy, refused */
	if (strstr(rel, "per_cpu/"))
		return !strcmp(base, "raw") ? FC_RAW : FC_OTHER;
	if (base == rel)
		for (i = 0; i < ARRAY_SIZE(top); i++)
			if (!strcmp(rel, top[i].name))
				return top[i].cls;
	return FC_OTHER;
}

static __printf(1, 2) void add_cand(const char *fmt, ...)
{
	va_list ap;

	if (ncands >= (int)ARRAY_SIZE(cands))
		return;
	va_start(ap, fmt);
	vsnprintf(cands[ncands].rel, PATH_LEN, fmt, ap);
	va_end(ap);
	cands[ncands].cls = classify(cands[ncands].rel);
	ncands++;
}

/*
 * The files a worker picks from, a fixed list so that the choices do not
 * depend on what exists at the time: the control files, the files of the
 * default buffer and of the fuzz buffers fzb0.. (mostly their instances',
 * buf_path()), the built-in masksets and the fuzz masksets fzm0.. .  Files
 * found by walking lkst/ come on top.
 */
static void make_cands(void)
{
	static const char *const top[] = {
		"maskset", "available_masksets", "available_events",
		"available_handlers", "user_masksets", "user_buffers",
		ERROR_LOG, "notify",
	};
	static const char *const bfiles[] = {
		"buffer_size_kb", "overwrite", "tracing_on", "trace",
		"header_page", "header_event", "format",
	};
	char dir[32], rel[PATH_LEN], file[32];
	size_t i, j;
	int b, cpu;

	for (i = 0; i < ARRAY_SIZE(top); i++)
		add_cand("%s", top[i]);
	for (b = -1; b < NR_UBUF; b++) {
		if (b < 0)
			dir[0] = '\0';
		else
			snprintf(dir, sizeof(dir), "buffers/fzb%d/", b);
		for (j = 0; j < ARRAY_SIZE(bfiles); j++) {
			buf_path(rel, sizeof(rel), dir, bfiles[j]);
			add_cand("%s", rel);
		}
		for (cpu = 0; cpu < ncpus; cpu++) {
			add_cand("%sper_cpu/cpu%d/raw", dir, cpu);
			snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
			buf_path(rel, sizeof(rel), dir, file);
			add_cand("%s", rel);
		}
	}
	for (i = 0; i < ARRAY_SIZE(builtin_ms); i++)
		add_cand("masksets/%s", builtin_ms[i]);
	for (b = 0; b < NR_UMS; b++)
		add_cand("masksets/fzm%d", b);
}

static bool is_cand(const char *rel)
{
	int i;

	for (i = 0; i < ncands; i++)
		if (!strcmp(cands[i].rel, rel))
			return true;
	return false;
}

/* Files that are not in the fixed list: new ones, or other objects' */
static void walk(const char *rel, int depth)
{
	char path[PATH_LEN * 3], sub[PATH_LEN * 2];
	struct dirent *de;
	struct stat st;
	DIR *d;

	lpath(path, sizeof(path), rel);
	d = opendir(path);
	if (!d)
		return;
	while (nfound < MAX_FOUND) {
		de = readdir(d);
		if (!de)
			break;
		if (de->d_name[0] == '.')
			continue;
		if (strlen(rel) + strlen(de->d_name) + 2 > PATH_LEN)
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "",
			 de->d_name);
		lpath(path, sizeof(path), sub);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth < 5) {
			walk(sub, depth + 1);
		} else if (S_ISREG(st.st_mode) && !is_cand(sub)) {
			memcpy(found[nfound].rel, sub, strlen(sub) + 1);
			found[nfound].cls = classify(sub);
			nfound++;
		}
	}
	closedir(d);
}

static int cmp_fpath(const void *a, const void *b)
{
	return strcmp(((const struct fpath *)a)->rel,
		      ((const struct fpath *)b)->rel);
}

static void discover(void)
{
	nfound = 0;
	walk("", 0);
	qsort(found, nfound, sizeof(found[0]), cmp_fpath);
}

/*
 * A file to open: a class, then one of its files; sometimes one found by
 * walking.  Only the last choice depends on what exists at the time.
 */
static int pick_path(struct rng *r, char *rel)
{
	bool walked = chance(r, 15);
	uint64_t x = rnd(r);
	int i, n = 0, k, cls;

	if (walked && nfound) {
		i = x % nfound;
		memcpy(rel, found[i].rel, PATH_LEN);
		return found[i].cls;
	}
	cls = below(r, NR_FC - 1);
	for (i = 0; i < ncands; i++)
		n += cands[i].cls == cls;
	k = below(r, n);
	for (i = 0; i < ncands; i++) {
		if (cands[i].cls != cls)
			continue;
		if (!k--)
			break;
	}
	if (i == ncands)
		i = 0;
	memcpy(rel, cands[i].rel, PATH_LEN);
	return cands[i].cls;
}

/* Payloads */

static void put(struct pl *p, const char *s, size_t n)
{
	if (n > p->max - p->len)
		n = p->max - p->len;
	memcpy(p->b + p->len, s, n);
	p->len += n;
}

static __printf(2, 3) void putf(struct pl *p, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	put(p, tmp, n < (int)sizeof(tmp) ? n : (int)sizeof(tmp) - 1);
}

static void insert(struct pl *p, size_t at, const char *s, size_t n)
{
	if (n > p->max - p->len)
		n = p->max - p->len;
	if (at > p->len)
		at = p->len;
	memmove(p->b + at + n, p->b + at, p->len - at);
	memcpy(p->b + at, s, n);
	p->len += n;
}

static const char *pick_event(struct rng *r)
{
	static const char *const bad[] = {
		"FORK", "process_fork", "PROCESS_FORKS", "1", "EVENT",
	};

	if (!nevents || chance(r, 5))
		return bad[below(r, ARRAY_SIZE(bad))];
	return events[below(r, nevents)];
}

static const char *pick_handler(struct rng *r)
{
	static const char *const bad[] = { "DEFALT", "default", "255", "1" };

	if (chance(r, 5))
		return bad[below(r, ARRAY_SIZE(bad))];
	return handlers[below(r, nhandlers)];
}

static void pick_buffer(struct rng *r, char *out, size_t size)
{
	static const char *const bad[] = { "nobuf", "fzb99", "default/", "" };

	if (chance(r, 20))
		snprintf(out, size, "default");
	else if (chance(r, 8))
		snprintf(out, size, "%s", bad[below(r, ARRAY_SIZE(bad))]);
	else
		snprintf(out, size, "fzb%u", below(r, NR_UBUF));
}

static void pick_ms(struct rng *r, char *out, size_t size)
{
	static const char *const bad[] = {
		"fzm99", "R ALL", "rall", "a/b", "-", "RALL!", "",
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",	/* 31: valid */
	};
	unsigned int x = below(r, 100);

	if (x < 30)
		snprintf(out, size, "%s", builtin_ms[below(r, 3)]);
	else if (x < 88)
		snprintf(out, size, "fzm%u", below(r, NR_UMS));
	else
		snprintf(out, size, "%s", bad[below(r, ARRAY_SIZE(bad))]);
}

/* "EVENT HANDLER [BUFFER]" */
static void table_line(struct rng *r, struct pl *p, const char *handler)
{
	char b[48];

	putf(p, "%s %s", pick_event(r), handler ? handler : pick_handler(r));
	if (chance(r, 30)) {
		pick_buffer(r, b, sizeof(b));
		putf(p, " %s", b);
	}
	if (chance(r, 3))
		putf(p, " %s", pick_event(r));	/* a fourth field */
	put(p, "\n", 1);
}

/* Every event, as RALL has them, optionally into one buffer */
static void table_all(struct pl *p, const char *handler, const char *buf)
{
	int i;

	for (i = 0; i < nevents; i++)
		putf(p, "%s %s%s%s\n", events[i], handler, buf ? " " : "",
		     buf ? buf : "");
}

static void gen_table(struct rng *r, struct pl *p)
{
	char b[48];
	int n, i;

	if (chance(r, 8)) {
		pick_buffer(r, b, sizeof(b));
		table_all(p, chance(r, 80) ? "DEFAULT" : pick_handler(r),
			  chance(r, 50) ? b : NULL);
		return;
	}
	n = below(r, 8);
	if (!n) {
		put(p, chance(r, 50) ? "#\n" : "\n", 2);
		return;
	}
	for (i = 0; i < n; i++) {
		if (chance(r, 5))
			put(p, "# comment\n", 10);
		if (chance(r, 5))
			put(p, "\n", 1);
		if (chance(r, 5))
			put(p, "  ", 2);
		table_line(r, p, NULL);
	}
}

static void gen_names(struct rng *r, struct pl *p, bool buffers)
{
	char name[64];
	int n = 1 + below(r, 3), i;

	for (i = 0; i < n; i++) {
		if (buffers && chance(r, 85))
			snprintf(name, sizeof(name), "fzb%u", below(r, NR_UBUF));
		else if (buffers)
			pick_buffer(r, name, sizeof(name));
		else
			pick_ms(r, name, sizeof(name));
		putf(p, "%s%s%s", chance(r, 25) ? "!" : "", name,
		     i + 1 < n || chance(r, 85) ? "\n" : "");
	}
}

/*
 * KiB per CPU for the instance's buffer_size_kb (ftrace's file, which
 * rounds up to whole pages).  Of the odd ones, 0 and what kstrtoul()
 * refuses are EINVAL, the overflow ERANGE, 4294967304 (4 TiB) ENOMEM;
 * 7, +64 and 262145 are taken (LKST's own file took 8 to 262144).
 */
static void gen_size(struct rng *r, struct pl *p)
{
	static const char *const valid[] = {
		"8", "16", "32", "64", "128", "256", "512", "1024", "4096",
		"8192",
	};
	static const char *const odd[] = {
		"0", "7", "262145", "-1", "18446744073709551616", "abc", "8k",
		"0x10", " 256 ", "256\n\n", "", "4294967304", "1e3", "+64",
	};

	if (chance(r, 70))
		putf(p, "%s", valid[below(r, ARRAY_SIZE(valid))]);
	else
		putf(p, "%s", odd[below(r, ARRAY_SIZE(odd))]);
}

static void gen_bool(struct rng *r, struct pl *p)
{
	static const char *const vals[] = {
		"0", "1", "1", "0", "2", "y", "n", "on", "off", "yes", "Y",
		"garbage", " 1", "-1", "10",
	};

	putf(p, "%s", vals[below(r, ARRAY_SIZE(vals))]);
}

static void gen_valid(struct rng *r, int cls, struct pl *p)
{
	char name[64];

	switch (cls) {
	case FC_MASKSET:
		pick_ms(r, name, sizeof(name));
		putf(p, "%s", name);
		break;
	case FC_USER_MASKSETS:
		gen_names(r, p, false);
		return;
	case FC_USER_BUFFERS:
		gen_names(r, p, true);
		return;
	case FC_MS_BUILTIN:
	case FC_MS_USER:
		gen_table(r, p);
		return;
	case FC_SIZE:
		gen_size(r, p);
		break;
	case FC_OVERWRITE:
	case FC_TRACING_ON:
		gen_bool(r, p);
		break;
	case FC_TRACE:
	case FC_ERROR_LOG:
		/* writes are accepted and ignored; an open with O_TRUNC clears */
		if (chance(r, 50)) {
			put(p, "1", 1);
			break;
		}
		gen_valid(r, below(r, FC_TRACE), p);
		return;
	default:
		/* read-only files: what would be valid elsewhere */
		gen_valid(r, below(r, FC_TRACE), p);
		return;
	}
	if (chance(r, 85))
		put(p, "\n", 1);
}

static void mutate(struct rng *r, struct pl *p)
{
	static const char *const odd[] = { "\t", "\r", "#", " ", "\n", "!" };
	static const char *const utf8[] = { "\xc3\xa9", "\xff", "\x80", "\xe2\x80\x8b" };
	int n = 1 + below(r, 3);
	size_t at, len, i;
	char tok[4096];

	while (n--) {
		at = below(r, p->len + 1);
		switch (below(r, 8)) {
		case 0:		/* bit flip */
			if (p->len)
				p->b[at % p->len] ^= 1 << below(r, 8);
			break;
		case 1:		/* truncation */
			p->len = at;
			break;
		case 2:
			insert(p, at, "", 1);		/* NUL */
			break;
		case 3:
			insert(p, at, odd[below(r, ARRAY_SIZE(odd))], 1);
			break;
		case 4:		/* a very long token */
			len = 32 + below(r, sizeof(tok) - 32);
			for (i = 0; i < len; i++)
				tok[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-0123456789"[below(r, 38)];
			insert(p, at, tok, len);
			break;
		case 5: {	/* non-ASCII */
			const char *s = utf8[below(r, ARRAY_SIZE(utf8))];

			insert(p, at, s, strlen(s));
			break;
		}
		case 6:		/* doubled */
			if (p->len <= sizeof(tok)) {
				memcpy(tok, p->b, p->len);
				put(p, tok, p->len);
			}
			break;
		default:	/* a byte removed */
			if (at < p->len) {
				memmove(p->b + at, p->b + at + 1, p->len - at - 1);
				p->len--;
			}
			break;
		}
	}
}

/* 64 KiB to 1 MiB: repeated lines, random bytes or one token */
static void gen_huge(struct rng *r, int cls, struct pl *p)
{
	size_t want = (64 << 10) + below(r, BIG - (64 << 10) + 1), i;
	unsigned int how = below(r, 3);
	size_t last;

	if (want > p->max)
		want = p->max;
	if (how == 0) {
		while (p->len < want) {
			last = p->len;
			gen_valid(r, cls, p);
			if (p->len == last)
				put(p, "\n", 1);
		}
		p->len = want;
	} else if (how == 1) {
		for (i = 0; i < want; i++)
			p->b[i] = rnd(r);
		p->len = want;
	} else {
		memset(p->b, 'A' + below(r, 26), want);
		p->len = want;
	}
}

static void gen_payload(struct rng *r, int cls, struct pl *p)
{
	unsigned int kind = below(r, 100);
	size_t i, n;

	if (kind < 60) {
		gen_valid(r, cls, p);
	} else if (kind < 92) {
		gen_valid(r, chance(r, 80) ? cls : (int)below(r, NR_FC), p);
		mutate(r, p);
	} else {
		n = below(r, 256);
		for (i = 0; i < n; i++)
			p->b[i] = rnd(r);
		p->len = n;
	}
}

/* The worker's operations */

static void mode_str(int mode, char *out, size_t size)
{
	static const char *const acc[] = { "r", "w", "rw" };

	snprintf(out, size, "%s%s%s%s", acc[mode / 8], mode & 1 ? "+a" : "",
		 mode & 2 ? "+t" : "", mode & 4 ? "+n" : "");
}

static int pick_flags(struct rng *r, int *mode)
{
	static const int acc[] = { O_RDONLY, O_WRONLY, O_RDWR };
	int a = below(r, 3), bits = 0, flags = acc[a] | O_CLOEXEC;

	if (chance(r, 25)) {
		flags |= O_APPEND;
		bits |= 1;
	}
	if (chance(r, 12)) {
		flags |= O_TRUNC;
		bits |= 2;
	}
	if (chance(r, 50)) {
		flags |= O_NONBLOCK;
		bits |= 4;
	}
	*mode = a * 8 + bits;
	return flags;
}

static size_t pick_size(struct rng *r)
{
	static const size_t sizes[] = { 0, 1, 7, 64, 4096, 65536 };

	switch (below(r, 4)) {
	case 0:
	case 1:
		return sizes[below(r, ARRAY_SIZE(sizes))];
	case 2:
		return 1 + below(r, 8192);
	default:
		return chance(r, 10) ? BIG : 4096;
	}
}

static off_t pick_off(struct rng *r)
{
	static const off_t offs[] = { 0, 0, 1, 40, 4096, -1, (off_t)1 << 62 };

	if (chance(r, 25))
		return below(r, 1 << 20);
	return offs[below(r, ARRAY_SIZE(offs))];
}

static void close_slot(struct slot *s)
{
	int ret, e;

	if (!s->used)
		return;
	s->used = false;
	step_begin("close %s", s->tag);
	if (s->fd < 0) {
		step_end("not open");
		return;
	}
	ret = close(s->fd);
	e = account(s->cls, OP_CLOSE, ret, s->tag);
	step_end("%s", res(ret, e));
	s->fd = -1;
}

static int open_slot_fd(struct slot *s)
{
	char path[PATH_LEN * 2];

	lpath(path, sizeof(path), s->rel);
	s->fd = open(path, s->flags);
	me->modes[s->cls][s->mode]++;
	return account(s->cls, OP_OPEN, s->fd, s->rel);
}

/*
 * Whether the file opens or not (its object may not exist now), the slot
 * is in use, and the next operations on it reopen it first: so the
 * choices of the next steps do not depend on what existed.
 */
static void open_slot(struct rng *r, struct slot *s)
{
	char m[16];
	int e;

	close_slot(s);
	s->used = true;
	s->cls = pick_path(r, s->rel);
	s->flags = pick_flags(r, &s->mode);
	mode_str(s->mode, m, sizeof(m));
	snprintf(s->tag, sizeof(s->tag), "%s(%s)", s->rel, m);
	step_begin("open %s", s->tag);
	e = open_slot_fd(s);
	step_end("%s", res(s->fd, e));
}

/*
 * A raw file read without O_NONBLOCK blocks while its buffer is empty:
 * poll first and mostly skip the read when nothing is there; sometimes
 * block anyway, for 50 ms, to have a signal end the wait.
 */
static bool may_read(struct rng *r, struct slot *s)
{
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };
	int fl = fcntl(s->fd, F_GETFL);

	if (s->cls != FC_RAW || fl < 0 || (fl & O_NONBLOCK))
		return true;
	if (poll(&pfd, 1, below(r, 6)) > 0 && (pfd.revents & POLLIN))
		return true;
	if (chance(r, 10)) {
		arm_ms(50);
		return true;
	}
	return false;
}

static void op_read(struct rng *r, struct slot *s, int op)
{
	size_t size = pick_size(r), total = 0;
	int n = 1 + below(r, 4), i, e = 0;
	bool fault = chance(r, 2);
	off_t off = pick_off(r);
	char *dst = fault ? nopage - 16 : rbuf;
	struct iovec iov[3];
	ssize_t ret = 0;

	if (!may_read(r, s)) {
		step_begin("%s %s: poll says empty, skipped", op_name[op], s->tag);
		step_end("-");
		return;
	}
	if (fault && size > 4096)
		size = 4096;
	step_begin("%s %s %dx%zu%s", op_name[op], s->tag, n, size,
		   fault ? " to a bad address" : "");
	for (i = 0; i < n; i++) {
		if (op == OP_READ) {
			ret = read(s->fd, dst, size);
		} else if (op == OP_PREAD) {
			ret = pread(s->fd, dst, size, off);
			off += ret > 0 ? ret : 0;
		} else {
			iov[0].iov_base = dst;
			iov[0].iov_len = size / 3;
			iov[1].iov_base = rbuf + size / 3;
			iov[1].iov_len = 0;
			iov[2].iov_base = rbuf + size / 3;
			iov[2].iov_len = size - size / 3;
			ret = readv(s->fd, iov, 3);
		}
		e = account(s->cls, op, ret, s->tag);
		if (ret <= 0)
			break;
		total += ret;
	}
	step_end("%s, %zu bytes", res(ret, e), total);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static void op_write(struct rng *r, struct slot *s, int op)
{
	struct pl p = { big, 0, BIG };
	char show[48], cuts[64] = "";
	size_t at, k, piece, done, cut[5];
	struct iovec iov[4];
	ssize_t ret = 0;
	int e = 0, n, i;
	bool fault;

	if (op == OP_HUGE)
		gen_huge(r, s->cls, &p);
	else
		gen_payload(r, s->cls, &p);
	fault = op == OP_WRITE && chance(r, 2);
	esc(p.b, p.len, show, 40);

	switch (op) {
	case OP_WRITE:
	case OP_HUGE:
		step_begin("%s %s %zu '%s'%s", op_name[op], s->tag, p.len, show,
			   fault ? " from a bad address" : "");
		if (fault) {
			/* the payload's start, running into a PROT_NONE page */
			k = p.len < 64 ? p.len : 64;
			memcpy(nopage - k, p.b, k);
			ret = write(s->fd, nopage - k, k + 1 + below(r, 64));
		} else {
			ret = write(s->fd, p.b, p.len);
		}
		e = account(s->cls, op, ret, s->tag);
		break;
	case OP_PWRITE:
		step_begin("pwrite %s %zu '%s'", s->tag, p.len, show);
		ret = pwrite(s->fd, p.b, p.len, pick_off(r));
		e = account(s->cls, op, ret, s->tag);
		break;
	case OP_WRITEV:
		n = 2 + below(r, 3);
		for (i = 0, done = 0; i < n; i++) {
			piece = i + 1 < n ? below(r, p.len - done + 1) : p.len - done;
			iov[i].iov_base = p.b + done;
			iov[i].iov_len = piece;
			done += piece;
		}
		step_begin("writev %s %d pieces %zu '%s'", s->tag, n, p.len, show);
		ret = writev(s->fd, iov, n);
		e = account(s->cls, op, ret, s->tag);
		break;
	default:
		/* one line in 2..5 write()s, cut anywhere, even in a name */
		n = 2 + below(r, 4);
		for (i = 0; i < n - 1; i++)
			cut[i] = below(r, p.len + 1);
		cut[n - 1] = p.len;
		qsort(cut, n, sizeof(cut[0]), cmp_size);
		for (i = n - 1; i > 0; i--)
			cut[i] -= cut[i - 1];
		for (i = 0, at = 0; i < n; i++)
			at += snprintf(cuts + at, sizeof(cuts) - at, "%s%zu",
				       i ? "+" : "", cut[i]);
		step_begin("split %s %s '%s'", s->tag, cuts, show);
		for (i = 0, done = 0; i < n; i++) {
			ret = write(s->fd, p.b + done, cut[i]);
			done += cut[i];
			e = account(s->cls, op, ret, s->tag);
			if (ret < 0 && chance(r, 50))
				break;
		}
		break;
	}
	step_end("%s", res(ret, e));
}

static void drain_pipe(void)
{
	while (read(pipefd[0], rbuf, BIG) > 0)
		;
}

static void op_splice(struct rng *r, struct slot *s, int op)
{
	static const size_t lens[] = { 1, 100, 4096, 65536 };
	size_t len = lens[below(r, ARRAY_SIZE(lens))];
	unsigned int flags = SPLICE_F_NONBLOCK;
	loff_t off = pick_off(r), *offp = NULL;
	struct pl p = { big, 0, 4096 };
	ssize_t ret;
	int e;

	if (chance(r, 20))
		offp = &off;
	if (chance(r, 30))
		flags |= SPLICE_F_MOVE;
	if (op == OP_SPLICE_IN) {
		if (!may_read(r, s)) {
			step_begin("splice %s: poll says empty, skipped", s->tag);
			step_end("-");
			return;
		}
		step_begin("splice %s -> pipe %zu%s", s->tag, len,
			   offp ? " at an offset" : "");
		ret = splice(s->fd, offp, pipefd[1], NULL, len, flags);
	} else {
		gen_payload(r, s->cls, &p);
		ret = write(pipefd[1], p.b, p.len);
		step_begin("splice pipe -> %s %zd%s", s->tag, ret,
			   offp ? " at an offset" : "");
		ret = splice(pipefd[0], NULL, s->fd, offp, ret > 0 ? ret : 1,
			     flags);
	}
	e = account(s->cls, op, ret, s->tag);
	drain_pipe();
	step_end("%s", res(ret, e));
}

static void op_misc(struct rng *r, struct slot *s, int op)
{
	static const int whence[] = {
		SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE, 7,
	};
	static const char *const wname[] = {
		"SEEK_SET", "SEEK_CUR", "SEEK_END", "SEEK_DATA", "SEEK_HOLE",
		"whence 7",
	};
	static const unsigned long cmds[] = {
		FIONREAD, FIONBIO, FIOCLEX, FIONCLEX, TCGETS, FIOQSIZE,
		_IO(0, 2) /* FIGETBSZ */, _IOR('f', 1, long) /* GETFLAGS */,
		_IO('R', 0x20) /* TRACE_MMAP_IOCTL_GET_READER */, 0,
	};
	static const size_t lens[] = { 4096, 8192, 65536 };
	static const int prots[] = {
		PROT_READ, PROT_READ | PROT_WRITE, PROT_NONE,
	};
	struct pollfd pfd = { .fd = s->fd };
	struct flock fl = { .l_whence = SEEK_SET };
	unsigned long c;
	long ret;
	struct stat st;
	void *m;
	off_t off;
	int e, w, x;

	switch (op) {
	case OP_LSEEK:
		off = pick_off(r);
		x = below(r, ARRAY_SIZE(whence));
		step_begin("lseek %s %lld %s", s->tag, (long long)off, wname[x]);
		ret = lseek(s->fd, off, whence[x]);
		break;
	case OP_POLL:
		pfd.events = below(r, 8) & (POLLIN | POLLPRI | POLLOUT);
		if (!pfd.events)
			pfd.events = POLLIN;
		x = below(r, 3) * 2;
		step_begin("poll %s 0x%x %dms", s->tag, pfd.events, x);
		ret = poll(&pfd, 1, x);
		if (ret > 0)
			ret = pfd.revents;
		break;
	case OP_MMAP: {
		size_t len = lens[below(r, ARRAY_SIZE(lens))];
		int prot = prots[below(r, ARRAY_SIZE(prots))];
		int flags = chance(r, 50) ? MAP_SHARED : MAP_PRIVATE;

		off = chance(r, 80) ? 0 : 4096;
		step_begin("mmap %s %zu prot %d flags %d off %lld", s->tag, len,
			   prot, flags, (long long)off);
		m = mmap(NULL, len, prot, flags, s->fd, off);
		ret = m == MAP_FAILED ? -1 : 0;
		if (!ret)
			munmap(m, len);
		break;
	}
	case OP_IOCTL:
		c = chance(r, 40) ? (unsigned int)rnd(r) :
			cmds[below(r, ARRAY_SIZE(cmds))];
		if (c == IOCTL_FIFREEZE || c == IOCTL_FITHAW || c == FIOASYNC)
			c = 0;
		memset(rbuf, 0, 256);
		x = chance(r, 80);
		step_begin("ioctl %s 0x%lx", s->tag, c);
		ret = ioctl(s->fd, c, x ? (unsigned long)rbuf : below(r, 2));
		break;
	case OP_FCNTL:
		x = below(r, 4);
		if (x == 0) {
			step_begin("fcntl %s F_GETFL", s->tag);
			ret = fcntl(s->fd, F_GETFL);
		} else if (x == 1) {
			w = (chance(r, 50) ? O_NONBLOCK : 0) |
			    (chance(r, 30) ? O_APPEND : 0);
			step_begin("fcntl %s F_SETFL 0x%x", s->tag, w);
			ret = fcntl(s->fd, F_SETFL, w);
		} else {
			fl.l_type = x == 2 ? F_RDLCK : F_WRLCK;
			if (chance(r, 30))
				fl.l_type = F_UNLCK;
			fl.l_len = below(r, 4096);
			step_begin("fcntl %s %s %d", s->tag,
				   x == 2 ? "F_SETLK" : "F_GETLK", fl.l_type);
			ret = fcntl(s->fd, x == 2 ? F_SETLK : F_GETLK, &fl);
		}
		break;
	case OP_FSTAT:
		step_begin("fstat %s", s->tag);
		ret = fstat(s->fd, &st);
		break;
	default:
		off = below(r, 3) ? 0 : 4096;
		step_begin("ftruncate %s %lld", s->tag, (long long)off);
		ret = ftruncate(s->fd, off);
		break;
	}
	e = account(s->cls, op, ret, s->tag);
	step_end("%s", res(ret, e));
}

static void fd_op(struct rng *r, struct slot *s)
{
	int op = weighted(r, op_weight, NR_OP), e;

	if (skip_ops & (1u << op)) {
		step_begin("%s %s: skipped (-x)", op_name[op], s->tag);
		step_end("-");
		return;
	}
	if (s->fd < 0) {
		step_begin("%s %s: reopen", op_name[op], s->tag);
		e = open_slot_fd(s);
		step_end("%s", res(s->fd, e));
		if (s->fd < 0)
			return;
	}
	switch (op) {
	case OP_READ:
	case OP_PREAD:
	case OP_READV:
		op_read(r, s, op);
		break;
	case OP_WRITE:
	case OP_SPLIT:
	case OP_HUGE:
	case OP_PWRITE:
	case OP_WRITEV:
		op_write(r, s, op);
		break;
	case OP_SPLICE_IN:
	case OP_SPLICE_OUT:
		op_splice(r, s, op);
		break;
	default:
		op_misc(r, s, op);
		break;
	}
}

/*
 * A valid command in one open-write-close, as a shell would do it: this
 * is what makes masksets, buffers and tables come and go under the files
 * the workers hold.
 */
static void oneshot(struct rng *r)
{
	static const unsigned char w[] = {
		[FC_MASKSET] = 25, [FC_USER_MASKSETS] = 20,
		[FC_USER_BUFFERS] = 15, [FC_MS_USER] = 25, [FC_SIZE] = 5,
		[FC_OVERWRITE] = 3, [FC_TRACING_ON] = 4, [FC_TRACE] = 3,
	};
	struct pl p = { big, 0, TEXT_MAX };
	char rel[PATH_LEN];
	int cls = weighted(r, w, ARRAY_SIZE(w));
	int flags = chance(r, 50) ? O_TRUNC : O_APPEND;

	/* "> user_masksets" removes them all: not too often */
	if ((cls == FC_USER_MASKSETS || cls == FC_USER_BUFFERS) && chance(r, 80))
		flags = O_APPEND;
	if (cls == FC_MS_USER) {
		snprintf(rel, sizeof(rel), "masksets/fzm%u", below(r, NR_UMS));
	} else if (cls >= FC_SIZE) {
		char dir[32] = "";

		if (chance(r, 50))
			snprintf(dir, sizeof(dir), "buffers/fzb%u/", below(r, NR_UBUF));
		buf_path(rel, sizeof(rel), dir, fc_name[cls]);
	} else {
		snprintf(rel, sizeof(rel), "%s", fc_name[cls]);
	}
	gen_valid(r, cls, &p);
	p.b[p.len] = '\0';
	if (strlen(p.b) != p.len)
		p.len = strlen(p.b);
	cmd(rel, flags, p.b);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void pause_point(void)
{
	if (!__atomic_load_n(&sh->pause, __ATOMIC_ACQUIRE))
		return;
	__atomic_store_n(&me->paused, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&sh->pause, __ATOMIC_ACQUIRE) && !stopping() &&
	       now() < deadline + GRACE_S)
		sleep_ms(2);
	__atomic_store_n(&me->paused, 0, __ATOMIC_RELEASE);
}

static void worker_step(struct rng *r, struct slot *slots)
{
	unsigned int what = below(r, 100);
	struct slot *s = &slots[below(r, MAX_SLOTS)];

	if (what < 6) {
		oneshot(r);
	} else if (what < 8) {
		step_begin("rediscover");
		discover();
		if (nonline > 1)
			pin((me - sh->p) % nonline);
		step_end("%d files", nfound);
	} else if (what < 22 || !s->used) {
		open_slot(r, s);
	} else if (what < 30) {
		close_slot(s);
	} else {
		fd_op(r, s);
	}
}

static void proc_setup(int idx, const char *name)
{
	void *pages;

	me = &sh->p[idx];
	me->pid = getpid();
	snprintf(me->name, sizeof(me->name), "%s", name);
	big = malloc(BIG + 1);
	rbuf = malloc(BIG);
	pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!big || !rbuf || pages == MAP_FAILED ||
	    mprotect((char *)pages + 4096, 4096, PROT_NONE) ||
	    pipe2(pipefd, O_NONBLOCK | O_CLOEXEC)) {
		say("# %s: out of memory\n", name);
		_exit(2);
	}
	nopage = (char *)pages + 4096;
	__atomic_store_n(&me->running, 1, __ATOMIC_RELEASE);
}

static void worker(int idx)
{
	struct slot slots[MAX_SLOTS];
	struct rng rng, sr;
	char name[16];
	int i;

	snprintf(name, sizeof(name), "w%d", idx);
	proc_setup(idx, name);
	rng_seed(&rng, seed + idx);
	if (nonline > 1)
		pin(idx % nonline);
	for (i = 0; i < MAX_SLOTS; i++) {
		slots[i].used = false;
		slots[i].fd = -1;
	}
	discover();
	while (!stopping() && now() < deadline) {
		pause_point();
		rng_seed(&sr, rnd(&rng));
		me->steps++;
		arm_ms(STEP_MS);
		worker_step(&sr, slots);
		arm_ms(0);
	}
	for (i = 0; i < MAX_SLOTS; i++)
		close_slot(&slots[i]);
	_exit(0);
}

/* Commands, as the chaos process and the final check run them */

static int cmd(const char *rel, int flags, const char *text)
{
	char path[PATH_LEN * 2], show[48];
	int cls = classify(rel), fd, ret = 0;
	size_t len = strlen(text);
	ssize_t n;

	lpath(path, sizeof(path), rel);
	esc(text, len, show, 40);
	step_begin("%s '%s' %s %s", flags & O_TRUNC ? "trunc" : "append", show,
		   flags & O_TRUNC ? ">" : ">>", rel);
	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (account(cls, OP_OPEN, fd, rel)) {
		ret = -errno;
	} else {
		if (len) {
			n = write(fd, text, len);
			if (account(cls, OP_WRITE, n, rel))
				ret = -errno;
		}
		account(cls, OP_CLOSE, close(fd), rel);
	}
	step_end("%s", ret ? errname(-ret) : "ok");
	return ret;
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/* Split text into lines (in place), skipping empty ones */
static int lines(char *text, char **out, int max)
{
	char *save, *l;
	int n = 0;

	for (l = strtok_r(text, "\n", &save); l && n < max;
	     l = strtok_r(NULL, "\n", &save))
		out[n++] = l;
	return n;
}

static bool in_list(char **list, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static int switch_to(const char *name)
{
	char text[64];
	int ret;

	snprintf(text, sizeof(text), "%s\n", name);
	ret = cmd("maskset", O_TRUNC, text);
	me->count[ret ? C_SWITCH_FAIL : C_SWITCH]++;
	return ret;
}

/* The state checks: see the top of the file */

static char t_cur[128], t_av[16384], t_um[16384], t_ub[4096], t_ev[16384];
static char t_hd[4096], t_tab[65536], t_st[512];

/* a. exactly one maskset in brackets, the current one */
static bool check_current(const char *when, const char *expect)
{
	char *l[MAX_UMS + 8], cur2[128];
	int n, i, nbr, tries;
	const char *br;

	for (tries = 0; tries < 5; tries++) {
		if (read_rel("maskset", t_cur, sizeof(t_cur)) < 0 ||
		    read_rel("available_masksets", t_av, sizeof(t_av)) < 0 ||
		    read_rel("maskset", cur2, sizeof(cur2)) < 0) {
			fail("%s: cannot read maskset or available_masksets: %s",
			     when, strerror(errno));
			return false;
		}
		/* a handler (lkst_escalate) may switch meanwhile */
		if (strcmp(t_cur, cur2))
			continue;
		trim(t_cur);
		n = lines(t_av, l, ARRAY_SIZE(l));
		for (i = 0, nbr = 0, br = NULL; i < n; i++) {
			size_t len = strlen(l[i]);

			if (l[i][0] == '[' && l[i][len - 1] == ']') {
				nbr++;
				l[i][len - 1] = '\0';
				br = l[i] + 1;
			}
		}
		if (nbr != 1) {
			fail("%s: available_masksets shows %d masksets in brackets",
			     when, nbr);
			return false;
		}
		if (strcmp(br, t_cur)) {
			if (tries < 4)
				continue;
			fail("%s: maskset reads '%s', available_masksets has [%s]",
			     when, t_cur, br);
			return false;
		}
		if (expect && strcmp(t_cur, expect)) {
			fail("%s: maskset reads '%s' after '%s' was written",
			     when, t_cur, expect);
			return false;
		}
		return true;
	}
	fail("%s: maskset keeps changing", when);
	return false;
}

/* b. user masksets and buffers: listed, and their files there */
static bool check_names(const char *when, char **um, int *num, char **ub,
			int *nub)
{
	char *av[MAX_UMS + 64], path[PATH_LEN * 2];
	struct dirent *de;
	struct stat st;
	int nav, i;
	DIR *d;

	if (read_rel("user_masksets", t_um, sizeof(t_um)) < 0 ||
	    read_rel("available_masksets", t_av, sizeof(t_av)) < 0 ||
	    read_rel("user_buffers", t_ub, sizeof(t_ub)) < 0) {
		fail("%s: cannot read the lists of masksets and buffers: %s",
		     when, strerror(errno));
		return false;
	}
	*num = lines(t_um, um, MAX_UMS + 64);
	*nub = lines(t_ub, ub, MAX_UBUF + 16);
	nav = lines(t_av, av, ARRAY_SIZE(av));
	for (i = 0; i < nav; i++) {
		size_t len = strlen(av[i]);

		if (av[i][0] == '[' && av[i][len - 1] == ']') {
			av[i][len - 1] = '\0';
			av[i]++;
		}
		if (!is_builtin_ms(av[i]) && !in_list(um, *num, av[i])) {
			fail("%s: %s is in available_masksets, not in user_masksets",
			     when, av[i]);
			return false;
		}
	}
	if (*num > MAX_UMS || *nub > MAX_UBUF) {
		fail("%s: %d user masksets, %d user buffers: more than the limits",
		     when, *num, *nub);
		return false;
	}
	for (i = 0; i < *num; i++) {
		lpath(path, sizeof(path), "masksets/");
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "%s",
			 um[i]);
		if (in_list(um, i, um[i]) || is_builtin_ms(um[i])) {
			fail("%s: user_masksets lists %s twice or a built-in one",
			     when, um[i]);
			return false;
		}
		if (!in_list(av, nav, um[i])) {
			fail("%s: user maskset %s is not in available_masksets",
			     when, um[i]);
			return false;
		}
		if (stat(path, &st) || !S_ISREG(st.st_mode)) {
			fail("%s: user maskset %s has no file masksets/%s",
			     when, um[i], um[i]);
			return false;
		}
	}
	for (i = 0; i < *nub; i++) {
		lpath(path, sizeof(path), "buffers/");
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "%s",
			 ub[i]);
		if (in_list(ub, i, ub[i]) || stat(path, &st) ||
		    !S_ISDIR(st.st_mode)) {
			fail("%s: user buffer %s is listed twice or has no directory buffers/%s/",
			     when, ub[i], ub[i]);
			return false;
		}
	}
	/* and nothing else */
	lpath(path, sizeof(path), "masksets");
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || is_builtin_ms(de->d_name) ||
		    in_list(um, *num, de->d_name))
			continue;
		fail("%s: masksets/%s exists, but no such maskset", when,
		     de->d_name);
		closedir(d);
		return false;
	}
	if (d)
		closedir(d);
	lpath(path, sizeof(path), "buffers");
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || in_list(ub, *nub, de->d_name))
			continue;
		fail("%s: buffers/%s/ exists, but no such buffer", when,
		     de->d_name);
		closedir(d);
		return false;
	}
	if (d)
		closedir(d);
	return true;
}

/* c. every table line: a known event, handler and buffer, in ID order */
static bool check_tables(const char *when, char **ub, int nub)
{
	char *ev[MAX_NAMES], *hd[MAX_NAMES], *ms[MAX_UMS + 64], *tl[512];
	char msname[64], rel[PATH_LEN], *f[4], *save, line[256];
	int evid[MAX_NAMES], nev, nhd, nms, ntl, i, j, k, nf, id, last;

	if (read_rel("available_events", t_ev, sizeof(t_ev)) < 0 ||
	    read_rel("available_handlers", t_hd, sizeof(t_hd)) < 0 ||
	    read_rel("available_masksets", t_av, sizeof(t_av)) < 0) {
		fail("%s: cannot read available_*: %s", when, strerror(errno));
		return false;
	}
	nev = lines(t_ev, ev, MAX_NAMES);
	for (i = 0; i < nev; i++) {
		evid[i] = atoi(ev[i]);
		ev[i] = strtok_r(ev[i], " ", &save);
		ev[i] = strtok_r(NULL, " ", &save);
		if (!ev[i])
			ev[i] = "";
	}
	nhd = lines(t_hd, hd, MAX_NAMES);
	for (i = 0; i < nhd; i++) {
		hd[i] = strchr(hd[i], ' ');
		hd[i] = hd[i] ? hd[i] + 1 : "";
	}
	nms = lines(t_av, ms, ARRAY_SIZE(ms));
	for (i = 0; i < nms; i++) {
		snprintf(msname, sizeof(msname), "%s",
			 ms[i][0] == '[' ? ms[i] + 1 : ms[i]);
		if (msname[0] && msname[strlen(msname) - 1] == ']')
			msname[strlen(msname) - 1] = '\0';
		snprintf(rel, sizeof(rel), "masksets/%s", msname);
		if (read_rel(rel, t_tab, sizeof(t_tab)) < 0) {
			fail("%s: cannot read %s: %s", when, rel,
			     strerror(errno));
			return false;
		}
		ntl = lines(t_tab, tl, ARRAY_SIZE(tl));
		for (j = 0, last = 0; j < ntl; j++) {
			me->count[C_TABLE_LINES]++;
			snprintf(line, sizeof(line), "%s", tl[j]);
			for (nf = 0, f[0] = tl[j]; nf < 4 && f[nf]; ) {
				char *sp = strchr(f[nf], ' ');

				nf++;
				if (!sp || nf == 4)
					break;
				*sp = '\0';
				f[nf] = sp + 1;
			}
			for (k = 0; k < nev && nf > 1; k++)
				if (!strcmp(ev[k], f[0]))
					break;
			id = k < nev ? evid[k] : -1;
			if (nf < 2 || nf > 3 || !*f[0] || !*f[1] ||
			    (nf == 3 && !*f[2]) || id < 0 ||
			    !in_list(hd, nhd, f[1]) ||
			    (nf == 3 && strcmp(f[2], "default") &&
			     !in_list(ub, nub, f[2]))) {
				fail("%s: %s has the line '%s'", when, rel, line);
				return false;
			}
			if (id <= last) {
				fail("%s: %s: '%s' is not in event ID order",
				     when, rel, line);
				return false;
			}
			last = id;
		}
	}
	return true;
}

static int parse_stats(char *text, unsigned long *v)
{
	static const char *const keys[] = {
		"entries:", "overrun:", "dropped events:", "read events:",
	};
	char *l[16];
	int n = lines(text, l, 16), i, k, got = 0;

	for (i = 0; i < n; i++) {
		for (k = 0; k < 4; k++) {
			size_t len = strlen(keys[k]);

			if (!strncmp(l[i], keys[k], len)) {
				v[k] = strtoul(l[i] + len, NULL, 10);
				got |= 1 << k;
			}
		}
	}
	return got == 0xf ? 0 : -1;
}

/* No record lands with RNOTHING current: two reads 10 ms apart agree */
static bool check_stats(const char *when, const char *rel)
{
	unsigned long v[4], prev[4];
	int tries, ret;

	memset(prev, 0xff, sizeof(prev));
	for (tries = 0; tries < 10; tries++) {
		ret = read_rel(rel, t_st, sizeof(t_st));
		if (ret < 0 || parse_stats(t_st, v)) {
			fail("%s: cannot read or parse %s: %s", when, rel,
			     ret < 0 ? strerror(-ret) : "bad format");
			return false;
		}
		if (!memcmp(v, prev, sizeof(v))) {
			me->count[C_STATS_STILL]++;
			return true;
		}
		memcpy(prev, v, sizeof(v));
		sleep_ms(10);
	}
	fail("%s: %s: still changing with RNOTHING current: entries %lu overrun %lu dropped %lu read %lu",
	     when, rel, v[0], v[1], v[2], v[3]);
	return false;
}

/* d. nothing is written with RNOTHING current */
static bool check_stats_still(const char *when, char **ub, int nub)
{
	char rel[PATH_LEN], dir[64], file[32];
	int b, cpu;

	for (b = -1; b < nub; b++) {
		if (b < 0)
			dir[0] = '\0';
		else
			snprintf(dir, sizeof(dir), "buffers/%s/", ub[b]);
		for (cpu = 0; cpu < ncpus; cpu++) {
			snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
			buf_path(rel, sizeof(rel), dir, file);
			if (!check_stats(when, rel))
				return false;
		}
	}
	return true;
}

/*
 * All four, with nobody else changing anything: stop recording first,
 * so that the stats stand still.
 */
static void checks(const char *when)
{
	char *um[MAX_UMS + 64], *ub[MAX_UBUF + 16];
	int num, nub, tries;

	me->count[C_CHECK]++;
	if (!check_current(when, NULL))
		return;
	for (tries = 0; tries < 3; tries++) {
		switch_to("RNOTHING");
		sleep_ms(20);
		if (read_rel("maskset", t_cur, sizeof(t_cur)) > 0 &&
		    !strcmp(t_cur, "RNOTHING\n"))
			break;
	}
	if (!check_current(when, "RNOTHING"))
		return;
	if (!check_names(when, um, &num, ub, &nub))
		return;
	if (!check_tables(when, ub, nub))
		return;
	check_stats_still(when, ub, nub);
}

static bool quiesce(void)
{
	double t0 = now();
	int i;

	__atomic_store_n(&sh->pause, 1, __ATOMIC_RELEASE);
	for (;;) {
		for (i = 0; i < nworkers; i++) {
			struct proc *w = &sh->p[i];

			if (__atomic_load_n(&w->running, __ATOMIC_ACQUIRE) &&
			    !__atomic_load_n(&w->exited, __ATOMIC_ACQUIRE) &&
			    !__atomic_load_n(&w->paused, __ATOMIC_ACQUIRE))
				break;
		}
		if (i == nworkers)
			return true;
		if (stopping() || now() - t0 > PAUSE_S) {
			if (!stopping())
				say("# note: %s did not pause within %d s, check skipped\n",
				    sh->p[i].name, PAUSE_S);
			return false;
		}
		sleep_ms(2);
	}
}

static void check_all(const char *when)
{
	if (quiesce())
		checks(when);
	else
		me->count[C_CHECK_SKIP]++;
	__atomic_store_n(&sh->pause, 0, __ATOMIC_RELEASE);
}

/* The chaos process and its helper */

static pid_t helper_pid;

static void helper_storm(struct rng *r)
{
	char name[64];

	while (!__atomic_load_n(&sh->helper_stop, __ATOMIC_ACQUIRE) &&
	       !stopping() && now() < deadline) {
		pick_ms(r, name, sizeof(name));
		if (chance(r, 70))
			snprintf(name, sizeof(name), "%s", builtin_ms[below(r, 3)]);
		switch_to(name);
	}
}

static void helper_reader(struct rng *r, const char *dir)
{
	char rel[PATH_LEN], path[PATH_LEN * 2];
	struct pollfd pfd = { .events = POLLIN };
	int cpu, fd;
	ssize_t ret;

	while (!__atomic_load_n(&sh->helper_stop, __ATOMIC_ACQUIRE) &&
	       !stopping() && now() < deadline) {
		cpu = below(r, ncpus);
		snprintf(rel, sizeof(rel), "%sper_cpu/cpu%d/raw", dir, cpu);
		lpath(path, sizeof(path), rel);
		step_begin("read %s until empty", rel);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (account(FC_RAW, OP_OPEN, fd, rel)) {
			step_end("%s", errname(errno));
			sleep_ms(10);
			continue;
		}
		pfd.fd = fd;
		poll(&pfd, 1, 5);
		do {
			ret = read(fd, rbuf, chance(r, 50) ? 4096 : 100);
			account(FC_RAW, OP_READ, ret, rel);
		} while (ret > 0 &&
			 !__atomic_load_n(&sh->helper_stop, __ATOMIC_ACQUIRE));
		step_end("%s", res(ret, errno));
		close(fd);
	}
}

static void helper_start(struct rng *r, bool storm, const char *dir)
{
	struct rng hr;
	int idx = nworkers + 1;

	rng_seed(&hr, rnd(r));
	__atomic_store_n(&sh->helper_stop, 0, __ATOMIC_RELEASE);
	snprintf(sh->p[idx].name, sizeof(sh->p[idx].name), "helper");
	sh->p[idx].steps = me->steps;	/* the chaos step it helps */
	__atomic_store_n(&sh->p[idx].exited, 0, __ATOMIC_RELEASE);
	helper_pid = fork();
	if (helper_pid) {
		if (helper_pid > 0)
			sh->p[idx].pid = helper_pid;
		return;
	}
	me = &sh->p[idx];
	if (storm)
		helper_storm(&hr);
	else
		helper_reader(&hr, dir);
	_exit(0);
}

static void helper_stop(void)
{
	double t0 = now();

	if (helper_pid <= 0)
		return;
	__atomic_store_n(&sh->helper_stop, 1, __ATOMIC_RELEASE);
	while (waitpid(helper_pid, NULL, WNOHANG) == 0) {
		if (now() - t0 > GRACE_S) {
			kill(helper_pid, SIGKILL);
			waitpid(helper_pid, NULL, 0);
			break;
		}
		sleep_ms(5);
	}
	__atomic_store_n(&sh->p[nworkers + 1].exited, 1, __ATOMIC_RELEASE);
	helper_pid = 0;
}

/* Run modprobe ARGS...; its exit status, or -1 */
static int run_modprobe(char *const argv[])
{
	double t0 = now();
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open("/dev/null", O_RDWR);
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execvp("modprobe", argv);
		_exit(127);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now() - t0 > MODPROBE_S) {
			say("# note: %s: modprobe did not finish in %d s\n",
			    me->name, MODPROBE_S);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		sleep_ms(10);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool module_loaded(const char *mod)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/module/%s", mod);
	return !stat(path, &st);
}

static int load_module(struct rng *r, int m)
{
	char a1[96], a2[64], pid[16];
	char *const argv[] = {
		"modprobe", (char *)sample_mod[m], a1, m ? a2 : NULL, NULL
	};
	int ret;

	snprintf(pid, sizeof(pid), "%d",
		 chance(r, 70) ? sh->p[below(r, nworkers)].pid : -1);
	switch (m) {
	case 0:
		snprintf(a1, sizeof(a1), "target_pid=%s",
			 chance(r, 90) ? pid : "abc");
		break;
	case 1:
		pick_ms(r, a2, sizeof(a2));
		snprintf(a1, sizeof(a1), "detail=%s",
			 chance(r, 50) ? "RALL" : a2);
		snprintf(a2, sizeof(a2), "slow_syscall_us=%u",
			 chance(r, 50) ? 0 : below(r, 100));
		break;
	default:
		snprintf(a2, sizeof(a2), "fzb%u", below(r, NR_UBUF));
		snprintf(a1, sizeof(a1), "buffer=%s",
			 chance(r, 80) ? a2 : "nobuf");
		snprintf(a2, sizeof(a2), "target_pid=%s", pid);
		break;
	}
	step_begin("modprobe %s %s %s", sample_mod[m], a1, argv[3] ? a2 : "");
	ret = run_modprobe(argv);
	step_end("%d", ret);
	me->count[ret ? C_LOAD_FAIL : C_LOAD]++;
	return ret;
}

static int unload_module(int m)
{
	char *const argv[] = {
		"modprobe", "-r", (char *)sample_mod[m], NULL
	};
	int ret;

	step_begin("modprobe -r %s", sample_mod[m]);
	ret = run_modprobe(argv);
	step_end("%d", ret);
	me->count[ret ? C_UNLOAD_FAIL : C_UNLOAD]++;
	return ret;
}

static void ch_names(struct rng *r)
{
	struct pl p = { big, 0, TEXT_MAX };
	char text[64], rel[64];
	int n = 1 + below(r, 4), k, ret;

	while (n-- && !stopping()) {
		k = below(r, NR_UMS);
		switch (below(r, 20)) {
		case 0 ... 6:
			snprintf(text, sizeof(text), "fzm%d\n", k);
			if (!cmd("user_masksets", O_APPEND, text))
				me->count[C_CREATE]++;
			if (chance(r, 60)) {
				p.len = 0;
				gen_table(r, &p);
				p.b[p.len] = '\0';
				snprintf(rel, sizeof(rel), "masksets/fzm%d", k);
				cmd(rel, O_TRUNC, p.b);
			}
			break;
		case 7 ... 9:
			if (chance(r, 50))
				switch_to("RNOTHING");
			snprintf(text, sizeof(text), "!fzm%d\n", k);
			if (!cmd("user_masksets", O_APPEND, text))
				me->count[C_REMOVE]++;
			break;
		case 10 ... 15:
			snprintf(text, sizeof(text), "fzb%d\n", k % NR_UBUF);
			if (!cmd("user_buffers", O_APPEND, text))
				me->count[C_CREATE]++;
			break;
		case 16 ... 18:
			/* tables naming a buffer keep it: empty them first */
			for (k = 0; chance(r, 60) && k < NR_UMS; k++) {
				snprintf(rel, sizeof(rel), "masksets/fzm%d", k);
				cmd(rel, O_TRUNC, "#\n");
			}
			snprintf(text, sizeof(text), "!fzb%d\n",
				 (int)below(r, NR_UBUF));
			if (!cmd("user_buffers", O_APPEND, text))
				me->count[C_REMOVE]++;
			break;
		default:
			ret = cmd(chance(r, 50) ? "user_masksets" : "user_buffers",
				  O_TRUNC, "");
			if (!ret)
				me->count[C_REMOVE]++;
			break;
		}
	}
}

/* Create masksets and buffers up to the limits, and one more. */
static void ch_limits(struct rng *r)
{
	bool buffers = chance(r, 40);
	int max = buffers ? MAX_UBUF : MAX_UMS, i, ret, made = 0;
	const char *list = buffers ? "user_buffers" : "user_masksets";
	char text[32];

	for (i = 0; i <= max && !stopping(); i++) {
		snprintf(text, sizeof(text), "fzx%d\n", i);
		ret = cmd(list, O_APPEND, text);
		if (ret == -ENOSPC)
			break;
		made += !ret;
	}
	me->count[C_CREATE] += made;
	check_all("at the limits");
	for (i = 0; i <= max; i++) {
		snprintf(text, sizeof(text), "!fzx%d\n", i);
		if (!cmd(list, O_APPEND, text))
			me->count[C_REMOVE]++;
	}
}

static void ch_storm(struct rng *r)
{
	double end = now() + (200 + below(r, 1300)) / 1000.0;
	char name[64];
	int n = 0;

	if (chance(r, 30))
		helper_start(r, true, NULL);
	while (now() < end && now() < deadline && !stopping()) {
		pick_ms(r, name, sizeof(name));
		switch_to(name);
		n++;
	}
	helper_stop();
}

static void ch_module(struct rng *r)
{
	static const char *const uses[][2] = {
		{ "PROCESS_CONTEXTSWITCH", "SYSCALL_ENTRY" },
		{ "PROCESS_SIGSEND", "SYSCALL_EXIT" },
		{ "PROCESS_CONTEXTSWITCH", "SYSCALL_EXIT" },
	};
	int m = below(r, 3), k = below(r, NR_UMS), i, n;
	struct pl p = { big, 0, TEXT_MAX };
	char rel[64], name[16], text[128];

	if (!have_modprobe) {
		sleep_ms(100);
		return;
	}
	helper_start(r, true, NULL);		/* under a switch storm */
	if (load_module(r, m) || chance(r, 10))
		goto out;
	snprintf(name, sizeof(name), "fzm%d", k);
	snprintf(rel, sizeof(rel), "masksets/%s", name);
	snprintf(text, sizeof(text), "%s\n", name);
	cmd("user_masksets", O_APPEND, text);
	if (chance(r, 30))
		table_all(&p, sample_handler[m], NULL);
	else
		for (i = 0; i < 2; i++)
			putf(&p, "%s %s\n", uses[m][i], sample_handler[m]);
	p.b[p.len] = '\0';
	cmd(rel, O_TRUNC, p.b);
	for (n = 1 + below(r, 4); n-- && !stopping(); ) {
		switch_to(name);
		if (m == 1 && chance(r, 50))
			write_abs("/sys/module/lkst_escalate/parameters/slow_syscall_us",
				  O_TRUNC, chance(r, 50) ? "1" : "0");
		sleep_ms(below(r, 200));
	}
	if (chance(r, 40))
		unload_module(m);	/* in use: must fail */
	switch_to("RNOTHING");
	cmd(rel, O_TRUNC, "#\n");
out:
	helper_stop();
	if (!module_loaded(sample_mod[m]) || chance(r, 20))
		return;
	/* the workers' tables may name its handler too */
	if (chance(r, 50)) {
		for (k = 0; k < NR_UMS; k++) {
			snprintf(rel, sizeof(rel), "masksets/fzm%d", k);
			cmd(rel, O_TRUNC, "#\n");
		}
	}
	unload_module(m);
}

/*
 * Through the instance's buffer_size_kb (ftrace's): EBUSY while a reader
 * holds the buffer's pages (the instance's trace open for reading, a
 * raw_copy) or for a persistent buffer, ENOMEM when memory is short;
 * nothing is written to the error log.
 */
static void resize(struct rng *r, const char *dir)
{
	static const char *const sizes[] = {
		"8", "16", "64", "256", "1024", "4096",
	};
	char rel[PATH_LEN];
	const char *size;
	int ret;

	size = chance(r, 2) ? "262144" : sizes[below(r, ARRAY_SIZE(sizes))];
	buf_path(rel, sizeof(rel), dir, "buffer_size_kb");
	ret = cmd(rel, O_TRUNC, size);
	me->count[ret ? C_RESIZE_FAIL : C_RESIZE]++;
}

static void pick_dir(struct rng *r, char *dir, size_t size)
{
	if (chance(r, 40))
		dir[0] = '\0';
	else
		snprintf(dir, size, "buffers/fzb%u/", below(r, NR_UBUF));
}

static void ch_resize(struct rng *r)
{
	char dir[64], text[64], rel[64];
	struct pl p = { big, 0, TEXT_MAX };
	int n = 3 + below(r, 4), k;

	pick_dir(r, dir, sizeof(dir));
	if (dir[0] && chance(r, 60)) {
		/* record everything into that buffer */
		k = below(r, NR_UMS);
		snprintf(text, sizeof(text), "fzm%d\n", k);
		cmd("user_masksets", O_APPEND, text);
		snprintf(text, sizeof(text), "%.*s", (int)strlen(dir) - 9,
			 dir + 8);
		table_all(&p, "DEFAULT", text);
		p.b[p.len] = '\0';
		snprintf(rel, sizeof(rel), "masksets/fzm%d", k);
		cmd(rel, O_TRUNC, p.b);
		snprintf(text, sizeof(text), "fzm%d", k);
		switch_to(text);
	} else {
		switch_to("RALL");
	}
	helper_start(r, false, dir);		/* and read it meanwhile */
	while (n-- && !stopping()) {
		resize(r, dir);
		sleep_ms(10 + below(r, 200));
	}
	helper_stop();
	resize(r, dir);
}

static int cpu1_set(const char *v)
{
	int ret, tries;

	for (tries = 0; tries < 10; tries++) {
		step_begin("echo %s > %s", v, cpu1_online);
		ret = write_abs(cpu1_online, O_TRUNC, v);
		step_end("%s", ret ? errname(-ret) : "ok");
		if (!ret || ret != -EBUSY)
			break;
		sleep_ms(100);
	}
	return ret;
}

static void ch_hotplug(struct rng *r)
{
	char dir[64];

	if (!have_hotplug) {
		sleep_ms(100);
		return;
	}
	switch_to(chance(r, 70) ? "RALL" : "RDEFAULT");
	pick_dir(r, dir, sizeof(dir));
	if (chance(r, 50))
		helper_start(r, false, dir);
	if (!cpu1_set("0")) {
		me->count[C_OFFLINE]++;
		sleep_ms(50 + below(r, 400));
		if (chance(r, 30))
			resize(r, dir);		/* a resize with a CPU away */
	}
	if (cpu1_set("1"))
		fail("CPU 1 could not be brought back online: %s",
		     strerror(errno));
	else
		me->count[C_ONLINE]++;
	helper_stop();
	sleep_ms(50);
}

static void ch_toggle(struct rng *r)
{
	/* trace: opened with O_TRUNC, it clears */
	static const char *const files[] = { "tracing_on", "overwrite", "trace" };
	int n = 3 + below(r, 6);
	char dir[64], rel[PATH_LEN];

	switch_to(chance(r, 50) ? "RALL" : "RDEFAULT");
	while (n-- && !stopping()) {
		pick_dir(r, dir, sizeof(dir));
		buf_path(rel, sizeof(rel), dir, files[below(r, ARRAY_SIZE(files))]);
		cmd(rel, O_TRUNC, chance(r, 50) ? "0" : "1");
		sleep_ms(below(r, 100));
	}
}

static void ch_errlog(struct rng *r)
{
	struct pollfd pfd = { .events = POLLIN | POLLPRI };
	char path[PATH_LEN * 2];

	if (chance(r, 50))
		cmd(ERROR_LOG, O_TRUNC, "");
	step_begin("read error_log and notify");
	read_rel(ERROR_LOG, t_tab, sizeof(t_tab));
	lpath(path, sizeof(path), "notify");
	pfd.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (pfd.fd >= 0) {
		poll(&pfd, 1, below(r, 50));
		close(pfd.fd);
	}
	read_rel("notify", t_cur, sizeof(t_cur));
	step_end("%s", t_cur);
}

static void chaos_main(int idx)
{
	struct rng rng, sr;
	char when[64];
	int ch;

	proc_setup(idx, "chaos");
	rng_seed(&rng, seed + idx);
	while (!stopping() && now() < deadline) {
		rng_seed(&sr, rnd(&rng));
		me->steps++;
		ch = weighted(&sr, ch_weight, NR_CH);
		if (skip_chaos & (1u << ch))
			ch = CH_IDLE;
		me->chaos[ch]++;
		step_begin("chaos: %s", ch_name[ch]);
		step_end("...");
		switch (ch) {
		case CH_NAMES:
			ch_names(&sr);
			break;
		case CH_LIMITS:
			ch_limits(&sr);
			break;
		case CH_STORM:
			ch_storm(&sr);
			break;
		case CH_MODULE:
			ch_module(&sr);
			break;
		case CH_RESIZE:
			ch_resize(&sr);
			break;
		case CH_HOTPLUG:
			ch_hotplug(&sr);
			break;
		case CH_TOGGLE:
			ch_toggle(&sr);
			break;
		case CH_ERRLOG:
			ch_errlog(&sr);
			break;
		default:
			sleep_ms(100 + below(&sr, 400));
			break;
		}
		if (stopping())
			break;
		snprintf(when, sizeof(when), "after chaos step %llu (%s)",
			 me->steps, ch_name[ch]);
		check_all(when);
	}
	_exit(0);
}

/* The end: check, then put everything back, then check again */

static bool restore_state(void)
{
	char *um[MAX_UMS + 64], rel[PATH_LEN], text[64];
	int n, i, m, tries, ret;
	bool ok = true;

	switch_to("RNOTHING");
	/* tables pin the handler modules: empty them first */
	if (read_rel("user_masksets", t_um, sizeof(t_um)) >= 0) {
		n = lines(t_um, um, ARRAY_SIZE(um));
		for (i = 0; i < n; i++) {
			snprintf(rel, sizeof(rel), "masksets/%s", um[i]);
			cmd(rel, O_TRUNC, "#\n");
		}
	}
	for (m = 0; m < 3; m++) {
		for (tries = 0; module_loaded(sample_mod[m]) && tries < 20; tries++) {
			step_begin("delete_module %s", sample_mod[m]);
			ret = syscall(SYS_delete_module, sample_mod[m], O_NONBLOCK);
			step_end("%s", res(ret, errno));
			if (ret)
				sleep_ms(100);
		}
		if (module_loaded(sample_mod[m])) {
			fail("cannot unload %s at the end", sample_mod[m]);
			ok = false;
		}
	}
	if (cmd("user_masksets", O_TRUNC, "") &&
	    read_rel("user_masksets", t_um, sizeof(t_um)) >= 0) {
		n = lines(t_um, um, ARRAY_SIZE(um));
		for (i = 0; i < n; i++) {
			snprintf(text, sizeof(text), "!%s\n", um[i]);
			cmd("user_masksets", O_APPEND, text);
		}
	}
	if (cmd("user_buffers", O_TRUNC, "")) {
		fail("cannot remove the user buffers at the end");
		ok = false;
	}
	/*
	 * A buffer removed while a worker held one of its instance's files
	 * open leaves the instance, unpinned (trace_array_destroy_pinned()):
	 * it goes now, and then none may be left.
	 */
	for (i = 0; i < NR_UBUF; i++) {
		char rel[64], path[PATH_LEN * 2];

		snprintf(rel, sizeof(rel), "../instances/lkst.fzb%d", i);
		lpath(path, sizeof(path), rel);
		if (rmdir(path) && errno != ENOENT) {
			fail("cannot remove instances/lkst.fzb%d at the end: %s",
			     i, strerror(errno));
			ok = false;
		}
	}
	if (have_hotplug && read_abs(cpu1_online, t_cur, sizeof(t_cur)) > 0 &&
	    t_cur[0] == '0' && cpu1_set("1")) {
		fail("cannot bring CPU 1 back online at the end");
		ok = false;
	}
	/*
	 * The size as the instance's buffer_size_kb read at the start (the
	 * data bytes of its pages: 258 after a write of 256): written back,
	 * it gives the same pages, and reads the same.
	 */
	snprintf(text, sizeof(text), "%ld\n", orig_size_kb);
	if (cmd("../instances/lkst/buffer_size_kb", O_TRUNC, text) ||
	    cmd("../instances/lkst/options/overwrite", O_TRUNC,
		orig_overwrite ? "1\n" : "0\n") ||
	    cmd("../instances/lkst/tracing_on", O_TRUNC, "1\n") ||
	    cmd("../instances/lkst/trace", O_TRUNC, "") ||
	    cmd(ERROR_LOG, O_TRUNC, "")) {
		fail("cannot restore the default buffer's settings at the end");
		ok = false;
	}
	return ok;
}

static void expect_file(const char *rel, const char *want)
{
	char got[256];

	if (read_rel(rel, got, sizeof(got)) < 0)
		snprintf(got, sizeof(got), "(%s)", strerror(errno));
	if (strcmp(got, want)) {
		esc(got, strlen(got), t_cur, sizeof(t_cur));
		fail("after the restore %s reads '%s'", rel, t_cur);
	}
}

static void final(int idx)
{
	char text[64];
	int m;

	proc_setup(idx, "final");
	me->steps = 1;
	checks("at the end");
	if (restore_state()) {
		me->steps = 2;
		checks("after the restore");
		expect_file("maskset", "RNOTHING\n");
		expect_file("user_masksets", "");
		expect_file("user_buffers", "");
		expect_file("../instances/lkst/tracing_on", "1\n");
		/* what it read at the start, not what a resize wrote */
		snprintf(text, sizeof(text), "%ld\n", orig_size_kb);
		expect_file("../instances/lkst/buffer_size_kb", text);
		for (m = 0; m < 3; m++)
			if (module_loaded(sample_mod[m]))
				fail("%s still loaded", sample_mod[m]);
		if (have_hotplug &&
		    (read_abs(cpu1_online, t_cur, sizeof(t_cur)) < 0 ||
		     t_cur[0] != '1'))
			fail("CPU 1 is not online at the end");
	}
	_exit(0);
}

/* The parent: supervise, watch the kernel log, report */

static int kmsg_fd = -1;
static int kmsg_lines;		/* kernel lines still to print */
static int kmsg_printed;

static bool is_splat(const char *msg)
{
	static const char *const bad[] = {
		"WARNING:", "BUG:", "BUG ", "Oops", "general protection",
		"Call Trace", "lockdep", "RCU stall", "rcu_sched detected",
		"rcu_preempt detected", "INFO: task", "KASAN", "UBSAN",
		"refcount_t:", "list_add corruption", "list_del corruption",
		"soft lockup", "hard LOCKUP", "circular locking",
		"suspicious RCU", "inconsistent lock", "Kernel panic",
		"kernel BUG", "Unable to handle", "DEBUG_LOCKS_WARN_ON",
		"KFENCE", "invoked oom-killer", "stack-protector",
		"stack guard page", "bad page state", "Bad page",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (strstr(msg, bad[i]))
			return true;
	return false;
}

static void kmsg_poll(void)
{
	char rec[8192], *msg, *nl;
	ssize_t n;

	if (kmsg_fd < 0)
		return;
	for (;;) {
		n = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			return;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		if (is_splat(msg)) {
			if (!kmsg_lines && !failed())
				fail("kernel: %s", msg);
			kmsg_lines = 60;
		}
		if (kmsg_lines > 0 && kmsg_printed < 200) {
			say("# kernel: %s\n", msg);
			kmsg_lines--;
			kmsg_printed++;
		}
	}
}

struct stuck {
	pid_t pid;
	double since;
	int reported;		/* 1: noted, 2: failed */
};

static struct stuck stuck[64];

/* A task in D state: where it waits */
static void show_stuck(pid_t pid, int secs, bool hung)
{
	char path[64], buf[512], comm[64] = "?", *l[64], *p;
	int k, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_abs(path, buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	p = strrchr(buf, ')');
	if (p && strchr(buf, '(')) {
		*p = '\0';
		snprintf(comm, sizeof(comm), "%s", strchr(buf, '(') + 1);
	}
	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	if (read_abs(path, buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	if (hung)
		fail("pid %d (%s) is stuck in D state for %d s (wchan %s)", pid,
		     comm, secs, buf);
	else
		say("# note: pid %d (%s) is in D state for %d s (wchan %s)\n",
		    pid, comm, secs, buf);
	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	if (read_abs(path, t_tab, sizeof(t_tab)) > 0) {
		n = lines(t_tab, l, 64);
		for (k = 0; k < n; k++)
			say("#   %s\n", l[k]);
	}
	/* all blocked tasks' stacks, to the kernel log */
	if (hung)
		write_abs("/proc/sysrq-trigger", 0, "w");
}

/*
 * Our descendants in D state for more than STUCK_S seconds are hung.  A
 * debug kernel under emulation can keep a task waiting for lkst_mutex for
 * several seconds legitimately (each maskset switch waits for an RCU grace
 * period under it): SLOW_S seconds only earn a note.
 */
static void scan_stuck(void)
{
	static pid_t pid[8192], ppid[8192];
	static char state[8192];
	char path[300], buf[512], *p;
	int n = 0, i, j, changed;
	bool mine[8192] = { 0 };
	struct dirent *de;
	DIR *d = opendir("/proc");

	while (d && n < 8192 && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (read_abs(path, buf, sizeof(buf)) <= 0)
			continue;
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 2, "%c %d", &state[n], &ppid[n]) != 2)
			continue;
		pid[n++] = atoi(de->d_name);
	}
	if (d)
		closedir(d);
	do {
		changed = 0;
		for (i = 0; i < n; i++) {
			if (mine[i])
				continue;
			if (ppid[i] == getpid())
				mine[i] = true;
			for (j = 0; j < n && !mine[i]; j++)
				if (mine[j] && ppid[i] == pid[j])
					mine[i] = true;
			changed |= mine[i];
		}
	} while (changed);

	for (j = 0; j < (int)ARRAY_SIZE(stuck); j++) {
		for (i = 0; i < n; i++)
			if (mine[i] && pid[i] == stuck[j].pid && state[i] == 'D')
				break;
		if (i == n)
			stuck[j].pid = 0;
	}
	for (i = 0; i < n; i++) {
		if (!mine[i] || state[i] != 'D')
			continue;
		for (j = 0; j < (int)ARRAY_SIZE(stuck); j++)
			if (stuck[j].pid == pid[i])
				break;
		if (j == ARRAY_SIZE(stuck)) {
			for (j = 0; j < (int)ARRAY_SIZE(stuck); j++) {
				if (!stuck[j].pid) {
					stuck[j].pid = pid[i];
					stuck[j].since = now();
					stuck[j].reported = 0;
					break;
				}
			}
			continue;
		}
		if (stuck[j].reported < 1 && now() - stuck[j].since >= SLOW_S) {
			stuck[j].reported = 1;
			show_stuck(pid[i], SLOW_S, false);
		}
		if (stuck[j].reported < 2 && now() - stuck[j].since >= STUCK_S) {
			stuck[j].reported = 2;
			show_stuck(pid[i], STUCK_S, true);
		}
	}
}

static struct proc *proc_of(pid_t pid)
{
	int i;

	for (i = 0; i < MAX_PROCS; i++)
		if (sh->p[i].pid == pid)
			return &sh->p[i];
	return NULL;
}

/*
 * Wait for our children until they have all exited, stopping them at
 * @until, or at the first failure if @stop_on_fail; false if some could
 * not be killed.
 */
static bool supervise(double until, int nprocs, bool stop_on_fail)
{
	double stop_at = 0, kill_at = 0, last_scan = 0, last_note = now();
	unsigned long long steps;
	struct proc *p;
	int status, i;
	pid_t pid;

	for (;;) {
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			p = proc_of(pid);
			if (!p)
				continue;
			__atomic_store_n(&p->exited, 1, __ATOMIC_RELEASE);
			if (kill_at && WIFSIGNALED(status) &&
			    WTERMSIG(status) == SIGKILL)
				continue;
			if (WIFSIGNALED(status))
				fail("%s (pid %d) was killed by signal %d (%s)%s",
				     p->name, pid, WTERMSIG(status),
				     strsignal(WTERMSIG(status)),
				     WTERMSIG(status) == SIGSEGV ||
				     WTERMSIG(status) == SIGKILL ?
				     ": a kernel oops kills the task" : "");
			else if (WEXITSTATUS(status))
				fail("%s (pid %d) exited with status %d",
				     p->name, pid, WEXITSTATUS(status));
		}
		if (pid < 0 && errno == ECHILD)
			return true;
		kmsg_poll();
		if (now() - last_scan > 0.5) {
			scan_stuck();
			last_scan = now();
		}
		if (!stop_at && ((stop_on_fail && failed()) || now() >= until)) {
			__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
			stop_at = now();
		}
		if (stop_at && !kill_at && now() - stop_at > GRACE_S) {
			for (i = 0; i < nprocs; i++) {
				p = &sh->p[i];
				if (p->pid && !p->exited) {
					say("# note: %s (pid %d) did not stop in %d s: SIGKILL\n",
					    p->name, p->pid, GRACE_S);
					kill(p->pid, SIGKILL);
				}
			}
			kill_at = now();
		}
		if (kill_at && now() - kill_at > KILL_S) {
			for (i = 0; i < MAX_PROCS; i++) {
				p = &sh->p[i];
				if (p->pid && !p->exited && !kill(p->pid, 0))
					fail("%s (pid %d) could not be killed",
					     p->name, p->pid);
			}
			return false;
		}
		if (!verbose && now() - last_note >= 10 && !stop_at) {
			for (i = 0, steps = 0; i < nworkers; i++)
				steps += sh->p[i].steps;
			say("# %.0f s: %llu worker steps, %llu chaos steps, %u checks\n",
			    now() - (deadline - seconds), steps,
			    sh->p[nworkers].steps,
			    sh->p[nworkers].count[C_CHECK]);
			last_note = now();
		}
		sleep_ms(100);
	}
}

static void print_logs(void)
{
	struct proc *p;
	unsigned int h, k;
	int i;

	for (i = 0; i < MAX_PROCS; i++) {
		p = &sh->p[i];
		if (!p->pid)
			continue;
		h = __atomic_load_n(&p->head, __ATOMIC_ACQUIRE);
		say("# last steps of %s (pid %d, %llu steps):\n", p->name,
		    p->pid, p->steps);
		for (k = h > LOG_SHOW ? h - LOG_SHOW : 0; k < h; k++)
			say("#   %s%s\n", p->log[k % LOG_RING],
			    strstr(p->log[k % LOG_RING], " -> ") ? "" :
			    "   <- did not return");
	}
}

static void print_summary(double elapsed)
{
	static unsigned int ops[NR_FC][NR_OP], modes[NR_FC][NR_MODE];
	static unsigned int errs[NR_OP][NR_ERRNO];
	unsigned int count[NR_COUNTER] = { 0 }, chaos[NR_CH] = { 0 };
	unsigned long long steps = 0, tot;
	char line[1024];
	int i, c, o, e, n, hit;
	struct proc *p;

	for (i = 0; i < MAX_PROCS; i++) {
		p = &sh->p[i];
		for (c = 0; c < NR_FC; c++)
			for (o = 0; o < NR_OP; o++)
				ops[c][o] += p->ops[c][o];
		for (c = 0; c < NR_FC; c++)
			for (o = 0; o < NR_MODE; o++)
				modes[c][o] += p->modes[c][o];
		for (o = 0; o < NR_OP; o++)
			for (e = 0; e < NR_ERRNO; e++)
				errs[o][e] += p->errs[o][e];
		for (o = 0; o < NR_COUNTER; o++)
			count[o] += p->count[o];
		for (o = 0; o < NR_CH; o++)
			chaos[o] += p->chaos[o];
		if (i < nworkers)
			steps += p->steps;
	}
	say("# summary: seed %llu, %.0f s, %d workers: %llu worker steps, %llu chaos steps\n",
	    seed, elapsed, nworkers, steps, sh->p[nworkers].steps);

	n = snprintf(line, sizeof(line), "# syscalls:");
	for (o = 0; o < NR_OP; o++) {
		for (c = 0, tot = 0; c < NR_FC; c++)
			tot += ops[c][o];
		n += snprintf(line + n, sizeof(line) - n, " %s %llu",
			      op_short[o], tot);
	}
	say("%s\n", line);

	say("# syscalls per file class:\n");
	n = snprintf(line, sizeof(line), "#   %-19s", "");
	for (o = 0; o < NR_OP; o++)
		n += snprintf(line + n, sizeof(line) - n, "%6s", op_short[o]);
	say("%s\n", line);
	for (c = 0; c < NR_FC; c++) {
		n = snprintf(line, sizeof(line), "#   %-19s", fc_name[c]);
		for (o = 0; o < NR_OP; o++)
			n += snprintf(line + n, sizeof(line) - n,
				      ops[c][o] < 100000 ? "%6u" : "%5uk",
				      ops[c][o] < 100000 ? ops[c][o] :
				      ops[c][o] / 1000);
		say("%s\n", line);
	}

	say("# open modes per file class (r/w/rw, +a O_APPEND, +t O_TRUNC, +n O_NONBLOCK):\n");
	for (c = 0; c < NR_FC; c++) {
		unsigned int acc[3] = { 0 }, fl[3] = { 0 };

		for (o = 0, hit = 0; o < NR_MODE; o++) {
			acc[o / 8] += modes[c][o];
			for (e = 0; e < 3; e++)
				if (o & (1 << e))
					fl[e] += modes[c][o];
			hit += !!modes[c][o];
		}
		say("#   %-19s r %4u  w %4u  rw %4u  +a %4u  +t %4u  +n %4u  modes %2d/%d\n",
		    fc_name[c], acc[0], acc[1], acc[2], fl[0], fl[1], fl[2], hit,
		    NR_MODE);
	}

	say("# errors by errno:\n");
	for (e = 0; e < NR_ERRNO; e++) {
		for (o = 0, tot = 0; o < NR_OP; o++)
			tot += errs[o][e];
		if (!tot)
			continue;
		n = snprintf(line, sizeof(line), "#   %-10s %7llu:", errname(e),
			     tot);
		for (o = 0; o < NR_OP; o++)
			if (errs[o][e])
				n += snprintf(line + n, sizeof(line) - n,
					      " %s %u", op_short[o], errs[o][e]);
		say("%s\n", line);
	}
	n = snprintf(line, sizeof(line), "# unexpected errnos:");
	for (o = 0, hit = 0; o < NR_OP; o++) {
		for (e = 0; e < NR_ERRNO; e++) {
			if (errs[o][e] && !errno_expected(o, e)) {
				n += snprintf(line + n, sizeof(line) - n,
					      " %s in %s (%u)", errname(e),
					      op_short[o], errs[o][e]);
				hit++;
			}
		}
	}
	say("%s%s\n", line, hit ? "" : " none");

	n = snprintf(line, sizeof(line), "# chaos steps:");
	for (o = 0; o < NR_CH; o++)
		n += snprintf(line + n, sizeof(line) - n, " %s %u", ch_name[o],
			      chaos[o]);
	say("%s\n", line);
	say("# chaos: %u maskset switches (%u refused), %u masksets/buffers created, %u removed\n",
	    count[C_SWITCH], count[C_SWITCH_FAIL], count[C_CREATE],
	    count[C_REMOVE]);
	say("# chaos: modules %u loaded (%u refused), %u unloaded (%u refused)\n",
	    count[C_LOAD], count[C_LOAD_FAIL], count[C_UNLOAD],
	    count[C_UNLOAD_FAIL]);
	say("# chaos: %u resizes (%u refused), CPU 1 %u times offline, %u online\n",
	    count[C_RESIZE], count[C_RESIZE_FAIL], count[C_OFFLINE],
	    count[C_ONLINE]);
	if (!have_modprobe)
		say("# note: no modprobe or no sample modules: module steps idle\n");
	if (!have_hotplug)
		say("# note: CPU 1 cannot go offline here: hotplug steps idle\n");
	say("# invariant checks: %u done, %u skipped, %u table lines checked\n",
	    count[C_CHECK], count[C_CHECK_SKIP], count[C_TABLE_LINES]);
	say("# invariant checks: %u per-CPU stats stood still with RNOTHING current\n",
	    count[C_STATS_STILL]);
}

/* Setup, in the parent */

static int find_lkst(void)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		snprintf(lkst, sizeof(lkst), "%s/lkst", roots[i]);
		if (!stat(lkst, &st) && S_ISDIR(st.st_mode))
			return 0;
	}
	mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
	snprintf(lkst, sizeof(lkst), "/sys/kernel/tracing/lkst");
	return stat(lkst, &st) || !S_ISDIR(st.st_mode) ? -1 : 0;
}

static void add_handler(const char *name)
{
	if (nhandlers < MAX_NAMES && !in_list(handlers, nhandlers, name))
		handlers[nhandlers++] = strdup(name);
}

static int read_setup(void)
{
	char path[PATH_LEN * 2], *l[MAX_NAMES], *sp, *save;
	struct stat st;
	char *const probe[] = { "modprobe", "-q", "-n", "lkst_escalate", NULL };
	int n, i;

	for (ncpus = 0; ncpus < MAX_CPUS; ncpus++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", lkst, ncpus);
		if (stat(path, &st))
			break;
	}
	nonline = sysconf(_SC_NPROCESSORS_ONLN);
	if (read_rel("available_events", t_ev, sizeof(t_ev)) < 0 ||
	    read_rel("available_handlers", t_hd, sizeof(t_hd)) < 0)
		return -1;
	n = lines(t_ev, l, MAX_NAMES);
	for (i = 0; i < n; i++) {
		strtok_r(l[i], " ", &save);
		sp = strtok_r(NULL, " ", &save);
		if (sp)
			events[nevents++] = strdup(sp);
	}
	n = lines(t_hd, l, MAX_NAMES);
	for (i = 0; i < n; i++) {
		sp = strchr(l[i], ' ');
		if (sp)
			add_handler(sp + 1);
	}
	add_handler("DEFAULT");
	add_handler("NOTHING");
	for (i = 0; i < 3; i++)
		add_handler(sample_handler[i]);
	/* restored and compared as it reads: it must be there */
	if (read_rel("../instances/lkst/buffer_size_kb", t_cur, sizeof(t_cur)) <= 0)
		return -1;
	orig_size_kb = atol(t_cur);
	if (orig_size_kb <= 0)
		return -1;
	if (read_rel("../instances/lkst/options/overwrite", t_cur, sizeof(t_cur)) > 0)
		orig_overwrite = atoi(t_cur);
	have_hotplug = nonline > 1 && !access(cpu1_online, W_OK) &&
		       read_abs(cpu1_online, t_cur, sizeof(t_cur)) > 0 &&
		       t_cur[0] == '1';
	have_modprobe = run_modprobe(probe) == 0;
	make_cands();
	return 0;
}

static void print_usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-s SEED] [-t SECONDS] [-w WORKERS] [-l LOGFILE]\n"
		"\t[-x SYSCALL|CHAOS_STEP]... [-v]\n", prog);
	exit(KSFT_FAIL);
}

/* -x NAME: leave out a syscall or a chaos step, e.g. one with a known bug */
static int skip_arg(const char *name)
{
	int i;

	for (i = 0; i < NR_OP; i++) {
		if (!strcmp(name, op_short[i]) || !strcmp(name, op_name[i])) {
			skip_ops |= 1u << i;
			return 0;
		}
	}
	for (i = 0; i < NR_CH; i++) {
		if (!strcmp(name, ch_name[i])) {
			skip_chaos |= 1u << i;
			return 0;
		}
	}
	fprintf(stderr, "-x %s: no such syscall or chaos step\n", name);
	return -1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	static struct proc parent = { .name = "parent" };
	char skips[NR_CH * 16 + NR_OP * 10] = "";
	double start;
	bool gone;
	int opt, i, n;
	pid_t pid;

	while ((opt = getopt(argc, argv, "s:t:w:l:x:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			seconds = atoi(optarg);
			break;
		case 'w':
			nworkers = atoi(optarg);
			break;
		case 'l':
			logfd = open(optarg, O_WRONLY | O_CREAT | O_APPEND |
				     O_CLOEXEC, 0644);
			if (logfd < 0) {
				perror(optarg);
				return KSFT_FAIL;
			}
			break;
		case 'x':
			if (skip_arg(optarg))
				return KSFT_FAIL;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (optind != argc || seconds < 1 || nworkers < 1 ||
	    nworkers > MAX_WORKERS)
		print_usage(argv[0]);
	setvbuf(stdout, NULL, _IONBF, 0);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return KSFT_FAIL;
	}
	me = &parent;
	for (i = 0, n = 0; i < NR_OP + NR_CH; i++)
		if (i < NR_OP ? skip_ops & (1u << i) : skip_chaos & (1u << (i - NR_OP)))
			n += snprintf(skips + n, sizeof(skips) - n, " -x %s",
				      i < NR_OP ? op_short[i] : ch_name[i - NR_OP]);
	say("# lkst_fuzz: seed %llu, %d s, %d workers (replay: %s -s %llu -t %d -w %d%s)\n",
	    seed, seconds, nworkers, argv[0], seed, seconds, nworkers, skips);
	if (geteuid()) {
		say("# SKIP: must be run as root\n");
		return KSFT_SKIP;
	}
	if (find_lkst()) {
		say("# SKIP: kernel has no LKST (CONFIG_LKST=n)\n");
		return KSFT_SKIP;
	}
	if (read_setup()) {
		say("# FAIL: cannot read %s/available_events, available_handlers or %s\n",
		    lkst, "../instances/lkst/buffer_size_kb");
		return KSFT_FAIL;
	}
	say("# %s: %d CPUs (%d online), %d events, %d handler names\n",
	    lkst, ncpus, nonline, nevents, nhandlers);
	say("# buffer_size_kb %ld, sample modules %s, CPU hotplug %s\n",
	    orig_size_kb, have_modprobe ? "yes" : "no",
	    have_hotplug ? "yes" : "no");

	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* orphans of the chaos process come back to us, to be reaped */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
	else
		say("# note: cannot read /dev/kmsg: splats go unnoticed\n");

	start = now();
	deadline = start + seconds;
	for (i = 0; i <= nworkers; i++) {
		pid = fork();
		if (pid < 0) {
			fail("fork: %s", strerror(errno));
			break;
		}
		if (!pid) {
			if (i < nworkers)
				worker(i);
			chaos_main(i);
		}
		sh->p[i].pid = pid;
	}
	gone = supervise(deadline, nworkers + 2, true);

	/*
	 * The last check and the restore, in a process of its own too, and
	 * even after a failure: what follows should find a sane LKST.
	 */
	if (gone) {
		__atomic_store_n(&sh->pause, 0, __ATOMIC_RELEASE);
		pid = fork();
		if (!pid)
			final(nworkers + 2);
		sh->p[nworkers + 2].pid = pid;
		if (!supervise(now() + FINAL_S, MAX_PROCS, false) ||
		    !sh->p[nworkers + 2].exited)
			fail("the final check and restore did not finish in %d s",
			     FINAL_S);
	}
	sleep_ms(200);
	kmsg_poll();
	print_summary(now() - start);
	if (failed()) {
		print_logs();
		say("# lkst_fuzz: FAIL: %s (seed %llu)\n", sh->why, seed);
		return KSFT_FAIL;
	}
	say("# lkst_fuzz: PASS (seed %llu, no splat, all checks held)\n", seed);
	return KSFT_PASS;
}
