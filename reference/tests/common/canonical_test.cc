#include "docconform/canonical.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace docconform {
namespace {

TEST(CanonicalString, PrintableAsciiStandsAsItself) { EXPECT_EQ(canonical_string(u"Hello, world!"), "\"Hello, world!\""); }

TEST(CanonicalString, QuoteAndBackslashAreEscaped) { EXPECT_EQ(canonical_string(u"a\"b\\c"), "\"a\\\"b\\\\c\""); }

TEST(CanonicalString, EverythingElseIsUppercaseUnicodeEscape) {
  EXPECT_EQ(canonical_string(u"\n\t\u007F\u00E9\u6F22"), "\"\\u000A\\u0009\\u007F\\u00E9\\u6F22\"");
  EXPECT_EQ(canonical_string(u"\U0001F600"), "\"\\uD83D\\uDE00\"");
  EXPECT_EQ(canonical_string(std::u16string(1, static_cast<char16_t>(0xDC80))), "\"\\uDC80\"");
  EXPECT_EQ(canonical_string(std::u16string(1, u'\0')), "\"\\u0000\"");
}

TEST(CanonicalNumber, IntegersHaveNoDecimalPoint) {
  EXPECT_EQ(number_text(1), "1");
  EXPECT_EQ(number_text(-42), "-42");
  EXPECT_EQ(number_text(123456789012345680000.0), "123456789012345680000");
}

TEST(CanonicalNumber, ZeroKeepsItsSign) {
  EXPECT_EQ(number_text(0.0), "0");
  EXPECT_EQ(number_text(-0.0), "-0");
}

TEST(CanonicalNumber, ShortestRoundTripDigits) {
  EXPECT_EQ(number_text(0.1), "0.1");
  EXPECT_EQ(number_text(1.5), "1.5");
  EXPECT_EQ(number_text(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(number_text(123.456), "123.456");
}

TEST(CanonicalNumber, EcmaScriptExponentThresholds) {
  EXPECT_EQ(number_text(0.000001), "0.000001");
  EXPECT_EQ(number_text(1e-7), "1e-7");
  EXPECT_EQ(number_text(1.5e-7), "1.5e-7");
  EXPECT_EQ(number_text(1e21), "1e+21");
  EXPECT_EQ(number_text(1.25e300), "1.25e+300");
  EXPECT_EQ(number_text(5e-324), "5e-324");
  EXPECT_EQ(number_text(std::numeric_limits<double>::max()), "1.7976931348623157e+308");
}

TEST(CanonicalNumber, NonFiniteValues) {
  EXPECT_EQ(number_text(std::nan("")), "NaN");
  EXPECT_EQ(number_text(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(number_text(-std::numeric_limits<double>::infinity()), "-Infinity");
}

}  // namespace
}  // namespace docconform
