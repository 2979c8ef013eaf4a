#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The pictures, a third new-user trial of issue 16 (tests/cli/test_map.py's
helpers), on the 6.1 mem_cgroup_per_node miniature and its proposals.

    test_map_trial3.py --list   case names
    test_map_trial3.py CASE     run one case (exit 0 pass, 1 fail)
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_check import check_page  # noqa: E402
from test_map import MEMCG61, SL, TMP, memcg, obj, rows_of, run  # noqa: E402

WIDTHS = (20, 24, 30, 40, 60, 80)


def starts_by_line():
    """{line: [offsets within the line of the top-level members starting on it]}."""
    p = subprocess.run([SL, 'layout', obj(), 'mem_cgroup_per_node', '--json'],
                       capture_output=True, text=True, check=True)
    out = {}
    for mb in json.loads(p.stdout)['structs'][0]['members']:
        if mb['depth'] == 0:
            out.setdefault(mb['offset'] // 64, []).append(mb['offset'] % 64)
    return out


def cell_bytes(text):
    return int(re.search(r'1 cell = (\d+) byte', ' '.join(text.split())).group(1))


def case_caret_first_cell():
    # the legend: "^: a member's first cell": a '^' stands only under a
    # cell where a member starts, never under a member continued from the
    # line before (lruvec_stats on line 35, lru_zone_size on 36..38)
    starts = starts_by_line()
    for cols in WIDTHS:
        t = run('report', *memcg('--map'), columns=cols)
        assert "^: a member's first cell" in ' '.join(t.split()), t
        n = cell_bytes(t)
        for k, (cells, names) in rows_of(t).items():
            bar = cells.index('|') + 1
            under = names[0] if names else ''
            for mt in re.finditer(r'\^', under.split('+')[0]):
                c = mt.start() - bar
                here = [o for o in starts.get(k, []) if o < (c + 1) * n]
                assert here, (cols, k, c, cells, names)
            carets = under.split('+')[0].count('^')
            assert carets <= len(starts.get(k, [])), (cols, k, cells, names)


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()),
                  cleanup=lambda: shutil.rmtree(TMP, ignore_errors=True))
