// clean.cu: in-bounds accesses right up to the end of odd-sized buffers, shared
// memory and a freed-then-reallocated buffer: nothing to report.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void edge(const unsigned char *in, unsigned char *out, int n) {
    __shared__ unsigned char s[200];
    int i = threadIdx.x;
    if (i < 200) s[i] = (unsigned char)i;
    __syncthreads();
    if (i < n) out[i] = in[i] + s[i % 200];
}

int main() {
    unsigned char *in, *out, h[383];
    cudaMalloc(&in, 383);
    cudaMalloc(&out, 383);
    for (int k = 0; k < 383; k++) h[k] = (unsigned char)k;
    cudaMemcpy(in, h, 383, cudaMemcpyHostToDevice);
    edge<<<1, 383>>>(in, out, 383);
    cudaMemcpy(h, out, 383, cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaMalloc(&in, 100);
    cudaMemset(in, 1, 100);
    edge<<<1, 128>>>(in, out, 100);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s %d %d\n", cudaGetErrorName(e), h[0], h[382]);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
