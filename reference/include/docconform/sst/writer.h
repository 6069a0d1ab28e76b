// SST serialization: SST (0x00FC) + CONTINUE (0x003C) records + EXTSST (0x00FF).
//
// Continuation rules (conformance/SPEC.md, format sst, "Writer rules"): a string's header and its first
// character stay in one record (else the string starts a new CONTINUE, with no flags byte);
// character data splits on character boundaries, the continuation starting with a flags byte
// 0x00 or 0x01 (a 2-byte string leaves an odd last byte of a record unused); each 4-byte
// FormatRun stays whole; ExtRst continues without a flags byte, its first 8 bytes and the next 6
// kept together, the rest split only at even offsets. Records are filled up to 8,224 bytes.
// EXTSST follows the spec formula for the bucket size.
//
// Two writers produce the same bytes: the naive one makes one virtual call per byte (the oracle,
// shaped like the original POI code); the fast one claims a whole record at a time and fills it
// with bulk copies, deciding per string or per chunk where the record ends.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "docconform/sst/model.h"
#include "docconform/sst/sink.h"

namespace docconform::sst {

enum class WriterKind { naive, fast };
const char* to_string(WriterKind kind);
WriterKind parse_writer_kind(std::string_view name);  // throws Error(usage)

struct WriteResult {
  std::uint64_t bytes = 0;  // SST, CONTINUE and EXTSST records, headers included
  ExtSst extsst;
};

// Writes the records into sink (which the caller finishes). stream_offset is the position of
// the SST record header in the Workbook stream: the base of the EXTSST stream positions.
// The table's limits were checked as its strings were appended: every table can be written.
WriteResult write_sst_naive(const SstTable& table, RecordSink& sink, std::uint32_t stream_offset = 0);
WriteResult write_sst_fast(const SstTable& table, RecordSink& sink, std::uint32_t stream_offset = 0);
WriteResult write_sst(WriterKind kind, const SstTable& table, RecordSink& sink, std::uint32_t stream_offset = 0);

// The records in memory.
std::string sst_bytes(const SstTable& table, WriterKind kind = WriterKind::fast);

}  // namespace docconform::sst
