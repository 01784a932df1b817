//===- flash_attention.cpp - attention three ways, beside numpy ---------===//
//
// out = softmax(Q K^T / sqrt(D)) V, as the seed's examples/flash_attention.py:
//
//  1. unfused: the Tensor code, kernelized normally: the scores S = Q K^T are
//     materialized (N*N floats);
//  2. fused: the same Tensor code with fuse-reduce: the reductions nest in
//     their consumers, nothing N*N touches memory, Q K^T is recomputed by
//     each pass (max, sum, output); the one kernel is lowered with the
//     seed's FlashOpt (the head axis upcast by 16, the query axis threaded);
//  3. online: FlashAttention's online softmax written by hand as a loop
//     program (online_attention.uir next to this file): one pass over the
//     keys with a running max, a running sum and a rescaled accumulator;
//  4. blocked: the same online softmax with 8 queries per thread
//     (online_attention_blocked.uir), so that each K and V row read serves
//     8 queries and their 8 update chains overlap;
//  5. tiled: the online softmax over blocks of 64 keys for blocks of 32
//     queries (online_attention_tiled.uir), FlashAttention's tiling: each
//     key block is a score product, a softmax update over the block and a
//     P V product, the two products register tiles in the host's vector
//     lanes (#uop.opts<vector = W> on the program; D = 64 only).
//
// Each is checked against numpy (run as a process, which also times it) and
// timed, best of --reps runs, in one table with the host CPU. The times are
// of the compiled programs on bound buffers (unfused and fused compiled
// from the program the Tensor frontend realizes); the unfused way's
// end-to-end time through the Tensor API is printed below the table.
//
//   build/bin/flash_attention [--n=256,1024] [--d=64] [--reps=5]
//                             [--ways=unfused,fused,online,blocked,tiled]
//                             [--target=cpu|cuda] [--export=DIR]
//
// --target=cuda runs the ways on the GPU (where compiler and GPU share a
// machine; the tiled way and the fused way's FlashOpt are written for a
// CPU's vector lanes and threads: tiled is skipped, fused takes the hand
// rules). --export=DIR runs nothing: it writes each way's program as the
// target would compile it (DIR/nN/WAY.mlir) with Q, K, V and numpy's output
// (DIR/nN/{q,k,v,ref}.npy), for bench/gpu/attention.py, which compiles them
// into CUDA bundles here and runs them on a GPU machine beside PyTorch's
// scaled_dot_product_attention.
//
//===----------------------------------------------------------------------===//

#include "Support.h"

#include "Uop/ExecutionEngine/ExecutionEngine.h"
#include "Uop/Frontend/Tensor.h"
#include "Uop/Runtime/Npy.h"
#include "Uop/Target/Program.h"
#include "Uop/Target/UIR.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <regex>

using namespace uop;
using namespace uop::examples;
using rt::HostBuffer;

#ifndef UOP_EXAMPLES_DIR
#define UOP_EXAMPLES_DIR "examples"
#endif

/// Best wall-clock seconds of `reps` calls after one warm-up (which compiles).
static llvm::Expected<double> bestOf(int64_t reps, const std::function<llvm::Error()> &fn) {
  if (llvm::Error e = fn())
    return std::move(e);
  double best = INFINITY;
  for (int64_t r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    if (llvm::Error e = fn())
      return std::move(e);
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

static double maxAbsDiff(const HostBuffer &a, const HostBuffer &b) {
  if (a.numel() != b.numel())
    return INFINITY;
  double err = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    double d = std::fabs(a.getDouble(i) - b.getDouble(i));
    if (!(d <= err)) // NaN counts as infinitely wrong
      err = std::isnan(d) ? INFINITY : d;
  }
  return err;
}

//===----------------------------------------------------------------------===//
// numpy: the reference and its time, from a python3 process
//===----------------------------------------------------------------------===//

static const char *kNumpyScript = R"PY(
import math, sys, time
import numpy as np
d, reps = sys.argv[1], int(sys.argv[2])
q, k, v = (np.load(f"{d}/{n}.npy") for n in "qkv")
def attention():
    s = q @ k.T / np.float32(math.sqrt(q.shape[-1]))
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)) @ v
ref = attention(); best = math.inf
for _ in range(reps):
    t0 = time.perf_counter(); attention(); best = min(best, time.perf_counter() - t0)
np.save(f"{d}/ref.npy", ref.astype(np.float32))
print(f"{best:.9f}")
)PY";

struct NumpyResult {
  HostBuffer ref;
  double seconds;
};

/// Runs numpy on q, k, v (written to `dir`); an error when python3 or numpy
/// is missing or the script fails.
static llvm::Expected<NumpyResult> runNumpy(const std::string &dir, const HostBuffer &q,
                                            const HostBuffer &k, const HostBuffer &v,
                                            int64_t reps) {
  for (auto [name, buf] : {std::pair{"q", &q}, {"k", &k}, {"v", &v}})
    if (auto w = rt::writeNpy(dir + "/" + name + ".npy", *buf); !w)
      return makeError(w.error());
  llvm::ErrorOr<std::string> python = llvm::sys::findProgramByName("python3", {"/usr/bin"});
  if (!python)
    python = llvm::sys::findProgramByName("python3");
  if (!python)
    return makeError("python3 not found (Debian's python3 and python3-numpy)");
  std::string script = dir + "/numpy_attention.py", out = dir + "/numpy.out";
  {
    std::ofstream f(script);
    f << kNumpyScript;
  }
  std::string repsArg = std::to_string(reps);
  llvm::StringRef args[] = {*python, script, dir, repsArg};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out), std::nullopt};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*python, args, std::nullopt, redirects, 0, 0, &message);
  if (rc != 0)
    return makeError("numpy failed (python3 exit status " + llvm::Twine(rc) +
                     (message.empty() ? "" : ": " + message) + "; is python3-numpy installed?)");
  auto text = llvm::MemoryBuffer::getFile(out);
  double seconds;
  if (!text || llvm::StringRef((*text)->getBuffer()).trim().getAsDouble(seconds))
    return makeError("numpy printed no time");
  auto ref = rt::readNpy(dir + "/ref.npy");
  if (!ref)
    return makeError(ref.error());
  return NumpyResult{ref.take(), seconds};
}

//===----------------------------------------------------------------------===//
// The three ways
//===----------------------------------------------------------------------===//

static Tensor attention(const Tensor &q, const Tensor &k, const Tensor &v) {
  double scale = 1.0 / std::sqrt(static_cast<double>(q.shape().back()));
  return (q.matmul(k.T()) * scale).softmax(-1).matmul(v);
}

struct WayResult {
  double seconds = 0;
  HostBuffer out;
  std::string notes;
};

/// Parses `text` (MLIR or .uir, named `name`) in `context`; the diagnostics
/// go to `diagnostics`.
static mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &context, llvm::StringRef text,
                                               llvm::StringRef name, std::string &diagnostics) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name), llvm::SMLoc());
  llvm::raw_string_ostream os(diagnostics);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
  return mlir::uop::parseProgram(sourceMgr, &context);
}

/// Compiles `module` with `options` and times its runs on Q, K, V (slots 0,
/// 1, 2: the frontend numbers data by first use), best of `reps`; a shaped
/// program returns its value, a kernel graph writes slot 3.
/// Where a way goes: the machine it is compiled for, and (--export) the
/// file its program is written to instead of being run.
struct WayTarget {
  mlir::uop::CompileTarget target = mlir::uop::CompileTarget::CPU;
  std::string exportFile;
  bool cpu() const { return target == mlir::uop::CompileTarget::CPU; }
};

static llvm::Expected<WayResult> runCompiled(mlir::ModuleOp module,
                                             const mlir::uop::CompileOptions &options,
                                             std::string &diagnostics, HostBuffer &q, HostBuffer &k,
                                             HostBuffer &v, int64_t reps,
                                             const WayTarget &where) {
  if (!where.exportFile.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(where.exportFile, ec);
    if (ec)
      return makeError(where.exportFile + ": cannot write: " + ec.message());
    module.print(os);
    return WayResult{0, HostBuffer(), "exported"};
  }
  auto exe = mlir::uop::compile(module, options);
  if (mlir::failed(exe))
    return makeError(diagnostics);
  WayResult r;
  const rt::HostPlan &plan = (*exe)->plan();
  bool inPlace = plan.form == rt::HostPlan::InPlace;
  std::function<llvm::Error()> once;
  HostBuffer out(rt::DType::F32, {q.numel()});
  if (inPlace) {
    once = [&]() -> llvm::Error {
      if (auto ran = (*exe)->runInPlace({{0, &q}, {1, &k}, {2, &v}, {3, &out}}); !ran)
        return makeError(ran.error());
      return llvm::Error::success();
    };
  } else {
    once = [&]() -> llvm::Error {
      auto values = (*exe)->run({{0, &q}, {1, &k}, {2, &v}});
      if (!values)
        return makeError(values.error());
      if (values->size() != 1)
        return makeError("the program returned " + llvm::Twine(values->size()) + " values");
      out = std::move(values->front());
      return llvm::Error::success();
    };
  }
  llvm::Expected<double> t = bestOf(reps, once);
  if (!t)
    return t.takeError();
  r.seconds = *t;
  r.out = std::move(out);
  r.notes =
      std::to_string(plan.kernels.size()) + (plan.kernels.size() == 1 ? " kernel" : " kernels");
  std::map<std::string, int> opts;
  for (const rt::PlanKernel &kernel : plan.kernels)
    opts[kernel.opts.empty() ? "no opts" : kernel.opts]++;
  for (auto &[o, n] : opts)
    r.notes += ", " + std::to_string(n) + "x " + o;
  return r;
}

/// The Tensor code's program (as the frontend realizes it), compiled with
/// `fuse` and, when given, `opts` on the program (each kernel lowered with
/// them; with fuse-reduce attention is one kernel), else the hand rules.
/// The end-to-end time through the Tensor API (graph, plan-cache lookup,
/// run, copy out: what the seed's `.numpy()` costs) goes in the notes.
static llvm::Expected<WayResult> runTensorWay(bool fuse, llvm::StringRef opts,
                                              const std::shared_ptr<HostBuffer> &q,
                                              const std::shared_ptr<HostBuffer> &k,
                                              const std::shared_ptr<HostBuffer> &v, int64_t reps,
                                              const WayTarget &where) {
  TensorOptions tensorOptions;
  tensorOptions.compile.fuseReduce = fuse;
  tensorOptions.compile.target = where.target;
  if (!opts.empty())
    tensorOptions.compile.opt = mlir::uop::OptMode::None;
  TensorContext ctx(tensorOptions);
  auto build = [&] {
    return attention(Tensor::fromBuffer(q, ctx), Tensor::fromBuffer(k, ctx),
                     Tensor::fromBuffer(v, ctx));
  };
  llvm::Expected<std::string> text = ctx.programText({build()});
  if (!text)
    return text.takeError();
  mlir::DialectRegistry registry;
  mlir::uop::registerUIRDialects(registry);
  mlir::MLIRContext context(registry);
  std::string diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(context, *text, "attention.mlir", diagnostics);
  if (!module)
    return makeError(diagnostics);
  if (!opts.empty()) {
    mlir::Attribute attr = mlir::parseAttribute(opts, &context);
    auto main = module->lookupSymbol<mlir::func::FuncOp>("main");
    if (!attr || !main)
      return makeError("cannot set the opts " + opts);
    main->setAttr("uop.opts", attr);
  }
  llvm::Expected<WayResult> r =
      runCompiled(*module, tensorOptions.compile, diagnostics, *q, *k, *v, reps, where);
  if (!r || !opts.empty() || !where.exportFile.empty())
    return r;
  llvm::Expected<double> e2e =
      bestOf(reps, [&]() -> llvm::Error { return build().numpy().takeError(); });
  if (!e2e)
    return e2e.takeError();
  char buf[96];
  std::snprintf(buf, sizeof buf, "; end to end through the Tensor API %.3f ms", *e2e * 1e3);
  r->notes += buf;
  return r;
}

/// The queries per thread of online_attention_blocked.uir.
static constexpr int64_t kBlockedQueries = 8;
/// The queries per thread and keys per block of online_attention_tiled.uir,
/// and the one head dimension it is written for (online_attention_tiled.py's
/// R, KB and D).
static constexpr int64_t kTiledQueries = 32, kTiledKeys = 64, kTiledD = 64;

/// Which loop program runs the online softmax.
enum class OnlineWay { Plain, Blocked, Tiled };

/// Why `way` cannot run at N and D, or "" when it can.
static std::string onlineUnfit(OnlineWay way, int64_t n, int64_t d) {
  if (way == OnlineWay::Blocked && n % kBlockedQueries != 0)
    return "the blocked way takes " + std::to_string(kBlockedQueries) +
           " queries per thread: N=" + std::to_string(n) + " is not a multiple of " +
           std::to_string(kBlockedQueries);
  if (way == OnlineWay::Tiled && (d != kTiledD || n % kTiledKeys != 0))
    return "the tiled way is written for D=" + std::to_string(kTiledD) + " and N a multiple of " +
           std::to_string(kTiledKeys);
  return "";
}

/// online_attention.uir (or online_attention_blocked.uir, _tiled.uir) for N
/// and D: its tokens 1024, 64, 65536 (blocked: and 128 = N/8, 512 = 8*D)
/// and its scale replaced (each is written for N=1024, D=64). The tiled
/// program, where D is 64 and many constants are multiples of its tiles,
/// has one token, 65536 = N*D, and the counts of its ranges %i (N/32) and
/// %jb (N/64) are replaced on their own lines.
static llvm::Expected<std::string> instantiateOnline(const std::string &path, int64_t n, int64_t d,
                                                     OnlineWay way) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return makeError(path + ": cannot read: " + file.getError().message());
  char scale[64];
  std::snprintf(scale, sizeof scale, "%.17g", 1.0 / std::sqrt(double(d)) / std::log(2.0));
  std::map<std::string, std::string> tokens = {{"1024", std::to_string(n)},
                                               {"64", std::to_string(d)},
                                               {"65536", std::to_string(n * d)},
                                               {"0.18033688011112042", scale}};
  if (way == OnlineWay::Blocked) {
    tokens["128"] = std::to_string(n / kBlockedQueries);
    tokens["512"] = std::to_string(kBlockedQueries * d);
  }
  std::map<std::string, int64_t> rangeCounts;
  if (way == OnlineWay::Tiled) {
    tokens = {{"65536", std::to_string(n * d)}};
    rangeCounts = {{"%i", n / kTiledQueries}, {"%jb", n / kTiledKeys}};
  }
  std::regex rangeLine(R"(^(%[A-Za-z_][A-Za-z0-9_]*) = range [0-9]+( :.*)$)");
  std::string result;
  std::regex number(R"([0-9][0-9.]*)");
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef((*file)->getBuffer()).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    std::string l = line.str();
    std::smatch m;
    if (std::regex_match(l, m, rangeLine)) {
      if (auto it = rangeCounts.find(m[1].str()); it != rangeCounts.end()) {
        result += m[1].str() + " = range " + std::to_string(it->second) + m[2].str() + "\n";
        continue;
      }
    }
    if (!line.ltrim().starts_with("#")) {
      // One pass over the tokens, so that replacements are never replaced again.
      std::string out;
      auto begin = std::sregex_iterator(l.begin(), l.end(), number);
      size_t at = 0;
      for (auto it = begin; it != std::sregex_iterator(); ++it) {
        size_t pos = static_cast<size_t>(it->position());
        // Not part of a name (%d0, idx=1).
        bool inName = pos > 0 && (std::isalpha(static_cast<unsigned char>(l[pos - 1])) ||
                                  l[pos - 1] == '_' || l[pos - 1] == '=');
        auto t = tokens.find(it->str());
        out += l.substr(at, pos - at);
        out += (!inName && t != tokens.end()) ? t->second : it->str();
        at = pos + it->length();
      }
      l = out + l.substr(at);
    }
    result += l + "\n";
  }
  return result;
}

/// The loop program for a GPU: its thread range (the queries, a thread
/// each) becomes blocks of up to 64 GPU threads, a GLOBAL range over the
/// blocks and a LOCAL one in them (`%i = %ib * T + %it`); the rest is the
/// same per-thread program.
static std::string threadsToGpu(const std::string &text) {
  std::regex threadLine(R"(^(%[A-Za-z_][A-Za-z0-9_]*) = range ([0-9]+) : idx=([0-9]+) kind=thread$)");
  std::smatch found;
  if (!std::regex_search(text, found, std::regex(R"(idx=([0-9]+) kind=thread)")))
    return text;
  // The LOCAL range right inside the GLOBAL one: the ranges after it move
  // one index out (range indices order the loops).
  int64_t threadIdx = std::stoll(found[1].str());
  std::regex anyIdx(R"(idx=([0-9]+))");
  std::string renumbered;
  size_t at = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), anyIdx);
       it != std::sregex_iterator(); ++it) {
    int64_t k = std::stoll((*it)[1].str());
    renumbered += text.substr(at, it->position() - at);
    renumbered += "idx=" + std::to_string(k > threadIdx ? k + 1 : k);
    at = it->position() + it->length();
  }
  renumbered += text.substr(at);
  std::smatch def;
  std::string name;
  if (std::regex_search(renumbered, def, std::regex(R"((%[A-Za-z_][A-Za-z0-9_]*) = range [0-9]+ : idx=[0-9]+ kind=thread)")))
    name = def[1].str();
  // An `end` of the thread range ends both GPU ranges.
  std::regex endOfThread("^(%[A-Za-z_][A-Za-z0-9_]* = end .*)" + name + "(,|$)(.*)$");
  std::string out;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(renumbered).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    std::string l = line.str();
    std::smatch m;
    if (std::regex_match(l, m, endOfThread)) {
      out += m[1].str() + name + "_t, " + name + "_b" + m[2].str() + m[3].str() + "\n";
      continue;
    }
    if (!std::regex_match(l, m, threadLine)) {
      out += l + "\n";
      continue;
    }
    int64_t count = std::stoll(m[2].str()), t = 64;
    while (t > 1 && count % t != 0)
      t /= 2;
    out += name + "_b = range " + std::to_string(count / t) + " : idx=" + m[3].str() +
           " kind=global\n";
    out += name + "_t = range " + std::to_string(t) + " : idx=" + std::to_string(threadIdx + 1) +
           " kind=local\n";
    out += name + "_o = mul " + name + "_b, " + std::to_string(t) + "\n";
    out += name + " = add " + name + "_o, " + name + "_t\n";
  }
  return out;
}

static llvm::Expected<WayResult> runOnline(const std::string &uirPath, int64_t n, int64_t d,
                                           OnlineWay way, HostBuffer &q, HostBuffer &k,
                                           HostBuffer &v, int64_t reps, const WayTarget &where) {
  if (std::string why = onlineUnfit(way, n, d); !why.empty())
    return makeError(why);
  llvm::Expected<std::string> text = instantiateOnline(uirPath, n, d, way);
  if (!text)
    return text.takeError();
  // On a GPU the thread range would be one thread: GPU threads instead.
  if (!where.cpu())
    *text = threadsToGpu(*text);
  mlir::DialectRegistry registry;
  mlir::uop::registerUIRDialects(registry);
  mlir::MLIRContext context(registry);
  std::string diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(context, *text, uirPath, diagnostics);
  if (!module)
    return makeError(diagnostics);
  // As written: the query axis is the program's thread range. The tiled
  // program's register tiles take the host's vector lanes (two vectors of
  // f32, as uop-hand-opt's gemm tile); the others have no opts.
  if (way == OnlineWay::Tiled) {
    auto main = module->lookupSymbol<mlir::func::FuncOp>("main");
    if (!main)
      return makeError(uirPath + ": no @main");
    main->setAttr(
        "uop.opts",
        mlir::parseAttribute(
            "#uop.opts<vector = " + std::to_string(mlir::uop::detectHostTarget(&context).getTileLanes()) + ">", &context));
  }
  mlir::uop::CompileOptions options;
  options.target = where.target;
  llvm::Expected<WayResult> r = runCompiled(*module, options, diagnostics, q, k, v, reps, where);
  if (r)
    r->notes += " (" + llvm::sys::path::filename(uirPath).str() + ": one pass over the keys" +
                (way == OnlineWay::Blocked ? ", 8 queries per thread)"
                 : way == OnlineWay::Tiled ? ", blocks of 64 keys for 32 queries per thread, "
                                             "register tiles in vector lanes)"
                                           : ")");
  return r;
}

int main(int argc, char **argv) {
  std::string sizes = "256,1024", ways = "unfused,fused,online,blocked,tiled";
  std::string uir = std::string(UOP_EXAMPLES_DIR) + "/flash_attention/online_attention.uir";
  std::string uirBlocked =
      std::string(UOP_EXAMPLES_DIR) + "/flash_attention/online_attention_blocked.uir";
  std::string uirTiled =
      std::string(UOP_EXAMPLES_DIR) + "/flash_attention/online_attention_tiled.uir";
  int64_t d = 64, reps = 5, seed = 0, fusedMaxN = 4096;
  std::string target = "cpu", exportDir;
  Flags flags;
  flags.usage = "[--n=256,1024] [--d=64] [--reps=5] [--ways=unfused,fused,online,blocked,tiled]";
  flags.add("n", &sizes, "sequence lengths N, comma-separated")
      .add("d", &d, "head dimension D")
      .add("reps", &reps, "timed runs of each way (the best is shown)")
      .add("ways", &ways,
           "which of unfused, fused, online, blocked, tiled to run (tiled: D=64 and N a "
           "multiple of 64, other sizes are skipped)")
      .add("seed", &seed, "seed of Q, K, V")
      .add("target", &target, "where the ways run: cpu or cuda (a GPU on this machine)")
      .add("export", &exportDir,
           "write each way's program and Q, K, V, numpy's output into this directory instead of "
           "running them (bench/gpu/attention.py)")
      .add("fused-max-n", &fusedMaxN,
           "largest N the fused way runs at (its kernel is O(N^2 D^2 / 16), as the seed's: "
           "about 0.3 s at N=1024, D=64 on 2 cores)")
      .add("uir", &uir, "the online loop program (written for N=1024, D=64)")
      .add("uir-blocked", &uirBlocked,
           "the blocked online loop program, 8 queries per thread (written for N=1024, D=64)")
      .add("uir-tiled", &uirTiled,
           "the tiled online loop program, 64 keys a block for 32 queries per thread (written for "
           "N=1024, D=64)");
  if (llvm::Error e = flags.parse(argc, argv))
    return reportError("flash_attention", std::move(e));
  std::vector<int64_t> ns;
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(sizes).split(parts, ',', -1, false);
  for (llvm::StringRef p : parts) {
    long long v;
    if (p.trim().getAsInteger(10, v) || v <= 0)
      return reportError("flash_attention", makeError("--n: '" + p + "' is not a positive size"));
    ns.push_back(v);
  }
  if (d <= 0 || reps < 1)
    return reportError("flash_attention", makeError("--d and --reps must be positive"));
  WayTarget where;
  if (target == "cuda")
    where.target = mlir::uop::CompileTarget::CUDA;
  else if (target != "cpu")
    return reportError("flash_attention",
                       makeError("--target: '" + target + "' (expected cpu or cuda)"));
  if (!exportDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(exportDir))
      return reportError("flash_attention",
                         makeError("--export: cannot create " + exportDir + ": " + ec.message()));
  llvm::SmallVector<llvm::StringRef> wayList;
  llvm::StringRef(ways).split(wayList, ',', -1, false);
  for (llvm::StringRef w : wayList)
    if (w != "unfused" && w != "fused" && w != "online" && w != "blocked" && w != "tiled")
      return reportError(
          "flash_attention",
          makeError("--ways: unknown way '" + w + "' (unfused, fused, online, blocked, tiled)"));

  llvm::SmallString<128> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("uop-flash", tmp))
    return reportError("flash_attention",
                       makeError("cannot create a temporary directory: " + ec.message()));
  // Removed on every way out (an error included), not only at the end.
  struct RemoveOnExit {
    llvm::SmallString<128> &dir;
    ~RemoveOnExit() { llvm::sys::fs::remove_directories(dir); }
  } removeTmp{tmp};

  std::printf("flash attention: out = softmax(Q K^T / sqrt(D)) V, f32, D=%lld, best of %lld runs\n",
              (long long)d, (long long)reps);
  std::string load = hostLoad();
  std::printf("host: %s%s\n\n", hostCpuDescription().c_str(),
              load.empty() ? "" : (", " + load).c_str());
  std::printf("%6s  %-8s %10s %10s %10s  %s\n", "N", "way", "ms", "vs numpy", "max err", "check");
  bool allOk = true;
  std::map<std::string, std::string> notes;
  for (int64_t n : ns) {
    Generator gen(static_cast<uint64_t>(seed));
    auto q = std::make_shared<HostBuffer>(rt::DType::F32, std::vector<int64_t>{n, d});
    auto k = std::make_shared<HostBuffer>(rt::DType::F32, std::vector<int64_t>{n, d});
    auto v = std::make_shared<HostBuffer>(rt::DType::F32, std::vector<int64_t>{n, d});
    for (HostBuffer *b : {q.get(), k.get(), v.get()})
      for (int64_t i = 0; i < b->numel(); ++i)
        b->as<float>()[i] = static_cast<float>(gen.nextNormal());
    // The seed's FlashOpt: the head axis unrolled (up to 16) so that each
    // Q K^T value feeds 16 accumulators, the query axis across threads.
    std::string fusedOpts =
        "#uop.opts<upcast = {1: " + std::to_string(std::min<int64_t>(d, 16)) + "}, thread = 0>";
    // Exported: the inputs and numpy's output beside the programs.
    std::string nDir = exportDir.empty() ? tmp.str().str() : exportDir + "/n" + std::to_string(n);
    if (std::error_code ec = llvm::sys::fs::create_directories(nDir))
      return reportError("flash_attention", makeError("cannot create " + nDir + ": " + ec.message()));
    llvm::Expected<NumpyResult> np = runNumpy(nDir, *q, *k, *v, reps);
    if (!np)
      return reportError("flash_attention", np.takeError());
    std::printf("%6lld  %-8s %10.3f %10s %10s  %s\n", (long long)n, "numpy", np->seconds * 1e3,
                "1.00x", "-", "reference");
    for (llvm::StringRef way : wayList) {
      if (way == "fused" && n > fusedMaxN) {
        std::printf("%6lld  %-8s %10s %10s %10s  %s\n", (long long)n, "fused", "-", "-", "-",
                    "skipped (N > --fused-max-n)");
        continue;
      }
      // The tiled program is written for one D and N in key blocks: other
      // sizes are a row that says why, not an error (it is a default way).
      if (way == "tiled" && !where.cpu()) {
        std::printf("%6lld  %-8s %10s %10s %10s  skipped (written for a CPU's vector lanes)\n",
                    (long long)n, "tiled", "-", "-", "-");
        continue;
      }
      if (way == "tiled")
        if (std::string why = onlineUnfit(OnlineWay::Tiled, n, d); !why.empty()) {
          std::printf("%6lld  %-8s %10s %10s %10s  skipped (%s)\n", (long long)n, "tiled", "-", "-",
                      "-", why.c_str());
          continue;
        }
      WayTarget at = where;
      if (!exportDir.empty())
        at.exportFile = nDir + "/" + way.str() + ".mlir";
      llvm::Expected<WayResult> r = [&] {
        if (way == "online")
          return runOnline(uir, n, d, OnlineWay::Plain, *q, *k, *v, reps, at);
        if (way == "blocked")
          return runOnline(uirBlocked, n, d, OnlineWay::Blocked, *q, *k, *v, reps, at);
        if (way == "tiled")
          return runOnline(uirTiled, n, d, OnlineWay::Tiled, *q, *k, *v, reps, at);
        // FlashOpt is the CPU's (threads, registers); a GPU takes the hand rules.
        if (way == "fused")
          return runTensorWay(true, at.cpu() ? fusedOpts : "", q, k, v, reps, at);
        return runTensorWay(false, "", q, k, v, reps, at);
      }();
      if (!r)
        return reportError("flash_attention", r.takeError());
      if (!at.exportFile.empty()) {
        std::printf("%6lld  %-8s %10s %10s %10s  exported: %s\n", (long long)n, way.str().c_str(),
                    "-", "-", "-", at.exportFile.c_str());
        continue;
      }
      double err = maxAbsDiff(r->out, np->ref);
      bool ok = err <= 1e-4;
      allOk &= ok;
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.2fx", np->seconds / r->seconds);
      std::printf("%6lld  %-8s %10.3f %10s %10.1e  %s\n", (long long)n, way.str().c_str(),
                  r->seconds * 1e3, ratio, err, ok ? "OK" : "MISMATCH");
      std::fflush(stdout);
      notes[way.str()] = r->notes; // the largest N's
    }
  }
  std::printf("\n(ms: the compiled program run on bound buffers; \"vs numpy\" > 1 is faster "
              "than numpy)\n");
  for (llvm::StringRef way : wayList)
    if (notes.count(way.str()))
      std::printf("%-8s %s\n", way.str().c_str(), notes[way.str()].c_str());
  if (!allOk) {
    std::fprintf(stderr, "flash_attention: error: a way does not match numpy\n");
    return 1;
  }
  return 0;
}
