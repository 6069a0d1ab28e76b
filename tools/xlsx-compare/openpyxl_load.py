#!/usr/bin/python3
"""Loads a workbook with openpyxl (argv[2] = "read_only" for the streaming mode) and prints the
number of cells with a value."""
import sys

import openpyxl

read_only = len(sys.argv) > 2 and sys.argv[2] == "read_only"
wb = openpyxl.load_workbook(sys.argv[1], read_only=read_only)
cells = 0
for ws in wb.worksheets:
    for row in ws.iter_rows(values_only=True):
        cells += sum(1 for v in row if v is not None)
print(cells)
