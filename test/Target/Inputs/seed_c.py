#!/usr/bin/env python3
"""The seed's C of a .uir program (render_c): each kernel of its plan, or the loop program.

  seed_c.py SEED_ROOT PROGRAM.uir
"""
import sys

sys.path.insert(0, sys.argv[1])
from uopc import uir  # noqa: E402
from uopc.kernelize import make_plan  # noqa: E402
from uopc.render_c import render_c  # noqa: E402
from uopc.uop import Ops  # noqa: E402

root = uir.parse(open(sys.argv[2]).read())
if root.op is Ops.SINK:
    print(render_c(root, "main"))
else:
    for kernel in make_plan([root])[0].kernels:
        print(kernel.src)
