// Each cross-reference form: classic tables (and their line-ending variants), xref streams with
// predictors, hybrid files, /Prev chains with free entries, object streams and their cache.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <set>
#include <tuple>

#include "docconform/error.h"
#include "docconform/pdf/generate.h"
#include "pdf_test_util.h"

namespace {

using docconform::Error;
using namespace docconform::pdf;
using pdftest::classic_pdf;
using pdftest::deflate;
using pdftest::one_page;

std::string be(std::uint64_t value, int width) {
  std::string out;
  for (int i = width - 1; i >= 0; --i) out += static_cast<char>(value >> (8 * i));
  return out;
}

struct Row {
  int type;
  std::uint64_t f2;
  std::uint64_t f3;
};

// Rows with /W [1 4 2], PNG Up predicted (type 2 rows) and deflated.
std::string predicted_rows(const std::vector<Row>& rows) {
  std::string out, previous(7, '\0');
  for (const Row& r : rows) {
    const std::string current = be(static_cast<std::uint64_t>(r.type), 1) + be(r.f2, 4) + be(r.f3, 2);
    out += '\x02';
    for (int k = 0; k < 7; ++k) out += static_cast<char>(current[k] - previous[k]);
    previous = current;
  }
  return deflate(out);
}

TEST(ClassicXref, ReadsTableTrailerAndPages) {
  const std::string pdf = classic_pdf(one_page());
  auto source = memory_source(pdf);
  Document doc(*source);
  EXPECT_EQ(doc.page_count(), 1u);
  ASSERT_EQ(doc.sections().size(), 1u);
  EXPECT_EQ(doc.sections()[0].form, XrefSection::Form::table);
  EXPECT_EQ(doc.xref().size(), 4u);
  EXPECT_EQ(doc.header_version(), "1.4");
  EXPECT_EQ(canonical_text(doc.object(3)), "<</Parent 2 0 R /Type /Page>>");
}

// ISO 32000-2 7.5.5: an object whose number is greater than /Size is missing, whatever the
// sections list; one numbered /Size itself is kept.
TEST(ClassicXref, ObjectsNumberedAboveSizeAreMissing) {
  std::vector<std::string> bodies = one_page();
  bodies.push_back("(four)");
  bodies.push_back("(five)");
  std::string pdf = classic_pdf(bodies);
  const std::size_t size = pdf.find("/Size 6");
  ASSERT_NE(size, std::string::npos);
  pdf[size + 6] = '4';
  auto source = memory_source(pdf);
  Document doc(*source);
  EXPECT_EQ(doc.xref().size(), 5u);
  EXPECT_EQ(canonical_text(doc.object(4)), "\"four\"");
  EXPECT_EQ(doc.object(5).kind, Kind::null);
}

TEST(ClassicXref, NineteenAndTwentyOneByteEntriesGiveTheSameResult) {
  const std::string standard = pdftest::dump(classic_pdf(one_page()), 2);
  // Objects precede the table, so only the table's bytes differ between the variants.
  EXPECT_EQ(pdftest::dump(classic_pdf(one_page(), "", "\n"), 2), standard);
  EXPECT_EQ(pdftest::dump(classic_pdf(one_page(), "", " \r\n"), 2), standard);
}

TEST(ClassicXref, EntryWithAnUnknownTypeIsAnErrorWithOffset) {
  std::string pdf = classic_pdf(one_page());
  const auto at = pdf.find(" 00000 n");
  pdf[at + 7] = 'x';
  try {
    pdftest::dump(pdf);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.context().offset, at + 7);
  }
}

// startxref at white space before `xref`, of one byte or a run (SPEC format pdf rule 3): the
// file reads as with startxref at `xref`, and the section keeps the offset as written.
TEST(ClassicXref, WhiteSpaceBeforeXrefAtTheStartxrefOffsetIsSkipped) {
  const std::string pdf = classic_pdf(one_page());
  const std::string standard = pdftest::dump(pdf, 2);
  const std::size_t xref = pdf.rfind("xref\n0 ");
  for (const std::string& white : std::vector<std::string>{"\n", "\r\n", " \r\n", std::string("\0\t\x0C ", 4) + std::string(5000, ' ')}) {
    std::string shifted = pdf.substr(0, xref) + white + pdf.substr(xref);
    shifted = shifted.substr(0, shifted.rfind("startxref\n")) + "startxref\n" + std::to_string(xref) + "\n%%EOF\n";
    auto source = memory_source(shifted);
    Document doc(*source);
    EXPECT_EQ(doc.sections().at(0).offset, xref);
    EXPECT_EQ(pdftest::dump(shifted, 2), standard) << white.size();
  }
}

TEST(ClassicXref, CommentBeforeXrefAtTheStartxrefOffsetStillRejects) {
  const std::string pdf = classic_pdf(one_page());
  const std::size_t xref = pdf.rfind("xref\n0 ");
  std::string shifted = pdf.substr(0, xref) + "%c\n" + pdf.substr(xref);
  shifted = shifted.substr(0, shifted.rfind("startxref\n")) + "startxref\n" + std::to_string(xref) + "\n%%EOF\n";
  EXPECT_THROW(pdftest::dump(shifted, 2), Error);
}

// Ends `out` with an xref stream, object rows.size(), which lists itself last, and startxref.
// keys go into its dictionary; encode stores the rows (default: PNG Up rows of 7 columns).
std::string with_xref_stream(std::string out, std::vector<Row> rows, const std::string& keys = "",
                             const std::string& parms = "/Predictor 12 /Columns 7",
                             const std::function<std::string(const std::vector<Row>&)>& encode = predicted_rows) {
  const std::size_t self = rows.size();
  rows.push_back({1, out.size(), 0});
  const std::string data = encode(rows);
  const std::size_t at = out.size();
  out += std::to_string(self) + " 0 obj\n<< /Type /XRef /Size " + std::to_string(self + 1) + " /W [1 4 2] " + keys +
         " /Filter /FlateDecode /DecodeParms << " + parms + " >> /Length " + std::to_string(data.size()) +
         " >>\nstream\n" + data + "\nendstream\nendobj\nstartxref\n" + std::to_string(at) + "\n%%EOF\n";
  return out;
}

std::string xref_stream_pdf(bool with_objstm) {
  std::string out = "%PDF-1.5\n";
  std::vector<Row> rows = {{0, 0, 65535}};
  if (!with_objstm) {
    for (const std::string& body : one_page()) {
      rows.push_back({1, out.size(), 0});
      out += std::to_string(rows.size() - 1) + " 0 obj\n" + body + "\nendobj\n";
    }
  } else {
    // Objects 1-3 in object stream 4.
    std::string header, data;
    for (std::size_t i = 0; i < 3; ++i) {
      header += std::to_string(i + 1) + " " + std::to_string(data.size()) + " ";
      data += one_page()[i] + " ";
      rows.push_back({2, 4, i});
    }
    const std::string packed = deflate(header + data);
    rows.push_back({1, out.size(), 0});
    out += "4 0 obj\n<< /Type /ObjStm /N 3 /First " + std::to_string(header.size()) + " /Filter /FlateDecode /Length " +
           std::to_string(packed.size()) + " >>\nstream\n" + packed + "\nendstream\nendobj\n";
  }
  return with_xref_stream(out, rows, "/Root 1 0 R");
}

// An xref stream whose own entry gives offset 0 or another object's offset (SPEC format pdf rule
// 6): level 2 keeps the entry, level 3 reads the stream where the chain read it.
TEST(XrefStream, OwnEntryThatMissesItIsReadWhereTheChainReadIt) {
  for (const std::uint64_t wrong : {std::uint64_t{0}, std::uint64_t{9}}) {
    std::string out = "%PDF-1.5\n";
    std::vector<Row> rows = {{0, 0, 65535}};
    for (const std::string& body : one_page()) {
      rows.push_back({1, out.size(), 0});
      out += std::to_string(rows.size() - 1) + " 0 obj\n" + body + "\nendobj\n";
    }
    const std::string pdf = with_xref_stream(out, rows, "/Root 1 0 R", "/Predictor 12 /Columns 7", [&](std::vector<Row> all) {
      all.back().f2 = wrong;
      return predicted_rows(all);
    });
    auto source = memory_source(pdf);
    Document doc(*source);
    EXPECT_EQ(doc.xref().at(4).offset, wrong);
    const Object stream = doc.object(4);
    ASSERT_EQ(stream.kind, Kind::stream);
    EXPECT_EQ(stream.get("Type")->bytes, "XRef");
    EXPECT_NE(pdftest::dump(pdf, 3).find("\nobj 4 0 stream <<"), std::string::npos);
  }
}

// The exception is only for xref streams: another object's entry that misses it still rejects.
TEST(XrefStream, AnotherObjectsEntryThatMissesItStillRejects) {
  std::string out = "%PDF-1.5\n";
  std::vector<Row> rows = {{0, 0, 65535}};
  for (const std::string& body : one_page()) {
    rows.push_back({1, out.size(), 0});
    out += std::to_string(rows.size() - 1) + " 0 obj\n" + body + "\nendobj\n";
  }
  rows[3].f2 = 0;
  const std::string pdf = with_xref_stream(out, rows, "/Root 1 0 R");
  EXPECT_THROW(pdftest::dump(pdf, 3), Error);
}

// ISO 32000-2 7.3.10: object numbers are positive; object 0 heads the free list.
TEST(XrefStream, AnXrefStreamNumberedZeroIsRejected) {
  std::string pdf = xref_stream_pdf(false);
  const std::size_t header = pdf.rfind("4 0 obj\n<< /Type /XRef");
  ASSERT_NE(header, std::string::npos);
  EXPECT_NO_THROW(pdftest::dump(pdf, 2));
  pdf[header] = '0';
  try {
    pdftest::dump(pdf, 2);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().part, "xref stream");
    EXPECT_NE(std::string(e.what()).find("object number 0"), std::string::npos) << e.what();
  }
}

TEST(XrefStream, PngPredictedFlateStream) {
  auto source = memory_source(xref_stream_pdf(false));
  Document doc(*source);
  EXPECT_EQ(doc.sections()[0].form, XrefSection::Form::stream);
  EXPECT_EQ(doc.page_count(), 1u);
  EXPECT_EQ(doc.xref()[3].type, XrefEntry::Type::offset);
}

// The PNG encoder of §7.4.4.4 (RFC 2083 §6), written out plainly: row r uses type types[r % 5].
std::string png_rows(const std::vector<Row>& rows, std::size_t bpp, const std::vector<int>& types) {
  std::string out, previous(7, '\0');
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::string current = be(static_cast<std::uint64_t>(rows[r].type), 1) + be(rows[r].f2, 4) + be(rows[r].f3, 2);
    const int type = types[r % types.size()];
    out += static_cast<char>(type);
    for (std::size_t i = 0; i < 7; ++i) {
      const int left = i >= bpp ? static_cast<std::uint8_t>(current[i - bpp]) : 0;
      const int up = static_cast<std::uint8_t>(previous[i]);
      const int up_left = i >= bpp ? static_cast<std::uint8_t>(previous[i - bpp]) : 0;
      const int p = left + up - up_left;
      const int paeth = std::abs(p - left) <= std::abs(p - up) && std::abs(p - left) <= std::abs(p - up_left)
                            ? left : (std::abs(p - up) <= std::abs(p - up_left) ? up : up_left);
      const int predicted[] = {0, left, up, (left + up) / 2, paeth};
      out += static_cast<char>(static_cast<std::uint8_t>(current[i]) - predicted[type]);
    }
    previous = current;
  }
  return deflate(out);
}

TEST(XrefStream, EveryPngRowTypeDecodes) {
  // Offsets with varied bytes, so every predictor sees different left, up and upper-left values;
  // rows 1-2 make a Paeth tie between up and upper-left (left 110, up 80, upper-left 100).
  std::vector<Row> rows = {{0, 0, 65535}, {1, 9, 100 * 256 + 80}, {1, 9, 110 * 256 + 40}};
  for (std::uint64_t k = 1; k <= 400; ++k) rows.push_back({1, (k * 2654435761u) % 5000 + 9, (k * 40503u) % 65536});
  for (const auto& [colors_value, columns] : {std::pair{1, 7}, std::pair{7, 1}}) {
    const int colors = colors_value;  // clang 14 cannot capture a structured binding in a lambda
    for (const std::vector<int>& types : {std::vector<int>{0, 1, 2, 3, 4}, {4, 4, 3, 1}, {1}, {3}, {4}}) {
      const std::string out = with_xref_stream(
          "%PDF-1.5\n" + std::string(5100, ' ') + "\n", rows, "",
          "/Predictor 15 /Colors " + std::to_string(colors) + " /Columns " + std::to_string(columns),
          [&](const std::vector<Row>& all) { return png_rows(all, static_cast<std::size_t>(colors), types); });
      auto source = memory_source(out);
      Document doc(*source);
      ASSERT_EQ(doc.xref().size(), rows.size() + 1);
      for (std::size_t num = 1; num < rows.size(); ++num) {
        EXPECT_EQ(doc.xref()[num].offset, rows[num].f2) << "object " << num << ", colors " << colors;
        EXPECT_EQ(doc.xref()[num].gen, rows[num].f3) << "object " << num << ", colors " << colors;
      }
    }
  }
}

TEST(XrefStream, FirstListingOfANumberInOneSectionCounts) {
  // /Index [1 2 2 2] lists object 2 twice: at 20 first, then at 30 (and object 3 at 40).
  const std::vector<Row> rows = {{1, 10, 0}, {1, 20, 0}, {1, 30, 0}, {1, 40, 0}};
  const std::string head = "%PDF-1.5\n" + std::string(60, ' ') + "\n";
  auto source = memory_source(with_xref_stream(head, rows, "/Index [1 2 2 2 4 1]"));
  Document doc(*source);
  ASSERT_EQ(doc.xref().size(), 5u);
  EXPECT_EQ(doc.xref()[1].offset, 10u);
  EXPECT_EQ(doc.xref()[2].offset, 20u);
  EXPECT_EQ(doc.xref()[3].offset, 40u);
  EXPECT_EQ(doc.xref()[4].offset, head.size());
  EXPECT_EQ(doc.sections()[0].entries, 5u);
}

TEST(XrefStream, ObjectStreamIsInflatedOnceForItsNeighbours) {
  auto source = memory_source(xref_stream_pdf(true));
  Document doc(*source);
  EXPECT_EQ(doc.page_count(), 1u);
  EXPECT_EQ(canonical_text(doc.object(2)), "<</Count 1 /Kids [3 0 R] /MediaBox [0 0 612 792] /Type /Pages>>");
  EXPECT_EQ(doc.stats().objstm_inflated, 1u);
  EXPECT_GE(doc.stats().objstm_cache_hits, 2u);
}

TEST(XrefStream, TheObjectStreamHeaderPlacesObjectsWhoseIndexIsWrong) {
  // Header: 3, 1, 2, then 1 again (a decoy). The xref's indexes all miss: 1 -> slot 2, 2 -> 3,
  // 3 -> 1; object 5 is placed in the stream but not listed by it.
  const std::vector<std::pair<int, std::string>> listed = {
      {3, one_page()[2]}, {1, one_page()[0]}, {2, one_page()[1]}, {1, "(decoy)"}};
  std::string header, data;
  for (const auto& [num, body] : listed) {
    header += std::to_string(num) + " " + std::to_string(data.size()) + " ";
    data += body + " ";
  }
  std::string out = "%PDF-1.5\n";
  const std::string packed = deflate(header + data);
  const std::uint64_t stream_at = out.size();
  out += "4 0 obj\n<< /Type /ObjStm /N 4 /First " + std::to_string(header.size()) +
         " /Filter /FlateDecode /Length " + std::to_string(packed.size()) + " >>\nstream\n" + packed + "\nendstream\nendobj\n";
  const std::vector<Row> rows = {{0, 0, 65535}, {2, 4, 2}, {2, 4, 3}, {2, 4, 1}, {1, stream_at, 0}, {2, 4, 0}};
  auto source = memory_source(with_xref_stream(out, rows, "/Root 1 0 R"));
  Document doc(*source);
  EXPECT_EQ(doc.page_count(), 1u);
  EXPECT_EQ(canonical_text(doc.object(1)), "<</Pages 2 0 R /Type /Catalog>>");
  EXPECT_EQ(canonical_text(doc.object(2)), "<</Count 1 /Kids [3 0 R] /MediaBox [0 0 612 792] /Type /Pages>>");
  EXPECT_EQ(canonical_text(doc.object(3)), "<</Parent 2 0 R /Type /Page>>");
  try {
    doc.object(5);
    ADD_FAILURE() << "object 5 is not in the stream's header";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("does not list this object"), std::string::npos) << e.what();
  }
}

// An entry that places an object in a stream that is not there, or in an object that is not an
// uncompressed stream: the error names the xref section that lists the entry.
TEST(XrefStream, ObjectStreamEntryErrorsNameTheirSection) {
  const std::string head = "%PDF-1.5\n";
  // Object 1 in object stream 9 (past the table); object 2 in object 3, itself compressed.
  const std::vector<Row> rows = {{0, 0, 65535}, {2, 9, 0}, {2, 3, 0}, {2, 1, 0}};
  const std::string pdf = with_xref_stream(head, rows, "/Root 1 0 R");
  const std::uint64_t section = pdf.find("4 0 obj");
  auto source = memory_source(pdf);
  Document doc(*source);
  ASSERT_EQ(doc.sections().size(), 1u);
  ASSERT_EQ(doc.sections()[0].offset, section);
  for (const std::uint32_t num : {1u, 2u}) {
    try {
      doc.object(num);
      ADD_FAILURE() << "object " << num << " resolved";
    } catch (const Error& e) {
      EXPECT_EQ(e.context().offset, section) << e.what();
    }
  }
}

TEST(XrefStream, LevelOneCountsObjectStreamAndXrefStream) {
  const std::string dump = pdftest::dump(xref_stream_pdf(true), 1);
  EXPECT_NE(dump.find("\npages 1\nobjects 5\n"), std::string::npos) << dump;
}

// An update appended after base: object 3 replaced, object 2's old version untouched,
// a new object 4 deleted later.
TEST(PrevChain, NewestEntryWinsAndFreeEntriesHideOlderOnes) {
  std::vector<std::size_t> offsets;
  std::string pdf = classic_pdf({one_page()[0], one_page()[1], one_page()[2], "(old four)"}, "", "\r\n", &offsets);
  const std::size_t first_xref = std::stoul(pdf.substr(pdf.rfind("startxref\n") + 10));
  const std::size_t obj3 = pdf.size();
  pdf += "3 0 obj\n<< /Type /Page /Parent 2 0 R /Rotate 90 >>\nendobj\n";
  const std::size_t second = pdf.size();
  pdf += "xref\n3 2\n" + pdftest::entry20(obj3, 0, 'n') + pdftest::entry20(0, 1, 'f') +
         "trailer\n<< /Size 5 /Root 1 0 R /Prev " + std::to_string(first_xref) + " >>\nstartxref\n" + std::to_string(second) +
         "\n%%EOF\n";
  auto source = memory_source(pdf);
  Document doc(*source);
  EXPECT_EQ(doc.sections().size(), 2u);
  EXPECT_EQ(doc.xref()[3].offset, obj3);
  EXPECT_EQ(doc.xref()[4].type, XrefEntry::Type::free);
  EXPECT_EQ(doc.object(4).kind, Kind::null);
  std::uint64_t rotate = 0;
  doc.walk_pages([&](const PageInfo& page) { rotate = static_cast<std::uint64_t>(page.rotate.integer); });
  EXPECT_EQ(rotate, 90u);
}

TEST(Hybrid, XRefStmSuppliesWhatTheTableMarksFree) {
  // Table lists 1-3 in use and 5 free; the xref stream (object 6) puts object 5 in object stream 4.
  std::string out = "%PDF-1.5\n";
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < 3; ++i) {
    at.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + one_page()[i] + "\nendobj\n";
  }
  const std::string header = "5 0 ";
  const std::string packed = deflate(header + "(compressed five)");
  const std::size_t stm4 = out.size();
  out += "4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length " + std::to_string(packed.size()) +
         " >>\nstream\n" + packed + "\nendstream\nendobj\n";
  const std::size_t stm6 = out.size();
  const std::string rows = predicted_rows({{2, 4, 0}});
  out += "6 0 obj\n<< /Type /XRef /Size 7 /Index [5 1] /W [1 4 2] /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 7 >> /Length " +
         std::to_string(rows.size()) + " >>\nstream\n" + rows + "\nendstream\nendobj\n";
  const std::size_t table = out.size();
  out += "xref\n0 7\n" + pdftest::entry20(0, 65535, 'f');
  for (std::size_t a : at) out += pdftest::entry20(a, 0, 'n');
  out += pdftest::entry20(stm4, 0, 'n') + pdftest::entry20(0, 0, 'f') + pdftest::entry20(stm6, 0, 'n');
  out += "trailer\n<< /Size 7 /Root 1 0 R /XRefStm " + std::to_string(stm6) + " >>\nstartxref\n" + std::to_string(table) +
         "\n%%EOF\n";
  auto source = memory_source(out);
  Document doc(*source);
  EXPECT_EQ(doc.sections()[0].form, XrefSection::Form::hybrid);
  EXPECT_EQ(doc.xref()[5].type, XrefEntry::Type::compressed);
  EXPECT_EQ(doc.object(5).bytes, "compressed five");
  EXPECT_EQ(doc.page_count(), 1u);
}

TEST(Header, BytesBeforeTheHeaderShiftEveryOffset) {
  const std::string pdf = classic_pdf(one_page());
  const std::string shifted = "JUNK\n" + pdf;
  auto source = memory_source(shifted);
  Document doc(*source);
  EXPECT_EQ(doc.header_offset(), 5u);
  EXPECT_EQ(doc.page_count(), 1u);
}

}  // namespace

namespace {

// The order's definition: every in-use object's key (offset, 0, number), or for a member of an
// object stream (the stream's offset, or last when the xref does not place it, index + 1,
// number), sorted.
std::vector<std::uint32_t> key_order(const Document& doc) {
  struct Key {
    std::uint64_t offset, index;
    std::uint32_t num;
  };
  const auto& xref = doc.xref();
  std::vector<Key> keys;
  for (std::uint32_t num = 1; num < xref.size(); ++num) {
    const XrefEntry& e = xref[num];
    if (e.type == XrefEntry::Type::offset) {
      keys.push_back({e.offset, 0, num});
    } else if (e.type == XrefEntry::Type::compressed) {
      const bool placed = e.offset < xref.size() && xref[e.offset].type == XrefEntry::Type::offset;
      keys.push_back({placed ? xref[e.offset].offset : UINT64_MAX, e.index + 1ull, num});
    }
  }
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return std::tie(a.offset, a.index, a.num) < std::tie(b.offset, b.index, b.num);
  });
  std::vector<std::uint32_t> order;
  for (const Key& k : keys) order.push_back(k.num);
  return order;
}

TEST(FileOrder, FollowsTheKeyDefinitionOnABrokenXref) {
  // Only the xref is read, so the rows may point anywhere inside the file. Objects 1-2 share an
  // offset, as do streams 6 and 7; members come in numbers that disagree with their indexes;
  // some name a free number (8), object 0, a number past /Size, or a non-stream (1).
  const std::vector<Row> rows = {
      {0, 0, 65535}, {1, 40, 0}, {1, 40, 0}, {1, 10, 0}, {2, 3, 5},  {2, 3, 1},  {1, 30, 0},  {1, 30, 0},
      {0, 0, 0},     {2, 6, 2},  {2, 7, 1},  {2, 6, 1}, {2, 8, 0},  {2, 99, 3}, {2, 0, 2},   {2, 1, 0},
      {2, 3, 1},     {2, 7, 0},  {1, 20, 0}, {2, 8, 1}};
  auto source = memory_source(with_xref_stream("%PDF-1.5\n" + std::string(60, ' ') + "\n", rows));
  Document doc(*source);
  const std::vector<std::uint32_t> expected = key_order(doc);
  ASSERT_EQ(expected.size(), 19u);
  EXPECT_EQ(doc.objects_in_file_order(), expected);
}

TEST(FileOrder, SweepsForwardAndListsEveryObjectOnce) {
  docconform::pdf::GenerateOptions options;
  options.objects = 200;
  options.payload = 50;
  options.object_streams = true;
  options.updates = 2;
  options.shuffle = true;
  options.cluster = 10;
  auto source = memory_source(pdftest::generated_pdf(options));
  Document doc(*source);
  const std::vector<std::uint32_t> order = doc.objects_in_file_order();
  EXPECT_EQ(order, key_order(doc));
  std::uint64_t in_use = 0, last = 0;
  std::vector<bool> seen(doc.xref().size());
  for (std::uint32_t num = 1; num < doc.xref().size(); ++num) {
    in_use += doc.xref()[num].type == XrefEntry::Type::offset || doc.xref()[num].type == XrefEntry::Type::compressed;
  }
  ASSERT_EQ(order.size(), in_use);
  for (const std::uint32_t num : order) {
    EXPECT_FALSE(seen[num]);
    seen[num] = true;
    const XrefEntry& e = doc.xref()[num];
    const std::uint64_t at = e.type == XrefEntry::Type::offset ? e.offset : doc.xref()[e.offset].offset;
    EXPECT_GE(at, last);
    last = at;
    doc.object(num);
  }
  // Each object stream that holds a current object was inflated exactly once.
  std::set<std::uint64_t> streams;
  for (const XrefEntry& e : doc.xref()) {
    if (e.type == XrefEntry::Type::compressed) streams.insert(e.offset);
  }
  EXPECT_EQ(doc.stats().objstm_inflated, streams.size());
}

}  // namespace
