#!/usr/bin/python3
"""sst adapter and .xls writer built on Apache POI HSSF (Debian's libapache-poi-java jars).

Compiles SstPoi.java once into build/adapter-cache/ of the repository (keyed by the source's
SHA-256, so an edit recompiles; parallel first runs are safe: each compiles into its own
directory and renames it into place), then runs one JVM per call:
  sst_poi.py FILE                 -> canonical sst dump (exit 0/1/2 as conformance/SPEC.md says)
  sst_poi.py write STRINGS OUT    -> an .xls written by HSSFWorkbook (see SstPoi.java)
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

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
    args = sys.argv[1:]
    command = ["write"] + args[1:] if args[:1] == ["write"] else ["dump"] + args
    classes = compiled_classes()
    # Small cases: a small heap and the quick-starting compiler only. Large inputs (the speed
    # table's 2^20-string workbook): room for POI's records and the full JIT, as in production.
    large = os.path.getsize(command[1]) > LARGE_INPUT
    tuning = ["-Xmx8g"] if large else ["-Xmx1g", "-XX:TieredStopAtLevel=1"]
    java = ["java"] + tuning + ["-Xshare:auto", "-cp", classes + ":" + JARS, "SstPoi"]
    os.execvp("java", java + command)


if __name__ == "__main__":
    main()
