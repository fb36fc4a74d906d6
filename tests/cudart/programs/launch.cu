// launch.cu — the ways to launch: <<<>>> with 3D grids and dynamic shared memory,
// templates, arguments by value (structs of several sizes), cudaLaunchKernel with an
// argument array, cudaLaunchKernelEx, a cooperative launch with a grid-wide sync, and
// device printf output flushed at synchronization, after host output.
#include <cooperative_groups.h>
#include "check.h"
namespace cg = cooperative_groups;

struct Small { char c; short s; };
struct Mixed { int a; double b; char c[3]; };
struct Big { int v[40]; };

__global__ void grid3d(int *out) {
    int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int nt = blockDim.x * blockDim.y * blockDim.z;
    out[b * nt + t] = b * 1000 + t;
}

template <typename T> __global__ void square(T *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * p[i];
}

__global__ void by_value(long long *out, Small s, Mixed m, Big b, float f, char c) {
    long long sum = 0;
    for (int i = 0; i < 40; i++) sum += b.v[i];
    out[0] = s.c + s.s;
    out[1] = m.a + (long long)(m.b * 10) + m.c[0] + m.c[2];
    out[2] = sum;
    out[3] = (long long)(f * 4) + c;
}

extern __shared__ unsigned char smem[];
__global__ void reverse(int *p, int n) {
    int *s = (int *)smem;
    int i = threadIdx.x;
    s[i] = p[i];
    __syncthreads();
    p[i] = s[n - 1 - i];
}

__global__ void coop(int *data, int *out) {
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    data[i] = i;
    g.sync();
    out[i] = data[(i + 1) % g.size()];
}

__global__ void hello(int tag) {
    if (threadIdx.x == 0 && blockIdx.x == 0) printf("kernel says %d\n", tag);
}

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 1 << 20));
    dim3 g(3, 2, 2), b(4, 2, 3);
    grid3d<<<g, b>>>(d);
    int h[12 * 24];
    SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("grid3d: %d %d %d\n", h[0], h[25], h[12 * 24 - 1]);

    float f[5] = {1, 2, 3, 4, 5};
    float *df;
    CHECK(cudaMalloc(&df, sizeof f));
    CHECK(cudaMemcpy(df, f, sizeof f, cudaMemcpyHostToDevice));
    square<<<1, 32>>>(df, 5);
    square<float><<<1, 32>>>(df, 5);
    CHECK(cudaMemcpy(f, df, sizeof f, cudaMemcpyDeviceToHost));
    printf("square twice: %g %g %g\n", f[0], f[1], f[4]);
    double dd[3] = {1.5, -2, 3};
    double *ddd;
    CHECK(cudaMalloc(&ddd, sizeof dd));
    CHECK(cudaMemcpy(ddd, dd, sizeof dd, cudaMemcpyHostToDevice));
    square<<<1, 3>>>(ddd, 3);
    CHECK(cudaMemcpy(dd, ddd, sizeof dd, cudaMemcpyDeviceToHost));
    printf("square double: %g %g %g\n", dd[0], dd[1], dd[2]);

    Small s = {5, 300};
    Mixed m = {7, 2.5, {1, 2, 3}};
    Big big;
    for (int i = 0; i < 40; i++) big.v[i] = i * i;
    long long *dl, hl[4];
    CHECK(cudaMalloc(&dl, sizeof hl));
    by_value<<<1, 1>>>(dl, s, m, big, 1.75f, 'A');
    CHECK(cudaMemcpy(hl, dl, sizeof hl, cudaMemcpyDeviceToHost));
    printf("by value: %lld %lld %lld %lld\n", hl[0], hl[1], hl[2], hl[3]);
    memset(hl, 0, sizeof hl);
    float fv = 2.5f;
    char cv = 'B';
    void *args[] = {&dl, &s, &m, &big, &fv, &cv};
    SHOW(cudaLaunchKernel((const void *)by_value, dim3(1), dim3(1), args, 0, 0));
    CHECK(cudaMemcpy(hl, dl, sizeof hl, cudaMemcpyDeviceToHost));
    printf("cudaLaunchKernel: %lld %lld %lld %lld\n", hl[0], hl[1], hl[2], hl[3]);

    int r[64];
    for (int i = 0; i < 64; i++) r[i] = i * 3;
    CHECK(cudaMemcpy(d, r, sizeof r, cudaMemcpyHostToDevice));
    reverse<<<1, 64, 64 * sizeof(int)>>>(d, 64);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(64);
    cfg.dynamicSmemBytes = 64 * sizeof(int);
    SHOW(cudaLaunchKernelEx(&cfg, reverse, d, 64));
    reverse<<<1, 64, 64 * sizeof(int)>>>(d, 64);
    CHECK(cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost));
    printf("reversed thrice: %d %d %d\n", r[0], r[1], r[63]);

    int *data, *out;
    CHECK(cudaMalloc(&data, 4 * 128 * sizeof(int)));
    CHECK(cudaMalloc(&out, 4 * 128 * sizeof(int)));
    void *cargs[] = {&data, &out};
    SHOW(cudaLaunchCooperativeKernel((const void *)coop, dim3(4), dim3(128), cargs, 0, 0));
    int co[512];
    CHECK(cudaMemcpy(co, out, sizeof co, cudaMemcpyDeviceToHost));
    printf("cooperative: %d %d %d\n", co[0], co[127], co[511]);
    SHOW(cudaLaunchCooperativeKernel((const void *)coop, dim3(100000), dim3(1024), cargs, 0, 0));
    SHOW(cudaGetLastError());

    printf("host before kernel printf\n");
    hello<<<2, 32>>>(1);
    printf("host after launch\n");
    hello<<<1, 1>>>(2);
    SHOW(cudaDeviceSynchronize());
    printf("host after synchronize\n");
    hello<<<1, 1>>>(3);
    int x;
    SHOW(cudaMemcpy(&x, d, 4, cudaMemcpyDeviceToHost));
    printf("host after memcpy\n");
    hello<<<1, 1>>>(4);
    return 0;
}
