#!/usr/bin/python3
"""xlsx adapter: the canonical dump of conformance/SPEC.md, format xlsx, produced from openpyxl, an
implementation independent of the C++ reference. Run with Debian's /usr/bin/python3
(python3-openpyxl).

Usage: openpyxl_xlsx.py FILE -> dump on stdout, exit 0; exit 1 with `error: <class>` on stderr
when openpyxl cannot load the file. With $DOCCONFORM_PHASES set, also times the phase xlsx_load.

openpyxl gives values, not the XML, so some normalizations are redone here: `_xHHHH_` escapes
are decoded (openpyxl leaves them), date-formatted numbers are turned back into serial numbers,
numbers are laid out as ECMAScript does. Where openpyxl models less (shared formulas, `t="d"`
text), the dump differs; conformance/expectations/openpyxl.tsv lists
those cases.
"""
import datetime
import io
import re
import sys
import warnings
from canonical import number_text, quote_text
from phases import time_phase
from batch import serve


ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")


def unescape(text):
    # One left-to-right pass: re.sub never rescans its own output.
    return ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text).encode("utf-16-le", "surrogatepass").decode(
        "utf-16-le", "surrogatepass") if "_x" in text else text


def cell_ref(row, column):
    letters = ""
    while column:
        column, rem = divmod(column - 1, 26)
        letters = chr(65 + rem) + letters
    return "%s%d" % (letters, row)


def value_text(cell, epoch):
    from openpyxl.utils.datetime import to_excel
    v = cell.value
    if v is None:
        return "blank"
    if isinstance(v, bool):
        return "b true" if v else "b false"
    if isinstance(v, (int, float)):
        return "n " + number_text(v)
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time, datetime.timedelta)):
        return "n " + number_text(to_excel(v, epoch))
    if cell.data_type == "e":
        return "e " + quote_text(v)
    return "s " + quote_text(unescape(str(v)))


SHEET_KINDS = {"worksheet": "worksheet", "dialogsheet": "dialogsheet", "xlMacrosheet": "macrosheet",
               "xlIntlMacrosheet": "intlmacrosheet"}


def main():
    warnings.simplefilter("ignore")
    import openpyxl
    from openpyxl.cell.cell import MergedCell
    from openpyxl.chartsheet import Chartsheet
    from openpyxl.reader.excel import ExcelReader
    from openpyxl.utils.datetime import CALENDAR_MAC_1904

    path = sys.argv[1]
    try:
        wb_f = openpyxl.load_workbook(path)
        reader = ExcelReader(path, data_only=True)
        reader.read()
        wb_v = reader.wb
    except Exception as e:  # openpyxl signals every rejection by an exception
        sys.stderr.write("error: %s\n" % type(e).__name__)
        return 1
    # openpyxl reads every sheet but a chartsheet as a worksheet; the kind is the type of the
    # relationship its workbook parser followed (the sheets it read, in its order).
    kinds = [SHEET_KINDS.get(rel.Type.rsplit("/", 1)[-1], "worksheet")
             for _, rel in reader.parser.find_sheets() if rel.target in reader.valid_files]

    out = ["docconform-dump xlsx 1",
           "workbook date1904=%s sheets=%d" % ("true" if wb_v.epoch == CALENDAR_MAC_1904 else "false",
                                              len(wb_v._sheets))]
    for index, (ws, wf) in enumerate(zip(wb_v._sheets, wb_f._sheets), 1):
        chartsheet = isinstance(ws, Chartsheet)
        out.append("sheet %d %s %s %s" % (index, quote_text(ws.title), ws.sheet_state,
                                          "chartsheet" if chartsheet else kinds[index - 1]))
        if chartsheet:
            continue
        comments = []
        merged = [r.bounds for r in ws.merged_cells.ranges]  # (min_col, min_row, max_col, max_row)
        for (row, column) in sorted(ws._cells):
            cell = ws._cells[(row, column)]
            if isinstance(cell, MergedCell) or any(
                    b[0] <= column <= b[2] and b[1] <= row <= b[3] and (row, column) != (b[1], b[0]) for b in merged):
                continue  # only the top-left cell of a merged range is dumped
            if cell.value is None and not cell.has_style and any((row, column) == (b[1], b[0]) for b in merged):
                continue  # openpyxl creates the top-left cell of a merged range the sheet lacks
            if cell.comment is not None:
                comments.append((row, column, cell.comment))
                # openpyxl creates an empty cell to hold a comment on a position the sheet lacks
                if cell.value is None and not cell.has_style:
                    continue
            line = "cell %s %s" % (cell_ref(row, column), value_text(cell, wb_v.epoch))
            out.append(line)
            formula = wf._cells.get((row, column))
            if formula is not None and formula.data_type == "f":
                attrs = wf.formula_attributes.get(cell_ref(row, column), {})
                kind = attrs.get("t", "normal")
                text = "formula " + kind
                if "si" in attrs:
                    text += " si=" + attrs["si"]
                if "ref" in attrs:
                    text += " ref=" + quote_text(attrs["ref"])
                out.append(text + " " + quote_text(str(formula.value)[1:]))
        for r in sorted(str(r) for r in ws.merged_cells.ranges):
            out.append("merge " + quote_text(r))
        for row, column, c in comments:
            out.append("comment %s %s %s" % (quote_text(cell_ref(row, column)), quote_text(unescape(c.author if c.author not in (None, "None") else "")),
                                             quote_text(unescape(c.text or ""))))
        for name, ref in ws.tables.items():
            out.append("table %s %s" % (quote_text(name), quote_text(ref)))
        if ws._charts:
            out.append("charts %d" % len(ws._charts))
    out.append("end")
    sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()
    # Phase xlsx_load (conformance/SPEC.md, format xlsx): the workbook loaded from its bytes.
    with open(path, "rb") as f:
        data = f.read()
    time_phase("xlsx_load", lambda: (openpyxl.load_workbook(io.BytesIO(data)), len(data))[1])
    return 0


if __name__ == "__main__":
    sys.exit(serve(main))
