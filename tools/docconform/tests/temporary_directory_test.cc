// Scratch space comes from $TMPDIR, else /tmp: one that is not a directory is an io error naming
// it, not an internal error from deep inside a run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "cli_util.h"
#include "docconform/error.h"

namespace docconform::cli {
namespace {

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
  ::unsetenv("TMPDIR");
  EXPECT_EQ(temporary_directory(), "/tmp");
}

TEST_F(TemporaryDirectory, ATmpdirThatIsNoDirectoryIsAnIoErrorNamingIt) {
  ::setenv("TMPDIR", "/nonexistent-docconform-tmpdir", 1);
  try {
    temporary_directory();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::io);
    EXPECT_EQ(e.context().file, "/nonexistent-docconform-tmpdir");
    EXPECT_NE(e.message().find("$TMPDIR"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace docconform::cli
