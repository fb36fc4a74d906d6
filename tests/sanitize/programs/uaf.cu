// uaf.cu: a kernel reads a buffer after cudaFree.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sum(const float *in, float *out) {
    out[threadIdx.x] = in[threadIdx.x] * 2.0f;
}

int main() {
    float *in, *out;
    cudaMalloc(&in, 1024);
    cudaMalloc(&out, 1024);
    cudaMemset(in, 0, 1024);
    cudaFree(in);
    sum<<<1, 4>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
