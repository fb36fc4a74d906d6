// mandelbrot — escape-time iteration count per pixel: lanes of a warp leave the
// loop at different iterations, so this measures divergent execution. Every
// float operation is an explicit _rn intrinsic so nothing is contracted.
extern "C" __global__ void mandelbrot(unsigned *out, int w, int h, float x0, float y0,
                                      float step, int maxit)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h)
        return;
    float cx = __fmaf_rn(__int2float_rn(px), step, x0);
    float cy = __fmaf_rn(__int2float_rn(py), step, y0);
    float x = 0.0f, y = 0.0f;
    int i = 0;
    while (i < maxit) {
        float xx = __fmul_rn(x, x), yy = __fmul_rn(y, y);
        if (__fadd_rn(xx, yy) > 4.0f)
            break;
        float xy = __fmul_rn(x, y);
        y = __fadd_rn(__fadd_rn(xy, xy), cy);
        x = __fadd_rn(__fsub_rn(xx, yy), cx);
        i++;
    }
    out[py * w + px] = i;
}
