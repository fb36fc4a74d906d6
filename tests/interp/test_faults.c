/* test_faults.c — bad accesses and runaway kernels stop the launch with a
 * report (kernel, PTX line, .cu line, block, thread, address, nearest
 * allocation) and an error, and the host process carries on. */
#include <criterion/criterion.h>
#include <string.h>

#include "ptxi.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"f.cu\"\n"

/* thread (5,0,0) of block (1,0,0) does `OP` with %rd2 = buf + OFF */
#define KERNEL(OP, OFF)                                                                        \
    HDR ".const .align 4 .u32 ro = 1;\n"                                                       \
        ".visible .entry k(.param .u64 buf)\n{\n.reg .pred %p1;\n.reg .b32 %r<4>;\n"           \
        ".reg .b64 %rd<4>;\nld.param.u64 %rd1, [buf];\nmov.u32 %r1, %tid.x;\n"                 \
        "mov.u32 %r2, %ctaid.x;\nmad.lo.s32 %r3, %r2, 100, %r1;\nsetp.ne.s32 %p1, %r3, 105;\n" \
        "@%p1 bra END;\nadd.s64 %rd2, %rd1, " OFF ";\n.loc 1 42 3\n" OP "\nEND:\nret;\n}\n"

/* freed: the buffer is freed before the launch (a dangling pointer) */
static ptxi_status run_on(const char *src, char *report, size_t cap, double timeout, bool freed) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 2, .timeout_s = timeout}), PTXI_SUCCESS);
    FILE *rep = tmpfile();
    ptxi_ctx_set_output(ctx, NULL, rep);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, src, strlen(src), "f.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    ptxi_kernel *k = ptxi_module_kernel_at(m, 0);
    ptxi_dptr buf;
    cr_assert_eq(ptxi_mem_alloc(ctx, 256, &buf), PTXI_SUCCESS);
    if (freed) cr_assert_eq(ptxi_mem_free(ctx, buf), PTXI_SUCCESS);
    void *args[] = {&buf};
    ptxi_status s = ptxi_launch(k, (ptxi_dim3){2, 1, 1}, (ptxi_dim3){64, 1, 1}, 0, NULL, args);
    snprintf(report, cap, "%s", ptxi_ctx_error_detail(ctx));
    cr_assert_eq(ptxi_ctx_synchronize(ctx), s, "the fault is sticky");
    ptxi_ctx_destroy(ctx);
    fclose(rep);
    return s;
}

static ptxi_status run(const char *src, char *report, size_t cap, double timeout) {
    return run_on(src, report, cap, timeout, false);
}

static void expect(const char *src, ptxi_status want, const char *what) {
    char rep[2048];
    ptxi_status s = run(src, rep, sizeof rep, 0);
    cr_assert_eq(s, want, "status %s, report: %s", ptxi_error_name(s), rep);
    cr_assert(strstr(rep, "kernel 'k'"), "%s", rep);
    cr_assert(strstr(rep, what), "expected '%s' in: %s", what, rep);
    cr_assert(strstr(rep, "f.ptx:"), "the PTX line: %s", rep);
    cr_assert(strstr(rep, "(f.cu:42)"), "the .cu line: %s", rep);
    cr_assert(strstr(rep, "block (1,0,0), thread (5,0,0)"), "%s", rep);
}

Test(faults, out_of_bounds_read) {
    expect(KERNEL("ld.global.u32 %r1, [%rd2];", "-1048576"), PTXI_ILLEGAL_ADDRESS,
           "out-of-bounds global read of 4 bytes");
}

Test(faults, out_of_bounds_write_names_the_allocation) {
    char rep[2048];
    cr_assert_eq(run(KERNEL("st.global.u32 [%rd2], %r1;", "260"), rep, sizeof rep, 0), PTXI_ILLEGAL_ADDRESS);
    cr_assert(strstr(rep, "out-of-bounds global write of 4 bytes"), "%s", rep);
    cr_assert(strstr(rep, "4 bytes after the end of the allocation of 256 bytes"), "%s", rep);
}

/* 0x8 is a null pointer plus an offset, not an address near some allocation */
Test(faults, address_near_null_is_in_no_allocation) {
    char rep[2048];
    cr_assert_eq(run(KERNEL("mov.u64 %rd3, 8;\nld.global.u32 %r1, [%rd3];", "0"), rep, sizeof rep, 0),
                 PTXI_ILLEGAL_ADDRESS);
    cr_assert(strstr(rep, "at address 0x8 (not in any allocation: 8 bytes past a null pointer)"), "%s", rep);
}

/* 64 GiB away from everything: no allocation, least of all the launch's parameters, is named */
Test(faults, wild_pointer_is_in_no_allocation) {
    char rep[2048];
    cr_assert_eq(run(KERNEL("ld.global.u32 %r1, [%rd2];", "68719476736"), rep, sizeof rep, 0), PTXI_ILLEGAL_ADDRESS);
    cr_assert(strstr(rep, "(not in any allocation)"), "%s", rep);
    cr_assert(!strstr(rep, "kernel parameters") && !strstr(rep, "after the end"), "%s", rep);
}

Test(faults, address_just_before_an_allocation_names_it) {
    char rep[2048];
    cr_assert_eq(run(KERNEL("ld.global.u32 %r1, [%rd2];", "-16"), rep, sizeof rep, 0), PTXI_ILLEGAL_ADDRESS);
    cr_assert(strstr(rep, "(16 bytes before the allocation of 256 bytes at 0x"), "%s", rep);
}

Test(faults, dangling_pointer_names_the_freed_allocation) {
    char rep[2048];
    cr_assert_eq(run_on(KERNEL("st.global.u32 [%rd2], %r1;", "8"), rep, sizeof rep, 0, true), PTXI_ILLEGAL_ADDRESS);
    cr_assert(strstr(rep, "(inside the allocation of 256 bytes at 0x"), "%s", rep);
    cr_assert(strstr(rep, ", which has been freed)"), "%s", rep);
}

Test(faults, misaligned) {
    expect(KERNEL("ld.global.u32 %r1, [%rd2];", "2"), PTXI_MISALIGNED_ADDRESS, "misaligned global read of 4 bytes");
}

Test(faults, null_pointer) {
    expect(KERNEL("mov.u64 %rd3, 0;\nld.u64 %rd3, [%rd3];", "0"), PTXI_ILLEGAL_ADDRESS, "null pointer");
}

Test(faults, write_to_const) {
    expect(KERNEL("mov.u64 %rd3, ro;\nst.global.u32 [%rd3], %r1;", "0"), PTXI_ILLEGAL_ADDRESS,
           "read-only .const memory");
}

Test(faults, runaway_kernel_stopped_by_the_watchdog) {
    const char *src = HDR ".visible .entry k(.param .u64 buf)\n{\n.loc 1 42 3\nLOOP:\nbra.uni LOOP;\n}\n";
    char rep[2048];
    cr_assert_eq(run(src, rep, sizeof rep, 0.3), PTXI_LAUNCH_TIMEOUT, "%s", rep);
    cr_assert(strstr(rep, "watchdog"), "%s", rep);
    cr_assert(strstr(rep, "(f.cu:42)"), "%s", rep);
}

Test(faults, barrier_that_some_threads_never_reach) {
    const char *src = HDR ".visible .entry k(.param .u64 buf)\n{\n.reg .pred %p1;\n.reg .b32 %r1;\n"
                          "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 40;\n@%p1 bra WAIT;\nLOOP:\n"
                          "bar.sync 1;\nbra.uni LOOP;\nWAIT:\n.loc 1 42 3\nbar.sync 0;\nret;\n}\n";
    char rep[2048];
    cr_assert_eq(run(src, rep, sizeof rep, 0), PTXI_BARRIER_DEADLOCK, "%s", rep);
    cr_assert(strstr(rep, "barrier"), "%s", rep);
    cr_assert(strstr(rep, "never arrives"), "%s", rep);
}

Test(faults, texture_fetch_through_a_bad_handle) {
    expect(KERNEL("tex.1d.v4.f32.s32 {%r1, %r2, %r3, %r1}, [%rd2, {%r1}];", "0"), PTXI_ILLEGAL_ADDRESS,
           "is not a texture object");
}

Test(faults, surface_write_through_a_bad_handle) {
    expect(KERNEL("sust.b.1d.b32.trap [%rd2, {%r1}], {%r1};", "8"), PTXI_ILLEGAL_ADDRESS, "is not a surface object");
}

Test(faults, mma_sync_without_the_whole_warp) {
    expect(KERNEL("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r1}, {%r1, %r2}, {%r3}, "
                  "{%r1, %r2, %r3, %r1};",
                  "0"),
           PTXI_ILLEGAL_INSTRUCTION, "mma.sync needs the whole warp");
}

Test(faults, mapa_to_a_rank_outside_the_cluster) {
    expect(KERNEL("mapa.u64 %rd3, %rd2, 1;", "0"), PTXI_ILLEGAL_INSTRUCTION, "mapa to rank 1 of a cluster of 1 CTAs");
}
