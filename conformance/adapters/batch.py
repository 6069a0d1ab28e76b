"""Batch mode of the adapter protocol (conformance/SPEC.md section 2, "Batch mode"), shared by the
Python adapters: `ADAPTER.py --batch ARGS...` reads input paths on stdin, one per line, runs the
adapter's main() on each as `ADAPTER.py INPUT ARGS...` would run, and answers each with a frame.

main() reads sys.argv and writes the dump on sys.stdout (or fd 1), as a one-input run does; its
exit status is what it returns or passes to sys.exit, 1 with the traceback for an uncaught
exception. Around each input, fds 1 and 2 are files of that input (so output of libraries and
child processes is framed too) and fd 0 is /dev/null; the requests and frames use copies of the
original descriptors."""
import os
import shutil
import sys
import tempfile
import traceback


def _exit_status(code):
    """The status a process exiting through SystemExit(code) ends with."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    sys.stderr.write("%s\n" % code)
    return 1


def _run(main, argv):
    sys.argv = argv
    try:
        return _exit_status(main())
    except SystemExit as e:
        return _exit_status(e.code)
    except Exception:  # what an uncaught exception does to a one-input run: exit 1 with a traceback
        traceback.print_exc()
        return 1


def serve(main):
    """The adapter's entry point: one input (argv as main() reads it), or batch mode after --batch."""
    if sys.argv[1:2] != ["--batch"]:
        return main()
    requests = os.fdopen(os.dup(0), "rb")
    frames = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    fixed = [sys.argv[0]], sys.argv[2:]
    for line in requests:
        path = os.fsdecode(line[:-1] if line.endswith(b"\n") else line)
        for f in (out, err):
            f.seek(0)
            f.truncate()
        status = _run(main, fixed[0] + [path] + fixed[1])
        sys.stdout.flush()
        sys.stderr.flush()
        sizes = [os.fstat(f.fileno()).st_size for f in (out, err)]
        frames.write(b"frame %d %d %d\n" % (status, sizes[0], sizes[1]))
        for f in (out, err):
            f.seek(0)
            shutil.copyfileobj(f, frames)
        frames.write(b"end\n")
        frames.flush()
    return 0
