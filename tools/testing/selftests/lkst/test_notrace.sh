#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# notrace_pids and notrace_fork: the list reads back as written, bad
# input changes nothing, and the events of a listed task (and, if asked,
# of its children) are not recorded while everybody else's are.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset
[ -f "$LKST/notrace_pids" ] || { ktap_skip_all "no notrace_pids"; exit "$KSFT_SKIP"; }

NP=$LKST/notrace_pids
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Events of task PID after its last recorded execve() returned (nr=59),
# and how many of them are getppid() (nr=110) entries and exits:
# "EVENTS GETPPIDS".
after_exec()
{
	grep -v '^#' "$LKST/trace" | awk -v p="$1" '
		$4 != p { next }
		{ n++; if (/ nr=110 /) g++ }
		/SYSCALL_EXIT: nr=59 / { n = 0; g = 0 }
		END { print n + 0, g + 0 }'
}

record_syscalls()
{
	grep -qx nt "$LKST/user_masksets" || echo nt >> "$LKST/user_masksets"
	printf 'SYSCALL_ENTRY DEFAULT\nSYSCALL_EXIT DEFAULT\n' > "$LKST/masksets/nt"
	echo 4096 > "$LKST/buffer_size_kb" 2>/dev/null
	echo 1 > "$LKST/clear"
	echo nt > "$LKST/maskset"
}

test_notrace_pids_is_empty_at_first()
{
	expect notrace_pids "" "$(cat "$NP")" &&
	expect notrace_fork 0 "$(cat "$LKST/notrace_fork")"
}

test_writing_replaces_and_appending_adds_in_ascending_order()
{
	expect write OK "$(lkst_w -t "$NP" '300 12')" &&
	expect write OK "$(lkst_w -a "$NP" 5)" &&
	expect notrace_pids "5 12 300" "$(cat "$NP" | tr '\n' ' ' | sed 's/ $//')" &&
	expect write OK "$(lkst_w -t "$NP" 7)" &&
	expect notrace_pids 7 "$(cat "$NP")"
}

test_bang_pid_removes_one_and_truncation_removes_all()
{
	echo '7 8 9' > "$NP" &&
	expect write OK "$(lkst_w -a "$NP" '!8')" &&
	expect notrace_pids "7 9" "$(cat "$NP" | tr '\n' ' ' | sed 's/ $//')" &&
	echo > "$NP" &&
	expect notrace_pids "" "$(cat "$NP")"
}

# A write-only open that seeks (as Python's "a" mode does) must work.
test_a_write_only_file_can_be_seeked()
{
	command -v python3 > /dev/null || return "$KSFT_SKIP"
	echo > "$NP"
	python3 -c 'import sys; f = open(sys.argv[1], "a"); f.seek(0, 2); f.write("5\n")' "$NP" &&
	expect notrace_pids 5 "$(cat "$NP")" &&
	echo > "$NP"
}

test_a_bad_pid_fails_with_EINVAL_and_changes_nothing()
{
	echo '7 9' > "$NP"
	true > "$LKST/error_log"
	for bad in '10 x11' 0 -3 '!' 4194305 '12!'; do
		expect "write '$bad'" EINVAL "$(lkst_w -a "$NP" "$bad")" || return 1
	done
	expect "write '11 x' after truncation" EINVAL "$(lkst_w -t "$NP" '11 x')" &&
	expect notrace_pids "7 9" "$(cat "$NP" | tr '\n' ' ' | sed 's/ $//')" &&
	error_log_has "lkst: notrace_pids: error: Not a pid: PID adds, !PID removes" &&
	error_log_has "Command: 10 x11" &&
	echo > "$NP"
}

test_a_bad_notrace_fork_value_fails_with_EINVAL()
{
	expect write EINVAL "$(lkst_w -t "$LKST/notrace_fork" maybe)" &&
	expect notrace_fork 0 "$(cat "$LKST/notrace_fork")"
}

test_a_listed_task_records_nothing_after_it_is_listed()
{
	record_syscalls
	sh -c "echo \$\$ > $TMP/pid; echo \$\$ >> $NP
	       exec $LKST_DIR/lkst_bench syscall 500" > /dev/null
	echo RNOTHING > "$LKST/maskset"
	pid=$(cat "$TMP/pid")
	# its last event is the entry of the write that listed it
	# Its last event is the entry of the write that listed it: nothing
	# of the exec and of lkst_bench's 500 getppid() calls after it.
	last=$(grep -v '^#' "$LKST/trace" | awk -v p="$pid" '$4 == p' | tail -n 1)
	case $last in
	*"SYSCALL_ENTRY: nr=1 "*) ;;
	*) echo "# last event of $pid: $last"; return 1 ;;
	esac
}

test_an_unlisted_task_is_recorded()
{
	record_syscalls
	echo 1 > "$NP"	# the list is not empty: the check is active
	sh -c "echo \$\$ > $TMP/pid; exec $LKST_DIR/lkst_bench syscall 500" > /dev/null
	echo RNOTHING > "$LKST/maskset"
	pid=$(cat "$TMP/pid")
	echo > "$NP"
	set -- $(after_exec "$pid")
	expect "getppid() events of the unlisted task after exec" 1000 "$2"
}

test_a_pid_leaves_the_list_when_its_task_exits()
{
	sh -c "echo \$\$ >> $NP; cat $NP > $TMP/list; echo \$\$ > $TMP/pid"
	pid=$(cat "$TMP/pid")
	grep -qx "$pid" "$TMP/list" || { echo "# $pid was not listed"; return 1; }
	sleep 0.2	# the task is freed after an RCU grace period
	expect notrace_pids "" "$(cat "$NP")"
}

# A listed shell starts a child that runs lkst_bench syscall 300.
child_events()
{
	record_syscalls
	sh -c "echo \$\$ >> $NP
	       $LKST_DIR/lkst_bench syscall 300 > /dev/null & echo \$! > $TMP/kid; wait"
	echo RNOTHING > "$LKST/maskset"
	set -- $(after_exec "$(cat "$TMP/kid")")
	echo "$2"
}

test_children_are_recorded_unless_notrace_fork_is_set()
{
	echo 0 > "$LKST/notrace_fork"
	expect "child's getppid() events, notrace_fork=0" 600 "$(child_events)" &&
	echo 1 > "$LKST/notrace_fork" &&
	expect "child's getppid() events, notrace_fork=1" 0 "$(child_events)"
	rc=$?
	echo 0 > "$LKST/notrace_fork"
	echo > "$NP"
	return $rc
}

# A listed task's context switches of its own: "OUTS INS SLEEPS", the
# switches away from it, to it, and away from it while it sleeps (S).
switches_of()
{
	grep -v '^#' "$LKST/trace" | awk -v p="$1" '
		$5 != "PROCESS_CONTEXTSWITCH:" { next }
		$6 == "prev=" p { o++; if ($8 == "state=S") s++ }
		$7 == "next=" p { i++ }
		END { print o + 0, i + 0, s + 0 }'
}

# ftrace's rule for set_event_notrace_pid: a switch is recorded unless both
# tasks are listed, a wakeup unless the waker and the woken task both are.
# So a listed task's life on the CPU is whole (as many switches away from
# it as to it, from fork to exit), and its wakeup of a child is recorded.
test_a_listed_task_still_shows_in_switches_and_wakeups()
{
	grep -qx ns "$LKST/user_masksets" || echo ns >> "$LKST/user_masksets"
	printf '%s DEFAULT\n' PROCESS_CONTEXTSWITCH PROCESS_WAKEUP \
		SYSCALL_ENTRY > "$LKST/masksets/ns"
	echo 4096 > "$LKST/buffer_size_kb" 2>/dev/null
	echo 0 > "$LKST/notrace_fork"
	echo 1 > "$LKST/clear"
	echo ns > "$LKST/maskset"
	sh -c "echo \$\$ > $TMP/pid; echo \$\$ >> $NP
	       sleep 0.1 & echo \$! > $TMP/kid; wait"
	pid=$(cat "$TMP/pid")
	kid=$(cat "$TMP/kid")
	# The parent is woken before the dying task's last switch away.
	for i in $(seq 20); do
		set -- $(switches_of "$pid")
		[ "$1" = "$2" ] && break
		sleep 0.1
	done
	echo RNOTHING > "$LKST/maskset"
	echo > "$NP"
	set -- $(switches_of "$pid")
	echo "# task $pid: $1 switches away, $2 to it, $3 asleep"
	expect "switches away from the listed task" "$2" "$1" || return 1
	[ "$3" -ge 1 ] || { echo "# no switch away while it waited"; return 1; }
	wakers=$(grep -v '^#' "$LKST/trace" | awk -v k="$kid" '
		$5 == "PROCESS_WAKEUP:" && $6 == "pid=" k && / new=1/ { print $4 }')
	expect "the listed task waking its new child" "$pid" "$wakers" || return 1
	# ... and nothing else of it: after the wakeup, its flag is its own
	# again (its last system call is the write that listed it).
	last=$(grep -v '^#' "$LKST/trace" |
	       awk -v p="$pid" '$4 == p && $5 == "SYSCALL_ENTRY:"' | tail -n 1)
	case $last in
	*"SYSCALL_ENTRY: nr=1 "*) ;;
	*) echo "# last system call of $pid: $last"; return 1 ;;
	esac
}

test_accounting_still_holds()
{
	identity_holds "$LKST"
}

lkst_run_tests \
	test_notrace_pids_is_empty_at_first \
	test_writing_replaces_and_appending_adds_in_ascending_order \
	test_bang_pid_removes_one_and_truncation_removes_all \
	test_a_write_only_file_can_be_seeked \
	test_a_bad_pid_fails_with_EINVAL_and_changes_nothing \
	test_a_bad_notrace_fork_value_fails_with_EINVAL \
	test_a_listed_task_records_nothing_after_it_is_listed \
	test_an_unlisted_task_is_recorded \
	test_a_pid_leaves_the_list_when_its_task_exits \
	test_children_are_recorded_unless_notrace_fork_is_set \
	test_a_listed_task_still_shows_in_switches_and_wakeups \
	test_accounting_still_holds
