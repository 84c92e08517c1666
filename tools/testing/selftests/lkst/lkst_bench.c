// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_bench - user-space loops for measuring LKST's cost per event.
 *
 *   lkst_bench syscall N    N calls of getppid(): one SYSCALL_ENTRY and one
 *                           SYSCALL_EXIT event each
 *   lkst_bench pingpong N   N round trips of one byte between two processes
 *                           pinned to the same CPU through two pipes: each
 *                           trip wakes and switches to the other process
 *                           twice
 *   lkst_bench fault N      N write faults on anonymous memory: a page is
 *                           touched, and every 256 pages all of them are
 *                           given back with madvise(MADV_DONTNEED)
 *   lkst_bench mixed N      N rounds of a small fixed workload: fork a
 *                           child that writes a byte to a pipe and execs
 *                           this program to exit at once, read the byte,
 *                           wait for the child, write, read back and remove
 *                           a 4 KiB file in the current directory
 *   lkst_bench rate R MS    getppid() paced at R calls per second (0: as
 *                           fast as possible) for MS milliseconds; prints
 *                           "rate R MS CALLS_PER_SECOND", the rate reached
 *
 * They run on CPU 0 (or the CPU given with -c), children included.  Every
 * mode but rate prints one line, "MODE N NS_PER_OP", with the time of the
 * whole loop on CLOCK_MONOTONIC divided by N.  In a QEMU guest run with
 * -icount shift=0,sleep=off that clock advances 1 ns per guest
 * instruction, so NS_PER_OP is an instruction count.  What a tracer adds
 * per event is derived by the caller from the difference to an untraced
 * run and the tracer's own event counters, so nothing here assumes how
 * many events an operation fires.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cpu;

static void die(const char *what)
{
	fprintf(stderr, "lkst_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long bench_syscall(unsigned long n)
{
	unsigned long long t0 = now_ns();
	unsigned long i;

	/* syscall() directly: the C library may cache getppid() one day. */
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return now_ns() - t0;
}

/*
 * Calls are issued on a schedule (call i at t0 + i / R), so a slow call
 * is caught up on rather than lowering the rate; the rate reached is
 * printed, and is below R only when the CPU cannot keep up.
 */
static double bench_rate(unsigned long rate, unsigned long ms)
{
	unsigned long long t0 = now_ns(), end = t0 + ms * 1000000ULL, t;
	unsigned long i = 0;

	for (;;) {
		t = now_ns();
		if (t >= end)
			break;
		if (rate && t < t0 + i * 1000000000ULL / rate)
			continue;
		syscall(SYS_getppid);
		i++;
	}
	return i * 1e9 / (t - t0);
}

#define FAULT_PAGES	256

static unsigned long long bench_fault(unsigned long n)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long t0;
	unsigned long i;
	char *mem;

	mem = mmap(NULL, FAULT_PAGES * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap");
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		mem[(i % FAULT_PAGES) * page] = 1;
		if (i % FAULT_PAGES == FAULT_PAGES - 1 &&
		    madvise(mem, FAULT_PAGES * page, MADV_DONTNEED))
			die("madvise");
	}
	t0 = now_ns() - t0;
	munmap(mem, FAULT_PAGES * page);
	return t0;
}

static unsigned long long bench_mixed(unsigned long n, const char *self)
{
	static char buf[4096];
	unsigned long long t0 = now_ns();
	unsigned long i;
	int p[2], fd, status;
	pid_t pid;

	for (i = 0; i < n; i++) {
		if (pipe(p))
			die("pipe");
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			if (write(p[1], buf, 1) != 1)
				die("write");
			execl(self, self, "exit", (char *)NULL);
			die("exec");
		}
		if (read(p[0], buf, 1) != 1)
			die("read");
		close(p[0]);
		close(p[1]);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			die("child");
		fd = open("lkst_bench.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			die("open");
		if (write(fd, buf, sizeof(buf)) != sizeof(buf) ||
		    pread(fd, buf, sizeof(buf), 0) != sizeof(buf))
			die("file");
		close(fd);
		if (unlink("lkst_bench.tmp"))
			die("unlink");
	}
	return now_ns() - t0;
}

static void xfer(int in, int out, char *c)
{
	if (write(out, c, 1) != 1)
		die("write");
	if (in >= 0 && read(in, c, 1) != 1)
		die("read");
}

static unsigned long long bench_pingpong(unsigned long n)
{
	unsigned long long t0, t;
	int to_child[2], to_parent[2];
	unsigned long i;
	char c = 0;
	pid_t pid;
	int status;

	if (pipe(to_child) || pipe(to_parent))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		for (i = 0; i < n; i++) {
			if (read(to_child[0], &c, 1) != 1)
				die("read");
			xfer(-1, to_parent[1], &c);
		}
		_exit(0);
	}
	t0 = now_ns();
	for (i = 0; i < n; i++)
		xfer(to_parent[0], to_child[1], &c);
	t = now_ns() - t0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("child");
	return t;
}

int main(int argc, char **argv)
{
	unsigned long long ns;
	unsigned long n;
	char *end;
	int opt;

	/* The child of mixed. */
	if (argc == 2 && !strcmp(argv[1], "exit"))
		return 0;
	while ((opt = getopt(argc, argv, "c:")) != -1) {
		if (opt != 'c')
			goto usage;
		cpu = atoi(optarg);
	}
	if (argc - optind < 2)
		goto usage;

	pin();
	if (!strcmp(argv[optind], "rate")) {
		unsigned long ms;

		if (argc - optind != 3)
			goto usage;
		n = strtoul(argv[optind + 1], &end, 0);
		if (*end)
			goto usage;
		ms = strtoul(argv[optind + 2], &end, 0);
		if (*end || !ms)
			goto usage;
		printf("rate %lu %lu %.0f\n", n, ms, bench_rate(n, ms));
		return 0;
	}
	if (argc - optind != 2)
		goto usage;
	n = strtoul(argv[optind + 1], &end, 0);
	if (*end || !n)
		goto usage;
	if (!strcmp(argv[optind], "syscall"))
		ns = bench_syscall(n);
	else if (!strcmp(argv[optind], "pingpong"))
		ns = bench_pingpong(n);
	else if (!strcmp(argv[optind], "fault"))
		ns = bench_fault(n);
	else if (!strcmp(argv[optind], "mixed"))
		ns = bench_mixed(n, "/proc/self/exe");
	else
		goto usage;
	printf("%s %lu %.1f\n", argv[optind], n, (double)ns / n);
	return 0;
usage:
	fprintf(stderr, "usage: lkst_bench [-c CPU] syscall|pingpong|fault|mixed N\n"
			"       lkst_bench [-c CPU] rate CALLS_PER_SECOND MS\n");
	return 2;
}
