# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # $failed is the runner's
#
# Sourced by the test runners (vm/test, test/tools, test/crash, bench/smoke,
# test/ftracetest), once TOP and BUILD are set: their KTAP goes out through the
# kernel's own tools/testing/selftests/kselftest/ktap_helpers.sh, the base
# tree's (sourcing this file prepares the base, scripts/setup/base-prepare, if
# it is not there yet).  A runner knows how many results it has only at the end, and KTAP
# wants the plan first: ok NAME, not_ok NAME, skip NAME REASON and diag (its
# standard input, one diagnostic a line, for the result that follows) keep
# them, and finish prints the plan and them and exits, 0 if nothing failed
# and 1 if something did ($failed is 1 from the first not_ok); finish N
# also fails unless there were N results.  Call them in
# the runner's shell, not in a pipeline.  A note in parentheses after the
# name (XFAIL, why it failed) goes in NAME as " # NOTE": ktap_helpers prints
# the name as it is.

BUILD=$BUILD "$TOP/scripts/setup/base-prepare" >&2 || exit 1
# shellcheck source=/dev/null
. "$BUILD/base/tools/testing/selftests/kselftest/ktap_helpers.sh" || exit 1

failed=0
ktap_n=0
ktap_results=()
ok() { ktap_n=$((ktap_n + 1)); ktap_results+=("ok	$1"); }
not_ok() { ktap_n=$((ktap_n + 1)); ktap_results+=("not ok	$1"); failed=1; }
skip() { ktap_n=$((ktap_n + 1)); ktap_results+=("skip	$1	$2"); }
# Not ktap_print_msg, whose echo $@ would split and glob the text
diag() { local l; while IFS= read -r l; do ktap_results+=("#	$l"); done; }
# finish [N]: print the plan and the results, and exit.  A runner that
# knows it makes N checks passes N: fewer or more results fail.
finish() {
	local r
	if [ -n "${1:-}" ] && [ "$ktap_n" -ne "$1" ]; then
		not_ok "the runner made $ktap_n checks, $1 expected"
	fi
	# ktap_helpers prints names with an unquoted echo: no globbing.
	set -f
	ktap_print_header
	ktap_set_plan $ktap_n
	for r in "${ktap_results[@]}"; do
		case $r in
		"#	"*) printf '# %s\n' "${r#*	}" ;;
		"ok	"*) ktap_test_pass "${r#*	}" ;;
		"not ok	"*) ktap_test_fail "${r#*	}" ;;
		"skip	"*)
			# ktap_test_skip() takes no reason: the directive with it
			r=${r#*	}
			__ktap_test ok "${r%%	*}" "SKIP ${r#*	}"
			KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
			;;
		esac
	done
	ktap_finished
}
