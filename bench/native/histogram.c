/* histogram — native reference and driver description for kernels/histogram.cu:
 * 256-bin histogram of the bytes of 2^24 words; shared then global atomics. */
#include "bench.h"

static void setup(bench_run *r, double scale)
{
    int64_t n = bench_scaled(1 << 24, scale, 256);
    int data = bench_add_buf(r, n * 4, BB_IN), bins = bench_add_buf(r, 256 * 4, BB_OUT);
    uint32_t *d = r->buf[data].init;
    bench_fill_u32(d, n, 8);
    /* Skew the bytes towards small values, as in image data, so bins collide. */
    for (int64_t i = 0; i < n; i++) d[i] &= (i & 1) ? 0x3f7f1f0fu : 0xffffffffu;
    r->p[0] = n;
    bench_arg_buf(r, data);
    bench_arg_u32(r, (uint32_t)n);
    bench_arg_buf(r, bins);
    r->grid = bench_dim(1024, 1, 1);
    r->block = bench_dim(256, 1, 1);
}

static void native(bench_run *r)
{
    const uint32_t *d = r->buf[0].ref;
    uint32_t *bins = r->buf[1].ref;
    for (int64_t i = 0; i < r->p[0]; i++) {
        uint32_t v = d[i];
        bins[v & 0xff]++;
        bins[(v >> 8) & 0xff]++;
        bins[(v >> 16) & 0xff]++;
        bins[v >> 24]++;
    }
}

const bench_case bench_case_histogram = {
    "histogram", "histogram.ptx", "histogram", "256-bin byte histogram, shared + global atomicAdd", setup, native,
};
