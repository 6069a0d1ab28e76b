// Lexer and object parser for ISO 32000-1 §7.2-7.3 syntax over one contiguous buffer.
// The buffer may be a prefix of the data: running into its end (unless it is the end of the
// data) throws NeedMore so the caller can retry with a larger span.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "docconform/pdf/limits.h"
#include "docconform/pdf/object.h"

namespace docconform::pdf {

struct NeedMore {};

class Parser {
 public:
  // base = offset of data[0] in the part errors name (the file, or a decoded object stream).
  Parser(const std::uint8_t* data, std::size_t size, std::uint64_t base, bool at_end, const Limits& limits,
         const std::string& file, const std::string& part);

  std::size_t pos() const { return pos_; }
  void set_pos(std::size_t pos) { pos_ = pos; }
  std::uint64_t offset() const { return base_ + pos_; }
  bool at_end() { return peek_end(); }

  void skip_ws();  // whitespace and comments
  // A direct object; `N G R` becomes a ref. Throws Error(format) or Error(limit).
  Object parse_object();
  // An unsigned decimal integer token (after whitespace).
  std::uint64_t parse_uint(const char* what);
  // Consumes keyword if the next token (after whitespace) is exactly it.
  bool try_keyword(std::string_view keyword);
  void expect_keyword(std::string_view keyword);
  // After `stream`: the single EOL (CRLF or LF; a lone CR is tolerated) before the data.
  void skip_stream_eol();

  [[noreturn]] void fail(const std::string& message) const;

 private:
  bool peek_end();  // at end of buffer: false if at_end_, else throws NeedMore
  int peek();       // next byte or -1 at the end of the data
  Object parse_value(std::uint32_t depth);
  Object parse_number();
  Object parse_name();
  Object parse_literal_string();
  Object parse_hex_string();
  std::string_view regular_token();

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::uint64_t base_;
  bool at_end_;
  const Limits& limits_;
  const std::string& file_;
  const std::string& part_;
};

bool is_pdf_whitespace(std::uint8_t c);
bool is_pdf_delimiter(std::uint8_t c);

}  // namespace docconform::pdf
