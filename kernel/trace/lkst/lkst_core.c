// SPDX-License-Identifier: GPL-2.0
/*
 * LKST: Linux Kernel State Tracer.
 *
 * LKST is an always-on flight recorder.  A fixed table of kernel events,
 * each with a stable numeric ID and four documented u64 arguments, is
 * attached to existing tracepoints.  A "maskset" says, per event, which
 * handler runs and into which buffer it records; switching masksets is
 * atomic.  The user interface is in /sys/kernel/tracing/lkst/:
 *
 *   # cd /sys/kernel/tracing/lkst
 *   # cat available_events		# "ID NAME arg0 arg1 arg2 arg3"
 *   1 PROCESS_CONTEXTSWITCH prev next state prio
 *   2 PROCESS_WAKEUP pid prio cpu new
 *   ...
 *   # cat available_handlers		# "ID NAME"
 *   1 DEFAULT
 *   255 NOTHING
 *   # cat available_masksets		# the current one in brackets
 *   RDEFAULT
 *   RALL
 *   [RNOTHING]
 *
 * RNOTHING records nothing and is current at boot, unless the kernel
 * command line says e.g. lkst.maskset=RDEFAULT.  RDEFAULT records all
 * events but the high-rate memory allocator and lock contention events;
 * RALL records every event.  Start and stop recording:
 *
 *   # echo RDEFAULT > maskset
 *   # cat trace			# all CPUs, merged by time
 *       12.345678 [001] .    1234 PROCESS_CONTEXTSWITCH: prev=1234 next=0 state=S prio=0x7800000078
 *   # echo RNOTHING > maskset
 *
 * Masksets of your own: create one, write its table (one line
 * "EVENT HANDLER [BUFFER]" per recorded event; the lines written through
 * one open file are installed together at close: ">" replaces the whole
 * table, atomically if the maskset is current, ">>" adds lines), switch
 * to it:
 *
 *   # echo mine >> user_masksets
 *   # printf 'PROCESS_FORK DEFAULT\nPROCESS_EXIT DEFAULT\n' > masksets/mine
 *   # cat masksets/RDEFAULT > /tmp/m; cat /tmp/m > masksets/mine	# copy
 *   # echo mine > maskset
 *   # echo '!mine' >> user_masksets	# -EBUSY while current or in use
 *
 * A bad line fails the write() that completes it with -EINVAL, and then
 * nothing written through that open file is installed.  Every refusal is
 * explained in error_log (the tracing error log), with a caret under the
 * offending word:
 *
 *   # echo 'FORK DEFAULT' > masksets/mine
 *   # cat ../error_log
 *   [   42.000000] lkst: masksets/mine: error: Unknown event
 *     Command: FORK DEFAULT
 *              ^
 *
 * Buffers: the default buffer's files are in lkst/, more buffers can be
 * created and named in the third column of a maskset line:
 *
 *   # echo net >> user_buffers		# creates buffers/net/
 *   # echo 'NET_PKTSEND DEFAULT net' > masksets/mine
 *
 * Each buffer has per_cpu/cpuN/raw (consuming, binary, ring-buffer page
 * format described by its instance's events/header_page, header_event
 * and events/lkst/NAME/format), raw_copy (the same, not consuming), refused
 * (records the ring buffer did not take) and trace; its instance,
 * instances/lkst[.NAME], has the rest: buffer_size_kb, stats,
 * options/overwrite, tracing_on, "> trace".
 *
 * Handlers other than DEFAULT come from modules, see include/linux/lkst.h
 * and samples/lkst/.  They can record into any buffer, switch masksets
 * from their callback, and wake up readers of the notify file:
 *
 *   # cat notify			# "count last-reason"
 *   0 0
 *
 * For further information, see Documentation/trace/lkst.rst.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/poll.h>
#include <linux/stringify.h>
#include <linux/tracefs.h>
#include <linux/wait.h>

#include "../trace.h"
#include "lkst_internal.h"

/* Serializes the control plane; see lkst_internal.h */
struct mutex lkst_mutex = __MUTEX_INITIALIZER(lkst_mutex);
EXPORT_SYMBOL_IF_KUNIT(lkst_mutex);

static struct dentry *lkst_top_dir;

/**
 * lkst_name_valid - is @name usable for a maskset, buffer or handler?
 * @name: the name
 *
 * Return: true for 1 to 31 characters out of [A-Za-z0-9_-].
 */
bool lkst_name_valid(const char *name)
{
	size_t len = strlen(name);

	if (!len || len >= LKST_NAME_MAX)
		return false;
	return strspn(name, LKST_NAME_CHARS) == len;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_name_valid);

/*
 * error_log: LKST reports refused writes through tracing_log_err(), so
 * they appear in the tracing error_log, under "lkst: FILE".
 * The last one is also kept here for the KUnit tests.
 */
static const char *lkst_err_text[LKST_NR_ERRS] = {
	[LKST_ERR_UNKNOWN_EVENT] = "Unknown event",
	[LKST_ERR_MISSING_HANDLER] = "Missing handler",
	[LKST_ERR_UNKNOWN_HANDLER] = "Unknown handler",
	[LKST_ERR_UNKNOWN_BUFFER] = "Unknown buffer",
	[LKST_ERR_TOO_MANY_FIELDS] = "Too many fields",
	[LKST_ERR_DUP_EVENT] = "Duplicate event",
	[LKST_ERR_LINE_TOO_LONG] = "Line too long",
	[LKST_ERR_HANDLER_GOING] = "Handler is being removed",
	[LKST_ERR_UNKNOWN_MASKSET] = "Unknown maskset",
	[LKST_ERR_BAD_NAME] = "Invalid name",
	[LKST_ERR_NO_SUCH_NAME] = "No such name",
	[LKST_ERR_NAME_EXISTS] = "Name already exists",
	[LKST_ERR_TOO_MANY] = "Too many user objects",
	[LKST_ERR_IN_USE] = "In use",
	[LKST_ERR_BUILTIN] = "Built-in, cannot be changed",
	[LKST_ERR_NUL_BYTE] = "NUL byte in input",
	[LKST_ERR_WRITE_TOO_LARGE] = "Write too large",
	[LKST_ERR_REMOVED] = "Removed while open",
	[LKST_ERR_NOT_NUMBER] = "Not a number",
	[LKST_ERR_EARLIER_ERROR] = "Not committed: an earlier write failed",
	[LKST_ERR_NO_MEMORY] = "Out of memory",
	[LKST_ERR_DUMP_RANGE] = "Records per CPU out of range [0, "
				 __stringify(LKST_DUMP_MAX) "]",
	[LKST_ERR_DYN_COMMAND] = "Expected NAME GROUP/EVENT or -:NAME",
	[LKST_ERR_DYN_NAME] = "Event names are [A-Z][A-Z0-9_]*, at most 31 characters",
	[LKST_ERR_DYN_NO_EVENT] = "No such event",
	[LKST_ERR_DYN_NOT_KPROBE] = "Not a kprobe event",
	[LKST_ERR_DYN_BOUND] = "Bound to another LKST event",
	[LKST_ERR_DYN_TOO_MANY_ARGS] = "At most 4 fetchargs",
	[LKST_ERR_DYN_NOT_NUMERIC] = "Numeric fetchargs, a string only last; no array or symstr",
	[LKST_ERR_DYN_ARG_NAME] = "Argument name is a field of the record",
	[LKST_ERR_INSTANCE_EXISTS] = "A trace instance lkst.NAME exists already",
	[LKST_ERR_EVENT_REPLACED] = "An event of the table was removed since its line was written",
};

static DEFINE_MUTEX(lkst_err_lock);
static int lkst_last_type = -1;
static int lkst_last_pos;
static char lkst_last_cmd[LKST_LINE_MAX + 1];

/**
 * lkst_log_err - report a refused write in error_log
 * @loc:	the file written, e.g. "masksets/mine"
 * @cmd:	the offending input (a line or a word)
 * @type:	why it was refused
 * @pos:	offset in @cmd of the caret
 */
void lkst_log_err(const char *loc, const char *cmd, enum lkst_err_type type,
		  int pos)
{
	char where[LKST_NAME_MAX + 32];

	pos = clamp_t(int, pos, 0, strlen(cmd));
	snprintf(where, sizeof(where), "lkst: %s", loc);
	tracing_log_err(NULL, where, cmd, lkst_err_text, type, pos);

	guard(mutex)(&lkst_err_lock);
	lkst_last_type = type;
	lkst_last_pos = pos;
	strscpy(lkst_last_cmd, cmd);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_log_err);

/**
 * lkst_last_err - the message of the newest LKST error, for tests
 * @cmd: if not NULL, receives the command (valid until the next error)
 * @pos: if not NULL, receives the caret position
 *
 * Return: the message, or NULL if there was none.
 */
const char *lkst_last_err(const char **cmd, int *pos)
{
	guard(mutex)(&lkst_err_lock);
	if (lkst_last_type < 0)
		return NULL;
	if (cmd)
		*cmd = lkst_last_cmd;
	if (pos)
		*pos = lkst_last_pos;
	return lkst_err_text[lkst_last_type];
}
EXPORT_SYMBOL_IF_KUNIT(lkst_last_err);

/**
 * lkst_get_user_text - copy a short write from user space, refusing NULs
 * @loc:	the file written, for error_log
 * @ubuf:	the user buffer
 * @cnt:	its length
 * @buf:	receives the text, NUL-terminated
 * @size:	size of @buf
 *
 * Return: 0; -EINVAL (logged) if the text does not fit or contains a NUL
 * byte, which would silently cut it; -EFAULT.
 */
int lkst_get_user_text(const char *loc, const char __user *ubuf, size_t cnt,
		       char *buf, size_t size)
{
	if (cnt >= size) {
		lkst_log_err(loc, "", LKST_ERR_WRITE_TOO_LARGE, 0);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	if (strlen(buf) != cnt) {
		lkst_log_err(loc, buf, LKST_ERR_NUL_BYTE, strlen(buf));
		return -EINVAL;
	}
	return 0;
}

/**
 * lkst_file_live - has the tracefs file of @inode not been removed?
 * @inode: the inode of an LKST file
 *
 * Objects are removed together with their files, under lkst_mutex, and
 * tracefs_remove() clears the link count of every inode it removes.  So
 * under lkst_mutex a non-zero link count means that inode->i_private
 * still points to a live object, even if open() raced with the removal.
 *
 * Return: true if the file is still there.
 */
bool lkst_file_live(struct inode *inode)
{
	lockdep_assert_held(&lkst_mutex);
	return inode->i_nlink;
}

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

/* lkst.maskset=NAME on the kernel command line starts recording at boot. */
static char lkst_boot_maskset[LKST_NAME_MAX] __initdata;

static int __init lkst_set_boot_maskset(char *str)
{
	strscpy(lkst_boot_maskset, str);
	return 1;
}
__setup("lkst.maskset=", lkst_set_boot_maskset);

/*
 * The data plane (buffers, masksets, probes) comes up early so that a
 * boot maskset sees as much of the boot as possible; the files follow
 * once tracefs is there.
 */
static int __init lkst_init(void)
{
	struct lkst_maskset *ms;
	int ret;

	ret = lkst_tevents_init();
	if (!ret)
		ret = lkst_buffers_init();
	if (!ret)
		ret = lkst_masksets_init();
	if (ret) {
		pr_err("initialization failed: %d\n", ret);
		return ret;
	}
	ret = lkst_dump_init();
	if (ret)
		pr_warn("no dump on oops: %d\n", ret);
	if (!lkst_boot_maskset[0])
		return 0;

	guard(mutex)(&lkst_mutex);
	ms = __lkst_maskset_lookup(lkst_boot_maskset);
	ret = ms ? __lkst_maskset_set_current(ms) : -ENOENT;
	if (ret)
		pr_warn("cannot start boot maskset %s: %d\n", lkst_boot_maskset, ret);
	else
		pr_info("recording with maskset %s\n", ms->name);
	return 0;
}
core_initcall(lkst_init);

static int __init lkst_init_tracefs(void)
{
	int ret;

	if (!lkst_buffer_default())
		return -ENODEV;
	ret = tracing_init_dentry();
	if (ret)
		return 0;

	lkst_top_dir = tracefs_create_dir("lkst", NULL);
	if (IS_ERR_OR_NULL(lkst_top_dir)) {
		pr_warn("could not create tracefs directory\n");
		return -ENOMEM;
	}

	ret = -ENOMEM;
	if (!trace_create_file("notify", TRACE_MODE_READ, lkst_top_dir,
			       NULL, &lkst_notify_fops))
		goto err;
	ret = lkst_control_files_init(lkst_top_dir);
	if (!ret)
		ret = lkst_dump_create_files(lkst_top_dir);
	if (!ret)
		ret = lkst_persist_create_files(lkst_top_dir);
	if (!ret)
		ret = lkst_dynevent_create_files(lkst_top_dir);
	if (ret)
		goto err;
	ret = __lkst_buffer_create_files(lkst_buffer_default(), lkst_top_dir);
	if (ret)
		goto err;
	return 0;

err:
	pr_warn("could not create tracefs files: %d\n", ret);
	/* Nothing may point into the tree any more. */
	scoped_guard(mutex, &lkst_mutex) {
		struct lkst_maskset *ms;

		lkst_masksets_dir = NULL;
		lkst_buffers_dir = NULL;
		list_for_each_entry(ms, __lkst_masksets_list(), list)
			ms->file = NULL;
	}
	tracefs_remove(lkst_top_dir);
	return ret;
}
late_initcall(lkst_init_tracefs);
