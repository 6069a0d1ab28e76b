// The fast writer: one pass over the strings. Record boundaries are computed per string or per
// chunk (how many characters, runs or ExtRst bytes fit), never per byte. Each record is claimed
// from the sink as one area (the record and some slack) and filled with bulk copies: fixed
// vector moves for short strings, memcpy for UTF-16LE, a SIMD narrowing loop for longer
// compressed characters. It is closed with its length written into its header before the sink
// emits anything, so sequential sinks still see lengths before data (a separate layout pass
// would read every string twice). Strings come from the table's packed pool, with their
// fHighByte flag found when they were appended.
#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "docconform/error.h"
#include "docconform/sst/writer.h"
#include "little_endian.h"

namespace docconform::sst {
namespace {

// Most cell texts are shorter than a vector: small copies are two overlapping fixed-size moves
// (storing some bytes twice) instead of a loop that finishes byte by byte.
template <std::size_t k>
void move_fixed(std::uint8_t* out, const std::uint8_t* in) {
  std::memcpy(out, in, k);
}
void copy_bytes(std::uint8_t* out, const std::uint8_t* in, std::size_t n) {
  if (n > 64) {
    std::memcpy(out, in, n);
  } else if (n >= 16) {
    for (std::size_t i = 0; i + 16 < n; i += 16) move_fixed<16>(out + i, in + i);
    move_fixed<16>(out + n - 16, in + n - 16);
  } else if (n >= 8) {
    move_fixed<8>(out, in);
    move_fixed<8>(out + n - 8, in + n - 8);
  } else if (n >= 4) {
    move_fixed<4>(out, in);
    move_fixed<4>(out + n - 4, in + n - 4);
  } else if (n >= 2) {
    move_fixed<2>(out, in);
    move_fixed<2>(out + n - 2, in + n - 2);
  } else if (n == 1) {
    *out = *in;
  }
}

#if defined(__SSE2__)
// Every unit is <= 0xFF here, so the saturating pack is an exact narrowing.
__m128i narrow16(const char16_t* chars) {
  return _mm_packus_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(chars)),
                          _mm_loadu_si128(reinterpret_cast<const __m128i*>(chars + 8)));
}
__m128i narrow8(const char16_t* chars) {
  return _mm_packus_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(chars)), _mm_setzero_si128());
}
__m128i narrow4(const char16_t* chars) {
  return _mm_packus_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(chars)), _mm_setzero_si128());
}
void store4(std::uint8_t* out, __m128i v) {
  const std::uint32_t bytes = static_cast<std::uint32_t>(_mm_cvtsi128_si32(v));
  std::memcpy(out, &bytes, 4);
}
#endif

void narrow(std::uint8_t* out, const char16_t* chars, std::size_t n) {
#if defined(__SSE2__)
  if (n >= 16) {
    for (std::size_t i = 0; i + 16 < n; i += 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), narrow16(chars + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n - 16), narrow16(chars + n - 16));
    return;
  }
  if (n >= 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), narrow8(chars));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + n - 8), narrow8(chars + n - 8));
    return;
  }
  if (n >= 4) {
    store4(out, narrow4(chars));
    store4(out + n - 4, narrow4(chars + n - 4));
    return;
  }
#endif
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(chars[i]);
}

void copy_chars(std::uint8_t* out, const char16_t* chars, std::size_t n, bool wide) {
  if (!wide) {
    narrow(out, chars, n);
  } else if constexpr (std::endian::native == std::endian::little) {
    copy_bytes(out, reinterpret_cast<const std::uint8_t*>(chars), 2 * n);
  } else {
    for (std::size_t i = 0; i < n; ++i) store_u16(out + 2 * i, chars[i]);
  }
}

#if defined(__SSE2__)
// Up to short_units code units as four 16-byte moves, narrowed unless wide (0 or 1): no branch
// on the length or the width, which mispredicted on mixed cell texts. Reads 64 bytes from chars
// and writes 64 bytes to out, past the characters' end.
constexpr std::size_t short_units = 32;
void move_short_chars(std::uint8_t* out, const char16_t* chars, std::size_t wide) {
  const auto* in = reinterpret_cast<const __m128i*>(chars);
  const __m128i v0 = _mm_loadu_si128(in), v1 = _mm_loadu_si128(in + 1);
  const __m128i v2 = _mm_loadu_si128(in + 2), v3 = _mm_loadu_si128(in + 3);
  // All ones when wide: the code units as they are; else the narrowed bytes.
  const __m128i as_is = _mm_set1_epi32(-static_cast<int>(wide));
  const auto select = [&](__m128i units16, __m128i narrowed) {
    return _mm_or_si128(_mm_and_si128(as_is, units16), _mm_andnot_si128(as_is, narrowed));
  };
  auto* to = reinterpret_cast<__m128i*>(out);
  _mm_storeu_si128(to, select(v0, _mm_packus_epi16(v0, v1)));
  _mm_storeu_si128(to + 1, select(v1, _mm_packus_epi16(v2, v3)));
  _mm_storeu_si128(to + 2, v2);
  _mm_storeu_si128(to + 3, v3);
}
#endif

// The continuation rules, once: the walker decides where records end and hands out the space.
// Bytes written past what a string keeps land in the claim's slack or are overwritten by what
// follows; vectors are read past a string only where the table's pools go on.
class Walker {
 public:
  Walker(RecordSink& sink, const SstTable& table)
      : sink_(sink),
        texts_end_(table.texts().data() + table.texts().size()),
        runs_end_(table.all_runs().data() + table.all_runs().size()) {
    open(record_sst);
  }

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

#if defined(__SSE2__)
  // A plain string (no runs, no ExtRst) of at most short_units code units that can be read
  // whole vectors past its end and fits in the open record (an empty one with a character's
  // room, as everywhere).
  bool fits_short(const char16_t* chars, std::size_t units, std::uint8_t flags) const {
    return fits_short(chars, units, flags, available_);
  }
  // Writes up to `limit` strings from `strings` on while each fits_short; returns how many.
  // The state lives in locals meanwhile: stores of characters may alias any member, which the
  // compiler would otherwise reload for every string.
  std::size_t short_strings(SstTable::Cursor& strings, std::size_t limit) {
    SstTable::Cursor at = strings;
    std::uint8_t* out = cursor_;
    std::size_t available = available_;
    std::size_t written = 0;
    for (; written < limit && !at.done(); ++written, at.advance()) {
      const std::u16string_view text = at.text();
      const std::uint8_t flags = at.flags();
      if (!fits_short(text.data(), text.size(), flags, available)) break;
      const std::size_t wide = flags & flag_high_byte;
      const std::size_t bytes = 3 + (text.size() << wide);
      store_u16(out, static_cast<std::uint32_t>(text.size()));
      out[2] = flags;
      move_short_chars(out + 3, text.data(), wide);
      out += bytes;
      available -= bytes;
    }
    cursor_ = out;
    available_ = available;
    strings = at;
    return written;
  }
#endif

  // flags: the table's precomputed option flags of s.
  void string(const SstStringView& s, std::uint8_t flags) {
    const bool wide = (flags & flag_high_byte) != 0;
    std::uint8_t* p = take(string_header_bytes(flags));
    store_u16(p, static_cast<std::uint32_t>(s.text.size()));
    p[2] = flags;
    p += 3;
    if (s.runs) {
      store_u16(p, static_cast<std::uint32_t>(s.runs->size()));
      p += 2;
    }
    if (s.ext_rst) store_u32(p, static_cast<std::uint32_t>(s.ext_rst->size()));

    const std::size_t unit = wide ? 2 : 1;  // bytes per character
    const std::size_t run_count = s.runs ? s.runs->size() : 0;
    const std::size_t ext_bytes = s.ext_rst ? s.ext_rst->size() : 0;
    if (s.text.size() * unit + 4 * run_count + ext_bytes <= available_) {
      // All of it fits in this record: no continuation rule applies.
      std::uint8_t* out = take(s.text.size() * unit);
#if defined(__SSE2__)
      if (s.text.size() <= short_units && readable_short(s.text.data())) {
        move_short_chars(out, s.text.data(), wide ? 1 : 0);
      } else
#endif
      {
        copy_chars(out, s.text.data(), s.text.size(), wide);
      }
      if (s.runs) put_runs(*s.runs);
      if (s.ext_rst) std::memcpy(take(ext_bytes), s.ext_rst->data(), ext_bytes);
      return;
    }
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
        put_run(run);
      }
    }
    if (s.ext_rst) ext_rst(*s.ext_rst);
  }

 private:
#if defined(__SSE2__)
  bool readable_short(const char16_t* chars) const { return texts_end_ - chars >= static_cast<std::ptrdiff_t>(short_units); }
  bool fits_short(const char16_t* chars, std::size_t units, std::uint8_t flags, std::size_t available) const {
    const std::size_t wide = flags & flag_high_byte;
    return units <= short_units && (flags & (flag_rich_st | flag_ext_st)) == 0 && readable_short(chars) &&
           3 + (std::max<std::size_t>(units, 1) << wide) <= available;
  }
#endif
  // Runs that fit whole in this record: up to four as one 16-byte move where the pool goes on
  // that far (a FormatRun in memory is the record's little-endian ich, ifnt).
  void put_runs(std::span<const FormatRun> runs) {
    static_assert(sizeof(FormatRun) == 4);
    if constexpr (std::endian::native == std::endian::little) {
      if (runs.size() <= 4 && runs_end_ - runs.data() >= 4) {
        std::memcpy(take(4 * runs.size()), runs.data(), 16);
        return;
      }
    }
    for (const FormatRun& run : runs) put_run(run);
  }
  void put_run(const FormatRun& run) {
    std::uint8_t* r = take(4);
    store_u16(r, run.ich);
    store_u16(r + 2, run.ifnt);
  }
  void open(std::uint16_t type) {
    cursor_ = sink_.claim(max_claim_bytes);
    header_ = cursor_;
    store_u16(header_, type);
    cursor_ += 4;
    available_ = max_record_data;
  }
  void close() {
    const std::size_t used = max_record_data - available_;
    store_u16(header_ + 2, static_cast<std::uint32_t>(used));
    sink_.retract(available_ + claim_slack_bytes);
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
  const char16_t* texts_end_;
  const FormatRun* runs_end_;
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

  sink.expect(expected_sst_bytes(table));
  Walker walker(sink, table);
  std::uint8_t* counts = walker.take(8);
  store_u32(counts, table.total_refs());
  store_u32(counts + 4, static_cast<std::uint32_t>(count));
  std::size_t bucket_left = 0;
  for (SstTable::Cursor cursor(table); !cursor.done();) {
    const std::u16string_view text = cursor.text();
    const std::uint8_t flags = cursor.flags();
#if defined(__SSE2__)
    const bool shortcut = walker.fits_short(text.data(), text.size(), flags);
#else
    const bool shortcut = false;
#endif
    // The header stays with the first character's bytes (one byte even for an empty string).
    if (!shortcut) walker.ensure(string_header_bytes(flags) + ((flags & flag_high_byte) ? 2 : 1));
    if (bucket_left == 0) {
      const std::uint64_t at = walker.position();
      result.extsst.buckets.push_back({static_cast<std::uint32_t>(stream_offset + at),
                                       static_cast<std::uint16_t>(at - walker.record_header_position())});
      bucket_left = result.extsst.dsst;
    }
#if defined(__SSE2__)
    if (shortcut) {
      // This string and the short ones after it, up to the next bucket's first.
      bucket_left -= walker.short_strings(cursor, bucket_left);
      continue;
    }
#endif
    --bucket_left;
    walker.string(cursor.string(), flags);
    cursor.advance();
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

std::uint64_t expected_sst_bytes(const SstTable& table) {
  // Per record: its header, and at most a flags byte and a moved header's room left unused.
  constexpr std::uint64_t per_record = 4 + 1 + 8;
  const std::uint64_t data = 8 + table.string_bytes();
  const std::uint64_t records = data / (max_record_data - per_record) + 1;
  return data + records * per_record + 4 + 2 + 8 * extsst_bucket_count(table.size());
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
