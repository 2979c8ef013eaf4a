#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# THE test command.  Builds structlint with ASan+UBSan into a build dir and
# runs the whole meson test suite; beside it (when clang's libFuzzer is
# available) builds the fuzz targets with clang and runs each on FUZZ_RUNS
# inputs from a fixed seed (at most FUZZ_SECONDS), and ends
# with its duration and then one line "N passed, N failed", the last,
# counted from meson's own results (BUILD/meson-logs/testlog.json).  Exit status 0 only when nothing failed.
#
# Environment: BUILD_DIR (default ./build-test), FUZZ_BUILD_DIR (default
# BUILD_DIR-fuzz), FUZZ_SECONDS (default 60; 0 skips fuzzing), FUZZ_RUNS
# (default 50000), TEST_JOBS (tests, fuzz targets and compile jobs run at
# once; default 4 per CPU: on a machine shared with other work the suite's
# share of the CPUs grows with the processes it runs, and most tests spend
# part of their time waiting for a child process),
# MESON_TEST_ARGS (extra `meson test` arguments, e.g. "--suite golden").
set -u
started=$(date +%s)
src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$src/build-test}
fuzz_build=${FUZZ_BUILD_DIR:-$build-fuzz}
fuzz_seconds=${FUZZ_SECONDS:-60}
jobs=${TEST_JOBS:-$(( $(nproc 2>/dev/null || echo 2) * 4 ))}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export PYTHONDONTWRITEBYTECODE=1

logs=()
build_failed=0

# setup DIR OPTIONS...: configure (or reconfigure) a build dir
setup() {
	local dir=$1; shift
	if [ -f "$dir/build.ninja" ]; then
		meson configure "$dir" "$@" >/dev/null && return 0
	fi
	meson setup --wipe "$dir" "$src" "$@" 2>/dev/null || meson setup "$dir" "$src" "$@"
}

# run_suite DIR ARGS...: build and run meson test, remember its log.
# With PREREQ_ONLY=1 only what the selected tests depend on is built
# (`meson test` builds a test's depends: since meson 0.57): the fuzz build
# then compiles the library and the 16 targets, not the ~130 unit-test and
# tool executables a second time.
run_suite() {
	local dir=$1; shift
	rm -f "$dir/meson-logs/testlog.json"
	if [ "${PREREQ_ONLY:-0}" = 1 ]; then
		:
	elif ! meson compile -C "$dir" -j "$jobs"; then
		echo "tests/run.sh: build failed in $dir" >&2
		build_failed=1
		return
	fi
	# shellcheck disable=SC2086
	meson test -C "$dir" --print-errorlogs --num-processes "$jobs" "$@" ${MESON_TEST_ARGS:-}
	if [ -f "$dir/meson-logs/testlog.json" ]; then
		logs+=("$dir/meson-logs/testlog.json")
	else	# `meson test` stopped before running anything: its build failed
		echo "tests/run.sh: no test results in $dir (build failed?)" >&2
		build_failed=1
	fi
}

# The fuzz phase (clang build + the fuzz targets) runs beside the ASan
# phase, its output kept in a file and printed after it: the two are
# independent, and on a machine shared with other work the suite's share
# of the CPUs grows with the processes it runs.
fuzz_phase() {
	fuzzer_rt=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
	if [ "$fuzz_seconds" = 0 ] || ! command -v clang >/dev/null || [ ! -f "$fuzzer_rt" ] ||
	   { [ ! -f "$src/tests/fuzz/fuzz_btf.c" ] && [ ! -f "$src/tests/fuzz/fuzz_dwarf.c" ]; }; then
		echo "tests/run.sh: fuzzing skipped (needs clang with libFuzzer and tests/fuzz/fuzz_*.c; FUZZ_SECONDS=$fuzz_seconds)"
		return 0
	fi
	if ! CC=clang FUZZ_SECONDS=$fuzz_seconds setup "$fuzz_build" -Dfuzz=true -Dtests=true \
		-Db_sanitize=address -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link; then
		echo "tests/run.sh: fuzz build setup failed" >&2
		return 1
	fi
	rm -f "$fuzz_build"/crash-* "$fuzz_build"/leak-* "$fuzz_build"/timeout-* "$fuzz_build"/oom-*
	logs=()
	build_failed=0
	PREREQ_ONLY=1 run_suite "$fuzz_build" --suite fuzz
	for a in "$fuzz_build"/crash-* "$fuzz_build"/leak-* "$fuzz_build"/timeout-* "$fuzz_build"/oom-*; do
		[ -e "$a" ] && echo "tests/run.sh: fuzz reproducer: $a (run the target on it)"
	done
	return "$build_failed"
}

fuzz_out=$(mktemp)
fuzz_phase >"$fuzz_out" 2>&1 &
fuzz_pid=$!
trap 'kill "$fuzz_pid" 2>/dev/null; rm -f "$fuzz_out"' INT TERM

if setup "$build" -Db_sanitize=address,undefined -Db_lundef=false -Dtests=true -Dfuzz=false; then
	run_suite "$build" --no-suite fuzz
else
	echo "tests/run.sh: meson setup failed for $build" >&2
	build_failed=1
fi

wait "$fuzz_pid" || build_failed=1
echo "tests/run.sh: the fuzz phase (run beside the tests above):"
cat "$fuzz_out"
rm -f "$fuzz_out"
[ -f "$fuzz_build/meson-logs/testlog.json" ] && logs+=("$fuzz_build/meson-logs/testlog.json")

# Count meson's real results: one JSON object per line in testlog.json.
counts=$(python3 - "${logs[@]}" <<'PY'
import json, sys
ok = bad = skip = 0
for path in sys.argv[1:]:
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        t = json.loads(line)
        r = t.get("result")
        # libFuzzer exits 77 (its default -error_exitcode) on a finding, and
        # 77 is meson's "skipped": a fuzz target never legitimately skips.
        if r == "SKIP" and t.get("name", "").startswith("structlint:fuzz"):
            r = "FAIL"
            print("FAIL (libFuzzer finding, exit 77): %s" % t["name"], file=sys.stderr)
            print("\n".join(t.get("stderr", "").splitlines()[-25:]), file=sys.stderr)
        if r in ("OK", "EXPECTEDFAIL"):
            ok += 1
        elif r == "SKIP":
            skip += 1
        else:  # FAIL, TIMEOUT, UNEXPECTEDPASS, ERROR
            bad += 1
print(ok, bad, skip)
PY
)
read -r passed failed skipped <<<"${counts:-0 0 0}"
[ "$build_failed" = 1 ] && failed=$((failed + 1)) && echo "(a build failure counts as 1 failed)"
[ "$skipped" != 0 ] && echo "$skipped skipped"
elapsed=$(( $(date +%s) - started ))
echo "tests/run.sh: took $((elapsed / 60)) min $((elapsed % 60)) s (load average now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" != 0 ]
