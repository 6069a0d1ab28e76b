// The page tree (§7.7.3): walked from the catalog's /Pages without building an object graph;
// inheritable attributes are passed down, loops and excessive depth are errors.
#include <algorithm>
#include <exception>
#include <optional>
#include <span>
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

// A /Pages node's kids are read a batch at a time, each batch in file order, then visited in
// /Kids order: a windowed source then moves forward across the file once per batch instead of
// hopping wherever the tree leads (an updated file's pages lie anywhere). A batch holds at most
// about prefetch_bytes of parsed kids; the kids past that are read when they are visited.
constexpr std::size_t prefetch_kids = 256;
constexpr std::size_t prefetch_bytes = 256 << 10;

// A kid read ahead of its visit: its value, or the error reading it gave, thrown when the walk
// reaches it, so that errors come in the order of a walk that reads each kid as it goes.
struct Fetched {
  bool done = false;
  Object value;
  std::exception_ptr error;
};

std::size_t footprint(const Object& object) {
  std::size_t bytes = sizeof(Object) + object.bytes.size();
  for (const std::string& key : object.keys) bytes += key.size();
  for (const Object& item : object.items) bytes += footprint(item);
  return bytes;
}

struct Walk {
  Document& doc;
  const std::function<void(const PageInfo&)>& visit;
  std::unordered_set<std::uint32_t> seen;
  std::uint64_t pages = 0;

  std::vector<Fetched> prefetch(std::span<const Object> kids) {
    std::vector<Fetched> batch(kids.size());
    std::vector<std::pair<std::uint64_t, std::size_t>> order;  // where each placed kid lies, its index
    for (std::size_t k = 0; k < kids.size(); ++k) {
      if (const std::optional<std::uint64_t> at = doc.where(&kids[k])) order.emplace_back(*at, k);
    }
    std::sort(order.begin(), order.end());
    std::size_t held = 0;
    for (const auto& [at, k] : order) {
      if (held >= prefetch_bytes) break;
      Fetched& fetched = batch[k];
      fetched.done = true;
      try {
        fetched.value = doc.resolve(kids[k]);
        held += footprint(fetched.value);
      } catch (const Error&) {
        fetched.error = std::current_exception();
      }
    }
    return batch;
  }

  // holder: where the node that lists this entry lies in the file (for errors about the entry).
  // fetched: the entry read ahead, if it was.
  void node(const Object& ref, const Inherited& inherited, std::uint32_t depth, std::optional<std::uint64_t> holder,
            Fetched* fetched = nullptr) {
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
    const Object dict = [&] {
      if (fetched == nullptr || !fetched->done) return doc.resolve(ref);
      if (fetched->error) std::rethrow_exception(fetched->error);
      return std::move(fetched->value);
    }();
    if (dict.kind != Kind::dict) throw Error(ErrorKind::format, {file, part, doc.where(num)}, "page tree node is not a dictionary");
    Inherited here = inherited;
    const std::pair<const char*, const Object**> keys[] = {
        {"MediaBox", &here.media_box}, {"CropBox", &here.crop_box}, {"Rotate", &here.rotate}, {"Resources", &here.resources}};
    for (const auto& [key, slot] : keys) {
      if (const Object* value = dict.get(key)) *slot = value;
    }
    const Object* type = dict.get("Type");
    const Object* kids = dict.get("Kids");
    const bool is_pages = type != nullptr && type->kind == Kind::name ? type->bytes == "Pages" : kids != nullptr;
    if (!is_pages) {
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
    const Object list = kids != nullptr ? doc.resolve(*kids) : Object{};
    if (list.kind != Kind::array) throw Error(ErrorKind::format, {file, part, doc.where(num)}, "/Pages node without a /Kids array");
    const std::optional<std::uint64_t> at = doc.where(num);
    const std::span<const Object> entries(list.items);
    for (std::size_t first = 0; first < entries.size(); first += prefetch_kids) {
      const std::span<const Object> some = entries.subspan(first, std::min(prefetch_kids, entries.size() - first));
      std::vector<Fetched> batch = prefetch(some);
      for (std::size_t k = 0; k < some.size(); ++k) node(some[k], here, depth + 1, at, &batch[k]);
    }
  }
};

}  // namespace

std::uint64_t Document::walk_pages(const std::function<void(const PageInfo&)>& visit) {
  const Object root = catalog();
  const Object* pages = root.get("Pages");
  const std::optional<std::uint64_t> catalog_at = where(trailer_.get("Root"));
  if (pages == nullptr) throw Error(ErrorKind::format, {source_.name(), "catalog", catalog_at}, "catalog has no /Pages");
  Walk walk{*this, visit, {}, 0};
  walk.node(*pages, {}, 0, catalog_at);
  return walk.pages;
}

std::uint64_t Document::page_count() {
  return walk_pages([](const PageInfo&) {});
}

}  // namespace docconform::pdf
