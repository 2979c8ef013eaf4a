#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The real false-sharing cases of /work/shared/cases/README.md with STATIC
# member classes only: no samples, no classes file, just the binary
# (`structlint report VMLINUX STRUCT`, classes from the static access map,
# include/structlint/access.h "static member classes").  Opt-in: needs
# Debian's 6.1 and 6.12 vmlinux with DWARF (tests/real/kernels.sh finds or
# fetches them).  The first run per kernel builds its access map (about
# 30 s CPU each) into a private cache; the rest read it.
#
#   tests/real/access-cases.sh [BUILD_DIR]      (default BUILD_DIR: build)
#
# Prints, per kernel and struct, every finding (kind, line, members and
# their static classes), then checks the cases:
#   6.1  mem_cgroup_per_node: lines 24 and 39 flagged (collision)
#   6.1  cgroup: line 14 flagged
#   6.12 mem_cgroup_per_node: nothing flagged
#   6.12 cgroup: nothing flagged on the lines of the rstat members
#        (rstat_cpu, rstat_css_list, rstat_flush_next, last_bstat, bstat)
#   page_counter, zone (6.1 and 6.12): nothing flagged
# Other findings on cgroup are printed (and counted) but not failed: the
# cases name the rstat lines only.
# Exit 0 when every check holds, 1 otherwise, 2 when a kernel is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/real/kernels.sh
. "$here/kernels.sh"
build=${1:-$root/build}
structlint=$build/structlint
[[ -x $structlint ]] || { echo "access-cases: no structlint in $build" >&2; exit 2; }
v61=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[0]}") || exit 2
v612=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[1]}") || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export STRUCTLINT_CACHE_DIR=${STRUCTLINT_CACHE_DIR:-$tmp/cache}
pass=0
fail=0
other=0

# case LABEL VMLINUX STRUCT WANT [ONLY]: WANT = the flagged lines
# (space-separated, sorted) among the findings touching ONLY's members
# (a regex of member paths; empty: every finding).
case_() {
	local label=$1 vmlinux=$2 name=$3 want=$4 only=${5:-} json got
	if ! json=$("$structlint" report --json "$vmlinux" "$name" 2>"$tmp/err"); then
		echo "FAIL $label: structlint failed: $(cat "$tmp/err")"
		fail=$((fail + 1))
		return
	fi
	got=$(printf '%s' "$json" | ONLY="$only" LABEL="$label" python3 -c '
import json, os, re, sys
d = json.load(sys.stdin)
only = os.environ["ONLY"]
cls = {m["path"]: m["class"] for m in d["members"]}
src = {m.get("class_source") for m in d["members"] if m["class_given"]}
assert src <= {"static"}, src
sel, rest = [], []
for f in d["findings"]:
    if f["kind"] not in ("collision", "write-write"):
        continue
    names = [m["path"] for m in f["members"]]
    desc = "  %s line %d: %s" % (f["kind"], f["line"], ", ".join(
        "%s (%s)" % (n, cls.get(n, "?")) for n in names))
    if not only or any(re.fullmatch(only, n) for n in names):
        sel.append(f["line"])
        print(desc, file=sys.stderr)
    else:
        rest.append(f["line"])
        print(desc + "  [not a case line]", file=sys.stderr)
print(" ".join(str(l) for l in sorted(set(sel))), len(rest))
' 2>"$tmp/desc")
	local lines=${got% *} n_other=${got##* }
	[[ $lines == "$got" ]] && lines=""
	other=$((other + n_other))
	if [[ $lines == "$want" ]]; then
		echo "ok   $label: flagged [${lines}]"
		pass=$((pass + 1))
	else
		echo "FAIL $label: flagged [${lines}], want [${want}]"
		fail=$((fail + 1))
	fi
	cat "$tmp/desc"
}

rstat='rstat_cpu|rstat_css_list|rstat_flush_next|last_bstat|bstat'
case_ "6.1 mem_cgroup_per_node" "$v61" mem_cgroup_per_node "24 39"
case_ "6.12 mem_cgroup_per_node" "$v612" mem_cgroup_per_node ""
case_ "6.1 cgroup (rstat lines)" "$v61" cgroup "14" "$rstat"
case_ "6.12 cgroup (rstat lines)" "$v612" cgroup "" "$rstat"
for k in "6.1:$v61" "6.12:$v612"; do
	case_ "${k%%:*} page_counter" "${k#*:}" page_counter ""
	case_ "${k%%:*} zone" "${k#*:}" zone ""
done
echo "$pass passed, $fail failed; $other other finding(s) outside the case lines (printed above)"
[[ $fail -eq 0 ]]
