#!/usr/bin/python3
"""sstw adapter (conformance/SPEC.md, format sstw): Perl's Spreadsheet::WriteExcel writes the cells
of a strings file into a .xls (sstw_writeexcel.pl, given each cell as UTF-16LE bytes, so lone
surrogates reach the writer as they are); our reader dumps its SST.
Usage: sstw_writeexcel.py STRINGS DOCCONFORM -> the dump, exit 0; exit 1 "error: range" when the
writer refuses a string."""
import os
import struct
import subprocess
import sys
import tempfile

from sst_writing import judge, read_cells

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    cells = read_cells(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="sstw-writeexcel-") as work:
        cells_path = os.path.join(work, "cells.bin")
        with open(cells_path, "wb") as f:
            for text in cells:
                data = text.encode("utf-16-le", "surrogatepass")
                f.write(struct.pack("<I", len(data)) + data)
        written = os.path.join(work, "written.xls")
        status = subprocess.run(["/usr/bin/perl", os.path.join(HERE, "sstw_writeexcel.pl"), cells_path, written]).returncode
        if status != 0:
            sys.exit(status)
        judge(sys.argv[2], written)


if __name__ == "__main__":
    main()
