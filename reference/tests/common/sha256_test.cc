#include "docconform/sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace docconform {
namespace {

// FIPS 180-2 test vectors.
TEST(Sha256, EmptyInput) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, Abc) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, StreamingEqualsOneShot) {
  const std::string text = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  Sha256 hash;
  for (char c : text) hash.update(std::string_view(&c, 1));
  EXPECT_EQ(hash.final_hex(), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(text), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, FinalResetsForReuse) {
  Sha256 hash;
  hash.update("abc");
  (void)hash.final();
  hash.update("");
  EXPECT_EQ(hash.final_hex(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, CopyGoesOnFromTheSameStateAndAssignmentTakesItBack) {
  Sha256 hash;
  hash.update("ab");
  const Sha256 at_ab(hash);
  hash.update("x");
  hash = at_ab;
  hash.update("c");
  EXPECT_EQ(hash.final_hex(), sha256_hex("abc"));
  Sha256 copy(at_ab);
  copy.update("cd");
  EXPECT_EQ(copy.final_hex(), sha256_hex("abcd"));
}

TEST(Hex, LowercaseTwoDigitsPerByte) {
  const std::uint8_t bytes[] = {0x00, 0x0F, 0xA0, 0xFF};
  EXPECT_EQ(to_hex(bytes), "000fa0ff");
}

}  // namespace
}  // namespace docconform
