#include "docconform/error.h"

#include <gtest/gtest.h>

namespace docconform {
namespace {

TEST(Error, MessageNamesFilePartOffsetAndKind) {
  const Error e(ErrorKind::format, {"book.xlsx", "xl/worksheets/sheet1.xml", 1234}, "expected '>'");
  EXPECT_STREQ(e.what(), "book.xlsx: xl/worksheets/sheet1.xml: offset 1234: format error: expected '>'");
  EXPECT_EQ(e.kind(), ErrorKind::format);
  EXPECT_EQ(e.context().offset, 1234U);
}

TEST(Error, ControlBytesOfNamesAndMessageWrittenAsHexSoTheErrorIsOneLine) {
  const Error e(ErrorKind::format, {"a\nb.xlsx", "xl/\rsheet\x7f.xml", 3}, "entry 'x\ty' is\x01" "bad");
  EXPECT_STREQ(e.what(), "a\\x0ab.xlsx: xl/\\x0dsheet\\x7f.xml: offset 3: format error: entry 'x\\x09y' is\\x01bad");
  EXPECT_EQ(e.context().part, "xl/\rsheet\x7f.xml");  // the context keeps the bytes
}

TEST(Error, BytesThatAreNotUtf8WrittenAsHexSoTheErrorIsText) {
  // A lone continuation byte, a cut-short sequence, an overlong form, a surrogate; then text.
  const Error e(ErrorKind::format, {"\xe6\x97\xa5.xlsx", "x\x80.xml", std::nullopt},
                "type openxml\xe6ormats \xc0\xaf \xed\xa0\x80 \xf0\x9f\x98\x80 caf\xc3\xa9");
  EXPECT_STREQ(e.what(),
               "\xe6\x97\xa5.xlsx: x\\x80.xml: format error: type openxml\\xe6ormats \\xc0\\xaf "
               "\\xed\\xa0\\x80 \xf0\x9f\x98\x80 caf\xc3\xa9");
}

TEST(Error, WithoutContextOnlyKindAndMessage) {
  const Error e(ErrorKind::limit, {}, "too deep");
  EXPECT_STREQ(e.what(), "limit error: too deep");
}

TEST(Error, WithFileFillsOnlyWhatIsMissing) {
  const Error inner(ErrorKind::range, {"", "", 7}, "past end");
  const Error outer = inner.with_file("a.pdf").with_part("object 12");
  EXPECT_STREQ(outer.what(), "a.pdf: object 12: offset 7: range error: past end");
  const Error again = outer.with_file("other.pdf");
  EXPECT_EQ(again.context().file, "a.pdf");
}

}  // namespace
}  // namespace docconform
