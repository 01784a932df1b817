//===- FrontendTestUtil.h - helpers of the frontend's gtests -----*- C++ -*-===//
//
// A fixture with its own plan cache directory and TensorContext, and the
// plumbing to compare against numpy and the seed: tensors are saved as .npy
// into the test's directory, a Python script computes the references there
// (with the seed on its path when it is present), the test reads them back.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_UNITTESTS_FRONTEND_FRONTENDTESTUTIL_H
#define UOP_UNITTESTS_FRONTEND_FRONTENDTESTUTIL_H

#include "Uop/Frontend/Tensor.h"

#include "../Runtime/TestUtil.h"
#include "Uop/Runtime/Npy.h"

#include "gtest/gtest.h"

#include <cmath>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace uop::test {

/// The seed's source (UOP_SEED_ROOT), or "" when it is not there.
inline std::string seedRoot() {
  std::string seed = UOP_SEED_ROOT;
  struct stat st;
  return ::stat((seed + "/uopc/tensor.py").c_str(), &st) == 0 ? seed : std::string();
}

class FrontendTest : public ::testing::Test {
protected:
  FrontendTest() : env("UOP_CACHE", dir.path().c_str()) {}

  /// The value of `t` (fails the test on an error).
  std::vector<float> values(const Tensor &t) {
    auto v = t.toVector();
    if (!v) {
      ADD_FAILURE() << llvm::toString(v.takeError());
      return {};
    }
    return *v;
  }
  /// The error of `t` or of realizing it ("" when it realizes).
  static std::string errorOf(const Tensor &t) {
    if (!t.ok())
      return t.error();
    auto r = t.realize();
    return r ? std::string() : llvm::toString(r.takeError());
  }
  /// Saves `t` as NAME.npy in the test directory.
  void save(const Tensor &t, const std::string &name) {
    if (auto e = t.save(dir.file(name + ".npy")))
      ADD_FAILURE() << name << ": " << llvm::toString(std::move(e));
  }
  /// Reads NAME.npy from the test directory.
  rt::HostBuffer load(const std::string &name) {
    auto b = rt::readNpy(dir.file(name + ".npy"));
    if (!b.ok()) {
      ADD_FAILURE() << name << ": " << b.error();
      return rt::HostBuffer();
    }
    return b.take();
  }
  /// Runs `script` with the test directory and the seed root ("-" when
  /// absent) as its arguments; fails the test when it fails.
  bool runScript(const char *script) {
    std::string seed = seedRoot();
    int rc = rt::test::runPython(dir, script,
                                 "'" + dir.path() + "' '" + (seed.empty() ? "-" : seed) + "'");
    EXPECT_EQ(rc, 0) << "the reference script failed";
    return rc == 0;
  }
  /// Compares `t`'s value with NAME.npy: equal bits when `tol` is 0, else
  /// |got - want| <= tol * max(1, |want|).
  void expectMatches(const Tensor &t, const std::string &name, double tol) {
    SCOPED_TRACE(name);
    auto got = t.numpy();
    ASSERT_TRUE(!!got) << llvm::toString(got.takeError());
    rt::HostBuffer want = load(name);
    ASSERT_EQ(got->shape(), want.shape());
    int bad = 0;
    for (int64_t i = 0; i < want.numel() && bad < 10; ++i) {
      double g = got->getDouble(i), w = want.getDouble(i);
      bool ok = tol == 0 ? g == w : std::fabs(g - w) <= tol * std::max(1.0, std::fabs(w));
      if (!ok) {
        ++bad;
        ADD_FAILURE() << "at " << i << ": got " << g << ", want " << w;
      }
    }
  }

  rt::test::TempDir dir;
  rt::test::ScopedEnv env;
  TensorContext ctx;
};

inline void expectNear(const std::vector<float> &got, const std::vector<float> &want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs((double)want[i]))) << "at " << i;
}

} // namespace uop::test

#endif // UOP_UNITTESTS_FRONTEND_FRONTENDTESTUTIL_H
