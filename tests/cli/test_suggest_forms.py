#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End-to-end tests of the C that `structlint suggest` writes: the
declaration and the --source-root diff in their kernel and user-space
forms (--c-form) compile with gcc and clang (user space also under
-std=c11 -pedantic -Wall -Wextra -Werror), add no attribute the source
lacked, write no redundant zero-width bitfield; the applied diff gives the
proposal's offsets.  The seed miniatures and helpers are test_suggest.py's.

    test_suggest_forms.py --list    case names
    test_suggest_forms.py CASE      run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC, CC_CLANG (compilers).
"""
import json
import os
import re
import subprocess
import sys

import test_advice_keep
from test_suggest import CC, CGROUP, PAD_TYPE, MEMCG61, ROOT, TMP, advice, layout, obj, offsets, pahole_check, run, seed_prelude
from test_suggest_why import anon_obj, fixture_obj

CLANG = os.environ.get('CC_CLANG', 'clang')


# user-space forms are ISO C: no zero-size members (issue 13)
PEDANTIC = ['-std=c11', '-pedantic', '-Wall', '-Wextra', '-Werror']


def compile_decl(cc, text, tag, flags=('-std=gnu11', '-Wall', '-Werror')):
    src = os.path.join(TMP, 'form_%s.c' % tag)
    with open(src, 'w') as f:
        f.write(text)
    p = subprocess.run([cc, *flags, '-c', '-o', src[:-2] + '.o', src],
                       capture_output=True, text=True)
    assert p.returncode == 0, (cc, tag, p.stderr[-2000:], text[-3000:])


ATTR_C = r"""
/* 6.1 mm_struct in miniature (issue 13): an anonymous struct holding
 * every member, the hot count among read-mostly members */
struct mmx {
	struct {
		long mt[3];
		void *gua;
		long base[4];
		long task_size;
		void *pgd;
		int membarrier_state;
		int users;
		int count;
		long pgtables;
		int map_count;
		int ptl;
		long lock[5];
		long rest[100];
	};
	unsigned long cpu_bitmap[];
} mmx_inst;
"""


def case_no_added_attributes():
    """A declaration carries an alignment attribute only where the source
    had one or the proposal needs one: padding members align the struct
    and the anonymous struct that holds them already, so neither closing
    brace gets __aligned__ / ____cacheline_aligned_in_smp (the old code
    added both); an isolate wrapper still gets its own.  The forms compile
    and their static asserts hold."""
    o, cls = fixture_obj('attr', ATTR_C, 'mmx.count hot-write\nmmx.pgd read-mostly\nmmx.task_size read-mostly\n')
    kcompat = os.path.join(ROOT, 'tests', 'cli', 'kcompat.h')
    seen_pad = False
    for form in ('user', 'kernel'):
        d = advice(o, 'mmx', '--classes', cls, '--c-form', form, '--max-proposals', '20')
        assert d['proposals'], d['note']
        for p in d['proposals']:
            decl = p['c_decl'].split('_Static_assert')[0].split('static_assert')[0]
            closers = [ln.strip() for ln in decl.splitlines() if ln.strip().startswith('}')]
            wrapped = p['kind'] == 'isolate'
            seen_pad |= '_pad' in decl
            # the struct's own closing brace and the anonymous struct's
            assert closers[-1] == '};', (form, p['kind'], closers)
            if not wrapped:
                assert all(c == '};' for c in closers), (form, p['kind'], closers)
            pre = '' if form == 'user' else '#include "%s"\n' % kcompat
            compile_decl(CC, pre + p['c_decl'], 'attr_%s_%s' % (form[0], p['kind']))
    assert seen_pad


# the new-user trial's struct (test_advice_keep.py), with its bitfield run
BITS_C = test_advice_keep.WIDE_C.replace('wstats', 'bitsx')


def case_no_redundant_zero_width():
    """A bitfield run moved after a member that ends on its storage unit
    starts there anyway: no `unsigned int :0;` line (the old code wrote
    one whenever the run left its original predecessor); the forms
    compile and their static asserts hold."""
    o, cls = fixture_obj('bitsx', BITS_C,
                         'bitsx.misses hot-write\nbitsx.ready read-mostly\n'
                         'bitsx.name read-mostly\nbitsx.hits hot-write\n')
    d = advice(o, 'bitsx', '--classes', cls, '--c-form', 'user', '--max-proposals', '20')
    moved_run = 0
    for p in d['proposals']:
        lay = [m for m in p['layout']['members'] if m['depth'] == 0]
        i = [m['name'] for m in lay].index('ready')
        prev = lay[i - 1]
        if prev['name'] != 'misses' and (prev['offset'] + prev['size']) % 4 == 0:
            moved_run += 1
            assert ':0;' not in p['c_decl'], (p['kind'], p['c_decl'])
        compile_decl(CC, '#include <stdint.h>\n' + p['c_decl'], 'bits_%s' % p['kind'])
    assert moved_run, [p['summary'] for p in d['proposals']]


def case_c_forms():
    """Every emitted declaration compiles with gcc and clang where it is
    used: a user-space object gets the user-space form (auto), with the
    aligned attribute and STRUCTLINT_CACHELINE_BYTES, _Static_assert, no
    CACHELINE_PADDING; --c-form kernel gives the kernel's macros, compiled
    against include/linux/cache.h's definitions (tests/cli/kcompat.h);
    the static asserts holding is the proof of the offsets."""
    kcompat = os.path.join(ROOT, 'tests', 'cli', 'kcompat.h')
    cases = [(obj(False), 'cgroup', CGROUP, seed_prelude),
             (obj(False), 'mem_cgroup_per_node', MEMCG61, seed_prelude),
             (anon_obj(), 'anon_mm', os.path.join(TMP, 'anon.classes'), lambda n: '')]
    n = 0
    for o, name, cls, prelude in cases:
        for form in ('auto', 'kernel'):
            d = advice(o, name, '--classes', cls, '--max-proposals', '20', '--c-form', form,
                       '--move-first')
            assert d['proposals'], (name, d['note'])
            for k, p in enumerate(d['proposals']):
                c = p['c_decl']
                if form == 'auto':
                    assert 'CACHELINE_PADDING' not in c and '____cacheline' not in c, c
                    assert 'static_assert(' not in c.replace('_Static_assert(', ''), c
                    # the user-space form needs no struct cacheline_padding
                    head = '#include <stddef.h>\n' + prelude(name).replace('#include <assert.h>', '') \
                        .replace('struct cacheline_padding { char x[0]; } __attribute__((aligned(64)));', '')
                    if any(m['name'].startswith('_pad') for m in p['layout']['members']):
                        assert '_Alignas(STRUCTLINT_CACHELINE_BYTES)' in c and '[0]' not in c, c
                    if p['kind'] == 'isolate':
                        assert '__aligned__(STRUCTLINT_CACHELINE_BYTES)' in c, c
                else:
                    pre = prelude(name)
                    # seed.c spells out struct cacheline_padding itself
                    head = ('#include <assert.h>\n#include <stddef.h>\n'
                            '#undef static_assert\n'
                            '#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)\n'
                            '#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)\n'
                            '#define CACHELINE_PADDING(name) struct cacheline_padding name\n'
                            '#define ____cacheline_aligned_in_smp __attribute__((__aligned__(64)))\n'
                            if 'struct cacheline_padding {' in pre else
                            '#include "%s"\n' % kcompat) + pre
                    if any(m['name'].startswith('_pad') for m in p['layout']['members']):
                        assert 'CACHELINE_PADDING(_pad' in c, c
                text = head + c + '\nstruct %s form_inst;\n' % name
                for cc in (CC, CLANG):
                    compile_decl(cc, text, '%s_%s_%d_%s' % (name, form, k, os.path.basename(cc)),
                                 *([PEDANTIC] if form == 'auto' else []))
                    n += 1
    assert n >= 20, n
    # user space: --source-root's diff uses the aligned attribute too
    import shutil
    src = os.path.join(TMP, 'usrc')
    os.makedirs(src, exist_ok=True)
    shutil.copy(os.path.join(ROOT, 'fixtures', 'report', 'seed.c'), src)
    so = os.path.join(src, 'seed.o')
    subprocess.run([CC, '-g', '-c', '-o', so, 'seed.c'], cwd=src, check=True)
    d = advice(so, 'cgroup', '--classes', CGROUP, '--source-root', src, '--max-proposals', '20')
    pads = [p for p in d['proposals'] if any(m['name'].startswith('_pad') for m in p['layout']['members'])]
    assert pads, [p['kind'] for p in d['proposals']]
    for p in pads:
        assert 'CACHELINE_PADDING' not in p['diff'] and 'STRUCTLINT_CACHELINE_BYTES' in p['diff'], p['diff']
    # usage
    run('suggest', so, 'cgroup', '--classes', CGROUP, '--c-form', 'bogus', rc=2)


# A user-space program's structs in ISO C, for the diff's compile test:
# seed.c without the kernel's zero-size padding type (which only its 6.12
# branch uses).
def ucg_source():
    with open(os.path.join(ROOT, 'fixtures', 'report', 'seed.c')) as f:
        src = f.read()
    pad = 'struct cacheline_padding { char x[0]; } __attribute__((aligned(64)));'
    assert pad in src
    return src.replace(pad, '')


def case_user_diff_compiles():
    """User space: --source-root's diff uses STRUCTLINT_CACHELINE_BYTES and
    carries its definition (the old diff wrote a literal __aligned__(64)),
    puts padding as _Alignas on the next member (no zero-size member);
    defines it at file scope before the struct; applied with patch, the
    source compiles with gcc and clang under
    -std=c11 -pedantic -Wall -Wextra -Werror and, built with -g, has the
    proposal's offsets."""
    import shutil
    src = os.path.join(TMP, 'ucg')
    os.makedirs(src, exist_ok=True)
    with open(os.path.join(src, 'ucg.c'), 'w') as f:
        f.write(ucg_source())
    subprocess.run([CC, '-g', '-c', '-o', 'ucg.o', 'ucg.c'], cwd=src, check=True)
    d = advice(os.path.join(src, 'ucg.o'), 'cgroup', '--classes', CGROUP, '--source-root', src,
               '--max-proposals', '20')
    pads = 0
    for k, p in enumerate(d['proposals']):
        assert 'diff' in p, p.get('diff_error')
        t = p['diff']
        assert '__aligned__(64)' not in t and '[0]' not in t, t
        if any(m['name'].startswith('_pad') for m in p['layout']['members']):
            pads += 1
            assert '_Alignas(STRUCTLINT_CACHELINE_BYTES)' in t, t
            assert '+#define STRUCTLINT_CACHELINE_BYTES 64' in t, t
        work = os.path.join(TMP, 'ucg_%d' % k)
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(src, work)
        r = subprocess.run(['patch', '-p1'], input=t, cwd=work, capture_output=True, text=True)
        assert r.returncode == 0, (r.stdout, r.stderr, t)
        with open(os.path.join(work, 'ucg.c')) as f:
            patched = f.read()
        if '#ifndef STRUCTLINT_CACHELINE_BYTES' in patched:
            # the definition at file scope, before the struct (it used to
            # sit inside the body, after its opening brace)
            at = patched.index('#ifndef STRUCTLINT_CACHELINE_BYTES')
            before = re.sub(r'/\*.*?\*/', '', patched[:at], flags=re.S)
            assert before.count('{') == before.count('}'), patched[:at][-400:]
            assert at < patched.index('struct cgroup {'), patched[at - 200:at + 200]
        for cc in (CC, CLANG):
            r = subprocess.run([cc, *PEDANTIC, '-g', '-c', '-o', 'ucg.o', 'ucg.c'], cwd=work,
                               capture_output=True, text=True)
            assert r.returncode == 0, (cc, p['kind'], r.stderr[-2000:], t)
        got = json.loads(run('--json', os.path.join(work, 'ucg.o'), 'cgroup').stdout)['structs'][0]
        want = {m['name']: m['offset'] for m in p['layout']['members']
                if m['depth'] == 0 and not m['name'].startswith('_pad')}
        assert {m['name']: m['offset'] for m in got['members'] if m['depth'] == 0} == want, (got, want)
        assert got['size'] == p['layout']['size'], (got['size'], p['layout']['size'])
    assert pads, [p['kind'] for p in d['proposals']]


def case_align_once():
    """The proposal's pahole view prints a named inline struct member's
    forced alignment once (pahole, and this view before, printed it on
    the type and the member: `} __aligned__(16) anon_named
    __aligned__(16);`); pahole on the compiled declaration agrees once
    its repeat is folded."""
    from test_suggest_why import WHY_MEASURED_C
    o, cls = fixture_obj('alonce', WHY_MEASURED_C, 'uny.hot hot-write\nuny.ro read-mostly\n'
                         'uny.named read-mostly\nuny.ro2 read-mostly\n')
    for extra in ([], ['--move-first'], ['--move-anchors']):
        t = run('suggest', o, 'uny', '--classes', cls, '--max-proposals', '20', *extra).stdout
        views = [v.split('\n/* C declaration: */\n')[0] for v in t.split('/* structlint: proposal ')[1:]]
        assert views, t[:500]
        for v in views:
            assert '} anon_named __attribute__((__aligned__(16)));' in v, v
            for line in v.split('\n'):
                assert line.count('__aligned__') <= 1, line
    assert pahole_check(o, 'uny', cls, lambda n: PAD_TYPE) >= 0
    # the layout view of the original stays pahole's
    assert '} __attribute__((__aligned__(16))) anon_named __attribute__((__aligned__(16)));' in \
        run('layout', o, 'uny').stdout


def case_text():
    # the kernel's setting (--c-form kernel): slab figures, the kmalloc
    # class a guess; user space (the object's own): no slab
    t = run('suggest', obj(False), 'cgroup', '--classes', CGROUP, '--nr-cpus', '16',
            '--c-form', 'kernel').stdout
    assert t.startswith('/* structlint: proposal 1 of '), t[:300]
    assert ' -> ' in t.split('\n')[0] and 'cachelines' in t.split('\n')[0], t[:300]
    assert '/* slab, in a kmem_cache of its own with SLAB_HWCACHE_ALIGN' in t and \
        ', 16 CPUs: ' in t and "kmalloc()'d instead (a guess: the binary does not name the " \
        "cache that allocates it): kmalloc-2k -> " in t, t[:600]
    u = run('suggest', obj(False), 'cgroup', '--classes', CGROUP).stdout
    assert 'kmem_cache' not in u and 'kmalloc' not in u, u[:600]
    assert u.split('\n')[1].startswith('/* storage: user space, no slab: a global or static object of '), u[:600]
    assert json.loads(run('suggest', '--json', obj(False), 'cgroup', '--classes',
                          CGROUP).stdout)['proposals'][0]['storage'] == 'user-space'
    assert '\nstruct cgroup {\n' in t and '/* size: ' in t, t
    assert '\n/* C declaration: */\n' in t, t
    d = advice(obj(False), 'cgroup', '--classes', CGROUP, '--nr-cpus', '16')
    assert t.count('/* structlint: proposal ') == len(d['proposals'])
    assert d['nr_cpus'] == 16


def case_report_suggest():
    o = obj(False)
    r = run('report', o, 'cgroup', '--classes', CGROUP).stdout
    t = run('report', '--suggest', o, 'cgroup', '--classes', CGROUP).stdout
    s = run('suggest', o, 'cgroup', '--classes', CGROUP).stdout
    assert t.startswith(r), (t[:200], r[:200])
    assert 'finding 1: collision' in t and '/* structlint: proposal 1 of ' in t, t
    run('report', '--suggest', '--json', o, 'cgroup', '--classes', CGROUP, rc=2)
    # suggest's own text follows the report: the same proposals
    assert t[len(r):].lstrip('\n').split('/* slab')[0] == s.split('/* slab')[0], (t[len(r):][:300], s[:300])


def case_user_view_pads():
    """The pahole-style view of a user-space proposal shows a padding
    member as the C declaration writes it (a comment naming the _Alignas
    on the next member; the old view printed `struct cacheline_padding
    _pad1_ __attribute__((__aligned__(64)))`, which the declaration does
    not have); the kernel form keeps the kernel's member."""
    import test_suggest_compile as tc
    o, cls = fixture_obj('uview', tc.STATS_C, tc.STATS_CLASSES)
    for form in ('user', 'kernel'):
        t = run('suggest', o, 'stats', '--classes', cls, '--c-form', form, '--max-proposals', '20').stdout
        views = [v.split('/* C declaration: */')[0] for v in t.split('/* structlint: proposal ')[1:]]
        padded = [v for v in views if '_pad1_' in v]
        assert padded, t[:3000]
        for v in padded:
            if form == 'user':
                assert 'struct cacheline_padding' not in v, v
                assert '/* _pad1_: _Alignas(STRUCTLINT_CACHELINE_BYTES) on the next member */' in v, v
            else:
                assert re.search(r'struct cacheline_padding\s+_pad1_', v), v


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
