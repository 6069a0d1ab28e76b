// SST reader: SST + CONTINUE payloads back into strings, following the continuation rules of
// every writer seen in the wild (conformance/SPEC.md, format sst, "Reader rules"): a string may start at
// the very end of a record, character data continues after a flags byte (only bit 0 is
// meaningful; any other bit set is rejected), with a width independent of the first segment;
// runs and ExtRst continue with no flags byte, across any number of records. Errors name the
// byte offset in the record stream.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docconform/budget.h"
#include "docconform/sst/model.h"

namespace docconform::sst {

struct Record {
  std::uint16_t type = 0;
  std::uint64_t offset = 0;  // stream position of the record header
  std::string_view data;
};

// Splits a byte stream into records; truncated headers or data are format errors. The list is
// charged to memory when given.
std::vector<Record> split_records(std::string_view stream, const std::string& label = {}, Budget* memory = nullptr);

struct ReadOptions {
  Limits limits;
  std::string label;  // file name for error messages
  // Charged for the records and the strings read (limits.max_memory); none: not counted.
  Budget* memory = nullptr;
  // Where each string's cch field lies (filled when not null): ib = stream position,
  // cb_offset = offset from the containing record's header.
  std::vector<ExtSstEntry>* string_starts = nullptr;
};

// records[0] is the SST record; the CONTINUE records follow it. Reads cstUnique strings;
// bytes after the last string are ignored (as xlrd, POI and LibreOffice do).
SstTable read_sst(std::span<const Record> records, const ReadOptions& options = {});

// A raw SST record file (our "sst write" output, a .sst conformance case): SST, CONTINUE*,
// optional EXTSST, nothing else.
struct SstFile {
  SstTable table;
  std::optional<ExtSst> extsst;
  std::vector<ExtSstEntry> string_starts;
};
SstFile read_sst_file(std::string_view bytes, const ReadOptions& options = {});

ExtSst parse_extsst(const Record& record, const std::string& label = {});

// Disagreements between an EXTSST and the string positions the reader saw (empty = consistent):
// bucket size, bucket count and each bucket's (ib, cbOffset) per the spec formula.
std::vector<std::string> check_extsst(const ExtSst& extsst, std::span<const ExtSstEntry> string_starts);

}  // namespace docconform::sst
