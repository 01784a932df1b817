#!/usr/bin/env python3
"""Regenerates fuzz/opt-corpus, the seed corpus of uop-opt-fuzz: every
test/IR, test/Transforms and test/Conversion .mlir file split at `// -----`
(RUN/CHECK/expected-* comment lines dropped), one file per piece named by its
SHA-1. Each file starts with uop-opt-fuzz's selector byte, '0'..'5', the pass
its test runs (symbolic, inline-calls, evaluate, kernelize, rangeify,
linearize), and a piece whose test runs
none of them is written once for each of the six. A piece over 4 KB is split
into its functions, which take the passes in turn."""
import glob
import hashlib
import os
import re

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.join(root, "fuzz", "opt-corpus")
os.makedirs(out, exist_ok=True)
for f in os.listdir(out):
    os.remove(os.path.join(out, f))
PASSES = ["symbolic", "inline-calls", "evaluate", "kernelize", "rangeify", "linearize"]
count = 0
for path in sorted(sum((glob.glob(os.path.join(root, "test", d, "*.mlir"))
                        for d in ("IR", "Transforms", "Conversion")), [])):
    text = open(path).read()
    run = " ".join(re.findall(r"^// RUN:.*$", text, re.M))
    tested = [i for i, p in enumerate(PASSES) if f"uop-{p}" in run]
    for piece in re.split(r"^// -----.*$", text, flags=re.M):
        lines = [ln for ln in piece.splitlines()
                 if not re.match(r"\s*//\s*(RUN|CHECK|[A-Z-]+:|expected-)", ln)]
        body = "\n".join(lines).strip() + "\n"
        if not body.strip():
            continue
        if len(body) > 4096:  # a big piece: one file per function, passes in turn
            funcs = re.split(r"^(?=func\.func )", body, flags=re.M)
            for i, fn in enumerate(f for f in funcs if f.strip()):
                data = str(tested[i % len(tested)] if tested else i % len(PASSES)).encode() + fn.encode()
                with open(os.path.join(out, hashlib.sha1(data).hexdigest()[:16] + ".mlir"), "wb") as f:
                    f.write(data)
                count += 1
            continue
        for sel in (tested or range(len(PASSES))):
            data = str(sel).encode() + body.encode()
            name = hashlib.sha1(data).hexdigest()[:16]
            with open(os.path.join(out, name + ".mlir"), "wb") as f:
                f.write(data)
            count += 1
print(count, "files in", out)
