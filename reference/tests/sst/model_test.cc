// The packed table: what append accepts and refuses, what a view returns, what equality means.
#include <gtest/gtest.h>

#include "docconform/error.h"
#include "docconform/sst/model.h"

namespace docconform::sst {
namespace {

ErrorKind append_error(SstTable& table, const SstString& s) {
  try {
    table.append(s);
  } catch (const Error& e) {
    return e.kind();
  }
  ADD_FAILURE() << "appended";
  return ErrorKind::io;
}

TEST(Table, ViewsReturnWhatWasAppended) {
  const SstString plain{u"plain", std::nullopt, std::nullopt};
  const SstString rich{u"\u4E00rich", std::vector<FormatRun>{{0, 1}, {2, 5}}, std::string("\x01\x00\xFF", 3)};
  const SstString empty_runs{u"", std::vector<FormatRun>{}, std::string()};
  SstTable table;
  for (const SstString* s : {&plain, &rich, &empty_runs}) table.append(*s);
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table[0], plain);
  EXPECT_EQ(table[1], rich);
  EXPECT_EQ(table[2], empty_runs);
  EXPECT_TRUE(table[2].runs && table[2].runs->empty());  // present but empty stays present
  EXPECT_TRUE(table[2].ext_rst && table[2].ext_rst->empty());
  EXPECT_FALSE(table[0].runs || table[0].ext_rst);
  EXPECT_NE(table[0], table[2]);
}

TEST(Table, CursorVisitsTheStringsInOrderAsViewsDo) {
  SstTable table;
  table.append(SstString{u"ab", std::vector<FormatRun>{{0, 1}}, std::string("xyz")});
  table.append(SstString{u"", std::nullopt, std::nullopt});
  table.append(SstString{u"\u4E00", std::nullopt, std::string("w")});
  table.append(SstString{u"cd", std::vector<FormatRun>{{1, 2}, {0, 3}}, std::nullopt});
  std::size_t i = 0;
  for (SstTable::Cursor cursor(table); !cursor.done(); cursor.advance(), ++i) {
    ASSERT_LT(i, table.size());
    EXPECT_EQ(cursor.string(), table[i]) << i;
    EXPECT_EQ(cursor.text(), table.text(i)) << i;
    EXPECT_EQ(cursor.flags(), table.flags(i)) << i;
  }
  EXPECT_EQ(i, table.size());
  EXPECT_TRUE(SstTable::Cursor(SstTable()).done());
}

TEST(Table, EqualityTellsWhereTheExtRstBlocksSplit) {
  // Same pools, the ExtRst bytes cut differently between the two strings.
  SstTable a, b;
  a.append(SstString{u"s", std::nullopt, std::string("ab")});
  a.append(SstString{u"t", std::nullopt, std::string("c")});
  b.append(SstString{u"s", std::nullopt, std::string("a")});
  b.append(SstString{u"t", std::nullopt, std::string("bc")});
  EXPECT_NE(a, b);
}

TEST(Table, FlagsAreTheStoredOptionFlags) {
  SstTable table;
  table.append(SstString{u"\u00FF latin-1 only", std::nullopt, std::nullopt});
  table.append(SstString{u"x\u0100", std::nullopt, std::nullopt});
  table.append(SstString{std::u16string(40, u'a') + u"\xD800", std::vector<FormatRun>{}, std::nullopt});
  table.append(SstString{u"", std::nullopt, std::string("e")});
  EXPECT_EQ(table.flags(0), 0);
  EXPECT_EQ(table.flags(1), flag_high_byte);
  EXPECT_EQ(table.flags(2), flag_high_byte | flag_rich_st);
  EXPECT_EQ(table.flags(3), flag_ext_st);
}

TEST(Table, AppendRefusesWhatTheWritersCannotEncode) {
  SstTable table;
  EXPECT_EQ(append_error(table, {std::u16string(65536, u'a'), std::nullopt, std::nullopt}), ErrorKind::usage);
  Limits limits;
  limits.max_strings = 1;
  limits.max_runs = 2;
  limits.max_ext_rst_bytes = 3;
  limits.max_table_bytes = 20;
  SstTable small(limits);
  EXPECT_EQ(append_error(small, {u"r", std::vector<FormatRun>(3), std::nullopt}), ErrorKind::usage);
  EXPECT_EQ(append_error(small, {u"e", std::nullopt, std::string(4, 'e')}), ErrorKind::usage);
  EXPECT_EQ(append_error(small, {std::u16string(21, u'b'), std::nullopt, std::nullopt}), ErrorKind::usage);
  EXPECT_TRUE(small.empty());  // nothing half-appended
  small.append(SstString{u"ok", std::vector<FormatRun>(2), std::string(3, 'e')});
  EXPECT_EQ(append_error(small, {u"", std::nullopt, std::nullopt}), ErrorKind::usage);
  EXPECT_EQ(small.size(), 1u);
}

TEST(Table, ErrorsNameTheString) {
  SstTable table;
  table.append(SstString{u"first", std::nullopt, std::nullopt});
  try {
    table.append(SstString{std::u16string(70000, u'a'), std::nullopt, std::nullopt});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.context().part, "string 1");
  }
}

TEST(Table, TotalRefsIsBoundedAndCompared) {
  SstTable a;
  SstTable b(Limits::fuzz());
  EXPECT_EQ(a, b);  // limits are not part of the value
  a.set_total_refs(0x7FFFFFFF);
  EXPECT_NE(a, b);
  EXPECT_THROW(a.set_total_refs(0x80000000u), Error);
  EXPECT_EQ(a.total_refs(), 0x7FFFFFFFu);
}

TEST(ExtRst, SegmentsCoverTheBlock) {
  // A well-formed block with 3 phonetic characters, 2 runs and 1 trailing byte.
  std::string ext = {1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 3, 0, 3, 0};
  ext.append(6, 'k').append(12, 'r').append(1, 'x');
  ext[2] = static_cast<char>(ext.size() - 4);
  std::size_t total = 0;
  std::vector<std::size_t> sizes;
  for (const ExtRstSegment& s : ext_rst_segments(ext)) {
    sizes.push_back(s.size);
    total += s.size;
  }
  EXPECT_EQ(sizes, (std::vector<std::size_t>{8, 6, 6, 12, 1}));
  EXPECT_EQ(total, ext.size());
  EXPECT_EQ(ext_rst_segments("").count, 0u);
  EXPECT_EQ(ext_rst_segments(std::string(9, 'z')).count, 2u);
}

}  // namespace
}  // namespace docconform::sst
