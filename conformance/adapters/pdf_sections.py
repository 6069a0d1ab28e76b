"""The cross-reference sections of a PDF as the `section` lines of a level-3 dump (conformance/SPEC.md,
format pdf, reading rules 1-5): offset, form (table, stream, hybrid) and the entries each lists,
newest first, following startxref and /Prev.

For adapters whose library keeps only the merged table (libqpdf: qpdf and pikepdf). It reads the
section headers, table subsection counts and dictionaries, nothing else: the entries themselves,
their merging and every object stay the wrapped library's. A loop, or a section it cannot read,
raises SectionFault. Also here: libqpdf's own listing of that merged table, read into dump lines."""
import re

from pdf_syntax import Name, SyntaxFault, parse_object, skip_space

STARTXREF = re.compile(rb"startxref[\x00\t\n\x0c\r ]+([0-9]+)")
TABLE_TOKEN = re.compile(rb"[\x00\t\n\x0c\r ]*([0-9]+|[a-z]+)")
WHITE_SPACE = re.compile(rb"[\x00\t\n\x0c\r ]*")
OBJECT_HEADER = re.compile(rb"[0-9]+[\x00\t\n\x0c\r ]+[0-9]+[\x00\t\n\x0c\r ]+obj")


class SectionFault(ValueError):
    pass


def listed_entries(xref_stream_dict):
    """The entries an xref stream lists: the counts of /Index, or /Size."""
    index = xref_stream_dict.get(Name(b"Index"))
    if index is None:
        index = [0, xref_stream_dict.get(Name(b"Size"))]
    counts = index[1::2]
    if not counts or not all(isinstance(n, int) and not isinstance(n, bool) for n in counts):
        raise SectionFault("xref stream without a usable /Index or /Size")
    return sum(counts)


def stream_dict_at(data, at):
    m = OBJECT_HEADER.match(data, at)
    if not m:
        raise SectionFault("no object header at %d" % at)
    value, _ = parse_object(data, m.end())
    if not isinstance(value, dict):
        raise SectionFault("the xref stream at %d has no dictionary" % at)
    return value


def table_at(data, at):
    """A table starting with `xref` at data[at]: (entries, trailer dictionary)."""
    pos = at + 4
    entries = 0
    while True:
        m = TABLE_TOKEN.match(data, pos)
        if not m:
            raise SectionFault("malformed xref table at %d" % pos)
        if m.group(1) == b"trailer":
            trailer, _ = parse_object(data, m.end())
            if not isinstance(trailer, dict):
                raise SectionFault("trailer is not a dictionary")
            return entries, trailer
        count = TABLE_TOKEN.match(data, m.end())
        if not count or not count.group(1).isdigit():
            raise SectionFault("malformed subsection header at %d" % pos)
        n = int(count.group(1))
        entries += n
        pos = count.end()
        for _ in range(3 * n):  # offset, generation, type letter
            token = TABLE_TOKEN.match(data, pos)
            if not token:
                raise SectionFault("xref table ends inside a subsection")
            pos = token.end()


def merged_entries(listing):
    """number -> (generation, dump line) from libqpdf's listing of its merged table (`qpdf
    --show-xref`, pikepdf's `show_xref_table`)."""
    # libqpdf keys its table by (number, generation) and may keep an older generation's entry
    # beside a newer one; the SPEC keeps one entry per number, the newest (highest generation).
    entries = {}
    for row in listing.splitlines():
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


def sections(data):
    """[(offset, form, entries)], newest first; offsets as written (relative to the header)."""
    header = data.find(b"%PDF-", 0, 1024)
    if header < 0:
        raise SectionFault("no header")
    tail_start = max(0, len(data) - 1024)
    found = list(STARTXREF.finditer(data, tail_start))
    if not found:
        raise SectionFault("no startxref")
    offset = int(found[-1].group(1))
    result = []
    seen = set()
    try:
        while offset is not None:
            if offset in seen:
                raise SectionFault("section at %d reached twice" % offset)
            seen.add(offset)
            at = header + offset
            keyword_at = WHITE_SPACE.match(data, at).end()  # rule 3: white space before `xref` is skipped
            if data.startswith(b"xref", keyword_at):
                entries, trailer = table_at(data, keyword_at)
                form = "table"
                stream = trailer.get(Name(b"XRefStm"))
                if isinstance(stream, int) and not isinstance(stream, bool):
                    entries += listed_entries(stream_dict_at(data, header + stream))
                    form = "hybrid"
            else:
                trailer = stream_dict_at(data, skip_space(data, at))  # as the reference, whitespace before the object is skipped
                entries = listed_entries(trailer)
                form = "stream"
            result.append((offset, form, entries))
            prev = trailer.get(Name(b"Prev"))
            offset = prev if isinstance(prev, int) and not isinstance(prev, bool) else None
    except SyntaxFault as e:
        raise SectionFault(str(e)) from e
    return result
