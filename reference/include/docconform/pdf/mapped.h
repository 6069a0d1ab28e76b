// The sliding-window mapper: one file, at most one live mmap view at a time.
//
// Truncation safety: before every remap the mapper fstat()s the file and refuses to map if its
// size changed since it was opened (Error io), so a view never covers bytes past the current
// end of file when it is created. A file *replaced* by rename is harmless (the descriptor keeps
// the old inode). A truncation by another process while a view is live makes the next read of
// the lost pages raise SIGBUS; with install_truncation_guard() (docconform/truncation_guard.h)
// that becomes an Error(io) from the source's next map() or verify_unchanged().
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "docconform/pdf/source.h"
#include "docconform/truncation_guard.h"

namespace docconform::pdf {

// Where a view for [offset, offset + size) goes: the aligned file offset, the distance of the
// request from it, and the view length (the window, grown to cover a straddling request,
// clamped at EOF; a view that would pass EOF starts earlier to keep the window's size). Pure
// arithmetic; granularity must be non-zero.
struct ViewPlan {
  std::uint64_t aligned = 0;
  std::uint64_t delta = 0;
  std::uint64_t length = 0;
};
ViewPlan plan_view(std::uint64_t offset, std::uint64_t size, std::uint64_t window, std::uint64_t granularity,
                   std::uint64_t file_size);

class PosixFile;

class MappedSource final : public ByteSource {
 public:
  // Throws Error(usage) if granularity is not a non-zero multiple of the page size or window is 0.
  MappedSource(const std::string& path, std::uint64_t window, std::uint64_t granularity);
  ~MappedSource() override;

  const std::uint8_t* map(std::uint64_t offset, std::size_t size) override;
  void copy_out(std::uint64_t offset, std::size_t size, void* out) override;
  void verify_unchanged() override;
  SourceKind kind() const override { return SourceKind::mapped; }
  std::unique_ptr<ByteSource> another() const override;

  std::uint64_t view_offset() const { return view_offset_; }
  std::uint64_t view_size() const { return view_.size(); }
  int live_views() const { return view_.data() != nullptr ? 1 : 0; }

 private:
  void unmap();

  std::unique_ptr<PosixFile> file_;
  std::uint64_t window_;
  std::uint64_t granularity_;
  WatchedMapping view_;
  std::uint64_t view_offset_ = 0;
};

}  // namespace docconform::pdf
