// threads.cu — several host threads using the runtime at once: each launches on its own
// stream, and the last error is each thread's own.
#include <thread>
#include "check.h"

__global__ void fill(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

int main() {
    const int n = 10000, T = 4;
    int *d;
    CHECK(cudaMalloc(&d, T * n * sizeof(int)));
    cudaError_t seen[T];
    std::thread th[T];
    for (int t = 0; t < T; t++)
        th[t] = std::thread([&, t] {
            cudaStream_t s;
            cudaStreamCreate(&s);
            for (int r = 0; r < 20; r++) fill<<<(n + 255) / 256, 256, 0, s>>>(d + t * n, t * 1000000 + r, n);
            if (t == 1) {
                void *big;
                cudaMalloc(&big, (size_t)1 << 50);
            }
            cudaStreamSynchronize(s);
            cudaStreamDestroy(s);
            seen[t] = cudaGetLastError();
        });
    for (int t = 0; t < T; t++) th[t].join();
    for (int t = 0; t < T; t++) printf("thread %d last error %s\n", t, cudaGetErrorName(seen[t]));
    SHOW(cudaGetLastError());
    int h[T];
    for (int t = 0; t < T; t++) SHOW(cudaMemcpy(&h[t], d + t * n + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < T; t++) printf("d[%d] = %d\n", t, h[t]);
    return 0;
}
