/* validate.c — the `ptxi check` rules beyond syntax: operand counts and kinds
 * of common instructions, and instruction type vs register type under the PTX
 * ISA's type-checking rules:
 *   - a .bN register goes with any instruction type of N bits, and a .bN
 *     instruction type with any register of N bits;
 *   - .sN/.uN instruction types take .sN/.uN registers, .fN types .fN ones;
 *   - ld, st and cvt also accept registers wider than the instruction type
 *     (the value is truncated on the way in, extended on the way out);
 *   - predicates only where a predicate is expected.
 * Operands whose type is fixed by the instruction (shift amounts, bit-field
 * positions) are checked against that type instead. A variable addressed as
 * [var+off] must live in the state space the instruction names. */
#include <pthread.h>
#include <string.h>

#include "fe.h"

/* what one operand position expects */
enum { T_NONE, T_I0, T_I1, T_U32, T_PRED, T_WIDE0 };
/* operand shapes: register/immediate source, destination, address, label */
enum { K_ANY, K_DST, K_SRC, K_ADDR, K_LABEL };

typedef struct rule {
    uint16_t op;
    uint8_t min, max;          /* operand count */
    uint8_t relaxed;           /* wider registers allowed (ld/st/cvt) */
    uint8_t kind[5], type[5];
} rule;

#define R(op, mn, mx, rel, k0, t0, k1, t1, k2, t2, k3, t3) \
    { IR_OP_##op, mn, mx, rel, { K_##k0, K_##k1, K_##k2, K_##k3, K_ANY }, { T_##t0, T_##t1, T_##t2, T_##t3, T_NONE } }
#define R5(op, mn, mx, k0, t0, k1, t1, k2, t2, k3, t3, k4, t4) \
    { IR_OP_##op, mn, mx, 0, { K_##k0, K_##k1, K_##k2, K_##k3, K_##k4 }, { T_##t0, T_##t1, T_##t2, T_##t3, T_##t4 } }
#define ARITH3(op) R(op, 3, 3, 0, DST, I0, SRC, I0, SRC, I0, ANY, NONE)
#define ARITH2(op) R(op, 2, 2, 0, DST, I0, SRC, I0, ANY, NONE, ANY, NONE)

static const rule rules[] = {
    ARITH3(ADD), ARITH3(SUB), ARITH3(MIN), ARITH3(MAX), ARITH3(AND), ARITH3(OR), ARITH3(XOR),
    ARITH3(DIV), ARITH3(REM), ARITH3(COPYSIGN), ARITH3(ADDC), ARITH3(SUBC),
    ARITH2(ABS), ARITH2(NEG), ARITH2(NOT), ARITH2(CNOT), ARITH2(SQRT), ARITH2(RCP), ARITH2(RSQRT),
    ARITH2(SIN), ARITH2(COS), ARITH2(EX2), ARITH2(LG2), ARITH2(TANH), ARITH2(BREV),
    R(MUL, 3, 3, 0, DST, WIDE0, SRC, I0, SRC, I0, ANY, NONE),
    R(MAD, 4, 4, 0, DST, WIDE0, SRC, I0, SRC, I0, SRC, WIDE0),
    R(FMA, 4, 4, 0, DST, I0, SRC, I0, SRC, I0, SRC, I0),
    R(SHL, 3, 3, 0, DST, I0, SRC, I0, SRC, U32, ANY, NONE),
    R(SHR, 3, 3, 0, DST, I0, SRC, I0, SRC, U32, ANY, NONE),
    R(SELP, 4, 4, 0, DST, I0, SRC, I0, SRC, I0, SRC, PRED),
    R(POPC, 2, 2, 0, DST, U32, SRC, I0, ANY, NONE, ANY, NONE),
    R(CLZ, 2, 2, 0, DST, U32, SRC, I0, ANY, NONE, ANY, NONE),
    R(BFE, 4, 4, 0, DST, I0, SRC, I0, SRC, U32, SRC, U32),
    R(SETP, 3, 4, 0, DST, NONE, SRC, I0, SRC, I0, SRC, PRED),
    R(CVT, 2, 4, 1, DST, I0, SRC, I1, SRC, NONE, SRC, NONE),
    R(CVTA, 2, 2, 0, DST, I0, SRC, I0, ANY, NONE, ANY, NONE),
    R(BRA, 1, 1, 0, LABEL, NONE, ANY, NONE, ANY, NONE, ANY, NONE),
    R(MUL24, 3, 3, 0, DST, I0, SRC, I0, SRC, I0, ANY, NONE),
    R(MAD24, 4, 4, 0, DST, I0, SRC, I0, SRC, I0, SRC, I0),
    R(SAD, 4, 4, 0, DST, I0, SRC, I0, SRC, I0, SRC, I0),
    R(PRMT, 4, 4, 0, DST, I0, SRC, I0, SRC, I0, SRC, I0),
    R(SHF, 4, 4, 0, DST, I0, SRC, I0, SRC, I0, SRC, U32),
    R(BFIND, 2, 2, 0, DST, U32, SRC, I0, ANY, NONE, ANY, NONE),
    R(TESTP, 2, 2, 0, DST, PRED, SRC, I0, ANY, NONE, ANY, NONE),
    R(ISSPACEP, 2, 2, 0, DST, PRED, SRC, NONE, ANY, NONE, ANY, NONE),
    R(ACTIVEMASK, 1, 1, 0, DST, I0, ANY, NONE, ANY, NONE, ANY, NONE),
    R(NANOSLEEP, 1, 1, 0, SRC, U32, ANY, NONE, ANY, NONE, ANY, NONE),
    R(VOTE, 2, 3, 0, DST, I0, SRC, PRED, SRC, U32, ANY, NONE),
    R(SLCT, 4, 4, 0, DST, I0, SRC, I0, SRC, I0, SRC, I1),
    R(SET, 3, 4, 0, DST, I0, SRC, I1, SRC, I1, SRC, PRED),
    R(RED, 2, 4, 0, ADDR, NONE, SRC, I0, SRC, NONE, SRC, NONE),
    R5(ATOM, 3, 5, DST, I0, ADDR, NONE, SRC, I0, SRC, NONE, SRC, NONE),
    R5(SHFL, 4, 5, DST, I0, SRC, I0, SRC, U32, SRC, U32, SRC, U32),
    R5(BFI, 5, 5, DST, I0, SRC, I0, SRC, I0, SRC, U32, SRC, U32),
    R5(LOP3, 5, 6, DST, I0, SRC, I0, SRC, I0, SRC, I0, SRC, NONE),
    R(MEMBAR, 0, 0, 0, ANY, NONE, ANY, NONE, ANY, NONE, ANY, NONE),
    R(TRAP, 0, 0, 0, ANY, NONE, ANY, NONE, ANY, NONE, ANY, NONE),
    R(BRKPT, 0, 0, 0, ANY, NONE, ANY, NONE, ANY, NONE, ANY, NONE),
    R(RET, 0, 0, 0, ANY, NONE, ANY, NONE, ANY, NONE, ANY, NONE),
    R(EXIT, 0, 0, 0, ANY, NONE, ANY, NONE, ANY, NONE, ANY, NONE),
};

static const rule *rule_of[IR_OP__COUNT];
static const rule ld_rule = R(LD, 2, 3, 1, DST, I0, ADDR, NONE, SRC, NONE, ANY, NONE);
static const rule st_rule = R(ST, 2, 3, 1, ADDR, NONE, SRC, I0, SRC, NONE, ANY, NONE);
static const rule mov_rule = R(MOV, 2, 2, 0, DST, I0, SRC, I0, ANY, NONE, ANY, NONE);

typedef struct vctx {
    const ir_func *f;
    const ir_insn *in;
    fe_diags *d;
    char mn[128];
} vctx;

static ir_type wide(ir_type t) {
    switch (t) {
    case IR_T_U16: return IR_T_U32;
    case IR_T_U32: return IR_T_U64;
    case IR_T_S16: return IR_T_S32;
    case IR_T_S32: return IR_T_S64;
    default: return t;
    }
}

/* the PTX ISA type-checking table; `relaxed` lets the register be wider */
static bool compatible(ir_type want, ir_type have, bool relaxed) {
    int cw = ir_type_class_of[want], ch = ir_type_class_of[have];
    if (cw == IR_TC_PRED || ch == IR_TC_PRED)
        return cw == ch;
    if (cw == IR_TC_OPAQUE || ch == IR_TC_OPAQUE)
        return cw == ch || ch == IR_TC_BITS || ch == IR_TC_UINT;
    unsigned sw = ir_type_bytes[want], sh = ir_type_bytes[have];
    if (relaxed ? sh < sw : sh != sw)
        return false;
    if (cw == IR_TC_BITS || ch == IR_TC_BITS)
        return true;
    bool iw = cw == IR_TC_UINT || cw == IR_TC_SINT, ih = ch == IR_TC_UINT || ch == IR_TC_SINT;
    if (iw && ih)
        return true;
    /* packed half types (f16x2 ...) live in 32-bit registers of any class */
    if (cw == IR_TC_FLOAT && ch == IR_TC_FLOAT)
        return relaxed ? true : sw == sh;
    return false;
}

static void check_reg(vctx *c, const ir_operand *o, ir_type want, bool relaxed, unsigned pos) {
    if (want == IR_T_NONE)
        return;
    if (o->kind == IR_OPND_VEC) {
        for (uint32_t i = 0; i < o->nsub; i++)
            check_reg(c, &o->sub[i], want, relaxed, pos);
        return;
    }
    if (o->kind != IR_OPND_REG || o->sel)
        return;
    const ir_reg *r = &c->f->regs[o->reg];
    if (r->vec > 1)
        return;
    if (!compatible(want, (ir_type)r->type, relaxed))
        fe_diag_add(c->d, o->loc, false, "operand %u of '%s': register '%s' of type .%s does not match .%s", pos + 1,
                    c->mn, r->name, ir_type_name[r->type], ir_type_name[want]);
}

static bool kind_ok(int k, const ir_operand *o) {
    switch (k) {
    case K_DST: return o->kind == IR_OPND_REG || o->kind == IR_OPND_SINK || o->kind == IR_OPND_VEC || o->kind == IR_OPND_PAIR;
    case K_SRC: return o->kind != IR_OPND_ADDR && o->kind != IR_OPND_LIST && o->kind != IR_OPND_SINK;
    case K_ADDR: return o->kind == IR_OPND_ADDR || o->kind == IR_OPND_VAR;
    case K_LABEL: return o->kind == IR_OPND_LABEL;
    }
    return true;
}

/* the state space an ld/st/atom/red names, IR_SPACE_NONE for generic */
static int insn_space(const ir_insn *in) {
    static const struct { uint16_t mod; uint8_t space; } map[] = {
        { IR_MOD_GLOBAL, IR_SPACE_GLOBAL }, { IR_MOD_SHARED, IR_SPACE_SHARED }, { IR_MOD_SHARED_CTA, IR_SPACE_SHARED },
        { IR_MOD_SHARED_CLUSTER, IR_SPACE_SHARED }, { IR_MOD_LOCAL, IR_SPACE_LOCAL }, { IR_MOD_CONST, IR_SPACE_CONST },
        { IR_MOD_PARAM, IR_SPACE_PARAM }, { IR_MOD_PARAM_ENTRY, IR_SPACE_PARAM }, { IR_MOD_PARAM_FUNC, IR_SPACE_PARAM },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (ir_has_mod(in, map[i].mod))
            return map[i].space;
    return IR_SPACE_NONE;
}

/* [var+off] in an instruction that names a state space must name the variable's */
static void check_space(vctx *c, const ir_operand *o) {
    if (o->kind != IR_OPND_ADDR || o->nsub != 1 || o->sub[0].kind != IR_OPND_VAR)
        return;
    int want = insn_space(c->in);
    const ir_var *v = o->sub[0].var;
    if (want != IR_SPACE_NONE && v->space != want)
        fe_diag_add(c->d, o->loc, false, "'%s' addresses '%s', which is in .%s, not .%s", c->mn, v->name,
                    ir_space_name[v->space], ir_space_name[want]);
}

static const char *const kind_word[] = { "", "a register", "a register or constant", "an address", "a label" };

static void check_insn(const ir_func *f, const ir_insn *in, fe_diags *d) {
    const rule *r = rule_of[in->op];
    if (in->op == IR_OP_LD || in->op == IR_OP_LDU)
        r = &ld_rule;
    else if (in->op == IR_OP_ST)
        r = &st_rule;
    else if (in->op == IR_OP_MOV)
        r = &mov_rule;
    if (!r)
        return;
    vctx c = { f, in, d, { 0 } };
    ir_insn_mnemonic(in, c.mn, sizeof c.mn);
    if (in->nopnds < r->min || in->nopnds > r->max) {
        if (r->min == r->max)
            fe_diag_add(d, in->loc, false, "'%s' takes %u operand%s, not %u", c.mn, r->min, r->min == 1 ? "" : "s", in->nopnds);
        else
            fe_diag_add(d, in->loc, false, "'%s' takes %u to %u operands, not %u", c.mn, r->min, r->max, in->nopnds);
        return;
    }
    /* forms whose operand shapes differ from the plain one */
    if (ir_has_mod(in, IR_MOD_ASYNC))   /* st.async, red.async: an mbarrier address too */
        return;
    /* cvt to a packed pair (cvt.rn.f16x2.f32 d, a, b) and mov packing
     * ({a, b} halves) have operands of other sizes */
    bool typed = !(in->op == IR_OP_CVT && in->nopnds != 2);
    bool wide_form = ir_has_mod(in, IR_MOD_WIDE);
    for (unsigned i = 0; i < in->nopnds && i < 5; i++) {
        const ir_operand *o = &in->opnds[i];
        if (!kind_ok(r->kind[i], o)) {
            fe_diag_add(d, o->loc, false, "operand %u of '%s' must be %s", i + 1, c.mn, kind_word[r->kind[i]]);
            continue;
        }
        if (r->kind[i] == K_ADDR)
            check_space(&c, o);
        ir_type want = IR_T_NONE;
        switch (r->type[i]) {
        case T_I0: want = in->ntypes ? (ir_type)in->types[0] : IR_T_NONE; break;
        case T_I1: want = in->ntypes > 1 ? (ir_type)in->types[1] : IR_T_NONE; break;
        case T_U32: want = IR_T_U32; break;
        case T_PRED: want = IR_T_PRED; break;
        case T_WIDE0:
            want = in->ntypes ? (ir_type)in->types[0] : IR_T_NONE;
            if (wide_form)
                want = wide(want);
            break;
        }
        /* ld/st/atom/red: the data operands have the one type suffix (ld.global.nc.v4.f32) */
        if ((in->op == IR_OP_LD || in->op == IR_OP_LDU || in->op == IR_OP_ST || in->op == IR_OP_ATOM ||
             in->op == IR_OP_RED) && r->type[i] == T_I0)
            want = in->ntypes == 1 ? (ir_type)in->types[0] : IR_T_NONE;
        if ((in->op == IR_OP_SETP && i == 0) || !typed || (in->op == IR_OP_MOV && o->kind == IR_OPND_VEC))
            continue;
        check_reg(&c, o, want, r->relaxed, i);
    }
}

static pthread_once_t rules_once = PTHREAD_ONCE_INIT;
static void index_rules(void) {
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        rule_of[rules[i].op] = &rules[i];
}

void fe_validate(const ir_module *m, fe_diags *d) {
    pthread_once(&rules_once, index_rules);
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ir_func *f = m->funcs[fi];
        for (uint32_t k = 0; k < f->nbody; k++)
            if (f->body[k].kind == IR_ST_INSN)
                check_insn(f, &f->body[k].u.insn, d);
    }
}
