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

from test_validate import (CC, SHORT, SL, bad_obj, classes, prog_tree, PROG_C)

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


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
