// The bad-input catalogue: every case is a clear Error with a byte offset (where one exists),
// produced quickly and without large allocations, whatever the byte source.
#include <gtest/gtest.h>

#include <chrono>

#include "alloc_counter.h"
#include "docconform/error.h"
#include "docconform/pdf/generate.h"
#include "pdf_test_util.h"

namespace {

using docconform::Error;
using docconform::ErrorKind;
using namespace docconform::pdf;
using pdftest::classic_pdf;
using pdftest::one_page;

// Dumps at level 3 and returns the error; fails the test if the input was accepted.
Error rejected(const std::string& bytes, Limits limits = {}) {
  try {
    pdftest::dump(bytes, 3, limits);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "accepted";
  return Error(ErrorKind::format, {}, "accepted");
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string with_startxref(std::string pdf, std::uint64_t value) {
  const auto at = pdf.rfind("startxref\n");
  return pdf.substr(0, at) + "startxref\n" + std::to_string(value) + "\n%%EOF\n";
}

TEST(BadInput, EveryTruncationIsRejectedOrReadsTheSame) {
  GenerateOptions options;
  options.objects = 8;
  options.payload = 20;
  options.updates = 1;
  const std::string pdf = pdftest::generated_pdf(options);
  const std::string full = pdftest::dump(pdf);
  // A cut after the first revision's startxref leaves that earlier revision, still a PDF (a
  // missing %%EOF is tolerated, as common readers do).
  const std::size_t first_end = pdf.find("%%EOF\n") + 6;
  const std::string first = pdftest::dump(pdf.substr(0, first_end));
  for (std::size_t size = 1; size < pdf.size(); ++size) {
    try {
      const std::string got = pdftest::dump(pdf.substr(0, size));
      EXPECT_TRUE(got == full || (size + 8 >= first_end && got == first)) << "truncated at " << size;
    } catch (const Error& e) {
      EXPECT_NE(e.kind(), ErrorKind::io);
    }
  }
}

TEST(BadInput, StartxrefPointingAnywhere) {
  const std::string pdf = classic_pdf(one_page());
  const auto real = std::stoull(pdf.substr(pdf.rfind("startxref\n") + 10));
  for (std::uint64_t offset = 0; offset < pdf.size() + 10; ++offset) {
    // White space before `xref` is skipped (SPEC format pdf rule 3): the LF before it reads.
    if (offset == real || offset == real - 1) continue;
    const Error e = rejected(with_startxref(pdf, offset));
    EXPECT_TRUE(e.context().offset.has_value()) << offset << ": " << e.what();
  }
  EXPECT_NE(std::string(rejected(replace(pdf, "startxref", "startxrex")).what()).find("startxref"), std::string::npos);
}

// An offset where no section starts is the offset's fault: reported where it is written, with
// what was found there.
TEST(BadInput, AnOffsetAtNoSectionIsReportedWhereItIsWritten) {
  const std::string pdf = classic_pdf(one_page());
  const std::string nothing = ", where no cross-reference section starts (expected ";
  for (const std::uint64_t offset : {pdf.size() - 1, static_cast<std::uint64_t>(pdf.find("/Type"))}) {
    const Error e = rejected(with_startxref(pdf, offset));
    EXPECT_EQ(e.context().part, "startxref") << e.what();
    EXPECT_EQ(e.message().find("startxref gives offset " + std::to_string(offset) + nothing), 0u) << e.what();
  }
  const std::string into_body = std::to_string(pdf.find("/Type"));
  const std::string bad = replace(pdf, "/Root 1 0 R", "/Root 1 0 R /XRefStm " + into_body);
  const Error e = rejected(bad);
  EXPECT_EQ(e.context().part, "trailer") << e.what();
  EXPECT_EQ(e.context().offset, bad.rfind("trailer")) << e.what();
  EXPECT_EQ(e.message().find("/XRefStm gives offset " + into_body + ", where no xref stream starts (expected "), 0u)
      << e.what();
  // Bytes before %PDF-: the offset as written, then its place in the file.
  const Error shifted = rejected("junk\n" + with_startxref(pdf, pdf.size() - 1));
  EXPECT_EQ(shifted.message().find("startxref gives offset " + std::to_string(pdf.size() - 1) + " (byte " +
                                   std::to_string(pdf.size() + 4) + " of the file)" + nothing),
            0u)
      << shifted.what();
}

// Rule 3: white space and comments before an xref stream's `N G obj`, however long, are skipped.
TEST(BadInput, AnXrefStreamAfterWhiteSpaceAndCommentsIsRead) {
  GenerateOptions options;
  options.objects = 8;
  options.payload = 20;
  options.object_streams = true;
  const std::string pdf = pdftest::generated_pdf(options);
  const auto keyword = pdf.rfind("startxref\n");
  const std::string startxref = pdf.substr(keyword + 10, pdf.find('\n', keyword + 10) - keyword - 10);
  const auto section = static_cast<std::size_t>(std::stoull(startxref));
  const std::string padding = std::string(300, '\n') + "% a comment longer than a window of 64 bytes, before the stream\n";
  std::string padded = pdf.substr(0, section) + padding + pdf.substr(section, keyword - section) + "startxref\n" +
                       std::to_string(section) + "\n%%EOF\n";
  EXPECT_EQ(pdftest::dump(padded, 2), pdftest::dump(pdf, 2));
}

// Reported where the offset is written, naming what wrote it, not at the offset itself.
TEST(BadInput, AnOffsetPastTheEndIsReportedWhereItIsWritten) {
  const std::string pdf = classic_pdf(one_page());
  const std::string past = " gives offset 4611686018427387904, beyond the end of the file (";
  const Error startxref = rejected(with_startxref(pdf, 1ull << 62));
  EXPECT_EQ(startxref.context().part, "startxref");
  EXPECT_EQ(startxref.context().offset, pdf.rfind("startxref"));
  EXPECT_EQ(startxref.message().find("startxref" + past), 0u) << startxref.what();
  // Too many digits for 64 bits: still an offset past the end, not a reason to read an earlier
  // startxref.
  const std::string too_many = pdf.substr(0, pdf.rfind("startxref\n")) + "startxref\n18446744073709551616\n%%EOF\n";
  const Error wide = rejected(too_many);
  EXPECT_EQ(wide.context().offset, too_many.rfind("startxref"));
  EXPECT_EQ(wide.message().find("startxref gives offset 18446744073709551616, beyond the end of the file"), 0u) << wide.what();
  // An object's xref entry: at the section that lists it.
  std::vector<std::size_t> at;
  const std::string listed = classic_pdf(one_page(), "", "\r\n", &at);
  const std::string entry_past = replace(listed, pdftest::entry20(at[0], 0, 'n', "\r\n"), "9999999999 00000 n\r\n");
  const Error entry = rejected(entry_past);
  EXPECT_EQ(entry.context().part, "object 1 0") << entry.what();
  EXPECT_EQ(entry.context().offset, entry_past.rfind("\nxref\n") + 1) << entry.what();
  EXPECT_EQ(entry.message().find("xref places the object at offset 9999999999, beyond the end of the file ("), 0u)
      << entry.what();
  // A trailer's keys are reported at its keyword, whatever is wrong with them.
  for (const std::string key : {"/Prev", "/XRefStm"}) {
    for (const std::string value : {"4611686018427387904", "-1"}) {
      const std::string bad = replace(pdf, "/Root 1 0 R", "/Root 1 0 R " + key + " " + value);
      const Error e = rejected(bad);
      EXPECT_EQ(e.context().part, "trailer") << e.what();
      EXPECT_EQ(e.context().offset, bad.rfind("trailer")) << e.what();
      EXPECT_EQ(e.message().find(value == "-1" ? key + " is not an offset" : key + past), 0u) << e.what();
    }
  }
}

TEST(BadInput, PrevLoop) {
  const std::string pdf = classic_pdf(one_page());
  const std::string xref = pdf.substr(pdf.rfind("startxref\n") + 10);
  const Error e = rejected(replace(pdf, "/Root 1 0 R", "/Root 1 0 R /Prev " + std::to_string(std::stoull(xref))));
  EXPECT_NE(e.message().find("loops"), std::string::npos);
  EXPECT_EQ(e.context().offset, std::stoull(xref));
}

std::string xref_stream_with(const std::string& dict_extra, const std::string& data) {
  std::string out = "%PDF-1.5\n";
  const std::size_t at = out.size();
  out += "1 0 obj\n<< /Type /XRef " + dict_extra + " /Length " + std::to_string(data.size()) + " >>\nstream\n" + data +
         "\nendstream\nendobj\nstartxref\n" + std::to_string(at) + "\n%%EOF\n";
  return out;
}

TEST(BadInput, AbsurdWAndSize) {
  EXPECT_EQ(rejected(xref_stream_with("/Size 2 /W [1 9 2]", std::string(24, '\0'))).kind(), ErrorKind::format);
  EXPECT_EQ(rejected(xref_stream_with("/Size 2 /W [1 -1 2]", std::string(24, '\0'))).kind(), ErrorKind::format);
  EXPECT_EQ(rejected(xref_stream_with("/Size 2 /W [0 0 0]", std::string(24, '\0'))).kind(), ErrorKind::format);
  EXPECT_EQ(rejected(xref_stream_with("/Size 2000000000 /W [1 4 2]", std::string(14, '\0'))).kind(), ErrorKind::limit);
  // Plausible /Size, data far too short: no allocation for the entries that are not there.
  const auto before = docconform::alloc_snapshot();
  const Error e = rejected(xref_stream_with("/Size 5000000 /W [1 4 2]", std::string(14, '\0')));
  EXPECT_NE(e.message().find("ask for more"), std::string::npos);
  EXPECT_LT((docconform::alloc_snapshot() - before).total_bytes(), 1u << 20);
  EXPECT_EQ(rejected(xref_stream_with("/Size 2 /W [1 4 2] /Index [0 1 1", std::string(14, '\0'))).kind(), ErrorKind::format);
}

// A classic trailer's /Size is checked as an xref stream's is: an integer >= 0 (present: it is
// required), and no more objects than max_objects.
TEST(BadInput, ClassicTrailerSizeIsCheckedLikeAnXrefStreams) {
  const std::string good = classic_pdf(one_page());
  for (const char* size : {"-1", "18446744073709551616", "4.5", "(4)"}) {
    const Error e = rejected(replace(good, "/Size 4", std::string("/Size ") + size));
    EXPECT_EQ(e.kind(), ErrorKind::format) << size;
    EXPECT_EQ(e.context().part, "trailer") << size;
    EXPECT_EQ(e.context().offset, good.rfind("trailer")) << size;  // at the keyword, as every trailer error
    EXPECT_NE(e.message().find("trailer without an integer /Size >= 0"), std::string::npos) << e.what();
  }
  EXPECT_EQ(rejected(replace(good, "/Size 4", "")).kind(), ErrorKind::format);
  const Error huge = rejected(replace(good, "/Size 4", "/Size 9000000"));
  EXPECT_EQ(huge.kind(), ErrorKind::limit);
  EXPECT_NE(huge.message().find("object number 8999999 exceeds max_objects (8000000)"), std::string::npos) << huge.what();
  // Objects numbered above /Size are missing (ISO 32000-2 7.5.5): under /Size 3 the page
  // (object 3) is still there, under /Size 0 the catalog is not.
  EXPECT_EQ(pdftest::outcome_of([&] { pdftest::dump(replace(good, "/Size 4", "/Size 3")); }), "ok");
  EXPECT_NE(rejected(replace(good, "/Size 4", "/Size 0")).message().find("/Root"), std::string::npos);
}

std::string objstm_pdf(const std::string& n, const std::string& first, const std::string& content,
                       const std::string& extra = "") {
  std::string out = "%PDF-1.5\n";
  std::vector<std::size_t> at;
  at.push_back(out.size());
  out += "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n";
  at.push_back(out.size());
  out += "2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n";
  at.push_back(out.size());
  out += "3 0 obj\n<< /Type /ObjStm " + extra + " /N " + n + " /First " + first + " /Length " + std::to_string(content.size()) +
         " >>\nstream\n" + content + "\nendstream\nendobj\n";
  const std::size_t xref = out.size();
  // Object 4 is compressed: a classic table cannot say so, so use a minimal xref stream.
  std::string rows;
  auto row = [&](int type, std::uint64_t f2, int f3) {
    rows += static_cast<char>(type);
    for (int i = 3; i >= 0; --i) rows += static_cast<char>(f2 >> (8 * i));
    rows += static_cast<char>(f3 >> 8);
    rows += static_cast<char>(f3);
  };
  row(0, 0, 65535);
  for (std::size_t a : at) row(1, a, 0);
  row(2, 3, 0);
  row(1, xref, 0);
  out += "5 0 obj\n<< /Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R /Length " + std::to_string(rows.size()) + " >>\nstream\n" +
         rows + "\nendstream\nendobj\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return out;
}

TEST(BadInput, ObjectStreamsWithLyingNOrFirst) {
  EXPECT_NE(pdftest::dump(objstm_pdf("1", "4", "4 0 (four)")).find("obj 4 0 \"four\""), std::string::npos);
  EXPECT_EQ(rejected(objstm_pdf("1", "400", "4 0 (four)")).kind(), ErrorKind::format);         // /First past the data
  EXPECT_EQ(rejected(objstm_pdf("900000", "4", "4 0 (four)")).kind(), ErrorKind::format);      // /N pairs cannot fit
  EXPECT_EQ(rejected(objstm_pdf("2000000000", "4", "4 0 (four)")).kind(), ErrorKind::limit);   // /N beyond the limit
  EXPECT_EQ(rejected(objstm_pdf("1", "4", "4 9 (four)")).kind(), ErrorKind::format);           // offset past the end
  EXPECT_EQ(rejected(objstm_pdf("1", "2", "4 0 (four)")).kind(), ErrorKind::format);           // header cut short
  EXPECT_EQ(rejected(objstm_pdf("-1", "4", "4 0 (four)")).kind(), ErrorKind::format);
  EXPECT_EQ(rejected(objstm_pdf("1", "4", "7 0 (four)")).kind(), ErrorKind::format);           // not listed
}

TEST(BadInput, LengthLies) {
  const std::vector<std::string> base = one_page();
  auto with_stream = [&](const std::string& length) {
    auto bodies = base;
    bodies.push_back("<< /Length " + length + " >>\nstream\nabcdef\nendstream");
    bodies.push_back("6");
    return classic_pdf(bodies);
  };
  EXPECT_NO_THROW(pdftest::dump(with_stream("6")));
  EXPECT_NO_THROW(pdftest::dump(with_stream("5 0 R")));
  for (const char* lie : {"5", "8", "99999999", "-1", "(x)", "4 0 R"}) {
    const Error e = rejected(with_stream(lie));
    EXPECT_EQ(e.kind(), ErrorKind::format) << lie;
    EXPECT_NE(e.context().part.find("object 4"), std::string::npos) << e.what();
  }
}

// ISO 32000-2 7.3.8.1: `stream` is followed by CRLF or LF (spaces before it and a lone CR are
// tolerated); with no end-of-line marker where the data starts is unknown.
TEST(BadInput, StreamKeywordWithoutAnEndOfLineMarker) {
  auto with_stream = [](const std::string& after_keyword) {
    std::vector<std::string> bodies = one_page();
    bodies.push_back("<< /Length 3 >>\nstream" + after_keyword + "abc\nendstream");
    return classic_pdf(bodies);
  };
  for (const char* tolerated : {"\n", "\r\n", "\r", "  \r\n", " \n"}) {
    EXPECT_NO_THROW(pdftest::dump(with_stream(tolerated), 3)) << tolerated;
  }
  for (const char* missing : {" ", "  ", "\t", "%x\n"}) {
    const Error e = rejected(with_stream(missing));
    EXPECT_EQ(e.kind(), ErrorKind::format) << missing;
    EXPECT_NE(e.context().part.find("object 4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("end-of-line"), std::string::npos) << e.what();
  }
}

// ISO 32000-2 7.3.10: an indirect object's value stands between obj and endobj (a stream's
// endobj follows its endstream), white space and comments allowed before each keyword however
// long. An object without it is rejected (qpdf, MuPDF, pdf.js and pypdf read it), and recovery,
// which rebuilds the cross-reference data, not objects, rejects it alike.
TEST(BadInput, EveryObjectEndsWithEndobj) {
  const auto with_fourth = [](const std::string& body) {
    std::vector<std::string> bodies = one_page();
    bodies.push_back(body);
    return classic_pdf(bodies, "/Info 4 0 R");
  };
  // Blanks the last endobj of object 4 (the one before the table): offsets stay as they were.
  const auto without_endobj = [](std::string bytes) {
    const std::size_t at = bytes.rfind("endobj", bytes.find("xref\n"));
    bytes.replace(at, 6, "      ");
    return bytes;
  };
  const std::string dict = with_fourth("<< /Title (t) >>");
  const std::string stream = with_fourth("<< /Length 3 >>\nstream\nabc\nendstream");
  const std::string spaced = with_fourth("<< /Title (t) >> % a comment\n" + std::string(5000, ' '));
  const std::string spaced_stream = with_fourth("<< /Length 3 >>\nstream\nabc" + std::string(100, ' ') + "\nendstream" +
                                                std::string(5000, ' ') + "% a comment\n");
  for (const std::string* ok : {&dict, &stream, &spaced, &spaced_stream}) EXPECT_NO_THROW(pdftest::dump(*ok, 3));
  for (const std::string* intact : {&dict, &stream, &spaced_stream}) {
    const std::string broken = without_endobj(*intact);
    const Error e = rejected(broken);
    EXPECT_EQ(e.kind(), ErrorKind::format) << e.what();
    EXPECT_EQ(e.context().part, "object 4 0") << e.what();
    EXPECT_NE(std::string(e.what()).find("expected 'endobj'"), std::string::npos) << e.what();
    auto source = memory_source(broken);
    Document recovered(*source, {}, {}, Recovery::rebuild);
    EXPECT_EQ(pdftest::outcome_of([&] { pdf_dump(recovered, 3); }), e.what());
  }
}

TEST(BadInput, ObjectsReferringToThemselves) {
  auto bodies = one_page();
  bodies.push_back("4 0 R");
  // A reference chain that loops resolves to an error, not a hang.
  auto source = memory_source(classic_pdf(bodies));
  Document doc(*source);
  EXPECT_THROW(doc.resolve(Object::make_ref(4, 0)), Error);
  bodies.back() = "<< /Length 4 0 R >>\nstream\nabcd\nendstream";
  const std::string self = classic_pdf(bodies);
  const Error e = rejected(self);
  EXPECT_NE(e.message().find("itself"), std::string::npos) << e.what();
  EXPECT_EQ(e.context().offset, self.find("4 0 obj"));
}

TEST(BadInput, PageTreeLoops) {
  auto bodies = one_page();
  bodies[2] = "<< /Type /Pages /Kids [2 0 R] /Count 1 >>";
  const std::string looped = classic_pdf(bodies);
  const Error e = rejected(looped);
  EXPECT_NE(e.message().find("twice"), std::string::npos);
  // The node reached twice is named with the offset of its bytes.
  EXPECT_EQ(e.context().part, "object 2 0");
  EXPECT_EQ(e.context().offset, looped.find("2 0 obj"));
  bodies[2] = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>";
  EXPECT_NE(rejected(classic_pdf(bodies)).message().find("twice"), std::string::npos);
}

TEST(BadInput, StructureErrorsNameWhereTheOffendingObjectLies) {
  // /Root that is not a dictionary: the offset of the object it points at.
  auto bodies = one_page();
  bodies[0] = "[1 2 3]";
  const std::string root_array = classic_pdf(bodies);
  Error e = rejected(root_array);
  EXPECT_NE(e.message().find("/Root is not a dictionary"), std::string::npos) << e.what();
  EXPECT_EQ(e.context().offset, root_array.find("1 0 obj"));
  // A /Kids entry that is not a reference: the offset of the node that lists it.
  bodies = one_page();
  bodies[1] = "<< /Type /Pages /Kids [3] /Count 1 >>";
  const std::string direct_kid = classic_pdf(bodies);
  e = rejected(direct_kid);
  EXPECT_NE(e.message().find("not an indirect reference"), std::string::npos) << e.what();
  EXPECT_EQ(e.context().offset, direct_kid.find("2 0 obj"));
  // A /Kids entry naming an object the file lacks: the offset of the node that lists it.
  bodies = one_page();
  bodies[1] = "<< /Type /Pages /Kids [9 0 R] /Count 1 >>";
  const std::string missing_kid = classic_pdf(bodies);
  e = rejected(missing_kid);
  EXPECT_NE(e.message().find("not in the file"), std::string::npos) << e.what();
  EXPECT_EQ(e.context().part, "object 9 0");
  EXPECT_EQ(e.context().offset, missing_kid.find("2 0 obj"));
  // A catalog without /Pages: the catalog's offset.
  bodies = one_page();
  bodies[0] = "<< /Type /Catalog >>";
  const std::string no_pages = classic_pdf(bodies);
  e = rejected(no_pages);
  EXPECT_EQ(e.context().offset, no_pages.find("1 0 obj")) << e.what();
  // An unsupported filter: where the stream's data starts.
  bodies = one_page();
  bodies.push_back("<< /Length 4 /Filter /LZWDecode >>\nstream\nabcd\nendstream");
  const std::string lzw = classic_pdf(bodies);
  auto source = memory_source(lzw);
  Document doc(*source);
  try {
    doc.stream_decoded(doc.object(4), {4, 0}, "object 4 0");
    ADD_FAILURE() << "LZWDecode decoded";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), ErrorKind::unsupported) << err.what();
    EXPECT_EQ(err.context().offset, lzw.find("abcd")) << err.what();
  }
}

TEST(BadInput, DeflateBombIsALimitError) {
  const std::string bomb = pdftest::deflate(std::string(16u << 20, '\0'));
  Limits limits;
  limits.inflate_ratio = 100;
  const auto before = docconform::alloc_snapshot();
  const Error e = rejected(objstm_pdf("1", "4", bomb, "/Filter /FlateDecode"), limits);
  EXPECT_EQ(e.kind(), ErrorKind::limit) << e.what();
  EXPECT_LT((docconform::alloc_snapshot() - before).total_bytes(), 8u << 20);
  limits = Limits::fuzz();
  EXPECT_EQ(rejected(objstm_pdf("1", "4", bomb, "/Filter /FlateDecode"), limits).kind(), ErrorKind::limit);
}

}  // namespace
