/* mma.c — warp-level matrix instructions with the fragment layouts of the PTX
 * ISA: mma.sync (m16n8k16/k8 f16 and bf16, m16n8k8/k4 tf32, f16 accumulators,
 * m16n8k32/k16 s8/u8 with .satfinite, m8n8k4 f64), ldmatrix and stmatrix
 * (m8n8 .x1/.x2/.x4, .trans). The whole warp takes part (.aligned).
 * Floating-point products are exact; how they are summed with the
 * accumulator follows what an H200 was measured to do (vm_mma_sum). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alu_half.h"
#include "exec_mem.h"
#include "lower_ext.h"

enum { T_F16, T_BF16, T_TF32, T_F32, T_S8, T_U8, T_S32, T_F64 };
enum { K_MMA, K_LDM, K_STM };

typedef struct mma_rec {
    vm_ext_fn run;
    uint8_t kind;
    uint8_t m, n, k;
    uint8_t ta, tb, tc, td;    /* T_* */
    bool satfinite;
    uint8_t nmat;              /* ldmatrix/stmatrix: 1, 2 or 4 */
    bool trans;
    vm_opnd d[4], a[4], b[2], c[4];
    uint8_t nd, na, nb, nc;
} mma_rec;

/* ---- fragment layouts: element i of lane l -> (row, col) ---- */

#define GRP(l) ((l) >> 2)
#define TIG(l) ((l) & 3)

static void a_pos(const mma_rec *r, int l, int i, int *row, int *col) {
    if (r->ta == T_F16 || r->ta == T_BF16) *row = GRP(l) + 8 * ((i >> 1) & 1), *col = TIG(l) * 2 + (i & 1) + 8 * (i >> 2);
    else if (r->ta == T_TF32) *row = GRP(l) + 8 * (i & 1), *col = TIG(l) + 4 * (i >> 1);
    else if (r->ta == T_F64) *row = GRP(l), *col = TIG(l);
    else *row = GRP(l) + 8 * ((i >> 2) & 1), *col = TIG(l) * 4 + (i & 3) + 16 * (i >> 3);
}

static void b_pos(const mma_rec *r, int l, int i, int *row, int *col) {
    *col = GRP(l);
    if (r->tb == T_F16 || r->tb == T_BF16) *row = TIG(l) * 2 + (i & 1) + 8 * (i >> 1);
    else if (r->tb == T_TF32) *row = TIG(l) + 4 * i;
    else if (r->tb == T_F64) *row = TIG(l);
    else *row = TIG(l) * 4 + (i & 3) + 16 * (i >> 2);
}

static void c_pos(const mma_rec *r, int l, int i, int *row, int *col) {
    if (r->m == 8) *row = GRP(l), *col = TIG(l) * 2 + i;
    else *row = GRP(l) + 8 * (i >> 1), *col = TIG(l) * 2 + (i & 1);
}

/* Elements per 32-bit register of a type, and element e of a register. */
static int per_reg(int t) { return t == T_F16 || t == T_BF16 ? 2 : t == T_S8 || t == T_U8 ? 4 : 1; }

static double elem(int t, uint64_t bits, int e) {
    switch (t) {
    case T_F16: { uint32_t f = alu_f16_to_f32((uint16_t)(bits >> (16 * e))); float x; memcpy(&x, &f, 4); return x; }
    case T_BF16: { uint32_t f = (uint32_t)(uint16_t)(bits >> (16 * e)) << 16; float x; memcpy(&x, &f, 4); return x; }
    case T_TF32: { uint32_t f = (uint32_t)bits & 0xFFFFE000u; float x; memcpy(&x, &f, 4); return x; }
    case T_F32: { uint32_t f = (uint32_t)bits; float x; memcpy(&x, &f, 4); return x; }
    case T_S8: return (int8_t)(bits >> (8 * e));
    case T_U8: return (uint8_t)(bits >> (8 * e));
    case T_S32: return (int32_t)bits;
    default: { double x; memcpy(&x, &bits, 8); return x; }
    }
}

/* ---- summation ---- */

/* f32 nearest to s * 2^e toward zero. */
static float f32_rz(int64_t s, int e) {
    if (!s) return 0.0f;
    uint64_t m = (uint64_t)(s < 0 ? -s : s);
    int lead = 63 - __builtin_clzll(m);
    if (lead > 23) m >>= lead - 23, e += lead - 23;
    float f = ldexpf((float)m, e);
    return s < 0 ? -f : f;
}

/* The sum of n exact products a_k b_k and the accumulator c as the tensor
 * cores form it (measured on an H200, tests/cudart/programs/mma.cu): with the
 * nominal exponent of a term floor(log2|a|) + floor(log2|b|) for a product
 * and floor(log2|c|) for c, every term is truncated toward zero to a multiple
 * of 2^(largest nominal exponent - MMA_BITS), the truncated terms are added
 * exactly, and the sum is rounded to f32 toward zero. */
#define MMA_BITS 25
float vm_mma_sum(const double *a, const double *b, int n, float c) {
    double p[32];
    int emax = INT32_MIN;
    bool special = !isfinite(c);
    for (int k = 0; k < n; k++) {
        p[k] = a[k] * b[k];
        special |= !isfinite(p[k]);
        if (a[k] != 0 && b[k] != 0) {
            int ea, eb;
            frexp(a[k], &ea), frexp(b[k], &eb);
            if (ea + eb - 2 > emax) emax = ea + eb - 2;
        }
    }
    if (special) {
        double s = c;
        for (int k = 0; k < n; k++) s += p[k];
        if (!isnan(s)) return (float)s;
        uint32_t nan = 0x7FFFFFFFu;   /* the canonical NaN */
        float f;
        memcpy(&f, &nan, 4);
        return f;
    }
    if (c != 0) {
        int ec;
        frexp(c, &ec);
        if (ec - 1 > emax) emax = ec - 1;
    }
    if (emax == INT32_MIN) return c;   /* all zero: keeps the accumulator's sign */
    int q = emax - MMA_BITS;
    int64_t s = 0;
    for (int k = 0; k <= n; k++) {
        double t = ldexp(k < n ? p[k] : (double)c, -q);
        s += (int64_t)(t < 0 ? -floor(-t) : floor(t));
    }
    return f32_rz(s, q);
}

/* ---- mma.sync ---- */

static int run_mma(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const mma_rec *r = i->p;
    if (m != 0xFFFFFFFFu) {
        vm_fault_at(w, i, __builtin_ctz(m), 105, "mma.sync needs the whole warp (active lanes 0x%08x)", m);
        return VM_EXT_FAULT;
    }
    double A[16][32], B[32][8], C[16][8];
    int row, col;
    for (int l = 0; l < VM_LANES; l++) {
        for (int q = 0; q < r->na; q++) {
            uint64_t bits = get_reg(fb, r->a[q].off, r->a[q].kind, l);
            for (int e = 0; e < per_reg(r->ta); e++) {
                a_pos(r, l, q * per_reg(r->ta) + e, &row, &col);
                A[row][col] = elem(r->ta, bits, e);
            }
        }
        for (int q = 0; q < r->nb; q++) {
            uint64_t bits = get_reg(fb, r->b[q].off, r->b[q].kind, l);
            for (int e = 0; e < per_reg(r->tb); e++) {
                b_pos(r, l, q * per_reg(r->tb) + e, &row, &col);
                B[row][col] = elem(r->tb, bits, e);
            }
        }
        for (int q = 0; q < r->nc; q++) {
            uint64_t bits = get_reg(fb, r->c[q].off, r->c[q].kind, l);
            for (int e = 0; e < per_reg(r->tc); e++) {
                c_pos(r, l, q * per_reg(r->tc) + e, &row, &col);
                C[row][col] = elem(r->tc, bits, e);
            }
        }
    }
    uint64_t D[16][8];
    for (int y = 0; y < r->m; y++)
        for (int x = 0; x < r->n; x++) {
            if (r->ta == T_S8 || r->ta == T_U8) {
                int64_t s = (int64_t)C[y][x];
                for (int k = 0; k < r->k; k++) s += (int64_t)A[y][k] * (int64_t)B[k][x];
                if (r->satfinite) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                D[y][x] = (uint32_t)(int32_t)s;
            } else if (r->ta == T_F64) {
                double s = C[y][x];   /* one fused step per k, in order */
                for (int k = 0; k < r->k; k++) s = fma(A[y][k], B[k][x], s);
                memcpy(&D[y][x], &s, 8);
            } else {
                double a[32], b[32];
                for (int k = 0; k < r->k; k++) a[k] = A[y][k], b[k] = B[k][x];
                float f = vm_mma_sum(a, b, r->k, (float)C[y][x]);
                uint32_t u;
                memcpy(&u, &f, 4);
                D[y][x] = r->td == T_F16 ? alu_fp_convert(ALU_FMT_F16, ALU_FMT_F32, u, ALU_RN, 0) : u;
            }
        }
    for (int l = 0; l < VM_LANES; l++)
        for (int q = 0; q < r->nd; q++) {
            uint64_t v = 0;
            int per = r->td == T_F16 ? 2 : 1;
            for (int e = 0; e < per; e++) {
                c_pos(r, l, q * per + e, &row, &col);
                v |= D[row][col] << (16 * e);
            }
            put_reg(fb, r->d[q].off, r->d[q].kind, l, v);
        }
    return VM_EXT_NEXT;
}

/* ---- ldmatrix / stmatrix: lane 8j+r gives the address of row r of matrix j;
 * lane l holds elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1) of each matrix,
 * transposed with .trans ---- */

static int run_ldst_matrix(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const mma_rec *r = i->p;
    if (m != 0xFFFFFFFFu) {
        vm_fault_at(w, i, __builtin_ctz(m), 105, "%s needs the whole warp (active lanes 0x%08x)",
                    r->kind == K_LDM ? "ldmatrix" : "stmatrix", m);
        return VM_EXT_FAULT;
    }
    vm_frame *fr = &w->frames[w->depth - 1];
    uint8_t *rows[4][8];
    for (int j = 0; j < r->nmat; j++)
        for (int q = 0; q < 8; q++) {
            int l = 8 * j + q;
            rows[j][q] = xlate(w, fb, i, l, lane_addr(fr, fb, i, l), 16, r->kind == K_STM);
            if (!rows[j][q]) return VM_EXT_FAULT;
        }
    for (int j = 0; j < r->nmat; j++)
        for (int l = 0; l < VM_LANES; l++) {
            uint32_t v = r->kind == K_LDM ? 0 : (uint32_t)get_reg(fb, r->d[j].off, r->d[j].kind, l);
            for (int h = 0; h < 2; h++) {
                int row = GRP(l), col = 2 * TIG(l) + h;
                if (r->trans) { int t = row; row = col; col = t; }
                uint8_t *p = rows[j][row] + 2 * col;
                if (r->kind == K_LDM) {
                    uint16_t e;
                    memcpy(&e, p, 2);
                    v |= (uint32_t)e << (16 * h);
                } else {
                    uint16_t e = (uint16_t)(v >> (16 * h));
                    memcpy(p, &e, 2);
                }
            }
            if (r->kind == K_LDM) put_reg(fb, r->d[j].off, r->d[j].kind, l, v);
        }
    return VM_EXT_NEXT;
}

/* ---- lowering ---- */

static int type_of(uint8_t t) {
    switch (t) {
    case IR_T_F16: case IR_T_F16X2: return T_F16;
    case IR_T_BF16: case IR_T_BF16X2: return T_BF16;
    case IR_T_TF32: return T_TF32;
    case IR_T_F32: return T_F32;
    case IR_T_S8: return T_S8;
    case IR_T_U8: return T_U8;
    case IR_T_S32: return T_S32;
    case IR_T_F64: return T_F64;
    default: return -1;
    }
}

static uint8_t regs(lctx *lc, const ir_operand *o, vm_opnd *out, int max, bool dst, uint8_t type) {
    if (o->kind != IR_OPND_VEC) return 0;
    uint8_t n = 0;
    for (uint32_t k = 0; k < o->nsub && n < max; k++)
        out[n++] = dst ? vm_ldst(lc, &o->sub[k]) : vm_lsrc(lc, &o->sub[k], type);
    return n;
}

static bool lower_mma(lctx *lc, const ir_insn *in, mma_rec *r) {
    if (ir_has_mod(in, IR_MOD_M16N8K16)) r->m = 16, r->n = 8, r->k = 16;
    else if (ir_has_mod(in, IR_MOD_M16N8K8)) r->m = 16, r->n = 8, r->k = 8;
    else if (ir_has_mod(in, IR_MOD_M16N8K4)) r->m = 16, r->n = 8, r->k = 4;
    else if (ir_has_mod(in, IR_MOD_M16N8K32)) r->m = 16, r->n = 8, r->k = 32;
    else if (ir_has_mod(in, IR_MOD_M8N8K4)) r->m = 8, r->n = 8, r->k = 4;
    else return false;
    if (!ir_has_mod(in, IR_MOD_ROW) || !ir_has_mod(in, IR_MOD_COL) || in->ntypes != 4 || in->nopnds != 4) return false;
    int td = type_of(in->types[0]), ta = type_of(in->types[1]), tb = type_of(in->types[2]), tc = type_of(in->types[3]);
    if (td < 0 || ta < 0 || tb < 0 || tc < 0 || in->nopnds != 4) return false;
    r->td = (uint8_t)td, r->ta = (uint8_t)ta, r->tb = (uint8_t)tb, r->tc = (uint8_t)tc;
    r->satfinite = ir_has_mod(in, IR_MOD_SATFINITE);
    bool f16ab = ta == T_F16 || ta == T_BF16, i8 = ta == T_S8 || ta == T_U8;
    bool ok = (r->m == 16 && f16ab && tb == ta && (r->k == 16 || r->k == 8) &&
               ((td == T_F32 && tc == T_F32) || (ta == T_F16 && td == T_F16 && tc == T_F16))) ||
              (r->m == 16 && ta == T_TF32 && tb == T_TF32 && (r->k == 8 || r->k == 4) && td == T_F32 && tc == T_F32) ||
              (r->m == 16 && i8 && (tb == T_S8 || tb == T_U8) && (r->k == 32 || r->k == 16) && td == T_S32 && tc == T_S32) ||
              (r->m == 8 && ta == T_F64 && tb == T_F64 && td == T_F64 && tc == T_F64);
    if (!ok) return false;
    uint8_t wa = td == T_F64 ? IR_T_F64 : IR_T_B32;
    r->nd = regs(lc, &in->opnds[0], r->d, 4, true, wa);
    r->na = regs(lc, &in->opnds[1], r->a, 4, false, ta == T_F64 ? IR_T_F64 : IR_T_B32);
    r->nb = regs(lc, &in->opnds[2], r->b, 2, false, ta == T_F64 ? IR_T_F64 : IR_T_B32);
    r->nc = regs(lc, &in->opnds[3], r->c, 4, false, tc == T_F64 ? IR_T_F64 : IR_T_B32);
    /* registers per operand follow from the shape: 32 lanes hold the matrix once */
    int ea = r->m * r->k / 32, eb = r->k * r->n / 32, ec = r->m * r->n / 32;
    return r->na == ea / per_reg(ta) && r->nb == eb / per_reg(tb) && r->nc == ec / per_reg(tc) &&
           r->nd == ec / per_reg(td);
}

bool vm_lower_mma(lctx *lc, const ir_insn *in) {
    if (in->op != IR_OP_MMA && in->op != IR_OP_LDMATRIX && in->op != IR_OP_STMATRIX) return false;
    mma_rec *r = calloc(1, sizeof *r);
    if (!r) { vm_lfail(lc, "out of memory"); return true; }
    vm_insn vi = vm_lbase(lc, VM_EXT);
    if (in->op == IR_OP_MMA) {
        if (!lower_mma(lc, in, r)) { free(r); return false; }
        r->kind = K_MMA;
        r->run = run_mma;
    } else {
        bool ld = in->op == IR_OP_LDMATRIX;
        if (!ir_has_mod(in, IR_MOD_M8N8) || in->nopnds != 2 || (in->ntypes && in->types[0] != IR_T_B16)) { free(r); return false; }
        r->kind = ld ? K_LDM : K_STM;
        r->nmat = ir_has_mod(in, IR_MOD_X4) ? 4 : ir_has_mod(in, IR_MOD_X2) ? 2 : 1;
        r->trans = ir_has_mod(in, IR_MOD_TRANS);
        const ir_operand *data = &in->opnds[ld ? 0 : 1], *addr = &in->opnds[ld ? 1 : 0];
        if (regs(lc, data, r->d, 4, ld, IR_T_B32) != r->nmat) { free(r); return false; }
        vm_laddr(lc, addr, vm_lspace(in), &vi);   /* .shared, or a generic address */
        r->run = run_ldst_matrix;
    }
    vi.p = r;
    vm_lemit(lc, vi);
    return true;
}
