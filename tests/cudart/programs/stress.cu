// stress.cu — many host threads using the runtime at once, each with several streams:
// round after round, allocate, copy in asynchronously, launch (arithmetic and device
// malloc/free), set, copy out, queue a host function, record and wait on events, check
// every value exactly against what the kernels define, and free. Also each thread's own
// last error. Prints one line and exits 0 when everything matched, else the first
// mismatches and exits 1. tests/cudart/test_stress.c runs it.
#include <atomic>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#include "check.h"

enum { THREADS = 8, STREAMS = 4, MAXN = 4000 };

__global__ void affine(unsigned *out, const unsigned *in, unsigned n, unsigned k) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * k + i;
}

// Each thread mallocs 16 bytes, stores seed + i, reads it back, frees it.
__global__ void heapy(unsigned *out, unsigned n, unsigned seed) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned *p = (unsigned *)malloc(16);
    if (!p) {
        out[i] = ~0u;
        return;
    }
    *(volatile unsigned *)p = seed + i;
    out[i] = *(volatile unsigned *)p;
    free(p);
}

static unsigned mix(unsigned a, unsigned b) {
    unsigned x = a * 0x9e3779b1u ^ b * 0x85ebca77u;
    return x ^ x >> 15;
}

static std::atomic<unsigned> host_fns, failures;

static void CUDART_CB count(void *) { host_fns++; }

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
    if (failures++ < 10) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
}

#define OK(call)                                                                                       \
    do {                                                                                               \
        cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess && failures++ < 10)                                                      \
            fprintf(stderr, "thread %u round %u: %s gave %s\n", t, r, #call, cudaGetErrorName(e_));   \
    } while (0)

static void run(unsigned t, unsigned rounds) {
    unsigned r = 0;
    cudaStream_t s[STREAMS];
    cudaEvent_t start[STREAMS], done[STREAMS];
    for (int k = 0; k < STREAMS; k++) {
        OK(cudaStreamCreateWithFlags(&s[k], k % 2 ? cudaStreamNonBlocking : cudaStreamDefault));
        OK(cudaEventCreate(&start[k]));
        OK(cudaEventCreate(&done[k]));
    }
    unsigned *hin = nullptr, *hout = nullptr, *hheap = nullptr, *hset = nullptr;
    for (; r < rounds; r++) {
        int k = r % STREAMS;
        cudaStream_t st = s[k];
        if (r % 8 == 0) {   // page-locked buffers come and go too
            if (hin) OK(cudaFreeHost(hin));
            OK(cudaMallocHost(&hin, 4 * MAXN * sizeof(unsigned)));
            if (!hin) return;
            hout = hin + MAXN, hheap = hin + 2 * MAXN, hset = hin + 3 * MAXN;
        }
        unsigned n = 1 + mix(t, r) % MAXN, mul = mix(r, t) | 1, seed = mix(~t, r);
        unsigned char byte = (unsigned char)mix(t, ~r);
        for (unsigned i = 0; i < n; i++) hin[i] = mix(t * 7919 + r, i);
        unsigned *din = nullptr, *dout = nullptr, *dheap = nullptr, *dset = nullptr;
        OK(cudaMalloc(&din, n * sizeof(unsigned)));
        OK(cudaMalloc(&dout, n * sizeof(unsigned)));
        OK(cudaMalloc(&dheap, n * sizeof(unsigned)));
        OK(cudaMalloc(&dset, n * sizeof(unsigned)));
        if (!din || !dout || !dheap || !dset) return;
        unsigned grid = (n + 127) / 128;
        OK(cudaEventRecord(start[k], st));
        OK(cudaMemcpyAsync(din, hin, n * sizeof(unsigned), cudaMemcpyHostToDevice, st));
        affine<<<grid, 128, 0, st>>>(dout, din, n, mul);
        OK(cudaGetLastError());
        heapy<<<grid, 128, 0, st>>>(dheap, n, seed);
        OK(cudaGetLastError());
        OK(cudaMemsetAsync(dset, byte, n * sizeof(unsigned), st));
        OK(cudaMemcpyAsync(hout, dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost, st));
        OK(cudaMemcpyAsync(hheap, dheap, n * sizeof(unsigned), cudaMemcpyDeviceToHost, st));
        OK(cudaMemcpyAsync(hset, dset, n * sizeof(unsigned), cudaMemcpyDefault, st));
        OK(cudaLaunchHostFunc(st, count, nullptr));
        OK(cudaEventRecord(done[k], st));
        if (r % 2) OK(cudaEventSynchronize(done[k]));
        else OK(cudaStreamSynchronize(st));
        float ms = -1;
        OK(cudaEventElapsedTime(&ms, start[k], done[k]));
        if (!(ms >= 0)) fail("thread %u round %u: elapsed time %g ms", t, r, ms);
        unsigned set = byte * 0x01010101u;
        for (unsigned i = 0; i < n; i++) {
            if (hout[i] != hin[i] * mul + i)
                fail("thread %u round %u: affine[%u] = %u, want %u", t, r, i, hout[i], hin[i] * mul + i);
            if (hheap[i] != seed + i) fail("thread %u round %u: heapy[%u] = %u, want %u", t, r, i, hheap[i], seed + i);
            if (hset[i] != set) fail("thread %u round %u: set[%u] = %u, want %u", t, r, i, hset[i], set);
        }
        // an error of this thread's own, seen by it alone
        unsigned dummy;
        cudaError_t e = cudaMemcpy(&dummy, dout, sizeof dummy, (cudaMemcpyKind)99);
        cudaError_t last = cudaGetLastError(), after = cudaGetLastError();
        if (e != cudaErrorInvalidMemcpyDirection || last != e || after != cudaSuccess)
            fail("thread %u round %u: bad direction gave %s, last error %s, then %s", t, r, cudaGetErrorName(e),
                 cudaGetErrorName(last), cudaGetErrorName(after));
        // many small allocations, each written and read back, freed in another order:
        // the allocation table changes under the other threads' copies
        unsigned *small[16];
        for (unsigned j = 0; j < 16; j++) {
            unsigned v = mix(t + j, r), w = 0;
            small[j] = nullptr;
            OK(cudaMalloc(&small[j], 4 + 4 * j));
            OK(cudaMemcpyAsync(small[j] + j, &v, 4, cudaMemcpyHostToDevice, st));
            OK(cudaMemcpyAsync(&w, small[j] + j, 4, cudaMemcpyDeviceToHost, st));
            OK(cudaStreamSynchronize(st));
            if (w != v) fail("thread %u round %u: small[%u] = %u, want %u", t, r, j, w, v);
        }
        for (unsigned j = 0; j < 16; j++) OK(cudaFree(small[(j * 7) % 16]));
        struct cudaFuncAttributes fa;
        OK(cudaFuncGetAttributes(&fa, affine));
        size_t stack = 0;
        OK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
        if (stack != 1024) fail("thread %u round %u: stack limit %zu, want 1024", t, r, stack);
        OK(cudaFree(din));
        OK(cudaFree(dout));
        OK(cudaFree(dheap));
        OK(cudaFree(dset));
    }
    OK(cudaFreeHost(hin));
    for (int k = 0; k < STREAMS; k++) {
        OK(cudaStreamDestroy(s[k]));
        OK(cudaEventDestroy(start[k]));
        OK(cudaEventDestroy(done[k]));
    }
    OK(cudaGetLastError());
}

int main(int argc, char **argv) {
    unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 24;
    std::vector<std::thread> th;
    for (unsigned t = 0; t < THREADS; t++) th.emplace_back(run, t, rounds);
    for (auto &x : th) x.join();
    CHECK(cudaDeviceSynchronize());
    if (host_fns != THREADS * rounds) fail("%u host functions ran, want %u", host_fns.load(), THREADS * rounds);
    if (failures) {
        printf("stress: %u failures\n", failures.load());
        return 1;
    }
    printf("stress: %d threads x %d streams x %u rounds: ok\n", THREADS, STREAMS, rounds);
    return 0;
}
