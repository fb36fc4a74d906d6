/* numba_axpy — native reference and driver description for kernels/numba_axpy.ptx,
 * real Numba 0.68 output (kernels/numba_gen.py): out[i] = a * x[i] + y[i] over
 * 2^25 floats, which Numba contracts to fma.rn.f32. Each array is passed as
 * Numba passes it: meminfo, parent, nitems, itemsize, data, shape, stride. */
#include <math.h>

#include "bench.h"

static void numba_array(bench_run *r, int buf, int64_t n)
{
    bench_arg_u64(r, 0);
    bench_arg_u64(r, 0);
    bench_arg_u64(r, (uint64_t)n);
    bench_arg_u64(r, 4);
    bench_arg_buf(r, buf);
    bench_arg_u64(r, (uint64_t)n);
    bench_arg_u64(r, 4);
}

static void setup(bench_run *r, double scale)
{
    int64_t n = bench_scaled(1 << 25, scale, 256);
    int out = bench_add_buf(r, n * 4, BB_OUT), x = bench_add_buf(r, n * 4, BB_IN), y = bench_add_buf(r, n * 4, BB_IN);
    bench_fill_f32(r->buf[x].init, n, 51, -1.0f, 1.0f);
    bench_fill_f32(r->buf[y].init, n, 52, -1.0f, 1.0f);
    numba_array(r, out, n);
    numba_array(r, x, n);
    numba_array(r, y, n);
    bench_arg_f32(r, 1.75f);
    r->p[0] = n;
    r->fp[0] = 1.75f;
    r->grid = bench_dim((uint32_t)(n / 256), 1, 1);
    r->block = bench_dim(256, 1, 1);
}

static void native(bench_run *r)
{
    float *restrict out = r->buf[0].ref;
    const float *restrict x = r->buf[1].ref, *restrict y = r->buf[2].ref;
    float a = r->fp[0];
    for (int64_t i = 0; i < r->p[0]; i++) out[i] = fmaf(x[i], a, y[i]);
}

const bench_case bench_case_numba_axpy = {
    "numba_axpy",
    "numba_axpy.ptx",
    "_ZN8__main__10numba_"
    "axpyB2v1B92cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3CwAkMXLaJtQYkOIgxJU0gCqOkEJoHkbttqdVhoqlspQGNFHSgJ5BnXagIAE5ArrayIfLi"
    "1E1C7mutable7alignedE5ArrayIfLi1E1C7mutable7alignedE5ArrayIfLi1E1C7mutable7alignedEf",
    "real Numba output: fma elementwise, 7 parameters per array",
    setup,
    native,
};
