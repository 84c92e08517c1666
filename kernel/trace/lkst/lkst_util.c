// SPDX-License-Identifier: GPL-2.0
/*
 * LKST's helpers, the bottom layer of kernel/trace/lkst: the control
 * plane's lock, error_log, names and the text of writes.  See the layers
 * in lkst_internal.h.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/stringify.h>
#include <linux/uaccess.h>

#include "../trace.h"
#include "lkst_internal.h"

/* Serializes the control plane; see lkst_internal.h */
struct mutex lkst_mutex = __MUTEX_INITIALIZER(lkst_mutex);
EXPORT_SYMBOL_IF_KUNIT(lkst_mutex);

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
