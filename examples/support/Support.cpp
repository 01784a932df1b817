//===- Support.cpp - what every example shares -------------------*- C++ -*-===//

#include "Support.h"

#include "Uop/Runtime/File.h"
#include "Uop/Runtime/Memory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sched.h>
#include <thread>
#include <unistd.h>

namespace uop::examples {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0)
    return "?";
  char buf[32];
  if (seconds < 10)
    std::snprintf(buf, sizeof buf, "%.1fs", seconds);
  else if (seconds < 60)
    std::snprintf(buf, sizeof buf, "%.0fs", seconds);
  else if (seconds < 3600) {
    auto s = static_cast<int64_t>(seconds + 0.5);
    std::snprintf(buf, sizeof buf, "%lldm%02llds", (long long)(s / 60), (long long)(s % 60));
  } else {
    auto m = static_cast<int64_t>(seconds / 60 + 0.5);
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", (long long)(m / 60), (long long)(m % 60));
  }
  return buf;
}

//===----------------------------------------------------------------------===//
// Progress
//===----------------------------------------------------------------------===//

Progress::Progress(std::string label, int64_t total, int64_t every, FILE *out, int interactive)
    : label(std::move(label)), total(std::max<int64_t>(1, total)),
      every(every > 0 ? every : std::max<int64_t>(1, total / 10)), out(out),
      interactive(interactive < 0 ? isatty(fileno(out)) != 0 : interactive != 0),
      start(std::chrono::steady_clock::now()), lastDraw(start) {}

double Progress::msPerStep() const {
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return lastStep > 0 ? ms / static_cast<double>(lastStep) : 0.0;
}

std::string Progress::line(int64_t step, double loss, const std::string &extra) const {
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(std::max<int64_t>(1, step));
  int width = static_cast<int>(std::to_string(total).size());
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s step %*lld/%lld loss %.4f %7.1f ms/step ETA %s", label.c_str(),
                width, (long long)step, (long long)total, loss, ms,
                formatDuration(ms * static_cast<double>(total - step) / 1000).c_str());
  std::string s = buf;
  if (!extra.empty())
    s += " " + extra;
  return s;
}

void Progress::update(int64_t step, double loss, const std::string &extra) {
  lastStep = step;
  auto now = std::chrono::steady_clock::now();
  bool last = step >= total;
  if (interactive) {
    if (!last && now - lastDraw < std::chrono::milliseconds(100) && step != 1)
      return;
    lastDraw = now;
    std::fprintf(out, "\r\033[K%s", line(step, loss, extra).c_str());
    open = true;
    if (last)
      finish();
    std::fflush(out);
    return;
  }
  if (step == 1 || step % every == 0 || last) {
    std::fprintf(out, "%s\n", line(step, loss, extra).c_str());
    std::fflush(out);
  }
}

void Progress::finish() {
  if (open) {
    std::fputc('\n', out);
    std::fflush(out);
    open = false;
  }
}

//===----------------------------------------------------------------------===//
// CsvWriter
//===----------------------------------------------------------------------===//

llvm::Expected<CsvWriter> CsvWriter::create(const std::string &path,
                                            const std::vector<std::string> &columns) {
  if (columns.empty())
    return makeError(path + ": a CSV needs at least one column");
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (!dir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      return makeError(path + ": cannot create the directory: " + ec.message());
  if (uop::rt::Result<bool> ok = uop::rt::checkOutputPath(path); !ok)
    return makeError(ok.error());
  std::string tmp = path + ".tmp-" + std::to_string(getpid());
  FILE *f = std::fopen(tmp.c_str(), "w");
  if (!f)
    return makeError(tmp + ": cannot write: " + std::strerror(errno));
  std::fprintf(f, "%s\n", llvm::join(columns, ",").c_str());
  std::fflush(f);
  return CsvWriter(path, tmp, f, columns.size());
}

CsvWriter::CsvWriter(CsvWriter &&other) noexcept
    : filePath(std::move(other.filePath)), tmpPath(std::move(other.tmpPath)), file(other.file),
      columns(other.columns), failed(other.failed) {
  other.file = nullptr;
}

CsvWriter &CsvWriter::operator=(CsvWriter &&other) noexcept {
  if (this != &other) {
    if (file)
      llvm::consumeError(finish());
    filePath = std::move(other.filePath);
    tmpPath = std::move(other.tmpPath);
    file = other.file;
    columns = other.columns;
    failed = other.failed;
    other.file = nullptr;
  }
  return *this;
}

CsvWriter::~CsvWriter() {
  if (file)
    llvm::consumeError(finish());
}

llvm::Error CsvWriter::finish() {
  if (!file)
    return llvm::Error::success();
  bool ok = !failed && std::fflush(file) == 0 && !std::ferror(file);
  ok = (std::fclose(file) == 0) && ok;
  file = nullptr;
  // A failed write leaves the old file (if any), not a truncated one.
  if (!ok || std::rename(tmpPath.c_str(), filePath.c_str()) != 0) {
    std::string why = std::strerror(errno);
    std::remove(tmpPath.c_str());
    return makeError(filePath + ": write failed: " + why);
  }
  return llvm::Error::success();
}

llvm::Error CsvWriter::row(const std::vector<double> &values) {
  if (!file)
    return makeError(filePath + ": the CSV is closed");
  if (values.size() != columns)
    return makeError(filePath + ": a row of " + llvm::Twine(values.size()) +
                     " values, but the header has " + llvm::Twine(columns) + " columns");
  for (size_t i = 0; i < values.size(); ++i)
    std::fprintf(file, "%s%.9g", i ? "," : "", values[i]);
  std::fputc('\n', file);
  if (std::fflush(file) != 0 || std::ferror(file)) {
    failed = true;
    return makeError(filePath + ": write failed: " + std::strerror(errno));
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// plot
//===----------------------------------------------------------------------===//

/// A gnuplot string literal (single quotes: no escapes but '').
static std::string quote(llvm::StringRef s) {
  std::string r = "'";
  for (char c : s)
    r += c == '\'' ? std::string("''") : std::string(1, c);
  return r + "'";
}

std::string gnuplotScript(const PlotSpec &spec) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (llvm::StringRef(spec.output).ends_with(".svg"))
    os << "set terminal svg size 800,500 dynamic background rgb 'white'\n";
  else
    os << "set terminal pngcairo size 800,500\n";
  os << "set output " << quote(spec.output) << "\n"
     << "set datafile separator ','\n"
     << "set key autotitle columnhead\n"
     << "set title " << quote(spec.title) << " noenhanced\n"
     << "set xlabel " << quote(spec.xlabel) << "\n"
     << "set ylabel " << quote(spec.ylabel) << "\n"
     << "set grid\n";
  if (spec.logY)
    os << "set logscale y\n";
  os << "plot ";
  for (size_t i = 0; i < spec.columns.size(); ++i)
    os << (i ? ", " : "") << quote(spec.csv) << " using 1:" << spec.columns[i]
       << " with lines lw 2";
  os << "\n";
  return s;
}

llvm::Error plot(const PlotSpec &spec) {
  llvm::StringRef out(spec.output);
  if (!out.ends_with(".png") && !out.ends_with(".svg"))
    return makeError(spec.output + ": a plot is a .png or an .svg");
  if (uop::rt::Result<bool> ok = uop::rt::checkOutputPath(spec.output); !ok)
    return makeError(ok.error());
  llvm::ErrorOr<std::string> gnuplot = llvm::sys::findProgramByName("gnuplot");
  if (!gnuplot)
    return makeError("gnuplot is not installed, so " + spec.output +
                     " was not drawn (the numbers are in " + spec.csv +
                     "); install Debian's gnuplot-nox (scripts/setup.sh does)");
  llvm::SmallString<128> script;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("uop-plot", "gp", script))
    return makeError("cannot create a gnuplot script: " + ec.message());
  // gnuplot draws beside the output (same extension), renamed when complete.
  PlotSpec drawn = spec;
  drawn.output = spec.output + ".tmp-" + std::to_string(getpid()) +
                 (out.ends_with(".svg") ? ".svg" : ".png");
  {
    std::ofstream f(script.c_str());
    f << gnuplotScript(drawn);
    if (!f)
      return makeError(llvm::Twine(script) + ": cannot write the gnuplot script");
  }
  std::string message;
  llvm::StringRef args[] = {*gnuplot, script};
  int rc = llvm::sys::ExecuteAndWait(*gnuplot, args, std::nullopt, {}, 0, 0, &message);
  llvm::sys::fs::remove(script);
  if (rc != 0) {
    llvm::sys::fs::remove(drawn.output);
    return makeError("gnuplot failed drawing " + spec.output + " (exit status " + llvm::Twine(rc) +
                     (message.empty() ? "" : ": " + message) + ")");
  }
  if (!llvm::sys::fs::exists(drawn.output))
    return makeError("gnuplot did not write " + spec.output);
  if (std::error_code ec = llvm::sys::fs::rename(drawn.output, spec.output)) {
    llvm::sys::fs::remove(drawn.output);
    return makeError(spec.output + ": cannot write: " + ec.message());
  }
  return llvm::Error::success();
}

void reportMetrics(const std::string &csv, const std::string &png, const std::string &title,
                   FILE *out) {
  std::fprintf(out, "metrics: %s\n", csv.c_str());
  if (llvm::Error e = plot(PlotSpec{csv, png, title}))
    std::fprintf(out, "loss curve: not drawn: %s\n", llvm::toString(std::move(e)).c_str());
  else
    std::fprintf(out, "loss curve: %s\n", png.c_str());
}

llvm::Expected<double> checkLoss(llvm::Expected<double> loss, int64_t step) {
  if (!loss || std::isfinite(*loss))
    return loss;
  return makeError("the loss is " + llvm::Twine(std::isnan(*loss) ? "NaN" : "infinite") +
                   " at step " + llvm::Twine(step) + ": training diverged");
}

//===----------------------------------------------------------------------===//
// Host, flags, errors
//===----------------------------------------------------------------------===//

std::string hostCpuDescription() {
  std::string model = "unknown CPU";
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);) {
    llvm::StringRef l(line);
    if (l.starts_with("model name")) {
      model = l.split(':').second.trim().str();
      break;
    }
  }
  unsigned cores = std::thread::hardware_concurrency();
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    cores = static_cast<unsigned>(CPU_COUNT(&set));
  return model + " (" + std::to_string(cores) + (cores == 1 ? " core)" : " cores)");
}

std::string hostLoad() {
  std::ifstream f("/proc/loadavg");
  std::string first;
  if (!(f >> first))
    return "";
  return "load " + first;
}

Flags &Flags::add(std::string name, int64_t *v, std::string help) {
  flags.push_back({std::move(name), std::move(help), v, nullptr, nullptr});
  return *this;
}
Flags &Flags::add(std::string name, double *v, std::string help) {
  flags.push_back({std::move(name), std::move(help), nullptr, v, nullptr});
  return *this;
}
Flags &Flags::add(std::string name, std::string *v, std::string help) {
  flags.push_back({std::move(name), std::move(help), nullptr, nullptr, v});
  return *this;
}

/// `v` in as few digits as name it (%g): 0.001, not formatv's 0.00.
static std::string shortest(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string Flags::help() const {
  std::string s = "usage: " + program + " " + usage + "\n";
  for (const Flag &f : flags) {
    std::string value = f.intValue      ? std::to_string(*f.intValue)
                        : f.doubleValue ? shortest(*f.doubleValue)
                                        : "'" + *f.stringValue + "'";
    s += "  --" + f.name + "=" + (f.stringValue ? "S" : "N") + "  " + f.help + " (default " +
         value + ")\n";
  }
  s += "  --memory-budget=SIZE  the most memory all buffers may take together (512M, 8G; "
       "default $UOP_MEMORY_BUDGET or the physical memory)\n";
  return s;
}

llvm::Error checkFits(llvm::ArrayRef<int64_t> dims, size_t elemBytes, const std::string &what) {
  uint64_t bytes = elemBytes;
  for (int64_t d : dims)
    if (d < 0 || __builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes))
      return makeError("cannot allocate " + what + ": its size overflows 64 bits");
  if (uop::rt::Result<bool> ok = uop::rt::reserveMemory(bytes, what); !ok)
    return makeError(ok.error());
  uop::rt::releaseMemory(bytes);
  return llvm::Error::success();
}

llvm::Error Flags::parse(int argc, char **argv) {
  if (program.empty())
    program = llvm::sys::path::filename(argv[0]).str();
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a(argv[i]);
    if (a == "--help" || a == "-h") {
      std::fputs(help().c_str(), stdout);
      std::exit(0);
    }
    if (!a.starts_with("--")) {
      if (a.size() > 1 && a.starts_with("-"))
        return makeError("unknown option " + a + " (options start with --; --help lists them)");
      if (!allowPositional)
        return makeError("unexpected argument '" + a + "' (--help lists the options)");
      positional.push_back(a.str());
      continue;
    }
    if (a == "--")
      return makeError("unexpected argument '--' (--help lists the options)");
    auto [name, value] = a.drop_front(2).split('=');
    bool hasValue = a.contains('=');
    if (name == "memory-budget") {
      // Every example's: the budget all its buffers draw from.
      if (!hasValue) {
        if (i + 1 >= argc)
          return makeError("--memory-budget needs a value");
        value = argv[++i];
      }
      if (uop::rt::Result<bool> ok = uop::rt::setMemoryBudget(value.str()); !ok)
        return makeError(ok.error());
      continue;
    }
    Flag *flag = nullptr;
    for (Flag &f : flags)
      if (f.name == name)
        flag = &f;
    if (!flag)
      return makeError("unknown option --" + name + " (--help lists them)");
    if (!hasValue) {
      if (i + 1 >= argc)
        return makeError("--" + name + " needs a value");
      value = argv[++i];
    }
    if (flag->intValue) {
      long long n;
      if (value.getAsInteger(10, n))
        return makeError("--" + name + ": '" + value + "' is not an integer");
      *flag->intValue = n;
    } else if (flag->doubleValue) {
      double d;
      if (value.getAsDouble(d) || !std::isfinite(d))
        return makeError("--" + name + ": '" + value + "' is not a finite number");
      *flag->doubleValue = d;
    } else {
      *flag->stringValue = value.str();
    }
  }
  return llvm::Error::success();
}

int reportError(const char *program, llvm::Error err) {
  std::string message = llvm::toString(std::move(err));
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: %s\n", program, message.c_str());
  return 1;
}

} // namespace uop::examples
