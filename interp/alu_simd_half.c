/* alu_simd_half.c — f16/bf16 (scalar and x2) arithmetic, min/max, neg/abs,
 * ex2/tanh approximations, setp/set, and the packed 16-bit integer
 * add/sub/min/max forms. Arithmetic is done exactly in double and rounded once
 * (a product of two halves and a sum with a third are exact in double, or far
 * enough from a rounding boundary that the second rounding cannot matter). */
#include "alu_half.h"
#include "alu_half_approx.h"
#include "alu_simd_int.h"

enum { H_ADD, H_SUB, H_MUL, H_FMA, H_NEG, H_ABS, H_MIN, H_MAX, H_EX2, H_TANH, H_SETP, H_SET, I_ADD, I_MIN, I_MAX };
enum { HF_FTZ = 1, HF_SAT = 2, HF_RELU = 4, HF_NAN = 8, HF_XORSIGN = 16, HF_X2 = 32, HF_OOB = 64, HF_SIGNED = 128 };

/* p[0]: op; p[1]: format; p[2]: HF_* flags; p[3]: compare | bool op << 4 | set
 * destination kind << 8. */

static uint32_t flush(const alu_op *op, uint32_t x) {
    return (op->p[2] & HF_FTZ) && alu_fp_issub((int)op->p[1], x) ? x & 0x8000 : x;
}

static unsigned enc_flags(unsigned hf) {
    return (hf & HF_FTZ ? ALU_FP_FTZ : 0) | (hf & HF_SAT ? ALU_FP_SAT01 : 0) | (hf & HF_RELU ? ALU_FP_RELU : 0);
}

static uint32_t minmax(const alu_op *op, uint32_t a, uint32_t b) {
    int f = (int)op->p[1];
    unsigned hf = op->p[2];
    uint32_t canon = alu_fpfmts[f].nan;
    bool na = alu_fp_isnan(f, a), nb = alu_fp_isnan(f, b);
    if ((na && nb) || ((hf & HF_NAN) && (na || nb))) return canon;
    uint32_t sign = (a ^ b) & 0x8000;
    if (hf & HF_XORSIGN) a &= 0x7FFF, b &= 0x7FFF;
    uint32_t r;
    if (na || nb) r = na ? b : a;
    else {
        double x = alu_fp_decode(f, a), y = alu_fp_decode(f, b);
        bool a_lt = x < y || (x == y && (a & 0x8000) && !(b & 0x8000));
        r = (op->p[0] == H_MIN) == a_lt ? a : b;
    }
    return hf & HF_XORSIGN ? (r & 0x7FFF) | sign : r;
}

/* IEEE comparisons: eq ne lt le gt ge (ordered), equ neu ltu leu gtu geu
 * (true when unordered), num, nan. */
static bool fcmp(unsigned c, double a, double b) {
    bool un = isnan(a) || isnan(b);
    switch (c) {
    case 0: return !un && a == b;
    case 1: return !un && a != b;
    case 2: return !un && a < b;
    case 3: return !un && a <= b;
    case 4: return !un && a > b;
    case 5: return !un && a >= b;
    case 6: return un || a == b;
    case 7: return un || a != b;
    case 8: return un || a < b;
    case 9: return un || a <= b;
    case 10: return un || a > b;
    case 11: return un || a >= b;
    case 12: return !un;
    default: return un;
    }
}

static bool boolop(unsigned bop, bool x, uint64_t c) {
    switch (bop) {
    case 1: return x && c;
    case 2: return x || c;
    case 3: return x != (c != 0);
    default: return x;
    }
}

/* One 16-bit lane of every op except setp/set. */
static uint32_t lane(const alu_op *op, uint32_t a, uint32_t b, uint32_t c) {
    int f = (int)op->p[1];
    unsigned hf = op->p[2], o = op->p[0];
    if (o >= I_ADD) {
        int32_t x = (hf & HF_SIGNED) ? (int16_t)a : (int32_t)a, y = (hf & HF_SIGNED) ? (int16_t)b : (int32_t)b;
        int32_t r = o == I_ADD ? x + y : o == I_MIN ? (x < y ? x : y) : (x > y ? x : y);
        if ((hf & HF_RELU) && r < 0) r = 0;
        return (uint32_t)r & 0xFFFF;
    }
    if (o == H_MIN || o == H_MAX) return minmax(op, flush(op, a), flush(op, b));
    /* .oob: the GPU never zeroed a result for any NaN pattern recorded (0x7FFF
     * included), so it computes as plain fma here */
    double x = alu_fp_decode(f, flush(op, a)), y = alu_fp_decode(f, flush(op, b)), z = alu_fp_decode(f, flush(op, c)),
           r;
    switch (o) {
    case H_ADD: r = x + y; break;
    case H_SUB: r = x - y; break;
    case H_MUL: r = x * y; break;
    case H_FMA: r = fma(x, y, z); break;
    case H_NEG: r = -x; break;
    case H_ABS: r = fabs(x); break;
    default: return alu_half_approx(o == H_EX2, f, flush(op, a));
    }
    return (uint32_t)alu_fp_encode(f, r, ALU_RN, enc_flags(hf));
}

static void half_fn(const alu_op *op, uint64_t *d, const uint64_t *s, uint32_t *cc) {
    (void)cc;
    uint32_t a = (uint32_t)s[0], b = op->ns > 1 ? (uint32_t)s[1] : 0, c = op->ns > 2 ? (uint32_t)s[2] : 0;
    uint32_t r = lane(op, a & 0xFFFF, b & 0xFFFF, c & 0xFFFF);
    if (op->p[2] & HF_X2) r |= lane(op, a >> 16, b >> 16, c >> 16) << 16;
    d[0] = r;
}

static bool cmp_lane(const alu_op *op, uint32_t a, uint32_t b) {
    int f = (int)op->p[1];
    return fcmp(op->p[3] & 15, alu_fp_decode(f, flush(op, a)), alu_fp_decode(f, flush(op, b)));
}

/* setp: p (and q for x2: p from the low halves, q from the high ones), each
 * combined with predicate c by the bool op. */
static void setp_fn(const alu_op *op, uint64_t *d, const uint64_t *s, uint32_t *cc) {
    (void)cc;
    unsigned bop = op->p[3] >> 4 & 3;
    uint64_t c = op->ns > 2 ? s[2] : 0;
    uint32_t a = (uint32_t)s[0], b = (uint32_t)s[1];
    d[0] = boolop(bop, cmp_lane(op, a & 0xFFFF, b & 0xFFFF), c);
    if (op->p[2] & HF_X2) d[1] = boolop(bop, cmp_lane(op, a >> 16, b >> 16), c);
}

/* set: each lane's true value is 1.0 in a half destination, all ones in an
 * integer one (per 16-bit half for x2), 1.0f in f32. */
static void set_fn(const alu_op *op, uint64_t *d, const uint64_t *s, uint32_t *cc) {
    (void)cc;
    static const uint32_t ONE[] = {0x3C00, 0x3F80, 0xFFFFFFFFu, 0xFFFFFFFFu, 0x3F800000u};
    unsigned bop = op->p[3] >> 4 & 3, kind = op->p[3] >> 8;
    uint64_t c = op->ns > 2 ? s[2] : 0;
    uint32_t a = (uint32_t)s[0], b = (uint32_t)s[1];
    uint32_t t = ONE[kind];
    if (op->p[2] & HF_X2) {
        t &= 0xFFFF;
        d[0] = (boolop(bop, cmp_lane(op, a & 0xFFFF, b & 0xFFFF), c) ? t : 0) |
               (boolop(bop, cmp_lane(op, a >> 16, b >> 16), c) ? t << 16 : 0);
    } else {
        d[0] = boolop(bop, cmp_lane(op, a & 0xFFFF, b & 0xFFFF), c) ? t : 0;
    }
}

static const uint8_t HTYPES[] = {IR_T_F16, IR_T_BF16, IR_T_F16X2, IR_T_BF16X2, 0};
static const uint16_t CMPS[] = {IR_MOD_EQ,  IR_MOD_NE,  IR_MOD_LT,  IR_MOD_LE,  IR_MOD_GT,
                                IR_MOD_GE,  IR_MOD_EQU, IR_MOD_NEU, IR_MOD_LTU, IR_MOD_LEU,
                                IR_MOD_GTU, IR_MOD_GEU, IR_MOD_NUM, IR_MOD_NAN, 0};
static const uint16_t BOPS[] = {IR_MOD_AND, IR_MOD_OR, IR_MOD_XOR, 0};

static int lookup_setp_set(alu_mn *m, unsigned nopnds, alu_op *op, bool is_set) {
    int st = alu_take_type(m, HTYPES), kind = 0;
    if (st < 0) return 0;
    bool x2 = st >= 2;
    if (is_set) {
        /* destination: the half type itself, or u32/s32/f32 (x2: only u32) */
        static const uint8_t DT[] = {IR_T_F16, IR_T_BF16, IR_T_U32, IR_T_S32, IR_T_F32, IR_T_F16X2, IR_T_BF16X2, 0};
        int dt = alu_take_type(m, DT);
        if (dt < 0) return 0;
        kind = dt >= 5 ? dt - 5 : dt;
        if (x2 ? !(dt == 2 || dt - 5 == st - 2) : (dt >= 5 || (dt < 2 && dt != st))) return 0;
    }
    int c = alu_take_any(m, CMPS), b = alu_take_any(m, BOPS);
    bool ftz = alu_take(m, IR_MOD_FTZ);
    unsigned want = (is_set ? 1 : (x2 ? 2 : 1)) + 2 + (b >= 0);
    if (c < 0 || nopnds != want || !alu_done(m)) return 0;
    const char *dst = is_set ? "4" : x2 ? "00" : "0";
    if (is_set && kind < 2 && !x2) dst = "2";
    const char *src = x2 ? (b >= 0 ? "440" : "44") : (b >= 0 ? "220" : "22");
    alu_shape_bytes(op, is_set ? set_fn : setp_fn, dst, src);
    op->p[0] = is_set ? H_SET : H_SETP;
    op->p[1] = st & 1 ? ALU_FMT_BF16 : ALU_FMT_F16;
    op->p[2] = (ftz ? HF_FTZ : 0) | (x2 ? HF_X2 : 0);
    op->p[3] = (unsigned)c | (unsigned)(b + 1) << 4 | (unsigned)kind << 8;
    return 1;
}

static int lookup_int16x2(alu_mn *m, unsigned nopnds, alu_op *op, unsigned o) {
    static const uint8_t T[] = {IR_T_U16X2, IR_T_S16X2, 0};
    int t = alu_take_type(m, T);
    bool relu = (o == I_MIN || o == I_MAX) && t == 1 && alu_take(m, IR_MOD_RELU);
    if (t < 0 || nopnds != 3 || !alu_done(m)) return 0;
    alu_shape_bytes(op, half_fn, "4", "44");
    op->p[0] = o, op->p[2] = HF_X2 | (t ? HF_SIGNED : 0) | (relu ? HF_RELU : 0);
    return 1;
}

int alu_lookup_half(alu_mn *m, unsigned nopnds, alu_op *op) {
    static const int8_t OPS[IR_OP__COUNT] = {
        [IR_OP_ADD] = H_ADD + 1, [IR_OP_SUB] = H_SUB + 1,   [IR_OP_MUL] = H_MUL + 1,   [IR_OP_FMA] = H_FMA + 1,
        [IR_OP_NEG] = H_NEG + 1, [IR_OP_ABS] = H_ABS + 1,   [IR_OP_MIN] = H_MIN + 1,   [IR_OP_MAX] = H_MAX + 1,
        [IR_OP_EX2] = H_EX2 + 1, [IR_OP_TANH] = H_TANH + 1, [IR_OP_SETP] = H_SETP + 1, [IR_OP_SET] = H_SET + 1,
    };
    static const unsigned NSRC[] = {2, 2, 2, 3, 1, 1, 2, 2, 1, 1};
    int o = OPS[m->k->op] - 1;
    if (o < 0) return 0;
    if (o == H_SETP || o == H_SET) return lookup_setp_set(m, nopnds, op, o == H_SET);
    const alu_key *k = m->k;
    unsigned last = (unsigned)k->ntypes + k->nmods - 1; /* the last suffix: u16x2 or s16x2 */
    if (k->ntypes && (k->typemask >> last & 1) &&
        (k->types[k->ntypes - 1] == IR_T_U16X2 || k->types[k->ntypes - 1] == IR_T_S16X2)) {
        if (o == H_ADD) return lookup_int16x2(m, nopnds, op, I_ADD); /* ptxas has no sub.*16x2 */
        if (o == H_MIN || o == H_MAX) return lookup_int16x2(m, nopnds, op, I_MIN + (unsigned)(o - H_MIN));
        return 0;
    }
    int t = alu_take_type(m, HTYPES);
    if (t < 0 || nopnds != NSRC[o] + 1) return 0;
    bool f16 = !(t & 1);
    unsigned hf = t >= 2 ? HF_X2 : 0;
    if (o == H_EX2 || o == H_TANH) {
        if (!alu_take(m, IR_MOD_APPROX)) return 0;
        /* f16 forms have no .ftz; bf16 ex2 requires it, bf16 tanh has none */
        if (o == H_EX2 && !f16 && !alu_take(m, IR_MOD_FTZ)) return 0;
        if (!f16 && o == H_EX2) hf |= HF_FTZ;
    } else {
        bool rn = alu_take(m, IR_MOD_RN);
        if (o == H_FMA && !rn) return 0;
        if (o == H_FMA && alu_take(m, IR_MOD_OOB)) hf |= HF_OOB;
        if (f16 && alu_take(m, IR_MOD_FTZ)) hf |= HF_FTZ;
        if (f16 && o != H_NEG && o != H_ABS && o < H_MIN && alu_take(m, IR_MOD_SAT)) hf |= HF_SAT;
        if (o == H_FMA && alu_take(m, IR_MOD_RELU)) hf |= HF_RELU;
        if ((hf & HF_SAT) && (hf & HF_RELU)) return 0;
        if (o == H_MIN || o == H_MAX) {
            if (alu_take(m, IR_MOD_NAN_PROPAGATE)) hf |= HF_NAN;
            if (alu_take(m, IR_MOD_XORSIGN)) {
                if (!alu_take(m, IR_MOD_ABS)) return 0;
                hf |= HF_XORSIGN;
            }
        }
        if (rn && o > H_FMA) return 0;
    }
    if (!alu_done(m)) return 0;
    static const char *const SRC[] = {"2", "22", "222"}, *const SRC2[] = {"4", "44", "444"};
    alu_shape_bytes(op, half_fn, hf & HF_X2 ? "4" : "2", (hf & HF_X2 ? SRC2 : SRC)[NSRC[o] - 1]);
    op->p[0] = (unsigned)o, op->p[1] = f16 ? ALU_FMT_F16 : ALU_FMT_BF16, op->p[2] = hf;
    return 1;
}
