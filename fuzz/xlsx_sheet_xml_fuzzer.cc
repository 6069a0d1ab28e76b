// xlsx_sheet_xml: worksheet XML alone. The SpreadsheetML scanner against expat: on every input
// expat accepts as well-formed (forced to UTF-8, no DTD), the scanner accepts it too and
// reports the same elements, attribute values and character data (adjacent text and CDATA
// merged), unless the XML declaration names another encoding, which the scanner rejects. Then
// the sheet parser runs on it, whole and split at row boundaries, and the two results must
// agree; whole, with and without the shortcut for plain cells, it must give the same result or
// the same error at the same offset. Nothing may crash, leak or hang.
#include <expat.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "xlsx/rich_text.h"
#include "xlsx/sheet_parser.h"
#include "xlsx/xml_scanner.h"
#include "xlsx/xml_text.h"
#include "docconform/error.h"
#include "fuzz_check.h"

namespace {

using docconform::xlsx::Token;

constexpr std::size_t max_input = 1 << 16;

// Events as one string: "<name a=v b=w>" for starts (attributes in document order), "</>" for
// ends, "T:" + text for merged character data.
struct Events {
  std::string out;
  std::string text;
  bool other_encoding = false;  // the XML declaration names an encoding other than UTF-8
  void flush() {
    if (!text.empty()) out += "T:" + text + "\n";
    text.clear();
  }
};

void XMLCALL on_start(void* data, const XML_Char* name, const XML_Char** attributes) {
  auto* e = static_cast<Events*>(data);
  e->flush();
  e->out += "<";
  e->out += name;
  for (int i = 0; attributes[i] != nullptr; i += 2) {
    e->out += " ";
    e->out += attributes[i];
    e->out += "=";
    e->out += attributes[i + 1];
  }
  e->out += ">\n";
}

void XMLCALL on_end(void* data, const XML_Char*) {
  auto* e = static_cast<Events*>(data);
  e->flush();
  e->out += "</>\n";
}

void XMLCALL on_text(void* data, const XML_Char* s, int length) {
  static_cast<Events*>(data)->text.append(s, static_cast<std::size_t>(length));
}

void XMLCALL on_declaration(void* data, const XML_Char*, const XML_Char* encoding, int) {
  if (encoding == nullptr) return;
  std::string upper(encoding);
  for (char& c : upper) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  static_cast<Events*>(data)->other_encoding = upper != "UTF-8";
}

// Expat's events, forced to UTF-8. other_encoding: the declaration names another encoding,
// which expat (forced) ignores and the scanner rejects (OPC M1.17; SPEC, Encoding).
bool expat_events(const std::uint8_t* data, std::size_t size, std::string& out, bool& other_encoding) {
  XML_Parser parser = XML_ParserCreate("UTF-8");
  Events events;
  XML_SetUserData(parser, &events);
  XML_SetElementHandler(parser, on_start, on_end);
  XML_SetCharacterDataHandler(parser, on_text);
  XML_SetXmlDeclHandler(parser, on_declaration);
  const bool ok = XML_Parse(parser, reinterpret_cast<const char*>(data), static_cast<int>(size), 1) == XML_STATUS_OK;
  XML_ParserFree(parser);
  events.flush();
  out = std::move(events.out);
  other_encoding = events.other_encoding;
  return ok;
}

// The same events from the scanner; false when it rejects the input.
bool scanner_events(const std::uint8_t* data, std::size_t size, std::string& out, bool& limit) {
  using namespace docconform::xlsx;
  Events events;
  try {
    XmlScanner sc(data, size, 0, true, ScanLimits{64, 1 << 20, 512});
    for (Token t = sc.next(); t != Token::end_of_input; t = sc.next()) {
      switch (t) {
        case Token::start: {
          events.flush();
          events.out += "<";
          if (sc.prefix().data) events.out += std::string(sc.prefix().view()) + ":";  // a colon was there
          events.out += sc.local().view();
          for (const auto& a : sc.attributes()) {
            events.out += " ";
            if (a.prefix.data) events.out += std::string(a.prefix.view()) + ":";
            events.out += std::string(a.local.view()) + "=" + attribute_bytes(a, sc.token_offset());
          }
          events.out += ">\n";
          break;
        }
        case Token::end:
          events.flush();
          events.out += "</>\n";
          break;
        case Token::text:
        case Token::cdata: {
          TextCollector c;
          c.reset();
          c.add(sc, t);
          events.text.append(c.bytes().view());
          break;
        }
        default: break;
      }
    }
  } catch (const docconform::Error& e) {
    limit = e.kind() == docconform::ErrorKind::limit;
    return false;
  }
  events.flush();
  out = std::move(events.out);
  return true;
}

bool text_type(docconform::xlsx::CellType t) {
  using docconform::xlsx::CellType;
  return t == CellType::string || t == CellType::error || t == CellType::date;  // payload = arena offset
}

// The sheet parser's result as text, or the error (kind, offset, message).
std::string parse(const std::uint8_t* data, std::size_t size, std::size_t chunk, bool shortcut = true) {
  using namespace docconform::xlsx;
  SheetParseContext context;
  context.shared_strings = 4;
  context.limits = ScanLimits{64, 1 << 20, 512};
  context.shortcut = shortcut;
  TextCollector collector;
  std::string out;
  try {
    std::size_t at = 0;
    std::uint32_t previous = 0;
    std::vector<ChunkResult> results;
    while (true) {
      const std::size_t left = size - at;
      std::size_t length = 0;
      if (chunk != 0 && left > chunk) length = find_row_split(data + at, std::min(left, chunk), 1);
      ChunkResult r;
      parse_sheet_chunk(data + at, length ? length : left, at, at == 0 ? ChunkStart::document : ChunkStart::rows,
                        at == 0 ? std::optional<std::uint32_t>(0) : std::nullopt, length == 0, context, collector, r);
      if (length != 0 && r.end != ChunkEnd::boundary) return parse(data, size, 0);  // unsafe split: serial
      for (std::size_t i = 0; i < r.relative_rows; ++i) r.segment.rows[i].number += previous;
      if (!r.segment.rows.empty()) previous = r.segment.rows.back().number;
      for (const Row& row : r.segment.rows) {
        out += "row " + std::to_string(row.number) + ":";
        for (std::uint32_t i = 0; i < row.cell_count; ++i) {
          const Cell& c = r.segment.cells[row.first_cell + i];
          out += " " + std::to_string(c.column) + "/" + std::to_string(static_cast<int>(c.type)) + "/" +
                 std::to_string(text_type(c.type) ? 0 : c.payload) + "/" + std::to_string(c.text_length) + "/" +
                 std::to_string(c.style);
          if (text_type(c.type)) {
            for (const char16_t u : r.segment.cell_text(c)) out += "," + std::to_string(static_cast<unsigned>(u));
          }
        }
        out += "\n";
      }
      if (length == 0) break;
      at += length;
    }
  } catch (const docconform::Error& e) {
    return std::string("error ") + docconform::to_string(e.kind()) + " at " +
           std::to_string(e.context().offset.value_or(0)) + ": " + e.message();
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > max_input) return -1;
  std::string ours, theirs;
  bool limit = false;
  const bool scanner_ok = scanner_events(data, size, ours, limit);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool dtd = text.find("<!DOCTYPE") != std::string_view::npos;
  bool other_encoding = false;
  if (!dtd && !limit && expat_events(data, size, theirs, other_encoding)) {
    if (other_encoding) {
      FUZZ_CHECK(!scanner_ok, data, size);
    } else {
      FUZZ_CHECK(scanner_ok, data, size);
      FUZZ_CHECK(ours == theirs, data, size);
    }
  }
  const std::string whole = parse(data, size, 0);
  const std::string split = parse(data, size, 48);
  FUZZ_CHECK(whole == parse(data, size, 0, false), data, size);
  // Split at row boundaries (falling back to whole when a split point is unsafe), the parse
  // gives what the whole parse gives.
  if (whole.rfind("error", 0) != 0) FUZZ_CHECK(whole == split, data, size);
  return 0;
}
