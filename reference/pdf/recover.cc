// Recovery (Recovery::rebuild, `--recover`): when the cross-reference chain cannot be read as
// written, the table is rebuilt from a linear scan of `N G obj` headers and `trailer` keywords,
// the latest definition of a number winning, objects inside the object streams found added, and
// the catalogue taken from the last trailer (or xref stream dictionary) with a /Root, else from
// the last /Type /Catalog object (conformance/SPEC.md format pdf, "Recovery").
#include <algorithm>
#include <string_view>
#include <utility>

#include "docconform/error.h"
#include "document_impl.h"
#include "parser.h"

namespace docconform::pdf {
namespace {

constexpr std::uint64_t scan_window = 1 << 20;
// Bytes kept before each window, for a header that straddles windows: `N G` before `obj` is at
// most 10 + 1 + 10 digits with white space around.
constexpr std::uint64_t scan_overlap = 64;
constexpr std::uint64_t max_number_digits = 10;

bool is_white(std::uint8_t c) { return byte_classes[c] == ByteClass::whitespace; }
bool is_regular(std::uint8_t c) { return byte_classes[c] == ByteClass::regular; }
bool is_digit(std::uint8_t c) { return c >= '0' && c <= '9'; }

// Reads the digits ending just before data[end] (no more than max_number_digits); returns their
// first index, or end when there are none. value receives the number.
std::size_t digits_before(const std::uint8_t* data, std::size_t begin, std::size_t end, std::uint64_t& value) {
  std::size_t at = end;
  while (at > begin && end - at < max_number_digits && is_digit(data[at - 1])) --at;
  value = 0;
  for (std::size_t i = at; i < end; ++i) value = value * 10 + (data[i] - '0');
  return at;
}

std::size_t white_before(const std::uint8_t* data, std::size_t begin, std::size_t end) {
  while (end > begin && is_white(data[end - 1])) --end;
  return end;
}

struct Header {
  std::uint64_t num = 0, gen = 0, offset = 0;
};

// `N G obj` ending just before data[obj] (the keyword at obj), with N at a token boundary;
// data[0] is the file's first byte when at_file_start, else the bytes before it are unknown.
bool header_before(const std::uint8_t* data, bool at_file_start, std::size_t obj, Header& header) {
  const std::size_t begin = 0;
  std::size_t end = white_before(data, begin, obj);
  if (end == obj) return false;
  std::size_t at = digits_before(data, begin, end, header.gen);
  if (at == end) return false;
  end = white_before(data, begin, at);
  if (end == at) return false;
  at = digits_before(data, begin, end, header.num);
  if (at == end) return false;
  if (at > begin && is_regular(data[at - 1])) return false;
  if (at == begin && !at_file_start) return false;  // may continue before the window: not trusted
  header.offset = at;
  return true;
}

// Calls on_header for each `N G obj` and on_trailer for each `trailer` keyword at a token
// boundary, in file order, reading the file a window at a time.
template <typename OnHeader, typename OnTrailer>
void scan(ByteSource& source, std::uint64_t from, OnHeader on_header, OnTrailer on_trailer) {
  const std::uint64_t size = source.size();
  for (std::uint64_t start = from; start < size; start += scan_window) {
    const std::uint64_t keep = std::min(scan_overlap, start - from);
    const std::uint64_t base = start - keep;
    const auto span = static_cast<std::size_t>(std::min(size - base, scan_window + keep + 8));
    const std::uint8_t* data = source.map(base, span);
    const std::string_view text(reinterpret_cast<const char*>(data), span);
    const std::size_t own_end = static_cast<std::size_t>(std::min<std::uint64_t>(span, keep + scan_window));
    const auto boundary_after = [&](std::size_t end) { return end == span ? base + span == size : !is_regular(data[end]); };
    for (std::size_t at = text.find("obj", keep); at != std::string_view::npos && at < own_end; at = text.find("obj", at + 1)) {
      Header header;
      if (boundary_after(at + 3) && header_before(data, base == 0, at, header)) {
        header.offset += base;
        if (header.offset >= from) on_header(header);
      }
    }
    for (std::size_t at = text.find("trailer", keep); at != std::string_view::npos && at < own_end;
         at = text.find("trailer", at + 1)) {
      if (boundary_after(at + 7) && (at == 0 ? base == 0 : !is_regular(data[at - 1]))) on_trailer(base + at + 7);
    }
  }
}

}  // namespace

void Document::rebuild_xref(const Error& cause) {
  const std::string& file = source_.name();
  const std::uint64_t size = source_.size();
  const std::uint64_t parse_budget = limits_.recovery_parse_ratio * size + (1 << 20);
  const std::uint64_t parsed_before = stats_.parsed_bytes;
  const auto charge_parse = [&](std::uint64_t offset) {
    if (stats_.parsed_bytes - parsed_before > parse_budget) {
      throw Error(ErrorKind::limit, {file, "recovery", offset},
                  "rebuilding the xref parsed more than recovery_parse_ratio (" + std::to_string(limits_.recovery_parse_ratio) +
                      ") times the file's size");
    }
  };

  sections_.clear();
  chain_streams_.clear();
  trailer_ = Object{};
  startxref_ = 0;

  // 1. Every header, the latest definition of a number winning.
  std::vector<XrefEntry> table;
  std::vector<std::uint64_t> trailers;
  std::uint64_t headers = 0;
  const ErrorContext where{file, "recovery", std::nullopt};
  scan(
      source_, header_offset_,
      [&](const Header& header) {
        if (header.num == 0 || header.num >= limits_.max_objects || header.gen > UINT32_MAX) return;
        ++headers;
        if (header.num >= table.size()) {
          memory_->charge((header.num + 1 - table.size()) * sizeof(XrefEntry), [&] { return where; });
          table.resize(header.num + 1);
        }
        table[header.num] = XrefEntry{XrefEntry::Type::offset, static_cast<std::uint32_t>(header.gen), header.offset, 0, 0};
      },
      [&](std::uint64_t after_keyword) {
        memory_->charge(sizeof(std::uint64_t), [&] { return where; });
        trailers.push_back(after_keyword);
      });
  if (!table.empty()) table[0] = XrefEntry{XrefEntry::Type::free, 65535, 0, 0, 0};
  xref_ = std::make_shared<const std::vector<XrefEntry>>(table);

  // 2. Each object found, parsed once in file order: object streams, xref stream dictionaries
  // and catalogues. An object that does not parse keeps its entry (reading it fails later).
  std::vector<std::pair<std::uint64_t, std::uint32_t>> in_file_order;
  for (std::uint32_t num = 1; num < table.size(); ++num) {
    if (table[num].type == XrefEntry::Type::offset) in_file_order.emplace_back(table[num].offset, num);
  }
  std::sort(in_file_order.begin(), in_file_order.end());
  std::vector<std::uint32_t> object_streams;
  std::optional<std::pair<std::uint64_t, Object>> xref_stream_root;  // offset, dictionary
  std::optional<std::pair<std::uint64_t, std::uint32_t>> catalog_object;  // offset, number
  Object object;
  for (const auto& [offset, num] : in_file_order) {
    try {
      this->object(num, object);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::format && e.kind() != ErrorKind::limit) throw;
      charge_parse(offset);
      continue;
    }
    charge_parse(offset);
    const Object* type = object.get("Type");
    const std::string_view type_name = type != nullptr && type->kind == Kind::name ? std::string_view(type->bytes) : "";
    if (object.kind == Kind::stream && type_name == "ObjStm") object_streams.push_back(num);
    if (object.kind == Kind::stream && type_name == "XRef" && object.get("Root") != nullptr) xref_stream_root.emplace(offset, object);
    if (object.kind == Kind::dict && type_name == "Catalog") catalog_object.emplace(offset, num);
  }

  // 3. Objects inside the object streams found, for numbers no header defines; of two streams
  // listing a number, the later in the file wins.
  std::uint64_t compressed_count = 0;
  for (const std::uint32_t stream : object_streams) {
    std::vector<std::pair<std::uint32_t, std::uint64_t>> slots;
    try {
      slots = object_stream_slots(*this, stream);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::format && e.kind() != ErrorKind::limit) throw;
      continue;
    }
    for (std::uint32_t index = 0; index < slots.size(); ++index) {
      const std::uint32_t num = slots[index].first;
      if (num == 0 || num >= limits_.max_objects) continue;
      if (num >= table.size()) {
        memory_->charge((num + 1ull - table.size()) * sizeof(XrefEntry), [&] { return where; });
        table.resize(num + 1ull);
      }
      if (table[num].type == XrefEntry::Type::offset) continue;
      if (table[num].type != XrefEntry::Type::compressed) ++compressed_count;
      table[num] = XrefEntry{XrefEntry::Type::compressed, 0, stream, index, 0};
    }
  }
  xref_ = std::make_shared<const std::vector<XrefEntry>>(std::move(table));
  drop_caches();

  // 4. The trailer: the last `trailer` dictionary or xref stream dictionary with a /Root that
  // is a dictionary; else the last /Type /Catalog object.
  const auto root_is_dict = [&](const Object& dict) {
    const Object* root = dict.get("Root");
    if (root == nullptr || root->kind != Kind::ref) return false;
    try {
      return resolve(*root).kind == Kind::dict;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::format && e.kind() != ErrorKind::limit) throw;
      return false;
    }
  };
  std::string root_from;
  for (auto it = trailers.rbegin(); it != trailers.rend() && root_from.empty(); ++it) {
    if (xref_stream_root && xref_stream_root->first > *it) break;
    const std::uint64_t offset = *it;
    Object dict;
    try {
      dict = parse_at(offset, "trailer");
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::format && e.kind() != ErrorKind::limit) throw;
      charge_parse(offset);
      continue;
    }
    charge_parse(offset);
    if (dict.kind == Kind::dict && root_is_dict(dict)) {
      trailer_ = std::move(dict);
      root_from = "trailer at " + std::to_string(offset - 7 - header_offset_);
    }
  }
  if (root_from.empty() && xref_stream_root && root_is_dict(xref_stream_root->second)) {
    trailer_ = std::move(xref_stream_root->second);
    root_from = "xref stream at " + std::to_string(xref_stream_root->first - header_offset_);
  }
  if (root_from.empty() && catalog_object) {
    const XrefEntry& entry = xref()[catalog_object->second];
    trailer_ = Object::make_dict();
    trailer_.set("Root", Object::make_ref(catalog_object->second, entry.gen));
    trailer_.set("Size", Object::make_int(static_cast<std::int64_t>(xref().size())));
    root_from = "catalog object at " + std::to_string(catalog_object->first - header_offset_);
  }
  if (root_from.empty()) {
    throw Error(ErrorKind::format, {file, "recovery", cause.context().offset},
                "xref rebuilt from a scan (" + std::to_string(headers) +
                    " object headers) finds no catalog; the strict read failed: " + cause.message());
  }
  std::uint64_t in_use = 0;
  for (const XrefEntry& entry : xref()) in_use += entry.type == XrefEntry::Type::offset || entry.type == XrefEntry::Type::compressed;
  const std::optional<std::uint64_t> failed_at = cause.context().offset;
  repairs_.push_back("strict read failed at " + (failed_at ? std::to_string(*failed_at) : std::string("-")) + " (" +
                     (cause.context().part.empty() ? std::string("file") : cause.context().part) + "): " + cause.message());
  repairs_.push_back("xref rebuilt from scan: " + std::to_string(in_use) + " objects (" + std::to_string(compressed_count) +
                     " in object streams)");
  repairs_.push_back("catalog from " + root_from);
}

Object Document::parse_at(std::uint64_t offset, const char* part) {
  const std::string& file = source_.name();
  const std::uint64_t size = source_.size();
  std::uint64_t want = 4096;
  for (;;) {
    const std::uint64_t available = size - std::min(offset, size);
    const auto span = static_cast<std::size_t>(std::min(want, available));
    Parser parser(source_.map(offset, span), span, offset, span == available, limits_, file, part);
    try {
      Object value = parser.parse_object();
      stats_.parsed_bytes += parser.pos();
      return value;
    } catch (const NeedMore&) {
      stats_.parsed_bytes += span;
      if (want >= limits_.max_object_bytes) {
        throw Error(ErrorKind::limit, {file, part, offset},
                    "object is larger than " + std::to_string(limits_.max_object_bytes) + " bytes (max_object_bytes)");
      }
      want = std::min(want * 8, limits_.max_object_bytes);
    } catch (const Error&) {
      stats_.parsed_bytes += parser.pos();
      throw;
    }
  }
}

}  // namespace docconform::pdf
