// The CFB container and the minimal workbook: structure, round trip, real files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "docconform/error.h"
#include "docconform/sst/cfb.h"
#include "docconform/sst/generate.h"
#include "docconform/sst/xls.h"
#include "sst_test_util.h"

namespace docconform::sst {
namespace {

std::uint32_t u32_at(const std::string& s, std::size_t at) {
  return static_cast<std::uint8_t>(s[at]) | (static_cast<std::uint8_t>(s[at + 1]) << 8) |
         (static_cast<std::uint32_t>(static_cast<std::uint8_t>(s[at + 2])) << 16) |
         (static_cast<std::uint32_t>(static_cast<std::uint8_t>(s[at + 3])) << 24);
}

TEST(Cfb, SmallStreamIsPaddedOutOfTheMiniStream) {
  const std::string file = write_cfb("hello");
  EXPECT_EQ(file.size(), 512u * (1 + 8 + 1 + 1));  // 8 stream sectors, 1 FAT, 1 directory
  const CfbReader reader(file);
  const auto entry = reader.find_stream(u"WORKBOOK");
  ASSERT_TRUE(entry);
  const std::string stream = reader.read_stream(*entry);
  EXPECT_EQ(stream.size(), 4096u);
  EXPECT_EQ(stream.substr(0, 5), "hello");
  EXPECT_EQ(stream.substr(5), std::string(4091, '\0'));
}

TEST(Cfb, LargeStreamUsesDifatSectors) {
  std::string stream(8u << 20, '\0');
  for (std::size_t i = 0; i < stream.size(); i += 4093) stream[i] = static_cast<char>(i / 4093);
  const std::string file = write_cfb(stream);
  EXPECT_GT(u32_at(file, 0x2C), 109u);   // FAT sectors
  EXPECT_EQ(u32_at(file, 0x48), 1u);     // one DIFAT sector
  EXPECT_EQ((file.size() - 512) % 512, 0u);
  const CfbReader reader(file);
  EXPECT_EQ(reader.read_stream(*reader.find_stream(u"Workbook")), stream);
}

TEST(Cfb, BrokenContainersAreFormatErrors) {
  std::string file = write_cfb("x");
  EXPECT_THROW(CfbReader(file.substr(0, 100)), Error);
  std::string bad_order = file;
  bad_order[0x1C] = 0;
  EXPECT_THROW(CfbReader{bad_order}, Error);
  std::string loop = file;
  // FAT[0] = 0: the stream chain loops.
  const std::size_t fat = 512 * (1 + u32_at(file, 0x4C));
  loop[fat] = loop[fat + 1] = loop[fat + 2] = loop[fat + 3] = 0;
  const CfbReader reader(loop);
  EXPECT_THROW(reader.read_stream(1), Error);
}

TEST(Cfb, DirectoryEntryNamesAreCheckedAgainstMsCfb) {
  const std::string file = write_cfb("x");
  const std::size_t directory = 512 * (1 + u32_at(file, 0x30));
  const std::size_t entry = directory + 128;  // the stream's entry, after the root's
  const auto with_name_length = [&](std::uint16_t length) {
    std::string bad = file;
    bad[entry + 64] = static_cast<char>(length & 0xFF);
    bad[entry + 65] = static_cast<char>(length >> 8);
    return bad;
  };
  for (const std::uint16_t length : {200, 66, 17}) {
    try {
      CfbReader{with_name_length(length)};
      ADD_FAILURE() << "name length " << length << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.context().offset, entry + 64) << e.what();
      EXPECT_NE(std::string(e.what()).find("name length"), std::string::npos) << e.what();
    }
  }
  // "Workbook" is 16 bytes: 18 counts its NUL; 16 leaves the NUL out, as real writers do.
  for (const std::uint16_t length : {18, 16}) {
    const std::string ok = with_name_length(length);
    EXPECT_TRUE(CfbReader(ok).find_stream(u"Workbook")) << length;
  }
}

TEST(Cfb, WriterRejectsNamesMsCfbForbids) {
  for (const std::u16string& name : {std::u16string(u"a\0b", 3), std::u16string(u"a/b"), std::u16string(u"a\\b"),
                                     std::u16string(u"a:b"), std::u16string(u"a!b")}) {
    EXPECT_THROW(write_cfb("x", name), Error);
  }
  const std::string file = write_cfb("x", u"Book 1 (copy)");
  EXPECT_TRUE(CfbReader(file).find_stream(u"book 1 (COPY)"));
}

Error stream_error(const std::string& file) {
  try {
    CfbReader(file, {}, "f.xls").read_stream(1);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "read";
  return Error(ErrorKind::usage, {}, "");
}

// Chain errors name the FAT entry that breaks the chain; a stream size that cannot be the
// file's names the directory entry's size field.
TEST(Cfb, ChainAndSizeErrorsNameTheOffendingBytes) {
  const std::string file = write_cfb("x");
  const std::size_t fat = 512 * (1 + u32_at(file, 0x4C));
  std::string loop = file;
  loop[fat + 4 * 7] = loop[fat + 4 * 7 + 1] = loop[fat + 4 * 7 + 2] = loop[fat + 4 * 7 + 3] = 0;  // last sector -> 0
  Error e = stream_error(loop);
  EXPECT_EQ(e.context().part, "CFB FAT");
  EXPECT_EQ(e.context().offset, fat + 4 * 7);
  std::string outside = file;
  outside[fat + 4 * 2 + 2] = 0x10;  // FAT[2] -> sector 0x100000
  e = stream_error(outside);
  EXPECT_EQ(e.context().offset, fat + 4 * 2);
  std::string huge = file;
  const std::size_t directory = 512 * (1 + u32_at(file, 0x30));
  huge[directory + 128 + 123] = 0x40;  // stream size 1 GiB + 4 KiB
  e = stream_error(huge);
  EXPECT_EQ(e.kind(), ErrorKind::limit);
  EXPECT_EQ(e.context().offset, directory + 128 + 120);
}

// A file cut short is reported as truncated, at the entry that points past its end.
TEST(Cfb, ACutShortFileSaysItIsTruncatedWhereItIsReferenced) {
  const std::string file = write_cfb(std::string(8192, 'x'));  // the stream's 16 sectors, then the FAT and directory
  Error e = stream_error(file.substr(0, 512));
  EXPECT_EQ(e.context().part, "CFB header");
  EXPECT_NE(e.message().find("truncated"), std::string::npos) << e.what();
  // The FAT is gone: the header's first FAT slot (0x4C) names a sector past the end.
  e = stream_error(file.substr(0, 512 + 4096));
  EXPECT_EQ(e.context().part, "CFB FAT");
  EXPECT_EQ(e.context().offset, 0x4Cu);
  EXPECT_NE(e.message().find("is past the end of the file (4608 bytes): the file is truncated"), std::string::npos) << e.what();
  // A stream stated larger than the whole file is a format error naming the stream.
  std::string stated = file;
  const std::size_t directory = 512 * (1 + u32_at(file, 0x30));
  stated[directory + 128 + 121] = 0x7F;  // 32,512 + 0 bytes: more than the file
  e = stream_error(stated);
  EXPECT_EQ(e.kind(), ErrorKind::format);
  EXPECT_EQ(e.context().offset, directory + 128 + 120);
  EXPECT_NE(e.message().find("stream \"Workbook\" states"), std::string::npos) << e.what();
}

SstTable cells(std::initializer_list<std::u16string_view> texts) {
  SstTable out;
  for (const auto t : texts) out.append({t, std::nullopt, std::nullopt});
  return out;
}

TEST(Xls, WorkbookRoundTripsAndSharesEqualStrings) {
  const auto input = cells({u"a", u"b", u"a", u"\u4E00", u""});
  const std::string file = write_xls(input);
  const SstTable table = read_xls_sst(file);
  EXPECT_EQ(table.total_refs(), 5u);
  ASSERT_EQ(table.size(), 4u);
  EXPECT_EQ(table[2].text, u"\u4E00");
  EXPECT_EQ(sst_dump(file, SstFileKind::workbook), "docconform-dump sst 1\nstrings 4\n\"a\"\n\"b\"\n\"\\u4E00\"\n\"\"\n");
}

// Many repeats (some equal texts with and without runs, which are different strings): the table
// lists each distinct string once, in order of first use, and every cell's index finds its own.
TEST(Xls, EqualStringsShareEntriesInOrderOfFirstUse) {
  SstTable distinct = generate_strings(3000, Mix::rich, 5);
  std::size_t plain_twins = 0;
  for (std::size_t k = 0; k < 3000 && plain_twins < 200; ++k) {
    if (!distinct[k].runs && !distinct[k].ext_rst) continue;
    distinct.append({distinct.text(k), std::nullopt, std::nullopt});
    ++plain_twins;
  }
  ASSERT_EQ(plain_twins, 200u);
  SstTable input;
  std::vector<std::size_t> source;  // cell -> index in distinct, in the order the cells are laid out
  for (std::size_t i = 0; i < 20000; ++i) {
    source.push_back((i * 7919 + i / 3) % (i < 3000 ? i + 1 : distinct.size()));
    input.append(distinct[source.back()]);
  }
  std::vector<std::size_t> first_use;
  std::vector<std::size_t> entry_of(distinct.size(), SIZE_MAX);
  for (const std::size_t d : source) {
    if (entry_of[d] == SIZE_MAX) {
      entry_of[d] = first_use.size();
      first_use.push_back(d);
    }
  }
  XlsOptions options;
  options.rows_per_sheet = 1000;
  const std::string stream = write_xls_stream(input, options);
  const SstTable table = read_workbook_stream_sst(stream);
  ASSERT_EQ(table.size(), first_use.size());
  for (std::size_t k = 0; k < first_use.size(); ++k) EXPECT_EQ(table[k], distinct[first_use[k]]) << k;
  std::size_t labels = 0;
  for (const Record& r : split_records(stream)) {
    if (r.type != 0x00FD) continue;
    const std::string data(r.data);
    const std::size_t row = static_cast<std::uint8_t>(data[0]) | static_cast<std::uint8_t>(data[1]) << 8;
    const std::size_t col = static_cast<std::uint8_t>(data[2]) | static_cast<std::uint8_t>(data[3]) << 8;
    EXPECT_EQ(u32_at(data, 6), entry_of[source[col * 1000 + row]]) << "row " << row << " column " << col;
    ++labels;
  }
  EXPECT_EQ(labels, input.size());
}

TEST(Xls, SheetsFollowBoundsheetOffsets) {
  const auto input = generate_strings(70, Mix::mixed, 2);
  XlsOptions options;
  options.rows_per_sheet = 10;
  options.columns_per_sheet = 3;
  const std::string stream = write_xls_stream(input, options);
  const auto records = split_records(stream);
  std::vector<std::uint32_t> offsets;
  std::size_t labels = 0;
  for (const Record& r : records) {
    if (r.type == 0x0085) offsets.push_back(u32_at(std::string(r.data), 0));
    if (r.type == 0x00FD) ++labels;
  }
  ASSERT_EQ(offsets.size(), 3u);  // 30 cells per sheet
  EXPECT_EQ(labels, 70u);
  for (const std::uint32_t at : offsets) {
    EXPECT_EQ(stream.substr(at, 6), std::string("\x09\x08\x10\x00\x00\x06", 6));  // BOF, worksheet
  }
  EXPECT_EQ(read_xls_sst(write_cfb(stream)), input);
}

TEST(Xls, NaiveAndFastWorkbooksAreIdentical) {
  const auto input = generate_strings(4000, Mix::rich, 8);
  XlsOptions naive;
  naive.writer = WriterKind::naive;
  EXPECT_EQ(write_xls(input), write_xls(input, naive));
}

TEST(Xls, RejectsWhatIsNotABiff8Workbook) {
  EXPECT_THROW(sst_dump("not a workbook at all", SstFileKind::workbook), Error);
  try {
    read_xls_sst(write_cfb("\x09\x08\x08\x00\x00\x05\x05\x00\x00\x00\x00\x00"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::unsupported);
  }
}

// The name tells a record file from a workbook (conformance/SPEC.md, format sst, "Case files"):
// record bytes named as a workbook, and a workbook named .sst, are rejected, not read as the other.
TEST(Xls, FileKindFollowsTheNameNotTheBytes) {
  EXPECT_EQ(sst_file_kind("dir.sst/book.xls"), SstFileKind::workbook);
  EXPECT_EQ(sst_file_kind("table.SST"), SstFileKind::records);
  EXPECT_EQ(sst_file_kind("sst"), SstFileKind::workbook);
  const SstTable input = cells({u"a", u"b"});
  const std::string records = sst_bytes(input);
  const std::string expected = "docconform-dump sst 1\nstrings 2\n\"a\"\n\"b\"\n";
  EXPECT_EQ(sst_dump(records, SstFileKind::records), expected);
  try {
    sst_dump(records, SstFileKind::workbook, {}, "t.xls");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::format);
    EXPECT_EQ(e.context().offset, 0u);
    EXPECT_NE(std::string(e.what()).find("not a workbook"), std::string::npos) << e.what();
  }
  const std::string workbook = write_xls(input);
  EXPECT_EQ(sst_dump(workbook, SstFileKind::workbook), expected);
  EXPECT_THROW(sst_dump(workbook, SstFileKind::records), Error);
  const CfbReader container(workbook);
  const std::string bare_stream = container.read_stream(*container.find_stream(u"Workbook"));
  EXPECT_EQ(sst_dump(bare_stream, SstFileKind::workbook), expected);
  EXPECT_THROW(sst_dump(bare_stream, SstFileKind::records), Error);
}

// Every real .xls either yields its string table or a docconform::Error; never anything else.
TEST(Xls, RealFilesReadOrFailCleanly) {
  const std::filesystem::path dir = std::filesystem::path(DOCCONFORM_SHARED_DIR) / "corpus-real" / "xls";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no " << dir << " (shared corpus absent)";
  std::size_t read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    try {
      read_xls_sst(bytes.str(), {}, entry.path().string());
      ++read;
    } catch (const Error&) {
    }
  }
  EXPECT_GT(read, 50u);
}

}  // namespace
}  // namespace docconform::sst
