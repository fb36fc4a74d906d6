/* warpsum — native reference and driver description for kernels/warpsum.cu:
 * one float sum per warp of 256 values (2^25 floats in all). Each lane adds
 * its eight values 32 apart in order, then a butterfly with offsets 16..1:
 * lane l's new value is v[l] + v[l ^ o] (float addition commutes, so both
 * lanes of a pair get the same sum), exactly the kernel's order. */
#include "bench.h"

static void setup(bench_run *r, double scale)
{
    int64_t nwarps = bench_scaled(1 << 17, scale, 8);
    int in = bench_add_buf(r, nwarps * 256 * 4, BB_IN), out = bench_add_buf(r, nwarps * 4, BB_OUT);
    bench_fill_f32(r->buf[in].init, nwarps * 256, 21, -1.0f, 1.0f);
    bench_arg_buf(r, in);
    bench_arg_buf(r, out);
    bench_arg_u32(r, (uint32_t)nwarps);
    r->p[0] = nwarps;
    r->grid = bench_dim((uint32_t)(nwarps / 8), 1, 1);
    r->block = bench_dim(256, 1, 1);
}

static void native(bench_run *r)
{
    const float *in = r->buf[0].ref;
    float *out = r->buf[1].ref;
    for (int64_t w = 0; w < r->p[0]; w++) {
        const float *p = in + w * 256;
        float v[32], t[32];
        for (int l = 0; l < 32; l++) {
            float s = p[l];
            for (int k = 1; k < 8; k++) s += p[l + 32 * k];
            v[l] = s;
        }
        for (int o = 16; o > 0; o >>= 1) {
            for (int l = 0; l < 32; l++) t[l] = v[l] + v[l ^ o];
            memcpy(v, t, sizeof v);
        }
        out[w] = v[0];
    }
}

const bench_case bench_case_warpsum = {
    "warpsum", "warpsum.ptx", "warpsum", "one float sum per warp: __shfl_xor_sync butterfly only", setup, native,
};
