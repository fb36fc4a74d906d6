// memcpy.cu — the memory API: every cudaMemcpy direction (Default included), async
// copies, memset, pitched 2D allocations and copies, page-locked and mapped host
// memory reached by a kernel, pointer attributes, and the errors of each.
#include <cstring>
#include "check.h"

__global__ void scale(int *p, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= k;
}

__global__ void fill2d(char *p, size_t pitch, int w, int h) {
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) p[y * pitch + x] = (char)(x + 2 * y);
}

static const char *type_name(cudaMemoryType t) {
    switch (t) {
    case cudaMemoryTypeUnregistered: return "unregistered";
    case cudaMemoryTypeHost: return "host";
    case cudaMemoryTypeDevice: return "device";
    case cudaMemoryTypeManaged: return "managed";
    }
    return "?";
}

static void attrs(const char *what, const void *p) {
    cudaPointerAttributes a;
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    printf("attributes(%s) -> %s type=%s device=%d dev=%s host=%s\n", what, cudaGetErrorName(e),
           type_name(a.type), a.device, a.devicePointer == p ? "same" : a.devicePointer ? "other" : "null",
           a.hostPointer == p ? "same" : a.hostPointer ? "other" : "null");
}

int main() {
    const int n = 1000;
    int h[n], back[n];
    for (int i = 0; i < n; i++) h[i] = i - 300;
    int *d, *d2;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMalloc(&d2, n * sizeof(int)));
    SHOW(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    scale<<<4, 256>>>(d, n, 3);
    SHOW(cudaMemcpy(d2, d, sizeof h, cudaMemcpyDeviceToDevice));
    memset(back, 0, sizeof back);
    SHOW(cudaMemcpy(back, d2, sizeof back, cudaMemcpyDeviceToHost));
    printf("back[0]=%d back[999]=%d\n", back[0], back[999]);
    SHOW(cudaMemcpy(back, d, 8, cudaMemcpyDefault));
    SHOW(cudaMemcpy(d2, back, 8, cudaMemcpyDefault));
    SHOW(cudaMemcpy(back + 10, back, 8, cudaMemcpyHostToHost));
    printf("back[10]=%d back[11]=%d\n", back[10], back[11]);

    SHOW(cudaMemset(d, 0x01, 16));
    SHOW(cudaMemsetAsync(d + 4, 0xff, 8, 0));
    SHOW(cudaMemcpyAsync(back, d, 24, cudaMemcpyDeviceToHost, 0));
    SHOW(cudaStreamSynchronize(0));
    printf("memset: %08x %08x %08x %08x %08x %08x\n", back[0], back[1], back[2], back[3], back[4], back[5]);

    // errors
    SHOW(cudaMemcpy(d, h, 4, (cudaMemcpyKind)7));
    SHOW(cudaGetLastError());
    SHOW(cudaMemcpy(d, h, 1 << 20, cudaMemcpyHostToDevice));
    SHOW(cudaGetLastError());
    SHOW(cudaFree(h));
    SHOW(cudaFree(d + 1));
    SHOW(cudaFree(nullptr));
    SHOW(cudaGetLastError());
    SHOW(cudaMemset(nullptr, 0, 4));
    SHOW(cudaGetLastError());

    // pitched 2D
    char *p2;
    size_t pitch = 0;
    const int w = 100, hgt = 7;
    SHOW(cudaMallocPitch((void **)&p2, &pitch, w, hgt));
    printf("pitch=%zu\n", pitch);
    SHOW(cudaMemset2D(p2, pitch, 0x55, w, hgt));
    fill2d<<<hgt, 128>>>(p2, pitch, w - 1, hgt);
    char host2d[hgt][w];
    SHOW(cudaMemcpy2D(host2d, w, p2, pitch, w, hgt, cudaMemcpyDeviceToHost));
    printf("2d: %d %d %d %d\n", host2d[0][0], host2d[3][5], host2d[6][98], host2d[6][99]);
    SHOW(cudaMemcpy2D(host2d, w, p2, pitch, pitch + 1, hgt, cudaMemcpyDeviceToHost));
    SHOW(cudaGetLastError());
    SHOW(cudaMemcpy2DAsync(p2, pitch, host2d, w, w, 2, cudaMemcpyHostToDevice, 0));
    SHOW(cudaFree(p2));

    // page-locked and mapped host memory
    int *ph, *pm, *dev_view;
    SHOW(cudaMallocHost(&ph, 64 * sizeof(int)));
    SHOW(cudaHostAlloc(&pm, 64 * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < 64; i++) ph[i] = pm[i] = i;
    SHOW(cudaHostGetDevicePointer((void **)&dev_view, pm, 0));
    scale<<<1, 64>>>(dev_view, 64, 5);
    scale<<<1, 64>>>(ph, 64, 7);
    SHOW(cudaDeviceSynchronize());
    printf("mapped: %d %d  pinned: %d %d\n", pm[1], pm[63], ph[1], ph[63]);
    attrs("malloc", d);
    attrs("malloc+4", d + 1);
    attrs("pinned", ph);
    attrs("stack", h);
    int *m;
    SHOW(cudaMallocManaged(&m, 16));
    attrs("managed", m);
    SHOW(cudaFreeHost(ph));
    SHOW(cudaFreeHost(pm));
    SHOW(cudaFreeHost(d));
    SHOW(cudaGetLastError());
    SHOW(cudaFree(m));
    SHOW(cudaFree(d));
    SHOW(cudaFree(d2));
    return 0;
}
