// The two primitives every canonical dump is made of (conformance/SPEC.md, "Strings" and
// "Numbers"): a lossless, ASCII-only quoted form of any UTF-16 string, and one number format
// that every language can produce (ECMAScript Number::toString, with -0 kept).
#pragma once

#include <string>
#include <string_view>

namespace docconform {

// The first line of every dump, without its line feed: "docconform-dump <format> <version>".
std::string dump_header(std::string_view format, int version);

// Appends "..." where printable ASCII other than '"' and '\' stands as itself and every other
// code unit (controls, non-ASCII, lone surrogates, passed-through bytes) as \uXXXX (upper hex).
void append_quoted(std::string& out, std::u16string_view text);
// The same form for bytes taken as code units 0x00-0xFF (PDF strings and names are dumped so).
void append_quoted_bytes(std::string& out, std::string_view bytes);
std::string canonical_string(std::u16string_view text);

// Appends the shortest round-trip decimal form of value, laid out as ECMAScript's
// Number.prototype.toString does: 1, 1.5, 0.001, 1e-7, 1.5e+21, NaN, Infinity, -Infinity;
// negative zero is written -0.
void append_number(std::string& out, double value);
std::string number_text(double value);

}  // namespace docconform
