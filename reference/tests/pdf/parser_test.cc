// Object syntax (ISO 32000-1 §7.3) through the canonical form of the parsed value.
#include <gtest/gtest.h>

#include "docconform/error.h"
#include "docconform/pdf/dump.h"
#include "docconform/pdf/writer.h"

namespace {

using docconform::Error;
using docconform::ErrorKind;
using namespace docconform::pdf;

std::string canon(const std::string& text) { return canonical_text(parse_object_text(text)); }

TEST(Parser, Scalars) {
  EXPECT_EQ(canon("null"), "null");
  EXPECT_EQ(canon("true"), "true");
  EXPECT_EQ(canon("-17"), "-17");
  EXPECT_EQ(canon("+17"), "17");
  EXPECT_EQ(canon("3.25"), "3.25");
  EXPECT_EQ(canon("-.5"), "-0.5");
  EXPECT_EQ(canon("4."), "4");
  EXPECT_EQ(canon("12 0 R"), "12 0 R");
}

TEST(Parser, NamesResolveHexEscapes) {
  EXPECT_EQ(parse_object_text("/A#20B").bytes, "A B");
  EXPECT_EQ(canon("/A#20B"), "/A#20B");
  EXPECT_EQ(canon("/Name#"), "/Name#23");  // a lone # stays a byte of the name
  EXPECT_EQ(canon("/"), "/");
}

TEST(Parser, LiteralStrings) {
  EXPECT_EQ(parse_object_text("(a(b)c)").bytes, "a(b)c");
  EXPECT_EQ(parse_object_text(R"((\(\)\\\n\r\t\b\f\101\0537))").bytes, std::string("()\\\n\r\t\b\fA+7"));
  EXPECT_EQ(parse_object_text("(a\\\nb)").bytes, "ab");  // escaped EOL: line continuation
  EXPECT_EQ(parse_object_text("(a\r\nb\rc)").bytes, "a\nb\nc");  // unescaped EOLs read as LF
  EXPECT_EQ(parse_object_text("(\\q)").bytes, "q");
  EXPECT_EQ(canon("(\xFF\x01)"), "\"\\u00FF\\u0001\"");
}

// The lexer tests 64 bytes at a time for the bytes a string must interpret: every escape, nested
// parenthesis and end of line decodes the same at every distance from a block boundary.
TEST(Parser, LiteralStringsDecodeTheSameAtEveryBlockOffset) {
  const std::pair<std::string, std::string> pieces[] = {
      {"\\)", ")"}, {"\\(", "("}, {"\\\\", "\\"}, {"()", "()"}, {"\r\n", "\n"}, {"\\\r\n", ""}, {"\\101", "A"}, {"(()", "(()"}};
  for (const auto& [raw, decoded] : pieces) {
    for (std::size_t at = 0; at < 140; ++at) {
      const std::string before(at, 'x'), after(150 - at, 'y');
      // "(()" leaves one parenthesis open: the string closes one byte later.
      const std::string close = raw == "(()" ? "))" : ")";
      const std::string want = before + decoded + after + (raw == "(()" ? ")" : "");
      EXPECT_EQ(parse_object_text("(" + before + raw + after + close).bytes, want) << raw << " at " << at;
    }
  }
}

// The first 64 bytes to interpret are remembered while the end is found; later ones are found again.
TEST(Parser, LiteralStringsWithMoreEscapesThanRemembered) {
  std::string raw, want;
  for (int i = 0; i < 150; ++i) {
    raw += i % 3 == 0 ? "\\)" : i % 3 == 1 ? "a\r\nb" : "(\\101)";
    want += i % 3 == 0 ? ")" : i % 3 == 1 ? "a\nb" : "(A)";
  }
  EXPECT_EQ(parse_object_text("(" + raw + ")").bytes, want);
}

TEST(Parser, LiteralStringEndsOnlyAtItsBalancingParenthesis) {
  EXPECT_THROW(parse_object_text("(" + std::string(70, 'a') + "\\)"), Error);  // an escaped ')' does not close
  EXPECT_THROW(parse_object_text("(" + std::string(63, 'a') + "(" + std::string(70, 'b') + ")"), Error);
  try {
    parse_object_text("  (" + std::string(200, 'a'));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("unterminated literal string"), std::string::npos);
    EXPECT_EQ(e.context().offset, std::optional<std::uint64_t>(2));  // the opening parenthesis
  }
}

TEST(Parser, HexStrings) {
  EXPECT_EQ(parse_object_text("<48 65 6c6C6f>").bytes, "Hello");
  EXPECT_EQ(parse_object_text("<7>").bytes, "\x70");
  EXPECT_THROW(parse_object_text("<4G>"), Error);
}

TEST(Parser, ArraysAndDictionariesCanonically) {
  EXPECT_EQ(canon("[1 2 0 R [/x] <</B 2/A 1>>]"), "[1 2 0 R [/x] <</A 1 /B 2>>]");
  EXPECT_EQ(canon("<< /K null /A 1 /A 2 >>"), "<</A 2>>");  // null is absent; the last duplicate wins
  EXPECT_EQ(canon("<<>>"), "<<>>");
  EXPECT_EQ(canon("[1 0]"), "[1 0]");  // not a reference without R
}

TEST(Parser, RejectsMalformedSyntax) {
  for (const char* text : {"[1 2", "<< /A >>", "<< 1 2 >>", "(open", "1.2.3", "foo", ")", "--1"}) {
    EXPECT_THROW(parse_object_text(text), Error) << text;
  }
}

TEST(Parser, NestingDepthIsLimited) {
  const std::string deep = std::string(1000, '[') + std::string(1000, ']');
  try {
    parse_object_text(deep);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("nesting"), std::string::npos);
  }
}

// SPEC pdf rule 9: at most max_depth (200) arrays and dictionaries open at once.
TEST(Parser, NestingLimitCountsEveryOpenContainer) {
  const Limits limits;
  ASSERT_EQ(limits.max_depth, 200u);
  auto nested = [](std::size_t arrays) { return "<< /A " + std::string(arrays, '[') + std::string(arrays, ']') + " >>"; };
  EXPECT_NO_THROW(parse_object_text(nested(199)));
  try {
    parse_object_text(nested(200));
    FAIL() << "201 levels read";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("nesting deeper than max_depth (200)"), std::string::npos) << e.what();
  }
}

TEST(Writer, SyntaxRoundTrips) {
  // Integers too large for 64 bits are read as reals; past the double range, as infinities.
  const std::string beyond_doubles = std::string(400, '8');
  for (const std::string& text : {std::string("<< /A#20B (x\\)y\\\\z\\r) /N -2.5 /L [1 0 R true null] >>"),
                                 std::string("(\x80\xFF\x01)"), std::string("0.000001"), std::string(25, '9'),
                                 "[" + beyond_doubles + " -" + beyond_doubles + "]"}) {
    const Object first = parse_object_text(text);
    std::string written;
    append_pdf_syntax(written, first);
    EXPECT_EQ(canonical_text(parse_object_text(written)), canonical_text(first)) << written;
  }
}

}  // namespace
