// The whole-file mapping of an XLSX load: a file another process truncates while it is mapped
// gives an io error naming the file, not SIGBUS and not what the lost pages held; so does a
// directory or a pipe given as the file.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "docconform/error.h"
#include "docconform/truncation_guard.h"
#include "xlsx/package.h"

namespace docconform::xlsx {
namespace {

TEST(XlsxFileMapping, TruncationWhileMappedIsAnErrorNamingTheFile) {
  install_truncation_guard();
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::string path = (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) +
                     "/docconform-mapping-XXXXXX";
  const int fd = ::mkstemp(path.data());
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::ofstream(path, std::ios::binary) << std::string(4 * page, 'x');
  {
    const FileMapping mapping(path);
    ASSERT_EQ(mapping.bytes().size(), 4 * page);
    EXPECT_NO_THROW(mapping.verify_unchanged());
    ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(page)), 0);
    const volatile char* lost = mapping.bytes().data() + 2 * page;
    EXPECT_EQ(*lost, 0);  // would have been SIGBUS
    EXPECT_TRUE(mapping.truncated());
    try {
      mapping.verify_unchanged();
      ADD_FAILURE() << "truncation not reported";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::io);
      EXPECT_EQ(e.context().file, path);
    }
  }
  ::unlink(path.c_str());
}

TEST(XlsxFileMapping, WhatIsNotAFileIsAnIoErrorNamingIt) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("docconform_xlsx_dir_" + std::to_string(::getpid()));
  std::filesystem::create_directory(dir);
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const auto& [path, kind] : {std::pair<std::string, const char*>{dir.string(), "is a directory"}, {fifo, "is a pipe"}}) {
    try {
      const FileMapping mapping(path);  // a FIFO without a writer: the open does not wait
      ADD_FAILURE() << path << " mapped";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::io) << path;
      EXPECT_EQ(e.context().file, path);
      EXPECT_NE(e.message().find(kind), std::string::npos) << e.message();
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace docconform::xlsx
