// Recovery (Recovery::rebuild, `--recover`): the xref rebuilt from a scan of the file when the
// chain is missing, unreadable or wrong, and the `recovered` line that says so.
#include <gtest/gtest.h>

#include <string>

#include "docconform/error.h"
#include "pdf_test_util.h"

namespace {

using docconform::Error;
using docconform::ErrorKind;
using namespace docconform::pdf;
using pdftest::classic_pdf;
using pdftest::deflate;
using pdftest::one_page;

std::string recovered_dump(const std::string& bytes, int level = 2, Limits limits = {}) {
  auto source = memory_source(bytes);
  Document doc(*source, limits, {}, Recovery::rebuild);
  return pdf_dump(doc, level);
}

std::string with_startxref(const std::string& pdf, const std::string& value) {
  return pdf.substr(0, pdf.rfind("startxref\n")) + "startxref\n" + value + "\n%%EOF\n";
}

std::string recovered_line(const std::string& dump) {
  const auto at = dump.find("\nrecovered ");
  if (at == std::string::npos) return "";
  return dump.substr(at + 1, dump.find('\n', at + 1) - at - 1);
}

TEST(Recover, AFileThatReadsStrictlyIsDumpedAsWithoutRecovery) {
  const std::string pdf = classic_pdf(one_page(), "/Info 3 0 R");
  EXPECT_EQ(recovered_dump(pdf, 3), pdftest::dump(pdf, 3));
  EXPECT_EQ(recovered_line(recovered_dump(pdf, 3)), "");
}

TEST(Recover, StartxrefPastTheEndIsRebuiltAndSaysSo) {
  const std::string pdf = with_startxref(classic_pdf(one_page()), "99999");
  EXPECT_THROW(pdftest::dump(pdf, 2), Error);
  const std::string dump = recovered_dump(pdf);
  const std::string trailer_at = std::to_string(pdf.rfind("trailer"));
  EXPECT_EQ(recovered_line(dump),
            "recovered strict read failed at " + std::to_string(pdf.rfind("startxref")) +
                " (startxref): startxref gives offset 99999, beyond the end of the file (" +
                std::to_string(pdf.size()) + " bytes); xref rebuilt from scan: 3 objects (0 in object streams); catalog from trailer at " +
                trailer_at);
  EXPECT_EQ(dump.substr(0, dump.find("recovered")), "docconform-dump pdf 1\n");
  EXPECT_NE(dump.find("\npages 1\n"), std::string::npos);
  // The rebuilt entries are where the objects are: the same xref lines as the intact file.
  const std::string intact = pdftest::dump(classic_pdf(one_page()), 2);
  EXPECT_EQ(dump.substr(dump.find("\nlevel")), intact.substr(intact.find("\nlevel")));
}

TEST(Recover, MissingStartxrefOrStartxrefIntoAnObjectIsRebuilt) {
  const std::string pdf = classic_pdf(one_page());
  std::string missing = pdf;
  missing.replace(missing.rfind("startxref"), 9, "startxrex");
  EXPECT_NE(recovered_line(recovered_dump(missing)).find("(startxref): no 'startxref'"), std::string::npos);
  EXPECT_NE(recovered_line(recovered_dump(with_startxref(pdf, "40")))
                .find("(startxref): startxref gives offset 40, where no cross-reference section starts"),
            std::string::npos);
}

TEST(Recover, EntriesPointingAtAnotherObjectOrPastTheEndAreRebuilt) {
  std::vector<std::size_t> at;
  const std::string pdf = classic_pdf(one_page(), "", "\r\n", &at);
  for (const std::string& wrong : std::vector<std::string>{pdftest::entry20(at[0], 0, 'n'), "4294967295 00000 n\r\n"}) {
    std::string broken = pdf;
    const std::string entry = pdftest::entry20(at[2], 0, 'n');
    broken.replace(broken.rfind(entry), entry.size(), wrong);
    EXPECT_THROW(pdftest::dump(broken, 3), Error);
    const std::string dump = recovered_dump(broken, 3);
    EXPECT_NE(recovered_line(dump).find("(object 3 0): the xref entry points at no 'N G obj'"), std::string::npos) << dump;
    EXPECT_NE(dump.find("\nxref 3 0 n " + std::to_string(at[2]) + "\n"), std::string::npos);
  }
}

TEST(Recover, ObjectNumbersPastTheLimitAreRebuilt) {
  std::string pdf = classic_pdf(one_page());
  pdf.insert(pdf.find("trailer"), "2147483648 1\n" + pdftest::entry20(9, 0, 'n'));
  try {
    pdftest::dump(pdf, 2);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::limit);
  }
  EXPECT_NE(recovered_line(recovered_dump(pdf)).find("exceeds max_objects"), std::string::npos);
}

TEST(Recover, TheLatestDefinitionOfANumberWins) {
  std::string pdf = classic_pdf(one_page());
  const std::size_t later = pdf.rfind("\nxref\n") + 1;
  pdf.insert(later, "3 0 obj\n<< /Type /Page /Parent 2 0 R /Rotate 90 >>\nendobj\n");
  const std::string dump = recovered_dump(with_startxref(pdf, "1"), 3);
  EXPECT_NE(dump.find("\nxref 3 0 n " + std::to_string(later) + "\n"), std::string::npos);
  EXPECT_NE(dump.find("rotate 90"), std::string::npos);
}

// Objects 1-3 in object stream 4, then an xref stream 5 whose data is corrupt: its dictionary
// still names the catalogue.
std::string object_stream_with_broken_xref_stream() {
  std::string out = "%PDF-1.5\n";
  std::string header, data;
  for (std::size_t i = 0; i < 3; ++i) {
    header += std::to_string(i + 1) + " " + std::to_string(data.size()) + " ";
    data += one_page()[i] + " ";
  }
  const std::string packed = deflate(header + data);
  out += "4 0 obj\n<< /Type /ObjStm /N 3 /First " + std::to_string(header.size()) + " /Filter /FlateDecode /Length " +
         std::to_string(packed.size()) + " >>\nstream\n" + packed + "\nendstream\nendobj\n";
  const std::size_t at = out.size();
  out += "5 0 obj\n<< /Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length 4 >>\nstream\njunk\nendstream\nendobj\n";
  return out + "startxref\n" + std::to_string(at) + "\n%%EOF\n";
}

TEST(Recover, ObjectsInObjectStreamsAndTheCatalogueOfAnXrefStreamAreFound) {
  const std::string pdf = object_stream_with_broken_xref_stream();
  EXPECT_THROW(pdftest::dump(pdf, 2), Error);
  const std::string dump = recovered_dump(pdf, 3);
  EXPECT_NE(recovered_line(dump).find("xref rebuilt from scan: 5 objects (3 in object streams); catalog from xref stream at " +
                                      std::to_string(pdf.find("5 0 obj"))),
            std::string::npos)
      << dump;
  EXPECT_NE(dump.find("\nxref 1 0 c 4 0\nxref 2 0 c 4 1\nxref 3 0 c 4 2\n"), std::string::npos);
  EXPECT_NE(dump.find("\npages 1\n"), std::string::npos);
}

TEST(Recover, WithoutATrailerTheLastCatalogObjectIsTheRoot) {
  std::string pdf = classic_pdf(one_page());
  pdf = pdf.substr(0, pdf.rfind("\nxref\n") + 1);
  const std::string dump = recovered_dump(pdf, 3);
  EXPECT_NE(recovered_line(dump).find("catalog from catalog object at " + std::to_string(pdf.find("1 0 obj"))), std::string::npos);
  EXPECT_NE(dump.find("\ntrailer <</Root 1 0 R /Size 4>>\n"), std::string::npos);
}

TEST(Recover, NoCatalogueAnywhereIsAnErrorNamingTheStrictFailure) {
  std::string pdf = classic_pdf(one_page());
  pdf = pdf.substr(0, pdf.rfind("\nxref\n") + 1);
  pdf.replace(pdf.find("/Type /Catalog"), 14, "/Type /Catalox");
  try {
    recovered_dump(pdf);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.context().part, "recovery");
    EXPECT_NE(e.message().find("finds no catalog"), std::string::npos);
    EXPECT_NE(e.message().find("startxref"), std::string::npos);
  }
}

// The scan reads the file a window at a time: a header that straddles a window boundary, and a
// file read through the mapped source's small windows, are found all the same.
TEST(Recover, HeadersStraddlingScanWindowsAreFound) {
  for (std::size_t shift = 0; shift < 12; shift += 3) {
    std::string pdf = "%PDF-1.4\n%" + std::string((1 << 20) - 14 + shift, 'x') + "\n";
    const std::size_t at = pdf.size();
    pdf += "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n";
    pdf += "3 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R /Size 4 >>\n%%EOF\n";
    pdftest::TempFile file(pdf);
    SourceOptions options;
    options.kind = SourceKind::mapped;
    options.window = 64 << 10;
    const std::string dump = pdf_dump_file(file.path(), options, 2, {}, 0, {}, Recovery::rebuild);
    EXPECT_NE(dump.find("\nxref 1 0 n " + std::to_string(at) + "\n"), std::string::npos) << shift;
    EXPECT_NE(dump.find("\npages 1\n"), std::string::npos) << shift;
  }
}

// Headers nested in one long string each start a parse that runs to the end of the file; the
// work is bounded by recovery_parse_ratio, a limit error rather than quadratic time.
TEST(Recover, ParsingIsBoundedByTheRecoveryParseRatio) {
  std::string pdf = "%PDF-1.4\n";
  for (int i = 1; i <= 20000; ++i) pdf += std::to_string(i) + " 0 obj (";
  pdf += "\n%%EOF\n";
  try {
    recovered_dump(pdf);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::limit);
    EXPECT_NE(e.message().find("recovery_parse_ratio"), std::string::npos);
  }
}

}  // namespace

namespace {

// The i_recover_ conformance cases: every strict reader rejects them; recovery reads one page,
// the counts CASES.tsv records.
TEST(Recover, TheRecoveryCasesReadTheirOnePage) {
  const std::string dir = std::string(DOCCONFORM_SOURCE_DIR) + "/conformance/cases/pdf/";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"i_recover_entry_at_4294967295.pdf", "xref rebuilt from scan: 4 objects (0 in object streams); catalog from trailer at "},
      {"i_recover_object_number_past_2_31.pdf", "xref rebuilt from scan: 4 objects (0 in object streams); catalog from trailer at "},
      {"i_recover_broken_xref_stream_over_object_stream.pdf",
       "xref rebuilt from scan: 5 objects (3 in object streams); catalog from xref stream at "},
      {"i_recover_no_xref_no_trailer.pdf", "xref rebuilt from scan: 4 objects (0 in object streams); catalog from catalog object at 15"},
  };
  for (const auto& [name, repair] : cases) {
    EXPECT_THROW(pdf_dump_file(dir + name, {}, 2), Error) << name;
    const std::string dump = pdf_dump_file(dir + name, {}, 3, {}, 0, {}, Recovery::rebuild);
    EXPECT_NE(recovered_line(dump).find(repair), std::string::npos) << name << "\n" << recovered_line(dump);
    EXPECT_NE(dump.find("\npages 1\n"), std::string::npos) << name;
  }
}

}  // namespace
