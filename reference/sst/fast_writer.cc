// The fast writer: one pass over the strings. Record boundaries are computed per string or per
// chunk (how many characters, runs or ExtRst bytes fit), never per byte. Each record is claimed
// from the sink as one area (the record and some slack) and filled with bulk copies: fixed
// vector moves for short strings, memcpy for UTF-16LE, a SIMD narrowing loop for longer
// compressed characters. It is closed with its length written into its header before the sink
// emits anything, so sequential sinks still see lengths before data (a separate layout pass
// would read every string twice). Strings come from the table's packed pool in order
// (SstTable::Cursor), with their fHighByte flag found when they were appended; those that fit
// whole in the open record are written in one loop over locals (Walker::whole_strings).
#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// Texts of at most this many code units are moved whole vectors at a time where SSE2 is there.
constexpr std::size_t short_units = 32;

#if defined(__SSE2__)
// Up to short_units code units as four 16-byte moves, narrowed unless wide (0 or 1): no branch
// on the length or the width, which mispredicted on mixed cell texts. Reads 64 bytes from chars
// and writes 64 bytes to out, past the characters' end.
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

// A string's header: cch, option flags, then cRun and cbExtRst when the flags say so.
void put_header(std::uint8_t* out, const SstStringView& s, std::uint8_t flags) {
  store_u16(out, static_cast<std::uint32_t>(s.text.size()));
  out[2] = flags;
  out += 3;
  if (s.runs) {
    store_u16(out, static_cast<std::uint32_t>(s.runs->size()));
    out += 2;
  }
  if (s.ext_rst) store_u32(out, static_cast<std::uint32_t>(s.ext_rst->size()));
}

void store_run(std::uint8_t* out, const FormatRun& run) {
  store_u16(out, run.ich);
  store_u16(out + 2, run.ifnt);
}

// Runs that fit whole in the record: up to four as one 16-byte move where the pool goes on
// that far (a FormatRun in memory is the record's little-endian ich, ifnt). Returns the end.
std::uint8_t* put_runs(std::uint8_t* out, std::span<const FormatRun> runs, const FormatRun* runs_end) {
  static_assert(sizeof(FormatRun) == 4);
  if constexpr (std::endian::native == std::endian::little) {
    if (runs.size() <= 4 && runs_end - runs.data() >= 4) {
      std::memcpy(out, runs.data(), 16);
      return out + 4 * runs.size();
    }
  }
  for (const FormatRun& run : runs) {
    store_run(out, run);
    out += 4;
  }
  return out;
}

// The continuation rules, once: the walker decides where records end and hands out the space.
// Bytes written past what a string keeps land in the claim's slack or are overwritten by what
// follows; vectors are read past a string only where the table's pools go on.
class Walker {
 public:
  Walker(RecordSink& sink, const SstTable& table)
      : sink_(sink),
        short_texts_end_(table.texts().data() + (table.texts().size() - std::min(table.texts().size(), short_units - 1))),
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

  // Writes strings from `strings` on, up to `limit` of them, while each fits whole in the open
  // record, where no continuation rule applies; returns how many. The state lives in locals
  // meanwhile: stores of characters may alias any member, which the compiler would otherwise
  // reload for every string.
  std::size_t whole_strings(SstTable::Cursor& strings, std::size_t limit) {
    SstTable::Cursor at = strings;
    std::uint8_t* out = cursor_;
    std::uint8_t* const end = cursor_ + available_;
#if defined(__SSE2__)
    const char16_t* const short_texts_end = short_texts_end_;
#endif
    const FormatRun* const runs_end = runs_end_;
    const std::size_t count = std::min(limit, at.remaining());
    std::size_t written = 0;
    for (; written < count; ++written, at.advance()) {
      const std::u16string_view text = at.text();
      const std::uint8_t flags = at.flags();
      const std::size_t wide = flags & flag_high_byte;
      const std::size_t char_bytes = text.size() << wide;
      const std::size_t room = static_cast<std::size_t>(end - out);
#if defined(__SSE2__)
      const bool short_move = text.size() <= short_units && text.data() < short_texts_end;
      if ((flags & (flag_rich_st | flag_ext_st)) == 0 && short_move) {
        // Most cell texts: no runs, no ExtRst, no branch on the length or the width, and
        // far from the record's end, where the exact room need not be worked out.
        if (room < 3 + 2 * short_units && 3 + std::max(char_bytes, std::size_t{1} << wide) > room) break;
        store_u16(out, static_cast<std::uint32_t>(text.size()));
        out[2] = flags;
        move_short_chars(out + 3, text.data(), wide);
        out += 3 + char_bytes;
        continue;
      }
#else
      constexpr bool short_move = false;
#endif
      const SstStringView s = at.string();
      const std::size_t run_count = s.runs ? s.runs->size() : 0;
      const std::size_t ext_bytes = s.ext_rst ? s.ext_rst->size() : 0;
      const std::size_t header = string_header_bytes(flags);
      // The header stays with its first character (one even for an empty string).
      if (header + std::max(char_bytes + 4 * run_count + ext_bytes, std::size_t{1} << wide) > room) break;
      put_header(out, s, flags);
      out += header;
#if defined(__SSE2__)
      if (short_move) {
        move_short_chars(out, text.data(), wide);
      } else
#endif
      {
        copy_chars(out, text.data(), text.size(), wide != 0);
      }
      out += char_bytes;
      if (s.runs) out = put_runs(out, *s.runs, runs_end);
      if (s.ext_rst) {
        std::memcpy(out, s.ext_rst->data(), ext_bytes);
        out += ext_bytes;
      }
    }
    available_ = static_cast<std::size_t>(end - out);
    cursor_ = out;
    strings = at;
    return written;
  }

  // A string that does not fit whole in the open record, after ensure() kept its header with
  // its first character. flags: the table's precomputed option flags of s.
  void string(const SstStringView& s, std::uint8_t flags) {
    const bool wide = (flags & flag_high_byte) != 0;
    const std::size_t unit = wide ? 2 : 1;  // bytes per character
    put_header(take(string_header_bytes(flags)), s, flags);
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
        store_run(take(4), run);
      }
    }
    if (s.ext_rst) ext_rst(*s.ext_rst);
  }

 private:
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
  const char16_t* short_texts_end_;  // a text starting before it has short_units of the pool
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
    const std::uint8_t flags = cursor.flags();
    // The header stays with the first character's bytes (one byte even for an empty string).
    walker.ensure(string_header_bytes(flags) + ((flags & flag_high_byte) ? 2 : 1));
    if (bucket_left == 0) {
      const std::uint64_t at = walker.position();
      result.extsst.buckets.push_back({static_cast<std::uint32_t>(stream_offset + at),
                                       static_cast<std::uint16_t>(at - walker.record_header_position())});
      bucket_left = result.extsst.dsst;
    }
    // This string and the ones after it up to the next bucket's first, while they fit whole.
    std::size_t written = walker.whole_strings(cursor, bucket_left);
    if (written == 0) {
      walker.string(cursor.string(), flags);
      cursor.advance();
      written = 1;
    }
    bucket_left -= written;
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

}  // namespace docconform::sst
