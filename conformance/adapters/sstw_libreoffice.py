#!/usr/bin/python3
"""sstw adapter (conformance/SPEC.md, format sstw): LibreOffice Calc (through UNO, python3-uno)
puts the cells of a strings file into a new spreadsheet, one cell per line, column by column,
and saves it with its BIFF8 filter ("MS Excel 97"); our reader dumps its SST.
Usage: sstw_libreoffice.py STRINGS DOCCONFORM -> the dump, exit 0; exit 2 for a string with a
lone surrogate (python3-uno hands text to LibreOffice as UTF-8, which cannot carry one).
Batch mode (--batch DOCCONFORM) serves every input from one LibreOffice process."""
import os
import sys
import tempfile

import libreoffice
from batch import serve
from sst_writing import ROWS, judge, read_cells


def has_lone_surrogate(text):
    try:
        text.encode("utf-8")
        return False
    except UnicodeEncodeError:
        return True


def main():
    cells = read_cells(sys.argv[1])
    if any(map(has_lone_surrogate, cells)):
        sys.stderr.write("error: unsupported: python3-uno cannot pass a lone surrogate to LibreOffice\n")
        return 2
    document = libreoffice.desktop().loadComponentFromURL("private:factory/scalc", "_blank", 0,
                                                          libreoffice.properties(Hidden=True))
    try:
        sheet = document.Sheets.getByIndex(0)
        for column, first in enumerate(range(0, len(cells), ROWS)):  # a column per call: UNO calls cross a pipe
            texts = cells[first:first + ROWS]
            sheet.getCellRangeByPosition(column, 0, column, len(texts) - 1).setDataArray(tuple((t,) for t in texts))
        with tempfile.TemporaryDirectory(prefix="sstw-libreoffice-") as work:
            path = os.path.join(work, "written.xls")
            document.storeToURL(libreoffice.url(path), libreoffice.properties(FilterName="MS Excel 97"))
            judge(sys.argv[2], path)
    finally:
        document.close(True)


if __name__ == "__main__":
    sys.exit(serve(main))
