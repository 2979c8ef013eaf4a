#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""report, check, baseline and suggest say the same of one input (issue 11,
new-user trial on landed main): a subscripted member path ('slot[3]') is
the element's offset, and findings are the same with and without -E (an
array of structs' leaves are its elements'); one CPU doing everything fails no gate; check without
--rules gates report's findings; suggest says a truly shared member keeps
bouncing; check says what a violation counts; a perf c2c row whose counts
contradict each other is warned about.

    test_findings_agree.py --list          case names
    test_findings_agree.py CASE            run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC (compiler).
"""
import json
import os

import clicases
from test_measured import ROOT, obj, write, run, hot_obj

ST = 'struct st { long cnt; long cfg; long mode; long pad[5]; long tail; } st;\n'
ST_APART = 'struct st { long cfg; long mode; long pad[6]; long cnt; long tail; } st;\n'


def prof(struct, entries):
    return {'schema': 'structlint.profile/v1', 'structs': [{'type': struct, 'members': entries}]}


def st_profile(name, writers, readers):
    """cnt stored by the CPUs writers, cfg and mode loaded by readers."""
    return write(name, prof('struct st', [
        {'member': 'cnt', 'rows': [{'cpu': c, 'stores': 1000} for c in writers]},
        {'member': 'cfg', 'rows': [{'cpu': c, 'loads': 1000} for c in readers]},
        {'member': 'mode', 'rows': [{'cpu': c, 'loads': 1000} for c in readers]}]))


def case_index_path_is_element():
    # 'slot[c]' is slot at offset 8c: element sharing either way, in
    # report, suggest and check
    o = obj('slots', 'struct slots { long slot[8]; long tail; } slots;\n')
    idx = write('slots_idx.json', prof('struct slots', [
        {'member': 'slot[%d]' % c, 'rows': [{'cpu': c, 'stores': 100}]} for c in range(8)]))
    off = write('slots_off.json', prof('struct slots', [
        {'member': 'slot', 'offset': 8 * c, 'rows': [{'cpu': c, 'stores': 100}]}
        for c in range(8)]))
    want = 'finding 1: element-sharing, line 0 (bytes 0..63), score 5600'
    for f in (idx, off):
        p = run('report', o, 'slots', '--samples', f)
        assert want in p.stdout and 'true-sharing' not in p.stdout, (f, p.stdout)
    d = [json.loads(run('report', o, 'slots', '--samples', f, '--json').stdout)['findings']
         for f in (idx, off)]
    assert d[0] == d[1], d
    p = run('check', o, 'slots', '--samples', idx, rc=1)
    assert '[finding-element-sharing]' in p.stdout, p.stdout
    # every CPU on slot[0]: true sharing, as with offset 0
    same = write('slots_same.json', prof('struct slots', [
        {'member': 'slot[0]', 'rows': [{'cpu': c, 'stores': 100} for c in range(8)]}]))
    p = run('report', o, 'slots', '--samples', same)
    assert 'finding 1: true-sharing' in p.stdout and 'element-sharing' not in p.stdout, p.stdout
    # a subscript out of range names no member: did-you-mean, not slot
    bad = write('slots_bad.json', prof('struct slots', [
        {'member': 'slot[8]', 'rows': [{'cpu': 0, 'stores': 100}]},
        {'member': 'tail', 'rows': [{'cpu': 1, 'stores': 100}]}]))
    p = run('report', o, 'slots', '--samples', bad)
    assert "has no member 'slot[8]' (did you mean slot?)" in p.stderr, p.stderr


def case_index_path_nested():
    # 'e[c].b' of an array of structs is e at offset 16c + 8, as the
    # offset form (read inline, as a path inside a nested struct is)
    o = obj('arr', 'struct pair { long a; long b; };\n'
            'struct arr { struct pair e[4]; long tail; } arr;\n')
    idx = write('arr_idx.json', prof('struct arr', [
        {'member': 'e[%d].b' % c, 'rows': [{'cpu': c, 'stores': 100}]} for c in range(4)]))
    off = write('arr_off.json', prof('struct arr', [
        {'member': 'e', 'offset': 16 * c + 8, 'rows': [{'cpu': c, 'stores': 100}]}
        for c in range(4)]))
    a = run('report', '-E', o, 'arr', '--samples', idx, '--json').stdout
    b = run('report', '-E', o, 'arr', '--samples', off, '--json').stdout
    fa, fb = json.loads(a)['findings'], json.loads(b)['findings']
    assert fa == fb, (fa, fb)
    p = run('report', o, 'arr', '--samples', idx)
    assert 'has no member' not in p.stderr and ' 400 on members' in p.stdout, (p.stdout, p.stderr)


def findings_both(o, struct, profile):
    """report --json findings of struct with profile, without and with -E
    (equal, or the assertion says how they differ)."""
    f = [json.loads(run('report', *e, o, struct, '--samples', profile, '--json').stdout)['findings']
         for e in ([], ['-E'])]
    for fd in f[0] + f[1]:
        for m in fd['members']:
            del m['index']    # the layout's member index: -E adds the leaves
    assert f[0] == f[1], (struct, profile, f)
    return f[0]


def kinds(findings):
    return [(f['kind'], f['score']) for f in findings]


def case_expand_same_findings():
    # -E shows nested structs and arrays of structs leaf by leaf; the
    # findings and scores stay those of the folded layout.  An array of
    # structs (CPU c stores e[c].b, offset and index forms): the leaves
    # of one element are that element's, so element sharing, as for a
    # per-CPU slot array of scalars
    o = obj('arr', 'struct pair { long a; long b; };\n'
            'struct arr { struct pair e[4]; long tail; } arr;\n')
    off = write('arr_off.json', prof('struct arr', [
        {'member': 'e', 'offset': 16 * c + 8, 'rows': [{'cpu': c, 'stores': 100}]}
        for c in range(4)]))
    idx = write('arr_idx.json', prof('struct arr', [
        {'member': 'e[%d].b' % c, 'rows': [{'cpu': c, 'stores': 100}]} for c in range(4)]))
    want = [('element-sharing', 1200)]
    assert kinds(findings_both(o, 'arr', off)) == want
    assert kinds(findings_both(o, 'arr', idx)) == want
    # every CPU on e[1] (a and b): true sharing of e, not one per leaf
    same = write('arr_same.json', prof('struct arr', [
        {'member': 'e[1].%s' % m, 'rows': [{'cpu': c, 'stores': 100} for c in range(4)]}
        for m in 'ab']))
    assert [k for k, _ in kinds(findings_both(o, 'arr', same))] == ['true-sharing']
    # a per-CPU slot array of scalars
    o = obj('slots', 'struct slots { long slot[8]; long tail; } slots;\n')
    sl = write('slots_e.json', prof('struct slots', [
        {'member': 'slot', 'offset': 8 * c, 'rows': [{'cpu': c, 'stores': 100}]}
        for c in range(8)]))
    assert kinds(findings_both(o, 'slots', sl)) == [('element-sharing', 5600)]
    # a union and a nested struct beside a member other CPUs read
    o = obj('nest', 'struct in { long x; long y; };\n'
            'struct nest { union { long l; int i[2]; } u; struct in n; long r; } nest;\n')
    for m, at in (('u', 0), ('n', 8), ('n', 16)):
        pr = write('nest_%s%d.json' % (m, at), prof('struct nest', [
            {'member': m, 'offset': at, 'rows': [{'cpu': c, 'stores': 100} for c in range(2)]},
            {'member': 'r', 'rows': [{'cpu': c, 'loads': 100} for c in range(2, 4)]}]))
        f = findings_both(o, 'nest', pr)
        assert 'collision' in [k for k, _ in kinds(f)], (m, at, f)


def case_one_cpu_gates_pass():
    # one CPU stores cnt and loads cfg, mode: report finds nothing, and
    # the class rules (no-hot-write-near, separate class:) and the
    # baseline's new sharing become notes saying why; several CPUs: errors
    o, apart = obj('st', ST), obj('st_apart', ST_APART)
    one = st_profile('st_one.json', [0], [0])
    many = st_profile('st_many.json', [0], [1, 2, 3])
    near = write('st_near.rules', '[struct st]\nno-hot-write-near = cfg\n')
    sep = write('st_sep.rules', '[struct st]\nseparate = class:hot-write class:read-mostly\n')
    base = os.path.join(os.path.dirname(apart), 'st_base.json')
    with open(base, 'w') as f:
        f.write(run('baseline', apart, 'st', '--samples', one).stdout)
    assert '0 findings' in run('report', o, 'st', '--samples', one).stdout
    for args, rule in ((['--rules', near], 'no-hot-write-near'),
                       (['--rules', sep], 'separate'),
                       (['--baseline', base], 'baseline-hot-shares-read-mostly')):
        p = run('check', o, *args, '--samples', one)
        line = [x for x in p.stdout.split('\n') if x.endswith('[%s]' % rule)]
        assert len(line) == 1 and ': note: ' in line[0], p.stdout
        assert 'a class rule only: in the profile only CPU 0 accesses cacheline 0' in line[0], line
        p = run('check', o, *args, '--samples', many, rc=1)
        line = [x for x in p.stdout.split('\n') if x.endswith('[%s]' % rule)]
        assert len(line) == 1 and ': error: ' in line[0], p.stdout
        assert 'class rule' not in line[0], line
    # classes alone: an error that says it is a class rule
    cls = write('st.classes', '[st]\ncnt = hot-write\ncfg = read-mostly\nmode = read-mostly\n')
    p = run('check', o, '--rules', near, '--classes', cls, rc=1)
    assert 'a class rule (layout hygiene from the members\' classes), not a measured sharing ' \
        'finding [no-hot-write-near]' in p.stdout, p.stdout


def case_baseline_measured_classes():
    # a baseline recorded with --samples holds measured classes: check
    # --baseline without --samples does not call its sharing a class rule
    o, apart = obj('st', ST), obj('st_apart', ST_APART)
    many = st_profile('st_many.json', [0], [1, 2, 3])
    base = write('st_base_meas.json', run('baseline', apart, 'st', '--samples', many).stdout)
    assert json.load(open(base))['classes_measured'] is True
    p = run('check', '--baseline', base, o, rc=1)
    line = [x for x in p.stdout.split('\n') if x.endswith('[baseline-hot-shares-read-mostly]')]
    assert len(line) == 1 and ': error: ' in line[0], p.stdout
    assert 'class rule' not in line[0] and line[0].endswith(
        '; the classes were measured for the baseline (st_many.json): give --samples to '
        'measure this layout [baseline-hot-shares-read-mostly]'), line
    # recorded from a classes file: a class rule, as before
    cls = write('st.classes', '[st]\ncnt = hot-write\ncfg = read-mostly\nmode = read-mostly\n')
    given = write('st_base_cls.json', run('baseline', apart, 'st', '--classes', cls).stdout)
    assert 'classes_measured' not in json.load(open(given))
    p = run('check', '--baseline', given, o, rc=1)
    assert 'not a measured sharing finding [baseline-hot-shares-read-mostly]' in p.stdout, p.stdout


def case_check_without_rules():
    # check without --rules gates what report finds (read-mostly/written
    # collision), and passes where report finds nothing
    o = obj('st', ST)
    many = st_profile('st_many.json', [0], [1, 2, 3])
    one = st_profile('st_one.json', [0], [0])
    assert 'finding 1: collision, line 0' in run('report', o, 'st', '--samples', many).stdout
    p = run('check', o, 'st', '--samples', many, rc=1)
    assert ('error: struct st: collision on line 0 (bytes 0..63), score 6000: written cnt with '
            'cfg, mode [finding-collision]') in p.stdout, p.stdout
    run('check', o, 'st', '--samples', one)
    cls = write('st.classes', '[st]\ncnt = hot-write\ncfg = read-mostly\nmode = read-mostly\n')
    p = run('check', o, 'st', '--classes', cls, rc=1)
    assert '[finding-collision]' in p.stdout, p.stdout
    p = run('check', o, rc=2)
    assert 'STRUCT operands with --samples or --classes' in p.stderr, p.stderr


def case_check_counts_unit():
    # the output says what one violation is
    o = obj('st', ST)
    many = st_profile('st_many.json', [0], [1, 2, 3])
    p = run('check', o, 'st', '--samples', many, rc=1)
    assert 'how violations count: a sharing rule gives one per cacheline it fails on' \
        in p.stdout, p.stdout
    p = run('check', o, 'st', '--samples', st_profile('st_one.json', [0], [0]))
    assert 'how violations count' not in p.stdout, p.stdout


def case_suggest_true_sharing_remains():
    # every CPU stores cnt and loads cfg, mode: the proposals move cfg and
    # mode away, and say that cnt's own bouncing remains
    o = obj('st', ST)
    both = st_profile('st_all.json', range(4), range(4))
    p = run('suggest', o, 'st', '--samples', both)
    n = p.stdout.count('/* structlint: proposal ')
    assert n >= 1, p.stdout
    assert p.stdout.count('/* true sharing remains: cnt (stored to by 4 CPUs, score 12000 on '
                          'line 0): its own bouncing stays after this or any layout change; '
                          'use per-CPU data or batch the updates */') == n, p.stdout
    p = run('suggest', o, 'st', '--samples', st_profile('st_many.json', [0], [1, 2, 3]))
    assert 'true sharing remains' not in p.stdout, p.stdout


def case_c2c_contradicting_row():
    # records fewer than the row's stores: warned once, with FILE:LINE
    src = os.path.join(ROOT, 'fixtures', 'samples', 'c2c', 'perf6.1-local', 'c2c_stdio.txt')
    text = open(src).read().split('\n')
    n = next(i for i, l in enumerate(text) if '[.] writer' in l and ' 0x8 ' in l)
    fixed = text[n].replace('0         0         0      200', '0         0         0       50')
    assert fixed != text[n]
    text[n] = fixed
    bad = write('c2c_contra.txt', '\n'.join(text))
    p = run('report', hot_obj(), 'hot', '--samples', bad, '--base', '0x404080')
    assert ('structlint: warning: %s:%d: 1 perf c2c Pareto row with counts that contradict each '
            'other (the first on this line: records 50 < stores 200 + HITM and peer loads 0): '
            'assumed loads = the HITM and peer loads, stores as printed' % (bad, n + 1)) \
        in p.stderr, p.stderr
    p = run('report', hot_obj(), 'hot', '--samples', src, '--base', '0x404080')
    assert 'contradict' not in p.stderr, p.stderr


if __name__ == '__main__':
    clicases.main(clicases.of_module(globals()))
