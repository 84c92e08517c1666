#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The ring buffer's fast write path, which LKST records through, under
# stress: the module ring_buffer_fast_stress (CONFIG_RING_BUFFER_FAST_STRESS_TEST)
# writes from a kthread, a hard-irq hrtimer and NMIs on every CPU while a
# reader consumes, then checks every record and the accounting itself.
# Here its report is checked again, line by line: on every CPU the records
# written equal those read plus those overwritten, the losses the reader
# was told of equal those overwritten, the writes refused equal what the
# ring buffer counted, and each mode really overflowed its buffer.

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
MOD=ring_buffer_fast_stress

# stress ARGS...: load the module with ARGS; its report in $REPORT
stress()
{
	if ! modprobe -q -n "$MOD"; then
		echo "# module $MOD not available (CONFIG_RING_BUFFER_FAST_STRESS_TEST=n)"
		return "$KSFT_SKIP"
	fi
	rmmod "$MOD" 2>/dev/null
	# A mark in the log rather than a line count: the log may wrap
	mark="test_ring_buffer_fast: $$ $*"
	echo "$mark" > /dev/kmsg
	err=$(modprobe "$MOD" "$@" 2>&1)
	rc=$?
	REPORT=$(dmesg | sed -n "\|$mark|,\$p" | grep "$MOD: ")
	rmmod "$MOD" 2>/dev/null
	echo "$REPORT" | sed 's/^.*\] /# /'
	[ $rc -eq 0 ] || { echo "# modprobe $MOD $*: $err"; return 1; }
	echo "$REPORT" | grep -q "$MOD: PASS: " || return 1
	bad=$(dmesg | sed -n "\|$mark|,\$p" | grep -E "$DMESG_BAD")
	[ -z "$bad" ] || { echo "$bad" | sed 's/^/# dmesg: /'; return 1; }
}

# check_cpus: the identities on every CPU line of $REPORT; sets CPUS,
# OVERWRITTEN, REFUSED and NMI to their counts and sums.
check_cpus()
{
	# "cpuN: written W = read R + overwritten O; refused F = commit
	# overrun C + dropped D; lost L; task T, hardirq H, nmi N", the
	# last three the writes attempted in each context: NAME VALUE pairs
	sums=$(echo "$REPORT" | grep -E ": cpu[0-9]+: written " | tr -d ';,' | awk '
		{
			delete v
			for (i = 1; i < NF; i++)
				if ($(i + 1) ~ /^[0-9]+$/)
					v[$i] = $(i + 1)
			cpu = $0
			sub(/: written.*/, "", cpu)
			sub(/.* /, "", cpu)
			w = v["written"]; r = v["read"]; o = v["overwritten"]
			if (w != r + o)
				print "# " cpu ": written " w " != read " r " + overwritten " o
			if (v["lost"] != o)
				print "# " cpu ": lost " v["lost"] " != overwritten " o
			f = v["refused"]; c = v["overrun"]; d = v["dropped"]
			if (f != c + d)
				print "# " cpu ": refused " f " != overrun " c " + dropped " d
			if (v["written"] + v["refused"] == 0 || v["task"] == 0 || v["hardirq"] == 0)
				print "# " cpu ": no record from task or hardirq"
			n++; so += o; sf += f; sn += v["nmi"]
		}
		END { printf "SUMS %d %d %d %d\n", n, so, sf, sn }')
	bad=$(echo "$sums" | grep -v '^SUMS')
	[ -z "$bad" ] || { echo "$bad"; return 1; }
	set -- $(echo "$sums" | grep '^SUMS')
	CPUS=$2 OVERWRITTEN=$3 REFUSED=$4 NMI=$5
	[ "$CPUS" -eq "$(getconf _NPROCESSORS_ONLN)" ] ||
		{ echo "# $CPUS CPU lines"; return 1; }
	# NMIs are sent on x86 only
	if [ "$(uname -m)" = x86_64 ] && [ "$NMI" -eq 0 ]; then
		echo "# no write from NMI"
		return 1
	fi
}

test_overwriting_writers_in_three_contexts_account_for_every_record()
{
	stress seconds=3 buffer_kb=16 overwrite=1 || return
	check_cpus || return 1
	# A 16 KiB buffer per CPU must have been overwritten, not filled
	[ "$OVERWRITTEN" -gt 0 ] || { echo "# nothing overwritten"; return 1; }
	echo "# $CPUS CPUs, $OVERWRITTEN overwritten, $REFUSED refused, $NMI from NMI"
}

test_writers_into_a_full_buffer_count_every_refused_write()
{
	stress seconds=3 buffer_kb=16 overwrite=0 || return
	check_cpus || return 1
	[ "$OVERWRITTEN" -eq 0 ] || { echo "# $OVERWRITTEN overwritten"; return 1; }
	[ "$REFUSED" -gt 0 ] || { echo "# no write refused"; return 1; }
	echo "# $CPUS CPUs, $REFUSED refused, $NMI from NMI"
}

test_bad_parameters_fail_the_load_with_EINVAL()
{
	if ! modprobe -q -n "$MOD"; then
		return "$KSFT_SKIP"
	fi
	mark="test_ring_buffer_fast: $$ seconds=0"
	echo "$mark" > /dev/kmsg
	err=$(modprobe "$MOD" seconds=0 2>&1) && { rmmod "$MOD"; return 1; }
	case $err in
	*"Invalid argument"*) ;;
	*) echo "# $err"; return 1 ;;
	esac
	dmesg | sed -n "\|$mark|,\$p" |
		grep -q "$MOD: seconds 1-60, buffer_kb 4-4096, period_us 10-100000" ||
		{ echo "# no message in dmesg"; return 1; }
}

lkst_run_tests \
	test_overwriting_writers_in_three_contexts_account_for_every_record \
	test_writers_into_a_full_buffer_count_every_refused_write \
	test_bad_parameters_fail_the_load_with_EINVAL
