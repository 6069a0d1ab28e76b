// The oracle: the shape of the original POI serializer. Every byte and every UTF-16 code unit
// goes through a virtual call, and the continuation rules are applied one character at a time,
// so the code reads like the rules themselves.
#include <cstdint>

#include "docconform/sst/writer.h"

namespace docconform::sst {
namespace {

class LittleEndianOutput {
 public:
  virtual ~LittleEndianOutput() = default;
  virtual void write_byte(unsigned value) = 0;
  virtual void write_short(unsigned value) = 0;
  virtual void write_int(std::uint32_t value) = 0;
};

// One record of yet unknown length on the sink; counts what it forwards.
class UnknownLengthRecordOutput : public LittleEndianOutput {
 public:
  explicit UnknownLengthRecordOutput(RecordSink& sink) : sink_(sink) {}

  void begin(std::uint16_t type) {
    sink_.begin_record(type);
    size_ = 0;
  }
  void terminate() { sink_.end_record(); }
  std::size_t size() const { return size_; }
  std::size_t available() const { return max_record_data - size_; }

  void write_byte(unsigned value) override {
    sink_.put_byte(static_cast<std::uint8_t>(value));
    ++size_;
  }
  void write_short(unsigned value) override {
    write_byte(value & 0xFF);
    write_byte((value >> 8) & 0xFF);
  }
  void write_int(std::uint32_t value) override {
    write_short(value & 0xFFFF);
    write_short(value >> 16);
  }

 private:
  RecordSink& sink_;
  std::size_t size_ = 0;
};

// A record that continues in CONTINUE records; tracks the stream position for EXTSST.
class ContinuableRecordOutput {
 public:
  ContinuableRecordOutput(RecordSink& sink, std::uint16_t type) : record_(sink) {
    record_.begin(type);
    out_ = &record_;
  }

  LittleEndianOutput& out() { return *out_; }
  std::size_t available() const { return record_.available(); }
  // Bytes from the SST header to the next byte written, and to the current record's header.
  std::uint64_t position() const { return closed_ + 4 + record_.size(); }
  std::uint64_t record_header_position() const { return closed_; }

  void write_continue() {
    record_.terminate();
    closed_ += 4 + record_.size();
    record_.begin(record_continue);
  }
  void write_continue_if_required(std::size_t bytes) {
    if (available() < bytes) write_continue();
  }
  std::uint64_t terminate() {
    record_.terminate();
    return closed_ + 4 + record_.size();
  }

 private:
  UnknownLengthRecordOutput record_;
  LittleEndianOutput* out_;  // the virtual interface every byte goes through
  std::uint64_t closed_ = 0;
};

bool needs_high_byte(std::u16string_view text) {
  for (const char16_t unit : text) {
    if (unit > 0xFF) return true;
  }
  return false;
}

void write_string(ContinuableRecordOutput& record, const SstStringView& s) {
  const bool wide = needs_high_byte(s.text);
  LittleEndianOutput& out = record.out();
  out.write_short(static_cast<unsigned>(s.text.size()));
  out.write_byte((wide ? flag_high_byte : 0u) | (s.ext_rst ? flag_ext_st : 0u) | (s.runs ? flag_rich_st : 0u));
  if (s.runs) out.write_short(static_cast<unsigned>(s.runs->size()));
  if (s.ext_rst) out.write_int(static_cast<std::uint32_t>(s.ext_rst->size()));

  const std::size_t unit = wide ? 2 : 1;
  for (const char16_t c : s.text) {
    if (record.available() < unit) {
      record.write_continue();
      out.write_byte(wide ? 1 : 0);
    }
    if (wide) {
      out.write_short(c);
    } else {
      out.write_byte(c);
    }
  }
  if (s.runs) {
    for (const FormatRun& run : *s.runs) {
      record.write_continue_if_required(4);
      out.write_short(run.ich);
      out.write_short(run.ifnt);
    }
  }
  if (s.ext_rst) {
    const std::string_view ext = *s.ext_rst;
    std::size_t at = 0;
    for (const ExtRstSegment& segment : ext_rst_segments(ext)) {
      record.write_continue_if_required(segment.keep);
      for (std::size_t done = 0; done < segment.size; done += segment.unit) {
        const std::size_t piece = std::min(segment.unit, segment.size - done);
        record.write_continue_if_required(piece);
        for (std::size_t k = 0; k < piece; ++k) out.write_byte(static_cast<std::uint8_t>(ext[at++]));
      }
    }
  }
}

}  // namespace

WriteResult write_sst_naive(const SstTable& table, RecordSink& sink, std::uint32_t stream_offset) {
  WriteResult result;
  const std::size_t count = table.size();
  result.extsst.dsst = extsst_bucket_size(count);

  sink.expect(expected_sst_bytes(table));
  ContinuableRecordOutput record(sink, record_sst);
  record.out().write_int(table.total_refs());
  record.out().write_int(static_cast<std::uint32_t>(count));
  for (std::size_t i = 0; i < count; ++i) {
    const SstStringView s = table[i];
    const std::size_t header = 3 + (s.runs ? 2 : 0) + (s.ext_rst ? 4 : 0);
    // The header stays with the first character's bytes (one byte even for an empty string).
    record.write_continue_if_required(header + (needs_high_byte(s.text) ? 2 : 1));
    if (i % result.extsst.dsst == 0) {
      const std::uint64_t at = record.position();
      result.extsst.buckets.push_back({static_cast<std::uint32_t>(stream_offset + at),
                                       static_cast<std::uint16_t>(at - record.record_header_position())});
    }
    write_string(record, s);
  }
  result.bytes = record.terminate();

  UnknownLengthRecordOutput extsst(sink);
  extsst.begin(record_extsst);
  LittleEndianOutput& out = extsst;
  out.write_short(result.extsst.dsst);
  for (const ExtSstEntry& bucket : result.extsst.buckets) {
    out.write_int(bucket.ib);
    out.write_short(bucket.cb_offset);
    out.write_short(0);
  }
  extsst.terminate();
  result.bytes += 4 + extsst.size();
  return result;
}

}  // namespace docconform::sst
