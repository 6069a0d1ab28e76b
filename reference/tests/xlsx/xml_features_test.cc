#include <gtest/gtest.h>

#include <vector>

#include "xlsx/xml_scanner.h"
#include "docconform/error.h"
#include "test_workbook.h"

namespace docconform::xlsx::test {
namespace {

std::string cells(const std::string& sheet_xml, const std::string& sst = "") {
  return cells_of(workbook_with_sheet(sheet_xml, sst));
}

TEST(XlsxXml, NamespacePrefixesAndSingleQuotes) {
  const std::string xml = std::string("<x:worksheet xmlns:x='") + ns_main +
                          "'><x:sheetData><x:row r='1'><x:c r='A1' t='inlineStr'><x:is><x:t>p</x:t></x:is></x:c>"
                          "</x:row></x:sheetData></x:worksheet>";
  EXPECT_EQ(cells(xml), "cell A1 s \"p\"\n");
}

TEST(XlsxXml, DeclarationBomCommentsAndProcessingInstructions) {
  const std::string xml = "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- c --><?pi x?>" +
                          sheet("<!-- <row r=\"9\"> --><row r=\"1\"><?pi <row?><c r=\"A1\"><v>1<!--x-->2</v></c></row>");
  EXPECT_EQ(cells(xml), "cell A1 n 12\n");
}

// OPC [M1.17]: UTF-8 or UTF-16, and a declaration names no other encoding; names are compared
// without regard to case (XML 1.0 4.3.3).
TEST(XlsxXml, TheDeclarationMayNameOnlyUtf8InAnUtf8Part) {
  const std::string body = sheet("<row r=\"1\"><c r=\"A1\"><v>1</v></c></row>");
  EXPECT_EQ(cells("<?xml version='1.0' encoding='utf-8' standalone='yes'?>" + body), "cell A1 n 1\n");
  EXPECT_EQ(cells("<?xml version=\"1.0\" standalone=\"yes\"?>" + body), "cell A1 n 1\n");
  for (const char* encoding : {"ISO-8859-1", "windows-1252", "UTF-16", "utf-16le", "UTF8"}) {
    const std::string xml = std::string("<?xml version=\"1.0\" encoding = \"") + encoding + "\"?>" + body;
    try {
      cells(xml);
      ADD_FAILURE() << encoding << " was read";
    } catch (const Error& e) {
      EXPECT_EQ(e.context().offset, std::optional<std::uint64_t>(0)) << e.what();
      EXPECT_EQ(e.context().part, "xl/worksheets/sheet1.xml") << e.what();
      EXPECT_NE(std::string(e.what()).find("encoding"), std::string::npos) << e.what();
    }
  }
  // Anywhere else a declaration is an error (XML 1.0 2.8, and the target xml is reserved, 2.6).
  EXPECT_THROW(cells("<!-- c --><?xml version=\"1.0\"?>" + body), Error);
  EXPECT_THROW(cells("\n<?xml version=\"1.0\"?>" + body), Error);
  EXPECT_THROW(cells(body.substr(0, body.size() - 12) + "<?XML x?></worksheet>"), Error);
  EXPECT_EQ(cells("<?xml-stylesheet href=\"a\"?>" + body), "cell A1 n 1\n");
}

// XML 1.0 2.5: "--" never appears inside a comment, nor '-' right before its end.
TEST(XlsxXml, CommentsHoldNoDoubleHyphen) {
  const std::string body = sheet("<row r=\"1\"><c r=\"A1\"><v>1</v></c></row>");
  EXPECT_EQ(cells("<!-- a - b --><!----><!--- c -->" + body), "cell A1 n 1\n");
  for (const char* comment : {"<!-- a -- b -->", "<!-- a --->", "<!------>"}) {
    EXPECT_THROW(cells(comment + body), Error) << comment;
  }
}

// XML 1.0 2.2: a document's characters are Chars, and the C0 controls other than TAB, LF and CR
// are none, raw or anywhere: text (read by the shortcut or token by token), values, attribute
// values, CDATA, comments and processing instructions. TAB and LF stay text.
TEST(XlsxXml, ControlCharactersAreRejectedWhereverTheyAppear) {
  const auto row = [](const std::string& cell) { return sheet("<row r=\"1\">" + cell + "</row>"); };
  const std::string shared = "<c r=\"A1\" t=\"s\"><v>0</v></c>";
  EXPECT_EQ(cells(row(shared), "<si><t>a\tb\nc</t></si>"), "cell A1 s \"a\\u0009b\\u000Ac\"\n");
  EXPECT_EQ(cells(row("<c r=\"A1\" t=\"inlineStr\"><is><t>a\tb</t></is></c>")), "cell A1 s \"a\\u0009b\"\n");
  const std::vector<std::pair<std::string, std::string>> documents{
      {row(shared), "<si><t>a\x01b</t></si>"},
      {row(shared), "<si><t xml:space=\"preserve\">a\nb\x1F</t></si>"},
      {row(shared), "<si><r><t>a</t></r><r><t>\x0B</t></r></si>"},
      {row("<c r=\"A1\" t=\"inlineStr\"><is><t>a\x02</t></is></c>"), ""},
      {row("<c r=\"A1\" t=\"str\"><v>\x1B</v></c>"), ""},
      {row(std::string("<c r=\"A1\"><v>1") + '\0' + "</v></c>"), ""},
      {row("<c r=\"A1\" s=\"\x08\"><v>1</v></c>"), ""},
      {row("<c r=\"A1\" t=\"inlineStr\"><is><t><![CDATA[a\x07]]></t></is></c>"), ""},
      {"<!-- \x0C -->" + row("<c r=\"A1\"><v>1</v></c>"), ""},
      {"<?pi \x0E?>" + row("<c r=\"A1\"><v>1</v></c>"), ""},
  };
  for (const auto& [xml, sst] : documents) {
    try {
      cells(xml, sst);
      ADD_FAILURE() << "read: " << xml << " " << sst;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("control character U+00"), std::string::npos) << e.what();
    }
  }
  try {
    cells(row(shared), "<si><t>ab\x01</t></si>");
    ADD_FAILURE() << "read";
  } catch (const Error& e) {
    const std::string sst_start = std::string("<sst xmlns=\"") + ns_main + "\"><si><t>ab";
    EXPECT_EQ(e.context().part, "xl/sharedStrings.xml");
    EXPECT_EQ(e.context().offset, std::optional<std::uint64_t>(sst_start.size())) << e.what();
    EXPECT_NE(std::string(e.what()).find("U+0001"), std::string::npos) << e.what();
  }
}

TEST(XlsxXml, AUtf16PartIsRejectedAtItsByteOrderMark) {
  const std::string body = sheet("<row r=\"1\"/>");
  for (const std::string& bom : {std::string("\xFF\xFE"), std::string("\xFE\xFF")}) {
    std::string utf16 = bom;
    for (const char c : body) utf16 += bom[0] == '\xFF' ? std::string{c, '\0'} : std::string{'\0', c};
    EXPECT_THROW(cells(utf16), Error);
  }
}

TEST(XlsxXml, EntityAndCharacterReferencesAndCdata) {
  EXPECT_EQ(cells(sheet("<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>&amp;&lt;&gt;&quot;&apos;&#10;&#x1F600;"
                        "<![CDATA[<row r=\"5\">&amp;]]></t></is></c></row>")),
            "cell A1 s \"&<>\\\"'\\u000A\\uD83D\\uDE00<row r=\\\"5\\\">&amp;\"\n");
}

TEST(XlsxXml, CharacterReferencesMayHaveLeadingZeros) {
  // XML 1.0 CharRef is '&#' [0-9]+ ';': the length of the digits is not limited.
  EXPECT_EQ(cells(sheet("<row r=\"1\"><c r=\"A1\" t=\"str\"><v>&#000000000065;&#x0000000000042;</v></c></row>")),
            "cell A1 s \"AB\"\n");
  EXPECT_THROW(cells(sheet("<row r=\"1\"><c r=\"A1\" t=\"str\"><v>&#0000000000000000000000;</v></c></row>")), Error);
}

TEST(XlsxXml, LineEndsAreNormalizedAndSpaceIsKept) {
  EXPECT_EQ(cells(sheet("<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t xml:space=\"preserve\">  a\r\nb\rc  </t>"
                        "</is></c><c r=\"B1\" t=\"inlineStr\"><is><t> d </t></is></c></row>")),
            "cell A1 s \"  a\\u000Ab\\u000Ac  \"\ncell B1 s \" d \"\n");
}

TEST(XlsxXml, DoctypeIsRejectedNeverExpanded) {
  const std::string xml = "<!DOCTYPE worksheet [<!ENTITY a \"aaaaaaaa\">]>" + sheet("<row r=\"1\"/>");
  EXPECT_THROW(cells(xml), Error);
  EXPECT_THROW(cells(sheet("<row r=\"1\"><c r=\"A1\" t=\"str\"><v>&a;</v></c></row>")), Error);
}

TEST(XlsxXml, MalformedDocumentsAreRejected) {
  for (const std::string& xml : {sheet("<row r=\"1\"><c r=\"A1\"><v>1</c></row>"), sheet("<row r=\"1\">"),
                                 sheet("<row r=\"1\" r=\"2\"/>"), sheet("<row r=1/>"),
                                 sheet("<row r=\"1\"><c r=\"A1\" t=\"str\"><v>&#0;</v></c></row>"),
                                 sheet("<row r=\"1\"><c r=\"A1\" t=\"str\"><v>&#xD800;</v></c></row>")}) {
    EXPECT_THROW(cells(xml), Error) << xml;
  }
}

TEST(XlsxXml, ScannerReportsNamesAttributesAndDepth) {
  const std::string xml = "<a:b x:y='1' z=\"&amp;\"><c/>t</a:b>";
  XmlScanner sc(reinterpret_cast<const std::uint8_t*>(xml.data()), xml.size(), 0, true, ScanLimits{});
  ASSERT_EQ(sc.next(), Token::start);
  EXPECT_EQ(sc.local().view(), "b");
  EXPECT_EQ(sc.prefix().view(), "a");
  ASSERT_EQ(sc.attributes().size(), 2u);
  EXPECT_EQ(sc.attributes()[0].prefix.view(), "x");
  EXPECT_TRUE(sc.attributes()[0].plain);
  EXPECT_FALSE(sc.attributes()[1].plain);
  ASSERT_EQ(sc.next(), Token::start);
  EXPECT_TRUE(sc.self_closing());
  EXPECT_EQ(sc.depth(), 2u);
  ASSERT_EQ(sc.next(), Token::end);
  ASSERT_EQ(sc.next(), Token::text);
  EXPECT_EQ(sc.text().view(), "t");
  ASSERT_EQ(sc.next(), Token::end);
  EXPECT_EQ(sc.next(), Token::end_of_input);
}

TEST(XlsxXml, DepthAndTokenLimitsAreErrorsOfKindLimit) {
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "<a>";
  for (int i = 0; i < 300; ++i) deep += "</a>";
  XmlScanner sc(reinterpret_cast<const std::uint8_t*>(deep.data()), deep.size(), 0, true, ScanLimits{});
  try {
    while (sc.next() != Token::end_of_input) {
    }
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::limit);
    EXPECT_EQ(e.context().offset, 256u * 3);
  }
  ScanLimits small;
  small.max_token_bytes = 100;
  const std::string huge = "<a>" + std::string(1000, 'x') + "</a>";
  XmlScanner sc2(reinterpret_cast<const std::uint8_t*>(huge.data()), huge.size(), 0, true, small);
  ASSERT_EQ(sc2.next(), Token::start);
  EXPECT_THROW(sc2.next(), Error);
}

TEST(XlsxXml, NonFinalInputStopsBeforeAnUnfinishedConstruct) {
  const std::string xml = "<a><b>12";
  XmlScanner sc(reinterpret_cast<const std::uint8_t*>(xml.data()), xml.size(), 0, false, ScanLimits{});
  ASSERT_EQ(sc.next(), Token::start);
  ASSERT_EQ(sc.next(), Token::start);
  EXPECT_EQ(sc.next(), Token::incomplete);
}

}  // namespace
}  // namespace docconform::xlsx::test
