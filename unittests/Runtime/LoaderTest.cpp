//===- LoaderTest.cpp - Tests of SharedLibrary, CpuKernel and timing ------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "Uop/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
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
  int rc = std::system(("cc " + flags + " -shared -fPIC -o '" + so + "' '" + src + "'").c_str());
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
  HostBuffer a(DType::F32, {5}), b(DType::F32, {5}), out(DType::F32, {5}), n(DType::I32, {});
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
      HostBuffer a(DType::F32, {3}), b(DType::F32, {3}), out(DType::F32, {3}), n(DType::I32, {});
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
  // One .so entry (and its checksum), no temporaries.
  int entries = 0, sums = 0, temps = 0;
  if (DIR *d = opendir(tmp.path().c_str())) {
    while (dirent *e = readdir(d))
      entries += std::string(e->d_name).size() > 3 &&
                 std::string(e->d_name).find(".so") != std::string::npos;
    closedir(d);
  }
  if (DIR *d = opendir(tmp.file("checksums").c_str())) {
    while (dirent *e = readdir(d))
      sums += e->d_name[0] != '.';
    closedir(d);
  }
  EXPECT_EQ(sums, 1);
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
  Result<std::unique_ptr<SharedLibrary>> lib = SharedLibrary::open(tmp.file("missing.so"));
  ASSERT_FALSE(lib.ok());
  EXPECT_EQ(lib.error().rfind(tmp.file("missing.so") + ": cannot load: ", 0), 0u) << lib.error();
  // Not a shared object.
  test::writeFile(tmp.file("junk.so"), "not an ELF file");
  Result<CpuKernel> k = CpuKernel::load(tmp.file("junk.so"));
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.error().find("junk.so: cannot load: "), std::string::npos);
  // A bare name is a file in the current directory, not a library search.
  lib = SharedLibrary::open("libc.so.6");
  EXPECT_FALSE(lib.ok());
}

/// `path`'s bytes with `bytes` written at `offset`.
std::string patched(const std::string &path, size_t offset, const std::string &bytes) {
  std::string s = test::readFile(path);
  s.replace(offset, bytes.size(), bytes);
  return s;
}

/// The error of loading `bytes` as a library (written to a file in `tmp`).
std::string loadError(const TempDir &tmp, const std::string &bytes) {
  std::string so = tmp.file("probe.so");
  std::remove(so.c_str());
  test::writeFile(so, bytes);
  Result<CpuKernel> k = CpuKernel::load(so);
  return k.ok() ? "(loaded)" : k.error();
}

// Files that dlopen would crash on or misreport are refused first, with the
// reason.
TEST(LoaderTest, RefusesBadElfFiles) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  TempDir tmp, cache;
  ScopedEnv env("UOP_CACHE", cache.path().c_str());
  std::string good = compileCached("-O2");
  ASSERT_FALSE(good.empty());
  std::string elf = test::readFile(good);
  ASSERT_GT(elf.size(), 4096u);
  std::string so = tmp.file("probe.so");
  auto expectError = [&](const std::string &bytes, const std::string &why) {
    EXPECT_EQ(loadError(tmp, bytes), so + ": cannot load: " + why);
  };
  expectError("", "not an ELF shared object (an empty file)");
  expectError("#!/bin/sh\necho hi\n", "not an ELF shared object (no ELF magic)");
  expectError(elf.substr(0, 20), "truncated ELF file (20 bytes)");
  // Truncations anywhere: the section headers or a segment are cut off.
  for (size_t keep : {elf.size() - 1, elf.size() / 2, size_t(4096), size_t(100)}) {
    std::string err = loadError(tmp, elf.substr(0, keep));
    EXPECT_EQ(err.rfind(so + ": cannot load: truncated ELF file (" + std::to_string(keep) +
                            " bytes; its headers describe ",
                        0),
              0u)
        << keep << ": " << err;
  }
  // Another architecture (e_machine at offset 18, little-endian).
#if defined(__x86_64__)
  expectError(patched(good, 18, std::string("\xb7\x00", 2)),
              "an ELF file for AArch64, not this machine (x86-64)");
#elif defined(__aarch64__)
  expectError(patched(good, 18, std::string("\x3e\x00", 2)),
              "an ELF file for x86-64, not this machine (AArch64)");
#endif
  expectError(patched(good, 18, std::string("\x34\x12", 2)),
              "an ELF file for machine 4660, not this machine (" +
#if defined(__x86_64__)
                  std::string("x86-64") +
#else
                  std::string("AArch64") +
#endif
                  ")");
  expectError(patched(good, 4, "\x01"), "an ELF file of the wrong class (32-bit; this process is "
                                        "64-bit)");
  expectError(patched(good, 5, "\x02"), "an ELF file of the wrong byte order");
  // An object file, not a shared library (e_type at offset 16).
  expectError(patched(good, 16, std::string("\x01\x00", 2)),
              "not a shared object (ELF type relocatable object)");
  expectError(patched(good, 16, std::string("\x02\x00", 2)),
              "not a shared object (ELF type executable)");
  // The original still loads.
  EXPECT_EQ(loadError(tmp, elf), "(loaded)");
}

// A byte flipped in a cached library's code is no ELF error: the checksum
// catches it before dlopen, the lookup removes it, and a rebuild loads.
TEST(LoaderTest, CorruptCacheEntryIsRefusedThenRebuilt) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  TempDir cache;
  ScopedEnv env("UOP_CACHE", cache.path().c_str());
  std::string so = compileCached("-O1");
  ASSERT_FALSE(so.empty());
  std::string bytes = test::readFile(so);
  bytes[bytes.size() / 3] ^= 0x40;
  ASSERT_TRUE(test::writeFile(so, bytes));
  Result<CpuKernel> k = CpuKernel::load(so);
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.error(), so + ": cannot load: the cache entry is corrupted "
                            "(checksum mismatch)");
  // What a caller does: look it up again (removed, with a warning) and
  // rebuild.
  testing::internal::CaptureStderr();
  bool hit = true;
  EXPECT_EQ(compileCached("-O1", &hit), so);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(hit);
  EXPECT_EQ(err, "uop: warning: the cache entry " + so +
                     " is corrupted (checksum mismatch); rebuilding it\n");
  {
    Result<CpuKernel> rebuilt = CpuKernel::load(so);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.error();
  } // unloaded: truncating a loaded library in place would fault here
  // Truncated in the cache: the same, by size, before any hashing.
  ASSERT_EQ(truncate(so.c_str(), 3000), 0);
  k = CpuKernel::load(so);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.error().find("cannot load: truncated ELF file (3000 bytes"), std::string::npos)
      << k.error();
}

// Another machine's library installed with its own (matching) checksum
// failed at dlopen on every run (issue 32): the library lookup removes it
// with one line, and the lookup is a miss.
TEST(LoaderTest, ForeignLibraryInTheCacheIsRebuilt) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  TempDir cache;
  ScopedEnv env("UOP_CACHE", cache.path().c_str());
  std::string good = compileCached("-O1");
  ASSERT_FALSE(good.empty());
#if defined(__x86_64__)
  std::string foreign = patched(good, 18, std::string("\xb7\x00", 2));
#else
  std::string foreign = patched(good, 18, std::string("\x3e\x00", 2));
#endif
  std::string key = hashKey("foreign");
  std::string t = cacheTempPath(".so");
  ASSERT_TRUE(test::writeFile(t, foreign));
  Result<std::string> path = cacheInstall(t, key, ".so");
  ASSERT_TRUE(path.ok()) << path.error();
  EXPECT_EQ(cacheLookup(key, ".so"), *path); // its checksum matches
  std::string warning;
  EXPECT_EQ(cacheLookupLibrary(key, &warning), "");
  EXPECT_EQ(warning.rfind("the cache entry " + *path + " is not a library for this machine: an "
                          "ELF file for ", 0),
            0u)
      << warning;
  EXPECT_NE(warning.find("; rebuilding it"), std::string::npos) << warning;
  EXPECT_EQ(cacheLookup(key, ".so"), "");
  // A good one is found.
  std::string goodKey = hashKey("good");
  t = cacheTempPath(".so");
  ASSERT_TRUE(test::writeFile(t, test::readFile(good)));
  path = cacheInstall(t, goodKey, ".so");
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(cacheLookupLibrary(goodKey, &warning), *path);
  EXPECT_EQ(warning, "");
}

/// A library that links LLVM's OpenMP runtime, as uop's CPU kernels do:
/// its entry records dyn-var during the call (args[0]) and the team a
/// parallel region would get at most (args[1]).
const char *kOmpSource = R"(
int omp_get_dynamic(void);
int omp_get_max_threads(void);
void uop_entry(void **args) {
  *(int *)args[0] = omp_get_dynamic();
  *(int *)args[1] = omp_get_max_threads();
}
int uop_dynamic_now(void) { return omp_get_dynamic(); }
)";

std::string compileOmpLibrary(const std::string &dir) {
  std::string src = dir + "/omp.c", so = dir + "/omp.so";
  if (!test::writeFile(src, kOmpSource))
    return "";
  std::string cmd = "clang-22 -O1 -shared -fPIC -o '" + so + "' '" + src +
                    "' -L/usr/lib/llvm-22/lib -lomp -Wl,-rpath,/usr/lib/llvm-22/lib "
                    ">/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? so : "";
}

// Kernels linking libomp run with OpenMP's dynamic team size (libomp's load
// balance: no fork/join waits for a thread another process holds), set for
// the call and put back; $OMP_DYNAMIC, when the user sets it, is left alone;
// a library without libomp is called as it is.
TEST(LoaderTest, OpenMPKernelsRunWithDynamicTeams) {
  TempDir tmp;
  std::string so = compileOmpLibrary(tmp.path());
  if (so.empty())
    GTEST_SKIP() << "no clang-22 with LLVM's OpenMP runtime";
  int dyn = -1, threads = -1;
  void *args[] = {&dyn, &threads};
  {
    ScopedEnv env("OMP_DYNAMIC", nullptr);
    Result<CpuKernel> k = CpuKernel::load(so);
    ASSERT_TRUE(k.ok()) << k.error();
    EXPECT_TRUE(k->adjustsThreads());
    (*k)(args);
    EXPECT_EQ(dyn, 1);
    EXPECT_GE(threads, 1);
    auto now = reinterpret_cast<int (*)()>(k->library().symbol("uop_dynamic_now"));
    ASSERT_NE(now, nullptr);
    EXPECT_EQ(now(), 0); // put back
    // The kernels' own entry points (Executable::profile) alike.
    dyn = -1;
    k->call(k->entry(), args);
    EXPECT_EQ(dyn, 1);
    EXPECT_EQ(now(), 0);
  }
  {
    ScopedEnv env("OMP_DYNAMIC", "false");
    Result<CpuKernel> k = CpuKernel::load(so);
    ASSERT_TRUE(k.ok()) << k.error();
    EXPECT_FALSE(k->adjustsThreads());
    dyn = -1;
    (*k)(args);
    EXPECT_EQ(dyn, 0);
  }
  // No libomp: nothing to adjust.
  if (haveCompiler()) {
    ScopedEnv cache("UOP_CACHE", tmp.path().c_str());
    ScopedEnv env("OMP_DYNAMIC", nullptr);
    std::string plain = compileCached("-O1");
    ASSERT_FALSE(plain.empty());
    Result<CpuKernel> k = CpuKernel::load(plain);
    ASSERT_TRUE(k.ok()) << k.error();
    EXPECT_FALSE(k->adjustsThreads());
  }
}

// $UOP_PROFILE: set and not "0" profiles embedders' runs; a number above 1
// is the runs each kernel's time is the best of (at most 1000).
TEST(TimingTest, ProfileRunsFromTheEnvironment) {
  const std::pair<const char *, int> cases[] = {
      {nullptr, 1}, {"1", 1}, {"yes", 1}, {"20", 20}, {"20x", 1}, {"-5", 1}, {"5000", 1000}};
  for (auto [value, runs] : cases) {
    ScopedEnv env("UOP_PROFILE", value);
    EXPECT_EQ(profileRuns(), runs) << (value ? value : "(unset)");
  }
  ScopedEnv off("UOP_PROFILE", "0");
  EXPECT_FALSE(profileRequested());
  ScopedEnv on("UOP_PROFILE", "20");
  EXPECT_TRUE(profileRequested());
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
