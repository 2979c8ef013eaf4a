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
import json
import os
import subprocess

from test_validate import CC, PROG_C, ROOT, SHORT, SL, TMP, bad_obj, classes, prog_tree, seed, write
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
    # refused before anything else is said (old: the RT-throttling warning first)
    assert p.stderr.strip().count('\n') == 0, p.stderr


# the trial's program: a positional initializer (and forms that are not)
POS_C = PROG_C.replace('struct bad_stats bad_instance;', r'''struct bad_stats bad_instance;
/* struct bad_stats in_comment = { 1, 0, 2 }; */
static const char *s = "struct bad_stats in_string = { 1 }";
struct bad_stats zero = { 0 }, empty = {};
struct bad_stats named = { .hits = 1, .misses = 2 };
struct bad_stats named_arr[2] = { { .hits = 1 }, [1] = { .misses = 2 } };
struct bad_stats g_stats = { 0, 0, 0,
	0 };  /* compiles in A and B alike: the test times no result */
struct bad_stats arr[] = {
	{ 0, 0 },
};
void *p(void) { return &(struct bad_stats){ 0, 0 }; }
''')


def case_positional_init():
    """--source-root: a positional initializer of the struct (the trial's
    `struct stats g_stats = { "demo", 1L << 40, 0, 0, 7 }`, which a reorder
    silently changes) is warned about with FILE:LINE, in suggest and in
    validate, whose program run is refused (exit 2) unless
    --allow-positional; designated, `{ 0 }`, `{}`, comments and strings are
    not.  (Old code: no word; B computed something else.)"""
    src, obj = prog_tree('prog_pos', POS_C)
    os.makedirs(os.path.join(src, 'sub'), exist_ok=True)
    write('prog_pos/sub/other.c', '#include "../stats.h"\nstruct bad_stats o = {\n 5 };\n')
    want = ['%s/main.c:%d' % (src, n) for n in (10, 12, 15)] + ['%s/sub/other.c:2' % src]

    def warned(err):
        w = [l for l in err.split('\n') if l.startswith('structlint: warning: ') and
             'a reorder changes what this initializes: use designated initializers' in l]
        return [l[len('structlint: warning: '):].split(': ')[0] for l in w]
    p = sl('suggest', obj, 'bad_stats', '--classes', classes(), '--source-root', src)
    assert p.returncode in (0, 1) and warned(p.stderr) == want, (warned(p.stderr), p.stderr)
    base = ['validate', obj, 'bad_stats', '--classes', classes(), '--source-root', src,
            '--build', CC + ' -o prog main.c', '--run', './prog', '--rounds', '3',
            '--min-overlap', '0'] + SHORT[2:]
    p = sl(*base)
    assert p.returncode == 2 and warned(p.stderr) == want, p.stderr
    last = p.stderr.strip().split('\n')[-1]
    assert 'initialized positionally in 4 places' in last and '--allow-positional' in last, last
    assert 'verdict' not in p.stdout, p.stdout
    p = sl(*base, '--allow-positional')
    assert p.returncode == 0 and warned(p.stderr) == want, p.stderr
    # none: no warning
    src2, obj2 = prog_tree('prog_nopos', PROG_C)
    p = sl('suggest', obj2, 'bad_stats', '--classes', classes(), '--source-root', src2)
    assert not warned(p.stderr), p.stderr



def case_positional_typedef():
    """--source-root: a positional initializer through a typedef name of
    the struct (`typedef struct NAME A;` in a header, `typedef struct NAME
    {...} B;`; `static A x = { 7, 8 }`, `(B){ 1 }`, in files that never
    write `struct NAME`) is warned about; a designated one and a pointer
    typedef are not.  (Old code: no word.)"""
    src, obj = prog_tree('prog_tdef', PROG_C)
    write('prog_tdef/tdef.h', '#include "stats.h"\ntypedef struct bad_stats bs_t, *bs_p;\n'
          'typedef struct bad_stats_other { int x; } other_t;\n')
    write('prog_tdef/use.c', '#include "tdef.h"\nstatic bs_t via_typedef = { 7, 8 };\n'
          'static bs_t named = { .hits = 1 };\nstatic bs_p ptr = 0;\n'
          'static other_t o = { 1 };\n'
          'void *f(void) { return &(bs_t){ 1 }; }\n')
    os.makedirs(os.path.join(src, 'sub'), exist_ok=True)
    write('prog_tdef/sub/def.h', 'typedef struct bad_stats {\n long q; } bs2_t;\n')
    write('prog_tdef/sub/use2.c', '#include "def.h"\nbs2_t arr[] = { { 1 } };\n')
    want = ['%s/%s' % (src, w) for w in ('sub/use2.c:2', 'use.c:2', 'use.c:6')]
    p = sl('suggest', obj, 'bad_stats', '--classes', classes(), '--source-root', src)
    w = [l[len('structlint: warning: '):].split(': ')[0] for l in p.stderr.split('\n')
         if l.startswith('structlint: warning: ') and 'initialized positionally' in l]
    assert p.returncode in (0, 1) and w == want, (w, p.stderr)



def case_bench_none_kept():
    """bench/validate.sh with no round kept (one CPU: the updaters never
    overlap) says the figures are of all the rounds, not of the kept ones
    (old: 'rounds kept: 0 of 3 (...the figures above are of these)')."""
    bench = os.path.join(ROOT, 'bench', 'validate.sh')
    env = dict(os.environ, VALIDATE_ROUNDS='3', VALIDATE_SECONDS='0.05')
    p = subprocess.run(['bash', bench, '--only', '(profile)', os.path.dirname(SL)], env=env,
                       capture_output=True, text=True, timeout=GUARD_S, preexec_fn=one_cpu())
    assert p.returncode == 0, p.stderr
    kept = [l.strip() for l in p.stdout.split('\n') if 'rounds kept: ' in l]
    assert len(kept) == 1 and kept[0].startswith('rounds kept: 0 of 3 '), kept
    assert 'figures above are of all 3 rounds' in kept[0] and 'of these' not in kept[0], kept



def case_sensitivity_skips():
    """--sensitivity on a map with no hot-write member (cgroup: validate
    refuses --write-every there) leaves the write rate out and says so; with
    no verdict at the main point or any other it gives no judgement, not
    robust / not robust.  (Old code: write rate x0.25 and x4 run anyway,
    and 'robust' or 'not robust' from the signs of no-verdict ratios.)"""
    args = ['validate', seed(False), 'cgroup', '--against', seed(True) + ':cgroup',
            '--sensitivity'] + SHORT
    p = sl(*args)
    assert p.returncode == 0, p.stderr
    t = p.stdout
    assert 'sensitivity (the same runs with one knob moved): no judgement' in t, t
    assert '  skipped: write rate (no hot-write member' in t and '  write rate' not in t, t
    p = sl(*args, '--json')
    sn = json.loads(p.stdout)['sensitivity']
    assert [pt['knob'] for pt in sn['points']] == ['batch', 'batch'], sn
    assert sn['robust'] is None and sn['skipped'].startswith('write rate'), sn



def case_profile_unknown_key():
    """A structlint.profile/v1 member row with a key the format does not
    have ("width" for "size") is warned about once: the key, FILE:LINE, a
    did-you-mean, how many; a profile without one gets no warning.  (Old
    code: ignored silently.)"""
    rows = ('{"schema": "structlint.profile/v1", "cacheline_size": 64,\n'
            ' "structs": [{"type": "bad_stats", "members": [\n'
            '  {"offset": 0, "rows": [{"cpu": 0, "%s": 8, "stores": 100}]},\n'
            '  {"offset": 16, "rows": [{"cpu": 1, "%s": 8, "stores": 100}]}]}]}\n')
    bad, good = os.path.join(TMP, 'width.profile'), os.path.join(TMP, 'size.profile')
    with open(bad, 'w') as f:
        f.write(rows % ('width', 'width'))
    with open(good, 'w') as f:
        f.write(rows % ('size', 'size'))
    p = sl('report', bad_obj(), 'bad_stats', '--samples', bad)
    w = [l for l in p.stderr.split('\n') if 'unknown key' in l]
    assert p.returncode in (0, 1) and len(w) == 1, p.stderr
    assert w[0].startswith('structlint: warning: %s:3: unknown key "width" ignored: '
                           'did you mean "size"? (2 unknown keys in all' % bad), w
    p = sl('report', bad_obj(), 'bad_stats', '--samples', good)
    assert p.returncode in (0, 1) and 'unknown key' not in p.stderr, p.stderr



def case_file_before_build():
    """validate --build with a FILE under --source-root that does not exist
    yet: A is copied and built first and FILE read from A's build (a note
    says so), then B, then the runs; a missing FILE outside the root: one
    line, exit 2.  (Old code: "no such file (build it first...)".)"""
    src, obj = prog_tree('prog_nofile', PROG_C)
    os.remove(obj)
    args = ['validate', obj, 'bad_stats', '--classes', classes(), '--source-root', src,
            '--build', CC + ' -g -c -o main.o main.c && ' + CC + ' -o prog main.c',
            '--run', './prog', '--rounds', '3', '--min-overlap', '0'] + SHORT[2:]
    p = sl(*args)
    assert p.returncode == 0, p.stderr
    assert 'structlint: note: %s does not exist yet: building A' % obj in p.stderr, p.stderr
    assert 'program' in p.stdout and not os.path.exists(obj), p.stdout
    # relative FILE under a relative root
    p = sl(*(['validate', 'prog_nofile/main.o'] + args[2:5] + ['--source-root', 'prog_nofile'] +
             args[7:]), cwd=os.path.dirname(src))
    assert p.returncode == 0, p.stderr
    missing = os.path.join(os.path.dirname(src), 'elsewhere.o')
    p = sl('validate', missing, 'bad_stats', '--classes', classes(), '--source-root', src,
           '--build', 'make', '--run', './prog')
    lines = [l for l in p.stderr.split('\n') if l]
    assert p.returncode == 2 and len(lines) == 1, p.stderr
    assert '%s: no such file, and not under --source-root %s' % (missing, src) in lines[0], lines

if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
