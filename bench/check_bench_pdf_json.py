#!/usr/bin/python3
"""The JSON of `docconform-bench pdf` has the fields the PDF issue documents, and its runs agree.

Usage: check_bench_pdf_json.py DOCCONFORM_BENCH (the docconform beside it generates the input)
Generates a small file with object streams, runs one timed pass per source and thread count, and
checks the shape, not the times: every run indexed the same objects and pages, each object
stream was inflated once, the sweep on two threads opened one more source where it can, and the
level-3 digest made the same dump everywhere, a mapped worker within 2 x ceil(size / window) + 16
maps and unmaps.
"""
import json
import os
import subprocess
import sys
import tempfile


def digest_problems(name, run, size):
    """The level-3 digest phase of a run: its fields, and a mapped worker within the seed's bound."""
    digest = run.get("digest", {})
    problems = []
    for key in ("median_s", "hash_s", "dump_bytes", "kernel_calls", "busiest_worker_map_unmap", "peak_rss_kb", "page_faults"):
        if key not in digest:
            problems.append("run %s: the digest lacks %s" % (name, key))
    if problems:
        return problems
    if not 0 <= digest["hash_s"] < digest["median_s"] or not digest["dump_bytes"] > 0 or not digest["peak_rss_kb"] > 0:
        problems.append("run %s: digest %s" % (name, digest))
    faults = digest["page_faults"]
    if not all(isinstance(faults.get(k), int) and faults[k] >= 0 for k in ("minor", "major")):
        problems.append("run %s: digest page_faults %s are not two counts" % (name, faults))
    calls = digest["busiest_worker_map_unmap"]
    if run.get("source") == "mapped":
        bound = 2 * -(-size // run["window_bytes"]) + 16
        if not 0 < calls <= bound:
            problems.append("run %s: the digest's busiest worker mapped and unmapped %s times (bound %s)" % (name, calls, bound))
    elif calls != 0:
        problems.append("run %s: a %s source mapped %s times in the digest" % (name, run.get("source"), calls))
    return problems


def main():
    binary = sys.argv[1]
    docconform = os.path.join(os.path.dirname(binary), "docconform")
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        pdf = os.path.join(tmp, "bench.pdf")
        subprocess.run([docconform, "gen", "pdf", "--objects", "3000", "--payload", "40", "--object-streams", "--updates", "1",
                        "--shuffle", "--pages", "20", "--cluster", "50", pdf], check=True, capture_output=True)
        out = subprocess.run([binary, "pdf", pdf, "--source", "mapped,pread,buffered,whole", "--threads", "1,2",
                              "--warm", "--runs", "1", "--json"], check=True, capture_output=True).stdout
    d = json.loads(out)
    for key in ("file", "bytes", "objects", "pages", "inflater", "zlib_inflate_only_s", "inflate_only_s", "copy_probe", "runs"):
        if key not in d:
            problems.append("missing key %s" % key)
    probe = d.get("copy_probe", {})
    if probe.get("bytes") != d.get("bytes") or not all(probe.get(k, 0) > 0 for k in ("pread_s", "fresh_mapping_s")):
        problems.append("copy_probe %s does not time both copies of the whole file" % probe)
    if not problems:
        if d["inflater"] not in ("zlib", "isal") or not d["zlib_inflate_only_s"] > 0:
            problems.append("inflater %s, zlib_inflate_only_s %s" % (d["inflater"], d["zlib_inflate_only_s"]))
        if d["pages"] != 20 or d["objects"] < 3000:
            problems.append("objects %s, pages %s" % (d["objects"], d["pages"]))
        seen = {(r.get("source"), r.get("threads")) for r in d["runs"]}
        if {s for s, _ in seen} != {"mapped", "pread", "buffered", "whole"} or len(d["runs"]) != 8:
            problems.append("runs are %s, expected every source x threads 1,2" % sorted(seen))
        inflated = {r.get("objstm_inflated") for r in d["runs"]}
        if len(inflated) != 1 or not inflated.pop() >= 3000 // 50:
            problems.append("object streams inflated: %s" % sorted(r.get("objstm_inflated") for r in d["runs"]))
        for r in d["runs"]:
            name = "%s/%s" % (r.get("source"), r.get("threads"))
            for key in ("source", "cache", "threads", "window_bytes", "median_s", "min_s", "max_s", "setup_s", "kernel_calls",
                        "sweep_kernel_calls", "bytes_copied", "inflate_s", "inflate_only_s", "vs_inflate_only", "objstm_inflated",
                        "rss_kb", "page_faults", "zlib_inflate_only_s", "vs_zlib_inflate_only"):
                if key not in r:
                    problems.append("run %s lacks %s" % (name, key))
            if not 0 < r.get("min_s", 0) <= r.get("median_s", 0) <= r.get("max_s", 0):
                problems.append("run %s has inconsistent times" % name)
            if not all(r.get(k, 0) > 0 for k in ("vs_inflate_only", "inflate_only_s", "zlib_inflate_only_s", "vs_zlib_inflate_only")):
                problems.append("run %s: no floor or ratio to it" % name)
            faults = r.get("page_faults", {})
            if not all(isinstance(faults.get(k), int) and faults[k] >= 0 for k in ("minor", "major")):
                problems.append("run %s: page_faults %s are not two counts" % (name, faults))
            if not 0 < r.get("setup_s", 0) < r.get("max_s", 0):
                problems.append("run %s: setup_s %s is not a part of the pass" % (name, r.get("setup_s")))
            extra_open = r["sweep_kernel_calls"]["open"] if "sweep_kernel_calls" in r else None
            wanted = 1 if r.get("threads") == 2 and r.get("source") != "whole" else 0
            if r.get("threads") == 2 and os.cpu_count() == 1:
                wanted = 0
            if extra_open != wanted:
                problems.append("run %s: the sweep opened the file %s times, expected %s" % (name, extra_open, wanted))
            problems += digest_problems(name, r, d["bytes"])
        dump_bytes = {r.get("digest", {}).get("dump_bytes") for r in d["runs"]}
        if len(dump_bytes) != 1:
            problems.append("the level-3 dumps differ in size across runs: %s" % sorted(map(str, dump_bytes)))
    for p in problems:
        print("bench pdf JSON: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
