#!/usr/bin/python3
"""Every usage error of the docconform programs exits 64 and names what is wrong; --help exits 0.

Walks the help of every subcommand: each numeric option must state its range in the help and
refuse a negative, an overflowing and a zero-or-non-finite value (for seconds) with exit 64 and a
message naming the option. Then the unknown subcommands and options, and the list options.
Usage: cli_usage_errors.py DOCCONFORM DOCCONFORM_BENCH"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

cli, bench = sys.argv[1], sys.argv[2]
scratch = tempfile.mkdtemp(prefix="docconform-usage-")
failures = []


def run(binary, args):
    # In a scratch directory, which is also the default root: a value wrongly accepted must not
    # write into the source tree or start the whole conformance suite.
    env = dict(os.environ, DOCCONFORM_ROOT=scratch)
    try:
        return subprocess.run([binary] + args, capture_output=True, text=True, timeout=20, cwd=scratch, env=env)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, -1, "", "(still running after 20 s)")


checks = []  # (args, words the message must hold), run together at the end


def expect_usage_error(binary, args, *named):
    checks.append((binary, args, named))


def check(binary, args, named):
    p = run(binary, args)
    missing = [word for word in named if word not in p.stderr]
    if p.returncode != 64 or missing:
        return f"{' '.join(args)}: exit {p.returncode}, stderr {p.stderr.strip()!r} (wanted 64 naming {named})"
    return None


def sections(binary, path):
    """The help of `BINARY PATH`: subcommand names, and (names, type) of each option."""
    p = run(binary, path + ["--help"])
    if p.returncode != 0:
        failures.append(f"{' '.join(path + ['--help'])}: exit {p.returncode}")
    subcommands, options, section = [], [], None
    for line in p.stdout.splitlines():
        if line and not line.startswith(" "):
            section = line.rstrip(":")
            continue
        match = re.match(r"^  (\S+)(?: (\S+))?", line)
        if not match:
            continue
        if section == "Subcommands":
            subcommands.append(match.group(1))
        elif section == "Options" and match.group(1).startswith("-"):
            options.append((match.group(1).split(","), match.group(2) or ""))
    return subcommands, options


numeric = 0
helps = []  # (binary, path, options) of every command, read a level at a time
level = [(cli, []), (bench, [])]
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    while level:
        found = list(pool.map(lambda command: sections(*command), level))
        helps += [(binary, path, options) for (binary, path), (_, options) in zip(level, found)]
        level = [(binary, path + [name]) for (binary, path), (subcommands, _) in zip(level, found) for name in subcommands]
for binary, path, options in helps:
    for names, kind in options:
        base = re.split(r"[:=]", kind)[0]
        if base not in ("UINT", "INT", "FLOAT", "NUMBER"):
            continue
        numeric += 1
        name = next((n for n in names if n.startswith("--")), names[0])
        if ":" not in kind:
            failures.append(f"{' '.join(path)} {name}: numeric option without a range check ({kind})")
        bad = ["-1", "99999999999999999999"] + (["0", "nan"] if base == "FLOAT" else [])
        for value in bad:
            expect_usage_error(binary, path + [name, value], name)

if numeric < 40:
    failures.append(f"only {numeric} numeric options found in the help: is the help format still understood?")

# The examples, unknown names, list options, and help.
expect_usage_error(cli, ["--threads", "-1"], "--threads")
expect_usage_error(cli, ["frob"], "frob")
expect_usage_error(cli, ["dump", "frob", "x"], "frob")
expect_usage_error(cli, ["dump", "pdf", "--bogus", "x.pdf"], "--bogus")
expect_usage_error(cli, ["dump", "xlsx", "--threads", "-1", "x.xlsx"], "--threads", "0 to 1024")
expect_usage_error(cli, ["dump", "pdf", "--window", "18446744073709551615", "x.pdf"], "--window", "1 to 1024G")
expect_usage_error(cli, ["dump", "pdf", "--window", "-1", "x.pdf"], "--window")
expect_usage_error(cli, ["dump", "pdf", "--granularity", "5000", "x.pdf"], "--granularity", "multiple of")
expect_usage_error(cli, ["dump", "pdf"], "file")
expect_usage_error(cli, ["conform"], "run")
expect_usage_error(cli, ["utf8", "a", "b"], "'b'")
expect_usage_error(bench, ["pdf", "--warm", "--threads", "1,-1", "x.pdf"], "--threads")
expect_usage_error(bench, ["xlsx", "--threads", "0", "x.xlsx"], "--threads")
# Each program names itself, and the help command that exists.
expect_usage_error(bench, ["pdf", "--bogus"], "docconform-bench: usage error", "Run 'docconform-bench pdf --help'")
expect_usage_error(cli, ["dump", "pdf", "--bogus"], "docconform: usage error", "Run 'docconform dump pdf --help'")
expect_usage_error(cli, ["dump", "pdf", "--limit", "max_depth=-1", "x.pdf"], "max_depth")
for binary, args in ((cli, ["--help"]), (cli, ["dump", "pdf", "--help"]), (cli, ["conform", "run", "--help"]), (bench, ["--help"])):
    if run(binary, args).returncode != 0:
        failures.append(f"{' '.join(args)}: not exit 0")

with concurrent.futures.ThreadPoolExecutor(4) as pool:
    failures += [f for f in pool.map(lambda c: check(*c), checks) if f]
shutil.rmtree(scratch)
for failure in failures:
    print("FAIL", failure)
print(f"{numeric} numeric options checked, {len(failures)} failures")
sys.exit(1 if failures else 0)
