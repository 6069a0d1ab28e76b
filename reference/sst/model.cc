#include "docconform/sst/model.h"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "docconform/error.h"

namespace docconform::sst {
namespace {

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

}  // namespace

bool operator==(const SstStringView& a, const SstStringView& b) {
  const auto same_runs = [](std::span<const FormatRun> x, std::span<const FormatRun> y) { return std::ranges::equal(x, y); };
  return a.text == b.text && a.runs.has_value() == b.runs.has_value() && (!a.runs || same_runs(*a.runs, *b.runs)) &&
         a.ext_rst == b.ext_rst;
}

SstString::operator SstStringView() const {
  SstStringView s{text, std::nullopt, std::nullopt};
  if (runs) s.runs.emplace(*runs);
  if (ext_rst) s.ext_rst.emplace(*ext_rst);
  return s;
}

void SstTable::append(const SstStringView& s) {
  const auto fail = [this](const std::string& what) {
    throw Error(ErrorKind::usage, {"", "string " + std::to_string(shapes_.size()), std::nullopt}, what);
  };
  if (shapes_.size() >= std::min<std::size_t>(limits_.max_strings, 0x7FFFFFFF)) {
    fail("more strings than the limit of " + std::to_string(limits_.max_strings));
  }
  if (s.text.size() > 0xFFFF) fail(std::to_string(s.text.size()) + " code units exceed 65535");
  const std::size_t run_count = s.runs ? s.runs->size() : 0;
  if (run_count > std::min<std::size_t>(limits_.max_runs, 0xFFFF)) fail("too many format runs");
  const std::size_t ext_size = s.ext_rst ? s.ext_rst->size() : 0;
  if (ext_size > std::min<std::size_t>(limits_.max_ext_rst_bytes, 0x7FFFFFFF)) {
    fail("ExtRst of " + std::to_string(ext_size) + " bytes exceeds the limit");
  }
  const std::uint64_t bytes = table_bytes_ + s.text.size() + 4 * run_count + (s.ext_rst ? 4 + ext_size : 0);
  if (bytes > std::min<std::size_t>(limits_.max_table_bytes, 0xFFFFFFFF)) {
    fail("the table would exceed " + std::to_string(limits_.max_table_bytes) + " bytes of text, runs and ExtRst");
  }

  Shape shape;
  shape.length = static_cast<std::uint16_t>(s.text.size());
  shape.run_count = static_cast<std::uint16_t>(run_count);
  shape.flags = static_cast<std::uint8_t>((needs_high_byte(s.text) ? flag_high_byte : 0) | (s.runs ? flag_rich_st : 0) |
                                          (s.ext_rst ? flag_ext_st : 0));
  const Offsets at{static_cast<std::uint32_t>(text_.size()), static_cast<std::uint32_t>(runs_.size()),
                   static_cast<std::uint32_t>(ext_rst_.size())};
  try {
    text_.append(s.text);
    if (s.runs) runs_.insert(runs_.end(), s.runs->begin(), s.runs->end());
    if (s.ext_rst) {
      const auto size = static_cast<std::uint32_t>(ext_size);
      ext_rst_.append(reinterpret_cast<const char*>(&size), sizeof size);
      ext_rst_.append(*s.ext_rst);
    }
    offsets_.push_back(at);
    shapes_.push_back(shape);
  } catch (...) {
    // Out of memory: the pools go back to where they were, since a cursor reads them in order.
    text_.resize(at.text_at);
    runs_.resize(at.runs_at);
    ext_rst_.resize(at.ext_at);
    offsets_.resize(shapes_.size());
    throw;
  }
  table_bytes_ = bytes;
  string_bytes_ += string_header_bytes(shape.flags) + (s.text.size() << (shape.flags & flag_high_byte)) + 4 * run_count + ext_size;
}

std::size_t SstTable::bytes_per_string() { return sizeof(Shape) + sizeof(Offsets); }

void SstTable::reserve(std::size_t strings, std::size_t text_units) {
  shapes_.reserve(strings);
  offsets_.reserve(strings);
  text_.reserve(text_units);
}

void SstTable::set_total_refs(std::uint64_t refs) {
  if (refs > 0x7FFFFFFF) throw Error(ErrorKind::usage, {}, "cstTotal " + std::to_string(refs) + " exceeds 2^31-1");
  total_refs_ = static_cast<std::uint32_t>(refs);
}

bool operator==(const SstTable& a, const SstTable& b) {
  // Appending is the only way in, so equal strings mean equal shapes and pools (which hold
  // each ExtRst block's size; the offsets follow from them).
  return a.total_refs_ == b.total_refs_ && a.shapes_ == b.shapes_ && a.text_ == b.text_ && a.runs_ == b.runs_ &&
         a.ext_rst_ == b.ext_rst_;
}

ExtRstSegments ext_rst_segments(std::string_view ext) {
  const auto u16 = [&ext](std::size_t at) {
    return static_cast<std::size_t>(static_cast<std::uint8_t>(ext[at]) | (static_cast<std::uint8_t>(ext[at + 1]) << 8));
  };
  ExtRstSegments segments;
  const auto add = [&segments](std::size_t size, std::size_t keep, std::size_t unit) {
    segments.items[segments.count++] = {size, keep, unit};
  };
  const auto whole = [&add](std::size_t n) { add(n, n, n); };
  if (ext.size() >= 14 && u16(0) == 1 && 4 + u16(2) == ext.size() && u16(10) == u16(12) && 14 + 2 * u16(10) <= ext.size()) {
    const std::size_t text = 2 * u16(10);
    const std::size_t runs = (ext.size() - 14 - text) / 6;
    whole(8);
    whole(6);
    if (text > 0) add(text, std::min(text, max_record_data), 2);
    if (runs > 0) add(6 * runs, 6, 6);  // whole 6-byte runs, one after another
    if (const std::size_t extra = ext.size() - 14 - text - 6 * runs; extra > 0) whole(extra);
    return segments;
  }
  if (ext.empty()) return segments;
  whole(std::min<std::size_t>(8, ext.size()));
  if (ext.size() > 8) whole(std::min<std::size_t>(6, ext.size() - 8));
  if (ext.size() > 14) add(ext.size() - 14, std::min<std::size_t>(2, ext.size() - 14), 2);
  return segments;
}

std::uint16_t extsst_bucket_size(std::size_t unique_strings) {
  return static_cast<std::uint16_t>(std::max<std::size_t>(unique_strings / 128 + 1, 8));
}

std::size_t extsst_bucket_count(std::size_t unique_strings) {
  const std::size_t dsst = extsst_bucket_size(unique_strings);
  return (unique_strings + dsst - 1) / dsst;
}

std::uint64_t expected_sst_bytes(const SstTable& table) {
  // Per record: its header, and at most a flags byte and a moved header's room left unused.
  constexpr std::uint64_t per_record = 4 + 1 + 8;
  const std::uint64_t data = 8 + table.string_bytes();
  const std::uint64_t records = data / (max_record_data - per_record) + 1;
  return data + records * per_record + 4 + 2 + 8 * extsst_bucket_count(table.size());
}

}  // namespace docconform::sst
