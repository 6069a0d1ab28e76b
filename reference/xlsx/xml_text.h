// Character data of SpreadsheetML: XML references resolved, line ends normalized, then UTF-8
// decoded with the passthrough rule straight into an arena, and OOXML `_xHHHH_` escapes
// decoded in one left-to-right pass.
#pragma once

#include <cstdint>
#include <string>

#include "xml_scanner.h"

namespace docconform::xlsx {

// Appends the value of raw character data (text when attribute is false, else an attribute
// value) with references resolved and line ends normalized as XML 1.0 requires: CR LF and lone
// CR become LF; in attribute values literal TAB, LF and CR become a space. offset locates raw[0]
// for errors. Unknown entities, malformed references and references to characters XML forbids
// are format errors.
void append_resolved(Span raw, bool attribute, std::uint64_t offset, std::string& out);

// Gathers the character data of one element (text runs and CDATA sections, possibly split by
// comments) without copying when it is a single run that needs no resolving.
class TextCollector {
 public:
  void reset() {
    single_ = {};
    pieces_ = 0;
    scratch_.clear();
  }
  void add(const XmlScanner& scanner, Token token);
  Span bytes() const {
    if (pieces_ <= 1 && !resolved_) return single_;
    return {reinterpret_cast<const std::uint8_t*>(scratch_.data()), scratch_.size()};
  }

 private:
  Span single_;
  int pieces_ = 0;
  bool resolved_ = false;  // scratch_ holds the value
  std::string scratch_;
};

// Appends UTF-16 (passthrough decoding) to arena; returns the offset where it starts.
std::size_t append_utf16(Span utf8, std::u16string& arena);

// Decodes `_xHHHH_` escapes in place (single left-to-right pass, exactly four hex digits);
// returns the new length.
std::size_t decode_ooxml_escapes(char16_t* text, std::size_t length) noexcept;

// The value of an attribute as UTF-16 (references resolved, passthrough decoded).
std::u16string attribute_text(const Attribute& a, std::uint64_t offset);
// The value of an attribute as UTF-8 bytes (references resolved).
std::string attribute_bytes(const Attribute& a, std::uint64_t offset);

}  // namespace docconform::xlsx
