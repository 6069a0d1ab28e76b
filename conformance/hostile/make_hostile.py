#!/usr/bin/python3
"""Write one hostile input: make_hostile.py KIND OUT (make_hostile.py --list names every kind).

The inputs of the hostile-input catalogue (FUZZING.md) that are too large to check in, or are
clearer as code than as bytes: zip bombs, lying sizes and counts, loops, deep nesting."""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hostile_cfb  # noqa: E402
import hostile_pdf  # noqa: E402
import scaling_inputs  # noqa: E402
from hostile_zip import NS, Deflated, ZipBuilder, sheet_xml, workbook_parts  # noqa: E402

GIB = 1 << 30
MIB = 1 << 20
SHEET_HEAD = sheet_xml("").split("</sheetData>")[0].encode()
SHEET_TAIL = b"</sheetData></worksheet>"


def xlsx(parts, sheets):
    """A package of the given (name, text) parts plus sheets as (name, Deflated, declared size)."""
    zip_file = ZipBuilder()
    for name, text in parts:
        zip_file.add(name, text.encode())
    for name, stream, declared in sheets:
        zip_file.add(name, stream=stream, declared_size=declared)
    return zip_file.bytes()


def empty_rows(total):
    """A sheet of `total` bytes (about) of empty elements the loader skips: no limit but the
    inflate budget stops it."""
    chunk = b"<x/>" * (MIB // 4)
    return Deflated(SHEET_HEAD, chunk, total // len(chunk), SHEET_TAIL)


def xlsx_bomb_declared():
    """3.75 GiB of XML in 3.6 MB, sizes declared honestly."""
    return xlsx(workbook_parts(), [("xl/worksheets/sheet1.xml", empty_rows(3840 * MIB), None)])


def xlsx_bomb_lying_size():
    """The same bomb declaring 1,000 bytes: only counting inflated bytes stops it."""
    return xlsx(workbook_parts(), [("xl/worksheets/sheet1.xml", empty_rows(3840 * MIB), 1000)])


def xlsx_bomb_zeros():
    """3.75 GiB of '0' digits in one cell value (declared 1,000 bytes): one token without end."""
    zeros = Deflated(SHEET_HEAD + b'<row r="1"><c r="A1"><v>', b"0" * MIB, 3840, b"</v></c></row>" + SHEET_TAIL)
    return xlsx(workbook_parts(), [("xl/worksheets/sheet1.xml", zeros, 1000)])


def xlsx_bomb_nul_bytes():
    """3.75 GiB of NUL bytes after the sheet's root tag (declared 1,000 bytes)."""
    nul = Deflated(SHEET_HEAD, b"\0" * MIB, 3840, SHEET_TAIL)
    return xlsx(workbook_parts(), [("xl/worksheets/sheet1.xml", nul, 1000)])


def xlsx_huge_attribute():
    """A 2 GiB attribute value (declared 1,000 bytes): one start tag longer than any token limit."""
    tag = Deflated(SHEET_HEAD + b'<row r="1"><c r="A1" s="', b"7" * MIB, 2048, b'"/></row>' + SHEET_TAIL)
    return xlsx(workbook_parts(), [("xl/worksheets/sheet1.xml", tag, 1000)])


def many_sheets(rows, declared_size=None):
    """64 sheets, each an entry of its own holding the same deflate stream; declared_size (when
    given) is what every entry claims, in both headers, instead of the true size. (Entries that
    share one local header are refused before any of this: see xlsx_entry_aliases.)"""
    zip_file = ZipBuilder()
    for name, text in workbook_parts(64):
        zip_file.add(name, text.encode())
    for i in range(1, 65):
        zip_file.add(f"xl/worksheets/sheet{i}.xml", stream=rows, declared_size=declared_size)
    return zip_file.bytes()


def eight_mib_of_rows():
    row = b"<row>" + b"<c><v>1</v></c>" * 16 + b"</row>"
    return Deflated(SHEET_HEAD, row * 1024, (8 * MIB) // (len(row) * 1024), SHEET_TAIL)


def xlsx_bomb_sheets():
    """64 sheets of 8 MiB of rows each, each declaring 64 KiB: 512 MiB of XML from a small file,
    every part under every per-part limit and the declared sizes under the budget; only the
    inflate budget, charged as the parts inflate, stops it."""
    return many_sheets(eight_mib_of_rows(), 64 * 1024)


def xlsx_bomb_sheets_declared():
    """The same 64 sheets declaring their true 8 MiB each: stopped by the declared sizes, before
    any sheet is inflated."""
    return many_sheets(eight_mib_of_rows())


def xlsx_bomb_empty_rows():
    """64 entries of 1,048,576 empty rows each (6 MiB, declared 64 KiB): the model costs 4 bytes
    per byte of XML, the worst amplification under the inflate budget."""
    return many_sheets(Deflated(SHEET_HEAD, b"<row/>" * 1024, 1024, SHEET_TAIL), 64 * 1024)


def one_sheet_package():
    """A ZipBuilder holding a workbook of one empty sheet, for entries to be added after it."""
    zip_file = ZipBuilder()
    for name, text in workbook_parts():
        zip_file.add(name, text.encode())
    zip_file.add("xl/worksheets/sheet1.xml", sheet_xml("").encode())
    return zip_file


def package_with_aliases(count):
    """A one-sheet package whose central directory adds `count` entries sharing the sheet's data."""
    zip_file = one_sheet_package()
    for i in range(count):
        zip_file.alias(f"x/{i}", "xl/worksheets/sheet1.xml")
    return zip_file.bytes()


def xlsx_entry_explosion():
    """70,000 central-directory entries (a ZIP64 count) sharing one local entry: over max_zip_entries."""
    return package_with_aliases(70_000)


def xlsx_entry_aliases():
    """Entries whose central-directory records share one local header (the overlap of
    overlapping-entry zip bombs): a name the local header does not carry."""
    return package_with_aliases(3)


def xlsx_entry_duplicate():
    """Two entries of the same part name, in different case: readers taking the first and readers
    taking the last would see different sheets."""
    zip_file = one_sheet_package()
    zip_file.add("XL/Worksheets/Sheet1.xml", sheet_xml('<row r="1"><c r="A1"><v>1</v></c></row>').encode())
    return zip_file.bytes()


def xlsx_entry_many():
    """5,000 entries, each its own: over a lowered max_zip_entries (the limit is configurable)."""
    zip_file = one_sheet_package()
    for i in range(5000):
        zip_file.add(f"x/{i}", b"")
    return zip_file.bytes()


def nested(depth):
    return "<a>" * depth + "</a>" * depth


def with_part(replace, text):
    return [(name, text if name == replace else body) for name, body in workbook_parts()]


def plain_sheet():
    return [("xl/worksheets/sheet1.xml", Deflated(sheet_xml("").encode(), b"", 0, b""), None)]


def xlsx_deep_sheet():
    """100,000 nested elements in a worksheet."""
    return xlsx(workbook_parts(), [("xl/worksheets/sheet1.xml",
                                    Deflated(sheet_xml(nested(100_000)).encode(), b"", 0, b""), None)])


def xlsx_deep_workbook():
    """100,000 nested elements in the workbook part."""
    body = f"<workbook {NS}>{nested(100_000)}</workbook>"
    return xlsx(with_part("xl/workbook.xml", body), plain_sheet())


def xlsx_deep_relationships():
    """100,000 nested elements in the workbook's relationships part."""
    rels = dict(workbook_parts())["xl/_rels/workbook.xml.rels"].replace("</Relationships>", nested(100_000) + "</Relationships>")
    return xlsx(with_part("xl/_rels/workbook.xml.rels", rels), plain_sheet())


def xlsx_deep_shared_strings():
    """100,000 nested elements inside a shared string."""
    parts = workbook_parts(shared_strings=True)
    parts.append(("xl/sharedStrings.xml",
                  f'<sst {NS} count="1" uniqueCount="1"><si><t>x</t>{nested(100_000)}</si></sst>'))
    return xlsx(parts, plain_sheet())


def xlsx_long_shared_string():
    """One shared string of 2,500,000 rich-text runs (37.5 MB of XML with no second <si> to split
    at), padded with 500 KB of incompressible bytes so the inflate budget admits it: reading it as
    it inflates must search each new piece once, not the whole buffer again (that took 5.8 s)."""
    parts = workbook_parts(shared_strings=True)
    parts.append(("xl/sharedStrings.xml", f"<sst {NS}><si>" + "<r><t>x</t></r>" * 2_500_000 + "</si></sst>"))
    zip_file = ZipBuilder()
    for name, text in parts:
        zip_file.add(name, text.encode())
    zip_file.add("xl/worksheets/sheet1.xml", stream=plain_sheet()[0][1])
    zip_file.add("docProps/padding.bin", random.Random(1).randbytes(500_000))
    return zip_file.bytes()


def xlsx_shared_string_amplified():
    """One shared string of 1 MiB used by 12,000 cells: about 27 KB of package whose canonical
    dump would be 12.6 GB; max_output_bytes stops it (the model itself stays small)."""
    parts = workbook_parts(shared_strings=True)
    parts.append(("xl/sharedStrings.xml", f'<sst {NS} count="12000" uniqueCount="1"><si><t>' + "a" * MIB + "</t></si></sst>"))
    rows = "".join(f'<row r="{r}">' + "".join(f'<c r="{c}{r}" t="s"><v>0</v></c>' for c in "ABCDEFGHIJKL") + "</row>"
                   for r in range(1, 1001))
    return xlsx(parts, [("xl/worksheets/sheet1.xml", Deflated(sheet_xml(rows).encode(), b"", 0, b""), None)])


LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
          + "".join(f'<!ENTITY lol{i + 1} "{("&lol" + (str(i) if i else "") + ";") * 10}">' for i in range(9))
          + "]>")


def xlsx_billion_laughs_shared_strings():
    """Billion laughs (nine levels of ten entity references) in the shared strings part."""
    parts = workbook_parts(shared_strings=True)
    parts.append(("xl/sharedStrings.xml",
                  LAUGHS + f'<sst {NS} count="1" uniqueCount="1"><si><t>&lol9;</t></si></sst>'))
    return xlsx(parts, plain_sheet())


def xlsx_billion_laughs_workbook():
    """Billion laughs in the workbook part."""
    return xlsx(with_part("xl/workbook.xml", LAUGHS + dict(workbook_parts())["xl/workbook.xml"]), plain_sheet())


def xlsx_external_entity():
    """An external entity (SYSTEM file:///etc/passwd) referenced from a cell."""
    sheet = ('<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
             + sheet_xml('<row r="1"><c r="A1" t="inlineStr"><is><t>&xxe;</t></is></c></row>'))
    return xlsx(workbook_parts(), [("xl/worksheets/sheet1.xml", Deflated(sheet.encode(), b"", 0, b""), None)])


def xlsx_external_dtd_relationships():
    """The package relationships part names an external DTD."""
    rels = ('<!DOCTYPE Relationships SYSTEM "http://example.invalid/evil.dtd">'
            + dict(workbook_parts())["_rels/.rels"])
    return xlsx(with_part("_rels/.rels", rels), plain_sheet())


def xlsx_plain_doctype():
    """A DOCTYPE with no entities in a worksheet."""
    sheet = '<?xml version="1.0"?><!DOCTYPE worksheet>' + sheet_xml("")
    return xlsx(workbook_parts(), [("xl/worksheets/sheet1.xml", Deflated(sheet.encode(), b"", 0, b""), None)])


def pdf_array_5m():
    """One array of 5,000,000 integers (10 MB): over max_container_elements."""
    pdf = scaling_inputs.basic_pdf()
    pdf.add(4, b"[" + b"1 " * 5_000_000 + b"]")
    return scaling_inputs.finish_classic(pdf)


def pdf_page_tree_20000_deep():
    """A page tree 20,000 levels deep: past the stack's reach, whatever max_depth says."""
    return scaling_inputs.deep_page_tree(20_000, 1)


def xlsx_shared_string_count():
    """uniqueCount claims 2^31 strings; none follow."""
    parts = workbook_parts(shared_strings=True)
    parts.append(("xl/sharedStrings.xml", f'<sst {NS} count="4294967295" uniqueCount="2147483647"></sst>'))
    return xlsx(parts, [("xl/worksheets/sheet1.xml", Deflated(
        sheet_xml('<row r="1"><c r="A1" t="s"><v>2147483646</v></c></row>').encode(), b"", 0, b""), None)])


KINDS = {name: fn for name, fn in list(globals().items()) if name.startswith("xlsx_") and callable(fn)}
KINDS.update(hostile_pdf.KINDS)
KINDS.update(hostile_cfb.KINDS)
KINDS["pdf_array_5m"] = pdf_array_5m
KINDS["pdf_page_tree_20000_deep"] = pdf_page_tree_20000_deep
# The largest input of each scaling dimension (bench/scaling.py): kinds scale_<dimension>.
for _name, (_format, _args, _generate, _sizes) in scaling_inputs.DIMENSIONS.items():
    KINDS["scale_" + _name] = (lambda generate, n: lambda: generate(n))(_generate, _sizes[-1])
    KINDS["scale_" + _name].__doc__ = f"{_generate.__doc__} (n = {_sizes[-1]:,})"


def main(argv):
    if len(argv) == 2 and argv[1] == "--list":
        for name, fn in sorted(KINDS.items()):
            print(f"{name}\t{' '.join((fn.__doc__ or '').split())}")
        return 0
    if len(argv) != 3 or argv[1] not in KINDS:
        sys.exit("usage: make_hostile.py KIND OUT (make_hostile.py --list)")
    data = KINDS[argv[1]]()
    with open(argv[2], "wb") as out:
        out.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
