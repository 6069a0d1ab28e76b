#!/usr/bin/python3
"""pdf adapter (formats pdf = dump level 2 and pdf3 = level 3, conformance/SPEC.md, format pdf) built
on the qpdf command-line tool.

qpdf is an independent reader; this adapter maps its output onto our canonical dump:
  version  <- `qpdf --json=2` (qpdf[0].pdfversion)
  pages    <- `qpdf --show-npages` (level 2); the walk of the page tree below (level 3)
  objects / xref lines <- `qpdf --show-xref` (the merged table, newest entry wins)
  level 3: trailer and obj lines from the objects of `qpdf --json=2`, read as they stream out
    (python3-ijson); a stream's digest of its raw data (`--json-stream-data=inline
    --decode-level=none`, which drops /Length, so the dictionaries come from a run without data).
    qpdf's JSON gives a string that starts with a byte-order mark, or reads as PDFDocEncoding
    text, as decoded text ("u:"), which loses its bytes, and qpdf 11.3 writes a name that is not
    UTF-8 as raw bytes; an object holding either is taken from `qpdf --show-object` instead:
    qpdf's own syntax for it, read back by pdf_syntax.py. Section lines from pdf_sections.py,
    because qpdf keeps only the merged table.
Rejection follows the SPEC's policy, which has no implicit recovery:
  * qpdf exits 2 (errors) on `qpdf --check`;
  * qpdf had to reconstruct the cross-reference table or found an xref loop;
  * the page tree reaches a node twice (qpdf warns and repairs; the SPEC rejects);
  * an object stream inflates beyond the SPEC's ratio limit (1000:1 once above 1 MiB).
Encrypted files: every qpdf run gets the case's password (canonical.case_password); the encrypt
line from `qpdf --json=2 --json-key=encrypt`; "invalid password" rejects ("error: password").
Usage: pdf_qpdf.py FILE [pdf|pdf3] -> dump on stdout, exit 0; exit 1 with "error: <class>" when
rejected. With $DOCCONFORM_PHASES set, format pdf also times the phase pdf_objects (`qpdf --check`).
"""
import base64
import codecs
import hashlib
import os
import re
import subprocess
import sys
import tempfile

import ijson
import json

from canonical import case_password, encrypt_line, quote_bytes, reject
from phases import time_phase
from pdf_sections import SectionFault, merged_entries, sections
from pdf_syntax import Name, Ref, SyntaxFault, inflates_past_limit, name_bytes, parse_object, value_text
from batch import serve

QPDF = "/usr/bin/qpdf"
REFERENCE = re.compile(r"([0-9]+) ([0-9]+) R$")
# Objects named on one command line at most; past this a run lists every object.
MAX_NAMED_OBJECTS = 10000
# What the page walk reads of a dictionary; level 3 keeps no more of each object in memory.
PAGE_TREE_KEYS = tuple(Name(k) for k in (b"Pages", b"Type", b"Kids", b"MediaBox", b"Rotate"))


# The case's password (conformance/SPEC.md, format pdf rule 10), given to every run; set by main().
PASSWORD = []


def run(*args):
    # No timeout here: the conformance runner bounds the whole adapter (its process group).
    return subprocess.run([QPDF] + PASSWORD + list(args), capture_output=True)


class ValidUtf8:
    """qpdf 11.3 writes a name's bytes into its JSON as they are, so a name that is not UTF-8
    makes the JSON invalid; this reader passes the output on with each such byte replaced by
    U+FFFD, which json_name then treats as unknown bytes."""

    def __init__(self, raw):
        self.raw = raw
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def read(self, size=-1):
        data = self.raw.read(size)
        return self.decoder.decode(data, final=not data).encode("utf-8")


def json_objects(path, *options):
    """(key, value) per entry of `qpdf --json=2`'s "qpdf" list, parsed as qpdf writes it out:
    first its header's fields ("pdfversion", ...), then "obj:N G R" per object and "trailer"."""
    proc = subprocess.Popen([QPDF, "--json=2", "--json-key=qpdf"] + PASSWORD + list(options) + [path],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    yield from ijson.kvitems(ValidUtf8(proc.stdout), "qpdf.item", use_float=True)
    if proc.wait() not in (0, 3):  # 3: warnings only, which --check has judged
        reject("format", "qpdf --json failed")


def object_key(key):
    """(number, generation) of "obj:N G R"."""
    num, gen, _ = key[4:].split(" ")
    return int(num), int(gen)


def only_objects(objgens):
    """The options that restrict a `--json` run to these objects (none, i.e. every object, when
    they are too many for one command line)."""
    if len(objgens) > MAX_NAMED_OBJECTS:
        return []
    return ["--json-object=%d,%d" % objgen for objgen in objgens]


class NeedsBytes(Exception):
    """A "u:" string or a name that is not UTF-8: qpdf's JSON kept its text, not its bytes."""


def json_name(text):
    # "/Name" carries the name's bytes as UTF-8 (qpdf 11.3 writes them even when they are not
    # UTF-8: ValidUtf8 made those U+FFFD); later versions write "n:/A#XX" for such names.
    if text.startswith("n:/"):
        return name_bytes(text[3:].encode("latin-1"))
    if not text.startswith("/"):
        raise SyntaxFault("not a name: %r" % text[:20])
    if "\ufffd" in text:
        raise NeedsBytes()
    return Name(text[1:].encode("utf-8", "surrogatepass"))


def json_value(v):
    """A value of qpdf's JSON v2 as pdf_syntax values."""
    if v is None or isinstance(v, (bool, int, float)):
        return v
    if isinstance(v, list):
        return [json_value(x) for x in v]
    if isinstance(v, dict):
        return {json_name(k): json_value(x) for k, x in v.items()}
    if v.startswith("b:"):
        return bytes.fromhex(v[2:])
    if v.startswith("u:"):
        raise NeedsBytes()
    m = REFERENCE.match(v)
    if m:
        return Ref((int(m.group(1)), int(m.group(2))))
    return json_name(v)


def shown_object(path, which):
    """qpdf's own syntax for one object ("N,G" or "trailer"), read back: (value, is_stream)."""
    out = run("--show-object=" + which, path).stdout
    stream = out.startswith(b"Object is stream.")
    if stream:
        out = out[out.index(b"<<"):]
    return parse_object(out, 0)[0], stream


def check_object_streams(path, lengths):
    """Rejects an object stream that inflates past the ratio limit; `lengths` maps (num, gen) of
    each object stream to its /Length as qpdf read it."""
    if not lengths:
        return
    # One run writes the decoded data of the object streams to files (which drops /Length from
    # the dictionaries, so the encoded lengths come from the run without data).
    named = only_objects(lengths)
    with tempfile.TemporaryDirectory() as data:
        prefix = os.path.join(data, "s")
        for key, value in json_objects(path, "--json-stream-data=file", "--json-stream-prefix=" + prefix, *named):
            if not key.startswith("obj:") or object_key(key) not in lengths:
                continue
            datafile = value.get("stream", {}).get("datafile")
            decoded = os.path.getsize(datafile) if datafile and os.path.exists(datafile) else 0
            raw = lengths[object_key(key)]
            if isinstance(raw, int) and inflates_past_limit(raw, decoded):
                reject("limit")
            if datafile and os.path.exists(datafile):
                os.remove(datafile)


class Level3:
    """What level 3 keeps of each object while qpdf's JSON streams past: its obj line in a
    temporary file, and the few values the page walk needs."""

    def __init__(self, path, in_use):
        self.path = path
        self.in_use = in_use  # number -> (num, gen) of each in-use entry (gen 0 when compressed)
        self.wanted = set(in_use.values())
        self.lines = tempfile.TemporaryFile()
        self.at = {}  # (num, gen) -> (offset, size) of the object's text in self.lines
        self.nodes = {}  # (num, gen) -> the page-tree keys of each dictionary, or an array of references
        self.streams = {}  # (num, gen) -> the dictionary of each stream, until its data is read
        self.trailer = None

    def add(self, key, value):
        if key == "trailer":
            try:
                self.trailer = json_value(value["value"])
            except NeedsBytes:
                self.trailer = shown_object(self.path, "trailer")[0]
            return
        objgen = object_key(key)
        if objgen not in self.wanted:
            return
        try:
            stream = "stream" in value
            parsed = json_value(value["stream"]["dict"] if stream else value["value"])
        except NeedsBytes:
            parsed, stream = shown_object(self.path, "%d,%d" % objgen)
        if stream:
            self.streams[objgen] = parsed
            return
        if isinstance(parsed, dict):
            self.nodes[objgen] = {k: parsed[k] for k in PAGE_TREE_KEYS if k in parsed}
        elif isinstance(parsed, list) and all(isinstance(x, Ref) for x in parsed):
            self.nodes[objgen] = parsed  # perhaps an indirect /Kids
        self.keep(objgen, value_text(parsed))

    def keep(self, objgen, text):
        data = text.encode("ascii")
        self.at[objgen] = (self.lines.tell(), len(data))
        self.lines.write(data)

    def text(self, objgen):
        offset, size = self.at[objgen]
        self.lines.seek(offset)
        data = self.lines.read(size).decode("ascii")
        self.lines.seek(0, os.SEEK_END)
        return data

    def resolved_text(self, value):
        """A value with a top-level reference replaced by its object (references inside kept)."""
        if isinstance(value, Ref):
            return self.text(value) if value in self.at else "null"
        return value_text(value)

    def add_stream_data(self):
        """The streams' obj lines, each with the SHA-256 of its raw data."""
        if not self.streams:
            return
        named = only_objects(self.streams)
        lengths = {o: d.get(Name(b"Length")) for o, d in self.streams.items()}
        for key, value in json_objects(self.path, "--json-stream-data=inline", "--decode-level=none", *named):
            if not key.startswith("obj:") or object_key(key) not in self.streams:
                continue
            objgen = object_key(key)
            data = base64.b64decode(value["stream"].get("data") or "")
            length = lengths[objgen]
            self.keep(objgen, "stream %s length %s sha256 %s" % (value_text(self.streams.pop(objgen)),
                                                                 self.resolved_text(length),
                                                                 hashlib.sha256(data).hexdigest()))
        if self.streams:
            reject("format", "qpdf gave no data for %d streams" % len(self.streams))

    def leaf_pages(self):
        """[(page objgen, inherited /MediaBox and /Rotate)] in tree order (SPEC rule 8)."""
        root = self.trailer.get(Name(b"Root")) if isinstance(self.trailer, dict) else None
        catalog = self.nodes.get(root) if isinstance(root, Ref) else None
        if catalog is None:
            reject("format", "no catalog")
        pages = catalog.get(Name(b"Pages"))
        if not isinstance(pages, Ref):
            reject("format", "the catalog's /Pages is not a reference")
        seen = set()
        leaves = []
        stack = [(pages, {})]
        while stack:
            ref, inherited = stack.pop()
            if not isinstance(ref, Ref):
                reject("format", "a kid that is not a reference")
            if ref in seen:
                reject("format", "a page-tree node reached twice")
            if ref[0] not in self.in_use:
                reject("format", "a page-tree node the xref does not list")
            seen.add(ref)
            node = self.nodes.get(ref)
            if not isinstance(node, dict):
                leaves.append((ref, inherited))
                continue
            own = dict(inherited)
            for key in (Name(b"MediaBox"), Name(b"Rotate")):
                if node.get(key) is not None:
                    own[key] = node[key]
            kind = node.get(Name(b"Type"))
            kids = node.get(Name(b"Kids"))
            if isinstance(kids, Ref):
                kids = self.nodes.get(kids)
            intermediate = kind == Name(b"Pages") if isinstance(kind, Name) else isinstance(kids, list)
            if not intermediate:
                leaves.append((ref, own))
            elif isinstance(kids, list):
                stack.extend((kid, own) for kid in reversed(kids))
        return leaves

    def lines_after_level2(self):
        """(the section, trailer and page lines; an iterator of the obj lines, which reads them
        back from the temporary file), after every check that may reject the file."""
        with open(self.path, "rb") as f:
            listed = sections(f.read())
        out = ["section %d %s %d" % section for section in listed]
        out.append("trailer " + ("stream " if listed[0][1] == "stream" else "") + value_text(self.trailer))
        leaves = self.leaf_pages()
        for i, (page, own) in enumerate(leaves, 1):
            out.append("page %d %d %d mediabox %s rotate %s" % (i, page[0], page[1],
                                                                self.resolved_text(own.get(Name(b"MediaBox"))),
                                                                self.resolved_text(own.get(Name(b"Rotate")))))

        def objects():
            for num, objgen in sorted(self.in_use.items()):
                yield "obj %d %d %s" % (num, objgen[1], self.text(objgen) if objgen in self.at else "null")

        return out, len(leaves), objects()


def main():
    path = sys.argv[1]
    level = 3 if sys.argv[2:3] == ["pdf3"] else 2
    password = case_password(path)
    PASSWORD.clear()  # of the previous input of a batch
    if password:
        PASSWORD.append("--password=" + password.decode("latin-1"))
    check = run("--check", path)
    text = (check.stdout + check.stderr).decode("latin-1")
    if check.returncode == 2:
        reject("password" if "invalid password" in text else "format")
    if re.search(r"reconstruct|loop detected|can't find PDF header|recover stream length", text):
        reject("format")
    if "more than once in the pages tree" in text:
        reject("format")

    entries = merged_entries(run("--show-xref", path).stdout.decode())
    in_use = {num: (num, gen if " n " in line else 0) for num, (gen, line) in entries.items()}
    keeper = Level3(path, in_use) if level == 3 else None
    objstm_lengths = {}
    version = None
    try:
        for key, value in json_objects(path, "--json-stream-data=none"):
            if key == "pdfversion":
                version = value.encode("latin-1")
            if not key.startswith("obj:") and key != "trailer":
                continue  # the rest of qpdf's header
            stream = value.get("stream")
            if stream and stream.get("dict", {}).get("/Type") == "/ObjStm":
                objstm_lengths[object_key(key)] = stream["dict"].get("/Length")
            if keeper:
                keeper.add(key, value)
        check_object_streams(path, objstm_lengths)
        lines = [text for _, (_, text) in sorted(entries.items())]
        count = len(lines)
        objects = []
        if keeper:
            keeper.add_stream_data()
            more, pages, objects = keeper.lines_after_level2()
            lines += more
        else:
            pages = int(run("--show-npages", path).stdout.decode().strip())
    except (SyntaxFault, SectionFault) as e:
        reject("format", "%s: %s" % (type(e).__name__, e))
    # Nothing below rejects: the level-3 obj lines are written as they are read back.
    head = ["docconform-dump pdf 1", "level %d" % level, "version " + quote_bytes(version)]
    encrypt = json.loads(run("--json=2", "--json-key=encrypt", path).stdout)["encrypt"]
    if encrypt["encrypted"]:
        e = encrypt["parameters"]
        head.append(encrypt_line(e["V"], e["R"], e["bits"], e["streammethod"], e["stringmethod"]))
    head += ["pages %d" % pages, "objects %d" % count]
    sys.stdout.writelines(line + "\n" for line in head + lines)
    sys.stdout.writelines(line + "\n" for line in objects)
    sys.stdout.flush()
    if level == 2:
        # Phase pdf_objects (conformance/SPEC.md, format pdf): `qpdf --check` reads every object.
        time_phase("pdf_objects", lambda: (run("--check", path), os.path.getsize(path))[1])
    return 0


if __name__ == "__main__":
    sys.exit(serve(main))
