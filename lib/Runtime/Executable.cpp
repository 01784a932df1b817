//===- Executable.cpp - a compiled program, loaded and runnable -*- C++ -*-===//

#include "Uop/Runtime/Executable.h"
#include "Uop/Runtime/Cuda.h"
#include "Uop/Runtime/Memory.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace uop::rt;

const char *uop::rt::backendName(Backend backend) {
  return backend == Backend::CUDA ? "cuda" : "cpu";
}

Executable::Executable(HostPlan plan, std::string library, CpuKernel kernel)
    : hostPlan(std::move(plan)), libraryPath(std::move(library)), kernel(std::move(kernel)) {}

Executable::Executable(HostPlan plan, std::string ptx, std::string cubin,
                       std::unique_ptr<CudaProgram> program)
    : hostPlan(std::move(plan)), ptxText(std::move(ptx)), cubinImage(std::move(cubin)),
      cuda(std::move(program)) {}

Executable::~Executable() = default;

Result<std::unique_ptr<Executable>> Executable::loadCuda(HostPlan plan, std::string ptx,
                                                         std::string cubin) {
  // The plan its PTX was compiled with, before the driver sees either.
  if (Result<bool> ok = plan.checkCodeSignature(ptxPlanSignature(ptx)); !ok)
    return Error{ok.error()};
  auto program = CudaProgram::load(plan, ptx, cubin);
  if (!program.ok())
    return Error{program.error()};
  return std::unique_ptr<Executable>(
      new Executable(std::move(plan), std::move(ptx), std::move(cubin), program.take()));
}

Result<std::vector<double>> Executable::bench(const std::vector<void *> &args, int runs) {
  if (cuda)
    return cuda->bench(args, runs);
  std::string failure;
  std::vector<double> times = timeRuns(
      [&] {
        if (!failure.empty())
          return;
        if (Result<bool> ran = runPlain(args); !ran)
          failure = ran.error();
      },
      runs);
  if (!failure.empty())
    return Error{failure};
  return times;
}

Result<std::unique_ptr<Executable>> Executable::load(HostPlan plan, const std::string &library) {
  auto kernel = CpuKernel::load(library);
  if (!kernel.ok())
    return Error{kernel.error()};
  // The plan its library was compiled with (a library uop did not make
  // carries none, and is taken as it is).
  if (auto *signature = static_cast<const char *>(kernel->library().symbol(kPlanSignatureSymbol))) {
    if (Result<bool> ok = plan.checkCodeSignature(std::string(signature, strnlen(signature, 1 << 24)));
        !ok)
      return Error{ok.error()};
  }
  return std::unique_ptr<Executable>(new Executable(std::move(plan), library, kernel.take()));
}

Result<bool> Executable::check(size_t i, const HostBuffer &b) const {
  const PlanArg &a = hostPlan.args[i];
  if (b.dtype() == a.dtype && b.numel() == a.numel)
    return true;
  return Error{"buffer slot " + std::to_string(a.slot) + " is " + std::to_string(a.numel) + " x " +
               dtypeName(a.dtype) + ", but the buffer given holds " + std::to_string(b.numel()) +
               " x " + dtypeName(b.dtype())};
}

std::string uop::rt::kernelEntryName(const std::string &kernel) { return "uop_kernel_" + kernel; }

bool uop::rt::profileRequested() {
  const char *env = std::getenv("UOP_PROFILE");
  return env && *env && std::strcmp(env, "0") != 0;
}

int uop::rt::profileRuns() {
  const char *env = std::getenv("UOP_PROFILE");
  char *end = nullptr;
  long n = env ? std::strtol(env, &end, 10) : 0;
  return end && *end == '\0' && n > 1 ? static_cast<int>(std::min<long>(n, 1000)) : 1;
}

std::string uop::rt::formatProfile(const std::vector<KernelProfile> &profile) {
  std::string out;
  char line[512];
  double total = 0, flops = 0, bytes = 0;
  size_t width = 6;
  for (const KernelProfile &k : profile)
    width = std::max(width, k.name.size());
  auto rates = [](double f, double b, double t, char *buf, size_t n) {
    double s = std::max(t, 1e-12);
    std::snprintf(buf, n, "%9.3f ms %9.2f GFLOP/s %8.2f GB/s", t * 1e3, f / s / 1e9, b / s / 1e9);
  };
  for (const KernelProfile &k : profile) {
    char r[128];
    rates(k.flops, k.bytes, k.seconds, r, sizeof(r));
    std::snprintf(line, sizeof(line), "profile: %-*s %4u launch(es) %s  opts %s\n", (int)width,
                  k.name.c_str(), k.launches, r, k.opts.empty() ? "-" : k.opts.c_str());
    out += line;
    total += k.seconds;
    flops += k.flops;
    bytes += k.bytes;
  }
  char r[128];
  rates(flops, bytes, total, r, sizeof(r));
  std::snprintf(line, sizeof(line), "profile: %-*s %4zu kernel(s)   %s\n", (int)width, "total",
                profile.size(), r);
  out += line;
  return out;
}

Result<std::vector<KernelProfile>> Executable::profile(const std::vector<void *> &args, int runs) {
  if (cuda)
    return Error{"profile: per-kernel times are measured on the CPU backend only"};
  // The kernels' own entry points, looked up once.
  std::vector<CpuKernel::EntryFn> entries;
  for (const PlanKernel &k : hostPlan.kernels) {
    std::string name = hostPlan.form == HostPlan::InPlace ? "uop_entry" : kernelEntryName(k.name);
    auto fn = reinterpret_cast<CpuKernel::EntryFn>(kernel->library().symbol(name));
    if (!fn)
      return Error{"profile: " + libraryPath + " has no entry point " + name +
                   " (compiled by an older uop; recompile it)"};
    entries.push_back(fn);
  }
  if (Result<bool> warm = runPlain(args); !warm)
    return Error{warm.error()};
  if (Result<bool> bound = bind(args); !bound)
    return Error{bound.error()};
  std::vector<KernelProfile> best(hostPlan.kernels.size());
  for (size_t i = 0; i < best.size(); ++i) {
    const PlanKernel &k = hostPlan.kernels[i];
    best[i].name = k.name;
    best[i].opts = k.opts;
    best[i].seconds = -1;
  }
  std::vector<void *> ptrs;
  for (int r = 0; r < std::max(runs, 1); ++r) {
    std::vector<double> seconds(best.size(), 0);
    std::vector<unsigned> launches(best.size(), 0);
    if (hostPlan.form == HostPlan::InPlace) {
      auto t0 = std::chrono::steady_clock::now();
      kernel->call(entries[0], scratch.data());
      seconds[0] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      launches[0] = 1;
    }
    for (const PlanLaunch &l : hostPlan.form == HostPlan::InPlace ? std::vector<PlanLaunch>()
                                                                 : hostPlan.launches) {
      ptrs.clear();
      for (unsigned a : l.args)
        ptrs.push_back(scratch.at(a));
      auto t0 = std::chrono::steady_clock::now();
      kernel->call(entries.at(l.kernel), ptrs.data());
      seconds[l.kernel] +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++launches[l.kernel];
    }
    for (size_t i = 0; i < best.size(); ++i)
      if (best[i].seconds < 0 || seconds[i] < best[i].seconds) {
        best[i].seconds = seconds[i];
        best[i].launches = launches[i];
      }
  }
  for (size_t i = 0; i < best.size(); ++i) {
    best[i].flops = hostPlan.kernels[i].flops * best[i].launches;
    best[i].bytes = hostPlan.kernels[i].bytes * best[i].launches;
  }
  return best;
}

Result<bool> Executable::runRaw(const std::vector<void *> &args) {
  if (cuda || !profileRequested())
    return runPlain(args);
  // $UOP_PROFILE: embedders' runs are profiled, one line per kernel.
  auto p = profile(args, profileRuns());
  if (!p)
    return Error{p.error()};
  std::fputs(formatProfile(*p).c_str(), stderr);
  return true;
}

Result<bool> Executable::runOn(const std::vector<DevicePtr> &args) {
  if (cuda) {
    if (Result<bool> ok = cuda->launch(args); !ok)
      return ok;
    return cuda->readChecks();
  }
  std::vector<void *> ptrs;
  ptrs.reserve(args.size());
  for (DevicePtr a : args)
    ptrs.push_back(reinterpret_cast<void *>(static_cast<uintptr_t>(a)));
  return runPlain(ptrs);
}

Result<std::vector<KernelProfile>> Executable::profileOn(const std::vector<DevicePtr> &args,
                                                         int runs) {
  if (!cuda) {
    std::vector<void *> ptrs;
    for (DevicePtr a : args)
      ptrs.push_back(reinterpret_cast<void *>(static_cast<uintptr_t>(a)));
    return profile(ptrs, runs);
  }
  // A warm-up run (lazy loading), then each launch between two events.
  if (Result<bool> ok = cuda->launch(args); !ok)
    return Error{ok.error()};
  const std::shared_ptr<CudaDevice> &dev = cuda->device();
  std::vector<CudaEvent> events;
  for (size_t i = 0; i <= hostPlan.launches.size(); ++i) {
    Result<CudaEvent> e = CudaEvent::create(dev);
    if (!e)
      return Error{e.error()};
    events.push_back(e.take());
  }
  std::vector<KernelProfile> best(hostPlan.kernels.size());
  for (size_t k = 0; k < best.size(); ++k) {
    best[k].name = hostPlan.kernels[k].name;
    best[k].opts = hostPlan.kernels[k].opts;
    best[k].seconds = -1;
  }
  for (int r = 0; r < std::max(runs, 1); ++r) {
    if (Result<bool> ok = events[0].record(); !ok)
      return Error{ok.error()};
    for (size_t i = 0; i < hostPlan.launches.size(); ++i) {
      if (Result<bool> ok = cuda->launchOne(i, args); !ok)
        return Error{ok.error()};
      if (Result<bool> ok = events[i + 1].record(); !ok)
        return Error{ok.error()};
    }
    if (Result<bool> ok = events.back().synchronize(); !ok)
      return Error{ok.error()};
    std::vector<double> seconds(best.size(), 0);
    std::vector<unsigned> launches(best.size(), 0);
    for (size_t i = 0; i < hostPlan.launches.size(); ++i) {
      Result<double> t = events[i + 1].secondsSince(events[i]);
      if (!t)
        return Error{t.error()};
      seconds[hostPlan.launches[i].kernel] += *t;
      ++launches[hostPlan.launches[i].kernel];
    }
    for (size_t k = 0; k < best.size(); ++k)
      if (best[k].seconds < 0 || seconds[k] < best[k].seconds) {
        best[k].seconds = seconds[k];
        best[k].launches = launches[k];
      }
  }
  for (size_t k = 0; k < best.size(); ++k) {
    best[k].flops = hostPlan.kernels[k].flops * best[k].launches;
    best[k].bytes = hostPlan.kernels[k].bytes * best[k].launches;
  }
  if (Result<bool> ok = cuda->readChecks(); !ok)
    return Error{ok.error()};
  return best;
}

Result<bool> Executable::runPlain(const std::vector<void *> &args) {
  if (cuda)
    return cuda->run(args);
  if (Result<bool> bound = bind(args); !bound)
    return bound;
  (void)takeKernelAllocFailure(); // a failure reported is this run's
  (*kernel)(scratch.data());
  return checkFailures();
}

Result<bool> Executable::checkFailures() const {
  // A failed run-time check (see PlanArg::Check) is the run's error.
  if (std::none_of(hostPlan.args.begin(), hostPlan.args.end(),
                   [](const PlanArg &a) { return a.kind == PlanArg::Check; }))
    return true;
  std::string failure =
      hostPlan.checkFailure([&](size_t i) { return static_cast<const int32_t *>(scratch[i]); });
  if (!failure.empty()) {
    // A kernel's heap allocation that failed: why, as the allocator saw it.
    if (failure.find(": error: cannot allocate ") != std::string::npos) {
      std::string why = takeKernelAllocFailure();
      failure += ": " + (why.empty() ? std::string("out of memory") : why);
    }
    return Error{failure};
  }
  return true;
}

Result<bool> Executable::bind(const std::vector<void *> &args) {
  if (temps.empty()) {
    for (const PlanArg &a : hostPlan.args) {
      if (!a.owned())
        continue;
      auto t = HostBuffer::create(a.dtype, {a.numel});
      if (!t.ok())
        return Error{"cannot allocate a temporary buffer: " + t.error()};
      temps.push_back(t.take());
    }
  }
  scratch.clear();
  size_t next = 0, temp = 0;
  for (const PlanArg &a : hostPlan.args) {
    if (a.kind == PlanArg::Check)
      std::memset(temps[temp].data(), 0, kCheckRecordSize * sizeof(int32_t));
    if (a.owned())
      scratch.push_back(temps[temp++].data());
    else if (next < args.size())
      scratch.push_back(args[next++]);
    else
      return Error{"the program takes more buffers than the " + std::to_string(args.size()) +
                   " given"};
  }
  return true;
}

Result<std::vector<HostBuffer>>
Executable::values(const std::vector<const HostBuffer *> &argBuffers) const {
  // Non-temporary arguments come first in a plan, so plan index = buffer index.
  std::vector<HostBuffer> out;
  for (const PlanValue &v : hostPlan.values) {
    const HostBuffer &flat = *argBuffers.at(v.arg);
    // No larger than its argument (HostPlan::parse checks), which exists.
    Result<HostBuffer> value = HostBuffer::create(flat.dtype(), v.shape);
    if (!value)
      return Error{value.error()};
    std::memcpy(value->data(), flat.data(), std::min(value->bytes(), flat.bytes()));
    out.push_back(value.take());
  }
  return out;
}

Result<std::vector<HostBuffer>>
Executable::run(const std::map<int64_t, const HostBuffer *> &inputs) {
  if (hostPlan.form != HostPlan::Shaped)
    return Error{"run: this program reads and writes its buffers in place (use runInPlace)"};
  std::vector<HostBuffer> outputs;
  outputs.reserve(hostPlan.args.size());
  std::vector<const HostBuffer *> argBuffers;
  std::vector<void *> ptrs;
  for (size_t i = 0; i < hostPlan.args.size(); ++i) {
    const PlanArg &a = hostPlan.args[i];
    if (a.kind == PlanArg::Input) {
      auto it = inputs.find(a.slot);
      if (it == inputs.end() || !it->second)
        return Error{"missing input for buffer slot " + std::to_string(a.slot)};
      auto ok = check(i, *it->second);
      if (!ok.ok())
        return Error{ok.error()};
      argBuffers.push_back(it->second);
      // The program only reads its inputs.
      ptrs.push_back(const_cast<void *>(it->second->data()));
    } else if (a.kind == PlanArg::Output) {
      auto b = HostBuffer::create(a.dtype, {a.numel});
      if (!b.ok())
        return Error{"cannot allocate an output buffer: " + b.error()};
      outputs.push_back(b.take());
      argBuffers.push_back(&outputs.back());
      ptrs.push_back(outputs.back().data());
    }
  }
  auto ran = runRaw(ptrs);
  if (!ran.ok())
    return Error{ran.error()};
  return values(argBuffers);
}

Result<bool> Executable::runInPlace(const std::map<int64_t, HostBuffer *> &buffers) {
  if (hostPlan.form != HostPlan::InPlace)
    return Error{"runInPlace: this is a shaped program (use run)"};
  std::vector<void *> ptrs;
  for (size_t i = 0; i < hostPlan.args.size(); ++i) {
    const PlanArg &a = hostPlan.args[i];
    if (a.owned())
      continue;
    auto it = buffers.find(a.slot);
    if (it == buffers.end() || !it->second)
      return Error{"missing buffer for slot " + std::to_string(a.slot)};
    auto ok = check(i, *it->second);
    if (!ok.ok())
      return Error{ok.error()};
    ptrs.push_back(it->second->data());
  }
  return runRaw(ptrs);
}
