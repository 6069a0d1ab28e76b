#!/usr/bin/python3
"""Consensus for the large cases (conformance/large/CASES.tsv), which are generated, not
committed, and run only by ci/matrix: golden/large.consensus lists, per large case, the
third-party implementations whose dump matched its golden digest in the published run.
  large_consensus.py write RESULTS_JSON ADAPTERS_TSV OUT   (ci/matrix, after the run)
  large_consensus.py check CASES_TSV CONSENSUS             (ctest: every y_ case has two)
Exit 0, or 1 with one line per y_ case short of two confirmations."""
import json
import sys
from output_file import write_text


def third_party(adapters_tsv):
    names = set()
    for line in open(adapters_tsv, encoding="utf-8"):
        fields = line.rstrip("\n").split("\t")
        if not line.startswith("#") and len(fields) >= 3 and fields[2] == "third-party":
            names.add(fields[0])
    return names


def write(results_json, adapters_tsv, out):
    report = json.load(open(results_json, encoding="utf-8"))
    others = third_party(adapters_tsv)
    agreeing = {}
    for result in report["large"]:
        agreeing.setdefault(result["case"], [])
        if result["impl"] in others and result["status"] == "pass":
            agreeing[result["case"]].append(result["impl"])
    write_text(out, "# docconform golden consensus for the large cases: third-party implementations whose dump matched\n"
                    "# the golden digest in the published run (conformance/results/results.json, written by ci/matrix)\n"
                    "# case  agreeing\n" +
               "".join("%s  %s\n" % (case, ",".join(sorted(agreeing[case])) or "-") for case in sorted(agreeing)))
    return 0


def check(cases_tsv, consensus):
    recorded = {}
    for line in open(consensus, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        case, _, agreeing = line.rstrip("\n").partition("  ")
        recorded[case] = [a for a in agreeing.split(",") if a and a != "-"]
    short = 0
    for line in open(cases_tsv, encoding="utf-8"):
        fields = line.rstrip("\n").split("\t")
        if line.startswith("#") or len(fields) < 2 or not fields[1].startswith("y_"):
            continue
        case = "%s/%s" % (fields[0], fields[1])
        if len(recorded.get(case, [])) < 2:
            print("%s: confirmed by %s; a y_ case needs two third-party implementations" % (case, recorded.get(case) or "none"))
            short += 1
    print("large consensus: %d cases short" % short)
    return 1 if short else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["write"] and len(sys.argv) == 5:
        sys.exit(write(*sys.argv[2:]))
    if sys.argv[1:2] == ["check"] and len(sys.argv) == 4:
        sys.exit(check(*sys.argv[2:]))
    sys.exit(__doc__)
