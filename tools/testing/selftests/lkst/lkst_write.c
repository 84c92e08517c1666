// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_write: write a string to a file in one write() and print the
 * outcome, so that shell tests can check the exact errno of a failing
 * write (the shell only says "write error").
 *
 *   lkst_write [-a] [-t] [-l] FILE TEXT
 *
 * -a opens with O_APPEND (">>"), -t with O_TRUNC (">"), -l ends TEXT with
 * a newline, as echo does (a name without one is only taken at close,
 * where an error cannot be returned).  Prints "OK", or the errno name of
 * the failing open() or write(), e.g. "EINVAL".  Options end at FILE, so
 * TEXT may start with a dash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *errname(int err)
{
	static char other[16];

	switch (err) {
	case EINVAL:	return "EINVAL";
	case EBUSY:	return "EBUSY";
	case EEXIST:	return "EEXIST";
	case ENOENT:	return "ENOENT";
	case EPERM:	return "EPERM";
	case EACCES:	return "EACCES";
	case ENOSPC:	return "ENOSPC";
	case E2BIG:	return "E2BIG";
	case EILSEQ:	return "EILSEQ";
	case EADDRNOTAVAIL:	return "EADDRNOTAVAIL";
	case ENODEV:	return "ENODEV";
	case ENOMEM:	return "ENOMEM";
	case EFAULT:	return "EFAULT";
	}
	snprintf(other, sizeof(other), "errno%d", err);
	return other;
}

int main(int argc, char **argv)
{
	int flags = O_WRONLY, opt, fd;
	bool newline = false;
	char *text;
	size_t len;

	while ((opt = getopt(argc, argv, "+atl")) != -1) {
		switch (opt) {
		case 'l':
			newline = true;
			break;
		case 'a':
			flags |= O_APPEND;
			break;
		case 't':
			flags |= O_TRUNC;
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind != 2)
		goto usage;

	fd = open(argv[optind], flags);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	len = strlen(argv[optind + 1]);
	text = malloc(len + 2);
	if (!text)
		return 2;
	memcpy(text, argv[optind + 1], len);
	if (newline)
		text[len++] = '\n';
	if (write(fd, text, len) != (ssize_t)len)
		printf("%s\n", errname(errno));
	else
		printf("OK\n");
	close(fd);
	return 0;

usage:
	fprintf(stderr, "usage: %s [-a] [-t] [-l] FILE TEXT\n", argv[0]);
	return 2;
}
