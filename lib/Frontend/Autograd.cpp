//===- Autograd.cpp - gradients ----------------------------------*- C++ -*-===//
//
// The seed's autograd glue: the requires_grad flag, each tensor's grad, and
// backward, which differentiates the graph with mlir::uop::gradient
// (Transforms/Autodiff.h) and builds the gradients into the context's graph.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include "Uop/Transforms/Autodiff.h"

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// Autodiff
//===----------------------------------------------------------------------===//

bool Tensor::requiresGrad() const { return h && h->requiresGrad; }
Tensor &Tensor::setRequiresGrad(bool v) {
  if (h)
    h->requiresGrad = v;
  return *this;
}

std::optional<Tensor> Tensor::grad() const {
  if (!h)
    return std::nullopt;
  return h->grad;
}
void Tensor::setGrad(std::optional<Tensor> g) {
  if (h)
    h->grad = std::move(g);
}

llvm::Expected<std::vector<Tensor>> Tensor::gradient(ArrayRef<Tensor> targets) const {
  if (!ok())
    return takeError();
  if (!shape().empty())
    return llvm::createStringError("gradient: needs a scalar, got " + str());
  for (const Tensor &p : targets) {
    if (!p.ok())
      return llvm::createStringError("gradient: target: " + p.error());
    if (p.context() != context())
      return llvm::createStringError("gradient: a target of another context");
  }
  std::shared_ptr<const TensorNode> rootNode = h->graph ? h->graph : h->node;
  SmallVector<Value> values;
  std::vector<std::shared_ptr<const TensorNode>> srcs{rootNode};
  for (const Tensor &p : targets) {
    values.push_back(p.value());
    srcs.push_back(sharedNode(p));
  }
  GraphBuilder g(context());
  FailureOr<SmallVector<Value>> grads = muop::gradient(g.b, rootNode->value, values);
  if (failed(grads)) {
    std::string d = g.c.takeDiagnostics();
    g.eraseFresh();
    return llvm::createStringError("gradient: " + (d.empty() ? std::string("no gradient") : d));
  }
  if (auto e = g.consFresh(*grads))
    return llvm::createStringError("gradient: " + *e);
  std::vector<Tensor> out;
  for (Value gv : *grads)
    out.push_back(fromNode(g.node(gv, srcs)));
  return out;
}

llvm::Error Tensor::backward(ArrayRef<Tensor> params) const {
  if (!ok())
    return takeError();
  if (!shape().empty())
    return llvm::createStringError("backward: needs a scalar, got " + str());
  for (const Tensor &p : params) {
    if (!p.ok())
      return llvm::createStringError("backward: parameter: " + p.error());
    if (p.context() != context())
      return llvm::createStringError("backward: a parameter of another context");
  }
  // The seed differentiates `getattr(self, "_graph", self.uop)` by each p.uop.
  std::shared_ptr<const TensorNode> rootNode = h->graph ? h->graph : h->node;
  SmallVector<Value> targets;
  std::vector<std::shared_ptr<const TensorNode>> srcs{rootNode};
  for (const Tensor &p : params) {
    targets.push_back(p.value());
    srcs.push_back(sharedNode(p));
  }
  GraphBuilder g(context());
  FailureOr<SmallVector<Value>> grads = muop::gradient(g.b, rootNode->value, targets);
  if (failed(grads)) {
    std::string d = g.c.takeDiagnostics();
    g.eraseFresh();
    return llvm::createStringError("backward: " + (d.empty() ? std::string("no gradient") : d));
  }
  if (auto e = g.consFresh(*grads))
    return llvm::createStringError("backward: " + *e);
  // The seed computes every gradient, then accumulates each.
  for (auto [p, gv] : llvm::zip(params, *grads)) {
    Tensor gt = fromNode(g.node(gv, srcs));
    std::optional<Tensor> old = p.grad();
    Tensor sum = old ? old->add(gt) : gt;
    if (!sum.ok())
      return llvm::createStringError("backward: accumulating into " + p.str() +
                                     "'s grad: " + sum.error());
    p.holder()->grad = sum; // handles share the holder, as Python objects
  }
  return llvm::Error::success();
}

} // namespace uop
