// Block barriers: __syncthreads between shared-memory phases, the counting and
// voting forms (__syncthreads_count/_and/_or), and named barriers from inline
// PTX: two independent pairs of warps synchronizing on barriers 1 and 2, and a
// producer warp that only arrives (bar.arrive) while its consumer waits.
extern "C" __global__ void barriers(const int *in, int *out, int *votes)
{
    __shared__ int s[128];
    __shared__ int mail[4][32];
    unsigned t = threadIdx.x, w = t / 32, lane = t % 32;
    int v = in[t];

    s[t] = v;
    __syncthreads();
    s[t] = s[(t + 1) & 127] + s[(t + 127) & 127];
    __syncthreads();

    int c = __syncthreads_count(v > 0);
    int a = __syncthreads_and(v > -100);
    int o = __syncthreads_or(v == 12345);
    int a2 = __syncthreads_and(v != 0);
    int o2 = __syncthreads_or(t == 77);
    if (t == 0) {
        votes[0] = c; votes[1] = a; votes[2] = o; votes[3] = a2; votes[4] = o2;
    }

    // Warps 0,1 meet at barrier 1 and warps 2,3 at barrier 2, 64 threads each.
    mail[w][lane] = v * 10 + (int)w;
    if (w < 2)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    int from_partner = mail[w ^ 1][lane];

    // Producer/consumer on barrier 3: warp 0 writes then arrives without
    // waiting; warp 3 waits until the data is there.
    __syncthreads();
    if (w == 0) {
        mail[0][lane] = from_partner + 1;
        asm volatile("bar.arrive 3, 64;" ::: "memory");
    } else if (w == 3) {
        asm volatile("bar.sync 3, 64;" ::: "memory");
        from_partner += mail[0][31 - lane];
    }
    out[t] = s[t] * 1000 + from_partner;
}
