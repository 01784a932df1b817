//===- Loader.cpp - Loading and calling compiled CPU code -----------------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Loader.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <dlfcn.h>
#include <limits>

using namespace uop::rt;

Result<std::unique_ptr<SharedLibrary>>
SharedLibrary::open(const std::string &path) {
  // dlopen searches the library path for a name without '/'; a compiled
  // artifact is a file, so make such a name relative to the current directory.
  std::string file =
      path.find('/') == std::string::npos ? "./" + path : path;
  dlerror();
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *msg = dlerror();
    return Error(path + ": cannot load: " + (msg ? msg : "dlopen failed"));
  }
  return std::unique_ptr<SharedLibrary>(new SharedLibrary(handle, path));
}

void *SharedLibrary::symbol(const std::string &name) const {
  return dlsym(handle, name.c_str());
}

SharedLibrary::~SharedLibrary() {
  if (handle)
    dlclose(handle);
}

Result<CpuKernel> CpuKernel::load(const std::string &soPath,
                                  const std::string &entry) {
  Result<std::unique_ptr<SharedLibrary>> lib = SharedLibrary::open(soPath);
  if (!lib)
    return Error(lib.error());
  void *sym = (*lib)->symbol(entry);
  if (!sym)
    return Error(soPath + ": no symbol '" + entry + "'");
  return CpuKernel(std::shared_ptr<SharedLibrary>(lib.take()),
                   reinterpret_cast<EntryFn>(sym));
}

void CpuKernel::operator()(void **args) const { fn(args); }

void CpuKernel::operator()(std::vector<HostBuffer *> &buffers) const {
  std::vector<void *> args;
  args.reserve(buffers.size());
  for (HostBuffer *b : buffers)
    args.push_back(b ? b->data() : nullptr);
  fn(args.data());
}

std::vector<double> uop::rt::timeRuns(const std::function<void()> &fn,
                                      int reps) {
  std::vector<double> times;
  if (reps <= 0)
    return times;
  fn(); // warm-up: page faults, caches, lazy binding
  times.reserve(reps);
  for (int i = 0; i < reps; ++i) {
    auto start = std::chrono::steady_clock::now();
    fn();
    auto end = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double>(end - start).count());
  }
  std::sort(times.begin(), times.end());
  return times;
}

double uop::rt::median(std::vector<double> v) {
  if (v.empty())
    return std::numeric_limits<double>::quiet_NaN();
  size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  double hi = v[mid];
  if (v.size() % 2)
    return hi;
  double lo = *std::max_element(v.begin(), v.begin() + mid);
  return (lo + hi) / 2;
}
