#!/usr/bin/python3
"""The CLI's outputs are complete or not there at all: output_rules_test.py DOCCONFORM ROOT [CASE...]

Each case runs the docconform binary against a failure (a full device, a file-size limit in the
middle of a write, a signal, a symbolic link, a device node, a read-only directory) and checks
the exit status, that the message names the output, that the old file is intact and that no
temporary file is left. Exit status 0 when every case passes."""
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time

from cli_cases import run_cases

BINARY, ROOT = sys.argv[1], sys.argv[2]
ONLY = set(sys.argv[3:])
XLSX_CASE = os.path.join(ROOT, "conformance", "cases", "xlsx", "y_minimal.xlsx")
PDF_CASE = os.path.join(ROOT, "conformance", "cases", "pdf", "y_subsections_comments_indirect_length.pdf")
CASES = []


def case(function):
    CASES.append(function)
    return function


def run(args, expect, stderr_has=None, **kwargs):
    kwargs.setdefault("stdout", subprocess.PIPE)
    p = subprocess.run([BINARY] + args, stderr=subprocess.PIPE, **kwargs)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == expect, f"{args}: exit {p.returncode}, expected {expect}: {err}"
    for text in [stderr_has] if isinstance(stderr_has, str) else stderr_has or []:
        assert text in err, f"{args}: stderr lacks {text!r}: {err}"
    return p


def listing(directory):
    return sorted(os.listdir(directory))


def file_size_limit(limit, ignore_signal=True):
    """In the child: writes past `limit` bytes fail with EFBIG (SIGXFSZ ignored), like a full disk;
    without ignore_signal, SIGXFSZ is left as a shell leaves it and the program must cope."""
    def setup():
        if ignore_signal:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return setup


@case
def gen_strings_to_full_device(work):
    run(["gen", "strings", "--count", "10", "/dev/full"], 74, "/dev/full: io error: write failed: No space left on device")


@case
def dumps_and_digests_to_full_standard_output(work):
    with open("/dev/full", "wb") as full:
        for command in (["dump", "xlsx", XLSX_CASE], ["digest", "xlsx", XLSX_CASE], ["dump", "pdf", PDF_CASE],
                        ["dump", "utf8", XLSX_CASE], ["version"]):
            run(command, 74, "docconform: standard output: io error: write failed", stdout=full)


@case
def write_failure_keeps_old_outputs(work):
    strings = os.path.join(work, "s.jsonl")
    run(["gen", "strings", "--count", "20000", strings], 0)
    commands = [["gen", "strings", "--count", "20000"], ["gen", "xlsx", "--rows", "20000"], ["gen", "pdf", "--objects", "2000"],
                ["xls", "write", "--strings", strings]]
    commands += [["sst", "write", "--strings", strings, "--sink", sink] for sink in ("memory", "file", "stream", "zlib", "lz4")]
    for command in commands:
        target = os.path.join(work, "out")
        with open(target, "wb") as old:
            old.write(b"old")
        os.chmod(target, 0o640)
        run(command + [target], 74, [f"{target}: io error: ", "write failed: File too large"], preexec_fn=file_size_limit(64 << 10),
            restore_signals=False)
        with open(target, "rb") as kept:
            assert kept.read() == b"old", command
        assert listing(work) == ["out", "s.jsonl"], (command, listing(work))


@case
def file_size_limit_is_an_io_error_naming_the_output(work):
    """Under RLIMIT_FSIZE with SIGXFSZ as a shell leaves it: an error naming the output, the old file kept."""
    limit = file_size_limit(64 << 10, ignore_signal=False)
    pdf = os.path.join(work, "in.pdf")
    run(["gen", "pdf", "--objects", "2000", pdf], 0)
    target = os.path.join(work, "out")
    for command in (["gen", "strings", "--count", "20000", target], ["dump", "pdf", pdf, "--level", "3", "--output", target]):
        with open(target, "wb") as old:
            old.write(b"old")
        run(command, 74, [f"{target}: io error: ", "write failed: File too large"], preexec_fn=limit)
        with open(target, "rb") as kept:
            assert kept.read() == b"old", command
        assert listing(work) == ["in.pdf", "out"], (command, listing(work))
    with open(target, "wb") as redirected:
        run(["dump", "pdf", pdf, "--level", "3"], 74, "standard output: io error: write failed: File too large",
            stdout=redirected, preexec_fn=limit)


def writing_in(pid, directory):
    """Whether the process has a file of the directory open for writing with bytes in it: its
    temporary file, named or not (an unnamed one shows in /proc as "DIR/#INODE (deleted)")."""
    fds = "/proc/%d/fd" % pid
    try:
        for fd in os.listdir(fds):
            target = os.readlink(os.path.join(fds, fd))
            with open("/proc/%d/fdinfo/%s" % (pid, fd)) as info:
                flags = int(re.search(r"^flags:\s+([0-7]+)", info.read(), re.M).group(1), 8)
            if target.startswith(directory + "/") and flags & os.O_ACCMODE != os.O_RDONLY and os.stat(os.path.join(fds, fd)).st_size > 0:
                return True
    except OSError:  # the process ended, or a descriptor closed while looked at
        pass
    return False


@case
def signal_mid_write_keeps_old_output(work):
    strings = os.path.join(work, "s.jsonl")
    run(["gen", "strings", "--count", "262144", strings], 0)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):  # no handler runs on SIGKILL
        target = os.path.join(work, "out.zlib")
        with open(target, "wb") as old:
            old.write(b"old")
        child = subprocess.Popen([BINARY, "sst", "write", "--strings", strings, "--writer", "naive", "--sink", "zlib", target],
                                 stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not writing_in(child.pid, work):
            assert child.poll() is None and time.monotonic() < deadline, "the writer ended before it was signalled"
            time.sleep(0.002)
        child.send_signal(sig)
        assert child.wait() == -sig, child.returncode
        with open(target, "rb") as kept:
            assert kept.read() == b"old"
        assert listing(work) == ["out.zlib", "s.jsonl"], listing(work)


@case
def pdf_append_temporary_name_is_not_predictable(work):
    victim = os.path.join(work, "victim")
    with open(victim, "wb") as f:
        f.write(b"victim")
    out = os.path.join(work, "out.pdf")
    os.symlink(victim, out + ".partial")
    run(["pdf", "append", PDF_CASE, out, "--info", "Title=X"], 0)
    with open(victim, "rb") as f:
        assert f.read() == b"victim"
    assert os.path.islink(out + ".partial") and not os.path.islink(out)
    assert listing(work) == ["out.pdf", "out.pdf.partial", "victim"], listing(work)


@case
def pdf_append_in_place_keeps_mode(work):
    out = os.path.join(work, "in.pdf")
    shutil.copy(PDF_CASE, out)
    os.chmod(out, 0o600)
    run(["pdf", "append", out, out, "--info", "Title=X"], 0)
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    run(["dump", "pdf", "--level", "3", out], 0)
    assert listing(work) == ["in.pdf"], listing(work)


@case
def pdf_append_refuses_non_regular_output(work):
    fifo = os.path.join(work, "fifo")
    os.mkfifo(fifo)
    targets = [fifo]
    if os.geteuid() == 0:  # a device node of our own: a writer that replaced it must not take the system's /dev/null
        targets.append(os.path.join(work, "null"))
        os.mknod(targets[-1], 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    for target in targets:
        before = os.stat(target)
        run(["pdf", "append", PDF_CASE, target, "--info", "Title=X"], 74, f"{target}: io error: not a regular file: not replaced")
        after = os.stat(target)
        assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode), target


@case
def sst_file_sink_refuses_non_regular_output(work):
    # The file sink writes at the SST's own offsets: into standard output it overwrote what the
    # output already held; a FIFO cannot seek.
    strings = os.path.join(work, "s.jsonl")
    run(["gen", "strings", "--count", "100", strings], 0)
    fifo = os.path.join(work, "fifo")
    os.mkfifo(fifo)
    for target, name in (("-", "standard output"), (fifo, fifo)):
        p = run(["sst", "write", "--strings", strings, "--sink", "file", target], 74, f"{name}: io error: not a regular file: not replaced")
        assert p.stdout == b"", p.stdout[:40]
    run(["sst", "write", "--strings", strings, "--sink", "stream", "-"], 0)


@case
def pdf_append_never_writes_what_its_reader_refuses(work):
    out = os.path.join(work, "bad.pdf")
    run(["pdf", "append", PDF_CASE, out, "--object", "11=(text)"], 1,
        f"{out}: object 10 0: offset 252: format error: not written: this reader refuses the result: stream /Length")
    assert listing(work) == [], listing(work)


@case
def read_only_directory_keeps_old_output(work):
    target = os.path.join(work, "out.jsonl")
    with open(target, "wb") as old:
        old.write(b"old")
    os.chmod(target, 0o666)
    os.chmod(work, 0o555)
    as_nobody = {"user": 65534, "group": 65534} if os.geteuid() == 0 else {}
    try:
        run(["gen", "strings", "--count", "10", target], 74, f"{target}: io error: cannot create a temporary file", **as_nobody)
    finally:
        os.chmod(work, 0o755)
    with open(target, "rb") as kept:
        assert kept.read() == b"old"
    assert listing(work) == ["out.jsonl"]


@case
def conform_reports_to_full_device(work):
    run(["conform", "run", "--root", ROOT, "--format", "utf8", "--impl", "reference", "--no-progress", "--json", "/dev/full"], 74,
        "/dev/full: io error: write failed: No space left on device", stdout=subprocess.DEVNULL)


@case
def golden_update_on_a_full_file_system_keeps_the_dumps(work):
    for part in ("conformance/cases/utf8", "conformance/adapters", "golden/utf8"):
        shutil.copytree(os.path.join(ROOT, part), os.path.join(work, part), ignore=shutil.ignore_patterns("node_modules"))
    shutil.copy(os.path.join(ROOT, "golden", "utf8.sha256"), os.path.join(work, "golden"))
    shutil.copy(os.path.join(ROOT, "conformance", "SPEC.md"), os.path.join(work, "conformance"))
    dumps = os.path.join(work, "golden", "utf8")
    ledger_path = os.path.join(work, "golden", "utf8.sha256")
    before = {name: open(os.path.join(dumps, name), "rb").read() for name in os.listdir(dumps)}
    ledger = open(ledger_path, "rb").read()
    case_path = os.path.join(work, "conformance", "cases", "utf8", "y_ascii.bin")
    case = open(case_path, "rb").read()
    with open(case_path, "ab") as case_file:
        case_file.write(b"more")
    # A changed case: its dump does not fit (16 bytes), or it fits and the ledger does not (1 KiB).
    # Nothing is put in place either way, so the dumps still hash to the ledger's entries.
    for limit, failing in ((16, "y_ascii.bin.dump"), (1024, "utf8.sha256")):
        run(["golden", "update", "--root", work, "--format", "utf8", "--no-consensus"], 74,
            f"{failing}: io error: write failed: File too large", preexec_fn=file_size_limit(limit), restore_signals=False,
            stdout=subprocess.DEVNULL)
        assert {name: open(os.path.join(dumps, name), "rb").read() for name in os.listdir(dumps)} == before
        assert open(ledger_path, "rb").read() == ledger
        assert not [f for f in os.listdir(os.path.join(work, "golden")) if f.startswith(".")], os.listdir(os.path.join(work, "golden"))
    open(case_path, "wb").write(case)
    # golden check refuses a readable dump that is empty (what the unchecked write used to leave).
    run(["golden", "check", "--root", work, "--format", "utf8"], 0, stdout=subprocess.DEVNULL)
    name = sorted(before)[0]
    open(os.path.join(dumps, name), "wb").close()
    p = run(["golden", "check", "--root", work, "--format", "utf8"], 1)
    assert f"FAIL utf8/{name[:-5]}: the readable dump" in p.stdout.decode(), p.stdout.decode()


@case
def a_directory_that_cannot_be_made_is_an_io_error(work):
    # Not an internal error: the system's reason, with the path.
    blocker = os.path.join(work, "file")
    open(blocker, "wb").close()
    run(["conform", "mine", "--root", ROOT, "--format", "utf8", "--impl", "reference", "--seconds", "1", "--out", os.path.join(blocker, "x")],
        74, f"{blocker}/x/utf8: io error: Not a directory", stdout=subprocess.DEVNULL)


@case
def golden_refuses_a_ledger_it_cannot_read(work):
    root = os.path.join(work, "root")
    for part in ("conformance/cases/utf8", "golden/utf8"):
        shutil.copytree(os.path.join(ROOT, part), os.path.join(root, part))
    shutil.copy(os.path.join(ROOT, "conformance", "SPEC.md"), os.path.join(root, "conformance"))
    os.mkdir(os.path.join(root, "golden", "utf8.sha256"))  # there, but not a readable file
    for command in ("check", "update"):
        run(["golden", command, "--root", root, "--format", "utf8", "--no-consensus"][:6 if command == "check" else 7], 74,
            "utf8.sha256: io error: is a directory", stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    sys.exit(run_cases(CASES, ONLY, "docconform-output-rules-"))
