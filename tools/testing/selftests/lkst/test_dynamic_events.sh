#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Dynamic events (lkst/dynamic_events): definitions read back, bad ones
# are refused with the documented errno and an error_log entry and create
# nothing, a probe on do_sys_openat2() records the exact flags of a
# shell's open(), probes are armed only while the current maskset uses
# them, removal rules, a switch storm, and the module of a probed symbol
# pinned while the event exists.  The KUnit suite of the parser runs here
# too (it needs kprobes, which UML has not).

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset
DE=$LKST/dynamic_events
if [ ! -f "$DE" ]; then
	ktap_skip_all "no dynamic_events (CONFIG_LKST_DYNAMIC_EVENTS=n)"
	exit "$KSFT_SKIP"
fi
# The probes on do_sys_openat2(): an open()'s dfd, flags and mode, its fd
OPEN='p:SELFTEST_OPEN do_sys_openat2 dfd=$arg1:s32 flags=+0($arg3):x64 mode=+8($arg3):x64'
OPENED='r:SELFTEST_OPENED do_sys_openat2 fd=$retval:s32'

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
KPROBES=/sys/kernel/debug/kprobes/list

# Route the events $2... to DEFAULT in user maskset $1.
route()
{
	ms=$1
	shift
	grep -qx "$ms" "$LKST/user_masksets" || echo "$ms" >> "$LKST/user_masksets"
	for e in "$@"; do
		echo "$e DEFAULT"
	done > "$LKST/masksets/$ms"
}

# No dynamic event, and no maskset naming one.
dyn_clean()
{
	echo RNOTHING > "$LKST/maskset"
	for m in dyn dyn2 hunt; do
		[ -f "$LKST/masksets/$m" ] && echo '#' > "$LKST/masksets/$m"
	done
	true > "$DE"
}

# The smallest offset in function $1 that is an instruction boundary
# (where a probe may go), by trying: "" if none below 16.
first_offset()
{
	for o in $(seq 1 15); do
		if [ "$(lkst_w -a "$DE" "p:SELFTEST_TRY $1+$o")" = OK ]; then
			echo '-:SELFTEST_TRY' >> "$DE"
			echo "$o"
			return
		fi
	done
}

# The kprobes list line of the probe at symbol $1 ("" if none)
kprobe_line()
{
	[ -r "$KPROBES" ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	grep -E " $1\+0x0( |\$)" "$KPROBES" 2>/dev/null
}

test_kunit_parser_suite_passes()
{
	if ! modprobe -q -n lkst_dynevent_kunit; then
		echo "# lkst_dynevent_kunit not built (CONFIG_LKST_KUNIT_TEST=n)"
		return "$KSFT_SKIP"
	fi
	dmesg_mark
	modprobe lkst_dynevent_kunit || return 1
	rmmod lkst_dynevent_kunit
	dmesg | tail -n +$((DMESG_LINES + 1)) | sed 's/^\[[^]]*\] //' > "$TMP/ktap"
	if grep -q 'kunit: disabled' "$TMP/ktap"; then
		echo "# KUnit is disabled (kunit.enable=0)"
		return "$KSFT_SKIP"
	fi
	grep -E '^ *not ok|FAILED|Expected' "$TMP/ktap" | sed 's/^/# /'
	expect "KUnit lkst_dynevent" "ok 1 lkst_dynevent" \
		"$(grep -E '^(not )?ok [0-9]+ lkst_dynevent$' "$TMP/ktap")" &&
	grep -E '^# Totals: pass:[1-9][0-9]* fail:0 ' "$TMP/ktap" | sed 's/^/# /' |
		grep -q Totals
}

test_definitions_read_back_and_appear_in_available_events()
{
	dyn_clean
	offs=$(first_offset do_sys_openat2)
	[ -n "$offs" ] || { echo "# no instruction boundary in do_sys_openat2+1..15"; return 1; }
	expect p OK "$(lkst_w -t "$DE" "$OPEN")" &&
	expect r OK "$(lkst_w -a "$DE" "$OPENED")" &&
	expect offset OK "$(lkst_w -a "$DE" "p:SELFTEST_OFFS do_sys_openat2+$offs %ax")" &&
	expect dynamic_events "$OPEN
$OPENED
p:SELFTEST_OFFS do_sys_openat2+$offs arg0=%ax" "$(cat "$DE")" &&
	expect available_events "SELFTEST_OPEN dfd flags mode -
SELFTEST_OPENED fd - - -
SELFTEST_OFFS arg0 - - -" "$(grep SELFTEST "$LKST/available_events" | cut -d' ' -f2-)" &&
	ids=$(awk '/SELFTEST/ { print $1 }' "$LKST/available_events" | tr '\n' ' ') &&
	for id in $ids; do
		[ "$id" -ge 256 ] && [ "$id" -le 319 ] ||
			{ echo "# ID $id outside 256-319"; return 1; }
	done &&
	expect "RALL, RDEFAULT" "" \
		"$(grep SELFTEST "$LKST/masksets/RALL" "$LKST/masksets/RDEFAULT")"
}

# bad LINE ERRNO TEXT: refused with ERRNO, TEXT in error_log, nothing new.
bad()
{
	before=$(cat "$DE")
	events=$(cat "$LKST/available_events")
	true > "$TRACING/error_log"
	expect "$1" "$2" "$(lkst_w -a "$DE" "$1")" &&
	error_log_has "$3" &&
	expect "dynamic_events after '$1'" "$before" "$(cat "$DE")" &&
	expect "available_events after '$1'" "$events" "$(cat "$LKST/available_events")"
}

test_bad_definitions_are_refused_and_logged()
{
	dyn_clean
	echo 'p:SELFTEST_KEEP do_sys_openat2' > "$DE"
	bad 'p:SELFTEST_X lkst_no_such_function' ENOENT 'Unknown symbol' &&
	grep -q '^ *\^' "$TRACING/error_log" &&
	bad 'p:SELFTEST_X do_sys_openat2+1' EILSEQ 'not an instruction boundary' &&
	bad 'p:SELFTEST_X kprobe_int3_handler' EINVAL 'Cannot probe here' &&
	bad 'r:SELFTEST_X do_sys_openat2+4' EINVAL 'A return probe takes a function' &&
	bad 'p:SELFTEST_X do_sys_openat2 %zz' EINVAL 'Invalid register name' &&
	bad 'p:SELFTEST_X do_sys_openat2 +0($arg2):string %di' EINVAL 'a string only last' &&
	bad 'p:SELFTEST_X do_sys_openat2 $arg1:symstr' EINVAL 'no array or symstr' &&
	bad 'p:SELFTEST_X do_sys_openat2 $arg1 $arg2 $arg3 $arg4 $arg5' E2BIG \
		'At most 4 fetchargs' &&
	bad 'p:SELFTEST_KEEP do_sys_openat2' EEXIST 'Name already exists' &&
	bad 'p:PROCESS_FORK do_sys_openat2' EEXIST 'Name already exists' &&
	bad 'p:lower do_sys_openat2' EINVAL 'Event names are' &&
	bad 'p:SELFTEST_X mod:do_sys_openat2' EINVAL 'Unknown symbol' &&
	bad 'x:SELFTEST_X do_sys_openat2' EINVAL 'Expected p:NAME' &&
	bad '-:SELFTEST_NONE' ENOENT 'No such name' || return 1
	# a name that several static functions of the kernel have
	dup=$(awk 'NF == 3 && $2 ~ /^[tT]$/ && $3 !~ /[.$]/ { print $3 }' /proc/kallsyms |
		sort | uniq -d | head -n 1)
	[ -z "$dup" ] ||
		bad "p:SELFTEST_X $dup" EADDRNOTAVAIL 'Several functions have this name'
}

test_open_flags_in_the_trace_text()
{
	dyn_clean
	echo "$OPEN" > "$DE"
	echo "$OPENED" >> "$DE"
	# the file name, a user string, in the argument slots
	echo 'p:SELFTEST_NAME do_sys_openat2 name=+0($arg2):ustring' >> "$DE"
	route dyn SELFTEST_OPEN SELFTEST_OPENED SELFTEST_NAME
	lkst_clear
	echo dyn > "$LKST/maskset"
	# O_WRONLY|O_CREAT|O_TRUNC and the kernel's O_LARGEFILE, mode 0666
	pid=$(sh -c ": > $TMP/file; echo \$\$")
	echo RNOTHING > "$LKST/maskset"
	lkst_text > "$TMP/all"
	grep " $pid SELFTEST_NAME" "$TMP/all" > "$TMP/n"
	grep " $pid SELFTEST_OPEN" "$TMP/all" > "$TMP/t"
	sed 's/^/# /' "$TMP/t"
	expect "its name" 1 "$(grep -cF "SELFTEST_NAME: name=\"$TMP/file\"" "$TMP/n")" &&
	expect "the open of $TMP/file" 1 \
		"$(grep -c 'SELFTEST_OPEN: dfd=-100 flags=0x8241 mode=0x1b6$' "$TMP/t")" &&
	grep -A1 'flags=0x8241 mode=0x1b6$' "$TMP/t" | tail -n 1 |
		grep -Eq ' \. +[0-9]+ SELFTEST_OPENED: fd=[0-9]+$' &&
	# a task's open: recorded in task context, not as the breakpoint's NMI
	expect "contexts" "" "$(grep -v '\] \. ' "$TMP/t")"
}

test_probes_are_armed_only_while_the_maskset_uses_them()
{
	dyn_clean
	echo 'p:SELFTEST_ARM vfs_read' > "$DE"
	if [ -z "$(kprobe_line vfs_read)" ]; then
		echo "# no $KPROBES (CONFIG_DEBUG_FS=n)"
		return "$KSFT_SKIP"
	fi
	route dyn SELFTEST_ARM
	echo "# defined: $(kprobe_line vfs_read)"
	kprobe_line vfs_read | grep -q DISABLED || return 1
	echo dyn > "$LKST/maskset"
	echo "# in use: $(kprobe_line vfs_read)"
	kprobe_line vfs_read | grep -q DISABLED && return 1
	echo RNOTHING > "$LKST/maskset"
	kprobe_line vfs_read | grep -q DISABLED || return 1
	# still named by maskset dyn: EBUSY, as kprobe_events says
	expect "truncation" EBUSY "$(lkst_w -t "$DE" '')" &&
	expect "after truncation" 'p:SELFTEST_ARM vfs_read' "$(cat "$DE")" &&
	echo '#' > "$LKST/masksets/dyn" &&
	true > "$DE" &&
	expect "kprobe after removal" "" "$(kprobe_line vfs_read)"
}

test_removal_of_an_event_a_maskset_names_is_ebusy()
{
	dyn_clean
	echo 'p:SELFTEST_A vfs_read' > "$DE"
	echo 'p:SELFTEST_B vfs_write' >> "$DE"
	echo 'p:SELFTEST_C vfs_open' >> "$DE"
	route dyn SELFTEST_A
	route dyn2 SELFTEST_B
	expect "remove A" EBUSY "$(lkst_w -a "$DE" '-:SELFTEST_A')" &&
	error_log_has 'In use' &&
	expect "remove C" OK "$(lkst_w -a "$DE" '-:SELFTEST_C')" &&
	echo 'p:SELFTEST_D vfs_open' >> "$DE" &&
	# all or nothing: D, named by no maskset, stays too
	expect "truncation" EBUSY "$(lkst_w -t "$DE" '')" &&
	error_log_has 'In use' &&
	expect "after truncation" "p:SELFTEST_A vfs_read
p:SELFTEST_B vfs_write
p:SELFTEST_D vfs_open" "$(sort "$DE")" &&
	echo '#' > "$LKST/masksets/dyn" &&
	expect "remove A, unused" OK "$(lkst_w -a "$DE" '-:SELFTEST_A')" &&
	echo '!dyn2' >> "$LKST/user_masksets" &&
	expect "remove B, maskset gone" OK "$(lkst_w -a "$DE" '-:SELFTEST_B')" &&
	expect "maskset line of a removed event" EINVAL \
		"$(lkst_w -t "$LKST/masksets/dyn" 'SELFTEST_A DEFAULT')"
}

test_switch_storm_with_dynamic_events()
{
	dyn_clean
	echo 'p:SELFTEST_READ vfs_read count=$arg3' > "$DE"
	echo 'r:SELFTEST_READ_RET vfs_read ret=$retval:s64' >> "$DE"
	route dyn SELFTEST_READ SELFTEST_READ_RET PROCESS_CONTEXTSWITCH
	dmesg_mark
	(for _ in $(seq 300); do cat "$LKST/available_events" > /dev/null; done) &
	reader=$!
	i=0
	while [ $i -lt 200 ]; do
		echo dyn > "$LKST/maskset"
		echo RNOTHING > "$LKST/maskset"
		echo "p:SELFTEST_S$((i % 5)) vfs_write" >> "$DE" 2>/dev/null
		echo "-:SELFTEST_S$(((i + 3) % 5))" >> "$DE" 2>/dev/null
		i=$((i + 1))
	done
	echo dyn > "$LKST/maskset"
	wait $reader
	# reads that are sure to happen while dyn is current, however fast
	# the reader was
	for _ in 1 2 3; do
		cat "$LKST/available_events" > /dev/null
	done
	echo RNOTHING > "$LKST/maskset"
	n=$(grep -c 'SELFTEST_READ: count=' "$LKST_INST/trace")
	echo "# $n SELFTEST_READ records"
	[ "$n" -gt 0 ] && dmesg_clean
}

test_probed_module_stays_until_the_event_is_removed()
{
	lkst_modprobe lkst_timer_victim || return
	dyn_clean
	free='p:SELFTEST_FREE victim_obj_free obj=$arg1 id=$arg2'
	echo "$free" > "$DE" || return 1
	expect "rmmod while probed" 1 "$(rmmod lkst_timer_victim 2>/dev/null; echo $?)" &&
	grep -q '^lkst_timer_victim ' /proc/modules &&
	expect "dynamic_events" "$free" "$(cat "$DE")" &&
	echo '-:SELFTEST_FREE' >> "$DE" &&
	expect "rmmod after removal" 0 "$(rmmod lkst_timer_victim; echo $?)" &&
	expect "probe on the unloaded module" ENOENT \
		"$(lkst_w -a "$DE" 'p:SELFTEST_FREE victim_obj_free')"
}

# The worked example of lkst.rst: which object's timer ran after it was freed?
test_worked_example_finds_the_timer_on_a_freed_object()
{
	lkst_modprobe lkst_timer_victim || return
	dyn_clean
	echo 'p:VICTIM_FREE victim_obj_free obj=$arg1 id=$arg2:u64' > "$DE"
	echo 'p:VICTIM_USE victim_obj_use obj=$arg1 id=$arg2:u64' >> "$DE"
	route hunt VICTIM_FREE VICTIM_USE
	lkst_clear
	echo hunt > "$LKST/maskset"
	echo 20 > /sys/module/lkst_timer_victim/parameters/run
	sleep 0.2
	echo RNOTHING > "$LKST/maskset"
	# sorted by time over both CPUs, then: a use of an id already freed
	lkst_text | grep VICTIM_ | sort -n > "$TMP/t"
	awk '/VICTIM_FREE:/ { split($NF, a, "="); freed[a[2]] = 1 }
	     /VICTIM_USE:/ { split($NF, a, "="); if (a[2] in freed) print }' \
		"$TMP/t" > "$TMP/uaf"
	sed 's/^/# /' "$TMP/uaf"
	# the timer ran in softirq context (s), on the object freed last
	expect "frees" 20 "$(grep -c VICTIM_FREE: "$TMP/t")" &&
	expect "uses after free" 1 "$(wc -l < "$TMP/uaf")" &&
	expect "the module's own count" 1 \
		"$(cat /sys/module/lkst_timer_victim/parameters/used_after_free)" &&
	grep -Eq '\] s +[0-9]+ VICTIM_USE: obj=0x[0-9a-f]+ id=19$' "$TMP/uaf"
}

lkst_run_tests \
	test_kunit_parser_suite_passes \
	test_definitions_read_back_and_appear_in_available_events \
	test_bad_definitions_are_refused_and_logged \
	test_open_flags_in_the_trace_text \
	test_probes_are_armed_only_while_the_maskset_uses_them \
	test_removal_of_an_event_a_maskset_names_is_ebusy \
	test_switch_storm_with_dynamic_events \
	test_probed_module_stays_until_the_event_is_removed \
	test_worked_example_finds_the_timer_on_a_freed_object
