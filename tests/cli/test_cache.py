#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The name index in the cache directory, and --all.

Usage: test_cache.py --list        names of the cases
       test_cache.py CASE          run one case

Inputs are compiled here, at test time, by gcc and clang (DWARF 4 and 5,
-O0 and -O2), as shared objects or executables with a build-id (the index
is keyed by it); every run gets its own STRUCTLINT_CACHE_DIR.
  warm         cold, warm and --no-cache runs print the same; the index
               file exists after the first
  corrupt      a truncated, a byte-flipped and another build-id's index
               file are ignored (same output) and rewritten
  crafted      a well-formed index (valid checksum) whose offsets point at
               other DIEs: checked and not used, same output
  no-cache     --no-cache and an object without a build-id write nothing;
               XDG_CACHE_HOME is used when STRUCTLINT_CACHE_DIR is unset
  concurrent   eight runs at once on an empty cache: same output, a valid
               index left
  all          --all prints the structs and unions `pahole -F dwarf` prints,
               in its order, text and JSON
  distinct     a struct whose copies differ only where the layout does not
               show it (a pointee defined in one CU, declared in the other)
               is indexed once; two real definitions stay two
  pointee-decl a struct first reached through a pointer of a struct asked
               before it keeps its declaration file and line (--decl,
               --json), cold and warm; a struct defined in the second unit
               only, warm (the view of .debug_info from that unit on)
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SRC = os.path.join(ROOT, "fixtures", "layout")
STRUCTLINT = os.environ.get("STRUCTLINT", "structlint")
PAHOLE = os.environ.get("PAHOLE", "pahole")
CCS = [c for c in (os.environ.get("CC_GCC", "gcc"), os.environ.get("CC_CLANG", "clang"))
       if shutil.which(c)]
# Every pair of (compiler, DWARF version, optimisation) values once: a
# covering array of 4 builds instead of all 8 combinations.  The index is
# per compile unit and its content follows the compiler and the DWARF
# version; the optimisation level only adds location lists.  Each case
# rebuilds its fixtures, so the full product made these the suite's slowest
# tests under ASan on a loaded machine (cache-warm 168 s at load 10).
VARIANTS = [(cc, dw, opt) for i, cc in enumerate(CCS)
            for dw, opt in ((("-gdwarf-4", "-O0"), ("-gdwarf-5", "-O2")),
                            (("-gdwarf-4", "-O2"), ("-gdwarf-5", "-O0")))[i % 2]]
HEADER = 120


class Fail(Exception):
    pass


def run(cmd, env=None, want=0):
    e = dict(os.environ)
    e.update(env or {})
    for k in [k for k, v in e.items() if v is None]:
        del e[k]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=e, timeout=300)
    if want is not None and r.returncode != want:
        raise Fail("%s: exit %d, want %d; stderr %r" % (" ".join(cmd), r.returncode,
                                                         want, r.stderr))
    return r


def build(d, cc, dw, opt):
    """Shared objects with a build-id: kernel_like, types, nested; and the
    multi executable (a name with two definitions)."""
    out = {}
    for name in ("kernel_like", "types", "nested"):
        so = os.path.join(d, "lib%s%s%s.so" % (name, dw, opt))
        run([cc, "-g", dw, opt, "-shared", "-fPIC", "-Wl,--build-id=sha1", "-o", so,
             os.path.join(SRC, name + ".c")])
        out[name] = so
    exe = os.path.join(d, "multi%s%s" % (dw, opt))
    run([cc, "-g", dw, opt, "-Wl,--build-id=sha1", "-o", exe] +
        [os.path.join(SRC, "multi_%s.c" % x) for x in "abc"])
    out["multi"] = exe
    exe = os.path.join(d, "peer%s%s" % (dw, opt))
    run([cc, "-g", dw, opt, "-Wl,--build-id=sha1", "-o", exe] +
        [os.path.join(SRC, "peer_%s.c" % x) for x in "ab"])
    out["peer"] = exe
    # peer_b.c first: struct peer is defined in the second unit only
    exe = os.path.join(d, "peer_rev%s%s" % (dw, opt))
    run([cc, "-g", dw, opt, "-Wl,--build-id=sha1", "-o", exe] +
        [os.path.join(SRC, "peer_%s.c" % x) for x in "ba"])
    out["peer_rev"] = exe
    return out


# (input, names): a struct, a typedef of an anonymous struct, a typedef of a
# named struct, several names, a name with two definitions
QUERIES = [("kernel_like", ["mem_cgroup_per_node"]), ("kernel_like", ["atomic_t"]),
           ("kernel_like", ["cgroup", "lruvec", "mem_cgroup_per_node"]),
           ("types", ["anon_typedef_t", "spelling"]), ("nested", ["leaf_t"]),
           ("multi", ["conflict", "shared"])]


def sl(args, cache, extra_env=None, want=0):
    env = {"STRUCTLINT_CACHE_DIR": cache}
    env.update(extra_env or {})
    return run([STRUCTLINT] + args, env, want).stdout


def index_files(cache):
    return sorted(glob.glob(os.path.join(cache, "index-*.v*")))


def fnv(b):
    h = 0xcbf29ce484222325
    for x in b:
        h = ((h ^ x) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def valid(path):
    b = open(path, "rb").read()
    size = int.from_bytes(b[104:112], "little")
    return (b[:8] == b"SLTCACHE" and size == len(b) - HEADER and
            int.from_bytes(b[112:120], "little") == fnv(b[HEADER:]))


def c_warm(d):
    for v in VARIANTS:
        fx = build(d, *v)
        for inp, names in QUERIES:
            cache = tempfile.mkdtemp(dir=d)
            args = [fx[inp]] + names
            ref = sl(["--no-cache"] + args, cache)
            if index_files(cache):
                raise Fail("--no-cache wrote %s" % index_files(cache))
            cold = sl(args, cache)
            files = index_files(cache)
            if len(files) != 1 or not valid(files[0]):
                raise Fail("%s %s: index files after a cold run: %r" % (v, names, files))
            warm = sl(args, cache)
            js_cold = sl(["--json", "--no-cache"] + args, cache)
            js_warm = sl(["--json"] + args, cache)
            if not (ref == cold == warm) or js_cold != js_warm:
                raise Fail("%s %s: cold/warm/--no-cache outputs differ" % (v, names))
            # a name asked after others adds to the same index
            more = sl([fx[inp], names[0]], cache)
            if more != sl(["--no-cache", fx[inp], names[0]], cache):
                raise Fail("%s %s: warm single name differs" % (v, names[0]))
        print("%s: %d queries cold = warm = --no-cache" % (" ".join(v), len(QUERIES)))


def rewrite_check(fx, names, cache, what):
    ref = sl(["--no-cache", fx] + names, cache)
    got = sl([fx] + names, cache)
    if got != ref:
        raise Fail("%s: output differs from --no-cache" % what)
    files = index_files(cache)
    if len(files) != 1 or not valid(files[0]):
        raise Fail("%s: index not rewritten valid: %r" % (what, files))
    if sl([fx] + names, cache) != ref:
        raise Fail("%s: warm run after rewrite differs" % what)
    print("%s: ignored and rewritten" % what)


def c_corrupt(d):
    cc, dw, opt = VARIANTS[0]
    fx = build(d, cc, dw, opt)
    names = ["cgroup", "mem_cgroup_per_node"]
    cache = tempfile.mkdtemp(dir=d)
    sl([fx["kernel_like"]] + names, cache)
    path = index_files(cache)[0]
    good = open(path, "rb").read()
    for cut in (0, 7, HEADER - 1, HEADER, HEADER + 10, len(good) - 1):
        open(path, "wb").write(good[:cut])
        rewrite_check(fx["kernel_like"], names, cache, "truncated to %d bytes" % cut)
    for pos in (0, 9, 13, 20, 40, 105, 115, HEADER + 3, HEADER + 30, len(good) - 1):
        b = bytearray(good)
        b[pos] ^= 0x21
        open(path, "wb").write(bytes(b))
        rewrite_check(fx["kernel_like"], names, cache, "byte %d flipped" % pos)
    # another binary's index under this binary's name
    other = tempfile.mkdtemp(dir=d)
    sl([fx["types"], "spelling"], other)
    shutil.copyfile(index_files(other)[0], path)
    rewrite_check(fx["kernel_like"], names, cache, "another build-id's file")
    # not a regular file
    os.unlink(path)
    os.mkdir(path)
    ref = sl(["--no-cache", fx["kernel_like"]] + names, cache)
    if sl([fx["kernel_like"]] + names, cache) != ref:
        raise Fail("a directory in the index's place: output differs")
    print("a directory in the index's place: ignored")


def patch(path, fn):
    """Rewrite the index at path: fn(payload, offsets) edits the payload,
    where offsets[i] is the position of entry i's first DIE offset; the
    checksum is made to match, so the file stays well-formed."""
    b = bytearray(open(path, "rb").read())
    p = bytearray(b[HEADER:])
    at, offs = 24, []
    for _ in range(int.from_bytes(p[0:4], "little")):
        at += 2 + int.from_bytes(p[at:at + 2], "little")
        nd = int.from_bytes(p[at:at + 4], "little")
        offs.append(at + 4)
        at += 4 + 9 * nd
    fn(p, offs)
    b[HEADER:] = p
    b[112:120] = fnv(bytes(p)).to_bytes(8, "little")
    open(path, "wb").write(bytes(b))
    if not valid(path):
        raise Fail("crafted file is not well-formed")


def swap_first(p, offs):
    """Each of two names now points at the other struct's DIE: a valid DIE
    of the right tag but the wrong name."""
    if len(offs) != 2:
        raise Fail("expected 2 index entries, got %d" % len(offs))
    a, c = offs
    p[a:a + 8], p[c:c + 8] = p[c:c + 8], p[a:a + 8]


def inside_die(p, offs):
    off = int.from_bytes(p[offs[0]:offs[0] + 8], "little") + 1
    p[offs[0]:offs[0] + 8] = off.to_bytes(8, "little")


def c_crafted(d):
    cc, dw, opt = VARIANTS[0]
    fx = build(d, cc, dw, opt)
    names = ["cgroup", "lruvec"]
    cache = tempfile.mkdtemp(dir=d)
    ref = sl([fx["kernel_like"]] + names, cache)
    path = index_files(cache)[0]
    for what, fn in (("swapped offsets", swap_first), ("an offset inside a DIE", inside_die)):
        patch(path, fn)
        if sl([fx["kernel_like"]] + names, cache) != ref:
            raise Fail("a well-formed index with %s changed the output" % what)
    print("crafted indexes: checked, not used, output unchanged")


def c_no_cache(d):
    cc, dw, opt = VARIANTS[0]
    fx = build(d, cc, dw, opt)
    cache = tempfile.mkdtemp(dir=d)
    sl(["--no-cache", fx["kernel_like"], "cgroup"], cache)
    for cmd in (["report", "--no-cache", "--classes", "/dev/null"],
                ["suggest", "--no-cache", "--classes", "/dev/null"]):
        run([STRUCTLINT] + cmd + [fx["kernel_like"], "cgroup"],
            {"STRUCTLINT_CACHE_DIR": cache}, want=None)
    if os.listdir(cache):
        raise Fail("--no-cache wrote %r" % os.listdir(cache))
    obj = os.path.join(d, "nobid.o")
    run([cc, "-g", "-c", "-o", obj, os.path.join(SRC, "holes.c")])
    sl([obj, "holes"], cache)
    if os.listdir(cache):
        raise Fail("an object without a build-id got an index: %r" % os.listdir(cache))
    # XDG_CACHE_HOME when STRUCTLINT_CACHE_DIR is unset
    xdg = tempfile.mkdtemp(dir=d)
    run([STRUCTLINT, fx["kernel_like"], "cgroup"],
        {"STRUCTLINT_CACHE_DIR": None, "XDG_CACHE_HOME": xdg})
    if not index_files(os.path.join(xdg, "structlint")):
        raise Fail("nothing under XDG_CACHE_HOME/structlint")
    print("--no-cache, no build-id: nothing written; XDG_CACHE_HOME used")


def c_concurrent(d):
    cc, dw, opt = VARIANTS[-1]
    fx = build(d, cc, dw, opt)
    cache = tempfile.mkdtemp(dir=d)
    env = dict(os.environ, STRUCTLINT_CACHE_DIR=cache)
    ref = sl(["--no-cache", fx["kernel_like"], "cgroup", "lruvec"], cache)
    procs = [subprocess.Popen([STRUCTLINT, fx["kernel_like"]] +
                              (["cgroup", "lruvec"] if i % 2 else ["lruvec", "cgroup"]),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env) for i in range(8)]
    outs = [p.communicate(timeout=300) + (p.returncode,) for p in procs]
    for i, (out, err, rc) in enumerate(outs):
        want = ref if i % 2 else sl(["--no-cache", fx["kernel_like"], "lruvec", "cgroup"], cache)
        if rc != 0 or err or out != want:
            raise Fail("run %d of 8: exit %d, stderr %r, output differs: %s"
                       % (i, rc, err, out != want))
    files = index_files(cache)
    if len(files) != 1 or not valid(files[0]) or os.listdir(cache) != [os.path.basename(files[0])]:
        raise Fail("after 8 concurrent runs: %r" % os.listdir(cache))
    if sl([fx["kernel_like"], "cgroup", "lruvec"], cache) != ref:
        raise Fail("warm run after concurrent writers differs")
    print("8 concurrent runs: same output, one valid index, no temporary file")


def heads(text):
    return [ln for ln in text.splitlines()
            if (ln.startswith("struct ") or ln.startswith("union ")) and ln.endswith(" {")]


def entries(path):
    """{name: number of definitions} of the index file at path."""
    p = open(path, "rb").read()[HEADER:]
    at, out = 24, {}
    for _ in range(int.from_bytes(p[0:4], "little")):
        ln = int.from_bytes(p[at:at + 2], "little")
        name = p[at + 2:at + 2 + ln].decode()
        at += 2 + ln
        nd = int.from_bytes(p[at:at + 4], "little")
        out[name] = nd
        at += 4 + 9 * nd
    return out


def c_distinct(d):
    for v in VARIANTS:
        fx = build(d, *v)
        cache = tempfile.mkdtemp(dir=d)
        for inp, name, want in (("peer", "holder", 1), ("multi", "conflict", 2),
                                ("multi", "shared", 1)):
            ref = sl(["--no-cache", fx[inp], name], cache)
            cold = sl([fx[inp], name], cache)
            warm = sl([fx[inp], name], cache)
            files = [f for f in index_files(cache) if valid(f)]
            got = [entries(f).get(name) for f in files]
            if want not in got:
                raise Fail("%s %s: index holds %r definitions of %s, want %d"
                           % (" ".join(v), inp, got, name, want))
            if not (ref == cold == warm) or ref.count("struct %s {" % name) != want:
                raise Fail("%s %s %s: cold/warm/--no-cache differ or not %d shown"
                           % (" ".join(v), inp, name, want))
    print("copies with one layout indexed once, distinct ones kept, in %d variants"
          % len(VARIANTS))


def c_pointee_decl(d):
    for v in VARIANTS:
        fx = build(d, *v)
        cache = tempfile.mkdtemp(dir=d)
        want = [("holder", "peer.h"), ("peer", "peer_a.c")]
        runs = [(x, inp) for inp in ("peer", "peer_rev") for x in (["--no-cache"], [], [])]
        for extra, inp in runs:
            out = sl(extra + ["--decl", fx[inp], "holder", "peer"], cache)
            decls = [os.path.basename(ln[3:-3].rsplit(":", 1)[0])
                     for ln in out.splitlines() if ln.startswith("/* ") and ln.endswith(" */")
                     and ":" in ln]
            doc = json.loads(sl(extra + ["--json", fx[inp], "holder", "peer"], cache))
            got = [(x["name"], os.path.basename(x["decl_file"])) for x in doc["structs"]]
            if decls != [f for _, f in want] or got != want:
                raise Fail("%s %s %s: declarations %r, JSON %r, want %r"
                           % (" ".join(v), inp, extra, decls, got, want))
        # a name defined in the second unit only, warm: translated through
        # the view of .debug_info that starts at that unit (dwarf.c)
        ref = sl(["--no-cache", "--decl", fx["peer_rev"], "peer"], cache)
        for _ in range(2):
            if sl(["--decl", fx["peer_rev"], "peer"], cache) != ref:
                raise Fail("%s peer_rev peer: warm differs from --no-cache" % " ".join(v))
    print("a pointee asked after its pointer keeps its declaration, in %d variants"
          % len(VARIANTS))


def c_all(d):
    n = 0
    for v in VARIANTS:
        fx = build(d, *v)
        for inp in ("kernel_like", "types", "nested", "multi"):
            p = run([PAHOLE, "-F", "dwarf", fx[inp]]).stdout
            s = sl(["--all", fx[inp]], d)
            if heads(p) != heads(s) or not heads(s):
                raise Fail("%s %s: --all prints %r, pahole %r" % (v, inp, heads(s), heads(p)))
            doc = json.loads(sl(["--all", "--json", fx[inp]], d))
            if [("%s %s {" % (x["kind"], x["name"])) for x in doc["structs"]] != heads(p):
                raise Fail("%s %s: --all --json names differ" % (v, inp))
            n += len(heads(s))
    # usage errors
    for args in (["--all", "--list", "x"], ["--all", "a", "b"]):
        r = run([STRUCTLINT] + args, want=2)
        if r.stdout or r.stderr.count("\n") != 1:
            raise Fail("%s: %r" % (args, r.stderr))
    print("--all: %d struct headers in pahole's order, text and JSON" % n)


CASES = {"warm": c_warm, "corrupt": c_corrupt, "crafted": c_crafted,
         "no-cache": c_no_cache, "concurrent": c_concurrent, "all": c_all,
         "distinct": c_distinct, "pointee-decl": c_pointee_decl}


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as d:
        try:
            CASES[sys.argv[1]](d)
        except Fail as e:
            print("FAIL " + str(e))
            return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
