// The BIFF8 shared string table as data: UTF-16 strings with optional rich-text runs and
// optional raw phonetic (ExtRst) bytes, plus the record constants and limits of the format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
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

struct FormatRun {
  std::uint16_t ich = 0;   // first character the run applies to
  std::uint16_t ifnt = 0;  // font index
  friend bool operator==(const FormatRun&, const FormatRun&) = default;
};

struct SstString {
  std::u16string text;                          // at most 65,535 code units
  std::optional<std::vector<FormatRun>> runs;   // present = fRichSt set (possibly with 0 runs)
  std::optional<std::string> ext_rst;           // present = fExtSt set; raw ExtRst bytes
  friend bool operator==(const SstString&, const SstString&) = default;
};

struct SstTable {
  std::uint32_t total_refs = 0;  // cstTotal: references from cells (informational)
  std::vector<SstString> strings;
  friend bool operator==(const SstTable&, const SstTable&) = default;
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
// in a record, else split between characters), each 6-byte phonetic run, any trailing bytes.
// Any other block: its first 8 bytes, the next 6, then 2-byte pieces.
struct ExtRstSegment {
  std::size_t size = 0;
  std::size_t keep = 0;
  std::size_t unit = 0;
};
std::vector<ExtRstSegment> ext_rst_segments(std::string_view ext);

// Strings per EXTSST bucket and bucket count, the spec formula (what Excel writes).
std::uint16_t extsst_bucket_size(std::size_t unique_strings);
std::size_t extsst_bucket_count(std::size_t unique_strings);

struct Limits {
  std::size_t max_strings = 8'000'000;         // keeps the EXTSST bucket size within 16 bits
  std::size_t max_ext_rst_bytes = 1u << 20;    // per string
  std::size_t max_runs = 65'535;               // per string (cRun is 16-bit)
  std::size_t max_stream_bytes = 1u << 30;     // CFB stream / record input size

  static Limits fuzz() {
    Limits limits;
    limits.max_strings = 1u << 16;
    limits.max_ext_rst_bytes = 1u << 16;
    limits.max_stream_bytes = 1u << 24;
    return limits;
  }
};

// Throws Error(usage) naming the first string the writers cannot encode: more than 65,535
// code units or runs, an ExtRst larger than the limit, more strings than the limit.
void validate_for_write(const SstTable& table, const Limits& limits = {});

}  // namespace docconform::sst
