#include "docconform/sst/sink.h"

#include <lz4frame.h>
#include <sys/mman.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <system_error>
#include <thread>
#include <vector>

#include "common/inflate_stream.h"
#include "docconform/error.h"
#include "docconform/output_file.h"
#include "little_endian.h"
#include "output_buffer.h"

namespace docconform::sst {
namespace {

constexpr std::size_t huge_page_bytes = 2u << 20;

// ThreadSanitizer does not intercept mremap: memory moved by it keeps the access history of
// whatever was mapped at its new address before, and writes to two memory sinks of two
// threads, one after the other at the same address, were reported as races. Under it, the
// memory sink grows by copying.
#if defined(__SANITIZE_THREAD__)
constexpr bool grow_by_mremap = false;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool grow_by_mremap = false;
#else
constexpr bool grow_by_mremap = true;
#endif
#else
constexpr bool grow_by_mremap = true;
#endif

Error io_error(const std::string& path, const char* what) {
  return Error(ErrorKind::io, {path, "", std::nullopt}, std::string(what) + ": " + std::strerror(errno));
}

Error oversized_record() {
  return Error(ErrorKind::usage, {}, "record data exceeds " + std::to_string(max_record_data) + " bytes");
}

// Random-access file: buffered pwrite; an unknown record length is patched in the buffer when
// the header is still there, otherwise written back into the file with pwrite. Its offsets are
// the SST's own, so it writes only a file of its own: standard output, a FIFO or a device (whose
// earlier bytes it would overwrite, or which cannot seek) is refused before it is opened.
class RandomAccessFileSink final : public RecordSink {
 public:
  explicit RandomAccessFileSink(std::string path)
      : file_(std::move(path), OutputFile::Accept::regular_file),
        buffer_([this](const std::uint8_t* data, std::size_t size, std::uint64_t at) { file_.write_at(data, size, at); }) {}

  void begin_record(std::uint16_t type) override {
    header_at_ = position();
    put_byte(static_cast<std::uint8_t>(type));
    put_byte(static_cast<std::uint8_t>(type >> 8));
    put_byte(0);
    put_byte(0);
  }
  void put_byte(std::uint8_t value) override { *buffer_.claim(1) = value; }
  void end_record() override {
    const std::uint64_t length = position() - header_at_ - 4;
    if (length > max_record_data) throw oversized_record();
    std::uint8_t field[2];
    store_u16(field, static_cast<std::uint32_t>(length));
    // The header was written byte by byte, so a hand-off may have fallen inside it, even
    // between the two bytes of the length: each byte goes where it now is.
    for (std::uint64_t i = 0; i < 2; ++i) {
      if (std::uint8_t* byte = buffer_.unwritten(header_at_ + 2 + i)) {
        *byte = field[i];
      } else {
        buffer_.wait();  // else the buffer's own write could land after the patch
        file_.write_at(field + i, 1, header_at_ + 2 + i);
      }
    }
  }
  std::uint8_t* claim(std::size_t bytes) override {
    if (bytes > max_claim_bytes) throw oversized_record();
    return buffer_.claim(bytes);
  }
  void retract(std::size_t bytes) override { buffer_.retract(bytes); }
  void expect(std::uint64_t bytes) override { file_.reserve(position() + bytes); }
  void finish() override {
    buffer_.finish();
    file_.commit();
  }
  std::uint64_t position() const override { return buffer_.position(); }

 private:
  OutputFile file_;
  std::uint64_t header_at_ = 0;  // position of the open record's header
  OutputBuffer buffer_;          // last: its thread stops before the file closes
};

// Where a sequential sink's bytes go, in order: a file, or a compressor in front of one.
class Drain {
 public:
  virtual ~Drain() = default;
  virtual void write(const std::uint8_t* data, std::size_t size) = 0;
  // About `end` bytes of stream will have come in (a file allocates room for them).
  virtual void expect_end(std::uint64_t end) { (void)end; }
  virtual void close() = 0;
};

// Sequential output: nothing is ever rewritten, so a record of unknown length is held in a
// record buffer and written, header first, once it ends.
class SequentialSink final : public RecordSink {
 public:
  explicit SequentialSink(std::unique_ptr<Drain> drain)
      : drain_(std::move(drain)),
        record_(4 + max_record_data),
        buffer_([this](const std::uint8_t* data, std::size_t size, std::uint64_t) { drain_->write(data, size); }) {}

  void begin_record(std::uint16_t type) override {
    record_type_ = type;
    record_fill_ = 4;
  }
  void put_byte(std::uint8_t value) override {
    if (record_fill_ == record_.size()) throw oversized_record();
    record_[record_fill_++] = value;
  }
  void end_record() override {
    store_u16(&record_[0], record_type_);
    store_u16(&record_[2], static_cast<std::uint32_t>(record_fill_ - 4));
    std::memcpy(claim(record_fill_), record_.data(), record_fill_);
  }
  std::uint8_t* claim(std::size_t bytes) override {
    if (bytes > max_claim_bytes) throw oversized_record();
    return buffer_.claim(bytes);
  }
  void retract(std::size_t bytes) override { buffer_.retract(bytes); }
  void expect(std::uint64_t bytes) override { drain_->expect_end(position() + bytes); }
  void finish() override {
    buffer_.finish();
    drain_->close();
  }
  std::uint64_t position() const override { return buffer_.position(); }

 private:
  std::unique_ptr<Drain> drain_;
  std::vector<std::uint8_t> record_;
  std::size_t record_fill_ = 0;
  std::uint16_t record_type_ = 0;
  OutputBuffer buffer_;  // last: its thread stops before the drain goes
};

class FileDrain final : public Drain {
 public:
  explicit FileDrain(std::string path) : file_(std::move(path)) {}
  void write(const std::uint8_t* data, std::size_t size) override { file_.write(data, size); }
  void expect_end(std::uint64_t end) override { file_.reserve(end); }
  void close() override { file_.commit(); }

 private:
  OutputFile file_;
};

// zlib format at level 1: the point of compressing here is fewer bytes to the disk at a CPU
// cost well below the serialization itself.
class ZlibDrain final : public Drain {
 public:
  explicit ZlibDrain(std::string path) : file_(std::move(path)), out_(file_sink_buffer_bytes) {
    if (deflateInit(&stream_, 1) != Z_OK) throw Error(ErrorKind::io, {file_.path(), "", std::nullopt}, "deflateInit failed");
  }
  ~ZlibDrain() override { deflateEnd(&stream_); }

  void write(const std::uint8_t* data, std::size_t size) override { deflate_some(data, size, Z_NO_FLUSH); }
  void close() override {
    deflate_some(nullptr, 0, Z_FINISH);
    file_.commit();
  }

 private:
  void deflate_some(const std::uint8_t* data, std::size_t size, int flush) {
    stream_.next_in = const_cast<Bytef*>(data);
    stream_.avail_in = static_cast<uInt>(size);
    int status = Z_OK;
    do {
      stream_.next_out = out_.data();
      stream_.avail_out = static_cast<uInt>(out_.size());
      status = deflate(&stream_, flush);
      if (status == Z_STREAM_ERROR) throw Error(ErrorKind::io, {file_.path(), "", std::nullopt}, "deflate failed");
      file_.write(out_.data(), out_.size() - stream_.avail_out);
    } while (stream_.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END));
  }

  OutputFile file_;
  z_stream stream_{};
  std::vector<std::uint8_t> out_;
};

// LZ4 frame format, default preferences (64 KiB blocks, fast level): the same sequential stream
// as zlib at a fraction of the CPU, compressing less.
class Lz4Drain final : public Drain {
 public:
  explicit Lz4Drain(std::string path) : file_(std::move(path)) {
    LZ4F_cctx* context = nullptr;
    if (LZ4F_isError(LZ4F_createCompressionContext(&context, LZ4F_VERSION))) fail("LZ4F_createCompressionContext");
    context_.reset(context);  // freed even when a write below throws
    out_.resize(LZ4F_compressBound(file_sink_buffer_bytes, nullptr));
    const std::size_t header = LZ4F_compressBegin(context_.get(), out_.data(), out_.size(), nullptr);
    if (LZ4F_isError(header)) fail("LZ4F_compressBegin");
    file_.write(out_.data(), header);
  }

  // The sequential sink drains at most one buffer (file_sink_buffer_bytes) at a time.
  void write(const std::uint8_t* data, std::size_t size) override {
    const std::size_t n = LZ4F_compressUpdate(context_.get(), out_.data(), out_.size(), data, size, nullptr);
    if (LZ4F_isError(n)) fail("LZ4F_compressUpdate");
    file_.write(out_.data(), n);
  }
  void close() override {
    const std::size_t n = LZ4F_compressEnd(context_.get(), out_.data(), out_.size(), nullptr);
    if (LZ4F_isError(n)) fail("LZ4F_compressEnd");
    file_.write(out_.data(), n);
    file_.commit();
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw Error(ErrorKind::io, {file_.path(), "", std::nullopt}, std::string(what) + " failed");
  }

  struct FreeContext {
    void operator()(LZ4F_cctx* context) const { LZ4F_freeCompressionContext(context); }
  };
  OutputFile file_;
  std::unique_ptr<LZ4F_cctx, FreeContext> context_;
  std::vector<std::uint8_t> out_;
};

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error(path, "cannot open");
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

Error broken_stream(const std::string& path, const char* format, std::size_t offset) {
  return Error(ErrorKind::format, {path, "", offset}, std::string("not a complete ") + format + " stream");
}

std::string inflate_whole(const std::string& path, const std::string& packed) {
  InflateStream stream(default_inflater(), DeflateWrapper::zlib);
  std::string out;
  std::vector<std::uint8_t> buffer(file_sink_buffer_bytes);
  const auto* in = reinterpret_cast<const std::uint8_t*>(packed.data());
  std::size_t at = 0;
  for (;;) {
    const auto step = stream.inflate(in + at, packed.size() - at, buffer.data(), buffer.size(), true);
    at += step.consumed;
    out.append(reinterpret_cast<const char*>(buffer.data()), step.produced);
    if (step.status == InflateStatus::end) return out;
    if (step.status != InflateStatus::more) throw broken_stream(path, "zlib", stream.total_in());
  }
}

std::string lz4_decompress_whole(const std::string& path, const std::string& packed) {
  LZ4F_dctx* context = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&context, LZ4F_VERSION))) {
    throw Error(ErrorKind::io, {path, "", std::nullopt}, "LZ4F_createDecompressionContext failed");
  }
  std::string out;
  std::vector<char> buffer(file_sink_buffer_bytes);
  std::size_t at = 0;
  std::size_t hint = 1;  // 0 once a frame is complete
  while (at < packed.size() && hint != 0) {
    std::size_t produced = buffer.size();
    std::size_t consumed = packed.size() - at;
    hint = LZ4F_decompress(context, buffer.data(), &produced, packed.data() + at, &consumed, nullptr);
    if (LZ4F_isError(hint)) break;
    at += consumed;
    out.append(buffer.data(), produced);
  }
  LZ4F_freeDecompressionContext(context);
  if (hint != 0 || at != packed.size()) throw broken_stream(path, "LZ4 frame", at);
  return out;
}

}  // namespace

std::string read_sink_file(SinkKind kind, const std::string& path) {
  const std::string bytes = read_whole_file(path);
  switch (kind) {
    case SinkKind::zlib: return inflate_whole(path, bytes);
    case SinkKind::lz4: return lz4_decompress_whole(path, bytes);
    case SinkKind::file:
    case SinkKind::stream: return bytes;
    case SinkKind::memory: break;
  }
  throw Error(ErrorKind::usage, {}, "the memory sink has no file");
}

const char* to_string(SinkKind kind) {
  switch (kind) {
    case SinkKind::memory: return "memory";
    case SinkKind::file: return "file";
    case SinkKind::stream: return "stream";
    case SinkKind::zlib: return "zlib";
    case SinkKind::lz4: return "lz4";
  }
  return "unknown";
}

SinkKind parse_sink_kind(std::string_view name) {
  if (name == "memory") return SinkKind::memory;
  if (name == "file") return SinkKind::file;
  if (name == "stream") return SinkKind::stream;
  if (name == "zlib") return SinkKind::zlib;
  if (name == "lz4") return SinkKind::lz4;
  throw Error(ErrorKind::usage, {}, "unknown sink '" + std::string(name) + "' (memory, file, stream, zlib, lz4)");
}

namespace {

// Anonymous memory grown with mremap: no copy when it grows, and 2 MiB pages where the kernel
// allows, so tens of MB of output cost tens of page faults instead of thousands. The kernel
// zeroes each new page as it is first written: for expected output, a second thread takes that
// work off the writer (MADV_POPULATE_WRITE leaves contents unchanged, so it may run behind or
// ahead of the writer). The mapping never moves while it runs.
class MappedMemorySink final : public MemorySink {
 public:
  MappedMemorySink() = default;
  ~MappedMemorySink() override;
  MappedMemorySink(const MappedMemorySink&) = delete;
  MappedMemorySink& operator=(const MappedMemorySink&) = delete;

  void begin_record(std::uint16_t type) override;
  void put_byte(std::uint8_t value) override;
  void end_record() override;
  std::uint8_t* claim(std::size_t bytes) override;
  void retract(std::size_t bytes) override { size_ -= bytes; }
  void expect(std::uint64_t bytes) override;
  void finish() override { stop_prefault(); }
  std::uint64_t position() const override { return size_; }
  std::string_view bytes() const override { return {reinterpret_cast<const char*>(data_), size_}; }

 private:
  void grow(std::size_t needed);
  void stop_prefault();

  std::thread prefault_;
  std::atomic<bool> stop_{false};
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::size_t record_start_ = 0;
};

}  // namespace

std::unique_ptr<MemorySink> make_memory_sink() { return std::make_unique<MappedMemorySink>(); }

std::unique_ptr<RecordSink> make_file_sink(SinkKind kind, const std::string& path) {
  switch (kind) {
    case SinkKind::file: return std::make_unique<RandomAccessFileSink>(path);
    case SinkKind::stream: return std::make_unique<SequentialSink>(std::make_unique<FileDrain>(path));
    case SinkKind::zlib: return std::make_unique<SequentialSink>(std::make_unique<ZlibDrain>(path));
    case SinkKind::lz4: return std::make_unique<SequentialSink>(std::make_unique<Lz4Drain>(path));
    case SinkKind::memory: break;
  }
  throw Error(ErrorKind::usage, {}, "the memory sink has no file");
}

MappedMemorySink::~MappedMemorySink() {
  stop_prefault();
  if (data_ != nullptr) ::munmap(data_, capacity_);
}

void MappedMemorySink::expect(std::uint64_t bytes) {
  // A thread is started only for many pages: below this (two huge pages) the writer faults
  // them itself. Above the largest, the hint is not an SST's (their stream positions are
  // 32-bit) and is ignored.
  constexpr std::uint64_t prefault_from_bytes = 4u << 20;
  constexpr std::uint64_t largest_hint = std::uint64_t{1} << 32;
  if (bytes < prefault_from_bytes || bytes > largest_hint) return;
  stop_prefault();
  const std::size_t end = size_ + static_cast<std::size_t>(bytes);
  if (end > capacity_) grow(end);
  // Whole pages, from the one holding the next byte (populating a written page keeps it).
  std::uint8_t* const first = data_ + size_ / huge_page_bytes * huge_page_bytes;
  std::uint8_t* const last = data_ + std::min(capacity_, (end + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes);
  stop_ = false;
  try {
    prefault_ = std::thread([this, first, last] {
      for (std::uint8_t* p = first; p < last && !stop_.load(std::memory_order_relaxed); p += huge_page_bytes) {
        // Kernels before 5.14 lack MADV_POPULATE_WRITE: the writer then faults the pages itself.
        const std::size_t n = std::min<std::size_t>(huge_page_bytes, static_cast<std::size_t>(last - p));
        if (::madvise(p, n, MADV_POPULATE_WRITE) != 0) break;
      }
    });
  } catch (const std::system_error&) {
    // No thread to spare: the writer faults the pages itself.
  }
}

void MappedMemorySink::stop_prefault() {
  if (!prefault_.joinable()) return;
  stop_ = true;
  prefault_.join();
}

void MappedMemorySink::grow(std::size_t needed) {
  stop_prefault();  // the mapping may move
  std::size_t capacity = capacity_ == 0 ? std::size_t{1} << 16 : capacity_;
  while (capacity < needed) capacity *= 2;
  void* data = MAP_FAILED;
  if (data_ != nullptr && grow_by_mremap) {
    data = ::mremap(data_, capacity_, capacity, MREMAP_MAYMOVE);
  } else {
    data = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data != MAP_FAILED && data_ != nullptr) {
      std::memcpy(data, data_, size_);
      ::munmap(data_, capacity_);
    }
  }
  if (data == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<std::uint8_t*>(data);
  capacity_ = capacity;
  // Advice only: where transparent huge pages are off, the sink still works with 4 KiB pages.
  if (capacity >= huge_page_bytes) ::madvise(data_, capacity_, MADV_HUGEPAGE);
}

void MappedMemorySink::begin_record(std::uint16_t type) {
  record_start_ = size_;
  put_byte(static_cast<std::uint8_t>(type));
  put_byte(static_cast<std::uint8_t>(type >> 8));
  put_byte(0);
  put_byte(0);
}

void MappedMemorySink::put_byte(std::uint8_t value) {
  if (size_ == capacity_) grow(size_ + 1);
  data_[size_++] = value;
}

void MappedMemorySink::end_record() {
  const std::size_t length = size_ - record_start_ - 4;
  if (length > max_record_data) throw oversized_record();
  store_u16(data_ + record_start_ + 2, static_cast<std::uint32_t>(length));
}

std::uint8_t* MappedMemorySink::claim(std::size_t bytes) {
  if (capacity_ - size_ < bytes) grow(size_ + bytes);
  std::uint8_t* area = data_ + size_;
  size_ += bytes;
  return area;
}

}  // namespace docconform::sst
