/* wmma.c — warp matrix multiply-accumulate (wmma.load / wmma.mma / wmma.store)
 * for every type and shape of the PTX ISA and the CUDA guide's table: f16
 * (m16n16k16, m32n8k16, m8n32k16; f16 or f32 accumulators), bf16, tf32
 * (m16n16k8), f64 (m8n8k4), s8/u8 (the three f16 shapes), s4/u4 (m8n8k32) and
 * b1 (m8n8k128, .xor or .and with .popc), every layout and leading dimension.
 * Fragments hold the elements' memory bits where an H100 puts them
 * (elem_at), so a program that reads fragment elements by position sees the
 * GPU's values. The product is mma_core.c's, as for mma.sync. */
#include <stdlib.h>
#include <string.h>

#include "exec_mem.h"
#include "lower_ext.h"
#include "mma_core.h"

enum { W_LOAD, W_STORE, W_MMA };

typedef struct wmma_rec {
    vm_ext_fn run;
    uint8_t kind, which; /* W_*; for load/store: 'a', 'b', 'c' / 'd' */
    bool col;            /* load/store: the memory layout is column-major */
    uint8_t t;           /* load/store: element type (MT_*) */
    vm_mma_op op;        /* the shape; for mma also the types */
    uint32_t stride;     /* frame offset of the stride register (or constant slot) */
    vm_opnd r[8];        /* load/store: the fragment registers */
    vm_opnd d[8], a[8], b[8], c[8];
    uint8_t nr, nd, na, nb, nc;
} wmma_rec;

/* Rows and columns of fragment `which`. */
static void dims(const vm_mma_op *o, int which, unsigned *rows, unsigned *cols) {
    if (which == 'a') *rows = o->m, *cols = o->k;
    else if (which == 'b') *rows = o->k, *cols = o->n;
    else *rows = o->m, *cols = o->n;
}

/* Elements of type t per register (f64: one per 64-bit register). */
static unsigned per_reg(int t) { return t == MT_F64 ? 1 : 32u / (unsigned)vm_mt_bits(t); }

/* Matrix index (row-major) of element e of lane l's fragment of type t: the
 * H100's layout (recorded: ptx-samples/wmma_frag), the same for both memory
 * layouts. A fragment is a sequence of blocks that mma.sync's fragments are
 * made of: A blocks of 8 rows x 4P columns (P elements per register; lane
 * group g has row g, its lane q columns qP..qP+P-1), taken by 16-row tile,
 * then column, then 8-row half; B blocks of 4P rows x 8 columns (rows qP.., column
 * g), by column, then row; C blocks of 8 x 8 (row g, columns 2q, 2q+1), as A.
 * m8n32k16 is the transposed m32n8k16 (A as B of it, B as A, C as C). A
 * fragment with more registers than blocks (f16 A and B) repeats them. */
static unsigned elem_at(const vm_mma_op *o, int which, int t, int l, unsigned e) {
    unsigned R0, C0, R, C;
    dims(o, which, &R0, &C0);
    bool tr = o->m == 8 && o->n == 32;
    int w = which == 'd' ? 'c' : which;
    if (tr) w = w == 'a' ? 'b' : w == 'b' ? 'a' : 'c';
    R = tr ? C0 : R0, C = tr ? R0 : C0;
    unsigned g = (unsigned)l >> 2, q = (unsigned)l & 3, P = per_reg(t), row, col;
    if (w == 'b') {
        unsigned bh = 4 * P, nb = e / P % (R / bh * (C / 8));
        row = nb % (R / bh) * bh + q * P + e % P;
        col = nb / (R / bh) * 8 + g;
    } else {
        unsigned eb = w == 'c' ? 2 : P, bw = w == 'c' ? 8 : 4 * P, halves = R >= 16 ? 2 : 1;
        unsigned per_tile = halves * (C / bw), nb = e / eb % (R / 8 * (C / bw)), rem = nb % per_tile;
        row = nb / per_tile * 8 * halves + rem % halves * 8 + g;
        col = rem / halves * bw + (w == 'c' ? 2 * q : q * P) + e % eb;
    }
    return tr ? col * C0 + row : row * C0 + col;
}

static void read_regs(const uint8_t *fb, const vm_opnd *regs, int n, int l, uint64_t *v) {
    for (int q = 0; q < n; q++) v[q] = get_reg(fb, regs[q].off, regs[q].kind, l);
}

static void write_regs(uint8_t *fb, const vm_opnd *regs, int n, int l, const uint64_t *v) {
    for (int q = 0; q < n; q++) put_reg(fb, regs[q].off, regs[q].kind, l, v[q]);
}

static int run_ldst(vm_warp *wp, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const wmma_rec *w = i->p;
    vm_frame *fr = &wp->frames[wp->depth - 1];
    unsigned bits = (unsigned)vm_mt_bits(w->t), E = w->nr * per_reg(w->t), rows, cols;
    unsigned bytes = bits < 8 ? 1 : bits / 8;
    dims(&w->op, w->which, &rows, &cols);
    for (int l = 0; l < VM_LANES; l++) {
        if (!(m >> l & 1)) continue;
        uint64_t base = lane_addr(fr, fb, i, l), v[8] = {0};
        uint32_t stride = ((const uint32_t *)(fb + w->stride))[l];
        if (w->kind == W_STORE) read_regs(fb, w->r, w->nr, l, v);
        for (unsigned e = 0; e < E; e++) {
            unsigned idx = elem_at(&w->op, w->which, w->t, l, e), r = idx / cols, c = idx % cols;
            uint64_t bit = (uint64_t)(w->col ? c * stride + r : r * stride + c) * bits;
            uint8_t *p = xlate(wp, fb, i, l, base + bit / 8, bytes, w->kind == W_STORE);
            if (!p) return VM_EXT_FAULT;
            if (w->kind == W_STORE) store_bits(p, bytes, vm_mt_get(w->t, v, e));
            else if (bits < 8) vm_mt_put(w->t, v, e, (uint64_t)(*p >> (bit % 8)));
            else vm_mt_put(w->t, v, e, load_bits(p, bytes, false));
        }
        if (w->kind == W_LOAD) write_regs(fb, w->r, w->nr, l, v);
    }
    return VM_EXT_NEXT;
}

/* Fragment registers of the whole warp -> the matrix (row-major). */
static void gather(const uint8_t *fb, const vm_mma_op *o, int which, int t, const vm_opnd *regs, int n, uint64_t *M) {
    unsigned E = (unsigned)n * per_reg(t);
    for (int l = 0; l < VM_LANES; l++) {
        uint64_t v[8];
        read_regs(fb, regs, n, l, v);
        for (unsigned e = 0; e < E; e++) M[elem_at(o, which, t, l, e)] = vm_mt_get(t, v, e);
    }
}

static int run_mma(vm_warp *wp, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const wmma_rec *w = i->p;
    if (m != VM_FULL) {
        vm_fault_at(wp, i, __builtin_ctz(m), PTXI_ILLEGAL_INSTRUCTION,
                    "wmma.mma.sync needs all 32 lanes of the warp (mask 0x%08x)", m);
        return VM_EXT_FAULT;
    }
    const vm_mma_op *o = &w->op;
    static _Thread_local uint64_t A[VM_MMA_MAX_AB], B[VM_MMA_MAX_AB];
    uint64_t C[VM_MMA_MAX_CD], D[VM_MMA_MAX_CD];
    gather(fb, o, 'a', o->ta, w->a, w->na, A);
    gather(fb, o, 'b', o->tb, w->b, w->nb, B);
    gather(fb, o, 'c', o->tc, w->c, w->nc, C);
    vm_mma_tile(o, A, B, C, D);
    unsigned E = w->nd * per_reg(o->td);
    for (int l = 0; l < VM_LANES; l++) {
        uint64_t v[8] = {0};
        for (unsigned e = 0; e < E; e++) vm_mt_put(o->td, v, e, D[elem_at(o, 'd', o->td, l, e)]);
        write_regs(fb, w->d, w->nd, l, v);
    }
    return VM_EXT_NEXT;
}

/* ---- lowering ---- */

static const struct {
    int mod;
    uint8_t m, n, k;
} shapes[] = {
    {IR_MOD_M16N16K16, 16, 16, 16}, {IR_MOD_M32N8K16, 32, 8, 16}, {IR_MOD_M8N32K16, 8, 32, 16},
    {IR_MOD_M16N16K8, 16, 16, 8},   {IR_MOD_M8N8K4, 8, 8, 4},     {IR_MOD_M8N8K32, 8, 8, 32},
    {IR_MOD_M8N8K128, 8, 8, 128},
};

static bool shape(const ir_insn *in, vm_mma_op *o) {
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        if (ir_has_mod(in, shapes[s].mod)) {
            o->m = shapes[s].m, o->n = shapes[s].n, o->k = shapes[s].k;
            return true;
        }
    return false;
}

/* The element types each shape takes: A/B, and the accumulator. */
static bool ab_ok(const vm_mma_op *o, int t) {
    if (o->k == 16) return t == MT_F16 || t == MT_BF16 || t == MT_S8 || t == MT_U8;
    if (o->k == 8) return t == MT_TF32;
    if (o->k == 4) return t == MT_F64;
    if (o->k == 32) return t == MT_S4 || t == MT_U4;
    return t == MT_B1;
}

/* The accumulator types of A/B type ab (-1: of any A/B type the shape takes). */
static bool acc_ok(const vm_mma_op *o, int ab, int t) {
    if (ab < 0)
        return o->k == 16 ? t == MT_F16 || t == MT_F32 || t == MT_S32
                          : acc_ok(o,
                                   o->k == 8   ? MT_TF32
                                   : o->k == 4 ? MT_F64
                                               : MT_S4,
                                   t);
    if (ab == MT_F16) return t == MT_F16 || t == MT_F32;
    if (ab == MT_BF16 || ab == MT_TF32) return t == MT_F32;
    if (ab == MT_F64) return t == MT_F64;
    return t == MT_S32;
}

/* Registers a fragment of type t takes: 32 lanes hold the matrix once; f16
 * A and B always take eight (m16n16k16 holds them twice). */
static unsigned regs_needed(const vm_mma_op *o, int which, int t) {
    unsigned rows, cols;
    dims(o, which, &rows, &cols);
    if (t == MT_F16 && (which == 'a' || which == 'b')) return 8;
    unsigned n = rows * cols / 32 / per_reg(t);
    return n ? n : 1;
}

static uint8_t regs_of(lctx *lc, const ir_operand *v, vm_opnd *out, bool dst, uint8_t type) {
    if (v->kind != IR_OPND_VEC || v->nsub > 8) return 0;
    for (uint32_t k = 0; k < v->nsub; k++) out[k] = dst ? vm_ldst(lc, &v->sub[k]) : vm_lsrc(lc, &v->sub[k], type);
    return (uint8_t)v->nsub;
}

static bool lower_ldst(lctx *lc, const ir_insn *in, wmma_rec *w, bool ld, vm_insn *vi) {
    w->kind = ld ? W_LOAD : W_STORE;
    w->which = ir_has_mod(in, IR_MOD_A) ? 'a' : ir_has_mod(in, IR_MOD_B) ? 'b' : ir_has_mod(in, IR_MOD_C) ? 'c' : 'd';
    if ((w->which == 'd') == ld || in->nopnds < 2 || in->ntypes < 1) return false;
    w->col = ir_has_mod(in, IR_MOD_COL);
    int t = vm_mt_of_ir(in->types[in->ntypes - 1]);
    bool ab = w->which == 'a' || w->which == 'b';
    if (t < 0 || !(ab ? ab_ok(&w->op, t) : acc_ok(&w->op, -1, t))) return false;
    w->t = (uint8_t)t;
    const ir_operand *regs = &in->opnds[ld ? 0 : 1], *addr = &in->opnds[ld ? 1 : 0];
    w->nr = regs_of(lc, regs, w->r, ld, t == MT_F64 ? IR_T_F64 : IR_T_B32);
    if (w->nr != regs_needed(&w->op, w->which, t)) return false;
    unsigned rows, cols;
    dims(&w->op, w->which, &rows, &cols);
    ir_operand def = {.kind = IR_OPND_IMM_INT, .ival = w->col ? rows : cols};
    w->stride = vm_lsrc(lc, in->nopnds > 2 ? &in->opnds[2] : &def, IR_T_U32).off;
    vm_laddr(lc, addr, vm_lspace(in), vi);
    w->run = run_ldst;
    return true;
}

static bool lower_mma(lctx *lc, const ir_insn *in, wmma_rec *w) {
    vm_mma_op *o = &w->op;
    if (in->nopnds != 4 || (in->ntypes != 2 && in->ntypes != 4)) return false;
    int t[4];
    for (int q = 0; q < in->ntypes; q++)
        if ((t[q] = vm_mt_of_ir(in->types[q])) < 0) return false;
    o->td = (uint8_t)t[0];
    o->tc = (uint8_t)t[in->ntypes - 1];
    o->ta = o->tb = in->ntypes == 2 ? MT_F16 : (uint8_t)t[1];
    if (in->ntypes == 4 && t[2] != t[1]) return false;
    o->satfinite = ir_has_mod(in, IR_MOD_SATFINITE);
    o->bop = ir_has_mod(in, IR_MOD_XOR) ? VM_BOP_XOR : ir_has_mod(in, IR_MOD_AND) ? VM_BOP_AND : VM_BOP_NONE;
    /* f64 with .rz/.rm/.rp: not measured, so refused */
    if (ir_has_mod(in, IR_MOD_RZ) || ir_has_mod(in, IR_MOD_RM) || ir_has_mod(in, IR_MOD_RP)) return false;
    if (!ab_ok(o, o->ta) || !acc_ok(o, o->ta, o->tc) || !acc_ok(o, o->ta, o->td) ||
        (o->bop != VM_BOP_NONE) != (o->ta == MT_B1) || (o->bop != VM_BOP_NONE) != ir_has_mod(in, IR_MOD_POPC))
        return false;
    uint8_t wt = o->ta == MT_F64 ? IR_T_F64 : IR_T_B32;
    w->nd = regs_of(lc, &in->opnds[0], w->d, true, wt);
    w->na = regs_of(lc, &in->opnds[1], w->a, false, wt);
    w->nb = regs_of(lc, &in->opnds[2], w->b, false, wt);
    w->nc = regs_of(lc, &in->opnds[3], w->c, false, wt);
    if (w->nd != regs_needed(o, 'd', o->td) || w->na != regs_needed(o, 'a', o->ta) ||
        w->nb != regs_needed(o, 'b', o->tb) || w->nc != regs_needed(o, 'c', o->tc))
        return false;
    if (o->ta == MT_TF32) o->kstep = 4; /* m16n16k8 runs as two k4 steps, each rounded (measured) */
    w->kind = W_MMA;
    w->run = run_mma;
    return true;
}

bool vm_lower_wmma(lctx *lc, const ir_insn *in) {
    if (in->op != IR_OP_WMMA) return false;
    wmma_rec *w = calloc(1, sizeof *w);
    if (!w) {
        vm_lfail(lc, "out of memory");
        return true;
    }
    vm_insn vi = vm_lbase(lc, VM_EXT);
    bool ld = ir_has_mod(in, IR_MOD_LOAD), st = ir_has_mod(in, IR_MOD_STORE);
    bool ok = shape(in, &w->op) &&
              (ld || st ? lower_ldst(lc, in, w, ld, &vi) : ir_has_mod(in, IR_MOD_MMA) && lower_mma(lc, in, w));
    if (!ok) {
        free(w);
        return false;
    }
    vi.p = w;
    vm_lemit(lc, vi);
    return true;
}
