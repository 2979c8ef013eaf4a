#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bad-input and bad-option CLI tests.

Usage: bad_input.py --list            names of the cases
       bad_input.py FXDIR CASE        run one case (FXDIR from fixtures.py)

Every case must exit 2 with nothing on stdout and exactly one line on
stderr starting "structlint: ", both plain and with --json; some cases also
require words in that line (the hint).  Inputs are made in a fresh temporary
directory from the compiled fixtures.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

STRUCTLINT = os.environ.get("STRUCTLINT", "structlint")
REGRESS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "fixtures", "layout", "regress")


def elf_section(path, want):
    """(offset, size) of section `want` in an ELF64 little-endian file."""
    with open(path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    str_off, = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)
    for i in range(shnum):
        base = shoff + i * shentsize
        name, = struct.unpack_from("<I", data, base)
        end = data.index(b"\0", str_off + name)
        if data[str_off + name:end].decode() == want:
            off, size = struct.unpack_from("<QQ", data, base + 0x18)
            return off, size
    raise SystemExit("bad_input: no %s in %s" % (want, path))


def patch(path, off, new):
    with open(path, "r+b") as f:
        f.seek(off)
        f.write(new)


def mk_text(d, fx):
    p = os.path.join(d, "notes.txt")
    with open(p, "w") as f:
        f.write("struct foo { int a; };\n" * 20)
    return [p, "foo"]


def mk_empty(d, fx):
    p = os.path.join(d, "empty.o")
    open(p, "w").close()
    return [p, "spelling"]


def mk_truncated(d, fx):
    src = os.path.join(fx, "gcc-dwarf5", "types.o")
    p = os.path.join(d, "truncated.o")
    with open(src, "rb") as f:
        data = f.read()
    off, size = elf_section(src, ".debug_info")
    with open(p, "wb") as f:  # cut in the middle of .debug_info
        f.write(data[:off + size // 2])
    return [p, "spelling"]


def mk_cut_before_headers(d, fx):
    # a copy cut short loses the section headers (they end the file)
    src = os.path.join(fx, "gcc-dwarf5", "types.o")
    p = os.path.join(d, "cut.o")
    with open(src, "rb") as f:
        data = f.read()
    off, size = elf_section(src, ".debug_info")
    with open(p, "wb") as f:
        f.write(data[:off + size])
    return [p, "spelling"]


def mk_header_only(d, fx):
    src = os.path.join(fx, "gcc-dwarf5", "types.o")
    p = os.path.join(d, "hdr.o")
    with open(src, "rb") as f:
        data = f.read()
    with open(p, "wb") as f:
        f.write(data[:100])
    return [p, "spelling"]


def nodebug(d, fx):
    p = os.path.join(d, "nodebug.o")
    subprocess.run(["objcopy", "--strip-debug", "--remove-section=.BTF",
                    os.path.join(fx, "gcc-dwarf5", "types.o"), p], check=True)
    return p


def mk_nodebug(d, fx):
    return [nodebug(d, fx), "spelling"]


def mk_nodebug_btf(d, fx):
    return ["--format-path", "btf", nodebug(d, fx), "spelling"]


def corrupt_debug_info(d, fx, rel, data, linked=False):
    """Patch .debug_info of types.o, or with linked=True of the linked
    program `multi` (ET_EXEC: nothing relocates .debug_info there)."""
    src = os.path.join(fx, "gcc-dwarf5", "multi" if linked else "types.o")
    p = os.path.join(d, "corrupt" if linked else "corrupt.o")
    shutil.copyfile(src, p)
    off, size = elf_section(p, ".debug_info")
    patch(p, off + rel(size), data)
    return [p, "shared" if linked else "spelling"]


def rela_entry(path, sec, r_offset):
    """File offset of the Elf64_Rela in `sec` whose r_offset is r_offset."""
    off, size = elf_section(path, sec)
    with open(path, "rb") as f:
        f.seek(off)
        data = f.read(size)
    for i in range(0, size, 24):  # Elf64_Rela: r_offset, r_info, r_addend
        if struct.unpack_from("<Q", data, i)[0] == r_offset:
            return off + i
    raise SystemExit("bad_input: no relocation at %#x in %s" % (r_offset, sec))


def mk_info_length(d, fx):
    # unit_length larger than the section (DWARF 5 section 7.5.1.1)
    return corrupt_debug_info(d, fx, lambda s: 0, struct.pack("<I", 0x7ffffff0))


def mk_info_version(d, fx):
    # version 0x7777: no such DWARF version
    return corrupt_debug_info(d, fx, lambda s: 4, struct.pack("<H", 0x7777))


def mk_info_abbrev(d, fx):
    # debug_abbrev_offset far outside .debug_abbrev (DWARF 5 section
    # 7.5.1.1: byte 8 of a 32-bit unit header).  In a linked file: in a
    # relocatable object the RELA relocation against .debug_abbrev
    # overwrites these bytes with S + A (x86-64 psABI 4.4), see below.
    return corrupt_debug_info(d, fx, lambda s: 8, struct.pack("<I", 0x7fffff00),
                              linked=True)


def mk_rela_abbrev(d, fx):
    # the same bad offset in an ET_REL object, where it lives in the addend
    # of the R_X86_64_32 relocation at .debug_info+8 (.rela.debug_info)
    src = os.path.join(fx, "gcc-dwarf5", "types.o")
    p = os.path.join(d, "corrupt.o")
    shutil.copyfile(src, p)
    patch(p, rela_entry(p, ".rela.debug_info", 8) + 16,
          struct.pack("<q", 0x7fffff00))
    return [p, "spelling"]


def mk_info_dies(d, fx):
    # DIE bytes after the 12-byte header replaced with 0xff (bad abbrev codes)
    return corrupt_debug_info(d, fx, lambda s: 12, b"\xff" * 64)


def corrupt_btf(d, fx, rel, data):
    src = os.path.join(fx, "special", "btf", "types.o")
    p = os.path.join(d, "btf.o")
    shutil.copyfile(src, p)
    off, size = elf_section(p, ".BTF")
    patch(p, off + rel(size), data)
    return ["--format-path", "btf", p, "spelling"]


def mk_btf_typelen(d, fx):
    # struct btf_header (linux/btf.h): magic, version, flags, hdr_len,
    # type_off, type_len @12, str_off, str_len.  type_len past the end:
    return corrupt_btf(d, fx, lambda s: 12, struct.pack("<I", 0x7ffffff0))


def mk_btf_types(d, fx):
    # type section bytes (after the 24-byte header) garbled: bad kinds
    return corrupt_btf(d, fx, lambda s: 24, b"\xff" * 48)


def mk_btf_int_size(d, fx):
    # the first INT's size (struct btf_type: name_off, info, size) set to
    # 1,023,410,180 bytes (issue 15: accepted, alignment 1023410180)
    src = os.path.join(fx, "special", "btf", "types.o")
    off, _ = elf_section(src, ".BTF")
    with open(src, "rb") as f:
        f.seek(off)
        hdr = f.read(24)
        hdr_len, type_off, type_len = struct.unpack("<III", hdr[4:8] + hdr[8:16])[0:3]
        f.seek(off + hdr_len + type_off)
        types = f.read(type_len)
    extra = {1: lambda v: 4, 4: lambda v: 12 * v, 5: lambda v: 12 * v, 3: lambda v: 12,
             6: lambda v: 8 * v, 13: lambda v: 8 * v, 14: lambda v: 4, 15: lambda v: 12 * v,
             17: lambda v: 4, 19: lambda v: 12 * v}
    i = 0
    while i + 12 <= len(types):
        info, = struct.unpack("<I", types[i + 4:i + 8])
        kind, vlen = info >> 24 & 0x1f, info & 0xffff
        if kind == 1:
            return corrupt_btf(d, fx, lambda s: hdr_len + type_off + i + 8,
                               struct.pack("<I", 1023410180))
        i += 12 + extra.get(kind, lambda v: 0)(vlen)
    raise AssertionError("no INT in the fixture's BTF")


def mk_btf_raw_truncated(d, fx):
    src = os.path.join(fx, "special", "btf", "types.o")
    raw = os.path.join(d, "raw.btf")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.BTF", src, raw],
                   check=True)
    with open(raw, "rb") as f:
        data = f.read()
    with open(raw, "wb") as f:
        f.write(data[:len(data) // 3])
    return [raw, "spelling"]


def mk_truncated_debug(d, fx):
    # a stripped binary whose separate debug file, found by build-id under
    # --debug-root, is cut to two thirds: the message names that file
    src = os.path.join(d, "m.c")
    with open(src, "w") as f:
        f.write("struct s { int a; long b; };\nstruct s v;\nint main(void) { return 0; }\n")
    exe = os.path.join(d, "m")
    subprocess.run([os.environ.get("CC_GCC", "gcc"), "-g", "-Wl,--build-id", "-o", exe, src],
                   check=True)
    subprocess.run(["objcopy", "--only-keep-debug", exe, exe + ".dbg"], check=True)
    subprocess.run(["objcopy", "--strip-debug", exe], check=True)
    out = subprocess.run(["readelf", "-n", exe], capture_output=True, text=True, check=True)
    bid = [l.split()[-1] for l in out.stdout.splitlines() if "Build ID" in l][0]
    root = os.path.join(d, "root")
    os.makedirs(os.path.join(root, ".build-id", bid[:2]))
    with open(exe + ".dbg", "rb") as f:
        data = f.read()
    with open(os.path.join(root, ".build-id", bid[:2], bid[2:] + ".debug"), "wb") as f:
        f.write(data[:len(data) * 2 // 3])
    return ["--debug-root", root, exe, "s"]


def fx_args(path, name):
    return lambda d, fx: [os.path.join(fx, "gcc-dwarf5", path), name]


def opt(*args):
    return lambda d, fx: list(args) + [os.path.join(fx, "gcc-dwarf5", "types.o"),
                                       "spelling"]


# name -> (make args, words the stderr line must contain)
CASES = {
    "missing-file": (lambda d, fx: [os.path.join(d, "no", "such.o"), "x"], []),
    "directory": (lambda d, fx: [d + "/", "x"], []),
    "not-elf": (mk_text, []),
    "empty-file": (mk_empty, []),
    "truncated-elf": (mk_truncated, []),
    "truncated-before-section-headers": (mk_cut_before_headers,
                                         ["section headers", "truncated"]),
    "elf-header-only": (mk_header_only, []),
    "no-debug-info": (mk_nodebug, ["-g", "dbg"]),
    "no-btf": (mk_nodebug_btf, ["CONFIG_DEBUG_INFO_BTF"]),
    "corrupt-info-length": (mk_info_length, []),
    "corrupt-info-version": (mk_info_version, []),
    "corrupt-info-abbrev-offset": (mk_info_abbrev, [".debug_info+0x0"]),
    "corrupt-rela-abbrev-addend": (mk_rela_abbrev, [".debug_info+0x0"]),
    "corrupt-info-dies": (mk_info_dies, []),
    "corrupt-btf-type-len": (mk_btf_typelen, []),
    "corrupt-btf-types": (mk_btf_types, []),
    "truncated-raw-btf": (mk_btf_raw_truncated, []),
    "corrupt-btf-int-size": (mk_btf_int_size, ["int of size 1023410180"]),
    "declaration-only": (fx_args("multi", "decl_only"), ["decl_only"]),
    "not-found": (fx_args("types.o", "spelingg"), ["spelling"]),
    "cacheline-0": (opt("--cacheline", "0"), []),
    "cacheline-63": (opt("--cacheline", "63"), []),
    "cacheline-abc": (opt("--cacheline", "abc"), []),
    "format-path-bogus": (opt("--format-path", "stabs"), []),
    "color-bogus": (opt("--color=sometimes"), []),
    "unknown-option": (opt("--bogus-option"), []),
    "no-name": (lambda d, fx: [os.path.join(fx, "gcc-dwarf5", "types.o")], []),
    # neither a file nor a type of the running kernel: both said in one
    # line (without kernel BTF, only that it cannot be read)
    "no-file-no-type": (lambda d, fx: ["no_such_file_or_type_xyz"],
                        ["no_such_file_or_type_xyz"] + (
                            ["no such file", "has no struct or union named"]
                            if os.path.exists("/sys/kernel/btf/vmlinux") else [])),
    "truncated-debug-file": (mk_truncated_debug, ["separate debug file", ".debug",
                                                  "section headers", "beyond its end"]),
    "fifo": (lambda d, fx: [os.mkfifo(os.path.join(d, "ff")) or os.path.join(d, "ff"), "x"],
             ["a pipe"]),
    "device": (lambda d, fx: ["/dev/zero", "x"], ["a device"]),
    "samples-directory": (lambda d, fx: [os.path.join(fx, "gcc-dwarf5", "types.o"), "spelling",
                                         "--samples", d], ["is a directory"]),
    "report-suggest-option": (lambda d, fx: ["report", "--suggest", "--max-proposals", "2",
                                             os.path.join(fx, "gcc-dwarf5", "types.o"),
                                             "spelling", "--classes", d],
                              ["structlint suggest"]),
    # terminal escapes, BEL, CR and LF in input bytes copied into the
    # message: escaped (\\xNN), the line stays one line (check())
    "control-bytes-name": (fx_args("types.o", "sp\x1b]0;owned\x07\r\nx\x9b"),
                           ["\\x1b]0;owned\\x07\\x0d\\x0ax"]),
    "control-bytes-path": (lambda d, fx: [os.path.join(d, "a\x1b[2Jb.o"), "x"],
                           ["a\\x1b[2Jb.o"]),
    # a DW_AT_sibling pointing back: the sibling walk looped forever
    # (fuzz_dwarf found it; fixtures/layout/regress/README)
    "dwarf-sibling-back": (lambda d, fx: ["--no-cache", os.path.join(REGRESS, "sibling_back.elf"),
                                          "x"], ["sibling", ".debug_info+0x"]),
}


def check(args, words):
    errs = []
    for extra in ([], ["--json"]):
        cmd = [STRUCTLINT] + extra + args
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
        err = r.stderr.decode(errors="replace")
        what = " ".join(cmd)
        if r.returncode != 2:
            errs.append("%s: exit %d, want 2" % (what, r.returncode))
        if r.stdout:
            errs.append("%s: stdout not empty: %r" % (what, r.stdout[:200]))
        if err.count("\n") != 1 or not err.endswith("\n"):
            errs.append("%s: stderr is not exactly one line: %r" % (what, err[:400]))
        if any(c < " " or c == "\x7f" or "\x80" <= c <= "\x9f" for c in err[:-1]):
            errs.append("%s: stderr holds a control character: %r" % (what, err))
        if not err.startswith("structlint: "):
            errs.append("%s: stderr does not start with 'structlint: ': %r" % (what, err))
        for w in words:
            if w not in err:
                errs.append("%s: stderr lacks %r: %r" % (what, w, err))
        print("%s\n  -> exit %d, stderr %r" % (what, r.returncode, err))
    return errs


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        sys.exit(__doc__)
    fx, case = sys.argv[1], sys.argv[2]
    make, words = CASES[case]
    with tempfile.TemporaryDirectory() as d:
        errs = check(make(d, fx), words)
    for e in errs:
        print("FAIL " + e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
