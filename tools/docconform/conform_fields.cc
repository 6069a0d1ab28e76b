#include "conform_fields.h"

#include "docconform/sha256.h"

namespace docconform::cli {
namespace {

struct FieldRule {
  std::string_view word;  // the line's first word; "\"" matches a line that starts with a quoted string
  std::string_view field;
};

// A line kind not listed here (the header, `end`, and any kind a later dump version adds) is "other".
// xlsx: a cell's sheet is part of it, so each `sheet` line also puts "sheet <index>" in the cells
// field: the same cells in another sheet are other cells.
struct FieldTable {
  std::vector<FieldRule> rules;
  std::string_view sheet_word;   // xlsx: `sheet`
  std::string_view sheet_field;  // xlsx: cells
};

const FieldTable& field_table(const std::string& format) {
  static const FieldTable xlsx{{{"workbook", "sheets"}, {"sheet", "sheets"}, {"cell", "cells"}, {"formula", "cells"}},
                               "sheet", "cells"};
  static const FieldTable pdf{{{"pages", "pages"}, {"page", "pages"}, {"objects", "objects"}, {"xref", "objects"},
                               {"obj", "objects"}},
                              "", ""};
  static const FieldTable sst{{{"strings", "strings"}, {"\"", "strings"}}, "", ""};
  static const FieldTable none{{}, "", ""};
  if (format == "xlsx") return xlsx;
  if (format == "pdf" || format == "pdf3") return pdf;
  if (format == "sst") return sst;
  return none;
}

std::string_view first_word(std::string_view line) {
  if (!line.empty() && line.front() == '"') return "\"";
  return line.substr(0, line.find(' '));
}

}  // namespace

std::vector<std::string> dump_field_names(const std::string& format) {
  std::vector<std::string> names;
  for (const FieldRule& rule : field_table(format).rules) {
    if (names.empty() || names.back() != rule.field) names.emplace_back(rule.field);
  }
  names.emplace_back("other");
  return names;
}

std::map<std::string, FieldDigest> dump_field_digests(const std::string& format, std::string_view dump) {
  const FieldTable& table = field_table(format);
  std::map<std::string, Sha256> hashes;
  std::map<std::string, FieldDigest> fields;
  for (const auto& name : dump_field_names(format)) {
    hashes[name];
    fields[name];
  }
  const auto add = [&](std::string_view field, std::string_view line, bool counted) {
    const std::string name(field);
    hashes[name].update(line);
    hashes[name].update("\n");
    if (counted) ++fields[name].lines;
  };
  while (!dump.empty()) {
    const std::size_t end = dump.find('\n');
    const std::string_view line = dump.substr(0, end);
    dump.remove_prefix(end == std::string_view::npos ? dump.size() : end + 1);
    const std::string_view word = first_word(line);
    std::string_view field = "other";
    for (const FieldRule& rule : table.rules) {
      if (rule.word == word) {
        field = rule.field;
        break;
      }
    }
    add(field, line, true);
    if (!table.sheet_word.empty() && word == table.sheet_word) {
      const std::size_t index_end = line.find(' ', word.size() + 1);
      add(table.sheet_field, line.substr(0, index_end), false);  // a marker, not a line of the field
    }
  }
  for (auto& [name, digest] : fields) digest.sha256 = hashes[name].final_hex();
  return fields;
}

}  // namespace docconform::cli
