#include "docconform/sst/sink.h"

#include <fcntl.h>
#include <lz4frame.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <vector>

#include "docconform/error.h"
#include "little_endian.h"

namespace docconform::sst {
namespace {

constexpr std::size_t huge_page_bytes = 2u << 20;

Error io_error(const std::string& path, const char* what) {
  return Error(ErrorKind::io, {path, "", std::nullopt}, std::string(what) + ": " + std::strerror(errno));
}

Error oversized_record() {
  return Error(ErrorKind::usage, {}, "record data exceeds " + std::to_string(max_record_data) + " bytes");
}

int open_output(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw io_error(path, "cannot create");
  return fd;
}

void close_output(int& fd, const std::string& path) {
  if (fd < 0) return;
  const int status = ::close(fd);
  fd = -1;
  if (status != 0) throw io_error(path, "close failed");
}

// Random-access file: buffered pwrite; an unknown record length is patched in the buffer when
// the header is still there, otherwise written back into the file with pwrite.
class RandomAccessFileSink final : public RecordSink {
 public:
  explicit RandomAccessFileSink(std::string path) : path_(std::move(path)), fd_(open_output(path_)), buffer_(file_sink_buffer_bytes) {}
  ~RandomAccessFileSink() override {
    if (fd_ >= 0) ::close(fd_);
  }

  void begin_record(std::uint16_t type) override {
    header_at_ = position();
    put_byte(static_cast<std::uint8_t>(type));
    put_byte(static_cast<std::uint8_t>(type >> 8));
    put_byte(0);
    put_byte(0);
  }
  void put_byte(std::uint8_t value) override {
    if (fill_ == buffer_.size()) flush();
    buffer_[fill_++] = value;
  }
  void end_record() override {
    const std::uint64_t length = position() - header_at_ - 4;
    if (length > max_record_data) throw oversized_record();
    std::uint8_t field[2];
    store_u16(field, static_cast<std::uint32_t>(length));
    // The header was written byte by byte, so a flush may have fallen inside it, even between
    // the two bytes of the length: the flushed part goes to the file, the rest to the buffer.
    const std::uint64_t at = header_at_ + 2;
    const std::size_t in_file = at >= flushed_ ? 0 : static_cast<std::size_t>(std::min<std::uint64_t>(2, flushed_ - at));
    if (in_file > 0) pwrite_all(field, in_file, at);
    if (in_file < 2) std::memcpy(&buffer_[at + in_file - flushed_], field + in_file, 2 - in_file);
  }
  std::uint8_t* claim(std::size_t bytes) override {
    if (bytes > max_claim_bytes) throw oversized_record();
    if (buffer_.size() - fill_ < bytes) flush();
    std::uint8_t* area = &buffer_[fill_];
    fill_ += bytes;
    return area;
  }
  void retract(std::size_t bytes) override { fill_ -= bytes; }
  void finish() override {
    flush();
    close_output(fd_, path_);
  }
  std::uint64_t position() const override { return flushed_ + fill_; }

 private:
  void pwrite_all(const std::uint8_t* data, std::size_t size, std::uint64_t offset) {
    while (size > 0) {
      const ssize_t n = ::pwrite(fd_, data, size, static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw io_error(path_, "pwrite failed");
      data += n;
      size -= static_cast<std::size_t>(n);
      offset += static_cast<std::uint64_t>(n);
    }
  }
  void flush() {
    pwrite_all(buffer_.data(), fill_, flushed_);
    flushed_ += fill_;
    fill_ = 0;
  }

  std::string path_;
  int fd_;
  std::vector<std::uint8_t> buffer_;
  std::size_t fill_ = 0;
  std::uint64_t flushed_ = 0;    // file offset of buffer_[0]
  std::uint64_t header_at_ = 0;  // position of the open record's header
};

// Sequential output: nothing is ever rewritten, so a record of unknown length is held in a
// record buffer and written, header first, once it ends.
class SequentialSink : public RecordSink {
 public:
  SequentialSink() : buffer_(file_sink_buffer_bytes), record_(4 + max_record_data) {}

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
    if (buffer_.size() - fill_ < bytes) flush();
    std::uint8_t* area = &buffer_[fill_];
    fill_ += bytes;
    position_ += bytes;
    return area;
  }
  void retract(std::size_t bytes) override {
    fill_ -= bytes;
    position_ -= bytes;
  }
  void finish() override {
    flush();
    close();
  }
  std::uint64_t position() const override { return position_; }

 protected:
  virtual void drain(const std::uint8_t* data, std::size_t size) = 0;
  virtual void close() = 0;

 private:
  void flush() {
    if (fill_ > 0) drain(buffer_.data(), fill_);
    fill_ = 0;
  }

  std::vector<std::uint8_t> buffer_;
  std::size_t fill_ = 0;
  std::uint64_t position_ = 0;
  std::vector<std::uint8_t> record_;
  std::size_t record_fill_ = 0;
  std::uint16_t record_type_ = 0;
};

// A file written front to back with write(2), unbuffered: the sinks that use it hand it
// batches (the sequential sink's buffer, deflate's output).
class Output {
 public:
  explicit Output(std::string path) : path_(std::move(path)), fd_(open_output(path_)) {}
  ~Output() {
    if (fd_ >= 0) ::close(fd_);
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  const std::string& path() const { return path_; }
  void write(const std::uint8_t* data, std::size_t size) {
    while (size > 0) {
      const ssize_t n = ::write(fd_, data, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw io_error(path_, "write failed");
      data += n;
      size -= static_cast<std::size_t>(n);
    }
  }
  void finish() { close_output(fd_, path_); }

 private:
  std::string path_;
  int fd_;
};

class StreamFileSink final : public SequentialSink {
 public:
  explicit StreamFileSink(std::string path) : file_(std::move(path)) {}

 protected:
  void drain(const std::uint8_t* data, std::size_t size) override { file_.write(data, size); }
  void close() override { file_.finish(); }

 private:
  Output file_;
};

// zlib format at level 1: the point of compressing here is fewer bytes to the disk at a CPU
// cost well below the serialization itself.
class ZlibFileSink final : public SequentialSink {
 public:
  explicit ZlibFileSink(std::string path) : file_(std::move(path)), out_(file_sink_buffer_bytes) {
    if (deflateInit(&stream_, 1) != Z_OK) throw Error(ErrorKind::io, {file_.path(), "", std::nullopt}, "deflateInit failed");
  }
  ~ZlibFileSink() override { deflateEnd(&stream_); }

 protected:
  void drain(const std::uint8_t* data, std::size_t size) override { deflate_some(data, size, Z_NO_FLUSH); }
  void close() override {
    deflate_some(nullptr, 0, Z_FINISH);
    file_.finish();
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

  Output file_;
  z_stream stream_{};
  std::vector<std::uint8_t> out_;
};

// LZ4 frame format, default preferences (64 KiB blocks, fast level): the same sequential stream
// as zlib at a fraction of the CPU, compressing less.
class Lz4FileSink final : public SequentialSink {
 public:
  explicit Lz4FileSink(std::string path) : file_(std::move(path)) {
    if (LZ4F_isError(LZ4F_createCompressionContext(&context_, LZ4F_VERSION))) fail("LZ4F_createCompressionContext");
    out_.resize(LZ4F_compressBound(file_sink_buffer_bytes, nullptr));
    const std::size_t header = LZ4F_compressBegin(context_, out_.data(), out_.size(), nullptr);
    if (LZ4F_isError(header)) fail("LZ4F_compressBegin");
    file_.write(out_.data(), header);
  }
  ~Lz4FileSink() override { LZ4F_freeCompressionContext(context_); }

 protected:
  // The sequential sink drains at most its buffer (file_sink_buffer_bytes) at a time.
  void drain(const std::uint8_t* data, std::size_t size) override {
    const std::size_t n = LZ4F_compressUpdate(context_, out_.data(), out_.size(), data, size, nullptr);
    if (LZ4F_isError(n)) fail("LZ4F_compressUpdate");
    file_.write(out_.data(), n);
  }
  void close() override {
    const std::size_t n = LZ4F_compressEnd(context_, out_.data(), out_.size(), nullptr);
    if (LZ4F_isError(n)) fail("LZ4F_compressEnd");
    file_.write(out_.data(), n);
    file_.finish();
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw Error(ErrorKind::io, {file_.path(), "", std::nullopt}, std::string(what) + " failed");
  }

  Output file_;
  LZ4F_cctx* context_ = nullptr;
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
  z_stream z{};
  if (inflateInit(&z) != Z_OK) throw Error(ErrorKind::io, {path, "", std::nullopt}, "inflateInit failed");
  std::string out;
  std::vector<char> buffer(file_sink_buffer_bytes);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
  z.avail_in = static_cast<uInt>(packed.size());
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    z.next_out = reinterpret_cast<Bytef*>(buffer.data());
    z.avail_out = static_cast<uInt>(buffer.size());
    status = inflate(&z, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END) {
      const std::size_t at = packed.size() - z.avail_in;
      inflateEnd(&z);
      throw broken_stream(path, "zlib", at);
    }
    out.append(buffer.data(), buffer.size() - z.avail_out);
  }
  inflateEnd(&z);
  return out;
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

std::unique_ptr<MemorySink> make_memory_sink() { return std::make_unique<MemorySink>(); }

std::unique_ptr<RecordSink> make_file_sink(SinkKind kind, const std::string& path) {
  switch (kind) {
    case SinkKind::file: return std::make_unique<RandomAccessFileSink>(path);
    case SinkKind::stream: return std::make_unique<StreamFileSink>(path);
    case SinkKind::zlib: return std::make_unique<ZlibFileSink>(path);
    case SinkKind::lz4: return std::make_unique<Lz4FileSink>(path);
    case SinkKind::memory: break;
  }
  throw Error(ErrorKind::usage, {}, "the memory sink has no file");
}

MemorySink::MemorySink() = default;
MemorySink::~MemorySink() {
  if (data_ != nullptr) ::munmap(data_, capacity_);
}

void MemorySink::grow(std::size_t needed) {
  std::size_t capacity = capacity_ == 0 ? std::size_t{1} << 16 : capacity_;
  while (capacity < needed) capacity *= 2;
  void* data = data_ == nullptr ? ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                                : ::mremap(data_, capacity_, capacity, MREMAP_MAYMOVE);
  if (data == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<std::uint8_t*>(data);
  capacity_ = capacity;
  // Advice only: where transparent huge pages are off, the sink still works with 4 KiB pages.
  if (capacity >= huge_page_bytes) ::madvise(data_, capacity_, MADV_HUGEPAGE);
}

void MemorySink::begin_record(std::uint16_t type) {
  record_start_ = size_;
  put_byte(static_cast<std::uint8_t>(type));
  put_byte(static_cast<std::uint8_t>(type >> 8));
  put_byte(0);
  put_byte(0);
}

void MemorySink::put_byte(std::uint8_t value) {
  if (size_ == capacity_) grow(size_ + 1);
  data_[size_++] = value;
}

void MemorySink::end_record() {
  const std::size_t length = size_ - record_start_ - 4;
  if (length > max_record_data) throw oversized_record();
  store_u16(data_ + record_start_ + 2, static_cast<std::uint32_t>(length));
}

std::uint8_t* MemorySink::claim(std::size_t bytes) {
  if (capacity_ - size_ < bytes) grow(size_ + bytes);
  std::uint8_t* area = data_ + size_;
  size_ += bytes;
  return area;
}

}  // namespace docconform::sst
