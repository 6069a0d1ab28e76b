// The fields of a canonical dump that `conform sweep` compares one by one. Each line of a dump
// belongs to one field by its first word (conformance/SPEC.md sections 4-6), so two dumps agree
// on a field when that field's lines are equal, in order.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace docconform::cli {

struct FieldDigest {
  std::uint64_t lines = 0;
  std::string sha256;  // hex, of the field's lines each ended by LF

  bool operator==(const FieldDigest&) const = default;
};

// The field names of a format, in report order: xlsx sheets, cells, other; pdf and pdf3 pages,
// objects, other; sst strings, other; any other format only "other".
std::vector<std::string> dump_field_names(const std::string& format);

// Every field of the format's dump, an empty field included (0 lines).
std::map<std::string, FieldDigest> dump_field_digests(const std::string& format, std::string_view dump);

}  // namespace docconform::cli
