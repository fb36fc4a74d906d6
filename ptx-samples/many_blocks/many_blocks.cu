// Many blocks over a 2-D grid with a grid-stride loop: every element is
// visited exactly once whatever the launch shape, and each block also reports
// a checksum of what it did.
extern "C" __global__ void many_blocks(const unsigned *in, unsigned n, unsigned *out, unsigned *sums)
{
    unsigned nthreads = gridDim.x * gridDim.y * blockDim.x;
    unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
    unsigned id = block * blockDim.x + threadIdx.x;
    unsigned local = 0;
    for (unsigned i = id; i < n; i += nthreads) {
        unsigned v = in[i] * 2654435761u ^ i;
        out[i] = v;
        local += v >> 7;
    }
    atomicAdd(&sums[block], local);
}
