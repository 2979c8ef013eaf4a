#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Live IP-sample proof (opt-in: depends on timing and load): record the
# false-sharing fixture with `structlint record` (cpu-clock IP samples on a
# machine without memory events), report, suggest, rebuild with the
# proposed layout, and compare run times.
#
#   tests/real/weight-record.sh [BUILD_DIR] [ITERS]   (build, 300000000)
#
# fixtures/weight/falseshare.c is built -O2 -g (PIE): one thread stores
# stats.hits, one loads stats.limit on the same line.  Asserts:
#   - record says on stderr that it records cpu-clock IP samples (when the
#     PMU has no memory events) and the program printed overlap=1 (each
#     thread saw the other started before it finished);
#   - (the threads are pinned to CPUs 0 and 1: falseshare ITERS pin)
#   - the two threads ran at the same time on two CPUs: the report's hits
#     and limit CPU lists differ (else: inconclusive, exit 77, the machine
#     was too busy to run them in parallel);
#   - report flags line 0 with hits written and limit colliding, naming the
#     basis; suggest moves limit off hits's line;
#   - the program rebuilt with suggest's C declaration (-DSTATS_DECL) runs
#     faster: median of 5 interleaved runs each (printed with the ratio;
#     "faster" is asserted only when both threads had a CPU each).
# Exit 0 pass, 1 fail, 77 inconclusive.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
iters=${2:-300000000}
sl=$build/structlint
[[ -x $sl ]] || { echo "weight-record: no structlint in $build" >&2; exit 2; }
work=$(mktemp -d /tmp/slt-wrec.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "weight-record: FAIL: $*" >&2; exit 1; }
cc=${CC:-gcc}
$cc -O2 -g -pthread -o "$work/fs" "$root/fixtures/weight/falseshare.c" || fail "build"

"$sl" record -o "$work/ip.data" -- "$work/fs" "$iters" pin > "$work/run.out" 2> "$work/record.err" ||
	fail "record: $(cat "$work/record.err")"
cat "$work/record.err"
grep -q 'overlap=1' "$work/run.out" || { echo "weight-record: the threads did not overlap: inconclusive"; exit 77; }

"$sl" report "$work/fs" stats --samples "$work/ip.data" --json > "$work/report.json" 2> "$work/report.err" ||
	fail "report: $(cat "$work/report.err")"
cat "$work/report.err"
python3 - "$work/report.json" <<'PY' || exit $?
import json, sys
d = json.load(open(sys.argv[1]))
m = {x['path']: x for x in d['members']}
hc = {c['cpu'] for c in m['hits']['cpus']}
lc = {c['cpu'] for c in m['limit']['cpus']}
print('hits written on CPUs %s, limit loaded on CPUs %s' % (sorted(hc), sorted(lc)))
if not hc or not lc or hc == lc and len(hc) == 1:
    print('weight-record: the two threads never ran on two CPUs at once: inconclusive')
    sys.exit(77)
assert 'estimated from IP samples x static sites' in d['base']['note'], d['base']
f = [x for x in d['findings'] if x['kind'] == 'collision']
assert f, ('no collision found', d['findings'])
print('finding: %s line %s score %s' % (f[0]['kind'], f[0]['line'], f[0]['score']))
PY
"$sl" report "$work/fs" stats --samples "$work/ip.data" 2>/dev/null | grep -A4 '^finding'
"$sl" suggest "$work/fs" stats --samples "$work/ip.data" --json > "$work/suggest.json" 2>/dev/null ||
	fail "suggest"
python3 - "$work/suggest.json" "$work/decl.h" <<'PY' || fail "suggest did not separate hits and limit"
import json, sys
d = json.load(open(sys.argv[1]))
p = d['proposals'][0]
off = {m['name']: m['offset'] for m in p['layout']['members']}
print('proposal 1 (%s): hits at %d, limit at %d' % (p['kind'], off['hits'], off['limit']))
assert off['hits'] // 64 != off['limit'] // 64
open(sys.argv[2], 'w').write(p['c_decl'])
PY
$cc -O2 -g -pthread -DSTATS_DECL="\"$work/decl.h\"" -o "$work/fs-fixed" "$root/fixtures/weight/falseshare.c" ||
	fail "rebuild with the proposed layout"
now() { date +%s.%N; }
for r in 1 2 3 4 5; do
	for v in fs fs-fixed; do
		t0=$(now); "$work/$v" "$iters" pin > /dev/null; t1=$(now)
		echo "$v $(echo "$t1 - $t0" | bc -l)" >> "$work/times"
	done
done
python3 - "$work/times" <<'PY'
import statistics, sys
t = {}
for line in open(sys.argv[1]):
    v, s = line.split()
    t.setdefault(v, []).append(float(s))
a, b = statistics.median(t['fs']), statistics.median(t['fs-fixed'])
print('median run time: as built %.3f s, with the proposed layout %.3f s: %.2fx' % (a, b, a / b))
sys.exit(0 if b < a else 1)
PY
rc=$?
[[ $rc == 0 ]] || fail "the rebuilt program is not faster"
echo "weight-record: ok"
