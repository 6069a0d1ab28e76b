#!/usr/bin/python3
"""pdf adapter (formats pdf = dump level 2 and pdf3 = level 3, conformance/SPEC.md, format pdf) built on
pypdf (Debian python3-pypdf), a pure-Python reader independent of qpdf, MuPDF and pdf.js.

pypdf keeps its cross-reference data per generation (xref[gen][num], xref_objStm, free flags)
and merges the trailers of all sections, so the adapter observes pypdf's own section readers as
pypdf calls them (PdfReader._read_xref for a table and its trailer, _read_pdf15_xref_stream for
an xref stream, a table's /XRefStm included) and notes which section each entry came from. From
those reads it applies SPEC rules 4 and 5 (the newest section's entry wins, a free one included;
in a hybrid section the table's in-use entries win over the stream's, the stream's over the
table's free ones). Everything else is pypdf's: the tokenizer, offsets, objects, object streams.
  version <- PdfReader.pdf_header; pages <- the SPEC's page-tree walk through pypdf objects;
  level 3: section lines from the observed reads, the newest trailer, page lines with /MediaBox
  and /Rotate inherited, every in-use object in the SPEC's value form (strings and names as
  their bytes), a stream's digest taken of its stored (encoded) data.
pypdf opens with strict=True; any warning it logs (a repair, an invalid entry, a wrong startxref)
rejects, as the SPEC allows no recovery.
Encrypted files: decrypted with the case's password (canonical.case_password; AES needs PyCryptodome);
the encrypt line from the reader's encryption parameters; no password opens: "error: password".
Usage: pdf_pypdf.py FILE [pdf|pdf3] -> dump on stdout, exit 0; exit 1 with "error: <class>".
"""
import hashlib
import logging
import sys

import pypdf
from pypdf import _reader
from pypdf.generic import _data_structures
from pypdf.generic import (ArrayObject, BooleanObject, ByteStringObject, DictionaryObject, FloatObject,
                           IndirectObject, NameObject, NullObject, NumberObject, StreamObject, TextStringObject)
from canonical import case_password, encrypt_line, number_text, quote_bytes, reject
from pdf_syntax import name_text as name_bytes_text
from batch import serve

MAX_OBJECTS = 8_000_000  # SPEC.md, format pdf, rule 9: object numbers below this
# Logged under strict=True when a table's first subsection does not start at 0 (an update
# section); strict mode corrects nothing then, so it is no recovery.
NOT_A_REPAIR = "Xref table not zero-indexed"


def name_text(name):
    return name_bytes_text(str(name)[1:].encode("utf-8"))


def value_text(v):
    if v is None or isinstance(v, NullObject):
        return "null"
    if isinstance(v, BooleanObject):
        return "true" if v else "false"
    if isinstance(v, IndirectObject):
        return "%d %d R" % (v.idnum, v.generation)
    if isinstance(v, NumberObject):
        return str(int(v))
    if isinstance(v, FloatObject):
        return number_text(float(v))
    if isinstance(v, (TextStringObject, ByteStringObject)):
        return quote_bytes(v.original_bytes)
    if isinstance(v, NameObject):
        return name_text(v)
    if isinstance(v, ArrayObject):
        return "[" + " ".join(value_text(x) for x in v) + "]"
    if isinstance(v, DictionaryObject):
        entries = {key: v.raw_get(key) for key in v.keys()}
        if isinstance(v, StreamObject):
            entries[NameObject("/Length")] = getattr(v, "docconform_length", None)
        items = []
        for key in sorted(entries, key=lambda k: str(k)[1:].encode("utf-8")):
            raw = entries[key]
            if raw is None or isinstance(raw, NullObject):
                continue
            items.append(name_text(key) + " " + value_text(raw))
        return "<<" + " ".join(items) + ">>"
    raise ValueError("no canonical form for %s" % type(v).__name__)


def keep_stream_length():
    """pypdf drops /Length from a stream's dictionary once it has read the data; keep it."""
    make = _data_structures.StreamObject.initialize_from_dictionary

    def initialize(data):
        length = data.get("/Length")
        stream = make(data)
        stream.docconform_length = length
        return stream

    _data_structures.StreamObject.initialize_from_dictionary = staticmethod(initialize)


class Sections:
    """pypdf's section reads, newest first, with the entries each one contributed."""

    def __init__(self):
        self.list = []
        self.in_table = False
        self.ints = None

    def install(self):
        sections = self
        read_table, read_stream, read_object = (_reader.PdfReader._read_xref, _reader.PdfReader._read_pdf15_xref_stream,
                                                _reader.read_object)

        def counting_read_object(stream, pdf, *args, **kwargs):
            value = read_object(stream, pdf, *args, **kwargs)
            if sections.ints is not None:
                sections.ints.append(value)
            return value

        def enter(offset):
            # pypdf follows /Prev without remembering where it has been; a loop would never end.
            if any(s["offset"] == offset for s in sections.list):
                reject("format", "section at %d reached twice (/Prev loop)" % offset)

        def table(reader, stream):
            enter(stream.tell() - 1)
            section = {"offset": stream.tell() - 1, "form": "table", "entries": 0, "trailer": None}
            sections.list.append(section)
            before = snapshot(reader)
            sections.in_table, sections.ints = True, []
            try:
                result = read_table(reader, stream)
            finally:
                sections.in_table = False
                ints, sections.ints = sections.ints, None
            # read_object calls: subsection (first, count) pairs, then the trailer dictionary
            counts = [x for x in ints if isinstance(x, NumberObject)]
            section["entries"] += sum(counts[1::2])
            section["trailer"] = next(x for x in ints if isinstance(x, DictionaryObject))
            section["table_added"] = snapshot(reader) - before
            return result

        def stream_section(reader, stream):
            offset = stream.tell() - 1
            part_of_table = sections.in_table
            if not part_of_table:
                enter(offset)
            check_size(reader, stream, read_object)
            saved, sections.ints = sections.ints, None
            before = snapshot(reader)
            try:
                xref = read_stream(reader, stream)
            finally:
                sections.ints = saved
            index = xref.get("/Index", [0, xref.get("/Size")])
            entries = sum(int(index[i]) for i in range(1, len(index), 2))
            if part_of_table:
                section = sections.list[-1]
                section["form"] = "hybrid"
                section["entries"] += entries
                section["stream_added"] = snapshot(reader) - before
            else:
                sections.list.append({"offset": offset, "form": "stream", "entries": entries,
                                      "trailer": xref, "stream_added": snapshot(reader) - before})
            return xref

        _reader.PdfReader._read_xref = table
        _reader.PdfReader._read_pdf15_xref_stream = stream_section
        _reader.read_object = counting_read_object


def check_size(reader, stream, read_object):
    """SPEC rule 9 before pypdf reads the entries (it would loop over any /Size it is given)."""
    at = stream.tell()
    stream.seek(-1, 1)
    reader.read_object_header(stream)
    xref = read_object(stream, reader)
    stream.seek(at, 0)
    index = xref.get("/Index", [0, xref.get("/Size")])
    if any(not isinstance(x, int) for x in index) or any(
            int(index[i]) + int(index[i + 1]) > MAX_OBJECTS for i in range(0, len(index) - 1, 2)):
        reject("limit", "xref stream lists object numbers beyond %d" % MAX_OBJECTS)


def snapshot(reader):
    keys = set()
    for gen, entries in getattr(reader, "xref", {}).items():
        for num in entries:
            free = reader.xref_free_entry.get(gen, {}).get(num, False)
            keys.add((num, "f" if free else "n", gen, entries[num]))
    for num, (stream, index) in getattr(reader, "xref_objStm", {}).items():
        keys.add((num, "c", stream, index))
    return keys


def merged_table(sections):
    """SPEC rules 4 and 5 over the entries each section contributed: number -> entry."""
    table = {}
    for section in sections:  # newest first
        mine = {}
        for num, kind, a, b in section.get("stream_added", ()):
            mine[num] = (num, kind, a, b)
        for num, kind, a, b in section.get("table_added", ()):
            if kind == "n" or num not in mine:  # the table's in-use entries win in a hybrid section
                mine[num] = (num, kind, a, b)
        for num, entry in mine.items():
            table.setdefault(num, entry)
    return table


def walk_pages(reader, catalog):
    root = catalog.raw_get("/Pages")
    seen = set()
    stack = [(root, {})]
    leaves = []
    while stack:
        item, inherited = stack.pop()
        if isinstance(item, IndirectObject):
            if (item.idnum, item.generation) in seen:
                reject("format", "page node reached twice")
            seen.add((item.idnum, item.generation))
        elif item is not root:
            reject("format", "kid is not a reference")
        node = item.get_object() if isinstance(item, IndirectObject) else item
        own = dict(inherited)
        if isinstance(node, DictionaryObject):
            for key in ("/MediaBox", "/Rotate"):
                raw = node.raw_get(key) if key in node else None
                if raw is not None and not isinstance(raw, NullObject):
                    own[key] = raw
        if not isinstance(node, DictionaryObject):
            leaves.append((item, own))
            continue
        kind = node.get("/Type")
        kids = node.raw_get("/Kids") if "/Kids" in node else None
        kid_list = kids.get_object() if isinstance(kids, IndirectObject) else kids
        intermediate = kind == "/Pages" if isinstance(kind, NameObject) else isinstance(kid_list, ArrayObject)
        if not intermediate:
            leaves.append((item, own))
            continue
        if isinstance(kid_list, ArrayObject):
            stack.extend((kid, own) for kid in reversed(list(kid_list)))
    return leaves


def resolved(v):
    return v.get_object() if isinstance(v, IndirectObject) else v


def object_text(v):
    if isinstance(v, StreamObject):
        raw = v._data  # the stored bytes (an EncodedStreamObject keeps them encoded)
        length = resolved(getattr(v, "docconform_length", None))
        return "stream %s length %s sha256 %s" % (value_text(v), value_text(length), hashlib.sha256(raw).hexdigest())
    return value_text(v)


class Warnings(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def main():
    """One input, pypdf patched for it; the patches and the log handler are undone after it, so the
    next input of a batch starts from pypdf as it was."""
    patched = [(_reader.PdfReader, "_read_xref"), (_reader.PdfReader, "_read_pdf15_xref_stream"), (_reader, "read_object"),
               (_data_structures.StreamObject, "initialize_from_dictionary")]
    saved = [vars(owner)[name] for owner, name in patched]
    log = logging.getLogger("pypdf")
    warnings = Warnings()
    log.addHandler(warnings)
    log.propagate = False
    try:
        return dump(sys.argv[1], 3 if sys.argv[2:3] == ["pdf3"] else 2, warnings)
    finally:
        log.removeHandler(warnings)
        for (owner, name), value in zip(patched, saved):
            setattr(owner, name, value)


def dump(path, level, warnings):
    keep_stream_length()
    sections = Sections()
    sections.install()
    try:
        reader = pypdf.PdfReader(path, strict=True)
        encrypt = None
        if reader.is_encrypted:
            if reader.decrypt(case_password(path).decode("latin-1")) == pypdf.PasswordType.NOT_DECRYPTED:
                reject("password", "pypdf: the password opens neither as user nor as owner password")
            e = reader._encryption
            encrypt = encrypt_line(e.algV, e.algR, e.key_size, e.StmF, e.StrF)
        table = merged_table(sections.list)
        catalog = resolved(reader.trailer.raw_get("/Root"))
        if not isinstance(catalog, DictionaryObject):
            reject("format", "/Root is not a dictionary")
        leaves = walk_pages(reader, catalog)
        lines = []
        in_use = [table[num] for num in sorted(table) if num != 0 and table[num][1] != "f"]
        for num, kind, a, b in in_use:
            lines.append("xref %d %d n %d" % (num, a, b) if kind == "n" else "xref %d 0 c %d %d" % (num, a, b))
        count = len(lines)
        if level == 3:
            lines += ["section %d %s %d" % (s["offset"], s["form"], s["entries"]) for s in sections.list]
            newest = sections.list[0]
            lines.append("trailer " + ("stream " if newest["form"] == "stream" else "") + value_text(newest["trailer"]))
            for i, (ref, own) in enumerate(leaves, 1):
                lines.append("page %d %d %d mediabox %s rotate %s" % (
                    i, ref.idnum, ref.generation, value_text(resolved(own.get("/MediaBox"))), value_text(resolved(own.get("/Rotate")))))
            for num, kind, a, b in in_use:
                gen = a if kind == "n" else 0
                lines.append("obj %d %d %s" % (num, gen, object_text(reader.get_object(IndirectObject(num, gen, reader)))))
        version = reader.pdf_header[len("%PDF-"):].encode("latin-1")
    # RecursionError: pypdf follows a /Length that refers to its own stream without end.
    # TypeError: pypdf compares or counts with an object stream's /N or /First without checking that it is an integer.
    except (pypdf.errors.PyPdfError, ValueError, KeyError, AssertionError, StopIteration, RecursionError, TypeError) as e:
        reject("format", "%s: %s" % (type(e).__name__, e))
    repairs = [m for m in warnings.messages if not m.startswith(NOT_A_REPAIR)]
    if repairs:
        reject("format", "pypdf warned: " + repairs[0])
    out = ["docconform-dump pdf 1", "level %d" % level, "version " + quote_bytes(version)] + ([encrypt] if encrypt else []) + [
        "pages %d" % len(leaves), "objects %d" % count] + lines
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(serve(main))
