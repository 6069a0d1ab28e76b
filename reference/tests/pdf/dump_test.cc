// The level-3 dump of a large file is written in bounded pieces (never held whole) that join to
// exactly the dump pdf_dump returns, and is the same, or fails the same way, at every thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "docconform/pdf/dump.h"
#include "docconform/pdf/generate.h"
#include "pdf_test_util.h"

namespace {

using namespace docconform::pdf;

TEST(PdfDump, LargeDumpComesInBoundedPiecesThatJoinToTheWholeDump) {
  GenerateOptions options;
  options.objects = 6000;
  options.payload = 300;
  options.object_streams = true;
  options.pages = 10;
  pdftest::TempFile file(pdftest::generated_pdf(options), "pieces");

  std::string joined;
  std::size_t pieces = 0, largest = 0;
  write_pdf_dump_file(file.path(), {}, 3, {}, [&](std::string_view piece) {
    ++pieces;
    largest = std::max(largest, piece.size());
    joined += piece;
  });
  const std::string whole = pdf_dump_file(file.path(), {}, 3);
  EXPECT_EQ(joined, whole);
  ASSERT_GT(whole.size(), 2u << 20);
  EXPECT_GE(pieces, 2u);
  EXPECT_LE(largest, 1u << 20);
}

TEST(PdfDump, ManyPagesComeInBoundedPiecesToo) {
  GenerateOptions options;
  options.objects = 100;
  options.payload = 20;
  options.pages = 40000;  // about 3 MB of page lines, written after the trailer
  pdftest::TempFile file(pdftest::generated_pdf(options), "page_pieces");

  std::string joined;
  std::size_t largest = 0;
  write_pdf_dump_file(file.path(), {}, 3, {}, [&](std::string_view piece) {
    largest = std::max(largest, piece.size());
    joined += piece;
  });
  EXPECT_EQ(joined, pdf_dump_file(file.path(), {}, 3));
  EXPECT_NE(joined.find("page 40000 "), std::string::npos);
  EXPECT_LE(largest, 1u << 20);
}

GenerateOptions many_objects(bool object_streams) {
  GenerateOptions options;
  options.objects = 12000;  // a few waves of jobs on any thread count
  options.payload = 20;
  options.object_streams = object_streams;
  options.updates = 2;
  options.shuffle = true;
  options.pages = 40;
  options.cluster = 60;
  return options;
}

// The benchmark's object-stream shape (shuffled streams of 100 objects, three updates) in small.
GenerateOptions benchmark_shape(std::uint32_t objects, std::uint32_t payload) {
  GenerateOptions options = many_objects(true);
  options.objects = objects;
  options.payload = payload;
  options.updates = 3;
  options.cluster = 100;
  return options;
}

TEST(PdfParallelDump, SameDumpAtEveryThreadCountAndSource) {
  for (const bool object_streams : {false, true}) {
    pdftest::TempFile file(pdftest::generated_pdf(many_objects(object_streams)), "parallel_dump");
    const std::string serial = pdf_dump_file(file.path(), {}, 3, {}, 1);
    for (const SourceKind kind : {SourceKind::mapped, SourceKind::pread, SourceKind::whole}) {
      SourceOptions source;
      source.kind = kind;
      source.window = 1 << 16;
      for (const unsigned threads : {0U, 2U, 3U}) {
        EXPECT_TRUE(pdf_dump_file(file.path(), source, 3, {}, threads) == serial)
            << "object streams " << object_streams << ", " << to_string(kind) << ", threads " << threads;
      }
    }
  }
}

TEST(PdfParallelDump, BrokenObjectsFailWithTheSerialError) {
  const std::string good = pdftest::generated_pdf(many_objects(false));
  std::vector<std::uint32_t> in_use;
  std::vector<std::uint64_t> offsets;
  {
    auto source = memory_source(good);
    Document document(*source);
    for (std::uint32_t num = 1; num < document.xref().size(); ++num) {
      if (document.xref()[num].type != XrefEntry::Type::offset) continue;
      in_use.push_back(num);
      offsets.push_back(document.xref()[num].offset);
    }
  }
  // Pairs of broken objects (positions in number order): far apart, and the last object of the
  // first job with the first of the second (jobs of 512 objects), where the later object's error
  // is thrown first on two threads.
  const std::vector<std::pair<std::size_t, std::size_t>> pairs = {{600, 9000}, {511, 512}};
  for (const auto& [early, late] : pairs) {
    std::string bytes = good;
    for (const std::size_t position : {early, late}) ASSERT_TRUE(pdftest::break_object_header(bytes, offsets[position]));
    pdftest::TempFile file(bytes, "parallel_dump_broken");
    const auto outcome = [&](unsigned threads) {
      return pdftest::outcome_of([&] { pdf_dump_file(file.path(), {}, 3, {}, threads); });
    };
    const std::string serial = outcome(1);
    EXPECT_NE(serial.find("object " + std::to_string(in_use[early]) + " "), std::string::npos) << serial;
    for (int round = 0; round < 5; ++round) {
      for (const unsigned threads : {2U, 4U}) {
        EXPECT_EQ(outcome(threads), serial) << "objects " << early << ", " << late << ": " << threads << " threads";
      }
    }
  }
}

// Batches change where the bytes are read, never what is dumped: every batch size (1 byte: no
// extent fits, so nothing is held; a few objects; all) gives the unbatched dump, or its error,
// on every source and thread count.
TEST(PdfParallelDump, SameDumpAndErrorAtEveryBatchSize) {
  // Small objects, in object streams or not, and objects whose syntax passes the reader's first
  // 4 KiB request.
  for (const auto& [object_streams, payload] : {std::pair(false, 20), std::pair(true, 20), std::pair(false, 6000)}) {
    GenerateOptions options = many_objects(object_streams);
    options.objects = payload > 1000 ? 300 : 3000;
    options.payload = static_cast<std::uint32_t>(payload);
    const std::string good = pdftest::generated_pdf(options);
    std::string broken = good;
    {
      auto source = memory_source(good);
      Document document(*source);
      std::vector<std::uint64_t> offsets;  // in number order
      for (const XrefEntry& entry : document.xref()) {
        if (entry.type == XrefEntry::Type::offset) offsets.push_back(entry.offset);
      }
      ASSERT_GT(offsets.size(), 10u);
      ASSERT_TRUE(pdftest::break_object_header(broken, offsets[offsets.size() / 2]));
    }
    for (const std::string* bytes : {&good, static_cast<const std::string*>(&broken)}) {
      pdftest::TempFile file(*bytes, "batched_dump");
      Limits unbatched;
      unbatched.dump_batch_bytes = 0;
      const auto dump_or_error = [&](const SourceOptions& source, const Limits& limits, unsigned threads) -> std::string {
        try {
          return pdf_dump_file(file.path(), source, 3, limits, threads);
        } catch (const docconform::Error& e) {
          return std::string("error: ") + e.what();
        }
      };
      const std::string expected = dump_or_error({}, unbatched, 1);
      EXPECT_EQ(expected.rfind("error: ", 0) == 0, bytes == &broken) << expected.substr(0, 200);
      for (const std::uint64_t batch : {std::uint64_t{1}, std::uint64_t{4096}, std::uint64_t{1} << 30}) {
        Limits limits;
        limits.dump_batch_bytes = batch;
        for (const SourceKind kind : {SourceKind::mapped, SourceKind::pread}) {
          SourceOptions source;
          source.kind = kind;
          source.window = 1 << 16;
          for (const unsigned threads : {1U, 2U}) {
            EXPECT_TRUE(dump_or_error(source, limits, threads) == expected)
                << "object streams " << object_streams << ", batch " << batch << ", " << to_string(kind) << ", threads "
                << threads << (bytes == &broken ? ", broken" : "");
          }
        }
      }
    }
  }
}

// A held object is read with the requests, memory charges and errors of one that is not: the
// budget counts what each growing request parsed (4 KiB, 32 KiB, 256 KiB of an array of 100,000
// elements, about 12 MiB in all), so a budget between one request's charges and the sum fails
// the same way held or not. Two objects: one held whole, and one whose held bytes end inside it
// (its successor's xref entry points into a string it holds), read past them after all.
TEST(PdfParallelDump, SameLimitErrorHeldOrNot) {
  std::string elements;
  for (int i = 0; i < 100'000; ++i) elements += "1 ";
  for (const bool ends_inside : {false, true}) {
    std::vector<std::string> bodies = pdftest::one_page();
    bodies.push_back(ends_inside ? "[" + elements + "(5 0 obj 7 endobj) " + elements.substr(0, 200) + "]" : "[" + elements + "]");
    bodies.push_back("(placeholder)");
    std::vector<std::size_t> offsets;
    std::string bytes = pdftest::classic_pdf(bodies, "", "\r\n", &offsets);
    if (ends_inside) {  // object 5: the one in object 4's string
      const std::size_t entry = bytes.rfind(pdftest::entry20(offsets[4], 0, 'n'));
      ASSERT_NE(entry, std::string::npos);
      bytes.replace(entry, 20, pdftest::entry20(bytes.find("(5 0 obj") + 1, 0, 'n'));
    }
    pdftest::TempFile file(bytes, "held_limits");
    for (std::uint64_t budget_kib = 9 << 10; budget_kib <= 14 << 10; budget_kib += 512) {
      const auto dump_or_error = [&](const SourceOptions& source, std::uint64_t batch, unsigned threads) -> std::string {
        Limits limits;
        limits.max_memory = budget_kib << 10;
        limits.dump_batch_bytes = batch;
        try {
          return pdf_dump_file(file.path(), source, 3, limits, threads);
        } catch (const docconform::Error& e) {
          return std::string("error: ") + e.what();
        }
      };
      const std::string expected = dump_or_error({}, 0, 1);
      if (budget_kib == 14 << 10) {
        EXPECT_EQ(expected.find("error: "), std::string::npos) << expected.substr(0, 300);
        if (ends_inside) {
          EXPECT_NE(expected.find("\nobj 5 0 7\n"), std::string::npos);
        }
      }
      for (const SourceKind kind : {SourceKind::mapped, SourceKind::pread}) {
        SourceOptions source;
        source.kind = kind;
        for (const unsigned threads : {1U, 2U}) {
          const std::string held = dump_or_error(source, std::uint64_t{1} << 30, threads);
          EXPECT_TRUE(held == expected)
              << held.substr(0, 300) << "\nnot\n" << expected.substr(0, 300) << "\n" << (ends_inside ? "held bytes end inside the object, " : "") << "max_memory " << budget_kib << " KiB, "
              << to_string(kind) << ", threads " << threads;
        }
      }
    }
  }
}

// In a shuffled file, number order jumps all over the file: read where the objects lie, a
// window slides back and forth. Held, a batch's objects are copied out in file order, one pread
// a run (objects that touch make one run), and the window maps no view for them, however far
// apart they lie (6000-byte objects in batches of about 40 of 600: the seed's 1.97 GB file in
// small), and each object is parsed once from them. The dump is the same at every batch size and
// thread count.
TEST(PdfBatchedDump, BatchesAreCopiedOutOnePreadARun) {
  for (const std::uint32_t payload : {20U, 6000U}) {
    GenerateOptions options = many_objects(false);
    options.payload = payload;
    options.objects = payload > 1000 ? 600 : options.objects;
    pdftest::TempFile file(pdftest::generated_pdf(options), "batched_copy");
    const std::string expected = pdf_dump_file(file.path(), {}, 3, {}, 1);
    const std::uint64_t size = std::filesystem::file_size(file.path());
    SourceOptions source_options;
    source_options.window = 1 << 16;
    const std::uint64_t windows = (size + source_options.window - 1) / source_options.window;
    for (const std::uint64_t batch : {std::uint64_t{1} << 30, size / 4, size / 15, std::uint64_t{0}}) {
      for (const unsigned threads : {1U, 2U}) {
        auto source = open_source(file.path(), source_options);
        Limits limits;
        limits.dump_batch_bytes = batch;
        Document document(*source, limits);
        std::string dump;
        const SweepResult result = write_pdf_dump(document, 3, [&](std::string_view piece) { dump += piece; }, threads);
        const std::string where = "payload " + std::to_string(payload) + ", batch " + std::to_string(batch) + ", threads " + std::to_string(threads);
        EXPECT_TRUE(dump == expected) << where;
        SourceCounts all;
        for (const SourceCounts& c : result.worker_counts) {
          all.map += c.map;
          all.pread += c.pread;
        }
        const auto objects = static_cast<std::uint64_t>(std::count_if(document.xref().begin(), document.xref().end(), [](const XrefEntry& e) {
          return e.type == XrefEntry::Type::offset;
        }));
        if (batch == 0) {  // nothing held: the window slides back and forth
          EXPECT_GT(all.map, 3 * windows) << where;
          EXPECT_EQ(all.pread, 0u) << where;
        } else if (batch > size) {  // one batch: a run between two xref sections
          EXPECT_EQ(all.map, 0u) << where;
          EXPECT_LE(all.pread, document.sections().size()) << where;
        } else {
          EXPECT_EQ(all.map, 0u) << where;
          EXPECT_GE(all.pread, (size + batch - 1) / batch) << where;
          EXPECT_LE(all.pread, objects) << where;
        }
        // Held, an object longer than the first 4 KiB request is parsed once, from its held bytes.
        if (batch != 0) {
          EXPECT_LE(result.stats.parsed_bytes, size) << where;
        }
      }
    }
  }
}

// The benchmark's object-stream file in small (shuffled streams, three updates; the window and
// the batch each the default's share of the benchmark's 186 MB file): number order needs every
// object stream's bytes once for its members and once for the stream's own line. The line is
// made while the bytes are held for the members, so the level-3 dump costs each worker at most
// a sweep a batch: within the bound of two sweeps' maps and unmaps and a few more, the
// document's open included. The held object streams are copied out by the kernel, at most one
// pread for each of a worker's share of the streams.
TEST(PdfBatchedDump, ObjectStreamsAreNotSweptAgainForTheirOwnLines) {
  pdftest::TempFile file(pdftest::generated_pdf(benchmark_shape(6000, 560)), "stream_lines");
  const std::uint64_t size = std::filesystem::file_size(file.path());
  constexpr std::uint64_t granularity = 64 << 10;
  SourceOptions source_options;
  source_options.granularity = granularity;
  source_options.window = (size * 67'108'864 / 186'323'584 + granularity - 1) / granularity * granularity;
  Limits limits;
  limits.dump_batch_bytes = source_options.window;
  const std::uint64_t windows = (size + source_options.window - 1) / source_options.window;
  ASSERT_EQ(windows, 3u);
  const std::string expected = pdf_dump_file(file.path(), {}, 3, {}, 1);
  for (const unsigned threads : {1U, 2U}) {
    auto source = open_source(file.path(), source_options);
    Document document(*source, limits);
    const SourceCounts setup = source->counts();
    std::string dump;
    const SweepResult result = write_pdf_dump(document, 3, [&](std::string_view piece) { dump += piece; }, threads);
    EXPECT_TRUE(dump == expected) << threads << " threads";
    ASSERT_EQ(result.worker_counts.size(), threads);
    for (std::size_t w = 0; w < threads; ++w) {
      const SourceCounts& c = result.worker_counts[w];
      const std::uint64_t calls = c.map + c.unmap + (w == 0 ? setup.map + setup.unmap : 0);
      EXPECT_LE(calls, 2 * windows + 16) << "worker " << w << " of " << threads;
      EXPECT_GT(c.pread, 0u) << "worker " << w << " of " << threads;
      EXPECT_LE(c.pread, result.stats.objstm_inflated) << "worker " << w << " of " << threads;
    }
  }
}

// Jobs end where an object stream does: a stream whose members two workers share is inflated by
// both, and an extra inflation costs more than the parse of the stream's members. Two threads
// inflate the streams about as often as one (waves still end inside streams).
TEST(PdfBatchedDump, TwoWorkersDoNotInflateTheSameStreamForOneWave) {
  pdftest::TempFile file(pdftest::generated_pdf(benchmark_shape(20000, 60)), "stream_jobs");
  std::uint64_t one_thread = 0;
  for (const unsigned threads : {1U, 2U}) {
    auto source = open_source(file.path(), {});
    Document document(*source, {});
    const SweepResult result = write_pdf_dump(document, 3, [](std::string_view) {}, threads);
    if (threads == 1) one_thread = result.stats.objstm_inflated;
    EXPECT_LE(result.stats.objstm_inflated * 100, one_thread * 104) << threads << " threads";
  }
}

}  // namespace
