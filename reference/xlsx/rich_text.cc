#include "rich_text.h"

#include <cstring>

#include "shape_match.h"

namespace docconform::xlsx {

void skip_element(XmlScanner& scanner) {
  const std::size_t depth = scanner.depth();
  for (;;) {
    const Token t = next_token(scanner);
    if (t == Token::end && scanner.depth() < depth) return;
    if (t == Token::end_of_input) unexpected_end(scanner, "unexpected end of part");
  }
}

void read_leaf(XmlScanner& scanner, TextCollector& collector) {
  collector.reset();
  const std::size_t depth = scanner.depth();
  for (;;) {
    const Token t = next_token(scanner);
    switch (t) {
      case Token::text:
      case Token::cdata: collector.add(scanner, t); break;
      case Token::start: skip_element(scanner); break;
      case Token::end:
        if (scanner.depth() < depth) return;
        break;
      case Token::end_of_input: unexpected_end(scanner, "unexpected end of part");
      case Token::incomplete: throw IncompleteInput{};
    }
  }
}

TextRef append_xstring(Span utf8, std::u16string& arena) {
  const std::size_t start = append_utf16(utf8, arena);
  // Every escape starts with '_', which only the byte '_' decodes to.
  if (utf8.size == 0 || std::memchr(utf8.data, '_', utf8.size) == nullptr) {
    return {start, static_cast<std::uint32_t>(arena.size() - start)};
  }
  const std::size_t length = decode_ooxml_escapes(arena.data() + start, arena.size() - start);
  arena.resize(start + length);
  return {start, static_cast<std::uint32_t>(length)};
}

TextRef read_rich_text(XmlScanner& scanner, TextCollector& collector, std::u16string& arena, bool shortcut) {
  const std::size_t start = arena.size();
  const std::size_t depth = scanner.depth();  // the container is open at this depth
  bool in_run = false;
  TextShape shape;
  for (;;) {
    // A <t> of the container or of a run, read whole: what read_leaf gives for it.
    if (shortcut && (scanner.depth() == depth || (scanner.depth() == depth + 1 && in_run))) {
      const std::uint8_t* const after = match_text_shape(scanner.cursor(), scanner.input_end(), shape);
      if (after && scanner.take_element(after, 1, shape.longest_token, shape.attributes)) {
        append_xstring(shape.text, arena);
        continue;
      }
    }
    const Token t = next_token(scanner);
    if (t == Token::end) {
      if (scanner.depth() < depth) break;
      if (scanner.depth() == depth && span_is(scanner.local(), "r")) in_run = false;
      continue;
    }
    if (t == Token::end_of_input) unexpected_end(scanner, "unexpected end of part inside rich text");
    if (t != Token::start) continue;
    const std::size_t d = scanner.depth();
    const Span name = scanner.local();
    if (span_is(name, "t") && (d == depth + 1 || (d == depth + 2 && in_run))) {
      read_leaf(scanner, collector);
      append_xstring(collector.bytes(), arena);
    } else if (d == depth + 1 && span_is(name, "r")) {
      in_run = true;  // reset by its end tag
    } else {
      skip_element(scanner);  // rPh, phoneticPr, rPr and anything unknown
    }
  }
  const std::size_t length = arena.size() - start;
  if (length > 0xFFFFFFFFu) scanner.fail("string longer than 4 G code units");
  return {start, static_cast<std::uint32_t>(length)};
}

}  // namespace docconform::xlsx
