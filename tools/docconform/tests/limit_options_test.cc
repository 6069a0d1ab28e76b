// --limit NAME=VALUE: every named field set, sizes with suffixes, bad input a usage error.
#include <gtest/gtest.h>

#include "docconform/error.h"
#include "docconform/pdf/limits.h"
#include "limit_options.h"

namespace docconform::cli {
namespace {

LimitOptions<pdf::Limits> parsed(const std::vector<std::string>& argv) {
  LimitOptions<pdf::Limits> options;
  CLI::App app;
  options.add_to(&app);
  std::vector<std::string> args(argv.rbegin(), argv.rend());
  app.parse(args);
  return options;
}

TEST(LimitOptions, SetsNamedFieldsOverTheChosenProfile) {
  EXPECT_EQ(parsed({}).limits().max_depth, pdf::Limits{}.max_depth);
  const pdf::Limits l = parsed({"--limit", "max_depth=7", "--limit", "max_stream_decoded=3M"}).limits();
  EXPECT_EQ(l.max_depth, 7u);
  EXPECT_EQ(l.max_stream_decoded, 3u << 20);
  EXPECT_EQ(l.max_objects, pdf::Limits{}.max_objects);
  const pdf::Limits fuzz = parsed({"--fuzz-limits", "--limit", "max_depth=9"}).limits();
  EXPECT_EQ(fuzz.max_depth, 9u);
  EXPECT_EQ(fuzz.max_objects, pdf::Limits::fuzz().max_objects);
}

TEST(LimitOptions, MaxOutputBytesSetsTheOutputLimitBesideTheComponents) {
  EXPECT_EQ(parsed({}).output_limits().max_output_bytes, OutputLimits{}.max_output_bytes);
  EXPECT_EQ(parsed({"--fuzz-limits"}).output_limits().max_output_bytes, OutputLimits::fuzz().max_output_bytes);
  const LimitOptions<pdf::Limits> options = parsed({"--limit", "max_output_bytes=16M", "--limit", "max_depth=7"});
  EXPECT_EQ(options.output_limits().max_output_bytes, 16u << 20);
  EXPECT_EQ(options.limits().max_depth, 7u);
}

TEST(LimitOptions, UnknownNamesAndBadValuesAreUsageErrors) {
  for (const char* bad : {"nope=1", "max_depth", "max_depth=", "max_depth=1x", "max_depth=4294967296",
                          "max_stream_decoded=99999999999999999999", "max_stream_decoded=17179869184G"}) {
    try {
      parsed({"--limit", bad}).limits();
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::usage) << bad;
    }
  }
}

}  // namespace
}  // namespace docconform::cli
