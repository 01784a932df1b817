//===- TensorClass.cpp - uop.Tensor: the handle, values, autodiff -*- C++ -*-===//
//
// What is not an op: construction from numpy, inspection, realizing and
// reading values, autodiff, indexing, the Python operators and the
// context's counters. The ops are bound by family in Tensor*.cpp.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "Uop/Runtime/Driver.h"

namespace uop::python {

/// The element of a 1-element tensor as a Python bool, int or float.
static py::object itemOf(const Tensor &t) {
  double v = unwrap(t.item());
  switch (t.dtype()) {
  case DType::Bool:
    return py::bool_(v != 0);
  case DType::I32:
    return py::int_(static_cast<long long>(v));
  default:
    return py::float_(v);
  }
}

/// t[idx]: ints and step-1 slices (the seed's __getitem__): a shrink, then
/// a reshape that drops the axes indexed by an int.
static Tensor getItem(const Tensor &t, const py::object &idx) {
  py::tuple index = py::isinstance<py::tuple>(idx) ? py::reinterpret_borrow<py::tuple>(idx)
                                                    : py::make_tuple(idx);
  Shape shape = t.shape();
  if (index.size() > shape.size())
    throw py::index_error("too many indices: " + std::to_string(index.size()) +
                          " for a tensor of shape " + rt::shapeString(shape));
  std::vector<std::pair<int64_t, int64_t>> bounds;
  std::vector<bool> dropped(shape.size(), false);
  for (size_t d = 0; d < index.size(); ++d) {
    int64_t n = shape[d];
    py::handle i = index[d];
    if (py::isinstance<py::slice>(i)) {
      py::ssize_t begin, end, step, length;
      if (!py::reinterpret_borrow<py::slice>(i).compute(n, &begin, &end, &step, &length))
        throw py::error_already_set();
      if (step != 1)
        throw py::index_error("only step-1 slices are supported (use flip for -1)");
      bounds.push_back({begin, std::max<int64_t>(begin, end)});
    } else if (py::isinstance<py::int_>(i) || py::hasattr(i, "__index__")) {
      int64_t k = i.cast<int64_t>();
      if (k < -n || k >= n)
        throw py::index_error("index " + std::to_string(k) + " is out of bounds for axis " +
                              std::to_string(d) + " of size " + std::to_string(n));
      k = (k + n) % n;
      bounds.push_back({k, k + 1});
      dropped[d] = true;
    } else {
      throw py::index_error("uop.Tensor indices are ints and step-1 slices, not " +
                            std::string(py::str(py::type::handle_of(i).attr("__name__"))));
    }
  }
  for (size_t d = index.size(); d < shape.size(); ++d)
    bounds.push_back({0, shape[d]});
  Tensor r = t;
  bool whole = true;
  for (size_t d = 0; d < shape.size(); ++d)
    whole &= bounds[d] == std::make_pair(int64_t(0), shape[d]);
  if (!whole)
    r = check(r.shrink(bounds));
  Shape kept;
  Shape rs = r.shape();
  for (size_t d = 0; d < rs.size(); ++d)
    if (!dropped[d])
      kept.push_back(rs[d]);
  return kept == rs ? r : check(r.reshape(kept));
}

void bindTensorClass(py::module_ &m, py::class_<Tensor> &t) {
  t.def(py::init([](const py::object &data, std::optional<DType> dtype, bool requiresGrad,
                    bool copy) {
          Tensor r = tensorFromPython(data, dtype, copy);
          r.setRequiresGrad(requiresGrad);
          return r;
        }),
        py::arg("data"), py::arg("dtype") = py::none(), py::arg("requires_grad") = false,
        py::arg("copy") = false,
        "A tensor holding `data` (a numpy array, or anything numpy.asarray takes). Without a "
        "dtype: floats become f32, bools bool and anything else i32 (the seed's rule). A "
        "C-contiguous, 16-byte aligned array of the tensor's dtype is shared, not copied "
        "(as torch.from_numpy; uop never writes it, but writing it changes the tensor); "
        "copy=True always copies.");

  //===-- inspection --------------------------------------------------===//
  t.def_property_readonly(
      "shape", [](const Tensor &self) { return py::tuple(py::cast(self.shape())); },
      doc("Tensor::shape"));
  t.def_property_readonly("dtype", &Tensor::dtype, doc("Tensor::dtype"));
  t.def_property_readonly("ndim", &Tensor::ndim, "The number of dimensions.");
  t.def("numel", &Tensor::numel, "The number of elements.");
  t.def_property("requires_grad", &Tensor::requiresGrad,
                 [](Tensor &self, bool v) { self.setRequiresGrad(v); }, doc("Tensor::requiresGrad"));
  t.def_property("grad", &Tensor::grad, &Tensor::setGrad, doc("Tensor::grad"));
  t.def("__repr__", &Tensor::str);
  t.def("same_as", &Tensor::sameAs, py::arg("other"), doc("Tensor::sameAs"));
  t.def(
      "_id", [](const Tensor &self) { return reinterpret_cast<uintptr_t>(self.holder().get()); },
      "An id of the tensor shared by every handle on it (Python objects that wrap it may "
      "differ): what uop.nn.parameters deduplicates by.");
  t.def("is_realized", &Tensor::isRealized, doc("Tensor::isRealized"));
  t.def("program", [](const Tensor &self) { return unwrap(self.context()->programText({self})); },
        doc("TensorContext::programText"));

  //===-- running ------------------------------------------------------===//
  t.def(
      "realize",
      [](py::object self) {
        unwrap(self.cast<const Tensor &>().realize());
        return self;
      },
      "Computes the value (once) and rebinds this tensor to it; returns the tensor.");
  t.def_static(
      "realize_all",
      [](py::args ts) {
        std::vector<Tensor> v;
        for (py::handle h : ts)
          v.push_back(h.cast<Tensor>());
        raiseIf(Tensor::realizeAll(v));
      },
      doc("Tensor::realizeAll"));
  t.def(
      "numpy",
      [](const Tensor &self, bool copy) -> py::array {
        py::array a = numpyView(self);
        return copy ? py::array(a.attr("copy")()) : a;
      },
      py::arg("copy") = false,
      "The value as a numpy array: a read-only view of the buffer that holds it, no copy "
      "(copy=True: a writable copy). Realizes the tensor first.");
  t.def(
      "__array__",
      [](const Tensor &self, const py::object &dtype, const py::object &copy) -> py::array {
        py::array a = numpyView(self);
        if (!dtype.is_none())
          return a.attr("astype")(dtype);
        if (!copy.is_none() && copy.cast<bool>())
          return a.attr("copy")();
        return a;
      },
      py::arg("dtype") = py::none(), py::arg("copy") = py::none());
  t.attr("__array_ufunc__") = py::none(); // numpy defers `array + tensor` to uop
  t.def("item", &itemOf, doc("Tensor::item"));
  t.def("tolist", [](const Tensor &self) { return numpyView(self).attr("tolist")(); },
        "The value as nested Python lists.");
  t.def(
      "save", [](const Tensor &self, const std::string &path) { raiseIf(self.save(path)); },
      py::arg("path"), doc("Tensor::save"));
  t.def(
      "assign",
      [](py::object self, const Tensor &x) {
        raiseIf(self.cast<Tensor &>().assign(x));
        return self;
      },
      py::arg("x"), doc("Tensor::assign"));

  //===-- autodiff -----------------------------------------------------===//
  t.def(
      "backward",
      [](py::object self, const std::vector<Tensor> &params) {
        raiseIf(self.cast<const Tensor &>().backward(params));
        return self;
      },
      py::arg("params"), doc("Tensor::backward"));
  UOP_UNARY(t, "detach", detach);
  UOP_UNARY(t, "contiguous", contiguous);

  //===-- indexing and operators ----------------------------------------===//
  t.def("__getitem__", &getItem, py::arg("index"),
        "t[i, a:b, ...]: ints (the axis is dropped) and step-1 slices (the seed's "
        "__getitem__: a shrink and a reshape).");
  // a OP b (b a Tensor or a Python scalar), and the reflected b OP a (b a scalar).
#define UOP_OPERATOR(name, method)                                                                 \
  t.def(                                                                                           \
      name,                                                                                        \
      [](const Tensor &a, const Operand &b) {                                                      \
        return check(std::visit([&](const auto &x) { return a.method(x); }, b));                   \
      },                                                                                           \
      py::is_operator())
#define UOP_REFLECTED(name, expr)                                                                  \
  t.def(name, [](const Tensor &a, Scalar b) { return check(expr); }, py::is_operator())
  UOP_OPERATOR("__add__", add);
  UOP_OPERATOR("__sub__", sub);
  UOP_OPERATOR("__mul__", mul);
  UOP_OPERATOR("__truediv__", div);
  UOP_OPERATOR("__lt__", lt);
  UOP_OPERATOR("__gt__", gt);
  UOP_OPERATOR("__le__", le);
  UOP_OPERATOR("__ge__", ge);
  UOP_REFLECTED("__radd__", a.add(b, true));
  UOP_REFLECTED("__rsub__", a.rsub(b));
  UOP_REFLECTED("__rmul__", a.mul(b, true));
  UOP_REFLECTED("__rtruediv__", a.rdiv(b));
#undef UOP_OPERATOR
#undef UOP_REFLECTED
  t.def("__neg__", [](const Tensor &a) { return check(a.neg()); }, py::is_operator());
  t.def("__matmul__", [](const Tensor &a, const Tensor &b) { return check(a.matmul(b)); },
        py::is_operator());

  //===-- the context --------------------------------------------------===//
  t.def_static(
      "manual_seed", [](uint64_t seed) { TensorContext::global().manualSeed(seed); },
      py::arg("seed"), doc("TensorContext::manualSeed"));
  m.def(
      "stats",
      []() {
        TensorContext &c = TensorContext::global();
        const auto &s = c.planCache().stats();
        py::dict d;
        d["realizations"] = c.realizations();
        d["plan_hits"] = c.planHits();
        d["plans"] = c.planCache().size();
        d["compiled"] = s.compiled;
        d["disk_hits"] = s.diskHits;
        d["memory_hits"] = s.memoryHits;
        d["graph_size"] = c.graphSize();
        d["live_buffers"] = c.liveBuffers();
        return d;
      },
      "The global context's counters: realizations, plan_hits (plans found by the graph's "
      "structure), plans (executables in the plan cache), compiled, disk_hits, memory_hits, "
      "graph_size (ops in the graph) and live_buffers.");
  m.def(
      "plan_of",
      [](py::args ts) -> rt::Executable * {
        std::vector<Tensor> v;
        for (py::handle h : ts)
          v.push_back(h.cast<Tensor>());
        return unwrap(TensorContext::global().compile(v));
      },
      py::return_value_policy::reference,
      "The executable that realizing these tensors together would run, compiled (once) "
      "but not run: its plan has the kernels, launches, flops and bytes.");
  m.def(
      "last_executable", []() { return TensorContext::global().lastExecutable(); },
      py::return_value_policy::reference, doc("TensorContext::lastExecutable"));
}

} // namespace uop::python
