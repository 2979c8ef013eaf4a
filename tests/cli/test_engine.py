#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End-to-end tests of `structlint engine` on the seed miniatures
(fixtures/report/seed.c compiled with gcc: Debian 6.1 and 6.12 offsets of
mem_cgroup_per_node and cgroup): text and structlint.engine/v1 JSON
structure of short runs (never timing), the built-in role maps, replay of a
classes file, --write-profile read back by `structlint report` (the known
classes recovered), and bad input (exit 2, one stderr line).  Every case that
checks counts or the classes drawn from them runs a fixed number of updates
(--updates, EXACT), not a time, so it is exact on any load.

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
# 20000 updates per updater thread, the --seconds cap far above what they take
N = 20000
EXACT = ['--threads', '2', '--updates', str(N), '--seconds', '600']


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
    # the fixture names no kernel version: the 5.15-rc1 mode, whose flush
    # aggregates under the per-CPU lock (pop)
    for want in ('stats mode', 'batch 64, flush pop', 'stats mode: 5.15-rc1 (default: ',
                 'names no kernel version', 'total', 'p99.9',
                 'flush lock hold time', 'per-CPU lock hold time', '0-1', '30-40', '>90',
                 'memcg', 'back-pointer'):
        assert want in out, want


def case_json_stats():
    d = engine_json(obj(), 'mem_cgroup_per_node', *EXACT, '--batch', '32', '--flush', 'pop')
    assert d['mode'] == 'stats' and d['struct'] == 'mem_cgroup_per_node' and d['size'] == 2560
    assert d['options']['batch'] == 32 and d['options']['flush'] == 'pop'
    assert [t['ops'] for t in d['threads']] == [N, N] and d['ops'] == 2 * N, d['threads']
    # every 32nd update of a thread completes a batch
    assert d['batch_crossings'] == 2 * (N // 32), d['batch_crossings']
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
    # one writer for lruvec, lru_zone_size and iter (the built-in map's
    # writer group): updater 0
    for m in ('lruvec', 'lru_zone_size', 'iter'):
        acc = [a for a in d['accesses'] if a['member'] == m]
        assert [a['stores'] > 0 for a in acc] == [True, False, False], (m, acc)


def case_612_and_cgroup():
    d = engine_json(obj(True), 'mem_cgroup_per_node', *SHORT)
    roles = {r['member']: r['role'] for r in d['roles']}
    assert roles['lruvec_stats'] == 'read', roles     # a pointer from 6.10 on
    d = engine_json(obj(), 'cgroup', *SHORT)
    roles = {r['member']: r['role'] for r in d['roles']}
    assert roles == {'rstat_cpu': 'percpu-pointer', 'rstat_css_list': 'flush-read',
                     'last_bstat': 'flush-write', 'bstat': 'flush-write'}, roles
    d = engine_json('--layout', obj(True) + ':cgroup', *SHORT)
    roles = {r['member']: r['role'] for r in d['roles']}
    # 6.8+: the list flush chains the popped groups through it under the
    # per-CPU lock (cgroup_rstat_updated_list())
    assert roles['rstat_flush_next'] == 'flush-link', roles


def case_replay():
    d = engine_json(obj(), 'mem_cgroup_per_node', '--replay', '--classes', MEMCG61, *EXACT)
    assert d['mode'] == 'replay' and d['flushes'] == 0
    # the stats engine's options do not apply: null
    o = d['options']
    assert [o[k] for k in ('depth', 'fanout', 'batch', 'flush', 'write_every')] == [None] * 5, o
    # whole replay cycles: the same total for any thread count
    d1 = engine_json(obj(), 'mem_cgroup_per_node', '--replay', '--classes', MEMCG61, *EXACT[2:],
                     '--threads', '1')
    assert d['ops'] == d1['ops'] >= N, (d['ops'], d1['ops'])
    roles = {r['member']: r['role'] for r in d['roles']}
    assert roles['memcg'] == 'read' and roles['iter'] == 'hot-write', roles
    assert 'tree_node' not in roles                   # cold: not replayed
    # each hot-write member has one writer thread
    for m in ('lruvec', 'lru_zone_size', 'iter', 'lruvec_stats'):
        w = [a['thread'] for a in d['accesses'] if a['member'] == m and a['stores']]
        assert len(w) == 1, (m, w)


def profile_rows(path):
    """{(member or offset, cpu): (loads, stores)} of a profile's rows."""
    with open(path) as f:
        d = json.load(f)
    assert d['schema'] == 'structlint.profile/v1', d['schema']
    rows = {}
    for s in d['structs']:
        for m in s['members']:
            for r in m['rows']:
                key = (m.get('member', m['offset']), m['offset'], r['cpu'])
                assert key not in rows, key
                rows[key] = (r.get('loads', 0), r.get('stores', 0))
    return rows


def case_profile_repro():
    """With --updates the written profile is the same on every run.  Replay
    (no flusher): byte-identical.  Stats mode: the updaters' rows (cpu 0
    and 1) are identical; the flusher's (cpu 2) name the same members, and
    each row counts the run's flushed groups (its loads of the per-CPU
    pointer, its stores to each line of the flush-written stats), which
    vary: how many batch crossings coalesce into one flush depends on
    when the flusher thread gets a CPU."""
    for name, args in (('replay', ['--replay', '--classes', MEMCG61]), ('stats', [])):
        profs, runs = [], []
        for i in range(2):
            profs.append(os.path.join(TMP, 'repro-%s-%d.json' % (name, i)))
            runs.append(engine_json(obj(), 'mem_cgroup_per_node', *EXACT, *args,
                                    '--write-profile', profs[-1]))
        if name == 'replay':
            with open(profs[0], 'rb') as a, open(profs[1], 'rb') as b:
                assert a.read() == b.read(), 'replay profiles differ'
            continue
        rows = [profile_rows(p) for p in profs]
        for r, d in zip(rows, runs):
            flusher = {k: v for k, v in r.items() if k[2] == 2}
            assert flusher, r
            for k, (loads, stores) in flusher.items():
                assert loads + stores == d['flushed_groups'], (k, loads, stores, d['flushed_groups'])
        assert rows[0].keys() == rows[1].keys(), set(rows[0]) ^ set(rows[1])
        upd = [{k: v for k, v in r.items() if k[2] < 2} for r in rows]
        assert upd[0] == upd[1], 'updater rows differ'
        # each updater loaded a read member once per update and stored to
        # a hot-written line every 4th update (--write-every 4): exact
        assert set(upd[0].values()) == {(N, 0), (0, N // 4)}, upd[0]
        assert {k[2] for k in upd[0]} == {0, 1}, upd[0]


def case_cgroup_loop():
    """cgroup: the flush path is rare next to updates, so the engine's
    profile needs --min-share 0.001 (man ENGINE) for rstat_css_list and
    the flush-written stats not to be cold; a timed run, since --updates
    alone ends before the flusher gets a CPU on a busy machine.  Checked
    against the engine's own counts: a flush member with at least 0.11% of
    all accesses comes back read-mostly (rstat_css_list) or hot-write
    (last_bstat, bstat), one under 0.09% cold."""
    prof = os.path.join(TMP, 'cgroup.json')
    d = engine_json(obj(), 'cgroup', '--threads', '2', '--seconds', '0.3', '--write-profile', prof)
    p = subprocess.run([SL, 'report', obj(), 'cgroup', '--samples', prof, '--min-share', '0.001',
                        '--json'], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    cls = {m['name']: m['class'] for m in json.loads(p.stdout)['members']}
    assert cls['rstat_cpu'] == 'read-mostly', cls
    acc = sum(a['loads'] + a['stores'] for a in d['accesses'])
    fl = {m: sum(a['loads'] + a['stores'] for a in d['accesses'] if a['member'] == m)
          for m in ('rstat_css_list', 'last_bstat', 'bstat')}
    for m, n in fl.items():
        # the classifier's rule: cold under min_share of all accesses
        # (a 10% band around the threshold is not asserted)
        if n >= 0.0011 * acc:
            assert cls[m] == ('read-mostly' if m == 'rstat_css_list' else 'hot-write'), (m, cls)
        elif n < 0.0009 * acc:
            assert cls[m] == 'cold', (m, n, acc, cls)


def case_replay_writers():
    """replay of a profile that names CPUs: each hot member's writer is
    the CPU that stored to it most, CPUs mapped to threads in order of first
    appearance (member order): CPU 7 writes rx_*, CPU 3 tx_* (and a little
    of rx_bytes): rx on thread 0, tx on thread 1, never rx_packets and
    tx_packets on one thread as round-robin by member order did."""
    src = os.path.join(TMP, 'net.c')
    with open(src, 'w') as f:
        f.write('struct netstats { unsigned long rx_packets, rx_bytes, tx_packets, tx_bytes;'
                ' void *dev; char cold[88]; };\nstruct netstats net_instance;\n')
    o = os.path.join(TMP, 'net.o')
    subprocess.run([CC, '-g', '-c', '-o', o, src], check=True)

    def mem(name, off, rows):
        return {'member': name, 'offset': off, 'rows': [dict(cpu=c, **v) for c, v in rows],
                'loads': sum(v.get('loads', 0) for _, v in rows),
                'stores': sum(v.get('stores', 0) for _, v in rows)}
    prof = {'schema': 'structlint.profile/v1', 'tool': 'test', 'cacheline_size': 64,
            'structs': [{'type': 'netstats', 'members': [
                mem('rx_packets', 0, [(7, {'stores': 1000})]),
                mem('rx_bytes', 8, [(3, {'stores': 10}), (7, {'stores': 1000})]),
                mem('tx_packets', 16, [(3, {'stores': 1000})]),
                mem('tx_bytes', 24, [(3, {'stores': 1000})]),
                mem('dev', 32, [(3, {'loads': 2000}), (7, {'loads': 2000})])]}]}
    path = os.path.join(TMP, 'net.json')
    with open(path, 'w') as f:
        json.dump(prof, f)
    # the measured pattern: each CPU's own stores on its own thread (CPU 3's
    # few stores to rx_bytes too), CPUs in order of first appearance
    for threads, tx in ((2, 1), (3, 1), (1, 0)):
        d = engine_json(o, 'netstats', '--samples', path, '--threads', str(threads),
                        '--updates', '5000', '--seconds', '600')
        assert d['mode'] == 'replay', d['mode']
        w = {m: sorted({a['thread'] for a in d['accesses'] if a['member'] == m and a['stores']})
             for m in ('rx_packets', 'rx_bytes', 'tx_packets', 'tx_bytes')}
        assert w == {'rx_packets': [0], 'rx_bytes': sorted({0, tx}), 'tx_packets': [tx],
                     'tx_bytes': [tx]}, (threads, w)
    # one thread per CPU of the profile when --threads is not given
    d = engine_json(o, 'netstats', '--samples', path, '--updates', '5000', '--seconds', '600')
    assert d['options']['threads'] == 2, d['options']


def out_rows(path):
    """(offset, size, thread) -> (loads, stores) of a profile."""
    with open(path) as f:
        d = json.load(f)
    rows = {}
    for st in d['structs']:
        for m in st['members']:
            for r in m['rows']:
                k = (m['offset'], r.get('size'), r['cpu'])
                rows[k] = (r.get('loads', 0), r.get('stores', 0))
    return rows


def replay_rows(o, struct, name, prof, updates):
    """engine O STRUCT --samples (prof written as NAME.json) --write-profile:
    its JSON and out_rows() of the profile it wrote."""
    path, out = os.path.join(TMP, name + '.json'), os.path.join(TMP, name + '-out.json')
    with open(path, 'w') as f:
        json.dump(prof, f)
    d = engine_json(o, struct, '--samples', path, '--updates', str(updates), '--seconds', '600',
                    '--write-profile', out)
    return d, out_rows(out)


def case_exact_offsets():
    """A measured pattern replays at the profile's exact offsets and widths,
    per CPU, at its rates: the engine's own profile of the run (exact
    counts) holds the same (offset, width, CPU) records, each count the
    input's times one factor; never a whole member, never a line the
    profile did not touch.  Odd offsets and widths, one access straddling
    two members' bytes cut at the member end.  Stats mode (built-in map):
    the updaters' stores are the profile's stores, nothing else."""
    src = os.path.join(TMP, 'ex.c')
    with open(src, 'w') as f:
        f.write('struct ex { unsigned long a; unsigned int b, c; unsigned short d[4]; '
                'char e[40]; long f[8]; };\nstruct ex ex_instance;\n')
    o = os.path.join(TMP, 'ex.o')
    subprocess.run([CC, '-g', '-c', '-o', o, src], check=True)
    # (offset, size, cpu, loads, stores)
    want = [(0, 8, 5, 0, 3), (12, 4, 5, 2, 0), (18, 2, 9, 4, 0), (33, 1, 9, 0, 2),
            (64, 8, 9, 0, 1), (120, 8, 5, 1, 0)]
    prof = {'schema': 'structlint.profile/v1', 'tool': 'test', 'cacheline_size': 64,
            'structs': [{'type': 'ex', 'members': [
                {'offset': off, 'rows': [dict(cpu=c, size=w, **({'loads': l} if l else {}),
                                             **({'stores': st} if st else {}))]}
                for off, w, c, l, st in want]}]}
    d, got = replay_rows(o, 'ex', 'ex', prof, 10000)
    assert d['mode'] == 'replay' and d['options']['threads'] == 2, d['options']
    # CPU 5 touches offset 0 first: thread 0; CPU 9 thread 1
    thread = {5: 0, 9: 1}
    exp = {(off, w, thread[c]): (l, st) for off, w, c, l, st in want}
    assert set(got) == set(exp), (sorted(got), sorted(exp))
    k = got[(0, 8, 0)][1] // 3
    assert k > 0 and all(got[key] == (l * k, st * k) for key, (l, st) in exp.items()), (got, k)

    # stats: the built-in memcg map on the 6.1 miniature, stores from a
    # profile at two odd offsets inside lruvec and one in lru_zone_size
    want = [(40, 8, 2), (1000, 4, 6), (2300, 8, 6)]
    prof = {'schema': 'structlint.profile/v1', 'tool': 'test', 'cacheline_size': 64,
            'structs': [{'type': 'mem_cgroup_per_node', 'members': [
                {'offset': off, 'rows': [{'cpu': c, 'size': w, 'stores': 5}]}
                for off, w, c in want]}]}
    d, got = replay_rows(obj(), 'mem_cgroup_per_node', 'memcg', prof, 4000)
    assert d['mode'] == 'stats' and d['options']['threads'] == 2, d['options']
    stores = {(off, w, t) for (off, w, t), (l, st) in got.items() if st and t < 2}
    # CPU 2 first at offset 40: thread 0; CPU 6 thread 1
    assert stores == {(40, 8, 0), (1000, 4, 1), (2300, 8, 1)}, sorted(stores)
    # equal counts in, equal counts out (one store per 4th update, in turn)
    n = {st for (off, w, t), (l, st) in got.items() if st and t < 2 and (off, w) != (40, 8)}
    assert len(n) == 1, got


def case_pattern_subscript():
    """A profile entry naming an element by a subscripted path ("f[3]",
    no offset) replays on that element's bytes, as the join places it
    (the engine's own exact-match lookup missed it, and the replay fell
    back to the joined profile's cells: both CPUs at f's first byte)."""
    src = os.path.join(TMP, 'sub.c')
    with open(src, 'w') as f:
        f.write('struct sub { long a; long f[8]; };\nstruct sub sub_instance;\n')
    o = os.path.join(TMP, 'sub.o')
    subprocess.run([CC, '-g', '-c', '-o', o, src], check=True)
    prof = {'schema': 'structlint.profile/v1', 'tool': 'test', 'cacheline_size': 64,
            'structs': [{'type': 'sub', 'members': [
                {'member': 'f[3]', 'rows': [{'cpu': 1, 'size': 8, 'stores': 2}]},
                {'member': 'f[0]', 'rows': [{'cpu': 2, 'size': 8, 'stores': 2}]}]}]}
    d, got = replay_rows(o, 'sub', 'sub', prof, 1000)
    assert d['mode'] == 'replay', d['mode']
    # CPU 2 first in offset order (f[0] at 8): thread 0; CPU 1 (f[3] at 32) thread 1
    assert {k for k, (l, st) in got.items() if st} == {(8, 8, 0), (32, 8, 1)}, sorted(got)


def case_mode_rule():
    """validate's rule: the built-in map when the struct has one (classes
    given or not), the replay with --replay or for another struct; the
    stats engine's options refused in replay mode."""
    p = run(obj(), 'mem_cgroup_per_node', '--classes', MEMCG61, *SHORT, '--json')
    assert p.returncode == 0 and json.loads(p.stdout)['mode'] == 'stats', p.stderr
    assert 'built-in role map' in p.stderr and '--replay' in p.stderr, p.stderr
    d = engine_json(obj(), 'mem_cgroup_per_node', '--classes', MEMCG61, '--replay', *SHORT)
    assert d['mode'] == 'replay', d['mode']
    d = engine_json(obj(), 'mem_cgroup_per_node', *SHORT)
    o = d['options']
    assert (o['batch'], o['flush'], o['depth']) == (64, 'pop', 3), o   # 5.15-rc1's
    assert d['stats']['mode'] == '5.15-rc1' and not d['stats']['counters']['from_file'], d['stats']
    for opts, names in ((['--batch', '32'], '--batch: applies'),
                        (['--flush', 'pop', '--depth', '2'], '--flush, --depth: apply'),
                        (['--fanout', '2', '--write-every', '2'], '--fanout, --write-every: apply')):
        bad([obj(), 'mem_cgroup_per_node', '--replay', '--classes', MEMCG61, *opts, *SHORT], names)
    bad([obj(), 'mem_cgroup_per_node', '--replay', *SHORT], 'nothing to replay')
    bad([obj(), 'mem_cgroup_per_node', '--replay', '--builtin', 'cgroup'], '--replay')
    p = run(obj(), 'mem_cgroup_per_node', '--help')
    assert '--replay' in p.stdout, p.stdout


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
    # a kernel outside the built-in maps (6.18's cgroup has no rstat_cpu):
    # the FILE in front and the way out in the hint
    bad([o, 'mem_cgroup_per_node', '--builtin', 'cgroup'], o + ': struct mem_cgroup_per_node has')
    bad([o, 'mem_cgroup_per_node', '--builtin', 'cgroup'], 'cover Linux 6.1 to 6.12')
    bad([o, 'mem_cgroup_per_node', '--builtin', 'cgroup'], '--replay')
    # a struct without a built-in map and nothing to replay
    bad([o, 'list_head'], 'no built-in role map for struct list_head: give --classes or --samples')
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
    # --pretty implies --json (one rule for every command, as bpftool's -p)
    q = run(o, 'mem_cgroup_per_node', '--pretty', '--threads', '1', '--updates', '100')
    assert q.returncode == 0 and q.stdout.startswith('{\n'), (q.returncode, q.stdout[:200])
    assert json.loads(q.stdout)['schema'].startswith('structlint.engine/'), q.stdout[:200]
    for u in ('0', 'x', '-1', '1000000000001'):
        bad([o, 'mem_cgroup_per_node', '--updates', u], "--updates '%s'" % u)
    assert '--updates' in p.stdout
    # a cap that ends the run before the updates are done says so
    p = run(o, 'mem_cgroup_per_node', '--threads', '1', '--updates', '1000000000000',
            '--seconds', '0.01')
    assert p.returncode == 0 and 'the --seconds cap (0.01 s) ended the run' in p.stderr, p.stderr



if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
