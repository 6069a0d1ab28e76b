#include "parts.h"

#include <algorithm>
#include <exception>
#include <new>
#include <unordered_set>

#include "docconform/canonical.h"
#include "docconform/error.h"
#include "docconform/parallel.h"
#include "rich_text.h"
#include "shape_match.h"
#include "sheet_parser.h"
#include "spilled_strings.h"
#include "xml_text.h"

namespace docconform::xlsx {
namespace {

XmlScanner scanner_for(const std::string& xml, const ScanLimits& limits) {
  return XmlScanner(reinterpret_cast<const std::uint8_t*>(xml.data()), xml.size(), 0, true, limits);
}

bool xsd_true(const std::string& v) { return v == "1" || v == "true"; }

}  // namespace

WorkbookPart read_workbook_part(const std::string& xml, const ScanLimits& limits) {
  WorkbookPart out;
  std::unordered_set<std::u16string> names;
  XmlScanner sc = scanner_for(xml, limits);
  for (Token t = next_token(sc); t != Token::end_of_input; t = next_token(sc)) {
    if (t != Token::start) continue;
    const std::uint64_t at = sc.token_offset();
    if (sc.depth() == 1 && !span_is(sc.local(), "workbook")) sc.fail("the officeDocument part is not a <workbook>");
    if (span_is(sc.local(), "workbookPr")) {
      if (const auto* a = sc.attribute("date1904")) {
        const std::string v = attribute_bytes(*a, at);
        if (v != "0" && v != "1" && v != "true" && v != "false") sc.fail("date1904 is not an xsd:boolean");
        out.date1904 = xsd_true(v);
      }
    } else if (span_is(sc.local(), "sheet") && sc.depth() == 3) {
      SheetEntry e;
      const auto* name = sc.attribute("name");
      if (name == nullptr) sc.fail("<sheet> without a name");
      e.name = attribute_text(*name, at);
      if (const auto* state = sc.attribute("state")) {
        const std::string v = attribute_bytes(*state, at);
        if (v == "visible") e.state = SheetState::visible;
        else if (v == "hidden") e.state = SheetState::hidden;
        else if (v == "veryHidden") e.state = SheetState::very_hidden;
        else sc.fail("unknown sheet state");
      }
      for (const auto& a : sc.attributes()) {
        if (span_is(a.local, "id") && a.prefix.size > 0) e.relationship = {attribute_bytes(a, at), at};
      }
      if (e.relationship.id.empty()) sc.fail("<sheet> without r:id");
      // ECMA-376 Part 1 18.2.19: a sheet's name shall be unique (formulas name sheets by it).
      if (!names.insert(e.name).second) {
        sc.fail(("a second sheet has the name " + canonical_string(e.name) + " (sheet names are unique)").c_str());
      }
      out.sheets.push_back(std::move(e));
    }
  }
  return out;
}

namespace {

struct SstChunk {
  std::u16string arena;
  std::vector<TextRef> items;
  bool boundary = false;     // a non-final chunk ended between <si> elements
  std::string open_names;    // chunk 0: the open element(s) at its end
  std::string closed_names;  // last chunk: what closed the assumed-open <sst>
  std::exception_ptr error;
  Growth memory, strings;    // charged to the load's budgets
  std::size_t items_taken = 0;  // items moved to a SpilledStrings before these
};

// Charges what the chunk holds to the load's budgets: in steps, or all of it (final).
void account(SstChunk& chunk, LoadBudgets* budgets, std::uint64_t offset, bool final) {
  if (budgets == nullptr) return;
  const auto where = [&] { return ErrorContext{"", "", offset}; };
  chunk.strings.update(&budgets->shared_strings, chunk.items_taken + chunk.items.size(), final ? 0 : 1 << 16, where);
  const std::uint64_t bytes = chunk.items.size() * sizeof(TextRef) + chunk.arena.size() * sizeof(char16_t);
  chunk.memory.update(&budgets->memory, bytes, final ? 0 : 1 << 20, where);
}

void release(SstChunk& chunk, LoadBudgets* budgets) {
  if (budgets == nullptr) return;
  chunk.memory.release(&budgets->memory);
  chunk.strings.release(&budgets->shared_strings);
}

void parse_sst_chunk(const std::uint8_t* data, std::size_t size, std::uint64_t base, bool first, bool final,
                     const ScanLimits& limits, bool shortcut, LoadBudgets* budgets, SstChunk& out) {
  XmlScanner sc(data, size, base, final, limits);
  if (!first) sc.assume_open(1);
  TextCollector collector;
  SimpleElement simple;
  TextShape shape;
  try {
    for (;;) {
      account(out, budgets, sc.position(), false);
      // <si><t>text</t></si> read whole: what read_rich_text gives for it.
      if (shortcut && sc.depth() == 1) {
        const std::uint8_t* const after = match_string_shape(sc.cursor(), sc.input_end(), shape);
        if (after && shape.text.size <= 0xFFFFFFFFu && sc.take_element(after, 2, shape.longest_token, shape.attributes)) {
          out.items.push_back(append_xstring(shape.text, out.arena));
          continue;
        }
        if (sc.try_simple_element("si", "t", simple)) {
          out.items.push_back(simple.has_inner ? append_xstring(simple.text, out.arena) : TextRef{out.arena.size(), 0});
          continue;
        }
      }
      const Token t = next_token(sc);
      if (t == Token::end_of_input) break;
      if (t == Token::start && sc.depth() == 2 && span_is(sc.local(), "si")) {
        out.items.push_back(read_rich_text(sc, collector, out.arena, shortcut));
      }
    }
    account(out, budgets, sc.position(), true);
    out.boundary = !final && sc.depth() == 1;
    out.open_names = sc.open_names();
    out.closed_names = sc.closed_assumed();
  } catch (const IncompleteInput&) {
    out.boundary = false;
  } catch (const std::bad_alloc&) {
    throw allocation_failure({"", "", sc.position()});
  }
}

// Shared strings cost more per byte than sheet XML and block every sheet: split finer.
std::size_t shared_strings_chunk_bytes(const LoadOptions& options) {
  return options.chunk_bytes == 0 ? 0 : std::min<std::size_t>(options.chunk_bytes, 256 << 10);
}

// Whether the chunks give what one parse of their concatenation gives: each but the last ended
// between <si> elements, and the last closed what the first left open. A chunk that failed
// ends the check: its error is reported if the chunks before it are sound.
bool chunks_are_sound(const std::vector<SstChunk>& chunks) {
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    if (chunks[k].error) return true;
    if (k + 1 < chunks.size() && !chunks[k].boundary) return false;
  }
  return chunks.size() < 2 || chunks.back().closed_names == chunks.front().open_names;
}

// Rethrows the first chunk's error, else appends every chunk's strings to out in order.
void merge_chunks(std::vector<SstChunk>& chunks, SharedStrings& out) {
  std::size_t units = 0, items = 0;
  for (const auto& c : chunks) {
    if (c.error) std::rethrow_exception(c.error);
    units += c.arena.size();
    items += c.items.size();
  }
  out.arena.reserve(units);
  out.items.reserve(items);
  for (auto& c : chunks) {
    const std::uint64_t base = out.arena.size();
    out.arena.append(c.arena);
    for (const TextRef& r : c.items) out.items.push_back({r.offset + base, r.length});
    std::u16string().swap(c.arena);  // give each chunk's memory back as soon as it is copied
    std::vector<TextRef>().swap(c.items);
  }
}

// The table's arena and list sized once, for the whole part, as its first chunk's share of it
// predicts, instead of doubling (each doubling copies everything and touches fresh pages).
// Later strings may be longer (numbered text grows: 8 % more units per byte by the end of the
// 1M-row benchmark file), so the arena gets a quarter more than predicted; capacity never
// written costs address space, not memory. Each is capped by what the part's declared size
// could hold, since a declared size is a hint, not a promise: an item takes at least 5 bytes
// (<si/>), a unit at least one.
// Returns whether the table predicted is past spill's limit: then nothing is reserved, and its
// strings go to the file chunk by chunk.
bool reserve_like_first_chunk(std::size_t chunk_bytes, std::uint64_t expected_bytes, const SpilledStrings* spill,
                              SstChunk& strings) {
  if (chunk_bytes == 0 || expected_bytes <= chunk_bytes) return false;
  const double scale = static_cast<double>(expected_bytes) / static_cast<double>(chunk_bytes);
  const double items = std::min(static_cast<double>(strings.items.size()) * scale * 1.05, expected_bytes / 5.0);
  const double units = std::min(static_cast<double>(strings.arena.size()) * scale * 1.25, static_cast<double>(expected_bytes));
  if (spill != nullptr && spill->over_limit(units * sizeof(char16_t) + items * sizeof(TextRef))) return true;
  strings.items.reserve(static_cast<std::size_t>(items));
  strings.arena.reserve(static_cast<std::size_t>(units));
  return false;
}

// Moves the strings read so far to the temporary file, with what they charged to max_memory.
void take_strings(SstChunk& strings, SpilledStrings& spill, LoadBudgets* budgets) {
  strings.items_taken += strings.items.size();
  spill.take(strings.arena, strings.items);
  strings.memory.release(budgets != nullptr ? &budgets->memory : nullptr);
}

}  // namespace

void read_shared_strings(const std::string& xml, const ScanLimits& limits, SharedStrings& out,
                         const LoadOptions& options, LoadBudgets* budgets, SpilledStrings* spill) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(xml.data());
  std::vector<std::pair<std::size_t, std::size_t>> ranges;  // [begin, end) of each chunk
  const std::size_t chunk = shared_strings_chunk_bytes(options);
  const std::size_t target = chunk != 0 ? chunk : xml.size();
  for (std::size_t at = 0; at < xml.size() || ranges.empty();) {
    const std::size_t left = xml.size() - at;
    const std::size_t length = left > target ? find_tag_split(data + at, std::min(left, target), 1, "si") : 0;
    ranges.emplace_back(at, length ? at + length : xml.size());
    if (length == 0) break;
    at += length;
  }
  std::vector<SstChunk> chunks(ranges.size());
  parallel_for(ranges.size(), options.threads, [&](std::size_t k, unsigned) {
    try {
      parse_sst_chunk(data + ranges[k].first, ranges[k].second - ranges[k].first, ranges[k].first, k == 0,
                      k + 1 == ranges.size(), limits, options.shortcut, budgets, chunks[k]);
    } catch (...) {
      chunks[k].error = std::current_exception();
    }
  });
  if (!chunks_are_sound(chunks)) {  // a split point was not an <si> boundary: parse whole
    for (SstChunk& c : chunks) release(c, budgets);
    chunks.assign(1, SstChunk{});
    parse_sst_chunk(data, xml.size(), 0, true, true, limits, options.shortcut, budgets, chunks[0]);
  }
  merge_chunks(chunks, out);
  if (spill != nullptr && spill->over_limit(out.arena, out.items)) {
    spill->take(out.arena, out.items);
    for (SstChunk& c : chunks) c.memory.release(budgets != nullptr ? &budgets->memory : nullptr);
  }
}

bool read_shared_strings_streaming(const PartReader& next, std::uint64_t expected_bytes, const ScanLimits& limits,
                                   SharedStrings& out, const LoadOptions& options, LoadBudgets* budgets,
                                   SpilledStrings* spill) {
  const std::size_t target = shared_strings_chunk_bytes(options);
  // The chunks are parsed in order, so they append to one arena: no copy at the end.
  SstChunk strings;
  std::string first_open_names;
  std::size_t chunks = 0;
  std::string pending;
  std::uint64_t base = 0;
  std::size_t searched = 0;  // pending bytes that hold no <si> start (but a tag may straddle their end)
  bool to_file = false;      // the strings go to spill as each chunk is read
  for (bool final = false; !final;) {
    final = next(pending, target) == 0;
    const auto* data = reinterpret_cast<const std::uint8_t*>(pending.data());
    std::size_t length = pending.size();
    if (!final) {
      if (pending.size() < target) continue;
      length = find_tag_split(data, pending.size(), std::max<std::size_t>(1, searched > 64 ? searched - 64 : 0), "si");
      if (length == 0) {  // no <si> start after the first byte yet: read on
        searched = pending.size();
        continue;
      }
    }
    searched = 0;
    // An error is the serial parse's too: every chunk before this one ended between <si>.
    parse_sst_chunk(data, length, base, chunks == 0, final, limits, options.shortcut, budgets, strings);
    if (chunks++ == 0) {
      first_open_names = strings.open_names;
      if (!final) to_file = reserve_like_first_chunk(length, expected_bytes, spill, strings);
    }
    if (!final && !strings.boundary) {
      release(strings, budgets);
      if (spill != nullptr) spill->clear();
      return false;
    }
    if (to_file || (spill != nullptr && spill->over_limit(strings.arena, strings.items))) {
      take_strings(strings, *spill, budgets);
      to_file = true;
    }
    pending.erase(0, length);
    base += length;
  }
  if (chunks > 1 && strings.closed_names != first_open_names) {
    release(strings, budgets);
    if (spill != nullptr) spill->clear();
    return false;
  }
  if (spill != nullptr && spill->taken()) {  // the rest goes after the strings taken
    take_strings(strings, *spill, budgets);
    return true;
  }
  out.arena = std::move(strings.arena);
  out.items = std::move(strings.items);
  return true;
}

std::uint32_t read_cell_format_count(const std::string& xml, const ScanLimits& limits) {
  XmlScanner sc = scanner_for(xml, limits);
  std::uint32_t count = 0;
  bool in_cell_xfs = false;
  for (Token t = next_token(sc); t != Token::end_of_input; t = next_token(sc)) {
    if (t == Token::start && sc.depth() == 2) in_cell_xfs = span_is(sc.local(), "cellXfs");
    if (t == Token::start && sc.depth() == 3 && in_cell_xfs && span_is(sc.local(), "xf")) ++count;
  }
  return count;
}

std::vector<Comment> read_comments(const std::string& xml, const ScanLimits& limits) {
  XmlScanner sc = scanner_for(xml, limits);
  TextCollector collector;
  std::vector<std::u16string> authors;
  std::vector<Comment> out;
  std::u16string arena;
  for (Token t = next_token(sc); t != Token::end_of_input; t = next_token(sc)) {
    if (t != Token::start) continue;
    const std::uint64_t at = sc.token_offset();
    if (sc.depth() == 3 && span_is(sc.local(), "author")) {
      read_leaf(sc, collector);
      arena.clear();
      const TextRef r = append_xstring(collector.bytes(), arena);
      authors.push_back(arena.substr(r.offset, r.length));
    } else if (sc.depth() == 3 && span_is(sc.local(), "comment")) {
      Comment c;
      const auto* ref = sc.attribute("ref");
      if (ref == nullptr) sc.fail("<comment> without ref");
      c.ref = attribute_text(*ref, at);
      if (const auto* author = sc.attribute("authorId")) {
        const std::string v = attribute_bytes(*author, at);
        std::uint64_t index = 0;
        if (!parse_uint({reinterpret_cast<const std::uint8_t*>(v.data()), v.size()}, index)) {
          sc.fail("authorId is not an integer");
        }
        if (index >= authors.size()) {
          throw Error(ErrorKind::range, {"", "", at}, "authorId " + v + " is out of range");
        }
        c.author = authors[index];
      }
      const std::size_t depth = sc.depth();
      for (Token u = next_token(sc);; u = next_token(sc)) {
        if (u == Token::end && sc.depth() < depth) break;
        if (u == Token::end_of_input) unexpected_end(sc, "unexpected end of part inside a comment");
        if (u == Token::start && sc.depth() == depth + 1 && span_is(sc.local(), "text")) {
          arena.clear();
          const TextRef r = read_rich_text(sc, collector, arena, false);  // comments are few
          c.text = arena.substr(r.offset, r.length);
        } else if (u == Token::start) {
          skip_element(sc);
        }
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

Table read_table(const std::string& xml, const ScanLimits& limits) {
  XmlScanner sc = scanner_for(xml, limits);
  for (Token t = next_token(sc); t != Token::end_of_input; t = next_token(sc)) {
    if (t == Token::start && sc.depth() == 1) {
      if (!span_is(sc.local(), "table")) sc.fail("table part without a <table> root");
      const std::uint64_t at = sc.token_offset();
      Table table;
      if (const auto* a = sc.attribute("name")) table.name = attribute_text(*a, at);
      if (const auto* a = sc.attribute("displayName")) table.display_name = attribute_text(*a, at);
      const auto* ref = sc.attribute("ref");
      if (ref == nullptr) sc.fail("<table> without ref");
      table.ref = attribute_text(*ref, at);
      while (next_token(sc) != Token::end_of_input) {
      }
      return table;
    }
  }
  throw Error(ErrorKind::format, {"", "", 0}, "table part without a root element");
}

}  // namespace docconform::xlsx
