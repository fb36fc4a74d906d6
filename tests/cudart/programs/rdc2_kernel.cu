// rdc2_kernel.cu — with rdc2_util.cu: relocatable device code where both files print
// from the device (each has its own format strings, of the same PTX names) and define
// file-local helpers of the same name.
#include "check.h"

static __device__ __noinline__ int helper(int x) { return x * x * 10; }
__device__ int util_f(int x);

__global__ void k(int *p) {
    printf("kernel: helper(2) = %d\n", helper(2));
    p[0] = util_f(3);
}

int main() {
    int *d, h = 0;
    CHECK(cudaMalloc(&d, sizeof h));
    k<<<1, 1>>>(d);
    SHOW(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("h = %d\n", h);
    return 0;
}
