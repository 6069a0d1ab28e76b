// PDF objects (ISO 32000-1 §7.3) as plain values: the parser produces them, the dump and the
// writer serialize them. Strings and names are kept as raw bytes (names with #xx resolved).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace docconform::pdf {

enum class Kind : std::uint8_t { null, boolean, integer, real, string, name, array, dict, ref, stream };

const char* to_string(Kind kind);

struct Object {
  Kind kind = Kind::null;
  bool boolean = false;
  std::uint32_t gen = 0;     // generation of a ref (beside kind: one element of a large array is 120 bytes)
  std::int64_t integer = 0;  // integer value, or the object number of a ref
  double real = 0;
  std::string bytes;      // string or name bytes
  std::vector<Object> items;       // array elements, or dict/stream values
  std::vector<std::string> keys;   // dict/stream keys, parallel to items
  std::uint64_t stream_offset = 0;  // stream: file offset of the first data byte
  std::uint64_t stream_length = 0;  // stream: /Length as resolved

  bool is_dict() const { return kind == Kind::dict || kind == Kind::stream; }
  // The value of key in a dict or stream dictionary, or nullptr (a null value counts as absent).
  const Object* get(std::string_view key) const;
  Object* get(std::string_view key);
  // Sets key (replacing an existing entry) in a dict.
  void set(std::string_view key, Object value);
  void erase(std::string_view key);
  // The entries of a dict or stream dictionary that count, as indexes into keys/items sorted by
  // key bytes: of a duplicated key only the last occurrence, and none whose value is null.
  // O(n log n), where a get() per key would be quadratic.
  std::vector<std::size_t> live_entries() const;

  static Object make_int(std::int64_t value);
  static Object make_name(std::string_view name);
  static Object make_string(std::string_view bytes);
  static Object make_ref(std::int64_t num, std::uint32_t gen);
  static Object make_dict();
};

struct ObjectId {
  std::uint32_t num = 0;
  std::uint32_t gen = 0;
};

}  // namespace docconform::pdf
