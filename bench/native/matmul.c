/* matmul — native reference and driver description for kernels/matmul.cu:
 * C = A*B, 512 x 512 floats, 16x16 shared-memory tiles on the GPU side. The
 * reference runs the i-k-j loop (vectorizable over j); each C[i][j] is the same
 * fma chain over k = 0..n-1 as the kernel's, so results match bit for bit. */
#include <math.h>

#include "bench.h"

static void setup(bench_run *r, double scale)
{
    int64_t n = bench_scaled(512, scale, 16);
    int a = bench_add_buf(r, n * n * 4, BB_IN), b = bench_add_buf(r, n * n * 4, BB_IN);
    int c = bench_add_buf(r, n * n * 4, BB_OUT);
    bench_fill_f32(r->buf[a].init, n * n, 5, -1.0f, 1.0f);
    bench_fill_f32(r->buf[b].init, n * n, 6, -1.0f, 1.0f);
    r->p[0] = n;
    bench_arg_buf(r, a);
    bench_arg_buf(r, b);
    bench_arg_buf(r, c);
    bench_arg_u32(r, (uint32_t)n);
    r->grid = bench_dim((uint32_t)(n / 16), (uint32_t)(n / 16), 1);
    r->block = bench_dim(16, 16, 1);
}

static void native(bench_run *r)
{
    const float *restrict A = r->buf[0].ref, *restrict B = r->buf[1].ref;
    float *restrict C = r->buf[2].ref;
    int64_t n = r->p[0];
    for (int64_t i = 0; i < n; i++) {
        float *restrict c = C + i * n;
        for (int64_t j = 0; j < n; j++) c[j] = 0.0f;
        for (int64_t k = 0; k < n; k++) {
            float a = A[i * n + k];
            const float *restrict b = B + k * n;
            for (int64_t j = 0; j < n; j++) c[j] = fmaf(a, b[j], c[j]);
        }
    }
}

const bench_case bench_case_matmul = {
    "matmul", "matmul.ptx", "matmul", "512x512 SGEMM, 16x16 shared-memory tiles, bar.sync", setup, native,
};
