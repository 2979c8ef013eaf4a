#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/real/kernel-check.sh [BUILD_DIR]
#
# Opt-in cross-check of structlint against pahole (1.24) on real kernels:
#   - Debian 12's 6.1 and 6.12 cloud-amd64 vmlinux (DWARF 5, from the
#     linux-image-*-dbg packages; fetched and unpacked on first use, ~900 MB
#     in the cache, see tests/real/kernels.sh):  structlint -F dwarf vs
#     pahole -F dwarf, and the .BTF section of the same files: -F btf vs -F btf;
#   - the running kernel's BTF (/sys/kernel/btf/vmlinux): -F btf vs -F btf;
# for every struct in tests/real/structs.list, member by member (through
# tests/pahole_compare.py's comparator).  A name absent from one input is
# reported as SKIP.
#
# BUILD_DIR holds the structlint binary (default: build, at the repo root).
# Prints one line per struct and input (PASS, FAIL + the first difference,
# SKIP + why), then "N passed, N failed, N skipped".  Every difference is
# written to $STRUCTLINT_CHECK_OUT/details.txt, with the raw outputs beside it.
#
# Environment:
#   STRUCTLINT_KERNEL_CACHE  where kernels are cached (/var/tmp/structlint-kernels)
#   STRUCTLINT_STRUCTS       struct list file (tests/real/structs.list)
#   STRUCTLINT_CHECK_OUT     output directory (default: a new one under /tmp)
#   PAHOLE                   pahole binary (pahole)
#
# Exit status: 0 all passed, 1 any failure, 2 could not run (no binary, no
# pahole, kernel fetch failed).
#
# pahole costs ~10 s and ~3 GB per call on a whole vmlinux, so it runs ONCE
# per input with every name (`--skip_missing`: without it pahole 1.24 stops
# at the first name missing from a CU and drops the rest), and structlint
# runs once with every name pahole found; only when that batch fails is
# structlint re-run name by name, to tell which name failed.

# run by sh: bash is needed (pipefail, arrays): start it
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/real/kernels.sh
. "$here/kernels.sh"

usage() { sed -n '3,34p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
case ${1:-} in -h|--help) usage; exit 0 ;; esac

build=${1:-$root/build}
structlint=$build/structlint
pahole=${PAHOLE:-pahole}
list=${STRUCTLINT_STRUCTS:-$here/structs.list}
die() { echo "kernel-check: $*" >&2; exit 2; }

[[ -x $structlint ]] || die "no structlint binary in $build (build it: meson setup $build && ninja -C $build)"
command -v "$pahole" >/dev/null || die "no pahole (apt-get install dwarves)"
command -v python3 >/dev/null || die "no python3"
[[ -r $list ]] || die "cannot read the struct list $list"
mapfile -t names < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
((${#names[@]})) || die "no names in $list"

out=${STRUCTLINT_CHECK_OUT:-$(mktemp -d /tmp/structlint-kernel-check.XXXXXX)}
mkdir -p "$out" || die "cannot create $out"
: > "$out/details.txt"
: > "$out/results.txt"
start=$SECONDS

# check LABEL FORMAT FILE: compare every name on one input.
check() {
	local label=$1 fmt=$2 file=$3 d found t0 rc name
	d=$out/$label
	mkdir -p "$d"
	t0=$SECONDS
	"$pahole" -F "$fmt" --skip_missing -C "$(IFS=,; echo "${names[*]}")" "$file" \
		> "$d/pahole.txt" 2> "$d/pahole.err"
	rc=$?
	if ((rc != 0)); then
		echo "FAIL $label: pahole -F $fmt exited $rc: $(grep -v 'Unknown kind' "$d/pahole.err" | head -n 1)" |
			tee -a "$out/results.txt"
		return
	fi
	# The names pahole printed, in list order.
	mapfile -t found < <(grep -oE '^(struct|union) [A-Za-z_0-9]+ \{$' "$d/pahole.txt" |
		awk '{print $2}' | sort -u | grep -Fxf - <(printf '%s\n' "${names[@]}"))
	local tp=$((SECONDS - t0))
	t0=$SECONDS
	: > "$d/structlint.txt"
	: > "$d/structlint.err"
	if ((${#found[@]})); then
		"$structlint" -F "$fmt" "$file" "${found[@]}" > "$d/structlint.txt" 2> "$d/structlint.err"
		rc=$?
		if ((rc != 0)); then
			echo "kernel-check: $label: structlint batch exited $rc ($(head -n 1 "$d/structlint.err")); re-running name by name" >&2
			: > "$d/structlint.txt"
			: > "$d/structlint.err"
			for name in "${found[@]}"; do
				timeout 120 "$structlint" -F "$fmt" "$file" "$name" >> "$d/structlint.txt" 2> "$d/one.err"
				rc=$?
				((rc == 0)) || echo "$name: exit $rc: $(head -n 1 "$d/one.err")" >> "$d/structlint.err"
			done
			rm -f "$d/one.err"
		fi
	fi
	local ts=$((SECONDS - t0))
	python3 "$here/compare_split.py" --label "$label" \
		--pahole "$d/pahole.txt" --pahole-err "$d/pahole.err" \
		--structlint "$d/structlint.txt" --structlint-err "$d/structlint.err" \
		--details "$out/details.txt" "${names[@]}" | tee -a "$out/results.txt"
	echo "kernel-check: $label: ${#found[@]} of ${#names[@]} names present; pahole ${tp} s, structlint ${ts} s" >&2
}

for glob in "${SLT_KERNEL_PKGS[@]}"; do
	vmlinux=$(slt_kernel_vmlinux "$glob") || die "cannot get a kernel for $glob"
	rel=${vmlinux##*/vmlinux-}
	echo "kernel-check: $vmlinux" >&2
	check "dwarf:$rel" dwarf "$vmlinux"
	check "btf:$rel" btf "$vmlinux"
done
if [[ -r /sys/kernel/btf/vmlinux ]]; then
	check "btf:running-$(uname -r)" btf /sys/kernel/btf/vmlinux
else
	echo "SKIP btf:running: /sys/kernel/btf/vmlinux not readable (kernel without CONFIG_DEBUG_INFO_BTF?)" |
		tee -a "$out/results.txt"
fi

pass=$(grep -c '^PASS ' "$out/results.txt")
fail=$(grep -c '^FAIL ' "$out/results.txt")
skip=$(grep -c '^SKIP ' "$out/results.txt")
echo "$pass passed, $fail failed, $skip skipped ($((SECONDS - start)) s; details in $out/details.txt)"
((fail == 0))
