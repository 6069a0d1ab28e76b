"""A fake implementation with a batch mode that breaks the protocol on the cases named for it:
_crash (killed by a signal), _hang (never answers), _lie (a frame claiming fewer bytes than it
holds), _garbage (a line outside any frame); every other case gets the reference's dump. Run on
one input, _crash and _hang do the same and the others are dumped.
Usage: batch_faults.py DOCCONFORM INPUT | batch_faults.py DOCCONFORM --batch"""
import os
import signal
import subprocess
import sys
import time


def dump(docconform, path):
    if "_crash" in path:
        os.kill(os.getpid(), signal.SIGKILL)
    if "_hang" in path:
        time.sleep(60)
    return subprocess.run([docconform, "dump", "utf8", path], capture_output=True, check=True).stdout


def main():
    docconform = sys.argv[1]
    if sys.argv[2] != "--batch":
        sys.stdout.buffer.write(dump(docconform, sys.argv[2]))
        return 0
    frames = sys.stdout.buffer
    for line in sys.stdin.buffer:
        path = line.rstrip(b"\n").decode()
        data = dump(docconform, path)
        if "_garbage" in path:
            frames.write(b"a warning outside frames\n")
        claimed = len(data) - 5 if "_lie" in path else len(data)
        frames.write(b"frame 0 %d 0\n" % claimed + data + b"end\n")
        frames.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
