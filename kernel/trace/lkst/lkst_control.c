// SPDX-License-Identifier: GPL-2.0
/*
 * LKST control files in /sys/kernel/tracing/lkst/: masksets, events,
 * handlers, user buffers and the record format.  The user interface is
 * described at the top of lkst_core.c.
 */
#include <kunit/visibility.h>
#include <linux/ring_buffer.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_seq.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include "../trace.h"
#include "lkst_internal.h"

/* Biggest write to masksets/NAME: every event on a full-length line. */
#define LKST_MASKSET_WRITE_MAX	8192

struct dentry *lkst_masksets_dir;
struct dentry *lkst_buffers_dir;

static bool __lkst_maskset_live(struct lkst_maskset *ms)
{
	struct lkst_maskset *p;

	list_for_each_entry(p, __lkst_masksets_list(), list)
		if (p == ms)
			return true;
	return false;
}

/* maskset: the name of the current maskset; write a name to switch */

static ssize_t lkst_maskset_read(struct file *filp, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	char name[LKST_NAME_MAX + 1];
	int len;

	scoped_guard(mutex, &lkst_mutex)
		len = snprintf(name, sizeof(name), "%s\n",
			       lkst_maskset_current()->name);
	return simple_read_from_buffer(ubuf, cnt, ppos, name, len);
}

static ssize_t lkst_maskset_write(struct file *filp, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	char name[LKST_NAME_MAX + 1];
	struct lkst_maskset *ms;
	char *p;
	int ret;

	if (!cnt || cnt > LKST_NAME_MAX)
		return -EINVAL;
	if (copy_from_user(name, ubuf, cnt))
		return -EFAULT;
	name[cnt] = '\0';
	p = strim(name);

	guard(mutex)(&lkst_mutex);
	ms = __lkst_maskset_lookup(p);
	if (!ms) {
		lkst_log_err("maskset", p, "Unknown maskset", 0);
		return -EINVAL;
	}
	ret = __lkst_maskset_set_current(ms);
	return ret ? ret : cnt;
}

static const struct file_operations lkst_maskset_fops = {
	.open	= tracing_open_generic,
	.read	= lkst_maskset_read,
	.write	= lkst_maskset_write,
	.llseek	= default_llseek,
};

/* available_masksets, available_events, available_handlers, user_masksets */

static int lkst_available_masksets_show(struct seq_file *m, void *v)
{
	struct lkst_maskset *cur, *ms;

	guard(mutex)(&lkst_mutex);
	cur = lkst_maskset_current();
	list_for_each_entry(ms, __lkst_masksets_list(), list)
		seq_printf(m, ms == cur ? "[%s]\n" : "%s\n", ms->name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lkst_available_masksets);

static int lkst_available_events_show(struct seq_file *m, void *v)
{
	lkst_events_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lkst_available_events);

static int lkst_available_handlers_show(struct seq_file *m, void *v)
{
	guard(mutex)(&lkst_mutex);
	lkst_handlers_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lkst_available_handlers);

/*
 * "NAME" creates, "!NAME" removes; one per line.  Stops at the first
 * failing line and returns its error.
 */
static ssize_t lkst_names_write(const char __user *ubuf, size_t cnt,
				const char *loc,
				int (*create)(const char *name),
				int (*remove)(const char *name))
{
	char *kbuf, *text, *line;
	int ret = 0;

	if (cnt > PAGE_SIZE)
		return -E2BIG;
	kbuf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(kbuf))
		return PTR_ERR(kbuf);

	text = kbuf;
	guard(mutex)(&lkst_mutex);
	while (!ret && (line = strsep(&text, "\n"))) {
		line = strim(line);
		if (!*line)
			continue;
		ret = *line == '!' ? remove(line + 1) : create(line);
		if (ret == -EINVAL)
			lkst_log_err(loc, line, "Invalid name", 0);
		else if (ret == -ENOENT)
			lkst_log_err(loc, line, "No such name", 1);
	}
	kfree(kbuf);
	return ret ? ret : cnt;
}

static int __lkst_user_maskset_create(const char *name)
{
	return PTR_ERR_OR_ZERO(__lkst_maskset_create(name));
}

static int __lkst_user_maskset_remove(const char *name)
{
	struct lkst_maskset *ms = __lkst_maskset_lookup(name);

	return ms ? __lkst_maskset_remove(ms) : -ENOENT;
}

/* "> user_masksets" removes all user masksets, or none if one is busy. */
static int __lkst_user_masksets_clear(void)
{
	struct lkst_maskset *ms, *tmp;

	list_for_each_entry(ms, __lkst_masksets_list(), list)
		if (!ms->builtin && atomic_read(&ms->users))
			return -EBUSY;
	list_for_each_entry_safe(ms, tmp, __lkst_masksets_list(), list)
		if (!ms->builtin)
			__lkst_maskset_remove(ms);
	return 0;
}

static int lkst_user_masksets_show(struct seq_file *m, void *v)
{
	struct lkst_maskset *ms;

	guard(mutex)(&lkst_mutex);
	list_for_each_entry(ms, __lkst_masksets_list(), list)
		if (!ms->builtin)
			seq_printf(m, "%s\n", ms->name);
	return 0;
}

static int lkst_user_masksets_open(struct inode *inode, struct file *filp)
{
	if ((filp->f_mode & FMODE_WRITE) && (filp->f_flags & O_TRUNC)) {
		scoped_guard(mutex, &lkst_mutex) {
			int ret = __lkst_user_masksets_clear();

			if (ret)
				return ret;
		}
	}
	return single_open(filp, lkst_user_masksets_show, NULL);
}

static ssize_t lkst_user_masksets_write(struct file *filp,
					const char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	return lkst_names_write(ubuf, cnt, "user_masksets",
				__lkst_user_maskset_create,
				__lkst_user_maskset_remove);
}

static const struct file_operations lkst_user_masksets_fops = {
	.open		= lkst_user_masksets_open,
	.read		= seq_read,
	.write		= lkst_user_masksets_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/*
 * masksets/NAME: the table, one "EVENT HANDLER [BUFFER]" line per event.
 *
 * A write replaces the whole table, but shells often write one line per
 * write() (printf, a loop of echos).  So the lines written through one
 * open file accumulate, and each write() installs all of them so far; a
 * rejected write() is dropped from the accumulation.  Opened with O_APPEND
 * (">>"), the accumulation starts from the current table.
 */
struct lkst_ms_file {
	struct lkst_maskset	*ms;
	char			*text;	/* accepted so far, NUL-terminated */
	size_t			len;
};

static int lkst_maskset_table_show(struct seq_file *m, void *v)
{
	struct lkst_ms_file *f = m->private;

	guard(mutex)(&lkst_mutex);
	if (!__lkst_maskset_live(f->ms))
		return -ENODEV;
	lkst_maskset_show(m, f->ms);
	return 0;
}

/* The current table as text, to append to. */
static int lkst_maskset_table_text(struct lkst_ms_file *f)
{
	struct seq_file m = { .size = LKST_MASKSET_WRITE_MAX };

	m.buf = kmalloc(m.size, GFP_KERNEL);
	if (!m.buf)
		return -ENOMEM;
	scoped_guard(mutex, &lkst_mutex) {
		if (__lkst_maskset_live(f->ms))
			lkst_maskset_show(&m, f->ms);
	}
	if (m.count >= m.size) {
		kfree(m.buf);
		return -E2BIG;
	}
	m.buf[m.count] = '\0';
	f->text = m.buf;
	f->len = m.count;
	return 0;
}

static int lkst_maskset_table_open(struct inode *inode, struct file *filp)
{
	struct lkst_ms_file *f;
	int ret;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->ms = inode->i_private;
	if ((filp->f_mode & FMODE_WRITE) && (filp->f_flags & O_APPEND)) {
		ret = lkst_maskset_table_text(f);
		if (ret)
			goto err;
	}
	ret = single_open(filp, lkst_maskset_table_show, f);
	if (!ret)
		return 0;
err:
	kfree(f->text);
	kfree(f);
	return ret;
}

static int lkst_maskset_table_release(struct inode *inode, struct file *filp)
{
	struct lkst_ms_file *f = ((struct seq_file *)filp->private_data)->private;

	kfree(f->text);
	kfree(f);
	return single_release(inode, filp);
}

static ssize_t lkst_maskset_table_write(struct file *filp,
					const char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	struct lkst_ms_file *f = ((struct seq_file *)filp->private_data)->private;
	size_t len = f->len;
	char *text, *work;
	int ret;

	if (len + cnt + 1 > LKST_MASKSET_WRITE_MAX) {
		lkst_log_err("masksets", f->ms->name, "Table too large (max "
			     __stringify(LKST_MASKSET_WRITE_MAX) " bytes)", 0);
		return -EINVAL;
	}
	text = kmalloc(len + cnt + 2, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	memcpy(text, f->text, len);
	/* A previous write without a final newline still ended its line. */
	if (len && text[len - 1] != '\n')
		text[len++] = '\n';
	if (copy_from_user(text + len, ubuf, cnt)) {
		kfree(text);
		return -EFAULT;
	}
	len += cnt;
	text[len] = '\0';
	work = kmemdup(text, len + 1, GFP_KERNEL);
	if (!work) {
		kfree(text);
		return -ENOMEM;
	}

	scoped_guard(mutex, &lkst_mutex) {
		if (!__lkst_maskset_live(f->ms))
			ret = -ENODEV;
		else if (f->ms->builtin)
			ret = -EPERM;
		else
			ret = __lkst_maskset_write(f->ms, work);
	}
	kfree(work);
	if (ret) {
		kfree(text);
		return ret;
	}
	kfree(f->text);
	f->text = text;
	f->len = len;
	return cnt;
}

static const struct file_operations lkst_maskset_table_fops = {
	.open		= lkst_maskset_table_open,
	.read		= seq_read,
	.write		= lkst_maskset_table_write,
	.llseek		= seq_lseek,
	.release	= lkst_maskset_table_release,
};

void lkst_maskset_create_file(struct lkst_maskset *ms)
{
	ms->file = trace_create_file(ms->name, ms->builtin ? TRACE_MODE_READ :
				     TRACE_MODE_WRITE, lkst_masksets_dir, ms,
				     &lkst_maskset_table_fops);
}

/* user_buffers: the same protocol as user_masksets */

static int __lkst_user_buffer_create(const char *name)
{
	struct lkst_buffer *buf;
	struct dentry *dir;

	buf = __lkst_buffer_create(name, LKST_BUF_DEFAULT_KB);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	dir = tracefs_create_dir(name, lkst_buffers_dir);
	if (IS_ERR_OR_NULL(dir))
		goto err;
	buf->dir = dir;
	if (__lkst_buffer_create_files(buf, dir))
		goto err;
	return 0;
err:
	__lkst_buffer_remove(buf);
	return -ENOMEM;
}

static int __lkst_user_buffer_remove(const char *name)
{
	struct lkst_buffer *buf = __lkst_buffer_lookup(name);

	if (!buf)
		return -ENOENT;
	return __lkst_buffer_remove(buf);
}

static int lkst_user_buffers_show(struct seq_file *m, void *v)
{
	guard(mutex)(&lkst_mutex);
	lkst_user_buffers_list(m);
	return 0;
}

static int lkst_user_buffers_open(struct inode *inode, struct file *filp)
{
	if ((filp->f_mode & FMODE_WRITE) && (filp->f_flags & O_TRUNC)) {
		scoped_guard(mutex, &lkst_mutex) {
			int ret = __lkst_user_buffers_clear();

			if (ret)
				return ret;
		}
	}
	return single_open(filp, lkst_user_buffers_show, NULL);
}

static ssize_t lkst_user_buffers_write(struct file *filp,
				       const char __user *ubuf,
				       size_t cnt, loff_t *ppos)
{
	return lkst_names_write(ubuf, cnt, "user_buffers",
				__lkst_user_buffer_create,
				__lkst_user_buffer_remove);
}

static const struct file_operations lkst_user_buffers_fops = {
	.open		= lkst_user_buffers_open,
	.read		= seq_read,
	.write		= lkst_user_buffers_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* format, header_page, header_event: all a raw reader needs */

static const struct {
	const char	*decl;
	size_t		offset;
	size_t		size;
} lkst_format_fields[] = {
	{ "u16 event", offsetof(struct lkst_record, event),
	  sizeof_field(struct lkst_record, event) },
	{ "u8 handler", offsetof(struct lkst_record, handler),
	  sizeof_field(struct lkst_record, handler) },
	{ "u8 flags", offsetof(struct lkst_record, flags),
	  sizeof_field(struct lkst_record, flags) },
	{ "u32 pid", offsetof(struct lkst_record, pid),
	  sizeof_field(struct lkst_record, pid) },
	{ "u64 arg[" __stringify(LKST_NR_ARGS) "]", offsetof(struct lkst_record, arg),
	  sizeof_field(struct lkst_record, arg) },
};

/* Generated from the struct, so the file cannot drift from the code. */
int lkst_format_show(struct seq_file *m, void *v)
{
	int i;

	seq_puts(m, "name: lkst_record\nID: 0\nformat:\n");
	for (i = 0; i < ARRAY_SIZE(lkst_format_fields); i++)
		seq_printf(m, "\tfield:%s;\toffset:%zu;\tsize:%zu;\tsigned:0;\n",
			   lkst_format_fields[i].decl, lkst_format_fields[i].offset,
			   lkst_format_fields[i].size);
	seq_puts(m, "\nprint fmt: \"event=%u handler=%u flags=0x%x pid=%u arg=0x%llx,0x%llx,0x%llx,0x%llx\", REC->event, REC->handler, REC->flags, REC->pid, REC->arg[0], REC->arg[1], REC->arg[2], REC->arg[3]\n");
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_format_show);
DEFINE_SHOW_ATTRIBUTE(lkst_format);

static ssize_t lkst_header_read(struct file *filp, char __user *ubuf,
				size_t cnt, loff_t *ppos, bool page)
{
	struct trace_seq *s;
	ssize_t ret;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	trace_seq_init(s);
	if (page)
		ring_buffer_print_page_header(lkst_buffer_rb(lkst_buffer_default()), s);
	else
		ring_buffer_print_entry_header(s);
	ret = simple_read_from_buffer(ubuf, cnt, ppos, s->buffer,
				      trace_seq_used(s));
	kfree(s);
	return ret;
}

static ssize_t lkst_header_page_read(struct file *filp, char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	return lkst_header_read(filp, ubuf, cnt, ppos, true);
}

static ssize_t lkst_header_event_read(struct file *filp, char __user *ubuf,
				      size_t cnt, loff_t *ppos)
{
	return lkst_header_read(filp, ubuf, cnt, ppos, false);
}

static const struct file_operations lkst_header_page_fops = {
	.open	= tracing_open_generic,
	.read	= lkst_header_page_read,
	.llseek	= default_llseek,
};

static const struct file_operations lkst_header_event_fops = {
	.open	= tracing_open_generic,
	.read	= lkst_header_event_read,
	.llseek	= default_llseek,
};

static const struct {
	const char			*name;
	umode_t				mode;
	const struct file_operations	*fops;
} lkst_control_files[] = {
	{ "maskset",		TRACE_MODE_WRITE, &lkst_maskset_fops },
	{ "available_masksets",	TRACE_MODE_READ, &lkst_available_masksets_fops },
	{ "available_events",	TRACE_MODE_READ, &lkst_available_events_fops },
	{ "available_handlers",	TRACE_MODE_READ, &lkst_available_handlers_fops },
	{ "user_masksets",	TRACE_MODE_WRITE, &lkst_user_masksets_fops },
	{ "user_buffers",	TRACE_MODE_WRITE, &lkst_user_buffers_fops },
	{ "format",		TRACE_MODE_READ, &lkst_format_fops },
	{ "header_page",	TRACE_MODE_READ, &lkst_header_page_fops },
	{ "header_event",	TRACE_MODE_READ, &lkst_header_event_fops },
};

/**
 * lkst_control_files_init - create the control files under @top
 * @top: lkst/
 *
 * Return: 0 or -ENOMEM; the caller removes @top on failure.
 */
int __init lkst_control_files_init(struct dentry *top)
{
	struct lkst_maskset *ms;
	int i;

	for (i = 0; i < ARRAY_SIZE(lkst_control_files); i++)
		if (!trace_create_file(lkst_control_files[i].name,
				       lkst_control_files[i].mode, top, NULL,
				       lkst_control_files[i].fops))
			return -ENOMEM;

	lkst_buffers_dir = tracefs_create_dir("buffers", top);
	lkst_masksets_dir = tracefs_create_dir("masksets", top);
	if (IS_ERR_OR_NULL(lkst_buffers_dir) || IS_ERR_OR_NULL(lkst_masksets_dir))
		return -ENOMEM;

	guard(mutex)(&lkst_mutex);
	list_for_each_entry(ms, __lkst_masksets_list(), list) {
		lkst_maskset_create_file(ms);
		if (!ms->file)
			return -ENOMEM;
	}
	return 0;
}
