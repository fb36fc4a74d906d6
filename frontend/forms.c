/* forms.c — which types and modifiers an instruction may combine, as ptxas 13
 * enforces the PTX ISA's instruction syntax: the types each opcode takes
 * ("Unexpected instruction types specified"), the rounding modifiers that
 * must or must not be there ("Rounding modifier required", "Illegal rounding
 * modifier"), .approx where only approximations exist, .sat where it applies.
 * The type sets were read off ptxas 13.0 for every type of ir.h. What each
 * opcode takes is its row of opcodes.def: TYPES (narrowed below for some
 * modifiers) and ROUND, the rule its rounding and .approx follow. */
#include "fe.h"

/* The types of an opcode's single type suffix are the TYPES column of
 * opcodes.def; these entries narrow them for the forms with a modifier
 * (mul.lo). */
static const struct form {
    uint16_t op, mod;
    uint64_t types;
} forms[] = {
    {IR_OP_MUL, IR_MOD_LO, TY_INT},
    {IR_OP_MUL, IR_MOD_HI, TY_INT},
    {IR_OP_MUL, IR_MOD_WIDE, TY(U16) | TY(U32) | TY(S16) | TY(S32)},
    {IR_OP_MAD, IR_MOD_LO, TY_INT},
    {IR_OP_MAD, IR_MOD_HI, TY_INT},
    {IR_OP_MAD, IR_MOD_WIDE, TY(U16) | TY(U32) | TY(S16) | TY(S32)},
    {IR_OP_DIV, IR_MOD_FULL, TY(F32)},
};

static const uint16_t frnd[] = {IR_MOD_RN, IR_MOD_RZ, IR_MOD_RM, IR_MOD_RP, IR_MOD_RNA, IR_MOD_RS};
static const uint16_t irnd[] = {IR_MOD_RNI, IR_MOD_RZI, IR_MOD_RMI, IR_MOD_RPI};

/* the first of `set` that the instruction has, IR_MOD_NONE for none */
static int first_of(const ir_insn *in, const uint16_t *set, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (ir_has_mod(in, (ir_mod)set[i])) return set[i];
    return IR_MOD_NONE;
}
#define FIRST_OF(in, set) first_of(in, set, sizeof set / sizeof set[0])

static bool check_types(const ir_insn *in, const char *mn, fe_diags *d) {
    if (in->ntypes != 1) return true;
    uint64_t types = ir_opcode_info[in->op].types;
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (forms[i].op == in->op && ir_has_mod(in, (ir_mod)forms[i].mod)) {
            types = forms[i].types;
            break;
        }
    if (types && !((types >> in->types[0]) & 1)) {
        fe_diag_add(d, in->loc, false, "'%s' does not take type .%s", mn, ir_type_name[in->types[0]]);
        return false;
    }
    return true;
}

enum { RND_NONE, RND_FLOAT, RND_INT }; /* what a conversion must, or may, round with */

/* cvt between scalar types: ISA 9.7.9.21's rules on rounding modifiers */
static void check_cvt(const ir_insn *in, const char *mn, fe_diags *d) {
    static const uint64_t scalar = TY_INT | TY(U8) | TY(S8) | TY(F16) | TY(BF16) | TY_FLT;
    if (in->ntypes != 2 || in->nopnds != 2 || !((scalar >> in->types[0]) & 1) || !((scalar >> in->types[1]) & 1))
        return;
    ir_type dt = (ir_type)in->types[0], st = (ir_type)in->types[1];
    bool df = ir_type_class_of[dt] == IR_TC_FLOAT, sf = ir_type_class_of[st] == IR_TC_FLOAT;
    int need = RND_NONE, may = RND_NONE;
    if (df && sf && ir_type_bytes[dt] < ir_type_bytes[st]) need = may = RND_FLOAT;
    else if (df && sf && dt == st) may = RND_INT;                                 /* round to an integral value */
    else if (df && sf && ir_type_bytes[dt] == ir_type_bytes[st]) may = RND_FLOAT; /* f16 <-> bf16 */
    else if (df && !sf) need = may = RND_FLOAT;
    else if (!df && sf) need = may = RND_INT;
    int fr = FIRST_OF(in, frnd), ir = FIRST_OF(in, irnd);
    if (fr == IR_MOD_RNA || fr == IR_MOD_RS || (fr && may != RND_FLOAT) || (ir && may != RND_INT))
        fe_diag_add(d, in->loc, false, "rounding modifier '.%s' is not allowed in '%s'", ir_mod_name[fr ? fr : ir], mn);
    else if (need == RND_FLOAT && !fr)
        fe_diag_add(d, in->loc, false, "'%s' needs a rounding modifier (.rn, .rz, .rm or .rp)", mn);
    else if (need == RND_INT && !ir)
        fe_diag_add(d, in->loc, false, "'%s' needs an integer rounding modifier (.rni, .rzi, .rmi or .rpi)", mn);
}

/* what the floating-point instructions demand of rounding and .approx, from
 * their rule (FE_RND_*) and type */
enum { M_ANY, M_RND, M_RND_OR_APPROX, M_APPROX };

static void check_modes(const ir_insn *in, const char *mn, fe_diags *d) {
    int rule = ir_opcode_info[in->op].round; /* the ROUND column of opcodes.def */
    if (rule == FE_RND_CVT) {
        check_cvt(in, mn, d);
        return;
    }
    if (rule == FE_RND_NONE || in->ntypes != 1) return;
    ir_type t = (ir_type)in->types[0];
    bool flt = ir_type_class_of[t] == IR_TC_FLOAT, f64 = t == IR_T_F64, approx = ir_has_mod(in, IR_MOD_APPROX);
    int fr = FIRST_OF(in, frnd), ir = FIRST_OF(in, irnd), need = M_ANY;
    switch (rule) {
    case FE_RND_FREE: break;
    case FE_RND_FLOAT: need = flt ? M_RND : M_ANY; break;
    case FE_RND_DIV: need = !flt ? M_ANY : f64 ? M_RND : M_RND_OR_APPROX; break;
    case FE_RND_RCP:
        need = flt ? M_RND_OR_APPROX : M_ANY;
        if (approx && f64 && !ir_has_mod(in, IR_MOD_FTZ)) {
            fe_diag_add(d, in->loc, false, "'%s' needs .ftz", mn);
            return;
        }
        break;
    case FE_RND_APPROX: need = M_APPROX; break;
    }
    if (approx && (!flt || need == M_RND)) { /* only f32 (and rcp.f64) approximate */
        fe_diag_add(d, in->loc, false, "'.approx' is not allowed in '%s'", mn);
        return;
    }
    if (ir || (fr && (!flt || fr == IR_MOD_RNA || fr == IR_MOD_RS)))
        fe_diag_add(d, in->loc, false, "rounding modifier '.%s' is not allowed in '%s'", ir_mod_name[ir ? ir : fr], mn);
    else if (need == M_RND && !fr)
        fe_diag_add(d, in->loc, false, "'%s' needs a rounding modifier (.rn, .rz, .rm or .rp)", mn);
    else if (need == M_RND_OR_APPROX && !fr && !approx && !ir_has_mod(in, IR_MOD_FULL))
        fe_diag_add(d, in->loc, false, "'%s' needs a rounding modifier or .approx", mn);
    else if (need == M_APPROX && !approx) fe_diag_add(d, in->loc, false, "'%s' needs .approx", mn);
    /* .sat saturates floats to [0, 1] and, among integers, only s32 */
    if ((in->op == IR_OP_ADD || in->op == IR_OP_SUB) && ir_has_mod(in, IR_MOD_SAT) && !flt && t != IR_T_S32)
        fe_diag_add(d, in->loc, false, "'.sat' does not apply to type .%s in '%s'", ir_type_name[t], mn);
}

void fe_check_form(const ir_insn *in, const char *mn, fe_diags *d) {
    if (check_types(in, mn, d)) check_modes(in, mn, d);
}
