//===- ToGPU.cpp - linearized kernels to gpu.func + gpu.launch_func -*- C++ -*-===//
//
// The seed's CUDARenderer and launch_dims (uopc/gpu.py) on the IR of
// uop-linearize{gpu=true}: every kernel becomes a `gpu.func` kernel whose
// GPU-mapped parallel loops are block and thread ids, and every call of a
// kernel a `gpu.launch_func` with constant grid and block sizes.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "Uop/IR/UopDTypes.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPTOGPUPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The per-thread memory a kernel keeps in local memory; larger allocs move
/// to global scratch memory. The driver reserves a kernel's local memory for
/// every thread the GPU can hold at once (an H200: 132 SMs x 2048 threads),
/// so 16 KiB a thread already reserves about 4 GiB and 512 KiB all of an
/// H200's memory, whatever the launch; a scratch buffer is as large as the
/// launch's threads need. Below this, local memory is the better home: it is
/// interleaved across a warp's threads (coalesced), the slices of a scratch
/// buffer are not, and small accumulators become registers.
constexpr int64_t kLocalBudgetBytes = 16 * 1024;
/// The most global scratch memory a kernel may use (all its threads).
constexpr int64_t kMaxScratchBytes = int64_t(4) << 30;

/// A kernel and its launch configuration (x, y, z), read off its GPU-mapped
/// parallel loops.
struct Kernel {
  func::FuncOp func;
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  /// Each GPU loop and the id that replaces it.
  SmallVector<std::pair<scf::ParallelOp, gpu::Processor>> loops;
  /// Per-thread allocas in global scratch memory, in kernel order: each is a
  /// slice of its own scratch buffer (scratchTypes: one slice per thread of
  /// the launch), a new last parameter of the kernel.
  SmallVector<memref::AllocaOp> scratch;
  SmallVector<MemRefType> scratchTypes;
  /// Bytes of dynamic shared memory the launch gives a block (0: the
  /// kernel's workgroup memory is static).
  int64_t dynamicShared = 0;

  /// The threads of a launch (grid x block), or nullopt past 2^63.
  std::optional<int64_t> threads() const {
    int64_t n = 1;
    for (int64_t d : {grid[0], grid[1], grid[2], block[0], block[1], block[2]})
      if (llvm::MulOverflow(n, d, n))
        return std::nullopt;
    return n;
  }
};

/// Bytes of one element of a buffer.
static int64_t elementBytes(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * elementBytes(v.getElementType());
  return t.isIntOrFloat() ? std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8) : 8;
}

/// The indices of an access of memory `mem` by `op` (a load, store or
/// atomic of uop-linearize), or nullopt for any other use of `mem`.
static std::optional<MutableOperandRange> accessIndices(Operation *op, Value mem) {
  if (auto load = dyn_cast<memref::LoadOp>(op); load && load.getMemRef() == mem)
    return load.getIndicesMutable();
  if (auto store = dyn_cast<memref::StoreOp>(op); store && store.getMemRef() == mem)
    return store.getIndicesMutable();
  if (auto load = dyn_cast<vector::LoadOp>(op); load && load.getBase() == mem)
    return load.getIndicesMutable();
  if (auto store = dyn_cast<vector::StoreOp>(op); store && store.getBase() == mem)
    return store.getIndicesMutable();
  if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op); rmw && rmw.getMemref() == mem)
    return rmw.getIndicesMutable();
  return std::nullopt;
}

/// Whether `alloca` can be a slice of a scratch buffer: flat, of a dtype a
/// runtime allocates, and only loaded, stored and updated by one index.
static bool isScratchable(memref::AllocaOp alloca) {
  MemRefType t = alloca.getType();
  if (t.getRank() != 1 || !t.getLayout().isIdentity() || alloca->getNumOperands() != 0 ||
      !toRuntimeDType(t.getElementType()))
    return false;
  return llvm::all_of(alloca->getUses(), [&](OpOperand &use) {
    std::optional<MutableOperandRange> indices = accessIndices(use.getOwner(), alloca);
    return indices && indices->size() == 1;
  });
}

/// Decides where `k`'s per-thread memory (uop.alloc) lives: local memory
/// while it fits kLocalBudgetBytes, else its largest allocas move to global
/// scratch memory until the rest fits. Scratch memory for more than
/// kMaxScratchBytes falls back to local memory where that fits the
/// target's local_memory; else it is an error at the largest alloca.
static LogicalResult placePerThreadMemory(Kernel &k, TargetAttr target) {
  // The local memory the chip gives a thread.
  int64_t maxLocalBytes = target.getLocalMemory();
  struct Local {
    memref::AllocaOp op;
    int64_t bytes;
  };
  SmallVector<Local> locals, movable;
  int64_t localBytes = 0;
  k.func.walk([&](memref::AllocaOp a) {
    MemRefType t = a.getType();
    if (isa_and_nonnull<gpu::AddressSpaceAttr>(t.getMemorySpace()) || !t.hasStaticShape())
      return;
    Local l{a, t.getNumElements() * elementBytes(t.getElementType())};
    localBytes += l.bytes;
    locals.push_back(l);
    if (isScratchable(a))
      movable.push_back(l);
  });
  if (locals.empty())
    return success();
  // Largest first (in kernel order among equals).
  llvm::stable_sort(movable, [](const Local &x, const Local &y) { return x.bytes > y.bytes; });
  int64_t allBytes = localBytes, scratchBytes = 0;
  SmallVector<memref::AllocaOp> scratch;
  for (const Local &l : movable) {
    if (localBytes <= kLocalBudgetBytes)
      break;
    scratch.push_back(l.op);
    localBytes -= l.bytes;
    scratchBytes += l.bytes;
  }
  int64_t total = 0;
  std::optional<int64_t> threads = k.threads();
  bool overflow = !threads || llvm::MulOverflow(scratchBytes, *threads, total);
  if (!scratch.empty() && (overflow || total > kMaxScratchBytes)) {
    if (allBytes <= maxLocalBytes)
      return success(); // all of it in local memory, as it fits
    InFlightDiagnostic d = scratch.front().emitOpError("uop-to-gpu: ")
                           << allBytes << " bytes of per-thread memory (uop.alloc) exceed the "
                           << maxLocalBytes / 1024 << " KiB of local memory CUDA gives a thread, "
                           << "and global scratch memory for " << scratchBytes
                           << " bytes a thread in a launch of " << k.grid[0] << "x" << k.grid[1]
                           << "x" << k.grid[2] << " blocks of " << k.block[0] << "x" << k.block[1]
                           << "x" << k.block[2] << " threads would be ";
    if (overflow)
      d << "more than 2^63 bytes";
    else
      d << total << " bytes";
    return d << ", more than the " << (kMaxScratchBytes >> 30) << " GiB uop allows";
  }
  if (localBytes > maxLocalBytes) {
    // What stays is not scratchable (not a flat buffer of loads and stores).
    Local *largest = nullptr;
    for (Local &l : locals)
      if (!llvm::is_contained(scratch, l.op) && (!largest || l.bytes > largest->bytes))
        largest = &l;
    return largest->op.emitOpError("uop-to-gpu: ")
           << localBytes << " bytes of per-thread memory (uop.alloc), but CUDA gives a thread "
           << "at most " << maxLocalBytes / 1024 << " KiB of local memory";
  }
  // Kernel order, so that the parameters follow the program.
  for (Local &l : locals)
    if (llvm::is_contained(scratch, l.op)) {
      MemRefType t = l.op.getType();
      k.scratch.push_back(l.op);
      k.scratchTypes.push_back(
          MemRefType::get({*threads * t.getNumElements()}, t.getElementType()));
    }
  return success();
}

static const char *processorName(gpu::Processor p) {
  static const char *names[] = {"block_x",  "block_y",  "block_z",   "thread_x",
                                "thread_y", "thread_z", "sequential"};
  return names[static_cast<unsigned>(p)];
}

/// Checks that `func` is a linearized kernel uop-to-gpu can launch and reads
/// its launch configuration. Errors are at the kernel.
static FailureOr<Kernel> analyze(func::FuncOp func, TargetAttr target) {
  Kernel k{func};
  if (!llvm::hasSingleElement(func.getBody()))
    return func.emitOpError("uop-to-gpu: expects a linearized kernel (one block)");
  if (func.getNumResults() != 0)
    return func.emitOpError("uop-to-gpu: a kernel returns nothing (it writes its buffers)");
  for (Type t : func.getArgumentTypes()) {
    auto m = dyn_cast<MemRefType>(t);
    if (!m || !m.hasStaticShape() || !m.getLayout().isIdentity())
      return func.emitOpError("uop-to-gpu: kernel parameters must be statically shaped "
                              "buffers (memrefs), got ")
             << t;
  }

  Operation *notLinear = nullptr;
  SmallVector<scf::ParallelOp> pars;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa_and_nonnull<UopDialect>(op->getDialect()) && !notLinear)
      notLinear = op;
    if (auto par = dyn_cast<scf::ParallelOp>(op))
      pars.push_back(par);
  });
  if (notLinear)
    return func.emitOpError("uop-to-gpu: the kernel is not linearized (run "
                            "uop-linearize{gpu=true} first): found ")
           << notLinear->getName();

  // Count the ranges of each kind first: more than 3 of a kind is the one
  // error a seed program can make.
  unsigned numGlobal = 0, numLocal = 0;
  for (scf::ParallelOp par : pars) {
    auto kind = par->getAttrOfType<AxisKindAttr>(kAxisAttrName);
    auto mapping = par->getAttrOfType<ArrayAttr>(kMappingAttrName);
    if (!kind || !mapping || mapping.size() != 1 || par.getNumLoops() != 1 ||
        !isa<gpu::ParallelLoopDimMappingAttr>(mapping[0]) ||
        (kind.getValue() != AxisKind::Global && kind.getValue() != AxisKind::Local)) {
      InFlightDiagnostic d =
          func.emitOpError("uop-to-gpu: a parallel loop that is not a GPU range (a CPU "
                           "thread range? the GPU path linearizes with uop-linearize{gpu=true})");
      d.attachNote(par.getLoc()) << "this loop";
      return d;
    }
    ++(kind.getValue() == AxisKind::Global ? numGlobal : numLocal);
  }
  if (numGlobal > 3)
    return func.emitOpError("uop-to-gpu: ")
           << numGlobal << " global ranges, but CUDA has 3 grid dimensions (fold axes: "
           << "at most 3 global and 3 local ranges per kernel)";
  if (numLocal > 3)
    return func.emitOpError("uop-to-gpu: ")
           << numLocal << " local ranges, but CUDA has 3 block dimensions (fold axes: "
           << "at most 3 global and 3 local ranges per kernel)";

  bool used[6] = {};
  for (scf::ParallelOp par : pars) {
    auto kind = par->getAttrOfType<AxisKindAttr>(kAxisAttrName).getValue();
    auto dim =
        cast<gpu::ParallelLoopDimMappingAttr>(par->getAttrOfType<ArrayAttr>(kMappingAttrName)[0]);
    gpu::Processor p = dim.getProcessor();
    bool global = kind == AxisKind::Global;
    unsigned base =
        static_cast<unsigned>(global ? gpu::Processor::BlockX : gpu::Processor::ThreadX);
    unsigned pi = static_cast<unsigned>(p);
    if (pi < base || pi >= base + 3 || !dim.getMap().isIdentity() || !dim.getBound().isIdentity())
      return func.emitOpError("uop-to-gpu: a ")
             << (global ? "global" : "local") << " range mapped to " << processorName(p);
    if (used[pi])
      return func.emitOpError("uop-to-gpu: two ranges mapped to ") << processorName(p);
    used[pi] = true;
    std::optional<int64_t> lb = getConstantIntValue(par.getLowerBound()[0]);
    std::optional<int64_t> ub = getConstantIntValue(par.getUpperBound()[0]);
    std::optional<int64_t> step = getConstantIntValue(par.getStep()[0]);
    if (!lb || !ub || !step || *lb != 0 || *step != 1)
      return func.emitOpError("uop-to-gpu: launch dimensions must be constant: the ")
             << (global ? "global" : "local") << " range on " << processorName(p)
             << " has no constant end";
    if (*ub < 1)
      return func.emitOpError("uop-to-gpu: the range on ")
             << processorName(p) << " is empty (end " << *ub << ")";
    (global ? k.grid : k.block)[pi - base] = *ub;
    k.loops.push_back({par, p});
  }
  // The chip's launch limits (#uop.target's max_grid, max_block,
  // max_threads).
  ArrayRef<int64_t> maxGrid = target.getMaxGrid(), maxBlock = target.getMaxBlock();
  int64_t maxThreads = target.getMaxThreads();
  for (int d = 0; d < 3; ++d) {
    if (k.grid[d] > maxGrid[d])
      return func.emitOpError("uop-to-gpu: a grid of ")
             << k.grid[d] << " blocks on "
             << "xyz"[d] << " exceeds CUDA's " << maxGrid[d];
    if (k.block[d] > maxBlock[d])
      return func.emitOpError("uop-to-gpu: a block of ")
             << k.block[d] << " threads on "
             << "xyz"[d] << " exceeds CUDA's " << maxBlock[d];
  }
  int64_t threads = k.block[0] * k.block[1] * k.block[2];
  if (threads > maxThreads)
    return func.emitOpError("uop-to-gpu: a block of ")
           << threads << " threads exceeds CUDA's " << maxThreads;
  if (failed(placePerThreadMemory(k, target)))
    return failure();
  return k;
}

/// The linear id of the current thread in `k`'s launch, 0 to threads - 1:
/// (block id, row-major z y x) * threads a block + thread id (z y x).
static Value linearThreadId(OpBuilder &b, Location loc, const Kernel &k) {
  auto flags = arith::IntegerOverflowFlags::nsw | arith::IntegerOverflowFlags::nuw;
  Value id;
  // id = id * size + x, digit by digit (the slowest first).
  auto add = [&](Value x, int64_t size) {
    if (!id) {
      id = x;
      return;
    }
    Value scaled =
        arith::MulIOp::create(b, loc, id, arith::ConstantIndexOp::create(b, loc, size), flags);
    id = arith::AddIOp::create(b, loc, scaled, x, flags);
  };
  for (int d = 2; d >= 0; --d)
    if (k.grid[d] > 1)
      add(gpu::BlockIdOp::create(b, loc, static_cast<gpu::Dimension>(d)), k.grid[d]);
  for (int d = 2; d >= 0; --d)
    if (k.block[d] > 1)
      add(gpu::ThreadIdOp::create(b, loc, static_cast<gpu::Dimension>(d)), k.block[d]);
  return id ? id : arith::ConstantIndexOp::create(b, loc, 0).getResult();
}

static bool isWorkgroup(MemRefType t) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(t.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// Builds the gpu.func of `k` at the end of `gpuModule` and moves the body
/// of the kernel into it. The func.func is left empty, for the caller.
static LogicalResult buildGPUFunc(Kernel &k, gpu::GPUModuleOp gpuModule, TargetAttr target) {
  func::FuncOp func = k.func;
  MLIRContext *ctx = func.getContext();
  Block &entry = func.getBody().front();

  // Workgroup memory: allocas at the entry become attributions.
  SmallVector<memref::AllocaOp> shared;
  SmallVector<Type> sharedTypes;
  WalkResult misplaced = func.walk([&](memref::AllocaOp a) {
    if (!isWorkgroup(a.getType()))
      return WalkResult::advance();
    if (a->getBlock() != &entry || !a.getType().hasStaticShape())
      return WalkResult::interrupt();
    shared.push_back(a);
    sharedTypes.push_back(a.getType());
    return WalkResult::advance();
  });
  if (misplaced.wasInterrupted())
    return func.emitOpError("uop-to-gpu: workgroup memory must be statically shaped "
                            "allocas at the kernel's entry");
  // Past the shared memory a block may declare statically (48 KiB), the
  // allocas become views of the block's dynamic shared memory, each at an
  // offset aligned as the alloca asks (at least 16 bytes), and the launch
  // gives the block that many bytes (the runtime raises the function's
  // limit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, up to the
  // target's opt-in limit).
  SmallVector<int64_t> sharedOffsets;
  int64_t sharedBytes = 0;
  for (memref::AllocaOp a : shared) {
    int64_t align = std::max<int64_t>(16, a.getAlignment().value_or(16));
    sharedBytes = llvm::alignTo(sharedBytes, align);
    sharedOffsets.push_back(sharedBytes);
    sharedBytes += a.getType().getNumElements() * elementBytes(a.getType().getElementType());
  }
  int64_t staticLimit = target.getSharedMemory() > 0 ? target.getSharedMemory() : 49152;
  bool dynamic = sharedBytes > staticLimit;
  if (dynamic) {
    int64_t optin = std::max(target.getSharedMemoryOptin(), staticLimit);
    if (sharedBytes > optin)
      return func.emitOpError("uop-to-gpu: the kernel's shared memory (")
             << sharedBytes << " bytes) is more than the target's limit of " << optin
             << " bytes a block";
    k.dynamicShared = sharedBytes;
  }

  // The kernel's buffers, then the scratch buffers of its large per-thread
  // allocas.
  SmallVector<Type> params(func.getArgumentTypes());
  llvm::append_range(params, k.scratchTypes);
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto gpuFunc = gpu::GPUFuncOp::create(b, func.getLoc(), func.getName(),
                                        FunctionType::get(ctx, params, {}),
                                        dynamic ? TypeRange() : TypeRange(sharedTypes), {});
  gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  auto dims = [&](const int64_t(&d)[3]) {
    return b.getDenseI32ArrayAttr({(int32_t)d[0], (int32_t)d[1], (int32_t)d[2]});
  };
  gpuFunc.setKnownBlockSizeAttr(dims(k.block));
  gpuFunc.setKnownGridSizeAttr(dims(k.grid));
  for (NamedAttribute attr : func->getDiscardableAttrs())
    if (attr.getName().getValue().starts_with("uop."))
      gpuFunc->setAttr(attr.getName(), attr.getValue());
  // Each buffer argument is its own allocation (the runtime's, at least 256
  // bytes aligned), so the kernel may assume no aliasing and 16-byte
  // alignment; one it never writes is read-only. With both, NVPTX loads it
  // through the read-only data cache (ld.global.nc) and LLVM merges
  // neighbouring loads into vector loads.
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    if (!isa<MemRefType>(func.getArgumentTypes()[i]))
      continue;
    Value arg = entry.getArgument(i);
    bool written = llvm::any_of(arg.getUsers(), [&](Operation *user) {
      auto store = dyn_cast<memref::StoreOp>(user);
      // (An asynchronous copy reads its source: uop-lower-gemm's operands.)
      auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(user);
      if (copy)
        return copy.getDst() == arg;
      return !isa<memref::LoadOp>(user) && (!store || store.getMemRef() == arg);
    });
    gpuFunc.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
    gpuFunc.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(), b.getI64IntegerAttr(16));
    if (!written)
      gpuFunc.setArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName(), b.getUnitAttr());
  }
  // A scratch buffer is the runtime's own allocation too.
  unsigned numArgs = func.getNumArguments(), numScratch = k.scratch.size();
  for (unsigned i = numArgs; i < numArgs + numScratch; ++i) {
    gpuFunc.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
    gpuFunc.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(), b.getI64IntegerAttr(16));
  }

  Block &gpuEntry = gpuFunc.getBody().front();
  for (unsigned i = 0; i < numArgs; ++i)
    entry.getArgument(i).replaceAllUsesWith(gpuEntry.getArgument(i));
  if (dynamic) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(shared.front());
    Location loc = func.getLoc();
    auto workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                     MemRefLayoutAttrInterface(), workgroup);
    Value base = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
    for (auto [a, offset] : llvm::zip(shared, sharedOffsets)) {
      b.setInsertionPoint(a);
      Value at = arith::ConstantIndexOp::create(b, loc, offset);
      Value view = memref::ViewOp::create(b, loc, a.getType(), base, at, ValueRange());
      a.getResult().replaceAllUsesWith(view);
      a.erase();
    }
    shared.clear();
  }
  for (auto [i, a] : llvm::enumerate(shared)) {
    // An alloca's alignment is its shared array's (cp.async and ldmatrix
    // need 16-byte aligned rows).
    if (std::optional<uint64_t> align = a.getAlignment())
      gpuFunc.setWorkgroupAttributionAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                                          b.getI64IntegerAttr(*align));
    a.getResult().replaceAllUsesWith(gpuEntry.getArgument(numArgs + numScratch + i));
    a.erase();
  }
  gpuEntry.getOperations().splice(gpuEntry.end(), entry.getOperations());
  auto ret = dyn_cast<func::ReturnOp>(gpuEntry.getTerminator());
  if (!ret)
    return func.emitOpError("uop-to-gpu: expects the kernel to end in func.return");
  b.setInsertionPoint(ret);
  gpu::ReturnOp::create(b, ret.getLoc());
  ret.erase();

  // GPU loops -> ids: each thread runs the body once, at its own id.
  for (auto [par, p] : k.loops) {
    b.setInsertionPoint(par);
    unsigned pi = static_cast<unsigned>(p);
    Value id =
        pi < 3
            ? gpu::BlockIdOp::create(b, par.getLoc(), static_cast<gpu::Dimension>(pi)).getResult()
            : gpu::ThreadIdOp::create(b, par.getLoc(), static_cast<gpu::Dimension>(pi - 3))
                  .getResult();
    Block *body = par.getBody();
    body->getTerminator()->erase(); // scf.reduce, with no operands
    par.getInductionVars()[0].replaceAllUsesWith(id);
    par->getBlock()->getOperations().splice(Block::iterator(par), body->getOperations());
    par.erase();
  }
  // Per-thread memory (accumulators): static allocas at the entry, where
  // LLVM promotes them to registers.
  SmallVector<memref::AllocaOp> allocas;
  gpuFunc.walk([&](memref::AllocaOp a) {
    if (a->getBlock() != &gpuEntry && a.getType().hasStaticShape() && a->getNumOperands() == 0)
      allocas.push_back(a);
  });
  for (memref::AllocaOp a : llvm::reverse(allocas))
    a->moveBefore(&gpuEntry, gpuEntry.begin());

  // Large per-thread allocas: each thread's slice of a scratch buffer, at
  // the thread's linear id in the launch (every thread runs the whole body,
  // so every thread of the grid needs its own).
  if (k.scratch.empty())
    return success();
  Location loc = func.getLoc();
  b.setInsertionPointToStart(&gpuEntry);
  Value tid = linearThreadId(b, loc, k);
  for (auto [j, a] : llvm::enumerate(k.scratch)) {
    Value buffer = gpuEntry.getArgument(numArgs + j);
    auto flags = arith::IntegerOverflowFlags::nsw | arith::IntegerOverflowFlags::nuw;
    Value slice = arith::MulIOp::create(
        b, loc, tid, arith::ConstantIndexOp::create(b, loc, a.getType().getNumElements()), flags);
    for (OpOperand &use : llvm::make_early_inc_range(a->getUses())) {
      Operation *user = use.getOwner();
      // isScratchable: a load, store or atomic by one index.
      MutableOperandRange indices = *accessIndices(user, a);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(user);
      Value i = arith::AddIOp::create(b, user->getLoc(), slice, indices[0].get(), flags);
      indices[0].set(i);
      use.set(buffer);
    }
    a.erase();
  }
  return success();
}

} // namespace

LogicalResult mlir::uop::convertKernelsToGPU(ModuleOp module, StringRef moduleName,
                                             bool tempsAsArgs) {
  MLIRContext *ctx = module.getContext();
  TargetAttr target = getTargetOrDefault(module, TargetKind::CUDA);
  SmallVector<Kernel> kernels;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!isKernel(func) || func.isExternal())
      continue;
    FailureOr<Kernel> k = analyze(func, target);
    if (failed(k))
      return failure();
    kernels.push_back(std::move(*k));
  }
  if (kernels.empty())
    return success();

  // Who calls each kernel: only func.call may use one.
  llvm::StringMap<SmallVector<func::CallOp>> calls;
  llvm::StringMap<unsigned> index;
  for (auto [i, k] : llvm::enumerate(kernels))
    index[k.func.getName()] = i;
  WalkResult bad = module.walk([&](Operation *op) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      if (index.count(call.getCallee())) {
        if (call.getNumResults() != 0) {
          call.emitOpError("uop-to-gpu: a kernel call has no results");
          return WalkResult::interrupt();
        }
        calls[call.getCallee()].push_back(call);
      }
      return WalkResult::advance();
    }
    if (auto uses = SymbolTable::getSymbolUses(op))
      for (const SymbolTable::SymbolUse &use : *uses)
        if (index.count(use.getSymbolRef().getRootReference().getValue()) &&
            !isa<func::FuncOp>(op)) {
          op->emitOpError("uop-to-gpu: uses kernel ")
              << use.getSymbolRef() << " other than by func.call";
          return WalkResult::interrupt();
        }
    return WalkResult::advance();
  });
  if (bad.wasInterrupted())
    return failure();

  // The gpu.module.
  SymbolTable symbols(module);
  auto gpuModule = symbols.lookup<gpu::GPUModuleOp>(moduleName);
  if (!gpuModule) {
    if (symbols.lookup(moduleName))
      return module.emitOpError("uop-to-gpu: symbol '")
             << moduleName << "' exists and is not a gpu.module";
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), moduleName);
  }
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), UnitAttr::get(ctx));

  // A host adds an argument for a scratch buffer: it must be a function
  // nobody calls.
  for (Kernel &k : kernels) {
    if (k.scratch.empty() || !tempsAsArgs)
      continue;
    for (func::CallOp call : calls.lookup(k.func.getName())) {
      auto host = call->getParentOfType<func::FuncOp>();
      if (!host || !SymbolTable::symbolKnownUseEmpty(host, module))
        return call.emitOpError("uop-to-gpu: kernel '")
               << k.func.getName() << "' needs global scratch memory, an argument of its "
               << "caller, but the caller is not a host function nobody calls";
    }
  }

  OpBuilder b(ctx);
  // The scratch buffers of each host (by kernel): one for all of a kernel's
  // launches, which run one after another.
  DenseMap<std::pair<Operation *, Operation *>, SmallVector<Value>> hostScratch;
  auto scratchOf = [&](func::FuncOp host, const Kernel &k) -> SmallVector<Value> {
    func::FuncOp kernel = k.func;
    SmallVector<Value> &buffers = hostScratch[{host, kernel}];
    if (!buffers.empty() || k.scratchTypes.empty())
      return buffers;
    OpBuilder::InsertionGuard guard(b);
    Location loc = host.getLoc();
    b.setInsertionPointToStart(&host.getBody().front());
    for (MemRefType type : k.scratchTypes) {
      if (tempsAsArgs) {
        // A temporary the runtime allocates (uop-lower-host's temps-as-args).
        unsigned n = host.getNumArguments();
        DictionaryAttr attrs = b.getDictionaryAttr(
            b.getNamedAttr(kScratchArgAttrName, b.getStringAttr(kernel.getName())));
        (void)host.insertArgument(n, type, attrs, kernel.getLoc());
        buffers.push_back(host.getArgument(n));
        auto append = [&](StringRef name, int64_t v) {
          if (auto list = host->getAttrOfType<DenseI64ArrayAttr>(name)) {
            SmallVector<int64_t> values(list.asArrayRef());
            values.push_back(v);
            host->setAttr(name, b.getDenseI64ArrayAttr(values));
          }
        };
        append(kHostArgsAttrName, HostArg::Temp);
        append(kHostSlotsAttrName, -1);
        continue;
      }
      // Allocated by the host for its run (in order, at its start), as
      // uop-lower-host's temporaries.
      buffers.push_back(memref::AllocOp::create(b, loc, type));
    }
    if (!tempsAsArgs)
      host.walk([&](func::ReturnOp ret) {
        b.setInsertionPoint(ret);
        for (Value mem : buffers)
          memref::DeallocOp::create(b, loc, mem);
      });
    return buffers;
  };
  for (Kernel &k : kernels) {
    func::FuncOp func = k.func;
    std::string name = func.getName().str();
    Location loc = func.getLoc();
    FunctionType type = func.getFunctionType();
    if (gpuModule.lookupSymbol(name))
      return func.emitOpError("uop-to-gpu: gpu.module @")
             << moduleName << " already has a symbol '" << name << "'";
    if (failed(buildGPUFunc(k, gpuModule, target)))
      return failure();
    auto kernelRef = SymbolRefAttr::get(ctx, moduleName, {FlatSymbolRefAttr::get(ctx, name)});
    auto launch = [&](Location at, ValueRange buffers, ValueRange scratch) {
      SmallVector<Value> operands(buffers);
      llvm::append_range(operands, scratch);
      llvm::SmallDenseMap<int64_t, Value> consts;
      auto c = [&](int64_t v) -> Value {
        Value &x = consts[v];
        if (!x)
          x = arith::ConstantIndexOp::create(b, at, v);
        return x;
      };
      gpu::KernelDim3 grid{c(k.grid[0]), c(k.grid[1]), c(k.grid[2])};
      gpu::KernelDim3 block{c(k.block[0]), c(k.block[1]), c(k.block[2])};
      Value dynamicShared;
      if (k.dynamicShared > 0)
        dynamicShared = arith::ConstantIntOp::create(b, at, b.getI32Type(), k.dynamicShared);
      gpu::LaunchFuncOp::create(b, at, kernelRef, grid, block, dynamicShared, operands,
                                /*asyncTokenType=*/Type(), ValueRange());
    };

    auto it = calls.find(name);
    if (it != calls.end()) {
      for (func::CallOp call : it->second) {
        SmallVector<Value> scratch = scratchOf(call->getParentOfType<func::FuncOp>(), k);
        b.setInsertionPoint(call);
        launch(call.getLoc(), call.getOperands(), scratch);
        call.erase();
      }
      func.erase();
      continue;
    }
    // Nobody calls it: the program is this kernel. A host of the same name
    // and arguments launches it once.
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute attr : func->getDiscardableAttrs())
      if (attr.getName() != kKernelAttrName)
        attrs.push_back(attr);
    b.setInsertionPoint(func);
    auto host = func::FuncOp::create(b, loc, name, type, attrs);
    host.setVisibility(func.getVisibility());
    func.erase();
    Block *body = host.addEntryBlock();
    b.setInsertionPointToStart(body);
    auto ret = func::ReturnOp::create(b, loc);
    SmallVector<Value> scratch = scratchOf(host, k);
    // After the host's allocations, before their deallocations.
    if (!scratch.empty() && !tempsAsArgs)
      b.setInsertionPointAfter(scratch.back().getDefiningOp());
    else
      b.setInsertionPoint(ret);
    launch(loc, body->getArguments().take_front(type.getNumInputs()), scratch);
  }
  return success();
}

namespace {
struct UopToGPUPass : mlir::uop::impl::UopToGPUPassBase<UopToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convertKernelsToGPU(getOperation(), moduleName, tempsAsArgs)))
      signalPassFailure();
  }
};
} // namespace
