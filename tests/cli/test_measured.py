#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Measured profiles in the gate and the report, as a new user's trial ran
them (issue 11 follow-ups): members inside an anonymous struct are classed
and checked one by one (the nameless level has no class of its own, so
`no-hot-write-near` and `class:` groups see the inner members); `class:`
groups hold named members only; a loads-only profile whose HITM loads show
a written line fails `check --samples` as it fails `report
--fail-on-findings`; `--classes` with `--samples` still reports measured
true sharing; JSON profile rows with only a `data_src` are decoded.

    test_measured.py --list          case names
    test_measured.py CASE            run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC (compiler).
"""
import json
import os
import subprocess
import tempfile

import clicases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SL = os.environ.get('STRUCTLINT', os.path.join(ROOT, 'build', 'structlint'))
CC = os.environ.get('CC_GCC', 'gcc')
TMP = tempfile.mkdtemp(prefix='slt-measured-')


def obj(name, src):
    """name.o compiled (gcc -g -O0 -c) from the C text src."""
    c, o = os.path.join(TMP, name + '.c'), os.path.join(TMP, name + '.o')
    if not os.path.exists(o):
        with open(c, 'w') as f:
            f.write(src)
        subprocess.run([CC, '-g', '-O0', '-c', '-I', os.path.join(ROOT, 'tests', 'cli'),
                        '-o', o, c], check=True)
    return o


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, 'w') as f:
        f.write(text if isinstance(text, str) else json.dumps(text))
    return path


def run(*args, rc=0):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True, cwd=TMP)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    if rc == 2:
        errs = p.stderr.strip().split('\n')
        assert errs[-1].startswith('structlint: '), p.stderr
    return p


def profile(struct, members):
    """A structlint.profile/v1 document: members maps a member path to its
    rows ({cpu, loads, stores, ...})."""
    return {'schema': 'structlint.profile/v1', 'structs': [
        {'type': struct, 'members': [{'member': m, 'rows': r} for m, r in members.items()]}]}


# The members of a struct inside an anonymous struct; CPUs 0..3 each store
# a and load b and c (every CPU writes one member and reads its neighbours).
ANON_C = 'struct w { struct { long a, b, c; }; } w;\n'


def anon_profile():
    return write('w.json', profile('struct w', {
        'a': [{'cpu': c, 'stores': 100} for c in range(4)],
        'b': [{'cpu': c, 'loads': 100} for c in range(4)],
        'c': [{'cpu': c, 'loads': 100} for c in range(4)]}))


def case_anon_hot_write_near():
    o, prof = obj('w', ANON_C), anon_profile()
    rules = write('w.rules', '[struct w]\nno-hot-write-near = b\n')
    p = run('check', o, '--rules', rules, '--samples', prof, rc=1)
    assert ('error: struct w: cacheline 0 of b (offset 8, 8 bytes) holds written a '
            '(true-shared, offset 0, 8 bytes); read-mostly on it: c (offset 16, 8 bytes) '
            '[no-hot-write-near]') in p.stdout, p.stdout
    assert '1 error,' in p.stdout, p.stdout
    # report sees the same: a collision of a with b and c, a's true sharing
    t = run('report', o, 'w', '--samples', prof).stdout
    assert 'finding 1: collision, line 0 (bytes 0..23), score 2400' in t, t
    assert 'finding 2: true-sharing, line 0 (bytes 0..23), score 1200' in t, t
    # the anonymous struct has no class of its own: its line gives the sums
    close = [l for l in t.split('\n') if l.lstrip('\t').startswith('};') and '\t/*' in l]
    assert close == ['\t};                                               /*     0    24 */'
                     '\t/* ld=800 st=400 hitm=0 ncpus=4 ##### */'], close
    d = json.loads(run('report', '--json', o, 'w', '--samples', prof).stdout)
    cls = {m['path']: m['class'] for m in d['members']}
    assert cls == {'': 'none', 'a': 'true-shared', 'b': 'read-mostly', 'c': 'read-mostly'}, cls


def case_class_selector_named():
    o, prof = obj('w', ANON_C), anon_profile()
    rules = write('w2.rules', '[struct w]\ngroup rm = b c\nseparate = rm class:true-shared\n')
    p = run('check', o, '--rules', rules, '--samples', prof, rc=1)
    assert ('groups rm and class:true-shared share cacheline 0: rm: b (offset 8, 8 bytes), '
            'c (offset 16, 8 bytes); class:true-shared: a (offset 0, 8 bytes) [separate]'
            ) in p.stdout, p.stdout
    # an overlap names its members (never an empty name)
    rules = write('w3.rules', '[struct w]\ngroup rm = a b\nseparate = rm class:true-shared\n')
    p = run('check', o, '--rules', rules, '--samples', prof, rc=2)
    assert ("groups 'rm' and 'class:true-shared' overlap: 1 member is in both: a "
            "(separate") in p.stderr, p.stderr


    # a nameless member in an overlap is named by its kind and offset: a
    # kernel marker group holds the anonymous struct itself
    o = obj('kg', '#include "kcompat.h"\nstruct kg {\n\tlong head;\n'
            '\t__cacheline_group_begin(kg_read) ____cacheline_aligned_in_smp;\n'
            '\tstruct { long a; long b; };\n\tlong c;\n\t__cacheline_group_end(kg_read);\n'
            '};\nstruct kg g_kg;\n')
    prof = write('kg.json', profile('struct kg', {
        'a': [{'cpu': c, 'stores': 100} for c in range(4)],
        'b': [{'cpu': c, 'loads': 100} for c in range(4)]}))
    rules = write('kg.rules', '[struct kg]\nseparate = kg_read class:true-shared\n')
    p = run('check', o, '--rules', rules, '--samples', prof, rc=2)
    assert ("groups 'kg_read' and 'class:true-shared' overlap: 2 members are in both: "
            "(anonymous struct at offset 64) with a, a (") in p.stderr, p.stderr


def hot_obj():
    """fixtures/report/c2c_hot.c (the struct of the perf6.1-local c2c
    reports), compiled once."""
    o = os.path.join(TMP, 'hot.o')
    if not os.path.exists(o):
        subprocess.run([CC, '-g', '-c', '-o', o, os.path.join(ROOT, 'fixtures', 'report', 'c2c_hot.c')],
                       check=True)
    return o


def loads_only_c2c():
    """The Debian perf 6.1 c2c report of fixtures/samples/c2c/perf6.1-local
    as a loads-only recording gives it: Store Operations 0, the writer's
    rows gone, the reader's HITM loads of c and d kept."""
    src = os.path.join(ROOT, 'fixtures', 'samples', 'c2c', 'perf6.1-local', 'c2c_stdio.txt')
    out = []
    for line in open(src).read().split('\n')[1:]:
        if line.startswith(('  Store Operations', '  Store L1D Hit', '  Store L1D Miss',
                            '  Store HITs on shared', '  Store L1D hits on shared')):
            line = line.rsplit(':', 1)[0] + ':          0'
        elif line.startswith('  Total records '):
            line = line.replace('800', '400')
        elif line.startswith('      0            0x404080'):
            f = line.split()
            f[6], f[8], f[9], f[10] = '400', '0', '0', '0'   # records, stores, L1Hit, L1Miss
            line = '  '.join(f)
        elif line.startswith('      0       40      293'):
            line = '      0       40      293        0        0        0            0x404080'
        elif '[.] writer' in line:
            continue
        out.append(line)
    return write('c2c_loads.txt', '\n'.join(out))


def case_loads_only_check():
    o = hot_obj()
    c2c = loads_only_c2c()
    rules = write('hot.rules', '[struct hot]\nno-hot-write-near = c\n')
    base = ['--base', '0x404080']
    t = run('report', o, 'hot', '--samples', c2c, '--fail-on-findings', *base, rc=1).stdout
    assert 'finding 1: unseen-writer, line 0 (bytes 0..31), score 333' in t, t
    p = run('check', o, '--rules', rules, '--samples', c2c, *base, rc=1)
    want = ('error: struct hot: the cacheline holding bytes 0..31 is written, writer unknown: '
            'loads of c (offset 16, 8 bytes, 133 HITM), d (offset 24, 8 bytes, 200 HITM) hit a line '
            'modified in another cache (HITM, 333 in all), but the profile holds no store: ')
    assert want in p.stdout and '[unseen-writer]' in p.stdout, p.stdout
    assert 'holds no store' in p.stderr, p.stderr
    d = json.loads(run('check', o, '--rules', rules, '--samples', c2c, *base, '--sarif', rc=1).stdout)
    res = d['runs'][0]['results']
    assert [r['ruleId'] for r in res] == ['unseen-writer'] and res[0]['level'] == 'error', res
    assert 'unseen-writer' in [r['id'] for r in d['runs'][0]['tool']['driver']['rules']], d
    # the classes name the writer: the rules see it (no-hot-write-near
    # fails on a), no unseen writer is left
    cls = write('hot.classes', 'hot.a hot-write\nhot.b hot-write\n')
    p = run('check', o, '--rules', rules, '--samples', c2c, *base, '--classes', cls, rc=1)
    assert '[unseen-writer]' not in p.stdout and '[no-hot-write-near]' in p.stdout, p.stdout


def case_loads_only_suggest():
    # suggest on a loads-only profile (HITM loads, no store): the writer is
    # unknown, as report's unseen-writer finding says; not "true sharing"
    o = hot_obj()
    c2c = loads_only_c2c()
    t = run('suggest', o, 'hot', '--samples', c2c, '--base', '0x404080').stdout
    assert 'no store: line 0 is written' in t and 'unknown writer' in t and \
        'give --classes' in t, t
    assert 'true sharing' not in t, t


def case_loads_only_suggest_classes():
    # a loads-only profile whose classes name the writer: suggest scores
    # with report's model (the HITM loads of the members beside the given
    # hot-write one) and moves them apart, score 333 -> 0 as report's 333;
    # a JSON profile of every CPU loading three members beside a hot-write
    # counter (mm_struct's mm_count) the same, on the per-CPU basis
    o = hot_obj()
    c2c = loads_only_c2c()
    cls = write('hot_rm.classes', 'hot.a hot-write\nhot.c read-mostly\nhot.d read-mostly\n')
    args = (o, 'hot', '--samples', c2c, '--base', '0x404080', '--classes', cls)
    assert 'finding 1: collision, line 0 (bytes 0..31), score 333' in run('report', *args).stdout
    t = run('suggest', *args).stdout
    assert 'proposal 1 of ' in t and ', score 333 -> 0, ' in t, t
    mm = obj('mm', 'struct mm { long pad0[8]; long task_size, pgd, membarrier_state, mm_count; '
             'long x[4]; long tail[8]; } mm;\n')
    rm = ('task_size', 'pgd', 'membarrier_state')
    prof = write('mm_hitm.json', profile('struct mm', {
        m: [{'cpu': c, 'loads': 100, 'hitm_local': 80} for c in range(4)] for m in rm}))
    mcls = write('mm.classes', '[struct mm]\nmm_count = hot-write\n' +
                 ''.join('%s = read-mostly\n' % m for m in rm))
    args = (mm, 'mm', '--samples', prof, '--classes', mcls)
    assert 'finding 1: collision, line 1 (bytes 64..127), score 960' in run('report', *args).stdout
    d = json.loads(run('suggest', *args, '--json').stdout)
    assert d['findings'] == 1 and d['proposals'], d
    best = min(d['proposals'], key=lambda p: p['score_after'])
    assert best['score_before'] == 960 and best['score_after'] == 0, d['proposals']
    t = run('suggest', *args).stdout
    assert 'proposal 1 of ' in t and '/* moved: mm_count' in t, t


def case_report_sarif_failure():
    # report --sarif on an input error (exit 2; here a gate on a profile
    # that can show no write) writes a SARIF log saying the run did not
    # complete, as check --sarif does
    o = hot_obj()
    prof = write('hot_nohitm.json', profile('hot', {'c': [{'cpu': 1, 'loads': 100}]}))
    for args in (('--samples', prof, '--fail-on-findings'),):
        p = run('report', o, 'hot', *args, '--sarif', rc=2)
        inv = json.loads(p.stdout)['runs'][0]['invocations'][0]
        assert inv['executionSuccessful'] is False and inv['exitCode'] == 2, inv
        msg = inv['toolExecutionNotifications'][0]['message']['text']
        assert msg and msg in p.stderr.strip().split('\n')[-1], (msg, p.stderr)


def case_report_sarif_usage():
    # report --sarif with a usage error found while parsing the options
    # (an unknown option before or after --sarif, a bad option value, an
    # option --sarif excludes) still writes a SARIF log with the error
    o = hot_obj()
    for args in (('--bogus', '--sarif'), ('--sarif', '--bogus'),
                 ('--sarif', '--min-share', 'x'), ('--sarif', '--json'),
                 ('--sarif', '--classes')):
        p = run('report', o, 'hot', *args, rc=2)
        inv = json.loads(p.stdout)['runs'][0]['invocations'][0]
        assert inv['executionSuccessful'] is False and inv['exitCode'] == 2, (args, inv)
        msg = inv['toolExecutionNotifications'][0]['message']['text']
        assert msg and msg in p.stderr.strip().split('\n')[-1], (args, msg, p.stderr)
    # without --sarif: nothing on stdout
    assert run('report', o, 'hot', '--bogus', rc=2).stdout == ''


def case_c2c_bad_row():
    # a perf c2c Pareto row with a field that is not a number ("abc%") is
    # never dropped silently: a warning names FILE:LINE and the count
    src = os.path.join(ROOT, 'fixtures', 'samples', 'c2c', 'perf6.1-local', 'c2c_stdio.txt')
    text = open(src).read().split('\n')
    n = next(i for i, l in enumerate(text) if '[.] writer' in l and ' 0x8 ' in l)
    text[n] = text[n].replace('57.14%', 'abc%', 1)
    bad = write('c2c_bad_row.txt', '\n'.join(text))
    p = run('report', hot_obj(), 'hot', '--samples', bad, '--base', '0x404080')
    assert 'structlint: warning: %s:%d: 1 perf c2c Pareto row could not be read' % (bad, n + 1) \
        in p.stderr, p.stderr
    p = run('report', hot_obj(), 'hot', '--samples', src, '--base', '0x404080')
    assert 'could not be read' not in p.stderr, p.stderr


def case_paths_anonymous():
    # suggest's "lines each hot code path touches" counts the members a
    # path has samples on once: an anonymous struct's counts sum its
    # members' and are not counted again (inc stores cnt only: 1 line)
    c = write('an.c', 'struct an { struct { long ro1, ro2; int cnt, pad; long cold[20]; }; };\n'
              'struct an an_v;\n')
    o = os.path.join(TMP, 'an.o')
    subprocess.run([CC, '-g', '-c', '-o', o, c], check=True)
    prof = write('an.json', profile('an', {
        'cnt': [{'cpu': k, 'stores': 100, 'symbol': 'inc+0x10'} for k in range(4)],
        'ro1': [{'cpu': k, 'loads': 100, 'symbol': 'lookup+0x20'} for k in range(4)]}))
    t = run('suggest', o, 'an', '--samples', prof).stdout
    assert '/*   inc: 1 -> 1 (400 samples) */' in t and '/*   lookup: 1 -> 1 (400 samples) */' in t, t
    d = json.loads(run('suggest', o, 'an', '--samples', prof, '--json').stdout)
    paths = [x for pr in d['proposals'] for x in pr['paths']]
    assert paths and all(x['samples'] == 400 and x['lines_before'] == 1 for x in paths), paths


def case_loads_only_labelled_writers():
    # a loads-only profile with HITM loads and a classes file naming two
    # writers of different labels on the line: report gives write-write
    # (besides the collision), as check gives writers-share-line, one rule
    o = hot_obj()
    prof = write('hot_hitm2.json', profile('hot', {
        'c': [{'cpu': 1, 'loads': 100, 'hitm_local': 25}],
        'd': [{'cpu': 2, 'loads': 100, 'hitm_local': 25}]}))
    cls = write('hot_lab.classes', 'hot.a hot-write:rx\nhot.b hot-write:tx\nhot.c read-mostly\n')
    t = run('report', o, 'hot', '--samples', prof, '--classes', cls).stdout
    assert ': write-write, line 0 (bytes 0..31), score 50' in t, t
    assert 'collision, line 0' in t, t
    rules = write('hot_empty.rules', '[struct hot]\n')
    p = run('check', o, '--rules', rules, '--samples', prof, '--classes', cls, rc=1)
    assert '[writers-share-line]' in p.stdout, p.stdout
    # one label: no write-write in either
    cls1 = write('hot_lab1.classes', 'hot.a hot-write:rx\nhot.b hot-write:rx\nhot.c read-mostly\n')
    t = run('report', o, 'hot', '--samples', prof, '--classes', cls1).stdout
    assert 'write-write' not in t and 'collision, line 0' in t, t
    p = run('check', o, '--rules', rules, '--samples', prof, '--classes', cls1)
    assert '[writers-share-line]' not in p.stdout, p.stdout


# struct mm_struct of Linux 6.1 in miniature: every member inside an
# anonymous struct, line 1 holding task_size (64), pgd (72),
# membarrier_state (80), mm_users (84) and mm_count (88), as in the 6.1
# vmlinux; the classes as the 6.2 fix established them.
MM_C = r'''
typedef struct { int counter; } atomic_t;
struct mm_like {
	struct {
		void *mmap;
		unsigned long mm_rb[7];
		unsigned long task_size;
		void *pgd;
		atomic_t membarrier_state;
		atomic_t mm_users;
		atomic_t mm_count;
		int map_count;
		unsigned long rest[16];
	};
	unsigned long cpu_bitmap[];
} mm;
'''
MM_CLASSES = ('mm_like.mm_count hot-write\nmm_like.pgd read-mostly\n'
              'mm_like.task_size read-mostly\nmm_like.membarrier_state read-mostly\n')


def case_classes_with_samples():
    # CPUs 0..7 each store mm_count and load pgd, task_size and
    # membarrier_state: mm_count is truly shared (8 x 7 x 100 = 5600) and
    # the readers collide with it (8 x 7 x 100 x 3 = 16800)
    o = obj('mm', MM_C)
    rows = lambda k: [{'cpu': c, k: 100} for c in range(8)]
    prof = write('mm.json', profile('struct mm_like', {
        'mm_count': rows('stores'), 'pgd': rows('loads'), 'task_size': rows('loads'),
        'membarrier_state': rows('loads')}))
    cls = write('mm.classes', MM_CLASSES)
    want = [('collision', 1, 16800), ('true-sharing', 1, 5600)]
    for extra in ([], ['--classes', cls]):
        d = json.loads(run('report', '--json', o, 'mm_like', '--samples', prof, *extra).stdout)
        got = [(f['kind'], f['line'], f['score']) for f in d['findings']]
        assert got == want, (extra, got)
    mc = next(m for m in d['members'] if m['path'] == 'mm_count')
    assert (mc['class'], mc['class_given'], mc['class_measured']) == \
        ('hot-write', True, 'true-shared'), mc
    t = run('report', o, 'mm_like', '--samples', prof, '--classes', cls).stdout
    assert ('finding 2: true-sharing, line 1 (bytes 64..127), score 5600\n'
            '    written:    mm_count  bytes 88..91  hot-write (given; measured true-shared)'
            '  ld=0 st=800 hitm=0 cpulist=0-7\n') in t, t
    # the classes alone: no samples, no true sharing to report
    d = json.loads(run('report', '--json', o, 'mm_like', '--classes', cls).stdout)
    assert [f['kind'] for f in d['findings']] == ['collision'], d['findings']


# perf_mem_data_src values (<linux/perf_event.h>): a load that hit L3 with
# snoop HitM, and a store that hit L1
DS_LOAD_HITM = 0x02 | (0x02 | 0x40) << 5 | 0x10 << 19
DS_STORE_L1 = 0x04 | (0x02 | 0x08) << 5


def case_data_src_rows():
    # rows that carry only a data_src: CPUs 0 and 1 store a, CPUs 2 and 3
    # load b with HITM; c is loaded with an explicit count beside a HITM
    # data_src (explicit loads win, the HITM comes from data_src)
    o = obj('w', ANON_C)
    prof = write('ds.json', profile('struct w', {
        'a': [{'cpu': c, 'data_src': hex(DS_STORE_L1)} for c in (0, 1)],
        'b': [{'cpu': c, 'data_src': hex(DS_LOAD_HITM)} for c in (2, 3)],
        'c': [{'cpu': 2, 'loads': 3, 'data_src': hex(DS_LOAD_HITM)}]}))
    d = json.loads(run('report', '--json', o, 'w', '--samples', prof).stdout)
    m = {x['path']: (x['loads'], x['stores'], x['hitm_local']) for x in d['members']}
    assert m['a'] == (0, 2, 0) and m['b'] == (2, 0, 2) and m['c'] == (3, 0, 3), m
    assert 'collision' in [f['kind'] for f in d['findings']], d['findings']
    # a data_src that says neither load nor store, in a row without a kind
    bad = write('ds_bad.json', profile('struct w', {'a': [{'cpu': 0, 'data_src': '0x1'}]}))
    p = run('report', o, 'w', '--samples', bad, rc=2)
    assert 'ds_bad.json:1:' in p.stderr and 'data_src 0x1 says neither load nor store' in p.stderr, \
        p.stderr


def case_loads_only_named_writer():
    # a loads-only profile with HITM loads of c and d, and a classes file
    # naming a and b hot-write: the line is a collision with the named
    # writers, and the note and the warning say so (not "unseen writer")
    o = hot_obj()
    prof = write('hot_hitm.json', profile('hot', {
        'c': [{'cpu': 1, 'loads': 100, 'hitm_local': 25}],
        'd': [{'cpu': 2, 'loads': 100, 'hitm_local': 25}]}))
    cls = write('hot_named.classes', 'hot.a hot-write\nhot.b hot-write\nhot.c read-mostly\n'
                'hot.d read-mostly\n')
    p = run('report', o, 'hot', '--samples', prof, '--classes', cls)
    assert 'finding 1: collision, line 0 (bytes 0..31), score 50' in p.stdout, p.stdout
    assert ('/* structlint: the profile holds no store (loads-only events): no member can be seen '
            'written; lines whose loads hit modified lines (HITM) are written by the hot-write '
            'members the classes file names on them (collisions scored by those HITM loads) */'
            ) in p.stdout, p.stdout
    assert 'unseen writer' not in p.stdout, p.stdout
    assert ('HITM) are taken as evidence of a write by the hot-write members the classes name on '
            'that line') in p.stderr, p.stderr
    # without the classes: the unseen writer
    p = run('report', o, 'hot', '--samples', prof)
    assert 'are listed as written by an unseen writer */' in p.stdout, p.stdout
    assert 'taken as evidence of an unseen writer' in p.stderr, p.stderr



def case_slot_array_elements():
    # per-CPU slots: CPU c stores slot[c] (a profile entry with the member
    # and its offset): false sharing between the elements, not true
    # sharing; every CPU storing slot[0] stays true sharing; suggest says
    # that padding each element or per-CPU data is the cure
    o = obj('slots', 'struct slots { long slot[8]; long tail; } slots;\n')
    own = write('slots_own.json', profile('struct slots', {}))
    doc = json.loads(open(own).read())
    doc['structs'][0]['members'] = [{'member': 'slot', 'offset': 8 * c,
                                     'rows': [{'cpu': c, 'stores': 100}]} for c in range(8)]
    write('slots_own.json', doc)
    p = run('report', o, 'slots', '--samples', own)
    assert 'finding 1: element-sharing, line 0 (bytes 0..63), score 5600' in p.stdout, p.stdout
    assert 'true-sharing' not in p.stdout and 'true-shared' not in p.stdout, p.stdout
    assert 'written:    slot  bytes 0..63  hot-write  ld=0 st=800' in p.stdout, p.stdout
    assert 'different CPUs write different elements (disjoint bytes)' in p.stdout, p.stdout
    d = json.loads(run('report', o, 'slots', '--samples', own, '--json').stdout)
    assert [(f['kind'], f['layout_fixable']) for f in d['findings']] == \
        [('element-sharing', False)], d['findings']
    p = run('suggest', o, 'slots', '--samples', own)
    assert ('false sharing between the elements of slot (different CPUs write different '
            'elements, disjoint bytes, on line 0): reordering members cannot split an array; '
            'pad each element to its own line') in p.stdout, p.stdout
    doc['structs'][0]['members'] = [{'member': 'slot', 'offset': 0,
                                     'rows': [{'cpu': c, 'stores': 100} for c in range(8)]}]
    same = write('slots_same.json', doc)
    p = run('report', o, 'slots', '--samples', same)
    assert 'finding 1: true-sharing, line 0 (bytes 0..63), score 5600' in p.stdout, p.stdout
    assert 'element-sharing' not in p.stdout, p.stdout


if __name__ == '__main__':
    clicases.main(clicases.of_module(globals()))
