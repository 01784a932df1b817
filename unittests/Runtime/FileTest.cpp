//===- FileTest.cpp - Tests for writing files whole -------------*- C++ -*-===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/File.h"

#include "TestUtil.h"

#include "gtest/gtest.h"

#include <chrono>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace uop::rt;
using namespace uop::rt::test;

namespace {

/// The names in `dir`, "." and ".." left out.
std::vector<std::string> listDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
        names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

TEST(FileTest, WriteAllWritesEverything) {
  TempDir tmp;
  std::string big(3 << 20, 'x');
  for (size_t i = 0; i < big.size(); i += 4099)
    big[i] = static_cast<char>('a' + i % 26);
  int fd = ::open(tmp.file("f").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(writeAll(fd, big));
  ::close(fd);
  EXPECT_EQ(readFile(tmp.file("f")), big);
}

TEST(FileTest, WriteNewFile) {
  TempDir tmp;
  Result<bool> w = writeNewFile(tmp.file("new"), "hello", 0600);
  ASSERT_TRUE(w.ok()) << w.error();
  EXPECT_EQ(readFile(tmp.file("new")), "hello");
  struct stat st;
  ASSERT_EQ(stat(tmp.file("new").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u); // no umask clears an owner bit
  // It must be new.
  Result<bool> again = writeNewFile(tmp.file("new"), "other", 0644, /*durable=*/false);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error(), "cannot write " + tmp.file("new") + ": File exists");
  EXPECT_EQ(readFile(tmp.file("new")), "hello");
}

TEST(FileTest, AtomicWriteFileReplacesWhole) {
  TempDir tmp;
  std::string path = tmp.file("data");
  ASSERT_TRUE(atomicWriteFile(path, "first version").ok());
  EXPECT_EQ(readFile(path), "first version");
  // A reader holding the old file keeps reading the old file.
  int old = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(old, 0);
  Result<bool> w = atomicWriteFile(path, "second");
  ASSERT_TRUE(w.ok()) << w.error();
  EXPECT_EQ(readFile(path), "second");
  char buf[64] = {};
  EXPECT_EQ(::read(old, buf, sizeof buf), 13);
  EXPECT_EQ(std::string(buf), "first version");
  ::close(old);
  // No temporary is left beside it.
  EXPECT_EQ(listDir(tmp.path()), std::vector<std::string>{"data"});
}

TEST(FileTest, AtomicWriteFileErrors) {
  TempDir tmp;
  Result<bool> w = atomicWriteFile(tmp.file("no/such/dir/f"), "x");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "cannot write " + tmp.file("no/such/dir/f") + ": No such file or directory");
  // Renaming over a directory fails: the temporary is removed, the
  // directory stays.
  ASSERT_EQ(mkdir(tmp.file("d").c_str(), 0755), 0);
  ASSERT_EQ(mkdir(tmp.file("d/inside").c_str(), 0755), 0);
  Result<bool> dir = atomicWriteFile(tmp.file("d"), "x");
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error().rfind("cannot write " + tmp.file("d") + ": ", 0), 0u) << dir.error();
  EXPECT_EQ(listDir(tmp.path()), std::vector<std::string>{"d"});
}

// Outputs are written all or none (issue 32: a bad later --output failed
// after earlier ones were written), never over a non-regular file.
TEST(FileTest, WriteFilesAtomicallyAllOrNone) {
  TempDir tmp;
  ASSERT_TRUE(atomicWriteFile(tmp.file("a"), "old a").ok());
  std::string big(1 << 20, 'b');
  Result<bool> w = writeFilesAtomically(
      {{tmp.file("a"), {"new ", "a"}}, {tmp.file("b"), {big}}, {tmp.file("no/c"), {"c"}}});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "cannot write " + tmp.file("no/c") + ": No such file or directory");
  EXPECT_EQ(readFile(tmp.file("a")), "old a");
  EXPECT_EQ(listDir(tmp.path()), std::vector<std::string>{"a"});
  w = writeFilesAtomically({{tmp.file("a"), {"new ", "a"}}, {tmp.file("b"), {big}}});
  ASSERT_TRUE(w.ok()) << w.error();
  EXPECT_EQ(readFile(tmp.file("a")), "new a");
  EXPECT_EQ(readFile(tmp.file("b")), big);
  // A FIFO is refused and stays a FIFO; nothing else is written.
  ASSERT_EQ(mkfifo(tmp.file("f").c_str(), 0600), 0);
  w = writeFilesAtomically({{tmp.file("c"), {"c"}}, {tmp.file("f"), {"f"}}});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "cannot write " + tmp.file("f") +
                           ": it is a FIFO, not a regular file (uop writes only regular files)");
  struct stat st;
  ASSERT_EQ(lstat(tmp.file("f").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_NE(access(tmp.file("c").c_str(), F_OK), 0);
  // A symbolic link keeps pointing at the file, which is replaced.
  ASSERT_EQ(symlink("a", tmp.file("l").c_str()), 0);
  ASSERT_TRUE(atomicWriteFile(tmp.file("l"), "via link").ok());
  ASSERT_EQ(lstat(tmp.file("l").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(readFile(tmp.file("a")), "via link");
}

TEST(FileTest, CheckOutputPath) {
  TempDir tmp;
  ASSERT_TRUE(atomicWriteFile(tmp.file("in"), "input").ok());
  ASSERT_EQ(symlink("in", tmp.file("alias").c_str()), 0);
  EXPECT_TRUE(checkOutputPath(tmp.file("out"), {tmp.file("in")}).ok());
  Result<bool> r = checkOutputPath(tmp.file("in"), {tmp.file("in")});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), tmp.file("in") + ": is also an input (uop never writes over an input)");
  r = checkOutputPath(tmp.file("alias"), {tmp.file("in")});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), tmp.file("alias") + ": is also an input (" + tmp.file("in") +
                           ") (uop never writes over an input)");
  r = checkOutputPath("/dev/null");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "/dev/null: is a character device, not a regular file (uop writes only "
                       "regular files)");
  r = checkOutputPath(tmp.path());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), tmp.path() + ": is a directory, not a regular file (uop writes only "
                                    "regular files)");
  r = checkOutputPath(tmp.file("in/x"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), tmp.file("in/x") + ": cannot write: Not a directory");
}

// Input from a pipe, a FIFO or a device is bounded in size and in waiting
// (issue 32: a FIFO nobody writes hung the tools, /dev/zero never ended).
TEST(FileTest, ReadInputFileBounded) {
  TempDir tmp;
  ASSERT_TRUE(atomicWriteFile(tmp.file("r"), "regular").ok());
  Result<std::string> r = readInputFile(tmp.file("r"));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(*r, "regular");
  r = readInputFile("/dev/zero", 1 << 20);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "/dev/zero: more than 1048576 bytes from a character device (not a "
                       "regular file)");
  ASSERT_EQ(mkfifo(tmp.file("f").c_str(), 0600), 0);
  auto t0 = std::chrono::steady_clock::now();
  r = readInputFile(tmp.file("f"), 1 << 20, /*timeoutSeconds=*/1);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), tmp.file("f") + ": cannot read: no data for 1 s (is anything writing to it?)");
  EXPECT_LT(seconds, 5);
  r = readInputFile(tmp.path());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), tmp.path() + ": cannot read: Is a directory");
}

} // namespace
