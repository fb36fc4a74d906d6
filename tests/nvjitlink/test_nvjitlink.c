/* test_nvjitlink.c — lib/libnvJitLink.so.13, loaded as cuda-bindings loads it (dlopen,
 * dlsym by name): PTX units linked into PTX that ptxi runs, the result codes nvJitLink.h
 * defines for missing options and inputs other than PTX, and ptxas-style error logs. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../run_kernel.h"

#define LIB PTXI_BINARY_DIR "/lib/libnvJitLink.so.13"

/* nvJitLink.h's result codes and input kinds (CUDA 13). */
enum {
    SUCCESS = 0,
    ERROR_MISSING_ARCH = 2,
    ERROR_INVALID_INPUT = 3,
    ERROR_PTX_COMPILE = 4,
    ERROR_UNRECOGNIZED_INPUT = 8
};
enum { INPUT_CUBIN = 1, INPUT_PTX = 2, INPUT_LTOIR = 3 };

typedef void *handle;
static struct {
    int (*create)(handle *, uint32_t, const char **);
    int (*destroy)(handle *);
    int (*add_data)(handle, int, const void *, size_t, const char *);
    int (*complete)(handle);
    int (*cubin_size)(handle, size_t *);
    int (*cubin)(handle, void *);
    int (*ptx_size)(handle, size_t *);
    int (*ptx)(handle, char *);
    int (*error_log_size)(handle, size_t *);
    int (*error_log)(handle, char *);
} nj;
static void *lib;

static void *sym(const char *name) {
    void *p = dlsym(lib, name);
    cr_assert(p, "%s is not exported", name);
    return p;
}

static void load(void) {
    lib = dlopen(LIB, RTLD_NOW | RTLD_LOCAL);
    if (!lib) cr_skip_test("skipped: %s was not built (no CUDA headers)", LIB);
    *(void **)&nj.create = sym("nvJitLinkCreate");
    *(void **)&nj.destroy = sym("nvJitLinkDestroy");
    *(void **)&nj.add_data = sym("nvJitLinkAddData");
    *(void **)&nj.complete = sym("nvJitLinkComplete");
    *(void **)&nj.cubin_size = sym("nvJitLinkGetLinkedCubinSize");
    *(void **)&nj.cubin = sym("nvJitLinkGetLinkedCubin");
    *(void **)&nj.ptx_size = sym("nvJitLinkGetLinkedPtxSize");
    *(void **)&nj.ptx = sym("nvJitLinkGetLinkedPtx");
    *(void **)&nj.error_log_size = sym("nvJitLinkGetErrorLogSize");
    *(void **)&nj.error_log = sym("nvJitLinkGetErrorLog");
}

TestSuite(nvjitlink, .init = load);

static char *error_log(handle h) {
    size_t n = 0;
    cr_assert_eq(nj.error_log_size(h, &n), SUCCESS);
    char *s = malloc(n);
    cr_assert_eq(nj.error_log(h, s), SUCCESS);
    return s;
}

static handle create(void) {
    const char *opts[] = {"-arch=sm_90", "-O3", "-lineinfo"};
    handle h = NULL;
    cr_assert_eq(nj.create(&h, 3, opts), SUCCESS);
    return h;
}

/* A device function in one unit, the kernel that calls it in another (numba's shape:
 * the kernel's PTX and the PTX of the functions it links). */
static const char unit_func[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                                ".visible .func (.param .b32 r) times_seven(.param .b32 x)\n"
                                "{\n  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [x];\n  mul.lo.u32 %r2, %r1, 7;\n"
                                "  st.param.b32 [r], %r2;\n  ret;\n}\n";
static const char unit_kernel[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".extern .func (.param .b32 r) times_seven(.param .b32 x);\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  { .param .b32 a; .param .b32 b; st.param.b32 [a], %r1;\n"
    "    call.uni (b), times_seven, (a); ld.param.b32 %r2, [b]; }\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r2;\n  ret;\n}\n";

Test(nvjitlink, links_ptx_units_into_ptx_that_runs) {
    handle h = create();
    cr_assert_eq(nj.add_data(h, INPUT_PTX, unit_kernel, sizeof unit_kernel, "kernel.ptx"), SUCCESS);
    cr_assert_eq(nj.add_data(h, INPUT_PTX, unit_func, strlen(unit_func), "func.ptx"), SUCCESS);
    cr_assert_eq(nj.complete(h), SUCCESS, "%s", error_log(h));
    size_t n_cubin, n_ptx;
    cr_assert_eq(nj.cubin_size(h, &n_cubin), SUCCESS);
    cr_assert_eq(nj.ptx_size(h, &n_ptx), SUCCESS);
    cr_assert_eq(n_cubin, n_ptx);
    char *cubin = malloc(n_cubin), *ptx = malloc(n_ptx);
    cr_assert_eq(nj.cubin(h, cubin), SUCCESS);
    cr_assert_eq(nj.ptx(h, ptx), SUCCESS);
    cr_assert_eq(memcmp(cubin, ptx, n_ptx), 0);
    cr_assert_eq(cubin[n_cubin - 1], 0);
    uint32_t got[32];
    char rep[512];
    cr_assert_eq(run_io(cubin, 32, NULL, 0, got, sizeof got, rep, sizeof rep), PTXI_SUCCESS, "%s\n%s", rep, cubin);
    for (uint32_t i = 0; i < 32; i++) cr_expect_eq(got[i], 7 * i);
    free(cubin), free(ptx);
    cr_assert_eq(nj.destroy(&h), SUCCESS);
    cr_assert_null(h);
}

Test(nvjitlink, needs_an_arch) {
    const char *opts[] = {"-O3"};
    handle h = NULL;
    cr_expect_eq(nj.create(&h, 1, opts), ERROR_MISSING_ARCH);
    cr_expect_null(h);
}

Test(nvjitlink, takes_only_ptx_and_says_why) {
    handle h = create();
    static const char lto[] = "\x43\x7f\xde\x7f\x01\x00\x00\x00"; /* not text */
    cr_expect_eq(nj.add_data(h, INPUT_LTOIR, lto, sizeof lto, "k.ltoir"), ERROR_UNRECOGNIZED_INPUT);
    static const char elf[] = "\x7f"
                              "ELF\x02\x01\x01\x41";
    cr_expect_eq(nj.add_data(h, INPUT_CUBIN, elf, sizeof elf, "k.cubin"), ERROR_UNRECOGNIZED_INPUT);
    char *log = error_log(h);
    cr_expect(strstr(log, "k.ltoir") && strstr(log, "LTO-IR"), "%s", log);
    cr_expect(strstr(log, "k.cubin") && strstr(log, "SASS"), "%s", log);
    free(log);
    /* nothing was added: completing has nothing to link */
    cr_expect_eq(nj.complete(h), ERROR_INVALID_INPUT);
    nj.destroy(&h);
}

Test(nvjitlink, ptx_given_as_a_cubin_is_linked) {
    /* what ptxi-ptxas and this library hand out as a "cubin" comes back as an input */
    handle h = create();
    cr_assert_eq(nj.add_data(h, INPUT_CUBIN, unit_func, sizeof unit_func, "func.cubin"), SUCCESS);
    cr_assert_eq(nj.complete(h), SUCCESS, "%s", error_log(h));
    nj.destroy(&h);
}

Test(nvjitlink, bad_ptx_fails_with_a_ptxas_log) {
    static const char bad[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k()\n{\n  frobnicate.u32 %r1;\n  ret;\n}\n";
    handle h = create();
    cr_assert_eq(nj.add_data(h, INPUT_PTX, bad, sizeof bad, "bad.ptx"), SUCCESS);
    cr_expect_eq(nj.complete(h), ERROR_PTX_COMPILE);
    char *log = error_log(h);
    cr_expect(strstr(log, "ptxas bad.ptx, line 6; error   : "), "%s", log);
    size_t n;
    cr_expect_eq(nj.cubin_size(h, &n), ERROR_INVALID_INPUT);
    free(log);
    nj.destroy(&h);
}

Test(nvjitlink, versioned_names_and_no_version) {
    /* nvJitLink.h's inline wrappers call __nvJitLinkCreate_13_0 and its kin */
    cr_expect_eq(sym("__nvJitLinkCreate_13_0"), (void *)nj.create);
    cr_expect_eq(sym("__nvJitLinkGetLinkedCubin_13_0"), (void *)nj.cubin);
    /* an nvJitLinkVersion would make Numba compile to LTO-IR (numba.cuda.decorators) */
    cr_expect_null(dlsym(lib, "nvJitLinkVersion"));
}
