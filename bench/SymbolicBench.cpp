//===- SymbolicBench.cpp - uop-symbolic time per op ------------*- C++ -*-===//
//
// Simplification time must grow linearly with graph size (issue 4): builds
// graphs of 10^3 .. 10^6 ops, runs uop-symbolic on each and prints one
// table: ops before and after, total time, time per op.
//
//   uop-bench-symbolic [--shape index|dag] [max-ops]   (default index, 10^6)
//   uop-bench-symbolic [--shape S] --emit N  (print the graph of about N ops)
//   uop-bench-symbolic [--shape S] --eval N  (simplify the graph of about N
//                                     ops; print its op count and its value
//                                     at a few points, as
//                                     bench/symbolic_seed.py does)
//
// bench/symbolic.sh prints this table side by side with the seed's.
//
// Two shapes:
// - index: each chunk is the kind of expression rangeify produces: x*4 + c,
//   its floor div and mod by 4, recombined, compared against a range's bound
//   and selected; chunks chain through a max, so the graph is as deep as it
//   is large (nothing may recurse on depth).
// - dag: random integer expressions over two parameters and a range (add,
//   mul, floor div and mod by constants, max, where of a comparison), each
//   op taking its operands among the 32 values made last; the random numbers
//   are a 64-bit LCG that bench/symbolic_seed.py repeats, so both sides
//   build the same graph.
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

/// The index shape: a function of about `n` ops; returns the module.
static OwningOpRef<ModuleOp> buildIndexGraph(MLIRContext &context, int64_t n) {
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
    Value s = AddOp::create(b, loc, a, ck);        // x*4 + c
    Value q = FloorDivOp::create(b, loc, s, four); // -> x + c//4
    Value r = FloorModOp::create(b, loc, s, four); // -> c%4
    Value qm = MulOp::create(b, loc, q, four);
    Value t = AddOp::create(b, loc, qm, r);           // -> x*4 + c
    Value u = FloorDivOp::create(b, loc, t, four);    // -> x + c//4
    Value lt = CmpLtOp::create(b, loc, j, sixteen);   // bounds: true
    Value w = WhereOp::create(b, loc, lt, u, x);      // -> u
    Value m = FloorModOp::create(b, loc, j, sixteen); // bounds: j
    x = MaxOp::create(b, loc, w, m);
    ops += 14;
  }
  func::ReturnOp::create(b, loc, x);
  return module;
}

/// The random numbers of the dag shape (bench/symbolic_seed.py's Lcg).
struct Lcg {
  uint64_t state = 12345;
  /// A number in [0, n).
  uint64_t below(uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  }
};

/// The dag shape: a function of (x, y) and a range of 16, of about `n` ops.
static OwningOpRef<ModuleOp> buildDagGraph(MLIRContext &context, int64_t n) {
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  Type i32 = b.getI32Type();
  auto func = func::FuncOp::create(b, loc, "bench", b.getFunctionType({i32, i32}, {i32}));
  b.setInsertionPointToEnd(func.addEntryBlock());
  int64_t ops = 3; // the range, its end, the return
  auto c = [&](int64_t v) -> Value {
    ++ops;
    return ConstOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value j = RangeOp::create(b, loc, c(16), 1, AxisKind::Loop);
  --ops; // c(16) counted above
  SmallVector<Value> vals{func.getArgument(0), func.getArgument(1), j};
  static const int64_t kConsts[] = {1, 2, 3, 4, 5, 7, 8, 16, -1, -3};
  static const int64_t kDivisors[] = {2, 3, 4, 8, 16};
  Lcg rng;
  // Operands are drawn in this order (C++ leaves the order of arguments
  // unspecified: each draw is its own statement).
  auto pick = [&]() {
    uint64_t window = std::min<uint64_t>(32, vals.size());
    return vals[vals.size() - 1 - rng.below(window)];
  };
  auto constant = [&]() { return c(kConsts[rng.below(10)]); };
  auto divisor = [&]() { return c(kDivisors[rng.below(5)]); };
  while (ops < n) {
    uint64_t k = rng.below(100);
    Value a = pick(), r;
    if (k < 25) {
      Value v = pick();
      r = AddOp::create(b, loc, a, v);
    } else if (k < 35) {
      r = AddOp::create(b, loc, a, constant());
    } else if (k < 50) {
      r = MulOp::create(b, loc, a, constant());
    } else if (k < 55) {
      Value v = pick();
      r = MulOp::create(b, loc, a, v);
    } else if (k < 65) {
      r = FloorDivOp::create(b, loc, a, divisor());
    } else if (k < 75) {
      r = FloorModOp::create(b, loc, a, divisor());
    } else if (k < 85) {
      Value v = pick();
      r = MaxOp::create(b, loc, a, v);
    } else {
      Value v = pick(), t = pick(), e = pick();
      Value lt = CmpLtOp::create(b, loc, a, v);
      r = WhereOp::create(b, loc, lt, t, e);
      ++ops;
    }
    ++ops;
    vals.push_back(r);
  }
  func::ReturnOp::create(b, loc, vals.back());
  return module;
}

static OwningOpRef<ModuleOp> buildGraph(MLIRContext &context, StringRef shape, int64_t n) {
  return shape == "dag" ? buildDagGraph(context, n) : buildIndexGraph(context, n);
}

static int64_t countOps(ModuleOp module) {
  int64_t n = 0;
  module.walk([&](Operation *op) { n += !isa<ModuleOp, func::FuncOp>(op); });
  return n;
}

/// The (x, j) points of bench/symbolic_seed.py's POINTS (the index shape),
/// and its DAG_POINTS (x, y, j) for the dag shape.
static const int64_t kPoints[][2] = {{0, 0},   {1, 5},          {-7, 15},
                                     {100, 3}, {2147483647, 0}, {-2147483648LL, 15}};
static const int64_t kDagPoints[][3] = {
    {0, 0, 0}, {1, -2, 5}, {-7, 100, 15}, {2147483647, -2147483648LL, 3}};

/// The value of the function `@bench` at its arguments `args` and j (the
/// value of its range), computed op by op with exec_alu; nullopt if
/// something is not an ALU op or does not fold (as the seed's run would not
/// reduce to a constant).
static std::optional<int64_t> evaluate(ModuleOp module, ArrayRef<int64_t> args, int64_t j) {
  auto func = *module.getOps<func::FuncOp>().begin();
  llvm::DenseMap<Value, Scalar> vals;
  for (auto [arg, v] : llvm::zip(func.getArguments(), args))
    vals[arg] = Scalar::integer(v);
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
  StringRef shape = "index";
  if (argc > 2 && StringRef(argv[1]) == "--shape") {
    shape = argv[2];
    if (shape != "index" && shape != "dag") {
      llvm::errs() << "uop-bench-symbolic: unknown shape '" << shape << "' (index or dag)\n";
      return 1;
    }
    argc -= 2;
    argv += 2;
  }
  // `--emit N`: print the graph of about N ops (for uop-opt --mlir-timing).
  if (argc > 2 && StringRef(argv[1]) == "--emit") {
    buildGraph(context, shape, std::atoll(argv[2]))->print(llvm::outs());
    return 0;
  }
  // `--eval N`: simplify the graph of about N ops and print what
  // bench/symbolic_seed.py prints for it, less the time.
  if (argc > 2 && StringRef(argv[1]) == "--eval") {
    OwningOpRef<ModuleOp> module = buildGraph(context, shape, std::atoll(argv[2]));
    int64_t before = countOps(*module);
    PassManager pm(&context);
    pm.addPass(createUopSymbolicPass());
    if (failed(pm.run(*module))) {
      llvm::errs() << "uop-symbolic failed\n";
      return 1;
    }
    llvm::outs() << "ops " << before << " after " << countOps(*module) << " eval";
    auto print = [](std::optional<int64_t> v) {
      llvm::outs() << " " << (v ? std::to_string(*v) : std::string("None"));
    };
    if (shape == "dag")
      for (auto [x, y, j] : kDagPoints)
        print(evaluate(*module, {x, y}, j));
    else
      for (auto [x, j] : kPoints)
        print(evaluate(*module, {x}, j));
    llvm::outs() << "\n";
    return 0;
  }
  int64_t maxOps = argc > 1 ? std::atoll(argv[1]) : 1000000;
  // Wall time, and CPU time of this thread (the same on an idle machine; on
  // a shared one the CPU time is what the rewriting itself costs).
  llvm::outs() << llvm::formatv("{0,10} {1,10} {2,12} {3,12} {4,12} {5,12}\n", "ops", "ops after",
                                "wall ms", "wall ns/op", "cpu ms", "cpu ns/op");
  for (int64_t n = 1000; n <= maxOps; n *= 10) {
    OwningOpRef<ModuleOp> module = buildGraph(context, shape, n);
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
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    double cpu = 1000.0 * double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    llvm::outs() << llvm::formatv("{0,10} {1,10} {2,12:F1} {3,12:F1} {4,12:F1} {5,12:F1}\n", before,
                                  countOps(*module), ms, ms * 1e6 / before, cpu,
                                  cpu * 1e6 / before);
  }
  return 0;
}
