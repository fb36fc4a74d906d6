// assert_many.cu — does the GPU print every failed assert of a large launch?
// 16 blocks of 256 threads, all fail; run.sh counts the messages on stderr.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void all_fail(int n) { assert(threadIdx.x >= (unsigned)n); }

int main() {
    all_fail<<<16, 256>>>(1 << 20);
    printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
