#include "shape_match.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "byte_search.h"

namespace docconform::xlsx {
namespace {

inline bool starts_with(const std::uint8_t* q, const std::uint8_t* end, std::string_view literal) {
  return static_cast<std::size_t>(end - q) >= literal.size() && std::memcmp(q, literal.data(), literal.size()) == 0;
}

// The closing quote of an attribute value of the shapes (free of '&', '<' and control bytes)
// that starts at value, or null.
inline const std::uint8_t* value_end(const std::uint8_t* value, const std::uint8_t* end) {
  const std::uint8_t* const q = find_first_of<true>(value, end, '"', '<', '&');
  return q != end && *q == '"' ? q : nullptr;
}

}  // namespace

const std::uint8_t* match_cell_shape(const std::uint8_t* p, const std::uint8_t* end, CellShape& out) {
  if (end - p < 3 || p[0] != '<' || p[1] != 'c') return nullptr;
  static constexpr std::uint8_t names[] = {'r', 's', 't'};
  Span* const slots[] = {&out.r, &out.s, &out.t};
  // One store each: a chained assignment reads back what it just wrote, stalling on store forwarding.
  out.r = {};
  out.s = {};
  out.t = {};
  out.attributes = 0;
  const std::uint8_t* q = p + 2;
  for (unsigned allowed = 0;;) {  // names[allowed..] may still come
    if (q == end) return nullptr;
    if (*q != ' ') break;
    if (end - q < 4 || q[2] != '=' || q[3] != '"') return nullptr;
    unsigned k = allowed;
    while (k < 3 && names[k] != q[1]) ++k;
    if (k == 3) return nullptr;
    allowed = k + 1;
    const std::uint8_t* const value = q + 4;
    q = value_end(value, end);
    if (q == nullptr) return nullptr;
    *slots[k] = {value, static_cast<std::size_t>(q - value)};
    ++out.attributes;
    ++q;
  }
  out.has_value = false;
  if (*q == '/') {
    if (end - q < 2 || q[1] != '>') return nullptr;
    out.longest_token = static_cast<std::size_t>(q + 2 - p);
    return q + 2;
  }
  if (*q != '>') return nullptr;
  ++q;
  out.longest_token = static_cast<std::size_t>(q - p);
  if (starts_with(q, end, "<v>")) {
    out.value_offset = static_cast<std::size_t>(q - p);
    const std::uint8_t* const value = q + 3;
    q = find_first_of<true>(value, end, '<', '&', '&');
    if (!starts_with(q, end, "</v>")) return nullptr;
    out.value = {value, static_cast<std::size_t>(q - value)};
    out.has_value = true;
    out.longest_token = std::max(out.longest_token, out.value.size);
    q += 4;
  }
  return starts_with(q, end, "</c>") ? q + 4 : nullptr;
}

const std::uint8_t* match_row_start(const std::uint8_t* p, const std::uint8_t* end, RowShape& out) {
  static constexpr std::string_view names[] = {"r", "spans"};
  if (!starts_with(p, end, "<row")) return nullptr;
  const std::uint8_t* q = p + 4;
  out.count = 0;
  for (const std::string_view name : names) {
    if (!starts_with(q, end, " ") || !starts_with(q + 1, end, name)) break;
    q += 1 + name.size();
    if (!starts_with(q, end, "=\"")) return nullptr;
    const std::uint8_t* const value = q + 2;
    q = value_end(value, end);
    if (q == nullptr) return nullptr;
    Attribute& a = out.attributes[out.count++];
    a.local = {value - 2 - name.size(), name.size()};
    a.prefix = {};
    a.value = {value, static_cast<std::size_t>(q - value)};
    a.plain = true;
    ++q;
  }
  return starts_with(q, end, ">") ? q + 1 : nullptr;
}

const std::uint8_t* match_row_end(const std::uint8_t* p, const std::uint8_t* end) {
  return starts_with(p, end, "</row>") ? p + 6 : nullptr;
}

const std::uint8_t* match_text_shape(const std::uint8_t* p, const std::uint8_t* end, TextShape& out) {
  static constexpr std::string_view plain = "<t>", preserve = "<t xml:space=\"preserve\">", close = "</t>";
  const std::uint8_t* q;
  if (starts_with(p, end, plain)) {
    q = p + plain.size();
    out.attributes = 0;
  } else if (starts_with(p, end, preserve)) {
    q = p + preserve.size();
    out.attributes = 1;
  } else {
    return nullptr;
  }
  const std::uint8_t* const text = q;
  // TAB and LF are text as any other byte; another control byte leaves the element to the
  // scanner, which rejects it.
  for (q = find_first_of<true>(text, end, '<', '&', '\r'); q != end && (*q == '\t' || *q == '\n');) {
    q = find_first_of<true>(q + 1, end, '<', '&', '\r');
  }
  if (!starts_with(q, end, close)) return nullptr;
  out.text = {text, static_cast<std::size_t>(q - text)};
  out.longest_token = std::max(static_cast<std::size_t>(text - p), out.text.size);
  return q + close.size();
}

const std::uint8_t* match_string_shape(const std::uint8_t* p, const std::uint8_t* end, TextShape& out) {
  if (!starts_with(p, end, "<si>")) return nullptr;
  const std::uint8_t* const q = match_text_shape(p + 4, end, out);
  out.longest_token = std::max<std::size_t>(out.longest_token, 4);  // <si> is a tag too
  return q && starts_with(q, end, "</si>") ? q + 5 : nullptr;
}

}  // namespace docconform::xlsx
