// SPDX-License-Identifier: GPL-2.0
/*
 * lkst latency: three latencies measured from pairs of events.
 *
 *   wakeup:  PROCESS_WAKEUP of a task -> the switch that runs it, per task
 *   syscall: SYSCALL_ENTRY -> SYSCALL_EXIT of the same task and number,
 *            per system call
 *   irq:     INT_HARDWARE_ENTRY -> INT_HARDWARE_EXIT of the same IRQ on
 *            the same CPU, per IRQ
 *
 * A pair is counted only when both ends are in the recording.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lkst.h"

#define LKST_HIST_BUCKETS	24	/* powers of two of us: up to 8 s */
#define LKST_HIST_WIDTH		50

/* A table keyed by a number: a task, a system call, an IRQ */
struct lkst_lat_row {
	uint64_t		key;
	struct lkst_samples	s;
};

struct lkst_lat {
	const char		*title;
	const char		*what;
	struct lkst_lat_row	*rows;
	size_t			nr;
	struct lkst_samples	all;
};

/* Pending starts: a timestamp per key (pid, or cpu and irq) */
struct lkst_pending {
	uint64_t	key;
	uint64_t	ts;
	uint64_t	tag;	/* system call number */
};

struct lkst_pendings {
	struct lkst_pending	*p;
	size_t			nr;
};

static void lkst_latency_usage(FILE *f)
{
	fprintf(f,
		"usage: lkst latency DIR [--pid PID[,PID...]]\n"
		"\n"
		"Latencies measured in the recording DIR, with count, min, median, p99\n"
		"and max in microseconds and a histogram of each kind:\n"
		"  wakeup   from PROCESS_WAKEUP of a task to the switch that runs it\n"
		"  syscall  from SYSCALL_ENTRY to SYSCALL_EXIT, per system call\n"
		"  irq      from INT_HARDWARE_ENTRY to INT_HARDWARE_EXIT, per IRQ\n"
		"DIR may also be a trace.dat file: DIR/trace.dat of 'lkst record', or one\n"
		"of trace-cmd extract -B lkst or trace-cmd record (the buffer instance\n"
		"lkst, else the top buffer); the output is the same as for its directory.\n"
		"\n"
		"  -p, --pid PIDS   only these tasks (wakeups and system calls)\n"
		"  -h, --help       this text\n");
}

static struct lkst_pending *lkst_pending_find(struct lkst_pendings *pp,
					      uint64_t key, bool add)
{
	size_t i;

	for (i = 0; i < pp->nr; i++)
		if (pp->p[i].key == key)
			return &pp->p[i];
	if (!add)
		return NULL;
	pp->p = lkst_realloc_array(pp->p, pp->nr + 1, sizeof(*pp->p));
	memset(&pp->p[pp->nr], 0, sizeof(pp->p[0]));
	pp->p[pp->nr].key = key;
	return &pp->p[pp->nr++];
}

static void lkst_pending_del(struct lkst_pendings *pp, struct lkst_pending *p)
{
	*p = pp->p[--pp->nr];
}

static void lkst_lat_add(struct lkst_lat *l, uint64_t key, uint64_t v)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (l->rows[i].key == key)
			break;
	if (i == l->nr) {
		l->rows = lkst_realloc_array(l->rows, l->nr + 1, sizeof(*l->rows));
		memset(&l->rows[l->nr], 0, sizeof(l->rows[0]));
		l->rows[l->nr++].key = key;
	}
	lkst_samples_add(&l->rows[i].s, v);
	lkst_samples_add(&l->all, v);
}

static int lkst_row_cmp(const void *a, const void *b)
{
	const struct lkst_lat_row *x = a, *y = b;
	uint64_t mx = x->s.v[x->s.nr - 1], my = y->s.v[y->s.nr - 1];

	if (mx != my)
		return mx > my ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static void lkst_hist(const struct lkst_samples *s)
{
	unsigned long n[LKST_HIST_BUCKETS] = { 0 }, max = 0;
	int b, lo = LKST_HIST_BUCKETS, hi = 0, i;
	uint64_t us;
	size_t k;

	for (k = 0; k < s->nr; k++) {
		us = s->v[k] / 1000;
		for (b = 0; us && b < LKST_HIST_BUCKETS - 1; b++)
			us >>= 1;
		n[b]++;
		if (n[b] > max)
			max = n[b];
		if (b < lo)
			lo = b;
		if (b > hi)
			hi = b;
	}
	for (i = lo; i <= hi && max; i++) {
		int w = (n[i] * LKST_HIST_WIDTH + max - 1) / max;

		if (!i)
			printf("  %16s", "< 1 us");
		else
			printf("  %7lu - %-5lu us", 1UL << (i - 1), 1UL << i);
		printf(" %8lu |%.*s\n", n[i], w,
		       "##################################################");
	}
}

static void lkst_lat_print(const struct lkst_trace *t, struct lkst_lat *l)
{
	char name[48];
	size_t i;

	printf("%s\n", l->title);
	if (!l->all.nr) {
		printf("  no samples\n\n");
		return;
	}
	printf("  %-26s %8s %12s %12s %12s %12s\n", l->what, "COUNT", "MIN us",
	       "MEDIAN us", "P99 us", "MAX us");
	for (i = 0; i < l->nr; i++)
		lkst_samples_sort(&l->rows[i].s);
	qsort(l->rows, l->nr, sizeof(*l->rows), lkst_row_cmp);
	lkst_samples_sort(&l->all);
	for (i = 0; i <= l->nr; i++) {
		const struct lkst_samples *s = i < l->nr ? &l->rows[i].s : &l->all;
		uint64_t key = i < l->nr ? l->rows[i].key : 0;

		if (i == l->nr)
			snprintf(name, sizeof(name), "all");
		else if (!strcmp(l->what, "TASK"))
			snprintf(name, sizeof(name), "%s:%llu", lkst_comm(t, key),
				 (unsigned long long)key);
		else if (!strcmp(l->what, "SYSCALL"))
			snprintf(name, sizeof(name), "%s[%llu]",
				 lkst_syscall_name(key), (unsigned long long)key);
		else
			snprintf(name, sizeof(name), "irq %llu",
				 (unsigned long long)key);
		printf("  %-26s %8zu %12.3f %12.3f %12.3f %12.3f\n", name, s->nr,
		       s->v[0] / 1e3, lkst_samples_pct(s, 50) / 1e3,
		       lkst_samples_pct(s, 99) / 1e3, s->v[s->nr - 1] / 1e3);
	}
	printf("  histogram of all:\n");
	lkst_hist(&l->all);
	printf("\n");
}

static void lkst_lat_free(struct lkst_lat *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		lkst_samples_free(&l->rows[i].s);
	free(l->rows);
	lkst_samples_free(&l->all);
}

int cmd_latency(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid",	required_argument,	NULL, 'p' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	struct lkst_lat wake = {
		.title = "wakeup to run latency, per task", .what = "TASK",
	};
	struct lkst_lat sys = {
		.title = "system call duration, per system call", .what = "SYSCALL",
	};
	struct lkst_lat irq = {
		.title = "hardware interrupt handler duration, per IRQ",
		.what = "IRQ",
	};
	struct lkst_pendings pw = { }, ps = { }, pi = { };
	unsigned long *pids = NULL;
	char *tok, *save = NULL;
	struct lkst_pending *p;
	int opt, ret = LKST_EXIT_USAGE;
	size_t nr_pids = 0, i;
	struct lkst_trace t;

	while ((opt = getopt_long(argc, argv, "p:h", opts, NULL)) != -1) {
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
		case 'h':
			lkst_latency_usage(stdout);
			ret = LKST_EXIT_OK;
			goto out;
		default:
			lkst_latency_usage(stderr);
			goto out;
		}
	}
	if (optind != argc - 1) {
		lkst_err("latency: one recording (directory or trace.dat) expected");
		lkst_latency_usage(stderr);
		goto out;
	}
	ret = LKST_EXIT_FAIL;
	if (lkst_trace_load(&t, argv[optind]))
		goto out;

	for (i = 0; i < t.nr; i++) {
		const struct lkst_event *e = &t.ev[i];

		if (lkst_is(&t, e, LKST_K_WAKEUP)) {
			/* the first wakeup counts until the task runs */
			if (lkst_pid_wanted(pids, nr_pids, e->arg[0]) &&
			    !lkst_pending_find(&pw, e->arg[0], false))
				lkst_pending_find(&pw, e->arg[0], true)->ts = e->ts;
		} else if (lkst_is(&t, e, LKST_K_SWITCH)) {
			p = lkst_pending_find(&pw, e->arg[1], false);
			if (p) {
				lkst_lat_add(&wake, p->key, e->ts - p->ts);
				lkst_pending_del(&pw, p);
			}
		} else if (lkst_is(&t, e, LKST_K_SYS_ENTER)) {
			if (!lkst_pid_wanted(pids, nr_pids, e->pid))
				continue;
			p = lkst_pending_find(&ps, e->pid, true);
			p->ts = e->ts;
			p->tag = e->arg[0];
		} else if (lkst_is(&t, e, LKST_K_SYS_EXIT)) {
			p = lkst_pending_find(&ps, e->pid, false);
			if (p && p->tag == e->arg[0])
				lkst_lat_add(&sys, e->arg[0], e->ts - p->ts);
			if (p)
				lkst_pending_del(&ps, p);
		} else if (lkst_is(&t, e, LKST_K_IRQ_ENTRY)) {
			p = lkst_pending_find(&pi, (uint64_t)e->cpu << 32 |
					      (uint32_t)e->arg[0], true);
			p->ts = e->ts;
		} else if (lkst_is(&t, e, LKST_K_IRQ_EXIT)) {
			p = lkst_pending_find(&pi, (uint64_t)e->cpu << 32 |
					      (uint32_t)e->arg[0], false);
			if (p) {
				lkst_lat_add(&irq, (uint32_t)e->arg[0],
					     e->ts - p->ts);
				lkst_pending_del(&pi, p);
			}
		}
	}

	lkst_lat_print(&t, &wake);
	lkst_lat_print(&t, &sys);
	lkst_lat_print(&t, &irq);
	fflush(stdout);
	lkst_trace_warn_missed(&t);
	ret = LKST_EXIT_OK;
	if (t.damaged) {
		lkst_err("%s is damaged: latencies are those of the readable part",
			 t.dir);
		ret = LKST_EXIT_FAIL;
	}
	lkst_lat_free(&wake);
	lkst_lat_free(&sys);
	lkst_lat_free(&irq);
	free(pw.p);
	free(ps.p);
	free(pi.p);
	lkst_trace_free(&t);
out:
	free(pids);
	return ret;
}
