#include "alloc_counter.h"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

namespace docconform {
namespace {

// Keeps the compiler from eliding a new/delete pair it can see through.
void escape(void* p) { asm volatile("" : : "g"(p) : "memory"); }

TEST(AllocCounter, SizeClasses) {
  EXPECT_EQ(alloc_size_class(1), 0U);
  EXPECT_EQ(alloc_size_class(32), 0U);
  EXPECT_EQ(alloc_size_class(33), 1U);
  EXPECT_EQ(alloc_size_class(64), 1U);
  EXPECT_EQ(alloc_size_class(256), 2U);
  EXPECT_EQ(alloc_size_class(257), 3U);
}

TEST(AllocCounter, CountsEachAllocationInItsClass) {
  const AllocStats before = alloc_snapshot();
  auto small = std::make_unique<char[]>(16);
  auto medium = std::make_unique<char[]>(48);
  auto large = std::make_unique<char[]>(1000);
  escape(small.get());
  escape(medium.get());
  escape(large.get());
  const AllocStats diff = alloc_snapshot() - before;
  EXPECT_EQ(diff.count[0], 1U);
  EXPECT_EQ(diff.count[1], 1U);
  EXPECT_EQ(diff.count[3], 1U);
  EXPECT_EQ(diff.bytes[3], 1000U);
  EXPECT_EQ(diff.total_count(), 3U);
}

TEST(AllocCounter, SumsAllocationsOfOtherThreads) {
  const AllocStats before = alloc_snapshot();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([] {
      for (int i = 0; i < 1000; ++i) {
        auto p = std::make_unique<char[]>(300);
        escape(p.get());
      }
    });
  }
  for (auto& t : threads) t.join();
  const AllocStats diff = alloc_snapshot() - before;
  EXPECT_GE(diff.count[3], 4000U);
  EXPECT_GE(diff.bytes[3], 4000U * 300U);
}

}  // namespace
}  // namespace docconform
