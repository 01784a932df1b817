"""uopc.tensor on uop: the seed's Tensor is uop.Tensor.

The seed's tests hand `t.uop` (the graph node) to kernelize.make_plan; here
`t.uop` is the tensor itself, which uop.compat.kernelize.make_plan takes.
"""
from uop import Tensor

if not hasattr(Tensor, "uop"):
    Tensor.uop = property(lambda self: self, doc="The seed's graph node: here, the tensor itself.")

__all__ = ["Tensor"]
