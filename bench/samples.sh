#!/bin/sh
# SPDX-License-Identifier: MIT
# Ingest speed of structlint's perf.data reader against `perf script` on the
# same generated file, in one run.
#   bench/samples.sh [BUILD_DIR] [N]     (defaults: build, 10000000)
# Generates N memory samples with structlint's writer (bench/gen_perf_data.c,
# two events, IDENTIFIER|IP|TID|TIME|ADDR|CPU|PERIOD|WEIGHT|DATA_SRC), times
# bench/read_perf_data (slt_samples_read(path), format detected, counting
# samples) and `perf script -F addr,ip,cpu,tid > /dev/null`, and prints
# samples/s, the ratio and peak RSS (GNU time's %M, KiB) of both.
# Targets (issue 3; exit status 1 when one is missed): >= 5 M samples/s,
# >= 10x perf script, peak RSS under 64 MiB (streamed, not the file).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${1:-build}
n=${2:-10000000}
work=$(mktemp -d /tmp/slt-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
cc=${CC:-cc}
flags="-O2 -std=c17 -D_GNU_SOURCE -I$root/include -I$root/src"
libs="$build/libstructlint.a $(pkg-config --libs libzstd libelf jansson libbpf zlib) -ldwarf -lm -lpthread"
# shellcheck disable=SC2086
$cc $flags -o "$work/gen" "$here/gen_perf_data.c" $libs
# shellcheck disable=SC2086
$cc $flags -o "$work/read" "$here/read_perf_data.c" $libs
"$work/gen" "$n" "$work/perf.data"
size=$(stat -c %s "$work/perf.data")
echo "file: $n samples, $size bytes"
cat "$work/perf.data" > /dev/null   # page cache warm for both

now() { date +%s.%N; }
t0=$(now)
/usr/bin/time -f %M -o "$work/rss1" "$work/read" "$work/perf.data" > "$work/out1"
t1=$(now)
got=$(cat "$work/out1")
[ "$got" = "$n" ] || { echo "reader delivered $got samples, expected $n" >&2; exit 1; }
st=$(echo "$t1 - $t0" | bc -l)
echo "structlint: $(printf %.3f "$st") s, $(echo "$n / $st" | bc) samples/s, peak RSS $(cat "$work/rss1") KiB"

if command -v perf > /dev/null 2>&1; then
	t0=$(now)
	/usr/bin/time -f %M -o "$work/rss2" perf script -F addr,ip,cpu,tid -i "$work/perf.data" 2>/dev/null | wc -l > "$work/out2"
	t1=$(now)
	lines=$(cat "$work/out2")
	[ "$lines" = "$n" ] || echo "warning: perf script printed $lines lines, expected $n" >&2
	pt=$(echo "$t1 - $t0" | bc -l)
	echo "perf script: $(printf %.3f "$pt") s, $(echo "$n / $pt" | bc) samples/s, peak RSS $(cat "$work/rss2") KiB"
	ratio=$(echo "$pt / $st" | bc -l)
	echo "ratio: structlint is $(printf %.1f "$ratio")x faster than perf script"
else
	ratio=
	echo "perf not installed: no comparison"
fi

missed=0
target() {  # target TEXT OK
	if [ "$2" = 1 ]; then echo "target: $1: met"; else echo "target: $1: MISSED"; missed=1; fi
}
target ">= 5000000 samples/s" "$(echo "$n / $st >= 5000000" | bc)"
[ -n "$ratio" ] && target ">= 10x perf script" "$(echo "$ratio >= 10" | bc)"
target "peak RSS < 65536 KiB" "$(echo "$(cat "$work/rss1") < 65536" | bc)"
exit "$missed"
