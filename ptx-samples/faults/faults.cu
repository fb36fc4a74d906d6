// Memory faults as the GPU reports them: one run line per kind of bad access
// (misaligned global and shared accesses, a wild global address, NULL, a
// shared index far out of range, a misaligned vector load or store). Modes 0
// and 8 are controls: the same kernel touching only good addresses.
extern "C" __global__ void faults(unsigned char *buf, int mode, int *out)
{
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    s[t] = (int)t;
    __syncthreads();
    int v = 0;
    volatile int idx = 1 << 22, four = 4, eight = 8;   // not foldable: alignment unknown to the compiler
    unsigned sbase = (unsigned)__cvta_generic_to_shared(s);
    unsigned long long w;
    unsigned a, b, c, d;
    if (t == 3) {
        switch (mode) {
        case 1: v = *(int *)(buf + 1); break;                      // misaligned 4-byte load
        case 2: *(int *)((unsigned long long)buf + (1ull << 40)) = 5; break;  // unmapped address
        case 3: v = *(volatile int *)(unsigned long long)(mode - 3); break;  // NULL
        case 4: v = ((volatile int *)s)[idx]; break;               // past the shared window
        case 5:                                                    // misaligned 8-byte shared load
            asm volatile("ld.shared.u64 %0, [%1];" : "=l"(w) : "r"(sbase + four));
            v = (int)w;
            break;
        case 6:                                                    // 16-byte load, only 8-aligned
            asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                         : "l"(buf + eight));
            v = (int)(a + b + c + d);
            break;
        case 7: *(volatile long long *)(buf + four) = 1; break;   // misaligned 8-byte global store
        case 8: asm volatile("ld.shared.u32 %0, [%1];" : "=r"(a) : "r"(sbase + four * 2)); v = (int)a; break;
        default: v = *(int *)(buf + 4); break;
        }
    }
    out[t] = v + s[63 - t];
}
