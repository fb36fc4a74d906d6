// dynpar.cu — dynamic parallelism (-rdc=true -lcudadevrt): kernels launching kernels into
// the default, named, tail-launch and fire-and-forget streams, nesting, device-side events,
// a parameter buffer of mixed argument types, launches from many threads, and the runtime
// queries device code may make. Everything is checked on the host after the top grid ends.
#include "check.h"

struct Pair { float f; long long ll; };

__device__ int order_counter;

__global__ void store(int *p, int i, int v) { p[i] = v; }
__global__ void add_one(int *p) { atomicAdd(p, 1); }

// Children into the implicit stream and two named streams; the second named stream waits on
// an event recorded after the first stream's child, so its child sees that child's write.
__global__ void streams_parent(int *p) {
    cudaStream_t s1, s2;
    cudaEvent_t ev;
    int e = 0;
    e |= cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    e |= cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    e |= cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
    store<<<1, 1>>>(p, 0, 10);
    store<<<1, 1, 0, s1>>>(p, 1, 11);
    e |= cudaEventRecord(ev, s1);
    e |= cudaStreamWaitEvent(s2, ev, 0);
    store<<<1, 1, 0, s2>>>(p, 2, 12);
    e |= cudaGetLastError();
    e |= cudaStreamDestroy(s1);
    e |= cudaStreamDestroy(s2);
    e |= cudaEventDestroy(ev);
    p[3] = e;
}

// Depth: each level records its depth and launches the next one.
__global__ void nest(int *depths, int level, int max) {
    depths[level] = level;
    if (level + 1 < max) nest<<<1, 1>>>(depths, level + 1, max);
}

// Tail launch: runs after the whole parent grid (all its blocks) and its other children.
__global__ void tail_sum(int *p, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    p[n] = s;
    p[n + 1] = p[n + 2];   // the value a child of the parent grid wrote
}
__global__ void tail_parent(int *p) {
    p[blockIdx.x] = blockIdx.x + 1;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        tail_sum<<<1, 1, 0, cudaStreamTailLaunch>>>(p, gridDim.x);
        store<<<1, 1>>>(p, gridDim.x + 2, 77);
    }
}

// Fire-and-forget: independent of the parent's other work, done before the top grid completes.
__global__ void faf_parent(int *p) {
    store<<<1, 1, 0, cudaStreamFireAndForget>>>(p, threadIdx.x, 100 + threadIdx.x);
}

// Mixed argument types through the parameter buffer.
__global__ void mixed(double *out, char c, short s, double d, int *ip, Pair pr, float4 f4, unsigned char u) {
    out[0] = c; out[1] = s; out[2] = d; out[3] = *ip; out[4] = pr.f; out[5] = (double)pr.ll;
    out[6] = f4.x + 10 * f4.y + 100 * f4.z + 1000 * f4.w; out[7] = u;
    out[8] = gridDim.x * 100 + blockDim.x;
}
__global__ void mixed_parent(double *out, int *ip) {
    Pair pr = {2.5f, 1234567890123LL};
    mixed<<<3, 7>>>(out, 'x', -1234, 3.25, ip, pr, make_float4(1, 2, 3, 4), 200);
}

// Every thread of several blocks launches a child.
__global__ void many_parent(int *counter) { add_one<<<1, 32>>>(counter); }

// What device code may ask of the runtime.
__global__ void queries(int *out) {
    int dev = -1, v = 0;
    out[0] = cudaGetDevice(&dev);
    out[1] = dev;
    out[2] = cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, dev);
    out[3] = v;
    out[4] = cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, dev);
    out[5] = v;
    out[6] = cudaGetLastError();
    store<<<1, 2048>>>(out, 20, 1);   // too many threads per block
    out[7] = cudaPeekAtLastError();
    out[8] = cudaGetLastError();
    out[9] = cudaGetLastError();
    store<<<dim3(1, 70000), 1>>>(out, 20, 1);   // grid y beyond its limit
    out[10] = cudaGetLastError();
}

int main() {
    int *p;
    CHECK(cudaMalloc(&p, 4096 * sizeof(int)));

    CHECK(cudaMemset(p, 0, 4096 * sizeof(int)));
    streams_parent<<<1, 1>>>(p);
    SHOW(cudaDeviceSynchronize());
    int h[64];
    CHECK(cudaMemcpy(h, p, 16 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("streams: %d %d %d errors %d\n", h[0], h[1], h[2], h[3]);

    CHECK(cudaMemset(p, 0xff, 4096 * sizeof(int)));
    nest<<<1, 1>>>(p, 0, 6);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, p, 8 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("nest:");
    for (int i = 0; i < 7; i++) printf(" %d", h[i]);
    printf("\n");

    CHECK(cudaMemset(p, 0, 4096 * sizeof(int)));
    tail_parent<<<8, 32>>>(p);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, p, 12 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("tail: sum %d child %d\n", h[8], h[9]);

    CHECK(cudaMemset(p, 0, 4096 * sizeof(int)));
    faf_parent<<<1, 16>>>(p);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, p, 16 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("fire-and-forget: %d %d %d\n", h[0], h[7], h[15]);

    double *out, ho[9];
    int seven = 7;
    CHECK(cudaMalloc(&out, sizeof ho));
    CHECK(cudaMemcpy(p, &seven, sizeof seven, cudaMemcpyHostToDevice));
    mixed_parent<<<1, 1>>>(out, p);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost));
    printf("mixed:");
    for (int i = 0; i < 9; i++) printf(" %.17g", ho[i]);
    printf("\n");

    CHECK(cudaMemset(p, 0, 4096 * sizeof(int)));
    many_parent<<<4, 256>>>(p);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, p, sizeof(int), cudaMemcpyDeviceToHost));
    printf("many: %d\n", h[0]);

    CHECK(cudaMemset(p, 0, 4096 * sizeof(int)));
    queries<<<1, 1>>>(p);
    SHOW(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, p, 11 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("queries:");
    for (int i = 0; i < 11; i++) printf(" %d", h[i]);
    printf("\n");
    SHOW(cudaGetLastError());
    return 0;
}
