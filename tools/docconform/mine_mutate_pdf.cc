// The pdf and pdf3 mutators: xref entries' offsets, white space, /Length, /Prev, object-stream
// headers (/N, /First), tokens and filters, on the file's bytes (a PDF's structure is text).
#include "mine_mutators.h"

namespace docconform::cli {
namespace {

bool is_white(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0'; }
bool is_delimiter(char c) { return c == '<' || c == '>' || c == '[' || c == ']' || c == '(' || c == ')' || c == '/' || c == '{' || c == '}' || c == '%'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::vector<std::size_t> find_all(const std::string& s, const std::string& what) {
  std::vector<std::size_t> found;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) found.push_back(at);
  return found;
}

// The span of the integer after position `from` (white space skipped), or {npos, npos}.
std::pair<std::size_t, std::size_t> number_after(const std::string& s, std::size_t from) {
  std::size_t at = from;
  while (at < s.size() && is_white(s[at])) ++at;
  std::size_t end = at;
  while (end < s.size() && is_digit(s[end])) ++end;
  if (end == at) return {std::string::npos, std::string::npos};
  return {at, end};
}

std::string changed_number(const std::string& old, Mutator& m, const std::vector<std::string>& extra = {}) {
  long long value = 0;
  for (char c : old.substr(0, 15)) value = value * 10 + (c - '0');
  std::vector<std::string> values{std::to_string(value + 1), std::to_string(value - 1), "0", std::to_string(value + 100),
                                  std::to_string(value / 2), "99999999999", "-1"};
  values.insert(values.end(), extra.begin(), extra.end());
  return m.choose(values);
}

// A number after a key (/Length, /Prev, /N, /First, startxref) changed.
std::string change_keyed_number(const std::string& input, const std::string& key, Mutator& m, std::string& step,
                                const std::vector<std::string>& extra = {}) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for (const std::size_t at : find_all(input, key)) {
    const auto span = number_after(input, at + key.size());
    if (span.first != std::string::npos) spans.push_back(span);
  }
  if (spans.empty()) return {};
  const auto [from, to] = m.choose(spans);
  const std::string old = input.substr(from, to - from);
  const std::string value = changed_number(old, m, extra);
  step = "pdf.number " + key + " @" + std::to_string(from) + ": " + old + " -> " + value;
  return input.substr(0, from) + value + input.substr(to);
}

// The xref table entries ("nnnnnnnnnn ggggg n"): the offsets of their first digit.
std::vector<std::size_t> xref_entries(const std::string& s) {
  std::vector<std::size_t> found;
  for (std::size_t at = 0; at + 18 <= s.size(); ++at) {
    if (s[at + 10] != ' ' || s[at + 16] != ' ' || (s[at + 17] != 'n' && s[at + 17] != 'f')) continue;
    bool digits = true;
    for (std::size_t k = 0; digits && k < 16; ++k) digits = k == 10 || is_digit(s[at + k]);
    if (digits && (at == 0 || !is_digit(s[at - 1]))) {
      found.push_back(at);
      at += 17;
    }
  }
  return found;
}

// The tokens' spans: names, numbers and keywords as runs of regular characters, and delimiters.
std::vector<std::pair<std::size_t, std::size_t>> tokens(const std::string& s) {
  std::vector<std::pair<std::size_t, std::size_t>> found;
  for (std::size_t at = 0; at < s.size();) {
    if (is_white(s[at])) {
      ++at;
      continue;
    }
    std::size_t end = at + 1;
    if (s[at] == '/' || !is_delimiter(s[at])) {
      while (end < s.size() && !is_white(s[end]) && !is_delimiter(s[end])) ++end;
    } else if ((s[at] == '<' || s[at] == '>') && end < s.size() && s[end] == s[at]) {
      ++end;
    }
    found.emplace_back(at, end);
    at = end;
  }
  return found;
}

}  // namespace

std::string mutate_pdf(const std::string& input, Mutator& m, std::string& step) {
  std::string out;
  switch (m.below(9)) {
    case 0: {
      const auto entries = xref_entries(input);
      if (entries.empty()) {
        out = change_keyed_number(input, "startxref", m, step);
        break;
      }
      const std::size_t at = m.choose(entries);
      const std::string old = input.substr(at, 10);
      std::string value = changed_number(old, m);
      if (value.size() > 10 || value[0] == '-') value = "0";
      value = std::string(10 - value.size(), '0') + value;
      out = input;
      out.replace(at, 10, value);
      step = "pdf.xref_offset @" + std::to_string(at) + ": " + old + " -> " + value;
      break;
    }
    case 1: {
      std::vector<std::size_t> runs;
      for (std::size_t at = 0; at < input.size(); ++at) {
        if (is_white(input[at]) && (at == 0 || !is_white(input[at - 1]))) runs.push_back(at);
      }
      if (runs.empty()) break;
      static const std::vector<std::string> spaces{" ", "\n", "\r", "\r\n", std::string(1, '\0'), "\f", "\t", "", "  \n\n", "\n\r"};
      const std::size_t at = m.choose(runs);
      std::size_t end = at;
      while (end < input.size() && is_white(input[end])) ++end;
      const std::size_t which = m.below(spaces.size());
      out = input.substr(0, at) + spaces[which] + input.substr(end);
      step = "pdf.white_space @" + std::to_string(at) + ": " + std::to_string(end - at) + " bytes -> kind " + std::to_string(which);
      break;
    }
    case 2:
      out = change_keyed_number(input, "/Length", m, step, {"999 0 R", "1 0 R"});
      break;
    case 3:
      if (m.below(3) == 0) {
        const auto trailers = find_all(input, "trailer");
        if (trailers.empty()) break;
        const std::size_t dict = input.find("<<", m.choose(trailers));
        if (dict == std::string::npos) break;
        out = input.substr(0, dict + 2) + "/Prev 0 " + input.substr(dict + 2);
        step = "pdf.prev @" + std::to_string(dict) + ": /Prev 0 added";
        break;
      }
      out = change_keyed_number(input, "/Prev", m, step);
      break;
    case 4:
      out = change_keyed_number(input, m.below(2) == 0 ? "/N" : "/First", m, step);
      break;
    case 5:
      out = change_keyed_number(input, m.below(2) == 0 ? "startxref" : "/Size", m, step);
      break;
    case 6: {
      const auto found = find_all(input, "/Filter");
      if (found.empty()) break;
      const std::size_t at = m.choose(found);
      std::size_t from = at + 7;
      while (from < input.size() && is_white(input[from])) ++from;
      std::size_t to = from;
      if (to < input.size() && input[to] == '[') {
        to = input.find(']', to);
        to = to == std::string::npos ? input.size() : to + 1;
      } else if (to < input.size() && input[to] == '/') {
        ++to;
        while (to < input.size() && !is_white(input[to]) && !is_delimiter(input[to])) ++to;
      }
      static const std::vector<std::string> filters{"/FlateDecode", "/ASCIIHexDecode", "/ASCII85Decode", "/LZWDecode",
                                                    "/RunLengthDecode", "/Crypt", "/Bogus", "[/FlateDecode /FlateDecode]",
                                                    "[]", "/Fl", "/FlateDecode /DecodeParms << /Predictor 12 /Columns 5 >>"};
      const std::string& filter = m.choose(filters);
      out = input.substr(0, from) + filter + input.substr(to);
      step = "pdf.filter @" + std::to_string(at) + ": " + filter;
      break;
    }
    default: {
      const auto spans = tokens(input);
      if (spans.empty()) break;
      const std::size_t i = m.below(spans.size());
      const auto [from, to] = spans[i];
      const std::string token = input.substr(from, to - from);
      const std::size_t how = m.below(4);
      if (how == 0) {
        out = input.substr(0, from) + input.substr(to);
        step = "pdf.token @" + std::to_string(from) + ": delete";
      } else if (how == 1) {
        out = input.substr(0, to) + " " + token + input.substr(to);
        step = "pdf.token @" + std::to_string(from) + ": duplicate";
      } else if (how == 2 && i + 1 < spans.size()) {
        const auto [from2, to2] = spans[i + 1];
        out = input.substr(0, from) + input.substr(from2, to2 - from2) + input.substr(to, from2 - to) + token + input.substr(to2);
        step = "pdf.token @" + std::to_string(from) + ": swap with the next";
      } else if (!m.tokens.empty()) {
        out = input.substr(0, from) + m.choose(m.tokens) + input.substr(to);
        step = "pdf.token @" + std::to_string(from) + ": dictionary token";
      }
      break;
    }
  }
  if (step.empty()) return mutate_bytes(input, m, step);
  return out;
}

}  // namespace docconform::cli
