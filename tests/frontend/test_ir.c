/* test_ir.c — what the builder puts in the IR for corpus/features.ptx:
 * initializer bytes and relocations, register ranges and shadowing, labels,
 * operand kinds, modifiers and .loc. Expected values are read off the PTX
 * by hand (little-endian bytes, IEEE-754 bit patterns). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static ir_module *M;
static fe_diags D;
static char *text;

static void setup(void) {
    FILE *f = fopen(PTXI_SOURCE_DIR "/tests/frontend/corpus/features.ptx", "rb");
    cr_assert(f);
    text = malloc(1 << 16);
    size_t n = fread(text, 1, 1 << 16, f);
    fclose(f);
    M = fe_parse(text, n, "features.ptx", &D);
    cr_assert_eq(D.nerrors, 0);
}
static void teardown(void) {
    ir_module_free(M);
    fe_diags_free(&D);
    free(text);
}

TestSuite(ir, .init = setup, .fini = teardown);

static const ir_insn *nth_insn(const ir_func *f, ir_opcode op, int nth) {
    for (uint32_t i = 0; i < f->nbody; i++)
        if (f->body[i].kind == IR_ST_INSN && f->body[i].u.insn.op == op && nth-- == 0) return &f->body[i].u.insn;
    cr_assert_fail("instruction %s #%d not found", ir_opcode_name[op], nth);
    return NULL;
}

static void expect_bytes(const char *var, const uint8_t *want, size_t n) {
    ir_var *v = ir_find_global(M, var);
    cr_assert(v, "%s missing", var);
    cr_assert_eq(v->size, n, "%s: size %lu", var, (unsigned long)v->size);
    cr_assert(v->has_init);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(v->init[i], want[i], "%s byte %zu: %#x != %#x", var, i, v->init[i], want[i]);
}

Test(ir, module_header) {
    cr_assert_eq(M->version_major, 8);
    cr_assert_eq(M->version_minor, 5);
    cr_assert_eq(M->ntargets, 3);
    cr_assert_str_eq(M->targets[1], "texmode_independent");
    cr_assert_eq(M->sm, 90);
    cr_assert_eq(M->address_size, 64);
    cr_assert_eq(M->nfiles, 2);
    cr_assert_eq(M->files[0].index, 1);
    cr_assert_str_eq(M->files[0].name, "/src/feat.cu");
    cr_assert_eq(M->files[0].timestamp, 1700000000);
    cr_assert_eq(M->files[0].size, 4096);
    cr_assert_eq(M->nglobals, 17);
    cr_assert_eq(M->nfuncs, 2); /* the declaration of leaf and its definition are one function */
}

Test(ir, variables) {
    ir_var *v = ir_find_global(M, "dyn_smem");
    cr_assert_eq(v->linkage, IR_LINK_EXTERN);
    cr_assert_eq(v->space, IR_SPACE_SHARED);
    cr_assert_eq(v->align, 16);
    cr_assert_eq(v->ndims, 1);
    cr_assert_eq(v->dims[0], 0);
    cr_assert_eq(v->size, 0);
    cr_assert_eq(ir_find_global(M, "weak_var")->linkage, IR_LINK_WEAK);
    cr_assert_eq(ir_find_global(M, "common_var")->linkage, IR_LINK_COMMON);
    cr_assert(ir_find_global(M, "managed_var")->managed);
    cr_assert(ir_find_global(M, "unified_var")->unified);
    cr_assert_eq(ir_find_global(M, "tex_ref")->type, IR_T_TEXREF);
    cr_assert_eq(ir_find_global(M, "unified_var")->align, 4); /* natural */
    v = ir_find_global(M, "vecvar");
    cr_assert_eq(v->vec, 2);
    cr_assert_eq(v->align, 8);
}

Test(ir, initializers) {
    static const uint8_t weak[] = {7, 0, 0, 0};
    expect_bytes("weak_var", weak, sizeof weak);
    /* 1.0 = 0x3FF0000000000000, 2.0 = 0x4000000000000000 */
    static const uint8_t d[] = {0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0x40};
    expect_bytes("dconst", d, sizeof d);
    /* 1.0f = 0x3F800000, 1.5f = 0x3FC00000, 2.0f = 0x40000000 */
    static const uint8_t f[] = {0, 0, 0x80, 0x3F, 0, 0, 0xC0, 0x3F, 0, 0, 0, 0x40};
    expect_bytes("fconst", f, sizeof f);
    /* {{1, 2}, {4, 5, 6}}: the short row is padded */
    static const uint8_t g[] = {1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0};
    expect_bytes("grid", g, sizeof g);
    static const uint8_t vv[] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};
    expect_bytes("vecvar", vv, sizeof vv);
    /* 0x10, 0b101, 017 (octal), -1 */
    static const uint8_t h[] = {0x10, 0, 5, 0, 15, 0, 0xFF, 0xFF};
    expect_bytes("hexes", h, sizeof h);
    static const uint8_t b[] = {1, 2, 3};
    expect_bytes("bytes", b, sizeof b);
    cr_assert_eq(ir_find_global(M, "bytes")->dims[0], 3);
}

Test(ir, relocations) {
    ir_var *v = ir_find_global(M, "ptrs");
    cr_assert_eq(v->nrelocs, 3);
    cr_assert_eq(v->relocs[0].offset, 0);
    cr_assert_eq(v->relocs[0].size, 8);
    cr_assert_eq(v->relocs[0].var, ir_find_global(M, "weak_var"));
    cr_assert_not(v->relocs[0].generic);
    cr_assert_eq(v->relocs[1].offset, 8);
    cr_assert(v->relocs[1].generic);
    cr_assert_eq(v->relocs[1].var, ir_find_global(M, "common_var"));
    cr_assert_eq(v->relocs[1].addend, 8);
    cr_assert_eq(v->relocs[2].var, ir_find_global(M, "fconst"));
    cr_assert_eq(v->relocs[2].addend, 4);
    v = ir_find_global(M, "masked");
    cr_assert_eq(v->nrelocs, 2);
    cr_assert_eq(v->relocs[0].size, 1);
    cr_assert_eq(v->relocs[0].mask, 0xff);
    cr_assert_eq(v->relocs[0].shift, 0);
    cr_assert_eq(v->relocs[1].offset, 1);
    cr_assert_eq(v->relocs[1].mask, 0xff00);
    cr_assert_eq(v->relocs[1].shift, 8);
    v = ir_find_global(M, "fnptr");
    cr_assert(v->relocs[0].is_func);
    cr_assert_eq(v->relocs[0].func, ir_find_func(M, "leaf"));
}

Test(ir, functions) {
    ir_func *leaf = ir_find_func(M, "leaf");
    cr_assert(leaf->has_body);
    cr_assert_not(leaf->is_entry);
    cr_assert_eq(leaf->nrets, 1);
    cr_assert_eq(leaf->nparams, 2);
    cr_assert_eq(leaf->params[1]->align, 8);
    cr_assert_eq(leaf->params[1]->size, 16);
    cr_assert_eq(leaf->params[1]->func, leaf);
    ir_func *k = ir_find_func(M, "features");
    cr_assert(k->is_entry);
    cr_assert_eq(k->linkage, IR_LINK_VISIBLE);
    cr_assert_eq(k->maxntid[0], 128);
    cr_assert_eq(k->maxntid[1], 1);
    cr_assert_eq(k->minnctapersm, 2);
    cr_assert_eq(k->maxnreg, 64);
    cr_assert_eq(k->npragmas, 1);
    cr_assert_str_eq(k->pragmas[0], "nounroll");
    cr_assert(k->params[0]->is_ptr);
    cr_assert_eq(k->params[0]->ptr_space, IR_SPACE_GLOBAL);
    cr_assert_eq(k->params[0]->ptr_align, 16);
    cr_assert_eq(k->nlocals, 5); /* depot, sh and the call block's retval0, param0, param1 */
}

Test(ir, registers_and_scopes) {
    ir_func *k = ir_find_func(M, "features");
    /* %p<3> %r<8> %rd<6> %f<5> %vf, then the inner block's %r<2> and p */
    cr_assert_eq(k->nregs, 3 + 8 + 6 + 5 + 1 + 2 + 1);
    cr_assert_str_eq(k->regs[0].name, "%p0");
    cr_assert_str_eq(k->regs[10].name, "%r7");
    cr_assert_eq(k->regs[22].vec, 4);
    cr_assert_str_eq(k->regs[23].name, "%r0");
    cr_assert_eq(k->regs[23].scope, 1);
    cr_assert_eq(k->regs[3].scope, 0);
    const ir_insn *in = nth_insn(k, IR_OP_ADD, 0); /* @p add.s32 %r1, %r0, 1 inside the block */
    cr_assert_eq(in->guard, 25);
    cr_assert_eq(in->opnds[0].reg, 24);
    cr_assert_eq(in->opnds[1].reg, 23);
    in = nth_insn(k, IR_OP_ADD, 1); /* add.s32 %r6, %r2, 0x7fffffff after it: outer names again */
    cr_assert_eq(in->opnds[0].reg, 9);
    cr_assert_eq(in->opnds[1].reg, 5);
    cr_assert_eq(in->opnds[2].kind, IR_OPND_IMM_INT);
    cr_assert_eq(in->opnds[2].ival, 0x7fffffff);
    in = nth_insn(k, IR_OP_MOV, 8); /* mov.b64 {%r0, _}, %rd1 */
    cr_assert_eq(in->opnds[0].kind, IR_OPND_VEC);
    cr_assert_eq(in->opnds[0].sub[0].reg, 23);
    cr_assert_eq(in->opnds[0].sub[1].kind, IR_OPND_SINK);
}

Test(ir, operands) {
    ir_func *k = ir_find_func(M, "features");
    const ir_insn *in = nth_insn(k, IR_OP_MOV, 0); /* mov.u32 %r2, %tid.x */
    cr_assert_eq(in->opnds[1].kind, IR_OPND_SREG);
    cr_assert_eq(in->opnds[1].sreg, IR_SREG_TID);
    cr_assert_eq(in->opnds[1].comp, 0);
    in = nth_insn(k, IR_OP_MOV, 1); /* %envreg3 */
    cr_assert_eq(in->opnds[1].sreg, IR_SREG_ENVREG);
    cr_assert_eq(in->opnds[1].comp, 3);
    in = nth_insn(k, IR_OP_MOV, 2); /* %pm0_64 */
    cr_assert_eq(in->opnds[1].sreg, IR_SREG_PM64);
    in = nth_insn(k, IR_OP_MOV, 6); /* mov.u64 %rd4, dyn_smem */
    cr_assert_eq(in->opnds[1].kind, IR_OPND_VAR);
    cr_assert_eq(in->opnds[1].var, ir_find_global(M, "dyn_smem"));
    in = nth_insn(k, IR_OP_MOV, 7); /* mov.u64 %rd5, sh+8 */
    cr_assert_eq(in->opnds[1].kind, IR_OPND_VAR);
    cr_assert_str_eq(in->opnds[1].var->name, "sh");
    cr_assert_eq(in->opnds[1].ival, 8);
    in = nth_insn(k, IR_OP_SETP, 0); /* setp.lt.u32 %p1|%p2, ... */
    cr_assert_eq(in->opnds[0].kind, IR_OPND_PAIR);
    cr_assert_eq(in->opnds[0].sub[0].reg, 1);
    cr_assert_eq(in->opnds[0].sub[1].reg, 2);
    in = nth_insn(k, IR_OP_MUL, 0); /* mul.lo.s32 %r6, %r6, -3 */
    cr_assert_eq(in->opnds[2].ival, -3);
    in = nth_insn(k, IR_OP_MOV, 9); /* mov.f32 %f1, 0fBF800000 */
    cr_assert_eq(in->opnds[1].kind, IR_OPND_IMM_F32);
    cr_assert_eq(in->opnds[1].fbits, 0xBF800000u);
    cr_assert_eq(in->opnds[1].fval, -1.0);
    in = nth_insn(k, IR_OP_LD, 2); /* ld.global.v4.f32 {...}, [%rd1+-16] */
    cr_assert_eq(in->opnds[0].nsub, 4);
    cr_assert_eq(in->opnds[1].kind, IR_OPND_ADDR);
    cr_assert_eq(in->opnds[1].sub[0].reg, 12);
    cr_assert_eq(in->opnds[1].ival, -16);
    in = nth_insn(k, IR_OP_TEX, 0); /* [tex_ref, {%f1, %f2}] */
    cr_assert_eq(in->opnds[1].nsub, 2);
    cr_assert_eq(in->opnds[1].sub[0].kind, IR_OPND_VAR);
    cr_assert_eq(in->opnds[1].sub[1].kind, IR_OPND_VEC);
    in = nth_insn(k, IR_OP_ST, 0); /* st.shared.u32 [sh+4] */
    cr_assert_eq(in->opnds[0].sub[0].kind, IR_OPND_VAR);
    cr_assert_eq(in->opnds[0].ival, 4);
    in = nth_insn(k, IR_OP_MOV, 10); /* mov.u32 %r7, WARP_SZ */
    cr_assert_eq(in->opnds[1].kind, IR_OPND_IMM_INT);
    cr_assert_eq(in->opnds[1].ival, 32);
    in = nth_insn(k, IR_OP_VADD, 0); /* %r7.b1, %r6.h0 */
    cr_assert_eq(in->opnds[1].sel, (1u << 12) | 1u);
    cr_assert_eq(in->opnds[2].sel, IR_SEL_HALF | (1u << 12));
}

Test(ir, modifiers_in_order) {
    ir_func *k = ir_find_func(M, "features");
    const ir_insn *in = nth_insn(k, IR_OP_LD, 3); /* ld.global.nc.L1::no_allocate.L2::128B.u32 */
    cr_assert_eq(in->nmods, 4);
    cr_assert_eq(in->mods[0], IR_MOD_GLOBAL);
    cr_assert_eq(in->mods[1], IR_MOD_NC);
    cr_assert_eq(in->mods[2], IR_MOD_L1_NO_ALLOCATE);
    cr_assert_eq(in->mods[3], IR_MOD_L2_128B);
    cr_assert_eq(in->ntypes, 1);
    cr_assert_eq(in->types[0], IR_T_U32);
    cr_assert(ir_has_mod(in, IR_MOD_NC));
    cr_assert_not(ir_has_mod(in, IR_MOD_SHARED));
    char buf[64];
    ir_insn_mnemonic(in, buf, sizeof buf);
    cr_assert_str_eq(buf, "ld.global.nc.L1::no_allocate.L2::128B.u32");
}

Test(ir, labels_and_targets) {
    ir_func *k = ir_find_func(M, "features");
    /* labels in order of definition: ts, $L_a, $L_b, ft, proto, $L_done */
    cr_assert_eq(k->nlabels, 6);
    cr_assert_str_eq(k->labels[5].name, "$L_done");
    const ir_insn *in = nth_insn(k, IR_OP_BRA, 0); /* @!%p1 bra $L_done (a forward reference) */
    cr_assert_eq(in->guard, 1);
    cr_assert(in->guard_neg);
    cr_assert_eq(in->opnds[0].kind, IR_OPND_LABEL);
    cr_assert_eq(in->opnds[0].label, 5);
    cr_assert_eq(k->body[k->labels[5].stmt].kind, IR_ST_LABEL);
    in = nth_insn(k, IR_OP_BRX, 0);
    cr_assert_eq(in->opnds[1].label, 0);
    bool bt = false, ct = false, pr = false;
    for (uint32_t i = 0; i < k->nbody; i++) {
        const ir_stmt *s = &k->body[i];
        if (s->kind == IR_ST_BRANCHTARGETS) {
            bt = true;
            cr_assert_eq(s->u.targets.n, 3);
            cr_assert_eq(s->u.targets.labels[0], 1);
            cr_assert_eq(s->u.targets.labels[2], 5);
        } else if (s->kind == IR_ST_CALLTARGETS) {
            ct = true;
            cr_assert_eq(s->u.calltargets.funcs[0], ir_find_func(M, "leaf"));
        } else if (s->kind == IR_ST_CALLPROTOTYPE) {
            pr = true;
            cr_assert_eq(s->u.proto.label, 4);
            cr_assert_eq(s->u.proto.proto->nrets, 1);
            cr_assert_eq(s->u.proto.proto->nparams, 2);
            cr_assert_eq(s->u.proto.proto->params[1]->size, 16);
        }
    }
    cr_assert(bt && ct && pr);
    in = nth_insn(k, IR_OP_CALL, 1); /* call (retval0), %rd2, (param0, param1), proto */
    cr_assert_eq(in->nopnds, 4);
    cr_assert_eq(in->opnds[0].kind, IR_OPND_LIST);
    cr_assert_eq(in->opnds[3].kind, IR_OPND_LABEL);
    cr_assert_eq(in->opnds[3].label, 4);
    in = nth_insn(k, IR_OP_CALL, 0);
    cr_assert_eq(in->opnds[1].kind, IR_OPND_FUNC);
    cr_assert_eq(in->opnds[1].func, ir_find_func(M, "leaf"));
}

Test(ir, debug_lines) {
    ir_func *k = ir_find_func(M, "features");
    const ir_insn *in = nth_insn(k, IR_OP_LD, 0); /* after .loc 1 10 3 */
    cr_assert_eq(in->dbg.file, 1);
    cr_assert_eq(in->dbg.line, 10);
    cr_assert_eq(in->dbg.col, 3);
    in = nth_insn(k, IR_OP_SETP, 0); /* after .loc 2 5 1, function_name ... */
    cr_assert_eq(in->dbg.file, 2);
    cr_assert_eq(in->dbg.line, 5);
    bool found = false;
    for (uint32_t i = 0; i < k->nbody; i++)
        if (k->body[i].kind == IR_ST_LOC) {
            found = true;
            cr_assert_str_eq(k->body[i].u.locd.text, "function_name leafname, inlined_at 1 10 3");
        }
    cr_assert(found);
    cr_assert_eq(nth_insn(ir_find_func(M, "leaf"), IR_OP_RET, 0)->dbg.file, 0);
}

/* ir_equal must see every kind of difference, or the round-trip test proves nothing */
static ir_module *parse_str(const char *s) {
    fe_diags d = {0};
    ir_module *m = fe_parse(s, strlen(s), "x.ptx", &d);
    cr_assert_eq(d.nerrors, 0, "%s", s);
    fe_diags_free(&d);
    return m;
}

#define MOD_H ".version 8.0\n.target sm_80\n.address_size 64\n.global .u32 g[2] = {1, 2};\n"
#define MOD_K(body) ".entry k() {\n.reg .b32 %r<3>;\n.reg .pred %p;\nL0:\n" body "\nL1:\nret;\n}\n"
static const char *const base = MOD_H MOD_K(
    ".loc 1 2 3\n@%p add.s32 %r1, %r2, 7;\nld.global.nc.u32 %r0, [g+4];\n@!%p bra L0;");
static const char *const variants[] = {
    MOD_H MOD_K(".loc 1 2 3\n@%p add.s32 %r1, %r2, 8;\nld.global.nc.u32 %r0, [g+4];\n@!%p bra L0;"),  /* immediate */
    MOD_H MOD_K(".loc 1 2 3\n@%p add.s32 %r1, %r1, 7;\nld.global.nc.u32 %r0, [g+4];\n@!%p bra L0;"),  /* register */
    MOD_H MOD_K(".loc 1 2 3\n@!%p add.s32 %r1, %r2, 7;\nld.global.nc.u32 %r0, [g+4];\n@!%p bra L0;"), /* guard sense */
    MOD_H MOD_K(".loc 1 2 3\n@%p add.u32 %r1, %r2, 7;\nld.global.nc.u32 %r0, [g+4];\n@!%p bra L0;"),  /* type */
    MOD_H MOD_K(
        ".loc 1 2 3\n@%p add.s32 %r1, %r2, 7;\nld.nc.global.u32 %r0, [g+4];\n@!%p bra L0;"), /* modifier order */
    MOD_H MOD_K(".loc 1 2 3\n@%p add.s32 %r1, %r2, 7;\nld.global.nc.u32 %r0, [g+8];\n@!%p bra L0;"), /* offset */
    MOD_H MOD_K(".loc 1 2 3\n@%p add.s32 %r1, %r2, 7;\nld.global.nc.u32 %r0, [g+4];\n@!%p bra L1;"), /* label */
    MOD_H MOD_K(".loc 1 2 4\n@%p add.s32 %r1, %r2, 7;\nld.global.nc.u32 %r0, [g+4];\n@!%p bra L0;"), /* .loc */
    ".version 8.0\n.target sm_80\n.address_size 64\n.global .u32 g[2] = {1, 3};\n" MOD_K(
        ".loc 1 2 3\n@%p add.s32 %r1, %r2, 7;\nld.global.nc.u32 %r0, [g+4];\n@!%p bra L0;"), /* initializer */
    ".version 8.0\n.target sm_86\n.address_size 64\n.global .u32 g[2] = {1, 2};\n" MOD_K(
        ".loc 1 2 3\n@%p add.s32 %r1, %r2, 7;\nld.global.nc.u32 %r0, [g+4];\n@!%p bra L0;"), /* target */
};

Test(ir_equal, detects_differences) {
    ir_module *a = parse_str(base), *a2 = parse_str(base);
    cr_assert(ir_equal(a, a2));
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        ir_module *b = parse_str(variants[i]);
        cr_assert_not(ir_equal(a, b), "variant %zu compares equal", i);
        ir_module_free(b);
    }
    ir_module_free(a);
    ir_module_free(a2);
}

/* the scanner and parser keep no global state: threads may parse at once */
static void *parse_many(void *arg) {
    const char *src = arg;
    ir_module *first = NULL;
    for (int i = 0; i < 20; i++) {
        fe_diags d = {0};
        ir_module *m = fe_parse(src, strlen(src), "t.ptx", &d);
        if (d.nerrors || (first && !ir_equal(first, m))) return (void *)1;
        fe_diags_free(&d);
        if (first) ir_module_free(m);
        else first = m;
    }
    ir_module_free(first);
    return NULL;
}

Test(ir_equal, parse_is_reentrant) {
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, parse_many, (void *)(i & 1 ? base : variants[0]));
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        cr_assert_null(r, "thread %d saw a different module", i);
    }
}
