#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The real false-sharing cases of /work/shared/cases/README.md on Debian's
# real 6.1 and 6.12 kernels (opt-in: needs the linux-image-*-dbg vmlinux
# files, found or fetched by tests/real/kernels.sh).
#
#   tests/real/cases.sh [BUILD_DIR]      (default BUILD_DIR: build)
#   STRUCTLINT_KERNEL_CACHE=/var/tmp/kdbg tests/real/cases.sh BUILD_DIR
#                                        (use kernels already unpacked there)
#
# Asserts, with member classes given by fixtures/classes and
# fixtures/report:
#   6.1  mem_cgroup_per_node: collisions on lines 24 and 39, nothing else
#   6.12 mem_cgroup_per_node: nothing
#   6.1  cgroup: collision on line 14, nothing else; 6.12 cgroup: nothing
#   page_counter, zone (both kernels): no false-sharing finding;
#   page_counter.usage (a shared counter): reported as true sharing, not
#   fixable by layout, and the advice proposes no padding.
# Exit 0 when every check holds, 1 otherwise, 2 when a kernel is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/real/kernels.sh
. "$here/kernels.sh"
build=${1:-$root/build}
structlint=$build/structlint
[[ -x $structlint ]] || { echo "cases: no structlint in $build" >&2; exit 2; }

fail=0
pass=0

# check LABEL VMLINUX STRUCT CLASSES EXPECT
#   EXPECT: space-separated "kind:line" of the false-sharing findings
#   (collision, write-write), in line order; "" for none.
check() {
	local label=$1 vmlinux=$2 name=$3 classes=$4 expect=$5 json got
	if ! json=$("$structlint" report --json "$vmlinux" "$name" --classes "$classes"); then
		echo "FAIL $label: structlint failed"
		fail=$((fail + 1))
		return
	fi
	got=$(printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
fs = sorted((f["line"], f["kind"]) for f in d["findings"]
            if f["kind"] in ("collision", "write-write"))
print(" ".join("%s:%d" % (k, l) for l, k in fs))')
	if [[ $got == "$expect" ]]; then
		echo "ok   $label: [${got}]"
		pass=$((pass + 1))
	else
		echo "FAIL $label: got [${got}], want [${expect}]"
		fail=$((fail + 1))
	fi
}

# The shared counter: a true-sharing finding, layout_fixable false, no
# padding in the advice.
check_true_sharing() {
	local label=$1 vmlinux=$2 json
	json=$("$structlint" report --json "$vmlinux" page_counter \
		--classes "$root/fixtures/report/page_counter.classes") || { echo "FAIL $label"; fail=$((fail + 1)); return; }
	if printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
ts = [f for f in d["findings"] if f["kind"] == "true-sharing"]
assert len(ts) == 1, ts
f = ts[0]
assert [m["path"] for m in f["members"]] == ["usage"], f
assert f["layout_fixable"] is False
assert "PADDING" not in f["advice"].upper() and "per-CPU" in f["advice"], f["advice"]
'; then
		echo "ok   $label: usage is true sharing, no padding proposed"
		pass=$((pass + 1))
	else
		echo "FAIL $label"
		fail=$((fail + 1))
	fi
}

v61=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[0]}") || exit 2
v612=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[1]}") || exit 2
c=$root/fixtures/classes
r=$root/fixtures/report

check "6.1 mem_cgroup_per_node" "$v61" mem_cgroup_per_node "$c/mem_cgroup_per_node-6.1.classes" "collision:24 collision:39"
check "6.12 mem_cgroup_per_node" "$v612" mem_cgroup_per_node "$c/mem_cgroup_per_node.classes" ""
check "6.1 cgroup" "$v61" cgroup "$c/cgroup.classes" "collision:14"
check "6.12 cgroup" "$v612" cgroup "$c/cgroup.classes" ""
for k in "6.1:$v61" "6.12:$v612"; do
	check "${k%%:*} page_counter" "${k#*:}" page_counter "$r/page_counter.classes" ""
	check "${k%%:*} zone" "${k#*:}" zone "$r/zone.classes" ""
	check_true_sharing "${k%%:*} page_counter.usage" "${k#*:}"
done
# The kernel's net_cachelines table classes (fixtures/classes: an excerpt of
# Documentation/networking/net_cachelines/tcp_sock.rst, both table forms):
# the 6.8 reorganisation into cacheline groups holds on 6.12; the 6.1 layout
# has the read-mostly/read-write collisions it removed.
for t in tcp_sock-rst.rst tcp_sock-early.rst; do
	check "6.12 tcp_sock ($t)" "$v612" tcp_sock "$c/$t" ""
	check "6.1 tcp_sock ($t)" "$v61" tcp_sock "$c/$t" "collision:22 collision:27"
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
