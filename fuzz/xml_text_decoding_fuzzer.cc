// xml_text_decoding: the text values of SpreadsheetML — XML entity and character references,
// CDATA, comments splitting text, line-end normalization, the rich text content model and the
// OOXML `_xHHHH_` escapes — decoded by our scanner (xml_scanner.h, xml_text.h, rich_text.h)
// against expat plus a separately written `_xHHHH_` decoder.
//
// Input: byte 0 picks the part (bit 0: shared strings or worksheet), for shared strings the
// chunk size of the split parse (bits 1-3: none, or 16 x 2^k bytes), and whether text is kept to
// characters XML allows (bit 4: C0 controls other than TAB, LF, CR and ill-formed UTF-8 dropped,
// so that most documents are well-formed and their values get compared). The rest, split at
// 0xFF bytes, gives one item per piece: the piece's first byte picks a shape, the rest is
// inserted as text (so it may hold references, CDATA, comments, PIs and markup):
//   shared strings  <si><t>T</t></si> | <si><t>T</t><r><rPr><b/></rPr><t>T</t></r></si> |
//                   <si><t>T</t><rPh sb="0" eb="1"><t>T</t></rPh></si> | <si><r><t>T</t></r>T</si>
//   worksheet       <c t="inlineStr"><is><t>T</t></is></c> | <c t="str"><v>T</v></c> |
//                   <c t="inlineStr"><is><r><t>T</t></r><rPh><t>T</t></rPh></is></c> |
//                   <c t="str"><f>T</f><v>T</v></c>
// inside <sst> or <worksheet><sheetData><row r="1">. The part is read by read_shared_strings
// (split into chunks at <si> when the input asks) or parse_sheet_chunk.
//
// The oracle reads the same part with expat and computes each value by the content model: a
// shared string or inline string is the concatenation of the character data directly inside
// every <t> child of the container and every <t> child of an <r> child, each `_xHHHH_`
// decoded; a str cell is its last <v>'s character data, decoded the same way; a cell's formula
// is its last <f>'s character data, not decoded; elements are matched by local name. Checks:
//   - expat accepts: ours accepts (unless it reports a limit) with the same values, in order.
//   - expat rejects inside a reference ('&' ... up to the offending byte) in character data
//     that the content model reads: ours rejects too.
// Allowed differences, where expat rejects and ours accepts (the scanner checks structure and
// the references it resolves, not every well-formedness rule; conformance case
// i_malformed_utf8 records the first):
//   - bytes that are not UTF-8 (the byte passthrough rule);
//   - characters outside XML's Char production written literally, names outside the Name
//     production, "--" in comments, "]]>" in text, reserved or missing PI targets;
//   - references in text or attribute values that are never read (skipped elements such as
//     <rPh>, text directly inside <si>, attributes): references are resolved lazily.
// A DOCTYPE is rejected by ours and, inside content, by expat too. In the worksheet, when the
// text adds elements (new cells with other types, references, ...) the sheet's own rules may
// reject what is well-formed, so only values of inputs both accept are compared there.
#include <expat.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "xlsx/parts.h"
#include "xlsx/sheet_parser.h"
#include "docconform/error.h"
#include "docconform/utf8.h"
#include "fuzz_check.h"

namespace {

constexpr std::size_t max_input = 1 << 16;
constexpr std::size_t max_items = 4096;  // keeps implied columns inside XFD
const docconform::xlsx::ScanLimits limits{64, 1 << 20, 512};

// ---- the document -------------------------------------------------------------------------

struct Document {
  bool sheet = false;
  std::size_t chunk_bytes = 0;
  std::string xml;
  std::size_t elements = 0;  // start tags the framing wrote
};

std::string text(const std::uint8_t* data, std::size_t size, bool clean) {
  if (!clean) return std::string(reinterpret_cast<const char*>(data), size);
  std::string out;
  for (std::size_t i = 0; i < size;) {
    const std::uint8_t b = data[i];
    const std::size_t length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    const bool keep = length == 1 ? b >= 0x20 || b == '\t' || b == '\n' || b == '\r'
                                  : i + length <= size && docconform::is_valid_utf8(data + i, length);
    if (keep) out.append(reinterpret_cast<const char*>(data + i), length);
    i += keep ? length : 1;
  }
  return out;
}

Document frame(const std::uint8_t* data, std::size_t size) {
  Document d;
  d.sheet = (data[0] & 1) != 0;
  const unsigned k = (data[0] >> 1) & 7;
  d.chunk_bytes = k == 0 ? 0 : std::size_t{16} << k;
  const bool clean = (data[0] & 0x10) != 0;
  d.xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";
  const char* ns = " xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">";
  d.xml += d.sheet ? std::string("<worksheet") + ns + "<sheetData><row r=\"1\">" : std::string("<sst") + ns;
  d.elements = d.sheet ? 3 : 1;
  std::size_t at = 1;
  for (std::size_t items = 0; at < size && items < max_items; ++items) {
    std::size_t stop = at;
    while (stop < size && data[stop] != 0xFF) ++stop;
    const unsigned shape = stop > at ? data[at] % 4 : 0;
    const std::string t = stop > at ? text(data + at + 1, stop - at - 1, clean) : "";
    static const char* const sst_shapes[][2] = {
        {"<si><t>", "</t></si>"}, {"<si><t>", "</t><r><rPr><b/></rPr><t>"}, {"<si><t>", "</t><rPh sb=\"0\" eb=\"1\"><t>"},
        {"<si><r><t>", "</t></r>"}};
    static const char* const sst_tails[] = {"", "</t></r></si>", "</t></rPh></si>", "</si>"};
    static const char* const sheet_shapes[][2] = {
        {"<c t=\"inlineStr\"><is><t>", "</t></is></c>"}, {"<c t=\"str\"><v>", "</v></c>"},
        {"<c t=\"inlineStr\"><is><r><t>", "</t></r><rPh><t>"}, {"<c t=\"str\"><f>", "</f><v>"}};
    static const char* const sheet_tails[] = {"", "", "</t></rPh></is></c>", "</v></c>"};
    static const std::size_t sst_elements[] = {2, 6, 4, 3}, sheet_elements[] = {3, 2, 6, 3};
    const auto& s = d.sheet ? sheet_shapes[shape] : sst_shapes[shape];
    const char* tail = d.sheet ? sheet_tails[shape] : sst_tails[shape];
    d.xml += s[0] + t + s[1];
    if (*tail) d.xml += t + tail;
    d.elements += d.sheet ? sheet_elements[shape] : sst_elements[shape];
    at = stop + 1;
  }
  d.xml += d.sheet ? "</row></sheetData></worksheet>" : "</sst>";
  return d;
}

// ---- the oracle ---------------------------------------------------------------------------

std::u16string utf16(std::string_view utf8) {  // expat's output is valid UTF-8
  std::u16string out;
  for (std::size_t i = 0; i < utf8.size();) {
    const auto b = static_cast<unsigned char>(utf8[i]);
    const int length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    std::uint32_t cp = length == 1 ? b : b & (0x7F >> length);
    for (int k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    if (cp >= 0x10000) {
      out += static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10));
      out += static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      out += static_cast<char16_t>(cp);
    }
    i += static_cast<std::size_t>(length);
  }
  return out;
}

int hex_digit(char16_t c) {
  if (c >= u'0' && c <= u'9') return c - u'0';
  if ((c | 0x20) >= u'a' && (c | 0x20) <= u'f') return (c | 0x20) - u'a' + 10;
  return -1;
}

// ECMA-376 ST_Xstring: `_x` four hex digits `_` stands for that code unit; one pass, left to
// right, so the decoded unit never starts another escape.
std::u16string decode_xstring(const std::u16string& s) {
  std::u16string out;
  for (std::size_t i = 0; i < s.size();) {
    if (i + 7 <= s.size() && s[i] == u'_' && s[i + 1] == u'x' && s[i + 6] == u'_') {
      int value = 0;
      std::size_t k = 2;
      for (; k < 6 && hex_digit(s[i + k]) >= 0; ++k) value = value * 16 + hex_digit(s[i + k]);
      if (k == 6) {
        out += static_cast<char16_t>(value);
        i += 7;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

std::string local(std::string_view qname) {
  const std::size_t colon = qname.find(':');
  return std::string(colon == std::string_view::npos ? qname : qname.substr(colon + 1));
}

struct Expected {
  bool sheet = false;
  std::vector<std::string> stack;     // local names of the open elements
  std::vector<std::u16string> items;  // shared strings, or cell texts
  std::vector<bool> has_value;        // cells: whether a value was set
  std::vector<std::u16string> formulas;  // cells: "=" + the last <f>'s text, "" without one
  std::string text;                   // character data of the <t>/<v>/<f> being read
  std::u16string value;               // the container's value so far
  std::size_t elements = 0;
  std::string cell_type;              // t of the current cell

  bool in_cell() const {
    return sheet && stack.size() >= 4 && stack[1] == "sheetData" && stack[2] == "row" && stack[3] == "c";
  }

  // Where the content model reads character data.
  bool reading() const {
    const std::size_t d = stack.size();
    if (!sheet) {
      return (d == 3 && stack[1] == "si" && stack[2] == "t") ||
             (d == 4 && stack[1] == "si" && stack[2] == "r" && stack[3] == "t");
    }
    if (d < 5 || !in_cell()) return false;
    return (d == 5 && (stack[4] == "v" || stack[4] == "f")) || (d == 6 && stack[4] == "is" && stack[5] == "t") ||
           (d == 7 && stack[4] == "is" && stack[5] == "r" && stack[6] == "t");
  }
};

void XMLCALL on_start(void* user, const XML_Char* name, const XML_Char** attributes) {
  auto* e = static_cast<Expected*>(user);
  e->stack.push_back(local(name));
  ++e->elements;
  const std::size_t d = e->stack.size();
  if (!e->sheet && d == 2 && e->stack[1] == "si") e->value.clear();
  if (d == 4 && e->in_cell()) {
    e->cell_type.clear();
    for (int i = 0; attributes[i] != nullptr; i += 2) {
      if (std::string_view(attributes[i]) == "t") e->cell_type = attributes[i + 1];
    }
    e->items.emplace_back();
    e->has_value.push_back(false);
    e->formulas.emplace_back();
  }
  if (d == 5 && e->in_cell() && e->stack[4] == "is") e->value.clear();
  if (e->reading()) e->text.clear();
}

void XMLCALL on_end(void* user, const XML_Char*) {
  auto* e = static_cast<Expected*>(user);
  const std::size_t d = e->stack.size();
  const std::string& name = e->stack.back();
  if (e->reading() && name == "t") e->value += decode_xstring(utf16(e->text));
  if (!e->sheet && d == 2 && name == "si") e->items.push_back(e->value);
  if (d == 5 && e->in_cell()) {
    if (name == "v" && e->cell_type == "str") {
      e->items.back() = decode_xstring(utf16(e->text));
      e->has_value.back() = true;
    } else if (name == "is" && e->cell_type == "inlineStr") {
      e->items.back() = e->value;
      e->has_value.back() = true;
    } else if (name == "f") {
      e->formulas.back() = u"=" + utf16(e->text);  // formulas keep `_xHHHH_` as written
    }
  }
  e->stack.pop_back();
}

void XMLCALL on_text(void* user, const XML_Char* s, int length) {
  auto* e = static_cast<Expected*>(user);
  if (e->reading()) e->text.append(s, static_cast<std::size_t>(length));
}

// Whether xml[pos] is character data: not inside a tag, comment, CDATA section or PI. Expat
// accepted everything before its error, so this plain walk reads that prefix as expat did.
bool in_character_data(const std::string& xml, std::size_t pos) {
  static const char* const skipped[][2] = {{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}};
  std::size_t i = 0;
  while (i < pos) {
    if (xml[i] != '<') {
      ++i;
      continue;
    }
    std::size_t next = std::string::npos;
    bool found = false;
    for (const auto& s : skipped) {
      if (xml.compare(i, std::strlen(s[0]), s[0]) != 0) continue;
      const std::size_t close = xml.find(s[1], i + std::strlen(s[0]));
      next = close == std::string::npos ? close : close + std::strlen(s[1]);
      found = true;
      break;
    }
    if (!found) {  // a tag; '>' may appear inside quoted attribute values
      char quote = 0;
      std::size_t k = i + 1;
      for (; k < xml.size(); ++k) {
        if (quote != 0) {
          if (xml[k] == quote) quote = 0;
        } else if (xml[k] == '"' || xml[k] == '\'') {
          quote = xml[k];
        } else if (xml[k] == '>') {
          break;
        }
      }
      next = k < xml.size() ? k + 1 : std::string::npos;
    }
    if (next == std::string::npos || next > pos) return false;
    i = next;
  }
  return true;
}

struct ExpatResult {
  bool ok = false;
  bool reference_read = false;  // rejected at a reference the content model reads
  Expected expected;
};

ExpatResult run_expat(const Document& doc) {
  ExpatResult r;
  r.expected.sheet = doc.sheet;
  XML_Parser parser = XML_ParserCreate("UTF-8");
  XML_SetUserData(parser, &r.expected);
  XML_SetElementHandler(parser, on_start, on_end);
  XML_SetCharacterDataHandler(parser, on_text);
  r.ok = XML_Parse(parser, doc.xml.data(), static_cast<int>(doc.xml.size()), 1) == XML_STATUS_OK;
  if (!r.ok) {
    // expat stops at the '&' of an undefined entity or a forbidden character number, and at
    // the offending byte inside a malformed reference: the error is in a reference when an '&'
    // comes before it with no ';', '<' or '>' in between.
    const XML_Index error_at = XML_GetCurrentByteIndex(parser);
    std::size_t amp = std::string::npos;
    if (error_at >= 0 && static_cast<std::size_t>(error_at) < doc.xml.size()) {
      const std::size_t from = doc.xml.find_last_of("&;<>", static_cast<std::size_t>(error_at));
      if (from != std::string::npos && doc.xml[from] == '&') amp = from;
    }
    r.reference_read = amp != std::string::npos && in_character_data(doc.xml, amp) && r.expected.reading();
  }
  XML_ParserFree(parser);
  return r;
}

// ---- ours -----------------------------------------------------------------------------------

struct Ours {
  bool ok = false;
  bool limit = false;
  std::vector<std::u16string> items;
  std::vector<bool> has_value;
  std::vector<std::u16string> formulas;
};

Ours run_ours(const Document& doc) {
  using namespace docconform::xlsx;
  Ours r;
  try {
    if (!doc.sheet) {
      SharedStrings strings;
      LoadOptions options;
      options.threads = 1;
      options.chunk_bytes = doc.chunk_bytes;
      read_shared_strings(doc.xml, limits, strings, options);
      for (std::size_t i = 0; i < strings.items.size(); ++i) r.items.emplace_back(strings.at(i));
    } else {
      SheetParseContext context;
      context.limits = limits;
      TextCollector collector;
      ChunkResult chunk;
      parse_sheet_chunk(reinterpret_cast<const std::uint8_t*>(doc.xml.data()), doc.xml.size(), 0, ChunkStart::document,
                        0, true, context, collector, chunk);
      for (const Cell& c : chunk.segment.cells) {
        const bool text = c.type == CellType::string;
        r.items.emplace_back(text ? chunk.segment.cell_text(c) : std::u16string_view());
        r.has_value.push_back(text);
        r.formulas.emplace_back();
        if (c.formula != no_formula) r.formulas.back() = u"=" + std::u16string(chunk.segment.text(chunk.segment.formulas[c.formula].text));
      }
    }
    r.ok = true;
  } catch (const docconform::Error& e) {
    r.limit = e.kind() == docconform::ErrorKind::limit;
  }
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > max_input) return -1;
  const Document doc = frame(data, size);
  const ExpatResult theirs = run_expat(doc);
  const Ours ours = run_ours(doc);
  const bool added_elements = theirs.expected.elements != doc.elements;
  if (doc.sheet && added_elements) {
    if (theirs.ok && ours.ok) {
      FUZZ_CHECK(ours.items == theirs.expected.items, data, size);
      FUZZ_CHECK(ours.formulas == theirs.expected.formulas, data, size);
    }
    return 0;
  }
  if (theirs.ok) {
    FUZZ_CHECK(ours.ok || ours.limit, data, size);
    if (ours.ok) {
      FUZZ_CHECK(ours.items == theirs.expected.items, data, size);
      FUZZ_CHECK(ours.has_value == theirs.expected.has_value, data, size);
      FUZZ_CHECK(ours.formulas == theirs.expected.formulas, data, size);
    }
  } else if (theirs.reference_read) {
    FUZZ_CHECK(!ours.ok, data, size);
  }
  return 0;
}
