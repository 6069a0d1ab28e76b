#include "docconform/pdf/object.h"

#include <algorithm>
#include <numeric>

namespace docconform::pdf {

const char* to_string(Kind kind) {
  switch (kind) {
    case Kind::null: return "null";
    case Kind::boolean: return "boolean";
    case Kind::integer: return "integer";
    case Kind::real: return "real";
    case Kind::string: return "string";
    case Kind::name: return "name";
    case Kind::array: return "array";
    case Kind::dict: return "dictionary";
    case Kind::ref: return "reference";
    case Kind::stream: return "stream";
  }
  return "?";
}

const Object* Object::get(std::string_view key) const {
  if (!is_dict()) return nullptr;
  // Last occurrence wins for a duplicated key.
  for (std::size_t i = keys.size(); i-- > 0;) {
    if (keys[i] == key) return items[i].kind == Kind::null ? nullptr : &items[i];
  }
  return nullptr;
}

Object* Object::get(std::string_view key) { return const_cast<Object*>(static_cast<const Object*>(this)->get(key)); }

std::vector<std::size_t> Object::live_entries() const {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Stable: the occurrences of one key stay in document order, the last one last.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::vector<std::size_t> live;
  live.reserve(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    if (k + 1 < order.size() && keys[order[k + 1]] == keys[i]) continue;  // a later occurrence wins
    if (items[i].kind != Kind::null) live.push_back(i);
  }
  return live;
}

void Object::set(std::string_view key, Object value) {
  erase(key);
  keys.emplace_back(key);
  items.push_back(std::move(value));
}

void Object::erase(std::string_view key) {
  for (std::size_t i = keys.size(); i-- > 0;) {
    if (keys[i] == key) {
      keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(i));
      items.erase(items.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
}

Object Object::make_int(std::int64_t value) {
  Object o;
  o.kind = Kind::integer;
  o.integer = value;
  return o;
}

Object Object::make_name(std::string_view name) {
  Object o;
  o.kind = Kind::name;
  o.bytes = name;
  return o;
}

Object Object::make_string(std::string_view bytes) {
  Object o;
  o.kind = Kind::string;
  o.bytes = bytes;
  return o;
}

Object Object::make_ref(std::int64_t num, std::uint32_t gen) {
  Object o;
  o.kind = Kind::ref;
  o.integer = num;
  o.gen = gen;
  return o;
}

Object Object::make_dict() {
  Object o;
  o.kind = Kind::dict;
  return o;
}

}  // namespace docconform::pdf
