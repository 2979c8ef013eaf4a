#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Baselines on Debian's real kernels (opt-in: needs the linux-image-*-dbg
# vmlinux files, found or fetched by tests/real/kernels.sh).
#
#   tests/real/baseline.sh [BUILD_DIR]      (default BUILD_DIR: build)
#   STRUCTLINT_KERNEL_CACHE=/var/tmp/kdbg tests/real/baseline.sh BUILD_DIR
#
# A baseline of 6.12's cgroup and mem_cgroup_per_node, with the classes of
# fixtures/classes (cgroup.classes, mem_cgroup_per_node.classes), is
# checked against the 6.1 layouts (structlint check --baseline):
#   - exit 1, and the baseline-hot-shares-read-mostly violations (one per
#     cacheline, naming every written and read-mostly member on it) are
#     exactly the ones a reviewer names (/work/shared/cases/README.md):
#       cgroup: hot last_bstat on line 14 with read-mostly rstat_cpu and
#               rstat_css_list;
#       mem_cgroup_per_node: hot lruvec on line 24 with read-mostly
#               lruvec_stats_percpu, hot iter on line 39 with read-mostly
#               shrinker_info and memcg;
#     with 6.1's own classes given (--classes mem_cgroup_per_node-6.1.classes:
#     there lruvec_stats is the embedded, flush-written struct, not 6.12's
#     read-mostly pointer), and with the baseline's classes alone, where
#     the 6.12 class of lruvec_stats also flags hot lru_zone_size beside it
#     on line 35 (and a baseline-member-type-changed note says the recorded
#     class was kept across the type change);
#   - the 6.1 members 6.12 lacks (tree_node, usage_in_excess, on_tree) sit
#     on line 39 with read-mostly shrinker_info: errors while their class
#     is unknown, notes once the 6.1 classes call them cold;
#   - baseline-lines-grew for mem_cgroup_per_node (30 -> 40 lines);
#   - members that moved to another line are warnings (notes when
#     unclassified), never errors: the errors are exactly the sharings,
#     the growth and the new members of unknown class (the "errors N" line);
#   - 6.12 against its own baseline: exit 0, no violation at all.
# Exit 0 when every check holds, 1 otherwise, 2 when a kernel is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/real/kernels.sh
. "$here/kernels.sh"
build=${1:-$root/build}
structlint=$build/structlint
[[ -x $structlint ]] || { echo "baseline: no structlint in $build" >&2; exit 2; }
v61=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[0]}") || exit 2
v612=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[1]}") || exit 2
fx=$root/fixtures/classes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail=0
pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

if ! "$structlint" baseline "$v612" cgroup mem_cgroup_per_node \
	--classes "$fx/cgroup.classes" --classes "$fx/mem_cgroup_per_node.classes" \
	>"$tmp/b.json" 2>"$tmp/b.err"; then
	bad "baseline of 6.12: $(cat "$tmp/b.err")"
	exit 1
fi
"$structlint" baseline "$v612" cgroup mem_cgroup_per_node \
	--classes "$fx/cgroup.classes" --classes "$fx/mem_cgroup_per_node.classes" \
	>"$tmp/b2.json" 2>/dev/null
if cmp -s "$tmp/b.json" "$tmp/b2.json"; then ok "baseline is deterministic ($(wc -c <"$tmp/b.json") bytes)"
else bad "two baselines of the same input differ"; fi

# summary JSON -> "rule|severity|member|message-key" lines to compare
summarise() {
	python3 -c '
import json, re, sys
d = json.load(sys.stdin)
for v in d["violations"]:
    if v["rule"] == "baseline-hot-shares-read-mostly":
        # one per cacheline: every written and read-mostly member on it
        m = re.match(r"cacheline (\d+) now holds written (.*) and read-mostly (.*); not shared", v["message"])
        w, r = (",".join(re.findall(r"(?:^|, )(\S+) \(", m.group(k))) for k in (2, 3))
        print("share %s %s:%s written %s read-mostly %s" % (v["severity"], v["struct"], m.group(1), w, r))
    elif v["rule"] in ("baseline-member-added", "baseline-lines-grew", "baseline-member-type-changed"):
        print("%s %s %s.%s" % (v["rule"][9:], v["severity"], v["struct"], v.get("member") or "-"))
    elif v["rule"] == "baseline-member-moved-line" and v["severity"] == "error":
        # a move is a warning: the sharings and growth are the errors
        print("moved-line error %s.%s" % (v["struct"], v["member"]))
print("errors %d" % d["errors"])
' | sort
}

# run LABEL WANT_RC EXPECT_FILE check-args...
run() {
	local label=$1 want_rc=$2 expect=$3 rc got
	shift 3
	"$structlint" check --json "$@" >"$tmp/out.json" 2>"$tmp/err"
	rc=$?
	if [[ $rc != "$want_rc" ]]; then
		bad "$label: exit $rc, want $want_rc ($(head -c 300 "$tmp/err"))"
		return
	fi
	got=$(summarise <"$tmp/out.json")
	if [[ $got == "$expect" ]]; then
		ok "$label: exit $rc"
		printf '%s\n' "$got" | sed 's/^/       /'
	else
		bad "$label"
		diff <(printf '%s\n' "$expect") <(printf '%s\n' "$got") | sed 's/^/       /'
	fi
}

reviewer="share error cgroup:14 written last_bstat read-mostly rstat_cpu,rstat_css_list
share error mem_cgroup_per_node:24 written lruvec read-mostly lruvec_stats_percpu
share error mem_cgroup_per_node:39 written iter read-mostly shrinker_info,memcg"

run "6.1 vs 6.12 baseline, 6.1 classes given" 1 "$(sort <<EOF
$reviewer
errors 4
lines-grew error mem_cgroup_per_node.-
member-added note cgroup.congestion_count
member-added note mem_cgroup_per_node.on_tree
member-added note mem_cgroup_per_node.tree_node
member-added note mem_cgroup_per_node.usage_in_excess
member-type-changed note mem_cgroup_per_node.lruvec_stats
EOF
)" "$v61" --baseline "$tmp/b.json" --classes "$fx/mem_cgroup_per_node-6.1.classes"

run "6.1 vs 6.12 baseline, baseline classes only" 1 "$(sort <<EOF
$reviewer
share error mem_cgroup_per_node:35 written lru_zone_size read-mostly lruvec_stats
errors 8
lines-grew error mem_cgroup_per_node.-
member-added note cgroup.congestion_count
member-added error mem_cgroup_per_node.on_tree
member-added error mem_cgroup_per_node.tree_node
member-added error mem_cgroup_per_node.usage_in_excess
member-type-changed note mem_cgroup_per_node.lruvec_stats
EOF
)" "$v61" --baseline "$tmp/b.json"

"$structlint" check "$v612" --baseline "$tmp/b.json" >"$tmp/self.txt" 2>&1
rc=$?
if [[ $rc == 0 ]] && grep -q ': 0 errors, 0 warnings, 0 notes' "$tmp/self.txt"; then
	ok "6.12 vs its own baseline: exit 0, $(tail -1 "$tmp/self.txt")"
else
	bad "6.12 vs its own baseline: exit $rc: $(tail -3 "$tmp/self.txt")"
fi

echo "baseline: $pass passed, $fail failed"
[[ $fail == 0 ]]
