/* triton_rowsum — native reference and driver description for the Triton-style
 * kernels/triton_rowsum.ptx: the float sum of each 1024-column row of a
 * 32768 x 1024 matrix. The reference adds in the kernel's order: each thread's
 * eight values in sequence, a butterfly over the 32 lanes, then (w0+w2)+(w1+w3)
 * over the four warps; float addition commutes, so each butterfly step is one
 * value per lane pair. */
#include "bench.h"

static void setup(bench_run *r, double scale)
{
    int64_t rows = bench_scaled(1 << 15, scale, 1);
    int x = bench_add_buf(r, rows * 1024 * 4, BB_IN), out = bench_add_buf(r, rows * 4, BB_OUT);
    bench_fill_f32(r->buf[x].init, rows * 1024, 11, -1.0f, 1.0f);
    r->p[0] = rows;
    bench_arg_buf(r, x);
    bench_arg_buf(r, out);
    bench_arg_u32(r, (uint32_t)rows);
    bench_arg_u32(r, 1024);
    r->grid = bench_dim((uint32_t)rows, 1, 1);
    r->block = bench_dim(128, 1, 1);
    r->dyn_shared = 16; /* one float per warp, as Triton sizes it */
}

static void butterfly(float *v, int n)
{
    float t[32];
    for (int o = n / 2; o > 0; o >>= 1) {
        for (int l = 0; l < n; l++) t[l] = v[l] + v[l ^ o];
        memcpy(v, t, sizeof(float) * (size_t)n);
    }
}

static void native(bench_run *r)
{
    const float *x = r->buf[0].ref;
    float *out = r->buf[1].ref;
    for (int64_t row = 0; row < r->p[0]; row++) {
        const float *p = x + row * 1024;
        float warp[4];
        for (int w = 0; w < 4; w++) {
            float v[32];
            for (int l = 0; l < 32; l++) {
                const float *a = p + 4 * (32 * w + l), *b = a + 512;
                v[l] = ((((((a[0] + a[1]) + a[2]) + a[3]) + b[0]) + b[1]) + b[2]) + b[3];
            }
            butterfly(v, 32);
            warp[w] = v[0];
        }
        butterfly(warp, 4);
        out[row] = warp[0];
    }
}

const bench_case bench_case_triton_rowsum = {
    "triton_rowsum",
    "triton_rowsum.ptx",
    "triton_per_fused_sum_0",
    "Triton-style row sum: shfl.sync.bfly, dynamic shared, bar.sync",
    setup,
    native,
};
