#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The default input: the running kernel's BTF (/sys/kernel/btf/vmlinux).

Usage: kernel_btf.py [NAME...]   (default: mem_cgroup_per_node sk_buff
                                   task_struct page)

`structlint NAME` with no FILE must exit 0 and describe the same members
(name, type, offset, size, bit offset and size, nesting depth) as
`pahole -F btf -C NAME /sys/kernel/btf/vmlinux`, strictly, in order.
Other differences (alignment attributes and the forced-alignment summary,
which BTF does not record and both tools infer) are printed but do not
fail.  Several names in one call must give the single-name texts concatenated (no blank line between, as `pahole -C a,b` prints them)
by blank lines; --list and --json must work without FILE too.
Exit 77 (meson: skipped) when this kernel exposes no BTF.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import pahole_compare  # noqa: E402

KERNEL_BTF = "/sys/kernel/btf/vmlinux"
STRUCTLINT = os.environ.get("STRUCTLINT", "structlint")
PAHOLE = os.environ.get("PAHOLE", "pahole")
DEFAULT = ["mem_cgroup_per_node", "sk_buff", "task_struct", "page"]
ATTR_RE = re.compile(r"\s*__attribute__\(\(__aligned__\(\d+\)\)\)")


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    print("%s -> exit %d" % (" ".join(cmd), r.returncode))
    return r


def members(text):
    """Member rows of the first block, alignment attributes removed."""
    out = []
    blocks = pahole_compare.parse(text)
    for kind, depth, f, _ in (blocks[0] if blocks else []):
        if kind == "member":
            out.append((depth, f["name"], ATTR_RE.sub("", f["type"]), f["offset"],
                        f["size"], f.get("bit_offset"), f.get("bit_size")))
    return out


def main():
    names = sys.argv[1:] or DEFAULT
    if not os.path.exists(KERNEL_BTF):
        print("%s absent: this kernel has no BTF, skipped" % KERNEL_BTF)
        return 77
    errs, texts = [], []
    for name in names:
        s = run([STRUCTLINT, name])
        if s.returncode != 0 or s.stderr:
            errs.append("structlint %s: exit %d, stderr %r" % (name, s.returncode, s.stderr))
            continue
        texts.append(s.stdout)
        p = run([PAHOLE, "-F", "btf", "-C", name, KERNEL_BTF])
        if p.returncode != 0 or not p.stdout.strip():
            errs.append("pahole -C %s: exit %d, no output" % (name, p.returncode))
            continue
        pm, sm = members(p.stdout), members(s.stdout)
        if not pm:
            errs.append("%s: no members parsed from pahole" % name)
        if pm != sm:
            only_p = [m for m in pm if m not in sm][:10]
            only_s = [m for m in sm if m not in pm][:10]
            errs.append("%s: members differ (depth, name, type, offset, size, bit "
                        "offset, bit size):\n  pahole only %s\n  structlint only %s"
                        % (name, only_p, only_s))
        other = pahole_compare.compare_texts(p.stdout, s.stdout, "pahole", "structlint")
        print("%s: %d members equal; %d other difference(s) (not failing):"
              % (name, len(pm), len(other) - (pm != sm)))
        for d in other:
            print("  " + d.replace("\n", "\n  ")[:3000])
    if texts and len(texts) == len(names):
        s = run([STRUCTLINT] + names)
        if s.returncode != 0 or s.stdout != "".join(texts):
            errs.append("structlint %s: exit %d, output is not the single-name "
                        "outputs joined" % (" ".join(names), s.returncode))
    s = run([STRUCTLINT, "--json", names[0]])
    try:
        doc = json.loads(s.stdout)
        st = doc["structs"][0]
        if s.returncode or st["name"] != names[0] or st["format"] != "btf":
            errs.append("--json %s: exit %d, %r" % (names[0], s.returncode,
                                                    {k: st.get(k) for k in ("name", "format")}))
    except (ValueError, KeyError, IndexError) as e:
        errs.append("--json %s: %s: %r" % (names[0], e, s.stdout[:200]))
    s = run([STRUCTLINT, "--list", names[0]])
    if s.returncode or not re.match(r"^\d+ (struct|union) %s\n$" % re.escape(names[0]),
                                    s.stdout):
        errs.append("--list %s: exit %d, %r" % (names[0], s.returncode, s.stdout))
    for e in errs:
        print("FAIL " + e)
    print("%d problem(s)" % len(errs))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
