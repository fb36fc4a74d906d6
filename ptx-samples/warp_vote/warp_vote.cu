// Warp votes: __ballot_sync, __all_sync, __any_sync, __activemask, with full
// masks, partial masks and inside a divergent branch, plus __popc/__ffs of the
// ballots. One result row per lane.
extern "C" __global__ void warp_vote(const int *in, unsigned *out)
{
    unsigned t = threadIdx.x, lane = t & 31;
    int v = in[t];
    unsigned *o = out + 8 * t;
    o[0] = __ballot_sync(0xffffffffu, v > 0);
    o[1] = __all_sync(0xffffffffu, v > -1000);
    o[2] = __any_sync(0xffffffffu, v == 7);
    o[3] = __all_sync(0xffffffffu, v > 0);
    o[4] = 0xdeadbeef;
    o[5] = 0xdeadbeef;
    if (lane & 1) {                               // odd lanes only
        o[4] = __ballot_sync(0xaaaaaaaau, v & 1);
        o[5] = __any_sync(0xaaaaaaaau, v > 40) | __all_sync(0xaaaaaaaau, v < 60) << 1;
    }
    if (lane < 20) {
        unsigned m = __ballot_sync(0x000fffffu, v % 3 == 0);
        o[6] = __popc(m) | __ffs(m) << 8 | (m & 0xfffff) << 12;
    } else {
        o[6] = __activemask();
    }
    o[7] = __ballot_sync(0xffffffffu, 1) ^ __activemask();   // converged again: 0
}
