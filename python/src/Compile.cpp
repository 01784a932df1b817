//===- Compile.cpp - uop.compile: programs to executables -------*- C++ -*-===//
//
//   exe = uop.compile("examples/gemm.uir", target="cpu", opt="hand")
//   print(exe.plan)                  # what uop-run --print-plan prints
//   (c,) = exe(a, b)                 # numpy in (by slot), numpy out
//   print(exe.profile(a, b))         # one line per kernel, as uop-run --profile
//
// A program is .uir or .mlir text, or a file of either; it is parsed and
// compiled by the execution engine (mlir::uop::compileProgram) with the
// options the keywords give (the tools' --target, --mcpu, --chip, --opt,
// ...), then loaded. Diagnostics become a uop.CompileError whose message is
// their `file:line:col: error: ...` text.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "Uop/ExecutionEngine/ExecutionEngine.h"
#include "Uop/IR/UopAttrs.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/Runtime/Driver.h"
#include "Uop/Runtime/Executable.h"
#include "Uop/Support/LargeStack.h"
#include "Uop/Target/Program.h"
#include "Uop/Target/UIR.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllExtensions.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <map>

namespace uop::python {

/// uop.CompileError (a uop.Error), set at import.
static PyObject *compileErrorType = nullptr;

[[noreturn]] static void raiseCompileError(const std::string &message) {
  PyErr_SetString(compileErrorType, message.c_str());
  throw py::error_already_set();
}

/// The compile options the keywords name. `target` takes what the tools'
/// --target, --mcpu and --chip take: cpu, emulate or cuda; a CPU LLVM knows
/// (znver5: cpu for it); a chip (sm_90: cuda for it); or a printed
/// #uop.target<cpu|cuda, ...>.
static mlir::uop::CompileOptions compileOptions(const std::string &target, const std::string &opt,
                                                const std::string &mcpu, const std::string &chip,
                                                bool fuseReduce, bool openmp, bool checks,
                                                double searchSeconds) {
  using namespace mlir::uop;
  CompileOptions o;
  o.cpu = mcpu;
  o.chip = chip;
  if (std::optional<CompileTarget> t = parseCompileTarget(target)) {
    o.target = *t;
  } else if (llvm::StringRef(target).starts_with("sm_") ||
             llvm::StringRef(target).starts_with("#uop.target<cuda")) {
    o.target = CompileTarget::CUDA;
    o.chip = target;
  } else if (!target.empty()) {
    o.target = CompileTarget::CPU;
    o.cpu = target;
  }
  std::optional<OptMode> m = parseOptMode(opt);
  if (!m)
    throw py::value_error("unknown opt '" + opt + "' (expected none, hand or search)");
  o.opt = *m;
  o.fuseReduce = fuseReduce;
  o.openmp = openmp;
  o.checks = checks;
  o.searchSeconds = searchSeconds;
  std::string error;
  if (mlir::failed(checkCompileOptions(o, error)))
    throw py::value_error(error);
  mlir::MLIRContext ctx;
  if (mlir::failed(resolveTargets(o, &ctx, error)))
    throw py::value_error("target '" + target + "': " + error);
  return o;
}

/// Parses and compiles `text` (named `name`: .uir by that extension, else
/// MLIR) and loads it; raises uop.CompileError with the diagnostics.
static std::unique_ptr<rt::Executable> compileText(std::string text, const std::string &name,
                                                   const mlir::uop::CompileOptions &options,
                                                   const std::string &opts) {
  std::string diagnostics, loadError;
  std::unique_ptr<rt::Executable> exe;
  {
    py::gil_scoped_release release;
    mlir::uop::runWithLargeStack([&] {
      mlir::DialectRegistry registry;
      mlir::uop::registerUIRDialects(registry);
      mlir::registerAllExtensions(registry);
      mlir::MLIRContext context(registry);
      llvm::SourceMgr sourceMgr;
      sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name), llvm::SMLoc());
      llvm::raw_string_ostream os(diagnostics);
      mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
      mlir::OwningOpRef<mlir::ModuleOp> module = mlir::uop::parseProgram(sourceMgr, &context);
      if (!module)
        return 1;
      if (!opts.empty()) {
        auto attr = llvm::dyn_cast_or_null<mlir::uop::OptsAttr>(mlir::parseAttribute(opts, &context));
        auto main = module->lookupSymbol<mlir::func::FuncOp>("main");
        if (!attr || !main) {
          os << name << ": error: "
             << (!attr ? "opts: '" + opts + "' is not a #uop.opts<...> attribute"
                       : std::string("opts: the program has no func.func @main"))
             << "\n";
          return 1;
        }
        main->setAttr(mlir::uop::kOptsAttrName, attr);
      }
      auto compiled = mlir::uop::compileProgram(*module, options);
      if (mlir::failed(compiled))
        return 1;
      auto loaded = mlir::uop::load(std::move(*compiled));
      if (!loaded.ok()) {
        loadError = loaded.error();
        return 1;
      }
      exe = loaded.take();
      return 0;
    });
  }
  if (!loadError.empty())
    raise(loadError);
  if (!exe)
    raiseCompileError(diagnostics.empty() ? name + ": error: the program does not compile"
                                          : diagnostics);
  return exe;
}

//===----------------------------------------------------------------------===//
// Running on numpy arrays
//===----------------------------------------------------------------------===//

namespace {
/// The buffers of one run: slot -> buffer (numpy arrays borrowed or
/// converted), and the outputs a shaped run allocates.
struct Bound {
  std::map<int64_t, std::shared_ptr<rt::HostBuffer>> slots;
  std::vector<std::shared_ptr<rt::HostBuffer>> outputs;
  /// One pointer per plan argument that is not the runtime's own.
  std::vector<void *> args;
};
} // namespace

/// The inputs of a call: positional arrays go to the plan's input slots in
/// order (an in-place program: every slot in order), or one dict slot ->
/// array. Each is checked against its slot's dtype and size.
static Bound bindInputs(const rt::Executable &exe, const py::args &args, bool inPlace) {
  const rt::HostPlan &plan = exe.plan();
  Bound b;
  std::map<int64_t, py::handle> given;
  if (args.size() == 1 && py::isinstance<py::dict>(args[0])) {
    for (auto [k, v] : py::reinterpret_borrow<py::dict>(args[0]))
      given[k.cast<int64_t>()] = v;
  } else {
    std::vector<int64_t> slots;
    for (const rt::PlanArg &a : plan.args)
      if (inPlace ? !a.owned() && a.slot >= 0 : a.kind == rt::PlanArg::Input)
        slots.push_back(a.slot);
    std::sort(slots.begin(), slots.end());
    slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
    if (args.size() != slots.size())
      throw py::type_error("the program takes " + std::to_string(slots.size()) +
                           " input array(s) (slots " + rt::shapeString(slots) + "), got " +
                           std::to_string(args.size()));
    for (size_t i = 0; i < slots.size(); ++i)
      given[slots[i]] = args[i];
  }
  for (auto [slot, h] : given) {
    int64_t i = plan.argOfSlot(slot);
    if (i < 0)
      throw py::value_error("the program has no buffer slot " + std::to_string(slot));
    const rt::PlanArg &a = plan.args[i];
    if (inPlace) {
      // Written in place: the array itself, of the slot's dtype, contiguous.
      py::array arr = py::array::ensure(h);
      if (!arr || !arr.dtype().equal(numpyDType(a.dtype)) ||
          !(arr.flags() & py::array::c_style) || !arr.writeable())
        throw py::value_error("slot " + std::to_string(slot) +
                              ": an in-place program needs a writable, C-contiguous numpy "
                              "array of " + rt::dtypeName(a.dtype));
    }
    std::shared_ptr<rt::HostBuffer> buf =
        inPlace ? borrowArray(py::array::ensure(h), a.dtype) : bufferFromNumpy(h, a.dtype, false);
    if (buf->numel() != a.numel)
      throw py::value_error("slot " + std::to_string(slot) + ": the program's buffer is " +
                            std::to_string(a.numel) + " x " + rt::dtypeName(a.dtype) +
                            ", but the array holds " + buf->describe());
    b.slots[slot] = std::move(buf);
  }
  for (const rt::PlanArg &a : plan.args) {
    if (a.owned())
      continue;
    if (a.kind == rt::PlanArg::Output && !inPlace) {
      auto out = rt::HostBuffer::create(a.dtype, {a.numel});
      if (!out.ok())
        raise(out.error());
      b.outputs.push_back(std::make_shared<rt::HostBuffer>(out.take()));
      b.args.push_back(b.outputs.back()->data());
      continue;
    }
    auto it = b.slots.find(a.slot);
    if (it == b.slots.end()) {
      if (a.read || !inPlace)
        throw py::value_error("no array for slot " + std::to_string(a.slot) +
                              ", which the program reads");
      // A slot an in-place program only writes: zeros, as uop-run.
      auto z = rt::HostBuffer::create(a.dtype, {a.numel});
      if (!z.ok())
        raise(z.error());
      it = b.slots.emplace(a.slot, std::make_shared<rt::HostBuffer>(z.take())).first;
    }
    b.args.push_back(it->second->data());
  }
  return b;
}

/// Runs `exe` on the arrays: a shaped program returns its values as numpy
/// arrays (a list, one per value); an in-place one writes the arrays and
/// returns None.
static py::object runExecutable(rt::Executable &exe, const py::args &args) {
  const rt::HostPlan &plan = exe.plan();
  bool inPlace = plan.form == rt::HostPlan::InPlace;
  Bound b = bindInputs(exe, args, inPlace);
  rt::Result<bool> ran = true;
  {
    py::gil_scoped_release release;
    ran = exe.runRaw(b.args);
  }
  if (!ran.ok())
    raise(ran.error());
  if (inPlace)
    return py::none();
  // The values: views of the output buffers (or of the inputs they alias).
  std::vector<std::shared_ptr<rt::HostBuffer>> argData;
  size_t out = 0;
  for (const rt::PlanArg &a : plan.args) {
    if (a.kind == rt::PlanArg::Output)
      argData.push_back(b.outputs[out++]);
    else if (a.kind == rt::PlanArg::Input)
      argData.push_back(b.slots[a.slot]);
    else
      argData.push_back(nullptr);
  }
  py::list values;
  for (const rt::PlanValue &v : plan.values) {
    std::shared_ptr<rt::HostBuffer> data = v.arg < argData.size() ? argData[v.arg] : nullptr;
    if (!data)
      raise("internal error: a value in no buffer");
    int64_t n = 1;
    for (int64_t d : v.shape)
      n *= d;
    if (n != data->numel()) { // a value in a part of its buffer
      auto part = rt::HostBuffer::create(data->dtype(), {n});
      if (!part.ok())
        raise(part.error());
      std::memcpy(part->data(), data->data(), part->bytes());
      data = std::make_shared<rt::HostBuffer>(part.take());
    }
    values.append(numpyView(std::move(data), v.shape));
  }
  return values;
}

namespace {
/// A profile: one KernelProfile per kernel; str() is uop-run --profile's table.
struct Profile {
  std::vector<rt::KernelProfile> kernels;
};
} // namespace

void bindCompile(py::module_ &m) {
  static py::exception<std::runtime_error> compileError(
      m, "CompileError", m.attr("Error").cast<py::object>().ptr());
  compileErrorType = compileError.ptr();
  compileError.doc() = "A program that does not parse, verify or compile; the message is the "
                       "diagnostics' 'file:line:col: error: ...' text.";

  py::class_<rt::PlanKernel>(m, "Kernel", doc("PlanKernel"))
      .def_readonly("name", &rt::PlanKernel::name)
      .def_readonly("launches", &rt::PlanKernel::launches)
      .def_readonly("flops", &rt::PlanKernel::flops, "Floating-point ops of one launch.")
      .def_readonly("bytes", &rt::PlanKernel::bytes, "Bytes one launch reads and writes.")
      .def_readonly("opts", &rt::PlanKernel::opts, "The #uop.opts it was lowered with.")
      .def_property_readonly(
          "checks",
          [](const rt::PlanKernel &k) {
            py::list l;
            for (const rt::PlanCheck &c : k.checks)
              l.append(py::make_tuple(c.kind, c.loc));
            return l;
          },
          "Its run-time checks: (kind, 'file:line:col') pairs.")
      .def("__repr__", [](const rt::PlanKernel &k) {
        return "<Kernel " + k.name + ": " + std::to_string(k.launches) + " launch(es)>";
      });

  py::class_<rt::HostPlan>(m, "Plan", doc("HostPlan"))
      .def_property_readonly("form",
                             [](const rt::HostPlan &p) {
                               return p.form == rt::HostPlan::Shaped ? "shaped" : "in_place";
                             },
                             "'shaped' (values out) or 'in_place' (buffers written in place).")
      .def_readonly("kernels", &rt::HostPlan::kernels)
      .def_readonly("num_launches", &rt::HostPlan::numLaunches)
      .def_property_readonly("input_slots", &rt::HostPlan::inputSlots, doc("HostPlan::inputSlots"))
      .def_property_readonly(
          "value_shapes",
          [](const rt::HostPlan &p) {
            py::list l;
            for (const rt::PlanValue &v : p.values)
              l.append(py::tuple(py::cast(v.shape)));
            return l;
          },
          "The shapes of a shaped program's values.")
      .def_property_readonly("flops", &rt::HostPlan::flops, doc("HostPlan::flops"))
      .def_property_readonly("bytes", &rt::HostPlan::bytes)
      .def("serialize", &rt::HostPlan::serialize, doc("HostPlan::serialize"))
      .def("__str__", &rt::formatPlan)
      .def("__repr__", [](const rt::HostPlan &p) {
        return "<Plan: " + std::to_string(p.kernels.size()) + " kernel(s), " +
               std::to_string(p.numLaunches) + " launch(es)>";
      });

  py::class_<rt::KernelProfile>(m, "KernelProfile", doc("KernelProfile"))
      .def_readonly("name", &rt::KernelProfile::name)
      .def_readonly("launches", &rt::KernelProfile::launches)
      .def_readonly("seconds", &rt::KernelProfile::seconds)
      .def_readonly("flops", &rt::KernelProfile::flops)
      .def_readonly("bytes", &rt::KernelProfile::bytes)
      .def_readonly("opts", &rt::KernelProfile::opts);
  py::class_<Profile>(m, "Profile", "An executable's profile: one KernelProfile per kernel.")
      .def_readonly("kernels", &Profile::kernels)
      .def("__len__", [](const Profile &p) { return p.kernels.size(); })
      .def("__getitem__", [](const Profile &p, size_t i) {
        if (i >= p.kernels.size())
          throw py::index_error();
        return p.kernels[i];
      })
      .def("__str__", [](const Profile &p) { return rt::formatProfile(p.kernels); });

  py::class_<rt::Executable>(m, "Executable", doc("Executable"))
      .def_property_readonly("plan", &rt::Executable::plan, py::return_value_policy::reference_internal,
                             "The host plan: kernels, launches, work; print() shows it.")
      .def_property_readonly("backend", [](const rt::Executable &e) { return rt::backendName(e.backend()); })
      .def_property_readonly("library", &rt::Executable::library, doc("Executable::library"))
      .def_property_readonly("ptx", &rt::Executable::ptx, doc("Executable::ptx"))
      .def("__call__", &runExecutable,
           "Runs the program on numpy arrays, given in slot order (or one dict slot -> array). "
           "A shaped program returns the list of its values; a kernel graph writes the arrays "
           "in place (each a writable, C-contiguous array of its slot's dtype) and returns "
           "None.")
      .def(
          "bench",
          [](rt::Executable &e, py::args args, int runs) {
            Bound b = bindInputs(e, args, e.plan().form == rt::HostPlan::InPlace);
            rt::Result<std::vector<double>> r = std::vector<double>{};
            {
              py::gil_scoped_release release;
              r = e.bench(b.args, runs);
            }
            if (!r.ok())
              raise(r.error());
            return r.take();
          },
          py::arg("runs") = 10, doc("Executable::bench"))
      .def(
          "profile",
          [](rt::Executable &e, py::args args, int runs) {
            Bound b = bindInputs(e, args, e.plan().form == rt::HostPlan::InPlace);
            rt::Result<std::vector<rt::KernelProfile>> r = std::vector<rt::KernelProfile>{};
            {
              py::gil_scoped_release release;
              r = e.profile(b.args, runs);
            }
            if (!r.ok())
              raise(r.error());
            return Profile{r.take()};
          },
          py::arg("runs") = 3, doc("Executable::profile"))
      .def("__repr__", [](const rt::Executable &e) {
        return std::string("<Executable ") + rt::backendName(e.backend()) + ", " +
               std::to_string(e.plan().kernels.size()) + " kernel(s)>";
      });

  m.def(
      "compile",
      [](const py::object &program, const std::string &target, const std::string &opt,
         const std::string &mcpu, const std::string &chip, bool fuseReduce, bool openmp,
         bool checks, const std::string &opts, const std::optional<std::string> &format,
         const std::optional<std::string> &name, double searchSeconds) {
        std::string text, source;
        py::object os = py::module_::import("os");
        bool isPath = py::isinstance(program, os.attr("PathLike"));
        if (!isPath && py::isinstance<py::str>(program)) {
          std::string s = program.cast<std::string>();
          isPath = s.find('\n') == std::string::npos && os.attr("path").attr("isfile")(s).cast<bool>();
        }
        if (isPath) {
          source = py::str(os.attr("fspath")(program)).cast<std::string>();
          auto buf = llvm::MemoryBuffer::getFile(source);
          if (!buf)
            throw py::value_error(source + ": cannot read: " + buf.getError().message());
          text = (*buf)->getBuffer().str();
        } else {
          text = program.cast<std::string>();
          bool mlir = format ? *format == "mlir"
                             : text.find("func.func") != std::string::npos ||
                                   text.find("module") != std::string::npos;
          if (format && *format != "mlir" && *format != "uir")
            throw py::value_error("unknown format '" + *format + "' (expected uir or mlir)");
          source = name ? *name : mlir ? "<string>.mlir" : "<string>.uir";
        }
        if (name && isPath)
          source = *name;
        auto options = compileOptions(target, opt, mcpu, chip, fuseReduce, openmp, checks,
                                      searchSeconds);
        return compileText(std::move(text), source, options, opts);
      },
      py::arg("program"), py::arg("target") = "cpu", py::arg("opt") = "hand", py::kw_only(),
      py::arg("mcpu") = "", py::arg("chip") = "", py::arg("fuse_reduce") = false,
      py::arg("openmp") = true, py::arg("checks") = true, py::arg("opts") = "",
      py::arg("format") = py::none(), py::arg("name") = py::none(),
      py::arg("search_seconds") = 60.0,
      "Compiles a uop program (.uir or .mlir text, or a path to a file of either) and "
      "returns its Executable. target: cpu, emulate or cuda, or what the tools' --mcpu and "
      "--chip take (a CPU such as znver5, a chip such as sm_90, a #uop.target<...>); opt: "
      "hand, none or search; mcpu/chip as the tools'; fuse_reduce, openmp, checks "
      "(run-time index and divisor checks); opts: a #uop.opts<...> for @main (as uop-run "
      "--opts). Text is .uir unless it looks like MLIR (format='uir'|'mlir' says); name "
      "names it in diagnostics. Raises CompileError with the 'file:line:col: error:' "
      "diagnostics.");
}

} // namespace uop::python
