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
    gen_more()


def bits_f32(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


# Float inputs that exercise the corners: zeros, denormals, the largest and
# smallest normals, infinities, NaNs, halfway cases of rounding, big integers.
SPECIAL_F32 = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 3.0, 1e-45, -1e-45, 1.17549435e-38, 1e-40,
               3.4028235e38, -3.4028235e38, float('inf'), float('-inf'), float('nan'), 65504.0, 65520.0,
               6e-8, 1e-5, 2147483648.0, -2147483904.0, 4294967296.0, 1e10, -1e10, 0.1, 100.0, 448.0,
               464.0, 57344.0, 3.14159265, -7.75, 1.0009765625, 0.33333334, 255.5, -0.0001]


def gen_more():
    r = Lcg(10)
    write('alloca', 'sizes.bin', 'I', [r.range(1, 65) for _ in range(64)])
    r = Lcg(11)
    write('cache_hints', 'a.bin', 'f', [r.float(-4, 4) for _ in range(128)])
    write('cache_hints', 'b.bin', 'i', [r.range(-(1 << 31), 1 << 31) for _ in range(512)])
    write('cache_hints', 'c.bin', 'd', [r.float(-1e3, 1e3) * 1.000001 for _ in range(128)])
    r = Lcg(12)
    vals = [r.range(-60, 100) for _ in range(64)]
    vals[3] = 7
    write('warp_vote', 'in.bin', 'i', vals)
    r = Lcg(13)
    write('warp_shuffle', 'in.bin', 'i', [r.range(-1000, 1000) for _ in range(64)])
    r = Lcg(14)
    write('warp_reduce_match', 'in.bin', 'I', [r.u32() if i % 5 else r.range(0, 100) for i in range(64)])
    # wmma: multiples of 1/8 in [-2, 2], stored as binary16.
    r = Lcg(15)
    write('wmma', 'a.bin', 'e', [r.range(-16, 17) / 8 for _ in range(256)])
    write('wmma', 'b.bin', 'e', [r.range(-16, 17) / 8 for _ in range(256)])
    write('wmma', 'c.bin', 'f', [r.range(-64, 65) / 4 for _ in range(256)])
    r = Lcg(16)
    write('async_copy', 'in.bin', 'i', [r.range(-100, 100) for _ in range(1024)])
    write('async_copy', 'f.bin', 'f', [r.float(-10, 10) for _ in range(256)])
    vals = [i * 3 for i in range(64)]
    vals[37] = 1000            # block 1, thread 5 fails the assertion
    write('assert', 'in.bin', 'i', vals)
    write('assert', 'ok.bin', 'i', [i * 3 for i in range(64)])
    r = Lcg(17)
    edges = [0, 0x7f7f7f7f, 0x80808080, 0xffffffff, 0x01ff80fe, 0x7fff8000, 0x00010001, 0x80007fff]
    a = edges + [r.u32() for _ in range(56)]
    b = [edges[(i * 3) % 8] for i in range(8)] + [r.u32() for _ in range(56)]
    write('simd_video', 'a.bin', 'I', a)
    write('simd_video', 'b.bin', 'I', b)
    r = Lcg(18)
    hv = SPECIAL_F32 + [r.float(-300, 300) for _ in range(128 - len(SPECIAL_F32))]
    write('half_bf16_fp8', 'in.bin', 'f', [hv[i] if i % 2 == 0 else hv[(i * 7 + 3) % 128] for i in range(128)])
    # Math: specials first, then a wide logarithmic sweep of both signs.
    r = Lcg(19)
    f = SPECIAL_F32 + [(-1) ** i * 10 ** r.float(-6, 6) for i in range(256 - len(SPECIAL_F32))]
    write('libdevice_math', 'f.bin', 'f', [f[i] if i % 2 == 0 else f[(i * 37 + 11) % 256] for i in range(256)])
    d = [0.0, -0.0, 1.0, -1.0, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, float('inf'),
         float('-inf'), float('nan'), 0.5, 3.141592653589793, 1e-300, 1e300, 710.0, -745.0, 171.5, -0.5]
    d += [(-1) ** i * 10 ** (r.float(-30, 30)) * 1.0000000001 for i in range(256 - len(d))]
    write('libdevice_math', 'd.bin', 'd', [d[i] if i % 2 == 0 else d[(i * 37 + 11) % 256] for i in range(256)])
    r = Lcg(20)
    ia = [-2147483648, -2147483648, 2147483647, 0, -1, 1, 7, -7, 100, -100, 0x40000000, 12345678]
    ib = [-1, 0, 0, 0, 0, 32, 33, 31, 64, 63, 65, -2]
    ia += [r.range(-(1 << 31), 1 << 31) for _ in range(64 - len(ia))]
    ib += [r.range(-(1 << 31), 1 << 31) if i % 3 else r.range(-3, 70) for i in range(64 - len(ib))]
    write('int_float_edge', 'ia.bin', 'i', ia)
    write('int_float_edge', 'ib.bin', 'i', ib)
    fa = SPECIAL_F32 + [r.float(-5e9, 5e9) if i % 2 else r.float(-3, 3) for i in range(64 - len(SPECIAL_F32))]
    fb = [SPECIAL_F32[(i * 5 + 2) % len(SPECIAL_F32)] for i in range(len(SPECIAL_F32))]
    fb += [r.float(-1e-38, 1e-38) if i % 3 == 0 else r.float(-10, 10) for i in range(64 - len(fb))]
    write('int_float_edge', 'fa.bin', 'f', fa)
    write('int_float_edge', 'fb.bin', 'f', fb)
    r = Lcg(21)
    v = []
    for i in range(64):
        c = r.u32()
        if i < 16:              # small and boundary positions/lengths first
            c = (c & ~0x3f3f) | (i * 3 % 40) | ((i * 5 % 40) << 8)
        v += [r.u32(), r.u32(), c]
    write('asm_prmt_bfe', 'in.bin', 'I', v)
    r = Lcg(22)
    v = []
    for i in range(64):
        v += [r.u32(), r.u32(), r.u32(), i * 2 if i < 40 else r.u32()]
    write('asm_lop3_shf', 'in.bin', 'I', v)
    r = Lcg(23)
    v = []
    for i in range(64):
        row = [r.u32() for _ in range(8)]
        if i < 4:               # carries that ripple all the way through
            row = [0xffffffff, 0xffffffff, 0xffffffff, 0x7fffffff, 1, 0, 0, 0x80000000][:8]
            row[4] = i
            row[3] = bits_f32([1e-40, 1.0, 0.0, float('nan')][i])
        v += row
    write('asm_misc', 'in.bin', 'I', v)
    r = Lcg(24)
    write('coop_groups', 'in.bin', 'i', [r.range(-50, 50) for _ in range(96)])
    r = Lcg(25)
    write('syncwarp', 'in.bin', 'i', [r.range(-100, 100) for _ in range(64)])
    r = Lcg(26)
    d = [1.0, 3.0, 0.1, 2.0, 1e-310, -0.5, 1e308, 10.0, -1e308, 0.0, -0.0, 1.0, float('inf'), 1.0, 2.0,
         float('nan'), 2.0, 3.0, 1.0000000000000002, 0.9999999999999999, -1e-300, 4.9e-324, 0.5, 1e-20,
         9007199254740993.0, 3.0, 1e19, -1.5, 2.5, -3.5e9]
    d += [(-1) ** i * 10 ** r.float(-40, 40) * 1.0000000000001 for i in range(192 - len(d))]
    write('double_rounding', 'in.bin', 'd', d)
    r = Lcg(27)
    write('many_blocks', 'in.bin', 'I', [r.u32() for _ in range(50000)])


if __name__ == '__main__':
    gen()
    sys.exit(0)
