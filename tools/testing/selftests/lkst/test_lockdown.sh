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
		if (exec 3< "$f") 2>/dev/null; then
			open="$open ${f#"$LKST"/}"
		fi
	done
	[ -z "$open" ] || { echo "# opened under lockdown:$open"; return 1; }
	echo "# $n files, none opened"
}

lkst_run_tests test_every_lkst_file_refuses_opens_under_lockdown
