#!/usr/bin/python3
"""The JSON of `docconform-bench sst` has the fields the SST issue documents, and its runs agree.

Usage: check_bench_sst_json.py DOCCONFORM_BENCH
Runs a small benchmark (no POI, one timed run) and checks the shape, not the times: every run of
every writer x sink and the copy floor produced the same bytes, with their digest and sizes.
"""
import json
import subprocess
import sys


def main():
    binary = sys.argv[1]
    out = subprocess.run([binary, "sst", "--count", "3000", "--repeat", "1", "--no-poi", "--json"],
                         check=True, capture_output=True).stdout
    d = json.loads(out)
    problems = []
    for key in ("count", "sst_bytes", "sha256", "identical", "runs", "copy_floor", "ratios", "poi"):
        if key not in d:
            problems.append("missing key %s" % key)
    if not problems:
        pairs = {(r["writer"], r["sink"]) for r in d["runs"]}
        want = {(w, s) for w in ("naive", "fast") for s in ("memory", "file", "stream", "zlib", "lz4")}
        if pairs != want:
            problems.append("runs are %s, expected every writer x sink" % sorted(pairs))
        for r in d["runs"]:
            for key in ("median_s", "min_s", "max_s", "mb_per_s", "sha256", "stored_bytes"):
                if key not in r:
                    problems.append("run %s/%s lacks %s" % (r["writer"], r["sink"], key))
            if r.get("sha256") != d["sha256"]:
                problems.append("run %s/%s wrote different bytes" % (r["writer"], r["sink"]))
            if r["sink"] in ("memory", "file", "stream") and r.get("stored_bytes") != d["sst_bytes"]:
                problems.append("run %s/%s stored %s bytes, not %s" % (r["writer"], r["sink"], r.get("stored_bytes"), d["sst_bytes"]))
            if not 0 < r.get("min_s", 0) <= r.get("median_s", 0) <= r.get("max_s", 0):
                problems.append("run %s/%s has inconsistent times" % (r["writer"], r["sink"]))
        if d["count"] != 3000 or d["sst_bytes"] <= 3000 or d["identical"] is not True or d["poi"] is not None:
            problems.append("count %s, sst_bytes %s, identical %s, poi %s" % (d["count"], d["sst_bytes"], d["identical"], d["poi"]))
        if not d["copy_floor"].get("median_s", 0) > 0:
            problems.append("copy floor not timed")
        for key in ("fast_memory_over_copy_floor", "cpu_fast_memory_over_copy_floor"):
            if not d["ratios"].get(key, 0) > 0:
                problems.append("ratio %s missing" % key)
    for p in problems:
        print("bench sst JSON: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
