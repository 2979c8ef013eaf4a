#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""suggest --keep-together with address samples (per-CPU score basis), on a
struct compiled at test time: written hits and misses kept adjacent, their
read-mostly neighbours cfg and mode on the writers' line.  The per-CPU
score sees the readers' collision with the kept writers and the advisor
moves the readers off their line; when what remains is sharing inside the
kept list, the note says so and what leaving the list out gives.

    test_advice_keep.py --list          case names
    test_advice_keep.py CASE            run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC (compiler).
"""
import json
import re
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SL = os.environ.get('STRUCTLINT', os.path.join(ROOT, 'build', 'structlint'))
CC = os.environ.get('CC_GCC', 'gcc')
BASE = 0x100000
TMP = None

STATS_C = r"""
struct kstats {
	unsigned long cfg;
	unsigned long hits;
	unsigned long mode;
	unsigned long misses;
	unsigned long cold[12];
} kstats_inst;
"""
OFF = {'cfg': 0, 'hits': 8, 'mode': 16, 'misses': 24}


def tmp():
    global TMP
    if TMP is None:
        TMP = tempfile.mkdtemp(prefix='slt-advice-keep-')
    return TMP


def run(*args, rc=0):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    return p


def fixture():
    src = os.path.join(tmp(), 'kstats.c')
    if not os.path.exists(src):
        with open(src, 'w') as f:
            f.write(STATS_C)
        subprocess.run([CC, '-g', '-c', '-o', src[:-2] + '.o', src], check=True)
    return src[:-2] + '.o'


def profile(tag, rows):
    """A structlint.profile/v1: {member: [(cpu, loads, stores, symbol)]}."""
    samples = [{'addr': hex(BASE + OFF[m]), 'cpu': c, 'loads': ld, 'stores': st,
                'symbol': sym, 'size': 8} for m, rr in rows.items() for c, ld, st, sym in rr]
    path = os.path.join(tmp(), tag + '.json')
    with open(path, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'samples': samples}, f)
    return path


def lines_of(p, names):
    return {m['name']: (m['offset'] // 64, (m['offset'] + m['size'] - 1) // 64)
            for m in p['layout']['members'] if m['name'] in names}


def case_readers_moved():
    """Every CPU stores hits and misses (mm_count's pattern), every CPU
    loads cfg and mode in another function; and one writer CPU per
    counter, readers on two others.  With --keep-together hits,misses the
    best proposal puts cfg and mode on lines without hits and misses,
    keeps the two adjacent, and leaves exactly the write-write sharing
    inside the kept list (0 with one writer CPU for both).  Also when one
    function on every CPU does it all."""
    o = fixture()
    pats = {
        'all_cpus': {'hits': [(c, 0, 100, 'count') for c in range(8)],
                     'misses': [(c, 0, 80, 'count') for c in range(8)],
                     'cfg': [(c, 50, 0, 'lookup') for c in range(8)],
                     'mode': [(c, 30, 0, 'lookup') for c in range(8)]},
        'two_writers': {'hits': [(0, 0, 1000, 'count_hit')], 'misses': [(1, 0, 800, 'count_miss')],
                        'cfg': [(2, 500, 0, 'lookup'), (3, 400, 0, 'lookup')],
                        'mode': [(2, 300, 0, 'lookup'), (3, 300, 0, 'lookup')]},
        # one function does everything on every CPU (no code addresses:
        # not one stretch of code, so not accessed together)
        'one_function': {'hits': [(c, 0, 100, 'count') for c in range(8)],
                         'misses': [(c, 0, 80, 'count') for c in range(8)],
                         'cfg': [(c, 50, 0, 'count') for c in range(8)],
                         'mode': [(c, 30, 0, 'count') for c in range(8)]},
        'one_writer': {'hits': [(0, 0, 1000, 'count')], 'misses': [(0, 0, 800, 'count')],
                       'cfg': [(1, 500, 0, 'lookup'), (2, 400, 0, 'lookup')],
                       'mode': [(1, 300, 0, 'lookup'), (2, 300, 0, 'lookup')]},
    }
    for tag, rows in pats.items():
        p = profile(tag, rows)
        r = json.loads(run('report', '--json', o, 'kstats', '--samples', p, '--base', hex(BASE)).stdout)
        assert r['score_basis'] == 'per-cpu', r['score_basis']
        coll = [f for f in r['findings'] if f['kind'] == 'collision']
        assert coll and {'cfg', 'mode'} <= {m['path'] for m in coll[0]['members']}, (tag, r['findings'])
        ww = sum(f['score'] for f in r['findings'] if f['kind'] == 'write-write' and
                 {m['path'] for m in f['members']} == {'hits', 'misses'})
        d = json.loads(run('suggest', '--json', o, 'kstats', '--samples', p, '--base', hex(BASE),
                           '--keep-together', 'hits,misses', '--max-proposals', '20').stdout)
        assert d['proposals'], (tag, d['note'])
        best = d['proposals'][0]
        ln = lines_of(best, OFF)
        w = {ln['hits'][0], ln['hits'][1], ln['misses'][0], ln['misses'][1]}
        assert not w & {ln['cfg'][0], ln['cfg'][1], ln['mode'][0], ln['mode'][1]}, (tag, ln)
        names = [m['name'] for m in best['layout']['members']]
        assert names.index('misses') == names.index('hits') + 1, (tag, names)
        assert abs(best['score_after'] - ww) < 1e-6, (tag, best['score_after'], ww)
        assert best['score_before'] > best['score_after'], best


def case_kept_why():
    """hits and misses written by two CPUs, nothing else accessed: the
    only sharing is between the kept members; nothing is proposed, and the
    note says the list keeps it and what leaving the list out gives."""
    o = fixture()
    p = profile('kept', {'hits': [(0, 0, 1000, 'count_hit')], 'misses': [(1, 0, 800, 'count_miss')]})
    d = json.loads(run('suggest', '--json', o, 'kstats', '--samples', p, '--base', hex(BASE),
                       '--keep-together', 'hits,misses').stdout)
    assert not d['proposals'], d['proposals'][0]['summary']
    n = d['note']
    assert 'kept adjacent (--keep-together): hits,misses' in n, n
    assert 'leaving out --keep-together lifts it: the best proposal then gives sharing' in n, n
    assert 'the layout is the best this model finds' not in n, n


def case_samples_findings_left():
    """With --samples each proposal's layout is analysed again by the
    classes the samples gave its members, as a classes-only run's: JSON
    findings_after on every proposal, the text summary says "N findings
    left" (the old code printed neither with samples)."""
    o = fixture()
    p = profile('left', {'hits': [(0, 0, 1000, 'count_hit')], 'misses': [(1, 0, 800, 'count_miss')],
                         'cfg': [(2, 500, 0, 'lookup'), (3, 400, 0, 'lookup')],
                         'mode': [(2, 300, 0, 'lookup'), (3, 300, 0, 'lookup')]})
    args = (o, 'kstats', '--samples', p, '--base', hex(BASE), '--max-proposals', '20')
    before = len(json.loads(run('report', '--json', *args[:-2]).stdout)['findings'])
    d = json.loads(run('suggest', '--json', *args).stdout)
    assert d['proposals'], d['note']
    for q in d['proposals']:
        assert isinstance(q.get('findings_after'), int), (q['kind'], sorted(q))
        assert q['findings_after'] < before or q['score_after'] >= q['score_before'], (q['kind'], before, q['findings_after'])
        if q['score_after'] == 0:
            assert q['findings_after'] == 0, (q['kind'], q['findings_after'])
    heads = [ln for ln in run('suggest', *args).stdout.splitlines() if ln.startswith('/* structlint: proposal ')]
    assert heads and all(re.search(r'\d+ findings? left \*/$', h) for h in heads), heads


WIDE_C = r"""
#include <stdint.h>
struct wstats {
	const char *name;
	uint64_t hits;
	uint32_t limit, mode;
	uint64_t misses;
	unsigned ready:1, dirty:1, kind:6;
	uint64_t ctl;
	double cfg[4];
	void (*cb)(void *);
	uint64_t tail[2];
} wstats_inst;
"""
WOFF = {'name': (0, 8), 'hits': (8, 8), 'limit': (16, 4), 'mode': (20, 4), 'misses': (24, 8),
        'cfg': (48, 8), 'cb': (80, 8)}


def case_kept_one_line():
    """The new-user trial's struct (issue 13 item 6): every CPU stores hits
    and misses and loads name, limit, mode, cfg and cb.  Kept together,
    hits and misses (16 bytes) never straddle a line in any proposal (the
    search used to put hits at 120 and misses at 128 to price their own
    write-write pair away, leaving cfg on hits's line), and the best
    proposal has no reader on the writers' line."""
    src = os.path.join(tmp(), 'wstats.c')
    with open(src, 'w') as f:
        f.write(WIDE_C)
    o = src[:-2] + '.o'
    subprocess.run([CC, '-g', '-c', '-o', o, src], check=True)
    rows = [(m, 0, st, 'count_' + m, c) for c in range(8)
            for m, st in (('hits', 100), ('misses', 80))]
    rows += [(m, 60, 0, 'lookup', c) for c in range(8)
             for m in ('name', 'limit', 'mode', 'cfg', 'cb')]
    samples = [{'addr': hex(BASE + WOFF[m][0]), 'cpu': c, 'loads': ld, 'stores': st,
                'symbol': sym, 'size': WOFF[m][1]} for m, ld, st, sym, c in rows]
    p = os.path.join(tmp(), 'wide.json')
    with open(p, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'samples': samples}, f)
    d = json.loads(run('suggest', '--json', o, 'wstats', '--samples', p, '--base', hex(BASE),
                       '--keep-together', 'hits,misses', '--max-proposals', '20').stdout)
    assert d['proposals'], d['note']
    for q in d['proposals']:
        ln = lines_of(q, ('hits', 'misses'))
        assert ln['hits'][0] == ln['misses'][1], (q['summary'], ln)
    ln = lines_of(d['proposals'][0], ('name', 'hits', 'misses', 'limit', 'mode', 'cfg', 'cb'))
    w = set(ln['hits'])
    assert not any(set(ln[m]) & w for m in ('name', 'limit', 'mode', 'cfg', 'cb')), ln


KK_C = r"""
struct kk { int x; int a; int b; int y; long r1; long r2; long c[12]; int z; int w; } kk_inst;
"""


def case_kept_every_base():
    """--keep-together with --base-align below the line (issue 13): a kept
    group that fits in the starts' spacing (a and b, two ints: 8 bytes,
    --base-align 8 or 16) is on one line at every start the instance may
    have, in every proposal (the rule used to be skipped there: a regroup
    put a at 124 and b at 128, split at base 0); a group larger than the
    spacing is left to the search (no offset keeps it whole)."""
    src = os.path.join(tmp(), 'kk.c')
    with open(src, 'w') as f:
        f.write(KK_C)
    o = src[:-2] + '.o'
    subprocess.run([CC, '-g', '-c', '-o', o, src], check=True)
    cls = os.path.join(tmp(), 'kk.classes')
    with open(cls, 'w') as f:
        f.write('kk.a hot-write\nkk.b hot-write\nkk.x read-mostly\nkk.r1 read-mostly\n'
                'kk.z read-mostly\nkk.w hot-write\n')
    for ba in (8, 16):
        d = json.loads(run('suggest', '--json', o, 'kk', '--classes', cls, '--keep-together', 'a,b',
                           '--base-align', str(ba), '--max-proposals', '20').stdout)
        assert d['proposals'], d['note']
        for q in d['proposals']:
            m = {x['name']: x['offset'] for x in q['layout']['members'] if x['depth'] == 0}
            split = [s for s in range(0, 64, ba) if (m['a'] + s) // 64 != (m['b'] + 3 + s) // 64]
            assert not split, (ba, q['kind'], m['a'], m['b'], split)
    # larger than the spacing: still proposals
    d = json.loads(run('suggest', '--json', o, 'kk', '--classes', cls, '--keep-together', 'a,b,y',
                       '--base-align', '8', '--max-proposals', '20').stdout)
    assert d['proposals'], d['note']


def case_kept_first():
    """--keep-together naming the first member (pinned at offset 0 unless
    --move-first): refused with the pin's own words and the option that
    lifts it (it used to say 'anchored ... drop the pin', naming no pin
    the user gave); accepted with --move-first, the list adjacent."""
    o = fixture()
    cls = os.path.join(tmp(), 'kstats.classes')
    with open(cls, 'w') as f:
        f.write('kstats.hits hot-write\nkstats.misses hot-write\n'
                'kstats.cfg read-mostly\nkstats.mode read-mostly\n')
    p = run('suggest', o, 'kstats', '--classes', cls, '--keep-together', 'cfg,mode', rc=2)
    e = p.stderr.strip()
    assert len(e.splitlines()) == 1, e
    assert 'cfg is the first member' in e and 'add --move-first' in e, e
    assert 'drop the pin' not in e, e
    d = json.loads(run('suggest', '--json', o, 'kstats', '--classes', cls, '--keep-together',
                       'cfg,mode', '--move-first', '--max-proposals', '20').stdout)
    assert d['proposals'], d['note']
    for q in d['proposals']:
        names = [m['name'] for m in q['layout']['members'] if m['depth'] == 0]
        assert names.index('mode') == names.index('cfg') + 1, (q['kind'], names)
    # a --pin of the first member is the user's pin, named as such
    p = run('suggest', o, 'kstats', '--classes', cls, '--keep-together', 'cfg,mode',
            '--pin', 'cfg', '--move-first', rc=2)
    assert 'drop the pin' in p.stderr and 'first member' not in p.stderr, p.stderr


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
