#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The pictures, a third new-user trial of issue 16 (tests/cli/test_map.py's
helpers), on the 6.1 mem_cgroup_per_node miniature and its proposals.

    test_map_trial3.py --list   case names
    test_map_trial3.py CASE     run one case (exit 0 pass, 1 fail)
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_check import check_page  # noqa: E402
from test_map import MEMCG61, SL, TMP, memcg, obj, rows_of, run  # noqa: E402
from test_map_trial import visible_words  # noqa: E402

WIDTHS = (20, 24, 30, 40, 60, 80)


def top_members():
    """The top-level members of mem_cgroup_per_node (structlint layout --json)."""
    p = subprocess.run([SL, 'layout', obj(), 'mem_cgroup_per_node', '--json'],
                       capture_output=True, text=True, check=True)
    return [mb for mb in json.loads(p.stdout)['structs'][0]['members'] if mb['depth'] == 0]


def starts_by_line():
    """{line: [offsets within the line of the top-level members starting on it]}."""
    out = {}
    for mb in top_members():
        out.setdefault(mb['offset'] // 64, []).append(mb['offset'] % 64)
    return out


def cell_bytes(text):
    return int(re.search(r'1 cell = (\d+) byte', ' '.join(text.split())).group(1))


def case_caret_first_cell():
    # the legend: "^: a member's first cell": a '^' stands only under a
    # cell where a member starts, never under a member continued from the
    # line before (lruvec_stats on line 35, lru_zone_size on 36..38)
    starts = starts_by_line()
    for cols in WIDTHS:
        t = run('report', *memcg('--map'), columns=cols)
        assert "^: a member's first cell" in ' '.join(t.split()), t
        n = cell_bytes(t)
        for k, (cells, names) in rows_of(t).items():
            bar = cells.index('|') + 1
            under = names[0] if names else ''
            for mt in re.finditer(r'\^', under.split('+')[0]):
                c = mt.start() - bar
                here = [o for o in starts.get(k, []) if o < (c + 1) * n]
                assert here, (cols, k, c, cells, names)
            carets = under.split('+')[0].count('^')
            assert carets <= len(starts.get(k, [])), (cols, k, cells, names)


def members_by_line():
    """{line: {names of the top-level members holding bytes of it}}."""
    out = {}
    for mb in top_members():
        for k in mb['cachelines']:
            out.setdefault(k, set()).add(mb['name'])
    return out


def case_names_whole():
    # at any width no name is cut into a stub (`: lines 26-33: lruvec_~`
    # at 30 columns, `+lruvec_sta~` at 20): a name that does not fit goes
    # on a row of its own, whole, and every member holding bytes of a
    # drawn line is named under it (in its cells or listed +a,b)
    held = members_by_line()
    for cols in range(22, 81, 2):
        for cmd in ('report', 'suggest'):
            t = run(cmd, *memcg('--map'), columns=cols)
            body = t.split('legend:')[0]
            assert '~' not in body, (cmd, cols, body)
            assert all(len(l) <= cols for l in t.split('\n')), (cmd, cols)
            if cmd == 'suggest':
                continue
            # the run labels name their member whole
            for lab in re.findall(r': lines \d+-\d+:\s+(\S+)', body):
                assert lab in held[0] | held[30], (cols, lab)
            for k, (cells, names) in rows_of(t).items():
                words = set(re.split(r'[+,^ ]+', ' '.join(names)))
                assert held[k] <= words, (cols, k, held[k] - words, cells, names)
    # at 20 columns (the least) too: no '~', a name longer than a row is
    # broken over rows, never cut
    t = run('report', *memcg('--map'), columns=20)
    body = t.split('legend:')[0]
    assert '~' not in body and 'lruvec_stats' in body.split(), body


def page(cmd):
    path = os.path.join(TMP, '%s.html' % cmd)
    run(cmd, *memcg('--html', path))
    with open(path) as f:
        text = f.read()
    check_page(text)
    return text


def case_html_all_names():
    # every member is findable on the page: by hovering (its path in a
    # <title>) and by visible text in its line's row, in its run or listed
    # under the line (usage_in_excess and on_tree, which no finding uses,
    # were named by hover only)
    held = members_by_line()
    for cmd in ('report', 'suggest'):
        text = page(cmd)
        first = text.split('<div class="map"')[1]
        rows = re.split(r'<g class="ln" id="[^"]*-l(\d+)">', first)
        seen = set()
        for k, body in zip(rows[1::2], rows[2::2]):
            k = int(k)
            if k in seen:
                break           # the next map
            seen.add(k)
            body = body.split('</g>')[0]
            titles = ' '.join(re.findall(r'<title>([^<]*)</title>', body))
            words = visible_words(body)
            for name in held[k]:
                assert name in words, (cmd, k, name, sorted(words))
                assert re.search(r'(^|; also here: )%s \(' % name, titles) or \
                    ('%s (' % name) in titles, (cmd, k, name, titles[:300])
        assert seen == set(range(40)), (cmd, sorted(seen))


def case_padding_named():
    # suggest's text names the padding members it inserts ("_pad1_: the
    # next member starts a cache line"); the map draws the hole each one
    # forces as padding ('.') named by it, on the terminal and the page
    text = run('suggest', *memcg(), columns=80)
    pads = sorted(set(re.findall(r'/\* (_pad\d+_): ', text)))
    assert pads, text
    for cols in (40, 80, 170):
        t = run('suggest', *memcg('--map'), columns=cols)
        words = set(re.split(r'[+,^|:\s]+', t))
        assert set(pads) <= words, (cols, pads, t)
    page_text = page('suggest')
    maps = page_text.split('<div class="map"')
    words = set()
    for body in maps[1:]:
        words |= visible_words(body.split('</div>')[0])
    assert set(pads) <= words, (pads, sorted(words))
    assert re.search(r'<title>_pad1_ \([^<]*the padding it forces: \d+ bytes? here', page_text)
    # the padding's cells are drawn as padding
    t = run('suggest', *memcg('--map'), columns=170)
    row = [l for l in t.split('proposal 2 of')[1].split('\n') if l.startswith('24 ')][0]
    after = row.split(' | ')[1]
    assert after.split('|')[1].endswith('.'), row


def case_kernel_padding_named():
    # report (not only suggest) names the hole the kernel's own
    # CACHELINE_PADDING member ends: 6.12 mem_cgroup_per_node's _pad1_ and
    # _pad2_ carry a class record in report (class none), which hid them;
    # their bytes stay padding ('.'), never a class letter
    o = obj(v612=True)
    lay = json.loads(run('layout', o, 'mem_cgroup_per_node', '--json'))
    pads = [mb for mb in lay['structs'][0]['members'] if mb['name'].startswith('_pad')]
    assert len(pads) == 2, pads
    for cols in (40, 80, 170):
        t = run('report', o, 'mem_cgroup_per_node', '--classes', MEMCG61, '--map',
                columns=cols)
        words = set(re.split(r'[+,^|:\s]+', t))
        assert {'_pad1_', '_pad2_'} <= words, (cols, t)
        if cols == 170:
            rows = rows_of(t)
            for mb in pads:
                k, b = divmod(mb['offset'], 64)
                if b:
                    cells = rows[k][0].split('|')[1]
                    assert cells[b - 1] == '.', (mb, cells)
    path = os.path.join(TMP, 'pad612.html')
    run('report', o, 'mem_cgroup_per_node', '--classes', MEMCG61, '--html', path)
    with open(path) as f:
        text = f.read()
    assert re.search(r'<title>_pad1_ \([^<]*the padding it forces: \d+ bytes? here', text), \
        'no _pad1_ hover'


def case_sarif_with_html():
    # a CI job uploads the SARIF log and the page: one run writes both, the
    # log on stdout (the same log as --sarif alone), the page in FILE (the
    # same page as --html alone); --html - with --sarif stays refused
    path = os.path.join(TMP, 'sarif.html')
    alone = run('report', *memcg('--sarif'))
    p = subprocess.run([SL, 'report', *memcg('--sarif', '--html', path)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == json.loads(alone)
    with open(path) as f:
        both = f.read()
    page_alone = run('report', *memcg('--html', '-'))
    assert both == page_alone
    p = subprocess.run([SL, 'report', *memcg('--sarif', '--html', '-')],
                       capture_output=True, text=True)
    assert p.returncode == 2 and '--html FILE may go with it' in p.stderr, p.stderr


def case_html_wrote():
    # --html FILE says on stderr what it wrote, and its size; stdout is the
    # report's, unchanged; --html - (the page on stdout) says nothing
    path = os.path.join(TMP, 'w.html')
    for cmd in ('report', 'suggest'):
        plain = run(cmd, *memcg())
        p = subprocess.run([SL, cmd, *memcg('--html', path)], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        assert p.stdout == plain, cmd
        assert p.stderr == 'structlint: wrote %s (%d bytes)\n' % (path, os.path.getsize(path)), \
            (cmd, p.stderr)
        p = subprocess.run([SL, cmd, *memcg('--html', '-')], capture_output=True, text=True)
        assert p.returncode == 0 and p.stderr == '' and p.stdout.startswith('<!DOCTYPE'), \
            (cmd, p.stderr, p.stdout[:40])


def table(page_text):
    """{row: text} of the page's first numbers table."""
    import html
    return {k: html.unescape(v) for k, v in
            re.findall(r'<tr><th>([^<]*)</th><td>([^<]*)</td></tr>', page_text)}


def case_map_numbers():
    # the terminal map gives the numbers the page's table and the JSON give
    # under the map: bytes, lines, holes, findings, the score, the slab
    # figures that do not depend on the CPU count
    d = json.loads(run('report', *memcg('--json')))
    for cmd, label in (('report', 'numbers'), ('suggest', 'numbers of the original')):
        tab = table(page(cmd))
        for cols in (40, 80):
            t = ' '.join(run(cmd, *memcg('--map'), columns=cols).split())
            m = re.search(label + r': (\d+) bytes, (\d+) cache lines of (\d+) bytes, (\d+) holes? '
                          r'\((\d+) bytes\), tail padding (\d+) bytes, (\d+) findings?, '
                          r'false-sharing score ([0-9.e+-]+) \(basis: (\w+);[^)]*\), slab: '
                          r'(\d+) B objects in a kmem_cache of its own ([^;]*); '
                          r"kmalloc\(\)'d: (\S+)", t)
            assert m, (cmd, cols, t[-900:])
            size, lines, cl, holes, hb, tail, nf, score, basis, obj_b, cache, km = m.groups()
            assert int(size) == d['size'] and tab['size'] == size + ' bytes', (size, tab)
            assert tab['cache lines'] == '%s of %s bytes' % (lines, cl), tab
            assert tab['holes'] == '%s (%s bytes)' % (holes, hb), tab
            assert tab['tail padding'] == tail + ' bytes', tab
            assert int(nf) == len(d['findings']) and tab['findings'] == nf, tab
            assert tab['false-sharing score'].startswith('%s (basis: %s;' % (score, basis)), \
                (score, tab)
            assert basis == d['score_basis'], (basis, d['score_basis'])
            assert ('%s: %s B objects' % (cache, obj_b)) in tab['slab'], (cache, obj_b, tab)
            assert tab['slab'].endswith("kmalloc()'d instead: " + km), (km, tab)


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()),
                  cleanup=lambda: shutil.rmtree(TMP, ignore_errors=True))
