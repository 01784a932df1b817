//===- Bindings.h - what the uop Python bindings share ------------*- C++ -*-===//
//
// The extension module uop._uop is one pybind11 module whose parts are bound
// by one function each (bindTensorCreation, bindElementwise, ...), called
// from Module.cpp. A Tensor op is one line in the file of its family:
//
//   UOP_UNARY(t, "relu", relu);            // t.relu()
//   UOP_BINARY(t, "maximum", maximum);     // t.maximum(x), x a Tensor or a Python scalar
//   UOP_METHOD(t, "flip", flip, py::arg("axis"));   // any other signature
//
// Every op's result goes through check(): an error tensor (the C++ API's
// way of reporting misuse lazily) becomes a uop.Error at the call that made
// it, as Python users expect. Docstrings come from the C++ doc comments
// (tools/gen_docstrings.py -> Docstrings.inc, looked up by doc("Tensor::relu")).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_PYTHON_BINDINGS_H
#define UOP_PYTHON_BINDINGS_H

#include "Uop/Frontend/Tensor.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace uop::python {
namespace py = pybind11;

/// The docstring generated from the C++ doc comment of `name` (e.g.
/// "Tensor::relu", "nn::AdamW", "TinyJit::calls"), or "" when it has none.
const char *doc(const char *name);

/// Raises uop.Error with `message`.
[[noreturn]] void raise(const std::string &message);
/// Raises uop.Error for a failed llvm::Error (and consumes it).
void raiseIf(llvm::Error e);
template <typename T> T unwrap(llvm::Expected<T> v) {
  if (!v)
    raiseIf(v.takeError());
  return std::move(*v);
}
/// `t`, or uop.Error carrying its message when it is an error tensor.
inline Tensor check(Tensor t) {
  if (!t.ok())
    raise(t.error());
  return t;
}

/// The other operand of a binary op: a Tensor, or a Python bool, int or
/// float (uop::Scalar keeps which, as the seed's promotion needs).
using Operand = std::variant<Tensor, Scalar>;

/// A shape or axis list given as `*args` (`reshape(2, 3)`) or as one
/// sequence (`reshape((2, 3))`), as the seed's methods take them.
std::vector<int64_t> intArgs(const py::args &args);
/// An axis argument: None (all axes: empty), an int, or a sequence of ints.
std::vector<int64_t> axesArg(const py::object &axis);

//===-- numpy (Numpy.cpp) ---------------------------------------------===//
/// The numpy dtype of a uop dtype.
py::dtype numpyDType(DType dtype);
/// A tensor over `data` (anything numpy.asarray takes). Shares the array's
/// memory when it is C-contiguous, 16-byte aligned and of `dtype` (or, with
/// no dtype, the seed's choice: floats f32, bools bool, anything else i32)
/// unless `copy`; otherwise converts it into a fresh array, which the tensor
/// then owns.
Tensor tensorFromPython(const py::handle &data, std::optional<DType> dtype, bool copy);
/// A read-only numpy view of the buffer holding `t`'s value (no copy): it
/// keeps the buffer alive.
py::array numpyView(const Tensor &t);
/// A read-only numpy view of `buffer` with `shape`, keeping it alive.
py::array numpyView(std::shared_ptr<const rt::HostBuffer> buffer, const Shape &shape);
/// A host buffer over the memory of `arr` (C-contiguous, of `dtype`'s
/// numpy dtype), which it keeps alive.
std::shared_ptr<rt::HostBuffer> borrowArray(py::array arr, DType dtype);
/// A host buffer over `a`'s memory (borrowed, when its layout is one a
/// buffer can have and `copy` is false), else a converted copy.
std::shared_ptr<rt::HostBuffer> bufferFromNumpy(const py::handle &a, std::optional<DType> dtype,
                                                bool copy);

//===-- the parts of the module ---------------------------------------===//
void bindTensorClass(py::module_ &m, py::class_<Tensor> &t);
void bindTensorCreation(py::class_<Tensor> &t);
void bindElementwise(py::class_<Tensor> &t);
void bindMovement(py::class_<Tensor> &t);
void bindReduce(py::class_<Tensor> &t);
void bindFunctional(py::class_<Tensor> &t);
void bindNN(py::module_ &nn);
void bindJit(py::module_ &m);
void bindCompile(py::module_ &m);

} // namespace uop::python

//===-- uop::Scalar from Python bool / int / float --------------------===//
namespace pybind11::detail {
template <> struct type_caster<uop::Scalar> {
  uop::Scalar value{0.0};
  static constexpr auto name = const_name("bool | int | float");
  bool load(handle src, bool convert);
  static handle cast(const uop::Scalar &s, return_value_policy, handle);
  operator uop::Scalar *() { return &value; }
  operator uop::Scalar &() { return value; }
  operator uop::Scalar &&() && { return std::move(value); }
  template <typename T> using cast_op_type = movable_cast_op_type<T>;
};
} // namespace pybind11::detail

//===-- one line per op -----------------------------------------------===//
/// `t.NAME()` -> Tensor::METHOD().
#define UOP_UNARY(cls, name, method)                                                               \
  cls.def(                                                                                         \
      name, [](const ::uop::Tensor &self) { return ::uop::python::check(self.method()); },         \
      ::uop::python::doc("Tensor::" #method))
/// `t.NAME(x)`, x a Tensor or a Python scalar -> Tensor::METHOD(x).
#define UOP_BINARY(cls, name, method)                                                              \
  cls.def(                                                                                         \
      name,                                                                                        \
      [](const ::uop::Tensor &self, const ::uop::python::Operand &x) {                             \
        return ::uop::python::check(                                                               \
            std::visit([&](const auto &v) { return self.method(v); }, x));                         \
      },                                                                                           \
      py::arg("x"), ::uop::python::doc("Tensor::" #method))
/// `t.NAME(args...)` -> Tensor::METHOD(args...) for a method that is not
/// overloaded; the py::arg(...)s name its parameters and defaults.
#define UOP_METHOD(cls, name, method, ...)                                                         \
  cls.def(name, ::uop::python::checked(&::uop::Tensor::method), ##__VA_ARGS__,                     \
          ::uop::python::doc("Tensor::" #method))

namespace uop::python {
/// A const method of Tensor returning a Tensor, as a function of the tensor
/// and the method's parameters whose result goes through check().
template <typename... A> auto checked(Tensor (Tensor::*m)(A...) const) {
  return [m](const Tensor &self, A... a) { return check((self.*m)(std::forward<A>(a)...)); };
}
} // namespace uop::python

#endif // UOP_PYTHON_BINDINGS_H
