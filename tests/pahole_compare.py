#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare structlint's text layout with pahole's (the oracle), member by member.

Usage:
  pahole_compare.py [options] FILE NAME...
    --structlint PATH     structlint binary (default $STRUCTLINT or "structlint")
    --pahole PATH         pahole binary (default $PAHOLE or "pahole")
    -F, --format dwarf|btf   passed as `pahole -F` and `structlint --format-path`
    --cacheline N         pahole --cacheline_size=N, structlint --cacheline N
    -E, --expand          pahole -E, structlint --expand
    --against FILE2       compare pahole on FILE against pahole on FILE2
                          instead of structlint (tests this comparator)
    -q, --quiet           print only the verdict line

Both outputs are parsed into items (members, byte and bit holes, cacheline
boundaries, padding notes, summary lines) and compared field by field
(name, type, offset, size, bit offset/size, hole sizes, summary figures);
then the whole texts are compared line by line.  Every difference is printed.
Exit 0 when identical, 1 on any difference, 2 when a tool could not be run.
pahole 1.24 prints the first definition of a name only: give a FILE that
holds one definition when a program has several.
"""
import argparse
import difflib
import os
import re
import subprocess
import sys

MEMBER_RE = re.compile(
    r"^(?P<decl>.*?);\s*/\*\s*(?P<off>\d+)(?::\s*(?P<bit>\d+))?\s+(?P<size>\d+)\s*\*/$")
CLOSE_RE = re.compile(r"^\}\s*(?P<name>[^;]*);\s*/\*\s*(?P<off>\d+)\s+(?P<size>\d+)\s*\*/$")
HOLE_RE = re.compile(r"^/\* XXX (?P<n>\d+) (?P<unit>bytes?|bits?) hole, try to pack \*/$")
CL_RE = re.compile(r"^/\* --- cacheline (?P<n>\d+) boundary \((?P<b>\d+) bytes\)"
                   r"(?: was (?P<ago>\d+) bytes ago)? --- \*/$")
LASTPAD_RE = re.compile(r"^/\* XXX last struct has (?P<n>\d+) bytes? of padding \*/$")
SUMMARY_RE = re.compile(r"^/\* (?P<body>(size|sum members|padding|bit_padding|bit holes|"
                        r"paddings|forced alignments|last cacheline|members|"
                        r"sum bitfield|holes)[^*]*) \*/$")
# "typedef struct {" heads a struct only named by a typedef: its name is
# on the closing line ("} name;"), which the tail comparison covers.
HEAD_RE = re.compile(r"^(?P<typedef>typedef )?(?P<kind>struct|union)(?: (?P<name>\S+))? \{$")
OPEN_RE = re.compile(r"^(?:/\* typedef (?P<typedef>\S+) \*/ )?(?:(?:const|volatile) )*"
                     r"(?P<kind>struct|union)(?: \S+)? \{$")
FP_NAME_RE = re.compile(r"\(\s*\*\s*(?P<name>[A-Za-z_]\w*)\s*\)")
NAME_RE = re.compile(r"(?P<name>[A-Za-z_]\w*)\s*(?P<dims>(\[\d*\])*)\s*(?::\s*\d+)?\s*"
                     r"(?P<attr>__attribute__\(\(.*\)\))?$")


def split_decl(decl):
    """(type, name) of a member declaration as pahole prints it."""
    decl = " ".join(decl.split())
    attr = ""
    m = re.search(r"\s*(__attribute__\(\(.*\)\))$", decl)
    if m:
        attr = m.group(1)
        decl = decl[:m.start()]
    bits = ""
    m = re.search(r":\s*(\d+)$", decl)
    if m:
        bits = m.group(1)
        decl = decl[:m.start()].rstrip()
    m = FP_NAME_RE.search(decl)
    if m:
        name = m.group("name")
        typ = decl[:m.start("name")] + decl[m.end("name"):]
    else:
        m = re.search(r"([A-Za-z_]\w*)\s*((\[\d*\])*)$", decl)
        if m and decl[:m.start()].strip():
            name = m.group(1)
            typ = decl[:m.start()].rstrip() + m.group(2)
        else:  # unnamed bitfield (":64") or bare type
            name, typ = "", decl
    typ = " ".join(typ.replace("*", " * ").split()).replace("* *", "**")
    if attr:
        typ += " " + attr
    return typ, name, bits


def parse(text):
    """List of blocks; each block is a list of (kind, depth, fields dict, line)."""
    blocks, cur, depth = [], None, 0
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if cur is None:
            m = HEAD_RE.match(line)
            if m:
                cur, depth = [("head", 0, {"kind": m.group("kind"),
                                           "typedef": bool(m.group("typedef")),
                                           "name": m.group("name") or ""}, raw)], 1
            continue
        if line.startswith("}") and depth == 1:
            cur.append(("tail", 0, {"text": line}, raw))
            blocks.append(cur)
            cur, depth = None, 0
            continue
        # pahole -E: "struct mid {", "union {", or through a typedef
        # "/* typedef leaf_t */ struct leaf {"
        m = OPEN_RE.match(line)
        if m:
            cur.append(("open", depth, {"kind": m.group("kind"),
                                        "typedef": m.group("typedef") or ""}, raw))
            depth += 1
            continue
        m = CLOSE_RE.match(line)
        if m:
            depth -= 1
            # "} pair[2]; /* 48 16 */": an expanded array of structs
            name, dims = re.match(r"^(.*?)((?:\[\d*\])*)$", m.group("name").strip()).groups()
            cur.append(("member", depth, {"name": name,
                                          "type": "(inline composite)" + dims,
                                          "offset": int(m.group("off")),
                                          "size": int(m.group("size"))}, raw))
            continue
        if line.startswith("}") and line.endswith(";"):  # closing without comment
            depth -= 1
            cur.append(("close", depth, {"text": line}, raw))
            continue
        m = HOLE_RE.match(line)
        if m:
            kind = "bit hole" if m.group("unit").startswith("bit") else "hole"
            cur.append((kind, depth - 1, {"size": int(m.group("n"))}, raw))
            continue
        m = CL_RE.match(line)
        if m:
            cur.append(("cacheline", depth - 1, {"line": int(m.group("n")),
                                                 "bytes": int(m.group("b")),
                                                 "ago": int(m.group("ago") or 0)}, raw))
            continue
        m = LASTPAD_RE.match(line)
        if m:
            cur.append(("last struct padding", depth - 1, {"size": int(m.group("n"))}, raw))
            continue
        m = SUMMARY_RE.match(line)
        if m:
            body = m.group("body")
            figs = dict((k.strip(), v) for k, v in
                        re.findall(r"([a-z_ ]+):\s*(\d+)", body))
            cur.append(("summary", depth - 1,
                        {"name": body.split(":")[0], "line": body, **figs}, raw))
            continue
        m = MEMBER_RE.match(line)
        if m:
            typ, name, bits = split_decl(m.group("decl"))
            f = {"name": name, "type": typ, "offset": int(m.group("off")),
                 "size": int(m.group("size"))}
            if m.group("bit") is not None:
                f["bit_offset"] = int(m.group("bit"))
            if bits:
                f["bit_size"] = int(bits)
            cur.append(("member", depth - 1, f, raw))
            continue
        cur.append(("other", depth - 1, {"text": line}, raw))
    if cur is not None:
        cur.append(("unterminated", 0, {}, ""))
        blocks.append(cur)
    return blocks


def label(item):
    kind, depth, f, _ = item
    if kind == "member":
        return "member '%s'" % f["name"] if f["name"] else "unnamed member"
    return kind


def compare_blocks(a, b, la, lb, out):
    """Field-by-field comparison of two parsed blocks; appends to out."""
    ka = [(k, d, f.get("name", "")) for k, d, f, _ in a]
    kb = [(k, d, f.get("name", "")) for k, d, f, _ in b]
    sm = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            for x, y in zip(a[i1:i2], b[j1:j2]):
                fa, fb = x[2], y[2]
                if x[0] != y[0] or x[1] != y[1]:
                    out.append("%s (depth %d) in %s where %s has %s (depth %d)"
                               % (label(x), x[1], la, lb, label(y), y[1]))
                    continue
                for key in sorted(set(fa) | set(fb)):
                    if fa.get(key) != fb.get(key):
                        out.append("%s: %s: %s=%r %s=%r" % (label(x), key, la,
                                                            fa.get(key), lb, fb.get(key)))
            continue
        for x in a[i1:i2]:
            out.append("only in %s: %s: %s" % (la, label(x), x[3].strip()))
        for y in b[j1:j2]:
            out.append("only in %s: %s: %s" % (lb, label(y), y[3].strip()))


def compare_texts(ta, tb, la, lb):
    """All differences between two layout texts, as printable lines."""
    out = []
    ba, bb = parse(ta), parse(tb)
    if len(ba) != len(bb):
        out.append("%s has %d struct(s), %s has %d" % (la, len(ba), lb, len(bb)))
    for x, y in zip(ba, bb):
        compare_blocks(x, y, la, lb, out)
    if ta != tb:
        diff = list(difflib.unified_diff(ta.splitlines(True), tb.splitlines(True),
                                         la, lb))
        out.append("whole text differs:\n" + "".join(diff).rstrip("\n"))
    return out


def run_tool(cmd):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        print("pahole_compare: cannot run %s: %s" % (cmd[0], e))
        sys.exit(2)
    return r


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("names", nargs="+")
    ap.add_argument("--structlint", default=os.environ.get("STRUCTLINT", "structlint"))
    ap.add_argument("--pahole", default=os.environ.get("PAHOLE", "pahole"))
    ap.add_argument("-F", "--format", choices=["dwarf", "btf"])
    ap.add_argument("--cacheline", type=int)
    ap.add_argument("-E", "--expand", action="store_true")
    ap.add_argument("--against")
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args(argv)

    def pahole_cmd(path, name):
        c = [a.pahole]
        if a.format:
            c += ["-F", a.format]
        if a.cacheline:
            c += ["--cacheline_size=%d" % a.cacheline]
        if a.expand:
            c += ["-E"]
        return c + ["-C", name, path]

    def structlint_cmd(path, name):
        c = [a.structlint]
        if a.format:
            c += ["--format-path", a.format]
        if a.cacheline:
            c += ["--cacheline", str(a.cacheline)]
        if a.expand:
            c += ["--expand"]
        return c + [path, name]

    right = "pahole(%s)" % a.against if a.against else "structlint"
    ndiff = 0
    for name in a.names:
        p = run_tool(pahole_cmd(a.file, name))
        # pahole 1.24 exits 0 and prints to stderr for an absent name
        if p.returncode != 0 or not p.stdout.strip():
            print("pahole_compare: pahole found no '%s' in %s: %s"
                  % (name, a.file, p.stderr.strip()))
            return 2
        s = run_tool(pahole_cmd(a.against, name) if a.against
                     else structlint_cmd(a.file, name))
        diffs = compare_texts(p.stdout, s.stdout, "pahole", right)
        if s.returncode != 0:
            diffs.insert(0, "%s exited %d: %s" % (right, s.returncode, s.stderr.strip()))
        if diffs:
            ndiff += 1
            if not a.quiet:
                print("== %s %s: %d difference(s)" % (a.file, name, len(diffs)))
                for d in diffs:
                    print("  " + d.replace("\n", "\n  "))
    print("pahole_compare: %d of %d struct(s) differ" % (ndiff, len(a.names)))
    return 1 if ndiff else 0


if __name__ == "__main__":
    sys.exit(main())
