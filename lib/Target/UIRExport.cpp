//===- UIRExport.cpp - the uop dialect to .uir text ------------*- C++ -*-===//
//
// The seed's `to_uir` (uopc/uir.py): the program is rebuilt as the seed's
// hash-consed node graph (structurally equal ops become one node, call-body
// block arguments become PARAM nodes) and printed in the seed's toposort
// order, constants inline. So the text depends only on the graph reachable
// from the result, not on the order or duplication of ops in the IR.
//
//===----------------------------------------------------------------------===//

#include "UIRGraph.h"

#include "Uop/IR/UopOps.h"
#include "Uop/Target/UIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::uir;

/// A std::vector copy of an int64 array.
static std::vector<int64_t> toVec(ArrayRef<int64_t> xs) { return {xs.begin(), xs.end()}; }

namespace {

class Exporter {
public:
  /// Builds the node of every op in `region`'s enclosing function and returns
  /// the node of `root`.
  FailureOr<uint32_t> build(Value root);
  const Graph &graph() const { return g; }

private:
  FailureOr<DType> dtypeOf(Type t, Location loc);
  FailureOr<uint32_t> paramNode(Value arg, int64_t slot);
  FailureOr<uint32_t> constNode(ConstOp op);
  LogicalResult visit(Operation *op);
  uint32_t intern(Node n) { return g.intern(std::move(n)); }

  Graph g;
  llvm::DenseMap<Value, uint32_t> ids;
};

} // namespace

FailureOr<DType> Exporter::dtypeOf(Type t, Location loc) {
  if (t.isInteger(1))
    return DType::Bool;
  if (t.isInteger(32))
    return DType::I32;
  if (t.isF32())
    return DType::F32;
  if (t.isF16())
    return DType::F16;
  emitError(loc) << "type " << t << " has no .uir dtype";
  return failure();
}

FailureOr<uint32_t> Exporter::paramNode(Value arg, int64_t slot) {
  Type t = arg.getType();
  if (!isa<RankedTensorType>(t) && !t.isIntOrFloat()) {
    emitError(arg.getLoc()) << "a .uir param is a value, not " << t;
    return failure();
  }
  FailureOr<DType> d = dtypeOf(getDType(t), arg.getLoc());
  if (failed(d))
    return failure();
  Node n;
  n.op = OpKind::Param;
  n.slot = slot;
  n.argDType = *d;
  n.dtype = *d;
  n.argShape = toVec(getShape(t));
  return intern(std::move(n));
}

/// A scalar constant; an f16 one is the seed's CAST of an f32 constant.
static uint32_t scalarConst(Graph &g, DType d, int64_t i, double f) {
  Node n;
  n.op = OpKind::Const;
  n.cval.dtype = d == DType::F16 ? DType::F32 : d;
  n.cval.i = i;
  n.cval.f = (float)f;
  n.cval.half = d == DType::F16;
  n.dtype = n.cval.dtype;
  uint32_t c = g.intern(n);
  if (d != DType::F16)
    return c;
  Node cast;
  cast.op = OpKind::Cast;
  cast.dtype = DType::F16;
  cast.src = {c};
  cast.argDType = DType::F16;
  return g.intern(std::move(cast));
}

/// A dense constant is the seed's value of `run(...)`: nested STACKs of
/// constants (equal rows are one node).
FailureOr<uint32_t> Exporter::constNode(ConstOp op) {
  Attribute value = op.getValue();
  FailureOr<DType> d = dtypeOf(getDType(op.getType()), op.getLoc());
  if (failed(d))
    return failure();
  if (auto i = dyn_cast<IntegerAttr>(value))
    return scalarConst(
        g, *d,
        *d == DType::Bool ? (int64_t)i.getValue().getBoolValue() : i.getValue().getSExtValue(), 0);
  if (auto f = dyn_cast<FloatAttr>(value))
    return scalarConst(g, *d, 0, f.getValueAsDouble());
  auto dense = dyn_cast<DenseIntOrFPElementsAttr>(value);
  auto type = dense ? dyn_cast<RankedTensorType>(dense.getType()) : RankedTensorType();
  if (!type || type.getRank() == 0 || type.getNumElements() == 0) {
    op.emitError("cannot export this constant to .uir (the seed has no empty or rank-0 STACK)");
    return failure();
  }
  // Leaves, then one STACK level per axis from the innermost out.
  std::vector<uint32_t> level;
  level.reserve(type.getNumElements());
  if (dense.isSplat()) {
    uint32_t leaf =
        isa<FloatType>(type.getElementType())
            ? scalarConst(g, *d, 0, dense.getSplatValue<APFloat>().convertToDouble())
            : scalarConst(g, *d,
                          *d == DType::Bool ? (int64_t)dense.getSplatValue<bool>()
                                            : dense.getSplatValue<APInt>().getSExtValue(),
                          0);
    level.assign(type.getNumElements(), leaf);
  } else if (isa<FloatType>(type.getElementType())) {
    for (APFloat v : dense.getValues<APFloat>()) {
      bool lost;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      level.push_back(scalarConst(g, *d, 0, v.convertToDouble()));
    }
  } else if (*d == DType::Bool) {
    for (bool v : dense.getValues<bool>())
      level.push_back(scalarConst(g, *d, v, 0));
  } else {
    for (APInt v : dense.getValues<APInt>())
      level.push_back(scalarConst(g, *d, v.getSExtValue(), 0));
  }
  ArrayRef<int64_t> shape = type.getShape();
  for (size_t axis = shape.size(); axis-- > 0;) {
    std::vector<uint32_t> next;
    size_t k = shape[axis];
    for (size_t start = 0; start < level.size(); start += k) {
      Node n;
      n.op = OpKind::Stack;
      n.dtype = *d;
      n.src.assign(level.begin() + start, level.begin() + start + k);
      next.push_back(intern(std::move(n)));
    }
    level = std::move(next);
  }
  return level.front();
}

LogicalResult Exporter::visit(Operation *op) {
  if (isa<YieldOp, func::ReturnOp, func::FuncOp>(op))
    return success();
  Node n;
  for (Value v : op->getOperands()) {
    auto it = ids.find(v);
    if (it == ids.end())
      return op->emitError("operand defined outside the exported program");
    n.src.push_back(it->second);
  }
  auto setDType = [&](Type t) -> LogicalResult {
    FailureOr<DType> d = dtypeOf(getDType(t), op->getLoc());
    if (failed(d))
      return failure();
    n.argDType = *d;
    return success();
  };
  LogicalResult ok = llvm::TypeSwitch<Operation *, LogicalResult>(op)
                         .Case([&](ConstOp c) -> LogicalResult {
                           FailureOr<uint32_t> id = constNode(c);
                           if (failed(id))
                             return failure();
                           ids[c.getResult()] = *id;
                           return success();
                         })
                         .Case([&](ParamOp p) -> LogicalResult {
                           FailureOr<uint32_t> id = paramNode(p.getResult(), p.getSlot());
                           if (failed(id))
                             return failure();
                           ids[p.getResult()] = *id;
                           return success();
                         })
                         .Case([&](CallOp c) -> LogicalResult {
                           auto it = ids.find(c.getYield().getValue());
                           if (it == ids.end())
                             return c.emitError("call body result has no node");
                           n.op = OpKind::Call;
                           n.src.insert(n.src.begin(), it->second);
                           n.name = c.getName().str();
                           return success();
                         })
                         .Case([&](StackOp) {
                           n.op = OpKind::Stack;
                           return success();
                         })
                         .Case([&](IndexOp) {
                           n.op = OpKind::Index;
                           return success();
                         })
                         .Case([&](CastOp c) {
                           n.op = OpKind::Cast;
                           return setDType(c.getDtype());
                         })
                         .Case([&](RecipOp) {
                           n.op = OpKind::Recip;
                           return success();
                         })
                         .Case([&](Exp2Op) {
                           n.op = OpKind::Exp2;
                           return success();
                         })
                         .Case([&](Log2Op) {
                           n.op = OpKind::Log2;
                           return success();
                         })
                         .Case([&](SqrtOp) {
                           n.op = OpKind::Sqrt;
                           return success();
                         })
                         .Case([&](SinOp) {
                           n.op = OpKind::Sin;
                           return success();
                         })
                         .Case([&](AddOp) {
                           n.op = OpKind::Add;
                           return success();
                         })
                         .Case([&](MulOp) {
                           n.op = OpKind::Mul;
                           return success();
                         })
                         .Case([&](CmpLtOp) {
                           n.op = OpKind::CmpLt;
                           return success();
                         })
                         .Case([&](CmpNeOp) {
                           n.op = OpKind::CmpNe;
                           return success();
                         })
                         .Case([&](FloorDivOp) {
                           n.op = OpKind::FloorDiv;
                           return success();
                         })
                         .Case([&](FloorModOp) {
                           n.op = OpKind::FloorMod;
                           return success();
                         })
                         .Case([&](MaxOp) {
                           n.op = OpKind::Max;
                           return success();
                         })
                         .Case([&](WhereOp) {
                           n.op = OpKind::Where;
                           return success();
                         })
                         .Case([&](BufferOp b) {
                           n.op = OpKind::Buffer;
                           n.slot = b.getSlotAttr().getInt();
                           n.argShape = toVec(getShape(b.getType()));
                           return setDType(b.getType());
                         })
                         .Case([&](AllocOp a) {
                           n.op = OpKind::Alloc;
                           n.slot = a.getSlotAttr().getInt();
                           n.argShape = toVec(getShape(a.getType()));
                           std::optional<AddressSpace> space = getAddressSpace(a.getType());
                           n.space = space == AddressSpace::Shared ? Space::Shared
                                     : space == AddressSpace::Global
                                         ? Space::Global
                                         : Space::Alu; // local: no space=
                           return setDType(a.getType());
                         })
                         .Case([&](LoadOp) {
                           n.op = OpKind::Load;
                           return success();
                         })
                         .Case([&](StoreOp) {
                           n.op = OpKind::Store;
                           return success();
                         })
                         .Case([&](AfterOp) {
                           n.op = OpKind::After;
                           return success();
                         })
                         .Case([&](SinkOp) {
                           n.op = OpKind::Sink;
                           return success();
                         })
                         .Case([&](RangeOp r) {
                           n.op = OpKind::Range;
                           n.slot = r.getIdxAttr().getInt();
                           n.axis = (Axis)r.getKind();
                           return success();
                         })
                         .Case([&](EndOp) {
                           n.op = OpKind::End;
                           return success();
                         })
                         .Case([&](ReshapeOp r) {
                           n.op = OpKind::Reshape;
                           n.argShape = toVec(r.getShape());
                           return success();
                         })
                         .Case([&](ExpandOp e) {
                           n.op = OpKind::Expand;
                           n.argShape = toVec(e.getShape());
                           return success();
                         })
                         .Case([&](PermuteOp p) {
                           n.op = OpKind::Permute;
                           n.argShape = toVec(p.getPerm());
                           return success();
                         })
                         .Case([&](ShrinkOp s) {
                           n.op = OpKind::Shrink;
                           n.argShape = toVec(s.getBounds());
                           return success();
                         })
                         .Case([&](ReduceOp r) {
                           n.op = OpKind::Reduce;
                           n.reduceMax = r.getKind() == ReduceKind::Max;
                           n.slot = r.getPopAttr().getInt();
                           return success();
                         })
                         .Case([&](StageOp st) {
                           n.op = OpKind::Stage;
                           if (st.getDetach())
                             n.name = "detach";
                           return success();
                         })
                         .Case([&](BarrierOp) {
                           n.op = OpKind::Barrier;
                           return success();
                         })
                         .Case([&](WmmaOp) {
                           n.op = OpKind::Wmma;
                           return success();
                         })
                         .Default([&](Operation *other) {
                           return other->emitError("cannot export '")
                                  << other->getName() << "' to .uir: not an op of the uop dialect";
                         });
  if (failed(ok))
    return failure();
  if (isa<ConstOp, ParamOp>(op))
    return success();
  // The result's dtype (void for effects): the printer needs it to know
  // which literals read back as themselves.
  Type rt = op->getResult(0).getType();
  if (isa<VoidType>(rt))
    n.dtype = DType::Void;
  else if (FailureOr<DType> d = dtypeOf(getDType(rt), op->getLoc()); succeeded(d))
    n.dtype = *d;
  else
    return failure();
  ids[op->getResult(0)] = intern(std::move(n));
  return success();
}

FailureOr<uint32_t> Exporter::build(Value root) {
  Region *region = root.getParentRegion();
  Operation *top = region ? region->getParentOp() : nullptr;
  while (top && isa<CallOp>(top))
    top = top->getParentOp();
  auto func = dyn_cast_or_null<func::FuncOp>(top);
  if (!func || func.getBody().getBlocks().size() != 1) {
    emitError(root.getLoc()) << "the program must be in a single-block func.func";
    return failure();
  }
  // Function arguments are params by position, or by their uop.slot.
  for (BlockArgument arg : func.getArguments()) {
    int64_t slot = arg.getArgNumber();
    if (auto s = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "uop.slot"))
      slot = s.getInt();
    FailureOr<uint32_t> id = paramNode(arg, slot);
    if (failed(id))
      return failure();
    ids[arg] = *id;
  }
  // Call-body arguments are the body's params.
  WalkResult params = func.walk([&](CallOp call) {
    for (BlockArgument arg : call.getBody().getArguments()) {
      FailureOr<uint32_t> id = paramNode(arg, arg.getArgNumber());
      if (failed(id))
        return WalkResult::interrupt();
      ids[arg] = *id;
    }
    return WalkResult::advance();
  });
  if (params.wasInterrupted())
    return failure();
  // Post-order: a call's body is visited before the call.
  WalkResult walk = func.walk([&](Operation *op) {
    return failed(visit(op)) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  auto it = ids.find(root);
  if (it == ids.end()) {
    emitError(root.getLoc()) << "the program result has no node";
    return failure();
  }
  return it->second;
}

LogicalResult mlir::uop::exportUIR(Value root, llvm::raw_ostream &os) {
  Exporter exporter;
  FailureOr<uint32_t> id = exporter.build(root);
  if (failed(id))
    return failure();
  exporter.graph().print(*id, os);
  return success();
}

LogicalResult mlir::uop::exportUIR(ModuleOp module, llvm::raw_ostream &os) {
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  func::FuncOp func;
  if (funcs.size() == 1)
    func = funcs.front();
  else
    for (func::FuncOp f : funcs)
      if (f.getSymName() == "main")
        func = f;
  if (!func)
    return module.emitError("expected one func.func (or one named @main) to export as .uir");
  if (func.isExternal() || func.getBody().getBlocks().size() != 1)
    return func.emitError("the .uir program must be a function with one block");
  auto ret = dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
  if (!ret || ret.getNumOperands() != 1)
    return func.emitError("the .uir program must return exactly one value");
  return exportUIR(ret.getOperand(0), os);
}
