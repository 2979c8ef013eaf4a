#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compile the layout fixtures (fixtures/layout/*.c) into every variant.

Usage: fixtures.py SRCDIR OUTDIR [STAMP]

Variants: {gcc,clang} x {-gdwarf-4,-gdwarf-5}, at -O0.  Per variant:
  OUTDIR/VARIANT/NAME.o      one object per single-CU fixture
  OUTDIR/VARIANT/multi       multi_a.c + multi_b.c + multi_c.c linked
Derived inputs, made from the gcc-dwarf5 variant only (one is enough to
exercise the loader paths; the layouts are the variant's):
  OUTDIR/special/zlib/NAME.o     objcopy --compress-debug-sections=zlib
  OUTDIR/special/zstd/NAME.o     =zstd, when this objcopy supports it
  OUTDIR/special/btf/NAME.o      a copy with .BTF added by `pahole -J`
  OUTDIR/special/debuglink/multi         stripped, .gnu_debuglink to
  OUTDIR/special/debuglink/.debug/multi.debug
  OUTDIR/special/buildid/multi           stripped, no debuglink; its debug
  OUTDIR/special/buildid-root/.build-id/XX/REST.debug  (for --debug-root)
  OUTDIR/special/ko/fx.ko        ld -r of holes.o + nested.o, .modinfo (ET_REL)
  OUTDIR/special/so/libfx.so     holes.c + nested.c, -shared -fPIC (ET_DYN)
libFuzzer seeds: OUTDIR/seeds/dwarf/*.o, OUTDIR/seeds/btf/*.btf and
OUTDIR/seeds/elf/* (ELF files with .BTF, build-id, .gnu_debuglink).
Compilers come from $CC_GCC / $CC_CLANG (default gcc / clang).  A variant
whose compiler is missing is skipped and listed in OUTDIR/variants.txt,
which holds the variants actually built, one per line.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import manifest  # noqa: E402


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, **kw)
    if r.returncode != 0:
        sys.exit("fixtures.py: %s failed (%d):\n%s"
                 % (" ".join(cmd), r.returncode, r.stdout))
    return r.stdout


# where the fixtures' sources appear to be, in DW_AT_decl_file
DECL_DIR = "/structlint/fixtures/layout"


def cflags(src, dwarf):
    # -fdebug-prefix-map makes decl_file independent of where the tree is
    # checked out and of the build dir (the compile dir, which would be
    # joined to a relative name): /structlint/fixtures/layout/NAME.c
    return ["-g", "-gdwarf-%d" % dwarf, "-O0", "-fno-common",
            "-fdebug-prefix-map=%s=%s" % (src, DECL_DIR),
            "-fdebug-prefix-map=%s=/structlint/build" % os.getcwd()]


def build_variant(src, out, cc, dwarf):
    os.makedirs(out, exist_ok=True)
    flags = cflags(src, dwarf)
    for name in manifest.SINGLE_CU:
        run([cc] + flags + ["-c", os.path.join(src, name + ".c"),
                            "-o", os.path.join(out, name + ".o")])
    objs = []
    for name in manifest.MULTI_CU:
        o = os.path.join(out, name + ".o")
        run([cc] + flags + ["-c", os.path.join(src, name + ".c"), "-o", o])
        objs.append(o)
    run([cc, "-Wl,--build-id=sha1", "-o", os.path.join(out, "multi")] + objs)


def build_id(path):
    txt = run(["readelf", "-n", path])
    for line in txt.splitlines():
        if "Build ID:" in line:
            return line.split("Build ID:")[1].strip()
    sys.exit("fixtures.py: no build-id in " + path)


def build_module_and_so(src, base, out):
    """A kernel-module-like ET_REL object (`ld -r` of two CUs, as kbuild
    links NAME.ko, plus a .modinfo section) and a shared object, from the
    fixtures holes.c and nested.c (SPECIAL_BASE's compiler and DWARF)."""
    d = os.path.join(out, "ko")
    os.makedirs(d, exist_ok=True)
    ko = os.path.join(d, "fx.ko")
    run(["ld", "-r", "-o", ko, os.path.join(base, "holes.o"),
         os.path.join(base, "nested.o")])
    info = os.path.join(d, "modinfo")
    with open(info, "wb") as f:
        f.write(b"license=GPL\0name=fx\0")
    run(["objcopy", "--add-section", ".modinfo=" + info, ko])
    d = os.path.join(out, "so")
    os.makedirs(d, exist_ok=True)
    ccvar, ccdef, dwarf = manifest.VARIANTS[manifest.SPECIAL_BASE]
    run([os.environ.get(ccvar) or ccdef] + cflags(src, dwarf) +
        ["-shared", "-fPIC", "-o", os.path.join(d, "libfx.so"),
         os.path.join(src, "holes.c"), os.path.join(src, "nested.c")])


def build_special(base, out):
    for kind in ("zlib", "zstd"):
        d = os.path.join(out, kind)
        os.makedirs(d, exist_ok=True)
        for name in manifest.SINGLE_CU:
            r = subprocess.run(["objcopy", "--compress-debug-sections=" + kind,
                                os.path.join(base, name + ".o"),
                                os.path.join(d, name + ".o")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if r.returncode != 0:
                if kind == "zstd":  # older binutils: skipped, not failed
                    shutil.rmtree(d)
                    break
                sys.exit("fixtures.py: objcopy %s failed" % kind)
    d = os.path.join(out, "btf")
    os.makedirs(d, exist_ok=True)
    for name in manifest.SINGLE_CU:
        dst = os.path.join(d, name + ".o")
        shutil.copyfile(os.path.join(base, name + ".o"), dst)
        run(["pahole", "-J", dst])
    dst = os.path.join(d, "multi")
    shutil.copyfile(os.path.join(base, "multi"), dst)
    run(["pahole", "-J", dst])

    # libFuzzer seed corpora (tests/fuzz): the objects of every variant for
    # the DWARF target, raw .BTF sections for the BTF target
    seeds = os.path.join(os.path.dirname(out), "seeds")
    for sub in ("dwarf", "btf"):
        os.makedirs(os.path.join(seeds, sub), exist_ok=True)
    for name in manifest.SINGLE_CU:
        shutil.copyfile(os.path.join(base, name + ".o"),
                        os.path.join(seeds, "dwarf", name + ".o"))
        # --dump-section: `-O binary --only-section` writes nothing for a
        # section without SHF_ALLOC, as .BTF in an object file is
        btf = os.path.join(seeds, "btf", name + ".btf")
        run(["objcopy", "--dump-section", ".BTF=" + btf, os.path.join(d, name + ".o"),
             os.path.join(seeds, "btf", name + ".tmp.o")])
        os.remove(os.path.join(seeds, "btf", name + ".tmp.o"))
        if os.path.getsize(btf) < 24:
            sys.exit("fixtures.py: %s: no .BTF section dumped" % btf)

    exe = os.path.join(base, "multi")
    # debuglink: stripped binary, debug file in the .debug/ folder beside it
    d = os.path.join(out, "debuglink")
    os.makedirs(os.path.join(d, ".debug"), exist_ok=True)
    dbg = os.path.join(d, ".debug", "multi.debug")
    run(["objcopy", "--only-keep-debug", exe, dbg])
    run(["objcopy", "--strip-debug", "--add-gnu-debuglink=" + dbg, exe,
         os.path.join(d, "multi")])
    # build-id: stripped binary without debuglink, debug file under a root
    d = os.path.join(out, "buildid")
    os.makedirs(d, exist_ok=True)
    run(["objcopy", "--strip-debug", exe, os.path.join(d, "multi")])
    bid = build_id(exe)
    root = os.path.join(out, "buildid-root", ".build-id", bid[:2])
    os.makedirs(root, exist_ok=True)
    run(["objcopy", "--only-keep-debug", exe,
         os.path.join(root, bid[2:] + ".debug")])

    # seeds of tests/fuzz/fuzz_elf: objects with .BTF (pahole -J), the
    # stripped executables with a build-id and a .gnu_debuglink
    e = os.path.join(seeds, "elf")
    os.makedirs(e, exist_ok=True)
    for name in manifest.SINGLE_CU:
        shutil.copyfile(os.path.join(out, "btf", name + ".o"), os.path.join(e, name + ".o"))
    shutil.copyfile(os.path.join(out, "btf", "multi"), os.path.join(e, "multi-btf"))
    shutil.copyfile(os.path.join(out, "debuglink", "multi"), os.path.join(e, "multi-debuglink"))
    shutil.copyfile(os.path.join(out, "buildid", "multi"), os.path.join(e, "multi-buildid"))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src = os.path.abspath(sys.argv[1])
    out = os.path.abspath(sys.argv[2])
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    built = []
    for variant, (ccvar, ccdef, dwarf) in manifest.VARIANTS.items():
        cc = os.environ.get(ccvar) or ccdef
        if shutil.which(cc) is None:
            print("fixtures.py: %s not found, variant %s skipped" % (cc, variant))
            continue
        build_variant(src, os.path.join(out, variant), cc, dwarf)
        built.append(variant)
    if manifest.SPECIAL_BASE not in built:
        sys.exit("fixtures.py: variant %s is needed for the derived inputs"
                 % manifest.SPECIAL_BASE)
    build_special(os.path.join(out, manifest.SPECIAL_BASE),
                  os.path.join(out, "special"))
    build_module_and_so(src, os.path.join(out, manifest.SPECIAL_BASE),
                        os.path.join(out, "special"))
    with open(os.path.join(out, "variants.txt"), "w") as f:
        f.write("".join(v + "\n" for v in built))
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as f:
            f.write("ok\n")


if __name__ == "__main__":
    main()
