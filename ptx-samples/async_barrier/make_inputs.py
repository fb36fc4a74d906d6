#!/usr/bin/env python3
# Writes this sample's inputs (deterministic): split.bin (512 floats) and
# pc_in.bin (1024 floats), small multiples of 1/8 so every sum is exact.
import struct

def floats(path, n, seed):
    x = seed
    vals = []
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7fffffff
        vals.append(((x >> 8) % 2001 - 1000) / 8.0)
    with open(path, "wb") as f:
        f.write(struct.pack("<%df" % n, *vals))

floats("split.bin", 512, 7)
floats("pc_in.bin", 1024, 11)
