#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The sample handler modules of samples/lkst do what they say, and a
# handler module cannot be removed while a maskset uses it.  Test points
# that need a module the kernel was built without are skipped.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset

M=$LKST/masksets
NL='
'
TMP=$(mktemp -d)

# A task that keeps making system calls and context switches.
sh -c 'while :; do sleep 0.05; done' &
BUSY1=$!
sh -c 'while :; do sleep 0.05; done' &
BUSY2=$!
trap 'kill $BUSY1 $BUSY2; rm -rf "$TMP"' EXIT

# Record with maskset $1 for a while; then the records of user buffer
# $2, or of the default buffer (lkst_text) -> $TMP/t
record()
{
	lkst_clear
	[ -z "${2:-}" ] || lkst_clear "$2"
	echo "$1" > "$LKST/maskset"
	sleep 0.5
	echo RNOTHING > "$LKST/maskset"
	lkst_text "${2:-}" > "$TMP/t"
}

# Every line of $TMP/t has pid $1 in the pid column, and there are some.
only_pid()
{
	n=$(wc -l < "$TMP/t")
	other=$(awk -v p="$1" '$4 != p' "$TMP/t" | head -3)
	echo "# $n lines"
	[ -z "$other" ] || echo "$other" | sed 's/^/# other pid: /'
	[ "$n" -gt 0 ] && [ -z "$other" ]
}

PF=/sys/module/lkst_pid_filter/parameters/target_pid

# Later test points of a module skip when it could not be loaded.
have()
{
	grep -q "^$1 " /proc/modules || return "$KSFT_SKIP"
}

test_pid_filter_registers_the_PID_FILTER_handler()
{
	lkst_modprobe lkst_pid_filter || return
	[ -n "$(handler_id PID_FILTER)" ]
}


test_pid_filter_records_nothing_by_default()
{
	have lkst_pid_filter || return
	lkst_w -a "$LKST/user_masksets" pf > /dev/null
	printf 'PROCESS_CONTEXTSWITCH PID_FILTER\nSYSCALL_ENTRY PID_FILTER\n' > "$M/pf"
	expect target -1 "$(cat $PF)" || return 1
	record pf
	expect lines 0 "$(wc -l < "$TMP/t")"
}

test_pid_filter_records_only_the_target_pid()
{
	have lkst_pid_filter || return
	echo $BUSY1 > $PF
	record pf
	only_pid $BUSY1
}

test_pid_filter_records_carry_its_handler_id()
{
	have lkst_pid_filter || return
	id=$(handler_id PID_FILTER)
	! grep -v " handler=$id\$" "$TMP/t" | grep -q .
}

test_pid_filter_target_can_be_changed_while_in_use()
{
	have lkst_pid_filter || return
	echo pf > "$LKST/maskset"
	echo $BUSY2 > $PF
	record pf
	only_pid $BUSY2
}

test_pid_filter_rejects_a_bad_target()
{
	have lkst_pid_filter || return
	expect "-5" EINVAL "$(lkst_w $PF -5)" &&
	expect "abc" EINVAL "$(lkst_w $PF abc)" &&
	expect target $BUSY2 "$(cat $PF)"
}

test_rmmod_of_a_handler_in_use_is_refused()
{
	have lkst_pid_filter || return
	# pf is not current: being named in a table is enough
	if rmmod lkst_pid_filter 2> "$TMP/err"; then
		echo "# rmmod succeeded"
		return 1
	fi
	sed 's/^/# /' "$TMP/err"
	grep -q '^lkst_pid_filter ' /proc/modules &&
	grep -q "^[0-9]* PID_FILTER\$" "$LKST/available_handlers"
}

test_rmmod_succeeds_once_no_maskset_uses_the_handler()
{
	have lkst_pid_filter || return
	echo '#' > "$M/pf"
	rmmod lkst_pid_filter &&
	! grep -q PID_FILTER "$LKST/available_handlers" &&
	expect "line with the removed handler" EINVAL \
		"$(lkst_w -t "$M/pf" "PROCESS_FORK PID_FILTER")"
}

ESC=/sys/module/lkst_escalate/parameters

test_escalate_refuses_to_load_without_its_detail_maskset()
{
	modprobe -q -n lkst_escalate || return "$KSFT_SKIP"
	! modprobe lkst_escalate detail=nosuch 2> /dev/null &&
	! grep -q '^lkst_escalate ' /proc/modules
}

test_escalate_switches_to_the_detail_maskset_on_SIGSEGV()
{
	lkst_w -a "$LKST/user_masksets" quiet > /dev/null
	lkst_w -a "$LKST/user_masksets" detail > /dev/null
	lkst_w -t "$M/detail" \
		"PROCESS_CONTEXTSWITCH DEFAULT${NL}PROCESS_SIGSEND DEFAULT" > /dev/null
	lkst_modprobe lkst_escalate detail=detail || return
	lkst_w -t "$M/quiet" "PROCESS_SIGSEND ESCALATE${NL}PROCESS_EXIT DEFAULT" > /dev/null
	lkst_clear
	echo quiet > "$LKST/maskset"

	"$LKST_DIR/lkst_poll" "$LKST/notify" 10000 > "$TMP/poll" &
	POLLER=$!
	while ! grep -q waiting "$TMP/poll"; do sleep 0.05; done

	sleep 10 &
	VICTIM=$!
	kill -TERM $VICTIM
	wait $VICTIM 2> /dev/null
	expect "after SIGTERM" quiet "$(cat "$LKST/maskset")" || return 1
	sleep 10 &
	VICTIM=$!
	kill -SEGV $VICTIM
	wait $VICTIM 2> /dev/null
	expect "after SIGSEGV" detail "$(cat "$LKST/maskset")"
}

test_escalate_wakes_up_a_poller_of_notify_with_the_event_as_reason()
{
	have lkst_escalate || return
	wait $POLLER
	rc=$?
	sed 's/^/# poller: /' "$TMP/poll"
	expect poller 0 $rc &&
	grep -qE '^ready [0-9]+ 3$' "$TMP/poll"
}

test_escalate_records_the_signal_that_triggered_it()
{
	have lkst_escalate || return
	id=$(handler_id ESCALATE)
	grep -E "PROCESS_SIGSEND: sig=11 pid=$VICTIM .* handler=$id\$" "$LKST_INST/trace" &&
	expect escalations 1 "$(cat $ESC/escalations)"
}

test_escalate_switches_on_a_slow_system_call()
{
	have lkst_escalate || return
	lkst_w -t "$M/quiet" "SYSCALL_ENTRY ESCALATE${NL}SYSCALL_EXIT ESCALATE" > /dev/null
	# Generous: even a fork and exec under emulation (TCG, with KASAN on
	# a loaded host) is faster than 4 s.
	echo 4000000 > $ESC/slow_syscall_us
	lkst_clear
	echo quiet > "$LKST/maskset"
	sleep 0.1
	expect "after fast calls" quiet "$(cat "$LKST/maskset")" || return 1
	sleep 4.5
	expect "after a slow call" detail "$(cat "$LKST/maskset")" &&
	id=$(handler_id ESCALATE)
	grep -E "SYSCALL_EXIT: nr=[0-9]+ ret=[-0-9]+ handler=$id\$" "$LKST_INST/trace"
}

test_a_maskset_held_by_escalate_cannot_be_removed()
{
	have lkst_escalate || return
	echo RNOTHING > "$LKST/maskset"
	expect remove EBUSY "$(lkst_w -a "$LKST/user_masksets" '!detail')"
}

test_escalate_can_be_removed_once_no_maskset_uses_it()
{
	have lkst_escalate || return
	echo '#' > "$M/quiet"
	rmmod lkst_escalate &&
	expect remove OK "$(lkst_w -a "$LKST/user_masksets" '!detail')"
}

RD=/sys/module/lkst_redirect/parameters

test_redirect_refuses_to_load_without_its_buffer()
{
	modprobe -q -n lkst_redirect || return "$KSFT_SKIP"
	! modprobe lkst_redirect buffer=nosuch 2> /dev/null
}

test_redirect_sends_the_target_pid_to_its_own_buffer()
{
	lkst_w -a "$LKST/user_buffers" capture > /dev/null
	lkst_modprobe lkst_redirect buffer=capture target_pid=$BUSY1 || return
	lkst_w -a "$LKST/user_masksets" rd > /dev/null
	lkst_w -t "$M/rd" "PROCESS_CONTEXTSWITCH REDIRECT${NL}SYSCALL_ENTRY REDIRECT" > /dev/null
	record rd capture
	only_pid $BUSY1
}

test_redirect_sends_other_pids_to_the_buffer_of_the_maskset_line()
{
	have lkst_redirect || return
	lkst_text > "$TMP/t"
	n=$(wc -l < "$TMP/t")
	echo "# $n lines in the default buffer"
	[ "$n" -gt 0 ] && ! awk -v p="$BUSY1" '$4 == p' "$TMP/t" | grep -q .
}

test_redirect_target_can_be_changed_while_in_use()
{
	have lkst_redirect || return
	echo $BUSY2 > $RD/target_pid
	record rd capture
	only_pid $BUSY2
}

test_redirect_can_be_removed_once_no_maskset_uses_it()
{
	have lkst_redirect || return
	echo '#' > "$M/rd"
	rmmod lkst_redirect &&
	expect "remove buffer" OK "$(lkst_w -a "$LKST/user_buffers" '!capture')"
}

lkst_run_tests \
	test_pid_filter_registers_the_PID_FILTER_handler \
	test_pid_filter_records_nothing_by_default \
	test_pid_filter_records_only_the_target_pid \
	test_pid_filter_records_carry_its_handler_id \
	test_pid_filter_target_can_be_changed_while_in_use \
	test_pid_filter_rejects_a_bad_target \
	test_rmmod_of_a_handler_in_use_is_refused \
	test_rmmod_succeeds_once_no_maskset_uses_the_handler \
	test_escalate_refuses_to_load_without_its_detail_maskset \
	test_escalate_switches_to_the_detail_maskset_on_SIGSEGV \
	test_escalate_wakes_up_a_poller_of_notify_with_the_event_as_reason \
	test_escalate_records_the_signal_that_triggered_it \
	test_escalate_switches_on_a_slow_system_call \
	test_a_maskset_held_by_escalate_cannot_be_removed \
	test_escalate_can_be_removed_once_no_maskset_uses_it \
	test_redirect_refuses_to_load_without_its_buffer \
	test_redirect_sends_the_target_pid_to_its_own_buffer \
	test_redirect_sends_other_pids_to_the_buffer_of_the_maskset_line \
	test_redirect_target_can_be_changed_while_in_use \
	test_redirect_can_be_removed_once_no_maskset_uses_it
