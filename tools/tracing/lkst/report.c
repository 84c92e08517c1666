// SPDX-License-Identifier: GPL-2.0
/*
 * lkst report: the events of a recording, all CPUs merged by time, one
 * line each:
 *
 *   00:01:02.345678 [001]    1234 bash         PROCESS_WAKEUP pid=56[sleep] prio=120 cpu=1
 *   TIME            CPU      PID  COMM         EVENT          ARGS, named in available_events
 *
 * Code addresses (handler, func, call_site, the ip of a kernel page fault)
 * are printed as the kernel's %ps prints them, from the recording's copy
 * of kallsyms: "func=hrtimer_wakeup", "call_site=kvfree+0x2a",
 * "handler=vp_interrupt[virtio_pci]"; in hex where it has none.
 */
#include <fnmatch.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lkst.h"

struct lkst_filter {
	unsigned long	*pids;
	size_t		nr_pids;
	const char	*comm;
	char		**events;	/* fnmatch() patterns */
	size_t		nr_events;
	uint64_t	from, to;
	bool		ns;
};

static void lkst_report_usage(FILE *f)
{
	fprintf(f,
		"usage: lkst report DIR [--pid PID[,PID...]] [--comm NAME] [--event EV[,EV...]]\n"
		"                   [--from TIME] [--to TIME] [--ns]\n"
		"\n"
		"Print the events recorded in DIR, merged by time over all CPUs:\n"
		"  hh:mm:ss.uuuuuu [CPU] PID COMM EVENT arg=value ...\n"
		"Times are those of the kernel's clock (time since boot).  Process names\n"
		"come from the snapshot 'lkst record' took; a task forked during the\n"
		"recording is named after its parent until renamed.  Code addresses are\n"
		"printed as kernel symbols (name, name+0xOFFSET inside a function, name[MODULE])\n"
		"from the copy of /proc/kallsyms in DIR, in hex if there is none.  A\n"
		"recording from a vmcore (lkst extract) ends with the end of the kernel log.\n"
		"DIR may also be a trace.dat file: DIR/trace.dat of 'lkst record', or one\n"
		"of trace-cmd extract -B lkst or trace-cmd record (the buffer instance\n"
		"lkst, else the top buffer); the output is the same as for its directory.\n"
		"\n"
		"  -p, --pid PIDS      only events that happened in these tasks\n"
		"  -c, --comm NAME     only events of tasks named NAME\n"
		"  -e, --event EVENTS  only these events (shell patterns: 'PROCESS_*')\n"
		"  -f, --from TIME     only events at or after TIME ([[hh:]mm:]ss[.frac])\n"
		"  -t, --to TIME       only events at or before TIME\n"
		"  -n, --ns            times as seconds.nanoseconds\n"
		"  -h, --help          this text\n");
}

/* How to print an argument, from its name in available_events */
static bool lkst_arg_is_hex(const char *name)
{
	static const char * const hex[] = {
		"handler", "func", "tasklet", "address", "ip", "error",
		"a0", "a1", "a2", "pfn", "gfp", "call_site", "ptr", "cache",
		"addr", "dev", "flags", "skb", "proto", "lock", "timer",
		"hrtimer", "work", "code",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hex); i++)
		if (!strcmp(name, hex[i]))
			return true;
	return false;
}

static bool lkst_arg_is_task(const char *name)
{
	return !strcmp(name, "pid") || !strcmp(name, "prev") ||
	       !strcmp(name, "next") || !strcmp(name, "parent") ||
	       !strcmp(name, "child") || !strcmp(name, "old_pid");
}

/* Text arguments (printk, panic) fill the remaining argument words. */
static void lkst_print_text(FILE *f, const struct lkst_event *e, int i)
{
	const unsigned char *s = (const unsigned char *)&e->arg[i];
	size_t n, len = (LKST_NR_ARGS - i) * sizeof(e->arg[0]);

	fputc('"', f);
	for (n = 0; n < len && s[n]; n++)
		fputc(s[n] >= ' ' && s[n] < 127 && s[n] != '"' ? s[n] : '.', f);
	fputc('"', f);
}

/* An argument of a dynamic event, as its fetch type says */
static void lkst_print_typed(FILE *f, const struct lkst_trace *t, char fmt,
			     uint64_t v)
{
	switch (fmt) {
	case 'd':
		fprintf(f, "%lld", (long long)v);
		break;
	case 'u':
		fprintf(f, "%llu", (unsigned long long)v);
		break;
	case 'p':
		lkst_print_ksym(f, t, v);
		break;
	default:
		fprintf(f, "0x%llx", (unsigned long long)v);
	}
}

static void lkst_print_event(FILE *f, const struct lkst_trace *t,
			     const struct lkst_event *e, bool ns)
{
	const struct lkst_evdesc *d = lkst_desc(t, e->id);
	char ts[32];
	int i;

	if (ns)
		snprintf(ts, sizeof(ts), "%llu.%09llu",
			 (unsigned long long)(e->ts / 1000000000ULL),
			 (unsigned long long)(e->ts % 1000000000ULL));
	else
		lkst_fmt_time(ts, sizeof(ts), e->ts);
	fprintf(f, "%s [%03u] %7u %-16s ", ts, e->cpu, e->pid,
		lkst_comm(t, e->pid));
	if (!d) {
		fprintf(f, "UNKNOWN_%u arg=0x%llx,0x%llx,0x%llx,0x%llx\n", e->id,
			(unsigned long long)e->arg[0], (unsigned long long)e->arg[1],
			(unsigned long long)e->arg[2], (unsigned long long)e->arg[3]);
		return;
	}
	fputs(d->name, f);
	for (i = 0; i < LKST_NR_ARGS; i++) {
		const char *a = d->args[i];
		uint64_t v = e->arg[i];

		if (!a)
			continue;
		fprintf(f, " %s=", a);
		if (d->fmt[i] == 's') {		/* to the last slot */
			lkst_print_text(f, e, i);
			break;
		}
		if (d->fmt[i]) {
			lkst_print_typed(f, t, d->fmt[i], v);
			continue;
		}
		if (!strcmp(a, "text") || !strcmp(a, "msg")) {
			lkst_print_text(f, e, i);
			break;
		}
		if (!strcmp(a, "state") && lkst_is(t, e, LKST_K_SWITCH))
			fputs(lkst_state_name(v), f);
		else if (!strcmp(a, "prio") && lkst_is(t, e, LKST_K_SWITCH))
			fprintf(f, "%u/%u", (unsigned int)(v >> 32), (unsigned int)v);
		else if (!strcmp(a, "nr") && (lkst_is(t, e, LKST_K_SYS_ENTER) ||
					      lkst_is(t, e, LKST_K_SYS_EXIT)))
			fprintf(f, "%llu[%s]", (unsigned long long)v,
				lkst_syscall_name(v));
		else if (d->code & BIT(i))
			lkst_print_ksym(f, t, v);
		else if (lkst_arg_is_hex(a))
			fprintf(f, "0x%llx", (unsigned long long)v);
		else if (lkst_arg_is_task(a) && v && v <= UINT32_MAX)
			fprintf(f, "%llu[%s]", (unsigned long long)v,
				lkst_comm(t, v));
		else
			fprintf(f, "%lld", (long long)v);
	}
	if (e->flags)
		fprintf(f, " ctx=%s%s%s",
			e->flags & LKST_CTX_HARDIRQ ? "hardirq" : "",
			e->flags & LKST_CTX_SOFTIRQ ? "softirq" : "",
			e->flags & LKST_CTX_NMI ? "nmi" : "");
	fputc('\n', f);
}

static bool lkst_match(const struct lkst_trace *t, const struct lkst_filter *flt,
		       const struct lkst_event *e)
{
	const struct lkst_evdesc *d;
	size_t i;

	if (e->ts < flt->from || e->ts > flt->to)
		return false;
	if (flt->nr_pids) {
		for (i = 0; i < flt->nr_pids; i++)
			if (flt->pids[i] == e->pid)
				break;
		if (i == flt->nr_pids)
			return false;
	}
	if (flt->comm && strcmp(flt->comm, lkst_comm(t, e->pid)))
		return false;
	if (flt->nr_events) {
		d = lkst_desc(t, e->id);
		for (i = 0; i < flt->nr_events; i++)
			if (d && !fnmatch(flt->events[i], d->name, 0))
				break;
		if (i == flt->nr_events)
			return false;
	}
	return true;
}

/* Split "a,b,c" into a list (the strings point into @arg) */
static char **lkst_split(char *arg, size_t *nr)
{
	char **v = NULL, *tok, *save = NULL;

	*nr = 0;
	for (tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		v = lkst_realloc_array(v, *nr + 1, sizeof(*v));
		v[(*nr)++] = tok;
	}
	return v;
}

/*
 * A recording taken from a vmcore ('lkst extract') has the crashed
 * kernel's log: its end goes after the last events, from the first line of
 * the crash report (an oops, a BUG, the panic message) among its last
 * LKST_DMESG_SCAN lines, or the last LKST_DMESG_TAIL lines if there is none.
 */
#define LKST_DMESG_TAIL		20
#define LKST_DMESG_SCAN		200

static bool lkst_crash_line(const char *line, const char *end)
{
	static const char * const marks[] = {
		"Oops", "BUG:", "Kernel panic - not syncing", "general protection fault",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++)
		if (memmem(line, end - line, marks[i], strlen(marks[i])))
			return true;
	return false;
}

static void lkst_print_dmesg_tail(FILE *f, const char *dir)
{
	char *path = lkst_path(dir, "dmesg"), *buf, *p, *end, *from = NULL;
	size_t len;
	int n = 0;

	if (lkst_read_file(path, &buf, &len) || !len) {
		free(path);
		return;
	}
	/* Lines backwards: p is the start of the line that ends at end */
	for (end = buf + len - (buf[len - 1] == '\n'); end > buf && n < LKST_DMESG_SCAN;
	     end = p - 1, n++) {
		for (p = end; p > buf && p[-1] != '\n'; p--)
			;
		if (lkst_crash_line(p, end))
			from = p;
		if (n == LKST_DMESG_TAIL - 1 && !from)
			from = p;
		if (p == buf)
			break;
	}
	if (!from)
		from = buf;
	fprintf(f, "--- the end of the kernel log (%s) ---\n", path);
	fwrite(from, 1, buf + len - from, f);
	free(buf);
	free(path);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid",	required_argument,	NULL, 'p' },
		{ "comm",	required_argument,	NULL, 'c' },
		{ "event",	required_argument,	NULL, 'e' },
		{ "from",	required_argument,	NULL, 'f' },
		{ "to",		required_argument,	NULL, 't' },
		{ "ns",		no_argument,		NULL, 'n' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	struct lkst_filter flt = { .to = UINT64_MAX };
	char **pids = NULL;
	struct lkst_trace t;
	int opt, i, ret = LKST_EXIT_USAGE;
	size_t n, shown = 0;

	while ((opt = getopt_long(argc, argv, "p:c:e:f:t:nh", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			free(pids);
			pids = lkst_split(optarg, &n);
			flt.pids = lkst_realloc_array(flt.pids, n, sizeof(*flt.pids));
			flt.nr_pids = n;
			for (i = 0; i < (int)n; i++) {
				if (lkst_parse_uint(pids[i], &flt.pids[i])) {
					lkst_err("bad pid '%s'", pids[i]);
					goto out;
				}
			}
			break;
		case 'c':
			flt.comm = optarg;
			break;
		case 'e':
			free(flt.events);
			flt.events = lkst_split(optarg, &flt.nr_events);
			break;
		case 'f':
		case 't':
			if (lkst_parse_time(optarg, opt == 'f' ? &flt.from : &flt.to)) {
				lkst_err("bad time '%s': use [[hh:]mm:]ss[.frac]", optarg);
				goto out;
			}
			break;
		case 'n':
			flt.ns = true;
			break;
		case 'h':
			lkst_report_usage(stdout);
			ret = LKST_EXIT_OK;
			goto out;
		default:
			lkst_report_usage(stderr);
			goto out;
		}
	}
	if (optind != argc - 1) {
		lkst_err("report: one recording (directory or trace.dat) expected");
		lkst_report_usage(stderr);
		goto out;
	}

	ret = LKST_EXIT_FAIL;
	if (lkst_trace_load(&t, argv[optind]))
		goto out;
	lkst_ksyms_load(&t);
	for (i = 0; i < (int)flt.nr_events; i++)
		if (!strpbrk(flt.events[i], "*?[") &&
		    lkst_event_id(&t, flt.events[i]) < 0)
			lkst_warn("no event %s in %s/available_events",
				  flt.events[i], t.dir);
	for (n = 0; n < t.nr; n++) {
		if (!lkst_match(&t, &flt, &t.ev[n]))
			continue;
		lkst_print_event(stdout, &t, &t.ev[n], flt.ns);
		shown++;
	}
	if (!flt.nr_pids && !flt.comm && !flt.nr_events)
		lkst_print_dmesg_tail(stdout, t.dir);
	fflush(stdout);
	lkst_trace_warn_missed(&t);
	if (!t.nr)
		lkst_warn("%s: no events recorded", t.dir);
	ret = t.damaged ? LKST_EXIT_FAIL : LKST_EXIT_OK;
	if (t.damaged)
		lkst_err("%s is damaged: the readable part is shown", t.dir);
	lkst_trace_free(&t);
out:
	free(pids);
	free(flt.pids);
	free(flt.events);
	return ret;
}
