// The shortcut that reads plain cells and shared strings whole (XmlScanner::try_simple_element)
// gives exactly what reading them token by token gives: the same rows, cells, text and
// bookkeeping, or the same error at the same offset, whole or cut anywhere, under any limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "xlsx/parts.h"
#include "xlsx/sheet_parser.h"
#include "xlsx/xml_scanner.h"
#include "docconform/error.h"

namespace docconform::xlsx::test {
namespace {

std::string error_text(const Error& e) {
  return std::string("error ") + to_string(e.kind()) + " at " +
         (e.context().offset ? std::to_string(*e.context().offset) : "-") + ": " + e.message();
}

std::string units(std::u16string_view s) {
  std::string out;
  for (const char16_t u : s) out += std::to_string(static_cast<unsigned>(u)) + ",";
  return out;
}

// Everything a chunk's parse reports, as text.
std::string sheet_outcome(const std::string& xml, std::size_t size, bool final, bool shortcut, const ScanLimits& limits) {
  SheetParseContext context;
  context.shared_strings = 5;
  context.limits = limits;
  context.shortcut = shortcut;
  TextCollector collector;
  ChunkResult r;
  try {
    parse_sheet_chunk(reinterpret_cast<const std::uint8_t*>(xml.data()), size, 0, ChunkStart::document, 0, final, context,
                      collector, r);
  } catch (const Error& e) {
    return error_text(e);
  }
  std::string out = "end " + std::to_string(static_cast<int>(r.end)) + " safe " + std::to_string(r.safe_bytes) + "/" +
                    std::to_string(r.safe_rows) + "/" + std::to_string(r.safe_cells) + "/" +
                    std::to_string(r.safe_arena) + " bound " + std::to_string(r.shared_string_bound) + "\n";
  for (const Row& row : r.segment.rows) {
    out += "row " + std::to_string(row.number) + " @" + std::to_string(row.offset) + ":";
    for (std::uint32_t i = 0; i < row.cell_count; ++i) {
      const Cell& c = r.segment.cells[row.first_cell + i];
      out += " " + std::to_string(c.column) + "/" + std::to_string(static_cast<int>(c.type)) + "/" +
             std::to_string(c.payload) + "/" + std::to_string(c.text_length) + "/" + std::to_string(c.style) + "/" +
             std::to_string(c.formula);
    }
    out += "\n";
  }
  return out + "arena " + units(r.segment.arena) + "\n";
}

// streamed: parsed as it arrives, chunk bytes at a time (the one-thread load's way); when a
// split point was unsound the whole part is parsed, as the loader does.
std::string strings_outcome(const std::string& xml, bool shortcut, const ScanLimits& limits, std::size_t chunk,
                            bool streamed = false) {
  LoadOptions options;
  options.shortcut = shortcut;
  options.chunk_bytes = chunk;
  SharedStrings out;
  try {
    std::size_t at = 0;
    const auto next = [&](std::string& buffer, std::size_t max) {
      const std::size_t n = std::min(max, xml.size() - at);
      buffer.append(xml, at, n);
      at += n;
      return n;
    };
    if (!streamed || !read_shared_strings_streaming(next, xml.size(), limits, out, options)) {
      read_shared_strings(xml, limits, out, options);
    }
  } catch (const Error& e) {
    return error_text(e);
  }
  std::string text;
  for (std::size_t i = 0; i < out.items.size(); ++i) text += units(out.at(i)) + "|";
  return text;
}

// Cells of every shape the shortcut takes or must leave to the tokens: prefixes, quotes,
// spacing, references and CR that need resolving, children it does not read, malformed tags
// and values whose errors must come out the same.
const std::vector<std::string> cell_snippets = {
    "<c r=\"A1\"><v>1</v></c>", "<c r=\"A1\" s=\"3\" t=\"s\"><v>4</v></c>", "<c r='B1' t='b'><v>1</v></c>",
    "<c/>", "<c r=\"B1\"/>", "<c r=\"C1\" s=\"2\"></c>", "<c><v></v></c>", "<c r=\"A1\" t=\"str\"><v>x y</v></c>",
    "<c t=\"inlineStr\"><v>9</v></c>", "<x:c r=\"A1\"><x:v>2</x:v></x:c>", "<c r=\"A1\"><x:v>2</x:v></c>",
    "<x:c r=\"A1\"><v>2</v></x:c>", "<c r=\"A1\" r=\"B1\"><v>1</v></c>", "<c r=\"A1\" x:r=\"B1\"><v>1</v></c>",
    "<c r=\"A1\" :r=\"B1\"/>", "<c r=\"A1\" r:=\"B1\"/>", "<c a=\"1\" b=\"2\" c=\"3\" d=\"4\"/>",
    "<c a=\"1\" b=\"2\" c=\"3\" d=\"4\" e=\"5\"/>", "<c r=\"A1\"  s=\"1\"/>", "<c r=\"A1\"\ts=\"1\"/>",
    "<c r = \"A1\"/>", "<c r=\"A1\" ><v>1</v></c>", "<c r=\"A1\"/ >", "<c r=\"A&amp;1\"/>", "<c r=\"A\n1\"/>",
    "<c r=\"A1\" t=\"e\"><v>#N/A</v></c>", "<c><v>1&amp;</v></c>", "<c><v>1\r\n</v></c>",
    "<c><v>1<!--x-->2</v></c>", "<c><v><![CDATA[3]]></v></c>", "<c><v>1</v><v>2</v></c>",
    "<c><f>A1</f><v>1</v></c>", "<c><v>1</v ></c>", "<c><v>1</V></c>", "<c><v>1</v></C>", "<c><v/></c>",
    "<c r=\"ZZZZ1\"><v>1</v></c>", "<c r=\"A0\"/>", "<c r=\"1A\"/>", "<c s=\"x\"/>", "<c t=\"q\"/>",
    "<c><v>abc</v></c>", "<c t=\"s\"><v>99</v></c>", "<c t=\"b\"><v>2</v></c>", "<c r=\"A1\"><v>1</v></c >",
    "<c r=\"A1\"><v>1</v>\n</c>", "<c r=\"A1\" t=\"d\"><v>2020-01-01</v></c>", "<c r=\"A1\" t=\"s\"><v> 1 </v></c>",
    "<c r=\"A1\" <v>", "<c r=\"A<1\"/>", "<c r=\"A1>\"/>", "<c r=\"A1\" s=1/>", "<c:x r=\"A1\"/>", "<cc r=\"A1\"/>",
    "<c\xC3\xA9 r=\"A1\"/>", "<c t=\"str\"><v>\xC3\xA9</v></c>", "<c t=\"str\"><v>\xFF\xC3</v></c>",
    "<c r=\"A1\" t=\"inlineStr\"><is><t>x</t></is></c>", "<c r=\"A1\">text<v>1</v></c>",
    "<c r=\"A1\"><v>1</v>tail</c>", "<c r=\"A1\"><!--x--><v>1</v></c>", "<c r=\"A1\"><?pi?><v>1</v></c>",
    "<c r=\"\"/>", "<c s=\"\"/>", "<c t=\"\"/>", "<c r=\"A1\"><v x=\"1\">5</v></c>", "<c r=\"A1\"><v x=\"1\" x=\"2\">5</v></c>",
    "<c r=\"A1\"><w>5</w></c>", "<c r=\"A1\"><v>5</v><w/></c>", "<c t=\"str\"><v>_x0041_</v></c>",
    "<c r=\"A1\" s=\"4294967296\"/>", "<c r=\"A2\"/>", "<c r=\"XFE1\"/>", "<c><v>1e400</v></c>", "<c><v>+1.5</v></c>",
    "<c r=\"A1\"/><c/><c r=\"E1\"/><c/>", "<c><v>12345678901234567890</v></c>", "<c r=\"D1\"/><c r=\"B1\"/>",
    // The byte shapes of shape_match.h, and bytes just outside them.
    "<c r=\"a1\"><v>1</v></c>", "<c r=\"A1\" t=\"s\" s=\"1\"><v>1</v></c>", "<c r=\"A1\" s=\"1\" t=\"s\"/>",
    "<c r=\"A1\" s=\"1\" t=\"n\"><v>1.5</v></c>", "<c r=\"A1\" t=\"s\" r=\"B1\"/>", "<c s=\"1\" r=\"A1\"/>",
    "<c r=\"AAAAAAAAAAAAAAAAAAAA1\"><v>1</v></c>", "<c r=\"A1\"><v>12345678901234567.5e-3</v></c>",
    "<c r=\"A1\"><v>1\t</v></c>", "<c r=\"A1\"><v> 1</v></c>", "<c r=\"A1\"><v>\xC3\xA9</v></c>",
    "<c r=\"A1\" t=\"s\"><v>4294967296</v></c>", "<c r=\"A1\" s=\"1\"></c>", "<c r=\"A1\" t=\"b\"><v>true</v></c>",
    "<c r=\"A1\" ></c>", "<c r=\"A1\" t=\"str\"><v>x'y</v></c>", "<c r=\"A1\" t=\"e\"><v>#DIV/0!</v></c>",
    "<c r=\"A1\" t=\"inlineStr\"><v>1</v></c>", "<c r=\"A1\" s=\"\"><v>1</v></c>", "<c r=\"A1\" s=\"1\x01\"/>",
    "<c r=\"A1\"><v>1</v><v>2</v></c>", "<c r=\"A1\"><v>1</v></c><c r=\"A1\"><v>2</v></c>", "<c r=\"B2\"><v>1</v></c>",
    "<c r=\"A1\" t=\"s\"><v>0123456789012345678</v></c>", "<c r=\"A1\"><v>1</v></c>\n<c r=\"B1\"><v>2</v></c>",
    "<c/></row ><row r=\"2\"><c/>", "<c/></row><row r=\"2\" spans=\"1:1\"><c/>", "<c/></x:row><row><c/>",
    "<c/></row>\n<row r=\"3\"><c/>", "<c/></row><row r=\"2\"/><row r=\"3\"><c/>", "<c/></row><!--x--><row r=\"2\"><c/>",
    "<c r=\"A1\" t=\"inlineStr\"><is><r><t>a</t></r><t xml:space=\"preserve\"> b</t><rPh><t>c</t></rPh></is></c>",
};

const std::vector<ScanLimits> limit_sets = {
    ScanLimits{}, ScanLimits{2, 1 << 20, 512}, ScanLimits{3, 1 << 20, 512}, ScanLimits{4, 1 << 20, 512}, ScanLimits{5, 1 << 20, 512}, ScanLimits{6, 1 << 20, 512},
    ScanLimits{64, 2, 512}, ScanLimits{64, 3, 512}, ScanLimits{64, 4, 512}, ScanLimits{64, 8, 512}, ScanLimits{64, 14, 512}, ScanLimits{64, 22, 512}, ScanLimits{64, 1 << 20, 0},
    ScanLimits{64, 1 << 20, 1}, ScanLimits{64, 1 << 20, 2},
};

std::string sheet_with(const std::string& row_tag, const std::string& cells) {
  return "<worksheet><sheetData>" + row_tag + cells + "</row><row r=\"9\"><c r=\"A9\"><v>7</v></c></row></sheetData></worksheet>";
}

TEST(XlsxShortcut, CellsGiveWhatTheTokensGive) {
  const std::vector<std::string> row_tags = {
      "<row r=\"1\">", "<row>", "<x:row r=\"1\">", "<row r=\"1\" spans=\"1:4\">", "<row spans=\"1:4\">",
      "<row r=\"1\" spans=\"1:4\" ht=\"2\">", "<row r=\"1\" >", "<row r='1'>", "<row r=\"0\">", "<row r=\"1\" r=\"2\">",
      "<row r=\"1\" spans=\"a&amp;b\">", "<row r=\"x\">", "<row r=\"1\"spans=\"1:4\">"};
  for (const std::string& row_tag : row_tags) {
    for (const std::string& cells : cell_snippets) {
      const std::string xml = sheet_with(row_tag, cells);
      for (const ScanLimits& limits : limit_sets) {
        EXPECT_EQ(sheet_outcome(xml, xml.size(), true, true, limits), sheet_outcome(xml, xml.size(), true, false, limits))
            << xml << " depth " << limits.max_depth << " token " << limits.max_token_bytes << " attributes "
            << limits.max_attributes;
      }
    }
  }
}

TEST(XlsxShortcut, CellsCutAnywhereGiveWhatTheTokensGive) {
  // A chunk that is not final may end inside a cell: the shortcut must leave it to the tokens.
  for (const std::string& cells : cell_snippets) {
    const std::string xml = sheet_with("<row r=\"1\">", cells + cells);
    for (std::size_t size = 0; size <= xml.size(); ++size) {
      for (const bool final : {false, true}) {
        ASSERT_EQ(sheet_outcome(xml, size, final, true, {}), sheet_outcome(xml, size, final, false, {}))
            << xml.substr(0, size) << (final ? " (final)" : "");
      }
    }
  }
}

TEST(XlsxShortcut, ScannerReadsOnlyThePlainestShapeWhole) {
  const std::string xml = "<r><c r=\"A1\" t=\"s\"><v>4</v></c><c/><c s='2'></c><c><v>&amp;</v></c><x/></r>";
  XmlScanner sc(reinterpret_cast<const std::uint8_t*>(xml.data()), xml.size(), 100, true, {});
  SimpleElement e;
  EXPECT_FALSE(sc.try_simple_element("c", "v", e));  // the root is never a shortcut
  ASSERT_EQ(sc.next(), Token::start);
  ASSERT_TRUE(sc.try_simple_element("c", "v", e));
  EXPECT_EQ(sc.token_offset(), 103u);
  ASSERT_EQ(e.outer_count, 2);
  EXPECT_EQ(e.outer[0].local.view(), "r");
  EXPECT_EQ(e.outer[1].value.view(), "s");
  ASSERT_TRUE(e.has_inner);
  EXPECT_EQ(e.inner_count, 0);
  EXPECT_EQ(e.text.view(), "4");
  EXPECT_EQ(e.inner_offset, 119u);
  ASSERT_TRUE(sc.try_simple_element("c", "v", e));
  EXPECT_FALSE(e.has_inner);
  EXPECT_EQ(e.outer_count, 0);
  ASSERT_TRUE(sc.try_simple_element("c", "v", e));
  EXPECT_EQ(e.outer[0].value.view(), "2");
  // A reference in the text: left to the tokens, nothing consumed.
  EXPECT_FALSE(sc.try_simple_element("c", "v", e));
  ASSERT_EQ(sc.next(), Token::start);
  EXPECT_EQ(sc.local().view(), "c");
  EXPECT_EQ(sc.token_offset(), 148u);
  while (sc.depth() > 1) sc.next();
  EXPECT_FALSE(sc.try_simple_element("c", "v", e));  // another name
  ASSERT_EQ(sc.next(), Token::start);
  EXPECT_EQ(sc.local().view(), "x");
}

const std::vector<std::string> si_snippets = {
    "<si><t>a</t></si>", "<si><t xml:space=\"preserve\"> a </t></si>", "<si/>", "<si></si>", "<si><t/></si>",
    "<si><t></t></si>", "<si><r><t>a</t></r></si>", "<si><t>a&amp;b</t></si>", "<si><t>_x0041_b</t></si>",
    "<x:si><x:t>a</x:t></x:si>", "<si><t>a</t><rPh><t>b</t></rPh></si>", "<si a=\"1\"><t b=\"2\">x</t></si>",
    "<si><t>a</t ></si>", "<si><t>a</T></si>", "<si><t>a</t></si >", "<si><t xml:space=\"preserve\" xml:space=\"x\">a</t></si>",
    "<si><t>\r</t></si>", "<si><t>a</t>b</si>", "<si> <t>a</t></si>", "<si><t>\xF0\x9F\x98\x80\xED\xA0\x80</t></si>",
    "<si><u>a</u></si>", "<si><t>a<![CDATA[b]]></t></si>", "<si><t>a</t><t>b</t></si>", "<si><t>abcdefghijklmnopqrstuvwxyz</t></si>",
    // The byte shapes of shape_match.h, and bytes just outside them.
    "<si><t xml:space=\"default\">a</t></si>", "<si><t xml:space='preserve'>a</t></si>", "<si><t>a\nb\tc</t></si>",
    "<si><t xml:space=\"preserve\">0123456789abcdef\xC3\xA9xyz</t></si>", "<si><t>0123456789abcdef0123</t></si>",
    "<si><t>0123456789abcdef&amp;</t></si>", "<si><t>0123456789abcdef\r</t></si>", "<si><t>\x01</t></si>",
    "<si><t xml:space=\"preserve\"></t></si>", "<si><t>a</t></si><si><t>b</t></si>", "<si><t>0123456789_x0041_abcdef</t></si>",
    "<si><t>x</t></si>\n", "<si><t xml:space=\"preserve\" >a</t></si>",
    "<si><r><t>a</t></r><r><rPr><b/></rPr><t xml:space=\"preserve\"> b</t></r></si>", "<si><t>a</t><r><t>b</t></r></si>",
    "<si><r><t>a</t><t>b</t></r></si>", "<si><rPh><t>x</t></rPh><t>y</t></si>", "<si><r><r><t>x</t></r></r><t>y</t></si>",
    "<si><x><t>z</t></x><t>w</t></si>", "<si><r><t>a&amp;</t></r><r><t>\r</t></r></si>", "<si><r><t>_x0041_</t></r></si>",
    "<si><r><t/></r><t></t></si>", "<si><t>a</t><x:r><x:t>b</x:t></x:r></si>",
};

TEST(XlsxShortcut, SharedStringsGiveWhatTheTokensGive) {
  for (const std::string& si : si_snippets) {
    const std::string xml = "<sst>" + si + "<si><t>z</t></si>" + si + "</sst>";
    for (const ScanLimits& limits : limit_sets) {
      const std::string expected = strings_outcome(xml, false, limits, 0);
      for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{512 << 10}}) {
        for (const bool streamed : {false, true}) {
          if (streamed && chunk == 0) continue;  // streaming needs a chunk size
          for (const bool shortcut : {false, true}) {
            EXPECT_EQ(strings_outcome(xml, shortcut, limits, chunk, streamed), expected)
                << xml << " chunk " << chunk << (streamed ? " streamed" : "") << (shortcut ? " shortcut" : "")
                << " depth " << limits.max_depth << " token " << limits.max_token_bytes;
          }
        }
      }
    }
  }
}

TEST(XlsxShortcut, SharedStringsUnderATokenLimitBelowTheirTags) {
  // The root's name is not checked, so a root shorter than <si> lets the limit reach <si> itself.
  for (const std::string& si : {std::string("<si><t>a</t></si>"), std::string("<si><t xml:space=\"preserve\">a</t></si>")}) {
    const std::string xml = "<s>" + si + "</s>";
    for (const std::uint64_t token : {3u, 4u, 23u, 24u}) {
      const ScanLimits limits{64, token, 512};
      EXPECT_EQ(strings_outcome(xml, true, limits, 0), strings_outcome(xml, false, limits, 0)) << xml << " token " << token;
    }
  }
}

}  // namespace
}  // namespace docconform::xlsx::test
