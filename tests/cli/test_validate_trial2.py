#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`structlint validate` after a second new user's trial (issue 14):
--realtime on one CPU finishes (no real-time thread waits by yielding for a
lower-priority one), positional initializers are warned about, sensitivity
skips knobs that do not apply, profile rows with unknown keys are warned
about.  Short runs; never timing (a hang guard only, where the old
behaviour hung).

    test_validate_trial2.py --list          case names
    test_validate_trial2.py CASE            run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC (compiler).
"""
import os
import subprocess

from test_validate import ROOT, SL
from test_validate_trial import rt_allowed
from test_stats_mode import kernel

GUARD_S = 120


def sl(*args, **kw):
    return subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=GUARD_S, **kw)


def one_cpu():
    cpu = min(os.sched_getaffinity(0))
    return lambda: os.sched_setaffinity(0, {cpu})


def case_realtime_one_cpu():
    """--realtime with the flusher (SCHED_RR 2) and an updater (1) on one
    CPU finishes: the start barrier blocks instead of yielding (the old
    flusher yielded there for ever, an RR yield giving the CPU only to an
    equal priority; the trial's run: killed by timeout 15, sys 13 s).  More
    updaters than allowed CPUs under --realtime: refused, one line, exit 2."""
    if not rt_allowed():
        print('skip: SCHED_RR not allowed here (run as root or give CAP_SYS_NICE)')
        return
    # the trial's command on a 6.1 fixture (a stats run: updaters and
    # the flusher)
    base = ['validate', kernel('6.1.0'), 'mem_cgroup_per_node', '--synthetic', '--classes',
            os.path.join(ROOT, 'fixtures', 'classes', 'mem_cgroup_per_node-6.1.classes'),
            '--realtime', '--rounds', '3', '--seconds', '0.1', '--warmup', '0']
    try:
        p = sl(*base, '--threads', '1', preexec_fn=one_cpu())
    except subprocess.TimeoutExpired:
        raise AssertionError('--realtime on one CPU hung (%d s guard)' % GUARD_S)
    assert p.returncode == 0, p.stderr
    assert 'verdict: ' in p.stdout, p.stdout
    p = sl(*base, '--threads', '2', preexec_fn=one_cpu())
    errs = [l for l in p.stderr.split('\n') if l.startswith('structlint: --realtime')]
    assert p.returncode == 2 and len(errs) == 1, p.stderr
    assert '2 threads but 1 allowed CPU' in errs[0] and 'drop --realtime' in errs[0], errs


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
