// A dense switch compiled to a jump table (brx.idx), with lanes of a warp
// taking different cases, falling through and taking the default. NVVM makes
// jump tables only when asked (nvcc.flags: -Xcicc -jump-table-density=50).
__device__ __noinline__ int dispatch(int k, int x)
{
    switch (k) {
    case 0: return x + 1;
    case 1: return x * 3;
    case 2: return x ^ 0x55;
    case 3: x -= 7;            // falls through
    case 4: return x << 2;
    case 5: return x / 3;
    case 6: return -x;
    case 7: return x % 10;
    case 8: return x | 0x100;
    case 9: return x & 0xf0;
    case 10: return x * x;
    case 11: return 1000 - x;
    default: return -999;
    }
}

extern "C" __global__ void switch_brx(const int *in, int *out)
{
    int t = threadIdx.x;
    out[t] = dispatch(in[t], t * 5 + 1);
}
