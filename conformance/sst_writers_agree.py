#!/usr/bin/python3
"""Writer-side check of the sst reader: Apache POI (HSSF), xlwt and SheetJS (when its npm package is
installed in conformance/adapters) write .xls workbooks from the same generated string lists, and `docconform sst dump` must read back exactly the shared string
table they were given: the distinct strings in order of first use (xlwt writes empty strings as
BLANK cells, so its table has no empty string).

Sets: short Latin-1 strings, non-Latin-1 text (Greek, Cyrillic, CJK, emoji as surrogate pairs,
controls), long strings (8,224-byte records force CONTINUE splits inside a string, compressed and
UTF-16, up to the 32,767-character cell limit), and a few thousand mixed strings with repeats.
Usage: sst_writers_agree.py DOCCONFORM ROOT   (exit 77 when java/POI or xlwt are absent)
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapters"))
from canonical import quote_text  # noqa: E402  (the shared dump primitives)

ROWS = 65536
# SheetJS 0.18.5's BIFF8 writer does not continue a string past one record: writing a single
# string of 8,000 characters did not finish in 20 s (4,000 did, at once), so longer strings are
# not given to it.
SHEETJS_MAX_CHARS = 4000  # cell i goes to column i // ROWS, row i % ROWS (the layout of `docconform xls write`)


def expected_dump(cells):
    unique = list(dict.fromkeys(cells))
    return "docconform-dump sst 1\nstrings %d\n" % len(unique) + "".join(quote_text(s) + "\n" for s in unique)


def string_sets():
    rng = random.Random(20261130)
    latin1 = "".join(chr(c) for c in range(0x20, 0x7F)) + "äöüßéèñçÅØ©®°±µ¶·¿×÷"
    wide = "αβγδεΩжщЯЖ中文字符串表漢字かなカナ한국어" + "\U0001F600\U0001F680\U00010348" + "\t\n\x01\x7f"
    sets = {
        "latin1": ["".join(rng.choice(latin1) for _ in range(rng.randint(0, 40))) for _ in range(500)],
        "non_latin1": ["".join(rng.choice(latin1 + wide) for _ in range(rng.randint(1, 60))) for _ in range(800)],
        "long": ["x" * 32767, "é" * 20000, "中" * 32767, "a" * 8220 + "\U0001F600" * 100,
                 "".join(rng.choice(latin1 + wide) for _ in range(30000))],
    }
    pool = sets["latin1"][:200] + sets["non_latin1"][:200]
    sets["many_with_repeats"] = [rng.choice(pool) if rng.random() < 0.3 else "s%d %s" % (i, rng.choice(pool))
                                 for i in range(5000)]
    return sets


def write_xlwt(cells, path):
    import xlwt
    book = xlwt.Workbook(encoding="utf-8")
    sheet = book.add_sheet("Sheet1")
    for i, text in enumerate(cells):
        sheet.write(i % ROWS, i // ROWS, text)
    book.save(path)


def write_listed(command, cells, work, path):
    """POI and SheetJS read the strings as hex UTF-16 code units, one string per line."""
    listing = os.path.join(work, "strings.hex")
    with open(listing, "w") as f:
        for text in cells:
            f.write(text.encode("utf-16-be", "surrogatepass").hex().upper() + "\n")
    p = subprocess.run(command + ["write", listing, path], capture_output=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError("%s failed: %s" % (command[-1], p.stderr.decode("utf-8", "replace")[-2000:]))


def main():
    docconform, root = sys.argv[1], sys.argv[2]
    missing = [need for need, ok in (("java", shutil.which("java")), ("javac", shutil.which("javac")),
                                     ("/usr/share/java/poi.jar", os.path.exists("/usr/share/java/poi.jar")))
               if not ok]
    try:
        import xlwt  # noqa: F401
    except ImportError:
        missing.append("python3-xlwt")
    if missing:
        print("SKIP: needs %s (ci/setup --tools installs them)" % ", ".join(missing))
        return 77
    adapters = os.path.join(root, "conformance", "adapters")
    writers = {"xlwt": None, "poi": ["/usr/bin/python3", os.path.join(adapters, "sst_poi.py")]}
    if shutil.which("node") and os.path.exists(os.path.join(adapters, "node_modules", "xlsx", "package.json")):
        writers["sheetjs"] = ["node", os.path.join(adapters, "sst_sheetjs.cjs")]
    else:
        print("note: SheetJS not installed (npm ci in conformance/adapters); checking xlwt and POI only")
    failures = 0
    work = tempfile.mkdtemp(prefix="sst-writers-")
    try:
        for name, cells in string_sets().items():
            for writer, command in writers.items():
                if writer == "sheetjs" and max(map(len, cells)) > SHEETJS_MAX_CHARS:
                    print("skip %s/sheetjs: strings longer than SheetJS writes (%d characters)" % (name, SHEETJS_MAX_CHARS))
                    continue
                # xlwt writes an empty string as a BLANK cell, so it never enters xlwt's table.
                want = expected_dump([c for c in cells if c] if writer == "xlwt" else cells)
                path = os.path.join(work, "%s_%s.xls" % (name, writer))
                write_xlwt(cells, path) if command is None else write_listed(command, cells, work, path)
                got = subprocess.run([docconform, "sst", "dump", path], capture_output=True, timeout=120)
                ok = got.returncode == 0 and got.stdout.decode("ascii") == want
                failures += not ok
                print("%s %s/%s: %d cells, %d distinct strings" % ("ok  " if ok else "FAIL", name, writer, len(cells),
                                                                   len(set(cells))))
                if not ok:
                    print("  exit %d: %s" % (got.returncode, got.stderr.decode("utf-8", "replace")[-500:]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
