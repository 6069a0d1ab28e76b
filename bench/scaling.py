#!/usr/bin/python3
"""How parse cost grows with each structural dimension of an input: for every dimension of
conformance/hostile/scaling_inputs.py (PDF dictionary keys, array length, xref sections, object
streams, page-tree width and depth; XLSX cells, merges, shared strings, rich runs, relationships,
sheets, comments; CFB directory entries and FAT chains, SST strings) it generates inputs at doubling
sizes, dumps each with the docconform CLI, and fits the exponent of CPU time (user + system: a
shared machine's load moves wall time far more) and of peak RSS against the size (least squares
on log-log). Linear parsing gives exponents near 1; the target is
<= 1.15 for every dimension.

Run: /usr/bin/python3 bench/scaling.py build/ci/tools/docconform [--dimension NAME ...]
     [--repeat N] [--scale K] [--json OUT]
The JSON (stdout unless --json) lists each dimension's sizes, times, peak RSS and exponents. Time and
memory are measured net of the same command on the dimension's smallest input divided by 16 (the
process's fixed cost), so the fixed start-up cost does not flatten the fit."""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conformance", "hostile"))

import scaling_inputs  # noqa: E402

EXTENSIONS = {"pdf": "pdf", "xlsx": "xlsx", "sst": "xls"}


def run(binary, fmt, args, path):
    """Wall seconds, CPU seconds (user + system) and peak RSS (KiB) of one dump, its exit status
    and stderr. GNU time reports the peak RSS (a child of this interpreter would start its count
    at the interpreter's size: Linux keeps the high-water mark across exec); the CPU time is the
    rusage of GNU time's process, which holds its waited-for child's, to the microsecond."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".rss") as rss, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss.name, binary, "digest", fmt, *args, path],
                                   stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        rss_kib = int(rss.read().strip().splitlines()[-1])
        err.seek(0)
        stderr = err.read().decode(errors="replace").strip()
    return seconds, usage.ru_utime + usage.ru_stime, rss_kib, process.returncode, stderr


def measure(binary, fmt, args, path, repeat):
    """The fastest of `repeat` runs (wall and CPU), and the smallest peak RSS."""
    runs = [run(binary, fmt, args, path) for _ in range(repeat)]
    return (min(r[0] for r in runs), min(r[1] for r in runs), min(r[2] for r in runs), runs[0][3], runs[0][4])


def slope(sizes, values):
    """Least-squares slope of log(value) against log(size)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(v, 1e-9)) for v in values]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the docconform CLI")
    parser.add_argument("--dimension", action="append", help="only these dimensions (repeatable)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size; the fastest counts")
    parser.add_argument("--scale", action="append", default=[], metavar="[NAME=]K",
                        help="multiply the sizes by K (every dimension's, or NAME's; repeatable): the hostile cases "
                             "use scale 1, the largest size within their bounds, while a fit wants runs of a second "
                             "or more; a size past a named limit of the CLI is a limit error")
    parser.add_argument("--json", help="write the JSON here instead of stdout")
    options = parser.parse_args()
    scales = {}
    for item in options.scale:
        name, _, factor = item.rpartition("=")
        if not factor.isdigit() or int(factor) < 1:
            parser.error(f"--scale {item}: want K or NAME=K with K a whole number >= 1")
        scales[name] = int(factor)
    names = options.dimension or list(scaling_inputs.DIMENSIONS)
    unknown = [n for n in names if n not in scaling_inputs.DIMENSIONS]
    if unknown:
        parser.error("unknown dimension(s): " + ", ".join(unknown))

    report = {"binary": os.path.abspath(options.binary), "repeat": options.repeat, "target_exponent": 1.15,
              "dimensions": {}}
    with tempfile.TemporaryDirectory(prefix="docconform-scaling-") as work:
        for name in names:
            fmt, args, generate, sizes = scaling_inputs.DIMENSIONS[name]
            sizes = [n * scales.get(name, scales.get("", 1)) for n in sizes]
            rows = []
            baseline_size = max(1, sizes[0] // 16)
            for n in [baseline_size] + sizes:
                path = os.path.join(work, f"{name}-{n}.{EXTENSIONS[fmt]}")
                with open(path, "wb") as out:
                    out.write(generate(n))
                seconds, cpu, rss_kib, status, stderr = measure(options.binary, fmt, args, path, options.repeat)
                rows.append({"size": n, "file_bytes": os.path.getsize(path), "seconds": round(seconds, 4),
                             "cpu_seconds": round(cpu, 4), "peak_rss_kib": rss_kib, "exit": status,
                             "stderr": stderr[-300:]})
                os.remove(path)
            base, measured = rows[0], rows[1:]
            net_seconds = [max(r["cpu_seconds"] - base["cpu_seconds"], 1e-4) for r in measured]
            net_rss = [max(r["peak_rss_kib"] - base["peak_rss_kib"], 1) for r in measured]
            entry = {
                "format": fmt,
                "sizes": sizes,
                "baseline": base,
                "runs": measured,
                "time_exponent": round(slope(sizes, net_seconds), 3),
                "rss_exponent": round(slope(sizes, net_rss), 3),
                "all_exit_0": all(r["exit"] == 0 for r in measured),
            }
            entry["within_target"] = entry["time_exponent"] <= 1.15 and entry["rss_exponent"] <= 1.15
            report["dimensions"][name] = entry
            print(f"{name:28} time^{entry['time_exponent']:<6} rss^{entry['rss_exponent']:<6} "
                  f"largest {measured[-1]['cpu_seconds']:.3f} s CPU {measured[-1]['peak_rss_kib'] // 1024} MiB"
                  f"{'' if entry['all_exit_0'] else '  (non-zero exit)'}", file=sys.stderr)
    text = json.dumps(report, indent=2) + "\n"
    if options.json:
        with open(options.json, "w") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
