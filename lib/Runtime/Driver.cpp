//===- Driver.cpp - what uop-run and uop-runner do with a program -*- C++ -*-===//

#include "Uop/Runtime/Driver.h"

#include "Uop/Runtime/File.h"
#include "Uop/Runtime/Loader.h"
#include "Uop/Runtime/Npy.h"

#include <cinttypes>
#include <map>

using namespace uop::rt;

std::optional<uint64_t> uop::rt::parseUnsigned(const std::string &text) {
  if (text.empty() || text.size() > 20)
    return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10)
      return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

Result<std::pair<int64_t, std::string>> uop::rt::parseSlotArg(const std::string &flag,
                                                              const std::string &arg) {
  size_t eq = arg.find('=');
  std::string slot = arg.substr(0, eq), file = eq == std::string::npos ? "" : arg.substr(eq + 1);
  std::optional<uint64_t> n = parseUnsigned(slot);
  if (file.empty() || !n || *n > uint64_t(INT64_MAX))
    return Error{"--" + flag + " expects SLOT=FILE.npy, got '" + arg + "'"};
  return std::make_pair(static_cast<int64_t>(*n), file);
}

std::string uop::rt::formatPlan(const HostPlan &plan) {
  static const char *kinds[] = {"input", "output", "temp", "checks"};
  std::string s;
  char line[512];
  auto add = [&](const char *fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    s += line;
  };
  add("plan: %s, %u launch(es)\n", plan.form == HostPlan::Shaped ? "shaped" : "in-place",
      plan.numLaunches);
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const PlanArg &a = plan.args[i];
    add("  arg %zu: %s", i, kinds[a.kind]);
    if (a.kind == PlanArg::Check)
      add(" of %s", plan.kernels.at(a.slot).name.c_str());
    else if (a.slot >= 0)
      add(" slot %" PRId64, a.slot);
    add(", %" PRId64 " x %s", a.numel, dtypeName(a.dtype));
    if (plan.form == HostPlan::InPlace)
      add("%s%s", a.read ? ", read" : "", a.written ? ", written" : "");
    s += "\n";
  }
  for (const PlanKernel &k : plan.kernels) {
    add("  kernel %s: %u launch(es), %.0f flop, %.0f bytes, opts ", k.name.c_str(), k.launches,
        k.flops, k.bytes);
    s += (k.opts.empty() ? "none" : k.opts);
    if (!k.checks.empty())
      add(", %zu run-time check(s)", k.checks.size());
    if (!k.tensorMaps.empty())
      add(", %zu tensor map(s)", k.tensorMaps.size());
    s += "\n";
  }
  for (size_t i = 0; i < plan.launches.size(); ++i) {
    const PlanLaunch &l = plan.launches[i];
    s += "  launch " + std::to_string(i) + ": " + plan.kernels[l.kernel].name + "(";
    for (size_t j = 0; j < l.args.size(); ++j)
      s += (j ? ", arg " : "arg ") + std::to_string(l.args[j]);
    s += ")";
    if (l.grid[0] * l.grid[1] * l.grid[2] * l.block[0] * l.block[1] * l.block[2] > 1)
      add(" grid (%" PRId64 ", %" PRId64 ", %" PRId64 ") block (%" PRId64 ", %" PRId64 ", %" PRId64
          ")",
          l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2]);
    if (l.shared > 0)
      add(" shared %" PRId64, l.shared);
    s += "\n";
  }
  for (size_t i = 0; i < plan.values.size(); ++i) {
    const PlanValue &v = plan.values[i];
    s += "  value " + std::to_string(i) + ": arg " + std::to_string(v.arg) + ", shape (";
    for (size_t j = 0; j < v.shape.size(); ++j)
      s += (j ? ", " : "") + std::to_string(v.shape[j]);
    s += v.shape.size() == 1 ? ",)\n" : ")\n";
  }
  return s;
}

/// The file of an --output argument (FILE.npy or SLOT=FILE.npy).
static std::string outputPath(const std::string &arg) {
  size_t eq = arg.find('=');
  return eq == std::string::npos ? arg : arg.substr(eq + 1);
}

Result<bool> uop::rt::checkRequestFiles(const RunRequest &request) {
  std::vector<std::string> inputPaths = request.extraInputs;
  for (const std::string &arg : request.inputs)
    if (auto parsed = parseSlotArg("input", arg))
      inputPaths.push_back(parsed->second);
  std::vector<std::string> seen;
  for (const std::string &arg : request.outputs) {
    std::string path = outputPath(arg);
    if (arg.find('=') != std::string::npos)
      if (auto parsed = parseSlotArg("output", arg); !parsed)
        return Error{parsed.error()};
    if (Result<bool> ok = checkOutputPath(path, inputPaths); !ok)
      return Error{"--output " + arg + ": " + ok.error()};
    for (const std::string &other : seen)
      if (other == path)
        return Error{"--output " + arg + ": " + path + " is already an output"};
    seen.push_back(path);
  }
  return true;
}

Result<bool> uop::rt::runRequest(Executable &exe, const RunRequest &request, std::FILE *out) {
  const HostPlan &plan = exe.plan();
  bool shaped = plan.form == HostPlan::Shaped;
  if (request.bench > kMaxBenchRuns)
    return Error{"--bench=" + std::to_string(request.bench) + ": at most " +
                 std::to_string(kMaxBenchRuns) + " runs"};

  // Inputs by slot: each names a slot the program takes, once.
  std::map<int64_t, std::string> inputFiles;
  for (const std::string &arg : request.inputs) {
    auto parsed = parseSlotArg("input", arg);
    if (!parsed)
      return Error{parsed.error()};
    auto [slot, path] = *parsed;
    if (plan.argOfSlot(slot) < 0)
      return Error{"--input " + arg + ": the program has no buffer slot " + std::to_string(slot)};
    if (!inputFiles.emplace(slot, path).second)
      return Error{"--input " + arg + ": slot " + std::to_string(slot) +
                   " is already given by --input " + std::to_string(slot) + "=" + inputFiles[slot]};
  }
  // Every --output is checked before anything runs or is written: its slot
  // or value exists, and its file is new or a regular file that is no input
  // and no other output. Each is the next value (-1) or a slot's argument.
  std::vector<std::pair<std::string, int64_t>> outputFiles;
  std::vector<std::string> inputPaths = request.extraInputs;
  for (auto &[slot, path] : inputFiles)
    inputPaths.push_back(path);
  size_t values = shaped ? plan.values.size() : 0;
  for (const std::string &arg : request.outputs) {
    std::string path = arg;
    int64_t index = -1;
    if (arg.find('=') == std::string::npos) {
      // --output FILE.npy: the next value of a shaped program, with its shape.
      if (!shaped)
        return Error{"--output " + arg +
                     ": a kernel-level program has no value; save a buffer "
                     "with --output SLOT=FILE.npy"};
      size_t taken = 0;
      for (auto &o : outputFiles)
        taken += o.second < 0;
      if (taken >= values)
        return Error{"--output " + arg + ": the program has only " + std::to_string(values) +
                     " value(s)"};
    } else {
      auto parsed = parseSlotArg("output", arg);
      if (!parsed)
        return Error{parsed.error()};
      int64_t slot = parsed->first;
      path = parsed->second;
      index = plan.argOfSlot(slot);
      if (index < 0)
        return Error{"--output " + arg + ": the program has no buffer slot " +
                     std::to_string(slot) +
                     (shaped ? " (save a shaped program's value with --output FILE.npy)" : "")};
    }
    if (Result<bool> ok = checkOutputPath(path, inputPaths); !ok)
      return Error{"--output " + arg + ": " + ok.error()};
    for (auto &o : outputFiles)
      if (o.first == path)
        return Error{"--output " + arg + ": " + path + " is already an output"};
    outputFiles.push_back({path, index});
  }

  // The buffer of one argument: from its --input file, random, or zeroed.
  auto makeBuffer = [&](const PlanArg &a) -> Result<HostBuffer> {
    std::string what = std::to_string(a.numel) + " x " + dtypeName(a.dtype);
    if (auto it = inputFiles.find(a.slot); a.slot >= 0 && it != inputFiles.end()) {
      auto buf = readNpy(it->second);
      if (!buf.ok())
        return Error{"slot " + std::to_string(a.slot) + ": " + buf.error()};
      if (buf.value().dtype() != a.dtype || buf.value().numel() != a.numel)
        return Error{"slot " + std::to_string(a.slot) + ": the program's buffer is " + what +
                     ", but " + it->second + " holds " + std::to_string(buf.value().numel()) +
                     " x " + dtypeName(buf.value().dtype())};
      return buf.take();
    }
    auto b = HostBuffer::create(a.dtype, {a.numel});
    if (!b.ok())
      return Error{(a.slot >= 0 ? "slot " + std::to_string(a.slot) : std::string("an output")) +
                   ": " + b.error()};
    bool needsInput = shaped ? a.kind == PlanArg::Input : a.read;
    if (a.slot >= 0 && request.seed)
      b.value().fillRandom(*request.seed + a.slot);
    else if (needsInput)
      return Error{"missing input for slot " + std::to_string(a.slot) + " (a buffer of " + what +
                   " the program reads): pass --input " + std::to_string(a.slot) +
                   "=FILE.npy or --random-inputs"};
    return b.take();
  };
  // One buffer per argument that is not a temporary, in plan order.
  std::vector<HostBuffer> buffers;
  for (const PlanArg &a : plan.args) {
    if (a.owned())
      continue;
    auto b = makeBuffer(a);
    if (!b)
      return Error{b.error()};
    buffers.push_back(b.take());
  }
  std::vector<void *> args;
  std::vector<const HostBuffer *> argBuffers;
  for (HostBuffer &b : buffers) {
    args.push_back(b.data());
    argBuffers.push_back(&b);
  }

  if (request.bench > 0) {
    Result<std::vector<double>> times = exe.bench(args, static_cast<int>(request.bench));
    if (!times)
      return Error{times.error()};
    double t = median(*times);
    std::fprintf(out, "median %.3f ms over %u runs", t * 1e3, static_cast<unsigned>(request.bench));
    if (plan.flops() > 0)
      std::fprintf(out, ", %.2f GFLOP/s", plan.flops() / t / 1e9);
    std::fprintf(out, "\n");
  } else if (Result<bool> ran = exe.runRaw(args); !ran) {
    return Error{ran.error()};
  }

  std::vector<HostBuffer> results;
  if (shaped) {
    Result<std::vector<HostBuffer>> v = exe.values(argBuffers);
    if (!v)
      return Error{v.error()};
    results = v.take();
  }
  // All outputs or none: each written beside its path, then all renamed.
  {
    std::vector<std::string> headers;
    std::vector<FileContents> files;
    headers.reserve(outputFiles.size());
    size_t nextResult = 0;
    for (auto &[path, index] : outputFiles) {
      const HostBuffer &b = index < 0 ? results.at(nextResult++) : buffers.at(index);
      std::string bytes = encodeNpyHeader(b);
      headers.push_back(std::move(bytes));
      FileContents f{path, {headers.back()}};
      if (b.data() && b.bytes())
        f.pieces.emplace_back(static_cast<const char *>(b.data()), b.bytes());
      files.push_back(std::move(f));
    }
    if (Result<bool> ok = writeFilesAtomically(files); !ok)
      return Error{ok.error()};
  }
  if (request.print && shaped) {
    for (size_t i = 0; i < results.size(); ++i) {
      if (results.size() > 1)
        std::fprintf(out, "value %zu: ", i);
      std::fprintf(out, "%s\n", results[i].format().c_str());
    }
  } else if (request.print) {
    for (size_t i = 0; i < plan.args.size(); ++i)
      if (plan.args[i].written && !plan.args[i].owned())
        std::fprintf(out, "slot %" PRId64 ": %s\n", plan.args[i].slot, buffers[i].format().c_str());
  }
  // After the outputs are saved: profiling runs the program again (an
  // in-place program's buffers change).
  if (request.profile) {
    auto p = exe.profile(args, 3);
    if (!p)
      return Error{p.error()};
    std::fputs(formatProfile(*p).c_str(), out);
  }
  return true;
}
