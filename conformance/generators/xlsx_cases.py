#!/usr/bin/python3
"""Writes the synthetic xlsx conformance cases (conformance/cases/xlsx/{y,n,i}_*.xlsx) and the
generated part of CASES.tsv. Deterministic: fixed zip timestamps, fixed entry order.

Usage: xlsx_cases.py OUT_DIR
"""
import io
import os
import struct
import sys
import warnings
import zipfile

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def rels(items):
    x = '<Relationships xmlns="%s">' % PKG
    for i, (kind, target) in enumerate(items, 1):
        x += '<Relationship Id="rId%d" Type="%s/%s" Target="%s"/>' % (i, REL, kind, target)
    return x + "</Relationships>"


def content_types(overrides):
    x = ('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
         '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
         '<Default Extension="xml" ContentType="application/xml"/>')
    for part, kind in overrides:
        x += '<Override PartName="%s" ContentType="application/vnd.openxmlformats-officedocument.%s"/>' % (part, kind)
    return x + "</Types>"


def sheet(data, after="", prefix=""):
    p = prefix + ":" if prefix else ""
    ns = ' xmlns%s="%s"' % (":" + prefix if prefix else "", MAIN)
    return '%s<%sworksheet%s xmlns:r="%s"><%ssheetData>%s</%ssheetData>%s</%sworksheet>' % (
        DECL, p, ns, REL, p, data, p, after, p)


def workbook(sheets='<sheet name="Sheet1" sheetId="1" r:id="rId1"/>', pr=""):
    return '%s<workbook xmlns="%s" xmlns:r="%s">%s<sheets>%s</sheets></workbook>' % (DECL, MAIN, REL, pr, sheets)


def package(sheet_xml, sst=None, extra=(), wb=None, wb_rels=None, root_rels=None, sheet_rels=None):
    """Entries of a one-sheet package (each argument overrides one part)."""
    overrides = [("/xl/workbook.xml", "spreadsheetml.sheet.main+xml"),
                 ("/xl/worksheets/sheet1.xml", "spreadsheetml.worksheet+xml")]
    items = [("worksheet", "worksheets/sheet1.xml")]
    if sst is not None:
        items.append(("sharedStrings", "sharedStrings.xml"))
        overrides.append(("/xl/sharedStrings.xml", "spreadsheetml.sharedStrings+xml"))
    entries = [
        ("[Content_Types].xml", content_types(overrides)),
        ("_rels/.rels", root_rels or rels([("officeDocument", "xl/workbook.xml")])),
        ("xl/workbook.xml", wb or workbook()),
        ("xl/_rels/workbook.xml.rels", wb_rels or rels(items)),
        ("xl/worksheets/sheet1.xml", sheet_xml),
    ]
    if sst is not None:
        entries.append(("xl/sharedStrings.xml", '%s<sst xmlns="%s">%s</sst>' % (DECL, MAIN, sst)))
    if sheet_rels is not None:
        entries.append(("xl/worksheets/_rels/sheet1.xml.rels", sheet_rels))
    entries.extend(extra)
    return entries


def write_zip(path, entries, zip64=()):
    """zip64: names of the entries written with ZIP64 fields in their local headers."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 2, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            data = data.encode("utf-8") if isinstance(data, str) else data
            if name in zip64:
                with z.open(info, "w", force_zip64=True) as f:
                    f.write(data)
            else:
                z.writestr(info, data)


def cells(*cs):
    return "".join(cs)


CASES = []


def case(name, what, rule):
    def register(fn):
        CASES.append((name, what, rule, fn))
        return fn
    return register


ROW = '<row r="1">%s</row>'


@case("y_minimal.xlsx", "one number in one sheet; no sharedStrings, no styles", "ECMA-376 Part 1 18.3.1.4 c")
def _():
    return package(sheet(ROW % '<c r="A1"><v>42</v></c>'))


@case("y_cell_types.xlsx", "t = n, s, str, inlineStr, b, e", "ECMA-376 Part 1 18.18.11 ST_CellType")
def _():
    return package(sheet(ROW % cells('<c r="A1"><v>1.5</v></c>', '<c r="B1" t="s"><v>0</v></c>',
                                     '<c r="C1" t="str"><f>"x"&amp;"y"</f><v>xy</v></c>',
                                     '<c r="D1" t="inlineStr"><is><t>inline</t></is></c>',
                                     '<c r="E1" t="b"><v>1</v></c>', '<c r="F1" t="e"><v>#N/A</v></c>')),
                   sst="<si><t>shared</t></si>")


@case("y_numbers.xlsx", "xsd:double forms: exponent, negative zero, long digits, tiny and huge",
      "ECMA-376 Part 1 18.3.1.96 v; XML Schema xsd:double")
def _():
    values = ["0", "1E-3", "1.7976931348623157E308", "5E-324", "0.1", "123456789012345678901234",
              "-42", "3.0", "0.30000000000000004", "1e21", "1e-7"]
    return package(sheet(ROW % "".join('<c r="%s1"><v>%s</v></c>' % (chr(65 + i), v) for i, v in enumerate(values))))


@case("y_implicit_refs.xlsx", "rows and cells without r are numbered from the previous one",
      "MS-OI29500 2.1.611 (c element, note c); calamine #261")
def _():
    return package(sheet('<row><c><v>1</v></c><c><v>2</v></c></row><row r="4"><c r="C4"><v>3</v></c><c><v>4</v></c>'
                         '</row><row><c><v>5</v></c><c r="E5"><v>6</v></c><c><v>7</v></c></row>'))


@case("i_negative_zero.xlsx", "-0 is a double (openpyxl reads it as the integer 0)", "XML Schema xsd:double")
def _():
    return package(sheet(ROW % '<c r="A1"><v>-0</v></c><c r="B1"><v>-0.0</v></c>'))


@case("i_cell_row_conflict.xlsx", "a cell reference naming another row than its implied <row>: the row wins",
      "MS-OI29500 c note; openpyxl and calamine place the cell by its own reference")
def _():
    return package(sheet('<row><c><v>5</v></c><c r="E6"><v>6</v></c></row>'))


@case("y_rich_text_phonetic.xlsx", "shared string runs concatenated, rPh phonetic text excluded",
      "ECMA-376 Part 1 18.4.8 si, 18.4.6 rPh")
def _():
    sst = ('<si><r><rPr><b/><sz val="11"/></rPr><t>bold</t></r><r><t xml:space="preserve"> rest</t></r></si>'
           '<si><t>\u8ab2\u304d\u304f</t><rPh sb="0" eb="1"><t>\u30ab</t></rPh><phoneticPr fontId="1"/></si>'
           '<si/>')
    return package(sheet(ROW % cells('<c r="A1" t="s"><v>0</v></c>', '<c r="B1" t="s"><v>1</v></c>',
                                     '<c r="C1" t="s"><v>2</v></c>')), sst=sst)


@case("y_namespace_prefix.xlsx", "SpreadsheetML with a namespace prefix on every element",
      "Namespaces in XML 1.0; ExcelDataReader #682")
def _():
    data = '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>prefixed</x:t></x:is></x:c><x:c r="B1"><x:v>2</x:v></x:c></x:row>'
    return package(sheet(data, prefix="x"))


@case("y_xml_features.xlsx", "references, CDATA, comments, PIs, single quotes, BOM, CRLF",
      "XML 1.0 2.4, 2.5, 2.6, 2.7, 2.11, 4.1")
def _():
    body = sheet("<!-- a comment --><?pi x?><row r='1'><c r='A1' t='inlineStr'><is><t>&amp;&lt;&gt;&quot;&apos;"
                 "&#10;&#x1F600;<![CDATA[<b>&amp;</b>]]>a\r\nb</t></is></c>"
                 "<c r='B1'><v>1<!-- split -->2</v></c></row>")
    return package("\ufeff" + body)


@case("y_absolute_targets.xlsx", "absolute relationship targets (leading /)",
      "ECMA-376 Part 2 9.3; readxl #294, PhpSpreadsheet #907")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'),
                   root_rels=rels([("officeDocument", "/xl/workbook.xml")]),
                   wb_rels=rels([("worksheet", "/xl/worksheets/sheet1.xml")]))


@case("y_dotdot_targets.xlsx", "workbook in another folder, ../ targets, odd part names",
      "ECMA-376 Part 2 9.3 (relative references, RFC 3986)")
def _():
    return [("[Content_Types].xml", content_types([("/book/main.xml", "spreadsheetml.sheet.main+xml")])),
            ("_rels/.rels", rels([("officeDocument", "book/main.xml")])),
            ("book/main.xml", workbook()),
            ("book/_rels/main.xml.rels", rels([("worksheet", "../data/./first.xml")])),
            ("data/first.xml", sheet(ROW % '<c r="A1"><v>1</v></c>'))]


@case("y_case_insensitive_names.xlsx", "part names differ in case from the relationship targets",
      "ECMA-376 Part 2 9.1.1.1 (part names compare case-insensitively)")
def _():
    entries = package(sheet(ROW % '<c r="A1"><v>1</v></c>'))
    return [(n.replace("xl/worksheets/sheet1.xml", "XL/Worksheets/Sheet1.XML"), d) for n, d in entries]


@case("y_sheet_states.xlsx", "three sheets: visible, hidden, veryHidden; names with & and non-ASCII",
      "ECMA-376 Part 1 18.2.19 sheet, 18.18.68 ST_SheetState")
def _():
    wb = workbook('<sheet name="A &amp; B" sheetId="1" r:id="rId1"/><sheet name="\u00e9t\u00e9" sheetId="2" '
                  'r:id="rId2" state="hidden"/><sheet name="V" sheetId="3" r:id="rId3" state="veryHidden"/>')
    s = sheet(ROW % '<c r="A1"><v>1</v></c>')
    return [("[Content_Types].xml", content_types([("/xl/workbook.xml", "spreadsheetml.sheet.main+xml")])),
            ("_rels/.rels", rels([("officeDocument", "xl/workbook.xml")])), ("xl/workbook.xml", wb),
            ("xl/_rels/workbook.xml.rels", rels([("worksheet", "worksheets/s%d.xml" % i) for i in (1, 2, 3)]))] + \
           [("xl/worksheets/s%d.xml" % i, s) for i in (1, 2, 3)]


@case("y_date1904.xlsx", "date1904=\"true\" (xsd:boolean spelled out, as LibreOffice writes)",
      "ECMA-376 Part 1 18.2.28 workbookPr; excel-streaming-reader #218")
def _():
    return package(sheet(ROW % '<c r="A1"><v>42735</v></c>'), wb=workbook(pr='<workbookPr date1904="true"/>'))


@case("y_comments_tables_merged.xlsx", "a comment, a table and a merged range",
      "ECMA-376 Part 1 18.7 comments, 18.5 tables, 18.3.1.55 mergeCell")
def _():
    s = sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>H</t></is></c><c r="B1" t="inlineStr"><is><t>I</t></is></c>'
              '</row><row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>2</v></c><c r="D2"><v>3</v></c></row>',
              '<mergeCells count="1"><mergeCell ref="D2:E3"/></mergeCells>'
              '<tableParts count="1"><tablePart r:id="rId2"/></tableParts>')
    comments = ('%s<comments xmlns="%s"><authors><author>Ann</author></authors><commentList>'
                '<comment ref="B2" authorId="0"><text><r><rPr><b/></rPr><t>Ann:</t></r><r><t xml:space="preserve">'
                ' note</t></r></text></comment></commentList></comments>' % (DECL, MAIN))
    table = ('%s<table xmlns="%s" id="1" name="Sales" displayName="Sales" ref="A1:B2"><autoFilter ref="A1:B2"/>'
             '<tableColumns count="2"><tableColumn id="1" name="H"/><tableColumn id="2" name="I"/></tableColumns>'
             '</table>' % (DECL, MAIN))
    return package(s, sheet_rels=rels([("comments", "../comments1.xml"), ("table", "../tables/table1.xml")]),
                   extra=[("xl/comments1.xml", comments), ("xl/tables/table1.xml", table)])


@case("y_formulas.xlsx", "normal and array formulas next to their cached values",
      "ECMA-376 Part 1 18.3.1.40 f")
def _():
    return package(sheet(ROW % cells('<c r="A1"><v>2</v></c>', '<c r="B1"><f>A1*2</f><v>4</v></c>',
                                     '<c r="C1"><f t="array" ref="C1">SUM(A1:B1)</f><v>6</v></c>')))


@case("y_empty_sst.xlsx", "an empty shared string table and a sheet of numbers",
      "ECMA-376 Part 1 18.4.9 sst; simplexlsx #88")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'), sst="")


@case("i_ooxml_escapes.xlsx", "_xHHHH_ escapes decoded in one pass; _x005F_ protects a literal",
      "ECMA-376 Part 1 22.9.2.19 ST_Xstring; MS-OI29500 2.1.1293; openpyxl strips only x005F_")
def _():
    return package(sheet(ROW % cells('<c r="A1" t="s"><v>0</v></c>', '<c r="B1" t="s"><v>1</v></c>',
                                     '<c r="C1" t="s"><v>2</v></c>')),
                   sst="<si><t>a_x000D_b</t></si><si><t>_x005F_x000D_</t></si><si><t>_xd_ _x00G0_</t></si>")


@case("i_malformed_utf8.xlsx", "ill-formed UTF-8 in a string: bytes pass through as code units",
      "BRIEF byte passthrough rule; XML 1.0 2.2 (a parser rejects it)")
def _():
    return package(sheet(ROW % '<c r="A1" t="inlineStr"><is><t>ok \xc3( \xff</t></is></c>').encode("latin-1"))


@case("i_whitespace.xlsx", "leading/trailing spaces without xml:space=\"preserve\" are kept",
      "ECMA-376 Part 1 18.4.12 t; calamine trims (#671)")
def _():
    return package(sheet(ROW % '<c r="A1" t="s"><v>0</v></c>'), sst="<si><t>  padded  </t></si>")


@case("i_duplicate_cells.xlsx", "the same cell twice: the later one wins", "openpyxl and calamine overwrite")
def _():
    return package(sheet('<row r="1"><c r="A1"><v>1</v></c><c r="A1"><v>2</v></c></row>'))


@case("i_boolean_words.xlsx", "t=\"b\" written as true/false", "ECMA-376 18.18.11 (b is 0 or 1); xsd:boolean")
def _():
    return package(sheet(ROW % cells('<c r="A1" t="b"><v>true</v></c>', '<c r="B1" t="b"><v>false</v></c>')))


@case("i_iso_date_cell.xlsx", "t=\"d\" keeps its ISO 8601 text", "ECMA-376 Part 1 18.18.11 (d)")
def _():
    return package(sheet(ROW % '<c r="A1" t="d"><v>2021-01-01T10:10:10</v></c>'))


@case("i_shared_formula.xlsx", "a shared formula: dependents keep si and an empty text",
      "ECMA-376 Part 1 18.3.1.40 f (t=shared)")
def _():
    return package(sheet('<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f t="shared" ref="B1:B2" si="0">A1*2</f>'
                         '<v>2</v></c></row><row r="2"><c r="A2"><v>2</v></c><c r="B2"><f t="shared" si="0"/>'
                         '<v>4</v></c></row>'))


@case("i_empty_values.xlsx", "<v/> means no value (str: the empty string)", "calamine #607")
def _():
    return package(sheet(ROW % cells('<c r="A1"><v/></c>', '<c r="B1" t="str"><v></v></c>', '<c r="C1" s="1"/>')))


@case("i_deep_nesting.xlsx", "unknown elements nested 300 deep inside a cell (limit 256)",
      "docconform Limits::max_depth")
def _():
    return package(sheet(ROW % ('<c r="A1">' + "<x>" * 300 + "</x>" * 300 + "</c>")))


@case("n_not_a_zip.xlsx", "plain text, not a zip archive", "ECMA-376 Part 2 (ZIP package)")
def _():
    return b"this is not a zip archive\n"


@case("n_truncated_zip.xlsx", "a valid package cut in half", "APPNOTE.TXT 4.3 (central directory)")
def _():
    data = zip_bytes(package(sheet(ROW % '<c r="A1"><v>1</v></c>')))
    return data[:len(data) // 2]


@case("n_no_office_document.xlsx", "_rels/.rels has no officeDocument relationship",
      "ECMA-376 Part 1 (officeDocument relationship)")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'), root_rels=rels([]))


@case("n_missing_sheet_part.xlsx", "the worksheet relationship targets a part not in the zip",
      "ECMA-376 Part 2 9.3")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'), wb_rels=rels([("worksheet", "worksheets/none.xml")]))


@case("n_cyclic_relationship.xlsx", "the worksheet relationship points back at the workbook part",
      "ECMA-376 Part 2 9.3")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'), wb_rels=rels([("worksheet", "workbook.xml")]))


def replace_part(entries, name, data):
    return [(n, data if n == name else d) for n, d in entries]


@case("n_no_content_types.xlsx", "no [Content_Types].xml part",
      "ECMA-376 Part 2 (content types stream: every package has one)")
def _():
    return [(n, d) for n, d in package(sheet(ROW % '<c r="A1"><v>1</v></c>')) if n != "[Content_Types].xml"]


@case("n_content_types_not_xml.xlsx", "[Content_Types].xml is not well-formed: <Types> is never closed"
      " (openpyxl rejects it; exceljs never reads the part and SheetJS scans its tags without checking nesting)",
      "ECMA-376 Part 2 (content types stream); XML 1.0 (well-formed)")
def _():
    entries = package(sheet(ROW % '<c r="A1"><v>1</v></c>'))
    types = dict(entries)["[Content_Types].xml"]
    return replace_part(entries, "[Content_Types].xml", types[:-len("</Types>")])


@case("n_worksheet_content_type.xlsx", "the worksheet part's Override gives it the sharedStrings content type"
      " (no third-party reader rejects it: all three reach sheets through relationships and never check their content type)",
      "ECMA-376 Part 1 12.3, Worksheet Part (its content type)")
def _():
    entries = package(sheet(ROW % '<c r="A1"><v>1</v></c>'))
    types = content_types([("/xl/workbook.xml", "spreadsheetml.sheet.main+xml"),
                           ("/xl/worksheets/sheet1.xml", "spreadsheetml.sharedStrings+xml")])
    return replace_part(entries, "[Content_Types].xml", types)


@case("n_workbook_content_type.xlsx", "the workbook part's Override gives it a PresentationML content type"
      " (openpyxl rejects it; exceljs never reads [Content_Types].xml and SheetJS falls back to xl/workbook.xml)",
      "ECMA-376 Part 1 12.3, Workbook Part (its content type)")
def _():
    entries = package(sheet(ROW % '<c r="A1"><v>1</v></c>'))
    types = content_types([("/xl/workbook.xml", "presentationml.presentation.main+xml"),
                           ("/xl/worksheets/sheet1.xml", "spreadsheetml.worksheet+xml")])
    return replace_part(entries, "[Content_Types].xml", types)


@case("n_sst_index_out_of_range.xlsx", "t=\"s\" index 5 into a table of one string", "ECMA-376 Part 1 18.18.11 (s)")
def _():
    return package(sheet(ROW % '<c r="A1" t="s"><v>5</v></c>'), sst="<si><t>one</t></si>")


@case("n_row_beyond_limit.xlsx", "row 1048577", "ECMA-376 Part 1 18.3.1.73 row (r <= 1048576)")
def _():
    return package(sheet('<row r="1048577"><c r="A1048577"><v>1</v></c></row>'))


@case("n_column_beyond_limit.xlsx", "column XFE (16385)", "ECMA-376 Part 1 18.3.1.4 c (columns A..XFD)")
def _():
    return package(sheet(ROW % '<c r="XFE1"><v>1</v></c>'))


@case("n_doctype_entities.xlsx", "a DOCTYPE declaring entities (billion laughs)", "XML 1.0 2.8; POI poc-xmlbomb")
def _():
    doc = ('<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
           + sheet(ROW % '<c r="A1" t="str"><v>&b;</v></c>')[len(DECL):])
    return package(doc)


@case("n_undefined_entity.xlsx", "&nbsp; without a DTD", "XML 1.0 4.1 (WFC: Entity Declared)")
def _():
    return package(sheet(ROW % '<c r="A1" t="str"><v>a&nbsp;b</v></c>'))


@case("n_mismatched_tags.xlsx", "</c> closes <v>", "XML 1.0 3 (WFC: Element Type Match)")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</c></v>'))


@case("n_not_a_number.xlsx", "a number cell whose value is text", "ECMA-376 Part 1 18.18.11 (n)")
def _():
    return package(sheet(ROW % '<c r="A1"><v>abc</v></c>'))


@case("n_declared_size_bomb.xlsx", "the sheet declares 4 GB uncompressed (zip bomb by declared size)",
      "docconform Limits::max_part_bytes; POI ZipSecureFile")
def _():
    return sheet_with_header_fields(lambda data, local, central: struct.pack_into("<I", data, central + 24, 0xFFFFFFF0))


MS_REL = "http://schemas.microsoft.com/office/2006/relationships"
XM = "http://schemas.microsoft.com/office/excel/2006/main"


def kinds_package(sheets, macro_type="application/vnd.ms-excel.macrosheet+xml"):
    """A package of a worksheet followed by sheets given as (name, relationship type URI, part,
    content type, part XML)."""
    listed = '<sheet name="Data" sheetId="1" r:id="rId1"/>'
    relationships = '<Relationship Id="rId1" Type="%s/worksheet" Target="worksheets/sheet1.xml"/>' % REL
    types = ('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
             '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
             '<Default Extension="xml" ContentType="application/xml"/>'
             '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.ms-excel.sheet.macroEnabled.main+xml"/>'
             '<Override PartName="/xl/worksheets/sheet1.xml" '
             'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>')
    parts = [("xl/worksheets/sheet1.xml", sheet(ROW % '<c r="A1"><v>1</v></c>'))]
    for i, (name, rel_type, part, content_type, xml) in enumerate(sheets, 2):
        listed += '<sheet name="%s" sheetId="%d" r:id="rId%d"/>' % (name, i, i)
        relationships += '<Relationship Id="rId%d" Type="%s" Target="%s"/>' % (i, rel_type, part)
        types += '<Override PartName="/xl/%s" ContentType="%s"/>' % (part, content_type)
        parts.append(("xl/" + part, xml))
    return [("[Content_Types].xml", types + "</Types>"),
            ("_rels/.rels", rels([("officeDocument", "xl/workbook.xml")])),
            ("xl/workbook.xml", workbook(listed)),
            ("xl/_rels/workbook.xml.rels", '<Relationships xmlns="%s">%s</Relationships>' % (PKG, relationships))] + parts


def macro_sheet(data):
    return '%s<xm:macrosheet xmlns="%s" xmlns:r="%s" xmlns:xm="%s"><sheetData>%s</sheetData></xm:macrosheet>' % (
        DECL, MAIN, REL, XM, data)


DIALOG = ('%s<dialogsheet xmlns="%s" xmlns:r="%s"><sheetPr/><pageMargins left="0.7" right="0.7" top="0.75" '
          'bottom="0.75" header="0.3" footer="0.3"/></dialogsheet>') % (DECL, MAIN, REL)
MACRO = macro_sheet('<row r="1"><c r="A1" t="str"><f>ECHO(FALSE)</f><v>TRUE</v></c></row>'
                    '<row r="2"><c r="A2" t="b"><f>RETURN()</f><v>1</v></c><c r="B2"><v>7</v></c></row>')
MACRO_TYPE = (MS_REL + "/xlMacrosheet", "macrosheets/sheet1.xml", "application/vnd.ms-excel.macrosheet+xml")


@case("y_sheet_kinds.xlsm", "a worksheet, an Excel 4.0 macro sheet, a dialog sheet and an international macro sheet"
      " (macro sheet cells are ordinary sheetData)", "ECMA-376 Part 1 12.3.7, 12.3.19; MS-XLSX 2.1.8, 2.1.9")
def _():
    return kinds_package([("Macro1",) + MACRO_TYPE + (MACRO,),
                          ("Dialog1", REL + "/dialogsheet", "dialogsheets/sheet1.xml",
                           "application/vnd.openxmlformats-officedocument.spreadsheetml.dialogsheet+xml", DIALOG),
                          ("Intl1", MS_REL + "/xlIntlMacrosheet", "macrosheets/intlsheet1.xml",
                           "application/vnd.ms-excel.intlmacrosheet+xml",
                           macro_sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>intl</t></is></c></row>'))])


@case("y_dialog_sheet.xlsx", "a worksheet and a dialog sheet (no cells)", "ECMA-376 Part 1 12.3.7 dialogsheet part")
def _():
    return kinds_package([("Dialog1", REL + "/dialogsheet", "dialogsheets/sheet1.xml",
                           "application/vnd.openxmlformats-officedocument.spreadsheetml.dialogsheet+xml", DIALOG)])


@case("n_macro_sheet_content_type.xlsm", "a macro sheet reached through xlMacrosheet but declared as a worksheet",
      "ECMA-376 Part 2 10.1.2.4 (content type of a part); MS-XLSX 2.1.8")
def _():
    return kinds_package([("Macro1", MACRO_TYPE[0], MACRO_TYPE[1],
                           "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml", MACRO)])


def zip_bytes(entries):
    buffer = io.BytesIO()
    write_zip(buffer, entries)
    return buffer.getvalue()


@case("n_duplicate_entry_names.xlsx", "two zip entries named xl/worksheets/sheet1.xml with different cells"
      " (readers taking the first and the last would read different workbooks)", "APPNOTE.TXT 4.3; docconform SPEC zip ambiguity")
def _():
    entries = package(sheet(ROW % '<c r="A1"><v>1</v></c>'))
    entries.append(("xl/worksheets/sheet1.xml", sheet(ROW % '<c r="A1"><v>2</v></c>')))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate it is asked to write
        return zip_bytes(entries)


@case("n_local_header_name_mismatch.xlsx", "the sheet's local header names xl/worksheets/sheet2.xml, its central"
      " directory record xl/worksheets/sheet1.xml", "APPNOTE.TXT 4.3.7, 4.3.12; docconform SPEC zip ambiguity")
def _():
    def patch(data, local, central):
        data[local + 30:local + 30 + 24] = b"xl/worksheets/sheet2.xml"
    return sheet_with_header_fields(patch)


def entry_headers(data, name):
    """The offsets of the local header and the central directory record of the entry name."""
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        length = struct.unpack_from("<H", data, at + 28)[0]
        if bytes(data[at + 46:at + 46 + length]) == name:
            return struct.unpack_from("<I", data, at + 42)[0], at
        at = data.find(b"PK\x01\x02", at + 4)
    raise AssertionError("no central directory record for " + name.decode())


def sheet_with_header_fields(patch):
    """The one-sheet package with patch(data, local, central) applied to the sheet's headers."""
    data = bytearray(zip_bytes(package(sheet(ROW % '<c r="A1"><v>1</v></c>'))))
    local, central = entry_headers(data, b"xl/worksheets/sheet1.xml")
    patch(data, local, central)
    return bytes(data)


def add_to_field(data, at, delta):
    struct.pack_into("<I", data, at, (struct.unpack_from("<I", data, at)[0] + delta) % (1 << 32))


@case("n_local_header_crc_mismatch.xlsx", "the sheet's local header states another CRC-32 than its central"
      " directory record (no data descriptor); the data matches the directory's", "APPNOTE.TXT 4.3.7, 4.4.7;"
      " docconform SPEC zip ambiguity")
def _():
    return sheet_with_header_fields(lambda data, local, central: add_to_field(data, local + 14, 1))


@case("i_stated_size_larger.xlsx", "the sheet's uncompressed size is stated 100 bytes larger than its data"
      " inflates to, in both headers; the CRC-32 matches the data", "APPNOTE.TXT 4.4.9; docconform SPEC zip"
      " sizes (the data and its CRC-32 win)")
def _():
    def patch(data, local, central):
        add_to_field(data, local + 22, 100)
        add_to_field(data, central + 24, 100)
    return sheet_with_header_fields(patch)


@case("i_stated_size_smaller.xlsx", "the sheet's uncompressed size is stated 100 bytes smaller than its data"
      " inflates to, in both headers; the CRC-32 matches the data", "APPNOTE.TXT 4.4.9; docconform SPEC zip"
      " sizes (the data and its CRC-32 win)")
def _():
    def patch(data, local, central):
        add_to_field(data, local + 22, -100)
        add_to_field(data, central + 24, -100)
    return sheet_with_header_fields(patch)


class Unseekable(io.RawIOBase):
    """A stream zipfile cannot seek back in: it then writes each entry's CRC-32 and sizes in a
    data descriptor after its data (flag bit 3) and zeros in its local header."""
    def __init__(self):
        super().__init__()
        self.data = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.data += b
        return len(b)


def zip_with_data_descriptors(entries):
    out = Unseekable()
    write_zip(out, entries)
    return bytearray(out.data)


@case("y_data_descriptor.xlsx", "every entry's CRC-32 and sizes follow its data in a data descriptor (flag bit 3;"
      " zeros in the local headers), as a writer to an unseekable stream makes them", "APPNOTE.TXT 4.3.9, 4.4.4 (bit 3)")
def _():
    return bytes(zip_with_data_descriptors(package(sheet(ROW % '<c r="A1"><v>1</v></c>'))))


@case("i_data_descriptor_flag_local_only.xlsx", "the sheet's local header sets flag bit 3 (CRC-32 and sizes in a data"
      " descriptor, zeros in the header), its central directory record clears it; the descriptor agrees with the"
      " record", "APPNOTE.TXT 4.3.7, 4.4.4 (silent on the flag differing); docconform SPEC zip ambiguity (zeros"
      " where the local header defers to a descriptor)")
def _():
    data = zip_with_data_descriptors(package(sheet(ROW % '<c r="A1"><v>1</v></c>')))
    central = entry_headers(data, b"xl/worksheets/sheet1.xml")[1]
    struct.pack_into("<H", data, central + 8, struct.unpack_from("<H", data, central + 8)[0] & ~8)
    return bytes(data)


def zip64_local_sheet(compressed_size_change):
    """The one-sheet package whose sheet's local header defers both sizes to its ZIP64 field
    (0xFFFFFFFF in the header), that field's compressed size changed by the given amount."""
    buffer = io.BytesIO()
    write_zip(buffer, package(sheet(ROW % '<c r="A1"><v>1</v></c>')), zip64=("xl/worksheets/sheet1.xml",))
    data = bytearray(buffer.getvalue())
    local = entry_headers(data, b"xl/worksheets/sheet1.xml")[0]
    struct.pack_into("<II", data, local + 18, 0xFFFFFFFF, 0xFFFFFFFF)
    extra = local + 30 + struct.unpack_from("<H", data, local + 26)[0]
    assert struct.unpack_from("<HH", data, extra) == (1, 16)
    add_to_field(data, extra + 12, compressed_size_change)  # size at +4, compressed size at +12
    return bytes(data)


@case("y_zip64_local_sizes.xlsx", "the sheet's local header gives its sizes only in its ZIP64 extended information"
      " field (0xFFFFFFFF in the header), equal to the central directory's", "APPNOTE.TXT 4.4.8, 4.4.9, 4.5.3")
def _():
    return zip64_local_sheet(0)


@case("n_local_header_zip64_size_mismatch.xlsx", "the sheet's local header gives its sizes in its ZIP64 field, with a"
      " compressed size 1 byte smaller than the central directory's", "APPNOTE.TXT 4.3.7, 4.5.3; docconform SPEC zip"
      " ambiguity")
def _():
    return zip64_local_sheet(-1)


@case("n_xml_declaration_encoding_windows_1252.xlsx", "xl/sharedStrings.xml declares encoding=\"windows-1252\" and"
      " holds byte 0x80 (the euro sign in that encoding)", "ECMA-376 Part 2 (OPC) M1.17: UTF-8 or UTF-16 only")
def _():
    entries = package(sheet(ROW % '<c r="A1" t="s"><v>0</v></c>'), sst="<si><t>x</t></si>")
    strings = ('<?xml version="1.0" encoding="windows-1252" standalone="yes"?>\n<sst xmlns="%s"><si><t>'
               % MAIN).encode("ascii") + b"\x80</t></si></sst>"
    return replace_part(entries, "xl/sharedStrings.xml", strings)


@case("n_xml_declaration_utf16_in_8_bit_part.xlsx", "xl/workbook.xml declares encoding=\"UTF-16\" but is written"
      " in 8-bit bytes with no byte order mark", "XML 1.0 4.3.3 (UTF-16 entities begin with the byte order mark;"
      " an entity in another encoding than the one declared is an error); ECMA-376 Part 2 M1.17")
def _():
    entries = package(sheet(ROW % '<c r="A1"><v>1</v></c>'))
    return replace_part(entries, "xl/workbook.xml", workbook().replace('encoding="UTF-8"', 'encoding="UTF-16"'))


@case("y_xml_declaration_lowercase_utf8.xlsx", "every part declares encoding='utf-8' (lower case, single quotes)",
      "XML 1.0 4.3.3 (encoding names match without regard to case), 2.8 (single-quoted pseudo-attributes)")
def _():
    lower = "<?xml version='1.0' encoding='utf-8'?>\n"
    entries = package(sheet(ROW % '<c r="A1" t="s"><v>0</v></c>'), sst="<si><t>caf\u00e9</t></si>")
    return [(n, lower + (d[len(DECL):] if d.startswith(DECL) else d)) for n, d in entries]


@case("n_sheet_relationship_type_foreign_namespace.xlsx", "the sheet's relationship type is"
      " http://example.com/relationships/worksheet: the last segment of a worksheet type under a URI that"
      " defines none", "ECMA-376 Part 1 12.3.24 (Worksheet Part: its relationship type), 18.2.19 sheet (r:id)")
def _():
    book_rels = rels([("worksheet", "worksheets/sheet1.xml")]).replace(REL + "/worksheet",
                                                                       "http://example.com/relationships/worksheet")
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'), wb_rels=book_rels)


def one_cell(c):
    return package(sheet(ROW % c))


@case("n_doctype_without_entities.xlsx", "the sheet part has a DOCTYPE declaration (<!DOCTYPE worksheet>) that"
      " declares nothing", "ECMA-376 Part 2 8.1.4 [M1.18] (a DTD declaration is an error)")
def _():
    return package(DECL + "<!DOCTYPE worksheet>" + sheet(ROW % '<c r="A1"><v>1</v></c>')[len(DECL):])


@case("n_unknown_cell_type.xlsx", "t=\"x\", not a value of ST_CellType", "ECMA-376 Part 1 18.18.11 ST_CellType")
def _():
    return one_cell('<c r="A1" t="x"><v>1</v></c>')


@case("n_boolean_value_two.xlsx", "t=\"b\" with the value 2", "ECMA-376 Part 1 18.18.11 (b: 0 or 1); XML Schema xsd:boolean")
def _():
    return one_cell('<c r="A1" t="b"><v>2</v></c>')


@case("y_boolean_whitespace.xlsx", "t=\"b\" values with white space around 1 and 0",
      "ECMA-376 Part 1 18.18.11 (b); XML Schema xsd:boolean (whiteSpace collapse)")
def _():
    return one_cell('<c r="A1" t="b"><v> 1 </v></c><c r="B1" t="b"><v>\n0\n</v></c>')


@case("n_shared_string_index_fraction.xlsx", "t=\"s\" with the index 0.5", "ECMA-376 Part 1 18.18.11 (s: a zero-based index)")
def _():
    return package(sheet(ROW % '<c r="A1" t="s"><v>0.5</v></c>'), sst="<si><t>one</t></si>")


@case("n_shared_string_index_negative.xlsx", "t=\"s\" with the index -1 into a table of one string",
      "ECMA-376 Part 1 18.18.11 (s: a zero-based index)")
def _():
    return package(sheet(ROW % '<c r="A1" t="s"><v>-1</v></c>'), sst="<si><t>one</t></si>")


@case("n_shared_string_without_table.xlsx", "t=\"s\" index 0 in a package without a shared strings part",
      "ECMA-376 Part 1 18.18.11 (s); 12.3.15 Shared String Table Part")
def _():
    return one_cell('<c r="A1" t="s"><v>0</v></c>')


@case("n_shared_strings_part_missing.xlsx", "the workbook's sharedStrings relationship targets a part not in the zip",
      "ECMA-376 Part 2 9.3 (relationship target); Part 1 12.3.15")
def _():
    return [e for e in package(sheet(ROW % '<c r="A1" t="s"><v>0</v></c>'), sst="<si><t>one</t></si>")
            if e[0] != "xl/sharedStrings.xml"]


@case("y_number_special_values.xlsx", "number cells INF, -INF and NaN (the special values of xsd:double)",
      "ECMA-376 Part 1 18.3.1.96 v; XML Schema xsd:double (lexical space)")
def _():
    return one_cell('<c r="A1"><v>INF</v></c><c r="B1"><v>-INF</v></c><c r="C1"><v>NaN</v></c>')


@case("n_number_inf_lowercase.xlsx", "a number cell whose value is inf (xsd:double spells it INF)",
      "XML Schema xsd:double (lexical space); ECMA-376 Part 1 18.18.11 (n)")
def _():
    return one_cell('<c r="A1"><v>inf</v></c>')


@case("n_number_infinity_word.xlsx", "a number cell whose value is Infinity (xsd:double spells it INF)",
      "XML Schema xsd:double (lexical space); ECMA-376 Part 1 18.18.11 (n)")
def _():
    return one_cell('<c r="A1"><v>Infinity</v></c>')


@case("n_number_hex.xlsx", "a number cell whose value is 0x10", "XML Schema xsd:double (lexical space); ECMA-376 Part 1 18.18.11 (n)")
def _():
    return one_cell('<c r="A1"><v>0x10</v></c>')


@case("n_number_decimal_comma.xlsx", "a number cell whose value is 1,5 (a decimal comma)",
      "XML Schema xsd:double (lexical space); ECMA-376 Part 1 18.18.11 (n)")
def _():
    return one_cell('<c r="A1"><v>1,5</v></c>')


@case("y_number_lexical_forms.xlsx", "number values with white space around them, a leading +, and a bare . on"
      " either side (.5, 5.)", "XML Schema xsd:double (lexical space, whiteSpace collapse)")
def _():
    return one_cell('<c r="A1"><v> 12 </v></c><c r="B1"><v>+3</v></c><c r="C1"><v>.5</v></c><c r="D1"><v>5.</v></c>')


@case("n_row_zero.xlsx", "a row numbered 0", "ECMA-376 Part 1 18.3.1.73 row (r: 1-based)")
def _():
    return package(sheet('<row r="0"><c r="A0"><v>1</v></c></row>'))


@case("n_cell_reference_row_zero.xlsx", "a cell reference A0 in a row without r", "ECMA-376 Part 1 18.3.1.4 c (r: an A1 reference)")
def _():
    return package(sheet('<row><c r="A0"><v>1</v></c></row>'))


@case("n_cell_in_other_row.xlsx", "a cell A2 inside <row r=\"1\">",
      "ECMA-376 Part 1 18.3.1.4 c, 18.3.1.73 row; docconform SPEC (a cell naming another row than its numbered row)")
def _():
    return package(sheet('<row r="1"><c r="A2"><v>1</v></c></row>'))


@case("n_absolute_cell_reference.xlsx", "a cell reference written $B$1", "ECMA-376 Part 1 18.3.1.4 c (r: ST_CellRef, an A1 reference)")
def _():
    return package(sheet('<row r="1"><c r="$B$1"><v>1</v></c></row>'))


@case("n_unknown_sheet_state.xlsx", "a sheet whose state is invisible", "ECMA-376 Part 1 18.2.19 sheet, 18.18.68 ST_SheetState")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'),
                   wb=workbook('<sheet name="Sheet1" sheetId="1" state="invisible" r:id="rId1"/>'))


@case("n_external_worksheet_relationship.xlsx", "the worksheet relationship has TargetMode=\"External\"",
      "ECMA-376 Part 2 9.3 (an external target is no part); Part 1 12.3.24 (worksheet part)")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'),
                   wb_rels='<Relationships xmlns="%s"><Relationship Id="rId1" Type="%s/worksheet" '
                           'Target="worksheets/sheet1.xml" TargetMode="External"/></Relationships>' % (PKG, REL))


@case("n_sheet_relationship_id_missing.xlsx", "a sheet whose r:id names no relationship of the workbook",
      "ECMA-376 Part 1 18.2.19 sheet (r:id)")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'), wb=workbook('<sheet name="Sheet1" sheetId="1" r:id="rId9"/>'))


@case("n_date1904_not_boolean.xlsx", "workbookPr date1904=\"yes\"", "ECMA-376 Part 1 18.2.28 workbookPr; XML Schema xsd:boolean")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'), wb=workbook(pr='<workbookPr date1904="yes"/>'))


@case("n_two_root_elements.xlsx", "the sheet part has a second root element after </worksheet>", "XML 1.0 2.1 (document: one root element)")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>') + "<worksheet/>")


@case("n_less_than_in_attribute.xlsx", "a sheet name holding a raw <", "XML 1.0 3.1 (WFC: No < in Attribute Values)")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'), wb=workbook('<sheet name="a<b" sheetId="1" r:id="rId1"/>'))


@case("n_bare_ampersand.xlsx", "a str value holding a raw & followed by a space", "XML 1.0 2.4 (& only as markup), 4.1")
def _():
    return one_cell('<c r="A1" t="str"><v>a & b</v></c>')


@case("n_char_ref_nul.xlsx", "a str value holding &#0;", "XML 1.0 4.1 (WFC: Legal Character), 2.2 Char")
def _():
    return one_cell('<c r="A1" t="str"><v>a&#0;b</v></c>')


@case("n_relationship_without_target.xlsx", "the worksheet Relationship has no Target attribute",
      "ECMA-376 Part 2 9.3.2.2 Relationship (Target required)")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'),
                   wb_rels='<Relationships xmlns="%s"><Relationship Id="rId1" Type="%s/worksheet"/></Relationships>' % (PKG, REL))


@case("y_formula_data_table.xlsx", "a dataTable formula (t=\"dataTable\", no text) with its cached value",
      "ECMA-376 Part 1 18.3.1.40 f, 18.18.6 ST_CellFormulaType")
def _():
    return one_cell('<c r="A1"><f t="dataTable" ref="A1:B2" dt2D="1" dtr="1" r1="C1" r2="D1"/><v>3</v></c>')


@case("i_rows_out_of_order.xlsx", "row 3 before row 1 and C1 before A1: the dump orders them",
      "ECMA-376 Part 1 18.3.1.80 sheetData (order not stated as a reading rule); docconform SPEC dump order")
def _():
    return package(sheet('<row r="3"><c r="A3"><v>3</v></c></row><row r="1"><c r="C1"><v>2</v></c><c r="A1"><v>1</v></c></row>'))


@case("n_comment_double_hyphen.xlsx", "the sheet holds the comment <!-- a -- b -->",
      "XML 1.0 2.5 (the string -- must not occur within comments)")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>' + "<!-- a -- b -->"))


@case("n_xml_declaration_after_white_space.xlsx", "xl/workbook.xml starts with a line feed, then its XML declaration",
      "XML 1.0 2.8 [22] prolog (the declaration comes first), 2.6 (the target xml is reserved)")
def _():
    return package(sheet(ROW % '<c r="A1"><v>1</v></c>'), wb="\n" + workbook())


@case("n_cell_reference_without_row.xlsx", "a cell whose r is B: column letters with no row number",
      "ECMA-376 Part 1 18.18.7 ST_CellRef (column letters, then a row number)")
def _():
    return package(sheet('<row r="1"><c r="A1"><v>1</v></c><c r="B"><v>2</v></c></row>'))


@case("n_control_character_in_shared_string.xlsx", "a shared string holds a raw U+0001 (the byte 0x01)",
      "XML 1.0 2.2 (Char: no C0 control but TAB, LF and CR), 2.1 (a well-formed document matches document)")
def _():
    return package(sheet(ROW % '<c r="A1" t="s"><v>0</v></c>'), sst="<si><t>a\x01b</t></si>")


@case("n_control_character_in_inline_string.xlsx", "an inline string holds a raw U+001F (the byte 0x1F) after a"
      " TAB and a line feed", "XML 1.0 2.2 (Char: no C0 control but TAB, LF and CR)")
def _():
    return package(sheet(ROW % '<c r="A1" t="inlineStr"><is><t>a\tb\nc\x1f</t></is></c>'))


@case("n_duplicate_sheet_names.xlsx", "two sheets, each with its own part, are both named Data",
      "ECMA-376 Part 1 18.2.19 sheet (name: this name shall be unique)")
def _():
    two = '<sheet name="Data" sheetId="1" r:id="rId1"/><sheet name="Data" sheetId="2" r:id="rId2"/>'
    entries = package(sheet(ROW % '<c r="A1"><v>1</v></c>'), wb=workbook(two),
                      wb_rels=rels([("worksheet", "worksheets/sheet1.xml"), ("worksheet", "worksheets/sheet2.xml")]),
                      extra=[("xl/worksheets/sheet2.xml", sheet(ROW % '<c r="A1"><v>2</v></c>'))])
    types = content_types([("/xl/workbook.xml", "spreadsheetml.sheet.main+xml"),
                           ("/xl/worksheets/sheet1.xml", "spreadsheetml.worksheet+xml"),
                           ("/xl/worksheets/sheet2.xml", "spreadsheetml.worksheet+xml")])
    return replace_part(entries, "[Content_Types].xml", types)


@case("n_zip_entry_names_leading_slash.xlsx", "every part under xl/ is stored as a zip entry named with a leading"
      " slash (/xl/workbook.xml)", "ZIP APPNOTE 4.4.17 (no leading slash in a stored path); ECMA-376 Part 2 (OPC)"
      " mapping of part names to ZIP item names (the part name without its leading /)")
def _():
    entries = package(sheet(ROW % '<c r="A1"><v>1</v></c>'))
    return [("/" + n if n.startswith("xl/") else n, d) for n, d in entries]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    lines = []
    for name, what, rule, fn in CASES:
        result = fn()
        path = os.path.join(out, name)
        if isinstance(result, (bytes, bytearray)):
            with open(path, "wb") as f:
                f.write(result)
        else:
            write_zip(path, result)
        verdict = name.split("_", 1)[0]
        lines.append("%s\t%s\t%s\t%s" % (name, verdict, what, rule))
    with open(os.path.join(out, "CASES.generated.tsv"), "w") as f:  # merged into CASES.tsv by hand
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
