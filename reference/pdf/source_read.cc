// The read()-based sources: pread per fetch (the per-object baseline), a read-ahead buffer, and
// the whole file in memory (the differential oracle).
#include <algorithm>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "docconform/error.h"
#include "posix_file.h"
#include "sources.h"

namespace docconform::pdf {
namespace {

constexpr std::size_t min_fetch = 4096;
const std::uint8_t nothing = 0;

// One pread of max(request, 4 KiB) per call, clamped at EOF; nothing is kept between calls.
class PreadSource final : public ByteSource {
 public:
  explicit PreadSource(const std::string& path) : ByteSource(path, 0), file_(path, counts_) {
    size_ = file_.stat_size();
    if (size_ == 0) throw Error(ErrorKind::range, {path, "", 0}, "file is empty");
  }
  const std::uint8_t* map(std::uint64_t offset, std::size_t size) override {
    check_range(offset, size);
    if (size == 0) return &nothing;
    const auto length = static_cast<std::size_t>(std::min<std::uint64_t>(std::max(size, min_fetch), size_ - offset));
    if (buffer_.size() < length) buffer_.resize(length);
    file_.pread_exact(offset, length, buffer_.data());
    return buffer_.data();
  }
  void verify_unchanged() override { file_.check_unchanged(size_); }
  SourceKind kind() const override { return SourceKind::pread; }
  std::unique_ptr<ByteSource> another() const override { return same_size(std::make_unique<PreadSource>(name_)); }

 private:
  PosixFile file_;
  std::vector<std::uint8_t> buffer_;
};

// Serves requests from a read-ahead buffer; a miss refills it from the requested offset with
// max(request, buffer size) bytes in one pread.
class BufferedSource final : public ByteSource {
 public:
  BufferedSource(const std::string& path, std::uint64_t capacity)
      : ByteSource(path, 0), file_(path, counts_), capacity_(static_cast<std::size_t>(std::max<std::uint64_t>(capacity, 1))) {
    size_ = file_.stat_size();
    if (size_ == 0) throw Error(ErrorKind::range, {path, "", 0}, "file is empty");
  }
  const std::uint8_t* map(std::uint64_t offset, std::size_t size) override {
    check_range(offset, size);
    if (size == 0) return &nothing;
    if (offset >= start_ && offset + size <= start_ + filled_) return buffer_.data() + (offset - start_);
    const auto length = static_cast<std::size_t>(std::min<std::uint64_t>(std::max(size, capacity_), size_ - offset));
    if (buffer_.size() < length) buffer_.resize(length);
    filled_ = 0;  // stays empty if the read throws
    file_.pread_exact(offset, length, buffer_.data());
    start_ = offset;
    filled_ = length;
    return buffer_.data();
  }
  void verify_unchanged() override { file_.check_unchanged(size_); }
  SourceKind kind() const override { return SourceKind::buffered; }
  std::unique_ptr<ByteSource> another() const override {
    return same_size(std::make_unique<BufferedSource>(name_, capacity_));
  }

 private:
  PosixFile file_;
  std::size_t capacity_;
  std::vector<std::uint8_t> buffer_;
  std::uint64_t start_ = 0;
  std::size_t filled_ = 0;
};

// The file a whole source was read from, kept open so that the end of a read can check that it
// kept its size (and modification time) meanwhile; its calls count apart from the source's.
struct OpenFile {
  OpenFile(const std::string& path) : file(path, counts) {}
  SourceCounts counts;
  PosixFile file;
};

// The bytes, and the file they came from (none for bytes given in memory), are shared
// (read-only) with the sources another() makes.
class MemorySource final : public ByteSource {
 public:
  MemorySource(std::string name, std::shared_ptr<const std::string> bytes, std::shared_ptr<OpenFile> file = {})
      : ByteSource(std::move(name), bytes->size()), bytes_(std::move(bytes)), file_(std::move(file)) {}
  const std::uint8_t* map(std::uint64_t offset, std::size_t size) override {
    check_range(offset, size);
    return reinterpret_cast<const std::uint8_t*>(bytes_->data()) + offset;
  }
  void verify_unchanged() override {
    if (file_) file_->file.check_unchanged(size_);
  }
  SourceKind kind() const override { return SourceKind::whole; }
  std::uint64_t held_bytes() const override { return file_ ? size_ : 0; }
  std::unique_ptr<ByteSource> another() const override { return std::make_unique<MemorySource>(name_, bytes_, file_); }
  SourceCounts& mutable_counts() { return counts_; }

 private:
  std::shared_ptr<const std::string> bytes_;
  std::shared_ptr<OpenFile> file_;
};

}  // namespace

std::unique_ptr<ByteSource> open_pread(const std::string& path) { return std::make_unique<PreadSource>(path); }

std::unique_ptr<ByteSource> open_buffered(const std::string& path, std::uint64_t buffer) {
  return std::make_unique<BufferedSource>(path, buffer);
}

std::unique_ptr<ByteSource> open_whole(const std::string& path, std::uint64_t max_memory) {
  auto opened = std::make_shared<OpenFile>(path);
  std::string bytes;
  const std::uint64_t size = opened->file.stat_size();
  if (size == 0) throw Error(ErrorKind::range, {path, "", 0}, "file is empty");
  const auto too_large = [&](const std::string& why) {
    return Error(ErrorKind::limit, {path, "", std::nullopt},
                 "the whole file (" + std::to_string(size) + " bytes) " + why +
                     ": the source `whole` holds it all; `mapped` or `pread` read it a window at a time");
  };
  if (size > max_memory) throw too_large("is larger than max_memory (" + std::to_string(max_memory) + " bytes)");
  try {
    bytes.resize(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    throw too_large("does not fit in memory");
  }
  opened->file.pread_exact(0, bytes.size(), bytes.data());
  const SourceCounts counts = std::exchange(opened->counts, SourceCounts{});
  auto source = std::make_unique<MemorySource>(path, std::make_shared<const std::string>(std::move(bytes)), opened);
  source->mutable_counts() = counts;
  return source;
}

std::unique_ptr<ByteSource> memory_source(std::string bytes, std::string name) {
  if (bytes.empty()) throw Error(ErrorKind::range, {name, "", 0}, "file is empty");
  return std::make_unique<MemorySource>(std::move(name), std::make_shared<const std::string>(std::move(bytes)));
}

}  // namespace docconform::pdf
