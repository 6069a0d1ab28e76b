// The relationship walk and the three phases: _rels/.rels -> workbook -> sheets, shared
// strings, styles; sheet rels -> comments, tables, drawings -> charts. Part names always come
// from relationships, never from convention.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <new>
#include <unordered_map>

#include "docconform/budget.h"
#include "docconform/error.h"
#include "docconform/parallel.h"
#include "docconform/xlsx/workbook.h"
#include "content_types.h"
#include "package.h"
#include "parts.h"
#include "sheet_loader.h"
#include "spilled_strings.h"
#include "walk.h"

namespace docconform::xlsx {
namespace {

using Clock = std::chrono::steady_clock;

// Reads and parses a small part, naming it in any error.
template <typename Fn>
auto with_part(const Package& package, const std::string& part, Fn&& fn) {
  try {
    return fn(package.read(part));
  } catch (const Error& e) {
    throw e.with_file(package.label()).with_part(part);
  }
}

// A part's relationships by Id (the first of a repeated Id), so that following one is a lookup,
// not a scan of the list: a workbook of n sheets, or a sheet of n tables, follows n of them.
class RelationshipsById {
 public:
  explicit RelationshipsById(const std::vector<Relationship>& rels) {
    by_id_.reserve(rels.size());
    for (const Relationship& r : rels) by_id_.emplace(r.id, &r);  // keeps the first
  }
  const Relationship* find(const std::string& id) const {
    const auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : it->second;
  }

 private:
  std::unordered_map<std::string, const Relationship*> by_id_;
};

// The relationship that source names with `use`, among source's rels (must be internal).
const Relationship& follow(const Package& package, const RelationshipsById& rels, const RelationshipUse& use,
                           const std::string& source) {
  const Relationship* r = rels.find(use.id);
  if (r == nullptr) {
    package.fail(ErrorKind::format, source, use.offset,
                 "no relationship with Id '" + use.id + "' in " + rels_part_of(source));
  }
  if (r->external) {
    package.fail(ErrorKind::format, rels_part_of(source), r->offset, "relationship '" + use.id + "' is external");
  }
  return *r;
}

// The target must exist and must not lead back up the walk.
void check_target(const Package& package, const Relationship& r, const std::string& source,
                  const std::vector<std::string>& chain) {
  for (const auto& ancestor : chain) {
    if (part_key(ancestor) == part_key(r.target)) {
      package.fail(ErrorKind::format, rels_part_of(source), r.offset,
                   "relationship '" + r.id + "' leads back to " + ancestor + " (cycle)");
    }
  }
  if (!package.has(r.target)) {
    package.fail(ErrorKind::format, rels_part_of(source), r.offset,
                 "relationship '" + r.id + "' targets " + r.target + ", which is not in the package");
  }
}

// The relationship types a <sheet> may have (matched by their last path segment, as every
// type is): the kind they give the sheet and the content types its part may have.
struct SheetType {
  std::string_view relationship;
  SheetKind kind;
  PartRole role;
};
constexpr std::array<SheetType, 5> sheet_types{{
    {"worksheet", SheetKind::worksheet, PartRole::worksheet},
    {"chartsheet", SheetKind::chartsheet, PartRole::chartsheet},
    {"dialogsheet", SheetKind::dialogsheet, PartRole::dialogsheet},
    {"xlMacrosheet", SheetKind::macrosheet, PartRole::macrosheet},
    {"xlIntlMacrosheet", SheetKind::intlmacrosheet, PartRole::intlmacrosheet},
}};

const SheetType* sheet_type(std::string_view relationship_type) {
  for (const SheetType& t : sheet_types) {
    if (t.relationship == relationship_type) return &t;
  }
  return nullptr;
}

const Relationship* first_of_type(const std::vector<Relationship>& rels, std::string_view type) {
  for (const auto& r : rels) {
    if (r.type == type && !r.external) return &r;
  }
  return nullptr;
}

}  // namespace

void read_sheet_extras(const Package& package, Sheet& sheet, const SheetOutput& output, const ScanLimits& limits,
                       const std::string& workbook_part, Budget& memory) {
  const std::vector<std::string> chain{workbook_part, sheet.part};
  const auto rels = read_relationships(package, sheet.part);
  const RelationshipsById by_id(rels);
  for (const auto& r : rels) {
    if (r.external || r.type != "comments") continue;
    check_target(package, r, sheet.part, chain);
    auto comments = with_part(package, r.target, [&](const std::string& xml) { return read_comments(xml, limits); });
    std::uint64_t bytes = 0;
    for (const Comment& c : comments) bytes += sizeof(Comment) + (c.ref.size() + c.author.size() + c.text.size()) * sizeof(char16_t);
    memory.charge(bytes, [&] { return ErrorContext{package.label(), r.target, std::nullopt}; });
    for (auto& c : comments) sheet.comments.push_back(std::move(c));
  }
  for (const auto& use : output.table_ids) {
    const Relationship& r = follow(package, by_id, use, sheet.part);
    check_target(package, r, sheet.part, chain);
    sheet.tables.push_back(with_part(package, r.target, [&](const std::string& xml) { return read_table(xml, limits); }));
  }
  for (const auto& use : output.drawing_ids) {
    const Relationship& r = follow(package, by_id, use, sheet.part);
    check_target(package, r, sheet.part, chain);
    sheet.drawings.push_back(r.target);
    std::vector<std::string> drawing_chain = chain;
    drawing_chain.push_back(r.target);
    for (const auto& dr : read_relationships(package, r.target)) {
      if (dr.external || dr.type != "chart") continue;
      check_target(package, dr, r.target, drawing_chain);
      sheet.charts.push_back(dr.target);
    }
  }
}

WorkbookIndex index_workbook(const Package& package, const LoadOptions& options, LoadBudgets* budgets) {
  const Limits& options_limits = options.limits;
  const ScanLimits limits = scan_limits(options_limits);
  const auto root = read_relationships(package, "");
  const Relationship* office = first_of_type(root, "officeDocument");
  if (office == nullptr) {
    // The offset is the part's end: the list ended without one.
    const auto rels = package.find("_rels/.rels");
    if (!rels) package.fail(ErrorKind::format, "_rels/.rels", std::nullopt, "part is missing from the package");
    package.fail(ErrorKind::format, "_rels/.rels", package.declared_size(*rels), "no officeDocument relationship");
  }
  check_target(package, *office, "", {});
  const ContentTypes content_types(package);
  content_types.require(office->target, PartRole::workbook);
  WorkbookIndex index;
  index.workbook_part = office->target;
  const std::string& workbook_part = index.workbook_part;

  Workbook& wb = index.workbook;
  const WorkbookPart book =
      with_part(package, workbook_part, [&](const std::string& xml) { return read_workbook_part(xml, limits); });
  wb.date1904 = book.date1904;
  if (book.sheets.size() > options_limits.max_sheets) {
    package.fail(ErrorKind::limit, workbook_part, book.sheets[options_limits.max_sheets].relationship.offset,
                 "more sheets than max_sheets (" + std::to_string(options_limits.max_sheets) + ")");
  }
  const auto rels = read_relationships(package, workbook_part);
  const RelationshipsById by_id(rels);
  const std::vector<std::string> chain{workbook_part};
  if (const auto* r = first_of_type(rels, "sharedStrings")) {
    check_target(package, *r, workbook_part, chain);
    index.shared_strings_part = r->target;
  }
  try {
    if (const auto* r = first_of_type(rels, "styles")) {
      check_target(package, *r, workbook_part, chain);
      wb.has_styles = true;
      wb.cell_formats =
          with_part(package, r->target, [&](const std::string& xml) { return read_cell_format_count(xml, limits); });
    }
    for (const auto& entry : book.sheets) {
      const Relationship& r = follow(package, by_id, entry.relationship, workbook_part);
      check_target(package, r, workbook_part, chain);
      Sheet sheet;
      sheet.name = entry.name;
      sheet.state = entry.state;
      sheet.part = r.target;
      sheet.entry = package.entry_name(*package.find(r.target));
      if (r.type.empty()) {
        package.fail(ErrorKind::format, rels_part_of(workbook_part), r.offset,
                     "sheet '" + entry.relationship.id + "' has relationship type " + r.type_uri +
                         ", outside the namespaces that define sheet relationships");
      }
      const SheetType* type = sheet_type(r.type);
      if (type == nullptr) {
        package.fail(ErrorKind::unsupported, rels_part_of(workbook_part), r.offset,
                     "sheet '" + entry.relationship.id + "' has unsupported relationship type " + r.type_uri);
      }
      content_types.require(r.target, type->role);
      sheet.kind = type->kind;
      if (sheet.kind == SheetKind::chartsheet) {
        index.worksheet_of_sheet.push_back(static_cast<std::size_t>(-1));
      } else {
        index.worksheet_of_sheet.push_back(index.worksheet_parts.size());
        index.worksheet_parts.push_back(sheet.part);
      }
      wb.sheets.push_back(std::move(sheet));
    }
  } catch (const Error&) {
    if (!index.shared_strings_part.empty()) {
      read_shared_strings_part(package, index.shared_strings_part, options, wb.shared_strings, {}, budgets);
    }
    throw;
  }
  return index;
}

void read_shared_strings_part(const Package& package, const std::string& part, const LoadOptions& options,
                              SharedStrings& out, const std::function<void()>& between_reads, LoadBudgets* budgets,
                              SpilledStrings* spill) {
  const ScanLimits limits = scan_limits(options.limits);
  try {
    // On one thread the part is parsed as it inflates: its XML is never held whole.
    if (options.chunk_bytes != 0 && (!runs_parallel(options.threads) || spill != nullptr)) {
      PartStream stream(package, part);
      const auto next = [&](std::string& buffer, std::size_t max) {
        if (between_reads) between_reads();
        return stream.read(buffer, max);
      };
      if (read_shared_strings_streaming(next, stream.declared_size(), limits, out, options, budgets, spill)) return;
      // A split point was not an <si> boundary: parse the whole part, read again uncounted.
      LoadOptions whole = options;
      whole.chunk_bytes = 0;
      read_shared_strings(package.read(part, false), limits, out, whole, budgets, spill);
      return;
    }
    read_shared_strings(package.read(part), limits, out, options, budgets, spill);
  } catch (const Error& e) {
    throw e.with_file(package.label()).with_part(part);
  }
}

namespace {

std::uint64_t declared_bytes(const Package& package, const std::string& part) {
  const auto entry = package.find(part);
  return entry ? package.declared_size(*entry) : 0;
}

}  // namespace

// Parts inflated on several threads charge one budget in whatever order they happen to run.
// Adding up their declared sizes first, in document order, makes a package that declares more
// than the budget fail the same way, at the same part, at every thread count.
void check_declared_budget(const Package& package, const WorkbookIndex& index) {
  std::uint64_t total = package.inflated();  // the parts read to index the workbook
  std::vector<const std::string*> parts;
  if (!index.shared_strings_part.empty()) parts.push_back(&index.shared_strings_part);
  for (const auto& part : index.worksheet_parts) parts.push_back(&part);
  for (const std::string* part : parts) {
    const auto entry = package.find(*part);
    if (!entry) continue;  // reported as missing when it is read
    total += package.check_declared_size(*entry);
    if (total > package.budget()) {
      package.fail(ErrorKind::limit, *part, std::nullopt,
                   "the parts to read declare " + std::to_string(total) + " bytes up to this one, over " + package.budget_text());
    }
  }
}

namespace {

// Whether the shared strings are read by one worker beside the sheets (which are then
// index-checked once the table is known) instead of before them on every thread: worth it when
// several threads run and the table is not the larger part of the work.
bool shared_strings_beside_sheets(const Package& package, const WorkbookIndex& index, const LoadOptions& options) {
  if (index.shared_strings_part.empty() || !runs_parallel(options.threads) || options.inflate != InflateMode::workers) {
    return false;
  }
  std::uint64_t sheets = 0;
  for (const auto& part : index.worksheet_parts) sheets += declared_bytes(package, part);
  return declared_bytes(package, index.shared_strings_part) <= sheets;
}

}  // namespace

SheetParseContext sheet_parse_context(const LoadOptions& options, LoadBudgets& budgets) {
  SheetParseContext context;
  context.limits = scan_limits(options.limits);
  context.max_row_bytes = options.limits.max_row_bytes;
  context.shortcut = options.shortcut;
  context.budgets = &budgets;
  return context;
}

SharedStringsJob plan_shared_strings(const Package& package, WorkbookIndex& index, const LoadOptions& options,
                                     LoadBudgets& budgets, SheetParseContext& context, SpilledStrings* spill) {
  SharedStrings& table = index.workbook.shared_strings;
  const auto size = [&table, spill] { return spill != nullptr && spill->taken() ? spill->size() : table.items.size(); };
  if (shared_strings_beside_sheets(package, index, options)) {
    context.shared_strings = std::nullopt;
    return [&package, &index, &table, &budgets, options, spill, size](const std::function<void()>& between_reads) {
      // This worker alone, while the others parse sheets: on one thread the part is parsed as
      // it inflates, so its XML is not held beside the growing sheets.
      LoadOptions one_thread = options;
      one_thread.threads = 1;
      read_shared_strings_part(package, index.shared_strings_part, one_thread, table, between_reads, &budgets, spill);
      return size();
    };
  }
  if (!index.shared_strings_part.empty()) {
    read_shared_strings_part(package, index.shared_strings_part, options, table, {}, &budgets, spill);
  }
  context.shared_strings = size();
  return {};
}

namespace {

Workbook load_package(const Package& package, const LoadOptions& options, LoadStats& stats) {
  const auto start = Clock::now();
  LoadBudgets budgets(options.limits);
  WorkbookIndex index = index_workbook(package, options, &budgets);
  check_declared_budget(package, index);
  Workbook& wb = index.workbook;
  SheetParseContext context = sheet_parse_context(options, budgets);
  const SharedStringsJob shared_strings = plan_shared_strings(package, index, options, budgets, context);
  stats.shared_strings_beside_sheets = static_cast<bool>(shared_strings);
  stats.phase_a_s += std::chrono::duration<double>(Clock::now() - start).count();

  std::vector<SheetOutput> outputs = load_sheets(package, index.worksheet_parts, context, options, stats, shared_strings);

  const auto c = Clock::now();
  for (std::size_t i = 0; i < wb.sheets.size(); ++i) {
    if (index.worksheet_of_sheet[i] == static_cast<std::size_t>(-1)) continue;
    SheetOutput& out = outputs[index.worksheet_of_sheet[i]];
    Sheet& sheet = wb.sheets[i];
    read_sheet_extras(package, sheet, out, context.limits, index.workbook_part, budgets.memory);
    sheet.segments = std::move(out.segments);
    sheet.merged_cells = std::move(out.merged_cells);
    sheet.split = out.split;
  }
  stats.phase_c_s += std::chrono::duration<double>(Clock::now() - c).count();
  stats.inflated_bytes = package.inflated();
  return std::move(wb);
}

}  // namespace

double Cell::number() const {
  double v;
  std::memcpy(&v, &payload, sizeof v);
  return v;
}

std::size_t Sheet::cell_count() const {
  std::size_t n = 0;
  for (const auto& s : segments) n += s.cells.size();
  return n;
}

std::size_t Workbook::cell_count() const {
  std::size_t n = 0;
  for (const auto& s : sheets) n += s.cell_count();
  return n;
}

Workbook load_workbook(std::string_view bytes, const LoadOptions& options, const std::string& label,
                       LoadStats* stats) {
  LoadStats local;
  LoadStats& s = stats ? *stats : local;
  const auto load = [&](const LoadOptions& how) {
    s = LoadStats{};
    const Package package(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), label, how.limits, how.inflater);
    return load_package(package, how, s);
  };
  return with_serial_retry(options, label, load);
}

Workbook load_workbook_file(const std::string& path, const LoadOptions& options, LoadStats* stats) {
  const FileMapping mapping(path);
  // A file that shrank while it was read gives that error, whatever its lost bytes led to.
  try {
    Workbook workbook = load_workbook(mapping.bytes(), options, path, stats);
    mapping.verify_unchanged();
    return workbook;
  } catch (const Error&) {
    mapping.verify_unchanged();
    throw;
  }
}

}  // namespace docconform::xlsx
