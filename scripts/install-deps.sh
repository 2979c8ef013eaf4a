#!/bin/sh
# SPDX-License-Identifier: MIT
# Install everything needed to build and test structlint on Debian 12 (run
# as root).  Build: meson ninja-build pkg-config gcc libdwarf-dev libelf-dev
# libjansson-dev libbpf-dev libzstd-dev zlib1g-dev linux-libc-dev
# libcapstone-dev (x86-64 decoder of the access map).  Tests:
# libcmocka-dev, clang and libclang-rt-14-dev (second fixture compiler, libFuzzer), dwarves (pahole:
# the oracle and `pahole -J`), binutils (objcopy, readelf), python3.
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
	meson ninja-build pkg-config gcc clang libdwarf-dev libelf-dev \
	libjansson-dev libbpf-dev libzstd-dev zlib1g-dev libcmocka-dev \
	linux-libc-dev dwarves python3 binutils libc6-dev libclang-rt-14-dev \
	libcapstone-dev
