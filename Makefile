# SPDX-License-Identifier: GPL-2.0
#
# LKST patch series: generate, apply, build, boot and test it.
#   make deps      install what a bare Debian 12 machine lacks (root)
#   make check     every check, ending with "N passed, N failed"
#   make demo      boot the patched kernel and show LKST at work
# See README.md for the rest.

BUILD ?= $(CURDIR)/build
export BUILD

.PHONY: all deps base patches build kunit selftest check demo bench vm clean help

all: build

help:
	@sed -n '3,7s/^# \{0,1\}//p' Makefile
	@echo "  make patches   regenerate patches/ and series from the tree"
	@echo "  make build     build the patched kernel and modules in $(BUILD)"
	@echo "  make kunit     KUnit suites of kernel/trace/lkst under UML"
	@echo "  make selftest  tools/testing/selftests/lkst in the VM"
	@echo "  make bench     LKST and ftrace cost, side by side, in the VM"
	@echo "  make vm CMD='...'  run one command in the VM"

deps:
	scripts/deps

base:
	scripts/base-prepare

patches: base
	scripts/series-gen

build: patches
	scripts/build

kunit: patches
	scripts/kunit

selftest: build
	scripts/selftest

check:
	scripts/check

demo: build
	scripts/demo

bench: build
	scripts/bench

vm: build
	scripts/vm-run '$(CMD)'

clean:
	rm -rf $(BUILD)
