#include "golden_ledger.h"

#include <sstream>

#include "cli_util.h"
#include "docconform/error.h"

namespace docconform::cli {

GoldenLedger read_ledger(const std::string& path) {
  GoldenLedger ledger;
  const std::optional<std::string> text = read_file_if_present(path);
  if (!text) return ledger;  // a format without digests yet
  std::istringstream in(*text);
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    if (line[0] == '#') {
      ledger.header += line + "\n";
      continue;
    }
    std::istringstream fields(line);
    std::string name;
    std::string expectation;
    if (!(fields >> name >> expectation) || (expectation != "rejected" && expectation.rfind("sha256:", 0) != 0)) {
      throw Error(ErrorKind::format, {path, "line " + std::to_string(number), std::nullopt},
                  "expected '<case>  sha256:<hex>' or '<case>  rejected'");
    }
    ledger.entries[name] = expectation;
  }
  return ledger;
}

std::string ledger_text(const GoldenLedger& ledger) {
  std::string text = ledger.header;
  for (const auto& [name, expectation] : ledger.entries) text += name + "  " + expectation + "\n";
  return text;
}

std::string golden_dump_path(const std::string& root, const std::string& format, const std::string& case_name) {
  return root + "/golden/" + format + "/" + case_name + ".dump";
}

namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return lines;
}

}  // namespace

std::string dump_diff(const std::string& expected, const std::string& actual, const std::string& expected_name,
                      const std::string& actual_name, bool actual_cut) {
  constexpr std::size_t context = 3;
  constexpr std::size_t max_lines = 40;       // per side
  constexpr std::size_t max_line_bytes = 240;
  const auto a = lines_of(expected);
  const std::string_view kept = actual_cut ? std::string_view(actual).substr(0, actual.rfind('\n') + 1) : actual;
  const auto b = lines_of(kept);
  std::size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  if (actual_cut && head == b.size()) {
    return "the first " + std::to_string(kept.size()) + " bytes of " + actual_name + " agree with " + expected_name +
           "; the difference lies past them\n";
  }
  if (head == a.size() && head == b.size()) return "";
  std::size_t tail = 0;
  while (!actual_cut && tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
  // One hunk: the differing middle between the common first and last lines, with context. Of a
  // cut dump, the expected lines shown stop where the kept ones do.
  const std::size_t a_end = actual_cut ? std::min(a.size(), b.size()) : a.size() - tail;
  const std::size_t from = head - std::min(head, context);
  const std::size_t after = std::min(tail, context);
  const auto line = [&](char mark, std::string_view text) {
    std::string out(1, mark);
    out += text.substr(0, max_line_bytes);
    if (text.size() > max_line_bytes) out += " [" + std::to_string(text.size() - max_line_bytes) + " more bytes]";
    return out + "\n";
  };
  const auto side = [&](char mark, const std::vector<std::string_view>& lines, std::size_t end) {
    std::string out;
    for (std::size_t i = head; i < end && i < head + max_lines; ++i) out += line(mark, lines[i]);
    if (end - head > max_lines) out += "[" + std::to_string(end - head - max_lines) + " more lines]\n";
    return out;
  };
  std::string diff = "--- " + expected_name + "\n+++ " + actual_name + "\n@@ -" + std::to_string(from + 1) + "," +
                     std::to_string(a_end + after - from) + " +" + std::to_string(from + 1) + "," +
                     std::to_string(b.size() - tail + after - from) + " @@\n";
  for (std::size_t i = from; i < head; ++i) diff += line(' ', a[i]);
  diff += side('-', a, a_end) + side('+', b, b.size() - tail);
  for (std::size_t i = a.size() - tail; i < a.size() - tail + after; ++i) diff += line(' ', a[i]);
  if (actual_cut) diff += "[" + actual_name + " kept only its first " + std::to_string(kept.size()) + " bytes]\n";
  return diff;
}

char case_verdict(const std::string& case_name) {
  if (case_name.size() >= 2 && case_name[1] == '_' &&
      (case_name[0] == 'y' || case_name[0] == 'n' || case_name[0] == 'i')) {
    return case_name[0];
  }
  return '?';
}

}  // namespace docconform::cli
