#!/usr/bin/python3
"""Poppler's pdfinfo (poppler-utils) against the golden pdf dumps, line by line.

pdfinfo prints a PDF's version and page count but nothing of its cross-reference table, so it
cannot write any level of the pdf dump (level 1 already needs `objects`) and is no adapter of
conformance/adapters/ADAPTERS.tsv. What it can confirm, it does here: for every y_ case of
conformance/cases/pdf/, its "PDF version:" and "Pages:" must equal the `version` and `pages` lines
of golden/pdf/<case>.dump, except for a case of the directory's CONSENSUS-EXCEPTIONS.tsv (no two
engines reproduce it, for the reason written there), where a difference is reported, not failed.
Usage: pdf_pdfinfo_agrees.py ROOT   (exit 77 when pdfinfo is absent)
"""
import os
import shutil
import subprocess
import sys


def main():
    root = sys.argv[1]
    pdfinfo = shutil.which("pdfinfo")
    if pdfinfo is None:
        print("SKIP: needs pdfinfo (poppler-utils; ci/setup --tools installs it)")
        return 77
    cases = os.path.join(root, "conformance", "cases", "pdf")
    with open(os.path.join(cases, "CONSENSUS-EXCEPTIONS.tsv"), encoding="utf-8") as f:
        exceptions = {line.split("\t", 1)[0] for line in f if line.strip() and not line.startswith("#")}
    failures = checked = known_differences = 0
    for name in sorted(os.listdir(cases)):
        if not (name.startswith("y_") and name.endswith(".pdf")):
            continue
        with open(os.path.join(root, "golden", "pdf", name + ".dump")) as f:
            golden = dict(line.split(" ", 1) for line in f.read().splitlines() if " " in line)
        path = os.path.join(cases, name)
        # A case's password (SPEC.md format pdf rule 10); pdfinfo tries it as owner and user password.
        password = open(path + ".password", "rb").read().decode("latin-1") if os.path.exists(path + ".password") else None
        options = ["-opw", password, "-upw", password] if password else []
        p = subprocess.run([pdfinfo] + options + [path], capture_output=True, timeout=60)
        info = {}
        for line in p.stdout.decode("latin-1").splitlines():
            key, _, value = line.partition(":")
            info[key.strip()] = value.strip()
        got = ('"%s"' % info.get("PDF version", "?"), info.get("Pages", "?"))
        want = (golden["version"], golden["pages"])
        checked += 1
        if p.returncode != 0 or got != want:
            known = name in exceptions
            known_differences += known
            failures += not known
            print("%s %s: pdfinfo says version %s pages %s, golden %s pages %s (exit %d)" % (
                ("KNOWN" if known else "FAIL", name) + got + want + (p.returncode,)))
    print("pdfinfo: %d y_ cases, %d agree on version and pages, %d known differences" % (
        checked, checked - failures - known_differences, known_differences))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
