# SPDX-License-Identifier: GPL-2.0
#
# LKST patch series: edit, apply, build, boot and test it.
#   make deps      install what a bare Debian 12 machine lacks (root)
#   make check     every check that fits an hour, ending with "N passed, N failed"
#   make check-quick  the checks to run before every commit
#   make check-full   make check and the long ones (before resolving an issue)
#   make demo      boot the patched kernel and show LKST at work
# (check and demo install what is missing and prepare the base themselves)
# See README.md for the rest; the scripts behind the targets are in
# scripts/, in rooms (scripts/README.md).
#
# Two series: mainline (patches/, on Linux 7.2, the default) and the stable
# backport (stable/6.12/); LKST_BASE=6.12 points a target at the backport
# (e.g. LKST_BASE=6.12 make build), in $(BUILD)/6.12.  make check checks both.

BUILD ?= $(CURDIR)/build
export BUILD

SEED ?= 1
SECONDS ?= 60

LKST_BASE ?= mainline
export LKST_BASE
ifneq ($(filter 6.12 stable,$(LKST_BASE)),)
SERIES_BUILD := $(BUILD)/6.12
EXPORT_CMD := LKST_BASE=6.12 make export
EXPORT_WHAT := stable/6.12/patches and series
else
SERIES_BUILD := $(BUILD)
EXPORT_CMD := make export
EXPORT_WHAT := patches/, series and the top-level tree
endif
PQ_DIR := $(SERIES_BUILD)/pq

.PHONY: all deps base rebase backport import edit export apply build tool kselftests samples kunit selftest crash-test system-test deb deb-kernel deb-kernel-test sid-source check check-quick check-full demo bench bench-profile vm fuzz ftracetest clean help

all: build

help:
	@sed -n '3,/checks both\./s/^# \{0,1\}//p' Makefile
	@echo "  make edit      patches/ -> branch lkst in build/pq, to edit with git (make import)"
	@echo "  make export    branch lkst -> patches/, series and the top-level tree"
	@echo "  make build     build the patched kernel and modules in $(BUILD)"
	@echo "  make tool      build tools/tracing/lkst in $(BUILD)/tool"
	@echo "  make kselftests  build and install the kselftests in $(BUILD)/kselftest"
	@echo "  make samples   build the sample handler modules (with the kernel)"
	@echo "  make kunit     KUnit suites of kernel/trace/lkst under UML"
	@echo "  make selftest  tools/testing/selftests/lkst in the VM"
	@echo "  make crash-test  crash the VM: dump on oops/panic, persistent buffer"
	@echo "  make deb       the lkst-tools Debian package (tool, units, kdump hook), lintian"
	@echo "  make deb-kernel  the 6.12 backport as Debian kernel packages, Debian's config (hours)"
	@echo "  make deb-kernel-test  install them with dpkg in Debian 12, boot it, check LKST"
	@echo "  make system-test  Debian 12 with systemd in the VM: package, units, kdump-tools"
	@echo "  make bench     LKST and ftrace cost in guest instructions, side by side, in the VM"
	@echo "  make bench-profile  one traced getppid() and one record, instruction by function"
	@echo "  make ftracetest  ftrace's own selftests, compared with the base kernel"
	@echo "  make fuzz SEED=1 SECONDS=60  the tracefs fuzzer in the VM (scripts/test/fuzz)"
	@echo "  make vm CMD='...'  run one command in the VM"
	@echo "  make rebase TO=PKG[=VER] [SUITE=...]  move the series to another base (docs/developing.md)"
	@echo "  make backport C=COMMIT  carry a commit of build/pq into the 6.12 queue build/6.12/pq"
	@echo "  make sid-source  linux-source-7.2 and linux-config-7.2 from Debian sid, system apt untouched"

deps:
	scripts/setup/deps

base:
	scripts/setup/base-prepare

# The mainline base's source and config, from sid through a private apt
# configuration (build/sid/): the system's sources stay as they are.
sid-source:
	scripts/setup/sid-source

# Move the series to another base (docs/developing.md):
# make rebase TO=linux-source-7.3[=VERSION] [SUITE=experimental]
rebase:
	scripts/queue/pq rebase $(TO) $(SUITE)

# Carry commits of the mainline queue into the 6.12 queue (docs/developing.md):
# make backport C='COMMIT...'
backport:
	scripts/queue/pq backport $(C)

# The patch queue (scripts/queue/pq): patches/ + series are the source of truth.
import:
	scripts/queue/pq import

# The one place where the series is changed: the patch queue.
edit: deps import
	@echo "  EDIT    the series is branch lkst in $(PQ_DIR): edit and commit there"
	@echo "          (git commit --fixup=<patch>; git rebase -i --autosquash lkst-base),"
	@echo "          then '$(EXPORT_CMD)' writes $(EXPORT_WHAT)"

export:
	scripts/queue/pq export

apply:
	scripts/queue/pq apply

build: apply
	scripts/build/kernel

tool: apply
	scripts/build/part tool

kselftests: apply
	scripts/build/part kselftests

# The samples are modules: they build with the kernel they load into.
samples: build
	@find $(SERIES_BUILD)/mods -path '*samples/lkst/*.ko' | sed 's/^/  SAMPLE  /'

kunit: apply
	scripts/test/kunit

selftest: build
	scripts/test/selftest

crash-test: build
	scripts/test/crash

# The lkst-tools Debian package, checked by lintian, into $(BUILD)/deb
deb: deps apply
	packaging/make-deb

# The 6.12 backport as Debian kernel packages on Debian's config (hours)
deb-kernel: deps
	LKST_BASE=6.12 scripts/queue/pq apply
	scripts/build/deb-kernel

# Its linux-image installed with dpkg into Debian 12, booted, LKST checked
deb-kernel-test: deps
	scripts/test/deb-kernel

# Debian 12 with systemd in the VM: the package, its units, kdump-tools
system-test: build
	scripts/test/system

check: deps
	scripts/test/check

check-quick: deps
	scripts/test/check --quick

check-full: deps
	scripts/test/check --full

demo: deps
	scripts/vm/demo

bench: build
	scripts/bench/run

bench-profile: build
	scripts/bench/profile

ftracetest: build
	scripts/test/ftracetest

fuzz: deps
	scripts/test/fuzz $(SEED) $(SECONDS)

vm: build
	scripts/vm/run '$(CMD)'

clean:
	rm -rf $(BUILD)
