// A pull scanner for the XML that SpreadsheetML parts use. It never allocates per token: names,
// attribute values and text are spans into the scan buffer; element and attribute names are
// matched in place by local name (the part after a namespace prefix). Entity and character
// references are left in the spans and resolved by the consumer that wants the value
// (xml_text.h). No DTD processing: a DOCTYPE is rejected, user-defined entities never expand.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace docconform::xlsx {

struct ScanLimits {
  std::uint32_t max_depth = 256;             // open elements at once
  std::uint64_t max_token_bytes = 64 << 20;  // one tag, one text run, comment, CDATA or PI
  std::uint32_t max_attributes = 512;        // attributes of one element
};

struct Span {
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;
  std::string_view view() const { return {reinterpret_cast<const char*>(data), size}; }
};

// The length compared is the literal's, so a call with a string literal compares inline.
inline bool span_is(Span s, std::string_view literal) {
  return s.size == literal.size() && (literal.empty() || std::memcmp(s.data, literal.data(), literal.size()) == 0);
}

// Names are short: a loop beats a call to memcmp.
inline bool same_bytes(Span a, Span b) {
  if (a.size != b.size) return false;
  for (std::size_t i = 0; i < a.size; ++i) {
    if (a.data[i] != b.data[i]) return false;
  }
  return true;
}

struct Attribute {
  Span local;      // name after the prefix
  Span prefix;     // empty when unprefixed
  Span value;      // raw, references unresolved
  bool plain = true;  // no '&' and no literal TAB/LF/CR: the raw bytes are the value
};

// An element of the plainest shape, read whole by XmlScanner::try_simple_element.
struct SimpleElement {
  static constexpr std::size_t max_attributes = 4;
  Attribute outer[max_attributes];
  Attribute inner[max_attributes];
  std::uint8_t outer_count = 0, inner_count = 0;
  bool has_inner = false;
  Span text;                       // the inner element's text (raw bytes are the value)
  std::uint64_t inner_offset = 0;  // of the inner start tag, in the part
};

enum class Token {
  start,        // start tag (self_closing() tells whether an end follows)
  end,          // end tag (also reported right after a self-closing start tag)
  text,         // character data between markup (raw: references unresolved)
  cdata,        // a CDATA section's content (literal)
  end_of_input, // clean end: every construct closed (elements may still be open)
  incomplete,   // the input ended inside a construct (only when the input is not final)
};

class XmlScanner {
 public:
  // base_offset is the position of data[0] inside the part (for error offsets of chunks).
  XmlScanner(const std::uint8_t* data, std::size_t size, std::uint64_t base_offset, bool final,
             const ScanLimits& limits);

  // Starts scanning at data[0] inside `count` elements whose names are not known (a chunk that
  // begins inside them): any end tag closes them; closed_assumed() tells which names did.
  void assume_open(std::size_t count);
  const std::string& closed_assumed() const { return closed_assumed_; }
  // Qualified names of the open elements, space-separated.
  std::string open_names() const;

  Token next();

  // Reads the element at the scan position whole, without reporting its tokens, when it has
  // the plainest shape: <outer a="v">text-free</outer> with at most one child
  // <inner b="w">text</inner>, or <outer a="v"/>. Every byte must be present, attributes are
  // separated by one space, values and text need no resolving, no limit is reached (and the
  // text has fewer than 4 Gi bytes, so its length fits a TextRef). Anything
  // else returns false with nothing consumed, and next() reads it: what is accepted here is
  // what next() would report as the same elements, attributes and text, so this is a shortcut
  // for the common case, never a second grammar. Names are matched by local name, as callers
  // of next() do. On success token_offset() is the outer start tag's; local(), prefix() and
  // attributes() are left as they were.
  bool try_simple_element(std::string_view outer, std::string_view inner, SimpleElement& out);

  // For callers that match an element's exact bytes themselves (shape_match.h): the unread
  // input, and the step that consumes such an element, `levels` elements deep, whose longest tag
  // or text has longest_token bytes and whose elements carry at most `attributes` attributes
  // each. It succeeds where try_simple_element would (no end owed, inside the root, within the
  // limits), with the same effect; else nothing is consumed.
  const std::uint8_t* cursor() const { return p_; }
  const std::uint8_t* input_end() const { return end_; }
  bool take_element(const std::uint8_t* after, std::size_t levels, std::size_t longest_token, std::size_t attributes) {
    if (pending_end_ || stack_.empty() || stack_.size() + levels > limits_.max_depth ||
        longest_token > limits_.max_token_bytes || attributes > limits_.max_attributes) {
      return false;
    }
    token_ = p_;
    p_ = after;
    return true;
  }
  // The same for a start tag that is not self-closing, <qname> with these attributes (an end
  // follows later), and for an end tag </qname> that closes the innermost open element.
  bool take_start_tag(const std::uint8_t* after, Span qname, const Attribute* attributes, std::size_t count);
  bool take_end_tag(const std::uint8_t* after, Span qname);

  // Valid after start: the element's names and attributes. After end: the closed element's name.
  Span local() const { return local_; }
  Span prefix() const { return prefix_; }
  bool self_closing() const { return self_closing_; }
  const std::vector<Attribute>& attributes() const { return attributes_; }
  const Attribute* attribute(std::string_view local) const;

  // Valid after text / cdata.
  Span text() const { return text_; }
  bool text_plain() const { return text_plain_; }  // no '&' and no CR: the raw bytes are the text

  std::size_t depth() const { return stack_.size(); }
  bool final() const { return final_; }
  // Offset (in the part) of the current token's first byte, and of the scan position.
  std::uint64_t token_offset() const { return base_ + static_cast<std::uint64_t>(token_ - begin_); }
  std::uint64_t position() const { return base_ + static_cast<std::uint64_t>(p_ - begin_); }
  std::size_t consumed() const { return static_cast<std::size_t>(p_ - begin_); }

  // Throws Error(format) at the current token with this message (part filled in by callers).
  [[noreturn]] void fail(const char* message) const;
  [[noreturn]] void fail_at(std::uint64_t offset, const char* message) const;

 private:
  // The scanning steps are inlined into next() (their definitions precede it): one call per
  // token instead of three.
  [[gnu::always_inline]] Token scan_markup();
  [[gnu::always_inline]] Token scan_start_tag();
  [[gnu::always_inline]] Token scan_end_tag();
  bool skip_until(const char* terminator, std::size_t length, const std::uint8_t*& found);
  void check_token_size(const std::uint8_t* from, const std::uint8_t* to) const;
  // A C0 control other than TAB, LF and CR, which no XML document holds (XML 1.0 2.2): the
  // error names it and its offset.
  [[noreturn]] void fail_control(const std::uint8_t* at) const;
  void check_chars(const std::uint8_t* from, const std::uint8_t* to) const;
  // The XML declaration's content (between "<?" and "?>") when the part starts with one.
  void check_declaration(const std::uint8_t* content, const std::uint8_t* end) const;
  [[gnu::always_inline]] Span scan_name(const std::uint8_t*& first_colon);
  void set_name(Span qname);  // local() and prefix() of a tag taken whole
  // One start tag of the simple shape at q ('<'); returns the byte after it, or null.
  [[gnu::always_inline]] const std::uint8_t* simple_start_tag(const std::uint8_t* q, std::string_view local, Span& qname,
                                                              Attribute* attributes, std::uint8_t& count,
                                                              bool& self_closing) const;
  // "</qname>" at q: the byte after it, or null.
  [[gnu::always_inline]] const std::uint8_t* simple_end_tag(const std::uint8_t* q, Span qname) const;

  const std::uint8_t* begin_;
  const std::uint8_t* p_;
  const std::uint8_t* end_;
  const std::uint8_t* token_ = nullptr;
  const std::uint8_t* declaration_at_ = nullptr;  // where an XML declaration may stand (part start)
  std::uint64_t base_;
  bool final_;
  ScanLimits limits_;

  Span local_, prefix_, text_;
  bool self_closing_ = false;
  bool pending_end_ = false;  // a self-closing tag still owes its end token
  bool text_plain_ = true;
  bool seen_root_ = false;
  std::vector<Attribute> attributes_;
  std::vector<Span> stack_;  // qualified names of open elements (data null: assumed, unknown)
  std::string closed_assumed_;
};

}  // namespace docconform::xlsx
