#!/usr/bin/python3
"""`dump` and `digest` over one file or many: dump_files_cli.py DOCCONFORM ROOT [CASE...]

One file: the unframed dump and digest of today, byte for byte the golden ones. Several files
(or --files-from): input order at every thread count, each dump framed by `==> PATH` and
`<== ok` / `<== error CLASS`, a bad file in the middle reported on stderr by name while the
others still run, the exit status of the first failed file, and --output replaced only when
every file's dump was made (conformance/SPEC.md section 1, "Output of the CLI")."""
import hashlib
import os
import re
import subprocess
import sys

from cli_cases import run_cases

BINARY, ROOT = sys.argv[1], sys.argv[2]
ONLY = set(sys.argv[3:])
CASES_DIR = os.path.join(ROOT, "conformance", "cases")
CASES = []
# format -> the dump command's words and the case directory
FORMATS = {"xlsx": (["xlsx"], "xlsx"), "pdf3": (["pdf", "--level", "3"], "pdf"), "sst": (["sst"], "sst"), "utf8": (["utf8"], "utf8")}


def case(function):
    CASES.append(function)
    return function


def run(args, expect=0, **kwargs):
    kwargs.setdefault("stdout", subprocess.PIPE)
    p = subprocess.run([BINARY] + args, stderr=subprocess.PIPE, **kwargs)
    assert p.returncode == expect, f"{args}: exit {p.returncode}, expected {expect}: {p.stderr.decode(errors='replace')}"
    return p


def ledger(format_name):
    """(case path, expectation) in ledger order: 'sha256:HEX' or 'rejected'; cases needing a password left out."""
    _, directory = FORMATS[format_name]
    entries = []
    with open(os.path.join(ROOT, "golden", format_name + ".sha256")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, expectation = line.split()
            path = os.path.join(CASES_DIR, directory, name)
            if not os.path.exists(path + ".password"):
                entries.append((path, expectation))
    return entries


@case
def one_file_is_unframed_and_golden(work):
    for format_name, (words, _) in FORMATS.items():
        accepted = [(path, e) for path, e in ledger(format_name) if e != "rejected"][:3]
        for path, expectation in accepted:
            dump = run(["dump"] + words + [path]).stdout
            assert "sha256:" + hashlib.sha256(dump).hexdigest() == expectation, (format_name, path)
            golden = os.path.join(ROOT, "golden", format_name, os.path.basename(path) + ".dump")
            if os.path.exists(golden):
                assert open(golden, "rb").read() == dump, golden
            assert run(["digest"] + words + [path]).stdout.decode() == expectation[len("sha256:"):] + "\n"
            out = os.path.join(work, "out")
            run(["dump"] + words + [path, "--output", out])
            assert open(out, "rb").read() == dump


@case
def xlsx_output_file_holds_the_dump_of_every_case(work):
    # A file of our own can go back: the dump is then made in one pass where it can be.
    out = os.path.join(work, "out")
    for path, expectation in ledger("xlsx"):
        with open(out, "wb") as f:
            f.write(b"old")
        p = subprocess.run([BINARY, "dump", "xlsx", path, "--output", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if expectation == "rejected":
            assert p.returncode != 0 and open(out, "rb").read() == b"old", path
        else:
            assert p.returncode == 0, (path, p.stderr)
            assert "sha256:" + hashlib.sha256(open(out, "rb").read()).hexdigest() == expectation, path


@case
def digests_of_every_case_in_order_at_every_thread_count(work):
    for format_name, (words, _) in FORMATS.items():
        entries = ledger(format_name)
        listing = os.path.join(work, format_name + ".list")
        with open(listing, "w") as f:
            f.write("".join(path + "\n" for path, _ in entries))
        rejected = [path for path, e in entries if e == "rejected"]
        outputs = []
        for threads in ("1", "2"):
            p = run(["digest"] + words + ["--threads", threads, "--files-from", listing], 1 if rejected else 0)
            outputs.append(p.stdout)
            expected = "".join(f"{e[len('sha256:'):]}  {path}\n" for path, e in entries if e != "rejected")
            assert p.stdout.decode() == expected, (format_name, threads)
            errors = p.stderr.decode()
            for path in rejected:
                assert f"docconform: {path}: " in errors, (format_name, path, errors)
        assert outputs[0] == outputs[1]
        dumps = [run(["dump"] + words + ["--threads", threads, "--files-from", listing], 1 if rejected else 0).stdout
                 for threads in ("1", "2")]
        assert dumps[0] == dumps[1], format_name


def frames(output):
    """The framed output as [(path, dump bytes, closing line)]."""
    parts = []
    for block in output.split(b"==> ")[1:]:
        header, rest = block.split(b"\n", 1)
        body, closing = rest[:rest.rindex(b"<== ")], rest[rest.rindex(b"<== "):]
        parts.append((header.decode(), body, closing.decode()))
    return parts


@case
def bad_file_in_the_middle(work):
    good = os.path.join(CASES_DIR, "xlsx", "y_minimal.xlsx")
    bad = os.path.join(CASES_DIR, "xlsx", "n_column_beyond_limit.xlsx")
    missing = os.path.join(work, "missing.xlsx")
    single = run(["dump", "xlsx", good]).stdout
    for threads in ("1", "2"):
        p = run(["dump", "xlsx", "--threads", threads, good, bad, good, missing, good], 1)
        parts = frames(p.stdout)
        assert [path for path, _, _ in parts] == [good, bad, good, missing, good], parts
        assert [closing for _, _, closing in parts] == ["<== ok\n", "<== error range\n", "<== ok\n", "<== error io\n", "<== ok\n"]
        assert all(body == single for path, body, _ in parts if path == good)
        errors = p.stderr.decode().splitlines()
        assert errors[0].startswith(f"docconform: {bad}: ") and "range error" in errors[0], errors
        assert errors[1].startswith(f"docconform: {missing}: io error"), errors
        d = run(["digest", "xlsx", "--threads", threads, good, missing, bad, good], 74)  # the first failure's status
        assert d.stdout.decode().splitlines() == [f"{hashlib.sha256(single).hexdigest()}  {good}"] * 2


@case
def directories_and_pipes_are_io_errors_naming_them(work):
    """A directory is no input of any format; a FIFO no input of the readers that read at any
    offset (and, having no writer, it must not make them wait)."""
    fifo = os.path.join(work, "fifo")
    os.mkfifo(fifo)
    for name, (words, _) in FORMATS.items():
        p = run(["digest"] + words + [work], 74)
        assert p.stderr.decode().startswith(f"docconform: {work}: io error: is a directory"), (name, p.stderr)
    for words in (["xlsx"], ["pdf", "--level", "3"], ["sst"]):
        p = run(["digest"] + words + [fifo], 74, timeout=20)
        assert p.stderr.decode().startswith(f"docconform: {fifo}: io error: is a pipe"), (words, p.stderr)
        p = run(["digest"] + words + ["/dev/zero"], 74, timeout=20)
        assert p.stderr.decode().startswith("docconform: /dev/zero: io error: is a character device"), (words, p.stderr)


@case
def endless_inputs_stop_at_their_limits(work):
    """What is read from start to end, a utf8 input or a list of files, stops at its named limit."""
    p = run(["digest", "utf8", "--max-bytes", "100000", "/dev/zero"], 1, timeout=20)
    assert "limit error: input of more than 100000 bytes is over max_input_bytes (100000)" in p.stderr.decode(), p.stderr
    p = run(["digest", "utf8", "--max-list-bytes", "100000", "--files-from", "/dev/zero"], 1, timeout=20)
    assert "limit error: input of more than 100000 bytes is over --max-list-bytes (100000)" in p.stderr.decode(), p.stderr


@case
def files_from_a_list_and_standard_input(work):
    paths = [os.path.join(CASES_DIR, "utf8", name) for name in sorted(os.listdir(os.path.join(CASES_DIR, "utf8")))
             if name.endswith(".bin")][:6]
    listing = os.path.join(work, "list")
    with open(listing, "w") as f:
        f.write("\n".join(paths[2:]) + "\n\n")
    by_arguments = run(["digest", "utf8"] + paths).stdout
    assert run(["digest", "utf8", paths[0], paths[1], "--files-from", listing]).stdout == by_arguments
    assert run(["digest", "utf8", "--files-from", "-"], input="\n".join(paths).encode()).stdout == by_arguments
    # A list of one file is framed too: what reads a list's output reads it the same way.
    assert run(["digest", "utf8", "--files-from", "-"], input=paths[0].encode()).stdout.decode().endswith(f"  {paths[0]}\n")
    p = run(["digest", "utf8", "--files-from", os.path.join(work, "no-list")], 74)
    assert p.stderr.decode().endswith("io error: cannot open: No such file or directory\n"), p.stderr
    run(["digest", "utf8"], 64)


@case
def output_file_is_replaced_only_when_complete(work):
    out = os.path.join(work, "out")
    bad = os.path.join(CASES_DIR, "pdf", "n_deflate_bomb.pdf")
    good = os.path.join(CASES_DIR, "pdf", "y_subsections_comments_indirect_length.pdf")
    for command in (["dump", "pdf", "--level", "3", bad], ["digest", "pdf", bad],
                    ["dump", "pdf", good, "--level", "3", "--limit", "max_output_bytes=100"]):
        with open(out, "wb") as f:
            f.write(b"old")
        run(command + ["--output", out], 1)
        assert open(out, "rb").read() == b"old", command
        assert os.listdir(work) == ["out"], os.listdir(work)
    # Several files: the output file is replaced only when every file's dump was made; standard
    # output still gets each file's part, saying how it ended.
    for command in (["dump", "pdf", good, bad], ["digest", "pdf", good, bad], ["digest", "pdf", bad, bad]):
        p = run(command + ["--output", out], 1)
        assert p.stdout == b""
        assert open(out, "rb").read() == b"old", command
        assert p.stderr.decode().endswith(f"docconform: {out}: not replaced: {command.count(bad)} of 2 files failed\n"), p.stderr
        assert os.listdir(work) == ["out"], os.listdir(work)
    p = run(["dump", "pdf", good, bad], 1)
    assert [closing for _, _, closing in frames(p.stdout)] == ["<== ok\n", "<== error limit\n"]
    run(["digest", "pdf", good, good, "--output", out], 0)
    assert open(out, "rb").read().count(b"  " + good.encode() + b"\n") == 2


@case
def pending_output_is_bounded(work):
    # A budget of nothing: every file waits for the one before it, and the output is the same.
    paths = [path for path, e in ledger("xlsx") if e != "rejected"][:20]
    free = run(["dump", "xlsx", "--threads", "2"] + paths).stdout
    assert run(["dump", "xlsx", "--threads", "2", "--max-pending-output", "0"] + paths).stdout == free


@case
def short_pieces_are_gathered_into_large_writes(work):
    # A shuffled file's level-3 lines each stand alone and come a line at a time: the output
    # gets them in writes of about a MiB (strace counts the writes of each output), unframed
    # and framed alike.
    pdf = os.path.join(work, "shuffled.pdf")
    run(["gen", "pdf", "--objects", "20000", "--payload", "100", "--shuffle", pdf])
    expected = run(["dump", "pdf", "--level", "3", pdf]).stdout
    assert len(expected) > 4 << 20, len(expected)
    for files in ([pdf], [pdf, pdf]):
        out = os.path.join(work, "out")
        trace = os.path.join(work, "trace")
        # LeakSanitizer cannot run under ptrace: a sanitizer build is checked for leaks elsewhere.
        env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
        p = subprocess.run(["strace", "-ff", "-qq", "-e", "trace=write", "-e", "signal=none", "-o", trace, BINARY, "dump", "pdf", "--level", "3"]
                           + files + ["--output", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        assert p.returncode == 0, p.stderr.decode(errors="replace")
        output = open(out, "rb").read()
        if len(files) == 1:
            assert output == expected
        else:
            assert output.count(expected) == 2, "each file's dump, framed"
        if os.environ.get("DOCCONFORM_SANITIZED"):
            continue  # the runtime writes probes of its own, on descriptors the output also gets
        # The output's writes (a trace file a thread, so no call is split across lines): those of
        # the descriptor that wrote the most bytes.
        by_fd = {}
        for name in os.listdir(work):
            if name.startswith("trace."):
                for m in re.finditer(r"^write\((\d+), .*\)\s+=\s+(\d+)$", open(os.path.join(work, name)).read(), re.M):
                    count, total = by_fd.get(m.group(1), (0, 0))
                    by_fd[m.group(1)] = (count + 1, total + int(m.group(2)))
                os.remove(os.path.join(work, name))
        writes, written = max(by_fd.values(), key=lambda v: v[1])
        assert written == len(output), (written, len(output))
        assert writes <= len(output) // (256 << 10) + 8, f"{len(files)} files: {writes} writes for {len(output)} bytes"


if __name__ == "__main__":
    sys.exit(run_cases(CASES, ONLY, "docconform-dump-files-"))
