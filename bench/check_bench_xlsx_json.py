#!/usr/bin/python3
"""The JSON of `docconform-bench xlsx` has the fields the XLSX issue documents.

Usage: check_bench_xlsx_json.py DOCCONFORM_BENCH (the docconform beside it generates the input)
Generates a small workbook, runs one repeat at 1 and 2 threads (with the dump phase) and checks
the shape and that both digests agree, not the times (they are measurements, not tests).
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    binary = sys.argv[1]
    docconform = os.path.join(os.path.dirname(binary), "docconform")
    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, "b.xlsx")
        subprocess.run([docconform, "gen", "xlsx", "--sheets", "2", "--rows", "300", "--cols", "4", book], check=True,
                       capture_output=True)
        out = subprocess.run([binary, "xlsx", book, "--threads", "1,2", "--repeat", "1", "--json", "--dump"],
                             check=True, capture_output=True).stdout
    d = json.loads(out)
    problems = []
    for key in ("cells", "inflater", "zlib_inflate_only_s", "inflate_only_s", "inflate_package_s", "ceiling_speedup", "runs",
                "dump"):
        if key not in d:
            problems.append("missing key %s" % key)
    if not problems:
        if d["cells"] != 2 * 300 * 4:
            problems.append("cells %s, expected 2400" % d["cells"])
        # Two separate timings: on a small workbook the sheets alone can measure longer than
        # every part (noise of a few microseconds), so only their being measured is checked.
        if not (d["inflate_only_s"] > 0 and d["inflate_package_s"] > 0):
            problems.append("inflate_only_s %s or inflate_package_s %s is not a positive time" % (d["inflate_only_s"], d["inflate_package_s"]))
        if d["inflater"] not in ("zlib", "isal") or not d["zlib_inflate_only_s"] > 0:
            problems.append("inflater %s, zlib_inflate_only_s %s" % (d["inflater"], d["zlib_inflate_only_s"]))
        if [r.get("threads") for r in d["runs"]] != [1, 2]:
            problems.append("runs are for threads %s, expected [1, 2]" % [r.get("threads") for r in d["runs"]])
        for r in d["runs"]:
            for key in ("median_s", "min_s", "max_s", "speedup", "cpu_utilization", "allocs_per_cell", "bytes_per_cell",
                        "peak_rss_bytes", "phase_a_s", "phase_b_s", "phase_c_s", "inflate_only_s", "vs_inflate_only",
                        "cpu_vs_inflate_only_cpu", "zlib_inflate_only_s", "vs_zlib_inflate_only"):
                if key not in r:
                    problems.append("run %s lacks %s" % (r.get("threads"), key))
            if not 0 < r.get("min_s", 0) <= r.get("median_s", 0) <= r.get("max_s", 0):
                problems.append("run %s has inconsistent times" % r.get("threads"))
            if not (r.get("inflate_only_s", 0) > 0 and r.get("vs_inflate_only", 0) > 0 and r.get("zlib_inflate_only_s", 0) > 0
                    and r.get("vs_zlib_inflate_only", 0) > 0):
                problems.append("run %s has no floor or ratio to it" % r.get("threads"))
        if [r.get("threads") for r in d["dump"]] != [1, 2]:
            problems.append("dump is for threads %s, expected [1, 2]" % [r.get("threads") for r in d["dump"]])
        for r in d["dump"]:
            for key in ("full_median_s", "streamed_median_s", "streamed_speed_vs_full", "spooled_median_s",
                        "spooled_speed_vs_full", "full_peak_rss_bytes", "streamed_peak_rss_bytes",
                        "spooled_peak_rss_bytes"):
                if not r.get(key, 0) > 0:
                    problems.append("dump %s lacks a positive %s" % (r.get("threads"), key))
            if r.get("digests_equal") is not True:
                problems.append("dump %s: a streamed digest differs from the full load's" % r.get("threads"))
    for p in problems:
        print("bench xlsx JSON: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
