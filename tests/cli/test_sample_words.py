#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sample inputs a new user pastes, end to end (structlint report):
`perf script` without -F on a page-fault recording is recognised and
refused with the exact -F line perf accepts for that event
(fixtures/samples/c2c/perf6.1-local/perf_script_default_page_faults.txt);
a perf c2c Pareto block pasted without its '#' header lines is read with
the columns recognised from its rows, the same as with them
(fixtures/samples/c2c/published/c2c-pareto-blocks-only-memcg-css.txt), and
rows whose columns cannot be recognised name the header lines to paste.

    test_sample_words.py --list          case names
    test_sample_words.py CASE            run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC (compiler).
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SL = os.environ.get('STRUCTLINT', os.path.join(ROOT, 'build', 'structlint'))
CC = os.environ.get('CC_GCC', 'gcc')
FX = os.path.join(ROOT, 'fixtures', 'samples', 'c2c')
TMP = tempfile.mkdtemp(prefix='slt-words-')

CSS_C = r'''
struct list_head { struct list_head *next, *prev; };
struct percpu_ref { unsigned long percpu_count_ptr; void *data; };
struct cgroup_subsys_state {
	void *cgroup;
	void *ss;
	struct percpu_ref refcnt;
	struct list_head sibling;
	struct list_head children;
	struct list_head rstat_css_node;
	int id;
	unsigned int flags;
	unsigned long serial_nr;
	int online_cnt;
};
struct cgroup_subsys_state css;
'''


def css_obj():
    src, out = os.path.join(TMP, 'css.c'), os.path.join(TMP, 'css.o')
    if not os.path.exists(out):
        with open(src, 'w') as f:
            f.write(CSS_C)
        subprocess.run([CC, '-g', '-c', '-o', out, src], check=True)
    return out


def run(*args, rc=0):
    p = subprocess.run([SL] + [str(a) for a in args], capture_output=True, text=True, cwd=TMP)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    return p


def case_perf_script_default():
    f = os.path.join(FX, 'perf6.1-local', 'perf_script_default_page_faults.txt')
    p = run('report', css_obj(), 'cgroup_subsys_state', '--samples', f, rc=2)
    assert p.stdout == '', p.stdout
    assert p.stderr == (
        'structlint: %s: no sample line has a data address: 24 lines of event page-faults '
        "without one (perf script's default output prints it only for raw PMU events: perf mem, "
        'perf c2c) (print it: perf script -F tid,time,event,addr,ip,sym,dso -i perf.data '
        '(page-fault samples carry no CPU: perf refuses cpu for them; record with perf record -d '
        'for addresses), or give the perf.data itself: --samples perf.data)\n' % f), p.stderr


def case_c2c_blocks_only():
    full = os.path.join(FX, 'published', 'c2c-pareto-excerpt-memcg-css-with-pahole.txt')
    part = os.path.join(FX, 'published', 'c2c-pareto-blocks-only-memcg-css.txt')
    # the line address is the instance's line 1 (refcnt and id's line)
    args = ['report', css_obj(), 'cgroup_subsys_state', '--line', '0xffff8881c0642000=1']
    a = run(*args, '--samples', full)
    b = run(*args, '--samples', part)
    assert a.stdout == b.stdout, (a.stdout, b.stdout)
    # the same, and one warning saying the columns were recognised
    warn = ('structlint: warning: %s: perf c2c Pareto blocks without their header lines: '
            'columns recognised from the rows (4 percentage columns read as HITM remote, local, '
            "then stores; a -d peer report's peer columns read as HITM)\n" % part)
    assert b.stderr.startswith(warn) and warn not in a.stderr, (a.stderr, b.stderr)
    b = b.stdout
    assert 'id  bytes 80..83' in b and 'hitm=1354' in b, b


def case_c2c_mail_quoted():
    # the excerpt as a mail reply quotes it ('> ', '>> '): the same report,
    # and a note saying the quote prefixes were left out
    full = os.path.join(FX, 'published', 'c2c-pareto-excerpt-memcg-css-with-pahole.txt')
    quoted = os.path.join(FX, 'published', 'c2c-pareto-memcg-css-mail-quoted.txt')
    args = ['report', css_obj(), 'cgroup_subsys_state', '--line', '0xffff8881c0642000=1']
    a = run(*args, '--samples', full)
    b = run(*args, '--samples', quoted)
    assert a.stdout == b.stdout and 'hitm=' in b.stdout, (a.stdout, b.stdout)
    note = ("structlint: note: %s: read as a mail quote: the quote prefix ('> ', '>> ') of 16 "
            "lines left out\n" % quoted)
    assert b.stderr.startswith(note) and 'mail quote' not in a.stderr, (a.stderr, b.stderr)
    # not a format: the error names the file and the first line with text
    f = os.path.join(TMP, 'quoted_prose.txt')
    with open(f, 'w') as o:
        o.write('\n> Hi,\n> the numbers:\n')
    p = run('report', css_obj(), 'cgroup_subsys_state', '--samples', f, rc=2)
    assert p.stderr.startswith("structlint: %s:2: sample format not recognised from its first "
                               "line with text 'Hi,' (accepted: " % f), p.stderr


def case_c2c_unrecognised():
    f = os.path.join(TMP, 'three.txt')
    with open(f, 'w') as o:
        o.write('  ------\n      0        5       10        0  0x404080\n  ------\n'
                '     20.00%   10.00%    0.00%        0x0     0       1  0x401126  '
                '0  0  0  3  1  [.] f  a  a.c:1  0\n')
    p = run('report', css_obj(), 'cgroup_subsys_state', '--samples', f, rc=2)
    assert p.stderr == (
        "structlint: %s:4: perf c2c Pareto rows without their header lines, and their columns "
        "cannot be recognised from the rows: 4, 5 or 6 percentage columns (HITM or peer, then "
        "stores) were expected (paste the two '#' lines perf c2c report --stdio prints above the "
        "first block: the column groups (\"#        ----- HITM -----  ------- Store Refs ------  "
        "...\") and the column names (\"#   Num  RmtHitm  LclHitm   L1 Hit  L1 Miss ...  Offset "
        "...  Code address ...\"))\n" % f), p.stderr


def case_c2c_rows_only():
    # Pareto rows alone (no block line, no '#' lines): recognised as perf
    # c2c and refused at the first row, naming what is missing, not the
    # generic "sample format not recognised"
    src = os.path.join(FX, 'published', 'c2c-pareto-blocks-only-memcg-css.txt')
    f = os.path.join(TMP, 'rows_only.txt')
    with open(f, 'w') as o:
        o.write('\n' + ''.join(l for l in open(src).readlines()[1:] if '%' in l))
    p = run('report', css_obj(), 'cgroup_subsys_state', '--samples', f, rc=2)
    err = p.stderr.strip().split('\n')
    assert len(err) == 1 and err[0].startswith(
        'structlint: %s:2: perf c2c Pareto rows without their block header: no cacheline line '
        '("Num <totals> 0xLINE") above the rows gives the cache line they are offsets in, and no '
        "'#' header line names their columns (paste each block whole" % f), p.stderr


if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
