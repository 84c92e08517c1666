// SPDX-License-Identifier: GPL-2.0
/*
 * LKST hardening tests: misuse of the tracefs files must be refused with
 * an errno and an error_log entry, never crash the kernel, lose what was
 * written or change state silently.  Each test is the regression test of
 * one defect found by trying the files as a new user would.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define TRACING	"/sys/kernel/tracing"
#define LKST	TRACING "/lkst"
#define INST	TRACING "/instances/lkst"	/* the default buffer's */
#define MS	LKST "/masksets/"

/* Write @len bytes of @s in one write() to a file opened with @flags. */
static int write_flags(const char *path, int flags, const char *s, size_t len)
{
	int fd = open(path, O_WRONLY | flags), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, len) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int write_str(const char *path, const char *s)
{
	return write_flags(path, 0, s, strlen(s));
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

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* How many entries of the tracing error log are LKST's. */
static int lkst_errors(void)
{
	char *log = slurp(TRACING "/error_log"), *p;
	int n = 0;

	for (p = log; p && (p = strstr(p, "] lkst: ")); p++)
		n++;
	return n;
}

static bool error_log_has(const char *msg)
{
	char *log = slurp(TRACING "/error_log");

	return log && strstr(log, msg);
}

static int open_raw(const char *dir, int cpu, int flags)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/raw", dir, cpu);
	return open(path, O_RDONLY | flags);
}

/* The state letter of /proc/PID/stat: R, S, D, ... */
static char task_state(pid_t pid)
{
	char path[64], buf[512], *p;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] ? p[2] : '?';
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 +
	       (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Wait for @pid at most @ms milliseconds; its exit status or -1. */
static int wait_ms(pid_t pid, long ms)
{
	struct timespec t0;
	int status;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (ms_since(&t0) < ms) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		usleep(10000);
	}
	return -1;
}

/* Kernel log lines that mean a kernel bug: none may appear while we run. */
static int kernel_splats(void)
{
	static const char * const bad[] = {
		"WARNING:", "BUG:", "Oops", "general protection", "KASAN",
		"UBSAN", "possible circular locking", "suspicious RCU usage",
	};
	static char log[1 << 20];
	unsigned int i;
	int n, count = 0;
	char *p;

	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
	if (n < 0)
		return -1;
	log[n] = '\0';
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		for (p = log; (p = strstr(p, bad[i])); p++)
			count++;
	return count;
}

static int splats_at_start;

static void __attribute__((constructor)) count_splats_at_start(void)
{
	splats_at_start = kernel_splats();
}

FIXTURE(lkst) {
	int dummy;
};

FIXTURE_SETUP(lkst)
{
	if (getuid())
		SKIP(return, "must be run as root");
	if (!exists(LKST))
		SKIP(return, "kernel has no LKST (CONFIG_LKST=n)");
	ASSERT_EQ(0, write_str(LKST "/maskset", "RNOTHING\n"));
	write_flags(LKST "/user_masksets", O_TRUNC, "", 0);
	write_flags(LKST "/user_buffers", O_TRUNC, "", 0);
	/* "> trace" of the instance clears */
	ASSERT_EQ(0, write_flags(INST "/trace", O_TRUNC, "", 0));
}

FIXTURE_TEARDOWN(lkst)
{
	write_str(LKST "/maskset", "RNOTHING\n");
	write_flags(LKST "/user_masksets", O_TRUNC, "", 0);
	write_flags(LKST "/user_buffers", O_TRUNC, "", 0);
}

/* A maskset "hold" that records O_PANIC, which never fires, into @buf. */
static void recording_without_records(struct __test_metadata *_metadata,
				      const char *buf)
{
	char line[64];

	snprintf(line, sizeof(line), "O_PANIC DEFAULT %s\n", buf);
	ASSERT_EQ(0, write_str(LKST "/user_masksets", "hold\n"));
	ASSERT_EQ(0, write_flags(MS "hold", O_TRUNC, line, strlen(line)));
	ASSERT_EQ(0, write_str(LKST "/maskset", "hold\n"));
}

/*
 * Defect 1: python3 -c "open('.../lkst/trace', 'w')" oopsed in seq_lseek.
 * That file is gone; the instance's trace, which replaced it, behaves.
 */
TEST_F(lkst, trace_opened_write_only_can_be_seeked)
{
	static const int modes[] = { O_WRONLY, O_WRONLY | O_TRUNC,
				     O_WRONLY | O_APPEND };
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		fd = open(INST "/trace", modes[i]);
		ASSERT_GE(fd, 0);
		EXPECT_EQ(0, lseek(fd, 0, SEEK_CUR));
		EXPECT_EQ(0, lseek(fd, 0, SEEK_END));
		EXPECT_EQ(0, lseek(fd, 100, SEEK_SET));
		EXPECT_EQ(1, write(fd, "x", 1));
		close(fd);
	}
}

static int nr_files;
static int nr_calls;

/* Errnos a file may answer a call it does not support with */
static bool documented_errno(int err)
{
	switch (err) {
	case EINVAL: case E2BIG: case EBUSY: case EEXIST: case ENOENT:
	case ENOSPC: case EPERM: case ENODEV: case EAGAIN: case ESPIPE:
	case EBADF: case ENOTTY: case EACCES:
		return true;
	}
	return false;
}

#define CALL(expr) do {							\
	nr_calls++;							\
	if ((long)(expr) < 0 && !documented_errno(errno))		\
		ksft_print_msg("%s: %s: %s\n", path, #expr,		\
			       strerror(errno)), bad++;			\
} while (0)

/* Every syscall on one file in one mode; the count of odd errnos. */
static int exercise(const char *path, int mode)
{
	struct pollfd pfd = { .events = POLLIN | POLLOUT };
	int fd, pipefd[2], bad = 0;
	char buf[4096];
	void *map;

	fd = open(path, mode | O_NONBLOCK);
	if (fd < 0)
		return documented_errno(errno) ? 0 : 1;
	CALL(lseek(fd, 0, SEEK_SET));
	CALL(lseek(fd, 10, SEEK_CUR));
	CALL(lseek(fd, 0, SEEK_END));
	CALL(lseek(fd, 0, SEEK_SET));
	CALL(read(fd, buf, 0));
	CALL(read(fd, buf, 1));
	CALL(read(fd, buf, sizeof(buf)));
	CALL(pread(fd, buf, sizeof(buf), 0));
	pfd.fd = fd;
	CALL(poll(&pfd, 1, 0));
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (map != MAP_FAILED)
		munmap(map, 4096);
	else
		CALL(-1L);
	CALL(ioctl(fd, FIONREAD, buf));
	if (!pipe(pipefd)) {
		CALL(splice(fd, NULL, pipefd[1], NULL, 4096, SPLICE_F_NONBLOCK));
		close(pipefd[0]);
		close(pipefd[1]);
	}
	/* Invalid everywhere: a '/' is in no name, event or number */
	CALL(write(fd, "lkst/nonsense", 13));
	CALL(write(fd, "", 0));
	close(fd);
	return bad;
}

/* Walk every LKST file; @dir relative to LKST. */
static int exercise_tree(const char *dir)
{
	static const int modes[] = {
		O_RDONLY, O_WRONLY, O_RDWR, O_WRONLY | O_APPEND,
		O_RDWR | O_APPEND, O_WRONLY | O_TRUNC,
	};
	char path[PATH_MAX];
	struct dirent *de;
	unsigned int i;
	int bad = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_type == DT_DIR) {
			bad += exercise_tree(path);
			continue;
		}
		nr_files++;
		for (i = 0; i < ARRAY_SIZE(modes); i++) {
			/* Truncating these removes what is being walked */
			if ((modes[i] & O_TRUNC) &&
			    (!strcmp(de->d_name, "user_masksets") ||
			     !strcmp(de->d_name, "user_buffers")))
				continue;
			bad += exercise(path, modes[i]);
		}
	}
	closedir(d);
	return bad;
}

/* Defect 1, the whole class: every file x open mode x syscall */
TEST_F(lkst, every_file_answers_every_syscall_in_every_mode)
{
	ASSERT_EQ(0, write_str(LKST "/user_masksets", "m1\n"));
	ASSERT_EQ(0, write_str(LKST "/user_buffers", "b1\n"));
	EXPECT_EQ(0, exercise_tree(LKST));
	ksft_print_msg("%d files, %d calls\n", nr_files, nr_calls);
	EXPECT_GT(nr_files, 20);
	/* Still what it was: the nonsense written was refused everywhere */
	EXPECT_STREQ("RNOTHING\n", slurp(LKST "/maskset"));
	EXPECT_STREQ("m1\n", slurp(LKST "/user_masksets"));
}

/* Defect 2: a write through an open file of a removed maskset */
TEST_F(lkst, maskset_file_kept_open_across_removal_fails_with_enodev)
{
	static char big[9000];
	int fd;

	ASSERT_EQ(0, write_str(LKST "/user_masksets", "gone\n"));
	fd = open(MS "gone", O_WRONLY | O_TRUNC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, write_str(LKST "/user_masksets", "!gone\n"));
	/* The slab object is free now: the next maskset may reuse it */
	ASSERT_EQ(0, write_str(LKST "/user_masksets", "next\n"));

	EXPECT_EQ(-1, write(fd, "PROCESS_FORK DEFAULT\n", 21));
	EXPECT_EQ(ENODEV, errno);
	memset(big, 'x', sizeof(big));
	EXPECT_EQ(-1, write(fd, big, sizeof(big)));
	close(fd);
	EXPECT_STREQ("", slurp(MS "next"));
	EXPECT_FALSE(exists(MS "gone"));
	EXPECT_EQ(-1, open(MS "gone", O_RDONLY));
}

/*
 * Defect 2, buffers: files of a removed buffer kept open.  (Its size is
 * the instance's buffer_size_kb, which goes with the instance's last
 * reference.)
 */
TEST_F(lkst, buffer_files_kept_open_across_removal_read_end_of_file)
{
	char page[4096];
	int raw;

	ASSERT_EQ(0, write_str(LKST "/user_buffers", "bgone\n"));
	raw = open_raw(LKST "/buffers/bgone", 0, 0);
	ASSERT_GE(raw, 0);
	ASSERT_EQ(0, write_str(LKST "/user_buffers", "!bgone\n"));
	ASSERT_EQ(0, write_str(LKST "/user_buffers", "bnext\n"));

	alarm(10);
	EXPECT_EQ(0, read(raw, page, sizeof(page)));
	alarm(0);
	close(raw);
	/* the last reference went with the file */
	EXPECT_FALSE(exists(TRACING "/instances/lkst.bgone"));
	EXPECT_TRUE(exists(LKST "/buffers/bnext/per_cpu/cpu0/raw"));
}

/* Defect 3: cat per_cpu/cpu0/raw never ended */
TEST_F(lkst, raw_of_idle_buffer_reads_end_of_file)
{
	char page[4096];
	int fd;

	fd = open_raw(LKST, 0, 0);
	ASSERT_GE(fd, 0);
	alarm(10);
	EXPECT_EQ(0, read(fd, page, sizeof(page)));
	alarm(0);
	close(fd);

	/* A buffer that is off is idle too, whatever the maskset says */
	recording_without_records(_metadata, "default");
	ASSERT_EQ(0, write_str(INST "/tracing_on", "0"));
	fd = open_raw(LKST, 0, 0);
	alarm(10);
	EXPECT_EQ(0, read(fd, page, sizeof(page)));
	alarm(0);
	close(fd);
	ASSERT_EQ(0, write_str(INST "/tracing_on", "1"));
}

/* While recording, an empty buffer blocks (or says EAGAIN) instead */
TEST_F(lkst, raw_of_recording_buffer_waits_for_records)
{
	struct pollfd pfd = { .events = POLLIN };
	char page[4096];

	recording_without_records(_metadata, "default");
	pfd.fd = open_raw(LKST, 0, O_NONBLOCK);
	ASSERT_GE(pfd.fd, 0);
	EXPECT_EQ(-1, read(pfd.fd, page, sizeof(page)));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(0, poll(&pfd, 1, 100));
	/* Stopping the recording makes end of file readable */
	ASSERT_EQ(0, write_str(LKST "/maskset", "RNOTHING\n"));
	EXPECT_EQ(1, poll(&pfd, 1, 5000));
	EXPECT_EQ(0, read(pfd.fd, page, sizeof(page)));
	close(pfd.fd);
}

/* Fork a reader blocked in read() of @fd; it exits with 0 on EOF. */
static pid_t blocked_reader(int fd)
{
	char page[4096];
	pid_t pid = fork();

	if (!pid) {
		alarm(20);
		_exit(read(fd, page, sizeof(page)) == 0 ? 0 : 1);
	}
	usleep(300000);
	return pid;
}

TEST_F(lkst, blocked_raw_reader_wakes_when_recording_stops)
{
	pid_t pid;
	int fd;

	recording_without_records(_metadata, "default");
	fd = open_raw(LKST, 0, 0);
	ASSERT_GE(fd, 0);
	pid = blocked_reader(fd);
	EXPECT_EQ(-1, wait_ms(pid, 200));	/* still blocked */
	ASSERT_EQ(0, write_str(LKST "/maskset", "RNOTHING\n"));
	EXPECT_EQ(0, wait_ms(pid, 5000));
	close(fd);
}

TEST_F(lkst, blocked_raw_reader_wakes_on_close)
{
	pid_t pid;
	int fd;

	recording_without_records(_metadata, "default");
	fd = open_raw(LKST, 0, 0);
	ASSERT_GE(fd, 0);
	pid = blocked_reader(fd);
	EXPECT_EQ(-1, wait_ms(pid, 200));
	close(fd);				/* .flush */
	EXPECT_EQ(0, wait_ms(pid, 5000));
}

TEST_F(lkst, blocked_raw_reader_wakes_when_tracing_is_turned_off)
{
	pid_t pid;
	int fd;

	recording_without_records(_metadata, "default");
	fd = open_raw(LKST, 0, 0);
	ASSERT_GE(fd, 0);
	pid = blocked_reader(fd);
	EXPECT_EQ(-1, wait_ms(pid, 200));
	ASSERT_EQ(0, write_str(INST "/tracing_on", "0"));
	EXPECT_EQ(0, wait_ms(pid, 5000));
	write_str(INST "/tracing_on", "1");
	close(fd);
}

/* Two readers of one fd, one in read(), one in splice(): both killable */
TEST_F(lkst, two_readers_of_one_fd_are_never_in_d_state)
{
	pid_t reader, splicer;
	int fd, pipefd[2];

	recording_without_records(_metadata, "default");
	fd = open_raw(LKST, 0, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(pipefd));
	reader = blocked_reader(fd);
	splicer = fork();
	if (!splicer) {
		splice(fd, NULL, pipefd[1], NULL, 4096, 0);
		_exit(0);
	}
	usleep(300000);
	EXPECT_NE('D', task_state(reader));
	EXPECT_NE('D', task_state(splicer));
	kill(reader, SIGKILL);
	kill(splicer, SIGKILL);
	EXPECT_NE(-1, wait_ms(reader, 5000));
	EXPECT_NE(-1, wait_ms(splicer, 5000));
	close(fd);
}

/* Defect 4: printf 'A\nA-again\n' failed with EINVAL and installed A */
TEST_F(lkst, refused_write_installs_nothing)
{
	int fd;

	ASSERT_EQ(0, write_str(LKST "/user_masksets", "x\n"));
	ASSERT_EQ(0, write_flags(MS "x", O_TRUNC, "PROCESS_EXIT DEFAULT\n", 21));

	fd = open(MS "x", O_WRONLY | O_TRUNC);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(23, write(fd, "PROCESS_WAKEUP DEFAULT\n", 23));
	EXPECT_EQ(-1, write(fd, "PROCESS_WAKEUP NOTHING\n", 23));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	EXPECT_STREQ("PROCESS_EXIT DEFAULT\n", slurp(MS "x"));
	EXPECT_TRUE(error_log_has("Duplicate event"));

	/* The same two lines in one write */
	EXPECT_EQ(-EINVAL, write_flags(MS "x", O_TRUNC,
				       "PROCESS_WAKEUP DEFAULT\nPROCESS_WAKEUP NOTHING\n",
				       46));
	EXPECT_STREQ("PROCESS_EXIT DEFAULT\n", slurp(MS "x"));
}

/* Lines written are installed when the file is closed, all together */
TEST_F(lkst, table_is_installed_at_close)
{
	int fd;

	ASSERT_EQ(0, write_str(LKST "/user_masksets", "x\n"));
	fd = open(MS "x", O_WRONLY | O_TRUNC);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(10, write(fd, "PROCESS_FO", 10));
	EXPECT_EQ(11, write(fd, "RK DEFAULT\n", 11));
	EXPECT_EQ(7, write(fd, "PROCESS", 7));
	EXPECT_STREQ("", slurp(MS "x"));	/* not yet */
	EXPECT_EQ(13, write(fd, "_EXIT NOTHING", 13));	/* no newline */
	close(fd);
	EXPECT_STREQ("PROCESS_FORK DEFAULT\nPROCESS_EXIT NOTHING\n", slurp(MS "x"));

	/* A bad last line without newline cancels the whole table */
	EXPECT_EQ(0, write_str(MS "x", "PROCESS_EXEC DEFAULT\nBOGUS"));
	EXPECT_STREQ("PROCESS_FORK DEFAULT\nPROCESS_EXIT NOTHING\n", slurp(MS "x"));
	EXPECT_TRUE(error_log_has("Unknown event"));
}

/* ">>" adds to the table as it is at close, not as it was at open */
TEST_F(lkst, append_does_not_resurrect_an_old_table)
{
	int fd;

	ASSERT_EQ(0, write_str(LKST "/user_masksets", "x\n"));
	ASSERT_EQ(0, write_flags(MS "x", O_TRUNC, "PROCESS_FORK DEFAULT\n", 21));
	fd = open(MS "x", O_WRONLY | O_APPEND);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(21, write(fd, "PROCESS_EXIT DEFAULT\n", 21));
	/* Meanwhile somebody else replaces the table */
	ASSERT_EQ(0, write_flags(MS "x", O_TRUNC, "PROCESS_EXEC DEFAULT\n", 21));
	close(fd);
	EXPECT_STREQ("PROCESS_EXEC DEFAULT\nPROCESS_EXIT DEFAULT\n", slurp(MS "x"));
}

/* Defect 5: a name split across two writes is one name */
TEST_F(lkst, name_split_across_writes_is_one_name)
{
	int fd;

	fd = open(LKST "/user_masksets", O_WRONLY);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(3, write(fd, "spl", 3));
	EXPECT_EQ(4, write(fd, "it\nx", 4));
	EXPECT_TRUE(exists(MS "split"));
	EXPECT_FALSE(exists(MS "x"));		/* unfinished: at close */
	EXPECT_EQ(2, write(fd, "y\n", 2));
	close(fd);
	EXPECT_TRUE(exists(MS "xy"));
	EXPECT_FALSE(exists(MS "spl"));
	EXPECT_FALSE(exists(MS "it"));

	fd = open(LKST "/maskset", O_WRONLY);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(2, write(fd, "RA", 2));
	EXPECT_EQ(3, write(fd, "LL\n", 3));
	EXPECT_STREQ("RALL\n", slurp(LKST "/maskset"));
	close(fd);
}

/* Defect 5: NUL bytes cut the input and the write still succeeded */
TEST_F(lkst, nul_byte_is_refused_everywhere)
{
	int before;

	/* The tracing error log keeps the last 8 entries */
	write_flags(TRACING "/error_log", O_TRUNC, "", 0);
	before = lkst_errors();

	EXPECT_EQ(-EINVAL, write_flags(LKST "/user_masksets", 0, "a\0b\n", 4));
	EXPECT_FALSE(exists(MS "a"));
	EXPECT_FALSE(exists(MS "b"));
	EXPECT_EQ(-EINVAL, write_flags(LKST "/maskset", 0, "RALL\0\n", 6));
	EXPECT_STREQ("RNOTHING\n", slurp(LKST "/maskset"));
	ASSERT_EQ(0, write_str(LKST "/user_masksets", "x\n"));
	EXPECT_EQ(-EINVAL, write_flags(MS "x", O_TRUNC,
				       "PROCESS_FORK DEFAULT\0junk\n", 26));
	EXPECT_STREQ("", slurp(MS "x"));
	EXPECT_EQ(before + 3, lkst_errors());
	EXPECT_TRUE(error_log_has("NUL byte in input"));
}

/* Defect 4: multi-name writes to user_masksets are all or nothing */
TEST_F(lkst, multi_name_write_is_all_or_nothing)
{
	EXPECT_EQ(-ENOENT, write_str(LKST "/user_masksets", "a b !nosuch\n"));
	EXPECT_FALSE(exists(MS "a"));
	EXPECT_FALSE(exists(MS "b"));
	EXPECT_EQ(-EEXIST, write_str(LKST "/user_buffers", "c d c\n"));
	EXPECT_FALSE(exists(LKST "/buffers/c"));
	EXPECT_FALSE(exists(LKST "/buffers/d"));
	EXPECT_EQ(0, write_str(LKST "/user_masksets", "a b !a\n"));
	EXPECT_STREQ("b\n", slurp(LKST "/user_masksets"));
}

/* Defect 5: every refusal leaves an error_log entry */
TEST_F(lkst, every_refusal_is_in_error_log)
{
	char name[32];
	int before, i;

	ASSERT_EQ(0, write_str(LKST "/user_masksets", "x\n"));
	/* The tracing error log keeps the last 8 entries */
	write_flags(TRACING "/error_log", O_TRUNC, "", 0);
	before = lkst_errors();
	EXPECT_EQ(-EEXIST, write_str(LKST "/user_masksets", "x\n"));
	EXPECT_EQ(-EPERM, write_str(LKST "/user_masksets", "!RALL\n"));
	EXPECT_EQ(-EPERM, write_str(MS "RALL", "PROCESS_FORK DEFAULT\n"));
	ASSERT_EQ(0, write_str(LKST "/maskset", "x\n"));
	EXPECT_EQ(-EBUSY, write_str(LKST "/user_masksets", "!x\n"));
	EXPECT_EQ(-EINVAL, write_str(LKST "/maskset", "nosuch\n"));
	EXPECT_EQ(before + 5, lkst_errors());
	ASSERT_EQ(0, write_str(LKST "/maskset", "RNOTHING\n"));

	for (i = 1; i < 64; i++) {
		snprintf(name, sizeof(name), "m%d\n", i);
		ASSERT_EQ(0, write_str(LKST "/user_masksets", name));
	}
	EXPECT_EQ(-ENOSPC, write_str(LKST "/user_masksets", "one_too_many\n"));
	EXPECT_EQ(before + 6, lkst_errors());
	EXPECT_TRUE(error_log_has("Too many user objects"));
}

/* Defect 6: a NOTHING line reads back as written */
TEST_F(lkst, nothing_line_reads_back_as_written)
{
	static const char table[] = "PROCESS_FORK NOTHING\nPROCESS_EXIT DEFAULT\n";

	ASSERT_EQ(0, write_str(LKST "/user_masksets", "x\n"));
	ASSERT_EQ(0, write_flags(MS "x", O_TRUNC, table, strlen(table)));
	EXPECT_STREQ(table, slurp(MS "x"));
}

/* Last: nothing above made the kernel warn (seq_open(), lockdep, ...) */
TEST_F(lkst, kernel_log_has_no_new_warning)
{
	EXPECT_EQ(splats_at_start, kernel_splats());
}

TEST_HARNESS_MAIN
