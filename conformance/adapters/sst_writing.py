"""What the writer adapters of format sstw share (conformance/SPEC.md, format sstw): reading a
strings file, the cell layout, and judging the written workbook with the reference reader."""
import json
import os
import subprocess
import sys
import time

from canonical import reject

ROWS = 65536  # cell i at row i % ROWS, column i // ROWS: the layout of `docconform xls write`
# Phase timings: at least PHASE_MIN_RUNS timed runs, and more until they took PHASE_MIN_SECONDS
# in all (at most PHASE_MAX_RUNS), as every adapter does.
PHASE_MIN_RUNS = 5
PHASE_MIN_SECONDS = 1.0
PHASE_MAX_RUNS = 1000


def read_cells(path):
    """The cells of a strings file: one JSON string, or an object whose "s" is the text, per
    non-blank line. Runs and ExtRst blocks are not given to the writers (the dump has no place
    for them). A malformed file is rejected as the protocol says."""
    cells = []
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip(b" \t\r\n"):
                continue
            try:
                value = json.loads(raw)
                text = value["s"] if isinstance(value, dict) else value
                if not isinstance(text, str):
                    raise ValueError("not a string")
            except (ValueError, KeyError, UnicodeDecodeError) as e:
                reject("format", "%s: line %d: %s" % (path, number, e))
            cells.append(text)
    return cells


def judge(docconform, workbook):
    """Prints the sst dump our reader gives of the written workbook and exits 0. A workbook our
    reader cannot read is a wrong result, not a rejection: the dump then says why."""
    sys.stdout.flush()
    p = subprocess.run([docconform, "sst", "dump", workbook], stdout=sys.stdout.buffer, stderr=subprocess.PIPE)
    if p.returncode != 0:
        why = p.stderr.decode("ascii", "replace").strip().splitlines()[-1:] or ["exit %d" % p.returncode]
        sys.stdout.write("docconform-dump sst 1\nunreadable: %s\n" % why[0].encode("ascii", "replace").decode())
    sys.exit(0)


def time_phase(name, run):
    """Phase timings (conformance/SPEC.md section 2): when the runner names a file in
    $DOCCONFORM_PHASES, runs run() once untimed and then timed (PHASE_MIN_RUNS at least, until
    PHASE_MIN_SECONDS in all), and appends `<name> <median seconds> <bytes of one run's result>`."""
    path = os.environ.get("DOCCONFORM_PHASES")
    if not path:
        return
    run()
    times = []
    while len(times) < PHASE_MIN_RUNS or (sum(times) < PHASE_MIN_SECONDS and len(times) < PHASE_MAX_RUNS):
        start = time.perf_counter()
        produced = run()
        times.append(time.perf_counter() - start)
    times.sort()
    middle = len(times) // 2
    median = times[middle] if len(times) % 2 else (times[middle - 1] + times[middle]) / 2
    with open(path, "a") as f:
        f.write("%s %.9f %d\n" % (name, median, len(produced)))
