// alloca(): a local array whose size is known only at run time, different in
// every lane, filled and read back with data-dependent indexes. Its address
// is also checked to be in the local window.
#include <cstdint>

extern "C" __global__ void alloca_kernel(const unsigned *sizes, unsigned *out)
{
    unsigned t = threadIdx.x;
    unsigned n = sizes[t];                       // 1 .. 64 elements
    unsigned *buf = (unsigned *)alloca(n * sizeof(unsigned));
    for (unsigned i = 0; i < n; i++)
        buf[i] = (i + 1) * (t + 3);
    unsigned sum = 0;
    for (unsigned i = 0; i < n; i++)
        sum += buf[(i * 7 + t) % n] ^ i;
    out[3 * t] = sum;
    out[3 * t + 1] = __isLocal(buf);
    out[3 * t + 2] = ((uintptr_t)buf & 15) == 0;   // alloca memory is 16-byte aligned
}
