#include <unistd.h>

#include <algorithm>

#include "docconform/error.h"
#include "docconform/pdf/mapped.h"
#include "posix_file.h"
#include "sources.h"

namespace docconform::pdf {
namespace {

Error truncated(const std::string& file, std::uint64_t offset) {
  return Error(ErrorKind::io, {file, "", offset}, "file was truncated while mapped (bytes of the live view were lost)");
}

}  // namespace

ViewPlan plan_view(std::uint64_t offset, std::uint64_t size, std::uint64_t window, std::uint64_t granularity,
                   std::uint64_t file_size) {
  ViewPlan plan;
  plan.aligned = offset - offset % granularity;
  // Near the end of the file the view slides back to keep its size, so the reads of a file's
  // tail (startxref, the newest updates, objects they changed) share one view.
  if (window >= file_size || file_size - window < plan.aligned) {
    const std::uint64_t back = window >= file_size ? 0 : file_size - window;
    const std::uint64_t start = back % granularity == 0 ? back : back - back % granularity + granularity;
    plan.aligned = std::min(plan.aligned, start);
  }
  plan.delta = offset - plan.aligned;
  plan.length = window;
  if (plan.length < size + plan.delta) plan.length = size + plan.delta;  // straddle: grow this one view
  if (plan.length > file_size - plan.aligned) plan.length = file_size - plan.aligned;  // clamp at EOF (aligned <= offset < file_size)
  return plan;
}

MappedSource::MappedSource(const std::string& path, std::uint64_t window, std::uint64_t granularity)
    : ByteSource(path, 0), window_(window), granularity_(granularity) {
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  if (granularity == 0 || granularity % page != 0) {
    throw Error(ErrorKind::usage, {path, "", std::nullopt},
                "granularity " + std::to_string(granularity) + " is not a multiple of the page size " +
                    std::to_string(page));
  }
  if (window == 0) throw Error(ErrorKind::usage, {path, "", std::nullopt}, "window must not be 0");
  file_ = std::make_unique<PosixFile>(path, counts_);
  size_ = file_->stat_size();
  if (size_ == 0) throw Error(ErrorKind::range, {path, "", 0}, "file is empty");
}

MappedSource::~MappedSource() { unmap(); }

void MappedSource::unmap() {
  if (view_.data() == nullptr) return;
  ++counts_.unmap;
  view_.unmap();
}

const std::uint8_t* MappedSource::map(std::uint64_t offset, std::size_t size) {
  check_range(offset, size);
  static const std::uint8_t nothing = 0;
  if (size == 0) return &nothing;
  if (view_.truncated()) throw truncated(name_, offset);
  // Fast path: no kernel call while the range lies in the live view.
  if (view_.data() != nullptr && offset >= view_offset_ && offset + size <= view_offset_ + view_.size()) {
    return view_.data() + (offset - view_offset_);
  }
  const ViewPlan plan = plan_view(offset, size, window_, granularity_, size_);
  unmap();  // slide: never two views at once
  file_->check_unchanged(size_);
  ++counts_.map;
  view_.map(file_->fd(), plan.aligned, plan.length, {name_, "", offset});
  view_offset_ = plan.aligned;
  return view_.data() + plan.delta;
}

void MappedSource::copy_out(std::uint64_t offset, std::size_t size, void* out) {
  check_range(offset, size);
  if (size == 0) return;
  if (view_.truncated()) throw truncated(name_, offset);
  unmap();
  file_->pread_exact(offset, size, out);
}

void MappedSource::verify_unchanged() {
  if (view_.truncated()) throw truncated(name_, view_offset_);
  file_->check_unchanged(size_);
}

std::unique_ptr<ByteSource> MappedSource::another() const {
  return same_size(std::make_unique<MappedSource>(name_, window_, granularity_));
}

std::unique_ptr<ByteSource> open_mapped(const std::string& path, std::uint64_t window, std::uint64_t granularity) {
  return std::make_unique<MappedSource>(path, window, granularity);
}

}  // namespace docconform::pdf
