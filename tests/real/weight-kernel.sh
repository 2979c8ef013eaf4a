#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The kernel path of the IP-sample weighting on Debian's real 6.1 vmlinux
# (opt-in: the vmlinux comes from tests/real/kernels.sh; the whole-binary
# access pass takes about 90 s here, twice).
#
#   tests/real/weight-kernel.sh [BUILD_DIR]      (default BUILD_DIR: build)
#
# This machine's kernel has no vmlinux with DWARF, so no live `record -a`
# can be checked against it; instead a perf.data is written as `perf record
# -a` / `structlint record -a` write one on a KASLR kernel: the
# "[kernel.kallsyms]_text" mmap with pgoff = _text + 0x1e400000, then
# kernel-mode cpu-clock samples at the run-time addresses of mm_struct's
# static sites in finish_task_switch (the inlined mmdrop's `lock decl
# 0x58(%r14)`, mm_count) on CPUs 0-3, and at every other mm_struct load
# site on CPUs 0-3; plus user-mode samples and unrelocated kernel IPs that
# must count for nothing.  Asserts: every kernel sample is placed, the
# KASLR offset is the one written, mm_count is written by CPUs 0-3, and the
# report flags mm_count's line (the all-CPUs pattern of issue 11) naming
# the basis.  Exit 0 pass, 1 fail, 2 no kernel.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/real/kernels.sh
. "$here/kernels.sh"
build=${1:-$root/build}
[[ -x $build/structlint ]] || { echo "weight-kernel: no structlint in $build" >&2; exit 2; }
v61=$(slt_kernel_vmlinux "${SLT_KERNEL_PKGS[0]}") || exit 2
STRUCTLINT=$build/structlint python3 - "$v61" "$root" <<'PY'
import json, os, subprocess, sys
vmlinux, root = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(root, 'tests', 'cli'))
import test_weight as tw
SL = os.environ['STRUCTLINT']
KOFF = 0x1e400000
d = json.loads(subprocess.run([SL, 'access', '--json', '--sites', vmlinux, 'mm_struct'],
                              capture_output=True, text=True, check=True).stdout)
sites = d['structs'][0]['sites']
text = int(next(l.split()[0] for l in subprocess.run(['nm', vmlinux], capture_output=True,
           text=True, check=True).stdout.splitlines() if l.endswith(' _text')), 16)
pc = lambda s: int(s['pc'], 16)
drop = [s for s in sites if s['function'].startswith('finish_task_switch') and s['member'].split('.')[0] == 'mm_count']
loads = [s for s in sites if s['kind'] == 'load' and s['member'].split('.')[0] != 'mm_count']
assert drop, 'no mm_count site in finish_task_switch'
print('%d mm_struct sites; finish_task_switch mm_count: %s; %d other load sites'
      % (len(sites), ', '.join('%s %s' % (s['pc'], s['insn']) for s in drop), len(loads)))
# the kernel mmap perf writes (pid -1, pgoff = run-time _text)
import struct
fn = b'[kernel.kallsyms]_text\0'.ljust(24, b'\0')
body = struct.pack('<IIQQQ', 0xffffffff, 0, text + KOFF, 0xffffffffffffffff - text - KOFF, text + KOFF) + fn
recs = [struct.pack('<IHH', 1, tw.MISC_KERNEL, 8 + len(body)) + body]
n = 0
for cpu in range(4):
    for s in drop:
        for _ in range(50):
            recs.append(tw.sample(pc(s) + KOFF, 0, cpu, kernel=True)); n += 1
    for s in loads:
        recs.append(tw.sample(pc(s) + KOFF, 0, cpu, kernel=True)); n += 1
recs.append(tw.sample(0x401000, 77, 0))                                  # user mode
recs.append(tw.sample(pc(drop[0]), 0, 0, kernel=True))                   # not relocated
pd = os.path.join(tw.TMP, 'kernel.data')
tw.perf_data(pd, recs, tw.S_IP | tw.S_TID | tw.S_CPU)
p = subprocess.run([SL, 'report', vmlinux, 'mm_struct', '--samples', pd, '--json'],
                   capture_output=True, text=True)
print(p.stderr.strip())
assert p.returncode == 0, (p.returncode, p.stderr)
r = json.loads(p.stdout)
note = r['base']['note']
assert 'estimated from IP samples x static sites' in note, note
assert 'of %d cpu-clock samples used' % (n + 2) in note and '; %d in ' % n in note, (n, note)
m = {x['path']: x for x in r['members']}
assert sorted(c['cpu'] for c in m['mm_count']['cpus']) == [0, 1, 2, 3], m['mm_count']['cpus']
assert m['mm_count']['stores'] > 0, m['mm_count']
line = m['mm_count']['offset'] // 64
hit = [f for f in r['findings'] if f['line'] == line]
assert hit, ('no finding on mm_count\'s line', line, r['findings'])
print('findings on mm_count\'s line %d: %s' % (line, ', '.join(f['kind'] for f in hit)))
subprocess.run(['rm', '-rf', tw.TMP])
print('weight-kernel: ok')
PY
