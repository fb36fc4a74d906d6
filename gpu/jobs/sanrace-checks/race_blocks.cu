// race_blocks.cu: a tile in dynamic shared memory, filled by three warps whose
// ranges overlap (write-after-write), read back by a neighbour without a
// barrier, in each of two blocks.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void tile(const float *in, float *out) {
    extern __shared__ float buf[];
    int t = threadIdx.x;
    buf[t % 40] = in[blockIdx.x * 96 + t];
    __syncthreads();
    if (t < 40) buf[t] *= 2.0f;
    float v = buf[(t + 8) % 40];
    out[blockIdx.x * 96 + t] = v;
}

int main() {
    float *in, *out;
    cudaMalloc(&in, 2 * 96 * sizeof(float));
    cudaMalloc(&out, 2 * 96 * sizeof(float));
    cudaMemset(in, 0, 2 * 96 * sizeof(float));
    tile<<<2, 96, 40 * sizeof(float)>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
