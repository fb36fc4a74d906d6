#!/usr/bin/env python3
# Writes this sample's inputs (deterministic): in.bin (1024 ints) and
# in16.bin (640 int4, 10240 bytes).
import struct

def ints(path, n, seed):
    x = seed
    vals = []
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7fffffff
        vals.append((x >> 8) % 20001 - 10000)
    with open(path, "wb") as f:
        f.write(struct.pack("<%di" % n, *vals))

ints("in.bin", 1024, 3)
ints("in16.bin", 2560, 5)
