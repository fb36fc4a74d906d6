// pdl.cu — programmatic dependent launch: a consumer launched with
// cudaLaunchAttributeProgrammaticStreamSerialization waits in
// cudaGridDependencySynchronize (griddepcontrol.wait) for the producer, which
// signals with cudaTriggerProgrammaticLaunchCompletion (griddepcontrol.launch_dependents);
// the consumer then sees everything the producer wrote.
#include "check.h"

__global__ void producer(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 3 * i + 1;
    cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void consumer(const int *a, int *b, int n) {
    cudaGridDependencySynchronize();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = a[i] * 2;
}

int main() {
    const int n = 4096;
    int *a, *b;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&b, n * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    for (int pdl = 0; pdl < 2; pdl++) {
        CHECK(cudaMemset(a, 0, n * sizeof(int)));
        CHECK(cudaMemset(b, 0, n * sizeof(int)));
        producer<<<n / 256, 256, 0, s>>>(a, n);
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(n / 256), cfg.blockDim = dim3(256), cfg.stream = s;
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[0].val.programmaticStreamSerializationAllowed = 1;
        cfg.attrs = attr, cfg.numAttrs = pdl;
        SHOW(cudaLaunchKernelEx(&cfg, consumer, (const int *)a, b, n));
        SHOW(cudaStreamSynchronize(s));
        int h[n];
        CHECK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
        long long sum = 0;
        int wrong = 0;
        for (int i = 0; i < n; i++) sum += h[i], wrong += h[i] != 2 * (3 * i + 1);
        printf("%s: sum %lld, %d wrong, b[0] %d b[%d] %d\n", pdl ? "programmatic" : "plain", sum, wrong, h[0], n - 1,
               h[n - 1]);
    }
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    printf("done\n");
    return 0;
}
