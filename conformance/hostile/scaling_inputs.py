"""Inputs that grow along one structural dimension each, for the scaling benchmark
(bench/scaling.py) and the hostile catalogue (make_hostile.py, kinds scale_<dimension>): the
largest size of each dimension is its bomb, dumped under the catalogue's 2 s / 256 MiB bound.

DIMENSIONS maps a name to (format, dump options, generator, sizes): generator(n) returns the
file's bytes; sizes double, and their last is the bomb."""
import struct
import zlib

import hostile_cfb
from hostile_cfb import END, FAT_SECT, FREE, NO_STREAM, SECTOR, record
from hostile_pdf import CATALOG, PAGE, PAGES, Pdf
from hostile_zip import NS, REL_NS, REL_TYPE, ZipBuilder, sheet_xml, workbook_parts

# ---- PDF ---------------------------------------------------------------------------------------


def basic_pdf(catalog=CATALOG):
    pdf = Pdf()
    pdf.add(1, catalog)
    pdf.add(2, PAGES)
    pdf.add(3, PAGE)
    return pdf


def finish_classic(pdf):
    return pdf.finish(pdf.classic_xref(b"<</Size %d/Root 1 0 R>>" % (max(pdf.offsets) + 1)))


def pdf_dict_keys(n):
    """One dictionary of n distinct keys (object 4)."""
    pdf = basic_pdf()
    pdf.add(4, b"<<" + b"".join(b"/K%d %d" % (i, i) for i in range(n)) + b">>")
    return finish_classic(pdf)


def pdf_dict_duplicate_keys(n):
    """One dictionary of n keys, each written twice (the later value counts)."""
    pdf = basic_pdf()
    pdf.add(4, b"<<" + b"".join(b"/K%d %d/K%d %d" % (i, i, i, -i) for i in range(n // 2)) + b">>")
    return finish_classic(pdf)


def pdf_array_length(n):
    """One array of n integers (object 4)."""
    pdf = basic_pdf()
    pdf.add(4, b"[" + b" ".join(b"%d" % (i % 1000) for i in range(n)) + b"]")
    return finish_classic(pdf)


def pdf_name_tree_entries(n):
    """A name tree (the catalogue's /Names /Dests) whose one leaf lists n names."""
    pdf = basic_pdf(b"<</Type/Catalog/Pages 2 0 R/Names<</Dests 4 0 R>>>>")
    names = b"".join(b"(n%09d)[3 0 R/Fit]" % i for i in range(n))
    pdf.add(4, b"<</Names[" + names + b"]>>")
    return finish_classic(pdf)


def pdf_objects(n):
    """n small objects listed by one classic xref table."""
    pdf = basic_pdf()
    for i in range(n):
        pdf.add(4 + i, b"<</I %d>>" % i)
    return finish_classic(pdf)


def pdf_xref_sections(n):
    """n classic xref sections chained by /Prev, each listing one object of its own."""
    pdf = basic_pdf()
    previous = pdf.classic_xref(b"<</Size 4/Root 1 0 R>>")
    for i in range(n):
        num = 4 + i
        pdf.add(num, b"%d" % i)
        at = len(pdf.out)
        pdf.out += b"xref\n%d 1\n%010d 00000 n \ntrailer\n<</Size %d/Root 1 0 R/Prev %d>>\n" % (
            num, pdf.offsets[num], num + 1, previous)
        previous = at
    return pdf.finish(previous)


def pdf_xref_subsections(n):
    """One classic xref table of n subsections of one entry each."""
    pdf = basic_pdf()
    for i in range(n):
        pdf.add(4 + 2 * i, b"%d" % i)
    at = len(pdf.out)
    pdf.out += b"xref\n0 4\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % pdf.offsets[k] for k in (1, 2, 3))
    for i in range(n):
        pdf.out += b"%d 1\n%010d 00000 n \n" % (4 + 2 * i, pdf.offsets[4 + 2 * i])
    pdf.out += b"trailer\n<</Size %d/Root 1 0 R>>\n" % (4 + 2 * n)
    return pdf.finish(at)


def objstm_pdf(streams, members):
    """Objects 1..3 plain; `streams` object streams holding `members` (a list of object-number
    lists, one per stream), each member a small dictionary; an xref stream lists them all."""
    pdf = basic_pdf()
    first_stream = 4 + sum(len(m) for m in members)
    entries = {1: (1, pdf.offsets[1], 0), 2: (1, pdf.offsets[2], 0), 3: (1, pdf.offsets[3], 0)}
    for k in range(streams):
        bodies = [b"<</M %d>>" % num for num in members[k]]
        header, at = b"", 0
        for num, body in zip(members[k], bodies):
            header += b"%d %d " % (num, at)
            at += len(body) + 1
        data = zlib.compress(header + b"\n".join(bodies) + b"\n")
        stream_num = first_stream + k
        pdf.stream(stream_num, b"<</Type/ObjStm/N %d/First %d/Filter/FlateDecode/Length %d>>" % (
            len(members[k]), len(header), len(data)), data)
        entries[stream_num] = (1, pdf.offsets[stream_num], 0)
        for index, num in enumerate(members[k]):
            entries[num] = (2, stream_num, index)
    xref_num = first_stream + streams
    xref_at = len(pdf.out)
    entries[0] = (0, 0, 65535)
    entries[xref_num] = (1, xref_at, 0)
    rows = b"".join(struct.pack(">BII", *entries.get(num, (0, 0, 0))) for num in range(xref_num + 1))
    pdf.stream(xref_num, b"<</Type/XRef/Size %d/W[1 4 4]/Root 1 0 R/Length %d>>" % (xref_num + 1, len(rows)), rows)
    return pdf.finish(xref_at)


def pdf_objstm_objects(n):
    """n objects in one object stream."""
    return objstm_pdf(1, [list(range(4, 4 + n))])


def pdf_objstm_interleaved(n):
    """n objects spread over 32 object streams by number modulo 32: neighbouring numbers lie in
    different streams, more than a small cache of decoded streams holds."""
    return objstm_pdf(32, [list(range(4 + k, 4 + n, 32)) for k in range(32)])


def pdf_page_tree_width(n):
    """One /Pages node with n page kids."""
    pdf = Pdf()
    pdf.add(1, CATALOG)
    pdf.add(2, b"<</Type/Pages/Count %d/Kids[%s]>>" % (n, b" ".join(b"%d 0 R" % (3 + i) for i in range(n))))
    for i in range(n):
        pdf.add(3 + i, b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>")
    return finish_classic(pdf)


def deep_page_tree(depth, pages_per_level):
    """A page tree `depth` levels deep: each /Pages node holds pages_per_level pages and the next
    node."""
    pdf = Pdf()
    pdf.add(1, b"<</Type/Catalog/Pages 2 0 R>>")
    node = 2
    for level in range(depth):
        pages = list(range(node + 1, node + 1 + pages_per_level))
        child = node + 1 + pages_per_level
        kids = b" ".join(b"%d 0 R" % p for p in pages) + (b" %d 0 R" % child if level + 1 < depth else b"")
        pdf.add(node, b"<</Type/Pages/Count %d/Kids[%s]>>" % ((depth - level) * pages_per_level, kids))
        for p in pages:
            pdf.add(p, b"<</Type/Page/Parent %d 0 R/MediaBox[0 0 612 792]>>" % node)
        node = child
    return finish_classic(pdf)


def pdf_page_tree_depth(n):
    """A page tree n levels deep, 64 pages at each level (so that the cost of a level is
    measurable above the process's fixed cost)."""
    return deep_page_tree(n, 64)


def pdf_string_escapes(n):
    """One literal string of n escaped bytes."""
    pdf = basic_pdf()
    pdf.add(4, b"(" + b"\\(\\)\\n" * (n // 3) + b")")
    return finish_classic(pdf)

# ---- XLSX --------------------------------------------------------------------------------------


def package(parts, extra=()):
    zip_file = ZipBuilder()
    for name, text in list(parts) + list(extra):
        zip_file.add(name, text.encode() if isinstance(text, str) else text)
    return zip_file.bytes()


def with_sheet(body, shared_strings=None, sheet_rels=None, extra=()):
    parts = workbook_parts(shared_strings=shared_strings is not None)
    parts.append(("xl/worksheets/sheet1.xml", body))
    if shared_strings is not None:
        parts.append(("xl/sharedStrings.xml", shared_strings))
    if sheet_rels is not None:
        parts.append(("xl/worksheets/_rels/sheet1.xml.rels", sheet_rels))
    return package(parts, extra)


def xlsx_cells(n):
    """n numeric cells, 16 to a row."""
    rows = "".join(f'<row r="{r + 1}">' + "<c><v>1</v></c>" * min(16, n - 16 * r) + "</row>"
                   for r in range((n + 15) // 16))
    return with_sheet(sheet_xml(rows))


def xlsx_merged_cells(n):
    """n rows of two cells, each row's pair merged (n merges, n cells hidden)."""
    rows = "".join(f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}"><v>{r}</v></c></row>' for r in range(1, n + 1))
    merges = "".join(f'<mergeCell ref="A{r}:B{r}"/>' for r in range(1, n + 1))
    return with_sheet(f'<worksheet {NS}><sheetData>{rows}</sheetData>'
                      f'<mergeCells count="{n}">{merges}</mergeCells></worksheet>')


def xlsx_shared_strings(n):
    """n shared strings, each used by one cell."""
    strings = f'<sst {NS}>' + "".join(f"<si><t>s{i}</t></si>" for i in range(n)) + "</sst>"
    rows = "".join(f'<row r="{r + 1}"><c r="A{r + 1}" t="s"><v>{r}</v></c></row>' for r in range(n))
    return with_sheet(sheet_xml(rows), shared_strings=strings)


def xlsx_rich_runs(n):
    """One shared string of n rich-text runs."""
    strings = f'<sst {NS}><si>' + "<r><rPr><b/></rPr><t>x</t></r>" * n + "</si></sst>"
    return with_sheet(sheet_xml('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'), shared_strings=strings)


def xlsx_relationships(n):
    """One sheet with n table parts, each reached through its own relationship."""
    parts_xml = "".join(f'<tablePart r:id="rT{i}"/>' for i in range(n))
    body = f'<worksheet {NS}><sheetData/><tableParts count="{n}">{parts_xml}</tableParts></worksheet>'
    rels = f'<Relationships xmlns="{REL_NS}">' + "".join(
        f'<Relationship Id="rT{i}" Type="{REL_TYPE}table" Target="../tables/table{i}.xml"/>' for i in range(n)) + \
        "</Relationships>"
    tables = [(f"xl/tables/table{i}.xml",
               f'<table xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" id="{i + 1}" '
               f'name="T{i}" displayName="T{i}" ref="A1:A1"/>') for i in range(n)]
    return with_sheet(body, sheet_rels=rels, extra=tables)


def xlsx_sheets(n):
    """n sheets of one cell each."""
    parts = workbook_parts(n)
    for i in range(1, n + 1):
        parts.append((f"xl/worksheets/sheet{i}.xml", sheet_xml(f'<row r="1"><c r="A1"><v>{i}</v></c></row>')))
    return package(parts)


def xlsx_comments(n):
    """One sheet with n comments."""
    comments = (f'<comments {NS}><authors><author>a</author></authors><commentList>'
                + "".join(f'<comment ref="A{i + 1}" authorId="0"><text><t>c{i}</t></text></comment>' for i in range(n))
                + "</commentList></comments>")
    rels = (f'<Relationships xmlns="{REL_NS}"><Relationship Id="rC" Type="{REL_TYPE}comments" '
            'Target="../comments1.xml"/></Relationships>')
    return with_sheet(sheet_xml(""), sheet_rels=rels, extra=[("xl/comments1.xml", comments)])

# ---- CFB and SST -------------------------------------------------------------------------------


def cfb(stream, directory_entries=0):
    """A version 3 compound file: the Workbook stream, then `directory_entries` empty storages
    after it in the directory, FAT and DIFAT sized to fit."""
    stream = stream.ljust(4096, b"\0")
    stream_sectors = (len(stream) + SECTOR - 1) // SECTOR
    padded = stream.ljust(stream_sectors * SECTOR, b"\0")
    entries = 2 + directory_entries
    dir_sectors = (entries * 128 + SECTOR - 1) // SECTOR
    fat_sectors = difat_sectors = 0
    while True:
        total = stream_sectors + dir_sectors + fat_sectors + difat_sectors
        need_fat = (total + 127) // 128
        need_difat = (need_fat - 109 + 126) // 127 if need_fat > 109 else 0
        if (need_fat, need_difat) == (fat_sectors, difat_sectors):
            break
        fat_sectors, difat_sectors = need_fat, need_difat
    first_dir = stream_sectors
    first_fat = first_dir + dir_sectors
    first_difat = first_fat + fat_sectors
    fat = [FREE] * (128 * fat_sectors)
    for i in range(stream_sectors):
        fat[i] = i + 1 if i + 1 < stream_sectors else END
    for i in range(dir_sectors):
        fat[first_dir + i] = first_dir + i + 1 if i + 1 < dir_sectors else END
    for i in range(fat_sectors):
        fat[first_fat + i] = FAT_SECT
    for i in range(difat_sectors):
        fat[first_difat + i] = 0xFFFFFFFC
    header = bytearray(SECTOR)
    header[0:8] = bytes([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1])
    struct.pack_into("<HHHHH", header, 0x18, 0x3E, 3, 0xFFFE, 9, 6)
    struct.pack_into("<IIIIIIII", header, 0x2C, fat_sectors, first_dir, 0, 4096, END, 0,
                     first_difat if difat_sectors else END, difat_sectors)
    fat_ids = [first_fat + i for i in range(fat_sectors)]
    for k in range(109):
        struct.pack_into("<I", header, 0x4C + 4 * k, fat_ids[k] if k < len(fat_ids) else FREE)
    difat = b""
    rest = fat_ids[109:]
    for d in range(difat_sectors):
        ids = (rest[127 * d:127 * (d + 1)] + [FREE] * 127)[:127]
        difat += struct.pack("<127I", *ids) + struct.pack("<I", first_difat + d + 1 if d + 1 < difat_sectors else END)

    def entry(name, kind, child, start, size):
        return hostile_cfb.directory_entry(name, kind, NO_STREAM, NO_STREAM, child, start, size)

    directory = entry("Root Entry", 5, 1, END, 0) + entry("Workbook", 2, NO_STREAM, 0, len(stream))
    directory += b"".join(entry("S%d" % i, 1, NO_STREAM, 0, 0) for i in range(directory_entries))
    directory = directory.ljust(dir_sectors * SECTOR, b"\0")
    return bytes(header) + padded + directory + struct.pack("<%dI" % len(fat), *fat) + difat


def sst_workbook(strings):
    """A Workbook stream whose SST holds the strings, a new CONTINUE record started wherever the
    next string would not fit whole."""
    records, body = [], struct.pack("<II", len(strings), len(strings))
    for text in strings:
        item = struct.pack("<HB", len(text), 0) + text
        if len(body) + len(item) > 8224:
            records.append(body)
            body = b""
        body += item
    records.append(body)
    data = record(0x00FC, records[0]) + b"".join(record(0x003C, r) for r in records[1:])
    return hostile_cfb.workbook_stream(data)


def cfb_directory_entries(n):
    """A .xls whose directory lists n storages besides the Workbook stream."""
    return cfb(sst_workbook([b"a"]), n)


def cfb_fat_chain(n):
    """A .xls whose Workbook stream is n sectors long (one FAT chain of n links)."""
    return cfb(sst_workbook([b"a"]).ljust(n * SECTOR, b"\0"))


def sst_strings(n):
    """A .xls whose SST holds n short strings (which never end at a record boundary)."""
    return cfb(sst_workbook([b"s%d" % i for i in range(n)]))


def sizes(first, count=5):
    return [first << k for k in range(count)]


DIMENSIONS = {
    "pdf_dict_keys": ("pdf", ["--level", "3"], pdf_dict_keys, sizes(25_000)),
    "pdf_dict_duplicate_keys": ("pdf", ["--level", "3"], pdf_dict_duplicate_keys, sizes(25_000)),
    "pdf_array_length": ("pdf", ["--level", "3"], pdf_array_length, sizes(62_500)),
    "pdf_name_tree_entries": ("pdf", ["--level", "3"], pdf_name_tree_entries, sizes(12_500)),
    "pdf_objects": ("pdf", ["--level", "3"], pdf_objects, sizes(12_500)),
    "pdf_xref_sections": ("pdf", ["--level", "3"], pdf_xref_sections, sizes(2_500)),
    "pdf_xref_subsections": ("pdf", ["--level", "3"], pdf_xref_subsections, sizes(12_500)),
    "pdf_objstm_objects": ("pdf", ["--level", "3"], pdf_objstm_objects, sizes(12_500)),
    "pdf_objstm_interleaved": ("pdf", ["--level", "3"], pdf_objstm_interleaved, sizes(12_500)),
    "pdf_page_tree_width": ("pdf", ["--level", "3"], pdf_page_tree_width, sizes(6_250)),
    "pdf_page_tree_depth": ("pdf", ["--level", "3", "--limit", "max_depth=1000"], pdf_page_tree_depth, [60, 120, 240, 480, 960]),
    "pdf_string_escapes": ("pdf", ["--level", "3"], pdf_string_escapes, sizes(250_000)),
    "xlsx_cells": ("xlsx", [], xlsx_cells, sizes(50_000)),
    "xlsx_merged_cells": ("xlsx", [], xlsx_merged_cells, sizes(6_250)),
    "xlsx_shared_strings": ("xlsx", [], xlsx_shared_strings, sizes(12_500)),
    "xlsx_rich_runs": ("xlsx", [], xlsx_rich_runs, sizes(25_000)),
    "xlsx_relationships": ("xlsx", [], xlsx_relationships, sizes(250)),
    "xlsx_sheets": ("xlsx", ["--limit", "max_sheets=100000"], xlsx_sheets, sizes(1000)),
    "xlsx_comments": ("xlsx", [], xlsx_comments, sizes(6_250)),
    "cfb_directory_entries": ("sst", [], cfb_directory_entries, sizes(6_250)),
    "cfb_fat_chain": ("sst", [], cfb_fat_chain, sizes(12_500)),
    "sst_strings": ("sst", [], sst_strings, sizes(25_000)),
}
