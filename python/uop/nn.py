"""uop.nn: layers and optimizers (the seed's nn.py), over uop's C++ nn.

Layers (Linear, Conv2d, LayerNorm, Embedding) and optimizers (SGD, AdamW)
are uop::nn's; a model is any Python object holding layers and tensors, and
parameters(model) finds them as the seed's parameters() does.
"""
from uop import _uop
from uop._uop import Tensor

AdamW, Conv2d, Embedding, LayerNorm = _uop.nn.AdamW, _uop.nn.Conv2d, _uop.nn.Embedding, _uop.nn.LayerNorm
Linear, Module, Optimizer, SGD = _uop.nn.Linear, _uop.nn.Module, _uop.nn.Optimizer, _uop.nn.SGD

__all__ = ["AdamW", "Conv2d", "Embedding", "LayerNorm", "Linear", "Module", "Optimizer", "SGD",
           "parameters"]


def parameters(obj) -> list:
    """Every Tensor with requires_grad reachable from `obj` through attributes,
    lists, tuples and dicts (and a layer's registered parameters), each once,
    in order: the seed's nn.parameters()."""
    out, seen, tensors = [], set(), set()

    def add(t):
        if t.requires_grad and t._id() not in tensors:
            tensors.add(t._id())
            out.append(t)

    def walk(o):
        if id(o) in seen:
            return
        seen.add(id(o))
        if isinstance(o, Tensor):
            add(o)
        elif isinstance(o, Module):
            for t in o.parameters():
                add(t)
        elif isinstance(o, (list, tuple)):
            for x in o:
                walk(x)
        elif isinstance(o, dict):
            for x in o.values():
                walk(x)
        elif hasattr(o, "__dict__"):
            for x in vars(o).values():
                walk(x)

    walk(obj)
    return out
