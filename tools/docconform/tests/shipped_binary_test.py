#!/usr/bin/python3
"""The shipped docconform binary carries no measurement machinery and no build paths.

- it defines no global operator new or delete (the counting allocator lives in docconform-bench);
- `docconform version` runs with exactly one execve (no re-execution to change its allocator);
- its bytes hold neither the source tree's nor the build tree's path.
Usage: shipped_binary_test.py DOCCONFORM SOURCE_DIR BINARY_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile

binary, source_dir, binary_dir = sys.argv[1:4]
failures = []

symbols = subprocess.run(["nm", "-C", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
defined = [line for line in symbols.splitlines() if "operator new" in line or "operator delete" in line]
if defined:
    failures.append("defines the global allocation functions: " + "; ".join(defined[:4]))

if shutil.which("strace") is None:
    failures.append("strace is missing (ci/setup --tools installs it)")
else:
    with tempfile.NamedTemporaryFile(prefix="docconform-execve-") as trace:
        subprocess.run(["strace", "-f", "-qq", "-e", "trace=execve", "-o", trace.name, binary, "version"],
                       check=True, stdout=subprocess.DEVNULL)
        calls = [line for line in open(trace.name).read().splitlines() if "execve(" in line]
    if len(calls) != 1:
        failures.append(f"{len(calls)} execve calls for `docconform version`, want 1: {calls}")

data = open(binary, "rb").read()
for name, path in (("source", source_dir), ("build", binary_dir)):
    if os.path.realpath(path).encode() in data:
        failures.append(f"holds the {name} tree's path {os.path.realpath(path)}")

for failure in failures:
    print("FAIL", failure)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
