// max_output_bytes: a dump stops at the limit with an error naming the input and the limit.
#include "docconform/output_limit.h"

#include <gtest/gtest.h>

#include <string>

#include "docconform/error.h"

namespace docconform {
namespace {

TEST(OutputLimit, PassesPiecesUpToTheLimitThenThrowsNamingFileAndLimit) {
  OutputLimits limits;
  limits.max_output_bytes = 10;
  std::string out;
  const DumpSink sink = bounded_sink(limits, "book.xlsx", [&](std::string_view piece) { out += piece; });
  sink("12345");
  const DumpSink copy = sink;  // copies share the count
  copy("12345");
  try {
    sink("1");
    ADD_FAILURE() << "went past max_output_bytes";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::limit);
    EXPECT_STREQ(e.what(), "book.xlsx: limit error: the dump is larger than max_output_bytes (10)");
  }
  EXPECT_EQ(out, "1234512345");
}

TEST(OutputLimit, FuzzProfileIsTighterThanTheDefault) {
  EXPECT_LT(OutputLimits::fuzz().max_output_bytes, OutputLimits{}.max_output_bytes);
  EXPECT_NO_THROW(check_output_bytes(OutputLimits{}, "f", OutputLimits{}.max_output_bytes));
  EXPECT_THROW(check_output_bytes(OutputLimits{}, "f", OutputLimits{}.max_output_bytes + 1), Error);
}

}  // namespace
}  // namespace docconform
