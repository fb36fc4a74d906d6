#!/usr/bin/env python3
"""Writes the tensor-core samples' generated parts: the inputs and run.args of
wmma_types, wmma_guide, mma_subbyte, mma_sparse, wmma_frag and mma_f64, and the CUDA sources of
mma_subbyte and mma_sparse (one kernel per instruction form, operands passed
register by register so that every bit of every fragment is random).
Deterministic (the LCG of gen_inputs.py): rerunning it reproduces the files."""
import os
import struct

from gen_inputs import HERE, Lcg

SEEDS = 4   # blocks per launch, each on its own slice of the inputs


def put(sample, name, data):
    with open(os.path.join(HERE, sample, name), 'wb') as f:
        f.write(data)


def text(sample, name, s):
    with open(os.path.join(HERE, sample, name), 'w') as f:
        f.write(s)


# ---- random elements: mixed magnitudes, some zeros and subnormals ----

def f16_bits(r, elo, ehi):
    s = r.u32() & 1
    k = r.range(0, 100)
    if k < 4:
        return s << 15                                # signed zero
    if k < 7:
        return s << 15 | r.range(1, 1024)             # subnormal
    return s << 15 | (r.range(elo, ehi + 1) + 15) << 10 | r.range(0, 1024)


def bf16_bits(r, elo, ehi):
    s = r.u32() & 1
    if r.range(0, 100) < 4:
        return s << 15
    return s << 15 | (r.range(elo, ehi + 1) + 127) << 7 | r.range(0, 128)


def f32_bits(r, elo, ehi):
    s = r.u32() & 1
    if r.range(0, 100) < 4:
        return s << 31
    return s << 31 | (r.range(elo, ehi + 1) + 127) << 23 | (r.u32() & 0x7FFFFF)


def f64_bits(r, elo, ehi):
    s = r.u32() & 1
    if r.range(0, 100) < 4:
        return s << 63
    return s << 63 | (r.range(elo, ehi + 1) + 1023) << 52 | (r.u32() << 20 | r.u32() >> 12)


def fp8_bits(r, e5m2):
    while True:
        b = r.u32() & 0xFF
        if e5m2 and (b & 0x7C) != 0x7C:   # no inf/NaN
            return b
        if not e5m2 and (b & 0x7F) != 0x7F:
            return b


def i32_near_limits(r):
    k = r.range(0, 3)
    if k == 0:
        return r.u32()
    if k == 1:
        return 0x7FFFFFFF - r.range(0, 1 << 19)
    return 0x80000000 + r.range(0, 1 << 19)


PAIRS = [0x4, 0x8, 0xC, 0x9, 0xD, 0xE]   # two sorted 2-bit indices of four


def meta_word(r, tf32):
    w = 0
    for i in range(8):
        w |= (r.range(0, 2) * 0xA + 0x4 if tf32 else PAIRS[r.range(0, 6)]) << (4 * i)
    return w


def u16s(vals):
    return struct.pack('<%dH' % len(vals), *vals)


def u32s(vals):
    return struct.pack('<%dI' % len(vals), *vals)


def u64s(vals):
    return struct.pack('<%dQ' % len(vals), *vals)


# ---- wmma_types ----

WMMA = [  # kernel, A/B file prefix, C file, bits of A, bits of C, M, N, K, K steps, flags
    ('f16_f32_m16n16k16', 'h', 'f_c', 16, 32, 16, 16, 16, 2, [0]),
    ('f16_f32_m32n8k16', 'h', 'f_c', 16, 32, 32, 8, 16, 2, [0]),
    ('f16_f32_m8n32k16', 'h', 'f_c', 16, 32, 8, 32, 16, 2, [0]),
    ('f16_f16_m16n16k16', 'h', 'h_c', 16, 16, 16, 16, 16, 2, [0]),
    ('f16_f16_m32n8k16', 'h', 'h_c', 16, 16, 32, 8, 16, 2, [0]),
    ('f16_f16_m8n32k16', 'h', 'h_c', 16, 16, 8, 32, 16, 2, [0]),
    ('bf16_m16n16k16', 'bf', 'f_c', 16, 32, 16, 16, 16, 2, [0]),
    ('bf16_m32n8k16', 'bf', 'f_c', 16, 32, 32, 8, 16, 2, [0]),
    ('bf16_m8n32k16', 'bf', 'f_c', 16, 32, 8, 32, 16, 2, [0]),
    ('tf32_m16n16k8', 'tf', 'f_c', 32, 32, 16, 16, 8, 2, [0, 1]),
    ('f64_m8n8k4', 'd', 'd_c', 64, 64, 8, 8, 4, 2, [0]),
    ('s8_m16n16k16', 'i8', 'i_c', 8, 32, 16, 16, 16, 1, [0, 1]),
    ('s8_m32n8k16', 'i8', 'i_c', 8, 32, 32, 8, 16, 1, [0, 1]),
    ('s8_m8n32k16', 'i8', 'i_c', 8, 32, 8, 32, 16, 1, [0, 1]),
    ('u8_m16n16k16', 'i8', 'i_c', 8, 32, 16, 16, 16, 1, [0, 1]),
    ('u8_m32n8k16', 'i8', 'i_c', 8, 32, 32, 8, 16, 1, [0, 1]),
    ('u8_m8n32k16', 'i8', 'i_c', 8, 32, 8, 32, 16, 1, [0, 1]),
    ('s4_m8n8k32', 'i8', 'i_c', 4, 32, 8, 8, 32, 1, [0, 1]),
    ('u4_m8n8k32', 'i8', 'i_c', 4, 32, 8, 8, 32, 1, [0, 1]),
    ('b1_m8n8k128', 'i8', 'i_c', 1, 32, 8, 8, 128, 1, [0, 1]),
]


def slice_elems(rows, cols, bits):   # as slice() in wmma_types.cu
    return (rows * cols + 2 * (128 // bits) * max(rows, cols) + 1023) // 1024 * 1024


def wmma_types():
    smp = 'wmma_types'
    r = Lcg(101)
    n = SEEDS * 4096          # elements: at least SEEDS slices of any operand
    put(smp, 'h_a.bin', u16s([f16_bits(r, -8, 4) for _ in range(n)]))
    put(smp, 'h_b.bin', u16s([f16_bits(r, -8, 4) for _ in range(n)]))
    put(smp, 'h_c.bin', u16s([f16_bits(r, -6, 6) for _ in range(n)]))
    put(smp, 'bf_a.bin', u16s([bf16_bits(r, -12, 8) for _ in range(n)]))
    put(smp, 'bf_b.bin', u16s([bf16_bits(r, -12, 8) for _ in range(n)]))
    put(smp, 'tf_a.bin', u32s([f32_bits(r, -10, 8) for _ in range(n)]))
    put(smp, 'tf_b.bin', u32s([f32_bits(r, -10, 8) for _ in range(n)]))
    put(smp, 'f_c.bin', u32s([f32_bits(r, -8, 8) for _ in range(n)]))
    put(smp, 'd_a.bin', u64s([f64_bits(r, -20, 20) for _ in range(SEEDS * 1024)]))
    put(smp, 'd_b.bin', u64s([f64_bits(r, -20, 20) for _ in range(SEEDS * 1024)]))
    put(smp, 'd_c.bin', u64s([f64_bits(r, -20, 20) for _ in range(SEEDS * 1024)]))
    put(smp, 'i8_a.bin', u32s([r.u32() for _ in range(n // 4 * 2)]))
    put(smp, 'i8_b.bin', u32s([r.u32() for _ in range(n // 4 * 2)]))
    put(smp, 'i_c.bin', u32s([i32_near_limits(r) for _ in range(n)]))
    lines = []
    for name, ab, c, ba, bc, m, nn, k, ks, flags in WMMA:
        dbytes = SEEDS * 4 * slice_elems(m, nn, bc) * bc // 8
        for fl in flags:
            lines.append('--kernel %s --grid %d --block %d --arg file:%s_a.bin --arg file:%s_b.bin '
                         '--arg file:%s.bin --arg zeros:%d --arg u32:%d --out 3=d.bin'
                         % (name, SEEDS, 128 if ba >= 8 else 32, ab, ab, c, dbytes, fl))
    text(smp, 'run.args', '\n'.join(lines) + '\n')


# ---- wmma_guide: the guide's example on three sets of random inputs ----

def wmma_guide():
    smp = 'wmma_guide'
    r = Lcg(102)
    lines = []
    for s in range(3):
        put(smp, 'a%d.bin' % s, u16s([f16_bits(r, -6, 3) for _ in range(256)]))
        put(smp, 'b%d.bin' % s, u16s([f16_bits(r, -6, 3) for _ in range(256)]))
        lines.append('--kernel wmma_ker --grid 1 --block 32 --arg file:a%d.bin --arg file:b%d.bin '
                     '--arg zeros:1024 --out 2=c.bin' % (s, s))
    text(smp, 'run.args', '\n'.join(lines) + '\n')


# ---- mma.sync forms, one kernel each, operands register by register ----

# (kernel, instruction, A file, B file, C file, A regs, B regs, C regs, D regs, C/D float?)
SUBBYTE = []
for at, bt in (('s8', 's8'), ('u8', 's8')):
    for sat in ('', '.satfinite'):
        SUBBYTE.append(('m8n8k16_%s%s%s' % (at, bt, sat.replace('.', '_')),
                        'mma.sync.aligned.m8n8k16.row.col%s.s32.%s.%s.s32' % (sat, at, bt), 1, 1, 2))
for at, bt in (('s4', 's4'), ('u4', 'u4'), ('s4', 'u4'), ('u4', 's4')):
    for sat in ('', '.satfinite'):
        SUBBYTE.append(('m8n8k32_%s%s%s' % (at, bt, sat.replace('.', '_')),
                        'mma.sync.aligned.m8n8k32.row.col%s.s32.%s.%s.s32' % (sat, at, bt), 1, 1, 2))
    for shape, na, nb in (('m16n8k32', 2, 1), ('m16n8k64', 4, 2)):
        SUBBYTE.append(('%s_%s%s' % (shape, at, bt),
                        'mma.sync.aligned.%s.row.col.s32.%s.%s.s32' % (shape, at, bt), na, nb, 4))
SUBBYTE.append(('m16n8k64_s4s4_satfinite', 'mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32', 4, 2, 4))
for op in ('xor', 'and'):
    for shape, na, nb, nc in (('m8n8k128', 1, 1, 2), ('m16n8k128', 2, 1, 4), ('m16n8k256', 4, 2, 4)):
        SUBBYTE.append(('%s_b1_%s' % (shape, op),
                        'mma.sync.aligned.%s.row.col.s32.b1.b1.s32.%s.popc' % (shape, op), na, nb, nc))
FP8 = []
for at in ('e4m3', 'e5m2'):
    for bt in ('e4m3', 'e5m2'):
        FP8.append(('m16n8k32_%s%s_f32' % (at, bt),
                    'mma.sync.aligned.m16n8k32.row.col.f32.%s.%s.f32' % (at, bt), at, bt, 'f32'))
        FP8.append(('m16n8k32_%s%s_f16' % (at, bt),
                    'mma.sync.aligned.m16n8k32.row.col.f16.%s.%s.f16' % (at, bt), at, bt, 'f16'))

# sparse: (kernel, shape, types, A file, B file, C kind, A regs, B regs, C regs, selectors)
SPARSE = [
    ('sp_m16n8k16_f16_f32', 'm16n8k16', 'f32.f16.f16.f32', 'h', 'h', 'f32', 2, 2, 4, 4),
    ('sp_m16n8k16_f16_f16', 'm16n8k16', 'f16.f16.f16.f16', 'h', 'h', 'f16', 2, 2, 2, 4),
    ('sp_m16n8k32_f16_f32', 'm16n8k32', 'f32.f16.f16.f32', 'h', 'h', 'f32', 4, 4, 4, 2),
    ('sp_m16n8k32_f16_f16', 'm16n8k32', 'f16.f16.f16.f16', 'h', 'h', 'f16', 4, 4, 2, 2),
    ('sp_m16n8k16_bf16', 'm16n8k16', 'f32.bf16.bf16.f32', 'bf', 'bf', 'f32', 2, 2, 4, 4),
    ('sp_m16n8k32_bf16', 'm16n8k32', 'f32.bf16.bf16.f32', 'bf', 'bf', 'f32', 4, 4, 4, 2),
    ('sp_m16n8k8_tf32', 'm16n8k8', 'f32.tf32.tf32.f32', 'tf', 'tf', 'f32', 2, 2, 4, 4),
    ('sp_m16n8k16_tf32', 'm16n8k16', 'f32.tf32.tf32.f32', 'tf', 'tf', 'f32', 4, 4, 4, 2),
    ('sp_m16n8k32_s8', 'm16n8k32', 's32.s8.s8.s32', 'i', 'i', 'i32', 2, 2, 4, 2),
    ('sp_m16n8k32_u8s8_satfinite', 'm16n8k32', 'satfinite.s32.u8.s8.s32', 'i', 'i', 'i32', 2, 2, 4, 2),
    ('sp_m16n8k64_u8', 'm16n8k64', 's32.u8.u8.s32', 'i', 'i', 'i32', 4, 4, 4, 1),
    ('sp_m16n8k64_s4', 'm16n8k64', 's32.s4.s4.s32', 'i', 'i', 'i32', 2, 2, 4, 2),
    ('sp_m16n8k128_u4s4', 'm16n8k128', 's32.u4.s4.s32', 'i', 'i', 'i32', 4, 4, 4, 1),
    ('sp_m16n8k64_e4m3', 'm16n8k64', 'f32.e4m3.e4m3.f32', 'e4m3', 'e4m3', 'f32', 4, 4, 4, 1),
    ('sp_m16n8k64_e5m2e4m3', 'm16n8k64', 'f32.e5m2.e4m3.f32', 'e5m2', 'e4m3', 'f32', 4, 4, 4, 1),
]


def kernel(name, body_asm, na, nb, nc, nd, fc, meta_sels=None):
    """One kernel: block b is seed b; reads its registers, runs the asm, writes
    D. With metadata: blockIdx.y picks the selector, blockIdx.z plain .sp (0) or
    ::ordered_metadata (1); every (selector, variant, seed) has its own D slice."""
    cons = 'f' if fc else 'r'
    L = ['extern "C" __global__ void %s(const unsigned *A, const unsigned *B, const unsigned *C,'
         ' const unsigned *E, unsigned *D)' % name, '{']
    L.append('    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;')
    L.append('    unsigned a[%d], b[%d], d[%d];' % (na, nb, nd))
    L.append('    %s c[%d];' % ('float' if fc else 'unsigned', nc))
    L.append('    for (int i = 0; i < %d; i++) a[i] = A[(s * %d + i) * 32 + l];' % (na, na))
    L.append('    for (int i = 0; i < %d; i++) b[i] = B[(s * %d + i) * 32 + l];' % (nb, nb))
    L.append('    for (int i = 0; i < %d; i++) c[i] = %s;'
             % (nc, ('__uint_as_float(C[(s * %d + i) * 32 + l])' if fc else 'C[(s * %d + i) * 32 + l]') % nc))
    dst = ', '.join('%%%d' % i for i in range(nd))
    k = nd
    aa = ', '.join('%%%d' % (k + i) for i in range(na)); k += na
    bb = ', '.join('%%%d' % (k + i) for i in range(nb)); k += nb
    cc = ', '.join('%%%d' % (k + i) for i in range(nc)); k += nc
    outs = ', '.join('"=%s"(%s)' % (cons, ('*(float *)&d[%d]' if fc else 'd[%d]') % i) for i in range(nd))
    ins = ', '.join(['"r"(a[%d])' % i for i in range(na)] + ['"r"(b[%d])' % i for i in range(nb)] +
                    ['"%s"(c[%d])' % (cons, i) for i in range(nc)])
    if meta_sels is None:
        L.append('    asm volatile("%s {%s}, {%s}, {%s}, {%s};" : %s : %s);' % (body_asm, dst, aa, bb, cc, outs, ins))
    else:
        L.append('    unsigned e = E[s * 32 + l];')
        L.append('    switch (blockIdx.z * 4 + blockIdx.y) {')
        for var, sp in enumerate(('mma.sp', 'mma.sp::ordered_metadata')):
            for sel in range(meta_sels):
                L.append('    case %d: asm volatile("%s {%s}, {%s}, {%s}, {%s}, %%%d, %d;" : %s : %s, "r"(e)); break;'
                         % (var * 4 + sel, body_asm.replace('mma.sp', sp), dst, aa, bb, cc, k, sel, outs, ins))
        L.append('    default: return;')
        L.append('    }')
    L.append('    for (int i = 0; i < %d; i++) D[(o * %d + i) * 32 + l] = d[i];' % (nd, nd))
    L.append('}')
    return '\n'.join(L) + '\n'


def mma_subbyte():
    smp = 'mma_subbyte'
    src = ['// mma_subbyte: every sub-byte, b1, 8-bit m8n8k16 and fp8 form of mma.sync, one kernel',
           '// each; the operands are random registers (gen_tensor.py writes this file).', '']
    lines = []
    for name, insn, na, nb, nc in SUBBYTE:
        src.append(kernel(name, insn, na, nb, nc, nc, False))
        lines.append('--kernel %s --grid %d --block 32 --arg file:i_a.bin --arg file:i_b.bin --arg file:i_c.bin '
                     '--arg null --arg zeros:%d --out 4=d.bin' % (name, SEEDS, SEEDS * nc * 128))
    for name, insn, at, bt, ct in FP8:
        nc = 4 if ct == 'f32' else 2
        src.append(kernel(name, insn, 4, 2, nc, nc, ct == 'f32'))
        lines.append('--kernel %s --grid %d --block 32 --arg file:%s_a.bin --arg file:%s_b.bin --arg file:%s_c.bin '
                     '--arg null --arg zeros:%d --out 4=d.bin' % (name, SEEDS, at, bt, ct, SEEDS * nc * 128))
    text(smp, 'mma_subbyte.cu', '\n'.join(src))
    text(smp, 'run.args', '\n'.join(lines) + '\n')
    r = Lcg(103)
    n = SEEDS * 4 * 32
    put(smp, 'i_a.bin', u32s([r.u32() for _ in range(n)]))
    put(smp, 'i_b.bin', u32s([r.u32() for _ in range(n)]))
    put(smp, 'i_c.bin', u32s([i32_near_limits(r) for _ in range(n)]))
    for t in ('e4m3', 'e5m2'):
        for x in ('a', 'b'):
            put(smp, '%s_%s.bin' % (t, x), bytes(fp8_bits(r, t == 'e5m2') for _ in range(4 * n)))
    put(smp, 'f32_c.bin', u32s([f32_bits(r, -6, 10) for _ in range(n)]))
    put(smp, 'f16_c.bin', u16s([f16_bits(r, -6, 10) for _ in range(2 * n)]))


def mma_sparse():
    smp = 'mma_sparse'
    src = ['// mma_sparse: mma.sp and mma.sp::ordered_metadata in every shape and type, every',
           '// sparsity selector; operands and metadata are random registers (the metadata',
           '// holds valid sorted index pairs); gen_tensor.py writes this file.', '']
    lines = []
    cfile = {'f32': 'f32_c', 'f16': 'f16_c', 'i32': 'i_c'}
    for name, shape, types, af, bf, ct, na, nb, nc, sels in SPARSE:
        insn = 'mma.sp.sync.aligned.%s.row.col.%s' % (shape, types)
        src.append(kernel(name, insn, na, nb, nc, nc, ct == 'f32', sels))
        meta = 'meta_tf32' if af == 'tf' else 'meta'
        lines.append('--kernel %s --grid %d,%d,2 --block 32 --arg file:%s_a.bin --arg file:%s_b.bin --arg file:%s.bin '
                     '--arg file:%s.bin --arg zeros:%d --out 4=d.bin'
                     % (name, SEEDS, sels, af, bf, cfile[ct], meta, SEEDS * sels * 2 * nc * 128))
    text(smp, 'mma_sparse.cu', '\n'.join(src))
    text(smp, 'run.args', '\n'.join(lines) + '\n')
    r = Lcg(104)
    n = SEEDS * 4 * 32
    put(smp, 'h_a.bin', u16s([f16_bits(r, -8, 4) for _ in range(2 * n)]))
    put(smp, 'h_b.bin', u16s([f16_bits(r, -8, 4) for _ in range(2 * n)]))
    put(smp, 'bf_a.bin', u16s([bf16_bits(r, -12, 8) for _ in range(2 * n)]))
    put(smp, 'bf_b.bin', u16s([bf16_bits(r, -12, 8) for _ in range(2 * n)]))
    put(smp, 'tf_a.bin', u32s([f32_bits(r, -10, 8) for _ in range(n)]))
    put(smp, 'tf_b.bin', u32s([f32_bits(r, -10, 8) for _ in range(n)]))
    put(smp, 'i_a.bin', u32s([r.u32() for _ in range(n)]))
    put(smp, 'i_b.bin', u32s([r.u32() for _ in range(n)]))
    put(smp, 'i_c.bin', u32s([i32_near_limits(r) for _ in range(n)]))
    for t in ('e4m3', 'e5m2'):
        for x in ('a', 'b'):
            put(smp, '%s_%s.bin' % (t, x), bytes(fp8_bits(r, t == 'e5m2') for _ in range(4 * n)))
    put(smp, 'f32_c.bin', u32s([f32_bits(r, -8, 8) for _ in range(n)]))
    put(smp, 'f16_c.bin', u16s([f16_bits(r, -6, 6) for _ in range(2 * n)]))
    put(smp, 'meta.bin', u32s([meta_word(r, False) for _ in range(SEEDS * 32)]))
    put(smp, 'meta_tf32.bin', u32s([meta_word(r, True) for _ in range(SEEDS * 32)]))


# ---- wmma_frag: fragment layouts (no inputs) ----

FRAG = ['f16_m16n16k16', 'f16_m32n8k16', 'f16_m8n32k16', 'f16acc_m16n16k16', 'f16acc_m32n8k16', 'f16acc_m8n32k16',
        'bf16_m16n16k16', 'bf16_m32n8k16', 'bf16_m8n32k16', 'tf32_m16n16k8', 'f64_m8n8k4', 's8_m16n16k16',
        's8_m32n8k16', 's8_m8n32k16', 'u8_m16n16k16', 's4_m8n8k32', 'u4_m8n8k32', 'b1_m8n8k128']


def wmma_frag():
    lines = []
    for name in FRAG:
        n = 4 if name[:2] in ('s4', 'u4', 'b1') else 6
        lines.append('--kernel %s --grid %d --block 32 --arg zeros:%d --arg zeros:%d --out 1=frag.bin'
                     % (name, n, n * 8192, n * 4096))
    text('wmma_frag', 'run.args', '\n'.join(lines) + '\n')


# ---- mma_f64 ----

def mma_f64():
    smp = 'mma_f64'
    r = Lcg(105)
    for x in ('a', 'b', 'c'):
        put(smp, '%s.bin' % x, u64s([f64_bits(r, -20, 20) for _ in range(SEEDS * 8 * 32)]))
    lines = []
    for name, nd in (('m8n8k4', 2), ('m16n8k4', 4), ('m16n8k8', 4), ('m16n8k16', 4)):
        lines.append('--kernel %s --grid %d --block 32 --arg file:a.bin --arg file:b.bin --arg file:c.bin '
                     '--arg zeros:%d --out 3=d.bin' % (name, SEEDS, SEEDS * nd * 32 * 8))
    text(smp, 'run.args', '\n'.join(lines) + '\n')


if __name__ == '__main__':
    wmma_types()
    wmma_guide()
    mma_subbyte()
    mma_sparse()
    wmma_frag()
    mma_f64()
