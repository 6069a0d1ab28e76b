#include "security.h"

#include <openssl/evp.h>
#include <openssl/provider.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace docconform::pdf {
namespace {

// ISO 32000-2 §7.6.4.3.2 Algorithm 2 step a: the 32 bytes a password is padded with.
constexpr std::array<unsigned char, 32> password_pad = {0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E,
                                                        0x56, 0xFF, 0xFA, 0x01, 0x08, 0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68,
                                                        0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A};

// RC4 lives in OpenSSL 3's legacy provider: a library context of our own loads it beside the
// default one, so the process's default context is left as the application set it.
struct Crypto {
  OSSL_LIB_CTX* context = OSSL_LIB_CTX_new();
  bool legacy = context != nullptr && OSSL_PROVIDER_load(context, "legacy") != nullptr;
  bool base = context != nullptr && OSSL_PROVIDER_load(context, "default") != nullptr;
  EVP_CIPHER* rc4 = legacy ? EVP_CIPHER_fetch(context, "RC4", nullptr) : nullptr;
  EVP_CIPHER* aes128_cbc = base ? EVP_CIPHER_fetch(context, "AES-128-CBC", nullptr) : nullptr;
  EVP_CIPHER* aes256_cbc = base ? EVP_CIPHER_fetch(context, "AES-256-CBC", nullptr) : nullptr;
  EVP_CIPHER* aes256_ecb = base ? EVP_CIPHER_fetch(context, "AES-256-ECB", nullptr) : nullptr;
  EVP_MD* md5 = base ? EVP_MD_fetch(context, "MD5", nullptr) : nullptr;
  EVP_MD* sha256 = base ? EVP_MD_fetch(context, "SHA256", nullptr) : nullptr;
  EVP_MD* sha384 = base ? EVP_MD_fetch(context, "SHA384", nullptr) : nullptr;
  EVP_MD* sha512 = base ? EVP_MD_fetch(context, "SHA512", nullptr) : nullptr;
};

const Crypto& crypto() {
  static const Crypto instance;  // never freed: the handlers of other threads may still use it
  return instance;
}

[[noreturn]] void crypto_failure(const char* what) {
  throw Error(ErrorKind::io, {}, std::string("OpenSSL ") + what + " failed");
}

std::string digest(const EVP_MD* md, std::initializer_list<std::string_view> parts) {
  if (md == nullptr) crypto_failure("digest fetch");
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = ctx != nullptr && EVP_DigestInit_ex(ctx, md, nullptr) == 1;
  for (std::string_view part : parts) ok = ok && EVP_DigestUpdate(ctx, part.data(), part.size()) == 1;
  std::string out(static_cast<std::size_t>(EVP_MD_get_size(md)), '\0');
  unsigned int size = 0;
  ok = ok && EVP_DigestFinal_ex(ctx, reinterpret_cast<unsigned char*>(out.data()), &size) == 1;
  EVP_MD_CTX_free(ctx);
  if (!ok) crypto_failure("digest");
  return out;
}

// One pass of a cipher without padding (the callers handle PDF's padding themselves).
std::string run_cipher(const EVP_CIPHER* cipher, std::string_view key, std::string_view iv, std::string_view data, bool encrypt) {
  if (cipher == nullptr) crypto_failure("cipher fetch");
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  bool ok = ctx != nullptr && EVP_CipherInit_ex2(ctx, cipher, nullptr, nullptr, encrypt ? 1 : 0, nullptr) == 1;
  if (ok && EVP_CIPHER_get_key_length(cipher) != static_cast<int>(key.size())) {
    ok = EVP_CIPHER_CTX_set_key_length(ctx, static_cast<int>(key.size())) == 1;
  }
  ok = ok && EVP_CipherInit_ex2(ctx, nullptr, reinterpret_cast<const unsigned char*>(key.data()),
                                iv.empty() ? nullptr : reinterpret_cast<const unsigned char*>(iv.data()), encrypt ? 1 : 0,
                                nullptr) == 1;
  ok = ok && EVP_CIPHER_CTX_set_padding(ctx, 0) == 1;
  std::string out(data.size() + 32, '\0');
  int written = 0, last = 0;
  ok = ok && EVP_CipherUpdate(ctx, reinterpret_cast<unsigned char*>(out.data()), &written,
                              reinterpret_cast<const unsigned char*>(data.data()), static_cast<int>(data.size())) == 1;
  ok = ok && EVP_CipherFinal_ex(ctx, reinterpret_cast<unsigned char*>(out.data()) + written, &last) == 1;
  EVP_CIPHER_CTX_free(ctx);
  if (!ok) crypto_failure("cipher");
  out.resize(static_cast<std::size_t>(written + last));
  return out;
}

std::string rc4(std::string_view key, std::string_view data) {
  if (crypto().rc4 == nullptr) {
    throw Error(ErrorKind::unsupported, {}, "RC4 needs OpenSSL's legacy provider, which could not be loaded");
  }
  return run_cipher(crypto().rc4, key, {}, data, false);
}

std::string_view bytes_of(const std::array<unsigned char, 32>& a, std::size_t n = 32) {
  return {reinterpret_cast<const char*>(a.data()), n};
}

std::string padded(std::string_view password) {
  std::string out(password.substr(0, 32));
  out.append(bytes_of(password_pad, 32 - out.size()));
  return out;
}

std::string le32(std::uint32_t v) {
  return {static_cast<char>(v & 0xFF), static_cast<char>((v >> 8) & 0xFF), static_cast<char>((v >> 16) & 0xFF),
          static_cast<char>((v >> 24) & 0xFF)};
}

std::string xor_key(std::string_view key, unsigned char i) {
  std::string out(key);
  for (char& c : out) c = static_cast<char>(static_cast<unsigned char>(c) ^ i);
  return out;
}

// ISO 32000-2 Algorithm 2.B (R6), or plain SHA-256 for R5 (Adobe's extension level 3).
std::string hash_r56(int r, std::string_view password, std::string_view salt, std::string_view udata) {
  std::string k = digest(crypto().sha256, {password, salt, udata});
  if (r == 5) return k;
  for (unsigned round = 0;; ++round) {
    std::string k1;
    k1.reserve(64 * (password.size() + k.size() + udata.size()));
    for (int i = 0; i < 64; ++i) k1.append(password).append(k).append(udata);
    const std::string e =
        run_cipher(crypto().aes128_cbc, std::string_view(k).substr(0, 16), std::string_view(k).substr(16, 16), k1, true);
    unsigned sum = 0;  // the first 16 bytes as a big-endian number, mod 3 (256 = 1 mod 3)
    for (int i = 0; i < 16; ++i) sum += static_cast<unsigned char>(e[static_cast<std::size_t>(i)]);
    const EVP_MD* next[] = {crypto().sha256, crypto().sha384, crypto().sha512};
    k = digest(next[sum % 3], {e});
    if (round >= 63 && static_cast<unsigned char>(e.back()) <= round + 1 - 32) break;
  }
  k.resize(32);
  return k;
}

const Object* entry(const Object& dict, std::string_view key) { return dict.get(key); }

std::string string_entry(const Object& dict, std::string_view key, std::size_t at_least, const ErrorContext& where) {
  const Object* value = entry(dict, key);
  if (value == nullptr || value->kind != Kind::string || value->bytes.size() < at_least) {
    throw Error(ErrorKind::format, where,
                "/" + std::string(key) + " must be a string of at least " + std::to_string(at_least) + " bytes");
  }
  return value->bytes;
}

bool is_name(const Object* value, std::string_view name) {
  return value != nullptr && value->kind == Kind::name && value->bytes == name;
}

}  // namespace

const char* to_string(CryptMethod method) {
  switch (method) {
    case CryptMethod::identity: return "Identity";
    case CryptMethod::rc4: return "RC4";
    case CryptMethod::aesv2: return "AESV2";
    case CryptMethod::aesv3: return "AESV3";
  }
  return "?";
}

SecurityHandler::~SecurityHandler() = default;

SecurityHandler::SecurityHandler(const Object& encrypt, std::string_view id, std::string_view password, ErrorContext where) {
  if (encrypt.kind != Kind::dict) throw Error(ErrorKind::format, where, "/Encrypt is not a dictionary");
  const Object* filter = entry(encrypt, "Filter");
  if (!is_name(filter, "Standard")) {
    throw Error(ErrorKind::unsupported, where,
                "security handler " + (filter != nullptr && filter->kind == Kind::name ? "/" + filter->bytes : std::string("(no /Filter name)")) +
                    ": only the standard security handler (/Standard) is supported");
  }
  const Object* v = entry(encrypt, "V");
  const Object* r = entry(encrypt, "R");
  if (v == nullptr || v->kind != Kind::integer || r == nullptr || r->kind != Kind::integer) {
    throw Error(ErrorKind::format, where, "/Encrypt needs integer /V and /R");
  }
  v_ = static_cast<int>(std::clamp<std::int64_t>(v->integer, -1, 99));
  r_ = static_cast<int>(std::clamp<std::int64_t>(r->integer, -1, 99));
  const bool supported = ((v_ == 1 || v_ == 2) && (r_ == 2 || r_ == 3)) || (v_ == 4 && r_ == 4) || (v_ == 5 && (r_ == 5 || r_ == 6));
  if (!supported) {
    throw Error(ErrorKind::unsupported, where,
                "standard security handler /V " + std::to_string(v->integer) + " /R " + std::to_string(r->integer) +
                    " (supported: /V 1 or 2 with /R 2 or 3, /V 4 /R 4, /V 5 /R 5 or 6)");
  }
  const Object* p_entry = entry(encrypt, "P");
  if (p_entry == nullptr || p_entry->kind != Kind::integer) throw Error(ErrorKind::format, where, "/Encrypt needs an integer /P");
  const auto p = static_cast<std::uint32_t>(static_cast<std::uint64_t>(p_entry->integer));
  if (const Object* em = entry(encrypt, "EncryptMetadata"); em != nullptr && v_ >= 4) {
    if (em->kind != Kind::boolean) throw Error(ErrorKind::format, where, "/EncryptMetadata is not a boolean");
    encrypt_metadata_ = em->boolean;
  }

  // Key length in bits: 40 for /V 1; /Length (default 40) for /V 2; /Length or 128 for /V 4.
  key_bits_ = v_ == 5 ? 256 : v_ == 4 ? 128 : 40;
  if (const Object* length = entry(encrypt, "Length"); length != nullptr && (v_ == 2 || v_ == 4)) {
    if (length->kind != Kind::integer || length->integer < 40 || length->integer > 128 || length->integer % 8 != 0) {
      throw Error(ErrorKind::format, where, "/Length must be a multiple of 8 from 40 to 128");
    }
    key_bits_ = static_cast<std::uint32_t>(length->integer);
  }
  if (v_ >= 4) {
    if (const Object* cf = entry(encrypt, "CF"); cf != nullptr) {
      if (cf->kind != Kind::dict) throw Error(ErrorKind::format, where, "/CF is not a dictionary");
      crypt_filters_ = *cf;
    }
    streams_ = method_named(encrypt, entry(encrypt, "StmF"), where);
    strings_ = method_named(encrypt, entry(encrypt, "StrF"), where);
  } else {
    streams_ = strings_ = CryptMethod::rc4;
  }

  if (v_ == 5) {
    const std::string o = string_entry(encrypt, "O", 48, where);
    const std::string u = string_entry(encrypt, "U", 48, where);
    const std::string oe = string_entry(encrypt, "OE", 32, where);
    const std::string ue = string_entry(encrypt, "UE", 32, where);
    const std::string_view pw = password.substr(0, 127);
    const std::string_view u48 = std::string_view(u).substr(0, 48);
    const std::string zero_iv(16, '\0');
    if (hash_r56(r_, pw, std::string_view(u).substr(32, 8), {}) == std::string_view(u).substr(0, 32)) {
      key_ = run_cipher(crypto().aes256_cbc, hash_r56(r_, pw, std::string_view(u).substr(40, 8), {}), zero_iv,
                        std::string_view(ue).substr(0, 32), false);
    } else if (hash_r56(r_, pw, std::string_view(o).substr(32, 8), u48) == std::string_view(o).substr(0, 32)) {
      key_ = run_cipher(crypto().aes256_cbc, hash_r56(r_, pw, std::string_view(o).substr(40, 8), u48), zero_iv,
                        std::string_view(oe).substr(0, 32), false);
      owner_ = true;
    } else {
      throw Error(ErrorKind::unsupported, where,
                  "needs a password: " + std::string(password.empty() ? "the empty password" : "the password given") +
                      " matches neither the user password (/U) nor the owner password (/O); give it with --password");
    }
    if (r_ == 6) {
      const std::string perms = string_entry(encrypt, "Perms", 16, where);
      const std::string plain = run_cipher(crypto().aes256_ecb, key_, {}, std::string_view(perms).substr(0, 16), false);
      if (plain.compare(9, 3, "adb") != 0 || plain.compare(0, 4, le32(p)) != 0) {
        throw Error(ErrorKind::format, where, "/Perms does not decrypt to /P and \"adb\" with the file key: /Perms, /P or the key entries are damaged");
      }
    }
    return;
  }

  // Revisions 2-4.
  const std::string o = string_entry(encrypt, "O", 32, where).substr(0, 32);
  const std::string u = string_entry(encrypt, "U", 32, where).substr(0, 32);
  const std::size_t n = r_ == 2 ? 5 : key_bits_ / 8;
  // Algorithm 2: the file key from a user password.
  const auto key_from_user = [&](std::string_view user) {
    std::string k = digest(crypto().md5, {padded(user), o, le32(p), id,
                                          r_ >= 4 && !encrypt_metadata_ ? std::string_view("\xFF\xFF\xFF\xFF", 4) : std::string_view()});
    if (r_ >= 3) {
      for (int i = 0; i < 50; ++i) k = digest(crypto().md5, {std::string_view(k).substr(0, n)});
    }
    k.resize(n);
    return k;
  };
  // Algorithms 4 and 5: whether the key makes /U.
  const auto makes_u = [&](const std::string& k) {
    if (r_ == 2) return rc4(k, bytes_of(password_pad)) == u;
    std::string x = rc4(k, digest(crypto().md5, {bytes_of(password_pad), id}));
    for (unsigned char i = 1; i <= 19; ++i) x = rc4(xor_key(k, i), x);
    return x.compare(0, 16, u, 0, 16) == 0;
  };
  if (std::string k = key_from_user(password); makes_u(k)) {
    key_ = std::move(k);
    return;
  }
  // Algorithm 7: the owner password decrypts /O into the user password.
  std::string ok = digest(crypto().md5, {padded(password)});
  if (r_ >= 3) {
    for (int i = 0; i < 50; ++i) ok = digest(crypto().md5, {ok});
  }
  ok.resize(n);
  std::string user = o;
  if (r_ == 2) {
    user = rc4(ok, user);
  } else {
    for (int i = 19; i >= 0; --i) user = rc4(xor_key(ok, static_cast<unsigned char>(i)), user);
  }
  if (std::string k = key_from_user(user); makes_u(k)) {
    key_ = std::move(k);
    owner_ = true;
    return;
  }
  // /O decrypted into a padded password (8 or more pad bytes: a wrong owner password gives that
  // about once in 2^64 tries) that /U refuses: /U, not the password, is wrong.
  for (std::size_t at = 0; at + 8 <= user.size(); ++at) {
    if (user.compare(at, std::string::npos, bytes_of(password_pad, 32 - at)) == 0) {
      throw Error(ErrorKind::format, where,
                  "/U does not match: the owner password opens /O, but the user password it yields does not give /U "
                  "(/U or /O is damaged)");
    }
  }
  throw Error(ErrorKind::unsupported, where,
              "needs a password: " + std::string(password.empty() ? "the empty password" : "the password given") +
                  " matches neither the user password (/U) nor the owner password (/O); give it with --password");
}

CryptMethod SecurityHandler::method_named(const Object& encrypt, const Object* name, const ErrorContext& where) const {
  (void)encrypt;
  if (name == nullptr || is_name(name, "Identity")) return CryptMethod::identity;
  if (name->kind != Kind::name) throw Error(ErrorKind::format, where, "crypt filter name is not a name");
  const Object* cf = crypt_filters_.kind == Kind::dict ? crypt_filters_.get(name->bytes) : nullptr;
  if (cf == nullptr || cf->kind != Kind::dict) {
    throw Error(ErrorKind::format, where, "crypt filter /" + name->bytes + " is not in /CF");
  }
  const Object* cfm = cf->get("CFM");
  if (cfm == nullptr || is_name(cfm, "None")) return CryptMethod::identity;
  if (is_name(cfm, "V2") && v_ == 4) return CryptMethod::rc4;
  if (is_name(cfm, "AESV2") && v_ == 4) return CryptMethod::aesv2;
  if (is_name(cfm, "AESV3") && v_ == 5) return CryptMethod::aesv3;
  throw Error(ErrorKind::unsupported, where,
              "crypt filter /" + name->bytes + " method " + (cfm->kind == Kind::name ? "/" + cfm->bytes : std::string("(not a name)")) +
                  " with /V " + std::to_string(v_));
}

void SecurityHandler::decrypt_strings(Object& object, ObjectId id, const ErrorContext& where) const {
  switch (object.kind) {
    case Kind::string: object.bytes = decrypt(object.bytes, id, strings_, where); return;
    case Kind::array:
    case Kind::dict:
    case Kind::stream:
      for (Object& item : object.items) decrypt_strings(item, id, where);
      return;
    default: return;
  }
}

CryptMethod SecurityHandler::stream_method(const Object& dict, const ErrorContext& where) const {
  const Object* type = dict.get("Type");
  if (is_name(type, "XRef")) return CryptMethod::identity;
  if (!encrypt_metadata_ && is_name(type, "Metadata")) return CryptMethod::identity;
  const Object* filter = dict.get("Filter");
  const Object* first = filter != nullptr && filter->kind == Kind::array ? (filter->items.empty() ? nullptr : &filter->items[0]) : filter;
  if (v_ >= 4 && is_name(first, "Crypt")) {
    const Object* params = dict.get("DecodeParms");
    if (params != nullptr && params->kind == Kind::array) params = params->items.empty() ? nullptr : &params->items[0];
    const Object* name = params != nullptr && params->kind == Kind::dict ? params->get("Name") : nullptr;
    return method_named(dict, name, where);
  }
  return streams_;
}

std::string SecurityHandler::decrypt(std::string_view data, ObjectId id, CryptMethod method, const ErrorContext& where) const {
  if (method == CryptMethod::identity) return std::string(data);
  std::string key = key_;
  if (method != CryptMethod::aesv3) {
    // Algorithm 1: the object's key from the file key, its number and generation.
    const char salt[] = {'s', 'A', 'l', 'T'};
    const std::string num_gen = {static_cast<char>(id.num & 0xFF), static_cast<char>((id.num >> 8) & 0xFF),
                                 static_cast<char>((id.num >> 16) & 0xFF), static_cast<char>(id.gen & 0xFF),
                                 static_cast<char>((id.gen >> 8) & 0xFF)};
    key = digest(crypto().md5, {key_, num_gen, method == CryptMethod::aesv2 ? std::string_view(salt, 4) : std::string_view()});
    key.resize(std::min<std::size_t>(key_.size() + 5, 16));
  }
  if (method == CryptMethod::rc4) return rc4(key, data);
  // AES-CBC: a 16-byte IV, then whole blocks ending in PKCS#5 padding. Empty data stays empty.
  if (data.empty()) return {};
  if (data.size() < 32 || data.size() % 16 != 0) {
    throw Error(ErrorKind::format, where,
                "AES-encrypted data of " + std::to_string(data.size()) + " bytes (needs a 16-byte IV and whole 16-byte blocks)");
  }
  std::string plain = run_cipher(method == CryptMethod::aesv3 ? crypto().aes256_cbc : crypto().aes128_cbc, key,
                                 data.substr(0, 16), data.substr(16), false);
  const auto pad = static_cast<unsigned char>(plain.back());
  if (pad == 0 || pad > 16 || std::any_of(plain.end() - pad, plain.end(), [&](char c) { return static_cast<unsigned char>(c) != pad; })) {
    throw Error(ErrorKind::format, where, "AES-decrypted data does not end in valid padding (wrong key or damaged data)");
  }
  plain.resize(plain.size() - pad);
  return plain;
}

std::string SecurityHandler::summary() const {
  return "encrypt Standard V " + std::to_string(v_) + " R " + std::to_string(r_) + " bits " + std::to_string(key_bits_) +
         " streams " + to_string(streams_) + " strings " + to_string(strings_);
}

Object without_crypt_filter(const Object& dict) {
  Object out = dict;
  Object* filter = out.get("Filter");
  if (filter == nullptr) return out;
  if (is_name(filter, "Crypt")) {
    out.erase("Filter");
    out.erase("DecodeParms");
  } else if (filter->kind == Kind::array && !filter->items.empty() && is_name(&filter->items[0], "Crypt")) {
    filter->items.erase(filter->items.begin());
    if (Object* params = out.get("DecodeParms"); params != nullptr && params->kind == Kind::array && !params->items.empty()) {
      params->items.erase(params->items.begin());
    }
  }
  return out;
}

}  // namespace docconform::pdf
