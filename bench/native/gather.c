/* gather — native reference and driver description for kernels/gather.cu:
 * out[i] = table[idx[i]] * scale for 2^24 random indices into a 2^24-float
 * (64 MiB) table; one index in 64 is out of range and gives 0. */
#include "bench.h"

static void setup(bench_run *r, double scale)
{
    int64_t n = bench_scaled(1 << 24, scale, 256), tsize = bench_scaled(1 << 24, scale, 256);
    int t = bench_add_buf(r, tsize * 4, BB_IN), idx = bench_add_buf(r, n * 4, BB_IN);
    int out = bench_add_buf(r, n * 4, BB_OUT);
    bench_fill_f32(r->buf[t].init, tsize, 31, -4.0f, 4.0f);
    uint32_t *ix = r->buf[idx].init;
    uint64_t st = 32;
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = bench_rand(&st);
        ix[i] = (x & 63) == 0 ? (uint32_t)tsize + (uint32_t)(x >> 40) : (uint32_t)((x >> 8) % (uint64_t)tsize);
    }
    bench_arg_buf(r, t);
    bench_arg_buf(r, idx);
    bench_arg_buf(r, out);
    bench_arg_u32(r, (uint32_t)n);
    bench_arg_u32(r, (uint32_t)tsize);
    bench_arg_f32(r, 1.5f);
    r->p[0] = n;
    r->p[1] = tsize;
    r->fp[0] = 1.5f;
    r->grid = bench_dim((uint32_t)(n / 256), 1, 1);
    r->block = bench_dim(256, 1, 1);
}

static void native(bench_run *r)
{
    const float *restrict t = r->buf[0].ref;
    const uint32_t *restrict ix = r->buf[1].ref;
    float *restrict out = r->buf[2].ref;
    uint32_t tsize = (uint32_t)r->p[1];
    float s = r->fp[0];
    for (int64_t i = 0; i < r->p[0]; i++) out[i] = ix[i] < tsize ? t[ix[i]] * s : 0.0f;
}

const bench_case bench_case_gather = {
    "gather", "gather.ptx", "gather", "out = table[idx] * s: random 4-byte loads from 64 MiB", setup, native,
};
