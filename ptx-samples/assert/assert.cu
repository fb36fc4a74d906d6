// A failing device assert: one thread of one block fails, after a line was
// printed (one thread prints, so the order of blocks does not matter). The recording keeps stdout, stderr (the assertion
// message) and the exit status (the context's sticky cudaErrorAssert).
#include <cassert>
#include <cstdio>

extern "C" __global__ void assert_kernel(const int *in, int *out)
{
    unsigned t = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + t];
    if (t == 0 && blockIdx.x == 0)
        printf("kernel starting, %d blocks\n", gridDim.x);
    out[blockIdx.x * blockDim.x + t] = v * 2;
    assert(v < 1000);
}
