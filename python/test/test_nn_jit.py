"""uop.nn (layers, parameters, optimizers) and uop.TinyJit."""
import numpy as np
import pytest

import uop
from uop import Tensor, TinyJit, nn


class MLP:
    def __init__(self):
        self.l1, self.l2 = nn.Linear(8, 16), nn.Linear(16, 2)

    def __call__(self, x):
        return self.l2(self.l1(x).relu())


def data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 8)).astype(np.float32)
    return x, (x.sum(1) > 0).astype(np.int32)


def test_parameters_walk_python_objects_and_layers():
    m = MLP()
    ps = nn.parameters(m)
    assert len(ps) == 4 and [p.shape for p in ps] == [(8, 16), (16,), (16, 2), (2,)]
    assert len(nn.parameters([m, m.l1, {"again": m}])) == 4  # each tensor once
    assert [n for n, _ in m.l1.named_parameters()] == ["weight", "bias"]
    extra = Tensor(np.ones(3, np.float32), requires_grad=True)
    m.extra = [extra]
    assert nn.parameters(m)[-1].same_as(extra)


def test_layers_shapes():
    assert nn.Conv2d(3, 4, 3, padding=1)(Tensor.randn(2, 3, 8, 8)).shape == (2, 4, 8, 8)
    assert nn.LayerNorm(8)(Tensor.randn(4, 8)).shape == (4, 8)
    assert nn.Embedding(10, 6)(Tensor(np.array([[1, 2, 3]], np.int32))).shape == (1, 3, 6)
    assert nn.Linear(4, 2, bias=False).bias is None


def test_adamw_trains():
    x, y = data()
    Tensor.manual_seed(1)
    m = MLP()
    opt = nn.AdamW(nn.parameters(m), lr=1e-2)
    losses = []
    for _ in range(30):
        loss = m(Tensor(x)).cross_entropy(Tensor(y))
        opt.zero_grad()
        loss.backward(opt.params)
        opt.step(loss)
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]
    assert opt.steps() == 30


def test_sgd_momentum():
    w = Tensor(np.array([1.0, -2.0], np.float32), requires_grad=True)
    opt = nn.SGD([w], lr=0.1, momentum=0.9)
    for _ in range(2):
        loss = w.square().sum()
        opt.minimize(loss)
    np.testing.assert_allclose(w.numpy(), [0.46, -0.92], rtol=1e-5)


def test_step_without_grad_is_an_error():
    w = Tensor(np.ones(2, np.float32), requires_grad=True)
    with pytest.raises(uop.Error, match="grad"):
        nn.SGD([w]).step()


def test_tinyjit_replays_and_matches_eager():
    x, y = data()

    def run(jit):
        Tensor.manual_seed(2)
        m = MLP()
        opt = nn.AdamW(nn.parameters(m), lr=1e-2)

        def step(xb, yb):
            loss = m(xb).cross_entropy(yb)
            opt.minimize(loss)
            return loss

        f = TinyJit(step) if jit else step
        losses = [f(Tensor(x[i * 16:(i + 1) * 16]), Tensor(y[i * 16:(i + 1) * 16])).item()
                  for i in range(4)]
        return losses, f

    eager, _ = run(False)
    jitted, f = run(True)
    np.testing.assert_allclose(jitted, eager, rtol=1e-5)
    assert f.captured and f.calls == 4 and f.num_plans >= 1


def test_tinyjit_decorator_shapes_and_exceptions():
    @TinyJit
    def pair(a):
        return (a * 2).contiguous(), a + 1

    for i in range(4):
        out = pair(Tensor(np.full(3, i, np.float32)))
        assert isinstance(out, tuple) and out[0].numpy().tolist() == [2.0 * i] * 3
    assert pair.captured

    @TinyJit
    def boom(a):
        raise KeyError("inside")

    with pytest.raises(KeyError, match="inside"):
        boom(Tensor(np.ones(2, np.float32)))
