// The standard security handler: file keys against the keys qpdf derives for the same
// dictionaries (`qpdf --show-encryption-key`), and whole files written by qpdf, pikepdf and pypdf
// (conformance/cases/pdf/*encrypt*) read back to the plain text of the file they were made from.
#include <gtest/gtest.h>

#include <string>

#include "docconform/error.h"
#include "docconform/pdf/document.h"
#include "docconform/pdf/dump.h"
#include "docconform/pdf/writer.h"
#include "docconform/sha256.h"
#include "pdf/security.h"
#include "pdf_test_util.h"

namespace {

using namespace docconform;
using namespace docconform::pdf;

std::string unhex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

// Made by `qpdf --encrypt user owner BITS ...` from a small file: the /Encrypt dictionary, the
// first /ID string and the file key qpdf 11.3 shows for it.
struct Vector {
  const char* name;
  const char* encrypt;
  const char* id;
  const char* key;
};

const Vector vectors[] = {
    {"R2 RC4 40",
     "<< /Filter /Standard /V 1 /R 2 /P -4 /Length 40 /O <94e8094419662a774442fb072e3d9f19e9d130ec09a4d0061e78fe920f7ab62f> /U "
     "<5c3898c4418f46664f272b6e636fa414457e2b35195a96c8fe0801ba4eca04b6> >>",
     "72989b53defd4486e43431e4546d995f", "1d4d0e4077"},
    {"R3 RC4 128",
     "<< /Filter /Standard /V 2 /R 3 /P -4 /Length 128 /O <0ba3835f88f90388e74e54584125ce142be0de24c6b0d37746e075b891756671> /U "
     "<a90f4cb492634582d1d4e2ecc0fbe4330122456a91bae5134273a6db134c87c4> >>",
     "ee93d35c5cf6d2b353f43976a650160d", "a3b073855168251ed9bbdb1975fea0b2"},
    {"R4 AESV2",
     "<< /Filter /Standard /V 4 /R 4 /P -4 /Length 128 /CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> /StmF "
     "/StdCF /StrF /StdCF /O <0ba3835f88f90388e74e54584125ce142be0de24c6b0d37746e075b891756671> /U "
     "<2c92292527cbafb9fc0aa296a734eddd0122456a91bae5134273a6db134c87c4> >>",
     "3d3db79b7ce61d2a5a7ad0bc67f519f4", "e7c88f134b426cc4be09605691059a85"},
    {"R4 AESV2 metadata in clear text",
     "<< /Filter /Standard /V 4 /R 4 /P -4 /Length 128 /EncryptMetadata false /CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen "
     "/Length 16 >> >> /StmF /StdCF /StrF /StdCF /O <0ba3835f88f90388e74e54584125ce142be0de24c6b0d37746e075b891756671> /U "
     "<ea6cb44e98500f8f7916042390644bd30122456a91bae5134273a6db134c87c4> >>",
     "5d8ae0991328043e64a4ee65dc816021", "c53c10bcb7171554c114814af1febac2"},
    {"R5 AESV3",
     "<< /Filter /Standard /V 5 /R 5 /P -4 /Length 256 /CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> /StmF "
     "/StdCF /StrF /StdCF /O "
     "<3d85e14c9cc17c68e37a71e9e1dabe3d97e6a4e68a7e11c98ee3fb8a2f0a7dece2cffffc71dbc65af64f04ec607ca162> /U "
     "<79b7cc28b39227d4f503e7a7fd8184596f17f9712855de7655c58e32ff934c929706211b6dbca460be9f1c17023b82b7> /OE "
     "<0c4eb5ffde68bb945b26bd81c60bda1ce4421544333f21af5c3377102fd34f02> /UE "
     "<aa898f668eeed60941104ea3237ea08d0ab0eb2d075c3a71664cc36140b2cf32> /Perms <fd74d050fa12c0826da34ff40269d49b> >>",
     "5c5680466c0870156a053670684010bd", "1d5537a80eabf0ad0ec574b51f73561eed52c72d9ccbfc23c90349c792a4b496"},
    {"R6 AESV3",
     "<< /Filter /Standard /V 5 /R 6 /P -4 /Length 256 /CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> /StmF "
     "/StdCF /StrF /StdCF /O "
     "<039751504ee405b05556970d090cc3fa01d6a57b14d48905b56eacbaf7b8d41cd5d3145d08ddf7baa04d34579c3107ae> /U "
     "<824cf3c3171941c8aefb5ed526c9d0a12a3c4af3597b9d1caddf17a0afe84ea0134134f85009054673ba77e84cf0d5ce> /OE "
     "<743d81ef77587c0c8dda64b0c3d07f83a9e706ee1fe6563aca926b949f73804f> /UE "
     "<bb9516d2f23adc11668af18db8867f2ccdde227f2525f4ba048d8171ce4490a5> /Perms <1ac511dde1de989233292039533ae48b> >>",
     "8d3ef41591d53fe6c9510ae44da6e976", "a7347f84f17109f1579fa10dbaaf75f6099b7a94a09bbcaf8e904d6a29387fa5"},
};

const ErrorContext where{"test.pdf", "encrypt dictionary (object 9 0)", 1234};

std::string failure(const Object& encrypt, const std::string& id, const std::string& password, ErrorKind* kind = nullptr) {
  try {
    SecurityHandler handler(encrypt, id, password, where);
  } catch (const Error& e) {
    if (kind != nullptr) *kind = e.kind();
    return e.what();
  }
  return "opened";
}

TEST(PdfSecurity, TheUserPasswordGivesQpdfsFileKeyAtEveryRevision) {
  for (const Vector& v : vectors) {
    SecurityHandler handler(parse_object_text(v.encrypt), unhex(v.id), "user", where);
    EXPECT_EQ(hex(handler.file_key()), v.key) << v.name;
    EXPECT_FALSE(handler.opened_with_owner_password()) << v.name;
  }
}

TEST(PdfSecurity, TheOwnerPasswordGivesTheSameKeyThroughOOrOE) {
  for (const Vector& v : vectors) {
    SecurityHandler handler(parse_object_text(v.encrypt), unhex(v.id), "owner", where);
    EXPECT_EQ(hex(handler.file_key()), v.key) << v.name;
    EXPECT_TRUE(handler.opened_with_owner_password()) << v.name;
  }
}

TEST(PdfSecurity, AWrongPasswordIsUnsupportedSayingAPasswordIsNeeded) {
  for (const Vector& v : vectors) {
    for (const char* password : {"", "wrong", "User"}) {
      ErrorKind kind = ErrorKind::io;
      const std::string message = failure(parse_object_text(v.encrypt), unhex(v.id), password, &kind);
      EXPECT_EQ(kind, ErrorKind::unsupported) << v.name << " " << message;
      EXPECT_NE(message.find("needs a password"), std::string::npos) << message;
      EXPECT_NE(message.find("test.pdf: encrypt dictionary (object 9 0): offset 1234"), std::string::npos) << message;
      EXPECT_EQ(message.find("corrupt"), std::string::npos) << message;
    }
  }
}

TEST(PdfSecurity, ATamperedUIsAFormatErrorWhenTheOwnerPasswordOpensO) {
  for (const Vector& v : {vectors[0], vectors[1], vectors[2]}) {
    std::string text = v.encrypt;
    const std::size_t u = text.find("/U <") + 4;
    text[u] = text[u] == '0' ? '1' : '0';
    ErrorKind kind = ErrorKind::io;
    const std::string message = failure(parse_object_text(text), unhex(v.id), "owner", &kind);
    EXPECT_EQ(kind, ErrorKind::format) << v.name << " " << message;
    EXPECT_NE(message.find("/U does not match"), std::string::npos) << message;
    EXPECT_NE(message.find("offset 1234"), std::string::npos) << message;
  }
}

TEST(PdfSecurity, ATamperedPermsIsAFormatErrorAtR6) {
  std::string text = vectors[5].encrypt;
  const std::size_t perms = text.find("/Perms <") + 8;
  text[perms] = text[perms] == '0' ? '1' : '0';
  ErrorKind kind = ErrorKind::io;
  const std::string message = failure(parse_object_text(text), unhex(vectors[5].id), "user", &kind);
  EXPECT_EQ(kind, ErrorKind::format) << message;
  EXPECT_NE(message.find("/Perms"), std::string::npos) << message;
}

TEST(PdfSecurity, UnsupportedHandlersAndVersionsAreNamed) {
  ErrorKind kind = ErrorKind::io;
  std::string message = failure(parse_object_text("<< /Filter /Adobe.PubSec /V 4 /R 4 /SubFilter /adbe.pkcs7.s5 >>"), "", "", &kind);
  EXPECT_EQ(kind, ErrorKind::unsupported);
  EXPECT_NE(message.find("security handler /Adobe.PubSec"), std::string::npos) << message;
  std::string v3 = vectors[1].encrypt;
  v3.replace(v3.find("/V 2"), 4, "/V 3");
  message = failure(parse_object_text(v3), unhex(vectors[1].id), "user", &kind);
  EXPECT_EQ(kind, ErrorKind::unsupported);
  EXPECT_NE(message.find("/V 3 /R 3"), std::string::npos) << message;
  message = failure(parse_object_text("<< /Filter /Standard /V 4 /R 4 /P -4 /CF << /X << /CFM /Unknown >> >> /StmF /X /StrF /X >>"),
                    "", "", &kind);
  EXPECT_EQ(kind, ErrorKind::unsupported);
  EXPECT_NE(message.find("crypt filter /X method /Unknown"), std::string::npos) << message;
}

TEST(PdfSecurity, TheSummaryNamesHandlerRevisionBitsAndMethods) {
  EXPECT_EQ(SecurityHandler(parse_object_text(vectors[0].encrypt), unhex(vectors[0].id), "user", where).summary(),
            "encrypt Standard V 1 R 2 bits 40 streams RC4 strings RC4");
  EXPECT_EQ(SecurityHandler(parse_object_text(vectors[2].encrypt), unhex(vectors[2].id), "user", where).summary(),
            "encrypt Standard V 4 R 4 bits 128 streams AESV2 strings AESV2");
  EXPECT_EQ(SecurityHandler(parse_object_text(vectors[5].encrypt), unhex(vectors[5].id), "user", where).summary(),
            "encrypt Standard V 5 R 6 bits 256 streams AESV3 strings AESV3");
}

// A one-page file whose /Encrypt is vector R4's dictionary with `filters` for /StmF and /StrF:
// the key depends on neither, so the user password opens it whatever they say.
std::string r4_file(const std::string& filters, const std::string& extra_object) {
  std::string encrypt = vectors[2].encrypt;
  encrypt.replace(encrypt.find("/StmF /StdCF /StrF /StdCF"), 25, filters);
  auto bodies = pdftest::one_page();
  bodies.push_back(encrypt);
  bodies.push_back(extra_object);
  return pdftest::classic_pdf(bodies, "/Encrypt 4 0 R /ID [<" + std::string(vectors[2].id) + "> <00>]");
}

std::string dump_with(const std::string& bytes, const std::string& password, int level = 3) {
  auto source = memory_source(bytes);
  Document document(*source, {}, password);
  return pdf_dump(document, level);
}

TEST(PdfSecurity, IdentityFiltersLeaveStringsAndStreamsAsStored) {
  const std::string file = r4_file("/StmF /Identity /StrF /Identity", "<< /Length 5 /T (plain) >>\nstream\nhello\nendstream");
  const std::string dump = dump_with(file, "user");
  EXPECT_NE(dump.find("encrypt Standard V 4 R 4 bits 128 streams Identity strings Identity\n"), std::string::npos) << dump;
  EXPECT_NE(dump.find("obj 5 0 stream <</Length 5 /T \"plain\">> length 5 sha256 " + sha256_hex("hello") + "\n"),
            std::string::npos)
      << dump;
}

TEST(PdfSecurity, ACryptFilterNamedByAStreamOverridesStmF) {
  // /StmF is AESV2, but the stream names the /Identity crypt filter first in its chain.
  const std::string file =
      r4_file("/StmF /StdCF /StrF /Identity",
              "<< /Length 5 /Filter [/Crypt] /DecodeParms [<< /Name /Identity >>] >>\nstream\nhello\nendstream");
  auto source = memory_source(file);
  Document document(*source, {}, "user");
  const Object stream = document.object(5);
  EXPECT_EQ(document.stream_raw(stream, {5, 0}), "hello");
  EXPECT_EQ(document.stream_decoded(stream, {5, 0}, "object 5 0"), "hello");
  // Under /StmF (AESV2) the same five bytes are not whole AES blocks: an error naming the object.
  const std::string aes = r4_file("/StmF /StdCF /StrF /Identity", "<< /Length 5 >>\nstream\nhello\nendstream");
  const std::string message = pdftest::outcome_of([&] { dump_with(aes, "user"); });
  EXPECT_NE(message.find("object 5 0"), std::string::npos) << message;
  EXPECT_NE(message.find("AES-encrypted data of 5 bytes"), std::string::npos) << message;
}

TEST(PdfSecurity, ADocumentWithoutThePasswordIsUnsupportedNeverCorrupt) {
  const std::string file = r4_file("/StmF /StdCF /StrF /StdCF", "<< /A 1 >>");
  auto source = memory_source(file);
  try {
    Document document(*source);
    FAIL() << "opened without the password";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::unsupported) << e.what();
    EXPECT_NE(std::string(e.what()).find("encrypt dictionary (object 4 0)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("needs a password"), std::string::npos) << e.what();
  }
}

TEST(PdfSecurity, AnEncryptEntryThatIsNullLeavesTheFileUnencrypted) {
  // Written null, and a reference to an object the table does not have (ISO 32000-2 7.3.10: the
  // null object): both are an absent entry (7.3.9), so the file reads without a password.
  for (const std::string encrypt : {"/Encrypt null", "/Encrypt 9 0 R"}) {
    const std::string dump = pdftest::dump(pdftest::classic_pdf(pdftest::one_page(), encrypt), 3);
    EXPECT_EQ(dump.find("\nencrypt "), std::string::npos) << encrypt << "\n" << dump;
    EXPECT_NE(dump.find("pages 1\n"), std::string::npos) << encrypt << "\n" << dump;
  }
  // A value that is there and not a dictionary is still an error.
  const std::string message = pdftest::outcome_of(
      [&] { pdftest::dump(pdftest::classic_pdf(pdftest::one_page(), "/Encrypt 5"), 3); });
  EXPECT_NE(message.find("/Encrypt is not a dictionary"), std::string::npos) << message;
}

// The cases written by other tools from y_text_strings_as_bytes.pdf.
std::string case_path(const std::string& name) { return std::string(DOCCONFORM_SOURCE_DIR) + "/conformance/cases/pdf/" + name; }

TEST(PdfSecurity, FilesWrittenByOtherToolsDecryptToTheirPlainStrings) {
  const std::string plain_strings = "/Be \"\\u00FE\\u00FF\\u0000A\" /Doc \"A\" /Latin \"\\u00E9\" /Le \"\\u00FF\\u00FEA\\u0000\"";
  for (const char* name : {"y_encrypt_qpdf_r2_rc4_40.pdf", "y_encrypt_qpdf_r3_rc4_128.pdf", "y_encrypt_qpdf_r4_aes128.pdf",
                           "y_encrypt_qpdf_r4_rc4_crypt_filter.pdf", "y_encrypt_qpdf_r5_aes256.pdf", "y_encrypt_qpdf_r6_aes256.pdf",
                           "y_encrypt_pikepdf_r4_aes.pdf", "y_encrypt_pikepdf_r6.pdf"}) {
    const std::string dump = pdf_dump_file(case_path(name), {}, 3);
    EXPECT_NE(dump.find(plain_strings), std::string::npos) << name;
    EXPECT_NE(dump.find("/Title \"\\u00FE\\u00FF\\u0000C\""), std::string::npos) << name;  // a stream dictionary's string
  }
}

TEST(PdfSecurity, StreamsDecryptBeforeTheirFiltersDecode) {
  // The plain case's stream holds "hello"-like bytes stored as they are; the writers compress it.
  auto plain_source = open_source(case_path("y_text_strings_as_bytes.pdf"), {});
  Document plain(*plain_source);
  const std::string expected = plain.stream_raw(plain.object(5), {5, 0});
  for (const char* name : {"y_encrypt_qpdf_r3_rc4_128.pdf", "y_encrypt_qpdf_r4_aes128.pdf", "y_encrypt_qpdf_r6_aes256.pdf"}) {
    auto source = open_source(case_path(name), {});
    Document document(*source);
    bool found = false;
    for (std::uint32_t num = 1; num < document.xref().size(); ++num) {
      const Object object = document.object(num);
      const Object* title = object.get("Title");
      if (object.kind != Kind::stream || title == nullptr) continue;
      found = true;
      EXPECT_EQ(document.stream_decoded(object, {num, 0}, "stream"), expected) << name;
    }
    EXPECT_TRUE(found) << name;
  }
}

TEST(PdfSecurity, ObjectStreamsDecryptOnceWithTheirObjectsInside) {
  for (const auto& [name, password] : {std::pair{"y_encrypt_qpdf_r3_objstm_user_password.pdf", "user"},
                                       std::pair{"y_encrypt_qpdf_r4_objstm_owner_password.pdf", "owner"},
                                       std::pair{"y_encrypt_qpdf_r6_objstm_user_password.pdf", "user"}}) {
    const std::string dump = pdf_dump_file(case_path(name), {}, 1, {}, 0, password);
    EXPECT_NE(dump.find("pages 11\n"), std::string::npos) << name << "\n" << dump;
  }
}

TEST(PdfSecurity, MetadataStaysInClearTextWithoutEncryptMetadata) {
  for (const char* name : {"y_encrypt_qpdf_r4_cleartext_metadata.pdf", "y_encrypt_pikepdf_r6_cleartext_metadata.pdf"}) {
    auto source = open_source(case_path(name), {});
    Document document(*source);
    const Object catalog = document.catalog();
    const Object* metadata = catalog.get("Metadata");
    ASSERT_NE(metadata, nullptr) << name;
    const Object stream = document.resolve(*metadata);
    const std::string data = document.stream_raw(stream, {static_cast<std::uint32_t>(metadata->integer), metadata->gen});
    EXPECT_EQ(data.rfind("<?xpacket", 0), 0u) << name;
  }
}

}  // namespace
