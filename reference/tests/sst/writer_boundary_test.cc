// The continuation rules at every kind of record boundary, checked on the bytes themselves.
#include <gtest/gtest.h>

#include "docconform/error.h"
#include "docconform/sst/generate.h"
#include "sst_test_util.h"

namespace docconform::sst {
namespace {

using testing::records_of;
using testing::sst_records;
using testing::table_of;
using testing::text;

// A compressed filler string whose header + characters occupy exactly `bytes` bytes.
SstString filler(std::size_t bytes, char16_t c = u'a') { return text(std::u16string(bytes - 3, c)); }

// Both writers' output (which must agree) and its SST + CONTINUE records.
struct Written {
  explicit Written(std::string b) : bytes(std::move(b)), records(sst_records(records_of(bytes))) {}
  Written(const Written&) = delete;
  std::string bytes;
  std::vector<Record> records;  // views into bytes
};

Written write_both(const SstTable& table) {
  std::string fast = sst_bytes(table, WriterKind::fast);
  EXPECT_EQ(fast, sst_bytes(table, WriterKind::naive));
  EXPECT_EQ(read_sst_file(fast).table, table);
  // The fast writer moves short strings and runs whole vectors at a time only when it may read
  // past them: a long string and four runs after the last let every case's strings take that
  // path too.
  SstTable followed = table;
  followed.append(text(std::u16string(64, u'w')));
  SstString rich = text(u"runs");
  rich.runs = std::vector<FormatRun>{{0, 1}, {1, 2}, {2, 3}, {3, 1}};
  followed.append(rich);
  EXPECT_EQ(sst_bytes(followed, WriterKind::fast), sst_bytes(followed, WriterKind::naive));
  return Written(std::move(fast));
}

// Free bytes left in the SST record after a filler: 8224 - 8 (counts) - filler = left.
class HeaderBeforeRecordEnd : public ::testing::TestWithParam<std::size_t> {};

TEST_P(HeaderBeforeRecordEnd, CompressedStringMovesToNextRecordWithoutFlagsByte) {
  const std::size_t left = GetParam();
  const auto table = table_of({filler(8224 - 8 - left), text(u"next")});
  const Written written = write_both(table);
  const auto& records = written.records;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].data.size(), 8224 - left);  // the record is closed early
  EXPECT_EQ(records[1].data.substr(0, 3), std::string("\x04\x00\x00", 3));  // cch=4, flags=0: no flags byte first
}

TEST_P(HeaderBeforeRecordEnd, WideStringNeedsHeaderAndOneFullUnit) {
  const std::size_t left = GetParam();
  const auto table = table_of({filler(8224 - 8 - left), text(u"\u4E00x")});
  const Written written = write_both(table);
  const auto& records = written.records;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].data.size(), 8224 - left);
  EXPECT_EQ(records[1].data.substr(0, 3), std::string("\x02\x00\x01", 3));
}

INSTANTIATE_TEST_SUITE_P(Bytes, HeaderBeforeRecordEnd, ::testing::Values(1, 2, 3));

TEST(WriterBoundary, HeaderPlusOneCharacterExactlyFits) {
  // 4 bytes left: header (3) + one compressed character stay; the rest continues after 0x00.
  const auto table = table_of({filler(8224 - 8 - 4), text(u"xyz")});
  const Written written = write_both(table);
  const auto& records = written.records;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].data.size(), 8224u);
  EXPECT_EQ(records[0].data.substr(8220), std::string("\x03\x00\x00x", 4));
  EXPECT_EQ(records[1].data, std::string("\x00yz", 3));
}

TEST(WriterBoundary, EmptyStringKeepsHeaderAndOneByteTogether) {
  // Like POI: even an empty string needs header + 1 byte, so with 3 bytes left it moves.
  const auto table = table_of({filler(8224 - 8 - 3), text(u""), text(u"z")});
  const Written written = write_both(table);
  const auto& records = written.records;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].data.size(), 8224u - 3);
  EXPECT_EQ(records[1].data, std::string("\x00\x00\x00\x01\x00\x00z", 7));
  const Written fits = write_both(table_of({filler(8224 - 8 - 4), text(u""), text(u"z")}));
  EXPECT_EQ(fits.records[0].data.size(), 8224u - 1);
}

TEST(WriterBoundary, WideSplitExactlyBetweenUnits) {
  // After counts (8), "ab" (5) and a header (3), 8208 bytes hold exactly 4104 units; the
  // CONTINUE starts with 0x01.
  const auto table = table_of({text(u"ab"), text(std::u16string(5000, u'\u0101'))});
  const Written written = write_both(table);
  const auto& records = written.records;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].data.size(), 8224u);
  EXPECT_EQ(static_cast<std::uint8_t>(records[1].data[0]), 0x01);
  EXPECT_EQ(records[1].data.size(), 1 + 2 * (5000 - 4104u));
}

TEST(WriterBoundary, WideOddLeftoverByteStaysUnused) {
  // After counts (8) and header (3) the record has 8213 bytes: 4106 units and 1 unused byte.
  const auto table = table_of({text(std::u16string(4107, u'\u4E00'))});
  const Written written = write_both(table);
  const auto& records = written.records;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].data.size(), 8 + 3 + 2 * 4106u);
  EXPECT_EQ(records[1].data, std::string("\x01\x00\x4E", 3));
}

TEST(WriterBoundary, CompressionIsChosenPerString) {
  const auto table = table_of({text(u"\u00FF\u00E9"), text(u"\u0100")});
  const Written written = write_both(table);
  const auto& records = written.records;
  EXPECT_EQ(records[0].data.substr(8), std::string("\x02\x00\x00\xFF\xE9\x01\x00\x01\x00\x01", 10));
}

TEST(WriterBoundary, FormatRunsContinueWithoutFlagsByteAndStayWhole) {
  // Characters end 2 bytes before the record end: the first run moves to the CONTINUE.
  SstString rich = text(std::u16string(8224 - 8 - 5 - 2, u'r'));
  rich.runs = std::vector<FormatRun>{{0, 1}, {3, 5}};
  const Written written = write_both(table_of({rich}));
  const auto& records = written.records;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].data.size(), 8224u - 2);
  EXPECT_EQ(records[1].data, std::string("\x00\x00\x01\x00\x03\x00\x05\x00", 8));
}

TEST(WriterBoundary, CharactersEndingAtRecordEndThenRunsHaveNoFlagsByte) {
  SstString rich = text(std::u16string(8224 - 8 - 5, u'r'));
  rich.runs = std::vector<FormatRun>{{1, 2}};
  const Written written = write_both(table_of({rich}));
  const auto& records = written.records;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].data.size(), 8224u);
  EXPECT_EQ(records[1].data, std::string("\x01\x00\x02\x00", 4));
}

TEST(WriterBoundary, ExtRstSpansSeveralRecordsWithoutFlagsBytes) {
  SstString s = text(u"kanji");
  std::string ext(20000, '\0');
  for (std::size_t i = 0; i < ext.size(); ++i) ext[i] = static_cast<char>(i * 7);
  s.ext_rst = ext;
  s.runs = std::vector<FormatRun>{{0, 1}};
  const Written written = write_both(table_of({s, text(u"after")}));
  const auto& records = written.records;
  ASSERT_EQ(records.size(), 3u);
  std::string joined;
  for (const Record& r : records) joined += r.data;
  // Nothing is inserted: counts, header (9), 5 chars, 1 run, 20000 ExtRst bytes, next string.
  EXPECT_EQ(joined.size(), 8 + 9 + 5 + 4 + 20000 + 3 + 5u);
  EXPECT_EQ(records[0].data.size(), 8224u);
  EXPECT_EQ(records[1].data.size(), 8224u);
  EXPECT_EQ(records[2].data.size(), 20000 - (8224 - 26) - 8224 + 8u);
}

TEST(WriterBoundary, ExtRstHeadersStayTogether) {
  // 10 bytes left before the ExtRst: its 8-byte block fits, the 6-byte RPHSSub header does not.
  SstString s = text(std::u16string(8224 - 8 - 7 - 10, u'p'));
  s.ext_rst = std::string(30, 'e');
  const Written written = write_both(table_of({s}));
  const auto& records = written.records;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].data.size(), 8224u - 2);
  EXPECT_EQ(records[1].data.size(), 22u);
}

TEST(WriterBoundary, WellFormedExtRstKeepsPhoneticTextAndRunsWhole) {
  // A well-formed ExtRst is cut as POI cuts it: 8 | 6 | phonetic text | 6-byte runs.
  SstString s = text(std::u16string(8224 - 8 - 7 - 8 - 6 - 30, u'k'));
  s.ext_rst = make_ext_rst(std::u16string(20, u'\u30A2'), 1);  // 40 bytes of text, 1 run
  const Written written = write_both(table_of({s, text(u"after")}));
  const auto& records = written.records;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].data.size(), 8224u - 30);       // the text did not fit in 30 bytes
  EXPECT_EQ(records[1].data.size(), 40 + 6 + 3 + 5u);  // text, run, next string
  SstString t = text(std::u16string(8224 - 8 - 7 - 8 - 6 - 40 - 4, u'k'));
  t.ext_rst = make_ext_rst(std::u16string(20, u'\u30A2'), 1);
  const Written run_moves = write_both(table_of({t}));
  EXPECT_EQ(run_moves.records[0].data.size(), 8224u - 4);  // the 6-byte run did not fit in 4
  EXPECT_EQ(run_moves.records[1].data.size(), 6u);
}

TEST(WriterBoundary, LongestStringsRoundTrip) {
  write_both(table_of({text(std::u16string(65535, u'A')), text(std::u16string(65535, u'\u4E00')), text(u"")}));
}

TEST(WriterBoundary, TooLongStringNeverReachesAWriter) {
  EXPECT_THROW(table_of({text(std::u16string(65536, u'A'))}), Error);
}

TEST(WriterBoundary, EmptyTableIsSstAndExtSstOnly) {
  const std::string bytes = sst_bytes(table_of({}), WriterKind::fast);
  EXPECT_EQ(bytes, testing::record(record_sst, std::string(8, '\0')) + testing::record(record_extsst, std::string("\x08\x00", 2)));
  EXPECT_EQ(bytes, sst_bytes(table_of({}), WriterKind::naive));
}

TEST(WriterBoundary, ShortStringsAtThePoolsEndAreNotReadPastIt) {
  // Pools of their exact size end where their last string does: reading whole vectors past
  // these short strings, or past the one run, would leave the allocation (AddressSanitizer
  // reports it).
  const std::vector<std::u16string> texts = {u"abc", u"\u4E00\u4E01", std::u16string(20, u'q'), u"", u"z"};
  SstTable table;
  std::size_t units = 0;
  for (const auto& t : texts) units += t.size();
  table.reserve(texts.size() + 1, units + 2);
  for (const auto& t : texts) table.append(text(t));
  SstString rich = text(u"ab");
  rich.runs = std::vector<FormatRun>{{1, 1}};  // the runs pool: one run, four bytes
  table.append(rich);
  write_both(table);
}

TEST(WriterBoundary, NoRecordExceedsTheLimit) {
  std::vector<SstString> strings;
  for (int i = 0; i < 3000; ++i) strings.push_back(text(std::u16string(static_cast<std::size_t>(i % 97), static_cast<char16_t>(i % 3 ? 'a' : 0x4E00))));
  const Written written = write_both(table_of(strings));
  for (const Record& r : written.records) EXPECT_LE(r.data.size(), max_record_data);
}

}  // namespace
}  // namespace docconform::sst
