//===- Search.cpp - uop-search: time candidate opts, keep the fastest -*- C++ -*-===//
//
// The seed's `search_opt` (uopc/opt.py) as a small BEAM: every kernel that
// names no opts gets the fastest of a set of candidate `#uop.opts`, each
// compiled and run through the execution engine on random data, and
// accepted only if it computes what the kernel computes without opts. The
// winner is kept in the on-disk cache (a checksummed entry like the others)
// under the kernel's structure and the host CPU, so a second run of the same
// program searches nothing (tinygrad's BEAM cache).
//
//===----------------------------------------------------------------------===//

#include "Uop/ExecutionEngine/ExecutionEngine.h"
#include "Uop/ExecutionEngine/Passes.h"

#include "SearchCommon.h"

#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopTarget.h"
#include "Uop/Runtime/Cache.h"
#include "Uop/Runtime/File.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ScopedPrinter.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPSEARCHPASS
#include "Uop/ExecutionEngine/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::search;
namespace rt = ::uop::rt;

/// Bumped whenever a cached winner may no longer be what a search would
/// find for the same kernel (candidates, codegen), or the entry's form
/// changes. 2: exp2/log2 became inline arithmetic (uop-expand-math), which
/// changes what the fastest opts of a kernel using them are. 3: candidates
/// with vector lanes (register tiles over uop-layout's panels of B). 4: a
/// gemm's reduce tiles. 6: ragged register tiles (6 rows on AVX2). 7: the
/// next row's prefetch (prefetch_next), row reductions without upcast.
/// 8: keyed by the module's #uop.target instead of the host CPU's name and
/// features.
const char *const mlir::uop::search::kSearchFormat = "uop-search 8";

/// The kernel as text under a fixed name: its structure.
std::string mlir::uop::search::kernelText(func::FuncOp kernel) {
  OpBuilder b(kernel.getContext());
  auto copy = cast<func::FuncOp>(kernel->clone());
  copy.setSymName("kernel");
  copy->removeAttr(kOptsAttrName);
  std::string s;
  llvm::raw_string_ostream os(s);
  copy.print(os, OpPrintingFlags().useLocalScope());
  copy.erase();
  return s;
}

/// A one-kernel program: `kernel` (with `opts`) and a host launching it on
/// its buffer slots, as uop-kernelize would make it.
OwningOpRef<ModuleOp> mlir::uop::search::singleKernelProgram(func::FuncOp kernel, OptsAttr opts) {
  MLIRContext *ctx = kernel.getContext();
  OpBuilder b(ctx);
  Location loc = kernel.getLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  if (TargetAttr target = getTarget(kernel))
    setTarget(*module, target);
  b.setInsertionPointToEnd(module->getBody());
  auto k = cast<func::FuncOp>(b.clone(*kernel));
  k.setSymName("k");
  k->setAttr(kOptsAttrName, opts);
  std::map<int64_t, Type> slots;
  k.walk([&](BufferOp buf) { slots[buf.getSlotAttr().getInt()] = buf.getType(); });
  ArrayRef<Type> results = kernel.getFunctionType().getResults();
  auto main = func::FuncOp::create(b, loc, "main", b.getFunctionType({}, results));
  main->setAttr(kHostAttrName, UnitAttr::get(ctx));
  b.setInsertionPointToEnd(main.addEntryBlock());
  SmallVector<Value> args;
  for (auto [slot, type] : slots)
    args.push_back(BufferOp::create(b, loc, type, b.getI64IntegerAttr(slot)));
  auto launch = LaunchOp::create(b, loc, results, FlatSymbolRefAttr::get(ctx, "k"), args);
  func::ReturnOp::create(b, loc, launch.getResults());
  return module;
}

/// Whether `kernel` divides by data (a random divisor may be 0: running it
/// on random data could trap, so such kernels are not searched).
bool mlir::uop::search::dividesByData(func::FuncOp kernel) {
  return kernel
      .walk([](Operation *op) {
        if (!isa<FloorDivOp, FloorModOp>(op))
          return WalkResult::advance();
        Operation *d = op->getOperand(1).getDefiningOp();
        return d && d->hasTrait<OpTrait::ConstantLike>() ? WalkResult::advance()
                                                         : WalkResult::interrupt();
      })
      .wasInterrupted();
}

/// What uop-hand-opt chooses for `kernel` (run on a copy, for the same
/// target).
OptsAttr mlir::uop::search::handChoice(func::FuncOp kernel) {
  OwningOpRef<ModuleOp> m = ModuleOp::create(kernel.getLoc());
  if (TargetAttr target = getTarget(kernel))
    setTarget(*m, target);
  OpBuilder b(kernel.getContext());
  b.setInsertionPointToEnd(m->getBody());
  auto k = cast<func::FuncOp>(b.clone(*kernel));
  PassManager pm(kernel.getContext());
  pm.addPass(createUopHandOptPass());
  if (failed(pm.run(*m)))
    return {};
  return k->getAttrOfType<OptsAttr>(kOptsAttrName);
}

namespace {

/// One compiled candidate, ready to time: its executable and the
/// arguments it runs on (the searcher's inputs, its own output).
struct Trial {
  std::unique_ptr<rt::Executable> exe;
  std::vector<void *> args;
  std::unique_ptr<rt::HostBuffer> out;
};

class Searcher {
public:
  Searcher(func::FuncOp kernel, const CompileOptions &options) : kernel(kernel), options(options) {
    this->options.opt = OptMode::None; // the kernel names its opts
    // For the kernel's target, as resolved (not detected again).
    if (TargetAttr target = getTarget(kernel))
      this->options.cpu = llvm::to_string(target);
  }

  /// Compiles `opts` and binds its arguments; nullopt when it does not
  /// compile or does not write one output.
  std::optional<Trial> prepare(OptsAttr opts) {
    OwningOpRef<ModuleOp> program = singleKernelProgram(kernel, opts);
    FailureOr<std::unique_ptr<rt::Executable>> exe = [&] {
      // A candidate that does not compile is only rejected.
      ScopedDiagnosticHandler quiet(kernel.getContext(), [](Diagnostic &) { return success(); });
      return compile(*program, options);
    }();
    if (failed(exe))
      return std::nullopt;
    Trial t;
    t.exe = std::move(*exe);
    for (const rt::PlanArg &a : t.exe->plan().args) {
      if (a.kind == rt::PlanArg::Temp)
        continue;
      if (a.kind == rt::PlanArg::Input) {
        auto it = inputs.find(a.slot);
        if (it == inputs.end()) {
          rt::HostBuffer b(a.dtype, {a.numel});
          b.fillRandom(0x5eed + a.slot);
          it = inputs.emplace(a.slot, std::move(b)).first;
        }
        t.args.push_back(it->second.data());
      } else {
        if (t.out)
          return std::nullopt; // one kernel writes one buffer
        t.out = std::make_unique<rt::HostBuffer>(a.dtype, std::vector<int64_t>{a.numel});
        t.args.push_back(t.out->data());
      }
    }
    if (!t.out)
      return std::nullopt;
    return t;
  }

  /// Compiles, runs and checks `opts`; its time in seconds, or nullopt when
  /// it fails to compile or computes something else.
  std::optional<double> evaluate(OptsAttr opts) {
    std::optional<Trial> t = prepare(opts);
    if (!t)
      return std::nullopt;
    // The first run warms up and is checked; then enough runs to time it.
    auto t0 = std::chrono::steady_clock::now();
    if (!t->exe->runRaw(t->args))
      return std::nullopt;
    double first = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!reference) {
      reference = std::move(*t->out);
    } else if (!matches(*t->out, *reference)) {
      return std::nullopt;
    }
    int reps = std::clamp<int>(int(0.05 / std::max(first, 1e-6)), 1, 10);
    auto times = t->exe->bench(t->args, reps);
    if (!times)
      return std::nullopt;
    return std::min(first, times->front());
  }

  /// The finalists again, `rounds` runs each taken in turn (a slow moment
  /// of a shared machine then slows them all), their medians in seconds
  /// (nullopt for one that no longer compiles or runs).
  std::vector<std::optional<double>> retime(ArrayRef<OptsAttr> finalists, int rounds) {
    std::vector<std::optional<Trial>> trials;
    for (OptsAttr o : finalists)
      trials.push_back(prepare(o));
    std::vector<std::vector<double>> times(finalists.size());
    for (int r = 0; r < rounds; ++r)
      for (auto [i, t] : llvm::enumerate(trials))
        if (t) {
          auto one = t->exe->bench(t->args, 1);
          if (!one)
            t.reset();
          else
            times[i].push_back(one->front());
        }
    std::vector<std::optional<double>> medians;
    for (auto [i, t] : llvm::enumerate(trials)) {
      if (!t || times[i].empty()) {
        medians.push_back(std::nullopt);
        continue;
      }
      std::sort(times[i].begin(), times[i].end());
      medians.push_back(times[i][times[i].size() / 2]);
    }
    return medians;
  }

private:
  /// Equal up to float reassociation (upcast and unroll reorder the sums).
  static bool matches(const rt::HostBuffer &got, const rt::HostBuffer &want) {
    if (got.dtype() != want.dtype() || got.numel() != want.numel())
      return false;
    bool exact = got.dtype() == rt::DType::I32 || got.dtype() == rt::DType::Bool;
    double scale = 0;
    for (int64_t i = 0; i < want.numel(); ++i)
      if (std::isfinite(want.getDouble(i)))
        scale = std::max(scale, std::fabs(want.getDouble(i)));
    double tol = got.dtype() == rt::DType::F16 ? 1e-2 : 1e-4;
    for (int64_t i = 0; i < want.numel(); ++i) {
      double g = got.getDouble(i), w = want.getDouble(i);
      if (exact ? g != w
                : !(std::isnan(g) && std::isnan(w)) &&
                      !(g == w || std::fabs(g - w) <= tol * (std::fabs(w) + 1e-2 * scale + 1e-6)))
        return false;
    }
    return true;
  }

  func::FuncOp kernel;
  CompileOptions options;
  std::map<int64_t, rt::HostBuffer> inputs;
  std::optional<rt::HostBuffer> reference;
};

/// No thread axis unless it keeps at least 2 iterations (of its blocks
/// when it is tiled).
void dropShortThread(OptsBuilder &c, ArrayRef<int64_t> shape) {
  int64_t t = c.thread;
  if (t >= 0 && (c.tile.count(t) ? shape[t] / c.tile.at(t) : shape[t] / c.upcastOf(t)) < 2)
    c.thread = -1;
}

/// The seed's candidate_opts plus what a wider CPU needs: register tiles of
/// 2, 4, 8 or the hand's rows (ragged where they do not divide) by the
/// hand's vector lanes (over uop-layout's panels of B)
/// in blocks of 128..512 rows, upcast tiles up to 8x8 and 4x16/16x4, unroll
/// 4 and 8, cache tiles of 32..256, and every output axis (or none) as the
/// thread axis, each with the hand's `stash`. `hand` is hand_opt_choice
/// for this machine's vector unit.
/// A register tile of a gemm is refined with reduce tiles of 256 and 512.
/// Round 1 is the register tiles; round 2 varies the best few's unroll,
/// tiles, threads and (a fused row kernel's) next-row prefetch (the beam).
SmallVector<OptsBuilder> tileCandidates(ArrayRef<int64_t> shape, int64_t rsize,
                                        const OptsBuilder &hand) {
  SmallVector<OptsBuilder> out;
  SmallVector<int64_t> outs;
  for (auto [a, s] : llvm::enumerate(shape))
    if (s > 1)
      outs.push_back(a);
  // First (a time bound may stop the round), register tiles with the hand's
  // vector lanes on the last axis (as wide as uop-layout's panels of B, the
  // columns tiled by them as the hand does): 2, 4, 8 or the hand's rows,
  // the rows in blocks of 128..512 or not.
  int64_t rank = shape.size(), j = rank - 1, i = rank - 2;
  // The hand's rows may be ragged (6 on AVX2: uop-rangeify clamps the last
  // tile); so may the others where the kernel does not stash.
  SmallVector<int64_t> rowCounts{2, 4, 8};
  if (i >= 0 && hand.upcastOf(i) > 1 && !llvm::is_contained(rowCounts, hand.upcastOf(i)))
    rowCounts.push_back(hand.upcastOf(i));
  // With 512-bit lanes (32 vector registers) also 12 rows: 24 accumulators
  // load B a third less per FMA than the hand's 8, which may pay where B
  // streams from a smaller L2 (Zen 5 measured it slower: 332 against 355
  // GFLOP/s at 2048; the hand keeps 8).
  if (i >= 0 && hand.vector >= 32 && !llvm::is_contained(rowCounts, 12))
    rowCounts.push_back(12);
  if (hand.vector > 1 && i >= 0)
    for (int64_t rows : rowCounts)
      for (int64_t rowTile : {0, 128, 256, 512}) {
        if (shape[i] < rows || (shape[i] % rows != 0 && hand.stash))
          continue;
        OptsBuilder c;
        c.upcast[i] = rows;
        c.vector = hand.vector;
        if (hand.tile.count(j))
          c.tile[j] = hand.tile.at(j);
        if (rowTile) {
          if (shape[i] % rowTile != 0 || shape[i] <= rowTile)
            continue;
          c.tile[i] = rowTile;
        }
        c.thread = hand.thread;
        c.stash = hand.stash;
        dropShortThread(c, shape);
        out.push_back(c);
      }
  ArrayRef<int64_t> last2 = ArrayRef<int64_t>(outs).take_back(2);
  static const std::pair<int64_t, int64_t> factors[] = {
      {2, 2}, {4, 4}, {8, 4}, {4, 8}, {8, 8}, {16, 2}, {2, 16}, {4, 16}, {16, 4}, {2, 8}, {8, 2}};
  for (int64_t a : last2)
    for (int64_t b : last2)
      for (auto [fa, fb] : factors) {
        OptsBuilder c;
        c.upcast[a] = fa;
        if (a != b)
          c.upcast[b] = fb;
        if (!llvm::all_of(c.upcast, [&](auto &kv) { return shape[kv.first] % kv.second == 0; }))
          continue;
        c.thread = hand.thread;
        c.stash = hand.stash;
        dropShortThread(c, shape);
        out.push_back(c);
        if (rsize % 4 == 0) {
          c.unroll = 4;
          out.push_back(c);
        }
      }
  return out;
}

/// Whether the kernel's value is one reduction of one axis (a gemm): a
/// reduce tile (`tile` on the axis after the output's) applies to it.
bool reducesAtRoot(func::FuncOp kernel) {
  auto ret = dyn_cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
  auto red =
      ret && ret.getNumOperands() == 1 ? ret.getOperand(0).getDefiningOp<ReduceOp>() : ReduceOp();
  return red && red.getPop() == 1;
}

SmallVector<OptsBuilder> refineCandidates(ArrayRef<int64_t> shape, int64_t rsize, bool rootReduce,
                                          bool fused, const OptsBuilder &base) {
  SmallVector<OptsBuilder> out;
  SmallVector<int64_t> outs;
  for (auto [a, s] : llvm::enumerate(shape))
    if (s > 1)
      outs.push_back(a);
  for (int64_t u : {int64_t(1), int64_t(4), int64_t(8)})
    if (u != base.unroll && rsize % u == 0 && rsize >= u) {
      OptsBuilder c = base;
      c.unroll = u;
      out.push_back(c);
    }
  // The next row's prefetch (uop-prefetch-next: only a kernel that walks
  // each row in two or more loops, two or more reductions, changes), in
  // strips around the hand's.
  if (fused && rsize >= 1024)
    for (int64_t s : {int64_t(0), int64_t(128), int64_t(256), int64_t(512)})
      if (s != base.prefetchNext) {
        OptsBuilder c = base;
        c.prefetchNext = s;
        out.push_back(c);
      }
  for (int64_t t = -1; t < (int64_t)shape.size(); ++t)
    if (t != base.thread && (t < 0 || shape[t] / base.upcastOf(t) >= 2)) {
      OptsBuilder c = base;
      c.thread = t;
      out.push_back(c);
    }
  if (base.vector > 1 && shape.size() >= 2) {
    // A register tile keeps its column tile (one panel of B): only the
    // block of rows varies.
    int64_t i = shape.size() - 2;
    for (int64_t t : {0, 64, 128, 256, 512}) {
      OptsBuilder c = base;
      c.tile.erase(i);
      // (A block that the rows' upcast does not divide makes the tile
      // ragged, see uop-rangeify: not with `stash`.)
      int64_t f = base.upcastOf(i);
      if (t && (shape[i] % t != 0 || shape[i] <= t || t < f || (t % f != 0 && base.stash)))
        continue;
      if (t)
        c.tile[i] = t;
      out.push_back(c);
    }
    // Long reductions in blocks (the reduce tile): B's panel slice then
    // stays in L1 while a block of rows sweeps it. Not for a ragged tile
    // (its blocks read back the output: uop-rangeify would drop the upcast).
    int64_t k = shape.size();
    bool ragged = llvm::any_of(base.upcast, [&](auto &kv) {
      return shape[kv.first] % kv.second != 0 ||
             (base.tile.count(kv.first) && base.tile.at(kv.first) % kv.second != 0);
    });
    if (rootReduce && !ragged)
      for (int64_t t : {256, 512})
        if (rsize > 2 * t && rsize % t == 0 && !base.tile.count(k)) {
          OptsBuilder c = base;
          c.tile[k] = t;
          out.push_back(c);
        }
    return out;
  }
  for (int64_t t : {32, 64, 128, 256}) {
    OptsBuilder c = base;
    c.tile.clear();
    for (int64_t a : ArrayRef<int64_t>(outs).take_back(2))
      if (shape[a] % t == 0 && shape[a] > t && t % base.upcastOf(a) == 0)
        c.tile[a] = t;
    if (!c.tile.empty())
      out.push_back(c);
  }
  return out;
}

} // namespace

LogicalResult mlir::uop::searchOpts(ModuleOp module, const CompileOptions &options,
                                    llvm::raw_ostream &log) {
  MLIRContext *ctx = module.getContext();
  // The machine the candidates are timed on, which their winners are kept
  // for: the module's CPU target (the engine attaches this machine's).
  TargetAttr target = getTarget(module);
  if (!target || !target.isCPU())
    return emitError(module.getLoc(), "uop-search: the module has no CPU #uop.target (the machine "
                                      "the candidates run on; run uop-attach-target first)");
  std::string cpu = llvm::to_string(target);
  for (auto kernel : module.getOps<func::FuncOp>()) {
    if (!isKernel(kernel) || kernel.isDeclaration() || kernel->hasAttr(kOptsAttrName) ||
        kernel.getNumResults() != 1 || isa<VoidType>(kernel.getResultTypes()[0]))
      continue;
    std::string name = kernel.getSymName().str();
    if (dividesByData(kernel)) {
      log << "uop-search: " << name << ": not searched (it divides by data; random inputs may "
          << "divide by 0): hand opts\n";
      continue; // uop-hand-opt chooses
    }
    std::string keyText;
    {
      llvm::raw_string_ostream os(keyText);
      os << kSearchFormat << "\ntarget=" << cpu << "\nopenmp=" << options.openmp << " O"
         << options.codegen.optLevel << "\n"
         << kernelText(kernel);
    }
    std::string key = rt::hashKey(keyText);

    // A second run of the same kernel on this CPU searches nothing.
    if (std::string path = rt::cacheLookup(key, ".search"); !path.empty()) {
      std::ifstream f(path);
      std::string header, line;
      OptsAttr cached;
      if (std::getline(f, header) && header == kSearchFormat && std::getline(f, line) &&
          line.rfind("opts ", 0) == 0) {
        ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
        cached = dyn_cast_or_null<OptsAttr>(parseAttribute(line.substr(5), ctx));
      }
      if (cached) {
        kernel->setAttr(kOptsAttrName, cached);
        log << "uop-search: " << name << ": cached " << cached << "\n";
        continue;
      }
      log << "uop: warning: the search cache entry " << path
          << " does not hold opts; rebuilding it\n";
      rt::cacheRemove(key, ".search");
    }

    auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    ArrayRef<int64_t> shape = getShape(kernel.getResultTypes()[0]);
    int64_t rsize = getReduceSize(kernel);
    bool rootReduce = reducesAtRoot(kernel);
    unsigned reductions = 0;
    kernel.walk([&](ReduceOp) { ++reductions; });
    Searcher searcher(kernel, options);
    llvm::StringSet<> seen;
    unsigned tried = 0, rejected = 0;
    std::vector<std::pair<double, OptsBuilder>> timed;
    auto tryOne = [&](const OptsBuilder &c, bool always) {
      OptsAttr attr = c.get(ctx);
      if (!seen.insert(llvm::to_string(attr)).second)
        return;
      if (!always && elapsed() > options.searchSeconds)
        return;
      ++tried;
      if (std::optional<double> t = searcher.evaluate(attr))
        timed.push_back({*t, c});
      else
        ++rejected;
    };
    // The reference (no opts) first: every other candidate is checked
    // against what it computes.
    tryOne(OptsBuilder(), true);
    if (timed.empty()) {
      log << "uop-search: " << name << ": the kernel does not run without opts; hand opts\n";
      continue;
    }
    double none = timed.front().first;
    OptsBuilder hand;
    if (OptsAttr h = handChoice(kernel))
      hand = OptsBuilder::from(h);
    tryOne(hand, true);
    for (const OptsBuilder &c : tileCandidates(shape, rsize, hand))
      tryOne(c, false);
    // The beam: the best 3 so far, varied.
    for (int round = 0; round < 2; ++round) {
      std::sort(timed.begin(), timed.end(),
                [](const auto &a, const auto &b) { return a.first < b.first; });
      SmallVector<OptsBuilder> beam;
      for (size_t i = 0; i < std::min<size_t>(3, timed.size()); ++i)
        beam.push_back(timed[i].second);
      for (const OptsBuilder &b : beam)
        for (const OptsBuilder &c : refineCandidates(shape, rsize, rootReduce, reductions >= 2, b))
          tryOne(c, false);
    }
    std::sort(timed.begin(), timed.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    auto [best, winner] = timed.front();
    // The final: each candidate above was timed by the best of a few runs
    // (one or two for a long kernel), so the order of close ones is noise.
    // The best 4 and the hand's opts run again in turns, and the lowest
    // median wins (the hand's on a tie: the search then never does worse
    // than --opt=hand by a measurement's luck). At most about 2 s, or what
    // is left of the time bound.
    SmallVector<OptsAttr> finalists;
    for (const auto &tc : ArrayRef(timed).take_front(4))
      finalists.push_back(tc.second.get(ctx));
    OptsAttr handAttr = hand.get(ctx);
    // (Unless the hand's opts were rejected.)
    bool handTimed = llvm::any_of(timed, [&](auto &tc) { return tc.second.get(ctx) == handAttr; });
    if (handTimed && !llvm::is_contained(finalists, handAttr))
      finalists.push_back(handAttr);
    double budget = std::max(2.0, options.searchSeconds - elapsed());
    // (A run of a tiny kernel may measure 0 s: a microsecond at least.)
    int rounds = std::clamp<int>(
        int(budget / (2 * std::max(best, 1e-6) * finalists.size())), 0, 7);
    std::string final;
    if (finalists.size() > 1 && rounds >= 3) {
      std::vector<std::optional<double>> medians = searcher.retime(finalists, rounds);
      std::optional<size_t> pick;
      for (size_t i = 0; i < finalists.size(); ++i) {
        if (!medians[i])
          continue;
        bool isHand = finalists[i] == handAttr;
        if (!pick || *medians[i] < *medians[*pick] * (isHand ? 1.01 : 0.99))
          pick = i;
      }
      if (pick) {
        best = *medians[*pick];
        winner = OptsBuilder::from(finalists[*pick]);
        final = ", final of " + std::to_string(finalists.size()) + " by the median of " +
                std::to_string(rounds) + " runs each";
      }
    }
    OptsAttr attr = winner.get(ctx);
    kernel->setAttr(kOptsAttrName, attr);
    log << "uop-search: " << name << ": " << tried << " candidates (" << rejected
        << " rejected) in " << llvm::format("%.2f", elapsed()) << " s"
        << (elapsed() > options.searchSeconds ? " (time bound reached)" : "") << ", winner " << attr
        << " " << llvm::format("%.3f", best * 1e3) << " ms (no opts "
        << llvm::format("%.3f", none * 1e3) << " ms)" << final << "\n";

    // Publish the winner (a failure only costs the next run a search).
    std::string tmp = rt::cacheTempPath(".search");
    std::string entry = std::string(kSearchFormat) + "\nopts " + llvm::to_string(attr) + "\n";
    if (rt::writeNewFile(tmp, entry, 0644, /*durable=*/false))
      (void)rt::cacheInstall(tmp, key, ".search");
  }
  return success();
}

namespace {
struct UopSearchPass : mlir::uop::impl::UopSearchPassBase<UopSearchPass> {
  using Base::Base;
  void runOnOperation() override {
    if (!(searchSeconds >= 0)) {
      emitError(getOperation().getLoc(), "uop-search: search-seconds must be >= 0, got ")
          << searchSeconds;
      return signalPassFailure();
    }
    CompileOptions options;
    options.searchSeconds = searchSeconds;
    options.openmp = openmp;
    unsigned before = 0, after = 0;
    for (auto k : getOperation().getOps<func::FuncOp>())
      before += isKernel(k) && k->hasAttr(kOptsAttrName);
    if (failed(searchOpts(getOperation(), options, llvm::errs())))
      return signalPassFailure();
    for (auto k : getOperation().getOps<func::FuncOp>())
      after += isKernel(k) && k->hasAttr(kOptsAttrName);
    numSearched += after - before;
  }
};
} // namespace
