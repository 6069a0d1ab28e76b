#!/usr/bin/python3
"""Promotes a mined candidate to a case (conformance/SPEC.md section 8, Promotion): its input
becomes conformance/cases/<format>/<name>, its CASES.tsv row carries `mined m_<h>: <signature>`,
its metadata stays in conformance/candidates/<format>/, and SIGNATURES.tsv names the case.

  promote.py FORMAT m_<h> NAME WHAT RULE [--from DIR] [--root ROOT]
      NAME starts with y_, n_ or i_ (the verdict the RULE decides); DIR holds the candidate
      (default ROOT/conformance/candidates).
  promote.py --reindex [--root ROOT]
      Points every mined case's SIGNATURES.tsv line at its case and removes a promoted
      candidate's input from the candidates directory (after candidates from elsewhere arrive).

Every file is written to a temporary file and renamed."""
import argparse
import json
import os
import re
import sys
from output_file import copy_file, write_text

MINED = re.compile(r"mined (m_[0-9a-f]{12}): (.+)")
INDEX_HEADER = "# conform mine: the signatures found, each with its candidate (conformance/SPEC.md section 8)\n"


def read_lines(path):
    return open(path, encoding="utf-8").read().splitlines() if os.path.exists(path) else []


def read_index(candidates):
    """SIGNATURES.tsv of one format's candidates: signature -> the candidate or case it names."""
    rows = (line.split("\t", 1) for line in read_lines(os.path.join(candidates, "SIGNATURES.tsv"))
            if line and not line.startswith("#"))
    return {row[1]: row[0] for row in rows if len(row) == 2}


def set_index(candidates, signature, named):
    """SIGNATURES.tsv with `signature` naming `named`, sorted by signature as conform mine writes it."""
    path = os.path.join(candidates, "SIGNATURES.tsv")
    index = read_index(candidates)
    if index.get(signature) == named:
        return
    index[signature] = named
    write_text(path, INDEX_HEADER + "".join("%s\t%s\n" % (index[s], s) for s in sorted(index)))


def mined_rows(root):
    """(format, case name, candidate, signature) of every mined case."""
    cases = os.path.join(root, "conformance", "cases")
    for fmt in sorted(os.listdir(cases)):
        if os.path.islink(os.path.join(cases, fmt)):
            continue  # pdf3 is the pdf folder read at level 3
        for line in read_lines(os.path.join(cases, fmt, "CASES.tsv"))[1:]:
            fields = line.split("\t")
            match = MINED.fullmatch(fields[4]) if len(fields) == 5 else None
            if match:
                yield fmt, fields[0], match.group(1), match.group(2)


def reindex(root):
    for fmt, name, candidate, signature in mined_rows(root):
        candidates = os.path.join(root, "conformance", "candidates", fmt)
        set_index(candidates, signature, "conformance/cases/%s/%s" % (fmt, name))
        leftover = os.path.join(candidates, candidate + os.path.splitext(name)[1])
        if os.path.exists(leftover):
            os.remove(leftover)


def promote(root, fmt, candidate, name, what, rule, source_dir):
    if not re.fullmatch(r"[yni]_[A-Za-z0-9_]+\.[a-z0-9]+", name):
        sys.exit("promote.py: %s: want y_, n_ or i_, then letters, digits and _, then the extension" % name)
    if any("\t" in f or "\n" in f or not f.strip() for f in (what, rule)):
        sys.exit("promote.py: WHAT and RULE must be one non-empty line without tabs")
    source = os.path.join(source_dir, fmt)
    with open(os.path.join(source, candidate + ".json"), encoding="utf-8") as f:
        metadata = json.load(f)
    extension = os.path.splitext(metadata["seed_file"])[1]
    if not os.path.exists(os.path.join(source, candidate + extension)):
        sys.exit("promote.py: %s has no %s%s (promoted already?)" % (source, candidate, extension))
    if not name.endswith(extension):
        sys.exit("promote.py: %s: the candidate is a %s file" % (name, extension))
    case_dir = os.path.join(root, "conformance", "cases", fmt)
    target = os.path.join(case_dir, name)
    if os.path.exists(target):
        sys.exit("promote.py: %s exists" % target)
    candidates = os.path.join(root, "conformance", "candidates", fmt)
    os.makedirs(candidates, exist_ok=True)
    copy_file(os.path.join(source, candidate + extension), target)
    if os.path.abspath(source) != os.path.abspath(candidates):
        copy_file(os.path.join(source, candidate + ".json"), os.path.join(candidates, candidate + ".json"))
    catalogue = os.path.join(case_dir, "CASES.tsv")
    row = "\t".join([name, name[0], what, rule, "mined %s: %s" % (candidate, metadata["signature"])])
    write_text(catalogue, "\n".join(read_lines(catalogue) + [row]) + "\n")
    reindex(root)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--reindex", action="store_true")
    parser.add_argument("--from", dest="source")
    parser.add_argument("args", nargs="*", metavar="FORMAT m_<h> NAME WHAT RULE")
    options = parser.parse_args()
    if options.reindex:
        if options.args:
            parser.error("--reindex takes no other arguments")
        reindex(options.root)
        return 0
    if len(options.args) != 5:
        parser.error("want FORMAT m_<h> NAME WHAT RULE")
    fmt, candidate, name, what, rule = options.args
    promote(options.root, fmt, candidate, name, what, rule,
            options.source or os.path.join(options.root, "conformance", "candidates"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
