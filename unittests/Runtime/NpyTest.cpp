//===- NpyTest.cpp - Tests of .npy reading and writing --------------------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "Uop/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <chrono>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include <cstring>
#include <random>

using namespace uop::rt;
using uop::rt::test::TempDir;

namespace {

const DType kAllTypes[] = {DType::Bool, DType::I32, DType::F16, DType::F32};
const std::vector<std::vector<int64_t>> kShapes = {{}, {0}, {3}, {2, 3, 4}};

void expectSame(const HostBuffer &a, const HostBuffer &b) {
  EXPECT_EQ(a.dtype(), b.dtype());
  EXPECT_EQ(a.shape(), b.shape());
  ASSERT_EQ(a.bytes(), b.bytes());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.bytes()), 0);
}

TEST(NpyTest, RoundTripEveryDTypeAndShape) {
  TempDir tmp;
  for (DType d : kAllTypes) {
    for (const auto &shape : kShapes) {
      HostBuffer b(d, shape);
      b.fillRandom(42);
      std::string path = tmp.file("x.npy");
      Result<bool> w = writeNpy(path, b);
      ASSERT_TRUE(w.ok()) << w.error();
      Result<HostBuffer> r = readNpy(path);
      ASSERT_TRUE(r.ok()) << r.error();
      SCOPED_TRACE(b.describe());
      expectSame(b, r.value());
      // The in-memory encoding is the file, and reads back the same.
      std::string bytes = encodeNpy(b);
      EXPECT_EQ(bytes, test::readFile(path));
      EXPECT_EQ(bytes.size() % 64, b.bytes() % 64); // data is 64-aligned
      Result<HostBuffer> m = readNpyFromMemory(bytes.data(), bytes.size(), "m");
      ASSERT_TRUE(m.ok()) << m.error();
      expectSame(b, m.value());
    }
  }
}

TEST(NpyTest, WriteErrorsNameTheFile) {
  Result<bool> w = writeNpy("/nonexistent-dir/x.npy", HostBuffer(DType::F32, {1}));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "cannot write /nonexistent-dir/x.npy: No such file or directory");
  // Never over a device or a FIFO (issue 32).
  w = writeNpy("/dev/null", HostBuffer(DType::F32, {1}));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "cannot write /dev/null: it is a character device, not a regular file "
                       "(uop writes only regular files)");
}

TEST(NpyTest, ReadErrorsOnMissingFileAndDirectory) {
  TempDir tmp;
  Result<HostBuffer> r = readNpy(tmp.file("missing.npy"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("missing.npy: cannot open"), std::string::npos);
  r = readNpy(tmp.path());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("is a directory"), std::string::npos) << r.error();
}

// numpy loads what uop writes, with the same dtype, shape and values; uop
// reads what numpy writes back.
TEST(NpyTest, NumpyReadsWhatWeWrite) {
  if (!test::haveNumpy())
    GTEST_SKIP() << "no /usr/bin/python3 with numpy";
  TempDir tmp;
  // One Python run for all files: each manifest line is src;dst;descr;shape.
  const char *script = R"(
import sys, numpy as np
for line in open(sys.argv[1]).read().splitlines():
    src, dst, descr, shape = line.split(';')
    a = np.load(src)
    assert a.dtype.str == descr, (src, a.dtype.str, descr)
    assert a.shape == eval(shape), (src, a.shape, shape)
    assert a.flags.c_contiguous
    np.save(dst, a)
)";
  const char *descrs[] = {"|b1", "<i4", "<f2", "<f4"};
  std::vector<HostBuffer> written;
  std::string manifest;
  for (DType d : kAllTypes) {
    for (const auto &shape : kShapes) {
      HostBuffer b(d, shape);
      b.fillRandom(3);
      std::string n = std::to_string(written.size());
      ASSERT_TRUE(writeNpy(tmp.file("ours" + n + ".npy"), b).ok());
      manifest += tmp.file("ours" + n + ".npy") + ";" + tmp.file("theirs" + n + ".npy") + ";" +
                  descrs[static_cast<int>(d)] + ";" + shapeString(shape) + "\n";
      written.push_back(std::move(b));
    }
  }
  test::writeFile(tmp.file("manifest"), manifest);
  ASSERT_EQ(test::runPython(tmp, script, "'" + tmp.file("manifest") + "'"), 0);
  for (size_t i = 0; i < written.size(); ++i) {
    Result<HostBuffer> r = readNpy(tmp.file("theirs" + std::to_string(i) + ".npy"));
    ASSERT_TRUE(r.ok()) << r.error();
    SCOPED_TRACE(written[i].describe());
    expectSame(written[i], r.value());
  }
}

// Files written by numpy in every format version, including the rare ones.
TEST(NpyTest, ReadsNumpyFilesOfEveryVersion) {
  if (!test::haveNumpy())
    GTEST_SKIP() << "no /usr/bin/python3 with numpy";
  TempDir tmp;
  const char *script = R"(
import sys, numpy as np
out = sys.argv[1]
types = {'bool': np.bool_, 'i32': np.int32, 'f16': np.float16, 'f32': np.float32}
shapes = {'s': (), 'e': (0,), 'v': (3,), 't': (2, 3, 4)}
for tn, t in types.items():
    for sn, s in shapes.items():
        n = int(np.prod(s))
        a = (np.arange(n) % 2 == 1) if t is np.bool_ else (np.arange(n) - 5).astype(t) / (1 if t is np.int32 else 4)
        a = np.asarray(a, dtype=t).reshape(s)
        for v in [(1, 0), (2, 0), (3, 0)]:
            with open(f'{out}/{tn}-{sn}-{v[0]}.npy', 'wb') as f:
                np.lib.format.write_array(f, a, version=v)
)";
  ASSERT_EQ(test::runPython(tmp, script, "'" + tmp.path() + "'"), 0);
  struct {
    const char *name;
    std::vector<int64_t> shape;
  } shapes[] = {{"s", {}}, {"e", {0}}, {"v", {3}}, {"t", {2, 3, 4}}};
  for (DType d : kAllTypes) {
    for (const auto &s : shapes) {
      for (int v = 1; v <= 3; ++v) {
        std::string path =
            tmp.file(std::string(dtypeName(d)) + "-" + s.name + "-" + std::to_string(v) + ".npy");
        SCOPED_TRACE(path);
        Result<HostBuffer> r = readNpy(path);
        ASSERT_TRUE(r.ok()) << r.error();
        EXPECT_EQ(r->dtype(), d);
        EXPECT_EQ(r->shape(), s.shape);
        for (int64_t i = 0; i < r->numel(); ++i) {
          double expect = d == DType::Bool ? i % 2 : d == DType::I32 ? i - 5 : (i - 5) / 4.0;
          EXPECT_EQ(r->getDouble(i), expect) << i;
        }
      }
    }
  }
}

// numpy files that uop cannot read: each is a clear error.
TEST(NpyTest, RejectsUnsupportedNumpyFiles) {
  if (!test::haveNumpy())
    GTEST_SKIP() << "no /usr/bin/python3 with numpy";
  TempDir tmp;
  const char *script = R"(
import sys, numpy as np
d = sys.argv[1]
a = np.arange(6, dtype=np.float32).reshape(2, 3)
np.save(f'{d}/f8.npy', a.astype(np.float64))
np.save(f'{d}/be.npy', a.astype('>f4'))
np.save(f'{d}/fortran.npy', np.asfortranarray(a))
np.save(f'{d}/i64.npy', np.arange(3))
np.save(f'{d}/u1.npy', np.arange(3, dtype=np.uint8))
np.save(f'{d}/struct.npy', np.zeros(2, dtype=[('x', '<f4'), ('y', '<i4')]))
np.save(f'{d}/object.npy', np.array([1, 'a'], dtype=object), allow_pickle=True)
)";
  ASSERT_EQ(test::runPython(tmp, script, "'" + tmp.path() + "'"), 0);
  struct {
    const char *file;
    const char *error;
  } cases[] = {
      {"f8.npy", "f8.npy: unsupported dtype '<f8' (uop reads bool, i32, f16, "
                 "f32)"},
      {"be.npy", "be.npy: big-endian dtype '>f4' is not supported"},
      {"fortran.npy", "fortran.npy: fortran_order arrays are not supported"},
      {"i64.npy", "i64.npy: unsupported dtype '<i8'"},
      {"u1.npy", "u1.npy: unsupported dtype '|u1'"},
      {"struct.npy", "struct.npy: structured dtypes are not supported"},
      {"object.npy", "object.npy: unsupported dtype '|O'"},
  };
  for (const auto &c : cases) {
    Result<HostBuffer> r = readNpy(tmp.file(c.file));
    ASSERT_FALSE(r.ok()) << c.file;
    EXPECT_NE(r.error().find(c.error), std::string::npos)
        << "got: " << r.error() << "\nwant: " << c.error;
  }
}

/// A .npy image with the given header dict (padded as numpy pads it) and data.
std::string makeNpy(const std::string &dict, const std::string &data, int major = 1) {
  std::string header = dict;
  size_t pre = major == 1 ? 10 : 12;
  while ((pre + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < pre - 8; ++i)
    out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return out + header + data;
}

std::string dictFor(const std::string &descr, const std::string &shape,
                    const char *fortran = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
}

std::string readError(const std::string &bytes) {
  Result<HostBuffer> r = readNpyFromMemory(bytes.data(), bytes.size(), "x.npy");
  return r.ok() ? "<ok>" : r.error();
}

TEST(NpyTest, AcceptsHeaderVariants) {
  std::string data(24, '\0');
  // Python 2 longs, double quotes, other key order, no trailing comma, '='.
  for (const char *dict : {"{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }",
                           "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2, 3)}",
                           "{'shape': (2,3), 'fortran_order': False, 'descr': '=f4'}",
                           "{ 'descr' :'<f4' ,'fortran_order':False,'shape':( 2 , 3 , ) }"}) {
    Result<HostBuffer> r =
        readNpyFromMemory(makeNpy(dict, data).data(), makeNpy(dict, data).size(), "x.npy");
    ASSERT_TRUE(r.ok()) << dict << ": " << r.error();
    EXPECT_EQ(r->shape(), (std::vector<int64_t>{2, 3}));
  }
  // An empty array with a large dimension needs no data.
  std::string e = makeNpy(dictFor("<i4", "(1099511627776, 0)"), "");
  Result<HostBuffer> er = readNpyFromMemory(e.data(), e.size(), "e.npy");
  ASSERT_TRUE(er.ok()) << er.error();
  EXPECT_EQ(er->numel(), 0);
  EXPECT_EQ(er->format(), "[[], [], [], ..., [], [], []]");
  // Bool bytes other than 0/1 become 1; trailing bytes are ignored.
  std::string b = makeNpy(dictFor("|b1", "(3,)"), std::string("\x00\x02\xff!", 4));
  Result<HostBuffer> r = readNpyFromMemory(b.data(), b.size(), "b.npy");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->format(), "[False, True, True]");
}

TEST(NpyTest, MalformedInputsAreErrors) {
  std::string f4x16 = dictFor("<f4", "(16,)");
  struct {
    std::string bytes;
    std::string error;
  } cases[] = {
      {"", "x.npy: not a .npy file (empty)"},
      {"hello world, this is not numpy", "x.npy: not a .npy file (bad magic)"},
      {"PK\x03\x04", "x.npy: not a .npy file (bad magic)"},
      {"\x93NUM", "x.npy: truncated header"},
      {"\x93NUMPY\x01", "x.npy: truncated header"},
      {std::string("\x93NUMPY\x01\x00\x40", 9), "x.npy: truncated header"},
      {std::string("\x93NUMPY\x01\x00\x00\x01{'descr'", 17),
       "x.npy: truncated header: expected 256 header bytes, found 7"},
      {std::string("\x93NUMPY\x04\x00\x10\x00", 10), "x.npy: unsupported .npy format version 4.0"},
      {std::string("\x93NUMPY\x01\x01\x10\x00", 10), "x.npy: unsupported .npy format version 1.1"},
      {std::string("\x93NUMPY\x03\x00\xff\xff\xff\xff", 12),
       "x.npy: truncated header: expected 4294967295 header bytes, found 0"},
      {makeNpy(f4x16, std::string(12, 'x')), "x.npy: truncated data: expected 64 bytes, found 12"},
      {makeNpy(f4x16, std::string(12, 'x'), 2),
       "x.npy: truncated data: expected 64 bytes, found 12"},
      {makeNpy(dictFor(">f4", "(2,)"), std::string(8, '\0')),
       "x.npy: big-endian dtype '>f4' is not supported"},
      {makeNpy(dictFor(">i4", "(2,)"), std::string(8, '\0')),
       "x.npy: big-endian dtype '>i4' is not supported"},
      {makeNpy(dictFor("<f4", "(2, 2)", "True"), std::string(16, '\0')),
       "x.npy: fortran_order arrays are not supported"},
      {makeNpy(dictFor("<f8", "(2,)"), std::string(16, '\0')),
       "x.npy: unsupported dtype '<f8' (uop reads bool, i32, f16, f32)"},
      {makeNpy(dictFor("|u1", "(2,)"), std::string(2, '\0')), "x.npy: unsupported dtype '|u1'"},
      {makeNpy(dictFor("|f4", "(2,)"), std::string(8, '\0')), "x.npy: unsupported dtype '|f4'"},
      {makeNpy(dictFor("<f4", "('a', 3)"), ""),
       "x.npy: bad header: 'shape' must be a tuple of integers"},
      {makeNpy(dictFor("<f4", "[2, 3]"), ""),
       "x.npy: bad header: 'shape' must be a tuple of integers"},
      {makeNpy(dictFor("<f4", "(2.5,)"), ""),
       "x.npy: bad header: 'shape' must be a tuple of integers"},
      {makeNpy(dictFor("<f4", "(-1,)"), ""), "x.npy: bad header: 'shape' has a negative dimension"},
      {makeNpy(dictFor("<f4", "(99999999999999999999,)"), ""),
       "x.npy: bad header: 'shape' has a dimension too large"},
      {makeNpy(dictFor("<f4", "(4611686018427387904, 4611686018427387904)"), ""),
       "x.npy: shape (4611686018427387904, 4611686018427387904) is too large"},
      {makeNpy(dictFor("<f4", "(0, 4611686018427387904, 4)"), ""),
       "x.npy: shape (0, 4611686018427387904, 4) is too large"},
      {makeNpy(dictFor("<f4", "(9223372036854775807,)"), ""),
       "x.npy: shape (9223372036854775807,) is too large"},
      {makeNpy(dictFor("<f4", "(1099511627776,)"), "abc"),
       "x.npy: truncated data: expected 4398046511104 bytes, found 3"},
      {makeNpy("{'descr': '<f4', 'shape': (2,)}", ""),
       "x.npy: bad header: missing key 'fortran_order'"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), "
               "'extra': 1}",
               ""),
       "x.npy: bad header: unexpected key 'extra'"},
      {makeNpy("{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': "
               "(2,)}",
               ""),
       "x.npy: structured dtypes are not supported"},
      {makeNpy("{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}", ""), "x.npy: bad header:"},
      {makeNpy("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", ""),
       "x.npy: bad header: 'fortran_order' must be True or False"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x", ""),
       "x.npy: bad header: unexpected text after the dict"},
      {makeNpy("not a dict", ""), "x.npy: bad header: expected '{'"},
      {makeNpy(std::string("{'descr\0': '<f4'}", 17), ""), "x.npy: bad header:"},
  };
  for (const auto &c : cases) {
    std::string err = readError(c.bytes);
    EXPECT_EQ(err.rfind(c.error, 0), 0u) << "got:  " << err << "\nwant: " << c.error;
  }
}

// Found by tools/uop-npy-fuzz: header text quoted in an error (a key here)
// could carry a newline or control bytes into the one-line message.
TEST(NpyTest, ErrorsAreOneLineOfPrintableText) {
  static const char dict[] = "{'descr': '<f4', 'fortran_order\x9e\xe5\0\n\t\x10"
                             "': False, 'shape': (2,), }";
  std::string err = readError(makeNpy(std::string(dict, sizeof(dict) - 1), std::string(8, '\0')));
  // Non-printable bytes become '?', the newline is dropped.
  EXPECT_EQ(
      err.rfind("x.npy: bad header: unexpected key 'fortran_order" + std::string(5, '?') + "'", 0),
      0u)
      << err;
  for (char c : err)
    EXPECT_TRUE(c >= 0x20 && c < 0x7f) << static_cast<int>(c);
  err = readError(makeNpy("{'descr': '<f4', 'a\nb' 'fortran_order': False}", ""));
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
}

// numpy's NPY_MAXDIMS is 64; more would only make every loop over the
// dimensions (and HostBuffer::format's recursion) as deep as the header.
TEST(NpyTest, RankLimit) {
  auto ones = [](int n) {
    std::string t = "(";
    for (int i = 0; i < n; ++i)
      t += "1, ";
    return t + ")";
  };
  Result<HostBuffer> r =
      readNpyFromMemory(makeNpy(dictFor("<f4", ones(64)), std::string(4, '\0')).data(),
                        makeNpy(dictFor("<f4", ones(64)), std::string(4, '\0')).size(), "x.npy");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->rank(), 64);
  std::string err = readError(makeNpy(dictFor("<f4", ones(65)), std::string(4, '\0')));
  EXPECT_EQ(err.rfind("x.npy: bad header: 'shape' has more than 64 dimensions", 0), 0u) << err;
  err = readError(makeNpy(dictFor("<f4", ones(300000)), std::string(4, '\0'), 2));
  EXPECT_EQ(err.rfind("x.npy: bad header: 'shape' has more than 64 dimensions", 0), 0u);
  EXPECT_LT(err.size(), 400u);
}

// A complete file over the allocation limit is refused before allocating.
TEST(NpyTest, AllocationLimit) {
  std::string bytes = makeNpy(dictFor("<f4", "(8,)"), std::string(32, '\0'));
  {
    test::ScopedEnv env("UOP_MAX_ALLOC_BYTES", "16");
    EXPECT_EQ(readError(bytes), "x.npy: cannot allocate 32 bytes for an f32 buffer of shape "
                                "(8,): more than the limit of 16 bytes ($UOP_MAX_ALLOC_BYTES)");
  }
  EXPECT_EQ(readError(bytes), "<ok>");
}

TEST(NpyTest, MalformedFilesNameTheFile) {
  TempDir tmp;
  std::string path = tmp.file("bad.npy");
  test::writeFile(path, makeNpy(dictFor("<f4", "(16,)"), std::string(12, 'x')));
  Result<HostBuffer> r = readNpy(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), path + ": truncated data: expected 64 bytes, found 12");
}

// A non-regular file is read only as far as its header announces (issue
// 32: a device, a pipe or a FIFO was read to its end before the header was
// parsed, so /dev/zero never finished).
TEST(NpyTest, ReadsNonRegularFiles) {
  Result<HostBuffer> r = readNpy("/dev/null");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "/dev/null: not a .npy file (empty)");
  r = readNpy("/dev/zero");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "/dev/zero: not a .npy file (bad magic)");
  // A FIFO whose writer keeps it open after the array: the array is read,
  // nothing after it is waited for.
  TempDir tmp;
  std::string fifo = tmp.file("f");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string bytes = makeNpy(dictFor("<f4", "(2,)"), std::string("\0\0\x80\x3f\0\0\0\x40", 8));
  std::thread writer([&] {
    int fd = ::open(fifo.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, bytes.data(), bytes.size()), (ssize_t)bytes.size());
    // Still open: a reader that read to the end would wait here.
    std::this_thread::sleep_for(std::chrono::seconds(3));
    ::close(fd);
  });
  auto t0 = std::chrono::steady_clock::now();
  r = readNpy(fifo);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  writer.join();
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->format(), "[1.0, 2.0]");
  EXPECT_LT(seconds, 2.5);
  // A stream that ends early is truncated data, not a hang.
  std::string shortBytes = bytes.substr(0, bytes.size() - 3);
  std::thread shortWriter([&] {
    int fd = ::open(fifo.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, shortBytes.data(), shortBytes.size()), (ssize_t)shortBytes.size());
    ::close(fd);
  });
  r = readNpy(fifo);
  shortWriter.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), fifo + ": truncated data: expected 8 bytes, the data ended early");
}

// A header that names a key twice is malformed (issue 32: the last one won).
TEST(NpyTest, RepeatedHeaderKeys) {
  std::string data(8, '\0');
  for (const char *dict :
       {"{'descr': '<f4', 'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'shape': (1,), }",
        "{'fortran_order': True, 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }"}) {
    std::string err = readError(makeNpy(dict, data));
    EXPECT_NE(err.find("appears twice"), std::string::npos) << dict << ": " << err;
  }
}

// Random mutations of valid files and random headers: never a crash, and
// whatever is accepted fits in the input.
TEST(NpyTest, FuzzNeverCrashes) {
  std::mt19937_64 rng(2024);
  std::vector<std::string> seeds;
  for (DType d : kAllTypes)
    for (const auto &shape : kShapes) {
      HostBuffer b(d, shape);
      b.fillRandom(1);
      seeds.push_back(encodeNpy(b));
    }
  seeds.push_back(makeNpy(dictFor("<f4", "(2, 3)"), std::string(24, 'a'), 2));
  seeds.push_back(makeNpy(dictFor("<f4", "(2, 3)"), std::string(24, 'a'), 3));
  const std::string tokens[] = {"{",     "}",
                                "(",     ")",
                                "'",     ",",
                                ":",     " ",
                                "True",  "False",
                                "L",     "-",
                                "99999", "0",
                                "1",     "\"",
                                "\\",    "[",
                                "descr", "shape",
                                "<f4",   "|b1",
                                ">i4",   "fortran_order",
                                "\n",    std::string(1, '\0'),
                                "\xff"};
  int accepted = 0;
  for (int iter = 0; iter < 30000; ++iter) {
    std::string s;
    if (iter % 3 == 2) {
      // A random header built from header tokens.
      std::string dict;
      int n = rng() % 40;
      for (int i = 0; i < n; ++i)
        dict += tokens[rng() % std::size(tokens)];
      s = makeNpy(dict, std::string(rng() % 100, 'z'), 1 + rng() % 3);
    } else {
      s = seeds[rng() % seeds.size()];
      int edits = 1 + rng() % 4;
      for (int e = 0; e < edits && !s.empty(); ++e) {
        size_t at = rng() % s.size();
        switch (rng() % 4) {
        case 0:
          s[at] = static_cast<char>(rng());
          break;
        case 1:
          s.erase(at, 1 + rng() % 8);
          break;
        case 2:
          s.insert(at, 1 + rng() % 4, static_cast<char>(rng()));
          break;
        case 3:
          s.resize(at);
          break;
        }
      }
    }
    Result<HostBuffer> r = readNpyFromMemory(s.data(), s.size(), "fuzz.npy");
    if (r.ok()) {
      ++accepted;
      EXPECT_LE(r->bytes(), s.size());
    } else {
      EXPECT_EQ(r.error().rfind("fuzz.npy: ", 0), 0u) << r.error();
    }
  }
  EXPECT_GT(accepted, 0);
}

} // namespace
