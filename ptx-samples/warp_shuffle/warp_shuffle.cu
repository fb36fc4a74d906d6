// Warp shuffles from the CUDA guide: a broadcast from lane 0, an inclusive scan
// over 8-thread partitions (width 8 __shfl_up_sync), a butterfly reduction with
// __shfl_xor_sync, and __shfl_down_sync on doubles and on sub-warp widths,
// including reads from lanes outside the segment (they return the own value).
extern "C" __global__ void warp_shuffle(const int *in, int *out, double *dout)
{
    unsigned t = threadIdx.x, lane = t & 31;
    int v = in[t];
    int *o = out + 6 * t;
    // Broadcast: every lane gets lane 0's value.
    o[0] = __shfl_sync(0xffffffffu, v, 0);
    // Inclusive scan over partitions of 8 lanes.
    int x = v;
    for (int i = 1; i <= 4; i *= 2) {
        int n = __shfl_up_sync(0xffffffffu, x, i, 8);
        if ((lane & 7) >= (unsigned)i)
            x += n;
    }
    o[1] = x;
    // Butterfly reduction: every lane ends with the warp total.
    int s = v;
    for (int i = 16; i >= 1; i /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, i, 32);
    o[2] = s;
    o[3] = __shfl_down_sync(0xffffffffu, v, 5, 16);       // past the 16-lane segment: own value
    o[4] = __shfl_sync(0xffffffffu, v, (int)lane * 3 + 1, 8);  // source lane wraps within 8
    o[5] = __shfl_up_sync(0xffffffffu, v, 3);
    dout[t] = __shfl_down_sync(0xffffffffu, (double)v * 1.5 + 0.125, 1);
}
