/* mandelbrot — native reference and driver description for kernels/mandelbrot.cu:
 * escape counts (at most 256) for 1024 x 1024 points of [-2, 1) x [-1.5, 1.5). */
#include <math.h>

#include "bench.h"

static void setup(bench_run *r, double scale)
{
    int64_t w = bench_scaled(1024, sqrt(scale), 32);
    int out = bench_add_buf(r, w * w * 4, BB_OUT);
    r->p[0] = w;
    r->p[1] = 256;
    r->fp[0] = -2.0f;
    r->fp[1] = -1.5f;
    r->fp[2] = 3.0f / (float)w;
    bench_arg_buf(r, out);
    bench_arg_u32(r, (uint32_t)w);
    bench_arg_u32(r, (uint32_t)w);
    bench_arg_f32(r, r->fp[0]);
    bench_arg_f32(r, r->fp[1]);
    bench_arg_f32(r, r->fp[2]);
    bench_arg_u32(r, (uint32_t)r->p[1]);
    r->grid = bench_dim((uint32_t)(w / 32), (uint32_t)(w / 8), 1);
    r->block = bench_dim(32, 8, 1);
}

static void native(bench_run *r)
{
    uint32_t *out = r->buf[0].ref;
    int w = (int)r->p[0], maxit = (int)r->p[1];
    float x0 = r->fp[0], y0 = r->fp[1], step = r->fp[2];
    for (int py = 0; py < w; py++) {
        float cy = fmaf((float)py, step, y0);
        for (int px = 0; px < w; px++) {
            float cx = fmaf((float)px, step, x0), x = 0.0f, y = 0.0f;
            int i = 0;
            while (i < maxit) {
                float xx = x * x, yy = y * y;
                if (xx + yy > 4.0f) break;
                float xy = x * y;
                y = (xy + xy) + cy;
                x = (xx - yy) + cx;
                i++;
            }
            out[py * w + px] = (uint32_t)i;
        }
    }
}

const bench_case bench_case_mandelbrot = {
    "mandelbrot", "mandelbrot.ptx", "mandelbrot", "escape-time fractal, divergent loop exits", setup, native,
};
