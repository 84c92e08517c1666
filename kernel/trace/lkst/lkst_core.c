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
 *   # cat ../instances/lkst/trace	# ftrace's text, all CPUs by time
 *   # cat per_cpu/cpu0/raw		# or the records, binary, consuming
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
 * and events/lkst/NAME/format), raw_copy (the same, not consuming) and
 * refused (records the ring buffer did not take); its instance,
 * instances/lkst[.NAME], has the rest: trace, buffer_size_kb, stats,
 * options/overwrite, tracing_on, set_event_notrace_pid, "> trace".
 *
 * Handlers other than DEFAULT come from modules, see include/linux/lkst.h
 * and samples/lkst/.  They can record into any buffer, switch masksets
 * from their callback, and wake up readers of the notify file:
 *
 *   # cat notify			# "count last-reason"
 *   0 0
 *
 * This file brings LKST up, the top of its layers (lkst_internal.h).
 * For further information, see Documentation/trace/lkst/index.rst.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <linux/init.h>
#include <linux/tracefs.h>

#include "../trace.h"
#include "lkst_internal.h"

static struct dentry *lkst_top_dir;

/* lkst.maskset=NAME on the kernel command line starts recording at boot. */
static char lkst_boot_maskset[LKST_NAME_MAX] __initdata;

static int __init lkst_set_boot_maskset(char *str)
{
	strscpy(lkst_boot_maskset, str);
	return 1;
}
__setup("lkst.maskset=", lkst_set_boot_maskset);

/*
 * The default buffer: the boot instance in the reserved memory when
 * lkst.persist= gives one, else an instance of its own.  Its wrapper is
 * allocated before the reserved memory is touched, and the header of the
 * memory is published once the buffer records into it.
 */
static int __init lkst_default_buffer_init(void)
{
	struct lkst_buffer *buf;
	struct trace_array *tr;
	int ret;

	guard(mutex)(&lkst_mutex);
	buf = lkst_buffer_default_alloc();
	if (!buf)
		return -ENOMEM;
	tr = lkst_persist_init();
	ret = __lkst_buffer_default_init(buf, tr);
	if (ret)
		return ret;
	__lkst_vmcore_update();
	if (tr)
		lkst_persist_attach();
	return 0;
}

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
		ret = lkst_default_buffer_init();
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

	ret = lkst_control_files_init(lkst_top_dir);
	if (!ret)
		ret = lkst_dump_create_files(lkst_top_dir);
	if (!ret)
		ret = lkst_last_boot_files_init(lkst_top_dir);
	if (!ret)
		ret = lkst_dynevent_create_files(lkst_top_dir);
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
