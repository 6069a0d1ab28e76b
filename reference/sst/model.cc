#include "docconform/sst/model.h"

#include <algorithm>

#include "docconform/error.h"

namespace docconform::sst {

std::vector<ExtRstSegment> ext_rst_segments(std::string_view ext) {
  const auto u16 = [&ext](std::size_t at) {
    return static_cast<std::size_t>(static_cast<std::uint8_t>(ext[at]) | (static_cast<std::uint8_t>(ext[at + 1]) << 8));
  };
  const auto whole = [](std::size_t n) { return ExtRstSegment{n, n, n}; };
  std::vector<ExtRstSegment> segments;
  if (ext.size() >= 14 && u16(0) == 1 && 4 + u16(2) == ext.size() && u16(10) == u16(12) && 14 + 2 * u16(10) <= ext.size()) {
    const std::size_t text = 2 * u16(10);
    const std::size_t runs = (ext.size() - 14 - text) / 6;
    segments = {whole(8), whole(6)};
    if (text > 0) segments.push_back({text, std::min(text, max_record_data), 2});
    segments.insert(segments.end(), runs, whole(6));
    if (const std::size_t extra = ext.size() - 14 - text - 6 * runs; extra > 0) segments.push_back(whole(extra));
    return segments;
  }
  if (ext.empty()) return segments;
  segments.push_back(whole(std::min<std::size_t>(8, ext.size())));
  if (ext.size() > 8) segments.push_back(whole(std::min<std::size_t>(6, ext.size() - 8)));
  if (ext.size() > 14) segments.push_back({ext.size() - 14, std::min<std::size_t>(2, ext.size() - 14), 2});
  return segments;
}

std::uint16_t extsst_bucket_size(std::size_t unique_strings) {
  return static_cast<std::uint16_t>(std::max<std::size_t>(unique_strings / 128 + 1, 8));
}

std::size_t extsst_bucket_count(std::size_t unique_strings) {
  const std::size_t dsst = extsst_bucket_size(unique_strings);
  return (unique_strings + dsst - 1) / dsst;
}

void validate_for_write(const SstTable& table, const Limits& limits) {
  const auto fail = [](std::size_t index, const std::string& what) {
    throw Error(ErrorKind::usage, {"", "string " + std::to_string(index), std::nullopt}, what);
  };
  if (table.strings.size() > limits.max_strings || table.strings.size() > 0x7FFFFFFF) {
    throw Error(ErrorKind::usage, {}, std::to_string(table.strings.size()) + " strings exceed the limit of " +
                                          std::to_string(limits.max_strings));
  }
  if (table.total_refs > 0x7FFFFFFF) throw Error(ErrorKind::usage, {}, "cstTotal exceeds 2^31-1");
  for (std::size_t i = 0; i < table.strings.size(); ++i) {
    const SstString& s = table.strings[i];
    if (s.text.size() > 0xFFFF) fail(i, std::to_string(s.text.size()) + " code units exceed 65535");
    if (s.runs && s.runs->size() > std::min<std::size_t>(limits.max_runs, 0xFFFF)) fail(i, "too many format runs");
    if (s.ext_rst && s.ext_rst->size() > std::min<std::size_t>(limits.max_ext_rst_bytes, 0x7FFFFFFF)) {
      fail(i, "ExtRst of " + std::to_string(s.ext_rst->size()) + " bytes exceeds the limit");
    }
  }
}

}  // namespace docconform::sst
