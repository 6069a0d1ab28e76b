#!/usr/bin/python3
"""sstw adapter (conformance/SPEC.md, format sstw): xlwt 1.3 (python3-xlwt) writes the cells of a
strings file into a .xls, one cell per line, column by column; our reader dumps its SST.
Usage: sstw_xlwt.py STRINGS DOCCONFORM -> the dump, exit 0; exit 1 "error: <class>" when xlwt
refuses a string. With $DOCCONFORM_PHASES set, also times the phase sst_serialize."""
import os
import sys
import tempfile

import xlwt

from canonical import reject
from phases import time_phase
from sst_writing import ROWS, judge, read_cells
from batch import serve


def main():
    cells = read_cells(sys.argv[1])
    book = xlwt.Workbook(encoding="utf-8")
    sheet = book.add_sheet("Sheet1")
    with tempfile.TemporaryDirectory(prefix="sstw-xlwt-") as work:
        path = os.path.join(work, "written.xls")
        try:
            for i, text in enumerate(cells):
                sheet.write(i % ROWS, i // ROWS, text)
            book.save(path)
        except Exception as e:  # xlwt signals what it cannot write with assorted exceptions
            reject("range", "xlwt: %s: %s" % (type(e).__name__, e))
        # xlwt's table of the workbook (a private member): SST + CONTINUE records, as save() wrote them.
        time_phase("sst_serialize", book._Workbook__sst.get_biff_record)
        judge(sys.argv[2], path)


if __name__ == "__main__":
    sys.exit(serve(main))
