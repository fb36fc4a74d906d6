/* nvrtc_dot.c — a plain C program on the driver API: NVRTC compiles a kernel to PTX,
 * cuModuleLoadDataEx loads it, cuLaunchKernel runs it. The kernel computes a fused
 * z = a*x + y and an integer dot product (warp shuffles, then one atomicAdd per warp);
 * the program checks both against the host (fmaf, a 64-bit sum) and prints `ok`. */
#include <cuda.h>
#include <math.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const char *source =
    "extern \"C\" __global__ void saxpy_dot(float a, const float *x, const float *y, float *z,\n"
    "                                        const int *u, const int *v, unsigned long long *dot, int n) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    long long p = 0;\n"
    "    if (i < n) { z[i] = a * x[i] + y[i]; p = (long long)u[i] * v[i]; }\n"
    "    for (int off = 16; off > 0; off /= 2) p += __shfl_down_sync(0xffffffffu, p, off);\n"
    "    if ((threadIdx.x & 31) == 0) atomicAdd(dot, (unsigned long long)p);\n"
    "}\n";

#define CU(call)                                                                      \
    do {                                                                              \
        CUresult r_ = (call);                                                         \
        if (r_ != CUDA_SUCCESS) {                                                     \
            const char *s_ = "?";                                                     \
            cuGetErrorName(r_, &s_);                                                  \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, s_); \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

int main(void) {
    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, source, "saxpy_dot.cu", 0, NULL, NULL) != NVRTC_SUCCESS) return 1;
    const char *opts[] = {"--gpu-architecture=compute_90"};
    nvrtcResult nr = nvrtcCompileProgram(prog, 1, opts);
    size_t log_size;
    nvrtcGetProgramLogSize(prog, &log_size);
    if (nr != NVRTC_SUCCESS) {
        char *log = malloc(log_size);
        nvrtcGetProgramLog(prog, log);
        fprintf(stderr, "NVRTC: %s\n%s\n", nvrtcGetErrorString(nr), log);
        return 1;
    }
    size_t ptx_size;
    nvrtcGetPTXSize(prog, &ptx_size);
    char *ptx = malloc(ptx_size);
    nvrtcGetPTX(prog, ptx);
    nvrtcDestroyProgram(&prog);

    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    CU(cuInit(0));
    CU(cuDeviceGet(&dev, 0));
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    CU(cuModuleLoadDataEx(&mod, ptx, 0, NULL, NULL));
    CU(cuModuleGetFunction(&fn, mod, "saxpy_dot"));

    enum { N = 5000 };
    static float x[N], y[N], z[N];
    static int u[N], v[N];
    int64_t want_dot = 0;
    srand(17);
    for (int i = 0; i < N; i++) {
        x[i] = (float)rand() / RAND_MAX - 0.5f;
        y[i] = (float)rand() / RAND_MAX * 4.0f;
        u[i] = rand() % 20001 - 10000;
        v[i] = rand() % 20001 - 10000;
        want_dot += (int64_t)u[i] * v[i];
    }
    CUdeviceptr dx, dy, dz, du, dv, ddot;
    CU(cuMemAlloc(&dx, sizeof x));
    CU(cuMemAlloc(&dy, sizeof y));
    CU(cuMemAlloc(&dz, sizeof z));
    CU(cuMemAlloc(&du, sizeof u));
    CU(cuMemAlloc(&dv, sizeof v));
    CU(cuMemAlloc(&ddot, 8));
    CU(cuMemcpyHtoD(dx, x, sizeof x));
    CU(cuMemcpyHtoD(dy, y, sizeof y));
    CU(cuMemcpyHtoD(du, u, sizeof u));
    CU(cuMemcpyHtoD(dv, v, sizeof v));
    CU(cuMemsetD32(ddot, 0, 2));
    float a = 1.75f;
    int n = N;
    void *args[] = {&a, &dx, &dy, &dz, &du, &dv, &ddot, &n};
    CU(cuLaunchKernel(fn, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CU(cuCtxSynchronize());
    uint64_t dot;
    CU(cuMemcpyDtoH(z, dz, sizeof z));
    CU(cuMemcpyDtoH(&dot, ddot, 8));
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (z[i] != fmaf(a, x[i], y[i]) && bad++ < 5) /* NVRTC contracts a*x+y into fma.rn.f32 */
            fprintf(stderr, "z[%d] = %a, expected %a\n", i, z[i], fmaf(a, x[i], y[i]));
    if ((int64_t)dot != want_dot) {
        fprintf(stderr, "dot = %lld, expected %lld\n", (long long)(int64_t)dot, (long long)want_dot);
        bad++;
    }
    CU(cuModuleUnload(mod));
    CU(cuDevicePrimaryCtxRelease(dev));
    free(ptx);
    if (bad) return 1;
    printf("ok\n");
    return 0;
}
