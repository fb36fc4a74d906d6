// streams.cu — streams, events and host callbacks: work issued on several streams,
// events recorded, waited on and timed, callbacks and host functions running in
// stream order, queries, and invalid handles.
#include "check.h"

__global__ void add(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}

static int *watched;

static void CUDART_CB after(cudaStream_t s, cudaError_t status, void *user) {
    (void)s;
    printf("callback %s: status %s, value %d\n", (const char *)user, cudaGetErrorName(status), watched[0]);
}

static void CUDART_CB host_fn(void *user) { printf("host function %s, value %d\n", (const char *)user, watched[0]); }

int main() {
    const int n = 4096;
    int *d, *h;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    watched = h;
    cudaStream_t s1, s2;
    SHOW(cudaStreamCreate(&s1));
    SHOW(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    unsigned flags = 99;
    SHOW(cudaStreamGetFlags(s2, &flags));
    printf("flags=%u\n", flags);
    int lo, hi, prio = 99;
    SHOW(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    printf("priorities %d..%d\n", lo, hi);
    cudaStream_t s3;
    SHOW(cudaStreamCreateWithPriority(&s3, 0, hi));
    SHOW(cudaStreamGetPriority(s3, &prio));
    printf("priority=%d\n", prio);

    cudaEvent_t e0, e1, e2, nt;
    SHOW(cudaEventCreate(&e0));
    SHOW(cudaEventCreate(&e1));
    SHOW(cudaEventCreateWithFlags(&e2, cudaEventBlockingSync));
    SHOW(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
    float ms = -1;
    SHOW(cudaEventElapsedTime(&ms, e0, e1));
    SHOW(cudaEventQuery(e0));
    SHOW(cudaEventRecord(e0, s1));
    SHOW(cudaMemsetAsync(d, 0, n * sizeof(int), s1));
    add<<<n / 256, 256, 0, s1>>>(d, 1, n);
    add<<<n / 256, 256, 0, s1>>>(d, 10, n);
    SHOW(cudaEventRecord(e1, s1));
    SHOW(cudaStreamWaitEvent(s2, e1, 0));
    add<<<n / 256, 256, 0, s2>>>(d, 100, n);
    SHOW(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
    SHOW(cudaStreamAddCallback(s2, after, (void *)"s2", 0));
    SHOW(cudaLaunchHostFunc(s2, host_fn, (void *)"s2"));
    SHOW(cudaEventRecord(e2, s2));
    SHOW(cudaEventRecord(nt, s2));
    SHOW(cudaEventSynchronize(e2));
    SHOW(cudaEventQuery(e2));
    SHOW(cudaStreamQuery(s2));
    printf("h[0]=%d h[%d]=%d\n", h[0], n - 1, h[n - 1]);
    SHOW(cudaEventElapsedTime(&ms, e0, e1));
    printf("elapsed is %s\n", ms >= 0 ? "non-negative" : "negative");
    SHOW(cudaEventElapsedTime(&ms, e0, nt));
    SHOW(cudaGetLastError());

    add<<<1, 1, 0, s3>>>(d, 1000, 1);
    SHOW(cudaStreamSynchronize(s3));
    SHOW(cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost));
    printf("h[0]=%d\n", h[0]);
    SHOW(cudaStreamSynchronize(cudaStreamPerThread));
    SHOW(cudaStreamSynchronize(cudaStreamLegacy));

    SHOW(cudaEventDestroy(e0));
    SHOW(cudaEventDestroy(e1));
    SHOW(cudaEventDestroy(e2));
    SHOW(cudaEventDestroy(nt));
    SHOW(cudaStreamDestroy(s1));
    SHOW(cudaStreamDestroy(s2));
    SHOW(cudaStreamDestroy(s3));
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaFreeHost(h));
    SHOW(cudaFree(d));
    return 0;
}
