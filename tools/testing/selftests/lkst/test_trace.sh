#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What LKST records for a known workload, read through the trace file of
# its instance: a process that the test starts, that sleeps and is woken
# up, and exits.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Record the life of one "sleep 0.2" under RALL; keep its pid and the trace.
# RALL includes the memory events: make room so nothing is overwritten.
echo 4096 > "$LKST_INST/buffer_size_kb"
echo RALL > "$LKST/maskset"
sleep 0.2 &
SLEEPER=$!
wait
echo RNOTHING > "$LKST/maskset"
# The file as ftrace prints it, and its records as lkst_text() has them
cat "$LKST_INST/trace" > "$TMP/text"
lkst_text > "$TMP/trace"
echo "# sleeper pid $SLEEPER, $(wc -l < "$TMP/trace") records in the trace"

# has REGEX: a line of the recorded trace matches REGEX.
has()
{
	grep -qE -- "$1" "$TMP/trace" && return 0
	echo "# no line matches: $1"
	return 1
}

# "12.345678 [001] . 1234 EVENT: args", see lkst_text()
TIME_CPU='^[0-9]+\.[0-9]{6} \[[0-9]{3}\] [.hsn] '

test_RALL_records_a_context_switch_of_a_test_process()
{
	has "PROCESS_CONTEXTSWITCH: prev=$SLEEPER next=[0-9]+ "
}

test_the_context_switch_is_recorded_under_the_sleepers_pid()
{
	has "${TIME_CPU}$SLEEPER PROCESS_CONTEXTSWITCH: prev=$SLEEPER "
}

test_the_sleeper_goes_to_sleep_in_state_S()
{
	has "PROCESS_CONTEXTSWITCH: prev=$SLEEPER next=[0-9]+ state=S "
}

test_the_sleeper_is_woken_up()
{
	has "PROCESS_WAKEUP: pid=$SLEEPER "
}

test_the_wakeup_comes_after_the_sleep_and_before_the_exit()
{
	awk -v p="$SLEEPER" '
		$0 ~ "CONTEXTSWITCH: prev=" p " .*state=S" && !slept { slept = NR }
		$0 ~ "PROCESS_WAKEUP: pid=" p " " && slept && !woke { woke = NR }
		$0 ~ "PROCESS_EXIT: pid=" p " " { exited = NR }
		END {
			printf "# slept at line %d, woke at %d, exited at %d\n", slept, woke, exited
			exit !(slept && woke > slept && exited > woke)
		}' "$TMP/trace"
}

test_the_fork_exec_and_exit_of_the_sleeper_are_recorded()
{
	has "PROCESS_FORK: parent=[0-9]+ child=$SLEEPER " &&
	has "${TIME_CPU}$SLEEPER PROCESS_EXEC: pid=$SLEEPER " &&
	has "${TIME_CPU}$SLEEPER PROCESS_EXIT: pid=$SLEEPER tgid=$SLEEPER "
}

test_the_sleepers_system_calls_are_recorded()
{
	has "${TIME_CPU}$SLEEPER SYSCALL_ENTRY: nr=" &&
	has "${TIME_CPU}$SLEEPER SYSCALL_EXIT: nr="
}

# The sleeper's nanosleep() ends in the hrtimer callback hrtimer_wakeup().
test_code_addresses_are_printed_as_symbols()
{
	has "HRTIMER_RUN: hrtimer=[^ ]+ func=hrtimer_wakeup "
}

# %p never prints a "0x": hashed, or raw with no_hash_pointers.
test_data_pointers_are_printed_with_percent_p()
{
	has "HRTIMER_RUN: hrtimer=[0-9a-f]+ " || return 1
	grep -E " (tasklet|timer|hrtimer|work|ptr|cache|addr|skb|lock)=0x" \
		"$TMP/trace" > "$TMP/bad"
	[ -s "$TMP/bad" ] || return 0
	head -3 "$TMP/bad" | sed 's/^/# pointer in hex: /'
	return 1
}

# ftrace's line: "COMM-PID [CPU] FLAGS TIME: EVENT: ARGS", under its
# header of "#" lines; nothing but LKST's events is enabled here.
test_every_line_is_comm_pid_cpu_flags_time_and_event()
{
	grep -v '^#' "$TMP/text" |
	grep -vE '^ *[^ ].*-[0-9]+ +\[[0-9]{3}\] [^ ]{5} +[0-9]+\.[0-9]{6}: [A-Z][A-Z0-9_]*:( |$)' \
		> "$TMP/bad"
	[ -s "$TMP/bad" ] || return 0
	head -3 "$TMP/bad" | sed 's/^/# bad line: /'
	return 1
}

test_the_trace_lists_every_record_the_instance_holds()
{
	expect records "$(stat_sum "$LKST_INST" entries)" \
		"$(grep -vc '^#' "$TMP/text")"
}

# LKST keeps saved_cmdlines up to date at fork and exec
test_the_sleepers_lines_name_its_command()
{
	grep -E -- "-$SLEEPER +\[" "$TMP/text" > "$TMP/mine"
	[ -s "$TMP/mine" ] || { echo "# no line of $SLEEPER"; return 1; }
	grep -vE -- "^ *sleep-$SLEEPER " "$TMP/mine" > "$TMP/bad"
	[ -s "$TMP/bad" ] || return 0
	head -3 "$TMP/bad" | sed 's/^/# not named sleep: /'
	return 1
}

test_lines_are_in_time_order()
{
	awk '{ t = $1 + 0 }
	     t < last { print "# line " NR " goes back in time"; exit 1 }
	     { last = t }' "$TMP/trace"
}

test_reading_trace_does_not_consume_it()
{
	expect lines "$(wc -l < "$TMP/text")" "$(wc -l < "$LKST_INST/trace")"
}

test_RNOTHING_records_nothing()
{
	before=$(stat_committed "$LKST_INST")
	workload 5
	expect committed "$before" "$(stat_committed "$LKST_INST")"
}

test_tracing_on_0_pauses_recording_and_keeps_the_maskset()
{
	echo 0 > "$LKST_INST/tracing_on"
	echo RALL > "$LKST/maskset"
	before=$(stat_committed "$LKST_INST")
	workload 5
	after=$(stat_committed "$LKST_INST")
	ms=$(cat "$LKST/maskset")
	echo RNOTHING > "$LKST/maskset"
	echo 1 > "$LKST_INST/tracing_on"
	expect committed "$before" "$after" &&
	expect "maskset while paused" RALL "$ms"
}

test_tracing_on_1_resumes_recording()
{
	echo RALL > "$LKST/maskset"
	before=$(stat_committed "$LKST_INST")
	workload 2
	after=$(stat_committed "$LKST_INST")
	echo RNOTHING > "$LKST/maskset"
	[ "$after" -gt "$before" ]
}

test_opening_trace_with_O_TRUNC_clears_the_buffer()
{
	true > "$LKST_INST/trace"
	expect records 0 "$(grep -vc '^#' "$LKST_INST/trace")" &&
	expect entries 0 "$(stat_sum "$LKST_INST" entries)"
}

lkst_run_tests \
	test_RALL_records_a_context_switch_of_a_test_process \
	test_the_context_switch_is_recorded_under_the_sleepers_pid \
	test_the_sleeper_goes_to_sleep_in_state_S \
	test_the_sleeper_is_woken_up \
	test_the_wakeup_comes_after_the_sleep_and_before_the_exit \
	test_the_fork_exec_and_exit_of_the_sleeper_are_recorded \
	test_the_sleepers_system_calls_are_recorded \
	test_code_addresses_are_printed_as_symbols \
	test_data_pointers_are_printed_with_percent_p \
	test_every_line_is_comm_pid_cpu_flags_time_and_event \
	test_the_trace_lists_every_record_the_instance_holds \
	test_the_sleepers_lines_name_its_command \
	test_lines_are_in_time_order \
	test_reading_trace_does_not_consume_it \
	test_RNOTHING_records_nothing \
	test_tracing_on_0_pauses_recording_and_keeps_the_maskset \
	test_tracing_on_1_resumes_recording \
	test_opening_trace_with_O_TRUNC_clears_the_buffer
