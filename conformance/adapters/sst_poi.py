#!/usr/bin/python3
"""sst and sstw adapter built on Apache POI HSSF (Debian's libapache-poi-java jars).

Compiles SstPoi.java once into the adapter cache (java_classes.py), then runs one JVM per case:
  sst_poi.py FILE sst                  -> POI reads the table: the canonical sst dump
  sst_poi.py STRINGS sstw DOCCONFORM   -> HSSFWorkbook writes the cells of a strings file into
                                          a .xls; our reader dumps its SST (sst_writing.py)
  sst_poi.py --batch FORMAT DOCCONFORM -> batch mode (conformance/SPEC.md section 2): one JVM
                                          for every input of FORMAT
  sst_poi.py cells XLS                 -> every cell's string as POI reads it (not an adapter
                                          run: for conformance/sst_real_readers.py)
Exit statuses as conformance/SPEC.md says (0 dump, 1 rejected, 2 unsupported).
"""
import os
import subprocess
import sys
import tempfile

from java_classes import compiled_classes
from sst_writing import judge

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "SstPoi.java")
LARGE_INPUT = 16 << 20  # bytes
JARS = ":".join("/usr/share/java/%s.jar" % j for j in ("poi", "commons-collections4", "commons-math3", "commons-codec"))


def main():
    if sys.argv[1] == "cells":
        os.execvp("java", ["java", "-Xmx1g", "-cp", compiled_classes(SOURCE, "poi", JARS) + ":" + JARS, "SstPoi", "cells", sys.argv[2]])
    if sys.argv[1] == "--batch":
        # Many inputs in one JVM: the full JIT pays off over them.
        os.execvp("java", ["java", "-Xmx1g", "-Xshare:auto", "-cp", compiled_classes(SOURCE, "poi", JARS) + ":" + JARS, "SstPoi", "batch"] + sys.argv[2:])
    path, fmt = sys.argv[1], sys.argv[2]
    classes = compiled_classes(SOURCE, "poi", JARS)
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
