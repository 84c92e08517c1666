// SPDX-License-Identifier: GPL-2.0
/*
 * The SVG timeline of 'lkst states --svg': one row per process, one
 * colour per state, a time axis with units, a legend.  Intervals shorter
 * than a pixel are widened to half a pixel and merged with their
 * neighbours of the same state, and running is drawn last, so that a
 * short run stays visible and the file stays small whatever the length
 * of the recording.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lkst.h"

#define SVG_WIDTH	1200
#define SVG_LABEL	220	/* left column: process names */
#define SVG_RIGHT	20
#define SVG_TOP		66	/* title, legend and top axis */
#define SVG_ROW		16
#define SVG_BAR		12
#define SVG_MIN_PX	0.5

static const char * const svg_colours[LKST_S_NR] = {
	[LKST_S_RUNNING]	= "#2ca02c",
	[LKST_S_READY]		= "#ff7f0e",
	[LKST_S_BLOCKED]	= "#aec7e8",
};

static void svg_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc((unsigned char)*s >= ' ' && (unsigned char)*s < 127 ?
			      *s : '?', f);
		}
	}
}

/* A tick step of 1, 2 or 5 times a power of ten, about 10 ticks */
static uint64_t svg_tick_step(uint64_t span)
{
	uint64_t raw = span / 10 ? span / 10 : 1, pow = 1;

	while (pow * 10 <= raw)
		pow *= 10;
	if (raw <= pow)
		return pow;
	if (raw <= 2 * pow)
		return 2 * pow;
	if (raw <= 5 * pow)
		return 5 * pow;
	return 10 * pow;
}

static void svg_tick_label(char *buf, size_t len, uint64_t ns, uint64_t step)
{
	if (step >= 1000000000ULL)
		snprintf(buf, len, "%g s", ns / 1e9);
	else if (step >= 1000000)
		snprintf(buf, len, "%g ms", ns / 1e6);
	else if (step >= 1000)
		snprintf(buf, len, "%g us", ns / 1e3);
	else
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
}

static void svg_line(FILE *f, double x1, double y1, double x2, double y2,
		     const char *colour)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
		x1, y1, x2, y2, colour);
}

static void svg_axis(FILE *f, uint64_t span, double scale, double y, int h)
{
	uint64_t step = svg_tick_step(span ? span : 1), ns;
	char label[32];
	double x;

	fprintf(f, "<g class=\"axis\" font-size=\"10\" fill=\"#333\">\n");
	svg_line(f, SVG_LABEL, y, SVG_WIDTH - SVG_RIGHT, y, "#333");
	for (ns = 0; ns <= span; ns += step) {
		x = SVG_LABEL + ns * scale;
		svg_tick_label(label, sizeof(label), ns, step);
		svg_line(f, x, y, x, y + h, "#ddd");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			x, y - 4, label);
	}
	fprintf(f, "</g>\n");
}

static void svg_rect(FILE *f, double x, double y, double w, int state)
{
	fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>\n",
		x, y, w, SVG_BAR, svg_colours[state]);
}

/* One state of one row: rectangles in pixels, merged when they touch */
static void svg_row_state(FILE *f, const struct lkst_proc *p, int state,
			  uint64_t start, double scale, double y)
{
	double x0, x1, cx0 = -1, cx1 = -1;
	size_t i;

	for (i = 0; i < p->nr_span; i++) {
		const struct lkst_span *s = &p->span[i];

		if (s->state != state)
			continue;
		x0 = SVG_LABEL + (s->from - start) * scale;
		x1 = SVG_LABEL + (s->to - start) * scale;
		if (x1 - x0 < SVG_MIN_PX)
			x1 = x0 + SVG_MIN_PX;
		if (cx1 >= 0 && x0 <= cx1 + 0.25) {
			if (x1 > cx1)
				cx1 = x1;
			continue;
		}
		if (cx1 >= 0)
			svg_rect(f, cx0, y, cx1 - cx0, state);
		cx0 = x0;
		cx1 = x1;
	}
	if (cx1 >= 0)
		svg_rect(f, cx0, y, cx1 - cx0, state);
}

/**
 * lkst_svg_write - draw the state timeline of processes
 * @t: the recording
 * @ps: the processes, in the order of the rows, with their spans
 * @path: the SVG file to write
 *
 * Return: 0 or -errno.
 */
int lkst_svg_write(const struct lkst_trace *t, const struct lkst_procs *ps,
		   const char *path)
{
	static const int order[] = { LKST_S_BLOCKED, LKST_S_READY, LKST_S_RUNNING };
	uint64_t span = t->end - t->start;
	int height = SVG_TOP + ps->nr * SVG_ROW + 40;
	double scale, y;
	char label[32];
	size_t i, k;
	FILE *f;

	scale = (double)(SVG_WIDTH - SVG_LABEL - SVG_RIGHT) / (span ? span : 1);
	f = fopen(path, "w");
	if (!f) {
		lkst_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
		SVG_WIDTH, height, SVG_WIDTH, height);
	fprintf(f, "<title>LKST process states: ");
	svg_escape(f, t->dir);
	fprintf(f, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");

	/* legend */
	fprintf(f, "<g class=\"legend\" font-size=\"12\">\n");
	fprintf(f, "<text x=\"10\" y=\"16\" font-weight=\"bold\">");
	svg_escape(f, t->dir);
	lkst_fmt_time(label, sizeof(label), t->start);
	fprintf(f, " from %s, %.3f ms</text>\n", label, span / 1e6);
	for (k = 0; k < LKST_S_NR; k++) {
		fprintf(f, "<rect x=\"%zu\" y=\"24\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
			SVG_LABEL + k * 110, svg_colours[k]);
		fprintf(f, "<text x=\"%zu\" y=\"34\">%s</text>\n",
			SVG_LABEL + 16 + k * 110, lkst_state_names[k]);
	}
	fprintf(f, "</g>\n");

	svg_axis(f, span, scale, SVG_TOP - 6, ps->nr * SVG_ROW + 6);

	for (i = 0; i < ps->nr; i++) {
		const struct lkst_proc *p = &ps->p[i];

		y = SVG_TOP + i * SVG_ROW;
		fprintf(f, "<g class=\"row\" data-pid=\"%u\">\n<title>", p->pid);
		svg_escape(f, lkst_comm(t, p->pid));
		fprintf(f, " (%u): running %.3f ms, ready %.3f ms, blocked %.3f ms</title>\n",
			p->pid, p->time[LKST_S_RUNNING] / 1e6,
			p->time[LKST_S_READY] / 1e6,
			p->time[LKST_S_BLOCKED] / 1e6);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">",
			SVG_LABEL - 6, y + SVG_BAR - 2);
		svg_escape(f, lkst_comm(t, p->pid));
		fprintf(f, " %u</text>\n", p->pid);
		for (k = 0; k < ARRAY_SIZE(order); k++)
			svg_row_state(f, p, order[k], t->start, scale, y);
		fprintf(f, "</g>\n");
	}
	svg_axis(f, span, scale, SVG_TOP + ps->nr * SVG_ROW + 16, 0);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
		SVG_WIDTH - SVG_RIGHT, height - 6, "time since the start of the recording");
	fprintf(f, "</svg>\n");
	if (fclose(f)) {
		lkst_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	return 0;
}
