#!/usr/bin/python3
"""Regression digests of the real-world corpus (../shared/corpus-real/): for every xlsx, pdf and
xls file, the reference's dump digest (pdf at level 3) or `rejected <class>`, kept in
golden/corpus-real-<format>.sha256. The conformance cases' digests are confirmed by other
implementations; these pin the reference's own reading of hundreds more files, so a change in
what it reads from any of them is a reviewed diff, never silent.
Usage: corpus_real_digests.py DOCCONFORM CORPUS_DIR GOLDEN_DIR [--update]
Exit 0 when every digest matches (or after --update), 1 with one line per difference, 77 when
CORPUS_DIR is absent (ctest: skipped), as in a clone checked out without ../shared."""
import os
import re
import subprocess
import sys
from output_file import write_text

FORMATS = [("xlsx", "xlsx", ["digest", "xlsx"]), ("pdf", "pdf", ["digest", "pdf", "--level", "3"]),
           ("xls", "xls", ["digest", "sst"])]
HEADER = "# docconform reference digests of ../shared/corpus-real/%s (conformance/corpus_real_digests.py)\n# file  digest\n"


def outcomes(binary, words, paths):
    """Every file's digest or `rejected <class>`, from one process over the whole list (the CLI's
    several-files mode: `<hex>  <path>` lines on stdout, each failed file's error on stderr)."""
    run = subprocess.run([binary] + words + ["--files-from", "-"], input="".join(p + "\n" for p in paths),
                         capture_output=True, text=True, errors="replace", timeout=1800)
    digests = {}
    for line in run.stdout.splitlines():
        digest, _, path = line.partition("  ")
        digests[path] = "sha256:" + digest
    errors = {}
    for line in run.stderr.splitlines():
        for path in paths:
            if line.startswith("docconform: %s: " % path) and path not in errors:
                found = re.search(r"(\w+) error: ", line)
                errors[path] = "rejected " + found.group(1) if found else "failed: " + line[:200]
                break
    status = "" if run.returncode in (0, 1, 2) else "failed exit %d: %s" % (run.returncode, run.stderr.strip()[-200:])
    return [digests.get(p) or errors.get(p) or status or "failed: neither a digest nor an error" for p in paths]


def read_ledger(path):
    ledger = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            name, _, value = line.rstrip("\n").partition("  ")
            ledger[name] = value
    return ledger


def main():
    binary, corpus, golden = sys.argv[1:4]
    update = "--update" in sys.argv[4:]
    if not os.path.isdir(corpus):
        print("skipped: the real-world corpus %s is absent" % corpus)
        return 77
    differences = 0
    for folder, ledger_name, words in FORMATS:
        directory = os.path.join(corpus, folder)
        names = sorted(n for n in os.listdir(directory) if os.path.isfile(os.path.join(directory, n)))
        results = dict(zip(names, outcomes(binary, words, [os.path.join(directory, n) for n in names])))
        path = os.path.join(golden, "corpus-real-%s.sha256" % ledger_name)
        if update:
            write_text(path, HEADER % folder + "".join("%s  %s\n" % (name, results[name]) for name in names))
            print("%s: %d files written to %s" % (folder, len(names), path))
            continue
        ledger = read_ledger(path)
        for name in sorted(set(ledger) | set(results)):
            if ledger.get(name) != results.get(name):
                differences += 1
                print("%s/%s: ledger %s, now %s" % (folder, name, ledger.get(name, "(none)"), results.get(name, "(no file)")))
        print("%s: %d files, %d differences" % (folder, len(names), sum(
            1 for name in set(ledger) | set(results) if ledger.get(name) != results.get(name))))
    for folder, ledger_name, _ in FORMATS:
        for line in open(os.path.join(golden, "corpus-real-%s.sha256" % ledger_name), encoding="utf-8"):
            if "  failed" in line:
                print("%s: a file that neither loads nor is rejected cleanly: %s" % (folder, line.strip()))
                differences += 1
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
