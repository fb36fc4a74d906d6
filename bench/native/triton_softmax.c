/* triton_softmax — native reference and driver description for Triton 3.9's
 * row softmax (tests/interp/triton/softmax.ptx, from tests/interp/triton/gen.py:
 * BLOCK 1024, num_warps 4): 16384 rows of 1000 floats, one 128-thread program
 * per row. The kernel exponentiates with ex2.approx.f32 and divides with
 * div.full.f32, which C has no exact counterpart for, so its outputs are
 * checked within a relative tolerance of this reference (sums in double), and
 * word for word against the digest of what an H100 computed at the sizes
 * gpu/jobs/bench_triton recorded (bench_gpu_digest). */
#include <math.h>

#include "bench.h"

enum { COLS = 1000 };

/* FNV-1a digests of the H100's output at these scales (gpu/jobs/bench_triton,
 * bench/gpu_triton.txt). */
static const bench_digest gpu[] = {
    {0.01, 0x282ea166b154ab5dull}, {0.02, 0xfe633f228a466939ull},
    {0.05, 0x401bec6304b0afb8ull}, {0.1, 0xf3957e416de44e97ull},
    {0.25, 0x74da9683d21a09b3ull}, {0.5, 0xbdd759122b18e1f9ull},
    {1, 0xbd28fc793263e2b6ull},    {0, 0},
};

static void setup(bench_run *r, double scale)
{
    int64_t rows = bench_scaled(1 << 14, scale, 1);
    int out = bench_add_buf(r, rows * COLS * 4, BB_OUT), x = bench_add_buf(r, rows * COLS * 4, BB_IN);
    bench_fill_f32(r->buf[x].init, rows * COLS, 31, -4.0f, 4.0f);
    r->p[0] = rows;
    bench_arg_buf(r, out);
    bench_arg_buf(r, x);
    bench_arg_u32(r, COLS); /* in_stride */
    bench_arg_u32(r, COLS); /* out_stride */
    bench_arg_u32(r, COLS); /* n_cols */
    bench_arg_u64(r, 0);    /* Triton's two scratch pointers, null as Triton passes them */
    bench_arg_u64(r, 0);
    r->grid = bench_dim((uint32_t)rows, 1, 1);
    r->block = bench_dim(128, 1, 1);
    r->dyn_shared = 16;
    r->tol = 1e-5;
    r->tol_floor = 1e-30;
    r->gpu_digest = bench_gpu_digest(gpu, scale);
}

static void native(bench_run *r)
{
    float *out = r->buf[0].ref;
    const float *x = r->buf[1].ref;
    for (int64_t row = 0; row < r->p[0]; row++) {
        const float *p = x + row * COLS;
        float *o = out + row * COLS, m = p[0];
        for (int j = 1; j < COLS; j++) m = fmaxf(m, p[j]);
        double s = 0;
        for (int j = 0; j < COLS; j++) s += o[j] = expf(p[j] - m);
        float inv = (float)(1.0 / s);
        for (int j = 0; j < COLS; j++) o[j] *= inv;
    }
}

const bench_case bench_case_triton_softmax = {
    "triton_softmax",
    "../../tests/interp/triton/softmax.ptx",
    "softmax_kernel",
    "real Triton row softmax: ex2.approx, div.full, shfl.bfly, bar.sync",
    setup,
    native,
};
