#include "mine_minimize.h"

#include <algorithm>
#include <chrono>

#include "mine_mutators.h"

namespace docconform::cli {
namespace {

// Units that together are the input: each ends after a separator (or at the input's end).
std::vector<std::string> split_after(const std::string& input, const std::function<bool(std::size_t)>& ends_unit) {
  std::vector<std::string> units;
  std::size_t start = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (ends_unit(i)) {
      units.push_back(input.substr(start, i + 1 - start));
      start = i + 1;
    }
  }
  if (start < input.size()) units.push_back(input.substr(start));
  return units;
}

std::string joined(const std::vector<std::string>& units, const std::vector<bool>& keep) {
  std::string out;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (keep[i]) out += units[i];
  }
  return out;
}

UnitCut cut_of(std::string what, std::vector<std::string> units) {
  UnitCut cut;
  cut.what = std::move(what);
  cut.units = units.size();
  cut.build = [units = std::move(units)](const std::vector<bool>& keep) { return joined(units, keep); };
  return cut;
}

bool white(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f'; }

UnitCut lines(const std::string& input) {
  return cut_of("lines", split_after(input, [&](std::size_t i) {
                  return input[i] == '\n' || (input[i] == '\r' && (i + 1 == input.size() || input[i + 1] != '\n'));
                }));
}

UnitCut tokens(const std::string& input) {
  // A token with the white space after it.
  return cut_of("tokens", split_after(input, [&](std::size_t i) {
                  return white(input[i]) && (i + 1 == input.size() || !white(input[i + 1]));
                }));
}

UnitCut bytes(const std::string& input) {
  // Single bytes, or runs of bytes for an input past 64 KiB, so that a cut has at most 65,536 units.
  const std::size_t run = std::max<std::size_t>(1, (input.size() + 65535) / 65536);
  std::vector<std::string> units;
  for (std::size_t at = 0; at < input.size(); at += run) units.push_back(input.substr(at, run));
  return cut_of(run == 1 ? "bytes" : "runs of " + std::to_string(run) + " bytes", std::move(units));
}

UnitCut records(const std::string& input) {
  std::vector<std::string> units;
  std::size_t end = 0;
  for (const BiffRecord& r : biff_records(input, 0)) {
    units.push_back(input.substr(r.offset, 4 + r.length));
    end = r.offset + 4 + r.length;
  }
  if (end < input.size()) units.push_back(input.substr(end));
  return cut_of("records", std::move(units));
}

// The elements at one depth of an XML text (1 = the root's children) as units, with the text
// between them fixed: leaving an element out leaves the rest well formed.
struct XmlLevel {
  std::vector<std::pair<std::size_t, std::size_t>> elements;
  std::size_t max_depth = 0;
};
XmlLevel xml_level(const std::string& xml, std::size_t depth) {
  XmlLevel level;
  std::size_t current = 0;
  std::size_t open_at = std::string::npos;
  for (std::size_t lt = xml.find('<'); lt != std::string::npos; lt = xml.find('<', lt + 1)) {
    const std::size_t gt = xml.find('>', lt);
    if (gt == std::string::npos) break;
    const char kind = lt + 1 < xml.size() ? xml[lt + 1] : '\0';
    if (kind == '?' || kind == '!') continue;
    if (kind == '/') {
      if (current == 0) break;
      --current;
      if (current == depth && open_at != std::string::npos) {
        level.elements.emplace_back(open_at, gt + 1);
        open_at = std::string::npos;
      }
    } else if (xml[gt - 1] == '/') {
      if (current == depth) level.elements.emplace_back(lt, gt + 1);
      level.max_depth = std::max(level.max_depth, current);
    } else {
      if (current == depth) open_at = lt;
      level.max_depth = std::max(level.max_depth, current);
      ++current;
    }
    lt = gt;
  }
  return level;
}

bool is_xml_part(const std::string& name) { return name.ends_with(".xml") || name.ends_with(".rels"); }

// xlsx: the parts, then each XML part's elements depth by depth (hierarchical delta debugging).
bool xlsx_cut(const std::string& input, std::size_t k, UnitCut& cut) {
  const auto parts = read_zip(input);
  if (!parts) {
    if (k > 0) return false;
    cut = bytes(input);
    return true;
  }
  if (k == 0) {
    cut.what = "parts";
    cut.units = parts->size();
    cut.build = [parts = *parts](const std::vector<bool>& keep) {
      std::vector<ZipPart> kept;
      for (std::size_t i = 0; i < parts.size(); ++i) {
        if (keep[i]) kept.push_back(parts[i]);
      }
      return write_zip(kept);
    };
    return true;
  }
  std::size_t left = k - 1;
  for (std::size_t p = 0; p < parts->size(); ++p) {
    if (!is_xml_part((*parts)[p].name)) continue;
    const std::string& xml = (*parts)[p].data;
    const std::size_t depths = xml_level(xml, 0).max_depth;
    if (left >= depths) {
      left -= depths;
      continue;
    }
    const std::size_t depth = left + 1;
    auto elements = xml_level(xml, depth).elements;
    cut = UnitCut{};
    cut.what = "elements of " + (*parts)[p].name + " at depth " + std::to_string(depth);
    cut.units = elements.size();
    cut.build = [parts = *parts, p, elements = std::move(elements)](const std::vector<bool>& keep) {
      std::vector<ZipPart> changed = parts;
      const std::string& text = parts[p].data;
      std::string out;
      std::size_t at = 0;
      for (std::size_t i = 0; i < elements.size(); ++i) {
        out += text.substr(at, elements[i].first - at);
        if (keep[i]) out += text.substr(elements[i].first, elements[i].second - elements[i].first);
        at = elements[i].second;
      }
      changed[p].data = out + text.substr(at);
      return write_zip(changed);
    };
    return true;
  }
  return false;
}

// Delta debugging (ddmin) over one cut: units are left out in chunks, halving the chunks when
// none can go, until single units cannot.
std::string reduce(const UnitCut& cut, std::string current, const SignatureCheck& holds, const MinimizeBudget& budget,
                   std::chrono::steady_clock::time_point deadline, MinimizeLog& log, std::size_t& kept) {
  constexpr std::size_t batch = 16;  // inputs per check
  std::vector<bool> keep(cut.units, true);
  std::size_t n = 2;
  while (true) {
    std::vector<std::size_t> live;
    for (std::size_t i = 0; i < keep.size(); ++i) {
      if (keep[i]) live.push_back(i);
    }
    kept = live.size();
    if (live.empty()) return current;
    n = std::min(n, live.size());
    std::vector<std::vector<bool>> trials;
    std::vector<std::string> inputs;
    for (std::size_t c = 0; c < n; ++c) {
      std::vector<bool> trial = keep;
      for (std::size_t k = c * live.size() / n; k < (c + 1) * live.size() / n; ++k) trial[live[k]] = false;
      std::string built;
      try {
        built = cut.build(trial);
      } catch (const std::exception&) {
        continue;  // a zip libzip cannot write (two parts of one name)
      }
      if (built.size() >= current.size()) continue;
      trials.push_back(std::move(trial));
      inputs.push_back(std::move(built));
    }
    bool reduced = false;
    for (std::size_t from = 0; from < inputs.size() && !reduced; from += batch) {
      const std::size_t left = budget.runs > log.runs ? budget.runs - log.runs : 0;
      if (left == 0 || std::chrono::steady_clock::now() >= deadline) {
        log.budget_spent = true;
        return current;
      }
      const std::size_t count = std::min({batch, inputs.size() - from, left});
      const std::vector<std::string> some(inputs.begin() + static_cast<std::ptrdiff_t>(from),
                                          inputs.begin() + static_cast<std::ptrdiff_t>(from + count));
      log.runs += count;
      const std::size_t found = holds(some);
      if (found < count) {
        keep = trials[from + found];
        current = inputs[from + found];
        reduced = true;
      }
    }
    if (reduced) {
      kept = static_cast<std::size_t>(std::count(keep.begin(), keep.end(), true));
      n = std::max<std::size_t>(n - 1, 2);
      continue;
    }
    if (n >= live.size()) return current;
    n = std::min(2 * n, live.size());
  }
}

}  // namespace

bool unit_cut(const std::string& format, const std::string& input, std::size_t k, UnitCut& cut) {
  if (format == "xlsx") return xlsx_cut(input, k, cut);
  std::vector<UnitCut (*)(const std::string&)> cuts;
  if (format == "pdf" || format == "pdf3") {
    cuts = {lines, tokens, bytes};
  } else if (format == "sst" && !is_cfb(input)) {
    cuts = {records, bytes};
  } else if (format == "sst") {
    cuts = {bytes};
  } else {
    cuts = {lines, bytes};
  }
  if (k >= cuts.size()) return false;
  cut = cuts[k](input);
  return true;
}

std::string minimize(const std::string& format, const std::string& input, const SignatureCheck& holds,
                     const MinimizeBudget& budget, MinimizeLog& log) {
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(budget.seconds));
  std::string current = input;
  // Passes over every cut until one leaves the input as it was: a unit that could not go in one
  // pass may go once another has (a part, once the relationship naming it is gone).
  for (std::size_t pass = 1; !log.budget_spent; ++pass) {
    const std::size_t pass_bytes = current.size();
    for (std::size_t k = 0; !log.budget_spent; ++k) {
      UnitCut cut;
      if (!unit_cut(format, current, k, cut)) break;
      if (cut.units == 0) continue;
      const std::size_t bytes_before = current.size();
      std::size_t kept = cut.units;
      current = reduce(cut, std::move(current), holds, budget, deadline, log, kept);
      if (current.size() == bytes_before) continue;
      log.steps.push_back("pass " + std::to_string(pass) + ", " + cut.what + ": " + std::to_string(cut.units) + " -> " +
                          std::to_string(kept) + " units, " + std::to_string(bytes_before) + " -> " +
                          std::to_string(current.size()) + " bytes");
    }
    if (current.size() == pass_bytes) break;
  }
  log.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return current;
}

}  // namespace docconform::cli
