/* test_nvrtc.c — an NVRTC program's "cubin" runs on ptxi: lib/libnvrtc.so.13 forwards
 * to NVIDIA's NVRTC and hands out the compiled program's PTX as its cubin, which
 * cuModuleLoadData loads. Skipped where either library is missing (no nvrtc.h when
 * ptxi was built, or no NVIDIA libnvrtc.so.13 to forward to). */
#include <dlfcn.h>
#include <stdlib.h>

#include "drv.h"

typedef int nvrtc_result;
typedef struct {
    nvrtc_result (*create)(void **prog, const char *src, const char *name, int nh, const char *const *h,
                           const char *const *hn);
    nvrtc_result (*compile)(void *prog, int n, const char *const *opts);
    nvrtc_result (*cubin_size)(void *prog, size_t *n);
    nvrtc_result (*cubin)(void *prog, char *out);
    nvrtc_result (*ptx_size)(void *prog, size_t *n);
    nvrtc_result (*ptx)(void *prog, char *out);
    nvrtc_result (*destroy)(void **prog);
    nvrtc_result (*version)(int *major, int *minor);
} nvrtc_api;

static const char SRC[] = "extern \"C\" __global__ void axpy(float a, const float *x, float *y, int n) {\n"
                          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "    if (i < n) y[i] = a * x[i] + y[i];\n"
                          "}\n";

/* The front library, or NULL (the test is then skipped). */
static void *open_front(nvrtc_api *api) {
    void *lib = dlopen(PTXI_BINARY_DIR "/lib/libnvrtc.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return NULL;
    *(void **)&api->create = dlsym(lib, "nvrtcCreateProgram");
    *(void **)&api->compile = dlsym(lib, "nvrtcCompileProgram");
    *(void **)&api->cubin_size = dlsym(lib, "nvrtcGetCUBINSize");
    *(void **)&api->cubin = dlsym(lib, "nvrtcGetCUBIN");
    *(void **)&api->ptx_size = dlsym(lib, "nvrtcGetPTXSize");
    *(void **)&api->ptx = dlsym(lib, "nvrtcGetPTX");
    *(void **)&api->destroy = dlsym(lib, "nvrtcDestroyProgram");
    *(void **)&api->version = dlsym(lib, "nvrtcVersion");
    int major = 0, minor = 0;
    if (!api->version || api->version(&major, &minor) != 0) return NULL; /* no NVIDIA NVRTC behind it */
    return lib;
}

Test(nvrtc, cubin_for_a_real_architecture_runs) {
    nvrtc_api api;
    if (!open_front(&api)) cr_skip_test("no libnvrtc.so.13 front, or no NVIDIA NVRTC behind it");
    void *prog = NULL;
    cr_assert_eq(api.create(&prog, SRC, "axpy.cu", 0, NULL, NULL), 0);
    const char *opts[] = {"--gpu-architecture=sm_90"};
    cr_assert_eq(api.compile(prog, 1, opts), 0);
    size_t n = 0, np = 0;
    cr_assert_eq(api.cubin_size(prog, &n), 0);
    cr_assert_eq(api.ptx_size(prog, &np), 0);
    cr_assert_eq(n, np, "the cubin is the PTX");
    char *image = malloc(n), *ptx = malloc(np);
    cr_assert(image && ptx);
    cr_assert_eq(api.cubin(prog, image), 0);
    cr_assert_eq(api.ptx(prog, ptx), 0);
    cr_assert_eq(memcmp(image, ptx, n), 0);
    cr_assert_eq(image[n - 1], '\0');
    cr_assert_eq(api.destroy(&prog), 0);

    drv_setup();
    CUmodule mod;
    CUfunction f;
    CK(cuModuleLoadData(&mod, image));
    CK(cuModuleGetFunction(&f, mod, "axpy"));
    enum { N = 1000 };
    float x[N], y[N];
    for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1.0f;
    CUdeviceptr dx, dy;
    CK(cuMemAlloc(&dx, sizeof x));
    CK(cuMemAlloc(&dy, sizeof y));
    CK(cuMemcpyHtoD(dx, x, sizeof x));
    CK(cuMemcpyHtoD(dy, y, sizeof y));
    float a = 2.0f;
    int count = N;
    void *args[] = {&a, &dx, &dy, &count};
    CK(cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CK(cuMemcpyDtoH(y, dy, sizeof y));
    for (int i = 0; i < N; i++) cr_assert_eq(y[i], 2.0f * i + 1.0f, "y[%d] = %g", i, y[i]);
    CK(cuMemFree(dx));
    CK(cuMemFree(dy));
    CK(cuModuleUnload(mod));
    free(image);
    free(ptx);
}
