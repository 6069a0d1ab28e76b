"""Phase timings (conformance/SPEC.md section 2, "Phase timings"), shared by the Python adapters:
when $DOCCONFORM_PHASES names a file, a phase is run once untimed, then timed at least MIN_RUNS
times and more until the timed runs took MIN_SECONDS in all (at most MAX_RUNS), and its median
is appended to that file."""
import os
import time

MIN_RUNS = 5
MIN_SECONDS = 1.0
MAX_RUNS = 1000


def time_phase(name, run):
    """Appends `<name> <median seconds> <bytes>`; run() returns what one run produced (bytes,
    or their count as an int). Does nothing unless the phases are asked for."""
    path = os.environ.get("DOCCONFORM_PHASES")
    if not path:
        return
    run()
    times = []
    while len(times) < MIN_RUNS or (sum(times) < MIN_SECONDS and len(times) < MAX_RUNS):
        start = time.perf_counter()
        produced = run()
        times.append(time.perf_counter() - start)
    times.sort()
    middle = len(times) // 2
    median = times[middle] if len(times) % 2 else (times[middle - 1] + times[middle]) / 2
    size = produced if isinstance(produced, int) else len(produced)
    with open(path, "a") as f:
        f.write("%s %.9f %d\n" % (name, median, size))
