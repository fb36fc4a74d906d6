// Device printf: the CUDA guide's examples and a wide spread of conversions,
// flags, widths, precisions, '*' arguments and length modifiers. Threads print
// one at a time (a barrier between turns) so the output order is fixed.
#include <cstdio>

__device__ const char *names[] = {"alpha", "beta", "gamma", ""};

extern "C" __global__ void printf_kernel(int turns)
{
    unsigned t = threadIdx.x;
    float f = 1.5f + (float)t;
    for (int k = 0; k < turns; k++) {
        if (t == (unsigned)k) {
            // From the guide: each thread reports its index and a float.
            printf("Hello thread %d, f=%f\n", t, f);
            printf("[%d, %d]:\t\tValue is:%d\n", blockIdx.y * gridDim.x + blockIdx.x,
                   threadIdx.z * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x, 10 + k);
        }
        __syncthreads();
    }
    if (t != 0)
        return;
    int n = printf("ints: %d %i %u %x %X %o|%5d|%-5d|%05d|%+d|% d|%#x|%#o\n", -42, 17, 4000000000u,
                   0xbeefu, 0xbeefu, 8u, 42, 42, 42, 42, 42, 255u, 8u);
    printf("printf returned %d\n", n);
    // %hhd is left out: on an H100/H200 with CUDA 13 it made the last conversion
    // of the same call print bytes of the format string.
    printf("sizes: %hd %hu %ld %lu %lld %llu %llx\n", (short)-3, (unsigned short)65535, -1234567890123l,
           18446744073709551615ul, -9223372036854775807ll - 1, 12345678901234567890ull, 0xdeadbeefcafef00dull);
    printf("lli: %lli %lld\n", 77ll, -77ll);
    printf("li: %li %ld\n", 88l, -88l);
    printf("mixed: %hd %lld %d %llx %u\n", (short)1234, -5ll, 6, 0x1122334455667788ull, 9u);
    printf("floats: %f %.2f %10.4f|%-10.3f|%+.1f %e %.3E %g %G %g %g\n", 3.14159265, 2.71828, -1.5, 0.125,
           7.25, 123456.789, 0.000123456, 1e-5, 2.5e20, 100000.0, 1234567.0);
    printf("special: %f %f %f %e %g\n", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0 * 0.0, -0.0, 1e300 * 10.0);
    printf("star: |%*d|%-*d|%.*f|%*.*f|\n", 6, 12, 4, 7, 3, 1.23456, 9, 2, 5.5555);
    printf("strings: |%s|%10s|%-8s|%.3s|%s|%c%c%c|\n", names[0], names[1], names[2], "truncate", names[3], 'x',
           'y', 'z');
    printf("percent: 100%% done, char %c, hex %08x\n", 65, 0x1234u);
    printf("pointer: %p %p\n", (void *)0, (void *)0x1000);
    printf("floats as args: %f %f %.0f %.10f\n", f, (double)1e-7f, 0.5, 1.0 / 3.0);
    printf("no arguments at all\n");
    printf("%d %d %d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
}
