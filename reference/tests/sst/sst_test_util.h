// Helpers shared by the SST tests.
#pragma once

#include <string>
#include <vector>

#include "docconform/sst/model.h"
#include "docconform/sst/reader.h"
#include "docconform/sst/writer.h"

namespace docconform::sst::testing {

inline SstString text(std::u16string t) {
  SstString s;
  s.text = std::move(t);
  return s;
}

inline SstTable table_of(const std::vector<SstString>& strings) {
  SstTable table;
  for (const SstString& s : strings) table.append(s);
  table.set_total_refs(table.size());
  return table;
}

// The records of writer output, EXTSST included.
inline std::vector<Record> records_of(const std::string& bytes) { return split_records(bytes); }

// Bytes of the SST + CONTINUE records only (without EXTSST).
inline std::vector<Record> sst_records(const std::vector<Record>& all) {
  std::vector<Record> out;
  for (const Record& r : all) {
    if (r.type == record_sst || r.type == record_continue) out.push_back(r);
  }
  return out;
}

inline std::string le16(unsigned v) { return {static_cast<char>(v & 0xFF), static_cast<char>((v >> 8) & 0xFF)}; }
inline std::string le32(std::uint32_t v) { return le16(v & 0xFFFF) + le16(v >> 16); }
inline std::string record(std::uint16_t type, const std::string& data) { return le16(type) + le16(static_cast<unsigned>(data.size())) + data; }

}  // namespace docconform::sst::testing
