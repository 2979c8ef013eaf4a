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
#   memcg61-narrow.png                      the report at 420 px wide
#   *-probe.html                            the pages with a width probe
#   memcg61.pdf, memcg61-suggest.pdf        the pages printed (print CSS),
#   *-pdf-N.png                             and their pages at 60 dpi
#   *.log                                   Chromium's log of each page
# Checks: each page passes tests/cli/html_check.py (well-formed, nothing
# external, links resolve); Chromium logs no console message for it (its
# --enable-logging=stderr log: console messages, script errors and
# resources that failed to load are "CONSOLE" lines); each screenshot is a
# PNG of the window's size; at 420, 800, 1000 and 1400 px the page does
# not scroll sideways, the maps' text is at least 10 px (a map's box
# scrolls sideways instead) and no finding marker is past its map; printed,
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

# shot PAGE PNG WIDTH HEIGHT: screenshot, Chromium's log in PNG's .log
shot() {
	local log=${2%.png}.log
	rm -f "$2"
	# no sandbox: root in a container; no GPU: none here
	timeout 180 "$chromium" --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --no-first-run --window-size="$3,$4" \
		--enable-logging=stderr --v=0 --screenshot="$2" \
		"file://$1" >"$log" 2>&1
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
shot "$ctl" "$out/control.png" 400 300
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
	for geo in "$page:1000:1400" "$page-narrow:420:1400"; do
		IFS=: read -r name w h <<<"$geo"
		[[ $name == memcg61-suggest-narrow ]] && continue
		png=$out/$name.png
		shot "$html" "$png" "$w" "$h"
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

# Every width (420, 800, 1000, 1400 px): the page does not scroll
# sideways; each map keeps its text legible (at least 10 px: the text's
# font size times the map's scale on the screen), its box scrolling
# sideways instead when the window is too narrow for it; no finding
# marker past the map's viewBox (a copy of each page with a probe script
# that writes the widths, the smallest text size and the markers outside
# into the DOM; the page itself has no script).
for page in memcg61 memcg61-suggest; do
	probe=$out/$page-probe.html
	sed 's|</body>|<script>var t=[...document.querySelectorAll("svg.map text")].map(e=>parseFloat(getComputedStyle(e).fontSize)*e.ownerSVGElement.getScreenCTM().a);var o=[...document.querySelectorAll("svg.map .mk")].filter(e=>{var b=e.getBBox();return b.x+b.width>e.ownerSVGElement.viewBox.baseVal.width}).length;document.body.insertAdjacentHTML("beforeend","<pre>WIDTHS "+document.documentElement.scrollWidth+"/"+document.documentElement.clientWidth+" TEXTPX "+Math.min(...t).toFixed(1)+" MAPS "+t.length+" MKOUT "+o+"</pre>")</script></body>|' \
		"$out/$page.html" >"$probe"
	for w in 420 800 1000 1400; do
		probed=$(timeout 180 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
			--window-size=$w,1400 --dump-dom "file://$probe" 2>/dev/null |
			grep -o 'WIDTHS [0-9/]* TEXTPX [0-9.]* MAPS [0-9]* MKOUT [0-9]*' | tail -1)
		read -r _ widths _ textpx _ ntext _ mkout <<<"$probed"
		if [[ -n $widths ]] && awk -F/ '{ exit !($1 <= $2) }' <<<"$widths"; then
			ok "$page at $w px: the page does not scroll sideways (scroll/client width $widths)"
		else
			bad "$page at $w px: the page scrolls sideways or was not measured (${probed:-no probe output})"
		fi
		if [[ -n $textpx ]] && awk '{ exit !($1 >= 10) }' <<<"$textpx"; then
			ok "$page at $w px: map text at least 10 px (smallest ${textpx} px of $ntext texts)"
		else
			bad "$page at $w px: map text below 10 px or not measured (${probed:-no probe output})"
		fi
		if [[ $mkout == 0 ]]; then
			ok "$page at $w px: every finding marker inside its map"
		else
			bad "$page at $w px: ${mkout:-?} finding markers past the map's width"
		fi
	done
done

# Printed (the print stylesheet, to PDF): the maps' text at least 7 pt
# high (pdftotext's word boxes of the line offsets "+N"; side by side maps
# printed at about 4), the C declarations shown (closed <details> are not
# printed), nothing past the page's right edge.  The pages as PNG (60 dpi,
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
words = re.findall(r'xMin="[0-9.]+" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)<', t)
hs = [float(b) - float(a) for a, _, b, x in words if re.fullmatch(r'\+\d+', x)]
out = [x for _, r, _, x in words if float(r) > w]
bad = []
if not hs or min(hs) < 7:
    bad.append('map text %.1f pt high' % (min(hs) if hs else 0))
if out:
    bad.append('%d words past the right edge' % len(out))
if sys.argv[2].endswith('suggest') and 'static_assert' not in t:
    bad.append('no C declaration')
print(('BAD ' + '; '.join(bad)) if bad else
      'OK %d pages, map text %.1f pt high' % (pages, min(hs)))
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
