#include "conform_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "cli_util.h"
#include "conform_expectations.h"
#include "conform_report.h"
#include "golden_ledger.h"
#include "docconform/error.h"
#include "docconform/sha256.h"
#include "docconform/sst/strings_file.h"
#include "docconform/sst/xls.h"
#include "golden_ledger.h"
#include "phases.h"
#include "process_scan.h"
#include "run_timing.h"

namespace docconform::cli {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// A scratch repository with utf8 cases, a ledger, and shell adapters that behave badly on purpose.
class ConformRunner : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("docconform-runner-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    write(root_ / "conformance/cases/utf8/y_a.bin", "a");
    write(root_ / "conformance/cases/utf8/y_b.bin", "b");
    write(root_ / "conformance/cases/utf8/n_never.bin", "n");
    write(root_ / "conformance/cases/utf8/i_bytes.bin", "\xFF");
    const std::string dump_a = "docconform-dump utf8 1\nunits 1\ntext \"a\"\n";
    write(root_ / "golden/utf8.sha256",
          "# test\ny_a.bin  sha256:" + sha256_of(dump_a) + "\ny_b.bin  sha256:" +
              sha256_of("docconform-dump utf8 1\nunits 1\ntext \"b\"\n") + "\nn_never.bin  rejected\ni_bytes.bin  sha256:" +
              sha256_of("docconform-dump utf8 1\nunits 1\ntext \"\\u00FF\"\n") + "\n");
    write(root_ / "golden/utf8/y_a.bin.dump", dump_a);
    write(root_ / "golden/utf8/y_b.bin.dump", "docconform-dump utf8 1\nunits 1\ntext \"b\"\n");
    // A rejection explained at length: 20,000 bytes before the protocol's line.
    write(root_ / "verbose.sh", "head -c 20000 /dev/zero | tr '\\0' x >&2; echo >&2; echo 'error: format' >&2; exit 1\n");
    write(root_ / "always-a.sh", "printf 'docconform-dump utf8 1\\nunits 1\\ntext \"a\"\\n'\n");
    write(root_ / "crasher.sh", "kill -SEGV $$\n");
    write(root_ / "refuser.sh", "echo 'error: format' >&2; exit 1\n");
    // Adapter bugs: an uncaught exception exits 1 with a traceback (Python) or a stack (Node).
    write(root_ / "raiser.py", "import sys\nsys.stdout.write('docconform-dump')\nraise ValueError('adapter bug')\n");
    write(root_ / "thrower.js", "throw new TypeError('adapter bug');\n");
    write(root_ / "exit3.sh", "echo 'something broke' >&2; exit 3\n");
    // The whole golden dump of y_a.bin, then a failure: a dump is complete only on exit 0.
    write(root_ / "dump-then-reject.sh", "printf 'docconform-dump utf8 1\\nunits 1\\ntext \"a\"\\n'; echo 'error: format' >&2; exit 1\n");
    write(root_ / "dump-then-fail.sh", "printf 'docconform-dump utf8 1\\nunits 1\\ntext \"a\"\\n'; exit 70\n");
    write(root_ / "closer.sh", "exec >&- 2>&-; exec sleep 20\n");
    // Leaves a grandchild in its own session that would write `late` after a second.
    write(root_ / "escaper.sh", "setsid /bin/sh -c 'sleep 1; touch " + (root_ / "late").string() +
                                    "' </dev/null >/dev/null 2>&1 &\n/bin/sh " + (root_ / "always-a.sh").string() + "\n");
    write(root_ / "conformance/adapters/ADAPTERS.tsv",
          "reference\t*\treference\tgate\t-\tin-process\n"
          "always-a\tutf8\tthird-party\tnogate\t-\t/bin/sh {root}/always-a.sh {input}\n"
          "crasher\tutf8\tthird-party\tnogate\t-\t/bin/sh {root}/crasher.sh {input}\n"
          "sleeper\tutf8\tthird-party\tnogate\t-\t/bin/sleep 20\n"
          "refuser\tutf8\tthird-party\tgate\t-\t/bin/sh {root}/refuser.sh {input}\n"
          "closer\tutf8\tthird-party\tnogate\t-\t/bin/sh {root}/closer.sh {input}\n"
          "escaper\tutf8\tthird-party\tnogate\t-\t/bin/sh {root}/escaper.sh {input}\n"
          "absent\tutf8\tthird-party\tnogate\t/no/such/tool\t/no/such/tool {input}\n"
          "gated-absent\tutf8\tthird-party\tgate\t/no/such/tool\t/no/such/tool {input}\n"
          "raiser\tutf8\tthird-party\tnogate\t-\t/usr/bin/python3 {root}/raiser.py {input}\n"
          "thrower\tutf8\tthird-party\tnogate\tnode\tnode {root}/thrower.js {input}\n"
          "exit3\tutf8\tthird-party\tnogate\t-\t/bin/sh {root}/exit3.sh {input}\n"
          "verbose\tutf8\tthird-party\tnogate\t-\t/bin/sh {root}/verbose.sh {input}\n"
          "dump-then-reject\tutf8\tthird-party\tnogate\t-\t/bin/sh {root}/dump-then-reject.sh {input}\n"
          "dump-then-fail\tutf8\tthird-party\tnogate\t-\t/bin/sh {root}/dump-then-fail.sh {input}\n");
  }
  void TearDown() override { fs::remove_all(root_); }

  static std::string sha256_of(const std::string& text) { return sha256_hex(text); }

  RunOptions options(std::vector<std::string> impls) const {
    RunOptions options;
    options.root = root_.string();
    options.impls = std::move(impls);
    options.limits.timeout_s = 0.5;
    options.progress = false;
    return options;
  }
  RunReport run(std::vector<std::string> impls) { return run_conformance(options(std::move(impls))); }

  // Large cases made by a stand-in for the docconform binary that logs every generation:
  // `write TEXT OUT` writes TEXT, `fail OUT` fails.
  RunOptions large_options(const std::string& recipe, const std::string& golden_text) {
    write(root_ / "generator.sh",
          "echo \"$@\" >> " + (root_ / "generations.log").string() +
              "\ncase $1 in write) printf %s \"$2\" > \"$3\";; *) echo 'no such recipe' >&2; exit 3;; esac\n");
    fs::permissions(root_ / "generator.sh", fs::perms::owner_all);
    write(root_ / "conformance/large/CASES.tsv",
          "# format case golden recipe what rule\nutf8\ty_large_text.bin\tsha256:" +
              sha256_of("docconform-dump utf8 1\nunits 1\ntext \"" + golden_text + "\"\n") + "\t" + recipe +
              "\tone generated text\ttest\n");
    RunOptions o = options({"reference", "always-a"});
    o.large = true;
    o.large_dir = (root_ / "large").string();
    o.docconform_binary = (root_ / "generator.sh").string();
    return o;
  }
  std::size_t generations() const {
    std::ifstream log(root_ / "generations.log");
    std::size_t lines = 0;
    for (std::string line; std::getline(log, line);) ++lines;
    return lines;
  }

  std::map<std::string, Status> statuses(const RunReport& report, const std::string& impl) {
    std::map<std::string, Status> by_case;
    for (const auto& r : report.results) {
      if (r.impl == impl) by_case[r.case_file->name] = r.status;
    }
    return by_case;
  }

  fs::path root_;
};


TEST_F(ConformRunner, ReferencePassesEveryVerdictKind) {
  const RunReport report = run({"reference"});
  // n_never.bin is plain bytes, which the utf8 reference accepts: that must be flagged.
  const auto s = statuses(report, "reference");
  EXPECT_EQ(s.at("y_a.bin"), Status::pass);
  EXPECT_EQ(s.at("y_b.bin"), Status::pass);
  EXPECT_EQ(s.at("i_bytes.bin"), Status::accepted);
  EXPECT_EQ(s.at("n_never.bin"), Status::accepted_must_reject);
  EXPECT_TRUE(report.gate_failed());
}

TEST_F(ConformRunner, ClassifiesWrongResultsCrashesAndTimeouts) {
  const RunReport report = run({"always-a", "crasher", "sleeper"});
  const auto a = statuses(report, "always-a");
  EXPECT_EQ(a.at("y_a.bin"), Status::pass);
  EXPECT_EQ(a.at("y_b.bin"), Status::wrong_result);
  EXPECT_EQ(a.at("n_never.bin"), Status::accepted_must_reject);
  EXPECT_EQ(statuses(report, "crasher").at("y_a.bin"), Status::adapter_failure);
  EXPECT_EQ(statuses(report, "sleeper").at("y_a.bin"), Status::timeout);
  // None of them is gated: their departures are reported only, but an adapter failure fails the run.
  const auto causes = report.gate_failures();
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_NE(causes[0].find("4 adapter failures"), std::string::npos) << causes[0];
  EXPECT_FALSE(run({"always-a", "sleeper"}).gate_failed());
}

TEST_F(ConformRunner, UncaughtExceptionOrUnknownExitIsAnAdapterFailureNotARejection) {
  RunOptions o = options({"raiser", "thrower", "exit3"});
  o.limits.timeout_s = 30;  // interpreters start slowly on a busy machine
  const RunReport report = run_conformance(o);
  for (const char* impl : {"raiser", "thrower", "exit3"}) {
    for (const auto& [name, status] : statuses(report, impl)) EXPECT_EQ(status, Status::adapter_failure) << impl << " " << name;
  }
  for (const auto& r : report.results) {
    EXPECT_EQ(r.outcome, Outcome::failed);
    if (r.impl == "raiser") {
      EXPECT_NE(r.detail.find("exit 1 without `error: <class>`"), std::string::npos) << r.detail;
    }
    if (r.impl == "exit3") {
      EXPECT_NE(r.detail.find("exit 3"), std::string::npos) << r.detail;
    }
  }
  EXPECT_TRUE(report.gate_failed());
}

TEST_F(ConformRunner, OutputOfAFailedRunIsNeverTakenAsADump) {
  const RunReport report = run({"dump-then-reject", "dump-then-fail"});
  EXPECT_EQ(statuses(report, "dump-then-reject").at("y_a.bin"), Status::rejected_must_accept);
  EXPECT_EQ(statuses(report, "dump-then-reject").at("n_never.bin"), Status::rejected_as_expected);
  for (const auto& [name, status] : statuses(report, "dump-then-fail")) EXPECT_EQ(status, Status::adapter_failure) << name;
  for (const auto& r : report.results) {
    if (r.impl == "dump-then-reject") {
      EXPECT_EQ(r.digest, "rejected") << r.case_file->name;
    }
    if (r.case_file->name == "y_a.bin") {
      EXPECT_FALSE(r.golden_match) << r.impl;  // its whole golden dump was printed
    }
  }
}

TEST_F(ConformRunner, FiltersThatSelectNothingAreUsageErrors) {
  RunOptions o = options({"reference"});
  o.formats = {"nope"};
  EXPECT_THROW(run_conformance(o), Error);
  o.formats = {};
  o.case_glob = "utf8/typo*";
  try {
    run_conformance(o);
    FAIL() << "a glob matching no case must stop the run";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no case selected"), std::string::npos) << e.what();
  }
}

TEST_F(ConformRunner, GatedImplementationSkippedFailsTheRunUnlessAllowed) {
  const RunReport ungated = run({"absent", "reference"});
  EXPECT_FALSE(ungated.skipped[0].fails_gate);
  RunOptions o = options({"gated-absent", "always-a"});
  const RunReport report = run_conformance(o);
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_TRUE(report.skipped[0].fails_gate);
  ASSERT_EQ(report.gate_failures().size(), 1u);
  EXPECT_NE(report.gate_failures()[0].find("gated-absent skipped: requires /no/such/tool"), std::string::npos);
  o.allow_skip = {"gated-absent"};
  EXPECT_FALSE(run_conformance(o).gate_failed());
}

TEST_F(ConformRunner, AdaptersAndExpectationsFromTheUsersDirectories) {
  const fs::path mine = root_ / "elsewhere";
  write(mine / "mine.sh", "printf 'docconform-dump utf8 1\\nunits 1\\ntext \"a\"\\n'\n");
  write(mine / "adapters.tsv", "mine\tutf8\tthird-party\tgate\t{dir}/mine.sh\t/bin/sh {dir}/mine.sh {input}\n");
  RunOptions o = options({"mine"});
  o.adapter_files = {(mine / "adapters.tsv").string()};
  o.case_glob = "utf8/y_*";
  RunReport report = run_conformance(o);
  EXPECT_EQ(statuses(report, "mine").at("y_a.bin"), Status::pass);
  EXPECT_EQ(statuses(report, "mine").at("y_b.bin"), Status::wrong_result);
  EXPECT_TRUE(report.gate_failed());
  write(mine / "expectations/mine.tsv", draft_expectations(report_json(report), "run.json", ""));
  EXPECT_NE(read_file((mine / "expectations/mine.tsv").string()).find("utf8/y_b.bin\twrong_result\tTODO: why mine gives wrong_result\n"),
            std::string::npos);
  o.expectation_dirs = {(mine / "expectations").string()};
  report = run_conformance(o);
  EXPECT_FALSE(report.gate_failed());
  EXPECT_EQ(report.results[1].outcome, Outcome::recorded);
  // A name the suite already declares is refused.
  write(mine / "clash.tsv", "always-a\tutf8\tthird-party\tnogate\t-\t/bin/true\n");
  o.adapter_files = {(mine / "clash.tsv").string()};
  EXPECT_THROW(run_conformance(o), Error);
}

TEST_F(ConformRunner, EveryWrongResultCarriesItsDiffInEveryReport) {
  const RunReport report = run({"always-a"});  // ungated: its departures fail nothing, and still show
  const auto wrong = std::find_if(report.results.begin(), report.results.end(),
                                  [](const Result& r) { return r.case_file->name == "y_b.bin"; });
  ASSERT_NE(wrong, report.results.end());
  EXPECT_EQ(wrong->diff,
            "--- golden/utf8/y_b.bin.dump\n+++ always-a\n@@ -1,3 +1,3 @@\n docconform-dump utf8 1\n units 1\n-text \"b\"\n+text \"a\"\n");
  const std::string json = report_json(report);
  EXPECT_NE(json.find("\"diff\": \"--- golden/utf8/y_b.bin.dump\\n+++ always-a\\n"), std::string::npos) << json;
  EXPECT_NE(report_junit(report).find("wrong_result\">--- golden/utf8/y_b.bin.dump\n+++ always-a\n"), std::string::npos);
  EXPECT_NE(report_markdown(report).find("<summary>always-a utf8/y_b.bin: wrong_result (departure)</summary>\n\n```diff\n--- golden"),
            std::string::npos);
  EXPECT_NE(report_html(report).find("<details class=\"evidence\" data-impl=\"always-a\" data-case=\"utf8/y_b.bin\">"),
            std::string::npos);
}

TEST_F(ConformRunner, RejectionsAndFailuresCarryTheirStderrBounded) {
  RunOptions o = options({"verbose", "exit3"});
  o.limits.timeout_s = 30;
  const RunReport report = run_conformance(o);
  for (const auto& r : report.results) {
    if (r.impl == "exit3") {
      EXPECT_EQ(r.stderr_text, "something broke\n");
      continue;
    }
    EXPECT_EQ(r.stderr_text.size(), 2 * 4096 + std::string("\n[... 11823 bytes left out ...]\n").size()) << r.case_file->name;
    EXPECT_EQ(r.stderr_text.substr(0, 4), "xxxx");
    EXPECT_NE(r.stderr_text.find("[... 11823 bytes left out ...]"), std::string::npos);
    EXPECT_EQ(r.stderr_text.substr(r.stderr_text.size() - 16), "x\nerror: format\n");
  }
  EXPECT_NE(report_json(report).find("\"stderr\": \"something broke\\n\""), std::string::npos);
}

TEST(DumpDiff, OneHunkAroundTheDifferingLinesWithContext) {
  std::string golden;
  std::string actual;
  for (int i = 1; i <= 10; ++i) {
    golden += "line " + std::to_string(i) + "\n";
    actual += (i == 5 ? "inserted\n" : "") + std::string("line ") + std::to_string(i) + "\n";
  }
  EXPECT_EQ(dump_diff(golden, actual, "g", "a"),
            "--- g\n+++ a\n@@ -2,6 +2,7 @@\n line 2\n line 3\n line 4\n+inserted\n line 5\n line 6\n line 7\n");
  EXPECT_EQ(dump_diff(golden, golden, "g", "a"), "");
  std::string many;
  for (int i = 0; i < 100; ++i) many += "x\n";
  const std::string bounded = dump_diff("", many, "g", "a");
  EXPECT_NE(bounded.find("[60 more lines]"), std::string::npos) << bounded;
}

TEST_F(ConformRunner, JUnitAndSummaryCountWhatTheGateCounts) {
  write(root_ / "conformance/expectations/refuser.tsv", "utf8/y_a.bin\trejected_must_accept\tknown: refuses everything\n");
  const RunReport report = run({"always-a", "refuser"});
  // always-a (ungated): y_b wrong, n_never accepted: departures, reported as skipped.
  // refuser (gated): y_a recorded (skipped with its reason), y_b new (a failure).
  const std::string junit = report_junit(report);
  EXPECT_NE(junit.find("<testsuite name=\"always-a\" tests=\"4\" failures=\"0\" skipped=\"2\">"), std::string::npos) << junit;
  EXPECT_NE(junit.find("<testsuite name=\"refuser\" tests=\"4\" failures=\"1\" skipped=\"1\">"), std::string::npos) << junit;
  EXPECT_NE(junit.find("<skipped message=\"recorded rejected_must_accept: known: refuses everything\">stderr:\nerror: format\n</skipped>"),
            std::string::npos) << junit;
  EXPECT_NE(junit.find("<failure type=\"rejected_must_accept\" message=\"rejected_must_accept: error: format\""), std::string::npos) << junit;
  testing::internal::CaptureStdout();
  print_summary(report);
  const std::string summary = testing::internal::GetCapturedStdout();
  EXPECT_NE(summary.find("8 runs: 4 ok, 1 recorded, 2 departures (ungated, reported only), 1 failed"), std::string::npos) << summary;
  EXPECT_NE(summary.find("gate failed: 1 departures of gated implementations"), std::string::npos) << summary;
  const std::string json = report_json(report);
  EXPECT_NE(json.find("\"reason\": \"known: refuses everything\""), std::string::npos);
}

TEST_F(ConformRunner, AdapterThatClosesItsOutputsAndHangsIsATimeout) {
  const auto start = std::chrono::steady_clock::now();
  const RunReport report = run({"closer"});
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  for (const Result& r : report.results) {
    EXPECT_EQ(r.status, Status::timeout) << r.case_file->name;
    EXPECT_LT(r.seconds, 3.0);
    EXPECT_NE(r.detail.find("0.5 s"), std::string::npos) << r.detail;
  }
}

TEST_F(ConformRunner, ParallelRunsLeaveNoProcessBehind) {
  const std::string marker = "DOCCONFORM_RUNNER_MARKER=" + std::to_string(::getpid());
  ::setenv("DOCCONFORM_RUNNER_MARKER", marker.substr(marker.find('=') + 1).c_str(), 1);
  RunOptions o = options({"escaper", "always-a", "closer"});
  o.jobs = 4;
  const RunReport report = run_conformance(o);
  ::unsetenv("DOCCONFORM_RUNNER_MARKER");
  EXPECT_TRUE(processes_carrying(marker).empty());
  const auto escaper = statuses(report, "escaper");
  EXPECT_EQ(escaper.at("y_a.bin"), Status::pass);
  EXPECT_EQ(escaper.at("y_b.bin"), Status::wrong_result);
  EXPECT_EQ(statuses(report, "always-a").at("y_a.bin"), Status::pass);
  EXPECT_EQ(statuses(report, "closer").at("y_a.bin"), Status::timeout);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_FALSE(fs::exists(root_ / "late"));
}

TEST_F(ConformRunner, CaseReachedThroughASymlinkOutOfTheTreeIsRefused) {
  write(root_ / "elsewhere/secret.bin", "s");
  fs::create_symlink(root_ / "elsewhere/secret.bin", root_ / "conformance/cases/utf8/y_link.bin");
  try {
    run({"reference"});
    FAIL() << "a case outside the cases tree must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("y_link.bin"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("outside the cases tree"), std::string::npos) << e.what();
  }
  // A link within the tree is a case like any other.
  fs::remove(root_ / "conformance/cases/utf8/y_link.bin");
  fs::create_symlink(root_ / "conformance/cases/utf8/y_a.bin", root_ / "conformance/cases/utf8/i_link.bin");
  EXPECT_EQ(statuses(run({"reference"}), "reference").at("i_link.bin"), Status::accepted);
}

TEST_F(ConformRunner, WrongResultKeepsOnlyTheFirstBytesOfTheDumpForTheDiff) {
  RunOptions o = options({"always-a"});
  o.limits.kept_output_bytes = 30;  // "docconform-dump utf8 1\nunits " and no more
  const RunReport report = run_conformance(o);
  const auto it = std::find_if(report.results.begin(), report.results.end(),
                               [](const Result& r) { return r.case_file->name == "y_b.bin"; });
  ASSERT_NE(it, report.results.end());
  EXPECT_EQ(it->status, Status::wrong_result);
  // The kept bytes end inside a line that agrees with the golden dump's.
  EXPECT_EQ(it->diff, "the first 23 bytes of always-a agree with golden/utf8/y_b.bin.dump; the difference lies past them\n");
  // The digest still covers the whole dump.
  EXPECT_EQ(statuses(report, "always-a").at("y_a.bin"), Status::pass);
}

TEST(DumpDiff, OfACutDumpComparesOnlyItsCompleteLines) {
  const std::string golden = "head\nsame\nlast golden\n";
  EXPECT_EQ(dump_diff(golden, "head\nother\nla", "g", "a", true),
            "--- g\n+++ a\n@@ -1,2 +1,2 @@\n head\n-same\n+other\n[a kept only its first 11 bytes]\n");
  EXPECT_EQ(dump_diff(golden, "head\nsame\nla", "g", "a", true),
            "the first 10 bytes of a agree with g; the difference lies past them\n");
  EXPECT_EQ(dump_diff(golden, "head\nsame\n", "g", "a"), "--- g\n+++ a\n@@ -1,3 +1,2 @@\n head\n same\n-last golden\n");
}

TEST_F(ConformRunner, OutputPastTheLimitIsAnAdapterFailureNamingTheLimit) {
  RunOptions o = options({"always-a"});
  o.limits.max_output_bytes = 10;
  const RunReport report = run_conformance(o);
  for (const Result& r : report.results) {
    EXPECT_EQ(r.status, Status::adapter_failure);
    EXPECT_NE(r.detail.find("output limit"), std::string::npos) << r.detail;
    EXPECT_NE(r.detail.find("--max-output"), std::string::npos) << r.detail;
  }
}

TEST_F(ConformRunner, GatedImplementationFailsTheRunUnlessExpected) {
  const RunReport report = run({"refuser"});
  const auto s = statuses(report, "refuser");
  EXPECT_EQ(s.at("y_a.bin"), Status::rejected_must_accept);
  EXPECT_EQ(s.at("n_never.bin"), Status::rejected_as_expected);
  EXPECT_TRUE(report.gate_failed());

  write(root_ / "conformance/expectations/refuser.tsv",
        "utf8/y_a.bin\trejected_must_accept\tknown\nutf8/y_b.bin\trejected_must_accept\tknown\n");
  EXPECT_FALSE(run({"refuser"}).gate_failed());
}

TEST_F(ConformRunner, AdapterWithMissingRequirementIsSkippedWithTheReason) {
  const RunReport report = run({"absent", "reference"});
  ASSERT_EQ(report.skipped.size(), 1U);
  EXPECT_EQ(report.skipped[0].impl, "absent");
  EXPECT_EQ(report.skipped[0].requirement, "/no/such/tool");
}

TEST_F(ConformRunner, UnknownImplementationIsAUsageError) { EXPECT_THROW(run({"nobody"}), Error); }

TEST_F(ConformRunner, ReportsAgreeWithTheResults) {
  const RunReport report = run({"reference", "always-a"});
  const std::string json = report_json(report);
  EXPECT_NE(json.find("\"status\": \"wrong_result\""), std::string::npos);
  EXPECT_NE(json.find("\"verdict\": \"n\""), std::string::npos);
  const std::string junit = report_junit(report);
  EXPECT_NE(junit.find("<skipped message=\"departure of an ungated implementation: wrong_result\""), std::string::npos);
  const std::string html = report_html(report);
  EXPECT_NE(html.find("data-status=\"accepted_must_reject\""), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
}

TEST_F(ConformRunner, LargeCasesAreGeneratedOnceAndTimedAgainstTheReference) {
  const RunOptions o = large_options("write a {out}", "a");
  const RunReport first = run_conformance(o);
  const RunReport second = run_conformance(o);
  EXPECT_EQ(generations(), 1u);
  for (const RunReport* report : {&first, &second}) {
    const auto large = std::find_if(report->cases.begin(), report->cases.end(), [](const CaseFile& c) { return c.large; });
    ASSERT_NE(large, report->cases.end());
    EXPECT_EQ(large->path, (root_ / "large" / "y_large_text.bin").string());
    EXPECT_EQ(statuses(*report, "reference").at("y_large_text.bin"), Status::pass);
    EXPECT_EQ(statuses(*report, "always-a").at("y_large_text.bin"), Status::pass);
    EXPECT_EQ(report->results.back().case_file->name, "y_large_text.bin");  // after the small cases
  }
  const std::string json = report_json(first);
  EXPECT_NE(json.find("\"times_reference\": 1.0"), std::string::npos);
  EXPECT_NE(report_html(first).find("id=\"large-chart\""), std::string::npos);
  EXPECT_NE(report_markdown(first).find("| utf8/y_large_text.bin | always-a | pass |"), std::string::npos);
}

TEST_F(ConformRunner, LargeCaseIsRegeneratedWhenItsRecipeChanges) {
  run_conformance(large_options("write a {out}", "a"));
  const RunReport report = run_conformance(large_options("write b {out}", "b"));
  EXPECT_EQ(generations(), 2u);
  EXPECT_EQ(statuses(report, "reference").at("y_large_text.bin"), Status::pass);
  EXPECT_EQ(statuses(report, "always-a").at("y_large_text.bin"), Status::wrong_result);
}

TEST_F(ConformRunner, FailingRecipeIsAnErrorNamingTheCaseAndLeavesNoFile) {
  try {
    run_conformance(large_options("fail {out}", "a"));
    FAIL() << "a failing recipe must stop the run";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("y_large_text.bin"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no such recipe"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(root_ / "large" / "y_large_text.bin"));
}

// Phase timings (conformance/SPEC.md section 2): an sstw case, adapters that report phases well
// and badly, and a large sstw case whose phases are compared with the reference's.
class ConformPhases : public ConformRunner {
 protected:
  void SetUp() override {
    ConformRunner::SetUp();
    const std::string dump = sst::written_sst_dump("\"a\"\n\"b\"\n");
    write(root_ / "conformance/cases/sstw/y_two.jsonl", "\"a\"\n\"b\"\n");
    write(root_ / "golden/sstw.sha256", "y_two.jsonl  sha256:" + sha256_of(dump) + "\n");
    write(root_ / "two.dump", dump);
    // Each run logs whether it was asked for phases.
    const std::string log = "echo \"${DOCCONFORM_PHASES:-none}\" >> " + (root_ / "runs.log").string() + "\n";
    write(root_ / "timer.sh", log + "cat " + (root_ / "two.dump").string() +
                                  "\n[ -n \"$DOCCONFORM_PHASES\" ] && echo 'sst_serialize 0.002 40' >> \"$DOCCONFORM_PHASES\"\nexit 0\n");
    write(root_ / "garbler.sh", "cat " + (root_ / "two.dump").string() +
                                    "\n[ -n \"$DOCCONFORM_PHASES\" ] && echo 'sst_serialize fast 40' >> \"$DOCCONFORM_PHASES\"\nexit 0\n");
    write(root_ / "flipper.sh", "cat " + (root_ / "two.dump").string() + "\n[ -n \"$DOCCONFORM_PHASES\" ] && echo extra\nexit 0\n");
    write(root_ / "conformance/adapters/ADAPTERS.tsv",
          "reference\t*\treference\tgate\t-\tin-process\n"
          "timer\tsstw\tthird-party\tnogate\t-\t/bin/sh {root}/timer.sh {input}\n"
          "garbler\tsstw\tthird-party\tnogate\t-\t/bin/sh {root}/garbler.sh {input}\n"
          "flipper\tsstw\tthird-party\tnogate\t-\t/bin/sh {root}/flipper.sh {input}\n"
          "always-a\tutf8\tthird-party\tnogate\t-\t/bin/sh {root}/always-a.sh {input}\n");
  }

  static const Result& result_of(const RunReport& report, const std::string& impl, const std::string& name) {
    const auto it = std::find_if(report.results.begin(), report.results.end(),
                                 [&](const Result& r) { return r.impl == impl && r.case_file->name == name; });
    if (it == report.results.end()) throw std::runtime_error("no result for " + impl + " on " + name);
    return *it;
  }
};

TEST_F(ConformPhases, ComeFromASecondRunOfAnAcceptedCase) {
  RunOptions o = options({"reference", "timer", "always-a"});
  o.formats = {"sstw", "utf8"};
  const RunReport report = run_conformance(o);
  const Result& reference = result_of(report, "reference", "y_two.jsonl");
  EXPECT_EQ(reference.status, Status::pass);
  ASSERT_EQ(reference.phases.size(), 1u);
  EXPECT_EQ(reference.phases[0].name, "sst_serialize");
  EXPECT_EQ(reference.phases[0].bytes, sst::sst_bytes(sst::share_strings(sst::parse_strings_jsonl("\"a\"\n\"b\"\n")).table).size());
  const Result& timer = result_of(report, "timer", "y_two.jsonl");
  EXPECT_EQ(timer.status, Status::pass);
  ASSERT_EQ(timer.phases.size(), 1u);
  EXPECT_DOUBLE_EQ(timer.phases[0].seconds, 0.002);
  EXPECT_EQ(timer.phases[0].bytes, 40u);
  // The timed run is the first, without the phase file; the second has one, removed after.
  std::ifstream log(root_ / "runs.log");
  std::string first, second;
  std::getline(log, first);
  std::getline(log, second);
  EXPECT_EQ(first, "none");
  EXPECT_NE(second.find("docconform-phases-"), std::string::npos);
  EXPECT_FALSE(fs::exists(second));
  // Formats without phases are run once.
  EXPECT_TRUE(result_of(report, "always-a", "y_a.bin").phases.empty());
  EXPECT_NE(report_json(report).find("\"phase\": \"sst_serialize\""), std::string::npos);
}

TEST_F(ConformPhases, MalformedPhaseFileOrAnotherDumpIsACrash) {
  RunOptions o = options({"garbler", "flipper"});
  o.formats = {"sstw"};
  const RunReport report = run_conformance(o);
  const Result& garbler = result_of(report, "garbler", "y_two.jsonl");
  EXPECT_EQ(garbler.status, Status::crash);
  EXPECT_NE(garbler.detail.find("phase run: "), std::string::npos) << garbler.detail;
  EXPECT_NE(garbler.detail.find("line 1"), std::string::npos) << garbler.detail;
  const Result& flipper = result_of(report, "flipper", "y_two.jsonl");
  EXPECT_EQ(flipper.status, Status::crash);
  EXPECT_NE(flipper.detail.find("a different dump"), std::string::npos) << flipper.detail;
}

TEST_F(ConformPhases, LargeCaseTableComparesEachPhaseWithTheReferences) {
  RunOptions o = options({"reference", "timer"});
  o.formats = {"sstw"};
  write(root_ / "generator.sh", "printf '\"a\"\\n' > \"$2\"\n");
  fs::permissions(root_ / "generator.sh", fs::perms::owner_all);
  write(root_ / "conformance/large/CASES.tsv",
        "sstw\ty_large_a.jsonl\tsha256:" + sha256_of(sst::written_sst_dump("\"a\"\n")) + "\tone {out}\tone string\ttest\n");
  o.large = true;
  o.large_dir = (root_ / "large").string();
  o.docconform_binary = (root_ / "generator.sh").string();
  const RunReport report = run_conformance(o);
  const Result& reference = result_of(report, "reference", "y_large_a.jsonl");
  ASSERT_EQ(reference.phases.size(), 1u);
  const std::string json = report_json(report);
  const auto at = json.find("\"large_phases\"");
  ASSERT_NE(at, std::string::npos);
  EXPECT_NE(json.find("\"impl\": \"timer\"", at), std::string::npos);
  const std::string md = report_markdown(report);
  EXPECT_NE(md.find("| sstw/y_large_a.jsonl | sst_serialize | timer | 0.0020 | 40 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| sstw/y_large_a.jsonl | sst_serialize | reference |"), std::string::npos) << md;
  EXPECT_NE(report_html(report).find("<table id=\"phases\">"), std::string::npos);
}

TEST(PhaseFile, ReadsWhatIsAppendedAndNamesABadLine) {
  const std::string path = (fs::temp_directory_path() / ("docconform-phase-file-" + std::to_string(::getpid()))).string();
  fs::remove(path);
  const std::string digest(64, 'a');
  append_phase_file(path, {{"sst_serialize", 0.25, 1000, ""}});
  append_phase_file(path, {{"inflate", 1.5, 7, digest}});
  const PhaseLog phases = read_phase_file(path);
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[1].name, "inflate");
  EXPECT_EQ(phases[1].sha256, digest);
  EXPECT_EQ(phases[0].sha256, "");
  EXPECT_DOUBLE_EQ(phases[0].seconds, 0.25);
  EXPECT_EQ(phases[0].bytes, 1000u);
  EXPECT_EQ(find_phase(phases, "inflate"), &phases[1]);
  EXPECT_EQ(find_phase(phases, "deflate"), nullptr);
  for (const char* bad : {"sst_serialize 0.1\n", "Bad-Name 0.1 5\n", "x -1 5\n", "x 0.1 -5\n", "x nan 5\n", "x 0.1 5 6\n",
                          "x 0.1 5 sha256:ABC\n", "x 0.1 5 md5:0123\n"}) {
    std::ofstream(path) << "ok 0.1 5\n" << bad;
    try {
      read_phase_file(path);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    }
  }
  fs::remove(path);
}

TEST(TimeRuns, RunsAtLeastTheCountThenUntilTheSecondsUpToTheCap) {
  const auto calls = [](Repeats repeats, std::chrono::microseconds each) {
    int n = 0;
    time_runs(repeats, [] {}, [&] {
      ++n;
      std::this_thread::sleep_for(each);
    });
    return n - 1;  // the untimed warm-up aside
  };
  EXPECT_EQ(calls({3, 0}, std::chrono::microseconds(0)), 3);
  EXPECT_EQ(calls({3, 0.001}, std::chrono::microseconds(2000)), 3);  // the count already took longer
  // Each run sleeps at least 1 ms: 20 ms of runs stop after at most 20 of them.
  const int until_seconds = calls({3, 0.02}, std::chrono::microseconds(1000));
  EXPECT_GE(until_seconds, 3);
  EXPECT_LE(until_seconds, 20);
  EXPECT_EQ(calls({2, 100.0, 6}, std::chrono::microseconds(0)), 6);
}

}  // namespace
}  // namespace docconform::cli
