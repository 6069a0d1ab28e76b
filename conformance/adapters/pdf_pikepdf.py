#!/usr/bin/python3
"""pdf adapter (dump level 2, conformance/SPEC.md, format pdf) built on pikepdf (python3-pikepdf).

pikepdf is a Python binding of libqpdf: it shares qpdf's parser and xref loader, so it is not an
independent confirmation of qpdf's reading (conformance/adapters/README.md). What this adapter adds
is a second route through that library: the Python object model instead of qpdf's command line.
  version              <- Pdf.pdf_version
  pages                <- a walk of /Root /Pages through pikepdf objects (SPEC rule 8: leaves
                          counted, a node reached twice rejects; Pdf.pages would let qpdf repair)
  objects / xref lines <- Pdf.show_xref_table(), which libqpdf writes to pikepdf's logger
Rejection (the SPEC has no implicit recovery): pikepdf raises while opening or walking, libqpdf
warns that it reconstructed the xref table, found a loop or a damaged file, or an object stream
inflates past the SPEC's ratio limit (1000:1 once above 1 MiB).
Usage: pdf_pikepdf.py FILE -> dump on stdout, exit 0; exit 1 with "error: <class>" when rejected.
"""
import logging
import re
import sys

import pikepdf
from canonical import quote_bytes, reject

RATIO = 1000
RATIO_FLOOR = 1 << 20
RECOVERY = re.compile(r"reconstruct|loop detected|damaged|recover stream length|can't find PDF header")


class Collect(logging.Handler):
    """Gathers the text libqpdf sends to pikepdf's logger (show_xref_table writes there)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.parts = []

    def emit(self, record):
        self.parts.append(record.getMessage())


def leaf_pages(pdf, table):
    """Leaf count; `table` is the set of object numbers the file's xref lists."""
    root = pdf.Root.get("/Pages")
    seen = set()
    leaves = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_indirect:
            if node.objgen in seen:
                reject("format")  # a page-tree loop or a shared node
            if node.objgen[0] not in table:
                reject("format")  # libqpdf copied a node listed twice while opening (a repair)
            seen.add(node.objgen)
        elif node is not root:
            reject("format")  # kids must be references
        if not isinstance(node, pikepdf.Dictionary):
            leaves += 1
            continue
        kind = node.get("/Type")
        kids = node.get("/Kids")
        intermediate = kind == pikepdf.Name.Pages if isinstance(kind, pikepdf.Name) else isinstance(kids, pikepdf.Array)
        if not intermediate:
            leaves += 1
        elif isinstance(kids, pikepdf.Array):
            stack.extend(reversed(list(kids)))
    return leaves


def check_object_streams(pdf):
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Type") == pikepdf.Name.ObjStm:
            raw = len(obj.read_raw_bytes())
            decoded = len(obj.read_bytes())
            if decoded > RATIO_FLOOR and decoded > RATIO * max(raw, 1):
                reject("limit")


def main():
    path = sys.argv[1]
    log = logging.getLogger("pikepdf")
    collect = Collect()
    log.addHandler(collect)
    log.setLevel(logging.DEBUG)
    log.propagate = False
    try:
        pdf = pikepdf.open(path)
        collect.parts = []
        pdf.show_xref_table()
        entries = xref_entries("".join(collect.parts))
        pages = leaf_pages(pdf, entries)
        check_object_streams(pdf)
    except pikepdf.PdfError:
        reject("format")
    if any(RECOVERY.search(w) for w in pdf.get_warnings()):
        reject("format")
    lines = [text for _, (_, text) in sorted(entries.items())]
    out = ["docconform-dump pdf 1", "level 2", "version " + quote_bytes(pdf.pdf_version.encode("latin-1")),
           "pages %d" % pages, "objects %d" % len(lines)] + lines
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def xref_entries(text):
    """number -> (generation, dump line) from libqpdf's xref listing."""
    # libqpdf keys its table by (number, generation) and may keep an older generation's entry
    # beside a newer one; the SPEC keeps one entry per number, the newest (highest generation).
    entries = {}
    for row in text.splitlines():
        m = re.match(r"(\d+)/(\d+): uncompressed; offset = (\d+)$", row)
        line = "xref %s %s n %s" % m.groups() if m else None
        if not m:
            m = re.match(r"(\d+)/(\d+): compressed; stream = (\d+), index = (\d+)$", row)
            line = "xref %s %s c %s %s" % m.groups() if m else None
        if m:
            num, gen = int(m.group(1)), int(m.group(2))
            if num not in entries or entries[num][0] < gen:
                entries[num] = (gen, line)
    return entries


if __name__ == "__main__":
    sys.exit(main())
