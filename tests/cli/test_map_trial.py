#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The pictures, continued (tests/cli/test_map.py's helpers): the defects
a second new-user trial of issue 16 found, on fixtures/report/map_demo.c
(a union arm split by a hotter one, bitfields, a classes file naming a
nested member, five findings with map_demo.profile.json, four on one
line) and the 6.1 mem_cgroup_per_node miniature.

    test_map_trial.py --list    case names
    test_map_trial.py CASE      run one case (exit 0 pass, 1 fail)
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_check import check_page  # noqa: E402
from test_map import CC, CLASSES, ESC, ROOT, TMP, golden, memcg, rows_of, run, units  # noqa: E402

def demo():
    """(object, classes file, profile) of fixtures/report/map_demo.c."""
    out = os.path.join(TMP, 'map_demo.o')
    if not os.path.exists(out):
        subprocess.run([CC, '-g', '-c', '-o', out,
                        os.path.join(ROOT, 'fixtures', 'report', 'map_demo.c')], check=True)
    return (out, os.path.join(CLASSES, 'map_demo.classes'),
            os.path.join(ROOT, 'fixtures', 'report', 'map_demo.profile.json'))


MAP = re.compile(r'<div class="map" role="img" aria-label="[^"]*">(.*?)</div>', re.S)
SVG = re.compile(r'<svg class="map" viewBox="0 ([0-9.]+) ([0-9.]+) ([0-9.]+)" width="([0-9.]+)" '
                 r'height="([0-9.]+)">(.*?)</svg>', re.S)


def svgs(page):
    """(viewBox width, height, width px, height px, body) of each map: its
    <svg>s, one per line, each a window on the one picture, stacked."""
    out = []
    for m in MAP.findall(page):
        parts = SVG.findall(m)
        assert parts, m[:500]
        y = 0.0
        for y0, vw, vh, w, h, _ in parts:
            # the windows tile the picture: each starts where the last ended
            assert float(y0) == y and vw == parts[0][1] and w == parts[0][3], (y0, y, vw, w)
            y = float(y0) + float(vh)
        out.append((float(parts[0][1]), y, float(parts[0][3]),
                    sum(float(p[4]) for p in parts), ''.join(p[5] for p in parts)))
    return out


def page_of(*args):
    path = os.path.join(TMP, 'p.html')
    run(*args, '--html', path)
    page = open(path).read()
    check_page(page)
    return page


def case_html_marks_fit():
    # four findings on line 0: every marker between the line's number and
    # the cells (a narrow window shows the start of a map's box, so the
    # markers, which were after the cells, out of view), at 6 units a
    # digit and 8 more for the '!' and the gap, as the markers are drawn,
    # each linked to its finding
    o, _, prof = demo()
    for cmd in ('report', 'suggest'):
        page = page_of(cmd, o, 'demo', '--samples', prof)
        maps = svgs(page)
        assert maps, page[:2000]
        marks = 0
        for vw, vh, _, _, body in maps:
            cells = min(float(x) for x in re.findall(r'<rect class="c-[a-z]+[^"]*" x="([0-9.]+)"', body))
            for ref, x, num in re.findall(r'<a href="#([^"]+)"><text class="mk" x="([0-9.]+)" '
                                          r'y="[0-9.]+">!(\d+)', body):
                marks += 1
                assert 22 < float(x) and float(x) + 8 + 6 * len(num) <= cells - 30, \
                    (cmd, x, num, cells)
                assert ref.endswith('-f' + num) and ('<li id="%s"' % ref) in page, (cmd, ref)
        assert marks >= 5, (cmd, marks)


def case_html_text_size():
    # the maps' 9-unit text is drawn at 10px or more at every window width:
    # each SVG has its size in px (1.2 px a unit) and the CSS never scales
    # it to the window (the box scrolls); before and after stand side by
    # side only when both fit at that size (flex items of their own width)
    o, cls, prof = demo()
    for args in (['report', *memcg()], ['suggest', *memcg()], ['suggest', o, 'demo', '--samples', prof]):
        page = page_of(*args)
        assert 'svg text{font:9px ' in page
        for vw, vh, w, h, _ in svgs(page):
            assert w / vw * 9 >= 10 and abs(w / vw - h / vh) < 0.01, (args[0], vw, w)
        css = page[page.index('<style>'):page.index('</style>')]
        assert re.search(r'svg\.map\{[^}]*max-width:none', css), css
        assert not re.search(r'svg\.map\{[^}]*width:100%', css.split('@media print')[0]), css
        assert '.pair figure{flex:0 1 auto;' in css, css


def visible_words(body):
    """The words of a map's visible text: names in their runs and the
    names rows under the lines."""
    import html
    out = set()
    for t in re.findall(r'<text class="(?:nm|nl)"[^>]*>([^<]*)</text>', body):
        out |= set(w for w in re.split(r'[+,\s]+', html.unescape(t)) if w)
    return out


def case_html_names():
    # every member a finding uses is named by visible text on the map (in
    # its run, else in the names row under its line, as the terminal map's
    # +list), not only on hover
    o, cls, prof = demo()
    for args in ([o, 'demo', '--samples', prof], [o, 'demo', '--classes', cls],
                 memcg(), [units()[0], 'crowd', '--classes', units()[1]],
                 [units()[0], 'arms', '--classes', units()[1]]):
        d = json.loads(run('report', '--json', *args))
        page = page_of('report', *args)
        words = visible_words(svgs(page)[0][4])
        for f in d['findings']:
            for m in f['members']:
                name = m['path'].split('.')[-1]
                assert name in words, (args[1], f['rank'], name, sorted(words))


def case_map_nested_names():
    # a classes file naming a nested member (in.b) draws the map inline;
    # a member a finding names that is then drawn through its members (pos
    # as x and y) is still named, after the row (+pos) and on hover
    o, cls, _ = demo()
    d = json.loads(run('report', '--json', o, 'demo', '--classes', cls))
    assert any(m['path'] == 'pos' for f in d['findings'] for m in f['members']), d['findings']
    for cols in (40, 80, 100):
        t = run('report', o, 'demo', '--classes', cls, '--map', columns=cols)
        rows = rows_of(t)
        for f in d['findings']:
            names = ' '.join(' '.join(n) for _, n in rows.values())
            words = set(re.split(r'[+,^ ]+', names))
            for m in f['members']:
                assert m['path'].split('.')[-1] in words, (cols, m['path'], names)
    page = page_of('report', o, 'demo', '--classes', cls)
    assert 'also here: pos (struct {...}): offset 8' in page or \
        re.search(r'also here: pos \([^)]*\): offset 8', page), page


def case_html_print():
    # printed: maps as wide as the page, before above after, no scroll
    # box, tables wrap in the page, no block larger than a row kept whole
    # (a section kept whole left page 1 three quarters blank), the C
    # declaration shown (a copy outside the closed <details>); the PDF
    # itself is looked at by tests/real/html-screenshot.sh
    page = page_of('suggest', *memcg())
    css = page[page.index('<style>'):page.index('</style>')]
    pr = css[css.index('@media print'):]
    for want in ('svg.map{width:100%;height:auto', '.mapbox,.scroll{overflow:visible}',
                 '.pair{display:block}', 'table{width:100%', 'details{display:none}',
                 '.print{display:block}'):
        assert want in pr, (want, pr)
    assert not re.search(r'(section|figure|table)[^{}]*\{[^}]*break-inside:avoid', pr), pr
    assert '.print{display:none}' in css.split('@media print')[0], css
    # a map is one <svg> per line, so a page breaks between lines: one
    # <svg> for the whole map (never broken) went to page 2 whole and left
    # page 1 half blank
    maps = MAP.findall(page)
    n = [(len(SVG.findall(m)), m.count('<g class="ln"')) for m in maps]
    assert maps and all(a == b >= 40 for a, b in n), n
    assert len(svgs(page)) == len(maps)
    decls = re.findall(r'<details><summary>C declaration</summary><pre><code>(.*?)</code>', page, re.S)
    copies = re.findall(r'<div class="print"><p>C declaration</p><pre><code>(.*?)</code>', page, re.S)
    assert decls and decls == copies, (len(decls), len(copies))


def case_suggest_stack():
    # before | after only when neither map's text is cut there (names
    # whole, ": lines K-J: name" whole); else one above the other (at 40
    # columns side by side cut `: lines 1~` and `+lruvec_~`)
    sides = set()
    for cols in range(20, 121, 4):
        t = run('suggest', *memcg('--map', '--max-proposals', '1'), columns=cols)
        side = bool(re.search(r'before +\| +after', t))
        sides.add(side)
        if side:
            assert '~' not in t, (cols, t)
        for l in t.split('\n'):
            assert len(l) <= cols, (cols, l)
    assert sides == {True, False}, sides
    t = run('suggest', *memcg('--map', '--max-proposals', '1'), columns=40)
    assert not re.search(r'before +\| +after', t) and '\n        after\n' in t, t


def case_map_min_width():
    # a width below 20 columns is drawn at 20 (the man page says so), not
    # silently at 80
    o, cls, _ = demo()
    at20 = run('report', o, 'demo', '--classes', cls, '--map', columns=20)
    for cols in (1, 5, 19):
        t = run('report', o, 'demo', '--classes', cls, '--map', columns=cols)
        assert t == at20, (cols, t)
    assert max(len(l) for l in at20.split('\n')) <= 20, at20


def case_html_hover_shared():
    # hover on a member lists every member that holds some of its bytes:
    # raw (union arm, drawn on 16..19) under hi (20..23, hotter)
    o, cls, _ = demo()
    page = page_of('report', o, 'demo', '--classes', cls)
    hi = re.search(r'<title>hi \(uint32_t\): offset 20[^<]*', page).group(0)
    assert 'also here: raw (uint64_t): offset 16, 8 bytes' in hi, hi


def case_map_marks_wrap():
    # a line's finding markers that do not fit after its cells wrap onto
    # rows of their own under the first marker, never cut with '~' (at 30
    # columns line 0's " !5" was cut to "!4~")
    o, _, prof = demo()
    args = ('report', o, 'demo', '--samples', prof, '--adjacent', '--map')
    d = json.loads(run('report', '--json', o, 'demo', '--samples', prof, '--adjacent'))
    on0 = sorted(f['rank'] for f in d['findings'] if 0 in (f['line'], f.get('line2', -1)))
    assert len(on0) >= 5, on0
    for cols in range(20, 41):
        t = run(*args, columns=cols)
        lines = t.split('\n')
        row0 = next(i for i, l in enumerate(lines) if l.startswith('0 '))
        marks = re.findall(r'!(\d+)', lines[row0].split('|', 2)[2])
        x = row0 + 1
        while re.fullmatch(r' +(!\d+ ?)+', lines[x]):
            marks += re.findall(r'!(\d+)', lines[x])
            x += 1
        assert sorted(int(m) for m in marks) == on0, (cols, on0, lines[row0:x + 1])
        assert '~' not in '\n'.join(lines[row0:x]), (cols, lines[row0:x])
        for l in lines:
            assert len(l) <= max(cols, 20), (cols, l)
    t = run(*args, columns=30)
    golden('demo-adjacent.30.txt', t)
    c = run(*args, '--color=always', columns=30)
    golden('demo-adjacent.30.color.txt', c)
    assert ESC.sub('', c) == t


def case_suggest_map_none():
    # no proposal (6.12's mem_cgroup_per_node: no sharing to remove): the
    # reason, then the original's map as report --map draws it (it drew
    # nothing); the page has the map and the reason too
    from test_map import obj
    args = (obj(True), 'mem_cgroup_per_node', '--classes',
            os.path.join(CLASSES, 'mem_cgroup_per_node.classes'))
    t = run('suggest', *args, '--map')
    head, _, rest = t.partition('\n    model can remove\n')
    assert head.startswith('struct mem_cgroup_per_node: 0 proposals\nno proposal: '), t
    assert rest and rest == run('report', *args, '--map'), t
    assert rows_of(rest), rest
    page = page_of('suggest', *args)
    assert len(svgs(page)) == 1 and '<p>No proposal: no layout with less sharing' in page, page


def case_map_leaf_names():
    # two members drawn with one name (sk_receive_queue.lock and
    # sk_lock.slock.lock, as in sock): each drawn as the shortest dotted
    # suffix that tells it apart, on the terminal and the page; other
    # names stay leaves (qlen, owned)
    o, cls = units()
    for cols in (40, 80, 120):
        t = run('report', o, 'twolocks', '--classes', cls, '--map', columns=cols)
        names = ' '.join(' '.join(n) for _, n in rows_of(t).values())
        words = set(re.split(r'[+,^ ]+', names))
        assert {'sk_receive_queue.lock', 'slock.lock', 'qlen', 'owned'} <= words, (cols, names)
        assert 'lock' not in words, (cols, names)
    for cmd in ('report', 'suggest'):
        page = page_of(cmd, o, 'twolocks', '--classes', cls)
        words = visible_words(svgs(page)[0][4])
        assert {'sk_receive_queue.lock', 'slock.lock'} <= words and 'lock' not in words, \
            (cmd, sorted(words))


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()),
                  cleanup=lambda: shutil.rmtree(TMP, ignore_errors=True))
