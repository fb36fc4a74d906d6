// Every atomic function of the CUDA runtime on every type it takes, once on
// global and once on shared memory: `atomics`, one block of 64 threads, and
// `atomics_grid`, 16 blocks of 256 threads all on the same global cells and
// each block's 256 threads on its shared cells (heavy contention). All
// results are independent of the order the threads arrive in, for any number
// of threads up to 4096: commutative updates use values whose partial sums
// are exact in every order (f16 sums stay within 2048), a compare-and-swap
// has one possible winner, and for exchanges the sum of every returned old
// value plus the final value is recorded (it equals the initial value plus
// everything written).
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define N 32   // number of result slots per space

struct cells {
    int i[12];
    unsigned u[12];
    unsigned long long ull[10];
    long long ll[2];
    float f[3];
    double d[2];
    __half2 h2;
    __half h[2];
    __nv_bfloat162 b2;
    __nv_bfloat16 b[2];
    unsigned short us;
};

__device__ void init(cells *c)
{
    for (int k = 0; k < 12; k++) {
        c->i[k] = 0;
        c->u[k] = 0;
    }
    c->i[4] = 1000;       // min target
    c->i[5] = -1000;      // max target
    c->u[4] = 0xffffffffu;
    c->u[10] = 0xffffffffu;
    c->u[11] = 0xffffffffu;
    for (int k = 0; k < 10; k++)
        c->ull[k] = 0;
    c->ull[4] = ~0ull;
    c->ull[7] = ~0ull;
    c->ll[0] = 1ll << 40;
    c->ll[1] = -(1ll << 40);
    c->f[0] = c->f[1] = c->f[2] = 0.0f;
    c->d[0] = c->d[1] = 0.0;
    c->h2 = __floats2half2_rn(0.0f, 0.0f);
    c->h[0] = c->h[1] = __float2half(0.0f);
    c->b2 = __floats2bfloat162_rn(0.0f, 0.0f);
    c->b[0] = c->b[1] = __float2bfloat16(0.0f);
    c->us = 0;
}

// Applied by every thread t (0..n-1) to one set of cells.
__device__ void apply(cells *c, unsigned t, int *sums)
{
    int st = (int)t;
    atomicAdd(&c->i[0], st - 20);
    atomicSub(&c->i[1], st * 3);
    atomicAdd(&sums[0], atomicExch(&c->i[2], st + 1));        // sum of olds + final
    atomicOr(&c->i[3], 1 << (t % 31));
    atomicMin(&c->i[4], st * 7 - 100);
    atomicMax(&c->i[5], -st * 5);
    atomicAnd(&c->i[6], -1);                                    // stays 0
    atomicXor(&c->i[7], st * 0x1111);
    int old;
    do {                                                        // CAS increment loop
        old = *(volatile int *)&c->i[8];                        // (a strong read: others write it)
    } while (atomicCAS(&c->i[8], old, old + 2) != old);
    atomicAdd(&sums[1], atomicAdd(&c->i[9], 1));                // olds are 0..n-1
    atomicAdd_block(&c->i[10], 2);
    atomicAdd_system(&c->i[11], 3);

    atomicAdd(&c->u[0], t * 0x01000001u);
    atomicSub(&c->u[1], t);
    atomicAdd(&sums[2], (int)atomicExch(&c->u[2], t * 2u));
    atomicInc(&c->u[3], 17u);                                  // wraps at 17
    atomicMin(&c->u[4], t + 5u);
    atomicMax(&c->u[5], t ^ 0x2au);
    atomicDec(&c->u[6], 9u);                                   // 0 -> 9 -> ... wraps
    atomicCAS(&c->u[7], t % 7 ? 5u : 0u, 100u + t % 7);        // the first with t % 7 == 0 wins
    atomicOr(&c->u[8], t << 20);
    atomicXor(&c->u[9], t * t);
    atomicAnd(&c->u[10], ~(1u << (t & 31)));
    atomicAnd(&c->u[11], 0xffffff00u | t);

    unsigned long long ut = t;
    atomicAdd(&c->ull[0], ut << 33);
    atomicAdd(&sums[3], (int)(atomicExch(&c->ull[1], ut + 7) & 0xffff));
    atomicCAS(&c->ull[2], 0ull, 0x123456789abcull);            // exactly one wins
    atomicOr(&c->ull[3], 1ull << ((t + 16) & 63));
    atomicMin(&c->ull[4], 0x100000000ull + ut * 3);
    atomicMax(&c->ull[5], ut << 36);
    atomicXor(&c->ull[6], 0xf0f0f0f0f0ull * ut);
    atomicAnd(&c->ull[7], ~(1ull << ((t * 2) & 63)));
    atomicMin(&c->ll[0], -(long long)ut * 1000000000ll);
    atomicMax(&c->ll[1], (long long)ut - 5);

    atomicAdd(&c->f[0], 0.5f * (float)(t & 3));
    atomicAdd(&sums[4], (int)atomicExch(&c->f[1], (float)t));
    atomicAdd(&c->f[2], -1.25f);
    atomicAdd(&c->d[0], 0.25 * (double)t);
    atomicAdd(&c->d[1], 1e10);
    atomicAdd(&c->h2, __floats2half2_rn(1.0f, (float)(t & 1)));
    atomicAdd(&c->h[0], __float2half(2.0f));
    atomicAdd(&c->h[1], __float2half(t & 1 ? 0.5f : -0.5f));
    atomicAdd(&c->b2, __floats2bfloat162_rn(2.0f, (float)(t & 1)));
    atomicAdd(&c->b[0], __float2bfloat16(1.0f));
    atomicAdd(&c->b[1], __float2bfloat16(-4.0f));
    unsigned short so;
    do {
        so = *(volatile unsigned short *)&c->us;
    } while (atomicCAS(&c->us, so, (unsigned short)(so + 3)) != so);
}

// The final value of an exchanged cell depends on the order of arrival; its
// sum with all returned old values does not. Fold it in and clear the cell.
__device__ void settle(cells *c, int *sums)
{
    sums[0] += c->i[2];
    sums[2] += (int)c->u[2];
    sums[3] += (int)(c->ull[1] & 0xffff);
    sums[4] += (int)c->f[1];
    c->i[2] = -1;
    c->u[2] = 0xffffffffu;
    c->ull[1] = ~0ull;
    c->f[1] = -1.0f;
}

// Launched with one block of 32 * k threads; g and the global sums start zeroed.
extern "C" __global__ void atomics(cells *g, cells *sh_out, int *sums)
{
    __shared__ cells s;
    __shared__ int ssum[8];
    unsigned t = threadIdx.x;
    if (t == 0) {
        init(&s);
        init(g);
        for (int k = 0; k < 8; k++)
            ssum[k] = 0;
    }
    __syncthreads();
    apply(g, t, sums);
    apply(&s, t, ssum);
    __syncthreads();
    if (t == 0) {
        settle(g, sums);
        settle(&s, ssum);
        *sh_out = s;
        for (int k = 0; k < 8; k++)
            sums[8 + k] = ssum[k];
    }
}

// 16 blocks of 256 threads: global thread t applies to the global cells, each
// block's threads to its shared ones. Block 0 initializes the global cells
// first (the others wait for `ready`); the last block to finish settles them.
// sh_out[b] receives block b's settled shared cells, sums[8..15] the sums of
// the blocks' shared-cell sums.
__device__ volatile int ready;
__device__ unsigned finished;

extern "C" __global__ void atomics_grid(cells *g, cells *sh_out, int *sums)
{
    __shared__ cells s;
    __shared__ int ssum[8];
    __shared__ bool last;
    unsigned t = threadIdx.x;
    if (t == 0) {
        init(&s);
        for (int k = 0; k < 8; k++)
            ssum[k] = 0;
        if (blockIdx.x == 0) {
            init(g);
            __threadfence();
            ready = 1;
        }
        while (!ready) {
        }
        __threadfence();
    }
    __syncthreads();
    apply(g, blockIdx.x * blockDim.x + t, sums);
    apply(&s, t, ssum);
    __syncthreads();
    if (t == 0) {
        settle(&s, ssum);
        sh_out[blockIdx.x] = s;
        for (int k = 0; k < 8; k++)
            atomicAdd(&sums[8 + k], ssum[k]);
        __threadfence();
        last = atomicAdd(&finished, 1u) == gridDim.x - 1;
        if (last) {
            __threadfence();
            settle(g, sums);
        }
    }
}
