#!/usr/bin/python3
"""utf8 adapter: a converter program decoding UTF-8 into UTF-16LE, a strict decoder, so it
confirms only y_ cases. Usage: utf8_converter.py FILE TOOL (batch mode: --batch TOOL), TOOL one of
  iconv  glibc's iconv, which exits non-zero when it refuses the input;
  uconv  ICU's uconv with the stop callback; uconv reports every refused sequence on stderr
         ("Conversion to Unicode from codepage failed ...") but exits 0 when the refused
         sequence starts the input, so either sign rejects.
Exit 1 ("error: format") when the converter refuses the input."""
import subprocess
import sys

from batch import serve
from canonical import quote_units

COMMANDS = {
    "iconv": ["iconv", "-f", "UTF-8", "-t", "UTF-16LE"],
    "uconv": ["uconv", "-f", "UTF-8", "-t", "UTF-16LE", "--from-callback", "stop"],
}


def convert(tool, path):
    """The UTF-16 code units the converter decodes PATH to, or None when it refuses it."""
    run = subprocess.run(COMMANDS[tool] + [path], capture_output=True)
    if run.returncode != 0 or b"failed" in run.stderr:
        sys.stderr.write(run.stderr.decode("utf-8", "replace"))
        return None
    data = run.stdout
    return [data[i] | (data[i + 1] << 8) for i in range(0, len(data), 2)]


def main():
    units = convert(sys.argv[2], sys.argv[1])
    if units is None:
        sys.stderr.write("error: format\n")
        return 1
    sys.stdout.write("docconform-dump utf8 1\nunits %d\ntext %s\n" % (len(units), quote_units(units)))
    return 0


if __name__ == "__main__":
    sys.exit(serve(main))
