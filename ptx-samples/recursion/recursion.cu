// Real recursion: __noinline__ functions that call themselves, with a local
// array in each frame (so every frame needs its own stack memory) and a
// different depth in every lane.
__device__ __noinline__ unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ unsigned ackermann(unsigned m, unsigned n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

// Each frame keeps a small array indexed by data, so it lives in local memory.
__device__ __noinline__ unsigned frames(unsigned depth, unsigned seed)
{
    volatile unsigned local[8];
    for (int i = 0; i < 8; i++)
        local[i] = seed * (i + 1) + depth;
    unsigned r = depth == 0 ? seed : frames(depth - 1, seed * 31 + depth);
    return r ^ local[(seed + depth) & 7];
}

extern "C" __global__ void recursion(unsigned *out)
{
    unsigned t = threadIdx.x;
    out[3 * t] = fib(t % 20);
    out[3 * t + 1] = ackermann(t % 3, t % 5);
    out[3 * t + 2] = frames(t % 13, t);
}
