#include "xref_write.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>

#include "docconform/error.h"
#include "docconform/pdf/writer.h"

namespace docconform::pdf {
namespace {

void sort_entries(std::vector<XrefWriteEntry>& entries) {
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.num < b.num; });
}

// Contiguous runs of object numbers: (first index in entries, count).
std::vector<std::pair<std::size_t, std::size_t>> runs(const std::vector<XrefWriteEntry>& entries) {
  std::vector<std::pair<std::size_t, std::size_t>> result;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!result.empty() && entries[i].num == entries[i - 1].num + 1) {
      ++result.back().second;
    } else {
      result.emplace_back(i, 1);
    }
  }
  return result;
}

}  // namespace

std::string deflate_bytes(const std::string& data) {
  uLongf size = compressBound(static_cast<uLong>(data.size()));
  std::string out(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(data.data()),
                static_cast<uLong>(data.size()), 6) != Z_OK) {
    throw Error(ErrorKind::io, {}, "zlib compression failed");
  }
  out.resize(size);
  return out;
}

std::string xref_table_section(std::vector<XrefWriteEntry> entries, Object trailer, std::uint64_t size, std::uint64_t prev) {
  sort_entries(entries);
  std::string out = "xref\n";
  char line[32];
  for (const auto& [start, count] : runs(entries)) {
    out += std::to_string(entries[start].num) + " " + std::to_string(count) + "\n";
    for (std::size_t i = start; i < start + count; ++i) {
      const XrefWriteEntry& e = entries[i];
      std::snprintf(line, sizeof line, "%010llu %05u %c\r\n", static_cast<unsigned long long>(e.type == 1 ? e.offset : 0),
                    static_cast<unsigned>(e.gen), e.type == 1 ? 'n' : 'f');
      out += line;
    }
  }
  trailer.set("Size", Object::make_int(static_cast<std::int64_t>(size)));
  if (prev != 0) trailer.set("Prev", Object::make_int(static_cast<std::int64_t>(prev)));
  out += "trailer\n";
  append_pdf_syntax(out, trailer);
  out += "\n";
  return out;
}

std::string xref_stream_section(std::vector<XrefWriteEntry> entries, Object trailer, std::uint64_t size, std::uint64_t prev,
                                std::uint64_t at, bool compress) {
  const auto self = static_cast<std::uint32_t>(size);
  entries.push_back({self, 0, at, 0, 1});
  sort_entries(entries);
  std::uint64_t largest = 0;
  for (const auto& e : entries) largest = std::max<std::uint64_t>(largest, e.offset);
  int width = 1;
  while (width < 8 && (largest >> (8 * width)) != 0) ++width;
  const int row = 1 + width + 2;
  std::string data;
  data.reserve(entries.size() * (row + 1));
  std::string previous(row, '\0');
  for (const auto& e : entries) {
    std::string current(row, '\0');
    current[0] = static_cast<char>(e.type);
    for (int k = 0; k < width; ++k) current[1 + k] = static_cast<char>(e.offset >> (8 * (width - 1 - k)));
    const std::uint32_t third = e.type == 2 ? e.index : e.gen;
    current[1 + width] = static_cast<char>(third >> 8);
    current[2 + width] = static_cast<char>(third);
    if (compress) {
      data += '\x02';  // PNG Up: each byte minus the byte above it
      for (int k = 0; k < row; ++k) data += static_cast<char>(current[k] - previous[k]);
      previous = current;
    } else {
      data += current;
    }
  }
  Object index;
  index.kind = Kind::array;
  for (const auto& [start, count] : runs(entries)) {
    index.items.push_back(Object::make_int(entries[start].num));
    index.items.push_back(Object::make_int(static_cast<std::int64_t>(count)));
  }
  Object w;
  w.kind = Kind::array;
  for (int v : {1, width, 2}) w.items.push_back(Object::make_int(v));
  trailer.set("Type", Object::make_name("XRef"));
  trailer.set("Size", Object::make_int(static_cast<std::int64_t>(size + 1)));
  trailer.set("W", w);
  trailer.set("Index", index);
  if (prev != 0) trailer.set("Prev", Object::make_int(static_cast<std::int64_t>(prev)));
  if (compress) {
    data = deflate_bytes(data);
    trailer.set("Filter", Object::make_name("FlateDecode"));
    Object parms = Object::make_dict();
    parms.set("Predictor", Object::make_int(12));
    parms.set("Columns", Object::make_int(row));
    trailer.set("DecodeParms", parms);
  }
  trailer.set("Length", Object::make_int(static_cast<std::int64_t>(data.size())));
  std::string out = std::to_string(self) + " 0 obj\n";
  append_pdf_syntax(out, trailer);
  out += "\nstream\n";
  out += data;
  out += "\nendstream\nendobj\n";
  return out;
}

}  // namespace docconform::pdf
