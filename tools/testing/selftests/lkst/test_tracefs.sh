#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The LKST tracefs directory, as Documentation/trace/lkst/index.rst
# describes it: its files, their modes and the read-only listings.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset

test_lkst_directory_has_every_documented_file()
{
	ok=0
	for f in maskset available_masksets available_events \
		 available_handlers user_masksets user_buffers notify \
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
trace:instances/lkst/trace
buffer_size_kb:instances/lkst/buffer_size_kb
notrace_pids:instances/lkst/set_event_notrace_pid
notrace_fork:instances/lkst/options/event-fork
overwrite:instances/lkst/options/overwrite
tracing_on:instances/lkst/tracing_on
clear:instances/lkst/trace
per_cpu/cpu0/stats:instances/lkst/per_cpu/cpu0/stats
header_page:instances/lkst/events/header_page
header_event:instances/lkst/events/header_event
format:instances/lkst/events/lkst/PROCESS_FORK/format"

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

# lkst/format's successor: an event's format is the whole record's layout
test_an_events_format_describes_the_whole_record()
{
	want="unsigned short common_type;0;2 unsigned char common_flags;2;1"
	want="$want unsigned char common_preempt_count;3;1 int common_pid;4;4"
	want="$want u16 lkst_event;8;2 u8 lkst_handler;10;1 u8 lkst_reserved;11;1"
	want="$want u32 lkst_pad;12;4 s64 parent;16;8 s64 child;24;8 s64 tgid;32;8"
	want="$want u64 __unused3;40;8 "
	re='s/^	field:\([^;]*\);	offset:\([0-9]*\);'
	re="$re	size:\\([0-9]*\\);.*/\\1;\\2;\\3/p"
	got=$(sed -n "$re" "$LKST_INST/events/lkst/PROCESS_FORK/format" | tr '\n' ' ')
	expect "PROCESS_FORK's fields" "$want" "$got"
}

# header_page's FIELD (offset or size) of the data, in instance INST
data_field()
{
	sed -n "s/.*field: char data;.*$1:\([0-9]*\);.*/\1/p" "$2/events/header_page"
}

# What raw's pages are: the instance's header_page, a user buffer's its
# own, here with sub-buffers of two pages
test_each_buffers_header_page_is_its_instances()
{
	for f in timestamp commit data; do
		grep -q "field: .* $f;" "$LKST_INST/events/header_page" ||
			{ echo "# no $f"; return 1; }
	done
	page=$(getconf PAGESIZE)
	off=$(data_field offset "$LKST_INST")
	expect "the default buffer's data size" "$((page - ${off:-page}))" \
		"$(data_field size "$LKST_INST")" || return 1
	echo hp >> "$LKST/user_buffers" || return 1
	hp=$TRACING/instances/lkst.hp
	echo $((page * 2 / 1024)) > "$hp/buffer_subbuf_size_kb" &&
	expect "lkst.hp's data size" "$((page * 2 - ${off:-page}))" \
		"$(data_field size "$hp")"
	ok=$?
	echo '!hp' >> "$LKST/user_buffers"
	return $ok
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
	test_an_events_format_describes_the_whole_record \
	test_each_buffers_header_page_is_its_instances \
	test_notify_reads_count_and_reason
