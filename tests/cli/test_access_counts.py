#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`structlint access` counts: direct and call-derived sites apart, the
same counts and words in the layout view, the JSON and --write-classes,
one site per (pc, member, kind) (fixtures/access/callsum.c, gcc -O2 -g).

    test_access_counts.py --list | CASE
Environment: STRUCTLINT (binary), CC_GCC.
"""
import json
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SL = os.environ.get('STRUCTLINT', os.path.join(ROOT, 'build', 'structlint'))
CC = os.environ.get('CC_GCC', 'gcc')
TMP = tempfile.mkdtemp(prefix='slt-access-counts-')


def compiled(name, src, *flags):
    """src (under fixtures/access) built here once, gcc -O2 -g."""
    out = os.path.join(TMP, name)
    if not os.path.exists(out):
        subprocess.run([CC, '-O2', '-g', *flags, '-o', out, os.path.join(ROOT, 'fixtures', 'access', src)],
                       check=True)
    return out


def exe():
    return compiled('callsum', 'callsum.c')


def stats_exe():
    return compiled('access', 'access.c')


def run(*args, rc=0):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    return p


def member_note(text, name):
    for line in text.splitlines():
        if re.search(r'\b' + re.escape(name) + r'(\[\d+\])?;', line):
            return line.split('/*')[-1].strip(' */')
    raise AssertionError(name + ' not in ' + text)


def case_call_sites_apart():
    # lock is only reached through box_lock(): no direct site, its rmw
    # comes from calls (was counted as 4 rmw sites in 3 functions)
    text = run('access', '--no-cache', exe(), 'box').stdout
    lock = member_note(text, 'lock')
    assert lock.startswith('ld=0 st=0 rmw=0 lea=1 funcs=0 calls: ld=0 st=0 rmw='), lock
    hits = member_note(text, 'hits')
    # hits: addq in user2 and user3 directly; the calls to them from main
    # are call-derived, in one more function
    assert hits == 'ld=0 st=0 rmw=2 funcs=2 calls: ld=0 st=0 rmw=2 funcs=+1', hits
    d = json.loads(run('access', '--no-cache', '--json', exe(), 'box').stdout)
    m = {x['path']: x for x in d['structs'][0]['members']}
    assert m['hits']['rmw'] == 2 and m['hits']['functions'] == 2, m['hits']
    assert m['hits']['calls'] == {'loads': 0, 'stores': 0, 'rmw': 2, 'functions': 1}, m['hits']
    assert m['lock']['rmw'] == 0 and m['lock']['calls']['rmw'] > 0, m['lock']
    # --write-classes shows the same counts in the same words
    cls = run('access', '--no-cache', exe(), 'box', '--write-classes', '-').stdout
    line = [l for l in cls.splitlines() if l.startswith('hits ')][0]
    assert 'sites: ' + hits + ';' in line and ' rmw (' in line and 'update' not in cls, cls
    line = [l for l in cls.splitlines() if l.startswith('lock ')][0]
    assert 'sites: ' + lock + ';' in line and line.split()[1] == 'hot-write', line


def case_sites_dedup():
    # box_fill() stores two words of arr: one call, one member, one kind:
    # one site (was two lines and st=2 per call)
    text = run('access', '--no-cache', '--sites', exe(), 'box').stdout
    rows = [tuple(l.split()[:4]) for l in text.splitlines() if l.startswith('  ')]
    assert rows and len(rows) == len(set(rows)), text
    arr = member_note(text, 'arr')
    assert 'calls: ld=0 st=2 rmw=0 funcs=+2' in arr, arr
    d = json.loads(run('access', '--no-cache', '--json', '--sites', exe(), 'box').stdout)
    keys = [(s['pc'], s['member'], s['kind']) for s in d['structs'][0]['sites']]
    assert len(keys) == len(set(keys)), keys


def case_basis_everywhere():
    # static classes: the basis in the report JSON, each finding (text and
    # JSON), both SARIF logs (was only in report's labels and check's text)
    exe = stats_exe()
    p = run('report', exe, 'stats')
    f = [l for l in p.stdout.splitlines() if l.startswith('finding 1:')]
    assert f and f[0].endswith(', basis: static classes'), p.stdout
    assert '/* structlint: caveat: static classes say how the code is written' in p.stdout, p.stdout
    d = json.loads(run('report', exe, 'stats', '--json').stdout)
    assert 'static access map of' in d['basis'] and '(static)' in d['basis'], d.get('basis')
    assert d['findings'] and d['findings'][0]['basis'] == 'static classes', d['findings']
    sarif = json.loads(run('report', exe, 'stats', '--sarif').stdout)
    assert 'static access map' in sarif['runs'][0]['properties']['basis'], sarif['runs'][0]
    rules = os.path.join(TMP, 'stats.rules')
    with open(rules, 'w') as fh:
        fh.write('[stats]\nno-hot-write-near = limit\n')
    sarif = json.loads(run('check', exe, 'stats', '--rules', rules, '--sarif', rc=1).stdout)
    assert 'static access map' in sarif['runs'][0]['properties']['basis'], sarif['runs'][0]
    # static+given: each member names its own source (was 'static+given'
    # for all)
    over = os.path.join(TMP, 'over.classes')
    with open(over, 'w') as fh:
        fh.write('[stats]\nlimit hot-write\n')
    d = json.loads(run('report', exe, 'stats', '--classes', 'static', '--classes', over, '--json').stdout)
    src = {m['path']: m.get('class_source') for m in d['members']}
    assert src['hits'] == 'static' and src['limit'] == 'given', src
    assert '(static+given)' in d['basis'], d['basis']
    text = run('report', exe, 'stats', '--classes', 'static', '--classes', over).stdout
    assert 'hot-write (static)' in text and 'hot-write (given)' in text, text


def case_errors_and_help():
    # a missing FILE: the path and "no such file", as report says it (was
    # "cannot open: No such file or directory")
    missing = os.path.join(TMP, 'no', 'such')
    p = run('access', missing, 'box', rc=2)
    assert p.stderr == 'structlint: %s: no such file (build it first, or check the path)\n' % missing, p.stderr
    # a relocatable object: named, with what to do
    obj = compiled('callsum.o', 'callsum.c', '-c')
    p = run('access', obj, 'box', rc=2)
    assert 'relocatable object' in p.stderr and 'link it' in p.stderr, p.stderr
    # check --help lists the static classes; every --no-cache names the
    # same cache directories
    h = run('check', '--help').stdout
    assert "'static': the classes the static access map" in h, h
    for cmd in ('access', 'report', 'suggest', 'check', 'baseline'):
        h = ' '.join(run(cmd, '--help').stdout.split())
        assert '$STRUCTLINT_CACHE_DIR, else $XDG_CACHE_HOME/' in h, (cmd, h)


def case_reasons_table():
    # access prints why the rest were not attributed, as a table with
    # counts and shares (was only a parenthesis of names and the man page)
    out = run('access', '--no-cache', stats_exe(), 'frame').stdout
    assert '/* not attributed, by reason (share of those memory operands):' in out, out
    assert re.search(r'^ \*   stack-local +\d+ +[\d.]+%  resolved: a stack datum', out, re.M), out


def corrupt_loclists():
    """access.c by gcc -O2 -gdwarf-5 with the second half of its
    .debug_loclists overwritten with 0xff."""
    good = compiled('access-d5', 'access.c', '-gdwarf-5')
    bad = os.path.join(TMP, 'access-d5-badloc')
    if not os.path.exists(bad):
        r = subprocess.run(['readelf', '-S', '-W', good], capture_output=True, text=True, check=True)
        line = next(l for l in r.stdout.splitlines() if '.debug_loclists' in l)
        f = line.split(']')[1].split()
        off, size = int(f[3], 16), int(f[4], 16)
        b = bytearray(open(good, 'rb').read())
        b[off + size // 2:off + size] = b'\xff' * (size - size // 2)
        with open(bad, 'wb') as o:
            o.write(b)
    return good, bad


def case_corrupt_loclists():
    # the accesses whose locations could not be read are counted
    # ("corrupt-location") and one warning names the section and offset,
    # cold, warm and --no-cache (was: exit 0, sites silently gone)
    good, bad = corrupt_loclists()
    p = run('access', '--no-cache', '--json', good, 'owner')
    assert 'warning' not in p.stderr, p.stderr
    assert json.loads(p.stdout)['binary']['unattributed'].get('corrupt-location', 0) == 0
    cache = tempfile.mkdtemp(prefix='slt-access-badloc-')
    env = dict(os.environ, STRUCTLINT_CACHE_DIR=cache)
    for args in (['--no-cache'], [], []):
        p = subprocess.run([SL, 'access', '--json', *args, bad, 'owner'], capture_output=True,
                           text=True, env=env)
        assert p.returncode == 0, p.stderr
        w = p.stderr.splitlines()
        assert len(w) == 1 and re.search(r'warning: .*: \.debug_loclists at offset 0x[0-9a-f]+: '
                                         r'corrupt location list', w[0]), p.stderr
        d = json.loads(p.stdout)
        assert d['binary']['unattributed']['corrupt-location'] > 0, d['binary']
    text = run('access', '--no-cache', bad, 'owner').stdout
    assert re.search(r'^/\* whole file: .*corrupt-location [1-9]\d*\) \*/$', text, re.M), text


def case_unclassified_warning():
    # static classes leave gauge.odd unclassified (no site); a proposal
    # keeping it on hits's line (hot-write) is said, naming it (was silent)
    p = run('suggest', '--no-cache', exe(), 'gauge')
    w = [l for l in p.stderr.splitlines() if 'leave unclassified' in l]
    assert w and 'hot-write member: odd;' in w[0] and '--write-classes' in w[0], p.stderr
    # a proposal that moves it off the written line is not named
    props = re.findall(r'proposal (\d+) of', p.stdout)
    assert len(w) < len(props), (w, props)


CASES = {'call-sites-apart': case_call_sites_apart, 'sites-dedup': case_sites_dedup,
         'basis-everywhere': case_basis_everywhere, 'errors-and-help': case_errors_and_help,
         'reasons-table': case_reasons_table, 'unclassified-warning': case_unclassified_warning,
         'corrupt-loclists': case_corrupt_loclists}

if __name__ == '__main__':
    import clicases
    clicases.main(CASES, cleanup=lambda: subprocess.run(['rm', '-rf', TMP]))
