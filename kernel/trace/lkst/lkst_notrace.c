// SPDX-License-Identifier: GPL-2.0
/*
 * LKST notrace_pids: tasks whose events LKST does not record.
 *
 * A recorder that reads the buffers and writes them to files makes
 * events of its own (system calls, page faults, wakeups), which fill
 * more pages, which it reads and writes: with a detailed maskset it ends
 * up recording mostly itself.  As trace-cmd does with ftrace's
 * set_event_notrace_pid, it writes its pid here:
 *
 *   # echo 1234 > notrace_pids		# exactly these pids
 *   # echo 5678 >> notrace_pids	# add one
 *   # echo '!1234' >> notrace_pids	# remove one
 *   # echo > notrace_pids		# none
 *   # echo 1 > notrace_fork		# children of listed tasks join the list
 *
 * An event is not recorded (no handler runs) when it happens in task
 * context while a listed task is current; interrupts, softirqs and NMIs
 * that hit the task are recorded as usual, as they are not its doing.
 * Scheduler events follow ftrace's rule for set_event_notrace_pid: a
 * context switch is recorded unless both tasks are listed, and a wakeup
 * unless both the waker and the woken task are, so that a state chart
 * shows when a listed recorder leaves the CPU and comes back.
 * A pid leaves the list when its task is freed, an RCU grace period
 * after it exited (as for ftrace's lists), so that it does not apply to
 * a later task that reuses the number (the probes stay attached until a
 * write empties the list).
 *
 * Cost: while the list is empty, a static branch in every probe, patched
 * out.  While it is not, each probe reads a per-CPU flag, which probes on
 * sched_switch and sched_wakeup set as ftrace's pid filters do.
 *
 * The list is a trace_pid_list, read with ftrace's seq_file helpers and
 * kept up to date at fork and free with trace_filter_add_remove_task().
 * It is allocated when it gets its first pid and freed, after the probes
 * are done with it, when a write empties it.  Writes keep a parser of
 * their own, as trace_pid_write() knows no "!PID" and reports no error
 * position; they change the list in place, under its own lock, like the
 * fork and free probes, so that no update of theirs is lost to a copy.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/bsearch.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/tracefs.h>
#include <trace/events/sched.h>

#include "../trace.h"
#include "lkst_internal.h"

DEFINE_STATIC_KEY_FALSE(lkst_notrace_key);
DEFINE_PER_CPU(bool, lkst_notrace_cpu);

static struct trace_pid_list __rcu *lkst_notrace_list;
static bool lkst_notrace_fork;

/* The longest token: "!" and a pid */
#define LKST_PID_TOKEN_MAX	16

static struct trace_pid_list *lkst_notrace_list_locked(void)
{
	return rcu_dereference_protected(lkst_notrace_list,
					 lockdep_is_held(&lkst_mutex));
}

/*
 * ftrace's rule for its pid filters (event_filter_pid_sched_switch_probe_pre()
 * and _post()): while a task switches, its events are kept unless both
 * sides are listed, so that a listed task's leaving and coming back are
 * recorded for the task it switches with.  Afterwards, the flag is the
 * next task's.  The pre probes run before LKST's (default priority 10),
 * the post probes after them.
 */
static void lkst_notrace_switch_pre(void *data, bool preempt,
				    struct task_struct *prev,
				    struct task_struct *next,
				    unsigned int prev_state)
{
	struct trace_pid_list *l = rcu_dereference_sched(lkst_notrace_list);

	this_cpu_write(lkst_notrace_cpu,
		       trace_ignore_this_task(NULL, l, prev) &&
		       trace_ignore_this_task(NULL, l, next));
}

static void lkst_notrace_switch_post(void *data, bool preempt,
				     struct task_struct *prev,
				     struct task_struct *next,
				     unsigned int prev_state)
{
	struct trace_pid_list *l = rcu_dereference_sched(lkst_notrace_list);

	this_cpu_write(lkst_notrace_cpu, trace_ignore_this_task(NULL, l, next));
}

/* Likewise, a listed task's wakeup of a task not listed is recorded. */
static void lkst_notrace_wakeup_pre(void *data, struct task_struct *task)
{
	struct trace_pid_list *l = rcu_dereference_sched(lkst_notrace_list);

	if (this_cpu_read(lkst_notrace_cpu))
		this_cpu_write(lkst_notrace_cpu,
			       trace_ignore_this_task(NULL, l, task));
}

static void lkst_notrace_wakeup_post(void *data, struct task_struct *task)
{
	struct trace_pid_list *l = rcu_dereference_sched(lkst_notrace_list);

	this_cpu_write(lkst_notrace_cpu,
		       trace_ignore_this_task(NULL, l, current));
}

static void lkst_notrace_fork_probe(void *data, struct task_struct *parent,
				    struct task_struct *child)
{
	/* The probes of sched_process_fork and _free are preemptible */
	guard(preempt_notrace)();
	if (READ_ONCE(lkst_notrace_fork))
		trace_filter_add_remove_task(rcu_dereference_sched(lkst_notrace_list),
					     parent, child);
}

static void lkst_notrace_free_probe(void *data, struct task_struct *task)
{
	guard(preempt_notrace)();
	trace_filter_add_remove_task(rcu_dereference_sched(lkst_notrace_list),
				     NULL, task);
}

/* IPI: the flag of this CPU, for the task it runs now */
static void lkst_notrace_sync_cpu(void *unused)
{
	struct trace_pid_list *l = rcu_dereference_sched(lkst_notrace_list);

	this_cpu_write(lkst_notrace_cpu, trace_ignore_this_task(NULL, l, current));
}

static int lkst_notrace_attach(void)
{
	int ret;

	ret = register_trace_prio_sched_switch(lkst_notrace_switch_pre, NULL,
					       INT_MAX);
	if (ret)
		return ret;
	ret = register_trace_prio_sched_switch(lkst_notrace_switch_post, NULL, 0);
	if (ret)
		goto err_switch_pre;
	ret = register_trace_prio_sched_wakeup(lkst_notrace_wakeup_pre, NULL,
					       INT_MAX);
	if (ret)
		goto err_switch_post;
	ret = register_trace_prio_sched_wakeup(lkst_notrace_wakeup_post, NULL, 0);
	if (ret)
		goto err_wakeup_pre;
	ret = register_trace_prio_sched_wakeup_new(lkst_notrace_wakeup_pre,
						   NULL, INT_MAX);
	if (ret)
		goto err_wakeup_post;
	ret = register_trace_prio_sched_wakeup_new(lkst_notrace_wakeup_post,
						   NULL, 0);
	if (ret)
		goto err_wakeup_new_pre;
	ret = register_trace_sched_process_fork(lkst_notrace_fork_probe, NULL);
	if (ret)
		goto err_wakeup_new_post;
	ret = register_trace_sched_process_free(lkst_notrace_free_probe, NULL);
	if (ret)
		goto err_fork;
	return 0;

err_fork:
	unregister_trace_sched_process_fork(lkst_notrace_fork_probe, NULL);
err_wakeup_new_post:
	unregister_trace_sched_wakeup_new(lkst_notrace_wakeup_post, NULL);
err_wakeup_new_pre:
	unregister_trace_sched_wakeup_new(lkst_notrace_wakeup_pre, NULL);
err_wakeup_post:
	unregister_trace_sched_wakeup(lkst_notrace_wakeup_post, NULL);
err_wakeup_pre:
	unregister_trace_sched_wakeup(lkst_notrace_wakeup_pre, NULL);
err_switch_post:
	unregister_trace_sched_switch(lkst_notrace_switch_post, NULL);
err_switch_pre:
	unregister_trace_sched_switch(lkst_notrace_switch_pre, NULL);
	return ret;
}

static void lkst_notrace_detach(void)
{
	unregister_trace_sched_process_free(lkst_notrace_free_probe, NULL);
	unregister_trace_sched_process_fork(lkst_notrace_fork_probe, NULL);
	unregister_trace_sched_wakeup_new(lkst_notrace_wakeup_post, NULL);
	unregister_trace_sched_wakeup_new(lkst_notrace_wakeup_pre, NULL);
	unregister_trace_sched_wakeup(lkst_notrace_wakeup_post, NULL);
	unregister_trace_sched_wakeup(lkst_notrace_wakeup_pre, NULL);
	unregister_trace_sched_switch(lkst_notrace_switch_post, NULL);
	unregister_trace_sched_switch(lkst_notrace_switch_pre, NULL);
}

/* Make @l, a list that is not empty, the current one. */
static int __lkst_notrace_publish(struct trace_pid_list *l)
{
	int ret;

	lockdep_assert_held(&lkst_mutex);
	ret = lkst_notrace_attach();
	if (ret)
		return ret;
	rcu_assign_pointer(lkst_notrace_list, l);
	on_each_cpu(lkst_notrace_sync_cpu, NULL, 1);
	static_branch_enable(&lkst_notrace_key);
	return 0;
}

/* The list became empty: detach, and free it once no probe can see it. */
static void __lkst_notrace_unpublish(void)
{
	struct trace_pid_list *old = lkst_notrace_list_locked();
	int cpu;

	lockdep_assert_held(&lkst_mutex);
	static_branch_disable(&lkst_notrace_key);
	lkst_notrace_detach();
	rcu_assign_pointer(lkst_notrace_list, NULL);
	/* Probes read the list with preemption disabled. */
	lkst_synchronize_readers();
	trace_pid_list_free(old);
	/* Also CPUs offline now: no stale flag when the list is used again. */
	for_each_possible_cpu(cpu)
		per_cpu(lkst_notrace_cpu, cpu) = false;
}

/*
 * A write's tokens, one u64 each: the pid in the upper half, then the
 * token's place, then whether it removes.  Sorted, each pid's tokens are
 * together and in the order they were written, so the last one says what
 * becomes of the pid.
 */
#define LKST_NT_PID_SHIFT	32
#define LKST_NT_PLACE_SHIFT	2
#define LKST_NT_REMOVE		BIT_ULL(0)
#define LKST_NT_ADDED		BIT_ULL(1)	/* set by this write */

static int lkst_notrace_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int lkst_notrace_cmp_pid(const void *key, const void *elt)
{
	u64 x = *(const u64 *)key >> LKST_NT_PID_SHIFT;
	u64 y = *(const u64 *)elt >> LKST_NT_PID_SHIFT;

	return x < y ? -1 : x > y;
}

/* Does the write end with @pid listed? */
static bool lkst_notrace_keeps(const u64 *ops, unsigned int n, unsigned int pid)
{
	u64 key = (u64)pid << LKST_NT_PID_SHIFT;
	const u64 *op = bsearch(&key, ops, n, sizeof(*ops), lkst_notrace_cmp_pid);

	return op && !(*op & LKST_NT_REMOVE);
}

/*
 * Apply the net effect of a write, all or nothing: first the pids to add,
 * the only step that can fail (the pid list allocates), and taken back if
 * it does; then the removals, which cannot fail.  A pid that the fork
 * probe lists (notrace_fork) between the check and the set of it here is
 * taken back too, if the write fails: a child of a listed task that the
 * same failed write also named.
 */
static int __lkst_notrace_change(struct trace_pid_list *l, u64 *ops,
				 unsigned int n, bool trunc)
{
	unsigned int i, pid;
	int ret = 0;

	for (i = 0; i < n; i++) {
		pid = ops[i] >> LKST_NT_PID_SHIFT;
		if ((ops[i] & LKST_NT_REMOVE) || trace_pid_list_is_set(l, pid))
			continue;
		ret = trace_pid_list_set(l, pid);
		if (ret)
			break;
		ops[i] |= LKST_NT_ADDED;
	}
	if (ret) {
		while (i--)
			if (ops[i] & LKST_NT_ADDED)
				trace_pid_list_clear(l, ops[i] >> LKST_NT_PID_SHIFT);
		return ret;
	}
	if (trunc) {
		for (ret = trace_pid_list_first(l, &pid); !ret;
		     ret = trace_pid_list_next(l, pid + 1, &pid))
			if (!lkst_notrace_keeps(ops, n, pid))
				trace_pid_list_clear(l, pid);
		return 0;
	}
	for (i = 0; i < n; i++)
		if (ops[i] & LKST_NT_REMOVE)
			trace_pid_list_clear(l, ops[i] >> LKST_NT_PID_SHIFT);
	return 0;
}

/**
 * lkst_notrace_apply - apply one write to notrace_pids
 * @text:	whitespace-separated tokens: PID adds, !PID removes
 * @trunc:	empty the list first
 *
 * All or nothing: every token is checked before the list is touched, and
 * a bad one changes nothing and is reported in error_log; a list that
 * cannot grow (-ENOMEM) is left as it was, too.  The last token naming a
 * pid decides whether it is listed.  The list is changed in place, under
 * its own lock, as the fork and free probes change it, so that none of
 * their updates is lost to a copy.
 *
 * Context: process context; takes lkst_mutex.
 * Return: 0 or -errno.
 */
int lkst_notrace_apply(char *text, bool trunc)
{
	struct trace_pid_list *l, *new = NULL;
	char tok[LKST_PID_TOKEN_MAX], *p;
	unsigned int pid, n = 0, i, m;
	size_t len;
	bool remove;
	int ret;
	/* a token takes two characters or more, with its separator */
	u64 *ops __free(kfree) = kmalloc_array(strlen(text) / 2 + 1,
					       sizeof(*ops), GFP_KERNEL);

	if (!ops)
		return -ENOMEM;
	text = strim(text);
	for (p = text; *p; p = skip_spaces(p + len)) {
		len = strcspn(p, " \t\n");
		remove = *p == '!';
		if (len < sizeof(tok))
			strscpy(tok, p + remove, len + 1 - remove);
		if (len >= sizeof(tok) || len == remove ||
		    kstrtouint(tok, 10, &pid) || !pid || pid >= PID_MAX_LIMIT) {
			lkst_log_err("notrace_pids", text, LKST_ERR_BAD_PID,
				     p - text);
			return -EINVAL;
		}
		ops[n] = (u64)pid << LKST_NT_PID_SHIFT |
			 (u64)n << LKST_NT_PLACE_SHIFT |
			 (remove ? LKST_NT_REMOVE : 0);
		n++;
	}
	/* Each pid once, as its last token says */
	sort(ops, n, sizeof(*ops), lkst_notrace_cmp, NULL);
	for (i = 0, m = 0; i < n; i++)
		if (i == n - 1 || ops[i] >> LKST_NT_PID_SHIFT !=
				  ops[i + 1] >> LKST_NT_PID_SHIFT)
			ops[m++] = ops[i];
	n = m;

	guard(mutex)(&lkst_mutex);
	l = lkst_notrace_list_locked();
	if (!l) {
		new = trace_pid_list_alloc();
		if (!new) {
			lkst_log_err("notrace_pids", text, LKST_ERR_NO_MEMORY, 0);
			return -ENOMEM;
		}
		l = new;
	}
	ret = __lkst_notrace_change(l, ops, n, trunc);
	if (ret) {
		lkst_log_err("notrace_pids", text, LKST_ERR_NO_MEMORY, 0);
		if (new)
			trace_pid_list_free(new);
		return ret;
	}
	if (trace_pid_list_first(l, &pid)) {
		/* empty */
		if (new)
			trace_pid_list_free(new);
		else
			__lkst_notrace_unpublish();
		return 0;
	}
	if (new) {
		ret = __lkst_notrace_publish(new);
		if (ret) {
			trace_pid_list_free(new);
			return ret;
		}
	} else {
		/* Tasks running now may have joined or left the list. */
		on_each_cpu(lkst_notrace_sync_cpu, NULL, 1);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_notrace_apply);

/**
 * lkst_notrace_has - is @pid in notrace_pids?
 * @pid: the pid
 *
 * Return: true if events of task @pid are not recorded.
 */
bool lkst_notrace_has(pid_t pid)
{
	guard(mutex)(&lkst_mutex);
	return trace_pid_list_is_set(lkst_notrace_list_locked(), pid);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_notrace_has);

/* For the tests: is the check in the probes patched in? */
bool lkst_notrace_active(void)
{
	return static_key_enabled(&lkst_notrace_key);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_notrace_active);

/* Reading: one pid a line, in ascending order, under lkst_mutex. */
static void *lkst_notrace_seq_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&lkst_mutex);
	return trace_pid_start(lkst_notrace_list_locked(), pos);
}

static void *lkst_notrace_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	return trace_pid_next(lkst_notrace_list_locked(), v, pos);
}

static void lkst_notrace_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&lkst_mutex);
}

static const struct seq_operations lkst_notrace_seq_ops = {
	.start	= lkst_notrace_seq_start,
	.next	= lkst_notrace_seq_next,
	.stop	= lkst_notrace_seq_stop,
	.show	= trace_pid_show,
};

/* What a writer of notrace_pids keeps between open and release */
struct lkst_notrace_writer {
	bool	trunc;		/* O_TRUNC and nothing written yet */
};

static struct lkst_notrace_writer *lkst_notrace_writer(struct file *filp)
{
	if (filp->f_mode & FMODE_READ)
		return ((struct seq_file *)filp->private_data)->private;
	return filp->private_data;
}

static int lkst_notrace_open(struct inode *inode, struct file *filp)
{
	struct lkst_notrace_writer *w;
	int ret;

	ret = tracing_check_open_get_tr(NULL);
	if (ret)
		return ret;
	w = kzalloc_obj(*w);
	if (!w)
		return -ENOMEM;
	/*
	 * "echo > notrace_pids" empties it: at the first write, which then
	 * replaces the list, or at close if nothing was written.  A refused
	 * first write leaves the list as it was.
	 */
	w->trunc = (filp->f_mode & FMODE_WRITE) && (filp->f_flags & O_TRUNC);
	if (filp->f_mode & FMODE_READ) {
		ret = seq_open(filp, &lkst_notrace_seq_ops);
		if (ret) {
			kfree(w);
			return ret;
		}
		((struct seq_file *)filp->private_data)->private = w;
	} else {
		filp->private_data = w;
	}
	return 0;
}

static ssize_t lkst_notrace_write(struct file *filp, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct lkst_notrace_writer *w = lkst_notrace_writer(filp);
	char *buf;
	int ret;

	if (!cnt)
		return 0;
	/* Whole tokens per write: at most a few thousand pids at a time. */
	if (cnt > PAGE_SIZE * 4) {
		lkst_log_err("notrace_pids", "", LKST_ERR_WRITE_TOO_LARGE, 0);
		return -EINVAL;
	}
	buf = kmalloc(cnt + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = lkst_get_user_text("notrace_pids", ubuf, cnt, buf, cnt + 1);
	if (!ret)
		ret = lkst_notrace_apply(buf, w->trunc);
	kfree(buf);
	/* Applied, or refused: either way, close must not truncate. */
	w->trunc = false;
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static int lkst_notrace_release(struct inode *inode, struct file *filp)
{
	struct lkst_notrace_writer *w = lkst_notrace_writer(filp);
	char empty[] = "";

	if (w->trunc)
		lkst_notrace_apply(empty, true);
	kfree(w);
	if (filp->f_mode & FMODE_READ)
		return seq_release(inode, filp);
	return 0;
}

static const struct file_operations lkst_notrace_fops = {
	.open		= lkst_notrace_open,
	.read		= seq_read,
	.write		= lkst_notrace_write,
	.llseek		= tracing_lseek,
	.release	= lkst_notrace_release,
};

static ssize_t lkst_notrace_fork_read(struct file *filp, char __user *ubuf,
				      size_t cnt, loff_t *ppos)
{
	char tmp[4];
	int len;

	len = snprintf(tmp, sizeof(tmp), "%d\n", READ_ONCE(lkst_notrace_fork));
	return simple_read_from_buffer(ubuf, cnt, ppos, tmp, len);
}

static ssize_t lkst_notrace_fork_write(struct file *filp,
				       const char __user *ubuf, size_t cnt,
				       loff_t *ppos)
{
	char buf[8];
	bool val;
	int ret;

	ret = lkst_get_user_text("notrace_fork", ubuf, cnt, buf, sizeof(buf));
	if (ret)
		return ret;
	if (kstrtobool(strim(buf), &val)) {
		lkst_log_err("notrace_fork", buf, LKST_ERR_NOT_NUMBER, 0);
		return -EINVAL;
	}
	WRITE_ONCE(lkst_notrace_fork, val);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations lkst_notrace_fork_fops = {
	.open		= tracing_open_generic,
	.read		= lkst_notrace_fork_read,
	.write		= lkst_notrace_fork_write,
	.llseek		= default_llseek,
};

int lkst_notrace_create_files(struct dentry *top)
{
	if (!trace_create_file("notrace_pids", TRACE_MODE_WRITE, top, NULL,
			       &lkst_notrace_fops) ||
	    !trace_create_file("notrace_fork", TRACE_MODE_WRITE, top, NULL,
			       &lkst_notrace_fork_fops))
		return -ENOMEM;
	return 0;
}
