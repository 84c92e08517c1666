#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The files of LKST's crash survival that can be tested without a crash:
# dump_on_oops (bounds, errors, resizing while it is set).  The crashes
# themselves are tested by crashing a virtual machine, outside kselftest.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset

D=$LKST/dump_on_oops
old=$(cat "$D")

test_dump_on_oops_reads_back_what_was_written()
{
	for v in 50 0 1000 1; do
		expect "write $v" OK "$(lkst_w "$D" "$v")" &&
		expect "read after $v" "$v" "$(cat "$D")" || return 1
	done
}

test_bad_dump_on_oops_values_are_rejected_with_EINVAL()
{
	echo 7 > "$D"
	true > "$TRACING/error_log"
	for v in 1001 4294967296 -1 abc 12x ''; do
		expect "value '$v'" EINVAL "$(lkst_w "$D" "$v")" || return 1
	done
	expect "unchanged" 7 "$(cat "$D")" &&
	error_log_has "dump_on_oops: error: Not a number"
}

test_a_value_above_1000_is_logged_as_out_of_range()
{
	true > "$TRACING/error_log"
	expect 1001 EINVAL "$(lkst_w "$D" 1001)" &&
	error_log_has "dump_on_oops: error: Records per CPU out of range [0, 1000]"
}

# The dump reads with iterators that hold nothing between two dumps, so
# ftrace's own file resizes the instance too (it gave EBUSY when the
# dump's iterators kept the buffer from being resized)
test_the_instance_can_be_resized_while_dump_on_oops_is_set()
{
	if grep -qx 'recording: this boot records into reserve_mem' \
		"$LKST/last_boot/info" 2> /dev/null; then
		echo "# the default buffer is persistent: its size is fixed"
		return "$KSFT_SKIP"
	fi
	size=$(cat "$LKST_INST/buffer_size_kb")
	echo 100 > "$D"
	expect resize OK "$(lkst_w "$LKST_INST/buffer_size_kb" 512)" &&
	# it reads the data bytes of the pages that hold 512 KiB
	now=$(cat "$LKST_INST/buffer_size_kb")
	[ "$now" -ge 512 ] && [ "$now" -lt $((512 + $(getconf PAGESIZE) / 1024)) ] ||
		{ echo "# size: expected 512 KiB and less than a page more, got '$now'"; return 1; }
	expect "resize back" OK "$(lkst_w "$LKST_INST/buffer_size_kb" "$size")" &&
	expect "still set" 100 "$(cat "$D")"
}

test_setting_dump_on_oops_does_not_change_the_records()
{
	echo RNOTHING > "$LKST/maskset"
	sleep 0.1
	a=$(stat_sum "$LKST_INST" entries)
	echo 0 > "$D"
	echo 20 > "$D"
	expect entries "$a" "$(stat_sum "$LKST_INST" entries)" &&
	expect "read events" 0 "$(stat_sum "$LKST_INST" "read events")" && dmesg_clean
	rc=$?
	echo "$old" > "$D"
	return $rc
}

L=$LKST/last_boot

test_last_boot_info_says_whether_and_why_it_is_empty()
{
	status=$(sed -n 's/^status: //p' "$L/info")
	case $status in
	kept)
		grep -qE '^records: [0-9]+$' "$L/info" &&
		grep -q '^ended_by: ' "$L/info" ;;
	empty)
		grep -qE '^reason: .+' "$L/info" ;;
	*)
		echo "# status '$status'"
		false ;;
	esac
}

test_without_lkst_persist_last_boot_has_only_info()
{
	if ! grep -qx 'persist: none' "$L/info"; then
		echo "# booted with lkst.persist="
		return "$KSFT_SKIP"
	fi
	expect info "status: empty
reason: no lkst.persist= on the command line
persist: none
recording: this boot records into ordinary memory" "$(cat "$L/info")" &&
	expect files info "$(ls "$L")"
}

# (The text of the records is the trace file of the instance
# lkst_last_boot, which ftrace's "> trace" clears.)
test_the_last_boot_files_are_read_only()
{
	[ ! -e "$L/trace" ] || { echo "# $L/trace is still there"; return 1; }
	for f in "$L/info" "$L/per_cpu/cpu0/raw"; do
		[ -e "$f" ] || continue
		expect "write $f" EINVAL "$(lkst_w "$f" 1)" || return 1
	done
}

test_a_persistent_buffer_cannot_be_resized()
{
	if ! grep -qx 'recording: this boot records into reserve_mem' "$L/info"; then
		echo "# the default buffer is not persistent"
		return "$KSFT_SKIP"
	fi
	# its pages are those of the reserve_mem= range
	size=$(cat "$LKST_INST/buffer_size_kb")
	sub=$(cat "$LKST_INST/buffer_subbuf_size_kb")
	expect resize EBUSY "$(lkst_w "$LKST_INST/buffer_size_kb" 64)" &&
	expect size "$size" "$(cat "$LKST_INST/buffer_size_kb")" &&
	expect "sub-buffer size" EBUSY \
		"$(lkst_w "$LKST_INST/buffer_subbuf_size_kb" $((sub * 2)))" &&
	expect "sub-buffer size" "$sub" "$(cat "$LKST_INST/buffer_subbuf_size_kb")"
}

dmesg_mark
lkst_run_tests \
	test_dump_on_oops_reads_back_what_was_written \
	test_bad_dump_on_oops_values_are_rejected_with_EINVAL \
	test_a_value_above_1000_is_logged_as_out_of_range \
	test_the_instance_can_be_resized_while_dump_on_oops_is_set \
	test_setting_dump_on_oops_does_not_change_the_records \
	test_last_boot_info_says_whether_and_why_it_is_empty \
	test_without_lkst_persist_last_boot_has_only_info \
	test_the_last_boot_files_are_read_only \
	test_a_persistent_buffer_cannot_be_resized
