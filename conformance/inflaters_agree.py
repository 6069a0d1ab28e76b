#!/usr/bin/python3
"""Every bundled xlsx, pdf and pdf3 case gives the same digest (or the same error line and exit
status) with each inflater: zlib, the reference, and ISA-L.

    inflaters_agree.py DOCCONFORM CASES_DIR
"""
import pathlib
import subprocess
import sys


def digest(docconform, fmt, path, inflater):
    args = [docconform, "digest", "xlsx" if fmt == "xlsx" else "pdf", str(path), "--inflater", inflater]
    if fmt == "pdf3":
        args += ["--level", "3"]
    done = subprocess.run(args, capture_output=True, timeout=60)
    return done.returncode, done.stdout, done.stderr.splitlines()[:1]


def main():
    docconform, cases = sys.argv[1], pathlib.Path(sys.argv[2])
    checked, problems = 0, []
    for fmt, suffix in (("xlsx", ".xlsx"), ("pdf", ".pdf"), ("pdf3", ".pdf")):
        for path in sorted((cases / fmt).glob("*" + suffix)):
            outcomes = {inflater: digest(docconform, fmt, path, inflater) for inflater in ("zlib", "isal")}
            checked += 1
            if outcomes["zlib"] != outcomes["isal"]:
                problems.append("%s/%s: zlib %s, isal %s" % (fmt, path.name, outcomes["zlib"], outcomes["isal"]))
    for p in problems:
        print("inflaters disagree: " + p)
    print("inflaters_agree: %d cases, %d disagree" % (checked, len(problems)))
    return 1 if problems or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
