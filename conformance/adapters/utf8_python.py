#!/usr/bin/python3
"""utf8 adapter: CPython's strict UTF-8 codec with an error handler implementing the byte
passthrough rule (conformance/SPEC.md, format utf8). An implementation independent of the
reference: it establishes the golden digests of conformance/cases/utf8/.

Usage: utf8_python.py FILE  -> canonical dump on stdout, exit 0.
"""
import codecs
import sys

from canonical import quote_units, utf16_units
from batch import serve


def passthrough(error):
    # Emit the first byte of the ill-formed span as the code unit of its value; resume after it.
    return chr(error.object[error.start]), error.start + 1


codecs.register_error("docconform-passthrough", passthrough)


def main():
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    units = utf16_units(data.decode("utf-8", "docconform-passthrough"))
    sys.stdout.write("docconform-dump utf8 1\nunits %d\ntext %s\n" % (len(units), quote_units(units)))
    return 0


if __name__ == "__main__":
    sys.exit(serve(main))
