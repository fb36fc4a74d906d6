// Launch bounds: __launch_bounds__ gives .maxntid/.minnctapersm, __maxnreg__
// gives .maxnreg. Launching with more threads than .maxntid must fail the
// way the GPU fails it; launching within the bound works.
extern "C" __global__ void __launch_bounds__(128, 2) bounded(int *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = (int)(t * t) - 5;
}

extern "C" __global__ void __maxnreg__(40) few_regs(int *out)
{
    unsigned t = threadIdx.x;
    out[t] = (int)(t ^ 0x55);
}

extern "C" __global__ void __launch_bounds__(64) small(int *out)
{
    out[threadIdx.x] = (int)blockDim.x;
}
