"""The seed's examples/mnist_mlp.py and examples/gpt.py, unchanged, on uop.

uop.compat maps their imports (uopc.tensor, uopc.nn, datasets) onto uop and
Debian's data; each runs briefly here and must learn. `python3 -m uop.compat
SEED/examples/mnist_mlp.py` runs the whole thing.
"""
import os
import runpy
import subprocess
import sys

import pytest

import uop.compat
from uop.compat import datasets


def have(path):
    return os.path.exists(path)


def test_compat_maps_the_seed_names():
    import uop
    uop.compat.install()
    from uopc.tensor import Tensor
    from uopc.nn import AdamW, parameters
    from uopc import kernelize
    assert Tensor is uop.Tensor and AdamW is uop.nn.AdamW and parameters is uop.nn.parameters
    plan, _ = kernelize.make_plan([(Tensor.ones(4, 4) * 2).uop])
    assert len(plan.kernels) == 1 and len(kernelize._plans) >= 1


@pytest.mark.skipif(not have(datasets.fashion_mnist_dir()), reason="no dataset-fashion-mnist")
def test_mnist_mlp(seed_root, capsys):
    uop.compat.install()
    mod = runpy.run_path(os.path.join(seed_root, "examples", "mnist_mlp.py"))
    acc = mod["main"](steps=40)
    out = capsys.readouterr().out
    assert "step   39 loss" in out and "test accuracy" in out
    assert acc > 0.55  # Fashion-MNIST, 40 steps of AdamW (600 give 84-85%)


@pytest.mark.skipif(not have(datasets.fortunes_path()), reason="no fortunes")
def test_gpt(seed_root):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-m", "uop.compat", os.path.join(seed_root, "examples", "gpt.py"),
                        "--steps", "8", "--batch", "4", "--ctx", "16", "--dim", "16", "--heads", "2",
                        "--layers", "1"], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "parameters, vocab" in lines[0]
    losses = [float(l.split()[3]) for l in lines if l.startswith("step")]
    assert losses[-1] < losses[0]  # step 0 and step 7: it learns
    assert len(lines[-1]) > 0  # the sample
