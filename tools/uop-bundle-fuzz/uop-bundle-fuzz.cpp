//===- uop-bundle-fuzz.cpp - libFuzzer target for bundles (.uopx) -*- C++ -*-===//
//
// Feeds arbitrary bytes to the bundle readers: decodeBundle (a program,
// format 1) and decodeStepBundle (a training step, format 2), as they come
// and once more with the header's size and the SHA-256 made right (a crafted
// bundle: the checksum guards against damage, not against an author), so
// that the fuzzer reaches the entries, the host plans, the step text and
// the tensors' .npy. The same bytes are read as a file that is not regular
// too (a pipe, by its /proc/self/fd path, as a FIFO or a device is).
//
// Malformed input must give one line of error that names the input, never a
// crash, a sanitizer report, a huge allocation or an abort. A bundle that
// reads must hold a plan whose every reference is in range (values fit
// their arguments, launches name kernels and arguments that exist), that
// round-trips through its text, that matches its own code signature and
// whose check against its PTX's signature (if any) is one line; and it must
// encode to bytes that read back the same. Nothing is loaded or run.
//
// Build with -DUOP_ENABLE_FUZZ=ON (clang); run as
//   build/bin/uop-bundle-fuzz CORPUS_DIR fuzz/bundle-corpus -dict=fuzz/bundle.dict
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Bundle.h"
#include "Uop/Runtime/Cache.h"
#include "Uop/Runtime/Step.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

using namespace uop::rt;

namespace {

[[noreturn]] void die(const char *what, const std::string &detail) {
  std::fprintf(stderr, "uop-bundle-fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

/// An error must name `name` on one line of reasonable length.
void checkError(const std::string &e, const std::string &name) {
  if (e.rfind(name + ": ", 0) != 0)
    die("error does not name the input", e);
  if (e.find('\n') != std::string::npos)
    die("error is not one line", e);
  if (e.size() > 4096)
    die("error is too long", e.substr(0, 200));
}

/// A plan's references are in range, and its text and signature agree
/// with it.
void checkPlan(const HostPlan &plan, const std::string &ptx) {
  for (const PlanArg &a : plan.args)
    if (a.numel < 1)
      die("an argument of no elements", plan.serialize());
  for (const PlanValue &v : plan.values) {
    if (v.arg >= plan.args.size())
      die("a value of no argument", plan.serialize());
    int64_t n = 1;
    for (int64_t d : v.shape)
      if (d < 0 || __builtin_mul_overflow(n, d, &n))
        die("a value's shape overflows", plan.serialize());
    if (n > plan.args[v.arg].numel)
      die("a value larger than its argument", plan.serialize());
  }
  for (const PlanLaunch &l : plan.launches) {
    if (l.kernel >= plan.kernels.size())
      die("a launch of no kernel", plan.serialize());
    for (unsigned a : l.args)
      if (a >= plan.args.size())
        die("a launch of no argument", plan.serialize());
  }
  for (const PlanArg &a : plan.args)
    if (a.kind == PlanArg::Check && (a.slot < 0 || a.slot >= (int64_t)plan.kernels.size()))
      die("a check record of no kernel", plan.serialize());
  Result<HostPlan> again = HostPlan::parse(plan.serialize());
  if (!again)
    die("a plan's text does not read back", again.error());
  if (again->serialize() != plan.serialize())
    die("a plan's text changed on a round trip", plan.serialize());
  if (Result<bool> ok = plan.checkCodeSignature(plan.codeSignature()); !ok)
    die("a plan does not match its own signature", ok.error());
  if (Result<bool> ok = plan.checkCodeSignature(ptxPlanSignature(ptx)); !ok)
    if (ok.error().find('\n') != std::string::npos || ok.error().size() > 4096)
      die("a signature mismatch is not one line", ok.error().substr(0, 200));
}

void program(std::string_view bytes, const std::string &name) {
  Result<Bundle> b = decodeBundle(bytes, name);
  if (!b) {
    checkError(b.error(), name);
    return;
  }
  checkPlan(b->plan, b->ptx);
  Result<Bundle> again = decodeBundle(encodeBundle(*b), "re");
  if (!again)
    die("a bundle does not read back", again.error());
  if (again->plan.serialize() != b->plan.serialize() || again->library != b->library ||
      again->ptx != b->ptx || again->cubin != b->cubin || again->arch != b->arch ||
      again->target != b->target)
    die("a bundle changed on a round trip", b->plan.serialize());
}

void step(std::string_view bytes, const std::string &name) {
  Result<StepBundle> s = decodeStepBundle(bytes, name);
  if (!s) {
    checkError(s.error(), name);
    return;
  }
  for (const StepBundle::Program &p : s->programs)
    checkPlan(p.plan, s->target == Backend::CUDA ? p.code : std::string());
  Result<StepBundle> again = decodeStepBundle(encodeStepBundle(*s), "re");
  if (!again)
    die("a step bundle does not read back", again.error());
  if (again->step.serialize() != s->step.serialize() ||
      again->programs.size() != s->programs.size() || again->tensors.size() != s->tensors.size())
    die("a step bundle changed on a round trip", s->step.serialize());
}

/// `bytes` with the header's size and the checksum made right (as is when
/// it has no header).
std::string rechecksummed(std::string_view bytes) {
  std::string out(bytes);
  if (out.size() < 24 + 32)
    return out;
  uint64_t size = out.size();
  for (int i = 0; i < 8; ++i)
    out[16 + i] = static_cast<char>((size >> (8 * i)) & 0xff);
  std::array<uint8_t, 32> d = Sha256().update(std::string_view(out).substr(0, size - 32)).final();
  std::memcpy(&out[size - 32], d.data(), 32);
  return out;
}

/// readBundle of `bytes` through a pipe: it must agree with decodeBundle.
void throughPipe(std::string_view bytes) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return;
  int capacity = fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
  if (capacity < 0)
    capacity = fcntl(fds[1], F_GETPIPE_SZ);
  bool fits = capacity > 0 && bytes.size() <= static_cast<size_t>(capacity);
  size_t done = 0;
  while (fits && done < bytes.size()) {
    ssize_t w = ::write(fds[1], bytes.data() + done, bytes.size() - done);
    if (w <= 0)
      fits = false;
    else
      done += static_cast<size_t>(w);
  }
  ::close(fds[1]);
  if (fits) {
    std::string path = "/proc/self/fd/" + std::to_string(fds[0]);
    Result<Bundle> piped = readBundle(path);
    Result<Bundle> mem = decodeBundle(bytes, path);
    if (piped.ok() != mem.ok())
      die("a pipe and memory disagree",
          piped.ok() ? "the pipe read a bundle, memory: " + mem.error()
                     : "memory read a bundle, the pipe: " + piped.error());
    if (!piped)
      checkError(piped.error(), path);
    else if (piped->plan.serialize() != mem->plan.serialize() || piped->library != mem->library ||
             piped->ptx != mem->ptx)
      die("a pipe and memory read different bundles", mem->plan.serialize());
  }
  ::close(fds[0]);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  program(bytes, "fuzz.uopx");
  step(bytes, "fuzz.uopx");
  std::string crafted = rechecksummed(bytes);
  program(crafted, "fuzz.uopx");
  step(crafted, "fuzz.uopx");
  throughPipe(crafted);
  return 0;
}
