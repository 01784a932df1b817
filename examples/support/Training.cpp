//===- Training.cpp - where the training examples run, and their exported step -===//

#include "Training.h"

#include "Uop/Runtime/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <type_traits>

namespace uop::examples {

namespace {
llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error makeDirs(const std::string &dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return makeError(dir + ": cannot create: " + ec.message());
  return llvm::Error::success();
}

llvm::Error saveAll(const std::string &dir,
                    const std::vector<std::pair<std::string, Tensor>> &state) {
  if (auto e = makeDirs(dir))
    return e;
  for (auto &[name, t] : state)
    if (auto e = t.save(dir + "/" + name + ".npy"))
      return e;
  return llvm::Error::success();
}
} // namespace

llvm::Expected<std::unique_ptr<TensorContext>> makeContext(const std::string &target,
                                                           const std::string &chip,
                                                           uint64_t seed,
                                                           bool fuseEpilogue) {
  std::optional<mlir::uop::CompileTarget> t = mlir::uop::parseCompileTarget(target);
  if (!t)
    return makeError("--target: '" + target + "' (expected cpu, emulate or cuda)");
  TensorOptions options;
  options.compile.target = *t;
  options.compile.chip = chip;
  options.compile.fuseEpilogue = fuseEpilogue;
  options.seed = seed;
  return TensorContext::create(options);
}

StepExport::StepExport(std::string dir, std::string target, std::string chip)
    : dir(std::move(dir)), target(std::move(target)), chip(std::move(chip)) {}

llvm::Error StepExport::write(TinyJit &jit, const TensorContext &ctx,
                              const std::vector<std::pair<std::string, Tensor>> &state) {
  std::optional<mlir::uop::CompileTarget> t = mlir::uop::parseCompileTarget(target);
  if (!t || *t == mlir::uop::CompileTarget::Emulate)
    return makeError("--export-target: '" + target + "' (expected cpu or cuda)");
  mlir::uop::CompileOptions options = ctx.options().compile;
  options.target = *t;
  if (!chip.empty())
    options.chip = chip;
  if (auto e = makeDirs(dir))
    return e;
  if (auto e = jit.exportStep(dir + "/step.uopx", options, state))
    return e;
  return saveAll(dir + "/state0", state);
}

template <typename T>
llvm::Error StepExport::writeBatches(const std::string &name, const std::vector<int64_t> &shape,
                                     const std::vector<std::vector<T>> &batches, int64_t count) {
  std::vector<int64_t> full = {count};
  full.insert(full.end(), shape.begin(), shape.end());
  auto buf = rt::HostBuffer::create(std::is_same_v<T, float> ? DType::F32 : DType::I32, full);
  if (!buf.ok())
    return makeError(buf.error());
  size_t each = batches.empty() ? 0 : batches[0].size();
  for (int64_t i = 0; i < count; ++i)
    std::copy(batches[(i + 2) % batches.size()].begin(), batches[(i + 2) % batches.size()].end(),
              buf->template as<T>() + i * each);
  rt::Result<bool> ok = rt::writeNpy(dir + "/" + name + ".npy", *buf);
  if (!ok)
    return makeError(ok.error());
  return llvm::Error::success();
}

template llvm::Error StepExport::writeBatches<float>(const std::string &,
                                                     const std::vector<int64_t> &,
                                                     const std::vector<std::vector<float>> &,
                                                     int64_t);
template llvm::Error StepExport::writeBatches<int32_t>(const std::string &,
                                                       const std::vector<int64_t> &,
                                                       const std::vector<std::vector<int32_t>> &,
                                                       int64_t);

llvm::Error StepExport::finish(const std::vector<double> &losses,
                               const std::vector<std::pair<std::string, Tensor>> &state) {
  std::error_code ec;
  llvm::raw_fd_ostream csv(dir + "/reference.csv", ec);
  if (ec)
    return makeError(dir + "/reference.csv: cannot write: " + ec.message());
  csv << "step,loss\n";
  for (size_t s = 2; s < losses.size(); ++s)
    csv << (s - 1) << "," << llvm::format("%.17g", losses[s]) << "\n";
  return saveAll(dir + "/reference-state", state);
}

std::string StepExport::command(int64_t steps) const {
  return "uop-runner " + dir + "/step.uopx --steps=" + std::to_string(steps - 2) + " --data 0=" +
         dir + "/x.npy --data 1=" + dir + "/y.npy";
}

} // namespace uop::examples
