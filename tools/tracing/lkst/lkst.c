// SPDX-License-Identifier: GPL-2.0
/*
 * lkst: record and analyse the traces of LKST, the Linux Kernel State
 * Tracer (Documentation/trace/lkst/index.rst).
 *
 *   # lkst record -m RDEFAULT -o /var/tmp/rec -- make -j4
 *   $ lkst report /var/tmp/rec --comm make | less
 *   $ lkst states /var/tmp/rec --svg states.svg
 *   $ lkst latency /var/tmp/rec
 *   $ lkst export --perfetto /var/tmp/rec -o rec.json
 *   # lkst extract /proc/vmcore -o /var/crash/lkst
 *
 * A recording is a directory: the per-CPU raw files, exactly the pages
 * the kernel handed out, and the files that describe them (format,
 * header_page, header_event, available_events, comm, kallsyms), so that it
 * can be analysed on any other machine, and the same records as trace.dat
 * for trace-cmd.  The analyses read a trace.dat (lkst record's, trace-cmd
 * extract -B lkst's) as they read a directory.
 */
#include <stdlib.h>
#include <string.h>

#include "lkst.h"

static const struct {
	const char	*name;
	int		(*fn)(int argc, char **argv);
	const char	*help;
} lkst_cmds[] = {
	{ "record",	cmd_record,	"record LKST events into a directory" },
	{ "snapshot",	cmd_snapshot,	"save what the buffers hold now, recording on" },
	{ "watch",	cmd_watch,	"a snapshot each time a handler notifies" },
	{ "apply",	cmd_apply,	"set LKST up from /etc/lkst/lkst.conf, all or nothing" },
	{ "report",	cmd_report,	"print a recording as text, merged by time" },
	{ "states",	cmd_states,	"time each process spent running, ready, blocked" },
	{ "latency",	cmd_latency,	"wakeup, system call and interrupt latencies" },
	{ "export",	cmd_export,	"convert a recording for other viewers" },
	{ "extract",	cmd_extract,	"LKST's records out of a vmcore, as a recording" },
};

static void lkst_usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: lkst COMMAND [OPTIONS] ...\n\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(lkst_cmds); i++)
		fprintf(f, "  %-8s  %s\n", lkst_cmds[i].name, lkst_cmds[i].help);
	fprintf(f, "\n'lkst COMMAND --help' describes a command.\n"
		"Exit status: 0 success, 1 error or damaged input, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		lkst_usage(stderr);
		return LKST_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		lkst_usage(stdout);
		return LKST_EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(lkst_cmds); i++)
		if (!strcmp(argv[1], lkst_cmds[i].name))
			return lkst_cmds[i].fn(argc - 1, argv + 1);
	lkst_err("unknown command '%s'", argv[1]);
	lkst_usage(stderr);
	return LKST_EXIT_USAGE;
}
