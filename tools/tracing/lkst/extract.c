// SPDX-License-Identifier: GPL-2.0
/*
 * lkst extract: LKST's records out of a vmcore.
 *
 * The input is an ELF core of a whole machine: /proc/vmcore in a kdump
 * kernel, a vmcore saved from it without makedumpfile's compression, a
 * QEMU dump-guest-memory file, or /proc/kcore of the running kernel.  No
 * debug info is needed: VMCOREINFO (a note of the core, or for a QEMU dump
 * without one the page of the kernel's copy) gives
 *
 *	SYMBOL(lkst_vmcore)		LKST's descriptor (lkst_vmcore.c)
 *	NUMBER(phys_base)		where the kernel image is in RAM
 *	OFFSET(trace_buffer.buffers)...	the ring buffer's layout
 *	SYMBOL(prb), OFFSET(prb_*)...	printk's ring, for the kernel log
 *
 * and the descriptor gives the direct map's base, the buffers and the
 * texts of the format files.  The output is a recording directory, as
 * 'lkst record' writes it, that report, states, latency and export read,
 * plus dmesg (the kernel log) and vmcore.info.
 *
 * Everything read from the core is checked before it is used: a damaged
 * or foreign core gives a message and exit status 1.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <linux/elf.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lkst.h"

#define X86_START_KERNEL_MAP	0xffffffff80000000ULL
#define VMC_MAX_NOTES		(16 << 20)
#define VMC_INFO_MAX		65536
#define VMC_TEXT_MAX		65536
#define VMC_MAX_CPUS		8192
#define VMC_MAX_PAGE		65536
#define VMC_MAX_OFFSET		4096	/* of a field in a structure */

/* struct lkst_vmcore, version 1 (kernel/trace/lkst/lkst_internal.h) */
#define LKST_VMCORE_MAGIC	0x52434d5654534b4cULL	/* "LKSTVMCR" */
#define LKST_VMCORE_VERSION	1
#define LKST_VMCORE_NR_TEXTS	4
#define LKST_VMCORE_NAME_MAX	32
#define LKST_VMCORE_NAME_CHARS	\
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

struct lkst_vmcore_buf {
	char		name[LKST_VMCORE_NAME_MAX];
	uint64_t	rb;
};

struct lkst_vmcore {
	uint64_t	magic;
	uint32_t	version;
	uint32_t	size;
	uint64_t	page_offset;
	uint32_t	nr_cpus;
	uint32_t	record_size;
	uint32_t	max_buffers;
	uint32_t	nr_buffers;
	uint64_t	text[LKST_VMCORE_NR_TEXTS];
	uint32_t	text_len[LKST_VMCORE_NR_TEXTS];
	struct lkst_vmcore_buf buf[];
};

static const char * const vmc_text_file[LKST_VMCORE_NR_TEXTS] = {
	LKST_FILE_FORMAT, LKST_FILE_HPAGE, LKST_FILE_HEVENT, LKST_FILE_EVENTS,
};

struct vmc_load {
	uint64_t	pa;
	uint64_t	size;
	uint64_t	off;
};

struct vmc {
	const char	*path;
	int		fd;
	struct vmc_load	*load;
	size_t		nr_load;
	char		*info;		/* VMCOREINFO, NUL-terminated */
	uint64_t	phys_base;
	uint64_t	page_offset;	/* from LKST's descriptor */
	uint64_t	page_size;
};

/* The ring buffer's layout, from VMCOREINFO */
struct vmc_rb {
	uint64_t	buffers, subbuf_order;
	uint64_t	head_page, commit_page, reader_page, nr_pages;
	uint64_t	list, read, page;
	uint64_t	commit;
	uint64_t	head_flag, flag_mask;
};

static int vmc_pread(struct vmc *v, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pread(v->fd, (char *)buf + done, len - done, off + done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

/* Read physical memory; -1 if any byte is not in the core */
static int vmc_read_pa(struct vmc *v, uint64_t pa, void *buf, size_t len)
{
	size_t i, chunk;

	while (len) {
		for (i = 0; i < v->nr_load; i++)
			if (pa >= v->load[i].pa && pa - v->load[i].pa < v->load[i].size)
				break;
		if (i == v->nr_load)
			return -1;
		chunk = v->load[i].size - (pa - v->load[i].pa);
		if (chunk > len)
			chunk = len;
		if (vmc_pread(v, buf, chunk, v->load[i].off + (pa - v->load[i].pa)))
			return -1;
		pa += chunk;
		buf = (char *)buf + chunk;
		len -= chunk;
	}
	return 0;
}

/* Kernel image addresses through phys_base, the rest through the direct map */
static int vmc_read(struct vmc *v, uint64_t va, void *buf, size_t len)
{
	uint64_t pa;

	if (va >= X86_START_KERNEL_MAP)
		pa = va - X86_START_KERNEL_MAP + v->phys_base;
	else if (v->page_offset && va >= v->page_offset)
		pa = va - v->page_offset;
	else
		return -1;
	return vmc_read_pa(v, pa, buf, len);
}

static int vmc_read_u64(struct vmc *v, uint64_t va, uint64_t *val)
{
	return vmc_read(v, va, val, sizeof(*val));
}

/* The value of "KEY=value" in VMCOREINFO, or NULL */
static const char *vmc_info_find(const struct vmc *v, const char *key)
{
	size_t len = strlen(key);
	const char *p = v->info;

	while (p && *p) {
		if (!strncmp(p, key, len) && p[len] == '=')
			return p + len + 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* A number of VMCOREINFO; base 16 for SYMBOL() */
static int vmc_info(const struct vmc *v, const char *key, uint64_t *val)
{
	const char *p = vmc_info_find(v, key);
	int base = strncmp(key, "SYMBOL(", 7) ? 10 : 16;
	char *end;

	if (!p)
		return -1;
	errno = 0;
	if (*p == '-')
		*val = (uint64_t)strtoll(p, &end, base);
	else
		*val = strtoull(p, &end, base);
	if (errno || end == p || (*end && *end != '\n'))
		return -1;
	return 0;
}

static int vmc_info_need(const struct vmc *v, const char *key, uint64_t *val)
{
	if (!vmc_info(v, key, val))
		return 0;
	lkst_err("%s: VMCOREINFO has no valid %s", v->path, key);
	return -1;
}

/* A copy of the text of VMCOREINFO's KEY, or NULL */
static char *vmc_info_str(const struct vmc *v, const char *key)
{
	const char *p = vmc_info_find(v, key);
	const char *end;
	char *s;

	if (!p)
		return NULL;
	end = strchrnul(p, '\n');
	s = lkst_zalloc(end - p + 1);
	memcpy(s, p, end - p);
	/* It goes into messages and files: printable only */
	for (p = s; *p; p++)
		if (!isprint((unsigned char)*p))
			s[p - s] = '?';
	return s;
}

/* The VMCOREINFO note among the notes of a PT_NOTE segment */
static void vmc_find_note(struct vmc *v, const char *notes, size_t size)
{
	size_t pos = 0, namesz, descsz;
	struct elf64_note n;

	while (pos + sizeof(n) <= size) {
		memcpy(&n, notes + pos, sizeof(n));
		pos += sizeof(n);
		namesz = ((size_t)n.n_namesz + 3) & ~(size_t)3;
		descsz = ((size_t)n.n_descsz + 3) & ~(size_t)3;
		if (namesz > size - pos || descsz > size - pos - namesz)
			return;
		if (n.n_namesz == sizeof("VMCOREINFO") &&
		    !memcmp(notes + pos, "VMCOREINFO", sizeof("VMCOREINFO")) &&
		    n.n_descsz < VMC_INFO_MAX) {
			v->info = lkst_zalloc(n.n_descsz + 1);
			memcpy(v->info, notes + pos + namesz, n.n_descsz);
			return;
		}
		pos += namesz + descsz;
	}
}

/*
 * Without the note (a QEMU dump without -device vmcoreinfo), the kernel's
 * own copy: vmcoreinfo_data is a page that starts with "OSRELEASE=".
 */
static void vmc_scan_info(struct vmc *v)
{
	static const char key[] = "OSRELEASE=";
	char page[4096];
	uint64_t pa;
	size_t i;

	for (i = 0; i < v->nr_load && !v->info; i++) {
		for (pa = (v->load[i].pa + 4095) & ~4095ULL;
		     pa + sizeof(page) <= v->load[i].pa + v->load[i].size;
		     pa += sizeof(page)) {
			if (vmc_read_pa(v, pa, page, sizeof(key) - 1) ||
			    memcmp(page, key, sizeof(key) - 1))
				continue;
			if (vmc_read_pa(v, pa, page, sizeof(page)) ||
			    !memchr(page, '\0', sizeof(page)) ||
			    !strstr(page, "\nSYMBOL(") || !strstr(page, "\nPAGESIZE="))
				continue;
			v->info = lkst_strdup(page);
			return;
		}
	}
}

static int vmc_check_ehdr(const char *path, const struct elf64_hdr *eh)
{
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG)) {
		if (!memcmp(eh->e_ident, "KDUMP   ", 8) ||
		    !memcmp(eh->e_ident, "makedumpfile", 12))
			lkst_err("%s: a compressed (kdump-format) dump: write an ELF one with makedumpfile -E, or copy /proc/vmcore",
				 path);
		else
			lkst_err("%s: not an ELF core", path);
		return -1;
	}
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_machine != EM_X86_64 || eh->e_type != ET_CORE) {
		lkst_err("%s: not a core of an x86_64 machine (ELF class %d, type %d, machine %d)",
			 path, eh->e_ident[EI_CLASS], eh->e_type, eh->e_machine);
		return -1;
	}
	if (eh->e_phentsize != sizeof(struct elf64_phdr) || !eh->e_phnum) {
		lkst_err("%s: bad program headers (%u of %u bytes)", path,
			 eh->e_phnum, eh->e_phentsize);
		return -1;
	}
	return 0;
}

/*
 * The memory segments and the VMCOREINFO note of the program headers.  A
 * file's size must hold every segment; /proc/kcore and /proc/vmcore say
 * sizes of their own.
 */
static int vmc_segments(struct vmc *v, const struct elf64_phdr *ph, int nr,
			const struct stat *st)
{
	struct statfs fs;
	bool sized;
	char *notes;
	int i;

	sized = S_ISREG(st->st_mode) &&
		!(!fstatfs(v->fd, &fs) && fs.f_type == PROC_SUPER_MAGIC);
	v->load = lkst_realloc_array(NULL, nr, sizeof(*v->load));
	for (i = 0; i < nr; i++) {
		if (sized &&
		    (ph[i].p_offset > (uint64_t)st->st_size ||
		     ph[i].p_filesz > (uint64_t)st->st_size - ph[i].p_offset)) {
			lkst_err("%s: truncated: segment %d ends at byte %llu of a %lld-byte file",
				 v->path, i,
				 (unsigned long long)(ph[i].p_offset + ph[i].p_filesz),
				 (long long)st->st_size);
			return -1;
		}
		if (ph[i].p_type == PT_LOAD && ph[i].p_paddr != (uint64_t)-1 &&
		    ph[i].p_filesz) {
			v->load[v->nr_load].pa = ph[i].p_paddr;
			v->load[v->nr_load].size = ph[i].p_filesz;
			v->load[v->nr_load].off = ph[i].p_offset;
			v->nr_load++;
		} else if (ph[i].p_type == PT_NOTE && !v->info &&
			   ph[i].p_filesz && ph[i].p_filesz < VMC_MAX_NOTES) {
			notes = lkst_zalloc(ph[i].p_filesz);
			if (!vmc_pread(v, notes, ph[i].p_filesz, ph[i].p_offset))
				vmc_find_note(v, notes, ph[i].p_filesz);
			free(notes);
		}
	}
	return 0;
}

static int vmc_open(struct vmc *v, const char *path)
{
	struct elf64_phdr *ph = NULL;
	struct elf64_hdr eh;
	struct stat st;
	int ret = -1;

	memset(v, 0, sizeof(*v));
	v->path = path;
	v->fd = open(path, O_RDONLY);
	if (v->fd < 0) {
		lkst_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(v->fd, &st) || vmc_pread(v, &eh, sizeof(eh), 0)) {
		lkst_err("%s: too short for an ELF header", path);
		return -1;
	}
	if (vmc_check_ehdr(path, &eh))
		return -1;
	ph = lkst_realloc_array(NULL, eh.e_phnum, sizeof(*ph));
	if (vmc_pread(v, ph, (size_t)eh.e_phnum * sizeof(*ph), eh.e_phoff)) {
		lkst_err("%s: truncated: the program headers are missing", path);
		goto out;
	}
	if (vmc_segments(v, ph, eh.e_phnum, &st))
		goto out;
	if (!v->nr_load) {
		lkst_err("%s: no memory in this core (no PT_LOAD with a physical address)",
			 path);
		goto out;
	}
	if (!v->info)
		vmc_scan_info(v);
	if (!v->info) {
		lkst_err("%s: no VMCOREINFO (neither a note nor the kernel's page)",
			 path);
		goto out;
	}
	if (vmc_info_need(v, "NUMBER(phys_base)", &v->phys_base) ||
	    vmc_info_need(v, "PAGESIZE", &v->page_size))
		goto out;
	if (v->page_size < 4096 || v->page_size > VMC_MAX_PAGE ||
	    (v->page_size & (v->page_size - 1))) {
		lkst_err("%s: VMCOREINFO: bad PAGESIZE %llu", path,
			 (unsigned long long)v->page_size);
		goto out;
	}
	ret = 0;
out:
	free(ph);
	return ret;
}

static void vmc_close(struct vmc *v)
{
	if (v->fd >= 0)
		close(v->fd);
	free(v->load);
	free(v->info);
}

struct vmc_key {
	const char	*key;
	uint64_t	*val;
};

/* Offsets must be small: anything else is not this layout */
static int vmc_offsets(struct vmc *v, const struct vmc_key *keys, size_t nr,
		       bool quiet)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (vmc_info(v, keys[i].key, keys[i].val)) {
			if (!quiet)
				lkst_err("%s: VMCOREINFO has no valid %s",
					 v->path, keys[i].key);
			return -1;
		}
		if (!strncmp(keys[i].key, "NUMBER(", 7))
			continue;
		if (*keys[i].val > VMC_MAX_OFFSET) {
			if (!quiet)
				lkst_err("%s: VMCOREINFO: %s is %llu, not a plausible offset",
					 v->path, keys[i].key,
					 (unsigned long long)*keys[i].val);
			return -1;
		}
	}
	return 0;
}

static int vmc_rb_layout(struct vmc *v, struct vmc_rb *l)
{
	const struct vmc_key keys[] = {
		{ "OFFSET(trace_buffer.buffers)", &l->buffers },
		{ "OFFSET(trace_buffer.subbuf_order)", &l->subbuf_order },
		{ "OFFSET(ring_buffer_per_cpu.head_page)", &l->head_page },
		{ "OFFSET(ring_buffer_per_cpu.commit_page)", &l->commit_page },
		{ "OFFSET(ring_buffer_per_cpu.reader_page)", &l->reader_page },
		{ "OFFSET(ring_buffer_per_cpu.nr_pages)", &l->nr_pages },
		{ "OFFSET(buffer_page.list)", &l->list },
		{ "OFFSET(buffer_page.read)", &l->read },
		{ "OFFSET(buffer_page.page)", &l->page },
		{ "OFFSET(buffer_data_page.commit)", &l->commit },
		{ "NUMBER(RB_PAGE_HEAD)", &l->head_flag },
		{ "NUMBER(RB_FLAG_MASK)", &l->flag_mask },
	};

	if (vmc_offsets(v, keys, ARRAY_SIZE(keys), false))
		return -1;
	if (l->flag_mask > 7 || !(l->head_flag & l->flag_mask)) {
		lkst_err("%s: VMCOREINFO: bad ring-buffer page flags", v->path);
		return -1;
	}
	return 0;
}

struct vmc_out {
	int		fd;
	char		*path;
	unsigned long	pages;
	unsigned long	bad;
};

#define VMC_PUT_WRITE_ERROR	-2

/* Append one sub-buffer (struct buffer_data_page) to the CPU's raw file */
static int vmc_put_page(struct vmc *v, const struct vmc_rb *l, uint64_t bpage,
			size_t size, char *page, struct vmc_out *o)
{
	uint64_t data, commit;

	if (vmc_read_u64(v, bpage + l->page, &data) ||
	    vmc_read(v, data, page, size)) {
		o->bad++;
		return -1;
	}
	memcpy(&commit, page + l->commit, sizeof(commit));
	/* Empty, or not a page of this buffer: left out */
	if (!commit || (commit & ((1ULL << 27) - 1)) > size) {
		if (commit)
			o->bad++;
		return 0;
	}
	if (write(o->fd, page, size) != (ssize_t)size) {
		lkst_err("%s: %s", o->path, strerror(errno));
		return VMC_PUT_WRITE_ERROR;
	}
	o->pages++;
	return 0;
}

/*
 * One CPU's pages in the order a reader would consume them: the reader
 * page, then from the head page (the one after the page whose list.next
 * carries RB_PAGE_HEAD) to the commit page.  The reader page is written
 * whole: records a raw reader had already consumed from it come again.
 */
static int vmc_extract_cpu(struct vmc *v, const struct vmc_rb *l,
			   uint64_t cb, size_t size, struct vmc_out *o)
{
	uint64_t reader, commit, head, nr, p, next, i;
	uint64_t mask = ~l->flag_mask;
	char *page = lkst_zalloc(size);
	int ret = -1;

	if (vmc_read_u64(v, cb + l->reader_page, &reader) ||
	    vmc_read_u64(v, cb + l->commit_page, &commit) ||
	    vmc_read_u64(v, cb + l->head_page, &head) ||
	    vmc_read_u64(v, cb + l->nr_pages, &nr) || nr > (1ULL << 24))
		goto out;
	/* The true head: flagged in its predecessor's list.next */
	for (p = head, i = 0; i <= nr; i++) {
		if (vmc_read_u64(v, p + l->list, &next))
			goto out;
		if (next & l->head_flag) {
			head = (next & mask) - l->list;
			break;
		}
		p = (next & mask) - l->list;
	}
	if (vmc_put_page(v, l, reader, size, page, o) == VMC_PUT_WRITE_ERROR)
		goto out;
	ret = 0;
	if (commit == reader)
		goto out;
	for (p = head, i = 0; i <= nr; i++) {
		if (vmc_put_page(v, l, p, size, page, o) == VMC_PUT_WRITE_ERROR) {
			ret = -1;
			goto out;
		}
		if (p == commit)
			break;
		if (vmc_read_u64(v, p + l->list, &next))
			break;
		p = (next & mask) - l->list;
	}
	/* The ring did not lead to the commit page */
	if (p != commit)
		o->bad++;
out:
	free(page);
	return ret;
}

static int vmc_write_text(struct vmc *v, const struct lkst_vmcore *d,
			  const char *dir)
{
	char *text, *path;
	int i, ret;

	for (i = 0; i < LKST_VMCORE_NR_TEXTS; i++) {
		if (!d->text_len[i] || d->text_len[i] > VMC_TEXT_MAX) {
			lkst_err("%s: LKST descriptor: bad length %u of %s",
				 v->path, d->text_len[i], vmc_text_file[i]);
			return -1;
		}
		text = lkst_zalloc(d->text_len[i] + 1);
		if (vmc_read(v, d->text[i], text, d->text_len[i])) {
			lkst_err("%s: LKST descriptor: %s is not in the core",
				 v->path, vmc_text_file[i]);
			free(text);
			return -1;
		}
		path = lkst_path(dir, vmc_text_file[i]);
		ret = lkst_write_file(path, text, strlen(text));
		if (ret)
			lkst_err("%s: %s", path, strerror(-ret));
		free(path);
		free(text);
		if (ret)
			return -1;
	}
	/* The crashed kernel's process names and symbols are not known */
	path = lkst_path(dir, LKST_FILE_COMM);
	ret = lkst_write_file(path, "", 0);
	if (ret)
		lkst_err("%s: %s", path, strerror(-ret));
	free(path);
	return ret ? -1 : 0;
}

/* One buffer into DIR: its texts, then cpuN.raw per CPU */
static int vmc_extract_buffer(struct vmc *v, const struct vmc_rb *l,
			      const struct lkst_vmcore *d, uint64_t rb,
			      const char *dir, FILE *info, const char *name)
{
	unsigned long pages = 0, bad = 0;
	uint64_t buffers, cb;
	uint32_t cpu, order = 0;
	struct vmc_out o;
	char file[32];
	size_t size;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		lkst_err("%s: %s", dir, strerror(errno));
		return -1;
	}
	if (vmc_write_text(v, d, dir))
		return -1;
	if (vmc_read_u64(v, rb + l->buffers, &buffers) ||
	    vmc_read(v, rb + l->subbuf_order, &order, sizeof(order)) ||
	    order > 4) {
		lkst_err("%s: buffer %s: its ring buffer is not in the core",
			 v->path, name);
		return -1;
	}
	size = v->page_size << order;
	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		if (vmc_read_u64(v, buffers + 8ULL * cpu, &cb)) {
			lkst_err("%s: buffer %s: its per-CPU array is not in the core",
				 v->path, name);
			return -1;
		}
		if (!cb)
			continue;	/* never online */
		snprintf(file, sizeof(file), "cpu%u.raw", cpu);
		o.path = lkst_path(dir, file);
		o.pages = 0;
		o.bad = 0;
		o.fd = open(o.path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (o.fd < 0) {
			lkst_err("%s: %s", o.path, strerror(errno));
			free(o.path);
			return -1;
		}
		if (vmc_extract_cpu(v, l, cb, size, &o) < 0 && !o.bad) {
			close(o.fd);
			free(o.path);
			return -1;
		}
		close(o.fd);
		if (o.bad)
			lkst_warn("%s: buffer %s, cpu%u: %lu pages could not be read, left out",
				  v->path, name, cpu, o.bad);
		free(o.path);
		pages += o.pages;
		bad += o.bad;
	}
	fprintf(info, "buffer: %s, %lu pages%s\n", name, pages,
		bad ? ", some unreadable" : "");
	fprintf(stderr, "lkst: buffer %s: %lu pages\n", name, pages);
	return 0;
}

/* printk's ring (kernel/printk/printk_ringbuffer.h), as VMCOREINFO says */
struct vmc_prb {
	uint64_t	desc_ring, text_ring, count_bits, descs, infos, head_id,
			tail_id, desc_size, state_var, text_blk_lpos, begin, next,
			info_size, ts_nsec, text_len, size_bits, data, counter;
};

#define PRB_SV_SHIFT	62
#define PRB_ID_MASK	(~(3ULL << PRB_SV_SHIFT))

static int vmc_prb_layout(struct vmc *v, struct vmc_prb *p)
{
	const struct vmc_key keys[] = {
		{ "OFFSET(printk_ringbuffer.desc_ring)", &p->desc_ring },
		{ "OFFSET(printk_ringbuffer.text_data_ring)", &p->text_ring },
		{ "OFFSET(prb_desc_ring.count_bits)", &p->count_bits },
		{ "OFFSET(prb_desc_ring.descs)", &p->descs },
		{ "OFFSET(prb_desc_ring.infos)", &p->infos },
		{ "OFFSET(prb_desc_ring.head_id)", &p->head_id },
		{ "OFFSET(prb_desc_ring.tail_id)", &p->tail_id },
		{ "SIZE(prb_desc)", &p->desc_size },
		{ "OFFSET(prb_desc.state_var)", &p->state_var },
		{ "OFFSET(prb_desc.text_blk_lpos)", &p->text_blk_lpos },
		{ "OFFSET(prb_data_blk_lpos.begin)", &p->begin },
		{ "OFFSET(prb_data_blk_lpos.next)", &p->next },
		{ "SIZE(printk_info)", &p->info_size },
		{ "OFFSET(printk_info.ts_nsec)", &p->ts_nsec },
		{ "OFFSET(printk_info.text_len)", &p->text_len },
		{ "OFFSET(prb_data_ring.size_bits)", &p->size_bits },
		{ "OFFSET(prb_data_ring.data)", &p->data },
		{ "OFFSET(atomic_long_t.counter)", &p->counter },
	};

	return vmc_offsets(v, keys, ARRAY_SIZE(keys), true);
}

/* Record @idx of printk's ring as a dmesg line, if it is a complete one */
static int vmc_dmesg_one(struct vmc *v, const struct vmc_prb *p,
			 uint64_t descs, uint64_t infos, uint64_t data,
			 uint32_t size_bits, uint64_t id, uint64_t idx,
			 char *text, FILE *f)
{
	uint64_t desc = descs + idx * p->desc_size, sv, begin, next, ts, off;
	uint64_t info = infos + idx * p->info_size;
	uint16_t len;

	if (vmc_read_u64(v, desc + p->state_var + p->counter, &sv) ||
	    vmc_read_u64(v, desc + p->text_blk_lpos + p->begin, &begin) ||
	    vmc_read_u64(v, desc + p->text_blk_lpos + p->next, &next) ||
	    vmc_read_u64(v, info + p->ts_nsec, &ts) ||
	    vmc_read(v, info + p->text_len, &len, sizeof(len)))
		return -1;
	/* committed (1) or finalized (2), of this ID, with text */
	if ((sv & PRB_ID_MASK) != id ||
	    ((sv >> PRB_SV_SHIFT) != 1 && (sv >> PRB_SV_SHIFT) != 2) ||
	    (begin & 1) || (next & 1))
		return 0;
	off = begin & ((1ULL << size_bits) - 1);
	/* A block that wraps is stored at the start of the data */
	if ((begin >> size_bits) != (next >> size_bits))
		off = 0;
	if (off + 8 + len > (1ULL << size_bits) ||
	    vmc_read(v, data + off + 8, text, len))
		return 0;
	text[len] = '\0';
	fprintf(f, "[%5llu.%06llu] %s\n", (unsigned long long)(ts / 1000000000),
		(unsigned long long)(ts % 1000000000 / 1000), text);
	return 1;
}

/*
 * The kernel log, as dmesg prints it, into DIR/dmesg: every record from
 * the oldest (tail) to the newest (head) descriptor that is committed or
 * finalized.
 */
static int vmc_dmesg(struct vmc *v, const char *dir, FILE *info)
{
	uint64_t prb, dr, tr, descs, infos, head, tail, data, id, n;
	uint32_t count_bits = 0, size_bits = 0;
	unsigned long lines = 0;
	struct vmc_prb p;
	char *path, *text;
	FILE *f;
	int ret;

	if (vmc_prb_layout(v, &p) || vmc_info(v, "SYMBOL(prb)", &prb) ||
	    vmc_read_u64(v, prb, &prb)) {
		lkst_warn("%s: no kernel log: VMCOREINFO does not describe printk's ring",
			  v->path);
		return -1;
	}
	dr = prb + p.desc_ring;
	tr = prb + p.text_ring;
	if (vmc_read(v, dr + p.count_bits, &count_bits, sizeof(count_bits)) ||
	    vmc_read_u64(v, dr + p.descs, &descs) ||
	    vmc_read_u64(v, dr + p.infos, &infos) ||
	    vmc_read_u64(v, dr + p.head_id + p.counter, &head) ||
	    vmc_read_u64(v, dr + p.tail_id + p.counter, &tail) ||
	    vmc_read(v, tr + p.size_bits, &size_bits, sizeof(size_bits)) ||
	    vmc_read_u64(v, tr + p.data, &data) ||
	    count_bits > 24 || size_bits > 30 || size_bits < 4) {
		lkst_warn("%s: no kernel log: printk's ring is not in the core",
			  v->path);
		return -1;
	}
	path = lkst_path(dir, "dmesg");
	f = fopen(path, "w");
	if (!f) {
		lkst_err("%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	text = lkst_zalloc(65536 + 1);
	for (id = tail & PRB_ID_MASK, n = 0; n <= (1ULL << count_bits);
	     id = (id + 1) & PRB_ID_MASK, n++) {
		ret = vmc_dmesg_one(v, &p, descs, infos, data, size_bits, id,
				    id & ((1ULL << count_bits) - 1), text, f);
		if (ret < 0)
			break;
		lines += ret;
		if (id == (head & PRB_ID_MASK))
			break;
	}
	free(text);
	ret = fclose(f);
	if (ret)
		lkst_err("%s: %s", path, strerror(errno));
	else
		fprintf(info, "dmesg: the kernel log, %lu lines\n", lines);
	free(path);
	return ret ? -1 : 0;
}

static void extract_usage(FILE *f)
{
	fprintf(f,
		"usage: lkst extract VMCORE [-o DIR]\n"
		"\n"
		"Write LKST's records in VMCORE, a core of the whole machine (/proc/vmcore\n"
		"in a kdump kernel, an ELF vmcore, a QEMU dump-guest-memory file, or\n"
		"/proc/kcore), as a recording that 'lkst report|states|latency|export'\n"
		"read: the default buffer into DIR, user buffers into DIR/buffers/NAME,\n"
		"the kernel log into DIR/dmesg.  No debug info is needed: VMCOREINFO\n"
		"describes what to read.\n"
		"\n"
		"  -o, --output DIR       recording directory (default lkst.data)\n"
		"  -h, --help             this text\n");
}

/* A buffer name as the kernel allows it: it becomes a directory name */
static bool vmc_name_valid(const char *name)
{
	size_t len = strnlen(name, LKST_VMCORE_NAME_MAX);

	return len && len < LKST_VMCORE_NAME_MAX &&
	       strspn(name, LKST_VMCORE_NAME_CHARS) == len;
}

/* The descriptor SYMBOL(lkst_vmcore) points to, checked; NULL if none */
static struct lkst_vmcore *vmc_descriptor(struct vmc *v, const char *release)
{
	uint64_t sym, size = 0, version = 0;
	struct lkst_vmcore *d;
	uint32_t i;

	if (vmc_info(v, "SYMBOL(lkst_vmcore)", &sym)) {
		lkst_err("%s: no LKST in this kernel (%s): VMCOREINFO has no SYMBOL(lkst_vmcore)",
			 v->path, release ? release : "unknown release");
		return NULL;
	}
	if (vmc_info_need(v, "SIZE(lkst_vmcore)", &size) ||
	    vmc_info_need(v, "NUMBER(LKST_VMCORE_VERSION)", &version))
		return NULL;
	if (version != LKST_VMCORE_VERSION || size < sizeof(*d) ||
	    size > 65536) {
		lkst_err("%s: LKST descriptor version %llu of %llu bytes; this tool reads version %d",
			 v->path, (unsigned long long)version,
			 (unsigned long long)size, LKST_VMCORE_VERSION);
		return NULL;
	}
	d = lkst_zalloc(size);
	if (vmc_read(v, sym, d, size)) {
		lkst_err("%s: the LKST descriptor is not in the core", v->path);
		free(d);
		return NULL;
	}
	if (d->magic != LKST_VMCORE_MAGIC || d->version != version ||
	    d->size != size || !d->nr_cpus || d->nr_cpus > VMC_MAX_CPUS ||
	    d->max_buffers > (size - sizeof(*d)) / sizeof(d->buf[0]) ||
	    d->nr_buffers > d->max_buffers || !d->nr_buffers ||
	    d->page_offset < 0x8000000000000000ULL ||
	    !vmc_name_valid(d->buf[0].name) ||
	    strcmp(d->buf[0].name, "default")) {
		lkst_err("%s: the LKST descriptor is corrupted", v->path);
		free(d);
		return NULL;
	}
	for (i = 1; i < d->nr_buffers; i++) {
		if (!vmc_name_valid(d->buf[i].name)) {
			lkst_err("%s: the LKST descriptor is corrupted (buffer %u)",
				 v->path, i);
			free(d);
			return NULL;
		}
	}
	return d;
}

static int vmc_extract(struct vmc *v, const char *dir)
{
	char *release = vmc_info_str(v, "OSRELEASE"), *path, *sub;
	struct lkst_vmcore *d;
	FILE *info = NULL;
	int ret = -1;
	struct vmc_rb l;
	uint32_t i;

	d = vmc_descriptor(v, release);
	if (!d)
		goto out;
	v->page_offset = d->page_offset;
	if (vmc_rb_layout(v, &l))
		goto out;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		lkst_err("%s: %s", dir, strerror(errno));
		goto out;
	}
	path = lkst_path(dir, "vmcore.info");
	info = fopen(path, "w");
	if (!info)
		lkst_err("%s: %s", path, strerror(errno));
	free(path);
	if (!info)
		goto out;
	fprintf(info, "vmcore: %s\nrelease: %s\n", v->path,
		release ? release : "unknown");
	path = vmc_info_str(v, "CRASHTIME");
	if (path)
		fprintf(info, "crash_time: %s\n", path);
	free(path);
	for (i = 0; i < d->nr_buffers; i++) {
		if (!i) {
			sub = lkst_strdup(dir);
		} else {
			path = lkst_path(dir, "buffers");
			if (mkdir(path, 0755) && errno != EEXIST) {
				lkst_err("%s: %s", path, strerror(errno));
				free(path);
				goto out;
			}
			sub = lkst_path(path, d->buf[i].name);
			free(path);
		}
		ret = vmc_extract_buffer(v, &l, d, d->buf[i].rb, sub, info,
					 d->buf[i].name);
		free(sub);
		if (ret)
			goto out;
	}
	vmc_dmesg(v, dir, info);
	fprintf(stderr, "lkst: extracted %u buffers of %s (%s) into %s\n",
		d->nr_buffers, v->path, release ? release : "?", dir);
	ret = 0;
out:
	if (info && fclose(info)) {
		lkst_err("%s/vmcore.info: %s", dir, strerror(errno));
		ret = -1;
	}
	free(release);
	free(d);
	return ret;
}

int cmd_extract(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output",	required_argument,	NULL, 'o' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	const char *dir = "lkst.data";
	int opt, ret = LKST_EXIT_FAIL;
	struct vmc v;

	while ((opt = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			dir = optarg;
			break;
		case 'h':
			extract_usage(stdout);
			return LKST_EXIT_OK;
		default:
			extract_usage(stderr);
			return LKST_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		lkst_err("extract: one VMCORE expected");
		extract_usage(stderr);
		return LKST_EXIT_USAGE;
	}
	if (!vmc_open(&v, argv[optind]) && !vmc_extract(&v, dir))
		ret = LKST_EXIT_OK;
	vmc_close(&v);
	return ret;
}
