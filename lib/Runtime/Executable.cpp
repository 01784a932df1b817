//===- Executable.cpp - a compiled program, loaded and runnable -*- C++ -*-===//

#include "Uop/Runtime/Executable.h"
#include "Uop/Runtime/Cuda.h"

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
        if (Result<bool> ran = runRaw(args); !ran)
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

Result<bool> Executable::runRaw(const std::vector<void *> &args) {
  if (cuda)
    return cuda->run(args);
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
  bool checked = false;
  for (const PlanArg &a : hostPlan.args) {
    if (a.kind == PlanArg::Check) {
      std::memset(temps[temp].data(), 0, kCheckRecordSize * sizeof(int32_t));
      checked = true;
    }
    if (a.owned())
      scratch.push_back(temps[temp++].data());
    else if (next < args.size())
      scratch.push_back(args[next++]);
    else
      return Error{"the program takes more buffers than the " + std::to_string(args.size()) +
                   " given"};
  }
  (*kernel)(scratch.data());
  if (checked) {
    // A failed run-time check (see PlanArg::Check) is the run's error.
    std::string failure =
        hostPlan.checkFailure([&](size_t i) { return static_cast<const int32_t *>(scratch[i]); });
    if (!failure.empty())
      return Error{failure};
  }
  return true;
}

std::vector<HostBuffer>
Executable::values(const std::vector<const HostBuffer *> &argBuffers) const {
  // Non-temporary arguments come first in a plan, so plan index = buffer index.
  std::vector<HostBuffer> out;
  for (const PlanValue &v : hostPlan.values) {
    const HostBuffer &flat = *argBuffers.at(v.arg);
    // No larger than its argument (HostPlan::parse checks), which exists.
    HostBuffer value(flat.dtype(), v.shape);
    std::memcpy(value.data(), flat.data(), value.bytes());
    out.push_back(std::move(value));
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
