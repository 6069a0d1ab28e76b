#include "docconform/utf8.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace docconform {
namespace {

std::u16string decode_hex(std::initializer_list<int> bytes) {
  std::string raw;
  for (int b : bytes) raw += static_cast<char>(b);
  return decode_utf8(raw);
}

TEST(Utf8Passthrough, AsciiIsCopied) { EXPECT_EQ(decode_utf8("hello, world 123"), u"hello, world 123"); }

TEST(Utf8Passthrough, WellFormedSequencesDecode) {
  EXPECT_EQ(decode_hex({0xC3, 0xA9}), u"\u00E9");
  EXPECT_EQ(decode_hex({0xE2, 0x82, 0xAC}), u"\u20AC");
  EXPECT_EQ(decode_hex({0xF0, 0x9F, 0x98, 0x80}), u"\U0001F600");
  EXPECT_EQ(decode_hex({0xF4, 0x8F, 0xBF, 0xBF}), u"\U0010FFFF");
  EXPECT_EQ(decode_hex({0xEF, 0xBF, 0xBF}), u"\uFFFF");
  EXPECT_EQ(decode_hex({0x00}), std::u16string(1, u'\0'));
}

TEST(Utf8Passthrough, InvalidContinuationPassesLeadByte) { EXPECT_EQ(decode_hex({0xC3, 0x28}), u"\u00C3("); }

TEST(Utf8Passthrough, TruncatedSequencePassesEachByte) { EXPECT_EQ(decode_hex({0xE2, 0x82}), u"\u00E2\u0082"); }

TEST(Utf8Passthrough, SurrogateCodePointPassesEachByte) {
  EXPECT_EQ(decode_hex({0xED, 0xA0, 0x80}), u"\u00ED\u00A0\u0080");
}

TEST(Utf8Passthrough, OverlongFormPassesEachByte) {
  EXPECT_EQ(decode_hex({0xC0, 0xAF}), u"\u00C0\u00AF");
  EXPECT_EQ(decode_hex({0xE0, 0x80, 0xAF}), u"\u00E0\u0080\u00AF");
  EXPECT_EQ(decode_hex({0xF0, 0x80, 0x80, 0xAF}), u"\u00F0\u0080\u0080\u00AF");
}

TEST(Utf8Passthrough, AboveMaxCodePointPassesEachByte) {
  EXPECT_EQ(decode_hex({0xF4, 0x90, 0x80, 0x80}), u"\u00F4\u0090\u0080\u0080");
  EXPECT_EQ(decode_hex({0xF5, 0x80, 0x80, 0x80}), u"\u00F5\u0080\u0080\u0080");
}

TEST(Utf8Passthrough, InvalidByteAlone) { EXPECT_EQ(decode_hex({0xFF}), u"\u00FF"); }

TEST(Utf8Passthrough, ResumesAtNextByteAfterError) {
  // E2 28 A1: E2 cannot start here, so it passes; 28 is '('; A1 alone passes.
  EXPECT_EQ(decode_hex({0xE2, 0x28, 0xA1}), u"\u00E2(\u00A1");
  // A truncated sequence followed by a valid one: the valid one still decodes.
  EXPECT_EQ(decode_hex({0xE2, 0x82, 0xC3, 0xA9}), u"\u00E2\u0082\u00E9");
}

TEST(Utf8Passthrough, AsciiRunsAroundMultibyteAcrossWordBoundaries) {
  std::string raw(13, 'a');
  raw += "\xC3\xA9";
  raw += std::string(17, 'b');
  raw += '\xFF';
  std::u16string expected = std::u16string(13, u'a') + u"\u00E9" + std::u16string(17, u'b') + u"\u00FF";
  EXPECT_EQ(decode_utf8(raw), expected);
}

TEST(Utf8Passthrough, AsciiTailsOfEveryLengthAroundOtherSequences) {
  // ASCII is widened eight bytes at a time, a short tail by redoing the last eight bytes: every
  // head and tail length around each kind of sequence, into a buffer of exactly the input's size.
  const std::vector<std::pair<std::string, std::u16string>> middles = {
      {"\xC3\xA9", u"\u00E9"}, {"\xE2\x9C\x93", u"\u2713"}, {"\xF0\x9F\x98\x80", u"\U0001F600"}, {"\xFF", u"\u00FF"}, {"", u""}};
  for (const auto& [raw_middle, middle] : middles) {
    for (std::size_t head = 0; head <= 20; ++head) {
      for (std::size_t tail = 0; tail <= 20; ++tail) {
        const std::string raw = std::string(head, 'h') + raw_middle + std::string(tail, 't');
        std::vector<char16_t> out(raw.size());
        const std::size_t n = decode_utf8_passthrough(reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size(), out.data());
        EXPECT_EQ(std::u16string(out.data(), n), std::u16string(head, u'h') + middle + std::u16string(tail, u't'))
            << "head " << head << " tail " << tail << " middle " << raw_middle.size() << " bytes";
      }
    }
  }
}

TEST(Utf8Passthrough, LengthPassMatchesDecodePass) {
  const std::vector<std::string> inputs = {"", "abc", "\xF0\x9F\x98\x80", "\xED\xA0\x80x", "\xC3", std::string(100, '\x80')};
  for (const auto& in : inputs) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(in.data());
    std::u16string out(in.size() * 2 + 2, u'\0');
    EXPECT_EQ(utf16_length(data, in.size()), decode_utf8_passthrough(data, in.size(), out.data()));
  }
}

TEST(Utf8Validity, StrictCheckRejectsWhatPassesThrough) {
  auto valid = [](std::string_view s) {
    return is_valid_utf8(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  };
  EXPECT_TRUE(valid("plain"));
  EXPECT_TRUE(valid("\xE2\x82\xAC\xF0\x9F\x98\x80"));
  EXPECT_FALSE(valid("\xC3("));
  EXPECT_FALSE(valid("\xED\xA0\x80"));
  EXPECT_FALSE(valid("\xC0\xAF"));
}

TEST(Utf8Display, LoneSurrogateBecomesReplacementCharacter) {
  EXPECT_EQ(to_utf8_lossy(u"a\U0001F600"), "a\xF0\x9F\x98\x80");
  EXPECT_EQ(to_utf8_lossy(std::u16string(1, static_cast<char16_t>(0xD800))), "\xEF\xBF\xBD");
}

}  // namespace
}  // namespace docconform
