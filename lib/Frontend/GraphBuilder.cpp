//===- GraphBuilder.cpp - building and hash-consing graph ops ----*- C++ -*-===//
//
// Every operation appends its ops to the context's graph block through a
// GraphBuilder; finishing verifies each new op and hash-conses it (an op
// structurally equal to one in the graph is that one, as the seed's UOps).
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include "mlir/IR/Verifier.h"

#include <cmath>

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

std::vector<const void *> detail::consKey(Operation *op, const void *props) {
  std::vector<const void *> key{op->getName().getAsOpaquePointer(), props,
                                op->getDiscardableAttrDictionary().getAsOpaquePointer()};
  for (Type t : op->getResultTypes())
    key.push_back(t.getAsOpaquePointer());
  for (Value v : op->getOperands())
    key.push_back(v.getAsOpaquePointer());
  return key;
}

SmallVector<Operation *> GraphBuilder::freshOps() const {
  SmallVector<Operation *> fresh;
  for (auto it = before ? std::next(before->getIterator()) : c.graph->begin(); it != c.graph->end();
       ++it)
    fresh.push_back(&*it);
  return fresh;
}

std::optional<std::string> GraphBuilder::consFresh(MutableArrayRef<Value> results) {
  SmallVector<Operation *> fresh = freshOps();
  // In build order: an op equal to one in the table (the same name,
  // properties, attributes, result types and operands, after the
  // replacements before it) becomes that op without being verified (a
  // verifier reads only the op, and that one passed); a new op is
  // verified, then added.
  SmallVector<Operation *> kept;
  SmallVector<bool> gone(fresh.size(), false);
  for (auto [k, op] : llvm::enumerate(fresh)) {
    const void *props = op->getPropertiesAsAttribute().getAsOpaquePointer();
    std::vector<const void *> key = consKey(op, props);
    if (auto it = c.consed.find(key); it != c.consed.end()) {
      for (Value &r : results)
        if (r == op->getResult(0))
          r = it->second;
      op->getResult(0).replaceAllUsesWith(it->second);
      op->erase();
      gone[k] = true;
      continue;
    }
    if (failed(mlir::verify(op, /*verifyRecursively=*/false))) {
      std::string d = c.takeDiagnostics();
      for (Operation *o : kept) {
        c.consed.erase(consKey(o, c.props.lookup(o)));
        c.props.erase(o);
      }
      for (size_t j = fresh.size(); j-- > 0;)
        if (!gone[j])
          fresh[j]->erase();
      return "invalid graph op: " + (d.empty() ? std::string("verifier failed") : d);
    }
    c.consed.emplace(std::move(key), op->getResult(0));
    c.props[op] = props;
    kept.push_back(op);
  }
  c.built += kept.size();
  return std::nullopt;
}

void GraphBuilder::eraseFresh() {
  for (Operation *o : llvm::reverse(freshOps()))
    o->erase();
}

std::shared_ptr<TensorNode>
GraphBuilder::node(Value v, std::vector<std::shared_ptr<const TensorNode>> srcs) {
  auto node = std::make_shared<TensorNode>();
  node->ctx = ctx;
  node->value = v;
  c.retain(v);
  node->srcs = std::move(srcs);
  return node;
}

Tensor GraphBuilder::finish(Value result, std::vector<std::shared_ptr<const TensorNode>> srcs) {
  if (auto e = consFresh(result))
    return err(*e);
  return fromNode(node(result, std::move(srcs)));
}

Value GraphBuilder::constant(Scalar v, Type dtype) {
  // UOp.const(v, dtype): f16 is an f32 constant cast; bool/i32 convert as
  // Python's bool()/int() do.
  if (dtype.isF16())
    return muop::CastOp::create(b, loc, constant(Scalar(v.value), b.getF32Type()),
                                TypeAttr::get(dtype));
  if (dtype.isF32())
    return muop::ConstOp::create(b, loc, b.getFloatAttr(dtype, v.value));
  if (dtype.isInteger(1))
    return muop::ConstOp::create(b, loc, b.getBoolAttr(v.value != 0));
  // int(v) wrapped to 32 bits, as a C cast of an in-range int64 (0xFFFFFFFF
  // is -1); a value beyond int64 (C's undefined behavior) is 0.
  double t = std::trunc(v.value);
  int64_t i = std::fabs(t) < 9.2e18 ? static_cast<int64_t>(t) : 0;
  return muop::ConstOp::create(
      b, loc, b.getIntegerAttr(dtype, static_cast<int32_t>(static_cast<uint32_t>(i))));
}

std::optional<Tensor> detail::firstError(std::initializer_list<const Tensor *> ts) {
  TensorContext *ctx = nullptr;
  for (const Tensor *t : ts) {
    if (!t->ok())
      return *t;
    if (ctx && t->context() != ctx)
      return err("tensors of different contexts in one operation");
    ctx = t->context();
  }
  return std::nullopt;
}

} // namespace uop
