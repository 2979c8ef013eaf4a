#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/layout.sh [BUILD_DIR]
#
# Time and peak memory of structlint against pahole, on Debian 12's real 6.1
# cloud-amd64 vmlinux (DWARF 5, ~590 MB; fetched on first use by
# tests/real/kernels.sh) and on the running kernel's BTF.  Cases:
#   absent      no_such_struct_xyz: a name that is nowhere in the file
#   absent-str  lock: no struct or union has this name, but it is a member
#               name in nearly every compile unit, so no CU can be skipped
#               on the strength of the string tables (the true worst case)
#   common      mem_cgroup_per_node (the usual request), cold (--no-cache)
#   warm        mem_cgroup_per_node answered by the name index (a run first
#               fills a private cache directory) against pahole -C
#   warm-big    the same for task_struct (a large struct: about 230 members,
#               a copy in some 200 compile units)
#   warm-late   the same for printf_spec, first defined in one of the last
#               compile units (2141 of 2172 in 6.1.0-57): libdwarf would set
#               up every unit before it to reach it
#   names77     the names of tests/real/structs.list that the kernel has, in
#               one call, against pahole --skip_missing -C a,b,...
#   all         --all against pahole -F dwarf with no -C (the full dump)
#   btf         mem_cgroup_per_node from /sys/kernel/btf/vmlinux
# structlint runs with --no-cache except in the warm cases.  Each case is run
# $STRUCTLINT_BENCH_RUNS times (default 3; `all` $STRUCTLINT_BENCH_ALL_RUNS,
# default 1: pahole needs minutes and GBs there); the medians of wall time
# (s), CPU time (user + system, s) and peak RSS (MB, /usr/bin/time %M) are
# printed with the structlint/pahole ratios, then the targets, each "met" or
# "MISSED" (time targets on CPU time, which a loaded machine disturbs less):
#   absent cases: time and peak memory <= 1/4 of pahole's
#   absent-str:   time <= 0.25 of pahole's
#   common:       structlint under 1 s of CPU
#   warm:         no slower than pahole -C, and under 50 ms (each warm case)
#   names77:      time <= 0.25 of pahole's
#   all:          time and peak memory <= 0.5 of pahole's (moonshot 0.2)
# $STRUCTLINT_BENCH_CASES (default: all of them) picks cases by name,
# separated by spaces or commas, e.g. "warm warm-big names77".
# A run longer than $STRUCTLINT_BENCH_TIMEOUT s (default 600) is killed and
# counted as missing its target; the remaining runs of that case are skipped.
#
# BUILD_DIR holds the structlint binary (default: build, at the repo root).
# Exit status: 0 when every case ran and every answer was right, whatever
# the targets; 1 a tool gave a wrong answer (found an absent name, missed a
# present one); 2 could not run.

# run by sh: bash is needed (pipefail, arrays): start it
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=tests/real/kernels.sh
. "$root/tests/real/kernels.sh"

case ${1:-} in -h|--help) sed -n '3,46p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;; esac

build=${1:-$root/build}
structlint=$(cd "$build" 2>/dev/null && pwd)/structlint
pahole=${PAHOLE:-pahole}
runs=${STRUCTLINT_BENCH_RUNS:-3}
all_runs=${STRUCTLINT_BENCH_ALL_RUNS:-1}
limit=${STRUCTLINT_BENCH_TIMEOUT:-600}
gtime=/usr/bin/time
die() { echo "bench: $*" >&2; exit 2; }

[[ -x $structlint ]] || die "no structlint binary in $build (meson setup $build && ninja -C $build)"
command -v "$pahole" >/dev/null || die "no pahole (apt-get install dwarves)"
{ [[ -x $gtime ]] && $gtime -f '%e %M %U %S' true 2>/dev/null; } ||
	die "GNU time is missing (apt-get install time)"
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "STRUCTLINT_BENCH_RUNS='$runs': want a positive count"
[[ $all_runs =~ ^[1-9][0-9]*$ ]] || die "STRUCTLINT_BENCH_ALL_RUNS='$all_runs': want a positive count"

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
# stdout) or "absent" (no layout on stdout).  Sets R_time[KEY], R_cpu[KEY],
# R_mem[KEY] (medians; times "" when a run timed out) and R_note[KEY].
# $n_runs runs (default $runs).
declare -A R_time R_cpu R_mem R_note
median() { (($#)) && printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }
measure() {
	local key=$1 want=$2; shift 2
	local i rc t m u sy ts=() cs=() ms=() note=
	for ((i = 0; i < ${n_runs:-$runs}; i++)); do
		$gtime -f '%e %M %U %S' -o "$tmp/time" timeout "$limit" "$@" > "$tmp/out" 2> "$tmp/err"
		rc=$?
		read -r t m u sy < <(tail -n 1 "$tmp/time")
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
		cs+=("$(awk -v u="$u" -v s="$sy" 'BEGIN { printf "%.2f", u + s }')")
		ms+=("$m")
	done
	R_time[$key]=$(median "${ts[@]}")
	R_cpu[$key]=$(median "${cs[@]}")
	R_mem[$key]=$(median "${ms[@]}")
	R_note[$key]=$note
}

echo "bench: $vmlinux ($(($(stat -c %s "$vmlinux") / 1048576)) MB), $runs run(s) each, medians" >&2
sel=" ${STRUCTLINT_BENCH_CASES:-absent absent-str common warm warm-big warm-late names77 all btf} "
sel=${sel//,/ }
for c in $sel; do
	case $c in absent|absent-str|common|warm|warm-big|warm-late|names77|all|btf) ;;
	*) die "STRUCTLINT_BENCH_CASES: unknown case '$c'" ;; esac
done
want_case() { [[ $sel == *" $1 "* ]]; }
cases=()
declare -A NAME=([absent]=no_such_struct_xyz [absent-str]=lock [common]=mem_cgroup_per_node
	[warm]=mem_cgroup_per_node [warm-big]=task_struct [warm-late]=printf_spec
	[names77]="structs.list" [all]="--all")
for c in absent absent-str common; do
	want_case "$c" || continue
	cases+=("$c")
	n=${NAME[$c]}
	want=absent
	[[ $c == common ]] && want="found $n"
	echo "bench: $c ($n): pahole" >&2
	measure "$c/pahole" "$want" "$pahole" -F dwarf -C "$n" "$vmlinux"
	echo "bench: $c ($n): structlint" >&2
	measure "$c/structlint" "$want" "$structlint" --no-cache -F dwarf "$vmlinux" "$n"
done

# warm: the name index in a private cache directory, filled by one run
export STRUCTLINT_CACHE_DIR=$tmp/cache
for c in warm warm-big warm-late; do
	want_case "$c" || continue
	cases+=("$c")
	n=${NAME[$c]}
	"$structlint" -F dwarf "$vmlinux" "$n" > /dev/null 2>&1
	echo "bench: $c ($n): pahole, structlint" >&2
	measure "$c/pahole" "found $n" "$pahole" -F dwarf -C "$n" "$vmlinux"
	measure "$c/structlint" "found $n" "$structlint" -F dwarf "$vmlinux" "$n"
done
unset STRUCTLINT_CACHE_DIR

# names77: tests/real/structs.list, the names this kernel has (pahole says)
if want_case names77; then
	mapfile -t list < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$root/tests/real/structs.list" | grep -v '^$')
	"$pahole" -F dwarf --skip_missing -C "$(IFS=,; echo "${list[*]}")" "$vmlinux" > "$tmp/p77" 2> /dev/null
	mapfile -t have < <(grep -oE '^(struct|union) [A-Za-z_0-9]+ \{$' "$tmp/p77" | awk '{print $2}' |
		sort -u | grep -Fxf - <(printf '%s\n' "${list[@]}"))
fi
if want_case names77 && ((${#have[@]})); then
	cases+=(names77)
	NAME[names77]="${#have[@]} names"
	echo "bench: names77 (${#have[@]} of ${#list[@]} names): pahole, structlint" >&2
	measure "names77/pahole" "found mem_cgroup_per_node" "$pahole" -F dwarf --skip_missing \
		-C "$(IFS=,; echo "${have[*]}")" "$vmlinux"
	measure "names77/structlint" "found mem_cgroup_per_node" "$structlint" --no-cache -F dwarf \
		"$vmlinux" "${have[@]}"
fi

# all: every struct and union (pahole's full dump)
if want_case all; then
	cases+=(all)
	echo "bench: all: pahole -F dwarf (minutes), structlint --all" >&2
	n_runs=$all_runs measure "all/pahole" "found mem_cgroup_per_node" "$pahole" -F dwarf "$vmlinux"
	heads_p=$(grep -cE '^(struct|union) [A-Za-z_0-9]+ \{$' "$tmp/out")
	n_runs=$all_runs measure "all/structlint" "found mem_cgroup_per_node" "$structlint" --no-cache -F dwarf \
		--all "$vmlinux"
	heads_s=$(grep -cE '^(struct|union) [A-Za-z_0-9]+ \{$' "$tmp/out")
	NAME[all]="--all, $heads_s/$heads_p structs"
fi

if want_case btf && [[ -r $btf ]]; then
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

fmt_cpu() { [[ -n ${R_cpu[$1]} ]] && printf '%.2f' "${R_cpu[$1]}" || printf -- '-'; }
printf '\n%-36s %8s %8s %8s %8s %9s %9s %7s %7s %7s\n' case "pahole s" "slint s" \
	"p cpu s" "s cpu s" "pahole MB" "slint MB" "t ratio" "cpu rat" "m ratio"
for c in "${cases[@]}"; do
	label="$c (${NAME[$c]:-mem_cgroup_per_node})"
	[[ $c == btf ]] && label="btf (mem_cgroup_per_node, running)"
	printf '%-36s %8s %8s %8s %8s %9s %9s %7s %7s %7s\n' "$label" \
		"$(fmt_time "$c/pahole")" "$(fmt_time "$c/structlint")" \
		"$(fmt_cpu "$c/pahole")" "$(fmt_cpu "$c/structlint")" \
		"$(fmt_mem "$c/pahole")" "$(fmt_mem "$c/structlint")" \
		"$(ratio "${R_time[$c/structlint]}" "${R_time[$c/pahole]}")" \
		"$(ratio "${R_cpu[$c/structlint]}" "${R_cpu[$c/pahole]}")" \
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
echo "targets (reported; the exit status does not depend on them):"
for c in absent absent-str; do
	want_case "$c" || continue
	rt=$(ratio "${R_cpu[$c/structlint]}" "${R_cpu[$c/pahole]}")
	rm_=$(ratio "${R_mem[$c/structlint]}" "${R_mem[$c/pahole]}")
	target "$c: CPU time <= 1/4 of pahole's" "$rt" '<=' 0.25 "$rt"
	target "$c: peak memory <= 1/4 of pahole's" "$rm_" '<=' 0.25 "$rm_"
done
want_case common &&
	target "common: structlint CPU time < 1 s" "${R_cpu[common/structlint]}" '<' 1 \
		"$(fmt_cpu common/structlint) s"
for c in warm warm-big warm-late; do
	want_case "$c" || continue
	# both often read 0.00 s (GNU time's resolution): compare the times,
	# not their ratio
	target "$c: CPU time no more than pahole -C's" "${R_cpu[$c/structlint]}" '<=' \
		"${R_cpu[$c/pahole]:--1}" "$(fmt_cpu "$c/structlint") vs $(fmt_cpu "$c/pahole") s"
	target "$c: structlint CPU time < 50 ms" "${R_cpu[$c/structlint]}" '<' 0.05 \
		"$(fmt_cpu "$c/structlint") s"
done
if [[ -n ${R_cpu[names77/pahole]:-} ]]; then
	rt=$(ratio "${R_cpu[names77/structlint]}" "${R_cpu[names77/pahole]}")
	target "names77: CPU time <= 0.25 of pahole's" "$rt" '<=' 0.25 "$rt"
fi
if want_case all; then
	rt=$(ratio "${R_cpu[all/structlint]}" "${R_cpu[all/pahole]}")
	rm_=$(ratio "${R_mem[all/structlint]}" "${R_mem[all/pahole]}")
	target "all: CPU time <= 0.5 of pahole's (moonshot 0.2)" "$rt" '<=' 0.5 "$rt"
	target "all: peak memory <= 0.5 of pahole's (moonshot 0.2)" "$rm_" '<=' 0.5 "$rm_"
	[[ $heads_s == "$heads_p" ]] ||
		echo "  all: structlint printed $heads_s structs, pahole $heads_p (see tests/real for parity)"
fi
if ((bad)); then
	echo "a tool gave a wrong answer (see the notes under the table)"
	exit 1
fi
exit 0
