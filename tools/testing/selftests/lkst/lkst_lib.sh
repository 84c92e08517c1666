#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the LKST selftests.

. "$(dirname "$0")/../kselftest/ktap_helpers.sh"

LKST=""

# Find /sys/kernel/tracing/lkst, mounting tracefs if needed; skip the whole
# test when the kernel was built without CONFIG_LKST.
lkst_find()
{
	for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		if [ -d "$t/lkst" ]; then
			LKST=$t/lkst
			return 0
		fi
	done
	if [ ! -d /sys/kernel/tracing/instances ]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
		if [ -d /sys/kernel/tracing/lkst ]; then
			LKST=/sys/kernel/tracing/lkst
			return 0
		fi
	fi
	return 1
}

lkst_require()
{
	if [ "$(id -u)" -ne 0 ]; then
		ktap_skip_all "must be run as root"
		exit "$KSFT_SKIP"
	fi
	if ! lkst_find; then
		ktap_skip_all "kernel has no LKST (CONFIG_LKST=n)"
		exit "$KSFT_SKIP"
	fi
}
