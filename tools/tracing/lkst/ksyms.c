// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbols of a recording: the copy of /proc/kallsyms that 'lkst
 * record' saves (as trace-cmd does), to print code addresses the way the
 * kernel's %ps does.
 *
 * An address is resolved to the nearest symbol at or below it, the first
 * of the file's order when several share an address (the kernel's choice
 * too: /proc/kallsyms lists aliases in the order its lookups prefer).  It
 * resolves only when that symbol is code (type t, T, w or W): an address
 * past the end of the kernel's or a module's text finds a data symbol, or
 * none, and stays hex.  Above the highest symbol only an exact match
 * counts, as nothing bounds that symbol's size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

#include "lkst.h"

struct lkst_ksym {
	uint64_t	addr;
	const char	*name;
	const char	*mod;		/* NULL: the kernel itself */
	uint32_t	order;		/* line in the file */
	bool		text;
};

static int lkst_ksym_cmp(const void *a, const void *b)
{
	const struct lkst_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* "ADDR TYPE NAME" or "ADDR TYPE NAME\t[MODULE]"; NUL-terminates in place */
static bool lkst_ksym_parse(char *line, struct lkst_ksym *s)
{
	char *p = line, *end;
	int digits = 0;

	s->addr = 0;
	for (; *p && strchr("0123456789abcdefABCDEF", *p); p++, digits++)
		s->addr = s->addr << 4 | (*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
	if (!digits || digits > 16 || *p != ' ' || !p[1] || p[2] != ' ')
		return false;
	s->text = !!strchr("tTwW", p[1]);
	s->name = p += 3;
	p += strcspn(p, " \t");
	if (p == s->name)
		return false;
	s->mod = NULL;
	if (*p) {
		*p++ = '\0';
		p += strspn(p, " \t");
		if (*p == '[') {
			end = strchr(++p, ']');
			if (end && end > p && !memchr(p, ' ', end - p)) {
				*end = '\0';
				s->mod = p;
			}
		}
	}
	return true;
}

/**
 * lkst_ksyms_load - read the kallsyms file of a recording
 * @t: the recording; t->ksyms is filled in
 *
 * A recording without one (made by an older lkst, or where /proc/kallsyms
 * could not be read) is not an error: code addresses are printed in hex.
 * Neither is one whose addresses are all zero, because whoever recorded
 * could not see them (kptr_restrict); that is said in a warning.
 *
 * A trace.dat has kallsyms as a section of its own: the text of an
 * uncompressed one (lkst record's) is read as the file is; a compressed
 * one (trace-cmd's) only libtraceevent reads, and lkst_ksym() asks it.
 */
void lkst_ksyms_load(struct lkst_trace *t)
{
	struct lkst_ksyms *k = &t->ksyms;
	char *path, *line, *save = NULL;
	size_t alloc = 0, lines = 0, i, j;
	struct lkst_ksym s;
	int ret;

	if (t->dat) {
		path = lkst_strdup(t->dir);
		k->buf = t->dat_kallsyms;
		t->dat_kallsyms = NULL;
		ret = k->buf ? 0 : -ENOENT;
	} else {
		path = lkst_path(t->dir, LKST_FILE_KALLSYMS);
		ret = lkst_read_file(path, &k->buf, NULL);
	}
	if (ret) {
		if (ret != -ENOENT)
			lkst_warn("%s: %s; code addresses shown in hex", path,
				  strerror(-ret));
		free(path);
		return;
	}
	for (line = strtok_r(k->buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!lkst_ksym_parse(line, &s))
			continue;
		lines++;
		if (!s.addr)
			continue;
		if (k->nr == alloc) {
			alloc = alloc ? alloc * 2 : 16384;
			k->sym = lkst_realloc_array(k->sym, alloc, sizeof(*k->sym));
		}
		s.order = k->nr;
		k->sym[k->nr++] = s;
	}
	if (!k->nr) {
		if (lines)
			lkst_warn("%s: every address is 0: it was saved by a user who may not see them (kptr_restrict); code addresses shown in hex",
				  path);
		else
			lkst_warn("%s: no symbols; code addresses shown in hex",
				  path);
	}
	free(path);
	if (!k->nr)
		return;
	qsort(k->sym, k->nr, sizeof(*k->sym), lkst_ksym_cmp);
	/* aliases: the first of the file's order stands for its address */
	for (i = 1, j = 1; i < k->nr; i++)
		if (k->sym[i].addr != k->sym[j - 1].addr)
			k->sym[j++] = k->sym[i];
	k->nr = j;
}

void lkst_ksyms_free(struct lkst_ksyms *k)
{
	free(k->sym);
	free(k->buf);
	memset(k, 0, sizeof(*k));
}

/**
 * lkst_ksym - the kernel function an address is in
 * @t: the recording, with lkst_ksyms_load() done
 * @addr: a code address recorded by the kernel
 * @off: its offset in the function
 * @mod: the module ("[mod]" of kallsyms), or NULL for the kernel
 *
 * Return: the function's name, or NULL when unknown.
 */
const char *lkst_ksym(const struct lkst_trace *t, uint64_t addr,
		      uint64_t *off, const char **mod)
{
	const struct lkst_ksyms *k = &t->ksyms;
	size_t lo = 0, hi = k->nr, mid;
	const struct lkst_ksym *s;

	/* the last symbol at or below addr */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (k->sym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!k->nr && t->dat_handle) {
		struct tep_handle *tep = tracecmd_get_tep(t->dat_handle);
		unsigned long long start;
		unsigned long size;
		const char *name;

		if (!tep || !tep_find_function_info(tep, addr, &name, &start, &size))
			return NULL;
		*off = addr - start;
		*mod = NULL;
		return name;
	}
	if (!lo)
		return NULL;
	s = &k->sym[lo - 1];
	if (!s->text || (lo == k->nr && s->addr != addr))
		return NULL;
	*off = addr - s->addr;
	*mod = s->mod;
	return s->name;
}

/**
 * lkst_print_ksym - print a code address as the kernel's %ps does
 * @f: where
 * @t: the recording
 * @addr: the address
 *
 * "name" for the start of a function (function pointers), "name+0xOFF"
 * inside one (call sites, instruction pointers), "name[mod]" or
 * "name+0xOFF[mod]" in a module, and "0xADDR" when the recording has no
 * usable kallsyms or no function holds the address.
 */
void lkst_print_ksym(FILE *f, const struct lkst_trace *t, uint64_t addr)
{
	const char *name, *mod;
	uint64_t off;

	name = lkst_ksym(t, addr, &off, &mod);
	if (!name) {
		fprintf(f, "0x%llx", (unsigned long long)addr);
		return;
	}
	fputs(name, f);
	if (off)
		fprintf(f, "+0x%llx", (unsigned long long)off);
	if (mod)
		fprintf(f, "[%s]", mod);
}
