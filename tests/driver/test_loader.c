/* test_loader.c — the loader contract of libcuda.so.1: cuGetProcAddress maps a name,
 * a requested CUDA version and the per-thread-default-stream flag to the ABI version
 * NVIDIA's driver gives (cuda.h's renaming macros and cudaTypedefs.h's PFN_..._vNNNNN
 * typedefs define which), and answers NOT_FOUND for what ptxi does not implement. */
#include <dlfcn.h>
#include <stdio.h>

#include "drv.h"

static void *sym(const char *name) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    cr_assert(h, "libcuda.so.1 is not loaded");
    void *p = dlsym(h, name);
    cr_assert(p, "%s is not exported", name);
    return p;
}

static void *proc(const char *name, int version, cuuint64_t flags, CUdriverProcAddressQueryResult *st) {
    void *fn = (void *)1;
    CUresult r = cuGetProcAddress(name, &fn, version, flags, st);
    cr_assert(r == CUDA_SUCCESS || fn == NULL, "%s: a failed lookup leaves *pfn set", name);
    return r == CUDA_SUCCESS ? fn : NULL;
}

Test(loader, versions_pick_the_abi) {
    CUdriverProcAddressQueryResult st;
    /* cuMemAlloc: v2000 is the 32-bit legacy ABI, v3020 cuMemAlloc_v2 */
    cr_expect_eq(proc("cuMemAlloc", 12000, CU_GET_PROC_ADDRESS_DEFAULT, &st), sym("cuMemAlloc_v2"));
    cr_expect_eq(st, CU_GET_PROC_ADDRESS_SUCCESS);
    cr_expect_eq(proc("cuMemAlloc", 3020, CU_GET_PROC_ADDRESS_DEFAULT, &st), sym("cuMemAlloc_v2"));
    /* cuCtxCreate: 3020 -> _v2, 11040 -> _v3 (execution affinity, not implemented), 12050 -> _v4 */
    cr_expect_eq(proc("cuCtxCreate", 11000, 0, &st), sym("cuCtxCreate_v2"));
    cr_expect_eq(proc("cuCtxCreate", 13000, 0, &st), sym("cuCtxCreate_v4"));
    cr_expect_null(proc("cuCtxCreate", 12000, 0, &st));
    cr_expect_eq(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    /* cuGetProcAddress itself: 11030 the 4-argument form, 12000 _v2 */
    cr_expect_eq(proc("cuGetProcAddress", 11030, 0, &st), sym("cuGetProcAddress"));
    cr_expect_eq(proc("cuGetProcAddress", 12000, 0, &st), sym("cuGetProcAddress_v2"));
    cr_expect_eq(proc("cuEventElapsedTime", 12080, 0, &st), sym("cuEventElapsedTime_v2"));
    /* CUDA 13.0 gave cuCtxSynchronize a context argument (_v2) */
    cr_expect_eq(proc("cuCtxSynchronize", 12090, 0, &st), sym("cuCtxSynchronize"));
    cr_expect_eq(proc("cuCtxSynchronize", 13000, 0, &st), sym("cuCtxSynchronize_v2"));
    cr_expect_eq(proc("cuStreamGetCaptureInfo", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st),
                 sym("cuStreamGetCaptureInfo_v2_ptsz"));
}

Test(loader, per_thread_default_stream_forms) {
    CUdriverProcAddressQueryResult st;
    cr_expect_eq(proc("cuMemcpyHtoD", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st),
                 sym("cuMemcpyHtoD_v2_ptds"));
    cr_expect_eq(proc("cuMemcpyHtoD", 12000, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &st), sym("cuMemcpyHtoD_v2"));
    cr_expect_eq(proc("cuLaunchKernel", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st),
                 sym("cuLaunchKernel_ptsz"));
    cr_expect_eq(proc("cuLaunchKernel", 12000, CU_GET_PROC_ADDRESS_DEFAULT, &st), sym("cuLaunchKernel"));
    /* no per-thread form: the one function serves both */
    cr_expect_eq(proc("cuInit", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st), sym("cuInit"));
    /* per-thread forms appeared in CUDA 7.0: an older request gets the legacy one */
    cr_expect_eq(proc("cuMemcpyHtoD", 6050, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st),
                 sym("cuMemcpyHtoD_v2"));
}

Test(loader, not_found_and_not_sufficient) {
    CUdriverProcAddressQueryResult st;
    cr_expect_null(proc("cuNoSuchFunction", 13000, 0, &st));
    cr_expect_eq(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    /* the library API arrived in CUDA 12.0 */
    cr_expect_null(proc("cuLibraryLoadData", 11080, 0, &st));
    cr_expect_eq(st, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    cr_expect_not_null(proc("cuLibraryLoadData", 12000, 0, &st));
    /* IPC is not implemented: not found */
    cr_expect_null(proc("cuIpcCloseMemHandle", 13000, 0, &st));
    cr_expect_eq(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    void *fn;
    cr_expect_eq(cuGetProcAddress("cuInit", &fn, 13000, 4, NULL), CUDA_ERROR_INVALID_VALUE);
    cr_expect_eq(cuGetProcAddress(NULL, &fn, 13000, 0, NULL), CUDA_ERROR_INVALID_VALUE);
}

/* A function that is exported but not implemented says so and fails cleanly. */
Test(loader, unimplemented_is_not_supported) {
    CK(cuInit(0));
    CUresult (*close_ipc)(CUdeviceptr) = (CUresult(*)(CUdeviceptr))sym("cuIpcCloseMemHandle");
    cr_expect_eq(close_ipc(1), CUDA_ERROR_NOT_SUPPORTED);
    cr_expect_eq(close_ipc(1), CUDA_ERROR_NOT_SUPPORTED);
}

Test(loader, plain_and_versioned_names) {
    /* legacy names whose ABI never changed are the same function */
    cr_expect_eq(sym("cuCtxDestroy"), sym("cuCtxDestroy_v2"));
    cr_expect_eq(sym("cuStreamDestroy"), sym("cuStreamDestroy_v2"));
    cr_expect_eq(sym("cuDevicePrimaryCtxRelease"), sym("cuDevicePrimaryCtxRelease_v2"));
    cr_expect_eq(sym("cuMemcpy_ptds"), sym("cuMemcpy"));
    sym("cuMemAlloc"); /* the 32-bit legacy ABI is exported too, as a stub */
}

Test(loader, versions_and_init) {
    int v = 0;
    CK(cuDriverGetVersion(&v));
    cr_expect_geq(v, 13000);
    int n;
    cr_expect_eq(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED);
    cr_expect_eq(cuInit(1), CUDA_ERROR_INVALID_VALUE);
    CK(cuInit(0));
    CK(cuDeviceGetCount(&n));
    cr_expect_eq(n, 1);
    CUdevice d;
    cr_expect_eq(cuDeviceGet(&d, 1), CUDA_ERROR_INVALID_DEVICE);
}

Test(loader, error_names_and_strings) {
    const char *s;
    CK(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &s));
    cr_expect_str_eq(s, "CUDA_ERROR_ILLEGAL_ADDRESS");
    CK(cuGetErrorString(CUDA_ERROR_ILLEGAL_ADDRESS, &s));
    cr_expect_str_eq(s, "an illegal memory access was encountered");
    CK(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &s));
    cr_expect_str_eq(s, "invalid argument");
    cr_expect_eq(cuGetErrorName((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
    cr_expect_null(s);
}

/* Same identity and attributes as libcudart.so.13 gives (device_attrs.def). */
Test(loader, device_identity) {
    CK(cuInit(0));
    char name[128];
    CK(cuDeviceGetName(name, sizeof name, 0));
    cr_expect_str_eq(name, "NVIDIA H100 80GB HBM3");
    int major, minor, sms, warp;
    CK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
    CK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0));
    CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
    CK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
    cr_expect_eq(major * 10 + minor, 90);
    cr_expect_eq(sms, 132);
    cr_expect_eq(warp, 32);
    CUuuid a, b;
    CK(cuDeviceGetUuid(&a, 0));
    CK(cuDeviceGetUuid_v2(&b, 0));
    cr_expect_eq(memcmp(a.bytes, b.bytes, 16), 0);
    int rt = 0;
    cr_expect_eq(cudaDeviceGetAttribute(&rt, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    cr_expect_eq(rt, sms);
}

Test(loader, sm80_presentation) {
    setenv("PTXI_DEVICE_SM", "80", 1);
    CK(cuInit(0));
    int major, minor;
    CK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
    CK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0));
    cr_expect_eq(major, 8);
    cr_expect_eq(minor, 0);
    char name[128];
    CK(cuDeviceGetName(name, sizeof name, 0));
    cr_expect_str_eq(name, "NVIDIA A100-SXM4-80GB");
    struct cudaDeviceProp p;
    cr_expect_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    cr_expect_eq(p.major, 8);
    cr_expect_str_eq(p.name, "NVIDIA A100-SXM4-80GB");
}

/* Every renaming in cuda.h (`#define cuXxx cuXxx_vN`, the ABI a program compiled with
 * these headers calls) is what cuGetProcAddress gives at the headers' version, or the
 * entry point is reported missing. */
Test(loader, agrees_with_cuda_h) {
    FILE *f = fopen(PTXI_CUDA_INCLUDE_DIR "/cuda.h", "r");
    cr_assert(f);
    char line[512], name[128], target[128];
    int checked = 0, found = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "#define %127s %127s", name, target) != 2 || strncmp(name, "cu", 2) ||
            strncmp(target, name, strlen(name)) || strncmp(target + strlen(name), "_v", 2))
            continue;
        CUdriverProcAddressQueryResult st;
        void *fn = NULL;
        CUresult r = cuGetProcAddress(name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &st);
        checked++;
        if (r == CUDA_ERROR_NOT_FOUND) {
            cr_expect_eq(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND, "%s", name);
            continue;
        }
        cr_expect_eq(r, CUDA_SUCCESS, "%s", name);
        cr_expect_eq(fn, sym(target), "%s should be %s", name, target);
        found++;
    }
    fclose(f);
    cr_expect_gt(checked, 40);
    cr_expect_gt(found, 20);
}
