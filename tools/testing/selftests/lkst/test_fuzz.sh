#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A short run of lkst_fuzz, the tracefs fuzzer: random syscalls with
# random payloads on every LKST file from both CPUs, while masksets and
# buffers come and go, handler modules are loaded and unloaded, buffers
# are resized and CPU 1 goes offline and back.  It passes when the kernel
# log shows no splat and the documented state held after every step.
#
# LKST_FUZZ_SEED and LKST_FUZZ_SECONDS change the seed (1) and the length
# of the run (60 s); a failing run is replayed with the seed it printed:
#	./lkst_fuzz -s SEED -t SECONDS

. "$(dirname "$0")/lkst_lib.sh"

lkst_require
lkst_reset

test_fuzzing_leaves_no_splat_and_the_documented_state()
{
	if [ ! -x "$LKST_DIR/lkst_fuzz" ]; then
		echo "# lkst_fuzz not built"
		return "$KSFT_SKIP"
	fi
	"$LKST_DIR/lkst_fuzz" -s "${LKST_FUZZ_SEED:-1}" \
		-t "${LKST_FUZZ_SECONDS:-60}"
}

lkst_run_tests test_fuzzing_leaves_no_splat_and_the_documented_state
