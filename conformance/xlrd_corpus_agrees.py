#!/usr/bin/python3
"""Our SST reader against xlrd on every real .xls: the string lists must be equal.

Usage: xlrd_corpus_agrees.py DOCCONFORM_BINARY ADAPTER CORPUS_DIR
Files xlrd itself cannot read are skipped, each with xlrd's reason; files both call
unsupported (BIFF5/7, encrypted) agree. Anything else that differs fails the run.
"""
import os
import subprocess
import sys


def run(command):
    try:
        done = subprocess.run(command, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return 124, b"", b"timeout"
    return done.returncode, done.stdout, done.stderr


def main():
    binary, adapter, corpus = sys.argv[1:4]
    if not os.path.isdir(corpus):
        print("SKIP: no corpus at %s" % corpus)
        return 0
    agreed = skipped = failed = 0
    for name in sorted(os.listdir(corpus)):
        path = os.path.join(corpus, name)
        if not name.lower().endswith(".xls") or not os.path.isfile(path):
            continue
        theirs = run(["/usr/bin/python3", adapter, path])
        ours = run([binary, "sst", "dump", path])
        reason = theirs[2].decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        if theirs[0] == 1:
            skipped += 1
            print("SKIP %s: xlrd cannot read it (%s)" % (name, reason[0]))
        elif theirs[0] == 2 and ours[0] == 2:
            agreed += 1
            print("ok   %s: unsupported by both (%s)" % (name, reason[0]))
        elif theirs[0] == 0 and ours[0] == 0 and theirs[1] == ours[1]:
            agreed += 1
            print("ok   %s: %s" % (name, ours[1].split(b"\n")[1].decode()))
        else:
            failed += 1
            print("FAIL %s: xlrd exit %d, docconform exit %d (%s)" % (
                name, theirs[0], ours[0], ours[2].decode("utf-8", "replace").strip()[:300]))
            if theirs[0] == 0 and ours[0] == 0:
                a = theirs[1].split(b"\n")
                b = ours[1].split(b"\n")
                for i, (x, y) in enumerate(zip(a, b)):
                    if x != y:
                        print("     line %d: xlrd %r / ours %r" % (i + 1, x[:120], y[:120]))
                        break
    print("%d agree, %d skipped (xlrd cannot read), %d differ" % (agreed, skipped, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
