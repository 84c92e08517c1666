#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the LKST selftests.
#
# A test script defines one shell function per test point, named after the
# behaviour it checks (test_<what_it_checks>), then calls
#
#	lkst_run_tests test_a test_b ...
#
# which prints the KTAP plan, runs each function and reports it as passed
# (status 0), skipped (status $KSFT_SKIP) or failed (anything else) under its
# name with the leading "test_" dropped.  Functions print their diagnostics
# as "# ..." lines.

LKST_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LKST_DIR/../kselftest/ktap_helpers.sh"

LKST=""
# /sys/kernel/tracing, and the instance of LKST's default buffer
TRACING=""
LKST_INST=""
# The sample handler modules (CONFIG_SAMPLE_LKST)
LKST_SAMPLES="lkst_pid_filter lkst_escalate lkst_redirect"

# Find /sys/kernel/tracing/lkst, mounting tracefs if needed.
lkst_find()
{
	for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		if [ -d "$t/lkst" ]; then
			lkst_found "$t"
			return 0
		fi
	done
	if [ ! -d /sys/kernel/tracing/instances ]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
		if [ -d /sys/kernel/tracing/lkst ]; then
			lkst_found /sys/kernel/tracing
			return 0
		fi
	fi
	return 1
}

lkst_found()
{
	TRACING=$1
	LKST=$1/lkst
	LKST_INST=$1/instances/lkst
}

# Skip the whole script (exit 4) when it cannot run here.
lkst_require()
{
	if [ "$(id -u)" -ne 0 ]; then
		ktap_skip_all "must be run as root"
		exit "$KSFT_SKIP"
	fi
	if ! lkst_find; then
		ktap_skip_all "kernel has no LKST (CONFIG_LKST=n)"
		exit "$KSFT_SKIP"
	fi
	if [ ! -x "$LKST_DIR/lkst_write" ]; then
		ktap_skip_all "lkst_write helper not built"
		exit "$KSFT_SKIP"
	fi
}

# lkst_w [-a] [-t] FILE TEXT: write TEXT and a newline, as echo does, in
# one write(); prints OK or the errno name (EINVAL, EBUSY, ...).
lkst_w()
{
	"$LKST_DIR/lkst_write" -l "$@"
}

# expect WHAT EXPECTED GOT: compare, explaining a mismatch.
expect()
{
	[ "$2" = "$3" ] && return 0
	echo "# $1: expected '$2', got '$3'"
	return 1
}

# The tracing error_log has an entry that contains TEXT.
error_log_has()
{
	grep -qF -- "$1" "$TRACING/error_log" && return 0
	echo "# error_log does not mention '$1':"
	sed 's/^/#   /' "$TRACING/error_log"
	return 1
}

# LKST's dynamic events are bound to kprobe events of ftrace: the tests
# define theirs in this group of ftrace's dynamic_events, which
# lkst_dyn_clean empties.
LKST_DYN_GROUP=lkstst
# What the helpers below leave for a test to check: the errno name of the
# write that failed, and for lkst_dyn and lkst_dyn_rm its step
LKST_ERR=""
LKST_ERR_STEP=""

# lkst_kprobe LINE: write LINE ('p:lkstst/NAME SYM [ARGS]', 'r:...',
# '-:lkstst/NAME', ...) to ftrace's dynamic_events in one write().  Status
# 0 if it was taken; else 1, with the errno name (EINVAL, EBUSY, ...) in
# LKST_ERR.
lkst_kprobe()
{
	LKST_ERR=$(lkst_w -a "$TRACING/dynamic_events" "$1")
	[ "$LKST_ERR" = OK ]
}

# lkst_dyn NAME 'TYPE SYM [ARGS]': define the kprobe event lkstst/NAME
# ("TYPE:lkstst/NAME SYM [ARGS]" in ftrace's dynamic_events, TYPE p, r or
# rN), then bind LKST event NAME to it ("NAME lkstst/NAME" in
# lkst/dynamic_events).  Status 0 if both were taken; else 1, with the
# failing step in LKST_ERR_STEP (kprobe or bind) and its errno name in
# LKST_ERR, and nothing left behind: a kprobe event that could not be
# bound is removed again.  Call it as a command, not in $(...), for the
# status variables.
lkst_dyn()
{
	_type=${2%% *}
	LKST_ERR_STEP=kprobe
	if lkst_kprobe "$_type:$LKST_DYN_GROUP/$1${2#"$_type"}"; then
		LKST_ERR_STEP=bind
		LKST_ERR=$(lkst_w -a "$LKST/dynamic_events" "$1 $LKST_DYN_GROUP/$1")
		[ "$LKST_ERR" = OK ] && return 0
		_err=$LKST_ERR
		lkst_kprobe "-:$LKST_DYN_GROUP/$1"
		LKST_ERR=$_err
	fi
	echo "# lkst_dyn $1: $LKST_ERR_STEP refused: $LKST_ERR"
	return 1
}

# lkst_dyn_rm NAME: undo lkst_dyn: unbind NAME, then remove the kprobe
# event lkstst/NAME.  Status as lkst_dyn's, LKST_ERR_STEP unbind or kprobe.
lkst_dyn_rm()
{
	LKST_ERR_STEP=unbind
	LKST_ERR=$(lkst_w -a "$LKST/dynamic_events" "-:$1")
	if [ "$LKST_ERR" = OK ]; then
		LKST_ERR_STEP=kprobe
		lkst_kprobe "-:$LKST_DYN_GROUP/$1" && return 0
	fi
	echo "# lkst_dyn_rm $1: $LKST_ERR_STEP refused: $LKST_ERR"
	return 1
}

# Unbind every LKST dynamic event (all or none: EBUSY while a maskset names
# one), then remove every kprobe event of the group lkstst, which nothing
# holds any more: "-:GROUP/" removes each event of GROUP (ENOENT if it
# has none).
lkst_dyn_clean()
{
	[ -f "$LKST/dynamic_events" ] || return 0
	true > "$LKST/dynamic_events"
	lkst_kprobe "-:$LKST_DYN_GROUP/" || [ "$LKST_ERR" = ENOENT ]
}

# Put LKST back into its boot state: nothing recorded, no user masksets or
# buffers, default buffer settings, no sample module loaded.
lkst_reset()
{
	echo RNOTHING > "$LKST/maskset"
	# Empty the tables first: they pin the handler modules, and a module
	# may hold a reference on a maskset (lkst_escalate).
	for m in $(cat "$LKST/user_masksets"); do
		echo '#' > "$LKST/masksets/$m"
	done
	for m in $LKST_SAMPLES; do
		rmmod "$m" 2>/dev/null
	done
	# Unused now: truncation unbinds them all, then their kprobe events
	# go; nothing pins the module of a probed symbol.
	if [ -f "$LKST/dynamic_events" ]; then
		lkst_dyn_clean
		rmmod lkst_timer_victim 2>/dev/null
	fi
	true > "$LKST/user_masksets"
	true > "$LKST/user_buffers"
	true > "$LKST_INST/set_event_pid"
	true > "$LKST_INST/set_event_notrace_pid"
	echo 0 > "$LKST_INST/options/event-fork"
	echo 1 > "$LKST_INST/options/overwrite"
	echo 1 > "$LKST_INST/tracing_on"
	# a persistent default buffer (lkst.persist=) has a fixed size
	grep -qx 'recording: this boot records into reserve_mem' \
		"$LKST/last_boot/info" 2> /dev/null ||
		echo 256 > "$LKST_INST/buffer_size_kb"
	lkst_clear
	true > "$TRACING/error_log"
}

# What an instance's buffer_size_kb reads after a write of $1: the data
# bytes of the pages that hold $1 KiB (a page less its 16-byte header)
rb_kb()
{
	_cap=$(($(getconf PAGESIZE) - 16))
	echo $((($1 * 1024 + _cap - 1) / _cap * _cap / 1024))
}

# The instance of user buffer NAME, or of the default buffer
lkst_inst()
{
	if [ -n "${1:-}" ]; then
		echo "$TRACING/instances/lkst.$1"
	else
		echo "$LKST_INST"
	fi
}

# The records in the trace file of user buffer NAME's instance, or of
# the default buffer's, one line each as
#	TIME [CPU] CTX PID EVENT: ARGS
# from ftrace's "COMM-PID [CPU] FLAGS TIME: EVENT: ARGS": CTX is the
# context of the irq-info flags, h (hard interrupt), s (softirq), n (NMI)
# or . (task).  Other lines (the header, lost events) are left out.  It
# needs the instance's default options: irq-info on, record-tgid off.
lkst_text()
{
	_line='^.*-([0-9]+) +\[([0-9]+)\] ..(.)[^ ]* +([0-9]+\.[0-9]+): ([A-Za-z0-9_]+):'
	sed -nE "s/$_line/\\4 [\\2] \\3 \\1 \\5:/p" "$(lkst_inst "${1:-}")/trace" |
	sed -E 's/^([^ ]+ \[[0-9]+\]) [zZ] /\1 n /; s/^([^ ]+ \[[0-9]+\]) H /\1 h /'
}

# Drop the records of the default buffer, or of user buffer NAME, as
# "> trace" of its instance does.
lkst_clear()
{
	: > "$(lkst_inst "${1:-}")/trace"
}

# Load a sample module; a kernel without it skips the test point.
lkst_modprobe()
{
	# modprobe, not modinfo: only modprobe honours MODPROBE_OPTIONS
	if ! modprobe -q -n "$1"; then
		echo "# module $1 not available (CONFIG_SAMPLE_LKST=n)"
		return "$KSFT_SKIP"
	fi
	modprobe "$@"
}

# The ID of handler NAME in available_handlers.
handler_id()
{
	awk -v n="$1" '$2 == n { print $1 }' "$LKST/available_handlers"
}

# Sum of one per-CPU statistic of an instance ("entries", "overrun",
# "dropped events", "read events", ...) over all its CPUs.
stat_sum()
{
	cat "$1"/per_cpu/cpu*/stats |
		awk -F': ' -v k="$2" '$1 == k { s += $2 } END { print s + 0 }'
}

# Every record committed to instance $1 since it was cleared: those in it,
# overwritten and consumed.
stat_committed()
{
	echo $(($(stat_sum "$1" entries) + $(stat_sum "$1" overrun) +
		$(stat_sum "$1" "read events")))
}

# The records the ring buffer refused, over all CPUs of the LKST buffer
# directory $1 (lkst/ or lkst/buffers/NAME/): per_cpu/cpuN/refused, which
# only grows.
refused_sum()
{
	cat "$1"/per_cpu/cpu*/refused | awk '{ s += $1 } END { print s + 0 }'
}

# Buffer directory $1 refused, since refused_sum read $2, exactly $3
# records: what its instance counted as dropped events and commit
# overruns when nothing resized or reset it meanwhile.
refused_is()
{
	r=$(($(refused_sum "$1") - $2))
	[ "$r" -eq "$3" ] && return 0
	echo "# $1: $r records refused, $3 dropped events and commit overruns"
	return 1
}

# Some work that makes every kind of process event, on both CPUs.
workload()
{
	for _ in $(seq "${1:-20}"); do
		/bin/true &
		/bin/true
		wait
	done
}

# dmesg lines that mean the kernel is not healthy.
DMESG_BAD='WARNING:|BUG:|Oops|general protection|Call Trace|lockdep'
DMESG_BAD="$DMESG_BAD|RCU stall|rcu_sched detected|INFO: task|KASAN|UBSAN"
DMESG_BAD="$DMESG_BAD|NMI received for unknown reason|Dazed and confused"

dmesg_mark()
{
	DMESG_LINES=$(dmesg | wc -l)
}

# No warning since dmesg_mark.
dmesg_clean()
{
	bad=$(dmesg | tail -n +$((DMESG_LINES + 1)) | grep -E "$DMESG_BAD")
	[ -z "$bad" ] && return 0
	echo "$bad" | sed 's/^/# dmesg: /'
	return 1
}

lkst_run_tests()
{
	ktap_print_header
	ktap_set_plan $#
	for t in "$@"; do
		"$t"
		rc=$?
		name=${t#test_}
		if [ $rc -eq 0 ]; then
			ktap_test_pass "$name"
		elif [ $rc -eq "$KSFT_SKIP" ]; then
			ktap_test_skip "$name"
		else
			ktap_test_fail "$name"
		fi
	done
	lkst_reset
	ktap_finished
}
