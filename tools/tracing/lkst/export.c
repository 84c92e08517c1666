// SPDX-License-Identifier: GPL-2.0
/*
 * lkst export --perfetto: the Chrome trace-event JSON format, which
 * ui.perfetto.dev and chrome://tracing open.
 *
 *   "CPUs" (pid 0): a track per CPU, a slice per process run on it
 *   each process:   a track with its running, ready and blocked slices
 *
 * Times are microseconds since the start of the recording.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lkst.h"

static void lkst_export_usage(FILE *f)
{
	fprintf(f,
		"usage: lkst export --perfetto DIR -o FILE.json\n"
		"\n"
		"Convert the recording DIR to the Chrome trace-event JSON format, for\n"
		"ui.perfetto.dev or chrome://tracing: a track per CPU with the processes\n"
		"that ran on it, and a track per process with its running, ready and\n"
		"blocked slices.\n"
		"DIR may also be a trace.dat file: DIR/trace.dat of 'lkst record', or one\n"
		"of trace-cmd extract -B lkst or trace-cmd record (the buffer instance\n"
		"lkst, else the top buffer); the output is the same as for its directory.\n"
		"\n"
		"  -P, --perfetto     the format (the only one for now)\n"
		"  -o, --output FILE  the JSON file to write\n"
		"  -h, --help         this text\n");
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < ' ' || c >= 127)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static double json_us(const struct lkst_trace *t, uint64_t ts)
{
	return (ts - t->start) / 1e3;
}

static void json_meta(FILE *f, bool *first, const char *what, uint32_t pid,
		      uint32_t tid, const char *name)
{
	fprintf(f, "%s{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
		*first ? "" : ",\n", what, pid, tid);
	json_str(f, name);
	fputs("}}", f);
	*first = false;
}

static void json_slice(FILE *f, bool *first, const char *name, uint32_t pid,
		       uint32_t tid, double ts, double dur)
{
	fprintf(f, "%s{\"ph\":\"X\",\"name\":", *first ? "" : ",\n");
	json_str(f, name);
	fprintf(f, ",\"pid\":%u,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f}", pid, tid,
		ts, dur);
	*first = false;
}

static int lkst_export_json(const struct lkst_trace *t,
			    const struct lkst_procs *ps, const char *path)
{
	char name[64];
	bool first = true;
	size_t i, k;
	int cpu;
	FILE *f;

	f = fopen(path, "w");
	if (!f) {
		lkst_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
	json_meta(f, &first, "process_name", 0, 0, "CPUs");
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		snprintf(name, sizeof(name), "CPU %d", cpu);
		json_meta(f, &first, "thread_name", 0, cpu, name);
	}
	for (i = 0; i < ps->nr; i++) {
		const struct lkst_proc *p = &ps->p[i];

		snprintf(name, sizeof(name), "%s %u", lkst_comm(t, p->pid), p->pid);
		json_meta(f, &first, "process_name", p->pid, p->pid, name);
		json_meta(f, &first, "thread_name", p->pid, p->pid, "state");
		for (k = 0; k < p->nr_span; k++) {
			const struct lkst_span *s = &p->span[k];
			double ts = json_us(t, s->from);
			double dur = (s->to - s->from) / 1e3;

			json_slice(f, &first, lkst_state_names[s->state],
				   p->pid, p->pid, ts, dur);
			if (s->state == LKST_S_RUNNING)
				json_slice(f, &first, name, 0, s->cpu, ts, dur);
		}
	}
	fputs("\n]}\n", f);
	if (fclose(f)) {
		lkst_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	return 0;
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "perfetto",	no_argument,		NULL, 'P' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	const char *out = NULL;
	struct lkst_procs ps;
	struct lkst_trace t;
	bool perfetto = false;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "Po:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'P':
			perfetto = true;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			lkst_export_usage(stdout);
			return LKST_EXIT_OK;
		default:
			lkst_export_usage(stderr);
			return LKST_EXIT_USAGE;
		}
	}
	if (!perfetto || !out || optind != argc - 1) {
		lkst_err("export: --perfetto, -o FILE and one recording (directory or trace.dat) expected");
		lkst_export_usage(stderr);
		return LKST_EXIT_USAGE;
	}
	if (lkst_trace_load(&t, argv[optind]))
		return LKST_EXIT_FAIL;
	ret = LKST_EXIT_FAIL;
	if (!lkst_states_build(&t, &ps, true)) {
		if (!lkst_export_json(&t, &ps, out))
			ret = LKST_EXIT_OK;
		lkst_states_free(&ps);
	}
	lkst_trace_warn_missed(&t);
	if (t.damaged) {
		lkst_err("%s is damaged: only the readable part is exported", t.dir);
		ret = LKST_EXIT_FAIL;
	}
	lkst_trace_free(&t);
	return ret;
}
