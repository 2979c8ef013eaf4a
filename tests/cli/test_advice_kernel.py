#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The advisor and report on structs with the kernel's cacheline groups
(__cacheline_group_begin__NAME / __cacheline_group_end__NAME zero-length
markers, include/linux/cache.h v6.8+), compiled at test time: with
--move-anchors the markers move but every member stays inside the group it
is in, as the kernel's CACHELINE_ASSERT_GROUP_MEMBER checks (compiled here
against tests/cli/kcompat.h's copy of it), or moves into a group of its own
class and the proposal says so; report lists the groups a finding touches;
an instance whose base is known only modulo an alignment (an embedded
address_space) gets proposals whose separation holds for every base.

    test_advice_kernel.py --list          case names
    test_advice_kernel.py CASE            run one case (exit 0 pass, 1 fail)
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
KCOMPAT = os.path.join(ROOT, 'tests', 'cli', 'kcompat.h')
TMP = None
BEG, END = '__cacheline_group_begin__', '__cacheline_group_end__'

# 6.12 sock in miniature: a written rx group, a read-mostly rx group with
# one written member (rcv_drops: the class contradicts the group's),
# members outside every group between and after them.
KSOCK_C = r"""
typedef unsigned char __u8;
#define __cacheline_group_begin(G) __u8 __cacheline_group_begin__##G[0]
#define __cacheline_group_end(G) __u8 __cacheline_group_end__##G[0]
struct ksock {
	long common[7];
	__cacheline_group_begin(ksock_write_rx);
	int drops;
	int peek;
	long backlog[2];
	__cacheline_group_end(ksock_write_rx);
	__cacheline_group_begin(ksock_read_rx);
	long rx_dst;
	long filter;
	int rcvbuf;
	int rcvlowat;
	int rcv_drops;
	__cacheline_group_end(ksock_read_rx);
	long mid[3];
	__cacheline_group_begin(ksock_read_tx);
	long sndtimeo;
	long route_caps;
	__cacheline_group_end(ksock_read_tx);
	long tail[6];
} ksock_inst;
"""
KSOCK_CLASSES = """ksock.drops hot-write
ksock.backlog hot-write
ksock.rcv_drops hot-write
ksock.rx_dst read-mostly
ksock.filter read-mostly
ksock.rcvbuf read-mostly
ksock.rcvlowat read-mostly
ksock.sndtimeo read-mostly
ksock.route_caps read-mostly
"""


def run(*args, rc=0):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    return p


def tmp():
    global TMP
    if TMP is None:
        TMP = tempfile.mkdtemp(prefix='slt-advice-kernel-')
    return TMP


def fixture():
    src = os.path.join(tmp(), 'ksock.c')
    if not os.path.exists(src):
        with open(src, 'w') as f:
            f.write(KSOCK_C)
        subprocess.run([CC, '-g', '-c', '-o', src[:-2] + '.o', src], check=True)
        with open(os.path.join(TMP, 'ksock.classes'), 'w') as f:
            f.write(KSOCK_CLASSES)
    return src[:-2] + '.o', os.path.join(tmp(), 'ksock.classes')


def groups(members):
    """(depth, name) -> the kernel group it sits in (None: outside all),
    from the markers in member order."""
    open_, out = {}, {}
    for m in members:
        d, n = m['depth'], m['name']
        if n.startswith(BEG):
            open_[d] = n[len(BEG):]
        elif n.startswith(END):
            open_[d] = None
        elif n:
            out[(d, n)] = open_.get(d)
    return out


def group_class(name):
    words = name.split('_')
    return 'written' if 'write' in words or 'rw' in words else \
        'read-mostly' if 'read' in words or 'ro' in words else 'unclassified'


def check_groups(orig, p):
    """Every member of p's layout in the group it is in in orig, or in
    p['group_moves'] (from its group into one of the named class)."""
    g0, g1 = groups(orig['members']), groups(p['layout']['members'])
    moves = {x['member']: x for x in p.get('group_moves', [])}
    for k, g in g0.items():
        assert k in g1, (p['rank'], k)
        if g1[k] == g:
            continue
        mv = moves.get(k[1])
        assert mv and g and g1[k] and mv['from'] == g and mv['to'] == g1[k], \
            ('member leaves its kernel group', p['rank'], p['kind'], k[1], g, g1[k], moves)
        assert group_class(mv['to']) == mv['class'] != group_class(mv['from']), mv
    return g0


def compile_kernel_form(p, orig_groups, tag):
    """The proposal's kernel-form declaration with the kernel's own
    CACHELINE_ASSERT_GROUP_MEMBER for every member in the group the
    original has it in (moved members: the group they move into)."""
    moved = {x['member']: x['to'] for x in p.get('group_moves', [])}
    asserts = ''.join('\tCACHELINE_ASSERT_GROUP_MEMBER(struct ksock, %s, %s);\n' %
                      (moved.get(n, g), n)
                      for (d, n), g in sorted(orig_groups.items()) if g and d == 0)
    text = ('#include "%s"\n' % KCOMPAT + p['c_decl'] +
            '\nstatic inline void check(void)\n{\n' + asserts + '}\n')
    src = os.path.join(TMP, 'decl_%s.c' % tag)
    with open(src, 'w') as f:
        f.write(text)
    r = subprocess.run([CC, '-std=gnu11', '-Wall', '-Wno-unused-function', '-Werror',
                        '-c', '-o', src[:-2] + '.o', src], capture_output=True, text=True)
    assert r.returncode == 0, (tag, r.stderr[-2000:], text[-3000:])
    return asserts.count('\n')


def case_groups_hold():
    """--move-anchors moves markers, never a member out of its group
    (before: the ungrouped tail went into ksock_read_rx); the ungrouped
    tail may fill the gap between two groups, which removes the sharing
    at +0 bytes; the written rcv_drops leaves the read-mostly group for
    the written one, and the proposal says so."""
    o, cls = fixture()
    orig = json.loads(run('--json', o, 'ksock').stdout)['structs'][0]
    d = json.loads(run('suggest', '--json', o, 'ksock', '--classes', cls, '--move-anchors',
                       '--c-form', 'kernel', '--max-proposals', '20').stdout)
    assert d['proposals'], d['note']
    n_asserts = 0
    for p in d['proposals']:
        g0 = check_groups(orig, p)
        n_asserts += compile_kernel_form(p, g0, '%d_%s' % (p['rank'], p['kind']))
    assert n_asserts >= 30, n_asserts
    free = [p for p in d['proposals'] if p['score_after'] == 0 and p['bytes_added'] == 0]
    assert free, [(p['kind'], p['score_after'], p['bytes_added']) for p in d['proposals']]
    moves = [m for p in d['proposals'] for m in p.get('group_moves', [])]
    assert moves and all(m['member'] == 'rcv_drops' and m['from'] == 'ksock_read_rx' and
                         m['to'] == 'ksock_write_rx' and m['class'] == 'written'
                         for m in moves), moves
    p = next(p for p in d['proposals'] if p.get('group_moves'))
    assert 'rcv_drops moves from kernel group ksock_read_rx into ksock_write_rx' in p['summary'], \
        p['summary']
    t = run('suggest', o, 'ksock', '--classes', cls, '--move-anchors').stdout
    assert '/* kernel group: rcv_drops moves from ksock_read_rx into ksock_write_rx ' \
           '(a written group, as its class) */' in t, t
    # without --move-anchors the markers keep their offsets
    d = json.loads(run('suggest', '--json', o, 'ksock', '--classes', cls,
                       '--max-proposals', '20').stdout)
    at = {m['name']: m['offset'] for m in orig['members'] if m['name'].startswith('__')}
    for p in d['proposals']:
        check_groups(orig, p)
        assert not p.get('group_moves'), p['group_moves']
        for m in p['layout']['members']:
            if m['name'] in at:
                assert m['offset'] == at[m['name']], (p['kind'], m)


def case_report_groups():
    """report names the kernel groups each finding's members are in, text
    and JSON."""
    o, cls = fixture()
    d = json.loads(run('report', '--json', o, 'ksock', '--classes', cls).stdout)
    assert len(d['findings']) == 1, d['findings']
    kg = d['findings'][0]['kernel_groups']
    assert [(g['name'], g['class'], g['offset'], g['end_offset']) for g in kg] == \
        [('ksock_write_rx', 'written', 56, 80), ('ksock_read_rx', 'read-mostly', 80, 108)], kg
    t = run('report', o, 'ksock', '--classes', cls).stdout
    assert '    kernel groups: ksock_write_rx (written, bytes 56..80), ' \
           'ksock_read_rx (read-mostly, bytes 80..108)\n' in t, t
    # a finding whose members are in no group has no such line or key
    with open(os.path.join(TMP, 'out.classes'), 'w') as f:
        f.write('ksock.tail hot-write\nksock.mid read-mostly\nksock.common read-mostly\n')
    d = json.loads(run('report', '--json', o, 'ksock', '--classes',
                       os.path.join(TMP, 'out.classes')).stdout)
    assert d['findings'] and all('kernel_groups' not in f for f in d['findings']), d['findings']


PADDED_C = r"""
struct cacheline_padding {
	char x[0];
} __attribute__((__aligned__(64)));
#define CACHELINE_PADDING(name) struct cacheline_padding name
struct kcounter {
	long usage;
	CACHELINE_PADDING(_pad1_);
	long min;
	long max;
} kcounter_inst;
"""


def case_existing_padding():
    """An original CACHELINE_PADDING member (6.1 page_counter's _pad1_) is
    a member every proposal keeps, not one the advisor inserted: with
    --size-only --move-anchors it moves and the struct shrinks (before:
    'internal error: ... does not keep member _pad1_')."""
    src = os.path.join(tmp(), 'kcounter.c')
    with open(src, 'w') as f:
        f.write(PADDED_C)
    o = src[:-2] + '.o'
    subprocess.run([CC, '-g', '-c', '-o', o, src], check=True)
    d = json.loads(run('suggest', '--json', o, 'kcounter', '--size-only', '--move-anchors',
                       '--move-first').stdout)
    assert len(d['proposals']) == 1, d['note']
    p = d['proposals'][0]
    assert (p['size_before'], p['size_after']) == (128, 64), (p['size_before'], p['size_after'])
    assert [m['name'] for m in p['layout']['members']].count('_pad1_') == 1, p['layout']
    # its declaration's static asserts hold (kernel form, kcompat.h)
    d = json.loads(run('suggest', '--json', o, 'kcounter', '--size-only', '--move-anchors',
                       '--move-first', '--c-form', 'kernel').stdout)
    decl = os.path.join(tmp(), 'kcounter_decl.c')
    with open(decl, 'w') as f:
        f.write('#include "%s"\n' % KCOMPAT + d['proposals'][0]['c_decl'])
    r = subprocess.run([CC, '-std=gnu11', '-Wall', '-Werror', '-c', '-o', decl[:-2] + '.o', decl],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]


# 6.1 address_space in miniature: hot-written i_mmap_rwsem, read-mostly
# i_mmap, host, a_ops, flags.  It lives inside inode (at 376 in 6.1), and
# inodes come from slabs without SLAB_HWCACHE_ALIGN: its base is only a
# multiple of 8.
KAS_C = r"""
struct kas {
	long host;
	long i_pages[2];
	long gfp_mask;
	long i_mmap_writable;
	long i_mmap[2];
	long i_mmap_rwsem[5];
	long nrpages;
	long writeback_index;
	long a_ops;
	long flags;
	long wb_err;
	long private_lock;
	long private_list[2];
	long private_data;
} kas_inst;
struct kinode {
	char before[376];
	struct kas i_data;
} kinode_inst;
"""
KAS_READ = ('i_mmap', 'host', 'a_ops', 'flags')


def compiled(name, source, classes):
    """NAME.o compiled with -g from source, and NAME.classes: their paths."""
    src = os.path.join(tmp(), name + '.c')
    with open(src, 'w') as f:
        f.write(source)
    o = src[:-2] + '.o'
    subprocess.run([CC, '-g', '-c', '-o', o, src], check=True)
    cls = os.path.join(tmp(), name + '.classes')
    with open(cls, 'w') as f:
        f.write(classes)
    return o, cls


def shared_starts(p, align, at=0, reads=KAS_READ):
    """The starts within a line (at + multiples of align) at which a
    read-mostly member (reads) of p's layout shares a line with
    i_mmap_rwsem."""
    ms = {m['name']: (m['offset'], m['offset'] + m['size']) for m in p['layout']['members']
          if m['depth'] == 0 and m['name'] in reads + ('i_mmap_rwsem',)}
    w = ms['i_mmap_rwsem']
    bad = set()
    for s in sorted({(at + k) % 64 for k in range(0, 64, align)}):
        lw = {(x + s) // 64 for x in range(*w)}
        for r in reads:
            if lw & {(x + s) // 64 for x in range(*ms[r])}:
                bad.add(s)
    return sorted(bad)


def case_user_markers_pedantic():
    """User space (--c-form user): the declaration has no zero-size member
    (group markers and padding become comments, their alignment _Alignas
    on the next member), so it compiles with gcc and clang under
    -std=c11 -pedantic -Wall -Wextra -Werror, its static asserts holding
    (the old code wrote `unsigned char __cacheline_group_begin__...[0]`)."""
    o, cls = fixture()
    n = 0
    for extra in ([], ['--move-anchors']):
        d = json.loads(run('suggest', '--json', o, 'ksock', '--classes', cls, '--c-form', 'user',
                           '--max-proposals', '20', *extra).stdout)
        for k, p in enumerate(d['proposals']):
            c = p['c_decl']
            assert '[0]' not in c, c
            src = os.path.join(tmp(), 'umark_%d_%d.c' % (len(extra), k))
            with open(src, 'w') as f:
                f.write(c)
            for cc in (CC, os.environ.get('CC_CLANG', 'clang')):
                r = subprocess.run([cc, '-std=c11', '-pedantic', '-Wall', '-Wextra', '-Werror', '-c',
                                    '-o', src[:-2] + '.o', src], capture_output=True, text=True)
                assert r.returncode == 0, (cc, p['kind'], r.stderr[-2000:], c)
                n += 1
    assert n >= 4, n


def case_base_align():
    """--base-align 8: every proposal keeps i_mmap_rwsem off the lines of
    the read-mostly members at each of the 8 starts a line may give it
    (the line-aligned proposals share at some); the score is the worst
    start's."""
    o, cls = compiled('kas', KAS_C, 'kas.i_mmap_rwsem hot-write\n' +
                      ''.join('kas.%s read-mostly\n' % r for r in KAS_READ))
    d = json.loads(run('suggest', '--json', o, 'kas', '--classes', cls, '--max-proposals', '20').stdout)
    assert any(shared_starts(p, 8) for p in d['proposals']), 'line-aligned proposals hold at every base'
    d = json.loads(run('suggest', '--json', o, 'kas', '--classes', cls, '--max-proposals', '20',
                       '--base-align', '8').stdout)
    assert d['proposals'], d['note']
    for p in d['proposals']:
        # the score is the worst start's: 0 exactly where no start shares
        assert (p['score_after'] == 0) == (not shared_starts(p, 8)), \
            (p['kind'], p['score_after'], shared_starts(p, 8))
        assert p['score_after'] < p['score_before'], p['summary']
    assert any(p['score_after'] == 0 and p['bytes_added'] == 0 for p in d['proposals']), \
        [(p['kind'], p['score_after'], p['bytes_added']) for p in d['proposals']]
    run('suggest', o, 'kas', '--classes', cls, '--base-align', '12', rc=2)
    # --in: the instance at 376 in a line-aligned kinode starts at byte 56
    # of a line; with --base-align 8 too, at any multiple of 8 again
    for extra, align in ((['--in', 'kinode.i_data'], 64),
                         (['--in', 'kinode.i_data', '--base-align', '8'], 8)):
        d = json.loads(run('suggest', '--json', o, 'kas', '--classes', cls,
                           '--max-proposals', '20', *extra).stdout)
        assert d['proposals'], (extra, d['note'])
        for p in d['proposals']:
            assert (p['score_after'] == 0) == (not shared_starts(p, align, 376)), \
                (extra, p['kind'], p['score_after'], shared_starts(p, align, 376))
            # the findings left are counted where the instance starts
            # (at every start it may have), not line-aligned
            assert (p['findings_after'] == 0) == (p['score_after'] == 0), \
                (extra, p['kind'], p['score_after'], p['findings_after'])
        assert any(p['score_after'] == 0 for p in d['proposals']), extra
    for bad in ('kinode.nope', 'kinode.before', 'nostruct.i_data', 'kinode'):
        run('suggest', o, 'kas', '--classes', cls, '--in', bad, rc=2)


# 6.1 address_space with its real member sizes (rw_semaphore 40 bytes,
# xarray and rb_root_cached 16, gfp_t, atomic_t, errseq_t, spinlock_t 4):
# i_mmap_rwsem (at 88, 40 bytes) hot-written right after read-mostly
# i_mmap.  Reorderings that separate them at every 8-aligned base cost
# nothing: 6.12 puts 56 bytes of other members between them (i_mmap_rwsem
# at 144), and so does readers, invalidate_lock + i_pages, then the rwsem.
KAS61_C = r"""
struct rwsem { long count, owner, osq, wait_lock, wait_list; };
struct pair { long a, b; };
struct kas61 {
	long host;
	struct pair i_pages;
	struct rwsem invalidate_lock;
	unsigned gfp_mask;
	int i_mmap_writable;
	struct pair i_mmap;
	struct rwsem i_mmap_rwsem;
	long nrpages;
	long writeback_index;
	long a_ops;
	long flags;
	unsigned wb_err;
	int private_lock;
	struct pair private_list;
	long private_data;
} kas61_inst;
struct kinode61 {
	char before[376];
	struct kas61 i_data;
} kinode61_inst;
"""


def case_base_align_spacer():
    """--in kinode61.i_data --base-align 8 on the 6.1 address_space: a
    proposal separates i_mmap_rwsem from the read-mostly members at every
    start (checked here from the offsets) at +0 bytes, with i_mmap only
    and with host, a_ops and flags read-mostly too (the search used to
    stop at +8: single moves cannot open a gap of cold members)."""
    for reads in (('i_mmap',), KAS_READ):
        o, cls = compiled('kas61', KAS61_C, 'kas61.i_mmap_rwsem hot-write\n' +
                          ''.join('kas61.%s read-mostly\n' % r for r in reads))
        d = json.loads(run('suggest', '--json', o, 'kas61', '--classes', cls, '--max-proposals', '20',
                           '--in', 'kinode61.i_data', '--base-align', '8').stdout)
        free = [p for p in d['proposals'] if p['score_after'] == 0 and p['bytes_added'] == 0]
        assert free, (reads, [(p['kind'], p['score_after'], p['bytes_added']) for p in d['proposals']])
        for p in free:
            assert not shared_starts(p, 8, 376, reads), (reads, p['kind'], shared_starts(p, 8, 376, reads))



def case_bases_one_fact():
    """A line seen at several bases is one finding (issue 13, second
    trial): with --in kinode61.i_data --base-align 8, i_mmap_rwsem with
    a_ops (bases 8..40) was listed beside i_mmap_rwsem with a_ops and
    flags (bases 8..32), the same line at four bases counted twice.  No
    finding's members may now be a strict subset of another's of its
    kind at a shared base; the smaller one keeps base 40 only."""
    o, cls = compiled('kas61', KAS61_C, 'kas61.i_mmap_rwsem hot-write\n' +
                      ''.join('kas61.%s read-mostly\n' % r for r in KAS_READ))
    r = json.loads(run('report', '--json', o, 'kas61', '--classes', cls,
                       '--in', 'kinode61.i_data', '--base-align', '8').stdout)
    fs = [({m['path'] for m in f['members']}, f['kind'], set(f['bases']['starts'])) for f in r['findings']]
    for a, ka, ba in fs:
        for b, kb, bb in fs:
            assert not (ka == kb and a < b and ba & bb), (a, sorted(ba), b, sorted(bb))
    small = [st for m, k, st in fs if m == {'i_mmap_rwsem', 'a_ops'}]
    assert small == [{40}], fs
    t = run('report', o, 'kas61', '--classes', cls, '--in', 'kinode61.i_data', '--base-align', '8').stdout
    assert 'only at 1 of 8 bases (base mod 64 in {40}; line counted at base mod 64 = 40)' in t, t


KH_C = r"""
struct kh { char a; long b; char c; long d; } kh_inst;
struct khost { char before[40]; struct kh in; int after; } khost_inst;
"""


def case_container_priced():
    """--in prices the container: its size, lines and slab cost before and
    after the instance grows or shrinks, the members after it placed
    again (the old output said "not priced here").  kh (32 bytes, two
    holes) at 40 in khost, an int after it: --size-only packs kh to 24,
    khost goes 80 -> 72 bytes; on kas61 in kinode61 each proposal's
    container is 376 + its size, rounded to 8."""
    o, cls = compiled('kh', KH_C, '')
    d = json.loads(run('suggest', '--json', o, 'kh', '--size-only', '--in', 'khost.in').stdout)
    p = d['proposals'][0]
    assert p['size_after'] == 24, p['size_after']
    c = p['container']
    assert c['in'] == 'khost.in' and (c['size_before'], c['size_after']) == (80, 72), c
    assert (c['lines_before'], c['lines_after']) == (2, 2), c
    # line-aligned (the default): SLAB_HWCACHE_ALIGN objects, 128 both sides
    assert c['slab_before']['hwcache_align'] and c['slab_after']['object_size'] == 128, c
    d = json.loads(run('suggest', '--json', o, 'kh', '--size-only', '--in', 'khost.in',
                       '--base-align', '8').stdout)
    c = d['proposals'][0]['container']
    assert (c['slab_before']['object_size'], c['slab_after']['object_size']) == (80, 72), c
    t = run('suggest', o, 'kh', '--size-only', '--in', 'khost.in').stdout
    assert 'its container (--in khost.in), which grows or shrinks with it: 80 -> 72 bytes' in t, t[:3000]
    assert 'not priced here' not in t, t[:3000]
    d = json.loads(run('suggest', '--json', o, 'kh', '--size-only').stdout)
    assert 'container' not in d['proposals'][0], d['proposals'][0]
    o, cls = compiled('kas61', KAS61_C, 'kas61.i_mmap_rwsem hot-write\n' +
                      ''.join('kas61.%s read-mostly\n' % r for r in KAS_READ))
    d = json.loads(run('suggest', '--json', o, 'kas61', '--classes', cls, '--max-proposals', '20',
                       '--in', 'kinode61.i_data', '--base-align', '8').stdout)
    for p in d['proposals']:
        c = p['container']
        assert c['size_before'] == 376 + 192 and c['size_after'] == -(-(376 + p['size_after']) // 8) * 8, c
        assert c['slab_after']['object_size'] == c['size_after'] and c['slab_after']['cache_align'] == 8, c


def case_isolate_embedded():
    """The aligned wrapper (isolate) and CACHELINE_PADDING raise the
    struct's alignment to the line: for an instance inside a container
    (--in) that moves it there, for a base only known modulo --base-align
    the allocator does not honour it.  Line-aligned: an isolate proposal;
    --in: reorderings only (alignment kept), the note says why; --base-align
    8: no isolate.  The slab figures say which cache they assume, the same
    both sides."""
    o, cls = compiled('kas', KAS_C, 'kas.i_mmap_rwsem hot-write\n' +
                      ''.join('kas.%s read-mostly\n' % r for r in KAS_READ))
    base = ('suggest', '--json', o, 'kas', '--classes', cls, '--max-proposals', '20')
    d = json.loads(run(*base).stdout)
    assert any(p['kind'] == 'isolate' for p in d['proposals']), d['proposals']
    for p in d['proposals']:
        for side in ('slab_before', 'slab_after'):
            sl = p[side]
            # line-aligned: a SLAB_HWCACHE_ALIGN cache, objects a multiple of 64
            assert sl['hwcache_align'] and not sl['embedded'], sl
            assert sl['object_size'] % 64 == 0 and sl['object_size'] >= p[side.replace('slab', 'size')], sl
            assert sl['objects_per_slab'] == sl['slab_bytes'] // sl['object_size'], sl
    for extra in (['--in', 'kinode.i_data'], ['--in', 'kinode.i_data', '--base-align', '8']):
        d = json.loads(run(*base, *extra).stdout)
        assert d['proposals'], d['note']
        assert 'no isolate proposal' in d['note'] and '--in' in d['note'], d['note']
        for p in d['proposals']:
            assert p['kind'] != 'isolate', (extra, p['summary'])
            assert p['layout']['alignment'] == 8, (extra, p['kind'], p['layout']['alignment'])
            assert p['slab_before']['embedded'], p['slab_before']
        t = run(*base[:1], *base[2:], *extra).stdout
        assert 'slab: none of its own' in t, t[:2000]
        # one set of slab figures: the container's (the instance's own
        # kmalloc class and objects per slab used to sit beside them)
        for p in d['proposals']:
            assert p['storage'] == 'container' and p['slab_before'] == {'embedded': True}, p['slab_before']
            assert p['slab_after'] == {'embedded': True}, p['slab_after']
            c = p['container']
            assert c['slab_after']['object_size'] >= c['size_after'], c
    d = json.loads(run(*base, '--base-align', '8').stdout)
    assert d['proposals'] and all(p['kind'] != 'isolate' for p in d['proposals']), d['proposals']
    assert 'no isolate proposal' in d['note'], d['note']
    for p in d['proposals']:
        # the same cache both sides: aligned to 8, whatever the layout's own alignment
        assert p['slab_before']['cache_align'] == p['slab_after']['cache_align'] == 8, p['kind']
        assert not p['slab_after']['hwcache_align']
        assert p['slab_after']['object_size'] == p['size_after'], p


def case_base_no_padding():
    """A base that is not line-aligned (--base-align 8, or --base at 56
    into a line) does not get the line alignment CACHELINE_PADDING gives
    the struct, as under --in: no padding proposal (the old code offered
    one, 192 -> 256, relying on that alignment), every layout keeps the
    struct's alignment, and the note names the option used (with --base
    it used to speak of --base-align)."""
    o, cls = compiled('kasp', KAS_C, 'kas.i_mmap_rwsem hot-write\n' +
                      ''.join('kas.%s read-mostly\n' % r for r in KAS_READ))
    base = ('suggest', '--json', o, 'kas', '--classes', cls, '--max-proposals', '20')
    assert any(p['kind'] == 'padding' for p in json.loads(run(*base).stdout)['proposals'])
    for extra, named, other in ((['--base-align', '8'], '--base-align', '--base,'),
                                (['--base', '0x1038'], '--base,', '--base-align')):
        d = json.loads(run(*base, *extra).stdout)
        assert d['proposals'], (extra, d['note'])
        for p in d['proposals']:
            assert p['kind'] not in ('padding', 'isolate'), (extra, p['summary'])
            assert p['layout']['alignment'] == 8, (extra, p['kind'], p['layout']['alignment'])
        assert 'no padding' in d['note'] and named in d['note'] and other not in d['note'], (extra, d['note'])


# An instance at 80 in a line-aligned container (16 bytes into a line),
# whose container's base is only known to be a multiple of 16: it starts
# at 0, 16, 32 or 48 in a line.  hot and cfg (bytes 0..15) share a line
# at each of them; stat and mode (56..71) are split only where the
# instance starts line-aligned.
KB_C = r"""
struct kb {
	long hot;
	long cfg;
	long cold[5];
	long stat;
	long mode;
	long tail[3];
} kb_inst;
struct kbox {
	char before[80];
	struct kb inner;
} kbox_inst;
"""
KB_CLASSES = 'kb.hot hot-write\nkb.cfg read-mostly\nkb.stat hot-write\nkb.mode read-mostly\n'


def case_report_bases():
    """report --in kbox.inner --base-align 16: each finding says at which
    of the 4 starts in a line it holds, as the member offsets give it (a
    line holding all its members, less the starts where a finding naming
    more members holds: that line is counted once): hot, cfg and stat at
    0, hot with cfg and stat with mode only at 16, 32 and 48; text and
    JSON say so."""
    o, cls = compiled('kb', KB_C, KB_CLASSES)
    args = (o, 'kb', '--classes', cls, '--in', 'kbox.inner', '--base-align', '16')
    d = json.loads(run('report', '--json', *args).stdout)
    assert d['bases'] == {'align': 16, 'starts': [0, 16, 32, 48]}, d.get('bases')
    assert d['line_origin'] == 16, d['line_origin']
    seen = {}

    def held(f):
        # where one line holds every member of the finding
        ms = [(m['offset'], m['offset'] + m['size']) for m in f['members']]
        return [s for s in (0, 16, 32, 48)
                if set.intersection(*({(x + s) // 64 for x in range(a, b)} for a, b in ms))]
    for f in d['findings']:
        # ... less where a finding of its kind naming more members holds:
        # that line is counted once, by the larger finding
        names = {m['path'] for m in f['members']}
        over = {s for g in d['findings'] if g['kind'] == f['kind'] and
                names < {m['path'] for m in g['members']} for s in held(g)}
        want = [s for s in held(f) if s not in over]
        assert f['bases']['starts'] == want, (f['members'], f['bases'], want)
        assert f['bases']['every'] == (want == [0, 16, 32, 48]), f['bases']
        assert f['bases']['held'] == len(want) and f['bases']['of'] == 4, f['bases']
        assert f['bases']['line_origin'] in want, f['bases']
        seen[tuple(sorted(m['path'] for m in f['members']))] = want
    # at 0 one line holds hot, cfg and stat: that finding, not hot with cfg
    assert seen.get(('cfg', 'hot', 'stat')) == [0], seen
    assert seen.get(('cfg', 'hot')) == [16, 32, 48], seen
    assert seen.get(('mode', 'stat')) == [16, 32, 48], seen
    assert len(seen) == len(d['findings']), 'a finding listed twice'
    text = run('report', *args).stdout
    heads = [l for l in text.splitlines() if l.startswith('finding ')]
    assert any('only at 3 of 4 bases (base mod 64 in {16,32,48})' in l for l in heads), heads
    assert 'the base is known modulo 16' in text, text
    # SARIF: a warning per finding, properties.bases as the text says it
    sarif = json.loads(run('report', '--sarif', *args).stdout)
    res = sarif['runs'][0]['results']
    assert len(res) == len(d['findings']) and all(r['level'] == 'warning' for r in res), res
    got = sorted((r['ruleId'], r['properties']['bases']) for r in res)
    assert ('finding-collision', 'only at 3 of 4 bases (base mod 64 in {16,32,48})') in got, got
    assert all(r['message']['text'].endswith(r['properties']['bases']) for r in res), res
    run('report', '--sarif', '--json', *args, rc=2)
    # --in alone: one start (16), no bases; stat and mode share line 1
    d = json.loads(run('report', '--json', o, 'kb', '--classes', cls, '--in', 'kbox.inner').stdout)
    assert d['line_origin'] == 16 and 'bases' not in d, d
    assert sorted(tuple(sorted(m['path'] for m in f['members'])) for f in d['findings']) == \
        [('cfg', 'hot'), ('mode', 'stat')], d['findings']
    # --base ADDR without samples places the instance too (80: 16 bytes
    # into a line), in report and suggest; with --base-align it is an error
    d = json.loads(run('report', '--json', o, 'kb', '--classes', cls, '--base', '0x50').stdout)
    assert d['line_origin'] == 16 and len(d['findings']) == 2, d
    d = json.loads(run('suggest', '--json', o, 'kb', '--classes', cls, '--base', '0x50').stdout)
    assert d['findings'] == 2, d['findings']   # line-aligned: 1
    for cmd in ('report', 'suggest'):
        run(cmd, o, 'kb', '--classes', cls, '--base', '0x50', '--base-align', '16', rc=2)
    # line-aligned (no option): stat and mode apart
    d = json.loads(run('report', '--json', o, 'kb', '--classes', cls).stdout)
    assert [sorted(m['path'] for m in f['members']) for f in d['findings']] == \
        [['cfg', 'hot', 'stat']], d['findings']
    p = run('report', *args, '--samples', os.path.join(tmp(), 'none.data'), rc=2)
    assert '--samples' in p.stderr, p.stderr
    run('report', o, 'kb', '--classes', cls, '--base-align', '24', rc=2)
    run('report', o, 'kb', '--classes', cls, '--in', 'kbox.before', rc=2)


# 6.1 rq in miniature: nflags (written) shares line 1 with two read-mostly
# members between csd (aligned to 32) and cfs (aligned to 64), a hole
# behind them; stat and cfg share line 3 freely.  KQ_ONE leaves out stat
# and cfg; KQ_STUCK makes the read-mostly member on written csd's line an
# anchor too (csd2, aligned to 32), so only --move-anchors separates them.
KQ_C = r"""
struct kq {
#ifdef KQ_STUCK
	long lock[8];	/* the pinned first member fills what precedes csd */
#else
	long lock;
	long pad0[7];
#endif
	struct { long a[4]; } csd __attribute__((aligned(32)));
#ifdef KQ_STUCK
	struct { long b[4]; } csd2 __attribute__((aligned(32)));
#else
	unsigned int tick_stopped;
	int nflags;
	unsigned int ttwu;
#endif
	struct { long x[8]; } cfs __attribute__((aligned(64)));
#ifndef KQ_ONE
	long stat;
	long cfg;
#endif
	long pad1[6];
	long cold[8];
} kq_inst;
"""
KQ_CLASSES = 'kq.nflags hot-write\nkq.tick_stopped read-mostly\nkq.ttwu read-mostly\n'


def case_anchor_crossed():
    """6.1 rq (issue 13, second trial): nflags's line was left shared and
    the note blamed the anchored csd, although nflags moves past csd and
    cfs (their offsets kept) into room that costs nothing: the minimal
    proposal now leaves no sharing at +0 bytes, csd at 64 and cfs at 128,
    and no note; so with KQ_ONE."""
    for tag, pre, extra in (('kq', '', 'kq.stat hot-write\nkq.cfg read-mostly\n'),
                            ('kq1', '#define KQ_ONE\n', '')):
        o, cls = compiled(tag, pre + KQ_C, KQ_CLASSES + extra)
        d = json.loads(run('suggest', '--json', o, 'kq', '--classes', cls).stdout)
        best = d['proposals'][0]
        assert best['score_after'] == 0 and best['bytes_added'] == 0, (tag, best['summary'])
        off = {m['name']: m['offset'] for m in best['layout']['members'] if m['depth'] == 0}
        assert off['csd'] == 64 and off['cfs'] == 128, (tag, off)
        assert d['note'] == '', (tag, d['note'])


def case_why_left():
    """Every proposal leaves csd's line shared (written csd and read-mostly
    csd2, both aligned to 32, anchored; the pinned first member before
    them, so C puts neither earlier): the note says so, names the
    anchors and what --move-anchors then gives, in JSON and text; with
    nothing proposed (KQ_ONE) the note names csd too; with --move-anchors
    nothing is left and no note."""
    stuck = 'kq.csd hot-write\nkq.csd2 read-mostly\n'
    o, cls = compiled('kqs', '#define KQ_STUCK\n' + KQ_C, stuck + 'kq.stat hot-write\nkq.cfg read-mostly\n')
    d = json.loads(run('suggest', '--json', o, 'kq', '--classes', cls).stdout)
    assert d['proposals'] and all(p['score_after'] > 0 for p in d['proposals']), d['proposals']
    assert any(p['score_after'] < p['score_before'] for p in d['proposals']), 'line 3 fixed'
    n = d['note']
    assert n.startswith('the proposals leave sharing'), n
    assert 'csd (aligned to 32 bytes)' in n and '--move-anchors lifts it' in n and '-> 0' in n, n
    text = run('suggest', o, 'kq', '--classes', cls).stdout
    assert '/* structlint: ' + n + ' */' in text.splitlines(), text[:2000]
    d = json.loads(run('suggest', '--json', o, 'kq', '--classes', cls, '--move-anchors').stdout)
    assert d['proposals'][0]['score_after'] == 0 and d['note'] == '', (d['proposals'][0]['kind'], d['note'])
    o, cls = compiled('kqs1', '#define KQ_STUCK\n#define KQ_ONE\n' + KQ_C, stuck)
    d = json.loads(run('suggest', '--json', o, 'kq', '--classes', cls).stdout)
    assert not d['proposals'] and 'csd (aligned to 32 bytes)' in d['note'], d['note']


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
