/* alu_core_int.c — integer, bit-manipulation, logic, shift and carry-chain
 * instructions. p[0] is the operand width in bits, p[1] 1 for signed types; the
 * remaining p[] are per family and named where they are set. */
#include "alu_core_impl.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

#define W(op) ((unsigned)(op)->p[0])
#define SG(op) ((op)->p[1])
static inline uint64_t zx(const alu_op *op, uint64_t v) { return v & alu_mask(W(op)); }
static inline int64_t sx(const alu_op *op, uint64_t v) { return alu_sext(v, W(op)); }
/* The operand as a mathematical integer of its type. */
static inline s128 ext(const alu_op *op, uint64_t v) { return SG(op) ? (s128)sx(op, v) : (s128)zx(op, v); }
static inline u128 prod(const alu_op *op, uint64_t a, uint64_t b) {
    return SG(op) ? (u128)((s128)sx(op, a) * sx(op, b)) : (u128)zx(op, a) * zx(op, b);
}
static inline uint64_t clamp_s(s128 v, unsigned w) {
    s128 hi = (s128)(alu_mask(w - 1)), lo = -hi - 1;
    return (uint64_t)(v > hi ? hi : v < lo ? lo : v) & alu_mask(w);
}

/* ---- arithmetic ---- */
ALU_FN(f_add) { d[0] = zx(op, s[0] + s[1]); }
ALU_FN(f_sub) { d[0] = zx(op, s[0] - s[1]); }
ALU_FN(f_add_sat) { d[0] = clamp_s(ext(op, s[0]) + ext(op, s[1]), W(op)); }
ALU_FN(f_sub_sat) { d[0] = clamp_s(ext(op, s[0]) - ext(op, s[1]), W(op)); }

/* mul/mad: p[2] = 0 lo, 1 hi, 2 wide; p[3] = 1 for mad. */
static inline u128 mul_part(const alu_op *op, const uint64_t *s) {
    u128 t = prod(op, s[0], s[1]);
    return op->p[2] == 1 ? t >> W(op) : t;
}
ALU_FN(f_mul) { d[0] = (uint64_t)mul_part(op, s) & alu_mask(W(op) << (op->p[2] == 2)); }
ALU_FN(f_mad) {
    unsigned w = W(op) << (op->p[2] == 2);
    d[0] = (uint64_t)(mul_part(op, s) + s[2]) & alu_mask(w);
}
ALU_FN(f_mad_hi_sat) { /* mad.hi.sat.s32: the high half as s32 plus c, saturated */

    int32_t hi = (int32_t)(uint32_t)(prod(op, s[0], s[1]) >> 32);
    d[0] = clamp_s((s128)hi + (int32_t)s[2], 32);
}
/* mad.cc / madc: adds c and the carry-in at the operand width, reports the carry-out. */
ALU_FN(f_madc) {
    unsigned w = W(op);
    u128 t = (mul_part(op, s) & alu_mask(w)) + (s[2] & alu_mask(w)) + (op->cc_in ? *cc : 0);
    d[0] = (uint64_t)t & alu_mask(w);
    if (op->cc_out) *cc = (uint32_t)(t >> w) & 1;
}
/* add.cc addc sub.cc subc: p[2] = 1 for subtraction, computed as a + ~b + CF
 * (CF = 1 when there is no carry-in), so the flag is a carry, not a borrow: it is
 * 1 when a - b does not wrap (measured on sm_90). */
ALU_FN(f_addc) {
    unsigned w = W(op);
    u128 a = s[0] & alu_mask(w), b = s[1] & alu_mask(w), c = op->cc_in ? *cc : op->p[2];
    if (op->p[2]) b = ~b & alu_mask(w);
    u128 t = a + b + c;
    d[0] = (uint64_t)t & alu_mask(w);
    if (op->cc_out) *cc = (uint32_t)(t >> w) & 1;
}

/* mul24/mad24: p[2] = 1 for .hi; p[3] = 0 mul, 1 mad, 2 mad.hi.sat. */
ALU_FN(f_mul24) {
    int64_t a = SG(op) ? alu_sext(s[0], 24) : (int64_t)(s[0] & 0xffffff);
    int64_t b = SG(op) ? alu_sext(s[1], 24) : (int64_t)(s[1] & 0xffffff);
    uint64_t t = (uint64_t)(a * b);
    uint32_t r = (uint32_t)(op->p[2] ? t >> 16 : t);
    if (op->p[3] == 2) d[0] = clamp_s((s128)(int32_t)r + (int32_t)s[2], 32);
    else d[0] = (uint32_t)(r + (op->p[3] ? (uint32_t)s[2] : 0));
}

ALU_FN(f_sad) {
    s128 x = ext(op, s[0]) - ext(op, s[1]);
    d[0] = zx(op, (uint64_t)(x < 0 ? -x : x) + s[2]);
}

/* Division by zero gives all ones for the quotient and for the remainder, signed
 * or not (measured on sm_90). INT_MIN / -1 wraps to INT_MIN, remainder 0. */
ALU_FN(f_div) {
    unsigned w = W(op);
    if (!SG(op)) {
        uint64_t a = zx(op, s[0]), b = zx(op, s[1]);
        d[0] = b ? a / b : alu_mask(w);
        return;
    }
    int64_t a = sx(op, s[0]), b = sx(op, s[1]);
    uint64_t ua = a < 0 ? -(uint64_t)a : (uint64_t)a, ub = b < 0 ? -(uint64_t)b : (uint64_t)b;
    if (!b) {
        d[0] = alu_mask(w);
        return;
    }
    uint64_t q = (ua & alu_mask(w)) / (ub & alu_mask(w));
    d[0] = zx(op, (a < 0) != (b < 0) ? -q : q);
}
ALU_FN(f_rem) {
    if (!SG(op)) {
        uint64_t a = zx(op, s[0]), b = zx(op, s[1]);
        d[0] = b ? a % b : alu_mask(W(op));
        return;
    }
    int64_t a = sx(op, s[0]), b = sx(op, s[1]);
    uint64_t ua = (a < 0 ? -(uint64_t)a : (uint64_t)a) & alu_mask(W(op));
    uint64_t ub = (b < 0 ? -(uint64_t)b : (uint64_t)b) & alu_mask(W(op));
    if (!ub) {
        d[0] = alu_mask(W(op));
        return;
    }
    uint64_t r = ua % ub;
    d[0] = zx(op, a < 0 ? -r : r);
}

ALU_FN(f_abs) {
    int64_t a = sx(op, s[0]);
    d[0] = zx(op, a < 0 ? -(uint64_t)a : (uint64_t)a);
}
ALU_FN(f_neg) { d[0] = zx(op, -s[0]); }
/* min/max: p[2] = 1 max, p[3] = 1 .relu (clamp the result at 0). */
static inline uint64_t minmax(const alu_op *op, uint64_t a, uint64_t b) {
    s128 x = ext(op, a), y = ext(op, b);
    s128 r = (op->p[2] ? x > y : x < y) ? x : y;
    if (op->p[3] && r < 0) r = 0;
    return zx(op, (uint64_t)r);
}
ALU_FN(f_minmax) { d[0] = minmax(op, s[0], s[1]); }
/* s16x2/u16x2: p[2] as for min/max, or 2 for add. */
ALU_FN(f_x2) {
    uint64_t r = 0;
    for (int h = 0; h < 32; h += 16) {
        uint64_t a = (s[0] >> h) & 0xffff, b = (s[1] >> h) & 0xffff;
        r |= (op->p[2] == 2 ? (a + b) & 0xffff : minmax(op, a, b)) << h;
    }
    d[0] = r;
}

/* ---- bits ---- */
ALU_FN(f_popc) { d[0] = __builtin_popcountll(zx(op, s[0])); }
ALU_FN(f_clz) {
    uint64_t a = zx(op, s[0]);
    d[0] = a ? __builtin_clzll(a) - (64 - W(op)) : W(op);
}
ALU_FN(f_brev) {
    uint64_t a = s[0], r = 0;
    for (unsigned i = 0; i < W(op); i++) r |= ((a >> i) & 1) << (W(op) - 1 - i);
    d[0] = r;
}
/* bfind: p[2] = 1 for .shiftamt. */
ALU_FN(f_bfind) {
    uint64_t a = zx(op, s[0]);
    if (SG(op) && sx(op, a) < 0) a = zx(op, ~a);
    if (!a) {
        d[0] = 0xffffffffu;
        return;
    }
    unsigned pos = 63 - __builtin_clzll(a);
    d[0] = op->p[2] ? W(op) - 1 - pos : pos;
}
ALU_FN(f_bfe) { d[0] = alu_bfe(s[0], (uint32_t)s[1], (uint32_t)s[2], W(op), SG(op)); }
ALU_FN(f_bfi) { d[0] = alu_bfi(s[0], s[1], (uint32_t)s[2], (uint32_t)s[3], W(op)); }
/* fns: position of the offset-th set bit of mask counting from base (upwards for
 * a positive offset, downwards for a negative one); 0xffffffff if there is none. */
ALU_FN(f_fns) {
    uint32_t mask = (uint32_t)s[0], base = (uint32_t)s[1];
    int32_t off = (int32_t)s[2];
    uint32_t r = 0xffffffffu;
    if (off == INT32_MIN) {
        d[0] = 0;
        return;
    } /* measured: not "not found" */
    if (base > 31) {
        d[0] = r;
        return;
    }
    if (off == 0) {
        if (mask >> base & 1) r = base;
    } else if (off > 0) {
        for (int i = (int)base; i < 32; i++)
            if ((mask >> i & 1) && --off == 0) {
                r = i;
                break;
            }
    } else {
        for (int i = (int)base; i >= 0; i--)
            if ((mask >> i & 1) && ++off == 0) {
                r = i;
                break;
            }
    }
    d[0] = r;
}
/* szext/bmsk: p[2] = 1 for .clamp (else .wrap). */
static inline unsigned bitcount(const alu_op *op, uint64_t v) {
    uint32_t b = (uint32_t)v;
    return op->p[2] ? (b > 32 ? 32 : b) : (b & 31);
}
ALU_FN(f_szext) {
    unsigned n = bitcount(op, s[1]);
    uint64_t a = s[0] & alu_mask(n);
    d[0] = (uint32_t)(n && SG(op) ? (uint64_t)alu_sext(a, n) : a);
}
ALU_FN(f_bmsk) { d[0] = (uint32_t)(alu_mask(bitcount(op, s[1])) << bitcount(op, s[0])); }
/* dp4a/dp2a: p[1] signedness of a, p[2] of b, p[3] = 0 dp4a, 1 dp2a.lo, 2 dp2a.hi. */
ALU_FN(f_dp) {
    int64_t acc = 0;
    unsigned n = op->p[3] ? 2 : 4, aw = op->p[3] ? 16 : 8, bo = op->p[3] == 2 ? 2 : 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = (s[0] >> (aw * i)) & alu_mask(aw), b = (s[1] >> (8 * (i + bo))) & 0xff;
        acc += (op->p[1] ? alu_sext(a, aw) : (int64_t)a) * (op->p[2] ? alu_sext(b, 8) : (int64_t)b);
    }
    d[0] = (uint32_t)(acc + (int64_t)(uint32_t)s[2]);
}

/* ---- logic and shifts ---- */
ALU_FN(f_and) { d[0] = zx(op, s[0] & s[1]); }
ALU_FN(f_or) { d[0] = zx(op, s[0] | s[1]); }
ALU_FN(f_xor) { d[0] = zx(op, s[0] ^ s[1]); }
ALU_FN(f_not) { d[0] = zx(op, ~s[0]); }
ALU_FN(f_cnot) { d[0] = zx(op, s[0]) == 0; }
ALU_FN(f_mov) { d[0] = zx(op, s[0]); }
ALU_FN(f_shl) {
    uint32_t n = (uint32_t)s[1];
    d[0] = n >= W(op) ? 0 : zx(op, s[0] << n);
}
ALU_FN(f_shr) {
    uint32_t n = (uint32_t)s[1];
    if (n >= W(op)) n = W(op) - 1 + !SG(op); /* signed: fill with the sign */
    d[0] = n >= W(op) ? 0 : zx(op, SG(op) ? (uint64_t)(sx(op, s[0]) >> n) : zx(op, s[0]) >> n);
}
ALU_FN(f_lop3) { d[0] = alu_lop3((uint32_t)s[0], (uint32_t)s[1], (uint32_t)s[2], (unsigned)s[3] & 0xff); }
/* shf: p[2] = 1 left, p[3] = 1 wrap. */
ALU_FN(f_shf) { d[0] = alu_shf((uint32_t)s[0], (uint32_t)s[1], (uint32_t)s[2], op->p[2], op->p[3]); }
/* prmt: p[2] = mode (0 general, 1..6 f4e b4e rc8 ecl ecr rc16). */
ALU_FN(f_prmt) { d[0] = alu_prmt((uint32_t)s[0], (uint32_t)s[1], (uint32_t)s[2], op->p[2]); }

/* ---- builder ---- */

typedef struct {
    uint16_t op; /* ir_opcode */
    alu_fn fn;
    uint8_t ns;     /* sources */
    uint8_t kinds;  /* allowed type kinds: bit 0 signed, 1 unsigned, 2 bits, 3 pred, 4 x2 */
    uint8_t widths; /* allowed widths: 1 = 16, 2 = 32, 4 = 64, 8 = 1 (pred) */
} int_form;

enum { KS = 1, KU = 2, KB = 4, KP = 8, KV = 16, KF = 32 };
enum { W16 = 1, W32 = 2, W64 = 4, WP = 8 };

static const int_form forms[] = {
    {IR_OP_ADD, f_add, 2, KS | KU | KV, W16 | W32 | W64},
    {IR_OP_SUB, f_sub, 2, KS | KU, W16 | W32 | W64},
    {IR_OP_MUL, f_mul, 2, KS | KU, W16 | W32 | W64},
    {IR_OP_MAD, f_mad, 3, KS | KU, W16 | W32 | W64},
    {IR_OP_MADC, f_madc, 3, KS | KU, W32 | W64},
    {IR_OP_ADDC, f_addc, 2, KS | KU, W32 | W64},
    {IR_OP_SUBC, f_addc, 2, KS | KU, W32 | W64},
    {IR_OP_MUL24, f_mul24, 2, KS | KU, W32},
    {IR_OP_MAD24, f_mul24, 3, KS | KU, W32},
    {IR_OP_SAD, f_sad, 3, KS | KU, W16 | W32 | W64},
    {IR_OP_DIV, f_div, 2, KS | KU, W16 | W32 | W64},
    {IR_OP_REM, f_rem, 2, KS | KU, W16 | W32 | W64},
    {IR_OP_ABS, f_abs, 1, KS, W16 | W32 | W64},
    {IR_OP_NEG, f_neg, 1, KS, W16 | W32 | W64},
    {IR_OP_MIN, f_minmax, 2, KS | KU | KV, W16 | W32 | W64},
    {IR_OP_MAX, f_minmax, 2, KS | KU | KV, W16 | W32 | W64},
    {IR_OP_POPC, f_popc, 1, KB, W32 | W64},
    {IR_OP_CLZ, f_clz, 1, KB, W32 | W64},
    {IR_OP_BREV, f_brev, 1, KB, W32 | W64},
    {IR_OP_BFIND, f_bfind, 1, KS | KU, W32 | W64},
    {IR_OP_BFE, f_bfe, 3, KS | KU, W32 | W64},
    {IR_OP_BFI, f_bfi, 4, KB, W32 | W64},
    {IR_OP_FNS, f_fns, 3, KB | KU | KS, W32},
    {IR_OP_SZEXT, f_szext, 2, KS | KU, W32},
    {IR_OP_BMSK, f_bmsk, 2, KB, W32},
    {IR_OP_AND, f_and, 2, KB | KP, W16 | W32 | W64 | WP},
    {IR_OP_OR, f_or, 2, KB | KP, W16 | W32 | W64 | WP},
    {IR_OP_XOR, f_xor, 2, KB | KP, W16 | W32 | W64 | WP},
    {IR_OP_NOT, f_not, 1, KB | KP, W16 | W32 | W64 | WP},
    {IR_OP_CNOT, f_cnot, 1, KB, W16 | W32 | W64},
    {IR_OP_SHL, f_shl, 2, KB, W16 | W32 | W64},
    {IR_OP_SHR, f_shr, 2, KB | KS | KU, W16 | W32 | W64},
    {IR_OP_LOP3, f_lop3, 4, KB, W32},
    {IR_OP_SHF, f_shf, 3, KB, W32},
    {IR_OP_PRMT, f_prmt, 3, KB, W32},
    {IR_OP_MOV, f_mov, 1, KB | KS | KU | KP | KF, W16 | W32 | W64 | WP},
};

static int kind_bit(int t) {
    switch (alu_tkind(t)) {
    case 's': return KS;
    case 'u': return KU;
    case 'b': return KB;
    case 'p': return KP;
    case 'v': return (t == T_s16x2 || t == T_u16x2) ? KV : 0;
    case 'f': return KF;
    default: return 0;
    }
}
static int width_bit(int t) {
    switch (alu_tbits(t)) {
    case 1: return WP;
    case 16: return W16;
    case 32: return W32;
    case 64: return W64;
    default: return 0;
    }
}

static const uint16_t hilo[] = {IR_MOD_LO, IR_MOD_HI, IR_MOD_WIDE, 0};
static const uint16_t wrapclamp[] = {IR_MOD_WRAP, IR_MOD_CLAMP, 0};
static const uint16_t lr[] = {IR_MOD_R, IR_MOD_L, 0};
static const uint16_t prmt_modes[] = {IR_MOD_F4E, IR_MOD_B4E, IR_MOD_RC8, IR_MOD_ECL, IR_MOD_ECR, IR_MOD_RC16, 0};

static int build_dp(int opc, alu_mn *m, alu_op *op) {
    if (m->nty != 2) return 0;
    int lohi = 0;
    if (opc == IR_OP_DP2A && (lohi = alu_take_any(m, hilo) + 1) < 1) return 0;
    if (lohi > 2) return 0;
    for (int i = 0; i < 2; i++)
        if (m->ty[i] != T_u32 && m->ty[i] != T_s32) return 0;
    op->fn = f_dp;
    op->p[1] = m->ty[0] == T_s32;
    op->p[2] = m->ty[1] == T_s32;
    op->p[3] = lohi;
    alu_shape(op, 1, T_u32, 3, T_u32);
    return 1;
}

int alu_build_int(int opc, alu_mn *m, alu_op *op) {
    if (opc == IR_OP_DP4A || opc == IR_OP_DP2A) return build_dp(opc, m, op);
    const int_form *f = NULL;
    for (unsigned i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (forms[i].op == opc) f = &forms[i];
    if (!f || m->nty != 1) return 0;
    int t = m->ty[0];
    if (!(kind_bit(t) & f->kinds) || !(width_bit(t) & f->widths)) return 0;
    if (alu_tkind(t) == 'v' && f->fn == f_mov) return 0;
    unsigned w = alu_tkind(t) == 'v' ? 16 : alu_tbits(t);
    op->fn = f->fn;
    op->p[0] = w;
    op->p[1] = alu_tkind(t) == 's' || t == T_s16x2;
    alu_shape(op, 1, t, f->ns, t);
    bool x2 = alu_tkind(t) == 'v';
    if (x2) op->fn = f_x2;

    if (f->fn == f_add || f->fn == f_sub || f->fn == f_addc) {
        bool sub = opc == IR_OP_SUB || opc == IR_OP_SUBC, chain = f->fn == f_addc;
        op->cc_out = alu_take(m, IR_MOD_CC);
        op->cc_in = chain;
        if (alu_take(m, IR_MOD_SAT)) {
            if (t != T_s32 || op->cc_out || chain) return 0;
            op->fn = sub ? f_sub_sat : f_add_sat;
        } else if (chain || op->cc_out) {
            if (w < 32) return 0;
            op->fn = f_addc;
            op->p[2] = sub;
        }
        if (x2) op->p[2] = 2;
    } else if (f->fn == f_mul || f->fn == f_mad || f->fn == f_madc) {
        int h = alu_take_any(m, hilo);
        if (h < 0 || (h == 2 && w == 64)) return 0;
        op->p[2] = h;
        op->p[3] = f->fn != f_mul;
        op->cc_in = f->fn == f_madc;
        op->cc_out = op->p[3] && alu_take(m, IR_MOD_CC);
        if (op->cc_in || op->cc_out) {
            if (h == 2 || w < 32) return 0;
            op->fn = f_madc;
        }
        if (alu_take(m, IR_MOD_SAT)) {
            if (f->fn != f_mad || h != 1 || t != T_s32 || op->cc_out) return 0;
            op->fn = f_mad_hi_sat;
        }
        if (h == 2) {
            op->dbytes[0] = 2 * w / 8;
            if (op->p[3]) op->sbytes[2] = 2 * w / 8;
        }
    } else if (f->fn == f_mul24) {
        int h = alu_take_any(m, hilo);
        if (h < 0 || h == 2) return 0;
        op->p[2] = h;
        op->p[3] = f->ns == 3;
        if (alu_take(m, IR_MOD_SAT)) {
            if (!op->p[3] || h != 1 || t != T_s32) return 0;
            op->p[3] = 2;
        }
    } else if (f->fn == f_minmax) {
        op->p[2] = opc == IR_OP_MAX;
        op->p[3] = alu_take(m, IR_MOD_RELU);
        if (op->p[3] && t != T_s32 && t != T_s16x2) return 0;
    } else if (f->fn == f_bfind) {
        op->p[2] = alu_take(m, IR_MOD_SHIFTAMT);
        op->dbytes[0] = 4;
    } else if (f->fn == f_popc || f->fn == f_clz) {
        op->dbytes[0] = 4;
    } else if (f->fn == f_bfe) {
        op->sbytes[1] = op->sbytes[2] = 4;
    } else if (f->fn == f_bfi) {
        op->sbytes[2] = op->sbytes[3] = 4;
    } else if (f->fn == f_shl || f->fn == f_shr) {
        op->sbytes[1] = 4;
    } else if (f->fn == f_szext || f->fn == f_bmsk) {
        int c = alu_take_any(m, wrapclamp);
        if (c < 0) return 0;
        op->p[2] = c;
    } else if (f->fn == f_shf) {
        int l = alu_take_any(m, lr), c = alu_take_any(m, wrapclamp);
        if (l < 0 || c < 0) return 0;
        op->p[2] = l;
        op->p[3] = !c;
    } else if (f->fn == f_prmt) {
        op->p[2] = alu_take_any(m, prmt_modes) + 1;
    } else if (f->fn == f_lop3) {
        op->sbytes[3] = 1; /* the truth table, an immediate */
    }
    return 1;
}
