/* stencil — native reference and driver description for kernels/stencil.cu:
 * one 5-point Jacobi step on a 4096 x 4096 float grid, 32 x 8 blocks:
 * out = fma(c1, (n + s) + (w + e), c0 * x) inside, borders copied. */
#include <math.h>

#include "bench.h"

static void setup(bench_run *r, double scale)
{
    int64_t w = 4096, h = bench_scaled(4096, scale, 8);
    int in = bench_add_buf(r, w * h * 4, BB_IN), out = bench_add_buf(r, w * h * 4, BB_OUT);
    bench_fill_f32(r->buf[in].init, w * h, 41, 0.0f, 1.0f);
    bench_arg_buf(r, in);
    bench_arg_buf(r, out);
    bench_arg_u32(r, (uint32_t)w);
    bench_arg_u32(r, (uint32_t)h);
    bench_arg_f32(r, 0.5f);
    bench_arg_f32(r, 0.125f);
    r->p[0] = w;
    r->p[1] = h;
    r->fp[0] = 0.5f;
    r->fp[1] = 0.125f;
    r->grid = bench_dim((uint32_t)(w / 32), (uint32_t)(h / 8), 1);
    r->block = bench_dim(32, 8, 1);
}

static void native(bench_run *r)
{
    const float *restrict in = r->buf[0].ref;
    float *restrict out = r->buf[1].ref;
    int64_t w = r->p[0], h = r->p[1];
    float c0 = r->fp[0], c1 = r->fp[1];
    memcpy(out, in, (size_t)w * 4);
    memcpy(out + (h - 1) * w, in + (h - 1) * w, (size_t)w * 4);
    for (int64_t y = 1; y < h - 1; y++) {
        const float *p = in + y * w;
        float *q = out + y * w;
        q[0] = p[0];
        q[w - 1] = p[w - 1];
        for (int64_t x = 1; x < w - 1; x++) q[x] = fmaf(c1, (p[x - w] + p[x + w]) + (p[x - 1] + p[x + 1]), c0 * p[x]);
    }
}

const bench_case bench_case_stencil = {
    "stencil", "stencil.ptx", "stencil", "5-point Jacobi step, 2-D blocks, neighbour loads", setup, native,
};
