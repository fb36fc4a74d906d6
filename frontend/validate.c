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
 * [var+off] must live in the state space the instruction names.
 * Beyond the ISA's tables, what ptxas 13 rejects (its message in brackets):
 *   - a float register only with a float type of its size, also in ld/st/cvt
 *     ["Arguments mismatch"];
 *   - constants typed like the instruction: no integer for .fN, no 0f/0d/1.5
 *     for .uN/.sN, 0f only for .b32 and 0d only for .b64, none for .f16/.bf16
 *     ["Arguments mismatch"];
 *   - special registers only in mov and cvt ["Special register argument not
 *     allowed"], of their own size (the legacy 16-bit %tid/%ntid/%ctaid/%nctaid
 *     reads aside) and never as floats;
 *   - variables, functions and labels are not values of arithmetic ["must be
 *     register"]; labels are no values at all;
 *   - vector operands: 2, 4 or 8 elements ["Illegal vector size"] of one size
 *     ["Incompatible elements of vector expression"]; ld/st take one exactly
 *     when they have .vN, with N elements ["Argument vector size mismatch"];
 *     mov packs or unpacks .bN only, the elements filling N bits;
 *   - addresses: integer or bit registers only ["Illegal to use symbol ... as
 *     address operand"], 64-bit ones for generic and .global addresses under
 *     .address_size 64 ["32-Bit ABI ... not supported"], immediate addresses
 *     only in .local ["Immediate addresses allowed only for .local"];
 *   - no call to a kernel ["Illegal call target, device function expected"];
 *   - no st/atom/red to .const, no atom/red in .local ["State space incorrect"],
 *     no st to a kernel parameter ["Illegal to write to function input
 *     parameter"];
 *   - no instruction newer than the module's .version or .target (the ISA and
 *     SM columns of opcodes.def) ["Feature 'X' requires PTX ISA .version V or
 *     later", "... requires .target sm_N or higher"], for the instructions of
 *     PTX ISA 7.0 and later: ptxas 13 holds each of those to the PTX ISA
 *     document's version and target exactly, the older ones more loosely
 *     (nanosleep from 6.2, atom under 1.0, fma.f64 on any target). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "fe.h"

/* what one operand position expects (opcodes.def's letters: - 0 1 u p w) */
enum { T_NONE, T_I0, T_I1, T_U32, T_PRED, T_WIDE0 };
/* operand shapes (_ d s a l v): anything, destination, register/immediate
 * source, address, label, register/constant/symbol */
enum { K_ANY, K_DST, K_SRC, K_ADDR, K_LABEL, K_VAL };

typedef struct rule {
    uint8_t min, max; /* operand count */
    uint8_t relaxed;  /* wider registers allowed (ld/st/cvt) */
    uint8_t kind[5], type[5];
} rule;

/* Each opcode's rule, read once from the OPERANDS column of opcodes.def. */
static rule rules[IR_OP__COUNT];
static const rule *rule_of[IR_OP__COUNT];

static bool parse_rule(const char *sig, rule *r) {
    static const char kinds[] = "_dsalv", types[] = "-01upw";
    memset(r, 0, sizeof *r);
    if (*sig == '~') r->relaxed = 1, sig++;
    if (!strcmp(sig, ".")) return true;
    bool optional = false;
    for (unsigned n = 0; *sig; n++) {
        if (*sig == '[') optional = true, sig++;
        const char *k = sig[0] ? strchr(kinds, sig[0]) : NULL, *t = sig[1] ? strchr(types, sig[1]) : NULL;
        if (!k || !t || (sig[2] && sig[2] != ' ')) return false;
        if (n < 5) r->kind[n] = (uint8_t)(k - kinds), r->type[n] = (uint8_t)(t - types);
        r->max = (uint8_t)(n + 1);
        if (!optional) r->min = r->max;
        sig += sig[2] ? 3 : 2;
    }
    return true;
}

typedef struct vctx {
    const ir_module *m;
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
    if (cw == IR_TC_PRED || ch == IR_TC_PRED) return cw == ch;
    if (cw == IR_TC_OPAQUE || ch == IR_TC_OPAQUE) return cw == ch || ch == IR_TC_BITS || ch == IR_TC_UINT;
    unsigned sw = ir_type_bytes[want], sh = ir_type_bytes[have];
    if (ch == IR_TC_FLOAT && cw != IR_TC_BITS) relaxed = false; /* a float register is read and written whole */
    if (relaxed ? sh < sw : sh != sw) return false;
    if (cw == IR_TC_BITS || ch == IR_TC_BITS) return true;
    bool iw = cw == IR_TC_UINT || cw == IR_TC_SINT, ih = ch == IR_TC_UINT || ch == IR_TC_SINT;
    if (iw && ih) return true;
    /* packed half types (f16x2 ...) live in 32-bit registers of any class */
    if (cw == IR_TC_FLOAT && ch == IR_TC_FLOAT) return relaxed ? true : sw == sh;
    return false;
}

/* the bytes a special register holds (%tid.x: 4, %clock64: 8) */
static unsigned sreg_bytes(unsigned sreg) {
    switch (sreg) {
    case IR_SREG_CLOCK64:
    case IR_SREG_GLOBALTIMER:
    case IR_SREG_GRIDID:
    case IR_SREG_PM64:
    case IR_SREG_CURRENT_GRAPH_EXEC: return 8;
    }
    return 4;
}

static bool legacy_16bit_sreg(unsigned sreg) {
    return sreg == IR_SREG_TID || sreg == IR_SREG_NTID || sreg == IR_SREG_CTAID || sreg == IR_SREG_NCTAID;
}

static void mismatch(vctx *c, const ir_operand *o, unsigned pos, const char *what, ir_type want) {
    fe_diag_add(c->d, o->loc, false, "operand %u of '%s': %s where .%s is expected", pos + 1, c->mn, what,
                ir_type_name[want]);
}

/* a constant operand: typed like the instruction (see the top of the file) */
static void check_imm(vctx *c, const ir_operand *o, ir_type want, unsigned pos) {
    int cw = ir_type_class_of[want];
    unsigned sw = ir_type_bytes[want];
    bool half = want == IR_T_F16 || want == IR_T_BF16 || want == IR_T_F16X2 || want == IR_T_BF16X2;
    if (half) mismatch(c, o, pos, "a constant", want);
    else if (o->kind == IR_OPND_IMM_INT && cw == IR_TC_FLOAT && (want == IR_T_F32 || want == IR_T_F64))
        mismatch(c, o, pos, "an integer constant", want);
    else if (o->kind != IR_OPND_IMM_INT && (cw == IR_TC_UINT || cw == IR_TC_SINT || cw == IR_TC_PRED))
        mismatch(c, o, pos, "a floating-point constant", want);
    else if (o->kind != IR_OPND_IMM_INT && cw == IR_TC_BITS && sw != (o->kind == IR_OPND_IMM_F32 ? 4u : 8u))
        mismatch(c, o, pos,
                 o->kind == IR_OPND_IMM_F32 ? "a 32-bit floating-point constant" : "a 64-bit floating-point constant",
                 want);
}

static void check_value(vctx *c, const ir_operand *o, ir_type want, bool relaxed, unsigned pos) {
    if (want == IR_T_NONE) return;
    switch (o->kind) {
    case IR_OPND_VEC:
        for (uint32_t i = 0; i < o->nsub; i++) check_value(c, &o->sub[i], want, relaxed, pos);
        return;
    case IR_OPND_PAIR: /* setp's p|q, shfl's d|p: the second is a predicate */
        check_value(c, &o->sub[0], want, relaxed, pos);
        check_value(c, &o->sub[1], IR_T_PRED, false, pos);
        return;
    case IR_OPND_VAR: /* window spaces' (.shared, .local ...) addresses fit 32 bits */
        if (c->m->address_size != 32 && ir_type_bytes[want] == 4 && o->var->space == IR_SPACE_GLOBAL)
            fe_diag_add(c->d, o->loc, false, "operand %u of '%s': the address of '%s' has 64 bits, not 32", pos + 1,
                        c->mn, o->var->name);
        return;
    case IR_OPND_IMM_INT:
    case IR_OPND_IMM_F32:
    case IR_OPND_IMM_F64: check_imm(c, o, want, pos); return;
    case IR_OPND_SREG: {
        unsigned sb = sreg_bytes(o->sreg), sw = ir_type_bytes[want];
        int cw = ir_type_class_of[want];
        if (cw == IR_TC_FLOAT || cw == IR_TC_PRED || cw == IR_TC_OPAQUE ||
            (sw != sb && !(sw == 2 && legacy_16bit_sreg(o->sreg)))) {
            char nm[48];
            fe_diag_add(c->d, o->loc, false, "operand %u of '%s': special register '%s' holds .u%u, not .%s", pos + 1,
                        c->mn, fe_sreg_text(o, nm, sizeof nm), sb * 8, ir_type_name[want]);
        }
        return;
    }
    case IR_OPND_REG: break;
    default: return;
    }
    if (o->sel) return;
    const ir_reg *r = &c->f->regs[o->reg];
    if (r->vec > 1) return;
    if (!compatible(want, (ir_type)r->type, relaxed))
        fe_diag_add(c->d, o->loc, false, "operand %u of '%s': register '%s' of type .%s does not match .%s", pos + 1,
                    c->mn, r->name, ir_type_name[r->type], ir_type_name[want]);
}

static bool kind_ok(int k, const ir_operand *o) {
    switch (k) {
    case K_DST:
        return o->kind == IR_OPND_REG || o->kind == IR_OPND_SINK || o->kind == IR_OPND_VEC || o->kind == IR_OPND_PAIR;
    case K_SRC:
        return o->kind != IR_OPND_ADDR && o->kind != IR_OPND_LIST && o->kind != IR_OPND_SINK &&
               o->kind != IR_OPND_VAR && o->kind != IR_OPND_FUNC && o->kind != IR_OPND_LABEL;
    case K_VAL:
        return o->kind != IR_OPND_ADDR && o->kind != IR_OPND_LIST && o->kind != IR_OPND_SINK &&
               o->kind != IR_OPND_LABEL;
    case K_ADDR: return o->kind == IR_OPND_ADDR || o->kind == IR_OPND_VAR;
    case K_LABEL: return o->kind == IR_OPND_LABEL;
    }
    return true;
}

/* the state space an ld/st/atom/red names, IR_SPACE_NONE for generic */
static int insn_space(const ir_insn *in) {
    static const struct {
        uint16_t mod;
        uint8_t space;
    } map[] = {
        {IR_MOD_GLOBAL, IR_SPACE_GLOBAL},     {IR_MOD_SHARED, IR_SPACE_SHARED},
        {IR_MOD_SHARED_CTA, IR_SPACE_SHARED}, {IR_MOD_SHARED_CLUSTER, IR_SPACE_SHARED},
        {IR_MOD_LOCAL, IR_SPACE_LOCAL},       {IR_MOD_CONST, IR_SPACE_CONST},
        {IR_MOD_PARAM, IR_SPACE_PARAM},       {IR_MOD_PARAM_ENTRY, IR_SPACE_PARAM},
        {IR_MOD_PARAM_FUNC, IR_SPACE_PARAM},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (ir_has_mod(in, map[i].mod)) return map[i].space;
    return IR_SPACE_NONE;
}

static bool is_param_of(const ir_var *v, const ir_func *f) {
    for (uint32_t i = 0; i < f->nparams; i++)
        if (f->params[i] == v) return true;
    return false;
}

/* the address operand of ld/st/atom/red: the state space the instruction
 * names against those its SPACES column allows and the variable's, what may
 * form an address, where it may write */
static void check_address(vctx *c, const ir_operand *o) {
    int space = insn_space(c->in);
    unsigned allowed = ir_opcode_info[c->in->op].spaces;
    bool writes = c->in->op != IR_OP_LD && c->in->op != IR_OP_LDU;
    if (space != IR_SPACE_NONE && allowed && !((allowed >> space) & 1)) {
        if (space == IR_SPACE_CONST)
            fe_diag_add(c->d, c->in->loc, false, "'%s' cannot write to the .const state space", c->mn);
        else
            fe_diag_add(c->d, c->in->loc, false, "'%s' does not operate on the .%s state space",
                        ir_opcode_name[c->in->op], ir_space_name[space]);
    }
    if (o->kind != IR_OPND_ADDR || o->nsub != 1) return;
    const ir_operand *b = &o->sub[0];
    if (b->kind == IR_OPND_VAR) {
        const ir_var *v = b->var;
        if (space != IR_SPACE_NONE && v->space != space)
            fe_diag_add(c->d, o->loc, false, "'%s' addresses '%s', which is in .%s, not .%s", c->mn, v->name,
                        ir_space_name[v->space], ir_space_name[space]);
        else if (writes && v->space == IR_SPACE_PARAM && c->f->is_entry && is_param_of(v, c->f))
            fe_diag_add(c->d, o->loc, false, "'%s' writes to kernel parameter '%s', which is read-only", c->mn,
                        v->name);
    } else if (b->kind == IR_OPND_IMM_INT && space != IR_SPACE_LOCAL) {
        fe_diag_add(c->d, b->loc, false, "an immediate address is allowed only in the .local state space");
    } else if (b->kind == IR_OPND_REG && !b->sel) {
        const ir_reg *r = &c->f->regs[b->reg];
        int cls = ir_type_class_of[r->type];
        if (r->vec > 1 || (cls != IR_TC_BITS && cls != IR_TC_UINT && cls != IR_TC_SINT))
            fe_diag_add(c->d, b->loc, false,
                        "register '%s' of type .%s cannot hold an address (integer or bit types only)", r->name,
                        ir_type_name[r->type]);
        else if (ir_type_bytes[r->type] < 8 && c->m->address_size != 32 &&
                 (space == IR_SPACE_NONE || space == IR_SPACE_GLOBAL))
            fe_diag_add(c->d, b->loc, false, "a %s address needs a 64-bit register under .address_size 64, not '%s'",
                        space == IR_SPACE_NONE ? "generic" : ".global", r->name);
    }
}

/* size of the registers among a vector's elements; 0 for none, -1 when they differ */
static int vec_elem_bytes(vctx *c, const ir_operand *o) {
    int bytes = 0;
    for (uint32_t i = 0; i < o->nsub; i++) {
        const ir_operand *e = &o->sub[i];
        if (e->kind != IR_OPND_REG || e->sel) continue;
        const ir_reg *r = &c->f->regs[e->reg];
        int b = r->type == IR_T_PRED ? -2 : (int)ir_type_bytes[r->type] * (r->vec ? r->vec : 1);
        if (bytes && b != bytes) return -1;
        bytes = b;
    }
    return bytes;
}

/* the data operand of ld/ldu/st: a vector of N elements exactly when .vN is named */
static void check_ldst_vector(vctx *c, const ir_operand *o, unsigned pos) {
    unsigned n = ir_has_mod(c->in, IR_MOD_V2)   ? 2
                 : ir_has_mod(c->in, IR_MOD_V4) ? 4
                 : ir_has_mod(c->in, IR_MOD_V8) ? 8
                                                : 0;
    /* ptxas takes {%r} as %r, and Triton writes it */
    bool vec = o->kind == IR_OPND_VEC && !(n == 0 && o->nsub == 1);
    if (n && !vec)
        fe_diag_add(c->d, o->loc, false, "operand %u of '%s' must be a vector of %u elements", pos + 1, c->mn, n);
    else if (vec && o->nsub != n)
        fe_diag_add(c->d, o->loc, false, "operand %u of '%s' has %u elements, but the instruction %s", pos + 1, c->mn,
                    o->nsub,
                    n == 2   ? "names .v2"
                    : n == 4 ? "names .v4"
                    : n == 8 ? "names .v8"
                             : "takes a scalar");
    else if (vec && vec_elem_bytes(c, o) < 0)
        fe_diag_add(c->d, o->loc, false, "the elements of a vector operand must all have the same size");
}

/* mov.bN d, {a, b}: the elements are N bits together (and the other way round) */
static void check_mov_vector(vctx *c, const ir_operand *o) {
    ir_type t = c->in->ntypes ? (ir_type)c->in->types[0] : IR_T_NONE;
    int bytes = vec_elem_bytes(c, o);
    if (o->nsub != 2 && o->nsub != 4)
        fe_diag_add(c->d, o->loc, false, "a vector operand has 2 or 4 elements here, not %u", o->nsub);
    else if (bytes < 0)
        fe_diag_add(c->d, o->loc, false, "the elements of a vector operand must all have the same size");
    else if (ir_type_class_of[t] != IR_TC_BITS)
        fe_diag_add(c->d, o->loc, false, "'%s' cannot pack or unpack a vector: use a .b%u type", c->mn,
                    ir_type_bytes[t] * 8);
    else if (bytes && (unsigned)bytes * o->nsub != ir_type_bytes[t])
        fe_diag_add(c->d, o->loc, false, "%u elements of %u bits do not make the %u bits of '%s'", o->nsub, bytes * 8,
                    ir_type_bytes[t] * 8, c->mn);
}

/* The PTX ISA version from which on ptxas enforces the table's ISA and SM. */
enum { NEWER_CHECKED_FROM = 70 };

/* The instruction against the module's .version and .target. */
static void check_newer(const ir_module *m, const ir_insn *in, fe_diags *d) {
    const ir_opinfo *info = &ir_opcode_info[in->op];
    unsigned ver = m->version_major * 10 + m->version_minor;
    if (info->isa < NEWER_CHECKED_FROM) return;
    if (m->version_major && ver < info->isa)
        fe_diag_add(d, in->loc, false, "'%s' needs PTX ISA %u.%u or later, not .version %u.%u", ir_opcode_name[in->op],
                    info->isa / 10, info->isa % 10, m->version_major, m->version_minor);
    if (m->sm && m->sm < info->sm)
        fe_diag_add(d, in->loc, false, "'%s' needs .target sm_%u or later, not sm_%u", ir_opcode_name[in->op],
                    info->sm, m->sm);
}

static const char *const kind_word[] = {"",           "a register", "a register or constant",
                                        "an address", "a label",    "a register, constant or symbol"};

static void check_insn(const ir_module *m, const ir_func *f, const ir_insn *in, fe_diags *d) {
    char mn[128];
    ir_insn_mnemonic(in, mn, sizeof mn);
    check_newer(m, in, d);
    fe_check_form(in, mn, d);
    /* call [(ret),] target [, (params)]: kernels are launched, never called
     * ["Illegal call target, device function expected"] */
    for (uint32_t i = 0; in->op == IR_OP_CALL && i < in->nopnds; i++)
        if (in->opnds[i].kind == IR_OPND_FUNC && in->opnds[i].func->is_entry)
            fe_diag_add(d, in->opnds[i].loc, false, "'%s' is a kernel: only .func functions can be called",
                        in->opnds[i].func->name);
    const rule *r = rule_of[in->op];
    if (!r) return;
    vctx c = {m, f, in, d, {0}};
    memcpy(c.mn, mn, sizeof mn);
    if (in->nopnds < r->min || in->nopnds > r->max) {
        if (r->min == r->max)
            fe_diag_add(d, in->loc, false, "'%s' takes %u operand%s, not %u", c.mn, r->min, r->min == 1 ? "" : "s",
                        in->nopnds);
        else fe_diag_add(d, in->loc, false, "'%s' takes %u to %u operands, not %u", c.mn, r->min, r->max, in->nopnds);
        return;
    }
    /* forms whose operand shapes differ from the plain one */
    if (ir_has_mod(in, IR_MOD_ASYNC)) /* st.async, red.async: an mbarrier address too */
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
        if (o->kind == IR_OPND_SREG && in->op != IR_OP_MOV && in->op != IR_OP_CVT) {
            char nm[48];
            fe_diag_add(d, o->loc, false, "special register '%s' can be read only by mov and cvt",
                        fe_sreg_text(o, nm, sizeof nm));
            continue;
        }
        if (r->kind[i] == K_ADDR) check_address(&c, o);
        if ((in->op == IR_OP_LD || in->op == IR_OP_LDU || in->op == IR_OP_ST) && r->type[i] == T_I0)
            check_ldst_vector(&c, o, i);
        if (in->op == IR_OP_MOV && o->kind == IR_OPND_VEC) check_mov_vector(&c, o);
        ir_type want = IR_T_NONE;
        switch (r->type[i]) {
        case T_I0: want = in->ntypes ? (ir_type)in->types[0] : IR_T_NONE; break;
        case T_I1: want = in->ntypes > 1 ? (ir_type)in->types[1] : IR_T_NONE; break;
        case T_U32: want = IR_T_U32; break;
        case T_PRED: want = IR_T_PRED; break;
        case T_WIDE0:
            want = in->ntypes ? (ir_type)in->types[0] : IR_T_NONE;
            if (wide_form) want = wide(want);
            break;
        }
        /* ld/st/atom/red (an address in a state space): the data operands have
         * the one type suffix (ld.global.nc.v4.f32) */
        if (ir_opcode_info[in->op].spaces && r->type[i] == T_I0)
            want = in->ntypes == 1 ? (ir_type)in->types[0] : IR_T_NONE;
        if (!typed || (in->op == IR_OP_MOV && o->kind == IR_OPND_VEC)) continue;
        check_value(&c, o, want, r->relaxed, i);
    }
}

static pthread_once_t rules_once = PTHREAD_ONCE_INIT;
static void index_rules(void) {
    for (int op = 0; op < IR_OP__COUNT; op++)
        if (ir_opcode_info[op].operands[0] && parse_rule(ir_opcode_info[op].operands, &rules[op]))
            rule_of[op] = &rules[op];
}

void fe_validate(const ir_module *m, fe_diags *d) {
    pthread_once(&rules_once, index_rules);
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ir_func *f = m->funcs[fi];
        for (uint32_t k = 0; k < f->nbody; k++)
            if (f->body[k].kind == IR_ST_INSN) check_insn(m, f, &f->body[k].u.insn, d);
    }
}
