// Where serialized records go. Two ways to write a record:
//  * unknown length (the naive writer, like POI's UnknownLengthRecordOutput): begin_record, then
//    one virtual put_byte per byte, then end_record; each sink resolves the length its own way
//    (memory patches in place, the random-access file back-patches with pwrite, the sequential
//    sinks hold the record until its length is known);
//  * bulk (the fast writer): claim() returns space for a whole record, header included, which
//    the caller fills before the next call; retract() gives back the unused end of that space
//    (a record's final length is known before the sink emits any of it).
// Every sink produces the same logical bytes. The slow part of each sink's output runs on a
// second thread beside the writer: the file sinks write out (or compress) one full buffer while
// the writer fills the other; the memory sink faults in the pages of output it was told to
// expect.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "docconform/sst/model.h"

namespace docconform::sst {

class RecordSink {
 public:
  virtual ~RecordSink() = default;

  virtual void begin_record(std::uint16_t type) = 0;
  virtual void put_byte(std::uint8_t value) = 0;
  virtual void end_record() = 0;

  // Space for `bytes` output bytes (at most max_claim_bytes), valid until the next call on the
  // sink.
  virtual std::uint8_t* claim(std::size_t bytes) = 0;
  // Returns the last `bytes` of the most recent claim, unused.
  virtual void retract(std::size_t bytes) = 0;

  // A hint before writing: about `bytes` bytes will follow. The memory sink maps them at once
  // and has another thread fault their pages in ahead of the writer; the uncompressed file
  // sinks allocate the file's blocks for them (and give back what was not written).
  virtual void expect(std::uint64_t bytes) { (void)bytes; }

  // Flushes and closes; no calls afterwards.
  virtual void finish() = 0;
  // Logical bytes written so far.
  virtual std::uint64_t position() const = 0;
};

// A claim holds a whole record (its header and max_record_data) plus slack: a writer may store
// whole vectors past the end of what it keeps, then retract the unused rest.
inline constexpr std::size_t claim_slack_bytes = 64;
inline constexpr std::size_t max_claim_bytes = 4 + max_record_data + claim_slack_bytes;

enum class SinkKind { memory, file, stream, zlib, lz4 };

// The file sinks write through a ring of file_sink_buffers buffers of file_sink_buffer_bytes:
// the writer fills one while a second thread writes out those handed off (a record header may
// straddle a hand-off). Measured on this project's 2-core virtual machine, side by side: two
// buffers of 4 MiB left the file sink 1.0-1.6x the memory sink, sixteen of 1 MiB 0.87-1.09x
// (docs/benchmarks.md, SST, "a deeper ring").
inline constexpr std::size_t file_sink_buffer_bytes = 1u << 20;
inline constexpr std::size_t file_sink_buffers = 16;
const char* to_string(SinkKind kind);
SinkKind parse_sink_kind(std::string_view name);  // throws Error(usage)

// Memory: the bytes stay in the sink (bytes() after finish()).
class MemorySink;
std::unique_ptr<MemorySink> make_memory_sink();

// file: random-access file written with pwrite, record lengths back-patched;
// stream: sequential writes only, a record is written once its length is known;
// zlib: the sequential byte stream deflated (zlib format, level 1) into the file;
// lz4: the same stream in the LZ4 frame format (liblz4), for when CPU matters more than size.
// The file is written as docconform/output_file.h says: finish() puts it in place complete; a
// sink destroyed before, or failing, leaves `path` as it was.
std::unique_ptr<RecordSink> make_file_sink(SinkKind kind, const std::string& path);

// The logical bytes in a file a sink of this kind wrote (decompressed for zlib and lz4).
// Throws Error(io) when it cannot be read and Error(format) when the compressed data is broken.
std::string read_sink_file(SinkKind kind, const std::string& path);

class MemorySink final : public RecordSink {
 public:
  MemorySink();
  ~MemorySink() override;
  MemorySink(const MemorySink&) = delete;
  MemorySink& operator=(const MemorySink&) = delete;

  void begin_record(std::uint16_t type) override;
  void put_byte(std::uint8_t value) override;
  void end_record() override;
  std::uint8_t* claim(std::size_t bytes) override;
  void retract(std::size_t bytes) override { size_ -= bytes; }
  void expect(std::uint64_t bytes) override;
  void finish() override { stop_prefault(); }
  std::uint64_t position() const override { return size_; }

  std::string_view bytes() const { return {reinterpret_cast<const char*>(data_), size_}; }

 private:
  void grow(std::size_t needed);
  void stop_prefault();

  // Anonymous memory grown with mremap: no copy when it grows, and 2 MiB pages where the
  // kernel allows, so tens of MB of output cost tens of page faults instead of thousands.
  // The kernel zeroes each new page as it is first written: for expected output, a second
  // thread takes that work off the writer (MADV_POPULATE_WRITE leaves contents unchanged, so
  // it may run behind or ahead of the writer). The mapping never moves while it runs.
  std::thread prefault_;
  std::atomic<bool> stop_{false};
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::size_t record_start_ = 0;
};

}  // namespace docconform::sst
