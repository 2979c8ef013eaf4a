#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End-to-end tests of `structlint access`: fixtures/access/access.c built
here by gcc and clang, DWARF 4 and 5, -O2 and -O0, linked into
executables; every expected (function, member, kind) must be found, and no
site may land anywhere else.

    test_access.py --list          case names
    test_access.py CASE            run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC, CC_CLANG (compilers).
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SL = os.environ.get('STRUCTLINT', os.path.join(ROOT, 'build', 'structlint'))
CCS = {'gcc': os.environ.get('CC_GCC', 'gcc'), 'clang': os.environ.get('CC_CLANG', 'clang')}
SRC = os.path.join(ROOT, 'fixtures', 'access', 'access.c')
TMP = tempfile.mkdtemp(prefix='slt-access-')
NAMES = ['root', 'counters', 'elem', 'mid', 'leaf', 'inner', 'owner', 'node', 'gstat', 'frame', 'tally',
         'job', 'pair', 'aligned_blk', 'loop_acc']

# What the code does, per struct: (function, innermost member, kind).
COMMON = {
    'root': {('inlined_user', 'tail', 'store'), ('chase', 'mid', 'load'),
             ('spill', 'tail', 'load'), ('spill', 'c.hits', 'load'),
             ('embedded_store', 'in.count', 'store'),
             ('embedded_store', 'c.flags', 'store'),
             # call summary: lock_it() stores through its argument
             ('lock_user', 'in.lock', 'store')},
    # call summaries two deep (lock_word's xchg, lock_slow's lock add)
    'owner': {('owner_lock', 'lk.v', 'rmw'), ('owner_lock', 'b', 'store')},
    'node': {('node_touch', 'sp.flags', 'store')},
    'counters': {('atomic_ref', 'refs', 'rmw'), ('read_hits', 'hits', 'load'),
                 ('read_hits', 'flags', 'load'), ('store_misses', 'misses', 'store')},
    'mid': {('chase', 'leaf', 'load')},
    # a global struct variable, by its DWARF address range (%rip-relative);
    # lock_it()'s summary charged at the lea of its member's address
    'gstat': {('global_read', 'reads', 'load'), ('global_write', 'writes', 'store'),
              ('global_get', 'users', 'rmw'), ('global_lock', 'users', 'store'),
              # through a global pointer variable loaded into a register
              ('global_ptr_read', 'writes', 'load')},
    'leaf': {('chase', 'value', 'load')},
    # a struct on the stack, by its local's DWARF stack slot (%rsp or the
    # frame pointer plus the offset); the lea of its address passes a
    # pointer into it, so frame_fill()'s store is charged at the call
    'frame': {('frame_fill', 'len', 'store'), ('stack_struct', 'seq', 'store'),
              ('stack_struct', 'state', 'store'), ('stack_struct', 'len', 'store'),
              ('stack_struct', 'seq', 'load'), ('stack_struct', 'len', 'load')},
    'tally': {('scalar_spill', 'hits', 'load'), ('scalar_spill', 'misses', 'load'),
              ('scalar_spill', 'refs', 'load'), ('scalar_spill', 'flags', 'load'),
              ('param_spill', 'hits', 'load')},
}
# -O2: inc_count() is inlined into inlined_user(), whose r->in.count++
# is one `addl $1,0x1c(%rdi)`: charged to root (the outer object), not to
# inner; sum_elems() reads v[i].val through an advancing pointer.
O2 = {'root': {('inlined_user', 'in.count', 'load-store')},
      'elem': {('sum_elems', 'val', 'load')},
      # container_of over a list_head: negative and past-the-end
      # displacements from a list_head pointer land in the job holding it
      # (clang: the job variable has no location, the container is found
      # among the pointers in scope)
      'job': {('job_sum', 'prio', 'load'), ('job_sum', 'done', 'load'),
              ('job_finish', 'state', 'store'), ('job_finish', 'done', 'store')},
      # a frame realigned by and $-64,%rsp: its slots by their DW_OP_breg7
      # offsets from the realigned %rsp (blk_fill's store charged at the
      # call)
      'aligned_blk': {('realign', 'c', 'store'), ('realign', 'c', 'load'),
                      ('realign', 'a', 'load'), ('realign', 'a', 'store'),
                      ('blk_fill', 'a', 'store')},
      # a loop body reached by its back edge alone (gcc): its stack slot
      # accesses, by the %rsp depth of the edges pending over it
      'loop_acc': {('back_edge_loop', 'b', 'load'), ('back_edge_loop', 'b', 'store'),
                   ('back_edge_loop', 'a', 'load'), ('back_edge_loop', 'n', 'load')}}
# gcc follows the list into the next job (its link.next) and locates
# pair_mark's container variable; for clang two list_heads of pair fit
# the access, so nothing may be attributed there (checked below)
O2_MAYBE = {'job': {('job_sum', 'link.next', 'load')},
            'pair': {('pair_mark', 'b', 'store')},
            # loop_init's and loop_step's own accesses, and charged at
            # their calls by their summaries
            'loop_acc': {(f, m, k) for f in ('loop_init', 'loop_step', 'back_edge_loop')
                         for m in ('a', 'n') for k in ('store', 'load-store', 'load')}}
# -O0: inc_count() is a function of its own (a load and a store of
# inner.count); x86 compilers at -O0 keep the atomic as lock add/xadd.
O0 = {'inner': {('inc_count', 'count', 'load'), ('inc_count', 'count', 'store')},
      # ... and its summary charges them to root at the call in inlined_user()
      'root': {('inlined_user', 'in.count', 'load'), ('inlined_user', 'in.count', 'store')}}
O0_MAYBE = {'elem': {('sum_elems', 'val', 'load')}}


def build(cc, dwarf, opt):
    out = os.path.join(TMP, f'access-{cc}-d{dwarf}-{opt}')
    if not os.path.exists(out):
        subprocess.run([CCS[cc], f'-{opt}', '-g', f'-gdwarf-{dwarf}', '-o', out, SRC],
                       check=True)
    return out


def run(*args, rc=0):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    return p


def access_json(path):
    d = json.loads(run('access', '--json', '--sites', path, *NAMES).stdout)
    assert d['schema'] == 'structlint.access/v1', d['schema']
    return d


def check_coverage(cov):
    total = cov['attributed'] + sum(cov['unattributed'].values())
    assert total == cov['memory_operands'], cov
    assert 0 <= cov['share'] <= 1, cov


def found(d):
    got = {}
    for s in d['structs']:
        check_coverage(s['coverage'])
        triples = set()
        for site in s['sites']:
            if site['kind'] == 'address':
                continue
            assert site['file'] and site['file'].endswith('access.c') and site['line'] > 0, site
            assert site['insn'], site
            triples.add((site['function'], site['member'], site['kind']))
        got[s['name']] = triples
        # the per member counts agree with the sites: one role each,
        # direct and call-derived apart
        def roles(m):
            c = m['calls']
            return m['loads'] + m['stores'] + m['rmw'] + c['loads'] + c['stores'] + c['rmw']
        n = sum(roles(m) for m in s['members'] if m['depth'] == 0) + roles(s['outside'])
        k = sum(1 for x in s['sites'] if x['kind'] != 'address')
        assert n == k, (s['name'], n, k)
        calls = sum(m['calls']['loads'] + m['calls']['stores'] + m['calls']['rmw']
                    for m in s['members'] if m['depth'] == 0)
        assert calls == sum(1 for x in s['sites'] if x['via'] == 'call'), s['name']
    check_coverage(d['binary'])
    return got


def expect(got, want, maybe=None):
    maybe = maybe or {}
    for name in NAMES:
        w, g, m = want.get(name, set()), got.get(name, set()), maybe.get(name, set())
        assert w <= g, (name, 'missing', sorted(w - g), 'got', sorted(g))
        assert g <= w | m, (name, 'unexpected', sorted(g - w - m))


def merge(*ds):
    out = {}
    for d in ds:
        for k, v in d.items():
            out[k] = out.get(k, set()) | v
    return out


def make_case(cc, dwarf, opt):
    def case():
        d = access_json(build(cc, dwarf, opt))
        got = found(d)
        # the scalar array beside the stack struct: a typed stack datum
        frame = [x for x in d['structs'] if x['name'] == 'frame'][0]
        assert frame['coverage']['unattributed']['stack-local'] >= 2, frame['coverage']
        # the scalar global gwrites and the pointer variable gptr: typed
        # variables, no struct; no operand of gstat's functions is left
        # in no variable
        g = [x for x in d['structs'] if x['name'] == 'gstat'][0]['coverage']
        assert g['unattributed']['typed-variable'] >= 2, g
        assert g['unattributed']['global'] == 0, g
        assert g['resolved'] == g['attributed'] + g['unattributed']['typed-variable'] + \
            g['unattributed']['stack-local'], g
        if opt == 'O2':
            # values loaded from members keep their type through spills,
            # reloads and stack arguments: no untyped stack operation
            t = [x for x in d['structs'] if x['name'] == 'tally'][0]['coverage']
            assert t['unattributed']['stack'] == 0, t
            expect(got, merge(COMMON, O2), O2_MAYBE)
            # and no untyped stack operation in the realigned frame
            a = [x for x in d['structs'] if x['name'] == 'aligned_blk'][0]['coverage']
            assert a['unattributed']['stack'] == 0, a
            if cc == 'clang':
                assert not got.get('pair'), got.get('pair')
        else:
            expect(got, merge(COMMON, O0), merge(O0_MAYBE, O2_MAYBE, O2))
    return case


CASES = {}
for _cc in ('gcc', 'clang'):
    for _dw in (4, 5):
        for _opt in ('O2', 'O0'):
            CASES[f'{_cc}-dwarf{_dw}-{_opt}'] = make_case(_cc, _dw, _opt)


def case_text_view():
    p = run('access', build('gcc', 5, 'O2'), 'counters')
    lines = p.stdout.splitlines()
    refs = [l for l in lines if ' refs;' in l]
    assert refs and 'ld=0 st=0 rmw=1 funcs=1' in refs[0], refs
    assert any(l.startswith('/* structlint access: 4 static sites in 3 functions') for l in lines), p.stdout
    assert any(l.startswith('/* whole file:') for l in lines), p.stdout
    p = run('access', '--sites', build('gcc', 5, 'O2'), 'counters')
    site = [l for l in p.stdout.splitlines() if 'atomic_ref+0x' in l]
    assert site and 'rmw' in site[0] and 'lock add' in site[0] and 'access.c:' in site[0], p.stdout
    # a call site names its callee (was the bare address)
    p = run('access', '--sites', build('gcc', 5, 'O0'), 'root')
    site = [l for l in p.stdout.splitlines() if 'lock_user+0x' in l and '[call]' in l]
    assert site and '<lock_it>' in site[0], p.stdout


def case_bad_inputs():
    nodebug = os.path.join(TMP, 'nodebug')
    subprocess.run([CCS['gcc'], '-O2', '-o', nodebug, SRC], check=True)
    p = run('access', nodebug, 'root', rc=2)
    assert p.stderr.startswith('structlint: ') and 'DWARF' in p.stderr, p.stderr
    obj = os.path.join(TMP, 'access.o')
    subprocess.run([CCS['gcc'], '-O2', '-g', '-c', '-o', obj, SRC], check=True)
    p = run('access', obj, 'root', rc=2)
    assert 'relocatable' in p.stderr and '(link it' in p.stderr, p.stderr
    p = run('access', build('gcc', 5, 'O2'), 'no_such_struct', rc=2)
    assert 'no_such_struct' in p.stderr, p.stderr
    p = run('access', build('gcc', 5, 'O2'), rc=2)
    assert 'access --help' in p.stderr, p.stderr
    junk = os.path.join(TMP, 'junk')
    with open(junk, 'wb') as f:
        f.write(b'\x7fELF' + bytes(60))
    p = run('access', junk, 'root', rc=2)
    assert p.stderr.count('\n') == 1, p.stderr
    # raw BTF (a copy of the running kernel's, or a minimal header): no
    # machine code, said as such (was "mmap: Permission denied" on sysfs)
    btf = os.path.join(TMP, 'raw.btf')
    with open(btf, 'wb') as f:
        f.write(struct.pack('<HBBIIIII', 0xeB9F, 1, 0, 24, 0, 0, 0, 1) + b'\0')
    paths = [btf] + (['/sys/kernel/btf/vmlinux'] if os.access('/sys/kernel/btf/vmlinux', os.R_OK) else [])
    for b in paths:
        p = run('access', b, 'mm_struct', rc=2)
        assert p.stderr.count('\n') == 1 and 'raw BTF only, no machine code' in p.stderr \
            and 'vmlinux with DWARF' in p.stderr, p.stderr
    # another machine (an object whose e_machine says aarch64): named as
    # such, not "no struct named" from its unrelocated DWARF
    a64 = os.path.join(TMP, 'a64.o')
    with open(obj, 'rb') as f:
        raw = bytearray(f.read())
    raw[18:20] = struct.pack('<H', 183)
    with open(a64, 'wb') as f:
        f.write(raw)
    p = run('access', a64, 'root', rc=2)
    assert 'ELF machine aarch64 (183) is not x86-64' in p.stderr, p.stderr
    # report without FILE: static classes need the binary, and the
    # alternatives are given once (they were repeated)
    if os.access('/sys/kernel/btf/vmlinux', os.R_OK):
        p = run('report', 'mm_struct', rc=2)
        assert p.stderr.count('\n') == 1 and p.stderr.count('--samples FILE or --classes FILE') == 1, p.stderr


def section_offset(path, name):
    out = subprocess.run(['readelf', '-SW', path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.replace('[ ', '[').split()
        if name in f:
            i = f.index(name)
            return int(f[i + 3], 16)
    raise AssertionError(name + ' not in ' + path)


def case_bad_rnglists():
    # A zero unit_length in .debug_rnglists made libdwarf 20210528 free a
    # context twice (found by fuzz_access): refused as corrupt, one line.
    src = build('gcc', 5, 'O2')
    off = section_offset(src, '.debug_rnglists')
    bad = os.path.join(TMP, 'bad-rnglists')
    data = bytearray(open(src, 'rb').read())
    data[off:off + 4] = bytes(4)
    with open(bad, 'wb') as f:
        f.write(data)
    p = run('access', bad, 'root', rc=2)
    assert '.debug_rnglists: malformed unit header at section offset 0' in p.stderr, p.stderr
    p = run('layout', bad, 'root', rc=2)
    assert 'malformed unit header' in p.stderr, p.stderr
    # an address size of 7 (the second fuzz finding)
    data = bytearray(open(src, 'rb').read())
    data[off + 6] = 7
    with open(bad, 'wb') as f:
        f.write(data)
    p = run('access', bad, 'root', rc=2)
    assert '.debug_rnglists: malformed unit header' in p.stderr, p.stderr


def case_static_classes():
    exe = build('gcc', 5, 'O2')
    cls = os.path.join(TMP, 'stats.classes')
    run('access', exe, 'stats', '--write-classes', cls)
    text = open(cls).read()
    lines = {l.split()[0]: l for l in text.splitlines() if l and not l.startswith('#') and not l.startswith('[')}
    assert lines['hits'].split()[1] == 'hot-write', text
    assert 'rule over 3 functions: 0 load, 0 store, 3 rmw (3 atomic), 3 write' in lines['hits'], text
    assert lines['limit'].split()[1] == 'read-mostly', text
    assert 'rule over 5 functions: 4 load, 1 store' in lines['limit'], text
    assert 'unused' not in lines and '# unused' in text and 'no static site' in text, text
    assert '[stats]' in text, text
    # the file is a classes file: report reads it as given classes
    p = run('report', exe, 'stats', '--classes', cls)
    assert 'hot-write (given)' in p.stdout and 'finding 1: collision, line 0' in p.stdout, p.stdout
    # without --samples or --classes: the same classes, labelled static
    p = run('report', exe, 'stats')
    assert 'hot-write (static)' in p.stdout and 'read-mostly (static)' in p.stdout, p.stdout
    assert 'finding 1: collision, line 0' in p.stdout, p.stdout
    assert 'static access map' in p.stderr, p.stderr
    d = json.loads(run('report', exe, 'stats', '--classes', 'static', '--json').stdout)
    m = {x['name']: x for x in d['members']}
    assert m['hits']['class'] == 'hot-write' and m['hits']['class_source'] == 'static', m['hits']
    assert m['unused']['class'] == 'none', m['unused']
    assert d['findings'], d
    p = run('suggest', exe, 'stats')
    assert 'static' in p.stderr, p.stderr
    # suggest's stdout and JSON name the basis as report and check do
    assert 'member accesses counted in the machine code' in p.stdout.splitlines()[0] \
        and '(static)' in p.stdout.splitlines()[0], p.stdout
    d = json.loads(run('suggest', exe, 'stats', '--json').stdout)
    assert '(static)' in d['basis'] and 'static access map' in d['basis'], d
    # check without --samples or --classes: the static classes
    rules = os.path.join(TMP, 'stats.rules')
    with open(rules, 'w') as f:
        f.write('[stats]\nno-hot-write-near = limit\n')
    p = run('check', exe, 'stats', '--rules', rules, rc=1)
    assert 'holds written hits (hot-write' in p.stdout + p.stderr, (p.stdout, p.stderr)
    assert 'check: member accesses counted in the machine code' in p.stdout and '(static)' in p.stdout, p.stdout
    # baseline --classes static records them, named as the classes source
    b = json.loads(run('baseline', exe, 'stats', '--classes', 'static').stdout)
    assert b['classes_source'] == 'static', b['classes_source']
    cl = {m['path']: m['class'] for m in b['structs'][0]['members']}
    assert cl['hits'] == 'hot-write' and cl['limit'] == 'read-mostly' and cl['unused'] == 'none', cl
    # static classes need the code: a relocatable object is refused with the alternatives
    obj = os.path.join(TMP, 'access-st.o')
    subprocess.run([CCS['gcc'], '-O2', '-g', '-c', '-o', obj, SRC], check=True)
    p = run('report', obj, 'stats', rc=2)
    assert '--samples' in p.stderr and '--classes' in p.stderr, p.stderr
    # --classes static with a classes file: merged, the file's entries
    # replacing the static ones (hits: hot-write from the map, made
    # read-mostly by the file; limit keeps its static class)
    over = os.path.join(TMP, 'over.classes')
    with open(over, 'w') as f:
        f.write('[stats]\nhits read-mostly\nunused cold\n')
    for args in (['--classes', 'static', '--classes', over], ['--classes', over, '--classes', 'static']):
        p = run('report', exe, 'stats', '--json', *args)
        m = {x['name']: x for x in json.loads(p.stdout)['members']}
        # each member names its own source (the file's or the map's)
        assert m['hits']['class'] == 'read-mostly' and m['hits']['class_source'] == 'given', m['hits']
        assert m['limit']['class'] == 'read-mostly' and m['limit']['class_source'] == 'static', m['limit']
        # unused had no static class: newly classed, not replaced (the
        # note said "0 of them replaced" for members only the file classes)
        assert over + "'s (labelled static+given): 1 newly classed, 1 replaced" in p.stderr, p.stderr
        assert m['unused']['class'] == 'cold' and m['unused']['class_source'] == 'given', m['unused']
    b = json.loads(run('baseline', exe, 'stats', '--classes', 'static', '--classes', over).stdout)
    assert b['classes_source'] == 'static+over.classes', b['classes_source']
    cl = {m['path']: m['class'] for m in b['structs'][0]['members']}
    assert cl['hits'] == 'read-mostly' and cl['limit'] == 'read-mostly', cl
    p = run('check', exe, 'stats', '--rules', rules, '--classes', 'static', '--classes', over)
    assert '(static+given)' in p.stdout, p.stdout


def case_cache():
    # the whole-binary map is kept per build-id: a warm run prints what a
    # cold and a --no-cache run print (sites with source lines and
    # instructions included: the file is opened when asked), --no-cache
    # writes nothing, a corrupt cache file is rebuilt
    exe = build('clang', 5, 'O2')
    cache = tempfile.mkdtemp(prefix='slt-access-cache-')
    env = dict(os.environ, STRUCTLINT_CACHE_DIR=cache)

    def sl(*args):
        p = subprocess.run([SL] + list(args), capture_output=True, text=True, env=env)
        assert p.returncode == 0, (args, p.stderr)
        return p.stdout
    args = ['access', '--json', '--sites', exe] + NAMES
    ref = sl('access', '--no-cache', '--json', '--sites', exe, *NAMES)
    assert not os.listdir(cache), os.listdir(cache)
    cold = sl(*args)
    files = [f for f in os.listdir(cache) if f.startswith('access-')]
    assert len(files) == 1, os.listdir(cache)
    warm = sl(*args)
    assert ref == cold == warm
    cls_cold = sl('access', exe, 'stats', '--write-classes', '-')
    assert 'hot-write' in cls_cold, cls_cold
    path = os.path.join(cache, files[0])
    good = open(path, 'rb').read()
    head, blocks = cache_blocks(good)
    # a query reads the head and the blocks of the types it names: a
    # flipped byte in the head, in a read block or a cut file is found
    # (the map is rebuilt, the file rewritten); one in a block of a type
    # not asked for is not read (found when a query asks for that type)
    asked = [b for b in blocks if b[0] == 'counters']
    other = [b for b in blocks if b[0] != 'counters']
    assert asked and other, blocks
    for at in (head - 3, asked[0][1] + 1, asked[0][2] - 2, None):
        data = bytearray(good)
        if at is None:
            data = data[:-7]
        else:
            data[at] ^= 0xff
        open(path, 'wb').write(data)
        assert sl(*args) == ref, at
        assert open(path, 'rb').read() == good, at  # rewritten
    data = bytearray(good)
    data[other[0][1]] ^= 0xff
    open(path, 'wb').write(data)
    # counters holds no struct member: its query reads its block alone
    assert sl('access', '--json', exe, 'counters') == sl('access', '--no-cache', '--json', exe, 'counters')
    assert open(path, 'rb').read() == bytes(data)   # not read, kept
    sl('access', exe, other[0][0], '--json')
    assert open(path, 'rb').read() == good          # read: rewritten
    assert sl('report', exe, 'stats') == sl('report', '--no-cache', exe, 'stats')


def case_no_code():
    """A separate debug file (objcopy --only-keep-debug: .text SHT_NOBITS)
    and a binary whose .text was removed share the binary's build-id: both
    are refused (exit 2, one line) and nothing is cached under that
    build-id, so the binary then gets its sites (the old code printed 0
    sites, exit 0, and cached the empty map for the binary)."""
    exe = os.path.join(TMP, 'nocode-exe')
    subprocess.run([CCS['gcc'], '-O2', '-g', '-Wl,--build-id', '-o', exe, SRC], check=True)
    dbg, bare = exe + '.debug', exe + '.notext'
    subprocess.run(['objcopy', '--only-keep-debug', exe, dbg], check=True)
    subprocess.run(['objcopy', '--remove-section', '.text', exe, bare], check=True)
    cache = tempfile.mkdtemp(prefix='slt-access-nocode-')
    env = dict(os.environ, STRUCTLINT_CACHE_DIR=cache)

    def sl(*args, rc=0):
        p = subprocess.run([SL] + list(args), capture_output=True, text=True, env=env)
        assert p.returncode == rc, (args, p.returncode, p.stdout[-2000:], p.stderr)
        return p
    p = sl('access', dbg, 'counters', rc=2)
    assert p.stderr.count('\n') == 1 and 'a separate debug file: .text is SHT_NOBITS' in p.stderr \
        and 'give the binary' in p.stderr and not p.stdout, p.stderr
    p = sl('access', bare, 'counters', rc=2)
    assert p.stderr.count('\n') == 1 and 'has its code in the file' in p.stderr, p.stderr
    assert not [f for f in os.listdir(cache) if f.startswith('access-')], os.listdir(cache)
    d = json.loads(sl('access', '--json', '--sites', exe, 'counters').stdout)
    assert d['structs'][0]['sites'], d
    # with the binary's map now cached under the shared build-id, the
    # debug file is still refused (the warm cache printed the whole map,
    # exit 0, before the input check); so are report and suggest
    assert [f for f in os.listdir(cache) if f.startswith('access-')], os.listdir(cache)
    for args in (['access', dbg, 'counters'], ['report', dbg, 'counters'],
                 ['access', '--sites', dbg, 'counters']):
        p = sl(*args, rc=2)
        assert p.stderr.count('\n') == 1 and 'SHT_NOBITS' in p.stderr and not p.stdout, \
            (args, p.stderr)


def cache_blocks(b):
    """The access cache file b's head end and its site blocks, each
    (type, first byte, end byte) in the file (src/access/persist.c)."""
    u64 = lambda o: int.from_bytes(b[o:o + 8], 'little')
    u32 = lambda o: int.from_bytes(b[o:o + 4], 'little')
    hdr = 120
    checked = u32(100)
    nf, ns, ne, nstr, nt = u64(hdr), u64(hdr + 8), u64(hdr + 16), u64(hdr + 24), u64(hdr + 72)
    # checked = 8 * (13 + AR) + 32 nt + (40 + 4 AR) nf + 16 ne + nstr (the
    # header: 10 counts, AR reasons, 3 words of unreadable location lists)
    ar = (checked - 104 - 32 * nt - 40 * nf - 16 * ne - nstr) // (8 + 4 * nf)
    assert checked == 8 * (13 + ar) + 32 * nt + (40 + 4 * ar) * nf + 16 * ne + nstr
    assert len(b) == hdr + checked + 32 * ns
    tab = hdr + checked - nstr
    out, at = [], hdr + checked
    for i in range(nt):
        e = hdr + 8 * (13 + ar) + 32 * i
        name = b[tab + u32(e):b.index(b'\0', tab + u32(e))].decode()
        n = u64(e + 16)
        out.append((name, at, at + 32 * n))
        at += 32 * n
    return hdr + checked, out


EV_SRC = os.path.join(ROOT, 'fixtures', 'access', 'entry_value.c')
# A location-list expression of one byte naming %rax, %rbx or %rdi (the
# size line, then the operation, as gcc -dA and clang -S comment them);
# .debug_loc/.debug_loclists entries are found by labels, so they may grow.
EV_LOC = re.compile(r'^(\s*)(\.uleb128|\.byte|\.value|\.short|\.2byte)\s+(?:0x1|1)'
                    r'(\s*#\s*(?:Loc expr size|Location expression size)[^\n]*)\n'
                    r'\s*\.byte\s+(?:0x50|0x53|0x55|80|83|85)\s*#\s*DW_OP_reg[035]\s*$', re.M)


def entry_value_case(cc, dwarf):
    # fixtures/access/entry_value.c with its locations rewritten to
    # DW_OP_entry_value(DW_OP_reg5 RDI), DW_OP_stack_value: the local e is
    # known only as the entry value of %rdi, which %rdi holds until it is
    # written and %rbx from the mov at entry (the pass's argument
    # provenance); the code is the compiler's own
    def case():
        s = os.path.join(TMP, f'ev-{cc}-{dwarf}.s')
        subprocess.run([CCS[cc], '-O2', '-g', f'-gdwarf-{dwarf}', '-S', '-o', s, EV_SRC]
                       + (['-dA'] if cc == 'gcc' else []), check=True)
        with open(s) as f:
            text, n = EV_LOC.subn(lambda m: f'{m.group(1)}{m.group(2)}\t0x4{m.group(3)}\n'
                                  f'{m.group(1)}.byte\t0xa3\n{m.group(1)}.byte\t0x1\n'
                                  f'{m.group(1)}.byte\t0x55\n{m.group(1)}.byte\t0x9f', f.read())
        assert n >= 1, 'no location list expression to rewrite in ' + s
        with open(s, 'w') as f:
            f.write(text)
        exe = s[:-2]
        subprocess.run([CCS[cc], '-o', exe, s], check=True)
        d = json.loads(run('access', '--json', '--sites', '--no-cache', exe, 'ev').stdout)
        got = {(x['function'], x['member'], x['kind']) for x in d['structs'][0]['sites']}
        want = {('ev_entry', 'a', 'load'), ('ev_entry', 'a', 'store'), ('ev_entry', 'b', 'store'),
                ('ev_entry', 'c', 'load'), ('ev_entry', 'd', 'store')}
        # the load through %rdi, the rest through the register it was
        # copied to; nothing through a register loaded from e (e->c into
        # %rdi) nor in ev_sink(), whose %rdi is no entry value of ev_entry's
        assert got == want, sorted(got ^ want)
        assert len(d['structs'][0]['sites']) == len(want), d['structs'][0]['sites']
    return case


for _cc in ('gcc', 'clang'):
    for _dw in (4, 5):
        CASES[f'entry-value-{_cc}-dwarf{_dw}'] = entry_value_case(_cc, _dw)


FP_SRC = os.path.join(ROOT, 'fixtures', 'access', 'frame_pointer.c')


def frame_pointer_case(cc):
    # fixtures/access/frame_pointer.c: the blocks after a computed goto
    # start from no state; %rbp keeps the frame pointer the entry set up,
    # so the struct local's accesses there are found (they were
    # "no-location")
    def case():
        exe = os.path.join(TMP, f'fp-{cc}')
        subprocess.run([CCS[cc], '-O2', '-g', '-o', exe, FP_SRC], check=True)
        d = json.loads(run('access', '--json', '--sites', '--no-cache', exe, 'fr').stdout)
        got = {(x['function'], x['member'], x['kind']) for x in d['structs'][0]['sites']}
        want = {('fp_goto', 'seq', 'store'), ('fp_goto', 'state', 'store'), ('fp_goto', 'len', 'load'),
                ('fp_goto', 'seq', 'load'), ('fp_goto', 'state', 'load')}
        assert want <= got, sorted(want - got)
        assert {x[0] for x in got} <= {'fp_goto', 'fr_fill'}, got
    return case


for _cc in ('gcc', 'clang'):
    CASES[f'frame-pointer-{_cc}'] = frame_pointer_case(_cc)


def case_other_machine():
    # A real AArch64 object (clang --target, freestanding, no sysroot):
    # its DWARF layout prints as any machine's does, and every command
    # that needs the static map says the machine in one line, exit 2
    # (they said "no struct named" when the DWARF was not relocated)
    obj = os.path.join(TMP, 'a64-real.o')
    src = os.path.join(ROOT, 'fixtures', 'layout', 'holes.c')
    cc = subprocess.run([CCS['clang'], '--target=aarch64-linux-gnu', '-O2', '-g', '-c', '-o', obj, src],
                        capture_output=True)
    if cc.returncode:
        print('skip: no clang with the AArch64 target')
        return
    assert 'struct padded {' in run(obj, 'padded').stdout
    rules = os.path.join(TMP, 'a64.rules')
    with open(rules, 'w') as f:
        f.write('[struct padded]\nno-hot-write-near = l\n')
    for args in (['report', obj, 'padded'], ['suggest', obj, 'padded'],
                 ['report', '--json', obj, 'padded'], ['access', obj, 'padded'],
                 ['check', obj, '--rules', rules, '--classes', 'static'],
                 ['baseline', obj, 'padded', '--classes', 'static']):
        p = run(*args, rc=2)
        assert p.stderr.count('\n') == 1 and 'ELF machine aarch64 (183) is not x86-64' in p.stderr, (args, p.stderr)


CASES['other-machine'] = case_other_machine
CASES['cache'] = case_cache
CASES['static-classes'] = case_static_classes
CASES['text-view'] = case_text_view
CASES['bad-rnglists'] = case_bad_rnglists
CASES['bad-inputs'] = case_bad_inputs
CASES['no-code'] = case_no_code

if __name__ == '__main__':
    if sys.argv[1:] == ['--list']:
        print('\n'.join(CASES))
        sys.exit(0)
    for name in sys.argv[1:] or CASES:
        CASES[name]()
        print('ok', name)
