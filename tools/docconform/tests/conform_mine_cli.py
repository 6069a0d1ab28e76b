#!/usr/bin/python3
"""`docconform conform mine` as a user runs it, on a planted disagreement: the reference and a fake
xlsx implementation (fake_adapters/mine_planted.py) that differs from it on boolean cells only.

Usage: conform_mine_cli.py DOCCONFORM ROOT
A campaign of a few seconds from one generated seed workbook must find the disagreement, keep it
once (one minimisation, one candidate: the signature index dedupes), minimise it (the candidate is
much smaller than the seed and still shows the signature) and write its metadata; a second run
resumes after the first one's inputs and keeps nothing new. A campaign ended by SIGINT or SIGTERM
leaves nothing in $TMPDIR. Prints 'N passed, N failed'; exits 1
on any failure.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from conform_cli import FAKES, MEMORY_ARGS, check

SIGNATURE = "mixed | reference=accepts:A planted=accepts:B | A~B:cells"


def mine_command(docconform, root, scratch, seeds, out, report, seconds=3):
    manifest = os.path.join(scratch, "planted.tsv")
    script = os.path.join(FAKES, "mine_planted.py")
    with open(manifest, "w") as f:
        f.write("planted\txlsx\tthird-party\tnogate\t-\t/usr/bin/python3 %s {input} {docconform} {root}\t-\t-\t"
                "/usr/bin/python3 %s --batch {docconform} {root}\n" % (script, script))
    return [docconform, "conform", "mine", "--root", root, "--format", "xlsx", "--impl", "planted",
            "--adapters", manifest, "--seeds", seeds, "--out", out, "--seconds", str(seconds), "--seed", "7",
            "-j", "2", "--minimize-seconds", "60", "--json", report, *MEMORY_ARGS]


def mine(docconform, root, scratch, seeds, out, report):
    return subprocess.run(mine_command(docconform, root, scratch, seeds, out, report), capture_output=True, text=True)


def interrupted_mine_leaves_no_scratch(docconform, root, scratch, seeds, signal_number):
    """A campaign stopped while its mutants are on disk: its scratch directory goes with it."""
    tmpdir = os.path.join(scratch, "tmp-%d" % signal_number)
    os.makedirs(tmpdir)
    command = mine_command(docconform, root, scratch, seeds, os.path.join(scratch, "stopped"), os.path.join(scratch, "s.json"), 60)
    p = subprocess.Popen(command, env=dict(os.environ, TMPDIR=tmpdir), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(os.listdir(os.path.join(tmpdir, d)) for d in os.listdir(tmpdir)):
        time.sleep(0.05)
    held = {d: os.listdir(os.path.join(tmpdir, d)) for d in os.listdir(tmpdir)}
    p.send_signal(signal_number)
    p.communicate(timeout=60)
    check(any(held.values()), "mutants on disk before the signal: %s" % held)
    check(p.returncode == -signal_number and os.listdir(tmpdir) == [],
          "after signal %d: exit %d, left in $TMPDIR %s" % (signal_number, p.returncode, os.listdir(tmpdir)))


def dump(docconform, path):
    return subprocess.run([docconform, "dump", "xlsx", path], capture_output=True, text=True)


def main():
    docconform, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="docconform-mine-") as scratch:
        seeds = os.path.join(scratch, "seeds")
        out = os.path.join(scratch, "candidates")
        os.makedirs(seeds)
        seed = os.path.join(seeds, "seed.xlsx")
        subprocess.run([docconform, "gen", "xlsx", "--sheets", "2", "--rows", "12", "--cols", "6", "--seed", "3", seed],
                       check=True, capture_output=True)
        seed_dump = dump(docconform, seed).stdout
        check(" b true" in seed_dump or " b false" in seed_dump, "the seed holds a boolean cell: %s" % seed_dump[:300])

        # Where the figures go is tried before the campaign, not after it.
        nowhere = os.path.join(scratch, "no-such-dir", "m.json")
        p = mine(docconform, root, scratch, seeds, out, nowhere)
        check(p.returncode == 74 and nowhere in p.stderr and not os.path.exists(out),
              "figures with nowhere to go: exit %d, %s" % (p.returncode, p.stderr[-500:]))

        first = mine(docconform, root, scratch, seeds, out, os.path.join(scratch, "first.json"))
        check(first.returncode == 0, "the first campaign exits 0: %s" % first.stderr[-2000:])
        check("mine: xlsx: " in first.stderr and "inputs/s: reference " in first.stderr, "progress lines: %s" % first.stderr[-500:])
        figures = json.load(open(os.path.join(scratch, "first.json")))
        check(figures["inputs"] > 0 and figures["disagreements"] > 1, "mutants tried and disagreements found: %s" % figures)
        check(figures["minimized"] == 1 and figures["candidates_kept"] == 1, "one minimisation, one candidate: %s" % figures)
        check([i["name"] for i in figures["implementations"]] == ["reference", "planted"] and
              all(i["runs"] > 0 and i["inputs_per_second"] > 0 for i in figures["implementations"]),
              "per-implementation figures: %s" % figures["implementations"])
        files = sorted(os.listdir(os.path.join(out, "xlsx")))
        candidates = [f for f in files if f.endswith(".xlsx")]
        check(len(candidates) == 1 and files == sorted(candidates + [candidates[0][:-5] + ".json", "SIGNATURES.tsv", "STATE.tsv"]),
              "one candidate, its metadata, the index and the state: %s" % files)
        if len(candidates) != 1:
            return
        candidate = os.path.join(out, "xlsx", candidates[0])
        index = [line for line in open(os.path.join(out, "xlsx", "SIGNATURES.tsv")) if not line.startswith("#")]
        check(index == ["%s\t%s\n" % (candidates[0], SIGNATURE)], "the index holds the planted signature: %s" % index)

        # Minimised: much smaller than the seed, and the signature still holds.
        size, seed_size = os.path.getsize(candidate), os.path.getsize(seed)
        check(size * 3 < seed_size, "the candidate (%d bytes) is under a third of the seed (%d bytes)" % (size, seed_size))
        reference = dump(docconform, candidate)
        planted = subprocess.run(["/usr/bin/python3", os.path.join(FAKES, "mine_planted.py"), candidate, docconform, root],
                                 capture_output=True, text=True)
        check(reference.returncode == 0 and planted.returncode == 0 and reference.stdout != planted.stdout and
              [l for l in reference.stdout.splitlines() if not l.startswith("cell ")] ==
              [l for l in planted.stdout.splitlines() if not l.startswith("cell ")],
              "the candidate still shows the disagreement, on cells only:\n%s\n%s" % (reference.stdout, planted.stdout))
        check(len([l for l in reference.stdout.splitlines() if l.startswith("cell ")]) <= 2,
              "the candidate keeps few cells:\n%s" % reference.stdout)

        meta = json.load(open(candidate[:-5] + ".json"))
        check(meta["signature"] == SIGNATURE and meta["format"] == "xlsx" and meta["seed"] == 7, "metadata: %s" % meta)
        check(meta["seed_file"] == seed and meta["mutations"] and isinstance(meta["input"], int), "provenance: %s" % meta)
        check(meta["bytes"]["candidate"] == size and meta["bytes"]["seed"] == seed_size, "sizes: %s" % meta["bytes"])
        check(meta["minimization"]["runs"] > 0 and any(", parts: " in s for s in meta["minimization"]["steps"]),
              "minimisation steps: %s" % meta["minimization"])
        impls = {i["name"]: i for i in meta["implementations"]}
        check(impls["reference"]["verdict"] == "accepts" and impls["reference"]["group"] == "A" and
              impls["planted"]["group"] == "B" and " b " in impls["planted"].get("diff", ""),
              "verdicts and the dump diff: %s" % meta["implementations"])

        for number in (signal.SIGINT, signal.SIGTERM):
            interrupted_mine_leaves_no_scratch(docconform, root, scratch, seeds, number)

        # A second campaign resumes where the first stopped and finds nothing new.
        before = open(candidate, "rb").read()
        second = mine(docconform, root, scratch, seeds, out, os.path.join(scratch, "second.json"))
        check(second.returncode == 0, "the second campaign exits 0: %s" % second.stderr[-2000:])
        again = json.load(open(os.path.join(scratch, "second.json")))
        check(again["first_input"] == figures["inputs"], "resumed after the first campaign's inputs: %s" % again)
        check(again["disagreements"] > 0 and again["minimized"] == 0 and again["candidates_kept"] == 0,
              "the known signature is not kept again: %s" % again)
        check(sorted(os.listdir(os.path.join(out, "xlsx"))) == files and open(candidate, "rb").read() == before,
              "no new or changed candidate: %s" % sorted(os.listdir(os.path.join(out, "xlsx"))))


if __name__ == "__main__":
    import conform_cli
    main()
    print("%d passed, %d failed" % (conform_cli.checks - len(conform_cli.failures), len(conform_cli.failures)))
    sys.exit(1 if conform_cli.failures else 0)
