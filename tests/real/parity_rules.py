# SPDX-License-Identifier: MIT
"""The allowed differences between `pahole` 1.24's text and structlint's
for tests/real/parity.py, each keyed by its mechanism (never by a struct's
name) and each with the reason it is allowed, checked on the inputs where
it was seen.

Three kinds of rule:
  LINE_RULES   a pair of lines, one printed by pahole and one by structlint
               at the same place of the same definition, that differ in a
               way the rule explains;
  EXTRA_RULE   a definition structlint prints and pahole does not;
  OUTSIDE_RULE a line structlint prints outside every struct block.
Anything no rule explains is an unexplained difference.

UNEXPLAINED_SIGNS only names, for the report, the known structlint defects
an unexplained difference looks like (work that is filed elsewhere); a
signature never makes a difference allowed.
"""
import re

# ---------------------------------------------------------------- lines

ENUMERATOR_RE = re.compile(r"^(?P<pre>\t+\w+\s*= )(?P<v>-?\d+),$")


def btf_enum_unsigned(p, s, fmt):
    """pahole's value is structlint's plus 2^32, structlint's negative."""
    if fmt != "btf":
        return False
    mp, ms = ENUMERATOR_RE.match(p), ENUMERATOR_RE.match(s)
    if not mp or not ms or mp.group("pre") != ms.group("pre"):
        return False
    vp, vs = int(mp.group("v")), int(ms.group("v"))
    return vs < 0 and vp == vs + (1 << 32)


LINE_RULES = [
    ("pahole-btf-enum-unsigned", btf_enum_unsigned,
     "pahole 1.24's BTF loader reads every BTF_KIND_ENUM value as u32 "
     "(btf_loader.c create_new_enumeration() never looks at kflag) and "
     "prints it with %llu; the type's kflag says the enum is signed (BTF "
     "docs 2.2.6; seen on the running 6.18 kernel's H.323 enums, whose "
     "first enumerator is 1 << 31, kflag 1, val -2147483648), which "
     "structlint prints as such"),
]

# ---------------------------------------------------------------- definitions


def dedup_key(parsed_block):
    """What pahole 1.24's type__compare() (pahole.c) looks at to decide
    that a definition was already printed: kind, name, size, the number of
    members and each direct member's name, bit offset and bitfield size;
    never the members' types."""
    head = parsed_block[0][2]
    size, members = None, []
    for kind, depth, f, _ in parsed_block:
        if kind == "summary" and depth == 0 and "size" in f:
            size = f["size"]
        elif kind == "member" and depth == 0:
            members.append((f.get("name"), f.get("offset"),
                            f.get("bit_offset"), f.get("bit_size")))
    return (head.get("kind"), head.get("name"), size, tuple(members))


EXTRA_RULE = (
    "pahole-dedup-member-types",
    "pahole without -C prints one definition per (kind, name, size, member "
    "names, bit offsets, bitfield sizes) (pahole.c structures__add(), "
    "type__compare() 'Don't look at the types'): a definition that differs "
    "from a printed one only in its members' types (the running 6.18 "
    "kernel's BTF: elf_note_info with siginfo_t csigdata, binfmt_elf.c, and "
    "with compat_siginfo_t, compat_binfmt_elf.c) is dropped; structlint "
    "prints both, as they are distinct layouts of one name.  Seen only "
    "where structlint is asked for every definition of every name (without "
    "--all)")

# ---------------------------------------------------------------- outside

DECL_LABEL_RE = re.compile(r"^/\* \S.*:\d+ \*/$")

OUTSIDE_RULE = (
    "structlint-decl-label",
    "structlint prints /* FILE:LINE */ before each of several definitions "
    "of one name so that a reader can tell them apart (pahole prints "
    "nothing); the line is outside the struct block")

# ---------------------------------------------------------------- signatures

UNEXPLAINED_SIGNS = [
    ("anon-array-folded",
     re.compile(r"^\+\t+(const )?(struct|union) \{\.\.\.\}\s+\S+\["),
     "an array of anonymous structs or unions printed folded "
     "(struct {...} x[8]) where pahole expands it"),
    ("array-bound",
     re.compile(r"^\+.*\w\[0?\]( __attribute__\(\(.*\)\))?;\s+/\*\s+\d+\s+0 \*/$"),
     "an array printed with 0 elements ([0] or []) where pahole prints its "
     "bound"),
]


def unexplained_sign(diff_lines):
    """The first signature whose pattern matches a structlint line of the
    unified diff, else 'other'."""
    for name, rx, _ in UNEXPLAINED_SIGNS:
        if any(rx.search(ln) for ln in diff_lines):
            return name
    return "other"
