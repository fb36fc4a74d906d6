/* wgmma.c — warpgroup matrix multiply-accumulate (sm_90a): wgmma.mma_async
 * for every dense shape and type of the PTX ISA (m64nNk8/16/32/256; f16,
 * bf16, tf32, e4m3/e5m2, s8/u8, b1; f16/f32/s32 accumulators), A from
 * registers or shared memory, B from shared memory through matrix descriptors
 * (every swizzle mode, both majorness), scale-d, immediate negation and
 * transposes; wgmma.fence, commit_group and wait_group.
 *
 * The four warps of a warpgroup each hold 16 rows of A (from registers) and
 * of D, and all read the same B, so a warp's part of the product depends on
 * nothing the other warps hold: each warp computes its rows when it reaches
 * the instruction. The product is mma_core.c's, with the summation measured
 * on an H100 (ptx-samples/wgmma; interp/ALU.md). The result is written when
 * the instruction runs; the asynchronous-proxy rules only say when a correct
 * program may look at it, and ptxi's answers are those of the GPU for every
 * program that waits (wait_group) before reading the accumulators. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_mem.h"
#include "lower_ext.h"
#include "mma_core.h"

enum { G_FENCE, G_COMMIT, G_WAIT, G_MMA, G_ELECT, G_MAXNREG };

typedef struct wg_rec {
    vm_ext_fn run;
    uint8_t kind;    /* G_* */
    vm_mma_op op;    /* m is 64: the warpgroup's rows */
    bool a_regs;     /* A from registers (else a descriptor) */
    bool tra, trb;   /* A, B stored M/N-major (transposed) */
    bool nega, negb; /* immediate scale -1 */
    uint8_t nd, na;
    int8_t scale_imm; /* scale-d an immediate 0 or 1; -1: the predicate scale_d */
    vm_opnd scale_d;
    vm_opnd da, db; /* descriptors (da unused with a_regs) */
    vm_opnd a[4];
    vm_opnd d[128];  /* elect.sync: d[0] the leader's lane, d[1] the predicate, a[0] the member mask */
    char early[160]; /* an accumulator used before wgmma.wait_group (reported when this runs) */
} wg_rec;

/* Elements per 32-bit register of type t. */
static unsigned per_reg(int t) { return 32u / (unsigned)vm_mt_bits(t); }

/* ---- shared-memory operands through matrix descriptors ----
 * A descriptor: bits 0-13 start address, 16-29 leading byte offset (LBO),
 * 32-45 stride byte offset (SBO), all in 16-byte units; 62-63 swizzle (0 none,
 * 1 128B, 2 64B, 3 32B). The operand is made of 16-byte-wide blocks of 8
 * rows. K-major (the usual layout), row r and byte b of K: without swizzle
 * the 8 rows of a block are 16 bytes apart, the blocks along K are LBO apart
 * and the groups of 8 rows SBO apart; with a swizzle of W bytes a row is W
 * bytes (K fits in it), 8 rows W apart, groups of 8 rows SBO apart. M/N-major
 * (transposed, 16-bit types), byte b along M/N and row k of K: without
 * swizzle 16 bytes of M/N in a row, the 8 rows 16 bytes apart, the next 16
 * bytes of M/N SBO and the next 8 rows LBO further; with W: W bytes of M/N in
 * a row, 8 rows W apart, the next W bytes of M/N LBO and the next 8 rows SBO
 * further. The swizzle then XORs address bits 4.. with bits 7.. (one bit for
 * 32B, two for 64B, three for 128B) of the shared address. */
typedef struct wg_desc {
    uint32_t start, lbo, sbo, width; /* width: swizzle row bytes, 0 none */
} wg_desc;

static wg_desc decode(uint64_t v) {
    static const uint32_t widths[4] = {0, 128, 64, 32};
    return (wg_desc){(uint32_t)(v & 0x3FFF) << 4, (uint32_t)(v >> 16 & 0x3FFF) << 4, (uint32_t)(v >> 32 & 0x3FFF) << 4,
                     widths[v >> 62]};
}

/* Shared address of byte `mn` along M/N (transposed) or of row `mn` and byte
 * `kb` along K (not), k the row along K when transposed. */
static uint32_t addr_of(const wg_desc *d, bool trans, uint32_t mn, uint32_t kb) {
    uint32_t a, w = d->width;
    if (!trans) a = w ? mn % 8 * w + mn / 8 * d->sbo + kb : mn % 8 * 16 + mn / 8 * d->sbo + kb / 16 * d->lbo + kb % 16;
    else
        a = w ? mn % w + mn / w * d->lbo + kb % 8 * w + kb / 8 * d->sbo
              : mn % 16 + mn / 16 * d->sbo + kb % 8 * 16 + kb / 8 * d->lbo;
    a += d->start;
    if (w) a ^= (a >> 3) & ((w / 16 - 1) << 4);
    return a;
}

/* Reads an operand of `rows` (M or N) x K elements of type t into X (row-major,
 * rows x K), rows from row0 on. Returns false after reporting a fault. */
static bool load_desc(vm_warp *wp, const vm_insn *i, uint64_t dv, bool trans, int t, unsigned row0, unsigned rows,
                      unsigned K, uint64_t *X) {
    wg_desc d = decode(dv);
    const vm_cta *cta = wp->cta;
    unsigned bits = (unsigned)vm_mt_bits(t);
    for (unsigned r = 0; r < rows; r++)
        for (unsigned k = 0; k < K; k++) {
            unsigned mn = row0 + r, bit = (trans ? mn : k) * bits;
            uint32_t a = trans ? addr_of(&d, true, bit / 8, k) : addr_of(&d, false, mn, bit / 8);
            unsigned bytes = bits < 8 ? 1 : bits / 8;
            if ((uint64_t)a + bytes > cta->smem_full) {
                vm_fault_at(wp, i, 0, PTXI_ILLEGAL_INSTRUCTION,
                            "wgmma.mma_async: matrix descriptor 0x%016llx reaches shared address 0x%x (the shared "
                            "window holds %u bytes)",
                            (unsigned long long)dv, a, cta->smem_full);
                return false;
            }
            uint64_t v = load_bits(cta->smem + a, bytes, false);
            X[r * K + k] = bits < 8 ? v >> (bit % 8) & 1 : v;
        }
    return true;
}

/* ---- register fragments of a warp (16 rows of the warpgroup's 64) ---- */

/* Row and column of element e of lane l's D registers (N columns). */
static void d_pos(int l, unsigned e, unsigned *r, unsigned *c) {
    unsigned g = (unsigned)l >> 2, q = (unsigned)l & 3;
    /* four elements per 8-column block: (g, 2q), (g, 2q+1), (g+8, 2q), (g+8, 2q+1) */
    *r = g + 8 * (e >> 1 & 1);
    *c = e / 4 * 8 + 2 * q + (e & 1);
}

/* Row and column of element e of lane l's A registers (16 rows x K). */
static void a_pos(int ta, unsigned K, int l, unsigned e, unsigned *r, unsigned *c) {
    unsigned g = (unsigned)l >> 2, q = (unsigned)l & 3, P = per_reg(ta), reg = e / P;
    *r = g + 8 * (reg & 1);
    *c = reg / 2 * (K / 2) + q * P + e % P;
}

static uint64_t negate(int t, uint64_t v) { return v ^ (1ull << (vm_mt_bits(t) - 1)); }

static int run_mma(vm_warp *wp, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const wg_rec *g = i->p;
    if (m != VM_FULL) {
        vm_fault_at(wp, i, __builtin_ctz(m), PTXI_ILLEGAL_INSTRUCTION,
                    "wgmma.mma_async needs all 32 lanes of the warp (mask 0x%08x)", m);
        return VM_EXT_FAULT;
    }
    if (g->early[0]) {
        vm_fault_at(wp, i, 0, PTXI_ILLEGAL_INSTRUCTION, "%s", g->early);
        return VM_EXT_FAULT;
    }
    vm_mma_op o = g->op;
    unsigned N = o.n, K = o.k, row0 = 16 * (wp->id % 4);
    o.m = 16;
    /* A (16 x K), B as read (N x K), B (K x N), C and D (16 x N) */
    uint64_t *A = malloc(sizeof *A * (16 * K + 2 * (size_t)K * N + 2 * 16 * N));
    if (!A) {
        vm_fault_at(wp, i, 0, PTXI_OUT_OF_MEMORY, "out of memory");
        return VM_EXT_FAULT;
    }
    uint64_t *Bn = A + 16 * K, *B = Bn + (size_t)K * N, *C = B + (size_t)K * N, *D = C + 16 * N;
    int ret = VM_EXT_FAULT;
    if (!load_desc(wp, i, get_reg(fb, g->db.off, g->db.kind, 0), g->trb, o.tb, 0, N, K, Bn)) goto out;
    for (unsigned n = 0; n < N; n++)
        for (unsigned k = 0; k < K; k++) B[k * N + n] = Bn[n * K + k];
    if (g->negb)
        for (unsigned x = 0; x < K * N; x++) B[x] = negate(o.tb, B[x]);
    /* A: this warp's 16 rows */
    if (g->a_regs) {
        unsigned E = 4 * per_reg(o.ta);
        for (int l = 0; l < VM_LANES; l++) {
            uint64_t v[4];
            for (int q = 0; q < 4; q++) v[q] = get_reg(fb, g->a[q].off, g->a[q].kind, l);
            for (unsigned e = 0; e < E; e++) {
                unsigned r, c;
                a_pos(o.ta, K, l, e, &r, &c);
                A[r * K + c] = vm_mt_get(o.ta, v, e);
            }
        }
    } else if (!load_desc(wp, i, get_reg(fb, g->da.off, g->da.kind, 0), g->tra, o.ta, row0, 16, K, A)) {
        goto out;
    }
    if (g->nega)
        for (unsigned x = 0; x < 16 * K; x++) A[x] = negate(o.ta, A[x]);
    /* C: the accumulators, or zero when scale-d is false */
    bool scale = g->scale_imm >= 0 ? g->scale_imm == 1 : (*(const uint32_t *)(fb + g->scale_d.off) & 1) != 0;
    unsigned E = g->nd * per_reg(o.td);
    for (int l = 0; l < VM_LANES; l++) {
        uint64_t v[128];
        for (int q = 0; q < g->nd; q++) v[q] = get_reg(fb, g->d[q].off, g->d[q].kind, l);
        for (unsigned e = 0; e < E; e++) {
            unsigned r, c;
            d_pos(l, e, &r, &c);
            C[r * N + c] = scale ? vm_mt_get(o.tc, v, e) : 0;
        }
    }
    vm_mma_tile(&o, A, B, C, D);
    for (int l = 0; l < VM_LANES; l++) {
        uint64_t v[128] = {0};
        for (unsigned e = 0; e < E; e++) {
            unsigned r, c;
            d_pos(l, e, &r, &c);
            vm_mt_put(o.td, v, e, D[r * N + c]);
        }
        for (int q = 0; q < g->nd; q++) put_reg(fb, g->d[q].off, g->d[q].kind, l, v[q]);
    }
    ret = VM_EXT_NEXT;
out:
    free(A);
    return ret;
}

static int run_sync(vm_warp *wp, uint8_t *fb, const vm_insn *i, uint32_t m) {
    (void)fb;
    if (m != VM_FULL) {
        int k = ((const wg_rec *)i->p)->kind;
        vm_fault_at(wp, i, __builtin_ctz(m), PTXI_ILLEGAL_INSTRUCTION,
                    "%s needs all 32 lanes of the warp (mask 0x%08x)",
                    k == G_FENCE     ? "wgmma.fence"
                    : k == G_MAXNREG ? "setmaxnreg"
                                     : "wgmma.commit_group / wait_group",
                    m);
        return VM_EXT_FAULT;
    }
    return VM_EXT_NEXT;
}

/* elect.sync d|p, membermask: the lowest lane of the mask that executes is
 * the leader; every lane gets its number in d, and p is true in the leader. */
static int run_elect(vm_warp *wp, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const wg_rec *g = i->p;
    int first = __builtin_ctz(m);
    uint32_t mask = (uint32_t)get_reg(fb, g->a[0].off, g->a[0].kind, first);
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1 && (uint32_t)get_reg(fb, g->a[0].off, g->a[0].kind, l) != mask) {
            vm_fault_at(wp, i, l, PTXI_ILLEGAL_INSTRUCTION,
                        "elect.sync: lanes disagree on the member mask (0x%08x, 0x%08x)", mask,
                        (uint32_t)get_reg(fb, g->a[0].off, g->a[0].kind, l));
            return VM_EXT_FAULT;
        }
    if ((m & mask) != mask) {
        vm_fault_at(wp, i, first, PTXI_ILLEGAL_INSTRUCTION,
                    "elect.sync: lanes 0x%08x of the member mask 0x%08x do not execute it", mask & ~m, mask);
        return VM_EXT_FAULT;
    }
    int leader = mask & m ? __builtin_ctz(mask & m) : -1;
    for (int l = 0; l < VM_LANES; l++) {
        if (!(m >> l & 1)) continue;
        put_reg(fb, g->d[0].off, g->d[0].kind, l, (uint32_t)leader);
        if (g->d[1].kind == VM_K_PRED) {
            uint32_t *p = (uint32_t *)(fb + g->d[1].off);
            *p = (*p & ~(1u << l)) | (uint32_t)(l == leader) << l;
        }
    }
    return VM_EXT_NEXT;
}

/* ---- lowering ---- */

/* The A/B types a K takes, and the accumulators of an A type. */
static bool types_ok(const vm_mma_op *o) {
    int ta = o->ta, tb = o->tb, td = o->td;
    bool fp8a = ta == MT_E4M3 || ta == MT_E5M2, fp8b = tb == MT_E4M3 || tb == MT_E5M2;
    bool i8a = ta == MT_S8 || ta == MT_U8, i8b = tb == MT_S8 || tb == MT_U8;
    switch (o->k) {
    case 16:
        return (ta == MT_F16 && tb == ta && (td == MT_F32 || td == MT_F16)) ||
               (ta == MT_BF16 && tb == ta && td == MT_F32);
    case 8: return ta == MT_TF32 && tb == ta && td == MT_F32;
    case 32: return (fp8a && fp8b && (td == MT_F32 || td == MT_F16)) || (i8a && i8b && td == MT_S32);
    case 256: return ta == MT_B1 && tb == ta && td == MT_S32;
    default: return false;
    }
}

static bool imm_of(const ir_operand *o, int64_t *v) {
    if (o->kind != IR_OPND_IMM_INT) return false;
    *v = o->ival;
    return true;
}

/* Whether operand o names register `reg` (in any part of it). */
static bool names_reg(const ir_operand *o, uint32_t reg) {
    if (o->kind == IR_OPND_REG) return o->reg == reg;
    if (o->kind == IR_OPND_ADDR || o->kind == IR_OPND_VEC || o->kind == IR_OPND_LIST || o->kind == IR_OPND_PAIR)
        for (uint32_t k = 0; k < o->nsub; k++)
            if (names_reg(&o->sub[k], reg)) return true;
    return false;
}

/* The accumulators of a wgmma.mma_async belong to the asynchronous proxy
 * until a wgmma.wait_group retires its group: an instruction that reads or
 * writes one of them before that is the program's bug. Looks at the
 * straight-line code after `in` (up to a label, a branch or the wait) and
 * describes the first such use in g->early, which the instruction reports
 * when it runs. */
static void check_early_use(lctx *lc, const ir_insn *in, const ir_operand *d, wg_rec *g) {
    const ir_func *f = vm_lfunc(lc);
    uint32_t at = f->nbody;
    for (uint32_t k = 0; k < f->nbody; k++)
        if (f->body[k].kind == IR_ST_INSN && &f->body[k].u.insn == in) at = k;
    for (uint32_t k = at + 1; k < f->nbody; k++) {
        const ir_stmt *st = &f->body[k];
        if (st->kind == IR_ST_LABEL) return;
        if (st->kind != IR_ST_INSN) continue;
        const ir_insn *x = &st->u.insn;
        if (x->op == IR_OP_WGMMA) {
            if (ir_has_mod(x, IR_MOD_WAIT_GROUP)) return;
            continue; /* fences, commits and chained products on the same accumulators */
        }
        for (uint32_t r = 0; r < d->nsub; r++)
            for (uint32_t q = 0; q < x->nopnds; q++)
                if (d->sub[r].kind == IR_OPND_REG && names_reg(&x->opnds[q], d->sub[r].reg)) {
                    snprintf(g->early, sizeof g->early,
                             "accumulator %s of wgmma.mma_async is used at line %u before wgmma.wait_group retires it",
                             f->regs[d->sub[r].reg].name, x->loc.line);
                    return;
                }
        if (x->op == IR_OP_BRA || x->op == IR_OP_RET || x->op == IR_OP_EXIT || x->op == IR_OP_CALL) return;
    }
}

static bool lower_mma(lctx *lc, const ir_insn *in, wg_rec *g) {
    vm_mma_op *o = &g->op;
    for (uint32_t q = 0; q < in->nmods && !o->m; q++) {
        ir_shape s = ir_mod_shape[in->mods[q]];
        if (s.m == 64 && s.k) o->m = 64, o->n = s.n, o->k = s.k;
    }
    if (!o->m || !ir_has_mod(in, IR_MOD_SYNC) || !ir_has_mod(in, IR_MOD_ALIGNED) || in->ntypes != 3) return false;
    int t[3];
    for (int q = 0; q < 3; q++)
        if ((t[q] = vm_mt_of_ir(in->types[q])) < 0) return false;
    o->td = o->tc = (uint8_t)t[0], o->ta = (uint8_t)t[1], o->tb = (uint8_t)t[2];
    o->satfinite = ir_has_mod(in, IR_MOD_SATFINITE);
    o->bop = ir_has_mod(in, IR_MOD_AND) ? VM_BOP_AND : VM_BOP_NONE;
    bool b1 = o->ta == MT_B1, fp = o->td != MT_S32, f16 = o->ta == MT_F16 || o->ta == MT_BF16;
    if (!types_ok(o) || b1 != (o->bop == VM_BOP_AND) || b1 != ir_has_mod(in, IR_MOD_POPC) ||
        (o->satfinite && (fp || b1)))
        return false;
    if (o->n % 8 || o->n > 256) return false;
    /* operands: d, a, b-desc, scale-d [, imm-scale-a, imm-scale-b [, imm-trans-a], imm-trans-b] */
    const ir_operand *op = in->opnds;
    g->a_regs = in->nopnds >= 2 && op[1].kind == IR_OPND_VEC;
    unsigned nimm = fp ? (f16 ? (g->a_regs ? 3 : 4) : 2) : 0;
    if (in->nopnds != 4 + nimm) return false;
    int64_t v[4] = {1, 1, 0, 0};
    for (unsigned q = 0; q < nimm; q++) {
        unsigned at = q < 2 ? q : g->a_regs ? 3 : q;
        if (!imm_of(&op[4 + q], &v[at])) return false;
    }
    if ((v[0] != 1 && v[0] != -1) || (v[1] != 1 && v[1] != -1) || (uint64_t)v[2] > 1 || (uint64_t)v[3] > 1)
        return false;
    g->nega = v[0] < 0, g->negb = v[1] < 0, g->tra = v[2], g->trb = v[3];
    g->nd = 0;
    if (op[0].kind != IR_OPND_VEC || op[0].nsub != o->n * 64u / 128 / per_reg(o->td) || op[0].nsub > 128) return false;
    for (uint32_t k = 0; k < op[0].nsub; k++) g->d[k] = vm_ldst(lc, &op[0].sub[k]);
    g->nd = (uint8_t)op[0].nsub;
    check_early_use(lc, in, &op[0], g);
    if (g->a_regs) {
        if (op[1].nsub != 4 || g->tra) return false;
        for (int k = 0; k < 4; k++) g->a[k] = vm_lsrc(lc, &op[1].sub[k], IR_T_B32);
    } else {
        g->da = vm_lsrc(lc, &op[1], IR_T_B64);
    }
    g->db = vm_lsrc(lc, &op[2], IR_T_B64);
    g->scale_imm = -1;
    if (op[3].kind == IR_OPND_IMM_INT) {
        if (op[3].ival != 1 && op[3].ival != 0) return false;
        g->scale_imm = (int8_t)op[3].ival;
    } else {
        g->scale_d = vm_lsrc(lc, &op[3], IR_T_PRED);
        if (op[3].neg || g->scale_d.kind != VM_K_PRED) return false;
    }
    /* tensor-core summation steps, as measured (interp/ALU.md) */
    o->fp8_wide = o->ta == MT_E4M3 || o->ta == MT_E5M2;
    g->kind = G_MMA;
    g->run = run_mma;
    return true;
}

/* elect.sync d|p, membermask (either destination may be _). */
static bool lower_elect(lctx *lc, const ir_insn *in, wg_rec *g) {
    const ir_operand *o = in->opnds;
    if (in->nopnds != 2 || !ir_has_mod(in, IR_MOD_SYNC) || o[0].kind != IR_OPND_PAIR) return false;
    g->d[0] = vm_ldst(lc, &o[0].sub[0]);
    g->d[1] = vm_ldst(lc, &o[0].sub[1]);
    g->a[0] = vm_lsrc(lc, &o[1], IR_T_B32);
    if (g->d[1].kind != VM_K_PRED && g->d[1].kind != VM_K_SINK) return false;
    g->kind = G_ELECT;
    g->run = run_elect;
    return true;
}

/* setmaxnreg.{inc,dec}.sync.aligned.u32 n: moves registers between the
 * warpgroups of the CTA on the GPU; ptxi's register files do not shrink, so
 * it only checks its operand (a multiple of 8 in [24, 256]) and that the
 * whole warp executes it. */
static bool lower_maxnreg(const ir_insn *in, wg_rec *g) {
    const ir_operand *o = in->opnds;
    if (in->nopnds != 1 || o[0].kind != IR_OPND_IMM_INT || o[0].ival < 24 || o[0].ival > 256 || o[0].ival % 8 ||
        !ir_has_mod(in, IR_MOD_SYNC) || !ir_has_mod(in, IR_MOD_ALIGNED))
        return false;
    g->kind = G_MAXNREG;
    g->run = run_sync;
    return true;
}

bool vm_lower_wgmma(lctx *lc, const ir_insn *in) {
    if (in->op != IR_OP_WGMMA && in->op != IR_OP_ELECT && in->op != IR_OP_SETMAXNREG) return false;
    wg_rec *g = calloc(1, sizeof *g);
    if (!g) {
        vm_lfail(lc, "out of memory");
        return true;
    }
    bool ok;
    if (in->op == IR_OP_ELECT) {
        ok = lower_elect(lc, in, g);
    } else if (in->op == IR_OP_SETMAXNREG) {
        ok = lower_maxnreg(in, g);
    } else if (ir_has_mod(in, IR_MOD_MMA_ASYNC)) {
        ok = !ir_has_mod(in, IR_MOD_SP) && lower_mma(lc, in, g);
    } else {
        g->kind = ir_has_mod(in, IR_MOD_COMMIT_GROUP) ? G_COMMIT : ir_has_mod(in, IR_MOD_WAIT_GROUP) ? G_WAIT : G_FENCE;
        ok = ir_has_mod(in, IR_MOD_SYNC) && ir_has_mod(in, IR_MOD_ALIGNED) &&
             in->nopnds == (g->kind == G_WAIT ? 1u : 0u) &&
             (g->kind != G_WAIT || in->opnds[0].kind == IR_OPND_IMM_INT) &&
             (g->kind != G_FENCE || ir_has_mod(in, IR_MOD_FENCE));
        g->run = run_sync;
    }
    if (!ok) {
        free(g);
        return false;
    }
    vm_insn vi = vm_lbase(lc, VM_EXT);
    vi.p = g;
    vm_lemit(lc, vi);
    return true;
}
