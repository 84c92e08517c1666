#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The LKST control ABI from the shell: switching masksets, user masksets
# and their tables, and every way a write can be refused, with the errno
# and the error_log message the documentation promises.  A refused write
# must leave the old state untouched.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset

M=$LKST/masksets
NL='
'
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Each test that writes a table starts from an empty user maskset "m1".
fresh_m1()
{
	echo RNOTHING > "$LKST/maskset"
	true > "$TRACING/error_log"
	lkst_w -a "$LKST/user_masksets" '!m1' > /dev/null
	expect create OK "$(lkst_w -a "$LKST/user_masksets" m1)"
}

test_writing_a_builtin_name_to_maskset_switches_to_it()
{
	expect write OK "$(lkst_w "$LKST/maskset" RALL)" &&
	expect maskset RALL "$(cat "$LKST/maskset")" &&
	grep -qx '\[RALL\]' "$LKST/available_masksets" &&
	expect write OK "$(lkst_w "$LKST/maskset" "RNOTHING$NL")" &&
	expect maskset RNOTHING "$(cat "$LKST/maskset")"
}

test_unknown_maskset_name_is_rejected_with_EINVAL()
{
	true > "$TRACING/error_log"
	expect write EINVAL "$(lkst_w "$LKST/maskset" NOSUCH)" &&
	expect maskset RNOTHING "$(cat "$LKST/maskset")"
}

test_error_log_names_the_unknown_maskset()
{
	error_log_has "lkst: maskset: error: Unknown maskset" &&
	error_log_has "Command: NOSUCH"
}

test_too_long_maskset_name_is_rejected_with_EINVAL()
{
	expect write EINVAL "$(lkst_w "$LKST/maskset" "$(printf '%040d' 0)")"
}

test_appending_to_user_masksets_creates_an_empty_maskset()
{
	fresh_m1 &&
	expect user_masksets m1 "$(cat "$LKST/user_masksets")" &&
	grep -qx m1 "$LKST/available_masksets" &&
	[ -f "$M/m1" ] && expect table "" "$(cat "$M/m1")"
}

test_creating_an_existing_maskset_fails_with_EEXIST()
{
	expect m1 EEXIST "$(lkst_w -a "$LKST/user_masksets" m1)" &&
	expect RALL EEXIST "$(lkst_w -a "$LKST/user_masksets" RALL)"
}

test_bad_maskset_names_are_rejected_with_EINVAL()
{
	true > "$TRACING/error_log"
	for n in 'a.b' 'a/b' 'a*' "$(printf 'n%031d' 0)"; do
		expect "name $n" EINVAL "$(lkst_w -a "$LKST/user_masksets" "$n")" ||
			return 1
	done
	error_log_has "error: Invalid name"
}

test_a_31_character_name_is_accepted()
{
	n=$(printf 'n%030d' 0)
	expect create OK "$(lkst_w -a "$LKST/user_masksets" "$n")" &&
	expect remove OK "$(lkst_w -a "$LKST/user_masksets" "!$n")"
}

test_removing_an_unknown_maskset_fails_with_ENOENT()
{
	true > "$TRACING/error_log"
	expect remove ENOENT "$(lkst_w -a "$LKST/user_masksets" '!nosuch')" &&
	error_log_has "error: No such name"
}

test_removing_a_builtin_maskset_fails_with_EPERM()
{
	expect remove EPERM "$(lkst_w -a "$LKST/user_masksets" '!RALL')" &&
	grep -qx RALL "$LKST/available_masksets"
}

test_builtin_maskset_tables_are_read_only()
{
	cat "$M/RDEFAULT" > "$TMP/before"
	expect mode 440 "$(stat -c %a "$M/RDEFAULT")" &&
	expect write EPERM "$(lkst_w -t "$M/RDEFAULT" "PROCESS_FORK DEFAULT")" &&
	expect RDEFAULT "$(cat "$TMP/before")" "$(cat "$M/RDEFAULT")"
}

test_a_written_table_reads_back_in_event_ID_order()
{
	fresh_m1 &&
	expect write OK "$(lkst_w -t "$M/m1" "PROCESS_EXIT DEFAULT${NL}PROCESS_FORK DEFAULT$NL")" &&
	expect table "PROCESS_FORK DEFAULT${NL}PROCESS_EXIT DEFAULT" "$(cat "$M/m1")"
}

test_writing_a_table_replaces_the_whole_table()
{
	expect write OK "$(lkst_w -t "$M/m1" "PROCESS_EXEC DEFAULT")" &&
	expect table "PROCESS_EXEC DEFAULT" "$(cat "$M/m1")"
}

test_comments_blank_lines_and_extra_blanks_are_ignored()
{
	expect write OK "$(lkst_w -t "$M/m1" "# a comment$NL$NL	PROCESS_FORK   DEFAULT  $NL")" &&
	expect table "PROCESS_FORK DEFAULT" "$(cat "$M/m1")"
}

test_a_NOTHING_line_reads_back_as_written()
{
	expect write OK "$(lkst_w -t "$M/m1" "PROCESS_FORK NOTHING")" &&
	expect table "PROCESS_FORK NOTHING" "$(cat "$M/m1")"
}

# ">>" adds lines to the table (a line for a listed event replaces it).
test_appending_adds_to_the_table()
{
	expect write OK "$(lkst_w -t "$M/m1" "PROCESS_FORK DEFAULT")" &&
	printf 'PROCESS_EXIT DEFAULT\nPROCESS_FORK NOTHING\n' >> "$M/m1" &&
	expect table "PROCESS_FORK NOTHING${NL}PROCESS_EXIT DEFAULT" "$(cat "$M/m1")"
}

# bad_line TEXT MESSAGE: the write fails with EINVAL, the message is in
# error_log, and the table is what it was.
bad_line()
{
	echo RNOTHING > "$LKST/maskset"
	lkst_w -t "$M/m1" "PROCESS_FORK DEFAULT" > /dev/null
	true > "$TRACING/error_log"
	expect write EINVAL "$(lkst_w -t "$M/m1" "PROCESS_EXIT DEFAULT$NL$1$NL")" &&
	error_log_has "lkst: masksets/m1: error: $2" &&
	expect "table after the failed write" "PROCESS_FORK DEFAULT" "$(cat "$M/m1")"
}

test_unknown_event_is_rejected_with_EINVAL()
{
	bad_line "NO_SUCH_EVENT DEFAULT" "Unknown event"
}

test_unknown_handler_is_rejected_with_EINVAL()
{
	bad_line "PROCESS_WAKEUP NO_SUCH_HANDLER" "Unknown handler"
}

test_unknown_buffer_is_rejected_with_EINVAL()
{
	bad_line "PROCESS_WAKEUP DEFAULT nosuchbuffer" "Unknown buffer"
}

test_duplicate_event_is_rejected_with_EINVAL()
{
	bad_line "PROCESS_EXIT DEFAULT" "Duplicate event"
}

test_missing_handler_is_rejected_with_EINVAL()
{
	bad_line "PROCESS_WAKEUP" "Missing handler"
}

test_extra_field_is_rejected_with_EINVAL()
{
	bad_line "PROCESS_WAKEUP DEFAULT default extra" "Too many fields"
}

test_too_long_line_is_rejected_with_EINVAL()
{
	bad_line "PROCESS_WAKEUP_$(printf '%0150d' 0) DEFAULT" "Line too long"
}

test_too_large_write_of_names_is_rejected_with_E2BIG()
{
	big=$(awk 'BEGIN { for (i = 0; i < 1000; i++) print "name" i }')
	expect write E2BIG "$(lkst_w -a "$LKST/user_masksets" "$big")" &&
	error_log_has "lkst: user_masksets: error: Write too large" &&
	! grep -qx name1 "$LKST/user_masksets"
}

# A long table is parsed line by line: its size is not limited.
test_a_long_table_written_in_many_writes_is_accepted()
{
	lkst_w -t "$M/m1" "PROCESS_FORK DEFAULT" > /dev/null
	awk 'BEGIN { for (i = 0; i < 2000; i++) print "# padding padding"
		     print "PROCESS_EXIT DEFAULT" }' > "$M/m1" &&
	expect table "PROCESS_EXIT DEFAULT" "$(cat "$M/m1")"
}

test_error_log_puts_the_caret_under_the_bad_word()
{
	bad_line "PROCESS_WAKEUP NO_SUCH_HANDLER" "Unknown handler" || return 1
	awk '/Command: PROCESS_WAKEUP NO_SUCH_HANDLER/ {
		want = index($0, "NO_SUCH_HANDLER"); getline
		got = index($0, "^")
		if (got != want) { print "# caret at " got ", word at " want; exit 1 }
		found = 1
	} END { exit !found }' "$TRACING/error_log"
}

test_truncating_error_log_empties_it()
{
	true > "$TRACING/error_log"
	expect error_log "" "$(cat "$TRACING/error_log")"
}

test_copying_a_maskset_with_cat_gives_an_equal_maskset()
{
	fresh_m1 &&
	lkst_w -a "$LKST/user_masksets" m2 > /dev/null &&
	cat "$M/RDEFAULT" > "$TMP/f" && cat "$TMP/f" > "$M/m1" &&
	cmp "$M/RDEFAULT" "$M/m1" &&
	cat "$M/m1" > "$TMP/f" && cat "$TMP/f" > "$M/m2" &&
	cmp "$M/m1" "$M/m2"
}

test_copying_keeps_the_buffer_column()
{
	lkst_w -a "$LKST/user_buffers" b1 > /dev/null
	expect write OK "$(lkst_w -t "$M/m1" "PROCESS_FORK DEFAULT b1${NL}PROCESS_EXIT DEFAULT")" &&
	expect table "PROCESS_FORK DEFAULT b1${NL}PROCESS_EXIT DEFAULT" "$(cat "$M/m1")" &&
	cat "$M/m1" > "$TMP/f" && cat "$TMP/f" > "$M/m2" &&
	cmp "$M/m1" "$M/m2"
}

test_a_user_maskset_can_be_made_current()
{
	expect write OK "$(lkst_w "$LKST/maskset" m2)" &&
	expect maskset m2 "$(cat "$LKST/maskset")" &&
	grep -qx '\[m2\]' "$LKST/available_masksets"
}

test_removing_the_current_maskset_fails_with_EBUSY()
{
	expect remove EBUSY "$(lkst_w -a "$LKST/user_masksets" '!m2')" &&
	[ -f "$M/m2" ]
}

test_truncating_user_masksets_while_one_is_current_fails_with_EBUSY()
{
	expect truncate EBUSY "$(lkst_w -t "$LKST/user_masksets" '')" &&
	expect user_masksets "m1 m2 " "$(tr '\n' ' ' < "$LKST/user_masksets")"
}

test_rewriting_the_current_maskset_takes_effect_at_once()
{
	lkst_clear
	expect write OK "$(lkst_w -t "$M/m2" "PROCESS_EXEC DEFAULT")" || return 1
	/bin/true
	expect maskset m2 "$(cat "$LKST/maskset")" &&
	grep -q 'PROCESS_EXEC: ' "$LKST_INST/trace" &&
	! grep -q 'PROCESS_FORK: ' "$LKST_INST/trace"
}

test_a_bad_write_to_the_current_maskset_changes_nothing()
{
	expect write EINVAL "$(lkst_w -t "$M/m2" "PROCESS_FORK DEFAULT${NL}BAD DEFAULT")" &&
	expect table "PROCESS_EXEC DEFAULT" "$(cat "$M/m2")" &&
	expect maskset m2 "$(cat "$LKST/maskset")"
}

test_removing_a_maskset_no_longer_current_succeeds()
{
	echo RNOTHING > "$LKST/maskset"
	expect remove OK "$(lkst_w -a "$LKST/user_masksets" '!m2')" &&
	[ ! -e "$M/m2" ] && ! grep -qx m2 "$LKST/available_masksets"
}

test_truncating_user_masksets_removes_them_all()
{
	expect truncate OK "$(lkst_w -t "$LKST/user_masksets" '')" &&
	expect user_masksets "" "$(cat "$LKST/user_masksets")" &&
	expect masksets "RALL RDEFAULT RNOTHING" "$(ls "$M" | tr '\n' ' ' | sed 's/ $//')"
}

test_at_most_64_user_masksets_can_exist()
{
	for i in $(seq 64); do
		r=$(lkst_w -a "$LKST/user_masksets" "many$i")
		[ "$r" = OK ] || { echo "# creating many$i: $r"; return 1; }
	done
	expect 65th ENOSPC "$(lkst_w -a "$LKST/user_masksets" many65)" &&
	expect truncate OK "$(lkst_w -t "$LKST/user_masksets" '')"
}

lkst_run_tests \
	test_writing_a_builtin_name_to_maskset_switches_to_it \
	test_unknown_maskset_name_is_rejected_with_EINVAL \
	test_error_log_names_the_unknown_maskset \
	test_too_long_maskset_name_is_rejected_with_EINVAL \
	test_appending_to_user_masksets_creates_an_empty_maskset \
	test_creating_an_existing_maskset_fails_with_EEXIST \
	test_bad_maskset_names_are_rejected_with_EINVAL \
	test_a_31_character_name_is_accepted \
	test_removing_an_unknown_maskset_fails_with_ENOENT \
	test_removing_a_builtin_maskset_fails_with_EPERM \
	test_builtin_maskset_tables_are_read_only \
	test_a_written_table_reads_back_in_event_ID_order \
	test_writing_a_table_replaces_the_whole_table \
	test_comments_blank_lines_and_extra_blanks_are_ignored \
	test_a_NOTHING_line_reads_back_as_written \
	test_appending_adds_to_the_table \
	test_unknown_event_is_rejected_with_EINVAL \
	test_unknown_handler_is_rejected_with_EINVAL \
	test_unknown_buffer_is_rejected_with_EINVAL \
	test_duplicate_event_is_rejected_with_EINVAL \
	test_missing_handler_is_rejected_with_EINVAL \
	test_extra_field_is_rejected_with_EINVAL \
	test_too_long_line_is_rejected_with_EINVAL \
	test_too_large_write_of_names_is_rejected_with_E2BIG \
	test_a_long_table_written_in_many_writes_is_accepted \
	test_error_log_puts_the_caret_under_the_bad_word \
	test_truncating_error_log_empties_it \
	test_copying_a_maskset_with_cat_gives_an_equal_maskset \
	test_copying_keeps_the_buffer_column \
	test_a_user_maskset_can_be_made_current \
	test_removing_the_current_maskset_fails_with_EBUSY \
	test_truncating_user_masksets_while_one_is_current_fails_with_EBUSY \
	test_rewriting_the_current_maskset_takes_effect_at_once \
	test_a_bad_write_to_the_current_maskset_changes_nothing \
	test_removing_a_maskset_no_longer_current_succeeds \
	test_truncating_user_masksets_removes_them_all \
	test_at_most_64_user_masksets_can_exist
