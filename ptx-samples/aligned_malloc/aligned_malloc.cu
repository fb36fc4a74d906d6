// __nv_aligned_device_malloc: nvcc turns it into a call of the extern
// __cuda_syscall_aligned_malloc. Each thread asks for a different alignment
// (16 .. 4096); the pointers' alignment, usability and freeing are recorded,
// plus a non-power-of-two alignment, which the device heap refuses (NULL).
#include <cstdint>

extern "C" __global__ void aligned_malloc(unsigned *out)
{
    unsigned t = threadIdx.x;
    size_t align = (size_t)16 << (t % 9);
    unsigned char *p = (unsigned char *)__nv_aligned_device_malloc(100 + t, align);
    unsigned ok = p != nullptr;
    ok |= ((uintptr_t)p % align == 0) << 1;
    if (p) {
        for (unsigned i = 0; i < 100 + t; i++)
            p[i] = (unsigned char)(i ^ t);
        unsigned s = 0;
        for (unsigned i = 0; i < 100 + t; i++)
            s += p[i];
        out[3 * t + 1] = s;
        free(p);
    }
    out[3 * t] = ok;
    void *odd = __nv_aligned_device_malloc(64, 48);
    out[3 * t + 2] = odd == nullptr;
    free(odd);
}
