#!/usr/bin/env python3
"""Writes the input files of the ptx samples. Deterministic (a fixed LCG, no
library randomness), so running it again reproduces the committed files."""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


class Lcg:
    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF

    def u32(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return self.s >> 32

    def range(self, lo, hi):          # lo <= v < hi
        return lo + self.u32() % (hi - lo)

    def float(self, lo, hi):          # a float32 value in [lo, hi)
        return struct.unpack('<f', struct.pack('<f', lo + (hi - lo) * self.u32() / 2**32))[0]


def write(sample, name, fmt, values):
    path = os.path.join(HERE, sample, name)
    with open(path, 'wb') as f:
        f.write(struct.pack('<%d%s' % (len(values), fmt), *values))


def gen():
    r = Lcg(1)
    write('vadd', 'a.bin', 'f', [r.float(-100, 100) for _ in range(512)])
    write('vadd', 'b.bin', 'f', [r.float(-1, 1) * (i % 7) for i in range(512)])
    r = Lcg(2)
    write('divergence', 'in.bin', 'I', [r.u32() for _ in range(192)])
    r = Lcg(3)
    write('early_exit', 'in.bin', 'i', [r.range(-20, 100) for _ in range(256)])
    r = Lcg(4)
    write('indirect_call', 'in.bin', 'i', [r.range(-1000, 1000) for _ in range(128)])
    r = Lcg(5)
    write('switch_brx', 'in.bin', 'i', [r.range(-2, 15) for _ in range(64)])
    r = Lcg(6)
    write('state_spaces', 'in.bin', 'i', [r.range(-500, 500) for _ in range(64)])
    r = Lcg(7)
    write('vector_ldst', 'a.bin', 'f', [r.float(-10, 10) for _ in range(256)])
    write('vector_ldst', 'b.bin', 'i', [r.range(-(1 << 30), 1 << 30) for _ in range(128)])
    r = Lcg(8)
    write('fences', 'x.bin', 'f', [r.float(0, 1) for _ in range(2000)])
    r = Lcg(9)
    vals = [r.range(-50, 50) for _ in range(128)]
    vals[77] = 12345
    vals[5] = 0
    write('barriers', 'in.bin', 'i', vals)
    for g in GENERATORS:
        g()


GENERATORS = []   # later samples register their own generators here


def generator(fn):
    GENERATORS.append(fn)
    return fn


if __name__ == '__main__':
    gen()
    sys.exit(0)
