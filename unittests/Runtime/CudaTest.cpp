//===- CudaTest.cpp - Tests of the CUDA driver runtime --------------------===//
//
// Part of the uop project. Three kinds of test:
//  - no driver (UOP_LIBCUDA naming a missing library or a library that is no
//    driver): one "no CUDA device: " line, never a crash;
//  - a fake driver, compiled here from C (FakeDriver below): host memory for
//    device memory and C functions for kernels, so that the whole
//    CudaProgram/Executable path (copies, launch order, parameters,
//    temporaries kept across runs, events, error messages with the JIT log)
//    runs on a machine without a GPU;
//  - the real driver (GpuTest.*): a hand-written sm_90 PTX vector add through
//    Executable::loadCuda and a bundle; skipped without a GPU. On a GPU host:
//      build-rt/unittests/Runtime/UopRuntimeTests --gtest_filter='GpuTest.*'
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "ToyStep.h"
#include "Uop/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <cmath>
#include <dlfcn.h>

using namespace uop::rt;
using uop::rt::test::ScopedEnv;
using uop::rt::test::TempDir;

namespace {

bool haveCompiler() {
  static int have = -1;
  if (have < 0)
    have = std::system("cc --version >/dev/null 2>&1") == 0;
  return have == 1;
}

/// A CUDA driver of host memory: enough of the driver API for CudaProgram.
/// Kernels are C functions found by name; a module must contain ".entry
/// NAME" for NAME to be found; PTX containing "INVALID" fails to JIT with a
/// log. With -DFAKE_INIT_FAILS, cuInit reports no device.
const char *kFakeDriver = R"(
#include <stdlib.h>
#include <string.h>
#include <time.h>
typedef unsigned long long dptr;
static int live_allocs, live_ctx, live_modules, launches;
int fake_live_allocs(void) { return live_allocs; }
int fake_live_ctx(void) { return live_ctx; }
int fake_live_modules(void) { return live_modules; }
int fake_launches(void) { return launches; }
int cuInit(unsigned f) {
#ifdef FAKE_INIT_FAILS
  return 100;
#else
  return 0;
#endif
}
int cuDriverGetVersion(int *v) { *v = 12040; return 0; }
int cuGetErrorName(int e, const char **s) {
  switch (e) {
  case 0: *s = "CUDA_SUCCESS"; return 0;
  case 1: *s = "CUDA_ERROR_INVALID_VALUE"; return 0;
  case 2: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
  case 100: *s = "CUDA_ERROR_NO_DEVICE"; return 0;
  case 218: *s = "CUDA_ERROR_INVALID_PTX"; return 0;
  case 500: *s = "CUDA_ERROR_NOT_FOUND"; return 0;
  }
  *s = 0; return 1;
}
int cuGetErrorString(int e, const char **s) {
  switch (e) {
  case 0: *s = "no error"; return 0;
  case 1: *s = "invalid argument"; return 0;
  case 2: *s = "out of memory"; return 0;
  case 100: *s = "no CUDA-capable device is detected"; return 0;
  case 218: *s = "a PTX JIT compilation failed"; return 0;
  case 500: *s = "named symbol not found"; return 0;
  }
  *s = 0; return 1;
}
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
int cuDeviceGet(int *d, int i) { if (i != 0) return 1; *d = 0; return 0; }
int cuDeviceGetName(char *name, int len, int d) { strncpy(name, "Fake GPU", len); return 0; }
int cuDeviceGetAttribute(int *v, int a, int d) { *v = a == 75 ? 9 : 0; return 0; }
static int ctx_object;
int cuDevicePrimaryCtxRetain(void **c, int d) { ++live_ctx; *c = &ctx_object; return 0; }
int cuDevicePrimaryCtxRelease_v2(int d) { --live_ctx; return 0; }
int cuCtxSetCurrent(void *c) { return c == &ctx_object ? 0 : 1; }
int cuCtxSynchronize(void) { return 0; }
int cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *opts, void **vals) {
  if (strstr((const char *)image, "INVALID")) {
    for (unsigned i = 0; i < n; ++i)
      if (opts[i] == 5)
        strcpy((char *)vals[i], "ptxas fatal : bad PTX\nline 2\n");
    return 218;
  }
  *m = strdup((const char *)image);
  ++live_modules;
  return 0;
}
int cuModuleUnload(void *m) { free(m); --live_modules; return 0; }
/* Kernels: params[i] points at the i-th device pointer. */
typedef void (*kernel_fn)(void **params, unsigned threads);
static void vadd(void **p, unsigned n) {
  float *a = *(float **)p[0], *b = *(float **)p[1], *out = *(float **)p[2];
  for (unsigned i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
/* count(temp, out): temp[0] += 1; out[0] = temp[0] (temporaries persist). */
static void count(void **p, unsigned n) {
  int *t = *(int **)p[0], *out = *(int **)p[1];
  out[0] = ++t[0];
}
/* twice(x): x[i] *= 2 (in place). */
static void twice(void **p, unsigned n) {
  float *x = *(float **)p[0];
  for (unsigned i = 0; i < n; ++i) x[i] *= 2;
}
/* ToyStep.h's programs: sgd(w, x, loss, w'), scale(loss, scale, count, scaled, count'). */
static void sgd(void **p, unsigned n) {
  const float *w = *(float **)p[0], *x = *(float **)p[1];
  float *loss = *(float **)p[2], *nw = *(float **)p[3], l = 0;
  for (int i = 0; i < 4; ++i) { float d = w[i] - x[i]; l += d * d; nw[i] = w[i] - 0.2f * d; }
  *loss = l;
}
static void scale(void **p, unsigned n) {
  const float *loss = *(float **)p[0], *s = *(float **)p[1], *c = *(float **)p[2];
  *(*(float **)p[3]) = *loss * *s;
  *(*(float **)p[4]) = *c + 1.0f;
}
/* TMA: a map records what it was encoded from (address, type, rank, dims,
   row stride, box, swizzle, L2 promotion); tmap(a, out, map) writes them to
   out, the address as a byte offset from a. */
static int encodes;
int fake_encodes(void) { return encodes; }
int cuTensorMapEncodeTiled(void *map, int type, unsigned rank, void *addr,
                           const unsigned long long *dims, const unsigned long long *strides,
                           const unsigned *box, const unsigned *es, int il, int sw, int l2,
                           int oob) {
  unsigned long long *m = (unsigned long long *)map;
  ++encodes;
  m[0] = (unsigned long long)(size_t)addr; m[1] = type; m[2] = rank; m[3] = dims[0];
  m[4] = dims[1]; m[5] = strides[0]; m[6] = box[0]; m[7] = box[1]; m[8] = sw; m[9] = l2;
  return 0;
}
static void tmap(void **p, unsigned n) {
  char *a = *(char **)p[0];
  float *out = *(float **)p[1];
  unsigned long long *m = *(unsigned long long **)p[2];
  out[0] = (float)((char *)(size_t)m[0] - a);
  for (int i = 1; i < 10; ++i) out[i] = (float)m[i];
}
struct fn { const char *name; kernel_fn f; unsigned nparams; };
static struct fn fns[] = {{"vadd", vadd, 3}, {"count", count, 2}, {"twice", twice, 1},
                          {"sgd", sgd, 4}, {"scale", scale, 5}, {"tmap", tmap, 3}};
int cuModuleGetFunction(void **f, void *m, const char *name) {
  char entry[256] = ".entry ";
  strncat(entry, name, 200);
  if (!strstr((const char *)m, entry)) return 500;
  for (unsigned i = 0; i < sizeof(fns) / sizeof(fns[0]); ++i)
    if (!strcmp(fns[i].name, name)) { *f = &fns[i]; return 0; }
  return 500;
}
int cuMemAlloc_v2(dptr *p, size_t n) {
  if (n > ((size_t)1 << 40)) return 2;
  *p = (dptr)(size_t)malloc(n); ++live_allocs; return 0;
}
int cuMemFree_v2(dptr p) { free((void *)(size_t)p); --live_allocs; return 0; }
int cuMemcpyHtoD_v2(dptr d, const void *s, size_t n) { memcpy((void *)(size_t)d, s, n); return 0; }
int cuMemcpyDtoH_v2(void *d, dptr s, size_t n) { memcpy(d, (void *)(size_t)s, n); return 0; }
int cuMemsetD8_v2(dptr d, unsigned char v, size_t n) { memset((void *)(size_t)d, v, n); return 0; }
/* Graphs: a capture records kernels, copies and fills; a launch replays them. */
struct node { int kind; struct fn *f; dptr vals[8]; unsigned threads; dptr dst, src; size_t n;
              unsigned char value; };
struct graph { struct node nodes[512]; int n; };
static struct graph *capture;
static void *capture_stream;
static int live_streams, live_graphs;
int fake_live_streams(void) { return live_streams; }
int fake_live_graphs(void) { return live_graphs; }
static struct node *record(void *stream) {
  if (!capture || stream != capture_stream || capture->n >= 512) return 0;
  return &capture->nodes[capture->n++];
}
static void run_kernel(struct fn *f, dptr *vals, unsigned threads) {
  void *params[8];
  for (unsigned i = 0; i < f->nparams; ++i) params[i] = &vals[i];
  ++launches;
  f->f(params, threads);
}
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned shared, void *stream, void **params, void **extra) {
  if (gy != 1 || gz != 1 || by != 1 || bz != 1) return 1;
  struct fn *k = (struct fn *)f;
  struct node *nd = record(stream);
  if (nd) {
    nd->kind = 0; nd->f = k; nd->threads = gx * bx;
    for (unsigned i = 0; i < k->nparams; ++i) nd->vals[i] = *(dptr *)params[i];
    return 0;
  }
  ++launches;
  k->f(params, gx * bx);
  return 0;
}
#ifndef FAKE_NO_STREAMS
int cuStreamCreate(void **s, unsigned flags) { *s = malloc(1); ++live_streams; return 0; }
int cuStreamDestroy_v2(void *s) { free(s); --live_streams; return 0; }
int cuStreamSynchronize(void *s) { return 0; }
int cuMemcpyDtoD_v2(dptr d, dptr s, size_t n) { memmove((void *)(size_t)d, (void *)(size_t)s, n); return 0; }
int cuMemcpyDtoDAsync_v2(dptr d, dptr s, size_t n, void *st) {
  struct node *nd = record(st);
  if (nd) { nd->kind = 1; nd->dst = d; nd->src = s; nd->n = n; return 0; }
  memmove((void *)(size_t)d, (void *)(size_t)s, n); return 0;
}
int cuMemcpyHtoDAsync_v2(dptr d, const void *s, size_t n, void *st) { memcpy((void *)(size_t)d, s, n); return 0; }
int cuMemcpyDtoHAsync_v2(void *d, dptr s, size_t n, void *st) { memcpy(d, (void *)(size_t)s, n); return 0; }
int cuMemsetD8Async(dptr d, unsigned char v, size_t n, void *st) {
  struct node *nd = record(st);
  if (nd) { nd->kind = 2; nd->dst = d; nd->value = v; nd->n = n; return 0; }
  memset((void *)(size_t)d, v, n); return 0;
}
int cuStreamBeginCapture_v2(void *s, int mode) {
  if (capture) return 1;
  capture = calloc(1, sizeof *capture); capture_stream = s; return 0;
}
int cuStreamEndCapture(void *s, void **g) {
  if (!capture || s != capture_stream) return 1;
  *g = capture; capture = 0; ++live_graphs; return 0;
}
int cuGraphInstantiateWithFlags(void **e, void *g, unsigned long long flags) { *e = g; return 0; }
int cuGraphGetNodes(void *g, void **nodes, size_t *n) { *n = ((struct graph *)g)->n; return 0; }
int cuGraphLaunch(void *e, void *s) {
  struct graph *g = (struct graph *)e;
  for (int i = 0; i < g->n; ++i) {
    struct node *nd = &g->nodes[i];
    if (nd->kind == 0) run_kernel(nd->f, nd->vals, nd->threads);
    else if (nd->kind == 1) memmove((void *)(size_t)nd->dst, (void *)(size_t)nd->src, nd->n);
    else memset((void *)(size_t)nd->dst, nd->value, nd->n);
  }
  return 0;
}
int cuGraphExecDestroy(void *e) { return 0; }
int cuGraphDestroy(void *g) { free(g); --live_graphs; return 0; }
#endif
int cuEventCreate(void **e, unsigned flags) { *e = calloc(1, sizeof(double)); return 0; }
int cuEventDestroy_v2(void *e) { free(e); return 0; }
int cuEventRecord(void *e, void *s) {
  struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
  *(double *)e = ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6; return 0;
}
int cuEventSynchronize(void *e) { return 0; }
int cuEventElapsedTime(float *ms, void *a, void *b) {
  *ms = (float)(*(double *)b - *(double *)a); return 0;
}
)";

/// The fake driver, compiled once per process (with `flags`); "" without a
/// compiler.
std::string fakeDriver(const std::string &flags = "") {
  static TempDir dir;
  static std::map<std::string, std::string> built;
  if (auto it = built.find(flags); it != built.end())
    return it->second;
  std::string src = dir.file("fake.c"),
              so = dir.file("libfakecuda" + std::to_string(built.size()) + ".so");
  std::string path;
  if (test::writeFile(src, kFakeDriver) &&
      std::system(("cc -shared -fPIC " + flags + " -o '" + so + "' '" + src + "'").c_str()) == 0)
    path = so;
  built[flags] = path;
  return path;
}

/// A counter of the fake driver's (the library is already loaded: dlopen
/// gives the same copy).
int fakeCount(const std::string &lib, const char *fn) {
  void *h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return -1;
  auto f = reinterpret_cast<int (*)()>(dlsym(h, fn));
  int v = f ? f() : -1;
  dlclose(h);
  return v;
}

/// out = a + b, 8 floats: value arg 2 as (2, 4).
HostPlan vaddPlan(const std::string &kernel = "vadd") {
  HostPlan p;
  p.form = HostPlan::Shaped;
  p.args = {{PlanArg::Input, 0, DType::F32, 8},
            {PlanArg::Input, 1, DType::F32, 8},
            {PlanArg::Output, -1, DType::F32, 8}};
  p.values = {{2, {2, 4}}};
  p.kernels = {{kernel, 1, 8, 96, ""}};
  PlanLaunch l;
  l.kernel = 0;
  l.args = {0, 1, 2};
  l.grid[0] = 2;
  l.block[0] = 4;
  p.launches = {l};
  p.numLaunches = 1;
  return p;
}

const char *kFakePtx = "// fake\n.visible .entry vadd(\n.visible .entry count(\n"
                       ".visible .entry twice(\n";

TEST(CudaTest, NoDriverLibrary) {
  ScopedEnv env("UOP_LIBCUDA", "/nonexistent/libcuda.so.1");
  Result<std::shared_ptr<CudaDevice>> dev = CudaDevice::get();
  ASSERT_FALSE(dev.ok());
  EXPECT_EQ(dev.error().rfind("no CUDA device: /nonexistent/libcuda.so.1 not found (", 0), 0u)
      << dev.error();
  EXPECT_TRUE(isNoCudaDevice(dev.error()));
  EXPECT_EQ(dev.error().find('\n'), std::string::npos);

  // The executable and a CUDA bundle say the same, unprefixed.
  Result<std::unique_ptr<Executable>> exe = Executable::loadCuda(vaddPlan(), kFakePtx);
  ASSERT_FALSE(exe.ok());
  EXPECT_EQ(exe.error(), dev.error());
  Result<std::unique_ptr<Executable>> b =
      loadBundle(Bundle::cuda(vaddPlan(), kFakePtx, "sm_90"), "p.uopx");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error(), dev.error());
}

TEST(CudaTest, LibraryThatIsNoDriver) {
  ScopedEnv env("UOP_LIBCUDA", "libm.so.6");
  Result<std::shared_ptr<CudaDevice>> dev = CudaDevice::get();
  ASSERT_FALSE(dev.ok());
  EXPECT_EQ(dev.error(), "no CUDA device: libm.so.6 has no cuInit (not a CUDA driver, or one "
                         "too old)");
}

TEST(CudaTest, InitFailsAndBadDeviceNumber) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  std::string failing = fakeDriver("-DFAKE_INIT_FAILS");
  ASSERT_FALSE(failing.empty());
  {
    ScopedEnv env("UOP_LIBCUDA", failing.c_str());
    Result<std::shared_ptr<CudaDevice>> dev = CudaDevice::get();
    ASSERT_FALSE(dev.ok());
    EXPECT_EQ(dev.error(),
              "no CUDA device: cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)");
  }
  std::string lib = fakeDriver();
  ScopedEnv env("UOP_LIBCUDA", lib.c_str());
  {
    ScopedEnv d("UOP_CUDA_DEVICE", "3");
    Result<std::shared_ptr<CudaDevice>> dev = CudaDevice::get();
    ASSERT_FALSE(dev.ok());
    EXPECT_EQ(dev.error(),
              "no CUDA device: UOP_CUDA_DEVICE=3, but the driver sees 1 device(s) (0 to 0)");
  }
  {
    ScopedEnv d("UOP_CUDA_DEVICE", "gpu0");
    Result<std::shared_ptr<CudaDevice>> dev = CudaDevice::get();
    ASSERT_FALSE(dev.ok());
    EXPECT_EQ(dev.error(), "no CUDA device: UOP_CUDA_DEVICE='gpu0' is not a device number");
  }
  ScopedEnv d("UOP_CUDA_DEVICE", "0");
  Result<std::shared_ptr<CudaDevice>> dev = CudaDevice::get();
  ASSERT_TRUE(dev.ok()) << dev.error();
  EXPECT_EQ((*dev)->name(), "Fake GPU");
  EXPECT_EQ((*dev)->chip(), "sm_90");
  EXPECT_EQ((*dev)->driverVersion(), 12040);
  // One device object (one retained context) while it lives.
  Result<std::shared_ptr<CudaDevice>> again = CudaDevice::get();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), dev->get());
  EXPECT_EQ(fakeCount(lib, "fake_live_ctx"), 1);
}

TEST(CudaTest, FakeDriverRunsAShapedProgram) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  std::string lib = fakeDriver();
  ASSERT_FALSE(lib.empty());
  ScopedEnv env("UOP_LIBCUDA", lib.c_str());
  int allocsBefore = fakeCount(lib, "fake_live_allocs");
  {
    Result<std::unique_ptr<Executable>> exe = Executable::loadCuda(vaddPlan(), kFakePtx);
    ASSERT_TRUE(exe.ok()) << exe.error();
    EXPECT_EQ((*exe)->backend(), Backend::CUDA);
    // No device buffers until a run copies through them.
    EXPECT_EQ(fakeCount(lib, "fake_live_allocs"), allocsBefore);
    HostBuffer a(DType::F32, {8}), b(DType::F32, {8});
    a.fillRandom(1);
    b.fillRandom(2);
    Result<std::vector<HostBuffer>> values = (*exe)->run({{0, &a}, {1, &b}});
    ASSERT_TRUE(values.ok()) << values.error();
    EXPECT_EQ(fakeCount(lib, "fake_live_allocs"), allocsBefore + 3);
    ASSERT_EQ(values->size(), 1u);
    EXPECT_EQ((*values)[0].shape(), (std::vector<int64_t>{2, 4}));
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ((*values)[0].as<float>()[i], a.as<float>()[i] + b.as<float>()[i]);
    // The checks of run() hold for CUDA as for CPU.
    HostBuffer small(DType::F32, {4});
    Result<std::vector<HostBuffer>> bad = (*exe)->run({{0, &a}, {1, &small}});
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error(), "buffer slot 1 is 8 x f32, but the buffer given holds 4 x f32");
    EXPECT_EQ((*exe)->run({{0, &a}}).error(), "missing input for buffer slot 1");

    // bench: sorted per-run times, and the outputs of the last run.
    HostBuffer out(DType::F32, {8});
    int launchesBefore = fakeCount(lib, "fake_launches");
    Result<std::vector<double>> times = (*exe)->bench({a.data(), b.data(), out.data()}, 300);
    ASSERT_TRUE(times.ok()) << times.error();
    ASSERT_EQ(times->size(), 300u);
    EXPECT_TRUE(std::is_sorted(times->begin(), times->end()));
    EXPECT_GE((*times)[0], 0.0);
    EXPECT_EQ(fakeCount(lib, "fake_launches"), launchesBefore + 301);
    EXPECT_EQ(out.as<float>()[7], a.as<float>()[7] + b.as<float>()[7]);
  }
  // Every device buffer freed with the executable.
  EXPECT_EQ(fakeCount(lib, "fake_live_allocs"), allocsBefore);
  EXPECT_EQ(fakeCount(lib, "fake_live_modules"), 0);
}

/// A kernel with a tensor map (uop-lower-gemm's warpgroup kernels): the
/// plan's text keeps it, the runtime encodes it for the buffer bound to its
/// parameter (at its offset) once per buffer and passes it after the
/// launch's buffers.
TEST(CudaTest, FakeDriverTensorMaps) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  std::string lib = fakeDriver();
  ASSERT_FALSE(lib.empty());
  ScopedEnv env("UOP_LIBCUDA", lib.c_str());
  HostPlan p;
  p.form = HostPlan::Shaped;
  p.args = {{PlanArg::Input, 0, DType::F32, 8}, {PlanArg::Output, -1, DType::F32, 16}};
  p.values = {{1, {16}}};
  PlanKernel k{"tmap", 1, 0, 0, ""};
  PlanTensorMap t;
  t.param = 0;
  t.dtype = DType::F32;
  t.offset = 1;
  t.dims[0] = 2;
  t.dims[1] = 3;
  t.stride = 16;
  t.box[0] = 2;
  t.box[1] = 2;
  t.swizzle = 128;
  k.tensorMaps = {t};
  p.kernels = {k};
  PlanLaunch l;
  l.kernel = 0;
  l.args = {0, 1};
  p.launches = {l};
  p.numLaunches = 1;

  // The plan's text and its code signature carry the map.
  Result<HostPlan> back = HostPlan::parse(p.serialize());
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_EQ(back->kernels[0].tensorMaps.size(), 1u);
  EXPECT_EQ(back->serialize(), p.serialize());
  EXPECT_NE(p.serialize().find("\ntma 0 0 f32 1 2 3 16 2 2 128\n"), std::string::npos);
  EXPECT_NE(p.codeSignature().find(" tma=0:0:f32:1:2,3:16:2,2:128"), std::string::npos);
  std::string text = p.serialize();
  std::string bad = text;
  bad.replace(bad.find("16 2 2 128"), 10, "16 2 300 128");
  EXPECT_EQ(HostPlan::parse(bad).error(), "bad host plan line: 'tma 0 0 f32 1 2 3 16 2 300 128'");

  int encodesBefore = fakeCount(lib, "fake_encodes");
  Result<std::unique_ptr<Executable>> exe =
      Executable::loadCuda(p, "// fake\n.visible .entry tmap(\n");
  ASSERT_TRUE(exe.ok()) << exe.error();
  HostBuffer a(DType::F32, {8});
  a.fillRandom(1);
  for (int run = 0; run < 2; ++run) {
    Result<std::vector<HostBuffer>> values = (*exe)->run({{0, &a}});
    ASSERT_TRUE(values.ok()) << values.error();
    const float *out = (*values)[0].as<float>();
    // 4 bytes in (offset 1 f32), FLOAT32 (7), rank 2, dims, stride, box,
    // 128-byte swizzle (3), L2 promotion of 256 bytes (3).
    std::vector<float> want = {4, 7, 2, 2, 3, 16, 2, 2, 3, 3};
    EXPECT_EQ(std::vector<float>(out, out + 10), want);
  }
  // Encoded once for the buffer, not once a run.
  EXPECT_EQ(fakeCount(lib, "fake_encodes"), encodesBefore + 1);
}

TEST(CudaTest, FakeDriverTemporariesPersistAndInPlace) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  std::string lib = fakeDriver();
  ASSERT_FALSE(lib.empty());
  ScopedEnv env("UOP_LIBCUDA", lib.c_str());
  // count(temp, out): a temporary is zeroed once and kept across runs.
  HostPlan p;
  p.args = {{PlanArg::Output, -1, DType::I32, 1}, {PlanArg::Temp, -1, DType::I32, 1}};
  p.values = {{0, {}}};
  p.kernels = {{"count", 1, 0, 8, ""}};
  PlanLaunch l;
  l.kernel = 0;
  l.args = {1, 0};
  p.launches = {l};
  Result<std::unique_ptr<Executable>> exe = Executable::loadCuda(p, kFakePtx);
  ASSERT_TRUE(exe.ok()) << exe.error();
  for (int run = 1; run <= 3; ++run) {
    Result<std::vector<HostBuffer>> v = (*exe)->run({});
    ASSERT_TRUE(v.ok()) << v.error();
    EXPECT_EQ((*v)[0].as<int32_t>()[0], run);
  }

  // An in-place program: slot 0 read and written, twice per run (2 launches).
  HostPlan q;
  q.form = HostPlan::InPlace;
  q.args = {{PlanArg::Input, 0, DType::F32, 4, true, true}};
  q.kernels = {{"twice", 2, 4, 32, ""}};
  PlanLaunch t;
  t.kernel = 0;
  t.args = {0};
  t.block[0] = 4;
  q.launches = {t, t};
  Result<std::unique_ptr<Executable>> ip = Executable::loadCuda(q, kFakePtx);
  ASSERT_TRUE(ip.ok()) << ip.error();
  HostBuffer x(DType::F32, {4});
  for (int i = 0; i < 4; ++i)
    x.as<float>()[i] = float(i);
  Result<bool> ran = (*ip)->runInPlace({{0, &x}});
  ASSERT_TRUE(ran.ok()) << ran.error();
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(x.as<float>()[i], 4.0f * i);
  EXPECT_EQ((*ip)->run({}).error(),
            "run: this program reads and writes its buffers in place (use runInPlace)");
}

TEST(CudaTest, FakeDriverRunsOnDeviceMemory) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  std::string lib = fakeDriver();
  ASSERT_FALSE(lib.empty());
  ScopedEnv env("UOP_LIBCUDA", lib.c_str());
  int allocsBefore = fakeCount(lib, "fake_live_allocs");
  {
    Result<std::shared_ptr<Device>> dev = Device::cuda();
    ASSERT_TRUE(dev.ok()) << dev.error();
    EXPECT_EQ((*dev)->backend(), Backend::CUDA);
    EXPECT_EQ((*dev)->name(), "Fake GPU (sm_90)");
    Result<std::shared_ptr<Device>> again = Device::cuda();
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->get(), dev->get());
    Result<std::unique_ptr<Executable>> exe = Executable::loadCuda(vaddPlan(), kFakePtx);
    ASSERT_TRUE(exe.ok()) << exe.error();
    HostBuffer a(DType::F32, {8}), b(DType::F32, {8}), out(DType::F32, {8});
    a.fillRandom(1);
    b.fillRandom(2);
    auto da = (*dev)->allocate(a.bytes()), db = (*dev)->allocate(b.bytes()),
         dout = (*dev)->allocate(out.bytes());
    ASSERT_TRUE(da.ok() && db.ok() && dout.ok());
    ASSERT_TRUE((*dev)->copyIn(**da, a.data(), a.bytes()).ok());
    ASSERT_TRUE((*dev)->copyIn(**db, b.data(), b.bytes()).ok());
    // The program runs on the caller's buffers: no staging buffer of its own.
    Result<bool> ran = (*exe)->runOn({(*da)->ptr(), (*db)->ptr(), (*dout)->ptr()});
    ASSERT_TRUE(ran.ok()) << ran.error();
    EXPECT_EQ(fakeCount(lib, "fake_live_allocs"), allocsBefore + 3);
    ASSERT_TRUE((*dev)->copyOut(out.data(), **dout, out.bytes()).ok());
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ(out.as<float>()[i], a.as<float>()[i] + b.as<float>()[i]);
    // Device to device.
    ASSERT_TRUE((*dev)->copy(**da, **dout, 32).ok());
    HostBuffer back(DType::F32, {8});
    ASSERT_TRUE((*dev)->copyOut(back.data(), **da, 32).ok());
    EXPECT_EQ(back.as<float>()[3], out.as<float>()[3]);
    const DeviceStats &st = (*dev)->stats();
    EXPECT_EQ(st.copiesIn, 2u);
    EXPECT_EQ(st.bytesIn, 64u);
    EXPECT_EQ(st.copiesOut, 2u);
    EXPECT_EQ(st.copies, 1u);
    EXPECT_EQ(st.allocations, 3u);
    // Misuse is an error, never a crash.
    EXPECT_EQ((*exe)->runOn({(*da)->ptr()}).error(),
              "the program takes more buffers than the 1 given");
    EXPECT_EQ((*dev)->copyIn(**da, a.data(), 64).error(),
              "copy of 64 bytes into a device array of 32");
  }
  EXPECT_EQ(fakeCount(lib, "fake_live_allocs"), allocsBefore);
}

TEST(CudaTest, FakeDriverCapturesAGraph) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  std::string lib = fakeDriver();
  ASSERT_FALSE(lib.empty());
  ScopedEnv env("UOP_LIBCUDA", lib.c_str());
  {
    // twice(x) twice: x *= 4 per run, 2 launches.
    HostPlan q;
    q.form = HostPlan::InPlace;
    q.args = {{PlanArg::Input, 0, DType::F32, 4, true, true}};
    q.kernels = {{"twice", 2, 4, 32, ""}};
    PlanLaunch t;
    t.kernel = 0;
    t.args = {0};
    t.block[0] = 4;
    q.launches = {t, t};
    Result<std::unique_ptr<Executable>> exe = Executable::loadCuda(q, kFakePtx);
    ASSERT_TRUE(exe.ok()) << exe.error();
    Result<std::shared_ptr<Device>> dev = Device::cuda();
    ASSERT_TRUE(dev.ok());
    auto x = (*dev)->allocate(16);
    ASSERT_TRUE(x.ok());
    float init[4] = {0, 1, 2, 3};
    ASSERT_TRUE((*dev)->copyIn(**x, init, 16).ok());
    Result<CudaStream> stream = CudaStream::create(*CudaDevice::get());
    ASSERT_TRUE(stream.ok()) << stream.error();
    EXPECT_EQ(fakeCount(lib, "fake_live_streams"), 1);
    int before = fakeCount(lib, "fake_launches");
    Result<CudaGraph> graph = CudaGraph::capture(*stream, [&] {
      return (*exe)->cudaProgram()->launch({(*x)->ptr()}, &*stream);
    });
    ASSERT_TRUE(graph.ok()) << graph.error();
    EXPECT_EQ(graph->nodes(), 2u);
    EXPECT_EQ(fakeCount(lib, "fake_launches"), before); // captured, not run
    for (int i = 0; i < 3; ++i)
      ASSERT_TRUE(graph->launch(*stream).ok());
    ASSERT_TRUE(stream->synchronize().ok());
    EXPECT_EQ(fakeCount(lib, "fake_launches"), before + 6);
    float got[4];
    ASSERT_TRUE((*dev)->copyOut(got, **x, 16).ok());
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(got[i], 64.0f * i);
    // A stream's copies and fills are captured too.
    auto y = (*dev)->allocate(16);
    Result<CudaGraph> copies = CudaGraph::capture(*stream, [&]() -> Result<bool> {
      if (Result<bool> ok = stream->fill((*y)->ptr(), 0, 16); !ok)
        return ok;
      return stream->copy((*y)->ptr(), (*x)->ptr(), 8);
    });
    ASSERT_TRUE(copies.ok()) << copies.error();
    EXPECT_EQ(copies->nodes(), 2u);
    ASSERT_TRUE(copies->launch(*stream).ok());
    ASSERT_TRUE((*dev)->copyOut(got, **y, 16).ok());
    EXPECT_EQ(got[1], 64.0f);
    EXPECT_EQ(got[2], 0.0f);
    // An error while recording ends the capture; the stream captures again.
    Result<CudaGraph> failed =
        CudaGraph::capture(*stream, []() -> Result<bool> { return Error{"boom"}; });
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error(), "boom");
    Result<CudaGraph> again = CudaGraph::capture(*stream, [] { return Result<bool>(true); });
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again->nodes(), 0u);
  }
  EXPECT_EQ(fakeCount(lib, "fake_live_graphs"), 0);
  EXPECT_EQ(fakeCount(lib, "fake_live_streams"), 0);
}

TEST(CudaTest, FakeDriverWithoutStreams) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  std::string lib = fakeDriver("-DFAKE_NO_STREAMS");
  ASSERT_FALSE(lib.empty());
  ScopedEnv env("UOP_LIBCUDA", lib.c_str());
  Result<std::shared_ptr<CudaDevice>> dev = CudaDevice::get();
  ASSERT_TRUE(dev.ok()) << dev.error();
  Result<CudaStream> stream = CudaStream::create(*dev);
  ASSERT_FALSE(stream.ok());
  EXPECT_EQ(stream.error(), lib + " has no cuStreamCreate (CUDA streams and graphs need a driver "
                                  "of CUDA 11.4 or later)");
  // Programs still run, on the default stream.
  Result<std::unique_ptr<Executable>> exe = Executable::loadCuda(vaddPlan(), kFakePtx);
  ASSERT_TRUE(exe.ok()) << exe.error();
  HostBuffer a(DType::F32, {8}), b(DType::F32, {8});
  Result<std::vector<HostBuffer>> values = (*exe)->run({{0, &a}, {1, &b}});
  ASSERT_TRUE(values.ok()) << values.error();
}

TEST(CudaTest, FakeDriverReplaysAStep) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  std::string lib = fakeDriver();
  ASSERT_FALSE(lib.empty());
  ScopedEnv env("UOP_LIBCUDA", lib.c_str());
  StepBundle b = test::toyStepBundle(Backend::CUDA, "// sgd\n.visible .entry sgd(\n",
                                     "// scale\n.visible .entry scale(\n", "sm_90");
  test::ToyResult ref = test::toyReference(7);
  for (bool graph : {true, false}) {
    Result<std::unique_ptr<StepRunner>> runner = StepRunner::load(b, "toy.uopx", {graph});
    ASSERT_TRUE(runner.ok()) << runner.error();
    // Two graphs (one per parity of the state's buffers), each of the two
    // kernels and the copy of `prev`, which is no output of its own.
    EXPECT_EQ((*runner)->description(),
              graph ? "cuda, Fake GPU (sm_90), 2 CUDA graphs of 3 nodes"
                    : "cuda, Fake GPU (sm_90), kernels launched one by one");
    ASSERT_TRUE((*runner)->setData(0, test::toyBatches()).ok());
    int before = fakeCount(lib, "fake_launches");
    std::vector<double> losses;
    Result<bool> ran = (*runner)->run(7, 4, 0, [&](const StepReport &r) -> Result<bool> {
      losses.insert(losses.end(), r.values.begin(), r.values.end());
      return true;
    });
    ASSERT_TRUE(ran.ok()) << ran.error();
    EXPECT_EQ(fakeCount(lib, "fake_launches"), before + 14);
    ASSERT_EQ(losses.size(), 7u);
    for (int s = 0; s < 7; ++s)
      EXPECT_EQ(float(losses[s]), ref.losses[s]) << s;
    Result<HostBuffer> w = (*runner)->tensor(0);
    ASSERT_TRUE(w.ok()) << w.error();
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(w->as<float>()[i], ref.w[i]);
    EXPECT_EQ((*runner)->tensor(2)->as<float>()[0], ref.count);
    EXPECT_EQ((*runner)->tensor(3)->as<float>()[0], ref.prev);
    EXPECT_EQ((*runner)->output(1)->as<float>()[0], ref.scaled[6]);
  }
  EXPECT_EQ(fakeCount(lib, "fake_live_graphs"), 0);
}

TEST(CudaTest, FakeDriverErrors) {
  if (!haveCompiler())
    GTEST_SKIP() << "no C compiler (cc)";
  std::string lib = fakeDriver();
  ASSERT_FALSE(lib.empty());
  ScopedEnv env("UOP_LIBCUDA", lib.c_str());
  // A JIT failure carries the JIT log, on one line.
  Result<std::unique_ptr<Executable>> jit =
      Executable::loadCuda(vaddPlan(), ".version 8.0 INVALID\n");
  ASSERT_FALSE(jit.ok());
  EXPECT_EQ(jit.error(), "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation "
                         "failed): ptxas fatal : bad PTX; line 2");
  // Through a bundle: its name first, and a hint when it is for another chip.
  Result<std::unique_ptr<Executable>> other =
      loadBundle(Bundle::cuda(vaddPlan(), ".version 8.0\n.target sm_80 INVALID\n"), "old.uopx");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error(), "old.uopx: cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (a PTX JIT "
                           "compilation failed): ptxas fatal : bad PTX; line 2 (the bundle is for "
                           "sm_80; this device, Fake GPU, is sm_90)");
  // A plan kernel the PTX does not define.
  Result<std::unique_ptr<Executable>> missing = Executable::loadCuda(vaddPlan("softmax"), kFakePtx);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), "the CUDA module has no kernel 'softmax' (cuModuleGetFunction: "
                             "CUDA_ERROR_NOT_FOUND (named symbol not found))");
  // A launch the driver refuses names the call, the error and the launch.
  HostPlan p = vaddPlan();
  p.launches[0].grid[1] = 2;
  Result<std::unique_ptr<Executable>> exe = Executable::loadCuda(p, kFakePtx);
  ASSERT_TRUE(exe.ok()) << exe.error();
  HostBuffer a(DType::F32, {8}), b(DType::F32, {8});
  Result<std::vector<HostBuffer>> ran = (*exe)->run({{0, &a}, {1, &b}});
  ASSERT_FALSE(ran.ok());
  EXPECT_EQ(ran.error(), "cuLaunchKernel: CUDA_ERROR_INVALID_VALUE (invalid argument) launching "
                         "vadd with grid (2, 2, 1) and block (4, 1, 1)");
  // Allocation failure.
  Result<std::shared_ptr<CudaDevice>> dev = CudaDevice::get();
  ASSERT_TRUE(dev.ok());
  // Device memory draws from the memory budget (Memory.h, issue 32): past
  // it, an error before the driver is asked; within it, the driver's own.
  // (The failure asks the caches of freed memory to give theirs back: empty
  // them first, so that what is in use is this test's.)
  reclaimMemory();
  uint64_t inUse = memoryInUse();
  Result<DeviceBuffer> huge = DeviceBuffer::allocate(*dev, size_t(1) << 50);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().rfind("cannot allocate " + std::to_string(size_t(1) << 50) +
                                   " bytes for a CUDA device buffer: over the memory budget of ",
                               0),
            0u)
      << huge.error();
  ASSERT_TRUE(setMemoryBudget("2P").ok());
  Result<DeviceBuffer> refused = DeviceBuffer::allocate(*dev, size_t(1) << 50);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error(), "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory) allocating " +
                                 std::to_string(size_t(1) << 50) + " bytes");
  clearMemoryBudget();
  // Neither failure keeps any of the budget.
  EXPECT_EQ(memoryInUse(), inUse);
  {
    Result<DeviceBuffer> small = DeviceBuffer::allocate(*dev, 1000);
    ASSERT_TRUE(small.ok()) << small.error();
    EXPECT_EQ(memoryInUse(), inUse + 1000);
  }
  EXPECT_EQ(memoryInUse(), inUse);
  // No code at all.
  EXPECT_EQ(Executable::loadCuda(vaddPlan(), "").error(),
            "the CUDA program has neither PTX nor a cubin");
}

//===----------------------------------------------------------------------===//
// The real driver: skipped without a GPU.
//===----------------------------------------------------------------------===//

/// out[i] = a[i] + b[i] for i < 1000 (hand-written; ptxas -arch=sm_90 takes it).
const char *kVaddPtx = R"(.version 8.0
.target sm_90
.address_size 64

.visible .entry vadd(
	.param .u64 vadd_param_0,
	.param .u64 vadd_param_1,
	.param .u64 vadd_param_2
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<5>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<11>;

	ld.param.u64 	%rd1, [vadd_param_0];
	ld.param.u64 	%rd2, [vadd_param_1];
	ld.param.u64 	%rd3, [vadd_param_2];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r1, %r2, %r3;
	setp.ge.s32 	%p1, %r4, 1000;
	@%p1 bra 	DONE;
	cvta.to.global.u64 	%rd4, %rd1;
	cvta.to.global.u64 	%rd5, %rd2;
	cvta.to.global.u64 	%rd6, %rd3;
	mul.wide.s32 	%rd7, %r4, 4;
	add.s64 	%rd8, %rd4, %rd7;
	add.s64 	%rd9, %rd5, %rd7;
	add.s64 	%rd10, %rd6, %rd7;
	ld.global.f32 	%f1, [%rd8];
	ld.global.f32 	%f2, [%rd9];
	add.f32 	%f3, %f1, %f2;
	st.global.f32 	[%rd10], %f3;
DONE:
	ret;
}
)";

HostPlan gpuVaddPlan() {
  HostPlan p;
  p.args = {{PlanArg::Input, 0, DType::F32, 1000},
            {PlanArg::Input, 1, DType::F32, 1000},
            {PlanArg::Output, -1, DType::F32, 1000}};
  p.values = {{2, {1000}}};
  p.kernels = {{"vadd", 1, 1000, 12000, ""}};
  PlanLaunch l;
  l.kernel = 0;
  l.args = {0, 1, 2};
  l.grid[0] = 8;
  l.block[0] = 128;
  p.launches = {l};
  p.numLaunches = 1;
  return p;
}

/// The real device, or skip.
#define REQUIRE_GPU()                                                                              \
  ScopedEnv realDriver("UOP_LIBCUDA", nullptr);                                                    \
  Result<std::shared_ptr<CudaDevice>> gpu = CudaDevice::get();                                     \
  if (!gpu.ok()) {                                                                                 \
    ASSERT_TRUE(isNoCudaDevice(gpu.error())) << gpu.error();                                       \
    GTEST_SKIP() << gpu.error();                                                                   \
  }

TEST(GpuTest, VectorAddFromPtx) {
  REQUIRE_GPU();
  std::printf("device %d: %s (%s), driver %d\n", (*gpu)->ordinal(), (*gpu)->name().c_str(),
              (*gpu)->chip().c_str(), (*gpu)->driverVersion());
  Result<std::unique_ptr<Executable>> exe = Executable::loadCuda(gpuVaddPlan(), kVaddPtx);
  ASSERT_TRUE(exe.ok()) << exe.error();
  HostBuffer a(DType::F32, {1000}), b(DType::F32, {1000});
  a.fillRandom(1);
  b.fillRandom(2);
  for (int rep = 0; rep < 2; ++rep) {
    Result<std::vector<HostBuffer>> values = (*exe)->run({{0, &a}, {1, &b}});
    ASSERT_TRUE(values.ok()) << values.error();
    ASSERT_EQ(values->size(), 1u);
    for (int i = 0; i < 1000; ++i)
      ASSERT_EQ((*values)[0].as<float>()[i], a.as<float>()[i] + b.as<float>()[i]) << i;
  }
  HostBuffer out(DType::F32, {1000});
  Result<std::vector<double>> times = (*exe)->bench({a.data(), b.data(), out.data()}, 20);
  ASSERT_TRUE(times.ok()) << times.error();
  ASSERT_EQ(times->size(), 20u);
  EXPECT_GT(median(*times), 0.0);
  EXPECT_LT(median(*times), 0.1);
  EXPECT_EQ(out.as<float>()[999], a.as<float>()[999] + b.as<float>()[999]);
  std::printf("vadd: median %.3f us\n", median(*times) * 1e6);
}

TEST(GpuTest, VectorAddThroughABundle) {
  REQUIRE_GPU();
  TempDir tmp;
  std::string path = tmp.file("vadd.uopx");
  ASSERT_TRUE(writeBundle(path, Bundle::cuda(gpuVaddPlan(), kVaddPtx, "sm_90")).ok());
  Result<std::unique_ptr<Executable>> exe = loadBundle(path);
  ASSERT_TRUE(exe.ok()) << exe.error();
  HostBuffer a(DType::F32, {1000}), b(DType::F32, {1000});
  a.fillRandom(3);
  b.fillRandom(4);
  Result<std::vector<HostBuffer>> values = (*exe)->run({{0, &a}, {1, &b}});
  ASSERT_TRUE(values.ok()) << values.error();
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ((*values)[0].as<float>()[i], a.as<float>()[i] + b.as<float>()[i]) << i;
  Result<Bundle> again = bundleOf(**exe);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again->ptx, kVaddPtx);
  EXPECT_EQ(again->arch, (*gpu)->chip());
}

TEST(GpuTest, DriverErrors) {
  REQUIRE_GPU();
  std::string bad = std::string(kVaddPtx);
  bad.replace(bad.find("add.f32"), 7, "add.q32");
  Result<std::unique_ptr<Executable>> jit = Executable::loadCuda(gpuVaddPlan(), bad);
  ASSERT_FALSE(jit.ok());
  EXPECT_EQ(jit.error().rfind("cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (", 0), 0u)
      << jit.error();
  EXPECT_NE(jit.error().find("ptxas"), std::string::npos) << jit.error();
  Result<std::unique_ptr<Executable>> missing = Executable::loadCuda(
      gpuVaddPlan(), std::string(kVaddPtx).replace(std::string(kVaddPtx).find("vadd("), 4, "vsum"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().rfind("the CUDA module has no kernel 'vadd' (cuModuleGetFunction: "
                                  "CUDA_ERROR_NOT_FOUND",
                                  0),
            0u)
      << missing.error();
  // A block larger than the hardware's.
  HostPlan p = gpuVaddPlan();
  p.launches[0].block[0] = 4096;
  p.launches[0].grid[0] = 1;
  Result<std::unique_ptr<Executable>> exe = Executable::loadCuda(p, kVaddPtx);
  ASSERT_TRUE(exe.ok()) << exe.error();
  HostBuffer a(DType::F32, {1000}), b(DType::F32, {1000});
  Result<std::vector<HostBuffer>> ran = (*exe)->run({{0, &a}, {1, &b}});
  ASSERT_FALSE(ran.ok());
  EXPECT_EQ(ran.error().rfind("cuLaunchKernel: CUDA_ERROR_INVALID_VALUE", 0), 0u) << ran.error();
}

} // namespace
