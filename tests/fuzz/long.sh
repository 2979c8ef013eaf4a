#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Opt-in long fuzzing: builds the libFuzzer targets (clang, ASan) and runs
# each for FUZZ_MINUTES minutes (default 10) with a random seed, one after
# another, then prints one line per target: executions, coverage (edges),
# corpus size, and crashes/leaks/timeouts/OOMs found (reproducers are left
# in BUILD/long-TARGET/).  Exit status 1 when any target found something.
#
#   tests/fuzz/long.sh                       # every target, 10 min each
#   FUZZ_MINUTES=2 tests/fuzz/long.sh access elf   # some targets
#
# Environment: FUZZ_BUILD_DIR (default ./build-fuzz-long), FUZZ_MINUTES,
# FUZZ_SECONDS (overrides FUZZ_MINUTES), FUZZ_RUNS (stop a target after this
# many executions, whichever of the two limits comes first: the issue's goal
# is FUZZ_RUNS=10000000 with no finding), FUZZ_JOBS (parallel workers per
# target, default 1).
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${FUZZ_BUILD_DIR:-$src/build-fuzz-long}")
minutes=${FUZZ_MINUTES:-10}
seconds=${FUZZ_SECONDS:-$((minutes * 60))}
jobs=${FUZZ_JOBS:-1}
runs=${FUZZ_RUNS:--1}
if [ -f "$build/build.ninja" ]; then
	:
elif ! CC=clang meson setup "$build" "$src" -Dfuzz=true -Dtests=true \
	-Db_sanitize=address -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link >/dev/null; then
	echo "long.sh: meson setup failed (needs clang and libclang-rt-14-dev)" >&2
	exit 2
fi
# the targets and their seed corpora (built by the fuzz tests' dependencies)
meson compile -C "$build" >/dev/null || { echo "long.sh: build failed" >&2; exit 2; }
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	for f in "$src"/tests/fuzz/fuzz_*.c; do
		t=$(basename "$f" .c)
		targets+=("${t#fuzz_}")
	done
fi
# the seed directory of a target: what its meson test copies (its args)
seeds_of() {
	meson introspect "$build" --tests | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if t["name"] == "fuzz-" + sys.argv[1]:
        print(t["cmd"][5] if len(t["cmd"]) > 5 else "")
' "$1"
}
found=0
printf '%-12s %12s %8s %8s %8s %s\n' target execs cov corpus seconds findings
for t in "${targets[@]}"; do
	exe="$build/tests/fuzz/fuzz_$t"
	seeds=$(seeds_of "$t")
	if [ ! -x "$exe" ] || [ -z "$seeds" ] || [ ! -d "$seeds" ]; then
		printf '%-12s %s\n' "$t" "not built (no target or seeds)"
		found=1
		continue
	fi
	work="$build/long-$t"
	rm -rf "$work"
	mkdir -p "$work/corpus"
	cp -r "$seeds"/. "$work/corpus/"
	log="$work/log"
	t0=$(date +%s)
	(cd "$work" && "$exe" -seed=0 -max_total_time=$seconds -runs="$runs" -timeout=20 \
		-rss_limit_mb=2048 -print_final_stats=1 -jobs="$jobs" -workers="$jobs" \
		corpus >"$log" 2>&1)
	[ "$jobs" -gt 1 ] && cat "$work"/fuzz-*.log >>"$log" 2>/dev/null
	execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{s += $2} END {print s + 0}')
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | awk '{print $2}')
	n=$(find "$work/corpus" -type f | wc -l)
	art=$(find "$work" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'leak-*' \
		-o -maxdepth 1 -name 'timeout-*' -o -maxdepth 1 -name 'oom-*' | wc -l)
	[ "$art" -gt 0 ] && found=1
	printf '%-12s %12s %8s %8s %8s %s\n' "$t" "$execs" "${cov:-?}" "$n" "$(($(date +%s) - t0))" \
		"$([ "$art" -gt 0 ] && echo "$art reproducer(s) in $work" || echo none)"
done
exit $found
