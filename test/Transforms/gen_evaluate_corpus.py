"""Regenerates test/Transforms/evaluate-seed/*.uir: the seed's closed programs
with the value the seed's `run` gives them, printed by its `to_uir`.

Run from the repo root:
  PYTHONPATH=/work/shared/reference/uopc-python python3 test/Transforms/gen_evaluate_corpus.py
Every program of test/Target/seed/ that the seed runs to a CONST/STACK gets a
lit test: `uop-opt prog.uir --uop-evaluate | uop-translate --export-uir`
prints exactly the seed's value.
"""
import glob, os
from uopc.uir import parse, to_uir
from uopc.symbolic import run, to_python

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = os.path.join(HERE, "..", "Target", "seed")
OUT = os.path.join(HERE, "evaluate-seed")
HEADER = """# RUN: uop-opt %s --uop-evaluate | uop-translate --export-uir > %t
# RUN: grep '^# SEED: ' %s | sed 's/^# SEED: //' | diff - %t
#
# The seed's run(parse(program)), printed by its to_uir:
"""

for path in sorted(glob.glob(os.path.join(SEED, "*.uir"))):
    src = "".join(l for l in open(path) if not l.startswith("#"))
    try:
        g = parse(src)
        r = run(g)
        to_python(r)
    except Exception:
        continue  # open programs (params, memory) and programs the seed cannot run
    name = os.path.basename(path)
    with open(os.path.join(OUT, name), "w") as f:
        f.write(HEADER)
        for line in to_uir(r).splitlines():
            f.write("# SEED: " + line + "\n")
        f.write(src)
    print(name)
