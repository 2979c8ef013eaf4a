#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# `structlint check` on Debian's real 6.1 and 6.12 kernels (opt-in: needs
# the linux-image-*-dbg vmlinux files, found or fetched by
# tests/real/kernels.sh).
#
#   tests/real/check.sh [BUILD_DIR]      (default BUILD_DIR: build)
#   STRUCTLINT_KERNEL_CACHE=/var/tmp/kdbg tests/real/check.sh BUILD_DIR
#
# Asserts:
#   6.12: the __cacheline_group_begin/end groups of tcp_sock (6 groups),
#         net_device (3) and netns_ipv4 (4) are found and pass (exit 0);
#         tcp_sock with fixtures/classes/tcp_sock-rst.rst: every classed
#         member in a group of its class (exit 0);
#   6.1 (no markers): with the net_cachelines table as classes,
#         `separate = class:read-mostly class:hot-write` shows tcp_sock's
#         collisions (exit 1, lines 22 and 27), which 6.12 no longer has.
# Prints the groups found.  Exit 0 when every check holds, 1 otherwise,
# 2 when a kernel is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/real/kernels.sh
. "$here/kernels.sh"
build=${1:-$root/build}
structlint=$build/structlint
[[ -x $structlint ]] || { echo "check: no structlint in $build" >&2; exit 2; }
v61=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[0]}") || exit 2
v612=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[1]}") || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# expect LABEL RC GREP_COUNT PATTERN -- ARGS...: exit status RC and
# GREP_COUNT output lines matching PATTERN
expect() {
	local label=$1 want_rc=$2 want_n=$3 pat=$4 out rc n
	shift 5
	out=$("$structlint" check "$@" 2>&1)
	rc=$?
	n=$(printf '%s\n' "$out" | grep -c -- "$pat")
	printf '%s\n' "$out" | grep -- "$pat" | sed 's/^.*struct /     struct /'
	printf '%s\n' "$out" | tail -1 | sed 's/^/     /'
	if [[ $rc == "$want_rc" && $n == "$want_n" ]]; then
		ok "$label: exit $rc, $n lines matching '$pat'"
	else
		bad "$label: exit $rc (want $want_rc), $n lines matching '$pat' (want $want_n)"
	fi
}

printf '[struct tcp_sock]\n[struct net_device]\n[struct netns_ipv4]\n' > "$tmp/groups.rules"
expect "6.12 tcp_sock groups" 0 6 "struct tcp_sock: cacheline group " -- "$v612" --rules "$tmp/groups.rules"
expect "6.12 net_device groups" 0 3 "struct net_device: cacheline group " -- "$v612" --rules "$tmp/groups.rules"
expect "6.12 netns_ipv4 groups" 0 4 "struct netns_ipv4: cacheline group " -- "$v612" --rules "$tmp/groups.rules"
printf '[struct tcp_sock]\n' > "$tmp/tcp.rules"
expect "6.12 tcp_sock members by net_cachelines class" 0 0 "error:" -- \
	"$v612" --rules "$tmp/tcp.rules" --classes "$root/fixtures/classes/tcp_sock-rst.rst"
printf '[struct tcp_sock]\nseparate = class:read-mostly class:hot-write\n' > "$tmp/sep.rules"
expect "6.1 tcp_sock collisions (no markers)" 1 2 "error: struct tcp_sock: groups class:read-mostly and class:hot-write share cacheline \(22\|27\):" -- \
	"$v61" --rules "$tmp/sep.rules" --classes "$root/fixtures/classes/tcp_sock-rst.rst"
expect "6.12 tcp_sock: the collisions are gone" 0 0 "error:" -- \
	"$v612" --rules "$tmp/sep.rules" --classes "$root/fixtures/classes/tcp_sock-rst.rst"
echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
