//===- uop-run.cpp - compile and run a uop program -------------*- C++ -*-===//
//
//   uop-run PROGRAM [--target=cpu|emulate] [--input SLOT=FILE.npy]...
//           [--random-inputs[=SEED]] [--output SLOT=FILE.npy]... [--print]
//           [--bench=N]
//
// PROGRAM is .uir or .mlir. A shaped program (L1: its results are values)
// is kernelized (uop-kernelize), each kernel lowered (uop-rangeify,
// uop-linearize) and the host function run; `--output FILE.npy` saves the
// next value with its shape and dtype, `--print` prints the values. Every
// buffer slot it reads needs an input (or --random-inputs). A kernel-level program (L2: its result is a
// uop.sink of stores) runs with its buffers read and written in place: every
// buffer slot the kernel loads from needs an input (or --random-inputs);
// slots it only stores to start zeroed. `--output SLOT=FILE` saves a buffer
// after the run, `--print` prints the buffers the kernel writes.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"
#include "Uop/Frontend/PlanCache.h"
#include "Uop/IR/UopOps.h"
#include "Uop/Pipelines/Pipelines.h"
#include "Uop/Runtime/Runtime.h"
#include "Uop/Target/CPU.h"
#include "Uop/Target/UIR.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <map>

using namespace mlir;
namespace cl = llvm::cl;
namespace rt = ::uop::rt;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<program.uir|program.mlir>"),
                                      cl::Required);
static cl::opt<std::string> target("target", cl::desc("cpu (default), emulate (GPU ranges as loops) or cuda"),
                                   cl::init("cpu"));
static cl::list<std::string> inputs("input", cl::desc("SLOT=FILE.npy: the contents of a buffer slot"));
static cl::opt<std::string> randomInputs(
    "random-inputs", cl::ValueOptional,
    cl::desc("Fill buffers without --input with random data (optional seed, default 0)"));
static cl::list<std::string> outputs("output", cl::desc("SLOT=FILE.npy: save a buffer after the run"));
static cl::opt<bool> printBuffers("print", cl::desc("Print the buffers the program writes"));
static cl::opt<unsigned> benchRuns("bench", cl::desc("Time N runs; print the median and GFLOP/s"),
                                   cl::init(0));
static cl::opt<bool> fuseReduce("fuse-reduce",
                                cl::desc("Kernelize with reductions fused into their consumers"));
static cl::opt<std::string> optMode("opt", cl::desc("none (default), hand or search"),
                                    cl::init("none"));

namespace {

/// What the program says about one buffer slot.
struct Slot {
  int64_t slot;
  rt::DType dtype;
  int64_t size;
  bool read = false, written = false;
};

[[noreturn]] void fail(const llvm::Twine &msg) {
  llvm::errs() << "uop-run: error: " << msg << "\n";
  exit(1);
}


/// Splits "SLOT=FILE".
std::pair<int64_t, std::string> parseSlotArg(StringRef flag, StringRef arg) {
  auto [slot, file] = arg.split('=');
  int64_t n;
  if (file.empty() || slot.getAsInteger(10, n) || n < 0)
    fail("--" + flag + " expects SLOT=FILE.npy, got '" + arg + "'");
  return {n, file.str()};
}

/// Buffer slots of the kernel graph in `func`, with how the kernel uses them.
std::map<int64_t, Slot> collectSlots(func::FuncOp func) {
  std::map<int64_t, Slot> slots;
  func.walk([&](mlir::uop::BufferOp buf) {
    auto type = dyn_cast<MemRefType>(buf.getType());
    if (!type)
      return;
    auto dtype = mlir::uop::toRuntimeDType(type.getElementType());
    int64_t id = buf.getSlotAttr().getInt();
    Slot &s = slots.try_emplace(id, Slot{id, *dtype, type.getNumElements()}).first->second;
    // Follow the memory through after/index to its loads and stores.
    SmallVector<Value> work{buf.getResult()};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (isa<mlir::uop::LoadOp>(user))
          s.read = true;
        else if (auto st = dyn_cast<mlir::uop::StoreOp>(user)) {
          if (st.getPtr() == v)
            s.written = true;
        } else if (isa<mlir::uop::AfterOp, mlir::uop::IndexOp>(user) && user->getOperand(0) == v)
          work.push_back(user->getResult(0));
      }
    }
  });
  return slots;
}

/// Floating-point operations of one run: float arith ops weighted by the
/// trip counts of their enclosing loops (constant bounds).
double countFlops(func::FuncOp func) {
  double flops = 0;
  func.walk([&](Operation *op) {
    if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp>(op))
      return;
    double trips = 1;
    for (Operation *p = op->getParentOp(); p && p != func; p = p->getParentOp()) {
      auto tripCount = [](Value lb, Value ub, Value step) -> double {
        auto l = getConstantIntValue(lb), u = getConstantIntValue(ub),
             s = getConstantIntValue(step);
        if (!l || !u || !s || *s <= 0)
          return 1;
        return std::max<int64_t>(0, (*u - *l + *s - 1) / *s);
      };
      if (auto f = dyn_cast<scf::ForOp>(p))
        trips *= tripCount(f.getLowerBound(), f.getUpperBound(), f.getStep());
      else if (auto par = dyn_cast<scf::ParallelOp>(p))
        for (unsigned i = 0; i < par.getNumLoops(); ++i)
          trips *= tripCount(par.getLowerBound()[i], par.getUpperBound()[i], par.getStep()[i]);
    }
    flops += trips;
  });
  return flops;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "uop-run: compile and run a uop program\n");

  if (target != "cpu" && target != "emulate") {
    if (target == "cuda")
      fail("--target=cuda is not available yet in this build (use cpu or emulate)");
    fail("unknown --target '" + target + "' (expected cpu, emulate or cuda)");
  }
  if (optMode != "none")
    fail("--opt=" + optMode + " is not available yet (use --opt=none)");

  DialectRegistry registry;
  registry.insert<mlir::uop::UopDialect, func::FuncDialect, arith::ArithDialect, scf::SCFDialect,
                  memref::MemRefDialect, math::MathDialect, LLVM::LLVMDialect>();
  mlir::uop::registerUIRDialects(registry);
  registerAllExtensions(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string errorMessage;
  auto file = openInputFile(inputFile, &errorMessage);
  if (!file)
    fail(errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);

  OwningOpRef<ModuleOp> module;
  if (StringRef(inputFile).ends_with(".uir"))
    module = mlir::uop::importUIR(sourceMgr, &context);
  else
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module || failed(verify(*module)))
    return 1;

  auto main = module->lookupSymbol<func::FuncOp>("main");
  if (!main)
    fail(inputFile + ": no func.func @main to run");
  auto ret = dyn_cast<func::ReturnOp>(main.getBody().front().getTerminator());
  if (!ret || ret.getNumOperands() == 0)
    fail(inputFile + ": @main must return values (a shaped program) or the uop.sink of a "
                     "kernel graph");
  // A shaped program (L1) is kernelized: kernels plus a host function that
  // launches them; its values are computed into outputs the host returns.
  bool shaped = !isa<mlir::uop::VoidType>(ret.getOperand(0).getType());
  if (shaped && llvm::any_of(ret.getOperandTypes(), llvm::IsaPred<mlir::uop::VoidType>))
    fail(inputFile + ": @main returns both values and effects (!uop.void); a shaped program "
                     "returns values only");
  std::optional<mlir::uop::HostPlan> plan;
  std::map<int64_t, Slot> slots;
  if (shaped) {
    if (failed(mlir::uop::kernelizeModule(*module, fuseReduce)))
      return 1;
    auto p = mlir::uop::getHostPlan(main);
    if (failed(p))
      return 1;
    plan = std::move(*p);
  } else {
    if (ret.getNumOperands() != 1 || !ret.getOperand(0).getDefiningOp<mlir::uop::SinkOp>())
      fail(inputFile + ": @main is not a kernel graph (its result must be a uop.sink of stores)");
    slots = collectSlots(main);
  }

  // L1 -> L2 -> L3, count the work, then L3 -> LLVM.
  PassManager lower(&context);
  lower.addNestedPass<func::FuncOp>(mlir::uop::createUopRangeifyPass());
  lower.addNestedPass<func::FuncOp>(mlir::uop::createUopLinearizePass());
  lower.addPass(createCanonicalizerPass());
  if (failed(lower.run(*module)))
    return 1;
  double flops = 0;
  if (shaped) {
    // Each kernel's work, times the launches of it.
    llvm::StringMap<unsigned> launches;
    main.walk([&](mlir::uop::LaunchOp l) { ++launches[l.getKernel()]; });
    for (auto f : module->getOps<func::FuncOp>())
      if (unsigned n = launches.lookup(f.getSymName()))
        flops += n * countFlops(f);
  } else {
    flops = countFlops(main);
  }
  PassManager pm(&context);
  mlir::uop::buildUopCpuPipeline(pm, mlir::uop::UopCpuPipelineOptions());
  if (failed(pm.run(*module)) || failed(mlir::uop::addPackedEntry(*module, "main")))
    return 1;
  FailureOr<std::string> so = mlir::uop::compileToSharedLibrary(*module, mlir::uop::CpuCodegenOptions());
  if (failed(so))
    return 1;
  auto kernel = rt::CpuKernel::load(*so);
  if (!kernel.ok())
    fail(kernel.error());

  // Inputs by slot.
  std::map<int64_t, std::string> inputFiles;
  for (const std::string &arg : inputs) {
    auto [slot, path] = parseSlotArg("input", arg);
    int64_t id = slot;
    bool known = shaped ? llvm::any_of(plan->args,
                                       [&](const mlir::uop::HostArg &a) {
                                         return a.kind == mlir::uop::HostArg::Input && a.slot == id;
                                       })
                        : slots.count(slot) != 0;
    if (!known)
      fail("--input " + arg + ": the program has no buffer slot " + std::to_string(slot));
    inputFiles[slot] = path;
  }
  std::optional<uint64_t> seed;
  if (randomInputs.getNumOccurrences()) {
    uint64_t s = 0;
    if (!randomInputs.empty() && StringRef(randomInputs).getAsInteger(10, s))
      fail("--random-inputs expects an integer seed, got '" + randomInputs + "'");
    seed = s;
  }
  // The buffer of one slot: from its --input file, random, or zeroed.
  auto makeBuffer = [&](int64_t id, rt::DType dtype, int64_t size, bool read) {
    std::string what = std::to_string(size) + " x " + rt::dtypeName(dtype);
    if (auto it = inputFiles.find(id); it != inputFiles.end()) {
      auto buf = rt::readNpy(it->second);
      if (!buf.ok())
        fail("slot " + std::to_string(id) + ": " + buf.error());
      if (buf.value().dtype() != dtype || buf.value().numel() != size)
        fail("slot " + std::to_string(id) + ": the program's buffer is " + what + ", but " +
             it->second + " holds " + std::to_string(buf.value().numel()) + " x " +
             rt::dtypeName(buf.value().dtype()));
      return std::move(buf.value());
    }
    rt::HostBuffer b(dtype, std::vector<int64_t>{size});
    if (seed)
      b.fillRandom(*seed + id);
    else if (read)
      fail("missing input for slot " + std::to_string(id) + " (a buffer of " + what +
           " the program reads): pass --input " + std::to_string(id) +
           "=FILE.npy or --random-inputs");
    return b;
  };
  // Kernel graphs take their buffers in slot order; a host takes its inputs,
  // outputs and temporaries as its plan says.
  std::vector<rt::HostBuffer> buffers;
  std::map<int64_t, size_t> index; // slot -> buffer
  if (shaped) {
    for (const mlir::uop::HostArg &a : plan->args) {
      rt::DType dtype = *mlir::uop::toRuntimeDType(a.dtype);
      if (a.kind == mlir::uop::HostArg::Input) {
        index[a.slot] = buffers.size();
        buffers.push_back(makeBuffer(a.slot, dtype, a.numel, /*read=*/true));
      } else if (a.kind == mlir::uop::HostArg::Output) { // temporaries: the host allocates them
        buffers.emplace_back(dtype, std::vector<int64_t>{a.numel});
      }
    }
  } else {
    for (auto &[id, s] : slots) {
      index[id] = buffers.size();
      buffers.push_back(makeBuffer(id, s.dtype, s.size, s.read));
    }
  }
  std::vector<void *> args;
  for (auto &b : buffers)
    args.push_back(b.data());

  if (benchRuns > 0) {
    auto times = rt::timeRuns([&] { (*kernel.value().entry())(args.data()); }, benchRuns);
    double t = rt::median(times);
    llvm::outs() << llvm::format("median %.3f ms over %u runs", t * 1e3, (unsigned)benchRuns);
    if (flops > 0)
      llvm::outs() << llvm::format(", %.2f GFLOP/s", flops / t / 1e9);
    llvm::outs() << "\n";
  } else {
    kernel.value()(args.data());
  }

  // The values of a shaped program, with their shapes.
  std::vector<rt::HostBuffer> results;
  if (shaped) {
    for (auto [arg, shape] : llvm::zip(plan->results, plan->resultShapes)) {
      const rt::HostBuffer &flat = buffers[arg];
      rt::HostBuffer value(flat.dtype(), std::vector<int64_t>(shape.begin(), shape.end()));
      std::memcpy(value.data(), flat.data(), value.bytes());
      results.push_back(std::move(value));
    }
  }
  size_t nextResult = 0;
  for (const std::string &arg : outputs) {
    if (!StringRef(arg).contains('=')) {
      // --output FILE.npy: the next value of a shaped program, with its shape.
      if (!shaped)
        fail("--output " + arg + ": a kernel-level program has no value; save a buffer "
                                 "with --output SLOT=FILE.npy");
      if (nextResult >= results.size())
        fail("--output " + arg + ": the program has only " + std::to_string(results.size()) +
             " value(s)");
      auto ok = rt::writeNpy(arg, results[nextResult++]);
      if (!ok.ok())
        fail(ok.error());
      continue;
    }
    auto [slot, path] = parseSlotArg("output", arg);
    if (!index.count(slot))
      fail("--output " + arg + ": the program has no buffer slot " + std::to_string(slot) +
           (shaped ? " (save a shaped program's value with --output FILE.npy)" : ""));
    auto ok = rt::writeNpy(path, buffers[index[slot]]);
    if (!ok.ok())
      fail(ok.error());
  }
  if (printBuffers && shaped) {
    for (auto [i, value] : llvm::enumerate(results)) {
      if (results.size() > 1)
        llvm::outs() << "value " << i << ": ";
      llvm::outs() << value.format() << "\n";
    }
  } else if (printBuffers) {
    for (auto &[id, s] : slots)
      if (s.written)
        llvm::outs() << "slot " << id << ": " << buffers[index[id]].format() << "\n";
  }
  return 0;
}
