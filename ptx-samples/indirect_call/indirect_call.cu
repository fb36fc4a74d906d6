// Indirect calls: a table of device function pointers, a pointer passed to a
// __noinline__ function, and lanes of one warp calling different targets at
// the same call site.
typedef int (*op_t)(int, int);

__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_mix(int a, int b) { return (a << 3) ^ (b >> 1) ^ 0x5a5a; }

__device__ op_t table[4] = {op_add, op_sub, op_mul, op_mix};

__device__ __noinline__ int apply_twice(op_t f, int a, int b)
{
    return f(f(a, b), b);
}

extern "C" __global__ void indirect_call(const int *in, int *out)
{
    int t = threadIdx.x;
    int a = in[2 * t], b = in[2 * t + 1];
    op_t f = table[(a ^ t) & 3];
    out[2 * t] = f(a, b);
    out[2 * t + 1] = apply_twice(table[t & 3], a, b);
}
