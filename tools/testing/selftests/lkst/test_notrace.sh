#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The pid lists of LKST's instance, ftrace's own set_event_notrace_pid and
# options/event-fork: the events of a listed task (and, with event-fork,
# of its children) are not recorded while everybody else's are, and the
# switches and wakeups it takes part in still are.  The lists' syntax is
# ftrace's, tested by ftrace's selftests.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset

NP=$LKST_INST/set_event_notrace_pid
FORK=$LKST_INST/options/event-fork
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Events of task PID after its last recorded execve() returned (nr=59),
# and how many of them are getppid() (nr=110) entries and exits:
# "EVENTS GETPPIDS", in user buffer NAME if given (see lkst_text).
after_exec()
{
	lkst_text "${2:-}" | awk -v p="$1" '
		$4 != p { next }
		{ n++; if (/ nr=110 /) g++ }
		/SYSCALL_EXIT: nr=59 / { n = 0; g = 0 }
		END { print n + 0, g + 0 }'
}

record_syscalls()
{
	grep -qx nt "$LKST/user_masksets" || echo nt >> "$LKST/user_masksets"
	printf 'SYSCALL_ENTRY DEFAULT\nSYSCALL_EXIT DEFAULT\n' > "$LKST/masksets/nt"
	echo 4096 > "$LKST_INST/buffer_size_kb" 2>/dev/null
	lkst_clear
	echo nt > "$LKST/maskset"
}

test_the_lists_are_empty_at_first()
{
	expect set_event_notrace_pid "" "$(cat "$NP")" &&
	expect set_event_pid "" "$(cat "$LKST_INST/set_event_pid")" &&
	expect event-fork 0 "$(cat "$FORK")"
}

# A task in instances/lkst's list is left out of the default buffer only:
# a user buffer follows the lists of its own instance, lkst.NAME.
test_the_lists_are_each_buffers_own()
{
	grep -qx nb "$LKST/user_buffers" || echo nb >> "$LKST/user_buffers"
	grep -qx nt2 "$LKST/user_masksets" || echo nt2 >> "$LKST/user_masksets"
	printf 'SYSCALL_ENTRY DEFAULT\nSYSCALL_EXIT DEFAULT nb\n' > "$LKST/masksets/nt2"
	lkst_clear
	echo nt2 > "$LKST/maskset"
	sh -c "echo \$\$ > $TMP/pid; echo \$\$ >> $NP
	       exec $LKST_DIR/lkst_bench syscall 100" > /dev/null
	echo RNOTHING > "$LKST/maskset"
	echo > "$NP"
	pid=$(cat "$TMP/pid")
	set -- $(after_exec "$pid" nb)
	last=$(lkst_text | awk -v p="$pid" '$4 == p' | tail -n 1)
	rc=0
	expect "getppid() exits in nb after the exec" 100 "$2" || rc=1
	# its last entry in lkst: the write that listed it
	case $last in
	*"SYSCALL_ENTRY: nr=1 "*) ;;
	*) echo "# last event of $pid in lkst: $last"; rc=1 ;;
	esac
	echo RNOTHING > "$LKST/maskset"
	echo '#' > "$LKST/masksets/nt2"
	echo '!nt2' >> "$LKST/user_masksets"
	echo '!nb' >> "$LKST/user_buffers"
	return $rc
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
	last=$(lkst_text | awk -v p="$pid" '$4 == p' | tail -n 1)
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

# With event-fork (which also makes children join the list)
test_a_pid_leaves_the_list_when_its_task_exits()
{
	echo 1 > "$FORK"
	sh -c "echo \$\$ >> $NP; cat $NP > $TMP/list; echo \$\$ > $TMP/pid"
	pid=$(cat "$TMP/pid")
	# the task is freed after an RCU grace period (lazy RCU: seconds)
	for i in $(seq 50); do
		left=$(cat "$NP")
		[ -z "$left" ] && break
		sleep 0.1
	done
	echo 0 > "$FORK"
	grep -qx "$pid" "$TMP/list" || { echo "# $pid was not listed"; return 1; }
	expect set_event_notrace_pid "" "$left"
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

test_children_are_recorded_unless_event_fork_is_set()
{
	echo 0 > "$FORK"
	expect "child's getppid() events, event-fork=0" 600 "$(child_events)" &&
	echo > "$NP" &&
	echo 1 > "$FORK" &&
	expect "child's getppid() events, event-fork=1" 0 "$(child_events)"
	rc=$?
	echo 0 > "$FORK"
	echo > "$NP"
	return $rc
}

# set_event_pid, the other list: only the listed task's events are
# recorded.  The task lists itself before it switches the maskset, so
# that nothing before the list is recorded.
test_set_event_pid_records_only_the_listed_task()
{
	record_syscalls
	echo RNOTHING > "$LKST/maskset"
	lkst_clear
	sh -c "echo \$\$ > $TMP/pid; echo \$\$ > $LKST_INST/set_event_pid
	       echo nt > $LKST/maskset
	       exec $LKST_DIR/lkst_bench syscall 200" > /dev/null
	echo RNOTHING > "$LKST/maskset"
	echo > "$LKST_INST/set_event_pid"
	pid=$(cat "$TMP/pid")
	others=$(lkst_text | awk -v p="$pid" '$4 != p' | wc -l)
	set -- $(after_exec "$pid")
	expect "getppid() events of the listed task after exec" 400 "$2" &&
	expect "events of other tasks" 0 "$others"
}

# A listed task's context switches of its own: "OUTS INS SLEEPS", the
# switches away from it, to it, and away from it while it sleeps (S).
switches_of()
{
	lkst_text | awk -v p="$1" '
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
	echo 4096 > "$LKST_INST/buffer_size_kb" 2>/dev/null
	echo 0 > "$FORK"
	lkst_clear
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
	wakers=$(lkst_text | awk -v k="$kid" '
		$5 == "PROCESS_WAKEUP:" && $6 == "pid=" k && / new=1/ { print $4 }')
	expect "the listed task waking its new child" "$pid" "$wakers" || return 1
	# ... and nothing else of it: after the wakeup, its flag is its own
	# again (its last system call is the write that listed it).
	last=$(lkst_text |
	       awk -v p="$pid" '$4 == p && $5 == "SYSCALL_ENTRY:"' | tail -n 1)
	case $last in
	*"SYSCALL_ENTRY: nr=1 "*) ;;
	*) echo "# last system call of $pid: $last"; return 1 ;;
	esac
}

lkst_run_tests \
	test_the_lists_are_empty_at_first \
	test_the_lists_are_each_buffers_own \
	test_a_listed_task_records_nothing_after_it_is_listed \
	test_an_unlisted_task_is_recorded \
	test_a_pid_leaves_the_list_when_its_task_exits \
	test_children_are_recorded_unless_event_fork_is_set \
	test_set_event_pid_records_only_the_listed_task \
	test_a_listed_task_still_shows_in_switches_and_wakeups
