// Every state space in one kernel: initialized globals and constants, static
// and dynamic shared memory, a local array indexed by data, a __grid_constant__
// struct parameter whose address is taken, and generic pointers converted to
// and from each space (cvta) and classified (isspacep).
#include <cstdint>

struct Params {              // 8 bytes: passed on the command line as one u64
    int scale;
    int offset;
};

__constant__ int ctab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__constant__ float cscale = 2.5f;
__device__ int gtab[4] = {10, 20, 30, 40};
__device__ unsigned long long gcounter = 1000;

__device__ __noinline__ unsigned classify(const void *p)
{
    return (unsigned)__isGlobal(p) | (unsigned)__isShared(p) << 1 | (unsigned)__isLocal(p) << 2 |
           (unsigned)__isConstant(p) << 3 | (unsigned)__isGridConstant(p) << 4;
}

extern "C" __global__ void state_spaces(const __grid_constant__ Params p, const int *in, int *out, unsigned *kinds)
{
    __shared__ int s[64];
    extern __shared__ int dyn[];
    int local[16];
    unsigned t = threadIdx.x;

    s[t] = in[t] * p.scale;
    dyn[t] = in[63 - t] + p.offset;
    for (int i = 0; i < 16; i++)
        local[i] = in[(t + i) & 63] ^ i;
    __syncthreads();

    int v = s[63 - t] + dyn[(t * 7) & 63] + local[in[t] & 15] + ctab[t & 7] + gtab[t & 3];
    v += (int)(cscale * (float)t);
    out[t] = v;
    atomicAdd(&gcounter, t);

    // Which space each generic pointer lies in.
    if (t == 0) {
        const void *ptrs[] = {in, out, &gtab[1], s, &dyn[3], local, &ctab[2], &cscale, &p};
        for (int i = 0; i < 9; i++)
            kinds[i] = classify(ptrs[i]);
    }
    // cvta round trips, and offsets inside each window (layout-independent).
    if (t == 1) {
        size_t sh0 = __cvta_generic_to_shared(&s[0]);
        size_t sh5 = __cvta_generic_to_shared(&s[5]);
        size_t d0 = __cvta_generic_to_shared(&dyn[0]);
        size_t d9 = __cvta_generic_to_shared(&dyn[9]);
        kinds[9] = (unsigned)(sh5 - sh0);
        kinds[10] = (unsigned)(d9 - d0);
        kinds[11] = __cvta_shared_to_generic(sh5) == (void *)&s[5];
        kinds[12] = __cvta_global_to_generic(__cvta_generic_to_global(out + 3)) == (void *)(out + 3);
        kinds[13] = __cvta_constant_to_generic(__cvta_generic_to_constant(&ctab[4])) == (void *)&ctab[4];
        size_t l3 = __cvta_generic_to_local(&local[3]);
        kinds[14] = __cvta_local_to_generic(l3) == (void *)&local[3];
        kinds[15] = (unsigned)(__cvta_generic_to_local(&local[7]) - l3);
        kinds[16] = *(const int *)__cvta_constant_to_generic(__cvta_generic_to_constant(&ctab[5]));
        kinds[17] = (unsigned)(sh0 < 0x100000) | (unsigned)(d0 < 0x100000) << 1 | (unsigned)(d0 >= sh0 + 256) << 2;
    }
    __syncthreads();
    if (t == 0)
        kinds[18] = (unsigned)gcounter;
}
