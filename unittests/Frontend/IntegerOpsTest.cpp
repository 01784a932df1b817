//===- IntegerOpsTest.cpp - integer ops on i32 and bool, promotion -*- C++ -*-===//
//
// The integer ops on i32 and bool as PyTorch's on int32 and bool (the
// references computed here in C++ with int64 and two's complement
// wrapping), tinygrad's promotion of dtypes and host scalars, and the
// dtypes of reductions and scans.
//
//===----------------------------------------------------------------------===//

#include "OpsTestUtil.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>

using namespace uop;

namespace {

class IntegerOpsTest : public test::OpsTest {};

#define EXPECT_INTS(t, ...) EXPECT_EQ(ints(t), (std::vector<int64_t>{__VA_ARGS__}))

const int32_t kMin = std::numeric_limits<int32_t>::min();
const int32_t kMax = std::numeric_limits<int32_t>::max();

/// Wraps to i32 (two's complement).
int64_t wrap(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

TEST_F(IntegerOpsTest, BitwiseOpsOnI32) {
  std::vector<int32_t> a = {0, 1, -1, 5, -7, 255, kMax, kMin, 123456789, -987654321, 2, -2};
  std::vector<int32_t> b = {0, -1, -1, 3, 12, -256, kMin, kMax, -123456789, 55555, kMin, 7};
  Tensor ta = Tensor::fromInts(a, {12}, ctx), tb = Tensor::fromInts(b, {12}, ctx);
  std::vector<int64_t> wantAnd, wantOr, wantXor, wantNot;
  for (size_t i = 0; i < a.size(); ++i) {
    wantAnd.push_back(a[i] & b[i]);
    wantOr.push_back(a[i] | b[i]);
    wantXor.push_back(a[i] ^ b[i]);
    wantNot.push_back(~a[i]);
  }
  EXPECT_EQ(ints(ta & tb), wantAnd);
  EXPECT_EQ(ints(ta | tb), wantOr);
  EXPECT_EQ(ints(ta ^ tb), wantXor);
  EXPECT_EQ(ints(~ta), wantNot);
  EXPECT_EQ((ta & tb).dtype(), DType::I32);
  // With scalars, both sides, broadcast.
  std::vector<int64_t> and6, or6, xorm1;
  for (int32_t v : a) {
    and6.push_back(v & 6);
    or6.push_back(v | 6);
    xorm1.push_back(v ^ -1);
  }
  EXPECT_EQ(ints(ta & 6), and6);
  EXPECT_EQ(ints(6 & ta), and6);
  EXPECT_EQ(ints(ta | 6), or6);
  EXPECT_EQ(ints(ta ^ -1), xorm1);
  EXPECT_EQ(ints(ta.reshape({12, 1}) & Tensor::fromInts({1, 2}, {2}, ctx)).size(), 24u);
  // Floats are an error.
  // An int scalar beyond i32 wraps as a C cast (tinygrad's test_int_or).
  EXPECT_INTS(Tensor::fromInts({0}, {1}, ctx) | 0xFFFFFFFFLL, -1);
  EXPECT_INTS(Tensor::fromInts({1}, {1}, ctx) + 4294967296LL, 1);
  EXPECT_EQ(errorOf(ta.toFloat() & tb),
            "bitwiseAnd: needs integer or bool tensors, got f32 and i32");
  EXPECT_EQ(errorOf(ta | 1.5), "bitwiseOr: needs an integer or bool operand, got 1.500000");
}

TEST_F(IntegerOpsTest, ShiftsOnI32) {
  std::vector<int32_t> a = {1, 3, 31, -1, -8, kMax, kMin, 123456};
  Tensor ta = Tensor::fromInts(a, {8}, ctx);
  for (int n : {0, 1, 2, 5, 30, 31}) {
    SCOPED_TRACE(n);
    std::vector<int64_t> l, r;
    for (int32_t v : a) {
      l.push_back(wrap(static_cast<int64_t>(static_cast<uint32_t>(v) << n)));
      r.push_back(v >> n); // arithmetic (C++20 guarantees it; every target does)
    }
    EXPECT_EQ(ints(ta << n), l);
    EXPECT_EQ(ints(ta >> n), r);
    // A tensor of shift amounts.
    Tensor tn = Tensor::fromInts(std::vector<int32_t>(8, n), {8}, ctx);
    EXPECT_EQ(ints(ta.lshift(tn)), l);
    EXPECT_EQ(ints(ta.rshift(tn)), r);
  }
  // Different amounts per element.
  Tensor amounts = Tensor::fromInts({0, 1, 2, 3, 4, 5, 6, 7}, {8}, ctx);
  std::vector<int64_t> l, r;
  for (size_t i = 0; i < a.size(); ++i) {
    l.push_back(wrap(static_cast<int64_t>(static_cast<uint32_t>(a[i]) << i)));
    r.push_back(a[i] >> i);
  }
  EXPECT_EQ(ints(ta << amounts), l);
  EXPECT_EQ(ints(ta >> amounts), r);
  EXPECT_EQ(errorOf(ta.toFloat() << 1), "lshift: needs an integer tensor, got f32");
}

TEST_F(IntegerOpsTest, BoolOps) {
  Tensor t = Tensor::fromBools({true, true, false, false}, {4}, ctx);
  Tensor u = Tensor::fromBools({true, false, true, false}, {4}, ctx);
  EXPECT_INTS(t & u, 1, 0, 0, 0);
  EXPECT_INTS(t | u, 1, 1, 1, 0);
  EXPECT_INTS(t ^ u, 0, 1, 1, 0);
  EXPECT_INTS(~t, 0, 0, 1, 1);
  EXPECT_INTS(-t, 0, 0, 1, 1); // tinygrad's neg of a bool is its not
  EXPECT_EQ((t & u).dtype(), DType::Bool);
  EXPECT_INTS(t.logicalAnd(u), 1, 0, 0, 0);
  EXPECT_INTS(t.logicalOr(u), 1, 1, 1, 0);
  EXPECT_INTS(t.logicalXor(u), 0, 1, 1, 0);
  EXPECT_INTS(t.maximum(u), 1, 1, 1, 0);
  EXPECT_INTS(t.minimum(u), 1, 0, 0, 0);
  EXPECT_INTS(t + u, 1, 1, 1, 0); // bool + bool is or (PyTorch's)
  EXPECT_EQ((t + u).dtype(), DType::Bool);
  EXPECT_INTS(t * u, 1, 0, 0, 0);
  // A bool with an int is an int (PyTorch's True + 1 == 2).
  EXPECT_EQ((t + 1).dtype(), DType::I32);
  EXPECT_INTS(t + 1, 2, 2, 1, 1);
  EXPECT_INTS(t * 5, 5, 5, 0, 0);
  EXPECT_EQ((t * 0.5).dtype(), DType::F32);
  EXPECT_INTS(t.sum(), 2);
  EXPECT_EQ(t.sum().dtype(), DType::I32);
  EXPECT_INTS(t.cumsum(0), 1, 2, 2, 2);
  EXPECT_INTS(t.prod(), 0);
  EXPECT_INTS(t.any(), 1);
  EXPECT_INTS(t.all(), 0);
  EXPECT_INTS(t.max(), 1);
  EXPECT_INTS(t.min(), 0);
  EXPECT_INTS(t.argmax(), 0);
  EXPECT_INTS(t.argmin(), 2);
  EXPECT_INTS(t.sort().first, 0, 0, 1, 1);
  EXPECT_INTS(t.sort().second, 2, 3, 0, 1);
  EXPECT_INTS(t.flip(0), 0, 0, 1, 1);
  EXPECT_INTS(Tensor::cat({t, u}), 1, 1, 0, 0, 1, 0, 1, 0);
  EXPECT_INTS(t.where(u, false), 1, 0, 0, 0);
  EXPECT_INTS(t.where(1, 0), 1, 1, 0, 0);
  EXPECT_EQ(t.where(1, 0).dtype(), DType::I32);
  EXPECT_EQ(t.where(true, false).dtype(), DType::Bool);
  EXPECT_EQ(t.where(1.0, 0).dtype(), DType::F32);
}

TEST_F(IntegerOpsTest, ArithmeticOnI32) {
  std::vector<int32_t> a = {-7, -1, 0, 3, 11, kMax, kMin, 46341};
  Tensor ta = Tensor::fromInts(a, {8}, ctx);
  std::vector<int64_t> neg, sq, add1, absv, sgn, cube;
  for (int32_t v : a) {
    neg.push_back(wrap(-static_cast<int64_t>(v)));
    sq.push_back(wrap(static_cast<int64_t>(v) * v));
    add1.push_back(wrap(static_cast<int64_t>(v) + 1));
    absv.push_back(wrap(v < 0 ? -static_cast<int64_t>(v) : v));
    sgn.push_back((v > 0) - (v < 0));
    cube.push_back(wrap(static_cast<int64_t>(static_cast<uint32_t>(v) * static_cast<uint32_t>(v) *
                                             static_cast<uint32_t>(v))));
  }
  EXPECT_EQ(ints(-ta), neg);       // -INT_MIN wraps to INT_MIN, as PyTorch's
  EXPECT_EQ(ints(ta * ta), sq);    // wraps
  EXPECT_EQ(ints(ta + 1), add1);   // INT_MAX + 1 wraps
  EXPECT_EQ(ints(ta.abs()), absv); // |INT_MIN| is INT_MIN
  EXPECT_EQ(ints(ta.sign()), sgn);
  EXPECT_EQ(ints(ta.pow(3)), cube);
  EXPECT_EQ(ints(ta.square()), sq);
  EXPECT_EQ(ta.pow(3).dtype(), DType::I32);
  EXPECT_EQ(ta.abs().dtype(), DType::I32);
  EXPECT_INTS(Tensor::fromInts({11, 12, 13}, {3}, ctx).pow(7), 19487171, 35831808, 62748517);
  EXPECT_INTS(Tensor::fromInts({-2, 0, 2}, {3}, ctx).pow(29), -536870912, 0, 536870912);
  EXPECT_INTS(Tensor::fromInts({-2, 0, 2}, {3}, ctx).pow(0), 1, 1, 1);
  EXPECT_EQ(errorOf(ta.pow(-2)),
            "pow: an integer tensor to a negative integer power (-2); make the base a float");
  // Integer exponent tensors: exact.
  Tensor base = Tensor::fromInts({1, 2, 3, -1, -2, -3, 0, 0, 0, 7}, {10}, ctx);
  Tensor ex = Tensor::fromInts({2, 3, 4, 3, 3, 2, 0, 1, 2, 11}, {10}, ctx);
  EXPECT_INTS(base.pow(ex), 1, 8, 81, -1, -8, 9, 1, 0, 0, 1977326743);
  EXPECT_INTS(Tensor::fromInts({1, -1, -1, 2}, {4}, ctx).pow(Tensor::fromInts({-2, -2, -3, -1}, {4}, ctx)),
              1, 1, -1, 0);
  // Float exponents of an int tensor are float.
  EXPECT_EQ(ta.pow(0.5).dtype(), DType::F32);
  EXPECT_EQ(Tensor::fromInts({1, 4}, {2}, ctx).pow(0.5).toVector()->at(1), 2.0f);
  // Comparisons and clips keep exact integers.
  EXPECT_INTS(ta < 0, 1, 1, 0, 0, 0, 0, 1, 0);
  EXPECT_INTS(ta >= kMax, 0, 0, 0, 0, 0, 1, 0, 0);
  EXPECT_INTS(ta == kMin, 0, 0, 0, 0, 0, 0, 1, 0);
  EXPECT_INTS(ta.clip(-5, 5), -5, -1, 0, 3, 5, 5, -5, 5);
  EXPECT_EQ(ta.clip(-5, 5).dtype(), DType::I32);
  EXPECT_INTS(ta.maximum(kMin), -7, -1, 0, 3, 11, kMax, kMin, 46341);
  EXPECT_INTS(ta.max(), kMax);
  EXPECT_INTS(ta.min(), kMin);
  EXPECT_INTS(ta.argmax(), 5);
  EXPECT_INTS(ta.argmin(), 6);
  EXPECT_INTS(ta.sort().first, kMin, -7, -1, 0, 3, 11, 46341, kMax);
  EXPECT_INTS(ta.cummax(0).first, -7, -1, 0, 3, 11, kMax, kMax, kMax);
  EXPECT_INTS(ta.cummin(0).first, -7, -7, -7, -7, -7, -7, kMin, kMin);
}

TEST_F(IntegerOpsTest, PromotionOfTensorsAndScalars) {
  Tensor b = Tensor::fromBools({true}, {1}, ctx), i = Tensor::fromInts({3}, {1}, ctx);
  Tensor h = Tensor::full({1}, 1.5, DType::F16, ctx), f = Tensor::fromVector({2.5f}, {1}, ctx);
  struct Row {
    Tensor a, b;
    DType want;
  };
  std::vector<Row> rows = {{b, b, DType::Bool}, {b, i, DType::I32},  {i, b, DType::I32},
                           {b, h, DType::F16},  {i, h, DType::F16},  {i, f, DType::F32},
                           {h, f, DType::F32},  {f, b, DType::F32},  {i, i, DType::I32}};
  for (const Row &r : rows) {
    SCOPED_TRACE(r.a.str() + " " + r.b.str());
    EXPECT_EQ((r.a + r.b).dtype(), r.want);
    EXPECT_EQ((r.a * r.b).dtype(), r.want);
    EXPECT_EQ(r.a.maximum(r.b).dtype(), r.want);
    EXPECT_EQ((r.a < r.b).dtype(), DType::Bool);
    EXPECT_EQ(r.a.where(r.b, r.b).ok(), r.a.dtype() == DType::Bool);
  }
  EXPECT_EQ(values(i + f), std::vector<float>{5.5f});
  EXPECT_EQ(values(i + h), std::vector<float>{4.5f});
  // Host scalars are weak: they take the tensor's dtype unless a float
  // meets an integer (f32) or an int a bool (i32).
  EXPECT_EQ((h * 2.5).dtype(), DType::F16);
  EXPECT_EQ((i * 2).dtype(), DType::I32);
  EXPECT_EQ((i * 2.5).dtype(), DType::F32);
  EXPECT_EQ((i / 2).dtype(), DType::F32); // true division
  EXPECT_EQ(values(i / 2), std::vector<float>{1.5f});
  EXPECT_EQ((i / i).dtype(), DType::F32);
  EXPECT_EQ(i.mean().dtype(), DType::F32);
  EXPECT_EQ(i.exp().dtype(), DType::F32);
  EXPECT_EQ(b.sum().dtype(), DType::I32);
  EXPECT_EQ(h.sum().dtype(), DType::F16);
  EXPECT_EQ(i.cumsum(0).dtype(), DType::I32);
  EXPECT_EQ(i.cast(DType::Bool).dtype(), DType::Bool);
  // cast semantics: to bool is x != 0; float to int truncates.
  EXPECT_INTS(Tensor::fromVector({0.0f, 0.5f, -2.0f, NAN}, ctx).toBool(), 0, 1, 1, 1);
  EXPECT_INTS(Tensor::fromVector({-1.7f, 1.7f, 2.5f}, ctx).toInt(), -1, 1, 2);
  EXPECT_INTS(Tensor::fromInts({0, 2, -3}, {3}, ctx).toBool(), 0, 1, 1);
}

} // namespace
