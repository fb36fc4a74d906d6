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

// Runs k on every pair (y, x) of the n values whose bits are `bits` and prints
// the result bits, one row per y.
template <typename F, typename U, int N>
static int table(const char *name, const U (&bits)[N], void (*k)(const F *, const F *, int, F *)) {
    F h[N * N], *y, *x, *o;
    memcpy(h, bits, sizeof bits);
    CHECK(cudaMalloc(&y, sizeof bits));
    CHECK(cudaMalloc(&x, sizeof bits));
    CHECK(cudaMalloc(&o, sizeof h));
    CHECK(cudaMemcpy(y, h, sizeof bits, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(x, h, sizeof bits, cudaMemcpyHostToDevice));
    k<<<1, N * N>>>(y, x, N, o);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost));
    printf("%s(y, x), rows y, columns x:", name);
    const int w = 2 * sizeof(U);
    for (int i = 0; i < N * N; i++) {
        U u;
        memcpy(&u, &h[i], sizeof u);
        if (i % N == 0) printf("\n  %0*llx:", w, (unsigned long long)bits[i / N]);
        printf(" %0*llx", w, (unsigned long long)u);
    }
    printf("\n");
    return 0;
}

int main() {
    set_limit("before any launch", cudaLimitPrintfFifoSize, "printf fifo", 2 << 20);
    nop<<<1, 1>>>();
    SHOW(cudaDeviceSynchronize());
    set_limit("after a launch", cudaLimitPrintfFifoSize, "printf fifo", 4 << 20);
    set_limit("after a launch", cudaLimitPrintfFifoSize, "printf fifo", 2 << 20);
    set_limit("after a launch", cudaLimitMallocHeapSize, "malloc heap", 32 << 20);
    set_limit("after a launch", cudaLimitStackSize, "stack", 2048);

    static const uint32_t fb[] = {0x7fc00000u, 0xffc00000u, 0x7fa00001u, 0xff812345u, 0x7fffffffu,
                                  0x3f800000u, 0xbf800000u, 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u};
    static const uint64_t db[] = {0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff4000000000001ull,
                                  0xfff0000012345678ull, 0x7fffffffffffffffull, 0x3ff0000000000000ull,
                                  0xbff0000000000000ull, 0, 0x8000000000000000ull, 0x7ff0000000000000ull,
                                  0xfff0000000000000ull};
    if (table("atan2f", fb, atan2_f) || table("atan2", db, atan2_d)) return 1;
    return 0;
}
