#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Relocatable objects of other machines (clang --target T -g -c): their
debug sections hold relocations structlint must apply (elf_reloc.c), else
every name reads as the first string of .debug_str.  Each target's
fixtures/layout/holes.c object is compared with pahole (the oracle, through
tests/pahole_compare.py) where pahole reads it, else with structlint's own
output for a target of the same data model; a machine without a relocation
table (an x86-64 object relabelled SPARC V9) is refused with one line
naming it.  Skipped (77) without clang.

Usage: cross_machine.py"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "..", "fixtures", "layout", "holes.c")
SL = os.environ.get("STRUCTLINT", "structlint")
CLANG = os.environ.get("CC_CLANG", "clang")
NAMES = ["padded", "holes", "straddle", "big", "forced"]
# target -> a target of the same data model and alignment rules whose
# output must be identical, where pahole 1.24 cannot read the object
TARGETS = {
    "s390x-linux-gnu": None, "powerpc64-linux-gnu": None,
    "powerpc64le-linux-gnu": None, "riscv64-linux-gnu": None,
    "powerpc-linux-gnu": None, "mips-linux-gnu": "powerpc-linux-gnu",
    "arm-linux-gnueabi": None, "mips64el-linux-gnuabi64": "riscv64-linux-gnu",
}


def main():
    try:
        subprocess.run([CLANG, "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        print("no clang: skipped")
        return 77
    errs = []
    with tempfile.TemporaryDirectory() as d:
        objs = {}
        for t in TARGETS:
            o = os.path.join(d, t + ".o")
            subprocess.run([CLANG, "--target=" + t, "-g", "-O0", "-c", "-o", o, SRC],
                           check=True)
            objs[t] = o
        for t, same in TARGETS.items():
            if same is None:
                r = subprocess.run([sys.executable, os.path.join(HERE, "..", "pahole_compare.py"),
                                    "-q", objs[t]] + NAMES, capture_output=True, text=True)
                print("%s: %s" % (t, r.stdout.strip() or r.stderr.strip()))
                if r.returncode != 0:
                    errs.append("%s: differs from pahole:\n%s%s" % (t, r.stdout, r.stderr))
            else:
                a, b = [subprocess.run([SL, objs[x]] + NAMES, capture_output=True, text=True)
                        for x in (t, same)]
                print("%s: exit %d, %d lines" % (t, a.returncode, a.stdout.count("\n")))
                if a.returncode or a.stdout != b.stdout or "struct padded {" not in a.stdout:
                    errs.append("%s: exit %d, differs from %s: %s" % (t, a.returncode, same,
                                                                      a.stderr))
        # an unknown machine: refused, named, one line
        x86 = os.path.join(d, "x86.o")
        subprocess.run([CLANG, "-g", "-c", "-o", x86, SRC], check=True)
        data = bytearray(open(x86, "rb").read())
        data[18:20] = (43).to_bytes(2, "little")     # EM_SPARCV9
        sparc = os.path.join(d, "sparc.o")
        open(sparc, "wb").write(data)
        r = subprocess.run([SL, sparc, "holes"], capture_output=True, text=True)
        print("relabelled SPARC V9: exit %d, %s" % (r.returncode, r.stderr.strip()))
        if r.returncode != 2 or r.stdout or r.stderr.count("\n") != 1 or \
           "SPARC V9" not in r.stderr or "relocations" not in r.stderr:
            errs.append("SPARC V9 object not refused with one line: %r" % r.stderr)
    for e in errs:
        print("FAIL " + e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
