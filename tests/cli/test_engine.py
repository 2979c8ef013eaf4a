#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End-to-end tests of `structlint engine` on the seed miniatures
(fixtures/report/seed.c compiled with gcc: Debian 6.1 and 6.12 offsets of
mem_cgroup_per_node and cgroup): text and structlint.engine/v1 JSON
structure of short runs (never timing), the built-in role maps, replay of a
classes file, --write-profile read back by `structlint report` (the known
classes recovered), and bad input (exit 2, one stderr line).

    test_engine.py --list          case names
    test_engine.py CASE            run one case (exit 0 pass, 1 fail)
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
MEMCG61 = os.path.join(ROOT, 'fixtures', 'classes', 'mem_cgroup_per_node-6.1.classes')
TMP = tempfile.mkdtemp(prefix='slt-engine-')
SHORT = ['--threads', '2', '--seconds', '0.1']


def obj(v612=False):
    out = os.path.join(TMP, 'seed612.o' if v612 else 'seed61.o')
    if not os.path.exists(out):
        subprocess.run([CC, '-g', '-c', '-o', out] + (['-DV612'] if v612 else []) +
                       [os.path.join(ROOT, 'fixtures', 'report', 'seed.c')], check=True)
    return out


def run(*args):
    return subprocess.run([SL, 'engine'] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=60)


def ok(p):
    assert p.returncode == 0, (p.returncode, p.stderr)
    return p.stdout


def engine_json(*args):
    d = json.loads(ok(run(*args, '--json')))
    assert d['schema'] == 'structlint.engine/v1', d['schema']
    return d


def case_text():
    out = ok(run(obj(), 'mem_cgroup_per_node', *SHORT))
    for want in ('stats mode', 'batch 64, flush list', 'total', 'p99.9',
                 'flush lock hold time', 'per-CPU lock hold time', '0-1', '30-40', '>90',
                 'memcg', 'back-pointer'):
        assert want in out, want


def case_json_stats():
    d = engine_json(obj(), 'mem_cgroup_per_node', *SHORT, '--batch', '32', '--flush', 'pop')
    assert d['mode'] == 'stats' and d['struct'] == 'mem_cgroup_per_node' and d['size'] == 2560
    assert d['options']['batch'] == 32 and d['options']['flush'] == 'pop'
    assert len(d['threads']) == 2 and d['ops'] == sum(t['ops'] for t in d['threads']) > 0
    assert d['flushes'] >= 1 and d['groups'] == 7
    roles = {r['member']: r for r in d['roles']}
    assert roles['memcg']['role'] == 'back-pointer' and roles['memcg']['lines'] == [39, 39]
    assert roles['lruvec_stats']['role'] == 'flush-write'    # embedded on 6.1
    for h in ('flush_lock', 'percpu_lock'):
        b = d[h]['buckets_us']
        assert [x['range'] for x in b][:3] == ['0-1', '1-5', '5-10'] and b[-1]['range'] == '>90'
        assert len(b) == 14 and sum(x['count'] for x in b) == d[h]['holds']
    fl = d['flush_lock']
    assert fl['holds'] + fl['preempted'] == d['flushes'], fl
    assert d['flush_wakeups'] <= d['batch_crossings'], d
    lat = d['latency_ns']
    assert lat['what'] == 'update' and lat['timed'] >= lat['timed_batch_crossings'], lat
    for k in ('p50', 'p90', 'p99', 'p99_9'):   # rounded to 1 decimal
        assert lat[k] is None or round(lat[k], 1) == lat[k], lat
    assert all(t['cpu'] is None or t['cpu'] >= 0 for t in d['threads']), d['threads']
    d = engine_json(obj(), 'mem_cgroup_per_node', *SHORT, '--no-pin')
    assert [t['cpu'] for t in d['threads']] == [None, None], d['threads']
    # the flusher (thread 2) is the only one storing to lruvec_stats
    acc = [a for a in d['accesses'] if a['member'] == 'lruvec_stats']
    assert [a['stores'] > 0 for a in acc] == [False, False, True], acc


def case_612_and_cgroup():
    d = engine_json(obj(True), 'mem_cgroup_per_node', *SHORT)
    roles = {r['member']: r['role'] for r in d['roles']}
    assert roles['lruvec_stats'] == 'read', roles     # a pointer from 6.10 on
    d = engine_json(obj(), 'cgroup', *SHORT)
    roles = {r['member']: r['role'] for r in d['roles']}
    assert roles == {'rstat_cpu': 'percpu-pointer', 'rstat_css_list': 'flush-read',
                     'last_bstat': 'flush-write', 'bstat': 'flush-write'}, roles
    d = engine_json('--layout', obj(True) + ':cgroup', *SHORT)
    assert 'rstat_flush_next' in {r['member'] for r in d['roles']}


def case_replay():
    d = engine_json(obj(), 'mem_cgroup_per_node', '--classes', MEMCG61, *SHORT)
    assert d['mode'] == 'replay' and d['flushes'] == 0
    roles = {r['member']: r['role'] for r in d['roles']}
    assert roles['memcg'] == 'read' and roles['iter'] == 'hot-write', roles
    assert 'tree_node' not in roles                   # cold: not replayed
    # each hot-write member has one writer thread
    for m in ('lruvec', 'lru_zone_size', 'iter', 'lruvec_stats'):
        w = [a['thread'] for a in d['accesses'] if a['member'] == m and a['stores']]
        assert len(w) == 1, (m, w)


def case_profile_loop():
    prof = os.path.join(TMP, 'engine.json')
    ok(run(obj(), 'mem_cgroup_per_node', *SHORT, '--write-profile', prof))
    with open(prof) as f:
        assert json.load(f)['schema'] == 'structlint.profile/v1'
    p = subprocess.run([SL, 'report', obj(), 'mem_cgroup_per_node', '--samples', prof, '--json'],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    cls = {m['name']: m['class'] for m in json.loads(p.stdout)['members']}
    want = {'memcg': 'read-mostly', 'lruvec_stats_percpu': 'read-mostly',
            'shrinker_info': 'read-mostly', 'lruvec': 'hot-write',
            'lru_zone_size': 'hot-write', 'iter': 'hot-write'}
    for m, c in want.items():
        assert cls[m] == c, (m, cls[m])


def bad(args, want):
    p = run(*args)
    assert p.returncode == 2, (args, p.returncode, p.stdout, p.stderr)
    lines = p.stderr.strip().split('\n')
    assert len(lines) == 1 and lines[0].startswith('structlint: '), p.stderr
    assert want in lines[0], (want, lines[0])


def case_bad_input():
    o = obj()
    bad([o, 'mem_cgroup_per_node', '--threads', '0'], '--threads')
    bad([o, 'mem_cgroup_per_node', '--seconds', '0'], '--seconds')
    bad([o, 'mem_cgroup_per_node', '--seconds', 'x'], '--seconds')
    bad([o, 'mem_cgroup_per_node', '--batch', '48'], '--batch')
    bad([o, 'mem_cgroup_per_node', '--flush', 'later'], '--flush')
    bad([o, 'mem_cgroup_per_node', '--builtin', 'cgroup'], 'no member rstat_cpu')
    bad([o, 'mem_cgroup_per_node', '--builtin', 'task_struct'], 'no built-in role map')
    bad(['--layout', o], '--layout')
    bad([o, 'no_such_struct_xyz'], 'no_such_struct_xyz')
    bad([o, 'mem_cgroup_per_node', '--depth', '0'], '--depth')
    p = run(o, 'mem_cgroup_per_node', '--help')
    assert p.returncode == 0 and '--write-profile' in p.stdout
    for opt in ('--json', '--pretty', '--cacheline', '--format-path', '--debug-root'):
        assert opt in p.stdout, opt
    bad([o, 'mem_cgroup_per_node', '--seconds', '0.001'], 'from 0.01 to 3600')
    bad([o, 'mem_cgroup_per_node', '--seconds', '4000'], 'from 0.01 to 3600')
    bad([o, 'mem_cgroup_per_node', '--threads', '0'], "--threads '0': want 1 to 1024 updater threads")
    bad(['--layout', os.path.join(TMP, 'nofile') + ':S'], 'no such file')
    bad(['--builtin', 'foo'], "--builtin 'foo': no built-in role map")
    bad([o, 'mem_cgroup_per_node', '--pretty'], '--json')


CASES = {n[5:]: f for n, f in sorted(globals().items()) if n.startswith('case_')}

if __name__ == '__main__':
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        sys.exit(0)
    try:
        CASES[sys.argv[1]]()
    except AssertionError as e:
        print('FAIL', sys.argv[1], e)
        sys.exit(1)
    print('ok', sys.argv[1])
