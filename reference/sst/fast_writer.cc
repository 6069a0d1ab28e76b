// The fast writer: one pass over the strings. Record boundaries are computed per chunk (how many
// characters, runs or ExtRst bytes fit), never per byte; each record is claimed from the sink as
// one 8,228-byte area, filled with bulk copies (memcpy for UTF-16LE, a SIMD narrowing loop for
// compressed characters), and closed with its length written into its header before the sink
// emits anything, so sequential sinks still see lengths before data. (A separate layout pass
// would read every string twice; on a million strings that second trip to memory cost more than
// the whole emission.)
#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

bool needs_high_byte(std::u16string_view text) {
  const char16_t* p = text.data();
  const std::size_t n = text.size();
  std::size_t i = 0;
#if defined(__SSE2__)
  __m128i bits = _mm_setzero_si128();
  for (; i + 8 <= n; i += 8) bits = _mm_or_si128(bits, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)));
  // Any unit above 0xFF leaves a bit in a high byte of some lane.
  if ((_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(bits, _mm_set1_epi16(static_cast<short>(0xFF00))), _mm_setzero_si128())) & 0xFFFF) != 0xFFFF) {
    return true;
  }
#endif
  unsigned tail = 0;
  for (; i < n; ++i) tail |= p[i];
  return (tail & 0xFF00) != 0;
}

void copy_chars(std::uint8_t* out, const char16_t* chars, std::size_t n, bool wide) {
  if (wide) {
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(out, chars, 2 * n);
    } else {
      for (std::size_t i = 0; i < n; ++i) store_u16(out + 2 * i, chars[i]);
    }
    return;
  }
  std::size_t i = 0;
#if defined(__SSE2__)
  // Every unit is <= 0xFF here, so the saturating pack is an exact narrowing.
  for (; i + 16 <= n; i += 16) {
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(chars + i));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(chars + i + 8));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm_packus_epi16(lo, hi));
  }
#endif
  for (; i < n; ++i) out[i] = static_cast<std::uint8_t>(chars[i]);
}

// The continuation rules, once: the walker decides where records end and hands out the space.
class Walker {
 public:
  explicit Walker(RecordSink& sink) : sink_(sink) { open(record_sst); }

  std::uint64_t position() const { return record_at_ + 4 + (max_record_data - available_); }
  std::uint64_t record_header_position() const { return record_at_; }

  void ensure(std::size_t bytes) {
    if (available_ < bytes) next_record();
  }
  std::uint8_t* take(std::size_t bytes) {
    std::uint8_t* p = cursor_;
    cursor_ += bytes;
    available_ -= bytes;
    return p;
  }
  // Closes the last record; returns the bytes of all records.
  std::uint64_t finish() {
    close();
    return record_at_;
  }

  void string(const SstStringView& s, bool wide) {
    std::uint8_t* p = take(3 + (s.runs ? 2 : 0) + (s.ext_rst ? 4 : 0));
    store_u16(p, static_cast<std::uint32_t>(s.text.size()));
    p[2] = static_cast<std::uint8_t>((wide ? flag_high_byte : 0) | (s.ext_rst ? flag_ext_st : 0) | (s.runs ? flag_rich_st : 0));
    p += 3;
    if (s.runs) {
      store_u16(p, static_cast<std::uint32_t>(s.runs->size()));
      p += 2;
    }
    if (s.ext_rst) store_u32(p, static_cast<std::uint32_t>(s.ext_rst->size()));

    const std::size_t unit = wide ? 2 : 1;  // bytes per character
    const char16_t* chars = s.text.data();
    std::size_t remaining = s.text.size();
    while (true) {
      const std::size_t n = std::min(remaining, wide ? available_ / 2 : available_);
      copy_chars(take(n * unit), chars, n, wide);
      chars += n;
      remaining -= n;
      if (remaining == 0) break;
      next_record();
      *take(1) = wide ? 1 : 0;
    }
    if (s.runs) {
      for (const FormatRun& run : *s.runs) {
        ensure(4);
        std::uint8_t* r = take(4);
        store_u16(r, run.ich);
        store_u16(r + 2, run.ifnt);
      }
    }
    if (s.ext_rst) ext_rst(*s.ext_rst);
  }

 private:
  void open(std::uint16_t type) {
    cursor_ = sink_.claim(4 + max_record_data);
    header_ = cursor_;
    store_u16(header_, type);
    cursor_ += 4;
    available_ = max_record_data;
  }
  void close() {
    const std::size_t used = max_record_data - available_;
    store_u16(header_ + 2, static_cast<std::uint32_t>(used));
    sink_.retract(available_);
    record_at_ += 4 + used;
  }
  void next_record() {
    close();
    open(record_continue);
  }

  void ext_rst(std::string_view ext) {
    const char* bytes = ext.data();
    for (const ExtRstSegment& segment : ext_rst_segments(ext)) {
      ensure(segment.keep);
      std::size_t left = segment.size;
      while (left > 0) {
        ensure(std::min(segment.unit, left));
        // As many whole pieces as fit in one copy.
        const std::size_t n = segment.unit >= left ? left : std::min(left, available_ - available_ % segment.unit);
        std::memcpy(take(n), bytes, n);
        bytes += n;
        left -= n;
      }
    }
  }

  RecordSink& sink_;
  std::uint8_t* header_ = nullptr;
  std::uint8_t* cursor_ = nullptr;
  std::size_t available_ = 0;
  std::uint64_t record_at_ = 0;  // position of the open record's header
};

}  // namespace

WriteResult write_sst_fast(const SstTable& table, RecordSink& sink, std::uint32_t stream_offset) {
  const std::size_t count = table.size();
  WriteResult result;
  result.extsst.dsst = extsst_bucket_size(count);
  result.extsst.buckets.reserve(extsst_bucket_count(count));

  Walker walker(sink);
  std::uint8_t* counts = walker.take(8);
  store_u32(counts, table.total_refs());
  store_u32(counts + 4, static_cast<std::uint32_t>(count));
  std::size_t bucket_left = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const SstStringView s = table[i];
    const bool wide = needs_high_byte(s.text);
    walker.ensure(3 + (s.runs ? 2 : 0) + (s.ext_rst ? 4 : 0) + (wide ? 2 : 1));
    if (bucket_left == 0) {
      const std::uint64_t at = walker.position();
      result.extsst.buckets.push_back({static_cast<std::uint32_t>(stream_offset + at),
                                       static_cast<std::uint16_t>(at - walker.record_header_position())});
      bucket_left = result.extsst.dsst;
    }
    --bucket_left;
    walker.string(s, wide);
  }
  const std::uint64_t sst_bytes = walker.finish();

  const std::size_t extsst_data = 2 + 8 * result.extsst.buckets.size();
  std::uint8_t* p = sink.claim(4 + extsst_data);
  store_u16(p, record_extsst);
  store_u16(p + 2, static_cast<std::uint32_t>(extsst_data));
  store_u16(p + 4, result.extsst.dsst);
  p += 6;
  for (const ExtSstEntry& bucket : result.extsst.buckets) {
    store_u32(p, bucket.ib);
    store_u16(p + 4, bucket.cb_offset);
    store_u16(p + 6, 0);
    p += 8;
  }
  result.bytes = sst_bytes + 4 + extsst_data;
  return result;
}

WriteResult write_sst(WriterKind kind, const SstTable& table, RecordSink& sink, std::uint32_t stream_offset) {
  return kind == WriterKind::naive ? write_sst_naive(table, sink, stream_offset) : write_sst_fast(table, sink, stream_offset);
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
