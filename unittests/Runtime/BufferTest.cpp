//===- BufferTest.cpp - Tests of dtypes, f16 and HostBuffer ---------------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "Uop/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

using namespace uop::rt;

namespace {

const DType kAllTypes[] = {DType::Bool, DType::I32, DType::F16, DType::F32};

TEST(DTypeTest, NamesAndSizes) {
  EXPECT_STREQ(dtypeName(DType::Bool), "bool");
  EXPECT_STREQ(dtypeName(DType::I32), "i32");
  EXPECT_STREQ(dtypeName(DType::F16), "f16");
  EXPECT_STREQ(dtypeName(DType::F32), "f32");
  EXPECT_EQ(dtypeSize(DType::Bool), 1u);
  EXPECT_EQ(dtypeSize(DType::I32), 4u);
  EXPECT_EQ(dtypeSize(DType::F16), 2u);
  EXPECT_EQ(dtypeSize(DType::F32), 4u);
  for (DType d : kAllTypes)
    EXPECT_EQ(dtypeFromName(dtypeName(d)), d);
  EXPECT_FALSE(dtypeFromName("void"));
  EXPECT_FALSE(dtypeFromName("float32"));
  EXPECT_FALSE(dtypeFromName(""));
}

TEST(HalfTest, EveryHalfRoundTrips) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = halfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      EXPECT_TRUE((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) << h;
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(f))));
      continue;
    }
    EXPECT_EQ(floatToHalf(f), h) << "half bits " << h;
  }
}

TEST(HalfTest, KnownValues) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff); // rounds down
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // rounds to inf
  EXPECT_EQ(floatToHalf(INFINITY), 0x7c00);
  EXPECT_EQ(floatToHalf(-INFINITY), 0xfc00);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000); // tie to even: 0
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00); // tie: even
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_FLOAT_EQ(halfToFloat(0x3555), 0.333251953125f);
}

#if defined(__FLT16_MAX__)
// The compiler's own _Float16 conversion is the reference.
TEST(HalfTest, MatchesCompilerConversion) {
  uint32_t state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 1664525u + 1013904223u;
    uint32_t bits = state;
    if (i % 2) // concentrate on the half range
      bits = (bits & 0x807fffffu) | ((100u + (bits >> 24) % 50u) << 23);
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f))
      continue;
    _Float16 h = static_cast<_Float16>(f);
    uint16_t expect;
    std::memcpy(&expect, &h, 2);
    ASSERT_EQ(floatToHalf(f), expect) << "float bits " << bits;
  }
}
#endif

TEST(HostBufferTest, ShapeAndZeroFill) {
  HostBuffer b(DType::F32, {2, 3, 4});
  EXPECT_EQ(b.dtype(), DType::F32);
  EXPECT_EQ(b.shape(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(b.rank(), 3);
  EXPECT_EQ(b.numel(), 24);
  EXPECT_EQ(b.bytes(), 96u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 64, 0u);
  for (int i = 0; i < 24; ++i)
    EXPECT_EQ(b.as<float>()[i], 0.0f);

  HostBuffer scalar(DType::I32, {});
  EXPECT_EQ(scalar.numel(), 1);
  EXPECT_EQ(scalar.bytes(), 4u);
  HostBuffer empty(DType::F16, {0});
  EXPECT_EQ(empty.numel(), 0);
  EXPECT_EQ(empty.bytes(), 0u);
  EXPECT_NE(empty.data(), nullptr);
  HostBuffer none;
  EXPECT_EQ(none.numel(), 0);
  EXPECT_EQ(none.data(), nullptr);
  EXPECT_EQ(none.format(), "[]");
}

// A freed large block serves the next buffer of its size (no fresh pages to
// fault in), zero-filled again; a copy and a buffer of another size or
// dtype get blocks of their own, and moving keeps the block with its buffer.
TEST(HostBufferTest, LargeBlocksAreReusedZeroed) {
  const void *first;
  {
    HostBuffer a(DType::F32, {300, 1000}); // 1.2 MB
    first = a.data();
    std::fill_n(a.as<float>(), a.numel(), 7.0f);
  }
  HostBuffer b(DType::F32, {1000, 300});
  EXPECT_EQ(b.data(), first);
  EXPECT_TRUE(
      std::all_of(b.as<float>(), b.as<float>() + b.numel(), [](float v) { return v == 0; }));
  HostBuffer c(b);
  EXPECT_NE(c.data(), b.data());
  EXPECT_TRUE(
      std::all_of(c.as<float>(), c.as<float>() + c.numel(), [](float v) { return v == 0; }));
  HostBuffer d(DType::F32, {300, 1001});
  EXPECT_NE(d.data(), first);
  HostBuffer moved(std::move(b));
  EXPECT_EQ(moved.data(), first);
  b = std::move(moved);
  EXPECT_EQ(b.data(), first);
  // Small buffers go straight back to malloc; any reuse is malloc's.
  HostBuffer small(DType::I32, {16});
  EXPECT_EQ(small.as<int32_t>()[15], 0);
}

TEST(HostBufferTest, CreateRejectsBadShapes) {
  EXPECT_FALSE(HostBuffer::create(DType::F32, {-1}).ok());
  EXPECT_FALSE(HostBuffer::create(DType::F32, {1ll << 40, 1ll << 40}).ok());
  EXPECT_FALSE(HostBuffer::create(DType::F32, {1ll << 62}).ok());
  Result<HostBuffer> r = HostBuffer::create(DType::F32, {1ll << 62});
  EXPECT_NE(r.error().find("(4611686018427387904,)"), std::string::npos) << r.error();
  EXPECT_TRUE(HostBuffer::create(DType::Bool, {0, 1ll << 62}).ok());
  // Like numpy: zeros do not excuse an overflowing product, in any order.
  EXPECT_FALSE(HostBuffer::create(DType::F32, {0, 1ll << 40, 1ll << 40}).ok());
  EXPECT_FALSE(HostBuffer::create(DType::F32, {1ll << 40, 1ll << 40, 0}).ok());
  EXPECT_EQ(HostBuffer::create(DType::F32, {1ll << 40, 0})->numel(), 0);
}

TEST(HostBufferTest, CreateErrorsSayWhatAndHowMuch) {
  // 10^14 f32: 4 * 10^14 bytes, representable but far over any machine.
  Result<HostBuffer> r = HostBuffer::create(DType::F32, {100000000000000});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rfind("cannot allocate 400000000000000 bytes for an f32 "
                            "buffer of shape (100000000000000,): more than "
                            "the limit of ",
                            0),
            0u)
      << r.error();
  // An overflowing product still gives the byte count (in 128 bits).
  r = HostBuffer::create(DType::F32, {1ll << 40, 1ll << 40});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "cannot allocate 4835703278458516698824704 bytes for "
                       "an f32 buffer of shape (1099511627776, 1099511627776):"
                       " the size overflows 64 bits");
  r = HostBuffer::create(DType::I32, {1ll << 62, 1ll << 62, 1ll << 62});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("more than 2^128 bytes"), std::string::npos) << r.error();
  r = HostBuffer::create(DType::Bool, {2, -3});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "invalid shape (2, -3) for a bool buffer: dimension 1 is negative");
  r = HostBuffer::create(DType::F16, {0, 1ll << 40, 1ll << 40});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("non-zero dimensions overflows"), std::string::npos) << r.error();
  // Just under 2^63 bytes: fits in int64, fails in the limit (or the
  // allocator), never as std::bad_alloc or an abort.
  r = HostBuffer::create(DType::Bool, {(1ll << 62) + (1ll << 61)});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rfind("cannot allocate 6917529027641081856 bytes", 0), 0u) << r.error();
}

TEST(HostBufferTest, AllocationLimitFromEnvironment) {
  {
    test::ScopedEnv env("UOP_MAX_ALLOC_BYTES", "1000");
    Result<uint64_t> limit = maxAllocBytes();
    ASSERT_TRUE(limit.ok()) << limit.error();
    EXPECT_EQ(*limit, 1000u);
    EXPECT_TRUE(HostBuffer::create(DType::F32, {250}).ok());
    Result<HostBuffer> r = HostBuffer::create(DType::F32, {251});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), "cannot allocate 1004 bytes for an f32 buffer of "
                         "shape (251,): more than the limit of 1000 bytes "
                         "($UOP_MAX_ALLOC_BYTES)");
    // Copies of an existing buffer are not limited (the shape was checked).
    HostBuffer small(DType::F32, {250});
    HostBuffer copy = small;
    EXPECT_EQ(copy.numel(), 250);
  }
  {
    test::ScopedEnv env("UOP_MAX_ALLOC_BYTES", "2K");
    EXPECT_EQ(*maxAllocBytes(), 2048u);
  }
  {
    test::ScopedEnv env("UOP_MAX_ALLOC_BYTES", "lots");
    EXPECT_FALSE(maxAllocBytes().ok());
    Result<HostBuffer> r = HostBuffer::create(DType::F32, {4});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("invalid UOP_MAX_ALLOC_BYTES 'lots'"), std::string::npos) << r.error();
  }
  {
    test::ScopedEnv env("UOP_MAX_ALLOC_BYTES", nullptr);
    Result<uint64_t> limit = maxAllocBytes();
    ASSERT_TRUE(limit.ok());
    EXPECT_GT(*limit, uint64_t(1) << 26); // the physical memory
    Result<HostBuffer> r = HostBuffer::create(DType::F32, {100000000000000});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("(the physical memory; set UOP_MAX_ALLOC_BYTES "
                             "to change it)"),
              std::string::npos)
        << r.error();
  }
}

TEST(HostBufferTest, FormatOfAVeryHighRank) {
  HostBuffer b(DType::F32, std::vector<int64_t>(300000, 1));
  std::string s = b.format();
  EXPECT_EQ(s.rfind("[<f32 of shape (1, 1, ", 0), 0u);
  EXPECT_EQ(s.substr(s.size() - 27), ": more than 64 dimensions>]");
  EXPECT_EQ(HostBuffer(DType::I32, std::vector<int64_t>(64, 1)).format(),
            std::string(64, '[') + "0" + std::string(64, ']'));
}

TEST(HostBufferTest, ParseByteSize) {
  EXPECT_EQ(parseByteSize("0"), 0u);
  EXPECT_EQ(parseByteSize("123"), 123u);
  EXPECT_EQ(parseByteSize("1k"), 1024u);
  EXPECT_EQ(parseByteSize("512M"), 512u << 20);
  EXPECT_EQ(parseByteSize("64G"), uint64_t(64) << 30);
  EXPECT_EQ(parseByteSize("1TiB"), uint64_t(1) << 40);
  EXPECT_EQ(parseByteSize("3GB"), uint64_t(3) << 30);
  EXPECT_EQ(parseByteSize("15E"), uint64_t(15) << 60);
  EXPECT_EQ(parseByteSize("18446744073709551615"), ~uint64_t(0));
  for (const char *bad :
       {"", "G", "-1", "1 G", "1X", "1GiBs", "16E", "18446744073709551616", "1.5G"})
    EXPECT_FALSE(parseByteSize(bad)) << bad;
}

// The plain constructor's precondition: a violation is a clean, reported
// abort, not undefined behavior.
TEST(HostBufferDeathTest, ConstructorAbortsWithTheMessage) {
  EXPECT_DEATH(HostBuffer(DType::F32, {-1}),
               "HostBuffer: invalid shape \\(-1,\\) for an f32 buffer");
  EXPECT_DEATH(HostBuffer(DType::F32, {1ll << 40, 1ll << 40}),
               "cannot allocate 4835703278458516698824704 bytes");
}

TEST(HostBufferTest, CopiesAreDeep) {
  HostBuffer a(DType::I32, {4});
  a.fillRandom(1);
  HostBuffer b = a;
  EXPECT_NE(a.data(), b.data());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.bytes()), 0);
  b.as<int32_t>()[0] = 100;
  EXPECT_NE(a.as<int32_t>()[0], 100);
  HostBuffer c;
  c = a;
  EXPECT_EQ(c.shape(), a.shape());
  EXPECT_EQ(std::memcmp(a.data(), c.data(), a.bytes()), 0);
  HostBuffer d = std::move(c);
  EXPECT_EQ(d.numel(), 4);
  // A moved-from buffer is empty, not a dangling view.
  EXPECT_EQ(c.numel(), 0);
  EXPECT_EQ(c.bytes(), 0u);
  EXPECT_EQ(c.data(), nullptr);
  EXPECT_EQ(c.shape(), (std::vector<int64_t>{0}));
  c = std::move(d);
  EXPECT_EQ(c.numel(), 4);
  EXPECT_EQ(d.numel(), 0);
}

TEST(HostBufferTest, FillRandomIsDeterministicAndInRange) {
  for (DType d : kAllTypes) {
    HostBuffer a(d, {1000}), b(d, {1000}), c(d, {1000});
    a.fillRandom(7);
    b.fillRandom(7);
    c.fillRandom(8);
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.bytes()), 0) << dtypeName(d);
    EXPECT_NE(std::memcmp(a.data(), c.data(), a.bytes()), 0) << dtypeName(d);
    std::set<double> seen;
    for (int64_t i = 0; i < a.numel(); ++i) {
      double v = a.getDouble(i);
      seen.insert(v);
      switch (d) {
      case DType::Bool:
        EXPECT_TRUE(a.as<uint8_t>()[i] == 0 || a.as<uint8_t>()[i] == 1);
        break;
      case DType::I32:
        EXPECT_TRUE(v >= -8 && v < 8) << v;
        break;
      case DType::F16:
      case DType::F32:
        EXPECT_TRUE(v >= -1 && v < 1) << v;
        break;
      }
    }
    // Both ends of the range are actually used.
    EXPECT_GE(seen.size(), d == DType::Bool ? 2u : 16u) << dtypeName(d);
    if (d == DType::I32) {
      EXPECT_TRUE(seen.count(-8) && seen.count(7));
    }
  }
  // Known values, so a change of generator is noticed.
  HostBuffer i(DType::I32, {4});
  i.fillRandom(0);
  EXPECT_EQ(i.format(), "[6, -2, -8, 7]");
}

TEST(HostBufferTest, SetAndGetDouble) {
  HostBuffer f(DType::F16, {3});
  f.setDouble(0, 0.1);
  f.setDouble(1, 1e6);
  f.setDouble(2, -3.0);
  EXPECT_EQ(f.as<uint16_t>()[0], floatToHalf(0.1f));
  EXPECT_TRUE(std::isinf(f.getDouble(1)));
  EXPECT_EQ(f.getDouble(2), -3.0);
  HostBuffer i(DType::I32, {3});
  i.setDouble(0, 1e12);
  i.setDouble(1, NAN);
  i.setDouble(2, -7.9);
  EXPECT_EQ(i.as<int32_t>()[0], 2147483647);
  EXPECT_EQ(i.as<int32_t>()[1], 0);
  EXPECT_EQ(i.as<int32_t>()[2], -7);
}

HostBuffer makeF32(std::vector<int64_t> shape, std::vector<float> values) {
  HostBuffer b(DType::F32, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i)
    b.as<float>()[i] = values[i];
  return b;
}

TEST(HostBufferTest, Format) {
  EXPECT_EQ(makeF32({2, 2}, {1, 2, 3, 4}).format(), "[[1.0, 2.0], [3.0, 4.0]]");
  EXPECT_EQ(makeF32({}, {1.5f}).format(), "1.5");
  EXPECT_EQ(makeF32({0}, {}).format(), "[]");
  EXPECT_EQ(makeF32({2, 0}, {}).format(), "[[], []]");
  EXPECT_EQ(makeF32({1, 1, 1}, {-0.0f}).format(), "[[[-0.0]]]");
  EXPECT_EQ(makeF32({4}, {0.1f, 1e-5f, 1e16f, 123456.0f}).format(),
            "[0.1, 1e-05, 1e+16, 123456.0]");
  EXPECT_EQ(makeF32({3}, {NAN, INFINITY, -INFINITY}).format(), "[nan, inf, -inf]");
  EXPECT_EQ(makeF32({3}, {0.0001f, 1.0f / 3, 3.4028235e38f}).format(),
            "[0.0001, 0.33333334, 3.4028235e+38]");

  HostBuffer h(DType::F16, {3});
  h.setDouble(0, 0.1);
  h.setDouble(1, 65504);
  h.setDouble(2, 1.0 / 3);
  EXPECT_EQ(h.format(), "[0.1, 65500.0, 0.3333]");

  HostBuffer b(DType::Bool, {2});
  b.as<uint8_t>()[0] = 1;
  EXPECT_EQ(b.format(), "[True, False]");
  HostBuffer i(DType::I32, {2});
  i.as<int32_t>()[0] = -1;
  i.as<int32_t>()[1] = 2147483647;
  EXPECT_EQ(i.format(), "[-1, 2147483647]");
}

TEST(HostBufferTest, FormatSummarizes) {
  HostBuffer b(DType::I32, {2000});
  for (int i = 0; i < 2000; ++i)
    b.as<int32_t>()[i] = i;
  EXPECT_EQ(b.format(), "[0, 1, 2, ..., 1997, 1998, 1999]");
  EXPECT_EQ(b.format(5000).size(), b.format(5000).size());
  EXPECT_NE(b.format(5000).find("1000, 1001"), std::string::npos);
  // Empty arrays with huge dimensions neither overflow nor print forever.
  EXPECT_EQ(HostBuffer(DType::F32, {3, 0}).format(), "[[], [], []]");
  EXPECT_EQ(HostBuffer(DType::F32, {1ll << 40, 0}).format(), "[[], [], [], ..., [], [], []]");
  EXPECT_EQ(HostBuffer(DType::F32, {0, 1ll << 40, 1ll << 20}).format(), "[]");
  EXPECT_LT(HostBuffer(DType::F32, {2, 1ll << 28, 1ll << 28, 0}).format().size(), 1000u);
  HostBuffer m(DType::I32, {8, 8});
  for (int i = 0; i < 64; ++i)
    m.as<int32_t>()[i] = i;
  EXPECT_EQ(m.format(10), "[[0, 1, 2, ..., 5, 6, 7], [8, 9, 10, ..., 13, 14, "
                          "15], [16, 17, 18, ..., 21, 22, 23], ..., [40, 41, "
                          "42, ..., 45, 46, 47], [48, 49, 50, ..., 53, 54, "
                          "55], [56, 57, 58, ..., 61, 62, 63]]");
}

TEST(HostBufferTest, Describe) {
  EXPECT_EQ(HostBuffer(DType::F32, {2, 3}).describe(), "f32 of shape (2, 3)");
  EXPECT_EQ(HostBuffer(DType::I32, {3}).describe(), "i32 of shape (3,)");
  EXPECT_EQ(HostBuffer(DType::Bool, {}).describe(), "bool of shape ()");
}

// Floats print as numpy prints its float32/float16 scalars.
TEST(HostBufferTest, FormatMatchesNumpy) {
  if (!test::haveNumpy())
    GTEST_SKIP() << "no /usr/bin/python3 with numpy";
  test::TempDir tmp;
  for (DType d : {DType::F32, DType::F16}) {
    HostBuffer b(d, {400});
    uint32_t state = 99;
    for (int64_t i = 0; i < b.numel(); ++i) {
      state = state * 1664525u + 1013904223u;
      uint32_t bits = state;
      if (d == DType::F16) {
        b.as<uint16_t>()[i] = static_cast<uint16_t>(bits >> 16);
        continue;
      }
      float f;
      std::memcpy(&f, &bits, 4);
      b.as<float>()[i] = f;
    }
    ASSERT_TRUE(writeNpy(tmp.file("x.npy"), b).ok());
    ASSERT_EQ(test::runPython(tmp,
                              "import sys, numpy as np\n"
                              "a = np.load(sys.argv[1])\n"
                              "print('[' + ', '.join(str(x) for x in a) + ']', end='')\n",
                              tmp.file("x.npy"), tmp.file("out.txt")),
              0);
    EXPECT_EQ(b.format(), test::readFile(tmp.file("out.txt"))) << dtypeName(d);
  }
}

} // namespace
