// Some lanes leave the kernel early; the others go on to a block barrier, a
// warp vote and shared memory. Exited threads must not block __syncthreads, and
// must be absent from __activemask and __ballot_sync.
extern "C" __global__ void early_exit(const int *in, int *out, unsigned *masks)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    int v = in[t];
    s[t] = -1;
    out[t] = 0x7777;
    if (v % 3 == 0)
        return;
    if (t >= 200)
        return;
    s[t] = v * 2;
    __syncthreads();
    unsigned live = __activemask();
    unsigned vote = __ballot_sync(live, v > 50);
    out[t] = s[(t + 1) % 256] + s[(t + 255) % 256];
    if ((t & 31) == __ffs(live) - 1) {
        masks[2 * (t >> 5)] = live;
        masks[2 * (t >> 5) + 1] = vote;
    }
}
