#!/usr/bin/python3
"""Opens the results matrix page in headless Chromium and checks that what the browser rendered
carries the same numbers as the JSON report of the same run.

Usage: check_matrix_page.py [--require-scroll] PAGE.html REPORT.json [SCREENSHOT.png]
Checks: the DOM Chromium produced has one matrix cell per result with the same status and
outcome, the summary's counts per outcome (ok, recorded, departures, failed) and versions, the
run metadata, the legend, the speed table's totals, excluded runs and multiples of the reference,
the large-case table's runs (seconds, status, multiple of the reference) and the large-case
phases (seconds, bytes, multiple of the reference) equal those in the JSON; at a 1400-pixel
window, the matrix scrolled to its right end still shows a case name where its first column is
(--require-scroll: and the matrix is wider than its box, so that there is something to scroll);
the screenshot (of that scrolled page) is a real rendering (not blank). Prints a closing
'N passed, N failed' line.
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
        self.rows = {"summary": [], "speed": [], "large": [], "phases": [], "matrix": [], "run-metadata": []}
        self.cell_status = None
        self.cell_outcome = None
        self.ids = {}  # id -> attributes
        self.legend = ""
        self.in_legend = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids[attrs["id"]] = attrs
        if attrs.get("id") == "legend":
            self.in_legend = True
        if tag == "table" and attrs.get("id") in self.rows:
            self.table = attrs["id"]
        elif tag == "tr" and self.table:
            self.row = []
        elif tag in ("td", "th") and self.table:
            self.cell = ""
            self.cell_status = attrs.get("data-status")
            self.cell_outcome = attrs.get("data-outcome")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.table and self.cell is not None:
            self.row.append((self.cell.strip(), (self.cell_status, self.cell_outcome) if self.cell_status else None))
            self.cell = None
        elif tag == "tr" and self.table and self.row:
            self.rows[self.table].append(self.row)
        elif tag == "table":
            self.table = None
        elif tag == "section":
            self.in_legend = False

    def handle_data(self, data):
        if self.in_legend:
            self.legend += data
        if self.cell is not None:
            self.cell += data


def chromium(args):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(["chromium", *CHROMIUM_FLAGS, "--user-data-dir=" + profile, *args],
                              capture_output=True, timeout=120)


# Appended to a copy of the page: scrolls the matrix to its right end and records what is then at
# the x of the first column, halfway down the box, for the DOM dump to carry.
SCROLL_CHECK = """<script>
const box = document.getElementById("matrix-scroll");
const out = {overflow: 0, scrolled: 0, hit: "", first_left: null, box_left: null};
if (box) {
  box.scrollIntoView();
  out.overflow = box.scrollWidth - box.clientWidth;
  box.scrollLeft = box.scrollWidth;
  out.scrolled = box.scrollLeft;
  const rows = box.querySelectorAll("tr");
  const row = rows[Math.min(rows.length - 1, 3)];
  const first = row.cells[0].getBoundingClientRect();
  out.first_left = Math.round(first.left);
  out.box_left = Math.round(box.getBoundingClientRect().left);
  const hit = document.elementFromPoint(first.left + 5, first.top + first.height / 2);
  out.hit = hit ? hit.tagName + "." + hit.className + ":" + hit.textContent : "";
  out.case = row.cells[0].textContent;
}
const pre = document.createElement("pre");
pre.id = "scroll-check";
pre.setAttribute("data-result", JSON.stringify(out));
document.body.appendChild(pre);
</script>"""


def main():
    args = sys.argv[1:]
    require_scroll = "--require-scroll" in args
    args = [a for a in args if a != "--require-scroll"]
    page, report_path = args[0], args[1]
    shot = args[2] if len(args) > 2 else os.path.join(tempfile.gettempdir(), "docconform-matrix.png")
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
    expected = {(r["case"], r["impl"]): (r["status"], r["outcome"]) for r in report["results"]}
    rendered = {}
    for row in parsed.rows["matrix"][1:]:
        case = row[0][0]
        for impl, (_, status) in zip(impls, row[1:]):
            if status:
                rendered[(case, impl)] = status
    check(rendered == expected, "matrix cells differ from the JSON results (%d rendered, %d in JSON)" %
          (len(rendered), len(expected)))
    versions = {i["name"]: i["version"] or "-" for i in report["implementations"]}
    engines = {i["name"]: i["engine"] for i in report["implementations"] if "engine" in i}
    for row in parsed.rows["summary"][1:]:
        impl = row[0][0]
        outcomes = [r["outcome"] for r in report["results"] if r["impl"] == impl]
        for column, outcome in enumerate(["ok", "recorded", "departure", "failed"], start=3):
            check(int(row[column][0]) == outcomes.count(outcome), "summary %s count of %s" % (outcome, impl))
        check(row[8][0] == versions.get(impl), "version of %s: page %s, JSON %s" % (impl, row[8][0], versions.get(impl)))
        if impl in engines:
            check(row[9][0] == engines[impl], "engine of %s: page %s, JSON %s" % (impl, row[9][0], engines[impl]))
    runs = [[r["date"], r["suite_version"], r["commit"] or "-", str(r["cores"]), r["cpu"], r["os"]] for r in report["runs"]]
    check([[c for c, _ in row[1:]] for row in parsed.rows["run-metadata"][1:]] == runs and runs,
          "run metadata: page %s, JSON %s" % (parsed.rows["run-metadata"][1:], runs))
    for mark in ("ok", "WRONG", "REJECTED", "ACCEPTED", "ADAPTER", "TIMEOUT", "acc=ref"):
        check(mark in parsed.legend, "the legend does not explain %s: %r" % (mark, parsed.legend[:200]))
    check("\u2020" in parsed.legend and "!" in parsed.legend, "legend does not explain the recorded and new marks")
    excluded = 0
    for row in parsed.rows["speed"][1:]:
        impl, fmt, total = row[0][0], row[1][0], float(row[5][0])
        want = report["speed"][impl][fmt]
        excluded += want["excluded"]
        shown_times = float(row[6][0]) if row[6][0] != "-" else 0.0
        check(abs(total - want["total_s"]) < 0.0015 and int(row[3][0]) == want["excluded"] and
              abs(shown_times - want["times_reference"]) < 0.051,
              "speed row of %s/%s: page %s, JSON %s" % (impl, fmt, [c for c, _ in row], want))
    note = parsed.ids.get("speed-note", {})
    check(note.get("data-excluded") == str(excluded), "speed note counts %s excluded runs, the rows %d" %
          (note.get("data-excluded"), excluded))
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
    with tempfile.TemporaryDirectory() as scratch:
        scrolled_page = os.path.join(scratch, "page.html")
        with open(page, encoding="utf-8") as f:
            html = f.read()
        with open(scrolled_page, "w", encoding="utf-8") as f:
            f.write(html.replace("</body>", SCROLL_CHECK + "</body>"))
        scrolled_url = "file://" + scrolled_page
        dump = chromium(["--window-size=1400,1000", "--dump-dom", scrolled_url]).stdout.decode("utf-8", "replace")
        scrolled = Page()
        scrolled.feed(dump)
        result = json.loads(scrolled.ids.get("scroll-check", {}).get("data-result", "{}"))
        if require_scroll:
            check(result.get("overflow", 0) > 0 and result.get("scrolled", 0) > 0,
                  "the matrix is not wider than its box at 1400 px: nothing scrolled (%s)" % result)
        check(result.get("hit", "").startswith("TD.case:") and result.get("hit", "").endswith(result.get("case", "?")) and
              abs((result.get("first_left") or 0) - (result.get("box_left") or -9)) <= 2,
              "first column not visible after scrolling the matrix right at 1400 px: %s" % result)
        # The screenshot: the page as loaded, with the matrix scrolled to its right end.
        with open(scrolled_page, "w", encoding="utf-8") as f:
            f.write(html.replace("</body>", SCROLL_CHECK.replace("box.scrollIntoView();", "") + "</body>"))
        chromium(["--screenshot=" + shot, "--window-size=1400,1000", scrolled_url])
    size = os.path.getsize(shot) if os.path.exists(shot) else 0
    check(size > 10000, "screenshot %s missing or blank (%d bytes)" % (shot, size))
    for f in failures:
        print("FAIL " + f)
    print("%d passed, %d failed" % (checks - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
