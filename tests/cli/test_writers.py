#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writer labels (hot-write:LABEL in a classes file) end to end, on
fixtures/writers/rxtx.c compiled with each thread's counters on lines of
their own (CHANGE=0) and all on one line (CHANGE=1):
report names a write-write finding between labels; suggest splits the rx
and tx counters onto different lines and keeps each thread's together (one
label: no finding, nothing separated); check fails with writers-share-line
on the shared line and passes on the padded layout; baseline records
"writer" and check --baseline reports baseline-writers-share-line for the
regression (from the baseline's labels alone, or --classes); a bad
"writer" in a baseline is an input error.

    test_writers.py --list          case names
    test_writers.py CASE            run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC (compiler).
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SL = os.environ.get('STRUCTLINT', os.path.join(ROOT, 'build', 'structlint'))
CC = os.environ.get('CC_GCC', 'gcc')
FX = os.path.join(ROOT, 'fixtures', 'writers')
SRC = os.path.join(FX, 'rxtx.c')
CLS = os.path.join(FX, 'rxtx.classes')
SAME = os.path.join(FX, 'rxtx-same.classes')
TMP = tempfile.mkdtemp(prefix='slt-writers-')
RX = ['rx_packets', 'rx_bytes', 'rx_drops']
TX = ['tx_packets', 'tx_bytes', 'tx_drops']


def obj(change):
    out = os.path.join(TMP, 'rxtx%d.o' % change)
    if not os.path.exists(out):
        subprocess.run([CC, '-g', '-c', '-DCHANGE=%d' % change, '-o', out, SRC], check=True)
    return out


def run(*args, rc=0):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True, cwd=TMP)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    if rc == 2:
        errs = p.stderr.strip().split('\n')
        assert p.stdout == '' and len(errs) == 1, (p.stdout, p.stderr)
    else:
        assert p.stderr == '', p.stderr
    return p


def case_report():
    t = run('report', obj(1), 'rxq_stats', '--classes', CLS).stdout
    assert 'finding 1: write-write, line 0 (bytes 0..55), score 9\n' in t, t
    assert '    written:    rx_packets  bytes 8..15  hot-write:rx (given)\n' in t, t
    assert '    written:    tx_drops  bytes 48..55  hot-write:tx (given)\n' in t, t
    # labels (threads, roles) from a classes file: the fix speaks of writers
    assert 'fix: put members of different writers (their hot-write labels' in t and \
        'different CPUs' not in t, t
    # one writer: nothing collides
    t = run('report', obj(1), 'rxq_stats', '--classes', SAME).stdout
    assert '0 findings for rxq_stats' in t, t
    # the padded layout: none either
    t = run('report', obj(0), 'rxq_stats', '--classes', CLS).stdout
    assert '0 findings for rxq_stats' in t, t


def lines_of(p):
    return {m['name']: m['offset'] // 64 for m in p['layout']['members']}


def case_suggest():
    d = json.loads(run('suggest', '--json', obj(1), 'rxq_stats', '--classes', CLS).stdout)
    assert d['proposals'], d
    for p in d['proposals']:
        if p['kind'] == 'size':
            continue
        ln = lines_of(p)
        assert p['score_before'] == 9 and p['score_after'] == 0 and p['findings_after'] == 0, p
        assert len({ln[n] for n in RX}) == 1 and len({ln[n] for n in TX}) == 1, ln
        assert ln['rx_packets'] != ln['tx_packets'], ln
    # one label: no finding, and no proposal separates the counters
    d = json.loads(run('suggest', '--json', obj(1), 'rxq_stats', '--classes', SAME).stdout)
    for p in d['proposals']:
        assert len({lines_of(p)[n] for n in RX + TX}) == 1, p


def violation(o, msg, rule, sev='error'):
    return '%s:13: %s: struct rxq_stats: %s [%s]' % (SRC, sev, msg, rule)


SHARED = ('cacheline 0 holds members written by different writers: '
          'rx_packets (hot-write:rx, offset 8, 8 bytes), rx_bytes (hot-write:rx, offset 16, 8 bytes), '
          'rx_drops (hot-write:rx, offset 24, 8 bytes), tx_packets (hot-write:tx, offset 32, 8 bytes), '
          'tx_bytes (hot-write:tx, offset 40, 8 bytes), tx_drops (hot-write:tx, offset 48, 8 bytes): '
          "each writer's stores take the line from the others (write-write false sharing); "
          "give each writer's members lines of their own (CACHELINE_PADDING, or structlint suggest)")


def case_check():
    rules = os.path.join(TMP, 'rxq.rules')
    with open(rules, 'w') as f:
        f.write('[struct rxq_stats]\n')
    p = run('check', obj(1), '--rules', rules, '--classes', CLS, rc=1)
    out = p.stdout.rstrip('\n').split('\n')
    # a class rule from a classes file says so; what a violation counts
    assert out == [violation(obj(1), SHARED + "; a class rule (layout hygiene from the members' "
                             "classes), not a measured sharing finding", 'writers-share-line'),
                   'structlint: check: how violations count: a sharing rule gives one per '
                   'cacheline it fails on (separate: per pair of groups; no-hot-write-near: per '
                   'line of its member), finding-KIND one per line and kind as report lists them, '
                   'other rules one per member or struct; the rule is in [] at the end of each line',
                   'structlint: check: 1 struct, 1 checks: 1 error, 0 warnings, 0 notes '
                   '(0 suppressed): FAILED'], out
    p = run('check', obj(0), '--rules', rules, '--classes', CLS)
    assert p.stdout == ('structlint: check: 1 struct, 3 checks: 0 errors, 0 warnings, 0 notes '
                        '(0 suppressed): passed\n'), p.stdout
    # one writer: passes
    run('check', obj(1), '--rules', rules, '--classes', SAME)
    # with --samples the given labels still apply (given classes win)
    prof = os.path.join(TMP, 'rxq.json')
    with open(prof, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'structs': [{'type': 'rxq_stats', 'members': [
            {'member': 'rx_packets', 'rows': [{'cpu': 0, 'stores': 100}]},
            {'member': 'tx_packets', 'rows': [{'cpu': 1, 'stores': 100}]}]}]}, f)
    p = run('check', obj(1), '--rules', rules, '--samples', prof, '--classes', CLS, rc=1)
    assert p.stdout.split('\n')[0] == violation(obj(1), SHARED, 'writers-share-line'), p.stdout
    j = json.loads(run('check', '--json', obj(1), '--rules', rules, '--classes', CLS,
                       rc=1).stdout)
    v = [x for x in j['violations'] if x['rule'] == 'writers-share-line']
    assert len(v) == 1 and v[0]['member'] == 'rx_packets' and v[0]['offset'] == 8, j
    # SARIF names the rule with its own help text; a suppression of it is
    # a known rule id (no warning) and applies
    sa = json.loads(run('check', '--sarif', obj(1), '--rules', rules, '--classes', CLS,
                        rc=1).stdout)
    drv = sa['runs'][0]['tool']['driver']['rules']
    r = [x for x in drv if x['id'] == 'writers-share-line']
    assert len(r) == 1 and 'different writers' in r[0]['help']['text'], drv
    sup = os.path.join(TMP, 'sup.json')
    with open(sup, 'w') as f:
        json.dump({'schema': 'structlint.suppressions/v1', 'suppressions': [
            {'rule': 'writers-share-line', 'struct': 'rxq_stats', 'reason': 'test'}]}, f)
    p = run('check', obj(1), '--rules', rules, '--classes', CLS, '--suppress', sup)
    assert '(suppressed: test)' in p.stdout and ': passed' in p.stdout, p.stdout


def case_baseline():
    b = os.path.join(TMP, 'rxq.baseline.json')
    with open(b, 'w') as f:
        f.write(run('baseline', obj(0), 'rxq_stats', '--classes', CLS).stdout)
    with open(b) as f:
        d = json.load(f)
    wr = {m['path']: m.get('writer') for m in d['structs'][0]['members']}
    assert wr['rx_bytes'] == 'rx' and wr['tx_drops'] == 'tx' and wr['owner'] is None, wr
    run('check', obj(0), '--baseline', b)
    # the labels come from the baseline alone, or from --classes
    for extra in ([], ['--classes', CLS]):
        p = run('check', obj(1), '--baseline', b, *extra, rc=1)
        errs = [l for l in p.stdout.split('\n') if ': error: ' in l]
        assert errs == [violation(
            obj(1), 'cacheline 0 now holds members written by different writers: '
            'rx_packets (hot-write:rx, offset 8, was on cacheline 1), '
            'rx_bytes (hot-write:rx, offset 16, was on cacheline 1), '
            'rx_drops (hot-write:rx, offset 24, was on cacheline 1), '
            'tx_packets (hot-write:tx, offset 32, was on cacheline 2), '
            'tx_bytes (hot-write:tx, offset 40, was on cacheline 2), '
            'tx_drops (hot-write:tx, offset 48, was on cacheline 2) (write-write false sharing)',
            'baseline-writers-share-line')], p.stdout
        # each moved counter's warning agrees with that error
        moved = [l for l in p.stdout.split('\n') if 'baseline-member-moved-line' in l]
        assert len(moved) == 6 and all(
            'it takes part in a new write-write sharing (baseline-writers-share-line)' in l
            for l in moved), moved
    # --classes giving one writer wins over the baseline's labels
    p = run('check', obj(1), '--baseline', b, '--classes', SAME)
    assert 'baseline-writers-share-line' not in p.stdout, p.stdout
    # a bad writer in the baseline: one line, exit 2
    for m in d['structs'][0]['members']:
        if m['path'] == 'rx_bytes':
            m['writer'] = 'r x'
    bad = os.path.join(TMP, 'bad.baseline.json')
    with open(bad, 'w') as f:
        json.dump(d, f)
    p = run('check', obj(0), '--baseline', bad, rc=2)
    assert 'writer' in p.stderr and 'bad writer label' in p.stderr, p.stderr



def case_check_samples():
    # --samples without classes: a member that one CPU alone stores to is
    # that CPU's (writer cpuN): rx counters stored by CPU 0, tx by CPU 1 on
    # one line fail writers-share-line; the padded layout passes; one CPU
    # storing to all, or the CPUs not known, is no writer evidence
    rules = os.path.join(TMP, 'rxq_s.rules')
    with open(rules, 'w') as f:
        f.write('[struct rxq_stats]\n')

    def prof(name, rows):
        path = os.path.join(TMP, name)
        with open(path, 'w') as f:
            json.dump({'schema': 'structlint.profile/v1', 'structs': [{'type': 'rxq_stats', 'members': [
                {'member': m, 'rows': [r]} for m, r in rows]}]}, f)
        return path
    two = prof('two_cpus.json', [(m, {'cpu': 0 if m in RX else 1, 'stores': 100}) for m in RX + TX])
    p = run('check', obj(1), '--rules', rules, '--samples', two, rc=1)
    out = p.stdout.split('\n')[0]
    assert out.endswith('[writers-share-line]') and 'rx_packets (hot-write:cpu0, offset 8, 8 bytes)' in out \
        and 'tx_drops (hot-write:cpu1, offset 48, 8 bytes)' in out, p.stdout
    run('check', obj(0), '--rules', rules, '--samples', two)
    one = prof('one_cpu.json', [(m, {'cpu': 0, 'stores': 100}) for m in RX + TX])
    p = subprocess.run([SL, 'check', obj(1), '--rules', rules, '--samples', one],
                       capture_output=True, text=True, cwd=TMP)
    assert p.returncode == 0 and 'writers-share-line' not in p.stdout, (p.stdout, p.stderr)
    nocpu = prof('no_cpu.json', [(m, {'stores': 100}) for m in RX + TX])
    p = subprocess.run([SL, 'check', obj(1), '--rules', rules, '--samples', nocpu],
                       capture_output=True, text=True, cwd=TMP)
    assert p.returncode == 0 and 'writers-share-line' not in p.stdout, (p.stdout, p.stderr)
    # baseline --samples records the measured writers (cpuN) and check
    # --baseline compares them: the regression fails on them alone
    b = os.path.join(TMP, 'rxq_cpu.baseline.json')
    with open(b, 'w') as f:
        f.write(run('baseline', obj(0), 'rxq_stats', '--samples', two).stdout)
    with open(b) as f:
        wr = {m['path']: m.get('writer') for m in json.load(f)['structs'][0]['members']}
    assert wr['rx_packets'] == 'cpu0' and wr['tx_drops'] == 'cpu1' and wr['owner'] is None, wr
    p = run('check', obj(1), '--baseline', b, rc=1)
    assert 'baseline-writers-share-line' in p.stdout and 'tx_packets (hot-write:cpu1' in p.stdout, p.stdout
    # measured writers are told apart by CPU: the fix says CPUs
    t = run('report', obj(1), 'rxq_stats', '--samples', two).stdout
    assert 'fix: put members written by different CPUs on different lines' in t, t


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
