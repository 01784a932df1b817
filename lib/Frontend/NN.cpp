//===- NN.cpp - layers and optimizers over the Tensor API --------*- C++ -*-===//
//
// A port of uopc/nn.py: each layer and update is the seed's composition of
// Tensor operations, in the seed's order, so the graphs are the seed's.
//
//===----------------------------------------------------------------------===//

#include "Uop/Frontend/NN.h"

#include "TensorImpl.h"

#include "llvm/ADT/DenseSet.h"

#include <cmath>

namespace uop::nn {

/// `t` realized (the seed's `Tensor.zeros(n).realize()`), or the error
/// tensor of its failure.
static Tensor realized(Tensor t) {
  auto r = t.realize();
  if (!r)
    return Tensor::makeError(llvm::toString(r.takeError()));
  return *r;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::~Module() = default;

Tensor &Module::registerParameter(std::string name, Tensor &t) {
  t.setRequiresGrad(true);
  entries.push_back({std::move(name), &t, nullptr});
  return t;
}

Module &Module::registerModule(std::string name, Module &m) {
  entries.push_back({std::move(name), nullptr, &m});
  return m;
}

std::vector<std::pair<std::string, Tensor>>
namedParametersOf(llvm::ArrayRef<const Module *> modules) {
  std::vector<std::pair<std::string, Tensor>> out;
  llvm::DenseSet<const void *> seen; // modules and tensor holders, as the seed's id() set
  // Depth first, iteratively: (module, next entry, path prefix).
  struct Frame {
    const Module *m;
    size_t i;
    std::string prefix;
  };
  for (const Module *root : modules) {
    if (!root || !seen.insert(root).second)
      continue;
    std::vector<Frame> stack{{root, 0, ""}};
    while (!stack.empty()) {
      Frame &f = stack.back();
      if (f.i == f.m->entries.size()) {
        stack.pop_back();
        continue;
      }
      const Module::Entry &e = f.m->entries[f.i++];
      std::string path = f.prefix + e.name;
      if (e.module) {
        if (seen.insert(e.module).second)
          stack.push_back({e.module, 0, path + "."});
        continue;
      }
      const Tensor &t = *e.param;
      if (!seen.insert(t.holder().get()).second)
        continue;
      if (t.requiresGrad() || !t.ok()) // an error tensor is kept, to surface its error
        out.emplace_back(std::move(path), t);
    }
  }
  return out;
}

std::vector<std::pair<std::string, Tensor>> Module::namedParameters() const {
  return namedParametersOf({this});
}

std::vector<Tensor> Module::parameters() const { return nn::parameters({this}); }

std::vector<Tensor> parameters(llvm::ArrayRef<const Module *> modules) {
  std::vector<Tensor> out;
  for (auto &kv : namedParametersOf(modules))
    out.push_back(kv.second);
  return out;
}

//===----------------------------------------------------------------------===//
// Layers
//===----------------------------------------------------------------------===//

Linear::Linear(int64_t in, int64_t out, bool hasBias, TensorContext &ctx) {
  if (in <= 0 || out <= 0) {
    weight = Tensor::makeError("Linear(" + std::to_string(in) + ", " + std::to_string(out) +
                               "): the sizes must be positive");
  } else {
    double bound = 1 / std::sqrt(static_cast<double>(in));
    weight = Tensor::uniform({in, out}, -bound, bound, ctx);
  }
  registerParameter("weight", weight);
  if (hasBias) {
    bias = out > 0 ? realized(Tensor::zeros({out}, DType::F32, ctx)) : weight;
    registerParameter("bias", *bias);
  }
}

Tensor Linear::operator()(const Tensor &x) const {
  return bias ? x.linear(weight, *bias) : x.linear(weight);
}

Conv2d::Conv2d(int64_t in, int64_t out, int64_t k, int64_t padding, int64_t stride,
               TensorContext &ctx)
    : padding(padding), stride(stride) {
  if (in <= 0 || out <= 0 || k <= 0) {
    weight = Tensor::makeError("Conv2d(" + std::to_string(in) + ", " + std::to_string(out) + ", " +
                               std::to_string(k) + "): the sizes must be positive");
    bias = weight;
  } else {
    double bound = 1 / std::sqrt(static_cast<double>(in * k * k));
    weight = Tensor::uniform({out, in, k, k}, -bound, bound, ctx);
    bias = realized(Tensor::zeros({out}, DType::F32, ctx));
  }
  registerParameter("weight", weight);
  registerParameter("bias", bias);
}

Tensor Conv2d::operator()(const Tensor &x) const { return x.conv2d(weight, bias, padding, stride); }

LayerNorm::LayerNorm(int64_t n, double eps, TensorContext &ctx) : eps(eps) {
  if (n <= 0) {
    weight = bias =
        Tensor::makeError("LayerNorm(" + std::to_string(n) + "): the size must be positive");
  } else {
    weight = realized(Tensor::ones({n}, DType::F32, ctx));
    bias = realized(Tensor::zeros({n}, DType::F32, ctx));
  }
  registerParameter("weight", weight);
  registerParameter("bias", bias);
}

Tensor LayerNorm::operator()(const Tensor &x) const {
  Tensor mu = x.mean(-1, /*keepdim=*/true);
  Tensor xc = x - mu;
  return xc * (xc.square().mean(-1, /*keepdim=*/true) + eps).rsqrt() * weight + bias;
}

Embedding::Embedding(int64_t vocab, int64_t dim, TensorContext &ctx) : vocab(vocab) {
  if (vocab <= 0 || dim <= 0)
    weight = Tensor::makeError("Embedding(" + std::to_string(vocab) + ", " + std::to_string(dim) +
                               "): the sizes must be positive");
  else
    weight = realized(Tensor::randn({vocab, dim}, ctx) * 0.02);
  registerParameter("weight", weight);
}

Tensor Embedding::operator()(const Tensor &idx) const {
  if (idx.ok() && idx.dtype() != DType::I32)
    return Tensor::makeError(std::string("Embedding: the indices must be i32, got ") +
                             rt::dtypeName(idx.dtype()));
  return idx.oneHot(vocab).matmul(weight);
}

//===----------------------------------------------------------------------===//
// Optimizers
//===----------------------------------------------------------------------===//

Optimizer::Optimizer(std::vector<Tensor> params) : ps(std::move(params)) {}
Optimizer::~Optimizer() = default;

void Optimizer::zeroGrad() {
  for (Tensor &p : ps)
    p.setGrad(std::nullopt);
}

llvm::Error Optimizer::minimize(const Tensor &loss) {
  zeroGrad();
  if (llvm::Error e = loss.backward(ps))
    return e;
  return step({loss});
}

llvm::Expected<std::vector<Tensor>> Optimizer::gradients() const {
  std::vector<Tensor> gs;
  for (auto [i, p] : llvm::enumerate(ps)) {
    if (!p.ok())
      return llvm::createStringError("parameter " + std::to_string(i) + ": " + p.error());
    std::optional<Tensor> g = p.grad();
    if (!g)
      return llvm::createStringError("parameter " + std::to_string(i) + " " + p.str() +
                                     " has no gradient (backward first)");
    if (!g->ok())
      return llvm::createStringError("the gradient of parameter " + std::to_string(i) + ": " +
                                     g->error());
    if (g->shape() != p.shape() || g->dtype() != p.dtype())
      return llvm::createStringError("the gradient of parameter " + std::to_string(i) + " " +
                                     p.str() + " is " + g->str());
    gs.push_back(*g);
  }
  return gs;
}

std::vector<Tensor> Optimizer::snapshot(llvm::ArrayRef<Tensor> ts) {
  std::vector<Tensor> out;
  for (const Tensor &t : ts)
    out.emplace_back(std::make_shared<detail::TensorHolder>(*t.holder()));
  return out;
}

llvm::Error Optimizer::commit(llvm::ArrayRef<Tensor> updated, llvm::ArrayRef<Tensor> extra,
                              const std::vector<Tensor> &before) {
  std::vector<Tensor> all(updated.begin(), updated.end());
  all.insert(all.end(), extra.begin(), extra.end());
  llvm::Error e = Tensor::realizeAll(all);
  if (e)
    restore(updated, before);
  return e;
}

void Optimizer::restore(llvm::ArrayRef<Tensor> updated, const std::vector<Tensor> &before) {
  for (auto [t, old] : llvm::zip(updated, before))
    t.holder()->node = old.holder()->node;
}

SGD::SGD(std::vector<Tensor> params, double lr, double momentum)
    : Optimizer(std::move(params)), lr(lr), momentum(momentum) {
  if (momentum)
    for (const Tensor &p : ps)
      v.push_back(p.ok() ? realized(Tensor::zeros(p.shape(), p.dtype(), *p.context())) : p);
}

llvm::Error SGD::step(llvm::ArrayRef<Tensor> extra) {
  auto gs = gradients();
  if (!gs)
    return gs.takeError();
  std::vector<Tensor> updated(ps.begin(), ps.end());
  updated.insert(updated.end(), v.begin(), v.end());
  std::vector<Tensor> before = snapshot(updated);
  for (auto [i, p] : llvm::enumerate(ps)) {
    Tensor g = (*gs)[i];
    if (momentum) {
      if (auto e = v[i].assign(v[i] * momentum + g))
        return restore(updated, before), std::move(e);
      g = v[i];
    }
    if (auto e = p.assign(p.detach() - g * lr))
      return restore(updated, before), std::move(e);
  }
  return commit(updated, extra, before);
}

std::vector<std::string> Optimizer::paramNames(const Module &model) const {
  std::vector<std::pair<std::string, Tensor>> named = model.namedParameters();
  std::vector<std::string> out;
  for (size_t k = 0; k < ps.size(); ++k) {
    const Tensor &p = ps[k];
    auto it = llvm::find_if(named, [&](const auto &n) { return n.second.sameAs(p); });
    out.push_back(it != named.end() ? it->first : "param." + std::to_string(k));
  }
  return out;
}

std::vector<std::pair<std::string, Tensor>> Optimizer::namedState(const Module &model) const {
  std::vector<std::pair<std::string, Tensor>> out;
  for (auto [name, p] : llvm::zip(paramNames(model), ps))
    out.emplace_back(name, p);
  return out;
}

std::vector<std::pair<std::string, Tensor>> SGD::namedState(const Module &model) const {
  std::vector<std::pair<std::string, Tensor>> out = Optimizer::namedState(model);
  std::vector<std::string> names = paramNames(model);
  for (auto [name, velocity] : llvm::zip(names, v))
    out.emplace_back("sgd.v." + name, velocity);
  return out;
}

std::vector<std::pair<std::string, Tensor>> AdamW::namedState(const Module &model) const {
  std::vector<std::pair<std::string, Tensor>> out = Optimizer::namedState(model);
  std::vector<std::string> names = paramNames(model);
  for (auto [name, moment] : llvm::zip(names, m))
    out.emplace_back("adamw.m." + name, moment);
  for (auto [name, moment] : llvm::zip(names, v))
    out.emplace_back("adamw.v." + name, moment);
  out.emplace_back("adamw.t", t);
  return out;
}

AdamW::AdamW(std::vector<Tensor> params, double lr, double b1, double b2, double eps, double wd)
    : Optimizer(std::move(params)), lr(lr), b1(b1), b2(b2), eps(eps), wd(wd) {
  for (const Tensor &p : ps) {
    m.push_back(p.ok() ? realized(Tensor::zeros(p.shape(), p.dtype(), *p.context())) : p);
    v.push_back(p.ok() ? realized(Tensor::zeros(p.shape(), p.dtype(), *p.context())) : p);
  }
  if (!ps.empty() && ps[0].ok())
    t = realized(Tensor::zeros({1}, DType::F32, *ps[0].context()));
}

int64_t AdamW::steps() const {
  auto n = t.ok() ? t.item() : llvm::Expected<double>(0.0);
  if (!n) {
    llvm::consumeError(n.takeError());
    return 0;
  }
  return static_cast<int64_t>(*n);
}

/// 1 - b^t for the step count `t` (a tensor): -expm1(t ln b), by its series
/// (to y^8/8!) where |t ln b| < 0.5, by 1 - exp(t ln b) otherwise. In f32,
/// 1 - exp(t ln b) alone would lose the digits of 1 - 0.999^t; this stays
/// within a few ulps of the seed's value, computed in double on the host.
static Tensor oneMinusPow(const Tensor &t, double b) {
  Tensor y = t * std::log(b);
  Tensor acc = 1 + y * (1.0 / 8);
  for (int k = 7; k >= 2; --k)
    acc = 1 + y * (1.0 / k) * acc;
  return (y.abs() < 0.5).where(-(y * acc), 1 - y.exp());
}

llvm::Error AdamW::step(llvm::ArrayRef<Tensor> extra) {
  auto gs = gradients();
  if (!gs)
    return gs.takeError();
  if (ps.empty())
    return Tensor::realizeAll(extra);
  std::vector<Tensor> updated(ps.begin(), ps.end());
  updated.insert(updated.end(), m.begin(), m.end());
  updated.insert(updated.end(), v.begin(), v.end());
  updated.push_back(t);
  std::vector<Tensor> before = snapshot(updated);
  // The step count and the bias corrections are computed in the program
  // (the seed passes host floats as data): one structure for every step,
  // and a TinyJit's replay, which runs no host code, counts too. Each is
  // staged (contiguous) so the updates read one value, not recompute it per
  // element.
  if (auto e = t.assign(t + 1))
    return restore(updated, before), std::move(e);
  Tensor c1 = (lr / oneMinusPow(t, b1)).contiguous();
  Tensor c2 = (1 / oneMinusPow(t, b2)).contiguous();
  for (auto [i, p] : llvm::enumerate(ps)) {
    const Tensor &g = (*gs)[i];
    if (auto e = m[i].assign(m[i] * b1 + g * (1 - b1)))
      return restore(updated, before), std::move(e);
    if (auto e = v[i].assign(v[i] * b2 + g.square() * (1 - b2)))
      return restore(updated, before), std::move(e);
    Shape ones(p.ndim(), 1);
    Tensor upd = m[i] * c1.reshape(ones) / ((v[i] * c2.reshape(ones)).sqrt() + eps);
    if (auto e = p.assign(p.detach() * (1 - lr * wd) - upd))
      return restore(updated, before), std::move(e);
  }
  return commit(updated, extra, before);
}

} // namespace uop::nn
