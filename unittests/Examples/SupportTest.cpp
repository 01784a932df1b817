//===- SupportTest.cpp - the examples' progress lines, CSV, plots ----------===//

#include "Support.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "gtest/gtest.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace uop::examples;

namespace {

std::string readFile(const std::string &path) {
  auto b = llvm::MemoryBuffer::getFile(path);
  return b ? (*b)->getBuffer().str() : std::string("<unreadable>");
}

std::string readAll(FILE *f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;)
    s += static_cast<char>(c);
  return s;
}

TEST(SupportTest, FormatDuration) {
  EXPECT_EQ(formatDuration(0.84), "0.8s");
  EXPECT_EQ(formatDuration(12.4), "12s");
  EXPECT_EQ(formatDuration(185), "3m05s");
  EXPECT_EQ(formatDuration(3720), "1h02m");
  EXPECT_EQ(formatDuration(-1), "?");
}

TEST(SupportTest, ProgressPlainLines) {
  FILE *f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  Progress p("train", 25, /*every=*/10, f, /*interactive=*/0);
  for (int64_t s = 1; s <= 25; ++s)
    p.update(s, 1.0 / static_cast<double>(s), "x");
  p.finish();
  std::string out = readAll(f);
  std::fclose(f);
  // Steps 1, 10, 20 and the last, one line each, no carriage returns.
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 4) << out;
  EXPECT_EQ(out.find('\r'), std::string::npos);
  EXPECT_NE(out.find("train step  1/25 loss 1.0000"), std::string::npos) << out;
  EXPECT_NE(out.find("train step 25/25 loss 0.0400"), std::string::npos) << out;
  EXPECT_NE(out.find("ms/step ETA"), std::string::npos);
  EXPECT_NE(out.find(" x\n"), std::string::npos);
}

TEST(SupportTest, ProgressInPlace) {
  FILE *f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  Progress p("t", 3, 1, f, /*interactive=*/1);
  p.update(1, 2.0);
  p.update(3, 1.0); // the last step is always drawn, then the line ends
  p.finish();
  std::string out = readAll(f);
  std::fclose(f);
  EXPECT_EQ(out.find("\r\033[Kt step 1/3"), 0u) << out;
  EXPECT_NE(out.find("\r\033[Kt step 3/3 loss 1.0000"), std::string::npos);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1);
  EXPECT_EQ(out.back(), '\n');
}

class FilesTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("uop-support-test", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  std::string path(const std::string &name) const {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, name);
    return p.str().str();
  }
  /// A loss curve of 5 steps in the CSV `name`.
  void writeLossCsv(const std::string &name) {
    llvm::Expected<CsvWriter> csv = CsvWriter::create(path(name), {"step", "loss"});
    ASSERT_TRUE(bool(csv));
    for (int i = 1; i <= 5; ++i)
      ASSERT_FALSE(bool(csv->row({double(i), 1.0 / i})));
  }
  llvm::SmallString<128> dir;
};

TEST_F(FilesTest, Csv) {
  {
    llvm::Expected<CsvWriter> csv = CsvWriter::create(path("sub/m.csv"), {"step", "loss"});
    ASSERT_TRUE(bool(csv)) << llvm::toString(csv.takeError());
    ASSERT_FALSE(bool(csv->row({1, 2.5})));
    ASSERT_FALSE(bool(csv->row({2, 0.125})));
    llvm::Error e = csv->row({3});
    ASSERT_TRUE(bool(e));
    EXPECT_NE(llvm::toString(std::move(e)).find("a row of 1 values, but the header has 2"),
              std::string::npos);
  }
  EXPECT_EQ(readFile(path("sub/m.csv")), "step,loss\n1,2.5\n2,0.125\n");
  // A file where a directory must be.
  std::FILE *f = std::fopen(path("file").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  llvm::Expected<CsvWriter> bad = CsvWriter::create(path("file/y.csv"), {"a"});
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("file/y.csv: cannot"), std::string::npos);
}

// The metrics are written beside their path and put there whole, never into
// a FIFO or a device (issue 32).
TEST_F(FilesTest, CsvIsWrittenWholeAndOnlyToRegularFiles) {
  ASSERT_EQ(mkfifo(path("f.csv").c_str(), 0600), 0);
  llvm::Expected<CsvWriter> fifo = CsvWriter::create(path("f.csv"), {"a"});
  ASSERT_FALSE(bool(fifo));
  EXPECT_NE(llvm::toString(fifo.takeError()).find("f.csv: is a FIFO, not a regular file"),
            std::string::npos);
  std::FILE *f = std::fopen(path("m.csv").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("old\n", f);
  std::fclose(f);
  llvm::Expected<CsvWriter> csv = CsvWriter::create(path("m.csv"), {"step"});
  ASSERT_TRUE(bool(csv)) << llvm::toString(csv.takeError());
  ASSERT_FALSE(bool(csv->row({1})));
  EXPECT_EQ(readFile(path("m.csv")), "old\n");
  ASSERT_FALSE(bool(csv->finish()));
  EXPECT_EQ(readFile(path("m.csv")), "step\n1\n");
  std::error_code ec;
  int files = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    ++files;
  EXPECT_EQ(files, 2); // f.csv and m.csv: no temporary left
}

TEST_F(FilesTest, GnuplotScript) {
  PlotSpec spec;
  spec.csv = "it's.csv";
  spec.output = "loss.png";
  spec.title = "loss";
  spec.columns = {2, 3};
  std::string s = gnuplotScript(spec);
  EXPECT_NE(s.find("set terminal pngcairo"), std::string::npos);
  EXPECT_NE(s.find("plot 'it''s.csv' using 1:2 with lines lw 2, 'it''s.csv' using 1:3"),
            std::string::npos)
      << s;
  spec.output = "loss.svg";
  EXPECT_NE(gnuplotScript(spec).find("set terminal svg"), std::string::npos);
  spec.output = "loss.jpg";
  llvm::Error e = plot(spec);
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("a plot is a .png or an .svg"), std::string::npos);
}

TEST_F(FilesTest, PlotDraws) {
  if (!llvm::sys::findProgramByName("gnuplot"))
    GTEST_SKIP() << "gnuplot is not installed";
  ASSERT_NO_FATAL_FAILURE(writeLossCsv("m.csv"));
  for (const char *out : {"loss.png", "loss.svg"}) {
    PlotSpec spec{path("m.csv"), path(out), "test"};
    llvm::Error e = plot(spec);
    ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
    std::string bytes = readFile(path(out));
    if (llvm::StringRef(out).ends_with(".png"))
      EXPECT_EQ(bytes.substr(0, 8), "\x89PNG\r\n\x1a\n");
    else
      EXPECT_NE(bytes.find("<svg"), std::string::npos);
  }
}

TEST_F(FilesTest, ReportMetrics) {
  // A plot that cannot be drawn (not a .png or .svg) is a line, no error.
  std::FILE *f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  reportMetrics(path("m.csv"), path("loss.jpg"), "title", f);
  std::string out = readAll(f);
  std::fclose(f);
  EXPECT_EQ(out, "metrics: " + path("m.csv") + "\nloss curve: not drawn: " + path("loss.jpg") +
                     ": a plot is a .png or an .svg\n");
  if (!llvm::sys::findProgramByName("gnuplot"))
    GTEST_SKIP() << "gnuplot is not installed";
  ASSERT_NO_FATAL_FAILURE(writeLossCsv("m.csv"));
  f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  reportMetrics(path("m.csv"), path("loss.png"), "title", f);
  out = readAll(f);
  std::fclose(f);
  EXPECT_EQ(out, "metrics: " + path("m.csv") + "\nloss curve: " + path("loss.png") + "\n");
  EXPECT_EQ(readFile(path("loss.png")).substr(0, 8), "\x89PNG\r\n\x1a\n");
}

TEST(SupportTest, CheckLoss) {
  llvm::Expected<double> ok = checkLoss(2.5, 1);
  ASSERT_TRUE(bool(ok));
  EXPECT_EQ(*ok, 2.5);
  EXPECT_EQ(llvm::toString(checkLoss(NAN, 579).takeError()),
            "the loss is NaN at step 579: training diverged");
  EXPECT_EQ(llvm::toString(checkLoss(-INFINITY, 3).takeError()),
            "the loss is infinite at step 3: training diverged");
  // An error that came before the loss is passed on.
  EXPECT_EQ(llvm::toString(checkLoss(makeError("no device"), 1).takeError()), "no device");
}

TEST(SupportTest, Flags) {
  int64_t steps = 600;
  double lr = 1e-3;
  std::string out = "x";
  Flags flags;
  flags.add("steps", &steps, "").add("lr", &lr, "").add("out", &out, "");
  flags.allowPositional = true;
  const char *argv[] = {"prog", "--steps=20", "--lr", "0.5", "--out=a.csv", "pos"};
  ASSERT_FALSE(bool(flags.parse(6, const_cast<char **>(argv))));
  EXPECT_EQ(steps, 20);
  EXPECT_EQ(lr, 0.5);
  EXPECT_EQ(out, "a.csv");
  EXPECT_EQ(flags.positional, std::vector<std::string>{"pos"});
  const char *bad[] = {"prog", "--steps=x"};
  llvm::Error e = flags.parse(2, const_cast<char **>(bad));
  ASSERT_TRUE(bool(e));
  EXPECT_EQ(llvm::toString(std::move(e)), "--steps: 'x' is not an integer");
  const char *unknown[] = {"prog", "--nope=1"};
  e = flags.parse(2, const_cast<char **>(unknown));
  ASSERT_TRUE(bool(e));
  EXPECT_EQ(llvm::toString(std::move(e)), "unknown option --nope (--help lists them)");
  const char *missing[] = {"prog", "--lr"};
  e = flags.parse(2, const_cast<char **>(missing));
  ASSERT_TRUE(bool(e));
  EXPECT_EQ(llvm::toString(std::move(e)), "--lr needs a value");
  // Stray arguments and single-dash options are errors (issue 32: the
  // examples ignored them, so `-steps=5` trained for the default steps).
  flags.allowPositional = false;
  const char *stray[] = {"prog", "--steps=3", "extra"};
  e = flags.parse(3, const_cast<char **>(stray));
  ASSERT_TRUE(bool(e));
  EXPECT_EQ(llvm::toString(std::move(e)), "unexpected argument 'extra' (--help lists the options)");
  const char *dash[] = {"prog", "-steps=5"};
  e = flags.parse(2, const_cast<char **>(dash));
  ASSERT_TRUE(bool(e));
  EXPECT_EQ(llvm::toString(std::move(e)),
            "unknown option -steps=5 (options start with --; --help lists them)");
}

} // namespace
