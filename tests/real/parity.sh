#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/real/parity.sh [BUILD_DIR]
#
# Opt-in whole-kernel parity check of structlint's text layout against
# pahole 1.24: EVERY struct and union that pahole prints (no -C) for
#   dwarf:6.1      Debian 12's 6.1 cloud-amd64 vmlinux, pahole -F dwarf
#   dwarf:6.12     Debian 12's 6.12 cloud-amd64 vmlinux, pahole -F dwarf
#   btf:running    /sys/kernel/btf/vmlinux, pahole -F btf
#   btf:6.1        the .BTF section of the same 6.1 vmlinux, pahole -F btf
#   btf:6.12       the .BTF section of the 6.12 vmlinux, pahole -F btf
# is compared byte for byte with what structlint prints for the same input
# (structlint -F FORMAT FILE --all when it has --all, else every name
# pahole printed, in batches).  The vmlinux files come from
# tests/real/kernels.sh (fetched on first use).
#
# The comparison is tests/real/parity.py; the allowed differences, each
# keyed by its mechanism with its reason (pahole's own bugs, structlint's
# deliberate labels), are tests/real/parity_rules.py.
#
# Prints one line per input and a total: definitions compared, identical,
# allowed (per category), unexplained (per signature); then the reasons
# and a few examples of each category, and the time taken.  Every
# unexplained difference is written to $OUT/details.txt beside the raw
# outputs.
#
# Environment:
#   STRUCTLINT_PARITY_INPUTS  the inputs to check, among dwarf:6.1
#                             dwarf:6.12 btf:running btf:6.1 btf:6.12
#                             (default: all five)
#   STRUCTLINT_PARITY_OUT     output directory (default: a new one in /tmp)
#   STRUCTLINT_PARITY_BATCH   names per structlint call without --all (400)
#   STRUCTLINT_PARITY_REUSE=1 keep pahole's output from an earlier run in
#                             STRUCTLINT_PARITY_OUT (pahole is the slow
#                             side when iterating on a fix)
#   STRUCTLINT_KERNEL_CACHE   see tests/real/kernels.sh
#   PAHOLE                    pahole binary (pahole)
#
# Exit status: 0 no unexplained difference, 1 some, 2 could not run.
# Cost: pahole ~15-35 s and ~3 GB per vmlinux; structlint --all about
# the same; without --all, structlint takes ~0.15 s of CPU per name on a
# vmlinux (about 20 minutes per kernel).

set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/real/kernels.sh
. "$here/kernels.sh"

usage() { sed -n '3,44p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
case ${1:-} in -h|--help) usage; exit 0 ;; esac

build=${1:-$root/build}
structlint=$build/structlint
pahole=${PAHOLE:-pahole}
batch=${STRUCTLINT_PARITY_BATCH:-400}
read -r -a inputs <<< "${STRUCTLINT_PARITY_INPUTS:-dwarf:6.1 dwarf:6.12 btf:running btf:6.1 btf:6.12}"
die() { echo "parity: $*" >&2; exit 2; }

[[ -x $structlint ]] || die "no structlint binary in $build (build it: meson setup $build && meson compile -C $build)"
command -v "$pahole" >/dev/null || die "no pahole (apt-get install dwarves)"
command -v python3 >/dev/null || die "no python3"
out=${STRUCTLINT_PARITY_OUT:-$(mktemp -d /tmp/structlint-parity.XXXXXX)}
mkdir -p "$out" || die "cannot create $out"
start=$SECONDS
has_all=0
"$structlint" layout --help 2>/dev/null | grep -q -- '--all' && has_all=1

# run_input LABEL FORMAT FILE: both tools' whole output into $out/LABEL.
run_input() {
	local label=$1 fmt=$2 file=$3 d t0 rc
	d=$out/${label//[:\/]/_}
	mkdir -p "$d"
	t0=$SECONDS
	if [[ -n ${STRUCTLINT_PARITY_REUSE:-} && -s $d/pahole.txt && $d/pahole.txt -nt $file ]]; then
		echo "parity: $label: pahole output of an earlier run reused" >&2
	else
		"$pahole" -F "$fmt" "$file" > "$d/pahole.txt" 2> "$d/pahole.err"
		rc=$?
		((rc == 0)) || die "$label: pahole -F $fmt $file exited $rc: $(grep -v 'Unknown kind' "$d/pahole.err" | head -n 1)"
		echo "parity: $label: pahole $((SECONDS - t0)) s" >&2
	fi
	# every name pahole printed, once, in its order; those printed more
	# than once (several distinct definitions)
	grep -oE '^(struct|union) [A-Za-z_0-9]+ \{$' "$d/pahole.txt" | awk '{print $2}' |
		awk '!seen[$0]++' > "$d/names.txt"
	grep -oE '^(struct|union) [A-Za-z_0-9]+ \{$' "$d/pahole.txt" | awk '{print $2}' |
		sort | uniq -d > "$d/names-multi.txt"
	t0=$SECONDS
	: > "$d/structlint.list"
	if ((has_all)); then
		"$structlint" -F "$fmt" --all "$file" > "$d/structlint-all.txt" 2> "$d/structlint.err" ||
			die "$label: structlint --all exited $?: $(head -n 1 "$d/structlint.err")"
		echo structlint-all.txt >> "$d/structlint.list"
		# every definition of the names pahole printed several times
		if [[ -s $d/names-multi.txt ]]; then
			xargs -a "$d/names-multi.txt" "$structlint" -F "$fmt" "$file" \
				> "$d/structlint-multi.txt" 2>> "$d/structlint.err" ||
				die "$label: structlint (names with several definitions) failed: $(tail -n 1 "$d/structlint.err")"
			echo structlint-multi.txt >> "$d/structlint.list"
		fi
	else
		local i=0 f
		rm -f "$d"/batch.*
		split -l "$batch" -d -a 4 "$d/names.txt" "$d/batch."
		for f in "$d"/batch.*; do
			i=$((i + 1))
			xargs -a "$f" "$structlint" -F "$fmt" "$file" \
				> "$d/structlint-$i.txt" 2>> "$d/structlint.err" ||
				die "$label: structlint on the names of $f failed: $(tail -n 1 "$d/structlint.err")"
			echo "structlint-$i.txt" >> "$d/structlint.list"
		done
		rm -f "$d"/batch.*
	fi
	echo "parity: $label: structlint $((SECONDS - t0)) s ($(wc -l < "$d/names.txt") names$( ((has_all)) && echo ', --all'))" >&2
	args+=(--input "$label" "$fmt" "$d")
}

args=()
for input in "${inputs[@]}"; do
	case $input in
	dwarf:6.1 | dwarf:6.12 | btf:6.1 | btf:6.12)
		glob=${SLT_KERNEL_PKGS[0]}
		[[ $input == *:6.12 ]] && glob=${SLT_KERNEL_PKGS[1]}
		vmlinux=$(slt_kernel_vmlinux "$glob") || die "cannot get a kernel for $glob"
		run_input "$input" "${input%%:*}" "$vmlinux" ;;
	btf:running)
		[[ -r /sys/kernel/btf/vmlinux ]] || die "/sys/kernel/btf/vmlinux not readable (kernel without CONFIG_DEBUG_INFO_BTF?)"
		run_input "$input" btf /sys/kernel/btf/vmlinux ;;
	*) die "unknown input '$input' (want dwarf:6.1, dwarf:6.12, btf:running, btf:6.1, btf:6.12)" ;;
	esac
done

python3 "$here/parity.py" --details "$out/details.txt" "${args[@]}"
rc=$?
echo "parity: $((SECONDS - start)) s; outputs and details in $out"
exit $rc
