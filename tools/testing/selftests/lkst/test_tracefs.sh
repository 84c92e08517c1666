#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The LKST tracefs directory: its files, their modes and the read-only
# listings, exactly as Documentation/trace/lkst.rst describes them.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset

test_lkst_directory_has_every_documented_file()
{
	ok=0
	for f in maskset available_masksets available_events \
		 available_handlers user_masksets user_buffers notify \
		 format header_page header_event trace buffer_size_kb \
		 per_cpu/cpu0/raw per_cpu/cpu0/raw_copy per_cpu/cpu0/refused; do
		[ -f "$LKST/$f" ] || { echo "# missing $f"; ok=1; }
	done
	for d in masksets buffers per_cpu; do
		[ -d "$LKST/$d" ] || { echo "# missing $d/"; ok=1; }
	done
	return $ok
}

# Files of ftrace's that LKST once had a copy of: FILE is in lkst/ no more,
# WHERE (relative to /sys/kernel/tracing) is what replaces it.
LKST_MOVED="error_log:error_log
notrace_pids:instances/lkst/set_event_notrace_pid
notrace_fork:instances/lkst/options/event-fork
overwrite:instances/lkst/options/overwrite
tracing_on:instances/lkst/tracing_on
clear:instances/lkst/trace
per_cpu/cpu0/stats:instances/lkst/per_cpu/cpu0/stats"

test_ftrace_files_have_no_copy_in_lkst()
{
	ok=0
	for m in $LKST_MOVED; do
		f=${m%%:*} where=${m#*:}
		[ ! -e "$LKST/$f" ] || { echo "# lkst/$f is still there"; ok=1; }
		[ -e "$TRACING/$where" ] || { echo "# missing $where"; ok=1; }
	done
	return $ok
}

test_files_are_accessible_to_root_only()
{
	others=$(find "$LKST" -perm /o=rwx,g=w)
	[ -z "$others" ] && return 0
	echo "# accessible to others: $others"
	return 1
}

test_available_masksets_lists_the_builtin_masksets()
{
	expect available_masksets "RDEFAULT RALL [RNOTHING] " \
		"$(tr '\n' ' ' < "$LKST/available_masksets")"
}

test_maskset_reads_RNOTHING_at_rest()
{
	expect maskset RNOTHING "$(cat "$LKST/maskset")"
}

test_available_events_lines_are_ID_NAME_and_four_arguments()
{
	awk 'NF != 6 || $1 !~ /^[0-9]+$/ || $2 !~ /^[A-Z_]+$/ {
		print "# bad line: " $0; bad = 1 } END { exit bad }' \
		"$LKST/available_events"
}

test_event_IDs_are_the_documented_ones()
{
	want="1 PROCESS_CONTEXTSWITCH 2 PROCESS_WAKEUP 3 PROCESS_SIGSEND"
	want="$want 4 PROCESS_FORK 6 PROCESS_EXIT 48 SYSCALL_ENTRY 49 SYSCALL_EXIT"
	expect ids "$want" "$(awk '$1 ~ /^(1|2|3|4|6|48|49)$/ { print $1, $2 }' \
		"$LKST/available_events" | tr '\n' ' ' | sed 's/ $//')"
}

test_available_handlers_lists_DEFAULT_and_NOTHING()
{
	expect handlers "1 DEFAULT 255 NOTHING " \
		"$(tr '\n' ' ' < "$LKST/available_handlers")"
}

test_builtin_masksets_have_files_under_masksets()
{
	expect masksets "RALL RDEFAULT RNOTHING" \
		"$(ls "$LKST/masksets" | tr '\n' ' ' | sed 's/ $//')"
}

test_RALL_routes_every_available_event_to_DEFAULT()
{
	expect RALL "$(awk '{ print $2 " DEFAULT" }' "$LKST/available_events")" \
		"$(cat "$LKST/masksets/RALL")"
}

test_RDEFAULT_leaves_out_memory_and_lock_events()
{
	if grep -E '^(MEM_|LK_)' "$LKST/masksets/RDEFAULT"; then
		return 1
	fi
	grep -q '^PROCESS_CONTEXTSWITCH DEFAULT$' "$LKST/masksets/RDEFAULT"
}

test_RNOTHING_is_empty()
{
	expect RNOTHING "" "$(cat "$LKST/masksets/RNOTHING")"
}

test_format_describes_the_record_fields()
{
	for f in "u16 type" "u8 flags" "u8 preempt_count" "u32 pid" \
		 "u16 event" "u8 handler" "u64 arg[4]"; do
		grep -qF "field:$f;" "$LKST/format" || { echo "# no $f"; return 1; }
	done
}

test_header_page_describes_timestamp_commit_and_data()
{
	for f in timestamp commit data; do
		grep -q "field: .* $f;" "$LKST/header_page" || { echo "# no $f"; return 1; }
	done
}

test_notify_reads_count_and_reason()
{
	grep -qE '^[0-9]+ [0-9]+$' "$LKST/notify"
}

lkst_run_tests \
	test_lkst_directory_has_every_documented_file \
	test_ftrace_files_have_no_copy_in_lkst \
	test_files_are_accessible_to_root_only \
	test_available_masksets_lists_the_builtin_masksets \
	test_maskset_reads_RNOTHING_at_rest \
	test_available_events_lines_are_ID_NAME_and_four_arguments \
	test_event_IDs_are_the_documented_ones \
	test_available_handlers_lists_DEFAULT_and_NOTHING \
	test_builtin_masksets_have_files_under_masksets \
	test_RALL_routes_every_available_event_to_DEFAULT \
	test_RDEFAULT_leaves_out_memory_and_lock_events \
	test_RNOTHING_is_empty \
	test_format_describes_the_record_fields \
	test_header_page_describes_timestamp_commit_and_data \
	test_notify_reads_count_and_reason
