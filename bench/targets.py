#!/usr/bin/python3
"""Rounds of `docconform-bench xlsx` and `docconform-bench sst`, each target tallied over the rounds.

Usage: targets.py DOCCONFORM_BENCH OUT_DIR --rounds R [--xlsx-1m FILE] [--xlsx-8x FILE] [--sst] [--inflater isal]
       targets.py --summarize OUT_DIR [--json FILE]

On a shared host one run of a benchmark says little about a ratio target: a burst of load on
the other side of the host moves one run and not its neighbour. This runs the benchmarks in R
rounds, one after another in each round, keeps every JSON in OUT_DIR (round-N-<bench>.json)
and prints, per target, the ratio of every round and in how many rounds it was met. The
thresholds are those of the XLSX, SST and inflater issues (docs/benchmarks.md, "Targets").
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

# The benches find the suite's data (the POI adapter of `bench sst`) from the checkout.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (bench, label, how to read the figure from its JSON, the threshold, whether the figure must be at most it)
TARGETS = [
    ("xlsx-8x", "8x5000x4: 2 threads >= 95 % of the ceiling", lambda d: threads_run(d, 2)["fraction_of_ceiling"], 0.95, False),
    ("xlsx-8x", "8x5000x4: 1 thread within 2.5x inflate-only", lambda d: threads_run(d, 1)["vs_inflate_only"], 2.5, True),
    ("xlsx-8x", "8x5000x4: 2 threads within 1.5x inflate-only", lambda d: threads_run(d, 2)["vs_inflate_only"], 1.5, True),
    ("xlsx-8x", "8x5000x4: 1 thread <= 1.2x zlib alone", lambda d: threads_run(d, 1)["vs_zlib_inflate_only"], 1.2, True),
    ("xlsx-8x", "8x5000x4: 2 threads <= 0.65x zlib alone", lambda d: threads_run(d, 2)["vs_zlib_inflate_only"], 0.65, True),
    ("xlsx-8x", "8x5000x4: allocations per cell <= 0.25", lambda d: max(r["allocs_per_cell"] for r in d["runs"]), 0.25, True),
    ("xlsx-1m", "1Mx4: 2 threads >= 90 % of the ceiling", lambda d: threads_run(d, 2)["fraction_of_ceiling"], 0.90, False),
    ("xlsx-1m", "1Mx4: 1 thread within 2.5x inflate-only", lambda d: threads_run(d, 1)["vs_inflate_only"], 2.5, True),
    ("xlsx-1m", "1Mx4: 2 threads within 1.5x inflate-only", lambda d: threads_run(d, 2)["vs_inflate_only"], 1.5, True),
    ("xlsx-1m", "1Mx4: 1 thread <= 1.2x zlib alone", lambda d: threads_run(d, 1)["vs_zlib_inflate_only"], 1.2, True),
    ("xlsx-1m", "1Mx4: 2 threads <= 0.65x zlib alone", lambda d: threads_run(d, 2)["vs_zlib_inflate_only"], 0.65, True),
    ("xlsx-1m", "1Mx4: allocations per cell <= 0.25", lambda d: max(r["allocs_per_cell"] for r in d["runs"]), 0.25, True),
    ("xlsx-1m", "1Mx4: peak RSS <= 400 MB (MB)", lambda d: max(r["peak_rss_bytes"] for r in d["runs"]) / 1e6, 400, True),
    ("sst", "SST: fast >= 4x naive, memory", lambda d: d["ratios"]["naive_over_fast_memory"], 4, False),
    ("sst", "SST: fast >= 20x POI SSTRecord.serialize", lambda d: d["ratios"]["poi_over_fast_memory"], 20, False),
    ("sst", "SST: fast memory sink >= 1 GB/s (MB/s)", lambda d: fast_run(d, "memory")["mb_per_s"], 1000, False),
    ("sst", "SST: file sink within 1.3x of memory", lambda d: d["ratios"]["fast_file_over_memory"], 1.3, True),
    ("sst", "SST: stream sink within 1.3x of memory", lambda d: d["ratios"]["fast_stream_over_memory"], 1.3, True),
    ("sst", "SST: fast memory sink within 1.6x of the copy floor", lambda d: d["ratios"]["fast_memory_over_copy_floor"], 1.6, True),
    ("sst", "SST: every output identical, POI's bytes ours", lambda d: float(d["identical"] and d["poi"]["same_bytes_as_ours"]), 1, False),
]


def threads_run(d, threads):
    return next(r for r in d["runs"] if r["threads"] == threads)


def fast_run(d, sink):
    return next(r for r in d["runs"] if r["writer"] == "fast" and r["sink"] == sink)


def commands(binary, args):
    out = []
    inflater = ["--inflater", args.inflater] if args.inflater else []
    if args.xlsx_8x:
        out.append(("xlsx-8x", [binary, "xlsx", os.path.abspath(args.xlsx_8x), "--threads", "1,2", "--repeat", "15", "--json"] + inflater))
    if args.xlsx_1m:
        out.append(("xlsx-1m", [binary, "xlsx", os.path.abspath(args.xlsx_1m), "--threads", "1,2", "--repeat", "5", "--json"] + inflater))
    if args.sst:
        out.append(("sst", [binary, "sst", "--count", "1048576", "--writer", "naive,fast", "--sink",
                            "memory,file,stream,zlib,lz4", "--json"]))
    return out


def run(args):
    os.makedirs(args.out_dir, exist_ok=True)
    todo = commands(args.binary, args)
    if not todo:
        sys.exit("targets.py: nothing to run: give --xlsx-8x, --xlsx-1m or --sst")
    for i in range(1, args.rounds + 1):
        for name, cmd in todo:
            with open("/proc/loadavg") as f:
                load = f.read().split()[0]
            print("round %d/%d: %s (load average %s)" % (i, args.rounds, name, load), file=sys.stderr, flush=True)
            out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT).stdout
            with open(os.path.join(args.out_dir, "round-%d-%s.json" % (i, name)), "wb") as f:
                f.write(out)
    summarize(args.out_dir, args.json)


def summarize(out_dir, json_path=None):
    rounds = {}
    for path in glob.glob(os.path.join(out_dir, "round-*.json")):
        m = re.match(r"round-(\d+)-(.+)\.json$", os.path.basename(path))
        with open(path) as f:
            rounds.setdefault(m.group(2), []).append((int(m.group(1)), json.load(f)))
    tally = []
    for bench, label, figure, threshold, at_most in TARGETS:
        if bench not in rounds:
            continue
        values = [figure(d) for _, d in sorted(rounds[bench], key=lambda r: r[0])]
        met = sum(1 for v in values if (v <= threshold if at_most else v >= threshold))
        print("%-48s met in %2d of %2d rounds: %s" % (label, met, len(values), ", ".join("%.3g" % v for v in values)))
        tally.append({"target": label, "threshold": threshold, "at_most": at_most, "rounds": len(values), "met": met,
                      "values": values})
    if json_path:
        inflaters = sorted({d.get("inflater") for runs in rounds.values() for _, d in runs if d.get("inflater")})
        with open(json_path + ".tmp", "w") as f:
            json.dump({"inflaters": inflaters, "targets": tally}, f, indent=1)
            f.write("\n")
        os.replace(json_path + ".tmp", json_path)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("binary", nargs="?")
    p.add_argument("out_dir")
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--xlsx-1m")
    p.add_argument("--xlsx-8x")
    p.add_argument("--sst", action="store_true")
    p.add_argument("--inflater", help="the XLSX benches' inflater (zlib, isal; default: the bench's); the zlib-alone "
                   "targets are ISA-L's")
    p.add_argument("--summarize", action="store_true", help="only tally the JSONs already in OUT_DIR")
    p.add_argument("--json", help="also write the tally to this file")
    args = p.parse_args()
    if args.summarize:
        summarize(args.out_dir, args.json)
    else:
        if not args.binary:
            p.error("DOCCONFORM_BENCH is required to run rounds")
        run(args)


if __name__ == "__main__":
    main()
