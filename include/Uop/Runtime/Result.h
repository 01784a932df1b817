//===- Result.h - Value-or-error result type without exceptions -*- C++ -*-===//
//
// Part of the uop project. The runtime builds with no LLVM/MLIR, so it cannot
// use llvm::Expected; Result<T> is the small stand-in.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_RESULT_H
#define UOP_RUNTIME_RESULT_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace uop::rt {

/// An error message, used to construct a failed Result<T>.
struct Error {
  std::string message;
  explicit Error(std::string message) : message(std::move(message)) {}
};

/// Either a value of type T or an error message. Constructed implicitly from a
/// T (success) or from an Error (failure). No exceptions are used.
template <typename T> class Result {
public:
  Result(T value) : val(std::move(value)) {}
  Result(Error err) : err(std::move(err.message)) {}

  /// True when this holds a value.
  bool ok() const { return val.has_value(); }
  explicit operator bool() const { return ok(); }

  /// The error message; empty when ok().
  const std::string &error() const { return err; }

  /// The value; only valid when ok().
  T &value() {
    assert(ok() && "Result::value() on an error");
    return *val;
  }
  const T &value() const {
    assert(ok() && "Result::value() on an error");
    return *val;
  }
  T &operator*() { return value(); }
  const T &operator*() const { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  /// Moves the value out (for move-only T such as std::unique_ptr).
  T take() { return std::move(value()); }

private:
  std::optional<T> val;
  std::string err;
};

} // namespace uop::rt

#endif // UOP_RUNTIME_RESULT_H
