//===- SymbolicBench.cpp - uop-symbolic time per op ------------*- C++ -*-===//
//
// Simplification time must grow linearly with graph size (issue 4): builds
// index-arithmetic graphs of 10^3 .. 10^6 ops, runs uop-symbolic on each and
// prints one table: ops before and after, total time, time per op.
//
//   uop-bench-symbolic [max-ops]     (default 1000000)
//   uop-bench-symbolic --emit N      (print the graph of about N ops)
//   uop-bench-symbolic --eval N      (simplify the graph of about N ops; print
//                                     its op count and its value at a few
//                                     points, as bench/symbolic_seed.py does)
//
// bench/symbolic.sh prints this table side by side with the seed's.
//
// Each chunk of the graph is the kind of expression rangeify produces:
// x*4 + c, its floor div and mod by 4, recombined, compared against a range's
// bound and selected; chunks chain through a max, so the graph is as deep as
// it is large (nothing may recurse on depth).
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopSemantics.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <ctime>

using namespace mlir;
using namespace mlir::uop;

/// A function of about `n` ops; returns the module.
static OwningOpRef<ModuleOp> buildGraph(MLIRContext &context, int64_t n) {
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  Type i32 = b.getI32Type();
  auto func = func::FuncOp::create(b, loc, "bench", b.getFunctionType({i32}, {i32}));
  b.setInsertionPointToEnd(func.addEntryBlock());
  auto c = [&](int64_t v) -> Value { return ConstOp::create(b, loc, b.getI32IntegerAttr(v)); };
  Value c16 = c(16);
  Value j = RangeOp::create(b, loc, c16, 1, AxisKind::Loop);
  Value x = func.getArgument(0);
  int64_t ops = 3;
  for (int64_t k = 0; ops < n; ++k) {
    Value four = c(4), ck = c(k % 13 + 1), sixteen = c(16);
    Value a = MulOp::create(b, loc, x, four);
    Value s = AddOp::create(b, loc, a, ck);          // x*4 + c
    Value q = FloorDivOp::create(b, loc, s, four);   // -> x + c//4
    Value r = FloorModOp::create(b, loc, s, four);   // -> c%4
    Value qm = MulOp::create(b, loc, q, four);
    Value t = AddOp::create(b, loc, qm, r);          // -> x*4 + c
    Value u = FloorDivOp::create(b, loc, t, four);   // -> x + c//4
    Value lt = CmpLtOp::create(b, loc, j, sixteen);  // bounds: true
    Value w = WhereOp::create(b, loc, lt, u, x);     // -> u
    Value m = FloorModOp::create(b, loc, j, sixteen);// bounds: j
    x = MaxOp::create(b, loc, w, m);
    ops += 14;
  }
  func::ReturnOp::create(b, loc, x);
  return module;
}

static int64_t countOps(ModuleOp module) {
  int64_t n = 0;
  module.walk([&](Operation *op) { n += !isa<ModuleOp, func::FuncOp>(op); });
  return n;
}

/// The (x, j) points of bench/symbolic_seed.py's POINTS.
static const int64_t kPoints[][2] = {{0, 0},          {1, 5},          {-7, 15},
                                     {100, 3},        {2147483647, 0}, {-2147483648LL, 15}};

/// The value of the function `@bench` at x (its argument) and j (the value of
/// its range), computed op by op with exec_alu; nullopt if something is not
/// an ALU op or does not fold (as the seed's run would not reduce to a
/// constant).
static std::optional<int64_t> evaluate(ModuleOp module, int64_t x, int64_t j) {
  auto func = *module.getOps<func::FuncOp>().begin();
  llvm::DenseMap<Value, Scalar> vals;
  vals[func.getArgument(0)] = Scalar::integer(x);
  for (Operation &op : func.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op))
      return vals.lookup(ret.getOperand(0)).i;
    if (auto c = dyn_cast<ConstOp>(op)) {
      vals[c] = getElement(c.getValue(), 0);
      continue;
    }
    if (isa<RangeOp>(op)) {
      vals[op.getResult(0)] = Scalar::integer(j);
      continue;
    }
    std::optional<AluKind> kind = getAluKind(&op);
    if (!kind)
      return std::nullopt;
    SmallVector<Scalar> in;
    for (Value operand : op.getOperands())
      in.push_back(vals.lookup(operand));
    std::optional<Scalar> r = execAlu(*kind, getDType(op.getResult(0).getType()), in);
    if (!r)
      return std::nullopt;
    vals[op.getResult(0)] = *r;
  }
  return std::nullopt;
}

int main(int argc, char **argv) {
  MLIRContext context;
  context.loadDialect<UopDialect, func::FuncDialect>();
  context.disableMultithreading();
  // `--emit N`: print the graph of about N ops (for uop-opt --mlir-timing).
  if (argc > 2 && StringRef(argv[1]) == "--emit") {
    buildGraph(context, std::atoll(argv[2]))->print(llvm::outs());
    return 0;
  }
  // `--eval N`: simplify the graph of about N ops and print what
  // bench/symbolic_seed.py prints for it, less the time.
  if (argc > 2 && StringRef(argv[1]) == "--eval") {
    OwningOpRef<ModuleOp> module = buildGraph(context, std::atoll(argv[2]));
    int64_t before = countOps(*module);
    PassManager pm(&context);
    pm.addPass(createUopSymbolicPass());
    if (failed(pm.run(*module))) {
      llvm::errs() << "uop-symbolic failed\n";
      return 1;
    }
    llvm::outs() << "ops " << before << " after " << countOps(*module) << " eval";
    for (auto [x, j] : kPoints) {
      std::optional<int64_t> v = evaluate(*module, x, j);
      llvm::outs() << " " << (v ? std::to_string(*v) : std::string("None"));
    }
    llvm::outs() << "\n";
    return 0;
  }
  int64_t maxOps = argc > 1 ? std::atoll(argv[1]) : 1000000;
  // Wall time, and CPU time of this thread (the same on an idle machine; on
  // a shared one the CPU time is what the rewriting itself costs).
  llvm::outs() << llvm::formatv("{0,10} {1,10} {2,12} {3,12} {4,12} {5,12}\n", "ops",
                                "ops after", "wall ms", "wall ns/op", "cpu ms", "cpu ns/op");
  for (int64_t n = 1000; n <= maxOps; n *= 10) {
    OwningOpRef<ModuleOp> module = buildGraph(context, n);
    int64_t before = countOps(*module);
    PassManager pm(&context);
    pm.enableVerifier(false); // time the rewriting, not the verifier
    pm.addPass(createUopSymbolicPass());
    auto start = std::chrono::steady_clock::now();
    std::clock_t cpuStart = std::clock();
    if (failed(pm.run(*module))) {
      llvm::errs() << "uop-symbolic failed\n";
      return 1;
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
    double cpu = 1000.0 * double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    llvm::outs() << llvm::formatv("{0,10} {1,10} {2,12:F1} {3,12:F1} {4,12:F1} {5,12:F1}\n",
                                  before, countOps(*module), ms, ms * 1e6 / before, cpu,
                                  cpu * 1e6 / before);
  }
  return 0;
}
