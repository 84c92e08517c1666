// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_poll: wait with poll() until FILE is readable, for shell tests of
 * lkst/notify and per_cpu/cpuN/raw.
 *
 *   lkst_poll FILE TIMEOUT_MS
 *
 * Opens FILE, prints "waiting" (so a test knows the poller is in place),
 * polls, and prints "ready" followed by the first line of FILE and exits
 * 0, or prints "timeout" and exits 1.
 */
#include <poll.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct pollfd pfd = { .events = POLLIN | POLLPRI };
	char buf[128];
	ssize_t n;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s FILE TIMEOUT_MS\n", argv[0]);
		return 2;
	}
	pfd.fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (pfd.fd < 0) {
		perror(argv[1]);
		return 2;
	}
	printf("waiting\n");
	fflush(stdout);

	ret = poll(&pfd, 1, atoi(argv[2]));
	if (ret <= 0) {
		printf("timeout\n");
		return 1;
	}
	n = read(pfd.fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	printf("ready %s", buf);
	return 0;
}
