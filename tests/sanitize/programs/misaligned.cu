// misaligned.cu: a 4-byte load from an address one byte into a buffer.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void peek(const char *buf, int *out) {
    if (threadIdx.x == 0) out[0] = *(const int *)(buf + 1);
}

int main() {
    char *buf;
    int *out;
    cudaMalloc(&buf, 64);
    cudaMalloc(&out, 64);
    cudaMemset(buf, 0, 64);
    peek<<<1, 32>>>(buf, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
