// SPDX-License-Identifier: GPL-2.0
/*
 * lkst extract: LKST's records out of a vmcore.
 *
 * The input is a dump of a whole machine that libkdumpfile reads: an ELF
 * core (/proc/vmcore in a kdump kernel, a copy of it, makedumpfile -E, a
 * QEMU dump-guest-memory file, /proc/kcore of the running kernel) or
 * makedumpfile's compressed kdump format, with pages excluded or not.
 * libkdumpfile finds VMCOREINFO (a note, or the kdump header) and with
 * it translates the kernel's virtual addresses; for a QEMU dump without
 * the note, the page of the kernel's own copy is found here.  No debug
 * info is needed: VMCOREINFO gives
 *
 *	SYMBOL(lkst_vmcore)		LKST's descriptor (lkst_vmcore.c)
 *	OFFSET(trace_buffer.buffers)...	the ring buffer's layout
 *	SYMBOL(prb), OFFSET(prb_*)...	printk's ring, for the kernel log
 *
 * and the descriptor gives the buffers and the texts of the format files.
 * The output is a recording directory, as 'lkst record' writes it, that
 * report, states, latency and export read, plus dmesg (the kernel log)
 * and vmcore.info.
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
#include <libkdumpfile/kdumpfile.h>
#include <linux/elf.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lkst.h"

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

struct vmc {
	const char	*path;
	int		fd;
	kdump_ctx_t	*kd;
	char		*info;		/* VMCOREINFO, NUL-terminated */
	uint64_t	page_size;
	bool		zero_excl;	/* the dump may leave out zero pages */
	unsigned long	zeroed;		/* sub-buffer pages read as zeros */
	char		why[128];	/* why the last read failed */
};

/* The ring buffer's layout, from VMCOREINFO */
struct vmc_rb {
	uint64_t	buffers, subbuf_order;
	uint64_t	head_page, commit_page, reader_page, nr_pages;
	uint64_t	list, read, page;
	uint64_t	commit;
	uint64_t	head_flag, flag_mask;
};

/* libkdumpfile's own words for what went wrong, or its status's */
static const char *vmc_kderr(struct vmc *v, kdump_status st)
{
	const char *s = kdump_get_err(v->kd);

	return s ? s : kdump_strerror(st);
}

static int vmc_read_as(struct vmc *v, kdump_addrspace_t as, uint64_t addr,
		       void *buf, size_t len)
{
	kdump_status st;
	size_t n = len;

	st = kdump_read(v->kd, as, addr, buf, &n);
	if (st == KDUMP_OK)
		return 0;
	snprintf(v->why, sizeof(v->why), "%s", vmc_kderr(v, st));
	return -1;
}

/*
 * Kernel memory by virtual address, which libkdumpfile translates as the
 * kernel did; -1 if any byte is not in the core (v->why says why).
 */
static int vmc_read(struct vmc *v, uint64_t va, void *buf, size_t len)
{
	return vmc_read_as(v, KDUMP_KVADDR, va, buf, len);
}

static int vmc_read_u64(struct vmc *v, uint64_t va, uint64_t *val)
{
	return vmc_read(v, va, val, sizeof(*val));
}

/*
 * A sub-buffer's data.  makedumpfile leaves out zero pages (-d 1), cache,
 * user and free pages: a page of a live ring buffer is none of the last
 * three, so a page of it that a dump with zero pages left out lacks was
 * all zeros, an unused one.  It reads as zeros, an empty sub-buffer.
 */
static int vmc_read_data(struct vmc *v, uint64_t va, char *buf, size_t len)
{
	size_t done = 0, n;
	kdump_status st;

	while (done < len) {
		n = len - done;
		st = kdump_read(v->kd, KDUMP_KVADDR, va + done, buf + done, &n);
		if (st == KDUMP_OK)
			return 0;
		if (st != KDUMP_ERR_NODATA || !v->zero_excl) {
			snprintf(v->why, sizeof(v->why), "%s", vmc_kderr(v, st));
			return -1;
		}
		v->zeroed++;
		done += n;
		n = v->page_size - ((va + done) & (v->page_size - 1));
		n = n < len - done ? n : len - done;
		memset(buf + done, 0, n);
		done += n;
	}
	return 0;
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

/* Is the page at @pa the kernel's VMCOREINFO page?  Into @page if so. */
static bool vmc_info_page(struct vmc *v, uint64_t pa, char *page)
{
	static const char key[] = "OSRELEASE=";

	return !vmc_read_as(v, KDUMP_MACHPHYSADDR, pa, page, sizeof(key) - 1) &&
	       !memcmp(page, key, sizeof(key) - 1) &&
	       !vmc_read_as(v, KDUMP_MACHPHYSADDR, pa, page, v->page_size) &&
	       memchr(page, '\0', v->page_size) &&
	       strstr(page, "\nSYMBOL(") && strstr(page, "\nPAGESIZE=");
}

/*
 * Without the note (a QEMU dump without -device vmcoreinfo), the kernel's
 * own copy: vmcoreinfo_data is a page that starts with "OSRELEASE=".  It
 * is given to libkdumpfile as if it had come with the core.
 */
static int vmc_scan_info(struct vmc *v)
{
	kdump_addr_t pfn = 0, end;
	kdump_attr_t attr;
	kdump_bmp_t *bmp;
	char *page;
	bool found = false;

	attr.type = KDUMP_BITMAP;
	if (kdump_get_typed_attr(v->kd, KDUMP_ATTR_FILE_PAGEMAP, &attr))
		return -1;
	bmp = attr.val.bitmap;
	kdump_bmp_incref(bmp);
	page = lkst_zalloc(v->page_size);
	while (!found && !kdump_bmp_find_set(bmp, &pfn)) {
		end = pfn;
		if (kdump_bmp_find_clear(bmp, &end) || end <= pfn)
			end = pfn + 1;
		for (; pfn < end && !found; pfn++)
			found = vmc_info_page(v, pfn * v->page_size, page);
	}
	kdump_bmp_decref(bmp);
	if (found) {
		attr.type = KDUMP_BLOB;
		attr.val.blob = kdump_blob_new_dup(page, strlen(page));
		if (!attr.val.blob) {
			found = false;
		} else if (kdump_set_attr(v->kd, "linux.vmcoreinfo.raw", &attr)) {
			kdump_blob_decref(attr.val.blob);
			found = false;
		}
	}
	free(page);
	return found ? 0 : -1;
}

/*
 * What the data may not go beyond: the size of a regular file.  Any other
 * file (a block device) has no size to check against, but the length of
 * each page's data is still checked.
 */
static uint64_t vmc_file_size(const struct stat *st)
{
	return S_ISREG(st->st_mode) ? (uint64_t)st->st_size : UINT64_MAX;
}

/*
 * What libkdumpfile 0.5.1 takes on trust in an ELF header: the sizes of
 * the program and section header entries (a smaller one than the
 * structure is read past its end), and a file that holds every segment
 * (what a truncated file lacks reads as zeros, which would pass for
 * memory).  /proc/kcore and /proc/vmcore say sizes of their own.
 */
static int vmc_check_elf(struct vmc *v, const struct stat *st)
{
	struct elf64_hdr eh;
	struct elf64_phdr ph;
	struct statfs fs;
	uint64_t end;
	int i;

	if (pread(v->fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return 0;	/* libkdumpfile judges the rest */
	if (eh.e_ident[EI_CLASS] != ELFCLASS64) {
		lkst_err("%s: not a core of a 64-bit machine (ELF class %d)",
			 v->path, eh.e_ident[EI_CLASS]);
		return -1;
	}
	if (eh.e_phentsize != sizeof(ph) ||
	    ((eh.e_shnum || eh.e_shoff) &&
	     eh.e_shentsize != sizeof(struct elf64_shdr))) {
		lkst_err("%s: bad ELF header: %u program headers of %u bytes, %u section headers of %u",
			 v->path, eh.e_phnum, eh.e_phentsize, eh.e_shnum,
			 eh.e_shentsize);
		return -1;
	}
	if (!S_ISREG(st->st_mode) ||
	    (!fstatfs(v->fd, &fs) && fs.f_type == PROC_SUPER_MAGIC))
		return 0;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(v->fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) !=
		    sizeof(ph)) {
			lkst_err("%s: truncated: the program headers are missing",
				 v->path);
			return -1;
		}
		end = ph.p_offset + ph.p_filesz;
		if (end < ph.p_offset || end > vmc_file_size(st)) {
			lkst_err("%s: truncated: segment %d ends at byte %llu of a %lld-byte file",
				 v->path, i, (unsigned long long)end,
				 (long long)st->st_size);
			return -1;
		}
	}
	return 0;
}

/*
 * makedumpfile's kdump-compressed header (its diskdump_mod.h), 64-bit;
 * every field is at its natural alignment
 */
struct vmc_kdump_hdr {
	char		signature[8];	/* "KDUMP   " */
	int32_t		header_version;
	char		utsname[6 * 65];
	char		pad[6];
	uint64_t	timestamp[2];
	uint32_t	status;
	int32_t		block_size;
	int32_t		sub_hdr_size;	/* in blocks */
	uint32_t	bitmap_blocks;
};

/* The start of the kdump sub-header, in the block after the header */
struct vmc_kdump_sub_hdr {
	uint64_t	phys_base;
	int32_t		dump_level;	/* header version 1 and later */
	int32_t		split;		/* header version 2 and later */
};

struct vmc_kdump_pd {
	uint64_t	offset;		/* of the page's data */
	uint32_t	size;
	uint32_t	flags;
	uint64_t	page_flags;
};

#define VMC_KDUMP_COMPRESSED	0x27	/* zlib, lzo, snappy, zstd */
#define VMC_KDUMP_PDS		4096	/* read at a time */

/* The pages in the file (libkdumpfile's file.pagemap) */
static int vmc_count_pages(struct vmc *v, uint64_t *count)
{
	kdump_addr_t pfn = 0, end;
	kdump_attr_t attr;
	kdump_bmp_t *bmp;

	attr.type = KDUMP_BITMAP;
	if (kdump_get_typed_attr(v->kd, KDUMP_ATTR_FILE_PAGEMAP, &attr))
		return -1;
	bmp = attr.val.bitmap;
	kdump_bmp_incref(bmp);
	*count = 0;
	while (!kdump_bmp_find_set(bmp, &pfn)) {
		end = pfn;
		if (kdump_bmp_find_clear(bmp, &end) || end <= pfn)
			end = pfn + 1;
		*count += end - pfn;
		pfn = end;
	}
	kdump_bmp_decref(bmp);
	return 0;
}

/* Page descriptors @i.. of the @nr from @pos: in the file, of a page */
static int vmc_check_pds(struct vmc *v, const struct stat *st,
			 uint64_t pos, uint64_t i, uint64_t nr,
			 struct vmc_kdump_pd *pd)
{
	uint64_t n = nr - i < VMC_KDUMP_PDS ? nr - i : VMC_KDUMP_PDS, j, end;

	if (pread(v->fd, pd, n * sizeof(*pd), pos + i * sizeof(*pd)) !=
	    (ssize_t)(n * sizeof(*pd))) {
		lkst_err("%s: truncated: the descriptors of %llu pages end at byte %llu of a %lld-byte file",
			 v->path, (unsigned long long)nr,
			 (unsigned long long)(pos + nr * sizeof(*pd)),
			 (long long)st->st_size);
		return -1;
	}
	for (j = 0; j < n; j++) {
		end = pd[j].offset + pd[j].size;
		if (end < pd[j].offset || end > vmc_file_size(st)) {
			lkst_err("%s: truncated or corrupted: the data of page descriptor %llu of %llu ends at byte %llu of a %lld-byte file",
				 v->path, (unsigned long long)(i + j),
				 (unsigned long long)nr,
				 (unsigned long long)end,
				 (long long)st->st_size);
			return -1;
		}
		/* libkdumpfile 0.5.1 reads it into a buffer of a page */
		if ((pd[j].flags & VMC_KDUMP_COMPRESSED) &&
		    pd[j].size > v->page_size) {
			lkst_err("%s: corrupted: page descriptor %llu: %u bytes of compressed data for a %llu-byte page",
				 v->path, (unsigned long long)(i + j),
				 pd[j].size, (unsigned long long)v->page_size);
			return -1;
		}
	}
	return 0;
}

/*
 * What libkdumpfile 0.5.1 takes on trust in makedumpfile's kdump-compressed
 * format: after the headers and the bitmaps comes one page descriptor for
 * each page in the file, which says where the page's data is and how long
 * it is.  A descriptor or data past the end of the file reads as zeros,
 * and compressed data longer than a page overruns its buffer.  A part of
 * a dump split with --split cannot be told from a whole one by this: the
 * parts must be joined first.
 */
static int vmc_check_kdump(struct vmc *v, const struct stat *st)
{
	struct vmc_kdump_sub_hdr sub = { };
	struct vmc_kdump_pd *pd;
	struct vmc_kdump_hdr h;
	uint64_t pos, nr, i;
	int ret = 0;

	/* libkdumpfile takes either signature as this format */
	if (pread(v->fd, &h, sizeof(h), 0) != sizeof(h) ||
	    (memcmp(h.signature, "KDUMP   ", sizeof(h.signature)) &&
	     memcmp(h.signature, "DISKDUMP", sizeof(h.signature))))
		return 0;
	if (h.block_size != (int64_t)v->page_size || h.sub_hdr_size < 0) {
		lkst_err("%s: corrupted: a kdump header of %d-byte blocks for %llu-byte pages",
			 v->path, h.block_size,
			 (unsigned long long)v->page_size);
		return -1;
	}
	if (h.header_version >= 1 &&
	    pread(v->fd, &sub, sizeof(sub), h.block_size) == sizeof(sub))
		v->zero_excl = sub.dump_level & 1;
	if (h.header_version >= 2 && sub.split) {
		lkst_err("%s: one part of a dump that makedumpfile --split wrote: join the parts with makedumpfile --reassemble first",
			 v->path);
		return -1;
	}
	pos = (1ULL + h.sub_hdr_size + h.bitmap_blocks) * h.block_size;
	if (vmc_count_pages(v, &nr)) {
		lkst_err("%s: corrupted: no page bitmap in the kdump header", v->path);
		return -1;
	}
	if (pos > vmc_file_size(st)) {
		lkst_err("%s: truncated: the headers and bitmaps end at byte %llu of a %lld-byte file",
			 v->path, (unsigned long long)pos,
			 (long long)st->st_size);
		return -1;
	}
	pd = lkst_realloc_array(NULL, VMC_KDUMP_PDS, sizeof(*pd));
	for (i = 0; i < nr && !ret; i += VMC_KDUMP_PDS)
		ret = vmc_check_pds(v, st, pos, i, nr, pd);
	free(pd);
	return ret;
}

/* What libkdumpfile could not open, said in a way that helps */
static void vmc_open_err(struct vmc *v, kdump_status st)
{
	char sig[12] = "";

	if (pread(v->fd, sig, sizeof(sig), 0) == sizeof(sig) &&
	    !memcmp(sig, "makedumpfile", sizeof(sig)))
		lkst_err("%s: a flattened dump (makedumpfile -F): turn it into a file first, with makedumpfile -R",
			 v->path);
	else
		lkst_err("%s: not a vmcore libkdumpfile can read (ELF or kdump-compressed): %s",
			 v->path, vmc_kderr(v, st));
}

/*
 * The dump, its VMCOREINFO, and the kernel's address translation: the
 * dump's own phys_base, KASLR offset and page tables, which libkdumpfile
 * finds through VMCOREINFO when told the dump is of Linux.
 */
static int vmc_open(struct vmc *v, const char *path)
{
	kdump_num_t num;
	kdump_status st;
	struct stat sb;

	memset(v, 0, sizeof(*v));
	v->path = path;
	v->zero_excl = true;	/* unless the dump says otherwise */
	v->fd = open(path, O_RDONLY);
	if (v->fd < 0) {
		lkst_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(v->fd, &sb)) {
		lkst_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (vmc_check_elf(v, &sb))
		return -1;
	v->kd = kdump_new();
	if (!v->kd) {
		lkst_err("%s: libkdumpfile: out of memory", path);
		return -1;
	}
	/*
	 * read(), not mmap(): a page of a mapping past the end of a file
	 * is SIGBUS, and /proc/kcore has no mmap.
	 */
	st = kdump_set_number_attr(v->kd, KDUMP_ATTR_FILE_MMAP_POLICY,
				   KDUMP_MMAP_NEVER);
	if (!st)
		st = kdump_open_fd(v->kd, v->fd);
	if (st) {
		vmc_open_err(v, st);
		return -1;
	}
	if (kdump_get_number_attr(v->kd, KDUMP_ATTR_PTR_SIZE, &num) ||
	    num != 8 ||
	    kdump_get_number_attr(v->kd, KDUMP_ATTR_BYTE_ORDER, &num) ||
	    num != KDUMP_LITTLE_ENDIAN) {
		lkst_err("%s: not a dump of a 64-bit little-endian machine",
			 path);
		return -1;
	}
	if (kdump_get_number_attr(v->kd, KDUMP_ATTR_PAGE_SIZE, &num) ||
	    num < 4096 || num > VMC_MAX_PAGE || (num & (num - 1))) {
		lkst_err("%s: libkdumpfile finds no usable page size in it (%llu)",
			 path, (unsigned long long)num);
		return -1;
	}
	v->page_size = num;
	if (vmc_check_kdump(v, &sb))
		return -1;
	/* VMCOREINFO is Linux's: libkdumpfile has it only once told so */
	st = kdump_set_string_attr(v->kd, KDUMP_ATTR_OSTYPE, "linux");
	if (st) {
		lkst_err("%s: libkdumpfile cannot translate the kernel's addresses: %s",
			 path, vmc_kderr(v, st));
		return -1;
	}
	if (kdump_vmcoreinfo_raw(v->kd, &v->info) &&
	    (vmc_scan_info(v) || kdump_vmcoreinfo_raw(v->kd, &v->info))) {
		lkst_err("%s: no VMCOREINFO (neither a note nor the kernel's page)",
			 path);
		return -1;
	}
	/* libkdumpfile's pages are VMCOREINFO's, now also after a scan */
	if (vmc_info_need(v, "PAGESIZE", &v->page_size))
		return -1;
	if (kdump_get_number_attr(v->kd, KDUMP_ATTR_PAGE_SIZE, &num) ||
	    num != v->page_size) {
		lkst_err("%s: VMCOREINFO: bad PAGESIZE %llu", path,
			 (unsigned long long)v->page_size);
		return -1;
	}
	return 0;
}

static void vmc_close(struct vmc *v)
{
	if (v->kd)
		kdump_free(v->kd);
	if (v->fd >= 0)
		close(v->fd);
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
	/* The commit word, and the data after it, are in the smallest page */
	if (l->commit + sizeof(uint64_t) >= v->page_size) {
		lkst_err("%s: VMCOREINFO: OFFSET(buffer_data_page.commit)=%llu in a %llu-byte page",
			 v->path, (unsigned long long)l->commit,
			 (unsigned long long)v->page_size);
		return -1;
	}
	return 0;
}

struct vmc_out {
	int		fd;
	char		*path;
	unsigned long	pages;
	unsigned long	bad;
	bool		lost;		/* the CPU's ring buffer is not in the core */
};

#define VMC_PUT_WRITE_ERROR	-2

/* Append one sub-buffer (struct buffer_data_page) to the CPU's raw file */
static int vmc_put_page(struct vmc *v, const struct vmc_rb *l, uint64_t bpage,
			size_t size, char *page, struct vmc_out *o)
{
	uint64_t data, commit;

	if (vmc_read_u64(v, bpage + l->page, &data) ||
	    vmc_read_data(v, data, page, size)) {
		o->bad++;
		return -1;
	}
	memcpy(&commit, page + l->commit, sizeof(commit));
	/* Empty, or not a page of this buffer: left out */
	if (!commit ||
	    (commit & ((1ULL << 27) - 1)) > size - (l->commit + sizeof(commit))) {
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
 * What cannot be read is left out and counted; -1 is a write error.
 */
static int vmc_extract_cpu(struct vmc *v, const struct vmc_rb *l,
			   uint64_t cb, size_t size, struct vmc_out *o)
{
	uint64_t reader, commit, head, nr, p, next, i;
	uint64_t mask = ~l->flag_mask;
	char *page = lkst_zalloc(size);
	int ret = 0;

	o->lost = true;
	if (vmc_read_u64(v, cb + l->reader_page, &reader) ||
	    vmc_read_u64(v, cb + l->commit_page, &commit) ||
	    vmc_read_u64(v, cb + l->head_page, &head) ||
	    vmc_read_u64(v, cb + l->nr_pages, &nr))
		goto out;
	if (nr > (1ULL << 24)) {
		snprintf(v->why, sizeof(v->why), "%llu pages",
			 (unsigned long long)nr);
		goto out;
	}
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
	o->lost = false;
	if (vmc_put_page(v, l, reader, size, page, o) == VMC_PUT_WRITE_ERROR) {
		ret = -1;
		goto out;
	}
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

	/* DIR/format describes the records: not an earlier recording's formats */
	path = lkst_path(dir, LKST_DIR_FORMATS);
	ret = lkst_remove_tree(path);
	if (ret)
		lkst_err("%s: %s", path, strerror(-ret));
	free(path);
	if (ret)
		return -1;
	for (i = 0; i < LKST_VMCORE_NR_TEXTS; i++) {
		if (!d->text_len[i] || d->text_len[i] > VMC_TEXT_MAX) {
			lkst_err("%s: LKST descriptor: bad length %u of %s",
				 v->path, d->text_len[i], vmc_text_file[i]);
			return -1;
		}
		text = lkst_zalloc(d->text_len[i] + 1);
		if (vmc_read(v, d->text[i], text, d->text_len[i])) {
			lkst_err("%s: LKST descriptor: %s is not in the core: %s",
				 v->path, vmc_text_file[i], v->why);
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
	unsigned long pages = 0, bad = 0, zeroed = v->zeroed;
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
		lkst_err("%s: buffer %s: its ring buffer is not in the core: %s",
			 v->path, name, order > 4 ? "bad order" : v->why);
		return -1;
	}
	size = v->page_size << order;
	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		if (vmc_read_u64(v, buffers + 8ULL * cpu, &cb)) {
			lkst_err("%s: buffer %s: its per-CPU array is not in the core: %s",
				 v->path, name, v->why);
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
		if (vmc_extract_cpu(v, l, cb, size, &o)) {
			close(o.fd);
			free(o.path);
			return -1;
		}
		close(o.fd);
		if (o.lost)
			lkst_warn("%s: buffer %s, cpu%u: its ring buffer is not in the core (%s), left out",
				  v->path, name, cpu, v->why);
		else if (o.bad)
			lkst_warn("%s: buffer %s, cpu%u: %lu pages could not be read, left out",
				  v->path, name, cpu, o.bad);
		free(o.path);
		pages += o.pages;
		bad += o.bad + o.lost;
	}
	fprintf(info, "buffer: %s, %lu pages%s", name, pages,
		bad ? ", some unreadable" : "");
	if (v->zeroed != zeroed)
		fprintf(info, ", %lu empty ones not in the dump",
			v->zeroed - zeroed);
	fputc('\n', info);
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
		"Write LKST's records in VMCORE, a dump of the whole machine (/proc/vmcore\n"
		"in a kdump kernel, an ELF vmcore, makedumpfile's kdump-compressed file,\n"
		"also with pages excluded (-d 31), a QEMU dump-guest-memory file, or\n"
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
		lkst_err("%s: the LKST descriptor is not in the core: %s",
			 v->path, v->why);
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
