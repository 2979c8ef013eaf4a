#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/validate.sh [--realtime] [--only TEXT] [BUILD_DIR]
#
# Does a proposed layout run faster?  `structlint validate` (interleaved
# A/B runs on the reference stats engine, the per-round ratios B/A with a
# 95% paired Student t interval) on three cases, printed as one table like
# the kernel's will-it-scale tables (base, with fix, change in %, 95% CI,
# verdict):
#   memcg 6.1 -> proposal   struct mem_cgroup_per_node of Debian's 6.1
#                           vmlinux (DWARF) with the 2024 memcg fix's member
#                           classes (fixtures/classes/mem_cgroup_per_node-
#                           6.1.classes), against the advisor's proposal 1;
#                           the engine's built-in memcg role map
#   memcg 6.1 -> 6.12       the same base against Debian's 6.12 layout
#                           (--against), the kernel's own fix; the two
#                           role maps differ (6.1's embedded lruvec_stats
#                           is flush-written, 6.12's pointer only read), so
#                           this row measures layout plus workload (the
#                           row prints validate's note)
#   bad_stats -> proposal   a compiled fixture where read-mostly pointers
#                           share a line with hot counters, against the
#                           advisor's proposal; generic replay of its
#                           classes (synthetic: whole members), and
#                           again from a small profile with offsets,
#                           widths and CPUs (measured pattern)
#   cgroup 6.1 -> 6.12      the rstat padding (6.8): per-CPU lock holds
#                           in the 1-5 us bucket and their mean, both
#                           sides, in the mainline (list flush) mode
#   batch 32 -> 128         blind check (5.15-rc1 stats mode, 6.1 memcg,
#                           --synthetic): engine runs with --batch 32 and
#                           128 in ABBA rounds, the paired interval of
#                           the ops/s ratio; expected: faster; reported
#   bad_stats program       the user-program row: a two-thread program
#                           on bad_stats built with and without the
#                           proposal (--source-root/--build/--run):
#                           wall and CPU seconds, paired interval
# The memcg rows have no measured profile here: they run --synthetic
# and say so.
# Kernels: $STRUCTLINT_V61 and $STRUCTLINT_V612 (default: Debian's
# linux-image-*-dbg vmlinux under /var/tmp/structlint-kernels/x or
# /var/tmp/kdbg/x, usr/lib/debug/boot);
# the memcg rows are skipped, with a message, when they are absent.
# Options of every run: $VALIDATE_ROUNDS (default 30) rounds of
# $VALIDATE_SECONDS (default 0.5) s per layout, warm-up 0.5 s,
# $VALIDATE_THREADS updater threads (default: online CPUs), plus any
# $VALIDATE_ARGS (e.g. "--batch 32 --flush pop"); --realtime (or
# VALIDATE_REALTIME=1) runs the engine's threads and the program row's
# timed runs SCHED_RR (validate --realtime: root or CAP_SYS_NICE) so
# that they run at once on a machine busy with other work; validate
# warns when the kernel's RT throttling is on.  --only TEXT (or
# VALIDATE_ONLY) runs only the rows whose label contains TEXT (e.g.
# --realtime --only 'bad_stats -> proposal (profile)' for the realtime
# row of the fixture's measured pattern; "batch" selects the batch
# check).  About 31 s per row,
# times 5 with the sensitivity points (3 in replay mode).
# 30 rounds rather than validate's 20: the paired interval's half-width
# is t(0.975, n-1) * s / sqrt(n), so 30 rounds make it 0.80 times as wide
# as 20 (2.045 / sqrt(30) against 2.093 / sqrt(20)) for 10 s more per
# row, which narrows every row's interval on a noisy, shared machine.
# Timing results depend on the machine and its load: say which when
# quoting them.
# Each row shows both intervals validate computes from the same runs: the
# paired one, the verdict's by default (geometric mean of the per-round
# ratios, Student t on their logs), which a drifting machine load disturbs
# less, and the independent one (ratio of the medians, A's and B's runs
# resampled: validate --independent).
# The load average is printed before and after (after: it includes the
# rows' own updater and flusher threads); false sharing only shows
# when the threads run at the same time on different CPUs, so a load
# above CPUs / 2 before the rows (the updater threads then wait for a
# CPU, rarely co-scheduled) gets a warning: the rows measure the scheduler as much as
# the layout.
# Every row runs with --sensitivity (about 5 x the time: the hot-write
# rate x0.25 and x4, batch 32 and 128 in stats mode) and prints whether
# the change keeps its sign ("robust") or not.
# Each row also prints the co-scheduling overlap (median over the runs of
# each side: the share of each run during which >= 2 updaters ran at
# once, validate's "co-scheduling" line) and the rounds kept (both runs
# at or over validate's floor, 50%: the verdict is of those rounds);
# under 3 kept the row says "no verdict" with the overlap: on a loaded
# machine the threads take turns and false sharing cannot show.
# Exit status: 0 when every row ran, whatever the verdicts (the script
# reports; it does not wish for one); 1 when a run failed; 2 could not run.
# run by sh: bash is needed (pipefail, arrays): start it
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u -o pipefail
only=${VALIDATE_ONLY:-}
while (($#)); do
	case $1 in
	-h|--help) sed -n '3,84p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--realtime) VALIDATE_REALTIME=1; shift ;;
	--only) [[ $# -ge 2 ]] || { echo "bench/validate: --only needs TEXT" >&2; exit 2; }; only=$2; shift 2 ;;
	-*) echo "bench/validate: unknown option $1 (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
structlint=$(cd "$build" 2>/dev/null && pwd)/structlint
[[ -x $structlint ]] || { echo "bench/validate: no structlint in $build" >&2; exit 2; }
# the first Debian 6.1 and 6.12 debug vmlinux found (tests/real/kernels.sh
# puts them under /var/tmp/structlint-kernels)
first() { local f; for f in "$@"; do [[ -r $f ]] && { echo "$f"; return; }; done; echo "${1:-}"; }
v61=${STRUCTLINT_V61:-$(first /var/tmp/structlint-kernels/x/usr/lib/debug/boot/vmlinux-6.1.0-*-cloud-amd64 \
	/var/tmp/kdbg/x/usr/lib/debug/boot/vmlinux-6.1.0-*-cloud-amd64)}
v612=${STRUCTLINT_V612:-$(first /var/tmp/structlint-kernels/x/usr/lib/debug/boot/vmlinux-6.12.*-cloud-amd64 \
	/var/tmp/kdbg/x/usr/lib/debug/boot/vmlinux-6.12.*-cloud-amd64)}
rounds=${VALIDATE_ROUNDS:-30}
seconds=${VALIDATE_SECONDS:-0.5}
opts=(--rounds "$rounds" --seconds "$seconds" --warmup 0.5 --sensitivity)
[[ -n ${VALIDATE_THREADS:-} ]] && opts+=(--threads "$VALIDATE_THREADS")
# --realtime / VALIDATE_REALTIME=1: the engine's threads SCHED_RR (validate
# and engine --realtime, root or CAP_SYS_NICE), so that they run at once on
# a busy machine; the user-program row's timed runs too (validate --run)
realtime=()
[[ ${VALIDATE_REALTIME:-0} == 1 ]] && realtime=(--realtime) && opts+=(--realtime)
# shellcheck disable=SC2206
[[ -n ${VALIDATE_ARGS:-} ]] && opts+=($VALIDATE_ARGS)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/bad.c" <<'EOF'
/* read-mostly pointers on the line of hot counters: false sharing */
struct bad_stats {
	unsigned long hits;          /* hot-write */
	struct bad_stats *parent;    /* read-mostly: loaded by every thread */
	unsigned long misses;        /* hot-write */
	void *percpu;                /* read-mostly */
	char cold[112];              /* cold */
};
struct bad_stats bad_instance;
EOF
cat >"$tmp/bad.classes" <<'EOF'
[bad_stats]
hits    = hot-write
misses  = hot-write
parent  = read-mostly
percpu  = read-mostly
cold    = cold
EOF
gcc -g -c -o "$tmp/bad.o" "$tmp/bad.c" || { echo "bench/validate: gcc failed" >&2; exit 2; }

cpus=$(nproc)
# load LABEL: the 1-minute load average, and a warning above CPUs / 2
load() {
	local l
	l=$(cut -d' ' -f1-3 /proc/loadavg)
	echo "bench/validate: load average $1: $l ($cpus CPUs)"
	# after the rows the load holds this script's own threads: no warning
	if [ "$1" = before ] && awk -v l="${l%% *}" -v c="$cpus" 'BEGIN { exit !(l > c / 2) }'; then
		if ((${#realtime[@]})); then
			echo "bench/validate: load ${l%% *} > $cpus CPUs / 2: the engine's threads and the user-program row's timed runs run SCHED_RR (--realtime) and preempt it (the co-scheduling lines say how much they overlapped)" >&2
		else
			echo "bench/validate: warning: load ${l%% *} > $cpus CPUs / 2: the updater threads are rarely co-scheduled, and false sharing cannot show when threads do not run at the same time on different CPUs; the verdicts measure the scheduler as much as the layout (VALIDATE_REALTIME=1 runs them SCHED_RR)" >&2
		fi
	fi
}
echo "bench/validate: $cpus CPUs, ${rounds} rounds x ${seconds} s per layout, ${VALIDATE_ARGS:-default engine options}${realtime:+, engine threads SCHED_RR (--realtime)}"
load before
status=0
rows=()
# row LABEL ARGS...: one validate run, its JSON kept as $tmp/N.json
# (nothing when --only names another row)
row() {
	local label=$1; shift
	[[ -z $only || $label == *"$only"* ]] || return 0
	local n=${#rows[@]}
	if "$structlint" validate --json "$@" "${opts[@]}" >"$tmp/$n.json" 2>"$tmp/$n.err"; then
		rows+=("$label|$tmp/$n.json")
	else
		echo "bench/validate: $label failed: $(cat "$tmp/$n.err")" >&2
		rows+=("$label|")
		status=1
	fi
}

memcg61=$root/fixtures/classes/mem_cgroup_per_node-6.1.classes
if [[ -r $v61 ]]; then
	row "memcg 6.1 -> proposal (synthetic)" "$v61" mem_cgroup_per_node --classes "$memcg61" --synthetic
	if [[ -r $v612 ]]; then
		row "memcg 6.1 -> 6.12 (synthetic)" "$v61" mem_cgroup_per_node --classes "$memcg61" --synthetic \
			--against "$v612:mem_cgroup_per_node"
	else
		echo "bench/validate: $v612 absent: skipping the 6.1 -> 6.12 row (set STRUCTLINT_V612)" >&2
	fi
else
	echo "bench/validate: $v61 absent: skipping the memcg rows (set STRUCTLINT_V61 to Debian's 6.1 vmlinux with DWARF)" >&2
fi
row "bad_stats -> proposal" "$tmp/bad.o" bad_stats --classes "$tmp/bad.classes"
# the same from a measured pattern: a profile with offsets, widths and
# CPUs (CPU 0 stores hits, CPU 1 misses, both load parent and percpu)
cat >"$tmp/bad.profile" <<'EOF'
{"schema": "structlint.profile/v1", "tool": "bench/validate.sh", "cacheline_size": 64,
 "structs": [{"type": "bad_stats", "members": [
  {"offset": 0, "rows": [{"cpu": 0, "size": 8, "stores": 100}]},
  {"offset": 8, "rows": [{"cpu": 0, "size": 8, "loads": 100}, {"cpu": 1, "size": 8, "loads": 100}]},
  {"offset": 16, "rows": [{"cpu": 1, "size": 8, "stores": 100}]},
  {"offset": 24, "rows": [{"cpu": 0, "size": 8, "loads": 100}, {"cpu": 1, "size": 8, "loads": 100}]}]}]}
EOF
row "bad_stats -> proposal (profile)" "$tmp/bad.o" bad_stats --samples "$tmp/bad.profile"
# cgroup 6.1 -> 6.12 (the rstat padding came in 6.8): a blind check of
# direction, the per-CPU lock's 1-5 us bucket and mean hold and the
# ops/s, reported only.  The padding was measured on top of 6.8's
# cgroup_rstat_updated_list() (the list flush: only the tree walk under
# the per-CPU lock), so both layouts run the mainline mode; 6.1's layout
# has no rstat_flush_next, so B does one store more per flushed group
if [[ -r $v61 && -r $v612 ]]; then
	row "cgroup 6.1 -> 6.12 (mainline)" "$v61" cgroup --against "$v612:cgroup" --stats-mode mainline
fi
# the user-program row: a program whose writer and reader threads share
# bad_stats' first line, built from a source tree with and without the
# advisor's proposal (validate --source-root/--build/--run)
mkdir -p "$tmp/prog"
cp "$tmp/bad.c" "$tmp/prog/stats.h"
cat >"$tmp/prog/main.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
#include "stats.h"
static void *writer(void *a)
{
	for (long i = 0; i < 100000000; i++)
		(*(volatile unsigned long *)&bad_instance.hits)++;
	return a;
}
static void *reader(void *a)
{
	unsigned long x = 0;
	for (long i = 0; i < 100000000; i++)
		x += (unsigned long)*(void *volatile *)&bad_instance.parent;
	return (void *)x;
}
int main(void)
{
	pthread_t t[2];
	pthread_create(&t[0], NULL, writer, NULL);
	pthread_create(&t[1], NULL, reader, NULL);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	return 0;
}
EOF
(cd "$tmp/prog" && gcc -g -c -o main.o main.c) || { echo "bench/validate: gcc failed" >&2; exit 2; }
row "bad_stats program -> proposal" "$tmp/prog/main.o" bad_stats --classes "$tmp/bad.classes" \
	--source-root "$tmp/prog" --build "gcc -O2 -pthread -o prog main.c" --run ./prog
# blind check of direction (issue 14 item 6): MEMCG_CHARGE_BATCH 128
# against 32 in the 5.15-rc1 mode (a flush requested every batch updates
# of a CPU: fewer requests per update; how many flushes run depends on
# how fast the flusher gets through them, so the row prints crossings,
# wake-ups and flushes per run rather than assuming fewer flushes), the same
# layout, no retuning: `structlint engine` alternately with --batch 32
# and 128 in ABBA rounds, the paired interval of the ops/s ratio 128/32
# (Student t on the logs, as validate) and its overlap; reported, never
# a condition of the exit status
batch_check() {
	local r b n=0 first
	: >"$tmp/batch.txt"
	for ((r = 0; r < rounds; r++)); do
		if ((r % 2)); then first=128; else first=32; fi
		for b in "$first" $((160 - first)); do
			if ! "$structlint" engine "$v61" mem_cgroup_per_node --synthetic --stats-mode 5.15 \
				--batch "$b" --seconds "$seconds" ${VALIDATE_THREADS:+--threads "$VALIDATE_THREADS"} \
				"${realtime[@]}" --json >"$tmp/b.json" 2>"$tmp/b.err"; then
				echo "bench/validate: batch check failed: $(cat "$tmp/b.err")" >&2
				status=1
				return
			fi
			python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(sys.argv[2], sys.argv[3], d["ops_per_s"], d["overlap"], d["flushes"], d["batch_crossings"], d["flush_wakeups"], d["ops"])' \
				"$tmp/b.json" "$r" "$b" >>"$tmp/batch.txt"
			n=$((n + 1))
		done
	done
}
if [[ -r $v61 && ( -z $only || "batch 32 -> 128" == *"$only"* ) ]]; then
	batch_check
fi
load after
# validate's warnings (e.g. RT throttling under --realtime), once each
cat "$tmp"/*.err 2>/dev/null | grep '^structlint: warning' | sort -u >&2

printf '%s\n' "${rows[@]}" | TMPDIR_BENCH=$tmp python3 -c '
import json, os, sys
def verdict(ci, n, ov):
    # validate: only the rounds whose two runs overlapped the floor count
    if n < 3 or ci["lo"] is None or ov["kept_rounds"] < 3:
        return "no verdict"
    return "faster" if ci["lo"] > 1 else "slower" if ci["hi"] < 1 else "no measurable change"
def pc(v):
    return "-" if v is None else "%+.1f%%" % v
print("%-32s %-6s %12s %14s %8s  %-17s %-20s %-11s | %-8s %-17s %s" % ("case", "engine", "base ops/s",
      "with fix ops/s", "change", "95% CI", "verdict", "overlap A/B", "medians", "indep. 95% CI", "indep. verdict"))
for line in sys.stdin.read().splitlines():
    if not line:    # no rows (--only named none)
        continue
    label, path = line.split("|")
    if not path:
        print("%-32s %s" % (label, "(failed)"))
        continue
    d = json.load(open(path))
    ci, cp, n = d["ci"], d["ci_paired"], d["options"]["rounds"]
    ov = d["overlap"]
    print("%-32s %-6s %12.0f %14.0f %+7.1f%%  [%s, %s] %-20s %4.0f%%/%3.0f%% | %+7.1f%% [%s, %s] %s" % (
        label, d["options"]["mode"], d["median_ops_per_s"]["a"], d["median_ops_per_s"]["b"],
        d["change"]["percent"], pc(cp["lo_percent"]), pc(cp["hi_percent"]), d["verdict"],
        100 * ov["a"]["median"], 100 * ov["b"]["median"],
        d["medians_change_percent"], pc(ci["lo_percent"]), pc(ci["hi_percent"]), verdict(ci, n, ov)))
    print("%-32s   pattern: %s" % ("", d.get("pattern", "?")))
    # under 3 kept rounds the figures of validate are of all rounds (no verdict)
    print("%-32s   rounds kept: %d of %d (both runs overlapped >= %.0f%%; the figures above are of %s)" % (
        "", ov["kept_rounds"], n, 100 * ov["min"],
        "these" if ov["kept_rounds"] >= 3 else "all %d rounds: too few kept for a verdict" % n))
    pg = d.get("program")
    if pg:
        ws = pg["wall_speed"]
        print("%-32s   program: wall s A %.3f B %.3f, CPU s A %.3f B %.3f, speed %+.1f%% [%s, %s] %s" % (
            "", pg["median_wall_s"]["a"], pg["median_wall_s"]["b"], pg["median_cpu_s"]["a"],
            pg["median_cpu_s"]["b"], 100 * (ws["ratio"] - 1),
            pc(None if ws["lo"] is None else 100 * (ws["lo"] - 1)),
            pc(None if ws["hi"] is None else 100 * (ws["hi"] - 1)), pg["verdict"]))
        cs = pg.get("co_scheduling")
        if cs and cs.get("method") == "per-thread":
            print("%-32s   program co-scheduling (per-thread CPU time every 5 ms): CPUs busy A %.2f B %.2f, >= 2 threads at once %.0f..%.0f%% (A) / %.0f..%.0f%% (B) of the wall time (%d CPUs)%s" % (
                "", cs["cpu_per_wall"]["a"], cs["cpu_per_wall"]["b"], 100 * cs["overlap_at_least"]["a"],
                100 * cs["overlap_at_most"]["a"], 100 * cs["overlap_at_least"]["b"],
                100 * cs["overlap_at_most"]["b"], cs["cpus"],
                ": no verdict, under the floor" if cs.get("low_overlap") else ""))
        elif cs:
            print("%-32s   program co-scheduling (CPU s / wall s): CPUs busy A %.2f B %.2f, >= 2 threads at once at least %.0f%%/%.0f%% of the wall time (%d CPUs)" % (
                "", cs["cpu_per_wall"]["a"], cs["cpu_per_wall"]["b"], 100 * cs["overlap_at_least"]["a"],
                100 * cs["overlap_at_least"]["b"], cs["cpus"]))
    for side in "ab":
        s = d["sides"][side]
        if s["percpu_lock"]["holds"]:
            u = s["percpu_update_lock"]
            print("%-32s   %s: per-CPU lock holds in 1-5 us: %d of %d, mean %.3f us; update path: %d of %d, mean %.3f us" % (
                "", side.upper(), s["percpu_lock"]["buckets_us"]["1-5"], s["percpu_lock"]["holds"],
                s["percpu_lock"]["sum_ns"] / 1e3 / max(1, s["percpu_lock"]["holds"]),
                u["buckets_us"]["1-5"], u["holds"], u["sum_ns"] / 1e3 / max(1, u["holds"])))
    sn = d.get("sensitivity")
    if sn:
        print("%-32s   sensitivity: %s: %s" % ("", "robust" if sn["robust"] else "NOT ROBUST", ", ".join(
            "%s %s%g %+.1f%% (%s)" % (p["knob"], "x" if p["knob"] != "batch" else "", p["value"],
                                     100 * (p["ratio"] - 1), p["verdict"]) for p in sn["points"])))
    if d["reason"]:
        print("%-32s   no verdict: %s" % ("", d["reason"]))
    for side in "ab":
        print("%-32s   %s runs: %s" % ("", side.upper(), " ".join("%.0f" % x for x in d["runs"][side])))
    print("%-32s   B = %s, %d bytes (A: %d bytes)" % ("", d["b"]["what"], d["b"]["size"], d["a"]["size"]))
    if d.get("roles_differ"):
        print("%-32s   note: the role maps differ (%s): layout plus workload" % ("", d["roles_differ"]))
    for side in "ab":
        s = d["sides"][side]
        if s["flushes"]:
            print("%-32s   %s: flush lock max %.1f us (%d preempted holds apart), per-CPU lock max %.1f us (%d preempted)" % (
                "", side.upper(), s["flush_lock"]["max_ns"] / 1e3, s["flush_lock"]["preempted"],
                s["percpu_lock"]["max_ns"] / 1e3, s["percpu_lock"]["preempted"]))
bt = os.path.join(os.environ["TMPDIR_BENCH"], "batch.txt")
if os.path.exists(bt) and os.path.getsize(bt):
    import math, statistics
    runs = {}
    for l in open(bt):
        r, b, ops, ov, fl, cr, wk, n = l.split()
        runs.setdefault(int(r), {})[int(b)] = (float(ops), float(ov), int(fl), int(cr), int(wk), int(n))
    pairs = [v for v in runs.values() if 32 in v and 128 in v]
    logs = [math.log(v[128][0] / v[32][0]) for v in pairs]
    n = len(logs)
    m = statistics.fmean(logs)
    ov = min(statistics.median(v[32][1] for v in pairs), statistics.median(v[128][1] for v in pairs))
    if n >= 3:
        # t(0.975, n-1) by the Cornish-Fisher series (error < 1e-3 from 4 df on)
        z, df = 1.959964, n - 1
        t = z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2) + \
            (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
        h = t * statistics.stdev(logs) / math.sqrt(n)
        lo, hi = math.exp(m - h), math.exp(m + h)
        vd = "no verdict" if ov < 0.5 else "faster" if lo > 1 else "slower" if hi < 1 else "no measurable change"
        ci = "[%+.1f%%, %+.1f%%]" % (100 * (lo - 1), 100 * (hi - 1))
    else:
        vd, ci = "no verdict", "[-, -]"
    print("%-32s %-6s %12.0f %14.0f %+7.1f%%  %-17s %-20s %4.0f%%/%3.0f%%" % (
        "batch 32 -> 128 (5.15-rc1)", "stats", statistics.median(v[32][0] for v in pairs),
        statistics.median(v[128][0] for v in pairs), 100 * (math.exp(m) - 1), ci, vd,
        100 * statistics.median(v[32][1] for v in pairs), 100 * statistics.median(v[128][1] for v in pairs)))
    if vd == "faster":
        rep = "yes"
    elif vd == "no verdict" and n >= 3 and ov < 0.5:
        rep = "not judged: overlap %.0f%% under 50%% (the interval alone is %s)" % (
            100 * ov, "above 0" if lo > 1 else "below 0" if hi < 1 else "across 0")
    else:
        rep = "no (%s)" % vd
    print("%-32s   blind check: expected faster (fewer flush requests per update); reproduced: %s" % ("", rep))
    for b in (32, 128):
        print("%-32s   batch %d per run (median): %.0f updates, %.0f batch crossings, %.0f flusher wake-ups, %.0f flushes" % (
            "", b, statistics.median(v[b][5] for v in pairs), statistics.median(v[b][3] for v in pairs),
            statistics.median(v[b][4] for v in pairs), statistics.median(v[b][2] for v in pairs)))
    print("%-32s   engine %s mem_cgroup_per_node --synthetic --stats-mode 5.15, %d ABBA rounds, paired t on the logs" % ("", "6.1", n))
print("change (paired), 95% CI, verdict: geometric mean of the per-round ratios B/A, paired Student t (the default);")
print("medians: ratio of the medians B/A, its interval A and B resampled independently (validate --independent).")
print("overlap A/B: median share of each run during which >= 2 updaters ran at once (validate keeps the rounds whose two runs reach 50%; no verdict under 3 kept).")
' || status=1
exit $status
