"""Hostile PDFs: cross-reference chains that loop or never end, object streams that contain
themselves, stream lengths that lie, nesting and page trees deeper than any document needs,
deflate bombs."""
import random
import zlib

CATALOG = b"<</Type/Catalog/Pages 2 0 R>>"
PAGES = b"<</Type/Pages/Kids[3 0 R]/Count 1>>"
PAGE = b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>"


class Pdf:
    """Objects laid out in order after a header; offsets recorded for the xref."""

    def __init__(self):
        self.out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        self.offsets = {}

    def add(self, num, body):
        self.offsets[num] = len(self.out)
        self.out += b"%d 0 obj\n" % num + body + b"\nendobj\n"

    def stream(self, num, dictionary, data):
        self.add(num, dictionary + b"\nstream\n" + data + b"\nendstream")

    def classic_xref(self, trailer):
        """A classic table over every object added; returns its offset."""
        at = len(self.out)
        size = max(self.offsets) + 1
        self.out += b"xref\n0 %d\n0000000000 65535 f \n" % size
        for num in range(1, size):
            offset = self.offsets.get(num)
            self.out += b"%010d 00000 n \n" % offset if offset is not None else b"0000000000 65535 f \n"
        self.out += b"trailer\n" + trailer + b"\n"
        return at

    def finish(self, startxref):
        self.out += b"startxref\n%d\n%%%%EOF\n" % startxref
        return bytes(self.out)

    def finish_with_xref_stream(self, num, entries):
        """Ends the file with xref stream `num` listing entries for objects 0..num-1 and itself."""
        xref_at = len(self.out)
        rows = xref_stream_entries(entries + [(1, xref_at, 0)])
        self.stream(num, b"<</Type/XRef/Size %d/W[1 4 2]/Root 1 0 R/Length %d>>" % (num + 1, len(rows)), rows)
        return self.finish(xref_at)


def basic(extra_trailer=b""):
    pdf = Pdf()
    pdf.add(1, CATALOG)
    pdf.add(2, PAGES)
    pdf.add(3, PAGE)
    return pdf, b"<</Size 4/Root 1 0 R" + extra_trailer + b">>"


def xref_stream_entries(entries):
    """entries: (type, field2, field3) for objects 0.. with /W [1 4 2]."""
    return b"".join(bytes([t]) + f2.to_bytes(4, "big") + f3.to_bytes(2, "big") for t, f2, f3 in entries)


def pdf_prev_chain_long():
    """150,000 cross-reference sections chained by /Prev (none repeats): over max_xref_sections."""
    pdf, trailer = basic()
    previous = pdf.classic_xref(trailer)
    for _ in range(150_000):
        at = len(pdf.out)
        pdf.out += b"xref\n0 1\n0000000000 65535 f \ntrailer\n<</Size 4/Root 1 0 R/Prev %d>>\n" % previous
        previous = at
    return pdf.finish(previous)


def pdf_prev_loop_pair():
    """Two sections whose /Prev point at each other."""
    pdf, _ = basic()
    first = pdf.classic_xref(b"<</Size 4/Root 1 0 R/Prev 0000000000>>")
    second = len(pdf.out)
    pdf.out += b"xref\n0 1\n0000000000 65535 f \ntrailer\n<</Size 4/Root 1 0 R/Prev %d>>\n" % first
    text = bytes(pdf.out)
    marker = b"/Prev 0000000000"
    pdf.out[text.index(marker):text.index(marker) + len(marker)] = b"/Prev %010d" % second
    return pdf.finish(second)


def xref_stream_pdf(objstm_entries, objstm_num, objstm_body, n=3):
    """Catalog (1) and pages (2, 3) compressed in object stream `objstm_num`; the xref stream
    (object 9) lists objstm_entries for objects 1..3 as given."""
    pdf = Pdf()
    header = b"1 0 2 %d 3 %d " % (len(CATALOG) + 1, len(CATALOG) + len(PAGES) + 2)
    body = objstm_body if objstm_body is not None else CATALOG + b"\n" + PAGES + b"\n" + PAGE
    data = header + body
    pdf.stream(objstm_num, b"<</Type/ObjStm/N %d/First %d/Length %d>>" % (n, len(header), len(data)), data)
    entries = [(0, 0, 65535)] + objstm_entries
    while len(entries) < objstm_num:
        entries.append((0, 0, 0))
    entries.append((1, pdf.offsets[objstm_num], 0))
    while len(entries) < 9:
        entries.append((0, 0, 0))
    return pdf.finish_with_xref_stream(9, entries)


def pdf_objstm_contains_itself():
    """The xref puts object stream 5 inside object stream 5 (and the catalog with it)."""
    return xref_stream_pdf([(2, 5, 0), (2, 5, 1), (2, 5, 2), (0, 0, 0), (2, 5, 3)], 5, None)


def pdf_objstm_mutual():
    """Object stream 5 is listed inside object stream 6, and 6 inside 5."""
    pdf = Pdf()
    header = b"1 0 2 %d 3 %d " % (len(CATALOG) + 1, len(CATALOG) + len(PAGES) + 2)
    data = header + CATALOG + b"\n" + PAGES + b"\n" + PAGE
    pdf.stream(5, b"<</Type/ObjStm/N 3/First %d/Length %d>>" % (len(header), len(data)), data)
    pdf.stream(6, b"<</Type/ObjStm/N 3/First %d/Length %d>>" % (len(header), len(data)), data)
    entries = [(0, 0, 65535), (2, 5, 0), (2, 5, 1), (2, 5, 2), (0, 0, 0), (2, 6, 0), (2, 5, 0), (0, 0, 0), (0, 0, 0)]
    return pdf.finish_with_xref_stream(9, entries)


def xref_stream_with(dictionary_tail, rows=None, declared_length=None):
    pdf, _ = basic()
    entries = [(0, 0, 65535)] + [(1, pdf.offsets[n], 0) for n in (1, 2, 3)]
    xref_at = len(pdf.out)
    entries.append((1, xref_at, 0))
    rows = rows if rows is not None else xref_stream_entries(entries)
    length = declared_length if declared_length is not None else len(rows)
    pdf.stream(4, b"<</Type/XRef/Root 1 0 R/Length %d%s>>" % (length, dictionary_tail), rows)
    return pdf.finish(xref_at)


def pdf_length_past_eof():
    """The xref stream's /Length runs 1,000,000,000 bytes past the end of the file."""
    return xref_stream_with(b"/Size 5/W[1 4 2]", declared_length=1_000_000_000)


def pdf_length_2gib():
    """The xref stream claims /Length 2147483648 (2 GiB) in a file of 600 bytes."""
    return xref_stream_with(b"/Size 5/W[1 4 2]", declared_length=2_147_483_648)


def pdf_xref_size_billions():
    """An xref stream with /Size 4294967295 and /Index [0 4294967295] over 35 bytes of entries."""
    return xref_stream_with(b"/Size 4294967295/Index[0 4294967295]/W[1 4 2]")


def pdf_xref_w_billions():
    """An xref stream whose /W claims 4294967295-byte fields."""
    return xref_stream_with(b"/Size 5/W[1 4294967295 2]")


def pdf_objstm_n_billions():
    """An object stream claiming /N 4000000000 objects."""
    return xref_stream_pdf([(2, 5, 0), (2, 5, 1), (2, 5, 2)], 5, None, n=4_000_000_000)


def deep(open_token, close_token, depth):
    return open_token * depth + close_token * depth


def pdf_deep_array():
    """100,000 nested arrays in the trailer."""
    pdf, _ = basic()
    return pdf.finish(pdf.classic_xref(b"<</Size 4/Root 1 0 R/Deep " + deep(b"[", b"]", 100_000) + b">>"))


def pdf_deep_dictionary():
    """100,000 nested dictionaries in the catalog."""
    pdf = Pdf()
    pdf.add(1, b"<</Type/Catalog/Pages 2 0 R/Deep " + deep(b"<</A ", b">>", 100_000) + b">>")
    pdf.add(2, PAGES)
    pdf.add(3, PAGE)
    return pdf.finish(pdf.classic_xref(b"<</Size 4/Root 1 0 R>>"))


def pdf_page_tree_deep():
    """A page tree 100,000 levels deep (no loop): each /Pages node has one /Pages kid."""
    pdf = Pdf()
    levels = 100_000
    pdf.add(1, b"<</Type/Catalog/Pages 2 0 R>>")
    for n in range(2, levels + 2):
        kid = n + 1
        parent = b"/Parent %d 0 R" % (n - 1) if n > 2 else b""
        pdf.add(n, b"<</Type/Pages/Kids[%d 0 R]/Count 1%s>>" % (kid, parent))
    pdf.add(levels + 2, b"<</Type/Page/Parent %d 0 R/MediaBox[0 0 612 792]>>" % (levels + 1))
    return pdf.finish(pdf.classic_xref(b"<</Size %d/Root 1 0 R>>" % (levels + 3)))


def bomb_stream(decoded_bytes, density):
    """Deflated data of decoded_bytes whose ratio is set by density (one random byte in that
    many zeros): repeated compressed blocks, so gigabytes need no compressing."""
    rng = random.Random(7)
    chunk = bytearray(1 << 20)
    for i in range(0, len(chunk), density):
        chunk[i] = rng.randrange(256)
    compressor = zlib.compressobj(9)
    head = compressor.compress(bytes(chunk)) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(bytes(chunk)) + compressor.flush(zlib.Z_FULL_FLUSH)
    tail = compressor.flush(zlib.Z_FINISH)
    return head + block * (decoded_bytes // len(chunk) - 1) + tail


def objstm_bomb(decoded_bytes, density):
    pdf = Pdf()
    data = bomb_stream(decoded_bytes, density)
    pdf.stream(5, b"<</Type/ObjStm/N 1/First 4/Filter/FlateDecode/Length %d>>" % len(data), data)
    entries = [(0, 0, 65535), (2, 5, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0), (1, pdf.offsets[5], 0)]
    return pdf.finish_with_xref_stream(6, entries)


def pdf_deflate_bomb_zeros():
    """An object stream inflating to 4 GiB of zeros (about 4 MB deflated, ratio 1000:1)."""
    return objstm_bomb(4 << 30, 1 << 20)


def pdf_deflate_bomb_ratio_700():
    """An object stream inflating to 1 GiB at a ratio of about 700:1, under the ratio limit."""
    return objstm_bomb(1 << 30, 8192)




def pdf_predictor_row_gigabyte():
    """An xref stream whose predictor rows would be 1 GiB each (/Colors 32, 16 bits, 2^24
    columns) over a few bytes of data."""
    return xref_stream_with(b"/Size 5/W[1 4 2]/Filter/FlateDecode/DecodeParms<</Predictor 12/Colors 32"
                            b"/BitsPerComponent 16/Columns 16777216>>", rows=zlib.compress(b"\x02" + bytes(34)))


def pdf_table_subsection_wraps():
    """A classic table subsection starting at 2^64 - 1: its first + count must not wrap."""
    pdf, trailer = basic()
    at = len(pdf.out)
    pdf.out += b"xref\n18446744073709551615 4\n" + b"0000000000 65535 f \n" * 4 + b"trailer\n" + trailer + b"\n"
    return pdf.finish(at)


def pdf_inherited_resources_5k():
    """5,000 pages under one /Pages node whose direct /Resources has 5,000 entries: inheriting
    it must not copy it per page (that was 25 million entries copied)."""
    pdf = Pdf()
    pages = 5000
    pdf.add(1, CATALOG)
    resources = b"<<" + b"".join(b"/R%d %d" % (i, i) for i in range(5000)) + b">>"
    kids = b" ".join(b"%d 0 R" % (3 + i) for i in range(pages))
    pdf.add(2, b"<</Type/Pages/Count %d/MediaBox[0 0 612 792]/Resources%s/Kids[%s]>>" % (pages, resources, kids))
    for i in range(pages):
        pdf.add(3 + i, b"<</Type/Page/Parent 2 0 R>>")
    return pdf.finish(pdf.classic_xref(b"<</Size %d/Root 1 0 R>>" % (3 + pages)))


KINDS = {name: fn for name, fn in list(globals().items()) if name.startswith("pdf_") and callable(fn)}
