#!/usr/bin/python3
"""pdf adapter (dump level 2, conformance/SPEC.md, format pdf) built on MuPDF's mutool (mupdf-tools).

MuPDF is an independent reader (its own parser, xref loader and repair code). This adapter maps
its output onto the canonical dump:
  xref lines / objects <- `mutool show FILE xref` (MuPDF's merged table: n = offset,
                          o = compressed: the columns are the object stream and the index)
  version / pages      <- `mutool run pdf_mutool_pages.js FILE` (MuPDF resolves the page tree;
                          the script applies the SPEC's leaf-count rule)
The SPEC allows no implicit recovery, so the file is rejected when MuPDF reports that it repaired
the file, ignored a looping /Prev, corrected a stream /Length, or could not load an object.
Encrypted files: both runs get the case's password (canonical.case_password); the encrypt line
from the /Encrypt dictionary MuPDF read; a password that opens nothing rejects ("error: password").
Usage: pdf_mutool.py FILE -> dump on stdout, exit 0; exit 1 with "error: <class>" when rejected.
With $DOCCONFORM_PHASES set, also times the phase pdf_objects (`mutool show -o /dev/null FILE grep`).
"""
import os
import re
import subprocess
import sys
from canonical import case_password, quote_units, reject
from phases import time_phase
from batch import serve

MUTOOL = "/usr/bin/mutool"
PAGES_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pdf_mutool_pages.js")
# MuPDF diagnostics that mean it read something other than what the file's xref chain states.
RECOVERY = re.compile(r"repair|recursion|Length incorrect|cannot load object|cycle in page tree|^error:", re.M)


def mutool(*args):
    p = subprocess.run([MUTOOL] + list(args), capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode("latin-1"), p.stderr.decode("latin-1")


def main():
    path = sys.argv[1]
    password = case_password(path).decode("latin-1")
    status, table, diagnostics = mutool("show", "-p", password, path, "xref")
    if status != 0 or RECOVERY.search(diagnostics):
        reject("format")
    status, walked, diagnostics = mutool("run", PAGES_SCRIPT, path, password)
    if status != 0 or RECOVERY.search(diagnostics):
        reject("format")
    facts = dict(line.split(" ", 1) for line in walked.splitlines() if " " in line)
    if "reject" in facts:
        reject("password" if facts["reject"] == "password" else "format")

    lines = []
    for row in table.splitlines():
        m = re.match(r"(\d+): (\d+) (\d+) ([nfo])", row)
        if not m or int(m.group(1)) == 0 or m.group(4) == "f":
            continue
        num, first, second, kind = int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)
        lines.append("xref %d %d n %d" % (num, second, first) if kind == "n"
                     else "xref %d 0 c %d %d" % (num, first, second))
    out = ["docconform-dump pdf 1", "level 2", "version " + quote_units(map(ord, facts["version"]))]
    if "encrypt" in facts:
        out.append("encrypt " + facts["encrypt"])
    out += ["pages " + facts["pages"], "objects %d" % len(lines)] + lines
    sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()
    # Phase pdf_objects (conformance/SPEC.md, format pdf): every object printed to /dev/null.
    time_phase("pdf_objects", lambda: (mutool("show", "-o", os.devnull, path, "grep"), os.path.getsize(path))[1])
    return 0


if __name__ == "__main__":
    sys.exit(serve(main))
