/* triton_fused, triton_gen — native reference and driver descriptions for
 * out = max(fma(x, alpha, y), 0) over 2^25 floats, 1024 elements per
 * 128-thread program: the hand-written Triton-style kernels/triton_fused.ptx,
 * and kernels/triton_gen.ptx, real Triton output of the same function, which
 * also takes Triton 3.9's two scratch pointers (null here, as Triton passes them). */
#include <math.h>

#include "bench.h"

static void setup(bench_run *r, double scale)
{
    int64_t n = bench_scaled(1 << 25, scale, 1024);
    int x = bench_add_buf(r, n * 4, BB_IN), y = bench_add_buf(r, n * 4, BB_IN);
    int out = bench_add_buf(r, n * 4, BB_OUT);
    bench_fill_f32(r->buf[x].init, n, 9, -1.0f, 1.0f);
    bench_fill_f32(r->buf[y].init, n, 10, -1.0f, 1.0f);
    r->fp[0] = 0.75f;
    r->p[0] = n;
    bench_arg_buf(r, x);
    bench_arg_buf(r, y);
    bench_arg_buf(r, out);
    bench_arg_f32(r, r->fp[0]);
    bench_arg_u32(r, (uint32_t)n);
    r->grid = bench_dim((uint32_t)(n / 1024), 1, 1);
    r->block = bench_dim(128, 1, 1);
}

static void setup_gen(bench_run *r, double scale)
{
    setup(r, scale);
    bench_arg_u64(r, 0);
    bench_arg_u64(r, 0);
}

static void native(bench_run *r)
{
    const float *restrict x = r->buf[0].ref, *restrict y = r->buf[1].ref;
    float *restrict out = r->buf[2].ref;
    float alpha = r->fp[0];
    for (int64_t i = 0; i < r->p[0]; i++) {
        float v = fmaf(x[i], alpha, y[i]);
        out[i] = v > 0.0f ? v : 0.0f;
    }
}

const bench_case bench_case_triton_fused = {
    "triton_fused",
    "triton_fused.ptx",
    "triton_poi_fused_add_mul_relu_0",
    "Triton-style pointwise relu(x*alpha + y), predicated v4 loads",
    setup,
    native,
};

const bench_case bench_case_triton_gen = {
    "triton_gen",
    "triton_gen.ptx",
    "triton_poi_fused_add_mul_relu_0",
    "Triton 3.9 output of triton_fused's function (triton_gen.py)",
    setup_gen,
    native,
};
