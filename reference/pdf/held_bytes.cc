#include "held_bytes.h"

#include <algorithm>
#include <stdexcept>

#include "docconform/parallel.h"

namespace docconform::pdf {
namespace {

// The reader probes this many bytes after a stream's data for `endstream` (Document::read_at).
constexpr std::uint64_t stream_tail_probe = 64;

}  // namespace

ObjectExtents::ObjectExtents(Document& document) : size_(document.source().size()) {
  for (const XrefEntry& e : document.xref()) {
    if (e.type == XrefEntry::Type::offset && e.offset < size_) starts_.push_back(e.offset);
  }
  for (const XrefSection& section : document.sections()) starts_.push_back(section.offset + document.header_offset());
  std::sort(starts_.begin(), starts_.end());
  starts_.erase(std::unique(starts_.begin(), starts_.end()), starts_.end());
}

std::uint64_t ObjectExtents::end_of(std::uint64_t offset) const {
  const auto next = std::upper_bound(starts_.begin(), starts_.end(), offset);
  const std::uint64_t end = next == starts_.end() ? size_ : *next;
  return std::min(end + stream_tail_probe, size_);
}

void HeldBytes::fill(std::vector<ByteRange> ranges, const std::vector<ByteSource*>& sources) {
  runs_.clear();
  std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
  std::uint64_t total = 0;
  for (const ByteRange& r : ranges) {
    if (r.end <= r.begin) continue;
    if (!runs_.empty() && r.begin <= runs_.back().offset + runs_.back().size) {
      Run& last = runs_.back();
      const std::uint64_t end = std::max(last.offset + last.size, r.end);
      total += end - (last.offset + last.size);
      last.size = end - last.offset;
    } else {
      runs_.push_back({r.begin, r.end - r.begin, total});
      total += r.end - r.begin;
    }
  }
  if (total > capacity_) throw std::logic_error("HeldBytes::fill: the ranges exceed the capacity");
  if (!bytes_ && total > 0) bytes_.reset(new std::uint8_t[capacity_]);
  // Share k copies runs [first[k], first[k + 1]): cut where the bytes so far pass k / n.
  const std::size_t shares = std::max<std::size_t>(1, std::min(sources.size(), runs_.size()));
  std::vector<std::size_t> first(shares + 1, runs_.size());
  first[0] = 0;
  for (std::size_t i = 0, k = 1; i < runs_.size() && k < shares; ++i) {
    if (runs_[i].at * shares >= total * k) first[k++] = i;
  }
  // A fill is a copy, and the kernel's (one pread a run) costs no page faults, page-table setup
  // or teardown: through a window, each short run far from the others faults in pages of its
  // own (the kernel maps up to 64 KiB around each fault). On this host the level-3 digest took
  // 1.03x as long through the window on the classic file, 1.05x on the 1.97 GB one and up to
  // 1.1x on the objstm one.
  parallel_for_serial_error(shares, static_cast<unsigned>(shares), [&](std::size_t k, unsigned) {
    for (std::size_t i = first[k]; i < first[k + 1]; ++i) {
      sources[k]->copy_out(runs_[i].offset, static_cast<std::size_t>(runs_[i].size), bytes_.get() + runs_[i].at);
    }
  });
}

const HeldBytes::Run* HeldBytes::run_at(std::uint64_t offset) const {
  auto it = std::upper_bound(runs_.begin(), runs_.end(), offset, [](std::uint64_t o, const Run& r) { return o < r.offset; });
  if (it == runs_.begin()) return nullptr;
  --it;
  return offset < it->offset + it->size ? &*it : nullptr;
}

const std::uint8_t* HeldBytes::find(std::uint64_t offset, std::size_t size) const {
  const Run* run = run_at(offset);
  if (run == nullptr || size > run->offset + run->size - offset) return nullptr;
  return bytes_.get() + run->at + (offset - run->offset);
}

std::uint64_t HeldBytes::held_from(std::uint64_t offset) const {
  const Run* run = run_at(offset);
  return run == nullptr ? 0 : run->offset + run->size - offset;
}

HeldSource::HeldSource(const HeldBytes& held, ByteSource& fallback)
    : ByteSource(fallback.name(), fallback.size()), held_(held), fallback_(fallback) {}

const std::uint8_t* HeldSource::map(std::uint64_t offset, std::size_t size) {
  if (const std::uint8_t* bytes = held_.find(offset, size)) return bytes;
  return fallback_.map(offset, size);
}

}  // namespace docconform::pdf
