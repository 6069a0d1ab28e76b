// ScratchFile: what was appended reads back at any offset or whole, written out or still
// buffered, after any truncation; it leaves no name behind; a directory it cannot use is
// Error(io) naming it. A ScratchDirectory goes with its files, at its end or when a signal ends
// the process. Scratch goes to $TMPDIR, else /tmp.
#include "common/scratch_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docconform/error.h"
#include "docconform/output_file.h"
#include "tests/common/signalled_child.h"

namespace docconform {
namespace {

TEST(ScratchFile, ReadsBackWhatWasAppendedBufferedOrWritten) {
  ScratchFile file("test scratch");
  std::string all;
  for (int i = 0; i < 3000; ++i) {
    const std::string piece(static_cast<std::size_t>(i % 997) + 1, static_cast<char>('a' + i % 26));
    file.append(piece.data(), piece.size());
    all += piece;
  }
  const std::string large(ScratchFile::buffer_bytes + 5, 'L');  // past the buffer: written at once
  file.append(large.data(), large.size());
  all += large;
  file.append("tail", 4);  // still in the buffer
  all += "tail";
  ASSERT_EQ(file.size(), all.size());
  for (const std::uint64_t offset : {std::uint64_t{0}, std::uint64_t{12345}, std::uint64_t{all.size() - 10}}) {
    std::string got(10, '\0');
    file.read(offset, got.data(), got.size());
    EXPECT_EQ(got, all.substr(offset, 10)) << offset;
  }
  file.clear();
  EXPECT_EQ(file.size(), 0u);
  file.append("again", 5);
  std::string got(5, '\0');
  file.read(0, got.data(), 5);
  EXPECT_EQ(got, "again");
}

// What read_all passes on: every byte in order, in pieces of at most buffer_bytes, whether all
// of it is still buffered or most of it written; and what truncate left.
TEST(ScratchFile, ReadAllPassesOnWhatTruncateLeft) {
  const auto all_of = [](ScratchFile& file) {
    std::string got;
    file.read_all([&](std::string_view piece) {
      EXPECT_LE(piece.size(), ScratchFile::buffer_bytes);
      got.append(piece);
    });
    return got;
  };
  ScratchFile file("test scratch");
  file.append("small", 5);
  EXPECT_EQ(all_of(file), "small");
  std::string expected = "small";
  for (int i = 0; i < 5; ++i) {
    const std::string piece(ScratchFile::buffer_bytes / 2 + 7, static_cast<char>('0' + i));
    file.append(piece.data(), piece.size());
    expected += piece;
  }
  ASSERT_EQ(all_of(file), expected);
  file.truncate(expected.size() - 3);  // within the buffer
  expected.resize(expected.size() - 3);
  EXPECT_EQ(all_of(file), expected);
  file.truncate(ScratchFile::buffer_bytes + 11);  // within what was written
  expected.resize(ScratchFile::buffer_bytes + 11);
  EXPECT_EQ(file.size(), expected.size());
  EXPECT_EQ(all_of(file), expected);
  file.append("end", 3);
  expected += "end";
  EXPECT_EQ(all_of(file), expected);
}

TEST(ScratchFile, LeavesNoNameInItsDirectory) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "docconform-scratch-test";
  std::filesystem::create_directories(dir);
  const char* saved = std::getenv("TMPDIR");
  const std::string old = saved != nullptr ? saved : "";
  ::setenv("TMPDIR", dir.c_str(), 1);
  {
    ScratchFile file("test scratch");
    file.append("x", 1);
    EXPECT_TRUE(std::filesystem::is_empty(dir));
  }
  ::setenv("TMPDIR", "/nonexistent-directory", 1);
  try {
    ScratchFile file("test scratch");
    ADD_FAILURE() << "made in a directory that does not exist";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::io);
    EXPECT_NE(std::string(e.what()).find("test scratch: cannot be created in /nonexistent-directory: the temporary directory"), std::string::npos)
        << e.what();
  }
  saved != nullptr ? ::setenv("TMPDIR", old.c_str(), 1) : ::unsetenv("TMPDIR");
  std::filesystem::remove_all(dir);
}

class TemporaryDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* value = std::getenv("TMPDIR")) previous_ = value;
  }
  void TearDown() override {
    if (previous_) {
      ::setenv("TMPDIR", previous_->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
  }
  std::optional<std::string> previous_;
};

TEST_F(TemporaryDirectory, IsTmpdirElseTmp) {
  ::setenv("TMPDIR", "/", 1);
  EXPECT_EQ(temporary_directory(), "/");
  ::setenv("TMPDIR", "", 1);
  EXPECT_EQ(temporary_directory(), "/tmp");
  ::unsetenv("TMPDIR");
  EXPECT_EQ(temporary_directory(), "/tmp");
}

TEST_F(TemporaryDirectory, ATmpdirThatIsNoDirectoryIsAnIoErrorNamingIt) {
  for (const char* dir : {"/nonexistent-docconform-tmpdir", "/dev/null"}) {
    ::setenv("TMPDIR", dir, 1);
    try {
      temporary_directory();
      ADD_FAILURE() << "no error for " << dir;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::io);
      EXPECT_EQ(e.context().file, dir);
      EXPECT_NE(e.message().find("$TMPDIR"), std::string::npos) << e.what();
    }
  }
}

// A directory of its own as $TMPDIR for each test, the previous $TMPDIR put back after.
class ScratchDirectoryTest : public TemporaryDirectory {
 protected:
  void SetUp() override {
    TemporaryDirectory::SetUp();
    dir_ = std::filesystem::temp_directory_path() / ("docconform-scratch-dir-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    ::setenv("TMPDIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    TemporaryDirectory::TearDown();
    std::filesystem::remove_all(dir_);
  }
  std::vector<std::string> left() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) names.push_back(entry.path().filename().string());
    return names;
  }
  std::filesystem::path dir_;
};

// Enough files that reading the directory takes several calls.
void fill(const ScratchDirectory& scratch) {
  for (int i = 0; i < 300; ++i) write_output_file(scratch.path() + "/mutant-" + std::to_string(i) + ".xlsx", "bytes");
}

TEST_F(ScratchDirectoryTest, GoesWithItsFilesAtItsEnd) {
  {
    const ScratchDirectory scratch("docconform-test-");
    EXPECT_EQ(std::filesystem::path(scratch.path()).parent_path(), dir_);
    EXPECT_EQ(std::filesystem::path(scratch.path()).filename().string().rfind("docconform-test-", 0), 0u);
    fill(scratch);
    EXPECT_EQ(left().size(), 1u);
  }
  EXPECT_TRUE(left().empty());
}

// A child with a full scratch directory and an output being written into it is ended by a
// signal: nothing of either is left.
void expect_signal_leaves_nothing(int signal) {
  test::signal_child_when_ready(signal, [](const std::function<void()>& ready) {
    const ScratchDirectory scratch("docconform-test-");
    fill(scratch);
    OutputFile out(scratch.path() + "/being-written");
    out.write("part");
    ready();
    for (;;) ::pause();
  });
}

TEST_F(ScratchDirectoryTest, GoesWithItsFilesWhenSigtermEndsTheProcess) {
  expect_signal_leaves_nothing(SIGTERM);
  EXPECT_TRUE(left().empty()) << left().front();
}

TEST_F(ScratchDirectoryTest, GoesWithItsFilesWhenSigintEndsTheProcess) {
  expect_signal_leaves_nothing(SIGINT);
  EXPECT_TRUE(left().empty()) << left().front();
}

}  // namespace
}  // namespace docconform
