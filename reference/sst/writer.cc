// What both writers share: choosing one by name, and writing a table into memory.
#include <string>

#include "docconform/error.h"
#include "docconform/sst/writer.h"

namespace docconform::sst {

WriteResult write_sst(WriterKind kind, const SstTable& table, RecordSink& sink, std::uint32_t stream_offset) {
  return kind == WriterKind::naive ? write_sst_naive(table, sink, stream_offset) : write_sst_fast(table, sink, stream_offset);
}

const char* to_string(WriterKind kind) { return kind == WriterKind::naive ? "naive" : "fast"; }

WriterKind parse_writer_kind(std::string_view name) {
  if (name == "naive") return WriterKind::naive;
  if (name == "fast") return WriterKind::fast;
  throw Error(ErrorKind::usage, {}, "unknown writer '" + std::string(name) + "' (naive, fast)");
}

std::string sst_bytes(const SstTable& table, WriterKind kind) {
  auto sink = make_memory_sink();
  write_sst(kind, table, *sink);
  sink->finish();
  return std::string(sink->bytes());
}

}  // namespace docconform::sst
