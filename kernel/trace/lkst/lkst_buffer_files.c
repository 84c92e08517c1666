// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs files of LKST buffers.  The default buffer's files are in lkst/,
 * those of user buffers in lkst/buffers/NAME/:
 *
 *   per_cpu/cpuN/raw	binary, consuming, one ring-buffer page at a time
 *			(the trace_pipe_raw format, see the instance's
 *			events/header_page)
 *   per_cpu/cpuN/raw_copy  the same format, not consuming: the records
 *			held at open, while recording goes on
 *   per_cpu/cpuN/refused  records the ring buffer did not take, since the
 *			buffer was created (lkst_record()'s -ENOBUFS)
 *
 * The rest is the instance's: buffer_size_kb, options/overwrite,
 * tracing_on, the per-CPU stats, and trace, the text of the records
 * (lkst_tevent.c prints them), which O_TRUNC clears.
 *
 * Files find their buffer through i_private and check under lkst_mutex
 * that the file was not removed before taking a reference: the buffer
 * may have been removed between the lookup of the dentry and open().
 * An open file keeps the buffer's memory; once the buffer is removed,
 * raw reads end of file (raw_copy still gives what it held at open).
 */
#include <linux/fs.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/tracefs.h>
#include <linux/uio.h>

#include "../trace.h"
#include "lkst_internal.h"

static int lkst_buf_open_get(struct inode *inode, struct lkst_buffer **bufp)
{
	struct lkst_buffer *buf = inode->i_private;
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;
	guard(mutex)(&lkst_mutex);
	if (!lkst_file_live(inode))
		return -ENODEV;
	kref_get(&buf->kref);
	*bufp = buf;
	return 0;
}

/* For files whose private_data is the buffer itself. */
static int lkst_buf_open(struct inode *inode, struct file *filp)
{
	struct lkst_buffer *buf;
	int ret;

	ret = lkst_buf_open_get(inode, &buf);
	if (!ret)
		filp->private_data = buf;
	return ret;
}

static int lkst_buf_release(struct inode *inode, struct file *filp)
{
	lkst_buffer_put(filp->private_data);
	return 0;
}

/*
 * Per-CPU files: like trace_create_cpu_file() in trace.c, the CPU is
 * stored as cpu + 1 in i_cdev (unused by tracefs), i_private is the buffer.
 */
static int lkst_file_cpu(struct inode *inode)
{
	return (long)inode->i_cdev - 1;
}

/* per_cpu/cpuN/raw */

struct lkst_raw {
	struct lkst_buffer		*buf;
	int				cpu;
	bool				closed;	/* by .flush */
	fl_owner_t			owner;	/* files of the opener */
	struct buffer_data_read_page	*page;
	size_t				size;	/* of a ring-buffer page */
	size_t				read;	/* bytes of page returned */
	struct mutex			lock;	/* readers of one file */
};

static int lkst_raw_open(struct inode *inode, struct file *filp)
{
	struct lkst_buffer *buf;
	struct lkst_raw *r;
	int ret;

	ret = lkst_buf_open_get(inode, &buf);
	if (ret)
		return ret;
	r = kzalloc_obj(*r);
	if (!r) {
		ret = -ENOMEM;
		goto err_put;
	}
	r->buf = buf;
	r->cpu = lkst_file_cpu(inode);
	r->size = ring_buffer_subbuf_size_get(lkst_buffer_rb(buf));
	r->read = r->size;		/* nothing buffered yet */
	r->owner = current->files;
	mutex_init(&r->lock);
	ret = ring_buffer_alloc_read_page(lkst_buffer_rb(buf), r->cpu, &r->page);
	if (ret)
		goto err_free;
	filp->private_data = r;
	return nonseekable_open(inode, filp);

err_free:
	kfree(r);
err_put:
	lkst_buffer_put(buf);
	return ret;
}

static int lkst_raw_release(struct inode *inode, struct file *filp)
{
	struct lkst_raw *r = filp->private_data;

	ring_buffer_free_read_page(lkst_buffer_rb(r->buf), r->cpu, r->page);
	lkst_buffer_put(r->buf);
	kfree(r);
	return 0;
}

/*
 * Is there nothing more to wait for?  The file is being closed, the
 * buffer was removed, or nothing records into it any more (then an empty
 * buffer reads as end of file, as trace_pipe does when tracing is off).
 */
static bool lkst_raw_done(void *data)
{
	struct lkst_raw *r = data;

	return READ_ONCE(r->closed) || !lkst_buffer_recording(r->buf);
}

/*
 * Hand out the consumed page in pieces of the reader's size; fetch a new
 * page only when the last one is fully returned.
 *
 * A reader blocks without holding r->lock, so that a second reader of the
 * same file (read and splice at once) waits interruptibly, never in D
 * state.  It is woken by the ring buffer's irq_work when data arrives, by
 * lkst_sync_probes() and tracing_on changes (which may end the
 * recording), by __lkst_buffer_remove() and by close (.flush); the
 * condition is checked again after queueing, so no wake-up is lost.
 */
static ssize_t lkst_raw_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	bool nonblock = (iocb->ki_filp->f_flags & O_NONBLOCK) ||
			(iocb->ki_flags & IOCB_NOWAIT);
	struct lkst_raw *r = iocb->ki_filp->private_data;
	struct lkst_buffer *buf = r->buf;
	size_t n;
	int ret;

	if (!iov_iter_count(to))
		return 0;

	for (;;) {
		if (mutex_lock_interruptible(&r->lock))
			return -EINTR;
		if (r->read < r->size ||
		    ring_buffer_read_page(lkst_buffer_rb(buf), r->page, r->size, r->cpu, 0) >= 0) {
			if (r->read >= r->size)
				r->read = 0;
			break;
		}
		mutex_unlock(&r->lock);

		if (lkst_raw_done(r))
			return 0;
		if (nonblock)
			return -EAGAIN;
		ret = ring_buffer_wait(lkst_buffer_rb(buf), r->cpu, 0, lkst_raw_done, r);
		if (ret)
			return ret;
	}

	n = copy_to_iter(ring_buffer_read_page_data(r->page) + r->read,
			 r->size - r->read, to);
	r->read += n;
	mutex_unlock(&r->lock);
	return n ? n : -EFAULT;
}

static __poll_t lkst_raw_poll(struct file *filp, poll_table *pt)
{
	struct lkst_raw *r = filp->private_data;
	__poll_t mask;

	/* Queued first: a wake-up after the checks below is not lost. */
	mask = ring_buffer_poll_wait(lkst_buffer_rb(r->buf), r->cpu, filp, pt, 0);
	/* End of file is readable too. */
	if (READ_ONCE(r->read) < r->size || lkst_raw_done(r))
		mask |= EPOLLIN | EPOLLRDNORM;
	return mask;
}

/*
 * close() by the opener, e.g. one thread while another is blocked in
 * read(): wake the readers, who then read end of file.  A child that
 * inherited the descriptor (a traced command) closing its copy at exit
 * does not end the opener's reads.
 */
static int lkst_raw_flush(struct file *filp, fl_owner_t id)
{
	struct lkst_raw *r = filp->private_data;

	if (id != r->owner)
		return 0;
	WRITE_ONCE(r->closed, true);
	ring_buffer_wake_waiters(lkst_buffer_rb(r->buf), r->cpu);
	return 0;
}

/*
 * splice() copies through read_iter: simpler than trace_pipe_raw's
 * page stealing, and LKST's rates do not need zero copy.
 */
static const struct file_operations lkst_raw_fops = {
	.open		= lkst_raw_open,
	.read_iter	= lkst_raw_read_iter,
	.splice_read	= copy_splice_read,
	.poll		= lkst_raw_poll,
	.flush		= lkst_raw_flush,
	.release	= lkst_raw_release,
};

/*
 * per_cpu/cpuN/raw_copy: what the CPU's buffer holds at open, in raw's
 * page format, without consuming it or stopping the writers: the pages
 * are filled through a ring-buffer iterator (as trace reads), with the
 * records stamped up to the open.  A record overwritten before the copy
 * reached it is missing, and the page after the gap says so
 * (RB_MISSED_EVENTS); one consumed by a reader of raw meanwhile is just
 * not there; the stats before and after tell how many of each.
 */
struct lkst_raw_copy {
	struct lkst_buffer		*buf;
	struct ring_buffer_iter		*iter;	/* NULL: no buffer for the CPU */
	void				*page;
	size_t				size;	/* of a ring-buffer page */
	size_t				read;	/* bytes of page returned */
	u64				last;	/* stamp of the last record copied */
	u64				end;	/* the clock at open */
	struct mutex			lock;	/* readers of one file */
};

static int lkst_raw_copy_open(struct inode *inode, struct file *filp)
{
	struct lkst_raw_copy *rc;
	struct lkst_buffer *buf;
	struct trace_buffer *rb;
	int ret;

	ret = lkst_buf_open_get(inode, &buf);
	if (ret)
		return ret;
	rc = kzalloc_obj(*rc);
	if (!rc) {
		ret = -ENOMEM;
		goto err_put;
	}
	rb = lkst_buffer_rb(buf);
	rc->buf = buf;
	rc->size = ring_buffer_subbuf_size_get(rb);
	rc->read = rc->size;		/* nothing copied yet */
	mutex_init(&rc->lock);
	rc->page = kmalloc(rc->size, GFP_KERNEL);
	if (!rc->page) {
		ret = -ENOMEM;
		goto err_free;
	}
	/* Another boot's clock: all of it */
	rc->end = buf->last_boot ? U64_MAX : ring_buffer_time_stamp(rb);
	rc->iter = ring_buffer_read_start(rb, lkst_file_cpu(inode), GFP_KERNEL);
	/* A CPU the ring buffer never set up has no size: it reads nothing */
	if (!rc->iter && ring_buffer_size(rb, lkst_file_cpu(inode))) {
		ret = -ENOMEM;
		goto err_page;
	}
	filp->private_data = rc;
	return nonseekable_open(inode, filp);

err_page:
	kfree(rc->page);
err_free:
	kfree(rc);
err_put:
	lkst_buffer_put(buf);
	return ret;
}

static int lkst_raw_copy_release(struct inode *inode, struct file *filp)
{
	struct lkst_raw_copy *rc = filp->private_data;

	if (rc->iter)
		ring_buffer_read_finish(rc->iter);
	kfree(rc->page);
	lkst_buffer_put(rc->buf);
	kfree(rc);
	return 0;
}

/* As many pages as the reader takes: a copy races the writers */
static ssize_t lkst_raw_copy_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct lkst_raw_copy *rc = iocb->ki_filp->private_data;
	ssize_t done = 0;
	int ret = 0, tries;
	size_t n;

	if (!rc->iter)
		return 0;
	if (mutex_lock_interruptible(&rc->lock))
		return -EINTR;
	while (iov_iter_count(to)) {
		if (rc->read >= rc->size) {
			if (done && fatal_signal_pending(current))
				break;
			for (tries = 0; tries < 10; tries++) {
				ret = ring_buffer_iter_read_page(rc->iter, rc->page,
								 rc->size, &rc->last,
								 rc->end);
				if (ret != -EBUSY)
					break;
				cond_resched();
			}
			if (ret <= 0)
				break;
			rc->read = 0;
		}
		n = copy_to_iter(rc->page + rc->read, rc->size - rc->read, to);
		if (!n) {
			ret = -EFAULT;
			break;
		}
		rc->read += n;
		done += n;
		cond_resched();
	}
	mutex_unlock(&rc->lock);
	return done ? done : ret;
}

static const struct file_operations lkst_raw_copy_fops = {
	.open		= lkst_raw_copy_open,
	.read_iter	= lkst_raw_copy_read_iter,
	.splice_read	= copy_splice_read,
	.release	= lkst_raw_copy_release,
};

/*
 * per_cpu/cpuN/refused: the records the ring buffer refused on CPU N
 * (lkst_record()'s -ENOBUFS), since the buffer was created
 */
static ssize_t lkst_refused_read(struct file *filp, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	int cpu = lkst_file_cpu(file_inode(filp));
	char tmp[24];
	int len;

	len = snprintf(tmp, sizeof(tmp), "%lu\n",
		       lkst_buffer_refused(filp->private_data, cpu));
	return simple_read_from_buffer(ubuf, cnt, ppos, tmp, len);
}

static const struct file_operations lkst_refused_fops = {
	.open		= lkst_buf_open,
	.read		= lkst_refused_read,
	.release	= lkst_buf_release,
	.llseek		= default_llseek,
};

/**
 * __lkst_buffer_create_files - create the files of a buffer in @dir
 * @buf: the buffer
 * @dir: lkst/ for the default buffer, lkst/buffers/NAME/ otherwise
 *
 * On failure the caller removes @dir recursively.
 *
 * Return: 0 or -ENOMEM.
 */
int __lkst_buffer_create_files(struct lkst_buffer *buf, struct dentry *dir)
{
	struct dentry *percpu, *cpudir, *f;
	char name[16];
	int cpu;

	percpu = tracefs_create_dir("per_cpu", dir);
	if (IS_ERR_OR_NULL(percpu))
		return -ENOMEM;
	/* Possible CPUs, as the ring buffer handles them coming online. */
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		cpudir = tracefs_create_dir(name, percpu);
		if (IS_ERR_OR_NULL(cpudir))
			return -ENOMEM;
		f = trace_create_file("raw", TRACE_MODE_READ, cpudir, buf,
				      &lkst_raw_fops);
		if (!f)
			return -ENOMEM;
		d_inode(f)->i_cdev = (void *)(cpu + 1L);
		f = trace_create_file("raw_copy", TRACE_MODE_READ, cpudir, buf,
				      &lkst_raw_copy_fops);
		if (!f)
			return -ENOMEM;
		d_inode(f)->i_cdev = (void *)(cpu + 1L);
		/* the count is of this boot's writes */
		if (buf->last_boot)
			continue;
		f = trace_create_file("refused", TRACE_MODE_READ, cpudir, buf,
				      &lkst_refused_fops);
		if (!f)
			return -ENOMEM;
		d_inode(f)->i_cdev = (void *)(cpu + 1L);
	}
	return 0;
}
