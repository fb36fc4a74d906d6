/* alu_core_cmp.c — comparison and selection: setp (with .and/.or/.xor and the
 * p|q pair), set, selp, slct, testp. */
#include "alu_core_impl.h"

enum { EQ, NE, LT, LE, GT, GE, LO, LS, HI, HS, EQU, NEU, LTU, LEU, GTU, GEU, NUM, NAN_ };
static const uint16_t cmps[] = {IR_MOD_EQ,  IR_MOD_NE,  IR_MOD_LT,  IR_MOD_LE,  IR_MOD_GT,  IR_MOD_GE,  IR_MOD_LO,
                                IR_MOD_LS,  IR_MOD_HI,  IR_MOD_HS,  IR_MOD_EQU, IR_MOD_NEU, IR_MOD_LTU, IR_MOD_LEU,
                                IR_MOD_GTU, IR_MOD_GEU, IR_MOD_NUM, IR_MOD_NAN, 0};
static const uint16_t bops[] = {IR_MOD_AND, IR_MOD_OR, IR_MOD_XOR, 0};

/* p[0] = comparison, p[1] = source type, p[2] = 0 none / 1 and / 2 or / 3 xor,
 * p[3] = bit 0 .ftz, bit 1 float destination (set). */
static bool compare(const alu_op *op, uint64_t a, uint64_t b) {
    int t = op->p[1], c = op->p[0];
    if (alu_tkind(t) != 'f') {
        unsigned w = alu_tbits(t);
        bool sg = alu_tkind(t) == 's';
        int64_t x = sg ? alu_sext(a, w) : 0, y = sg ? alu_sext(b, w) : 0;
        uint64_t ux = a & alu_mask(w), uy = b & alu_mask(w);
        bool lt = sg ? x < y : ux < uy, eq = ux == uy;
        switch (c) {
        case EQ: return eq;
        case NE: return !eq;
        case LT:
        case LO: return lt;
        case LE:
        case LS: return lt || eq;
        case GT:
        case HI: return !lt && !eq;
        default: return !lt;
        }
    }
    double x, y;
    if (t == T_f32) {
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
        if (op->p[3] & 1) {
            ua = alu_ftz32(ua);
            ub = alu_ftz32(ub);
        }
        x = alu_f32(ua);
        y = alu_f32(ub);
    } else {
        x = alu_f64(a);
        y = alu_f64(b);
    }
    bool un = x != x || y != y;
    switch (c) {
    case EQ: return !un && x == y;
    case NE: return !un && x != y;
    case LT: return !un && x < y;
    case LE: return !un && x <= y;
    case GT: return !un && x > y;
    case GE: return !un && x >= y;
    case EQU: return un || x == y;
    case NEU: return un || x != y;
    case LTU: return un || x < y;
    case LEU: return un || x <= y;
    case GTU: return un || x > y;
    case GEU: return un || x >= y;
    case NUM: return !un;
    default: return un;
    }
}
static inline bool combine(const alu_op *op, bool r, uint64_t c) {
    switch (op->p[2]) {
    case 1: return r && c;
    case 2: return r || c;
    case 3: return r != (c != 0);
    default: return r;
    }
}
ALU_FN(f_setp) {
    bool r = compare(op, s[0], s[1]);
    uint64_t c = alu_src(op, s, 2);
    d[0] = combine(op, r, c);
    if (op->nd == 2) d[1] = combine(op, !r, c);
}
ALU_FN(f_set) {
    bool r = combine(op, compare(op, s[0], s[1]), alu_src(op, s, 2));
    d[0] = r ? (op->p[3] & 2 ? 0x3f800000u : 0xffffffffu) : 0;
}
ALU_FN(f_selp) { d[0] = s[2] ? s[0] : s[1]; }
/* slct: a when c >= 0 (c as s32 or f32; -0 counts as >= 0, NaN does not). */
ALU_FN(f_slct) {
    bool ge;
    if (op->p[1] == T_f32) {
        uint32_t c = op->p[3] & 1 ? alu_ftz32((uint32_t)s[2]) : (uint32_t)s[2];
        ge = alu_f32(c) >= 0.0f;
    } else {
        ge = (int32_t)s[2] >= 0;
    }
    d[0] = ge ? s[0] : s[1];
}
/* testp: p[0] = class. */
ALU_FN(f_testp) {
    bool f64 = op->p[1] == T_f64;
    uint64_t v = f64 ? s[0] & ~(1ull << 63) : s[0] & 0x7fffffffu;
    uint64_t inf = f64 ? 0x7ff0000000000000ull : 0x7f800000u;
    uint64_t minn = f64 ? 1ull << 52 : 1u << 23;
    bool r;
    switch (op->p[0]) {
    case 0: r = v < inf; break;                      /* finite */
    case 1: r = v == inf; break;                     /* infinite */
    case 2: r = v <= inf; break;                     /* number */
    case 3: r = v > inf; break;                      /* notanumber */
    case 4: r = (v >= minn || !v) && v < inf; break; /* normal: zero counts (measured) */
    default: r = v && v < minn; break;               /* subnormal */
    }
    d[0] = r;
}

static int build_cmp(int opc, alu_mn *m, alu_op *op) {
    bool set = opc == IR_OP_SET;
    int c = alu_take_any(m, cmps), b = alu_take_any(m, bops) + 1;
    bool ftz = alu_take(m, IR_MOD_FTZ);
    if (c < 0 || m->nty != 1u + set) return 0;
    int st = m->ty[set], dt = set ? m->ty[0] : T_pred;
    char k = alu_tkind(st);
    if (k == 'p' || k == 'v' || (k == 'f' && st != T_f32 && st != T_f64)) return 0;
    if (k == 'f' ? (c >= LO && c <= HS) : c >= EQU) return 0;
    if (k == 'b' && c != EQ && c != NE) return 0;
    if (k == 's' && c >= LO && c <= HS) return 0;
    if (ftz && st != T_f32) return 0;
    if (set && dt != T_u32 && dt != T_s32 && dt != T_f32) return 0;
    unsigned nd = set ? 1 : (m->nopnds == 2u + 2 + (b > 0) ? 2 : 1);
    op->fn = set ? f_set : f_setp;
    op->p[0] = c;
    op->p[1] = st;
    op->p[2] = b;
    op->p[3] = ftz | (dt == T_f32) << 1;
    alu_shape(op, nd, dt, 2 + (b > 0), st);
    if (b) op->sbytes[2] = 0;
    return 1;
}

int alu_build_cmp(int opc, alu_mn *m, alu_op *op) {
    if (opc == IR_OP_SETP || opc == IR_OP_SET) return build_cmp(opc, m, op);
    if (opc == IR_OP_SELP) {
        if (m->nty != 1 || alu_tkind(m->ty[0]) == 'p') return 0;
        op->fn = f_selp;
        alu_shape(op, 1, m->ty[0], 3, m->ty[0]);
        op->sbytes[2] = 0;
        return 1;
    }
    if (opc == IR_OP_SLCT) {
        bool ftz = alu_take(m, IR_MOD_FTZ);
        if (m->nty != 2 || (m->ty[1] != T_s32 && m->ty[1] != T_f32) || (ftz && m->ty[1] != T_f32)) return 0;
        if (alu_tkind(m->ty[0]) == 'p' || alu_tkind(m->ty[0]) == 'v') return 0;
        op->fn = f_slct;
        op->p[1] = m->ty[1];
        op->p[3] = ftz;
        alu_shape(op, 1, m->ty[0], 3, m->ty[0]);
        op->sbytes[2] = 4;
        return 1;
    }
    if (opc == IR_OP_TESTP) {
        static const uint16_t cls[] = {
            IR_MOD_FINITE, IR_MOD_INFINITE, IR_MOD_NUMBER, IR_MOD_NOTANUMBER, IR_MOD_NORMAL, IR_MOD_SUBNORMAL, 0};
        int c = alu_take_any(m, cls);
        if (c < 0 || m->nty != 1 || (m->ty[0] != T_f32 && m->ty[0] != T_f64)) return 0;
        op->fn = f_testp;
        op->p[0] = c;
        op->p[1] = m->ty[0];
        alu_shape(op, 1, T_pred, 1, m->ty[0]);
        return 1;
    }
    return 0;
}
