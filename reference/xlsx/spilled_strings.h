// The shared string table of a streamed dump when it takes more memory than the dump may give
// it (LoadOptions::table_memory): its strings go to a temporary file, in table order, as they
// are read, and the dump reads them back a block at a time through a cache no larger than that.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/scratch_file.h"
#include "docconform/xlsx/workbook.h"

namespace docconform::xlsx {

class SpilledStrings {
 public:
  // memory_bytes: what the strings may take in memory (0: no limit, nothing is taken).
  explicit SpilledStrings(std::uint64_t memory_bytes);

  // Whether strings read so far (into arena, as items), or this many bytes, take more than may be held.
  bool over_limit(const std::u16string& arena, const std::vector<TextRef>& items) const;
  bool over_limit(double bytes) const { return memory_bytes_ != 0 && bytes > static_cast<double>(memory_bytes_); }
  // Appends the strings to the file, after those taken before, and empties arena and items.
  void take(std::u16string& arena, std::vector<TextRef>& items);
  // Forgets every string taken (the table is read again).
  void clear();
  // Whether the table is here rather than in memory.
  bool taken() const { return taken_; }
  std::size_t size() const { return count_; }
  // String i of those taken; the view is valid until the next call.
  std::u16string_view at(std::size_t i);

  static constexpr std::size_t block_strings = 256;  // strings read back at once

 private:
  // A block of strings read back: its units, and each string's start and length among them.
  struct Block {
    std::size_t number = static_cast<std::size_t>(-1);
    std::u16string units;
    std::array<std::size_t, block_strings> start{};
    std::array<std::uint32_t, block_strings> length{};
  };
  void load(Block& block, std::size_t number);

  std::uint64_t memory_bytes_;
  std::unique_ptr<ScratchFile> file_;  // made at the first string taken
  // In the file each string is its length (low then high 16 bits) and its UTF-16 units.
  std::vector<std::uint64_t> block_offsets_;  // the unit offset of each block's first string
  std::uint64_t units_ = 0;                   // units written
  std::size_t count_ = 0;
  bool taken_ = false;
  std::vector<Block> cache_;         // direct-mapped by block number
  std::vector<std::size_t> loaded_;  // the slots loaded since the cache was last emptied
  std::uint64_t cached_bytes_ = 0;
};

}  // namespace docconform::xlsx
