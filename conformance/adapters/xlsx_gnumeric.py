#!/usr/bin/python3
"""xlsx adapter (conformance/SPEC.md, format xlsx): Gnumeric's XLSX reader (ssconvert, Debian
package gnumeric). ssconvert loads the workbook and saves it as Gnumeric's own uncompressed XML
(sheets, visibility, cells with their value types, expressions, merges, comments, chart objects),
which this adapter writes as the dump.

Usage: xlsx_gnumeric.py FILE -> the dump, exit 0; exit 1 with `error: format` when ssconvert cannot
load the file or reports that its XML is not well-formed (Gnumeric's XML reader reports it and goes
on with what it read).

Gnumeric keeps a formula as a parsed expression, saved in its XML without its cached value and in
Gnumeric's own syntax; the formula lines and the cached values of formula cells (and of the other
cells of an array formula) come from a second save, as XLSX (Gnumeric's writer), read here.
Tables, and the kinds of chart, macro and dialog sheets, are not in Gnumeric's model.
Batch mode (--batch) runs ssconvert per input from one Python process."""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile

from batch import serve
from canonical import number_text, quote_text

SSCONVERT = "/usr/bin/ssconvert"
G = "{http://www.gnumeric.org/v10.dtd}"
S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
VISIBILITY = {"GNM_SHEET_VISIBILITY_VISIBLE": "visible", "GNM_SHEET_VISIBILITY_HIDDEN": "hidden",
              "GNM_SHEET_VISIBILITY_VERY_HIDDEN": "veryHidden"}
# Gnumeric's value types (GnmValueType): empty, boolean, float, error, string.
VALUE_TYPES = {"10": "blank", "20": "b", "30": "n", "40": "n", "50": "e", "60": "s"}
NOT_WELL_FORMED = re.compile(r"XML-CRITICAL \*\*: [0-9:.]+: (.*)")


def column_letters(column):
    letters = ""
    column += 1
    while column:
        column, rem = divmod(column - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def cell_ref(row, column):
    return "%s%d" % (column_letters(column), row + 1)


def ref_position(ref):
    m = re.fullmatch(r"([A-Z]+)([0-9]+)", ref)
    column = 0
    for ch in m.group(1):
        column = column * 26 + ord(ch) - 64
    return int(m.group(2)) - 1, column - 1


def convert(path, output, export):
    """Runs ssconvert; the XLSX importer is named so that a file that is not a package is never
    read by another importer. Returns (exit status, stderr text)."""
    p = subprocess.run([SSCONVERT, "-I", "Gnumeric_Excel:xlsx", "-T", export, path, output],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def reject(why):
    sys.stderr.write("%s\nerror: format\n" % why.strip())
    return 1


def value_text(kind, text):
    if kind == "blank":
        return "blank"
    if kind == "b":
        return "b true" if text.upper() == "TRUE" else "b false"
    if kind == "n":
        return "n " + number_text(float(text))
    return "%s %s" % (kind, quote_text(text))


def saved_formulas(path, work):
    """The formula cells (and the other cells of array formulas) as Gnumeric's XLSX writer saves
    them: per sheet (in order), cell ref -> (value text, the formula line or None)."""
    saved = os.path.join(work, "formulas.xlsx")
    status, messages = convert(path, saved, "Gnumeric_Excel:xlsx2")
    if status != 0:
        raise RuntimeError("ssconvert could not save the workbook as XLSX: " + messages)
    sheets = []
    with zipfile.ZipFile(saved) as z:
        strings = []
        if "xl/sharedStrings.xml" in z.namelist():  # Gnumeric's writer puts some formula results there
            strings = ["".join(t.text or "" for t in si.findall(S + "t") + si.findall(S + "r/" + S + "t"))
                       for si in ET.fromstring(z.read("xl/sharedStrings.xml")).iterfind(S + "si")]
        names = sorted((n for n in z.namelist() if re.fullmatch(r"xl/worksheets/sheet[0-9]+\.xml", n)),
                       key=lambda n: int(re.search(r"([0-9]+)\.xml$", n).group(1)))
        for name in names:
            cells = {}
            for c in ET.fromstring(z.read(name)).iter(S + "c"):
                v, f = c.find(S + "v"), c.find(S + "f")
                kind = {"str": "s", "s": "s", "b": "b", "e": "e"}.get(c.get("t", "n"), "n")
                line = None
                if f is not None:
                    line = "formula " + f.get("t", "normal")
                    if f.get("ref") is not None:
                        line += " ref=" + quote_text(f.get("ref"))
                    line += " " + quote_text(f.text or "")
                text = "" if v is None else v.text or ""
                if c.get("t") == "s":
                    text = strings[int(text)]
                cells[c.get("r")] = ("blank" if v is None else value_text(kind, text), line)
            sheets.append(cells)
    return sheets


def sheet_lines(sheet, index, formulas):
    name = sheet.find(G + "Name").text or ""
    out = ["sheet %d %s %s worksheet" % (index, quote_text(name), VISIBILITY[sheet.get("Visibility")])]
    merged = []
    for m in sheet.iterfind(G + "MergedRegions/" + G + "Merge"):
        first, _, last = m.text.partition(":")
        merged.append((m.text, ref_position(first), ref_position(last or first)))
    cells = []
    for c in sheet.iterfind(G + "Cells/" + G + "Cell"):
        row, column = int(c.get("Row")), int(c.get("Col"))
        cells.append((row, column, c))
        if c.get("Rows") is not None:  # the other cells of an array formula are in its expression, not the XML
            cells += [(r, k, None) for r in range(row, row + int(c.get("Rows")))
                      for k in range(column, column + int(c.get("Cols"))) if (r, k) != (row, column)]
    cells.sort(key=lambda t: (t[0], t[1]))
    for row, column, c in cells:
        if any(top[0] <= row <= bottom[0] and top[1] <= column <= bottom[1] and (row, column) != top
               for _, top, bottom in merged):
            continue  # only the top-left cell of a merged range is dumped
        ref = cell_ref(row, column)
        if c is None:
            out.append("cell %s %s" % (ref, formulas.get(ref, ("blank", None))[0]))
            continue
        text = c.text or ""
        kind = c.get("ValueType")
        if kind is not None:
            out.append("cell %s %s" % (ref, value_text(VALUE_TYPES[kind], text)))
            continue
        value, formula = formulas.get(ref, ("blank", None))
        out.append("cell %s %s" % (ref, value))
        if formula is not None:
            out.append(formula)
    for text, _, _ in sorted(merged, key=lambda m: m[0].encode("utf-16-be")):
        out.append("merge " + quote_text(text))
    comments = []
    for k in sheet.iterfind(G + "Objects/" + G + "CellComment"):
        comments.append((ref_position(k.get("ObjectBound")), k))
    for (row, column), k in sorted(comments, key=lambda t: t[0]):
        out.append("comment %s %s %s" % (quote_text(cell_ref(row, column)), quote_text(k.get("Author") or ""),
                                         quote_text(k.get("Text") or "")))
    charts = len(sheet.findall(G + "Objects/" + G + "SheetObjectGraph"))
    if charts:
        out.append("charts %d" % charts)
    return out


def main():
    path = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="xlsx-gnumeric-") as work:
        saved = os.path.join(work, "workbook.xml")
        status, messages = convert(path, saved, "Gnumeric_XmlIO:sax:0")
        if status != 0:
            return reject(messages)
        errors = NOT_WELL_FORMED.findall(messages)
        if errors:
            return reject("Gnumeric's XML reader: " + errors[0])
        workbook = ET.parse(saved).getroot()
        sheets = workbook.findall(G + "Sheets/" + G + "Sheet")
        has_expressions = any(c.get("ValueType") is None for s in sheets for c in s.iterfind(G + "Cells/" + G + "Cell"))
        formulas = saved_formulas(path, work) if has_expressions else [{} for _ in sheets]
    convention = workbook.find(G + "DateConvention")
    out = ["docconform-dump xlsx 1",
           "workbook date1904=%s sheets=%d" % ("true" if convention is not None and convention.text == "1904" else "false",
                                              len(sheets))]
    for index, sheet in enumerate(sheets, 1):
        out += sheet_lines(sheet, index, formulas[index - 1])
    out.append("end")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(serve(main))
