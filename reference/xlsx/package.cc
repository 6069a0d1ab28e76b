#include "package.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>


#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "docconform/input_file.h"
#include "docconform/error.h"
#include "limits.h"
#include "xml_scanner.h"
#include "xml_text.h"

namespace docconform::xlsx {
namespace {

std::string zip_error_text(zip_error_t* error) {
  const char* text = zip_error_strerror(error);
  return text ? text : "unknown zip error";
}

// Opening an archive converts DOS timestamps with the C library's time zone state (tzset), which
// is not safe to run from several threads at once: opens are serialized. Reading is not.
std::mutex& open_mutex() {
  static std::mutex m;
  return m;
}

zip_t* open_zip(const std::uint8_t* data, std::size_t size, std::string& message) {
  const std::lock_guard lock(open_mutex());
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(data, size, 0, &error);
  if (source == nullptr) {
    message = zip_error_text(&error);
    zip_error_fini(&error);
    return nullptr;
  }
  zip_t* zip = zip_open_from_source(source, ZIP_RDONLY, &error);
  if (zip == nullptr) {
    message = zip_error_text(&error);
    zip_source_free(source);
  }
  zip_error_fini(&error);
  return zip;
}

std::uint64_t load_le(const std::uint8_t* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

struct ZipDiscard {
  void operator()(zip_t* zip) const { zip_discard(zip); }
};

struct EntryCount {
  std::uint64_t count = 0;
  std::uint64_t offset = 0;  // of the end record that states it
};

// The entry count the end of central directory record states (the ZIP64 one when the classic
// record defers to it), read before libzip indexes every entry; nothing when there is no record.
std::optional<EntryCount> stated_entry_count(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t eocd_size = 22;
  if (size < eocd_size) return std::nullopt;
  const std::size_t lowest = size > eocd_size + 0xFFFF ? size - eocd_size - 0xFFFF : 0;
  for (std::size_t at = size - eocd_size + 1; at-- > lowest;) {
    if (load_le(data + at, 4) != 0x06054B50) continue;
    EntryCount found{load_le(data + at + 10, 2), at};
    // ZIP64 locator (20 bytes) just before, pointing at the ZIP64 record (count at +32).
    if (found.count == 0xFFFF && at >= 20 && load_le(data + at - 20, 4) == 0x07064B50) {
      const std::uint64_t record = load_le(data + at - 12, 8);
      if (size >= 56 && record <= size - 56 && load_le(data + record, 4) == 0x06064B50) {
        found = {load_le(data + record + 32, 8), record};
      }
    }
    return found;
  }
  return std::nullopt;
}

// The central directory records in order (libzip lists entries in directory order), walked from
// the end record `stated` names: where each starts. Empty when the walk does not find well-formed
// records (the checks that use them are then skipped; libzip has read the directory its own way).
std::vector<std::uint64_t> directory_records(const std::uint8_t* data, std::size_t size,
                                             const std::optional<EntryCount>& stated, std::uint64_t entries) {
  if (!stated) return {};
  const bool zip64 = load_le(data + stated->offset, 4) == 0x06064B50;
  std::uint64_t at = zip64 ? load_le(data + stated->offset + 48, 8) : load_le(data + stated->offset + 16, 4);
  std::vector<std::uint64_t> records;
  records.reserve(static_cast<std::size_t>(entries));
  for (std::uint64_t i = 0; i < entries; ++i) {
    if (at > size || size - at < 46 || load_le(data + at, 4) != 0x02014B50) return {};
    records.push_back(at);
    at += 46 + load_le(data + at + 28, 2) + load_le(data + at + 30, 2) + load_le(data + at + 32, 2);
  }
  return records;
}

struct ZipDamage {
  std::string part;
  std::uint64_t offset = 0;
  std::string message;
};

// Why an archive libzip cannot open is damaged, where the bytes show it: the end of central
// directory record missing from a file that starts as a zip (cut short), or a record whose
// directory lies past it or past the file's end. Nothing when the bytes show no such cause.
std::optional<ZipDamage> zip_damage(const std::uint8_t* data, std::size_t size, const std::optional<EntryCount>& stated) {
  const std::string end_record = "zip end of central directory";
  if (!stated) {
    if (size < 4 || load_le(data, 4) != 0x04034B50) return std::nullopt;
    return ZipDamage{end_record, size,
                     "truncated: the file starts with a zip entry but does not end with an end of central directory "
                     "record (22 bytes, within the last 65,557)"};
  }
  if (load_le(data + stated->offset, 4) != 0x06054B50) return std::nullopt;  // a ZIP64 record: left to libzip
  const std::uint64_t directory = load_le(data + stated->offset + 16, 4);
  const std::uint64_t length = load_le(data + stated->offset + 12, 4);
  if (directory == 0xFFFFFFFF || length == 0xFFFFFFFF) return std::nullopt;
  if (directory + length > stated->offset) {
    return ZipDamage{end_record, stated->offset + 12,
                     "the central directory it states (" + std::to_string(length) + " bytes at offset " + std::to_string(directory) +
                         ") runs past the record itself at " + std::to_string(stated->offset) +
                         ": the file is truncated or the record damaged"};
  }
  if (length >= 4 && load_le(data + directory, 4) != 0x02014B50) {
    return ZipDamage{"zip central directory", directory,
                     "no central directory record (PK\\1\\2) where the end record at " + std::to_string(stated->offset) +
                         " places the directory"};
  }
  return std::nullopt;
}

// The relationship kind of a type URI: its last segment under the namespaces that define the
// SpreadsheetML relationships (ECMA-376 Part 1 transitional and strict, MS-XLSX extensions);
// empty for any other URI, which matches no kind the reader follows.
std::string relationship_kind(const std::string& type) {
  static constexpr std::string_view namespaces[] = {
      "http://schemas.openxmlformats.org/officeDocument/2006/relationships/",
      "http://purl.oclc.org/ooxml/officeDocument/relationships/",
      "http://schemas.microsoft.com/office/2006/relationships/",
  };
  for (const std::string_view ns : namespaces) {
    if (type.size() > ns.size() && type.compare(0, ns.size(), ns) == 0 &&
        type.find('/', ns.size()) == std::string::npos) {
      return type.substr(ns.size());
    }
  }
  return {};
}

}  // namespace

std::string part_key(std::string_view name) {
  std::string key;
  key.reserve(name.size());
  for (char c : name) {
    if (c == '\\') c = '/';
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    key += c;
  }
  const std::size_t start = key.find_first_not_of('/');
  return start == std::string::npos ? std::string() : key.substr(start);
}

Package::Package(const std::uint8_t* data, std::size_t size, std::string label, const Limits& limits,
                 InflaterKind inflater)
    : data_(data), size_(size), label_(std::move(label)), limits_(limits), inflater_(inflater), budget_(limits.inflate_budget(size)) {
  static constexpr std::uint8_t cfb_magic[] = {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1};
  if (size >= sizeof cfb_magic && std::memcmp(data, cfb_magic, sizeof cfb_magic) == 0) {
    fail(ErrorKind::unsupported, "", 0, "a Compound File container, not a zip: an encrypted workbook or a .xls file");
  }
  const auto stated = stated_entry_count(data, size);
  if (stated && stated->count > limits_.max_zip_entries) {
    fail(ErrorKind::limit, "", stated->offset,
         "the central directory states " + std::to_string(stated->count) + " entries, over max_zip_entries (" +
             std::to_string(limits_.max_zip_entries) + ")");
  }
  std::string message;
  std::unique_ptr<zip_t, ZipDiscard> zip(size == 0 ? nullptr : open_zip(data, size, message));
  if (!zip) {
    if (size == 0) fail(ErrorKind::format, "", 0, "not a readable zip archive: empty file");
    if (const auto damage = zip_damage(data, size, stated)) fail(ErrorKind::format, damage->part, damage->offset, damage->message);
    fail(ErrorKind::format, "", stated ? stated->offset : 0, "not a readable zip archive: " + message);
  }
  const zip_int64_t entries = zip_get_num_entries(zip.get(), 0);
  if (entries < 0) fail(ErrorKind::format, "", std::nullopt, "cannot read the zip central directory");
  if (static_cast<std::uint64_t>(entries) > limits_.max_zip_entries) {
    fail(ErrorKind::limit, "", std::nullopt,
         "zip has " + std::to_string(entries) + " entries, over max_zip_entries (" + std::to_string(limits_.max_zip_entries) + ")");
  }
  names_.resize(static_cast<std::size_t>(entries));
  sizes_.resize(static_cast<std::size_t>(entries));
  for (zip_int64_t i = 0; i < entries; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(zip.get(), static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW, &st) != 0 || st.name == nullptr) {
      fail(ErrorKind::format, "", std::nullopt, "cannot read zip entry " + std::to_string(i));
    }
    names_[static_cast<std::size_t>(i)] = st.name;
    sizes_[static_cast<std::size_t>(i)] = (st.valid & ZIP_STAT_SIZE) ? st.size : 0;
  }
  records_ = directory_records(data, size, stated, static_cast<std::uint64_t>(entries));
  for (std::size_t i = 0; i < names_.size(); ++i) {
    // A zip path has no leading slash (APPNOTE 4.4.17), and an OPC item name is its part name
    // without the leading '/': "/xl/a.xml" would name the part "//xl/a.xml", which is no part name.
    if (!names_[i].empty() && (names_[i][0] == '/' || names_[i][0] == '\\')) {
      fail(ErrorKind::format, names_[i], record_offset(i), "zip entry name '" + names_[i] + "' starts with a slash");
    }
    // Two entries of one part name (part names compare as a zip reader normalises them): readers
    // that take the first and readers that take the last would see different workbooks.
    const auto [it, added] = lookup_.emplace(part_key(names_[i]), i);
    if (!added) {
      fail(ErrorKind::format, names_[i], record_offset(i),
           "zip entry '" + names_[i] + "' names the same part as entry '" + names_[it->second] + "'");
    }
    check_local_header(i);
  }
  // The listing handle becomes the first one streams use.
  spare_.push_back(zip.release());
}

std::optional<std::uint64_t> Package::record_offset(std::uint64_t index) const {
  if (index >= records_.size()) return std::nullopt;
  return records_[index];
}

namespace {

constexpr std::uint64_t deferred_to_zip64 = 0xFFFFFFFF;

// The 8-byte values of the ZIP64 extended information field (APPNOTE 4.5.3) among the extra
// fields of `length` bytes at extra, in their order: at most `want`, fewer when it is missing or short.
std::vector<std::uint64_t> zip64_values(const std::uint8_t* extra, std::uint64_t length, std::size_t want) {
  std::vector<std::uint64_t> values;
  for (std::uint64_t at = 0; length - at >= 4;) {
    const std::uint64_t id = load_le(extra + at, 2), bytes = load_le(extra + at + 2, 2);
    if (bytes > length - at - 4) break;
    if (id == 0x0001) {
      for (std::uint64_t k = 0; values.size() < want && 8 * (k + 1) <= bytes; ++k) {
        values.push_back(load_le(extra + at + 4 + 8 * k, 8));
      }
      break;
    }
    at += 4 + bytes;
  }
  return values;
}

}  // namespace

// The local header must agree with the central directory record on the name, the compression
// method, the CRC-32 and the sizes (ZIP64 ones included), each of the last three 0 instead where
// the local header says a data descriptor carries them: a reader that trusts one and a reader
// that trusts the other would read different data, or one would reject what the other reads.
void Package::check_local_header(std::uint64_t index) const {
  if (index >= records_.size()) return;
  const std::uint8_t* central = data_ + records_[index];
  const std::string& name = names_[index];
  // Size, compressed size, local header offset: each deferred one is the next ZIP64 value.
  std::uint64_t central_fields[3] = {load_le(central + 24, 4), load_le(central + 20, 4), load_le(central + 42, 4)};
  {
    const std::uint64_t extra_at = records_[index] + 46 + load_le(central + 28, 2);
    const std::uint64_t extra_bytes = load_le(central + 30, 2);
    const std::vector<std::uint64_t> values = extra_at <= size_ && size_ - extra_at >= extra_bytes
                                                  ? zip64_values(data_ + extra_at, extra_bytes, 3)
                                                  : std::vector<std::uint64_t>{};
    std::size_t next = 0;
    for (std::uint64_t& field : central_fields) {
      if (field != deferred_to_zip64) continue;
      if (next == values.size()) {
        fail(ErrorKind::format, name, record_offset(index),
             "the central directory record defers a field to a ZIP64 value it lacks");
      }
      field = values[next++];
    }
  }
  // A stored entry's data is its bytes: one size for both (encrypted, it has a header besides).
  const bool encrypted = (load_le(central + 8, 2) & 1) != 0;
  if (load_le(central + 10, 2) == 0 && !encrypted && central_fields[0] != central_fields[1]) {
    fail(ErrorKind::format, name, record_offset(index),
         "stored (not compressed), yet its size " + std::to_string(central_fields[0]) + " differs from its compressed size " +
             std::to_string(central_fields[1]));
  }
  const std::uint64_t at = central_fields[2];
  if (at > size_ || size_ - at < 30 || load_le(data_ + at, 4) != 0x04034B50) {
    fail(ErrorKind::format, name, at, "no local header where the central directory places it");
  }
  const std::uint8_t* local = data_ + at;
  const std::uint64_t name_bytes = load_le(local + 26, 2);
  if (name_bytes != load_le(central + 28, 2) || size_ - at - 30 < name_bytes ||
      std::memcmp(local + 30, central + 46, static_cast<std::size_t>(name_bytes)) != 0) {
    fail(ErrorKind::format, name, at, "the local header names another entry than the central directory");
  }
  if (load_le(local + 8, 2) != load_le(central + 10, 2)) {
    fail(ErrorKind::format, name, at + 8,
         "the local header's compression method " + std::to_string(load_le(local + 8, 2)) +
             " differs from the central directory's " + std::to_string(load_le(central + 10, 2)));
  }
  // A data descriptor after the data (flag bit 3) holds the values the local header could not.
  const bool descriptor = (load_le(local + 6, 2) & 8) != 0;
  const std::uint64_t local_crc = load_le(local + 14, 4), central_crc = load_le(central + 16, 4);
  if (local_crc != central_crc && !(descriptor && local_crc == 0)) {
    char text[96];
    std::snprintf(text, sizeof text, "the local header's CRC-32 %08x differs from the central directory's %08x",
                  static_cast<unsigned>(local_crc), static_cast<unsigned>(central_crc));
    fail(ErrorKind::format, name, at + 14, text);
  }
  // Size, compressed size; a local header that defers either has both in its ZIP64 field.
  std::uint64_t local_fields[2] = {load_le(local + 22, 4), load_le(local + 18, 4)};
  if (local_fields[0] == deferred_to_zip64 || local_fields[1] == deferred_to_zip64) {
    const std::uint64_t extra_at = at + 30 + name_bytes, extra_bytes = load_le(local + 28, 2);
    const std::vector<std::uint64_t> values = size_ - at - 30 - name_bytes >= extra_bytes
                                                  ? zip64_values(data_ + extra_at, extra_bytes, 2)
                                                  : std::vector<std::uint64_t>{};
    if (values.size() == 2) {
      local_fields[0] = values[0];
      local_fields[1] = values[1];
    } else if (!descriptor) {
      fail(ErrorKind::format, name, at + 18, "the local header defers its sizes to a ZIP64 field it lacks");
    }
  }
  for (const int k : {1, 0}) {  // compressed size, then size
    if (local_fields[k] == central_fields[k] || (descriptor && (local_fields[k] == 0 || local_fields[k] == deferred_to_zip64))) {
      continue;
    }
    fail(ErrorKind::format, name, at + (k == 1 ? 18 : 22),
         std::string("the local header's ") + (k == 1 ? "compressed size " : "size ") + std::to_string(local_fields[k]) +
             " differs from the central directory's " + std::to_string(central_fields[k]));
  }
}

Package::~Package() {
  for (zip_t* zip : spare_) zip_discard(zip);
}

void Package::fail(ErrorKind kind, const std::string& part, std::optional<std::uint64_t> offset,
                   const std::string& message) const {
  throw Error(kind, {label_, part, offset}, message);
}

std::optional<std::uint64_t> Package::find(std::string_view part) const {
  const auto it = lookup_.find(part_key(part));
  if (it == lookup_.end()) return std::nullopt;
  return it->second;
}

zip_t* Package::acquire_handle() const {
  {
    const std::lock_guard lock(spare_mutex_);
    if (!spare_.empty()) {
      zip_t* zip = spare_.back();
      spare_.pop_back();
      return zip;
    }
  }
  std::string message;
  zip_t* zip = open_zip(data_, size_, message);
  if (zip == nullptr) fail(ErrorKind::format, "", 0, "not a readable zip archive: " + message);
  return zip;
}

void Package::release_handle(zip_t* zip) const {
  const std::lock_guard lock(spare_mutex_);
  spare_.push_back(zip);
}

std::string Package::budget_text() const {
  return "the inflate budget of " + std::to_string(budget_) + " bytes for a " + std::to_string(size_) +
         "-byte file (inflate_ratio x file size, within inflate_floor..inflate_cap; zip bomb?)";
}

std::uint64_t Package::check_declared_size(std::uint64_t index) const {
  const std::uint64_t declared = sizes_[index];
  if (declared > limits_.max_part_bytes) {
    fail(ErrorKind::limit, names_[index], record_offset(index),
         "declared size " + std::to_string(declared) + " exceeds max_part_bytes (" + std::to_string(limits_.max_part_bytes) +
             "; zip bomb?)");
  }
  if (declared > budget_) {
    fail(ErrorKind::limit, names_[index], record_offset(index),
         "declared size " + std::to_string(declared) + " exceeds " + budget_text());
  }
  return declared;
}

void Package::charge(std::uint64_t bytes, const std::string& part, std::uint64_t offset) const {
  const std::uint64_t total = inflated_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (total > budget_) {
    fail(ErrorKind::limit, part, offset,
         "inflated data exceeds " + budget_text());
  }
}

std::string Package::read(std::string_view part, bool charge) const {
  PartStream stream(*this, std::string(part), charge);
  std::string out;
  out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(stream.declared_size(), 64 << 20)));
  // Each read first sizes the string for `step` bytes: a part's declared size (plus one byte,
  // to see the end) spares small parts a 1 MiB allocation; a size that lies only costs more steps.
  std::size_t step = static_cast<std::size_t>(std::clamp<std::uint64_t>(stream.declared_size() + 1, 4096, 1 << 20));
  while (stream.read(out, step) != 0) step = std::min<std::size_t>(step * 2, 1 << 20);
  return out;
}

PartStream::PartStream(const Package& package, const std::string& part, bool charge)
    : package_(package), part_(part), charge_(charge) {
  const auto index = package.find(part);
  if (!index) package.fail(ErrorKind::format, part, std::nullopt, "part is missing from the package");
  part_ = package.entry_name(*index);
  index_ = *index;
  declared_ = package.check_declared_size(*index);
  zip_ = package.acquire_handle();
  // A deflated entry is read raw and inflated here (deflated_entry.h); libzip decompresses the
  // rest (stored, other methods, encrypted).
  zip_stat_t stat;
  zip_stat_init(&stat);
  const bool deflated = zip_stat_index(zip_, *index, 0, &stat) == 0 && (stat.valid & ZIP_STAT_COMP_METHOD) &&
                        stat.comp_method == ZIP_CM_DEFLATE && (stat.valid & ZIP_STAT_ENCRYPTION_METHOD) &&
                        stat.encryption_method == ZIP_EM_NONE && (stat.valid & ZIP_STAT_CRC);
  {
    const std::lock_guard lock(open_mutex());
    file_ = zip_fopen_index(zip_, *index, deflated ? ZIP_FL_COMPRESSED : 0);
  }
  if (file_ != nullptr && deflated) {
    try {
      deflated_ = std::make_unique<DeflatedEntry>(file_, stat.crc, package.inflater());
    } catch (...) {  // out of memory: no destructor runs for a half-made stream
      zip_fclose(file_);
      package.release_handle(zip_);
      throw;
    }
  }
  if (file_ == nullptr) {
    const std::string message = zip_error_text(zip_get_error(zip_));
    zip_discard(zip_);
    package.fail(ErrorKind::format, part_, 0, "cannot open the part: " + message);
  }
}

PartStream::~PartStream() {
  deflated_.reset();  // before the file it reads
  if (file_ != nullptr) zip_fclose(file_);
  if (zip_ != nullptr) package_.release_handle(zip_);
}

std::size_t PartStream::read(std::string& out, std::size_t max) {
  if (done_ || max == 0) return 0;
  const std::size_t start = out.size();
  out.resize(start + max);
  zip_int64_t n = 0;
  if (deflated_) {
    try {
      n = static_cast<zip_int64_t>(deflated_->read(reinterpret_cast<std::uint8_t*>(out.data() + start), max));
    } catch (const CorruptEntry& e) {
      out.resize(start);
      const CorruptEntry verdict = zlib_verdict({e.message, static_cast<std::size_t>(position_) + e.produced});
      package_.fail(ErrorKind::format, part_, verdict.produced, verdict.message);
    }
  } else {
    n = zip_fread(file_, out.data() + start, max);
    if (n < 0) {
      out.resize(start);
      package_.fail(ErrorKind::format, part_, position_,
                    "corrupt compressed data: " + std::string(zip_file_strerror(file_)));
    }
  }
  out.resize(start + static_cast<std::size_t>(n));
  if (n == 0) {
    done_ = true;
    return 0;
  }
  position_ += static_cast<std::uint64_t>(n);
  if (position_ > package_.limits().max_part_bytes) {
    package_.fail(ErrorKind::limit, part_, position_,
                  "inflated part exceeds max_part_bytes (" + std::to_string(package_.limits().max_part_bytes) +
                      "; zip bomb?)");
  }
  if (charge_) package_.charge(static_cast<std::uint64_t>(n), part_, position_);
  return static_cast<std::size_t>(n);
}

CorruptEntry PartStream::zlib_verdict(const CorruptEntry& seen) const {
  if (package_.inflater() == InflaterKind::zlib) return seen;
  zip_stat_t stat;
  zip_stat_init(&stat);
  zip_file_t* raw = nullptr;
  if (zip_stat_index(zip_, index_, 0, &stat) == 0) {
    const std::lock_guard lock(open_mutex());
    raw = zip_fopen_index(zip_, index_, ZIP_FL_COMPRESSED);
  }
  if (raw == nullptr) return seen;
  CorruptEntry verdict = seen;
  try {
    DeflatedEntry entry(raw, stat.crc, InflaterKind::zlib);
    std::vector<std::uint8_t> piece(64 << 10);
    std::size_t produced = 0;
    try {
      while (const std::size_t n = entry.read(piece.data(), piece.size())) produced += n;
    } catch (const CorruptEntry& e) {
      verdict = {e.message, produced + e.produced};
    }
  } catch (...) {  // out of memory: keep what the inflater saw
  }
  zip_fclose(raw);
  return verdict;
}

FileMapping::FileMapping(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), input_open_flags);
  if (fd_ < 0) throw Error(ErrorKind::io, {path, "", std::nullopt}, std::string("cannot open: ") + std::strerror(errno));
  struct stat st;
  try {
    if (::fstat(fd_, &st) != 0) throw Error(ErrorKind::io, {path, "", std::nullopt}, std::string("cannot stat: ") + std::strerror(errno));
    require_random_access(st, path);
  } catch (...) {
    ::close(fd_);
    throw;
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ > 0) {
    try {
      view_.map(fd_, 0, size_, {path, "", std::nullopt});
    } catch (...) {
      ::close(fd_);
      throw;
    }
  }
}

FileMapping::~FileMapping() {
  view_.unmap();
  ::close(fd_);
}

void FileMapping::verify_unchanged() const {
  struct stat st;
  const bool same_size = ::fstat(fd_, &st) == 0 && static_cast<std::size_t>(st.st_size) == size_;
  if (view_.truncated() || !same_size) {
    throw Error(ErrorKind::io, {path_, "", std::nullopt}, "file changed size while it was read (truncated while mapped?)");
  }
}

void FileMapping::drop_resident_pages() const {
  if (size_ > 0) ::madvise(const_cast<std::uint8_t*>(view_.data()), size_, MADV_DONTNEED);
}

std::string rels_part_of(std::string_view name) {
  std::string part(name);
  std::replace(part.begin(), part.end(), '\\', '/');
  const std::size_t slash = part.rfind('/');
  if (slash == std::string_view::npos) return "_rels/" + std::string(part) + ".rels";
  return std::string(part.substr(0, slash + 1)) + "_rels/" + std::string(part.substr(slash + 1)) + ".rels";
}

std::string resolve_target(const Package& package, std::string_view source_part, std::string_view target) {
  std::string t;
  for (std::size_t i = 0; i < target.size(); ++i) {
    char c = target[i];
    if (c == '%' && i + 2 < target.size() + 0 && std::isxdigit(static_cast<unsigned char>(target[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(target[i + 2]))) {
      c = static_cast<char>(std::stoi(std::string(target.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else if (c == '\\') {
      c = '/';
    }
    t += c;
  }
  std::string joined;
  if (!t.empty() && t[0] == '/') {
    joined = t;
  } else {
    const std::size_t slash = source_part.rfind('/');
    joined = (slash == std::string_view::npos ? std::string() : std::string(source_part.substr(0, slash + 1))) + t;
  }
  std::vector<std::string> segments;
  std::size_t pos = 0;
  while (pos <= joined.size()) {
    std::size_t next = joined.find('/', pos);
    if (next == std::string::npos) next = joined.size();
    const std::string segment = joined.substr(pos, next - pos);
    if (segment == "..") {
      if (segments.empty()) {
        package.fail(ErrorKind::format, rels_part_of(source_part), std::nullopt,
                     "relationship target '" + std::string(target) + "' leaves the package");
      }
      segments.pop_back();
    } else if (!segment.empty() && segment != ".") {
      segments.push_back(segment);
    }
    pos = next + 1;
  }
  std::string out;
  for (const auto& s : segments) {
    if (!out.empty()) out += '/';
    out += s;
  }
  return out;
}

std::vector<Relationship> read_relationships(const Package& package, std::string_view source_part) {
  const std::string rels = rels_part_of(source_part);
  std::vector<Relationship> out;
  if (!package.has(rels)) return out;
  const std::string xml = package.read(rels);
  std::unordered_set<std::string> ids;
  try {
    XmlScanner scanner(reinterpret_cast<const std::uint8_t*>(xml.data()), xml.size(), 0, true,
                       scan_limits(package.limits()));
    for (Token t = scanner.next(); t != Token::end_of_input; t = scanner.next()) {
      if (t != Token::start || !span_is(scanner.local(), "Relationship")) continue;
      Relationship r;
      const std::uint64_t at = scanner.token_offset();
      r.offset = at;
      if (const auto* a = scanner.attribute("Id")) {
        r.id = attribute_bytes(*a, at);
        // OPC [M1.26]: an Id is unique within its part; readers that take the first and readers
        // that take the last would follow different relationships.
        if (!ids.insert(r.id).second) scanner.fail(("relationship Id '" + r.id + "' repeats an earlier one").c_str());
      }
      if (const auto* a = scanner.attribute("Type")) {
        r.type_uri = attribute_bytes(*a, at);
        r.type = relationship_kind(r.type_uri);
      }
      if (const auto* a = scanner.attribute("TargetMode")) r.external = attribute_bytes(*a, at) == "External";
      const auto* target = scanner.attribute("Target");
      if (target == nullptr) scanner.fail("relationship without a Target");
      if (!r.external) r.target = resolve_target(package, source_part, attribute_bytes(*target, at));
      out.push_back(std::move(r));
    }
  } catch (const Error& e) {
    throw e.with_file(package.label()).with_part(rels);
  }
  return out;
}

}  // namespace docconform::xlsx
