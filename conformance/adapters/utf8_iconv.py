#!/usr/bin/python3
"""utf8 adapter: the iconv program (glibc) converting UTF-8 to UTF-16LE, a strict decoder.
Exit 1 ("error: format") when iconv refuses the input, so it confirms only y_ cases."""
import subprocess
import sys

from batch import serve
from canonical import quote_units


def main():
    run = subprocess.run(["iconv", "-f", "UTF-8", "-t", "UTF-16LE", sys.argv[1]], capture_output=True)
    if run.returncode != 0:
        sys.stderr.write("error: format\n")
        return 1
    data = run.stdout
    units = [data[i] | (data[i + 1] << 8) for i in range(0, len(data), 2)]
    sys.stdout.write("docconform-dump utf8 1\nunits %d\ntext %s\n" % (len(units), quote_units(units)))
    return 0


if __name__ == "__main__":
    sys.exit(serve(main))
