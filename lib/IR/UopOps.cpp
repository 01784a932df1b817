//===- UopOps.cpp - uop operation definitions ------------------*- C++ -*-===//
//
// Type inference, verifiers and custom assembly pieces of the uop ops. The
// rules are the seed's `_infer`: inference never fails on ill-formed operands
// (it returns the most plausible type) so that `verify()` can reject the op
// with the seed's message, prefixed by the op name.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::uop;

//===----------------------------------------------------------------------===//
// Custom assembly directives
//===----------------------------------------------------------------------===//

/// `: T` for N operands of one type T, or `: T0, T1, ...` when they differ.
static ParseResult parseUniformTypes(OpAsmParser &parser,
                                     ArrayRef<OpAsmParser::UnresolvedOperand> operands,
                                     SmallVectorImpl<Type> &types) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseTypeList(types))
    return failure();
  if (types.size() == 1 && operands.size() > 1)
    types.append(operands.size() - 1, types.front());
  if (types.size() != operands.size())
    return parser.emitError(loc, "expected 1 or ")
           << operands.size() << " types, got " << types.size();
  return success();
}

static void printUniformTypes(OpAsmPrinter &printer, Operation *, OperandRange operands,
                              TypeRange types) {
  if (!types.empty() && llvm::all_equal(types)) {
    printer << types.front();
    return;
  }
  llvm::interleaveComma(types, printer);
}

/// Index types are omitted when they are all i32: `, T0, T1` otherwise.
static ParseResult parseIndexTypes(OpAsmParser &parser,
                                   ArrayRef<OpAsmParser::UnresolvedOperand> operands,
                                   SmallVectorImpl<Type> &types) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseTypeList(types))
      return failure();
    if (types.size() != operands.size())
      return parser.emitError(loc, "expected ")
             << operands.size() << " index types, got " << types.size();
    return success();
  }
  types.assign(operands.size(), parser.getBuilder().getI32Type());
  return success();
}

static void printIndexTypes(OpAsmPrinter &printer, Operation *, OperandRange, TypeRange types) {
  if (llvm::all_of(types, [](Type t) { return t.isInteger(32); }))
    return;
  printer << ", ";
  llvm::interleaveComma(types, printer);
}

/// `: T` for two operands of type T, `: T0, T1` when they differ.
static ParseResult parseBinaryTypes(OpAsmParser &parser, Type &lhs, Type &rhs) {
  if (parser.parseType(lhs))
    return failure();
  rhs = lhs;
  if (succeeded(parser.parseOptionalComma()))
    return parser.parseType(rhs);
  return success();
}

static void printBinaryTypes(OpAsmPrinter &printer, Operation *, Type lhs, Type rhs) {
  printer << lhs;
  if (rhs != lhs)
    printer << ", " << rhs;
}

/// The bool type of the shape of `type`.
static Type boolLike(Type type) {
  return getValueType(getShape(type), IntegerType::get(type.getContext(), 1));
}

/// `: T` when the condition is the bool of T's shape and both branches are T;
/// `: C, A, B` otherwise.
static ParseResult parseWhereTypes(OpAsmParser &parser, Type &cond, Type &a, Type &b) {
  SmallVector<Type, 3> types;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseTypeList(types))
    return failure();
  if (types.size() == 1) {
    a = b = types[0];
    cond = boolLike(types[0]);
    return success();
  }
  if (types.size() != 3)
    return parser.emitError(loc, "expected 1 or 3 types, got ") << types.size();
  cond = types[0], a = types[1], b = types[2];
  return success();
}

static void printWhereTypes(OpAsmPrinter &printer, Operation *, Type cond, Type a, Type b) {
  if (a == b && cond == boolLike(a)) {
    printer << a;
    return;
  }
  printer << cond << ", " << a << ", " << b;
}

/// The value type a store into memory of type `mem` takes by default.
static Type storedType(Type mem) {
  if (auto ptr = dyn_cast<PtrType>(mem))
    return ptr.getPointee();
  if (auto memref = dyn_cast<MemRefType>(mem))
    return getValueType(memref.getShape(), memref.getElementType());
  return mem;
}

/// `: P` when the value is the pointee of P, `: P, V` otherwise.
static ParseResult parseStoreTypes(OpAsmParser &parser, Type &ptr, Type &value) {
  if (parser.parseType(ptr))
    return failure();
  if (succeeded(parser.parseOptionalComma()))
    return parser.parseType(value);
  value = storedType(ptr);
  return success();
}

static void printStoreTypes(OpAsmPrinter &printer, Operation *, Type ptr, Type value) {
  printer << ptr;
  if (value != storedType(ptr))
    printer << ", " << value;
}

/// An operand type that is i32 unless written as `: T`.
static ParseResult parseOptionalI32(OpAsmParser &parser, Type &type) {
  if (succeeded(parser.parseOptionalColon()))
    return parser.parseType(type);
  type = parser.getBuilder().getI32Type();
  return success();
}

static void printOptionalI32(OpAsmPrinter &printer, Operation *, Type type) {
  if (!type.isInteger(32))
    printer << " : " << type;
}

/// `[b0:e0, b1:e1, ...]`, stored flat as [b0, e0, b1, e1, ...].
static ParseResult parseShrinkBounds(OpAsmParser &parser, DenseI64ArrayAttr &bounds) {
  SmallVector<int64_t> flat;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t b, e;
        if (parser.parseInteger(b) || parser.parseColon() || parser.parseInteger(e))
          return failure();
        flat.push_back(b);
        flat.push_back(e);
        return success();
      }))
    return failure();
  bounds = parser.getBuilder().getDenseI64ArrayAttr(flat);
  return success();
}

static void printShrinkBounds(OpAsmPrinter &printer, Operation *, DenseI64ArrayAttr bounds) {
  ArrayRef<int64_t> flat = bounds.asArrayRef();
  printer << "[";
  for (size_t i = 0; i + 1 < flat.size(); i += 2)
    printer << (i ? ", " : "") << flat[i] << ":" << flat[i + 1];
  printer << "]";
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// A type of the same kind as `like` (tensor/scalar value or memref in the
/// same space) with a new shape. Negative sizes cannot make a type: null.
static Type reshapedLike(Type like, ArrayRef<int64_t> shape) {
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return {};
  if (auto memref = dyn_cast<MemRefType>(like))
    return MemRefType::get(shape, memref.getElementType(), MemRefLayoutAttrInterface(),
                           memref.getMemorySpace());
  return getValueType(shape, getDType(like));
}

/// A type as it prints, unquoted, for diagnostics that read like the seed's.
static std::string str(Type type) {
  std::string out;
  llvm::raw_string_ostream os(out);
  type.print(os);
  return out;
}

/// The element count of a shape; -1 if it overflows int64 (or a size is
/// negative), which no real shape matches.
static int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(n, d, &n))
      return -1;
  return n;
}

/// Whether the bytes of `shaped`'s elements count in an int64 (with room
/// for an allocation's round-up) when its zero dimensions are left out, as
/// numpy requires of an array: the runtime allocates any shape the verifier
/// takes, and an empty (0, 2^62) must not pass only because it is empty.
static bool bytesFit(ShapedType shaped) {
  int64_t n = 1;
  for (int64_t d : shaped.getShape())
    if (d > 0 && __builtin_mul_overflow(n, d, &n))
      return false;
  Type elem = shaped.getElementType();
  int64_t bytes = elem.isIntOrFloat() ? std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8) : 8;
  return !__builtin_mul_overflow(n, bytes, &n) && n <= INT64_MAX - 64;
}

LogicalResult mlir::uop::verifyShapesFit(Operation *op) {
  auto check = [&](Type type) -> LogicalResult {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped || !shaped.hasRank() ||
        llvm::any_of(shaped.getShape(), [](int64_t d) { return d < 0; }))
      return success();
    if (product(shaped.getShape()) < 0)
      return op->emitOpError("shape ") << shapeToString(shaped.getShape()) << " of " << str(type)
                                       << " has more elements than an int64 counts";
    if (!bytesFit(shaped))
      return op->emitOpError("shape ")
             << shapeToString(shaped.getShape()) << " of " << str(type)
             << " is too large: its non-zero dimensions' product times its element size "
                "overflows an int64";
    return success();
  };
  // A reshape to a shape whose elements overflow says "cannot reshape" (its
  // own verifier: no source count matches one that overflows).
  for (Type type : op->getResultTypes()) {
    auto shaped = dyn_cast<ShapedType>(type);
    if (isa<ReshapeOp>(op) && shaped && shaped.hasRank() && product(shaped.getShape()) < 0)
      continue;
    if (failed(check(type)))
      return failure();
  }
  for (Type type : op->getOperandTypes())
    if (failed(check(type)))
      return failure();
  return success();
}

/// The seed's index arithmetic is i32: a buffer or alloc of `type` must have
/// at most INT32_MAX elements.
static LogicalResult verifyI32Elements(Operation *op, Type type) {
  int64_t n = product(uop::getShape(type));
  if (n > INT32_MAX)
    return op->emitOpError() << n << " elements do not fit the i32 index arithmetic of the seed";
  return success();
}

/// Reports a negative size in a shape attribute while inferring a type.
static LogicalResult negativeShape(std::optional<Location> loc, StringRef op,
                                   ArrayRef<int64_t> shape) {
  return emitOptionalError(loc, "'uop.", op, "' op shape ", shapeToString(shape),
                           " has a negative size");
}

//===----------------------------------------------------------------------===//
// ConstOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult ConstOp::verify() {
  Attribute value = getValue();
  if (isa<IntegerAttr, FloatAttr>(value)) {
    if (isa<ShapedType>(getType()))
      return emitOpError("scalar literal with shaped type ") << str(getType());
    return success();
  }
  if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(value)) {
    if (!isa<RankedTensorType>(dense.getType()))
      return emitOpError("dense literal must be a ranked tensor, got ") << str(dense.getType());
    return success();
  }
  return emitOpError("value must be an integer, float or dense literal, got ") << value;
}

//===----------------------------------------------------------------------===//
// ParamOp
//===----------------------------------------------------------------------===//

LogicalResult ParamOp::verify() {
  if (getSlot() < 0 || getSlotAttr().getInt() < 0)
    return emitOpError("slot must be non-negative, got ") << getSlotAttr().getInt();
  if (isa_and_nonnull<CallOp>((*this)->getParentOp()))
    return emitOpError("inside a uop.call body: the body's parameters are its "
                       "block arguments");
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

YieldOp CallOp::getYield() { return cast<YieldOp>(getBody().front().getTerminator()); }

LogicalResult CallOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  Region &body = adaptor.getBody();
  if (body.empty() || body.front().empty() || !isa<YieldOp>(body.front().back()))
    return emitOptionalError(loc, "'uop.call' op body must end in uop.yield");
  types.push_back(cast<YieldOp>(body.front().back()).getValue().getType());
  return success();
}

LogicalResult CallOp::verifyRegions() {
  Block &block = getBody().front();
  unsigned nargs = getArgs().size(), nparams = block.getNumArguments();
  if (nargs != nparams) {
    std::string has;
    llvm::raw_string_ostream os(has);
    os << "[";
    for (unsigned i = 0; i < nparams; ++i)
      os << (i ? ", " : "") << i;
    os << "]";
    return emitOpError("needs params 0..") << (int64_t)nargs - 1 << ", body has " << has;
  }
  for (auto [i, arg, param] : llvm::enumerate(getArgs(), block.getArguments()))
    if (arg.getType() != param.getType())
      return emitOpError("arg ") << i << ": " << str(arg.getType()) << " != param "
                                 << str(param.getType());
  return success();
}

//===----------------------------------------------------------------------===//
// StackOp
//===----------------------------------------------------------------------===//

LogicalResult StackOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  if (adaptor.getSrcs().empty())
    return emitOptionalError(loc, "'uop.stack' op of nothing: needs at least one source");
  Type first = adaptor.getSrcs().front().getType();
  SmallVector<int64_t> shape{(int64_t)adaptor.getSrcs().size()};
  llvm::append_range(shape, getShape(first));
  types.push_back(RankedTensorType::get(shape, getDType(first)));
  return success();
}

LogicalResult StackOp::verify() {
  if (getSrcs().empty())
    return emitOpError("of nothing: needs at least one source");
  Type first = getSrcs().front().getType();
  for (Value src : getSrcs())
    if (src.getType() != first)
      return emitOpError("sources must agree in shape and dtype: ")
             << str(first) << " vs " << str(src.getType());
  return success();
}

//===----------------------------------------------------------------------===//
// IndexOp
//===----------------------------------------------------------------------===//

LogicalResult IndexOp::inferReturnTypes(MLIRContext *, std::optional<Location>, Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  Type src = adaptor.getSrc().getType();
  ArrayRef<int64_t> shape = getShape(src);
  size_t n = std::min(adaptor.getIndices().size(), shape.size());
  ArrayRef<int64_t> rest = shape.drop_front(n);
  if (auto memref = dyn_cast<MemRefType>(src)) {
    // A memref outside the uop address spaces is rejected by the operand
    // constraint; infer something harmless until then.
    auto space = dyn_cast_or_null<AddressSpaceAttr>(memref.getMemorySpace());
    Type rested = rest.empty() ? Type() : reshapedLike(src, rest);
    if (!space || (!rest.empty() && !rested))
      types.push_back(src);
    else if (rest.empty())
      types.push_back(PtrType::get(src.getContext(), memref.getElementType(), space.getValue()));
    else
      types.push_back(rested);
    return success();
  }
  if (isa<PtrType, VoidType>(src)) {
    types.push_back(src);
    return success();
  }
  types.push_back(getValueType(rest, getDType(src)));
  return success();
}

LogicalResult IndexOp::verify() {
  Type src = getSrc().getType();
  ArrayRef<int64_t> shape = getShape(src);
  if (getIndices().size() > shape.size())
    return emitOpError() << getIndices().size() << " indices into shape " << shapeToString(shape)
                         << " of " << str(src);
  for (Value idx : getIndices())
    if (!idx.getType().isInteger(32))
      return emitOpError("indices are i32 scalars, got ") << str(idx.getType());
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

LogicalResult CastOp::inferReturnTypes(MLIRContext *, std::optional<Location>, Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  types.push_back(getValueType(getShape(adaptor.getSrc().getType()), adaptor.getDtype()));
  return success();
}

//===----------------------------------------------------------------------===//
// Unary float ops
//===----------------------------------------------------------------------===//

static LogicalResult verifyUnaryFloat(Operation *op) {
  Type dtype = getDType(op->getOperand(0).getType());
  if (!isFloatDType(dtype))
    return op->emitOpError("needs a float, got ") << str(dtype);
  return success();
}

LogicalResult RecipOp::verify() { return verifyUnaryFloat(*this); }
LogicalResult Exp2Op::verify() { return verifyUnaryFloat(*this); }
LogicalResult Log2Op::verify() { return verifyUnaryFloat(*this); }
LogicalResult SqrtOp::verify() { return verifyUnaryFloat(*this); }
LogicalResult SinOp::verify() { return verifyUnaryFloat(*this); }

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

/// The seed checks shape first, then dtype.
static LogicalResult verifyBinary(Operation *op, bool integerOnly) {
  Type lhs = op->getOperand(0).getType(), rhs = op->getOperand(1).getType();
  if (getShape(lhs) != getShape(rhs))
    return op->emitOpError("shape mismatch: ")
           << str(lhs) << " vs " << str(rhs) << " (broadcast with uop.expand)";
  if (getDType(lhs) != getDType(rhs))
    return op->emitOpError("dtype mismatch: ")
           << str(getDType(lhs)) << " vs " << str(getDType(rhs)) << " (use uop.cast)";
  if (integerOnly && !getDType(lhs).isInteger(32))
    return op->emitOpError("is integer only, got ") << str(getDType(lhs));
  return success();
}

#define UOP_BINARY(OP, RESULT, INTONLY)                                                            \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location>, Adaptor adaptor,      \
                                     SmallVectorImpl<Type> &types) {                               \
    Type lhs = adaptor.getLhs().getType();                                                         \
    types.push_back(RESULT);                                                                       \
    return success();                                                                              \
  }                                                                                                \
  LogicalResult OP::verify() { return verifyBinary(*this, INTONLY); }

UOP_BINARY(AddOp, lhs, false)
UOP_BINARY(MulOp, lhs, false)
UOP_BINARY(MaxOp, lhs, false)
UOP_BINARY(CmpLtOp, boolLike(lhs), false)
UOP_BINARY(CmpNeOp, boolLike(lhs), false)
UOP_BINARY(FloorDivOp, lhs, true)
UOP_BINARY(FloorModOp, lhs, true)
#undef UOP_BINARY

//===----------------------------------------------------------------------===//
// WhereOp
//===----------------------------------------------------------------------===//

LogicalResult WhereOp::inferReturnTypes(MLIRContext *, std::optional<Location>, Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  types.push_back(adaptor.getA().getType());
  return success();
}

LogicalResult WhereOp::verify() {
  Type c = getCond().getType(), a = getA().getType(), b = getB().getType();
  if (!getDType(c).isInteger(1))
    return emitOpError("condition must be bool, got ") << str(getDType(c));
  if (getDType(a) != getDType(b))
    return emitOpError("branches disagree: ") << str(getDType(a)) << " vs " << str(getDType(b));
  if (getShape(c) != getShape(a) || getShape(a) != getShape(b))
    return emitOpError("shape mismatch: ")
           << shapeToString(getShape(c)) << " " << shapeToString(getShape(a)) << " "
           << shapeToString(getShape(b));
  return success();
}

//===----------------------------------------------------------------------===//
// BufferOp, AllocOp
//===----------------------------------------------------------------------===//

LogicalResult BufferOp::verify() {
  if (getSlotAttr().getInt() < 0)
    return emitOpError("slot must be non-negative, got ") << getSlotAttr().getInt();
  if (getShape(getType()).size() != 1)
    return emitOpError("must be flat (1-D), got ") << str(getType());
  if (auto space = getAddressSpace(getType()); space && *space != AddressSpace::Global)
    return emitOpError("is global memory, got address space ") << stringifyAddressSpace(*space);
  return verifyI32Elements(*this, getType());
}

LogicalResult AllocOp::verify() {
  if (getSlotAttr().getInt() < 0)
    return emitOpError("slot must be non-negative, got ") << getSlotAttr().getInt();
  if (getShape(getType()).size() != 1)
    return emitOpError("must be flat (1-D), got ") << str(getType());
  if (getAddressSpace(getType()) == AddressSpace::Global)
    return emitOpError("is local or shared memory, got address space global");
  return verifyI32Elements(*this, getType());
}

//===----------------------------------------------------------------------===//
// LoadOp, StoreOp
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::inferReturnTypes(MLIRContext *, std::optional<Location>, Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  Type ptr = adaptor.getPtr().getType();
  types.push_back(isMemory(ptr) ? storedType(ptr) : ptr);
  return success();
}

LogicalResult LoadOp::verify() {
  if (!isMemory(getPtr().getType()))
    return emitOpError("needs memory, got ") << str(getPtr().getType());
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(), UopMemoryResource::get());
}

LogicalResult StoreOp::verify() {
  Type mem = getPtr().getType();
  if (!isMemory(mem))
    return emitOpError("needs memory, got ") << str(mem);
  if (getDType(getValue().getType()) != getDType(mem))
    return emitOpError("stores ") << str(getDType(getValue().getType())) << " into "
                                  << str(getDType(mem)) << " memory";
  return success();
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getPtrMutable(), UopMemoryResource::get());
}

//===----------------------------------------------------------------------===//
// RangeOp
//===----------------------------------------------------------------------===//

LogicalResult RangeOp::verify() {
  if (!getEnd().getType().isInteger(32))
    return emitOpError("end must be i32, got ") << str(getEnd().getType());
  if (getIdxAttr().getInt() < 0)
    return emitOpError("idx must be non-negative, got ") << getIdxAttr().getInt();
  return success();
}

//===----------------------------------------------------------------------===//
// Movement ops
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &types) {
  Type t = reshapedLike(adaptor.getSrc().getType(), adaptor.getShape());
  if (!t)
    return negativeShape(loc, "reshape", adaptor.getShape());
  types.push_back(t);
  return success();
}

LogicalResult ReshapeOp::verify() {
  ArrayRef<int64_t> from = uop::getShape(getSrc().getType());
  if (product(from) != product(getShape()))
    return emitOpError("cannot reshape ")
           << shapeToString(from) << " to " << shapeToString(getShape()) << ": element counts "
           << product(from) << " vs " << product(getShape());
  return success();
}

LogicalResult ExpandOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &types) {
  Type t = reshapedLike(adaptor.getSrc().getType(), adaptor.getShape());
  if (!t)
    return negativeShape(loc, "expand", adaptor.getShape());
  types.push_back(t);
  return success();
}

LogicalResult ExpandOp::verify() {
  ArrayRef<int64_t> from = uop::getShape(getSrc().getType()), to = getShape();
  bool ok = from.size() == to.size();
  for (size_t i = 0; ok && i < from.size(); ++i)
    ok = from[i] == to[i] || from[i] == 1;
  if (!ok)
    return emitOpError("cannot expand ") << shapeToString(from) << " to " << shapeToString(to)
                                         << ": same rank, and only size-1 axes grow";
  return success();
}

/// Whether `perm` is a permutation of [0, rank).
static bool isPermutation(ArrayRef<int64_t> perm, size_t rank) {
  if (perm.size() != rank)
    return false;
  llvm::SmallBitVector seen(rank);
  for (int64_t p : perm) {
    if (p < 0 || p >= (int64_t)rank || seen.test(p))
      return false;
    seen.set(p);
  }
  return true;
}

LogicalResult PermuteOp::inferReturnTypes(MLIRContext *, std::optional<Location>, Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  Type src = adaptor.getSrc().getType();
  ArrayRef<int64_t> shape = getShape(src);
  ArrayRef<int64_t> perm = adaptor.getPerm();
  if (!isPermutation(perm, shape.size())) {
    types.push_back(src); // rejected by the verifier
    return success();
  }
  SmallVector<int64_t> out;
  for (int64_t p : perm)
    out.push_back(shape[p]);
  types.push_back(reshapedLike(src, out));
  return success();
}

LogicalResult PermuteOp::verify() {
  ArrayRef<int64_t> shape = getShape(getSrc().getType());
  if (!isPermutation(getPerm(), shape.size()))
    return emitOpError() << shapeToString(getPerm()) << " is not a permutation of the "
                         << shape.size() << " axes of " << shapeToString(shape);
  return success();
}

/// Whether every (begin, end) pair is in range of the shape.
static bool shrinkInRange(ArrayRef<int64_t> bounds, ArrayRef<int64_t> shape) {
  if (bounds.size() != 2 * shape.size())
    return false;
  for (size_t i = 0; i < shape.size(); ++i)
    if (!(0 <= bounds[2 * i] && bounds[2 * i] <= bounds[2 * i + 1] &&
          bounds[2 * i + 1] <= shape[i]))
      return false;
  return true;
}

LogicalResult ShrinkOp::inferReturnTypes(MLIRContext *, std::optional<Location>, Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  Type src = adaptor.getSrc().getType();
  ArrayRef<int64_t> bounds = adaptor.getBounds();
  if (!shrinkInRange(bounds, getShape(src))) {
    types.push_back(src); // rejected by the verifier
    return success();
  }
  SmallVector<int64_t> out;
  for (size_t i = 0; i + 1 < bounds.size(); i += 2)
    out.push_back(bounds[i + 1] - bounds[i]);
  types.push_back(reshapedLike(src, out));
  return success();
}

LogicalResult ShrinkOp::verify() {
  ArrayRef<int64_t> shape = getShape(getSrc().getType());
  if (!shrinkInRange(getBounds(), shape)) {
    std::string b;
    llvm::raw_string_ostream os(b);
    os << "[";
    for (size_t i = 0; i + 1 < getBounds().size(); i += 2)
      os << (i ? ", " : "") << getBounds()[i] << ":" << getBounds()[i + 1];
    if (getBounds().size() % 2)
      os << (getBounds().size() > 1 ? ", " : "") << getBounds().back();
    os << "]";
    return emitOpError("bounds ") << b << " do not fit shape " << shapeToString(shape)
                                  << ": one begin:end per axis, 0 <= begin <= end <= size";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *, std::optional<Location>, Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  Type src = adaptor.getSrc().getType();
  ArrayRef<int64_t> shape = getShape(src);
  int64_t pop = adaptor.getPopAttr().getInt();
  pop = std::clamp<int64_t>(pop, 0, shape.size());
  types.push_back(getValueType(shape.drop_back(pop), getDType(src)));
  return success();
}

LogicalResult ReduceOp::verify() {
  ArrayRef<int64_t> shape = getShape(getSrc().getType());
  int64_t pop = getPopAttr().getInt();
  if (pop < 0 || pop > (int64_t)shape.size())
    return emitOpError("cannot reduce ") << pop << " axes of shape " << shapeToString(shape);
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  if (getNumResults() == 0)
    return emitOpError("launches a kernel with no value");
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn = symbolTable.lookupNearestSymbolFrom<FunctionOpInterface>(*this, getKernelAttr());
  if (!fn)
    return emitOpError("'") << getKernel() << "' does not name a kernel function";
  // A kernel still at L1 returns its values; once rangeified it stores them
  // (and returns one !uop.void).
  ArrayRef<Type> results = fn.getResultTypes();
  if (results.empty() || (results.size() == 1 && isa<VoidType>(results[0])))
    return success();
  if (TypeRange(results) == getResultTypes())
    return success();
  if (results.size() == 1 && getNumResults() == 1)
    return emitOpError("result type ") << getResultTypes()[0] << " does not match kernel '"
                                       << getKernel() << "', which returns " << results[0];
  if (results.size() != getNumResults())
    return emitOpError("has ") << getNumResults() << " results; kernel '" << getKernel()
                               << "' returns " << results.size();
  return emitOpError("result types do not match kernel '") << getKernel() << "'";
}

#define GET_OP_CLASSES
#include "Uop/IR/UopOps.cpp.inc"
