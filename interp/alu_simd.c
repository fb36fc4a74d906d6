/* alu_simd.c — SIMD and scalar video instructions (vadd2 ... vset4, vadd ... vmad,
 * vset) and the entry point alu_lookup_key_simd for every form of this family
 * (video, packed 16-bit integer, f16/bf16 arithmetic, half and fp8 conversions).
 *
 * Operand selectors. PTX writes selectors on operands (`vadd2.u32.u32.u32 %r1.h10,
 * %r2.h01, %r3.h32, %r4;`, `vmad.s32.s32.s32 %r0, -%r1.b2, %r2, -%r3;`); the key
 * carries them (alu_key.sel, .neg: d, a, b, c). No selector means the PTX default. */
#include "alu_simd_int.h"
#include <stdlib.h>

/* ------------------------------------------------------------ video helpers */

static const uint8_t SU[] = {IR_T_U32, IR_T_S32, 0};
static const uint16_t CMP6[] = {IR_MOD_EQ, IR_MOD_NE, IR_MOD_LT, IR_MOD_LE, IR_MOD_GT, IR_MOD_GE, 0};

static bool cmp6(int c, int64_t a, int64_t b) {
    switch (c) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
    }
}

static int64_t ext(uint64_t v, unsigned bits, bool sgn) {
    v &= bits == 64 ? ~0ull : (1ull << bits) - 1;
    if (sgn && bits < 64 && (v >> (bits - 1) & 1)) v |= ~0ull << bits;
    return (int64_t)v;
}

static int64_t clamp(int64_t v, unsigned bits, bool sgn) {
    int64_t lo = sgn ? -(1ll << (bits - 1)) : 0, hi = sgn ? (1ll << (bits - 1)) - 1 : (int64_t)((1ull << bits) - 1);
    return v < lo ? lo : v > hi ? hi : v;
}

/* --------------------------------------------------------- SIMD video (x2, x4) */

enum { V_ADD, V_SUB, V_AVRG, V_ABSDIFF, V_MIN, V_MAX, V_SET, V_SHL, V_SHR, V_MAD };
enum {
    F_DS = 1 << 8,
    F_AS = 1 << 9,
    F_BS = 1 << 10,
    F_SAT = 1 << 11,
    F_ADD = 1 << 12,
    F_N4 = 1 << 13,
    F_CLAMP = 1 << 14,
    F_PO = 1 << 15,
    F_NEGAB = 1 << 16,
    F_NEGC = 1 << 17
};

static int64_t vop(unsigned o, int cmp, int64_t a, int64_t b) {
    switch (o) {
    case V_ADD: return a + b;
    case V_SUB: return a - b;
    case V_AVRG: return a + b >= 0 ? (a + b + 1) >> 1 : (a + b) >> 1;
    case V_ABSDIFF: return a > b ? a - b : b - a;
    case V_MIN: return a < b ? a : b;
    case V_MAX: return a > b ? a : b;
    default: return cmp6(cmp, a, b);
    }
}

/* p[0]: op | cmp << 4 | F_*; p[1], p[2]: a/b lane sources (4 bits per lane,
 * indexes into the 2 or 4 lanes of {b, a}); p[3]: destination lane mask. */
static void simd_video(const alu_op *op, uint64_t *d, const uint64_t *s, uint32_t *cc) {
    (void)cc;
    unsigned f = op->p[0], n = f & F_N4 ? 4 : 2, w = 32 / n;
    uint64_t ab = (s[1] & 0xFFFFFFFFu) << 32 | (s[0] & 0xFFFFFFFFu);
    uint32_t c = (uint32_t)s[2], r = 0;
    int64_t acc = (int32_t)c;
    for (unsigned i = 0; i < n; i++) {
        int64_t va = ext(ab >> (w * (op->p[1] >> 4 * i & 15)), w, f & F_AS);
        int64_t vb = ext(ab >> (w * (op->p[2] >> 4 * i & 15)), w, f & F_BS);
        int64_t t = vop(f & 15, f >> 4 & 15, va, vb);
        if (f & F_SAT) t = clamp(t, w, f & F_DS);
        bool on = op->p[3] >> i & 1;
        if (f & F_ADD) acc += on ? t : 0;
        else r |= (on ? (uint32_t)t & (0xFFFFFFFFu >> (32 - w)) : c >> (w * i) & (0xFFFFFFFFu >> (32 - w))) << (w * i);
    }
    d[0] = f & F_ADD ? (uint32_t)acc : r;
}

/* A lane list selector (.h10, .b3210) into 4-bit fields, the last digit in the
 * lowest; -1 when it is not n digits of `half` kind, each at most maxv. */
static long lane_list(uint16_t sel, bool half, unsigned n, unsigned maxv) {
    if (!(sel & IR_SEL_HALF) != !half || IR_SEL_COUNT(sel) != n) return -1;
    long v = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned x = IR_SEL_DIGIT(sel, n - 1 - i);
        if (x > maxv) return -1;
        v |= (long)x << 4 * i;
    }
    return v;
}

/* .hN.. / .bN.. with the digits given, most significant first. */
#define SEL(half, n, digits) (uint16_t)((half ? IR_SEL_HALF : 0) | (n) << 12 | (digits))

static int lookup_simd_video(alu_mn *m, unsigned nopnds, alu_op *op, unsigned o, unsigned n) {
    static const uint16_t DEF_A[] = {SEL(1, 2, 1 << 3 | 0), SEL(0, 4, 3 << 9 | 2 << 6 | 1 << 3 | 0)};
    static const uint16_t DEF_B[] = {SEL(1, 2, 3 << 3 | 2), SEL(0, 4, 7 << 9 | 6 << 6 | 5 << 3 | 4)};
    bool half = n == 2;
    const alu_key *k = m->k;
    int bt = alu_take_type(m, SU), cmp = 0, at, dt = 0;
    if (o == V_SET) {
        if ((cmp = alu_take_any(m, CMP6)) < 0) return 0;
        at = alu_take_type(m, SU);
    } else {
        at = alu_take_type(m, SU);
        dt = alu_take_type(m, SU);
    }
    if (bt < 0 || at < 0 || dt < 0 || nopnds != 4 || k->sel[3] || k->neg) return 0;
    unsigned f = o | (unsigned)cmp << 4 | (dt ? F_DS : 0) | (at ? F_AS : 0) | (bt ? F_BS : 0) | (n == 4 ? F_N4 : 0);
    if (alu_take(m, IR_MOD_ADD)) f |= F_ADD;
    if (o != V_SET && alu_take(m, IR_MOD_SAT)) f |= F_SAT;
    if ((f & F_ADD) && (f & F_SAT)) return 0;
    long a = lane_list(k->sel[1] ? k->sel[1] : DEF_A[n == 4], half, n, 2 * n - 1);
    long b = lane_list(k->sel[2] ? k->sel[2] : DEF_B[n == 4], half, n, 2 * n - 1);
    unsigned mask = (1u << n) - 1;
    if (k->sel[0]) {
        if (!(k->sel[0] & IR_SEL_HALF) != !half) return 0;
        mask = 0;
        for (unsigned i = 0; i < IR_SEL_COUNT(k->sel[0]); i++) {
            unsigned x = IR_SEL_DIGIT(k->sel[0], i);
            if (x >= n || (mask >> x & 1)) return 0;
            mask |= 1u << x;
        }
    }
    if (a < 0 || b < 0 || !alu_done(m)) return 0;
    alu_shape_bytes(op, simd_video, "4", "444");
    op->p[0] = f, op->p[1] = (uint32_t)a, op->p[2] = (uint32_t)b, op->p[3] = mask;
    return 1;
}

/* ------------------------------------------------------------- scalar video */

/* Selector codes: 0 whole word, 1..4 bytes 0..3, 5..6 halves 0..1. */
static int64_t part(uint32_t x, unsigned sel, bool sgn) {
    if (sel == 0) return ext(x, 32, sgn);
    if (sel <= 4) return ext(x >> 8 * (sel - 1), 8, sgn);
    return ext(x >> 16 * (sel - 5), 16, sgn);
}

static unsigned sel_bits(unsigned sel) { return sel == 0 ? 32 : sel <= 4 ? 8 : 16; }

/* Bytes and the low half are shifted into place; the GPU takes .h1 straight
 * from the upper half of the result, unshifted. */
static uint32_t merge(unsigned dsel, uint32_t t, uint32_t c) {
    if (dsel == 0) return t;
    unsigned sh = dsel <= 4 ? 8 * (dsel - 1) : 0;
    uint32_t msk = dsel <= 4 ? 0xFFu << sh : dsel == 5 ? 0xFFFFu : 0xFFFF0000u;
    return (c & ~msk) | (t << sh & msk);
}

enum { OP2_NONE, OP2_ADD, OP2_MIN, OP2_MAX };

/* p[0]: op | cmp << 4 | F_*; p[1]: asel | bsel << 4 | dsel << 8; p[2]: op2;
 * p[3]: vmad right shift. */
static void scalar_video(const alu_op *op, uint64_t *d, const uint64_t *s, uint32_t *cc) {
    (void)cc;
    unsigned f = op->p[0], o = f & 15, asel = op->p[1] & 15, bsel = op->p[1] >> 4 & 15, dsel = op->p[1] >> 8 & 15;
    bool ds = f & F_DS;
    uint32_t c = op->ns > 2 ? (uint32_t)s[2] : 0;
    int64_t ta = part((uint32_t)s[0], asel, f & F_AS), tb = part((uint32_t)s[1], bsel, f & F_BS);
    __int128 t;
    if (o == V_SHL || o == V_SHR) {
        uint64_t sh = (uint64_t)tb;
        sh = f & F_CLAMP ? (sh > 32 ? 32 : sh) : sh & 31;
        t = o == V_SHL ? (__int128)((unsigned __int128)(__int128)ta << sh) : (__int128)(ta >> sh);
    } else if (o == V_MAD) {
        /* As recorded on the GPU: whole-word operands multiply as signed 32-bit
         * values whatever their type (selected bytes/halves follow the type), c is
         * signed, the scale shift is logical when the final type is unsigned, and
         * .sat clamps by the final type. */
        bool negp = f & F_NEGAB, negc = f & F_NEGC;
        ds = (f & (F_AS | F_BS)) || negp || negc;
        int64_t ma = asel ? ta : (int32_t)s[0], mb = bsel ? tb : (int32_t)s[1];
        __int128 prod = (__int128)ma * mb, cv = (int32_t)c;
        unsigned lsb = 0;
        if (f & F_PO) lsb = 1;
        else if (negp) prod = ~prod, lsb = 1;
        else if (negc) cv = ~cv, lsb = 1;
        int64_t r = (int64_t)(prod + cv + lsb);
        if (op->p[3]) r = ds ? r >> op->p[3] : (int64_t)((uint64_t)r >> op->p[3]);
        if (f & F_SAT) r = ds ? clamp(r, 32, true) : r < 0 ? 0 : r > 0xFFFFFFFFll ? 0xFFFFFFFFll : r;
        d[0] = (uint32_t)r;
        return;
    } else {
        t = vop(o, f >> 4 & 15, ta, tb);
    }
    /* .sat otherwise as the GPU does it: a full-word unsigned result clamps below at 0 but
     * wraps above; a full-word signed one clamps exactly; a byte/half result
     * clamps the low 34 bits of the exact value read as unsigned (so a negative
     * value saturates to the maximum). */
    if ((f & F_SAT) && (o == V_SHL || o == V_SHR)) {
        /* shifts: the low 34 bits read as signed, clamped to 32 bits even when a
         * byte or half is selected (which then takes the clamped value's low bits) */
        t = clamp(ext((uint64_t)t, 34, true), 32, ds);
    } else if (f & F_SAT) {
        if (dsel == 0) t = ds ? clamp((int64_t)t, 32, true) : t < 0 ? 0 : t;
        else t = clamp((int64_t)(t & (((__int128)1 << 34) - 1)), sel_bits(dsel), ds);
    }
    /* The secondary min/max compare as recorded on the GPU, against c extended
     * by the result's type: vadd/vsub results as 32-bit values (sign-extended to
     * 33 bits and read unsigned when the type is unsigned), the other ops' exact
     * results (their low 33 bits when unsigned; shifts: all of it). */
    if (o == V_SET) ds = f & F_AS; /* vset: min/max signedness follows .atype on the GPU */
    __int128 r = t, cv = ds ? (int32_t)c : (int64_t)c;
    if (op->p[2] == OP2_MIN || op->p[2] == OP2_MAX) {
        bool wrap32 = o == V_ADD || o == V_SUB;
        uint64_t m33 = 0x1FFFFFFFFull;
        if (ds) r = wrap32 ? (int32_t)r : r;
        else if (o != V_SHL && o != V_SHR) r = (int64_t)((wrap32 ? (uint64_t)(int64_t)(int32_t)r : (uint64_t)r) & m33);
    }
    switch (op->p[2]) {
    case OP2_ADD: r = r + cv; break;
    case OP2_MIN: r = r < cv ? r : cv; break;
    case OP2_MAX: r = r > cv ? r : cv; break;
    }
    d[0] = merge(dsel, (uint32_t)r, c);
}

/* Operand i's scalar selector (.b0 .. .b3, .h0, .h1: 1..6, none: 0); -1 if bad. */
static int scalar_sel(const alu_key *k, int i, bool *neg) {
    uint16_t s = k->sel[i];
    *neg = k->neg >> i & 1;
    if (!s) return 0;
    if (IR_SEL_COUNT(s) != 1) return -1;
    unsigned x = IR_SEL_DIGIT(s, 0);
    if (!(s & IR_SEL_HALF) && x <= 3) return 1 + (int)x;
    if (s & IR_SEL_HALF && x <= 1) return 5 + (int)x;
    return -1;
}

static int lookup_scalar_video(alu_mn *m, unsigned nopnds, alu_op *op, unsigned o) {
    static const uint16_t OP2[] = {IR_MOD_ADD, IR_MOD_MIN, IR_MOD_MAX, 0};
    static const uint8_t U32[] = {IR_T_U32, 0};
    int cmp = 0, bt, at, dt = 0;
    if (o == V_SET) {
        if ((cmp = alu_take_any(m, CMP6)) < 0) return 0;
        bt = alu_take_type(m, SU);
        at = alu_take_type(m, SU);
    } else {
        bt = alu_take_type(m, o == V_SHL || o == V_SHR ? U32 : SU);
        at = alu_take_type(m, SU);
        dt = alu_take_type(m, SU);
    }
    if (bt < 0 || at < 0 || dt < 0) return 0;
    unsigned f = o | (unsigned)cmp << 4 | (dt ? F_DS : 0) | (at ? F_AS : 0) | (bt ? F_BS : 0);
    if (o != V_SET && alu_take(m, IR_MOD_SAT)) f |= F_SAT;
    if (o == V_SHL || o == V_SHR) {
        int mode = alu_take_any(m, (const uint16_t[]){IR_MOD_CLAMP, IR_MOD_WRAP, 0});
        if (mode < 0) return 0;
        if (mode == 0) f |= F_CLAMP;
    }
    unsigned shift = 0;
    if (o == V_MAD) {
        if (alu_take(m, IR_MOD_PO)) f |= F_PO;
        int sc = alu_take_any(m, (const uint16_t[]){IR_MOD_SHR7, IR_MOD_SHR15, 0});
        shift = sc < 0 ? 0 : sc == 0 ? 7 : 15;
    }
    int op2 = o == V_MAD ? -1 : alu_take_any(m, OP2);
    bool na, nb, nc, nd;
    int asel = scalar_sel(m->k, 1, &na), bsel = scalar_sel(m->k, 2, &nb);
    int csel = scalar_sel(m->k, 3, &nc), dsel = scalar_sel(m->k, 0, &nd);
    if (asel < 0 || bsel < 0 || dsel < 0 || csel != 0 || nd || !alu_done(m)) return 0;
    if (o == V_MAD) {
        if ((na || nb || nc) && (f & F_PO)) return 0;
        if ((na != nb) && nc) return 0; /* the hardware negates either a*b or c */
        if (na != nb) f |= F_NEGAB;
        if (nc) f |= F_NEGC;
        if (nopnds != 4 || dsel) return 0;
    } else {
        if (na || nb || nc) return 0;
        /* 3 operands: plain; 4: secondary op or (with a destination selector) merge */
        if (nopnds == 3 ? (op2 >= 0 || dsel) : nopnds == 4 ? (op2 >= 0) == (dsel != 0) : true) return 0;
    }
    alu_shape_bytes(op, scalar_video, "4", nopnds == 4 ? "444" : "44");
    op->p[0] = f, op->p[1] = (unsigned)asel | (unsigned)bsel << 4 | (unsigned)dsel << 8;
    op->p[2] = op2 < 0 ? OP2_NONE : (unsigned)op2 + 1, op->p[3] = shift;
    return 1;
}

static int lookup_video(alu_mn *m, unsigned nopnds, alu_op *op) {
    /* per video opcode: the operation, and 2 or 4 lanes (0: scalar) */
    static const struct {
        uint8_t o, n;
    } V[IR_OP__COUNT] = {
        [IR_OP_VADD] = {V_ADD, 0},          [IR_OP_VADD2] = {V_ADD, 2},         [IR_OP_VADD4] = {V_ADD, 4},
        [IR_OP_VSUB] = {V_SUB, 0},          [IR_OP_VSUB2] = {V_SUB, 2},         [IR_OP_VSUB4] = {V_SUB, 4},
        [IR_OP_VAVRG2] = {V_AVRG, 2},       [IR_OP_VAVRG4] = {V_AVRG, 4},       [IR_OP_VABSDIFF] = {V_ABSDIFF, 0},
        [IR_OP_VABSDIFF2] = {V_ABSDIFF, 2}, [IR_OP_VABSDIFF4] = {V_ABSDIFF, 4}, [IR_OP_VMIN] = {V_MIN, 0},
        [IR_OP_VMIN2] = {V_MIN, 2},         [IR_OP_VMIN4] = {V_MIN, 4},         [IR_OP_VMAX] = {V_MAX, 0},
        [IR_OP_VMAX2] = {V_MAX, 2},         [IR_OP_VMAX4] = {V_MAX, 4},         [IR_OP_VSET] = {V_SET, 0},
        [IR_OP_VSET2] = {V_SET, 2},         [IR_OP_VSET4] = {V_SET, 4},         [IR_OP_VSHL] = {V_SHL, 0},
        [IR_OP_VSHR] = {V_SHR, 0},          [IR_OP_VMAD] = {V_MAD, 0},
    };
    unsigned o = V[m->k->op].o, n = V[m->k->op].n;
    if (n) return lookup_simd_video(m, nopnds, op, o, n);
    return lookup_scalar_video(m, nopnds, op, o);
}

/* ------------------------------------------------------------ entry point */

int alu_lookup_key_simd(const alu_key *k, unsigned nopnds, alu_op *op) {
    alu_mn m = {.k = k, .nopnds = nopnds};
    if (ir_opcode_info[k->op].family == IR_FAM_VIDEO) return lookup_video(&m, nopnds, op);
    if (k->neg || k->sel[0] || k->sel[1] || k->sel[2] || k->sel[3]) return 0;
    if (k->op == IR_OP_CVT) return alu_lookup_hcvt(&m, nopnds, op);
    return alu_lookup_half(&m, nopnds, op);
}
