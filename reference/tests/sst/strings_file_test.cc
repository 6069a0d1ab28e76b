#include <gtest/gtest.h>

#include <set>

#include "docconform/error.h"
#include "docconform/sst/generate.h"
#include "docconform/sst/strings_file.h"
#include "sst_test_util.h"

namespace docconform::sst {
namespace {

TEST(StringsFile, EveryUtf16StringRoundTrips) {
  std::vector<SstString> strings;
  strings.push_back({u"", {}, {}});
  strings.push_back({u"plain \"quoted\" \\ back", {}, {}});
  strings.push_back({u"\x01\x1F\x7F\u00E9\u4E00", {}, {}});
  strings.push_back({u"\xD83D\xDE00 pair, lone \xD800 and \xDC00", {}, {}});
  strings.push_back({u"\xDBFF", {}, {}});
  SstString rich{u"rich", std::vector<FormatRun>{{0, 1}, {2, 5}}, std::string("\x01\x00\xFF", 3)};
  strings.push_back(rich);
  strings.push_back({u"no runs", std::vector<FormatRun>{}, {}});
  const SstTable table = testing::table_of(strings);
  const std::string text = format_strings_jsonl(table);
  EXPECT_NE(text.find("\\uD800"), std::string::npos);
  EXPECT_EQ(parse_strings_jsonl(text), table);
}

TEST(StringsFile, GeneratedMixesRoundTrip) {
  for (const Mix mix : {Mix::ascii, Mix::latin1, Mix::cjk, Mix::emoji, Mix::rich, Mix::mixed}) {
    const auto strings = generate_strings(500, mix, 11);
    EXPECT_EQ(parse_strings_jsonl(format_strings_jsonl(strings)), strings);
  }
}

TEST(StringsFile, AcceptsOrdinaryJson) {
  // Blank lines (empty, spaces and tabs, a lone CR) are skipped.
  const auto strings = parse_strings_jsonl("\"a\\/b\\n\\t\\u00e9\"\n\n \t \n\r\n  {\"runs\": [], \"s\": \"x\"}  \r\n");
  ASSERT_EQ(strings.size(), 2u);
  EXPECT_EQ(strings[0].text, u"a/b\n\t\u00E9");
  EXPECT_EQ(strings.total_refs(), 2u);
  EXPECT_TRUE(strings[1].runs && strings[1].runs->empty());
}

TEST(StringsFile, ErrorsNameLineAndOffset) {
  for (const char* bad : {"\"open", "42", "\"a\" x", "{\"s\":\"a\",\"s\":\"b\"}", "{\"runs\":[]}", "\"\\x\"",
                          "\"\xC3\x28\"", "{\"s\":\"a\",\"ext\":\"abc\"}", "{\"s\":\"a\",\"runs\":[[1,70000]]}"}) {
    try {
      parse_strings_jsonl(std::string("\"ok\"\n") + bad, "f.jsonl");
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.context().part, "line 2") << bad;
      EXPECT_EQ(e.context().file, "f.jsonl");
    }
  }
}

TEST(StringsFile, StringsTheLimitsRefuseNameTheirLine) {
  Limits limits;
  limits.max_ext_rst_bytes = 1;
  try {
    parse_strings_jsonl("\"ok\"\n{\"s\":\"a\",\"ext\":\"0102\"}\n", "f.jsonl", limits);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::limit);
    EXPECT_EQ(e.context().part, "line 2");
    EXPECT_EQ(e.context().offset, 5u);
  }
}

TEST(Generate, DeterministicUniqueAndShaped) {
  const auto a = generate_strings(2000, Mix::mixed, 5);
  EXPECT_EQ(a, generate_strings(2000, Mix::mixed, 5));
  EXPECT_NE(a, generate_strings(2000, Mix::mixed, 6));
  EXPECT_EQ(a.total_refs(), 2000u);
  std::set<std::u16string_view> seen;
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(seen.insert(a[i].text).second);
  const SstTable latin1 = generate_strings(300, Mix::latin1, 1);
  for (std::size_t i = 0; i < latin1.size(); ++i) {
    for (const char16_t c : latin1[i].text) EXPECT_LE(c, 0xFF);
  }
  EXPECT_THROW(parse_mix("klingon"), Error);
}

}  // namespace
}  // namespace docconform::sst
