// The fast writer: pass 1 walks the strings and records where every record ends (and each
// string's character width and the EXTSST positions); pass 2 claims each record whole from the
// sink, with its length known, and fills it with bulk copies: memcpy for UTF-16LE, one
// narrowing loop for compressed characters.
#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "docconform/error.h"
#include "docconform/sst/writer.h"

namespace docconform::sst {
namespace {

void store_u16(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
}
void store_u32(std::uint8_t* p, std::uint32_t v) {
  store_u16(p, v & 0xFFFF);
  store_u16(p + 2, v >> 16);
}

bool needs_high_byte(const std::u16string& text) {
  unsigned bits = 0;  // OR of all units: any unit above 0xFF leaves a bit in 0xFF00
  for (const char16_t unit : text) bits |= unit;
  return (bits & 0xFF00) != 0;
}

void copy_chars(std::uint8_t* out, const char16_t* chars, std::size_t n, bool wide) {
  if (wide) {
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(out, chars, 2 * n);
    } else {
      for (std::size_t i = 0; i < n; ++i) store_u16(out + 2 * i, chars[i]);
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(chars[i]);
  }
}

// Pass 1 output: what pass 2 needs to write each record in one piece.
struct Layout {
  std::vector<std::uint16_t> record_sizes;  // data bytes of SST, then each CONTINUE
  std::vector<std::uint8_t> wide;           // per string: 1 when written as UTF-16LE
  ExtSst extsst;
  std::uint64_t sst_bytes = 0;              // SST and CONTINUE records, headers included
};

// The continuation rules, once, for both passes. Out either counts (pass 1) or writes (pass 2).
template <class Out>
class Walker {
 public:
  Walker(Out& out, std::uint16_t first_type) : out_(out) { out_.start_record(first_type); }

  std::size_t available() const { return available_; }
  std::uint64_t position() const { return record_at_ + 4 + (max_record_data - available_); }
  std::uint64_t record_header_position() const { return record_at_; }

  void next_record() {
    record_at_ = position();
    available_ = max_record_data;
    out_.start_record(record_continue);
  }
  void ensure(std::size_t bytes) {
    if (available_ < bytes) next_record();
  }
  std::uint8_t* take(std::size_t bytes) {
    available_ -= bytes;
    return out_.take(bytes);
  }

  void string(const SstString& s, bool wide) {
    const std::size_t header = 3 + (s.runs ? 2 : 0) + (s.ext_rst ? 4 : 0);
    if (std::uint8_t* p = take(header); p != nullptr) {
      store_u16(p, static_cast<std::uint32_t>(s.text.size()));
      p[2] = static_cast<std::uint8_t>((wide ? flag_high_byte : 0) | (s.ext_rst ? flag_ext_st : 0) |
                                       (s.runs ? flag_rich_st : 0));
      std::size_t at = 3;
      if (s.runs) {
        store_u16(p + at, static_cast<std::uint32_t>(s.runs->size()));
        at += 2;
      }
      if (s.ext_rst) store_u32(p + at, static_cast<std::uint32_t>(s.ext_rst->size()));
    }
    const std::size_t unit = wide ? 2 : 1;
    const char16_t* chars = s.text.data();
    std::size_t remaining = s.text.size();
    while (true) {
      const std::size_t n = std::min(remaining, available_ / unit);
      if (std::uint8_t* p = take(n * unit); p != nullptr) copy_chars(p, chars, n, wide);
      chars += n;
      remaining -= n;
      if (remaining == 0) break;
      next_record();
      if (std::uint8_t* p = take(1); p != nullptr) *p = wide ? 1 : 0;
    }
    if (s.runs) {
      for (const FormatRun& run : *s.runs) {
        ensure(4);
        if (std::uint8_t* p = take(4); p != nullptr) {
          store_u16(p, run.ich);
          store_u16(p + 2, run.ifnt);
        }
      }
    }
    if (s.ext_rst) ext_rst(*s.ext_rst);
  }

 private:
  void ext_rst(const std::string& ext) {
    std::size_t at = 0;
    if (ext.size() >= 14 && available_ >= 14) {
      at = 14;  // both headers fit: one copy
      if (std::uint8_t* p = take(14); p != nullptr) std::memcpy(p, ext.data(), 14);
    }
    while (at < ext.size()) {
      const std::size_t atom = std::min<std::size_t>(at == 0 ? 8 : at == 8 ? 6 : 2, ext.size() - at);
      ensure(atom);
      // After the headers, as many whole 16-bit fields as fit in one copy.
      std::size_t n = atom;
      if (at >= 14) n = std::min(ext.size() - at, available_ & ~std::size_t{1});
      if (n == 0) n = atom;
      if (std::uint8_t* p = take(n); p != nullptr) std::memcpy(p, ext.data() + at, n);
      at += n;
    }
  }

  Out& out_;
  std::size_t available_ = max_record_data;
  std::uint64_t record_at_ = 0;
};

// Pass 1: counts bytes per record.
struct CountingOut {
  std::vector<std::uint16_t>* sizes;
  void start_record(std::uint16_t) { sizes->push_back(0); }
  std::uint8_t* take(std::size_t bytes) {
    sizes->back() = static_cast<std::uint16_t>(sizes->back() + bytes);
    return nullptr;
  }
};

// Pass 2: claims each record whole from the sink and hands out consecutive pieces of it.
struct WritingOut {
  RecordSink* sink;
  const std::vector<std::uint16_t>* sizes;
  std::size_t next = 0;
  std::uint8_t* cursor = nullptr;

  void start_record(std::uint16_t type) {
    const std::uint16_t size = (*sizes)[next++];
    cursor = sink->claim(4 + std::size_t{size});
    store_u16(cursor, type);
    store_u16(cursor + 2, size);
    cursor += 4;
  }
  std::uint8_t* take(std::size_t bytes) {
    std::uint8_t* p = cursor;
    cursor += bytes;
    return p;
  }
};

Layout lay_out(const SstTable& table, std::uint32_t stream_offset) {
  Layout layout;
  const std::size_t count = table.strings.size();
  layout.wide.resize(count);
  layout.extsst.dsst = extsst_bucket_size(count);
  layout.extsst.buckets.reserve(extsst_bucket_count(count));
  layout.record_sizes.reserve(64);

  CountingOut counter{&layout.record_sizes};
  Walker walker(counter, record_sst);
  walker.take(8);
  std::size_t bucket_left = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const SstString& s = table.strings[i];
    const bool wide = needs_high_byte(s.text);
    layout.wide[i] = wide;
    const std::size_t header = 3 + (s.runs ? 2 : 0) + (s.ext_rst ? 4 : 0);
    walker.ensure(header + (s.text.empty() ? 0 : wide ? 2 : 1));
    if (bucket_left == 0) {
      const std::uint64_t at = walker.position();
      layout.extsst.buckets.push_back({static_cast<std::uint32_t>(stream_offset + at),
                                       static_cast<std::uint16_t>(at - walker.record_header_position())});
      bucket_left = layout.extsst.dsst;
    }
    --bucket_left;
    walker.string(s, wide);
  }
  layout.sst_bytes = walker.position();
  return layout;
}

}  // namespace

WriteResult write_sst_fast(const SstTable& table, RecordSink& sink, std::uint32_t stream_offset, const Limits& limits) {
  validate_for_write(table, limits);
  const Layout layout = lay_out(table, stream_offset);
  const std::size_t extsst_data = 2 + 8 * layout.extsst.buckets.size();
  sink.expect(layout.sst_bytes + 4 + extsst_data);

  WritingOut writer{&sink, &layout.record_sizes};
  Walker walker(writer, record_sst);
  std::uint8_t* counts = walker.take(8);
  store_u32(counts, table.total_refs);
  store_u32(counts + 4, static_cast<std::uint32_t>(table.strings.size()));
  for (std::size_t i = 0; i < table.strings.size(); ++i) {
    const SstString& s = table.strings[i];
    const bool wide = layout.wide[i] != 0;
    walker.ensure(3 + (s.runs ? 2 : 0) + (s.ext_rst ? 4 : 0) + (s.text.empty() ? 0 : wide ? 2 : 1));
    walker.string(s, wide);
  }

  std::uint8_t* p = sink.claim(4 + extsst_data);
  store_u16(p, record_extsst);
  store_u16(p + 2, static_cast<std::uint32_t>(extsst_data));
  store_u16(p + 4, layout.extsst.dsst);
  p += 6;
  for (const ExtSstEntry& bucket : layout.extsst.buckets) {
    store_u32(p, bucket.ib);
    store_u16(p + 4, bucket.cb_offset);
    store_u16(p + 6, 0);
    p += 8;
  }
  return {layout.sst_bytes + 4 + extsst_data, layout.extsst};
}

WriteResult write_sst(WriterKind kind, const SstTable& table, RecordSink& sink, std::uint32_t stream_offset,
                      const Limits& limits) {
  return kind == WriterKind::naive ? write_sst_naive(table, sink, stream_offset, limits)
                                   : write_sst_fast(table, sink, stream_offset, limits);
}

const char* to_string(WriterKind kind) { return kind == WriterKind::naive ? "naive" : "fast"; }

WriterKind parse_writer_kind(std::string_view name) {
  if (name == "naive") return WriterKind::naive;
  if (name == "fast") return WriterKind::fast;
  throw Error(ErrorKind::usage, {}, "unknown writer '" + std::string(name) + "' (naive, fast)");
}

std::string sst_bytes(const SstTable& table, WriterKind kind) {
  auto sink = make_memory_sink();
  write_sst(kind, table, *sink);
  sink->finish();
  return std::string(sink->bytes());
}

}  // namespace docconform::sst
