// probe.cu — kernels and variables of every kind, and a main that calls nothing: the
// fatbinary tests build it many ways and compare the PTX the library extracts with
// the PTX nvcc wrote (--keep).
#include <cstdio>

__constant__ float k_scale[4];
__device__ int k_count;
__managed__ int k_flag;

__global__ void probe_add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * k_scale[i & 3] + k_flag;
    if (i == 0) atomicAdd(&k_count, 1);
}

template <int N> __global__ void probe_fill(int *p) { p[threadIdx.x] = N; }
template __global__ void probe_fill<7>(int *);

int main() { return 0; }
