/* triton_layernorm — native reference and driver description for Triton 3.9's
 * layer norm (tests/interp/triton/layernorm.ptx, from tests/interp/triton/gen.py:
 * BLOCK 1024, num_warps 4): 16384 rows of 1000 floats, one 128-thread program
 * per row, y = (x - mean) * rstd * w + b. The kernel divides with div.full.f32
 * and takes sqrt.approx.ftz.f32, and ptxas contracts some of its multiplies
 * and adds, so outputs are checked within |got - ref| <= tol * (|ref| + 1) of
 * this reference (sums in double), and word for word against the digest of
 * what an H100 computed at the sizes gpu/jobs/bench_triton recorded. */
#include <math.h>

#include "bench.h"

enum { COLS = 1000 };

/* FNV-1a digests of the H100's output at these scales (gpu/jobs/bench_triton,
 * bench/gpu_triton.txt). */
static const bench_digest gpu[] = {
    {0.01, 0xb4b4dbff1a644e1aull}, {0.02, 0xca1dc451e85e897cull},
    {0.05, 0xbd17842ae2474ddbull}, {0.1, 0xe1aa970a8667dd06ull},
    {0.25, 0xf97dc7ab3fb9b62full}, {0.5, 0xd0c53aecad79b6d8ull},
    {1, 0x130b344a610b73a6ull},    {0, 0},
};

static void setup(bench_run *r, double scale)
{
    int64_t rows = bench_scaled(1 << 14, scale, 1);
    int x = bench_add_buf(r, rows * COLS * 4, BB_IN), y = bench_add_buf(r, rows * COLS * 4, BB_OUT);
    int w = bench_add_buf(r, COLS * 4, BB_IN), b = bench_add_buf(r, COLS * 4, BB_IN);
    bench_fill_f32(r->buf[x].init, rows * COLS, 41, -2.0f, 2.0f);
    bench_fill_f32(r->buf[w].init, COLS, 42, 0.5f, 1.5f);
    bench_fill_f32(r->buf[b].init, COLS, 43, -1.0f, 1.0f);
    r->p[0] = rows;
    r->fp[0] = 1e-5f;
    bench_arg_buf(r, x);
    bench_arg_buf(r, y);
    bench_arg_buf(r, w);
    bench_arg_buf(r, b);
    bench_arg_u32(r, COLS); /* stride */
    bench_arg_u32(r, COLS); /* n */
    bench_arg_f32(r, r->fp[0]);
    bench_arg_u64(r, 0); /* Triton's two scratch pointers, null as Triton passes them */
    bench_arg_u64(r, 0);
    r->grid = bench_dim((uint32_t)rows, 1, 1);
    r->block = bench_dim(128, 1, 1);
    r->dyn_shared = 16;
    r->tol = 1e-5;
    r->tol_floor = 1;
    r->gpu_digest = bench_gpu_digest(gpu, scale);
}

static void native(bench_run *r)
{
    const float *x = r->buf[0].ref, *w = r->buf[2].ref, *b = r->buf[3].ref;
    float *y = r->buf[1].ref;
    for (int64_t row = 0; row < r->p[0]; row++) {
        const float *p = x + row * COLS;
        float *o = y + row * COLS;
        double s = 0, v = 0;
        for (int j = 0; j < COLS; j++) s += p[j];
        float mean = (float)(s / COLS);
        for (int j = 0; j < COLS; j++) {
            float c = p[j] - mean;
            v += (double)c * c;
        }
        float rstd = (float)(1.0 / sqrt(v / COLS + r->fp[0]));
        for (int j = 0; j < COLS; j++) o[j] = (p[j] - mean) * rstd * w[j] + b[j];
    }
}

const bench_case bench_case_triton_layernorm = {
    "triton_layernorm",
    "../../tests/interp/triton/layernorm.ptx",
    "layernorm_kernel",
    "real Triton layer norm: div.full, sqrt.approx, two reductions",
    setup,
    native,
};
