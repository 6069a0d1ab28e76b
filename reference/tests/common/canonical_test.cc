#include "docconform/canonical.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

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

// The quoting rule written out one unit at a time, to check the fast quoting against.
std::string quoted_one_by_one(const std::u16string& units) {
  std::string out = "\"";
  for (const char16_t unit : units) {
    if (unit == u'"' || unit == u'\\') {
      out += '\\';
      out += static_cast<char>(unit);
    } else if (unit >= 0x20 && unit < 0x7F) {
      out += static_cast<char>(unit);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04X", static_cast<unsigned>(unit));
      out += escaped;
    }
  }
  return out + "\"";
}

TEST(CanonicalString, LongStringsOfEveryUnitMatchTheRuleOneUnitAtATime) {
  std::mt19937 random(7);
  for (const std::size_t length : {511u, 512u, 513u, 1024u, 1537u, 5000u}) {
    std::u16string units(length, u'a');
    std::string bytes(length, 'a');
    std::u16string byte_units(length, u'a');  // the bytes as units below 0x100
    for (std::size_t i = 0; i < length; ++i) {
      units[i] = static_cast<char16_t>(i % 3 == 0 ? random() % 0x10000 : random() % 0x100);
      byte_units[i] = static_cast<char16_t>(random() % 0x100);
      bytes[i] = static_cast<char>(byte_units[i]);
    }
    EXPECT_EQ(canonical_string(units), quoted_one_by_one(units)) << length;
    std::string appended = "prefix";
    append_quoted_bytes(appended, bytes);
    EXPECT_EQ(appended, "prefix" + quoted_one_by_one(byte_units)) << length;
  }
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
