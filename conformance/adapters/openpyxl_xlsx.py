#!/usr/bin/python3
"""xlsx adapter: the canonical dump of conformance/SPEC.md, format xlsx, produced from openpyxl, an
implementation independent of the C++ reference. Run with Debian's /usr/bin/python3
(python3-openpyxl).

Usage: openpyxl_xlsx.py FILE -> dump on stdout, exit 0; exit 1 with `error: <class>` on stderr
when openpyxl cannot load the file.

openpyxl gives values, not the XML, so some normalizations are redone here: `_xHHHH_` escapes
are decoded (openpyxl leaves them), date-formatted numbers are turned back into serial numbers,
numbers are laid out as ECMAScript does. Where openpyxl models less (shared formulas, `t="d"`
text), the dump differs; conformance/expectations/openpyxl.tsv lists
those cases.
"""
import datetime
import decimal
import math
import re
import sys
import warnings


def quoted(text):
    units = text.encode("utf-16-le", "surrogatepass")
    out = ['"']
    for i in range(0, len(units), 2):
        u = units[i] | (units[i + 1] << 8)
        if u == 0x22 or u == 0x5C:
            out.append("\\" + chr(u))
        elif 0x20 <= u < 0x7F:
            out.append(chr(u))
        else:
            out.append("\\u%04X" % u)
    out.append('"')
    return "".join(out)


def js_number(x):
    """ECMAScript Number::toString, with -0 written as -0."""
    x = float(x)
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    sign = "-" if x < 0 else ""
    t = decimal.Decimal(repr(abs(x))).as_tuple()  # repr: the shortest digits that round-trip
    digits = "".join(map(str, t.digits)).lstrip("0")
    exponent = t.exponent + (len(digits) - len(digits.rstrip("0")))
    digits = digits.rstrip("0")
    k = len(digits)
    n = k + exponent  # the decimal point sits n digits after the first digit
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return sign + mantissa + "e" + ("+" if e >= 0 else "-") + str(abs(e))


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
        return "n " + js_number(v)
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time, datetime.timedelta)):
        return "n " + js_number(to_excel(v, epoch))
    if cell.data_type == "e":
        return "e " + quoted(v)
    return "s " + quoted(unescape(str(v)))


def main():
    warnings.simplefilter("ignore")
    import openpyxl
    from openpyxl.cell.cell import MergedCell
    from openpyxl.chartsheet import Chartsheet
    from openpyxl.utils.datetime import CALENDAR_MAC_1904

    path = sys.argv[1]
    try:
        wb_f = openpyxl.load_workbook(path)
        wb_v = openpyxl.load_workbook(path, data_only=True)
    except Exception as e:  # openpyxl signals every rejection by an exception
        sys.stderr.write("error: %s\n" % type(e).__name__)
        return 1

    out = ["docconform-dump xlsx 1",
           "workbook date1904=%s sheets=%d" % ("true" if wb_v.epoch == CALENDAR_MAC_1904 else "false",
                                              len(wb_v._sheets))]
    for index, (ws, wf) in enumerate(zip(wb_v._sheets, wb_f._sheets), 1):
        chartsheet = isinstance(ws, Chartsheet)
        out.append("sheet %d %s %s %s" % (index, quoted(ws.title), ws.sheet_state,
                                          "chartsheet" if chartsheet else "worksheet"))
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
                    text += " ref=" + quoted(attrs["ref"])
                out.append(text + " " + quoted(str(formula.value)[1:]))
        for r in sorted(str(r) for r in ws.merged_cells.ranges):
            out.append("merge " + quoted(r))
        for row, column, c in comments:
            out.append("comment %s %s %s" % (quoted(cell_ref(row, column)), quoted(unescape(c.author if c.author not in (None, "None") else "")),
                                             quoted(unescape(c.text or ""))))
        for name, ref in ws.tables.items():
            out.append("table %s %s" % (quoted(name), quoted(ref)))
        if ws._charts:
            out.append("charts %d" % len(ws._charts))
    out.append("end")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
