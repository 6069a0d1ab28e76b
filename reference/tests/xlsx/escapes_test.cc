#include <gtest/gtest.h>

#include "xlsx/xml_text.h"
#include "test_workbook.h"

namespace docconform::xlsx::test {
namespace {

std::u16string decode(std::u16string s) {
  s.resize(decode_ooxml_escapes(s.data(), s.size()));
  return s;
}

TEST(XlsxEscapes, FourHexDigitsBetweenUnderscores) {
  EXPECT_EQ(decode(u"a_x000D_b"), u"a\rb");
  EXPECT_EQ(decode(u"_x6904_"), u"\x6904");
  EXPECT_EQ(decode(u"_x00e9_"), u"\xE9");
  EXPECT_EQ(decode(u"_xD83D__xDE00_"), u"\xD83D\xDE00");
}

TEST(XlsxEscapes, SingleLeftToRightPass) {
  EXPECT_EQ(decode(u"_x005F_x000D_"), u"_x000D_");
  EXPECT_EQ(decode(u"_x005F__x0041_"), u"_A");
}

TEST(XlsxEscapes, AnythingElseIsLiteral) {
  EXPECT_EQ(decode(u"_xd_"), u"_xd_");
  EXPECT_EQ(decode(u"_x00G0_"), u"_x00G0_");
  EXPECT_EQ(decode(u"_x0041"), u"_x0041");
  EXPECT_EQ(decode(u"_X0041_"), u"_X0041_");
  EXPECT_EQ(decode(u"__x0041_"), u"_A");
}

TEST(XlsxEscapes, AppliedToStringsNotToNumbersOrFormulas) {
  EXPECT_EQ(cells_of(workbook_with_sheet(
                sheet("<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" t=\"str\"><f>\"_x0041_\"</f>"
                      "<v>_x0041_</v></c><c r=\"C1\" t=\"inlineStr\"><is><r><t>_x0042_</t></r></is></c></row>"),
                "<si><t>a_x000D_b</t></si>")),
            "cell A1 s \"a\\u000Db\"\ncell B1 s \"A\"\nformula normal \"\\\"_x0041_\\\"\"\ncell C1 s \"B\"\n");
}

}  // namespace
}  // namespace docconform::xlsx::test
