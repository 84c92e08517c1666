# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source it
#
# Sourced by every script that works on a series: which one, and where.
# $TOP must be set.
#
# LKST_BASE selects the series:
#
#   mainline (the default)  patches/ + series, on Linux 7.2 (Debian sid's
#                           linux-source-7.2, fetched by scripts/setup/sid-source
#                           without touching the system's apt sources); the
#                           top-level tree is the tree after its last patch
#   6.12                    the stable backport, stable/6.12/patches +
#                           stable/6.12/series, on Debian's
#                           linux-source-6.12; generated through its own
#                           patch queue, each patch naming its mainline
#                           counterpart (scripts/queue/pq)
#
# Sets BUILD (the mainline's build directory, default build/, and
# $BUILD/6.12 for the backport, so that the two never share a base,
# worktree or object directory), MAIN_BUILD (the mainline's, where sid's
# packages are kept), PATCHES, SERIES_FILE, MIRROR_TREE (the top-level
# tree the series' files are mirrored to; empty for the backport),
# SUBJECT_PREFIX, KBASE_NAME (7.2 or 6.12) and the BASE_* variables of
# scripts/setup/base-prepare.

LKST_BASE=${LKST_BASE:-mainline}
# An absolute path without a trailing slash: git -C runs below it
BUILD=${BUILD:+$(realpath -m "$BUILD")}
case $LKST_BASE in
mainline|7.2)
	LKST_BASE=mainline
	KBASE_NAME=7.2
	BUILD=${BUILD:-$TOP/build}
	if [ "${BUILD##*/}" = 6.12 ]; then
		echo "BUILD=$BUILD is the 6.12 backport's build directory: LKST_BASE=6.12, or mainline's BUILD" >&2
		exit 2
	fi
	MAIN_BUILD=$BUILD
	PATCHES=$TOP/patches
	SERIES_FILE=$TOP/series
	MIRROR_TREE=$TOP
	SUBJECT_PREFIX=PATCH
	BASE_PKG=linux-source-7.2
	# The version the series is on: sid moves, and a newer upload is a
	# rebase of the series (and a new base-commit), not a silent change.
	BASE_PIN=7.2.13-1
	BASE_TARBALL=$MAIN_BUILD/sid/root/usr/src/linux-source-7.2.tar.xz
	BASE_DATE="2026-11-01 00:00:00 +0000"
	;;
6.12|stable)
	LKST_BASE=6.12
	KBASE_NAME=6.12
	BUILD=${BUILD:-$TOP/build}
	[ "${BUILD##*/}" = 6.12 ] || BUILD=$BUILD/6.12
	MAIN_BUILD=${BUILD%/6.12}
	PATCHES=$TOP/stable/6.12/patches
	SERIES_FILE=$TOP/stable/6.12/series
	MIRROR_TREE=""
	SUBJECT_PREFIX="PATCH 6.12"
	BASE_PKG=linux-source-6.12
	BASE_PIN=6.12.117-1~deb12u1
	BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
	BASE_DATE="2024-11-17 00:00:00 +0000"
	;;
*)
	echo "LKST_BASE=$LKST_BASE: the series are 'mainline' (7.2) and '6.12'" >&2
	exit 2
	;;
esac
export LKST_BASE BUILD

# series_patches [FILE]: the patch names of a series file (default
# SERIES_FILE) in order, read as quilt reads it (cat_series of its
# patchfns): lines that start with # (the postings' headers) and empty
# lines left out, and a patch's options after its name.
series_patches() {
	sed -e '/^#/d' -e 's/^[[:space:]]*//' -e 's/[[:space:]].*//' -e '/^$/d' "${1:-$SERIES_FILE}"
}
