#!/usr/bin/python3
"""The JSON of `docconform-bench peers`: the reference's phase and each adapter's beside it.

Usage: check_bench_peers_json.py DOCCONFORM_BENCH (the docconform beside it generates the input)
Generates a small PDF and times qpdf's phase pdf_objects against the reference's; checks the
shape, not the times. Exit 77 (skipped) without qpdf.
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    if not os.path.exists("/usr/bin/qpdf"):
        print("SKIP: qpdf is not installed (ci/setup --tools installs it)")
        return 77
    binary = sys.argv[1]
    docconform = os.path.join(os.path.dirname(binary), "docconform")
    with tempfile.TemporaryDirectory() as tmp:
        pdf = os.path.join(tmp, "peers.pdf")
        subprocess.run([docconform, "gen", "pdf", "--objects", "500", "--payload", "40", "--object-streams", pdf],
                       check=True, capture_output=True)
        d = json.loads(subprocess.run([binary, "peers", "pdf", pdf, "--impl", "qpdf"], check=True,
                                      capture_output=True).stdout)
    problems = []
    ours = d["reference"]["phases"]
    if [p["name"] for p in ours] != ["pdf_objects"] or not ours[0]["seconds"] > 0:
        problems.append("reference phases %s" % ours)
    impls = d["implementations"]
    if [i["name"] for i in impls] != ["qpdf"]:
        problems.append("implementations %s" % [i["name"] for i in impls])
    else:
        qpdf = impls[0]
        if qpdf["status"] != "ok" or qpdf.get("same_dump_as_reference") is not True:
            problems.append("qpdf: %s" % qpdf)
        phases = qpdf["phases"]
        if [p["name"] for p in phases] != ["pdf_objects"] or not phases[0]["x_reference"] > 0:
            problems.append("qpdf phases %s" % phases)
        elif phases[0]["bytes"] != d["bytes"] or ours[0]["bytes"] != d["bytes"]:
            problems.append("pdf_objects bytes are not the file's size %s" % d["bytes"])
    for p in problems:
        print("bench peers JSON: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
