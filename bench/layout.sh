#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/layout.sh [BUILD_DIR]
#
# Time and peak memory of `structlint NAME` against `pahole -C NAME`, on
# Debian 12's real 6.1 cloud-amd64 vmlinux (DWARF 5, ~590 MB; fetched on
# first use by tests/real/kernels.sh) and on the running kernel's BTF.
# Cases:
#   absent      no_such_struct_xyz: a name that is nowhere in the file
#   absent-str  lock: no struct or union has this name, but it is a member
#               name in nearly every compile unit, so no CU can be skipped
#               on the strength of the string tables (the true worst case)
#   common      mem_cgroup_per_node (the usual request)
#   btf         mem_cgroup_per_node from /sys/kernel/btf/vmlinux
# Each is run $STRUCTLINT_BENCH_RUNS times (default 3); the median wall time
# (s) and median peak RSS (MB, /usr/bin/time %M) are printed, with the
# structlint/pahole ratios, then the targets:
#   absent cases: structlint time and peak memory <= 1/4 of pahole's
#   common case:  structlint under 1 s
# A run longer than $STRUCTLINT_BENCH_TIMEOUT s (default 120) is killed and
# counted as missing its target; the remaining runs of that case are skipped.
#
# BUILD_DIR holds the structlint binary (default: build, at the repo root).
# Exit status: 0 all targets met, 1 a target missed or a tool gave a wrong
# answer (found an absent name, missed a present one), 2 could not run.

set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=tests/real/kernels.sh
. "$root/tests/real/kernels.sh"

case ${1:-} in -h|--help) sed -n '3,26p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;; esac

build=${1:-$root/build}
structlint=$(cd "$build" 2>/dev/null && pwd)/structlint
pahole=${PAHOLE:-pahole}
runs=${STRUCTLINT_BENCH_RUNS:-3}
limit=${STRUCTLINT_BENCH_TIMEOUT:-120}
gtime=/usr/bin/time
die() { echo "bench: $*" >&2; exit 2; }

[[ -x $structlint ]] || die "no structlint binary in $build (meson setup $build && ninja -C $build)"
command -v "$pahole" >/dev/null || die "no pahole (apt-get install dwarves)"
{ [[ -x $gtime ]] && $gtime -f '%e %M' true 2>/dev/null; } ||
	die "GNU time is missing (apt-get install time)"
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "STRUCTLINT_BENCH_RUNS='$runs': want a positive count"

vmlinux=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[0]}") || die "cannot get the 6.1 kernel"
btf=/sys/kernel/btf/vmlinux
tmp=$(mktemp -d /tmp/structlint-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# Run from an empty directory: a NAME operand must never be taken for a file.
cd "$tmp" || die "cannot enter $tmp"
# Warm the page cache so the first run is not a disk benchmark.
cat "$vmlinux" > /dev/null

bad=0
# measure KEY WANT CMD...: WANT is "found NAME" (exit 0, layout of NAME on
# stdout) or "absent" (no layout on stdout).  Sets R_time[KEY], R_mem[KEY]
# (medians; time "" when a run timed out) and R_note[KEY].
declare -A R_time R_mem R_note
measure() {
	local key=$1 want=$2; shift 2
	local i rc t m ts=() ms=() note=
	for ((i = 0; i < runs; i++)); do
		$gtime -f '%e %M' -o "$tmp/time" timeout "$limit" "$@" > "$tmp/out" 2> "$tmp/err"
		rc=$?
		read -r t m < <(tail -n 1 "$tmp/time")
		if ((rc == 124)); then
			note="killed after ${limit} s"
			ts=()
			ms+=("$m")
			break
		fi
		if [[ $want == absent ]]; then
			grep -qE '^(struct|union) ' "$tmp/out" && note="WRONG: printed a layout for an absent name"
		else
			{ ((rc == 0)) && grep -q "^struct ${want#found } {" "$tmp/out"; } ||
				note="WRONG: exit $rc, no layout ($(grep -v 'Unknown kind' "$tmp/err" | head -n 1))"
		fi
		[[ $note == WRONG* ]] && { bad=1; break; }
		ts+=("$t")
		ms+=("$m")
	done
	R_time[$key]=$( ((${#ts[@]})) && printf '%s\n' "${ts[@]}" | sort -g | sed -n "$(((${#ts[@]} + 1) / 2))p")
	R_mem[$key]=$(printf '%s\n' "${ms[@]}" | sort -g | sed -n "$(((${#ms[@]} + 1) / 2))p")
	R_note[$key]=$note
}

echo "bench: $vmlinux ($(($(stat -c %s "$vmlinux") / 1048576)) MB), $runs run(s) each, medians" >&2
cases=(absent absent-str common)
declare -A NAME=([absent]=no_such_struct_xyz [absent-str]=lock [common]=mem_cgroup_per_node)
for c in "${cases[@]}"; do
	n=${NAME[$c]}
	want=absent
	[[ $c == common ]] && want="found $n"
	echo "bench: $c ($n): pahole" >&2
	measure "$c/pahole" "$want" "$pahole" -F dwarf -C "$n" "$vmlinux"
	echo "bench: $c ($n): structlint" >&2
	measure "$c/structlint" "$want" "$structlint" -F dwarf "$vmlinux" "$n"
done
if [[ -r $btf ]]; then
	cases+=(btf)
	measure "btf/pahole" "found mem_cgroup_per_node" "$pahole" -F btf -C mem_cgroup_per_node "$btf"
	measure "btf/structlint" "found mem_cgroup_per_node" "$structlint" mem_cgroup_per_node
fi

# fmt_time KEY / fmt_mem KEY / ratio A B: table cells.
fmt_time() {
	if [[ -n ${R_time[$1]} ]]; then printf '%.2f' "${R_time[$1]}"
	elif [[ ${R_note[$1]} == killed* ]]; then printf '>%s' "$limit"
	else printf -- '-'
	fi
}
fmt_mem() { awk -v k="${R_mem[$1]:-0}" 'BEGIN { printf "%.0f", k / 1024 }'; }
ratio() { [[ -n $1 && -n $2 ]] && awk -v a="$1" -v b="$2" 'BEGIN { printf (b > 0 ? "%.3f" : "-"), (b > 0 ? a / b : 0) }' || printf -- '-'; }

printf '\n%-34s %10s %10s %10s %10s %8s %8s\n' case "pahole s" "slint s" "pahole MB" "slint MB" "t ratio" "m ratio"
for c in "${cases[@]}"; do
	label="$c (${NAME[$c]:-mem_cgroup_per_node})"
	[[ $c == btf ]] && label="btf (mem_cgroup_per_node, running)"
	printf '%-34s %10s %10s %10s %10s %8s %8s\n' "$label" \
		"$(fmt_time "$c/pahole")" "$(fmt_time "$c/structlint")" \
		"$(fmt_mem "$c/pahole")" "$(fmt_mem "$c/structlint")" \
		"$(ratio "${R_time[$c/structlint]}" "${R_time[$c/pahole]}")" \
		"$(ratio "${R_mem[$c/structlint]}" "${R_mem[$c/pahole]}")"
	for k in "$c/pahole" "$c/structlint"; do
		[[ -n ${R_note[$k]} ]] && printf '  %s: %s\n' "$k" "${R_note[$k]}"
	done
done
echo "(ratios are structlint/pahole; MB = peak resident set, 1 MB = 1024 KB)"

# target LABEL VALUE OP LIMIT SHOWN: met when VALUE OP LIMIT (OP is <= or <);
# a missing or non-numeric VALUE (timeout, wrong answer) is a miss.
ok=1
target() {
	local label=$1 value=$2 op=$3 limit_v=$4 shown=$5
	if [[ $value =~ ^[0-9]+(\.[0-9]+)?$ ]] &&
		awk -v v="$value" -v l="$limit_v" -v op="$op" \
			'BEGIN { exit !(op == "<" ? v < l : v <= l) }'; then
		printf '  %-48s %-12s met\n' "$label" "$shown"
	else
		printf '  %-48s %-12s MISSED\n' "$label" "$shown"
		ok=0
	fi
}
echo
echo "targets:"
for c in absent absent-str; do
	rt=$(ratio "${R_time[$c/structlint]}" "${R_time[$c/pahole]}")
	rm_=$(ratio "${R_mem[$c/structlint]}" "${R_mem[$c/pahole]}")
	target "$c: time <= 1/4 of pahole's" "$rt" '<=' 0.25 "$rt"
	target "$c: peak memory <= 1/4 of pahole's" "$rm_" '<=' 0.25 "$rm_"
done
target "common: structlint time < 1 s" "${R_time[common/structlint]}" '<' 1 \
	"$(fmt_time common/structlint) s"
((bad)) && echo "a tool gave a wrong answer (see the notes under the table)"
((ok && !bad))
