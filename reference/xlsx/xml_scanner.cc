#include "xml_scanner.h"

#include <string>

#include "docconform/error.h"

namespace docconform::xlsx {
namespace {

inline bool is_space(std::uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Bytes that end a name. Everything else (including non-ASCII) may be part of a name; the
// scanner is not a validator of the Name production, only of the document's structure.
inline bool ends_name(std::uint8_t c) {
  return is_space(c) || c == '/' || c == '>' || c == '=' || c == '<' || c == '"' || c == '\'' ||
         c == '?' || c == '!';
}

void split_qname(Span name, Span& prefix, Span& local) {
  const void* colon = std::memchr(name.data, ':', name.size);
  if (colon == nullptr) {
    prefix = {};
    local = name;
    return;
  }
  const auto* c = static_cast<const std::uint8_t*>(colon);
  prefix = {name.data, static_cast<std::size_t>(c - name.data)};
  local = {c + 1, name.size - prefix.size - 1};
}

}  // namespace

XmlScanner::XmlScanner(const std::uint8_t* data, std::size_t size, std::uint64_t base_offset, bool final,
                       const ScanLimits& limits)
    : begin_(data), p_(data), end_(data + size), base_(base_offset), final_(final), limits_(limits) {
  if (base_offset == 0 && size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF) p_ += 3;
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
      const void* lt = std::memchr(p_, '<', static_cast<std::size_t>(end_ - p_));
      const std::uint8_t* stop = lt ? static_cast<const std::uint8_t*>(lt) : end_;
      check_token_size(p_, stop);
      text_ = {p_, static_cast<std::size_t>(stop - p_)};
      if (lt == nullptr && !final_) {
        // The run may continue in bytes not seen yet, unless it is only whitespace.
        for (std::size_t i = 0; i < text_.size; ++i) {
          if (!is_space(text_.data[i])) return Token::incomplete;
        }
      }
      text_plain_ = std::memchr(text_.data, '&', text_.size) == nullptr &&
                    std::memchr(text_.data, '\r', text_.size) == nullptr;
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

// Called with p_ at '<'. Returns end_of_input for skipped constructs (comments, PIs).
Token XmlScanner::scan_markup() {
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

Span XmlScanner::scan_name() {
  const std::uint8_t* start = p_;
  while (p_ < end_ && !ends_name(*p_)) ++p_;
  return {start, static_cast<std::size_t>(p_ - start)};
}

Token XmlScanner::scan_start_tag() {
  auto incomplete = [&]() {
    if (final_) fail("unexpected end of part inside a start tag");
    p_ = token_;
    return Token::incomplete;
  };
  if (stack_.empty() && seen_root_) fail("a second root element");
  ++p_;
  const Span qname = scan_name();
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
    Attribute a;
    const Span aname = scan_name();
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
    const void* close = std::memchr(p_, quote, static_cast<std::size_t>(end_ - p_));
    if (close == nullptr) {
      check_token_size(token_, end_);
      return incomplete();
    }
    const auto* q = static_cast<const std::uint8_t*>(close);
    a.value = {p_, static_cast<std::size_t>(q - p_)};
    if (std::memchr(a.value.data, '<', a.value.size) != nullptr) fail("'<' inside an attribute value");
    for (std::size_t i = 0; i < a.value.size; ++i) {
      const std::uint8_t v = a.value.data[i];
      if (v == '&' || v == '\t' || v == '\n' || v == '\r') {
        a.plain = false;
        break;
      }
    }
    split_qname(aname, a.prefix, a.local);
    for (const auto& other : attributes_) {
      if (span_is(other.local, a.local.view()) && span_is(other.prefix, a.prefix.view())) fail("duplicate attribute");
    }
    if (attributes_.size() >= limits_.max_attributes) {
      throw Error(ErrorKind::limit, {"", "", token_offset()}, "too many attributes on one element");
    }
    attributes_.push_back(a);
    p_ = q + 1;
  }
  check_token_size(token_, p_);
  split_qname(qname, prefix_, local_);
  if (stack_.size() >= limits_.max_depth) {
    throw Error(ErrorKind::limit, {"", "", token_offset()},
                "elements nested deeper than max_depth (" + std::to_string(limits_.max_depth) + ")");
  }
  stack_.push_back(qname);
  seen_root_ = true;
  pending_end_ = self_closing_;
  return Token::start;
}

Token XmlScanner::scan_end_tag() {
  p_ += 2;
  const Span qname = scan_name();
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
  } else if (open.size != qname.size || std::memcmp(open.data, qname.data, qname.size) != 0) {
    fail("end tag does not match the open element");
  }
  stack_.pop_back();
  split_qname(qname, prefix_, local_);
  self_closing_ = false;
  return Token::end;
}

}  // namespace docconform::xlsx
