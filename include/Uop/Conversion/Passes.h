//===- Passes.h - uop conversion passes --------------------------*- C++ -*-===//

#ifndef UOP_CONVERSION_PASSES_H
#define UOP_CONVERSION_PASSES_H

#include "Uop/IR/UopDialect.h"
#include "Uop/Runtime/Plan.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::uop {

#define GEN_PASS_DECL
#include "Uop/Conversion/Passes.h.inc"

/// The run-time checks of a linearized kernel, by id (uop-linearize): an
/// array of {kind, loc}; the kernel then takes its check record last.
inline constexpr llvm::StringLiteral kChecksAttrName = "uop.checks";
/// The gpu.module uop-to-gpu puts the kernels in.
inline constexpr llvm::StringLiteral kKernelModuleName = "uop_kernels";

/// Schedules the kernel graph in `func` (a body rooted at a `uop.sink`) and
/// replaces the body with scf/memref/arith/math code; buffers become the
/// function's arguments in slot order. Emits a diagnostic and fails on a
/// graph that cannot be scheduled. With `gpu`, GLOBAL/LOCAL ranges stay
/// GPU-mapped `scf.parallel`s, shared allocs workgroup memory and barriers
/// `gpu.barrier` (see uop-linearize's `gpu` option). With `checks`, indices
/// and divisors not proven safe are checked at run time (uop-linearize's
/// `checks` option).
LogicalResult linearizeKernel(func::FuncOp func, bool gpu = false, bool checks = true);

/// The argument attribute of a host argument uop-to-gpu added: the global
/// scratch buffer of a kernel's large per-thread allocs (a temporary, which
/// a runtime allocates as it does the host's other temporaries).
inline constexpr llvm::StringLiteral kScratchArgAttrName = "uop.scratch";

/// Turns the linearized GPU kernels of `module` into `gpu.func` kernels of a
/// `gpu.module` named `moduleName`, and their calls into `gpu.launch_func`
/// (see uop-to-gpu). With `tempsAsArgs` the global scratch buffers of large
/// per-thread allocs are new last arguments of the host (marked
/// kScratchArgAttrName), else the host allocates them.
LogicalResult convertKernelsToGPU(ModuleOp module, StringRef moduleName = kKernelModuleName,
                                  bool tempsAsArgs = false);

/// Lowers the shaped program in `func` (its result a value) to a kernel graph
/// that stores the value into a new buffer slot (the seed's rangeify.lower).
/// `simplify` is the final simplification's rules
/// (getRangeifySimplifyPatterns); null gathers them for this call.
LogicalResult rangeifyFunction(func::FuncOp func,
                               const FrozenRewritePatternSet *simplify = nullptr);

/// The rules uop-rangeify simplifies a kernel with: the seed's symbolic rules
/// and the uop ops' canonicalizations.
FrozenRewritePatternSet getRangeifySimplifyPatterns(MLIRContext *ctx);

/// One argument of a lowered host function, and the calling convention of a
/// kernelized program's host function once lowered by uop-lower-host: its
/// buffers in order (inputs, outputs, then temporaries, which are arguments
/// only with temps-as-args), per returned value the buffer that holds it (an
/// input for an aliased buffer) and its shape, and its kernels in launch
/// order. They are the runtime's types (no MLIR), so that what the engine
/// compiles and what a runtime loads is one description.
using HostArg = ::uop::rt::PlanArg;
using HostPlan = ::uop::rt::HostPlan;

/// The plan of a host function made by uop-kernelize (before or after the
/// kernels are lowered, but before uop-lower-host).
FailureOr<HostPlan> getHostPlan(func::FuncOp host);

/// "file:line:col" of the first file location in `loc` ("" if none).
std::string formatLocation(Location loc);

/// For each kernel of `plan` (looked up from `symbolTableOp`) that
/// uop-linearize gave run-time checks (`uop.checks`): its checks in the
/// plan, and a check record argument (PlanArg::Check) appended to the plan.
/// uop-lower-host passes each such kernel that argument, last.
void addKernelChecks(Operation *symbolTableOp, HostPlan &plan);

/// Lowers the host function made by uop-kernelize (see uop-lower-host).
/// Temporaries are allocated in the host, or with `tempsAsArgs` are its
/// last arguments.
LogicalResult lowerHost(func::FuncOp host, bool tempsAsArgs = false);

//===----------------------------------------------------------------------===//
// uop-to-emitc: the C path
//===----------------------------------------------------------------------===//

/// The C names of the functions C gives a meaning to: a program's `@main`
/// becomes `kernel` when it is a kernel (a kernel graph compiled as the
/// program, the seed's `render_c` default name) and `uop_main` when it is a
/// host (a kernelized program's, or CUDA's launches).
inline constexpr llvm::StringLiteral kCKernelMainName = "kernel";
inline constexpr llvm::StringLiteral kCHostMainName = "uop_main";

/// The C name of the function `name` (see kCKernelMainName).
StringRef getCFunctionName(StringRef name, bool isKernel);

/// How uop-to-emitc types values: scalars as EmitC's (index as `size_t`),
/// a buffer (a memref argument, a malloc'd memref) as a restrict pointer
/// (`float* restrict`, CUDA `float* __restrict__`), a private memref (an
/// alloca, tagged `#gpu.address_space<private>` before the conversion) as a
/// C array (one element: a scalar variable), workgroup memory as a pointer
/// to its `__shared__` array.
class CTypeConverter : public TypeConverter {
public:
  CTypeConverter(MLIRContext *ctx, bool cuda);
  /// The C spelling of a scalar type (`float`, `int32_t`, `bool`,
  /// `_Float16`), "" if it has none.
  static std::string getCTypeName(Type type);
  bool isCuda() const { return cuda; }

private:
  bool cuda;
};

/// uop's patterns for arith ops that upstream's convert-arith-to-emitc
/// lacks or writes differently: constants as literals, ordered float
/// comparisons as C's operators, floor division and modulo as the seed's
/// helpers (ArithToEmitC.cpp says which and why).
void populateUopArithToEmitCPatterns(const CTypeConverter &converter,
                                     RewritePatternSet &patterns);
/// uop's patterns for math ops that convert-math-to-emitc lacks: exp2,
/// log2, sqrt, rsqrt, fma, and f16 math through float.
void populateUopMathToEmitCPatterns(const CTypeConverter &converter,
                                    RewritePatternSet &patterns);
/// uop's patterns for memref ops on restrict pointers and scalar variables
/// (convert-memref-to-emitc takes arrays only), malloc/free, atomics and
/// prefetches.
void populateUopMemRefToEmitCPatterns(const CTypeConverter &converter,
                                      RewritePatternSet &patterns);
/// CUDA C: gpu.func kernels, block and thread ids, barriers, returns and
/// the host's launches.
void populateUopGPUToEmitCPatterns(const CTypeConverter &converter,
                                   RewritePatternSet &patterns);

/// CUDA C: uop-lower-gemm's tensor-core ops (nvgpu.ldmatrix, mma.sync and
/// the cp.async copies, groups and waits) as calls of the prelude's helpers
/// (getCudaFragmentHelpers), each one PTX instruction in inline asm.
void populateUopNVGPUToEmitCPatterns(const CTypeConverter &converter,
                                     RewritePatternSet &patterns);
/// CUDA C: the vectors of the tensor-core path (fragments, the epilogue's
/// pairs) as the prelude's `uop_vec<T, N>`: extract, to_elements,
/// from_elements and store.
void populateUopVectorToEmitCPatterns(const CTypeConverter &converter,
                                      RewritePatternSet &patterns);
/// Before the conversion: the elements of a row that vector.extract takes
/// out of a fragment are those of the fragment (VectorToEmitC.cpp).
void simplifyVectorFragments(ModuleOp module);
/// The definitions of the CUDA prelude's tensor-core helpers (`uop_vec`,
/// `uop_ldmatrix_x4`, `uop_mma_m16n8k16`, `uop_cp_async_cg`, ...) that the
/// converted `module` uses, in order.
std::vector<std::string> getCudaFragmentHelpers(ModuleOp module);
/// The C lvalue `memref[indices]` (or a scalar variable itself) of a
/// converted memref, indexed by the i32 an index was cast from where it was.
FailureOr<Value> getCElement(Location loc, Value memref, ValueRange indices,
                             ValueRange convertedIndices, Type elementType,
                             ConversionPatternRewriter &rewriter);

/// Forms C expressions as upstream's form-expressions does, except that an
/// operand C compilers want parenthesized (a comparison or arithmetic
/// inside a bitwise operator, `&&` inside `||`, a comparison of a
/// comparison) stays its own variable: the emitter parenthesizes by
/// precedence only, and `-Wall` warns about these.
void formCExpressions(Operation *root);

#define GEN_PASS_REGISTRATION
#include "Uop/Conversion/Passes.h.inc"

} // namespace mlir::uop

#endif // UOP_CONVERSION_PASSES_H
