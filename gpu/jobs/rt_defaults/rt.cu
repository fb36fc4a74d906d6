// rt.cu: records what the CUDA 13 runtime and an sm_90 GPU do for the pieces of
// the ptxi host runtime that the guide leaves open: limit defaults, device
// properties, printf formatting corner cases, printf FIFO overflow, device heap.
// One mode per process (argv[1]) because some limits can be set only before the
// first launch and some modes end in a sticky error.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s -> %s\n", #x, cudaGetErrorName(e_)); } } while (0)

__device__ int rets[64];
__device__ unsigned long long ptrs[64];

static void limits(const char *when)
{
    static const struct { cudaLimit l; const char *n; } L[] = {
        {cudaLimitStackSize, "stack_size"}, {cudaLimitPrintfFifoSize, "printf_fifo_size"},
        {cudaLimitMallocHeapSize, "malloc_heap_size"},
        {cudaLimitDevRuntimeSyncDepth, "dev_runtime_sync_depth"},
        {cudaLimitDevRuntimePendingLaunchCount, "dev_runtime_pending_launch_count"},
        {cudaLimitMaxL2FetchGranularity, "max_l2_fetch_granularity"},
        {cudaLimitPersistingL2CacheSize, "persisting_l2_cache_size"}};
    for (auto &x : L) {
        size_t v = 0;
        cudaError_t e = cudaDeviceGetLimit(&v, x.l);
        printf("%s %s %zu %s\n", when, x.n, v, cudaGetErrorName(e));
    }
}

__global__ void k_nop() {}
__global__ void k_one_printf() { printf("x\n"); }
__global__ void k_one_malloc() { void *p = malloc(16); free(p); }

static void set_and_report(cudaLimit l, const char *n, size_t v)
{
    cudaError_t e = cudaDeviceSetLimit(l, v);
    size_t got = 0;
    cudaDeviceGetLimit(&got, l);
    printf("set %s %zu -> %s, get %zu\n", n, v, cudaGetErrorName(e), got);
}

static void mode_limits()
{
    limits("initial");
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("name %s\nmajor %d\nminor %d\ntotalGlobalMem %zu\nsharedMemPerBlock %zu\n"
           "sharedMemPerBlockOptin %zu\nsharedMemPerMultiprocessor %zu\ntotalConstMem %zu\n"
           "regsPerBlock %d\nregsPerMultiprocessor %d\nwarpSize %d\nmaxThreadsPerBlock %d\n"
           "maxThreadsDim %d %d %d\nmaxGridSize %d %d %d\nmultiProcessorCount %d\n"
           "maxThreadsPerMultiProcessor %d\nmaxBlocksPerMultiProcessor %d\n"
           "memoryBusWidth %d\nl2CacheSize %d\nreservedSharedMemPerBlock %zu\n",
           p.name, p.major, p.minor, p.totalGlobalMem, p.sharedMemPerBlock,
           p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor, p.totalConstMem,
           p.regsPerBlock, p.regsPerMultiprocessor, p.warpSize, p.maxThreadsPerBlock,
           p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0],
           p.maxGridSize[1], p.maxGridSize[2], p.multiProcessorCount,
           p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor, p.memoryBusWidth,
           p.l2CacheSize, p.reservedSharedMemPerBlock);
    int v = 0;
    cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0);
    printf("clockRate_khz %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0);
    printf("memoryClockRate_khz %d\n", v);
    k_nop<<<1, 1>>>();
    CK(cudaDeviceSynchronize());
    limits("after_nop_launch");
    k_one_malloc<<<1, 1>>>();
    k_one_printf<<<1, 1>>>();
    CK(cudaDeviceSynchronize());
    limits("after_malloc_printf_launch");
    set_and_report(cudaLimitMallocHeapSize, "malloc_heap_size", 16 << 20);
    set_and_report(cudaLimitPrintfFifoSize, "printf_fifo_size", 2 << 20);
    set_and_report(cudaLimitStackSize, "stack_size", 4096);
}

// Limits set before any launch: what rounding does the runtime apply?
static void mode_setlimits()
{
    set_and_report(cudaLimitPrintfFifoSize, "printf_fifo_size", 1000);
    set_and_report(cudaLimitPrintfFifoSize, "printf_fifo_size", 1);
    set_and_report(cudaLimitPrintfFifoSize, "printf_fifo_size", 0);
    set_and_report(cudaLimitMallocHeapSize, "malloc_heap_size", 1000);
    set_and_report(cudaLimitMallocHeapSize, "malloc_heap_size", 0);
    set_and_report(cudaLimitStackSize, "stack_size", 1000);
    set_and_report(cudaLimitStackSize, "stack_size", 1);
    set_and_report(cudaLimitStackSize, "stack_size", 0);
}

#define R(i, call) rets[i] = call
__global__ void k_formats(const char *dstr, int *dptr)
{
    __shared__ char sstr[8];
    char lstr[8] = "local";
    if (threadIdx.x == 0) { sstr[0] = 's'; sstr[1] = 'h'; sstr[2] = 0; }
    __syncthreads();
    if (threadIdx.x != 0) return;
    R(0, printf("A|%p|%p|%p|\n", (void *)0, (void *)0x1234, (void *)-1));
    R(1, printf("B|%s|%10s|%-10s|%.2s|%5.1s|\n", (char *)0, "abc", "abc", "abc", "abc"));
    R(2, printf("C|%s|%s|%s|\n", dstr, sstr, lstr));
    R(3, printf("D|%hhd|%hd|%d|%ld|%lld|%hhu|%hu|\n", 300, 70000, -1, -1L, -1LL, -1, -1));
    R(4, printf("E|%#o|%#x|%#X|%+d|% d|%05d|%-5d|%+05d|\n", 8, 255, 255, 5, 5, 42, 42, -42));
    R(5, printf("F|%*d|%-*d|%.*f|%*.*e|\n", 5, 42, 5, 42, 2, 3.14159, 12, 3, 2.5));
    R(6, printf("G|%e|%E|%g|%G|%a|%A|%F|%f|\n", 1234.5, 1234.5, 0.0001234, 1e20, 1.0, -0.5, 1.5, 2.0f));
    R(7, printf("H|%c%c%c|%5c|%-3c|\n", 'a', 'b', 'c', 'x', 'y'));
    R(8, printf("I|%%|%5%|%d%%\n", 7));
    R(9, printf("J|%f|%f|%e|%g|%F|\n", INFINITY, -INFINITY, NAN, -NAN, NAN));
    R(10, printf("K|%hd|%d|\n", 1.5, 7));
    R(11, printf("L|%zu|%zd|%zx|\n", (size_t)5, (size_t)-3, (size_t)255));
    R(12, printf("M|%i|%u|%o|%x|%X|%lx|%llu|\n", -3, -3, 64, -1, 0xabc, -1L, 18446744073709551615ULL));
    R(13, printf("N|%.0e|%#g|%-08.3f|%+.3e|%#.0f|%.10g|% .2f|\n", 12345.0, 1.0, 3.14159, 0.000123, 2.0, 1.0 / 3, 2.5));
    R(14, printf("O|no args\n"));
    R(15, printf(nullptr));
    R(16, printf("P|%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d|\n",
                 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
                 25, 26, 27, 28, 29, 30, 31, 32, 33));
    R(17, printf("Q|%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d|\n",
                 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
                 25, 26, 27, 28, 29, 30, 31, 32));
    R(18, printf("R|%p|%p|\n", dptr, sstr));
    R(19, printf("S|%y|%k|%d|\n", 1, 2, 3));
    R(20, printf("T|%ld|%lu|%lld|%hx|%hhx|%lo|\n", 1L << 40, ~0UL, -(1LL << 62), 0x12345, 0x1ff, 8L));
    R(21, printf("U|%d %s %f %c %p|\n", 1, "two", 3.0, '4', (void *)5));
    R(22, printf("V|%5s|%.0s|%-6.3s|%s|\n", "", "abc", "abcdef", ""));
    R(23, printf("W|%lf|%lf|%le|%lg|\n", 1.5, 1e-5, 1e5, 1e-5));
    R(24, printf("X|%#x|%#o|%#.3x|%#e|%#a|\n", 0, 0, 1, 1.0, 0.0));
    R(25, printf("Y|%08.3f|%-8.3e|%+8.2g|% 8.2G|%0*d|\n", -3.14159, 31.4159, 0.000314159, 314159.0, 6, -7));
    R(26, printf("Z|%.3d|%.0d|%8.3d|%-8.3x|%+.3i|%.0x|\n", 7, 0, -7, 10, 7, 0));
    R(27, printf("a|%hd|%hu|%hhd|%hhu|%hx|%hho|\n", -32769, 65537, 129, 257, -1, 511));
    R(28, printf("b|%a|%A|%.2a|%a|%a|\n", 3.0, 0.1, 1.0 / 3, 1e-310, -0.0));
    R(29, printf("c|%g|%g|%g|%g|%g|%g|\n", 100000.0, 1000000.0, 1e-4, 1e-5, 0.0, 123456789.0));
    R(30, printf("d|%s|%d|\n", "multi\nline", 3));
    R(31, printf("e|%f|%d|%s|\n", 1.25f, (int)'q', dstr + 2));
}

static void mode_formats()
{
    const char s[] = "device string";
    char *dstr;
    int *dptr;
    CK(cudaMalloc(&dstr, sizeof s));
    CK(cudaMemcpy(dstr, s, sizeof s, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&dptr, 4));
    k_formats<<<1, 32>>>(dstr, dptr);
    CK(cudaDeviceSynchronize());
    int r[64];
    CK(cudaMemcpyFromSymbol(r, rets, sizeof r));
    fflush(stdout);
    for (int i = 0; i < 32; i++)
        printf("ret %d %d\n", i, r[i]);
    printf("host dptr %p dstr %p\n", (void *)dptr, (void *)dstr);
}

// A bad %s pointer, then an unmapped one.
__global__ void k_badstr(const char *p) { rets[0] = printf("badstr|%s|%d\n", p, 5); }
static void mode_badstr(const char *arg)
{
    k_badstr<<<1, 1>>>((const char *)strtoull(arg, 0, 0));
    cudaError_t e = cudaDeviceSynchronize();
    int r = 0;
    cudaMemcpyFromSymbol(&r, rets, 4);
    printf("sync %s ret %d\n", cudaGetErrorName(e), r);
}

// FIFO overflow: one thread prints n numbered records of a given kind, then a
// launch of many threads each printing one record.
__global__ void k_many(int kind, int n, const char *s)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < n; i++) {
        int r = 0;
        switch (kind) {
        case 0: r = printf("line\n"); break;
        case 1: r = printf("line %d %d\n", t, i); break;
        case 2: r = printf("line %d %d %s\n", t, i, s); break;
        case 3: r = printf("line %d %d %f %f %f %f\n", t, i, 1.0, 2.0, 3.0, 4.0); break;
        case 4: r = printf("%d %d %s\n", t, i, "a fairly long literal string argument of some length"); break;
        }
        if (t == 0 && i < 64) rets[i] = r;
    }
}

static void mode_fifo(size_t fifo, int kind, int blocks, int threads, int n)
{
    if (fifo)   // 0 keeps the default
        set_and_report(cudaLimitPrintfFifoSize, "printf_fifo_size", fifo);
    fflush(stdout);
    const char s[] = "0123456789012345678901234567890123456789";
    char *d;
    CK(cudaMalloc(&d, sizeof s));
    CK(cudaMemcpy(d, s, sizeof s, cudaMemcpyHostToDevice));
    k_many<<<blocks, threads>>>(kind, n, d);
    cudaError_t e = cudaDeviceSynchronize();
    fflush(stdout);
    int r[64];
    cudaMemcpyFromSymbol(r, rets, sizeof r);
    printf("END sync %s rets", cudaGetErrorName(e));
    for (int i = 0; i < 8; i++) printf(" %d", r[i]);
    printf("\n");
}

// Device heap behaviour.
__global__ void k_heap(int what, size_t a, size_t b)
{
    if (what == 0) {            // malloc(0), consecutive allocations and their spacing
        void *z0 = malloc(0), *z1 = malloc(0);
        void *p1 = malloc(1), *p2 = malloc(1), *p3 = malloc(100), *p4 = malloc(17);
        ptrs[0] = (unsigned long long)z0; ptrs[1] = (unsigned long long)z1;
        ptrs[2] = (unsigned long long)p1; ptrs[3] = (unsigned long long)p2;
        ptrs[4] = (unsigned long long)p3; ptrs[5] = (unsigned long long)p4;
        for (int i = 0; i < 5; i++)
            ptrs[6 + i] = (unsigned long long)__nv_aligned_device_malloc(10, (size_t)1 << (4 + 2 * i));
        ptrs[11] = (unsigned long long)__nv_aligned_device_malloc(10, 3);
        ptrs[12] = (unsigned long long)__nv_aligned_device_malloc(10, 0);
        ptrs[13] = (unsigned long long)__nv_aligned_device_malloc(10, 8);
        ptrs[14] = (unsigned long long)malloc((size_t)1 << 40);
        ptrs[15] = (unsigned long long)malloc(~(size_t)0);
        free(z0); free(z1); free(p1); free(p2); free(p3); free(p4);
    } else if (what == 1) {     // how many blocks of size a fit; then free all, fit again
        void *keep[4096];
        int n = 0;
        while (n < 4096 && (keep[n] = malloc(a)) != 0) n++;
        rets[0] = n;
        for (int i = 0; i < n; i++) free(keep[i]);
        void *big = malloc(b);
        rets[1] = big != 0;
        free(big);
        int m = 0;
        while (m < 4096 && (keep[m] = malloc(a)) != 0) m++;
        rets[2] = m;
        for (int i = 0; i < m; i++) free(keep[i]);
    } else if (what == 2) {     // free of a pointer not from the heap
        free((void *)a);
        rets[0] = 1;
    } else if (what == 3) {     // double free
        void *p = malloc(64);
        free(p);
        free(p);
        rets[0] = 1;
        void *q = malloc(64);
        ptrs[0] = (unsigned long long)p; ptrs[1] = (unsigned long long)q;
    }
}

static void mode_heap(int what, size_t a, size_t b)
{
    k_heap<<<1, 1>>>(what, a, b);
    cudaError_t e = cudaDeviceSynchronize();
    int r[4] = {0};
    unsigned long long p[16] = {0};
    cudaMemcpyFromSymbol(r, rets, sizeof r);
    cudaMemcpyFromSymbol(p, ptrs, sizeof p);
    printf("heap %d a=%zu b=%zu sync %s rets %d %d %d\n", what, a, b, cudaGetErrorName(e), r[0], r[1], r[2]);
    for (int i = 0; i < 16; i++)
        printf("ptr %d 0x%llx mod4096 %llu\n", i, p[i], p[i] % 4096);
}

// Is a %s argument copied at the call or read at the flush?
__device__ char late[8] = "before";
__global__ void k_strlate()
{
    rets[0] = printf("late|%s|\n", late);
    late[0] = 'B';
}
static void mode_strlate()
{
    k_strlate<<<1, 1>>>();
    printf("sync %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
}

__global__ void k_brkpt() { __brkpt(); rets[0] = 1; }
static void mode_brkpt()
{
    k_brkpt<<<1, 1>>>();
    cudaError_t e = cudaDeviceSynchronize();
    printf("brkpt sync %s last %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));
}

int main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "limits";
    auto num = [&](int i) { return argc > i ? strtoull(argv[i], 0, 0) : 0ULL; };
    if (!strcmp(m, "limits")) mode_limits();
    else if (!strcmp(m, "setlimits")) mode_setlimits();
    else if (!strcmp(m, "formats")) mode_formats();
    else if (!strcmp(m, "badstr")) mode_badstr(argc > 2 ? argv[2] : "0x10");
    else if (!strcmp(m, "fifo")) mode_fifo(num(2), (int)num(3), (int)num(4), (int)num(5), (int)num(6));
    else if (!strcmp(m, "heap")) mode_heap((int)num(2), num(3), num(4));
    else if (!strcmp(m, "brkpt")) mode_brkpt();
    else if (!strcmp(m, "strlate")) mode_strlate();
    fflush(stdout);
    cudaDeviceReset();
    return 0;
}
