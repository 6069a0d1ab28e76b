#!/usr/bin/python3
"""`docconform conform sweep DIR` as a user runs it, over a directory made here from copies of
conformance cases, a corrupted file and files it must not sweep.

Usage: conform_sweep_cli.py DOCCONFORM ROOT classes|real|shards
classes: three fake peers (fake_adapters/sweep_peer.py, told by a plan what to do with each file)
and the reference CLI put every file in a chosen class; the JSON fields, the Markdown table, the
unswept files, --fail-on and the usage errors.
real: the reference, the reference CLI, qpdf, pikepdf and xlrd on a valid, a truncated and a
headerless PDF and a workbook.
shards: two shards (--shard K/N) merged by `conform merge` give the whole sweep's files and
table; shards given twice, missing, of another sweep or of another kind of report are refused.
Prints a closing 'N passed, N failed' line; exits 1 on any failure.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import conform_cli
from conform_cli import FAKES, MEMORY_ARGS, check

USAGE = 64

# file -> (copied from, plan of the peers p1 p2 p3, the class it must fall in)
CLASSES = {
    "agree.pdf": ("pdf/y_object_stream.pdf", ("same", "same", "same"), "all-agree"),
    "ref-agrees.pdf": ("pdf/y_hybrid_xrefstm.pdf", ("same", "same", "other"), "reference-agrees"),
    "ref-disagrees.xlsx": ("xlsx/y_cell_types.xlsx", ("other", "other", "same"), "reference-disagrees"),
    "ref-rejects.pdf": ("truncated", ("fixed", "fixed", "reject"), "reference-rejects"),
    "peers-reject.pdf": ("pdf/y_classic_20_byte_entries.pdf", ("reject", "reject", "unsupported"), "peers-reject"),
    "all-reject.pdf": ("pdf/n_no_header.pdf", ("reject", "reject", "crash"), "all-reject"),
    "sub/mixed.pdf": ("pdf/y_names_as_bytes.pdf", ("other", "reject", "same"), "mixed"),
    "no-verdict.xls": ("sst/y_real_calamine__empty-string.xls", ("unsupported", "crash", "hang"), "no-peer-verdict"),
    "biff5.xls": ("biff5", ("same", "same", "same"), "reference-unsupported"),
}


def make_dir(root, swept):
    """The files of CLASSES, and three that are not swept: another extension, one past the file
    limit, a symbolic link."""
    for name, (source, _, _) in CLASSES.items():
        path = os.path.join(swept, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if source == "truncated":
            data = open(os.path.join(root, "conformance", "cases", "pdf", "y_object_stream.pdf"), "rb").read()
            open(path, "wb").write(data[:len(data) // 2])
        elif source == "biff5":  # a bare BIFF5 stream: a BOF of version 0x0500, then EOF
            open(path, "wb").write(b"\x09\x08\x08\x00\x00\x05\x05\x00" + b"\x00" * 4 + b"\x0a\x00\x00\x00")
        else:
            shutil.copy(os.path.join(root, "conformance", "cases", source), path)
    os.makedirs(os.path.join(swept, "sub"), exist_ok=True)
    open(os.path.join(swept, "sub", "notes.txt"), "w").write("not a document\n")
    open(os.path.join(swept, "big.PDF"), "wb").write(b"%PDF-1.4\n" + b" " * 70000)
    os.symlink(os.path.join(swept, "agree.pdf"), os.path.join(swept, "link.pdf"))


def make_peers(scratch):
    plan = {os.path.basename(name): {"p%d" % (i + 1): action for i, action in enumerate(actions)}
            for name, (_, actions, _) in CLASSES.items()}
    json.dump(plan, open(os.path.join(scratch, "plan.json"), "w"))
    manifest = os.path.join(scratch, "peers.tsv")
    with open(manifest, "w") as f:
        for peer in ("p1", "p2", "p3"):
            f.write("%s\txlsx,pdf,sst\tthird-party\tnogate\t-\t/usr/bin/python3 %s/sweep_peer.py %s {dir}/plan.json {input} "
                    "{format} {docconform}\n" % (peer, FAKES, peer))
    return manifest


def sweep(docconform, root, swept, *args):
    return subprocess.run([docconform, "conform", "sweep", swept, "--root", root, "--no-progress", *MEMORY_ARGS, *args],
                          capture_output=True, text=True)


def fake_args(manifest):
    return ["--adapters", manifest, "--impl", "reference-cli", "--impl", "p1", "--impl", "p2", "--impl", "p3",
            "--timeout", os.environ.get("CONFORM_SWEEP_TIMEOUT_S", "3"), "--max-file-bytes", "64K", "-j", "2"]


def classes(docconform, root, scratch):
    swept = os.path.join(scratch, "swept")
    make_dir(root, swept)
    manifest = make_peers(scratch)
    out_json, out_md = os.path.join(scratch, "sweep.json"), os.path.join(scratch, "sweep.md")
    p = sweep(docconform, root, swept, *fake_args(manifest), "--json", out_json, "--markdown", out_md)
    check(p.returncode == 0, "a sweep is a measurement: exit %d, want 0: %s %s" % (p.returncode, p.stdout, p.stderr))
    report = json.load(open(out_json))
    check(report["kind"] == "sweep", "kind %r" % report.get("kind"))
    files = {f["file"]: f for f in report["files"]}
    check(sorted(files) == sorted(CLASSES), "files %s, want %s" % (sorted(files), sorted(CLASSES)))
    for name, (_, _, want) in CLASSES.items():
        got = files.get(name, {}).get("class")
        check(got == want, "%s: class %s, want %s: %s" % (name, got, want, json.dumps(files.get(name))))
    check(report["table"]["all"] == {c: 1 for _, _, c in CLASSES.values()} | {"reference-failure": 0},
          "table %s" % report["table"]["all"])
    xlsx = {c: n for c, n in report["table"]["xlsx"].items() if n}
    check(xlsx == {"reference-disagrees": 1} and len(report["table"]["xlsx"]) == 10, "xlsx table %s" % report["table"]["xlsx"])

    # Each verdict, with its class and the fields a differing dump differs in.
    agree = files["agree.pdf"]
    check(agree["reference"]["verdict"] == "opens" and agree["consensus_peers"] == 3, "agree.pdf: %s" % agree)
    check(agree["variants"]["reference-cli"]["same_dump_as_reference"] is True, "reference-cli: %s" % agree["variants"])
    p3 = files["ref-agrees.pdf"]["peers"]["p3"]
    check(p3["verdict"] == "opens" and p3["same_dump_as_reference"] is False and not p3["in_consensus"] and
          p3["fields_differing_from_reference"] == ["pages"], "ref-agrees.pdf p3: %s" % p3)
    p1 = files["ref-disagrees.xlsx"]["peers"]["p1"]
    check(p1["in_consensus"] and p1["fields_differing_from_reference"] == ["cells"], "ref-disagrees.xlsx p1: %s" % p1)
    rejects = files["ref-rejects.pdf"]
    check(rejects["reference"]["verdict"] == "rejects" and rejects["reference"]["error_class"] == "format" and
          rejects["consensus_peers"] == 2, "ref-rejects.pdf: %s" % rejects)
    check(files["peers-reject.pdf"]["peers"]["p3"]["verdict"] == "unsupported", "%s" % files["peers-reject.pdf"])
    check(files["all-reject.pdf"]["peers"]["p3"]["verdict"] == "adapter_failure", "%s" % files["all-reject.pdf"])
    verdicts = {k: v["verdict"] for k, v in files["no-verdict.xls"]["peers"].items()}
    check(verdicts == {"p1": "unsupported", "p2": "adapter_failure", "p3": "timeout"}, "no-verdict.xls: %s" % verdicts)
    check(files["biff5.xls"]["reference"]["error_class"] == "unsupported", "biff5.xls: %s" % files["biff5.xls"])

    # Every accepted dump's fields, by format.
    want_fields = {"pdf": ["objects", "other", "pages"], "xlsx": ["cells", "other", "sheets"], "sst": ["other", "strings"]}
    for r in report["results"]:
        if r["status"] == "accepted":
            check(sorted(r["fields"]) == want_fields[r["format"]], "%s %s fields %s" % (r["impl"], r["case"], r["fields"]))
        else:
            check(r["fields"] == {}, "%s %s not accepted, fields %s" % (r["impl"], r["case"], r["fields"]))

    unswept = {u["file"]: u["why"] for u in report["unswept"]}
    check(unswept.get("sub/notes.txt") == "no selected format reads .txt files", "unswept %s" % unswept)
    check("file limit" in unswept.get("big.PDF", "") and "--max-file-bytes 65536" in unswept.get("big.PDF", ""), "unswept %s" % unswept)
    check(unswept.get("link.pdf") == "a symbolic link (not followed)", "unswept %s" % unswept)
    check(swept not in open(out_json).read(), "the JSON names the directory's path")

    md = open(out_md).read()
    check("| reference-rejects | the reference rejects what the peers' consensus opens | 1 | 0 | 0 | 1 |" in md, "Markdown table: " + md)
    check("| pdf/ref-agrees.pdf | reference-agrees | opens | p1: =; p2: =; p3: ≠ pages | reference-cli: = |" in md,
          "Markdown file row: " + md)
    check("| big.PDF | file limit:" in md, "Markdown unswept: " + md)

    # --fail-on: exit 1 naming the class when a file falls in it; 0 when none does.
    for cls, fmt, code in (("reference-rejects", "pdf", 1), ("timeout", "sst", 1), ("reference-failure", "xlsx", 0)):
        p = sweep(docconform, root, swept, *fake_args(manifest), "--format", fmt, "--fail-on", cls)
        check(p.returncode == code, "--fail-on %s: exit %d, want %d: %s %s" % (cls, p.returncode, code, p.stdout, p.stderr))
        if code == 1:
            check("(--fail-on %s)" % cls in p.stdout, "--fail-on %s not named: %s" % (cls, p.stdout))

    for args, cause in ((["--format", "utf8"], "not utf8"),
                        (["--fail-on", "nope"], "--fail-on"),
                        (["--junit", "x.xml"], "--junit"),
                        (["--impl", "nope"], "no adapter named nope"),
                        (["--format", "sst", "--shard", "9/9"], "selects no file")):
        p = sweep(docconform, root, swept, *args)
        check(p.returncode == USAGE, "%s: exit %d, want %d" % (args, p.returncode, USAGE))
        check(cause in p.stderr, "%s: stderr %r does not name %r" % (args, p.stderr, cause))
    p = sweep(docconform, root, os.path.join(scratch, "no-such-dir"))
    check(p.returncode == USAGE and "not a directory" in p.stderr, "missing dir: %d %s" % (p.returncode, p.stderr))


def real(docconform, root, scratch):
    swept = os.path.join(scratch, "swept")
    os.makedirs(swept)
    cases = os.path.join(root, "conformance", "cases")
    shutil.copy(os.path.join(cases, "pdf", "y_object_stream.pdf"), os.path.join(swept, "valid.pdf"))
    shutil.copy(os.path.join(cases, "pdf", "n_no_header.pdf"), os.path.join(swept, "headerless.pdf"))
    data = open(os.path.join(cases, "pdf", "y_object_stream.pdf"), "rb").read()
    open(os.path.join(swept, "truncated.pdf"), "wb").write(data[:len(data) // 2])
    shutil.copy(os.path.join(cases, "sst", "y_real_calamine__empty-string.xls"), os.path.join(swept, "book.xls"))
    out_json = os.path.join(scratch, "sweep.json")
    p = sweep(docconform, root, swept, "--impl", "reference-cli", "--impl", "qpdf", "--impl", "pikepdf", "--impl", "xlrd",
              "--json", out_json)
    check(p.returncode == 0, "exit %d: %s %s" % (p.returncode, p.stdout, p.stderr))
    report = json.load(open(out_json))
    check(report["skipped"] == [], "real adapters skipped: %s" % report["skipped"])
    files = {f["file"]: f for f in report["files"]}
    for name, want in (("valid.pdf", "all-agree"), ("headerless.pdf", "all-reject"), ("book.xls", "all-agree")):
        check(files[name]["class"] == want, "%s: %s, want %s: %s" % (name, files[name]["class"], want, files[name]))
    check(set(files["valid.pdf"]["peers"]) == {"qpdf", "pikepdf"} and files["valid.pdf"]["consensus_peers"] == 2,
          "valid.pdf: %s" % files["valid.pdf"])
    check(files["truncated.pdf"]["reference"]["verdict"] == "rejects", "truncated.pdf: %s" % files["truncated.pdf"])


def normalised(path):
    """A sweep's JSON without what differs between runs (times, dates, shards)."""
    j = json.load(open(path))
    for r in j["results"]:
        r["seconds"] = 0
    return {"files": j["files"], "table": j["table"], "results": j["results"], "unswept": j["unswept"], "cases": j["cases"]}


def shards(docconform, root, scratch):
    swept = os.path.join(scratch, "swept")
    make_dir(root, swept)
    manifest = make_peers(scratch)
    whole, one, two = (os.path.join(scratch, n + ".json") for n in ("whole", "one", "two"))
    p = sweep(docconform, root, swept, *fake_args(manifest), "--json", whole)
    check(p.returncode == 0, "whole sweep: exit %d: %s" % (p.returncode, p.stderr))
    for k, out in ((1, one), (2, two)):
        p = sweep(docconform, root, swept, *fake_args(manifest), "--shard", "%d/2" % k, "--json", out)
        check(p.returncode == 0, "shard %d/2: exit %d: %s" % (k, p.returncode, p.stderr))
    halves = [len(json.load(open(out))["files"]) for out in (one, two)]
    check(sum(halves) == len(CLASSES) and min(halves) > 0, "shards hold %s files, want %d in all" % (halves, len(CLASSES)))
    merged, merged_md = os.path.join(scratch, "merged.json"), os.path.join(scratch, "merged.md")
    p = subprocess.run([docconform, "conform", "merge", two, one, "--json", merged, "--markdown", merged_md],
                       capture_output=True, text=True)
    check(p.returncode == 0, "merge: exit %d: %s %s" % (p.returncode, p.stdout, p.stderr))
    check(normalised(merged) == normalised(whole), "the merged shards differ from the whole sweep")
    check(len(json.load(open(merged))["runs"]) == 2, "merged runs: want one per shard")
    check("| all-agree |" in open(merged_md).read(), "merged Markdown has no table")
    p = subprocess.run([docconform, "conform", "merge", one, two, "--fail-on", "reference-rejects"], capture_output=True, text=True)
    check(p.returncode == 1, "merge --fail-on reference-rejects: exit %d, want 1" % p.returncode)

    # Refused: a shard twice, a shard missing, a shard of another sweep, a report of another kind.
    other = os.path.join(scratch, "other.json")
    os.remove(os.path.join(swept, "agree.pdf"))
    p = sweep(docconform, root, swept, *fake_args(manifest), "--format", "sst", "--shard", "2/2", "--json", other)
    check(p.returncode == 0, "other sweep: exit %d: %s" % (p.returncode, p.stderr))
    run_kind = os.path.join(scratch, "run-kind.json")
    j = json.load(open(two))
    j["kind"] = "run"
    json.dump(j, open(run_kind, "w"))
    for paths, cause in (([one, one], "shard 1/2 again"), ([one], "shard 2/2 is missing"),
                         ([one, other], "its cases differ"), ([one, run_kind], "its kind differ")):
        p = subprocess.run([docconform, "conform", "merge", *paths], capture_output=True, text=True)
        check(p.returncode == USAGE, "merge %s: exit %d, want %d" % (paths, p.returncode, USAGE))
        check(cause in p.stderr, "merge %s: stderr %r does not name %r" % (paths, p.stderr, cause))


def main():
    docconform, root, what = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
    with tempfile.TemporaryDirectory(prefix="docconform-sweep-") as scratch:
        {"classes": classes, "real": real, "shards": shards}[what](docconform, root, scratch)
    print("%d passed, %d failed" % (conform_cli.checks - len(conform_cli.failures), len(conform_cli.failures)))
    sys.exit(1 if conform_cli.failures else 0)


if __name__ == "__main__":
    main()
