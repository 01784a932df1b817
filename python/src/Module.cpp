//===- Module.cpp - the uop._uop extension module ---------------*- C++ -*-===//
//
// The module's entry point: uop.Error, the dtypes, and the parts bound in
// the other files of this directory (see Bindings.h).
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string_view>

namespace uop::python {

//===----------------------------------------------------------------------===//
// Docstrings
//===----------------------------------------------------------------------===//

namespace {
struct DocEntry {
  const char *name;
  const char *text;
};
/// {"Tensor::relu", "..."}, ..., sorted by name (tools/gen_docstrings.py).
constexpr DocEntry kDocs[] = {
#include "Docstrings.inc"
};
} // namespace

const char *doc(const char *name) {
  std::string_view key(name);
  const DocEntry *begin = std::begin(kDocs), *end = std::end(kDocs);
  const DocEntry *it = std::lower_bound(
      begin, end, key, [](const DocEntry &e, std::string_view k) { return std::string_view(e.name) < k; });
  return it != end && it->name == key ? it->text : "";
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// uop.Error, set at import.
static PyObject *errorType = nullptr;

void raise(const std::string &message) {
  PyErr_SetString(errorType, message.c_str());
  throw py::error_already_set();
}

void raiseIf(llvm::Error e) {
  if (!e)
    return;
  raise(llvm::toString(std::move(e)));
}

//===----------------------------------------------------------------------===//
// Argument helpers
//===----------------------------------------------------------------------===//

static std::vector<int64_t> intsOf(const py::handle &seq) {
  std::vector<int64_t> out;
  for (py::handle v : seq)
    out.push_back(v.cast<int64_t>());
  return out;
}

std::vector<int64_t> intArgs(const py::args &args) {
  if (args.size() == 1 && (py::isinstance<py::tuple>(args[0]) || py::isinstance<py::list>(args[0])))
    return intsOf(args[0]);
  return intsOf(args);
}

std::vector<int64_t> axesArg(const py::object &axis) {
  if (axis.is_none())
    return {};
  if (py::isinstance<py::int_>(axis) || py::hasattr(axis, "__index__"))
    return {axis.cast<int64_t>()};
  return intsOf(axis);
}

} // namespace uop::python

//===----------------------------------------------------------------------===//
// uop::Scalar
//===----------------------------------------------------------------------===//

bool pybind11::detail::type_caster<uop::Scalar>::load(handle src, bool convert) {
  namespace py = pybind11;
  PyObject *o = src.ptr();
  if (PyBool_Check(o)) {
    value = uop::Scalar(o == Py_True);
    return true;
  }
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) {
      value = uop::Scalar(PyLong_AsDouble(o));
      value.kind = uop::Scalar::Kind::Int;
    } else {
      value = uop::Scalar(v);
    }
    return true;
  }
  if (PyFloat_Check(o)) {
    value = uop::Scalar(PyFloat_AsDouble(o));
    return true;
  }
  if (!convert)
    return false;
  // numpy scalars: np.bool_, np.int32, np.float32, ...
  py::object dtype = py::getattr(src, "dtype", py::none());
  if (dtype.is_none() || py::len(py::getattr(src, "shape", py::tuple())) != 0)
    return false;
  char kind = dtype.attr("kind").cast<char>();
  if (kind == 'b')
    value = uop::Scalar(PyObject_IsTrue(o) == 1);
  else if (kind == 'i' || kind == 'u')
    value = uop::Scalar(src.attr("item")().cast<long long>());
  else if (kind == 'f')
    value = uop::Scalar(src.attr("item")().cast<double>());
  else
    return false;
  return true;
}

pybind11::handle pybind11::detail::type_caster<uop::Scalar>::cast(const uop::Scalar &s,
                                                                  return_value_policy, handle) {
  namespace py = pybind11;
  switch (s.kind) {
  case uop::Scalar::Kind::Bool:
    return py::bool_(s.value != 0).release();
  case uop::Scalar::Kind::Int:
    return py::int_(static_cast<long long>(s.value)).release();
  case uop::Scalar::Kind::Float:
    break;
  }
  return py::float_(s.value).release();
}

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

PYBIND11_MODULE(_uop, m) {
  using namespace uop;
  using namespace uop::python;
  m.doc() = "uop's C++ core: the lazy Tensor, nn, TinyJit and the compiler (see the uop package)";

  static py::exception<std::runtime_error> error(m, "Error", PyExc_RuntimeError);
  errorType = error.ptr();
  error.doc() = "An error of uop: a shape that does not broadcast, a bad axis, a program that "
                "does not compile or run. Compile errors carry the 'file:line:col: error:' "
                "diagnostics.";

  py::enum_<DType> dtype(m, "DType", "The element types of uop (the seed's dtypes).");
  dtype.value("bool", DType::Bool)
      .value("i32", DType::I32)
      .value("f16", DType::F16)
      .value("f32", DType::F32);
  dtype.def_property_readonly(
      "is_float", [](DType d) { return d == DType::F16 || d == DType::F32; },
      "Whether the dtype is a floating-point type.");
  dtype.def_property_readonly(
      "itemsize", [](DType d) { return rt::dtypeSize(d); }, doc("dtypeSize"));
  dtype.def_property_readonly(
      "numpy", [](DType d) { return numpyDType(d); }, "The numpy dtype of the same elements.");
  dtype.def("__repr__", [](DType d) { return std::string("dtypes.") + rt::dtypeName(d); });

  // The compiler first: the Tensor's functions return its Executable.
  bindCompile(m);
  py::class_<Tensor> tensor(m, "Tensor", doc("Tensor"));
  bindTensorClass(m, tensor);
  bindTensorCreation(tensor);
  bindElementwise(tensor);
  bindMovement(tensor);
  bindReduce(tensor);
  bindFunctional(tensor);

  py::module_ nn = m.def_submodule("nn", "Layers and optimizers (the seed's nn.py).");
  bindNN(nn);
  bindJit(m);
}
