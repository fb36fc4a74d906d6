/* test_mma_forms.c — tensor-core instructions ptxi does not execute are
 * refused with a located message when reached (never computed wrongly):
 * a sparsity selector out of range for its shape, a register count that does
 * not match the shape, b1 without .popc, f64 wmma with a rounding mode other
 * than .rn, a mixed-family A/B pair. The forms ptxi executes are checked
 * against GPU recordings by the samples (ptx-samples/wmma_types, mma_subbyte,
 * mma_sparse). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>

#include "ptxi.h"

typedef struct {
    char insn[256];
} form;

static const char *HEAD = ".version 8.5\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k()\n{\n.reg .b32 %r<40>;\n.reg .f32 %f<40>;\n.reg .f64 %fd<40>;\n";

ParameterizedTestParameters(mma_forms, refused) {
    static form forms[] = {
        {"mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, "
         "{%r0,%r1,%r2,%r3}, {%r4,%r5,%r6,%r7}, {%f4,%f5,%f6,%f7}, %r8, 2;"},
        {"mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, "
         "{%r0,%r1,%r2}, {%r4,%r5}, {%f4,%f5,%f6,%f7}, %r8, 0;"},
        {"mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor {%r0,%r1}, {%r2}, {%r3}, {%r4,%r5};"},
        {"mma.sync.aligned.m16n8k32.row.col.s32.s8.s4.s32 {%r0,%r1,%r2,%r3}, {%r4,%r5,%r6,%r7}, {%r8,%r9}, "
         "{%r10,%r11,%r12,%r13};"},
        {"wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rz {%fd0,%fd1}, {%fd2}, {%fd3}, {%fd4,%fd5};"},
        {"wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, "
         "{%r0,%r1,%r2}, {%r4,%r5,%r6,%r7}, {%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15};"},
    };
    return cr_make_param_array(form, forms, sizeof forms / sizeof *forms);
}

ParameterizedTest(form *f, mma_forms, refused) {
    char src[2048];
    snprintf(src, sizeof src, "%s%s\nret;\n}\n", HEAD, f->insn);
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, NULL), PTXI_SUCCESS);
    ptxi_module *m;
    ptxi_status r = ptxi_module_load_data(ctx, src, strlen(src), "forms.ptx", &m);
    if (r == PTXI_SUCCESS)
        r = ptxi_launch(ptxi_module_kernel_at(m, 0), (ptxi_dim3){1, 1, 1}, (ptxi_dim3){32, 1, 1}, 0, NULL, NULL);
    cr_assert_neq(r, PTXI_SUCCESS, "%s ran", f->insn);
    const char *why = ptxi_ctx_error_detail(ctx);
    cr_assert(strstr(why, "not supported") && strstr(why, "forms.ptx:"), "%s: %s", f->insn, why);
    ptxi_ctx_destroy(ctx);
}
