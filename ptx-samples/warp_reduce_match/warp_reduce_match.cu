// __match_any_sync / __match_all_sync and the warp reductions
// __reduce_add/min/max/and/or/xor_sync (sm_80: redux.sync), with full and
// partial masks.
extern "C" __global__ void warp_reduce_match(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x, lane = t & 31;
    unsigned v = in[t];
    unsigned *o = out + 12 * t;
    o[0] = __match_any_sync(0xffffffffu, v & 7);
    int pred = 7;
    o[1] = __match_all_sync(0xffffffffu, v & 0x80000000u, &pred);
    o[2] = (unsigned)pred;
    o[3] = __match_all_sync(0xffffffffu, t >> 5, &pred) | (unsigned)pred << 31;
    unsigned long long wide = (unsigned long long)(v % 5) << 40 | (lane & 1);
    o[4] = __match_any_sync(0xffffffffu, wide);
    o[5] = __reduce_add_sync(0xffffffffu, v);
    o[6] = (unsigned)__reduce_min_sync(0xffffffffu, (int)v);
    o[7] = __reduce_max_sync(0xffffffffu, v);
    o[8] = __reduce_and_sync(0xffffffffu, v | 0x100u);
    o[9] = __reduce_or_sync(0xffffffffu, v & 0xf0f0u);
    o[10] = __reduce_xor_sync(0xffffffffu, v);
    o[11] = 0xdeadbeefu;
    if (lane < 12)
        o[11] = __reduce_add_sync(0x00000fffu, lane * lane) + (unsigned)__reduce_max_sync(0x00000fffu, -(int)lane);
}
