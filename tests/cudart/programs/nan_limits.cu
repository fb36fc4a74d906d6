// nan_limits.cu — atan2f/atan2 of NaN operands (quiet and signalling, either
// sign, with payloads): the NaN bits the GPU returns; and cudaDeviceSetLimit of
// the printf FIFO and the heap before and after the first launch.
#include <cstdint>
#include <cstring>
#include "check.h"

__global__ void nop() {}
__global__ void atan2_f(const float *y, const float *x, int n, float *out) {
    int i = threadIdx.x;
    if (i < n * n) out[i] = atan2f(y[i / n], x[i % n]);
}
__global__ void atan2_d(const double *y, const double *x, int n, double *out) {
    int i = threadIdx.x;
    if (i < n * n) out[i] = atan2(y[i / n], x[i % n]);
}

static void set_limit(const char *when, cudaLimit l, const char *name, size_t v) {
    cudaError_t e = cudaDeviceSetLimit(l, v);
    size_t got = 0;
    cudaError_t g = cudaDeviceGetLimit(&got, l);
    printf("%s: set %s %zu -> %s, get %zu (%s), last error %s\n", when, name, v, cudaGetErrorName(e), got,
           cudaGetErrorName(g), cudaGetErrorName(cudaGetLastError()));
}

int main() {
    set_limit("before any launch", cudaLimitPrintfFifoSize, "printf fifo", 2 << 20);
    nop<<<1, 1>>>();
    SHOW(cudaDeviceSynchronize());
    set_limit("after a launch", cudaLimitPrintfFifoSize, "printf fifo", 4 << 20);
    set_limit("after a launch", cudaLimitPrintfFifoSize, "printf fifo", 2 << 20);
    set_limit("after a launch", cudaLimitMallocHeapSize, "malloc heap", 32 << 20);
    set_limit("after a launch", cudaLimitStackSize, "stack", 2048);

    const uint32_t fb[] = {0x7fc00000u, 0xffc00000u, 0x7fa00001u, 0xff812345u, 0x7fffffffu,
                           0x3f800000u, 0xbf800000u, 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u};
    const int nf = sizeof fb / sizeof *fb;
    float hf[nf * nf], *yf, *xf, *of;
    memcpy(hf, fb, sizeof fb);
    CHECK(cudaMalloc(&yf, sizeof fb));
    CHECK(cudaMalloc(&xf, sizeof fb));
    CHECK(cudaMalloc(&of, sizeof hf));
    CHECK(cudaMemcpy(yf, hf, sizeof fb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(xf, hf, sizeof fb, cudaMemcpyHostToDevice));
    atan2_f<<<1, nf * nf>>>(yf, xf, nf, of);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hf, of, sizeof hf, cudaMemcpyDeviceToHost));
    printf("atan2f(y, x), rows y, columns x:");
    for (int i = 0; i < nf * nf; i++) {
        uint32_t u;
        memcpy(&u, &hf[i], 4);
        if (i % nf == 0) printf("\n  %08x:", fb[i / nf]);
        printf(" %08x", u);
    }
    printf("\n");

    const uint64_t db[] = {0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff4000000000001ull, 0xfff0000012345678ull,
                           0x7fffffffffffffffull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0,
                           0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull};
    const int nd = sizeof db / sizeof *db;
    double hd[nd * nd], *yd, *xd, *od;
    memcpy(hd, db, sizeof db);
    CHECK(cudaMalloc(&yd, sizeof db));
    CHECK(cudaMalloc(&xd, sizeof db));
    CHECK(cudaMalloc(&od, sizeof hd));
    CHECK(cudaMemcpy(yd, hd, sizeof db, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(xd, hd, sizeof db, cudaMemcpyHostToDevice));
    atan2_d<<<1, nd * nd>>>(yd, xd, nd, od);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hd, od, sizeof hd, cudaMemcpyDeviceToHost));
    printf("atan2(y, x), rows y, columns x:");
    for (int i = 0; i < nd * nd; i++) {
        uint64_t u;
        memcpy(&u, &hd[i], 8);
        if (i % nd == 0) printf("\n  %016llx:", (unsigned long long)db[i / nd]);
        printf(" %016llx", (unsigned long long)u);
    }
    printf("\n");
    return 0;
}
