#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Split one batched pahole output and one batched structlint output into
structs and compare each pair with tests/pahole_compare.py's compare_texts().

Usage (called by tests/real/kernel-check.sh):
  compare_split.py --label LABEL --pahole P.txt --pahole-err P.err
                   --structlint S.txt --structlint-err S.err
                   [--details FILE] NAME...

pahole on a whole vmlinux costs ~10 s a call, so kernel-check.sh runs it once
with every name (`pahole --skip_missing -C a,b,c`) and structlint once with
every name pahole found; this script only splits and compares, it runs
nothing.  The comparison itself is pahole_compare.compare_texts(), the
project's one member-by-member comparator.

Prints one line per NAME:
  PASS LABEL NAME
  FAIL LABEL NAME: first difference (count)
  SKIP LABEL NAME: why (absent from this input)
and, with --details, writes every difference to FILE.
Exit status: 0 when nothing failed, 1 otherwise.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from pahole_compare import compare_texts  # noqa: E402

HEAD_RE = re.compile(r"^(struct|union) (\S+) \{$")


def split_all(text):
    """([(name, block text)...], [(line number, line)...]): every top-level
    `struct NAME {` ... `}...;` block (column 0 on both ends, as pahole and
    structlint print them) in the order printed, a name as often as it is
    printed (pahole without -C prints each distinct definition of a name,
    structlint each definition it tells apart), and the lines outside every
    block (blank lines excepted)."""
    blocks, outside, name, cur = [], [], None, []
    for no, line in enumerate(text.splitlines(True), 1):
        if name is None:
            m = HEAD_RE.match(line.rstrip("\n"))
            if m:
                name, cur = m.group(2), [line]
            elif line.strip():
                outside.append((no, line.rstrip("\n")))
            continue
        cur.append(line)
        if line.startswith("}"):
            blocks.append((name, "".join(cur)))
            name, cur = None, []
    if name is not None:  # unterminated: keep it, the comparator reports it
        blocks.append((name, "".join(cur)))
    return blocks, outside


def split_blocks(text):
    """{name: block text}: the first block printed for each name (see
    split_all())."""
    blocks = {}
    for name, block in split_all(text)[0]:
        blocks.setdefault(name, block)
    return blocks


def err_for(name, err_lines):
    """The structlint stderr line about NAME: one prefixed 'NAME: ' by the
    per-name fallback, else the whole batch's first line."""
    for ln in err_lines:
        if ln.startswith(name + ": "):
            return ln[len(name) + 2:]
    return err_lines[0] if err_lines else "no output, no error message"


def first_difference(diffs):
    """One line for the first difference; for a text-only difference, the
    first removed (pahole) and added (structlint) lines of the diff."""
    lines = diffs[0].split("\n")
    if " struct(s), " in lines[0]:
        # The comparator split a block where the other tool did not (its
        # parser does not know every opener, e.g. `const struct {`): the
        # first lines of the text diff say more.
        lines = next((d for d in diffs if d.startswith("whole text differs")),
                     diffs[0]).split("\n")
    if not lines[0].startswith("whole text differs"):
        return lines[0]
    minus = next((ln for ln in lines if ln.startswith("-") and not ln.startswith("---")), "")
    plus = next((ln for ln in lines if ln.startswith("+") and not ln.startswith("+++")), "")
    return "text differs: pahole %r, structlint %r" % (minus[1:].strip(), plus[1:].strip())


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--label", required=True)
    ap.add_argument("--pahole", required=True)
    ap.add_argument("--pahole-err", required=True)
    ap.add_argument("--structlint", required=True)
    ap.add_argument("--structlint-err", required=True)
    ap.add_argument("--details")
    ap.add_argument("names", nargs="+")
    a = ap.parse_args(argv)

    pb = split_blocks(read(a.pahole))
    sb = split_blocks(read(a.structlint))
    perr = read(a.pahole_err)
    serr = [ln for ln in read(a.structlint_err).splitlines() if ln.strip()]
    details = open(a.details, "a", encoding="utf-8") if a.details else None
    failed = 0
    for name in a.names:
        if name not in pb:
            why = "not in this input"
            if "type '%s' not found" % name in perr:
                why += " (pahole: type '%s' not found)" % name
            print("SKIP %s %s: %s" % (a.label, name, why))
            continue
        if name not in sb:
            failed += 1
            print("FAIL %s %s: structlint printed no layout: %s"
                  % (a.label, name, err_for(name, serr)))
            if details:
                details.write("== %s %s: structlint printed no layout\n  %s\n"
                              % (a.label, name, "\n  ".join(serr)))
            continue
        diffs = compare_texts(pb[name], sb[name], "pahole", "structlint")
        if not diffs:
            print("PASS %s %s" % (a.label, name))
            continue
        failed += 1
        first = first_difference(diffs)
        print("FAIL %s %s: %s (%d difference(s))" % (a.label, name, first, len(diffs)))
        if details:
            details.write("== %s %s: %d difference(s)\n" % (a.label, name, len(diffs)))
            for d in diffs:
                details.write("  " + d.replace("\n", "\n  ") + "\n")
    if details:
        details.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
