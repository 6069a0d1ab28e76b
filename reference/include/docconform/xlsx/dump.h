// The canonical dump of a workbook (conformance/SPEC.md, format xlsx, version 1) and its SHA-256.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "docconform/output_limit.h"
#include "docconform/xlsx/workbook.h"

namespace docconform::xlsx {

inline constexpr int dump_version = 1;

// Writes the dump in pieces to sink (so a huge workbook need not be held as one string).
void write_dump(const Workbook& workbook, const std::function<void(std::string_view)>& sink);
std::string dump(const Workbook& workbook);
std::string dump_sha256(const Workbook& workbook);

// Parsed sheet chunks (LoadOptions::chunk_bytes of XML each) the streamed dump lets wait to be
// written, beside one per thread: enough to keep the threads busy while the dump is written.
inline constexpr std::size_t default_dump_window = 8;

// The same dump of a workbook's bytes, written as the sheets are parsed instead of from a loaded
// model: memory holds the shared string table (up to options.table_memory), each sheet's merged
// ranges, comments and tables, and a window of chunks, not the cells. (A sheet whose cells are
// out of (row, column) order, or whose split was not at a row boundary, is held whole, as the
// full load holds it.) The dump is written by the one pass below into a temporary file ($TMPDIR,
// else /tmp) and passed to sink once complete; where no such file can be had, the sheets are
// parsed twice, a survey first. Either way every error is found before the first piece goes to
// sink, and is the full load's (the same kind, part and offset), except that max_memory counts
// what is held at once, not the whole model; a dump past limits.max_output_bytes is Error(limit)
// naming label. Sheets are always inflated on the workers (options.inflate is not used).
void write_streamed_dump(std::string_view bytes, const LoadOptions& options, const std::string& label,
                         const std::function<void(std::string_view)>& sink, const OutputLimits& limits = {},
                         std::size_t window = default_dump_window);
// The same for a file, read through a memory mapping (as load_workbook_file).
void write_streamed_dump_file(const std::string& path, const LoadOptions& options,
                              const std::function<void(std::string_view)>& sink, const OutputLimits& limits = {},
                              std::size_t window = default_dump_window);

// The same dump into a sink that can go back to a point it passed, stopped at
// limits.max_output_bytes (Error(limit) naming label). Each sheet is parsed once where no
// survey is needed before its first line: the sheets before the first with merged ranges that
// may hide one of its cells, cells out of order or an unsafe split, from which on the sheets
// get both passes. On an error of the input the sink is restarted and both passes find it: the
// error is write_streamed_dump's (but for max_memory: each counts what it holds at once), and
// the sink may hold a prefix of the dump. A failure of the sink is thrown as it comes.
void write_streamed_dump(std::string_view bytes, const LoadOptions& options, const std::string& label, RewindableSink& sink,
                         const OutputLimits& limits = {}, std::size_t window = default_dump_window);
// The same for a file, read through a memory mapping.
void write_streamed_dump_file(const std::string& path, const LoadOptions& options, RewindableSink& sink,
                              const OutputLimits& limits = {}, std::size_t window = default_dump_window);

// The SHA-256 (lowercase hex) of the streamed dump, taken through a rewindable sink.
std::string streamed_dump_sha256(std::string_view bytes, const LoadOptions& options, const std::string& label,
                                 const OutputLimits& limits = {}, std::size_t window = default_dump_window);
// The same for a file, read through a memory mapping.
std::string streamed_dump_sha256_file(const std::string& path, const LoadOptions& options,
                                      const OutputLimits& limits = {}, std::size_t window = default_dump_window);

}  // namespace docconform::xlsx
