#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden end-to-end tests of the structlint CLI on the compiled fixtures.

Usage (FXDIR is the output of tests/cli/fixtures.py; meson passes it):
  golden.py golden FXDIR KEY    text and JSON of every struct of fixture KEY,
                                every variant and option set, compared exactly
                                with tests/cli/golden/COMPILER/KEY/NAME[.TAG].{txt,json}
  golden.py pahole FXDIR KEY    tests/pahole_compare.py on the same inputs
  golden.py btf FXDIR           pahole_compare -F btf on the pahole -J copies
  golden.py special FXDIR       compressed sections, .gnu_debuglink, build-id
                                under --debug-root: output must equal the golden
  golden.py seed FXDIR KEY      (re)write the text goldens from pahole 1.24

Environment: STRUCTLINT (binary), PAHOLE, UPDATE_GOLDEN=1 to (re)write
the JSON goldens from structlint's current output, only for the structs
whose text output equals the text golden (a JSON golden is never taken
from a layout known to be wrong); UPDATE_GOLDEN=text also rewrites the
text goldens from structlint (only after checking them against pahole).

Regenerating: `UPDATE_GOLDEN=1 meson test -C BUILD --suite golden`, then
review `git diff tests/cli/golden`: every text golden must equal pahole's
output (`golden.py pahole` checks that for the variants where pahole is
right, manifest.PAHOLE_WRONG lists where it is not; `golden.py seed`
writes them from pahole) and every JSON golden must agree with its text
golden (checked below on every run).

Why goldens are per compiler, not per variant: member type names are the
compiler's DW_AT_name of the base type (gcc "long unsigned int", clang
"unsigned long"), and gcc puts DW_AT_alignment on structs whose alignment
comes from a member while clang does not, which changes pahole's closing
line (`} __attribute__((__aligned__(64)));` vs "Force padding").  DWARF 4
and DWARF 5 from the same compiler must give identical output, and do.
JSON decl_file is compared in full: fixtures.py maps the source and build
directories to fixed paths (fixtures.DECL_DIR), so it does not depend on
where the tree or the build directory is.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import fixtures  # noqa: E402
import manifest  # noqa: E402
import pahole_compare  # noqa: E402

GOLDEN = os.path.join(HERE, "golden")
STRUCTLINT = os.environ.get("STRUCTLINT", "structlint")
PAHOLE = os.environ.get("PAHOLE", "pahole")
UPDATE_TEXT = os.environ.get("UPDATE_GOLDEN") == "text"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1" or UPDATE_TEXT


def variants(fx):
    with open(os.path.join(fx, "variants.txt")) as f:
        return [v.strip() for v in f if v.strip()]


def option_sets(key):
    return [("", [])] + manifest.OPTION_SETS.get(key, [])


def golden_path(comp, key, name, tag, ext):
    return os.path.join(GOLDEN, comp, key,
                        name + ("." + tag if tag else "") + "." + ext)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=120)


def norm_json(text):
    """Parsed and re-indented, one key per line: reviewable diffs."""
    return json.dumps(json.loads(text), indent=1) + "\n"


def json_members(doc):
    """(name, offset, size, bit_offset, bit_size) of every member, any nesting."""
    out = []

    def walk(ms):
        for m in ms:
            out.append((m.get("name", ""), m.get("offset"), m.get("size"),
                        m.get("bit_offset"), m.get("bit_size")))
            walk(m.get("members", []))
    for s in doc.get("structs", []):
        walk(s.get("members", []))
    return sorted(out, key=repr)


def without_pointees(block):
    """The items of a parsed block less the bodies that pahole prints for
    pointers to anonymous structs and unions ("struct {" ... "} * name;"):
    they are not members of the layout; the pointer itself stays, named
    without the "* "."""
    out, opens = [], []
    for item in block:
        kind, depth, f, raw = item
        if kind == "open":
            opens.append(len(out))
        elif kind == "close" and opens:
            opens.pop()
        elif (kind == "member" and opens and
              f.get("type", "").startswith("(inline composite)")):
            start = opens.pop()
            if f["name"].startswith("* "):
                del out[start:]
                item = (kind, depth, dict(f, name=f["name"][2:]), raw)
            elif not f["name"] and re.match(r"\s*(const|volatile) ", out[start][3]):
                # pahole -E prints a qualified inline struct without the
                # member's name ("const struct leaf {...};"): any name
                item = (kind, depth, dict(f, name=None), raw)
        out.append(item)
    return out


def match_unnamed(jm, tm):
    """tm with each member whose name the text does not show (None) named
    as the JSON member at the same offset, size and bits."""
    out, left = [], [j for j in jm if j not in tm]
    for m in tm:
        if m[0] is None:
            j = next((j for j in left if j[1:] == m[1:]), None)
            if j:
                left.remove(j)
            m = j or ("?",) + m[1:]
        out.append(m)
    return sorted(out, key=repr)


def text_members(text):
    out = []
    for block in pahole_compare.parse(text):
        for kind, _, f, _ in without_pointees(block):
            if kind == "member":
                out.append((f["name"], f["offset"], f["size"],
                            f.get("bit_offset"), f.get("bit_size")))
    return sorted(out, key=repr)


# text summary figure -> JSON key (struct level, or in "summary")
SUMMARY_KEYS = {
    "size": "size", "cachelines": "cachelines", "padding": "padding",
    "bit_padding": "bit_padding", "members": "summary.members",
    "sum members": "summary.sum_members", "holes": "summary.holes",
    "sum holes": "summary.sum_holes", "paddings": "summary.paddings",
    "sum paddings": "summary.sum_paddings",
    "last cacheline": "summary.last_cacheline",
    "bit holes": "summary.bit_holes", "sum bit holes": "summary.sum_bit_holes",
    "sum bitfield members": "summary.sum_bitfield_bits",
    "forced alignments": "summary.forced_alignments",
    "forced holes": "summary.forced_holes",
    "sum forced holes": "summary.sum_forced_holes",
}


def text_summary(text):
    """{JSON key: value} of the outermost struct's summary comment lines,
    and the sorted byte and bit hole sizes of the whole text."""
    figs, holes, bit_holes = {}, [], []
    for block in pahole_compare.parse(text)[:1]:
        for kind, depth, f, _ in without_pointees(block):
            if kind == "summary" and depth == 0:
                for k, v in f.items():
                    if k in SUMMARY_KEYS:
                        figs[SUMMARY_KEYS[k]] = int(v)
            elif kind == "hole":
                holes.append(f["size"])
            elif kind == "bit hole":
                bit_holes.append(f["size"])
    return figs, sorted(holes), sorted(bit_holes)


def check_json_vs_text(jtext, ttext, where, errs):
    """The JSON golden must describe the same members, holes and summary
    figures as the text golden."""
    doc = json.loads(jtext)
    if doc.get("schema") != "structlint.layout/v1":
        errs.append("%s: schema is %r" % (where, doc.get("schema")))
    jm = json_members(doc)
    tm = match_unnamed(jm, text_members(ttext))
    if jm != tm:
        errs.append("%s: JSON members differ from the text golden:\n  json %s\n  text %s"
                    % (where, [m for m in jm if m not in tm], [m for m in tm if m not in jm]))
    if not doc.get("structs"):
        errs.append("%s: JSON has no structs" % where)
        return
    st = doc["structs"][0]
    figs, holes, bit_holes = text_summary(ttext)
    for key, want in figs.items():
        got = st.get("summary", {}).get(key[8:]) if key.startswith("summary.") else st.get(key)
        if got != want:
            errs.append("%s: JSON %s=%r, text summary says %r" % (where, key, got, want))
    jh = sorted(h["size"] for h in st.get("holes", []))
    jb = sorted(h["size_bits"] for h in st.get("bit_holes", []))
    if (jh, jb) != (holes, bit_holes):
        errs.append("%s: JSON holes %r bit holes %r, text %r %r"
                    % (where, jh, jb, holes, bit_holes))


def write(path, got):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(got)


def compare(path, got, where, errs):
    """Append to errs unless the file at path holds exactly got."""
    try:
        with open(path) as f:
            want = f.read()
    except OSError:
        errs.append("%s: no golden %s (UPDATE_GOLDEN=1 writes it)" % (where, path))
        return
    if want != got:
        import difflib
        errs.append("%s: differs from %s:\n%s" % (where, os.path.relpath(path, HERE), "".join(
            difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                 "golden", "structlint"))))


def structlint(args, where, errs):
    r = run([STRUCTLINT] + args)
    if r.returncode != 0:
        errs.append("%s: structlint %s exited %d: %s"
                    % (where, " ".join(args), r.returncode, r.stderr.strip()))
        return None
    return r.stdout


def abi_facts(fx, v, key, names):
    """{name: (sizeof, _Alignof)} as the variant's compiler computes them,
    by compiling a probe that includes the fixture source (the ground
    truth for the JSON "size" and "alignment"); None for fixtures that are
    not one CU or when the compiler is absent."""
    if key not in manifest.SINGLE_CU:
        return None
    ccvar, ccdef, _ = manifest.VARIANTS[v]
    cc = os.environ.get(ccvar) or ccdef
    src = os.path.abspath(os.path.join(HERE, "..", "..", "fixtures", "layout", key + ".c"))
    tmp = os.path.join(fx, "abi", v)
    os.makedirs(tmp, exist_ok=True)
    probe, exe = os.path.join(tmp, key + ".c"), os.path.join(tmp, key)
    with open(probe, "w") as f:
        f.write('#include <stdio.h>\n#include "%s"\nint main(void)\n{\n' % src)
        for n in names:
            t = n if n in manifest.TYPEDEF_NAMES else "%s %s" % (
                "union" if n in manifest.UNION_NAMES else "struct", n)
            f.write('\tprintf("%s %%zu %%zu\\n", sizeof(%s), _Alignof(%s));\n' % (n, t, t))
        f.write("\treturn 0;\n}\n")
    r = run([cc, "-std=gnu17", "-w", "-o", exe, probe])
    if r.returncode != 0:
        raise SystemExit("golden.py: probe for %s failed:\n%s" % (key, r.stderr))
    out = run([exe]).stdout.split()
    return dict((out[i], (int(out[i + 1]), int(out[i + 2]))) for i in range(0, len(out), 3))


def check_abi(doc, facts, where, errs):
    """JSON size and alignment against the compiler's sizeof/_Alignof."""
    for st in doc.get("structs", []):
        want = facts.get(st.get("name")) if facts else None
        if want and (st.get("size"), st.get("alignment")) != want:
            errs.append("%s: JSON size %r alignment %r; the compiler says sizeof %d "
                        "_Alignof %d" % (where, st.get("size"), st.get("alignment"),
                                         want[0], want[1]))


def do_golden(fx, key):
    errs = []
    fname, names = manifest.FIXTURES[key]
    for v in variants(fx):
        comp = manifest.compiler(v)
        path = os.path.join(fx, v, fname)
        facts = abi_facts(fx, v, key, names)
        for tag, opts in option_sets(key):
            for name in names:
                where = "%s %s %s%s" % (v, key, name, " [%s]" % tag if tag else "")
                tp = golden_path(comp, key, name, tag, "txt")
                jp = golden_path(comp, key, name, tag, "json")
                text = structlint(opts + [path, name], where, errs)
                text_ok = False
                if text is not None:
                    if UPDATE_TEXT:
                        write(tp, text)
                    n = len(errs)
                    compare(tp, text, where + " text", errs)
                    text_ok = len(errs) == n
                if (key, name) in manifest.TEXT_ONLY:
                    # no JSON (manifest.TEXT_ONLY says why): the text
                    # summary's size against the compiler's sizeof
                    size = text_summary(text or "")[0].get("size")
                    if facts and size != facts[name][0]:
                        errs.append("%s: text size %r, the compiler says sizeof %d"
                                    % (where, size, facts[name][0]))
                    continue
                js = structlint(opts + ["--json", path, name], where, errs)
                if js is None:
                    continue
                if js.count("\n") != 1 or not js.endswith("\n"):
                    errs.append("%s: --json without --pretty is not one line" % where)
                try:
                    got = norm_json(js)
                except ValueError as e:
                    errs.append("%s: --json is not JSON: %s" % (where, e))
                    continue
                abi = []
                check_abi(json.loads(got), facts, where, abi)
                if UPDATE and text_ok and not abi:
                    write(jp, got)
                elif UPDATE:
                    print("%s: JSON golden not written: the text differs from "
                          "its golden or the JSON from the compiler" % where)
                compare(jp, got, where + " json", errs)
                errs.extend(abi)
                if os.path.exists(tp) and os.path.exists(jp):
                    with open(tp) as f1, open(jp) as f2:
                        check_json_vs_text(f2.read(), f1.read(), where, errs)
    return report(errs)


def do_pahole(fx, key):
    errs, skipped = [], []
    targets = manifest.PAHOLE_TARGETS.get(key) or [manifest.FIXTURES[key]]
    for v in variants(fx):
        comp = manifest.compiler(v)
        for fname, names in targets:
            for tag, opts in option_sets(key):
                todo = []
                for n in names:
                    why = manifest.PAHOLE_WRONG.get((key, n, comp))
                    if why:
                        skipped.append("%s %s: %s" % (v, n, why))
                    else:
                        todo.append(n)
                if not todo:
                    continue
                args = [os.path.join(fx, v, fname)] + todo
                args += ["--structlint", STRUCTLINT, "--pahole", PAHOLE]
                args += ["--expand"] if "--expand" in opts else []
                if "--cacheline" in opts:
                    args += ["--cacheline", opts[opts.index("--cacheline") + 1]]
                r = run([sys.executable, pahole_compare.__file__] + args)
                if r.returncode != 0:
                    errs.append("%s [%s]:\n%s" % (v, tag or "default", r.stdout))
    for s in skipped:
        print("pahole cross-check skipped for " + s)
    return report(errs)


def do_btf(fx):
    errs = []
    d = os.path.join(fx, "special", "btf")
    for key, (fname, names) in manifest.FIXTURES.items():
        if key == "multi":  # pahole -J keeps one definition per name
            names = ["shared"]
        r = run([sys.executable, pahole_compare.__file__, "-F", "btf",
                 "--structlint", STRUCTLINT, "--pahole", PAHOLE,
                 os.path.join(d, fname)] + names)
        if r.returncode != 0:
            errs.append("btf %s:\n%s" % (key, r.stdout))
    return report(errs)


def do_special(fx):
    errs = []
    sp = os.path.join(fx, "special")
    for kind in ("zlib", "zstd"):
        if not os.path.isdir(os.path.join(sp, kind)):
            print("%s: objcopy here cannot write it, skipped" % kind)
            continue
        for key, (fname, names) in manifest.FIXTURES.items():
            if key == "multi":
                continue
            for name in names:
                where = "%s %s %s" % (kind, key, name)
                text = structlint([os.path.join(sp, kind, fname), name], where, errs)
                if text is not None:
                    check_against(golden_path("gcc", key, name, "", "txt"), text, where, errs)
    cases = [("debuglink", [os.path.join(sp, "debuglink", "multi")]),
             ("build-id", ["--debug-root", os.path.join(sp, "buildid-root"),
                           os.path.join(sp, "buildid", "multi")])]
    for label, args in cases:
        for name in manifest.FIXTURES["multi"][1]:
            text = structlint(args + [name], label, errs)
            if text is not None:
                check_against(golden_path("gcc", "multi", name, "", "txt"), text,
                              label + " " + name, errs)
    # A kernel-module-like ET_REL object (two CUs merged by `ld -r`: the
    # second CU's .debug_info relocations have non-zero addends) and a
    # shared object: same layouts as the single objects.
    for label, fname, etype in (("ko", "fx.ko", "REL"), ("so", "libfx.so", "DYN")):
        path = os.path.join(sp, label, fname)
        hdr = run(["readelf", "-h", path]).stdout
        if "Type:                              %s " % etype not in hdr:
            errs.append("%s: %s is not ET_%s:\n%s" % (label, path, etype, hdr))
        for key in ("holes", "nested"):
            for name in manifest.FIXTURES[key][1]:
                text = structlint([path, name], label, errs)
                if text is not None:
                    check_against(golden_path("gcc", key, name, "", "txt"), text,
                                  "%s %s" % (label, name), errs)
    # Without the debug root the stripped binary has no DWARF: must fail.
    r = run([STRUCTLINT, os.path.join(sp, "buildid", "multi"), "shared"])
    if r.returncode != 2 or r.stdout:
        errs.append("stripped binary without --debug-root: exit %d, stdout %r (want 2, empty)"
                    % (r.returncode, r.stdout))
    return report(errs)


def check_against(path, got, where, errs):
    with open(path) as f:
        want = f.read()
    if want != got:
        errs.append("%s: differs from %s:\n--- want\n%s--- got\n%s" % (where, path, want, got))


def decl_line(obj, name):
    """structlint's declaration comment for struct NAME defined in the
    fixture source of object OBJ (fixtures.py maps the source directory to
    fixtures.DECL_DIR in the debug info)."""
    src = os.path.splitext(obj)[0] + ".c"
    with open(os.path.join(HERE, "..", "..", "fixtures", "layout", src)) as f:
        for no, line in enumerate(f, 1):
            if line.startswith("struct %s {" % name):
                return "/* %s/%s:%d */\n" % (fixtures.DECL_DIR, src, no)
    raise SystemExit("golden.py: no struct %s in %s" % (name, src))


def do_seed(fx, key):
    """Text goldens from pahole (dwarf5 variant of each compiler)."""
    fname, names = manifest.FIXTURES[key]
    for comp in ("gcc", "clang"):
        for tag, opts in option_sets(key):
            popts = ["-E"] if "--expand" in opts else []
            if "--cacheline" in opts:
                popts += ["--cacheline_size=" + opts[opts.index("--cacheline") + 1]]
            for name in names:
                files = [fname]
                if key == "multi" and name == "conflict":
                    files = ["multi_a.o", "multi_b.o"]
                parts = []
                for f in files:
                    r = run([PAHOLE] + popts + ["-C", name,
                                                os.path.join(fx, comp + "-dwarf5", f)])
                    # several definitions: each is preceded by where it is
                    # declared (structlint(1), DESCRIPTION); pahole has no such line
                    parts.append(decl_line(f, name) + r.stdout if len(files) > 1
                                 else r.stdout)
                path = golden_path(comp, key, name, tag, "txt")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write("".join(parts))
    return 0


def report(errs):
    for e in errs:
        print(e)
    print("%d problem(s)" % len(errs))
    return 1 if errs else 0


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    mode, fx = sys.argv[1], sys.argv[2]
    key = sys.argv[3] if len(sys.argv) > 3 else None
    if mode == "golden":
        return do_golden(fx, key)
    if mode == "pahole":
        return do_pahole(fx, key)
    if mode == "btf":
        return do_btf(fx)
    if mode == "special":
        return do_special(fx)
    if mode == "seed":
        return do_seed(fx, key)
    sys.exit("golden.py: unknown mode " + mode)


if __name__ == "__main__":
    sys.exit(main())
