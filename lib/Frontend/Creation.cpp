//===- Creation.cpp - creating tensors ---------------------------*- C++ -*-===//
//
// Data tensors (a `uop.buffer` node owning host data: fromBuffer,
// fromVector, load, and every realized value) and constants (full, zeros,
// ones), and arange. The random creation functions are in Random.cpp.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include "Uop/Runtime/Npy.h"

#include <numeric>

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// Data tensors
//===----------------------------------------------------------------------===//

/// A node owning `data`: `uop.buffer ID : tensor<N x T>` (+ a reshape to
/// `shape`).
Tensor detail::dataTensor(TensorContext &ctx, std::shared_ptr<rt::HostBuffer> data,
                          const Shape &shape) {
  if (prod(shape) != data->numel())
    return err("data of " + data->describe() + " does not fit shape " + shapeStr(shape));
  return dataTensor(ctx, hostStorage(std::move(data)), shape);
}

Tensor detail::dataTensor(TensorContext &ctx, std::shared_ptr<Storage> data, const Shape &shape) {
  auto &c = ctx.impl();
  if (prod(shape) != data->numel)
    return err("data of " + std::to_string(data->numel) + " elements does not fit shape " +
               shapeStr(shape));
  if (data->numel == 0)
    return err("empty tensors are not supported (shape " + shapeStr(shape) + ")");
  int64_t id = c.nextBufferId++;
  OpBuilder b(&c.mlir);
  b.setInsertionPointToEnd(c.graph);
  Location loc = UnknownLoc::get(&c.mlir);
  Type dt = mlirDType(c.mlir, data->dtype);
  Value v = muop::BufferOp::create(b, loc, RankedTensorType::get({data->numel}, dt),
                                   static_cast<uint64_t>(id));
  ++c.built;
  if (shape != Shape{data->numel}) {
    v = muop::ReshapeOp::create(b, loc, v, b.getDenseI64ArrayAttr(shape));
    ++c.built;
  }
  c.buffers[id] = data;
  auto node = std::make_shared<TensorNode>();
  node->ctx = &ctx;
  node->value = v;
  c.retain(v);
  node->data = std::move(data);
  node->bufferId = id;
  return fromNode(std::move(node));
}

Tensor Tensor::fromBuffer(std::shared_ptr<rt::HostBuffer> data, TensorContext &ctx) {
  if (!data)
    return err("fromBuffer: null buffer");
  Shape shape = data->shape();
  return dataTensor(ctx, std::move(data), shape);
}

Tensor Tensor::fromBuffer(const rt::HostBuffer &data, TensorContext &ctx) {
  return fromBuffer(std::make_shared<rt::HostBuffer>(data), ctx);
}

template <typename T>
static Tensor fromValues(const std::vector<T> &data, const Shape &shape, DType dtype,
                         TensorContext &ctx) {
  for (int64_t d : shape)
    if (d < 0)
      return err("fromVector: negative dimension in shape " + shapeStr(shape));
  if (prod(shape) != static_cast<int64_t>(data.size()))
    return err("fromVector: " + std::to_string(data.size()) + " values do not fit shape " +
               shapeStr(shape));
  auto buf = rt::HostBuffer::create(dtype, shape);
  if (!buf.ok())
    return err(buf.error());
  auto shared = std::make_shared<rt::HostBuffer>(buf.take());
  for (size_t i = 0; i < data.size(); ++i)
    shared->setDouble(i, static_cast<double>(data[i]));
  return dataTensor(ctx, std::move(shared), shape);
}

Tensor Tensor::fromVector(const std::vector<float> &data, const Shape &shape, TensorContext &ctx) {
  return fromValues(data, shape, DType::F32, ctx);
}
Tensor Tensor::fromInts(const std::vector<int32_t> &data, const Shape &shape, TensorContext &ctx) {
  return fromValues(data, shape, DType::I32, ctx);
}
Tensor Tensor::fromBools(const std::vector<bool> &data, const Shape &shape, TensorContext &ctx) {
  std::vector<int> v(data.begin(), data.end());
  return fromValues(v, shape, DType::Bool, ctx);
}
Tensor Tensor::fromVector(const std::vector<float> &data, TensorContext &ctx) {
  return fromValues(data, {static_cast<int64_t>(data.size())}, DType::F32, ctx);
}

Tensor Tensor::load(const std::string &path, TensorContext &ctx) {
  auto buf = rt::readNpy(path);
  if (!buf.ok())
    return err(buf.error());
  return fromBuffer(std::make_shared<rt::HostBuffer>(buf.take()), ctx);
}

//===----------------------------------------------------------------------===//
// Constants and ranges
//===----------------------------------------------------------------------===//

Tensor Tensor::full(const Shape &shape, Scalar v, DType dtype, TensorContext &ctx) {
  for (int64_t d : shape)
    if (d < 0)
      return err("full: negative dimension in shape " + shapeStr(shape));
  GraphBuilder g(&ctx);
  Value c = g.constant(v, mlirDType(ctx.mlirContext(), dtype));
  if (!shape.empty())
    c = g.expand(g.reshape(c, Shape(shape.size(), 1)), shape);
  return g.finish(c, {});
}
Tensor Tensor::zeros(const Shape &shape, DType dtype, TensorContext &ctx) {
  return full(shape, 0, dtype, ctx);
}
Tensor Tensor::ones(const Shape &shape, DType dtype, TensorContext &ctx) {
  return full(shape, 1, dtype, ctx);
}

Tensor Tensor::arange(int64_t n, TensorContext &ctx) {
  if (n <= 0)
    return err("arange: n must be positive, got " + std::to_string(n));
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  Tensor t = fromInts(v, {n}, ctx);
  // Data that depends on n alone: a TinyJit may replay it as captured.
  if (t.ok())
    ctx.impl().constantBuffers.insert(detail::bufferIdOf(t));
  return t;
}

} // namespace uop
