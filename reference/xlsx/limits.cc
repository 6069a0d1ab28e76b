#include "limits.h"

#include <algorithm>

namespace docconform::xlsx {

Limits Limits::fuzz() {
  Limits l;
  l.inflate_ratio = 50;
  l.inflate_floor = 8 << 20;
  l.inflate_cap = 32 << 20;
  l.max_part_bytes = 16 << 20;
  l.max_depth = 64;
  l.max_token_bytes = 1 << 20;
  l.max_row_bytes = 2 << 20;
  l.max_sheets = 64;
  l.max_zip_entries = 4096;
  l.max_cells = 1'000'000;
  l.max_shared_strings = 1'000'000;
  l.max_memory = 256 << 20;
  return l;
}

std::uint64_t Limits::inflate_budget(std::uint64_t file_size) const {
  const std::uint64_t scaled = file_size > inflate_cap / std::max<std::uint64_t>(inflate_ratio, 1)
                                   ? inflate_cap
                                   : file_size * inflate_ratio;
  return std::min(std::max(scaled, inflate_floor), inflate_cap);
}

ScanLimits scan_limits(const Limits& limits) {
  ScanLimits s;
  s.max_depth = limits.max_depth;
  s.max_token_bytes = limits.max_token_bytes;
  s.max_attributes = limits.max_attributes;
  return s;
}

}  // namespace docconform::xlsx
