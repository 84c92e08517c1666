// SPDX-License-Identifier: GPL-2.0
/*
 * LKST in a vmcore.  A kernel that crashed with LKST recording leaves its
 * records in memory, and kdump saves that memory; a distribution ships
 * vmlinux without debug info, so the reader must find the records with
 * VMCOREINFO alone (as makedumpfile --dump-dmesg finds printk's ring):
 *
 *	SYMBOL(lkst_vmcore)=ADDRESS		this descriptor
 *	SIZE(lkst_vmcore)=BYTES
 *	NUMBER(LKST_VMCORE_VERSION)=1
 *
 * and ring_buffer.c's OFFSET(trace_buffer.buffers) and friends for the
 * ring buffers the descriptor points to.  The descriptor (struct
 * lkst_vmcore in lkst_internal.h) is made of fixed-size fields: the
 * direct-map base to turn its pointers into physical addresses, the
 * buffers by name, default first, and the texts of the record's layout
 * (lkst_format_print(): a vmcore has no events/lkst/NAME/format to read),
 * of header_page, header_event and of available_events, so that the
 * extracted records are a recording that 'lkst report' reads.  It is
 * kept up to date under lkst_mutex as user buffers come and go; a buffer
 * leaves it before its memory can be freed.
 *
 * 'lkst extract VMCORE -o DIR' (tools/tracing/lkst/extract.c) is its
 * reader.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <linux/trace_seq.h>
#include <linux/vmcore_info.h>

#include "lkst_internal.h"

struct lkst_vmcore lkst_vmcore = {
	.magic		= LKST_VMCORE_MAGIC,
	.version	= LKST_VMCORE_VERSION,
	.size		= sizeof(struct lkst_vmcore),
	.record_size	= sizeof(struct lkst_record),
	.max_buffers	= LKST_VMCORE_MAX_BUFFERS,
};
EXPORT_SYMBOL_IF_KUNIT(lkst_vmcore);

static const struct {
	const char	*decl;
	size_t		offset;
	size_t		size;
} lkst_format_fields[] = {
	{ "u16 type", offsetof(struct lkst_record, type),
	  sizeof_field(struct lkst_record, type) },
	{ "u8 flags", offsetof(struct lkst_record, flags),
	  sizeof_field(struct lkst_record, flags) },
	{ "u8 preempt_count", offsetof(struct lkst_record, preempt_count),
	  sizeof_field(struct lkst_record, preempt_count) },
	{ "u32 pid", offsetof(struct lkst_record, pid),
	  sizeof_field(struct lkst_record, pid) },
	{ "u16 event", offsetof(struct lkst_record, event),
	  sizeof_field(struct lkst_record, event) },
	{ "u8 handler", offsetof(struct lkst_record, handler),
	  sizeof_field(struct lkst_record, handler) },
	{ "u64 arg[" __stringify(LKST_NR_ARGS) "]", offsetof(struct lkst_record, arg),
	  sizeof_field(struct lkst_record, arg) },
};

/*
 * The layout of struct lkst_record in the syntax of an event's format
 * file, generated from the struct so that it cannot drift from the code:
 * what 'lkst extract' writes as DIR/format for the decoder.
 */
void lkst_format_print(struct seq_buf *s)
{
	int i;

	seq_buf_puts(s, "name: lkst_record\nID: 0\nformat:\n");
	for (i = 0; i < ARRAY_SIZE(lkst_format_fields); i++)
		seq_buf_printf(s, "\tfield:%s;\toffset:%zu;\tsize:%zu;\tsigned:0;\n",
			       lkst_format_fields[i].decl,
			       lkst_format_fields[i].offset,
			       lkst_format_fields[i].size);
	seq_buf_puts(s,
		     "\nprint fmt: \"type=%u event=%u handler=%u flags=0x%x pid=%u arg=0x%llx,0x%llx,0x%llx,0x%llx\", REC->type, REC->event, REC->handler, REC->flags, REC->pid, REC->arg[0], REC->arg[1], REC->arg[2], REC->arg[3]\n");
}
EXPORT_SYMBOL_IF_KUNIT(lkst_format_print);

/**
 * __lkst_vmcore_update - describe the buffers as they are now
 *
 * Called after a buffer was added to or removed from the list, and before
 * a removed buffer's memory can be freed.  A crash in the middle leaves
 * at worst an entry that is valid for the old list or the new one.
 */
void __lkst_vmcore_update(void)
{
	struct lkst_buffer *buf;
	u32 n = 0;

	lockdep_assert_held(&lkst_mutex);
	WRITE_ONCE(lkst_vmcore.nr_buffers, 0);
	list_for_each_entry(buf, __lkst_buffers_list(), list) {
		if (n == LKST_VMCORE_MAX_BUFFERS)
			break;
		strscpy(lkst_vmcore.buf[n].name, buf->name);
		WRITE_ONCE(lkst_vmcore.buf[n].rb, (unsigned long)lkst_buffer_rb(buf));
		n++;
	}
	WRITE_ONCE(lkst_vmcore.nr_buffers, n);
}

/**
 * lkst_vmcore_print_text - print a text of the descriptor, whole or not at all
 * @buf: where it goes
 * @size: the size of @buf
 * @print: what prints it
 *
 * Return: its length, without the NUL that ends it in @buf; -E2BIG if it
 * does not fit, as a truncated format or list of events would make
 * 'lkst extract' misread every record after the cut.
 */
int lkst_vmcore_print_text(char *buf, size_t size,
			   void (*print)(struct seq_buf *s))
{
	struct seq_buf s;

	seq_buf_init(&s, buf, size);
	print(&s);
	if (seq_buf_has_overflowed(&s) || seq_buf_used(&s) >= size)
		return -E2BIG;
	buf[seq_buf_used(&s)] = '\0';
	return seq_buf_used(&s);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_vmcore_print_text);

/**
 * __lkst_vmcore_events_update - describe the events as they are now
 *
 * Called when a dynamic event was added or removed, so that the events a
 * vmcore's records name are those of available_events at the crash.  The
 * length is 0 while the pointer changes: a crash in between gives no
 * event names rather than wrong ones.
 */
void __lkst_vmcore_events_update(void)
{
	char *text, *old;
	int len;

	lockdep_assert_held(&lkst_mutex);
	old = (char *)(unsigned long)lkst_vmcore.text[LKST_VMCORE_EVENTS];
	if (!old)
		return;		/* lkst_vmcore_init() did not run or failed */
	text = kmalloc(LKST_VMCORE_TEXT_MAX, GFP_KERNEL);
	if (!text)
		goto none;
	len = lkst_vmcore_print_text(text, LKST_VMCORE_TEXT_MAX, lkst_events_print);
	if (len <= 0) {
		kfree(text);
		goto none;
	}
	WRITE_ONCE(lkst_vmcore.text_len[LKST_VMCORE_EVENTS], 0);
	barrier();
	WRITE_ONCE(lkst_vmcore.text[LKST_VMCORE_EVENTS], (unsigned long)text);
	barrier();
	WRITE_ONCE(lkst_vmcore.text_len[LKST_VMCORE_EVENTS], len);
	kfree(old);
	return;
none:
	/* No names rather than wrong ones */
	WRITE_ONCE(lkst_vmcore.text_len[LKST_VMCORE_EVENTS], 0);
	pr_warn("VMCOREINFO: the list of events could not be updated\n");
}

/* A copy of a file's text that the descriptor points to */
static int __init lkst_vmcore_text(unsigned int i, const char *text, int len)
{
	char *copy;

	if (len < 0)
		return len;
	copy = kmemdup_nul(text, len, GFP_KERNEL);

	if (!copy)
		return -ENOMEM;
	lkst_vmcore.text[i] = (unsigned long)copy;
	lkst_vmcore.text_len[i] = len;
	return 0;
}

static int __init lkst_vmcore_init(void)
{
	struct trace_seq *ts;
	unsigned int i;
	char *buf;
	int ret = -ENOMEM;

	if (!lkst_buffer_default())
		return -ENODEV;
	buf = kmalloc(LKST_VMCORE_TEXT_MAX, GFP_KERNEL);
	ts = kmalloc_obj(*ts);
	if (!buf || !ts)
		goto out;

	ret = lkst_vmcore_text(LKST_VMCORE_FORMAT, buf,
			       lkst_vmcore_print_text(buf, LKST_VMCORE_TEXT_MAX,
						      lkst_format_print));
	if (!ret)
		ret = lkst_vmcore_text(LKST_VMCORE_EVENTS, buf,
				       lkst_vmcore_print_text(buf, LKST_VMCORE_TEXT_MAX,
							      lkst_events_print));
	trace_seq_init(ts);
	ring_buffer_print_page_header(lkst_buffer_rb(lkst_buffer_default()), ts);
	if (!ret)
		ret = lkst_vmcore_text(LKST_VMCORE_HEADER_PAGE, ts->buffer,
				       trace_seq_has_overflowed(ts) ? -E2BIG :
				       trace_seq_used(ts));
	trace_seq_init(ts);
	ring_buffer_print_entry_header(ts);
	if (!ret)
		ret = lkst_vmcore_text(LKST_VMCORE_HEADER_EVENT, ts->buffer,
				       trace_seq_has_overflowed(ts) ? -E2BIG :
				       trace_seq_used(ts));
	if (ret)
		goto out;

	lkst_vmcore.page_offset = PAGE_OFFSET;
	lkst_vmcore.nr_cpus = nr_cpu_ids;
	scoped_guard(mutex, &lkst_mutex)
		__lkst_vmcore_update();

	/* vmcoreinfo_data is set up by a subsys_initcall */
	VMCOREINFO_SYMBOL(lkst_vmcore);
	VMCOREINFO_STRUCT_SIZE(lkst_vmcore);
	VMCOREINFO_NUMBER(LKST_VMCORE_VERSION);
out:
	if (ret) {
		pr_warn("no LKST description in VMCOREINFO: %pe\n", ERR_PTR(ret));
		for (i = 0; i < LKST_VMCORE_NR_TEXTS; i++) {
			kfree((void *)(unsigned long)lkst_vmcore.text[i]);
			lkst_vmcore.text[i] = 0;
			lkst_vmcore.text_len[i] = 0;
		}
	}
	kfree(ts);
	kfree(buf);
	return ret;
}
late_initcall(lkst_vmcore_init);
