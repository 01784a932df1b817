"""uop.compile: programs (text or files) to executables that run on numpy."""
import os

import numpy as np
import pytest

import uop

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")

ADD_UIR = """
%0 = buffer 8 : dtype=f32 slot=0
%1 = buffer 8 : dtype=f32 slot=1
%2 = add %0, %1
"""


def test_uir_text_runs_on_numpy():
    exe = uop.compile(ADD_UIR)
    a, b = np.arange(8, dtype=np.float32), np.ones(8, np.float32)
    (c,) = exe(a, b)
    np.testing.assert_array_equal(c, a + b)
    (c2,) = exe({0: a, 1: b})
    np.testing.assert_array_equal(c2, a + b)
    assert exe.plan.form == "shaped" and exe.plan.input_slots == [0, 1]
    assert "kernel" in str(exe.plan) and exe.backend == "cpu"


def test_file_and_plan_and_profile():
    exe = uop.compile(os.path.join(EXAMPLES, "softmax.uir"), target="cpu", opt="hand")
    assert len(exe.plan.kernels) == 3
    x = np.random.default_rng(0).standard_normal(64 * 64).astype(np.float32)
    (y,) = exe(x)
    e = np.exp(x.reshape(64, 64) - x.reshape(64, 64).max(-1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(-1, keepdims=True), rtol=1e-5, atol=1e-6)
    prof = exe.profile(x)
    assert len(prof) == 3 and "total" in str(prof)
    assert len(exe.bench(x, runs=3)) == 3


def test_gemm_on_each_cpu_target():
    a = np.random.default_rng(1).standard_normal((256, 256)).astype(np.float32)
    b = np.random.default_rng(2).standard_normal((256, 256)).astype(np.float32)
    for target in ("cpu", "emulate", "x86-64-v3"):
        exe = uop.compile(os.path.join(EXAMPLES, "gemm.uir"), target=target)
        (c,) = exe(a.ravel(), b.ravel())
        np.testing.assert_allclose(c, a @ b, rtol=1e-3, atol=1e-3)
    exe = uop.compile(os.path.join(EXAMPLES, "gemm.mlir"), opt="none", mcpu="x86-64-v3")
    # examples/gemm.mlir reduces the last axis of (i, k, j): A[i, k] * sum_j B[k, j].
    (c,) = exe(a.ravel(), b.ravel())
    np.testing.assert_allclose(c, a * b.sum(1), rtol=1e-3, atol=1e-3)


def test_in_place_program_writes_the_arrays():
    exe = uop.compile(os.path.join(EXAMPLES, "loops_gemm.uir"))
    assert exe.plan.form == "in_place"
    a = np.random.default_rng(3).standard_normal((64, 64)).astype(np.float32)
    b = np.random.default_rng(4).standard_normal((64, 64)).astype(np.float32)
    c = np.zeros((64, 64), np.float32)
    assert exe(a, b, c) is None
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


def test_errors_carry_the_diagnostic():
    with pytest.raises(uop.CompileError) as e:
        uop.compile("%0 = buffer 8 : dtype=f32 slot=0\n%1 = frobnicate %0\n")
    assert "<string>.uir:2:" in str(e.value) and "error:" in str(e.value)
    bad = os.path.join(os.path.dirname(__file__), "bad.mlir")
    with pytest.raises(uop.CompileError, match=r"bad\.mlir:\d+:\d+: error: .*shape mismatch"):
        uop.compile(bad)
    with pytest.raises(ValueError, match="target"):
        uop.compile(ADD_UIR, target="no-such-cpu")
    with pytest.raises(ValueError, match="opt"):
        uop.compile(ADD_UIR, opt="fast")
    with pytest.raises(ValueError, match="slot 1"):
        uop.compile(ADD_UIR)(np.zeros(8, np.float32), np.zeros(9, np.float32))
    with pytest.raises(TypeError, match="2 input"):
        uop.compile(ADD_UIR)(np.zeros(8, np.float32))
