#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`structlint validate` after a new user's trial (issue 14): a broken
build fails before any engine run, the verdict uses only rounds whose own
overlap meets the floor, --realtime says what RT throttling does and shows
progress, inputs are checked before any run, options that do not apply to
the run are refused.  Short runs; never timing (a hang guard only, where
the old behaviour would run for hours).

    test_validate_trial.py --list          case names
    test_validate_trial.py CASE            run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC (compiler).
"""
import json
import os
import subprocess
import sys
import threading
import time

from test_validate import (CC, SHORT, SL, PROG_C, bad_obj, check_numbers, classes, prog_tree)

# engine runs that would take years: a test that reaches them hangs (and
# its guard timeout fails it) instead of passing
FOREVER = ['--rounds', '10000', '--seconds', '3600', '--warmup', '0']
GUARD_S = 240


def sl(*args, **kw):
    return subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=GUARD_S, **kw)


def case_build_first():
    """--source-root/--build/--run: both copies are built before the engine
    runs, so a broken build fails at once (exit 2) with its output's last
    lines and the step named, not after the engine's rounds (the trial:
    minutes of replay, then 'building A failed')."""
    src, obj = prog_tree('prog_bf', PROG_C)
    base = ['validate', obj, 'bad_stats', '--classes', classes(), '--source-root', src,
            '--run', 'true'] + FOREVER
    for build, side, said in (('echo "main.c:1: error: broken on purpose" >&2; exit 1', 'A',
                               'main.c:1: error: broken on purpose'),
                              ('test "$STRUCTLINT_SIDE" = A || { echo "B: undefined x" >&2; exit 3; }',
                               'B', 'B: undefined x')):
        p = sl(*base, '--build', build)
        assert p.returncode == 2 and p.stdout == '', (p.returncode, p.stdout, p.stderr)
        lines = p.stderr.rstrip('\n').split('\n')
        assert lines[-1].startswith('structlint: ') and 'building %s failed' % side in lines[-1], lines
        assert '  | ' + said in lines[:-1], lines
    # a long build log: its last 12 lines only
    p = sl(*base, '--build', 'seq 1 100; exit 1')
    lines = p.stderr.rstrip('\n').split('\n')
    assert lines[:-1] == ['  | %d' % i for i in range(89, 101)], lines


def case_kept_rounds():
    """Only rounds whose two runs both overlapped at least the floor count:
    the medians, both intervals and the verdict are of those rounds (3 or
    more), else no verdict; the text says how many were kept.  Some rounds
    are made to overlap little by confining validate's main thread (whose
    CPU mask each run's updaters inherit) to one CPU for a while, then
    freeing it, over and over; the rule is checked on whatever rounds
    that gives (check_numbers), never on timing.  (Old code: the medians
    and interval of all rounds, a median-overlap floor, no 'kept'.)"""
    cpus = sorted(os.sched_getaffinity(0))
    args = ['validate', '--json', bad_obj(), 'bad_stats', '--classes', classes(),
            '--rounds', '8'] + SHORT[2:]
    p = subprocess.Popen([SL] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stop = threading.Event()

    def toggle():
        one = True
        while not stop.wait(0.35):
            try:
                os.sched_setaffinity(p.pid, {cpus[0]} if one else set(cpus))
            except OSError:
                return
            one = not one
    t = threading.Thread(target=toggle)
    t.start()
    try:
        out, err = p.communicate(timeout=GUARD_S)
    finally:
        stop.set()
        t.join()
    assert p.returncode == 0, err
    d = json.loads(out)
    check_numbers(d, 8)
    ov = d['overlap']
    if ov['kept_rounds'] < 3:
        assert d['verdict'] == 'no verdict' and ov['low'], d
        assert '(%d of 8 had it)' % ov['kept_rounds'] in d['reason'], d['reason']
    # the text names the count
    t = sl(*[a for a in args if a != '--json'], '--min-overlap', '0').stdout
    assert 'rounds kept: 8 of 8 (both runs at or over the floor' in t, t


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
