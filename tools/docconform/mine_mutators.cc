// The mutators every format shares (bytes, lines, UTF-8 sequences), the dispatch by format and
// the dictionaries; the zip/XML, PDF and BIFF families are in mine_mutate_*.cc.
#include "mine_mutators.h"

#include <fstream>

namespace docconform::cli {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A dictionary line's token, or nullopt for a comment, a blank or a malformed line.
std::optional<std::string> dictionary_token(const std::string& line) {
  const auto open = line.find('"');
  const auto close = line.rfind('"');
  if (line.empty() || line[0] == '#' || open == std::string::npos || close <= open) return std::nullopt;
  std::string token;
  for (std::size_t i = open + 1; i < close; ++i) {
    if (line[i] != '\\' || i + 1 >= close) {
      token += line[i];
      continue;
    }
    const char next = line[++i];
    if (next == 'x' && i + 2 < close && hex_digit(line[i + 1]) >= 0 && hex_digit(line[i + 2]) >= 0) {
      token += static_cast<char>(hex_digit(line[i + 1]) * 16 + hex_digit(line[i + 2]));
      i += 2;
    } else {
      token += next;
    }
  }
  return token;
}

std::string where(std::size_t offset) { return "@" + std::to_string(offset); }

}  // namespace

std::vector<std::string> read_dictionary(const std::string& path) {
  std::vector<std::string> tokens;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (auto token = dictionary_token(line); token && !token->empty()) tokens.push_back(std::move(*token));
  }
  return tokens;
}

std::vector<std::string> format_dictionaries(const std::string& format) {
  if (format == "xlsx") return {"xlsx_sheet_xml.dict", "xlsx_package.dict", "xml_text_decoding.dict"};
  if (format == "pdf" || format == "pdf3") return {"pdf_xref_hops.dict", "pdf_objstm.dict", "pdf_recover.dict"};
  if (format == "sst") return {"sst_reader.dict", "cfb_container.dict"};
  if (format == "sstw") return {"strings_file.dict"};
  if (format == "utf8") return {"utf8_passthrough.dict"};
  return {};
}

std::string mutate_bytes(const std::string& input, Mutator& m, std::string& step) {
  std::string out = input;
  const std::size_t at = m.below(out.size() + 1);
  switch (m.below(6)) {
    case 0:
      if (at < out.size()) {
        const int bit = static_cast<int>(m.below(8));
        out[at] = static_cast<char>(out[at] ^ (1 << bit));
        step = "bytes.flip " + where(at) + ": bit " + std::to_string(bit);
        return out;
      }
      [[fallthrough]];
    case 1: {
      static const std::vector<unsigned char> interesting{0x00, 0x01, 0x7F, 0x80, 0xFF, 0x20, 0x0A, 0x0D};
      if (at < out.size()) {
        const unsigned char value = m.choose(interesting);
        out[at] = static_cast<char>(value);
        step = "bytes.set " + where(at) + ": " + std::to_string(value);
        return out;
      }
      [[fallthrough]];
    }
    case 2: {
      const std::size_t length = std::min<std::size_t>(out.size() - std::min(at, out.size()), 1 + m.below(16));
      out.erase(std::min(at, out.size()), length);
      step = "bytes.delete " + where(at) + ": " + std::to_string(length);
      return out;
    }
    case 3: {
      const std::size_t length = std::min<std::size_t>(out.size() - std::min(at, out.size()), 1 + m.below(64));
      if (out.size() + length > m.max_bytes) break;
      out.insert(std::min(at, out.size()), out.substr(std::min(at, out.size()), length));
      step = "bytes.duplicate " + where(at) + ": " + std::to_string(length);
      return out;
    }
    default:
      break;
  }
  if (m.tokens.empty()) {
    step = "bytes.none";
    return out;
  }
  const std::string& token = m.choose(m.tokens);
  if (out.size() + token.size() > m.max_bytes) {
    step = "bytes.none";
    return out;
  }
  out.insert(std::min(at, out.size()), token);
  step = "bytes.insert_token " + where(at) + ": " + std::to_string(token.size()) + " bytes";
  return out;
}

std::string mutate_utf8(const std::string& input, Mutator& m, std::string& step) {
  // Sequences at the edges of RFC 3629: overlong, surrogates, past U+10FFFF, truncated, a BOM.
  static const std::vector<std::string> sequences{
      "\xC0\x80", "\xC1\xBF", "\xE0\x80\x80", "\xED\xA0\x80", "\xED\xBF\xBF", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80",
      "\xE2\x82", "\xF0\x9F\x98", "\x80", "\xBF", "\xFE", "\xFF", "\xEF\xBB\xBF", "\xF0\x9F\x98\x80", "\xEF\xBF\xBF",
      "\xC2\xA0", std::string(1, '\0'), "\xF4\x8F\xBF\xBF"};
  if (m.below(3) == 0) return mutate_bytes(input, m, step);
  const std::size_t at = m.below(input.size() + 1);
  std::string out = input;
  if (m.below(4) == 0) {
    out.resize(at);
    step = "utf8.truncate " + where(at);
    return out;
  }
  const std::size_t which = m.below(sequences.size());
  out.insert(at, sequences[which]);
  step = "utf8.insert " + where(at) + ": sequence " + std::to_string(which);
  return out;
}

std::string mutate_lines(const std::string& input, Mutator& m, std::string& step) {
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < input.size();) {
    const std::size_t end = input.find('\n', start);
    const std::size_t next = end == std::string::npos ? input.size() : end + 1;
    lines.push_back(input.substr(start, next - start));
    start = next;
  }
  if (lines.empty() || m.below(3) == 0) return mutate_bytes(input, m, step);
  const std::size_t i = m.below(lines.size());
  // JSON escapes and strings at the edges of a strings file: lone surrogates, NUL, CONTINUE-sized runs.
  static const std::vector<std::string> inserts{"\\ud800", "\\udfff", "\\u0000", "\\ud83d\\ude00", "\xc3\xa9", "\\\"", "\\\\",
                                                "\\t", "\\u00ff"};
  std::string text;
  switch (m.below(5)) {
    case 0:
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i));
      step = "lines.drop " + std::to_string(i);
      break;
    case 1:
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
      step = "lines.duplicate " + std::to_string(i);
      break;
    case 2: {
      const std::size_t j = m.below(lines.size());
      std::swap(lines[i], lines[j]);
      step = "lines.swap " + std::to_string(i) + " " + std::to_string(j);
      break;
    }
    case 3: {
      // A long string: repeats of a piece of the line, across a record's 8,224 bytes.
      const auto quote = lines[i].find('"');
      if (quote == std::string::npos || lines[i].size() < 3) return mutate_bytes(input, m, step);
      const std::size_t count = 1000 + m.below(8000);
      const std::string piece = m.below(2) == 0 ? std::string("a") : std::string("\xc3\xa9");
      std::string run;
      for (std::size_t k = 0; k < count && run.size() < m.max_bytes / 2; ++k) run += piece;
      lines[i].insert(quote + 1, run);
      step = "lines.long_string " + std::to_string(i) + ": " + std::to_string(count) + " characters";
      break;
    }
    default: {
      const auto quote = lines[i].find('"');
      if (quote == std::string::npos) return mutate_bytes(input, m, step);
      const std::size_t which = m.below(inserts.size());
      lines[i].insert(quote + 1, inserts[which]);
      step = "lines.escape " + std::to_string(i) + ": insert " + std::to_string(which);
      break;
    }
  }
  for (const auto& line : lines) text += line;
  if (text.size() > m.max_bytes) return input;
  return text;
}

std::string mutate_once(const std::string& format, const std::string& input, Mutator& m, std::vector<std::string>& steps) {
  std::string step;
  std::string out;
  if (format == "xlsx") {
    out = mutate_xlsx(input, m, step);
  } else if (format == "pdf" || format == "pdf3") {
    out = mutate_pdf(input, m, step);
  } else if (format == "sst") {
    out = mutate_biff(input, m, step);
  } else if (format == "utf8") {
    out = mutate_utf8(input, m, step);
  } else {
    out = mutate_lines(input, m, step);
  }
  if (out.size() > m.max_bytes) {
    step += " (undone: past " + std::to_string(m.max_bytes) + " bytes)";
    out = input;
  }
  steps.push_back(step);
  return out;
}

}  // namespace docconform::cli
