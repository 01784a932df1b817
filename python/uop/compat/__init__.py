"""uop.compat: the seed's module names on uop, to run the seed's code unchanged.

    import uop.compat; uop.compat.install()
    from uopc.tensor import Tensor      # uop.Tensor
    from uopc.nn import Linear, AdamW   # uop.nn

install() puts these modules into sys.modules under the seed's names (so an
import of them never reaches the seed's own package):

    uopc            this package (tensor, nn, kernelize, dtype as attributes)
    uopc.tensor     Tensor (uop.Tensor, with the seed's `.uop` attribute)
    uopc.nn         uop.nn: Linear, Conv2d, LayerNorm, Embedding, SGD, AdamW, parameters
    uopc.kernelize  make_plan (the plan realizing some tensors would run) and _plans
                    (the plan cache: len() is the number of compiled plans)
    uopc.dtype      dtypes, DType
    datasets        the seed examples' loaders over Debian's packages:
                    mnist() is Fashion-MNIST, shakespeare() the fortunes text

`python3 -m uop.compat SCRIPT [ARGS]` runs a seed script (examples/gpt.py)
with the names installed; `pytest -p uop.compat.pytest_plugin TESTS` runs
the seed's tests against uop.
"""
import sys

from uop import Tensor
from uop.compat import datasets, dtype, kernelize, nn, tensor

__all__ = ["install", "Tensor", "datasets", "dtype", "kernelize", "nn", "tensor"]

_MODULES = {
    "uopc": sys.modules[__name__],
    "uopc.tensor": tensor,
    "uopc.nn": nn,
    "uopc.kernelize": kernelize,
    "uopc.dtype": dtype,
    "datasets": datasets,
}


def install(datasets_too: bool = True):
    """Makes `import uopc...` (and `import datasets`) import uop's modules."""
    for name, mod in _MODULES.items():
        if name == "datasets" and not datasets_too:
            continue
        sys.modules[name] = mod
