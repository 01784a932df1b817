//===- BundleTest.cpp - Tests of .uopx bundles ----------------------------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "Uop/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <dirent.h>

using namespace uop::rt;
using uop::rt::test::ScopedEnv;
using uop::rt::test::TempDir;

namespace {

/// out[i] = a[i] + 2 * b[i] for 6 floats; the entry of a 1-kernel plan.
const char *kSource = R"(
void uop_entry(void **args) {
  const float *a = (const float *)args[0], *b = (const float *)args[1];
  float *out = (float *)args[2];
  for (int i = 0; i < 6; ++i)
    out[i] = a[i] + 2.0f * b[i];
}
)";

/// The shared library's bytes ("" without a compiler).
std::string libraryBytes() {
  static std::string bytes = [] {
    TempDir tmp;
    std::string src = tmp.file("k.c"), so = tmp.file("k.so");
    if (!test::writeFile(src, kSource) ||
        std::system(("cc -O1 -shared -fPIC -o '" + so + "' '" + src + "'").c_str()) != 0)
      return std::string();
    return test::readFile(so);
  }();
  return bytes;
}

#define REQUIRE_LIBRARY()                                                                          \
  std::string lib = libraryBytes();                                                                \
  if (lib.empty())                                                                                 \
  GTEST_SKIP() << "no C compiler (cc)"

HostPlan plan() {
  HostPlan p;
  p.args = {{PlanArg::Input, 0, DType::F32, 6},
            {PlanArg::Input, 1, DType::F32, 6},
            {PlanArg::Output, -1, DType::F32, 6}};
  p.values = {{2, {2, 3}}};
  p.kernels = {{"e_6", 1, 12, 72, ""}};
  PlanLaunch l;
  l.kernel = 0;
  l.args = {0, 1, 2};
  p.launches = {l};
  p.numLaunches = 1;
  return p;
}

void expectRuns(Executable &exe) {
  HostBuffer a(DType::F32, {6}), b(DType::F32, {6});
  a.fillRandom(1);
  b.fillRandom(2);
  Result<std::vector<HostBuffer>> v = exe.run({{0, &a}, {1, &b}});
  ASSERT_TRUE(v.ok()) << v.error();
  ASSERT_EQ(v->size(), 1u);
  EXPECT_EQ((*v)[0].shape(), (std::vector<int64_t>{2, 3}));
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ((*v)[0].as<float>()[i], a.as<float>()[i] + 2.0f * b.as<float>()[i]);
}

size_t filesIn(const std::string &dir) {
  size_t n = 0;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      n += e->d_name[0] != '.';
    closedir(d);
  }
  return n;
}

TEST(BundleTest, CpuRoundTrip) {
  REQUIRE_LIBRARY();
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.file("cache").c_str());
  std::string path = tmp.file("p.uopx");
  Bundle b = Bundle::cpu(plan(), lib, hostMachine() + " znver5");
  b.producer = "BundleTest";
  ASSERT_TRUE(writeBundle(path, b).ok());
  EXPECT_EQ(filesIn(tmp.path()), 1u) << "the temporary is gone after the rename";

  Result<Bundle> r = readBundle(path);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->target, Backend::CPU);
  EXPECT_EQ(r->arch, hostMachine() + " znver5");
  EXPECT_EQ(r->producer, "BundleTest");
  EXPECT_EQ(r->library, lib);
  EXPECT_EQ(r->plan.serialize(), plan().serialize());
  EXPECT_EQ(encodeBundle(*r), test::readFile(path));

  Result<std::unique_ptr<Executable>> exe = loadBundle(path);
  ASSERT_TRUE(exe.ok()) << exe.error();
  EXPECT_EQ((*exe)->backend(), Backend::CPU);
  // The library went into the (checksummed) cache, keyed by its bytes.
  EXPECT_EQ((*exe)->library().rfind(tmp.file("cache") + "/", 0), 0u) << (*exe)->library();
  EXPECT_TRUE(cacheVerify((*exe)->library()).ok());
  expectRuns(**exe);
  Result<std::unique_ptr<Executable>> again = loadBundle(path);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ((*again)->library(), (*exe)->library());

  // bench on the CPU: sorted wall-clock times.
  HostBuffer x(DType::F32, {6}), y(DType::F32, {6}), out(DType::F32, {6});
  Result<std::vector<double>> times = (*exe)->bench({x.data(), y.data(), out.data()}, 5);
  ASSERT_TRUE(times.ok()) << times.error();
  EXPECT_EQ(times->size(), 5u);
  EXPECT_TRUE(std::is_sorted(times->begin(), times->end()));

  // The bundle of a loaded executable is the same bundle.
  Result<Bundle> of = bundleOf(**exe);
  ASSERT_TRUE(of.ok()) << of.error();
  EXPECT_EQ(of->library, lib);
  EXPECT_EQ(of->arch, hostMachine());
  EXPECT_EQ(of->plan.serialize(), plan().serialize());

  // Overwriting is atomic too, and leaves one file.
  ASSERT_TRUE(writeBundle(path, *of).ok());
  EXPECT_EQ(filesIn(tmp.path()), 2u); // p.uopx and cache/
}

TEST(BundleTest, WithoutAUsableCache) {
  REQUIRE_LIBRARY();
  TempDir tmp;
  ASSERT_TRUE(test::writeFile(tmp.file("not-a-dir"), "x"));
  ScopedEnv env("UOP_CACHE", tmp.file("not-a-dir").c_str());
  ScopedEnv tmpdir("TMPDIR", tmp.path().c_str());
  Result<std::unique_ptr<Executable>> exe = loadBundle(Bundle::cpu(plan(), lib), "p.uopx");
  ASSERT_TRUE(exe.ok()) << exe.error();
  expectRuns(**exe);
  EXPECT_EQ(filesIn(tmp.path()), 1u) << "the private copy is removed once loaded";
}

TEST(BundleTest, CudaRoundTrip) {
  TempDir tmp;
  std::string path = tmp.file("k.uopx");
  ASSERT_TRUE(writeBundle(path, Bundle::cuda(plan(), ".version 8.0\n", "sm_90",
                                             std::string("\x7f"
                                                         "ELF\0cubin",
                                                         10)))
                  .ok());
  Result<Bundle> r = readBundle(path);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->target, Backend::CUDA);
  EXPECT_EQ(r->arch, "sm_90");
  EXPECT_EQ(r->ptx, ".version 8.0\n");
  EXPECT_EQ(r->cubin, std::string("\x7f"
                                  "ELF\0cubin",
                                  10));
  EXPECT_TRUE(r->library.empty());

  // The chip defaults to the PTX's .target.
  EXPECT_EQ(Bundle::cuda(plan(), "//\n.version 8.0\n  .target sm_90a, texmode_independent\n").arch,
            "sm_90a");
  EXPECT_EQ(ptxTarget(".version 8.0\n.target sm_80\n.address_size 64\n"), "sm_80");
  EXPECT_EQ(ptxTarget("// .target sm_70 in a comment\n.targetx\n"), "");
}

TEST(BundleTest, BadFiles) {
  REQUIRE_LIBRARY();
  TempDir tmp;
  std::string good = encodeBundle(Bundle::cpu(plan(), lib));
  auto errorOf = [&](const std::string &bytes) {
    std::string path = tmp.file("bad.uopx");
    EXPECT_TRUE(test::writeFile(path, bytes));
    Result<Bundle> r = readBundle(path);
    EXPECT_FALSE(r.ok());
    // Every error names the file, on one line.
    EXPECT_EQ(r.error().rfind(path + ": ", 0), 0u) << r.error();
    EXPECT_EQ(r.error().find('\n'), std::string::npos) << r.error();
    return r.error().substr(path.size() + 2);
  };
  EXPECT_EQ(errorOf(""), "not a uop bundle (an empty file)");
  EXPECT_EQ(errorOf("hello, world"), "not a uop bundle (bad magic)");
  EXPECT_EQ(errorOf(lib), "not a uop bundle (bad magic)");
  EXPECT_EQ(errorOf(good.substr(0, 12)), "truncated uop bundle (12 bytes)");
  EXPECT_EQ(errorOf(good.substr(0, good.size() - 10)),
            "truncated uop bundle (" + std::to_string(good.size() - 10) +
                " bytes; its header says " + std::to_string(good.size()) + ")");
  EXPECT_EQ(errorOf(good + "xyz"), "malformed uop bundle (" + std::to_string(good.size() + 3) +
                                       " bytes; its header says " + std::to_string(good.size()) +
                                       ")");
  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x20;
  EXPECT_EQ(errorOf(flipped), "corrupted uop bundle (checksum mismatch)");
  std::string sum = good;
  sum[good.size() - 1] ^= 1;
  EXPECT_EQ(errorOf(sum), "corrupted uop bundle (checksum mismatch)");
  std::string v7 = good;
  v7[8] = 7;
  EXPECT_EQ(errorOf(v7), "a uop bundle of format version 7 (this uop reads versions 1 and 2)");
  // A lying size costs no huge read or allocation.
  std::string huge = good;
  for (int i = 16; i < 24; ++i)
    huge[i] = '\x7f';
  EXPECT_NE(errorOf(huge).find("truncated uop bundle"), std::string::npos);

  // Well-formed and checksummed, but not a valid bundle inside.
  Bundle badPlan = Bundle::cpu(plan(), lib);
  std::string bytes = encodeBundle(badPlan);
  size_t at = bytes.find("uop-host-plan 4");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 14] = '9';
  // Re-checksum the body so that only the plan is wrong.
  std::string body = bytes.substr(0, bytes.size() - 32);
  std::array<uint8_t, 32> d = Sha256().update(body).final();
  bytes = body + std::string(reinterpret_cast<const char *>(d.data()), 32);
  EXPECT_EQ(errorOf(bytes), "the bundle's plan: not a uop host plan (or another version of it)");

  // A target this uop does not run, with a line break and a control
  // character in it: quoted printable, the error stays one line.
  std::string foreign = encodeBundle(Bundle::cpu(plan(), lib));
  size_t target = foreign.find(std::string("target") + std::string("\x03\0\0\0\0\0\0\0cpu", 11));
  ASSERT_NE(target, std::string::npos);
  foreign.replace(target + 14, 3, "c\n\x01");
  body = foreign.substr(0, foreign.size() - 32);
  d = Sha256().update(body).final();
  foreign = body + std::string(reinterpret_cast<const char *>(d.data()), 32);
  EXPECT_EQ(errorOf(foreign), "a uop bundle for target 'c??' (this uop runs cpu and cuda)");

  Result<Bundle> none = readBundle(tmp.file("missing.uopx"));
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error(), tmp.file("missing.uopx") + ": cannot read: No such file or directory");
  Result<Bundle> dir = readBundle(tmp.path());
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error(), tmp.path() + ": cannot read: Is a directory");

  Result<bool> w = writeBundle(tmp.file("no/such/dir/p.uopx"), badPlan);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(),
            "cannot write " + tmp.file("no/such/dir/p.uopx") + ": No such file or directory");
}

TEST(BundleTest, ForeignCode) {
  REQUIRE_LIBRARY();
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.file("cache").c_str());
  // A bundle that says it is for another machine.
  std::string other = hostMachine() == "AArch64" ? "x86-64" : "AArch64";
  Result<std::unique_ptr<Executable>> arch =
      loadBundle(Bundle::cpu(plan(), lib, other + " neoverse-v2"), "p.uopx");
  ASSERT_FALSE(arch.ok());
  EXPECT_EQ(arch.error(),
            "p.uopx: a CPU bundle for " + other + ", not this machine (" + hostMachine() + ")");
  // One that lies about it: the loader's ELF checks refuse the code.
  std::string elf = lib;
  elf[18] = static_cast<char>(183); // e_machine = EM_AARCH64 (x86-64's 62 on AArch64)
  elf[19] = 0;
  if (hostMachine() == "AArch64")
    elf[18] = 62;
  Result<std::unique_ptr<Executable>> lying = loadBundle(Bundle::cpu(plan(), elf), "p.uopx");
  ASSERT_FALSE(lying.ok());
  EXPECT_NE(lying.error().find("p.uopx: "), std::string::npos) << lying.error();
  EXPECT_NE(lying.error().find("cannot load: an ELF file for " + other + ", not this machine (" +
                               hostMachine() + ")"),
            std::string::npos)
      << lying.error();
  Result<std::unique_ptr<Executable>> garbage =
      loadBundle(Bundle::cpu(plan(), "not a library"), "p.uopx");
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.error().find("cannot load: not an ELF shared object (no ELF magic)"),
            std::string::npos)
      << garbage.error();
}

} // namespace
