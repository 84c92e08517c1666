#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Under lockdown (confidentiality, LOCKDOWN_TRACEFS) no LKST file opens,
# as no other file under tracing/ does.  Raising the lockdown cannot be
# undone until the next boot, so this test is the last of the suite and
# runs only where the kernel lets it raise it (CONFIG_SECURITY_LOCKDOWN_LSM,
# securityfs); elsewhere it is skipped.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
SEC=/sys/kernel/security
LD=$SEC/lockdown
[ -f "$LD" ] || mount -t securityfs none "$SEC" 2>/dev/null
if ! grep -q confidentiality "$LD" 2>/dev/null; then
	ktap_skip_all "no lockdown to raise (CONFIG_SECURITY_LOCKDOWN_LSM=n)"
	exit "$KSFT_SKIP"
fi
if [ "${LKST_LOCKDOWN:-}" != yes ]; then
	ktap_skip_all "raises the lockdown until reboot: set LKST_LOCKDOWN=yes"
	exit "$KSFT_SKIP"
fi

test_every_lkst_file_refuses_opens_under_lockdown()
{
	files=$(find "$LKST" -type f | sort)
	n=$(echo "$files" | wc -l)
	[ "$n" -gt 20 ] || { echo "# only $n files under $LKST"; return 1; }
	echo confidentiality > "$LD" || return 1
	grep -q '\[confidentiality\]' "$LD" || { cat "$LD"; return 1; }
	open=""
	for f in $files; do
		# EPERM, not another refusal (ENODEV of an offline CPU's raw)
		err=$( (exec 3< "$f") 2>&1) &&
			err="opened"
		case $err in
		*"Operation not permitted"*) ;;
		*) open="$open ${f#"$LKST"/} ($err)" ;;
		esac
	done
	[ -z "$open" ] || { echo "# not refused with EPERM:$open"; return 1; }
	echo "# $n files, each refused with EPERM"
}

# Not lkst_run_tests: its reset writes to the files, which now fail.
ktap_print_header
ktap_set_plan 1
if test_every_lkst_file_refuses_opens_under_lockdown; then
	ktap_test_pass every_lkst_file_refuses_opens_under_lockdown
else
	ktap_test_fail every_lkst_file_refuses_opens_under_lockdown
fi
ktap_finished
