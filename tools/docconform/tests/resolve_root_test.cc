// --root resolution: the option, $DOCCONFORM_ROOT, the data installed beside the program, the
// checkout above the program, the checkout around the current directory; never a path baked in
// at build time.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cli_util.h"
#include "docconform/error.h"

namespace docconform::cli {
namespace {

namespace fs = std::filesystem;

class ResolveRoot : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("docconform-root-" + std::to_string(::getpid()));
    fs::remove_all(base_);
    fs::create_directories(suite() / "conformance" / "cases");
    fs::create_directories(suite() / "golden");
    std::ofstream(suite() / "conformance" / "SPEC.md") << "spec\n";
    fs::create_directories(base_ / "elsewhere");
    previous_ = fs::current_path();
    ::unsetenv("DOCCONFORM_ROOT");
  }
  void TearDown() override {
    fs::current_path(previous_);
    ::unsetenv("DOCCONFORM_ROOT");
    fs::remove_all(base_);
  }
  fs::path suite() const { return base_ / "suite"; }
  // A program of no checkout and no installation, as the tests' own binary may not be.
  fs::path stray_program() const { return base_ / "elsewhere" / "docconform"; }
  std::string usage_error(const std::string& option) const {
    try {
      resolve_root(option, stray_program().string());
    } catch (const Error& e) {
      return e.kind() == ErrorKind::usage ? e.what() : "";
    }
    return "";
  }

  fs::path base_, previous_;
};

TEST_F(ResolveRoot, TakesTheOptionFirstThenTheVariable) {
  ::setenv("DOCCONFORM_ROOT", (base_ / "elsewhere").c_str(), 1);
  EXPECT_EQ(resolve_root(suite().string()), suite().string());
  ::setenv("DOCCONFORM_ROOT", suite().c_str(), 1);
  fs::current_path(base_ / "elsewhere");
  EXPECT_EQ(resolve_root("", stray_program().string()), suite().string());
}

TEST_F(ResolveRoot, FindsTheCheckoutAroundTheCurrentDirectory) {
  fs::current_path(suite() / "conformance" / "cases");
  EXPECT_EQ(fs::path(resolve_root("", stray_program().string())), suite());
}

TEST_F(ResolveRoot, PrefersTheProgramsOwnDataToACheckoutAroundTheCurrentDirectory) {
  const fs::path prefix = base_ / "prefix";
  fs::create_directories(prefix / "bin");
  fs::create_directories(prefix / "share" / "docconform" / "golden");
  fs::create_directories(prefix / "share" / "docconform" / "conformance");
  std::ofstream(prefix / "share" / "docconform" / "conformance" / "SPEC.md") << "spec\n";
  fs::current_path(suite());
  EXPECT_EQ(fs::path(resolve_root("", (prefix / "bin" / "docconform").string())), prefix / "share" / "docconform");
  // A program built in a checkout reads that checkout, wherever it runs from.
  fs::current_path(base_ / "elsewhere");
  EXPECT_EQ(fs::path(resolve_root("", (suite() / "build" / "tools" / "docconform").string())), suite());
}

TEST_F(ResolveRoot, ADirectoryThatIsNotTheSuiteIsAUsageErrorNamingIt) {
  EXPECT_NE(usage_error((base_ / "elsewhere").string()).find("elsewhere"), std::string::npos);
  ::setenv("DOCCONFORM_ROOT", (base_ / "elsewhere").c_str(), 1);
  EXPECT_NE(usage_error("").find("DOCCONFORM_ROOT"), std::string::npos);
}

TEST_F(ResolveRoot, NothingFoundIsAUsageErrorSayingWhatToGive) {
  fs::current_path(base_ / "elsewhere");
  EXPECT_NE(usage_error("").find("--root"), std::string::npos);
}

}  // namespace
}  // namespace docconform::cli
