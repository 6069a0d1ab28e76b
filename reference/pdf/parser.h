// Lexer and object parser for ISO 32000-1 §7.2-7.3 syntax over one contiguous buffer.
// The buffer may be a prefix of the data: running into its end (unless it is the end of the
// data) throws NeedMore so the caller can retry with a larger span.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docconform/budget.h"
#include "docconform/pdf/limits.h"
#include "docconform/pdf/object.h"

namespace docconform::pdf {

struct NeedMore {};

// "object N G"
std::string object_part(std::uint32_t num, std::uint32_t gen);

// The part an error names: a fixed text, or an object (optionally inside an object stream),
// spelled out only when an error is raised. Building the text for each of 300,000 objects costs
// a fifth as much as parsing them.
class PartName {
 public:
  // A fixed part; the text outlives the name.
  PartName(const std::string& text) : text_(text) {}
  PartName(const char* text) : text_(text) {}
  static PartName object(std::uint32_t num, std::uint32_t gen, std::int64_t object_stream = -1) {
    PartName name("");
    name.num_ = num;
    name.gen_ = gen;
    name.object_stream_ = object_stream;
    name.is_object_ = true;
    return name;
  }
  std::string str() const;

 private:
  std::string_view text_;
  std::uint32_t num_ = 0, gen_ = 0;
  std::int64_t object_stream_ = -1;
  bool is_object_ = false;
};

class Parser {
 public:
  // base = offset of data[0] in the part errors name (the file, or a decoded object stream).
  Parser(const std::uint8_t* data, std::size_t size, std::uint64_t base, bool at_end, const Limits& limits,
         const std::string& file, PartName part);

  std::size_t pos() const { return pos_; }
  void set_pos(std::size_t pos) { pos_ = pos; }
  std::uint64_t offset() const { return base_ + pos_; }
  bool at_end() { return peek_end(); }

  void skip_ws();  // whitespace and comments
  // Charges the objects this parser builds to memory, in steps of charge_step bytes, adding
  // each step to charged (which the caller releases when it drops the objects).
  void account(Budget& memory, std::uint64_t& charged) {
    memory_ = &memory;
    charged_ = &charged;
  }
  static constexpr std::uint64_t charge_step = 1 << 20;

  // A direct object; `N G R` becomes a ref. Throws Error(format) or Error(limit) (also when an
  // allocation fails).
  Object parse_object();
  // The same, written over `into` and reusing the storage it owns (unspecified after a throw).
  void parse_object(Object& into);
  // An unsigned decimal integer token (after whitespace).
  std::uint64_t parse_uint(const char* what);
  // Consumes keyword if the next token (after whitespace) is exactly it.
  bool try_keyword(std::string_view keyword);
  void expect_keyword(std::string_view keyword);
  // After `stream`: the single EOL (CRLF or LF; a lone CR and spaces before it are tolerated)
  // before the data; throws when there is none.
  void skip_stream_eol();

  [[noreturn]] void fail(const std::string& message) const;

 private:
  // At end of buffer: false if at_end_, else throws NeedMore. Inline: the lexer asks per byte.
  bool peek_end() {
    if (pos_ < size_) return false;
    if (at_end_) return true;
    throw NeedMore{};
  }
  int peek() { return peek_end() ? -1 : data_[pos_]; }  // next byte or -1 at the end of the data
  void parse_value(std::uint32_t depth, Object& out);
  // Throws Error(limit) when a container at `depth` would be nested deeper than max_depth.
  void check_nesting(std::uint32_t depth) const;
  void parse_array(std::uint32_t depth, Object& out);
  void parse_dict(std::uint32_t depth, Object& out);
  // After the n-th element of the container opened at `open`: fails past max_container_elements,
  // and at the first large count reserves room for the rest (counted ahead, so a large container
  // is allocated once instead of doubling through copies that hold it twice).
  void element_added(std::size_t n, std::size_t open, bool dict, Object& out);
  // Elements of the container whose first byte is at open and whose contents continue at
  // pos_, to its end; 0 when the count is unknown (the container does not end in the buffer, or
  // holds something the parser will reject). Containers closing inside it with a large count
  // are remembered in known_counts_.
  std::size_t count_ahead(std::size_t open, bool dict);
  void add_bytes(std::uint64_t bytes) {
    pending_bytes_ += bytes;
    if (pending_bytes_ >= charge_step && memory_ != nullptr) flush_bytes();
  }
  void flush_bytes();
  void parse_number(Object& out);
  void parse_name(Object& out);
  void parse_name_bytes(std::string& out);
  void parse_literal_string(Object& out);
  void parse_hex_string(Object& out);
  std::string_view regular_token();

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::uint64_t base_;
  bool at_end_;
  const Limits& limits_;
  const std::string& file_;
  PartName part_;
  Budget* memory_ = nullptr;
  std::uint64_t* charged_ = nullptr;
  std::uint64_t pending_bytes_ = 0;
  std::vector<std::pair<std::size_t, std::size_t>> known_counts_;  // (open position, elements), sorted
};

// The three classes of bytes in PDF syntax (§7.2.3), one table lookup per byte: the lexer asks
// for every byte of every token.
enum class ByteClass : std::uint8_t { regular, whitespace, delimiter };
inline constexpr std::array<ByteClass, 256> byte_classes = [] {
  std::array<ByteClass, 256> t{};
  for (const std::uint8_t c : {0, 9, 10, 12, 13, 32}) t[c] = ByteClass::whitespace;
  for (const std::uint8_t c : {'(', ')', '<', '>', '[', ']', '{', '}', '/', '%'}) t[c] = ByteClass::delimiter;
  return t;
}();
inline bool is_pdf_whitespace(std::uint8_t c) { return byte_classes[c] == ByteClass::whitespace; }

}  // namespace docconform::pdf
