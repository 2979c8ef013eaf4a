#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`structlint access` on vector and wide accesses and on indexed ones
(fixtures/access/wide.c, gcc and clang -O2 -g): SSE stores are stores,
a 16-byte access is charged to every member its bytes overlap, an index
register with a known addend moves the access to the array it indexes,
rep stos/movs cover %rcx elements when %rcx is a known constant.

    test_access_wide.py --list | CASE
Environment: STRUCTLINT (binary), CC_GCC, CC_CLANG.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SL = os.environ.get('STRUCTLINT', os.path.join(ROOT, 'build', 'structlint'))
CCS = {'gcc': os.environ.get('CC_GCC', 'gcc'), 'clang': os.environ.get('CC_CLANG', 'clang')}
TMP = tempfile.mkdtemp(prefix='slt-access-wide-')


def compiled(cc):
    out = os.path.join(TMP, 'wide-' + cc)
    if not os.path.exists(out):
        subprocess.run([CCS[cc], '-O2', '-g', '-o', out,
                        os.path.join(ROOT, 'fixtures', 'access', 'wide.c')], check=True)
    return out


def run(*args, rc=0):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    return p


def sites(cc, *types):
    """{(function, member, kind)} of the direct sites, and the JSON."""
    d = json.loads(run('access', '--no-cache', '--json', '--sites', compiled(cc), *types).stdout)
    out = set()
    for s in d['structs']:
        for x in s['sites']:
            if x.get('via') != 'call':
                out.add((s['name'], x['function'].split('+')[0], x['member'], x['kind']))
    return out, d


def case_vector_kinds(cc):
    # movups %xmm0,(%rdi) zeroing or copying a struct stores it (capstone
    # 4 marks the destination read: was "load"); the copy's source loads
    got, _ = sites(cc, 'quad')
    assert ('quad', 'quad_zero', 'a', 'store') in got, got
    assert ('quad', 'quad_copy', 'a', 'store') in got, got
    assert ('quad', 'quad_copy', 'a', 'load') in got, got
    assert ('quad', 'quad_zero', 'a', 'load') not in got, got


def case_wide_members(cc):
    # two movups zero struct oct: each of its 8 ints is stored (was: a and
    # e only); counts agree between the layout view, the JSON and sites
    got, d = sites(cc, 'oct', 'quad')
    for m in 'abcdefgh':
        assert ('oct', 'oct_zero', m, 'store') in got, (m, got)
    for m in 'abcd':
        assert ('quad', 'quad_copy', m, 'load') in got, (m, got)
    for s in d['structs']:
        per = {}
        for x in s['sites']:
            if x['kind'] == 'store' and x.get('via') != 'call':
                per[x['member']] = per.get(x['member'], 0) + 1
        for m in s['members']:
            assert m['stores'] == per.get(m['path'], 0), (m, per)
    text = run('access', '--no-cache', compiled(cc), 'oct').stdout
    for line in text.splitlines():
        if line.strip().startswith('int ') and ' b;' in line:
            assert 'st=1' in line, line


def case_indexed_addend(cc):
    # add $4,%rsi; mov (%rdi,%rsi,8): the displacement points at head[0],
    # the index's addend 4*8 at state[] (was charged to head)
    got, _ = sites(cc, 'stats')
    fn = {(f, m, k) for (_, f, m, k) in got if f == 'state_at'}
    assert fn == {('state_at', 'state', 'load')}, fn


def case_string_ops(cc):
    # rep stosq / rep movsq with %rcx a known constant cover the whole
    # struct: every member stored, movs also loads its source (was: no
    # site for movs's source and only `first` stored); an unknown %rcx
    # covers the first element alone
    got, d = sites(cc, 'blk')
    for m in ('first', 'mid', 'last'):
        assert ('blk', 'blk_zero', m, 'store') in got, (m, got)
        assert ('blk', 'blk_copy', m, 'store') in got, (m, got)
        assert ('blk', 'blk_copy', m, 'load') in got, (m, got)
    fn = {(m, k) for (_, f, m, k) in got if f == 'blk_zero_n'}
    assert fn == {('first', 'store')}, fn
    for s in d['structs']:
        for x in s['sites']:
            if x['function'].startswith('blk_zero+'):
                assert x['width'] == 256, x


def case_lea_global(cc):
    # &g_lim.limit taken by lea before the loop, loaded through it in the
    # loop: at -O0 gcc reloads it from a stack slot in a loop body reached
    # by its back edge alone, and the loop's stores to its counters
    # dropped every slot (was: limit address only, ld=0, "no-location")
    for opt in ('-O0', '-O2'):
        out = os.path.join(TMP, f'lea-{cc}{opt}')
        subprocess.run([CCS[cc], opt, '-g', '-pthread', '-o', out,
                        os.path.join(ROOT, 'fixtures', 'access', 'lea_global.c')], check=True)
        dis = subprocess.run(['objdump', '-d', out], capture_output=True, text=True).stdout
        assert 'lea ' in dis and '<g_lim>' in dis, 'no lea of g_lim'
        d = json.loads(run('access', '--no-cache', '--json', '--sites', out, 'lim').stdout)
        got = {(x['function'].split('+')[0], x['member'], x['kind'])
               for s in d['structs'] for x in s['sites']}
        assert ('lim_worker', 'limit', 'load') in got, (opt, got)


CASES = {}
for _cc in ('gcc', 'clang'):
    for _name, _fn in (('vector-kinds', case_vector_kinds), ('wide-members', case_wide_members),
                       ('indexed-addend', case_indexed_addend),
                       ('string-ops', case_string_ops), ('lea-global', case_lea_global)):
        CASES[f'{_name}-{_cc}'] = (lambda f, c: (lambda: f(c)))(_fn, _cc)

if __name__ == '__main__':
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        sys.exit(0)
    CASES[sys.argv[1]]()
