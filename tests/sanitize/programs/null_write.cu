// null_write.cu: thread 3 of block 1 writes through a null pointer.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void poke(int *p) {
    if (blockIdx.x == 1 && threadIdx.x == 3) p[0] = 7;
}

int main() {
    poke<<<2, 32>>>(nullptr);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
