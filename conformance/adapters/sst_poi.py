#!/usr/bin/python3
"""sst and sstw adapter built on Apache POI HSSF (Debian's libapache-poi-java jars).

Compiles SstPoi.java once into build/adapter-cache/ of the repository (keyed by the source's
SHA-256, so an edit recompiles; parallel first runs are safe: each compiles into its own
directory and renames it into place), then runs one JVM per case:
  sst_poi.py FILE sst                  -> POI reads the table: the canonical sst dump
  sst_poi.py STRINGS sstw DOCCONFORM   -> HSSFWorkbook writes the cells of a strings file into
                                          a .xls; our reader dumps its SST (sst_writing.py)
  sst_poi.py --batch FORMAT DOCCONFORM -> batch mode (conformance/SPEC.md section 2): one JVM
                                          for every input of FORMAT
  sst_poi.py cells XLS                 -> every cell's string as POI reads it (not an adapter
                                          run: for conformance/sst_real_readers.py)
Exit statuses as conformance/SPEC.md says (0 dump, 1 rejected, 2 unsupported).
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from sst_writing import judge

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SOURCE = os.path.join(HERE, "SstPoi.java")
LARGE_INPUT = 16 << 20  # bytes
JARS = ":".join("/usr/share/java/%s.jar" % j for j in ("poi", "commons-collections4", "commons-math3", "commons-codec"))


def compiled_classes():
    with open(SOURCE, "rb") as f:
        key = hashlib.sha256(f.read()).hexdigest()[:16]
    cache = os.path.join(ROOT, "build", "adapter-cache")
    target = os.path.join(cache, "poi-" + key)
    if os.path.isdir(target):
        return target
    os.makedirs(cache, exist_ok=True)
    work = tempfile.mkdtemp(dir=cache, prefix=".poi-")
    # A bounded heap: the runner caps the address space, and a JVM sizing its heap from the
    # machine's memory would not start under the cap.
    p = subprocess.run(["javac", "-J-Xmx512m", "-nowarn", "-cp", JARS, "-d", work, SOURCE], capture_output=True)
    if p.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        sys.stderr.write((p.stdout + p.stderr).decode("utf-8", "replace"))
        sys.exit(3)
    try:
        os.rename(work, target)
    except OSError:  # another run put its copy in place first
        shutil.rmtree(work, ignore_errors=True)
    return target


def main():
    if sys.argv[1] == "cells":
        os.execvp("java", ["java", "-Xmx1g", "-cp", compiled_classes() + ":" + JARS, "SstPoi", "cells", sys.argv[2]])
    if sys.argv[1] == "--batch":
        # Many inputs in one JVM: the full JIT pays off over them.
        os.execvp("java", ["java", "-Xmx1g", "-Xshare:auto", "-cp", compiled_classes() + ":" + JARS, "SstPoi", "batch"] + sys.argv[2:])
    path, fmt = sys.argv[1], sys.argv[2]
    classes = compiled_classes()
    # Small cases: a small heap and the quick-starting compiler only. Large inputs (the speed
    # table's 2^20 strings): room for POI's records and the full JIT, as in production.
    large = os.path.getsize(path) > LARGE_INPUT
    tuning = ["-Xmx8g"] if large else ["-Xmx1g", "-XX:TieredStopAtLevel=1"]
    java = ["java"] + tuning + ["-Xshare:auto", "-cp", classes + ":" + JARS, "SstPoi"]
    if fmt == "sst":
        os.execvp("java", java + ["dump", path])
    with tempfile.TemporaryDirectory(prefix="sstw-poi-") as work:
        written = os.path.join(work, "written.xls")
        status = subprocess.run(java + ["write", path, written]).returncode
        if status != 0:
            sys.exit(status)
        judge(sys.argv[3], written)


if __name__ == "__main__":
    main()
