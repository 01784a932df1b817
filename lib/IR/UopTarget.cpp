//===- UopTarget.cpp - the machine a module is compiled for ----*- C++ -*-===//
//
// Finding, naming and detecting `#uop.target`s. The tables of named CPUs
// come from LLVM's X86 target parser (no such machine is needed); the CUDA
// chips' limits are NVIDIA's (CUDA C Programming Guide, "Compute
// Capabilities"), one row per chip uop compiles for.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopTarget.h"

#include "Uop/IR/UopDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/X86TargetParser.h"

#include <array>
#include <cstdlib>
#include <fstream>
#include <thread>

using namespace mlir;
using namespace mlir::uop;

TargetAttr mlir::uop::getTarget(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto t = op->getAttrOfType<TargetAttr>(kTargetAttrName))
      return t;
  return {};
}

TargetAttr mlir::uop::getTargetOrDefault(Operation *op, TargetKind kind) {
  TargetAttr t = getTarget(op);
  if (t && t.getKind() == kind)
    return t;
  return getDefaultTarget(op->getContext(), kind);
}

void mlir::uop::setTarget(Operation *op, TargetAttr target) {
  op->setAttr(kTargetAttrName, target);
}

/// The triple named x86 CPUs are compiled for.
static constexpr llvm::StringLiteral kX86Triple = "x86_64-unknown-linux-gnu";

/// The vector unit a register tile is sized for, from the CPU's features:
/// its widest registers and how many there are.
static std::pair<int64_t, int64_t> vectorUnit(ArrayRef<StringRef> features) {
  auto has = [&](StringRef f) { return llvm::is_contained(features, f); };
  if (has("avx512f"))
    return {512, 32};
  if (has("avx2") || has("avx"))
    return {256, 16};
  if (has("neon") || has("asimd"))
    return {128, 32};
  return {128, 16}; // SSE2, or a machine this does not know
}

/// `+a,-b,...` of the features, sorted by name (one spelling per set). The
/// host's disabled features are kept: its CPU name may imply one that the
/// machine (a VM) does not have.
static std::string featureString(SmallVector<std::pair<StringRef, bool>> features) {
  llvm::sort(features);
  features.erase(std::unique(features.begin(), features.end()), features.end());
  std::string s;
  for (auto [f, on] : features)
    s += (s.empty() ? "" : ",") + std::string(on ? "+" : "-") + f.str();
  return s;
}

static TargetAttr cpuTarget(MLIRContext *ctx, StringRef triple, StringRef cpu,
                            SmallVector<std::pair<StringRef, bool>> features, int64_t l1,
                            int64_t l2, int64_t l3, int64_t threads) {
  ctx->getOrLoadDialect<UopDialect>(); // (a driver's context may not have it yet)
  SmallVector<StringRef> on;
  for (auto [f, enabled] : features)
    if (enabled)
      on.push_back(f);
  auto [bits, registers] = vectorUnit(on);
  return TargetAttr::get(ctx, TargetKind::CPU, triple, cpu, featureString(std::move(features)),
                         bits, registers, /*cacheLine=*/64, l1, l2, l3, threads, "", 0, 0, {}, {},
                         0, 0, 0, 0, 0, {});
}

/// The features LLVM's x86 table gives `cpu`, all enabled.
static SmallVector<std::pair<StringRef, bool>> x86Features(StringRef cpu) {
  SmallVector<StringRef> names;
  llvm::X86::getFeaturesForCPU(cpu, names);
  SmallVector<std::pair<StringRef, bool>> features;
  for (StringRef f : names)
    features.push_back({f, true});
  return features;
}

TargetAttr mlir::uop::getDefaultTarget(MLIRContext *ctx, TargetKind kind) {
  if (kind == TargetKind::CUDA) {
    std::string error;
    return *getCudaTarget(ctx, "sm_90", error);
  }
  ctx->getOrLoadDialect<UopDialect>();
  return TargetAttr::get(ctx, TargetKind::CPU, kX86Triple, "x86-64",
                         featureString(x86Features("x86-64")),
                         /*vectorBits=*/0, /*vectorRegisters=*/16, /*cacheLine=*/64, 0, 0, 0, 0, "",
                         0, 0, {}, {}, 0, 0, 0, 0, 0, {});
}

FailureOr<TargetAttr> mlir::uop::getCpuTarget(MLIRContext *ctx, StringRef cpu,
                                              std::string &error) {
  if (llvm::X86::parseArchX86(cpu, /*Only64Bit=*/true) == llvm::X86::CK_None) {
    error = "unknown CPU '" + cpu.str() + "' (a name LLVM's x86 backend knows, e.g. znver5, " +
            "skylake-avx512, x86-64-v3; or host)";
    return failure();
  }
  return cpuTarget(ctx, kX86Triple, cpu, x86Features(cpu), 0, 0, 0, 0);
}

namespace {
/// One CUDA chip's row.
struct Chip {
  StringRef name;
  int64_t sharedMemoryOptin, multiprocessors;
  bool warpgroup; ///< Hopper's wgmma
};
} // namespace

/// Shared memory per block with the opt-in (cudaFuncAttributeMaxDynamic-
/// SharedMemorySize), and the multiprocessors of the part uop targets
/// (0: it varies between parts).
static constexpr Chip kChips[] = {
    {"sm_80", 166912, 108, false}, // A100
    {"sm_86", 101376, 0, false},
    {"sm_89", 101376, 0, false},
    {"sm_90", 232448, 132, false}, // H100 / H200 SXM
    {"sm_90a", 232448, 132, true},
};

FailureOr<TargetAttr> mlir::uop::getCudaTarget(MLIRContext *ctx, StringRef chip,
                                               std::string &error) {
  const Chip *row = llvm::find_if(kChips, [&](const Chip &c) { return c.name == chip; });
  if (row == std::end(kChips)) {
    error = "unknown CUDA chip '" + chip.str() + "' (expected sm_80, sm_86, sm_89, sm_90 or sm_90a)";
    return failure();
  }
  ctx->getOrLoadDialect<UopDialect>();
  Builder b(ctx);
  // mma.sync shapes of every sm_80+ chip (PTX ISA, "Matrix shape").
  SmallVector<MmaAttr> mma = {
      MmaAttr::get(ctx, 16, 8, 16, b.getF16Type(), b.getF32Type(), false),
      MmaAttr::get(ctx, 16, 8, 16, b.getBF16Type(), b.getF32Type(), false),
      MmaAttr::get(ctx, 16, 8, 8, b.getTF32Type(), b.getF32Type(), false),
      MmaAttr::get(ctx, 16, 8, 32, b.getIntegerType(8), b.getI32Type(), false)};
  if (row->warpgroup) {
    mma.push_back(MmaAttr::get(ctx, 64, 256, 16, b.getF16Type(), b.getF32Type(), true));
    mma.push_back(MmaAttr::get(ctx, 64, 256, 16, b.getBF16Type(), b.getF32Type(), true));
    mma.push_back(MmaAttr::get(ctx, 64, 256, 8, b.getTF32Type(), b.getF32Type(), true));
  }
  int64_t maxBlock[] = {1024, 1024, 64};
  int64_t maxGrid[] = {2147483647, 65535, 65535};
  return TargetAttr::get(ctx, TargetKind::CUDA, "", "", "+ptx80", 0, 0, /*cacheLine=*/128, 0, 0, 0,
                         0, row->name, /*warp=*/32, /*maxThreads=*/1024, maxBlock, maxGrid,
                         /*sharedMemory=*/49152, row->sharedMemoryOptin, /*registers=*/65536,
                         row->multiprocessors, /*localMemory=*/512 * 1024, mma);
}

FailureOr<TargetAttr> mlir::uop::parseTarget(MLIRContext *ctx, StringRef spec, TargetKind kind,
                                             std::string &error) {
  spec = spec.trim();
  if (spec.empty() || spec == "host") {
    if (kind == TargetKind::CUDA)
      return getDefaultTarget(ctx, kind);
    return detectHostTarget(ctx);
  }
  if (spec.starts_with("#")) {
    ctx->getOrLoadDialect<UopDialect>();
    std::string diagnostics;
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
      diagnostics += (diagnostics.empty() ? "" : "; ") + d.str();
      return success();
    });
    size_t read = 0;
    Attribute a = parseAttribute(spec, ctx, Type(), &read);
    auto target = dyn_cast_or_null<TargetAttr>(a);
    if (!target || read != spec.size()) {
      error = "'" + spec.str() + "' is not a #uop.target<...>" +
              (diagnostics.empty() ? "" : ": " + diagnostics);
      return failure();
    }
    return target;
  }
  if (spec.starts_with("sm_"))
    return getCudaTarget(ctx, spec, error);
  return getCpuTarget(ctx, spec, error);
}

/// The size in bytes of a sysfs cache file ("48K", "1024K", "32M").
static int64_t parseCacheSize(StringRef text) {
  text = text.trim();
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1024;
  else if (text.consume_back("M"))
    scale = 1024 * 1024;
  int64_t n = 0;
  return text.getAsInteger(10, n) ? 0 : n * scale;
}

/// The host's data caches from Linux sysfs: L1 (data), L2, L3; 0 for one
/// that is not there.
static void hostCaches(int64_t &l1, int64_t &l2, int64_t &l3) {
  l1 = l2 = l3 = 0;
  for (int index = 0; index < 8; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    // (sysfs files claim a page's size: read them as streams.)
    auto read = [&](StringRef file) -> std::string {
      std::ifstream in(dir + file.str());
      std::string line;
      std::getline(in, line);
      return StringRef(line).trim().str();
    };
    std::string level = read("level"), type = read("type");
    if (level.empty())
      break;
    if (type == "Instruction")
      continue;
    int64_t size = parseCacheSize(read("size"));
    (level == "1" ? l1 : level == "2" ? l2 : level == "3" ? l3 : size) = size;
  }
}

TargetAttr mlir::uop::detectHostTarget(MLIRContext *ctx) {
  if (const char *named = std::getenv("UOP_HOST_CPU"); named && *named) {
    std::string error;
    FailureOr<TargetAttr> t = getCpuTarget(ctx, named, error);
    if (succeeded(t))
      return *t;
    llvm::errs() << "uop: UOP_HOST_CPU: " << error << "; detecting the host instead\n";
  }
  static const llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
  SmallVector<std::pair<StringRef, bool>> features;
  for (auto &entry : host)
    features.push_back({entry.getKey(), entry.getValue()});
  // (Read once: the engine asks for every plan it keys.)
  static const std::array<int64_t, 3> caches = [] {
    std::array<int64_t, 3> c;
    hostCaches(c[0], c[1], c[2]);
    return c;
  }();
  auto [l1, l2, l3] = caches;
  int64_t threads = std::thread::hardware_concurrency();
  std::string triple = llvm::sys::getProcessTriple();
  return cpuTarget(ctx, triple, llvm::sys::getHostCPUName(), std::move(features), l1, l2, l3,
                   threads);
}

std::string mlir::uop::describeTarget(TargetAttr target) {
  if (!target)
    return "no target";
  if (target.isCUDA())
    return "cuda " + target.getChip().str();
  std::string s = "cpu " + target.getCpu().str();
  if (target.getVectorBits())
    s += " (" + std::to_string(target.getVectorBits()) + "-bit vectors";
  else
    s += " (no register tiles";
  if (target.getThreads())
    s += ", " + std::to_string(target.getThreads()) + " threads";
  return s + ")";
}
