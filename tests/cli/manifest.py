# SPDX-License-Identifier: MIT
"""Which fixture defines which structs, and the compiler/DWARF variants.

Shared by tests/cli/fixtures.py (builds), tests/cli/golden.py (golden
files) and the meson test list (tests/meson.build runs one golden and one
pahole test per fixture key below).
"""

# variant -> (env var naming the compiler, default compiler, DWARF version)
VARIANTS = {
    "gcc-dwarf4": ("CC_GCC", "gcc", 4),
    "gcc-dwarf5": ("CC_GCC", "gcc", 5),
    "clang-dwarf4": ("CC_CLANG", "clang", 4),
    "clang-dwarf5": ("CC_CLANG", "clang", 5),
}

# Derived inputs (compressed, stripped, BTF) are made from this variant.
SPECIAL_BASE = "gcc-dwarf5"

# single-CU fixtures: fixtures/layout/NAME.c -> VARIANT/NAME.o
SINGLE_CU = ["types", "bitfields", "holes", "anon", "kernel_like", "nested",
             "arrays", "deep"]
# linked into VARIANT/multi
MULTI_CU = ["multi_a", "multi_b", "multi_c"]

# fixture key -> (file in the variant dir, struct names)
FIXTURES = {
    "types": ("types.o", ["spelling", "top_union", "anon_typedef_t"]),
    "bitfields": ("bitfields.o", ["bits", "flags_then_ptr"]),
    "holes": ("holes.o", ["padded", "holes", "straddle", "big", "forced",
                          "alignas_only", "aligned_type"]),
    "anon": ("anon.o", ["nest", "flex", "flex_aligned", "inner"]),
    "kernel_like": ("kernel_like.o", ["mem_cgroup_per_node", "cgroup",
                                      "grouped", "cacheline_padding",
                                      "lruvec"]),
    "multi": ("multi", ["conflict", "shared"]),
    "nested": ("nested.o", ["outer", "mid", "choice"]),
    "arrays": ("arrays.o", ["counts", "huge", "flexarr", "zeroarr", "only_zero",
                            "zero_in_union", "anon_arrays", "anon_flex"]),
    "deep": ("deep.o", ["deep", "ptr_anon", "selfp"]),
}

# names that are a typedef (no struct tag) or a union, for C probes
TYPEDEF_NAMES = {"anon_typedef_t"}
UNION_NAMES = {"top_union", "choice", "zero_in_union"}

# Extra option sets run on top of the default one, per fixture:
# (tag used in golden file names, structlint/pahole options)
OPTION_SETS = {
    "anon": [("expand", ["--expand"])],
    "nested": [("expand", ["--expand"])],
    "arrays": [("expand", ["--expand"])],
    "deep": [("expand", ["--expand"])],
    "kernel_like": [("cl128", ["--cacheline", "128"])],
    "holes": [("cl128", ["--cacheline", "128"])],
}

# pahole's own output is wrong for these (fixture, struct, compiler): the
# golden is hand-corrected and the pahole cross-check is skipped for them.
PAHOLE_WRONG = {
    ("anon", "nest", "clang"):
        "pahole 1.24 prints the anonymous struct/union type DIEs that clang "
        "nests inside the struct DIE a second time, as if they were members "
        "(offsets restart at 0, no size comment)",
    # issue 10: allowed differences, each a pahole 1.24 bug
    ("arrays", "huge", "gcc"):
        "pahole 1.24 keeps array element counts and struct sizes in 32 bits: "
        "char big[1UL << 32] is printed big[0] of size 0 followed by a hole, "
        "and the struct's size modulo 2^32 (the golden's size is checked "
        "against the compiler's sizeof instead)",
    ("arrays", "anon_arrays", "clang"):
        "pahole 1.24 prints a stray copy of the element type after each array "
        "of an anonymous struct/union (clang nests that type's DIE inside the "
        "struct's DIE), offsets restarting at 0 and no size comment",
    ("arrays", "anon_flex", "clang"):
        "the stray copy above; behind it the flexible array is no longer the "
        "last member and pahole prints ents[0] for ents[]",
}
PAHOLE_WRONG[("arrays", "huge", "clang")] = PAHOLE_WRONG[("arrays", "huge", "gcc")]

# (fixture, struct): text golden only, no --json run, with the reason.  The
# size in the text summary is checked against the compiler's sizeof.
TEXT_ONLY = {
    ("arrays", "huge"):
        "the JSON layout lists every cache line a member touches: 67 million "
        "for a 4 GiB array (minutes and gigabytes)",
}
# the same pahole bug on every struct of the deep fixture (each holds
# anonymous types that clang nests in the struct DIE)
PAHOLE_WRONG.update({("deep", n, "clang"): PAHOLE_WRONG[("anon", "nest", "clang")]
                     for n in ("deep", "ptr_anon", "selfp")})

# pahole 1.24 shows only the first definition of a name in a file, so the
# cross-check of a name with several definitions runs on the single CUs.
PAHOLE_TARGETS = {
    "multi": [("multi_a.o", ["conflict"]), ("multi_b.o", ["conflict"]),
              ("multi", ["shared"])],
}


def compiler(variant):
    return variant.split("-")[0]
