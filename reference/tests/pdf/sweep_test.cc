// The object sweep on several threads sees the same objects as fresh reads do, inflates each
// object stream once, reads through a source of its own per extra worker, and on bad input
// throws the serial sweep's error.
#include "docconform/pdf/sweep.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "docconform/error.h"
#include "docconform/parallel.h"
#include "pdf_test_util.h"

namespace {

using docconform::Error;
using namespace docconform::pdf;

GenerateOptions shape(bool object_streams) {
  GenerateOptions o;
  o.objects = 3000;  // a dozen sweep jobs
  o.payload = 40;
  o.object_streams = object_streams;
  o.updates = 2;
  o.shuffle = true;
  o.pages = 30;
  o.cluster = 50;
  return o;
}

// An object's canonical text, a stream's with where its data lies.
std::string value_text(const Object& object) {
  std::string text = canonical_text(object);
  if (object.kind == Kind::stream) text += " @" + std::to_string(object.stream_offset) + "+" + std::to_string(object.stream_length);
  return text;
}

// Every object's value text, by number.
std::map<std::uint32_t, std::string> swept(Document& document, unsigned threads) {
  std::mutex mutex;
  std::map<std::uint32_t, std::string> seen;
  const SweepResult result = sweep_objects(document, threads, [&](std::uint32_t num, const Object& object) {
    std::string text = value_text(object);
    std::lock_guard lock(mutex);
    EXPECT_TRUE(seen.emplace(num, std::move(text)).second) << "object " << num << " visited twice";
  });
  EXPECT_EQ(result.items, seen.size());
  return seen;
}

std::string outcome_of_sweep(const std::string& bytes, unsigned threads) {
  auto source = memory_source(bytes, "broken.pdf");
  Document document(*source);
  return pdftest::outcome_of([&] { sweep_objects(document, threads); });
}

// The sweep reads every object into one reused value; what it visits is what a fresh read gives.
TEST(PdfParallelSweep, EveryThreadCountSeesEveryObjectOnceWithItsOwnValue) {
  for (const bool object_streams : {false, true}) {
    const std::string bytes = pdftest::generated_pdf(shape(object_streams));
    auto serial_source = memory_source(bytes);
    Document serial(*serial_source);
    std::map<std::uint32_t, std::string> expected;
    for (const std::uint32_t num : serial.objects_in_file_order()) expected[num] = value_text(serial.object(num));
    EXPECT_EQ(swept(serial, 1), expected) << "object streams " << object_streams;
    for (const unsigned threads : {2U, 3U, 4U}) {
      auto source = memory_source(bytes);
      Document document(*source);
      EXPECT_EQ(swept(document, threads), expected) << "object streams " << object_streams << ", threads " << threads;
    }
  }
}

// Every field of a value, nested values included: what a reused value must not keep.
std::string every_field(const Object& o) {
  std::string text = std::string(to_string(o.kind)) + " " + std::to_string(o.boolean) + " " + std::to_string(o.integer) +
                     " " + std::to_string(o.real) + " " + std::to_string(o.gen) + " [" + o.bytes + "] " +
                     std::to_string(o.stream_offset) + "+" + std::to_string(o.stream_length) + " {";
  for (const std::string& key : o.keys) text += key + ";";
  text += "} (";
  for (const Object& item : o.items) text += every_field(item) + ", ";
  return text + ")";
}

// Reading into an Object that held another value, of any shape, leaves nothing of it behind.
TEST(PdfObjectReuse, ReadingIntoAValueThatHeldAnotherGivesAFreshReadsValue) {
  std::vector<std::string> bodies = pdftest::one_page();
  for (const char* body : {
           "<< /A << /B [1 2.5 (x) /N#20m << /C null >>] /D true >> /E [] /F <<>> /G <48656C6C6F> >>",
           "[ << /K 1 >> [ [ ] ] (s\\(t) 7 0 R false -3 ]", "42", "/Name", "null", "", "3.5", "[1]", "<< /Only 1 >>",
           "<< /Length 5 >>\nstream\nhello\nendstream", "<< /Length 1 /Filter /None >>\nstream\nx\nendstream"}) {
    bodies.emplace_back(body);
  }
  bodies.push_back("(" + std::string(600, 'p') + "\\) " + std::string(100, 'q') + ")");
  const std::string bytes = pdftest::classic_pdf(bodies);
  auto source = memory_source(bytes);
  Document document(*source);
  const auto last = static_cast<std::uint32_t>(bodies.size() + 1);  // one past the end: absent, null
  for (std::uint32_t before = 1; before <= last; ++before) {
    for (std::uint32_t num = 1; num <= last; ++num) {
      Object reused;
      document.object(before, reused);
      document.object(num, reused);
      EXPECT_EQ(every_field(reused), every_field(document.object(num))) << "object " << num << " after " << before;
    }
  }
}

TEST(PdfParallelSweep, InflatesEachObjectStreamOnceWhateverTheThreadCountOrTheDocumentCached) {
  const std::string bytes = pdftest::generated_pdf(shape(true));
  auto probe_source = memory_source(bytes);
  Document probe(*probe_source);
  const std::uint64_t streams = inflate_object_streams(probe, 1).items;
  ASSERT_GT(streams, 10U);
  for (const unsigned threads : {1U, 2U, 4U}) {
    auto source = memory_source(bytes);
    Document document(*source);
    // The document already holds the first object stream the sweep meets, as it does after
    // reading the page tree: the sweep's count must not depend on which worker takes that job.
    const std::vector<std::uint32_t> order = document.objects_in_file_order();
    const auto first_compressed = std::find_if(order.begin(), order.end(), [&](std::uint32_t num) {
      return document.xref()[num].type == XrefEntry::Type::compressed;
    });
    ASSERT_NE(first_compressed, order.end());
    document.object(*first_compressed);
    const SweepResult result = sweep_objects(document, threads);
    EXPECT_EQ(result.stats.objstm_inflated, streams) << threads << " threads";
    EXPECT_EQ(result.threads, docconform::planned_threads(64, threads));
    EXPECT_EQ(inflate_object_streams(document, threads).items, streams);
  }
}

TEST(PdfParallelSweep, ExtraWorkersReadThroughSourcesOfTheirOwn) {
  const std::string bytes = pdftest::generated_pdf(shape(true));
  pdftest::TempFile file(bytes, "sweep");
  std::map<std::uint32_t, std::string> expected;
  {
    auto source = memory_source(bytes);
    Document document(*source);
    expected = swept(document, 1);
  }
  for (const SourceKind kind : {SourceKind::mapped, SourceKind::pread, SourceKind::buffered, SourceKind::whole}) {
    SourceOptions options;
    options.kind = kind;
    options.window = 1 << 16;
    auto source = open_source(file.path(), options);
    Document document(*source);
    const SourceCounts before = source->counts();
    EXPECT_EQ(swept(document, 2), expected) << to_string(kind);
    const SweepResult again = sweep_objects(document, 2);
    // The caller's source is read by the caller's thread only; the second worker opened its own
    // (a whole-file source shares its bytes instead of opening the file).
    const std::uint64_t opened = again.threads > 1 && kind != SourceKind::whole ? 1 : 0;
    EXPECT_EQ(again.counts.open, opened) << to_string(kind);
    EXPECT_EQ(source->counts().open, before.open) << to_string(kind);
  }
}

TEST(PdfParallelSweep, ThrowsTheErrorOfTheFirstBrokenObjectInFileOrder) {
  const std::string good = pdftest::generated_pdf(shape(false));
  std::vector<std::uint32_t> order;
  std::vector<std::uint64_t> offsets;
  {
    auto source = memory_source(good);
    Document document(*source);
    order = document.objects_in_file_order();
    for (const std::uint32_t num : order) offsets.push_back(document.xref()[num].offset);
  }
  // Pairs of broken objects (positions in file order): far apart, and the last object of the
  // first job with the first of the second (jobs of 256 objects in a classic file), where the
  // later object's error is thrown first on two threads.
  const std::vector<std::pair<std::size_t, std::size_t>> pairs = {{order.size() / 10, order.size() * 9 / 10}, {255, 256}};
  for (const auto& [early, late] : pairs) {
    std::string bytes = good;
    for (const std::size_t position : {early, late}) ASSERT_TRUE(pdftest::break_object_header(bytes, offsets[position]));
    const std::string serial = outcome_of_sweep(bytes, 1);
    EXPECT_NE(serial.find("object " + std::to_string(order[early]) + " "), std::string::npos) << serial;
    for (int round = 0; round < 10; ++round) {
      for (const unsigned threads : {2U, 4U}) {
        EXPECT_EQ(outcome_of_sweep(bytes, threads), serial) << "objects " << early << ", " << late << ": " << threads << " threads";
      }
    }
  }
}

TEST(ByteSourceAnother, ReadsTheSameBytesWithItsOwnCounts) {
  const std::string bytes = pdftest::generated_pdf(shape(false));
  pdftest::TempFile file(bytes, "another");
  for (const SourceKind kind : {SourceKind::mapped, SourceKind::pread, SourceKind::buffered, SourceKind::whole}) {
    SourceOptions options;
    options.kind = kind;
    auto source = open_source(file.path(), options);
    source->map(100, 10);
    const SourceCounts before = source->counts();
    auto other = source->another();
    EXPECT_EQ(other->kind(), kind);
    EXPECT_EQ(other->size(), source->size());
    EXPECT_EQ(other->name(), source->name());
    const std::uint8_t* view = other->map(1000, 64);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(view), 64), bytes.substr(1000, 64)) << to_string(kind);
    EXPECT_EQ(source->counts().total_calls(), before.total_calls()) << to_string(kind);
  }
}

TEST(ByteSourceAnother, RefusesAFileWhoseSizeChanged) {
  pdftest::TempFile file(pdftest::generated_pdf(shape(false)), "another_changed");
  auto source = open_source(file.path(), SourceOptions{});
  file.write("%PDF-1.4\n%%EOF\n");
  try {
    source->another();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), docconform::ErrorKind::io);
    EXPECT_NE(e.message().find("changed"), std::string::npos) << e.message();
  }
}

}  // namespace
