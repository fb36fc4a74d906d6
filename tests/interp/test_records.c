/* test_records.c — every record lowering makes keeps its handler's operand
 * contract (vm_ops.h, interp/check.c): each PTX file of ptx-samples and of
 * the benchmark's kernels is loaded and every function's records checked,
 * and a record broken on purpose is caught. Debug builds also check at every
 * load; this runs the check in the default build too. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"

static unsigned check_module(ptxi_ctx *ctx, const char *path) {
    ptxi_module *m = NULL;
    if (ptxi_module_load_file(ctx, path, &m) != PTXI_SUCCESS) return 0; /* unsupported here: not this test's */
    unsigned n = 0;
    for (uint32_t k = 0; k < m->prog.nfuncs; k++) {
        const vm_func *f = &m->prog.funcs[k];
        if (!f->code) continue;
        char err[256] = "";
        cr_expect_eq(vm_check_records(f, err, sizeof err), 0, "%s, %s: %s", path, f->ir->name, err);
        n++;
    }
    ptxi_module_unload(m);
    return n;
}

static unsigned check_tree(ptxi_ctx *ctx, const char *dir, int depth) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    unsigned n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char p[1024];
        if (snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >= (int)sizeof p) continue;
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".ptx")) n += check_module(ctx, p);
        else if (depth > 0) n += check_tree(ctx, p, depth - 1);
    }
    closedir(d);
    return n;
}

Test(records, every_lowered_record_keeps_its_contract) {
    ptxi_ctx *ctx;
    cr_assert_eq(ptxi_ctx_create(&ctx, NULL), PTXI_SUCCESS);
    unsigned n = check_tree(ctx, PTXI_SOURCE_DIR "/ptx-samples", 1) +
                 check_tree(ctx, PTXI_SOURCE_DIR "/bench/kernels", 1);
    cr_expect_gt(n, 50, "only %u functions checked", n);
    ptxi_ctx_destroy(ctx);
}

Test(records, a_broken_record_is_caught) {
    static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 o)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
                              "ld.param.u64 %rd1, [o];\nmov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, %r1;\n"
                              "st.global.u32 [%rd1], %r2;\nret;\n}\n";
    ptxi_ctx *ctx;
    ptxi_module *m;
    cr_assert_eq(ptxi_ctx_create(&ctx, NULL), PTXI_SUCCESS);
    cr_assert_eq(ptxi_module_load_data(ctx, ptx, sizeof ptx - 1, "k.ptx", &m), PTXI_SUCCESS);
    vm_func *f = &m->prog.funcs[0];
    char err[256] = "";
    cr_assert_eq(vm_check_records(f, err, sizeof err), 0, "%s", err);
    vm_insn *add = NULL;
    for (uint32_t k = 0; k < f->ncode; k++)
        if (f->code[k].op == VM_ADD32) add = &f->code[k];
    cr_assert_not_null(add);
    uint32_t b = add->b;
    add->b = f->frame_size - 4; /* a 32-bit lane array does not fit there */
    cr_expect_eq(vm_check_records(f, err, sizeof err), -1);
    cr_expect(strstr(err, "ADD32") != NULL, "%s", err);
    add->b = b + 2; /* misaligned */
    cr_expect_eq(vm_check_records(f, err, sizeof err), -1);
    add->b = b;
    ptxi_module_unload(m);
    ptxi_ctx_destroy(ctx);
}
