#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The HTML page (report --html, suggest --html) of struct
# mem_cgroup_per_node of Debian's real 6.1 kernel, opened in headless
# Chromium (opt-in: needs the linux-image-*-dbg vmlinux, found or fetched
# by tests/real/kernels.sh, and Debian's chromium package, installed here
# with apt-get when it is missing and we are root).
#
#   tests/real/html-screenshot.sh [BUILD_DIR [OUT_DIR]]
#       BUILD_DIR: default build; OUT_DIR: default /tmp/structlint-html
#
# With no --classes, report and suggest use the classes of the static
# access map (the first run builds it, ~40 s on an idle machine, then it
# is cached).  Writes to OUT_DIR:
#   memcg61.html, memcg61-suggest.html      the pages
#   memcg61.png, memcg61-suggest.png        screenshots, 1000 px wide
#   memcg61-narrow.png, memcg61-suggest-narrow.png   at 400 px wide
#   memcg61.pdf, memcg61-suggest.pdf        the pages printed (print CSS),
#   *-pdf-N.png                             and their pages at 60 dpi
#   *.log                                   the console of each page
# The widths are the page's own: headless Chromium makes no window
# narrower than 500 px (--window-size=420,... laid the page out 500 px
# wide), so tests/real/cdp_shot.py sets the viewport through the DevTools
# protocol (device metrics, over a pipe) and the page measures itself
# (document.documentElement.clientWidth, checked equal to the width asked).
# Checks: each page passes tests/cli/html_check.py (well-formed, nothing
# external, links resolve); the console has no message for it (console
# calls, script errors and failed loads are "CONSOLE" lines); each
# screenshot is a PNG of the viewport's size; at 400, 800, 1000 and
# 1400 px the page is laid out that wide and does not scroll sideways,
# the maps' text is at least 10 px (a map's box scrolls sideways instead),
# no finding marker is past its map and every one is in view (markers
# stand between a line's number and its cells); printed,
# the maps' text is at least 7 pt, the C declarations are shown and
# nothing is past the page's edge.  The console check is shown to work first: a
# control page that calls console.error must be caught.
# Exit 0 when every check holds, 1 otherwise, 2 when something is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/real/kernels.sh
. "$here/kernels.sh"
build=${1:-$root/build}
out=${2:-/tmp/structlint-html}
structlint=$build/structlint
[[ -x $structlint ]] || { echo "html-screenshot: no structlint in $build" >&2; exit 2; }
v61=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[0]}") || exit 2

chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium && $(id -u) == 0 ]]; then
	echo "html-screenshot: installing Debian's chromium" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >/dev/null ||
		{ echo "html-screenshot: apt-get install chromium failed" >&2; exit 2; }
	chromium=$(command -v chromium || true)
fi
[[ -n $chromium ]] || { echo "html-screenshot: no chromium (apt-get install -y chromium)" >&2; exit 2; }
mkdir -p "$out"

fail=0
pass=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# shot PAGE PNG WIDTH HEIGHT [EXPR]: screenshot at a WIDTH x HEIGHT
# viewport; the console in PNG's .log; prints "WIDTH client scroll" and
# EXPR's value
shot() {
	local log=${2%.png}.log
	rm -f "$2"
	timeout 180 python3 "$here/cdp_shot.py" "$chromium" "file://$1" "$3" "$4" "$2" \
		${5+"$5"} 2>"$log"
}

# console PNG: the CONSOLE lines of its log
console() {
	grep -a ':CONSOLE' "${1%.png}.log" || true
}

# PNG WIDTH HEIGHT: a PNG of that size?
png_size() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read(24)
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
print('%dx%d' % struct.unpack('>II', d[16:24]))
PY
}

# The control page: the console check must see its error.
ctl=$out/control.html
printf '<!DOCTYPE html>\n<html><body><p>control</p><script>console.error("structlint-control")</script></body></html>\n' >"$ctl"
shot "$ctl" "$out/control.png" 400 300 >/dev/null
if console "$out/control.png" | grep -q structlint-control; then
	ok "console check catches the control page's console.error"
else
	bad "console check missed the control page's console.error (see $out/control.log)"
fi

k="$v61 mem_cgroup_per_node"
# shellcheck disable=SC2086
"$structlint" report $k --html "$out/memcg61.html" >"$out/memcg61.txt" 2>"$out/report.err" ||
	bad "report --html failed: $(tail -1 "$out/report.err")"
# shellcheck disable=SC2086
"$structlint" suggest $k --html "$out/memcg61-suggest.html" >"$out/suggest.txt" 2>"$out/suggest.err" ||
	bad "suggest --html failed: $(tail -1 "$out/suggest.err")"

for page in memcg61 memcg61-suggest; do
	html=$out/$page.html
	[[ -s $html ]] || { bad "$page.html: not written"; continue; }
	if python3 "$root/tests/cli/html_check.py" "$html" >"$out/$page.check" 2>&1; then
		ok "$page.html: well-formed, self-contained, links resolve ($(wc -c <"$html") bytes)"
	else
		bad "$page.html: $(cat "$out/$page.check")"
	fi
	for geo in "$page:1000:1400" "$page-narrow:400:1400"; do
		IFS=: read -r name w h <<<"$geo"
		png=$out/$name.png
		shot "$html" "$png" "$w" "$h" >/dev/null
		size=$(png_size "$png" 2>/dev/null || echo none)
		if [[ $size == "${w}x$h" ]]; then
			ok "$name.png: ${size} ($(wc -c <"$png") bytes)"
		else
			bad "$name.png: want a ${w}x$h PNG, got $size (see ${png%.png}.log)"
		fi
		msgs=$(console "$png")
		if [[ -z $msgs ]]; then
			ok "$name: no console message"
		else
			bad "$name: console: $msgs"
		fi
	done
done

# Every width (400, 800, 1000, 1400 px): the page is laid out that wide
# (its clientWidth) and does not scroll sideways; each map keeps its text
# legible (at least 10 px: the text's font size times the map's scale on
# the screen), its box scrolling sideways instead when the window is too
# narrow for it; no finding marker past the map's viewBox, and none out
# of view (its box at the left, as a page opens).  The page itself has no
# script: cdp_shot.py evaluates the probe.
probe='(()=>{var t=[...document.querySelectorAll("svg.map text")].map(e=>parseFloat(getComputedStyle(e).fontSize)*e.ownerSVGElement.getScreenCTM().a);var cw=document.documentElement.clientWidth;var mk=[...document.querySelectorAll("svg.map .mk")];var o=mk.filter(e=>{var b=e.getBBox();return b.x+b.width>e.ownerSVGElement.viewBox.baseVal.width}).length;var hid=mk.filter(e=>{var r=e.getBoundingClientRect();return r.left<0||r.right>cw}).length;return "TEXTPX "+Math.min(...t).toFixed(1)+" MAPS "+t.length+" MKOUT "+o+" MKHID "+hid+" MARKS "+mk.length})()'
for page in memcg61 memcg61-suggest; do
	for w in 400 800 1000 1400; do
		probed=$(shot "$out/$page.html" "$out/$page-probe-$w.png" "$w" 1400 "$probe")
		read -r _ client scroll <<<"$(grep '^WIDTH ' <<<"$probed")"
		read -r _ textpx _ ntext _ mkout _ mkhid _ nmarks <<<"$(grep '^TEXTPX ' <<<"$probed")"
		if [[ $client == "$w" ]]; then
			ok "$page at $w px: laid out $client px wide"
		else
			bad "$page at $w px: laid out ${client:-?} px wide (${probed:-no probe output})"
		fi
		if [[ -n $scroll ]] && ((scroll <= client)); then
			ok "$page at $w px: the page does not scroll sideways (scroll/client width $scroll/$client)"
		else
			bad "$page at $w px: the page scrolls sideways or was not measured (${probed:-no probe output})"
		fi
		if [[ -n $textpx ]] && awk '{ exit !($1 >= 10) }' <<<"$textpx"; then
			ok "$page at $w px: map text at least 10 px (smallest ${textpx} px of $ntext texts)"
		else
			bad "$page at $w px: map text below 10 px or not measured (${probed:-no probe output})"
		fi
		if [[ $mkout == 0 && $mkhid == 0 && ${nmarks:-0} -gt 0 ]]; then
			ok "$page at $w px: all $nmarks finding markers inside their maps and in view"
		else
			bad "$page at $w px: of ${nmarks:-?} finding markers ${mkout:-?} past the map's width, ${mkhid:-?} out of view"
		fi
	done
	rm -f "$out/$page"-probe-*.png "$out/$page"-probe-*.log
done

# Printed (the print stylesheet, to PDF): the maps' text at least 7 pt
# high (pdftotext's word boxes of the line offsets "+N"; side by side maps
# printed at about 4), the C declarations shown (closed <details> are not
# printed), nothing past the page's right edge, page 1 filled (its last
# word at least 80% down).  The pages as PNG (60 dpi,
# pdftoppm) to look at.
for page in memcg61 memcg61-suggest; do
	pdf=$out/$page.pdf
	rm -f "$pdf"
	timeout 180 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
		--no-pdf-header-footer --print-to-pdf="$pdf" \
		"file://$out/$page.html" >"$out/$page-pdf.log" 2>&1
	if [[ $(head -c 5 "$pdf" 2>/dev/null) != %PDF- ]]; then
		bad "$page.pdf: not printed (see $out/$page-pdf.log)"
		continue
	fi
	if ! command -v pdftotext >/dev/null; then
		ok "$page.pdf: printed ($(wc -c <"$pdf") bytes; no pdftotext: not inspected)"
		continue
	fi
	command -v pdftoppm >/dev/null && pdftoppm -png -r 60 "$pdf" "$out/$page-pdf"
	pdftotext -bbox "$pdf" "$out/$page.bbox.html"
	verdict=$(python3 - "$out/$page.bbox.html" "$page" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
pages = t.count('<page ')
w = float(re.search(r'<page width="([0-9.]+)"', t).group(1))
# page 1 filled: its last word at least 80% down (one <svg> for a whole
# map went to page 2 whole and left page 1 half blank)
p1 = t.split('<page ')[1]
ph = float(re.search(r'height="([0-9.]+)"', p1).group(1))
low = max([float(y) for y in re.findall(r'yMax="([0-9.]+)"', p1)] or [0])
words = re.findall(r'xMin="[0-9.]+" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)<', t)
hs = [float(b) - float(a) for a, _, b, x in words if re.fullmatch(r'\+\d+', x)]
out = [x for _, r, _, x in words if float(r) > w]
bad = []
if not hs or min(hs) < 7:
    bad.append('map text %.1f pt high' % (min(hs) if hs else 0))
if out:
    bad.append('%d words past the right edge' % len(out))
if pages > 1 and low < 0.8 * ph:
    bad.append('page 1 filled to %.0f%% only' % (100 * low / ph))
if sys.argv[2].endswith('suggest') and 'static_assert' not in t:
    bad.append('no C declaration')
print(('BAD ' + '; '.join(bad)) if bad else
      'OK %d pages, page 1 filled to %.0f%%, map text %.1f pt high' %
      (pages, 100 * low / ph, min(hs)))
PY
)
	if [[ $verdict == OK* ]]; then
		ok "$page.pdf: ${verdict#OK }"
	else
		bad "$page.pdf: ${verdict#BAD }"
	fi
done

echo "html-screenshot: $pass passed, $fail failed; pages and screenshots in $out"
[[ $fail == 0 ]]
