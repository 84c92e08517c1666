# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # $cc is for the scripts that source it
# Sourced by the scripts that compile: sets $cc to "ccache gcc" where ccache
# is installed, and makes its cache independent of the checkout's path.
# Every source and object directory is below $BUILD, so with CCACHE_BASEDIR
# there ccache hashes paths relative to the build directory: a clone at
# another path (CI's) hits the entries of this one.  CCACHE_NOHASHDIR keeps
# the working directory out of the hash, which only matters for debug info,
# and the kernel maps its source paths itself (-fmacro-prefix-map,
# -fdebug-prefix-map).

cc="gcc"
if command -v ccache >/dev/null; then
	cc="ccache gcc"
	export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD}
	export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
fi
