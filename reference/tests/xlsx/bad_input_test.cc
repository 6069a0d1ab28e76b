#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "docconform/error.h"
#include "test_workbook.h"

namespace docconform::xlsx::test {
namespace {

Error error_of(const std::string& bytes, const LoadOptions& options = {}) {
  try {
    load_workbook(bytes, options, "bad.xlsx");
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "loaded";
  return Error(ErrorKind::usage, {}, "");
}

// Fields of an entry's central directory record.
constexpr std::size_t central_crc = 16, central_compressed_size = 20, central_size = 24;

// Sets a 32-bit field of an entry's central directory record.
void patch_central_field(std::string& zip, const std::string& name, std::size_t field, std::uint32_t value) {
  std::size_t at = 0;
  while ((at = zip.find("PK\x01\x02", at)) != std::string::npos) {
    std::uint16_t name_length;
    std::memcpy(&name_length, zip.data() + at + 28, 2);
    if (zip.compare(at + 46, name_length, name) == 0) {
      std::memcpy(zip.data() + at + field, &value, 4);
      return;
    }
    at += 4;
  }
  FAIL() << "entry not found";
}

std::uint32_t central_field(const std::string& zip, const std::string& name, std::size_t field) {
  const std::size_t at = zip.find(name, zip.find("PK\x01\x02")) - 46;
  std::uint32_t value;
  std::memcpy(&value, zip.data() + at + field, 4);
  return value;
}

// Where an entry's local header starts.
std::size_t local_header(const std::string& zip, const std::string& name) {
  std::size_t at = 0;
  while ((at = zip.find("PK\x03\x04", at)) != std::string::npos) {
    std::uint16_t name_length;
    std::memcpy(&name_length, zip.data() + at + 26, 2);
    if (zip.compare(at + 30, name_length, name) == 0) return at;
    at += 4;
  }
  ADD_FAILURE() << "entry not found";
  return 0;
}

// Sets the size an entry declares, in its local header and its central directory record alike.
void patch_declared_size(std::string& zip, const std::string& name, std::uint32_t size) {
  std::memcpy(zip.data() + local_header(zip, name) + 22, &size, 4);
  patch_central_field(zip, name, central_size, size);
}

// Every way a sheet is read: serial, threads, one chunk or many, inflated in the workers or not.
std::vector<LoadOptions> every_read_mode() {
  std::vector<LoadOptions> modes;
  for (const unsigned threads : {1u, 2u}) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{512}}) {
      for (const InflateMode inflate : {InflateMode::serial, InflateMode::workers}) {
        LoadOptions o;
        o.threads = threads;
        o.chunk_bytes = chunk;
        o.inflate = inflate;
        modes.push_back(o);
      }
    }
  }
  return modes;
}

std::string rows_of_numbers(int rows) {
  std::string data;
  for (int r = 1; r <= rows; ++r) data += "<row r=\"" + std::to_string(r) + "\"><c><v>" + std::to_string(r * 7) + "</v></c></row>";
  return data;
}

TEST(XlsxBadInput, AWrongCrcFailsAtThePartsEndNamingIt) {
  const std::string sheet_xml = sheet(rows_of_numbers(3000));
  std::string bytes = workbook_with_sheet(sheet_xml);
  const std::string part = "xl/worksheets/sheet1.xml";
  const std::uint32_t crc = central_field(bytes, part, central_crc);
  patch_central_field(bytes, part, central_crc, crc ^ 1);
  bytes[local_header(bytes, part) + 14] ^= 1;  // the headers agree, on a CRC-32 the data does not have
  // Both values, so that a damaged CRC field can be told from damaged data.
  char expected[96];
  std::snprintf(expected, sizeof expected, "CRC-32 mismatch: the inflated data's is %08x, the zip directory states %08x", crc, crc ^ 1);
  for (const LoadOptions& o : every_read_mode()) {
    const Error e = error_of(bytes, o);
    EXPECT_EQ(e.kind(), ErrorKind::format) << e.what();
    EXPECT_EQ(e.context().part, part) << e.what();
    EXPECT_EQ(e.context().offset, sheet_xml.size()) << e.what();  // known only once all is inflated
    EXPECT_EQ(e.message(), expected) << e.what();
  }
}

// Damaged deflate data says so, and by which compressed byte the inflater found it.
TEST(XlsxBadInput, DamagedDeflateDataNamesTheCompressedByte) {
  const std::string part = "xl/worksheets/sheet1.xml";
  const std::string intact = workbook_with_sheet(sheet(rows_of_numbers(3000)));
  const std::size_t data = local_header(intact, part) + 30 + part.size();
  const std::string prefix = "corrupt compressed data: ", by = "(by compressed byte ";
  // Some damage still decodes (to other bytes, which the CRC-32 catches): the first place where
  // 16 bytes of ones do not.
  std::string bytes;
  std::size_t damage = 100;
  for (;; damage += 50) {
    ASSERT_LT(damage, 3000u) << "no damage found that makes the data undecodable";
    bytes = intact;
    std::memset(bytes.data() + data + damage, 0xFF, 16);
    if (error_of(bytes).message().rfind(prefix, 0) == 0) break;
  }
  for (LoadOptions o : every_read_mode()) {
    for (const InflaterKind inflater : {InflaterKind::zlib, InflaterKind::isal}) {
      if (!inflater_available(inflater)) continue;
      o.inflater = inflater;
      const Error e = error_of(bytes, o);
      EXPECT_EQ(e.context().part, part) << e.what();
      ASSERT_EQ(e.message().rfind(prefix, 0), 0u) << e.what();
      const std::size_t at = e.message().find(by);
      ASSERT_NE(at, std::string::npos) << e.what();
      const std::size_t byte = std::stoul(e.message().substr(at + by.size()));
      EXPECT_GT(byte, damage) << e.what();
      EXPECT_LT(byte, damage + 16 + 64) << e.what();
    }
  }
}

TEST(XlsxBadInput, DeflateDataCutShortIsAFormatError) {
  std::string bytes = workbook_with_sheet(sheet(rows_of_numbers(3000)));
  const std::string part = "xl/worksheets/sheet1.xml";
  const std::uint32_t half = central_field(bytes, part, central_compressed_size) / 2;
  patch_central_field(bytes, part, central_compressed_size, half);
  std::memcpy(bytes.data() + local_header(bytes, part) + 18, &half, 4);
  for (const LoadOptions& o : every_read_mode()) {
    const Error e = error_of(bytes, o);
    EXPECT_EQ(e.kind(), ErrorKind::format) << e.what();
    EXPECT_EQ(e.context().part, part) << e.what();
    EXPECT_EQ(e.message(), "corrupt compressed data: the deflate data ends early, after " + std::to_string(half) + " compressed bytes")
        << e.what();
  }
}

TEST(XlsxBadInput, CorruptZip) {
  EXPECT_EQ(error_of("").kind(), ErrorKind::format);
  EXPECT_EQ(error_of("PK\x03\x04 not really").kind(), ErrorKind::format);
  GenOptions g;
  g.rows = 50;
  std::string bytes = generate_workbook(g);
  const std::size_t at = bytes.find("xl/worksheets/sheet1.xml") + 40;  // inside the compressed data
  for (std::size_t i = 0; i < 16; ++i) bytes[at + i] = static_cast<char>(bytes[at + i] ^ 0x5A);
  const Error e = error_of(bytes);
  EXPECT_EQ(e.kind(), ErrorKind::format);
  EXPECT_EQ(e.context().file, "bad.xlsx");
}

// Damage libzip reports only as "Not a zip archive" is named where the bytes show it.
TEST(XlsxBadInput, ACutShortOrMisdirectedZipSaysWhereAndWhy) {
  GenOptions g;
  g.rows = 50;
  const std::string bytes = generate_workbook(g);
  for (const std::size_t cut : {std::size_t{1}, bytes.size() / 2}) {
    const Error e = error_of(bytes.substr(0, bytes.size() - cut));
    EXPECT_EQ(e.kind(), ErrorKind::format);
    EXPECT_EQ(e.context().part, "zip end of central directory");
    EXPECT_EQ(e.context().offset, bytes.size() - cut);
    EXPECT_NE(e.message().find("truncated"), std::string::npos) << e.what();
  }
  // The end record's directory offset moved: no directory record where it points.
  const std::size_t end_record = bytes.rfind("PK\x05\x06");
  std::string moved = bytes;
  moved[end_record + 16] = static_cast<char>(moved[end_record + 16] - 8);
  const Error e = error_of(moved);
  EXPECT_EQ(e.context().part, "zip central directory");
  EXPECT_NE(e.message().find("where the end record at " + std::to_string(end_record)), std::string::npos) << e.what();
}

TEST(XlsxBadInput, SharedStringIndexOutOfRangeNamesPartAndOffset) {
  const std::string s = sheet("<row r=\"1\"><c r=\"A1\" t=\"s\"><v>1</v></c></row>");
  const Error e = error_of(workbook_with_sheet(s, "<si><t>only</t></si>"));
  EXPECT_EQ(e.kind(), ErrorKind::range);
  EXPECT_EQ(e.context().part, "xl/worksheets/sheet1.xml");
  EXPECT_EQ(e.context().offset, s.find("<v>"));
}

TEST(XlsxBadInput, ReferencesOutsideTheSheetLimits) {
  for (const char* data : {"<row r=\"1048577\"/>", "<row r=\"1\"><c r=\"XFE1\"><v>1</v></c></row>",
                           "<row r=\"1\"><c r=\"A1048577\"><v>1</v></c></row>", "<row r=\"0\"/>",
                           "<row r=\"1048576\"/><row/>"}) {
    const Error e = error_of(workbook_with_sheet(sheet(data)));
    EXPECT_EQ(e.kind(), ErrorKind::range) << data;
    EXPECT_TRUE(e.context().offset.has_value()) << data;
  }
  std::string cells = "<row r=\"1\"><c r=\"XFD1\"><v>1</v></c><c><v>2</v></c></row>";
  EXPECT_EQ(error_of(workbook_with_sheet(sheet(cells))).kind(), ErrorKind::range);
}

TEST(XlsxBadInput, ImpliedRowsBeyondTheLimitAcrossChunks) {
  std::string data = "<row r=\"1048575\"><c><v>1</v></c></row>";
  for (int i = 0; i < 5; ++i) data += "<row><c><v>1</v></c></row>";
  LoadOptions small;
  small.chunk_bytes = 40;
  for (const LoadOptions& o : {LoadOptions{}, small}) {
    EXPECT_EQ(error_of(workbook_with_sheet(sheet(data)), o).kind(), ErrorKind::range);
  }
}

TEST(XlsxBadInput, ZipBombByActualSize) {
  const std::string s = sheet("<row r=\"1\"><c r=\"A1\"><v>1</v></c></row>" + std::string(8 << 20, ' '));
  LoadOptions o;
  o.limits.inflate_floor = 1 << 20;
  o.limits.inflate_ratio = 10;
  const Error e = error_of(workbook_with_sheet(s), o);
  EXPECT_EQ(e.kind(), ErrorKind::limit);
  EXPECT_EQ(e.context().part, "xl/worksheets/sheet1.xml");
  o.inflate = InflateMode::serial;
  EXPECT_EQ(error_of(workbook_with_sheet(s), o).kind(), ErrorKind::limit);
}

TEST(XlsxBadInput, ZipBombByDeclaredSize) {
  std::string bytes = workbook_with_sheet(sheet("<row r=\"1\"/>"));
  patch_declared_size(bytes, "xl/worksheets/sheet1.xml", 0xFFFFFFF0u);
  LoadOptions o;
  o.limits.max_part_bytes = 1 << 30;
  const Error e = error_of(bytes, o);
  EXPECT_EQ(e.kind(), ErrorKind::limit);
  EXPECT_EQ(e.context().part, "xl/worksheets/sheet1.xml");
  // The offset is of the central directory record that declares the size.
  ASSERT_TRUE(e.context().offset.has_value());
  const auto at = static_cast<std::size_t>(*e.context().offset);
  EXPECT_EQ(bytes.compare(at, 4, "PK\x01\x02"), 0);
  EXPECT_EQ(bytes.compare(at + 46, 24, "xl/worksheets/sheet1.xml"), 0);
}

// APPNOTE 4.4.17: a stored path has no leading slash; OPC maps the part /xl/a.xml to the item
// xl/a.xml. An entry named with one (or a backslash, read as one) rejects the file at its record.
TEST(XlsxBadInput, AZipEntryNameWithALeadingSlashIsRefused) {
  for (const std::string name : {"/xl/styles.xml", "\\xl\\styles.xml"}) {
    const std::string bytes =
        workbook_with_sheet(sheet("<row r=\"1\"/>"), "", {{name, "<styleSheet xmlns=\"x\"/>"}});
    const Error e = error_of(bytes);
    EXPECT_EQ(e.kind(), ErrorKind::format) << e.what();
    EXPECT_EQ(e.context().part, name);
    EXPECT_EQ(e.context().offset, bytes.rfind(name) - 46) << e.what();  // the central record holding the name
    EXPECT_NE(std::string(e.what()).find("starts with a slash"), std::string::npos) << e.what();
  }
}

// Two readers must not see two workbooks: an entry whose local header disagrees with its central
// directory record, or a part name given twice, is refused at the field that disagrees.
TEST(XlsxBadInput, ZipEntriesThatReadersCouldReadDifferentlyAreRefused) {
  const std::string part = "xl/worksheets/sheet1.xml";
  const std::string good = workbook_with_sheet(sheet("<row r=\"1\"/>"));
  const std::size_t local = local_header(good, part);

  std::string bytes = good;
  patch_central_field(bytes, part, central_size, central_field(bytes, part, central_size) + 1);
  Error e = error_of(bytes);
  EXPECT_EQ(e.kind(), ErrorKind::format);
  EXPECT_EQ(e.context().part, part);
  EXPECT_EQ(e.context().offset, local + 22);
  EXPECT_NE(std::string(e.what()).find("size"), std::string::npos) << e.what();

  bytes = good;
  bytes[local + 14] ^= 1;  // the local header's CRC-32; the data matches the central directory's
  e = error_of(bytes);
  EXPECT_EQ(e.context().offset, local + 14);
  EXPECT_NE(std::string(e.what()).find("CRC-32"), std::string::npos) << e.what();

  // Flag bit 3: the local header may give zeros, the data descriptor carrying the values; not
  // other values.
  bytes = good;
  bytes[local + 6] |= 8;
  std::memset(bytes.data() + local + 14, 0, 12);
  EXPECT_EQ(dump_sha256(load_workbook(bytes, {}, "descriptor.xlsx")), dump_sha256(load_workbook(good, {}, "good.xlsx")));
  bytes[local + 14] = 1;
  e = error_of(bytes);
  EXPECT_EQ(e.context().offset, local + 14);
  EXPECT_NE(std::string(e.what()).find("CRC-32"), std::string::npos) << e.what();

  bytes = good;
  bytes[local + 8] = 0;  // stored, where the central directory says deflated
  e = error_of(bytes);
  EXPECT_EQ(e.context().offset, local + 8);
  EXPECT_NE(std::string(e.what()).find("compression method"), std::string::npos) << e.what();

  bytes = good;
  bytes[local + 30] = 'X';  // "Xl/worksheets/sheet1.xml"
  e = error_of(bytes);
  EXPECT_EQ(e.context().offset, local);
  EXPECT_NE(std::string(e.what()).find("names another entry"), std::string::npos) << e.what();

  // The same part name twice (part names compare without case): the second entry is named.
  const std::string twice =
      workbook_with_sheet(sheet("<row r=\"1\"/>"), "", {{"XL/Worksheets/Sheet1.xml", sheet("<row r=\"2\"/>")}});
  e = error_of(twice);
  EXPECT_EQ(e.context().part, "XL/Worksheets/Sheet1.xml");
  ASSERT_TRUE(e.context().offset.has_value());
  EXPECT_EQ(twice.compare(static_cast<std::size_t>(*e.context().offset), 4, "PK\x01\x02"), 0);
  EXPECT_NE(std::string(e.what()).find("names the same part as entry 'xl/worksheets/sheet1.xml'"), std::string::npos)
      << e.what();
}

// The size both headers state is a claim: the part is what its data inflates to, checked by
// the CRC-32, whether the claim is larger or smaller (conformance/SPEC.md, zip sizes).
TEST(XlsxBadInput, AStatedSizeOtherThanTheDataIsIgnored) {
  const std::string part = "xl/worksheets/sheet1.xml";
  const std::string good = workbook_with_sheet(sheet(rows_of_numbers(3000)));
  const std::uint32_t size = central_field(good, part, central_size);
  const std::string expected = dump_sha256(load_workbook(good, {}, "good.xlsx"));
  for (const std::uint32_t stated : {size + 100, size - 100, 0u}) {
    std::string bytes = good;
    patch_declared_size(bytes, part, stated);
    for (const LoadOptions& o : every_read_mode()) {
      EXPECT_EQ(dump_sha256(load_workbook(bytes, o, "stated.xlsx")), expected) << stated;
    }
  }
}

// Stored, a part is its bytes: a size other than its compressed size is refused at its record.
TEST(XlsxBadInput, AStoredPartWhoseSizesDifferIsRefused) {
  const std::string part = "xl/worksheets/sheet1.xml";
  std::string bytes = workbook_with_sheet(sheet(rows_of_numbers(3)), "", {}, /*stored=*/true);
  patch_declared_size(bytes, part, central_field(bytes, part, central_compressed_size) + 1);
  const Error e = error_of(bytes);
  EXPECT_EQ(e.context().part, part);
  EXPECT_EQ(bytes.compare(static_cast<std::size_t>(e.context().offset.value_or(0)), 4, "PK\x01\x02"), 0) << e.what();
  EXPECT_NE(std::string(e.what()).find("stored (not compressed), yet its size"), std::string::npos) << e.what();
}

// XML without row starts (a bomb of anything but rows) stops at max_row_bytes in every mode,
// before a streaming load holds more; the same gap between two rows is refused too.
TEST(XlsxBadInput, RowGapLimitHoldsInEveryMode) {
  std::string filler;
  for (int i = 0; i < 20000; ++i) filler += "<x/>";
  const std::string after_rows = sheet("<row r=\"1\"><c r=\"A1\"><v>1</v></c></row>" + filler);
  const std::string between_rows = sheet("<row r=\"1\"/>" + filler + "<row r=\"2\"/>");
  LoadOptions chunked;
  chunked.chunk_bytes = 4096;
  LoadOptions serial_inflate;
  serial_inflate.inflate = InflateMode::serial;
  LoadOptions whole;
  whole.chunk_bytes = 0;
  for (LoadOptions o : {LoadOptions{}, chunked, serial_inflate, whole}) {
    o.limits.max_row_bytes = 40000;
    for (const std::string* s : {&after_rows, &between_rows}) {
      const Error e = error_of(workbook_with_sheet(*s), o);
      EXPECT_EQ(e.kind(), ErrorKind::limit) << e.what();
      EXPECT_EQ(e.context().part, "xl/worksheets/sheet1.xml");
      EXPECT_TRUE(e.context().offset.has_value());
    }
    o.limits.max_row_bytes = 100000;
    EXPECT_NO_THROW(load_workbook(workbook_with_sheet(between_rows), o, "ok.xlsx"));
  }
}

// The stated entry count is checked before libzip indexes the central directory.
TEST(XlsxBadInput, EntryCountOverTheLimitIsRefusedBeforeIndexing) {
  const std::string bytes = workbook_with_sheet(sheet("<row r=\"1\"/>"));
  LoadOptions o;
  o.limits.max_zip_entries = 2;
  const Error e = error_of(bytes, o);
  EXPECT_EQ(e.kind(), ErrorKind::limit);
  EXPECT_EQ(e.context().offset, bytes.rfind("PK\x05\x06"));
}

// Relationship parts are scanned under the configured limits like every other part.
TEST(XlsxBadInput, RelationshipPartsUseTheConfiguredDepthLimit) {
  std::string bytes = workbook_with_sheet(sheet("<row r=\"1\"/>"));
  EXPECT_NO_THROW(load_workbook(bytes, {}, "ok.xlsx"));
  LoadOptions o;
  o.limits.max_depth = 1;  // <Relationships><Relationship/> is two deep
  const Error e = error_of(bytes, o);
  EXPECT_EQ(e.kind(), ErrorKind::limit);
  EXPECT_EQ(e.context().part, "_rels/.rels");
}

// The scanner's attribute limit is a field of Limits like the others, in every read mode.
TEST(XlsxBadInput, TheAttributeLimitIsSetThroughLimits) {
  const std::string bytes = workbook_with_sheet(sheet("<row r=\"1\"><c r=\"A1\" s=\"0\" t=\"n\" cm=\"1\" vm=\"1\"><v>1</v></c></row>"));
  for (LoadOptions o : every_read_mode()) {
    EXPECT_NO_THROW(load_workbook(bytes, o, "ok.xlsx"));
    o.limits.max_attributes = 4;  // the cell has 5; no element of the other parts has more than 3
    const Error e = error_of(bytes, o);
    EXPECT_EQ(e.kind(), ErrorKind::limit);
    EXPECT_EQ(e.context().part, "xl/worksheets/sheet1.xml");
  }
}

TEST(XlsxBadInput, DeepNestingAndHugeElements) {
  std::string deep;
  for (int i = 0; i < 400; ++i) deep += "<x>";
  for (int i = 0; i < 400; ++i) deep += "</x>";
  Error e = error_of(workbook_with_sheet(sheet("<row r=\"1\"><c r=\"A1\">" + deep + "</c></row>")));
  EXPECT_EQ(e.kind(), ErrorKind::limit);
  EXPECT_EQ(e.context().part, "xl/worksheets/sheet1.xml");

  LoadOptions o;
  o.limits.max_token_bytes = 1 << 16;
  const std::string huge = "<row r=\"1\"><c r=\"A1\" t=\"str\"><v>" + std::string(1 << 17, 'x') + "</v></c></row>";
  e = error_of(workbook_with_sheet(sheet(huge)), o);
  EXPECT_EQ(e.kind(), ErrorKind::limit);
  const std::string tag = "<row r=\"1\" " + std::string(1 << 17, ' ') + "/>";
  EXPECT_EQ(error_of(workbook_with_sheet(sheet(tag)), o).kind(), ErrorKind::limit);
}

TEST(XlsxBadInput, APartialLoadNeverSucceeds) {
  // Many good rows, then one bad cell in the last chunk: no split, no thread count hides it.
  std::string data;
  for (int r = 1; r <= 2000; ++r) data += "<row r=\"" + std::to_string(r) + "\"><c><v>1</v></c></row>";
  data += "<row r=\"2001\"><c><v>x</v></c></row>";
  for (std::size_t chunk : {std::size_t{0}, std::size_t{256}}) {
    for (unsigned threads : {1u, 2u}) {
      LoadOptions o;
      o.chunk_bytes = chunk;
      o.threads = threads;
      EXPECT_EQ(error_of(workbook_with_sheet(sheet(data)), o).kind(), ErrorKind::format);
    }
  }
}

TEST(XlsxBadInput, EncryptedWorkbooksAreUnsupported) {
  std::string cfb("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8);
  cfb += std::string(504, '\0');
  EXPECT_EQ(error_of(cfb).kind(), ErrorKind::unsupported);
}

}  // namespace
}  // namespace docconform::xlsx::test
