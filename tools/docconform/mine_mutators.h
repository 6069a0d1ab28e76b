// Structure-aware mutators for `conform mine` (conform_mine.h): each makes one change to an input
// of a format, at a level its readers care about (zip parts, XML, PDF tokens and xref, BIFF
// records, UTF-8 sequences), and says what it did. Every choice comes from a splitmix64
// generator, so a seed and an input number name a mutant on every machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "docconform/random.h"

namespace docconform::cli {

struct Mutator {
  SplitMix64 rng;
  std::vector<std::string> tokens;  // the format's dictionary (fuzz/*.dict), inserted by some mutations
  std::size_t max_bytes = std::size_t{4} << 20;  // a mutation that would grow the input past this is not made

  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng.below(n)); }
  template <class T>
  const T& choose(const std::vector<T>& items) { return items[below(items.size())]; }
};

// One mutation of an input of the format (xlsx, pdf, pdf3, sst, sstw, utf8); appends its
// description ("<mutation> <where>: <what>") to steps. A mutation the input offers no place for
// falls back to a byte-level one.
std::string mutate_once(const std::string& format, const std::string& input, Mutator& m, std::vector<std::string>& steps);

// The families, each one mutation with its description in `step`.
std::string mutate_bytes(const std::string& input, Mutator& m, std::string& step);
std::string mutate_xlsx(const std::string& input, Mutator& m, std::string& step);
std::string mutate_xml(const std::string& xml, Mutator& m, std::string& step);
std::string mutate_pdf(const std::string& input, Mutator& m, std::string& step);
std::string mutate_biff(const std::string& input, Mutator& m, std::string& step);
std::string mutate_utf8(const std::string& input, Mutator& m, std::string& step);
std::string mutate_lines(const std::string& input, Mutator& m, std::string& step);

// The tokens of an AFL/libFuzzer dictionary ("name=" optional, "..." with \\, \" and \xNN
// escapes); a missing file has none.
std::vector<std::string> read_dictionary(const std::string& path);
// The dictionaries (file names under fuzz/) whose tokens suit a format.
std::vector<std::string> format_dictionaries(const std::string& format);

// A zip archive's parts, in order, as libzip reads them; nullopt when it cannot.
struct ZipPart {
  std::string name;
  std::string data;
  bool stored = false;  // kept uncompressed
};
std::optional<std::vector<ZipPart>> read_zip(const std::string& bytes);
std::string write_zip(const std::vector<ZipPart>& parts);

// The records of a BIFF stream from `start` while their headers fit: {offset, type, length}.
struct BiffRecord {
  std::size_t offset;
  std::uint16_t type;
  std::uint16_t length;
};
std::vector<BiffRecord> biff_records(const std::string& bytes, std::size_t start);
// Where a workbook's BIFF8 stream starts in an .xls (its BOF record), or 0 for a bare record file.
std::size_t biff_start(const std::string& bytes);
bool is_cfb(const std::string& bytes);

}  // namespace docconform::cli
