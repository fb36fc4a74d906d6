// vecadd — one element per thread: c[i] = a[i] + b[i]. Memory-bound; measures
// the per-thread fixed cost (index arithmetic, bounds test, three accesses).
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = __fadd_rn(a[i], b[i]);
}
