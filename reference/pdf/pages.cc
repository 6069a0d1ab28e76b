// The page tree (§7.7.3): walked from the catalog's /Pages without building an object graph;
// inheritable attributes are passed down, loops and excessive depth are errors.
#include <optional>
#include <unordered_set>

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

struct Walk {
  Document& doc;
  const std::function<void(const PageInfo&)>& visit;
  std::unordered_set<std::uint32_t> seen;
  std::uint64_t pages = 0;

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
    const Object dict = doc.resolve(ref);
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
    for (const Object& kid : list.items) node(kid, here, depth + 1, at);
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
