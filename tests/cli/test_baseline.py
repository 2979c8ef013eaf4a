#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End-to-end tests of `structlint baseline` and `structlint check
--baseline`: fixtures/baseline/kinds.c compiled twice by gcc -g (before,
and with -DAFTER), one struct per kind of change; for each kind a baseline
of that struct alone is recorded from the before object and checked against
the after object: the exact violations (rule, severity, member) and the exit
status (1 when an error is among them, else 0).  Round trip, determinism,
suppressions (a --suppress file and the baseline's own), the seed miniatures
of the real cases (fixtures/report/seed.c: a 6.12 baseline against 6.1),
and input errors (exit 2, one stderr line naming the file and line).

    test_baseline.py --list          case names
    test_baseline.py CASE            run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC (compiler).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SL = os.environ.get('STRUCTLINT', os.path.join(ROOT, 'build', 'structlint'))
CC = os.environ.get('CC_GCC', 'gcc')
FX = os.path.join(ROOT, 'fixtures', 'baseline')
KINDS_CLASSES = os.path.join(FX, 'kinds.classes')
CLASSES = os.path.join(ROOT, 'fixtures', 'classes')
TMP = tempfile.mkdtemp(prefix='slt-baseline-')


def obj(name, src, *defs):
    out = os.path.join(TMP, name)
    if not os.path.exists(out):
        subprocess.run([CC, '-g', '-c', '-o', out] + list(defs) + [src], check=True)
    return out


def before():
    return obj('before.o', os.path.join(FX, 'kinds.c'))


def after():
    return obj('after.o', os.path.join(FX, 'kinds.c'), '-DAFTER')


def run(*args, rc=0):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    if rc == 2:
        errs = [l for l in p.stderr.strip().split('\n') if not l.startswith('structlint: warning: ')]
        assert p.stdout == '' and len(errs) == 1, (p.stdout, p.stderr)
    return p


def record(o, *structs, extra=()):
    path = os.path.join(TMP, 'b-%s.json' % '-'.join(structs))
    p = run('baseline', o, *structs, '--classes', KINDS_CLASSES, *extra)
    with open(path, 'w') as f:
        f.write(p.stdout)
    return path


def check(o, b, *extra, rc):
    d = json.loads(run('check', '--json', o, '--baseline', b, *extra, rc=rc).stdout)
    assert d['schema'] == 'structlint.check/v1', d
    return d


def triples(d):
    return [(v['rule'], v['severity'], v.get('member')) for v in d['violations']]


# kind struct -> (exit status, exact violations in order)
KINDS = {
    's_same': (0, []),
    's_grow_lines': (1, [('baseline-lines-grew', 'error', None),
                         ('baseline-member-added', 'note', 'b')]),
    's_grow_size': (0, [('baseline-size-grew', 'warning', None),
                        ('baseline-hole-new', 'warning', 'b'),
                        ('baseline-member-added', 'note', 'c')]),
    's_hole': (0, [('baseline-size-grew', 'warning', None),
                   ('baseline-hole-new', 'warning', 'a'),
                   ('baseline-member-moved', 'note', 'b')]),
    's_moved_line': (0, [('baseline-member-moved-line', 'warning', 'rm'),
                         ('baseline-member-moved-line', 'note', 'c'),
                         ('baseline-member-moved', 'note', 'pad')]),
    's_moved': (0, [('baseline-member-moved', 'note', 'a'),
                    ('baseline-member-moved', 'note', 'b')]),
    's_share': (1, [('baseline-member-moved-line', 'note', 'pad'),
                    ('baseline-member-moved-line', 'warning', 'hw'),
                    ('baseline-hot-shares-read-mostly', 'error', 'hw')]),
    's_hot_moved': (0, [('baseline-member-moved-line', 'warning', 'hw'),
                        ('baseline-member-moved', 'note', 'a'),
                        ('baseline-member-moved', 'note', 'pad')]),
    's_hot_grow': (1, [('baseline-lines-grew', 'error', None),
                       ('baseline-member-type-changed', 'note', 'pad'),
                       ('baseline-member-moved-line', 'warning', 'hw')]),
    's_removed': (0, [('baseline-member-removed', 'note', 'gone'),
                      ('baseline-member-removed', 'warning', 'rmg')]),
    's_renamed': (0, [('baseline-member-renamed', 'note', 'new_name')]),
    's_added': (1, [('baseline-size-grew', 'warning', None),
                    ('baseline-member-moved', 'note', 'x'),
                    ('baseline-member-added', 'error', 'newm')]),
    's_added_note': (0, [('baseline-size-grew', 'warning', None),
                         ('baseline-member-added', 'note', 'b')]),
    's_type': (0, [('baseline-member-type-changed', 'note', 'p')]),
    's_missing': (1, [('baseline-struct-missing', 'error', None)]),
}


# structs kinds.classes gives no class: checked without classes, with a
# warning that says so (baseline-no-classes)
CLASSED = {'s_moved_line', 's_share', 's_hot_moved', 's_hot_grow', 's_removed', 's_added', 's_type'}
NOCLS = ('baseline-no-classes', 'warning', None)


def want_of(name):
    want_rc, want = KINDS[name]
    # (a struct the after build lacks is only missing)
    return want_rc, ([] if name in CLASSED or name == 's_missing' else [NOCLS]) + want


def kind_case(name):
    def t():
        want_rc, want = want_of(name)
        b = record(before(), name)
        d = check(after(), b, rc=want_rc)
        assert triples(d) == want, (name, triples(d), want)
        assert d['failed'] == (want_rc == 1), d
        for v in d['violations']:
            assert v['struct'] == name and v['source'] == b, v
            assert v['decl_file'].endswith('kinds.c') and v['decl_line'] > 0, v
        # and the same baseline against the before build: nothing (but
        # the warning that no class is known)
        d = check(before(), b, rc=0)
        assert triples(d) == ([] if name in CLASSED else [NOCLS]), d['violations']
        if name not in CLASSED:
            assert d['violations'][0]['message'] == (
                'baseline has no member classes for %s: only size, holes, moves and missing '
                'members are checked; record it with --classes' % name), d['violations']
    return t


def t_record():
    o = before()
    p = run('baseline', o, 's_moved_line', 's_share', '--classes', KINDS_CLASSES)
    d = json.loads(p.stdout)
    assert d['schema'] == 'structlint.baseline/v1', d
    # FILE and the classes file by their base names: the same baseline
    # from another directory (or machine)
    assert d['cacheline_size'] == 64 and d['input'] == 'before.o', d
    assert d['classes_source'] == 'kinds.classes' and d['suppressions'] == [], d
    moved = os.path.join(TMP, 'elsewhere')
    os.makedirs(moved, exist_ok=True)
    with open(o, 'rb') as f, open(os.path.join(moved, 'before.o'), 'wb') as g:
        g.write(f.read())
    assert run('baseline', os.path.join(moved, 'before.o'), 's_moved_line', 's_share',
               '--classes', KINDS_CLASSES).stdout == p.stdout
    assert [s['name'] for s in d['structs']] == ['s_moved_line', 's_share'], d
    s = d['structs'][0]
    assert (s['size'], s['alignment'], s['cachelines']) == (136, 8, 3), s
    assert s['decl_file'].endswith('kinds.c') and s['decl_line'] > 0, s
    got = [(m['path'], m['offset'], m['size'], m['cacheline'], m.get('last_cacheline'), m['class'])
           for m in s['members']]
    assert got == [('rm', 0, 8, 0, None, 'read-mostly'), ('c', 8, 8, 0, None, 'cold'),
                   ('pad', 16, 112, 0, 1, 'none'), ('hw', 128, 8, 2, None, 'hot-write')], got
    assert s['members'][2]['type'] == 'char[112]', s
    # deterministic: the same input gives the same bytes
    assert run('baseline', o, 's_moved_line', 's_share', '--classes', KINDS_CLASSES).stdout == p.stdout
    # the cacheline size is recorded and used
    d = json.loads(run('baseline', o, 's_moved_line', '--cacheline', '128').stdout)
    assert d['cacheline_size'] == 128 and d['structs'][0]['cachelines'] == 2, d
    assert all(m['class'] == 'none' for m in d['structs'][0]['members']), d


def bitfields():
    src = os.path.join(TMP, 'bf.c')
    with open(src, 'w') as f:
        f.write('struct bf { unsigned a:3, b:5; int c; } v;\n')
    return obj('bf.o', src)


def t_bitfields():
    d = json.loads(run('baseline', bitfields(), 'bf').stdout)
    m = [(x['path'], x.get('bit_offset'), x.get('bit_size'), 'bitfield' in x['flags'])
         for x in d['structs'][0]['members']]
    assert m == [('a', 0, 3, True), ('b', 3, 5, True), ('c', None, None, False)], m
    b = os.path.join(TMP, 'bf.json')
    with open(b, 'w') as f:
        f.write(json.dumps(d))
    assert triples(check(bitfields(), b, rc=0)) == [NOCLS]


def t_round_trip():
    names = list(KINDS)
    b = record(before(), *names)
    d = check(before(), b, rc=0)
    assert triples(d) == [NOCLS for n in names if n not in CLASSED], d
    assert d['structs_checked'] == len(names), d
    d = check(after(), b, rc=1)
    want = [(n,) + t for n in names for t in want_of(n)[1]]
    got = [(v['struct'], v['rule'], v['severity'], v.get('member')) for v in d['violations']]
    assert got == want, (got, want)
    assert d['errors'] == 5, d


def t_suppress_file():
    b = record(before(), 's_share')
    sup = os.path.join(TMP, 'sup.json')
    with open(sup, 'w') as f:
        json.dump({'schema': 'structlint.suppressions/v1', 'suppressions': [
            {'rule': 'baseline-*', 'struct': 's_share', 'member': 'hw',
             'reason': 'hw is written by the reader CPU only'}]}, f)
    d = check(after(), b, '--suppress', sup, rc=0)
    sup_ = [(v['rule'], v['suppressed'], v.get('suppress_reason')) for v in d['violations']]
    assert sup_ == [('baseline-member-moved-line', False, None),
                    ('baseline-member-moved-line', True, 'hw is written by the reader CPU only'),
                    ('baseline-hot-shares-read-mostly', True, 'hw is written by the reader CPU only')], sup_
    assert d['suppressed'] == 2 and not d['failed'], d
    # the same suppressions recorded into the baseline itself
    b2 = os.path.join(TMP, 'b-sup.json')
    p = run('baseline', before(), 's_share', '--classes', KINDS_CLASSES, '--suppress', sup)
    assert json.loads(p.stdout)['suppressions'] == [
        {'rule': 'baseline-*', 'struct': 's_share', 'member': 'hw',
         'reason': 'hw is written by the reader CPU only'}], p.stdout
    with open(b2, 'w') as f:
        f.write(p.stdout)
    d = check(after(), b2, rc=0)
    assert d['suppressed'] == 2, d
    # a suppression for another member suppresses nothing
    with open(sup, 'w') as f:
        json.dump({'schema': 'structlint.suppressions/v1', 'suppressions': [
            {'rule': 'baseline-*', 'struct': 's_share', 'member': 'rm', 'reason': 'x'}]}, f)
    assert check(after(), b, '--suppress', sup, rc=1)['suppressed'] == 0


SHARE_RE = re.compile(r'cacheline (\d+) now holds written (.*) and read-mostly (.*); '
                      r'not shared in the baseline: (.*)$')


def shares_of(d):
    """baseline-hot-shares-read-mostly violations as (struct, member,
    line, written members, read-mostly members), one per cacheline."""
    out = []
    for v in d['violations']:
        if v['rule'] != 'baseline-hot-shares-read-mostly':
            continue
        m = SHARE_RE.match(v['message'])
        assert m, v['message']
        names = [re.findall(r'(?:^|, )(\S+) \(', m.group(k)) for k in (2, 3)]
        out.append((v['struct'], v['member'], int(m.group(1)), names[0], names[1]))
    return out


def t_seed_cases():
    """The real cases as miniatures: a 6.12 baseline fails against 6.1
    with the sharings the kernel's fixes removed."""
    seed = os.path.join(ROOT, 'fixtures', 'report', 'seed.c')
    o61, o612 = obj('seed61.o', seed), obj('seed612.o', seed, '-DV612')
    p = run('baseline', o612, 'cgroup', 'mem_cgroup_per_node',
            '--classes', os.path.join(CLASSES, 'cgroup.classes'),
            '--classes', os.path.join(CLASSES, 'mem_cgroup_per_node.classes'))
    b = os.path.join(TMP, 'seed.json')
    with open(b, 'w') as f:
        f.write(p.stdout)
    assert check(o612, b, rc=0)['violations'] == []
    d = check(o61, b, '--classes', os.path.join(CLASSES, 'mem_cgroup_per_node-6.1.classes'), rc=1)
    # one violation per cacheline, naming every written and read-mostly
    # member on it
    assert shares_of(d) == [
        ('cgroup', 'last_bstat', 14, ['last_bstat'], ['rstat_cpu', 'rstat_css_list']),
        ('mem_cgroup_per_node', 'lruvec', 24, ['lruvec'], ['lruvec_stats_percpu']),
        ('mem_cgroup_per_node', 'iter', 39, ['iter'], ['shrinker_info', 'memcg'])], shares_of(d)
    # a member that moved is a warning: the sharings above (and growth) are
    # the errors; the message says whether the member takes part in one
    moved = {(v['struct'], v['member']): v for v in d['violations']
             if v['rule'] == 'baseline-member-moved-line'}
    assert all(v['severity'] == ('note' if v['message'].startswith('unclassified') else 'warning')
               for v in moved.values()), moved
    assert moved[('cgroup', 'bstat')]['message'].endswith('; no new sharing with it'), moved
    assert moved[('cgroup', 'last_bstat')]['message'].endswith(
        '; it takes part in a new sharing (baseline-hot-shares-read-mostly)'), moved
    errs = {v['rule'] for v in d['violations'] if v['severity'] == 'error'}
    assert errs <= {'baseline-hot-shares-read-mostly', 'baseline-lines-grew',
                    'baseline-member-added', 'baseline-struct-missing'}, errs


def t_kernel_groups():
    """A baseline recorded without --classes from a struct with kernel
    cacheline groups: members get the class the group name implies, so a
    later build that puts the written group on the read-mostly group's
    line fails (the 6.12 tcp_sock against 6.1, in miniature)."""
    kg = os.path.join(ROOT, 'fixtures', 'gate', 'kgroups.c')
    inc = '-I' + os.path.join(ROOT, 'tests', 'cli')
    o0, o1 = obj('kg0.o', kg, inc), obj('kg1.o', kg, inc, '-DCHANGE=1')
    p = run('baseline', o0, 'sock_like')
    b = os.path.join(TMP, 'kg.json')
    with open(b, 'w') as f:
        f.write(p.stdout)
    cls = {m['path']: m['class'] for m in json.loads(p.stdout)['structs'][0]['members']}
    assert (cls['cold_head'], cls['mss_cache'], cls['ops'], cls['bytes_acked'], cls['snd_cwnd']) == \
        ('none', 'read-mostly', 'read-mostly', 'hot-write', 'hot-write'), cls
    assert cls['__cacheline_group_begin__sock_read_tx'] == 'none', cls
    d = check(o0, b, rc=0)
    assert [v for v in d['violations'] if v['severity'] != 'note'] == [], d['violations']
    d = check(o1, b, rc=1)
    assert shares_of(d) == [('sock_like', 'bytes_acked', 1, ['bytes_acked', 'snd_cwnd'],
                             ['mss_cache', 'window_clamp', 'ops'])], shares_of(d)


def t_errors():
    o = before()
    p = run('baseline', o, rc=2)
    assert 'name at least one struct' in p.stderr, p.stderr
    p = run('baseline', o, 's_same', 'no_such_struct', rc=2)
    assert 'no_such_struct' in p.stderr, p.stderr
    # --classes files are merged: the same file twice agrees with itself
    p = run('baseline', o, 's_share', '--classes', KINDS_CLASSES, '--classes', KINDS_CLASSES)
    assert json.loads(p.stdout)['structs'] == json.loads(
        run('baseline', o, 's_share', '--classes', KINDS_CLASSES).stdout)['structs']
    # a file naming none of the structs recorded is a warning
    p = run('baseline', o, 's_same', '--classes', KINDS_CLASSES)
    assert p.stderr == 'structlint: warning: %s: classes for s_moved_line, none for the structs ' \
        'recorded\n' % KINDS_CLASSES, p.stderr
    # a member two files class differently: exit 2 naming both FILE:LINE
    other = os.path.join(TMP, 'other.classes')
    with open(other, 'w') as f:
        f.write('# other\ns_share.hw read-mostly\n')
    p = run('baseline', o, 's_share', '--classes', KINDS_CLASSES, '--classes', other, rc=2)
    assert p.stderr == ('structlint: %s:2: s_share.hw is read-mostly here but hot-write at %s:6 '
                        '(give each member one class across the --classes files)\n'
                        % (other, KINDS_CLASSES)), p.stderr
    # a FILE operand that looks like a path but is not there (not a struct)
    p = run('baseline', os.path.join(TMP, 'nosuch.o'), 's_same', rc=2)
    assert p.stderr == 'structlint: %s: no such file (build it first, or check the path)\n' % \
        os.path.join(TMP, 'nosuch.o'), p.stderr
    p = run('baseline', 'conn.o', 's_same', rc=2)
    assert p.stderr.startswith('structlint: conn.o: no such file'), p.stderr
    p = run('baseline', o, 's_same', '--cacheline', '48', rc=2)
    p = run('baseline', o, 's_same', '--suppress', '/nonexistent.json', rc=2)
    assert '/nonexistent.json' in p.stderr, p.stderr
    bad = os.path.join(TMP, 'bad.json')
    good = json.loads(run('baseline', o, 's_same').stdout)
    cases = [
        ('{"schema": "structlint.baseline/v1",\n "cacheline_size": 64,\n "structs": [}',
         'bad.json:3:', 'not valid JSON'),
        (json.dumps(dict(good, schema='structlint.baseline/v2')), 'bad.json:1:', 'not supported'),
        (json.dumps(dict(good, structs=[dict(good['structs'][0], size=2)]), indent=1),
         'bad.json:', 'is over 2'),
    ]
    for text, where, what in cases:
        with open(bad, 'w') as f:
            f.write(text)
        p = run('check', o, '--baseline', bad, rc=2)
        assert where in p.stderr and what in p.stderr, (text[:80], p.stderr)
    p = run('check', o, '--baseline', '/nonexistent/b.json', rc=2)
    assert '/nonexistent/b.json' in p.stderr, p.stderr


def t_hints():
    """Errors and warnings of baselines say what to do: a struct recorded
    twice, JSON positions as FILE:LINE:COLUMN, an empty file, plurals."""
    o = before()
    p = run('baseline', o, 's_share', 's_same', 's_share', rc=2)
    assert p.stderr.startswith('structlint: baseline: s_share is named twice'), p.stderr
    assert p.stderr.endswith('(see structlint baseline --help)\n'), p.stderr
    # the helps: baseline needs no classes (kernel group classes are
    # recorded); check's sections exist and STRUCT works with --baseline
    h = run('baseline', '--help').stdout
    assert 'member classes (optional' in h and 'at least one' not in h and \
        'kernel cacheline group' in h and 'every class is' not in h, h
    h = run('check', '--help').stdout
    assert '[FILE] [STRUCT...] --baseline BASELINE.json' in h and 'CHECKS' not in h and \
        'BASELINE' in h, h
    with open(os.path.join(ROOT, 'man', 'structlint.1')) as f:
        man = f.read()
    for sec in re.search(r'See structlint\(1\), (.*?)\n\(', h, re.S).group(1).replace('\n', ' ') \
            .split(', '):
        assert re.search(r'^\.S[HS] %s$' % re.escape(sec.strip()), man, re.M), sec
    d = json.loads(run('baseline', o, 's_share').stdout)
    d['structs'].append(d['structs'][0])
    twice = os.path.join(TMP, 'twice.json')
    with open(twice, 'w') as f:
        json.dump(d, f, indent=1)
    p = run('check', o, '--baseline', twice, rc=2)
    assert p.stderr.startswith('structlint: %s:' % twice) and \
        'structs[1] repeats structs[0]: struct s_share, 72 bytes, is recorded twice' in p.stderr, p.stderr
    assert len(p.stderr.split(':')[1:3]) == 2 and p.stderr.split(':')[2].isdigit(), p.stderr
    empty = os.path.join(TMP, 'empty.json')
    open(empty, 'w').close()
    p = run('check', o, '--baseline', empty, rc=2)
    assert p.stderr == ('structlint: %s: the file is empty: want a baseline (it must be the JSON '
                        'that `structlint baseline` writes)\n' % empty), p.stderr
    # 1-byte members: "1 byte"
    src = os.path.join(TMP, 'onebyte.c')
    with open(src, 'w') as f:
        f.write('struct ob { long a;\n#ifdef AFTER\nchar c;\n#endif\n};\nstruct ob v;\n')
    b = os.path.join(TMP, 'ob.json')
    with open(b, 'w') as f:
        f.write(run('baseline', obj('ob0.o', src), 'ob').stdout)
    d = check(obj('ob1.o', src, '-DAFTER'), b, rc=0)
    msgs = [v['message'] for v in d['violations']]
    assert 'new unclassified member c (char, offset 8, 1 byte, cacheline 0)' in msgs, msgs


CASES = {'kind-' + k: kind_case(k) for k in KINDS}
CASES.update({
    'record': t_record,
    'bitfields': t_bitfields,
    'round_trip': t_round_trip,
    'suppress': t_suppress_file,
    'seed_cases': t_seed_cases,
    'errors': t_errors,
    'kernel_groups': t_kernel_groups,
    'hints': t_hints,
})

if __name__ == '__main__':
    import clicases
    clicases.main(CASES)
