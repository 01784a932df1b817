//===- Buffer.h - Element types and typed host buffers ----------*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes: this header is part of
// the standalone runtime (-DUOP_RUNTIME_ONLY=ON).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_BUFFER_H
#define UOP_RUNTIME_BUFFER_H

#include "Uop/Runtime/Result.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace uop::rt {

/// The element types a buffer can hold (the seed's dtypes minus void).
enum class DType { Bool, I32, F16, F32 };

/// The seed's name of a dtype: "bool", "i32", "f16", "f32".
const char *dtypeName(DType dtype);

/// Bytes per element: 1, 4, 2, 4.
size_t dtypeSize(DType dtype);

/// The dtype called `name` ("bool", "i32", "f16", "f32"), if any.
std::optional<DType> dtypeFromName(std::string_view name);

/// Converts an IEEE binary16 bit pattern to float (exact).
float halfToFloat(uint16_t bits);

/// Converts a float to the nearest IEEE binary16 bit pattern (round to nearest
/// even; overflow gives inf, NaN stays NaN).
uint16_t floatToHalf(float value);

/// Number of elements of `shape`, or nullopt when a dimension is negative or
/// the product (times `elemSize` bytes) overflows.
std::optional<int64_t> checkedNumel(const std::vector<int64_t> &shape, size_t elemSize = 1);

/// A byte count such as "1000000", "512M", "64G" or "1TiB" (binary units
/// K, M, G, T, P, E, optionally followed by "B" or "iB"); nullopt when
/// malformed or over 2^64 - 1.
std::optional<uint64_t> parseByteSize(std::string_view text);

/// The most bytes HostBuffer::create() allocates for one buffer:
/// $UOP_MAX_ALLOC_BYTES (parsed by parseByteSize) when set, else the
/// physical memory (a buffer larger than that cannot be used anyway, and
/// failing early beats the OOM killer). An error when the variable is
/// malformed.
Result<uint64_t> maxAllocBytes();

/// A shape as a Python tuple: "()", "(3,)", "(2, 3)".
std::string shapeString(const std::vector<int64_t> &shape);

/// A typed, C-contiguous host array with 64-byte aligned storage (or, made by
/// borrow(), a view of memory someone else owns). Copies are deep; moves are
/// cheap. A default-constructed buffer is an empty f32 vector of shape (0,)
/// with no storage.
class HostBuffer {
public:
  HostBuffer() = default;
  /// A zero-filled buffer. Precondition: create(dtype, shape) would succeed
  /// (no negative dimension, a size that fits, within maxAllocBytes(), memory
  /// available). Otherwise this prints create()'s message to stderr and
  /// aborts: never undefined behavior, but not recoverable either, so use
  /// create() for any shape that comes from input (files, the command line,
  /// a program's IR).
  HostBuffer(DType dtype, std::vector<int64_t> shape);
  /// Like the constructor, but reports what is wrong as one line instead of
  /// aborting: "invalid shape (2, -1) for an f32 buffer: dimension 1 is
  /// negative", "cannot allocate N bytes for an f32 buffer of shape S: the
  /// size overflows 64 bits", "...: more than the limit of L bytes (the
  /// physical memory; set UOP_MAX_ALLOC_BYTES to change it)", "...: over
  /// the memory budget of B bytes (...)" (Memory.h: every buffer's storage
  /// draws from the budget until it is freed), "...: out of memory". Never throws (std::bad_alloc included) and never aborts.
  static Result<HostBuffer> create(DType dtype, std::vector<int64_t> shape);
  /// As create(), without the zero fill: for a buffer whose every element
  /// the caller writes before anything reads it (a data loader's batch).
  static Result<HostBuffer> createUninitialized(DType dtype, std::vector<int64_t> shape);
  /// A buffer over `data`, C-contiguous elements of `dtype` and `shape`, that
  /// it does not own: it keeps `owner` (e.g. a numpy array the Python
  /// binding shares) alive until it is destroyed, and never frees `data`.
  /// The data is as aligned as the caller's (element-aligned at least: the
  /// CPU code assumes no more; a CUDA run copies it to device memory). An
  /// error for a negative dimension, an overflowing size or a null `data`.
  static Result<HostBuffer> borrow(DType dtype, std::vector<int64_t> shape, void *data,
                                   std::shared_ptr<void> owner);
  /// Whether the storage is borrowed (borrow()) rather than owned.
  bool borrowed() const { return static_cast<bool>(storage.get_deleter().owner); }

  HostBuffer(const HostBuffer &other);
  HostBuffer &operator=(const HostBuffer &other);
  /// Moves leave `other` as a default-constructed (empty) buffer.
  HostBuffer(HostBuffer &&other) noexcept;
  HostBuffer &operator=(HostBuffer &&other) noexcept;

  DType dtype() const { return dt; }
  const std::vector<int64_t> &shape() const { return dims; }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  /// Number of elements (1 for a scalar of shape ()).
  int64_t numel() const { return count; }
  /// Size of the data in bytes.
  size_t bytes() const { return static_cast<size_t>(count) * dtypeSize(dt); }

  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }
  /// The data as T*; unchecked.
  template <typename T> T *as() { return static_cast<T *>(data()); }
  template <typename T> const T *as() const { return static_cast<const T *>(data()); }

  /// Element `i` (flat, C order) converted to double; bool gives 0/1.
  double getDouble(int64_t i) const;
  /// Sets element `i` (flat, C order) from a double (rounded/truncated as a C
  /// cast would; f16 rounds to nearest even).
  void setDouble(int64_t i, double value);

  /// Fills the buffer deterministically from `seed`: f32/f16 uniform in
  /// [-1, 1) (exactly representable values), i32 uniform in [-8, 8), bool 0/1.
  void fillRandom(uint64_t seed);

  /// A numpy/Python-like nested rendering, e.g. "[[1.0, 2.0], [3.0, 4.0]]".
  /// Floats print in their shortest round-trip form (f16 via float), bools as
  /// True/False. With more than `maxElems` elements, each long dimension is
  /// summarized numpy-style as its first and last 3 entries around "...".
  /// A buffer of more than 64 dimensions (numpy's limit) renders as a short
  /// placeholder rather than recursing that deep.
  std::string format(size_t maxElems = 1000) const;

  /// "DTYPE of shape SHAPE", e.g. "f32 of shape (2, 3)", for error messages.
  std::string describe() const;

private:
  /// Frees the storage, or keeps a large block for the next buffer of its
  /// size (Buffer.cpp's block cache). `bytes` is the block's size. Borrowed
  /// storage (borrow()) is not freed: `owner` is released with the deleter.
  struct FreeDeleter {
    FreeDeleter() noexcept : bytes(0) {}
    explicit FreeDeleter(size_t bytes) noexcept : bytes(bytes) {}
    FreeDeleter(size_t bytes, std::shared_ptr<void> owner) noexcept
        : bytes(bytes), owner(std::move(owner)) {}
    void operator()(void *p) const;
    size_t bytes;
    std::shared_ptr<void> owner;
  };
  static Result<HostBuffer> create(DType dtype, std::vector<int64_t> shape, bool zero);
  static std::unique_ptr<void, FreeDeleter> allocStorage(size_t bytes, bool zero, bool force,
                                                         const std::string &what,
                                                         std::string *why);
  DType dt = DType::F32;
  std::vector<int64_t> dims{0};
  int64_t count = 0;
  std::unique_ptr<void, FreeDeleter> storage;
};

} // namespace uop::rt

#endif // UOP_RUNTIME_BUFFER_H
