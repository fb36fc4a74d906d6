// sync_shfl_exited.cu: lanes 16-31 return early; the rest call __shfl_sync and
// __ballot_sync with the full mask, naming the lanes that exited.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void early_exit(const int *in, int *out) {
    int t = threadIdx.x;
    if (in[t] != 0) return;
    int v = __shfl_sync(0xffffffffu, t * 2, 0);
    unsigned b = __ballot_sync(0xffffffffu, t & 1);
    out[t] = v + (int)b;
}

int main() {
    int *in, *out, h[32];
    cudaMalloc(&in, 32 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    for (int k = 0; k < 32; k++) h[k] = k >= 16;
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    early_exit<<<1, 32>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
