#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# LKST event buffers: what bursts that overflow a buffer in either mode
# leave in its instance's stats (overrun in a flight recorder, dropped
# events when it stops when full), sizes and resizing while recording,
# user buffers and their lifetime.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset

B=$LKST/buffers
NL='
'
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Overflow the smallest buffer with RALL, then consume a page of cpu0;
# R0 is what was refused before.
burst()
{
	lkst_clear
	R0=$(refused_sum "$LKST")
	echo 8 > "$LKST_INST/buffer_size_kb"
	echo RALL > "$LKST/maskset"
	workload 20
	echo RNOTHING > "$LKST/maskset"
	# let a probe that saw the old table finish its record
	sleep 0.1
	dd if="$LKST/per_cpu/cpu0/raw" of=/dev/null bs=4096 count=1 \
		iflag=nonblock 2> /dev/null
	for k in entries overrun "dropped events" "read events"; do
		printf '%s: %s, ' "$k" "$(stat_sum "$LKST_INST" "$k")"
	done | sed 's/^/# /; s/, $/\n/'
	echo "# refused: $(($(refused_sum "$LKST") - R0))"

}

test_overwrite_mode_is_the_default()
{
	expect overwrite 1 "$(cat "$LKST_INST/options/overwrite")"
}

test_overwrite_mode_counts_overwritten_records_as_overrun()
{
	echo 1 > "$LKST_INST/options/overwrite"
	burst
	[ "$(stat_sum "$LKST_INST" overrun)" -gt 0 ] &&
	expect "dropped events" 0 "$(stat_sum "$LKST_INST" "dropped events")" &&
	# a flight recorder refuses only what a nested writer's reservation
	# keeps it from: commit overruns, usually none
	refused_is "$LKST" "$R0" "$(stat_sum "$LKST_INST" "commit overrun")"
}

test_consuming_reads_are_counted_as_read()
{
	[ "$(stat_sum "$LKST_INST" "read events")" -gt 0 ]
}

test_stop_mode_counts_refused_records_as_dropped_events()
{
	echo 0 > "$LKST_INST/options/overwrite"
	burst
	echo 1 > "$LKST_INST/options/overwrite"
	d=$(stat_sum "$LKST_INST" "dropped events")
	[ "$d" -gt 0 ] &&
	expect overrun 0 "$(stat_sum "$LKST_INST" overrun)" &&
	# each refused record is counted in both
	refused_is "$LKST" "$R0" \
		$((d + $(stat_sum "$LKST_INST" "commit overrun")))
}

test_clearing_the_instance_drops_the_records_and_zeroes_the_stats()
{
	lkst_clear
	for k in entries overrun "dropped events" "read events"; do
		expect "$k" 0 "$(stat_sum "$LKST_INST" "$k")" || return 1
	done
	expect lines 0 "$(lkst_text | wc -l)"
}

# The size is the instance's buffer_size_kb (lkst/buffer_size_kb is no
# more): the data bytes of the pages that hold it.
test_buffer_size_kb_reads_back_a_new_size()
{
	expect write OK "$(lkst_w "$LKST_INST/buffer_size_kb" 64)" &&
	expect size "$(rb_kb 64)" "$(cat "$LKST_INST/buffer_size_kb")"
}

test_bad_buffer_sizes_are_rejected_with_EINVAL()
{
	for v in 0 abc -1; do
		expect "size '$v'" EINVAL "$(lkst_w "$LKST_INST/buffer_size_kb" "$v")" ||
			return 1
	done
	expect size "$(rb_kb 64)" "$(cat "$LKST_INST/buffer_size_kb")"
}

test_resizing_while_recording_keeps_recording()
{
	dmesg_mark
	lkst_clear
	echo RALL > "$LKST/maskset"
	workload 1000 &
	load=$!
	for s in 16 512 8 128 1024 32 256; do
		r=$(lkst_w "$LKST_INST/buffer_size_kb" $s)
		[ "$r" = OK ] || { echo "# resize to $s: $r"; kill $load; return 1; }
		sleep 0.2
	done
	kill $load 2> /dev/null
	wait
	echo RNOTHING > "$LKST/maskset"
	sleep 0.1
	expect size "$(rb_kb 256)" "$(cat "$LKST_INST/buffer_size_kb")" &&
	[ "$(stat_sum "$LKST_INST" entries)" -gt 0 ] &&
	expect "dropped events" 0 "$(stat_sum "$LKST_INST" "dropped events")" &&
	dmesg_clean
}

test_appending_to_user_buffers_creates_a_buffer_with_its_files()
{
	expect create OK "$(lkst_w -a "$LKST/user_buffers" b1)" &&
	expect user_buffers b1 "$(cat "$LKST/user_buffers")" || return 1
	for f in per_cpu/cpu0/raw per_cpu/cpu0/raw_copy per_cpu/cpu0/refused; do
		[ -f "$B/b1/$f" ] || { echo "# missing $f"; return 1; }
	done
	for f in trace buffer_size_kb tracing_on options/overwrite \
		 per_cpu/cpu0/stats; do
		[ -f "$(lkst_inst b1)/$f" ] || { echo "# missing lkst.b1/$f"; return 1; }
	done
}

test_creating_an_existing_buffer_fails_with_EEXIST()
{
	expect b1 EEXIST "$(lkst_w -a "$LKST/user_buffers" b1)" &&
	expect default EEXIST "$(lkst_w -a "$LKST/user_buffers" default)"
}

test_bad_buffer_names_are_rejected_with_EINVAL()
{
	expect name EINVAL "$(lkst_w -a "$LKST/user_buffers" 'a.b')"
}

test_removing_the_default_buffer_fails_with_EPERM()
{
	expect remove EPERM "$(lkst_w -a "$LKST/user_buffers" '!default')"
}

test_removing_an_unknown_buffer_fails_with_ENOENT()
{
	expect remove ENOENT "$(lkst_w -a "$LKST/user_buffers" '!nosuch')"
}

test_a_maskset_line_routes_its_event_to_the_named_buffer()
{
	lkst_w -a "$LKST/user_masksets" tob1 > /dev/null
	table="PROCESS_EXEC DEFAULT b1${NL}PROCESS_EXIT DEFAULT"
	expect write OK "$(lkst_w -t "$LKST/masksets/tob1" "$table")" || return 1
	lkst_clear
	echo tob1 > "$LKST/maskset"
	/bin/true &
	pid=$!
	wait
	echo RNOTHING > "$LKST/maskset"
	lkst_text b1 > "$TMP/b1"
	lkst_text > "$TMP/default"
	grep -q "PROCESS_EXEC: pid=$pid " "$TMP/b1" &&
	! grep -q "PROCESS_EXEC: " "$TMP/default" &&
	grep -q "PROCESS_EXIT: pid=$pid " "$TMP/default" &&
	! grep -q "PROCESS_EXIT: " "$TMP/b1"
}

test_removing_a_buffer_named_by_a_maskset_fails_with_EBUSY()
{
	expect remove EBUSY "$(lkst_w -a "$LKST/user_buffers" '!b1')" &&
	[ -d "$B/b1" ]
}

test_truncating_user_buffers_while_one_is_used_fails_with_EBUSY()
{
	expect truncate EBUSY "$(lkst_w -t "$LKST/user_buffers" '')" &&
	expect user_buffers b1 "$(cat "$LKST/user_buffers")"
}

test_user_buffers_have_their_own_size_and_mode()
{
	echo 32 > "$(lkst_inst b1)/buffer_size_kb"
	echo 0 > "$(lkst_inst b1)/options/overwrite"
	expect size "$(rb_kb 32)" "$(cat "$(lkst_inst b1)/buffer_size_kb")" &&
	expect overwrite 0 "$(cat "$(lkst_inst b1)/options/overwrite")" &&
	expect "default size" "$(rb_kb 256)" "$(cat "$LKST_INST/buffer_size_kb")" &&
	expect "default overwrite" 1 "$(cat "$LKST_INST/options/overwrite")"
}

test_a_buffer_no_longer_named_by_a_maskset_can_be_removed()
{
	echo '#' > "$LKST/masksets/tob1"
	expect remove OK "$(lkst_w -a "$LKST/user_buffers" '!b1')" &&
	[ ! -e "$B/b1" ] && expect user_buffers "" "$(cat "$LKST/user_buffers")"
}

test_removing_a_buffer_while_its_raw_file_is_open_is_safe()
{
	dmesg_mark
	lkst_w -a "$LKST/user_buffers" b2 > /dev/null
	exec 3< "$B/b2/per_cpu/cpu0/raw"
	exec 4< "$(lkst_inst b2)/trace"
	r=$(lkst_w -a "$LKST/user_buffers" '!b2')
	dd of=/dev/null bs=4096 count=1 iflag=nonblock <&3 2> /dev/null
	cat <&4 > /dev/null
	exec 3<&- 4<&-
	# The instance, whose trace was open, stays (unpinned) for rmdir
	expect remove OK "$r" && [ ! -e "$B/b2" ] &&
	rmdir "$(lkst_inst b2)" && dmesg_clean
}

lkst_run_tests \
	test_overwrite_mode_is_the_default \
	test_overwrite_mode_counts_overwritten_records_as_overrun \
	test_consuming_reads_are_counted_as_read \
	test_stop_mode_counts_refused_records_as_dropped_events \
	test_clearing_the_instance_drops_the_records_and_zeroes_the_stats \
	test_buffer_size_kb_reads_back_a_new_size \
	test_bad_buffer_sizes_are_rejected_with_EINVAL \
	test_resizing_while_recording_keeps_recording \
	test_appending_to_user_buffers_creates_a_buffer_with_its_files \
	test_creating_an_existing_buffer_fails_with_EEXIST \
	test_bad_buffer_names_are_rejected_with_EINVAL \
	test_removing_the_default_buffer_fails_with_EPERM \
	test_removing_an_unknown_buffer_fails_with_ENOENT \
	test_a_maskset_line_routes_its_event_to_the_named_buffer \
	test_removing_a_buffer_named_by_a_maskset_fails_with_EBUSY \
	test_truncating_user_buffers_while_one_is_used_fails_with_EBUSY \
	test_user_buffers_have_their_own_size_and_mode \
	test_a_buffer_no_longer_named_by_a_maskset_can_be_removed \
	test_removing_a_buffer_while_its_raw_file_is_open_is_safe
