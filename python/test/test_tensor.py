"""uop.Tensor: creation, ops against numpy, values, autodiff, errors."""
import numpy as np
import pytest

import uop
from uop import Tensor, dtypes

rng = np.random.default_rng(0)


def r(*s):
    return rng.standard_normal(s).astype(np.float32)


def test_numpy_round_trip_and_repr():
    a = r(2, 3)
    t = Tensor(a)
    assert t.shape == (2, 3) and t.dtype == dtypes.f32 and t.ndim == 2 and t.numel() == 6
    assert repr(t) == "<Tensor (2, 3) f32>"
    np.testing.assert_array_equal(t.numpy(), a)
    assert Tensor([1, 2, 3]).dtype == dtypes.i32
    assert Tensor([True, False]).dtype == dtypes.bool
    assert Tensor(np.float64(2.5)).shape == ()
    assert Tensor([1, 2], dtype=dtypes.f32).dtype == dtypes.f32


def test_input_is_shared_not_copied():
    a = np.zeros((64, 64), np.float32)
    assert a.ctypes.data % 16 == 0
    t = Tensor(a)
    a[0, 0] = 5.0  # shared memory, as torch.from_numpy
    assert (t * 1).numpy()[0, 0] == 5.0
    c = Tensor(a, copy=True)
    a[0, 0] = 7.0
    assert (c * 1).numpy()[0, 0] == 5.0


def test_output_is_a_read_only_view():
    t = (Tensor(r(4, 4)) + 1).realize()
    v1, v2 = t.numpy(), t.numpy()
    assert not v1.flags.writeable
    assert np.shares_memory(v1, v2)  # no copy: both view the tensor's buffer
    w = t.numpy(copy=True)
    assert w.flags.writeable and not np.shares_memory(v1, w)
    np.testing.assert_array_equal(np.asarray(t), v1)


def test_output_view_outlives_the_tensor():
    t = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4)) * 2
    v = t.numpy()
    del t
    for _ in range(3):  # the pool must not hand the view's buffer to another run
        (Tensor(r(3, 4)) * 3).numpy()
    np.testing.assert_array_equal(v, np.arange(12, dtype=np.float32).reshape(3, 4) * 2)


def test_item_types():
    assert Tensor(np.array([1, 2, 3], np.int32)).sum().item() == 6
    assert isinstance(Tensor(np.array([1, 2, 3], np.int32)).sum().item(), int)
    assert isinstance(Tensor(r(3)).sum().item(), float)
    assert Tensor(np.array([1.0], np.float32)).gt(0).sum().item() is not None
    assert (Tensor(np.array([2.0], np.float32)) > 1).reshape(()).item() is True


@pytest.mark.parametrize("name,fn,ref", [
    ("arith", lambda a, b: (a * b - 3) / (b.abs() + 1), lambda a, b: (a * b - 3) / (np.abs(b) + 1)),
    ("reflected", lambda a, b: 2 - a + 1 / (b.square() + 1) * 3, lambda a, b: 2 - a + 1 / (b * b + 1) * 3),
    ("math", lambda a, b: a.exp().log() + a.sin() + b.cos() + (a.square() + 1).sqrt(),
     lambda a, b: a + np.sin(a) + np.cos(b) + np.sqrt(a * a + 1)),
    ("activations", lambda a, b: a.relu() + a.sigmoid() + a.tanh() + a.silu(),
     lambda a, b: np.maximum(a, 0) + 1 / (1 + np.exp(-a)) + np.tanh(a) + a / (1 + np.exp(-a))),
    ("compare", lambda a, b: (a < b).where(a, b) + a.maximum(b) + a.minimum(0.5),
     lambda a, b: np.where(a < b, a, b) + np.maximum(a, b) + np.minimum(a, 0.5)),
    ("reduce", lambda a, b: a.sum((0, 2)) + a.max(2).sum(0) + a.mean(), lambda a, b: a.sum((0, 2)) + a.max(2).sum(0) + a.mean()),
    ("keepdim_var", lambda a, b: a.var(-1, keepdim=True) + a.min(axis=2, keepdim=True),
     lambda a, b: a.var(-1, keepdims=True) + a.min(2, keepdims=True)),
    ("softmax", lambda a, b: a.softmax(-1) + a.log_softmax(1).exp(),
     lambda a, b: np.exp(a) / np.exp(a).sum(-1, keepdims=True) + np.exp(a) / np.exp(a).sum(1, keepdims=True)),
    ("matmul", lambda a, b: a @ b.transpose() + a.matmul(b.T), lambda a, b: 2 * (a @ b.transpose(0, 2, 1))),
    ("movement", lambda a, b: a.permute(2, 0, 1).reshape(4, -1).flip(0).pad(((1, 0), (0, 2))),
     lambda a, b: np.pad(a.transpose(2, 0, 1).reshape(4, -1)[::-1], ((1, 0), (0, 2)))),
    ("getitem", lambda a, b: a[:, 1:, -1] + b[1][1:, 2], lambda a, b: a[:, 1:, -1] + b[1][1:, 2]),
    ("cat_stack", lambda a, b: Tensor.cat([a, b], 1).sum(1) + Tensor.stack([a, b], 0).sum(0).sum(1),
     lambda a, b: np.concatenate([a, b], 1).sum(1) + (a + b).sum(1)),
    ("expand", lambda a, b: a[:, :1].expand(2, 3, 4) + b.unsqueeze(0).sum(0).flatten(1).reshape(2, 3, 4),
     lambda a, b: np.broadcast_to(a[:, :1], (2, 3, 4)) + b),
])
def test_ops(name, fn, ref):
    a, b = r(2, 3, 4), r(2, 3, 4)
    np.testing.assert_allclose(fn(Tensor(a), Tensor(b)).numpy(), ref(a, b), rtol=1e-4, atol=1e-5)


def test_int_and_bool_ops():
    t = Tensor(np.array([1, 2, 3], np.int32))
    np.testing.assert_allclose((t * 0.5).numpy(), [0.5, 1.0, 1.5])
    assert (t + 1).dtype == dtypes.i32
    assert t.eq(2).logical_not().numpy().tolist() == [True, False, True]
    assert t.cast(dtypes.f32).dtype == dtypes.f32 and t.float().dtype == dtypes.f32
    assert Tensor.arange(4).numpy().tolist() == [0, 1, 2, 3]
    assert Tensor(r(3, 5)).argmax(-1).dtype == dtypes.i32


def test_creation():
    assert Tensor.zeros(2, 3).numpy().tolist() == [[0.0] * 3] * 2
    assert Tensor.ones((2,), dtype=dtypes.i32).numpy().tolist() == [1, 1]
    assert Tensor.full((2, 2), 7.0).numpy().sum() == 28
    Tensor.manual_seed(3)
    a = Tensor.randn(100, 10).numpy()
    Tensor.manual_seed(3)
    assert np.array_equal(a, Tensor.randn(100, 10).numpy())
    u = Tensor.uniform(1000, low=2, high=3).numpy()
    assert u.min() >= 2 and u.max() < 3
    assert Tensor.kaiming(4, 4).requires_grad and not Tensor.randn(2).requires_grad


def test_backward_grad_detach():
    w = Tensor(np.array([1.0, 2.0], np.float32), requires_grad=True)
    loss = (w * w).sum()
    assert loss.item() == 5.0  # realizing keeps the graph for backward
    assert loss.backward([w]) is loss
    np.testing.assert_allclose(w.grad.numpy(), [2.0, 4.0])
    w.grad = None
    assert w.grad is None
    (w.detach() * w).sum().backward([w])
    np.testing.assert_allclose(w.grad.numpy(), [1.0, 2.0])


def test_errors_are_exceptions():
    a, b = Tensor(r(2, 3)), Tensor(r(4,))
    with pytest.raises(uop.Error, match="broadcast"):
        a + b
    with pytest.raises(uop.Error):
        a.sum(5)
    with pytest.raises(IndexError):
        a[2]
    with pytest.raises(uop.Error, match="item"):
        a.item()
    with pytest.raises(uop.Error, match="scalar"):
        a.backward([a])
    assert issubclass(uop.CompileError, uop.Error) and issubclass(uop.Error, RuntimeError)


def test_realize_and_stats():
    before = uop.stats()
    t = Tensor(r(8, 8)).relu()
    assert t.realize() is t and t.is_realized()
    after = uop.stats()
    assert after["realizations"] == before["realizations"] + 1
    Tensor.realize_all(Tensor(r(2)) + 1, Tensor(r(2)) * 2)
    plan = uop.plan_of(Tensor(r(64, 64)).softmax(-1)).plan
    assert len(plan.kernels) == 3 and "kernel" in str(plan)
