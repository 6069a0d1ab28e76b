#include <docconform/canonical.h>
#include <docconform/sha256.h>
#include <docconform/utf8.h>
#include <docconform/version.h>

#include <cstdio>

int main() {
  const std::u16string text = docconform::decode_utf8("\xC3\x28");
  const std::string dump = docconform::canonical_string(text);
  std::printf("docconform %s: %s %s\n", docconform::version_string, dump.c_str(),
              docconform::sha256_hex("abc").substr(0, 8).c_str());
  return dump == "\"\\u00C3(\"" ? 0 : 1;
}
