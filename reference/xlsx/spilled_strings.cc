#include "spilled_strings.h"

namespace docconform::xlsx {
namespace {

constexpr std::size_t cache_blocks = 1024;

}  // namespace

SpilledStrings::SpilledStrings(std::uint64_t memory_bytes) : memory_bytes_(memory_bytes) {}

bool SpilledStrings::over_limit(const std::u16string& arena, const std::vector<TextRef>& items) const {
  return over_limit(static_cast<double>(arena.size() * sizeof(char16_t) + items.size() * sizeof(TextRef)));
}

void SpilledStrings::take(std::u16string& arena, std::vector<TextRef>& items) {
  if (!file_) file_ = std::make_unique<ScratchFile>("the shared string table's temporary file");
  for (const TextRef& item : items) {
    if (count_ % block_strings == 0) block_offsets_.push_back(units_);
    const char16_t length[2] = {static_cast<char16_t>(item.length & 0xFFFF), static_cast<char16_t>(item.length >> 16)};
    file_->append(length, sizeof length);
    file_->append(arena.data() + item.offset, item.length * sizeof(char16_t));
    units_ += 2 + std::uint64_t{item.length};
    ++count_;
  }
  taken_ = true;
  // Buffers of a chunk's strings are kept for the next; larger ones given back.
  constexpr std::size_t kept_bytes = 4 << 20;
  arena.clear();
  items.clear();
  if (arena.capacity() * sizeof(char16_t) > kept_bytes) std::u16string().swap(arena);
  if (items.capacity() * sizeof(TextRef) > kept_bytes) std::vector<TextRef>().swap(items);
}

void SpilledStrings::clear() {
  if (file_) file_->clear();
  block_offsets_.clear();
  units_ = 0;
  count_ = 0;
  taken_ = false;
  cache_.clear();
  loaded_.clear();
  cached_bytes_ = 0;
}

std::u16string_view SpilledStrings::at(std::size_t i) {
  if (cache_.empty()) cache_.resize(cache_blocks);
  const std::size_t number = i / block_strings;
  Block& block = cache_[number % cache_blocks];
  if (block.number != number) load(block, number);
  const std::size_t k = i % block_strings;
  return {block.units.data() + block.start[k], block.length[k]};
}

void SpilledStrings::load(Block& block, std::size_t number) {
  const std::uint64_t begin = block_offsets_[number];
  const std::uint64_t end = number + 1 < block_offsets_.size() ? block_offsets_[number + 1] : units_;
  const std::uint64_t bytes = (end - begin) * sizeof(char16_t);
  // The cache stays within the table's memory (but for one block of longer strings): past it,
  // every block loaded since the cache was last emptied is dropped.
  cached_bytes_ -= block.units.capacity() * sizeof(char16_t);
  if (loaded_.size() > 2 * cache_blocks) {  // a slot loaded again is listed again: list each once
    loaded_.clear();
    for (std::size_t slot = 0; slot < cache_.size(); ++slot) {
      if (cache_[slot].number != static_cast<std::size_t>(-1)) loaded_.push_back(slot);
    }
  }
  if (cached_bytes_ + bytes > memory_bytes_) {
    for (const std::size_t slot : loaded_) {
      std::u16string().swap(cache_[slot].units);
      cache_[slot].number = static_cast<std::size_t>(-1);
    }
    loaded_.clear();
    cached_bytes_ = 0;
  }
  block.number = static_cast<std::size_t>(-1);  // until it is complete
  block.units.resize(static_cast<std::size_t>(end - begin));
  cached_bytes_ += block.units.capacity() * sizeof(char16_t);
  loaded_.push_back(number % cache_blocks);
  file_->read(begin * sizeof(char16_t), block.units.data(), static_cast<std::size_t>(bytes));
  std::size_t at = 0;
  for (std::size_t k = 0; k < block_strings && at < block.units.size(); ++k) {
    block.length[k] = static_cast<std::uint32_t>(block.units[at]) | static_cast<std::uint32_t>(block.units[at + 1]) << 16;
    block.start[k] = at + 2;
    at += 2 + block.length[k];
  }
  block.number = number;
}

}  // namespace docconform::xlsx
