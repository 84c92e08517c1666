#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Dynamic events: an LKST event bound ("NAME GROUP/EVENT" in
# lkst/dynamic_events) to a kprobe event of ftrace ("p:lkstst/NAME SYM
# ARGS" in dynamic_events).  Bindings read back and take the IDs 256-319
# in turn, bad ones are refused with the documented errno and an
# error_log entry and change nothing, ftrace refuses bad probe points on
# its own file, a bound kprobe event cannot be removed, a probe on
# do_sys_openat2() records the exact flags of a shell's open(), probes are
# armed only while the current maskset uses them (or ftrace its kprobe
# event, each then getting its record), removal rules, a switch storm, and
# a probed module (MOD:SYM) that unloads while bound and records again
# when it comes back.  The KUnit suite of the bindings runs
# here too (it needs kprobes, which UML has not).

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset
DE=$LKST/dynamic_events
if [ ! -f "$DE" ]; then
	ktap_skip_all "no dynamic_events (CONFIG_LKST_DYNAMIC_EVENTS=n)"
	exit "$KSFT_SKIP"
fi
# ftrace's file of the kprobe events
KP=$TRACING/dynamic_events
# The probes on do_sys_openat2(): an open()'s dfd, flags and mode, its fd
OPEN='p do_sys_openat2 dfd=$arg1:s32 flags=+0($arg3):x64 mode=+8($arg3):x64'
OPENED='r do_sys_openat2 fd=$retval:s32'
# error_log's text for a line that is not a binding or an unbinding
COMMAND='Expected NAME GROUP/EVENT or -:NAME'
# and for an argument LKST cannot record
NOT_NUMERIC='Numeric fetchargs, a string only last; no array or symstr'

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"; rmdir "$TRACING/instances/selftest_both" 2> /dev/null' EXIT
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

# No binding, no maskset naming one, no kprobe event of the group lkstst
# (nor of victim, the worked example's).
dyn_clean()
{
	echo RNOTHING > "$LKST/maskset"
	for m in dyn dyn2 hunt; do
		[ -f "$LKST/masksets/$m" ] && echo '#' > "$LKST/masksets/$m"
	done
	lkst_dyn_clean
	lkst_kprobe '-:victim/' || true
}

# The lines of ftrace's dynamic_events for the group lkstst, a return
# probe's "rN:" (N the maxactive kprobes chose) as "r:"
kp_lines()
{
	grep ":$LKST_DYN_GROUP/" "$KP" | sed 's/^r[0-9]*:/r:/'
}

# The smallest offset in function $1 that is an instruction boundary
# (where ftrace lets a kprobe event go), by trying: "" if none below 16.
first_offset()
{
	for o in $(seq 1 15); do
		if lkst_kprobe "p:$LKST_DYN_GROUP/SELFTEST_TRY $1+$o"; then
			lkst_kprobe "-:$LKST_DYN_GROUP/SELFTEST_TRY"
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

# The ID of LKST event $1 in available_events
event_id()
{
	awk -v n="$1" '$2 == n { print $1 }' "$LKST/available_events"
}

# The events $@, bound in this order, got IDs in turn: each in 256-319,
# each the one after the one before, 256 after 319.
ids_in_turn()
{
	prev=""
	for n in "$@"; do
		id=$(event_id "$n")
		if [ -z "$id" ] || [ "$id" -lt 256 ] || [ "$id" -gt 319 ]; then
			echo "# $n: ID '$id' outside 256-319"
			return 1
		fi
		if [ -n "$prev" ] && [ "$id" -ne $((256 + (prev - 255) % 64)) ]; then
			echo "# $n: ID $id after $prev"
			return 1
		fi
		prev=$id
	done
}

# The lines $@, "NAME ...", sorted by the ID of LKST event NAME
by_id()
{
	for l in "$@"; do
		echo "$(event_id "${l%% *}") $l"
	done | sort -n | cut -d' ' -f2-
}

# The caret of error_log's last entry is under word $2 (0 the first) of
# the line $1, whose words are one space apart, or after its end ("end",
# for a missing word).
caret_at()
{
	pos=${#1}
	if [ "$2" != end ]; then
		pos=0
		i=0
		for w in $1; do
			[ "$i" -eq "$2" ] && break
			pos=$((pos + ${#w} + 1))
			i=$((i + 1))
		done
	fi
	# under "  Command: LINE"
	expect "caret of '$1' (under word $2)" "$(printf "%$((11 + pos))s^" '')" \
		"$(grep '^ *\^$' "$TRACING/error_log" | tail -n 1)"
}

test_kunit_suite_passes()
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

# Both files read back: ftrace's the definitions, LKST's the bindings in
# ID order; LKST's argument names are the kprobe event's, ftrace's argN
# for an unnamed one.
test_definitions_read_back_and_appear_in_available_events()
{
	dyn_clean
	offs=$(first_offset do_sys_openat2)
	[ -n "$offs" ] || { echo "# no instruction boundary in do_sys_openat2+1..15"; return 1; }
	lkst_dyn SELFTEST_OPEN "$OPEN" &&
	lkst_dyn SELFTEST_OPENED "$OPENED" &&
	lkst_dyn SELFTEST_OFFS "p do_sys_openat2+$offs \$stack0 \$stack1" &&
	# any kprobe event, under any name
	lkst_kprobe "p:$LKST_DYN_GROUP/selftest_other vfs_read" || return 1
	expect "bind SELFTEST_OTHER" OK \
		"$(lkst_w -a "$DE" 'SELFTEST_OTHER lkstst/selftest_other')" &&
	ids_in_turn SELFTEST_OPEN SELFTEST_OPENED SELFTEST_OFFS SELFTEST_OTHER &&
	expect "ftrace's dynamic_events" "p:lkstst/SELFTEST_OPEN ${OPEN#p }
r:lkstst/SELFTEST_OPENED ${OPENED#r }
p:lkstst/SELFTEST_OFFS do_sys_openat2+$offs arg1=\$stack0 arg2=\$stack1
p:lkstst/selftest_other vfs_read" "$(kp_lines)" &&
	expect "dynamic_events, in ID order" "$(by_id \
		'SELFTEST_OPEN lkstst/SELFTEST_OPEN' \
		'SELFTEST_OPENED lkstst/SELFTEST_OPENED' \
		'SELFTEST_OFFS lkstst/SELFTEST_OFFS' \
		'SELFTEST_OTHER lkstst/selftest_other')" "$(cat "$DE")" &&
	expect available_events "SELFTEST_OFFS arg1 arg2 - -
SELFTEST_OPEN dfd flags mode -
SELFTEST_OPENED fd - - -
SELFTEST_OTHER - - - -" "$(grep ' SELFTEST_' "$LKST/available_events" | cut -d' ' -f2- | sort)" &&
	expect "RALL, RDEFAULT" "" \
		"$(grep SELFTEST "$LKST/masksets/RALL" "$LKST/masksets/RDEFAULT")"
}

# 64 bindings take each of the IDs 256-319, in turn; a 65th is ENOSPC
# until one goes, and then takes the ID that went.
test_64_bindings_take_the_ids_256_to_319_in_turn()
{
	dyn_clean
	for i in $(seq 65); do
		echo "p:$LKST_DYN_GROUP/SELFTEST_N$i vfs_read"
	done >> "$KP"
	expect "kprobe events" 65 "$(grep -c ":$LKST_DYN_GROUP/SELFTEST_N" "$KP")" ||
		return 1
	names=""
	for i in $(seq 64); do
		r=$(lkst_w -a "$DE" "SELFTEST_N$i lkstst/SELFTEST_N$i")
		[ "$r" = OK ] || { echo "# binding $i: $r"; return 1; }
		names="$names SELFTEST_N$i"
	done
	# shellcheck disable=SC2086 # one name a word
	ids_in_turn $names &&
	expect IDs "$(seq 256 319)" \
		"$(awk '$2 ~ /^SELFTEST_N/ { print $1 }' "$LKST/available_events" | sort -n)" &&
	id1=$(event_id SELFTEST_N1) &&
	true > "$TRACING/error_log" &&
	expect "65th binding" ENOSPC "$(lkst_w -a "$DE" 'SELFTEST_N65 lkstst/SELFTEST_N65')" &&
	error_log_has 'lkst: dynamic_events: error: Too many user objects' &&
	expect bindings 64 "$(wc -l < "$DE")" &&
	expect "unbind SELFTEST_N1" OK "$(lkst_w -a "$DE" '-:SELFTEST_N1')" &&
	expect "65th binding, one gone" OK \
		"$(lkst_w -a "$DE" 'SELFTEST_N65 lkstst/SELFTEST_N65')" &&
	expect "its ID" "$id1" "$(event_id SELFTEST_N65)"
}

# bad LINE ERRNO TEXT [WORD]: the write of LINE to lkst/dynamic_events is
# refused with ERRNO and TEXT in error_log, the caret under word WORD (0
# the first, or "end") if given; no binding, LKST event or kprobe event
# came or went.
bad()
{
	before=$(cat "$DE")
	events=$(cat "$LKST/available_events")
	kprobes=$(cat "$KP")
	true > "$TRACING/error_log"
	expect "$1" "$2" "$(lkst_w -a "$DE" "$1")" &&
	error_log_has "lkst: dynamic_events: error: $3" &&
	{ [ -z "${4:-}" ] || caret_at "$1" "$4"; } &&
	expect "dynamic_events after '$1'" "$before" "$(cat "$DE")" &&
	expect "available_events after '$1'" "$events" "$(cat "$LKST/available_events")" &&
	expect "ftrace's dynamic_events after '$1'" "$kprobes" "$(cat "$KP")"
}

test_bad_bindings_are_refused_and_logged()
{
	dyn_clean
	lkst_dyn SELFTEST_KEEP 'p do_sys_openat2' &&
	# kprobe events ftrace takes, and LKST does not
	lkst_kprobe 'p:lkstst/SELFTEST_X do_sys_openat2' &&
	lkst_kprobe 'p:lkstst/SELFTEST_5 do_sys_openat2 $arg1 $arg2 $arg3 $arg4 $arg5' &&
	lkst_kprobe 'p:lkstst/SELFTEST_STR do_sys_openat2 name=+0($arg2):ustring dfd=$arg1:s32' &&
	lkst_kprobe 'p:lkstst/SELFTEST_SYM do_sys_openat2 $arg1:symstr' &&
	lkst_kprobe 'p:lkstst/SELFTEST_ARR do_sys_openat2 +0($arg3):u64[2]' &&
	# an array larger than the four arguments' 32 bytes
	lkst_kprobe 'p:lkstst/SELFTEST_ARR5 do_sys_openat2 +0($arg3):u64[5]' &&
	lkst_kprobe 'p:lkstst/SELFTEST_PAD do_sys_openat2 lkst_pad=$arg1' ||
		{ echo "# kprobe event refused: $LKST_ERR"; return 1; }
	long=SELFTEST_ABCDEFGHIJKLMNOPQRSTUV	# 31 characters
	# the caret under the word the error is about, after the line for
	# a missing one
	bad 'SELFTEST_X' EINVAL "$COMMAND" end &&
	bad 'SELFTEST_X SELFTEST_X' EINVAL "$COMMAND" 1 &&
	bad 'SELFTEST_X lkstst/SELFTEST_X extra' EINVAL "$COMMAND" 2 &&
	bad '-:SELFTEST_KEEP extra' EINVAL "$COMMAND" 1 &&
	# the definitions of earlier kernels
	bad 'p:SELFTEST_X do_sys_openat2' EINVAL "$COMMAND" &&
	bad 'r:SELFTEST_X do_sys_openat2 fd=$retval' EINVAL "$COMMAND" &&
	bad 'lower lkstst/SELFTEST_X' EINVAL 'Event names are' 0 &&
	bad '9X lkstst/SELFTEST_X' EINVAL 'Event names are' 0 &&
	bad "${long}W lkstst/SELFTEST_X" EINVAL 'Event names are' 0 &&
	bad 'PROCESS_FORK lkstst/SELFTEST_X' EEXIST 'Name already exists' 0 &&
	bad 'SELFTEST_KEEP lkstst/SELFTEST_X' EEXIST 'Name already exists' 0 &&
	bad 'SELFTEST_X lkstst/SELFTEST_NONE' ENOENT 'No such event' 1 &&
	bad 'SELFTEST_X selftest_none/SELFTEST_X' ENOENT 'No such event' 1 &&
	bad 'SELFTEST_X sched/sched_switch' EINVAL 'Not a kprobe event' 1 &&
	# LKST's own events, a fixed one and a dynamic one
	bad 'SELFTEST_X lkst/PROCESS_FORK' EINVAL 'Not a kprobe event' 1 &&
	bad 'SELFTEST_X lkst/SELFTEST_KEEP' EINVAL 'Not a kprobe event' 1 &&
	bad 'SELFTEST_Y lkstst/SELFTEST_KEEP' EBUSY 'Bound to another LKST event' 1 &&
	bad 'SELFTEST_X lkstst/SELFTEST_5' E2BIG 'At most 4 fetchargs' 1 &&
	bad 'SELFTEST_X lkstst/SELFTEST_STR' EINVAL "$NOT_NUMERIC" 1 &&
	bad 'SELFTEST_X lkstst/SELFTEST_SYM' EINVAL "$NOT_NUMERIC" 1 &&
	bad 'SELFTEST_X lkstst/SELFTEST_ARR' EINVAL "$NOT_NUMERIC" 1 &&
	bad 'SELFTEST_X lkstst/SELFTEST_ARR5' EINVAL "$NOT_NUMERIC" 1 &&
	bad 'SELFTEST_X lkstst/SELFTEST_PAD' EINVAL 'Argument name is a field of the record' 1 &&
	bad '-:SELFTEST_NONE' ENOENT 'No such name' 0 &&
	# the longest name
	expect "bind $long" OK "$(lkst_w -a "$DE" "$long lkstst/SELFTEST_X")" &&
	expect "unbind $long" OK "$(lkst_w -a "$DE" "-:$long")" || return 1
	# the other kinds of dynamic event that the kernel has
	for d in 'e:lkstst/selftest_ep sched/sched_switch' \
		 'p:lkstst/selftest_up /bin/sh:0x0' 's:selftest_syn u64 x'; do
		if ! lkst_kprobe "$d"; then
			echo "# not here: '$d' ($LKST_ERR)"
			continue
		fi
		ev=${d%% *}
		ev=${ev#*:}
		case $ev in */*) ;; *) ev=synthetic/$ev ;; esac
		r=0
		bad "SELFTEST_X $ev" EINVAL 'Not a kprobe event' 1 || r=1
		case $ev in synthetic/*) lkst_kprobe "-:$ev" ;; esac
		[ $r -eq 0 ] || return 1
	done
}

# bad_kprobe LINE ERRNO TEXT: ftrace refuses the kprobe event LINE on its
# dynamic_events with ERRNO and its own TEXT in error_log; nothing new.
bad_kprobe()
{
	kprobes=$(cat "$KP")
	true > "$TRACING/error_log"
	expect "$1" "$2" "$(lkst_w -a "$KP" "$1")" &&
	error_log_has "trace_kprobe: error: $3" &&
	expect "ftrace's dynamic_events after '$1'" "$kprobes" "$(cat "$KP")"
}

# Where a probe may go is ftrace's to say, before anything is bound.
test_ftrace_refuses_bad_probe_points()
{
	dyn_clean
	bad_kprobe 'p:lkstst/SELFTEST_X lkst_no_such_function' EINVAL \
		'Invalid probed address or symbol' &&
	bad_kprobe 'r:lkstst/SELFTEST_X do_sys_openat2+16' EINVAL \
		'Retprobe address must be an function entry' || return 1
	# a name that several static functions of the kernel have
	dup=$(awk 'NF == 3 && $2 ~ /^[tT]$/ && $3 !~ /[.$]/ { print $3 }' /proc/kallsyms |
		sort | uniq -d | head -n 1)
	if [ -n "$dup" ]; then
		bad_kprobe "p:lkstst/SELFTEST_X $dup" EINVAL 'The symbol is not unique' ||
			return 1
	fi
	[ "$(uname -m)" = x86_64 ] || return 0
	bad_kprobe 'p:lkstst/SELFTEST_X do_sys_openat2+1' EILSEQ \
		'Probe point is not an instruction boundary' &&
	# the kprobes blacklist
	bad_kprobe 'p:lkstst/SELFTEST_X kprobe_int3_handler' EINVAL \
		'Failed to register probe event'
}

# While bound, a kprobe event is busy: ftrace neither removes it nor,
# truncating its files, any other (the unbound one comes first in
# ftrace's list: a truncation that stopped at the bound one would have
# removed it); unbound, it is removed.
test_a_bound_kprobe_event_cannot_be_removed()
{
	dyn_clean
	lkst_kprobe 'p:lkstst/SELFTEST_FREE vfs_write' &&
	lkst_dyn SELFTEST_A 'p vfs_read' || return 1
	kprobes=$(cat "$KP")
	expect "remove lkstst/SELFTEST_A" EBUSY "$(lkst_w -a "$KP" '-:lkstst/SELFTEST_A')" &&
	expect "> dynamic_events" EBUSY "$(lkst_w -t "$KP" '')" &&
	expect "> kprobe_events" EBUSY "$(lkst_w -t "$TRACING/kprobe_events" '')" &&
	expect "ftrace's dynamic_events after" "$kprobes" "$(cat "$KP")" &&
	expect "lkst/dynamic_events after" 'SELFTEST_A lkstst/SELFTEST_A' "$(cat "$DE")" &&
	[ -d "$TRACING/events/lkst/SELFTEST_A" ] &&
	[ -d "$TRACING/events/lkstst/SELFTEST_A" ] &&
	expect unbind OK "$(lkst_w -a "$DE" '-:SELFTEST_A')" &&
	# the kprobe event is ftrace's: it stays
	expect "the kprobe event, unbound" 'p:lkstst/SELFTEST_FREE vfs_write
p:lkstst/SELFTEST_A vfs_read' "$(kp_lines)" &&
	expect "remove lkstst/SELFTEST_A, unbound" OK \
		"$(lkst_w -a "$KP" '-:lkstst/SELFTEST_A')" &&
	[ ! -e "$TRACING/events/lkstst/SELFTEST_A" ] &&
	expect "ftrace's dynamic_events at the end" 'p:lkstst/SELFTEST_FREE vfs_write' \
		"$(kp_lines)"
}

test_open_flags_in_the_trace_text()
{
	dyn_clean
	lkst_dyn SELFTEST_OPEN "$OPEN" &&
	lkst_dyn SELFTEST_OPENED "$OPENED" &&
	# the file name, a user string, in the argument slots
	lkst_dyn SELFTEST_NAME 'p do_sys_openat2 name=+0($arg2):ustring' || return 1
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
	lkst_dyn SELFTEST_ARM 'p vfs_read' || return 1
	if [ -z "$(kprobe_line vfs_read)" ]; then
		echo "# no $KPROBES (CONFIG_DEBUG_FS=n)"
		return "$KSFT_SKIP"
	fi
	route dyn SELFTEST_ARM
	echo "# bound: $(kprobe_line vfs_read)"
	kprobe_line vfs_read | grep -q DISABLED || return 1
	echo dyn > "$LKST/maskset"
	echo "# in use: $(kprobe_line vfs_read)"
	kprobe_line vfs_read | grep -q DISABLED && return 1
	echo RNOTHING > "$LKST/maskset"
	kprobe_line vfs_read | grep -q DISABLED || return 1
	# still named by maskset dyn: EBUSY, as kprobe_events says
	expect "truncation" EBUSY "$(lkst_w -t "$DE" '')" &&
	expect "after truncation" 'SELFTEST_ARM lkstst/SELFTEST_ARM' "$(cat "$DE")" &&
	echo '#' > "$LKST/masksets/dyn" &&
	true > "$DE" &&
	expect "after truncation, unused" "" "$(cat "$DE")" &&
	# unbound, the kprobe event stays, its probe disarmed
	kprobe_line vfs_read | grep -q DISABLED &&
	lkst_kprobe '-:lkstst/SELFTEST_ARM' &&
	expect "kprobe after removal" "" "$(kprobe_line vfs_read)"
}

# A kprobe event enabled in an ftrace instance as well keeps its kprobe
# armed for both: each hit gives ftrace its record and LKST its own while
# the maskset uses the event, ftrace alone otherwise.
test_a_kprobe_event_enabled_in_ftrace_too_records_in_both()
{
	dyn_clean
	lkst_dyn SELFTEST_BOTH 'p do_sys_openat2 dfd=$arg1:s32 flags=+0($arg3):x64' ||
		return 1
	route dyn SELFTEST_BOTH
	inst=$TRACING/instances/selftest_both
	mkdir "$inst" || return 1
	echo 1 > "$inst/events/lkstst/SELFTEST_BOTH/enable"
	lkst_clear
	echo dyn > "$LKST/maskset"
	# O_WRONLY|O_CREAT|O_TRUNC and the kernel's O_LARGEFILE
	armed=$(sh -c ": > $TMP/both; echo \$\$")
	echo RNOTHING > "$LKST/maskset"
	disarmed=$(sh -c ": > $TMP/both; echo \$\$")
	kp=$(kprobe_line do_sys_openat2)
	echo 0 > "$inst/events/lkstst/SELFTEST_BOTH/enable"
	# ftrace's kprobe record: "COMM-PID [CPU] FLAGS TIME: EVENT: (IP) ARGS"
	rec='SELFTEST_BOTH: \(do_sys_openat2\+0x[0-9a-f]+/0x[0-9a-f]+\) dfd=-100 flags=0x8241$'
	ft=$(grep -cE -- "-$armed +\[[0-9]+\] .* $rec" "$inst/trace")
	ft2=$(grep -cE -- "-$disarmed +\[[0-9]+\] .* $rec" "$inst/trace")
	rmdir "$inst"
	lkst_text > "$TMP/both.lkst"
	expect "ftrace's records of the open while LKST used it" 1 "$ft" &&
	expect "ftrace's records of the open after" 1 "$ft2" &&
	expect "LKST's records of the open while it used it" 1 \
		"$(grep -c " $armed SELFTEST_BOTH: dfd=-100 flags=0x8241$" "$TMP/both.lkst")" &&
	expect "LKST's records of the open after" 0 \
		"$(grep -c " $disarmed SELFTEST_BOTH: " "$TMP/both.lkst")" &&
	# armed for ftrace though the maskset no longer uses it
	{ [ ! -r "$KPROBES" ] || { echo "# after: $kp"; [ -n "$kp" ] &&
		! echo "$kp" | grep -q DISABLED; }; }
}

test_removal_of_an_event_a_maskset_names_is_ebusy()
{
	dyn_clean
	lkst_dyn SELFTEST_A 'p vfs_read' &&
	lkst_dyn SELFTEST_B 'p vfs_write' &&
	lkst_dyn SELFTEST_C 'p vfs_open' || return 1
	route dyn SELFTEST_A
	route dyn2 SELFTEST_B
	expect "remove A" EBUSY "$(lkst_w -a "$DE" '-:SELFTEST_A')" &&
	error_log_has 'In use' &&
	expect "remove C" OK "$(lkst_w -a "$DE" '-:SELFTEST_C')" &&
	lkst_dyn SELFTEST_D 'p vfs_open' &&
	# C's kprobe event, unbound, takes another name
	expect "bind E to lkstst/SELFTEST_C" OK \
		"$(lkst_w -a "$DE" 'SELFTEST_E lkstst/SELFTEST_C')" &&
	# all or nothing: D and E, named by no maskset, stay too
	expect "truncation" EBUSY "$(lkst_w -t "$DE" '')" &&
	error_log_has 'In use' &&
	expect "after truncation" "SELFTEST_A lkstst/SELFTEST_A
SELFTEST_B lkstst/SELFTEST_B
SELFTEST_D lkstst/SELFTEST_D
SELFTEST_E lkstst/SELFTEST_C" "$(sort "$DE")" &&
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
	lkst_dyn SELFTEST_READ 'p vfs_read count=$arg3' &&
	lkst_dyn SELFTEST_READ_RET 'r vfs_read ret=$retval:s64' || return 1
	route dyn SELFTEST_READ SELFTEST_READ_RET PROCESS_CONTEXTSWITCH
	dmesg_mark
	(for _ in $(seq 300); do
		cat "$LKST/available_events" "$DE" > /dev/null
	done) &
	reader=$!
	i=0
	while [ $i -lt 200 ]; do
		echo dyn > "$LKST/maskset"
		echo RNOTHING > "$LKST/maskset"
		# define and bind one, unbind and remove another
		n=SELFTEST_S$((i % 5))
		o=SELFTEST_S$(((i + 3) % 5))
		echo "p:lkstst/$n vfs_write" >> "$KP" 2>/dev/null
		echo "$n lkstst/$n" >> "$DE" 2>/dev/null
		echo "-:$o" >> "$DE" 2>/dev/null
		echo "-:lkstst/$o" >> "$KP" 2>/dev/null
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

# The ids of the SELFTEST_FREE records in the default buffer, in order
victim_frees()
{
	lkst_text | awk '$5 == "SELFTEST_FREE:" { print $NF }' | tr '\n' ' '
}

# Nothing pins the module of a probe: it unloads while bound and armed,
# the binding stays, and a MOD:SYM probe records again once it is back.
test_a_probed_module_unloads_while_bound_and_records_when_it_comes_back()
{
	rmmod lkst_timer_victim 2>/dev/null
	lkst_modprobe lkst_timer_victim bug=0 || return
	dyn_clean
	free='p lkst_timer_victim:victim_obj_free obj=$arg1 id=$arg2:u64'
	lkst_dyn SELFTEST_FREE "$free" || return 1
	route dyn SELFTEST_FREE
	dmesg_mark
	lkst_clear
	echo dyn > "$LKST/maskset"
	echo 2 > /sys/module/lkst_timer_victim/parameters/run
	before=$(victim_frees)
	rm=$(rmmod lkst_timer_victim; echo $?)
	gone=$(grep -c '^lkst_timer_victim ' /proc/modules)
	bound=$(cat "$DE")
	kprobes=$(kp_lines)
	lkst_clear
	modprobe lkst_timer_victim bug=0
	echo 3 > /sys/module/lkst_timer_victim/parameters/run
	echo RNOTHING > "$LKST/maskset"
	after=$(victim_frees)
	rmmod lkst_timer_victim
	expect "records before the rmmod" "id=0 id=1 " "$before" &&
	expect "rmmod while bound and armed" 0 "$rm" &&
	expect "lkst_timer_victim in /proc/modules" 0 "$gone" &&
	expect "lkst/dynamic_events while it is gone" \
		'SELFTEST_FREE lkstst/SELFTEST_FREE' "$bound" &&
	expect "ftrace's dynamic_events while it is gone" \
		"p:lkstst/SELFTEST_FREE ${free#p }" "$kprobes" &&
	expect "records after the modprobe" "id=0 id=1 id=2 " "$after" &&
	dmesg_clean
}

# The worked example of lkst/dynamic-events.rst: which object's timer ran after it was
# freed?  Its kprobe events are in a group of their own, victim.
test_worked_example_finds_the_timer_on_a_freed_object()
{
	dyn_clean
	# a fresh module: its ids and count start at 0
	rmmod lkst_timer_victim 2>/dev/null
	lkst_modprobe lkst_timer_victim || return
	args='obj=$arg1 id=$arg2:u64'
	if ! lkst_kprobe "p:victim/free lkst_timer_victim:victim_obj_free $args" ||
	   ! lkst_kprobe "p:victim/use lkst_timer_victim:victim_obj_use $args"; then
		echo "# kprobe event refused: $LKST_ERR"
		dyn_clean
		return 1
	fi
	# both bindings in one write
	r=$(lkst_w -a "$DE" "$(printf 'VICTIM_FREE victim/free\nVICTIM_USE victim/use')")
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
	uaf=$(cat /sys/module/lkst_timer_victim/parameters/used_after_free)
	# dynamic-events.rst's clean-up
	echo '#' > "$LKST/masksets/hunt"
	true > "$DE"
	rm=$(lkst_w -a "$KP" '-:victim/')
	expect "bind both" OK "$r" &&
	# the timer ran in softirq context (s), on the object freed last
	expect "frees" 20 "$(grep -c VICTIM_FREE: "$TMP/t")" &&
	expect "uses after free" 1 "$(wc -l < "$TMP/uaf")" &&
	expect "the module's own count" 1 "$uaf" &&
	grep -Eq '\] s +[0-9]+ VICTIM_USE: obj=0x[0-9a-f]+ id=19$' "$TMP/uaf" &&
	expect "remove the group victim" OK "$rm" &&
	expect "ftrace's dynamic_events of victim" "" "$(grep ':victim/' "$KP")"
}

lkst_run_tests \
	test_kunit_suite_passes \
	test_definitions_read_back_and_appear_in_available_events \
	test_64_bindings_take_the_ids_256_to_319_in_turn \
	test_bad_bindings_are_refused_and_logged \
	test_ftrace_refuses_bad_probe_points \
	test_a_bound_kprobe_event_cannot_be_removed \
	test_open_flags_in_the_trace_text \
	test_probes_are_armed_only_while_the_maskset_uses_them \
	test_a_kprobe_event_enabled_in_ftrace_too_records_in_both \
	test_removal_of_an_event_a_maskset_names_is_ebusy \
	test_switch_storm_with_dynamic_events \
	test_a_probed_module_unloads_while_bound_and_records_when_it_comes_back \
	test_worked_example_finds_the_timer_on_a_freed_object
