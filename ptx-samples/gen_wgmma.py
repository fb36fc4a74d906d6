#!/usr/bin/env python3
"""Writes ptx-samples/wgmma: wgmma.cu (one kernel per wgmma.mma_async form) and
run.args (descriptor layouts: every swizzle mode, several leading/stride byte
offsets and start addresses). The operands are made in the kernel from a hash
of (seed, index), so the sample has no input files: a block's dynamic shared
memory (96 KiB: A's descriptors point into the first 32 KiB, B's into the
rest) is filled with random elements of the form's types, the accumulator
registers with random values; D's registers are written out as they are.
Kernel parameters: C seed, descriptor A and B without their start address
field's base (the kernel adds the buffer's address), scale-d, repetitions (the
instruction runs that many times, both descriptors advanced by `step` 16-byte
units each time), step, D."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = 2
SMEM = 96 * 1024

# name, instruction types (d, a, b), K, N values, A in registers, trans a/b, scale a/b, extra modifier
FORMS = [
    ('f16', 'f32', 'f16', 'f16', 16, [8, 24, 64, 256], False, 0, 0, 1, 1, ''),
    ('f16', 'f32', 'f16', 'f16', 16, [16, 64], True, 0, 0, 1, 1, ''),
    ('bf16', 'f32', 'bf16', 'bf16', 16, [8, 64, 256], False, 0, 0, 1, 1, ''),
    ('bf16', 'f32', 'bf16', 'bf16', 16, [32], True, 0, 0, 1, 1, ''),
    ('tf32', 'f32', 'tf32', 'tf32', 8, [8, 64], False, 0, 0, 1, 1, ''),
    ('tf32', 'f32', 'tf32', 'tf32', 8, [16], True, 0, 0, 1, 1, ''),
    ('e4m3', 'f32', 'e4m3', 'e4m3', 32, [8, 64], False, 0, 0, 1, 1, ''),
    ('e5m2e4m3', 'f32', 'e5m2', 'e4m3', 32, [16], False, 0, 0, 1, 1, ''),
    ('e4m3e5m2', 'f32', 'e4m3', 'e5m2', 32, [32], True, 0, 0, 1, 1, ''),
    ('e5m2h', 'f16', 'e5m2', 'e5m2', 32, [16], False, 0, 0, 1, 1, ''),
    ('s8', 's32', 's8', 's8', 32, [8, 64], False, 0, 0, 1, 1, ''),
    ('u8s8', 's32', 'u8', 's8', 32, [16], True, 0, 0, 1, 1, ''),
    ('s8u8sat', 's32', 's8', 'u8', 32, [24], False, 0, 0, 1, 1, 'satfinite'),
    ('u8', 's32', 'u8', 'u8', 32, [8], False, 0, 0, 1, 1, ''),
    ('f16tt', 'f32', 'f16', 'f16', 16, [64], False, 1, 1, 1, 1, ''),
    ('bf16tb', 'f32', 'bf16', 'bf16', 16, [16], False, 0, 1, 1, 1, ''),
    ('f16rtb', 'f32', 'f16', 'f16', 16, [32], True, 0, 1, 1, 1, ''),
    ('f16neg', 'f32', 'f16', 'f16', 16, [16], False, 0, 0, -1, 1, ''),
    ('bf16rneg', 'f32', 'bf16', 'bf16', 16, [16], True, 0, 0, -1, -1, ''),
    ('f16h', 'f16', 'f16', 'f16', 16, [8, 64], False, 0, 0, 1, 1, ''),
    ('f16hr', 'f16', 'f16', 'f16', 16, [16], True, 0, 0, 1, 1, ''),
    ('b1', 's32', 'b1', 'b1', 256, [8, 64], False, 0, 0, 1, 1, 'and.popc'),
]

TYPE_ID = {'f16': 0, 'bf16': 1, 'tf32': 2, 'e4m3': 3, 'e5m2': 4, 's8': 5, 'u8': 5, 'b1': 5}
ACC_ID = {'f32': 0, 'f16': 1, 's32': 2}

PRELUDE = r'''// wgmma: one kernel per form of wgmma.mma_async (sm_90a); gen_wgmma.py writes
// this file. Operands are random elements made from a hash of (seed, index).
#include <stdint.h>

__device__ unsigned mix(unsigned x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}

// One random element of type t (0 f16, 1 bf16, 2 tf32, 3 e4m3, 4 e5m2, 5 raw byte).
__device__ unsigned elem(int t, unsigned h) {
    unsigned s = h & 1, z = (h >> 24) % 25 == 0;
    switch (t) {
    case 0: return z ? s << 15 : (h >> 24) % 25 == 1 ? s << 15 | (h >> 1 & 0x3FF)
                                : s << 15 | ((h >> 1) % 17 + 7) << 10 | (h >> 8 & 0x3FF);
    case 1: return z ? s << 15 : s << 15 | ((h >> 1) % 41 + 107) << 7 | (h >> 8 & 0x7F);
    case 2: return z ? s << 31 : s << 31 | ((h >> 1) % 41 + 107) << 23 | (mix(h) & 0x7FFFFF);
    case 3: { unsigned b = h >> 8 & 0xFF; return (b & 0x7F) == 0x7F ? b ^ 1 : b; }
    case 4: { unsigned b = h >> 8 & 0xFF; return (b & 0x7C) == 0x7C ? b ^ 0x40 : b; }
    default: return h >> 8 & 0xFF;
    }
}

// Fills n bytes of shared memory from byte `from` with elements of type t.
__device__ void fill(unsigned char *sm, unsigned from, unsigned n, int t, unsigned seed) {
    for (unsigned w = threadIdx.x; w < n / 4; w += blockDim.x) {
        unsigned i = from / 4 + w, v = 0;
        if (t == 2) v = elem(2, mix(seed * 0x9E3779B9u + i));
        else if (t <= 1) v = elem(t, mix(seed * 0x9E3779B9u + 2 * i)) | elem(t, mix(seed * 0x9E3779B9u + 2 * i + 1)) << 16;
        else for (int b = 0; b < 4; b++) v |= elem(t, mix(seed * 0x9E3779B9u + 4 * i + b)) << 8 * b;
        ((unsigned *)sm)[i] = v;
    }
}

// Accumulator register r of this thread: f32 (0), two f16 (1) or s32 (2).
__device__ unsigned acc(int t, unsigned seed, int r) {
    unsigned h = mix(seed * 0x85EBCA6Bu + r * 128 + threadIdx.x + 0x1234567u);
    if (t == 0) return (h >> 24) % 25 == 0 ? (h & 1) << 31 : (h & 1) << 31 | ((h >> 1) % 25 + 115) << 23 | (mix(h) & 0x7FFFFF);
    if (t == 1) return elem(0, h) | elem(0, mix(h)) << 16;
    return h % 3 == 0 ? 0x7FFFFFFFu - (h >> 12) : h % 3 == 1 ? 0x80000000u + (h >> 12) : mix(h);
}

extern __shared__ __align__(1024) unsigned char smem[];
'''


def kernel(name, td, ta, tb, K, N, rs, tra, trb, sa, sb, mod):
    nd = N // 2 if td != 'f16' else N // 4
    L = ['extern "C" __global__ void __launch_bounds__(128) %s(unsigned cseed, uint64_t da, uint64_t db,'
         ' unsigned scale_d, unsigned reps, unsigned step, unsigned *D)' % name, '{']
    L.append('    unsigned seed = blockIdx.x + 1;')
    L.append('    fill(smem, 0, 32768, %d, seed);' % TYPE_ID[ta])
    L.append('    fill(smem, 32768, %d, %d, seed + 100);' % (SMEM - 32768, TYPE_ID[tb]))
    L.append('    __syncthreads();')
    L.append('    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");')
    L.append('    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);')
    L.append('    uint64_t dA = da + base, dB = db + base;')
    L.append('    unsigned d[%d];' % nd)
    L.append('    for (int i = 0; i < %d; i++) d[i] = acc(%d, cseed + seed, i);' % (nd, ACC_ID[td]))
    if rs:
        L.append('    unsigned a[4];')
        L.append('    for (int i = 0; i < 4; i++) a[i] = ((unsigned *)smem)[i * 128 + threadIdx.x];')
    dst = ', '.join('%%%d' % i for i in range(nd))
    k = nd
    if rs:
        aop = '{%s}' % ', '.join('%%%d' % (k + i) for i in range(4))
        k += 4
    else:
        aop = '%%%d' % k
        k += 1
    bop = '%%%d' % k
    k += 1
    pk = k
    dt = {'f32': 'f32', 'f16': 'f16', 's32': 's32'}[td]
    mods = ('.' + mod if mod == 'satfinite' else '')
    insn = 'wgmma.mma_async.sync.aligned.m64n%dk%d%s.%s.%s.%s' % (N, K, mods, dt, ta, tb)
    if mod == 'and.popc':
        insn = 'wgmma.mma_async.sync.aligned.m64n%dk%d.s32.b1.b1.and.popc' % (N, K)
    imm = ''
    if ta in ('f16', 'bf16', 'tf32', 'e4m3', 'e5m2'):
        imm = ', %d, %d' % (sa, sb)
        if ta in ('f16', 'bf16'):
            imm += (', %d' % trb) if rs else (', %d, %d' % (tra, trb))
    outs = ', '.join('"+r"(d[%d])' % i for i in range(nd))
    ins = (['"r"(a[%d])' % i for i in range(4)] if rs else ['"l"(dA)']) + ['"l"(dB)', '"r"(scale_d)']
    L.append('    for (unsigned r = 0; r < reps; r++) {')
    L.append('        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");')
    L.append('        asm volatile("{ .reg .pred p; setp.ne.u32 p, %%%d, 0; %s {%s}, %s, %s, p%s; }" : %s : %s : "memory");'
             % (pk, insn, dst, aop, bop, imm, outs, ', '.join(ins)))
    L.append('        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");')
    L.append('        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");')
    L.append('        dA += step, dB += step;')
    L.append('    }')
    L.append('    for (int i = 0; i < %d; i++) D[(blockIdx.x * %d + i) * 128 + threadIdx.x] = d[i];' % (nd, nd))
    L.append('}')
    return '\n'.join(L) + '\n', nd


def desc(start, lbo, sbo, swz):
    return (start >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32 | swz << 62


# layouts: (name, A start, B start, LBO, SBO, swizzle, reps, step); 1 = 128B, 2 = 64B, 3 = 32B
LAYOUTS_FULL = [
    (0, 32768, 128, 256, 0, 1, 0),
    (256, 33024, 2048, 128, 0, 1, 0),
    (0, 32768, 16, 1024, 1, 2, 2),
    (1024 + 64, 32768 + 64, 4096, 1024, 1, 1, 0),
    (0, 32768, 16, 512, 2, 2, 2),
    (0, 32768, 16, 256, 3, 1, 0),
]
LAYOUTS_SHORT = [LAYOUTS_FULL[0], LAYOUTS_FULL[2]]
LAYOUTS_TRANS = [
    (0, 32768, 128, 256, 0, 1, 0),
    (0, 32768, 2048, 1024, 1, 1, 0),
    (0, 32768, 1024, 512, 2, 1, 0),
    (0, 32768, 512, 256, 3, 1, 0),
]


def main():
    src = [PRELUDE]
    lines = []
    for form in FORMS:
        tag, td, ta, tb, K, Ns, rs, tra, trb, sa, sb, mod = form
        for N in Ns:
            name = '%s_%s_n%d' % (tag, 'rs' if rs else 'ss', N)
            body, nd = kernel(name, td, ta, tb, K, N, rs, tra, trb, sa, sb, mod)
            src.append(body)
            lays = LAYOUTS_TRANS if tra or trb else LAYOUTS_FULL if tag in ('f16', 'bf16') else LAYOUTS_SHORT
            if N >= 128:
                lays = [LAYOUTS_FULL[0], LAYOUTS_FULL[2]]
            for j, (a0, b0, lbo, sbo, swz, reps, step) in enumerate(lays):
                scale = 0 if j == 1 else 1
                lines.append('--kernel %s --grid %d --block 128 --shared %d --arg u32:%d --arg u64:%d --arg u64:%d'
                             ' --arg u32:%d --arg u32:%d --arg u32:%d --arg zeros:%d --out 6=d.bin'
                             % (name, SEEDS, SMEM, 7 * j + 1, desc(a0, lbo, sbo, swz), desc(b0, lbo, sbo, swz),
                                scale, reps, step, SEEDS * nd * 128 * 4))
    with open(os.path.join(HERE, 'wgmma', 'wgmma.cu'), 'w') as f:
        f.write('\n'.join(src))
    with open(os.path.join(HERE, 'wgmma', 'run.args'), 'w') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
