// Deterministic synthetic string sets for tests, benchmarks and conformance cases.
#pragma once

#include <cstdint>
#include <string_view>

#include "docconform/sst/model.h"

namespace docconform::sst {

// ascii: printable ASCII; latin1: U+0020..U+00FF (compressed); cjk: mostly CJK ideographs
// (UTF-16); emoji: surrogate pairs with ASCII; rich: compressed text with format runs, some with
// a phonetic ExtRst block; mixed: all of these, with an occasional string of thousands of
// characters that spans records. Every string set is unique text; same (count, mix, seed) gives
// the same strings.
enum class Mix { ascii, latin1, cjk, emoji, rich, mixed };
Mix parse_mix(std::string_view name);  // throws Error(usage)

// A table of `count` strings whose cstTotal is `count`.
SstTable generate_strings(std::size_t count, Mix mix, std::uint64_t seed);

// A well-formed ExtRst block [MS-XLS 2.5.109] carrying `phonetic` with one phonetic run.
std::string make_ext_rst(std::u16string_view phonetic, std::uint16_t font);

}  // namespace docconform::sst
