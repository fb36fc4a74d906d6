// oob_write.cu: an off-by-one write (i <= n) into a 384-byte buffer.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) out[i] = i;
}

int main() {
    int *d;
    cudaMalloc(&d, 96 * sizeof(int));
    fill<<<1, 128>>>(d, 96);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
