#!/usr/bin/python3
"""`docconform conform run` as a user runs it, on a scratch suite with the fake adapters of
fake_adapters/: the gate fails safe (filters that select nothing, unknown or skipped gated
implementations, adapter failures) and its counts agree with the exit status and the JUnit report.

Usage: conform_cli.py DOCCONFORM gate|byo|shards|page|consensus|batch, or conform_cli.py DOCCONFORM installed BUILD_DIR
shards: two shards (--shard K/N) merged by `conform merge` give the results, the reports and the
exit status of one whole run; shards of different runs, given twice or missing are refused.
page: the results page of a run with recorded and new departures and a matrix wider than a
1400-pixel window, checked in headless Chromium by conformance/check_matrix_page.py (exit 77
without chromium).
byo: an implementation of the user's own, from a directory outside the suite: its adapter given by
--adapters (found through {dir}), its departure failing the run, an expectations file drafted
from the JSON report, and a rerun with --expectations that passes with the departure skipped.
installed: `cmake --install BUILD_DIR` to a scratch prefix, then, from a directory with no checkout,
the installed reference over the installed cases, and byo over the installed suite.
Prints a closing 'N passed, N failed' line; exits 1 on any failure.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FAKES = os.path.join(HERE, "fake_adapters")

checks = 0
failures = []


def check(condition, message):
    global checks
    checks += 1
    if not condition:
        failures.append(message)
        print("FAIL: " + message)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_suite(docconform, root):
    """Two utf8 cases with their golden digests and dumps, and an adapter manifest."""
    write(os.path.join(root, "conformance", "SPEC.md"), "# scratch suite\n")
    ledger = "# scratch suite\n"
    for name, text in (("y_a.bin", "a"), ("y_b.bin", "b")):
        case = os.path.join(root, "conformance", "cases", "utf8", name)
        write(case, text)
        dump = subprocess.run([docconform, "dump", "utf8", case], check=True, capture_output=True).stdout
        write(os.path.join(root, "golden", "utf8", name + ".dump"), dump.decode())
        ledger += "%s  sha256:%s\n" % (name, hashlib.sha256(dump).hexdigest())
    write(os.path.join(root, "golden", "utf8.sha256"), ledger)
    write(os.path.join(root, "conformance", "adapters", "ADAPTERS.tsv"),
          "reference\t*\treference\tgate\t-\tin-process\n"
          "wrong-ungated\tutf8\tthird-party\tnogate\t-\t/bin/sh %s/wrong_one.sh {docconform} {input} y_b.bin\n"
          "gated-missing\tutf8\tthird-party\tgate\t/no/such/tool\t/no/such/tool {input}\n"
          "raiser\tutf8\tthird-party\tnogate\t-\t/usr/bin/python3 %s/raiser.py {input}\n"
          "thrower\tutf8\tthird-party\tnogate\tnode\tnode %s/thrower.cjs {input}\n" % (FAKES, FAKES, FAKES))


# Sanitized builds reserve terabytes of address space, so their adapters (the fake ones call the
# CLI) run without the runner's address-space cap: ctest sets this to 0 there.
MEMORY_ARGS = ("--memory-mb", os.environ["CONFORM_CLI_MEMORY_MB"]) if "CONFORM_CLI_MEMORY_MB" in os.environ else ()


def run(docconform, root, *args, cwd=None, env=None):
    return subprocess.run([docconform, "conform", "run", "--root", root, "--no-progress", *MEMORY_ARGS, *args],
                          capture_output=True, text=True, cwd=cwd, env=env)


def gate(docconform, root, out):
    for args, cause in ((["--format", "nope"], "no case selected (--format/--cases match none): the formats are utf8, pdf,"),
                        (["--cases", "utf8/typo*"], "no case selected"),
                        (["--impl", "nope"], "no adapter named nope")):
        p = run(docconform, root, *args)
        check(p.returncode != 0, "%s: exit %d, want non-zero" % (args, p.returncode))
        check(cause in p.stderr, "%s: stderr %r does not name the cause %r" % (args, p.stderr, cause))

    junit = os.path.join(out, "skipped.xml")
    p = run(docconform, root, "--impl", "reference", "--impl", "gated-missing", "--junit", junit)
    check(p.returncode != 0, "gated implementation skipped: exit %d, want non-zero" % p.returncode)
    check("gated implementation gated-missing skipped: requires /no/such/tool" in p.stdout, "skip not named: " + p.stdout)
    check('<testsuite name="gated-missing" tests="1" failures="1" skipped="0">' in open(junit).read() and
          'message="gated implementation skipped: requires /no/such/tool (--allow-skip gated-missing to accept)"' in open(junit).read(),
          "JUnit does not fail the skipped gated implementation: " + open(junit).read())
    # An implementation that reads none of the selected cases' formats has nothing to miss.
    manifest = os.path.join(out, "pdf-missing.tsv")
    write(manifest, "pdf-missing\tpdf\tthird-party\tgate\t/no/such/tool\t/no/such/tool {input}\n")
    p = run(docconform, root, "--adapters", manifest, "--impl", "reference", "--impl", "pdf-missing")
    check(p.returncode == 0 and "pdf-missing" not in p.stdout, "a gated pdf reader missing, utf8 cases: %d %s" % (p.returncode, p.stdout))
    p = run(docconform, root, "--impl", "gated-missing")
    check(p.returncode == 64 and "skipped: gated-missing (requires /no/such/tool)" in p.stderr,
          "only a skipped implementation: exit %d, %s" % (p.returncode, p.stderr))
    p = run(docconform, root, "--impl", "reference", "--impl", "gated-missing", "--allow-skip", "gated-missing")
    check(p.returncode == 0, "--allow-skip: exit %d, want 0: %s" % (p.returncode, p.stdout))

    impls = ["raiser"] + (["thrower"] if shutil.which("node") else [])
    for impl in impls:
        report = os.path.join(out, impl + ".json")
        p = run(docconform, root, "--impl", impl, "--json", report)
        check(p.returncode != 0, "%s (uncaught exception): exit %d, want non-zero" % (impl, p.returncode))
        statuses = {r["status"] for r in json.load(open(report))["results"]}
        check(statuses == {"adapter_failure"}, "%s: statuses %s, want adapter_failure only" % (impl, statuses))
        check("adapter failures" in p.stdout, "%s: the cause is not named: %s" % (impl, p.stdout))

    # Departures of an ungated implementation are reported and do not fail the run; the summary
    # line, the exit status and JUnit agree.
    junit = os.path.join(out, "ungated.xml")
    p = run(docconform, root, "--impl", "reference", "--impl", "wrong-ungated", "--junit", junit)
    check(p.returncode == 0, "ungated departure: exit %d, want 0: %s" % (p.returncode, p.stdout))
    check(re.search(r"4 runs: 3 ok, 0 recorded, 1 departures \(ungated, reported only\), 0 failed\n", p.stdout) is not None,
          "summary line: " + p.stdout)
    xml = open(junit).read()
    check(re.search(r'failures="[1-9]', xml) is None, "JUnit counts failures while the run passes: " + xml)
    check('<skipped message="departure of an ungated implementation: wrong_result"' in xml, "JUnit: " + xml)

    # A report that cannot be written is an error before the run, not after it.
    nowhere = os.path.join(out, "no-such-dir", "r.json")
    p = run(docconform, root, "--impl", "reference", "--json", nowhere)
    check(p.returncode == 74 and nowhere in p.stderr and "gate" not in p.stdout,
          "unwritable report: exit %d, stdout %r, stderr %r" % (p.returncode, p.stdout, p.stderr))
    # So is a temporary directory that is not one (the adapters' phase files go there).
    bad_tmp = os.path.join(out, "no-such-tmp")
    p = run(docconform, root, "--impl", "reference", env=dict(os.environ, TMPDIR=bad_tmp))
    check(p.returncode == 74 and bad_tmp + ": io error: the temporary directory" in p.stderr and "gate" not in p.stdout,
          "bad $TMPDIR: exit %d, stdout %r, stderr %r" % (p.returncode, p.stdout, p.stderr))
    # So is a directory given as a report; and reports are put in place together: one that
    # cannot be written leaves the others as they were.
    p = run(docconform, root, "--impl", "reference", "--json", out)
    check(p.returncode == 74 and out + ": io error: is a directory" in p.stderr and "gate" not in p.stdout,
          "directory as report: exit %d, stdout %r, stderr %r" % (p.returncode, p.stdout, p.stderr))
    old_json, old_md = os.path.join(out, "old.json"), os.path.join(out, "old.md")
    write(old_json, "old")
    write(old_md, "old")
    p = run(docconform, root, "--impl", "reference", "--json", old_json, "--markdown", old_md, "--junit", "/dev/full")
    check(p.returncode == 74 and open(old_json).read() == "old" and open(old_md).read() == "old",
          "reports not put in place together: exit %d, stderr %r" % (p.returncode, p.stderr))

    # A recorded departure that no longer happens fails, saying the entry is out of date.
    stale = os.path.join(out, "stale")
    write(os.path.join(stale, "reference.tsv"), "utf8/y_a.bin\twrong_result\tonce wrong\n")
    report = os.path.join(out, "stale.json")
    p = run(docconform, root, "--impl", "reference", "--expectations", stale, "--json", report)
    details = [r["detail"] for r in json.load(open(report))["results"] if r["outcome"] == "failed"]
    check(p.returncode == 1 and details == ["the expectations record wrong_result: bring the entry up to date"],
          "stale expectation: exit %d, %s" % (p.returncode, details))

    # An expectation line that could match nothing is an error naming it, not a line ignored.
    for line, cause in (("utf8/y_gone.bin\twrong_result\tonce\n", "line 1: format error: the suite has no case utf8/y_gone.bin"),
                        ("utf8/y_a.bin\twrong-result\tonce\n", "line 1: format error: `wrong-result` is not a status of the runner"),
                        ("utf8/y_a.bin\n", "line 1: format error: expected <format>/<case>, its status and why")):
        write(os.path.join(stale, "reference.tsv"), line)
        p = run(docconform, root, "--impl", "reference", "--expectations", stale)
        check(p.returncode == 1 and "reference.tsv: " + cause in p.stderr, "expectation %r: exit %d, %s" % (line, p.returncode, p.stderr))

    # A typo in a manifest's columns is an error naming the line, not a quietly ungated adapter.
    for line, cause in (("typo\tutf8\tthird-party\tGate\t-\t/bin/true\n", "gate `Gate` is neither gate nor nogate"),
                        ("typo\tutf8\tthirdparty\tgate\t-\t/bin/true\n", "kind `thirdparty` is none of"),
                        ("typo\tutf-8\tthird-party\tgate\t-\t/bin/true\n", "format `utf-8` is none of utf8,")):
        manifest = os.path.join(out, "typo.tsv")
        write(manifest, "# a typo\n" + line)
        p = run(docconform, root, "--adapters", manifest, "--impl", "typo")
        check(p.returncode != 0 and "typo.tsv: line 2: format error: " + cause in p.stderr,
              "typo %r: exit %d, stderr %r" % (line, p.returncode, p.stderr))

    # An adapter that exits 0 prints a dump: nothing, or anything that does not start with the
    # format's header line, is an adapter failure, on an i_ case as on a y_ case; so is a command
    # that cannot start, whose reason the report shows.
    write(os.path.join(root, "conformance", "cases", "utf8", "i_c.bin"), "c")
    manifest = os.path.join(out, "not-dumps.tsv")
    write(manifest, "silent\tutf8\tthird-party\tnogate\t-\t/bin/true {input}\n"
                    "garbage\tutf8\tthird-party\tnogate\t-\t/bin/echo not-a-dump {input}\n"
                    "absent\tutf8\tthird-party\tnogate\t-\t/no/such/program {input}\n")
    for impl, why in (("silent", "exit 0 with nothing on stdout (a dump starts `docconform-dump utf8 1`)"),
                      ("garbage", 'exit 0 without a dump: stdout starts "not-a-dump '),
                      ("absent", "exit 127: docconform: cannot run /no/such/program: No such file or directory")):
        report = os.path.join(out, impl + ".json")
        p = run(docconform, root, "--adapters", manifest, "--impl", impl, "--json", report)
        check(p.returncode != 0, "%s: exit %d, want non-zero" % (impl, p.returncode))
        results = json.load(open(report))["results"]
        check(sorted(r["case"] for r in results) == ["utf8/i_c.bin", "utf8/y_a.bin", "utf8/y_b.bin"], "%s: %s" % (impl, results))
        for r in results:
            check(r["status"] == "adapter_failure" and why in r["detail"], "%s: %s" % (impl, r))


def bring_your_own(docconform, root, out, wrong="utf8/y_b.bin", extra_args=(), cwd=None):
    """A gated adapter of the user's, wrong on one case, kept in its own directory."""
    mine = os.path.join(out, "mine")
    os.makedirs(mine)
    shutil.copy(os.path.join(FAKES, "wrong_one.sh"), mine)
    write(os.path.join(mine, "adapters.tsv"),
          "# an implementation of my own\nmine\tutf8\tthird-party\tgate\t{dir}/wrong_one.sh\t"
          "/bin/sh {dir}/wrong_one.sh {docconform} {input} %s\n" % os.path.basename(wrong))
    report, junit = os.path.join(out, "mine.json"), os.path.join(out, "mine.xml")
    base = ["--impl", "mine", "--adapters", os.path.join(mine, "adapters.tsv"), *extra_args]
    p = run(docconform, root, *base, "--json", report, "--junit", junit, cwd=cwd)
    check(p.returncode == 1, "a gated departure: exit %d, want 1: %s %s" % (p.returncode, p.stdout, p.stderr))
    results = {r["case"]: r for r in json.load(open(report))["results"]}
    failed = [r["case"] for r in results.values() if r["outcome"] == "failed"]
    check(failed == [wrong], "failed: %s, want %s only" % (failed, wrong))
    check('+text "not right"' in results[wrong]["diff"], "no diff in the JSON: %s" % results[wrong])
    check(re.search(r'<failure type="wrong_result"[^>]*>--- golden/%s.dump\n\+\+\+ mine\n.*\+text &quot;not right&quot;' % wrong,
                    open(junit).read(), re.S) is not None, "no diff in the JUnit failure: " + open(junit).read())
    draft = os.path.join(out, "expectations", "mine.tsv")
    os.makedirs(os.path.dirname(draft))
    p = subprocess.run([docconform, "conform", "expectations", "--from", report, "--output", draft],
                       capture_output=True, text=True, cwd=cwd)
    check(p.returncode == 0, "expectations --from: exit %d: %s" % (p.returncode, p.stderr))
    lines = [line for line in open(draft).read().splitlines() if not line.startswith("#")]
    check(lines == [wrong + "\twrong_result\tTODO: why mine gives wrong_result"], "drafted %s" % lines)
    text = open(draft).read().replace("TODO: why mine gives wrong_result", "mine appends a line")
    write(draft, text)
    p = run(docconform, root, *base, "--expectations", os.path.dirname(draft), "--junit", junit, cwd=cwd)
    check(p.returncode == 0, "rerun with --expectations: exit %d, want 0: %s %s" % (p.returncode, p.stdout, p.stderr))
    xml = open(junit).read()
    check('<skipped message="recorded wrong_result: mine appends a line"' in xml,
          "JUnit does not skip the recorded case with its reason: " + xml)
    return report, junit


# What differs between two runs of the same pairs: times, and the metadata of where they ran.
TIMES = re.compile(r"\d+\.\d+(e-?\d+)?")


def normalised_json(path):
    report = json.load(open(path))
    report.pop("runs")
    report.pop("speed", None)
    for r in report["results"]:
        r.pop("seconds")
    for r in report["large"]:
        r.pop("seconds"), r.pop("times_reference")
    return report


def normalised_text(path):
    text = open(path).read()
    text = re.sub(r"<section id=\"run\">.*?</section>", "", text, flags=re.S)
    text = re.sub(r"<svg .*?</svg>", "", text, flags=re.S)
    text = re.sub(r"\n## Run\n.*?(?=\n## )", "", text, flags=re.S)
    return TIMES.sub("T", text)


def shards(docconform, root, out):
    impls = ["--impl", "reference", "--impl", "wrong-ungated", "--impl", "raiser"]
    reports = ("json", "junit", "markdown", "html")

    def outputs(name):
        paths = {kind: os.path.join(out, "%s.%s" % (name, kind)) for kind in reports}
        return paths, [arg for kind in reports for arg in ("--" + kind, paths[kind])]

    whole, whole_args = outputs("whole")
    p = run(docconform, root, *impls, *whole_args)
    check(p.returncode == 1, "whole run (an adapter failure): exit %d, want 1: %s" % (p.returncode, p.stderr))
    parts = [os.path.join(out, "shard%d.json" % k) for k in (1, 2)]
    for k, part in enumerate(parts, start=1):
        p = run(docconform, root, *impls, "--shard", "%d/2" % k, "--json", part)
        check(p.returncode in (0, 1), "shard %d/2: exit %d: %s" % (k, p.returncode, p.stderr))
    pairs = [{(r["case"], r["impl"]) for r in json.load(open(part))["results"]} for part in parts]
    check(len(pairs[0]) == 3 and len(pairs[1]) == 3 and not pairs[0] & pairs[1], "shards' pairs: %s" % pairs)

    merged, merged_args = outputs("merged")
    p = subprocess.run([docconform, "conform", "merge", *parts, *merged_args], capture_output=True, text=True)
    check(p.returncode == 1, "merge: exit %d, want 1 as the whole run: %s %s" % (p.returncode, p.stdout, p.stderr))
    check("gate failed: 2 adapter failures" in p.stdout, "merge summary: " + p.stdout)
    verdicts = lambda path: {(r["case"], r["impl"], r["verdict"], r["status"]) for r in json.load(open(path))["results"]}
    check(verdicts(merged["json"]) == verdicts(whole["json"]) and len(verdicts(whole["json"])) == 6,
          "merged (case, impl, verdict, status) differ from the whole run's")
    check(normalised_json(merged["json"]) == normalised_json(whole["json"]), "merged JSON differs from the whole run's")
    runs = json.load(open(merged["json"]))["runs"]
    check([r["shard"] for r in runs] == [{"index": 1, "count": 2}, {"index": 2, "count": 2}], "merged runs: %s" % runs)
    for kind in ("junit", "markdown", "html"):
        check(normalised_text(merged[kind]) == normalised_text(whole[kind]), "merged %s differs from the whole run's" % kind)

    # The shards do not depend on the order of the manifest's lines.
    manifest = os.path.join(root, "conformance", "adapters", "ADAPTERS.tsv")
    lines = open(manifest).read().splitlines(True)
    write(manifest, "".join(reversed(lines)))
    reordered = os.path.join(out, "reordered.json")
    run(docconform, root, *impls, "--shard", "1/2", "--json", reordered)
    check({(r["case"], r["impl"]) for r in json.load(open(reordered))["results"]} == pairs[0], "shard 1/2 moved with the manifest's order")
    write(manifest, "".join(lines))

    other = os.path.join(out, "other.json")
    run(docconform, root, *impls, "--cases", "utf8/y_a*", "--shard", "2/2", "--json", other)
    third = os.path.join(out, "third.json")
    run(docconform, root, *impls, "--shard", "1/3", "--json", third)
    for files, cause in (([parts[0], parts[0]], "shard 1/2 again: " + parts[0]),
                         ([parts[0]], "shard 2/2 is missing"),
                         ([parts[0], other], other + ": usage error: not a shard of the same run as " + parts[0] + ": its cases differ"),
                         ([parts[0], third], third + ": usage error: not a shard of the same run as " + parts[0] + ": its shards differ")):
        p = subprocess.run([docconform, "conform", "merge", *files], capture_output=True, text=True)
        check(p.returncode == 64 and cause in p.stderr, "merge %s: exit %d, stderr %r, want 64 naming %r" %
              ([os.path.basename(f) for f in files], p.returncode, p.stderr, cause))
    for bad in ("0/2", "3/2", "2", "a/b"):
        p = run(docconform, root, *impls, "--shard", bad)
        check(p.returncode == 64 and "K/N" in p.stderr, "--shard %s: exit %d: %s" % (bad, p.returncode, p.stderr))


def page(docconform, root, out):
    if not shutil.which("chromium"):
        print("chromium not installed: skipped")
        sys.exit(77)
    mine = os.path.join(out, "mine")
    shutil.copy(os.path.join(FAKES, "wrong_one.sh"), out)
    lines = ["# recorded (its expectations say why) and new departures, and many columns\n"]
    wrong = "\t/bin/sh {dir}/wrong_one.sh {docconform} {input} y_b.bin\t/bin/echo 1.0-fake\n"
    lines.append("mine-recorded\tutf8\tthird-party\tgate\t-" + wrong)
    lines.append("mine-new\tutf8\tthird-party\tgate\t-" + wrong)
    lines += ["wide-implementation-%02d\tutf8\tthird-party\tnogate\t-%s" % (i, wrong) for i in range(20)]
    write(os.path.join(out, "adapters.tsv"), "".join(lines))
    write(os.path.join(mine, "mine-recorded.tsv"), "utf8/y_b.bin\twrong_result\tappends a line on purpose\n")
    report, html = os.path.join(out, "page.json"), os.path.join(out, "page.html")
    p = run(docconform, root, "--adapters", os.path.join(out, "adapters.tsv"), "--expectations", mine,
            "--impl", "reference", "--impl", "mine-recorded", "--impl", "mine-new",
            *[a for i in range(20) for a in ("--impl", "wide-implementation-%02d" % i)], "--json", report, "--html", html)
    check(p.returncode == 1, "the run with a new departure: exit %d: %s %s" % (p.returncode, p.stdout[-500:], p.stderr))
    outcomes = {(r["impl"], r["outcome"]) for r in json.load(open(report))["results"] if r["case"] == "utf8/y_b.bin"}
    check({("mine-recorded", "recorded"), ("mine-new", "failed")} <= outcomes, "outcomes: %s" % outcomes)
    text = open(html).read()
    check("appends a line on purpose" in text and "1.0-fake" in text, "the page lacks the reason or the version")
    checker = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "conformance", "check_matrix_page.py")
    p = subprocess.run(["/usr/bin/python3", checker, "--require-scroll", html, report, os.path.join(out, "page.png")],
                       capture_output=True, text=True)
    check(p.returncode == 0, "check_matrix_page.py: exit %d: %s %s" % (p.returncode, p.stdout, p.stderr))


def consensus(docconform, root, out):
    """Golden consensus counts engines: two bindings of one parser are one witness."""
    with open(os.path.join(root, "conformance", "adapters", "ADAPTERS.tsv"), "a") as f:
        f.write("binding-one\tutf8\tthird-party\tnogate\t-\t/bin/true\t-\tshared-engine\n"
                "binding-two\tutf8\tthird-party\tnogate\t-\t/bin/true\t-\tshared-engine\n"
                "other\tutf8\tthird-party\tnogate\t-\t/bin/true\n")
    write(os.path.join(root, "golden", "utf8.consensus"),
          "# case  agreeing\ny_a.bin  binding-one,binding-two\ny_b.bin  binding-one,other\n")
    p = subprocess.run([docconform, "golden", "check", "--root", root, "--format", "utf8", "--require-consensus"],
                       capture_output=True, text=True)
    check(p.returncode == 1, "two bindings of one engine confirm a digest: exit %d, want 1: %s" % (p.returncode, p.stdout))
    check("UNCONFIRMED utf8/y_a.bin" in p.stdout, "y_a.bin (one engine) not reported: " + p.stdout)
    check("UNCONFIRMED utf8/y_b.bin" not in p.stdout, "y_b.bin (two engines) reported: " + p.stdout)
    check("1 y_ cases confirmed by >= 2 third-party engines" in p.stdout, "summary: " + p.stdout)


def batch(docconform, root, out):
    """Batch mode: each broken frame, crash or timeout is the failure of the input being read, and
    the inputs after it run in a new process and pass; one process per input (--no-batch) fails
    only the inputs that fail alone."""
    names = ["y_c1_crash.bin", "y_c2.bin", "y_c3_hang.bin", "y_c4.bin", "y_c5_lie.bin", "y_c6_garbage.bin", "y_c7.bin"]
    ledger = open(os.path.join(root, "golden", "utf8.sha256")).read()
    for name in names:
        case = os.path.join(root, "conformance", "cases", "utf8", name)
        write(case, "c")
        dump = subprocess.run([docconform, "dump", "utf8", case], check=True, capture_output=True).stdout
        write(os.path.join(root, "golden", "utf8", name + ".dump"), dump.decode())
        ledger += "%s  sha256:%s\n" % (name, hashlib.sha256(dump).hexdigest())
    write(os.path.join(root, "golden", "utf8.sha256"), ledger)
    fake = "/usr/bin/python3 %s/batch_faults.py {docconform}" % FAKES
    manifest = os.path.join(out, "faults.tsv")
    write(manifest, "faults\tutf8\tthird-party\tgate\t-\t%s {input}\t-\t-\t%s --batch\n" % (fake, fake))
    want = {"y_a.bin": "pass", "y_b.bin": "pass", "y_c1_crash.bin": "adapter_failure", "y_c2.bin": "pass",
            "y_c3_hang.bin": "timeout", "y_c4.bin": "pass", "y_c5_lie.bin": "adapter_failure",
            "y_c6_garbage.bin": "adapter_failure", "y_c7.bin": "pass"}
    details = {"y_c1_crash.bin": "batch mode: the process ended before its frame (the process ended by signal 9)",
               "y_c5_lie.bin": "batch mode: the frame's lengths are wrong",
               "y_c6_garbage.bin": 'batch mode: not a frame header: "a warning outside frames"'}
    for mode in ([], ["--no-batch"]):
        report = os.path.join(out, "faults%s.json" % "".join(mode))
        p = run(docconform, root, "--adapters", manifest, "--impl", "faults", "--jobs", "1", "--timeout", "3",
                "--json", report, *mode)
        check(p.returncode == 1, "%s: exit %d, want 1: %s %s" % (mode, p.returncode, p.stdout, p.stderr))
        results = {r["case"].split("/")[1]: r for r in json.load(open(report))["results"]}
        for name, status in want.items():
            if mode and name in ("y_c5_lie.bin", "y_c6_garbage.bin"):
                status = "pass"  # no frames without batch mode
            got = results[name]["status"]
            check(got == status, "%s %s: %s, want %s (%s)" % (mode, name, got, status, results[name]["detail"]))
            if not mode and name in details:
                check(results[name]["detail"].startswith(details[name]), "%s: detail %r" % (name, results[name]["detail"]))


def installed(build_dir, scratch):
    """cmake --install to a scratch prefix, then everything from a directory with no checkout."""
    prefix = os.path.join(scratch, "prefix")
    p = subprocess.run(["cmake", "--install", build_dir, "--prefix", prefix], capture_output=True, text=True)
    check(p.returncode == 0, "cmake --install: " + p.stderr)
    docconform = os.path.join(prefix, "bin", "docconform")
    root = os.path.join(prefix, "share", "docconform")
    check(not os.path.exists(os.path.join(root, "conformance", "adapters", "node_modules")), "node_modules installed")
    check(os.path.exists(os.path.join(root, "conformance", "adapters", "package-lock.json")), "lock file not installed")
    elsewhere = os.path.join(scratch, "elsewhere")
    out = os.path.join(scratch, "out")
    os.makedirs(elsewhere)
    os.makedirs(out)
    p = run(docconform, root, "--impl", "reference", cwd=elsewhere)
    check(p.returncode == 0, "installed reference run: exit %d: %s %s" % (p.returncode, p.stdout[-2000:], p.stderr))
    # No --root: the suite is found beside the binary (<prefix>/share/docconform), or where
    # DOCCONFORM_ROOT says; golden check proves the data read is the installed ledger.
    for env in ({}, {"DOCCONFORM_ROOT": root}):
        p = subprocess.run([docconform, "golden", "check", "--format", "utf8"], capture_output=True, text=True,
                           cwd=elsewhere, env={**os.environ, **env})
        check(p.returncode == 0, "installed golden check %s: exit %d: %s %s" % (env, p.returncode, p.stdout[-2000:], p.stderr))
        p = subprocess.run([docconform, "conform", "run", "--no-progress", *MEMORY_ARGS, "--impl", "reference", "--format", "utf8"],
                           capture_output=True, text=True, cwd=elsewhere, env={**os.environ, **env})
        check(p.returncode == 0, "installed run without --root %s: exit %d: %s %s" % (env, p.returncode, p.stdout[-2000:], p.stderr))
    p = subprocess.run([docconform, "golden", "check", "--format", "utf8"], capture_output=True, text=True, cwd=elsewhere,
                       env={**os.environ, "DOCCONFORM_ROOT": elsewhere})
    check(p.returncode == 64 and "DOCCONFORM_ROOT" in p.stderr, "a DOCCONFORM_ROOT without the suite: exit %d: %s" % (p.returncode, p.stderr))
    bring_your_own(docconform, root, out, wrong="utf8/y_ascii.bin", extra_args=("--format", "utf8"), cwd=elsewhere)


def main():
    what = sys.argv[2]
    if what == "installed":
        with tempfile.TemporaryDirectory(prefix="docconform-install-") as scratch:
            installed(os.path.abspath(sys.argv[3]), scratch)
        print("%d passed, %d failed" % (checks - len(failures), len(failures)))
        return 1 if failures else 0
    docconform = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="docconform-cli-") as scratch:
        root = os.path.join(scratch, "suite")
        out = os.path.join(scratch, "out")
        os.makedirs(out)
        make_suite(docconform, root)
        {"gate": gate, "byo": bring_your_own, "shards": shards, "page": page, "consensus": consensus,
         "batch": batch}[what](docconform, root, out)
    print("%d passed, %d failed" % (checks - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
