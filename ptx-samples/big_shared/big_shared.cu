// Dynamic shared memory past the 48 KiB default (the launch opts in), up to
// and beyond the per-block maximum: a too-large request fails at launch.
extern "C" __global__ void big_shared(unsigned *out)
{
    extern __shared__ unsigned sm[];
    unsigned n;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(n));
    n /= 4;
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
        sm[i] = i * 2654435761u;
    __syncthreads();
    unsigned acc = 0;
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
        acc += sm[n - 1 - i] ^ i;
    out[threadIdx.x] = acc;
    if (threadIdx.x == 0)
        out[blockDim.x] = n;
}
