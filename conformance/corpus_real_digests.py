#!/usr/bin/python3
"""Regression digests of the real-world corpus (../shared/corpus-real/): for every xlsx, pdf and
xls file, the reference's dump digest (pdf at level 3) or `rejected <class>`, kept in
golden/corpus-real-<format>.sha256. The conformance cases' digests are confirmed by other
implementations; these pin the reference's own reading of hundreds more files, so a change in
what it reads from any of them is a reviewed diff, never silent.
Usage: corpus_real_digests.py DOCCONFORM CORPUS_DIR GOLDEN_DIR [--update]
Exit 0 when every digest matches (or after --update), 1 with one line per difference, 77 when
CORPUS_DIR is absent (ctest: skipped), as in a clone checked out without ../shared."""
import concurrent.futures
import os
import re
import subprocess
import sys

FORMATS = [("xlsx", "xlsx", ["digest", "xlsx"]), ("pdf", "pdf", ["digest", "pdf", "--level", "3"]),
           ("xls", "xls", ["digest", "sst"])]
HEADER = "# docconform reference digests of ../shared/corpus-real/%s (conformance/corpus_real_digests.py)\n# file  digest\n"


def outcome(binary, words, path):
    run = subprocess.run([binary] + words + [path], capture_output=True, text=True, errors="replace", timeout=300)
    if run.returncode == 0:
        return "sha256:" + run.stdout.strip()
    found = re.search(r"(\w+) error: ", run.stderr)
    if run.returncode in (1, 2) and found:
        return "rejected " + found.group(1)
    return "failed exit %d: %s" % (run.returncode, run.stderr.strip()[:200])


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
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for folder, ledger_name, words in FORMATS:
            directory = os.path.join(corpus, folder)
            names = sorted(n for n in os.listdir(directory) if os.path.isfile(os.path.join(directory, n)))
            results = dict(zip(names, pool.map(lambda n: outcome(binary, words, os.path.join(directory, n)), names)))
            path = os.path.join(golden, "corpus-real-%s.sha256" % ledger_name)
            if update:
                with open(path, "w", encoding="utf-8") as out:
                    out.write(HEADER % folder)
                    out.writelines("%s  %s\n" % (name, results[name]) for name in names)
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
            if "failed exit" in line:
                print("%s: a file that neither loads nor is rejected cleanly: %s" % (folder, line.strip()))
                differences += 1
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
