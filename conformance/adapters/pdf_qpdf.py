#!/usr/bin/python3
"""pdf adapter (dump level 2, conformance/SPEC.md, format pdf) built on the qpdf command-line tool.

qpdf is an independent reader; this adapter maps its output onto our canonical dump:
  version  <- `qpdf --json=2` (qpdf[0].pdfversion)
  pages    <- `qpdf --show-npages`
  objects / xref lines <- `qpdf --show-xref` (the merged table, newest entry wins)
Rejection follows the SPEC's policy, which has no implicit recovery:
  * qpdf exits 2 (errors) on `qpdf --check`;
  * qpdf had to reconstruct the cross-reference table or found an xref loop;
  * the page tree reaches a node twice (qpdf warns and repairs; the SPEC rejects);
  * an object stream inflates beyond the SPEC's ratio limit (1000:1 once above 1 MiB).
Usage: pdf_qpdf.py FILE -> dump on stdout, exit 0; exit 1 with "error: <class>" when rejected.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from canonical import quote_bytes, reject

QPDF = "/usr/bin/qpdf"
RATIO = 1000
RATIO_FLOOR = 1 << 20


def run(*args):
    # No timeout here: the conformance runner bounds the whole adapter (its process group).
    return subprocess.run([QPDF] + list(args), capture_output=True)


def main():
    path = sys.argv[1]
    check = run("--check", path)
    text = (check.stdout + check.stderr).decode("latin-1")
    if check.returncode == 2:
        reject("format")
    if re.search(r"reconstruct|loop detected|can't find PDF header|recover stream length", text):
        reject("format")
    if "more than once in the pages tree" in text:
        reject("format")

    # The object streams' encoded lengths from one pass, their decoded sizes from a second that
    # writes every stream's decoded data to a file (which drops /Length from the dictionaries);
    # a qpdf run per object stream would reparse the file thousands of times.
    info = json.loads(run("--json=2", "--json-stream-data=none", path).stdout)
    with tempfile.TemporaryDirectory() as data:
        prefix = os.path.join(data, "s")
        decoded_info = json.loads(run("--json=2", "--json-stream-data=file", "--json-stream-prefix=" + prefix, path).stdout)
        for key, value in info["qpdf"][1].items():
            stream = value.get("stream") if isinstance(value, dict) else None
            if not stream or stream.get("dict", {}).get("/Type") != "/ObjStm":
                continue
            raw = stream["dict"].get("/Length")
            datafile = decoded_info["qpdf"][1].get(key, {}).get("stream", {}).get("datafile")
            decoded = os.path.getsize(datafile) if datafile and os.path.exists(datafile) else 0
            if isinstance(raw, int) and decoded > RATIO_FLOOR and decoded > RATIO * max(raw, 1):
                reject("limit")

    version = info["qpdf"][0]["pdfversion"].encode("latin-1")
    pages = int(run("--show-npages", path).stdout.decode().strip())
    # qpdf keys its table by (number, generation) and keeps an older generation's entry next to
    # a newer one; the SPEC keeps one entry per number, the newest, which is the highest
    # generation whenever a number was reused.
    entries = {}
    for line in run("--show-xref", path).stdout.decode().splitlines():
        m = re.match(r"(\d+)/(\d+): uncompressed; offset = (\d+)$", line)
        text = "xref %s %s n %s" % m.groups() if m else None
        if not m:
            m = re.match(r"(\d+)/(\d+): compressed; stream = (\d+), index = (\d+)$", line)
            text = "xref %s %s c %s %s" % m.groups() if m else None
        if m:
            num, gen = int(m.group(1)), int(m.group(2))
            if num not in entries or entries[num][0] < gen:
                entries[num] = (gen, text)
    lines = sorted((num, text) for num, (gen, text) in entries.items())
    out = ["docconform-dump pdf 1", "level 2", "version " + quote_bytes(version), "pages %d" % pages,
           "objects %d" % len(lines)]
    out += [text for _, text in lines]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
