// dbg_app.cu — debugged by tests/debug/test_debug_app.c: two launches, host output,
// an exit status of its own; on request a fault ("oob": a write past an allocation,
// "assert", "trap") or a kernel waiting for the debugger ("spin"); with dbg_more.cu
// (dbg_app2) a second module. Tests name lines here: keep the kernels where they are.
#include <cassert>
#include <cstdio>
#include <cstring>
__global__ void scale(float *v, int n, float k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = v[i];
        v[i] = x * k;
    }
}

__global__ void offset(float *v, int n, float add) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += add;
}

__global__ void poke(int *p, int bad) {
    int i = threadIdx.x;
    int at = i == bad ? i + (1 << 26) : i;
    p[at] = i;
}

// v[i] = 2i + 1 by now: threads 35 to 39 fail
__global__ void check(const float *v, int n) {
    int i = threadIdx.x;
    assert(i >= n || v[i] < 70.0f);
}

__global__ void stop_at(int t) {
    if (threadIdx.x == t) __trap();
}

// ends when the debugger sets `go` (Ctrl-C at the prompt stops it first)
__device__ int go;
__global__ void spin() {
    while (!*(volatile int *)&go) {}
}

void more(float *v, int n) __attribute__((weak));

int main(int argc, char **argv) {
    const int n = 40;
    float h[n];
    for (int i = 0; i < n; i++) h[i] = (float)i;
    float *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    printf("host: before the kernels\n");
    scale<<<2, 32>>>(d, n, 2.0f);
    offset<<<1, 64>>>(d, n, 1.0f);
    if (more) more(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("host: v[5] = %g, v[39] = %g\n", h[5], h[39]);
    if (argc > 1 && !strcmp(argv[1], "reset")) {
        cudaDeviceReset();   // the modules are loaded again
        cudaMalloc(&d, sizeof h);
        cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
        scale<<<2, 32>>>(d, n, 2.0f);
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        printf("host: after the reset: v[5] = %g\n", h[5]);
    }
    if (argc > 1 && !strcmp(argv[1], "assert")) {
        check<<<1, 64>>>(d, n);
        printf("host: after check: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        return 3;
    }
    if (argc > 1 && !strcmp(argv[1], "spin")) {
        spin<<<1, 1>>>();
        printf("host: after spin: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        return 3;
    }
    if (argc > 1 && !strcmp(argv[1], "trap")) {
        stop_at<<<1, 32>>>(9);
        printf("host: after stop_at: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        return 3;
    }
    if (argc > 1 && !strcmp(argv[1], "oob")) {
        int *p;
        cudaMalloc(&p, 32 * sizeof(int));
        poke<<<1, 32>>>(p, 7);
        cudaError_t e = cudaDeviceSynchronize();
        printf("host: after poke: %s\n", cudaGetErrorName(e));
        return 3;
    }
    fprintf(stderr, "host: done\n");
    return 5;
}
