/* saxpy — native reference and driver description for kernels/saxpy.cu:
 * y = fma(a, x, y) over 2^25 floats by 2^18 threads, each a grid-stride loop. */
#include <math.h>

#include "bench.h"

static void setup(bench_run *r, double scale)
{
    int64_t n = bench_scaled(1 << 25, scale, 256);
    int x = bench_add_buf(r, n * 4, BB_IN), y = bench_add_buf(r, n * 4, BB_INOUT);
    bench_fill_f32(r->buf[x].init, n, 3, -1.0f, 1.0f);
    bench_fill_f32(r->buf[y].init, n, 4, -1.0f, 1.0f);
    r->fp[0] = 1.5f;
    r->p[0] = n;
    bench_arg_u32(r, (uint32_t)n);
    bench_arg_f32(r, r->fp[0]);
    bench_arg_buf(r, x);
    bench_arg_buf(r, y);
    r->grid = bench_dim(1024, 1, 1);
    r->block = bench_dim(256, 1, 1);
}

static void native(bench_run *r)
{
    const float *restrict x = r->buf[0].ref;
    float *restrict y = r->buf[1].ref;
    float a = r->fp[0];
    for (int64_t i = 0; i < r->p[0]; i++) y[i] = fmaf(a, x[i], y[i]);
}

const bench_case bench_case_saxpy = {
    "saxpy", "saxpy.ptx", "saxpy", "y = a*x + y, grid-stride loop over a strided range", setup, native,
};
