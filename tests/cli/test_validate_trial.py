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

from test_validate import (CC, SHORT, SL, PROG_C, TMP, bad_obj, check_numbers, classes, compile_c,
                           prog_tree, seed, OTHER_C)

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


def rt_throttled():
    """(runtime, period) of the kernel's RT throttling when it is on."""
    try:
        with open('/proc/sys/kernel/sched_rt_runtime_us') as f:
            runtime = int(f.read())
        with open('/proc/sys/kernel/sched_rt_period_us') as f:
            period = int(f.read())
    except (OSError, ValueError):
        return None
    return (runtime, period) if 0 <= runtime < period else None


def rt_allowed():
    try:
        os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(2))
    except (OSError, AttributeError):
        return False
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    return True


def case_realtime_throttle():
    """--realtime with the kernel's RT throttling on (runtime < period, the
    default 950000 of 1000000): one warning, before the runs, with the
    figures, what they do to the run and how to lift them; none without
    --realtime.  (Old code: silent, the runs just took longer.)"""
    thr = rt_throttled()
    if not thr or not rt_allowed():
        print('skip: RT throttling off, or SCHED_RR not allowed here')
        return
    base = ['validate', bad_obj(), 'bad_stats', '--classes', classes()] + SHORT
    p = sl(*base, '--realtime', '--seconds', '0.05')
    assert p.returncode == 0, p.stderr
    warn = [l for l in p.stderr.split('\n') if 'throttles real-time threads' in l]
    assert len(warn) == 1 and warn[0].startswith('structlint: warning: --realtime: '), p.stderr
    assert 'sched_rt_runtime_us %d of sched_rt_period_us %d' % thr in warn[0], warn
    assert 'stopped for %.0f ms of every %.0f ms' % ((thr[1] - thr[0]) / 1e3, thr[1] / 1e3) in warn[0], warn
    p = sl(*base, '--seconds', '0.05')
    assert 'throttles' not in p.stderr, p.stderr
    # engine --realtime says it too
    p = sl('engine', bad_obj(), 'bad_stats', '--classes', classes(), '--threads', '2',
           '--seconds', '0.05', '--realtime')
    assert p.returncode == 0 and 'throttles real-time threads' in p.stderr, p.stderr


def case_progress_tty():
    """On a terminal, validate shows which round of how many it is at, for
    the engine's rounds and the program's (--realtime too, where a run
    can take long); nothing on a pipe."""
    import pty
    src, obj = prog_tree('prog_tty', PROG_C)
    args = [SL, 'validate', '--json', obj, 'bad_stats', '--classes', classes(), '--source-root', src,
            '--build', CC + ' -o prog main.c', '--run', './prog', '--rounds', '3',
            '--seconds', '0.05'] + SHORT[4:] + (['--realtime'] if rt_allowed() else [])
    master, slave = pty.openpty()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    err = b''
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    out = p.communicate(timeout=GUARD_S)[0]
    os.close(master)
    assert p.returncode == 0, err
    err = err.decode()
    for i in (1, 2, 3):
        assert 'validate: round %d/3, ' % i in err, err
        assert 'your program: round %d/3' % i in err, err
    assert json.loads(out)['program']['rounds'] == 3
    p = subprocess.run(args, capture_output=True, text=True, timeout=GUARD_S)
    assert 'round 1/3' not in p.stderr, p.stderr


def case_inputs_first():
    """Every input is checked before A's samples are read and any run
    starts: a typo in --against's FILE or STRUCT, a --source-root that is
    not a directory.  A's --samples here is a FIFO nobody writes: reading
    it would block, so a check made after it (the old order: A loaded,
    its samples joined, the analysis run, then B loaded) hangs until the
    guard; in the right order the error comes first (exit 2, one line)."""
    fifo = os.path.join(TMP, 'samples.fifo')
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    o = bad_obj()
    other = compile_c('other', OTHER_C)
    for against, what in ((other + ':bad_statz', "no struct or union named 'bad_statz'"),
                          (os.path.join(TMP, 'no-such.o') + ':bad_stats', 'no-such.o')):
        p = sl('validate', o, 'bad_stats', '--samples', fifo, '--against', against, *FOREVER)
        assert p.returncode == 2 and p.stdout == '', (against, p.returncode, p.stderr)
        err = p.stderr.strip().split('\n')
        assert len(err) == 1 and what in err[0], err
    src, obj = prog_tree('prog_in', PROG_C)
    p = sl('validate', obj, 'bad_stats', '--samples', fifo, '--source-root', os.path.join(src, 'main.c'),
           '--build', 'true', '--run', 'true', *FOREVER)
    assert p.returncode == 2 and 'main.c: not a directory' in p.stderr, p.stderr
    p = sl('validate', obj, 'bad_stats', '--samples', fifo, '--source-root', os.path.join(TMP, 'nodir'),
           '--build', 'true', '--run', 'true', *FOREVER)
    assert p.returncode == 2 and 'no such directory' in p.stderr, p.stderr


def case_options_apply():
    """Options that would change nothing in the chosen run are refused with
    one line (exit 2), before any run, in validate and engine alike:
    --synthetic (the invented hot-write pattern) for the cgroup map, which
    has no hot-write member, and in replay mode; --write-every for the
    cgroup map.  (Old code: accepted silently, the run as without them.)"""
    a, b = seed(False), seed(True)
    cg = ['validate', a, 'cgroup', '--against', b + ':cgroup'] + FOREVER
    for opt, msg in ((['--synthetic'], "--synthetic: struct cgroup's role map has no hot-write member"),
                     (['--write-every', '8'], "--write-every: struct cgroup's role map has no hot-write member")):
        for args in (cg, ['engine', a, 'cgroup', '--seconds', '3600']):
            p = sl(*args, *opt)
            err = p.stderr.strip().split('\n')
            assert p.returncode == 2 and p.stdout == '' and len(err) == 1, (args, opt, p.stderr)
            assert err[0].startswith('structlint: ' + msg) and 'drop ' + opt[0] in err[0], err
    p = sl('validate', bad_obj(), 'bad_stats', '--classes', classes(), '--synthetic', *FOREVER)
    assert p.returncode == 2 and 'struct bad_stats runs in replay mode (drop --synthetic)' in p.stderr, \
        p.stderr
    # where it applies it is taken: the memcg map's hot-write members
    p = sl('validate', '--json', a, 'mem_cgroup_per_node', '--synthetic', '--write-every', '8',
           '--against', b + ':mem_cgroup_per_node', *SHORT, '--seconds', '0.05')
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d['options']['write_every'] == 8 and d['pattern'].startswith('synthetic: the engine'), d


def case_bench_only():
    """bench/validate.sh takes --realtime and --only TEXT (a row whose label
    contains TEXT; here none, so no run at all): the table's header and
    footer, exit 0; an unknown option is exit 2.  (Old script: '--only'
    taken for the build directory, exit 2.)"""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    bench = os.path.join(root, 'bench', 'validate.sh')
    build = os.path.dirname(SL)
    p = subprocess.run(['bash', bench, '--realtime', '--only', 'no such row', build],
                       capture_output=True, text=True, timeout=GUARD_S)
    assert p.returncode == 0, (p.returncode, p.stderr)
    lines = p.stdout.split('\n')
    assert lines[0].startswith('bench/validate: ') and 'engine threads SCHED_RR (--realtime)' in lines[0], lines
    assert any(l.startswith('case ') for l in lines) and 'rounds kept' not in p.stdout, p.stdout
    p = subprocess.run(['bash', bench, '--bogus'], capture_output=True, text=True, timeout=GUARD_S)
    assert p.returncode == 2 and 'unknown option --bogus' in p.stderr, p.stderr


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
