#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""IP samples x static sites, end to end, without timing: the false-sharing
fixture (fixtures/weight/falseshare.c: one thread stores stats.hits, one
loads stats.limit on the same line) is built here -O2 -g as a PIE (gcc,
and clang when present); a perf.data like `structlint record` writes on a
machine without memory events (cpu-clock IP samples, MMAP2 of the program
at a load bias) is written here from the program's own static sites
(`structlint access --json --sites`): the writer's loop on CPU 0, the
reader's on CPU 1.  Then report flags the line, suggest separates the two
members, check gates on it, and every output names the basis.  The live
recording is tests/real/weight-record.sh.

    test_weight.py --list          case names
    test_weight.py CASE            run one case (exit 0 pass, 1 fail, 77 skip)
Environment: STRUCTLINT (binary), CC_GCC, CC_CLANG (compilers).
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SL = os.environ.get('STRUCTLINT', os.path.join(ROOT, 'build', 'structlint'))
CCS = {'gcc': os.environ.get('CC_GCC', 'gcc'), 'clang': os.environ.get('CC_CLANG', 'clang')}
SRC = os.path.join(ROOT, 'fixtures', 'weight', 'falseshare.c')
TMP = tempfile.mkdtemp(prefix='slt-weight-')
BASIS = 'estimated from IP samples x static sites'
BIAS = 0x55a4c2e00000
PERF_RECORD_MMAP2, PERF_RECORD_SAMPLE = 10, 9
MISC_USER, MISC_KERNEL = 2, 1
S_IP, S_TID, S_ADDR, S_CPU = 1 << 0, 1 << 1, 1 << 3, 1 << 7


def build(cc):
    out = os.path.join(TMP, f'falseshare-{cc}')
    if not os.path.exists(out):
        r = subprocess.run([CCS[cc], '-O2', '-g', '-pie', '-fPIE', '-pthread', '-o', out, SRC],
                           capture_output=True)
        if r.returncode:
            return None
    return out


def run(*args, rc=0):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    return p


def sites(binary):
    d = json.loads(run('access', '--json', '--sites', binary, 'stats').stdout)
    out = []
    for s in d['structs'][0]['sites']:
        out.append((int(s['pc'], 16) if isinstance(s['pc'], str) else s['pc'], s))
    return out


def text_segment(binary, pc):
    """(p_vaddr, p_offset) of the PT_LOAD holding pc, from readelf."""
    r = subprocess.run(['readelf', '-lW', binary], capture_output=True, text=True, check=True)
    for line in r.stdout.splitlines():
        f = line.split()
        if f and f[0] == 'LOAD':
            off, va, filesz = int(f[1], 16), int(f[2], 16), int(f[4], 16)
            if va <= pc < va + filesz:
                return va, off
    raise AssertionError('no PT_LOAD holds 0x%x' % pc)


def perf_data(path, records, sample_type, name_attr_config=0, features=None):
    """A file-mode perf.data: one software event (cpu-clock: config 0),
    the feature sections given ({bit: bytes}: after the data, an index of
    perf_file_section then the contents; tools/perf/Documentation/
    perf.data-file-format.txt)."""
    attr = struct.pack('<IIQQQQQ', 1, 128, name_attr_config, 100000, sample_type, 0, 0)
    attr = attr.ljust(128, b'\0')
    data = b''.join(records)
    hdr_size, attr_size = 104, 128 + 16
    attrs_off = hdr_size
    ids_off = attrs_off + attr_size
    data_off = ids_off + 8
    fattr = attr + struct.pack('<QQ', ids_off, 8)
    flags = [0, 0, 0, 0]
    feats = sorted((features or {}).items())
    for bit, _ in feats:
        flags[bit // 64] |= 1 << (bit % 64)
    header = struct.pack('<8sQQQQQQQQ', b'PERFILE2', hdr_size, attr_size, attrs_off,
                         attr_size, data_off, len(data), 0, 0) + struct.pack('<4Q', *flags)
    index, body = b'', b''
    pos = data_off + len(data) + 16 * len(feats)
    for _, content in feats:
        index += struct.pack('<QQ', pos + len(body), len(content))
        body += content
    with open(path, 'wb') as f:
        f.write(header + fattr + struct.pack('<Q', 7) + data + index + body)


def build_id_entry(build_id, filename, rec_type=0):
    """struct perf_record_header_build_id: pid -1, build_id[20] and its
    size (misc bit 15), the file name padded to 8 (type 0 in the
    HEADER_BUILD_ID section, 67 as a pipe-mode record)."""
    fn = filename.encode() + b'\0'
    fn = fn.ljust((len(fn) + 7) // 8 * 8, b'\0')
    body = struct.pack('<i', -1) + build_id.ljust(20, b'\0') + struct.pack('<B3x', len(build_id)) + fn
    return struct.pack('<IHH', rec_type, 1 << 15 | MISC_USER, 8 + len(body)) + body


def elf_build_id(binary):
    r = subprocess.run(['readelf', '-n', binary], capture_output=True, text=True, check=True)
    return bytes.fromhex(next(l.split()[-1] for l in r.stdout.splitlines() if 'Build ID' in l))


def perf_data_pipe(path, records, sample_type):
    """The same as a pipe-mode stream (`perf record -o -`): a 16-byte
    header, the event as a PERF_RECORD_HEADER_ATTR, then the records."""
    attr = struct.pack('<IIQQQQQ', 1, 128, 0, 100000, sample_type, 0, 0).ljust(128, b'\0')
    body = attr + struct.pack('<Q', 7)
    hattr = struct.pack('<IHH', 64, 0, 8 + len(body)) + body
    with open(path, 'wb') as f:
        f.write(struct.pack('<8sQ', b'PERFILE2', 16) + hattr + b''.join(records))


def mmap2(pid, start, length, pgoff, filename):
    fn = filename.encode() + b'\0'
    fn = fn.ljust((len(fn) + 7) // 8 * 8, b'\0')
    body = struct.pack('<IIQQQIIQQII', pid, pid, start, length, pgoff, 8, 1, 1234, 0, 5, 2) + fn
    return struct.pack('<IHH', PERF_RECORD_MMAP2, MISC_USER, 8 + len(body)) + body


def sample(ip, pid, cpu, addr=None, kernel=False, tid=None):
    body = struct.pack('<QII', ip, pid, pid if tid is None else tid)
    if addr is not None:
        body += struct.pack('<Q', addr)
    body += struct.pack('<II', cpu, 0)
    return struct.pack('<IHH', PERF_RECORD_SAMPLE, MISC_KERNEL if kernel else MISC_USER,
                       8 + len(body)) + body


def fixture(cc, n_write=300, n_read=200, cpus=(0, 1), tids=(4243, 4244), migrate=False):
    """The binary and a perf.data of IP samples on its two loops: the
    writer thread (tids[0]) on cpus[0], the reader (tids[1]) on cpus[1];
    migrate: each thread alternates between CPUs 0 and 1."""
    b = build(cc)
    if b is None:
        sys.exit(77)
    st = sites(b)
    store = next(pc for pc, s in st if s['member'] == 'hits' and 'store' in s['kind'])
    load = next(pc for pc, s in st if s['member'] == 'limit' and s['kind'] == 'load')
    va, off = text_segment(b, load)
    recs = [mmap2(4242, BIAS + va, 0x1000, off, os.path.realpath(b))]
    for i in range(max(n_write, n_read)):
        cw, cr = (i & 1, (i + 1) & 1) if migrate else cpus
        if i < n_write:
            recs.append(sample(BIAS + store, 4242, cw, tid=tids[0]))
        if i < n_read:
            recs.append(sample(BIAS + load, 4242, cr, tid=tids[1]))
    recs.append(sample(0x7f1234567000, 4242, 0))          # libc: elsewhere
    pd = os.path.join(TMP, f'ip-{cc}-{n_write}-{n_read}-{cpus[0]}{cpus[1]}-'
                      f'{tids[0]}{tids[1]}-{int(migrate)}.data')
    perf_data(pd, recs, S_IP | S_TID | S_CPU)
    return b, pd


def t_report():
    for cc in ('gcc', 'clang'):
        if build(cc) is None and cc == 'clang':
            continue
        b, pd = fixture(cc)
        p = run('report', b, 'stats', '--samples', pd)
        assert BASIS in p.stdout and BASIS in p.stderr, (p.stdout, p.stderr)
        assert 'finding 1: collision, line 0' in p.stdout, p.stdout
        # the writers are threads: counted as such (was 'ncpus=1')
        hits = [l for l in p.stdout.splitlines() if ' hits;' in l]
        assert hits and 'nthreads=1' in hits[0] and 'ncpus' not in hits[0], hits
        assert 'written:    hits' in p.stdout and 'collides:   limit' in p.stdout, p.stdout
        d = json.loads(run('report', b, 'stats', '--samples', pd, '--json').stdout)
        assert BASIS in d['base']['note'], d['base']
        m = {x['path']: x for x in d['members']}
        assert m['hits']['class'] == 'hot-write' and m['limit']['class'] == 'read-mostly', m
        assert [c['cpu'] for c in m['hits']['cpus']] == [0], m['hits']
        assert [c['cpu'] for c in m['limit']['cpus']] == [1], m['limit']
        assert m['limit']['loads'] >= 200 and m['limit']['stores'] == 0, m['limit']
        assert m['cold']['loads'] == 0 and m['name']['loads'] == 0, m
        # each location names its source line from the line table (was "")
        locs = m['hits']['locations'] + m['limit']['locations']
        assert locs and all(re.fullmatch(r'.*falseshare\.c:[1-9][0-9]*', l['source'])
                            for l in locs), locs
        kinds = {f['kind'] for f in d['findings']}
        assert 'collision' in kinds, d['findings']
        run('report', b, 'stats', '--samples', pd, '--fail-on-findings', rc=1)


def t_one_cpu():
    """Both threads on one CPU: still two writers (the writer is the
    thread: where they run is the scheduler's choice), the same collision;
    one thread for both loops: one writer, no finding."""
    b, pd = fixture('gcc', cpus=(1, 1))
    p = run('report', b, 'stats', '--samples', pd)
    assert 'finding 1: collision, line 0' in p.stdout and BASIS in p.stdout, p.stdout
    b, pd = fixture('gcc', cpus=(0, 1), tids=(4242, 4242))
    p = run('report', b, 'stats', '--samples', pd)
    assert '0 findings' in p.stdout and BASIS in p.stdout, p.stdout


def t_migrating():
    """Each thread migrates between CPUs 0 and 1 (what `structlint record`
    saw for fixtures/weight/falseshare.c and a two-thread program): each
    thread is one writer, so the estimate gives the collision of hits and
    limit and no true sharing on hits (charged per CPU, hits was written by
    CPUs 0-1 and limit read by both: true sharing, no proposal)."""
    b, pd = fixture('gcc', migrate=True)
    p = run('report', b, 'stats', '--samples', pd)
    assert 'writers are threads (tid)' in p.stderr, p.stderr
    d = json.loads(run('report', b, 'stats', '--samples', pd, '--json').stdout)
    kinds = {f['kind'] for f in d['findings']}
    assert 'collision' in kinds and 'true-sharing' not in kinds, d['findings']
    m = {x['path']: x for x in d['members']}
    assert len(m['hits']['cpus']) == 1 and len(m['limit']['cpus']) == 1, m
    s = json.loads(run('suggest', b, 'stats', '--samples', pd, '--json').stdout)
    assert s['proposals'], s


def t_record_build_id():
    """structlint record writes the HEADER_BUILD_ID table (the program's
    build-id from its ELF note; the old writer left it empty, so the
    refusal never fired on its own recordings): a report against another
    build of the binary at the same path is refused, exit 2.  Skipped
    where perf_event_open is not allowed (perf_event_paranoid)."""
    b = build('gcc')
    if b is None:
        sys.exit(77)
    exe = os.path.join(TMP, 'rec-falseshare')
    shutil.copy(b, exe)
    pd = os.path.join(TMP, 'rec.data')
    p = subprocess.run([SL, 'record', '--ip', '-o', pd, '--', exe, '2000000'],
                       capture_output=True, text=True)
    if p.returncode:
        print('skip: record cannot sample here: ' + p.stderr.strip().splitlines()[-1])
        return
    with open(pd, 'rb') as f:
        raw = f.read()
    own = elf_build_id(exe)
    # the feature section holds the binary's path and build-id
    assert own in raw and os.path.realpath(exe).encode() + b'\0' in raw, 'no build-id table'
    run('report', exe, 'stats', '--samples', pd)
    # another build at the same path: refused, naming both build-ids
    subprocess.run([CCS['gcc'], '-O1', '-g', '-pie', '-fPIE', '-pthread', '-o', exe, SRC], check=True)
    p = run('report', exe, 'stats', '--samples', pd, rc=2)
    assert p.stderr.count('\n') == 1 and own.hex() in p.stderr and \
        'not the binary that ran' in p.stderr, p.stderr


def t_build_id():
    """The perf.data's build-id table (HEADER_BUILD_ID feature, or pipe
    mode's records) names FILE with another build-id: refused, exit 2, one
    line naming both (the old code placed the samples in FILE); the right
    build-id, or another file's, changes nothing."""
    b, pd = fixture('gcc')
    own = elf_build_id(b)
    other = bytes(reversed(own))
    with open(pd, 'rb') as f:
        raw = f.read()
    hdr = struct.unpack_from('<8sQQQQQQQQ', raw)
    recs = raw[hdr[5]:hdr[5] + hdr[6]]
    ref = run('report', b, 'stats', '--samples', pd).stdout
    for bid, name, ok in ((own, os.path.realpath(b), True), (other, '/usr/lib/libc.so.6', True),
                          (other, os.path.realpath(b), False), (other, '/elsewhere/' + os.path.basename(b), False)):
        fd = os.path.join(TMP, 'bid.data')
        perf_data(fd, [recs], S_IP | S_TID | S_CPU, features={2: build_id_entry(bid, name)})
        if ok:
            assert run('report', b, 'stats', '--samples', fd).stdout == ref, (bid, name)
            continue
        p = run('report', b, 'stats', '--samples', fd, rc=2)
        assert p.stderr.count('\n') == 1 and other.hex() in p.stderr and own.hex() in p.stderr \
            and 'not the binary that ran' in p.stderr, p.stderr
        # one level of parentheses (old: "(give the binary that ran (perf ...))")
        hint = p.stderr[p.stderr.index('not the binary that ran'):]
        assert 'buildid-list' in hint and hint.count('(') == 1, p.stderr
    fd = os.path.join(TMP, 'bid-pipe.data')
    perf_data_pipe(fd, [build_id_entry(other, os.path.realpath(b), 67), recs], S_IP | S_TID | S_CPU)
    p = run('report', b, 'stats', '--samples', fd, rc=2)
    assert other.hex() in p.stderr and own.hex() in p.stderr, p.stderr


def t_build_id_copy():
    """FILE is a copy of the binary that ran, at another path: the
    build-id table names the recorded path with FILE's build-id, so its
    mappings are FILE's and the samples land (the old code matched by path
    and file name only: "none of the N IP samples fell ...")."""
    b, pd = fixture('gcc')
    own = elf_build_id(b)
    with open(pd, 'rb') as f:
        raw = f.read()
    hdr = struct.unpack_from('<8sQQQQQQQQ', raw)
    recs = raw[hdr[5]:hdr[5] + hdr[6]]
    copy = os.path.join(TMP, 'copied.bin')
    shutil.copyfile(b, copy)
    fd = os.path.join(TMP, 'bid-copy.data')
    perf_data(fd, [recs], S_IP | S_TID | S_CPU, features={2: build_id_entry(own, os.path.realpath(b))})
    got = run('report', copy, 'stats', '--samples', fd).stdout
    assert 'finding 1: collision, line 0' in got, got
    assert 'written:    hits' in got and 'collides:   limit' in got, got
    # without the table, nothing ties the copy to the recorded path
    p = run('report', copy, 'stats', '--samples', pd, rc=2)
    assert 'none of the' in p.stderr, p.stderr


def t_loads_only():
    """Only the reader's loop sampled: the estimate has no store, and the
    memory-profile warning about loads-only events and HITM loads (which
    IP samples never have) is not printed."""
    b, pd = fixture('gcc', n_write=0)
    p = run('report', b, 'stats', '--samples', pd)
    assert BASIS in p.stderr and 'HITM' not in p.stderr and 'only loads' not in p.stderr, p.stderr


def t_suggest():
    b, pd = fixture('gcc')
    d = json.loads(run('suggest', b, 'stats', '--samples', pd, '--json').stdout)
    assert BASIS in d['basis'], d
    props = d['proposals']
    assert props, d
    for pr in props:
        off = {m['name']: m['offset'] for m in pr['layout']['members']}
        assert off['hits'] // 64 != off['limit'] // 64, off
    p = run('suggest', b, 'stats', '--samples', pd)
    assert BASIS in p.stdout.splitlines()[0] and BASIS in p.stderr, p.stdout


def t_check():
    b, pd = fixture('gcc')
    rules = os.path.join(TMP, 'stats.rules')
    with open(rules, 'w') as f:
        f.write('[struct stats]\nno-hot-write-near = limit\n')
    p = run('check', b, '--rules', rules, '--samples', pd, rc=1)
    assert 'limit' in p.stdout and 'hits' in p.stdout, p.stdout
    assert BASIS in p.stderr and ('check: member accesses ' + BASIS) in p.stdout, p.stdout
    d = json.loads(run('check', b, '--rules', rules, '--samples', pd, '--json', rc=1).stdout)
    assert BASIS in d['basis'] and d['errors'] == 1, d


def t_validate():
    """validate measures the proposal made from the estimates and names the
    basis (only the basis and the layouts are asserted: no timing)."""
    b, pd = fixture('gcc')
    args = ('validate', b, 'stats', '--samples', pd, '--rounds', '1', '--seconds', '0.01',
            '--warmup', '0.01')
    p = run(*args)
    assert ('accesses: ' + BASIS) in p.stdout, p.stdout
    d = json.loads(run(*args, '--json').stdout)
    assert BASIS in d['basis'], d


def t_no_file():
    """Without FILE (the running kernel's BTF) the IP samples cannot be
    placed: the hint says so."""
    if not os.path.exists('/sys/kernel/btf/vmlinux'):
        sys.exit(77)
    _, pd = fixture('gcc')
    p = run('report', 'mm_struct', '--samples', pd, rc=2)
    assert 'give the binary as FILE' in p.stderr and 'cpu-clock' in p.stderr, p.stderr


def t_stdin():
    """IP samples on standard input (a pipe-mode perf.data): weighted as
    from a file (stdin is copied to a temporary file: the estimate reads
    the perf.data twice); the same report as from the file."""
    b = build('gcc')
    st = sites(b)
    load = next(pc for pc, s in st if s['member'] == 'limit')
    va, off = text_segment(b, load)
    pd = os.path.join(TMP, 'pipe.data')
    perf_data_pipe(pd, [mmap2(5, BIAS + va, 0x1000, off, os.path.realpath(b)),
                        sample(BIAS + load, 5, 1)], S_IP | S_TID | S_CPU)
    with open(pd, 'rb') as f:
        spool = tempfile.mkdtemp(prefix='slt-spool-')
        p = subprocess.run([SL, 'report', b, 'stats', '--samples', '-'], stdin=f,
                           capture_output=True, text=True, env=dict(os.environ, TMPDIR=spool))
    assert p.returncode == 0, (p.returncode, p.stderr)
    assert 'estimated from IP samples x static sites' in p.stdout + p.stderr, (p.stdout, p.stderr)
    ref = run('report', b, 'stats', '--samples', pd)
    assert p.stdout == ref.stdout, (p.stdout, ref.stdout)
    # the temporary copy is gone
    assert not os.listdir(spool), os.listdir(spool)
    os.rmdir(spool)


def t_elsewhere():
    """IP samples that never fall on code touching the struct."""
    b = build('gcc')
    st = sites(b)
    load = next(pc for pc, s in st if s['member'] == 'limit')
    va, off = text_segment(b, load)
    pd = os.path.join(TMP, 'elsewhere.data')
    perf_data(pd, [mmap2(7, BIAS + va, 0x1000, off, os.path.realpath(b)),
                   sample(BIAS + va, 7, 0)], S_IP | S_TID | S_CPU)
    p = run('report', b, 'stats', '--samples', pd, rc=2)
    assert 'none of the 1 IP samples fell on code accessing stats' in p.stderr, p.stderr


def t_pie_page_faults():
    """Issue 11: address samples of a PIE relocated with the MMAP2 events,
    so --base SYMBOL (a link address) finds them."""
    b = build('gcc')
    st = sites(b)
    load = next(pc for pc, s in st if s['member'] == 'limit')
    va, off = text_segment(b, load)
    sym = subprocess.run(['nm', b], capture_output=True, text=True, check=True).stdout
    base = next(int(l.split()[0], 16) for l in sym.splitlines() if l.endswith(' st.0'))
    recs = [mmap2(9, BIAS + va, 0x1000, off, os.path.realpath(b))]
    for k in range(5):
        recs.append(sample(BIAS + load, 9, 0, addr=BIAS + base + 8))      # limit
        recs.append(sample(BIAS + load, 9, 1, addr=BIAS + base + 0))      # hits
    pd = os.path.join(TMP, 'pf.data')
    perf_data(pd, recs, S_IP | S_TID | S_ADDR | S_CPU, name_attr_config=2)
    p = run('report', b, 'stats', '--samples', pd, '--base', 'st.0', '--json')
    d = json.loads(p.stdout)
    assert d['samples']['matched'] == 10, d['samples']
    m = {x['path']: x for x in d['members']}
    assert m['limit']['loads'] == 5 and m['hits']['loads'] == 5, m
    assert 'relocated' in p.stderr, p.stderr


def t_call_once():
    """A sample is charged once: a call-derived site (box_lock(&b->lock)
    in user2, fixtures/access/callsum.c) gets only the samples at its call
    instruction, not those of its block's other instructions (the old code
    charged the 100 samples at user2's addq to box.lock as well); the
    header gives the IP samples used and recorded, apart from the
    estimated accesses (loads + stores: was '... samples')."""
    b = os.path.join(TMP, 'callsum')
    subprocess.run([CCS['gcc'], '-O2', '-g', '-o', b,
                    os.path.join(ROOT, 'fixtures', 'access', 'callsum.c')], check=True)
    d = json.loads(run('access', '--json', '--sites', b, 'box').stdout)
    st = d['structs'][0]['sites']
    pc = lambda s: int(s['pc'], 16) if isinstance(s['pc'], str) else s['pc']
    hits = next(pc(s) for s in st if s['function'] == 'user2' and s['member'] == 'hits'
                and s['via'] != 'call')
    call = next(pc(s) for s in st if s['function'] == 'user2' and s['member'] == 'lock'
                and s['via'] == 'call')
    va, off = text_segment(b, hits)
    recs = [mmap2(77, BIAS + va, 0x1000, off, os.path.realpath(b))]
    recs += [sample(BIAS + hits, 77, 0, tid=78) for _ in range(100)]
    recs += [sample(BIAS + call, 77, 0, tid=78) for _ in range(7)]
    recs.append(sample(0x7f1234567000, 77, 0))          # elsewhere
    pd = os.path.join(TMP, 'callsum.data')
    perf_data(pd, recs, S_IP | S_TID | S_CPU)
    r = json.loads(run('report', b, 'box', '--samples', pd, '--json').stdout)
    m = {x['path']: x for x in r['members']}
    assert m['hits']['loads'] == 107 and m['hits']['stores'] == 107, m['hits']
    assert m['lock']['loads'] == 7 and m['lock']['stores'] == 7, m['lock']
    assert r['samples']['ip_recorded'] == 108 and r['samples']['ip_used'] == 107, r['samples']
    p = run('report', b, 'box', '--samples', pd)
    assert '107 of 108 IP samples used, giving 228 estimated accesses' in p.stdout, p.stdout
    assert '107 of 108 cpu-clock samples used' in p.stderr, p.stderr


def t_thread_words():
    """Issue 11 trial: when the writers are threads (IP samples with tids)
    the measured writer label is threadN and the fix says threads, not
    CPUs (was hot-write:cpu0, 'written by different CPUs')."""
    b, pd = fixture('gcc')
    d = json.loads(run('baseline', b, 'stats', '--samples', pd).stdout)
    w = {m['path']: m.get('writer') for m in d['structs'][0]['members']}
    assert w['hits'] == 'thread0', w
    # two threads store hits, each on both CPUs: true sharing between threads
    st = sites(b)
    store = next(pc for pc, s in st if s['member'] == 'hits' and 'store' in s['kind'])
    va, off = text_segment(b, store)
    recs = [mmap2(4242, BIAS + va, 0x1000, off, os.path.realpath(b))]
    for i in range(400):
        recs.append(sample(BIAS + store, 4242, i & 1, tid=4243 + ((i >> 1) & 1)))
    two = os.path.join(TMP, 'ip-two-writers.data')
    perf_data(two, recs, S_IP | S_TID | S_CPU)
    t = run('report', b, 'stats', '--samples', two).stdout
    assert 'fix: true sharing: the threads contend on this member itself' in t, t
    assert 'use per-thread data' in t and 'the CPUs contend' not in t, t


def t_wide_store():
    """Issue 12: a 16-byte store (movups/SSE: quad_zero in
    fixtures/access/wide.c zeroes struct quad's four ints) is charged to
    every member its bytes cover, as the static map charges it; under IP
    weighting it got the site's samples on member a alone (b, c, d: 0)."""
    b = os.path.join(TMP, 'wide')
    subprocess.run([CCS['gcc'], '-O2', '-g', '-o', b,
                    os.path.join(ROOT, 'fixtures', 'access', 'wide.c')], check=True)
    d = json.loads(run('access', '--json', '--sites', b, 'quad').stdout)
    pc = lambda s: int(s['pc'], 16) if isinstance(s['pc'], str) else s['pc']
    st = [s for s in d['structs'][0]['sites'] if s['function'] == 'quad_zero'
          and s['kind'] == 'store' and s.get('via') != 'call']
    assert {s['member'] for s in st} == set('abcd'), st
    store = pc(st[0])
    assert all(pc(s) == store for s in st), st      # one instruction
    va, off = text_segment(b, store)
    recs = [mmap2(91, BIAS + va, 0x1000, off, os.path.realpath(b))]
    recs += [sample(BIAS + store, 91, 0, tid=92) for _ in range(50)]
    pd = os.path.join(TMP, 'wide.data')
    perf_data(pd, recs, S_IP | S_TID | S_CPU)
    r = json.loads(run('report', b, 'quad', '--samples', pd, '--json').stdout)
    m = {x['path']: x for x in r['members']}
    for k in 'abcd':
        assert m[k]['stores'] == 50 and m[k]['loads'] == 0, (k, m[k])


CASES = {'wide_store': t_wide_store, 'report': t_report, 'call_once': t_call_once, 'one_cpu': t_one_cpu, 'migrating': t_migrating, 'loads_only': t_loads_only, 'build_id': t_build_id, 'build_id_copy': t_build_id_copy, 'record_build_id': t_record_build_id, 'suggest': t_suggest, 'check': t_check, 'validate': t_validate,
         'no_file': t_no_file, 'stdin': t_stdin, 'elsewhere': t_elsewhere, 'pie_page_faults': t_pie_page_faults,
         'thread_words': t_thread_words}

if __name__ == '__main__':
    import clicases
    clicases.main(CASES, cleanup=lambda: subprocess.run(['rm', '-rf', TMP]))
