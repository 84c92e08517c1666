#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# LKST inside ftrace: its buffers are the trace instances lkst and
# lkst.NAME, one state seen through lkst/ and instances/, pinned while
# LKST uses them; its events are the system lkst of events/, whose format
# IDs are the records' common_type; ftrace's own output prints them, and
# Debian's trace-cmd reads them.  A dynamic event is bound to a kprobe
# event of ftrace (lkst_dyn in lkst_lib.sh).

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset

T=${LKST%/lkst}
I=$T/instances/lkst
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"; rmdir "$T/instances/lkst.taken" 2> /dev/null' EXIT

# rmdir's errno, as its message says it
rmdir_err()
{
	rmdir "$1" 2>&1 | sed 's/.*: //'
}

test_the_default_buffer_is_the_instance_lkst()
{
	[ -d "$I" ] && [ -f "$I/per_cpu/cpu0/trace_pipe_raw" ] &&
	expect rmdir "Device or resource busy" "$(rmdir_err "$I")" &&
	[ -d "$I" ]
}

# tracing_on 0 of the instance: LKST's raw of an empty buffer reads end
# of file, and nothing is recorded while a maskset is current
test_the_instances_tracing_on_pauses_lkst()
{
	lkst_clear
	echo 0 > "$I/tracing_on"
	echo RALL > "$LKST/maskset"
	workload 2
	n=$(stat_committed "$I")
	# RALL is current: only tracing_on 0 makes the empty raw end
	timeout 5 cat "$LKST/per_cpu/cpu0/raw" > /dev/null
	rc=$?
	echo RNOTHING > "$LKST/maskset"
	echo 1 > "$I/tracing_on"
	expect "records while off" 0 "$n" &&
	expect "raw of the paused buffer (0: end of file)" 0 "$rc"
}

# LKST has no size of its own: the instance's buffer_size_kb resizes the
# buffer LKST records into.
test_buffer_size_and_overwrite_are_the_instances()
{
	[ ! -e "$LKST/buffer_size_kb" ] || { echo "# lkst/buffer_size_kb exists"; return 1; }
	echo 128 > "$I/buffer_size_kb"
	expect "instance size" "$(rb_kb 128)" "$(cat "$I/buffer_size_kb")" &&
	expect "instance overwrite" 1 "$(cat "$I/options/overwrite")" ||
		return 1
	lkst_clear
	echo RDEFAULT > "$LKST/maskset"
	workload 1
	echo RNOTHING > "$LKST/maskset"
	n=$(stat_sum "$I" entries)
	echo 256 > "$I/buffer_size_kb"
	[ "$n" -gt 0 ] || { echo "# no records after the resize"; return 1; }
}

# Records consumed through the instance's trace_pipe_raw are gone from
# LKST's raw: one buffer.
test_reading_the_instance_consumes_lkst_s_records()
{
	lkst_clear
	echo RDEFAULT > "$LKST/maskset"
	workload 2
	echo RNOTHING > "$LKST/maskset"
	sleep 0.1
	for c in "$I"/per_cpu/cpu*; do
		dd if="$c/trace_pipe_raw" of=/dev/null bs=4096 count=1 \
			iflag=nonblock 2> /dev/null
	done
	n=$(stat_sum "$I" "read events")
	left=$(stat_sum "$I" entries)
	for c in "$LKST"/per_cpu/cpu*; do
		timeout 5 cat "$c/raw" > /dev/null 2>&1
	done
	echo "# $n read through the instance, $left left for raw"
	# one buffer: raw consumed what trace_pipe_raw left, and no more
	[ "$n" -gt 0 ] &&
	expect "entries after raw" 0 "$(stat_sum "$I" entries)" &&
	expect "read events" $((n + left)) "$(stat_sum "$I" "read events")"
}

test_a_user_buffer_is_the_instance_lkst_dot_NAME()
{
	lkst_w -a "$LKST/user_buffers" ib > /dev/null
	[ -d "$T/instances/lkst.ib" ] &&
	expect rmdir "Device or resource busy" \
		"$(rmdir_err "$T/instances/lkst.ib")" &&
	echo 16 > "$T/instances/lkst.ib/buffer_size_kb" &&
	expect size "$(rb_kb 16)" "$(cat "$T/instances/lkst.ib/buffer_size_kb")" &&
	expect remove OK "$(lkst_w -a "$LKST/user_buffers" '!ib')" &&
	[ ! -e "$T/instances/lkst.ib" ]
}

test_an_instance_a_user_made_is_not_taken_over()
{
	mkdir "$T/instances/lkst.taken" &&
	expect create EEXIST "$(lkst_w -a "$LKST/user_buffers" taken)" &&
	error_log_has "A trace instance lkst.NAME exists already" &&
	rmdir "$T/instances/lkst.taken"
}

test_every_event_has_a_format_in_events_lkst()
{
	n=0
	while read -r id name rest; do
		f=$T/events/lkst/$name/format
		[ -f "$f" ] || { echo "# no $f"; return 1; }
		grep -q "^ID: [1-9]" "$f" &&
		grep -q "field:u16 lkst_event;	offset:8;	size:2;" "$f" &&
		grep -q "field:u8 lkst_handler;	offset:10;	size:1;" "$f" &&
		grep -q "offset:16;	size:" "$f" &&
		grep -q '^print fmt: "' "$f" || { echo "# bad $f"; return 1; }
		n=$((n + 1))
	done < "$LKST/available_events"
	[ "$n" -gt 30 ]
}

test_lkst_events_cannot_be_enabled_through_ftrace()
{
	[ ! -e "$T/events/lkst/SYSCALL_ENTRY/enable" ] &&
	! grep -q '^lkst:' "$T/available_events"
}

test_a_code_address_is_printed_as_a_symbol()
{
	fmt='"timer=0x%llx func=%ps now=%llu", REC->timer, (void \*)REC->func'
	grep -q "^print fmt: $fmt, REC->now\$" "$T/events/lkst/TIMER_RUN/format"
}

# The common_type of a record is the ID: line of its event's format:
# ftrace's raw output prints the type of an event without a raw printer.
test_records_carry_their_events_type()
{
	lkst_clear
	echo RDEFAULT > "$LKST/maskset"
	"$LKST_DIR/lkst_write" -l /dev/null x > /dev/null
	echo RNOTHING > "$LKST/maskset"
	id=$(sed -n 's/^ID: //p' "$T/events/lkst/SYSCALL_ENTRY/format")
	grep -q "SYSCALL_ENTRY: nr=" "$I/trace" || {
		echo "# no SYSCALL_ENTRY in instances/lkst/trace"; return 1; }
	echo 1 > "$I/options/raw"
	n=$(grep -c "^[0-9]* [0-9]* [0-9]* type: $id\$" "$I/trace")
	echo 0 > "$I/options/raw"
	[ "$n" -gt 0 ] || { echo "# no record of type $id"; return 1; }
}

test_ftrace_prints_the_context_flags_of_an_irq_record()
{
	lkst_clear
	echo RDEFAULT > "$LKST/maskset"
	workload 1
	echo RNOTHING > "$LKST/maskset"
	# irq-info columns: irqs-off, need-resched (not recorded),
	# hardirq/softirq, preempt depth (not recorded): an interrupt handler
	# runs with interrupts off, a softirq and a system call with them on
	grep -Eq '\[[0-9]+\] d\.h\.\. .* INT_HARDWARE_ENTRY: ' "$I/trace" &&
	grep -Eq '\[[0-9]+\] \.\.s\.\. .* INT_SOFTIRQ_ENTRY: ' "$I/trace" &&
	grep -Eq '\[[0-9]+\] \.\.\.\.\. .* SYSCALL_ENTRY: ' "$I/trace"
}

# Debian's trace-cmd, as a user runs it
test_trace_cmd_reports_the_lkst_instance()
{
	command -v trace-cmd > /dev/null || return "$KSFT_SKIP"
	lkst_clear
	echo RDEFAULT > "$LKST/maskset"
	sleep 0.2
	echo RNOTHING > "$LKST/maskset"
	# as for any instance, extract turns tracing_on off
	trace-cmd extract -B lkst -o "$TMP/f.dat" > "$TMP/extract.log" 2>&1 ||
		{ sed 's/^/# /' "$TMP/extract.log"; return 1; }
	expect "tracing_on after extract" 0 "$(cat "$LKST_INST/tracing_on")" ||
		return 1
	echo 1 > "$LKST_INST/tracing_on"
	trace-cmd report -i "$TMP/f.dat" > "$TMP/report" 2> "$TMP/report.err" ||
		{ sed 's/^/# /' "$TMP/report.err"; return 1; }
	# clock_nanosleep or nanosleep
	case $(uname -m) in
	x86_64) nr='230|35' ;;
	aarch64) nr='115|101' ;;
	*) return "$KSFT_SKIP" ;;
	esac
	grep -E " sleep-[0-9]+ +\[[0-9]{3}\] +[0-9.]+: SYSCALL_ENTRY: +nr=($nr) " \
		"$TMP/report" > /dev/null || {
		echo "# no nanosleep of sleep in the report:"
		head -n 20 "$TMP/report" | sed 's/^/#   /'
		return 1
	}
	grep -Eq 'PROCESS_CONTEXTSWITCH: +prev=[0-9]+ next=[0-9]+ state=[RSDTtXZPI] ' \
		"$TMP/report" &&
	! grep -qi 'error' "$TMP/report.err" &&
	! grep -q 'UNKNOWN\|FAILED TO PARSE' "$TMP/report"
}

# No binding, and no kprobe event of lkstst, whatever a failed test left
dyn_clean()
{
	echo RNOTHING > "$LKST/maskset"
	if grep -qx ftdyn "$LKST/user_masksets"; then
		echo '#' > "$LKST/masksets/ftdyn"
		echo '!ftdyn' >> "$LKST/user_masksets"
	fi
	lkst_dyn_clean
}

# A dynamic event is an event of events/lkst while it is bound, with the
# kprobe event's argument names; the kprobe event stays ftrace's.
test_a_dynamic_event_has_a_format_while_it_exists()
{
	[ -f "$LKST/dynamic_events" ] || return "$KSFT_SKIP"
	dyn_clean
	D=$T/events/lkst/FTRACE_OPEN
	lkst_dyn FTRACE_OPEN 'p do_sys_openat2 dfd=$arg1:s32 how=$arg3:x64' ||
		return 1
	grep -q "^ID: [1-9]" "$D/format" &&
	grep -q "field:s64 dfd;	offset:16;	size:8;	signed:1;" "$D/format" &&
	grep -q "field:u64 how;	offset:24;	size:8;	signed:0;" "$D/format" &&
	grep -q '^print fmt: "dfd=%lld how=0x%llx", REC->dfd, REC->how$' \
		"$D/format" || { sed 's/^/# /' "$D/format"; return 1; }
	# a format file open across the unbinding is safe to read
	dmesg_mark
	exec 3< "$D/format"
	r=$(lkst_w -a "$LKST/dynamic_events" '-:FTRACE_OPEN')
	cat <&3 > /dev/null 2>&1
	exec 3<&-
	expect unbind OK "$r" && [ ! -e "$D" ] &&
	[ -d "$T/events/lkstst/FTRACE_OPEN" ] &&
	expect "remove the kprobe event" OK \
		"$(lkst_w -a "$T/dynamic_events" '-:lkstst/FTRACE_OPEN')" &&
	dmesg_clean
}

# ftrace takes any argument name; LKST refuses, at the binding, those of
# its record's own fields.
test_a_dynamic_argument_may_not_take_a_record_fields_name()
{
	[ -f "$LKST/dynamic_events" ] || return "$KSFT_SKIP"
	dyn_clean
	for a in lkst_event lkst_handler lkst_reserved lkst_pad; do
		true > "$T/error_log"
		# which removes the kprobe event again when the binding fails
		lkst_dyn FTRACE_OPEN "p do_sys_openat2 $a=\$arg1:s32" > /dev/null
		expect "the failing step with $a, its errno" "bind EINVAL" \
			"$LKST_ERR_STEP $LKST_ERR" &&
		expect "error_log entries for $a" 1 "$(grep -c \
			'lkst: dynamic_events: error: Argument name is a field of the record' \
			"$T/error_log")" &&
		expect "bindings after $a" "" "$(cat "$LKST/dynamic_events")" &&
		[ ! -e "$T/events/lkst/FTRACE_OPEN" ] &&
		[ ! -e "$T/events/lkstst/FTRACE_OPEN" ] || return 1
	done
}

# events/lkst/NAME of a kprobe event lkst/NAME takes NAME: neither that
# event nor another can be bound as NAME
test_a_dynamic_event_may_not_take_a_kprobe_events_name()
{
	[ -f "$LKST/dynamic_events" ] || return "$KSFT_SKIP"
	dyn_clean
	[ -f "$T/kprobe_events" ] || return "$KSFT_SKIP"
	lkst_w -a "$T/kprobe_events" '-:lkst/FTRACE_TAKEN' > /dev/null
	echo 'p:lkst/FTRACE_TAKEN do_sys_openat2' >> "$T/kprobe_events" ||
		return 1
	k=$(lkst_w -a "$T/dynamic_events" 'p:lkstst/FTRACE_TAKEN do_sys_openat2')
	true > "$T/error_log"
	r=$(lkst_w -a "$LKST/dynamic_events" 'FTRACE_TAKEN lkstst/FTRACE_TAKEN')
	e=$(grep -c 'lkst: dynamic_events: error: Name already exists' "$T/error_log")
	r2=$(lkst_w -a "$LKST/dynamic_events" 'FTRACE_TAKEN lkst/FTRACE_TAKEN')
	b=$(cat "$LKST/dynamic_events")
	echo '-:lkst/FTRACE_TAKEN' >> "$T/kprobe_events"
	echo '-:lkstst/FTRACE_TAKEN' >> "$T/kprobe_events"
	expect "kprobe event lkstst/FTRACE_TAKEN" OK "$k" &&
	expect "bind lkstst/FTRACE_TAKEN" EEXIST "$r" &&
	expect "error_log entries" 1 "$e" &&
	expect "bind lkst/FTRACE_TAKEN" EEXIST "$r2" &&
	expect bindings "" "$b"
}

test_trace_cmd_reports_a_dynamic_event()
{
	command -v trace-cmd > /dev/null || return "$KSFT_SKIP"
	[ -f "$LKST/dynamic_events" ] || return "$KSFT_SKIP"
	dyn_clean
	lkst_dyn FTRACE_OPEN 'p do_sys_openat2 dfd=$arg1:s32' || return 1
	lkst_w -a "$LKST/user_masksets" ftdyn > /dev/null
	echo 'FTRACE_OPEN DEFAULT' > "$LKST/masksets/ftdyn"
	lkst_clear
	echo ftdyn > "$LKST/maskset"
	cat /dev/null
	echo RNOTHING > "$LKST/maskset"
	trace-cmd extract -B lkst -o "$TMP/d.dat" > /dev/null 2>&1
	echo 1 > "$LKST_INST/tracing_on"
	trace-cmd report -i "$TMP/d.dat" > "$TMP/d.report" 2>&1
	echo '#' > "$LKST/masksets/ftdyn"
	lkst_w -a "$LKST/user_masksets" '!ftdyn' > /dev/null
	lkst_dyn_rm FTRACE_OPEN
	grep -Eq ' cat-[0-9]+ +\[[0-9]{3}\] +[0-9.]+: FTRACE_OPEN: +dfd=-100$' \
		"$TMP/d.report" || { head -n 5 "$TMP/d.report" | sed 's/^/# /'; return 1; }
}

# Its ftrace type goes to the next event registered, whose output would
# misread its records: they go at the unbinding, as ftrace clears its
# buffers for its own.
test_removing_a_dynamic_event_that_recorded_clears_the_buffers()
{
	[ -f "$LKST/dynamic_events" ] || return "$KSFT_SKIP"
	dyn_clean
	lkst_dyn FTRACE_OPEN 'p do_sys_openat2 dfd=$arg1:s32' || return 1
	lkst_w -a "$LKST/user_masksets" ftdyn > /dev/null
	echo 'FTRACE_OPEN DEFAULT' > "$LKST/masksets/ftdyn"
	echo ftdyn > "$LKST/maskset"
	cat /dev/null
	echo RNOTHING > "$LKST/maskset"
	before=$(stat_sum "$LKST_INST" entries)
	echo '#' > "$LKST/masksets/ftdyn"
	lkst_w -a "$LKST/user_masksets" '!ftdyn' > /dev/null
	expect unbind OK "$(lkst_w -a "$LKST/dynamic_events" '-:FTRACE_OPEN')" &&
	after=$(stat_sum "$LKST_INST" entries) &&
	expect "remove the kprobe event" OK \
		"$(lkst_w -a "$T/dynamic_events" '-:lkstst/FTRACE_OPEN')" &&
	[ "$before" -gt 0 ] &&
	expect "entries after" 0 "$after"
}

# While RDEFAULT records, each read of the instance's trace file records
# more than it prints: the file ends at what the buffer held at open
# (pause-on-trace is off, as it is by default, so recording goes on)
test_the_instances_trace_ends_while_lkst_records()
{
	expect pause-on-trace 0 "$(cat "$I/options/pause-on-trace")" || return 1
	lkst_clear
	echo RDEFAULT > "$LKST/maskset"
	w0=$(stat_committed "$I")
	timeout 20 cat "$I/trace" > "$TMP/itrace"
	rc=$?
	w1=$(stat_committed "$I")
	on=$(cat "$LKST_INST/tracing_on")
	n=$(stat_sum "$LKST_INST" entries)
	echo RNOTHING > "$LKST/maskset"
	expect "cat's exit status (124: killed by timeout)" 0 "$rc" &&
	expect "recording while it read" 1 "$on" &&
	expect "records written while it read" yes "$([ "$w1" -gt "$w0" ] && echo yes)" &&
	expect "lines of records" yes \
		"$([ "$(grep -vc '^#' "$TMP/itrace")" -gt 0 ] && echo yes)" &&
	expect "records in the buffer after" yes "$([ "$n" -gt 0 ] && echo yes)"
}

# A snapshot would swap the ring buffer that the crash dump and
# VMCOREINFO describe: ftrace refuses it on the instances LKST pins, the
# default buffer's and a user buffer's, and the records stay
test_a_snapshot_of_an_lkst_buffer_is_refused()
{
	# CONFIG_TRACER_SNAPSHOT=n: no snapshot file
	[ -f "$I/snapshot" ] || return "$KSFT_SKIP"
	lkst_w -a "$LKST/user_buffers" snapb > /dev/null
	lkst_clear
	echo RDEFAULT > "$LKST/maskset"
	cat "$LKST/maskset" > /dev/null
	echo RNOTHING > "$LKST/maskset"
	n=$(stat_sum "$LKST_INST" entries)
	r=$(lkst_w "$I/snapshot" 1)
	ru=$(lkst_w "$T/instances/lkst.snapb/snapshot" 1)
	rt=$(lkst_w "$I/current_tracer" wakeup)
	n1=$(stat_sum "$LKST_INST" entries)
	rm=$(lkst_w -a "$LKST/user_buffers" '!snapb')
	expect "records before" yes "$([ "$n" -gt 0 ] && echo yes)" &&
	expect "snapshot of instances/lkst" EBUSY "$r" &&
	expect "snapshot of instances/lkst.snapb" EBUSY "$ru" &&
	expect "records after" "$n" "$n1" &&
	expect "remove the user buffer" OK "$rm" &&
	# a latency tracer, which swaps the buffer too (if built in)
	case $rt in
	OK) echo "# the wakeup tracer was taken"; echo nop > "$I/current_tracer"; false ;;
	*) true ;;
	esac
}

# ftrace's own events enabled in the instance as well: its trace lists
# both, LKST's records whole and all of them, around events shorter
# (sched_wakeup) and longer (sched_switch) than an LKST record.
test_ftrace_events_in_the_instance_are_listed_among_the_records()
{
	grep -qx sc "$LKST/user_masksets" || echo sc >> "$LKST/user_masksets"
	echo 'SYSCALL_ENTRY DEFAULT' > "$LKST/masksets/sc"
	echo 4096 > "$I/buffer_size_kb"
	lkst_clear
	echo 1 > "$I/events/sched/sched_wakeup/enable"
	echo 1 > "$I/events/sched/sched_switch/enable"
	echo sc > "$LKST/maskset"
	"$LKST_DIR/lkst_bench" syscall 300 > /dev/null &
	pid=$!
	wait $pid
	echo RNOTHING > "$LKST/maskset"
	echo 0 > "$I/events/sched/sched_wakeup/enable"
	echo 0 > "$I/events/sched/sched_switch/enable"
	lkst_text > "$TMP/trace"
	n=$(grep -c ' sched_switch: \| sched_wakeup: ' "$TMP/trace")
	lkst_clear
	[ "$n" -gt 0 ] || { echo "# no ftrace event in the instance"; return 1; }
	expect "lines of neither" 0 \
		"$(grep -vc ' SYSCALL_ENTRY: \| sched_switch: \| sched_wakeup: ' "$TMP/trace")" &&
	expect "getppid() calls of $pid after its exec" 300 "$(awk -v p="$pid" '
		$4 != p || $5 != "SYSCALL_ENTRY:" { next }
		/ nr=59 / { n = 0 }
		/ nr=110 / { n++ }
		END { print n + 0 }' "$TMP/trace")"
}

lkst_run_tests \
	test_the_default_buffer_is_the_instance_lkst \
	test_the_instances_tracing_on_pauses_lkst \
	test_buffer_size_and_overwrite_are_the_instances \
	test_reading_the_instance_consumes_lkst_s_records \
	test_a_user_buffer_is_the_instance_lkst_dot_NAME \
	test_an_instance_a_user_made_is_not_taken_over \
	test_every_event_has_a_format_in_events_lkst \
	test_lkst_events_cannot_be_enabled_through_ftrace \
	test_a_code_address_is_printed_as_a_symbol \
	test_records_carry_their_events_type \
	test_ftrace_prints_the_context_flags_of_an_irq_record \
	test_trace_cmd_reports_the_lkst_instance \
	test_a_dynamic_event_has_a_format_while_it_exists \
	test_trace_cmd_reports_a_dynamic_event \
	test_removing_a_dynamic_event_that_recorded_clears_the_buffers \
	test_the_instances_trace_ends_while_lkst_records \
	test_a_snapshot_of_an_lkst_buffer_is_refused \
	test_a_dynamic_argument_may_not_take_a_record_fields_name \
	test_a_dynamic_event_may_not_take_a_kprobe_events_name \
	test_ftrace_events_in_the_instance_are_listed_among_the_records
