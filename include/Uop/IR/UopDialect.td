//===- UopDialect.td - the uop dialect ---------------------*- tablegen -*-===//
//
// The uop dialect: the UOp graph of the uopc compiler as MLIR operations.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPDIALECT_TD
#define UOP_IR_UOPDIALECT_TD

include "mlir/IR/OpBase.td"

def Uop_Dialect : Dialect {
  let name = "uop";
  let cppNamespace = "::mlir::uop";
  let summary = "The UOp graph: values, memory, loops, movement, kernels, GPU";
  let description = [{
    The `uop` dialect is the IR of the uop compiler. It is the uopc seed's UOp
    DAG written as SSA operations in one block, listed in topological order:

    * **L1** (tensor graph): values (`uop.const`, ALU ops, `uop.stack`,
      `uop.index`), movement (`uop.reshape`, `uop.expand`, `uop.permute`,
      `uop.shrink`), `uop.reduce`, `uop.stage`, and `uop.call`. Shaped values
      are builtin `tensor`s; a value of shape `()` is a bare scalar.
    * **L2** (kernel graph): memory (`uop.buffer`, `uop.alloc` as 1-D `memref`s,
      `uop.index` to a `!uop.ptr`, `uop.load`, `uop.store`, `uop.after`,
      `uop.sink`) and loops (`uop.range`, `uop.end`), whose scopes are implied
      by data dependencies exactly as in the seed.

    dtypes are builtin types: `bool` is `i1`, `i32` is `i32` (signed, wrapping
    two's complement), `f32`, `f16`; `void` is `!uop.void`, the effect token
    returned by `uop.store`, `uop.end`, `uop.sink` and `uop.barrier`.

    ```mlir
    func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
      %c = uop.const dense<2.0> : tensor<4xf32>
      %0 = uop.mul %a, %c : tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    ```
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // `uop.target` on a module must be a #uop.target.
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

/// Every shape an op's operands and results have counts its elements in an
/// int64 (getNumElements would overflow otherwise).
def Uop_ShapesFit : NativeOpTrait<"ShapesFit"> {
  let cppNamespace = "::mlir::uop";
}

/// Base class of every uop operation.
class Uop_Op<string mnemonic, list<Trait> traits = []>
    : Op<Uop_Dialect, mnemonic, !listconcat(traits, [Uop_ShapesFit])>;

#endif // UOP_IR_UOPDIALECT_TD
