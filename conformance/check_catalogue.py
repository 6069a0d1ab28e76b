#!/usr/bin/python3
"""Checks the case catalogue: every case file of conformance/cases/<format>/ has one row in its
directory's CASES.tsv (case, verdict, what it tests, rule source), the verdict is the letter of
the file's prefix (y_ must accept, n_ must reject, i_ implementation-defined), no field is empty,
and no row names a file that is not there. A mined case's fifth field, `mined m_<h>: <signature>`,
agrees with its candidate's metadata and the candidates' index (SPEC.md section 8, Promotion).
Usage: check_catalogue.py CASES_DIR -> exit 0, or 1 with one line per fault."""
import json
import os
import sys

from promote import MINED, read_index

HEADER = ["case", "verdict", "what it tests", "rule source"]


def provenance_faults(where, fmt, name, field, candidates_dir):
    match = MINED.fullmatch(field)
    if not match:
        return ["%s: the fifth field is not 'mined m_<h>: <signature>'" % where]
    candidate, signature = match.groups()
    candidates = os.path.join(candidates_dir, fmt)
    try:
        with open(os.path.join(candidates, candidate + ".json"), encoding="utf-8") as f:
            metadata = json.load(f)
    except (OSError, ValueError) as error:
        return ["%s: %s.json: %s" % (where, candidate, error)]
    found = []
    if metadata.get("signature") != signature:
        found.append("%s: the signature is not %s.json's" % (where, candidate))
    if read_index(candidates).get(signature) != "conformance/cases/%s/%s" % (fmt, name):
        found.append("%s: candidates/%s/SIGNATURES.tsv does not name the case for its signature" % (where, fmt))
    return found


def faults(cases_dir):
    candidates_dir = os.path.join(os.path.dirname(os.path.abspath(cases_dir)), "candidates")
    for fmt in sorted(os.listdir(cases_dir)):
        folder = os.path.join(cases_dir, fmt)
        if not os.path.isdir(folder) or os.path.islink(folder):
            continue  # pdf3 is the pdf folder read at level 3
        # A case's password sidecar (SPEC.md format pdf rule 10) is part of its case, not a case.
        files = {f for f in os.listdir(folder) if f[:2] in ("y_", "n_", "i_") and not f.endswith(".password")}
        path = os.path.join(folder, "CASES.tsv")
        if not os.path.exists(path):
            yield "%s: no CASES.tsv" % fmt
            continue
        lines = open(path, encoding="utf-8").read().splitlines()
        if not lines or lines[0].split("\t") != HEADER:
            yield "%s/CASES.tsv: the header is not %s" % (fmt, "\\t".join(HEADER))
            continue
        listed = set()
        for number, line in enumerate(lines[1:], 2):
            fields = line.split("\t")
            where = "%s/CASES.tsv:%d" % (fmt, number)
            if len(fields) not in (4, 5) or any(not f.strip() for f in fields):
                yield "%s: want 4 non-empty tab-separated fields (5 for a mined case)" % where
                continue
            if len(fields) == 5:
                yield from provenance_faults(where, fmt, fields[0], fields[4], candidates_dir)
            name, verdict = fields[0], fields[1]
            if name in listed:
                yield "%s: %s is listed twice" % (where, name)
            listed.add(name)
            if name not in files:
                yield "%s: %s is not a case file of %s" % (where, name, fmt)
            elif verdict != name[0]:
                yield "%s: verdict %r, but the file's prefix says %r" % (where, verdict, name[0])
        for name in sorted(files - listed):
            yield "%s/CASES.tsv: no row for %s" % (fmt, name)


def main():
    found = list(faults(sys.argv[1]))
    for line in found:
        print(line)
    if not found:
        print("catalogue ok")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
