// The sst mutators: BIFF record lengths, CONTINUE splits and merges, string option flags, the
// table's counts and record types. A raw record file (.sst) may change size; in a Compound File
// (.xls) the records of the workbook stream are changed in place, where they lie contiguously
// after its BOF, so the container stays readable.
#include "mine_mutators.h"

namespace docconform::cli {
namespace {

constexpr std::uint16_t sst_type = 0x00FC;
constexpr std::uint16_t continue_type = 0x003C;

std::uint16_t get16(const std::string& s, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(s[at]) | (static_cast<unsigned char>(s[at + 1]) << 8));
}
void put16(std::string& s, std::size_t at, std::uint16_t v) {
  s[at] = static_cast<char>(v & 0xFF);
  s[at + 1] = static_cast<char>(v >> 8);
}
std::string header(std::uint16_t type, std::uint16_t length) {
  std::string h(4, '\0');
  put16(h, 0, type);
  put16(h, 2, length);
  return h;
}

// The offsets of the option flags bytes of the strings that lie whole in the SST record's payload.
std::vector<std::size_t> flag_offsets(const std::string& s, const BiffRecord& sst) {
  std::vector<std::size_t> flags;
  const std::size_t end = sst.offset + 4 + sst.length;
  std::size_t at = sst.offset + 4 + 8;
  while (at + 3 <= end && flags.size() < 4096) {
    const std::size_t cch = get16(s, at);
    const auto f = static_cast<unsigned char>(s[at + 2]);
    flags.push_back(at + 2);
    std::size_t next = at + 3;
    std::size_t runs = 0;
    std::size_t ext = 0;
    if ((f & 0x08) != 0) {
      if (next + 2 > end) break;
      runs = get16(s, next);
      next += 2;
    }
    if ((f & 0x04) != 0) {
      if (next + 4 > end) break;
      ext = get16(s, next) | (static_cast<std::size_t>(get16(s, next + 2)) << 16);
      next += 4;
    }
    at = next + cch * ((f & 0x01) != 0 ? 2 : 1) + 4 * runs + ext;
  }
  return flags;
}

}  // namespace

bool is_cfb(const std::string& bytes) { return bytes.starts_with("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"); }

std::size_t biff_start(const std::string& bytes) {
  if (!is_cfb(bytes)) return 0;
  const std::size_t bof = bytes.find(std::string("\x09\x08\x10\x00\x00\x06", 6));
  return bof == std::string::npos ? bytes.size() : bof;
}

std::vector<BiffRecord> biff_records(const std::string& bytes, std::size_t start) {
  std::vector<BiffRecord> records;
  for (std::size_t at = start; at + 4 <= bytes.size();) {
    const BiffRecord r{at, get16(bytes, at), get16(bytes, at + 2)};
    if (at + 4 + r.length > bytes.size()) break;
    records.push_back(r);
    if (r.type == 0x000A && start != 0) break;  // EOF of the workbook's globals
    at += 4 + r.length;
  }
  return records;
}

std::string mutate_biff(const std::string& input, Mutator& m, std::string& step) {
  const bool in_place = is_cfb(input);
  const auto records = biff_records(input, biff_start(input));
  if (records.empty()) return mutate_bytes(input, m, step);
  std::vector<BiffRecord> table;  // SST and CONTINUE records
  for (const BiffRecord& r : records) {
    if (r.type == sst_type || r.type == continue_type) table.push_back(r);
  }
  const std::vector<BiffRecord>& pool = table.empty() || m.below(4) == 0 ? records : table;
  const BiffRecord r = m.choose(pool);
  const std::string where = " record @" + std::to_string(r.offset) + " type " + std::to_string(r.type);
  std::string out = input;
  switch (m.below(in_place ? 4 : 7)) {
    case 0: {
      const std::vector<std::uint16_t> lengths{static_cast<std::uint16_t>(r.length + 1), static_cast<std::uint16_t>(r.length - 1), 0,
                                               8224, 8225, 0xFFFF, static_cast<std::uint16_t>(r.length / 2)};
      const std::uint16_t length = m.choose(lengths);
      put16(out, r.offset + 2, length);
      step = "biff.length" + where + ": " + std::to_string(r.length) + " -> " + std::to_string(length);
      return out;
    }
    case 1: {
      const auto flags = r.type == sst_type ? flag_offsets(input, r) : std::vector<std::size_t>{};
      const std::size_t at = flags.empty() ? (r.length == 0 ? std::string::npos : r.offset + 4 + m.below(r.length)) : m.choose(flags);
      if (at == std::string::npos) break;
      static const std::vector<unsigned char> bits{0x01, 0x04, 0x08, 0x02, 0x10, 0x80, 0x0D};
      const unsigned char bit = m.choose(bits);
      out[at] = static_cast<char>(out[at] ^ bit);
      step = "biff.flags" + where + " @" + std::to_string(at) + ": xor " + std::to_string(bit);
      return out;
    }
    case 2: {
      if (r.type != sst_type || r.length < 8) break;
      const std::size_t field = m.below(2) * 4;
      static const std::vector<std::uint32_t> counts{0, 1, 2, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 1000000};
      const std::uint32_t value = m.choose(counts);
      for (int i = 0; i < 4; ++i) out[r.offset + 4 + field + static_cast<std::size_t>(i)] = static_cast<char>((value >> (8 * i)) & 0xFF);
      step = std::string("biff.count") + where + (field == 0 ? " cstTotal" : " cstUnique") + ": " + std::to_string(value);
      return out;
    }
    case 3: {
      static const std::vector<std::uint16_t> types{continue_type, sst_type, 0x00FF, 0x000A, 0x0809, 0x0000};
      const std::uint16_t type = m.choose(types);
      put16(out, r.offset, type);
      step = "biff.type" + where + ": -> " + std::to_string(type);
      return out;
    }
    case 4: {
      // A CONTINUE split at a byte of the payload, with a flags byte at the start of the new record or not.
      if (r.length < 2) break;
      const std::size_t cut = 1 + m.below(r.length - 1);
      const bool flag = m.below(2) == 0;
      const std::string added = header(continue_type, static_cast<std::uint16_t>(r.length - cut + (flag ? 1 : 0))) +
                                (flag ? std::string(1, static_cast<char>(m.below(2))) : std::string());
      put16(out, r.offset + 2, static_cast<std::uint16_t>(cut));
      out.insert(r.offset + 4 + cut, added);
      step = "biff.continue_split" + where + ": at " + std::to_string(cut) + (flag ? " with a flags byte" : "");
      return out;
    }
    case 5: {
      // The record merged with the one after it (a CONTINUE boundary removed).
      const std::size_t next = r.offset + 4 + r.length;
      if (next + 4 > input.size() || r.length + get16(input, next + 2) > 0xFFFF) break;
      put16(out, r.offset + 2, static_cast<std::uint16_t>(r.length + get16(input, next + 2)));
      out.erase(next, 4);
      step = "biff.continue_merge" + where;
      return out;
    }
    default: {
      const std::string record = input.substr(r.offset, 4 + r.length);
      if (m.below(2) == 0) {
        out.erase(r.offset, record.size());
        step = "biff.drop" + where;
      } else {
        out.insert(r.offset + record.size(), record);
        step = "biff.duplicate" + where;
      }
      return out;
    }
  }
  return mutate_bytes(input, m, step);
}

}  // namespace docconform::cli
