"""uop: an MLIR-based ML compiler, from Python.

    import numpy as np, uop
    x = uop.Tensor(np.random.randn(4, 8).astype(np.float32))
    y = (x * 2 + 1).relu().softmax(-1)     # lazy: a graph
    print(y.numpy())                        # compiled once per structure, run

- uop.Tensor: the lazy tensor (the seed's tensor.py API and names), with
  autodiff (backward, grad, detach); numpy in and out without copies where
  the layout allows.
- uop.nn: layers (Linear, Conv2d, LayerNorm, Embedding), parameters(),
  optimizers (SGD, AdamW).
- uop.TinyJit: a decorator that captures a training step once and then
  replays its compiled plans.
- uop.compile(program, target=..., opt=...): a .uir/.mlir program (text or
  file) to an Executable that runs on numpy arrays and prints its plan and
  profile.
- uop.compat: the seed's module names (uopc.tensor, uopc.nn, ...) mapped
  onto uop, for running the seed's code unchanged.

docs/Python.md is the manual.
"""
from uop._uop import (CompileError, DType, Error, Executable, Kernel, KernelProfile, Plan,
                      Profile, Tensor, TinyJit, compile, last_executable, plan_of, stats)
from uop import nn


class dtypes:
    """The dtypes by the seed's names: dtypes.f32, dtypes.i32, dtypes.f16, dtypes.bool."""
    f32 = DType.f32
    i32 = DType.i32
    f16 = DType.f16
    bool = DType.bool
    float32 = DType.f32
    int32 = DType.i32
    float16 = DType.f16


manual_seed = Tensor.manual_seed

__all__ = ["CompileError", "DType", "Error", "Executable", "Kernel", "KernelProfile", "Plan",
           "Profile", "Tensor", "TinyJit", "compile", "dtypes", "last_executable",
           "manual_seed", "nn", "plan_of", "stats"]
