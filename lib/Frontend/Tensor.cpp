//===- Tensor.cpp - the Tensor handle ----------------------------*- C++ -*-===//
//
// A Tensor is a handle on a TensorHolder: what it stands for (a node of its
// context's graph, or an error), inspection, and rebinding (assign). The
// operations are in the op family files, realization in Realize.cpp (see
// TensorImpl.h for the map).
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// The handle
//===----------------------------------------------------------------------===//

Tensor detail::fromNode(std::shared_ptr<const TensorNode> node) {
  auto h = std::make_shared<TensorHolder>();
  h->node = std::move(node);
  return Tensor(std::move(h));
}

Tensor Tensor::makeError(std::string message) {
  auto node = std::make_shared<TensorNode>();
  node->error = message.empty() ? "error" : std::move(message);
  return fromNode(std::move(node));
}

Tensor::Tensor() : Tensor(makeError("uninitialized tensor")) {}

/// The node of an ok tensor (null otherwise).
static const TensorNode *nodeOf(const Tensor &t) {
  auto &h = t.holder();
  return h && h->node && !h->node->error.size() && h->node->value ? h->node.get() : nullptr;
}

//===----------------------------------------------------------------------===//
// Inspection
//===----------------------------------------------------------------------===//

bool Tensor::ok() const { return nodeOf(*this) != nullptr; }
std::string Tensor::error() const {
  if (!h || !h->node)
    return "uninitialized tensor";
  return h->node->error;
}
llvm::Error Tensor::takeError() const {
  if (ok())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), error());
}
Shape Tensor::shape() const {
  const TensorNode *n = nodeOf(*this);
  return n ? shapeOfValue(n->value) : Shape{};
}
DType Tensor::dtype() const {
  const TensorNode *n = nodeOf(*this);
  return n ? rtDType(muop::getDType(n->value.getType())) : DType::F32;
}
int64_t Tensor::numel() const { return detail::prod(shape()); }
TensorContext *Tensor::context() const {
  const TensorNode *n = nodeOf(*this);
  return n ? n->ctx : nullptr;
}
Value Tensor::value() const {
  const TensorNode *n = nodeOf(*this);
  return n ? n->value : Value();
}
Value Tensor::graphValue() const {
  if (!ok())
    return Value();
  return h->graph ? h->graph->value : h->node->value;
}

std::string Tensor::str() const {
  if (!ok())
    return "<Tensor error: " + error() + ">";
  return "<Tensor " + shapeStr(shape()) + " " + rt::dtypeName(dtype()) +
         (requiresGrad() ? " grad" : "") + ">";
}

//===----------------------------------------------------------------------===//
// Rebinding
//===----------------------------------------------------------------------===//

llvm::Error Tensor::assign(const Tensor &x) {
  if (auto e = firstError({this, &x}))
    return e->takeError();
  if (x.shape() != shape() || x.dtype() != dtype())
    return llvm::createStringError("assign: " + x.str() + " to " + str());
  h->node = x.h->node;
  return llvm::Error::success();
}

} // namespace uop
