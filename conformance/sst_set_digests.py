#!/usr/bin/python3
"""Golden SHA-256 of the SST bytes of generated string sets, both writers, every sink.

Usage: sst_set_digests.py DOCCONFORM_BINARY ROOT [--update]
Each line of golden/sst-sets.sha256 is `count mix seed sha256`: the digest of
`docconform sst write` (SST + CONTINUE + EXTSST records) for `docconform gen strings --count
count --mix mix --seed seed`. The naive and fast writers must both give it; the 2^20 set also
goes through the file, stream and zlib sinks with the fast writer. Sets up to 20,000 strings are also written by
the independent Python writer of conformance/generators/sst_cases.py, which must agree.
"""
import json
import hashlib
import os
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "generators"))
import sst_cases  # noqa: E402
from output_file import write_text


def python_writer_digest(strings_path):
    sst = sst_cases.Sst()
    with open(strings_path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            value = json.loads(line)
            if isinstance(value, str):
                sst.add(value)
            else:
                runs = [tuple(r) for r in value["runs"]] if "runs" in value else None
                ext = bytes.fromhex(value["ext"]) if "ext" in value else None
                sst.add(value["s"], runs, ext)
    return hashlib.sha256(sst.bytes()).hexdigest()

SETS = [(1, "ascii", 1), (1000, "latin1", 1), (1000, "cjk", 1), (1000, "emoji", 1), (1000, "rich", 1),
        (20000, "mixed", 2), (1048576, "mixed", 1)]


def main():
    binary, root = sys.argv[1], sys.argv[2]
    update = "--update" in sys.argv
    ledger_path = os.path.join(root, "golden", "sst-sets.sha256")
    ledger = {}
    if os.path.exists(ledger_path):
        for line in open(ledger_path):
            if line.strip() and not line.startswith("#"):
                count, mix, seed, digest = line.split()
                ledger[(int(count), mix, int(seed))] = digest
    failed = 0
    fresh = {}
    with tempfile.TemporaryDirectory() as tmp:
        for count, mix, seed in SETS:
            strings = os.path.join(tmp, "s.jsonl")
            subprocess.run([binary, "gen", "strings", "--count", str(count), "--mix", mix, "--seed", str(seed), strings], check=True)
            runs = [("naive", "memory"), ("fast", "memory")]
            if count == 1048576:
                runs += [("fast", "file"), ("fast", "stream"), ("fast", "zlib")]
            digests = set()
            if count <= 20000:
                digests.add(python_writer_digest(strings))
            for writer, sink in runs:
                out = os.path.join(tmp, "out")
                subprocess.run([binary, "sst", "write", "--strings", strings, "--writer", writer, "--sink", sink, out], check=True)
                data = open(out, "rb").read()
                digests.add(hashlib.sha256(zlib.decompress(data) if sink == "zlib" else data).hexdigest())
            if len(digests) != 1:
                failed += 1
                print("FAIL %d %s %d: writers/sinks disagree: %s" % (count, mix, seed, sorted(digests)))
                continue
            digest = digests.pop()
            fresh[(count, mix, seed)] = digest
            expected = ledger.get((count, mix, seed))
            if update or expected == digest:
                print("ok   %d %s %d %s" % (count, mix, seed, digest))
            else:
                failed += 1
                print("FAIL %d %s %d: golden %s, got %s" % (count, mix, seed, expected, digest))
    if update:
        write_text(ledger_path, "# SHA-256 of the SST records of generated string sets (conformance/sst_set_digests.py)\n"
                                "# count mix seed sha256\n" +
                   "".join("%d %s %d %s\n" % (key[0], key[1], key[2], fresh[key]) for key in SETS if key in fresh))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
