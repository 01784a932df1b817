//===- Jit.cpp - uop.TinyJit: a decorator over uop::TinyJit -----*- C++ -*-===//
//
//   @uop.TinyJit
//   def step(x, y):
//       loss = model(x).cross_entropy(y)
//       opt.zero_grad(); loss.backward(opt.params); opt.step(loss)
//       return loss
//
// The Python function is uop::TinyJit's step: calls 1 and 2 run it (the
// second is captured), later calls replay the captured plans in C++ and
// never enter Python. It takes tensors (numpy arrays are made tensors) and
// returns a tensor, a sequence of tensors or None; the call returns the same
// shape of result. An exception the function raises propagates as it is.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "Uop/Frontend/Jit.h"

#include <chrono>

namespace uop::python {

namespace {
class PyTinyJit {
public:
  explicit PyTinyJit(py::function fn)
      : fn(std::move(fn)),
        jit(TensorContext::global(), [this](llvm::ArrayRef<Tensor> in) { return callPython(in); }) {}

  py::object call(const py::args &args) {
    std::vector<Tensor> inputs;
    inputs.reserve(args.size());
    for (py::handle a : args)
      inputs.push_back(py::isinstance<Tensor>(a) ? a.cast<Tensor>()
                                                 : tensorFromPython(a, std::nullopt, false));
    auto t0 = std::chrono::steady_clock::now();
    llvm::Expected<std::vector<Tensor>> out = jit(inputs);
    lastSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (pending) {
      if (out)
        pending.reset();
      else {
        llvm::consumeError(out.takeError());
        py::error_already_set e = std::move(*pending);
        pending.reset();
        throw e;
      }
    }
    std::vector<Tensor> outs = unwrap(std::move(out));
    switch (shape) {
    case Result::None:
      return py::none();
    case Result::Single:
      return outs.empty() ? py::none() : py::cast(outs[0]);
    case Result::Tuple:
      return py::tuple(py::cast(outs));
    case Result::List:
      break;
    }
    return py::cast(outs);
  }

  py::function fn;
  TinyJit jit;
  /// The time the last call spent in uop::TinyJit (the C++ side).
  double lastSeconds = 0;

private:
  /// What the function returned (a replay returns the same).
  enum class Result { None, Single, Tuple, List } shape = Result::Single;
  /// The exception the function raised, rethrown by call().
  std::optional<py::error_already_set> pending;

  llvm::Expected<std::vector<Tensor>> callPython(llvm::ArrayRef<Tensor> in) {
    try {
      py::tuple args(in.size());
      for (size_t i = 0; i < in.size(); ++i)
        args[i] = py::cast(in[i]);
      py::object r = fn(*args);
      std::vector<Tensor> outs;
      if (r.is_none()) {
        shape = Result::None;
      } else if (py::isinstance<Tensor>(r)) {
        shape = Result::Single;
        outs.push_back(r.cast<Tensor>());
      } else {
        shape = py::isinstance<py::list>(r) ? Result::List : Result::Tuple;
        for (py::handle h : r)
          outs.push_back(h.cast<Tensor>());
      }
      return outs;
    } catch (py::error_already_set &e) {
      pending = std::move(e);
      return llvm::createStringError("the TinyJit's function raised an exception");
    } catch (const std::exception &e) {
      return llvm::createStringError(std::string("TinyJit: ") + e.what());
    }
  }
};
} // namespace

void bindJit(py::module_ &m) {
  py::class_<PyTinyJit>(m, "TinyJit", py::dynamic_attr(), doc("Jit.h"))
      .def(py::init<py::function>(), py::arg("fn"),
           "Wraps `fn` (tensors in; a tensor, a sequence of tensors or None out): calls 1 and 2 "
           "run it, the second captured; from the third, calls replay its plans in C++ with the "
           "new inputs, without running `fn`. Use it as a decorator.")
      .def("__call__", &PyTinyJit::call, doc("TinyJit::operator()"))
      .def_property_readonly("calls", [](const PyTinyJit &j) { return j.jit.calls(); },
                             doc("TinyJit::calls"))
      .def_property_readonly("captured", [](const PyTinyJit &j) { return j.jit.captured(); },
                             doc("TinyJit::captured"))
      .def_property_readonly("num_plans", [](const PyTinyJit &j) { return j.jit.numPlans(); },
                             doc("TinyJit::numPlans"))
      .def("reset", [](PyTinyJit &j) { j.jit.reset(); }, doc("TinyJit::reset"))
      .def_readonly("last_cpp_seconds", &PyTinyJit::lastSeconds,
                    "The wall time the last call spent in the C++ TinyJit (a replay: binding and "
                    "running the plans); the rest of a call's time is Python's.")
      .def_property_readonly("__wrapped__", [](const PyTinyJit &j) { return j.fn; });
}

} // namespace uop::python
