// The bytes of a level-3 dump's next batch of objects, copied out of the file in file order, so
// that the batch can then be parsed in number order without moving a window back and forth over
// the file: in a file written over many updates, number order is random in the file.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "docconform/pdf/document.h"
#include "docconform/pdf/source.h"

namespace docconform::pdf {

// Where each object's bytes end: at the next place the cross-reference data names (another
// object, an xref section, the end of the file), plus a tail that covers the `endstream` probe
// after a stream's data.
class ObjectExtents {
 public:
  explicit ObjectExtents(Document& document);
  // The end (exclusive) of the bytes of the object that starts at offset.
  std::uint64_t end_of(std::uint64_t offset) const;

 private:
  std::vector<std::uint64_t> starts_;  // sorted, unique
  std::uint64_t size_;
};

struct ByteRange {
  std::uint64_t begin = 0, end = 0;
};

class HeldBytes {
 public:
  // Holds at most capacity bytes at a time: the buffer is allocated once, on the first fill.
  explicit HeldBytes(std::uint64_t capacity) : capacity_(capacity) {}
  // Replaces what is held with the ranges (merged where they overlap or touch; together at
  // most the capacity), copied out of sources[0..n): the ranges in file order are cut into n
  // shares of about equal size, share k copied out of sources[k] on up to n threads.
  void fill(std::vector<ByteRange> ranges, const std::vector<ByteSource*>& sources);
  // The bytes [offset, offset + size) when they are held in one piece, else nullptr.
  const std::uint8_t* find(std::uint64_t offset, std::size_t size) const;
  // How many bytes from offset on are held in one piece (0 when offset is not held).
  std::uint64_t held_from(std::uint64_t offset) const;

 private:
  struct Run {
    std::uint64_t offset = 0, size = 0, at = 0;  // at: where the run starts in bytes_
  };
  const Run* run_at(std::uint64_t offset) const;

  std::vector<Run> runs_;  // sorted by offset, disjoint
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::uint64_t capacity_;
};

// A source that serves what a HeldBytes holds and leaves every other request to the source it
// wraps (whose kernel calls are the ones counted).
class HeldSource final : public ByteSource {
 public:
  HeldSource(const HeldBytes& held, ByteSource& fallback);
  const std::uint8_t* map(std::uint64_t offset, std::size_t size) override;
  std::uint64_t held_from(std::uint64_t offset) const override { return held_.held_from(offset); }
  void verify_unchanged() override { fallback_.verify_unchanged(); }
  std::unique_ptr<ByteSource> another() const override { return fallback_.another(); }
  SourceKind kind() const override { return fallback_.kind(); }

 private:
  const HeldBytes& held_;
  ByteSource& fallback_;
};

}  // namespace docconform::pdf
