#include "xml_scanner.h"

#include <array>
#include <string>

#include "byte_search.h"
#include "docconform/error.h"

namespace docconform::xlsx {
namespace {

// Byte classes, looked up once per byte on the hot paths instead of a chain of comparisons.
enum : std::uint8_t {
  space = 1,          // XML whitespace
  ends_name = 2,      // ends a name; everything else (including non-ASCII) may be part of one: the
                      // scanner checks the document's structure, not the Name production
  colon = 4,          // splits a qualified name
  text_special = 8,   // in character data: '<' ends it, '&' and CR make it need resolving
  value_special = 16, // in an attribute value: '<' is an error, '&', TAB, LF, CR need resolving
  control = 32,       // a C0 control other than TAB, LF and CR: no XML Char (XML 1.0 2.2)
};

constexpr std::array<std::uint8_t, 256> make_byte_classes() {
  std::array<std::uint8_t, 256> classes{};
  for (const std::uint8_t c : {' ', '\t', '\n', '\r'}) classes[c] |= space | ends_name;
  for (const std::uint8_t c : {'/', '>', '=', '<', '"', '\'', '?', '!'}) classes[c] |= ends_name;
  classes[':'] |= colon;
  for (const std::uint8_t c : {'<', '&', '\r'}) classes[c] |= text_special;
  for (const std::uint8_t c : {'<', '&', '\t', '\n', '\r'}) classes[c] |= value_special;
  for (unsigned c = 0; c < 0x20; ++c) {
    if (c != '\t' && c != '\n' && c != '\r') classes[c] |= control | text_special | value_special;
  }
  return classes;
}

constexpr std::array<std::uint8_t, 256> byte_class = make_byte_classes();

inline bool is(std::uint8_t c, std::uint8_t kind) { return (byte_class[c] & kind) != 0; }
inline bool is_space(std::uint8_t c) { return is(c, space); }

// The end of the name that starts at q: the first byte that ends a name, or end. first_colon
// is set to the name's first ':' (null when it has none).
inline const std::uint8_t* name_end(const std::uint8_t* q, const std::uint8_t* end, const std::uint8_t*& first_colon) {
  first_colon = nullptr;
  for (; q < end; ++q) {
    const std::uint8_t c = byte_class[*q];
    if (c & ends_name) break;
    if ((c & colon) && first_colon == nullptr) first_colon = q;
  }
  return q;
}

// The run before the first byte that is `stop`, '<', '&' or below 0x20 (TAB, LF and CR, and
// other controls the shortcut leaves to next()).
inline const std::uint8_t* find_stop(const std::uint8_t* q, const std::uint8_t* end, std::uint8_t stop) {
  return find_first_of<true>(q, end, stop, '<', '&');
}

// Splits a name at its first colon (null when it has none).
void split_qname(Span name, const std::uint8_t* first_colon, Span& prefix, Span& local) {
  if (first_colon == nullptr) {
    prefix = {};
    local = name;
    return;
  }
  prefix = {name.data, static_cast<std::size_t>(first_colon - name.data)};
  local = {first_colon + 1, name.size - prefix.size - 1};
}

// The value of the pseudo-attribute `name` in an XML declaration's content (after "xml"), empty
// when it has none. The declaration's grammar is not checked beyond finding the value.
Span declaration_value(const std::uint8_t* q, const std::uint8_t* end, std::string_view name) {
  for (;;) {
    while (q < end && is_space(*q)) ++q;
    const std::uint8_t* name_start = q;
    while (q < end && *q != '=' && !is_space(*q)) ++q;
    const Span found{name_start, static_cast<std::size_t>(q - name_start)};
    while (q < end && is_space(*q)) ++q;
    if (q == end || *q != '=') return {};
    ++q;
    while (q < end && is_space(*q)) ++q;
    if (q == end || (*q != '"' && *q != '\'')) return {};
    const std::uint8_t quote = *q++;
    const std::uint8_t* value = q;
    while (q < end && *q != quote) ++q;
    if (q == end) return {};
    if (span_is(found, name)) return {value, static_cast<std::size_t>(q - value)};
    ++q;
  }
}

bool equals_ignoring_ascii_case(Span s, std::string_view upper) {
  if (s.size != upper.size()) return false;
  for (std::size_t i = 0; i < s.size; ++i) {
    const std::uint8_t c = s.data[i];
    if ((c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c) != static_cast<std::uint8_t>(upper[i])) return false;
  }
  return true;
}

}  // namespace

XmlScanner::XmlScanner(const std::uint8_t* data, std::size_t size, std::uint64_t base_offset, bool final,
                       const ScanLimits& limits)
    : begin_(data), p_(data), end_(data + size), base_(base_offset), final_(final), limits_(limits) {
  if (base_offset == 0 && size >= 2 && ((data[0] == 0xFF && data[1] == 0xFE) || (data[0] == 0xFE && data[1] == 0xFF))) {
    fail_at(0, "the part is UTF-16 (it starts with a UTF-16 byte order mark): only UTF-8 parts are read");
  }
  if (base_offset == 0 && size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF) p_ += 3;
  if (base_offset == 0) declaration_at_ = p_;
  attributes_.reserve(16);
  stack_.reserve(16);
}

void XmlScanner::assume_open(std::size_t count) {
  stack_.assign(count, Span{});
  seen_root_ = true;
}

std::string XmlScanner::open_names() const {
  std::string out;
  for (const auto& s : stack_) {
    if (!out.empty()) out += ' ';
    out += s.data ? std::string(s.view()) : std::string("?");
  }
  return out;
}

void XmlScanner::fail(const char* message) const { fail_at(token_offset(), message); }

void XmlScanner::fail_at(std::uint64_t offset, const char* message) const {
  throw Error(ErrorKind::format, {"", "", offset}, message);
}

void XmlScanner::fail_control(const std::uint8_t* at) const {
  static constexpr char hex[] = "0123456789ABCDEF";
  const std::string message = std::string("control character U+00") + hex[*at >> 4] + hex[*at & 0xF] +
                              " is not allowed in XML (XML 1.0 section 2.2)";
  throw Error(ErrorKind::format, {"", "", base_ + static_cast<std::uint64_t>(at - begin_)}, message);
}

void XmlScanner::check_chars(const std::uint8_t* from, const std::uint8_t* to) const {
  for (; from < to; ++from) {
    if (is(*from, control)) fail_control(from);
  }
}

// OPC [M1.17]: a part is UTF-8 or UTF-16, and a declaration names no other encoding. A part
// read here is UTF-8, so a declaration naming UTF-16 contradicts its bytes (XML 1.0 4.3.3).
void XmlScanner::check_declaration(const std::uint8_t* content, const std::uint8_t* end) const {
  if (end - content < 4 || std::memcmp(content, "xml", 3) != 0 || !is_space(content[3])) return;
  const Span encoding = declaration_value(content + 3, end, "encoding");
  if (encoding.size == 0 || equals_ignoring_ascii_case(encoding, "UTF-8")) return;
  if (equals_ignoring_ascii_case(encoding, "UTF-16")) {
    fail("the XML declaration names encoding UTF-16 but the part has no UTF-16 byte order mark (XML 1.0 4.3.3)");
  }
  fail(("the XML declaration names encoding '" + std::string(encoding.view().substr(0, 40)) +
        "': a part must be UTF-8 or UTF-16 (OPC M1.17)").c_str());
}

void XmlScanner::check_token_size(const std::uint8_t* from, const std::uint8_t* to) const {
  if (static_cast<std::uint64_t>(to - from) > limits_.max_token_bytes) {
    throw Error(ErrorKind::limit, {"", "", token_offset()},
                "XML token longer than max_token_bytes (" + std::to_string(limits_.max_token_bytes) + ")");
  }
}

const Attribute* XmlScanner::attribute(std::string_view local) const {
  for (const auto& a : attributes_) {
    if (span_is(a.local, local)) return &a;
  }
  return nullptr;
}

// Finds terminator at or after p_; on success p_ moves past it and found points at it.
bool XmlScanner::skip_until(const char* terminator, std::size_t length, const std::uint8_t*& found) {
  const std::string_view hay(reinterpret_cast<const char*>(p_), static_cast<std::size_t>(end_ - p_));
  const std::size_t at = hay.find(std::string_view(terminator, length));
  if (at == std::string_view::npos) {
    check_token_size(token_, end_);
    return false;
  }
  found = p_ + at;
  check_token_size(token_, found);
  p_ = found + length;
  return true;
}

inline Span XmlScanner::scan_name(const std::uint8_t*& first_colon) {
  const std::uint8_t* start = p_;
  p_ = name_end(p_, end_, first_colon);
  return {start, static_cast<std::size_t>(p_ - start)};
}

inline Token XmlScanner::scan_start_tag() {
  auto incomplete = [&]() {
    if (final_) fail("unexpected end of part inside a start tag");
    p_ = token_;
    return Token::incomplete;
  };
  if (stack_.empty() && seen_root_) fail("a second root element");
  ++p_;
  const std::uint8_t* qname_colon = nullptr;
  const Span qname = scan_name(qname_colon);
  if (p_ == end_) return incomplete();
  if (qname.size == 0) fail("missing element name after '<'");
  attributes_.clear();
  for (;;) {
    const std::uint8_t* before_space = p_;
    while (p_ < end_ && is_space(*p_)) ++p_;
    check_token_size(token_, p_);
    if (p_ == end_) return incomplete();
    if (*p_ == '>') {
      ++p_;
      self_closing_ = false;
      break;
    }
    if (*p_ == '/') {
      if (end_ - p_ < 2) return incomplete();
      if (p_[1] != '>') fail("expected '>' after '/' in a start tag");
      p_ += 2;
      self_closing_ = true;
      break;
    }
    if (p_ == before_space) fail("attributes must be separated by whitespace");
    const std::uint8_t* aname_colon = nullptr;
    const Span aname = scan_name(aname_colon);
    if (aname.size == 0) fail("malformed attribute name");
    while (p_ < end_ && is_space(*p_)) ++p_;
    if (p_ == end_) return incomplete();
    if (*p_ != '=') fail("expected '=' after an attribute name");
    ++p_;
    while (p_ < end_ && is_space(*p_)) ++p_;
    if (p_ == end_) return incomplete();
    const std::uint8_t quote = *p_;
    if (quote != '"' && quote != '\'') fail("attribute value must be quoted");
    ++p_;
    // One pass finds the closing quote and what the value holds; a '<' is reported only once
    // the value is known to end (an unterminated value is an incomplete or oversized token).
    const std::uint8_t* q = p_;
    bool less_than = false;
    bool plain = true;
    for (; q < end_ && *q != quote; ++q) {
      if (!is(*q, value_special)) continue;
      if (is(*q, control)) fail_control(q);
      if (*q == '<') less_than = true;
      else plain = false;
    }
    if (q == end_) {
      check_token_size(token_, end_);
      return incomplete();
    }
    if (less_than) fail("'<' inside an attribute value");
    Span prefix, local;
    split_qname(aname, aname_colon, prefix, local);
    for (const auto& other : attributes_) {
      if (same_bytes(other.local, local) && same_bytes(other.prefix, prefix)) fail("duplicate attribute");
    }
    if (attributes_.size() >= limits_.max_attributes) {
      throw Error(ErrorKind::limit, {"", "", token_offset()}, "too many attributes on one element");
    }
    // Built in place: a copy of a just-written local stalls on store forwarding.
    Attribute& a = attributes_.emplace_back();
    a.local = local;
    a.prefix = prefix;
    a.value = {p_, static_cast<std::size_t>(q - p_)};
    a.plain = plain;
    p_ = q + 1;
  }
  check_token_size(token_, p_);
  split_qname(qname, qname_colon, prefix_, local_);
  if (stack_.size() >= limits_.max_depth) {
    throw Error(ErrorKind::limit, {"", "", token_offset()},
                "elements nested deeper than max_depth (" + std::to_string(limits_.max_depth) + ")");
  }
  stack_.push_back(qname);
  seen_root_ = true;
  pending_end_ = self_closing_;
  return Token::start;
}

inline Token XmlScanner::scan_end_tag() {
  p_ += 2;
  const std::uint8_t* qname_colon = nullptr;
  const Span qname = scan_name(qname_colon);
  while (p_ < end_ && is_space(*p_)) ++p_;
  if (p_ == end_) {
    if (final_) fail("unexpected end of part inside an end tag");
    p_ = token_;
    return Token::incomplete;
  }
  if (*p_ != '>') fail("malformed end tag");
  ++p_;
  if (stack_.empty()) fail("end tag without a matching start tag");
  const Span open = stack_.back();
  if (open.data == nullptr) {
    // Innermost closes first; keep the outermost first, as open_names() does.
    closed_assumed_ = std::string(qname.view()) + (closed_assumed_.empty() ? "" : " ") + closed_assumed_;
  } else if (!same_bytes(open, qname)) {
    fail("end tag does not match the open element");
  }
  stack_.pop_back();
  split_qname(qname, qname_colon, prefix_, local_);
  self_closing_ = false;
  return Token::end;
}

// Called with p_ at '<'. Returns end_of_input for skipped constructs (comments, PIs).
inline Token XmlScanner::scan_markup() {
  const std::size_t left = static_cast<std::size_t>(end_ - p_);
  if (left < 2) {
    if (final_) fail("unexpected end of part inside markup");
    p_ = token_;
    return Token::incomplete;
  }
  const std::uint8_t c = p_[1];
  if (c == '/') return scan_end_tag();
  if (c == '?') {
    p_ += 2;
    const std::uint8_t* found = nullptr;
    if (!skip_until("?>", 2, found)) {
      if (final_) fail("unterminated processing instruction");
      p_ = token_;
      return Token::incomplete;
    }
    if (token_ == declaration_at_) {
      check_declaration(token_ + 2, found);
    } else if (found - (token_ + 2) >= 3 && equals_ignoring_ascii_case({token_ + 2, 3}, "XML") &&
               (found == token_ + 5 || is_space(token_[5]))) {
      fail("an XML declaration (or a processing instruction named xml) not at the start of the part");
    }
    check_chars(token_ + 2, found);
    return Token::end_of_input;
  }
  if (c == '!') {
    auto starts = [&](std::string_view s) {
      return left >= s.size() && std::memcmp(p_, s.data(), s.size()) == 0;
    };
    auto prefix_of = [&](std::string_view s) {  // the input ends inside s
      return left < s.size() && std::memcmp(p_, s.data(), left) == 0;
    };
    const std::uint8_t* found = nullptr;
    if (starts("<!--")) {
      p_ += 4;
      if (!skip_until("-->", 3, found)) {
        if (final_) fail("unterminated comment");
        p_ = token_;
        return Token::incomplete;
      }
      // XML 1.0 2.5: no "--" inside a comment, and no '-' right before its end.
      const std::string_view text(reinterpret_cast<const char*>(token_ + 4),
                                  static_cast<std::size_t>(found - token_ - 4));
      if (text.find("--") != std::string_view::npos || (!text.empty() && text.back() == '-')) {
        fail("'--' inside a comment");
      }
      check_chars(token_ + 4, found);
      return Token::end_of_input;
    }
    if (starts("<![CDATA[")) {
      if (stack_.empty()) fail("CDATA outside the root element");
      p_ += 9;
      const std::uint8_t* content = p_;
      if (!skip_until("]]>", 3, found)) {
        if (final_) fail("unterminated CDATA section");
        p_ = token_;
        return Token::incomplete;
      }
      check_chars(content, found);
      text_ = {content, static_cast<std::size_t>(found - content)};
      text_plain_ = std::memchr(text_.data, '\r', text_.size) == nullptr;
      return Token::cdata;
    }
    if (starts("<!DOCTYPE")) fail("DOCTYPE is not allowed (no DTD processing)");
    if (!final_ && (prefix_of("<!--") || prefix_of("<![CDATA[") || prefix_of("<!DOCTYPE"))) {
      p_ = token_;
      return Token::incomplete;
    }
    fail("malformed markup after '<!'");
  }
  return scan_start_tag();
}

inline const std::uint8_t* XmlScanner::simple_start_tag(const std::uint8_t* q, std::string_view local, Span& qname,
                                                         Attribute* attributes, std::uint8_t& count,
                                                         bool& self_closing) const {
  const std::uint8_t* const start = q;
  const std::uint8_t* first_colon = nullptr;
  q = name_end(q + 1, end_, first_colon);
  qname = {start + 1, static_cast<std::size_t>(q - start - 1)};
  Span prefix, name;
  split_qname(qname, first_colon, prefix, name);
  if (!same_bytes(name, {reinterpret_cast<const std::uint8_t*>(local.data()), local.size()})) return nullptr;
  count = 0;
  for (;;) {
    if (q == end_) return nullptr;
    if (*q == '>' || (*q == '/' && end_ - q >= 2 && q[1] == '>')) {
      self_closing = *q == '/';
      q += self_closing ? 2 : 1;
      if (static_cast<std::uint64_t>(q - start) > limits_.max_token_bytes) return nullptr;
      return q;
    }
    if (*q != ' ' || count == SimpleElement::max_attributes || count >= limits_.max_attributes) return nullptr;
    const std::uint8_t* const name_start = q + 1;
    q = name_end(name_start, end_, first_colon);
    if (q == name_start || end_ - q < 2 || q[0] != '=' || (q[1] != '"' && q[1] != '\'')) return nullptr;
    const std::uint8_t quote = q[1];
    const std::uint8_t* const value = q + 2;
    q = find_stop(value, end_, quote);
    if (q == end_ || *q != quote) return nullptr;
    Attribute& a = attributes[count];
    split_qname({name_start, static_cast<std::size_t>(value - 2 - name_start)}, first_colon, a.prefix, a.local);
    for (std::uint8_t i = 0; i < count; ++i) {
      if (same_bytes(attributes[i].local, a.local) && same_bytes(attributes[i].prefix, a.prefix)) return nullptr;
    }
    a.value = {value, static_cast<std::size_t>(q - value)};
    a.plain = true;
    ++count;
    ++q;
  }
}

inline const std::uint8_t* XmlScanner::simple_end_tag(const std::uint8_t* q, Span qname) const {
  if (static_cast<std::size_t>(end_ - q) < qname.size + 3 || q[0] != '<' || q[1] != '/' ||
      !same_bytes({q + 2, qname.size}, qname) || q[qname.size + 2] != '>') {
    return nullptr;
  }
  return q + qname.size + 3;
}

bool XmlScanner::try_simple_element(std::string_view outer, std::string_view inner, SimpleElement& out) {
  if (pending_end_ || stack_.empty() || end_ - p_ < 2 || *p_ != '<') return false;
  Span outer_name, inner_name;
  bool self_closing = false;
  const std::uint8_t* q = simple_start_tag(p_, outer, outer_name, out.outer, out.outer_count, self_closing);
  if (q == nullptr) return false;
  out.has_inner = false;
  if (!self_closing) {
    if (q < end_ && *q == '<' && end_ - q >= 2 && q[1] != '/') {
      const std::uint8_t* const inner_start = q;
      q = simple_start_tag(q, inner, inner_name, out.inner, out.inner_count, self_closing);
      if (q == nullptr || self_closing) return false;
      const std::uint8_t* const text = q;
      q = find_stop(q, end_, '<');
      const std::uint64_t text_bytes = static_cast<std::uint64_t>(q - text);
      if (q == end_ || *q != '<' || text_bytes > limits_.max_token_bytes || text_bytes > 0xFFFFFFFFu) return false;
      q = simple_end_tag(q, inner_name);
      if (q == nullptr) return false;
      out.has_inner = true;
      out.text = {text, static_cast<std::size_t>(q - inner_name.size - 3 - text)};
      out.inner_offset = base_ + static_cast<std::uint64_t>(inner_start - begin_);
    }
    q = simple_end_tag(q, outer_name);
    if (q == nullptr) return false;
  }
  return take_element(q, out.has_inner ? 2 : 1, 0, 0);  // token sizes and attributes were checked above
}

void XmlScanner::set_name(Span qname) {
  split_qname(qname, static_cast<const std::uint8_t*>(std::memchr(qname.data, ':', qname.size)), prefix_, local_);
}

bool XmlScanner::take_start_tag(const std::uint8_t* after, Span qname, const Attribute* attributes, std::size_t count) {
  if (pending_end_ || stack_.empty() || stack_.size() >= limits_.max_depth ||
      static_cast<std::uint64_t>(after - p_) > limits_.max_token_bytes || count > limits_.max_attributes) {
    return false;
  }
  token_ = p_;
  p_ = after;
  attributes_.assign(attributes, attributes + count);
  set_name(qname);
  stack_.push_back(qname);
  self_closing_ = false;
  return true;
}

bool XmlScanner::take_end_tag(const std::uint8_t* after, Span qname) {
  if (pending_end_ || stack_.empty() || stack_.back().data == nullptr || !same_bytes(stack_.back(), qname)) return false;
  token_ = p_;
  p_ = after;
  stack_.pop_back();
  set_name(qname);
  self_closing_ = false;
  return true;
}

Token XmlScanner::next() {
  if (pending_end_) {
    pending_end_ = false;
    stack_.pop_back();
    return Token::end;
  }
  for (;;) {
    token_ = p_;
    if (p_ == end_) {
      if (final_ && !stack_.empty()) fail("unexpected end of part: elements are still open");
      if (final_ && !seen_root_) fail("no root element");
      return Token::end_of_input;
    }
    if (*p_ != '<') {
      // One pass finds the run's end and whether it needs resolving.
      const std::uint8_t* stop = p_;
      bool plain = true;
      for (; stop < end_; ++stop) {
        if (!is(*stop, text_special)) continue;
        if (*stop == '<') break;
        if (is(*stop, control)) fail_control(stop);
        plain = false;
      }
      check_token_size(p_, stop);
      text_ = {p_, static_cast<std::size_t>(stop - p_)};
      if (stop == end_ && !final_) {
        // The run may continue in bytes not seen yet, unless it is only whitespace.
        for (std::size_t i = 0; i < text_.size; ++i) {
          if (!is_space(text_.data[i])) return Token::incomplete;
        }
      }
      text_plain_ = plain;
      p_ = stop;
      if (stack_.empty()) {
        // Outside the root only whitespace may appear.
        for (std::size_t i = 0; i < text_.size; ++i) {
          if (!is_space(text_.data[i])) fail("text outside the root element");
        }
        continue;
      }
      return Token::text;
    }
    const Token t = scan_markup();
    if (t == Token::end_of_input) continue;  // comment or PI: keep going
    return t;
  }
}

}  // namespace docconform::xlsx
