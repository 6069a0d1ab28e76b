"""Compiles an adapter's Java source once into a cache, keyed by the source's SHA-256 (an edit
recompiles): build/adapter-cache/ of a checkout, else the user's cache directory (an installed
suite may be read-only). Parallel first runs are safe: each compiles into its own directory and
renames it into place."""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def cache_directory():
    if os.path.exists(os.path.join(ROOT, ".git")):
        return os.path.join(ROOT, "build", "adapter-cache")
    home = os.environ.get("XDG_CACHE_HOME") or (os.path.join(os.environ["HOME"], ".cache") if "HOME" in os.environ else "")
    return os.path.join(home or tempfile.gettempdir(), "docconform", "adapter-cache")


def compiled_classes(source, prefix, classpath=""):
    """The directory holding the classes of SOURCE (a path beside this file); exits 3 (an
    adapter failure) with javac's messages when it does not compile."""
    with open(source, "rb") as f:
        key = hashlib.sha256(f.read()).hexdigest()[:16]
    cache = cache_directory()
    target = os.path.join(cache, "%s-%s" % (prefix, key))
    if os.path.isdir(target):
        return target
    os.makedirs(cache, mode=0o700, exist_ok=True)
    work = tempfile.mkdtemp(dir=cache, prefix="." + prefix + "-")
    # A bounded heap: the runner caps the address space, and a JVM sizing its heap from the
    # machine's memory would not start under the cap.
    command = ["javac", "-J-Xmx512m", "-nowarn"] + (["-cp", classpath] if classpath else []) + ["-d", work, source]
    p = subprocess.run(command, capture_output=True)
    if p.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        sys.stderr.write((p.stdout + p.stderr).decode("utf-8", "replace"))
        sys.exit(3)
    try:
        os.rename(work, target)
    except OSError:  # another run put its copy in place first
        shutil.rmtree(work, ignore_errors=True)
    return target
