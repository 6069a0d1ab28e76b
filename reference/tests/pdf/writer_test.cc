// Incremental updates: original bytes untouched, our reader sees the change, and qpdf --check
// accepts the result when qpdf is installed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "docconform/pdf/generate.h"
#include "docconform/pdf/writer.h"
#include "pdf_test_util.h"

namespace {

using namespace docconform::pdf;

std::string generated(bool object_streams) {
  GenerateOptions options;
  options.objects = 50;
  options.payload = 30;
  options.pages = 3;
  options.object_streams = object_streams;
  options.updates = 1;
  return pdftest::generated_pdf(options);
}

std::string update(const std::string& original, const UpdateChanges& changes) {
  auto source = memory_source(original);
  Document doc(*source);
  std::ostringstream out;
  write_incremental_update(doc, changes, out);
  return out.str();
}

void expect_qpdf_accepts(const std::string& bytes) {
  if (!std::filesystem::exists("/usr/bin/qpdf")) return;
  pdftest::TempFile file(bytes, "qpdf");
  const std::string command = "/usr/bin/qpdf --check '" + file.path() + "' >/dev/null 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << "qpdf --check rejected the update";
}

class WriterTest : public ::testing::TestWithParam<bool> {};

TEST_P(WriterTest, InfoEntryAndReplacedAndNewObjects) {
  const std::string original = generated(GetParam());
  UpdateChanges changes;
  changes.info.emplace_back("Title", "Stamped (1)");
  changes.objects.emplace_back(3, parse_object_text("<< /Type /Page /Parent 2 0 R /Rotate 270 >>"));
  changes.objects.emplace_back(900, parse_object_text("[1 2 (three)]"));
  const std::string updated = update(original, changes);
  ASSERT_GT(updated.size(), original.size());
  EXPECT_EQ(updated.compare(0, original.size(), original), 0) << "original bytes changed";

  auto source = memory_source(updated);
  Document doc(*source);
  EXPECT_EQ(doc.sections().size(), 3u);
  EXPECT_EQ(doc.sections()[0].form, GetParam() ? XrefSection::Form::stream : XrefSection::Form::table);
  EXPECT_EQ(doc.info().get("Title")->bytes, "Stamped (1)");
  EXPECT_EQ(canonical_text(doc.object(900)), "[1 2 \"three\"]");
  EXPECT_EQ(doc.object(3).get("Rotate")->integer, 270);
  EXPECT_EQ(doc.page_count(), 3u);
  expect_qpdf_accepts(updated);

  // A second update on top of the first follows the chain again.
  UpdateChanges again;
  again.info.emplace_back("Subject", "twice");
  const std::string twice = update(updated, again);
  auto source2 = memory_source(twice);
  Document doc2(*source2);
  EXPECT_EQ(doc2.info().get("Title")->bytes, "Stamped (1)");
  EXPECT_EQ(doc2.info().get("Subject")->bytes, "twice");
  expect_qpdf_accepts(twice);
}

TEST_P(WriterTest, InfoIsCreatedWhenTheTrailerHasNone) {
  std::string original = pdftest::classic_pdf(pdftest::one_page());
  UpdateChanges changes;
  changes.info.emplace_back("Author", "x");
  const std::string updated = update(original, changes);
  auto source = memory_source(updated);
  Document doc(*source);
  EXPECT_EQ(doc.info().get("Author")->bytes, "x");
  expect_qpdf_accepts(updated);
}

TEST_P(WriterTest, NonAsciiInfoIsAUtf16TextString) {
  UpdateChanges changes;
  changes.info.emplace_back("Title", "Gr\xC3\xBC\xC3\x9F" "e \xF0\x9F\x98\x80");  // Grüße U+1F600
  changes.info.emplace_back("Subject", "plain");
  const std::string updated = update(generated(GetParam()), changes);
  auto source = memory_source(updated);
  Document doc(*source);
  EXPECT_EQ(doc.info().get("Title")->bytes,
            std::string("\xFE\xFF\x00G\x00r\x00\xFC\x00\xDF\x00" "e\x00 \xD8\x3D\xDE\x00", 18));
  EXPECT_EQ(doc.info().get("Subject")->bytes, "plain");  // ASCII stays as it is
  expect_qpdf_accepts(updated);
}

TEST_P(WriterTest, ObjectNumbersReadersRejectFailBeforeAnyByteIsWritten) {
  const std::string original = generated(GetParam());
  for (const std::uint32_t num : {0u, 8'000'000u, 4'294'967'295u}) {
    auto source = memory_source(original);
    Document doc(*source);
    UpdateChanges changes;
    changes.objects.emplace_back(7, Object::make_int(1));
    changes.objects.emplace_back(num, Object::make_int(1));
    std::ostringstream out;
    EXPECT_THROW(write_incremental_update(doc, changes, out), docconform::Error) << num;
    EXPECT_TRUE(out.str().empty()) << num;
  }
}

INSTANTIATE_TEST_SUITE_P(TableAndStream, WriterTest, ::testing::Values(false, true));

}  // namespace
