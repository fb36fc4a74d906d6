// Whole program: streams and events. Work is split over several streams with
// async copies (pinned host memory), ordered across streams by an event,
// queried and synchronized; a host callback and stream priorities are used.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *v, unsigned n, float k)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * k + 1.0f;
}

__global__ void combine(const float *a, const float *b, float *c, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] - b[i];
}

static void CUDART_CB on_host(void *arg)
{
    printf("host function ran: %s\n", (const char *)arg);
}

int main()
{
    const unsigned n = 1 << 16, parts = 4, chunk = n / parts;
    float *h, *a, *b, *c;
    cudaMallocHost(&h, n * sizeof(float));
    for (unsigned i = 0; i < n; i++)
        h[i] = (float)(i % 97);
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaStream_t s[parts];
    int lo, hi;
    cudaDeviceGetStreamPriorityRange(&lo, &hi);
    for (unsigned p = 0; p < parts; p++)
        cudaStreamCreateWithPriority(&s[p], cudaStreamNonBlocking, p == 0 ? hi : lo);
    cudaEvent_t done[parts], start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, s[0]);
    for (unsigned p = 0; p < parts; p++) {
        cudaEventCreateWithFlags(&done[p], cudaEventDisableTiming);
        float *ap = a + p * chunk;
        cudaMemcpyAsync(ap, h + p * chunk, chunk * sizeof(float), cudaMemcpyHostToDevice, s[p]);
        scale<<<chunk / 256, 256, 0, s[p]>>>(ap, chunk, 2.0f);
        cudaMemcpyAsync(b + p * chunk, ap, chunk * sizeof(float), cudaMemcpyDeviceToDevice, s[p]);
        scale<<<chunk / 256, 256, 0, s[p]>>>(b + p * chunk, chunk, 0.5f);
        cudaEventRecord(done[p], s[p]);
    }
    // Stream 0 combines everything, so it waits for every part's event.
    for (unsigned p = 1; p < parts; p++)
        cudaStreamWaitEvent(s[0], done[p], 0);
    combine<<<n / 256, 256, 0, s[0]>>>(a, b, c, n);
    cudaLaunchHostFunc(s[0], on_host, (void *)"after combine");
    cudaMemcpyAsync(h, c, n * sizeof(float), cudaMemcpyDeviceToHost, s[0]);
    cudaEventRecord(stop, s[0]);
    cudaEventSynchronize(stop);
    float ms = -1;
    cudaError_t te = cudaEventElapsedTime(&ms, start, stop);
    printf("elapsed time query: %s, non-negative: %d\n", cudaGetErrorName(te), ms >= 0);
    printf("timing on a no-timing event: %s\n", cudaGetErrorName(cudaEventElapsedTime(&ms, done[0], stop)));
    printf("query stop: %s, query stream 0: %s\n", cudaGetErrorName(cudaEventQuery(stop)),
           cudaGetErrorName(cudaStreamQuery(s[0])));
    double total = 0;
    for (unsigned i = 0; i < n; i++)
        total += h[i];
    printf("c[0..3] = %g %g %g %g, total %.1f\n", h[0], h[1], h[2], h[3], total);
    for (unsigned p = 0; p < parts; p++) {
        cudaStreamDestroy(s[p]);
        cudaEventDestroy(done[p]);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFreeHost(h);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    printf("status: %s\n", cudaGetErrorName(cudaGetLastError()));
    return 0;
}
