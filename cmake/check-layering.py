#!/usr/bin/env python3
"""The layering table, checked at the include level.

The top-level CMakeLists.txt holds the table (`set(UOP_MAY_LINK_<lib> ...)`):
which uop libraries each library may depend on. CMake checks what a library
links; this checks what its files include: every `#include "Uop/<Dir>/..."`
in a library's sources (lib/<Dir>/) and public headers (include/Uop/<Dir>/)
must name a header of the library itself or of one in its row. A library
that includes a header of a layer it may not use compiles today only
because some dependency re-exports that layer; this fails on it.

  check-layering.py SOURCE_ROOT        exit 0, or 1 with one line per include
"""
import os
import re
import sys

# The library that owns each directory: lib/<dir> and include/Uop/<dir>.
# Target/CPU is a library of its own (UopTargetCPU), as is its header.
OWNERS = {
    "Runtime": "UopRuntime",
    "IR": "UopIR",
    "Transforms": "UopTransforms",
    "Codegen": "UopCodegen",
    "Conversion": "UopConversion",
    "Target": "UopTarget",
    "Pipelines": "UopPipelines",
    "ExecutionEngine": "UopExecutionEngine",
    "Frontend": "UopFrontend",
    "SMT": "UopSMT",
}
SPECIAL = {"Target/CPU": "UopTargetCPU", "Target/CPU.h": "UopTargetCPU",
           "Target/C": "UopTargetC", "Target/C.h": "UopTargetC"}


def owner_of(rel):
    """The library of a path below lib/ or include/Uop/ ("IR/UopOps.h")."""
    for prefix, lib in SPECIAL.items():
        if rel == prefix or rel.startswith(prefix + "/"):
            return lib
    return OWNERS.get(rel.split("/", 1)[0])


def read_table(root):
    text = open(os.path.join(root, "CMakeLists.txt")).read()
    table = {}
    for m in re.finditer(r"set\(UOP_MAY_LINK_(\w+)((?:\s+[^)\s]+)*)\s*\)", text):
        deps = [d.strip('"') for d in m.group(2).split()]
        table[m.group(1)] = [d for d in deps if d]
    return table


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(__file__))
    table = read_table(root)
    if not table:
        print("check-layering: no UOP_MAY_LINK_ table in CMakeLists.txt")
        return 1
    include = re.compile(r'^\s*#\s*include\s+"Uop/([^"]+)"')
    bad = 0
    checked = 0
    for base in ("lib", os.path.join("include", "Uop")):
        top = os.path.join(root, base)
        for dirpath, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp", ".inc")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, top)
                lib = owner_of(rel)
                if lib is None:
                    continue
                if lib not in table:
                    print(f"{os.path.join(base, rel)}: {lib} has no row in the layering table")
                    bad += 1
                    continue
                allowed = set(table[lib]) | {lib}
                for n, line in enumerate(open(path, errors="replace"), 1):
                    m = include.match(line)
                    if not m:
                        continue
                    checked += 1
                    used = owner_of(m.group(1))
                    if used is None or used in allowed:
                        continue
                    print(f"{os.path.join(base, rel)}:{n}: {lib} includes Uop/{m.group(1)} "
                          f"of {used}, but its row allows only: "
                          f"{' '.join(table[lib]) or '(nothing)'}")
                    bad += 1
    if bad:
        print(f"check-layering: {bad} include(s) break the layering table")
        return 1
    print(f"check-layering: {checked} includes follow the layering table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
