/* test_contract.c — mul/add contraction (interp/contract.c) against an H100:
 * gpu/jobs/contract/probes.ptx run through the driver API on 16 input sets
 * per kernel (recorded/contract.txt: kernel, 16 input words, 8 output words).
 * probes.sass shows what ptxas 13.0 made of each pattern. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxi.h"

#define JOB PTXI_SOURCE_DIR "/gpu/jobs/contract/"

/* Runs every recorded line but those of the kernels in `skip` (*runs: how
 * many); returns the number of output words that differ from the GPU's. */
static unsigned run_recorded(const char *probes, const char *recorded, int no_contract, const char *const *skip,
                             unsigned *runs) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 1, .no_contract = no_contract}), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_file(ctx, probes, &m), PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    ptxi_dptr din, dout;
    cr_assert_eq(ptxi_mem_alloc(ctx, 64, &din), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 32, &dout), PTXI_SUCCESS);
    FILE *f = fopen(recorded, "r");
    cr_assert(f);
    char name[16];
    unsigned bad = 0;
    *runs = 0;
    while (fscanf(f, "%15s", name) == 1) {
        uint32_t in[16], want[8], got[8];
        for (int w = 0; w < 16; w++) cr_assert_eq(fscanf(f, "%x", &in[w]), 1);
        for (int w = 0; w < 8; w++) cr_assert_eq(fscanf(f, "%x", &want[w]), 1);
        bool skipped = false;
        for (const char *const *s = skip; *s; s++) skipped |= !strcmp(*s, name);
        if (skipped) continue;
        ptxi_kernel *k;
        cr_assert_eq(ptxi_module_get_kernel(m, name, &k), PTXI_SUCCESS);
        ptxi_memcpy_htod(ctx, din, in, sizeof in);
        ptxi_memset_d8(ctx, dout, 0, 32);
        void *args[] = {&din, &dout};
        cr_assert_eq(ptxi_launch(k, (ptxi_dim3){1, 1, 1}, (ptxi_dim3){1, 1, 1}, 0, NULL, args), PTXI_SUCCESS);
        cr_assert_eq(ptxi_ctx_synchronize(ctx), PTXI_SUCCESS);
        ptxi_memcpy_dtoh(ctx, got, dout, sizeof got);
        for (int w = 0; w < 8; w++)
            if (got[w] != want[w] && bad++ < 8 && !no_contract)
                cr_log_error("%s in[0]=%08x word %d: ptxi %08x, gpu %08x", name, in[0], w, got[w], want[w]);
        ++*runs;
    }
    fclose(f);
    ptxi_ctx_destroy(ctx);
    return bad;
}

/* Not contracted as ptxas does: a mul operand redefined before the add (m5:
 * ptxas reads the old value). */
static const char *const unsupported[] = {"m5", NULL};
static const char *const none[] = {NULL};

#define P1 JOB "probes.ptx", JOB "recorded/contract.txt"
#define P2 JOB "probes2.ptx", JOB "recorded/contract2.txt"

Test(contract, matches_gpu_bits) {
    unsigned runs, bad = run_recorded(P1, 0, unsupported, &runs);
    cr_assert_eq(runs, 21 * 16);
    cr_assert_eq(bad, 0, "%u output words differ from the GPU's", bad);
}

/* div.full/div.approx.f32 end in a multiply by the reciprocal that ptxas fuses
 * with an add/sub like a mul (d1-d10; by an immediate it multiplies by the
 * rounded 1/b, d7); a neg of a product passes it on negated (n1-n7). */
Test(contract, quotients_and_negs_match_gpu_bits) {
    unsigned runs, bad = run_recorded(P2, 0, none, &runs);
    cr_assert_eq(runs, 17 * 16);
    cr_assert_eq(bad, 0, "%u output words differ from the GPU's", bad);
}

/* Switched off, the mul is rounded on its own: many results then differ from
 * the GPU's (set 0 of every fused kernel is chosen so that they must). */
Test(contract, off_rounds_the_product) {
    unsigned runs, bad = run_recorded(P1, 1, unsupported, &runs);
    cr_assert_eq(runs, 21 * 16);
    cr_assert_gt(bad, 50);
}

/* set 0 of k1: (1+2^-12)^2 - (1+2^-12) is 2^-12 + 2^-24 fused; the mul alone rounds
 * to 1+2^-11 (a tie, to even), leaving exactly 2^-12 (PTX ISA: mul.rn then add.rn). */
Test(contract, off_is_mul_then_add) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, &(ptxi_ctx_options){.threads = 1, .no_contract = 1}), PTXI_SUCCESS);
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_file(ctx, JOB "probes.ptx", &m), PTXI_SUCCESS);
    ptxi_kernel *k;
    cr_assert_eq(ptxi_module_get_kernel(m, "k1", &k), PTXI_SUCCESS);
    uint32_t in[16] = {0x3F800800u, 0x3F800800u, 0xBF800800u}, out = 0;
    ptxi_dptr din, dout;
    cr_assert_eq(ptxi_mem_alloc(ctx, 64, &din), PTXI_SUCCESS);
    cr_assert_eq(ptxi_mem_alloc(ctx, 32, &dout), PTXI_SUCCESS);
    ptxi_memcpy_htod(ctx, din, in, sizeof in);
    void *args[] = {&din, &dout};
    cr_assert_eq(ptxi_launch(k, (ptxi_dim3){1, 1, 1}, (ptxi_dim3){1, 1, 1}, 0, NULL, args), PTXI_SUCCESS);
    cr_assert_eq(ptxi_ctx_synchronize(ctx), PTXI_SUCCESS);
    ptxi_memcpy_dtoh(ctx, &out, dout, 4);
    cr_assert_eq(out, 0x39800000u, "got %08x", out);
    ptxi_ctx_destroy(ctx);
}
