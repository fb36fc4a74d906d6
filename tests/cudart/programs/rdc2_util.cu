// rdc2_util.cu — the other half of rdc2_kernel.cu.
#include <cstdio>

static __device__ __noinline__ int helper(int x) { return x * x; }
__device__ int util_f(int x) {
    printf("util_f(%d)\n", x);
    return helper(x) + 1;
}
