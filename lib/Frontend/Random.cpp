//===- Random.cpp - random numbers -------------------------------*- C++ -*-===//
//
// The context's Generator (xoshiro256** seeded through splitmix64; see
// Tensor.h) and the creation functions that draw from it: randn, uniform,
// kaiming. Their values are data (a buffer filled on the host), as the
// seed's numpy draws.
//
//===----------------------------------------------------------------------===//

#include "TensorImpl.h"

#include <cmath>
#include <functional>

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// Generator
//===----------------------------------------------------------------------===//

static uint64_t splitmix64(uint64_t &x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void Generator::reseed(uint64_t seed) {
  uint64_t x = seed;
  for (uint64_t &w : s)
    w = splitmix64(x);
  spare.reset();
}

uint64_t Generator::nextU64() {
  auto rotl = [](uint64_t v, int k) { return (v << k) | (v >> (64 - k)); };
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double Generator::nextDouble() { return (nextU64() >> 11) * 0x1.0p-53; }

double Generator::nextNormal() {
  if (spare) {
    double v = *spare;
    spare.reset();
    return v;
  }
  double u1 = 1.0 - nextDouble(); // (0, 1]
  double u2 = nextDouble();
  double r = std::sqrt(-2.0 * std::log(u1));
  spare = r * std::sin(2 * M_PI * u2);
  return r * std::cos(2 * M_PI * u2);
}

//===----------------------------------------------------------------------===//
// The context's generator
//===----------------------------------------------------------------------===//

Generator &TensorContext::generator() { return p->gen; }
void TensorContext::manualSeed(uint64_t seed) { p->gen.reseed(seed); }

//===----------------------------------------------------------------------===//
// Random tensors
//===----------------------------------------------------------------------===//

static Tensor randomTensor(const Shape &shape, TensorContext &ctx, const char *what,
                           const std::function<double()> &draw) {
  for (int64_t d : shape)
    if (d < 0)
      return err(std::string(what) + ": negative dimension in shape " + shapeStr(shape));
  auto buf = rt::HostBuffer::create(DType::F32, shape);
  if (!buf.ok())
    return err(buf.error());
  auto data = std::make_shared<rt::HostBuffer>(buf.take());
  for (int64_t i = 0; i < data->numel(); ++i)
    data->as<float>()[i] = static_cast<float>(draw());
  return dataTensor(ctx, std::move(data), shape);
}

Tensor Tensor::randn(const Shape &shape, TensorContext &ctx) {
  return randomTensor(shape, ctx, "randn", [&] { return ctx.generator().nextNormal(); });
}
Tensor Tensor::uniform(const Shape &shape, double low, double high, TensorContext &ctx) {
  return randomTensor(shape, ctx, "uniform",
                      [&] { return low + (high - low) * ctx.generator().nextDouble(); });
}
Tensor Tensor::rand(const Shape &shape, TensorContext &ctx) {
  return randomTensor(shape, ctx, "rand", [&] { return ctx.generator().nextDouble(); });
}
Tensor Tensor::randint(const Shape &shape, int64_t low, int64_t high, TensorContext &ctx) {
  if (low >= high)
    return err("randint: low " + std::to_string(low) + " must be below high " +
               std::to_string(high));
  // Uniform integers: floor of a uniform double in [low, high).
  Tensor t = randomTensor(shape, ctx, "randint", [&] {
    double v = std::floor(low + (high - low) * ctx.generator().nextDouble());
    return std::min<double>(v, static_cast<double>(high - 1));
  });
  return t.cast(DType::I32);
}
Tensor Tensor::randLike() const {
  if (!ok())
    return *this;
  return rand(shape(), *context());
}
Tensor Tensor::randnLike() const {
  if (!ok())
    return *this;
  return randn(shape(), *context());
}
Tensor Tensor::kaiming(const Shape &shape, TensorContext &ctx) {
  if (shape.empty())
    return err("kaiming: needs at least one dimension");
  int64_t fan = shape.size() > 1 ? detail::prod(ArrayRef<int64_t>(shape).drop_front()) : shape[0];
  double bound = 1 / std::sqrt(static_cast<double>(fan));
  return uniform(shape, -bound, bound, ctx).setRequiresGrad();
}

} // namespace uop
