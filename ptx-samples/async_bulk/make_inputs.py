#!/usr/bin/env python3
# Writes this sample's input (deterministic): in.bin, 256 ints in [-10000, 10000].
import struct
x = 9
vals = []
for _ in range(256):
    x = (x * 1103515245 + 12345) & 0x7fffffff
    vals.append((x >> 8) % 20001 - 10000)
with open("in.bin", "wb") as f:
    f.write(struct.pack("<256i", *vals))
