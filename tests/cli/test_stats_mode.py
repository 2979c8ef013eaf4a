#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The kernel stats modes of `structlint engine` and `validate` (engine.h,
"Kernel stats modes"): the mode chosen from the kernel version the FILE
says (its linux_banner), the flush work counted from the FILE's counters
(fixtures/engine/kver.c: 7 node, 9 memcg, 3 event counters, numbers no
kernel has), --stats-mode over the FILE, a FILE of a kernel before the
memcg stats flush refused.  Fixed update counts (--updates), never timing.

    test_stats_mode.py --list          case names
    test_stats_mode.py CASE            run one case (exit 0 pass, 1 fail)
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
TMP = tempfile.mkdtemp(prefix='slt-kmode-')
N = 20000
EXACT = ['--synthetic', '--threads', '2', '--updates', str(N), '--seconds', '600']
COUNTERS = {'node_items': 7, 'memcg_items': 9, 'event_items': 3, 'from_file': True}


def kernel(kver):
    """seed.c's 6.1 mem_cgroup_per_node with kver.c's banner and structs,
    as a shared object (an ELF whose symbols have addresses)."""
    out = os.path.join(TMP, 'k-%s.so' % kver)
    if not os.path.exists(out):
        subprocess.run([CC, '-g', '-shared', '-fPIC', '-o', out, '-DKVER="%s"' % kver,
                        os.path.join(ROOT, 'fixtures', 'report', 'seed.c'),
                        os.path.join(ROOT, 'fixtures', 'engine', 'kver.c')], check=True)
    return out


def run(cmd, *args):
    return subprocess.run([SL, cmd] + [str(a) for a in args], capture_output=True,
                          text=True, timeout=120)


def engine(kver, *args):
    p = run('engine', kernel(kver), 'mem_cgroup_per_node', *EXACT, *args, '--json')
    assert p.returncode == 0, (p.returncode, p.stderr)
    return json.loads(p.stdout)


def check_work(d):
    """flush work = flushed (group, CPU) pairs x the FILE's counters"""
    st = d['stats']
    assert st['counters'] == COUNTERS, st['counters']
    assert st['counters_visited'] == d['flushed_groups'] * 19, (st, d['flushed_groups'])
    assert d['flushed_groups'] > 0


def case_from_banner_61():
    d = engine('6.1.0-57-cloud-amd64')
    st = d['stats']
    assert st['mode'] == '6.1' and st['why'] == 'linux_banner: Linux 6.1.0-57-cloud-amd64', st
    assert d['options']['flush'] == 'pop', d['options']   # aggregation under the per-CPU lock
    check_work(d)
    # every 64th update of each thread reads the stats (read_every = batch)
    assert st['read_every'] == 64 and st['reader_checks'] == 2 * (N // 64), st
    assert d['batch_crossings'] == 0 and st['worker_flushes'] == 0, (d['batch_crossings'], st)
    # the global threshold: a reader flushes once > 2 (CPUs) batches of
    # 65 pages are pending, so at most one flush per 3 x 65 updates
    assert 0 < st['reader_flushes'] <= 2 * N // (3 * 65) + 1, st


def case_from_banner_mainline():
    d = engine('6.12.118+deb12-cloud-amd64')
    st = d['stats']
    assert st['mode'] == 'mainline' and 'Linux 6.12.118' in st['why'], st
    assert d['options']['flush'] == 'list', d['options']
    check_work(d)
    assert st['reader_checks'] == 2 * (N // 64) and st['flush_busy'] == 0, st
    # the root's stats_updates must pass 64 x 2 pages per flush
    assert 0 < st['reader_flushes'] <= 2 * N // 128 + 1, st


def case_from_banner_515():
    d = engine('5.15.0-rc1')
    st = d['stats']
    assert st['mode'] == '5.15-rc1', st
    check_work(d)
    # the queued flush: every 64th update of a CPU; no readers
    assert d['batch_crossings'] == 2 * (N // 64) and st['reader_checks'] == 0, (d['batch_crossings'], st)
    assert st['read_every'] is None, st
    # 6.1 from 5.15-rc6 on (the threshold) and for the release
    assert engine('5.15.0-rc6')['stats']['mode'] == '6.1'
    assert engine('5.15.0')['stats']['mode'] == '6.1'


def case_option_over_file():
    d = engine('6.1.0-57-cloud-amd64', '--stats-mode', 'mainline')
    assert d['stats']['mode'] == 'mainline' and d['stats']['why'] == '--stats-mode', d['stats']
    check_work(d)
    d = engine('6.1.0-57-cloud-amd64', '--stats-mode', 'auto', '--flush', 'list')
    assert d['stats']['mode'] == '6.1' and d['options']['flush'] == 'list', (d['stats'], d['options'])
    # text names the mode and its source
    p = run('engine', kernel('6.1.0-57-cloud-amd64'), 'mem_cgroup_per_node', *EXACT)
    assert p.returncode == 0, p.stderr
    assert 'stats mode: 6.1 (linux_banner: Linux 6.1.0-57-cloud-amd64); 7 node + 9 memcg + 3 event' in p.stdout, p.stdout
    assert 'locks: ' in p.stdout and 'by: worker 0, readers ' in p.stdout, p.stdout


def case_locks():
    """spinning locks while every thread that takes them often has a CPU:
    the updaters, and in 5.15-rc1 also the flush worker they wake"""
    ncpu = len(os.sched_getaffinity(0))

    def locks(kver, threads):
        p = run('engine', kernel(kver), 'mem_cgroup_per_node', '--synthetic', '--threads', threads,
                '--updates', '2000', '--seconds', '600', '--json')
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)['stats']['locks']
    assert locks('6.1.0', ncpu) == 'spin'
    assert locks('6.1.0', ncpu + 1) == 'mutex'
    assert locks('5.15.0-rc1', ncpu) == 'mutex'
    if ncpu > 1:
        assert locks('5.15.0-rc1', ncpu - 1) == 'spin'


def case_too_old():
    p = run('engine', kernel('5.10.0-30-amd64'), 'mem_cgroup_per_node', *EXACT)
    assert p.returncode == 2 and 'predates the memcg stats flush' in p.stderr, (p.returncode, p.stderr)
    assert '--stats-mode' in p.stderr and len(p.stderr.strip().splitlines()) <= 2, p.stderr
    d = engine('5.10.0-30-amd64', '--stats-mode', '6.1')
    assert d['stats']['mode'] == '6.1'
    p = run('engine', kernel('6.1.0'), 'mem_cgroup_per_node', *EXACT, '--stats-mode', '6.2')
    assert p.returncode == 2 and "--stats-mode '6.2'" in p.stderr, p.stderr


def case_validate_from_a():
    """validate: the mode of A's FILE, printed and in the JSON."""
    k = kernel('6.12.0-fixture')
    p = run('validate', k, 'mem_cgroup_per_node', '--synthetic', '--against',
            kernel('6.1.0-fixture') + ':mem_cgroup_per_node', '--rounds', '1', '--seconds', '0.05',
            '--warmup', '0', '--threads', '2', '--json')
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d['stats']['mode'] == 'mainline' and d['stats']['counters'] == COUNTERS, d['stats']
    assert d['options']['flush'] == 'list', d['options']
    p = run('validate', k, 'mem_cgroup_per_node', '--synthetic', '--against',
            k + ':mem_cgroup_per_node', '--rounds', '1', '--seconds', '0.05', '--warmup', '0',
            '--threads', '2')
    assert p.returncode == 0, p.stderr
    assert '  stats mode: mainline (linux_banner: Linux 6.12.0-fixture); 7 node' in p.stdout, p.stdout



if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
