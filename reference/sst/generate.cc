#include "docconform/sst/generate.h"

#include <string>
#include <unordered_set>

#include "docconform/error.h"
#include "docconform/random.h"

namespace docconform::sst {
namespace {

using Random = SplitMix64;

std::size_t text_length(Random& rng) {
  // Mostly short cell texts, some sentences, rarely a long paragraph that spans records.
  const std::uint32_t roll = rng.below(4096);
  if (roll == 0) return rng.between(2000, 20000);
  if (roll < 256) return rng.between(40, 300);
  return rng.between(1, 24);
}

void add_ascii(Random& rng, std::u16string& s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) s += static_cast<char16_t>(rng.between(0x20, 0x7E));
}

void add_latin1(Random& rng, std::u16string& s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    s += static_cast<char16_t>(rng.below(4) == 0 ? rng.between(0xA0, 0xFF) : rng.between(0x20, 0x7E));
  }
}

void add_cjk(Random& rng, std::u16string& s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t roll = rng.below(16);
    if (roll == 0) s += static_cast<char16_t>(rng.between(0x30, 0x39));
    else if (roll == 1) s += static_cast<char16_t>(rng.between(0x3041, 0x3096));
    else s += static_cast<char16_t>(rng.between(0x4E00, 0x9FFF));
  }
}

void add_emoji(Random& rng, std::u16string& s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (rng.below(3) == 0) {
      s += static_cast<char16_t>(rng.between(0x61, 0x7A));
    } else {
      const std::uint32_t cp = rng.between(0x1F300, 0x1FAFF) - 0x10000;
      s += static_cast<char16_t>(0xD800 + (cp >> 10));
      s += static_cast<char16_t>(0xDC00 + (cp & 0x3FF));
    }
  }
}

void add_rich(Random& rng, SstString& s, std::size_t n) {
  add_latin1(rng, s.text, n);
  static constexpr std::uint16_t fonts[] = {0, 1, 2, 3, 5};  // font index 4 does not exist
  const std::uint32_t count = rng.between(1, 4);
  s.runs.emplace();
  std::uint16_t ich = 0;
  for (std::uint32_t k = 0; k < count && ich < s.text.size(); ++k) {
    s.runs->push_back({ich, fonts[rng.below(5)]});
    ich = static_cast<std::uint16_t>(ich + rng.between(1, 8));
  }
  if (rng.below(4) == 0) {
    std::u16string phonetic;
    for (std::uint32_t k = rng.between(1, 8); k > 0; --k) phonetic += static_cast<char16_t>(rng.between(0x30A1, 0x30F6));
    s.ext_rst = make_ext_rst(phonetic, fonts[rng.below(5)]);
  }
}

SstString make_one(Random& rng, Mix mix) {
  if (mix == Mix::mixed) {
    const std::uint32_t roll = rng.below(10);
    mix = roll < 4 ? Mix::ascii : roll < 6 ? Mix::latin1 : roll < 8 ? Mix::cjk : roll < 9 ? Mix::emoji : Mix::rich;
  }
  SstString s;
  const std::size_t n = text_length(rng);
  switch (mix) {
    case Mix::ascii: add_ascii(rng, s.text, n); break;
    case Mix::latin1: add_latin1(rng, s.text, n); break;
    case Mix::cjk: add_cjk(rng, s.text, n); break;
    case Mix::emoji: add_emoji(rng, s.text, (n + 1) / 2); break;
    case Mix::rich: add_rich(rng, s, n); break;
    case Mix::mixed: break;
  }
  return s;
}

}  // namespace

Mix parse_mix(std::string_view name) {
  if (name == "ascii") return Mix::ascii;
  if (name == "latin1") return Mix::latin1;
  if (name == "cjk") return Mix::cjk;
  if (name == "emoji") return Mix::emoji;
  if (name == "rich") return Mix::rich;
  if (name == "mixed") return Mix::mixed;
  throw Error(ErrorKind::usage, {}, "unknown mix '" + std::string(name) + "' (ascii, latin1, cjk, emoji, rich, mixed)");
}

std::string make_ext_rst(std::u16string_view phonetic, std::uint16_t font) {
  std::string out;
  const auto u16 = [&out](std::size_t v) {
    out += static_cast<char>(v & 0xFF);
    out += static_cast<char>((v >> 8) & 0xFF);
  };
  const std::size_t cb = 4 + 6 + 2 * phonetic.size() + 6;
  u16(1);                 // reserved
  u16(cb);                // size of the rest
  u16(font);              // phs.ifnt
  u16(0x0001);            // phs.info: katakana, left aligned
  u16(1);                 // rphssub.crun
  u16(phonetic.size());   // rphssub.cch
  u16(phonetic.size());   // st.cchCharacters
  for (const char16_t c : phonetic) u16(c);
  u16(0);                 // phrun.ichFirst
  u16(0);                 // phrun.ichMom
  u16(1);                 // phrun.cchMom
  return out;
}

SstTable generate_strings(std::size_t count, Mix mix, std::uint64_t seed) {
  Random rng(seed);
  SstTable table;
  table.reserve(count, count * 16);
  std::unordered_set<std::u16string> seen;
  seen.reserve(count);
  while (table.size() < count) {
    SstString s = make_one(rng, mix);
    if (seen.insert(s.text).second) table.append(s);
  }
  table.set_total_refs(count);
  return table;
}

}  // namespace docconform::sst
