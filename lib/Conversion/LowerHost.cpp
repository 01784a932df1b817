//===- LowerHost.cpp - a kernelized program's host to calls ----*- C++ -*-===//
//
// The run half of the seed's `realize`: after uop-kernelize, uop-rangeify and
// uop-linearize, each kernel is a function over memrefs whose arguments are
// the buffer slots listed in its `uop.slots` (simplification may have deleted
// reads, so a slot can be missing). The host's `uop.launch`es become calls
// that bind exactly the slots that survived (the seed's "deleted reads do not
// shift kernel arguments"); its values become memrefs passed in by the
// caller: input buffers and outputs. Temporaries are allocated by the host,
// or (temps-as-args) passed in too, so that a runtime can allocate them once
// and reuse them, as the seed's Plan.temp_arrays.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"
#include "Uop/IR/UopDTypes.h"
#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

#include <map>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPLOWERHOSTPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

/// The elements of the flat buffer that holds a value (at least 1).
static int64_t flatSize(Type t) { return std::max<int64_t>(1, getNumElements(t)); }

namespace {
/// The plan of a host, and the argument that holds each of its buffers and
/// launches.
struct PlanBuilder {
  HostPlan plan;
  DenseMap<Value, unsigned> argOf;

  LogicalResult addArg(Operation *at, HostArg::Kind kind, int64_t slot, Type type) {
    std::optional<::uop::rt::DType> dtype = toRuntimeDType(getDType(type));
    if (!dtype)
      return at->emitOpError("has a buffer of an unsupported dtype: ") << type;
    plan.args.push_back({kind, slot, *dtype, flatSize(type)});
    return success();
  }
  LogicalResult build(func::FuncOp host);
};
} // namespace

LogicalResult PlanBuilder::build(func::FuncOp host) {
  if (!isHost(host) || !llvm::hasSingleElement(host.getBody()))
    return host.emitOpError("is not the host function of a kernelized program");
  Block &block = host.getBody().front();
  auto ret = cast<func::ReturnOp>(block.getTerminator());
  // Inputs: every buffer slot, in slot order.
  std::map<int64_t, BufferOp> inputs;
  for (auto buf : block.getOps<BufferOp>()) {
    auto [it, fresh] = inputs.try_emplace(buf.getSlotAttr().getInt(), buf);
    if (!fresh && it->second.getType() != buf.getType())
      return buf.emitOpError("slot ") << it->first << " is read as both " << it->second.getType()
                                      << " and " << buf.getType();
  }
  std::map<int64_t, unsigned> inputArg;
  for (auto &[slot, buf] : inputs) {
    inputArg[slot] = plan.args.size();
    if (failed(addArg(buf, HostArg::Input, slot, buf.getType())))
      return failure();
  }
  for (auto buf : block.getOps<BufferOp>())
    argOf[buf.getResult()] = inputArg.at(buf.getSlotAttr().getInt());
  auto base = [](Value v) {
    while (auto r = v.getDefiningOp<ReshapeOp>())
      v = r.getSrc();
    return v;
  };
  // Outputs: each distinct launch the host returns, in return order; then
  // temporaries: the other launches, in launch order.
  for (Value v : ret.getOperands()) {
    v = base(v);
    if (v.getDefiningOp<LaunchOp>() && !argOf.count(v)) {
      argOf[v] = plan.args.size();
      if (failed(addArg(v.getDefiningOp(), HostArg::Output, -1, v.getType())))
        return failure();
    }
  }
  llvm::StringMap<unsigned> kernelIndex;
  for (auto launch : block.getOps<LaunchOp>()) {
    ++plan.numLaunches;
    auto [it, fresh] = kernelIndex.try_emplace(launch.getKernel(), plan.kernels.size());
    if (fresh)
      plan.kernels.push_back({launch.getKernel().str(), 0});
    ++plan.kernels[it->second].launches;
    for (Value v : launch.getResults()) {
      if (argOf.count(v))
        continue;
      argOf[v] = plan.args.size();
      if (failed(addArg(launch, HostArg::Temp, -1, v.getType())))
        return failure();
    }
  }
  // Reshapes are views of the same memory.
  for (auto r : block.getOps<ReshapeOp>())
    if (auto it = argOf.find(base(r.getResult())); it != argOf.end())
      argOf[r.getResult()] = it->second;
  for (Value v : ret.getOperands()) {
    auto it = argOf.find(v);
    if (it == argOf.end())
      return ret.emitOpError("returns a value that is neither a buffer nor a launch");
    ArrayRef<int64_t> shape = getShape(v.getType());
    plan.values.push_back({it->second, std::vector<int64_t>(shape.begin(), shape.end())});
  }
  return success();
}

std::string mlir::uop::formatLocation(Location loc) {
  std::string s;
  loc->walk([&](Location l) {
    if (auto file = dyn_cast<FileLineColLoc>(l)) {
      s = (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
           Twine(file.getColumn()))
              .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return s;
}

void mlir::uop::addKernelChecks(Operation *symbolTableOp, HostPlan &plan) {
  for (auto [k, kernel] : llvm::enumerate(plan.kernels)) {
    auto func = dyn_cast_or_null<func::FuncOp>(SymbolTable::lookupNearestSymbolFrom(
        symbolTableOp, StringAttr::get(symbolTableOp->getContext(), kernel.name)));
    auto checks = func ? func->getAttrOfType<ArrayAttr>(kChecksAttrName) : nullptr;
    if (!checks || !kernel.checks.empty())
      continue;
    for (Attribute a : checks) {
      auto d = dyn_cast<DictionaryAttr>(a);
      auto kind = d ? d.getAs<StringAttr>("kind") : nullptr;
      auto loc = d ? d.getAs<LocationAttr>("loc") : nullptr;
      kernel.checks.push_back({kind ? kind.str() : "", loc ? formatLocation(Location(loc)) : ""});
    }
    plan.args.push_back({HostArg::Check, static_cast<int64_t>(k), ::uop::rt::DType::I32,
                         ::uop::rt::kCheckRecordSize, false, false});
  }
}

FailureOr<HostPlan> mlir::uop::getHostPlan(func::FuncOp host) {
  PlanBuilder builder;
  if (failed(builder.build(host)))
    return failure();
  return std::move(builder.plan);
}

LogicalResult mlir::uop::lowerHost(func::FuncOp host, bool tempsAsArgs) {
  PlanBuilder builder;
  if (failed(builder.build(host)))
    return failure();
  HostPlan &plan = builder.plan;
  // Kernels with run-time checks take a check record, an argument of the host.
  addKernelChecks(host, plan);
  DenseMap<Value, unsigned> &argOf = builder.argOf;
  MLIRContext *ctx = host.getContext();
  // Plain memrefs, as uop-linearize gives the kernels' buffers. Temporaries
  // are arguments, or allocated here and freed after the last call.
  SmallVector<Type> argTypes;
  SmallVector<bool> isArg;
  for (const HostArg &a : plan.args) {
    isArg.push_back(tempsAsArgs || a.kind != HostArg::Temp);
    if (isArg.back())
      argTypes.push_back(MemRefType::get({a.numel}, fromRuntimeDType(a.dtype, ctx)));
  }

  Block &old = host.getBody().front();
  auto *block = new Block();
  for (Type t : argTypes)
    block->addArgument(t, host.getLoc());
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(block);
  SmallVector<Value> memory, allocated;
  DenseMap<int64_t, Value> checkRecord; // kernel -> its check record
  for (auto [i, a] : llvm::enumerate(plan.args)) {
    if (isArg[i])
      memory.push_back(block->getArgument(memory.size() - allocated.size()));
    else
      allocated.push_back(memory.emplace_back(memref::AllocOp::create(
          b, host.getLoc(), MemRefType::get({a.numel}, fromRuntimeDType(a.dtype, ctx)))));
    if (a.kind == HostArg::Check)
      checkRecord[a.slot] = memory.back();
  }
  llvm::StringMap<int64_t> kernelIndex;
  for (auto [k, kernel] : llvm::enumerate(plan.kernels))
    kernelIndex[kernel.name] = k;
  auto mem = [&](Value v) { return memory[argOf.at(v)]; };
  SymbolTableCollection symbols;
  for (Operation &op : old.without_terminator()) {
    if (isa<BufferOp, ReshapeOp>(op))
      continue; // bound to arguments by buildPlan
    auto launch = dyn_cast<LaunchOp>(op);
    if (!launch)
      return op.emitOpError("uop-lower-host: unexpected op in a host function");
    auto kernel = symbols.lookupNearestSymbolFrom<func::FuncOp>(host, launch.getKernelAttr());
    auto slots = kernel ? kernel->getAttrOfType<DenseI64ArrayAttr>(kSlotsAttrName) : nullptr;
    if (!slots)
      return launch.emitOpError("kernel '")
             << launch.getKernel() << "' is not linearized (run uop-rangeify and "
             << "uop-linearize on the kernels first)";
    // Slots past the operands are the kernel's outputs, in result order.
    int64_t nargs = launch.getArgs().size(), nslots = nargs + launch.getNumResults();
    SmallVector<Value> args;
    for (int64_t s : slots.asArrayRef()) {
      if (s < 0 || s >= nslots)
        return launch.emitOpError("kernel '") << launch.getKernel() << "' has slot " << s
                                              << " but the launch binds only " << nslots;
      args.push_back(s < nargs ? mem(launch.getArgs()[s]) : mem(launch.getResult(s - nargs)));
    }
    if (kernel->hasAttr(kChecksAttrName))
      args.push_back(checkRecord.lookup(kernelIndex.lookup(launch.getKernel())));
    func::CallOp::create(b, launch.getLoc(), kernel, args);
  }
  for (Value temp : allocated)
    memref::DeallocOp::create(b, host.getLoc(), temp);
  func::ReturnOp::create(b, host.getLoc());
  host.getBody().push_back(block);
  old.dropAllReferences();
  old.erase();
  host.setType(FunctionType::get(ctx, argTypes, {}));
  // What a caller needs to know about the arguments (see HostPlan).
  SmallVector<int64_t> kinds, slotList;
  for (auto [i, a] : llvm::enumerate(plan.args)) {
    if (!isArg[i])
      continue;
    kinds.push_back(a.kind);
    slotList.push_back(a.slot);
  }
  host->setAttr(kHostArgsAttrName, b.getDenseI64ArrayAttr(kinds));
  host->setAttr(kHostSlotsAttrName, b.getDenseI64ArrayAttr(slotList));
  SmallVector<int64_t> results;
  for (const ::uop::rt::PlanValue &v : plan.values)
    results.push_back(v.arg);
  host->setAttr(kHostResultsAttrName, b.getDenseI64ArrayAttr(results));
  return success();
}

namespace {
struct UopLowerHostPass : mlir::uop::impl::UopLowerHostPassBase<UopLowerHostPass> {
  using Base::Base;
  void runOnOperation() override {
    bool any = false;
    for (auto func : llvm::make_early_inc_range(getOperation().getOps<func::FuncOp>())) {
      if (!isHost(func))
        continue;
      any = true;
      if (failed(lowerHost(func, tempsAsArgs)))
        return signalPassFailure();
    }
    // A module with no host is left as it is; say so when it holds a shaped
    // program that was never kernelized (a likely mistake in a pipeline).
    if (!any)
      for (auto func : getOperation().getOps<func::FuncOp>())
        if (!func.isExternal() && !isKernel(func) && func.getNumResults() > 0 &&
            !isa<VoidType>(func.getResultTypes().front()))
          emitWarning(func.getLoc(), "uop-lower-host: @")
              << func.getSymName()
              << " is not the host of a kernelized program (run uop-kernelize first); "
                 "nothing to lower";
  }
};
} // namespace
