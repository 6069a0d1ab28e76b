#!/usr/bin/python3
"""Write SIZE pseudo-random bytes from SEED to OUT (hostile inputs too large to check in)."""
import random
import sys

if len(sys.argv) != 4:
    sys.exit("usage: random_bytes.py SIZE SEED OUT")
size, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with open(out, "wb") as file:
    file.write(random.Random(seed).randbytes(size))
