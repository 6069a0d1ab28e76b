#!/usr/bin/python3
"""A 2 GB PDF read in a fraction of the address space (opt-in large-case test).

Usage: address_cap.py DOCCONFORM [--dir DIR] [--cap-mib N] [--json FILE]

Generates (once, in DIR, default build/large-cases) the 1.97 GB shuffled file of
docs/benchmarks.md, then under an address-space cap (default 1024 MiB):
  - `digest pdf --level 3 --source mapped` succeeds with the digest `--source pread` gives
    without the cap (windows, not the file, cost address space);
  - `digest pdf --level 3 --source whole` exits 1 with a limit error naming the file.
Prints (and with --json writes) the time and peak RSS of each run. Exit 0 when both hold.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from output_file import write_text  # noqa: E402 (conformance/, beside this folder)

RECIPE = ["gen", "pdf", "--objects", "300000", "--payload", "6000", "--updates", "3", "--shuffle", "--pages", "1000"]


def run(argv, cap_bytes=None):
    """Runs argv; returns (exit status, stdout, stderr, seconds, peak RSS in KiB)."""
    def limit():
        if cap_bytes is not None:
            resource.setrlimit(resource.RLIMIT_AS, (cap_bytes, cap_bytes))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, preexec_fn=limit)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return proc.returncode, out.read().decode(), err.read().decode(), seconds, usage.ru_maxrss


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("docconform")
    parser.add_argument("--dir", default=os.path.join(os.path.dirname(__file__), "..", "..", "build", "large-cases"))
    parser.add_argument("--cap-mib", type=int, default=1024)
    parser.add_argument("--json")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    path = os.path.join(args.dir, "address_cap_2g.pdf")
    stamp = path + ".recipe"
    if not (os.path.exists(path) and os.path.exists(stamp) and open(stamp).read() == " ".join(RECIPE) + "\n"):
        subprocess.run([args.docconform] + RECIPE + [path], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(stamp, "w") as f:
            f.write(" ".join(RECIPE) + "\n")
    cap = args.cap_mib << 20
    # The level-3 dump of this file is about 7.5 GB, past the default max_output_bytes.
    digest = [args.docconform, "digest", "pdf", path, "--level", "3", "--limit", "max_output_bytes=%d" % (16 << 30), "--source"]
    results = {"file": path, "bytes": os.path.getsize(path), "cap_mib": args.cap_mib, "runs": []}
    problems = []
    expected = run(digest + ["pread"])
    results["runs"].append({"source": "pread", "cap": False, "exit": expected[0], "seconds": expected[3], "peak_rss_kb": expected[4]})
    mapped = run(digest + ["mapped"], cap)
    results["runs"].append({"source": "mapped", "cap": True, "exit": mapped[0], "seconds": mapped[3], "peak_rss_kb": mapped[4]})
    if expected[0] != 0 or mapped[0] != 0 or mapped[1] != expected[1]:
        problems.append("mapped under the cap: exit %d, digest %r, expected %r (%s)" % (mapped[0], mapped[1].strip(),
                                                                                         expected[1].strip(), mapped[2].strip()))
    whole = run(digest + ["whole"], cap)
    results["runs"].append({"source": "whole", "cap": True, "exit": whole[0], "seconds": whole[3], "stderr": whole[2].strip()})
    if whole[0] != 1 or "limit error" not in whole[2] or path not in whole[2]:
        problems.append("whole under the cap: exit %d, stderr %r (expected 1 and a limit error naming the file)" % (whole[0], whole[2]))
    text = json.dumps(results, indent=1)
    print(text)
    if args.json:
        write_text(args.json, text + "\n")
    for p in problems:
        print("address_cap: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
