// SPDX-License-Identifier: GPL-2.0
/*
 * LKST control files in /sys/kernel/tracing/lkst/: masksets, events,
 * handlers, user buffers, notify and last_boot/.  The user interface is
 * described at the top of lkst_core.c.  The control plane is the layer
 * above the objects and the crash paths: it creates and removes them with
 * their files, and keeps the vmcore's description of the buffers up to
 * date.
 */
#include <kunit/visibility.h>
#include <linux/irq_work.h>
#include <linux/poll.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "../trace.h"
#include "lkst_internal.h"

/* Biggest single write to maskset, user_masksets and user_buffers. */
#define LKST_WORDS_WRITE_MAX	PAGE_SIZE

struct dentry *lkst_masksets_dir;
struct dentry *lkst_buffers_dir;

static void lkst_maskset_create_file(struct lkst_maskset *ms);

/*
 * maskset, user_masksets and user_buffers take names separated by blanks
 * or newlines.  They are split with ftrace's trace_parser, so a name may
 * be cut across two write() calls; the name left at the end of the last
 * write is taken at close.  The names a write completes are checked
 * together first and then applied: a write either does all it says or,
 * with an error, nothing.
 */
struct lkst_words_ops {
	const char	*loc;		/* for error_log */
	/* Check that @word can be applied after @words[0..n-1] were. */
	int		(*check)(char **words, int n, char *word,
				 enum lkst_err_type *err);
	/* Can @word, left unfinished by a write, still become valid? */
	bool		(*prefix_ok)(const char *word);
	enum lkst_err_type prefix_err;
	int		(*apply)(char *word);
};

struct lkst_words_file {
	struct mutex			lock;	/* writers of one open file */
	struct trace_parser		parser;
	const struct lkst_words_ops	*ops;
};

static struct lkst_words_file *lkst_words_alloc(const struct lkst_words_ops *ops)
{
	struct lkst_words_file *w;

	w = kzalloc_obj(*w);
	if (!w)
		return NULL;
	/* The longest word is "!" and a name, plus room to detect more. */
	if (trace_parser_get_init(&w->parser, LKST_NAME_MAX + 2)) {
		kfree(w);
		return NULL;
	}
	mutex_init(&w->lock);
	w->ops = ops;
	return w;
}

/* Check, then apply, @n words.  Caller holds lkst_mutex. */
static int __lkst_words_run(const struct lkst_words_ops *ops, char **words,
			    int n)
{
	enum lkst_err_type err;
	int i, ret;

	lockdep_assert_held(&lkst_mutex);
	for (i = 0; i < n; i++) {
		ret = ops->check(words, i, words[i], &err);
		if (ret) {
			lkst_log_err(ops->loc, words[i], err, 0);
			return ret;
		}
	}
	for (i = 0; i < n; i++) {
		ret = ops->apply(words[i]);
		if (ret) {
			/* Only allocations fail here; say what was done. */
			lkst_log_err(ops->loc, words[i], LKST_ERR_NO_MEMORY, 0);
			return ret;
		}
	}
	return 0;
}

static ssize_t lkst_words_write(struct lkst_words_file *w,
				const char __user *ubuf, size_t cnt,
				loff_t *ppos)
{
	const struct lkst_words_ops *ops = w->ops;
	char **words = NULL, *text;
	size_t done = 0;
	int n = 0, ret;

	if (cnt > LKST_WORDS_WRITE_MAX) {
		lkst_log_err(ops->loc, "", LKST_ERR_WRITE_TOO_LARGE, 0);
		return -E2BIG;
	}
	/* trace_get_user() takes a NUL for a blank: refuse it instead. */
	text = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(text))
		return PTR_ERR(text);
	if (strlen(text) != cnt) {
		lkst_log_err(ops->loc, text, LKST_ERR_NUL_BYTE, strlen(text));
		kfree(text);
		return -EINVAL;
	}
	kfree(text);

	guard(mutex)(&w->lock);
	/* At most one word per two bytes, plus the one continued */
	words = kcalloc(cnt / 2 + 2, sizeof(*words), GFP_KERNEL);
	if (!words)
		return -ENOMEM;
	while (done < cnt) {
		ret = trace_get_user(&w->parser, ubuf + done, cnt - done, ppos);
		if (ret < 0) {
			w->parser.buffer[w->parser.size - 1] = '\0';
			lkst_log_err(ops->loc, w->parser.buffer,
				     LKST_ERR_BAD_NAME, 0);
			w->parser.fail = false;
			goto out;
		}
		done += ret;
		if (!trace_parser_loaded(&w->parser) ||
		    trace_parser_cont(&w->parser))
			continue;
		words[n] = kstrdup(w->parser.buffer, GFP_KERNEL);
		trace_parser_clear(&w->parser);
		if (!words[n]) {
			ret = -ENOMEM;
			goto out;
		}
		n++;
	}
	scoped_guard(mutex, &lkst_mutex) {
		ret = __lkst_words_run(ops, words, n);
		/*
		 * An unfinished word waits for the next write or close, unless
		 * nothing it could still become is valid: refuse that now.
		 */
		if (!ret && trace_parser_cont(&w->parser) &&
		    !ops->prefix_ok(w->parser.buffer)) {
			lkst_log_err(ops->loc, w->parser.buffer,
				     ops->prefix_err, 0);
			ret = -EINVAL;
		}
	}
	if (!ret)
		ret = cnt;
out:
	/* A refused write leaves nothing behind, not even half a word. */
	if (ret < 0)
		trace_parser_clear(&w->parser);
	while (n--)
		kfree(words[n]);
	kfree(words);
	return ret;
}

/* The word left unfinished by the last write; errors go to error_log. */
static void lkst_words_release(struct lkst_words_file *w)
{
	char *word = w->parser.buffer;

	if (trace_parser_loaded(&w->parser)) {
		guard(mutex)(&lkst_mutex);
		__lkst_words_run(w->ops, &word, 1);
	}
	trace_parser_put(&w->parser);
	kfree(w);
}

/* Has an earlier word of the same write created (1) or removed (-1) @name? */
static int lkst_words_effect(char **words, int n, const char *name)
{
	int i;

	for (i = n - 1; i >= 0; i--) {
		if (*words[i] == '!' && !strcmp(words[i] + 1, name))
			return -1;
		if (!strcmp(words[i], name))
			return 1;
	}
	return 0;
}

/* How many of @words[0..n-1] create (+1) and remove (-1) objects. */
static int lkst_words_balance(char **words, int n)
{
	int i, b = 0;

	for (i = 0; i < n; i++)
		b += *words[i] == '!' ? -1 : 1;
	return b;
}

/*
 * user_masksets and user_buffers: "NAME" creates, "!NAME" removes.  The
 * caller says whether the object exists now, whether it may be removed
 * (0, or -EPERM/-EBUSY), how many user objects exist and the limit.
 */
static int lkst_names_check(char **words, int n, char *word,
			    enum lkst_err_type *err, bool exists_now,
			    int removable, unsigned int count, unsigned int max)
{
	bool remove = *word == '!';
	char *name = word + remove;
	int effect = lkst_words_effect(words, n, name);
	bool exists = effect ? effect > 0 : exists_now;

	if (!lkst_name_valid(name)) {
		*err = LKST_ERR_BAD_NAME;
		return -EINVAL;
	}
	if (remove) {
		if (!exists) {
			*err = LKST_ERR_NO_SUCH_NAME;
			return -ENOENT;
		}
		/* Created by this very write: nothing uses it yet. */
		if (effect > 0 || !removable)
			return 0;
		*err = removable == -EPERM ? LKST_ERR_BUILTIN : LKST_ERR_IN_USE;
		return removable;
	}
	if (exists) {
		*err = LKST_ERR_NAME_EXISTS;
		return -EEXIST;
	}
	if ((int)count + lkst_words_balance(words, n) >= (int)max) {
		*err = LKST_ERR_TOO_MANY;
		return -ENOSPC;
	}
	return 0;
}

/* A prefix of "NAME" or "!NAME": name characters, not too many */
static bool lkst_names_prefix_ok(const char *word)
{
	const char *name = word + (*word == '!');

	return strlen(name) < LKST_NAME_MAX &&
	       strspn(name, LKST_NAME_CHARS) == strlen(name);
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

static int lkst_maskset_check(char **words, int n, char *word,
			      enum lkst_err_type *err)
{
	if (__lkst_maskset_lookup(word))
		return 0;
	*err = LKST_ERR_UNKNOWN_MASKSET;
	return -EINVAL;
}

static int lkst_maskset_apply(char *word)
{
	return __lkst_maskset_set_current(__lkst_maskset_lookup(word));
}

/* "echo -n NOSUCH > maskset" fails at once: no maskset starts so. */
static bool lkst_maskset_prefix_ok(const char *word)
{
	struct lkst_maskset *ms;

	list_for_each_entry(ms, __lkst_masksets_list(), list)
		if (!strncmp(ms->name, word, strlen(word)))
			return true;
	return false;
}

static const struct lkst_words_ops lkst_maskset_ops = {
	.loc		= "maskset",
	.check		= lkst_maskset_check,
	.apply		= lkst_maskset_apply,
	.prefix_ok	= lkst_maskset_prefix_ok,
	.prefix_err	= LKST_ERR_UNKNOWN_MASKSET,
};

static int lkst_maskset_open(struct inode *inode, struct file *filp)
{
	int ret = tracing_check_open_get_tr(NULL);

	if (ret || !(filp->f_mode & FMODE_WRITE))
		return ret;
	filp->private_data = lkst_words_alloc(&lkst_maskset_ops);
	return filp->private_data ? 0 : -ENOMEM;
}

static int lkst_maskset_release(struct inode *inode, struct file *filp)
{
	if (filp->f_mode & FMODE_WRITE)
		lkst_words_release(filp->private_data);
	return 0;
}

static ssize_t lkst_maskset_write(struct file *filp, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	return lkst_words_write(filp->private_data, ubuf, cnt, ppos);
}

static const struct file_operations lkst_maskset_fops = {
	.open		= lkst_maskset_open,
	.read		= lkst_maskset_read,
	.write		= lkst_maskset_write,
	.llseek		= default_llseek,
	.release	= lkst_maskset_release,
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
LKST_DEFINE_SHOW_ATTRIBUTE(lkst_available_masksets);

static int lkst_available_events_show(struct seq_file *m, void *v)
{
	struct seq_buf s;

	lkst_seq_buf_get(m, &s);
	lkst_events_print(&s);
	lkst_seq_buf_commit(m, &s);
	return 0;
}
LKST_DEFINE_SHOW_ATTRIBUTE(lkst_available_events);

static int lkst_available_handlers_show(struct seq_file *m, void *v)
{
	struct seq_buf s;

	guard(mutex)(&lkst_mutex);
	lkst_seq_buf_get(m, &s);
	lkst_handlers_print(&s);
	lkst_seq_buf_commit(m, &s);
	return 0;
}
LKST_DEFINE_SHOW_ATTRIBUTE(lkst_available_handlers);

/*
 * Files that list names on read and take words on write share this: the
 * seq_file for reading, a struct lkst_words_file for writing.
 */
static int lkst_list_open(struct file *filp, int (*show)(struct seq_file *, void *),
			  const struct lkst_words_ops *ops)
{
	struct lkst_words_file *w = NULL;
	int ret;

	if (filp->f_mode & FMODE_WRITE) {
		w = lkst_words_alloc(ops);
		if (!w)
			return -ENOMEM;
	}
	ret = single_open(filp, show, w);
	if (ret && w) {
		trace_parser_put(&w->parser);
		kfree(w);
	}
	return ret;
}

static int lkst_list_release(struct inode *inode, struct file *filp)
{
	struct seq_file *m = filp->private_data;

	if (m->private)
		lkst_words_release(m->private);
	return single_release(inode, filp);
}

static ssize_t lkst_list_write(struct file *filp, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct seq_file *m = filp->private_data;

	return lkst_words_write(m->private, ubuf, cnt, ppos);
}

/* O_TRUNC: remove all user objects, or none and -EBUSY if one is in use. */
static int lkst_list_truncate(struct file *filp, const char *loc,
			      int (*clear)(void))
{
	int ret;

	if (!(filp->f_mode & FMODE_WRITE) || !(filp->f_flags & O_TRUNC))
		return 0;
	guard(mutex)(&lkst_mutex);
	ret = clear();
	if (ret)
		lkst_log_err(loc, "", LKST_ERR_IN_USE, 0);
	return ret;
}

/* user_masksets */

static int lkst_user_masksets_check(char **words, int n, char *word,
				    enum lkst_err_type *err)
{
	struct lkst_maskset *ms, *p;
	unsigned int count = 0;
	int removable = 0;

	ms = __lkst_maskset_lookup(word + (*word == '!'));
	if (ms && ms->builtin)
		removable = -EPERM;
	else if (ms && atomic_read(&ms->users))
		removable = -EBUSY;
	list_for_each_entry(p, __lkst_masksets_list(), list)
		count += !p->builtin;
	return lkst_names_check(words, n, word, err, ms, removable, count,
				LKST_MAX_USER_MASKSETS);
}

static int lkst_user_masksets_apply(char *word)
{
	struct lkst_maskset *ms;

	if (*word == '!')
		return __lkst_maskset_remove(__lkst_maskset_lookup(word + 1));
	ms = __lkst_maskset_create(word);
	if (IS_ERR(ms))
		return PTR_ERR(ms);
	if (lkst_masksets_dir)
		lkst_maskset_create_file(ms);
	return 0;
}

static const struct lkst_words_ops lkst_user_masksets_ops = {
	.loc		= "user_masksets",
	.check		= lkst_user_masksets_check,
	.apply		= lkst_user_masksets_apply,
	.prefix_ok	= lkst_names_prefix_ok,
	.prefix_err	= LKST_ERR_BAD_NAME,
};

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
	int ret = tracing_check_open_get_tr(NULL);

	if (!ret)
		ret = lkst_list_truncate(filp, "user_masksets",
					 __lkst_user_masksets_clear);

	return ret ? ret : lkst_list_open(filp, lkst_user_masksets_show,
					  &lkst_user_masksets_ops);
}

static const struct file_operations lkst_user_masksets_fops = {
	.open		= lkst_user_masksets_open,
	.read		= seq_read,
	.write		= lkst_list_write,
	.llseek		= seq_lseek,
	.release	= lkst_list_release,
};

/*
 * masksets/NAME: the table, one "EVENT HANDLER [BUFFER]" line per event.
 *
 * As set_ftrace_filter does, an open file collects what is written into
 * a draft table, parsing each line as soon as it is complete (so errors
 * are reported by the write that completes the line), and close installs
 * the draft: replacing the table when opened with O_TRUNC (">"), else
 * adding to the table as it is at close (">>").  Nothing is installed if
 * any write through this open file was refused.  An open file holds a
 * reference on the maskset; once it is removed, writes fail with -ENODEV.
 */
struct lkst_ms_file {
	struct lkst_maskset	*ms;
	struct lkst_table	*draft;		/* NULL unless open for writing */
	bool			merge;		/* not O_TRUNC */
	bool			dirty;		/* O_TRUNC or written to */
	bool			failed;		/* a write was refused */
	size_t			len;		/* of the unfinished line */
	char			line[LKST_LINE_MAX + 2];
	struct mutex		lock;		/* writers of one open file */
};

static void lkst_ms_loc(struct lkst_maskset *ms, char *loc, size_t size)
{
	snprintf(loc, size, "masksets/%s", ms->name);
}

static int lkst_maskset_table_show(struct seq_file *m, void *v)
{
	struct lkst_ms_file *f = m->private;
	struct seq_buf s;

	guard(mutex)(&lkst_mutex);
	if (f->ms->removed)
		return -ENODEV;
	lkst_seq_buf_get(m, &s);
	lkst_maskset_print(&s, f->ms);
	lkst_seq_buf_commit(m, &s);
	return 0;
}

static void lkst_ms_file_free(struct lkst_ms_file *f)
{
	scoped_guard(mutex, &lkst_mutex) {
		__lkst_table_free(f->draft);
		kref_put(&f->ms->kref, lkst_maskset_free);
	}
	kfree(f);
}

static int lkst_maskset_table_open(struct inode *inode, struct file *filp)
{
	struct lkst_maskset *ms = inode->i_private;
	char loc[LKST_NAME_MAX + 16];
	struct lkst_ms_file *f;
	int ret;

	ret = tracing_check_open_get_tr(NULL);
	if (ret)
		return ret;
	f = kzalloc_obj(*f);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	scoped_guard(mutex, &lkst_mutex) {
		if (!lkst_file_live(inode)) {
			kfree(f);
			return -ENODEV;
		}
		if ((filp->f_mode & FMODE_WRITE) && ms->builtin) {
			lkst_ms_loc(ms, loc, sizeof(loc));
			lkst_log_err(loc, "", LKST_ERR_BUILTIN, 0);
			kfree(f);
			return -EPERM;
		}
		kref_get(&ms->kref);
		f->ms = ms;
	}
	if (filp->f_mode & FMODE_WRITE) {
		f->merge = !(filp->f_flags & O_TRUNC);
		f->dirty = !f->merge;
		f->draft = lkst_table_alloc();
		if (!f->draft) {
			ret = -ENOMEM;
			goto err;
		}
	}
	ret = single_open(filp, lkst_maskset_table_show, f);
	if (!ret)
		return 0;
err:
	lkst_ms_file_free(f);
	return ret;
}

/* Parse the complete line in f->line.  Caller holds f->lock. */
static int lkst_ms_file_line(struct lkst_ms_file *f)
{
	char loc[LKST_NAME_MAX + 16];

	f->line[f->len] = '\0';
	f->len = 0;
	guard(mutex)(&lkst_mutex);
	if (f->ms->removed) {
		lkst_ms_loc(f->ms, loc, sizeof(loc));
		lkst_log_err(loc, f->line, LKST_ERR_REMOVED, 0);
		return -ENODEV;
	}
	return __lkst_maskset_parse_line(f->ms, f->draft, f->line);
}

static ssize_t lkst_maskset_table_write(struct file *filp,
					const char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	struct lkst_ms_file *f = ((struct seq_file *)filp->private_data)->private;
	char loc[LKST_NAME_MAX + 16], chunk[256];
	size_t done, i, n;
	int ret = 0;

	guard(mutex)(&f->lock);
	lkst_ms_loc(f->ms, loc, sizeof(loc));
	f->dirty = true;
	if (f->failed) {
		lkst_log_err(loc, "", LKST_ERR_EARLIER_ERROR, 0);
		return -EINVAL;
	}
	for (done = 0; done < cnt && !ret; done += n) {
		n = min(cnt - done, sizeof(chunk));
		if (copy_from_user(chunk, ubuf + done, n)) {
			ret = -EFAULT;
			break;
		}
		for (i = 0; i < n && !ret; i++) {
			if (!chunk[i]) {
				f->line[f->len] = '\0';
				lkst_log_err(loc, f->line, LKST_ERR_NUL_BYTE,
					     f->len);
				ret = -EINVAL;
			} else if (chunk[i] == '\n') {
				ret = lkst_ms_file_line(f);
			} else if (f->len > LKST_LINE_MAX) {
				f->line[f->len] = '\0';
				lkst_log_err(loc, f->line,
					     LKST_ERR_LINE_TOO_LONG, 0);
				ret = -EINVAL;
			} else {
				f->line[f->len++] = chunk[i];
			}
		}
	}
	if (ret) {
		/* Nothing of this open file will be installed. */
		f->failed = true;
		return ret;
	}
	return cnt;
}

/* Install the draft, unless a write was refused. */
static void lkst_ms_file_commit(struct lkst_ms_file *f)
{
	char loc[LKST_NAME_MAX + 16];
	int ret;

	guard(mutex)(&f->lock);
	if (f->failed || !f->dirty)
		return;
	if (f->len && lkst_ms_file_line(f))
		return;
	guard(mutex)(&lkst_mutex);
	ret = __lkst_maskset_commit(f->ms, f->draft, f->merge);
	if (ret) {
		/* -ENOENT: a dynamic event went away; logged already */
		lkst_ms_loc(f->ms, loc, sizeof(loc));
		if (ret != -ENOENT)
			lkst_log_err(loc, "", ret == -ENODEV ? LKST_ERR_REMOVED :
				     LKST_ERR_NO_MEMORY, 0);
		return;
	}
	f->draft = NULL;	/* the maskset's now */
}

static int lkst_maskset_table_release(struct inode *inode, struct file *filp)
{
	struct lkst_ms_file *f = ((struct seq_file *)filp->private_data)->private;

	if (f->draft)
		lkst_ms_file_commit(f);
	lkst_ms_file_free(f);
	return single_release(inode, filp);
}

static const struct file_operations lkst_maskset_table_fops = {
	.open		= lkst_maskset_table_open,
	.read		= seq_read,
	.write		= lkst_maskset_table_write,
	.llseek		= seq_lseek,
	.release	= lkst_maskset_table_release,
};

static void lkst_maskset_create_file(struct lkst_maskset *ms)
{
	ms->file = trace_create_file(ms->name, ms->builtin ? TRACE_MODE_READ :
				     TRACE_MODE_WRITE, lkst_masksets_dir, ms,
				     &lkst_maskset_table_fops);
}

/* user_buffers: the same protocol as user_masksets */

static int lkst_user_buffers_check(char **words, int n, char *word,
				   enum lkst_err_type *err)
{
	struct lkst_buffer *buf;
	int removable = 0;

	int ret;

	buf = __lkst_buffer_lookup(word + (*word == '!'));
	if (buf == lkst_buffer_default())
		removable = -EPERM;
	else if (buf && buf->users)
		removable = -EBUSY;
	ret = lkst_names_check(words, n, word, err, buf, removable,
			       lkst_user_buffers_count(),
			       LKST_MAX_USER_BUFFERS);
	/* A user's mkdir instances/lkst.NAME: LKST does not take it over */
	if (!ret && *word != '!' && !buf && lkst_instance_exists(word)) {
		*err = LKST_ERR_INSTANCE_EXISTS;
		return -EEXIST;
	}
	return ret;
}

/**
 * __lkst_user_buffer_create - create user buffer @name with its files
 * @name: its name
 *
 * Return: 0 or the -errno of __lkst_buffer_create(); -ENOMEM; -ENODEV
 * without lkst/buffers/.
 */
int __lkst_user_buffer_create(const char *name)
{
	struct lkst_buffer *buf;
	struct dentry *dir;

	if (!lkst_buffers_dir)
		return -ENODEV;
	buf = __lkst_buffer_create(name, LKST_BUF_DEFAULT_KB);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	dir = tracefs_create_dir(name, lkst_buffers_dir);
	if (IS_ERR_OR_NULL(dir))
		goto err;
	buf->dir = dir;
	if (__lkst_buffer_create_files(buf, dir))
		goto err;
	__lkst_vmcore_update();
	return 0;
err:
	__lkst_buffer_remove(buf);
	return -ENOMEM;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_user_buffer_create);

/**
 * __lkst_user_buffer_remove - remove a user buffer and its files
 * @buf: the buffer, or NULL
 *
 * Return: 0; -ENOENT for NULL; the -errno of __lkst_buffer_remove().
 */
int __lkst_user_buffer_remove(struct lkst_buffer *buf)
{
	int ret;

	if (!buf)
		return -ENOENT;
	/* Out of the vmcore's description before its memory can go */
	kref_get(&buf->kref);
	ret = __lkst_buffer_remove(buf);
	if (!ret)
		__lkst_vmcore_update();
	lkst_buffer_put(buf);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_user_buffer_remove);

/* "> user_buffers" removes all user buffers, or none if one is in use. */
static int __lkst_user_buffers_clear(void)
{
	struct lkst_buffer *buf, *tmp;

	lockdep_assert_held(&lkst_mutex);
	list_for_each_entry(buf, __lkst_buffers_list(), list)
		if (buf != lkst_buffer_default() && buf->users)
			return -EBUSY;
	list_for_each_entry_safe(buf, tmp, __lkst_buffers_list(), list)
		if (buf != lkst_buffer_default())
			__lkst_user_buffer_remove(buf);
	return 0;
}

static int lkst_user_buffers_apply(char *word)
{
	if (*word == '!')
		return __lkst_user_buffer_remove(__lkst_buffer_lookup(word + 1));
	return __lkst_user_buffer_create(word);
}

static const struct lkst_words_ops lkst_user_buffers_ops = {
	.loc		= "user_buffers",
	.check		= lkst_user_buffers_check,
	.apply		= lkst_user_buffers_apply,
	.prefix_ok	= lkst_names_prefix_ok,
	.prefix_err	= LKST_ERR_BAD_NAME,
};

static int lkst_user_buffers_show(struct seq_file *m, void *v)
{
	struct seq_buf s;

	guard(mutex)(&lkst_mutex);
	lkst_seq_buf_get(m, &s);
	lkst_user_buffers_print(&s);
	lkst_seq_buf_commit(m, &s);
	return 0;
}

static int lkst_user_buffers_open(struct inode *inode, struct file *filp)
{
	int ret = tracing_check_open_get_tr(NULL);

	if (!ret)
		ret = lkst_list_truncate(filp, "user_buffers",
					 __lkst_user_buffers_clear);

	return ret ? ret : lkst_list_open(filp, lkst_user_buffers_show,
					  &lkst_user_buffers_ops);
}

static const struct file_operations lkst_user_buffers_fops = {
	.open		= lkst_user_buffers_open,
	.read		= seq_read,
	.write		= lkst_list_write,
	.llseek		= seq_lseek,
	.release	= lkst_list_release,
};

/*
 * notify: handlers call lkst_notify() in any context; the wake-up goes
 * through irq_work because wake_up() is not NMI safe.  A reader polls
 * the file, then reads "count last-reason".
 */
static atomic_long_t lkst_notify_count;
static unsigned int lkst_notify_reason;
static DECLARE_WAIT_QUEUE_HEAD(lkst_notify_wq);

static void lkst_notify_wake(struct irq_work *iw)
{
	wake_up_interruptible_all(&lkst_notify_wq);
}

static DEFINE_IRQ_WORK(lkst_notify_iw, lkst_notify_wake);

/**
 * lkst_notify - wake up user-space readers of lkst/notify
 * @reason: a handler-defined code, shown as the second number
 *
 * Context: any, including NMI.
 */
void lkst_notify(unsigned int reason)
{
	WRITE_ONCE(lkst_notify_reason, reason);
	atomic_long_inc(&lkst_notify_count);
	irq_work_queue(&lkst_notify_iw);
}
EXPORT_SYMBOL_GPL(lkst_notify);

static int lkst_notify_open(struct inode *inode, struct file *filp)
{
	int ret = tracing_check_open_get_tr(NULL);

	if (ret)
		return ret;
	/* private_data holds the count this reader has seen, starting now */
	filp->private_data = (void *)atomic_long_read(&lkst_notify_count);
	return 0;
}

static ssize_t lkst_notify_read(struct file *filp, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	long count = atomic_long_read(&lkst_notify_count);
	char tmp[48];
	int len;

	filp->private_data = (void *)count;
	len = snprintf(tmp, sizeof(tmp), "%ld %u\n", count,
		       READ_ONCE(lkst_notify_reason));
	return simple_read_from_buffer(ubuf, cnt, ppos, tmp, len);
}

static __poll_t lkst_notify_poll(struct file *filp, poll_table *pt)
{
	poll_wait(filp, &lkst_notify_wq, pt);
	if (atomic_long_read(&lkst_notify_count) != (long)filp->private_data)
		return EPOLLIN | EPOLLRDNORM | EPOLLPRI;
	return 0;
}

static const struct file_operations lkst_notify_fops = {
	.open	= lkst_notify_open,
	.read	= lkst_notify_read,
	.poll	= lkst_notify_poll,
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
	{ "notify",		TRACE_MODE_READ, &lkst_notify_fops },
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
	return __lkst_buffer_create_files(lkst_buffer_default(), top);
}

/**
 * lkst_last_boot_files_init - create lkst/last_boot/
 * @top: lkst/
 *
 * The directory always exists, so that its info file can say why it is
 * empty; with lkst.persist= it also has the files of the records, which
 * read nothing if the records were not kept.
 *
 * Return: 0 or -ENOMEM; the caller removes @top on failure.
 */
int __init lkst_last_boot_files_init(struct dentry *top)
{
	struct lkst_buffer *buf = lkst_persist_last_buffer();
	struct dentry *dir;

	dir = lkst_persist_create_files(top);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	if (buf && __lkst_buffer_create_files(buf, dir))
		return -ENOMEM;
	return 0;
}
