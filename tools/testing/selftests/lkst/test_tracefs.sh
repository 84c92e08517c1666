#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The LKST tracefs directory and its read-only listings.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require

ktap_print_header
ktap_set_plan 2

if [ -d "$LKST" ]; then
	ktap_test_pass "lkst directory exists in tracefs"
else
	ktap_test_fail "lkst directory exists in tracefs"
fi

got=$(cat "$LKST/available_masksets" | tr '\n' ' ')
if [ "$got" = "RDEFAULT RALL [RNOTHING] " ]; then
	ktap_test_pass "available_masksets lists the built-in masksets"
else
	ktap_test_fail "available_masksets lists the built-in masksets (got '$got')"
fi

ktap_finished
