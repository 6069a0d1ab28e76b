#!/usr/bin/python3
"""Page counts of `docconform dump pdf --recover` against qpdf's and pikepdf's, over a directory of
real PDFs (both repair damaged files by default: qpdf reconstructs the xref, pikepdf is libqpdf).

Counted: the files both qpdf (`qpdf --show-npages`, exit 0 or 3 = warnings) and pikepdf
(`len(pikepdf.open(f).pages)`) open with the same page count. A file agrees when the reference's
`pages` line equals that count. Prints each disagreement with the reference's first error or
its `recovered` line, then the figure. Every reader opens encrypted files with the empty password.
Usage: pdf_recover_pages_agree.py DOCCONFORM DIR [--jobs N]
"""
import concurrent.futures
import os
import subprocess
import sys

PIKEPDF_PAGES = "import sys, pikepdf\nwith pikepdf.open(sys.argv[1]) as p: print(len(p.pages))"


def run(cmd, timeout=120):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, b"", b"timeout"
    return p.returncode, p.stdout, p.stderr


def measure(docconform, path):
    code, out, _ = run(["qpdf", "--show-npages", path])
    qpdf = int(out.split()[0]) if code in (0, 3) and out.strip().isdigit() else None
    code, out, _ = run(["/usr/bin/python3", "-c", PIKEPDF_PAGES, path])
    pike = int(out.strip()) if code == 0 and out.strip().isdigit() else None
    code, out, err = run([docconform, "dump", "pdf", "--recover", "--level", "1", path])
    ours, note = None, ""
    if code == 0:
        lines = out.decode("ascii", "replace").splitlines()
        ours = next(int(line.split()[1]) for line in lines if line.startswith("pages "))
        note = next((line for line in lines if line.startswith("recovered ")), "")
    else:
        note = (err.decode("utf-8", "replace").strip().splitlines() or ["exit %s" % code])[0]
    return path, qpdf, pike, ours, note


def main():
    docconform, root = sys.argv[1], sys.argv[2]
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 2
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.lower().endswith(".pdf"))
    counted = agreed = recovered = 0
    peers_differ = []
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for path, qpdf, pike, ours, note in pool.map(lambda f: measure(docconform, f), files):
            name = os.path.relpath(path, root)
            if qpdf is None or pike is None:
                continue
            if qpdf != pike:
                peers_differ.append("%s: qpdf %d, pikepdf %d" % (name, qpdf, pike))
                continue
            counted += 1
            recovered += note.startswith("recovered ")
            if ours == qpdf:
                agreed += 1
            else:
                print("DISAGREE %s: qpdf/pikepdf %d, reference %s: %s" % (name, qpdf, ours, note))
    for line in peers_differ:
        print("PEERS DIFFER %s" % line)
    print("%d PDFs of %d opened by qpdf and pikepdf with one page count; the reference (--recover) agrees on %d "
          "(%.1f%%), %d of them recovered" % (counted, len(files), agreed, 100.0 * agreed / max(counted, 1), recovered))
    return 0


if __name__ == "__main__":
    sys.exit(main())
