#!/usr/bin/python3
"""adapter_agrees.py with documented exceptions: an adapter must reproduce every golden
digest except for the cases listed in a differences file, and each listed case must really
differ (so the list cannot go stale).

Usage: adapter_agrees_except.py ROOT FORMAT DIFFERENCES_TSV ADAPTER [ARGS...]
DIFFERENCES_TSV: `case<TAB>why the adapter differs` per line, # comments.
"""
import hashlib
import os
import subprocess
import sys


def main():
    root, fmt, differences_path, adapter = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    known = {}
    with open(differences_path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, why = line.rstrip("\n").split("\t", 1)
                known[name] = why
    ledger = {}
    with open(os.path.join(root, "golden", fmt + ".sha256")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, expectation = line.split()
                ledger[name] = expectation
    passed = failed = excused = 0
    for name, expectation in sorted(ledger.items()):
        run = subprocess.run(adapter + [os.path.join(root, "conformance", "cases", fmt, name)], capture_output=True, timeout=60)
        got = "rejected" if run.returncode == 1 else "sha256:" + hashlib.sha256(run.stdout).hexdigest()
        if run.returncode not in (0, 1):
            got = "crash(exit %d)" % run.returncode
        if name in known:
            if got == expectation:
                failed += 1
                print("STALE %s/%s: listed as a difference but the adapter agrees" % (fmt, name))
            else:
                excused += 1
                print("known %s/%s: golden %s, adapter %s (%s)" % (fmt, name, expectation, got, known[name]))
        elif got == expectation:
            passed += 1
        else:
            failed += 1
            print("DISAGREE %s/%s: golden %s, adapter %s" % (fmt, name, expectation, got))
    for name in sorted(set(known) - set(ledger)):
        failed += 1
        print("STALE %s/%s: listed as a difference but not a golden case" % (fmt, name))
    print("%d passed, %d known differences, %d failed" % (passed, excused, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
