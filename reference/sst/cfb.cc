#include "docconform/sst/cfb.h"

#include <algorithm>
#include <cstring>

#include "docconform/error.h"
#include "docconform/utf8.h"
#include "little_endian.h"

namespace docconform::sst {
namespace {

constexpr std::uint32_t free_sect = 0xFFFFFFFF;
constexpr std::uint32_t end_of_chain = 0xFFFFFFFE;
constexpr std::uint32_t fat_sect = 0xFFFFFFFD;
constexpr std::uint32_t dif_sect = 0xFFFFFFFC;
constexpr std::uint32_t max_reg_sect = 0xFFFFFFFA;
constexpr std::uint32_t no_stream = 0xFFFFFFFF;
constexpr unsigned char signature[8] = {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1};
constexpr std::size_t header_difat_slots = 109;

void write_entry(char* p, std::u16string_view name, std::uint8_t type, std::uint32_t child, std::uint32_t start,
                 std::uint32_t size) {
  for (std::size_t i = 0; i < name.size(); ++i) store_u16(p + 2 * i, name[i]);
  store_u16(p + 64, name.empty() ? 0 : static_cast<std::uint32_t>(2 * (name.size() + 1)));
  p[66] = static_cast<char>(type);
  p[67] = 1;  // black
  store_u32(p + 68, no_stream);
  store_u32(p + 72, no_stream);
  store_u32(p + 76, child);
  store_u32(p + 116, start);
  store_u32(p + 120, size);
}

char16_t ascii_upper(char16_t c) { return c >= u'a' && c <= u'z' ? static_cast<char16_t>(c - 32) : c; }

}  // namespace

std::string write_cfb(std::string_view stream, std::u16string_view name) {
  if (name.size() > 31) throw Error(ErrorKind::usage, {}, "CFB entry names have at most 31 characters");
  // MS-CFB 2.6.1; a U+0000 would also end the name early for every reader.
  if (name.find_first_of(std::u16string_view(u"\0/\\:!", 5)) != std::u16string_view::npos) {
    throw Error(ErrorKind::usage, {}, "CFB entry names may not contain U+0000, '/', '\\', ':' or '!'");
  }
  if (stream.size() > 0xFFFFFFFFu - 4096) throw Error(ErrorKind::usage, {}, "stream too large for a version 3 CFB");
  // Padding to the mini stream cutoff keeps the stream in regular sectors.
  const std::size_t size = std::max<std::size_t>(stream.size(), 4096);
  const std::size_t stream_sectors = (size + 511) / 512;
  std::size_t fat_sectors = 0;
  std::size_t difat_sectors = 0;
  while (true) {
    const std::size_t total = stream_sectors + difat_sectors + fat_sectors + 1;
    const std::size_t need_fat = (total + 127) / 128;
    const std::size_t need_difat = need_fat > header_difat_slots ? (need_fat - header_difat_slots + 126) / 127 : 0;
    if (need_fat == fat_sectors && need_difat == difat_sectors) break;
    fat_sectors = need_fat;
    difat_sectors = need_difat;
  }
  const std::size_t first_difat = stream_sectors;
  const std::size_t first_fat = first_difat + difat_sectors;
  const std::size_t directory = first_fat + fat_sectors;
  const std::size_t sectors = directory + 1;

  std::string out(512 * (1 + sectors), '\0');
  char* header = out.data();
  std::memcpy(header, signature, 8);
  store_u16(header + 0x18, 0x003E);
  store_u16(header + 0x1A, 0x0003);
  store_u16(header + 0x1C, 0xFFFE);
  store_u16(header + 0x1E, 9);
  store_u16(header + 0x20, 6);
  store_u32(header + 0x2C, static_cast<std::uint32_t>(fat_sectors));
  store_u32(header + 0x30, static_cast<std::uint32_t>(directory));
  store_u32(header + 0x38, 4096);
  store_u32(header + 0x3C, end_of_chain);
  store_u32(header + 0x44, difat_sectors > 0 ? static_cast<std::uint32_t>(first_difat) : end_of_chain);
  store_u32(header + 0x48, static_cast<std::uint32_t>(difat_sectors));
  const auto sector_at = [&out](std::size_t id) { return out.data() + 512 * (1 + id); };

  // DIFAT: 109 FAT sector ids in the header, 127 per DIFAT sector plus the next DIFAT sector.
  for (std::size_t k = 0; k < header_difat_slots; ++k) {
    store_u32(header + 0x4C + 4 * k, k < fat_sectors ? static_cast<std::uint32_t>(first_fat + k) : free_sect);
  }
  for (std::size_t d = 0; d < difat_sectors; ++d) {
    char* p = sector_at(first_difat + d);
    for (std::size_t k = 0; k < 127; ++k) {
      const std::size_t fat_index = header_difat_slots + 127 * d + k;
      store_u32(p + 4 * k, fat_index < fat_sectors ? static_cast<std::uint32_t>(first_fat + fat_index) : free_sect);
    }
    store_u32(p + 508, d + 1 < difat_sectors ? static_cast<std::uint32_t>(first_difat + d + 1) : end_of_chain);
  }

  std::vector<std::uint32_t> fat(128 * fat_sectors, free_sect);
  for (std::size_t i = 0; i < stream_sectors; ++i) {
    fat[i] = i + 1 < stream_sectors ? static_cast<std::uint32_t>(i + 1) : end_of_chain;
  }
  for (std::size_t d = 0; d < difat_sectors; ++d) fat[first_difat + d] = dif_sect;
  for (std::size_t f = 0; f < fat_sectors; ++f) fat[first_fat + f] = fat_sect;
  fat[directory] = end_of_chain;
  for (std::size_t i = 0; i < fat.size(); ++i) store_u32(sector_at(first_fat) + 4 * i, fat[i]);

  char* dir = sector_at(directory);
  write_entry(dir, u"Root Entry", 5, 1, end_of_chain, 0);
  write_entry(dir + 128, name, 2, no_stream, 0, static_cast<std::uint32_t>(size));
  write_entry(dir + 256, u"", 0, no_stream, 0, 0);
  write_entry(dir + 384, u"", 0, no_stream, 0, 0);

  std::memcpy(sector_at(0), stream.data(), stream.size());
  return out;
}

void CfbReader::charge(std::uint64_t bytes, const char* part, std::uint64_t offset) const {
  if (memory_ != nullptr) memory_->charge(bytes, [&] { return ErrorContext{label_, part, offset}; });
}

void CfbReader::fail(const std::string& part, std::uint64_t offset, const std::string& message) const {
  throw Error(ErrorKind::format, {label_, part, offset}, message);
}

std::string CfbReader::past_the_end(const std::string& what, std::uint32_t id) const {
  return what + " sector " + std::to_string(id) + " (at offset " + std::to_string(sector_offset(id)) +
         ") is past the end of the file (" + std::to_string(file_.size()) + " bytes): the file is truncated or the id damaged";
}

std::string_view CfbReader::sector(std::uint32_t id) const {
  if (id >= sector_count_) fail("CFB", file_.size(), past_the_end("a", id));
  return file_.substr(static_cast<std::size_t>(sector_offset(id)), sector_size_);
}

std::string_view CfbReader::chain_sector(const std::vector<std::uint32_t>& ids, std::size_t i, std::uint64_t start_offset,
                                         const char* what) const {
  if (ids[i] >= sector_count_) {
    fail(i == 0 ? "CFB" : "CFB FAT", i == 0 ? start_offset : fat_entry_offset(ids[i - 1], false),
         past_the_end(std::string("the ") + what + " chain's", ids[i]));
  }
  return sector(ids[i]);
}

std::uint64_t CfbReader::fat_entry_offset(std::size_t index, bool mini) const {
  const std::vector<std::uint32_t>& sectors = mini ? mini_fat_sectors_ : fat_sectors_;
  const std::size_t per_sector = sector_size_ / 4;
  if (index / per_sector >= sectors.size()) return 0;
  return sector_offset(sectors[index / per_sector]) + (index % per_sector) * 4;
}

std::vector<std::uint32_t> CfbReader::chain(std::uint32_t start, std::uint64_t start_offset, bool mini,
                                            const char* what) const {
  const std::vector<std::uint32_t>& fat = mini ? mini_fat_ : fat_;
  const char* table = mini ? "CFB mini FAT" : "CFB FAT";
  std::vector<std::uint32_t> ids;
  std::uint32_t id = start;
  std::size_t from = 0;  // the entry that named id (none for the start)
  bool named = false;
  const std::size_t per_sector = sector_size_ / 4;
  while (id != end_of_chain) {
    // An entry of a FAT sector the file no longer holds reads as free: the cut is the cause.
    if (named && !mini && id == free_sect && fat_sectors_[from / per_sector] >= sector_count_) {
      fail("CFB FAT", fat_sector_listed_at_[from / per_sector],
           past_the_end("FAT", fat_sectors_[from / per_sector]) + " (it holds the " + what + " chain's next link)");
    }
    if (id >= fat.size() || id > max_reg_sect) {
      fail(named ? table : "CFB", named ? fat_entry_offset(from, mini) : start_offset,
           std::string(what) + " chain refers to sector " + std::to_string(id) + " outside the FAT");
    }
    if (ids.size() >= fat.size()) {
      fail(table, fat_entry_offset(from, mini), std::string(what) + " chain loops (entry " + std::to_string(from) + ")");
    }
    ids.push_back(id);
    from = id;
    named = true;
    id = fat[id];
  }
  return ids;
}

CfbReader::CfbReader(std::string_view file, const Limits& limits, std::string label, Budget* memory)
    : file_(file), limits_(limits), label_(std::move(label)), memory_(memory) {
  if (file.size() < 512 || std::memcmp(file.data(), signature, 8) != 0) {
    throw Error(ErrorKind::format, {label_, "CFB", 0}, "not a Compound File (no D0 CF 11 E0 signature)");
  }
  const char* h = file.data();
  if (load_u16(h + 0x1C) != 0xFFFE) fail("CFB header", 0x1C, "byte order mark is not FE FF");
  const std::uint16_t shift = load_u16(h + 0x1E);
  if (shift != 9 && shift != 12) fail("CFB header", 0x1E, "sector shift " + std::to_string(shift) + " (9 or 12 expected)");
  sector_size_ = std::size_t{1} << shift;
  if (load_u16(h + 0x20) != 6) fail("CFB header", 0x20, "mini sector shift is not 6");
  if (file.size() < sector_size_) fail("CFB header", 0, "file shorter than one sector");
  // A truncated last sector still counts: readers use the bytes it has.
  sector_count_ = static_cast<std::uint32_t>(
      std::min<std::uint64_t>((file.size() - sector_size_ + sector_size_ - 1) / sector_size_, max_reg_sect));
  mini_cutoff_ = load_u32(h + 0x38);
  if (sector_count_ == 0) fail("CFB header", file.size(), "the file ends after its header: it holds no sector (truncated)");

  // FAT sector ids: the header's 109, then the DIFAT chain. Like xlrd and POI, trust the list
  // over the header's count when they disagree (real files carry garbage counts).
  const std::uint32_t fat_count = std::min(load_u32(h + 0x2C), sector_count_);
  std::vector<std::uint32_t> fat_ids;
  const auto add_fat_id = [&](std::uint32_t id, std::uint64_t listed_at) {
    if (id <= max_reg_sect && fat_ids.size() < fat_count) {
      fat_ids.push_back(id);
      fat_sector_listed_at_.push_back(listed_at);
    }
  };
  for (std::size_t k = 0; k < header_difat_slots; ++k) add_fat_id(load_u32(h + 0x4C + 4 * k), 0x4C + 4 * k);
  const std::size_t per_difat = sector_size_ / 4 - 1;
  std::uint32_t difat = load_u32(h + 0x44);
  std::uint64_t difat_link = 0x44;  // where the current DIFAT sector was named
  for (std::uint32_t steps = 0; fat_ids.size() < fat_count && difat <= max_reg_sect; ++steps) {
    if (steps > sector_count_) fail("CFB DIFAT", difat_link, "DIFAT chain loops");
    if (difat >= sector_count_) fail("CFB DIFAT", difat_link, past_the_end("DIFAT", difat));
    const std::string_view d = sector(difat);
    if (d.size() < sector_size_) break;
    for (std::size_t k = 0; k < per_difat; ++k) add_fat_id(load_u32(d.data() + 4 * k), sector_offset(difat) + 4 * k);
    difat_link = sector_offset(difat) + 4 * per_difat;
    difat = load_u32(d.data() + 4 * per_difat);
  }
  charge(fat_ids.size() * sector_size_, "CFB FAT", 0x2C);
  fat_.reserve(fat_ids.size() * (sector_size_ / 4));
  fat_sectors_ = fat_ids;
  for (const std::uint32_t id : fat_ids) {
    if (id >= sector_count_) {
      // A FAT sector past the end of a truncated file: its entries lead nowhere (as in xlrd).
      fat_.insert(fat_.end(), sector_size_ / 4, free_sect);
      continue;
    }
    const std::string_view s = sector(id);
    for (std::size_t k = 0; k + 4 <= s.size(); k += 4) fat_.push_back(load_u32(s.data() + k));
    fat_.resize(fat_.size() + (sector_size_ - s.size()) / 4, free_sect);
  }

  const std::vector<std::uint32_t> directory = chain(load_u32(h + 0x30), 0x30, false, "directory");
  for (std::size_t i = 0; i < directory.size(); ++i) {
    const std::uint32_t id = directory[i];
    const std::string_view s = chain_sector(directory, i, 0x30, "directory");
    // An entry of 128 bytes in the file takes its Entry and the name's code units.
    charge(s.size() / 128 * (sizeof(Entry) + 64), "CFB directory", sector_offset(id));
    for (std::size_t at = 0; at + 128 <= s.size(); at += 128) {
      const char* e = s.data() + at;
      Entry entry;
      entry.offset = sector_offset(id) + at;
      entry.type = static_cast<std::uint8_t>(e[66]);
      const std::size_t name_bytes = load_u16(e + 64);
      // [MS-CFB] 2.6.1: the length is even and at most 64 (the name field's size). It should also
      // count a terminating NUL, which real writers leave out and every reader tolerates: the
      // name then ends at the length. Unallocated entries (type 0) carry no name to check.
      if (entry.type != 0 && (name_bytes > 64 || name_bytes % 2 != 0)) {
        fail("CFB directory", entry.offset + 64,
             "directory entry name length " + std::to_string(name_bytes) + " is not an even number of bytes up to 64");
      }
      for (std::size_t k = 0; k + 1 < std::min<std::size_t>(name_bytes, 64); k += 2) {
        const char16_t c = static_cast<char16_t>(load_u16(e + k));
        if (c == 0) break;
        entry.name += c;
      }
      entry.start = load_u32(e + 116);
      // Version 3 files may leave garbage in the high half of the size.
      entry.size = shift == 9 ? load_u32(e + 120) : load_u32(e + 120) | (std::uint64_t{load_u32(e + 124)} << 32);
      entries_.push_back(std::move(entry));
    }
  }
  if (entries_.empty() || entries_[0].type != 5) fail("CFB directory", 0, "entry 0 is not the root entry");

  const std::uint32_t mini_fat_start = load_u32(h + 0x3C);
  if (mini_fat_start != end_of_chain && mini_fat_start != free_sect) {
    mini_fat_sectors_ = chain(mini_fat_start, 0x3C, false, "mini FAT");
    charge(mini_fat_sectors_.size() * sector_size_, "CFB mini FAT", 0x3C);
    for (std::size_t i = 0; i < mini_fat_sectors_.size(); ++i) {
      const std::string_view s = chain_sector(mini_fat_sectors_, i, 0x3C, "mini FAT");
      for (std::size_t k = 0; k + 4 <= s.size(); k += 4) mini_fat_.push_back(load_u32(s.data() + k));
    }
  }
}

std::optional<std::size_t> CfbReader::find_stream(std::u16string_view name) const {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if (e.type != 2 || e.name.size() != name.size()) continue;
    if (std::equal(name.begin(), name.end(), e.name.begin(), [](char16_t a, char16_t b) { return ascii_upper(a) == ascii_upper(b); })) {
      return i;
    }
  }
  return std::nullopt;
}

std::string CfbReader::read_stream(std::size_t index) const {
  const Entry& e = entries_.at(index);
  const auto stream = [&] { return "stream \"" + to_utf8_lossy(e.name) + "\""; };  // in messages
  if (e.size > limits_.max_stream_bytes) {
    throw Error(ErrorKind::limit, {label_, "CFB directory", e.offset + 120},
                stream() + " of " + std::to_string(e.size) + " bytes exceeds max_stream_bytes (" +
                    std::to_string(limits_.max_stream_bytes) + ")");
  }
  if (e.size > file_.size()) {
    fail("CFB directory", e.offset + 120,
         stream() + " states " + std::to_string(e.size) + " bytes, more than the whole file (" + std::to_string(file_.size()) +
             " bytes): the file is truncated or the entry damaged");
  }
  const std::size_t size = static_cast<std::size_t>(e.size);
  charge(size, "CFB directory", e.offset + 120);
  std::string out;
  out.reserve(size);
  if (size < mini_cutoff_) {
    // Small streams live in 64-byte mini sectors inside the root entry's stream.
    const Entry& root = entries_[0];
    const std::vector<std::uint32_t> container = chain(root.start, root.offset + 116, false, "mini stream");
    for (const std::uint32_t mini : chain(e.start, e.offset + 116, true, "mini stream entry")) {
      if (out.size() >= size) break;
      const std::uint64_t at = std::uint64_t{mini} * 64;
      const std::size_t big = static_cast<std::size_t>(at / sector_size_);
      if (big >= container.size()) fail("CFB mini stream", at, "mini sector outside the mini stream");
      const std::string_view whole = chain_sector(container, big, root.offset + 116, "mini stream");
      const std::size_t within = static_cast<std::size_t>(at % sector_size_);
      if (within >= whole.size()) fail("CFB mini stream", at, "mini sector past the end of the file");
      const std::string_view s = whole.substr(within, 64);
      out.append(s.substr(0, std::min<std::size_t>(64, size - out.size())));
    }
  } else {
    const std::vector<std::uint32_t> ids = chain(e.start, e.offset + 116, false, "stream");
    for (std::size_t i = 0; i < ids.size() && out.size() < size; ++i) {
      const std::string_view s = chain_sector(ids, i, e.offset + 116, "stream");
      out.append(s.substr(0, std::min(s.size(), size - out.size())));
    }
  }
  if (out.size() < size) {
    // The chain ran into the file's cut-off last sector, or simply ended early.
    const bool cut = sector_offset(sector_count_) > file_.size();
    fail("CFB directory", e.offset + 120,
         stream() + ": its sector chain holds " + std::to_string(out.size()) + " of the " + std::to_string(size) + " bytes it states" +
             (cut ? ": the file is truncated (its last sector is cut short)" : ""));
  }
  return out;
}

}  // namespace docconform::sst
