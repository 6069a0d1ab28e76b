#!/usr/bin/python3
"""Writes the synthetic PDF conformance cases into conformance/cases/pdf/.

Each case is built here byte by byte (offsets computed on the final bytes), independently of
the reference implementation, so the cases test it rather than mirror it.
Usage: pdf_cases.py OUT_DIR
"""
import os
import struct
import sys
import zlib

HEADER = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"


def entry(offset, gen, kind, eol=b"\r\n"):
    return b"%010d %05d %s" % (offset, gen, kind) + eol


def subsections(nums):
    """(first, count) of each run of consecutive numbers in sorted nums."""
    runs = []
    for n in nums:
        if runs and n == runs[-1][0] + runs[-1][1]:
            runs[-1][1] += 1
        else:
            runs.append([n, 1])
    return runs


class Builder:
    """Accumulates objects and records their offsets."""

    def __init__(self, header=HEADER):
        self.data = bytearray(header)
        self.offsets = {}

    def obj(self, num, body, gen=0):
        self.offsets[num] = len(self.data)
        self.data += b"%d %d obj\n" % (num, gen) + body + b"\nendobj\n"

    def stream(self, num, dict_body, payload, length=None):
        length = b"%d" % len(payload) if length is None else length
        self.obj(num, b"<< " + dict_body + b" /Length " + length + b" >>\nstream\n" + payload + b"\nendstream")

    def table(self, nums, trailer, eol=b"\r\n", first_free=True):
        """A classic section listing nums (contiguous runs become subsections)."""
        at = len(self.data)
        out = b"xref\n"
        for first, count in subsections(sorted(nums)):
            out += b"%d %d\n" % (first, count)
            for n in range(first, first + count):
                if n == 0 and first_free:
                    out += entry(0, 65535, b"f", eol)
                elif n in self.offsets:
                    out += entry(self.offsets[n], 0, b"n", eol)
                else:
                    out += entry(0, 1, b"f", eol)
        self.data += out + b"trailer\n" + trailer + b"\nstartxref\n%d\n%%%%EOF\n" % at
        return at

    def xref_stream(self, num, rows, extra, predictor=b"png", row_types=(2,), self_offset=None):
        """rows: list of (num, type, f2, f3); the stream's own row is added (at self_offset when
        given, else where it is). predictor: b"png" (row k encoded with PNG filter type
        row_types[k % len(row_types)]), b"tiff" (TIFF predictor 2) or None (no filter)."""
        at = len(self.data)
        rows = sorted(rows + [(num, 1, at if self_offset is None else self_offset, 0)])
        packed, prev = b"", bytes(7)
        for k, (n, t, f2, f3) in enumerate(rows):
            row = struct.pack(">BIH", t, f2, f3)
            if predictor == b"png":
                kind = row_types[k % len(row_types)]
                packed += bytes([kind]) + png_filter(kind, row, prev)
                prev = row
            elif predictor == b"tiff":
                packed += bytes((row[i] - (row[i - 1] if i else 0)) & 0xFF for i in range(7))
            else:
                packed += row
        index = subsections([n for n, _, _, _ in rows])
        dict_body = b"/Type /XRef /W [1 4 2] /Index [%s] " % b" ".join(b"%d %d" % (a, c) for a, c in index) + extra
        if predictor:
            packed = zlib.compress(packed)
            parms = b"/Predictor 2 /Colors 1 /BitsPerComponent 8" if predictor == b"tiff" else \
                b"/Predictor %d" % (12 if row_types == (2,) else 15)
            dict_body += b" /Filter /FlateDecode /DecodeParms << %s /Columns 7 >>" % parms
        self.stream(num, dict_body, packed)
        self.data += b"startxref\n%d\n%%%%EOF\n" % at
        return at


def png_filter(kind, row, prev):
    """One row under PNG filter type `kind` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth), one byte per
    pixel (RFC 2083 6)."""
    out = bytearray()
    for i, x in enumerate(row):
        left = row[i - 1] if i else 0
        up = prev[i]
        upleft = prev[i - 1] if i else 0
        if kind == 0:
            pred = 0
        elif kind == 1:
            pred = left
        elif kind == 2:
            pred = up
        elif kind == 3:
            pred = (left + up) // 2
        else:
            p = left + up - upleft
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - upleft)
            pred = left if pa <= pb and pa <= pc else up if pb <= pc else upleft
        out.append((x - pred) & 0xFF)
    return bytes(out)


def one_page(b, extra_page=b""):
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    b.obj(2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>")
    b.obj(3, b"<< /Type /Page /Parent 2 0 R" + extra_page + b" >>")


def classic(eol=b"\r\n"):
    b = Builder()
    one_page(b)
    b.obj(4, b"<< /Title (Classic \\(table\\)) /Name /A#20B /Real -0.5 /Hex <00FF> /Big 12345678901 >>")
    b.table(range(5), b"<< /Size 5 /Root 1 0 R /Info 4 0 R >>", eol)
    return bytes(b.data)


def objstm_file(n=b"3", first=None, header_nums=(1, 2, 3), xref_index_shift=0, stream_extra=b"", length=None,
                endobj=True):
    b = Builder()
    bodies = [b"<< /Type /Catalog /Pages 2 0 R >>",
              b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 595 842] >>",
              b"<< /Type /Page /Parent 2 0 R /Rotate 90 >>"]
    header, data = b"", b""
    for num, body in zip(header_nums, bodies):
        header += b"%d %d " % (num, len(data))
        data += body + b"\n"
    first_value = b"%d" % len(header) if first is None else first
    b.stream(4, b"/Type /ObjStm /N " + n + b" /First " + first_value + b" /Filter /FlateDecode" + stream_extra,
             zlib.compress(header + data), length)
    if not endobj:
        del b.data[-len(b"endobj\n"):]
    rows = [(0, 0, 0, 65535), (4, 1, b.offsets[4], 0)]
    rows += [(k + 1, 2, 4, (k + xref_index_shift) % 3) for k in range(3)]
    b.xref_stream(5, rows, b"/Size 6 /Root 1 0 R")
    return bytes(b.data)


def xref_stream_plain(predictor=b"png", row_types=(2,), self_offset=None):
    b = Builder()
    one_page(b)
    rows = [(0, 0, 0, 65535)] + [(n, 1, b.offsets[n], 0) for n in (1, 2, 3)]
    b.xref_stream(4, rows, b"/Size 5 /Root 1 0 R", predictor, row_types, self_offset)
    return bytes(b.data)


def entry_at_4294967295():
    """Object 3's entry gives offset 4294967295, past the end of the file."""
    data = classic()
    b = Builder()
    one_page(b)
    return replace_once(data, b"%010d 00000 n" % b.offsets[3], b"4294967295 00000 n")


def object_number_past_2_31():
    """A subsection starting at object 2147483648: beyond every object-number limit."""
    data = classic()
    return replace_once(data, b"trailer\n", b"2147483648 1\n" + entry(9, 0, b"n") + b"trailer\n")


def broken_xref_stream_over_object_stream():
    """The catalog, pages and page live in object stream 4; the xref stream's data is not
    Flate, so only a scan finds them (and the catalogue through the xref stream's /Root)."""
    data = objstm_file()
    at = data.index(b"5 0 obj")
    start = data.index(b"stream\n", at) + 7
    end = data.index(b"\nendstream", start)
    junk = b"J" * (end - start)
    return data[:start] + junk + data[end:]


def no_xref_no_trailer():
    """Objects only: no table, no trailer, no startxref; the catalogue is found by its /Type."""
    data = classic()
    return data[:data.index(b"\nxref\n") + 1]


def white_space_before_xref(white, at_prev):
    """startxref (or, in an update, /Prev) pointing at white space before `xref`."""
    b = Builder()
    one_page(b)
    b.obj(4, b"(version one)")
    b.data += white
    at = b.table(range(5), b"<< /Size 5 /Root 1 0 R >>") - len(white)
    if not at_prev:
        return set_startxref(bytes(b.data), at)
    b.obj(4, b"(version two)")
    b.table([4], b"<< /Size 5 /Root 1 0 R /Prev %d >>" % at)
    return bytes(b.data)


def hybrid():
    b = Builder()
    one_page(b)
    header = b"5 0 "
    b.stream(4, b"/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", zlib.compress(header + b"(only in the object stream)"))
    b.obj(6, b"<< /Producer (hybrid) /Extra 5 0 R >>")
    stm_at = len(b.data)
    rows = struct.pack(">BIH", 2, 4, 0)
    b.stream(7, b"/Type /XRef /Size 8 /Index [5 1] /W [1 4 2]", rows)
    b.table([0, 1, 2, 3, 4, 5, 6, 7], b"<< /Size 8 /Root 1 0 R /Info 6 0 R /XRefStm %d >>" % stm_at)
    return bytes(b.data)


def with_update(stream_form=False):
    b = Builder()
    one_page(b)
    b.obj(4, b"(version one)")
    b.obj(5, b"(to be deleted)")
    if stream_form:
        rows = [(0, 0, 0, 65535)] + [(n, 1, b.offsets[n], 0) for n in (1, 2, 3, 4, 5)]
        first = b.xref_stream(6, rows, b"/Size 7 /Root 1 0 R")
        b.obj(4, b"(version two)")
        b.obj(3, b"<< /Type /Page /Parent 2 0 R /Rotate 180 >>")
        rows = [(3, 1, b.offsets[3], 0), (4, 1, b.offsets[4], 0), (5, 0, 0, 1)]
        b.xref_stream(7, rows, b"/Size 8 /Root 1 0 R /Prev %d" % first)
    else:
        first = b.table(range(6), b"<< /Size 6 /Root 1 0 R >>")
        b.obj(4, b"(version two)")
        b.obj(3, b"<< /Type /Page /Parent 2 0 R /Rotate 180 >>")
        del b.offsets[5]
        b.table([3, 4, 5], b"<< /Size 6 /Root 1 0 R /Prev %d >>" % first)
    return bytes(b.data)


def nested_pages():
    b = Builder()
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    b.obj(2, b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 3 /MediaBox [0 0 612 792] /Rotate 90 >>")
    b.obj(3, b"<< /Type /Pages /Parent 2 0 R /Kids [5 0 R 6 0 R] /Count 2 /MediaBox [0 0 100 200] >>")
    b.obj(4, b"<< /Type /Page /Parent 2 0 R /Rotate 0 >>")
    b.obj(5, b"<< /Type /Page /Parent 3 0 R >>")
    b.obj(6, b"<< /Type /Page /Parent 3 0 R /MediaBox 7 0 R >>")
    b.obj(7, b"[0 0 10 20]")
    b.table(range(8), b"<< /Size 8 /Root 1 0 R >>")
    return bytes(b.data)


def subsections_and_comments():
    b = Builder()
    b.data += b"% a comment line\n"
    one_page(b)
    b.obj(9, b"[ % comment inside\n 1 2\t3 ]")
    b.obj(10, b"<< /Length 11 0 R >>\nstream\nabc\nendstream")
    b.obj(11, b"3")
    b.table([0, 1, 2, 3, 9, 10, 11], b"<< /Size 12 /Root 1 0 R >>")
    return bytes(b.data)


def replace_once(data, old, new):
    assert data.count(old) >= 1, old
    return data.replace(old, new, 1)


def set_startxref(data, value):
    cut = data.rindex(b"startxref\n")
    return data[:cut] + b"startxref\n%d\n%%%%EOF\n" % value


def prev_loop():
    data = classic()
    at = int(data[data.rindex(b"startxref\n") + 10:].split(b"\n")[0])
    return replace_once(data, b"/Size 5 /Root", b"/Prev %d /Size 5 /Root" % at)


def absurd_w():
    b = Builder()
    one_page(b)
    rows = b"".join(struct.pack(">BIH", 1, b.offsets.get(n, 0), 0) for n in range(4))
    b.stream(4, b"/Type /XRef /Size 5 /W [1 12 2] /Root 1 0 R", rows)
    return bytes(b.data) + b"startxref\n%d\n%%%%EOF\n" % b.offsets[4]


def absurd_size():
    b = Builder()
    one_page(b)
    rows = b"".join(struct.pack(">BIH", 1, b.offsets.get(n, 0), 0) for n in range(4))
    b.stream(4, b"/Type /XRef /Size 900000000 /W [1 4 2] /Root 1 0 R", rows)
    return bytes(b.data) + b"startxref\n%d\n%%%%EOF\n" % b.offsets[4]


def length_lie():
    # The object stream holding the page tree claims 10 bytes fewer than it has.
    return objstm_file(length=b"%d" % (objstm_stream_length() - 10))


def objstm_stream_length():
    data = objstm_file()
    start = data.index(b"/Length ") + 8
    return int(data[start:data.index(b" ", start)])


def self_length():
    # The object stream holding the page tree takes its /Length from itself.
    return objstm_file(length=b"4 0 R")


def page_loop():
    b = Builder()
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    b.obj(2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
    b.obj(3, b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>")
    b.table(range(4), b"<< /Size 4 /Root 1 0 R >>")
    return bytes(b.data)


def shared_page():
    b = Builder()
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    b.obj(2, b"<< /Type /Pages /Kids [3 0 R 3 0 R] /Count 2 /MediaBox [0 0 612 792] >>")
    b.obj(3, b"<< /Type /Page /Parent 2 0 R >>")
    b.table(range(4), b"<< /Size 4 /Root 1 0 R >>")
    return bytes(b.data)


def deflate_bomb():
    # 16 MiB of zeros deflate to about 16 KiB: a ratio above the 1000:1 limit.
    b = Builder()
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    bomb = zlib.compress(bytes(16 << 20), 9)
    b.stream(3, b"/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", bomb)
    b.obj(4, b"<< /Type /Pages /Kids [] /Count 0 >>")
    rows = [(0, 0, 0, 65535), (1, 1, b.offsets[1], 0), (3, 1, b.offsets[3], 0), (2, 2, 3, 0)]
    b.xref_stream(5, rows, b"/Size 6 /Root 1 0 R")
    return bytes(b.data)


def empty_object():
    b = Builder()
    one_page(b)
    b.obj(4, b"")
    b.table(range(5), b"<< /Size 5 /Root 1 0 R >>")
    return bytes(b.data)


def missing_endobj():
    """Object 3, the page (read at every level), ends without its endobj keyword."""
    b = Builder()
    one_page(b)
    del b.data[-len(b"endobj\n"):]
    b.table(range(4), b"<< /Size 4 /Root 1 0 R >>")
    return bytes(b.data)


def leading_garbage():
    b = Builder(b"GARBAGE\n" + HEADER)
    one_page(b)
    at = len(b.data)
    base = 8
    out = b"xref\n0 4\n" + entry(0, 65535, b"f") + b"".join(entry(b.offsets[n] - base, 0, b"n") for n in (1, 2, 3))
    b.data += out + b"trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (at - base)
    return bytes(b.data)


def text_strings():
    """Strings that look like text in each encoding a reader may decode, which the dump keeps as
    their bytes: UTF-16BE and UTF-16LE with a byte-order mark, PDFDocEncoding, UTF-8 with a
    mark, a mark with an odd byte count and one with a lone surrogate; in a dictionary, an
    array, a stream's dictionary and the trailer."""
    b = Builder()
    one_page(b)
    b.obj(4, b"<< /Be <FEFF0041> /Le <FFFE4100> /Doc (A) /U8 <EFBBBF41> /Odd <FEFF00> /Lone <FEFFD800>"
             b" /List [<FEFF0042> (B) <FEFF00E9>] /Latin (\351) >>")
    b.stream(5, b"/Title <FEFF0043>", b"BT ET")
    b.table(range(6), b"<< /Size 6 /Root 1 0 R /Info 4 0 R /Extra 5 0 R /ID [<FEFF0044> <FEFF0044>] >>")
    return bytes(b.data)


def names_as_bytes():
    """Names written with #xx: bytes that are not UTF-8 (#E9), UTF-8 (#C3#A9), a space and a
    number sign, as keys and as values; the dump keeps their bytes."""
    b = Builder()
    one_page(b)
    b.obj(4, b"<< /A#E9B 1 /#C3#A9 2 /Sp#20ace (x) /N#23 /V#E9 /List [/#E9 /#C3#A9] >>")
    b.table(range(5), b"<< /Size 5 /Root 1 0 R /Info 4 0 R >>")
    return bytes(b.data)


def duplicate_key():
    b = Builder()
    one_page(b, b" /Rotate 90 /Rotate 270")
    b.table(range(4), b"<< /Size 4 /Root 1 0 R >>")
    return bytes(b.data)


def stream_keyword_spaces():
    b = Builder()
    one_page(b)
    b.obj(4, b"<< /Length 3 >>\nstream  \r\nabc\nendstream")
    b.table(range(5), b"<< /Size 5 /Root 1 0 R >>")
    return bytes(b.data)


def custom_xref_stream(b, num, w, rows, extra, index=None):
    """An unfiltered xref stream whose /W is `w` (a list of widths) and whose rows are
    (num, fields...) with one value per width, widths of 0 leaving their field out; the stream's
    own row (type 1, its offset, 0) is added. index: /Index as written (default: the rows' runs)."""
    at = len(b.data)
    rows = sorted(rows + [(num, 1, at, 0)])
    packed = b""
    for row in rows:
        for width, value in zip(w, row[1:]):
            packed += value.to_bytes(width, "big") if width else b""
    if index is None:
        index = b" ".join(b"%d %d" % (a, c) for a, c in subsections([row[0] for row in rows]))
    dict_body = b"/Type /XRef /W [%s] /Index [%s] " % (b" ".join(b"%d" % x for x in w), index) + extra
    b.stream(num, dict_body, packed)
    b.data += b"startxref\n%d\n%%%%EOF\n" % at
    return at


def xref_stream_w(w, extra=b"/Size 5 /Root 1 0 R", from_object=0):
    """One page, the xref stream (object 4) written with /W `w`; rows from object `from_object`."""
    b = Builder()
    one_page(b)
    rows = [(0, 0, 0, 65535)] if from_object == 0 else []
    rows += [(n, 1, b.offsets[n], 0) for n in (1, 2, 3)]
    custom_xref_stream(b, 4, w, rows, extra)
    return bytes(b.data)


def xref_stream_unknown_type():
    """Object 5 has a row of type 3: a reference to it is null (the page's /Rotate 5 0 R)."""
    b = Builder()
    one_page(b, b" /Rotate 5 0 R")
    b.obj(5, b"90")
    rows = [(0, 0, 0, 65535)] + [(n, 1, b.offsets[n], 0) for n in (1, 2, 3)] + [(5, 3, b.offsets[5], 0)]
    custom_xref_stream(b, 4, [1, 4, 2], rows, b"/Size 6 /Root 1 0 R")
    return bytes(b.data)


def xref_stream_rows_short():
    """/Index [0 6] with /Size 6, but the data holds the rows of objects 0 to 4 only."""
    b = Builder()
    one_page(b)
    rows = [(0, 0, 0, 65535)] + [(n, 1, b.offsets[n], 0) for n in (1, 2, 3)]
    custom_xref_stream(b, 4, [1, 4, 2], rows, b"/Size 6 /Root 1 0 R", index=b"0 6")
    return bytes(b.data)


def root_value(root):
    """A table file whose trailer's /Root is `root`; objects 1-3 a one-page tree, 4 an array."""
    b = Builder()
    one_page(b)
    b.obj(4, b"[/Not /A /Catalog]")
    b.table(range(5), b"<< /Size 5 /Root " + root + b" >>")
    return bytes(b.data)


def generation_mismatch():
    """The page's /Rotate is 4 1 R; object 4 (90) has generation 0: the reference is null."""
    b = Builder()
    one_page(b, b" /Rotate 4 1 R")
    b.obj(4, b"90")
    b.table(range(5), b"<< /Size 5 /Root 1 0 R >>")
    return bytes(b.data)


def nested_arrays(depth):
    """Object 4 is `depth` arrays, one inside the other (the page's /Nested 4 0 R)."""
    b = Builder()
    one_page(b, b" /Nested 4 0 R")
    b.obj(4, b"[" * depth + b"]" * depth)
    b.table(range(5), b"<< /Size 5 /Root 1 0 R >>")
    return bytes(b.data)


def nesting_in_page(depth):
    """The page dictionary, read at every level, holds `depth` arrays one inside the other."""
    b = Builder()
    one_page(b, b" /Nested " + b"[" * depth + b"]" * depth)
    b.table(range(4), b"<< /Size 4 /Root 1 0 R >>")
    return bytes(b.data)


def kids_not_array():
    """The /Pages node's /Kids is 3 0 R, a reference to the page, not an array."""
    b = Builder()
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    b.obj(2, b"<< /Type /Pages /Kids 3 0 R /Count 1 /MediaBox [0 0 612 792] >>")
    b.obj(3, b"<< /Type /Page /Parent 2 0 R >>")
    b.table(range(4), b"<< /Size 4 /Root 1 0 R >>")
    return bytes(b.data)


def page_header_generation(gen):
    """The page's object header says generation `gen`; its table entry says 0."""
    b = Builder()
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    b.obj(2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>")
    b.obj(3, b"<< /Type /Page /Parent 2 0 R >>", gen)
    b.table(range(4), b"<< /Size 4 /Root 1 0 R >>")
    return bytes(b.data)


def xref_stream_index_odd():
    """/Index [0 5 7]: a first object number without its count."""
    b = Builder()
    one_page(b)
    rows = [(0, 0, 0, 65535)] + [(n, 1, b.offsets[n], 0) for n in (1, 2, 3)]
    custom_xref_stream(b, 4, [1, 4, 2], rows, b"/Size 5 /Root 1 0 R", index=b"0 5 7")
    return bytes(b.data)


def xref_stream_keyword_no_eol():
    """The xref stream's data starts right after 'stream ' (a space, no end-of-line marker)."""
    return replace_once(xref_stream_plain(predictor=None), b">>\nstream\n", b">>\nstream ")


def xref_stream_object_number_0():
    """The xref stream's header reads '0 0 obj' (object 0 is the head of the free list, never an object)."""
    return replace_once(xref_stream_plain(predictor=None), b"4 0 obj\n<< /Type /XRef", b"0 0 obj\n<< /Type /XRef")


def objects_above_size():
    """The table lists objects 0-6 under /Size 5: 6 (greater than /Size) is missing, 5 (equal to
    it) is not; object 4, the /Info dictionary, refers to both."""
    b = Builder()
    one_page(b)
    b.obj(4, b"<< /Title (size) /Five 5 0 R /Six 6 0 R >>")
    b.obj(5, b"(five)")
    b.obj(6, b"(six)")
    b.table(range(7), b"<< /Size 5 /Root 1 0 R /Info 4 0 R >>")
    return bytes(b.data)


CASES = {
    "y_classic_20_byte_entries.pdf": classic(),
    "y_classic_19_byte_entries_lf.pdf": classic(b"\n"),
    "y_classic_21_byte_entries.pdf": classic(b" \r\n"),
    "y_classic_space_lf_entries.pdf": classic(b" \n"),
    "y_xref_stream_png_up.pdf": xref_stream_plain(),
    "y_xref_stream_png_every_row_type.pdf": xref_stream_plain(row_types=(0, 1, 3, 4, 2)),
    "y_xref_stream_tiff_predictor.pdf": xref_stream_plain(b"tiff"),
    "y_object_stream.pdf": objstm_file(),
    "y_hybrid_xrefstm.pdf": hybrid(),
    "y_update_table_replace_delete.pdf": with_update(False),
    "y_update_stream_replace_delete.pdf": with_update(True),
    "y_page_tree_inherited.pdf": nested_pages(),
    "y_subsections_comments_indirect_length.pdf": subsections_and_comments(),
    "y_text_strings_as_bytes.pdf": text_strings(),
    "y_names_as_bytes.pdf": names_as_bytes(),
    "y_startxref_at_lf_before_xref.pdf": white_space_before_xref(b"\n", False),
    "y_prev_at_lf_before_xref.pdf": white_space_before_xref(b"\n", True),
    "y_xref_stream_self_entry_offset_0.pdf": xref_stream_plain(self_offset=0),
    "n_prev_loop.pdf": prev_loop(),
    "n_startxref_beyond_eof.pdf": set_startxref(classic(), 999999),
    "n_startxref_into_object.pdf": set_startxref(classic(), 40),
    "n_startxref_missing.pdf": classic().replace(b"startxref", b"startxrex"),
    "n_truncated_in_table.pdf": classic()[:classic().index(b"trailer")],
    "n_no_header.pdf": classic().replace(b"%PDF-1.7", b"%XDF-1.7"),
    "n_xref_entry_type_x.pdf": replace_once(classic(), b" 00000 n", b" 00000 x"),
    "n_xref_stream_absurd_w.pdf": absurd_w(),
    "n_xref_stream_absurd_size.pdf": absurd_size(),
    "n_objstm_first_past_end.pdf": objstm_file(first=b"100000"),
    "n_objstm_n_lies.pdf": objstm_file(n=b"500"),
    "n_stream_length_lie.pdf": length_lie(),
    "n_stream_length_self_reference.pdf": self_length(),
    "n_page_tree_loop.pdf": page_loop(),
    "n_deflate_bomb.pdf": deflate_bomb(),
    "i_recover_entry_at_4294967295.pdf": entry_at_4294967295(),
    "i_recover_object_number_past_2_31.pdf": object_number_past_2_31(),
    "i_recover_broken_xref_stream_over_object_stream.pdf": broken_xref_stream_over_object_stream(),
    "i_recover_no_xref_no_trailer.pdf": no_xref_no_trailer(),
    "i_empty_object_is_null.pdf": empty_object(),
    "n_object_without_endobj.pdf": missing_endobj(),
    "n_stream_object_without_endobj.pdf": objstm_file(endobj=False),
    "i_leading_garbage_before_header.pdf": leading_garbage(),
    "i_duplicate_key_last_wins.pdf": duplicate_key(),
    "i_objstm_xref_index_wrong.pdf": objstm_file(xref_index_shift=1),
    "i_shared_page_node.pdf": shared_page(),
    "i_stream_keyword_trailing_spaces.pdf": stream_keyword_spaces(),
    # /W [0 4 2]: no type field, every row is type 1 (object 0 left out by /Index).
    "y_xref_stream_type_field_absent.pdf": xref_stream_w([0, 4, 2], from_object=1),
    "y_xref_stream_generation_field_absent.pdf": xref_stream_w([1, 4, 0]),
    "y_xref_stream_unknown_type_is_null.pdf": xref_stream_unknown_type(),
    "y_reference_generation_mismatch_is_null.pdf": generation_mismatch(),
    "y_nesting_200.pdf": nested_arrays(200),
    "n_xref_stream_w_two_fields.pdf": xref_stream_w([1, 4]),
    "n_xref_stream_w_all_zero.pdf": xref_stream_w([0, 0, 0]),
    "n_xref_stream_rows_short.pdf": xref_stream_rows_short(),
    "n_xref_stream_without_size.pdf": xref_stream_w([1, 4, 2], b"/Root 1 0 R"),
    "n_root_not_dictionary.pdf": root_value(b"4 0 R"),
    "n_root_reference_to_no_object.pdf": root_value(b"9 0 R"),
    "n_trailer_without_root.pdf": replace_once(classic(), b" /Root 1 0 R", b""),
    "n_objstm_n_not_integer.pdf": objstm_file(n=b"(3)"),
    "y_xref_stream_offset_field_8_bytes.pdf": xref_stream_w([1, 8, 2]),
    "n_xref_stream_index_odd.pdf": xref_stream_index_odd(),
    "n_kids_not_array.pdf": kids_not_array(),
    "n_object_header_generation_mismatch.pdf": page_header_generation(1),
    "n_xref_stream_keyword_no_eol.pdf": xref_stream_keyword_no_eol(),
    "n_xref_stream_object_number_0.pdf": xref_stream_object_number_0(),
    "y_object_number_above_size_is_missing.pdf": objects_above_size(),
    "n_nesting_201_in_page.pdf": nesting_in_page(200),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, data in CASES.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print("%d cases written to %s" % (len(CASES), out))


if __name__ == "__main__":
    main()
