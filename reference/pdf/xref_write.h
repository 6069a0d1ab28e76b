// Serializing a cross-reference section: shared by the update writer and the generator.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "docconform/pdf/object.h"

namespace docconform::pdf {

struct XrefWriteEntry {
  std::uint32_t num = 0;
  std::uint32_t gen = 0;
  std::uint64_t offset = 0;  // type 1: byte offset; type 2: object stream number
  std::uint32_t index = 0;   // type 2: index in the object stream
  std::uint8_t type = 1;     // 0 free, 1 in use, 2 compressed
};

// "xref", contiguous subsections of 20-byte entries, "trailer" and the dictionary (trailer
// plus /Size and, when prev is non-zero, /Prev). Entries may come in any order.
std::string xref_table_section(std::vector<XrefWriteEntry> entries, Object trailer, std::uint64_t size, std::uint64_t prev);

// An xref stream object numbered size (so /Size becomes size + 1) at offset `at`, with an entry
// for itself, /W sized to the largest offset, optionally Flate-compressed with the PNG Up
// predictor. prev 0 means no /Prev.
std::string xref_stream_section(std::vector<XrefWriteEntry> entries, Object trailer, std::uint64_t size, std::uint64_t prev,
                                std::uint64_t at, bool compress = false);

// zlib compression (level 6) of data.
std::string deflate_bytes(const std::string& data);

}  // namespace docconform::pdf
