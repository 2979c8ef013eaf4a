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
# And the same cases from per-CPU profiles instead of classes
# (tests/real/case_profile.py: every CPU runs the case's update operation,
# storing to its hot-written members, and its lookup, loading the
# read-mostly ones; each access named by its operation): the same
# collision lines on 6.1, nothing on 6.12, page_counter and zone (members
# one operation updates together are not paired), page_counter.usage true
# sharing with no padding proposed; and suggest's best proposal for the
# 6.1 profiles leaves no sharing.
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

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# input MODE VMLINUX STRUCT CLASSES: report's input options for the case:
# --classes CLASSES, or (MODE profile) --samples with the profile built
# from the case's mechanism.
input() {
	local mode=$1 vmlinux=$2 name=$3 classes=$4 prof
	if [[ $mode == classes ]]; then
		printf '%s\n' --classes "$classes"
		return
	fi
	prof="$tmp/$name-$(basename "$vmlinux").json"
	python3 "$here/case_profile.py" "$structlint" "$vmlinux" "$name" "$classes" > "$prof" || return 1
	printf '%s\n' --samples "$prof"
}

# check LABEL VMLINUX STRUCT CLASSES EXPECT [MODE]
#   EXPECT: space-separated "kind:line" of the false-sharing findings
#   (collision, write-write), in line order; "" for none.
#   MODE: classes (default) or profile (see input()).
check() {
	local label=$1 vmlinux=$2 name=$3 classes=$4 expect=$5 mode=${6:-classes} json got
	local -a in
	mapfile -t in < <(input "$mode" "$vmlinux" "$name" "$classes")
	[[ $mode == profile ]] && label="$label (profile)"
	if ! json=$("$structlint" report --json "$vmlinux" "$name" "${in[@]}"); then
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
	local label=$1 vmlinux=$2 mode=${3:-classes} json
	local -a in
	mapfile -t in < <(input "$mode" "$vmlinux" page_counter "$root/fixtures/report/page_counter.classes")
	[[ $mode == profile ]] && label="$label (profile)"
	json=$("$structlint" report --json "$vmlinux" page_counter "${in[@]}") || { echo "FAIL $label"; fail=$((fail + 1)); return; }
	if printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
ts = [f for f in d["findings"] if f["kind"] == "true-sharing"]
# classes: usage alone; profile: every counter all CPUs update is
# measured true-shared too (the protection counters, watermark, failcnt)
assert [[m["path"] for m in f["members"]] for f in ts].count(["usage"]) == 1, ts
assert ts and all(len(f["members"]) == 1 for f in ts), ts
for f in ts:
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

# check_suggest LABEL VMLINUX STRUCT CLASSES: from the case's profile,
# suggest's best proposal leaves no sharing (the read-mostly members
# moved off the written members' lines).
check_suggest() {
	local label="$1 (profile, suggest)" vmlinux=$2 name=$3 classes=$4 json
	local -a in
	mapfile -t in < <(input profile "$vmlinux" "$name" "$classes")
	if json=$("$structlint" suggest --json "$vmlinux" "$name" "${in[@]}") &&
	   printf '%s' "$json" | python3 -c '
import json, sys
p = json.load(sys.stdin)["proposals"][0]
assert p["score_before"] > 0 and p["score_after"] == 0, p["summary"]
print(p["summary"].split(";")[0])'; then
		echo "ok   $label"
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

for mode in classes profile; do
	check "6.1 mem_cgroup_per_node" "$v61" mem_cgroup_per_node "$c/mem_cgroup_per_node-6.1.classes" "collision:24 collision:39" $mode
	check "6.12 mem_cgroup_per_node" "$v612" mem_cgroup_per_node "$c/mem_cgroup_per_node.classes" "" $mode
	check "6.1 cgroup" "$v61" cgroup "$c/cgroup.classes" "collision:14" $mode
	check "6.12 cgroup" "$v612" cgroup "$c/cgroup.classes" "" $mode
	for k in "6.1:$v61" "6.12:$v612"; do
		check "${k%%:*} page_counter" "${k#*:}" page_counter "$r/page_counter.classes" "" $mode
		check "${k%%:*} zone" "${k#*:}" zone "$r/zone.classes" "" $mode
		check_true_sharing "${k%%:*} page_counter.usage" "${k#*:}" $mode
	done
done
check_suggest "6.1 mem_cgroup_per_node" "$v61" mem_cgroup_per_node "$c/mem_cgroup_per_node-6.1.classes"
check_suggest "6.1 cgroup" "$v61" cgroup "$c/cgroup.classes"
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
