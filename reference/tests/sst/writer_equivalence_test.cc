// The fast writer against the naive oracle, every sink against memory, reader(writer(x)) == x.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "docconform/error.h"
#include "docconform/sha256.h"
#include "docconform/sst/generate.h"
#include "sst/output_buffer.h"
#include "sst_test_util.h"

namespace docconform::sst {
namespace {

using testing::table_of;
using testing::text;

// Strings whose sizes sweep every residue near record ends: random lengths, widths, runs, ExtRst.
SstTable boundary_sweep(std::uint64_t seed, std::size_t count) {
  std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
  const auto next = [&state](std::uint32_t bound) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<std::uint32_t>(state % bound);
  };
  std::vector<SstString> strings;
  for (std::size_t i = 0; i < count; ++i) {
    SstString s;
    const std::uint32_t kind = next(8);
    const std::size_t length = next(16) == 0 ? next(12000) : next(40);
    for (std::size_t k = 0; k < length; ++k) {
      const char16_t unit = kind < 4 ? static_cast<char16_t>(next(256)) : kind < 6 ? static_cast<char16_t>(next(65536)) : static_cast<char16_t>(0xD800 + next(0x800));
      s.text += unit;
    }
    if (next(5) == 0) {
      s.runs.emplace();
      for (std::uint32_t r = next(6); r > 0; --r) s.runs->push_back({static_cast<std::uint16_t>(next(65536)), static_cast<std::uint16_t>(next(8))});
    }
    if (next(7) == 0) {
      s.ext_rst = std::string(next(9) == 0 ? next(30000) : next(40), '\0');
      for (char& c : *s.ext_rst) c = static_cast<char>(next(256));
    }
    strings.push_back(std::move(s));
  }
  SstTable table = table_of(strings);
  table.set_total_refs(count + seed);
  return table;
}

TEST(WriterEquivalence, FastEqualsNaiveOnBoundarySweeps) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const SstTable table = boundary_sweep(seed, 50 + seed * 13);
    const std::string fast = sst_bytes(table, WriterKind::fast);
    ASSERT_EQ(sha256_hex(fast), sha256_hex(sst_bytes(table, WriterKind::naive))) << "seed " << seed;
    ASSERT_EQ(read_sst_file(fast).table, table) << "seed " << seed;
  }
}

TEST(WriterEquivalence, FastEqualsNaiveOnEveryMix) {
  for (const Mix mix : {Mix::ascii, Mix::latin1, Mix::cjk, Mix::emoji, Mix::rich, Mix::mixed}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const SstTable table = generate_strings(5000, mix, seed);
      const std::string fast = sst_bytes(table, WriterKind::fast);
      ASSERT_EQ(sha256_hex(fast), sha256_hex(sst_bytes(table, WriterKind::naive)));
      ASSERT_EQ(read_sst_file(fast).table, table);
    }
  }
}

TEST(WriterEquivalence, LargeSetFastEqualsNaive) {
  const SstTable table = generate_strings(1u << 17, Mix::mixed, 7);
  const std::string fast = sst_bytes(table, WriterKind::fast);
  EXPECT_EQ(sha256_hex(fast), sha256_hex(sst_bytes(table, WriterKind::naive)));
  const SstFile file = read_sst_file(fast);
  EXPECT_EQ(file.table, table);
  ASSERT_TRUE(file.extsst.has_value());
  EXPECT_TRUE(check_extsst(*file.extsst, file.string_starts).empty());
}

TEST(WriterEquivalence, ExtSstFollowsTheSpecFormula) {
  for (const std::size_t count : {0u, 1u, 7u, 8u, 9u, 1023u, 1024u, 1025u, 5000u}) {
    const SstTable table = generate_strings(count, Mix::mixed, count);
    const SstFile file = read_sst_file(sst_bytes(table, WriterKind::naive));
    ASSERT_TRUE(file.extsst.has_value());
    EXPECT_EQ(file.extsst->dsst, std::max<std::size_t>(count / 128 + 1, 8));
    EXPECT_EQ(file.extsst->buckets.size(), (count + file.extsst->dsst - 1) / file.extsst->dsst);
    EXPECT_TRUE(check_extsst(*file.extsst, file.string_starts).empty()) << count;
  }
}

TEST(WriterEquivalence, ExtSstPositionsAreAbsoluteInTheStream) {
  const SstTable table = generate_strings(3000, Mix::cjk, 3);
  auto sink = make_memory_sink();
  const std::uint8_t before[5] = {1, 2, 3, 4, 5};
  std::memcpy(sink->claim(5), before, 5);
  const WriteResult result = write_sst_fast(table, *sink, 5);
  const std::string bytes(sink->bytes());
  for (std::size_t k = 0; k < result.extsst.buckets.size(); ++k) {
    const ExtSstEntry& e = result.extsst.buckets[k];
    const std::u16string_view first = table[k * result.extsst.dsst].text;
    // ib lands on the string's cch; ib - cbOffset on a record header.
    EXPECT_EQ(static_cast<std::uint8_t>(bytes[e.ib]) | (static_cast<std::uint8_t>(bytes[e.ib + 1]) << 8), first.size());
    const std::uint16_t type = static_cast<std::uint8_t>(bytes[e.ib - e.cb_offset]);
    EXPECT_TRUE(type == 0xFC || type == 0x3C);
  }
}

// Both writers into every file sink: each file holds the fast memory output.
void expect_every_file_sink_writes_the_same_bytes(const SstTable& table, const std::string& name) {
  const std::string expected = sst_bytes(table, WriterKind::fast);
  const auto dir = std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const WriterKind writer : {WriterKind::naive, WriterKind::fast}) {
    for (const SinkKind kind : {SinkKind::file, SinkKind::stream, SinkKind::zlib, SinkKind::lz4}) {
      const std::string path = (dir / to_string(kind)).string();
      auto sink = make_file_sink(kind, path);
      const WriteResult result = write_sst(writer, table, *sink);
      EXPECT_EQ(sink->position(), expected.size());
      sink->finish();
      EXPECT_EQ(result.bytes, expected.size());
      EXPECT_EQ(read_sink_file(kind, path), expected) << to_string(writer) << " " << to_string(kind);
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(WriterEquivalence, EverySinkWritesTheSameBytes) {
  expect_every_file_sink_writes_the_same_bytes(boundary_sweep(99, 400), "sst_sinks");
}

TEST(WriterEquivalence, FileSinksHandSeveralBuffersToTheirThread) {
  // More than the ring holds: the writer refills buffers the sink's thread has written.
  const SstTable table = generate_strings(520000, Mix::mixed, 3);
  ASSERT_GT(sst_bytes(table).size(), (file_sink_buffers + 2) * file_sink_buffer_bytes);
  expect_every_file_sink_writes_the_same_bytes(table, "sst_buffers");
}

TEST(WriterEquivalence, MemorySinkStopsItsPageThreadBeforeTheMappingMoves) {
  // Expecting 5 MiB starts the page-faulting thread; writing 12 MiB grows (and may move) the
  // mapping while it runs. The bytes are what was written, and the thread leaves them alone.
  const auto memory = make_memory_sink();
  MemorySink& sink = *memory;
  sink.expect(5u << 20);
  std::string expected;
  for (std::size_t record = 0; expected.size() < (12u << 20); ++record) {
    std::uint8_t* p = sink.claim(4 + max_record_data);
    for (std::size_t i = 0; i < 4 + max_record_data; ++i) p[i] = static_cast<std::uint8_t>(record * 31 + i);
    expected.append(reinterpret_cast<const char*>(p), 4 + max_record_data);
  }
  sink.finish();
  EXPECT_EQ(sink.bytes(), expected);
}

TEST(WriterEquivalence, RandomAccessFileBackPatchesHeadersHandedToItsThread) {
  // A record longer than nothing else in the buffer: more than a buffer of unknown-length
  // records forces headers out of the buffer before their lengths are known.
  const SstTable table = generate_strings(240000, Mix::cjk, 5);
  const std::string expected = sst_bytes(table, WriterKind::fast);
  ASSERT_GT(expected.size(), 2 * file_sink_buffer_bytes);
  const std::string path = (std::filesystem::temp_directory_path() / ("sst_patch_" + std::to_string(::getpid()))).string();
  auto sink = make_file_sink(SinkKind::file, path);
  write_sst_naive(table, *sink);
  sink->finish();
  EXPECT_EQ(read_sink_file(SinkKind::file, path), expected);
  std::filesystem::remove(path);
}

// Unknown-length records (the naive writer's way) whose header starts at `header_at`: filler
// records up to there, then one record of 300 data bytes (both bytes of its length non-zero).
void records_with_header_at(RecordSink& sink, std::uint64_t header_at) {
  auto record = [&](std::size_t data) {
    sink.begin_record(record_continue);
    for (std::size_t i = 0; i < data; ++i) sink.put_byte(static_cast<std::uint8_t>(i * 7));
    sink.end_record();
  };
  while (header_at - sink.position() >= 2 * (4 + 8224)) record(8224);
  const std::uint64_t left = header_at - sink.position();
  record(static_cast<std::size_t>(left / 2 - 4));
  record(static_cast<std::size_t>(left - left / 2 - 4));
  ASSERT_EQ(sink.position(), header_at);
  record(300);
}

TEST(WriterEquivalence, RandomAccessFileBackPatchesHeadersStraddlingAThreadHandOff) {
  // A header starting 1, 2 or 3 bytes before the buffer's end is split by the flush, its length
  // field wholly or partly in the file.
  const auto dir = std::filesystem::temp_directory_path() / ("sst_straddle_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const std::uint64_t boundary : {file_sink_buffer_bytes, 2 * file_sink_buffer_bytes}) {
    for (std::uint64_t before = 0; before <= 5; ++before) {
      const std::uint64_t header_at = boundary - before;
      const auto memory_sink = make_memory_sink();
      MemorySink& memory = *memory_sink;
      records_with_header_at(memory, header_at);
      const std::string path = (dir / std::to_string(header_at)).string();
      auto file = make_file_sink(SinkKind::file, path);
      records_with_header_at(*file, header_at);
      file->finish();
      EXPECT_EQ(read_sink_file(SinkKind::file, path), std::string(memory.bytes())) << "header at " << header_at;
    }
  }
  std::filesystem::remove_all(dir);
}

std::uint64_t allocated_bytes(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) ADD_FAILURE() << "cannot stat " << path;
  return static_cast<std::uint64_t>(st.st_blocks) * 512;
}

// Whether files under dir can have blocks allocated past their end.
bool allocates_ahead(const std::filesystem::path& dir) {
  const std::string probe = (dir / "probe").string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const bool ok = fd >= 0 && ::fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 1 << 20) == 0;
  if (fd >= 0) ::close(fd);
  std::filesystem::remove(probe);
  return ok;
}

TEST(WriterEquivalence, FileSinksAllocateWhatTheyExpectAndGiveBackTheRest) {
  // Told to expect 8 MiB, the file holds that room while the writer runs; finished after one
  // short record, it keeps only what it holds.
  const auto dir = std::filesystem::temp_directory_path() / ("sst_reserve_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  if (!allocates_ahead(dir)) {
    std::filesystem::remove_all(dir);
    GTEST_SKIP() << "the filesystem under " << dir << " does not allocate ahead";
  }
  for (const SinkKind kind : {SinkKind::file, SinkKind::stream}) {
    const std::string path = (dir / to_string(kind)).string();
    auto sink = make_file_sink(kind, path);
    sink->expect(8u << 20);
    // Until finish() the bytes go to the sink's temporary file beside path, unnamed until then:
    // the descriptor of this process open on a file of dir.
    std::string temporary;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
      std::error_code ec;
      const auto target = std::filesystem::read_symlink(entry.path(), ec);
      if (!ec && target.string().starts_with(dir.string() + "/")) temporary = entry.path().string();
    }
    ASSERT_FALSE(temporary.empty()) << to_string(kind);
    EXPECT_GE(allocated_bytes(temporary), 8u << 20) << to_string(kind);
    std::uint8_t* record = sink->claim(4 + 300);
    std::memset(record, 0x2A, 4 + 300);
    sink->finish();
    EXPECT_EQ(std::filesystem::file_size(path), 304u) << to_string(kind);
    EXPECT_LE(allocated_bytes(path), 64u << 10) << to_string(kind);
  }
  std::filesystem::remove_all(dir);
}

TEST(WriterEquivalence, WriteErrorsOnTheOutputThreadReachTheWriter) {
  // The file sinks write on a second thread; a full disk must still fail the write, naming the
  // file: at a later buffer's hand-off once the ring has gone round, else at finish().
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this machine";
  const SstTable small = generate_strings(2000, Mix::cjk, 5);
  const SstTable large = generate_strings(360000, Mix::cjk, 5);
  ASSERT_LT(sst_bytes(small).size(), file_sink_buffer_bytes);
  ASSERT_GT(sst_bytes(large).size(), (file_sink_buffers + 2) * file_sink_buffer_bytes);
  auto expect_full_disk = [](const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::io) << e.what();
    EXPECT_EQ(e.context().file, "/dev/full") << e.what();
  };
  for (const SinkKind kind : {SinkKind::file, SinkKind::stream, SinkKind::zlib, SinkKind::lz4}) {
    try {
      auto sink = make_file_sink(kind, "/dev/full");
      write_sst_fast(large, *sink);
      ADD_FAILURE() << to_string(kind) << ": the writer went past the failed writes";
    } catch (const Error& e) {
      expect_full_disk(e);
    }
    try {
      auto sink = make_file_sink(kind, "/dev/full");
      write_sst_fast(small, *sink);
      sink->finish();
      ADD_FAILURE() << to_string(kind) << ": no error";
    } catch (const Error& e) {
      expect_full_disk(e);
    }
  }
}

TEST(WriterEquivalence, TruncatedCompressedSinkFilesAreFormatErrors) {
  const SstTable table = boundary_sweep(7, 50);
  const auto dir = std::filesystem::temp_directory_path() / ("sst_truncated_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const SinkKind kind : {SinkKind::zlib, SinkKind::lz4}) {
    const std::string path = (dir / to_string(kind)).string();
    auto sink = make_file_sink(kind, path);
    write_sst_fast(table, *sink);
    sink->finish();
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 3);
    try {
      read_sink_file(kind, path);
      ADD_FAILURE() << to_string(kind);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::format) << e.what();
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(WriterEquivalence, SinkErrorsNameTheFile) {
  try {
    make_file_sink(SinkKind::stream, "/nonexistent-dir/x.sst");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::io);
    EXPECT_EQ(e.context().file, "/nonexistent-dir/x.sst");
  }
  EXPECT_THROW(parse_sink_kind("tape"), Error);
  EXPECT_THROW(parse_writer_kind("quick"), Error);
}

}  // namespace
}  // namespace docconform::sst
