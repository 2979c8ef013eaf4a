#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Whole-input parity of structlint's text with pahole's: every struct and
union definition pahole printed, compared byte for byte with structlint's.

Usage (called by tests/real/parity.sh, which runs the tools):
  parity.py [--details FILE] [--examples N] --input LABEL FORMAT DIR ...

DIR holds pahole.txt (pahole's whole output for the input) and
structlint-*.txt (structlint's, in the order given by DIR/structlint.list:
a name found in a later file replaces what earlier files printed for it).

Definitions are paired by name: identical texts first, then the same
pahole dedup key (parity_rules.dedup_key), then in the order printed.  A
pair that differs is allowed only when every differing line pair is
explained by a rule of parity_rules.LINE_RULES; a definition only
structlint prints only by EXTRA_RULE; a line structlint prints outside the
blocks only by OUTSIDE_RULE.  Everything else is unexplained, named by
the first matching parity_rules.UNEXPLAINED_SIGNS entry (or 'other').

Prints, per input and in total: definitions compared (pahole's), identical,
allowed per category, unexplained per signature; the allowed categories
with their reasons; examples.  Every unexplained difference goes to
--details with tests/pahole_compare.py's field-by-field comparison.
Exit 0 when nothing is unexplained, 1 otherwise, 2 on a missing file.
"""
import argparse
import collections
import difflib
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, ".."))
from compare_split import split_all  # noqa: E402
from pahole_compare import compare_texts, parse  # noqa: E402
import parity_rules as R  # noqa: E402


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def structlint_blocks(d):
    """({name: [block...]}, [outside lines]) over DIR's structlint files."""
    by_name, outside = collections.OrderedDict(), []
    with open(os.path.join(d, "structlint.list"), encoding="utf-8") as f:
        files = [ln.strip() for ln in f if ln.strip()]
    for fn in files:
        blocks, out = split_all(read(os.path.join(d, fn)))
        outside += [(fn, no, ln) for no, ln in out]
        seen = collections.OrderedDict()
        for name, b in blocks:
            seen.setdefault(name, []).append(b)
        by_name.update(seen)
    return by_name, outside


def key_of(block):
    parsed = parse(block)
    return R.dedup_key(parsed[0]) if parsed else None


def explain_pair(p, s, fmt):
    """(set of rule names, None) when every difference is explained, else
    (rules so far, unified diff lines)."""
    pl, sl = p.splitlines(), s.splitlines()
    used = set()
    sm = difflib.SequenceMatcher(None, pl, sl, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        ok = op == "replace" and i2 - i1 == j2 - j1
        if ok:
            for a, b in zip(pl[i1:i2], sl[j1:j2]):
                rule = next((n for n, fn, _ in R.LINE_RULES if fn(a, b, fmt)), None)
                if rule is None:
                    ok = False
                    break
                used.add(rule)
        if not ok:
            return used, list(difflib.unified_diff(pl, sl, "pahole", "structlint",
                                                   lineterm="", n=1))
    return used, None


def pair_up(pb, sb):
    """[(p, s)...], unmatched p's, unmatched s's for one name."""
    pairs, ps, ss = [], list(pb), list(sb)
    for p in list(ps):  # identical texts
        if p in ss:
            pairs.append((p, p))
            ps.remove(p)
            ss.remove(p)
    for p in list(ps):  # same dedup key
        k = key_of(p)
        s = next((x for x in ss if key_of(x) == k), None)
        if s is not None:
            pairs.append((p, s))
            ps.remove(p)
            ss.remove(s)
    while ps and ss:  # in order
        pairs.append((ps.pop(0), ss.pop(0)))
    return pairs, ps, ss


class Tally:
    def __init__(self):
        self.compared = self.identical = 0
        self.allowed = collections.Counter()
        self.unexplained = collections.Counter()
        self.allowed_defs = 0
        self.examples = collections.defaultdict(list)

    def add(self, other):
        self.compared += other.compared
        self.identical += other.identical
        self.allowed_defs += other.allowed_defs
        self.allowed.update(other.allowed)
        self.unexplained.update(other.unexplained)

    def line(self, label):
        al = ", ".join("%s %d" % kv for kv in sorted(self.allowed.items())) or "none"
        un = ", ".join("%s %d" % kv for kv in sorted(self.unexplained.items())) or "none"
        return ("%s: %d compared, %d identical, %d allowed (%s), %d unexplained (%s)"
                % (label, self.compared, self.identical, self.allowed_defs, al,
                   sum(self.unexplained.values()), un))


def check_input(label, fmt, d, details, n_examples):
    t = Tally()
    pblocks, poutside = split_all(read(os.path.join(d, "pahole.txt")))
    pby = collections.OrderedDict()
    for name, b in pblocks:
        pby.setdefault(name, []).append(b)
    sby, soutside = structlint_blocks(d)

    def example(cat, name):
        if len(t.examples[cat]) < n_examples:
            t.examples[cat].append(name)

    def unexplained(sign, name, text):
        t.unexplained[sign] += 1
        example("unexplained " + sign, name)
        if details:
            details.write("== %s %s: %s\n  %s\n" % (label, name, sign,
                                                 text.replace("\n", "\n  ")))

    for no, ln in poutside:
        unexplained("pahole-outside-block", "pahole.txt:%d" % no, ln)
    for fn, no, ln in soutside:
        if R.DECL_LABEL_RE.match(ln):
            t.allowed[R.OUTSIDE_RULE[0] + " (lines)"] += 1
            example(R.OUTSIDE_RULE[0], "%s:%d" % (fn, no))
        else:
            unexplained("structlint-outside-block", "%s:%d" % (fn, no), ln)

    for name, pb in pby.items():
        sb = sby.get(name, [])
        pairs, only_p, only_s = pair_up(pb, sb)
        t.compared += len(pb)
        pkeys = set(key_of(p) for p in pb)
        for p, s in pairs:
            if p == s:
                t.identical += 1
                continue
            used, diff = explain_pair(p, s, fmt)
            if diff is None:
                t.allowed_defs += 1
                for r in used:
                    t.allowed[r] += 1
                    example(r, name)
                continue
            sign = R.unexplained_sign(diff)
            unexplained(sign, name, "\n".join(compare_texts(p, s, "pahole", "structlint")))
        for p in only_p:
            unexplained("missing-in-structlint", name, p)
        for s in only_s:
            if key_of(s) in pkeys:
                t.allowed[R.EXTRA_RULE[0] + " (extra definitions)"] += 1
                example(R.EXTRA_RULE[0], name)
            else:
                unexplained("extra-in-structlint", name, s)
    return t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--input", nargs=3, action="append", required=True,
                    metavar=("LABEL", "FORMAT", "DIR"))
    ap.add_argument("--details")
    ap.add_argument("--examples", type=int, default=3)
    a = ap.parse_args(argv)

    details = open(a.details, "w", encoding="utf-8") if a.details else None
    total = Tally()
    tallies = []
    for label, fmt, d in a.input:
        for fn in ("pahole.txt", "structlint.list"):
            if not os.path.exists(os.path.join(d, fn)):
                print("parity: %s: no %s in %s" % (label, fn, d), file=sys.stderr)
                return 2
        t = check_input(label, fmt, d, details, a.examples)
        tallies.append((label, t))
        total.add(t)
        print(t.line(label))
    print(total.line("total"))
    print("allowed differences:")
    for name, _, why in R.LINE_RULES + [(R.EXTRA_RULE[0], None, R.EXTRA_RULE[1]),
                                         (R.OUTSIDE_RULE[0], None, R.OUTSIDE_RULE[1])]:
        print("  %s: %s" % (name, why))
    print("examples:")
    for label, t in tallies:
        for cat, names in sorted(t.examples.items()):
            print("  %s %s: %s" % (label, cat, ", ".join(names)))
    if details:
        details.close()
    return 1 if sum(total.unexplained.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
