#!/usr/bin/python3
"""A fake xlsx implementation for `conform mine` tests: the reference's dump, except that it reads
every boolean cell as the other boolean; a planted disagreement on exactly one construct.

Usage: mine_planted.py INPUT DOCCONFORM ROOT, or mine_planted.py --batch DOCCONFORM ROOT (batch
mode of conformance/adapters/batch.py).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(sys.argv[-1], "conformance", "adapters"))
from batch import serve  # noqa: E402

FLIP = {"true": "false", "false": "true"}


def main():
    path, docconform = sys.argv[1], sys.argv[2]
    dump = subprocess.run([docconform, "dump", "xlsx", path], capture_output=True, text=True, errors="replace")
    if dump.returncode != 0:
        sys.stderr.write(dump.stderr)
        return dump.returncode
    lines = [re.sub(r"^(cell \S+ b) (true|false)$", lambda m: m.group(1) + " " + FLIP[m.group(2)], line)
             for line in dump.stdout.splitlines()]
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


sys.exit(serve(main))
