// The sliding-window mapper's arithmetic and behaviour, and the counting of every source.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

#include "docconform/error.h"
#include "docconform/pdf/mapped.h"
#include "docconform/truncation_guard.h"
#include "pdf_test_util.h"
#include "tests/common/not_a_file.h"

namespace {

using docconform::Error;
using docconform::ErrorKind;
using namespace docconform::pdf;

const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));

std::string pattern(std::size_t size) {
  std::string bytes(size, '\0');
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((i * 131 + i / 251) & 0xFF);
  return bytes;
}

TEST(MapperArithmetic, AlignsDownAndAdvancesByTheDelta) {
  const ViewPlan plan = plan_view(1'000'000, 100, 64ull << 20, 64 << 10, 10ull << 30);
  EXPECT_EQ(plan.aligned, 983'040u);
  EXPECT_EQ(plan.delta, 16'960u);
  EXPECT_EQ(plan.length, 64ull << 20);
}

TEST(MapperArithmetic, StraddlingRequestGrowsTheOneView) {
  // 1 MiB window; the request starts 16,960 bytes into the view and runs 2 MiB.
  const ViewPlan plan = plan_view(1'000'000, 2 << 20, 1 << 20, 64 << 10, 10ull << 30);
  EXPECT_EQ(plan.aligned, 983'040u);
  EXPECT_EQ(plan.length, (2u << 20) + 16'960u);
}

TEST(MapperArithmetic, ViewNearTheEndOfTheFileStartsEarlierToKeepTheWindowSize) {
  // 256 KiB window over a 1,000,100-byte file: the view ends at EOF and starts at the first
  // granule from which it fits, so the whole tail shares it.
  const ViewPlan plan = plan_view(1'000'000, 10, 256 << 10, 64 << 10, 1'000'100);
  EXPECT_EQ(plan.aligned, 786'432u);
  EXPECT_EQ(plan.delta, 1'000'000u - 786'432u);
  EXPECT_EQ(plan.length, 1'000'100u - 786'432u);
  EXPECT_EQ(plan_view(800'000, 10, 256 << 10, 64 << 10, 1'000'100).aligned, 786'432u);
}

TEST(MapperArithmetic, WindowLargerThanTheFileMapsItWhole) {
  const ViewPlan plan = plan_view(1'000'000, 10, 64ull << 20, 64 << 10, 1'000'100);
  EXPECT_EQ(plan.aligned, 0u);
  EXPECT_EQ(plan.length, 1'000'100u);
}

TEST(MapperArithmetic, HugeWindowIsClampedWithoutWrapping) {
  const ViewPlan plan = plan_view(1'000'000, 10, UINT64_MAX, 64 << 10, 1'000'100);
  EXPECT_EQ(plan.aligned, 0u);
  EXPECT_EQ(plan.length, 1'000'100u);
}

TEST(MapperArithmetic, WindowOfFileSizeIsOneMapping) {
  const ViewPlan plan = plan_view(0, 1, 5000, 4096, 5000);
  EXPECT_EQ(plan.aligned, 0u);
  EXPECT_EQ(plan.length, 5000u);
}

class MappedSourceTest : public ::testing::Test {
 protected:
  std::string bytes = pattern(static_cast<std::size_t>(10 * page + 123));
  pdftest::TempFile file{bytes, "map"};
};

TEST_F(MappedSourceTest, FastPathMakesNoKernelCall) {
  MappedSource source(file.path(), 4 * page, page);
  const auto* a = source.map(10, 100);
  EXPECT_EQ(std::memcmp(a, bytes.data() + 10, 100), 0);
  const SourceCounts before = source.counts();
  EXPECT_EQ(before.map, 1u);
  for (std::uint64_t offset = 0; offset + 100 <= 4 * page; offset += 97) {
    const auto* p = source.map(offset, 100);
    ASSERT_EQ(std::memcmp(p, bytes.data() + offset, 100), 0);
  }
  EXPECT_EQ(source.counts().total_calls(), before.total_calls());
  EXPECT_EQ(source.live_views(), 1);
}

TEST_F(MappedSourceTest, SlideUnmapsBeforeMappingAndChecksTheFile) {
  MappedSource source(file.path(), 2 * page, page);
  source.map(0, 10);
  source.map(5 * page + 7, 10);
  EXPECT_EQ(source.counts().map, 2u);
  EXPECT_EQ(source.counts().unmap, 1u);
  EXPECT_EQ(source.counts().fstat, 1u + 2u);  // open + one check per remap
  EXPECT_EQ(source.view_offset(), 5 * page);
  EXPECT_EQ(source.live_views(), 1);
}

TEST_F(MappedSourceTest, StraddleGrowsTheViewAndDeliversTheBytes) {
  MappedSource source(file.path(), page, page);
  const auto* p = source.map(page - 10, 3 * page);
  EXPECT_EQ(std::memcmp(p, bytes.data() + page - 10, 3 * page), 0);
  EXPECT_EQ(source.view_offset(), 0u);
  EXPECT_EQ(source.view_size(), 4 * page - 10);
}

TEST_F(MappedSourceTest, ViewIsClampedAtEndOfFile) {
  MappedSource source(file.path(), 64 * page, page);
  const auto* p = source.map(bytes.size() - 5, 5);
  EXPECT_EQ(std::memcmp(p, bytes.data() + bytes.size() - 5, 5), 0);
  EXPECT_EQ(source.view_offset() + source.view_size(), bytes.size());
}

TEST_F(MappedSourceTest, RequestsOutsideTheFileAreRangeErrors) {
  MappedSource source(file.path(), 4 * page, page);
  for (auto [offset, size] : {std::pair<std::uint64_t, std::size_t>{bytes.size(), 1}, {bytes.size() - 1, 2}, {~0ull - 3, 8}}) {
    try {
      source.map(offset, size);
      FAIL() << "no error for " << offset << "+" << size;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::range);
      EXPECT_EQ(e.context().offset, offset);
    }
  }
  EXPECT_EQ(source.counts().map, 0u);
}

// Bytes that are only copied are not mapped: the view goes, and the kernel copies them.
TEST_F(MappedSourceTest, CopyOutDropsTheViewAndCopiesWithOnePread) {
  MappedSource source(file.path(), 4 * page, page);
  source.map(0, 10);
  std::string out(3 * page + 5, '\0');
  source.copy_out(page - 3, out.size(), out.data());
  EXPECT_EQ(out, bytes.substr(page - 3, out.size()));
  EXPECT_EQ(source.live_views(), 0);
  EXPECT_EQ(source.counts().map, 1u);
  EXPECT_EQ(source.counts().unmap, 1u);
  EXPECT_EQ(source.counts().pread, 1u);
  source.map(0, 10);
  const SourceCounts before_empty = source.counts();
  source.copy_out(7, 0, out.data());  // nothing to copy: no call, the view stays
  EXPECT_EQ(source.counts().total_calls(), before_empty.total_calls());
  EXPECT_EQ(source.live_views(), 1);
  try {
    source.copy_out(bytes.size() - 1, 2, out.data());
    FAIL() << "no error past the end";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::range);
  }
  EXPECT_EQ(source.counts().pread, 1u);
  // A file cut short under the source: an io error, not a short copy taken as the bytes.
  ASSERT_EQ(::truncate(file.path().c_str(), static_cast<off_t>(2 * page)), 0);
  try {
    source.copy_out(page, 2 * page, out.data());
    FAIL() << "no error for bytes past the new end";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::io);
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
}

TEST_F(MappedSourceTest, GranularityMustBeAPageMultiple) {
  EXPECT_THROW(MappedSource(file.path(), 4 * page, page + 1), Error);
  EXPECT_THROW(MappedSource(file.path(), 0, page), Error);
}

TEST(MappedSource, ZeroLengthFileIsARangeError) {
  pdftest::TempFile empty("", "empty");
  for (SourceKind kind : {SourceKind::mapped, SourceKind::pread, SourceKind::buffered, SourceKind::whole}) {
    SourceOptions options;
    options.kind = kind;
    try {
      open_source(empty.path(), options);
      FAIL() << to_string(kind);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::range) << to_string(kind);
    }
  }
}

TEST_F(MappedSourceTest, TruncationIsAnErrorNotASignal) {
  MappedSource source(file.path(), page, page);
  source.map(0, 10);
  ASSERT_EQ(::truncate(file.path().c_str(), static_cast<off_t>(2 * page)), 0);
  try {
    source.map(8 * page, 10);  // would lie past the new end: refused before mapping
    FAIL() << "truncation not detected";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::io);
  }
}

TEST_F(MappedSourceTest, TruncationUnderALiveViewIsAnErrorNotASignal) {
  // The view covers the whole file; another process cuts the file to two pages while it is
  // live. With the guard installed, reading a lost page gives zeros instead of SIGBUS, and the
  // source refuses to go on or to vouch for what it read.
  docconform::install_truncation_guard();
  MappedSource source(file.path(), 16 * page, page);
  const std::uint8_t* view = source.map(0, 10);
  ASSERT_EQ(::truncate(file.path().c_str(), static_cast<off_t>(2 * page)), 0);
  const volatile std::uint8_t* lost = view + 5 * page;
  EXPECT_EQ(*lost, 0);  // would have been SIGBUS
  EXPECT_EQ(view[page], static_cast<std::uint8_t>(bytes[page]));  // bytes still in the file are intact
  for (const std::uint64_t offset : {std::uint64_t{1}, 6 * page}) {  // fast path and remap alike
    try {
      source.map(offset, 10);
      FAIL() << "truncation not reported at " << offset;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::io);
      EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(source.verify_unchanged(), Error);
}

TEST(ReadSources, TruncationIsAnIoError) {
  const std::string bytes = pattern(100000);
  for (SourceKind kind : {SourceKind::pread, SourceKind::buffered}) {
    pdftest::TempFile file(bytes, "trunc");
    SourceOptions options;
    options.kind = kind;
    options.buffer = 4096;
    auto source = open_source(file.path(), options);
    ASSERT_EQ(::truncate(file.path().c_str(), 50000), 0);
    try {
      source->map(90000, 10);
      FAIL() << to_string(kind);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::io) << to_string(kind);
    }
  }
}

// Every source, the whole file read at once included, notices at the end of a read that the file
// changed size meanwhile: what was read from it is then not reported.
TEST(ReadSources, EverySourceNoticesASizeChangeAtTheEnd) {
  const std::string bytes = pattern(100000);
  for (SourceKind kind : {SourceKind::mapped, SourceKind::pread, SourceKind::buffered, SourceKind::whole}) {
    for (const std::uint64_t new_size : {std::uint64_t{50000}, std::uint64_t{150000}}) {
      pdftest::TempFile file(bytes, "size_change");
      SourceOptions options;
      options.kind = kind;
      auto source = open_source(file.path(), options);
      EXPECT_EQ(std::memcmp(source->map(0, 100), bytes.data(), 100), 0);
      EXPECT_NO_THROW(source->verify_unchanged()) << to_string(kind);
      ASSERT_EQ(::truncate(file.path().c_str(), static_cast<off_t>(new_size)), 0);
      try {
        source->verify_unchanged();
        ADD_FAILURE() << to_string(kind) << " " << new_size;
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::io) << to_string(kind);
      }
    }
  }
}

// A directory, a pipe or a terminal cannot be read at any offset: every source says so when it
// opens it, naming it, and a FIFO without a writer does not make the open wait.
TEST(ReadSources, WhatIsNotAFileIsAnIoErrorNamingIt) {
  const docconform::test::NotFiles not_files;
  for (const auto& input : not_files.inputs()) {
    for (SourceKind source : {SourceKind::mapped, SourceKind::pread, SourceKind::buffered, SourceKind::whole}) {
      SourceOptions options;
      options.kind = source;
      docconform::test::expect_io_error_naming(input, [&](const std::string& path) { open_source(path, options); });
    }
  }
}

TEST(ReadSources, PreadReadsAtLeastFourKiBPerFetchAndKeepsNothing) {
  const std::string bytes = pattern(100000);
  pdftest::TempFile file(bytes, "pread");
  auto source = open_source(file.path(), SourceOptions{SourceKind::pread});
  EXPECT_EQ(std::memcmp(source->map(100, 10), bytes.data() + 100, 10), 0);
  EXPECT_EQ(std::memcmp(source->map(100, 10), bytes.data() + 100, 10), 0);
  EXPECT_EQ(source->counts().pread, 2u);
  EXPECT_EQ(source->counts().bytes_copied, 2u * 4096u);
  EXPECT_EQ(std::memcmp(source->map(99990, 10), bytes.data() + 99990, 10), 0);  // clamped at EOF
  EXPECT_EQ(source->counts().bytes_copied, 2u * 4096u + 10u);
}

TEST(ReadSources, BufferedServesNeighboursFromOneRead) {
  const std::string bytes = pattern(100000);
  pdftest::TempFile file(bytes, "buf");
  SourceOptions options;
  options.kind = SourceKind::buffered;
  options.buffer = 16384;
  auto source = open_source(file.path(), options);
  for (std::uint64_t offset = 1000; offset < 1000 + 16000; offset += 500) {
    ASSERT_EQ(std::memcmp(source->map(offset, 300), bytes.data() + offset, 300), 0);
  }
  EXPECT_EQ(source->counts().pread, 1u);
  std::string copy(40000, '\0');
  source->read(50000, copy.size(), copy.data());  // larger than the buffer: one bigger read
  EXPECT_EQ(copy, bytes.substr(50000, 40000));
  EXPECT_EQ(source->counts().pread, 2u);
}

TEST(ReadSources, WholeMakesNoCallsAfterOpening) {
  const std::string bytes = pattern(100000);
  pdftest::TempFile file(bytes, "whole");
  auto source = open_source(file.path(), SourceOptions{SourceKind::whole});
  const auto opened = source->counts().total_calls();
  EXPECT_EQ(std::memcmp(source->map(77777, 2000), bytes.data() + 77777, 2000), 0);
  EXPECT_EQ(source->counts().total_calls(), opened);
}

}  // namespace
