#!/bin/sh
# SPDX-License-Identifier: MIT
# Speed of the IP-sample weighting (structlint/weight.h) against
# `perf script` on the same perf.data, in one run.
#   bench/weight.sh [BUILD_DIR] [N] [BINARY STRUCT]
#     (defaults: build, 10000000, the false-sharing fixture and stats;
#      e.g. a vmlinux and mm_struct: kernel-mode samples at a KASLR offset,
#      thousands of basic blocks with sites)
# Builds fixtures/weight/falseshare.c -O2 -g (PIE), writes N cpu-clock IP
# samples of it with bench/ip_weight.c (an MMAP2 at a load bias, half the
# samples on struct stats's access sites, half over the rest of its code),
# then times the weighting step (slt_ipw_read: two passes over the file,
# relocation, basic blocks, estimates; the access map is built before the
# clock starts), `structlint report` end to end, and
# `perf script -F ip,cpu,tid` (what a user would run to get the IPs).
# Prints samples/s, peak RSS (GNU time's %M, KiB) and the ratios.
# Target (issue 12): >= 5 M samples/s for the weighting step (exit 1 when
# missed).
if [ -z "${BASH_VERSION:-}" ] && command -v bash > /dev/null 2>&1; then exec bash "$0" "$@"; fi
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${1:-build}
n=${2:-10000000}
bin=${3:-}
type=${4:-stats}
work=$(mktemp -d /tmp/slt-bench-w.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
cc=${CC:-cc}
flags="-O2 -std=c17 -D_GNU_SOURCE -I$root/include -I$root/src"
libs="$build/libstructlint.a $(pkg-config --libs libzstd libelf jansson libbpf zlib capstone) -ldwarf -lm -lpthread"
# shellcheck disable=SC2086
$cc $flags -o "$work/ipw" "$here/ip_weight.c" $libs
if [ -z "$bin" ]; then
	bin=$work/falseshare
	$cc -O2 -g -pie -fPIE -pthread -o "$bin" "$root/fixtures/weight/falseshare.c"
fi
"$work/ipw" gen "$bin" "$type" "$n" "$work/ip.data"
echo "file: $n IP samples, $(stat -c %s "$work/ip.data") bytes"
cat "$work/ip.data" > /dev/null   # page cache warm for all

now() { date +%s.%N; }
/usr/bin/time -f %M -o "$work/rss1" "$work/ipw" read "$bin" "$type" "$work/ip.data" > "$work/out1"
read -r got wt < "$work/out1"
[ "$got" = "$n" ] || { echo "weighting saw $got samples, expected $n" >&2; exit 1; }
echo "weighting step: $(printf %.3f "$wt") s, $(echo "$n / $wt" | bc) samples/s, peak RSS $(cat "$work/rss1") KiB (process)"

t0=$(now)
/usr/bin/time -f %M -o "$work/rss3" "$root/$build/structlint" report "$bin" "$type" --samples "$work/ip.data" > /dev/null 2>&1
t1=$(now)
rt=$(echo "$t1 - $t0" | bc -l)
echo "structlint report (end to end): $(printf %.3f "$rt") s, $(echo "$n / $rt" | bc) samples/s, peak RSS $(cat "$work/rss3") KiB"

if command -v perf > /dev/null 2>&1; then
	t0=$(now)
	/usr/bin/time -f %M -o "$work/rss2" perf script -F ip,cpu,tid -i "$work/ip.data" 2>/dev/null | wc -l > "$work/out2"
	t1=$(now)
	lines=$(cat "$work/out2")
	[ "$lines" = "$n" ] || echo "warning: perf script printed $lines lines, expected $n" >&2
	pt=$(echo "$t1 - $t0" | bc -l)
	echo "perf script -F ip,cpu,tid: $(printf %.3f "$pt") s, $(echo "$n / $pt" | bc) samples/s, peak RSS $(cat "$work/rss2") KiB"
	echo "ratio: weighting step $(printf %.1f "$(echo "$pt / $wt" | bc -l)")x faster than perf script; report end to end $(printf %.1f "$(echo "$pt / $rt" | bc -l)")x"
else
	echo "perf not installed: no comparison"
fi

if [ "$(echo "$n / $wt >= 5000000" | bc)" = 1 ]; then
	echo "target: >= 5000000 samples/s (weighting step): met"
else
	echo "target: >= 5000000 samples/s (weighting step): MISSED"
	exit 1
fi
