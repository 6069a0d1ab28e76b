#!/usr/bin/python3
"""Real readers open our .xls: xlrd and Apache POI must see every string unchanged.

Usage: sst_real_readers.py DOCCONFORM_BINARY ROOT [--count N] [--mix M]
Writes strings files with `docconform gen strings`, workbooks with `docconform xls write`,
then reads every cell back with xlrd and with POI (tools/poi/PoiSst.java) in the writer's
cell order (sheet by sheet, column by column, row by row) and compares with the strings file.
LibreOffice is used when `soffice` is installed, and skipped with a message otherwise.
Exit 0 all equal, 1 a difference, 77 a required reader is missing (ctest: skipped).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapters"))
from canonical import quote_text  # noqa: E402  (the shared dump primitives)

POI_CLASSPATH = ":".join("/usr/share/java/%s.jar" % j for j in ("poi", "commons-collections4", "commons-math3", "commons-codec"))


def expected_cells(strings_path):
    cells = []
    with open(strings_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                value = json.loads(line)
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
    binary, root = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    runs = [("mixed", 20000, []), ("rich", 3000, []), ("emoji", 2000, ["--rows-per-sheet", "300", "--columns-per-sheet", "3"])]
    if "--count" in args:
        mix = args[args.index("--mix") + 1] if "--mix" in args else "mixed"
        runs = [(mix, int(args[args.index("--count") + 1]), [])]
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
            poi = subprocess.run(["java", "-cp", POI_CLASSPATH, os.path.join(root, "tools", "poi", "PoiSst.java"), "cells", xls],
                                 capture_output=True)
            if poi.returncode != 0:
                print("  POI: failed: %s" % poi.stderr.decode("utf-8", "replace")[-2000:])
                ok = False
            else:
                lines = poi.stdout.decode("ascii").split("\n")
                ok &= compare("POI", lines[1:1 + len(want)], want, got_quoted=True) and lines[0] == "cells %d" % len(want)
            if soffice is not None:
                done = subprocess.run([soffice, "--headless", "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76", "--outdir", tmp, xls],
                                      capture_output=True, timeout=600)
                print("  LibreOffice: conversion exit %d (first sheet only, not compared cell by cell)" % done.returncode)
                ok &= done.returncode == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
