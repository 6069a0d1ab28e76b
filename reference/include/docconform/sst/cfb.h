// Compound File Binary [MS-CFB]: the container of a .xls. The writer makes the minimal file
// one stream needs (version 3, 512-byte sectors, FAT after the stream, DIFAT sectors when the
// FAT outgrows the header's 109 slots, one directory sector, no mini stream: the stream is
// padded to 4,096 bytes). The reader handles what real files use: 512- and 4096-byte sectors,
// DIFAT chains, the mini stream.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docconform/budget.h"
#include "docconform/sst/model.h"

namespace docconform::sst {

// A CFB file holding one stream named `name` with the given bytes.
std::string write_cfb(std::string_view stream, std::u16string_view name = u"Workbook");

class CfbReader {
 public:
  // Validates the header and loads the FAT, mini FAT and directory; throws Error naming `label`.
  // What it holds (those tables, and each stream read) is charged to memory when given.
  CfbReader(std::string_view file, const Limits& limits = {}, std::string label = {}, Budget* memory = nullptr);

  struct Entry {
    std::u16string name;
    std::uint8_t type = 0;  // 1 storage, 2 stream, 5 root
    std::uint32_t start = 0;
    std::uint64_t size = 0;
    std::uint64_t offset = 0;  // of the entry's 128 bytes in the file
  };
  const std::vector<Entry>& entries() const { return entries_; }

  // The first stream entry whose name equals `name` ignoring ASCII case.
  std::optional<std::size_t> find_stream(std::u16string_view name) const;
  std::string read_stream(std::size_t entry) const;

 private:
  // The sector chain from start (a field at start_offset); errors name the entry that breaks it.
  std::vector<std::uint32_t> chain(std::uint32_t start, std::uint64_t start_offset, bool mini, const char* what) const;
  // File offset of FAT (or mini FAT) entry `index`, for error messages.
  std::uint64_t fat_entry_offset(std::size_t index, bool mini) const;
  std::string_view sector(std::uint32_t id) const;
  // Where sector `id` starts in the file (after the header's sector).
  std::uint64_t sector_offset(std::uint32_t id) const { return (std::uint64_t{id} + 1) * sector_size_; }
  // Sector ids[i] of a chain from start_offset; one past the file's end is an error naming the
  // entry that links to it.
  std::string_view chain_sector(const std::vector<std::uint32_t>& ids, std::size_t i, std::uint64_t start_offset,
                                const char* what) const;
  // The truncation a sector id past the file's end shows: the message, naming what it is.
  std::string past_the_end(const std::string& what, std::uint32_t id) const;
  [[noreturn]] void fail(const std::string& part, std::uint64_t offset, const std::string& message) const;
  // Charges bytes held to the memory budget (if any); the error names part and offset.
  void charge(std::uint64_t bytes, const char* part, std::uint64_t offset) const;

  std::string_view file_;
  Limits limits_;
  std::string label_;
  Budget* memory_;
  std::size_t sector_size_ = 512;
  std::uint32_t sector_count_ = 0;
  std::uint32_t mini_cutoff_ = 4096;
  std::vector<std::uint32_t> fat_;
  std::vector<std::uint32_t> mini_fat_;
  std::vector<std::uint32_t> fat_sectors_, mini_fat_sectors_;  // where their entries are stored
  std::vector<std::uint64_t> fat_sector_listed_at_;            // where each FAT sector's id is written
  std::vector<Entry> entries_;
};

}  // namespace docconform::sst
