// dynpar_limits.cu — the device runtime's limits: nesting deeper than the hardware allows,
// more pending launches than cudaLimitDevRuntimePendingLaunchCount, and the limits' values.
#include "check.h"

// Each level records the result of launching the next one.
__global__ void deep(int *res, int level, int max) {
    if (level + 1 >= max) return;
    deep<<<1, 1>>>(res, level + 1, max);
    res[level] = cudaGetLastError();
}

__global__ void nothing(int *p) { if (p) p[0] = 1; }

// One thread queues n launches into one named stream behind a child that waits for the
// parent to finish launching: none of them can start, so all are pending at once.
__global__ void gate(volatile int *flag) { while (!*flag) { } }
__global__ void pending(int *res, volatile int *flag, int n) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    gate<<<1, 1, 0, s>>>(flag);
    int ok = 0, first_bad = -1, err = 0;
    for (int i = 0; i < n; i++) {
        nothing<<<1, 1, 0, s>>>(nullptr);
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess) ok++;
        else if (first_bad < 0) first_bad = i, err = e;
    }
    *flag = 1;
    __threadfence();
    res[0] = ok;
    res[1] = first_bad;
    res[2] = err;
    cudaStreamDestroy(s);
}

int main() {
    size_t v;
    SHOW(cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount));
    printf("pending launch count limit %zu\n", v);
    SHOW(cudaDeviceGetLimit(&v, cudaLimitDevRuntimeSyncDepth));
    printf("sync depth limit %zu\n", v);

    SHOW(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 32));
    SHOW(cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount));
    printf("pending launch count limit %zu\n", v);
    int *res;
    CHECK(cudaMalloc(&res, 64 * sizeof(int)));
    int h[64];
    int *flag;
    CHECK(cudaMalloc(&flag, sizeof(int)));
    CHECK(cudaMemset(flag, 0, sizeof(int)));
    CHECK(cudaMemset(res, 0xff, 64 * sizeof(int)));
    pending<<<1, 1>>>(res, flag, 100);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, res, 3 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("pending: %d launched, first refused %d, error %d\n", h[0], h[1], h[2]);
    SHOW(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 2048));
    CHECK(cudaMemset(res, 0xff, 64 * sizeof(int)));
    deep<<<1, 1>>>(res, 0, 30);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, res, sizeof h, cudaMemcpyDeviceToHost));
    printf("depth:");
    for (int i = 0; i < 30; i++) printf(" %d", h[i]);
    printf("\n");

    SHOW(cudaGetLastError());
    return 0;
}
