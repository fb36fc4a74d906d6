/* test_modules.c — modules from PTX text, from a file and from fatbinaries; an ELF
 * cubin refused with what to do; the JIT error log; globals; the linker joining PTX
 * units; the library API, whose kernels are functions. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "drv.h"

static void run_add(CUfunction f) {
    enum { N = 1000 };
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 0.5f * (float)i;
    CUdeviceptr da, db, dc;
    CK(cuMemAlloc(&da, sizeof a));
    CK(cuMemAlloc(&db, sizeof b));
    CK(cuMemAlloc(&dc, sizeof c));
    CK(cuMemcpyHtoD(da, a, sizeof a));
    CK(cuMemcpyHtoD(db, b, sizeof b));
    unsigned n = N;
    void *args[] = {&da, &db, &dc, &n};
    CK(cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CK(cuMemcpyDtoH(c, dc, sizeof c));
    for (int i = 0; i < N; i++) cr_assert_eq(c[i], 1.5f * (float)i, "c[%d] = %g", i, c[i]);
    CK(cuMemFree(da));
    CK(cuMemFree(db));
    CK(cuMemFree(dc));
}

Test(modules, ptx_text_and_file) {
    drv_setup();
    CUmodule m = drv_module();
    CUfunction f;
    CK(cuModuleGetFunction(&f, m, "add"));
    run_add(f);
    cr_expect_eq(cuModuleGetFunction(&f, m, "nope"), CUDA_ERROR_NOT_FOUND);
    unsigned count;
    CK(cuModuleGetFunctionCount(&count, m));
    cr_expect_eq(count, 6);
    CK(cuModuleUnload(m));
    cr_expect_eq(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);

    char path[] = "/tmp/ptxi_drv_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *fp = fdopen(fd, "w");
    fputs(PTX_KERNELS, fp);
    fclose(fp);
    CK(cuModuleLoad(&m, path));
    unlink(path);
    CK(cuModuleGetFunction(&f, m, "add"));
    run_add(f);
    cr_expect_eq(cuModuleLoad(&m, "/nonexistent/x.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
}

Test(modules, globals) {
    drv_setup();
    CUmodule m = drv_module();
    CUdeviceptr g;
    size_t bytes;
    CK(cuModuleGetGlobal(&g, &bytes, m, "counter"));
    cr_expect_eq(bytes, 4);
    unsigned v;
    CK(cuMemcpyDtoH(&v, g, 4));
    cr_expect_eq(v, 5); /* its initializer */
    CUfunction f;
    CK(cuModuleGetFunction(&f, m, "bump"));
    CK(cuLaunchKernel(f, 3, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL));
    CK(cuMemcpyDtoH(&v, g, 4));
    cr_expect_eq(v, 5 + 96);
    cr_expect_eq(cuModuleGetGlobal(&g, &bytes, m, "missing"), CUDA_ERROR_NOT_FOUND);
}

/* An ELF image is machine code: refused with CUDA_ERROR_NO_BINARY_FOR_GPU, as a GPU
 * of another architecture refuses it. */
Test(modules, elf_cubin_refused) {
    drv_setup();
    unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33};
    CUmodule m;
    cr_expect_eq(cuModuleLoadData(&m, elf), CUDA_ERROR_NO_BINARY_FOR_GPU);
    char log[1024] = "";
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(uintptr_t)sizeof log};
    cr_expect_eq(cuModuleLoadDataEx(&m, elf, 2, opts, vals), CUDA_ERROR_NO_BINARY_FOR_GPU);
    cr_expect(strstr(log, "cubin") && strstr(log, "PTX"), "log: %s", log);
}

Test(modules, invalid_ptx_fills_the_error_log) {
    drv_setup();
    char log[4096] = "";
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(uintptr_t)sizeof log};
    CUmodule m;
    const char *bad = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { frob.u32 %r0; }\n";
    cr_expect_eq(cuModuleLoadDataEx(&m, bad, 2, opts, vals), CUDA_ERROR_INVALID_PTX);
    cr_expect(strstr(log, "error"), "log: %s", log);
    cr_expect_eq((size_t)(uintptr_t)vals[1], strlen(log));
}

/* A fatbinary holding PTX (nvcc -fatbin) loads; one holding only SASS is refused. */
Test(modules, fatbinary) {
    if (system("command -v nvcc >/dev/null 2>&1")) cr_skip_test("skipped: nvcc not found");
    drv_setup();
    const char *dir = PTXI_BINARY_DIR "/driver-tests";
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s && cd %s && printf '%%s' 'extern \"C\" __global__ void twice(int *p) { p[threadIdx.x] *= 2; "
             "}' > k.cu"
             " && nvcc -fatbin -gencode arch=compute_90,code=compute_90 -o ptx.fatbin k.cu"
             " && nvcc -fatbin -gencode arch=compute_90,code=sm_90 -o sass.fatbin k.cu",
             dir, dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    CUmodule m;
    CUresult r = CUDA_ERROR_UNKNOWN;
    for (int sass = 0; sass < 2; sass++) {
        snprintf(cmd, sizeof cmd, "%s/%s.fatbin", dir, sass ? "sass" : "ptx");
        FILE *f = fopen(cmd, "rb");
        cr_assert(f);
        static char image[1 << 20];
        size_t n = fread(image, 1, sizeof image, f);
        fclose(f);
        cr_assert_gt(n, 0);
        r = cuModuleLoadFatBinary(&m, image);
        if (sass) break;
        CK(r);
        CUfunction fn;
        CK(cuModuleGetFunction(&fn, m, "twice"));
        int h[4] = {1, 2, 3, 4};
        CUdeviceptr d;
        CK(cuMemAlloc(&d, sizeof h));
        CK(cuMemcpyHtoD(d, h, sizeof h));
        void *args[] = {&d};
        CK(cuLaunchKernel(fn, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL));
        CK(cuMemcpyDtoH(h, d, sizeof h));
        cr_expect(h[0] == 2 && h[1] == 4 && h[2] == 6 && h[3] == 8);
    }
    cr_expect_eq(r, CUDA_ERROR_NO_BINARY_FOR_GPU);
}

/* Two units: one calls a function the other defines; the linker's output is PTX
 * that cuModuleLoadData takes. */
Test(modules, link_ptx_units) {
    drv_setup();
    static const char caller[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                                 ".extern .func (.param .u32 r) triple(.param .u32 x);\n"
                                 ".visible .entry use(.param .u64 p)\n{\n"
                                 "  .reg .u32 %r<3>; .reg .u64 %d<1>;\n"
                                 "  ld.param.u64 %d0, [p]; ld.global.u32 %r0, [%d0];\n"
                                 "  { .param .u32 a; .param .u32 b; st.param.u32 [a], %r0;\n"
                                 "    call (b), triple, (a); ld.param.u32 %r1, [b]; }\n"
                                 "  st.global.u32 [%d0], %r1;\n  ret;\n}\n";
    static const char callee[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .func (.param .u32 r) triple(.param .u32 x)\n{\n"
        "  .reg .u32 %r<2>; ld.param.u32 %r0, [x]; mul.lo.u32 %r1, %r0, 3; st.param.u32 [r], %r1; ret;\n}\n";
    CUlinkState ls;
    CK(cuLinkCreate(0, NULL, NULL, &ls));
    CK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)caller, sizeof caller, "caller.ptx", 0, NULL, NULL));
    CK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)callee, sizeof callee - 1, "callee.ptx", 0, NULL, NULL));
    unsigned char elf[16] = {0x7f, 'E', 'L', 'F'};
    cr_expect_eq(cuLinkAddData(ls, CU_JIT_INPUT_CUBIN, elf, sizeof elf, "x.cubin", 0, NULL, NULL),
                 CUDA_ERROR_NO_BINARY_FOR_GPU);
    void *out;
    size_t size;
    CK(cuLinkComplete(ls, &out, &size));
    cr_expect_gt(size, 0);
    CUmodule m;
    CK(cuModuleLoadData(&m, out));
    CK(cuLinkDestroy(ls));
    cr_expect_eq(cuLinkDestroy(ls), CUDA_ERROR_INVALID_HANDLE);
    cr_expect_eq(cuLinkComplete(ls, &out, &size), CUDA_ERROR_INVALID_VALUE);
    CUfunction f;
    CK(cuModuleGetFunction(&f, m, "use"));
    CUdeviceptr d;
    unsigned v = 14;
    CK(cuMemAlloc(&d, 4));
    CK(cuMemcpyHtoD(d, &v, 4));
    void *args[] = {&d};
    CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    CK(cuMemcpyDtoH(&v, d, 4));
    cr_expect_eq(v, 42);
}

/* A kernel that launches a kernel, linked with NVIDIA's device runtime library
 * (libcudadevrt.a, CU_JIT_INPUT_LIBRARY) as libNVVM's device-side-launch sample links
 * it: ptxi implements the device runtime, so the library is taken and left out; any
 * other host library is refused. */
Test(modules, link_device_runtime_library) {
    if (system("command -v nvcc >/dev/null 2>&1")) cr_skip_test("skipped: nvcc not found");
    const char *dir = PTXI_BINARY_DIR "/driver-tests";
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s && cd %s && rm -f devrt.a && printf '%%s' '"
             "extern \"C\" __global__ void child(int *p) { p[threadIdx.x] = 10 * threadIdx.x + 1; }\n"
             "extern \"C\" __global__ void parent(int *p) { child<<<1, 4>>>(p); }' > dp.cu"
             " && nvcc -arch=sm_90 -rdc=true -ptx -o dp.ptx dp.cu"
             " && for d in lib64 lib targets/x86_64-linux/lib; do"
             " f=\"$(dirname \"$(command -v nvcc)\")/../$d/libcudadevrt.a\"; [ -f \"$f\" ] && cp \"$f\" devrt.a && "
             "break; done; true",
             dir, dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    char path[600];
    snprintf(path, sizeof path, "%s/devrt.a", dir);
    FILE *f = fopen(path, "rb");
    if (!f) cr_skip_test("skipped: no libcudadevrt.a next to nvcc");
    fclose(f);
    drv_setup();
    snprintf(cmd, sizeof cmd, "%s/dp.ptx", dir);
    CUlinkState ls;
    CK(cuLinkCreate(0, NULL, NULL, &ls));
    CK(cuLinkAddFile(ls, CU_JIT_INPUT_PTX, cmd, 0, NULL, NULL));
    CK(cuLinkAddFile(ls, CU_JIT_INPUT_LIBRARY, path, 0, NULL, NULL));
    static const char other[] = "!<arch>\nhost.o/         0           0     0     644     4         `\nELF\n";
    cr_expect_eq(cuLinkAddData(ls, CU_JIT_INPUT_LIBRARY, (void *)other, sizeof other - 1, "libhost.a", 0, NULL, NULL),
                 CUDA_ERROR_NOT_SUPPORTED);
    void *out;
    size_t size;
    CK(cuLinkComplete(ls, &out, &size));
    CUmodule m;
    CK(cuModuleLoadData(&m, out));
    CK(cuLinkDestroy(ls));
    CUfunction fn;
    CK(cuModuleGetFunction(&fn, m, "parent"));
    int h[4] = {0};
    CUdeviceptr d;
    CK(cuMemAlloc(&d, sizeof h));
    CK(cuMemcpyHtoD(d, h, sizeof h));
    void *args[] = {&d};
    CK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    CK(cuMemcpyDtoH(h, d, sizeof h));
    for (int i = 0; i < 4; i++) cr_expect_eq(h[i], 10 * i + 1, "p[%d] = %d", i, h[i]);
    CK(cuMemFree(d));
    CK(cuModuleUnload(m));
}

Test(modules, library_api) {
    CK(cuInit(0));
    CUlibrary lib;
    CK(cuLibraryLoadData(&lib, PTX_KERNELS, NULL, NULL, 0, NULL, NULL, 0));
    CUkernel k;
    CK(cuLibraryGetKernel(&k, lib, "add"));
    CUfunction f;
    CK(cuKernelGetFunction(&f, k));
    cr_expect_eq((void *)f, (void *)k);
    CUmodule m;
    CK(cuLibraryGetModule(&m, lib));
    CUfunction f2;
    CK(cuModuleGetFunction(&f2, m, "add"));
    cr_expect_eq(f2, f);
    const char *name;
    CK(cuKernelGetName(&name, k));
    cr_expect_str_eq(name, "add");
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, 0));
    CK(cuCtxSetCurrent(ctx));
    run_add((CUfunction)k); /* a CUkernel is launched as a function */
    CUdeviceptr g;
    size_t bytes;
    CK(cuLibraryGetGlobal(&g, &bytes, lib, "counter"));
    cr_expect_eq(bytes, 4);
    unsigned count;
    CK(cuLibraryGetKernelCount(&count, lib));
    cr_expect_eq(count, 6);
    CK(cuLibraryUnload(lib));
    cr_expect_eq(cuLibraryGetKernel(&k, lib, "add"), CUDA_ERROR_INVALID_HANDLE);
}

/* nvcc's default links NVIDIA's runtime statically, which does not run on ptxi: the
 * program is named and told how to rebuild it. */
Test(modules, static_runtime_named) {
    if (system("command -v nvcc >/dev/null 2>&1")) cr_skip_test("skipped: nvcc not found");
    const char *dir = PTXI_BINARY_DIR "/driver-tests";
    char cmd[2048];
    snprintf(
        cmd, sizeof cmd,
        "mkdir -p %s && cd %s && printf '%%s' 'int main() { void *p; return cudaMalloc(&p, 4) == 0; }' > st.cu"
        " && nvcc -o static_app st.cu && env LD_LIBRARY_PATH=" PTXI_BINARY_DIR "/lib"
        " ${PTXI_CHILD_PRELOAD:+LD_PRELOAD=$PTXI_CHILD_PRELOAD ASAN_OPTIONS=detect_leaks=0} ./static_app 2> st.err;"
        " grep -c \"ptxi: static_app links NVIDIA's CUDA runtime statically; rebuild it with -cudart shared\" st.err",
        dir, dir);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    int lines = -1;
    cr_expect_eq(fscanf(p, "%d", &lines), 1);
    pclose(p);
    cr_expect_eq(lines, 1);
}
