// The BIFF8 shared string table as data: UTF-16 strings with optional rich-text runs and
// optional raw phonetic (ExtRst) bytes, plus the record constants and limits of the format.
//
// SstTable is a packed string pool: all texts in one char16_t buffer, all runs in one FormatRun
// buffer, all ExtRst blocks in one byte buffer (each after its 4-byte size), a 6-byte shape per
// string (length, run count, flags) and, for random access only, 12 bytes of offsets. Writers
// walk a million strings as a few sequential streams (SstTable::Cursor) instead of a million
// scattered heap blocks, and every string is checked against the limits once, when appended.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace docconform::sst {

inline constexpr std::uint16_t record_sst = 0x00FC;
inline constexpr std::uint16_t record_continue = 0x003C;
inline constexpr std::uint16_t record_extsst = 0x00FF;
inline constexpr std::size_t max_record_data = 8224;  // [MS-XLS 2.1.4]

// Flags of XLUnicodeRichExtendedString [MS-XLS 2.5.293].
inline constexpr std::uint8_t flag_high_byte = 0x01;
inline constexpr std::uint8_t flag_ext_st = 0x04;
inline constexpr std::uint8_t flag_rich_st = 0x08;

// Bytes of a string's header [MS-XLS 2.5.293]: cch, option flags, then cRun and cbExtRst
// when the flags say so.
constexpr std::size_t string_header_bytes(std::uint8_t flags) {
  return 3 + ((flags & flag_rich_st) ? 2 : 0) + ((flags & flag_ext_st) ? 4 : 0);
}

struct FormatRun {
  std::uint16_t ich = 0;   // first character the run applies to
  std::uint16_t ifnt = 0;  // font index
  friend bool operator==(const FormatRun&, const FormatRun&) = default;
};

// One string, borrowed (from a table, or from an SstString): valid while its owner is unchanged.
struct SstStringView {
  std::u16string_view text;
  std::optional<std::span<const FormatRun>> runs;  // present = fRichSt set (possibly with 0 runs)
  std::optional<std::string_view> ext_rst;         // present = fExtSt set; raw ExtRst bytes
  friend bool operator==(const SstStringView& a, const SstStringView& b);
};

// One string, owned: what generators, parsers and tests build before appending it to a table.
struct SstString {
  std::u16string text;
  std::optional<std::vector<FormatRun>> runs;
  std::optional<std::string> ext_rst;
  operator SstStringView() const;  // the one conversion between the two forms
  friend bool operator==(const SstString&, const SstString&) = default;
};

struct Limits {
  std::size_t max_strings = 8'000'000;         // keeps the EXTSST bucket size within 16 bits
  std::size_t max_ext_rst_bytes = 1u << 20;    // per string
  std::size_t max_runs = 65'535;               // per string (cRun is 16-bit)
  std::size_t max_stream_bytes = 1u << 30;     // CFB stream / record input size
  // Code units + 4 x runs + ExtRst bytes and their 4-byte sizes of a whole table: a lower bound
  // of its SST size, whose EXTSST stream positions are 32-bit (and so are the table's offsets).
  std::size_t max_table_bytes = 0xFFFFFFFF;
  // Memory one read holds: the container's tables, the stream, its records and the strings.
  std::size_t max_memory = std::size_t{2} << 30;

  static Limits fuzz() {
    Limits limits;
    limits.max_strings = 1u << 16;
    limits.max_ext_rst_bytes = 1u << 16;
    limits.max_stream_bytes = 1u << 24;
    limits.max_table_bytes = 1u << 24;
    limits.max_memory = 256u << 20;
    return limits;
  }

  // Calls visit(name, member pointer) for every field, in declaration order: how tools set a
  // limit by name.
  template <class Visit>
  static void for_each_field(Visit&& visit) {
    visit("max_strings", &Limits::max_strings);
    visit("max_ext_rst_bytes", &Limits::max_ext_rst_bytes);
    visit("max_runs", &Limits::max_runs);
    visit("max_stream_bytes", &Limits::max_stream_bytes);
    visit("max_table_bytes", &Limits::max_table_bytes);
    visit("max_memory", &Limits::max_memory);
  }
};

class SstTable {
 public:
  explicit SstTable(const Limits& limits = {}) : limits_(limits) {}

  std::size_t size() const { return shapes_.size(); }
  bool empty() const { return shapes_.empty(); }
  SstStringView operator[](std::size_t i) const {
    const Offsets& o = offsets_[i];
    return view(shapes_[i], text_.data() + o.text_at, runs_.data() + o.runs_at, ext_rst_.data() + o.ext_at);
  }

  // The code units of string i alone (operator[] also gives its runs and ExtRst).
  std::u16string_view text(std::size_t i) const { return {text_.data() + offsets_[i].text_at, shapes_[i].length}; }

  // The string's option flags as the SST stores them: fHighByte (some code unit is above 0xFF,
  // found once when the string is appended, as POI's UnicodeString does), fExtSt, fRichSt.
  std::uint8_t flags(std::size_t i) const { return shapes_[i].flags; }

  // The strings as the SST stores them, record headers and continuation flags aside: each
  // one's header, characters (one or two bytes each), runs and ExtRst.
  std::uint64_t string_bytes() const { return string_bytes_; }

  // Every string's code units, and every rich string's runs, in table order: a writer may read
  // from one string into the next.
  std::u16string_view texts() const { return text_; }
  std::span<const FormatRun> all_runs() const { return runs_; }

  // Copies s into the pool. Throws Error(usage) naming the string when the writers could not
  // encode it (more than 65,535 code units or runs) or it breaks a limit.
  void append(const SstStringView& s);
  void reserve(std::size_t strings, std::size_t text_units);
  // The memory a string takes besides its code units, runs and ExtRst (its shape and offsets).
  static std::size_t bytes_per_string();

  // cstTotal: references from cells (informational), at most 2^31-1.
  std::uint32_t total_refs() const { return total_refs_; }
  void set_total_refs(std::uint64_t refs);

  const Limits& limits() const { return limits_; }

  // The strings in table order, read from the shapes and the pools alone: what a writer that
  // visits every string uses instead of operator[] (which also reads each string's offsets).
  class Cursor;

  // Same strings in the same order, same cstTotal (the limits are not compared).
  friend bool operator==(const SstTable& a, const SstTable& b);

 private:
  struct Shape {
    std::uint16_t length = 0;
    std::uint16_t run_count = 0;
    std::uint8_t flags = 0;  // flag_high_byte, flag_rich_st, flag_ext_st
    friend bool operator==(const Shape&, const Shape&) = default;
  };
  struct Offsets {
    std::uint32_t text_at = 0;  // first code unit in text_
    std::uint32_t runs_at = 0;  // first run in runs_
    std::uint32_t ext_at = 0;   // the ExtRst block's size in ext_rst_
  };
  // ext_block: where the string's ExtRst block would be, its size first. A writer reads the
  // size where it reads the block, not from a separate array.
  static std::uint32_t ext_size(const char* ext_block) {
    std::uint32_t size;
    std::memcpy(&size, ext_block, sizeof size);
    return size;
  }
  static SstStringView view(const Shape& shape, const char16_t* text, const FormatRun* runs, const char* ext_block) {
    SstStringView s{{text, shape.length}, std::nullopt, std::nullopt};
    if (shape.flags & flag_rich_st) s.runs.emplace(runs, shape.run_count);
    if (shape.flags & flag_ext_st) s.ext_rst.emplace(ext_block + 4, ext_size(ext_block));
    return s;
  }

  Limits limits_;
  std::uint32_t total_refs_ = 0;
  std::vector<Shape> shapes_;
  std::vector<Offsets> offsets_;
  std::u16string text_;
  std::vector<FormatRun> runs_;
  std::string ext_rst_;
  std::uint64_t table_bytes_ = 0;  // against limits_.max_table_bytes
  std::uint64_t string_bytes_ = 0;
};

class SstTable::Cursor {
 public:
  explicit Cursor(const SstTable& table)
      : shape_(table.shapes_.data()),
        end_(table.shapes_.data() + table.shapes_.size()),
        text_(table.text_.data()),
        runs_(table.runs_.data()),
        ext_rst_(table.ext_rst_.data()) {}
  bool done() const { return shape_ == end_; }
  std::size_t remaining() const { return static_cast<std::size_t>(end_ - shape_); }
  std::u16string_view text() const { return {text_, shape_->length}; }
  std::uint8_t flags() const { return shape_->flags; }
  SstStringView string() const { return view(*shape_, text_, runs_, ext_rst_); }
  void advance() {
    text_ += shape_->length;
    if (shape_->flags & (flag_rich_st | flag_ext_st)) {  // most strings have neither
      runs_ += shape_->run_count;
      if (shape_->flags & flag_ext_st) ext_rst_ += 4 + ext_size(ext_rst_);
    }
    ++shape_;
  }

 private:
  // Pointers, not an index into the table: a value the compiler can keep in registers.
  const Shape* shape_;
  const Shape* end_;
  const char16_t* text_;
  const FormatRun* runs_;
  const char* ext_rst_;
};

// One EXTSST bucket [MS-XLS 2.4.107]: where the first string of a bucket starts.
struct ExtSstEntry {
  std::uint32_t ib = 0;         // stream position of the string's cch field
  std::uint16_t cb_offset = 0;  // offset from the containing record's header
  friend bool operator==(const ExtSstEntry&, const ExtSstEntry&) = default;
};

struct ExtSst {
  std::uint16_t dsst = 0;  // strings per bucket
  std::vector<ExtSstEntry> buckets;
  friend bool operator==(const ExtSst&, const ExtSst&) = default;
};

// How the writers split an ExtRst block across records: each segment starts in a record with
// at least `keep` free bytes and is then written in pieces of `unit` bytes, each piece whole.
// A well-formed ExtRst [MS-XLS 2.5.109] (reserved 1, consistent sizes) is cut as POI cuts it:
// the 8-byte block, the 6-byte RPHSSub header, the phonetic text (kept together when it fits
// in a record, else split between characters), the 6-byte phonetic runs (each whole), any
// trailing bytes. Any other block: its first 8 bytes, the next 6, then 2-byte pieces.
struct ExtRstSegment {
  std::size_t size = 0;
  std::size_t keep = 0;
  std::size_t unit = 0;
};
// At most five segments: a fixed array, so the writers allocate nothing per string.
struct ExtRstSegments {
  std::array<ExtRstSegment, 5> items;
  std::size_t count = 0;
  const ExtRstSegment* begin() const { return items.data(); }
  const ExtRstSegment* end() const { return items.data() + count; }
};
ExtRstSegments ext_rst_segments(std::string_view ext);

// Strings per EXTSST bucket and bucket count, the spec formula (what Excel writes).
std::uint16_t extsst_bucket_size(std::size_t unique_strings);
std::size_t extsst_bucket_count(std::size_t unique_strings);

// About how many bytes the SST, CONTINUE and EXTSST records of table take (a little more, never
// much less): what the writers tell their sink to expect.
std::uint64_t expected_sst_bytes(const SstTable& table);

}  // namespace docconform::sst
