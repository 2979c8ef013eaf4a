#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The pictures: `report --map` / `suggest --map` (terminal cacheline maps)
and `report --html` / `suggest --html` (one self-contained HTML page), on
the seed miniatures (fixtures/report/seed.c, compiled here with gcc -g -c;
member offsets are the x86-64 ABI's, so one golden serves any compiler).

    test_map.py --list          case names
    test_map.py CASE            run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC (compiler), UPDATE_GOLDEN=1 to
(re)write tests/cli/map_golden/*.txt from the current output (review the
diff: the cells must agree with the report's classes, which case
map_matches_json checks independently of the goldens).
"""
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_check import check_page  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SL = os.environ.get('STRUCTLINT', os.path.join(ROOT, 'build', 'structlint'))
CC = os.environ.get('CC_GCC', 'gcc')
CLASSES = os.path.join(ROOT, 'fixtures', 'classes')
MEMCG61 = os.path.join(CLASSES, 'mem_cgroup_per_node-6.1.classes')
GOLDEN = os.path.join(ROOT, 'tests', 'cli', 'map_golden')
UPDATE = os.environ.get('UPDATE_GOLDEN') == '1'
TMP = tempfile.mkdtemp(prefix='slt-map-')
BASE = 0xffff888100a3c000
ESC = re.compile(r'\x1b\[[0-9;]*m')


def obj(v612=False):
    out = os.path.join(TMP, 'seed612.o' if v612 else 'seed61.o')
    if not os.path.exists(out):
        subprocess.run([CC, '-g', '-c', '-o', out] + (['-DV612'] if v612 else []) +
                       [os.path.join(ROOT, 'fixtures', 'report', 'seed.c')], check=True)
    return out


def env(columns, **extra):
    e = dict(os.environ)
    e.pop('NO_COLOR', None)
    e['COLUMNS'] = str(columns)
    e.update(extra)
    return e


def run(*args, rc=0, columns=80, **extra):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True,
                       env=env(columns, **extra))
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    if rc == 2:
        assert p.stdout == '' and len(p.stderr.strip().split('\n')) == 1, p.stderr
    return p.stdout


def golden(name, text):
    path = os.path.join(GOLDEN, name)
    if UPDATE:
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)
    with open(path) as f:
        want = f.read()
    assert text == want, '%s differs:\n%s' % (name, text)


def per_cpu_profile():
    """The per-CPU profile of test_report.py's case per_cpu_samples."""
    rows = {1584: [(0, 0, 100, 'lru_add')], 1592: [(1, 50, 0, 'charge'), (2, 30, 0, 'charge')],
            2496: [(3, 0, 40, 'mem_cgroup_iter')], 2328: [(3, 0, 60, 'update_lru_size')],
            2504: [(4, 20, 0, 'shrink')], 2552: [(5, 10, 0, 'memcg_of')]}
    samples = [{'addr': hex(BASE + off), 'cpu': c, 'loads': ld, 'stores': st,
                'symbol': sym, 'size': 8}
               for off, rs in rows.items() for c, ld, st, sym in rs]
    path = os.path.join(TMP, 'memcg-percpu.json')
    with open(path, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'samples': samples}, f)
    return path


MEMCG = [obj, 'mem_cgroup_per_node', '--classes', MEMCG61]


def memcg(*extra):
    return [MEMCG[0](), *MEMCG[1:], *extra]


# --- terminal map ---------------------------------------------------------

def case_map_plain():
    # a pipe: no colour whatever --color auto says; one cell per byte at 80
    t = run('report', *memcg('--map'), columns=80)
    assert not ESC.search(t), t
    golden('memcg61.80.txt', t)


def case_map_color():
    t = run('report', *memcg('--map', '--color=always'), columns=80)
    assert ESC.search(t), t
    golden('memcg61.80.color.txt', t)
    # the colours are added to the plain map, nothing else changes
    assert ESC.sub('', t) == run('report', *memcg('--map'), columns=80)


def case_map_narrow():
    # 40 columns: 4 bytes per cell (the smallest of 1, 2, 4, 8 that fits),
    # the cell shows its most written member; 24 columns: 8 bytes
    t = run('report', *memcg('--map'), columns=40)
    golden('memcg61.40.txt', t)
    assert '1 cell = 4 bytes' in t
    row39 = [l for l in t.split('\n') if l.startswith('39 ')][0]
    # 2496: iter (W), shrinker_info (R), tree_node.. (c), hole, memcg (R)
    assert row39.split('|')[1] == 'WWRRccccccccc.RR', row39
    t = run('report', *memcg('--map'), columns=24)
    row39 = [l for l in t.split('\n') if l.startswith('39 ')][0]
    assert re.search(r'1 cell = 8\s+bytes', t) and row39.split('|')[1] == 'WRcccccR', row39


def tty_run(args, columns, **extra):
    """Run with stdout on a pseudo-terminal: what `auto` colour sees."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(SL, [SL] + [str(a) for a in args], env(columns, **extra))
    out = b''
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, out[-2000:]
    return out.decode().replace('\r\n', '\n')


def case_map_tty():
    # a terminal: colour by default; NO_COLOR and TERM=dumb turn it off,
    # --color=always wins over NO_COLOR
    args = ['report'] + memcg('--map')
    plain = run(*args, columns=80)
    colour = tty_run(args, 80, TERM='xterm')
    assert ESC.search(colour) and ESC.sub('', colour) == plain
    assert tty_run(args, 80, TERM='xterm', NO_COLOR='1') == plain
    assert tty_run(args, 80, TERM='dumb') == plain
    assert ESC.search(tty_run(args + ['--color=always'], 80, TERM='xterm', NO_COLOR='1'))


def case_map_profile():
    # heat after each line (0-5 of the busiest member), both collisions
    t = run('report', obj(), 'mem_cgroup_per_node', '--samples', per_cpu_profile(),
            '--base', hex(BASE), '--map', columns=80)
    golden('memcg61-percpu.80.txt', t)
    rows = {int(l.split()[0]): l for l in t.split('\n') if re.match(r'\s*\d+ +\d+\|', l)}
    assert rows[24].endswith(' !1') and rows[39].endswith(' !2'), (rows[24], rows[39])
    heat = {k: int(l.split('|')[2].split()[0]) for k, l in rows.items()}
    assert heat[24] == 5 and heat[36] == 3 and heat[0] == 5, heat


def case_suggest_map():
    t = run('suggest', *memcg('--map', '--max-proposals', '2'), columns=80)
    golden('memcg61-suggest.80.txt', t)
    wide = run('suggest', *memcg('--map', '--max-proposals', '1'), columns=170)
    golden('memcg61-suggest.170.txt', wide)
    # before | after on every row of the maps, none wider than the terminal
    for text, cols in ((t, 80), (wide, 170)):
        rows = [l for l in text.split('\n') if ' | ' in l]
        assert len(rows) > 20, text
        for l in rows:
            assert len(l) <= cols, (cols, l)
    assert 'before' in t and 'after' in t and 'moved: lruvec_stats_percpu' in t
    # report --suggest --map: the report's map, then suggest's
    both = run('report', *memcg('--map', '--suggest'), columns=80)
    assert both.startswith(run('report', *memcg('--map'), columns=80) + '\n')
    assert 'proposal 1 of' in both


def owner_letters(d, cl=64):
    """The plain map's letters of each byte, from the JSON report: the
    deepest member holding the byte, the first among equals."""
    letter = {'hot-write': 'W', 'read-mostly': 'R', 'mixed': 'M', 'true-shared': 'T',
              'cold': 'c', 'none': '?'}
    size = d['size']
    own = [None] * size
    for m in d['members']:
        for b in range(m['offset'], min(size, m['offset'] + m['size'])):
            if own[b] is None or own[b]['depth'] < m['depth']:
                own[b] = m
    return ''.join(letter[o['class']] if o else '.' for o in own)


def case_map_matches_json():
    # every cell of the byte map is the class of its member in the JSON
    # report (a second reading of the same model, not of the golden)
    for o, name, extra in ((obj(), 'mem_cgroup_per_node', ['--classes', MEMCG61]),
                           (obj(), 'cgroup', ['--classes', os.path.join(CLASSES, 'cgroup.classes')]),
                           (obj(True), 'mem_cgroup_per_node',
                            ['--classes', os.path.join(CLASSES, 'mem_cgroup_per_node.classes')])):
        d = json.loads(run('report', '--json', o, name, *extra))
        want = owner_letters(d)
        t = run('report', o, name, *extra, '--map', columns=100)
        got = {}
        for l in t.split('\n'):
            m = re.match(r'\s*(\d+) +\d+\|([^|]*)\|', l)
            if m:
                got[int(m.group(1))] = m.group(2)
            m = re.match(r'\s*: lines (\d+)-(\d+): ', l)
            if m:   # collapsed: the same member fills them
                for k in range(int(m.group(1)), int(m.group(2)) + 1):
                    got[k] = None
        assert sorted(got) == list(range(len(want) // 64 + (len(want) % 64 > 0))), sorted(got)
        for k, cells in got.items():
            exp = want[k * 64:(k + 1) * 64]
            if cells is None:
                assert len(set(exp)) == 1, (name, k, exp)
                continue
            assert cells.rstrip() == exp, (name, k, cells, exp)


def paths(members):
    """Dotted paths (anonymous levels left out) from a pre-order member
    list with depths, as the report's JSON spells them."""
    stack, out = [], []
    for m in members:
        del stack[m['depth']:]
        stack.append(m['name'])
        out.append('.'.join(n for n in stack if n))
    return out


def case_proposal_classes():
    # the "after" map of every proposal: each byte is drawn by the class of
    # the member it belongs to, found by path in the report (also a member
    # the isolate proposal wraps in an anonymous struct)
    import test_suggest
    import test_suggest_why
    try:
        cases = [(obj(), 'mem_cgroup_per_node', MEMCG61)]
        o = test_suggest_why.anon_obj()
        cases.append((o, 'anon_mm', os.path.join(test_suggest.TMP, 'anon.classes')))
        letter = {'hot-write': 'W', 'read-mostly': 'R', 'mixed': 'M', 'true-shared': 'T',
                  'cold': 'c', 'none': '?'}
        kinds = set()
        for o, name, cls in cases:
            rep = json.loads(run('report', '--json', o, name, '--classes', cls))
            cls_of = {m['path']: m['class'] for m in rep['members'] if m['path']}
            adv = json.loads(run('suggest', '--json', o, name, '--classes', cls,
                                 '--max-proposals', '20'))
            t = run('suggest', o, name, '--classes', cls, '--max-proposals', '20', '--map',
                    columns=200)
            blocks = t.split('\nproposal ')[1:]
            assert len(blocks) == len(adv['proposals']) > 0, (len(blocks), t[:500])
            for p, block in zip(adv['proposals'], blocks):
                kinds.add(p['kind'])
                mem = p['layout']['members']
                size = p['layout']['size']
                own = [None] * size
                for m, path in zip(mem, paths(mem)):
                    for b in range(m['offset'], min(size, m['offset'] + m['size'])):
                        if own[b] is None or own[b][0]['depth'] < m['depth']:
                            own[b] = (m, path)
                want = ''.join('.' if x is None else letter[cls_of[x[1]]]
                               if x[1] in cls_of else '.' for x in own)
                got = {}
                for l in block.split('\n'):
                    r = re.match(r'.*\| +(\d+) +\d+\|([^|]*)\|', l)
                    if r:
                        got[int(r.group(1))] = r.group(2)
                for k, cells in got.items():
                    assert cells.rstrip() == want[k * 64:(k + 1) * 64], \
                        (name, p['kind'], k, cells, want[k * 64:(k + 1) * 64])
                assert got, block[:300]
        assert 'isolate' in kinds, kinds
    finally:
        shutil.rmtree(test_suggest.TMP, ignore_errors=True)


def case_map_usage():
    run('report', *memcg('--map', '--json'), rc=2)
    run('suggest', *memcg('--map', '--json'), rc=2)
    run('report', *memcg('--html', '-', '--map'), rc=2)
    run('report', *memcg('--html', os.path.join(TMP, 'no', 'such', 'dir', 'x.html')), rc=2)
    # a page that cannot be written whole: exit 2, the device left alone
    if os.path.exists('/dev/full'):
        p = subprocess.run([SL, 'report', *memcg('--html', '/dev/full')],
                           capture_output=True, text=True)
        assert p.returncode == 2 and 'write failed' in p.stderr, (p.returncode, p.stderr)
        assert os.path.exists('/dev/full')


# --- HTML -----------------------------------------------------------------

def case_html_report():
    # an input path with every character HTML escapes
    d = os.path.join(TMP, 'a&b<c>"q\'')
    os.makedirs(d, exist_ok=True)
    o = os.path.join(d, 'seed61.o')
    shutil.copy(obj(), o)
    page_path = os.path.join(TMP, 'report.html')
    text = run('report', o, 'mem_cgroup_per_node', '--classes', MEMCG61, '--html', page_path)
    # stdout keeps the text report
    assert text == run('report', obj(), 'mem_cgroup_per_node', '--classes', MEMCG61)
    page = open(page_path).read()
    p = check_page(page)
    assert 'a&amp;b&lt;c&gt;&quot;q&#39;' in page and 'a&b<c>' not in page
    # one row per line, the findings linked both ways
    assert len([i for i in p.ids if re.fullmatch(r's0-l\d+', i)]) == 40
    assert {'s0-f1', 's0-f2'} <= p.ids and '#s0-l39' in p.hrefs and '#s0-f1' in p.hrefs
    assert 'collision' in page and 'shrinker_info' in page
    # the same page on stdout with --html -
    assert run('report', o, 'mem_cgroup_per_node', '--classes', MEMCG61, '--html', '-') == page


def case_html_suggest():
    page_path = os.path.join(TMP, 'suggest.html')
    out = run('suggest', *memcg('--html', page_path, '--json'))
    assert json.loads(out)['schema'] == 'structlint.advice/v1'
    page = open(page_path).read()
    p = check_page(page)
    n = len(json.loads(out)['proposals'])
    assert n >= 2
    # each proposal: a row of the table, its map beside the original's
    for i in range(1, n + 1):
        assert 's0-p%d' % i in p.ids and '#s0-p%d' % i in p.hrefs
        assert 's0-p%da-l0' % i in p.ids and 's0-p%db-l0' % i in p.ids
    assert page.count('<div class="map"') == 1 + 2 * n
    assert 'kmalloc-4k' in page
    # the slab figures name the cache the text assumes, with object sizes
    assert "kmalloc()'d instead" in page, page[:3000]
    assert re.search(r'<td>\d+, \d+, 2560 &#8594; \d+, \d+, \d+</td>', page), page[:3000]


def case_html_profile():
    page_path = os.path.join(TMP, 'profile.html')
    run('report', obj(), 'mem_cgroup_per_node', '--samples', per_cpu_profile(),
        '--base', hex(BASE), '--html', page_path, '--map')
    page = open(page_path).read()
    check_page(page)
    # hover text carries the counts; hotter members more opaque
    assert re.search(r'lruvec \(struct lruvec\): offset 0, 1592 bytes; hot-write; '
                     r'loads 0, stores 100', page), page[:3000]
    assert 'fill-opacity="1.00"' in page


def case_html_check_detects():
    # the page checks fail on what they are for (a check that cannot fail
    # is no check): a good page edited one way at a time
    page_path = os.path.join(TMP, 'good.html')
    run('report', *memcg('--html', page_path))
    good = open(page_path).read()
    check_page(good)
    for bad in (good.replace('<style>', '<style>@import "x.css";'),
                good.replace('</section>', '<img src="x.png"/></section>'),
                good.replace('</section>', '<a href="https://example.org/">x</a></section>'),
                good.replace('</section>', '<p style="background:url(x.png)">x</p></section>'),
                good.replace('href="#s0-l39"', 'href="#s0-l99"'),
                good.replace('</h2>', '', 1),
                ):
        if bad == good:
            continue
        try:
            check_page(bad)
        except Exception:
            continue
        raise AssertionError('check_page passed a bad page: ' + bad[:200])
    # a script element is refused even inline
    try:
        check_page(good.replace('</body>', '<script>1</script></body>'))
    except AssertionError:
        return
    raise AssertionError('check_page passed a page with a script')


# --- the new-user trial's defects (map_units.c) -------------------------

LETTER = {'hot-write': 'W', 'read-mostly': 'R', 'mixed': 'M', 'true-shared': 'T',
          'cold': 'c', 'none': '?'}


def units():
    """(object, classes file) of fixtures/report/map_units.c."""
    out = os.path.join(TMP, 'map_units.o')
    if not os.path.exists(out):
        subprocess.run([CC, '-g', '-c', '-o', out,
                        os.path.join(ROOT, 'fixtures', 'report', 'map_units.c')], check=True)
    return out, os.path.join(CLASSES, 'map_units.classes')


ROW = re.compile(r'\s*(\d+) +\d+\|([^|]*)\|')


def rows_of(text):
    """{line: (cells row, [names rows])} of a one-panel map."""
    out, cur = {}, None
    for l in text.split('\n'):
        m = ROW.match(l)
        if m:
            cur = int(m.group(1))
            out[cur] = (l, [])
        elif cur is not None and l.startswith(' ') and not l.lstrip().startswith(':'):
            out[cur][1].append(l)
        else:
            cur = None
    return out


def placed_names(cells, names):
    """(column, word) of each name or '^' written under the cells (before
    the '+' list)."""
    bar = cells.index('|') + 1
    end = cells.index('|', bar)
    out = []
    for m in re.finditer(r'[^ ]+', names):
        if m.start() >= end or m.group().startswith('+'):
            break
        assert m.start() >= bar, (cells, names)
        w, at = m.group(), m.start()
        while w.startswith('^'):        # boundary marks, one per cell
            out.append((at, '^'))
            w, at = w[1:], at + 1
        if w:
            out.append((at, w))
    return out


def case_map_units():
    # without -E the map names and colours the member the findings name
    # (pos, un: anonymous struct/union types), with -E the inner members
    o, cls = units()
    t = run('report', o, 'pt', '--classes', cls, '--map')
    rows = rows_of(t)
    cells, names = rows[0]
    words = [w for _, w in placed_names(cells, names[0])]
    assert words[:4] == ['counter', 'pos', 'un', 'rd'], t
    assert 'x' not in words and 'a' not in words, t
    assert re.search(r'pos\s+\(read-mostly\)', t) and re.search(r'un\s+\(read-mostly\)', t), t
    e = run('report', o, 'pt', '--classes', cls, '--map', '-E')
    ew = [w for _, w in placed_names(*[(c, n[0]) for c, n in [rows_of(e)[0]]][0])]
    assert ew[:5] == ['counter', 'x', 'y', 'a', 'rd'], e
    # the union is called a union (map header, suggest's map, the page)
    u = run('report', o, 'U', '--classes', cls, '--map')
    assert u.startswith('union U: 24 bytes'), u
    page_path = os.path.join(TMP, 'units.html')
    run('report', o, 'pt', '--classes', cls, '--html', page_path)
    page = open(page_path).read()
    check_page(page)
    assert '<title>pt: cacheline map' in page, page[:400]
    assert '>pos</text>' in page and '>x</text>' not in page, page
    # hover: the bitfield's bits; "no class" as the legend says (not "none")
    assert 'f1 (unsigned int): offset 56 bit 0, 3 bits; hot-write' in page, page
    assert 'pad (char[24]): offset 32, 24 bytes; no class' in page, page
    assert '; none' not in page


def case_map_width():
    # no line wider than COLUMNS; the cell the smallest of 1, 2, 4, 8 bytes
    # whose row fits; names under a cell that shows their member
    o, cls = units()
    prof = per_cpu_profile()
    inputs = [memcg(), [obj(), 'mem_cgroup_per_node', '--samples', prof, '--base', hex(BASE)],
              [o, 'mid', '--classes', cls], [o, 'pt', '--classes', cls]]
    for cols in (20, 24, 30, 40, 50, 60, 70, 75, 76, 80, 100):
        for args in inputs:
            d = json.loads(run('report', '--json', *args))
            letter = {m['name']: LETTER[m['class']] for m in d['members'] if m['depth'] == 0}
            for cmd in ('report', 'suggest'):
                t = run(cmd, *args, '--map', '--color=always', columns=cols)
                for l in ESC.sub('', t).split('\n'):
                    assert len(l) <= cols, (cmd, args[1], cols, l)
            t = run('report', *args, '--map', columns=cols)
            cell = int(re.search(r'1\s+cell\s+=\s+(\d+)\s+byte', t).group(1))
            rows = rows_of(t)
            prefix = max(len(c.split('|')[0]) for c, _ in rows.values()) + 1
            marks = max(len(c.split('|', 2)[2]) for c, _ in rows.values())
            want = next((b for b in (1, 2, 4, 8) if prefix + 64 // b + 1 + marks <= cols), 8)
            assert cell == want, (args[1], cols, cell, want, t)
            for k, (cells, names) in rows.items():
                if not names:
                    continue
                for col, word in placed_names(cells, names[0]):
                    if word != '^':
                        assert cells[col] == letter[word], (args[1], cols, k, word, cells, names)
    # the member that starts inside the first 8-byte cell (rb, after hot):
    # its name under its own first cell, not under hot's
    t = run('report', o, 'mid', '--classes', cls, '--map', columns=20)
    cells, names = rows_of(t)[0]
    assert re.search(r'1 cell = 8\s+bytes', t) and cells.split('|')[1].startswith('WRRR'), t
    assert dict((w, c) for c, w in placed_names(cells, names[0]))['rb'] == cells.index('|') + 2, t


def case_map_after_findings():
    # suggest --map and --html mark the findings left after a proposal on
    # its map, numbered as the original's when the same finding
    adv = json.loads(run('suggest', *memcg('--adjacent', '--json')))
    t = run('suggest', *memcg('--adjacent', '--map'), columns=200)
    # the original's findings by number close the output, as report's
    rep = run('report', *memcg('--adjacent', '--map'), columns=200)
    key = rep[rep.index('\n!1 line') + 1:]
    assert t.endswith(key), (t[-2000:], key)
    t = t[:-len(key)]
    blocks = t.split('\nproposal ')[1:]
    assert len(blocks) == len(adv['proposals']), t
    left_total = 0
    for p, block in zip(adv['proposals'], blocks):
        after = set()
        for l in block.split('\n'):
            if ' | ' in l and ROW.match(l.split(' | ', 1)[1]):
                after |= set(re.findall(r'!(\d+)', l.split(' | ', 1)[1]))
        key = set(re.findall(r'^!(\d+) line', block.split('left after proposal')[1], re.M)) \
            if 'left after proposal' in block else set()
        assert after == key and len(key) == p['findings_after'], (p['findings_after'], after, key, block)
        left_total += p['findings_after']
    assert left_total > 0, t
    page_path = os.path.join(TMP, 'after.html')
    run('suggest', *memcg('--adjacent', '--html', page_path))
    page = open(page_path).read()
    pg = check_page(page)
    for i, p in enumerate(adv['proposals'], 1):
        items = [x for x in pg.ids if re.fullmatch(r's0-p%d-f\d+' % i, x)]
        assert len(items) == p['findings_after'], (i, items)
        for x in items:
            assert '#' + x in pg.hrefs, x


def case_html_score():
    # one score on the page: the table's is the proposals' "before" (text
    # and JSON), labelled; a report page sums the collision and write-write
    # findings (not the straddle and adjacent-line points)
    for extra in ([], ['--adjacent']):
        adv = json.loads(run('suggest', *memcg(*extra, '--json')))
        page_path = os.path.join(TMP, 'score.html')
        run('suggest', *memcg(*extra, '--html', page_path))
        page = open(page_path).read()
        m = re.search(r'<th>false-sharing score</th><td>([0-9.]+) \(', page)
        assert m and float(m.group(1)) == adv['proposals'][0]['score_before'], (m and m.group(0))
        assert 'as the proposals count it' in page
        rep = json.loads(run('report', *memcg(*extra, '--json')))
        run('report', *memcg(*extra, '--html', page_path))
        page = open(page_path).read()
        m = re.search(r'<th>false-sharing score</th><td>([0-9.]+) \(', page)
        want = sum(f['score'] for f in rep['findings'] if f['kind'] in ('collision', 'write-write'))
        assert m and float(m.group(1)) == want, (m and m.group(0), want)


def case_map_marks():
    # markers "!1 !2" (as the man page and the page write them); a '^'
    # between same-class neighbours whose names do not fit; the legend
    # says where given classes came from
    t = run('report', *memcg('--adjacent', '--map'), columns=100)
    assert re.search(r'\| !1 !2$', t, re.M) and re.search(r'\| !3 !4$', t, re.M), t
    o, cls = units()
    t = run('report', o, 'twins', '--classes', cls, '--map', columns=80)
    cells, names = rows_of(t)[0]
    got = placed_names(cells, names[0])
    bar = cells.index('|') + 1
    assert got[:2] == [(bar, '^'), (bar + 4, '^')], (cells, names)
    assert '+alpha_counter,beta_counter' in ' '.join(names), names
    assert 'classes: given' in t, t
    import test_access
    try:
        exe = test_access.build('gcc', 5, 'O2')
        t = run('report', exe, 'stats', '--map', columns=80)
        assert 'classes: static' in t, t
    finally:
        shutil.rmtree(test_access.TMP, ignore_errors=True)
    page_path = os.path.join(TMP, 'marks.html')
    run('report', *memcg('--html', page_path))
    page = open(page_path).read()
    assert 'min-width:520px' not in page and 'viewBox=' in page
    # every window width: the map at its own size (10.8px text), its box
    # scrolls when narrower (tests/real/html-screenshot.sh measures it)
    assert 'svg.map{display:block;max-width:none}' in page
    # 630: the gutter (76) and the one marker a line has (14) before the
    # cells (512), the heat bar's margin (28) after them
    assert 'viewBox="0 0 630 ' in page and '.mapbox{overflow-x:auto' in page
    assert '<th>classes</th><td>given</td>' in page, page


def case_map_overlap():
    # members sharing bytes (a bitfield after another in its storage unit,
    # union arms): the byte shows the hottest of them, the others are
    # listed after the row when a finding uses them, and hover in the page
    o, cls = units()
    out = ''
    for name in ('bits', 'arms', 'narms'):
        for cols in (80, 24):
            t = run('report', o, name, '--classes', cls, '--map', columns=cols)
            out += t
            cells, names = rows_of(t)[0]
            row = cells.split('|')[1]
            d = json.loads(run('report', '--json', o, name, '--classes', cls))
            hot = [m for m in d['members'] if m['class'] == 'hot-write' and m['offset'] == 8]
            assert hot, d['members']
            cell = int(re.search(r'1\s+cell\s+=\s+(\d+)\s+byte', t).group(1))
            assert (cell == 1) == (cols == 80), (cols, cell)
            # offset 8: the hot member (b, big) though it is not first
            assert row[8 // cell] == 'W', (name, cols, row)
            if cols == 80:
                want = 'RRRRRRRRWWWW????RRRRRRRR' if name == 'bits' else \
                    'RRRRRRRR' + 'W' * 32 + 'RRRRRRRR'
                assert row.rstrip() == want, (name, row)
                words = [w for _, w in placed_names(cells, names[0])]
                assert words[1] == hot[0]['name'], (name, words)
            # the colder member of the same bytes, used by the finding
            other = 'a' if name == 'bits' else 'small'
            assert re.search(r'[+,]%s\b' % other, ' '.join(names)), (name, cols, names)
        page_path = os.path.join(TMP, name + '.html')
        run('report', o, name, '--classes', cls, '--html', page_path)
        page = open(page_path).read()
        check_page(page)
        want = {'bits': '<title>b (unsigned int): offset 8 bit 3, 5 bits; hot-write (given); '
                        'also here: a (unsigned int): offset 8 bit 0, 3 bits; read-mostly',
                'arms': '<title>big (long int[4]): offset 8, 32 bytes; hot-write (given); '
                        'also here: small (int): offset 8, 4 bytes; read-mostly',
                'narms': '<title>u.big (long int[4]): offset 8, 32 bytes; hot-write (given); '
                         'also here: u.small (int): offset 8, 4 bytes; read-mostly'}[name]
        assert want in page, (name, page)
        assert '>%s</text>' % ('b' if name == 'bits' else 'big') in page, page
    golden('units-overlap.txt', out)


def case_map_names_whole():
    # the names a finding uses are never cut: on rows of their own (broken
    # over rows only when longer than a row), whatever the width
    o, cls = units()
    d = json.loads(run('report', '--json', o, 'crowd', '--classes', cls))
    used = {m['path'] for f in d['findings'] for m in f['members']}
    assert len(used) == 16, used
    for cols in range(20, 101, 4):
        t = run('report', o, 'crowd', '--classes', cls, '--map', columns=cols)
        cells, names = rows_of(t)[0]
        assert '~' not in ''.join(names), (cols, names)
        joined = ''.join(n.strip() for n in names)
        tokens = set(re.split(r'[+,^ ]+', ' '.join(names)))
        for n in used:
            assert n in joined, (cols, n, names)
            if cols >= 36:
                assert n in tokens, (cols, n, names)
        for l in t.split('\n'):
            assert len(l) <= cols, (cols, l)
        if cols == 40:
            golden('crowd.40.txt', t)


def case_map_wrap_comma():
    # a finding's members wrapped at the width: the comma ends the line
    # before, no line starts with one (nor the moved list of suggest)
    o, cls = units()
    for cols in range(20, 121):
        for cmd in ('report', 'suggest'):
            t = run(cmd, o, 'crowd', '--classes', cls, '--map', columns=cols)
            for l in t.split('\n'):
                assert not l.lstrip().startswith(','), (cmd, cols, l, t)
    t = run('report', o, 'crowd', '--classes', cls, '--map', columns=36)
    assert '(hot-write),\n    sk_max_ack_backlog_thirteen' in t, t


def case_static_hint():
    # classes from the static access map only: the error names the map
    # and the binary, never a classes file the user did not give; with a
    # classes file, that file
    import test_access
    try:
        exe = test_access.build('gcc', 5, 'O2')
        for extra in ([], ['--classes', 'static']):
            p = subprocess.run([SL, 'report', exe, 'leaf', '--map', *extra],
                               capture_output=True, text=True, env=env(80))
            err = p.stderr.strip().split('\n')[-1]
            assert p.returncode == 2 and p.stdout == '', (p.returncode, p.stderr)
            assert 'classes file' not in err and 'static:' not in err, err
            assert err.startswith('structlint: %s: the static access map' % exe), err
            assert "'structlint access %s leaf'" % exe in err, err
        o, cls = units()
        p = subprocess.run([SL, 'report', exe, 'leaf', '--classes', cls],
                           capture_output=True, text=True, env=env(80))
        assert p.returncode == 2 and ('%s: no class is given for any member of leaf' % cls) in \
            p.stderr and 'classes file' in p.stderr, p.stderr
    finally:
        shutil.rmtree(test_access.TMP, ignore_errors=True)


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()),
                  cleanup=lambda: shutil.rmtree(TMP, ignore_errors=True))
