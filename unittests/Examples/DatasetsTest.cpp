//===- DatasetsTest.cpp - the examples' dataset readers --------------------===//
//
// IDX files and fortunes corpora generated here (small), read back; every
// malformed input is an error that names the file and the problem.
//
//===----------------------------------------------------------------------===//

#include "Datasets.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <cmath>
#include <fstream>
#include <zlib.h>

using namespace uop::examples;

namespace {

class DatasetsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("uop-datasets-test", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  std::string path(const std::string &name) const {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, name);
    return p.str().str();
  }
  /// Writes raw bytes gzip'd (or plain).
  void writeBytes(const std::string &name, const std::vector<unsigned char> &bytes,
                  bool gz = true) {
    if (gz) {
      gzFile f = gzopen(path(name).c_str(), "wb");
      ASSERT_NE(f, nullptr);
      if (!bytes.empty())
        ASSERT_EQ(gzwrite(f, bytes.data(), bytes.size()), int(bytes.size()));
      ASSERT_EQ(gzclose(f), Z_OK);
    } else {
      std::ofstream f(path(name), std::ios::binary);
      f.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    }
  }
  /// Writes a small dataset: `train` and `test` images of rows x cols with
  /// pixel (n, p) = (n * 7 + p) % 256 and label n % 10.
  void writeDataset(int64_t train, int64_t test, int64_t rows = 3, int64_t cols = 2) {
    for (auto [prefix, count] : {std::pair{"train", train}, {"t10k", test}}) {
      IdxArray img{{count, rows, cols}, {}}, lab{{count}, {}};
      for (int64_t n = 0; n < count; ++n) {
        for (int64_t p = 0; p < rows * cols; ++p)
          img.data.push_back(static_cast<uint8_t>((n * 7 + p) % 256));
        lab.data.push_back(static_cast<uint8_t>(n % 10));
      }
      ASSERT_FALSE(bool(writeIdxGz(path(std::string(prefix) + "-images-idx3-ubyte.gz"), img)));
      ASSERT_FALSE(bool(writeIdxGz(path(std::string(prefix) + "-labels-idx1-ubyte.gz"), lab)));
    }
  }
  /// The error of `e`, or "" when it succeeded.
  template <typename T> static std::string errorOf(llvm::Expected<T> e) {
    return e ? std::string() : llvm::toString(e.takeError());
  }

  llvm::SmallString<128> dir;
};

TEST_F(DatasetsTest, IdxRoundTrip) {
  IdxArray a{{2, 3}, {1, 2, 3, 250, 251, 252}};
  ASSERT_FALSE(bool(writeIdxGz(path("a.gz"), a)));
  llvm::Expected<IdxArray> b = readIdx(path("a.gz"));
  ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
  EXPECT_EQ(b->dims, a.dims);
  EXPECT_EQ(b->data, a.data);
}

TEST_F(DatasetsTest, IdxPlainFileReads) {
  writeBytes("plain", {0, 0, 8, 1, 0, 0, 0, 3, 7, 8, 9}, /*gz=*/false);
  llvm::Expected<IdxArray> a = readIdx(path("plain"));
  ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
  EXPECT_EQ(a->dims, std::vector<int64_t>{3});
  EXPECT_EQ(a->data, (std::vector<uint8_t>{7, 8, 9}));
}

TEST_F(DatasetsTest, IdxErrors) {
  EXPECT_NE(errorOf(readIdx(path("missing.gz"))).find("missing.gz: no such file"),
            std::string::npos);
  writeBytes("magic.gz", {1, 0, 8, 1, 0, 0, 0, 1, 5});
  EXPECT_NE(errorOf(readIdx(path("magic.gz"))).find("not an IDX file"), std::string::npos);
  writeBytes("type.gz", {0, 0, 0x0d, 1, 0, 0, 0, 1, 5});
  EXPECT_NE(errorOf(readIdx(path("type.gz"))).find("element type 0xD is not supported"),
            std::string::npos);
  writeBytes("ndim.gz", {0, 0, 8, 0});
  EXPECT_NE(errorOf(readIdx(path("ndim.gz"))).find("0 dimensions"), std::string::npos);
  writeBytes("short.gz", {0, 0, 8, 1, 0, 0, 0, 4, 1, 2});
  std::string e = errorOf(readIdx(path("short.gz")));
  EXPECT_NE(e.find("short.gz: truncated: the file ends inside the IDX data"), std::string::npos)
      << e;
  writeBytes("header.gz", {0, 0, 8, 2, 0, 0});
  EXPECT_NE(errorOf(readIdx(path("header.gz"))).find("inside the IDX dimensions"),
            std::string::npos);
  writeBytes("long.gz", {0, 0, 8, 1, 0, 0, 0, 1, 5, 6});
  EXPECT_NE(errorOf(readIdx(path("long.gz"))).find("trailing bytes"), std::string::npos);
  writeBytes("zero.gz", {0, 0, 8, 1, 0, 0, 0, 0});
  EXPECT_NE(errorOf(readIdx(path("zero.gz"))).find("dimension 0 is 0"), std::string::npos);
  writeBytes("empty.gz", {});
  EXPECT_NE(errorOf(readIdx(path("empty.gz"))).find("inside the IDX header"), std::string::npos);
}

TEST_F(DatasetsTest, IdxCorruptGzip) {
  // A gzip header followed by garbage: zlib reports the stream as broken.
  writeBytes("corrupt.gz", {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xff, 0xff},
             /*gz=*/false);
  std::string e = errorOf(readIdx(path("corrupt.gz")));
  EXPECT_NE(e.find("corrupt.gz: "), std::string::npos) << e;
  EXPECT_FALSE(e.empty());
}

TEST_F(DatasetsTest, LoadsADataset) {
  writeDataset(12, 5);
  llvm::Expected<ImageDataset> ds = loadFashionMnist(dir.str().str());
  ASSERT_TRUE(bool(ds)) << llvm::toString(ds.takeError());
  EXPECT_EQ(ds->numTrain(), 12);
  EXPECT_EQ(ds->numTest(), 5);
  EXPECT_EQ(ds->rows, 3);
  EXPECT_EQ(ds->cols, 2);
  EXPECT_EQ(ds->pixels(), 6);
  ASSERT_EQ(ds->trainImages.size(), 72u);
  // Image 11, pixel 4: (11 * 7 + 4) % 256 = 81, scaled to [0, 1].
  EXPECT_FLOAT_EQ(ds->trainImages[11 * 6 + 4], 81.0f / 255.0f);
  EXPECT_EQ(ds->trainLabels[11], 1);
  EXPECT_EQ(ds->testLabels[4], 4);
}

TEST_F(DatasetsTest, DatasetErrors) {
  std::string e = errorOf(loadFashionMnist(path("nothing-here")));
  EXPECT_NE(e.find("install Debian's dataset-fashion-mnist"), std::string::npos) << e;

  writeDataset(4, 2);
  // Labels that do not match the images in count.
  ASSERT_FALSE(bool(writeIdxGz(path("t10k-labels-idx1-ubyte.gz"), IdxArray{{3}, {0, 1, 2}})));
  e = errorOf(loadFashionMnist(dir.str().str()));
  EXPECT_NE(e.find("holds 2 images but"), std::string::npos) << e;
  // A label out of range.
  ASSERT_FALSE(bool(writeIdxGz(path("t10k-labels-idx1-ubyte.gz"), IdxArray{{2}, {0, 12}})));
  e = errorOf(loadFashionMnist(dir.str().str()));
  EXPECT_NE(e.find("label 12 at index 1"), std::string::npos) << e;
  // Test images of another size than the training images.
  writeDataset(4, 2);
  IdxArray wrong{{2, 2, 2}, std::vector<uint8_t>(8, 0)};
  ASSERT_FALSE(bool(writeIdxGz(path("t10k-images-idx3-ubyte.gz"), wrong)));
  e = errorOf(loadFashionMnist(dir.str().str()));
  EXPECT_NE(e.find("images of 2x2, but the training images are 3x2"), std::string::npos) << e;
  // Images with the labels' rank.
  ASSERT_FALSE(bool(writeIdxGz(path("t10k-images-idx3-ubyte.gz"), IdxArray{{2}, {0, 0}})));
  e = errorOf(loadFashionMnist(dir.str().str()));
  EXPECT_NE(e.find("images are (count, rows, cols)"), std::string::npos) << e;
  // A file missing.
  llvm::sys::fs::remove(path("train-labels-idx1-ubyte.gz"));
  e = errorOf(loadFashionMnist(dir.str().str()));
  EXPECT_NE(e.find("train-labels-idx1-ubyte.gz: no such file"), std::string::npos) << e;
}

TEST_F(DatasetsTest, CharCorpus) {
  llvm::Expected<CharCorpus> c = makeCharCorpus("abba\n_\bx\tz\xc3\xa9", "test");
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  // Overstrike resolved to x, tab to a space, the UTF-8 bytes dropped.
  EXPECT_EQ(c->text, "abba\nx z");
  EXPECT_EQ(std::string(c->vocab.begin(), c->vocab.end()), "\n abxz");
  EXPECT_EQ(c->ids.size(), c->text.size());
  EXPECT_EQ(c->indexOf('b'), 3);
  EXPECT_EQ(c->indexOf('q'), -1);
  for (size_t i = 0; i < c->text.size(); ++i)
    EXPECT_EQ(c->vocab[c->ids[i]], c->text[i]);
  // Counts: a 2, b 2, \n 1, x 1, ' ' 1, z 1 of 8.
  double h = -2 * (2 / 8.0) * std::log(2 / 8.0) - 4 * (1 / 8.0) * std::log(1 / 8.0);
  EXPECT_NEAR(c->unigramEntropy(), h, 1e-12);
  // One symbol: no uncertainty.
  llvm::Expected<CharCorpus> one = makeCharCorpus("aaaa", "test");
  ASSERT_TRUE(bool(one));
  EXPECT_EQ(one->unigramEntropy(), 0.0);
  EXPECT_NE(errorOf(makeCharCorpus("\xff\xfe", "bin")).find("bin: no text"), std::string::npos);
}

TEST_F(DatasetsTest, Fortunes) {
  {
    std::ofstream(path("b-file")) << "second\n%\n";
    std::ofstream(path("a-file")) << "first";
    std::ofstream(path("a-file.dat")) << "\x01\x02 index";
  }
  ASSERT_FALSE(llvm::sys::fs::create_link("a-file", path("a-file.u8")));
  llvm::Expected<CharCorpus> c = loadFortunes(dir.str().str());
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  // By name, the .dat index and the .u8 link skipped, each file ending in a newline.
  EXPECT_EQ(c->text, "first\nsecond\n%\n");
  llvm::Expected<CharCorpus> one = loadFortunes(path("b-file"));
  ASSERT_TRUE(bool(one));
  EXPECT_EQ(one->text, "second\n%\n");
  std::string e = errorOf(loadFortunes(path("nope")));
  EXPECT_NE(e.find("install Debian's fortunes"), std::string::npos) << e;
  llvm::SmallString<128> empty(dir);
  llvm::sys::path::append(empty, "empty");
  ASSERT_FALSE(llvm::sys::fs::create_directory(empty));
  e = errorOf(loadFortunes(empty.str().str()));
  EXPECT_NE(e.find("no fortunes files"), std::string::npos) << e;
}

} // namespace
