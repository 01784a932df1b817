//===- UopTypes.td - uop types and type constraints --------*- tablegen -*-===//

#ifndef UOP_IR_UOPTYPES_TD
#define UOP_IR_UOPTYPES_TD

include "Uop/IR/UopAttrs.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypes.td"

class Uop_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Uop_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Uop_VoidType : Uop_Type<"Void", "void"> {
  let summary = "effect token (the seed's void dtype)";
  let description = [{
    What `uop.store`, `uop.end`, `uop.sink` and `uop.barrier` return: no data,
    only the fact that the effect happened, so that `uop.end`, `uop.sink` and
    `uop.after` can depend on it.
  }];
}

def Uop_PtrType : Uop_Type<"Ptr", "ptr"> {
  let summary = "pointer to one element of uop memory";
  let description = [{
    What `uop.index` of a memref yields and what `uop.load`/`uop.store` take:
    `!uop.ptr<f32, global>`.
  }];
  let parameters = (ins "Type":$pointee, EnumParameter<Uop_AddressSpace>:$space);
  let assemblyFormat = "`<` $pointee `,` $space `>`";
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

/// The seed's dtypes other than void: bool, i32, f16, f32.
def Uop_DType : AnyTypeOf<[I1, I32, F16, F32], "uop dtype (i1, i32, f16, f32)">;

/// A shaped value: a ranked tensor of a dtype with at least one axis (shape ()
/// is a bare scalar instead).
def Uop_Tensor : Type<And<[RankedTensorOf<[I1, I32, F16, F32]>.predicate,
                           CPred<"::llvm::cast<::mlir::RankedTensorType>($_self).getRank() > 0">,
                           CPred<"::llvm::cast<::mlir::RankedTensorType>($_self).hasStaticShape()">,
                           CPred<"!::llvm::cast<::mlir::RankedTensorType>($_self).getEncoding()">]>,
                      "statically shaped tensor of uop dtype, rank >= 1", "::mlir::RankedTensorType">;

/// A value: a scalar dtype or a shaped tensor of one.
def Uop_Value : AnyTypeOf<[Uop_DType, Uop_Tensor], "uop value (dtype or tensor of dtype)">;

/// Memory: a memref in a uop address space, or a pointer into one.
def Uop_MemRef : Type<And<[MemRefOf<[I1, I32, F16, F32]>.predicate,
                           CPred<"::llvm::isa_and_nonnull<::mlir::uop::AddressSpaceAttr>("
                                 "::llvm::cast<::mlir::MemRefType>($_self).getMemorySpace())">,
                           CPred<"::llvm::cast<::mlir::MemRefType>($_self).hasStaticShape()">,
                           CPred<"::llvm::cast<::mlir::MemRefType>($_self).getLayout().isIdentity()">]>,
                      "static identity-layout memref in a #uop.addrspace", "::mlir::MemRefType">;
def Uop_Memory : AnyTypeOf<[Uop_MemRef, Uop_PtrType], "uop memory (memref or !uop.ptr)">;

/// Anything a uop op can produce: values, memory, effect tokens.
def Uop_Any : AnyTypeOf<[Uop_Value, Uop_Memory, Uop_VoidType], "uop value, memory or effect">;

#endif // UOP_IR_UOPTYPES_TD
