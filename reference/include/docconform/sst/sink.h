// Where serialized records go. Two ways to write a record:
//  * unknown length (the naive writer, like POI's UnknownLengthRecordOutput): begin_record, then
//    one virtual put_byte per byte, then end_record; each sink resolves the length its own way
//    (memory patches in place, the random-access file back-patches with pwrite, the sequential
//    sinks hold the record until its length is known);
//  * bulk (the fast writer): claim() returns space for a whole record, header included, which
//    the caller fills before the next call; retract() gives back the unused end of that space
//    (a record's final length is known before the sink emits any of it).
// Every sink produces the same logical bytes. The slow part of each sink's output (page faults,
// the kernel's copy, compression) runs on a second thread beside the writer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

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

  // A hint before writing: about `bytes` bytes will follow (a sink may prepare room for them).
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

const char* to_string(SinkKind kind);
SinkKind parse_sink_kind(std::string_view name);  // throws Error(usage)

// Memory: the bytes stay in the sink.
class MemorySink : public RecordSink {
 public:
  // The bytes written; after finish(), valid until the sink is destroyed.
  virtual std::string_view bytes() const = 0;
};
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

}  // namespace docconform::sst
