/* test_cluster.c — thread-block clusters declared in PTX (.reqnctapercluster):
 * cluster special registers, distributed shared memory through mapa and
 * ld.shared::cluster, two phases of barrier.cluster, and launch checks. The
 * expected values follow from the PTX ISA's definitions (the cluster sample in
 * ptx-samples/ is the GPU-recorded counterpart). */
#include <criterion/criterion.h>
#include <string.h>

#include "ptxi.h"

/* Each CTA of a 2x2 cluster stores rank*100 + tid in its shared array, then
 * (after a cluster barrier) reads element tid of rank (rank+1)%4's array, and
 * writes it with its cluster coordinates; a second barrier keeps the peers'
 * shared memory alive until every read is done. */
static const char *SRC =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n.reqnctapercluster 2, 2, 1\n{\n"
    ".reg .b32 %r<30>;\n.reg .b64 %rd<6>;\n.shared .align 4 .b32 sm[64];\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %cluster_ctarank;\nmov.u32 %r2, %tid.x;\n"
    "mad.lo.u32 %r3, %r1, 100, %r2;\nmov.u32 %r4, sm;\nshl.b32 %r5, %r2, 2;\nadd.u32 %r6, %r4, %r5;\n"
    "st.shared.u32 [%r6], %r3;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\n"
    "add.u32 %r7, %r1, 1;\nand.b32 %r7, %r7, 3;\nmapa.shared::cluster.u32 %r8, %r6, %r7;\n"
    "ld.shared::cluster.u32 %r9, [%r8];\nbarrier.cluster.arrive.aligned;\nbarrier.cluster.wait.aligned;\n"
    "mov.u32 %r10, %clusterid.x;\nmov.u32 %r11, %clusterid.y;\nmov.u32 %r12, %cluster_ctaid.x;\n"
    "mov.u32 %r13, %cluster_ctaid.y;\nmov.u32 %r14, %nclusterid.x;\nmov.u32 %r15, %cluster_nctarank;\n"
    "shl.b32 %r10, %r10, 12;\nshl.b32 %r11, %r11, 14;\nshl.b32 %r12, %r12, 16;\nshl.b32 %r13, %r13, 18;\n"
    "shl.b32 %r14, %r14, 20;\nshl.b32 %r15, %r15, 24;\nor.b32 %r9, %r9, %r10;\nor.b32 %r9, %r9, %r11;\n"
    "or.b32 %r9, %r9, %r12;\nor.b32 %r9, %r9, %r13;\nor.b32 %r9, %r9, %r14;\nor.b32 %r9, %r9, %r15;\n"
    "mov.u32 %r16, %ctaid.x;\nmov.u32 %r17, %ctaid.y;\nmov.u32 %r18, %nctaid.x;\nmad.lo.u32 %r19, %r17, %r18, %r16;\n"
    "mad.lo.u32 %r20, %r19, 64, %r2;\nmul.wide.u32 %rd2, %r20, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r9;\nret;\n}\n";

static ptxi_ctx *ctx;
static ptxi_kernel *k;
static void setup(void) {
    cr_assert_eq(ptxi_ctx_create(&ctx, NULL), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, SRC, strlen(SRC), "cluster.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    k = ptxi_module_kernel_at(m, 0);
}
static void teardown(void) { ptxi_ctx_destroy(ctx); }
TestSuite(cluster, .init = setup, .fini = teardown);

Test(cluster, shared_memory_of_the_next_rank) {
    enum { GX = 4, GY = 4, T = 64 };
    ptxi_dptr out;
    cr_assert_eq(ptxi_mem_alloc(ctx, GX * GY * T * 4, &out), PTXI_SUCCESS);
    void *args[] = {&out};
    cr_assert_eq(ptxi_launch(k, (ptxi_dim3){GX, GY, 1}, (ptxi_dim3){T, 1, 1}, 0, NULL, args), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    static uint32_t got[GX * GY * T];
    cr_assert_eq(ptxi_memcpy_dtoh(ctx, got, out, sizeof got), PTXI_SUCCESS);
    for (unsigned y = 0; y < GY; y++)
        for (unsigned x = 0; x < GX; x++)
            for (unsigned t = 0; t < T; t++) {
                unsigned rank = x % 2 + 2 * (y % 2), next = (rank + 1) % 4;
                uint32_t want = (next * 100 + t) | (x / 2) << 12 | (y / 2) << 14 | (x % 2) << 16 | (y % 2) << 18 |
                                (GX / 2) << 20 | 4u << 24;
                cr_assert_eq(got[(y * GX + x) * T + t], want, "block (%u,%u) thread %u: 0x%x, want 0x%x", x, y, t,
                             got[(y * GX + x) * T + t], want);
            }
}

Test(cluster, same_answers_on_one_host_thread_and_on_many) {
    ptxi_ctx *one;
    cr_assert_eq(ptxi_ctx_create(&one, &(ptxi_ctx_options){.threads = 1}), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(one, SRC, strlen(SRC), "cluster.ptx", &m), PTXI_SUCCESS);
    ptxi_dptr a, b;
    cr_assert_eq(ptxi_mem_alloc(one, 64 * 64 * 4, &a), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 64 * 64 * 4, &b), PTXI_SUCCESS);
    void *aa[] = {&a}, *ba[] = {&b};
    cr_assert_eq(ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){8, 8, 1}, (ptxi_dim3){64, 1, 1}, 0, NULL, aa),
                 PTXI_SUCCESS);
    cr_assert_eq(ptxi_launch(k, (ptxi_dim3){8, 8, 1}, (ptxi_dim3){64, 1, 1}, 0, NULL, ba), PTXI_SUCCESS);
    static uint32_t x[64 * 64], y[64 * 64];
    ptxi_memcpy_dtoh(one, x, a, sizeof x);
    ptxi_memcpy_dtoh(ctx, y, b, sizeof y);
    cr_assert(!memcmp(x, y, sizeof x));
    ptxi_ctx_destroy(one);
}

Test(cluster, a_grid_that_is_not_whole_clusters_is_refused) {
    ptxi_dptr out;
    cr_assert_eq(ptxi_mem_alloc(ctx, 4096, &out), PTXI_SUCCESS);
    void *args[] = {&out};
    cr_assert_eq(ptxi_launch(k, (ptxi_dim3){3, 2, 1}, (ptxi_dim3){64, 1, 1}, 0, NULL, args), PTXI_INVALID_VALUE);
    cr_assert(strstr(ptxi_ctx_error_detail(ctx), "whole number of 2 x 2 x 1 clusters"), "%s",
              ptxi_ctx_error_detail(ctx));
}

/* The same kernel without .reqnctapercluster, given its cluster shape at launch. */
Test(cluster, shape_given_at_launch) {
    char src[4096];
    snprintf(src, sizeof src, "%s", SRC);
    char *dir = strstr(src, ".reqnctapercluster 2, 2, 1\n");
    cr_assert(dir);
    memset(dir, ' ', strlen(".reqnctapercluster 2, 2, 1"));
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, src, strlen(src), "plain.ptx", &m), PTXI_SUCCESS);
    ptxi_kernel *plain = ptxi_module_kernel_at(m, 0);
    ptxi_dptr a, b;
    cr_assert_eq(ptxi_mem_alloc(ctx, 16 * 64 * 4, &a), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 16 * 64 * 4, &b), PTXI_SUCCESS);
    void *aa[] = {&a}, *ba[] = {&b};
    cr_assert_eq(ptxi_launch(k, (ptxi_dim3){4, 4, 1}, (ptxi_dim3){64, 1, 1}, 0, NULL, aa), PTXI_SUCCESS);
    cr_assert_eq(
        ptxi_launch_cluster(plain, (ptxi_dim3){4, 4, 1}, (ptxi_dim3){64, 1, 1}, (ptxi_dim3){2, 2, 1}, 0, NULL, ba, 0),
        PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    static uint32_t x[16 * 64], y[16 * 64];
    ptxi_memcpy_dtoh(ctx, x, a, sizeof x);
    ptxi_memcpy_dtoh(ctx, y, b, sizeof y);
    cr_assert(!memcmp(x, y, sizeof x), "launch-time shape differs from the declared one");
    /* a declared shape cannot be changed at launch, and a cluster holds at most 8 CTAs */
    cr_assert_eq(
        ptxi_launch_cluster(k, (ptxi_dim3){4, 4, 1}, (ptxi_dim3){64, 1, 1}, (ptxi_dim3){4, 1, 1}, 0, NULL, aa, 0),
        PTXI_INVALID_VALUE);
    cr_assert_eq(
        ptxi_launch_cluster(plain, (ptxi_dim3){4, 4, 1}, (ptxi_dim3){64, 1, 1}, (ptxi_dim3){4, 4, 1}, 0, NULL, ba, 0),
        PTXI_INVALID_VALUE);
}

/* Thread 0 of rank 1 waits at bar.sync while every other thread waits at the
 * cluster barrier: neither can complete, and the report says who is missing. */
Test(cluster, a_cluster_barrier_that_can_never_complete_is_reported) {
    static const char *dead = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry d(.param .u64 out)\n.reqnctapercluster 2, 1, 1\n{\n"
                              ".reg .b32 %r<4>;\n.reg .pred %p<4>;\n"
                              "mov.u32 %r1, %cluster_ctarank;\nmov.u32 %r2, %tid.x;\n"
                              "setp.eq.u32 %p1, %r1, 1;\nsetp.eq.u32 %p2, %r2, 0;\nand.pred %p3, %p1, %p2;\n"
                              "@%p3 bra SKIP;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nbra END;\n"
                              "SKIP:\nbar.sync 0;\nEND:\nret;\n}\n";
    ptxi_ctx *c;
    cr_assert_eq(ptxi_ctx_create(&c, &(ptxi_ctx_options){.timeout_s = 30}), PTXI_SUCCESS);
    ptxi_ctx_set_output(c, NULL, tmpfile());
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(c, dead, strlen(dead), "dead.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(c));
    ptxi_dptr out = 0;
    void *args[] = {&out};
    ptxi_status s = ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){2, 1, 1}, (ptxi_dim3){64, 1, 1}, 0, NULL,
                                args);
    cr_assert_eq(s, PTXI_BARRIER_DEADLOCK, "%s: %s", ptxi_error_name(s), ptxi_ctx_error_detail(c));
    const char *rep = ptxi_ctx_error_detail(c);
    cr_assert(strstr(rep, "barrier.cluster deadlock: 127 of 128 threads of the cluster arrived"), "%s", rep);
    cr_assert(strstr(rep, "thread (0,0,0) of block (1,0,0) never arrives"), "%s", rep);
    cr_assert(strstr(rep, "dead.ptx:"), "%s", rep);
    ptxi_ctx_destroy(c);
}

/* isspacep.shared::cta is true only for this CTA's shared memory,
 * isspacep.shared::cluster for every CTA's of the cluster. */
Test(cluster, address_space_predicates_on_a_peers_shared_memory) {
    static const char *src =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry s(.param .u64 out)\n.reqnctapercluster 2, 1, 1\n{\n"
        ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n.shared .align 4 .b32 sm[4];\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %cluster_ctarank;\nxor.b32 %r2, %r1, 1;\n"
        "mov.u64 %rd2, sm;\ncvta.shared.u64 %rd3, %rd2;\nmapa.u64 %rd4, %rd3, %r2;\n"
        "isspacep.shared::cta %p1, %rd4;\nisspacep.shared::cluster %p2, %rd4;\nisspacep.shared::cluster %p3, %rd3;\n"
        "selp.u32 %r3, 1, 0, %p1;\nselp.u32 %r4, 2, 0, %p2;\nselp.u32 %r5, 4, 0, %p3;\n"
        "or.b32 %r3, %r3, %r4;\nor.b32 %r3, %r3, %r5;\nmov.u32 %r6, %ctaid.x;\nmul.wide.u32 %rd5, %r6, 4;\n"
        "add.s64 %rd6, %rd1, %rd5;\nst.global.u32 [%rd6], "
        "%r3;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;\n}\n";
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_data(ctx, src, strlen(src), "s.ptx", &m), PTXI_SUCCESS, "%s",
                 ptxi_ctx_error_detail(ctx));
    ptxi_dptr out;
    cr_assert_eq(ptxi_mem_alloc(ctx, 8, &out), PTXI_SUCCESS);
    void *args[] = {&out};
    cr_assert_eq(ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){2, 1, 1}, (ptxi_dim3){32, 1, 1}, 0, NULL, args),
                 PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    uint32_t got[2];
    ptxi_memcpy_dtoh(ctx, got, out, sizeof got);
    cr_assert_eq(got[0], 6u, "%u", got[0]); /* not ::cta, ::cluster, own is ::cluster */
    cr_assert_eq(got[1], 6u, "%u", got[1]);
}
