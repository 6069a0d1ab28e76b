// The exact bytes most writers emit for a cell and for a shared string, matched without
// tokenizing:
//
//   <c r="REF" s="STYLE" t="TYPE"><v>VALUE</v></c>    (each attribute optional, in this order;
//   <c r="REF" s="STYLE" t="TYPE"/>                     <c ...></c> too)
//   <t>TEXT</t>   and   <t xml:space="preserve">TEXT</t>   (rich text), alone in <si>...</si>
//   <row r="N"> and <row r="N" spans="FIRST:LAST">   (start tags), and </row>
//
// Nothing else matches: no prefixes, double quotes only, one space before each attribute,
// attribute values and VALUE free of '&', '<' and control bytes, TEXT free of '&', '<', CR and
// control bytes other than TAB and LF.
// For such bytes the token path (XmlScanner::next) reports the same elements, attributes and
// text, none needing resolving, so a caller can take the matched spans as the values and hand
// the element to XmlScanner::take_element. Whatever does not match goes to the other paths,
// which also report any error: the matchers only recognize.
#pragma once

#include <cstdint>

#include "xml_scanner.h"

namespace docconform::xlsx {

struct CellShape {
  Span r, s, t;                   // attribute values; data is null when absent
  Span value;                     // <v>'s text
  bool has_value = false;         // a <v> child is present
  std::uint8_t attributes = 0;    // how many of r, s, t
  std::size_t value_offset = 0;   // of "<v>", from the cell's '<'
  std::size_t longest_token = 0;  // the longest tag or text, for the scanner's token limit
};

// Matches a cell at p; returns the byte after it, or null.
const std::uint8_t* match_cell_shape(const std::uint8_t* p, const std::uint8_t* end, CellShape& out);

struct RowShape {
  Attribute attributes[2];  // r, then spans when present
  std::uint8_t count = 0;
};

// Matches a row's start tag at p; returns the byte after it, or null.
const std::uint8_t* match_row_start(const std::uint8_t* p, const std::uint8_t* end, RowShape& out);
// Matches "</row>" at p; returns the byte after it, or null.
const std::uint8_t* match_row_end(const std::uint8_t* p, const std::uint8_t* end);

struct TextShape {
  Span text;
  std::uint8_t attributes = 0;    // 1 for <t xml:space="preserve">
  std::size_t longest_token = 0;  // the longest tag or text, for the scanner's token limit
};

// Matches a text element (<t>TEXT</t>) at p; returns the byte after it, or null.
const std::uint8_t* match_text_shape(const std::uint8_t* p, const std::uint8_t* end, TextShape& out);
// Matches a shared string item of one text element (<si><t>TEXT</t></si>) at p.
const std::uint8_t* match_string_shape(const std::uint8_t* p, const std::uint8_t* end, TextShape& out);

}  // namespace docconform::xlsx
