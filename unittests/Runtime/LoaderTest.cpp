//===- LoaderTest.cpp - Tests of SharedLibrary, CpuKernel and timing ------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Runtime.h"
#include "TestUtil.h"

#include "gtest/gtest.h"

#include <cmath>
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace uop::rt;
using uop::rt::test::ScopedEnv;
using uop::rt::test::TempDir;

namespace {

const char *kKernelSource = R"(
void uop_entry(void **args) {
  const float *a = (const float *)args[0], *b = (const float *)args[1];
  float *out = (float *)args[2];
  const int *n = (const int *)args[3];
  for (int i = 0; i < *n; ++i)
    out[i] = a[i] + 2.0f * b[i];
}
int uop_answer(void) { return 42; }
)";

bool haveCompiler() {
  static int have = -1;
  if (have < 0)
    have = std::system("cc --version >/dev/null 2>&1") == 0;
  return have == 1;
}

/// Compiles kKernelSource the way uop-run uses the cache: look up the key,
/// else build into a temporary and install it.
std::string compileCached(const std::string &flags, bool *hit = nullptr) {
  std::string key = hashKey(std::string(kKernelSource) + '\0' + "cc " + flags);
  if (std::string so = cacheLookup(key, ".so"); !so.empty()) {
    if (hit)
      *hit = true;
    return so;
  }
  if (hit)
    *hit = false;
  std::string src = cacheTempPath(".c"), so = cacheTempPath(".so");
  if (!test::writeFile(src, kKernelSource))
    return "";
  int rc = std::system(("cc " + flags + " -shared -fPIC -o '" + so + "' '" +
                        src + "'")
                           .c_str());
  std::remove(src.c_str());
  if (rc != 0)
    return "";
  Result<std::string> installed = cacheInstall(so, key, ".so");
  return installed.ok() ? installed.value() : "";
}

TEST(LoaderTest, CompileCacheLoadAndCall) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  bool hit = true;
  std::string so = compileCached("-O2", &hit);
  ASSERT_FALSE(so.empty());
  EXPECT_FALSE(hit);
  EXPECT_EQ(compileCached("-O2", &hit), so);
  EXPECT_TRUE(hit);

  Result<CpuKernel> k = CpuKernel::load(so);
  ASSERT_TRUE(k.ok()) << k.error();
  HostBuffer a(DType::F32, {5}), b(DType::F32, {5}), out(DType::F32, {5}),
      n(DType::I32, {});
  a.fillRandom(1);
  b.fillRandom(2);
  n.as<int32_t>()[0] = 5;
  std::vector<HostBuffer *> bufs = {&a, &b, &out, &n};
  k.value()(bufs);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(out.as<float>()[i], a.as<float>()[i] + 2.0f * b.as<float>()[i]);

  // The raw form, and a copy that outlives the original.
  out = HostBuffer(DType::F32, {5});
  void *args[] = {a.data(), b.data(), out.data(), n.data()};
  std::optional<CpuKernel> copy;
  {
    Result<CpuKernel> k2 = CpuKernel::load(so);
    ASSERT_TRUE(k2.ok());
    copy = k2.value();
  }
  (*copy)(args);
  EXPECT_EQ(out.as<float>()[4], a.as<float>()[4] + 2.0f * b.as<float>()[4]);
  EXPECT_EQ(copy->library().path(), so);
}

// The whole protocol from several processes at once, as when many uop-run
// processes start on the same new program: each looks up, compiles, installs
// and loads; all get a working kernel and one cache entry remains.
TEST(LoaderTest, ConcurrentCompilesOfTheSameProgram) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  constexpr int kProcs = 8;
  int gate[2];
  ASSERT_EQ(pipe(gate), 0);
  std::vector<pid_t> pids;
  for (int i = 0; i < kProcs; ++i) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(gate[1]);
      char c;
      (void)!read(gate[0], &c, 1);
      std::string so = compileCached("-O1");
      if (so.empty())
        _exit(10);
      Result<CpuKernel> k = CpuKernel::load(so);
      if (!k.ok())
        _exit(11);
      HostBuffer a(DType::F32, {3}), b(DType::F32, {3}), out(DType::F32, {3}),
          n(DType::I32, {});
      a.fillRandom(i);
      b.fillRandom(i + 100);
      n.as<int32_t>()[0] = 3;
      std::vector<HostBuffer *> bufs = {&a, &b, &out, &n};
      k.value()(bufs);
      for (int j = 0; j < 3; ++j)
        if (out.as<float>()[j] != a.as<float>()[j] + 2.0f * b.as<float>()[j])
          _exit(12);
      _exit(0);
    }
    pids.push_back(pid);
  }
  close(gate[0]);
  close(gate[1]);
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "child exit " << WEXITSTATUS(status);
  }
  // One .so entry, no temporaries.
  int entries = 0, temps = 0;
  if (DIR *d = opendir(tmp.path().c_str())) {
    while (dirent *e = readdir(d))
      entries += std::string(e->d_name).size() > 3 &&
                 std::string(e->d_name).find(".so") != std::string::npos;
    closedir(d);
  }
  if (DIR *d = opendir(tmp.file("tmp").c_str())) {
    while (dirent *e = readdir(d))
      temps += e->d_name[0] != '.';
    closedir(d);
  }
  EXPECT_EQ(entries, 1);
  EXPECT_EQ(temps, 0);
}

TEST(LoaderTest, SharedLibrarySymbols) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string so = compileCached("-O0");
  ASSERT_FALSE(so.empty());
  Result<std::unique_ptr<SharedLibrary>> lib = SharedLibrary::open(so);
  ASSERT_TRUE(lib.ok()) << lib.error();
  auto answer = reinterpret_cast<int (*)()>((*lib)->symbol("uop_answer"));
  ASSERT_NE(answer, nullptr);
  EXPECT_EQ(answer(), 42);
  EXPECT_EQ((*lib)->symbol("no_such_symbol"), nullptr);

  Result<CpuKernel> k = CpuKernel::load(so, "no_such_entry");
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.error(), so + ": no symbol 'no_such_entry'");
}

TEST(LoaderTest, LoadErrors) {
  TempDir tmp;
  Result<std::unique_ptr<SharedLibrary>> lib =
      SharedLibrary::open(tmp.file("missing.so"));
  ASSERT_FALSE(lib.ok());
  EXPECT_EQ(lib.error().rfind(tmp.file("missing.so") + ": cannot load: ", 0),
            0u)
      << lib.error();
  // Not a shared object.
  test::writeFile(tmp.file("junk.so"), "not an ELF file");
  Result<CpuKernel> k = CpuKernel::load(tmp.file("junk.so"));
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.error().find("junk.so: cannot load: "), std::string::npos);
  // A bare name is a file in the current directory, not a library search.
  lib = SharedLibrary::open("libc.so.6");
  EXPECT_FALSE(lib.ok());
}

TEST(TimingTest, TimeRunsAndMedian) {
  int calls = 0;
  std::vector<double> t = timeRuns([&] { ++calls; }, 5);
  EXPECT_EQ(calls, 6); // one warm-up
  ASSERT_EQ(t.size(), 5u);
  EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
  for (double s : t)
    EXPECT_GE(s, 0.0);
  calls = 0;
  EXPECT_TRUE(timeRuns([&] { ++calls; }, 0).empty());
  EXPECT_EQ(calls, 0);

  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({7}), 7);
  EXPECT_TRUE(std::isnan(median({})));
}

} // namespace
