//===- OpsTestUtil.h - tinygrad's helper_test_op for the frontend -*- C++ -*-===//
//
// The op families' tests in the style of tinygrad's test/test_ops.py: each
// case is an op applied to inputs drawn uniformly from [low, high) (or given
// values), its value compared with a reference and, unless it is
// forward-only, the gradient of its sum with respect to every input too,
// with tinygrad's tolerances (|got - want| <= atol + rtol |want|; NaN
// matches NaN, an infinity itself).
//
// The references are numpy in float64, written in the family's script as
// `REF['name'] = lambda *xs: ...` (or `EW['name']` for an elementwise op,
// whose gradient is then differenced for all elements at once); gradients
// are central finite differences of the float64 reference (step 1e-6
// relative), unless the script sets `GRAD['name'] = lambda *xs: [g0, ...]`
// with a hand derivation. References are rounded to f32 when saved (uop
// reads no f64 .npy).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_UNITTESTS_FRONTEND_OPSTESTUTIL_H
#define UOP_UNITTESTS_FRONTEND_OPSTESTUTIL_H

#include "FrontendTestUtil.h"

#include <functional>

namespace uop::test {

/// One case: `fn` of the inputs, checked against the reference `name`.
struct OpCase {
  std::string name;
  std::vector<Shape> shapes;
  std::function<Tensor(const std::vector<Tensor> &)> fn;
  double low = -2, high = 2;
  double atol = 1e-6, rtol = 1e-3, gradAtol = 1e-4, gradRtol = 1e-3;
  bool forwardOnly = false;
  /// Explicit inputs (1-D f32) instead of random ones.
  std::vector<std::vector<float>> vals;

  OpCase(std::string name, std::vector<Shape> shapes,
         std::function<Tensor(const std::vector<Tensor> &)> fn)
      : name(std::move(name)), shapes(std::move(shapes)), fn(std::move(fn)) {}
  OpCase &range(double lo, double hi) {
    low = lo, high = hi;
    return *this;
  }
  OpCase &tol(double a, double r = 1e-3) {
    atol = a, rtol = r;
    return *this;
  }
  OpCase &gradTol(double a, double r = 1e-3) {
    gradAtol = a, gradRtol = r;
    return *this;
  }
  OpCase &forward() {
    forwardOnly = true;
    return *this;
  }
  OpCase &values(std::vector<std::vector<float>> v) {
    vals = std::move(v);
    shapes.clear();
    for (auto &x : vals)
      shapes.push_back({static_cast<int64_t>(x.size())});
    return *this;
  }
};

/// The common part of the reference scripts.
inline const char *kOpsPrelude = R"py(
import sys, json, math, numpy as np
d = sys.argv[1]
REF, EW, GRAD = {}, {}, {}
np.seterr(all='ignore')
def sum_to(g, shape):
    while g.ndim > len(shape): g = g.sum(0)
    for i, s in enumerate(shape):
        if s == 1 and g.shape[i] != 1: g = g.sum(i, keepdims=True)
    return g
def fd(f, xs, i, ew):
    x = xs[i]
    h = 1e-6 * np.maximum(1.0, np.abs(x))
    if ew:
        xp = list(xs); xm = list(xs); xp[i] = x + h; xm[i] = x - h
        fp, fm = np.asarray(f(*xp), np.float64), np.asarray(f(*xm), np.float64)
        hb = np.broadcast_to(h, fp.shape)
        return sum_to((fp - fm) / (2 * hb), x.shape)
    g = np.zeros(x.shape)
    flat, gf, hf = x.reshape(-1), g.reshape(-1), h.reshape(-1)
    for j in range(flat.size):
        xp = flat.copy(); xm = flat.copy(); xp[j] += hf[j]; xm[j] -= hf[j]
        a = list(xs); b = list(xs); a[i] = xp.reshape(x.shape); b[i] = xm.reshape(x.shape)
        gf[j] = (np.sum(np.asarray(f(*a), np.float64)) - np.sum(np.asarray(f(*b), np.float64))) / (2 * hf[j])
    return g
erf = np.vectorize(math.erf)
def sigmoid(x): return np.where(x >= 0, 1 / (1 + np.exp(-np.abs(x))), np.exp(-np.abs(x)) / (1 + np.exp(-np.abs(x))))
def softplus(x): return np.logaddexp(x, 0.0)
)py";

inline const char *kOpsEpilogue = R"py(
for c in json.load(open(d + '/cases.json')):
    name, n = c['name'], c['n']
    xs = [np.load(f'{d}/{name}.in{i}.npy').astype(np.float64) for i in range(n)]
    f = REF.get(name) or EW.get(name)
    out = np.asarray(f(*xs), np.float64)
    np.save(f'{d}/{name}.out.npy', np.array(out, np.float32, order='C'))
    if c['forward_only']: continue
    grads = GRAD[name](*xs) if name in GRAD else [fd(f, xs, i, name in EW) for i in range(n)]
    for i, g in enumerate(grads): np.save(f'{d}/{name}.grad{i}.npy', np.array(g, np.float32, order='C'))
)py";

/// The fixture: check() runs a family's cases.
class OpsTest : public FrontendTest {
protected:
  /// The elements as exact integers (i32 and bool values).
  std::vector<int64_t> ints(const Tensor &t) {
    auto b = t.numpy();
    if (!b) {
      ADD_FAILURE() << llvm::toString(b.takeError());
      return {};
    }
    std::vector<int64_t> v;
    for (int64_t i = 0; i < b->numel(); ++i)
      v.push_back(static_cast<int64_t>(b->getDouble(i)));
    return v;
  }
  /// Whether `got` is within tolerance of `want` (NaN is NaN's, an
  /// infinity its own).
  static bool close(double got, double want, double atol, double rtol) {
    if (std::isnan(want) || std::isnan(got))
      return std::isnan(want) && std::isnan(got);
    if (std::isinf(want) || std::isinf(got))
      return got == want;
    return std::fabs(got - want) <= atol + rtol * std::fabs(want);
  }
  /// Compares a value with a reference .npy (its shape, then each element).
  void compare(const std::string &what, const Tensor &t, const std::string &npy, double atol,
               double rtol) {
    SCOPED_TRACE(what);
    auto got = t.numpy();
    ASSERT_TRUE(!!got) << llvm::toString(got.takeError());
    rt::HostBuffer want = load(npy);
    ASSERT_EQ(got->shape(), want.shape());
    int bad = 0;
    for (int64_t i = 0; i < want.numel() && bad < 5; ++i) {
      double g = got->getDouble(i), w = want.getDouble(i);
      if (!close(g, w, atol, rtol)) {
        ++bad;
        ADD_FAILURE() << "at " << i << ": got " << g << ", want " << w;
      }
    }
  }
  /// The inputs of a case (random from the context's generator, or its
  /// values).
  std::vector<Tensor> inputs(const OpCase &c) {
    std::vector<Tensor> xs;
    for (size_t i = 0; i < c.shapes.size(); ++i)
      xs.push_back(c.vals.empty() ? Tensor::uniform(c.shapes[i], c.low, c.high, ctx)
                                  : Tensor::fromVector(c.vals[i], c.shapes[i], ctx));
    return xs;
  }
  /// Runs `cases` against the references of `refs` (a script body between
  /// kOpsPrelude and kOpsEpilogue).
  void check(const std::vector<OpCase> &cases, const std::string &refs) {
    if (!rt::test::haveNumpy())
      GTEST_SKIP() << "no numpy";
    ctx.manualSeed(0);
    std::vector<std::vector<Tensor>> ins;
    std::string json = "[";
    for (const OpCase &c : cases) {
      ins.push_back(inputs(c));
      for (size_t i = 0; i < ins.back().size(); ++i)
        save(ins.back()[i], c.name + ".in" + std::to_string(i));
      json += std::string(json.size() > 1 ? "," : "") + "{\"name\": \"" + c.name +
              "\", \"n\": " + std::to_string(c.shapes.size()) +
              ", \"forward_only\": " + (c.forwardOnly ? "true" : "false") + "}";
    }
    json += "]";
    ASSERT_TRUE(rt::test::writeFile(dir.file("cases.json"), json));
    std::string script = std::string(kOpsPrelude) + refs + kOpsEpilogue;
    ASSERT_EQ(rt::test::runPython(dir, script, "'" + dir.path() + "'"), 0)
        << "the reference script failed";
    for (size_t k = 0; k < cases.size(); ++k) {
      const OpCase &c = cases[k];
      SCOPED_TRACE(c.name);
      std::vector<Tensor> &xs = ins[k];
      Tensor y = c.fn(xs);
      ASSERT_TRUE(y.ok()) << y.error();
      compare("forward", y, c.name + ".out", c.atol, c.rtol);
      if (c.forwardOnly)
        continue;
      // The forward again: realizing y rebound it to its value (tinygrad's
      // test recomputes it too).
      auto grads = c.fn(xs).sum().gradient(xs);
      ASSERT_TRUE(!!grads) << llvm::toString(grads.takeError());
      for (size_t i = 0; i < xs.size(); ++i)
        compare("gradient " + std::to_string(i), (*grads)[i], c.name + ".grad" + std::to_string(i),
                c.gradAtol, c.gradRtol);
    }
  }
};

/// Shorthands for a case's function of one, two or three inputs.
inline std::function<Tensor(const std::vector<Tensor> &)>
unaryFn(std::function<Tensor(const Tensor &)> f) {
  return [f](const std::vector<Tensor> &x) { return f(x[0]); };
}
inline std::function<Tensor(const std::vector<Tensor> &)>
binaryFn(std::function<Tensor(const Tensor &, const Tensor &)> f) {
  return [f](const std::vector<Tensor> &x) { return f(x[0], x[1]); };
}
inline std::function<Tensor(const std::vector<Tensor> &)>
ternaryFn(std::function<Tensor(const Tensor &, const Tensor &, const Tensor &)> f) {
  return [f](const std::vector<Tensor> &x) { return f(x[0], x[1], x[2]); };
}

} // namespace uop::test

#endif // UOP_UNITTESTS_FRONTEND_OPSTESTUTIL_H
