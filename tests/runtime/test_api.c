/* test_api.c — the host API of include/ptxi.h on small hand-written kernels:
 * launch validation, sticky errors and reset, printf flush points, the device
 * heap, symbols, cross-module externs and host-bound functions. Expected
 * values follow from the PTX and from CUDA's documented behaviour. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ptxi.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

static ptxi_ctx *ctx;
static void setup(void) { cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 2}), PTXI_SUCCESS); }
static void teardown(void) { ptxi_ctx_destroy(ctx); }

static ptxi_module *load(const char *src) {
    ptxi_module *m = NULL;
    ptxi_status s = ptxi_module_load_data(ctx, src, strlen(src), "test.ptx", &m);
    cr_assert_eq(s, PTXI_SUCCESS, "load failed: %s", ptxi_ctx_error_detail(ctx));
    return m;
}

static ptxi_kernel *kernel(ptxi_module *m, const char *name) {
    ptxi_kernel *k = NULL;
    cr_assert_eq(ptxi_module_get_kernel(m, name, &k), PTXI_SUCCESS);
    return k;
}

static const ptxi_dim3 one = {1, 1, 1};

/* out[tid] = tid * 3 */
static const char store_ptx[] = HDR ".visible .entry store(.param .u64 out) .maxntid 256, 1, 1\n{\n"
                                    ".reg .b32 %r<3>;\n.reg .b64 %rd<4>;\n"
                                    "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n"
                                    "mul.lo.s32 %r2, %r1, 3;\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd2, %rd2, %rd3;\n"
                                    "st.global.u32 [%rd2], %r2;\nret;\n}\n";

TestSuite(api, .init = setup, .fini = teardown);

Test(api, launch_runs_and_copies_back) {
    ptxi_kernel *k = kernel(load(store_ptx), "store");
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, 1024, &d), PTXI_SUCCESS);
    void *args[] = {&d};
    cr_assert_eq(ptxi_launch(k, one, (ptxi_dim3){200, 1, 1}, 0, NULL, args), PTXI_SUCCESS);
    uint32_t h[200];
    cr_assert_eq(ptxi_memcpy_dtoh(ctx, h, d, sizeof h), PTXI_SUCCESS);
    for (unsigned i = 0; i < 200; i++) cr_assert_eq(h[i], i * 3);
}

Test(api, launch_configuration_errors) {
    ptxi_kernel *k = kernel(load(store_ptx), "store");
    ptxi_dptr d;
    ptxi_mem_alloc(ctx, 4096, &d);
    void *args[] = {&d};
    /* every configuration error is INVALID_VALUE, as cuLaunchKernel reports it */
    cr_assert_eq(ptxi_launch(k, one, (ptxi_dim3){1025, 1, 1}, 0, NULL, args), PTXI_INVALID_VALUE);
    cr_assert_eq(ptxi_launch(k, one, (ptxi_dim3){1, 1, 65}, 0, NULL, args), PTXI_INVALID_VALUE);
    cr_assert_eq(ptxi_launch(k, one, (ptxi_dim3){257, 1, 1}, 0, NULL, args), PTXI_INVALID_VALUE); /* .maxntid */
    cr_assert_eq(ptxi_launch(k, (ptxi_dim3){1, 65536, 1}, one, 0, NULL, args), PTXI_INVALID_VALUE);
    cr_assert_eq(ptxi_launch(k, (ptxi_dim3){0, 1, 1}, one, 0, NULL, args), PTXI_INVALID_VALUE);
    cr_assert_eq(ptxi_launch(k, (ptxi_dim3){0x80000000u, 1, 1}, one, 0, NULL, args), PTXI_INVALID_VALUE);
    cr_assert_eq(ptxi_launch(k, one, one, 64 * 1024, NULL, args), PTXI_INVALID_VALUE);
    cr_assert_eq(ptxi_kernel_set_attr(k, PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES, 64 * 1024), PTXI_SUCCESS);
    cr_assert_eq(ptxi_launch(k, one, one, 64 * 1024, NULL, args), PTXI_SUCCESS);
    cr_assert_eq(ptxi_kernel_set_attr(k, PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES, 300 * 1024), PTXI_INVALID_VALUE);
    uint8_t small[4] = {0};
    cr_assert_eq(ptxi_launch_packed(k, one, one, 0, NULL, small, sizeof small), PTXI_INVALID_PARAMETERS);
    /* none of these is sticky */
    cr_assert_eq(ptxi_launch(k, one, one, 0, NULL, args), PTXI_SUCCESS);
}

static const char trap_ptx[] = HDR ".visible .entry boom()\n{\ntrap;\nret;\n}\n";

Test(api, trap_is_sticky_until_reset) {
    ptxi_kernel *k = kernel(load(trap_ptx), "boom");
    FILE *rep = tmpfile();
    ptxi_ctx_set_output(ctx, NULL, rep);
    cr_assert_eq(ptxi_launch(k, one, one, 0, NULL, NULL), PTXI_LAUNCH_FAILED);
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, 16, &d), PTXI_LAUNCH_FAILED);
    cr_assert_eq(ptxi_ctx_synchronize(ctx), PTXI_LAUNCH_FAILED);
    cr_assert_eq(ptxi_ctx_get_last_error(ctx), PTXI_LAUNCH_FAILED);
    cr_assert_eq(ptxi_ctx_get_last_error(ctx), PTXI_LAUNCH_FAILED, "sticky errors are not cleared by reading");
    cr_assert(strstr(ptxi_ctx_error_detail(ctx), "kernel 'boom'"));
    cr_assert_eq(ptxi_ctx_reset(ctx), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 16, &d), PTXI_SUCCESS);
    fclose(rep);
}

/* __assertfail("x > 0", "a.cu", 7, "kern", 1) from thread (2,0,0) of block (1,0,0) only */
static const char assert_ptx[] = HDR
    ".global .align 1 .b8 msg[6] = {120, 32, 62, 32, 48, 0};\n"
    ".global .align 1 .b8 file[5] = {97, 46, 99, 117, 0};\n"
    ".global .align 1 .b8 fn[5] = {107, 101, 114, 110, 0};\n"
    ".extern .func __assertfail(.param .b64 p0, .param .b64 p1, .param .b32 p2, .param .b64 p3, .param .b64 p4);\n"
    ".visible .entry kern()\n{\n.reg .pred %p1;\n.reg .b32 %r<3>;\n.reg .b64 %rd<4>;\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmad.lo.s32 %r1, %r2, 10, %r1;\nsetp.ne.s32 %p1, %r1, 12;\n@%p1 bra "
    "DONE;\n"
    "mov.u64 %rd1, msg;\ncvta.global.u64 %rd1, %rd1;\nmov.u64 %rd2, file;\ncvta.global.u64 %rd2, %rd2;\n"
    "mov.u64 %rd3, fn;\ncvta.global.u64 %rd3, %rd3;\n"
    "{\n.param .b64 a0;\n.param .b64 a1;\n.param .b32 a2;\n.param .b64 a3;\n.param .b64 a4;\n"
    "st.param.b64 [a0], %rd1;\nst.param.b64 [a1], %rd2;\nst.param.b32 [a2], 7;\nst.param.b64 [a3], %rd3;\n"
    "st.param.b64 [a4], 1;\ncall.uni __assertfail, (a0, a1, a2, a3, a4);\n}\n"
    "DONE:\nret;\n}\n";

Test(api, assert_message_at_flush_and_sticky) {
    ptxi_kernel *k = kernel(load(assert_ptx), "kern");
    FILE *rep = tmpfile();
    ptxi_ctx_set_output(ctx, NULL, rep);
    cr_assert_eq(ptxi_launch(k, (ptxi_dim3){2, 1, 1}, (ptxi_dim3){4, 1, 1}, 0, NULL, NULL), PTXI_ASSERT);
    cr_assert_eq(ftell(rep), 0, "the assertion is printed at the next flush point, not before");
    cr_assert_eq(ptxi_ctx_synchronize(ctx), PTXI_ASSERT);
    char buf[512] = {0};
    rewind(rep);
    size_t n = fread(buf, 1, sizeof buf - 1, rep);
    cr_assert(n > 0);
    cr_assert(strstr(buf, "a.cu:7: kern: block: [1,0,0], thread: [2,0,0] Assertion `x > 0` failed."), "got: %s", buf);
    cr_assert_eq(ptxi_ctx_get_last_error(ctx), PTXI_ASSERT);
    cr_assert_eq(ptxi_ctx_reset(ctx), PTXI_SUCCESS);
    cr_assert_eq(ptxi_ctx_get_last_error(ctx), PTXI_SUCCESS);
    fclose(rep);
}

/* printf("v=%d\n", tid) for 2 threads */
static const char printf_ptx[] = HDR
    ".global .align 1 .b8 fmt[6] = {118, 61, 37, 100, 10, 0};\n"
    ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
    ".visible .entry pr()\n{\n.local .align 8 .b8 depot[8];\n.reg .b32 %r<3>;\n.reg .b64 %rd<5>;\n"
    "mov.u64 %rd1, depot;\ncvta.local.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\nst.local.u32 [%rd1], %r1;\n"
    "mov.u64 %rd3, fmt;\ncvta.global.u64 %rd4, %rd3;\n"
    "{\n.param .b64 p0;\n.param .b64 p1;\n.param .b32 rv;\nst.param.b64 [p0], %rd4;\nst.param.b64 [p1], %rd2;\n"
    "call.uni (rv), vprintf, (p0, p1);\nld.param.b32 %r2, [rv];\n}\nret;\n}\n";

static size_t file_len(FILE *f) {
    fflush(f);
    long at = ftell(f);
    return at < 0 ? 0 : (size_t)at;
}

Test(api, printf_appears_at_flush_points) {
    ptxi_module *m = load(printf_ptx);
    ptxi_kernel *k = kernel(m, "pr");
    FILE *out = tmpfile();
    ptxi_ctx_set_output(ctx, out, NULL);
    cr_assert_eq(ptxi_launch(k, one, (ptxi_dim3){2, 1, 1}, 0, NULL, NULL), PTXI_SUCCESS);
    cr_assert_eq(file_len(out), 0, "nothing is printed before a flush point");
    cr_assert_eq(ptxi_ctx_synchronize(ctx), PTXI_SUCCESS);
    cr_assert_eq(file_len(out), 8, "\"v=0\\nv=1\\n\" after synchronize");
    /* a blocking copy is a flush point */
    ptxi_dptr d;
    ptxi_mem_alloc(ctx, 4, &d);
    cr_assert_eq(ptxi_launch(k, one, one, 0, NULL, NULL), PTXI_SUCCESS);
    cr_assert_eq(file_len(out), 8);
    uint32_t h;
    ptxi_memcpy_dtoh(ctx, &h, d, 4);
    cr_assert_eq(file_len(out), 12);
    /* so is the next launch and a module load */
    ptxi_launch(k, one, one, 0, NULL, NULL);
    cr_assert_eq(file_len(out), 12);
    ptxi_launch(k, one, one, 0, NULL, NULL);
    cr_assert_eq(file_len(out), 16);
    load(store_ptx);
    cr_assert_eq(file_len(out), 20);
    char buf[64] = {0};
    rewind(out);
    cr_assert_eq(fread(buf, 1, 20, out), 20);
    cr_assert_str_eq(buf, "v=0\nv=1\nv=0\nv=0\nv=0\n");
    fclose(out);
}

/* each thread mallocs `n` bytes, stores the pointer (or 0) */
/* On an H100 the printf FIFO can be resized after launches of kernels that do
 * not call printf (tests/cudart/programs/nan_limits.cu) but not after one that
 * does (gpu/jobs/rt_defaults/recorded/limits.txt: cudaErrorInvalidValue, the size kept). */
Test(api, printf_fifo_fixed_by_a_printf_launch) {
    ptxi_kernel *pr = kernel(load(printf_ptx), "pr"), *st = kernel(load(store_ptx), "store");
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, 64, &d), PTXI_SUCCESS);
    void *args[] = {&d};
    cr_assert_eq(ptxi_ctx_set_limit(ctx, PTXI_LIMIT_PRINTF_FIFO_SIZE, 2 << 20), PTXI_SUCCESS);
    cr_assert_eq(ptxi_launch(st, one, one, 0, NULL, args), PTXI_SUCCESS);
    cr_assert_eq(ptxi_ctx_set_limit(ctx, PTXI_LIMIT_PRINTF_FIFO_SIZE, 4 << 20), PTXI_SUCCESS);
    FILE *out = tmpfile();
    ptxi_ctx_set_output(ctx, out, NULL);
    cr_assert_eq(ptxi_launch(pr, one, one, 0, NULL, NULL), PTXI_SUCCESS);
    cr_assert_eq(ptxi_ctx_set_limit(ctx, PTXI_LIMIT_PRINTF_FIFO_SIZE, 1 << 20), PTXI_INVALID_VALUE);
    size_t v = 0;
    cr_assert_eq(ptxi_ctx_get_limit(ctx, PTXI_LIMIT_PRINTF_FIFO_SIZE, &v), PTXI_SUCCESS);
    cr_assert_eq(v, (size_t)4 << 20);
    cr_assert_eq(ptxi_ctx_set_limit(ctx, PTXI_LIMIT_STACK_SIZE, 4096), PTXI_SUCCESS, "the stack size stays free");
    cr_assert_eq(ptxi_ctx_synchronize(ctx), PTXI_SUCCESS); /* prints into out before it closes */
    fclose(out);
}

static const char malloc_ptx[] = HDR
    ".extern .func (.param .b64 r) malloc(.param .b64 n);\n"
    ".extern .func free(.param .b64 p);\n"
    ".visible .entry al(.param .u64 out, .param .u64 n)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<7>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [n];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 8;\n"
    "add.s64 %rd4, %rd1, %rd3;\n"
    "{\n.param .b64 p0;\n.param .b64 rv;\nst.param.b64 [p0], %rd2;\ncall.uni (rv), malloc, (p0);\n"
    "ld.param.b64 %rd5, [rv];\n}\nst.global.u64 [%rd4], %rd5;\nret;\n}\n"
    ".visible .entry fr(.param .u64 in)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [in];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 8;\nadd.s64 %rd4, %rd1, %rd3;\n"
    "ld.global.u64 %rd5, [%rd4];\n{\n.param .b64 p0;\nst.param.b64 [p0], %rd5;\ncall.uni free, (p0);\n}\nret;\n}\n";

Test(api, device_heap_exhaustion_reuse_and_limit) {
    cr_assert_eq(ptxi_ctx_set_limit(ctx, PTXI_LIMIT_MALLOC_HEAP_SIZE, 1 << 20), PTXI_SUCCESS);
    ptxi_module *m = load(malloc_ptx);
    ptxi_kernel *al = kernel(m, "al"), *fr = kernel(m, "fr");
    ptxi_dptr d;
    ptxi_mem_alloc(ctx, 8 * 32, &d);
    uint64_t n = 64 * 1024, p[32];
    void *args[] = {&d, &n};
    cr_assert_eq(ptxi_launch(al, one, (ptxi_dim3){32, 1, 1}, 0, NULL, args), PTXI_SUCCESS);
    ptxi_memcpy_dtoh(ctx, p, d, sizeof p);
    unsigned got = 0;
    for (int i = 0; i < 32; i++) {
        if (p[i]) got++;
        cr_assert_eq(p[i] % 16, 0, "16-byte aligned");
    }
    /* the heap's bookkeeping lives outside the region: exactly 16 blocks of 64 KiB fit in 1 MiB */
    cr_assert_eq(got, 16, "got %u", got);
    /* the heap size is fixed once a launch has used it */
    cr_assert_eq(ptxi_ctx_set_limit(ctx, PTXI_LIMIT_MALLOC_HEAP_SIZE, 2 << 20), PTXI_INVALID_VALUE);
    /* allocations persist across launches and are freed by another kernel */
    void *fargs[] = {&d};
    cr_assert_eq(ptxi_launch(fr, one, (ptxi_dim3){32, 1, 1}, 0, NULL, fargs), PTXI_SUCCESS);
    cr_assert_eq(ptxi_launch(al, one, (ptxi_dim3){32, 1, 1}, 0, NULL, args), PTXI_SUCCESS);
    uint64_t q[32];
    ptxi_memcpy_dtoh(ctx, q, d, sizeof q);
    unsigned again = 0;
    for (int i = 0; i < 32; i++) again += q[i] != 0;
    cr_assert_eq(again, got, "freed memory is reused");
}

static const char sym_ptx[] = HDR
    ".visible .global .align 4 .u32 table[4] = {10, 20, 30, 40};\n"
    ".visible .const .align 4 .u32 scale = 7;\n"
    ".visible .entry use(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [out];\nld.global.u32 %r1, [table+8];\nld.const.u32 %r2, [scale];\n"
    "mul.lo.s32 %r3, %r1, %r2;\nst.global.u32 [%rd1], %r3;\nret;\n}\n";

Test(api, symbols_initializers_and_copies) {
    ptxi_module *m = load(sym_ptx);
    uint32_t t[4];
    cr_assert_eq(ptxi_memcpy_from_symbol(m, "table", 0, t, sizeof t), PTXI_SUCCESS);
    cr_assert_eq(t[3], 40);
    uint32_t v = 100;
    cr_assert_eq(ptxi_memcpy_to_symbol(m, "table", 8, &v, 4), PTXI_SUCCESS);
    cr_assert_eq(ptxi_memcpy_to_symbol(m, "table", 14, &v, 4), PTXI_INVALID_VALUE, "past the end");
    cr_assert_eq(ptxi_memcpy_to_symbol(m, "nosuch", 0, &v, 4), PTXI_NOT_FOUND);
    ptxi_dptr a;
    size_t sz;
    cr_assert_eq(ptxi_module_get_global(m, "scale", &a, &sz), PTXI_SUCCESS);
    cr_assert_eq(sz, 4);
    ptxi_dptr d;
    ptxi_mem_alloc(ctx, 4, &d);
    void *args[] = {&d};
    cr_assert_eq(ptxi_launch(kernel(m, "use"), one, one, 0, NULL, args), PTXI_SUCCESS);
    ptxi_memcpy_dtoh(ctx, &v, d, 4);
    cr_assert_eq(v, 700);
}

static const char lib_ptx[] = HDR ".visible .global .align 4 .u32 shared_count = 5;\n"
                                  ".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
                                  "ld.param.b32 %r1, [x];\nadd.s32 %r2, %r1, %r1;\nst.param.b32 [r], %r2;\nret;\n}\n";
static const char user_ptx[] = HDR
    ".extern .global .align 4 .u32 shared_count;\n"
    ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
    ".visible .entry call_it(.param .u64 out)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [out];\nld.global.u32 %r1, [shared_count];\n"
    "{\n.param .b32 a;\n.param .b32 rv;\nst.param.b32 [a], %r1;\ncall.uni (rv), twice, (a);\n"
    "ld.param.b32 %r2, [rv];\n}\nst.global.u32 [%rd1], %r2;\nret;\n}\n";

Test(api, externs_resolve_across_modules) {
    ptxi_module *u = NULL;
    cr_assert_eq(ptxi_module_load_data(ctx, user_ptx, strlen(user_ptx), "user.ptx", &u), PTXI_UNRESOLVED_EXTERN);
    cr_assert(strstr(ptxi_ctx_error_detail(ctx), "shared_count") || strstr(ptxi_ctx_error_detail(ctx), "twice"));
    load(lib_ptx);
    ptxi_kernel *k = kernel(load(user_ptx), "call_it");
    ptxi_dptr d;
    ptxi_mem_alloc(ctx, 4, &d);
    void *args[] = {&d};
    cr_assert_eq(ptxi_launch(k, one, one, 0, NULL, args), PTXI_SUCCESS);
    uint32_t v;
    ptxi_memcpy_dtoh(ctx, &v, d, 4);
    cr_assert_eq(v, 10);
}

static uint32_t host_mix(uint32_t a, float b) { return a * 1000 + (uint32_t)(b * 2.0f); }
static const char host_ptx[] = HDR
    ".extern .func (.param .b32 r) host_mix(.param .b32 a, .param .f32 b);\n"
    ".visible .entry hm(.param .u64 out)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "{\n.param .b32 a;\n.param .f32 b;\n.param .b32 rv;\nst.param.b32 [a], %r1;\nst.param.f32 [b], 0f40200000;\n"
    "call.uni (rv), host_mix, (a, b);\nld.param.b32 %r2, [rv];\n}\nst.global.u32 [%rd3], %r2;\nret;\n}\n";

Test(api, extern_functions_bound_to_host_code) {
    ptxi_module *m = NULL;
    cr_assert_eq(ptxi_module_load_data(ctx, host_ptx, strlen(host_ptx), "h.ptx", &m), PTXI_UNRESOLVED_EXTERN);
    cr_assert(strstr(ptxi_ctx_error_detail(ctx), "host_mix"), "the message names the function");
    cr_assert_eq(ptxi_ctx_bind_extern(ctx, "host_mix", (void (*)(void))host_mix), PTXI_SUCCESS);
    ptxi_kernel *k = kernel(load(host_ptx), "hm");
    ptxi_dptr d;
    ptxi_mem_alloc(ctx, 16, &d);
    void *args[] = {&d};
    cr_assert_eq(ptxi_launch(k, one, (ptxi_dim3){4, 1, 1}, 0, NULL, args), PTXI_SUCCESS);
    uint32_t v[4];
    ptxi_memcpy_dtoh(ctx, v, d, sizeof v);
    for (uint32_t i = 0; i < 4; i++) cr_assert_eq(v[i], i * 1000 + 5);
}

Test(api, limits_and_properties) {
    size_t v;
    cr_assert_eq(ptxi_ctx_get_limit(ctx, PTXI_LIMIT_STACK_SIZE, &v), PTXI_SUCCESS);
    cr_assert_eq(v, 1024);
    cr_assert_eq(ptxi_ctx_get_limit(ctx, PTXI_LIMIT_MALLOC_HEAP_SIZE, &v), PTXI_SUCCESS);
    cr_assert_eq(v, 8u << 20);
    cr_assert_eq(ptxi_ctx_set_limit(ctx, PTXI_LIMIT_PRINTF_FIFO_SIZE, 1 << 20), PTXI_SUCCESS);
    ptxi_device_props p;
    cr_assert_eq(ptxi_device_get_props(&p), PTXI_SUCCESS);
    cr_assert_eq(p.major, 9);
    cr_assert(strstr(p.name, "ptxi"));
    cr_assert_eq(p.max_threads_per_block, 1024);
}

Test(api, registered_host_memory_is_reachable_from_kernels) {
    ptxi_kernel *k = kernel(load(store_ptx), "store");
    static uint32_t host[64];
    uint64_t p = (uint64_t)(uintptr_t)host;
    void *args[] = {&p};
    FILE *rep = tmpfile();
    ptxi_ctx_set_output(ctx, NULL, rep);
    cr_assert_eq(ptxi_mem_register_host(ctx, host, sizeof host), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_register_host(ctx, host + 8, 16), PTXI_INVALID_VALUE, "overlaps");
    cr_assert_eq(ptxi_launch(k, one, (ptxi_dim3){64, 1, 1}, 0, NULL, args), PTXI_SUCCESS);
    for (unsigned i = 0; i < 64; i++) cr_assert_eq(host[i], i * 3);
    cr_assert_eq(ptxi_mem_unregister_host(ctx, host), PTXI_SUCCESS);
    /* unregistered, the same access is a wild pointer again */
    cr_assert_eq(ptxi_launch(k, one, (ptxi_dim3){64, 1, 1}, 0, NULL, args), PTXI_ILLEGAL_ADDRESS);
    fclose(rep);
}
