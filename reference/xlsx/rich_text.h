// The rich text content model shared by <si> (shared strings), <is> (inline strings) and
// <comment><text>: the value is the concatenation of the direct <t> and every <r><t>, with
// `_xHHHH_` escapes decoded per <t>; phonetic <rPh> text is excluded.
#pragma once

#include "docconform/xlsx/workbook.h"
#include "xml_scanner.h"
#include "xml_text.h"

namespace docconform::xlsx {

// Thrown by parsers reading input that is not final when it ends inside a construct.
struct IncompleteInput {};

// next() that turns Token::incomplete into IncompleteInput.
inline Token next_token(XmlScanner& scanner) {
  const Token t = scanner.next();
  if (t == Token::incomplete) throw IncompleteInput{};
  return t;
}

// The input ended inside an element: an error for final input, else IncompleteInput.
[[noreturn]] inline void unexpected_end(const XmlScanner& scanner, const char* message) {
  if (!scanner.final()) throw IncompleteInput{};
  scanner.fail(message);
}

// Consumes tokens up to and including the end of the element just started.
void skip_element(XmlScanner& scanner);

// Reads the character data of the element just started (ignoring nested elements) into
// collector; consumes its end tag.
void read_leaf(XmlScanner& scanner, TextCollector& collector);

// Reads the rich text element just started (si, is, text) and appends its value to arena. With
// shortcut, text elements of the plainest shape (shape_match.h) are read whole.
TextRef read_rich_text(XmlScanner& scanner, TextCollector& collector, std::u16string& arena, bool shortcut);

// Appends UTF-8 bytes to arena as UTF-16 with `_xHHHH_` decoded; returns the reference.
TextRef append_xstring(Span utf8, std::u16string& arena);

}  // namespace docconform::xlsx
