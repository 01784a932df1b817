//===- TestUtil.h - Helpers shared by the runtime gtests --------*- C++ -*-===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_UNITTESTS_RUNTIME_TESTUTIL_H
#define UOP_UNITTESTS_RUNTIME_TESTUTIL_H

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace uop::rt::test {

/// A fresh directory under $TMPDIR (or /tmp), removed with its contents on
/// destruction.
class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/uop-rt-test-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()))
      dir = buf.data();
  }
  ~TempDir() {
    if (!dir.empty())
      std::system(("rm -rf '" + dir + "'").c_str());
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return dir; }
  std::string file(const std::string &name) const { return dir + "/" + name; }

private:
  std::string dir;
};

/// Sets an environment variable for the lifetime of the object; restores the
/// old value (or unsets it) afterwards.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name)) {
      hadOld = true;
      oldValue = old;
    }
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (hadOld)
      setenv(name.c_str(), oldValue.c_str(), 1);
    else
      unsetenv(name.c_str());
  }

private:
  std::string name, oldValue;
  bool hadOld = false;
};

inline std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline bool writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

/// True when /usr/bin/python3 can import numpy.
inline bool haveNumpy() {
  static int have = -1;
  if (have < 0)
    have = std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0;
  return have == 1;
}

/// Runs a Python script (with numpy available) with `args`; returns its exit
/// status, 0 on success. stdout goes to `outPath` when given.
inline int runPython(const TempDir &tmp, const std::string &script, const std::string &args,
                     const std::string &outPath = "") {
  std::string scriptPath = tmp.file("script.py");
  writeFile(scriptPath, script);
  std::string cmd = "/usr/bin/python3 '" + scriptPath + "' " + args;
  if (!outPath.empty())
    cmd += " > '" + outPath + "'";
  return std::system(cmd.c_str());
}

} // namespace uop::rt::test

#endif // UOP_UNITTESTS_RUNTIME_TESTUTIL_H
