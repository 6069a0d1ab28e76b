// Incremental updates (§7.5.6): original bytes, then the changed objects, then a new
// cross-reference section (table or stream, as the newest section is) whose trailer /Prev
// points at the previous one.
#include <algorithm>
#include <cstdio>
#include <map>

#include "docconform/error.h"
#include "docconform/output_file.h"
#include "docconform/pdf/dump.h"
#include "docconform/pdf/source.h"
#include "docconform/pdf/writer.h"
#include "docconform/utf8.h"
#include "xref_write.h"

namespace docconform::pdf {
namespace {

// A PDF text string (§7.9.2.2) of UTF-8 text: ASCII bytes mean the same in PDFDocEncoding;
// anything else is written as UTF-16BE after the byte-order mark FE FF.
Object text_string(std::string_view utf8) {
  if (std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    return Object::make_string(utf8);
  }
  std::string bytes = "\xFE\xFF";
  for (const char16_t unit : decode_utf8(utf8)) {
    bytes += static_cast<char>(unit >> 8);
    bytes += static_cast<char>(unit & 0xFF);
  }
  return Object::make_string(bytes);
}

std::uint32_t generation_for(const Document& document, std::uint32_t num) {
  if (num >= document.xref().size()) return 0;
  const XrefEntry& entry = document.xref()[num];
  // A free entry holds the generation to use when the number is reused.
  return entry.type == XrefEntry::Type::compressed ? 0 : entry.gen;
}

}  // namespace

std::uint64_t write_incremental_update(Document& document, const UpdateChanges& changes, std::ostream& out) {
  ByteSource& source = document.source();
  const std::string& file = source.name();
  const std::uint64_t size = source.size();
  // Every change is checked before the first byte is written.
  for (const auto& change : changes.objects) {
    const std::uint32_t num = change.first;
    if (num == 0) throw Error(ErrorKind::usage, {file, "", std::nullopt}, "object 0 cannot be written");
    if (num >= document.limits().max_objects) {
      throw Error(ErrorKind::usage, {file, "", std::nullopt},
                  "object number " + std::to_string(num) + " is not below max_objects (" +
                      std::to_string(document.limits().max_objects) + "): readers would reject the update");
    }
  }
  constexpr std::uint64_t chunk = 1 << 20;
  for (std::uint64_t at = 0; at < size; at += chunk) {
    const auto n = static_cast<std::size_t>(std::min(chunk, size - at));
    out.write(reinterpret_cast<const char*>(source.map(at, n)), static_cast<std::streamsize>(n));
  }
  std::uint64_t position = size;
  std::uint8_t last = 0;
  source.read(size - 1, 1, &last);
  if (last != '\n' && last != '\r') {
    out << '\n';
    ++position;
  }

  Object trailer = document.trailer();
  std::uint64_t next_number = document.xref().size();
  if (const Object* declared = trailer.get("Size"); declared != nullptr && declared->kind == Kind::integer && declared->integer > 0) {
    next_number = std::max<std::uint64_t>(next_number, static_cast<std::uint64_t>(declared->integer));
  }
  std::map<std::uint32_t, Object> objects;
  for (const auto& [num, object] : changes.objects) objects[num] = object;
  for (const auto& [num, object] : objects) next_number = std::max<std::uint64_t>(next_number, num + 1ull);

  if (!changes.info.empty()) {
    std::uint32_t info_num = 0;
    Object info;
    const Object* ref = trailer.get("Info");
    if (ref != nullptr && ref->kind == Kind::ref && ref->integer > 0 && ref->integer < static_cast<std::int64_t>(UINT32_MAX)) {
      info_num = static_cast<std::uint32_t>(ref->integer);
      info = objects.count(info_num) ? objects[info_num] : document.resolve(*ref);
    }
    if (info_num == 0) {
      info_num = static_cast<std::uint32_t>(next_number++);
      trailer.set("Info", Object::make_ref(info_num, 0));
    }
    if (info.kind != Kind::dict) info = Object::make_dict();
    for (const auto& [key, value] : changes.info) info.set(key, text_string(value));
    objects[info_num] = info;
  }

  const std::uint64_t base = document.header_offset();
  std::vector<XrefWriteEntry> entries;
  for (const auto& [num, object] : objects) {
    const std::uint32_t gen = generation_for(document, num);
    std::string text = std::to_string(num) + " " + std::to_string(gen) + " obj\n";
    append_pdf_syntax(text, object);
    text += "\nendobj\n";
    entries.push_back({num, gen, position - base});
    out << text;
    position += text.size();
  }

  // The new trailer: every key of the newest one except the chain links, with /Size and /Prev.
  Object new_trailer = Object::make_dict();
  static const char* const dropped[] = {"Prev", "XRefStm", "Size", "Type", "W", "Index", "Filter", "DecodeParms", "Length"};
  std::vector<std::size_t> live = trailer.live_entries();  // overridden duplicates and nulls left out
  std::sort(live.begin(), live.end());                      // in document order
  for (const std::size_t i : live) {
    if (std::find(std::begin(dropped), std::end(dropped), trailer.keys[i]) != std::end(dropped)) continue;
    new_trailer.keys.push_back(trailer.keys[i]);
    new_trailer.items.push_back(trailer.items[i]);
  }
  const bool stream_form = document.sections().front().form == XrefSection::Form::stream;
  const std::uint64_t xref_at = position - base;
  const std::uint64_t prev = document.startxref();
  std::string section = stream_form ? xref_stream_section(entries, new_trailer, next_number, prev, xref_at)
                                    : xref_table_section(entries, new_trailer, next_number, prev);
  section += "startxref\n" + std::to_string(xref_at) + "\n%%EOF\n";
  out << section;
  if (!out) throw Error(ErrorKind::io, {}, "writing the update to the output stream failed");
  return xref_at;
}

void append_incremental_update(Document& document, const UpdateChanges& changes, const std::string& path) {
  OutputFile out(path, OutputFile::Accept::regular_file);
  write_incremental_update(document, changes, out.stream());
  out.stream().flush();
  try {
    auto written = open_source(out.written_path(), SourceOptions{SourceKind::pread});
    Document check(*written, document.limits());
    write_pdf_dump(check, max_dump_level, [](std::string_view) {});
  } catch (const Error& e) {
    // Named after the output, not the temporary file.
    throw Error(e.kind(), {path, e.context().part, e.context().offset},
                (e.kind() == ErrorKind::io ? "reading it back failed: " : "not written: this reader refuses the result: ") + e.message());
  }
  out.commit();
}

}  // namespace docconform::pdf
