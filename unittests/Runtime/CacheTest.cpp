//===- CacheTest.cpp - Tests of SHA-256 and the compiled-code cache -------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "Uop/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <dirent.h>
#include <functional>
#include <set>
#include <sys/stat.h>
#include <sys/time.h>
#include <csignal>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace uop::rt;
using uop::rt::test::ScopedEnv;
using uop::rt::test::TempDir;

namespace {

TEST(Sha256Test, KnownVectors) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hashKey(""), "e3b0c44298fc1c149afbf4c8996fb924");
  EXPECT_EQ(hashKey("abc"), "ba7816bf8f01cfea414140de5dae2223");
}

TEST(Sha256Test, IncrementalMatchesOneShot) {
  // One million 'a' (a FIPS vector), fed in chunks of awkward sizes.
  std::string million(1000000, 'a');
  Sha256 h;
  size_t pos = 0, step = 1;
  while (pos < million.size()) {
    size_t n = std::min(step, million.size() - pos);
    h.update(std::string_view(million).substr(pos, n));
    pos += n;
    step = step * 7 % 131 + 1;
  }
  EXPECT_EQ(h.finalHex(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // Every length around the 55/56/64-byte padding boundaries.
  for (size_t n = 0; n < 200; ++n) {
    std::string s(n, 'x');
    Sha256 a;
    a.update(s.substr(0, n / 3)).update(s.substr(n / 3));
    EXPECT_EQ(a.finalHex(), sha256Hex(s)) << n;
  }
  EXPECT_EQ(sha256Hex(std::string(55, 'a')),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(sha256Hex(std::string(56, 'a')),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(sha256Hex(std::string(64, 'a')),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

/// Names in `dir` other than "." and "..".
std::set<std::string> listDir(const std::string &dir) {
  std::set<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..")
        names.insert(n);
    }
    closedir(d);
  }
  return names;
}

/// The files in a cache's tmp/ other than the lock files of live processes'
/// claims (this one's): what a compile left behind.
std::set<std::string> temps(const std::string &dir) {
  std::set<std::string> names;
  for (const std::string &n : listDir(dir))
    if (n.size() < 5 || n.compare(n.size() - 5, 5, ".lock") != 0)
      names.insert(n);
  return names;
}

TEST(CacheTest, DirectoryFromEnvironment) {
  TempDir tmp;
  {
    ScopedEnv env("UOP_CACHE", tmp.file("a/b/c").c_str());
    EXPECT_EQ(cacheDir(), tmp.file("a/b/c"));
    struct stat st;
    ASSERT_EQ(stat(tmp.file("a/b/c").c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode));
  }
  {
    ScopedEnv env("UOP_CACHE", nullptr);
    ScopedEnv home("HOME", tmp.path().c_str());
    EXPECT_EQ(cacheDir(), tmp.file(".cache/uop"));
  }
  {
    ScopedEnv env("UOP_CACHE", "");
    ScopedEnv home("HOME", tmp.path().c_str());
    EXPECT_EQ(cacheDir(), tmp.file(".cache/uop"));
  }
}

TEST(CacheTest, InstallAndLookup) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string key = hashKey("program|target|flags");
  EXPECT_EQ(cacheLookup(key, ".so"), "");

  std::string t = cacheTempPath(".so");
  EXPECT_EQ(t.rfind(tmp.file("tmp/"), 0), 0u) << t;
  EXPECT_EQ(t.substr(t.size() - 3), ".so");
  ASSERT_TRUE(test::writeFile(t, "compiled code"));
  Result<std::string> r = cacheInstall(t, key, ".so");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value(), tmp.file(key + ".so"));
  EXPECT_EQ(test::readFile(r.value()), "compiled code");
  EXPECT_EQ(access(t.c_str(), F_OK), -1); // the temporary is consumed
  EXPECT_EQ(cacheLookup(key, ".so"), r.value());
  EXPECT_EQ(cacheLookup(key, "so"), r.value()); // the dot is optional
  EXPECT_EQ(cacheLookup(key, ".o"), "");
  EXPECT_EQ(cacheLookup(hashKey("other"), ".so"), "");

  // Installing again replaces the entry.
  std::string t2 = cacheTempPath("so");
  ASSERT_TRUE(test::writeFile(t2, "recompiled"));
  r = cacheInstall(t2, key, "so");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(test::readFile(r.value()), "recompiled");

  EXPECT_TRUE(cacheRemove(key, ".so"));
  EXPECT_FALSE(cacheRemove(key, ".so"));
  EXPECT_EQ(cacheLookup(key, ".so"), "");
  EXPECT_TRUE(temps(tmp.file("tmp")).empty());
}

TEST(CacheTest, InstallErrors) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  Result<std::string> r = cacheInstall(tmp.file("missing"), "k", ".so");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("missing: cannot install"), std::string::npos) << r.error();
  for (const char *bad : {"", "../evil", "a/b", "..", "sp ace"}) {
    std::string t = cacheTempPath(".so");
    ASSERT_TRUE(test::writeFile(t, "x"));
    r = cacheInstall(t, bad, ".so");
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_EQ(access(t.c_str(), F_OK), -1) << "temporary left behind";
    EXPECT_EQ(cacheLookup(bad, ".so"), "");
  }
  std::string t = cacheTempPath(".so");
  ASSERT_TRUE(test::writeFile(t, "x"));
  EXPECT_FALSE(cacheInstall(t, "k", "/x").ok());
}

// A temporary on another filesystem is copied into the cache, then renamed.
TEST(CacheTest, InstallFromElsewhere) {
  TempDir tmp, other;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string outside = other.file("built.so");
  ASSERT_TRUE(test::writeFile(outside, "outside"));
  Result<std::string> r = cacheInstall(outside, "key1", ".so");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(test::readFile(r.value()), "outside");
  EXPECT_EQ(access(outside.c_str(), F_OK), -1);
  if (access("/dev/shm", W_OK) == 0) {
    // /dev/shm is tmpfs: a real cross-filesystem rename (EXDEV) when the
    // cache is on disk.
    std::string shm = "/dev/shm/uop-rt-test-" + std::to_string(getpid());
    ASSERT_TRUE(test::writeFile(shm, "from shm"));
    r = cacheInstall(shm, "key2", ".so");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(test::readFile(r.value()), "from shm");
    EXPECT_EQ(access(shm.c_str(), F_OK), -1);
  }
  EXPECT_TRUE(temps(tmp.file("tmp")).empty());
}

TEST(CacheTest, TempPathsAreUnique) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::vector<std::vector<std::string>> perThread(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i)
        perThread[t].push_back(cacheTempPath(".o"));
    });
  for (std::thread &t : threads)
    t.join();
  std::set<std::string> all;
  for (auto &v : perThread)
    all.insert(v.begin(), v.end());
  EXPECT_EQ(all.size(), 2000u);
}

TEST(CacheTest, PruneTemps) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  EXPECT_EQ(cachePruneTemps(), 0u); // no tmp/ yet is fine
  std::string old = cacheTempPath(".o"), young = cacheTempPath(".o");
  ASSERT_TRUE(test::writeFile(old, "left by a crashed compile"));
  ASSERT_TRUE(test::writeFile(young, "a compile in progress"));
  struct timeval times[2] = {{1000000000, 0}, {1000000000, 0}}; // 2001
  ASSERT_EQ(utimes(old.c_str(), times), 0);
  EXPECT_EQ(cachePruneTemps(), 1u);
  EXPECT_EQ(access(old.c_str(), F_OK), -1);
  EXPECT_EQ(access(young.c_str(), F_OK), 0);
  EXPECT_EQ(cachePruneTemps(0) + cachePruneTemps(-10), 1u);
  EXPECT_TRUE(temps(tmp.file("tmp")).empty());
}

/// The content child `i` of a race installs: its index repeated, so a mix of
/// two writers or a partial file is detectable.
std::string childContent(int i) {
  return "child " + std::to_string(i) + "\n" +
         std::string(256 * 1024 + 97 * i, static_cast<char>('A' + i));
}

// Several processes compile "the same program" and install it under one key
// at the same moment; readers run alongside. Every reader sees a complete
// entry, the final entry is one writer's complete content, and no temporary
// is left behind.
TEST(CacheTest, ConcurrentInstallsFromManyProcesses) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  constexpr int kWriters = 8, kReaders = 2, kRounds = 5;
  std::set<std::string> contents;
  for (int i = 0; i < kWriters; ++i)
    contents.insert(childContent(i));

  for (int round = 0; round < kRounds; ++round) {
    std::string key = hashKey("round " + std::to_string(round));
    int gate[2];
    ASSERT_EQ(pipe(gate), 0);
    std::vector<pid_t> pids;
    for (int i = 0; i < kWriters + kReaders; ++i) {
      pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        close(gate[1]);
        int status = 0;
        if (i < kWriters) {
          // Build the artifact first, as a compiler would.
          std::string t = cacheTempPath(".so");
          if (!test::writeFile(t, childContent(i)))
            _exit(10);
          char c;
          (void)!read(gate[0], &c, 1); // wait for the start (EOF)
          if (!cacheInstall(t, key, ".so").ok())
            status = 11;
        } else {
          char c;
          (void)!read(gate[0], &c, 1);
          for (int n = 0; n < 300 && status == 0; ++n) {
            std::string warning;
            std::string p = cacheLookup(key, ".so", &warning);
            if (!p.empty() && !contents.count(test::readFile(p)))
              status = 12; // a partial or mixed entry
            else if (!warning.empty())
              status = 13; // an install in progress taken for corruption
          }
        }
        _exit(status);
      }
      pids.push_back(pid);
    }
    close(gate[0]);
    close(gate[1]); // everyone starts now
    for (pid_t pid : pids) {
      int status = 0;
      ASSERT_EQ(waitpid(pid, &status, 0), pid);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
          << "child exit " << WEXITSTATUS(status) << " in round " << round;
    }
    std::string final = cacheLookup(key, ".so");
    ASSERT_FALSE(final.empty());
    EXPECT_TRUE(contents.count(test::readFile(final)))
        << "the cached file is not one writer's complete content";
  }
  EXPECT_TRUE(temps(tmp.file("tmp")).empty()) << "temporary files remain";
  std::set<std::string> entries = listDir(tmp.path());
  // One entry per round, + tmp/ and checksums/ (one checksum per entry).
  EXPECT_EQ(entries.size(), static_cast<size_t>(kRounds) + 2);
  EXPECT_EQ(listDir(tmp.file("checksums")).size(), static_cast<size_t>(kRounds));
}

/// Installs `content` as `key`.so; the entry's path ("" on failure).
std::string installEntry(const std::string &key, const std::string &content) {
  std::string t = cacheTempPath(".so");
  if (!test::writeFile(t, content))
    return "";
  Result<std::string> r = cacheInstall(t, key, ".so");
  return r.ok() ? r.value() : "";
}

bool exists(const std::string &path) { return access(path.c_str(), F_OK) == 0; }

TEST(CacheHealTest, InstallWritesAChecksum) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string key = hashKey("checksummed");
  std::string path = installEntry(key, "abc");
  ASSERT_FALSE(path.empty());
  EXPECT_EQ(cacheChecksumPath(path), tmp.file("checksums/" + key + ".so.sha256"));
  EXPECT_EQ(cacheChecksumPath("a.so"), "checksums/a.so.sha256");
  EXPECT_EQ(test::readFile(cacheChecksumPath(path)),
            "uop-cache-checksum 1 3 "
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n");
  EXPECT_TRUE(cacheVerify(path).ok());
  std::string warning = "stale";
  EXPECT_EQ(cacheLookup(key, ".so", &warning), path);
  EXPECT_EQ(warning, "");
  EXPECT_TRUE(cacheRemove(key, ".so"));
  EXPECT_FALSE(exists(path));
  EXPECT_FALSE(exists(cacheChecksumPath(path)));
  EXPECT_TRUE(temps(tmp.file("tmp")).empty());
}

/// Damages a fresh entry with `damage`, then checks that the lookup reports
/// `why` in one line naming the path, removes the entry and its checksum, and
/// that a rebuild (a new install) is found again.
void expectHealed(const std::function<void(const std::string &)> &damage, const std::string &why) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string key = hashKey("entry " + why);
  std::string content(5000, 'k');
  content[100] = 'x';
  std::string path = installEntry(key, content);
  ASSERT_FALSE(path.empty());
  damage(path);
  Result<bool> verified = cacheVerify(path);
  ASSERT_FALSE(verified.ok()) << why;
  EXPECT_EQ(verified.error(), "the cache entry " + path + " " + why);
  std::string warning;
  EXPECT_EQ(cacheLookup(key, ".so", &warning), "");
  EXPECT_EQ(warning, "the cache entry " + path + " " + why + "; rebuilding it");
  EXPECT_EQ(warning.find('\n'), std::string::npos);
  EXPECT_FALSE(exists(path));
  EXPECT_FALSE(exists(cacheChecksumPath(path)));
  // Reported once: the next lookup is a plain miss.
  EXPECT_EQ(cacheLookup(key, ".so", &warning), "");
  EXPECT_EQ(warning, "");
  // The rebuild.
  ASSERT_EQ(installEntry(key, content), path);
  EXPECT_EQ(cacheLookup(key, ".so", &warning), path);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(test::readFile(path), content);
}

TEST(CacheHealTest, TruncatedEntry) {
  expectHealed([](const std::string &p) { ASSERT_EQ(truncate(p.c_str(), 1200), 0); },
               "is truncated (1200 bytes, expected 5000)");
  expectHealed([](const std::string &p) { ASSERT_EQ(truncate(p.c_str(), 0), 0); },
               "is truncated (0 bytes, expected 5000)");
}

TEST(CacheHealTest, FlippedByte) {
  expectHealed(
      [](const std::string &p) {
        std::string s = test::readFile(p);
        s[2500] ^= 0x10;
        ASSERT_TRUE(test::writeFile(p, s));
      },
      "is corrupted (checksum mismatch)");
}

TEST(CacheHealTest, GrownEntry) {
  expectHealed(
      [](const std::string &p) { ASSERT_TRUE(test::writeFile(p, test::readFile(p) + "tail")); },
      "is corrupted (5004 bytes, expected 5000)");
}

TEST(CacheHealTest, ForeignOrOldEntryWithoutChecksum) {
  // An entry of an older uop (no checksum file), or a file put there by hand.
  expectHealed([](const std::string &p) { ASSERT_EQ(unlink(cacheChecksumPath(p).c_str()), 0); },
               "has no checksum (written by an older uop, or not by uop)");
  // A foreign file replacing the entry, its checksum left over.
  expectHealed(
      [](const std::string &p) { ASSERT_TRUE(test::writeFile(p, std::string(5000, '\x7f'))); },
      "is corrupted (checksum mismatch)");
}

TEST(CacheHealTest, MalformedChecksumFile) {
  for (const char *sum : {"", "garbage\n", "uop-cache-checksum 1 5000 abc\n",
                          "uop-cache-checksum 2 5000 "
                          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n",
                          "uop-cache-checksum 1 5000 "
                          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"})
    expectHealed(
        [&](const std::string &p) { ASSERT_TRUE(test::writeFile(cacheChecksumPath(p), sum)); },
        "has a malformed checksum file");
}

TEST(CacheHealTest, NotARegularFile) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string key = hashKey("a directory");
  ASSERT_EQ(mkdir(tmp.file(key + ".so").c_str(), 0755), 0);
  std::string warning;
  EXPECT_EQ(cacheLookup(key, ".so", &warning), "");
  EXPECT_NE(warning.find("is not a regular file"), std::string::npos) << warning;
}

// The two-argument lookup (the callers of before) prints the warning itself.
TEST(CacheHealTest, PlainLookupPrintsOneWarning) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string key = hashKey("printed");
  std::string path = installEntry(key, "0123456789");
  ASSERT_EQ(truncate(path.c_str(), 4), 0);
  testing::internal::CaptureStderr();
  EXPECT_EQ(cacheLookup(key, ".so"), "");
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "uop: warning: the cache entry " + path +
                     " is truncated (4 bytes, expected 10); rebuilding it\n");
}

// An entry that cannot be removed (a read-only cache) is still a miss.
TEST(CacheHealTest, CorruptEntryInReadOnlyCache) {
  if (geteuid() == 0)
    GTEST_SKIP() << "root ignores directory permissions";
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string key = hashKey("read-only");
  std::string path = installEntry(key, "0123456789");
  ASSERT_EQ(truncate(path.c_str(), 4), 0);
  ASSERT_EQ(chmod(tmp.path().c_str(), 0555), 0);
  std::string warning;
  EXPECT_EQ(cacheLookup(key, ".so", &warning), "");
  EXPECT_NE(warning.find("rebuilding it (cannot remove it: Permission denied)"), std::string::npos)
      << warning;
  chmod(tmp.path().c_str(), 0755);
}

TEST(CacheDirTest, UsableDirectory) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.file("new/cache").c_str());
  Result<std::string> dir = cacheDirChecked();
  ASSERT_TRUE(dir.ok()) << dir.error();
  EXPECT_EQ(*dir, tmp.file("new/cache"));
  EXPECT_TRUE(temps(tmp.file("new/cache/tmp")).empty()); // no probe left
  EXPECT_EQ(listDir(tmp.file("new/cache")), std::set<std::string>{"tmp"});
}

TEST(CacheDirTest, FileInsteadOfDirectory) {
  TempDir tmp;
  std::string file = tmp.file("a-file");
  ASSERT_TRUE(test::writeFile(file, "x"));
  ScopedEnv env("UOP_CACHE", file.c_str());
  Result<std::string> dir = cacheDirChecked();
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error(), "the cache directory " + file +
                             " ($UOP_CACHE) is not a directory; set UOP_CACHE "
                             "to a writable directory");
  // Lookups are misses, installs fail with the same line, nothing crashes.
  EXPECT_EQ(cacheLookup(hashKey("x"), ".so"), "");
  std::string built = tmp.file("built.so");
  ASSERT_TRUE(test::writeFile(built, "code"));
  Result<std::string> r = cacheInstall(built, hashKey("x"), ".so");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), dir.error());
  EXPECT_FALSE(exists(built));
  // Below a file.
  ScopedEnv below("UOP_CACHE", (file + "/sub").c_str());
  dir = cacheDirChecked();
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.error().find("cannot create the cache directory " + file +
                             "/sub ($UOP_CACHE): Not a directory"),
            std::string::npos)
      << dir.error();
}

// The cache's own folders replaced by something else are healed (issue 32):
// tmp/ or checksums/ by a file, an entry or its checksum file by a directory.
TEST(CacheDirTest, TmpIsAFile) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  ASSERT_TRUE(test::writeFile(tmp.file("tmp"), "x"));
  Result<std::string> dir = cacheDirChecked();
  ASSERT_TRUE(dir.ok()) << dir.error();
  struct stat st;
  ASSERT_EQ(stat(tmp.file("tmp").c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
}

TEST(CacheHealTest, ChecksumsFolderIsAFile) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string key = hashKey("checksums is a file");
  std::string path = installEntry(key, "code");
  ASSERT_FALSE(path.empty());
  ASSERT_EQ(system(("rm -rf '" + tmp.file("checksums") + "'").c_str()), 0);
  ASSERT_TRUE(test::writeFile(tmp.file("checksums"), "not a folder"));
  std::string warning;
  EXPECT_EQ(cacheLookup(key, ".so", &warning), "");
  EXPECT_NE(warning.find("rebuilding it"), std::string::npos) << warning;
  // The rebuild heals the folder.
  ASSERT_EQ(installEntry(key, "code"), path);
  EXPECT_EQ(cacheLookup(key, ".so", &warning), path);
  EXPECT_EQ(warning, "");
}

TEST(CacheHealTest, EntryIsADirectory) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string key = hashKey("entry is a directory");
  std::string path = installEntry(key, "code");
  ASSERT_FALSE(path.empty());
  ASSERT_EQ(unlink(path.c_str()), 0);
  ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
  ASSERT_TRUE(test::writeFile(path + "/inside", "x"));
  std::string warning;
  EXPECT_EQ(cacheLookup(key, ".so", &warning), "");
  EXPECT_EQ(warning, "the cache entry " + path + " is not a regular file; rebuilding it");
  EXPECT_FALSE(exists(path));
  ASSERT_EQ(installEntry(key, "code"), path);
  EXPECT_EQ(cacheLookup(key, ".so", &warning), path);
  // A directory in its place when installing is replaced too.
  ASSERT_EQ(unlink(path.c_str()), 0);
  ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
  ASSERT_EQ(installEntry(key, "again"), path);
  EXPECT_EQ(test::readFile(path), "again");
}

TEST(CacheHealTest, ChecksumFileIsADirectory) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string key = hashKey("checksum is a directory");
  std::string path = installEntry(key, "code");
  ASSERT_FALSE(path.empty());
  std::string sum = cacheChecksumPath(path);
  ASSERT_EQ(unlink(sum.c_str()), 0);
  ASSERT_EQ(mkdir(sum.c_str(), 0755), 0);
  std::string warning;
  EXPECT_EQ(cacheLookup(key, ".so", &warning), "");
  EXPECT_NE(warning.find("rebuilding it"), std::string::npos) << warning;
  EXPECT_EQ(warning.find("cannot remove"), std::string::npos) << warning;
  ASSERT_EQ(installEntry(key, "code"), path);
  EXPECT_EQ(cacheLookup(key, ".so", &warning), path);
  EXPECT_EQ(warning, "");
}

// A compile killed between cacheTempPath() and cacheInstall() left its
// temporaries in tmp/ forever (issue 32); the next process to make a
// temporary there removes them, and a live process's are kept.
TEST(CacheTest, TempsOfAKilledProcessAreRemoved) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t killed = fork();
  ASSERT_GE(killed, 0);
  if (killed == 0) {
    std::string t = cacheTempPath(".o");
    test::writeFile(t, "half an object file");
    (void)!write(ready[1], "x", 1);
    raise(SIGKILL);
  }
  char c;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  int status = 0;
  ASSERT_EQ(waitpid(killed, &status, 0), killed);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(temps(tmp.file("tmp")).size(), 1u);
  // A live one, still compiling: its first temporary removes the killed
  // one's.
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  pid_t live = fork();
  ASSERT_GE(live, 0);
  if (live == 0) {
    close(go[1]);
    std::string t = cacheTempPath(".o");
    test::writeFile(t, "a compile in progress");
    (void)!write(ready[1], "x", 1);
    (void)!read(go[0], &c, 1);
    _exit(access(t.c_str(), F_OK) == 0 ? 0 : 1);
  }
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  EXPECT_EQ(temps(tmp.file("tmp")).size(), 1u);
  std::string mine = cacheTempPath(".o"); // this process's first: it keeps the live one's
  EXPECT_EQ(temps(tmp.file("tmp")).size(), 1u);
  close(go[1]);
  ASSERT_EQ(waitpid(live, &status, 0), live);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a live temporary was removed";
  // The live one has exited too (without cleaning up: _exit): pruning takes
  // its lock and leftovers, and keeps this process's claim.
  EXPECT_GE(cachePruneTemps(), 1u);
  EXPECT_TRUE(temps(tmp.file("tmp")).empty());
  EXPECT_EQ(listDir(tmp.file("tmp")).size(), 1u); // this process's lock
}

TEST(CacheDirTest, ReadOnlyDirectory) {
  // A directory that even root cannot write: /sys in most containers and
  // hosts. Otherwise (not root) a chmod 0555 directory.
  std::string ro;
  TempDir tmp;
  if (geteuid() != 0) {
    ASSERT_EQ(mkdir(tmp.file("ro").c_str(), 0555), 0);
    ro = tmp.file("ro");
  } else if (mkdir("/sys/uop-probe", 0755) != 0 && errno != EEXIST) {
    ro = "/sys";
  } else {
    rmdir("/sys/uop-probe");
    GTEST_SKIP() << "no read-only directory to test with";
  }
  ScopedEnv env("UOP_CACHE", ro.c_str());
  Result<std::string> dir = cacheDirChecked();
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error().rfind("the cache directory " + ro +
                                  " ($UOP_CACHE) is not writable: cannot "
                                  "create " +
                                  ro + "/tmp: ",
                              0),
            0u)
      << dir.error();
  EXPECT_EQ(std::count(dir.error().begin(), dir.error().end(), '\n'), 0);
  EXPECT_EQ(cacheLookup(hashKey("x"), ".so"), "");
  std::string built = tmp.file("built.so");
  ASSERT_TRUE(test::writeFile(built, "code"));
  Result<std::string> r = cacheInstall(built, hashKey("x"), ".so");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find(ro), std::string::npos) << r.error();
  EXPECT_EQ(std::count(r.error().begin(), r.error().end(), '\n'), 0);
}

// A compile of a few MB is checked on every lookup: measure it.
TEST(CacheHealTest, VerifyCostOfAFewMegabytes) {
  TempDir tmp;
  ScopedEnv env("UOP_CACHE", tmp.path().c_str());
  std::string content(8 << 20, 'c');
  for (size_t i = 0; i < content.size(); i += 4096)
    content[i] = static_cast<char>(i >> 12);
  std::string key = hashKey("big");
  std::string path = installEntry(key, content);
  ASSERT_FALSE(path.empty());
  auto start = std::chrono::steady_clock::now();
  constexpr int kReps = 5;
  for (int i = 0; i < kReps; ++i)
    ASSERT_EQ(cacheLookup(key, ".so"), path);
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
      kReps;
  std::printf("[ info ] verified lookup of an 8 MiB entry: %.1f ms\n", ms);
  EXPECT_LT(ms, 2000.0);
}

} // namespace
