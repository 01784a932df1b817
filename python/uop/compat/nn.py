"""uopc.nn on uop: uop.nn's layers, optimizers and parameters()."""
from uop.nn import AdamW, Conv2d, Embedding, LayerNorm, Linear, Optimizer, SGD, parameters
from uop.compat.tensor import Tensor

__all__ = ["AdamW", "Conv2d", "Embedding", "LayerNorm", "Linear", "Optimizer", "SGD", "Tensor",
           "parameters"]
