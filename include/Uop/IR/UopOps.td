//===- UopOps.td - uop operations --------------------------*- tablegen -*-===//
//
// The 35 operations of the uopc seed's `Ops`, one for one, plus `uop.yield`,
// the terminator of a `uop.call` body.
//
// Result types are inferred as the seed's `_infer` infers them. The inference
// itself never fails on ill-formed operands (it returns the most plausible
// type); the `verify()` hooks then reject exactly what `_infer` rejects, with
// messages that say what was expected and what was found.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPOPS_TD
#define UOP_IR_UOPOPS_TD

include "Uop/IR/UopDialect.td"
include "Uop/IR/UopAttrs.td"
include "Uop/IR/UopTypes.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferIntRangeInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// The memory a uop program reads and writes (buffers, allocs).
def Uop_MemoryResource : Resource<"::mlir::uop::UopMemoryResource">;

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

def Uop_ConstOp : Uop_Op<"const", [ConstantLike, Pure,
    AllTypesMatch<["value", "result"]>,
    DeclareOpInterfaceMethods<InferIntRangeInterface, ["inferResultRanges"]>]> {
  let summary = "a literal: a scalar or a dense tensor";
  let description = [{
    The seed's CONST: a bool (`i1`), `i32`, `f16` or `f32` scalar, or, as the
    folded form of a `uop.stack` of constants, a dense tensor. `1`, `1.0`,
    `true`, `0.0` and `-0.0` are distinct constants.

    ```mlir
    %0 = uop.const 7 : i32
    %1 = uop.const -0.0 : f32
    %2 = uop.const true
    %3 = uop.const dense<[1, 2, 3]> : tensor<3xi32>
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs Uop_Value:$result);
  let assemblyFormat = "attr-dict $value";
  let builders = [
    OpBuilder<(ins "::mlir::TypedAttr":$value), [{
      build($_builder, $_state, value.getType(), value);
    }]>];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Uop_ParamOp : Uop_Op<"param", [Pure]> {
  let summary = "an input of the enclosing program, by slot";
  let description = [{
    The seed's PARAM outside any call: an open input identified by its slot
    (the frontend builds graphs with them before their program exists). In a
    `uop.call` body the parameters are the region's block arguments instead,
    and in an imported program the function's arguments.

    ```mlir
    %0 = uop.param 0 : tensor<3xf32>
    ```
  }];
  let arguments = (ins I64Attr:$slot);
  let results = (outs Uop_Value:$result);
  let assemblyFormat = "$slot attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Uop_CallOp : Uop_Op<"call", [RecursiveMemoryEffects, IsolatedFromAbove,
    InferTypeOpAdaptor]> {
  let summary = "apply a body to arguments (the seed's CALL)";
  let description = [{
    The body is the op's single-block region; its block arguments are the
    body's parameters, slot `i` being argument `i`, and it ends in `uop.yield`
    of the result. Argument `i` must have the type of parameter `i`. A nested
    `uop.call` is its own scope: the op is `IsolatedFromAbove`, so a body uses
    only its parameters and what it defines (a value from outside is passed
    as an argument), and the verifier checks each body on its own, in time
    linear in the ops however deep calls nest. `name` is informative
    (default `f`).

    ```mlir
    %7 = uop.const 7 : i32
    %0 = uop.call "sq"(%7 : i32) {
    ^bb0(%x: i32):
      %1 = uop.mul %x, %x : i32
      uop.yield %1 : i32
    }
    ```
  }];
  let arguments = (ins DefaultValuedStrAttr<StrAttr, "f">:$name,
                       Variadic<Uop_Value>:$args);
  let results = (outs Uop_Value:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name `(` ($args^ `:` type($args))? `)` $body attr-dict
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The terminator of the body.
    YieldOp getYield();
  }];
}

def Uop_YieldOp : Uop_Op<"yield", [Pure, Terminator, ReturnLike,
    HasParent<"CallOp">]> {
  let summary = "the result of a uop.call body";
  let description = [{
    ```mlir
    uop.yield %1 : i32
    ```
  }];
  let arguments = (ins Uop_Value:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def Uop_StackOp : Uop_Op<"stack", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "a new leading axis over values of one shape and dtype";
  let description = [{
    `stack(a, b, c)` of three `tensor<2xf32>` is a `tensor<3x2xf32>`. The
    sources must agree in shape and dtype. The type is written once when all
    sources share it.

    ```mlir
    %0 = uop.stack %a, %b, %c : i32            // tensor<3xi32>
    %1 = uop.stack %0, %0 : tensor<3xi32>      // tensor<2x3xi32>
    ```
  }];
  let arguments = (ins Variadic<Uop_Value>:$srcs);
  let results = (outs Uop_Tensor:$result);
  let assemblyFormat = "$srcs attr-dict `:` custom<UniformTypes>(ref($srcs), type($srcs))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Uop_IndexOp : Uop_Op<"index", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "index a value or memory, popping axes off the left";
  let description = [{
    On a value, element or sub-tensor extraction: `%t[%i]` of a
    `tensor<2x3xf32>` is a `tensor<3xf32>`, `%t[%i, %j]` an `f32`. On a
    memref, the address of an element: `%buf[%i]` of
    `memref<16xf32, #uop.addrspace<global>>` is a `!uop.ptr<f32, global>`.
    Indices are `i32` scalars; their types are written only when they are not.

    ```mlir
    %0 = uop.index %t[%i, %j] : tensor<2x3xf32>
    %1 = uop.index %buf[%k] : memref<16xf32, #uop.addrspace<global>>
    ```
  }];
  let arguments = (ins Uop_Any:$src, Variadic<Uop_Value>:$indices);
  let results = (outs Uop_Any:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` attr-dict `:` type($src) `` custom<IndexTypes>(ref($indices), type($indices))
  }];
  let hasVerifier = 1;
}

def Uop_CheckIndexOp : Uop_Op<"check_index", [Pure]> {
  let summary = "a data-dependent index checked against the size of its axis";
  let description = [{
    uop-rangeify makes one for each axis of a value-level `uop.index` whose
    index the bounds analysis cannot prove in `[0, size)`: a view (stack,
    reshape, expand, shrink, permute) turns the index into one over its
    source, where an index out of range on one axis reads a neighbour's
    element (or, through an expand or a stack, any element at all). Its
    value is `index`. With run-time checks (uop-linearize `checks=true`, the
    default) an index outside `[0, size)` is a failed check of kind
    `"axis"` at the `uop.index`'s location, with the index and the size, and
    the value is 0; unchecked it is `index` as it is.

    ```mlir
    %j = uop.check_index %i, 3
    ```
  }];
  let arguments = (ins I32:$index, I64Attr:$size);
  let results = (outs I32:$result);
  let assemblyFormat = "$index `,` $size attr-dict";
}

def Uop_CastOp : Uop_Op<"cast", [Pure,
    InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<InferIntRangeInterface, ["inferResultRanges"]>]> {
  let summary = "convert to another dtype (C semantics)";
  let description = [{
    Float to int truncates toward zero, as C does, and saturates where C
    is undefined: NaN is 0, a value past the i32 range (+-inf included) is
    INT32_MAX or INT32_MIN. Folding, the CPU, emulation and the GPU agree.
    The shape is kept.

    ```mlir
    %0 = uop.cast %x : tensor<4xi32> to f32    // tensor<4xf32>
    ```
  }];
  let arguments = (ins Uop_Value:$src, TypeAttrOf<Uop_DType>:$dtype);
  let results = (outs Uop_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `to` $dtype";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

/// Unary float math: recip, exp2, log2, sqrt, sin.
class Uop_UnaryFloatOp<string mnemonic, string what>
    : Uop_Op<mnemonic, [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = what;
  let description = [{
    Elementwise on `f16`/`f32` scalars and tensors; the type is kept.

    ```mlir
    %0 = uop.}] # mnemonic # [{ %x : tensor<4xf32>
    ```
  }];
  let arguments = (ins Uop_Value:$src);
  let results = (outs Uop_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Uop_RecipOp : Uop_UnaryFloatOp<"recip", "reciprocal 1/x">;
def Uop_Exp2Op : Uop_UnaryFloatOp<"exp2", "2 to the power x">;
def Uop_Log2Op : Uop_UnaryFloatOp<"log2", "base-2 logarithm">;
def Uop_SqrtOp : Uop_UnaryFloatOp<"sqrt", "square root">;
def Uop_SinOp : Uop_UnaryFloatOp<"sin", "sine">;

/// Binary elementwise ops: operands of one shape and one dtype (the seed has no
/// implicit broadcasting; the `.uir` importer inserts `uop.expand`).
class Uop_BinaryOp<string mnemonic, string what, list<Trait> traits = []>
    : Uop_Op<mnemonic, traits # [Pure,
        InferTypeOpAdaptor,
        DeclareOpInterfaceMethods<InferIntRangeInterface, ["inferResultRanges"]>]> {
  let summary = what;
  let description = [{
    Both operands have the same shape and dtype (broadcast with `uop.expand`,
    convert with `uop.cast`). The type is written once when both share it.

    ```mlir
    %0 = uop.}] # mnemonic # [{ %a, %b : tensor<4xi32>
    ```
  }];
  let arguments = (ins Uop_Value:$lhs, Uop_Value:$rhs);
  let results = (outs Uop_Value:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` custom<BinaryTypes>(type($lhs), type($rhs))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Uop_AddOp : Uop_BinaryOp<"add", "addition (i32 wraps)", [Commutative]>;
def Uop_MulOp : Uop_BinaryOp<"mul", "multiplication (i32 wraps)", [Commutative]>;
// Not Commutative: exec_alu's max(a, b) is `b if b > a else a`, so
// max(1.0, nan) is 1.0 and max(nan, 1.0) is nan (and max(0.0, -0.0) is 0.0,
// max(-0.0, 0.0) is -0.0). Its folder moves an integer constant to the right.
def Uop_MaxOp : Uop_BinaryOp<"max", "maximum (Python's max(a, b): b only if b > a)">;
def Uop_CmpLtOp : Uop_BinaryOp<"cmplt", "less than, a bool result">;
def Uop_CmpNeOp : Uop_BinaryOp<"cmpne", "not equal, a bool result", [Commutative]>;
def Uop_FloorDivOp : Uop_BinaryOp<"floordiv", "integer division rounding toward -inf">;
def Uop_FloorModOp : Uop_BinaryOp<"floormod", "integer modulo with the divisor's sign">;

def Uop_WhereOp : Uop_Op<"where", [Pure,
    InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<InferIntRangeInterface, ["inferResultRanges"]>]> {
  let summary = "select: cond ? a : b, elementwise";
  let description = [{
    The condition is bool; both branches share a dtype; all three share a
    shape. The branch type alone is written when the condition is the bool of
    that shape.

    ```mlir
    %0 = uop.where %c, %a, %b : tensor<4xf32>    // %c : tensor<4xi1>
    ```
  }];
  let arguments = (ins Uop_Value:$cond, Uop_Value:$a, Uop_Value:$b);
  let results = (outs Uop_Value:$result);
  let assemblyFormat = [{
    $cond `,` $a `,` $b attr-dict `:` custom<WhereTypes>(type($cond), type($a), type($b))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Uop_BufferOp : Uop_Op<"buffer", [Pure]> {
  let summary = "global memory, a kernel argument, by slot";
  let description = [{
    The seed's BUFFER: flat (1-D). Used as memory (L2) it is a
    `memref<N x T, #uop.addrspace<global>>`; at L1 it is a `tensor<N x T>`,
    a value whose storage is the slot.

    ```mlir
    %0 = uop.buffer 0 : memref<16xf32, #uop.addrspace<global>>
    %1 = uop.buffer 1 : tensor<65536xf32>
    ```
  }];
  let arguments = (ins I64Attr:$slot);
  let results = (outs AnyTypeOf<[Uop_Tensor, Uop_MemRef]>:$result);
  let assemblyFormat = "$slot attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Uop_AllocOp : Uop_Op<"alloc", [
    MemoryEffects<[MemAlloc<Uop_MemoryResource>]>]> {
  let summary = "call-scope storage: local registers or GPU shared memory";
  let description = [{
    The seed's ALLOC, `float acc[4];`: flat, in the `local` or `shared`
    address space. Placed by `uop-linearize` in the deepest scope shared by
    its users.

    ```mlir
    %0 = uop.alloc 0 : memref<4xf32, #uop.addrspace<local>>
    ```
  }];
  let arguments = (ins I64Attr:$slot);
  let results = (outs Uop_MemRef:$result);
  let assemblyFormat = "$slot attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Uop_LoadOp : Uop_Op<"load", [
    InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "read memory";
  let description = [{
    Reads the element a `!uop.ptr` points to (or a whole memref, as a tensor).

    ```mlir
    %v = uop.load %p : !uop.ptr<f32, global>
    ```
  }];
  let arguments = (ins Uop_Any:$ptr);
  let results = (outs Uop_Any:$result);
  let assemblyFormat = "$ptr attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def Uop_StoreOp : Uop_Op<"store", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "write memory; returns the effect token";
  let description = [{
    The value's dtype must be the memory's. The value's type is written only
    when it is not the pointee type.

    ```mlir
    %s = uop.store %p, %v : !uop.ptr<f32, global>
    ```
  }];
  let arguments = (ins Uop_Any:$ptr, Uop_Any:$value);
  let results = (outs Uop_VoidType:$result);
  let assemblyFormat = [{
    $ptr `,` $value attr-dict `:` custom<StoreTypes>(type($ptr), type($value))
  }];
  let hasVerifier = 1;
}

def Uop_AfterOp : Uop_Op<"after", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "a value, but only once its dependencies have happened";
  let description = [{
    The seed's AFTER: `%mem` ordered after stores or loops (`uop.end`).

    ```mlir
    %1 = uop.after %acc, %e : memref<1xf32, #uop.addrspace<local>>, !uop.void
    ```
  }];
  let arguments = (ins Uop_Any:$src, Variadic<Uop_Any>:$deps);
  let results = (outs Uop_Any:$result);
  let assemblyFormat = "$src (`,` $deps^)? attr-dict `:` type($src) (`,` type($deps)^)?";
}

def Uop_SinkOp : Uop_Op<"sink", [Pure]> {
  let summary = "group effects: the root of a kernel program";
  let description = [{
    ```mlir
    %0 = uop.sink(%s0, %s1 : !uop.void, !uop.void)
    ```
  }];
  let arguments = (ins Variadic<Uop_Any>:$srcs);
  let results = (outs Uop_VoidType:$result);
  let assemblyFormat = "`(` ($srcs^ `:` type($srcs))? `)` attr-dict";
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

def Uop_RangeOp : Uop_Op<"range", [Pure,
    DeclareOpInterfaceMethods<InferIntRangeInterface, ["inferResultRanges"]>]> {
  let summary = "a loop counter in [0, end)";
  let description = [{
    The seed's RANGE. Its value is the counter; its scope is everything that
    depends on it up to the `uop.end` that closes it. `idx` orders nesting
    (loops nest in increasing idx); the kind says how the loop runs. The end
    is an `i32` (its type is written only when it is not).

    ```mlir
    %i = uop.range %c16 idx 0 <loop>
    %k = uop.range %c256 idx 2 <reduce>
    ```
  }];
  let arguments = (ins Uop_Value:$end, I64Attr:$idx, Uop_AxisKindAttr:$kind);
  let results = (outs I32:$result);
  let assemblyFormat = "$end `idx` $idx $kind attr-dict `` custom<OptionalI32>(type($end))";
  let hasVerifier = 1;
}

def Uop_EndOp : Uop_Op<"end", [Pure]> {
  let summary = "close ranges: the loops end after src";
  let description = [{
    ```mlir
    %e = uop.end %store, %i, %j : !uop.void
    ```
  }];
  let arguments = (ins Uop_Any:$src, Variadic<I32>:$ranges);
  let results = (outs Uop_VoidType:$result);
  let assemblyFormat = "$src (`,` $ranges^)? attr-dict `:` type($src)";
}

//===----------------------------------------------------------------------===//
// Movement and reduction
//===----------------------------------------------------------------------===//

/// Movement ops work on values and (as in the seed) on memory, keeping its
/// address space.
def Uop_Shaped : AnyTypeOf<[Uop_Value, Uop_MemRef], "uop value or memref">;

def Uop_ReshapeOp : Uop_Op<"reshape", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "same elements in row-major order, new shape";
  let description = [{
    ```mlir
    %0 = uop.reshape %buf, [256, 256, 1] : tensor<65536xf32>
    ```
  }];
  let arguments = (ins Uop_Shaped:$src, DenseI64ArrayAttr:$shape);
  let results = (outs Uop_Shaped:$result);
  let assemblyFormat = "$src `,` $shape attr-dict `:` type($src)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Uop_ExpandOp : Uop_Op<"expand", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "broadcast size-1 axes";
  let description = [{
    Same rank; each axis keeps its size or grows from 1.

    ```mlir
    %0 = uop.expand %x, [4, 3] : tensor<1x3xf32>
    ```
  }];
  let arguments = (ins Uop_Shaped:$src, DenseI64ArrayAttr:$shape);
  let results = (outs Uop_Shaped:$result);
  let assemblyFormat = "$src `,` $shape attr-dict `:` type($src)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Uop_PermuteOp : Uop_Op<"permute", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "reorder axes: result axis i is source axis perm[i]";
  let description = [{
    ```mlir
    %0 = uop.permute %x, [1, 0] : tensor<2x3xf32>   // tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Uop_Shaped:$src, DenseI64ArrayAttr:$perm);
  let results = (outs Uop_Shaped:$result);
  let assemblyFormat = "$src `,` $perm attr-dict `:` type($src)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Uop_ShrinkOp : Uop_Op<"shrink", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "take the window [begin, end) of every axis";
  let description = [{
    `bounds` holds one `begin:end` pair per axis, `0 <= begin <= end <= size`.

    ```mlir
    %0 = uop.shrink %x [0:2, 1:3] : tensor<4x4xf32>   // tensor<2x2xf32>
    ```
  }];
  let arguments = (ins Uop_Shaped:$src, DenseI64ArrayAttr:$bounds);
  let results = (outs Uop_Shaped:$result);
  let assemblyFormat = "$src custom<ShrinkBounds>($bounds) attr-dict `:` type($src)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The (begin, end) pair of axis `i`.
    std::pair<int64_t, int64_t> getBound(unsigned i) {
      return {getBounds()[2 * i], getBounds()[2 * i + 1]};
    }
  }];
}

def Uop_ReduceOp : Uop_Op<"reduce", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "reduce the last `pop` axes with add or max";
  let description = [{
    ```mlir
    %0 = uop.reduce %x <add> pop 1 : tensor<256x256x256xf32>  // tensor<256x256xf32>
    ```
  }];
  let arguments = (ins Uop_Shaped:$src, Uop_ReduceKindAttr:$kind, I64Attr:$pop);
  let results = (outs Uop_Value:$result);
  let assemblyFormat = "$src $kind `pop` $pop attr-dict `:` type($src)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Kernels and GPU
//===----------------------------------------------------------------------===//

def Uop_StageOp : Uop_Op<"stage", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "materialize a value into a temporary buffer";
  let description = [{
    A kernel boundary for `uop-kernelize`: the source is computed into a
    temporary that later reads index into. With `detach` (the frontend's
    `Tensor.detach()`) it is only a marker for autodiff, which stops there;
    `uop-kernelize` removes it and computes the source inline.

    ```mlir
    %0 = uop.stage %x : tensor<16xf32>
    %1 = uop.stage %x detach : tensor<16xf32>
    ```
  }];
  let arguments = (ins Uop_Value:$src, UnitAttr:$detach);
  let results = (outs Uop_Value:$result);
  let assemblyFormat = "$src (`detach` $detach^)? attr-dict `:` type($src)";
}

def Uop_LaunchOp : Uop_Op<"launch", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run one kernel of a kernelized program (host level)";
  let description = [{
    Made by `uop-kernelize`: the host function of a kernelized program is a
    list of launches in dependency order. A launch runs the kernel function
    `kernel`, whose `uop.buffer` slot `i` is the launch's operand `i` (an
    input buffer, or the flat value of an earlier launch, a temporary); the
    kernel's values are the launch's results (a multi-output kernel, made by
    `uop-kernelize{multi-output}`, has several, all of one shape).
    `uop-lower-host` turns launches into calls of the linearized kernels.

    ```mlir
    %0 = uop.buffer 0 : tensor<4096xf32>
    %1 = uop.launch @r_64_1(%0) : (tensor<4096xf32>) -> tensor<64x1xf32>
    %2:2 = uop.launch @e_8(%0) : (tensor<4096xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel,
                       Variadic<AnyTypeOf<[Uop_Value, Uop_MemRef]>>:$args);
  let results = (outs Variadic<AnyTypeOf<[Uop_Value, Uop_MemRef]>>:$results);
  let assemblyFormat = [{
    $kernel `(` $args `)` attr-dict `:` functional-type($args, $results)
  }];
  let hasVerifier = 1;
}

def Uop_BarrierOp : Uop_Op<"barrier", [
    MemoryEffects<[MemRead<Uop_MemoryResource>, MemWrite<Uop_MemoryResource>]>]> {
  let summary = "GPU workgroup barrier (__syncthreads) after its dependencies";
  let description = [{
    ```mlir
    %b = uop.barrier(%s : !uop.void)
    ```
  }];
  let arguments = (ins Variadic<Uop_Any>:$deps);
  let results = (outs Uop_VoidType:$result);
  let assemblyFormat = "`(` ($deps^ `:` type($deps))? `)` attr-dict";
}

def Uop_WmmaOp : Uop_Op<"wmma", [Pure, AllTypesMatch<["c", "result"]>]> {
  let summary = "tensor-core multiply-accumulate: a * b + c";
  let description = [{
    Reserved for tensor cores, as in the seed: the result has the type of the
    accumulator `c`.

    ```mlir
    %d = uop.wmma %a, %b, %c : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
    ```
  }];
  let arguments = (ins Uop_Value:$a, Uop_Value:$b, Uop_Value:$c);
  let results = (outs Uop_Value:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c)";
}

#endif // UOP_IR_UOPOPS_TD
