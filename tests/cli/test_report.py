#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End-to-end tests of `structlint report` (and `structlint FILE NAME` with
--classes/--samples): the two seed cases of /work/shared/cases/README.md as
miniatures built from fixtures/report/seed.c (6.1 and 6.12 offsets), the
classes files of fixtures/classes, and per-CPU profiles written here.

    test_report.py --list          case names
    test_report.py CASE            run one case (exit 0 pass, 1 fail)
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
CLASSES = os.path.join(ROOT, 'fixtures', 'classes')
TMP = tempfile.mkdtemp(prefix='slt-report-')
BASE = 0xffff888100a3c000


def obj(v612):
    out = os.path.join(TMP, 'seed612.o' if v612 else 'seed61.o')
    if not os.path.exists(out):
        subprocess.run([CC, '-g', '-c', '-o', out] + (['-DV612'] if v612 else []) +
                       [os.path.join(ROOT, 'fixtures', 'report', 'seed.c')], check=True)
    return out


def run(*args, rc=0):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-2000:], p.stderr)
    return p


def findings(*args):
    d = json.loads(run('report', '--json', *args).stdout)
    assert d['schema'] == 'structlint.report/v1'
    return d, [(f['kind'], f['line']) for f in d['findings']]


def fs_lines(fs):
    return sorted(l for k, l in fs if k in ('collision', 'write-write'))


def case_memcg61():
    d, fs = findings(obj(False), 'mem_cgroup_per_node', '--classes',
                     os.path.join(CLASSES, 'mem_cgroup_per_node-6.1.classes'))
    assert fs_lines(fs) == [24, 39], fs
    assert d['score_basis'] == 'classes'
    f39 = [f for f in d['findings'] if f['line'] == 39][0]
    assert [m['path'] for m in f39['members']] == ['iter', 'shrinker_info', 'memcg'], f39
    assert [m['written'] for m in f39['members']] == [True, False, False]


def case_memcg612():
    _, fs = findings(obj(True), 'mem_cgroup_per_node', '--classes',
                     os.path.join(CLASSES, 'mem_cgroup_per_node.classes'))
    assert fs == [], fs


def case_cgroup61():
    _, fs = findings(obj(False), 'cgroup', '--classes', os.path.join(CLASSES, 'cgroup.classes'))
    assert fs_lines(fs) == [14], fs


def case_cgroup612():
    _, fs = findings(obj(True), 'cgroup', '--classes', os.path.join(CLASSES, 'cgroup.classes'))
    assert fs == [], fs


def case_gate():
    c61 = os.path.join(CLASSES, 'cgroup.classes')
    run('report', obj(False), 'cgroup', '--classes', c61, '--fail-on-findings', rc=1)
    run('report', obj(False), 'cgroup', '--classes', c61, rc=0)
    run('report', obj(True), 'cgroup', '--classes', c61, '--fail-on-findings', rc=0)
    p = run('report', obj(False), 'cgroup', rc=2)
    assert '--samples' in p.stderr and '--classes' in p.stderr, p.stderr
    p = run('report', obj(False), 'cgroup', '--classes', c61, '--min-share', '2', rc=2)
    assert 'min-share' in p.stderr


def strip(text):
    """The annotated text without structlint's additions, removed with the
    sed recipe of structlint(1) "ANNOTATED TEXT" (up to the summary)."""
    sed = subprocess.run(['sed', r's|\(\*/\)\t/\*.*|\1|'], input=text, capture_output=True,
                         text=True, check=True).stdout
    out = []
    for line in sed.split('\n'):
        if line.startswith('/* structlint:'):
            break
        out.append(line)
    return '\n'.join(out).rstrip('\n') + '\n'


def case_text_compat():
    o = obj(False)
    cls = os.path.join(CLASSES, 'mem_cgroup_per_node-6.1.classes')
    a = run(o, 'mem_cgroup_per_node', '--classes', cls).stdout
    b = run('report', o, 'mem_cgroup_per_node', '--classes', cls).stdout
    assert a == b
    plain = run(o, 'mem_cgroup_per_node').stdout
    assert strip(a) == plain, (strip(a), plain)
    assert '\t/* read-mostly (given) */' in a and 'finding 1: collision, line 39' in a, a
    assert a.count('finding ') == 2


def profile(rows_by_member, struct='mem_cgroup_per_node', base=BASE):
    """A structlint.profile/v1 of address samples: {offset: [(cpu, loads, stores, symbol)]}."""
    samples = []
    for off, rows in rows_by_member.items():
        for cpu, ld, st, sym in rows:
            samples.append({'addr': hex(base + off), 'cpu': cpu, 'loads': ld, 'stores': st,
                            'symbol': sym, 'size': 8})
    path = os.path.join(TMP, '%s-%d.json' % (struct, len(samples)))
    with open(path, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'samples': samples}, f)
    return path


def case_per_cpu_samples():
    # 6.1 offsets: lruvec tail 1584 stored by CPU 0; lruvec_stats_percpu
    # 1592 loaded by CPUs 1 and 2: F(24) = min(100,50)+min(100,30) = 80.
    # iter.generation 2496 (line 39) stored by CPU 3; shrinker_info 2504 and memcg 2552 loaded
    # by CPUs 4 and 5: F(39) = min(40,20)+min(40,10) = 30.
    # lru_zone_size 2328 stored by CPU 3 alone on its line: nothing.
    p = profile({1584: [(0, 0, 100, 'lru_add')], 1592: [(1, 50, 0, 'charge'), (2, 30, 0, 'charge')],
                 2496: [(3, 0, 40, 'mem_cgroup_iter')], 2328: [(3, 0, 60, 'update_lru_size')],
                 2504: [(4, 20, 0, 'shrink')], 2552: [(5, 10, 0, 'memcg_of')]})
    d, fs = findings(obj(False), 'mem_cgroup_per_node', '--samples', p, '--base', hex(BASE))
    assert d['score_basis'] == 'per-cpu' and d['base']['method'] == 'explicit', d['base']
    assert fs == [('collision', 24), ('collision', 39)], fs
    assert [f['score'] for f in d['findings']] == [80.0, 30.0]
    m = {x['path']: x for x in d['members']}
    assert m['lruvec_stats_percpu']['class'] == 'read-mostly'
    assert m['lruvec']['class'] == 'hot-write'
    assert m['lruvec']['locations'][0]['symbol'] == 'lru_add'
    assert d['samples']['matched'] == 310
    # The same with --line hints: the line holding BASE+1592 is line 24.
    d, fs2 = findings(obj(False), 'mem_cgroup_per_node', '--samples', p,
                      '--line', '%s=24' % hex(BASE + 1592))
    assert d['base']['method'] == 'hint' and fs2 == fs
    # Text: the code locations are named under the finding.
    t = run('report', obj(False), 'mem_cgroup_per_node', '--samples', p, '--base', hex(BASE)).stdout
    assert 'at lru_add (ld=0 st=100 hitm=0)' in t, t


def case_true_sharing():
    # shared_ref.refcnt written and read by CPUs 0..3, alone on line 0;
    # name/flags on line 1 read by the same CPUs.  True sharing (score
    # sum over c != d of min(10, 20) = 12 x 10 = 120), no line finding.
    rows = [(c, 10, 10, 'ref_get') for c in range(4)]
    p = profile({0: rows, 64: [(c, 30, 0, 'ref_name') for c in range(4)]}, struct='shared_ref')
    d, fs = findings(obj(False), 'shared_ref', '--samples', p, '--base', hex(BASE))
    assert fs == [('true-sharing', 0)], fs
    f = d['findings'][0]
    assert f['layout_fixable'] is False and f['score'] == 120.0
    assert 'PADDING' not in f['advice'].upper() and 'per-CPU' in f['advice']
    run('report', obj(False), 'shared_ref', '--samples', p, '--base', hex(BASE),
        '--fail-on-findings', rc=1)


def case_inference():
    # c2c-style records (cacheline address + offset, access size) on a 6.1
    # mem_cgroup_per_node instance at BASE: the lruvec tail (1584) and
    # lruvec_stats_percpu (1592) on line 24; iter.generation (2496, 4 bytes),
    # shrinker_info
    # (2504), tree_node (2512), usage_in_excess (2536), the 1-byte on_tree
    # (2544) and memcg (2552) around line 39.  Only the placement at BASE
    # puts every access on a member start with its own size (one 8 bytes
    # lower lands the 8-byte memcg access on the 1-byte on_tree, one higher
    # runs past the end).
    rows = [(1584, 0, 0, 100, 8), (1592, 1, 50, 0, 8), (1592, 2, 30, 0, 8), (2496, 3, 0, 40, 4),
            (2504, 4, 20, 0, 8), (2512, 6, 5, 0, 8), (2536, 6, 5, 0, 8), (2544, 6, 10, 0, 1),
            (2552, 5, 10, 0, 8)]
    samples = []
    for off, cpu, ld, st, size in rows:
        la = (BASE + off) & ~63
        samples.append({'line_addr': hex(la), 'line_offset': BASE + off - la, 'cpu': cpu,
                        'loads': ld, 'stores': st, 'size': size})
    path = os.path.join(TMP, 'memcg-c2c.json')
    with open(path, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'samples': samples}, f)
    d, fs = findings(obj(False), 'mem_cgroup_per_node', '--samples', path)
    assert d['base']['method'] == 'inferred', d['base']
    assert int(d['base']['address'], 16) == BASE, d['base']
    assert 0.05 <= d['base']['confidence'] <= 1, d['base']
    assert fs_lines(fs) == [24, 39], fs
    # --no-infer refuses, and one lone access is ambiguous: exit 2 and the
    # message names the options that resolve it.
    p = run('report', obj(False), 'mem_cgroup_per_node', '--samples', path, '--no-infer', rc=2)
    assert '--base' in p.stderr
    with open(path, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'samples': samples[4:5]}, f)
    p = run('report', obj(False), 'mem_cgroup_per_node', '--samples', path, rc=2)
    assert 'equally well' in p.stderr and '--line' in p.stderr, p.stderr


def case_c2c_real():
    # The real perf 6.1 c2c report of fixtures/samples/c2c/perf6.1-local
    # joined to the struct it was recorded on (fixtures/report/c2c_hot.c):
    # the object at 0x404080 (given, and inferred: 32 bytes, one placement).
    out = os.path.join(TMP, 'c2c_hot.o')
    subprocess.run([CC, '-g', '-c', '-o', out, os.path.join(ROOT, 'fixtures', 'report', 'c2c_hot.c')],
                   check=True)
    c2c = os.path.join(ROOT, 'fixtures', 'samples', 'c2c', 'perf6.1-local', 'c2c_stdio.txt')
    for extra in (['--base', '0x404080'], []):
        d, fs = findings(out, 'hot', '--samples', c2c, *extra)
        assert int(d['base']['address'], 16) == 0x404080, d['base']
        assert d['score_basis'] == 'counts'
        # counts basis: min(stores of written = 400, loads of read-mostly = 400)
        assert fs == [('collision', 0)] and d['findings'][0]['score'] == 400.0, d['findings']
        m = {x['path']: x for x in d['members']}
        assert [m[k]['class'] for k in 'abcd'] == ['hot-write'] * 2 + ['read-mostly'] * 2
        # HITM as printed: 0x10 45.39% of 293 local; 0x18 54.61% of 293 + 40 remote
        assert (m['c']['hitm_local'], m['d']['hitm_local'], m['d']['hitm_remote']) == (133, 160, 40)
        assert m['c']['locations'][0]['source'] == 'fs.c:12'
        assert m['a']['locations'][0]['symbol'].endswith('writer')


def case_perf_mem_real():
    # `perf mem report --stdio` of the same perf 6.1 recording as the c2c
    # case: its Data Symbol column ("[.] g_hot+0x18") places each access by
    # its offset from the instance's symbol.  Linked with a data object of
    # that name (the recording's), --base g_hot (and, without --base, the
    # one symbol every sample names) gives the member counts of the c2c
    # report of that recording.
    exe = os.path.join(TMP, 'g_hot_exe')
    src = os.path.join(TMP, 'g_hot.c')
    with open(src, 'w') as f:
        f.write('#include "%s"\nstruct hot g_hot;\nint main(void) { return 0; }\n' %
                os.path.join(ROOT, 'fixtures', 'report', 'c2c_hot.c'))
    subprocess.run([CC, '-g', '-no-pie', '-o', exe, src], check=True)
    local = os.path.join(ROOT, 'fixtures', 'samples', 'c2c', 'perf6.1-local')
    keys = ('loads', 'stores', 'hitm_local', 'hitm_remote')

    def counts(d):
        return {m['path']: tuple(m[k] for k in keys) for m in d['members']}

    c2c, _ = findings(exe, 'hot', '--samples', os.path.join(local, 'c2c_stdio.txt'))
    want = counts(c2c)
    assert want == {'a': (0, 200, 0, 0), 'b': (0, 200, 0, 0),
                    'c': (200, 0, 133, 0), 'd': (200, 0, 160, 40)}, want
    mem = os.path.join(local, 'perf_mem_report.txt')
    d, fs = findings(exe, 'hot', '--samples', mem, '--base', 'g_hot')
    assert counts(d) == want, (counts(d), want)
    assert d['base']['method'] == 'explicit' and 'g_hot' in d['base']['note'], d['base']
    assert fs == [('collision', 0)], d['findings']
    d, fs = findings(exe, 'hot', '--samples', mem)
    assert counts(d) == want, (counts(d), want)
    assert d['base']['method'] == 'typed' and 'g_hot' in d['base']['note'], d['base']
    # --base naming another object: none of these samples are on it
    p = run('report', exe, 'hot', '--samples', mem, '--base', 'hot', rc=2)
    assert 'none of the 800 samples fell on hot' in p.stderr, p.stderr
    # perf mem report -s mem (levels only): refused, saying what to run
    p = run('report', exe, 'hot', '--samples', os.path.join(
        ROOT, 'fixtures', 'samples', 'c2c', 'published', 'perf-mem-amd-ibs-zen5.txt'), rc=2)
    assert 'no per-address data' in p.stderr and 'perf mem report --stdio' in p.stderr, p.stderr


def hot_exe():
    """A linked non-PIE program holding the global `hot` of
    fixtures/report/c2c_hot.c (built once)."""
    exe = os.path.join(TMP, 'hot_exe')
    if not os.path.exists(exe):
        main = os.path.join(TMP, 'hot_main.c')
        with open(main, 'w') as f:
            f.write('int main(void) { return 0; }\n')
        subprocess.run([CC, '-g', '-no-pie', '-o', exe, main,
                        os.path.join(ROOT, 'fixtures', 'report', 'c2c_hot.c')], check=True)
    return exe


def case_c2c_node_note():
    # perf c2c report -N (Node{cpus %hitms %stores}) and the default Node
    # column name nodes, not CPUs: counts basis, and a note naming -NN;
    # -NN (Node{cpu list}) gives the per-cpu basis and no note.
    exe = hot_exe()
    local = os.path.join(ROOT, 'fixtures', 'samples', 'c2c', 'perf6.1-local')
    for name, note, basis in (('c2c_stdioN.txt', 'per node a CPU count', 'counts'),
                              ('c2c_stdio.txt', 'gives the nodes', 'counts'),
                              ('c2c_stdioNN.txt', None, 'per-cpu')):
        p = run('report', exe, 'hot', '--samples', os.path.join(local, name))
        assert ('score basis %s' % basis) in p.stdout, (name, p.stdout[-400:])
        if note:
            assert note in p.stderr and 'perf c2c report -NN prints each row\'s CPUs' in p.stderr, \
                (name, p.stderr)
        else:
            assert p.stderr == '', (name, p.stderr)


def case_base_symbol():
    # --base SYMBOL: the instance is the global `hot` of a linked program;
    # its address comes from the ELF symbol table, checked against nm.
    exe = hot_exe()
    nm = subprocess.run(['nm', exe], capture_output=True, text=True, check=True).stdout
    addr = int(next(l.split()[0] for l in nm.splitlines() if l.endswith(' hot')), 16)
    samples = [{'addr': hex(addr + off), 'cpu': cpu, kind: 100}
               for off, cpu, kind in ((0, 0, 'stores'), (8, 0, 'stores'),
                                      (16, 1, 'loads'), (24, 1, 'loads'))]
    path = os.path.join(TMP, 'hot_profile.json')
    with open(path, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'samples': samples}, f)
    d, fs = findings(exe, 'hot', '--samples', path, '--base', 'hot', '--no-infer')
    assert int(d['base']['address'], 16) == addr, (d['base'], hex(addr))
    assert fs == [('collision', 0)], d['findings']
    p = run('report', exe, 'hot', '--samples', path, '--base', 'no_such_object', rc=2)
    assert "no data symbol named 'no_such_object'" in p.stderr and '--base 0x' in p.stderr, p.stderr
    p = run('report', 'hot', '--samples', path, '--base', 'hot', rc=2)
    assert 'needs FILE' in p.stderr, p.stderr
    # In a relocatable object st_value is a section offset: refused.
    obj_o = os.path.join(TMP, 'c2c_hot_rel.o')
    subprocess.run([CC, '-g', '-c', '-o', obj_o, os.path.join(ROOT, 'fixtures', 'report', 'c2c_hot.c')],
                   check=True)
    p = run('report', obj_o, 'hot', '--samples', path, '--base', 'hot', rc=2)
    assert 'relocatable' in p.stderr and 'link the program, or give --base ADDR' in p.stderr, p.stderr
    # --line agreeing with the symbol's base is accepted; disagreeing, refused.
    run('report', exe, 'hot', '--samples', path, '--base', 'hot', '--line', '%s=0' % hex(addr + 16))
    p = run('report', exe, 'hot', '--samples', path, '--base', 'hot',
            '--line', '%s=1' % hex(addr + 16), rc=2)
    assert 'disagrees with --base' in p.stderr, p.stderr
    # A symbol smaller than the struct: a warning, the report goes on.
    small = os.path.join(TMP, 'small_main.c')
    with open(small, 'w') as f:
        f.write('long tiny;\nint main(void) { return 0; }\n')
    exe2 = os.path.join(TMP, 'small_exe')
    subprocess.run([CC, '-g', '-no-pie', '-o', exe2, small,
                    os.path.join(ROOT, 'fixtures', 'report', 'c2c_hot.c')], check=True)
    p = run('report', exe2, 'hot', '--samples', path, '--base', 'tiny')
    assert "warning: --base tiny: the symbol is 8 bytes, smaller than hot (32 bytes)" in p.stderr, p.stderr
    # Most samples outside the struct with a numeric base: one warning line.
    far = os.path.join(TMP, 'mostly_far.json')
    with open(far, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'samples': samples + [
            {'addr': hex(addr + 4096), 'cpu': 0, 'loads': 1000}]}, f)
    p = run('report', exe, 'hot', '--samples', far, '--base', hex(addr))
    assert p.stderr.count('\n') == 1 and \
        'warning: %s: 1000 of the 1400 samples fall outside hot\'s members, 400 on them, ' \
        '0 in its holes: check the base' % far in p.stderr, p.stderr
    # with --base SYMBOL (the instance's own address) and the samples in it
    # on members: the others are other objects of the program, a note
    # (issue 11 trial: page faults all over a program)
    p = run('report', exe, 'hot', '--samples', far, '--base', 'hot')
    assert p.stderr.count('\n') == 1 and \
        ('note: %s: 400 of the 1400 samples fell on hot\'s members (0 in its holes); the '
         'other 1000 lie outside the instance' % far) in p.stderr and \
        'other objects of the program' in p.stderr and 'check the base' not in p.stderr, p.stderr
    assert run('report', exe, 'hot', '--samples', path, '--base', 'hot').stderr == ''


def case_pie_script_text():
    # perf script text of a PIE program: run-time data addresses, no MMAP
    # events in the text, --base SYMBOL gives the link address: the error
    # says why nothing fell on the struct and what to give instead.
    exe = os.path.join(TMP, 'hot_pie')
    main = os.path.join(TMP, 'hot_pie.c')
    with open(main, 'w') as f:
        f.write('#include "%s"\nstruct hot g_hot;\nint main(void) { return 0; }\n' %
                os.path.join(ROOT, 'fixtures', 'report', 'c2c_hot.c'))
    subprocess.run([CC, '-g', '-fPIE', '-pie', '-o', exe, main], check=True)
    nm = subprocess.run(['nm', exe], capture_output=True, text=True, check=True).stdout
    link = int(next(l.split()[0] for l in nm.splitlines() if l.endswith(' g_hot')), 16)
    run_at = 0x55d0c2a5a000 + link
    # the Debian perf 6.1 script of fixtures/samples/c2c/perf6.1-local,
    # its data addresses (g_hot at 0x404080 there) moved to run_at
    src = os.path.join(ROOT, 'fixtures', 'samples', 'c2c', 'perf6.1-local', 'perf_script.txt')
    out = []
    for line in open(src).read().splitlines()[1:]:
        m = re.search(r' (4040[0-9a-f]{2}) ', line)
        a = '%x' % (int(m.group(1), 16) - 0x404080 + run_at)
        out.append(line[:m.start(1) - (len(a) - 6)] + a + line[m.end(1):])
    path = os.path.join(TMP, 'pie_script.txt')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')
    p = run('report', exe, 'hot', '--samples', path, '--base', 'g_hot', rc=2)
    assert 'none of the 12 samples fell on hot' in p.stderr, p.stderr
    assert 'position-independent (PIE) and perf script text carries no MMAP events' in p.stderr, p.stderr
    assert 'give the perf.data itself' in p.stderr and '--show-mmap-events' in p.stderr, p.stderr
    # the run-time address it says to give places every sample
    d, _ = findings(exe, 'hot', '--samples', path, '--base', hex(run_at))
    assert sum(m['loads'] + m['stores'] for m in d['members']) == 12, d['members']


def case_nothing_matched():
    # Samples that never touch the struct are an input error (exit 2), so a
    # --fail-on-findings gate cannot pass on a wrong base or a wrong file.
    path = os.path.join(TMP, 'far.json')
    with open(path, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'samples': [
            {'addr': hex(BASE + 0x100000), 'cpu': 0, 'stores': 5}]}, f)
    p = run('report', obj(False), 'cgroup', '--samples', path, '--base', hex(BASE),
            '--fail-on-findings', rc=2)
    assert 'none of the 5 samples fell on cgroup' in p.stderr and '--base' in p.stderr, p.stderr
    with open(path, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'samples': []}, f)
    p = run('report', obj(False), 'cgroup', '--samples', path, '--base', hex(BASE), rc=2)
    assert 'no memory-access samples' in p.stderr, p.stderr


def case_annotation_docs():
    # As structlint(1) "ANNOTATED TEXT" says: "(given)" after a given class,
    # ncpus=N (distinct CPUs) when the samples name CPUs, and the closing
    # "};" line of an inline (anonymous) struct carries its composite's
    # comment; the man page's sed recipe gives the plain layout back.
    src = os.path.join(TMP, 'anon.c')
    with open(src, 'w') as f:
        f.write('struct anon_t { long a; union { long b; int c; }; '
                'struct { long d; long e; }; long f; };\nstruct anon_t g_anon;\n')
    o = os.path.join(TMP, 'anon.o')
    subprocess.run([CC, '-g', '-c', '-o', o, src], check=True)
    cls = os.path.join(TMP, 'anon.classes')
    with open(cls, 'w') as f:
        f.write('anon_t.a hot-write\n')
    prof = profile({0: [(0, 0, 50, 'w'), (1, 0, 30, 'w')], 16: [(2, 40, 0, 'r')]}, struct='anon_t')
    t = run('report', o, 'anon_t', '--classes', cls, '--samples', prof, '--base', hex(BASE)).stdout
    lines = t.split('\n')
    a = next(l for l in lines if re.search(r'\ba;', l))
    assert a.endswith('\t/* hot-write (given) ld=0 st=80 hitm=0 ncpus=2 ##### */'), a
    d = next(l for l in lines if re.search(r'\bd;', l))
    assert d.endswith('\t/* read-mostly ld=40 st=0 hitm=0 ncpus=1 ### */'), d
    close = [l for l in lines if l.lstrip('\t').startswith('};') and '\t/*' in l.lstrip('\t')]
    # the union (8 bytes at 8, no samples: no comment) and the struct (16
    # at 16): anonymous, so no class of their own, their members' sums only
    assert len(close) == 1 and close[0].endswith('/*    16    16 */\t/* ld=40 st=0 hitm=0 ncpus=1 ### */'), close
    assert strip(t) == run(o, 'anon_t').stdout, (strip(t), run(o, 'anon_t').stdout)
    # Without CPUs (typed counts), no ncpus=.
    typed = os.path.join(TMP, 'anon_typed.json')
    with open(typed, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'structs': [
            {'type': 'anon_t', 'members': [{'offset': 0, 'stores': 5}, {'offset': 16, 'loads': 5}]}]}, f)
    t = run('report', o, 'anon_t', '--samples', typed).stdout
    assert 'ncpus=' not in t and 'cpulist=' not in t and '(given)' not in t, t
    d = json.loads(run('report', '--json', o, 'anon_t', '--samples', typed).stdout)
    assert d['base']['method'] == 'typed' and d['base']['confidence'] == 1, d['base']


def case_unknown_members():
    # A classes entry naming a member the struct lacks is a warning naming
    # the line and the closest member, and the run goes on (one file serves
    # several kernel versions: rstat_flush_next is absent in 6.1);
    # --strict-classes makes it an error.
    typo = os.path.join(TMP, 'typo.classes')
    with open(typo, 'w') as f:
        f.write('cgroup.rstat_cpu read-mostly\ncgroup.last_bsta hot-write\n')
    p = run('report', obj(False), 'cgroup', '--classes', typo, '--fail-on-findings', rc=0)
    assert p.stderr == ("structlint: warning: %s:2: cgroup has no member 'last_bsta' "
                        "(did you mean last_bstat?)\n" % typo), p.stderr
    p = run('report', obj(False), 'cgroup', '--classes', typo, '--strict-classes', rc=2)
    assert p.stderr.count('\n') == 1 and "%s:2: cgroup has no member 'last_bsta'" % typo in p.stderr \
        and 'last_bstat' in p.stderr, p.stderr
    c = os.path.join(CLASSES, 'cgroup.classes')
    p = run('report', obj(False), 'cgroup', '--classes', c, rc=0)
    assert p.stderr.count('warning') == 1 and "no member 'rstat_flush_next'" in p.stderr, p.stderr
    p = run('report', obj(True), 'cgroup', '--classes', c, '--strict-classes', rc=0)
    assert p.stderr == '', p.stderr


def case_no_store_warning():
    # The loads-only warning is for profiles whose events hold no store; a
    # profile whose stores fell on a misspelled member gets the did-you-mean
    # warning only (the stores are there, on no member).
    def prof(name, rows):
        path = os.path.join(TMP, name)
        with open(path, 'w') as f:
            json.dump({'schema': 'structlint.profile/v1', 'structs': [{'type': 'cgroup', 'members': [
                {'member': m, 'rows': r} for m, r in rows]}]}, f)
        return path
    typo = prof('typo_store.json', [('last_bsta', [{'cpu': 0, 'stores': 100}]),
                                    ('rstat_cpu', [{'cpu': 1, 'loads': 100}])])
    p = run('report', obj(False), 'cgroup', '--samples', typo)
    assert p.stderr == ("structlint: warning: %s: cgroup has no member 'last_bsta' (did you mean "
                        "last_bstat?); its 100 samples are counted outside the members\n" % typo), p.stderr
    assert 'holds no store' not in p.stdout, p.stdout
    loads = prof('loads_only.json', [('rstat_cpu', [{'cpu': 1, 'loads': 100}])])
    p = run('report', obj(False), 'cgroup', '--samples', loads)
    assert p.stderr.count('\n') == 1 and 'the profile holds no store' in p.stderr, p.stderr
    assert 'the profile holds no store' in p.stdout, p.stdout


def case_no_writes_gate():
    # A profile with neither a store nor a HITM load cannot show a write: a
    # gate refuses it (exit 2) instead of passing; with HITM loads and a
    # classes file, the classes' hot-write members are the line's writers.
    o = os.path.join(TMP, 'c2c_hot_gate.o')
    subprocess.run([CC, '-g', '-c', '-o', o, os.path.join(ROOT, 'fixtures', 'report', 'c2c_hot.c')],
                   check=True)

    def prof(name, hitm):
        path = os.path.join(TMP, name)
        with open(path, 'w') as f:
            json.dump({'schema': 'structlint.profile/v1', 'structs': [{'type': 'hot', 'members': [
                {'member': 'c', 'rows': [{'cpu': 1, 'loads': 100, 'hitm_local': hitm}]},
                {'member': 'd', 'rows': [{'cpu': 2, 'loads': 100, 'hitm_local': hitm}]}]}]}, f)
        return path
    loads = prof('gate_loads.json', 0)
    classes = os.path.join(TMP, 'gate_hot.classes')
    with open(classes, 'w') as f:
        f.write('hot.a hot-write\nhot.b hot-write\nhot.c read-mostly\nhot.d read-mostly\n')
    rules = os.path.join(TMP, 'gate_hot.rules')
    with open(rules, 'w') as f:
        f.write('[struct hot]\nno-hot-write-near = c\n')
    run('report', o, 'hot', '--samples', loads)    # no gate: says so, exit 0
    for args in (['report', o, 'hot', '--fail-on-findings'], ['suggest', o, 'hot', '--fail-on-findings'],
                 ['check', o, '--rules', rules]):
        p = run(*args, '--samples', loads, rc=2)
        assert 'the gate cannot see writes, so it cannot pass' in p.stderr, (args, p.stderr)
        assert p.stderr.rstrip().split('\n')[-1].startswith('structlint: %s:' % loads), p.stderr
    # the classes name the writers: the gate runs (check fails on them)
    run('check', o, '--rules', rules, '--samples', loads, '--classes', classes, rc=1)
    hitm = prof('gate_hitm.json', 25)
    _, fs = findings(o, 'hot', '--samples', hitm)
    assert fs == [('unseen-writer', 0)], fs
    d, fs = findings(o, 'hot', '--samples', hitm, '--classes', classes)
    assert fs == [('collision', 0)], fs
    f = d['findings'][0]
    assert f['score'] == 50 and f['layout_fixable'], f


def case_other_types():
    # Typed samples that all name other types: the error names the types
    # (top 3 by samples) and says none is NAME, not "check the base".
    path = os.path.join(TMP, 'other_types.json')
    with open(path, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'structs': [
            {'type': t, 'members': [{'offset': 0, 'loads': n}]}
            for t, n in (('task_struct', 50), ('sock', 30), ('page', 20), ('inode', 1))]}, f)
    p = run('report', obj(False), 'cgroup', '--samples', path, rc=2)
    assert 'none of the 101 samples is of cgroup' in p.stderr and \
        'task_struct (50), sock (30), page (20); none is cgroup' in p.stderr and \
        'inode' not in p.stderr and 'base' not in p.stderr, p.stderr


def case_nested_true_sharing():
    """True sharing of a struct-typed nested member (a spinlock_t holding a
    union): a profile naming it gives one true-sharing finding with and
    without -E (with -E it was lost: the cells stay on the composite); a
    classes entry gives one, not one per leaf of the union."""
    src = os.path.join(TMP, 'nest.c')
    with open(src, 'w') as f:
        f.write('typedef struct { union { int val; short h[2]; }; } spinlock_t;\n'
                'struct q { void *next; int qlen; spinlock_t lock; };\n'
                'struct s { struct q rq; long r; long pad[6]; };\nstruct s g;\n')
    o = os.path.join(TMP, 'nest.o')
    subprocess.run([CC, '-g', '-c', '-o', o, src], check=True)
    prof = os.path.join(TMP, 'nest.json')
    with open(prof, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'structs': [{'type': 's', 'members': [
            {'member': 'rq.lock', 'rows': [{'cpu': c, 'stores': 100} for c in range(4)]}]}]}, f)
    cls = os.path.join(TMP, 'nest.classes')
    with open(cls, 'w') as f:
        f.write('s.rq.lock true-shared\ns.r read-mostly\n')
    for extra in ([], ['-E']):
        kinds = [k for k, _ in findings(*extra, o, 's', '--samples', prof)[1]]
        assert kinds == ['true-sharing'], (extra, kinds)
        kinds = [k for k, _ in findings(*extra, o, 's', '--classes', cls)[1]]
        assert sorted(kinds) == ['collision', 'true-sharing'], (extra, kinds)


def case_nested_profile_path():
    """A profile naming a member inside a nested struct by its path, with
    no offset ("in.lock", issue 11 item 3): without -E its samples land on
    that member's own bytes (the layout is shown inline, with a note), not
    on the nested struct's first line, so the findings are those of -E;
    a misspelled path inside it gets did-you-mean, not silence."""
    src = os.path.join(TMP, 'nestp.c')
    with open(src, 'w') as f:
        f.write('struct in { long a[8]; int lock; int x; };\n'
                'struct s { struct in in; long r; long pad[6]; };\nstruct s g;\n')
    o = os.path.join(TMP, 'nestp.o')
    subprocess.run([CC, '-g', '-c', '-o', o, src], check=True)
    def prof(path, name):
        with open(path, 'w') as f:
            json.dump({'schema': 'structlint.profile/v1', 'structs': [{'type': 's', 'members': [
                {'member': name, 'rows': [{'cpu': 0, 'stores': 100}]},
                {'member': 'r', 'rows': [{'cpu': c, 'loads': 100} for c in (1, 2, 3)]}]}]}, f)
        return path
    good = prof(os.path.join(TMP, 'nestp.json'), 'in.lock')
    # in.lock at 64 shares line 1 with r at 72; in starts on line 0
    for extra in ([], ['-E']):
        _, fs = findings(*extra, o, 's', '--samples', good)
        assert fs == [('collision', 1)], (extra, fs)
    p = run('report', o, 's', '--samples', good)
    assert 'a path inside a nested struct' in p.stderr, p.stderr
    bad = prof(os.path.join(TMP, 'nestp_typo.json'), 'in.lok')
    p = run('report', o, 's', '--samples', bad)
    assert "has no member 'in.lok' (did you mean in.lock?)" in p.stderr, p.stderr



def write_text(name, text):
    path = os.path.join(TMP, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


def nested_obj():
    """struct s { struct in in; long r; ... }: in.lock and in.x on line 1,
    beside r (compiled once)."""
    o = os.path.join(TMP, 'nested.o')
    if not os.path.exists(o):
        src = write_text('nested.c', 'struct in { long a[8]; int lock; int x; };\n'
                         'struct s { struct in in; long r; long pad[6]; };\nstruct s g;\n')
        subprocess.run([CC, '-g', '-c', '-o', o, src], check=True)
    return o


def case_nested_misspelled_kept_folded():
    """A misspelled path inside a nested struct ('in.lok', issue 11
    trial) names no member: did-you-mean, and the layout is not shown
    inline (no 'shown inline' note), in a classes file and a profile;
    report and check alike."""
    o = nested_obj()
    cls = write_text('nestm.classes', '[s]\nin.lok = hot-write\nr = read-mostly\n')
    prof = os.path.join(TMP, 'nestm.json')
    with open(prof, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'structs': [{'type': 's', 'members': [
            {'member': 'in.lok', 'rows': [{'cpu': 0, 'stores': 100}]},
            {'member': 'r', 'rows': [{'cpu': 1, 'loads': 100}]}]}]}, f)
    for args in (('--classes', cls), ('--samples', prof)):
        p = run('report', o, 's', *args)
        assert "has no member 'in.lok' (did you mean in.lock?)" in p.stderr, (args, p.stderr)
        assert 'shown inline' not in p.stderr, (args, p.stderr)
        assert 'struct in {' not in p.stdout and 'struct in ' in p.stdout, (args, p.stdout)
    p = run('check', o, 's', '--classes', cls)
    assert "did you mean in.lock?" in p.stderr and 'shown inline' not in p.stderr, p.stderr


def case_nested_unit_collision_note():
    """Given classes of two members inside one nested struct on one line
    ('inode.i_data.i_mmap_rwsem hot-write', 'i_data.i_mmap read-mostly',
    issue 11 trial): no finding of the outer struct (pairs count between
    its own members), and a note says so and names the nested type, whose
    own report finds the collision."""
    o = nested_obj()
    cls = write_text('nestu.classes', '[s]\nin.lock = hot-write\nin.x = read-mostly\n'
                     '[in]\nlock = hot-write\nx = read-mostly\n')
    p = run('report', o, 's', '--classes', cls)
    assert '0 findings for s' in p.stdout, p.stdout
    assert ('/* structlint: note: in.lock (hot-write) and in.x (read-mostly) share line 1 inside '
            'in (struct in): no finding of s, whose pairs count between its own members '
            '(reordering them cannot part two members of one nested struct); report in to '
            'score the nested layout */') in p.stdout, p.stdout
    p = run('report', o, 'in', '--classes', cls)
    assert 'finding 1: collision, line 1' in p.stdout, p.stdout
    # a member beside the nested struct: a finding, no note
    cls = write_text('nestu2.classes', '[s]\nin.lock = hot-write\nr = read-mostly\n')
    p = run('report', o, 's', '--classes', cls)
    assert 'finding 1: collision' in p.stdout and 'no finding of s' not in p.stdout, p.stdout


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
