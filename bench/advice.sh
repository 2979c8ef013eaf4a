#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/advice.sh [BUILD_DIR]
#
# Time of the layout advisor (structlint suggest) on Debian 12's real 6.1
# cloud-amd64 vmlinux (DWARF 5; found or fetched by tests/real/kernels.sh):
#   cgroup       40 members, fixtures/classes/cgroup.classes
#                (target: advisor time < 100 ms)
#   task_struct  ~250 top-level members, a synthetic classes file written
#                here: every 3rd named member hot-write, every 5th
#                read-mostly, the rest cold (target: advisor time < 1 s)
# Each is run $STRUCTLINT_BENCH_RUNS times (default 5) three ways, and the
# median wall time printed:
#   load      structlint report --json (load the layout, read the classes,
#             analyse: everything suggest does before the advisor)
#   suggest   structlint suggest --json (the same plus slt_advise, the
#             re-check of each proposal and the JSON)
#   advisor   suggest - load: the advisor's own time
# plus suggest --size-only for both.
# Exit status: 0 all targets met, 1 a target missed or suggest failed, 2
# could not run.
set -u -o pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=tests/real/kernels.sh
. "$root/tests/real/kernels.sh"
case ${1:-} in -h|--help) sed -n '3,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
build=${1:-$root/build}
structlint=$(cd "$build" 2>/dev/null && pwd)/structlint
runs=${STRUCTLINT_BENCH_RUNS:-5}
[[ -x $structlint ]] || { echo "bench/advice: no structlint in $build" >&2; exit 2; }
v61=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[0]}") || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Synthetic classes for task_struct (a timing workload, not real data).
"$structlint" --json "$v61" task_struct | python3 -c '
import json, sys
s = json.load(sys.stdin)["structs"][0]
names = [m["name"] for m in s["members"] if m["depth"] == 0 and m["name"]]
print("[struct task_struct]")
for i, n in enumerate(names):
    print("%s = %s" % (n, "hot-write" if i % 3 == 0 else "read-mostly" if i % 5 == 0 else "cold"))
' >"$tmp/task_struct.classes" || { echo "bench/advice: cannot read task_struct" >&2; exit 2; }

# median_ms CMD...: median wall time in ms of $runs runs (exit 1 if a run fails)
median_ms() {
	local t=() i s e
	for ((i = 0; i < runs; i++)); do
		s=$(date +%s%N)
		"$@" >/dev/null 2>"$tmp/err" || { echo "bench/advice: failed: $* ($(cat "$tmp/err"))" >&2; return 1; }
		e=$(date +%s%N)
		t+=($(( (e - s) / 1000000 )))
	done
	printf '%s\n' "${t[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}

status=0
printf '%-12s %9s %11s %11s %13s %8s  %s\n' struct load_ms suggest_ms advisor_ms size_only_ms target result
for spec in "cgroup $root/fixtures/classes/cgroup.classes 100" \
	    "task_struct $tmp/task_struct.classes 1000"; do
	read -r name cls target <<<"$spec"
	load=$(median_ms "$structlint" report --json "$v61" "$name" --classes "$cls") || { status=1; continue; }
	sugg=$(median_ms "$structlint" suggest --json "$v61" "$name" --classes "$cls") || { status=1; continue; }
	size=$(median_ms "$structlint" suggest --json --size-only "$v61" "$name") || { status=1; continue; }
	adv=$(( sugg - load ))
	res=ok
	(( adv < target )) || { res=MISSED; status=1; }
	printf '%-12s %9d %11d %11d %13d %6dms  %s\n' "$name" "$load" "$sugg" "$adv" "$size" "$target" "$res"
done
exit $status
