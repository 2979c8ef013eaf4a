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
# median wall time and median CPU time (user + sys) printed as WALL/CPU
# (the targets apply to CPU time; the machine may be shared):
#   load      structlint report --json (load the layout, read the classes,
#             analyse: everything suggest does before the advisor)
#   suggest   structlint suggest --json (the same plus slt_advise, the
#             re-check of each proposal and the JSON)
#   advisor   suggest - load: the advisor's own time
# plus suggest --size-only for both.
# Exit status: 0 all targets met, 1 a target missed or suggest failed, 2
# could not run.
# run by sh: bash is needed (pipefail, arrays): start it
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
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

# median_ms CMD...: "WALL CPU", the median wall time and the median CPU time
# (user + sys, which a shared machine does not inflate) in ms of $runs runs
# (exit 1 if a run fails)
median_ms() {
	local w=() c=() i u s2
	for ((i = 0; i < runs; i++)); do
		/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
			{ echo "bench/advice: failed: $* ($(cat "$tmp/err"))" >&2; return 1; }
		read -r e u s2 <"$tmp/time"
		w+=($(python3 -c "print(round($e * 1000))"))
		c+=($(python3 -c "print(round(($u + $s2) * 1000))"))
	done
	echo "$(printf '%s\n' "${w[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")" \
	     "$(printf '%s\n' "${c[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")"
}

status=0
printf '%-12s %15s %15s %15s %15s %8s  %s\n' struct load_ms suggest_ms advisor_ms size_only_ms target result
printf '%-12s %15s %15s %15s %15s\n' '' wall/cpu wall/cpu wall/cpu wall/cpu
for spec in "cgroup $root/fixtures/classes/cgroup.classes 100" \
	    "task_struct $tmp/task_struct.classes 1000"; do
	read -r name cls target <<<"$spec"
	read -r lw lc < <(median_ms "$structlint" report --json "$v61" "$name" --classes "$cls") || { status=1; continue; }
	read -r sw sc < <(median_ms "$structlint" suggest --json "$v61" "$name" --classes "$cls") || { status=1; continue; }
	read -r zw zc < <(median_ms "$structlint" suggest --json --size-only "$v61" "$name") || { status=1; continue; }
	[[ -n ${lc:-} && -n ${sc:-} && -n ${zc:-} ]] || { status=1; continue; }
	aw=$(( sw - lw )) ac=$(( sc - lc ))
	res=ok
	# the target is on CPU time: wall time on a shared machine includes
	# waiting for a core
	(( ac < target )) || { res=MISSED; status=1; }
	printf '%-12s %15s %15s %15s %15s %6dms  %s\n' "$name" "$lw/$lc" "$sw/$sc" "$aw/$ac" \
	       "$zw/$zc" "$target" "$res"
done
exit $status
