//===- FileTest.cpp - Tests for writing files whole -------------*- C++ -*-===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/File.h"

#include "TestUtil.h"

#include "gtest/gtest.h"

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

} // namespace
