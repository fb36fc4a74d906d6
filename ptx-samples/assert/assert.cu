// A failing device assert: one thread of one block fails, after every thread
// has printed a line. The recording keeps stdout, stderr (the assertion
// message) and the exit status (the context's sticky cudaErrorAssert).
#include <cassert>
#include <cstdio>

extern "C" __global__ void assert_kernel(const int *in, int *out)
{
    unsigned t = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + t];
    if (t == 0)
        printf("block %d starting\n", blockIdx.x);
    out[blockIdx.x * blockDim.x + t] = v * 2;
    assert(v < 1000);
}
