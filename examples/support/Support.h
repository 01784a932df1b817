//===- Support.h - what every example shares ----------------------*- C++ -*-===//
//
// The examples' small helpers: a progress line, a CSV writer for metrics,
// plots drawn by gnuplot (run as a process, as a user would) and the lines
// that end a training run. No uop
// dependency: an example that uses uop as an outside project would includes
// this next to the uop headers.
//
//   Progress progress("train", steps);
//   for (int64_t s = 0; s < steps; ++s) progress.update(s + 1, loss);
//   progress.finish();
//
//===----------------------------------------------------------------------===//

#ifndef UOP_EXAMPLES_SUPPORT_H
#define UOP_EXAMPLES_SUPPORT_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace uop::examples {

/// "0.8s", "12s", "3m05s", "1h02m": the ETA of a progress line.
std::string formatDuration(double seconds);

/// A progress line: step/total, loss, ms/step and ETA. On a terminal it is
/// redrawn in place (`\r`, at most ~10 times a second, and at the last
/// step); elsewhere (a log, a pipe) it prints one plain line every `every`
/// steps and at the last step, so logs stay readable.
class Progress {
public:
  /// `every` = 0 picks total / 10 (at least 1). `interactive` defaults to
  /// whether `out` is a terminal.
  Progress(std::string label, int64_t total, int64_t every = 0, FILE *out = stdout,
           int interactive = -1);
  /// Reports that `step` (1-based) of `total` is done with `loss`; `extra`
  /// is appended to the line ("acc 81.2%").
  void update(int64_t step, double loss, const std::string &extra = "");
  /// Ends an in-place line with a newline (idempotent).
  void finish();
  /// Milliseconds per step so far.
  double msPerStep() const;
  /// The line update() would print now.
  std::string line(int64_t step, double loss, const std::string &extra) const;

private:
  std::string label;
  int64_t total, every;
  FILE *out;
  bool interactive;
  bool open = false;
  int64_t lastStep = 0;
  std::chrono::steady_clock::time_point start, lastDraw;
};

/// A CSV file of metrics: a header row, then one row per call (numbers in
/// their shortest round-trip form). It is written beside its path (flushed as
/// it goes, so a crash keeps what was measured there) and renamed over the
/// path by finish() or the destructor, so the path holds a complete file or
/// its old one; a path that is a directory, FIFO or device is refused.
class CsvWriter {
public:
  static llvm::Expected<CsvWriter> create(const std::string &path,
                                          const std::vector<std::string> &columns);
  CsvWriter(CsvWriter &&other) noexcept;
  CsvWriter &operator=(CsvWriter &&other) noexcept;
  ~CsvWriter();
  /// One value per column (else an error).
  llvm::Error row(const std::vector<double> &values);
  /// Closes the file and puts it at path(); no rows after it.
  llvm::Error finish();
  const std::string &path() const { return filePath; }

private:
  CsvWriter(std::string path, std::string tmp, FILE *file, size_t columns)
      : filePath(std::move(path)), tmpPath(std::move(tmp)), file(file), columns(columns) {}
  std::string filePath, tmpPath;
  FILE *file = nullptr;
  size_t columns = 0;
  bool failed = false;
};

/// A line plot of CSV columns against its first column.
struct PlotSpec {
  std::string csv;    ///< written by CsvWriter (a header row)
  std::string output; ///< .png (pngcairo) or .svg
  std::string title;
  std::string xlabel = "step";
  std::string ylabel = "loss";
  std::vector<int> columns{2}; ///< 1-based CSV columns to draw (against column 1)
  bool logY = false;
};

/// The gnuplot script for `spec` (what plot() feeds gnuplot).
std::string gnuplotScript(const PlotSpec &spec);

/// Draws `spec` with gnuplot (found on PATH). Errors: gnuplot missing ("...
/// install Debian's gnuplot-nox"), an output that is neither .png nor .svg,
/// gnuplot failing (its exit status).
llvm::Error plot(const PlotSpec &spec);

/// The end of a training example's run: prints "metrics: CSV" to `out`,
/// draws the loss curve of `csv` (its column 2 against column 1, titled
/// `title`) into `png` and prints "loss curve: PNG", or "loss curve: not
/// drawn: WHY" when it cannot (no gnuplot is no error: the numbers are in
/// the CSV).
void reportMetrics(const std::string &csv, const std::string &png, const std::string &title,
                   FILE *out = stdout);

/// `loss`, the loss of training step `step`, if it is finite; else its
/// error, or "the loss is NaN at step 579: training diverged".
llvm::Expected<double> checkLoss(llvm::Expected<double> loss, int64_t step);

/// The host CPU as "AMD EPYC 7B13 (2 cores)" (from /proc/cpuinfo and the
/// number of CPUs this process may run on).
std::string hostCpuDescription();

/// The 1-minute load average from /proc/loadavg ("load 1.23"), or "" where
/// there is none: timings on a busy machine are worth less.
std::string hostLoad();

/// An error unless an array of the product of `dims` elements of
/// `elemBytes` bytes each fits in the memory budget now (rt::Memory.h), for
/// the host arrays an example sizes from its flags: a std::vector that
/// cannot allocate would abort the program instead of saying why.
llvm::Error checkFits(llvm::ArrayRef<int64_t> dims, size_t elemBytes, const std::string &what);

/// Integer and string command-line flags of the form `--name=value` or
/// `--name value`; unknown flags, malformed numbers, single-dash options
/// (`-n=3`) and, unless `allowPositional`, arguments that are no option are
/// errors (a mistyped option must not be ignored).
struct Flags {
  struct Flag {
    std::string name, help;
    int64_t *intValue = nullptr;
    double *doubleValue = nullptr;
    std::string *stringValue = nullptr;
  };
  std::string program, usage;
  std::vector<Flag> flags;
  std::vector<std::string> positional;
  bool allowPositional = false;

  Flags &add(std::string name, int64_t *v, std::string help);
  Flags &add(std::string name, double *v, std::string help);
  Flags &add(std::string name, std::string *v, std::string help);
  /// Parses argv; `--help` prints the usage and exits 0; an error returns
  /// a message for `program: error: ...`.
  llvm::Error parse(int argc, char **argv);
  std::string help() const;
};

/// An error with `message` (and no error code: what the examples return).
llvm::Error makeError(const llvm::Twine &message);

/// Prints "PROGRAM: error: MESSAGE" for `err` and returns 1 (for main).
int reportError(const char *program, llvm::Error err);

} // namespace uop::examples

#endif // UOP_EXAMPLES_SUPPORT_H
