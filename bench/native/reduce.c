/* reduce — native reference and driver description for kernels/reduce.cu:
 * one sum (mod 2^32) per 256-thread block over 2^25 words, 4 words per thread. */
#include "bench.h"

static void setup(bench_run *r, double scale)
{
    int64_t n = bench_scaled(1 << 25, scale, 1024);
    int64_t blocks = n / 1024;
    int in = bench_add_buf(r, n * 4, BB_IN), out = bench_add_buf(r, blocks * 4, BB_OUT);
    bench_fill_u32(r->buf[in].init, n, 7);
    r->p[0] = n;
    r->p[1] = blocks;
    bench_arg_buf(r, in);
    bench_arg_buf(r, out);
    bench_arg_u32(r, (uint32_t)n);
    r->grid = bench_dim((uint32_t)blocks, 1, 1);
    r->block = bench_dim(256, 1, 1);
}

/* Block b's threads read in[b*256 + t + j*stride]; addition mod 2^32 is
 * associative, so any order gives the kernel's exact answer. */
static void native(bench_run *r)
{
    const uint32_t *in = r->buf[0].ref;
    uint32_t *out = r->buf[1].ref;
    int64_t n = r->p[0], blocks = r->p[1], stride = blocks * 256;
    for (int64_t b = 0; b < blocks; b++) out[b] = 0;
    for (int64_t base = 0; base < n; base += stride)
        for (int64_t b = 0; b < blocks; b++) {
            const uint32_t *p = in + base + b * 256;
            uint32_t s = 0;
            for (int t = 0; t < 256; t++) s += p[t];
            out[b] += s;
        }
}

const bench_case bench_case_reduce = {
    "reduce", "reduce.ptx", "reduce", "per-block sum, __shfl_down_sync trees + shared memory", setup, native,
};
