#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build a per-CPU access profile (structlint.profile/v1) for one real case
of /work/shared/cases/README.md from the mechanism it describes, not from
member classes: every CPU runs the struct's two operations,

  update  (LRU add/remove and reclaim, an rstat flush, a charge, an
           allocation under zone->lock): stores to every member the case
           calls hot-written (and the shared counter: true-shared), with a
           load each (read-modify-write);
  lookup  (an LRU charge, a cgroup_rstat_cpu() lookup, a limit or
           watermark check): loads of every member the case calls
           read-mostly,

so the writers are all CPUs and the readers are all CPUs: the all-CPU
pattern.  Which members each operation touches comes from the case's
classes file as read back by structlint report --json (classes given,
nothing measured); the counts per CPU are fixed (update: 100 stores and
100 loads per member, lookup: 400 loads), shared out exactly over the
cache lines a member covers, each access placed in its operation's code
(symbol+offset, one stretch per operation), as perf c2c rows give the
code address and function.

    case_profile.py STRUCTLINT VMLINUX STRUCT CLASSES > profile.json
"""
import json
import subprocess
import sys

NCPU = 8
UPDATE = {'hot-write', 'mixed', 'true-shared'}
LOOKUP = {'read-mostly', 'mixed'}


def share(total, n, k):
    """Line k's part of total over n lines: total // n, one more for
    the first total % n lines."""
    return total // n + (1 if k < total % n else 0)


NEXT = {}


def place(op):
    """The code place of an operation's next access: its accesses follow
    one another 8 bytes of code apart (one straight stretch, as a path
    that updates its members one after the other compiles)."""
    NEXT[op] = NEXT.get(op, 0x10 - 8) + 8
    return '%s+0x%x' % (op, NEXT[op])


def main():
    sl, vmlinux, name, classes = sys.argv[1:5]
    d = json.loads(subprocess.run([sl, 'report', '--json', vmlinux, name, '--classes', classes],
                                  check=True, capture_output=True, text=True).stdout)
    cl = d['cacheline_size']
    members = []
    for m in d['members']:
        # classes given to a member: its own entry (a composite's class
        # covers its members, which are not listed again)
        if not m['class_given'] or m['size'] == 0 or m['depth'] != 0:
            continue
        ops = []
        if m['class'] in UPDATE:
            ops.append((place(name + '_update'), 100, 100))
        if m['class'] in LOOKUP:
            ops.append((place(name + '_lookup'), 400, 0))
        o, e = m['offset'], m['offset'] + m['size']
        lines = range(o // cl, (e - 1) // cl + 1)
        n = len(lines)
        for k, line in enumerate(lines):
            # each operation's counts shared out over the lines exactly
            # (the remainder one each to the first lines), so a member's
            # totals per operation are the same whatever its size: an
            # operation's accesses to its members are together
            rows = [{'cpu': c, 'symbol': sym, 'loads': share(ld, n, k), 'stores': share(st, n, k)}
                    for c in range(NCPU) for sym, ld, st in ops]
            rows = [r for r in rows if r['loads'] or r['stores']]
            if rows:
                members.append({'offset': max(o, line * cl), 'rows': rows})
    json.dump({'schema': 'structlint.profile/v1', 'tool': 'tests/real/case_profile.py',
               'cacheline_size': cl, 'structs': [{'type': name, 'members': members}]},
              sys.stdout)


if __name__ == '__main__':
    main()
