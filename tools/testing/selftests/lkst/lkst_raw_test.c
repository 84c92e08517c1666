// SPDX-License-Identifier: GPL-2.0
/*
 * LKST raw buffer tests: read lkst/per_cpu/cpuN/raw the way an offline
 * tool would, knowing nothing of the kernel that wrote it but what its
 * instance's events/header_page, events/header_event and
 * events/lkst/NAME/format describe, and check that the records of a
 * known workload are there with the right pids; check the blocking,
 * non-blocking, poll and splice behaviour of the raw files.
 *
 * The workload is a child that forks and exits, traced by a maskset that
 * records only PROCESS_FORK and PROCESS_EXIT, so the records to expect
 * are known exactly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define LKST		"/sys/kernel/tracing/lkst"
#define INST		"/sys/kernel/tracing/instances/lkst"	/* its buffer's */
#define KPROBES		"/sys/kernel/tracing/dynamic_events"	/* ftrace's */
#define MASKSET		"lkst_raw_test"
#define MAX_CPUS	64
#define MAX_RECS	4096

/* A field of header_page or format: where it is and how big */
struct field {
	int offset;
	int size;
};

/* Everything needed to decode the raw files, from tracefs only */
struct layout {
	struct field ts, commit, data;		/* header_page */
	int type_len_bits, delta_bits;		/* header_event */
	int padding, time_extend, time_stamp, data_max;
	struct field event, pid, arg;		/* an event's format */
	unsigned int ev_fork, ev_exit;		/* available_events */
};

struct rec {
	int cpu;
	uint64_t ts;
	unsigned int event;
	pid_t pid;
	uint64_t arg[4];
};

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Drop the default buffer's records: "> trace" of its instance */
static int clear_buffer(void)
{
	int fd = open(INST "/trace", O_WRONLY | O_TRUNC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static char *slurp(const char *path)
{
	static char buf[65536];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

/*
 * Find "field:<decl> NAME[...];\toffset:O;\tsize:S;" in a format text.
 * Both header_page ("field: u64 timestamp;") and an event's format
 * ("field:u16 lkst_event;") use this syntax.
 */
static int find_field(const char *text, const char *name, struct field *f)
{
	const char *p = text;
	size_t len = strlen(name);

	while ((p = strstr(p, "field:"))) {
		const char *semi = strchr(p, ';');
		const char *end = semi, *start;

		if (!semi)
			return -1;
		if (end[-1] == ']')		/* "arg[4]" */
			end = memchr(p, '[', semi - p);
		start = end;
		while (start > p && start[-1] != ' ' && start[-1] != ':')
			start--;
		if ((size_t)(end - start) == len && !strncmp(start, name, len))
			/* a blank in a scanf format matches any white space */
			return sscanf(semi, "; offset:%d; size:%d;", &f->offset,
				      &f->size) == 2 ? 0 : -1;
		p = semi;
	}
	return -1;
}

/* "\ttype_len    :    5 bits" or "\tpadding     : type == 29" */
static int find_num(const char *text, const char *key, const char *fmt, int *v)
{
	const char *p = strstr(text, key);

	return p && sscanf(p + strlen(key), fmt, v) == 1 ? 0 : -1;
}

static int event_id(const char *events, const char *name)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s ", name);
	p = strstr(events, pat);
	if (!p)
		return -1;
	while (p > events && p[-1] != '\n')
		p--;
	return atoi(p);
}

static int read_layout(struct layout *l)
{
	char *t;
	int id;

	t = slurp(INST "/events/header_page");
	if (!t || find_field(t, "timestamp", &l->ts) ||
	    find_field(t, "commit", &l->commit) || find_field(t, "data", &l->data))
		return -1;
	t = slurp(INST "/events/header_event");
	if (!t || find_num(t, "type_len", " : %d bits", &l->type_len_bits) ||
	    find_num(t, "time_delta", " : %d bits", &l->delta_bits) ||
	    find_num(t, "padding", " : type == %d", &l->padding) ||
	    find_num(t, "time_extend", " : type == %d", &l->time_extend) ||
	    find_num(t, "time_stamp", " : type == %d", &l->time_stamp) ||
	    find_num(t, "data max type_len", " == %d", &l->data_max))
		return -1;
	/* every LKST event has this layout; the arguments follow lkst_pad */
	t = slurp(INST "/events/lkst/PROCESS_FORK/format");
	if (!t || find_field(t, "lkst_event", &l->event) ||
	    find_field(t, "common_pid", &l->pid) || find_field(t, "lkst_pad", &l->arg))
		return -1;
	l->arg.offset += l->arg.size;
	l->arg.size = 32;
	t = slurp(LKST "/available_events");
	if (!t)
		return -1;
	id = event_id(t, "PROCESS_FORK");
	l->ev_exit = event_id(t, "PROCESS_EXIT");
	if (id < 0 || (int)l->ev_exit < 0)
		return -1;
	l->ev_fork = id;
	return 0;
}

/* Little-endian, as the machine that wrote it (this one) */
static uint64_t get(const unsigned char *p, int size)
{
	uint64_t v = 0;

	memcpy(&v, p, size < 8 ? size : 8);
	return v;
}

/*
 * Decode one ring-buffer page into @out.  The event header is a 32-bit
 * word: type_len in the low bits, time_delta above; type_len up to
 * data_max is a record of type_len * 4 bytes (0: the length is in the
 * next word), the others are padding and timestamp extensions.
 */
static int parse_page(const struct layout *l, const unsigned char *page,
		      size_t size, int cpu, struct rec *out, int max)
{
	/* commit also carries "missed events" flags in its top bits */
	uint64_t len = get(page + l->commit.offset, l->commit.size) & ((1u << 27) - 1);
	uint64_t ts = get(page + l->ts.offset, l->ts.size);
	const unsigned char *d = page + l->data.offset;
	uint32_t tl_mask = (1u << l->type_len_bits) - 1;
	size_t pos = 0;
	int n = 0;

	if (len > size - l->data.offset)
		return -1;
	while (pos + 4 <= len) {
		uint32_t hdr = get(d + pos, 4);
		uint32_t type_len = hdr & tl_mask;
		uint32_t delta = hdr >> l->type_len_bits;
		const unsigned char *rec;
		uint32_t rlen;

		if ((int)type_len == l->padding) {
			if (!delta)
				break;
			pos += 4 + get(d + pos + 4, 4);
			continue;
		}
		if ((int)type_len == l->time_extend) {
			ts += delta + (get(d + pos + 4, 4) << l->delta_bits);
			pos += 8;
			continue;
		}
		if ((int)type_len == l->time_stamp) {
			ts = delta + (get(d + pos + 4, 4) << l->delta_bits);
			pos += 8;
			continue;
		}
		if (type_len) {
			rec = d + pos + 4;
			rlen = type_len * 4;
			pos += 4 + rlen;
		} else {
			rlen = get(d + pos + 4, 4) - 4;
			rec = d + pos + 8;
			pos += 4 + rlen + 4;
		}
		ts += delta;
		if (pos > len || n >= max)
			return -1;
		out[n].cpu = cpu;
		out[n].ts = ts;
		out[n].event = get(rec + l->event.offset, l->event.size);
		out[n].pid = get(rec + l->pid.offset, l->pid.size);
		memcpy(out[n].arg, rec + l->arg.offset, sizeof(out[n].arg));
		n++;
	}
	return n;
}

static int nr_cpu_dirs(void)
{
	char path[128];
	struct stat st;
	int n;

	for (n = 0; n < MAX_CPUS; n++) {
		snprintf(path, sizeof(path), LKST "/per_cpu/cpu%d", n);
		if (stat(path, &st))
			break;
	}
	return n;
}

static int open_file(int cpu, const char *file, int flags)
{
	char path[128];

	snprintf(path, sizeof(path), LKST "/per_cpu/cpu%d/%s", cpu, file);
	return open(path, O_RDONLY | flags);
}

static int open_raw(int cpu, int flags)
{
	return open_file(cpu, "raw", flags);
}

/* Read an open per-CPU file to its end (or EAGAIN); return the records. */
static int read_fd(const struct layout *l, int fd, int cpu, struct rec *out,
		   int max)
{
	size_t size = l->data.offset + l->data.size;
	unsigned char *page = malloc(size);
	int n = 0, got;
	ssize_t r;

	while ((r = read(fd, page, size)) > 0) {
		got = parse_page(l, page, r, cpu, out + n, max - n);
		if (got < 0) {
			n = -1;
			break;
		}
		n += got;
	}
	free(page);
	return n;
}

/* Read every CPU's @file (raw consumes) without blocking; the records. */
static int read_all_file(const struct layout *l, const char *file,
			 struct rec *out, int max)
{
	int cpu, fd, n = 0, got;

	for (cpu = 0; cpu < nr_cpu_dirs(); cpu++) {
		fd = open_file(cpu, file, O_NONBLOCK);
		if (fd < 0)
			continue;
		got = read_fd(l, fd, cpu, out + n, max - n);
		close(fd);
		if (got < 0)
			return -1;
		n += got;
	}
	return n;
}

static int read_all(const struct layout *l, struct rec *out, int max)
{
	return read_all_file(l, "raw", out, max);
}

static void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Fork a grandchild that exits with 7; wait for it.  Returns its pid. */
static pid_t fork_and_reap(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(7);
	waitpid(pid, NULL, 0);
	return pid;
}

FIXTURE(lkst_raw) {
	struct layout l;
	struct rec recs[MAX_RECS];
};

FIXTURE_SETUP(lkst_raw)
{
	struct stat st;

	if (getuid())
		SKIP(return, "must be run as root");
	if (stat(LKST, &st))
		SKIP(return, "kernel has no LKST (CONFIG_LKST=n)");
	ASSERT_EQ(0, read_layout(&self->l));

	write_str(LKST "/maskset", "RNOTHING");
	write_str(LKST "/user_masksets", "!" MASKSET);
	ASSERT_EQ(0, write_str(LKST "/user_masksets", MASKSET));
	ASSERT_EQ(0, write_str(LKST "/masksets/" MASKSET,
			       "PROCESS_FORK DEFAULT\nPROCESS_EXIT DEFAULT\n"));
	ASSERT_EQ(0, clear_buffer());
}

static void raw_dyn_cleanup(void);

FIXTURE_TEARDOWN(lkst_raw)
{
	write_str(LKST "/maskset", "RNOTHING");
	write_str(LKST "/user_masksets", "!" MASKSET);
	raw_dyn_cleanup();
	clear_buffer();
}

TEST_F(lkst_raw, records_of_a_child_have_its_pid)
{
	int i, n, fork_seen = 0, exit_seen = 0;
	pid_t me = getpid(), child;

	ASSERT_EQ(0, write_str(LKST "/maskset", MASKSET));
	child = fork_and_reap();
	ASSERT_EQ(0, write_str(LKST "/maskset", "RNOTHING"));

	n = read_all(&self->l, self->recs, MAX_RECS);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		struct rec *r = &self->recs[i];

		/* PROCESS_FORK: recorded in the parent; parent, child, tgid */
		if (r->event == self->l.ev_fork && r->arg[1] == (uint64_t)child) {
			EXPECT_EQ(me, r->pid);
			EXPECT_EQ((uint64_t)me, r->arg[0]);
			EXPECT_EQ((uint64_t)child, r->arg[2]);
			fork_seen++;
		}
		/* PROCESS_EXIT: recorded in the child; pid, tgid, code */
		if (r->event == self->l.ev_exit && r->pid == child) {
			EXPECT_EQ((uint64_t)child, r->arg[0]);
			EXPECT_EQ((uint64_t)child, r->arg[1]);
			EXPECT_EQ((uint64_t)(7 << 8), r->arg[2]);
			exit_seen++;
		}
	}
	EXPECT_EQ(1, fork_seen);
	EXPECT_EQ(1, exit_seen);
}

TEST_F(lkst_raw, timestamps_never_go_backwards_on_a_cpu)
{
	int i, n;

	ASSERT_EQ(0, write_str(LKST "/maskset", MASKSET));
	for (i = 0; i < 50; i++)
		fork_and_reap();
	ASSERT_EQ(0, write_str(LKST "/maskset", "RNOTHING"));

	n = read_all(&self->l, self->recs, MAX_RECS);
	ASSERT_GE(n, 100);
	for (i = 1; i < n; i++)
		if (self->recs[i].cpu == self->recs[i - 1].cpu)
			EXPECT_LE(self->recs[i - 1].ts, self->recs[i].ts);
}

static int count_child(const struct layout *l, const struct rec *recs, int n,
		       pid_t child)
{
	int i, seen = 0;

	for (i = 0; i < n; i++)
		if ((recs[i].event == l->ev_fork && recs[i].arg[1] == (uint64_t)child) ||
		    (recs[i].event == l->ev_exit && recs[i].pid == child))
			seen++;
	return seen;
}

static unsigned long stat_of(int cpu, const char *key)
{
	char path[128], *text, *p;
	unsigned long v = ~0UL;

	snprintf(path, sizeof(path), INST "/per_cpu/cpu%d/stats", cpu);
	text = slurp(path);
	p = text ? strstr(text, key) : NULL;
	if (p)
		v = strtoul(p + strlen(key), NULL, 10);
	return v;
}

/*
 * raw_copy: the same records as raw, time stamps included (its pages are
 * written anew), as often as it is read; raw then consumes them all.
 */
TEST_F(lkst_raw, raw_copy_gives_raws_records_without_consuming_them)
{
	static struct rec copy[MAX_RECS];
	int i, n, n1, n2, children[20];

	ASSERT_EQ(0, write_str(LKST "/maskset", MASKSET));
	for (i = 0; i < 20; i++)
		children[i] = fork_and_reap();
	ASSERT_EQ(0, write_str(LKST "/maskset", "RNOTHING"));

	n1 = read_all_file(&self->l, "raw_copy", copy, MAX_RECS);
	ASSERT_GE(n1, 40);
	for (i = 0; i < 20; i++)
		EXPECT_EQ(2, count_child(&self->l, copy, n1, children[i]));
	EXPECT_EQ(0, stat_of(0, "read events: "));
	n2 = read_all_file(&self->l, "raw_copy", self->recs, MAX_RECS);
	ASSERT_EQ(n1, n2);
	EXPECT_EQ(0, memcmp(copy, self->recs, n1 * sizeof(*copy)));

	n = read_all(&self->l, self->recs, MAX_RECS);
	ASSERT_EQ(n1, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(copy[i].cpu, self->recs[i].cpu);
		EXPECT_EQ(copy[i].ts, self->recs[i].ts);
		EXPECT_EQ(copy[i].event, self->recs[i].event);
		EXPECT_EQ(copy[i].pid, self->recs[i].pid);
		EXPECT_EQ(0, memcmp(copy[i].arg, self->recs[i].arg,
				    sizeof(copy[i].arg)));
	}
	/* consumed: nothing left to copy */
	EXPECT_EQ(0, read_all_file(&self->l, "raw_copy", copy, MAX_RECS));
}

/*
 * A raw_copy opened while recording holds what was recorded before the
 * open, and not what comes after; recording goes on meanwhile.
 */
TEST_F(lkst_raw, raw_copy_holds_what_was_recorded_at_open)
{
	static struct rec copy[MAX_RECS];
	pid_t before, after;
	int fd, n;

	pin_to_cpu(0);
	ASSERT_EQ(0, write_str(LKST "/maskset", MASKSET));
	before = fork_and_reap();
	fd = open_file(0, "raw_copy", 0);
	ASSERT_LE(0, fd);
	after = fork_and_reap();
	n = read_fd(&self->l, fd, 0, copy, MAX_RECS);
	close(fd);
	ASSERT_EQ(0, write_str(LKST "/maskset", "RNOTHING"));

	ASSERT_GE(n, 2);
	EXPECT_EQ(2, count_child(&self->l, copy, n, before));
	EXPECT_EQ(0, count_child(&self->l, copy, n, after));
	EXPECT_EQ(0, stat_of(0, "read events: "));

	n = read_all(&self->l, self->recs, MAX_RECS);
	EXPECT_EQ(2, count_child(&self->l, self->recs, n, before));
	EXPECT_EQ(2, count_child(&self->l, self->recs, n, after));
}

/* Record O_PANIC, which never fires: recording, and nothing arrives. */
static int record_nothing_arrives(void)
{
	write_str(LKST "/user_masksets", "!" MASKSET "_idle");
	if (write_str(LKST "/user_masksets", MASKSET "_idle") ||
	    write_str(LKST "/masksets/" MASKSET "_idle", "O_PANIC DEFAULT\n"))
		return -1;
	return write_str(LKST "/maskset", MASKSET "_idle");
}

TEST_F(lkst_raw, nonblocking_read_of_empty_buffer_fails_with_eagain)
{
	char page[4096];
	int fd;

	ASSERT_EQ(0, record_nothing_arrives());
	fd = open_raw(0, O_NONBLOCK);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, read(fd, page, sizeof(page)));
	EXPECT_EQ(EAGAIN, errno);
	close(fd);
	write_str(LKST "/maskset", "RNOTHING");
	write_str(LKST "/user_masksets", "!" MASKSET "_idle");
}

/* Nothing records into the buffer: the empty buffer reads end of file */
TEST_F(lkst_raw, read_of_empty_idle_buffer_is_end_of_file)
{
	char page[4096];
	int fd;

	fd = open_raw(0, 0);
	ASSERT_GE(fd, 0);
	alarm(10);
	EXPECT_EQ(0, read(fd, page, sizeof(page)));
	alarm(0);
	close(fd);
}

/*
 * A helper process on CPU 0 waits, then forks: the reader, blocked in
 * read() until then, must wake up with a page holding that fork.
 */
TEST_F(lkst_raw, blocking_read_wakes_when_a_record_arrives)
{
	size_t size = self->l.data.offset + self->l.data.size;
	struct timespec t0, t1;
	unsigned char *page;
	int fd, pipefd[2], n;
	pid_t helper;
	char c;
	long ms;

	ASSERT_EQ(0, pipe(pipefd));
	helper = fork();
	ASSERT_GE(helper, 0);
	if (!helper) {
		pin_to_cpu(0);
		read(pipefd[0], &c, 1);
		usleep(300000);
		fork_and_reap();
		_exit(0);
	}
	ASSERT_EQ(0, write_str(LKST "/maskset", MASKSET));
	fd = open_raw(0, 0);
	ASSERT_GE(fd, 0);
	page = malloc(size);
	ASSERT_EQ(1, write(pipefd[1], "x", 1));

	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = read(fd, page, size);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;

	waitpid(helper, NULL, 0);
	write_str(LKST "/maskset", "RNOTHING");
	ASSERT_GT(n, 0);
	EXPECT_GE(ms, 200);
	EXPECT_GT(parse_page(&self->l, page, n, 0, self->recs, MAX_RECS), 0);
	free(page);
	close(fd);
}

TEST_F(lkst_raw, poll_reports_readable_once_a_record_arrives)
{
	struct pollfd pfd = { .events = POLLIN };
	pid_t helper;

	/* While nothing records, end of file is readable */
	pfd.fd = open_raw(0, O_NONBLOCK);
	ASSERT_GE(pfd.fd, 0);
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	ASSERT_EQ(0, record_nothing_arrives());
	EXPECT_EQ(0, poll(&pfd, 1, 0));

	ASSERT_EQ(0, write_str(LKST "/maskset", MASKSET));
	helper = fork();
	if (!helper) {
		pin_to_cpu(0);
		fork_and_reap();
		_exit(0);
	}
	EXPECT_EQ(1, poll(&pfd, 1, 5000));
	EXPECT_TRUE(pfd.revents & POLLIN);
	waitpid(helper, NULL, 0);
	close(pfd.fd);
	write_str(LKST "/maskset", "RNOTHING");
	write_str(LKST "/user_masksets", "!" MASKSET "_idle");
}

TEST_F(lkst_raw, splice_into_a_pipe_moves_a_page_of_records)
{
	size_t size = self->l.data.offset + self->l.data.size;
	int fd, pipefd[2], i, n, found = 0;
	unsigned char *page;
	pid_t helper, child;
	ssize_t r;

	ASSERT_EQ(0, write_str(LKST "/maskset", MASKSET));
	/* The helper runs on CPU 0 and reports its grandchild's pid. */
	ASSERT_EQ(0, pipe(pipefd));
	helper = fork();
	if (!helper) {
		pin_to_cpu(0);
		child = fork_and_reap();
		write(pipefd[1], &child, sizeof(child));
		_exit(0);
	}
	ASSERT_EQ(sizeof(child), read(pipefd[0], &child, sizeof(child)));
	waitpid(helper, NULL, 0);
	ASSERT_EQ(0, write_str(LKST "/maskset", "RNOTHING"));
	close(pipefd[0]);
	close(pipefd[1]);

	fd = open_raw(0, O_NONBLOCK);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(pipefd));
	r = splice(fd, NULL, pipefd[1], NULL, size, SPLICE_F_NONBLOCK);
	ASSERT_GT(r, 0);
	page = malloc(size);
	ASSERT_EQ(r, read(pipefd[0], page, size));

	n = parse_page(&self->l, page, r, 0, self->recs, MAX_RECS);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++)
		if (self->recs[i].event == self->l.ev_exit &&
		    self->recs[i].pid == child)
			found++;
	EXPECT_EQ(1, found);
	free(page);
	close(fd);
}

/* The kprobe events, in ftrace's dynamic_events, and their bindings */
#define RAW_OPEN_ARGS	"dfd=$arg1:s32 flags=+0($arg3):x64 mode=+8($arg3):x64"
static const char raw_open[] = "p:lkstst/LKST_RAW_OPEN do_sys_openat2 " RAW_OPEN_ARGS;
static const char raw_opened[] = "r:lkstst/LKST_RAW_OPENED do_sys_openat2 fd=$retval:s32";
static const char bind_open[] = "LKST_RAW_OPEN lkstst/LKST_RAW_OPEN";
static const char bind_opened[] = "LKST_RAW_OPENED lkstst/LKST_RAW_OPENED";

/* Unbind the events and remove their kprobe events, if a test left them */
static void raw_dyn_cleanup(void)
{
	char *t;

	t = slurp(LKST "/dynamic_events");
	if (t && strstr(t, "LKST_RAW_OPEN")) {
		write_str(LKST "/dynamic_events", "-:LKST_RAW_OPEN");
		write_str(LKST "/dynamic_events", "-:LKST_RAW_OPENED");
	}
	t = slurp(KPROBES);
	if (t && strstr(t, ":lkstst/LKST_RAW_OPEN")) {
		write_str(KPROBES, "-:lkstst/LKST_RAW_OPEN");
		write_str(KPROBES, "-:lkstst/LKST_RAW_OPENED");
	}
}

/*
 * A dynamic event bound to a kprobe event on do_sys_openat2() and one to
 * a kprobe event at its return: the raw records of the child's open()
 * carry its exact dfd, flags, mode and the fd it got, under the IDs
 * available_events gives them.
 */
TEST_F(lkst_raw, dynamic_events_record_the_arguments_of_an_open)
{
	int i, n, open_seen = 0, ret_seen = 0, id_open, id_ret;
	int pipefd[2], fd = -1;
	struct stat st;
	pid_t child;
	char *t;

	if (stat(LKST "/dynamic_events", &st))
		SKIP(return, "no dynamic events (CONFIG_LKST_DYNAMIC_EVENTS=n)");
	raw_dyn_cleanup();
	ASSERT_EQ(0, write_str(KPROBES, raw_open));
	ASSERT_EQ(0, write_str(KPROBES, raw_opened));
	ASSERT_EQ(0, write_str(LKST "/dynamic_events", bind_open));
	ASSERT_EQ(0, write_str(LKST "/dynamic_events", bind_opened));
	t = slurp(LKST "/available_events");
	ASSERT_NE(NULL, t);
	id_open = event_id(t, "LKST_RAW_OPEN");
	id_ret = event_id(t, "LKST_RAW_OPENED");
	EXPECT_NE(NULL, strstr(t, " LKST_RAW_OPEN dfd flags mode -\n"));
	EXPECT_NE(NULL, strstr(t, " LKST_RAW_OPENED fd - - -\n"));
	ASSERT_GE(id_open, 256);
	ASSERT_LE(id_open, 319);
	ASSERT_GE(id_ret, 256);
	ASSERT_LE(id_ret, 319);
	ASSERT_EQ(0, write_str(LKST "/masksets/" MASKSET,
			       "LKST_RAW_OPEN DEFAULT\nLKST_RAW_OPENED DEFAULT\n"));

	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ(0, write_str(LKST "/maskset", MASKSET));
	child = fork();
	if (!child) {
		fd = open("/tmp/lkst_raw_test.open",
			  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
		write(pipefd[1], &fd, sizeof(fd));
		_exit(fd < 0);
	}
	ASSERT_EQ(sizeof(fd), read(pipefd[0], &fd, sizeof(fd)));
	waitpid(child, NULL, 0);
	ASSERT_EQ(0, write_str(LKST "/maskset", "RNOTHING"));
	close(pipefd[0]);
	close(pipefd[1]);
	unlink("/tmp/lkst_raw_test.open");
	ASSERT_GE(fd, 0);

	n = read_all(&self->l, self->recs, MAX_RECS);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		struct rec *r = &self->recs[i];

		if (r->pid != child)
			continue;
		if (r->event == (unsigned int)id_open) {
			EXPECT_EQ((uint64_t)(int64_t)AT_FDCWD, r->arg[0]);
			/* and the kernel's O_LARGEFILE (0100000 on x86, 0400000 on arm64) */
			EXPECT_EQ((uint64_t)(O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC),
				  r->arg[1] & ~(uint64_t)(0100000 | 0400000));
			EXPECT_EQ(0640, r->arg[2]);
			EXPECT_EQ(0, r->arg[3]);
			open_seen++;
		}
		if (r->event == (unsigned int)id_ret) {
			EXPECT_EQ((uint64_t)fd, r->arg[0]);
			ret_seen++;
		}
	}
	/* The child's only open() after fork: the one above */
	EXPECT_EQ(1, open_seen);
	EXPECT_EQ(1, ret_seen);

	/* Named by the maskset: not unbound; bound: the kprobe event stays */
	EXPECT_EQ(-EBUSY, write_str(LKST "/dynamic_events", "-:LKST_RAW_OPEN"));
	EXPECT_EQ(-EBUSY, write_str(KPROBES, "-:lkstst/LKST_RAW_OPEN"));
	ASSERT_EQ(0, write_str(LKST "/user_masksets", "!" MASKSET));
	EXPECT_EQ(0, write_str(LKST "/dynamic_events", "-:LKST_RAW_OPEN"));
	EXPECT_EQ(0, write_str(LKST "/dynamic_events", "-:LKST_RAW_OPENED"));
	EXPECT_EQ(0, write_str(KPROBES, "-:lkstst/LKST_RAW_OPEN"));
	EXPECT_EQ(0, write_str(KPROBES, "-:lkstst/LKST_RAW_OPENED"));
}

TEST_HARNESS_MAIN
