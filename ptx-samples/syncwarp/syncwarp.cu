// Warp-synchronous code with explicit masks: the guide's __syncwarp-separated
// shared-memory reduction, shuffles and votes inside divergent branches where
// each branch names only its own lanes, and __syncwarp with partial masks.
extern "C" __global__ void syncwarp(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned t = threadIdx.x, lane = t & 31;
    int v = in[t];
    // The guide's reduction: every step separated by __syncwarp.
    s[t] = v;
    __syncwarp();
    for (int off = 16; off > 0; off /= 2) {
        int x = 0;
        if (lane < (unsigned)off)
            x = s[t + off];
        __syncwarp();
        if (lane < (unsigned)off)
            s[t] += x;
        __syncwarp();
    }
    int *o = out + 4 * t;
    o[0] = s[t & ~31u];
    // Even and odd lanes shuffle among themselves in separate branches.
    const unsigned even = 0x55555555u, odd = 0xaaaaaaaau;
    if (lane & 1) {
        o[1] = __shfl_sync(odd, v, (lane + 2) & 31) + 1000 * (int)__popc(__ballot_sync(odd, v > 0));
        __syncwarp(odd);
        o[2] = __shfl_xor_sync(odd, v, 2);
    } else {
        o[1] = __shfl_sync(even, v, (lane + 30) & 31) - 1000 * (int)__popc(__ballot_sync(even, v > 0));
        __syncwarp(even);
        o[2] = __shfl_down_sync(even, v, 4);
    }
    // Lanes 0..15 reduce among themselves; the others wait at a full __syncwarp.
    int r = v;
    if (lane < 16) {
        for (int off = 8; off > 0; off /= 2)
            r += __shfl_down_sync(0x0000ffffu, r, off, 16);
    }
    __syncwarp();
    o[3] = r;
}
