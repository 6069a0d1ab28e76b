#!/usr/bin/python3
"""pdf adapter (formats pdf = dump level 2 and pdf3 = level 3, conformance/SPEC.md, format pdf) built
on pikepdf (python3-pikepdf).

pikepdf is a Python binding of libqpdf: it shares qpdf's parser and xref loader, so it is not an
independent confirmation of qpdf's reading (conformance/adapters/README.md). What this adapter adds
is a second route through that library: the Python object model instead of qpdf's command line.
  version              <- Pdf.pdf_version
  pages                <- a walk of /Root /Pages through pikepdf objects (SPEC rule 8: leaves
                          counted, a node reached twice rejects; Pdf.pages would let qpdf repair)
  objects / xref lines <- Pdf.show_xref_table(), which libqpdf writes to pikepdf's logger
  level 3: trailer and obj lines are libqpdf's own syntax for each object (unparse, references
  kept), read back by pdf_syntax.py and written in the SPEC's value form, a stream's digest taken
  of its raw data (read_raw_bytes); page lines from the walk below; section lines from
  pdf_sections.py, because libqpdf keeps only the merged table. The file opens with
  inherit_page_attributes=False, or libqpdf would move inherited attributes onto the pages.
Rejection (the SPEC has no implicit recovery): pikepdf raises while opening or walking, libqpdf
warns that it reconstructed the xref table, found a loop or a damaged file, or an object stream
inflates past the SPEC's ratio limit (1000:1 once above 1 MiB).
Encrypted files: opened with the case's password (canonical.case_password); the encrypt line from
Pdf.encryption; a password that opens nothing rejects ("error: password").
Usage: pdf_pikepdf.py FILE [pdf|pdf3] -> dump on stdout, exit 0; exit 1 with "error: <class>" when
rejected.
"""
import decimal
import hashlib
import logging
import re
import sys

import pikepdf
from canonical import case_password, encrypt_line, number_text, quote_bytes, reject
from pdf_sections import SectionFault, merged_entries, sections
from pdf_syntax import SyntaxFault, inflates_past_limit, parse_object, value_text
from batch import serve

RECOVERY = re.compile(r"reconstruct|loop detected|damaged|recover stream length|can't find PDF header")


class Collect(logging.Handler):
    """Gathers the text libqpdf sends to pikepdf's logger (show_xref_table writes there)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.parts = []

    def emit(self, record):
        self.parts.append(record.getMessage())


def leaf_pages(pdf, table):
    """[(leaf, inherited /MediaBox and /Rotate)]; `table` is the set of object numbers the file's
    xref lists."""
    root = pdf.Root.get("/Pages")
    if root is None:
        reject("format", "the catalog has no /Pages")
    seen = set()
    leaves = []
    stack = [(root, {})]
    while stack:
        node, inherited = stack.pop()
        if node is None:
            reject("format")  # a kid libqpdf resolves to null: an object the file lacks or libqpdf could not find
        if node.is_indirect:
            if node.objgen in seen:
                reject("format")  # a page-tree loop or a shared node
            if node.objgen[0] not in table:
                reject("format")  # libqpdf copied a node listed twice while opening (a repair)
            seen.add(node.objgen)
        elif node is not root:
            reject("format")  # kids must be references
        if not isinstance(node, pikepdf.Dictionary):
            leaves.append((node, inherited))
            continue
        own = dict(inherited)
        for key in ("/MediaBox", "/Rotate"):
            if node.get(key) is not None:
                own[key] = node.get(key)
        kind = node.get("/Type")
        kids = node.get("/Kids")
        intermediate = kind == pikepdf.Name.Pages if isinstance(kind, pikepdf.Name) else isinstance(kids, pikepdf.Array)
        if not intermediate:
            leaves.append((node, own))
        elif isinstance(kids, pikepdf.Array):
            stack.extend((kid, own) for kid in reversed(list(kids)))
    return leaves


def canonical(obj):
    """The SPEC's value form of what pikepdf hands out: libqpdf's syntax for an object, read back
    (references inside kept), or a Python scalar pikepdf converted."""
    if isinstance(obj, pikepdf.Object):
        return value_text(parse_object(obj.unparse(resolved=True), 0)[0])
    if isinstance(obj, decimal.Decimal):
        return number_text(float(obj))
    return value_text(obj)


def object_text(obj):
    if isinstance(obj, pikepdf.Stream):
        return "stream %s length %s sha256 %s" % (canonical(obj.stream_dict), canonical(obj.stream_dict.get("/Length")),
                                                  hashlib.sha256(obj.read_raw_bytes()).hexdigest())
    return canonical(obj)


def level3_lines(path, pdf, entries, leaves):
    with open(path, "rb") as f:
        listed = sections(f.read())
    lines = ["section %d %s %d" % section for section in listed]
    lines.append("trailer " + ("stream " if listed[0][1] == "stream" else "") + canonical(pdf.trailer))
    for i, (page, own) in enumerate(leaves, 1):
        lines.append("page %d %d %d mediabox %s rotate %s" % ((i,) + page.objgen + (canonical(own.get("/MediaBox")),
                                                                                    canonical(own.get("/Rotate")))))
    for num, (gen, text) in sorted(entries.items()):
        gen = gen if " n " in text else 0
        lines.append("obj %d %d %s" % (num, gen, object_text(pdf.get_object((num, gen)))))
    return lines


def check_object_streams(pdf):
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Type") == pikepdf.Name.ObjStm:
            raw = len(obj.read_raw_bytes())
            decoded = len(obj.read_bytes())
            if inflates_past_limit(raw, decoded):
                reject("limit")


def main():
    log = logging.getLogger("pikepdf")
    collect = Collect()
    log.addHandler(collect)
    log.setLevel(logging.DEBUG)
    log.propagate = False
    try:
        return dump(sys.argv[1], 3 if sys.argv[2:3] == ["pdf3"] else 2, collect)
    finally:
        log.removeHandler(collect)  # the next input of a batch has its own


def dump(path, level, collect):
    try:
        pdf = pikepdf.open(path, inherit_page_attributes=False, password=case_password(path))
        collect.parts = []
        pdf.show_xref_table()
        entries = merged_entries("".join(collect.parts))
        leaves = leaf_pages(pdf, entries)
        check_object_streams(pdf)
        lines = [text for _, (_, text) in sorted(entries.items())]
        count = len(lines)
        if level == 3:
            lines += level3_lines(path, pdf, entries, leaves)
    except pikepdf.PasswordError as e:
        reject("password", str(e))
    except (pikepdf.PdfError, SectionFault, SyntaxFault) as e:
        reject("format", "%s: %s" % (type(e).__name__, e))
    if any(RECOVERY.search(w) for w in pdf.get_warnings()):
        reject("format")
    out = ["docconform-dump pdf 1", "level %d" % level, "version " + quote_bytes(pdf.pdf_version.encode("latin-1"))]
    if pdf.is_encrypted:
        e = pdf.encryption
        out.append(encrypt_line(e.V, e.R, e.bits, e.stream_method, e.string_method))
    out += ["pages %d" % len(leaves), "objects %d" % count] + lines
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(serve(main))
