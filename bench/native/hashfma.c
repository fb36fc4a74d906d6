/* hashfma — native reference and driver description for kernels/hashfma.cu:
 * 65536 threads x 1024 iterations of a ~40-instruction integer-hash + FMA loop. */
#include <math.h>

#include "bench.h"

static uint32_t rotl(uint32_t v, int s) { return (v << s) | (v >> (32 - s)); }

static uint32_t f32_bits(float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    return v;
}

static void setup(bench_run *r, double scale)
{
    int64_t threads = bench_scaled(1 << 16, scale, 256);
    int out = bench_add_buf(r, threads * 4, BB_OUT);
    r->p[0] = threads;
    r->p[1] = 1024;       /* iterations */
    r->p[2] = 0x2545f491; /* seed */
    bench_arg_buf(r, out);
    bench_arg_u32(r, (uint32_t)r->p[1]);
    bench_arg_u32(r, (uint32_t)r->p[2]);
    r->grid = bench_dim((uint32_t)(threads / 256), 1, 1);
    r->block = bench_dim(256, 1, 1);
}

static void native(bench_run *r)
{
    uint32_t *out = r->buf[0].ref, seed = (uint32_t)r->p[2];
    int iters = (int)r->p[1];
    for (uint32_t tid = 0; tid < (uint32_t)r->p[0]; tid++) {
        uint32_t h = seed ^ (tid * 0x9e3779b9u), g = ~seed + tid;
        float f = 1.0f, e = 0.5f;
        for (int k = 0; k < iters; k++) {
            h ^= h >> 16;
            h *= 0x7feb352du;
            h ^= h >> 15;
            h *= 0x846ca68bu;
            h ^= h >> 16;
            g += h + (uint32_t)k;
            g = rotl(g, 13) * 5u + 0xe6546b64u;
            g ^= g >> 7;
            float x = (float)(h >> 8) * 5.9604645e-8f;
            float y = (float)(g & 0xffffffu) * 5.9604645e-8f;
            f = fmaf(f, 0.5f, x);
            e = fmaf(e, 0.25f, x * y);
            f = fmaf(e, 0.125f, f);
            e = fmaf(f, -0.0625f, e + 0.75f);
            h += f32_bits(f) >> 9;
        }
        out[tid] = h ^ g ^ f32_bits(f) ^ f32_bits(e);
    }
}

const bench_case bench_case_hashfma = {
    "hashfma", "hashfma.ptx", "hashfma", "integer hash + FMA loop, uniform, compute-bound", setup, native,
};
