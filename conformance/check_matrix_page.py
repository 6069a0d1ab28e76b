#!/usr/bin/python3
"""Opens the results matrix page in headless Chromium and checks that what the browser rendered
carries the same numbers as the JSON report of the same run.

Usage: check_matrix_page.py PAGE.html REPORT.json [SCREENSHOT.png]
Checks: the DOM Chromium produced has one matrix cell per result with the same status, the
summary's counts per outcome (ok, recorded, departures, failed), the speed table's totals, the large-case table's runs (seconds, status,
multiple of the reference) and the large-case phases (seconds, bytes, multiple of the reference)
equal those in the JSON, and
the screenshot is a real rendering (not blank). Prints a closing 'N passed, N failed' line.
"""
import json
import os
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.table = None
        self.row = []
        self.cell = None
        self.rows = {"summary": [], "speed": [], "large": [], "phases": [], "matrix": []}
        self.cell_status = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id") in self.rows:
            self.table = attrs["id"]
        elif tag == "tr" and self.table:
            self.row = []
        elif tag in ("td", "th") and self.table:
            self.cell = ""
            self.cell_status = attrs.get("data-status")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.table and self.cell is not None:
            self.row.append((self.cell.strip(), self.cell_status))
            self.cell = None
        elif tag == "tr" and self.table and self.row:
            self.rows[self.table].append(self.row)
        elif tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def chromium(args):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(["chromium", *CHROMIUM_FLAGS, "--user-data-dir=" + profile, *args],
                              capture_output=True, timeout=120)


def main():
    page, report_path = sys.argv[1], sys.argv[2]
    shot = sys.argv[3] if len(sys.argv) > 3 else os.path.join(tempfile.gettempdir(), "docconform-matrix.png")
    report = json.load(open(report_path))
    url = "file://" + os.path.abspath(page)
    dom = chromium(["--dump-dom", url]).stdout.decode("utf-8", "replace")
    parsed = Page()
    parsed.feed(dom)
    failures = []
    checks = 0

    def check(condition, message):
        nonlocal checks
        checks += 1
        if not condition:
            failures.append(message)

    impls = [i["name"] for i in report["implementations"]]
    header = [c for c, _ in parsed.rows["matrix"][0]] if parsed.rows["matrix"] else []
    check(header[1:] == impls, "matrix columns %s != implementations %s" % (header[1:], impls))
    expected = {(r["case"], r["impl"]): r["status"] for r in report["results"]}
    rendered = {}
    for row in parsed.rows["matrix"][1:]:
        case = row[0][0]
        for impl, (_, status) in zip(impls, row[1:]):
            if status:
                rendered[(case, impl)] = status
    check(rendered == expected, "matrix cells differ from the JSON results (%d rendered, %d in JSON)" %
          (len(rendered), len(expected)))
    for row in parsed.rows["summary"][1:]:
        impl = row[0][0]
        outcomes = [r["outcome"] for r in report["results"] if r["impl"] == impl]
        for column, outcome in enumerate(["ok", "recorded", "departure", "failed"], start=3):
            check(int(row[column][0]) == outcomes.count(outcome), "summary %s count of %s" % (outcome, impl))
    for row in parsed.rows["speed"][1:]:
        impl, fmt, total = row[0][0], row[1][0], float(row[4][0])
        want = report["speed"][impl][fmt]["total_s"]
        check(abs(total - want) < 0.0015, "speed total of %s/%s: page %s, JSON %s" % (impl, fmt, total, want))
    large = [(r["case"], r["impl"], r["status"], r["seconds"], r["times_reference"]) for r in report.get("large", [])]
    rendered_large = parsed.rows["large"][1:]
    check(len(rendered_large) == len(large), "large-case rows: page %d, JSON %d" % (len(rendered_large), len(large)))
    for row, (case, impl, status, seconds, times) in zip(rendered_large, large):
        shown_times = float(row[4][0]) if row[4][0] != "-" else 0.0
        check([c for c, _ in row[:3]] == [case, impl, status] and abs(float(row[3][0]) - seconds) < 0.0015 and
              abs(shown_times - times) < 0.051, "large-case row %s/%s differs from the JSON" % (case, impl))
    phases = [(r["case"], r["phase"], r["impl"], r["seconds"], r["bytes"], r["times_reference"])
              for r in report.get("large_phases", [])]
    rendered_phases = parsed.rows["phases"][1:]
    check(len(rendered_phases) == len(phases), "phase rows: page %d, JSON %d" % (len(rendered_phases), len(phases)))
    for row, (case, phase, impl, seconds, size, times) in zip(rendered_phases, phases):
        shown_times = float(row[5][0]) if row[5][0] != "-" else 0.0
        check([c for c, _ in row[:3]] == [case, phase, impl] and abs(float(row[3][0]) - seconds) < 0.00015 and
              int(row[4][0]) == size and abs(shown_times - times) < 0.051,
              "phase row %s/%s/%s differs from the JSON" % (case, phase, impl))
    chromium(["--screenshot=" + shot, "--window-size=1400,1000", url])
    size = os.path.getsize(shot) if os.path.exists(shot) else 0
    check(size > 10000, "screenshot %s missing or blank (%d bytes)" % (shot, size))
    for f in failures:
        print("FAIL " + f)
    print("%d passed, %d failed" % (checks - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
