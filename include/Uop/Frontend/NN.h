//===- NN.h - layers and optimizers over the Tensor API -----------*- C++ -*-===//
//
// The seed's uopc/nn.py: layers (Linear, Conv2d, LayerNorm, Embedding), a
// parameter registry, and the optimizers SGD (momentum) and AdamW, written
// against uop::Tensor only.
//
//   struct MLP : uop::nn::Module {
//     uop::nn::Linear l1{784, 128}, l2{128, 10};
//     MLP() { registerModule("l1", l1); registerModule("l2", l2); }
//     uop::Tensor operator()(const uop::Tensor &x) const { return l2(l1(x).relu()); }
//   };
//   MLP model;
//   uop::nn::AdamW opt(model.parameters(), /*lr=*/1e-3);
//   uop::Tensor loss = model(x).crossEntropy(y);
//   opt.zeroGrad();
//   if (auto e = loss.backward(opt.params())) ...;
//   if (auto e = opt.step({loss})) ...;   // one program: updates + the loss
//   // or, the three at once: if (auto e = opt.minimize(loss)) ...;
//
// Parameters. C++ has no reflection to walk attributes as the seed's
// parameters() does, so a Module registers its parameters and submodules,
// in one list, in the order the seed's attributes are assigned; parameters()
// walks it at call time (a member reassigned later is seen) and returns each
// tensor with requiresGrad once (the seed's filter and its id() set).
// Registration stores pointers to the members: a Module is neither copied
// nor moved (hold submodules in std::unique_ptr to keep them in a vector).
//
// Optimizers. step() builds every update lazily and realizes the new
// parameters, the optimizer state and `extra` as one program (the seed's
// realize_all). AdamW passes its bias corrections as 1-element data tensors,
// not as constants, so every step has one structure and the plan compiled
// by the first step is reused by the rest (the seed's
// test_adamw_steps_reuse_one_plan). A step that fails (a parameter without
// a gradient, a program that does not compile or run) returns the error and
// leaves the parameters and the state as they were.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_FRONTEND_NN_H
#define UOP_FRONTEND_NN_H

#include "Uop/Frontend/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace uop::nn {

/// The base of layers and models: a registry of parameters and submodules.
class Module {
public:
  Module() = default;
  virtual ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  /// The registered tensors that require gradients, this module's and its
  /// submodules', depth first in registration order, each tensor once.
  std::vector<Tensor> parameters() const;
  /// The same with their paths ("blocks.0.attn.qkv.weight").
  std::vector<std::pair<std::string, Tensor>> namedParameters() const;

protected:
  /// Registers the member `t` as a parameter and marks it requiresGrad.
  Tensor &registerParameter(std::string name, Tensor &t);
  /// Registers the member `m` (it must outlive this module's use).
  Module &registerModule(std::string name, Module &m);

private:
  struct Entry {
    std::string name;
    Tensor *param = nullptr;
    Module *module = nullptr;
  };
  std::vector<Entry> entries;
  friend std::vector<std::pair<std::string, Tensor>>
  namedParametersOf(llvm::ArrayRef<const Module *> modules);
};

/// The parameters of several modules (the seed's parameters([l1, l2])),
/// each once, in order.
std::vector<Tensor> parameters(llvm::ArrayRef<const Module *> modules);

/// y = x @ weight + bias; weight (in, out) uniform in +-1/sqrt(in), bias
/// zeros (realized).
class Linear : public Module {
public:
  Linear(int64_t in, int64_t out, bool bias = true, TensorContext &ctx = TensorContext::global());
  Tensor operator()(const Tensor &x) const;

  Tensor weight;
  std::optional<Tensor> bias;
};

/// Tensor::conv2d with weight (out, in, k, k) uniform in
/// +-1/sqrt(in*k*k) and bias zeros(out).
class Conv2d : public Module {
public:
  Conv2d(int64_t in, int64_t out, int64_t k, int64_t padding = 0, int64_t stride = 1,
         TensorContext &ctx = TensorContext::global());
  Tensor operator()(const Tensor &x) const;

  Tensor weight, bias;
  int64_t padding, stride;
};

/// Normalizes the last axis: (x - mean) * rsqrt(var + eps) * weight + bias,
/// weight ones(n), bias zeros(n).
class LayerNorm : public Module {
public:
  explicit LayerNorm(int64_t n, double eps = 1e-5, TensorContext &ctx = TensorContext::global());
  Tensor operator()(const Tensor &x) const;

  Tensor weight, bias;
  double eps;
};

/// idx (i32) -> rows of weight (vocab, dim), randn * 0.02: a one-hot
/// matmul, differentiable without a scatter op.
class Embedding : public Module {
public:
  Embedding(int64_t vocab, int64_t dim, TensorContext &ctx = TensorContext::global());
  Tensor operator()(const Tensor &idx) const;

  Tensor weight;
  int64_t vocab;
};

//===----------------------------------------------------------------------===//
// Optimizers
//===----------------------------------------------------------------------===//

class Optimizer {
public:
  explicit Optimizer(std::vector<Tensor> params);
  virtual ~Optimizer();

  /// Drops every parameter's gradient.
  void zeroGrad();
  /// Updates every parameter from its grad(); `extra` tensors (the loss)
  /// are realized in the same program.
  virtual llvm::Error step(llvm::ArrayRef<Tensor> extra = {}) = 0;
  /// One training step on `loss`: zeroGrad(), `loss.backward(params())`,
  /// then step({loss}) (the loss realized with the updates).
  llvm::Error minimize(const Tensor &loss);

  const std::vector<Tensor> &params() const { return ps; }

  /// The state a step updates, named: each parameter by its name in
  /// `model` (namedParameters()), then the optimizer's own tensors
  /// ("adamw.m.NAME", "adamw.v.NAME", "adamw.t"; "sgd.v.NAME"), for
  /// TinyJit::exportStep (the state files uop-runner reads and writes). A
  /// parameter `model` does not name is "param.K".
  virtual std::vector<std::pair<std::string, Tensor>> namedState(const Module &model) const;

protected:
  /// The name of each parameter in `model` ("param.K" for the others).
  std::vector<std::string> paramNames(const Module &model) const;

  /// Each parameter's gradient, or an error naming the first without one.
  llvm::Expected<std::vector<Tensor>> gradients() const;
  /// Realizes `updated` (the tensors assigned this step) with `extra`; on
  /// an error, rebinds every updated tensor to what it was before the step.
  llvm::Error commit(llvm::ArrayRef<Tensor> updated, llvm::ArrayRef<Tensor> extra,
                     const std::vector<Tensor> &before);
  /// Rebinds each of `updated` to its value in `before`.
  static void restore(llvm::ArrayRef<Tensor> updated, const std::vector<Tensor> &before);
  /// Handles on the current values of `ts` (to restore them), taken before
  /// a step assigns.
  static std::vector<Tensor> snapshot(llvm::ArrayRef<Tensor> ts);

  std::vector<Tensor> ps;
};

/// p -= lr * g, with momentum: v = momentum * v + g; p -= lr * v.
class SGD : public Optimizer {
public:
  explicit SGD(std::vector<Tensor> params, double lr = 0.01, double momentum = 0.0);
  llvm::Error step(llvm::ArrayRef<Tensor> extra = {}) override;
  std::vector<std::pair<std::string, Tensor>> namedState(const Module &model) const override;

  double lr, momentum;
  /// The velocities (empty without momentum).
  std::vector<Tensor> v;
};

/// Adam with decoupled weight decay: m = b1 m + (1-b1) g, v = b2 v +
/// (1-b2) g^2, p = p (1 - lr wd) - m c1 / (sqrt(v c2) + eps), with the bias
/// corrections c1 = lr / (1 - b1^t) and c2 = 1 / (1 - b2^t) computed in the
/// step's program from the step count t, a tensor (so a TinyJit replays it).
class AdamW : public Optimizer {
public:
  explicit AdamW(std::vector<Tensor> params, double lr = 1e-3, double b1 = 0.9, double b2 = 0.999,
                 double eps = 1e-8, double wd = 0.0);
  llvm::Error step(llvm::ArrayRef<Tensor> extra = {}) override;
  std::vector<std::pair<std::string, Tensor>> namedState(const Module &model) const override;

  /// Steps taken (reads t).
  int64_t steps() const;

  double lr, b1, b2, eps, wd;
  /// Steps taken, as a (1,) f32 tensor updated by each step's program.
  Tensor t;
  std::vector<Tensor> m, v;
};

} // namespace uop::nn

#endif // UOP_FRONTEND_NN_H
