// The page tree (§7.7.3): walked from the catalog's /Pages without building an object graph;
// inheritable attributes are passed down, loops and excessive depth are errors.
#include <algorithm>
#include <exception>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "docconform/error.h"
#include "document_impl.h"
#include "parser.h"

namespace docconform::pdf {
namespace {

// Inheritable attributes as pointers into the dictionaries of the node's ancestors, which stay
// alive on the walk's stack while their descendants are visited: nothing is copied per page,
// so a large inherited /Resources costs the same for 5 pages or 5,000.
struct Inherited {
  const Object* media_box = nullptr;
  const Object* crop_box = nullptr;
  const Object* rotate = nullptr;
  const Object* resources = nullptr;
};

// The walk reads ahead: before it visits a /Pages node's kids, it reads the kids not read yet
// and, breadth-first, the kids of those that are /Pages nodes, each level in file order, until
// read_ahead_bytes of parsed nodes are held. A windowed source then crosses the file about once
// per level of the tree instead of hopping wherever the tree leads (an updated file's pages lie
// anywhere). The walk still visits in /Kids order, and an error met while reading ahead is
// thrown when the walk reaches that node, so errors come as in a walk that reads as it goes.
constexpr std::size_t read_ahead_bytes = 1 << 20;

struct ReadAhead {
  Object value;
  std::exception_ptr error;
  std::size_t bytes = 0;
};

// About the memory a parsed value holds.
std::size_t footprint(const Object& object) {
  std::size_t bytes = sizeof(Object) + object.bytes.size();
  for (const std::string& key : object.keys) bytes += key.size();
  for (const Object& item : object.items) bytes += footprint(item);
  return bytes;
}

// A reference's number and generation as one key; none for anything else.
std::optional<std::uint64_t> ref_key(const Object& ref) {
  if (ref.kind != Kind::ref || ref.integer < 0 || ref.integer > static_cast<std::int64_t>(UINT32_MAX)) return std::nullopt;
  return (static_cast<std::uint64_t>(ref.integer) << 32) | ref.gen;
}

// /Type /Pages, or no /Type name and a /Kids entry.
bool is_pages_node(const Object& dict) {
  const Object* type = dict.get("Type");
  return type != nullptr && type->kind == Kind::name ? type->bytes == "Pages" : dict.get("Kids") != nullptr;
}

// What the walk keeps per node it has reached (the set of them), charged to the load's memory.
constexpr std::uint64_t bytes_per_seen_node = 48;
constexpr std::size_t seen_nodes_per_charge = 16384;

struct Walk {
  Document& doc;
  const std::function<void(const PageInfo&)>& visit;
  Charges& held;
  std::unordered_set<std::uint32_t> seen{};
  std::uint64_t pages = 0;
  std::unordered_map<std::uint64_t, ReadAhead> ahead{};  // by ref_key
  std::size_t ahead_bytes = 0;

  void read_ahead(const std::vector<Object>& kids) {
    using Placed = std::pair<std::uint64_t, const Object*>;  // where the node lies, its reference
    std::vector<Placed> level, next;
    const auto add = [&](std::vector<Placed>& to, const Object& ref) {
      const std::optional<std::uint64_t> key = ref_key(ref);
      if (!key || ahead.contains(*key) || seen.contains(static_cast<std::uint32_t>(*key >> 32))) return;
      if (const std::optional<std::uint64_t> at = doc.where(&ref)) to.emplace_back(*at, &ref);
    };
    for (const Object& kid : kids) add(level, kid);
    while (!level.empty() && ahead_bytes < read_ahead_bytes) {
      std::stable_sort(level.begin(), level.end(), [](const Placed& a, const Placed& b) { return a.first < b.first; });
      next.clear();
      for (const auto& [at, ref] : level) {
        if (ahead_bytes >= read_ahead_bytes) break;
        const auto [it, fresh] = ahead.try_emplace(*ref_key(*ref));
        if (!fresh) continue;  // listed twice
        ReadAhead& entry = it->second;
        try {
          entry.value = doc.resolve(*ref);
        } catch (const Error&) {
          entry.error = std::current_exception();
        }
        entry.bytes = footprint(entry.value);
        ahead_bytes += entry.bytes;
        const Object* grandkids = entry.value.kind == Kind::dict && is_pages_node(entry.value) ? entry.value.get("Kids") : nullptr;
        if (grandkids != nullptr && grandkids->kind == Kind::array) {
          for (const Object& kid : grandkids->items) add(next, kid);
        }
      }
      std::swap(level, next);
    }
  }

  // A node's value: read ahead, or read now.
  Object take(const Object& ref) {
    if (const std::optional<std::uint64_t> key = ref_key(ref)) {
      if (const auto it = ahead.find(*key); it != ahead.end()) {
        ReadAhead entry = std::move(it->second);
        ahead.erase(it);
        ahead_bytes -= entry.bytes;
        if (entry.error) std::rethrow_exception(entry.error);
        return std::move(entry.value);
      }
    }
    return doc.resolve(ref);
  }

  // holder: where the node that lists this entry lies in the file (for errors about the entry).
  void node(const Object& ref, const Inherited& inherited, std::uint32_t depth, std::optional<std::uint64_t> holder) {
    const std::string& file = doc.source().name();
    if (ref.kind != Kind::ref || ref.integer < 0 || ref.integer > static_cast<std::int64_t>(UINT32_MAX)) {
      throw Error(ErrorKind::format, {file, "page tree", holder}, "page tree entry is not an indirect reference");
    }
    const auto num = static_cast<std::uint32_t>(ref.integer);
    const std::string part = object_part(num, ref.gen);
    if (depth > doc.limits().max_depth) {
      throw Error(ErrorKind::limit, {file, part, doc.where(num)},
                  "page tree deeper than max_depth (" + std::to_string(doc.limits().max_depth) + ")");
    }
    if (!seen.insert(num).second) {
      throw Error(ErrorKind::format, {file, part, doc.where(num)}, "page tree reaches this node twice (loop or shared node)");
    }
    if (seen.size() % seen_nodes_per_charge == 0) {
      held.grow_to(seen.size() * bytes_per_seen_node, [&] { return ErrorContext{file, part, doc.where(num)}; });
    }
    const Object dict = take(ref);
    if (dict.kind != Kind::dict) {
      if (const auto at = doc.where(num)) throw Error(ErrorKind::format, {file, part, at}, "page tree node is not a dictionary");
      throw Error(ErrorKind::format, {file, part, holder},
                  "page tree node is not in the file (the offset is of the node that lists it)");
    }
    Inherited here = inherited;
    const std::pair<const char*, const Object**> keys[] = {
        {"MediaBox", &here.media_box}, {"CropBox", &here.crop_box}, {"Rotate", &here.rotate}, {"Resources", &here.resources}};
    for (const auto& [key, slot] : keys) {
      if (const Object* value = dict.get(key)) *slot = value;
    }
    if (!is_pages_node(dict)) {
      PageInfo info;
      info.index = static_cast<std::uint32_t>(pages++);
      info.id = {num, ref.gen};
      const auto resolved = [&](const Object* value) { return value != nullptr ? doc.resolve(*value) : Object{}; };
      info.media_box = resolved(here.media_box);
      info.crop_box = resolved(here.crop_box);
      info.rotate = resolved(here.rotate);
      info.resources = here.resources;
      visit(info);
      return;
    }
    const Object* kids = dict.get("Kids");
    const Object list = kids != nullptr ? doc.resolve(*kids) : Object{};
    if (list.kind != Kind::array) throw Error(ErrorKind::format, {file, part, doc.where(num)}, "/Pages node without a /Kids array");
    const std::optional<std::uint64_t> at = doc.where(num);
    read_ahead(list.items);
    for (const Object& kid : list.items) node(kid, here, depth + 1, at);
  }
};

}  // namespace

std::uint64_t Document::walk_pages(const std::function<void(const PageInfo&)>& visit) {
  const Object root = catalog();
  const Object* pages = root.get("Pages");
  const std::optional<std::uint64_t> catalog_at = where(trailer_.get("Root"));
  if (pages == nullptr) throw Error(ErrorKind::format, {source_.name(), "catalog", catalog_at}, "catalog has no /Pages");
  Charges held(memory());
  Walk walk{.doc = *this, .visit = visit, .held = held};
  walk.node(*pages, {}, 0, catalog_at);
  return walk.pages;
}

std::uint64_t Document::page_count() {
  return walk_pages([](const PageInfo&) {});
}

}  // namespace docconform::pdf
