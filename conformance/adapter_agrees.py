#!/usr/bin/python3
"""Checks that an independent adapter reproduces every golden digest of a format.

Usage: adapter_agrees.py [--known FILE] ROOT FORMAT ADAPTER [ARGS...]
The adapter is run as `ADAPTER ARGS... CASE_FILE`; its stdout is the canonical dump, exit 1
means it rejected the case. Prints one line per disagreement and a closing count. --known
names a file of `case<TAB>reason` lines: documented differences that do not fail.
"""
import hashlib
import os
import subprocess
import sys


def main():
    args = sys.argv[1:]
    known = {}
    if args[:1] == ["--known"]:
        with open(args[1]) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    name, reason = line.rstrip("\n").split("\t", 1)
                    known[name] = reason
        args = args[2:]
    root, fmt, adapter = args[0], args[1], args[2:]
    ledger = {}
    with open(os.path.join(root, "golden", fmt + ".sha256")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, expectation = line.split()
                ledger[name] = expectation
    passed = failed = 0
    for name, expectation in sorted(ledger.items()):
        case = os.path.join(root, "conformance", "cases", fmt, name)
        run = subprocess.run(adapter + [case], capture_output=True, timeout=60)
        got = "rejected" if run.returncode == 1 else "sha256:" + hashlib.sha256(run.stdout).hexdigest()
        if run.returncode not in (0, 1):
            got = "crash(exit %d)" % run.returncode
        if got == expectation:
            passed += 1
        elif name in known:
            print("KNOWN %s/%s: %s" % (fmt, name, known[name]))
        else:
            failed += 1
            print("DISAGREE %s/%s: golden %s, adapter %s" % (fmt, name, expectation, got))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
