#!/usr/bin/python3
"""sst adapter: xlrd's shared string table (conformance/SPEC.md, format sst, format sst).

Usage: xlrd_sst.py FILE -> canonical dump on stdout.
  a raw SST record file (SST, CONTINUE*, EXTSST?), named .sst: decoded by xlrd.book.unpack_SST_table;
  any other file is a workbook (CFB container, or a bare BIFF stream starting with BOF):
             xlrd.open_workbook(on_demand=True) and its shared strings.
Exit 0 accepted, 1 rejected ("error: <class>" on stderr), 2 unsupported (BIFF5/7, encrypted).
xlrd decodes UTF-16 with Python's strict codec; the adapter lets lone surrogates through
(surrogatepass) so that every UTF-16 string survives, as the dump requires.
"""
import struct
import sys

import xlrd
import xlrd.book
from canonical import quote_text
from batch import serve


def _decode(data, encoding):
    return data.decode(encoding, "surrogatepass")


xlrd.book.unicode = _decode


def dump(strings):
    lines = ["docconform-dump sst 1", "strings %d" % len(strings)]
    lines += [quote_text(s) for s in strings]
    return "\n".join(lines) + "\n"


def raw_sst_strings(data):
    records = []
    pos = 0
    while pos < len(data):
        if len(data) - pos < 4:
            raise ValueError("truncated record header")
        rtype, size = struct.unpack("<HH", data[pos:pos + 4])
        if len(data) - pos - 4 < size:
            raise ValueError("truncated record")
        records.append((rtype, data[pos + 4:pos + 4 + size]))
        pos += 4 + size
    if not records or records[0][0] != 0x00FC:
        raise ValueError("not an SST record file")
    datatab = [records[0][1]]
    for rtype, payload in records[1:]:
        if rtype != 0x003C:
            break
        datatab.append(payload)
    nstrings = struct.unpack("<i", datatab[0][4:8])[0]
    strings, _runs = xlrd.book.unpack_SST_table(datatab, nstrings)
    return strings


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        data = f.read()
    try:
        # The name tells the kind (conformance/SPEC.md, format sst, "Case files").
        if not path.lower().endswith(".sst"):
            book = xlrd.open_workbook(file_contents=data, on_demand=True, logfile=open("/dev/null", "w"))
            if book.biff_version < 80:
                sys.stderr.write("error: unsupported BIFF version %d\n" % book.biff_version)
                return 2
            strings = book._sharedstrings
        else:
            strings = raw_sst_strings(data)
    except xlrd.XLRDError as e:
        if "encrypted" in str(e).lower():
            sys.stderr.write("error: unsupported encrypted\n")
            return 2
        sys.stderr.write("error: %s %s\n" % (type(e).__name__, e))
        return 1
    except Exception as e:  # xlrd signals malformed input with assorted exceptions
        sys.stderr.write("error: %s %s\n" % (type(e).__name__, e))
        return 1
    sys.stdout.write(dump(strings))
    return 0


if __name__ == "__main__":
    sys.exit(serve(main))
