#!/usr/bin/python3
"""Batch mode gives the results of one process per input: every adapter that declares a batch
command runs over a few cases of each of its formats in both modes (`conform run` and
`conform run --no-batch`), and the JSON reports must agree on every status, digest, error class
and outcome.

Usage: batch_agrees.py DOCCONFORM ROOT [conform run options...]"""
import json
import os
import subprocess
import sys
import tempfile

# A few cases of each format (1 to 4), of every verdict.
CASES = "*/[yni]_l[a-o]*"


def batch_adapters(root):
    names = []
    with open(os.path.join(root, "conformance", "adapters", "ADAPTERS.tsv")) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if not line.startswith("#") and len(fields) == 9 and fields[8] != "-":
                names.append(fields[0])
    return names


def results(docconform, root, impls, extra, mode):
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "r.json")
        run = subprocess.run([docconform, "conform", "run", "--root", root, "--no-progress", "--cases", CASES, "--json", out,
                              *[a for n in impls for a in ("--impl", n)], *extra, *mode], capture_output=True, text=True)
        with open(out) as f:
            report = json.load(f)
    return run.returncode, {(r["case"], r["impl"]): (r["status"], r["digest"], r["error_class"], r["outcome"])
                            for r in report["results"]}


def main():
    docconform, root, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    impls = batch_adapters(root)
    if not impls:
        print("no adapter declares a batch command")
        return 1
    status_batch, batch = results(docconform, root, impls, extra, [])
    status_single, single = results(docconform, root, impls, extra, ["--no-batch"])
    differ = sorted(k for k in set(batch) | set(single) if batch.get(k) != single.get(k))
    for key in differ:
        print("differs: %s %s: batch %s, one process per input %s" % (key[0], key[1], batch.get(key), single.get(key)))
    if status_batch != status_single:
        print("exit status: batch %d, one process per input %d" % (status_batch, status_single))
    print("%d results of %s compared, %d differ" % (len(batch), ", ".join(impls), len(differ)))
    return 1 if differ or status_batch != status_single else 0


if __name__ == "__main__":
    sys.exit(main())
