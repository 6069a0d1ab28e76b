// The whole-file mapping of an XLSX load: a file another process truncates while it is mapped
// gives an io error naming the file, not SIGBUS and not what the lost pages held; so does a
// directory, a pipe or a device given as the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "common/scratch_file.h"
#include "docconform/error.h"
#include "docconform/truncation_guard.h"
#include "tests/common/not_a_file.h"
#include "xlsx/package.h"

namespace docconform::xlsx {
namespace {

TEST(XlsxFileMapping, TruncationWhileMappedIsAnErrorNamingTheFile) {
  install_truncation_guard();
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::string path = temporary_directory() + "/docconform-mapping-XXXXXX";
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
  const test::NotFiles not_files;
  for (const auto& input : not_files.inputs()) {
    test::expect_io_error_naming(input, [](const std::string& path) { const FileMapping mapping(path); });
  }
}

}  // namespace
}  // namespace docconform::xlsx
