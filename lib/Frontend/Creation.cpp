//===- Creation.cpp - creating tensors ---------------------------*- C++ -*-===//
//
// Data tensors (a `uop.buffer` node owning host data: fromBuffer,
// fromVector, load, and every realized value), constants (full, zeros,
// ones, the *Like functions, eye), ranges (arange, linspace) and meshgrid.
// A tensor with no elements has no buffer: it is a constant of its shape.
// The random creation functions are in Random.cpp.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include "Uop/Runtime/Npy.h"

#include <cmath>
#include <limits>
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
  if (data->numel() == 0) // nothing to hold: a constant of its shape
    return Tensor::full(shape, 0, data->dtype(), ctx);
  return dataTensor(ctx, hostStorage(std::move(data)), shape);
}

Tensor detail::dataTensor(TensorContext &ctx, std::shared_ptr<Storage> data, const Shape &shape) {
  auto &c = ctx.impl();
  if (prod(shape) != data->numel)
    return err("data of " + std::to_string(data->numel) + " elements does not fit shape " +
               shapeStr(shape));
  if (data->numel == 0) // nothing to hold: a constant of its shape
    return Tensor::full(shape, 0, data->dtype, ctx);
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

Tensor Tensor::empty(const Shape &shape, DType dtype, TensorContext &ctx) {
  return full(shape, 0, dtype, ctx);
}

Tensor detail::constantInts(TensorContext &ctx, const std::vector<int32_t> &values,
                            const Shape &shape) {
  Tensor t = Tensor::fromInts(values, shape, ctx);
  // Data that depends on the values alone: a TinyJit may replay it as
  // captured.
  if (t.ok() && t.numel() > 0)
    ctx.impl().constantBuffers.insert(detail::bufferIdOf(t));
  return t;
}

Tensor Tensor::arange(int64_t n, TensorContext &ctx) {
  if (n < 0)
    return err("arange: n must not be negative, got " + std::to_string(n));
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  return constantInts(ctx, v, {n});
}

Tensor Tensor::arange(Scalar start, Scalar stop, Scalar step, std::optional<DType> dtype,
                      TensorContext &ctx) {
  if (step.value == 0)
    return err("arange: the step must not be zero");
  if (!std::isfinite(start.value) || !std::isfinite(stop.value) || !std::isfinite(step.value))
    return err("arange: start, stop and step must be finite");
  bool floats = start.isFloat() || stop.isFloat() || step.isFloat();
  DType d = dtype.value_or(floats ? DType::F32 : DType::I32);
  // ceil((stop - start) / step) values start + i * step, computed in double
  // (numpy's and PyTorch's values; an empty range when it goes the wrong
  // way).
  double count = std::ceil((stop.value - start.value) / step.value);
  if (count > 1e9)
    return err("arange: " + std::to_string(count) + " values are too many");
  int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
  if (d == DType::I32 && !floats) {
    std::vector<int32_t> v(n);
    for (int64_t i = 0; i < n; ++i) {
      double x = start.value + static_cast<double>(i) * step.value;
      if (x < std::numeric_limits<int32_t>::min() || x > std::numeric_limits<int32_t>::max())
        return err("arange: value " + std::to_string(x) + " does not fit i32");
      v[i] = static_cast<int32_t>(x);
    }
    return constantInts(ctx, v, {n});
  }
  auto buf = rt::HostBuffer::create(d, {n});
  if (!buf.ok())
    return err(buf.error());
  auto data = std::make_shared<rt::HostBuffer>(buf.take());
  for (int64_t i = 0; i < n; ++i) {
    double x = start.value + static_cast<double>(i) * step.value;
    data->setDouble(i, d == DType::I32 ? std::trunc(x) : x);
  }
  Tensor t = dataTensor(ctx, std::move(data), {n});
  if (t.ok() && n > 0)
    ctx.impl().constantBuffers.insert(detail::bufferIdOf(t));
  return t;
}

Tensor Tensor::linspace(double start, double stop, int64_t steps, DType dtype, TensorContext &ctx) {
  if (steps < 0)
    return err("linspace: the number of steps must not be negative, got " +
               std::to_string(steps));
  if (dtype == DType::Bool)
    return err("linspace: a bool dtype is not supported");
  auto buf = rt::HostBuffer::create(dtype, {steps});
  if (!buf.ok())
    return err(buf.error());
  auto data = std::make_shared<rt::HostBuffer>(buf.take());
  // PyTorch's: from the start for the first half, from the stop for the
  // second, so that both ends are exact.
  double step = steps > 1 ? (stop - start) / static_cast<double>(steps - 1) : 0;
  for (int64_t i = 0; i < steps; ++i) {
    double x = i < steps / 2 ? start + step * static_cast<double>(i)
                             : stop - step * static_cast<double>(steps - 1 - i);
    if (steps == 1)
      x = start;
    data->setDouble(i, dtype == DType::I32 ? std::trunc(x) : x);
  }
  Tensor t = dataTensor(ctx, std::move(data), {steps});
  if (t.ok() && steps > 0)
    ctx.impl().constantBuffers.insert(detail::bufferIdOf(t));
  return t;
}

Tensor Tensor::eye(int64_t n, std::optional<int64_t> m, DType dtype, TensorContext &ctx) {
  int64_t cols = m.value_or(n);
  if (n < 0 || cols < 0)
    return err("eye: negative size " + std::to_string(n) + " x " + std::to_string(cols));
  if (n == 0 || cols == 0)
    return zeros({n, cols}, dtype, ctx);
  return arange(n, ctx).unsqueeze(-1).eq(arange(cols, ctx)).cast(dtype);
}

Tensor Tensor::fullLike(Scalar v, std::optional<DType> dtype) const {
  if (!ok())
    return *this;
  return full(shape(), v, dtype.value_or(this->dtype()), *context());
}
Tensor Tensor::zerosLike(std::optional<DType> dtype) const { return fullLike(0, dtype); }
Tensor Tensor::onesLike(std::optional<DType> dtype) const { return fullLike(1, dtype); }
Tensor Tensor::emptyLike(std::optional<DType> dtype) const { return fullLike(0, dtype); }

std::vector<Tensor> Tensor::meshgrid(ArrayRef<Tensor> tensors, const std::string &indexing) {
  if (tensors.empty())
    return {};
  if (indexing != "ij" && indexing != "xy")
    return {err("meshgrid: indexing must be \"ij\" or \"xy\", got \"" + indexing + "\"")};
  for (const Tensor &t : tensors) {
    if (auto e = firstError({&tensors[0], &t}))
      return {*e};
    if (t.ndim() > 1)
      return {err("meshgrid: needs 0-d or 1-D tensors, got " + t.str())};
  }
  size_t k = tensors.size();
  Shape out;
  for (const Tensor &t : tensors)
    out.push_back(t.numel());
  if (indexing == "xy" && k >= 2)
    std::swap(out[0], out[1]);
  std::vector<Tensor> grids;
  for (size_t i = 0; i < k; ++i) {
    size_t at = i;
    if (indexing == "xy" && k >= 2 && i < 2)
      at = 1 - i;
    Shape s(k, 1);
    s[at] = tensors[i].numel();
    grids.push_back(tensors[i].reshape(s).expand(out));
  }
  return grids;
}

} // namespace uop
