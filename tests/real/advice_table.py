#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layout advisor against the kernel's own fixes (issue 13, Proof):
for each case of /work/shared/cases/README.md (and the issue's mm_struct
and address_space), structlint suggest's best proposal on the 6.1 vmlinux
beside the layout 6.12 really has (read from its vmlinux), as one table
row: case | proposal (kind, the members it moves or isolates) | its cost
(bytes, cachelines, SLUB objects per slab) | the 6.12 layout (bytes,
lines, lines over its members packed) | whether the proposal separates the
members 6.12 separated.

Separation is computed from the layouts, per pair of classed members (a
read-mostly member and a written one, or two written members of different
writer labels; the classes are the case's, read by structlint report from
its classes file): a pair shares when some line holds both (with --in /
--base-align: at some start the instance may have).  The kernel separated
the pairs that share in 6.1 and not in 6.12 (members 6.12 dropped or
renamed are left out); the proposal separates those that share in 6.1 and
not in its layout.

    advice_table.py STRUCTLINT VMLINUX_6_1 VMLINUX_6_12 ROOT TMPDIR
Prints the table; exit 0, or 1 when a case's command fails or a
proposal leaves together members 6.12 separated ("no").  ONLY=STRUCT:
that case alone.
"""
import json
import os
import subprocess
import sys

SL, V61, V612, ROOT, TMP = sys.argv[1:6]
CLS = os.path.join(ROOT, 'fixtures', 'classes')
LINE = 64

# address_space (issue 13 item 4): i_mmap_rwsem hot-written, the fields
# every page-cache lookup reads read-mostly; in an inode from a slab
# without SLAB_HWCACHE_ALIGN (8-byte aligned)
AS_CLASSES = os.path.join(TMP, 'address_space.classes')
with open(AS_CLASSES, 'w') as f:
    f.write('address_space.i_mmap_rwsem hot-write\n' +
            ''.join('address_space.%s read-mostly\n' % m for m in ('i_mmap', 'host', 'a_ops', 'flags')))

# label, struct, classes, extra suggest/report arguments, ('container', 'member', align) or None
CASES = [
    ('mem_cgroup_per_node', 'mem_cgroup_per_node', os.path.join(CLS, 'mem_cgroup_per_node-6.1.classes'), [], None),
    ('cgroup', 'cgroup', os.path.join(CLS, 'cgroup.classes'), [], None),
    ('mm_struct', 'mm_struct', os.path.join(CLS, 'mm_struct.classes'), [], None),
    ('tcp_sock (rst)', 'tcp_sock', os.path.join(CLS, 'tcp_sock-rst.rst'), [], None),
    ('net_device (rst)', 'net_device', os.path.join(CLS, 'net_device-early.rst'), [], None),
    ('netns_ipv4 (6.12 groups)', 'netns_ipv4', 'groups', [], None),
    ('address_space in inode', 'address_space', AS_CLASSES,
     ['--in', 'inode.i_data', '--base-align', '8'], ('inode', 'i_data', 8)),
    ('page_counter (control)', 'page_counter', 'static', [], None),
    ('zone (control)', 'zone', 'static', [], None),
]


def sl(*args):
    p = subprocess.run([SL] + list(args), capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError('structlint %s: %s' % (' '.join(args[:4]), p.stderr.strip()[:300]))
    return json.loads(p.stdout)


def paths(members):
    """path (dotted named ancestors, anonymous ones left out) -> (offset,
    size) of the outermost member with that path; members in pre-order
    with their depth."""
    out, stack = {}, []
    for m in members:
        stack = stack[:m['depth']] + [m['name']]
        p = '.'.join(n for n in stack if n)
        if m['name'] and p not in out:
            out[p] = (m['offset'], m['size'])
    return out


def unused(members, size):
    """Bytes no leaf member covers (holes, padding, alignment wrappers):
    what a layout spends on separation."""
    spans = []
    for i, m in enumerate(members):
        leaf = i + 1 == len(members) or members[i + 1]['depth'] <= m['depth']
        if leaf and m['size']:
            spans.append((m['offset'], m['offset'] + m['size']))
    covered, end = 0, 0
    for a, b in sorted(spans):
        a = max(a, end)
        if b > a:
            covered += b - a
            end = b
    return size - covered


def lines(off, size, start):
    return set(range((start + off) // LINE, (start + off + max(size, 1) - 1) // LINE + 1))


def shares(lay, a, b, starts):
    return any(lines(*lay[a], s) & lines(*lay[b], s) for s in starts)


def starts_of(kernel, inst):
    """The starts within a line the instance may have in that kernel."""
    if not inst:
        return [0]
    cont, member, align = inst
    c = sl('--json', '-E', kernel, cont)['structs'][0]
    off = paths(c['members'])[member][0]
    return sorted({(off + k) % LINE for k in range(0, LINE, align)})


def pairs(rep):
    """The classed pairs: (read-mostly, written) and (written, written) of
    different labels, from structlint report's given classes."""
    ms = [m for m in rep['members'] if m.get('class_given') and m['path']]
    ro = [m['path'] for m in ms if m['class'] == 'read-mostly']
    wr = [m for m in ms if m['class'] in ('hot-write', 'mixed', 'true-shared')]
    out = [(r, w['path']) for r in ro for w in wr]
    for i, a in enumerate(wr):
        for b in wr[i + 1:]:
            if a.get('class_label') and b.get('class_label') and a['class_label'] != b['class_label']:
                out.append((a['path'], b['path']))
    return out


def slab(p):
    """Objects per slab, order and object size in the cache suggest
    assumes (the same both sides); an embedded instance has none."""
    b, a = p['slab_before'], p['slab_after']
    if b.get('embedded'):
        return 'no slab of its own (embedded)'
    return '%d->%d obj/slab (order %d->%d, %d->%d B objects%s)' % (
        b['objects_per_slab'], a['objects_per_slab'], b['order'], a['order'],
        b['object_size'], a['object_size'], ', SLAB_HWCACHE_ALIGN' if b['hwcache_align'] else '')


def group_classes(name):
    """A classes file from 6.12's own cacheline groups (no net_cachelines
    table of the struct in fixtures/): each member between
    __cacheline_group_begin__G and __cacheline_group_end__G is written
    when a word of G says write or rw, else read-mostly when one says
    read (as check reads group names)."""
    ms = sl('--json', V612, name)['structs'][0]['members']
    out, cur = [], None
    for m in ms:
        n = m['name']
        if n.startswith('__cacheline_group_begin__'):
            words = n[len('__cacheline_group_begin__'):].split('_')
            cur = 'hot-write' if {'write', 'rw'} & set(words) else \
                'read-mostly' if 'read' in words else None
        elif n.startswith('__cacheline_group_end__'):
            cur = None
        elif cur and m['depth'] == 0 and n:
            out.append('%s.%s %s\n' % (name, n, cur))
    path = os.path.join(TMP, name + '-groups.classes')
    with open(path, 'w') as f:
        f.writelines(out)
    return path


def row(label, name, cls, extra, inst):
    if cls == 'groups':
        cls = group_classes(name)
    o61 = sl('--json', V61, name)['structs'][0]
    o612 = sl('--json', V612, name)['structs'][0]
    rep = sl('report', '--json', V61, name, '--classes', cls, *extra)
    adv = sl('suggest', '--json', '--max-proposals', '20', V61, name, '--classes', cls, *extra)
    l61, l612 = paths(o61['members']), paths(o612['members'])
    s61, s612 = starts_of(V61, inst), starts_of(V612, inst)
    ps = [(a, b) for a, b in pairs(rep) if a in l61 and b in l61]
    before = [q for q in ps if shares(l61, *q, s61)]
    common = [q for q in before if q[0] in l612 and q[1] in l612]
    k_sep = [q for q in common if not shares(l612, *q, s612)]
    k_left = [q for q in common if shares(l612, *q, s612)]
    u61, u612 = unused(o61['members'], o61['size']), unused(o612['members'], o612['size'])
    packed = -(-(o612['size'] - u612) // LINE)
    kfix = '%d->%d B, %d->%d lines, unused %d->%d B (6.12: %d line(s) over its members packed)' % (
        o61['size'], o612['size'], o61['cachelines'], o612['cachelines'],
        u61, u612, o612['cachelines'] - packed)
    props = adv['proposals']
    shown = props[:1]
    if name == 'mm_struct':
        shown += [p for p in props if p['kind'] == 'isolate'][:1]
    if not props:
        note = adv.get('note', '')[:90]
        kept = 'yes: 6.12 separated none either'
        if k_sep:
            kept = 'no: 6.12 separated %d pair(s)' % len(k_sep)
        elif not before:
            kept = 'n/a: no classed pair shares a line in 6.1'
        return ['| %s | none (%d sharing pairs; %s) | - | %s | %s |' % (label, len(before), note, kfix, kept)]
    out = []
    for p in shown:
        lay = paths(p['layout']['members'])
        sep = [q for q in before if not shares(lay, *q, s61)]
        missed = [q for q in k_sep if shares(lay, *q, s61)]
        extra_sep = [q for q in sep if q in k_left]
        what = p['kind']
        if p.get('isolated'):
            what += ' ' + p['isolated']
        elif p['moved']:
            what += ': moves ' + ', '.join(p['moved'][:4]) + (' (+%d)' % (len(p['moved']) - 4) if len(p['moved']) > 4 else '')
        cost = '%+d B (%d->%d), %d->%d lines, unused %d->%d B, %s' % (
            p['bytes_added'], p['size_before'], p['size_after'], p['lines_before'], p['lines_after'],
            u61, unused(p['layout']['members'], p['size_after']), slab(p))
        verdict = ('yes' if not missed else 'no') + ': separates %d of the %d pair(s) 6.12 separated' % (
            len(k_sep) - len(missed), len(k_sep))
        if missed:
            verdict += ' (not %s)' % ', '.join('%s/%s' % q for q in missed[:3])
        if extra_sep:
            verdict += '; also %d 6.12 left sharing' % len(extra_sep)
        verdict += '; %d of %d sharing pairs apart' % (len(sep), len(before))
        out.append('| %s | %s | %s | %s | %s |' % (label, what, cost, kfix, verdict))
    return out


rc = 0
print('| case (6.1) | proposal | cost | kernel fix (6.1 -> 6.12 layout) | same members separated |')
print('|---|---|---|---|---|')
for c in [c for c in CASES if not os.environ.get("ONLY") or c[1] == os.environ["ONLY"]]:
    try:
        for r in row(*c):
            print(r)
            rc |= r.split(' | ')[-1].startswith('no')
    except (RuntimeError, KeyError, ValueError) as e:
        print('| %s | ERROR %s | | | |' % (c[0], e))
        rc = 1
sys.exit(rc)
