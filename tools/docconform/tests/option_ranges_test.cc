#include "option_ranges.h"

#include <gtest/gtest.h>

#include <string>

namespace docconform::cli {
namespace {

// Runs a validator as CLI11 does: "" when accepted (text then rewritten), else the message.
std::string check(const CLI::Validator& validator, std::string& text) { return validator(text); }

TEST(IntegerRange, AcceptsDecimalWithinTheRangeAndRewritesIt) {
  const CLI::Validator v = integer_range(1, 1024);
  for (const auto& [given, plain] : {std::pair{"1", "1"}, std::pair{"1024", "1024"}, std::pair{"010", "10"}}) {
    std::string text = given;
    EXPECT_EQ(check(v, text), "") << given;
    EXPECT_EQ(text, plain);
  }
}

TEST(IntegerRange, RefusesNegativeOverflowingOutOfRangeAndForeignSyntax) {
  const CLI::Validator v = integer_range(1, 1024);
  for (const char* bad : {"-1", "0", "1025", "18446744073709551616", "99999999999999999999", "0x10", "+5", " 5", "5 ",
                          "1e3", "", "2K"}) {
    std::string text = bad;
    const std::string message = check(v, text);
    EXPECT_NE(message.find("from 1 to 1024"), std::string::npos) << bad << ": " << message;
  }
  std::string max = "18446744073709551615";
  EXPECT_EQ(check(integer_range(0, UINT64_MAX), max), "");
}

TEST(ByteRange, ReadsSuffixesAndChecksTheMultiple) {
  const CLI::Validator v = byte_range(4096, std::uint64_t{1} << 40, 4096);
  std::string text = "64K";
  EXPECT_EQ(check(v, text), "");
  EXPECT_EQ(text, "65536");
  for (const char* bad : {"5000", "0", "-4096", "2048G", "17179869184G", "18446744073709551615", "4T", "4KB"}) {
    std::string t = bad;
    const std::string message = check(v, t);
    EXPECT_NE(message.find("from 4K to 1024G bytes, a multiple of 4K"), std::string::npos) << bad << ": " << message;
  }
}

TEST(SecondsRange, RefusesZeroNegativeAndNonFinite) {
  const CLI::Validator v = seconds_range(100);
  for (const char* good : {"0.5", "100", "1e1"}) {
    std::string text = good;
    EXPECT_EQ(check(v, text), "") << good;
  }
  for (const char* bad : {"0", "-1", "nan", "inf", "100.5", "1e400", "", "1s"}) {
    std::string text = bad;
    EXPECT_NE(check(v, text).find("above 0 and at most 100"), std::string::npos) << bad;
  }
}

TEST(ParseByteCount, RefusesWhatWouldWrap) {
  EXPECT_EQ(parse_byte_count("16M"), std::uint64_t{16} << 20);
  EXPECT_EQ(parse_byte_count("17179869183G"), std::uint64_t{17179869183} << 30);
  EXPECT_FALSE(parse_byte_count("17179869184G"));
  EXPECT_FALSE(parse_byte_count("-1"));
  EXPECT_FALSE(parse_byte_count("G"));
}

TEST(CountList, EveryItemWithinTheRange) {
  EXPECT_EQ(parse_count_list("1,2,4", 1, 1024), (std::vector<unsigned>{1, 2, 4}));
  for (const char* bad : {"", "0", "1,-1", "1,,2", "1,", "1,4294967297", "1;2", "2,1025"}) {
    EXPECT_FALSE(parse_count_list(bad, 1, 1024)) << bad;
  }
  std::string text = "1,-1";
  EXPECT_NE(check(count_list_range(1, 1024), text).find("from 1 to 1024"), std::string::npos);
}

}  // namespace
}  // namespace docconform::cli
