/* mma.c — warp-level matrix instructions with the fragment layouts of the PTX
 * ISA: mma.sync in every dense shape and type (f16, bf16, tf32, f64 m8n8k4
 * and m16n8k4/k8/k16, e4m3 and e5m2, s8/u8, s4/u4, b1 with .xor/.and and
 * .popc), mma.sp and
 * mma.sp::ordered_metadata (2:4 sparse A with its metadata and sparsity
 * selector), ldmatrix and stmatrix (m8n8 .x1/.x2/.x4, .trans), movmatrix
 * (m8n8 .trans). The whole warp
 * takes part (.aligned). What the product computes is mma_core.c's. */
#include <stdlib.h>
#include <string.h>

#include "exec_mem.h"
#include "lower_ext.h"
#include "mma_core.h"

enum { K_MMA, K_LDM, K_STM, K_MOVM };

typedef struct mma_rec {
    vm_ext_fn run;
    uint8_t kind;
    vm_mma_op op;
    uint16_t ka; /* columns of A's fragment: k, or k/2 when sparse */
    bool sparse;
    uint8_t sel;  /* sparsity selector */
    uint8_t nmat; /* ldmatrix/stmatrix: 1, 2 or 4 */
    bool trans;
    vm_opnd d[4], a[8], b[4], c[4], e;
    uint8_t nd, na, nb, nc;
} mma_rec;

/* ---- fragment layouts: element i of lane l -> (row, col) ---- */

#define GRP(l) ((l) >> 2)
#define TIG(l) ((l)&3)

/* Elements of type t per register (f64: one per 64-bit register). */
static int per_reg(int t) { return t == MT_F64 ? 1 : 32 / vm_mt_bits(t); }

/* A (m x ka): register q of a lane holds P consecutive columns of row
 * group+8*(q&1), column block q>>1 of 4P columns. */
static void a_pos(const mma_rec *r, int l, int i, int *row, int *col) {
    int P = per_reg(r->op.ta), q = i / P, j = i % P;
    if (r->op.m == 8) *row = GRP(l), *col = TIG(l) * P + j;
    else *row = GRP(l) + 8 * (q & 1), *col = TIG(l) * P + j + 4 * P * (q >> 1);
}

/* B (k x n): register q holds P consecutive rows of column group, row block q of 4P. */
static void b_pos(const mma_rec *r, int l, int i, int *row, int *col) {
    int P = per_reg(r->op.tb);
    *col = GRP(l);
    *row = TIG(l) * P + i % P + 4 * P * (i / P);
}

static void c_pos(const mma_rec *r, int l, int i, int *row, int *col) {
    if (r->op.m == 8) *row = GRP(l), *col = TIG(l) * 2 + i;
    else *row = GRP(l) + 8 * (i >> 1), *col = TIG(l) * 2 + (i & 1);
}

/* ---- sparse A: metadata ---- */

/* Bits of metadata per row of A: one 4-bit index pair per group of four
 * elements (of eight 4-bit elements, taken in pairs; of two tf32). */
static int meta_row_bits(const mma_rec *r) {
    int t = r->op.ta, k = r->op.k;
    return t == MT_TF32 ? 2 * k : t == MT_S4 || t == MT_U4 ? k / 2 : k;
}

/* The index pair of group q of row `row`. The quad of lanes of the row's
 * group holds rows g and g+8; T = 2 x bits/32 of its lanes, from lane sel x T
 * on, contribute: for 16- and 32-bit types each lane 16 bits of row g then 16
 * bits of row g+8; for 8- and 4-bit types lane 2w of them word w of row g and
 * lane 2w+1 word w of row g+8. */
static unsigned meta_nibble(const mma_rec *r, const uint32_t *e, int row, int q) {
    int T = 2 * meta_row_bits(r) / 32, bit = 4 * q, lane = 4 * (row & 7) + r->sel * T;
    if (vm_mt_bits(r->op.ta) >= 16) return (e[lane + bit / 16] >> (16 * (row >> 3) + bit % 16)) & 15;
    return (e[lane + 2 * (bit / 32) + (row >> 3)] >> (bit % 32)) & 15;
}

/* Compressed A (m x k/2) -> dense (m x k). */
static void decompress(const mma_rec *r, const uint32_t *e, const uint64_t *As, uint64_t *A) {
    int m = r->op.m, k = r->op.k, ka = r->ka, t = r->op.ta;
    memset(A, 0, sizeof *A * (size_t)(m * k));
    for (int y = 0; y < m; y++)
        for (int c = 0; c < ka; c++) {
            int col;
            if (t == MT_TF32) col = 2 * c + (int)((meta_nibble(r, e, y, c) & 3) >> 1);
            else if (t == MT_S4 || t == MT_U4)
                col = 8 * (c / 4) + 2 * (int)((meta_nibble(r, e, y, c / 4) >> (2 * (c / 2 % 2))) & 3) + c % 2;
            else col = 4 * (c / 2) + (int)((meta_nibble(r, e, y, c / 2) >> (2 * (c % 2))) & 3);
            A[y * k + col] = As[y * ka + c];
        }
}

/* ---- mma.sync / mma.sp ---- */

/* Registers -> matrix (row-major, `cols` wide) through a fragment layout. */
static void gather(const mma_rec *r, const uint8_t *fb, const vm_opnd *regs, int nregs, int t, int cols,
                   void (*pos)(const mma_rec *, int, int, int *, int *), uint64_t *M) {
    int per = per_reg(t);
    for (int l = 0; l < VM_LANES; l++) {
        uint64_t v[8];
        for (int q = 0; q < nregs; q++) v[q] = get_reg(fb, regs[q].off, regs[q].kind, l);
        for (int i = 0; i < nregs * per; i++) {
            int row, col;
            pos(r, l, i, &row, &col);
            M[row * cols + col] = vm_mt_get(t, v, (unsigned)i);
        }
    }
}

static int run_mma(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const mma_rec *r = i->p;
    if (m != 0xFFFFFFFFu) {
        vm_fault_at(w, i, __builtin_ctz(m), PTXI_ILLEGAL_INSTRUCTION, "%s needs the whole warp (active lanes 0x%08x)",
                    r->sparse ? "mma.sp" : "mma.sync", m);
        return VM_EXT_FAULT;
    }
    static _Thread_local uint64_t A[VM_MMA_MAX_AB], As[VM_MMA_MAX_AB], B[VM_MMA_MAX_AB];
    uint64_t C[VM_MMA_MAX_CD], D[VM_MMA_MAX_CD];
    const vm_mma_op *op = &r->op;
    gather(r, fb, r->a, r->na, op->ta, r->ka, a_pos, r->sparse ? As : A);
    gather(r, fb, r->b, r->nb, op->tb, op->n, b_pos, B);
    gather(r, fb, r->c, r->nc, op->tc, op->n, c_pos, C);
    if (r->sparse) {
        uint32_t e[VM_LANES];
        for (int l = 0; l < VM_LANES; l++) e[l] = (uint32_t)get_reg(fb, r->e.off, r->e.kind, l);
        decompress(r, e, As, A);
    }
    vm_mma_tile(op, A, B, C, D);
    int per = per_reg(op->td);
    for (int l = 0; l < VM_LANES; l++) {
        uint64_t v[4] = {0};
        for (int k = 0; k < r->nd * per; k++) {
            int row, col;
            c_pos(r, l, k, &row, &col);
            vm_mt_put(op->td, v, (unsigned)k, D[row * op->n + col]);
        }
        for (int q = 0; q < r->nd; q++) put_reg(fb, r->d[q].off, r->d[q].kind, l, v[q]);
    }
    return VM_EXT_NEXT;
}

/* ---- ldmatrix / stmatrix: lane 8j+r gives the address of row r of matrix j;
 * lane l holds elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1) of each matrix,
 * transposed with .trans ---- */

static int run_ldst_matrix(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const mma_rec *r = i->p;
    if (m != 0xFFFFFFFFu) {
        vm_fault_at(w, i, __builtin_ctz(m), PTXI_ILLEGAL_INSTRUCTION, "%s needs the whole warp (active lanes 0x%08x)",
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
                if (r->trans) {
                    int t = row;
                    row = col;
                    col = t;
                }
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

/* ---- movmatrix: the 8x8 matrix the warp holds as ldmatrix leaves it, transposed;
 * lane l gets (l/4, 2(l%4) + h) of the transpose, which lane 4(2(l%4) + h) + l/8
 * holds as half (l/4)%2 ---- */

static int run_movmatrix(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const mma_rec *r = i->p;
    if (m != 0xFFFFFFFFu) {
        vm_fault_at(w, i, __builtin_ctz(m), PTXI_ILLEGAL_INSTRUCTION,
                    "movmatrix needs the whole warp (active lanes 0x%08x)", m);
        return VM_EXT_FAULT;
    }
    uint32_t a[VM_LANES];
    for (int l = 0; l < VM_LANES; l++) a[l] = (uint32_t)get_reg(fb, r->a[0].off, r->a[0].kind, l);
    for (int l = 0; l < VM_LANES; l++) {
        uint32_t v = 0;
        for (int h = 0; h < 2; h++) {
            int src = 4 * (2 * TIG(l) + h) + GRP(l) / 2;
            v |= (a[src] >> (16 * (GRP(l) % 2)) & 0xFFFFu) << (16 * h);
        }
        put_reg(fb, r->d[0].off, r->d[0].kind, l, v);
    }
    return VM_EXT_NEXT;
}

/* ---- lowering ---- */

static uint8_t regs(lctx *lc, const ir_operand *o, vm_opnd *out, int max, bool dst, uint8_t type) {
    if (o->kind != IR_OPND_VEC || o->nsub > (uint32_t)max) return 0;
    uint8_t n = 0;
    for (uint32_t k = 0; k < o->nsub; k++) out[n++] = dst ? vm_ldst(lc, &o->sub[k]) : vm_lsrc(lc, &o->sub[k], type);
    return n;
}

static const struct {
    int mod;
    uint16_t m, n, k;
} shapes[] = {
    {IR_MOD_M8N8K4, 8, 8, 4},       {IR_MOD_M8N8K16, 8, 8, 16},     {IR_MOD_M8N8K32, 8, 8, 32},
    {IR_MOD_M8N8K128, 8, 8, 128},   {IR_MOD_M16N8K4, 16, 8, 4},     {IR_MOD_M16N8K8, 16, 8, 8},
    {IR_MOD_M16N8K16, 16, 8, 16},   {IR_MOD_M16N8K32, 16, 8, 32},   {IR_MOD_M16N8K64, 16, 8, 64},
    {IR_MOD_M16N8K128, 16, 8, 128}, {IR_MOD_M16N8K256, 16, 8, 256},
};

static bool is_fp8(int t) { return t == MT_E4M3 || t == MT_E5M2; }
static bool is_i8(int t) { return t == MT_S8 || t == MT_U8; }
static bool is_i4(int t) { return t == MT_S4 || t == MT_U4; }

/* The shapes (k of the dense product) each family of A/B types has, dense or sparse. */
static bool form_ok(const vm_mma_op *o, bool sp) {
    int ta = o->ta, tb = o->tb, k = o->k;
    bool m16 = o->m == 16;
    if (ta == MT_F16 || ta == MT_BF16)
        return tb == ta && m16 && (sp ? k == 16 || k == 32 : k == 8 || k == 16) &&
               ((o->tc == MT_F32 && o->td == MT_F32) || (ta == MT_F16 && o->tc == MT_F16 && o->td == MT_F16));
    if (ta == MT_TF32)
        return tb == ta && m16 && (sp ? k == 8 || k == 16 : k == 4 || k == 8) && o->tc == MT_F32 && o->td == MT_F32;
    if (ta == MT_F64)
        return !sp && tb == ta && (m16 ? k == 4 || k == 8 || k == 16 : k == 4) && o->tc == MT_F64 && o->td == MT_F64;
    if (is_fp8(ta))
        return is_fp8(tb) && m16 && k == (sp ? 64 : 32) &&
               ((o->tc == MT_F32 && o->td == MT_F32) || (!sp && o->tc == MT_F16 && o->td == MT_F16));
    bool acc = o->tc == MT_S32 && o->td == MT_S32;
    if (is_i8(ta)) return acc && is_i8(tb) && (sp ? m16 && (k == 32 || k == 64) : m16 ? k == 16 || k == 32 : k == 16);
    if (is_i4(ta)) return acc && is_i4(tb) && (sp ? m16 && (k == 64 || k == 128) : m16 ? k == 32 || k == 64 : k == 32);
    if (ta == MT_B1)
        return acc && !sp && tb == ta && o->bop != VM_BOP_NONE && !o->satfinite &&
               (m16 ? k == 128 || k == 256 : k == 128);
    return false;
}

/* Largest sparsity selector: the metadata of a row pair takes 1, 2 or 4 lanes of a quad. */
static int max_sel(const mma_rec *r) { return 4 / (2 * meta_row_bits(r) / 32) - 1; }

static bool lower_mma(lctx *lc, const ir_insn *in, mma_rec *r) {
    vm_mma_op *o = &r->op;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes && !o->m; s++)
        if (ir_has_mod(in, shapes[s].mod)) o->m = shapes[s].m, o->n = shapes[s].n, o->k = shapes[s].k;
    r->sparse = o->sparse = ir_has_mod(in, IR_MOD_SP) || ir_has_mod(in, IR_MOD_SP_ORDERED_METADATA);
    if (!o->m || !ir_has_mod(in, IR_MOD_ROW) || !ir_has_mod(in, IR_MOD_COL) || in->ntypes != 4 ||
        in->nopnds != (r->sparse ? 6 : 4))
        return false;
    int t[4];
    for (int q = 0; q < 4; q++)
        if ((t[q] = vm_mt_of_ir(in->types[q])) < 0) return false;
    o->td = (uint8_t)t[0], o->ta = (uint8_t)t[1], o->tb = (uint8_t)t[2], o->tc = (uint8_t)t[3];
    o->satfinite = ir_has_mod(in, IR_MOD_SATFINITE);
    o->bop = ir_has_mod(in, IR_MOD_XOR) ? VM_BOP_XOR : ir_has_mod(in, IR_MOD_AND) ? VM_BOP_AND : VM_BOP_NONE;
    if ((o->bop != VM_BOP_NONE) != ir_has_mod(in, IR_MOD_POPC) || !form_ok(o, r->sparse)) return false;
    r->ka = (uint16_t)(r->sparse ? o->k / 2 : o->k);
    if (r->sparse) {
        const ir_operand *sel = &in->opnds[5];
        if (sel->kind != IR_OPND_IMM_INT || sel->ival < 0 || sel->ival > max_sel(r)) return false;
        r->sel = (uint8_t)sel->ival;
        r->e = vm_lsrc(lc, &in->opnds[4], IR_T_B32);
    }
    uint8_t w64 = o->ta == MT_F64 ? IR_T_F64 : IR_T_B32;
    r->nd = regs(lc, &in->opnds[0], r->d, 4, true, w64);
    r->na = regs(lc, &in->opnds[1], r->a, 8, false, w64);
    r->nb = regs(lc, &in->opnds[2], r->b, 4, false, w64);
    r->nc = regs(lc, &in->opnds[3], r->c, 4, false, w64);
    /* registers per operand follow from the shape: 32 lanes hold each matrix once */
    int ea = o->m * r->ka / 32, eb = o->k * o->n / 32, ec = o->m * o->n / 32;
    return r->na * per_reg(o->ta) == ea && r->nb * per_reg(o->tb) == eb && r->nc * per_reg(o->tc) == ec &&
           r->nd * per_reg(o->td) == ec;
}

bool vm_lower_mma(lctx *lc, const ir_insn *in) {
    mma_rec *r = calloc(1, sizeof *r);
    if (!r) {
        vm_lfail(lc, "out of memory");
        return true;
    }
    vm_insn vi = vm_lbase(lc, VM_EXT);
    if (in->op == IR_OP_MMA) {
        if (!lower_mma(lc, in, r)) {
            free(r);
            return false;
        }
        r->kind = K_MMA;
        r->run = run_mma;
    } else if (in->op == IR_OP_MOVMATRIX) {
        if (!ir_has_mod(in, IR_MOD_M8N8) || !ir_has_mod(in, IR_MOD_TRANS) || in->nopnds != 2 || in->ntypes != 1 ||
            in->types[0] != IR_T_B16 || in->opnds[0].kind != IR_OPND_REG) {
            free(r);
            return false;
        }
        r->kind = K_MOVM;
        r->d[0] = vm_ldst(lc, &in->opnds[0]);
        r->a[0] = vm_lsrc(lc, &in->opnds[1], IR_T_B32);
        r->run = run_movmatrix;
    } else {
        bool ld = in->op == IR_OP_LDMATRIX;
        if (!ir_has_mod(in, IR_MOD_M8N8) || in->nopnds != 2 || (in->ntypes && in->types[0] != IR_T_B16)) {
            free(r);
            return false;
        }
        r->kind = ld ? K_LDM : K_STM;
        r->nmat = ir_has_mod(in, IR_MOD_X4) ? 4 : ir_has_mod(in, IR_MOD_X2) ? 2 : 1;
        r->trans = ir_has_mod(in, IR_MOD_TRANS);
        const ir_operand *data = &in->opnds[ld ? 0 : 1], *addr = &in->opnds[ld ? 1 : 0];
        if (regs(lc, data, r->d, 4, ld, IR_T_B32) != r->nmat) {
            free(r);
            return false;
        }
        vm_laddr(lc, addr, vm_lspace(in), &vi); /* .shared, or a generic address */
        r->run = run_ldst_matrix;
    }
    vi.p = r;
    vm_lemit(lc, vi);
    return true;
}
