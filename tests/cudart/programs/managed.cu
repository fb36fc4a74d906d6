// managed.cu — managed memory: cudaMallocManaged written by the host and the device in
// turn, __managed__ variables, prefetch and advice hints, and cudaMemGetInfo.
#include "check.h"

__managed__ int hits;
__managed__ double weights[4] = {0.5, 0.25, 0.125, 0.0625};

__global__ void bump(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i] = p[i] * 2 + 1;
        atomicAdd(&hits, 1);
    }
    if (i == 0) weights[3] = weights[0] + weights[1];
}

int main() {
    const int n = 3000;
    int *m;
    SHOW(cudaMallocManaged(&m, n * sizeof(int)));
    for (int i = 0; i < n; i++) m[i] = i;
    hits = 0;
    bump<<<(n + 127) / 128, 128>>>(m, n);
    SHOW(cudaDeviceSynchronize());
    printf("m[0]=%d m[%d]=%d hits=%d w3=%g\n", m[0], n - 1, m[n - 1], hits, weights[3]);
    for (int i = 0; i < n; i++) m[i] = -i;
    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = 0;
    SHOW(cudaMemPrefetchAsync(m, n * sizeof(int), loc, 0, 0));
    SHOW(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetReadMostly, loc));
    bump<<<(n + 127) / 128, 128>>>(m, n);
    SHOW(cudaDeviceSynchronize());
    printf("m[1]=%d m[%d]=%d hits=%d\n", m[1], n - 1, m[n - 1], hits);
    size_t free_b = 0, total_b = 0;
    SHOW(cudaMemGetInfo(&free_b, &total_b));
    printf("free <= total: %d, total > 1 GiB: %d\n", free_b <= total_b, total_b > (1ull << 30));
    SHOW(cudaMallocManaged(&m, 16, 0x100));
    SHOW(cudaGetLastError());
    SHOW(cudaFree(m));
    return 0;
}
