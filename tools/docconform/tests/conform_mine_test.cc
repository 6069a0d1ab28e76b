// conform mine's parts: the mutators are deterministic and change what their family names, the
// signature keeps verdict classes and the shape of dump differences (never values), and the
// minimiser keeps what the signature needs within its budget.
#include "conform_mine.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "cli_util.h"
#include "conform_fields.h"
#include "docconform/xlsx/generator.h"
#include "mine_minimize.h"
#include "mine_mutators.h"

namespace docconform::cli {
namespace {

std::string workbook() {
  return xlsx::build_zip({{"[Content_Types].xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Types><Default Extension=\"xml\"/></Types>"},
                          {"xl/workbook.xml", "<workbook><sheets><sheet name=\"S\" r:id=\"rId1\"/></sheets></workbook>"},
                          {"xl/worksheets/sheet1.xml",
                           "<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"b\"><v>1</v></c><c r=\"B1\"><v>2.5</v></c></row>"
                           "</sheetData></worksheet>"}});
}

const std::string pdf =
    "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"
    "3 0 obj\n<< /Length 5 /Filter /FlateDecode >>\nstream\nxxxxx\nendstream\nendobj\n"
    "xref\n0 4\n0000000000 65535 f \n0000000009 00000 n \n0000000058 00000 n \n0000000110 00000 n \n"
    "trailer\n<< /Size 4 /Root 1 0 R /Prev 9 >>\nstartxref\n180\n%%EOF\n";

// A raw SST record file: cstTotal 2, cstUnique 2, "ab" and "c", then an EXTSST.
const std::string sst = std::string("\xFC\x00\x11\x00", 4) + std::string("\x02\x00\x00\x00\x02\x00\x00\x00", 8) +
                        std::string("\x02\x00\x00" "ab", 5) + std::string("\x01\x00\x00" "c", 4) +
                        std::string("\xFF\x00\x02\x00\x08\x00", 6);

std::vector<std::string> mutations(const std::string& format, const std::string& input, std::uint64_t seed, int count,
                                   std::vector<std::string>& outputs) {
  Mutator m{SplitMix64(seed), {"<v>", "/Root"}};
  std::vector<std::string> steps;
  for (int i = 0; i < count; ++i) outputs.push_back(mutate_once(format, input, m, steps));
  return steps;
}

TEST(MineMutators, SameSeedSameMutantsOtherSeedOthers) {
  for (const auto& [format, input] : std::vector<std::pair<std::string, std::string>>{
           {"xlsx", workbook()}, {"pdf", pdf}, {"sst", sst}, {"utf8", "h\xC3\xA9llo\n"}, {"sstw", "\"a\"\n\"b\"\n"}}) {
    std::vector<std::string> a, b, c;
    const auto steps_a = mutations(format, input, 42, 200, a);
    const auto steps_b = mutations(format, input, 42, 200, b);
    const auto steps_c = mutations(format, input, 43, 200, c);
    EXPECT_EQ(a, b) << format;
    EXPECT_EQ(steps_a, steps_b) << format;
    EXPECT_NE(steps_a, steps_c) << format;
    const std::string& seed = input;  // clang 14 captures no structured binding
    const auto changed = std::count_if(a.begin(), a.end(), [&](const std::string& out) { return out != seed; });
    EXPECT_GT(changed, 150) << format << ": most mutations change the input";
  }
}

// Each family makes the mutations it is for, named by their prefix.
TEST(MineMutators, FamiliesWorkAtTheirLevel) {
  const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> expected{
      {"xlsx", workbook(), {"zip.drop", "zip.duplicate", "zip.rename", "zip.reorder", "zip.method", "zip.header", "xml.element",
                            "xml.attribute", "xml.reference", "xml.number", "xml.text", "xml.entity", "xml.encoding"}},
      {"pdf", pdf, {"pdf.xref_offset", "pdf.white_space", "pdf.number /Length", "pdf.number /Prev", "pdf.prev", "pdf.filter", "pdf.token"}},
      {"sst", sst, {"biff.length", "biff.flags", "biff.count", "biff.type", "biff.continue_split", "biff.continue_merge", "biff.drop"}},
      {"utf8", "abc", {"utf8.insert", "utf8.truncate"}}};
  for (const auto& [format, input, prefixes] : expected) {
    std::vector<std::string> outputs;
    const auto steps = mutations(format, input, 7, 3000, outputs);
    for (const auto& prefix : prefixes) {
      EXPECT_TRUE(std::any_of(steps.begin(), steps.end(), [&](const std::string& s) { return s.rfind(prefix, 0) == 0; }))
          << format << ": no " << prefix;
    }
  }
}

TEST(MineMutators, ZipPartsRoundTrip) {
  auto parts = read_zip(workbook());
  ASSERT_TRUE(parts);
  ASSERT_EQ(parts->size(), 3U);
  EXPECT_EQ((*parts)[1].name, "xl/workbook.xml");
  (*parts)[1].stored = true;
  const auto again = read_zip(write_zip(*parts));
  ASSERT_TRUE(again);
  EXPECT_EQ((*again)[1].data, (*parts)[1].data);
  EXPECT_TRUE((*again)[1].stored);
  EXPECT_FALSE(read_zip("not a zip"));
}

TEST(MineMutators, DictionaryEscapes) {
  const auto path = std::filesystem::temp_directory_path() / ("mine-dict-" + std::to_string(::getpid()));
  write_file(path.string(), "# comment\nname=\"a\\x41\\\"b\"\n\"\\\\\"\n\n");
  EXPECT_EQ(read_dictionary(path.string()), (std::vector<std::string>{"aA\"b", "\\"}));
  std::filesystem::remove(path);
}

// A sweep-like report of one file: the reference and peers with (status, dump) each.
struct Run {
  std::string impl;
  Status status;
  std::string dump;  // of an accepted run
};
Signature signature_of(const std::vector<Run>& runs) {
  RunReport report;
  report.cases.push_back({"pdf", "x.pdf", "/x.pdf", 'i', ""});
  for (const Run& run : runs) {
    Adapter a;
    a.name = run.impl;
    a.kind = run.impl == "reference" ? "reference" : "third-party";
    report.impls.push_back(a);
    Result r;
    r.case_file = &report.cases[0];
    r.impl = run.impl;
    r.status = run.status;
    r.digest = run.status == Status::accepted ? "sha256:" + run.dump : "rejected";
    if (run.status == Status::accepted) r.fields = dump_field_digests("pdf", run.dump);
    report.results.push_back(r);
  }
  return mine_signature(sweep_agreements(report).front());
}

TEST(MineSignature, VerdictClassesGroupsAndDifferingFields) {
  const std::string dump = "docconform-dump pdf 1\nlevel 2\npages 1\nobjects 1\nobject 1 0 dict\n";
  const std::string other_pages = "docconform-dump pdf 1\nlevel 2\npages 2\nobjects 1\nobject 1 0 dict\n";
  const Signature s = signature_of({{"reference", Status::accepted, dump},
                                    {"p1", Status::accepted, other_pages},
                                    {"p2", Status::rejected, ""},
                                    {"p3", Status::unsupported, ""},
                                    {"p4", Status::timeout, ""},
                                    {"p5", Status::adapter_failure, ""},
                                    {"p6", Status::accepted, dump}});
  EXPECT_EQ(s.text,
            "mixed | reference=accepts:A p1=accepts:B p2=rejects p3=unsupported p4=timeout p5=crash p6=accepts:A "
            "| A~B:pages");
  EXPECT_TRUE(s.disagreement);
  // The shape, not the values: another page count gives the same signature.
  const std::string third_pages = "docconform-dump pdf 1\nlevel 2\npages 3\nobjects 1\nobject 1 0 dict\n";
  EXPECT_EQ(signature_of({{"reference", Status::accepted, dump}, {"p1", Status::accepted, other_pages}}).text,
            signature_of({{"reference", Status::accepted, dump}, {"p1", Status::accepted, third_pages}}).text);
}

TEST(MineSignature, DisagreementNeedsTwoImplementationsWithVerdicts) {
  const std::string dump = "docconform-dump pdf 1\nlevel 2\npages 1\nobjects 0\n";
  EXPECT_FALSE(signature_of({{"reference", Status::accepted, dump}, {"p1", Status::accepted, dump}}).disagreement);
  EXPECT_FALSE(signature_of({{"reference", Status::rejected, ""}, {"p1", Status::rejected, ""}}).disagreement);
  EXPECT_FALSE(signature_of({{"reference", Status::accepted, dump}, {"p1", Status::unsupported, ""}}).disagreement);
  EXPECT_TRUE(signature_of({{"reference", Status::accepted, dump}, {"p1", Status::rejected, ""}}).disagreement);
  EXPECT_TRUE(signature_of({{"reference", Status::rejected, ""}, {"p1", Status::crash, ""}}).disagreement);
  EXPECT_EQ(signature_of({{"reference", Status::rejected, ""}, {"p1", Status::accepted, dump}}).text,
            "mixed | reference=rejects p1=accepts:A");
}

// A check that holds while the input has both "needle" lines.
std::size_t holds_both(const std::vector<std::string>& inputs) {
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].find("needle 1\n") != std::string::npos && inputs[k].find("needle 2\n") != std::string::npos) return k;
  }
  return inputs.size();
}

TEST(MineMinimize, KeepsOnlyWhatTheSignatureNeeds) {
  std::string input;
  for (int i = 0; i < 300; ++i) input += "line " + std::to_string(i) + "\n" + (i == 37 ? "needle 1\n" : i == 211 ? "needle 2\n" : "");
  MinimizeLog log;
  EXPECT_EQ(minimize("utf8", input, holds_both, {60, 100000}, log), "needle 1\nneedle 2\n");
  EXPECT_FALSE(log.budget_spent);
  EXPECT_GT(log.runs, 0U);
  ASSERT_FALSE(log.steps.empty());
  EXPECT_EQ(log.steps.front().rfind("pass 1, lines: 302 -> 2 units", 0), 0U) << log.steps.front();
}

TEST(MineMinimize, StopsAtItsBudget) {
  std::string input;
  for (int i = 0; i < 300; ++i) input += "line " + std::to_string(i) + "\n" + (i == 37 ? "needle 1\nneedle 2\n" : "");
  MinimizeLog log;
  const std::string out = minimize("utf8", input, holds_both, {60, 5}, log);
  EXPECT_TRUE(log.budget_spent);
  EXPECT_EQ(log.runs, 5U);
  EXPECT_NE(holds_both({out}), 1U);
}

TEST(MineMinimize, XlsxCutsPartsThenTags) {
  const std::string input = workbook();
  std::vector<std::string> cuts;
  UnitCut cut;
  for (std::size_t k = 0; unit_cut("xlsx", input, k, cut); ++k) cuts.push_back(cut.what + " " + std::to_string(cut.units));
  EXPECT_EQ(cuts, (std::vector<std::string>{"parts 3", "elements of [Content_Types].xml at depth 1 1",
                                            "elements of xl/workbook.xml at depth 1 1", "elements of xl/workbook.xml at depth 2 1",
                                            "elements of xl/worksheets/sheet1.xml at depth 1 1",
                                            "elements of xl/worksheets/sheet1.xml at depth 2 1",
                                            "elements of xl/worksheets/sheet1.xml at depth 3 2",
                                            "elements of xl/worksheets/sheet1.xml at depth 4 2"}));
  // Leaving out an element keeps the others whole.
  UnitCut cells;
  ASSERT_TRUE(unit_cut("xlsx", input, 6, cells));
  const auto parts = read_zip(cells.build({false, true}));
  ASSERT_TRUE(parts);
  EXPECT_EQ((*parts)[2].data, "<worksheet><sheetData><row r=\"1\"><c r=\"B1\"><v>2.5</v></c></row></sheetData></worksheet>");
}

}  // namespace
}  // namespace docconform::cli
