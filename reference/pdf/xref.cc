// Locating and reading the cross-reference chain (§7.5.4-7.5.8): startxref in a bounded tail,
// classic tables, xref streams, hybrid sections (/XRefStm) and /Prev chains, newest entry wins.
#include <algorithm>
#include <cstring>
#include <functional>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>

#include "docconform/error.h"
#include "document_impl.h"
#include "parser.h"

namespace docconform::pdf {
namespace {

using Entries = std::vector<std::pair<std::uint32_t, XrefEntry>>;

std::uint64_t find_bytes_last(std::string_view hay, std::string_view needle, std::uint64_t& at) {
  const auto pos = hay.rfind(needle);
  if (pos == std::string_view::npos) return 0;
  at = pos;
  return 1;
}

void check_object_number(std::uint64_t num, const Limits& limits, const std::string& file, const std::string& part,
                         std::uint64_t offset) {
  if (num >= limits.max_objects) {
    throw Error(ErrorKind::limit, {file, part, offset},
                "object number " + std::to_string(num) + " exceeds max_objects (" + std::to_string(limits.max_objects) + ")");
  }
}

// A classic table from `xref` to the trailer dictionary. Entries are read token by token, which
// accepts the exact 20-byte form and the common 19/21-byte line-ending variants alike.
Object read_table(ByteSource& source, std::uint64_t offset, const Limits& limits, Entries& entries,
                  std::uint64_t& trailer_at) {
  const std::string& file = source.name();
  const std::string part = "xref table";
  std::uint64_t want = 1 << 16;
  for (;;) {
    entries.clear();
    const std::uint64_t available = source.size() - offset;
    const auto span = static_cast<std::size_t>(std::min(want, available));
    Parser parser(source.map(offset, span), span, offset, span == available, limits, file, part);
    try {
      parser.expect_keyword("xref");
      for (;;) {
        parser.skip_ws();
        const std::uint64_t subsection_at = parser.offset();
        if (parser.try_keyword("trailer")) {
          trailer_at = subsection_at;
          break;
        }
        const std::uint64_t first = parser.parse_uint("subsection start (or 'trailer')");
        const std::uint64_t count = parser.parse_uint("subsection count");
        // first is checked alone, so the sum of two 64-bit numbers read from the file cannot wrap.
        check_object_number(first, limits, file, part, subsection_at);
        if (count > 0) check_object_number(first + std::min<std::uint64_t>(count - 1, UINT32_MAX), limits, file, part, subsection_at);
        // Each entry takes at least 5 bytes; a count the remaining bytes cannot hold is a lie.
        if (count > (available - parser.pos()) / 5) {
          throw Error(ErrorKind::format, {file, part, subsection_at},
                      "subsection count " + std::to_string(count) + " exceeds what the file can hold");
        }
        for (std::uint64_t i = 0; i < count; ++i) {
          XrefEntry entry;
          const std::uint64_t field1 = parser.parse_uint("entry offset");
          const std::uint64_t field2 = parser.parse_uint("entry generation");
          parser.skip_ws();
          const std::size_t type_at = parser.pos();
          if (parser.try_keyword("n")) {
            entry.type = XrefEntry::Type::offset;
            entry.offset = field1;
          } else if (parser.try_keyword("f")) {
            entry.type = XrefEntry::Type::free;
          } else {
            parser.set_pos(type_at);
            parser.fail("xref entry type is neither 'n' nor 'f'");
          }
          entry.gen = static_cast<std::uint32_t>(std::min<std::uint64_t>(field2, UINT32_MAX));
          entries.emplace_back(static_cast<std::uint32_t>(first + i), entry);
        }
      }
      Object trailer = parser.parse_object();
      if (trailer.kind != Kind::dict) parser.fail("trailer is not a dictionary");
      return trailer;
    } catch (const NeedMore&) {
      want *= 8;
    }
  }
}

// The /Size of a trailer or xref stream dictionary (§7.5.5, §7.5.8.2): required, an integer
// >= 0, and no more objects than max_objects.
const Object* checked_size(const Object& trailer, const Limits& limits, const std::string& file, const std::string& part,
                           std::uint64_t offset) {
  const Object* size = trailer.get("Size");
  if (size == nullptr || size->kind != Kind::integer || size->integer < 0) {
    throw Error(ErrorKind::format, {file, part, offset}, part + " without an integer /Size >= 0");
  }
  check_object_number(static_cast<std::uint64_t>(size->integer) - (size->integer > 0 ? 1 : 0), limits, file, part, offset);
  return size;
}

// The first offset at or after `offset` that is not PDF white space (§7.2.2), read a window at a
// time; the file's size when only white space follows.
std::uint64_t skip_white_space(ByteSource& source, std::uint64_t offset) {
  constexpr std::uint64_t window = 4096;
  while (offset < source.size()) {
    const auto span = static_cast<std::size_t>(std::min<std::uint64_t>(source.size() - offset, window));
    const std::uint8_t* data = source.map(offset, span);
    std::size_t i = 0;
    while (i < span && is_pdf_whitespace(data[i])) ++i;
    offset += i;
    if (i < span) break;
  }
  return offset;
}

// The numbers of the object header `N G obj` at offset (< the file's size), after any white
// space and comments (rule 3), read in a window that grows as Document::read_at's does.
std::pair<std::uint64_t, std::uint64_t> read_object_header(ByteSource& source, std::uint64_t offset, const Limits& limits) {
  const std::uint64_t available = source.size() - offset;
  for (std::uint64_t want = 64;; want *= 8) {
    const auto span = static_cast<std::size_t>(std::min(want, available));
    Parser probe(source.map(offset, span), span, offset, span == available, limits, source.name(), "xref stream");
    try {
      const std::uint64_t num = probe.parse_uint("object number");
      const std::uint64_t gen = probe.parse_uint("generation number");
      probe.expect_keyword("obj");
      return {num, gen};
    } catch (const NeedMore&) {
    }
  }
}

std::uint64_t field(const std::uint8_t* p, std::uint64_t width) {
  std::uint64_t value = 0;
  for (std::uint64_t i = 0; i < width; ++i) value = (value << 8) | p[i];
  return value;
}

}  // namespace

namespace {

// A section's entries as read, for a hybrid file's table and stream, which are merged with each
// other before they count.
struct EntryList {
  Entries entries;
  void reserve(std::uint64_t /*end*/, std::uint64_t count) { entries.reserve(entries.size() + count); }
  void add(std::uint32_t num, const XrefEntry& entry) { entries.emplace_back(num, entry); }
};

// The merged chain, filled section by section from the newest: an entry only fills a number no
// newer section has listed (free ones included), and the first listing in a section counts.
struct MergedTable {
  std::vector<XrefEntry>& table;
  std::uint64_t header_offset;
  Budget& memory;  // charged for the table as it grows (it is kept for the document's life)
  ErrorContext where;
  std::uint32_t section;  // the index its entries get
  void reserve(std::uint64_t end, std::uint64_t /*count*/) {
    if (end <= table.size()) return;
    memory.charge((end - table.size()) * sizeof(XrefEntry), [&] { return where; });
    table.resize(end);
  }
  void add(std::uint32_t num, XrefEntry entry) {
    if (table[num].type != XrefEntry::Type::absent) return;
    if (entry.type == XrefEntry::Type::offset) entry.offset += header_offset;
    entry.section = section;
    table[num] = entry;
  }
  void add_all(const Entries& entries) {
    std::uint64_t end = 0;
    for (const auto& item : entries) end = std::max<std::uint64_t>(end, item.first + 1ull);
    reserve(end, entries.size());
    for (const auto& [num, entry] : entries) add(num, entry);
  }
};

struct XrefStreamSection {
  Object dictionary;       // also the section's trailer
  std::uint64_t listed = 0;  // entries the section lists
};

// An xref stream. Entries go straight to `sink` (EntryList or MergedTable), so the main section
// of a large file is never held twice.
template <typename Sink>
XrefStreamSection read_xref_stream(Document& doc, std::uint64_t offset, Sink& sink,
                                   const std::function<Object(std::uint64_t, std::uint64_t&)>& read_stream_object) {
  const std::string& file = doc.source().name();
  const Limits& limits = doc.limits();
  std::uint64_t object_num = 0;
  Object stream = read_stream_object(offset, object_num);
  const std::string part = "xref stream " + std::to_string(object_num);
  const Object* type = stream.get("Type");
  if (stream.kind != Kind::stream || type == nullptr || type->kind != Kind::name || type->bytes != "XRef") {
    throw Error(ErrorKind::format, {file, part, offset}, "expected an xref stream (/Type /XRef)");
  }
  const Object* size = checked_size(stream, limits, file, part, offset);
  const Object* w = stream.get("W");
  if (w == nullptr || w->kind != Kind::array || w->items.size() != 3) {
    throw Error(ErrorKind::format, {file, part, offset}, "/W is not an array of three integers");
  }
  std::uint64_t widths[3];
  for (int i = 0; i < 3; ++i) {
    const Object& item = w->items[i];
    if (item.kind != Kind::integer || item.integer < 0 || item.integer > 8) {
      throw Error(ErrorKind::format, {file, part, offset}, "/W field widths must be integers 0..8");
    }
    widths[i] = static_cast<std::uint64_t>(item.integer);
  }
  const std::uint64_t row = widths[0] + widths[1] + widths[2];
  if (row == 0) throw Error(ErrorKind::format, {file, part, offset}, "/W [0 0 0] describes empty entries");
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  if (const Object* index = stream.get("Index"); index != nullptr) {
    if (index->kind != Kind::array || index->items.size() % 2 != 0) {
      throw Error(ErrorKind::format, {file, part, offset}, "/Index is not an array of integer pairs");
    }
    for (std::size_t i = 0; i < index->items.size(); i += 2) {
      const Object& a = index->items[i];
      const Object& b = index->items[i + 1];
      if (a.kind != Kind::integer || b.kind != Kind::integer || a.integer < 0 || b.integer < 0) {
        throw Error(ErrorKind::format, {file, part, offset}, "/Index holds a non-integer or negative value");
      }
      ranges.emplace_back(a.integer, b.integer);
    }
  } else {
    ranges.emplace_back(0, size->integer);
  }
  const std::string data = doc.stream_decoded(stream, {}, part);  // never encrypted: no object key needed
  std::uint64_t total = 0, end = 0;
  for (const auto& [first, count] : ranges) {
    if (count > 0) check_object_number(first + count - 1, limits, file, part, offset);
    if (count > 0) end = std::max(end, first + count);
    total += count;
    if (total > data.size() / row + 1) break;
  }
  if (total > data.size() / row) {
    throw Error(ErrorKind::format, {file, part, offset},
                "decoded data holds " + std::to_string(data.size() / row) + " entries of " + std::to_string(row) +
                    " bytes, /Index and /Size ask for more");
  }
  const auto* p = reinterpret_cast<const std::uint8_t*>(data.data());
  sink.reserve(end, total);
  for (const auto& [first, count] : ranges) {
    for (std::uint64_t i = 0; i < count; ++i, p += row) {
      const std::uint64_t kind = widths[0] == 0 ? 1 : field(p, widths[0]);
      const std::uint64_t f2 = field(p + widths[0], widths[1]);
      const std::uint64_t f3 = field(p + widths[0] + widths[1], widths[2]);
      XrefEntry entry;
      if (kind == 1) {
        entry.type = XrefEntry::Type::offset;
        entry.offset = f2;
        entry.gen = static_cast<std::uint32_t>(std::min<std::uint64_t>(f3, UINT32_MAX));
      } else if (kind == 2) {
        entry.type = XrefEntry::Type::compressed;
        entry.offset = f2;
        entry.index = static_cast<std::uint32_t>(std::min<std::uint64_t>(f3, UINT32_MAX));
      } else {
        entry.type = XrefEntry::Type::free;  // type 0, and unknown types (a reference to null, §7.5.8.3)
        entry.gen = static_cast<std::uint32_t>(std::min<std::uint64_t>(f3, UINT32_MAX));
      }
      sink.add(static_cast<std::uint32_t>(first + i), entry);
    }
  }
  return {std::move(stream), total};
}

}  // namespace

void Document::load_xref() {
  const std::string& file = source_.name();
  const std::uint64_t size = source_.size();

  // Header: %PDF- within the first KiB; bytes before it shift every offset (§7.5.2, PDF 2.0).
  {
    const auto span = static_cast<std::size_t>(std::min<std::uint64_t>(size, 1024));
    const std::string_view head(reinterpret_cast<const char*>(source_.map(0, span)), span);
    const auto at = head.find("%PDF-");
    if (at == std::string_view::npos) throw Error(ErrorKind::format, {file, "header", 0}, "no %PDF- header in the first 1024 bytes");
    header_offset_ = at;
    std::size_t end = at + 5;
    while (end < head.size() && end < at + 16 && ((head[end] >= '0' && head[end] <= '9') || head[end] == '.')) ++end;
    header_version_ = std::string(head.substr(at + 5, end - at - 5));
  }

  // startxref: the last one in the tail followed by an integer.
  std::uint64_t startxref_at = 0;  // where the keyword is
  {
    const std::uint64_t tail = std::min<std::uint64_t>(size, limits_.startxref_tail);
    const auto span = static_cast<std::size_t>(tail);
    const std::string_view hay(reinterpret_cast<const char*>(source_.map(size - tail, span)), span);
    std::string_view search = hay;
    bool found = false;
    while (!found) {
      std::uint64_t at = 0;
      if (!find_bytes_last(search, "startxref", at)) break;
      Parser parser(reinterpret_cast<const std::uint8_t*>(hay.data()) + at + 9, span - at - 9, size - tail + at + 9, true,
                    limits_, file, "startxref");
      try {
        startxref_ = parser.parse_uint("offset");
        startxref_at = size - tail + at;
        found = true;
      } catch (const Error&) {
        // Digits too many for 64 bits are still an offset, and past the end of any file: an
        // error, not a reason to read an earlier revision.
        std::string_view rest = hay.substr(at + 9);
        while (!rest.empty() && is_pdf_whitespace(static_cast<std::uint8_t>(rest.front()))) rest.remove_prefix(1);
        const std::string_view digits = rest.substr(0, rest.find_first_not_of("0123456789"));
        const bool token_ends =
            digits.size() == rest.size() || byte_classes[static_cast<std::uint8_t>(rest[digits.size()])] != ByteClass::regular;
        if (!digits.empty() && token_ends) {
          const std::string shown = digits.size() > 40 ? std::string(digits.substr(0, 40)) + "..." : std::string(digits);
          throw Error(ErrorKind::format, {file, "startxref", size - tail + at},
                      "startxref gives offset " + shown + ", beyond the end of the file (" + std::to_string(size) + " bytes)");
        }
        search = search.substr(0, at);
      }
    }
    if (!found) {
      throw Error(ErrorKind::format, {file, "startxref", size - tail},
                  "no 'startxref' followed by an offset in the last " + std::to_string(tail) + " bytes");
    }
  }

  std::vector<XrefEntry> table;  // the merged chain, newest entry first to fill a number
  std::set<std::uint64_t> visited;
  std::uint64_t next = startxref_ + header_offset_;
  // What wrote an offset of the chain (startxref, or the trailer holding /Prev or /XRefStm, and
  // the name), so that a bad offset is reported where it is written.
  struct OffsetSource {
    ErrorContext at;
    std::string name;
  };
  OffsetSource next_from{{file, "startxref", startxref_at}, "startxref"};  // of `next`
  // An offset as written (counted from %PDF-, rule 1), and its place in the file when that differs.
  const auto written = [&](std::uint64_t offset) {
    return std::to_string(offset - header_offset_) +
           (header_offset_ != 0 ? " (byte " + std::to_string(offset) + " of the file)" : std::string());
  };
  const auto check_in_file = [&](std::uint64_t offset, const OffsetSource& from) {
    if (offset >= size) {
      throw Error(ErrorKind::format, from.at,
                  from.name + " gives offset " + written(offset) + ", beyond the end of the file (" + std::to_string(size) +
                      " bytes)");
    }
  };
  // What gave the offset of the xref stream being read, and what it should find there: where no
  // object header starts, that offset is the fault, reported where it is written.
  OffsetSource stream_from = next_from;
  const char* stream_kind = "";
  const auto read_stream_object = [&](std::uint64_t offset, std::uint64_t& num) {
    std::uint64_t gen = 0;
    try {
      std::tie(num, gen) = read_object_header(source_, offset, limits_);
    } catch (const Error& e) {
      const std::string at = e.context().offset ? " at offset " + std::to_string(*e.context().offset) : "";
      throw Error(ErrorKind::format, stream_from.at,
                  stream_from.name + " gives offset " + written(offset) + ", where no " + stream_kind + " starts (" + e.message() +
                      at + ")");
    }
    if (num > UINT32_MAX || gen > UINT32_MAX) {
      throw Error(ErrorKind::format, {file, "xref stream", offset}, "object number out of range");
    }
    if (num == 0) {
      throw Error(ErrorKind::format, {file, "xref stream", offset},
                  "object number 0 (object numbers are positive, ISO 32000-2 7.3.10)");
    }
    Object stream;
    read_at(offset, static_cast<std::uint32_t>(num), static_cast<std::uint32_t>(gen), false, stream);
    chain_streams_.push_back({{static_cast<std::uint32_t>(num), static_cast<std::uint32_t>(gen)}, offset});
    return stream;
  };
  for (bool newest = true;; newest = false) {
    if (!visited.insert(next).second) {
      throw Error(ErrorKind::format, {file, "xref", next}, "/Prev chain loops back to a section already read");
    }
    if (sections_.size() >= limits_.max_xref_sections) {
      throw Error(ErrorKind::limit, {file, "xref", next}, "more than max_xref_sections cross-reference sections");
    }
    check_in_file(next, next_from);
    XrefSection section;
    section.offset = next - header_offset_;
    MergedTable merged_table{table, header_offset_, *memory_, {file, "xref", next}, static_cast<std::uint32_t>(sections_.size())};
    Object trailer;
    // White space before `xref` is skipped, as the object parser skips it before `N G obj`.
    const std::uint64_t keyword_at = skip_white_space(source_, next);
    const auto probe_span = static_cast<std::size_t>(std::min<std::uint64_t>(size - keyword_at, 4));
    const bool is_table = probe_span == 4 && std::memcmp(source_.map(keyword_at, probe_span), "xref", 4) == 0;
    std::uint64_t trailer_at = next;  // a table's trailer keyword, or the stream's object
    if (is_table) {
      Entries entries;
      trailer = read_table(source_, keyword_at, limits_, entries, trailer_at);
      checked_size(trailer, limits_, file, "trailer", trailer_at);
      if (const Object* stm = trailer.get("XRefStm"); stm != nullptr) {
        if (stm->kind != Kind::integer || stm->integer < 0) {
          throw Error(ErrorKind::format, {file, "trailer", trailer_at}, "/XRefStm is not an offset");
        }
        const std::uint64_t stm_at = static_cast<std::uint64_t>(stm->integer) + header_offset_;
        if (!visited.insert(stm_at).second) throw Error(ErrorKind::format, {file, "xref", stm_at}, "/XRefStm points at a section already read");
        stream_from = {{file, "trailer", trailer_at}, "/XRefStm"};
        stream_kind = "xref stream";
        check_in_file(stm_at, stream_from);
        EntryList stream_list;
        read_xref_stream(*this, stm_at, stream_list, read_stream_object);
        const Entries& stream_entries = stream_list.entries;
        // Hybrid (§7.5.8.4): the stream supplies what the table lists as free or omits.
        std::vector<std::pair<std::uint32_t, XrefEntry>> merged;
        std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& item : stream_entries) {
          auto it = std::lower_bound(entries.begin(), entries.end(), item.first,
                                     [](const auto& a, std::uint32_t n) { return a.first < n; });
          if (it == entries.end() || it->first != item.first || it->second.type == XrefEntry::Type::free) {
            merged.push_back(item);
          }
        }
        section.entries = static_cast<std::uint32_t>(entries.size() + stream_entries.size());
        entries.insert(entries.begin(), merged.begin(), merged.end());
        section.form = XrefSection::Form::hybrid;
      } else {
        section.entries = static_cast<std::uint32_t>(entries.size());
      }
      merged_table.add_all(entries);
    } else {
      stream_from = next_from;
      stream_kind = "cross-reference section";
      XrefStreamSection read = read_xref_stream(*this, next, merged_table, read_stream_object);
      trailer = std::move(read.dictionary);
      section.form = XrefSection::Form::stream;
      section.entries = static_cast<std::uint32_t>(read.listed);
    }
    sections_.push_back(section);
    if (newest) trailer_ = trailer;
    const Object* prev = trailer.get("Prev");
    if (prev == nullptr) break;
    if (prev->kind != Kind::integer || prev->integer < 0) {
      throw Error(ErrorKind::format, {file, "trailer", trailer_at}, "/Prev is not an offset");
    }
    next_from = {{file, "trailer", trailer_at}, "/Prev"};
    next = static_cast<std::uint64_t>(prev->integer) + header_offset_;
  }
  // §7.5.5 (/Size): an object whose number is greater than the newest trailer's /Size is missing.
  const auto declared_size = static_cast<std::uint64_t>(trailer_.get("Size")->integer);
  if (table.size() > declared_size + 1) table.resize(declared_size + 1);
  if (table.size() > 0) table[0] = XrefEntry{XrefEntry::Type::free, 65535, 0, 0};
  xref_ = std::make_shared<const std::vector<XrefEntry>>(std::move(table));
}

}  // namespace docconform::pdf
