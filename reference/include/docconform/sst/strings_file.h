// The strings file: JSON Lines, one string per line, so any UTF-16 string round-trips.
//  * a JSON string: the text ("\uD800" escapes carry lone surrogates);
//  * or a JSON object {"s": text, "runs": [[ich, ifnt], ...], "ext": "hex bytes"} for a string
//    with rich-text runs ("runs" present, possibly empty) and/or raw ExtRst bytes ("ext").
// The writer emits UTF-8 for well-formed text, \uXXXX for controls and lone surrogates.
#pragma once

#include <string>
#include <string_view>

#include "docconform/sst/model.h"

namespace docconform::sst {

// The strings as a table (cstTotal = their count); a string the table's limits refuse is
// Error(limit) naming its line.
SstTable parse_strings_jsonl(std::string_view text, const std::string& label = {}, const Limits& limits = {});
std::string format_strings_jsonl(const SstTable& strings);

}  // namespace docconform::sst
