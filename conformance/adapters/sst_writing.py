"""What the writer adapters of format sstw share (conformance/SPEC.md, format sstw): reading a
strings file, the cell layout, and judging the written workbook with the reference reader."""
import json
import subprocess
import sys

from canonical import reject

ROWS = 65536  # cell i at row i % ROWS, column i // ROWS: the layout of `docconform xls write`


def read_cells(path):
    """The cells of a strings file: one JSON string, or an object whose "s" is the text, per
    non-blank line. Runs and ExtRst blocks are not given to the writers (the dump has no place
    for them). A malformed file is rejected as the protocol says."""
    cells = []
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip(b" \t\r\n"):
                continue
            try:
                # Decoded first: json.loads(bytes) lets UTF-8-encoded surrogates through and
                # drops a byte order mark, where a strings file is strict UTF-8 (RFC 8259 8.1).
                value = json.loads(raw.decode("utf-8"))
                text = value["s"] if isinstance(value, dict) else value
                if not isinstance(text, str):
                    raise ValueError("not a string")
            except (ValueError, KeyError, UnicodeDecodeError) as e:
                reject("format", "%s: line %d: %s" % (path, number, e))
            cells.append(text)
    return cells


def judge(docconform, workbook):
    """Prints the sst dump our reader gives of the written workbook and exits 0. A workbook our
    reader cannot read is a wrong result, not a rejection: the dump then says why."""
    sys.stdout.flush()
    p = subprocess.run([docconform, "sst", "dump", workbook], stdout=sys.stdout.buffer, stderr=subprocess.PIPE)
    if p.returncode != 0:
        why = p.stderr.decode("ascii", "replace").strip().splitlines()[-1:] or ["exit %d" % p.returncode]
        sys.stdout.write("docconform-dump sst 1\nunreadable: %s\n" % why[0].encode("ascii", "replace").decode())
    sys.exit(0)
