/* vecadd — native reference and driver description for kernels/vecadd.cu:
 * c[i] = a[i] + b[i] over 2^25 floats, one element per GPU thread. */
#include "bench.h"

static void setup(bench_run *r, double scale)
{
    int64_t n = bench_scaled(1 << 25, scale, 256);
    int a = bench_add_buf(r, n * 4, BB_IN), b = bench_add_buf(r, n * 4, BB_IN);
    int c = bench_add_buf(r, n * 4, BB_OUT);
    bench_fill_f32(r->buf[a].init, n, 1, -1.0f, 1.0f);
    bench_fill_f32(r->buf[b].init, n, 2, -1.0f, 1.0f);
    bench_arg_buf(r, a);
    bench_arg_buf(r, b);
    bench_arg_buf(r, c);
    bench_arg_u32(r, (uint32_t)n);
    r->p[0] = n;
    r->grid = bench_dim((uint32_t)(n / 256), 1, 1);
    r->block = bench_dim(256, 1, 1);
}

static void native(bench_run *r)
{
    const float *restrict a = r->buf[0].ref, *restrict b = r->buf[1].ref;
    float *restrict c = r->buf[2].ref;
    for (int64_t i = 0; i < r->p[0]; i++) c[i] = a[i] + b[i];
}

const bench_case bench_case_vecadd = {
    "vecadd", "vecadd.ptx", "vecadd", "c = a + b, one float per thread (memory-bound)", setup, native,
};
