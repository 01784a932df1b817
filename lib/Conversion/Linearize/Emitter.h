//===- Emitter.h - uop-linearize's emission of a schedule -------*- C++ -*-===//
//
// The lowering half of the seed's `render_c` (uopc/render_c.py): the
// scheduled kernel graph emitted as scf/memref/arith/math (and vector,
// inside the lanes of a jammed loop) in place of the function's body. The
// emitter's methods are split by what they emit: Emitter.cpp the driver
// and the kernel's signature, EmitMemory.cpp allocs and accesses,
// EmitLoops.cpp ranges, ENDs and barriers, EmitElementwise.cpp the ALU ops
// (through the table of ElementwiseLowering.h).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_CONVERSION_LINEARIZE_EMITTER_H
#define UOP_LIB_CONVERSION_LINEARIZE_EMITTER_H

#include "ArithFlags.h"
#include "ElementwiseLowering.h"
#include "RuntimeChecks.h"
#include "Schedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir::uop {

/// Emits the schedule of one kernel graph in place of its function's body.
class Emitter {
public:
  /// The emitter of `func`'s graph as `sched` orders it; `solver` holds the
  /// bounds analysis of the graph. With `gpu`, GLOBAL/LOCAL ranges stay
  /// GPU-mapped parallel loops; with `checks`, what the bounds analysis does
  /// not prove is checked at run time.
  Emitter(func::FuncOp func, Scheduler &sched, DataFlowSolver &solver, bool gpu, bool checks);
  /// Not copied: the handlers hold `this`.
  Emitter(const Emitter &) = delete;
  Emitter &operator=(const Emitter &) = delete;

  /// Replaces the function's body and signature; fails after a diagnostic.
  LogicalResult run();

private:
  /// How one op is emitted (or refused): a row of `handlers`.
  using Handler = std::function<LogicalResult(Operation *)>;
  /// Adds `handler` as the way to emit each of `OpTys`.
  template <typename... OpTys> void on(LogicalResult (Emitter::*handler)(Operation *)) {
    (handlers.try_emplace(TypeID::get<OpTys>(),
                          [this, handler](Operation *op) { return (this->*handler)(op); }),
     ...);
  }
  /// Adds the diagnostic `message` as what emitting each of `OpTys` gives.
  template <typename... OpTys> void reject(StringRef message) {
    (handlers.try_emplace(TypeID::get<OpTys>(),
                          [message](Operation *op) { return op->emitOpError(message); }),
     ...);
  }

  //===--------------------------------------------------------------------===//
  // Driver (Emitter.cpp)
  //===--------------------------------------------------------------------===//

  /// Emits `op` at the end of the innermost open loop.
  LogicalResult emitOp(Operation *op);
  /// A scalar constant.
  LogicalResult emitConst(Operation *op);
  /// A buffer: the function's argument of its slot.
  LogicalResult emitBuffer(Operation *op);
  /// An op that emits nothing (the sink).
  LogicalResult emitNothing(Operation *op) { return success(); }

  /// The lowered value of `op`'s operand `i`.
  Value val(Operation *op, unsigned i) { return vals.lookup(srcOp(op, i)); }
  /// The defining op of `op`'s operand `i`.
  Operation *srcOp(Operation *op, unsigned i) { return op->getOperand(i).getDefiningOp(); }
  /// The constant index `v`.
  Value constIndex(int64_t v);
  /// Whether `op` sits inside the loop being unrolled and jammed.
  bool inJam(Operation *op) const;
  /// Vector lanes: the type of `t` across the lanes.
  VectorType laneType(Type t) const { return VectorType::get({jamWidth}, t); }
  /// `v` across the lanes (a lane-invariant scalar is broadcast).
  Value lanesOf(Value v);
  /// The constant vector <0, s, 2s, ...> of i32 or index `t`.
  Value laneSteps(Type t, int64_t s);

  //===--------------------------------------------------------------------===//
  // Memory (EmitMemory.cpp)
  //===--------------------------------------------------------------------===//

  /// A local or shared alloc: an alloca (or a heap alloc, if large).
  LogicalResult emitAlloc(Operation *op);
  /// An after: its source's memory, access or value.
  LogicalResult emitAfter(Operation *op);
  /// An index of memory: an access (memref, index, lane stride), checked.
  LogicalResult emitIndex(Operation *op);
  /// A load through an access.
  LogicalResult emitLoad(Operation *op);
  /// A store through an access.
  LogicalResult emitStore(Operation *op);

  //===--------------------------------------------------------------------===//
  // Loops (EmitLoops.cpp)
  //===--------------------------------------------------------------------===//

  /// A range: opens an scf.for (jammed into lanes if chosen) or a parallel
  /// loop.
  LogicalResult emitRange(Operation *op);
  /// An END: closes the innermost open loops.
  LogicalResult emitEnd(Operation *op);
  /// A barrier (the GPU path only).
  LogicalResult emitBarrier(Operation *op);
  /// GPU mode: the block/thread dimension of each GLOBAL/LOCAL range.
  void assignProcessors();

  //===--------------------------------------------------------------------===//
  // ALU ops (EmitElementwise.cpp)
  //===--------------------------------------------------------------------===//

  /// An ALU op: its lowering from the table, on scalars or on vectors
  /// inside the lanes.
  LogicalResult emitElementwise(Operation *op);
  /// Keeps the lane-0 value and lane stride of the lane-variant i32 add or
  /// mul `op` when it is affine in the lane (its operands are, and a
  /// product's other side is a lane-invariant constant).
  void trackAffine(Operation *op);

  func::FuncOp func;
  Scheduler &sched;
  OpBuilder b;
  /// The GPU path: GLOBAL/LOCAL ranges stay GPU-mapped parallel loops.
  bool gpu;
  /// Run-time checks of what the bounds analysis does not prove.
  RuntimeChecks checks;
  /// How each op that is not an ALU op is emitted, by op.
  DenseMap<TypeID, Handler> handlers;
  /// The lowerings of the ALU ops.
  ElementwiseLowerings elementwise;
  /// The fast-math and overflow flags of the ALU ops.
  ArithFlags flags;
  /// The new body.
  Block *entry = nullptr;
  /// Each buffer slot's argument number.
  DenseMap<int64_t, unsigned> argOf;
  /// GPU mode: the block/thread dimension of each GLOBAL/LOCAL range.
  DenseMap<Operation *, gpu::Processor> processors;

  /// The range whose iterations are vector lanes (null outside them).
  Operation *jam = nullptr;
  /// The number of lanes (1 outside them).
  int64_t jamWidth = 1;
  /// A memory access: memref and index (`index` typed). Inside the lanes,
  /// lane l reads `idx + l * stride` (a lane-invariant access has stride 0),
  /// or lane l of `lanes` where the index is not affine in the lane; a
  /// lane-private memref (an alloc inside the lanes) holds vectors, one
  /// lane per element, at a lane-invariant index.
  struct Ptr {
    /// The memref and the (lane 0) index.
    Value mem, idx;
    /// The index's step from one lane to the next.
    int64_t stride = 0;
    /// The lanes' indices (a vector of index), where not affine.
    Value lanes;
    /// Whether `mem` is lane-private (a memref of vectors).
    bool priv = false;
  };
  /// Values of the emitted ops. Inside the lanes a lane-variant value is a
  /// vector<W x T>; a lane-invariant one stays a scalar.
  DenseMap<Operation *, Value> vals;
  /// Memrefs of buffers, allocs and their afters and whole indices.
  DenseMap<Operation *, Value> mems;
  /// Memory accesses.
  DenseMap<Operation *, Ptr> ptrs;
  /// Lane-private allocs (and afters).
  llvm::SmallPtrSet<Operation *, 8> privateMems;
  /// Lane-variant i32 values affine in the lane: (lane 0's value, stride).
  DenseMap<Operation *, std::pair<Value, int64_t>> affine;
  /// Range -> vector width (findOuterVectorization's).
  DenseMap<Operation *, int64_t> outerVectorize;
  /// An open loop: its range, the loop op and the body emitted into.
  struct Loop {
    /// The uop.range.
    Operation *range;
    /// The scf.for or scf.parallel.
    Operation *loop;
    /// Its body.
    Block *body;
  };
  /// The open loops, outermost first.
  SmallVector<Loop> loops;
  /// Range -> ops scheduled inside it.
  DenseMap<Operation *, int64_t> bodySize;
  /// Heap allocs, freed at the end of their block.
  SmallVector<std::pair<Block *, Value>> heapAllocs;
};

} // namespace mlir::uop

#endif // UOP_LIB_CONVERSION_LINEARIZE_EMITTER_H
