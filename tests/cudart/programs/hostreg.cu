// hostreg.cu — the program's own memory registered with cudaHostRegister: copies to and
// from it, its attributes and flags, registering twice, unregistering.
#include <cstdlib>
#include "check.h"

__global__ void inc(int *p) { p[threadIdx.x] += 1; }

int main() {
    int *h = (int *)malloc(4096), *d;
    for (int i = 0; i < 1024; i++) h[i] = i;
    SHOW(cudaHostRegister(h, 4096, cudaHostRegisterDefault));
    SHOW(cudaHostRegister(h + 4, 16, 0));
    SHOW(cudaGetLastError());
    cudaPointerAttributes a;
    SHOW(cudaPointerGetAttributes(&a, h + 3));
    printf("type %d\n", (int)a.type);
    unsigned flags = 0;
    SHOW(cudaHostGetFlags(&flags, h));
    printf("flags %u\n", flags);
    CHECK(cudaMalloc(&d, 4096));
    SHOW(cudaMemcpyAsync(d, h, 4096, cudaMemcpyHostToDevice, 0));
    inc<<<1, 1024>>>(d);
    SHOW(cudaMemcpy(h, d, 4096, cudaMemcpyDefault));
    printf("h[5]=%d h[1023]=%d\n", h[5], h[1023]);
    SHOW(cudaHostUnregister(h));
    SHOW(cudaHostUnregister(h));
    SHOW(cudaGetLastError());
    free(h);
    return 0;
}
