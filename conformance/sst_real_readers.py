#!/usr/bin/python3
"""Real readers open our .xls: xlrd and Apache POI must see every string unchanged.

Usage: sst_real_readers.py DOCCONFORM_BINARY [--count N] [--mix M]
Writes strings files with `docconform gen strings`, workbooks with `docconform xls write`,
then reads every cell back with xlrd and with POI (adapters/sst_poi.py cells) in the writer's
cell order (sheet by sheet, column by column, row by row) and compares with the strings file.
LibreOffice (headless, every sheet to UTF-8 CSV) is compared the same way when `soffice` is
installed (ci/setup --tools installs it), and skipped with a message otherwise.
Exit 0 all equal, 1 a difference, 77 a required reader is missing (ctest: skipped).
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "adapters"))
from canonical import quote_text  # noqa: E402  (the shared dump primitives)



def expected_cells(strings_path, rich_only=False):
    """The strings in cell order; with rich_only, a flag per string: does it have format runs."""
    cells = []
    with open(strings_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                value = json.loads(line)
                if rich_only:
                    cells.append(isinstance(value, dict) and bool(value.get("runs")))
                else:
                    cells.append(value["s"] if isinstance(value, dict) else value)
    return cells


def xlrd_cells(path):
    import xlrd
    import xlrd.book
    xlrd.book.unicode = lambda data, encoding: data.decode(encoding, "surrogatepass")
    book = xlrd.open_workbook(path, logfile=open(os.devnull, "w"))
    cells = []
    for sheet in book.sheets():
        for col in range(sheet.ncols):
            for row in range(sheet.nrows):
                if col < sheet.row_len(row) and sheet.cell_type(row, col) == xlrd.XL_CELL_TEXT:
                    cells.append(sheet.cell_value(row, col))
    return cells


# Filter options: comma, double quote, UTF-8, from line 1, no column formats, no language,
# quote text cells, values not as shown, ..., sheet -1 = every sheet into its own file.
LIBREOFFICE_CSV = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,true,false,false,false,false,-1"


def libreoffice_cells(soffice, path, outdir, count):
    """Every sheet converted to CSV, read back in the writer's cell order (column by column)."""
    done = subprocess.run([soffice, "--headless", "--convert-to", LIBREOFFICE_CSV, "--outdir", outdir, path],
                          capture_output=True, timeout=600)
    sheets = re.findall(r"Writing sheet .* -> (.*\.csv)", done.stdout.decode("utf-8", "replace"))
    if done.returncode != 0 or not sheets:
        raise RuntimeError("conversion failed (exit %d): %s" % (done.returncode, (done.stdout + done.stderr)[-2000:]))
    cells = []
    for sheet in sheets:
        with open(sheet, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        os.remove(sheet)
        width = max((len(r) for r in rows), default=0)
        cells += [r[c] if c < len(r) else "" for c in range(width) for r in rows]
    # The last column of the last sheet may be partly empty: cells past the strings read as "".
    if any(cells[count:]):
        raise RuntimeError("%d cells, expected %d" % (len(cells), count))
    return cells[:count]


# LibreOffice keeps formatted (rich) cell text in its edit engine, whose paragraphs hold at most
# 0x3FFF - 16 = 16,367 characters (MAXCHARSINPARA in editeng): a longer rich string comes back
# with a line break inserted where a paragraph fills up. Only those breaks are forgiven.
LIBREOFFICE_PARAGRAPH_CHARS = 16367


def without_paragraph_breaks(got, want):
    """got with the line breaks LibreOffice inserts into a long rich string removed, if that is all
    that differs from want; otherwise got unchanged."""
    if len(want) <= LIBREOFFICE_PARAGRAPH_CHARS or len(got) - len(want) > len(want) // LIBREOFFICE_PARAGRAPH_CHARS:
        return got
    kept, i = [], 0
    for c in got:
        if i < len(want) and c == want[i]:
            i += 1
            kept.append(c)
        elif c != "\n":
            return got
    return "".join(kept) if i == len(want) else got


def compare(reader, got, want, got_quoted=False):
    # Compared as UTF-16 code units: a surrogate pair split across records comes back from
    # xlrd as two lone surrogates in a Python str, which is the same UTF-16.
    got = got if got_quoted else [quote_text(g) for g in got]
    want = [quote_text(w) for w in want]
    if got == want:
        print("  %s: %d cells equal" % (reader, len(want)))
        return True
    print("  %s: DIFFERENT (%d cells, expected %d)" % (reader, len(got), len(want)))
    for i, (a, b) in enumerate(zip(got, want)):
        if a != b:
            print("    first difference at cell %d: %s / expected %s" % (i, a[:200], b[:200]))
            break
    return False


def main():
    binary = sys.argv[1]
    args = sys.argv[2:]
    runs = [("mixed", 20000, []), ("rich", 3000, []), ("emoji", 2000, ["--rows-per-sheet", "300", "--columns-per-sheet", "3"])]
    if "--count" in args:
        mix = args[args.index("--mix") + 1] if "--mix" in args else "mixed"
        runs = [(mix, int(args[args.index("--count") + 1]), [])]
    try:
        import xlrd  # noqa: F401  (python3-xlrd, for /usr/bin/python3)
    except ImportError:
        print("SKIP: xlrd is not installed for %s (ci/setup installs python3-xlrd)" % sys.executable)
        return 77
    if shutil.which("java") is None or not os.path.exists("/usr/share/java/poi.jar"):
        print("SKIP: Apache POI needs java and /usr/share/java/poi.jar (ci/setup --tools installs them)")
        return 77
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        print("note: LibreOffice (soffice) is not installed; its check is skipped")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for mix, count, layout in runs:
            strings = os.path.join(tmp, "%s.jsonl" % mix)
            xls = os.path.join(tmp, "%s.xls" % mix)
            subprocess.run([binary, "gen", "strings", "--count", str(count), "--mix", mix, strings], check=True)
            subprocess.run([binary, "xls", "write", "--strings", strings] + layout + [xls], check=True)
            print("%s: %d strings, %d bytes %s" % (mix, count, os.path.getsize(xls), " ".join(layout)))
            want = expected_cells(strings)
            ok &= compare("xlrd", xlrd_cells(xls), want)
            poi = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "adapters", "sst_poi.py"), "cells", xls],
                                 capture_output=True)
            if poi.returncode != 0:
                print("  POI: failed: %s" % poi.stderr.decode("utf-8", "replace")[-2000:])
                ok = False
            else:
                lines = poi.stdout.decode("ascii").split("\n")
                ok &= compare("POI", lines[1:1 + len(want)], want, got_quoted=True) and lines[0] == "cells %d" % len(want)
            if soffice is not None:
                try:
                    got = libreoffice_cells(soffice, xls, tmp, len(want))
                    rich = expected_cells(strings, rich_only=True)
                    forgiven = [without_paragraph_breaks(g, w) if r else g for g, w, r in zip(got, want, rich)]
                    breaks = sum(a != b for a, b in zip(got, forgiven))
                    if breaks:
                        print("  LibreOffice: %d rich strings over %d characters came back with paragraph breaks, removed"
                              % (breaks, LIBREOFFICE_PARAGRAPH_CHARS))
                    got = forgiven
                    ok &= compare("LibreOffice", got, want)
                except RuntimeError as e:
                    print("  LibreOffice: %s" % e)
                    ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
