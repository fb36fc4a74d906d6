// atomic128.cu — 16-byte atomicCAS and atomicExch (sm_90, CUDA 12.x+) under
// contention, in global and shared memory: a CAS loop adding to both halves of
// one cell from every thread, an exchange chain whose returned values must be a
// permutation of what was stored (and never torn), and a CAS that fails. Every
// printed value is independent of the order the threads ran in.
#include <cstdint>
#include "check.h"

struct __align__(16) P { unsigned long long a, b; };

__device__ P cas_add(P *cell, unsigned long long da, unsigned long long db) {
    P cur = atomicCAS(cell, P{0, 0}, P{0, 0});   // reads the cell (a no-op swap when it is zero)
    for (;;) {
        P prev = atomicCAS(cell, cur, P{cur.a + da, cur.b + db});
        if (prev.a == cur.a && prev.b == cur.b) return prev;
        cur = prev;
    }
}

__global__ void global_ops(P *cell, P *chain, P *olds) {
    unsigned long long g = blockIdx.x * blockDim.x + threadIdx.x;
    cas_add(cell, 1, g * g + 1);
    olds[g] = atomicExch(chain, P{g + 1, ~(g + 1)});
}

__global__ void shared_ops(unsigned long long *sums, P *olds) {
    __shared__ P cell, chain;
    if (threadIdx.x == 0) cell = P{0, 0}, chain = P{0, ~0ull};
    __syncthreads();
    unsigned long long t = threadIdx.x;
    cas_add(&cell, t + 1, 3 * t);
    P o = atomicExch(&chain, P{t + 1, ~(t + 1)});
    olds[blockIdx.x * blockDim.x + t] = o;
    __syncthreads();
    if (t == 0) {
        sums[4 * blockIdx.x] = cell.a, sums[4 * blockIdx.x + 1] = cell.b;
        sums[4 * blockIdx.x + 2] = chain.a, sums[4 * blockIdx.x + 3] = chain.b;
    }
}

__global__ void failing_cas(P *cell, P *out) {
    out[0] = atomicCAS(cell, P{1, 2}, P{3, 4});         // does not match: the cell stays
    out[1] = atomicCAS(cell, P{5, 2}, P{3, 4});         // only one half matches: stays
    out[2] = atomicCAS(cell, P{5, 6}, P{7, 8});         // matches
    out[3] = atomicExch(cell, P{9, 10});
    out[4] = *cell;
}

// The old values of an exchange chain started from `first` with n values 1..n:
// each must be consistent (b == ~a) and, with the final value, every one of
// 0/first..n must appear exactly once.
static int check_chain(const P *olds, int n, P fin, unsigned long long first_b) {
    static unsigned char seen[1 << 16];
    memset(seen, 0, sizeof seen);
    int bad = 0;
    for (int i = 0; i <= n; i++) {
        P p = i < n ? olds[i] : fin;
        bool ok = p.a == 0 ? p.b == first_b : p.a <= (unsigned long long)n && p.b == ~p.a;
        if (!ok || seen[p.a]++) bad++;
    }
    return bad;
}

int main() {
    const int B = 64, T = 128, N = B * T;
    P *cell, *chain, *olds;
    CHECK(cudaMalloc(&cell, sizeof(P)));
    CHECK(cudaMalloc(&chain, sizeof(P)));
    CHECK(cudaMalloc(&olds, N * sizeof(P)));
    CHECK(cudaMemset(cell, 0, sizeof(P)));
    CHECK(cudaMemset(chain, 0, sizeof(P)));
    global_ops<<<B, T>>>(cell, chain, olds);
    SHOW(cudaDeviceSynchronize());
    static P h[B * T];
    P c, f;
    CHECK(cudaMemcpy(&c, cell, sizeof c, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&f, chain, sizeof f, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h, olds, sizeof h, cudaMemcpyDeviceToHost));
    printf("global cas-add: a %llu b %llu\n", c.a, c.b);
    printf("global exchange chain of %d: bad values %d\n", N, check_chain(h, N, f, 0));

    unsigned long long *sums, hs[4 * B];
    CHECK(cudaMalloc(&sums, sizeof hs));
    shared_ops<<<B, T>>>(sums, olds);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h, olds, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < B; b++) bad += check_chain(h + b * T, T, P{hs[4 * b + 2], hs[4 * b + 3]}, ~0ull);
    printf("shared cas-add, block 0: a %llu b %llu; block %d: a %llu b %llu\n", hs[0], hs[1], B - 1,
           hs[4 * (B - 1)], hs[4 * (B - 1) + 1]);
    printf("shared exchange chains of %d in %d blocks: bad values %d\n", T, B, bad);

    P init = {5, 6}, r[5];
    CHECK(cudaMemcpy(cell, &init, sizeof init, cudaMemcpyHostToDevice));
    failing_cas<<<1, 1>>>(cell, olds);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(r, olds, sizeof r, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 5; i++) printf("cas/exch %d: %llu %llu\n", i, r[i].a, r[i].b);
    return 0;
}
