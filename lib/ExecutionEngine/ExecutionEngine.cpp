//===- ExecutionEngine.cpp - from a module to something that runs -*- C++ -*-===//

#include "Uop/ExecutionEngine/ExecutionEngine.h"

#include "Uop/Conversion/Passes.h"
#include "Uop/IR/UopDTypes.h"
#include "Uop/IR/UopGemm.h"
#include "Uop/IR/UopOps.h"
#include "Uop/Transforms/Passes.h"
#include "Uop/Runtime/Driver.h"
#include "Uop/Runtime/HostCpu.h"
#include "Uop/Target/C.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace mlir::uop;
namespace rt = ::uop::rt;

//===----------------------------------------------------------------------===//
// What the runtime needs to know, read off the IR
//===----------------------------------------------------------------------===//

/// The slots of a kernel graph, in slot order, with how the graph uses them
/// (its memory followed through after/index to its loads and stores).
static FailureOr<std::vector<rt::PlanArg>> collectSlots(func::FuncOp func) {
  std::map<int64_t, rt::PlanArg> slots;
  WalkResult walk = func.walk([&](BufferOp buf) {
    auto type = dyn_cast<MemRefType>(buf.getType());
    if (!type)
      return WalkResult::advance();
    auto dtype = toRuntimeDType(type.getElementType());
    if (!dtype) {
      buf.emitOpError("has an element type the runtime cannot hold: ") << type.getElementType();
      return WalkResult::interrupt();
    }
    int64_t id = buf.getSlotAttr().getInt();
    rt::PlanArg &s =
        slots
            .try_emplace(id, rt::PlanArg{rt::PlanArg::Input, id, *dtype,
                                         std::max<int64_t>(1, type.getNumElements()), false, false})
            .first->second;
    SmallVector<Value> work{buf.getResult()};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (isa<LoadOp>(user))
          s.read = true;
        else if (auto st = dyn_cast<StoreOp>(user)) {
          if (st.getPtr() == v)
            s.written = true;
        } else if (isa<AfterOp, IndexOp>(user) && user->getOperand(0) == v)
          work.push_back(user->getResult(0));
      }
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  std::vector<rt::PlanArg> args;
  for (auto &[id, s] : slots) {
    s.kind = s.read ? rt::PlanArg::Input : rt::PlanArg::Output;
    args.push_back(s);
  }
  return args;
}

/// Floating-point operations of one run of a linearized kernel: float arith
/// ops weighted by the trip counts of their enclosing loops (constant bounds).
static double countFlops(func::FuncOp func) {
  auto tripCount = [](Value lb, Value ub, Value step) -> double {
    auto l = getConstantIntValue(lb), u = getConstantIntValue(ub), s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return 1;
    return std::max<int64_t>(0, (*u - *l + *s - 1) / *s);
  };
  double flops = 0;
  func.walk([&](Operation *op) {
    if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp>(op))
      return;
    double trips = 1;
    for (Operation *p = op->getParentOp(); p && p != func; p = p->getParentOp()) {
      if (auto f = dyn_cast<scf::ForOp>(p))
        trips *= tripCount(f.getLowerBound(), f.getUpperBound(), f.getStep());
      else if (auto par = dyn_cast<scf::ParallelOp>(p))
        for (unsigned i = 0; i < par.getNumLoops(); ++i)
          trips *= tripCount(par.getLowerBound()[i], par.getUpperBound()[i], par.getStep()[i]);
    }
    // A vector op (uop-linearize's vector lanes) is one flop per lane.
    if (auto vt = dyn_cast<VectorType>(op->getResult(0).getType()))
      trips *= vt.getNumElements();
    flops += trips;
  });
  return flops;
}

/// Bytes of the buffers a linearized kernel takes (what one launch reads and
/// writes, each buffer counted once).
static double countBytes(func::FuncOp func) {
  double bytes = 0;
  for (Type t : func.getArgumentTypes())
    if (auto m = dyn_cast<MemRefType>(t); m && m.hasStaticShape())
      bytes += double(m.getNumElements()) * std::max<unsigned>(1, m.getElementTypeBitWidth() / 8);
  return bytes;
}

/// The opts of a kernel as printed ("" for none).
static std::string printOpts(func::FuncOp kernel) {
  std::string s;
  if (Attribute opts = kernel->getAttr(kOptsAttrName)) {
    llvm::raw_string_ostream os(s);
    opts.print(os);
  }
  return s;
}

/// What `@main` is: a shaped program (values) or a kernel graph (a sink).
static FailureOr<rt::HostPlan::Form> classifyMain(ModuleOp module) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return emitError(module.getLoc(), "no func.func @main to run"), failure();
  if (main.isDeclaration())
    return emitError(main.getLoc(), "@main is only a declaration: there is no program to run"),
           failure();
  if (main.getNumArguments() != 0)
    return emitError(main.getLoc(), "@main takes arguments; a program reads its inputs from "
                                    "uop.buffer slots"),
           failure();
  auto ret = dyn_cast<func::ReturnOp>(main.getBody().front().getTerminator());
  if (!ret || ret.getNumOperands() == 0)
    return emitError(main.getLoc(),
                     "@main must return values (a shaped program) or the uop.sink of a "
                     "kernel graph"),
           failure();
  bool shaped = !isa<VoidType>(ret.getOperand(0).getType());
  if (shaped && llvm::any_of(ret.getOperandTypes(), llvm::IsaPred<VoidType>))
    return emitError(main.getLoc(), "@main returns both values and effects (!uop.void); a shaped "
                                    "program returns values only"),
           failure();
  if (!shaped && (ret.getNumOperands() != 1 || !ret.getOperand(0).getDefiningOp<SinkOp>()))
    return emitError(main.getLoc(), "@main is not a kernel graph (its result must be a uop.sink of "
                                    "stores)"),
           failure();
  return shaped ? rt::HostPlan::Shaped : rt::HostPlan::InPlace;
}

/// The plan of a program before its kernels are lowered: a shaped program
/// is cut into kernels and a host (`kernelize`: the target's kernelize stage
/// with its opts) and planned from the host; a kernel graph is one launch of
/// `main` over its slots.
static FailureOr<rt::HostPlan>
planProgram(ModuleOp module, rt::HostPlan::Form form, function_ref<void(OpPassManager &)> kernelize,
            function_ref<LogicalResult(ModuleOp)> chooseOpts = nullptr) {
  rt::HostPlan plan;
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (form == rt::HostPlan::Shaped) {
    PassManager pm(module.getContext());
    kernelize(pm);
    if (failed(pm.run(module)) || (chooseOpts && failed(chooseOpts(module))))
      return failure();
    FailureOr<rt::HostPlan> p = getHostPlan(main);
    if (failed(p))
      return failure();
    plan = std::move(*p);
    for (rt::PlanKernel &k : plan.kernels)
      if (auto f = module.lookupSymbol<func::FuncOp>(k.name))
        k.opts = printOpts(f);
    return plan;
  }
  plan.form = rt::HostPlan::InPlace;
  FailureOr<std::vector<rt::PlanArg>> slots = collectSlots(main);
  if (failed(slots))
    return failure();
  plan.args = std::move(*slots);
  plan.kernels.push_back({"main", 1});
  plan.kernels.back().opts = printOpts(main); // a loop program's own (vector lanes)
  plan.numLaunches = 1;
  return plan;
}

/// Lowers the kernels to L3 (`linearize`: the target's stage) and records
/// each kernel's work there, where loop bounds are constants.
static LogicalResult linearizeAndCount(ModuleOp module, rt::HostPlan &plan,
                                       function_ref<void(OpPassManager &)> linearize) {
  PassManager pm(module.getContext());
  linearize(pm);
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(module)))
    return failure();
  for (rt::PlanKernel &k : plan.kernels) {
    if (auto f = module.lookupSymbol<func::FuncOp>(k.name)) {
      k.flops = countFlops(f);
      k.bytes = countBytes(f);
    }
  }
  return success();
}

/// A launch of `callee` with `operands` (the host's arguments, which are the
/// plan's, in order) as the plan records it.
static FailureOr<rt::PlanLaunch> planLaunch(Location loc, StringRef callee, ValueRange operands,
                                            const llvm::StringMap<unsigned> &kernelIndex,
                                            const rt::HostPlan &plan) {
  auto it = kernelIndex.find(callee);
  if (it == kernelIndex.end())
    return emitError(loc, "the host launches '") << callee << "', which is not one of its kernels",
           failure();
  rt::PlanLaunch l{it->second, {}};
  for (Value v : operands) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getArgNumber() >= plan.args.size())
      return emitError(loc, "a kernel argument is not one of the host's buffers"), failure();
    l.args.push_back(arg.getArgNumber());
  }
  return l;
}

/// Kernel name -> index in the plan.
static llvm::StringMap<unsigned> indexKernels(const rt::HostPlan &plan) {
  llvm::StringMap<unsigned> index;
  for (auto [i, k] : llvm::enumerate(plan.kernels))
    index[k.name] = i;
  return index;
}

/// The launches of a lowered host (or the one launch of a kernel graph),
/// with the plan argument bound to each kernel parameter.
static LogicalResult recordLaunches(func::FuncOp main, rt::HostPlan &plan) {
  if (plan.form == rt::HostPlan::InPlace) {
    rt::PlanLaunch l{0, {}};
    for (unsigned i = 0; i < plan.args.size(); ++i)
      l.args.push_back(i);
    plan.launches.push_back(std::move(l));
    return success();
  }
  llvm::StringMap<unsigned> kernelIndex = indexKernels(plan);
  for (auto call : main.getBody().getOps<func::CallOp>()) {
    FailureOr<rt::PlanLaunch> l =
        planLaunch(call.getLoc(), call.getCallee(), call.getOperands(), kernelIndex, plan);
    if (failed(l))
      return failure();
    plan.launches.push_back(std::move(*l));
  }
  if (plan.launches.size() != plan.numLaunches)
    return emitError(main.getLoc(), "the host makes ")
           << plan.launches.size() << " calls for " << plan.numLaunches << " launches";
  return success();
}

/// The launches of a host after uop-to-gpu: each gpu.launch_func, with the
/// plan argument bound to each kernel parameter and its constant grid and
/// block sizes.
static LogicalResult recordGpuLaunches(func::FuncOp main, rt::HostPlan &plan) {
  llvm::StringMap<unsigned> kernelIndex = indexKernels(plan);
  for (auto launch : main.getBody().getOps<gpu::LaunchFuncOp>()) {
    FailureOr<rt::PlanLaunch> planned =
        planLaunch(launch.getLoc(), launch.getKernelName().getValue(), launch.getKernelOperands(),
                   kernelIndex, plan);
    if (failed(planned))
      return failure();
    rt::PlanLaunch &l = *planned;
    Value dims[6] = {launch.getGridSizeX(),  launch.getGridSizeY(),  launch.getGridSizeZ(),
                     launch.getBlockSizeX(), launch.getBlockSizeY(), launch.getBlockSizeZ()};
    for (int i = 0; i < 6; ++i) {
      std::optional<int64_t> d = getConstantIntValue(dims[i]);
      if (!d || *d < 1)
        return emitError(launch.getLoc(), "a launch dimension is not a positive constant");
      (i < 3 ? l.grid[i] : l.block[i - 3]) = *d;
    }
    if (Value shared = launch.getDynamicSharedMemorySize()) {
      std::optional<int64_t> bytes = getConstantIntValue(shared);
      if (!bytes || *bytes < 0)
        return emitError(launch.getLoc(), "a launch's dynamic shared memory is not a constant");
      l.shared = *bytes;
    }
    plan.launches.push_back(std::move(l));
  }
  if (plan.launches.size() != plan.numLaunches)
    return emitError(main.getLoc(), "the host makes ")
           << plan.launches.size() << " launches for " << plan.numLaunches << " in its plan";
  return success();
}

/// The tensor maps of each kernel (uop-lower-gemm's warpgroup kernels: the
/// `uop.tma` of its gpu.func), which the runtime encodes and passes after
/// the launch's buffers.
static LogicalResult recordTensorMaps(ModuleOp module, rt::HostPlan &plan) {
  llvm::StringMap<unsigned> kernelIndex = indexKernels(plan);
  WalkResult r = module.walk([&](gpu::GPUFuncOp func) {
    auto maps = func->getAttrOfType<ArrayAttr>(kTensorMapAttrName);
    auto it = kernelIndex.find(func.getName());
    if (!maps || it == kernelIndex.end())
      return WalkResult::advance();
    std::vector<rt::PlanTensorMap> &out = plan.kernels[it->second].tensorMaps;
    out.clear();
    for (Attribute a : maps) {
      std::optional<TensorMapSpec> spec = TensorMapSpec::fromAttr(a);
      std::optional<rt::DType> dtype = spec ? toRuntimeDType(spec->type) : std::nullopt;
      if (!dtype || spec->param < 0 || spec->param >= (int64_t)func.getNumArguments()) {
        func.emitOpError("a malformed ") << kTensorMapAttrName << " entry: " << a;
        return WalkResult::interrupt();
      }
      rt::PlanTensorMap t;
      t.param = spec->param;
      t.dtype = *dtype;
      t.offset = spec->offset;
      t.stride = spec->stride;
      t.swizzle = spec->swizzle;
      for (int i = 0; i < 2; ++i) {
        t.dims[i] = spec->dims[i];
        t.box[i] = spec->box[i];
      }
      out.push_back(t);
    }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

/// The host arguments uop-to-gpu added after the plan's (the global scratch
/// buffers of large per-thread allocs): temporaries of the plan, which the
/// runtime allocates once, as the others.
static LogicalResult addScratchArgs(func::FuncOp main, rt::HostPlan &plan) {
  if (main.getNumArguments() < plan.args.size())
    return emitError(main.getLoc(), "the host takes ")
           << main.getNumArguments() << " buffers, but its plan has " << plan.args.size();
  for (unsigned i = plan.args.size(), e = main.getNumArguments(); i < e; ++i) {
    auto type = dyn_cast<MemRefType>(main.getArgumentTypes()[i]);
    std::optional<rt::DType> dtype = type ? toRuntimeDType(type.getElementType()) : std::nullopt;
    if (!main.getArgAttr(i, kScratchArgAttrName) || !dtype || type.getRank() != 1 ||
        !type.hasStaticShape())
      return emitError(main.getLoc(), "host argument ")
             << i << " is not in its plan (nor a global scratch buffer of uop-to-gpu)";
    plan.args.push_back({rt::PlanArg::Temp, -1, *dtype, std::max<int64_t>(1, type.getNumElements()),
                         /*read=*/false, /*written=*/false});
  }
  return success();
}

/// Runs `stage` of the program's pipeline (CPU or CUDA) on `module`.
static LogicalResult runStage(ModuleOp module, PipelineStage stage,
                              const UopCpuPipelineOptions *cpu,
                              const UopCudaPipelineOptions *cuda) {
  PassManager pm(module.getContext());
  if (cuda)
    buildUopCudaStage(pm, stage, *cuda);
  else
    buildUopCpuStage(pm, stage, *cpu);
  return pm.run(module);
}

/// $UOP_DEBUG (the seed's DEBUG): at 4 and above every compile prints the
/// program's C to stderr.
static int debugLevel() {
  const char *env = std::getenv("UOP_DEBUG");
  return env ? std::atoi(env) : 0;
}

/// The C path after the host stage: the Lower stage with `codegen` = C
/// (CUDA C) makes the module EmitC; the CPU's gets the runtime's entry
/// points (`uop_entry`, `uop_kernel_NAME`: the LLVM path's shape); printed
/// with the plan as a comment.
static FailureOr<std::string> lowerToC(ModuleOp module, const rt::HostPlan &plan,
                                       const UopCpuPipelineOptions *cpu,
                                       const UopCudaPipelineOptions *cuda) {
  if (failed(runStage(module, PipelineStage::Lower, cpu, cuda)))
    return failure();
  if (cpu) {
    bool inPlace = plan.form == rt::HostPlan::InPlace;
    if (failed(addPackedCEntry(module, getCFunctionName("main", /*isKernel=*/inPlace))))
      return failure();
    if (!inPlace)
      for (const rt::PlanKernel &k : plan.kernels)
        if (failed(addPackedCEntry(module, getCFunctionName(k.name, /*isKernel=*/true),
                                   rt::kernelEntryName(k.name))))
          return failure();
  }
  std::string source;
  llvm::raw_string_ostream os(source);
  std::string header = std::string("uop: ") + (cuda ? "CUDA C" : "C") +
                       " of the program (the C path); the host function runs the plan:\n" +
                       rt::formatPlan(plan);
  if (failed(translateToC(module, os, header)))
    return failure();
  // The plan the code is compiled for, which the runtime checks a plan
  // against on load (a CPU library's symbol; CUDA C's PTX gets a comment).
  if (cpu)
    os << "\n/* The plan this library is compiled for (the runtime checks it). */\n"
       << "const char " << rt::kPlanSignatureSymbol << "[] = \"" << plan.codeSignature()
       << "\";\n";
  return source;
}

/// The C of a module after the host stage that the LLVM path compiles:
/// the C path on a copy (for `printC` and UOP_DEBUG=4). With `quiet`, a
/// program the C path cannot take gives "" and a note on stderr, not an
/// error.
static FailureOr<std::string> sourceOfCopy(ModuleOp module, const rt::HostPlan &plan,
                                           UopCpuPipelineOptions *cpu,
                                           UopCudaPipelineOptions *cuda, bool quiet) {
  OwningOpRef<ModuleOp> copy = module.clone();
  std::string messages;
  std::optional<ScopedDiagnosticHandler> capture;
  if (quiet)
    capture.emplace(module.getContext(), [&](Diagnostic &d) {
      messages += d.str() + "\n";
      return success();
    });
  FailureOr<std::string> source;
  if (cpu) {
    UopCpuPipelineOptions c;
    c.copyOptionValuesFrom(*cpu);
    c.codegen = CodegenPath::C;
    source = lowerToC(*copy, plan, &c, nullptr);
  } else {
    UopCudaPipelineOptions c;
    c.copyOptionValuesFrom(*cuda);
    c.codegen = CodegenPath::CudaC;
    source = lowerToC(*copy, plan, nullptr, &c);
  }
  if (failed(source) && quiet) {
    llvm::errs() << "UOP_DEBUG: the program has no C: " << messages;
    return std::string();
  }
  return source;
}

/// `ptx` with the signature of the plan it is compiled for (a comment line
/// at its end), which the runtime checks a plan against on load.
static std::string withPlanSignature(std::string ptx, const rt::HostPlan &plan) {
  if (ptx.empty())
    return ptx;
  if (ptx.back() != '\n')
    ptx += '\n';
  return ptx + rt::kPlanSignatureComment + plan.codeSignature() + "\n";
}

/// The CUDA target: the same plan, the kernels lowered to PTX.
static FailureOr<CompiledProgram> compileForCuda(ModuleOp module, rt::HostPlan::Form form,
                                                 const CompileOptions &options,
                                                 const CompileTargets &targets, bool sourceOnly) {
  MLIRContext *ctx = module.getContext();
  {
    DialectRegistry registry;
    registerUopCudaTarget(registry);
    ctx->appendDialectRegistry(registry);
  }
  UopCudaPipelineOptions pipeline;
  setPipelineOptions(options, targets, pipeline);
  // opt=search: the GPU search's cached winners (and its export) first, the
  // hand's rules for what is left.
  bool search = options.opt == OptMode::Search;
  auto searchThenHand = [&](ModuleOp m) -> LogicalResult {
    if (failed(gpuSearchOpts(m, options, llvm::errs())))
      return failure();
    return runStage(m, PipelineStage::Opts, nullptr, &pipeline);
  };
  FailureOr<rt::HostPlan> planned = planProgram(
      module, form,
      [&](OpPassManager &pm) {
        buildUopCudaStage(pm, PipelineStage::Kernelize, pipeline);
        if (!search)
          buildUopCudaStage(pm, PipelineStage::Opts, pipeline);
      },
      search ? function_ref<LogicalResult(ModuleOp)>(searchThenHand) : nullptr);
  if (failed(planned) || failed(linearizeAndCount(module, *planned, [&](OpPassManager &pm) {
        buildUopCudaStage(pm, PipelineStage::Linearize, pipeline);
      })))
    return failure();
  rt::HostPlan plan = std::move(*planned);
  addKernelChecks(module, plan);
  if (failed(runStage(module, PipelineStage::Host, nullptr, &pipeline)))
    return failure();
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main || failed(addScratchArgs(main, plan)) || failed(recordGpuLaunches(main, plan)) ||
      failed(recordTensorMaps(module, plan)))
    return failure();
  std::string machine;
  llvm::raw_string_ostream(machine) << targets.gpu;
  CompiledProgram compiled{CompileTarget::CUDA, machine, "", {}, "", "", "", ""};
  if (pipeline.codegen == CodegenPath::CudaC) {
    // The C path: CUDA C, compiled by nvcc; C names its kernels (`main` is
    // `kernel`), and the plan launches them by those names.
    for (rt::PlanKernel &k : plan.kernels)
      k.name = getCFunctionName(k.name, /*isKernel=*/true).str();
    FailureOr<std::string> source = lowerToC(module, plan, nullptr, &pipeline);
    if (failed(source))
      return failure();
    if (debugLevel() >= 4)
      llvm::errs() << *source;
    if (!sourceOnly) {
      FailureOr<CudaBinary> binary =
          compileCudaC(*source, targets.gpu, options.cudaToolkit, module.getLoc());
      if (failed(binary))
        return failure();
      compiled.ptx = withPlanSignature(std::move(binary->ptx), plan);
      compiled.cubin = std::move(binary->cubin);
    }
    compiled.source = std::move(*source);
    compiled.plan = std::move(plan);
    return compiled;
  }
  if (options.printC || debugLevel() >= 4) {
    FailureOr<std::string> source =
        sourceOfCopy(module, plan, nullptr, &pipeline, /*quiet=*/!options.printC);
    if (failed(source))
      return failure();
    if (debugLevel() >= 4)
      llvm::errs() << *source;
    compiled.source = std::move(*source);
  }
  if (failed(runStage(module, PipelineStage::Lower, nullptr, &pipeline)))
    return failure();
  FailureOr<std::string> ptx = getPTX(module);
  if (failed(ptx))
    return failure();
  compiled.ptx = withPlanSignature(std::move(*ptx), plan);
  compiled.plan = std::move(plan);
  return compiled;
}

//===----------------------------------------------------------------------===//
// compile
//===----------------------------------------------------------------------===//

/// compileProgram; with `sourceOnly` (the C path) it stops at the C.
static FailureOr<CompiledProgram> compileStaged(ModuleOp program, const CompileOptions &options,
                                                bool sourceOnly) {
  FailureOr<rt::HostPlan::Form> form = classifyMain(program);
  if (failed(form))
    return failure();
  MLIRContext *ctx = program.getContext();
  // The machines, once: the pipelines attach exactly these.
  std::string error;
  FailureOr<CompileTargets> targets = resolveTargets(options, ctx, error);
  if (failed(targets))
    return emitError(program.getLoc(), error), failure();
  OwningOpRef<ModuleOp> module = program.clone();
  // Attached once, here (a kernel graph skips the kernelize stage, whose
  // uop-attach-target then keeps it): the GPU's for the GPU mapping, which
  // the emulation's Lower stage replaces by the CPU's.
  setTarget(*module, options.target == CompileTarget::CPU ? targets->cpu : targets->gpu);
  if (options.target == CompileTarget::CUDA)
    return compileForCuda(*module, *form, options, *targets, sourceOnly);
  UopCpuPipelineOptions pipeline;
  setPipelineOptions(options, *targets, pipeline);

  // L1 -> kernels + host, and who maps each kernel onto the machine (the
  // search first, where it is asked for: the opts stage leaves the kernels
  // it chose alone); then the kernels -> L3, where each kernel's work is
  // counted.
  bool search = pipeline.opt == OptMode::Search;
  auto searchThenHand = [&](ModuleOp m) -> LogicalResult {
    if (failed(searchOpts(m, options, llvm::errs())))
      return failure();
    // What the search left (kernels that divide by data): the hand rules.
    return runStage(m, PipelineStage::Opts, &pipeline, nullptr);
  };
  FailureOr<rt::HostPlan> planned = planProgram(
      *module, *form,
      [&](OpPassManager &pm) {
        buildUopCpuStage(pm, PipelineStage::Kernelize, pipeline);
        if (!search)
          buildUopCpuStage(pm, PipelineStage::Opts, pipeline);
      },
      search ? function_ref<LogicalResult(ModuleOp)>(searchThenHand) : nullptr);
  if (failed(planned) || failed(linearizeAndCount(*module, *planned, [&](OpPassManager &pm) {
        buildUopCpuStage(pm, PipelineStage::Linearize, pipeline);
      })))
    return failure();
  rt::HostPlan plan = std::move(*planned);
  // Kernels with run-time checks: their check records (plan arguments) and
  // the checks' locations, which the runtime reports a failure at.
  addKernelChecks(*module, plan);
  auto main = module->lookupSymbol<func::FuncOp>("main");

  // The host's launches become calls; each call's operands are the host's
  // arguments (temporaries too), which are the plan's, in order.
  if (failed(runStage(*module, PipelineStage::Host, &pipeline, nullptr)) ||
      failed(recordLaunches(main, plan)))
    return failure();

  std::string machine;
  llvm::raw_string_ostream(machine) << targets->cpu;
  CompiledProgram compiled{options.target, machine, targets->cpu.getFeatures().str(), {}, "", "",
                           "", ""};
  if (pipeline.codegen == CodegenPath::C) {
    // The C path: C, compiled by clang-22 into the same shape of library.
    FailureOr<std::string> source = lowerToC(*module, plan, &pipeline, nullptr);
    if (failed(source))
      return failure();
    if (debugLevel() >= 4)
      llvm::errs() << *source;
    if (!sourceOnly) {
      bool fast = largestCBlock(*module) > kMaxScheduledBlock;
      FailureOr<std::string> so = compileCToSharedLibrary(
          *source, targets->cpu, options.codegen.optLevel, fast, program.getLoc());
      if (failed(so))
        return failure();
      compiled.library = std::move(*so);
    }
    compiled.source = std::move(*source);
    compiled.plan = std::move(plan);
    return compiled;
  }
  if (options.printC || debugLevel() >= 4) {
    FailureOr<std::string> source =
        sourceOfCopy(*module, plan, &pipeline, nullptr, /*quiet=*/!options.printC);
    if (failed(source))
      return failure();
    if (debugLevel() >= 4)
      llvm::errs() << *source;
    compiled.source = std::move(*source);
  }

  // L3 -> LLVM dialect -> a shared library (the CPU target only translates).
  if (failed(runStage(*module, PipelineStage::Lower, &pipeline, nullptr)) ||
      failed(addPackedEntry(*module, "main")))
    return failure();
  // Each kernel's own entry, for per-kernel profiles (UOP_PROFILE, --profile).
  if (plan.form == rt::HostPlan::Shaped)
    for (const rt::PlanKernel &k : plan.kernels)
      if (failed(addPackedEntry(*module, k.name, rt::kernelEntryName(k.name))))
        return failure();
  // The plan the library is compiled for, which the runtime checks a plan
  // against on load (a bundle's plan edited to a smaller output).
  if (failed(addPlanSignature(*module, rt::kPlanSignatureSymbol, plan.codeSignature())))
    return failure();
  FailureOr<std::string> so = compileToSharedLibrary(*module, options.codegen);
  if (failed(so))
    return failure();
  compiled.library = std::move(*so);
  compiled.plan = std::move(plan);
  return compiled;
}

FailureOr<CompiledProgram> mlir::uop::compileProgram(ModuleOp program,
                                                     const CompileOptions &options) {
  return compileStaged(program, options, /*sourceOnly=*/false);
}

FailureOr<std::string> mlir::uop::translateProgramToC(ModuleOp program, CompileOptions options) {
  options.codegenPath =
      options.target == CompileTarget::CUDA ? CodegenPath::CudaC : CodegenPath::C;
  FailureOr<CompiledProgram> compiled = compileStaged(program, options, /*sourceOnly=*/true);
  if (failed(compiled))
    return failure();
  return std::move(compiled->source);
}

rt::Result<std::unique_ptr<rt::Executable>> mlir::uop::load(CompiledProgram compiled) {
  if (compiled.target == CompileTarget::CUDA)
    return rt::Executable::loadCuda(std::move(compiled.plan), std::move(compiled.ptx),
                                    std::move(compiled.cubin));
  // Code for a CPU with features this one lacks would die of SIGILL.
  if (std::vector<std::string> missing = rt::missingCpuFeatures(compiled.features);
      !missing.empty()) {
    std::string list;
    for (const std::string &f : missing)
      list += (list.empty() ? "" : ", ") + f;
    return rt::Error{"the program was compiled for a CPU with " + list +
                     ", which this CPU lacks (--mcpu names the CPU to compile for)"};
  }
  return rt::Executable::load(std::move(compiled.plan), compiled.library);
}

FailureOr<std::unique_ptr<rt::Executable>> mlir::uop::compile(ModuleOp program,
                                                              const CompileOptions &options) {
  FailureOr<CompiledProgram> compiled = compileProgram(program, options);
  if (failed(compiled))
    return failure();
  auto exe = load(std::move(*compiled));
  if (!exe.ok())
    return emitError(program.getLoc(), "cannot load the compiled program: ") << exe.error(),
           failure();
  return exe.take();
}
