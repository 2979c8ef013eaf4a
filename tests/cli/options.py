#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CLI option tests: --list (text and JSON), --decl, --color, NO_COLOR,
several names in one call, a name with two definitions, the explicit
`layout` subcommand, --help and --version.

Usage: options.py --list            names of the cases
       options.py FXDIR CASE        run one case (FXDIR from fixtures.py)

Expected texts are the pahole-verified goldens (tests/cli/golden/gcc/...)
and pahole itself; inputs are the gcc-dwarf5 fixtures.
"""
import fnmatch
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixtures  # noqa: E402
import golden  # noqa: E402

STRUCTLINT = os.environ.get("STRUCTLINT", "structlint")
PAHOLE = os.environ.get("PAHOLE", "pahole")
ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")


class Fail(Exception):
    pass


def sl(args, env=None, want_rc=0):
    """Run structlint; stdout.  Fails unless exit status is want_rc and,
    on success, stderr is empty."""
    e = dict(os.environ)
    e.update(env or {})
    for k, v in list(e.items()):
        if v is None:
            del e[k]
    r = subprocess.run([STRUCTLINT] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60, env=e)
    what = "structlint " + " ".join(args)
    print("%s -> exit %d" % (what, r.returncode))
    if r.returncode != want_rc:
        raise Fail("%s: exit %d, want %d; stderr %r" % (what, r.returncode, want_rc,
                                                         r.stderr))
    if want_rc == 0 and r.stderr:
        raise Fail("%s: stderr not empty: %r" % (what, r.stderr))
    return r.stdout


def expect_eq(what, want, got):
    if want != got:
        import difflib
        raise Fail("%s:\n%s" % (what, "".join(difflib.unified_diff(
            want.splitlines(True), got.splitlines(True), "want", "got"))))


def gold(key, name, tag=""):
    with open(golden.golden_path("gcc", key, name, tag, "txt")) as f:
        return f.read()


def obj(fx, name):
    return os.path.join(fx, "gcc-dwarf5", name)


def pahole_sizes(path):
    """{name: size} of the structs pahole --sizes lists (first definition)."""
    r = subprocess.run([PAHOLE, "--sizes", path], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True, check=True)
    return dict((ln.split("\t")[0], int(ln.split("\t")[1]))
                for ln in r.stdout.splitlines() if ln.strip())


# --- cases -------------------------------------------------------------------

def c_list_text(fx):
    # every struct of the file against pahole --sizes, then a glob subset
    path = obj(fx, "kernel_like.o")
    want = pahole_sizes(path)
    lines = sl(["--list", "*", path]).splitlines()
    got = {}
    for ln in lines:
        m = re.match(r"^(\d+) (struct|union) (\S+)$", ln)
        if not m:
            raise Fail("--list line %r is not 'SIZE KIND NAME'" % ln)
        got[m.group(3)] = int(m.group(1))
    if got != want:
        raise Fail("--list '*': %r, pahole --sizes: %r" % (got, want))
    if lines != sorted(lines, key=lambda ln: ln.split()[2]):
        raise Fail("--list output not sorted by name: %r" % lines)
    sub = sl(["-l", "mem_cgroup*", path]).splitlines()
    want_sub = sorted(n for n in want if fnmatch.fnmatchcase(n, "mem_cgroup*"))
    if [ln.split()[2] for ln in sub] != want_sub or len(want_sub) != 2:
        raise Fail("--list 'mem_cgroup*': %r, want %r" % (sub, want_sub))
    # no match: nothing on stdout, exit 0, and one line on stderr saying so
    r = subprocess.run([STRUCTLINT, "--list", "no_such_*", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    if r.returncode != 0 or r.stdout != "" or \
            r.stderr != "structlint: %s: no struct or union name matches 'no_such_*'\n" % path:
        raise Fail("--list with no match: exit %d, stdout %r, stderr %r"
                   % (r.returncode, r.stdout, r.stderr))
    # union kind, and both distinct definitions of a name are listed
    u = sl(["--list", "choice", obj(fx, "nested.o")])
    if u != "8 union choice\n":
        raise Fail("--list choice: %r, want '8 union choice'" % u)
    c = sl(["--list", "conflict", obj(fx, "multi")])
    if sorted(c.splitlines()) != ["16 struct conflict", "24 struct conflict"]:
        raise Fail("--list conflict in multi: %r" % c)


def c_list_json(fx):
    path = obj(fx, "anon.o")
    text = sl(["--list", "*", path]).splitlines()
    doc = json.loads(sl(["--list", "*", "--json", path]))
    if doc.get("schema") != "structlint.types/v1":
        raise Fail("schema %r" % doc.get("schema"))
    got = ["%d %s %s" % (t["size"], t["kind"], t["name"]) for t in doc["types"]]
    if got != text:
        raise Fail("--list --json types %r differ from the text %r" % (got, text))
    for t in doc["types"]:
        if t.get("decl_file") != fixtures.DECL_DIR + "/anon.c" or \
                not isinstance(t.get("decl_line"), int) or t["decl_line"] <= 0:
            raise Fail("type %r: decl_file/decl_line wrong" % t)
    # the line numbers are where the struct is defined in the source
    src = open(os.path.join(HERE, "..", "..", "fixtures", "layout", "anon.c")).read()
    for t in doc["types"]:
        line = src.splitlines()[t["decl_line"] - 1]
        if not line.startswith("%s %s {" % (t["kind"], t["name"])):
            raise Fail("type %s: decl_line %d is %r" % (t["name"], t["decl_line"], line))
    pretty = sl(["--list", "*", "--json", "--pretty", path])
    if json.loads(pretty) != doc or pretty.count("\n") < 5:
        raise Fail("--pretty: not the same document or not indented")
    # --pretty implies --json (bpftool's rule), for --list and layouts
    if sl(["--list", "*", "--pretty", path]) != pretty:
        raise Fail("--pretty without --json: not the indented JSON")
    lay = sl(["--pretty", path, doc["types"][0]["name"]])
    if json.loads(lay).get("schema") != "structlint.layout/v1" or lay.count("\n") < 5:
        raise Fail("--pretty NAME without --json: not indented layout JSON")


def c_decl(fx):
    path = obj(fx, "holes.o")
    out = sl(["--decl", path, "padded"])
    want = "/* %s/holes.c:7 */\n" % fixtures.DECL_DIR + gold("holes", "padded")
    expect_eq("--decl holes.o padded", want, out)
    if sl(["--decl", "--json", path, "padded"]) != sl(["--json", path, "padded"]):
        raise Fail("--decl changed the JSON output")


def c_color(fx):
    path = obj(fx, "holes.o")
    plain = gold("holes", "holes")
    colored = sl(["--color=always", path, "holes"], env={"NO_COLOR": None, "TERM": "xterm"})
    if not ANSI_RE.search(colored):
        raise Fail("--color=always: no ANSI escape in the output")
    expect_eq("--color=always with escapes stripped", plain, ANSI_RE.sub("", colored))
    if "\x1b" in ANSI_RE.sub("", colored):
        raise Fail("--color=always: an escape that is not an SGR sequence")
    # `--color always` (separate argument) and the British spelling
    if sl(["--color", "always", path, "holes"], env={"NO_COLOR": None, "TERM": "xterm"}) != colored:
        raise Fail("'--color always' differs from '--color=always'")
    for env in ({"NO_COLOR": None}, {"NO_COLOR": "1"}):
        expect_eq("--color=never %r" % env, plain,
                  sl(["--color=never", path, "holes"], env=env))
        # not a terminal: auto is off
        expect_eq("--color=auto to a pipe %r" % env, plain,
                  sl(["--color=auto", path, "holes"], env=env))
    # structlint(1), no-color.org: the explicit option wins over NO_COLOR
    # and TERM=dumb (they only turn auto off)
    expect_eq("NO_COLOR=1 --color=always", colored,
              sl(["--color=always", path, "holes"], env={"NO_COLOR": "1", "TERM": "xterm"}))
    # JSON never carries colour
    js = sl(["--color=always", "--json", path, "holes"], env={"NO_COLOR": None, "TERM": "xterm"})
    if "\x1b" in js:
        raise Fail("--color=always --json: escape in JSON")
    expect_eq("TERM=dumb --color=always", colored,
              sl(["--color=always", path, "holes"], env={"NO_COLOR": None, "TERM": "dumb"}))


def c_multiple_names(fx):
    path = obj(fx, "holes.o")
    out = sl([path, "padded", "holes", "big"])
    want = "".join([gold("holes", "padded"), gold("holes", "holes"), gold("holes", "big")])
    expect_eq("three names in one call", want, out)
    doc = json.loads(sl(["--json", path, "padded", "holes", "big"]))
    if [s["name"] for s in doc["structs"]] != ["padded", "holes", "big"]:
        raise Fail("--json with three names: %r" % [s["name"] for s in doc["structs"]])
    # one absent name fails the whole call: exit 2, nothing on stdout
    r = subprocess.run([STRUCTLINT, path, "padded", "no_such_struct"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 2 or r.stdout or "no_such_struct" not in r.stderr:
        raise Fail("padded + absent name: exit %d stdout %r stderr %r"
                   % (r.returncode, r.stdout[:100], r.stderr))


def c_two_definitions(fx):
    path = obj(fx, "multi")
    out = sl([path, "conflict"])
    expect_eq("multi conflict", gold("multi", "conflict"), out)
    heads = [i for i, ln in enumerate(out.splitlines()) if ln == "struct conflict {"]
    decls = [ln for ln in out.splitlines() if ln.startswith("/* ") and ln.endswith(" */")
             and ":" in ln and "/" in ln]
    if len(heads) != 2 or decls != ["/* %s/multi_a.c:10 */" % fixtures.DECL_DIR,
                                    "/* %s/multi_b.c:5 */" % fixtures.DECL_DIR]:
        raise Fail("conflict: %d definitions, decl comments %r" % (len(heads), decls))
    # identical in three CUs: once, and without a decl comment
    expect_eq("multi shared", gold("multi", "shared"), sl([path, "shared"]))
    doc = json.loads(sl(["--json", path, "conflict", "shared"]))
    got = [(s["name"], s["size"], os.path.basename(s["decl_file"]), s["decl_line"])
           for s in doc["structs"]]
    if got != [("conflict", 16, "multi_a.c", 10), ("conflict", 24, "multi_b.c", 5),
               ("shared", 16, "multi.h", 6)]:
        raise Fail("--json conflict shared: %r" % got)


def c_layout_subcommand(fx):
    path = obj(fx, "holes.o")
    expect_eq("layout subcommand", gold("holes", "holes"), sl(["layout", path, "holes"]))
    if sl(["layout", "--json", path, "holes"]) != sl(["--json", path, "holes"]):
        raise Fail("layout --json differs from --json")
    if sl(["layout", "--list", "pad*", path]) != sl(["--list", "pad*", path]):
        raise Fail("layout --list differs from --list")


def c_help_version(fx):
    for opt in ("--help", "-h"):
        for pre in ([], ["layout"]):
            out = sl(pre + [opt])
            if not out.startswith("usage: structlint") or "--cacheline" not in out:
                raise Fail("%s: not the usage text: %r" % (" ".join(pre + [opt]), out[:200]))
    for opt in ("--version", "-V"):
        out = sl([opt])
        if not re.match(r"^structlint \d+\.\d+\.\d+\S*\n$", out):
            raise Fail("%s: %r" % (opt, out))
    # the man page's NAME line (what whatis/apropos show) says what the
    # tool is for: finding false sharing, not only showing layouts
    man = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "man", "structlint.1")
    with open(man) as f:
        lines = f.read().split("\n")
    name = lines[lines.index(".SH NAME") + 1]
    if not name.startswith("structlint \\- ") or "false sharing" not in name:
        raise Fail("man NAME line: %r" % name)


CASES = {
    "list-text": c_list_text,
    "list-json": c_list_json,
    "decl": c_decl,
    "color": c_color,
    "multiple-names": c_multiple_names,
    "two-definitions": c_two_definitions,
    "layout-subcommand": c_layout_subcommand,
    "help-version": c_help_version,
}


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        sys.exit(__doc__)
    try:
        CASES[sys.argv[2]](sys.argv[1])
    except Fail as e:
        print("FAIL " + str(e))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
