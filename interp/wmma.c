/* wmma.c — warp matrix multiply-accumulate (wmma.load / wmma.mma / wmma.store)
 * for the f16 shapes m16n16k16, m32n8k16 and m8n32k16 with f16 or f32
 * accumulators. Fragments are opaque in CUDA (element i of a fragment is only
 * ever used element-wise), so ptxi picks its own layout: element j of lane l's
 * fragment (E elements per lane) is element (l*E + j) mod (rows*cols) of the
 * matrix in row-major order, so a fragment the warp holds twice (as the f16
 * ones are on hardware) is simply repeated.
 * The 16 products of a row and a column are added to the accumulator as the
 * tensor cores add them (vm_mma_sum, mma.c). */
#include <stdlib.h>
#include <string.h>

#include "alu_half.h"
#include "exec_mem.h"
#include "lower_ext.h"
#include "mma_core.h"

enum { W_LOAD, W_STORE, W_MMA };

typedef struct wmma_rec {
    vm_ext_fn run;
    uint8_t kind, which;       /* W_*; for load/store: 'a', 'b', 'c' / 'd' */
    bool col;                  /* the memory layout is column-major */
    bool f16;                  /* element type of this fragment is f16 (else f32) */
    uint8_t m, n, k;
    uint8_t nregs;
    bool acol, bcol;           /* mma: layouts of a and b (irrelevant to ptxi's fragments) */
    bool cf16, df16;           /* mma: accumulator types */
    uint32_t stride;           /* frame offset of the stride register (or constant slot) */
    vm_opnd r[8];              /* load/store: the fragment registers */
    vm_opnd d[8], a[8], b[8], c[8];
    uint8_t nd, na, nb, nc;
} wmma_rec;

/* Rows and columns of fragment `which` for shape m×n×k. */
static void dims(const wmma_rec *w, int which, unsigned *rows, unsigned *cols) {
    if (which == 'a') *rows = w->m, *cols = w->k;
    else if (which == 'b') *rows = w->k, *cols = w->n;
    else *rows = w->m, *cols = w->n;
}

/* Element e of lane l's fragment (E elements per lane) -> (row, col): element
 * (l*E + e) of the matrix in row-major order, wrapping when the warp holds it twice. */
static void elem_pos(const wmma_rec *w, int which, unsigned E, int l, unsigned e, unsigned *r, unsigned *c) {
    unsigned rows, cols;
    dims(w, which, &rows, &cols);
    unsigned idx = ((unsigned)l * E + e) % (rows * cols);
    *r = idx / cols;
    *c = idx % cols;
}

static unsigned per_reg(bool f16) { return f16 ? 2 : 1; }

static uint32_t getbits(const uint8_t *fb, const vm_opnd *o, int l) { return ((const uint32_t *)(fb + o->off))[l]; }
static void putbits(uint8_t *fb, const vm_opnd *o, int l, uint32_t v) {
    if (o->kind != VM_K_SINK) ((uint32_t *)(fb + o->off))[l] = v;
}

/* value of element e of lane l's fragment held in registers regs, as float */
static float frag_get(const uint8_t *fb, const vm_opnd *regs, bool f16, int l, unsigned e) {
    uint32_t v = getbits(fb, &regs[e / per_reg(f16)], l);
    if (f16) v = alu_f16_to_f32((uint16_t)(v >> (16 * (e & 1))));
    float f;
    memcpy(&f, &v, 4);
    return f;
}

static void frag_put(uint8_t *fb, const vm_opnd *regs, bool f16, int l, unsigned e, float f) {
    uint32_t v;
    memcpy(&v, &f, 4);
    const vm_opnd *o = &regs[e / per_reg(f16)];
    if (f16) {
        uint32_t old = getbits(fb, o, l), h = alu_f32_to_f16_rn(v);
        v = (e & 1) ? (old & 0xffff) | h << 16 : (old & 0xffff0000u) | h;
    }
    putbits(fb, o, l, v);
}

static int run_ldst(vm_warp *wp, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const wmma_rec *w = i->p;
    vm_frame *fr = &wp->frames[wp->depth - 1];
    unsigned esz = w->f16 ? 2 : 4, n = w->nregs * per_reg(w->f16);
    for (int l = 0; l < VM_LANES; l++) {
        if (!(m >> l & 1)) continue;
        uint64_t base = lane_addr(fr, fb, i, l);
        uint32_t stride = ((const uint32_t *)(fb + w->stride))[l];
        for (unsigned e = 0; e < n; e++) {
            unsigned r, c;
            elem_pos(w, w->which, n, l, e, &r, &c);
            uint64_t at = base + (uint64_t)(w->col ? c * stride + r : r * stride + c) * esz;
            uint8_t *p = xlate(wp, fb, i, l, at, esz, w->kind == W_STORE);
            if (!p) return VM_EXT_FAULT;
            if (w->kind == W_LOAD) {
                float f;
                if (w->f16) {
                    uint16_t h;
                    memcpy(&h, p, 2);
                    uint32_t b = alu_f16_to_f32(h);
                    memcpy(&f, &b, 4);
                } else {
                    memcpy(&f, p, 4);
                }
                frag_put(fb, w->r, w->f16, l, e, f);
            } else {
                float f = frag_get(fb, w->r, w->f16, l, e);
                if (w->f16) {
                    uint32_t b;
                    memcpy(&b, &f, 4);
                    uint16_t h = alu_f32_to_f16_rn(b);
                    memcpy(p, &h, 2);
                } else {
                    memcpy(p, &f, 4);
                }
            }
        }
    }
    return VM_EXT_NEXT;
}

static int run_mma(vm_warp *wp, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const wmma_rec *w = i->p;
    (void)wp;
    if (m != VM_FULL) {
        vm_fault_at(wp, i, __builtin_ctz(m), 105, "wmma.mma.sync needs all 32 lanes of the warp (mask 0x%08x)", m);
        return VM_EXT_FAULT;
    }
    float A[32][16], B[16][32], C[32][32];
    for (int l = 0; l < VM_LANES; l++)
        for (unsigned e = 0; e < w->na * 2; e++) {
            unsigned r, c;
            elem_pos(w, 'a', w->na * 2, l, e, &r, &c);
            A[r][c] = frag_get(fb, w->a, true, l, e);
        }
    for (int l = 0; l < VM_LANES; l++)
        for (unsigned e = 0; e < w->nb * 2; e++) {
            unsigned r, c;
            elem_pos(w, 'b', w->nb * 2, l, e, &r, &c);
            B[r][c] = frag_get(fb, w->b, true, l, e);
        }
    for (int l = 0; l < VM_LANES; l++)
        for (unsigned e = 0; e < w->nc * per_reg(w->cf16); e++) {
            unsigned r, c;
            elem_pos(w, 'c', w->nc * per_reg(w->cf16), l, e, &r, &c);
            C[r][c] = frag_get(fb, w->c, w->cf16, l, e);
        }
    float D[32][32];
    for (unsigned r = 0; r < w->m; r++)
        for (unsigned c = 0; c < w->n; c++) {
            double a[16], b[16];
            for (unsigned k = 0; k < w->k; k++) a[k] = A[r][k], b[k] = B[k][c];
            D[r][c] = vm_mma_sum(a, b, (int)w->k, C[r][c]);
        }
    for (int l = 0; l < VM_LANES; l++)
        for (unsigned e = 0; e < w->nd * per_reg(w->df16); e++) {
            unsigned r, c;
            elem_pos(w, 'd', w->nd * per_reg(w->df16), l, e, &r, &c);
            frag_put(fb, w->d, w->df16, l, e, D[r][c]);
        }
    return VM_EXT_NEXT;
}

static bool shape(const ir_insn *in, wmma_rec *w) {
    if (ir_has_mod(in, IR_MOD_M16N16K16)) w->m = 16, w->n = 16, w->k = 16;
    else if (ir_has_mod(in, IR_MOD_M32N8K16)) w->m = 32, w->n = 8, w->k = 16;
    else if (ir_has_mod(in, IR_MOD_M8N32K16)) w->m = 8, w->n = 32, w->k = 16;
    else return false;
    return true;
}

static uint8_t regs_of(lctx *lc, const ir_operand *v, vm_opnd *out) {
    uint8_t n = 0;
    for (uint32_t k = 0; k < v->nsub && k < 8; k++) out[n++] = vm_lsrc(lc, &v->sub[k], IR_T_B32);
    return n;
}

bool vm_lower_wmma(lctx *lc, const ir_insn *in) {
    if (in->op != IR_OP_WMMA) return false;
    wmma_rec *w = calloc(1, sizeof *w);
    if (!w) { vm_lfail(lc, "out of memory"); return true; }
    if (!shape(in, w)) {
        free(w);
        return false;
    }
    bool ld = ir_has_mod(in, IR_MOD_LOAD), st = ir_has_mod(in, IR_MOD_STORE);
    vm_insn vi = vm_lbase(lc, VM_EXT);
    if (ld || st) {
        w->kind = ld ? W_LOAD : W_STORE;
        w->which = ir_has_mod(in, IR_MOD_A) ? 'a' : ir_has_mod(in, IR_MOD_B) ? 'b' : ir_has_mod(in, IR_MOD_C) ? 'c' : 'd';
        w->col = ir_has_mod(in, IR_MOD_COL);
        uint8_t t = in->ntypes ? in->types[in->ntypes - 1] : IR_T_F16;
        w->f16 = t == IR_T_F16;
        if (!w->f16 && t != IR_T_F32) {
            free(w);
            return false;
        }
        const ir_operand *regs = &in->opnds[ld ? 0 : 1], *addr = &in->opnds[ld ? 1 : 0];
        if (regs->kind != IR_OPND_VEC || in->nopnds < 2) { free(w); return false; }
        w->nregs = regs_of(lc, regs, w->r);
        if (ld)
            for (uint8_t k = 0; k < w->nregs; k++) w->r[k] = vm_ldst(lc, &regs->sub[k]);
        w->stride = in->nopnds > 2 ? vm_lsrc(lc, &in->opnds[2], IR_T_U32).off : vm_lsrc(lc, &(ir_operand){.kind = IR_OPND_IMM_INT, .ival = w->which == 'a' || w->which == 'b' ? 16 : w->n}, IR_T_U32).off;
        vm_laddr(lc, addr, vm_lspace(in), &vi);
        w->run = run_ldst;
    } else if (ir_has_mod(in, IR_MOD_MMA)) {
        if (in->nopnds != 4 || in->ntypes < 2) { free(w); return false; }
        w->kind = W_MMA;
        w->df16 = in->types[0] == IR_T_F16;
        w->cf16 = in->types[1] == IR_T_F16;
        w->nd = regs_of(lc, &in->opnds[0], w->d);
        for (uint8_t k = 0; k < w->nd; k++) w->d[k] = vm_ldst(lc, &in->opnds[0].sub[k]);
        w->na = regs_of(lc, &in->opnds[1], w->a);
        w->nb = regs_of(lc, &in->opnds[2], w->b);
        w->nc = regs_of(lc, &in->opnds[3], w->c);
        w->run = run_mma;
    } else {
        free(w);
        return false;
    }
    vi.p = w;
    vm_lemit(lc, vi);
    return true;
}
