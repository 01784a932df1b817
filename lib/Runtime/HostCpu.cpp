//===- HostCpu.cpp - can this CPU run code built for a target --*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/HostCpu.h"

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

using namespace uop::rt;

namespace {

/// LLVM's x86 feature names and the Linux /proc/cpuinfo flag that says a
/// CPU has the feature (the kernel's names, arch/x86/include/asm/
/// cpufeatures.h). Features that change what code the compiler may emit.
constexpr std::pair<std::string_view, std::string_view> kFlags[] = {
    {"64bit", "lm"},
    {"adx", "adx"},
    {"aes", "aes"},
    {"amx-bf16", "amx_bf16"},
    {"amx-int8", "amx_int8"},
    {"amx-tile", "amx_tile"},
    {"avx", "avx"},
    {"avx2", "avx2"},
    {"avx512bf16", "avx512_bf16"},
    {"avx512bitalg", "avx512_bitalg"},
    {"avx512bw", "avx512bw"},
    {"avx512cd", "avx512cd"},
    {"avx512dq", "avx512dq"},
    {"avx512f", "avx512f"},
    {"avx512fp16", "avx512_fp16"},
    {"avx512ifma", "avx512ifma"},
    {"avx512vbmi", "avx512vbmi"},
    {"avx512vbmi2", "avx512_vbmi2"},
    {"avx512vl", "avx512vl"},
    {"avx512vnni", "avx512_vnni"},
    {"avx512vp2intersect", "avx512_vp2intersect"},
    {"avx512vpopcntdq", "avx512_vpopcntdq"},
    {"avxvnni", "avx_vnni"},
    {"bmi", "bmi1"},
    {"bmi2", "bmi2"},
    {"clflushopt", "clflushopt"},
    {"clwb", "clwb"},
    {"cmov", "cmov"},
    {"cx16", "cx16"},
    {"cx8", "cx8"},
    {"f16c", "f16c"},
    {"fma", "fma"},
    {"fma4", "fma4"},
    {"fsgsbase", "fsgsbase"},
    {"fxsr", "fxsr"},
    {"gfni", "gfni"},
    {"lzcnt", "abm"},
    {"mmx", "mmx"},
    {"movbe", "movbe"},
    {"pclmul", "pclmulqdq"},
    {"popcnt", "popcnt"},
    {"prfchw", "3dnowprefetch"},
    {"rdrnd", "rdrand"},
    {"rdseed", "rdseed"},
    {"sahf", "lahf_lm"},
    {"sha", "sha_ni"},
    {"sse", "sse"},
    {"sse2", "sse2"},
    {"sse3", "pni"},
    {"sse4.1", "sse4_1"},
    {"sse4.2", "sse4_2"},
    {"sse4a", "sse4a"},
    {"ssse3", "ssse3"},
    {"vaes", "vaes"},
    {"vpclmulqdq", "vpclmulqdq"},
    {"xsave", "xsave"},
    {"xsavec", "xsavec"},
    {"xsaveopt", "xsaveopt"},
    {"xsaves", "xsaves"},
};

/// This CPU's flags: UOP_CPU_FLAGS, else the first `flags` line of
/// /proc/cpuinfo; nullopt-like empty with `known` false if neither.
std::set<std::string> hostFlags(bool &known) {
  std::string line;
  if (const char *env = std::getenv("UOP_CPU_FLAGS")) {
    line = env;
  } else {
    std::ifstream in("/proc/cpuinfo");
    std::string l;
    while (std::getline(in, l))
      if (l.rfind("flags", 0) == 0) {
        line = l.substr(l.find(':') == std::string::npos ? l.size() : l.find(':') + 1);
        break;
      }
    if (line.empty()) {
      known = false;
      return {};
    }
  }
  known = true;
  std::set<std::string> flags;
  std::istringstream words(line);
  for (std::string w; words >> w;)
    flags.insert(w);
  return flags;
}

} // namespace

std::vector<std::string> uop::rt::missingCpuFeatures(const std::string &llvmFeatures) {
  bool known = false;
  std::set<std::string> flags = hostFlags(known);
  std::vector<std::string> missing;
  if (!known)
    return missing;
  std::istringstream list(llvmFeatures);
  for (std::string f; std::getline(list, f, ',');) {
    if (f.size() < 2 || f[0] != '+')
      continue;
    std::string_view name(f.data() + 1, f.size() - 1);
    for (auto [llvm, flag] : kFlags)
      if (llvm == name && !flags.count(std::string(flag)))
        missing.push_back(std::string(name));
  }
  return missing;
}
