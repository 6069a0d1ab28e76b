// The reader on records other writers produce, and its errors on records that lie.
#include <gtest/gtest.h>

#include "docconform/error.h"
#include "sst_test_util.h"

namespace docconform::sst {
namespace {

using testing::le16;
using testing::le32;
using testing::record;

std::string sst_head(std::uint32_t total, std::uint32_t unique) { return le32(total) + le32(unique); }

SstTable read(const std::string& bytes) { return read_sst_file(bytes).table; }

Error read_error(const std::string& bytes) {
  try {
    read(bytes);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return Error(ErrorKind::usage, {}, "none");
}

TEST(Reader, HeaderThenZeroCharactersBeforeTheBoundary) {
  // The record ends right after the header; the CONTINUE still starts with a flags byte.
  const std::string bytes = record(record_sst, sst_head(1, 1) + le16(3) + std::string("\x00", 1)) + record(record_continue, std::string("\x00" "abc", 4));
  EXPECT_EQ(read(bytes)[0].text, u"abc");
}

TEST(Reader, CompressionMaySwitchAtEveryContinuation) {
  const std::string bytes = record(record_sst, sst_head(1, 1) + le16(4) + std::string("\x01", 1) + le16(0x4E00)) +
                            record(record_continue, std::string("\x00x", 2)) +
                            record(record_continue, std::string("\x01", 1) + le16(0x00E9) + le16(0x3042));
  EXPECT_EQ(read(bytes)[0].text, u"\u4E00x\u00E9\u3042");
}

TEST(Reader, StringStartingAtARecordBoundaryHasNoFlagsByte) {
  const std::string bytes = record(record_sst, sst_head(2, 2) + le16(1) + std::string("\x00q", 2)) +
                            record(record_continue, le16(1) + std::string("\x00r", 2));
  const SstTable table = read(bytes);
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table[1].text, u"r");
}

TEST(Reader, RunsAndExtRstCrossManyRecordsWithoutFlagsBytes) {
  const std::string ext = "0123456789abcdefghij";
  const std::string head = le16(2) + std::string("\x0C", 1) + le16(2) + le32(static_cast<std::uint32_t>(ext.size())) + "ab";
  const std::string runs = le16(0) + le16(1) + le16(1) + le16(5);
  const std::string bytes = record(record_sst, sst_head(1, 1) + head + runs.substr(0, 2)) +  // split inside a run
                            record(record_continue, runs.substr(2) + ext.substr(0, 3)) +
                            record(record_continue, ext.substr(3, 7)) + record(record_continue, ext.substr(10));
  const SstTable table = read(bytes);
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table[0], (SstString{u"ab", std::vector<FormatRun>{{0, 1}, {1, 5}}, ext}));
}

TEST(Reader, TrailingBytesAfterTheDeclaredStringsAreIgnored) {
  const std::string bytes = record(record_sst, sst_head(1, 1) + le16(1) + std::string("\x00z", 2) + "junk");
  EXPECT_EQ(read(bytes).size(), 1u);
}

TEST(Reader, TooFewStringsIsAnErrorWithOffset) {
  const std::string bytes = record(record_sst, sst_head(3, 3) + le16(1) + std::string("\x00z", 2) + le16(1) + std::string("\x00y", 2) + std::string("\x00", 1));
  const Error e = read_error(bytes);
  EXPECT_EQ(e.kind(), ErrorKind::format);
  EXPECT_NE(e.message().find("string 2 of 3"), std::string::npos) << e.what();
  EXPECT_EQ(e.context().offset, 4u + 8 + 8);
}

TEST(Reader, DeclaredCountBeyondTheDataIsRejectedBeforeAllocating) {
  const Error e = read_error(record(record_sst, sst_head(1, 100000000) + le16(1) + std::string("\x00z", 2)));
  EXPECT_EQ(e.kind(), ErrorKind::limit);
  const Error f = read_error(record(record_sst, sst_head(1, 1000) + le16(1) + std::string("\x00z", 2)));
  EXPECT_EQ(f.kind(), ErrorKind::format);
}

TEST(Reader, CharactersBeyondTheDataAreTruncation) {
  const Error e = read_error(record(record_sst, sst_head(1, 1) + le16(50) + std::string("\x00zz", 3)));
  EXPECT_NE(e.message().find("remain"), std::string::npos) << e.what();
  const std::string split = record(record_sst, sst_head(1, 1) + le16(4) + std::string("\x00zz", 3)) + record(0x0022, "xx");
  EXPECT_EQ(read_error(split).kind(), ErrorKind::format);
}

TEST(Reader, ContinuationFlagsWithOtherBitsAreRejected) {
  const std::string bytes = record(record_sst, sst_head(1, 1) + le16(2) + std::string("\x00z", 2)) + record(record_continue, std::string("\x08y", 2));
  const Error e = read_error(bytes);
  EXPECT_NE(e.message().find("0x08"), std::string::npos) << e.what();
  EXPECT_EQ(e.context().offset, 4u + 12 + 4);
}

TEST(Reader, OddByteLeftInsideUtf16DataIsRejected) {
  const std::string bytes = record(record_sst, sst_head(1, 1) + le16(2) + std::string("\x01", 1) + le16(0x4E00) + "x") +
                            record(record_continue, std::string("\x01", 1) + le16(0x4E01));
  EXPECT_EQ(read_error(bytes).kind(), ErrorKind::format);
}

TEST(Reader, SplitHeaderIsRejected) {
  const std::string bytes = record(record_sst, sst_head(1, 1) + le16(2) + std::string("\x08", 1) + "\x01") +
                            record(record_continue, std::string("\x00", 1) + "ab" + le16(0) + le16(0));
  EXPECT_NE(read_error(bytes).message().find("cRun"), std::string::npos);
}

TEST(Reader, ARecordOverTheBiff8LimitIsRejectedWhereItStarts) {
  // One string of 8,213 one-byte characters fills an SST of exactly 8,224 data bytes: read.
  const std::string fits = sst_head(1, 1) + le16(8213) + std::string("\x00", 1) + std::string(8213, 'a');
  ASSERT_EQ(fits.size(), max_record_data);
  EXPECT_EQ(read(record(record_sst, fits))[0].text.size(), 8213u);
  // One character more is a record of 8,225 bytes (MS-XLS 2.1.4): rejected, at that record.
  const std::string over = sst_head(1, 1) + le16(8214) + std::string("\x00", 1) + std::string(8214, 'a');
  const Error sst = read_error(record(record_sst, over));
  EXPECT_NE(sst.message().find("8225 data bytes"), std::string::npos) << sst.message();
  EXPECT_EQ(sst.context().offset, 4u);
  // The same in a CONTINUE.
  const std::string split = record(record_sst, sst_head(1, 1) + le16(8226) + std::string("\x00", 1) + "ab") +
                            record(record_continue, std::string("\x00", 1) + std::string(8224, 'a'));
  const Error cont = read_error(split);
  EXPECT_NE(cont.message().find("8225 data bytes"), std::string::npos) << cont.message();
  EXPECT_EQ(cont.context().part, "SST CONTINUE 1");
}

TEST(Reader, NegativeCountsAndExtRstSizesAreRejected) {
  EXPECT_EQ(read_error(record(record_sst, sst_head(0x80000000u, 0))).kind(), ErrorKind::format);
  const std::string neg = record(record_sst, sst_head(1, 1) + le16(0) + std::string("\x04", 1) + le32(0xFFFFFFFFu));
  EXPECT_NE(read_error(neg).message().find("negative"), std::string::npos);
}

TEST(Reader, RecordFileStructureErrors) {
  EXPECT_EQ(read_error("\xFC\x00\x08").kind(), ErrorKind::format);                       // truncated header
  EXPECT_EQ(read_error(record(0x0031, "x")).kind(), ErrorKind::format);                  // not an SST
  EXPECT_EQ(read_error(record(record_sst, sst_head(0, 0)) + record(0x000A, "")).kind(), ErrorKind::format);
  const std::string bad_extsst = record(record_sst, sst_head(0, 0)) + record(record_extsst, "abc");
  EXPECT_EQ(read_error(bad_extsst).kind(), ErrorKind::format);
}

TEST(Reader, FuzzLimitsBoundExtRst) {
  ReadOptions options;
  options.limits = Limits::fuzz();
  const std::string bytes = record(record_sst, sst_head(1, 1) + le16(0) + std::string("\x04", 1) + le32(1u << 20));
  EXPECT_THROW(read_sst_file(bytes, options), Error);
}

TEST(Reader, InputOverTheStreamLimitAtTheFirstByteOver) {
  ReadOptions options;
  options.label = "big.bin";
  options.limits.max_stream_bytes = 8;
  try {
    read_sst_file(record(record_sst, sst_head(0, 0)), options);
    ADD_FAILURE() << "read";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "big.bin: offset 8: limit error: input of 12 bytes exceeds max_stream_bytes (8)");
  }
}

TEST(Reader, AFileThatDoesNotStartWithAnSstIsRejectedBeforeItsRecordsAreSplit) {
  // 4-byte records of type 0: split whole, their list alone would pass a budget of 1 KiB.
  const std::string zeros(1 << 20, '\0');
  ReadOptions options;
  options.label = "zeros.sst";
  Budget memory(1024, "max_memory", "bytes");
  options.memory = &memory;
  try {
    read_sst_file(zeros, options);
    ADD_FAILURE() << "read";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "zeros.sst: offset 0: format error: expected an SST record (0x00FC)");
  }
}

TEST(Reader, ExtSstCheckFindsWrongPositions) {
  SstTable table;
  for (int i = 0; i < 20; ++i) table.append(SstString{std::u16string(static_cast<std::size_t>(i), u'x'), {}, {}});
  table.set_total_refs(20);
  const SstFile file = read_sst_file(sst_bytes(table));
  ASSERT_TRUE(file.extsst);
  EXPECT_TRUE(check_extsst(*file.extsst, file.string_starts).empty());
  ExtSst wrong = *file.extsst;
  wrong.buckets[1].ib += 1;
  EXPECT_EQ(check_extsst(wrong, file.string_starts).size(), 1u);
  wrong.dsst = 9;
  EXPECT_GE(check_extsst(wrong, file.string_starts).size(), 2u);
}

}  // namespace
}  // namespace docconform::sst
