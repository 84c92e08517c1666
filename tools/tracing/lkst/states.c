// SPDX-License-Identifier: GPL-2.0
/*
 * lkst states: the time each process spent running, ready (runnable,
 * waiting for a CPU) and blocked, from the scheduler events, with the
 * state machine of the original LKST's ProcessTrace:
 *
 *   PROCESS_CONTEXTSWITCH  next            -> running
 *                          prev, state R   -> ready (preempted)
 *                          prev, otherwise -> blocked (X/Z: gone)
 *   PROCESS_WAKEUP         pid             -> ready, unless running
 *   PROCESS_FORK           child           -> ready, from then on
 *
 * A task is followed from the start of the recording, or from its fork,
 * to the end, or to its last switch out when it died.  Before its first
 * event its state is inferred from that event: switched in means it was
 * ready, switched out that it was running, woken that it was blocked.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lkst.h"

const char * const lkst_state_names[LKST_S_NR] = {
	[LKST_S_RUNNING]	= "running",
	[LKST_S_READY]		= "ready",
	[LKST_S_BLOCKED]	= "blocked",
};

/* task state indexes of the switch event's "state" argument */
#define LKST_TASK_R	0
#define LKST_TASK_X	5
#define LKST_TASK_Z	6

static void lkst_states_usage(FILE *f)
{
	fprintf(f,
		"usage: lkst states DIR [--pid PID[,PID...]] [--svg FILE]\n"
		"\n"
		"For every process seen in the recording DIR, the time it spent running,\n"
		"ready (runnable, waiting for a CPU) and blocked, and its transitions:\n"
		"  SWITCH-IN ready->running, PREEMPT running->ready,\n"
		"  SLEEP running->blocked, WAKEUP blocked->ready.\n"
		"TOTAL is the time the process was followed: the whole recording, or\n"
		"from its fork and up to its exit.  Sorted by running time.\n"
		"DIR may also be a trace.dat file: DIR/trace.dat of 'lkst record', or one\n"
		"of trace-cmd extract -B lkst or trace-cmd record (the buffer instance\n"
		"lkst, else the top buffer); the output is the same as for its directory.\n"
		"\n"
		"  -p, --pid PIDS   only these processes\n"
		"  -s, --svg FILE   also draw a timeline: one row per process, one colour\n"
		"                   per state\n"
		"  -h, --help       this text\n");
}

static int lkst_proc_cmp(const void *a, const void *b)
{
	const struct lkst_proc *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The process of @pid, created in the unknown state if new */
static struct lkst_proc *lkst_proc_get(struct lkst_procs *ps, uint32_t pid,
				       uint64_t ts)
{
	struct lkst_proc key = { .pid = pid }, *p;
	size_t pos;

	p = ps->nr ? bsearch(&key, ps->p, ps->nr, sizeof(*ps->p),
			     lkst_proc_cmp) : NULL;
	if (p)
		return p;
	if (ps->nr == ps->alloc) {
		ps->alloc = ps->alloc ? ps->alloc * 2 : 64;
		ps->p = lkst_realloc_array(ps->p, ps->alloc, sizeof(*ps->p));
	}
	for (pos = ps->nr; pos && ps->p[pos - 1].pid > pid; pos--)
		;
	memmove(ps->p + pos + 1, ps->p + pos, (ps->nr - pos) * sizeof(*ps->p));
	ps->nr++;
	p = &ps->p[pos];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->state = LKST_S_UNKNOWN;
	p->since = ts;
	p->first = ts;
	p->cpu = -1;
	return p;
}

static void lkst_span_add(struct lkst_proc *p, uint64_t from, uint64_t to,
			  int state, int cpu)
{
	struct lkst_span *s;

	if (p->nr_span && p->span[p->nr_span - 1].state == state &&
	    p->span[p->nr_span - 1].to == from &&
	    p->span[p->nr_span - 1].cpu == (uint32_t)cpu) {
		p->span[p->nr_span - 1].to = to;
		return;
	}
	if (p->nr_span == p->alloc_span) {
		p->alloc_span = p->alloc_span ? p->alloc_span * 2 : 16;
		p->span = lkst_realloc_array(p->span, p->alloc_span,
					     sizeof(*p->span));
	}
	s = &p->span[p->nr_span++];
	s->from = from;
	s->to = to;
	s->state = state;
	s->cpu = cpu < 0 ? 0 : cpu;
}

/* Account the time since the last change to the state it was in */
static void lkst_account(struct lkst_proc *p, uint64_t ts, bool spans)
{
	if (p->state >= LKST_S_NR || ts < p->since)
		return;
	p->time[p->state] += ts - p->since;
	if (spans && ts > p->since)
		lkst_span_add(p, p->since, ts, p->state, p->cpu);
}

/*
 * Move @p to @state at @ts.  @before is what a task seen for the first
 * time must have been in until then.
 */
static void lkst_set_state(struct lkst_proc *p, int state, int before,
			   uint64_t ts, int cpu, bool spans)
{
	if (p->state == LKST_S_DEAD)
		return;
	if (p->state == LKST_S_UNKNOWN) {
		p->state = before;
		p->cpu = cpu;
	}
	lkst_account(p, ts, spans);
	if (state < LKST_S_NR)
		p->trans[p->state][state]++;
	if (state == LKST_S_DEAD)
		p->last = ts;
	p->state = state;
	p->since = ts;
	p->cpu = cpu;
}

/**
 * lkst_states_build - run the state machine over a recording
 * @t: the recording
 * @ps: the processes, sorted by pid; free with lkst_states_free()
 * @spans: also keep every interval, for pictures
 *
 * Return: 0, or -EINVAL when the recording has no context switches.
 */
int lkst_states_build(const struct lkst_trace *t, struct lkst_procs *ps,
		      bool spans)
{
	struct lkst_proc *p;
	size_t i;

	memset(ps, 0, sizeof(*ps));
	if (t->known[LKST_K_SWITCH] < 0) {
		lkst_err("%s: no PROCESS_CONTEXTSWITCH event in available_events",
			 t->dir);
		return -EINVAL;
	}
	for (i = 0; i < t->nr; i++) {
		const struct lkst_event *e = &t->ev[i];

		if (lkst_is(t, e, LKST_K_SWITCH)) {
			if (e->arg[0] && e->arg[0] <= UINT32_MAX) {
				int st = e->arg[2] == LKST_TASK_R ? LKST_S_READY :
					 e->arg[2] == LKST_TASK_X ||
					 e->arg[2] == LKST_TASK_Z ? LKST_S_DEAD :
					 LKST_S_BLOCKED;

				p = lkst_proc_get(ps, e->arg[0], t->start);
				lkst_set_state(p, st, LKST_S_RUNNING, e->ts,
					       e->cpu, spans);
			}
			if (e->arg[1] && e->arg[1] <= UINT32_MAX) {
				p = lkst_proc_get(ps, e->arg[1], t->start);
				lkst_set_state(p, LKST_S_RUNNING, LKST_S_READY,
					       e->ts, e->cpu, spans);
			}
		} else if (lkst_is(t, e, LKST_K_WAKEUP)) {
			if (!e->arg[0] || e->arg[0] > UINT32_MAX)
				continue;
			p = lkst_proc_get(ps, e->arg[0], t->start);
			if (p->state != LKST_S_RUNNING &&
			    p->state != LKST_S_READY)
				lkst_set_state(p, LKST_S_READY, LKST_S_BLOCKED,
					       e->ts, e->cpu, spans);
		} else if (lkst_is(t, e, LKST_K_FORK)) {
			if (!e->arg[1] || e->arg[1] > UINT32_MAX)
				continue;
			p = lkst_proc_get(ps, e->arg[1], e->ts);
			if (p->state == LKST_S_UNKNOWN && !p->nr_span &&
			    !p->time[0] && !p->time[1] && !p->time[2]) {
				p->first = e->ts;
				p->since = e->ts;
				p->state = LKST_S_READY;
			}
		}
	}
	/* The end of the recording closes every open state */
	for (i = 0; i < ps->nr; i++) {
		p = &ps->p[i];
		if (p->state == LKST_S_DEAD)
			continue;
		if (p->state == LKST_S_UNKNOWN)
			p->state = LKST_S_BLOCKED;	/* never seen to run */
		lkst_account(p, t->end, spans);
		p->last = t->end;
	}
	return 0;
}

void lkst_states_free(struct lkst_procs *ps)
{
	size_t i;

	for (i = 0; i < ps->nr; i++)
		free(ps->p[i].span);
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}

static int lkst_run_cmp(const void *a, const void *b)
{
	const struct lkst_proc *x = *(struct lkst_proc * const *)a;
	const struct lkst_proc *y = *(struct lkst_proc * const *)b;

	if (x->time[LKST_S_RUNNING] != y->time[LKST_S_RUNNING])
		return x->time[LKST_S_RUNNING] > y->time[LKST_S_RUNNING] ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static double lkst_ms(uint64_t ns)
{
	return ns / 1e6;
}

int cmd_states(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid",	required_argument,	NULL, 'p' },
		{ "svg",	required_argument,	NULL, 's' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	struct lkst_proc **rows = NULL;
	unsigned long *pids = NULL;
	const char *svg = NULL;
	char *tok, *save = NULL, t0[32], t1[32];
	struct lkst_procs ps, shown;
	size_t nr_pids = 0, i, nr = 0;
	int opt, ret = LKST_EXIT_USAGE;
	struct lkst_trace t;

	while ((opt = getopt_long(argc, argv, "p:s:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			for (tok = strtok_r(optarg, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				pids = lkst_realloc_array(pids, nr_pids + 1,
							  sizeof(*pids));
				if (lkst_parse_uint(tok, &pids[nr_pids++])) {
					lkst_err("bad pid '%s'", tok);
					goto out;
				}
			}
			break;
		case 's':
			svg = optarg;
			break;
		case 'h':
			lkst_states_usage(stdout);
			ret = LKST_EXIT_OK;
			goto out;
		default:
			lkst_states_usage(stderr);
			goto out;
		}
	}
	if (optind != argc - 1) {
		lkst_err("states: one recording (directory or trace.dat) expected");
		lkst_states_usage(stderr);
		goto out;
	}
	ret = LKST_EXIT_FAIL;
	if (lkst_trace_load(&t, argv[optind]))
		goto out;
	if (lkst_states_build(&t, &ps, svg))
		goto out_trace;

	rows = lkst_zalloc(ps.nr * sizeof(*rows));
	for (i = 0; i < ps.nr; i++)
		if (lkst_pid_wanted(pids, nr_pids, ps.p[i].pid))
			rows[nr++] = &ps.p[i];
	if (nr_pids && !nr)
		lkst_warn("none of the given pids is in the recording");
	qsort(rows, nr, sizeof(*rows), lkst_run_cmp);

	lkst_fmt_time(t0, sizeof(t0), t.start);
	lkst_fmt_time(t1, sizeof(t1), t.end);
	printf("recording %s .. %s (%.3f ms), %d CPUs, %zu events, %zu processes\n\n",
	       t0, t1, lkst_ms(t.end - t.start), t.nr_cpus, t.nr, nr);
	printf("%7s %-16s %12s %12s %12s %12s %9s %8s %8s %8s\n", "PID", "COMM",
	       "RUNNING ms", "READY ms", "BLOCKED ms", "TOTAL ms", "SWITCH-IN",
	       "PREEMPT", "SLEEP", "WAKEUP");
	for (i = 0; i < nr; i++) {
		const struct lkst_proc *p = rows[i];

		printf("%7u %-16.16s %12.3f %12.3f %12.3f %12.3f %9lu %8lu %8lu %8lu\n",
		       p->pid, lkst_comm(&t, p->pid),
		       lkst_ms(p->time[LKST_S_RUNNING]),
		       lkst_ms(p->time[LKST_S_READY]),
		       lkst_ms(p->time[LKST_S_BLOCKED]),
		       lkst_ms(p->last - p->first),
		       p->trans[LKST_S_READY][LKST_S_RUNNING],
		       p->trans[LKST_S_RUNNING][LKST_S_READY],
		       p->trans[LKST_S_RUNNING][LKST_S_BLOCKED],
		       p->trans[LKST_S_BLOCKED][LKST_S_READY]);
	}
	fflush(stdout);
	ret = LKST_EXIT_OK;
	if (svg) {
		/* the picture shows the rows of the table, in its order */
		shown.nr = nr;
		shown.p = lkst_zalloc(nr * sizeof(*shown.p));
		for (i = 0; i < nr; i++)
			shown.p[i] = *rows[i];
		if (lkst_svg_write(&t, &shown, svg))
			ret = LKST_EXIT_FAIL;
		else
			fprintf(stderr, "lkst: timeline of %zu processes in %s\n",
				nr, svg);
		free(shown.p);
	}
	lkst_trace_warn_missed(&t);
	if (t.damaged) {
		lkst_err("%s is damaged: states are those of the readable part",
			 t.dir);
		ret = LKST_EXIT_FAIL;
	}
	lkst_states_free(&ps);
out_trace:
	lkst_trace_free(&t);
out:
	free(rows);
	free(pids);
	return ret;
}
