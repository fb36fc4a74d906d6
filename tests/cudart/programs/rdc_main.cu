// rdc_main.cu — with rdc_lib.cu, relocatable device code (-rdc=true): a kernel calling a
// __device__ function and reading an extern __device__ variable of the other file.
#include "check.h"

extern __device__ int lib_bias;
__device__ int lib_twice(int x);
__global__ void use_lib(int *p) { p[threadIdx.x] = lib_twice(threadIdx.x) + lib_bias; }
int lib_run();

int main() {
    int *d, h[8];
    CHECK(cudaMalloc(&d, sizeof h));
    use_lib<<<1, 8>>>(d);
    SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("main: %d %d %d\n", h[0], h[1], h[7]);
    int bias = 1000;
    SHOW(cudaMemcpyToSymbol(lib_bias, &bias, sizeof bias));
    use_lib<<<1, 8>>>(d);
    SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("main after symbol copy: %d %d\n", h[0], h[7]);
    return lib_run();
}
