// What a load holds is bounded by named limits: elements of one container, and the memory of the
// whole load (the cross-reference table, the objects being parsed, the page tree, the page lines
// of a level-3 dump). Going over one is Error(limit) naming it, where it happened, and the same
// at every thread count. Large containers are allocated once, at their size.
#include <gtest/gtest.h>

#include <string>

#include "docconform/error.h"
#include "docconform/pdf/dump.h"
#include "docconform/pdf/writer.h"
#include "pdf_test_util.h"

namespace {

using docconform::Error;
using docconform::ErrorKind;
using namespace docconform::pdf;
using pdftest::classic_pdf;
using pdftest::one_page;

Error rejected(const std::string& bytes, Limits limits, unsigned threads = 1) {
  pdftest::TempFile file(bytes, "limits");
  try {
    pdf_dump_file(file.path(), {}, 3, limits, threads);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "accepted";
  return Error(ErrorKind::format, {}, "accepted");
}

std::string array_of(std::size_t n, const std::string& element) {
  std::string out = "[";
  for (std::size_t i = 0; i < n; ++i) out += element + " ";
  return out + "]";
}

TEST(PdfLimits, ContainerElementsPastTheLimitAreALimitErrorAtTheFirstOneOver) {
  std::vector<std::string> bodies = one_page();
  bodies.push_back(array_of(11, "7"));
  std::vector<std::size_t> offsets;
  const std::string bytes = classic_pdf(bodies, "", "\r\n", &offsets);
  Limits limits;
  limits.max_container_elements = 10;
  const Error e = rejected(bytes, limits);
  EXPECT_EQ(e.kind(), ErrorKind::limit);
  EXPECT_EQ(e.context().part, "object 4 0");
  const std::size_t array = bytes.find('[', offsets[3]);
  EXPECT_EQ(e.context().offset, array + 1 + 2 * 10);  // the eleventh element
  EXPECT_NE(e.message().find("max_container_elements (10)"), std::string::npos) << e.message();

  bodies.back() = "<< /A 1 /B 2 /C 3 /D 4 /E 5 >>";  // the page tree's dictionaries have up to 4
  limits.max_container_elements = 4;
  const Error dict = rejected(classic_pdf(bodies), limits);
  EXPECT_EQ(dict.context().part, "object 4 0");
  EXPECT_NE(dict.message().find("dictionary has more than max_container_elements (4)"), std::string::npos) << dict.what();
  limits.max_container_elements = 5;
  EXPECT_EQ(pdftest::outcome_of([&] { pdftest::dump(classic_pdf(bodies), 3, limits); }), "ok");
}

// Counted ahead to their end, large containers are allocated at their size: no doubling that
// holds a copy of the elements beside them while it grows (about 1.8x their size at the peak).
TEST(PdfLimits, LargeContainersAreAllocatedAtTheirSize) {
  const Object refs = parse_object_text(array_of(10'000, "12 0 R"));
  ASSERT_EQ(refs.items.size(), 10'000u);
  EXPECT_EQ(refs.items.capacity(), refs.items.size());
  EXPECT_EQ(refs.items[9'999].kind, Kind::ref);

  // Large containers inside a large one are counted by the same look ahead.
  std::string nested = "[";
  for (int i = 0; i < 5000; ++i) nested += "(a\\)b(c)) <41> /N " + std::to_string(i) + " % comment\n";
  nested += array_of(6000, "1 2") + " " + array_of(5000, "[]") + "]";
  const Object outer = parse_object_text(nested);
  ASSERT_EQ(outer.items.size(), 4 * 5000u + 2);
  EXPECT_EQ(outer.items.capacity(), outer.items.size());
  EXPECT_EQ(outer.items[20'000].items.size(), 12'000u);
  EXPECT_EQ(outer.items[20'000].items.capacity(), 12'000u);
  EXPECT_EQ(outer.items[20'001].items.capacity(), 5'000u);

  std::string dict = "<<";
  for (int i = 0; i < 5000; ++i) dict += "/K" + std::to_string(i) + " " + std::to_string(i) + " 0 R ";
  const Object d = parse_object_text(dict + ">>");
  EXPECT_EQ(d.keys.size(), 5000u);
  EXPECT_EQ(d.items.capacity(), 5000u);
  EXPECT_EQ(d.keys.capacity(), 5000u);
}

TEST(PdfLimits, AnObjectLargerThanTheMemoryBudgetIsALimitErrorNamingIt) {
  std::vector<std::string> bodies = one_page();
  bodies.push_back(array_of(100'000, "1"));  // 100,000 elements: about 12 MB parsed
  Limits limits;
  limits.max_memory = 4 << 20;
  const Error e = rejected(classic_pdf(bodies), limits);
  EXPECT_EQ(e.kind(), ErrorKind::limit);
  EXPECT_EQ(e.context().part, "object 4 0");
  EXPECT_TRUE(e.context().offset.has_value());
  EXPECT_NE(e.message().find("over max_memory (4194304)"), std::string::npos) << e.message();
  limits.max_memory = 64 << 20;
  EXPECT_EQ(pdftest::outcome_of([&] { pdftest::dump(classic_pdf(bodies), 3, limits); }), "ok");
}

TEST(PdfLimits, TheCrossReferenceTableIsCharged) {
  std::vector<std::string> bodies = one_page();
  std::string bytes = classic_pdf(bodies);
  // 1,000,000 free entries in a second subsection: 24 MB of table.
  std::string table = "1000000 1\n" + pdftest::entry20(0, 0, 'f');
  const auto trailer = bytes.find("trailer");
  bytes.insert(trailer, table);
  Limits limits;
  limits.max_memory = 8 << 20;
  const Error e = rejected(bytes, limits);
  EXPECT_EQ(e.context().part, "xref");
  EXPECT_NE(e.message().find("max_memory"), std::string::npos) << e.message();
}

TEST(PdfLimits, PageLinesOfALevelThreeDumpAreCharged) {
  GenerateOptions options;
  options.objects = 10;
  options.payload = 10;
  options.pages = 60'000;  // about 5 MB of page lines
  const std::string bytes = pdftest::generated_pdf(options);
  Limits limits;
  limits.max_memory = 6 << 20;
  const Error e = rejected(bytes, limits);
  EXPECT_EQ(e.kind(), ErrorKind::limit);
  EXPECT_NE(e.message().find("max_memory"), std::string::npos) << e.message();
  EXPECT_EQ(e.context().part.rfind("object ", 0), 0u) << e.what();
  // Level 2 lists no pages: the same budget holds it.
  auto source = memory_source(bytes);
  Document document(*source, limits);
  EXPECT_EQ(pdftest::outcome_of([&] { pdf_dump(document, 2); }), "ok");
}

// The source `whole` holds the file for the whole load: the file is charged to max_memory, and
// one larger than the limit is refused before it is read. Bytes a caller hands over are its own.
TEST(PdfLimits, AFileTheSourceWholeHoldsIsChargedToMaxMemory) {
  GenerateOptions options;
  options.objects = 2000;
  options.payload = 200;
  const std::string bytes = pdftest::generated_pdf(options);
  pdftest::TempFile file(bytes, "whole");
  const SourceOptions whole{SourceKind::whole};
  Limits limits;
  limits.max_memory = bytes.size() - 1;
  try {
    open_source(file.path(), whole, limits.max_memory);
    ADD_FAILURE() << "a file larger than max_memory was read whole";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::limit);
    EXPECT_EQ(e.context().file, file.path());
    EXPECT_NE(e.message().find("larger than max_memory (" + std::to_string(limits.max_memory) + " bytes)"), std::string::npos)
        << e.message();
  }
  // What the file leaves of the budget is what the load has: a budget of the file's size holds
  // a level-1 dump over bytes in memory, and nothing beside the same bytes read whole.
  limits.max_memory = bytes.size();
  auto given = memory_source(bytes);
  Document in_memory(*given, limits);
  EXPECT_EQ(pdftest::outcome_of([&] { pdf_dump(in_memory, 1); }), "ok");
  auto read_whole = open_source(file.path(), whole, limits.max_memory);
  EXPECT_EQ(read_whole->held_bytes(), bytes.size());
  EXPECT_EQ(given->held_bytes(), 0u);
  const std::string outcome = pdftest::outcome_of([&] {
    Document document(*read_whole, limits);
    pdf_dump(document, 1);
  });
  EXPECT_NE(outcome.find("max_memory"), std::string::npos) << outcome;
  for (const SourceKind kind : {SourceKind::mapped, SourceKind::pread}) {
    EXPECT_EQ(pdftest::outcome_of([&] { pdf_dump_file(file.path(), SourceOptions{kind}, 1, limits, 1); }), "ok");
  }
}

// Objects of about 1.2 MB parsed each (charged 1 MiB at a time): a budget that holds one at a
// time but not two holds a serial dump; workers reading two at once go over it, and the dump is made as a serial one
// would make it instead of failing, or fails as the serial one does.
TEST(PdfLimits, ALevelThreeDumpUnderATightBudgetIsTheSerialOneAtEveryThreadCount) {
  std::vector<std::string> bodies = one_page();
  for (int i = 0; i < 700; ++i) bodies.push_back(i % 8 == 0 ? array_of(10'000, "1") : "(small)");
  const std::string bytes = classic_pdf(bodies);
  pdftest::TempFile file(bytes, "tight");
  for (const std::uint64_t budget : {std::uint64_t{3} << 19, std::uint64_t{1} << 19}) {
    Limits limits;
    limits.max_memory = budget;
    const auto outcome = [&](unsigned threads) {
      std::string dump;
      const std::string status = pdftest::outcome_of([&] { dump = pdf_dump_file(file.path(), {}, 3, limits, threads); });
      return status + "\n" + dump;
    };
    const std::string serial = outcome(1);
    if (budget == (3u << 19)) {
      EXPECT_EQ(serial.rfind("ok", 0), 0u) << serial.substr(0, 300);
    } else {
      EXPECT_NE(serial.find("object 4 0: offset "), std::string::npos) << serial.substr(0, 300);
      EXPECT_NE(serial.find("over max_memory (524288)"), std::string::npos) << serial.substr(0, 300);
    }
    for (int round = 0; round < 3; ++round) {
      for (const unsigned threads : {2U, 4U}) EXPECT_EQ(outcome(threads), serial) << budget << ", " << threads;
    }
  }
}

// Nesting and the page tree are walked recursively: a max_depth past what the stack holds is
// refused up front (20,000 page-tree levels under max_depth 100,000 overflowed the stack).
TEST(PdfLimits, MaxDepthPastTheStacksReachIsAUsageError) {
  const std::string pdf = classic_pdf(one_page());
  auto source = docconform::pdf::memory_source(pdf);
  Limits limits;
  limits.max_depth = Limits::deepest_supported;
  EXPECT_NO_THROW(Document(*source, limits));
  // At that depth, nesting and the page tree dump at level 3 within the stack (this test runs
  // under ASan too, whose frames are the largest).
  const std::uint32_t depth = Limits::deepest_supported - 2;
  std::vector<std::string> bodies = {"<< /Type /Catalog /Pages 2 0 R >>"};
  for (std::uint32_t level = 0; level < depth; ++level) {
    const std::uint32_t node = 2 + 2 * level;
    std::string kids = std::to_string(node + 1) + " 0 R";
    if (level + 1 < depth) kids += " " + std::to_string(node + 2) + " 0 R";
    bodies.push_back("<< /Type /Pages /Count " + std::to_string(depth - level) + " /Kids [" + kids + "] >>");
    bodies.push_back("<< /Type /Page /Parent " + std::to_string(node) + " 0 R /MediaBox [0 0 1 1] /A " +
                     (level == 0 ? std::string(depth, '[') + std::string(depth, ']') : "0") + " >>");
  }
  EXPECT_EQ(pdftest::outcome_of([&] { pdftest::dump(classic_pdf(bodies), 3, limits); }), "ok");
  limits.max_depth = Limits::deepest_supported + 1;
  try {
    Document doc(*source, limits);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("max_depth"), std::string::npos) << e.what();
  }
}

}  // namespace
