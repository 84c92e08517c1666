#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Switch masksets thousands of times while events fire on every CPU, from
# user space and from handler context at once, and check that the kernel
# stays healthy: every switch succeeds, nothing is recorded through a
# stale table into the wrong place, dmesg shows no warning.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset

M=$LKST/masksets
FAST=${LKST_STORM_FAST:-1000}	# table-only switches (probes stay attached)
SLOW=${LKST_STORM_SLOW:-25}	# switches that attach and detach probes

dmesg_mark
# Events on both CPUs: processes that fork, exec, exit and make syscalls.
LOAD=""
for _ in 1 2; do
	sh -c 'while :; do /bin/true; done' &
	LOAD="$LOAD $!"
done
trap 'kill $LOAD 2> /dev/null; wait' EXIT

# A copy of RALL that records into its own buffer: switching between the
# two changes every table entry but attaches no probe.
echo storm >> "$LKST/user_buffers"
echo allstorm >> "$LKST/user_masksets"
sed 's/$/ storm/' "$M/RALL" > "$M/allstorm"
# what the flight recorders refused before the storm: during it, at most
# commit overruns (the storm buffer is new, the default one just cleared)
lkst_clear
R_DEF=$(refused_sum "$LKST")
R_STORM=$(refused_sum "$LKST/buffers/storm")

test_thousands_of_table_only_switches_succeed()
{
	fail=0
	start=$(date +%s)
	for _ in $(seq "$FAST"); do
		echo allstorm > "$LKST/maskset" || fail=$((fail + 1))
		echo RALL > "$LKST/maskset" || fail=$((fail + 1))
	done
	echo "# $((2 * FAST)) switches in $(($(date +%s) - start)) s, $fail failed"
	[ $fail -eq 0 ]
}

test_switches_that_attach_and_detach_probes_succeed()
{
	fail=0
	start=$(date +%s)
	for _ in $(seq "$SLOW"); do
		for m in RNOTHING RDEFAULT RALL allstorm; do
			echo $m > "$LKST/maskset" || fail=$((fail + 1))
		done
	done
	echo "# $((4 * SLOW)) switches in $(($(date +%s) - start)) s, $fail failed"
	[ $fail -eq 0 ]
}

test_rewriting_the_current_maskset_under_load_succeeds()
{
	fail=0
	echo allstorm > "$LKST/maskset"
	for _ in $(seq "$SLOW"); do
		sed 's/$/ storm/' "$M/RDEFAULT" > "$M/allstorm" || fail=$((fail + 1))
		sed 's/$/ storm/' "$M/RALL" > "$M/allstorm" || fail=$((fail + 1))
	done
	echo "# $fail failed"
	[ $fail -eq 0 ] && expect maskset allstorm "$(cat "$LKST/maskset")"
}

test_switches_from_handler_context_race_with_user_switches()
{
	lkst_modprobe lkst_escalate detail=RALL || return
	# Every system call of 1 us or more switches to RALL from the probe.
	echo 1 > /sys/module/lkst_escalate/parameters/slow_syscall_us
	echo esc >> "$LKST/user_masksets"
	printf 'SYSCALL_ENTRY ESCALATE\nSYSCALL_EXIT ESCALATE\nPROCESS_FORK DEFAULT storm\n' \
		> "$M/esc"
	fail=0
	for _ in $(seq "$SLOW"); do
		echo esc > "$LKST/maskset" || fail=$((fail + 1))
		sleep 0.01
		echo allstorm > "$LKST/maskset" || fail=$((fail + 1))
	done
	echo RNOTHING > "$LKST/maskset"
	echo '#' > "$M/esc"
	n=$(cat /sys/module/lkst_escalate/parameters/escalations)
	rmmod lkst_escalate || fail=$((fail + 1))
	echo "# $n switches from handler context, $fail failed"
	[ $fail -eq 0 ] && [ "$n" -gt 0 ]
}

test_the_buffers_refused_only_commit_overruns_in_the_storm()
{
	# Records in flight during the switches are written or overwritten.
	kill $LOAD 2> /dev/null
	wait
	echo RNOTHING > "$LKST/maskset"
	sleep 0.1
	[ "$(stat_committed "$LKST_INST")" -gt 0 ] &&
	[ "$(stat_committed "$(lkst_inst storm)")" -gt 0 ] &&
	refused_is "$LKST" "$R_DEF" \
		"$(stat_sum "$LKST_INST" "commit overrun")" &&
	refused_is "$LKST/buffers/storm" "$R_STORM" \
		"$(stat_sum "$(lkst_inst storm)" "commit overrun")"
}

test_the_kernel_is_healthy_after_the_storm()
{
	# (trace is read with recording off: a reader that records its own
	# reads might never reach the end)
	expect maskset OK "$(lkst_w "$LKST/maskset" RDEFAULT)" &&
	echo RNOTHING > "$LKST/maskset" &&
	cat "$LKST_INST/trace" > /dev/null &&
	dmesg_clean
}

lkst_run_tests \
	test_thousands_of_table_only_switches_succeed \
	test_switches_that_attach_and_detach_probes_succeed \
	test_rewriting_the_current_maskset_under_load_succeeds \
	test_switches_from_handler_context_race_with_user_switches \
	test_the_buffers_refused_only_commit_overruns_in_the_storm \
	test_the_kernel_is_healthy_after_the_storm
