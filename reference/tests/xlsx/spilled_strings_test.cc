// SpilledStrings: every string taken reads back the same, in any order and through any cache
// size, whatever its length (empty, past 16 bits of units) or content (surrogates, NUL).
#include "xlsx/spilled_strings.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace docconform::xlsx {
namespace {

std::u16string text_of(std::size_t i) {
  if (i % 97 == 5) return u"";
  if (i == 1234) return std::u16string(70000, u'\xD83D');  // longer than 16 bits can count
  std::u16string s = u"s" + std::u16string(i % 40, static_cast<char16_t>(u'a' + i % 26));
  if (i % 11 == 0) s += u"\xD83D\xDE00";
  if (i % 13 == 0) s += u'\0';
  return s;
}

// Takes strings [0, count) in batches of batch, as the table's reader does chunk by chunk.
void take_all(SpilledStrings& spilled, std::size_t count, std::size_t batch) {
  std::u16string arena;
  std::vector<TextRef> items;
  for (std::size_t i = 0; i < count; ++i) {
    const std::u16string s = text_of(i);
    items.push_back({arena.size(), static_cast<std::uint32_t>(s.size())});
    arena += s;
    if (items.size() == batch || i + 1 == count) {
      spilled.take(arena, items);
      EXPECT_TRUE(arena.empty() && items.empty());
    }
  }
}

TEST(SpilledStrings, ReadsBackEveryStringInAnyOrder) {
  for (const std::uint64_t memory : {std::uint64_t{1}, std::uint64_t{4096}, std::uint64_t{64} << 20}) {
    SpilledStrings spilled(memory);
    EXPECT_FALSE(spilled.taken());
    const std::size_t count = 5000;
    take_all(spilled, count, 333);
    ASSERT_TRUE(spilled.taken());
    ASSERT_EQ(spilled.size(), count);
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(spilled.at(i), text_of(i)) << i << " memory " << memory;
    std::mt19937 random(7);
    for (int k = 0; k < 20000; ++k) {
      const std::size_t i = random() % count;
      ASSERT_EQ(spilled.at(i), text_of(i)) << i << " memory " << memory;
    }
  }
}

TEST(SpilledStrings, ClearForgetsWhatWasTaken) {
  SpilledStrings spilled(1);
  take_all(spilled, 300, 300);
  EXPECT_EQ(spilled.at(299), text_of(299));
  spilled.clear();
  EXPECT_FALSE(spilled.taken());
  EXPECT_EQ(spilled.size(), 0u);
  take_all(spilled, 100, 7);
  EXPECT_EQ(spilled.size(), 100u);
  for (std::size_t i = 0; i < 100; ++i) ASSERT_EQ(spilled.at(i), text_of(i)) << i;
}

TEST(SpilledStrings, OverLimitOnlyPastTheMemoryGiven) {
  std::u16string arena(100, u'x');
  std::vector<TextRef> items(2);
  EXPECT_FALSE(SpilledStrings(0).over_limit(arena, items));  // 0: never
  EXPECT_TRUE(SpilledStrings(200).over_limit(arena, items));
  EXPECT_FALSE(SpilledStrings(200 + 2 * sizeof(TextRef)).over_limit(arena, items));
}

}  // namespace
}  // namespace docconform::xlsx
