#!/usr/bin/python3
"""A fake peer for `conform sweep` tests: what it does with a file is written in a plan.

Usage: sweep_peer.py NAME PLAN INPUT FORMAT DOCCONFORM
PLAN is a JSON file {"<file name>": {"<NAME>": action}}; actions: same (the reference's dump),
other (the reference's dump with the first line of the format's first field changed: xlsx a cell,
pdf the page count, sst the string count), fixed (a dump of its own), reject, unsupported,
crash (an uncaught exception), hang (sleeps past any test's timeout). A file not in the plan: same.
"""
import json
import os
import subprocess
import sys
import time

name, plan_path, path, fmt, docconform = sys.argv[1:6]
action = json.load(open(plan_path)).get(os.path.basename(path), {}).get(name, "same")
if action == "reject":
    sys.stderr.write("error: format\n")
    sys.exit(1)
if action == "unsupported":
    sys.stderr.write("error: unsupported\n")
    sys.exit(2)
if action == "crash":
    raise RuntimeError("a fake crash")
if action == "hang":
    time.sleep(600)
if action == "fixed":
    sys.stdout.write("docconform-dump %s 1\nlevel 2\nversion \"1.4\"\npages 1\nobjects 0\n" % fmt)
    sys.exit(0)
dump = subprocess.run([docconform, "dump", fmt, path], capture_output=True, text=True)
if dump.returncode != 0:
    sys.stderr.write(dump.stderr)
    sys.exit(dump.returncode)
lines = dump.stdout.splitlines()
if action == "other":
    first = {"xlsx": "cell ", "pdf": "pages ", "sst": "strings "}[fmt]
    at = next(i for i, line in enumerate(lines) if line.startswith(first))
    lines[at] = lines[at] + "0"
sys.stdout.write("".join(line + "\n" for line in lines))
