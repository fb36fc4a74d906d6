/* jit.c — a template JIT for x86-64 with AVX-512: each maximal straight-line
 * run of records (split at branch targets, ended by what has no template:
 * barriers, calls, exits, most collectives) becomes one function whose body
 * is, per record, a few hand-encoded AVX-512 instructions on the frame's lane
 * arrays (a 32-bit register is two zmm, a 64-bit one four), cached in zmm
 * registers across the run, or a call to the handlers' own checked paths. Why: the interpreter spends 4.5-6 ns per warp instruction on
 * dispatch, operand decoding and the guard, several times the work itself
 * (bench/README.md). */
#include "jit.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) && !defined(PTXI_SWITCH_DISPATCH)
#include <sys/mman.h>
#include <unistd.h>

#include "exec_mem.h"
#include "lower_ext.h"

/* ---- the records' memory and ALU paths, called from compiled code ----
 * Each runs its record exactly as its handler in exec.c does for a converged
 * group (the lanes of its guard): 1, or 0 with the fault recorded. */
static int run_mem(vm_jit_ctx *c, const vm_insn *i) {
    vm_frame *fr = c->fr;
    uint8_t *fb = fr->fb;
    uint32_t m = (*(const uint32_t *)(fb + i->g) ^ i->gx) & ~c->off;
    if (!m) return 1;
    vm_warp *w = c->w;
    bool ok;
    switch (i->op) {
    case VM_LDG4: {
        const vm_arena *ar = fr->fn->prog->rt->arena;
        const uint64_t *a = (const uint64_t *)(fb + i->a);
        if (m == VM_FULL && vm_ldg4_full(ar, a, (uint64_t)i->imm, (uint32_t *)(fb + i->d))) {
            vm_prefetch_next_warp(c->cta, w->id, i, a[0] + (uint64_t)i->imm, a[VM_HALF] + (uint64_t)i->imm);
            return 1;
        }
        ok = vm_ldg4_part(fr->fn->prog->rt->arena, a, (uint64_t)i->imm, (uint32_t *)(fb + i->d), m) ||
             vm_ld(w, fr, fb, i, m);
        break;
    }
    case VM_STG4: {
        const uint64_t *a = (const uint64_t *)(fb + i->a);
        const uint32_t *v = (const uint32_t *)(fb + i->b);
        const vm_arena *ar = fr->fn->prog->rt->arena;
        ok = (m == VM_FULL && vm_stg4_full(ar, a, (uint64_t)i->imm, v)) || vm_stg4_part(ar, a, (uint64_t)i->imm, v, m) ||
             vm_st(w, fr, fb, i, m);
        break;
    }
    case VM_LDS4: {
        const uint32_t *a = (const uint32_t *)(fb + i->a);
        uint32_t *d = (uint32_t *)(fb + i->d);
        ok = (m == VM_FULL && vm_lds4_full(c->cta, a, (uint32_t)i->imm, d)) ||
             vm_lds4_part(c->cta, a, (uint32_t)i->imm, d, m) || vm_ld(w, fr, fb, i, m);
        break;
    }
    case VM_STS4: {
        const uint32_t *a = (const uint32_t *)(fb + i->a), *v = (const uint32_t *)(fb + i->b);
        ok = (m == VM_FULL && vm_sts4_full(c->cta, a, (uint32_t)i->imm, v)) ||
             vm_sts4_part(c->cta, a, (uint32_t)i->imm, v, m) || vm_st(w, fr, fb, i, m);
        break;
    }
    case VM_LD: ok = vm_ld(w, fr, fb, i, m); break;
    case VM_ST: ok = vm_st(w, fr, fb, i, m); break;
    case VM_LDV: ok = vm_ldv(w, fr, fb, i, m); break;
    case VM_STV: ok = vm_stv(w, fr, fb, i, m); break;
    case VM_ATOM: ok = vm_atom(w, fr, fb, i, m); break;
    default: vm_alu_run(w, fb, i->p, m); return 1; /* VM_ALU */
    }
    if (!ok) c->fault |= VM_JIT_FAULT;
    return ok;
}

/* A converged warp's shfl.sync with the full member mask, as exec.c's
 * shortcut runs it; 0: not that case (the run ends and exec.c's handler runs it). */
static int run_shfl(vm_jit_ctx *c, const vm_insn *i) {
    uint8_t *fb = c->fr->fb;
    if ((*(const uint32_t *)(fb + i->g) ^ i->gx) != VM_FULL || c->w->forced) return 0;
    return vm_shfl_full(fb, i);
}

/* ---- the encoder ---- */
typedef struct cbuf {
    uint8_t *p;
    size_t n, cap;
    bool oom;
} cbuf;

static void put(cbuf *b, const void *s, size_t n) {
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + n) cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}
static void b1(cbuf *b, uint8_t v) { put(b, &v, 1); }
static void b32(cbuf *b, uint32_t v) { put(b, &v, 4); }
static void b64(cbuf *b, uint64_t v) { put(b, &v, 8); }

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R12 = 12, R13 = 13 };
enum { FB = RBX, CTX = R12 }; /* callee-saved: the frame and the context */
enum { M0F = 1, M0F38 = 2, M0F3A = 3 };
enum { PNONE, P66, PF3, PF2 };

/* An r/m operand: a register (zmm, k or general) or [base + disp32]; bc:
 * the memory's first element broadcast to every lane (EVEX.b, {1toN}). */
typedef struct rm {
    bool mem;
    int r;
    int32_t d;
    bool bc;
} rm;
static rm R(int r) { return (rm){false, r, 0, false}; }
static rm M(int base, int64_t d) { return (rm){true, base, (int32_t)d, false}; }
static rm F(uint32_t off) { return M(FB, off); } /* a frame slot */

static void modrm(cbuf *b, int reg, rm o) {
    if (!o.mem) {
        b1(b, (uint8_t)(0xc0 | (reg & 7) << 3 | (o.r & 7)));
        return;
    }
    b1(b, (uint8_t)(0x80 | (reg & 7) << 3 | (o.r & 7)));
    if ((o.r & 7) == RSP) b1(b, 0x24);
    b32(b, (uint32_t)o.d);
}

/* EVEX: op reg, vvvv, r/m with writemask k (0: none); vector length ll (2: 512 bits, 0: 128). */
static void evexl(cbuf *b, int ll, int map, int pp, int w, uint8_t op, int reg, int v, rm o, int k) {
    int x = o.mem ? 0 : o.r >> 4 & 1;
    b1(b, 0x62);
    b1(b, (uint8_t)((!(reg & 8)) << 7 | (!x) << 6 | (!(o.r & 8)) << 5 | (!(reg & 16)) << 4 | map));
    b1(b, (uint8_t)(w << 7 | (~v & 15) << 3 | 4 | pp));
    b1(b, (uint8_t)(ll << 5 | (o.mem && o.bc) << 4 | (!(v & 16)) << 3 | (k & 7)));
    b1(b, op);
    modrm(b, reg, o);
}
static void evex(cbuf *b, int map, int pp, int w, uint8_t op, int reg, int v, rm o, int k) {
    evexl(b, 2, map, pp, w, op, reg, v, o, k);
}
/* jcc rel32 (cc: the second opcode byte, 0x85 jnz ...): returns where its displacement goes. */
static size_t jcc(cbuf *b, uint8_t cc) {
    uint8_t x[2] = {0x0f, cc};
    put(b, x, 2);
    b32(b, 0);
    return b->n - 4;
}
static size_t jmp32(cbuf *b) {
    b1(b, 0xe9);
    b32(b, 0);
    return b->n - 4;
}
/* The jump whose displacement is at `at` goes to the current position. */
static void land(cbuf *b, size_t at) {
    if (b->oom) return;
    uint32_t d = (uint32_t)(b->n - (at + 4));
    memcpy(b->p + at, &d, 4);
}
/* A general-register instruction: REX, opcode, ModRM. */
static void gop(cbuf *b, bool w64, uint8_t op, int reg, rm o) {
    uint8_t rex = (uint8_t)(0x40 | w64 << 3 | (reg >> 3 & 1) << 2 | (o.r >> 3 & 1));
    if (rex != 0x40) b1(b, rex);
    b1(b, op);
    modrm(b, reg, o);
}
/* VEX kmov{w,b} between k1..k7 and eax/ecx/edx: to k (load) or from k. */
static void kmov(cbuf *b, bool byte, bool tok, int k, int g) {
    uint8_t x[4] = {0xc5, byte ? 0xf9 : 0xf8, tok ? 0x92 : 0x93,
                    (uint8_t)(0xc0 | (tok ? k : g) << 3 | (tok ? g : k))};
    put(b, x, 4);
}
static void shr_eax(cbuf *b, int n) {
    uint8_t x[3] = {0xc1, 0xe8, (uint8_t)n};
    put(b, x, 3);
}
static void mov_imm64(cbuf *b, int r, uint64_t v) {
    b1(b, (uint8_t)(0x48 | (r >> 3)));
    b1(b, (uint8_t)(0xb8 | (r & 7)));
    b64(b, v);
}

/* zmm instructions used below, as {map, pp, W, opcode}. */
typedef struct zop {
    uint8_t map, pp, w, op;
} zop;
static const zop LD32 = {M0F, PF3, 0, 0x6f}, ST32 = {M0F, PF3, 0, 0x7f}, LD64 = {M0F, PF3, 1, 0x6f},
                 MOVA64 = {M0F, P66, 1, 0x6f}, PERMI2D = {M0F38, P66, 0, 0x76}, BCD_X = {M0F38, P66, 0, 0x58},
                 UDQ2PD = {M0F, PF3, 0, 0x7a}, DQ2PS = {M0F, PNONE, 0, 0x5b}, UDQ2PS = {M0F, PF2, 0, 0x7a},
                 DIVPD = {M0F, P66, 1, 0x5e}, TPD2UDQ = {M0F, PNONE, 1, 0x78}, TESTNMD = {M0F38, PF3, 0, 0x27},
                 TESTMD = {M0F38, P66, 0, 0x27}, BCQ_X = {M0F38, P66, 1, 0x59}, D2M = {M0F38, PF3, 0, 0x39},
                 EXTR8 = {M0F3A, P66, 0, 0x3b}, INS8 = {M0F3A, P66, 0, 0x3a}, ST64 = {M0F, PF3, 1, 0x7f},
                 MOVA32 = {M0F, P66, 0, 0x6f}, ZXDQ = {M0F38, P66, 0, 0x35}, SXDQ = {M0F38, P66, 0, 0x25},
                 QD = {M0F38, PF3, 0, 0x35}, BCD_R = {M0F38, P66, 0, 0x7c}, BCQ_R = {M0F38, P66, 1, 0x7c},
                 BLENDD = {M0F38, P66, 0, 0x64}, BLENDQ = {M0F38, P66, 1, 0x64}, ADDD = {M0F, P66, 0, 0xfe},
                 ADDQ = {M0F, P66, 1, 0xd4}, SUBD = {M0F, P66, 0, 0xfa}, SUBQ = {M0F, P66, 1, 0xfb},
                 MULLD = {M0F38, P66, 0, 0x40}, MULLQ = {M0F38, P66, 1, 0x40}, ANDD = {M0F, P66, 0, 0xdb},
                 ANDQ = {M0F, P66, 1, 0xdb}, ORD = {M0F, P66, 0, 0xeb}, ORQ = {M0F, P66, 1, 0xeb},
                 XORD = {M0F, P66, 0, 0xef}, XORQ = {M0F, P66, 1, 0xef}, SLLVD = {M0F38, P66, 0, 0x47},
                 SLLVQ = {M0F38, P66, 1, 0x47}, SRLVD = {M0F38, P66, 0, 0x45}, SRLVQ = {M0F38, P66, 1, 0x45},
                 SRAVD = {M0F38, P66, 0, 0x46}, SRAVQ = {M0F38, P66, 1, 0x46}, MINSD = {M0F38, P66, 0, 0x39},
                 MAXSD = {M0F38, P66, 0, 0x3d}, MINUD = {M0F38, P66, 0, 0x3b}, MAXUD = {M0F38, P66, 0, 0x3f},
                 MULDQ = {M0F38, P66, 1, 0x28}, MULUDQ = {M0F, P66, 1, 0xf4}, TERND = {M0F3A, P66, 0, 0x25},
                 CMPD = {M0F3A, P66, 0, 0x1f}, CMPUD = {M0F3A, P66, 0, 0x1e}, CMPQ = {M0F3A, P66, 1, 0x1f},
                 CMPUQ = {M0F3A, P66, 1, 0x1e}, CMPPS = {M0F, PNONE, 0, 0xc2}, ADDPS = {M0F, PNONE, 0, 0x58},
                 SUBPS = {M0F, PNONE, 0, 0x5c}, MULPS = {M0F, PNONE, 0, 0x59}, FMA213PS = {M0F38, P66, 0, 0xa8},
                 TESTMQ = {M0F38, P66, 1, 0x27}, SHQI = {M0F, P66, 1, 0x73}, SHDI = {M0F, P66, 0, 0x72},
                 SRLD_X = {M0F, P66, 0, 0xd2}; /* SHQI, SHDI: vpsrl{q,d} (reg 2), vpsll{q,d} (reg 6) by imm8 */

static void z(cbuf *b, zop o, int reg, int v, rm r, int k) { evex(b, o.map, o.pp, o.w, o.op, reg, v, r, k); }
static void zi(cbuf *b, zop o, int reg, int v, rm r, int k, uint8_t imm) {
    z(b, o, reg, v, r, k);
    b1(b, imm);
}

/* ---- liveness of the frame's register lines ----
 * A result that no path from the end of a run reads before writing it again
 * is not stored at all. The unit is a 64-byte line of the frame (a 32-bit
 * register is two, a 64-bit one four); records the JIT has no template for
 * count as reading every line, and only unguarded writes kill. Per lane this
 * is exact whatever the divergence: each lane follows one path. */
typedef struct lset {
    uint64_t *w;
    uint32_t nw;
} lset;

static void mark(uint64_t *s, uint32_t off, uint32_t bytes) {
    for (uint32_t l = off / 64; l < (off + bytes + 63) / 64; l++) s[l / 64] |= 1ull << (l % 64);
}

/* Lines record i reads (use) and writes whole (def); false: it may read any. */
static bool rec_sets(const vm_func *f, const vm_insn *i, uint64_t *use, uint64_t *def) {
    bool g = !(i->g == f->true_slot && i->gx == 0);
    uint32_t dsz = 0, a = 0, b = 0, c = 0; /* bytes read / written of each operand */
    uint32_t rx = i->flags & VM_F_D64 ? 256 : 128;
    uint32_t ab = i->flags & VM_F_BASE_REG64 ? 256 : i->flags & VM_F_BASE_REG32 ? 128 : 0;
    switch (i->op) {
    case VM_NOP:
    case VM_BRA:
    case VM_PAND:
    case VM_POR:
    case VM_PXOR:
    case VM_PNOT:
    case VM_MOVP: break;
    case VM_EXIT:
    case VM_RET:
    case VM_FALLOFF:
        if (!f->ir->is_entry) return false;
        break;
    case VM_BRX: a = 128; break;
    case VM_BAR: a = 128, b = i->x & VM_BAR_COUNTED ? 128 : 0; break;
    case VM_SHFL: /* and the predicate d[1], which no record's sets count */
        dsz = a = b = c = 128;
        mark(use, (uint32_t)i->imm, 128);
        break;
    case VM_CVTF32S32: dsz = a = 128; break;
    case VM_ALU: { /* the ALU tables' records: every source read (a predicate's or 16-bit one's line or two) */
        const vm_alu *o = i->p;
        if (o->op.cc_in || o->op.cc_out) return false;
        for (int k = 0; k < o->op.ns && k < 6; k++)
            if (o->s[k].kind != VM_K_SINK)
                mark(use, o->s[k].off, o->s[k].kind == VM_K_R128 ? 512 : o->s[k].kind == VM_K_R64 ? 256 : 128);
        for (int k = 0; k < o->op.nd && k < 2; k++) {
            uint8_t kd = o->d[k].kind;
            if (kd == VM_K_R32 || kd == VM_K_R64) {
                if (!g) mark(def, o->d[k].off, kd == VM_K_R64 ? 256 : 128);
            } else if (kd != VM_K_PRED && kd != VM_K_SINK) return false;
        }
        break;
    }
    case VM_ADD32: case VM_SUB32: case VM_MUL32: case VM_AND32: case VM_OR32: case VM_XOR32: case VM_SHL32:
    case VM_SHRU32: case VM_SHRS32: case VM_MINS32: case VM_MAXS32: case VM_MINU32: case VM_MAXU32: case VM_MINF32: case VM_MAXF32: case VM_DIVU32: case VM_REMU32:
    case VM_ADDF32: case VM_SUBF32: case VM_MULF32: case VM_SELP32: dsz = a = b = 128; break;
    case VM_MAD32: case VM_FMAF32: dsz = a = b = c = 128; break;
    case VM_ADD64: case VM_SUB64: case VM_MUL64: case VM_AND64: case VM_OR64: case VM_XOR64:
    case VM_SELP64: dsz = a = b = 256; break;
    case VM_SHL64: case VM_SHRU64: case VM_SHRS64: dsz = a = 256, b = 128; break;
    case VM_MAD64: dsz = a = b = c = 256; break;
    case VM_MULWS32: case VM_MULWU32: dsz = 256, a = b = 128; break;
    case VM_MADWS32: case VM_MADWU32: dsz = c = 256, a = b = 128; break;
    case VM_MOV32: case VM_NOT32: dsz = a = 128; break;
    case VM_MOV64: dsz = a = 256; break;
    case VM_CVT_U64_U32: case VM_CVT_S64_S32: dsz = 256, a = 128; break;
    case VM_CVT_U32_U64: dsz = 128, a = 256; break;
    case VM_EQ_S32: case VM_NE_S32: case VM_LT_S32: case VM_LE_S32: case VM_GT_S32: case VM_GE_S32:
    case VM_EQ_U32: case VM_NE_U32: case VM_LT_U32: case VM_LE_U32: case VM_GT_U32: case VM_GE_U32:
    case VM_EQ_F32: case VM_NE_F32: case VM_LT_F32: case VM_LE_F32: case VM_GT_F32: case VM_GE_F32: a = b = 128; break;
    case VM_EQ_S64: case VM_NE_S64: case VM_LT_S64: case VM_LE_S64: case VM_GT_S64: case VM_GE_S64:
    case VM_EQ_U64: case VM_NE_U64: case VM_LT_U64: case VM_LE_U64: case VM_GT_U64: case VM_GE_U64: a = b = 256; break;
    case VM_LD_KPARAM: case VM_MOV_SREG: case VM_MOV_ADDR: dsz = rx; break;
    case VM_CVTA_TO: case VM_CVTA_FROM: dsz = rx, a = i->flags & VM_F_BASE_REG64 ? 256 : 128; break;
    case VM_LDG4: dsz = 128, a = 256; break;
    case VM_STG4: a = 256, b = 128; break;
    case VM_LDS4: dsz = a = 128; break;
    case VM_STS4: a = b = 128; break;
    case VM_LD: dsz = rx, a = ab; break;
    case VM_ST: a = ab, b = rx; break;
    case VM_ATOM: {
        const vm_alu *o = i->p;
        a = ab;
        for (int k = 0; k < ((i->x >> 8) == VM_AO_CAS ? 2 : 1); k++) {
            uint32_t n = o->s[k].kind == VM_K_R32 ? 128 : o->s[k].kind == VM_K_R64 ? 256 : 0;
            if (!n) return false;
            mark(use, o->s[k].off, n);
        }
        if (o->d[0].kind == VM_K_R32 || o->d[0].kind == VM_K_R64) {
            if (!g) mark(def, o->d[0].off, o->d[0].kind == VM_K_R32 ? 128 : 256);
        } else if (o->d[0].kind != VM_K_SINK) return false;
        break;
    }
    case VM_LDV:
    case VM_STV: {
        const vm_vec *v = i->p;
        a = ab;
        for (uint32_t k = 0; k < v->n; k++) {
            uint32_t n = v->e[k].kind == VM_K_R32 ? 128 : v->e[k].kind == VM_K_R64 ? 256 : 0;
            if (!n && v->e[k].kind != VM_K_SINK) return false;
            if (!n) continue;
            if (i->op == VM_STV) mark(use, v->e[k].off, n);
            else if (!g) mark(def, v->e[k].off, n);
        }
        break;
    }
    case VM_EXT: {
        vm_fused_form ff;
        if (!vm_fused_of(i, &ff)) return false;
        mark(use, ff.a, 128), mark(use, ff.b, 128), mark(use, ff.c, 128);
        if (!g) mark(def, ff.d, 128);
        break;
    }
    default: return false;
    }
    if (a) mark(use, i->a, a);
    if (b) mark(use, i->b, b);
    if (c) mark(use, i->c, c);
    if (dsz && !g) mark(def, i->d, dsz);
    return true;
}

/* The successors of record k among the first n records of f (at most cap
 * written to s; the count returned): the next record and branch targets; an
 * exit or return goes on only when guarded, and, with `restart`, to the
 * launch-invariant prologue's end of an entry function, where the warp's
 * next CTA in the launch goes on (hoist.c). */
static uint32_t rec_succ(const vm_func *f, uint32_t n, bool restart, uint32_t k, uint32_t *s, uint32_t cap) {
    const vm_insn *i = &f->code[k];
    bool g = !(i->g == f->true_slot && i->gx == 0), falls = true;
    uint32_t c = 0;
#define ADD_SUCC(t)                            \
    do {                                       \
        uint32_t t_ = (t);                     \
        if (t_ < n) {                          \
            if (c < cap) s[c] = t_;            \
            c++;                               \
        }                                      \
    } while (0)
    if (i->op == VM_BRA) {
        ADD_SUCC((uint32_t)(i->target - f->code));
        falls = g;
    } else if (i->op == VM_BRX) {
        for (int64_t t = 0; t < i->imm; t++) ADD_SUCC((uint32_t)(((const vm_insn *const *)i->p)[t] - f->code));
        falls = g;
    } else if (i->op == VM_EXIT || i->op == VM_RET || i->op == VM_FALLOFF) {
        falls = g && i->op != VM_FALLOFF;
        if (restart && f->ir->is_entry && f->nhoist) ADD_SUCC(f->nhoist);
    }
    if (falls) ADD_SUCC(k + 1);
#undef ADD_SUCC
    return c;
}

/* The flow graph of f's first n records as successor lists (CSR:
 * succ[at[k], at[k + 1])), as rec_succ gives them. */
static bool flow_graph(const vm_func *f, uint32_t n, bool restart, uint32_t **atp, uint32_t **succp) {
    uint32_t *at = malloc((n + 1) * sizeof *at), *succ = NULL;
    if (!at) return false;
    at[0] = 0;
    for (uint32_t k = 0; k < n; k++) at[k + 1] = at[k] + rec_succ(f, n, restart, k, NULL, 0);
    if (!(succ = malloc((at[n] + 1) * sizeof *succ))) {
        free(at);
        return false;
    }
    for (uint32_t k = 0; k < n; k++) rec_succ(f, n, restart, k, succ + at[k], at[k + 1] - at[k]);
    *atp = at, *succp = succ;
    return true;
}

/* Live-in lines of every record (ncode + 1 of them, the last the end's),
 * nw words each; NULL when out of memory. */
static uint64_t *liveness(const vm_func *f, uint32_t *nwp) {
    uint32_t n = f->ncode + 1, nw = ((f->frame_size + 63) / 64 + 63) / 64, *at = NULL, *succ = NULL;
    uint64_t *live = calloc((size_t)n * nw, 8), *use = calloc((size_t)n * nw, 8), *def = calloc((size_t)n * nw, 8);
    bool *all = calloc(n, 1);
    if (!live || !use || !def || !all || !flow_graph(f, n, true, &at, &succ)) {
        free(live);
        live = NULL;
        goto done;
    }
    for (uint32_t k = 0; k < n; k++) all[k] = !rec_sets(f, &f->code[k], use + (size_t)k * nw, def + (size_t)k * nw);
    for (bool more = true; more;) {
        more = false;
        for (uint32_t k = n; k-- > 0;) {
            uint64_t *in = live + (size_t)k * nw;
            for (uint32_t x = 0; x < nw; x++) {
                uint64_t out = 0;
                for (uint32_t e = at[k]; e < at[k + 1]; e++) out |= live[(size_t)succ[e] * nw + x];
                uint64_t v = all[k] ? ~0ull : use[(size_t)k * nw + x] | (out & ~def[(size_t)k * nw + x]);
                if (v != in[x]) in[x] = v, more = true;
            }
        }
    }
done:
    free(use);
    free(def);
    free(all);
    free(at);
    free(succ);
    *nwp = nw;
    return live;
}

/* ---- per-record templates, over a cache of registers in zmm ----
 * A run keeps the registers it reads and writes in zmm0..23 (two per 32-bit
 * register, four per 64-bit one), least recently used out first; results are
 * stored when evicted, before a call (which clobbers every zmm), and at the
 * end of the run, each only if live there. A record computes into ZT..ZT+3
 * and commits the result to its destination's registers. */
enum { NPOOL = 24, ZT = 24, ZQ = 28, ZX = 29, ZD = 30, ZNAN = 31 };

typedef struct centry {
    uint32_t off, used;
    uint8_t q64, dirty, valid;
    uint8_t z[4];
} centry;

/* What the cache holds at a point of the code. */
typedef struct cstate {
    bool nan_ok; /* zmm31 holds the canonical NaN */
    bool busy[NPOOL];
    centry e[NPOOL];
} cstate;

struct ifstub;

typedef struct jc {
    cbuf *b;
    const vm_func *f;
    const uint64_t *live; /* liveness(); NULL: everything live */
    uint32_t nw, now;     /* words per record, the record being emitted */
    bool nan_ok;          /* zmm31 holds the canonical NaN */
    bool loop;            /* the run ends with a backward branch */
    uint32_t npf;         /* the function's loads that prefetch_warp has made so far */
    uint32_t start;       /* the run's first record, and its code's offset after the prologue */
    size_t head_at;
    bool busy[NPOOL];
    centry e[NPOOL];
    /* if-conversion (ifconv): the branches it applies to (NULL: none), the
     * run's end, the nesting depth of the code being emitted (> 0: inside a
     * body, r13d holds its lanes), and the bodies still to emit */
    const uint8_t *conv;
    uint32_t end;
    int depth, stream, nstream, nst, cap;
    int base; /* 1 in a run's masked version (r13d: the group from its start) */
    struct ifstub *st;
    /* r13 holds vm_fused_quot's result for a / b (offsets a, b; div.full or
     * div.approx) when the record being emitted is number quot_next */
    uint32_t quot_next, quot_a, quot_b;
    bool quot_full;
    /* jit_fold.h: the chain [fold_x, fold_e] being emitted (fold_e 0: none),
     * the cached register it is computed from, the record expected next */
    uint32_t fold_x, fold_e, fold_q, fold_next;
    /* forward regions (region_*): per record, 1 + the first record of the
     * region that holds it (0: none); the positions of a region's masked
     * code at its blocks (rent[k]: none yet); while that code is emitted,
     * rmask and the region [rk, rj) */
    const uint32_t *rgn;
    size_t *rent;
    bool rmask;
    uint32_t rk, rj;
    bool dead; /* the code being emitted follows an unconditional jump: only jumps reach it */
    /* jit_addr.h: per flag of vm_jit_ctx.run4, 1 + the access that sets it
     * in the current straight stretch (0: none); the record that continues
     * the stretch; flags handed out */
    uint32_t r4_rec[8], r4_next, r4_n;
    uint32_t sp_rec[8], sp_n; /* the same for the span flags (span4_*): 1 + the leading load */
    /* jit_addr.h: the lines the function's records write (konst_writes) */
    uint64_t *kw;
    bool kw_done;
    /* jit_affine.h: the prologue's constant registers (prologue_konsts):
     * their slots and values, once per function */
    uint32_t (*pk)[2], npk;
    bool pk_done;
    /* jit_affine.h: the flow graph and what is found from it (affine_ready) */
    struct affine *af;
    /* chain: per record, 1 + the run that starts there and can be chained
     * into (NULL: no chaining, as in dry runs); the jumps to patch to those
     * runs' starts (their displacements' positions, the runs) */
    const uint32_t *chain_to;
    size_t *chain_at;
    uint32_t *chain_run, nchain;
} jc;

static void cache_reset(jc *j) {
    j->r4_next = UINT32_MAX; /* a new stretch (jit_addr.h) */
    memset(j->busy, 0, sizeof j->busy);
    memset(j->e, 0, sizeof j->e);
    j->nan_ok = false;
    j->quot_next = UINT32_MAX;
}

/* Whether the record runs for fewer lanes than the group: its guard, or an
 * if-converted body around it. */
static bool guarded(const jc *j, const vm_insn *i) { return j->depth || !(i->g == j->f->true_slot && i->gx == 0); }

/* Whether bytes [off, off + n) may be read after record k begins. */
static bool live_at(const jc *j, uint32_t k, uint32_t off, uint32_t n) {
    if (!j->live || off < j->f->regs_lo || off + n > j->f->regs_hi) return true;
    const uint64_t *s = j->live + (size_t)k * j->nw;
    for (uint32_t l = off / 64; l < (off + n + 63) / 64; l++)
        if (s[l / 64] >> (l % 64) & 1) return true;
    return false;
}

static uint32_t esize(const centry *e) { return e->q64 ? 256 : 128; }

static void spill(jc *j, centry *e) {
    for (int p = 0; p < (e->q64 ? 4 : 2); p++) z(j->b, e->q64 ? ST64 : ST32, e->z[p], 0, F(e->off + 64u * p), 0);
    e->dirty = 0;
}
static void drop(jc *j, centry *e) {
    for (int p = 0; p < (e->q64 ? 4 : 2); p++) j->busy[e->z[p]] = false;
    e->valid = 0;
}
/* Stores what is dirty and live at record k; forgets everything when `forget`. */
static void flush(jc *j, uint32_t k, bool forget) {
    for (int x = 0; x < NPOOL; x++) {
        centry *e = &j->e[x];
        if (!e->valid) continue;
        bool live = live_at(j, k, e->off, esize(e));
        if (e->dirty && live) spill(j, e);
        e->dirty = 0;
        if (forget || !live) drop(j, e);
    }
}
/* Entries other than (off, q64) that overlap [off, off + n): stored unless
 * `covered` (about to be overwritten whole), then forgotten. */
static void unalias(jc *j, uint32_t off, bool q64, bool covered) {
    uint32_t n = q64 ? 256 : 128;
    for (int x = 0; x < NPOOL; x++) {
        centry *e = &j->e[x];
        if (!e->valid || e->off >= off + n || off >= e->off + esize(e) || (e->off == off && e->q64 == q64)) continue;
        if (e->dirty && !(covered && e->off >= off && e->off + esize(e) <= off + n)) spill(j, e);
        drop(j, e);
    }
}
static centry *find(jc *j, uint32_t off, bool q64) {
    for (int x = 0; x < NPOOL; x++)
        if (j->e[x].valid && j->e[x].off == off && j->e[x].q64 == q64) return &j->e[x];
    return NULL;
}
/* Whether the record being emitted names slot off as an operand. */
static bool operand_now(const jc *j, uint32_t off) {
    if (j->now >= j->f->ncode) return false;
    const vm_insn *i = &j->f->code[j->now];
    return off == i->a || off == i->b || off == i->c || off == i->d;
}
/* A new entry with its registers; the least recently used entry not read by
 * this record makes room, and not one of its operands still to be read
 * either: a template's operands are fetched in the order the compiler
 * evaluates a call's arguments (`z(..., S(a), S(b))`: b first), and
 * stencil's `sub.s64 %rd12, %rd3, %rd2` stored %rd3 to make room for %rd2,
 * then loaded it back into other registers. */
static centry *alloc(jc *j, uint32_t off, bool q64) {
    int parts = q64 ? 4 : 2;
    for (;;) {
        int nfree = 0;
        for (int r = 0; r < NPOOL; r++) nfree += !j->busy[r];
        if (nfree >= parts) break;
        centry *v = NULL;
        for (int pass = 0; pass < 2 && !v; pass++)
            for (int x = 0; x < NPOOL; x++)
                if (j->e[x].valid && j->e[x].used < j->now + 1 && (pass || !operand_now(j, j->e[x].off)) &&
                    (!v || j->e[x].used < v->used))
                    v = &j->e[x];
        if (v->dirty) spill(j, v);
        drop(j, v);
    }
    centry *e = NULL;
    for (int x = 0; x < NPOOL && !e; x++)
        if (!j->e[x].valid) e = &j->e[x];
    *e = (centry){.off = off, .used = j->now + 1, .q64 = q64, .valid = 1};
    for (int p = 0, r = 0; p < parts; r++)
        if (!j->busy[r]) j->busy[r] = true, e->z[p++] = (uint8_t)r;
    return e;
}
/* A source register, loaded on first use. */
static centry *src(jc *j, uint32_t off, bool q64) {
    centry *e = find(j, off, q64);
    if (!e) {
        unalias(j, off, q64, false);
        e = alloc(j, off, q64);
        for (int p = 0; p < (q64 ? 4 : 2); p++) z(j->b, q64 ? LD64 : LD32, e->z[p], 0, F(off + 64u * p), 0);
    }
    e->used = j->now + 1;
    return e;
}
static rm S(jc *j, uint32_t off, bool q64, int p) { return R(src(j, off, q64)->z[p]); }
/* Lanes 8p..8p+7 of a 32-bit register, as a ymm operand. */
static rm srcq(jc *j, uint32_t off, int p) {
    centry *e = src(j, off, false);
    if (!(p & 1)) return R(e->z[p / 2]);
    zi(j->b, EXTR8, e->z[p / 2], 0, R(ZX), 0, 1); /* vextracti32x8 ymm29, zmm, 1 */
    return R(ZX);
}

static bool uni_at(jc *j, uint32_t off, bool q64, uint32_t u, int depth);

/* Whether the register at off holds one value in all 32 of the frame's
 * lanes as the record being emitted reads it. jit_affine.h's uni_at says so
 * of each lane's own path; that is every lane's value only when the whole
 * warp runs the code. In a masked version or an if-converted body the lanes
 * outside the group may not have run the record that wrote it (odd lanes
 * going on after the even ones left hold %ctaid + 5; the even lanes' slot
 * holds what it held before), so lane 0 does not speak for them. */
static bool same_in_all(jc *j, uint32_t off, bool q64) {
    return !j->depth && !j->rmask && uni_at(j, off, q64, j->now, 0);
}

/* Whether a record after this one in the run names slot off as an operand:
 * then it is cached here, once, not broadcast from the frame at each use
 * (stencil's interior adds its grid's 64-bit base to two rows' offsets). */
static bool read_later(const jc *j, uint32_t off) {
    for (uint32_t r = j->now + 1; r < j->end && r <= j->now + 64; r++) {
        const vm_insn *x = &j->f->code[r];
        if (x->a == off || x->b == off || x->c == off) return true;
    }
    return false;
}

/* Whether no cached entry holds any of [off, off + n): the frame has it. */
static bool uncached(const jc *j, uint32_t off, uint32_t n) {
    for (int x = 0; x < NPOOL; x++) {
        const centry *e = &j->e[x];
        if (e->valid && e->off < off + n && off < e->off + esize(e)) return false;
    }
    return true;
}

/* A source operand of an EVEX operation that takes a broadcast (vpaddd,
 * vpcmpd, vmulps ...: not a move): when the register holds one value in
 * every lane (same_in_all: a parameter, a constant, blockDim ...)
 * and is neither cached nor read again in the run (read_later), its first
 * lane from the frame, broadcast ({1to16}, {1to8}), for every part; else
 * the cached register's part p. Such an operand then takes no vector load
 * of its own and no cache entry, whose loading evicted (and stored) the
 * registers the warp was working on: `-s 0.05`, numba_axpy 0.91, vecadd
 * 0.94, warpsum 0.94, triton_gen 0.96 of before, the rest 0.97-1.01. Not
 * in a loop's run: histogram's atomics loop ran 4% slower with it. */
static bool broadcast_ok(jc *j, uint32_t off, bool q64) {
    return !j->loop && uncached(j, off, q64 ? 256 : 128) && !read_later(j, off) && same_in_all(j, off, q64);
}
static rm UB(jc *j, uint32_t off, bool q64, int p) {
    if (broadcast_ok(j, off, q64)) {
        rm o = F(off);
        o.bc = true;
        return o;
    }
    return S(j, off, q64, p);
}

/* edx := the lanes that execute (the group is the whole warp, or in an
 * if-converted body the lanes in r13d). */
static void exec_edx(jc *j, const vm_insn *i) {
    if (j->depth && i->g == j->f->true_slot && i->gx == 0) {
        gop(j->b, false, 0x89, R13, R(RDX)); /* mov edx, r13d */
        return;
    }
    gop(j->b, false, 0x8b, RDX, F(i->g));
    if (i->gx) {
        uint8_t x[2] = {0x81, 0xf2}; /* xor edx, imm32 */
        put(j->b, x, 2);
        b32(j->b, i->gx);
    }
    if (j->depth) gop(j->b, false, 0x21, R13, R(RDX)); /* and edx, r13d */
}

/* The result in ZT.. becomes d's value: whole, or in the executing lanes
 * (edx) when guarded. */
static void commit_to(jc *j, const vm_insn *i, uint32_t d, bool q64) {
    int parts = q64 ? 4 : 2;
    centry *e;
    if (guarded(j, i)) {
        e = src(j, d, q64);
        for (int p = 0; p < parts; p++) {
            gop(j->b, false, 0x89, RDX, R(RAX)); /* mov eax, edx */
            if (p) shr_eax(j->b, p * (q64 ? 8 : 16));
            kmov(j->b, q64, true, 1, RAX);
            z(j->b, q64 ? MOVA64 : MOVA32, e->z[p], 0, R(ZT + p), 1);
        }
    } else {
        unalias(j, d, q64, true);
        e = find(j, d, q64);
        if (!e) e = alloc(j, d, q64);
        for (int p = 0; p < parts; p++) z(j->b, MOVA64, e->z[p], 0, R(ZT + p), 0);
    }
    e->dirty = 1;
    e->used = j->now + 1;
}
static void commit(jc *j, const vm_insn *i, bool q64) { commit_to(j, i, i->d, q64); }

static void nan_const(jc *j) {
    if (j->nan_ok) return;
    b1(j->b, 0xb8); /* mov eax, 0x7fffffff */
    b32(j->b, 0x7fffffffu);
    z(j->b, BCD_R, ZNAN, 0, R(RAX), 0);
    j->nan_ok = true;
}
/* NaN results become the GPU's canonical NaN (exec.c canon_f32). */
static void canon32(jc *j, int zr) {
    zi(j->b, CMPPS, 2, zr, R(zr), 0, 3); /* k2 := unordered */
    z(j->b, MOVA32, zr, 0, R(ZNAN), 2);
}

/* Whether record i's f32 results (being emitted) need not be made
 * canonical here: the first record after it that reads them is an add, sub,
 * mul or fma.f32, whose NaN results are made canonical and are NaN whatever
 * the payload of a NaN operand; they are dead after it (or it overwrites
 * them whole); the records between read and write other registers only, by
 * the paths rec_sets knows, none branching, waiting or calling out of the
 * straight line. Then no one sees the host's payload: the frame may hold it
 * for a while, but nothing reads it there. Not in bodies, masked versions or
 * regions (the record's lanes are not the group's), nor without liveness.
 * Stencil's and Triton's sums of products make two of every three f32
 * results canonical only once. */
static bool canon_later(const jc *j, const vm_insn *i) {
    enum { W = 8 };
    uint64_t use[W], def[W], mine[W] = {0};
    if (guarded(j, i) || j->rmask || !j->live || j->nw > W) return false;
    const vm_func *f = j->f;
    mark(mine, i->d, 128);
    for (uint32_t n = j->now + 1; n < j->end && n <= j->now + 16; n++) {
        const vm_insn *x = &f->code[n];
        unsigned op = x->op;
        if (op == VM_BRA || op == VM_BRX || op == VM_BAR || op == VM_SHFL || op == VM_EXT || op == VM_RET ||
            op == VM_EXIT || op == VM_FALLOFF || op == VM_CALL || op == VM_ALU)
            return false;
        memset(use, 0, sizeof use);
        memset(def, 0, sizeof def);
        if (!rec_sets(f, x, use, def)) return false;
        bool reads = false, writes = false;
        for (uint32_t w = 0; w < j->nw; w++) reads |= (use[w] & mine[w]) != 0, writes |= (def[w] & mine[w]) != 0;
        bool g = !(x->g == f->true_slot && x->gx == 0);
        if (x->d == i->d && g) return false; /* a guarded write keeps the value in the other lanes */
        if (reads) {
            bool canon = op == VM_ADDF32 || op == VM_SUBF32 || op == VM_MULF32 || op == VM_FMAF32;
            return canon && (x->d == i->d || !live_at(j, n + 1, i->d, 128));
        }
        if (writes || x->d == i->d) return false;
    }
    return false;
}

/* d := a op b, 32 or 64-bit lanes; sh64: b is a 32-bit shift count; comm:
 * a op b = b op a, so that a uniform a may be the broadcast operand (UB). */
static void bin_c(jc *j, const vm_insn *i, zop o, bool q64, bool sh64, bool fcanon, bool comm) {
    if (fcanon && canon_later(j, i)) fcanon = false;
    if (fcanon) nan_const(j);
    uint32_t a = i->a, bb = i->b;
    if (comm && broadcast_ok(j, a, q64) && !broadcast_ok(j, bb, q64)) a = i->b, bb = i->a;
    for (int p = 0; p < (q64 ? 4 : 2); p++) {
        if (sh64) {
            z(j->b, ZXDQ, ZQ, 0, srcq(j, bb, p), 0);
            z(j->b, o, ZT + p, S(j, a, q64, p).r, R(ZQ), 0);
        } else {
            rm y = UB(j, bb, q64, p);
            z(j->b, o, ZT + p, S(j, a, q64, p).r, y, 0);
        }
        if (fcanon) canon32(j, ZT + p);
    }
    commit(j, i, q64);
}
static void bin(jc *j, const vm_insn *i, zop o, bool q64, bool sh64, bool fcanon) {
    bin_c(j, i, o, q64, sh64, fcanon, false);
}

/* k-register logic (VEX.L1.0F.W0): k[d] := op(k[a], k[b]). */
static void klog(cbuf *b, uint8_t op, int d, int a, int bb) {
    uint8_t x[4] = {0xc5, (uint8_t)(0x84 | (~a & 15) << 3), op, (uint8_t)(0xc0 | d << 3 | bb)};
    put(b, x, 4);
}
enum { KANDW = 0x41, KANDNW = 0x42, KORW = 0x45, KXNORW = 0x46 };
/* kortest{w,b} k2, k2: ZF when no lane of k2 is set, CF when all are (all 8 for byte). */
static void kortest2(cbuf *b, bool byte) {
    uint8_t x[4] = {0xc5, byte ? 0xf9 : 0xf8, 0x98, 0xd2};
    put(b, x, 4);
}
/* Jumps, each to be landed by the caller (x[(*nx)++]), taken unless the
 * 32-bit register cached in e holds one value in every lane (a divisor,
 * a shuffle's lane operand). Uses ZX and k2. */
static void unless_uniform(cbuf *b, const centry *e, size_t *x, int *nx) {
    z(b, BCD_X, ZX, 0, R(e->z[0]), 0);
    for (int h = 0; h < 2; h++) {
        zi(b, CMPD, 2, e->z[h], R(ZX), 0, 4);
        kortest2(b, false);
        x[(*nx)++] = jcc(b, 0x85);
    }
}

/* min/max.f32 as alu_minmax_f32: -0 below +0, a NaN loses, two NaNs give the
 * canonical one. a is picked where a > b (a < b), where equal and a's sign
 * bit says so, or where b is NaN. */
static void minmax(jc *j, const vm_insn *i, bool max) {
    nan_const(j);
    for (int p = 0; p < 2; p++) {
        int a = S(j, i->a, false, p).r, bz = S(j, i->b, false, p).r;
        zi(j->b, CMPPS, 2, a, R(bz), 0, max ? 0x1e : 0x11);
        zi(j->b, CMPPS, 3, a, R(bz), 0, 0x00);
        z(j->b, D2M, 4, 0, R(a), 0); /* k4 := sign bits of a */
        klog(j->b, max ? KANDNW : KANDW, 3, max ? 4 : 3, max ? 3 : 4);
        zi(j->b, CMPPS, 4, bz, R(bz), 0, 3);
        klog(j->b, KORW, 2, 2, 3);
        klog(j->b, KORW, 2, 2, 4);
        z(j->b, BLENDD, ZT + p, bz, R(a), 2);
        canon32(j, ZT + p);
    }
    commit(j, i, false);
}

/* The magic number of divu_uniform is a function of d alone: the CTA slot
 * keeps the last one (cta->div_d, div_r; a slot runs on one host thread), so
 * that the warps of a kernel dividing by a launch constant (a grid stride)
 * do not each compute it. magic_cached: with eax = d, ZQ := its magic when
 * it is d's, and a jump past the computation (returned); else on, with rsi
 * = the cta and d kept. magic_keep: after it, ZQ's low quadword stored for d. */
static size_t magic_cached(jc *j) {
    cbuf *b = j->b;
    gop(b, true, 0x8b, RSI, M(CTX, (int64_t)offsetof(vm_jit_ctx, cta)));  /* rsi := the cta */
    gop(b, false, 0x3b, RAX, M(RSI, (int64_t)offsetof(vm_cta, div_d)));  /* cmp eax, [div_d] */
    size_t other = jcc(b, 0x85);
    z(b, BCQ_X, ZQ, 0, M(RSI, (int64_t)offsetof(vm_cta, div_r)), 0); /* vpbroadcastq ZQ, [div_r] */
    size_t have = jmp32(b);
    land(b, other);
    gop(b, false, 0x89, RAX, M(RSI, (int64_t)offsetof(vm_cta, div_d))); /* mov [div_d], eax */
    return have;
}
static void magic_keep(jc *j, size_t have) {
    evexl(j->b, 0, M0F, P66, 1, 0xd6, ZQ, 0, M(RSI, (int64_t)offsetof(vm_cta, div_r)), 0); /* vmovq [div_r], xmm */
    land(j->b, have);
}

/* The quotients of a uniform divisor d >= 2 into ZT, ZT+1 (16 each); jumps
 * to general[0..3] otherwise (lanes that differ, in either half; d = 1; d = 0). Granlund and
 * Montgomery's division by an invariant integer: with l = ceil(log2 d) and
 * m = floor(2^32 (2^l - d) / d) + 1 (32 bits), t = the high word of m * a,
 * q = (t + ((a - t) >> 1)) >> (l - 1), exact for every 32-bit a. The magic
 * (m, and l - 1 in the high word) is computed by one 64-bit division per d
 * and kept in the CTA slot; per 16 lanes the quotients are two vpmuludq, a
 * blend and five 1-cycle operations (the double form before: four
 * conversions each way and a multiply per 8 lanes, twice the latency, 12%
 * of reduce's time). */
static void divu_uniform(jc *j, const vm_insn *i, size_t *general) {
    cbuf *b = j->b;
    centry *ea = src(j, i->a, false), *bb = src(j, i->b, false);
    int ng = 0;
    unless_uniform(b, bb, general, &ng);
    evexl(b, 0, M0F, P66, 0, 0x7e, bb->z[0], 0, R(RAX), 0); /* eax := d */
    uint8_t c1[3] = {0x83, 0xf8, 0x01};                     /* cmp eax, 1 */
    put(b, c1, 3);
    general[ng++] = jcc(b, 0x84); /* je: d = 1 */
    general[ng++] = jcc(b, 0x82); /* jb: d = 0 */
    size_t have = magic_cached(j);
    /* l := 32 - lzcnt(d - 1); rax := ((2^l - d) << 32) / d + 1 | (l - 1) << 32
     * (rcx and rdx kept: edx holds the executing lanes in a masked version) */
    static const uint8_t magic[] = {
        0x51, 0x52,                   /* push rcx; push rdx */
        0x89, 0xc1,                   /* mov ecx, eax */
        0x8d, 0x50, 0xff,             /* lea edx, [rax - 1] */
        0xf3, 0x0f, 0xbd, 0xd2,       /* lzcnt edx, edx */
        0xf7, 0xda, 0x83, 0xc2, 0x20, /* neg edx; add edx, 32: l */
        0x41, 0x89, 0xd0,             /* mov r8d, edx */
        0x31, 0xc0,                   /* xor eax, eax */
        0x48, 0x0f, 0xab, 0xd0,       /* bts rax, rdx: 2^l */
        0x48, 0x29, 0xc8,             /* sub rax, rcx */
        0x48, 0xc1, 0xe0, 0x20,       /* shl rax, 32 */
        0x31, 0xd2,                   /* xor edx, edx */
        0x48, 0xf7, 0xf1,             /* div rcx */
        0xff, 0xc0,                   /* inc eax: m */
        0x41, 0xff, 0xc8,             /* dec r8d */
        0x49, 0xc1, 0xe0, 0x20,       /* shl r8, 32 */
        0x4c, 0x09, 0xc0,             /* or rax, r8 */
        0x5a, 0x59,                   /* pop rdx; pop rcx */
    };
    put(b, magic, sizeof magic);
    z(b, BCQ_R, ZQ, 0, R(RAX), 0);
    magic_keep(j, have);
    zi(b, SHQI, 2, ZX, R(ZQ), 0, 32); /* vpsrlq: ZX's low word := l - 1 */
    b1(b, 0xb8);                      /* mov eax, 0xaaaa; kmovw k2, eax: the odd lanes */
    b32(b, 0xaaaa);
    kmov(b, false, true, 2, RAX);
    for (int h = 0; h < 2; h++) {
        int a = ea->z[h], t = ZT + h;
        z(b, MULUDQ, ZT + 2, a, R(ZQ), 0);        /* the even lanes' m * a */
        zi(b, SHQI, 2, ZT + 3, R(a), 0, 32);      /* the odd lanes' a, low */
        z(b, MULUDQ, ZT + 3, ZT + 3, R(ZQ), 0);   /* their m * a */
        zi(b, SHQI, 2, ZT + 2, R(ZT + 2), 0, 32); /* the even lanes' high words, low */
        z(b, BLENDD, t, ZT + 2, R(ZT + 3), 2);    /* t: the odd lanes' high words in place */
        z(b, SUBD, ZT + 2, a, R(t), 0);
        zi(b, SHDI, 2, ZT + 2, R(ZT + 2), 0, 1);
        z(b, ADDD, ZT + 2, ZT + 2, R(t), 0);
        z(b, SRLD_X, t, ZT + 2, R(ZX), 0); /* >> (l - 1) */
    }
}

/* div.u32 / rem.u32 as exec.c computes them: the quotient by double division
 * (exact for 32-bit operands, see DIVU32 there), a / 0 and a % 0 all ones.
 * A divisor that is the same d >= 2 in every lane (a stride, a block size)
 * takes a multiply by its magic number instead (divu_uniform). */
static void divu(jc *j, const vm_insn *i, bool rem) {
    src(j, i->a, false); /* both loaded before the two paths part */
    src(j, i->b, false);
    size_t general[4];
    divu_uniform(j, i, general);
    size_t join = jmp32(j->b);
    for (int k = 0; k < 4; k++) land(j->b, general[k]);
    for (int p = 0; p < 4; p++) {
        z(j->b, UDQ2PD, ZT + p, 0, srcq(j, i->a, p), 0);
        z(j->b, UDQ2PD, ZQ, 0, srcq(j, i->b, p), 0);
        z(j->b, DIVPD, ZT + p, ZT + p, R(ZQ), 0);
        z(j->b, TPD2UDQ, ZT + p, 0, R(ZT + p), 0); /* truncated, into the low 8 words */
    }
    for (int h = 0; h < 2; h++)
        zi(j->b, INS8, ZT + h, ZT + 2 * h, R(ZT + 2 * h + 1), 0, 1); /* the half's 16 quotients */
    land(j->b, join);
    for (int h = 0; h < 2; h++) {
        int bz = S(j, i->b, false, h).r;
        if (rem) {
            z(j->b, MULLD, ZQ, ZT + h, R(bz), 0);
            z(j->b, SUBD, ZT + h, S(j, i->a, false, h).r, R(ZQ), 0);
        }
        z(j->b, TESTNMD, 2, bz, R(bz), 0);           /* k2 := lanes where b is 0 */
        zi(j->b, TERND, ZT + h, ZT + h, R(ZT + h), 2, 0xff); /* all ones there */
    }
    commit(j, i, false);
}

static const zop SHUFD = {M0F, P66, 0, 0x70}; /* vpshufd */

/* ZQ := a * b (32-bit, wrapping) when both are the same in every lane
 * (same_in_all): one vpmuludq, whose quadwords' low words are the
 * product, and a vpshufd copying them to the high words: 6 cycles where
 * vpmulld takes 10, at the start of most kernels' way to their first loads
 * (blockIdx * blockDim, which threadIdx is then added to). false: not so. */
static bool mul_uniform(jc *j, const vm_insn *i) {
    if (!same_in_all(j, i->a, false) || !same_in_all(j, i->b, false)) return false;
    z(j->b, MULUDQ, ZQ, S(j, i->a, false, 0).r, S(j, i->b, false, 0), 0);
    zi(j->b, SHUFD, ZQ, 0, R(ZQ), 0, 0xa0); /* words 0 0 2 2 */
    return true;
}

/* d := a * b + c (mad.lo: mul then add, wrapping). */
static void mad(jc *j, const vm_insn *i, bool q64) {
    bool uni = !q64 && mul_uniform(j, i);
    for (int p = 0; p < (q64 ? 4 : 2); p++) {
        if (uni) z(j->b, ADDD, ZT + p, ZQ, S(j, i->c, false, p), 0);
        else {
            z(j->b, q64 ? MULLQ : MULLD, ZT + p, S(j, i->a, q64, p).r, S(j, i->b, q64, p), 0);
            z(j->b, q64 ? ADDQ : ADDD, ZT + p, ZT + p, S(j, i->c, q64, p), 0);
        }
    }
    commit(j, i, q64);
}

/* 64-bit d := a * b (+ c) of 32-bit a, b: each quarter's lanes widened first. */
static void mulw(jc *j, const vm_insn *i, bool sgn, bool add) {
    for (int p = 0; p < 4; p++) {
        z(j->b, sgn ? SXDQ : ZXDQ, ZT + p, 0, srcq(j, i->a, p), 0);
        z(j->b, sgn ? SXDQ : ZXDQ, ZQ, 0, srcq(j, i->b, p), 0);
        z(j->b, sgn ? MULDQ : MULUDQ, ZT + p, ZT + p, R(ZQ), 0);
        if (add) z(j->b, ADDQ, ZT + p, ZT + p, S(j, i->c, true, p), 0);
    }
    commit(j, i, true);
}

static void mov(jc *j, const vm_insn *i, bool q64) {
    for (int p = 0; p < (q64 ? 4 : 2); p++) z(j->b, MOVA64, ZT + p, 0, S(j, i->a, q64, p), 0);
    commit(j, i, q64);
}

/* cvt.u64.u32 / cvt.s64.s32. */
static void widen(jc *j, const vm_insn *i, bool sgn) {
    for (int p = 0; p < 4; p++) z(j->b, sgn ? SXDQ : ZXDQ, ZT + p, 0, srcq(j, i->a, p), 0);
    commit(j, i, true);
}

/* cvt.u32.u64: the low halves; each pair of quarters narrowed and joined. */
static void narrow(jc *j, const vm_insn *i) {
    for (int h = 0; h < 2; h++) {
        z(j->b, QD, S(j, i->a, true, 2 * h).r, 0, R(ZT + h), 0);   /* vpmovqd ymmT, zmm */
        z(j->b, QD, S(j, i->a, true, 2 * h + 1).r, 0, R(ZX), 0);
        zi(j->b, INS8, ZT + h, ZT + h, R(ZX), 0, 1);               /* vinserti32x8 */
    }
    commit(j, i, false);
}

/* selp: d := (c ^ imm) ? a : b. */
static void selp(jc *j, const vm_insn *i, bool q64) {
    gop(j->b, false, 0x8b, RCX, F(i->c));
    if ((uint32_t)i->imm) {
        uint8_t x[2] = {0x81, 0xf1}; /* xor ecx, imm32 */
        put(j->b, x, 2);
        b32(j->b, (uint32_t)i->imm);
    }
    for (int p = 0; p < (q64 ? 4 : 2); p++) {
        gop(j->b, false, 0x89, RCX, R(RAX)); /* mov eax, ecx */
        if (p) shr_eax(j->b, p * (q64 ? 8 : 16));
        kmov(j->b, q64, true, 2, RAX);
        z(j->b, q64 ? BLENDQ : BLENDD, ZT + p, S(j, i->b, q64, p).r, S(j, i->a, q64, p), 2);
    }
    commit(j, i, q64);
}

/* The predicate word in eax goes to d: whole, or merged under edx. */
static void store_pred(jc *j, const vm_insn *i) {
    if (guarded(j, i)) {
        gop(j->b, false, 0x8b, RCX, F(i->d));
        gop(j->b, false, 0x31, RCX, R(RAX)); /* xor eax, ecx */
        gop(j->b, false, 0x21, RDX, R(RAX)); /* and eax, edx */
        gop(j->b, false, 0x31, RCX, R(RAX)); /* xor eax, ecx */
    }
    gop(j->b, false, 0x89, RAX, F(i->d));
}

/* setp: d := a cmp b per lane. */
static void cmp(jc *j, const vm_insn *i, zop o, bool q64, uint8_t pred) {
    for (int p = 0; p < (q64 ? 4 : 2); p++) {
        rm y = UB(j, i->b, q64, p);
        zi(j->b, o, 2, S(j, i->a, q64, p).r, y, 0, pred);
        if (!p) {
            kmov(j->b, q64, false, 2, RAX);
            continue;
        }
        kmov(j->b, q64, false, 2, RCX);
        uint8_t x[3] = {0xc1, 0xe1, (uint8_t)(p * (q64 ? 8 : 16))}; /* shl ecx, n */
        put(j->b, x, 3);
        gop(j->b, false, 0x09, RCX, R(RAX)); /* or eax, ecx */
    }
    store_pred(j, i);
}

/* Predicate logic (exec.c PAND...PNOT, MOVP): eax := (a ^ imm) op (b ^ -(x & 1)). */
static void plogic(jc *j, const vm_insn *i) {
    gop(j->b, false, 0x8b, RAX, F(i->a));
    if ((uint32_t)i->imm) {
        b1(j->b, 0x35); /* xor eax, imm32 */
        b32(j->b, (uint32_t)i->imm);
    }
    if (i->op == VM_PNOT) {
        uint8_t x[2] = {0xf7, 0xd0}; /* not eax */
        put(j->b, x, 2);
    } else if (i->op != VM_MOVP) {
        gop(j->b, false, 0x8b, RCX, F(i->b));
        if (i->x & 1) {
            uint8_t x[2] = {0xf7, 0xd1}; /* not ecx */
            put(j->b, x, 2);
        }
        uint8_t op = i->op == VM_PAND ? 0x21 : i->op == VM_POR ? 0x09 : 0x31;
        gop(j->b, false, op, RCX, R(RAX));
    }
    store_pred(j, i);
}

/* A value the same in every lane, from rax, becomes d's. */
static void splat(jc *j, const vm_insn *i, bool q64) {
    z(j->b, q64 ? BCQ_R : BCD_R, ZT, 0, R(RAX), 0);
    for (int p = 1; p < (q64 ? 4 : 2); p++) z(j->b, MOVA64, ZT + p, 0, R(ZT), 0);
    commit(j, i, q64);
}
/* rax := the context's field at off. */
static void ctx_field(jc *j, size_t off) { gop(j->b, true, 0x8b, RAX, M(CTX, (int64_t)off)); }

static bool ld_kparam(jc *j, const vm_insn *i) {
    bool d64 = i->flags & VM_F_D64;
    if (i->sz != 4 && i->sz != 8) return false;
    ctx_field(j, offsetof(vm_jit_ctx, params));
    if (i->sz == 8) gop(j->b, true, 0x8b, RAX, M(RAX, i->imm));                           /* mov rax, [rax+imm] */
    else if (d64 && (i->flags & VM_F_SIGNED)) gop(j->b, true, 0x63, RAX, M(RAX, i->imm)); /* movsxd */
    else gop(j->b, false, 0x8b, RAX, M(RAX, i->imm));                                     /* mov eax, [rax+imm] */
    splat(j, i, d64);
    return true;
}

static bool mov_sreg(jc *j, const vm_insn *i) {
    bool d64 = i->flags & VM_F_D64;
    unsigned c = i->sz;
    if (c > 2) return false;
    switch ((ir_sreg)i->x) {
    case IR_SREG_TID:
        if (d64) return false;
        ctx_field(j, offsetof(vm_jit_ctx, w));
        for (int p = 0; p < 2; p++)
            z(j->b, LD32, ZT + p, 0, M(RAX, (int64_t)offsetof(vm_warp, tid) + 4 * VM_LANES * c + 64 * p), 0);
        commit(j, i, false);
        return true;
    case IR_SREG_NTID:
        ctx_field(j, offsetof(vm_jit_ctx, cfg));
        gop(j->b, false, 0x8b, RAX, M(RAX, (int64_t)(offsetof(vm_launch_cfg, block) + 4 * c)));
        break;
    case IR_SREG_NCTAID:
        ctx_field(j, offsetof(vm_jit_ctx, cfg));
        gop(j->b, false, 0x8b, RAX, M(RAX, (int64_t)(offsetof(vm_launch_cfg, grid) + 4 * c)));
        break;
    case IR_SREG_CTAID:
        ctx_field(j, offsetof(vm_jit_ctx, cta));
        gop(j->b, false, 0x8b, RAX, M(RAX, (int64_t)(offsetof(vm_cta, ctaid) + 4 * c)));
        break;
    default: return false;
    }
    splat(j, i, d64);
    return true;
}

/* cvta between generic and a window: d := a -/+ imm, 64-bit. */
static bool cvta(jc *j, const vm_insn *i) {
    if ((i->flags & (VM_F_D64 | VM_F_BASE_REG64)) != (VM_F_D64 | VM_F_BASE_REG64)) return false;
    if (!i->imm) {
        mov(j, i, true);
        return true;
    }
    mov_imm64(j->b, RAX, (uint64_t)i->imm);
    z(j->b, BCQ_R, ZQ, 0, R(RAX), 0);
    for (int p = 0; p < 4; p++) z(j->b, i->op == VM_CVTA_TO ? SUBQ : ADDQ, ZT + p, S(j, i->a, true, p).r, R(ZQ), 0);
    commit(j, i, true);
    return true;
}

/* Stores what is dirty and live at record k, leaving the cache as it is
 * (for an exit that only some executions take). */
static void spill_copy(jc *j, uint32_t k) {
    for (int x = 0; x < NPOOL; x++) {
        centry *e = &j->e[x];
        if (!e->valid || !e->dirty || !live_at(j, k, e->off, esize(e))) continue;
        for (int p = 0; p < (e->q64 ? 4 : 2); p++)
            z(j->b, e->q64 ? ST64 : ST32, e->z[p], 0, F(e->off + 64u * p), 0);
    }
}
/* mov rax, v; pop r13, r12, rbx; vzeroupper; ret */
static void ret_with(cbuf *b, uint64_t v) {
    mov_imm64(b, RAX, v);
    uint8_t ep[9] = {0x41, 0x5d, 0x41, 0x5c, 0x5b, 0xc5, 0xf8, 0x77, 0xc3};
    put(b, ep, 9);
}

/* cmp edx, the group (every lane, or r13d in a masked run or a body) */
static void all_lanes(jc *j) {
    if (j->depth) gop(j->b, false, 0x39, R13, R(RDX)); /* cmp edx, r13d */
    else {
        uint8_t c[3] = {0x83, 0xfa, 0xff}; /* cmp edx, -1 */
        put(j->b, c, 3);
    }
}

/* A loop whose back branch is its run's last record and jumps to the run's
 * first (saxpy's grid stride, histogram's): the whole warp taking it goes
 * round again in the compiled code while c->loops, which exec.c sets below
 * its time slice's remaining backward branches, allows. Each round counts
 * its records as BRA's handler would by taking them off wadj, tadj (the
 * whole warp runs it), so that a loop chained into (chain) counts as one
 * entered; exec.c takes the rounds, loops' fall, off the slice's budget
 * (VM_JIT_ROUND). The cache is what it is at
 * the run's start, empty: the taken exit's stores (spill_copy) are what the
 * next round reads from the frame. Not in a masked version or a body. */
static void jump_to(cbuf *b, size_t pos);
static void loop_back(jc *j, const vm_insn *i) {
    if (j->base || j->depth || !(i->flags & VM_F_BACK) || i->target != &j->f->code[j->start] || j->now + 1 != j->end)
        return;
    gop(j->b, false, 0x83, 7, M(CTX, (int64_t)offsetof(vm_jit_ctx, loops))); /* cmp dword [loops], 0 */
    b1(j->b, 0);
    size_t out = jcc(j->b, 0x84);
    gop(j->b, false, 0xff, 1, M(CTX, (int64_t)offsetof(vm_jit_ctx, loops))); /* dec dword [loops] */
    int32_t len = (int32_t)(j->end - j->start);
    gop(j->b, true, 0x81, 0, M(CTX, (int64_t)offsetof(vm_jit_ctx, wadj))); /* add qword [wadj], -len */
    b32(j->b, (uint32_t)-len);
    gop(j->b, true, 0x81, 0, M(CTX, (int64_t)offsetof(vm_jit_ctx, tadj))); /* add qword [tadj], -len * 32 */
    b32(j->b, (uint32_t)(-len * VM_LANES));
    gop(j->b, false, 0x83, 1, M(CTX, (int64_t)offsetof(vm_jit_ctx, fault))); /* or dword [fault], ROUND | ADJUST */
    b1(j->b, VM_JIT_ROUND | VM_JIT_ADJUST);
    jump_to(j->b, j->head_at);
    land(j->b, out);
}

/* The whole warp leaves the run for record t, the first of a run that can
 * be chained into, with `skip` records between the last one it ran and t:
 * unless exec.c forbids it (VM_JIT_NOCHAIN), it goes on in that run's code
 * after its prologue, the cache stored as at a return, the skipped records
 * added to what exec.c takes off its count over the span (vm_jit_ctx.chead).
 * Only the whole warp's version chains, outside bodies; a loop's run
 * chained into counts its rounds itself (loop_back). */
static void chain(jc *j, uint32_t t, uint32_t skip) {
    if (!j->chain_to || j->base || j->depth || t >= j->f->ncode || !j->chain_to[t]) return;
    gop(j->b, false, 0xf6, 0, M(CTX, (int64_t)offsetof(vm_jit_ctx, fault))); /* test byte [fault], NOCHAIN */
    b1(j->b, VM_JIT_NOCHAIN);
    size_t no = jcc(j->b, 0x85);
    if (skip) {
        gop(j->b, true, 0x81, 0, M(CTX, (int64_t)offsetof(vm_jit_ctx, wadj))); /* add qword [wadj], skip */
        b32(j->b, skip);
        gop(j->b, true, 0x81, 0, M(CTX, (int64_t)offsetof(vm_jit_ctx, tadj))); /* add qword [tadj], skip * 32 */
        b32(j->b, skip * VM_LANES);
    }
    gop(j->b, false, 0x83, 1, M(CTX, (int64_t)offsetof(vm_jit_ctx, fault))); /* or dword [fault], CHAIN | ADJUST */
    b1(j->b, VM_JIT_CHAIN | VM_JIT_ADJUST);
    mov_imm64(j->b, RAX, (uint64_t)(uintptr_t)&j->f->code[t]);
    gop(j->b, true, 0x89, RAX, M(CTX, (int64_t)offsetof(vm_jit_ctx, chead))); /* c->chead := t */
    j->chain_at[j->nchain] = jmp32(j->b);
    j->chain_run[j->nchain++] = j->chain_to[t] - 1;
    land(j->b, no);
}

#include "jit_next.h"
#include "jit_bar.h"

/* bra with the whole warp in the group: no lane jumps (guard 0) goes on in
 * the run; every lane (guard all ones) leaves it for the target, c->taken
 * naming the branch, which exec.c accounts and checks as its BRA handler
 * does; lanes that part leave the branch to that handler. An unguarded bra
 * ends the run (emit's caller). */
static void bra(jc *j, const vm_insn *i) {
    size_t cont = 0, part = 0;
    if (guarded(j, i)) {
        uint8_t t[2] = {0x85, 0xd2}; /* test edx, edx */
        put(j->b, t, 2);
        cont = jcc(j->b, 0x84);
    }
    spill_copy(j, j->now);
    if (guarded(j, i)) {
        all_lanes(j);
        part = jcc(j->b, 0x85);
    }
    loop_back(j, i);
    if (i->target > i && ends_kernel(j, (uint32_t)(i->target - j->f->code))) hand_over(j, (uint32_t)(i - j->f->code));
    if (i->target > i) chain(j, (uint32_t)(i->target - j->f->code), (uint32_t)(i->target - i - 1));
    mov_imm64(j->b, RAX, (uint64_t)(uintptr_t)i);
    gop(j->b, true, 0x89, RAX, M(CTX, (int64_t)offsetof(vm_jit_ctx, taken))); /* c->taken := i */
    ret_with(j->b, (uint64_t)(uintptr_t)i->target);
    if (guarded(j, i)) {
        land(j->b, part);
        ret_with(j->b, (uint64_t)(uintptr_t)i);
        land(j->b, cont);
    }
}

/* jcc to the exit that leaves record i to its handler (collected in *x). */
static void to_exit(cbuf *b, uint8_t cc, size_t *x, int *nx) { x[(*nx)++] = jcc(b, cc); }

static void body_fault(jc *j, const vm_insn *i);

/* A record run by its handler's out-of-line path, fn(ctx, i) (run_mem,
 * run_shfl), after storing what it or anything later may read; when fn
 * returns 0 (a fault, or a case for exec.c) the run returns i at once. */
static void call_fn(jc *j, const vm_insn *i, int (*fn)(vm_jit_ctx *, const vm_insn *)) {
    flush(j, j->now, true);
    gop(j->b, true, 0x89, CTX, R(RDI)); /* mov rdi, r12 */
    mov_imm64(j->b, RSI, (uint64_t)(uintptr_t)i);
    mov_imm64(j->b, RAX, (uint64_t)(uintptr_t)fn);
    uint8_t call[4] = {0xff, 0xd0, 0x85, 0xc0}; /* call rax; test eax, eax */
    put(j->b, call, 4);
    if (j->depth > j->base) { /* a fault inside an if-converted body */
        size_t ok = jcc(j->b, 0x85);
        body_fault(j, i);
        land(j->b, ok);
        j->nan_ok = false;
        return;
    }
    /* jnz over the exit: mov rax, i (10); pop r13, r12, rbx (5); vzeroupper (3); ret (1) */
    uint8_t jnz[2] = {0x75, 19};
    put(j->b, jnz, 2);
    mov_imm64(j->b, RAX, (uint64_t)(uintptr_t)i);
    uint8_t ep[9] = {0x41, 0x5d, 0x41, 0x5c, 0x5b, 0xc5, 0xf8, 0x77, 0xc3};
    put(j->b, ep, 9);
    j->nan_ok = false;
}

/* Lane offsets of a consecutive run of 32 words (as 64-bit lanes, and as 32-bit ones). */
static _Alignas(64) const uint64_t iota4[VM_LANES] = {0,  4,  8,  12,  16,  20,  24,  28,  32,  36, 40,
                                                      44, 48, 52, 56,  60,  64,  68,  72,  76,  80, 84,
                                                      88, 92, 96, 100, 104, 108, 112, 116, 120, 124};
static _Alignas(64) const uint32_t iota4d[VM_LANES] = {0,  4,  8,  12,  16,  20,  24,  28,  32,  36, 40,
                                                       44, 48, 52, 56,  60,  64,  68,  72,  76,  80, 84,
                                                       88, 92, 96, 100, 104, 108, 112, 116, 120, 124};

/* Three in every lane (vptestmd's operand: the low bits of a word address). */
static _Alignas(64) const uint32_t three16[16] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};

/* vpgather{dd,qd} d{k}, [base + zmm idx]: op 0x90 (32-bit indices, zmm d) or
 * 0x91 (64-bit indices, ymm d), 32-bit elements, scale 1, no displacement. */
static void gather32(cbuf *b, uint8_t op, int d, int base, int idx, int k) {
    b1(b, 0x62);
    b1(b, (uint8_t)((!(d & 8)) << 7 | (!(idx & 8)) << 6 | (!(base & 8)) << 5 | (!(d & 16)) << 4 | M0F38));
    b1(b, (uint8_t)(15 << 3 | 4 | P66));
    b1(b, (uint8_t)(2 << 5 | (!(idx & 16)) << 3 | (k & 7)));
    b1(b, op);
    b1(b, (uint8_t)(0x04 | (d & 7) << 3)); /* mod 00, rm 100: SIB */
    b1(b, (uint8_t)((idx & 7) << 3 | (base & 7)));
}

/* ld.shared.b32 of the whole warp whose lanes are not one run (Triton reads
 * the warps' partial sums back after the barrier, lane l the word l % 4):
 * vm_lds4_half's gather, inline. Every lane's address (32 bits, wrapping)
 * aligned and its word inside the CTA's window, else a jump to the call
 * (collected in x); the words go to ZT, ZT+1. Returns the jump past the call. */
static size_t lds4_gather(jc *j, const vm_insn *i, const centry *a, size_t *x, int *nx) {
    cbuf *b = j->b;
    b1(b, 0xb8); /* mov eax, imm */
    b32(b, (uint32_t)i->imm);
    z(b, BCD_R, ZQ, 0, R(RAX), 0);
    for (int p = 0; p < 2; p++) z(b, ADDD, ZT + 2 + p, a->z[p], R(ZQ), 0);  /* the addresses */
    gop(b, true, 0x8b, RSI, M(CTX, (int64_t)offsetof(vm_jit_ctx, cta)));     /* rsi := the cta */
    gop(b, false, 0x8b, RCX, M(RSI, (int64_t)offsetof(vm_cta, smem_size))); /* ecx := smem_size */
    uint8_t sub4[3] = {0x83, 0xe9, 4};                                      /* sub ecx, 4 */
    put(b, sub4, 3);
    to_exit(b, 0x82, x, nx); /* jb: not one word fits */
    z(b, BCD_R, ZQ, 0, R(RCX), 0);
    mov_imm64(b, RCX, (uint64_t)(uintptr_t)three16);
    for (int p = 0; p < 2; p++) {
        z(b, TESTMD, 2, ZT + 2 + p, M(RCX, 0), 0);       /* k2 := misaligned */
        zi(b, CMPUD, 3, ZT + 2 + p, R(ZQ), 0, 6);        /* k3 := past the last word */
        klog(b, KORW, 2, 2, 3);
        kortest2(b, false);
        to_exit(b, 0x85, x, nx);
    }
    gop(b, true, 0x8b, RSI, M(RSI, (int64_t)offsetof(vm_cta, smem))); /* rsi := the window */
    for (int p = 0; p < 2; p++) {
        klog(b, KXNORW, 2, 2, 2); /* every lane */
        gather32(b, 0x90, ZT + p, RSI, ZT + 2 + p, 2);
    }
    return jmp32(b);
}

/* ld/st.global.b32 and ld/st.shared.b32 of the whole warp (guarded ones when
 * the guard holds in every lane), inline when its
 * 32 addresses are one aligned run of 128 bytes that the record's own path
 * would accept at once: for global memory vm_arena_ok's test (both ends'
 * granules accessible, not read-only for a store), for shared memory the
 * run inside the CTA's window (vm_lds4_full, vm_sts4_full). Anything else
 * calls run_mem, which runs exec.c's path (and reports). The two paths leave
 * the cache alike: the call's path stores what is live and dirty first and
 * loads the cache back afterwards (what was dirty stays marked so). */
/* Before an inline access with an out-of-line path: dead values are
 * forgotten on both paths. */
static void drop_dead(jc *j) {
    for (int x = 0; x < NPOOL; x++)
        if (j->e[x].valid && !live_at(j, j->now, j->e[x].off, esize(&j->e[x]))) drop(j, &j->e[x]);
}
/* The out-of-line path of an inline access: record i through run_mem, and
 * the cache loaded back as the inline path leaves it (the call stored what
 * was live and dirty; it stays marked dirty). */
static void slow_call(jc *j, const vm_insn *i) {
    centry keep[NPOOL];
    memcpy(keep, j->e, sizeof keep);
    call_fn(j, i, run_mem); /* forgets the cache: put it back as it was */
    memcpy(j->e, keep, sizeof keep);
    for (int x = 0; x < NPOOL; x++) {
        centry *e = &j->e[x];
        if (!e->valid) continue;
        for (int p = 0; p < (e->q64 ? 4 : 2); p++) {
            j->busy[e->z[p]] = true;
            z(j->b, e->q64 ? LD64 : LD32, e->z[p], 0, F(e->off + 64u * p), 0);
        }
    }
}

/* How many rounds ahead a loop's loads fetch: 2, into L1 (bench/README.md:
 * on the 2-core development machine, 2 into L1 was best, and 3 into L2 as
 * fast at half scale; on the 16-core host 3 into L2 made saxpy 30% slower,
 * 3.9x native against 3.0-3.2x); the distance that hides a host's DRAM
 * latency differs by host, so PTXI_JIT_PF_AHEAD=N (1-64) sets another for
 * measuring. */
static uint32_t loop_ahead(void) {
    static _Atomic uint32_t ahead; /* 0: not read yet */
    uint32_t a = atomic_load_explicit(&ahead, memory_order_relaxed);
    if (!a) {
        const char *e = getenv("PTXI_JIT_PF_AHEAD");
        long v = e ? strtol(e, NULL, 10) : 0;
        a = v >= 1 && v <= 64 ? (uint32_t)v : 2;
        atomic_store_explicit(&ahead, a, memory_order_relaxed);
    }
    return a;
}

/* prefetch_warp's guess for a load in a loop (flags: the slot's record
 * compared with r8; rcx the slot, edx the warp). A grid-stride loop reads
 * each round as far from the last as that one from the one before: this
 * warp's lines loop_ahead() rounds ahead are fetched into L1. And the next
 * warp will read each round where this one does, moved by as much as this
 * warp's first round from the warp before's (the slot's `first` and `step`,
 * learnt when a warp reaches the record for the first time): those lines
 * are fetched into L2 now, a whole warp's walk ahead. On one thread a warp
 * walks its whole range before the next starts, so without them every
 * round of saxpy's next warp missed again in lines 128 bytes from this
 * warp's (bench/README.md, round 11: saxpy -44%). */
static void loop_warp(jc *j) {
    cbuf *b = j->b;
    enum { R9 = 9 };
    size_t fresh = jcc(b, 0x85);                                             /* another record's slot */
    gop(b, false, 0x3b, RDX, M(RCX, (int64_t)offsetof(struct vm_pf, warp))); /* cmp edx, [warp] */
    size_t first = jcc(b, 0x85);
    gop(b, true, 0x89, RAX, R(R9));                                          /* mov r9, rax */
    gop(b, true, 0x2b, R9, M(RCX, (int64_t)offsetof(struct vm_pf, addr)));   /* sub r9, [addr] */
    uint32_t n = loop_ahead(), sc = n == 1 ? 0 : n == 2 ? 1 : n == 4 ? 2 : n == 8 ? 3 : 4;
    if (sc == 4) { /* imul r9, r9, n (n < 128) */
        uint8_t mul[4] = {0x4d, 0x6b, 0xc9, (uint8_t)n};
        put(b, mul, 4);
        sc = 0;
    }
    uint8_t ld[4] = {0x4e, 0x8d, 0x0c, (uint8_t)(sc << 6 | 0x08)}; /* lea r9, [rax + r9 * 2^sc] */
    put(b, ld, 4);
    uint8_t p0[4] = {0x41, 0x0f, 0x18, 0x09}, p1[5] = {0x41, 0x0f, 0x18, 0x49, 0x40}; /* prefetcht0 [r9], [r9+64] */
    put(b, p0, 4);
    put(b, p1, 5);
    size_t next = jmp32(b);
    land(b, first); /* this warp's first round here: the step from the warp before's */
    gop(b, false, 0x8d, R9, M(RDX, -1));                                       /* lea r9d, [rdx - 1] */
    gop(b, false, 0x3b, R9, M(RCX, (int64_t)offsetof(struct vm_pf, warp)));   /* cmp r9d, [warp] */
    size_t keep = jcc(b, 0x85);
    gop(b, true, 0x89, RAX, R(R9));                                            /* mov r9, rax */
    gop(b, true, 0x2b, R9, M(RCX, (int64_t)offsetof(struct vm_pf, first)));   /* sub r9, [first] */
    gop(b, true, 0x89, R9, M(RCX, (int64_t)offsetof(struct vm_pf, step)));    /* mov [step], r9 */
    land(b, keep);
    land(b, fresh);
    gop(b, true, 0x89, RAX, M(RCX, (int64_t)offsetof(struct vm_pf, first)));  /* mov [first], rax */
    land(b, next);
    gop(b, true, 0x8b, R9, M(RCX, (int64_t)offsetof(struct vm_pf, step)));    /* mov r9, [step] */
    uint8_t t[3] = {0x4d, 0x85, 0xc9}; /* test r9, r9 */
    put(b, t, 3);
    size_t none = jcc(b, 0x84);
    uint8_t q0[5] = {0x42, 0x0f, 0x18, 0x14, 0x08}, q1[6] = {0x42, 0x0f, 0x18, 0x54, 0x08, 0x40}; /* prefetcht1 [rax + r9], [rax + r9 + 64] */
    put(b, q0, 5);
    put(b, q1, 6);
    land(b, none);
}

/* A whole-warp load (st: store) at rax: vm_prefetch_next_warp's guess made
 * inline. Outside loops for the warp four after this one, when the one
 * before this ran the record (gather's index load and output store: the
 * lines of the warps to come, misses that the host's own prefetcher leaves
 * to the access once the gather's random misses crowd it out; a store's with
 * prefetchw). A warp of an elementwise kernel takes 40-60 ns, less than a
 * miss to memory: fetched for the next warp, a line came in late; four
 * ahead, vecadd, saxpy, warpsum and Numba's axpy ran 12-19% faster on one
 * thread (two and eight: less, or slower for the others; bench/README.md
 * round 13). Warps a page or more apart (the rows of a 2-D block) stop it
 * for the launch (`far`, below). Inside a loop, loads only (loop_warp).
 * Slot k of cta->pf holds the function's k-th such access (mod
 * VM_PF_SLOTS): slots by record address, as the
 * interpreter's handler picks them, put three of saxpy's eight loads in one
 * slot and two in another, which then never matched. */
enum { PF_FAR = 4096 };
static void prefetch_warp(jc *j, const vm_insn *i, bool st) {
    cbuf *b = j->b;
    enum { R8 = 8, R9 = 9 };
    size_t pf = offsetof(vm_cta, pf) + (j->npf++ % VM_PF_SLOTS) * sizeof(struct vm_pf), skip = 0;
    gop(b, true, 0x8b, RSI, M(CTX, (int64_t)offsetof(vm_jit_ctx, cta)));
    gop(b, true, 0x8d, RCX, M(RSI, (int64_t)pf)); /* rcx := the slot */
    mov_imm64(b, R8, (uint64_t)(uintptr_t)i);
    if (!j->loop) {
        gop(b, true, 0x3b, R8, M(RCX, (int64_t)offsetof(struct vm_pf, far))); /* cmp r8, [far] */
        skip = jcc(b, 0x84);
    }
    gop(b, true, 0x8b, RDX, M(CTX, (int64_t)offsetof(vm_jit_ctx, w)));
    gop(b, false, 0x8b, RDX, M(RDX, (int64_t)offsetof(vm_warp, id)));     /* edx := the warp */
    gop(b, true, 0x3b, R8, M(RCX, (int64_t)offsetof(struct vm_pf, rec))); /* cmp r8, [rec] */
    if (j->loop) loop_warp(j);
    else {
        size_t other = jcc(b, 0x85);
        gop(b, false, 0x8d, R9, M(RDX, -1));                                     /* lea r9d, [rdx - 1] */
        gop(b, false, 0x3b, R9, M(RCX, (int64_t)offsetof(struct vm_pf, warp))); /* cmp r9d, [warp] */
        size_t other2 = jcc(b, 0x85);
        gop(b, true, 0x89, RAX, R(R9));                                          /* mov r9, rax */
        gop(b, true, 0x2b, R9, M(RCX, (int64_t)offsetof(struct vm_pf, addr)));   /* sub r9, [addr] */
        /* warps a page or more apart (the rows of a 2-D block) read lines
         * that the host's own prefetcher follows from CTA to CTA: the record
         * stops fetching (and keeping its slot) for the rest of the launch */
        gop(b, true, 0x8d, RSI, M(R9, PF_FAR - 1)); /* lea rsi, [r9 + far - 1] */
        gop(b, true, 0x81, 7, R(RSI));              /* cmp rsi, 2 far - 2 */
        b32(b, 2 * PF_FAR - 2);
        size_t near = jcc(b, 0x86);                                           /* jbe */
        gop(b, true, 0x89, R8, M(RCX, (int64_t)offsetof(struct vm_pf, far))); /* mov [far], r8 */
        size_t far = jmp32(b);
        land(b, near);
        uint8_t ld[4] = {0x4e, 0x8d, 0x0c, 0x88}; /* lea r9, [rax + r9 * 4]: four warps ahead */
        put(b, ld, 4);
        uint8_t op = st ? 0x0d : 0x18;                /* prefetchw / prefetcht0 */
        uint8_t p0[4] = {0x41, 0x0f, op, 0x09};       /* [r9] */
        uint8_t p1[5] = {0x41, 0x0f, op, 0x49, 0x40}; /* [r9+64] */
        put(b, p0, 4);
        put(b, p1, 5);
        land(b, other);
        land(b, other2);
        land(b, far);
    }
    gop(b, true, 0x89, R8, M(RCX, (int64_t)offsetof(struct vm_pf, rec)));
    gop(b, true, 0x89, RAX, M(RCX, (int64_t)offsetof(struct vm_pf, addr)));
    gop(b, false, 0x89, RDX, M(RCX, (int64_t)offsetof(struct vm_pf, warp)));
    if (skip) land(b, skip);
}

/* vm_arena_ok(rax, span, st) inline, for a span of at most two granules
 * past its first: [rax, rax + span) inside the reserve, the shadow of the
 * granules of both ends (and of the one after the first, for a span longer
 * than a granule) accessible, and for a store none of them read-only; else a
 * jump to the call (collected in slow). Leaves rax, clobbers rcx, rdx, rsi.
 * The arena's base, reserve and shadow are fixed while it lives, and it
 * outlives the module's code (runtime/context.c unloads the modules first):
 * they are immediates here, not loads (an access's checks were four of its
 * loads from memory; on the 16-CPU host a core's loads and stores slow down
 * in spells, bench/README.md round 20). */
static void arena_span(jc *j, uint32_t span, bool st, size_t *slow, int *ns) {
    cbuf *b = j->b;
    const vm_arena *ar = j->f->prog->rt->arena;
    mov_imm64(b, RDX, -(uint64_t)(uintptr_t)ar->base);
    gop(b, true, 0x01, RAX, R(RDX)); /* add rdx, rax: the offset in the arena */
    /* offset + span - 1 < reserve, and offset itself (no wrap), in one compare */
    mov_imm64(b, RSI, ar->reserve - (span - 1));
    gop(b, true, 0x3b, RDX, R(RSI));           /* cmp rdx, rsi */
    slow[(*ns)++] = jcc(b, 0x83);              /* jae */
    gop(b, true, 0x8d, RSI, M(RDX, span - 1)); /* lea rsi, [rdx+span-1] */
    mov_imm64(b, RCX, (uint64_t)(uintptr_t)ar->shadow);
    uint8_t shr[8] = {0x48, 0xc1, 0xea, VM_GRANULE_SHIFT, 0x48, 0xc1, 0xee, VM_GRANULE_SHIFT};
    put(b, shr, 8); /* shr rdx, 8; shr rsi, 8 */
    /* movzx esi, byte [rcx + rsi]; movzx esi, byte [rcx + rdx + 1]; movzx edx, byte [rcx + rdx] */
    static const uint8_t ld[3][5] = {{0x0f, 0xb6, 0x34, 0x31}, {0x0f, 0xb6, 0x74, 0x11, 1}, {0x0f, 0xb6, 0x14, 0x11}};
    for (int e = 0; e < 3; e++) {
        if (e == 1 && span <= VM_GRANULE) continue;
        put(b, ld[e], e == 1 ? 5 : 4);
        int r = e == 2 ? RDX : RSI;
        uint8_t t0[2] = {0x85, (uint8_t)(0xc0 | r << 3 | r)}; /* test r, r */
        put(b, t0, 2);
        slow[(*ns)++] = jcc(b, 0x84);
        if (st)
            for (int c = 0; c < 2; c++) {
                uint8_t cm[3] = {0x83, (uint8_t)(0xf8 | r), c ? VM_SH_PARAM : VM_SH_CONST}; /* cmp r, imm8 */
                put(b, cm, 3);
                slow[(*ns)++] = jcc(b, 0x84);
            }
    }
}

#include "jit_affine.h"
#include "jit_addr.h"
#include "jit_shfl.h"
#include "jit_half.h"
#include "jit_fold.h"

/* ldg4_gather's constants: 3 in each 64-bit lane (the low bits of a word
 * address), then 0xff in each of eight 32-bit lanes (a shadow byte). */
static _Alignas(64) const uint32_t gather_k[24] = {3, 0, 3, 0, 3,    0,    3,    0,    3,    0,    3,    0,
                                                   3, 0, 3, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/* ld.global.b32 of the whole warp whose lanes are not one run (a random
 * gather, `table[idx[i]]`): ldg4_half's gather, inline, eight lanes at a
 * time. Every lane's address aligned, inside the arena's reserve (less its
 * last four granules, so that the shadow's 4-byte reads stay inside it) and
 * its granule's shadow accessible (not VM_SH_NONE), as ldg4_half tests them,
 * else a jump to the call (collected in x), which reports; each eight lanes'
 * words are gathered only once they passed. The words go to ZT, ZT+1.
 * Returns the jump past the call. */
static size_t ldg4_gather(jc *j, const vm_insn *i, const centry *a, size_t *x, int *nx) {
    cbuf *b = j->b;
    const vm_arena *ar = j->f->prog->rt->arena; /* fixed while it lives (arena_span) */
    mov_imm64(b, RAX, (uint64_t)(int64_t)i->imm - (uint64_t)(uintptr_t)ar->base);
    z(b, BCQ_R, ZQ, 0, R(RAX), 0); /* ZQ := imm - base */
    /* the offsets' limit (0 for a reserve of under four granules: every lane takes the call) */
    mov_imm64(b, RDX, ar->reserve > 4 * VM_GRANULE ? ar->reserve - 4 * VM_GRANULE : 0);
    z(b, BCQ_R, ZX, 0, R(RDX), 0);
    mov_imm64(b, RDX, (uint64_t)(uintptr_t)ar->shadow);
    uint8_t movi[3] = {0x48, 0xc7, 0xc6}; /* mov rsi, imm32 (sign-extended) */
    put(b, movi, 3);
    b32(b, (uint32_t)(int32_t)i->imm);
    mov_imm64(b, RCX, (uint64_t)(uintptr_t)gather_k);
    for (int p = 0; p < 4; p++) {
        z(b, ADDQ, ZT + 2, a->z[p], R(ZQ), 0); /* the offsets in the arena */
        z(b, TESTMQ, 2, ZT + 2, M(RCX, 0), 0); /* k2 := misaligned */
        zi(b, CMPUQ, 3, ZT + 2, R(ZX), 0, 5);  /* k3 := at or past the limit */
        klog(b, KORW, 2, 2, 3);
        kortest2(b, false);
        to_exit(b, 0x85, x, nx);
        zi(b, SHQI, 2, ZT + 3, R(ZT + 2), 0, VM_GRANULE_SHIFT); /* vpsrlq: the granules */
        klog(b, KXNORW, 2, 2, 2);
        gather32(b, 0x91, ZT + 2, RDX, ZT + 3, 2);                  /* their shadow (and 3 bytes more) */
        evexl(b, 1, M0F38, P66, 0, 0x27, 2, ZT + 2, M(RCX, 64), 0); /* vptestmd k2, ymm, [0xff...] */
        kortest2(b, true);                                          /* CF when all 8 */
        to_exit(b, 0x83, x, nx);                                    /* jnc: a granule not accessible */
        klog(b, KXNORW, 2, 2, 2);
        gather32(b, 0x91, p & 1 ? ZT + 2 : ZT + p / 2, RSI, a->z[p], 2); /* the words at imm + address */
        if (p & 1) zi(b, INS8, ZT + p / 2, ZT + p / 2, R(ZT + 2), 0, 1); /* vinserti32x8: lanes 8-15 */
    }
    return jmp32(b);
}

/* The executing lanes (k3-k6) of a guarded global access one run from ZQ:
 * else a jump to the call (collected in slow). */
static void exec_run_test(jc *j, const centry *a, size_t *slow, int *ns) {
    static const int part_k[4] = {3, 5, 4, 6};
    mov_imm64(j->b, RCX, (uint64_t)(uintptr_t)iota4);
    run_test(j, a, 4, false, part_k, slow, ns);
}

static void mem4(jc *j, const vm_insn *i, bool st, bool shared) {
    cbuf *b = j->b;
    drop_dead(j);
    bool g = guarded(j, i);
    centry *a = src(j, i->a, !shared);
    if (st || g) src(j, st ? i->b : i->d, false); /* a guarded load merges into d */
    size_t slow[40], half[2];
    int ns = 0, nh = 0;
    if (g) {
        /* the executing lanes (edx) as k3, k4: the access is masked, and
         * the test below holds only them to one run, so that a group or a
         * guard whose lanes are one run (a border lane left out) stays inline */
        exec_edx(j, i);
        kmov(b, false, true, 3, RDX);
        gop(b, false, 0x89, RDX, R(RCX)); /* mov ecx, edx; shr ecx, 16 */
        uint8_t sh[3] = {0xc1, 0xe9, 16};
        put(b, sh, 3);
        kmov(b, false, true, 4, RCX);
        for (int h = 0; h < 2 && !shared; h++) { /* k5, k6 := k3, k4 >> 8 (the lanes of 64-bit parts 1, 3) */
            uint8_t ks[6] = {0xc4, 0xe3, 0xf9, 0x30, (uint8_t)(0xc0 | (5 + h) << 3 | (3 + h)), 8};
            put(b, ks, 6);
        }
        /* the run's start from the first executing lane (the others' addresses
         * may be stale in a body): rax := its address - 4 * its lane; lane 0's
         * when every lane executes (Triton's masks but at a row's end) */
        uint8_t c[3] = {0x83, 0xfa, 0xff}; /* cmp edx, -1 */
        put(b, c, 3);
        size_t full = jcc(b, 0x84);
        uint8_t tz[4] = {0xf3, 0x0f, 0xbc, 0xca}, sub[3] = {0x48, 0x81, 0xec}, add[3] = {0x48, 0x81, 0xc4};
        put(b, tz, 4); /* tzcnt ecx, edx */
        put(b, sub, 3);
        b32(b, 256);
        for (int p = 0; p < (shared ? 2 : 4); p++) z(b, ST64, a->z[p], 0, M(RSP, 64 * p), 0);
        uint8_t ld[4] = {0x48, 0x8b, 0x04, 0xcc}; /* mov rax, [rsp+rcx*8] / mov eax, [rsp+rcx*4] */
        if (shared) ld[3] = 0x8c;
        put(b, ld + shared, 4 - shared);
        put(b, add, 3);
        b32(b, 256);
        uint8_t sl[6] = {0xc1, 0xe1, 0x02, 0x48, 0x29, 0xc8}; /* shl ecx, 2; sub rax / eax, rcx / ecx */
        put(b, sl, 3);
        put(b, sl + 3 + shared, 3 - shared);
        z(b, shared ? BCD_R : BCQ_R, ZQ, 0, R(RAX), 0);
        size_t joined = jmp32(b);
        land(b, full);
        evexl(b, 0, M0F, P66, !shared, 0x7e, a->z[0], 0, R(RAX), 0); /* vmov{q,d} rax / eax, xmm */
        z(b, shared ? BCD_X : BCQ_X, ZQ, 0, R(a->z[0]), 0);
        land(b, joined);
    } else /* rax := lane 0's address */
        evexl(b, 0, M0F, P66, !shared, 0x7e, a->z[0], 0, R(RAX), 0); /* vmov{q,d} rax / eax, xmm */
    /* + imm (shared: 32 bits, wrapping, as vm_lds4_half) */
    uint8_t addi[2] = {0x48, 0x05}; /* add rax / eax, imm32 */
    put(b, addi + shared, 2 - shared);
    b32(b, (uint32_t)(int32_t)i->imm);
    uint8_t tst[2] = {0xa8, 0x03}; /* test al, 3 */
    put(b, tst, 2);
    slow[ns++] = jcc(b, 0x85);
    /* every (executing) lane's address is the start's + 4 * lane: tested
     * here, or known from an earlier access through the register (jit_addr.h) */
    int told, known = run4_flags(j, i, !shared && !j->depth, &told); /* unguarded, or guarded by its predicate only */
    if (known >= 0) {
        run4_test(j, known);
        if (g) { /* not known a run: the executing lanes tested */
            size_t run = jcc(b, 0x85);
            exec_run_test(j, a, slow, &ns);
            land(b, run);
        } else slow[ns++] = jcc(b, 0x84);
    } else if (shared) {
        if (!g) z(b, BCD_X, ZQ, 0, R(a->z[0]), 0);
        mov_imm64(b, RCX, (uint64_t)(uintptr_t)iota4d);
        run_test(j, a, 2, true, g ? (const int[]){3, 4} : NULL, slow, &ns);
    } else if (!g) {
        z(b, BCQ_X, ZQ, 0, R(a->z[0]), 0);
        mov_imm64(b, RCX, (uint64_t)(uintptr_t)iota4);
        half_test(j, a, slow, &ns, half, &nh); /* lanes 16-31 elsewhere: jit_half.h */
    } else if (told >= 0) {
        /* the flag from all 32 lanes (ZQ is lane 0's address when they are
         * a run); the way to the call puts it back to 0 */
        size_t off[1];
        int noff = 0;
        mov_imm64(b, RCX, (uint64_t)(uintptr_t)iota4);
        run_test(j, a, 4, false, NULL, off, &noff);
        run4_put(j, told, 1);
        size_t run = jmp32(b);
        land(b, off[0]);
        run4_put(j, told, 0);
        exec_run_test(j, a, slow, &ns);
        land(b, run);
    } else exec_run_test(j, a, slow, &ns);
    /* loads a few bytes apart through one register: one arena check (jit_addr.h span4_*) */
    int64_t lo = 0, hi = 0;
    int held = shared || g || st ? -1 : span4_use(j, i), lead = shared || g || st || held >= 0 ? -1 : span4_set(j, i, &lo, &hi);
    if (shared) {
        /* rax + 128 <= smem_size; rax += smem */
        gop(b, true, 0x8b, RSI, M(CTX, (int64_t)offsetof(vm_jit_ctx, cta)));      /* rsi := the cta */
        gop(b, true, 0x8d, RDX, M(RAX, 128));                                    /* lea rdx, [rax+128] */
        gop(b, false, 0x8b, RCX, M(RSI, (int64_t)offsetof(vm_cta, smem_size)));  /* ecx := smem_size */
        gop(b, true, 0x3b, RDX, R(RCX));                                         /* cmp rdx, rcx */
        slow[ns++] = jcc(b, 0x87);                                               /* ja */
        gop(b, true, 0x03, RAX, M(RSI, (int64_t)offsetof(vm_cta, smem)));        /* add rax, [smem] */
    } else if (held >= 0) {
        run4_test(j, RUN4_FLAGS + held);
        slow[ns++] = jcc(b, 0x84);
    } else if (lead >= 0) { /* rax + lo - imm, hi - lo + 128 bytes */
        uint8_t addi[2] = {0x48, 0x05}, subi[2] = {0x48, 0x2d}; /* add / sub rax, imm32 */
        put(b, addi, 2);
        b32(b, (uint32_t)(int32_t)(lo - i->imm));
        arena_span(j, (uint32_t)(hi - lo + 128), st, slow, &ns);
        put(b, subi, 2);
        b32(b, (uint32_t)(int32_t)(lo - i->imm));
    } else arena_span(j, 128, st, slow, &ns);
    if (!shared && (!st || !j->loop) && held < 0) prefetch_warp(j, i, st);
    if (told >= 0 && !g) run4_put(j, told, 1);
    if (lead >= 0) run4_put(j, RUN4_FLAGS + lead, 1);
    for (int p = 0; p < 2; p++) {
        if (st) z(b, ST32, src(j, i->b, false)->z[p], 0, M(RAX, 64 * p), g ? 3 + p : 0);
        else {
            if (g) z(b, MOVA64, ZT + p, 0, S(j, i->d, false, p), 0);
            z(b, LD32, ZT + p, 0, M(RAX, 64 * p), g ? 3 + p : 0);
        }
    }
    size_t done = jmp32(b), gx[12], gdone = 0, hdone = 0;
    if (nh) {
        for (int k = 0; k < nh; k++) land(b, half[k]);
        if (lead >= 0) run4_put(j, RUN4_FLAGS + lead, 0);
        hdone = half_runs(j, i, st, a, told, slow, &ns);
    }
    for (int k = 0; k < ns; k++) land(b, slow[k]);
    if (told >= 0) run4_put(j, told, 0);
    if (lead >= 0) run4_put(j, RUN4_FLAGS + lead, 0);
    int ngx = 0;
    if (!st && !g) {
        gdone = shared ? lds4_gather(j, i, a, gx, &ngx) : ldg4_gather(j, i, a, gx, &ngx);
        for (int k = 0; k < ngx; k++) land(b, gx[k]);
    }
    slow_call(j, i);
    if (!st)
        for (int p = 0; p < 2; p++) z(b, LD32, ZT + p, 0, F(i->d + 64u * p), 0);
    land(b, done);
    if (gdone) land(b, gdone);
    if (hdone) land(b, hdone);
    j->nan_ok = false;
    /* both paths leave d whole (all lanes loaded or merged under k3/k4, or
     * run_mem's merge reloaded): written whole, also in a body (edx is gone) */
    vm_insn whole = *i;
    whole.g = j->f->true_slot, whole.gx = 0;
    int depth = j->depth;
    j->depth = 0;
    if (!st) commit(j, &whole, false);
    j->depth = depth;
}

/* ZT, ZT+1 := ±(a * b) ± c per lane (fm: vf[n]m{add,sub}213ps, T := ±(T *
 * B) ± C), a from zmm za or, za < 0, the register at a, b likewise; NaN
 * made canonical when canon. A factor the same in every lane and not
 * cached comes from the frame broadcast (UB) as T's first value, the other
 * the multiplier (the product is exact either way round); c is the
 * broadcast operand when it can be. */
static void fma213(jc *j, zop fm, int za, uint32_t a, int zb, uint32_t b, uint32_t c, bool canon) {
    bool ua = za < 0 && broadcast_ok(j, a, false);
    if (za < 0 && zb < 0 && !ua && broadcast_ok(j, b, false)) {
        uint32_t t = a;
        a = b, b = t, ua = true;
    }
    for (int p = 0; p < 2; p++) {
        if (ua) z(j->b, BCD_X, ZT + p, 0, F(a), 0); /* vpbroadcastd */
        else z(j->b, MOVA64, ZT + p, 0, za >= 0 ? R(za) : S(j, a, false, p), 0);
        rm y = UB(j, c, false, p);
        z(j->b, fm, ZT + p, zb >= 0 ? zb : S(j, b, false, p).r, y, 0);
        if (canon) canon32(j, ZT + p);
    }
}

/* contract.c's fused f32 record without .ftz/.sat: d := fma(±a, b, ±c) per
 * lane as vfmadd/vfmsub/vfnmadd/vfnmsub (the negations are exact, so the one
 * rounding is the same), NaN made canonical as alu_fma_f32 does. b is the
 * folded reciprocal of an immediate divisor, or for a quotient of registers
 * (a / b + c, Triton's x - sum / n) the whole warp's a and b must each be the
 * same in every lane (checked inline): vm_fused_quot gives the scaled
 * dividend and the reciprocal once, else the run leaves the record to its
 * handler. The next
 * record taking the same quotient (Triton subtracts the mean from each of a
 * thread's elements in a row) reuses it from r13 without a call. */
static bool fused(jc *j, const vm_insn *i) {
    vm_fused_form f;
    if (!vm_fused_of(i, &f) || f.ftz || f.sat) return false;
    cbuf *b = j->b;
    if (f.quot && guarded(j, i)) {
        /* A run's masked version (the record unguarded, the group in r13d)
         * leaves it to its handler, as the whole-warp version does when the
         * operands differ; a guarded quotient ends the run in both. */
        if (i->g != j->f->true_slot || i->gx || j->depth != j->base) return false;
        spill_copy(j, j->now);
        ret_with(b, (uint64_t)(uintptr_t)i);
        return true;
    }
    if (f.quot && !(j->quot_next == j->now && j->quot_a == f.a && j->quot_b == f.b && j->quot_full == f.full)) {
        /* a and b the same in every lane (as shfl checks its operands), else
         * the record is left to its handler; esi, edx := their values */
        centry *ea = src(j, f.a, false), *eb = src(j, f.b, false);
        size_t x[4];
        int nx = 0;
        unless_uniform(b, ea, x, &nx);
        unless_uniform(b, eb, x, &nx);
        evexl(b, 0, M0F, P66, 0, 0x7e, ea->z[0], 0, R(RSI), 0); /* vmovd esi, xmm */
        evexl(b, 0, M0F, P66, 0, 0x7e, eb->z[0], 0, R(RDX), 0); /* vmovd edx, xmm */
        size_t uni = jmp32(b);
        for (int k = 0; k < nx; k++) land(b, x[k]);
        spill_copy(j, j->now);
        ret_with(b, (uint64_t)(uintptr_t)i);
        land(b, uni);
        flush(j, j->now, true);
        mov_imm64(b, RDI, (uint64_t)(uintptr_t)i);
        mov_imm64(b, RAX, (uint64_t)(uintptr_t)vm_fused_quot);
        uint8_t call[5] = {0xff, 0xd0, 0x49, 0x89, 0xc5}; /* call rax; mov r13, rax */
        put(b, call, 5);
        j->nan_ok = false;
    }
    if (f.quot) {
        uint8_t q[3] = {0x4c, 0x89, 0xe8}; /* mov rax, r13 */
        put(b, q, 3);
        z(b, BCD_R, ZQ, 0, R(RAX), 0); /* ZQ := q_b */
        uint8_t sh[4] = {0x48, 0xc1, 0xe8, 32}; /* shr rax, 32 */
        put(b, sh, 4);
        z(b, BCD_R, ZX, 0, R(RAX), 0); /* ZX := q_a */
        bool kept = f.d + 128 <= f.a || f.a + 128 <= f.d;
        kept = kept && (f.d + 128 <= f.b || f.b + 128 <= f.d);
        j->quot_next = kept ? j->now + 1 : UINT32_MAX;
        j->quot_a = f.a, j->quot_b = f.b, j->quot_full = f.full;
    } else if (f.kconst) {
        b1(b, 0xb8); /* mov eax, k */
        b32(b, f.k);
        z(b, BCD_R, ZQ, 0, R(RAX), 0);
    }
    zop fm = FMA213PS; /* vf[n]m{add,sub}213ps: T := ±(T * B) ± C */
    fm.op = (uint8_t)(0xa8 + 2 * f.neg_c + 4 * f.neg_p);
    nan_const(j);
    fma213(j, fm, f.quot ? ZX : -1, f.a, f.quot || f.kconst ? ZQ : -1, f.b, f.c, true);
    vm_insn to = *i;
    to.d = f.d;
    commit(j, &to, false);
    return true;
}

/* ---- if-conversion of forward branches that split the warp ----
 * `@p bra T` forward over a short body whose records all have templates that
 * honour a lane mask (ifconv_ok) stays in the run: when no lane jumps the body
 * runs as any code does; when every lane of the group jumps the body is
 * skipped inside the run; when the group splits, the body runs out of line
 * for the lanes that stay (r13d), each record under that mask (commit merges,
 * called records leave c->off alone), nested branches the same way, and the
 * code joins the inline path at T with the same cache. That is what the
 * interpreter does with smallest-PC-first scheduling over forward branches:
 * every record in PC order by the lanes that reach it, the group whole again
 * at T. The counts: records skipped (c->wadj) and run by fewer lanes than the
 * group (c->tadj) are taken off what the handler counts over the span. */

static bool emit(jc *j, const vm_insn *i);

enum { IFCONV_BODY = 64, IFCONV_DEPTH = 4 };

/* A body (or a skip) still to be emitted after the run's code. */
typedef struct ifstub {
    const vm_insn *br;
    uint32_t k, t;       /* the branch's record number, its target's */
    int depth, stream;   /* the branch's depth; the emission it belongs to */
    size_t jpart, jall;  /* the jumps for a split and for every lane jumping */
    bool t_set;          /* the code reached T: t_pos, at_t */
    size_t t_pos;
    cstate at_br, at_t;
} ifstub;

static void save_cache(const jc *j, cstate *s) {
    s->nan_ok = j->nan_ok;
    memcpy(s->busy, j->busy, sizeof s->busy);
    memcpy(s->e, j->e, sizeof s->e);
}
static void restore_cache(jc *j, const cstate *s) {
    j->nan_ok = s->nan_ok;
    memcpy(j->busy, s->busy, sizeof j->busy);
    memcpy(j->e, s->e, sizeof j->e);
}

/* From any cache state at record k's start to `s`: an entry s holds for the
 * same slot in the same registers stays (unless it is dirty here and clean
 * in s: then it is stored); every other live dirty value is stored, then
 * the rest of s loaded from the frame (a value s holds dirty is the frame's
 * again, so storing it later changes nothing). */
static void reconcile(jc *j, uint32_t k, const cstate *s) {
    bool have[NPOOL] = {false}, nan = j->nan_ok; /* what s holds that the registers hold already */
    for (int x = 0; x < NPOOL; x++) {
        centry *e = &j->e[x];
        if (!e->valid) continue;
        int y = 0; /* s's entry for the same slot in the same registers */
        while (y < NPOOL && !(s->e[y].valid && s->e[y].off == e->off && s->e[y].q64 == e->q64 &&
                              !memcmp(s->e[y].z, e->z, sizeof e->z)))
            y++;
        if (y < NPOOL && (s->e[y].dirty || !e->dirty)) { /* stays as it is */
            have[y] = true;
            continue;
        }
        if (e->dirty && live_at(j, k, e->off, esize(e))) spill(j, e);
        if (y < NPOOL) have[y] = true; /* the frame's value, still in the registers */
        drop(j, e);
    }
    restore_cache(j, s);
    for (int y = 0; y < NPOOL; y++) {
        const centry *e = &j->e[y];
        if (e->valid && !have[y])
            for (int p = 0; p < (e->q64 ? 4 : 2); p++) z(j->b, e->q64 ? LD64 : LD32, e->z[p], 0, F(e->off + 64u * p), 0);
    }
    if (s->nan_ok && !nan) {
        j->nan_ok = false;
        nan_const(j);
    }
}

/* Records a body may hold: templates whose writes follow guarded() (commit,
 * store_pred) and the records called through run_mem. */
static bool maskable(vm_opid op) {
    switch (op) {
    case VM_NOP: case VM_MOV32: case VM_MOV64: case VM_CVT_U64_U32: case VM_CVT_S64_S32: case VM_CVT_U32_U64:
    case VM_SELP32: case VM_SELP64: case VM_ADD32: case VM_SUB32: case VM_MUL32: case VM_AND32: case VM_OR32:
    case VM_XOR32: case VM_SHL32: case VM_SHRU32: case VM_SHRS32: case VM_MINS32: case VM_MAXS32: case VM_MINU32:
    case VM_MAXU32: case VM_MAD32: case VM_DIVU32: case VM_REMU32: case VM_ADD64: case VM_SUB64: case VM_MUL64:
    case VM_AND64: case VM_OR64: case VM_XOR64: case VM_SHL64: case VM_SHRU64: case VM_SHRS64: case VM_MAD64:
    case VM_MULWS32: case VM_MULWU32: case VM_MADWS32: case VM_MADWU32: case VM_NOT32: case VM_CVTF32S32:
    case VM_CVTF32U32: case VM_ADDF32: case VM_SUBF32: case VM_MULF32: case VM_FMAF32: case VM_MINF32: case VM_MAXF32:
    case VM_EQ_S32: case VM_NE_S32: case VM_LT_S32: case VM_LE_S32: case VM_GT_S32: case VM_GE_S32:
    case VM_EQ_U32: case VM_NE_U32: case VM_LT_U32: case VM_LE_U32: case VM_GT_U32: case VM_GE_U32:
    case VM_EQ_F32: case VM_NE_F32: case VM_LT_F32: case VM_LE_F32: case VM_GT_F32: case VM_GE_F32:
    case VM_EQ_S64: case VM_NE_S64: case VM_LT_S64: case VM_LE_S64: case VM_GT_S64: case VM_GE_S64:
    case VM_EQ_U64: case VM_NE_U64: case VM_LT_U64: case VM_LE_U64: case VM_GT_U64: case VM_GE_U64:
    case VM_PAND: case VM_POR: case VM_PXOR: case VM_PNOT: case VM_MOVP: case VM_LD_KPARAM: case VM_MOV_SREG:
    case VM_CVTA_TO: case VM_CVTA_FROM: case VM_LDG4: case VM_STG4: case VM_LDS4: case VM_STS4: case VM_LD:
    case VM_ST: case VM_LDV: case VM_STV: case VM_ATOM: case VM_ALU: return true;
    default: return false;
    }
}

/* Whether record k is a branch ifconv applies to: guarded, forward over at
 * most IFCONV_BODY records that are maskable, have their own handler (no
 * superinstruction), are not the after-prologue start, and are reached from
 * outside only through the body's start (branches into the body come from
 * nested convertible branches inside it). */
static bool ifconv_ok(const vm_func *f, uint32_t k, int depth, jc *dry) {
    const vm_insn *i = &f->code[k];
    if (i->op != VM_BRA || !i->target || (i->g == f->true_slot && i->gx == 0) || depth >= IFCONV_DEPTH) return false;
    uint32_t t = (uint32_t)(i->target - f->code);
    if (t <= k || t > f->ncode || t - k - 1 > IFCONV_BODY) return false;
    const void *const *tab = vm_handler_table();
    for (uint32_t r = k + 1; r < t; r++) {
        const vm_insn *x = &f->code[r];
        if (x->h != tab[x->op] || r == f->nhoist) return false;
        for (uint32_t q = 0; q < f->ncode; q++) { /* branches to r: only from nested ones in the body */
            const vm_insn *y = &f->code[q];
            if (y->op == VM_BRX) {
                for (int64_t z = 0; z < y->imm; z++)
                    if (((const vm_insn *const *)y->p)[z] == x) return false;
            } else if (y->op == VM_BRA && y->target == x && (q <= k || q >= r)) return false;
        }
        if (x->op == VM_BRA) {
            if (!ifconv_ok(f, r, depth + 1, dry) || x->target > i->target) return false;
            continue;
        }
        if (!maskable((vm_opid)x->op)) return false;
        dry->b->n = 0;
        cache_reset(dry);
        dry->now = r;
        if (!emit(dry, x)) return false;
    }
    return true;
}

/* The code has reached record k of the current emission: bodies that join there note it. */
static void ifconv_at(jc *j, uint32_t k) {
    if (j->dead) {
        /* nothing falls into k: its code starts with the cache a branch that
         * jumps here leaves (an unguarded one's, the path every lane of the
         * group takes), and that branch's skip then costs no stores or loads
         * (reconcile); every other way in reconciles as before. stencil's
         * interior warps take `bra.uni` over the border's block and stored
         * two 64-bit registers there, 7% of the kernel's compiled time. */
        const ifstub *from = NULL;
        for (int s = 0; s < j->nst; s++) {
            const ifstub *x = &j->st[s];
            if (x->stream == j->stream && x->t == k && !x->t_set && (!from || !guarded(j, x->br))) from = x;
        }
        if (from) restore_cache(j, &from->at_br);
        j->dead = false;
    }
    for (int s = 0; s < j->nst; s++) {
        ifstub *x = &j->st[s];
        if (x->stream == j->stream && x->t == k && !x->t_set) {
            x->t_set = true;
            x->t_pos = j->b->n;
            save_cache(j, &x->at_t);
            j->quot_next = UINT32_MAX; /* bodies join here with r13d their mask, not a quotient */
        }
    }
}

/* ctx field at off := eax / r13d, and the reverse */
static void ctx_put(jc *j, int r, size_t off) { gop(j->b, false, 0x89, r, M(CTX, (int64_t)off)); }
static void ctx_get(jc *j, int r, size_t off) { gop(j->b, false, 0x8b, r, M(CTX, (int64_t)off)); }
/* c->tadj += popcnt(eax) * n, or 32 n for the whole warp (no popcnt) */
static void tadj_add(jc *j, uint32_t n, bool whole) {
    if (whole) {
        gop(j->b, true, 0x81, 0, M(CTX, (int64_t)offsetof(vm_jit_ctx, tadj))); /* add qword [tadj], 32 n */
        b32(j->b, VM_LANES * n);
    } else {
        uint8_t pc[4] = {0xf3, 0x0f, 0xb8, 0xc0}; /* popcnt eax, eax */
        put(j->b, pc, 4);
        b1(j->b, 0x69); /* imul eax, eax, imm32 */
        b1(j->b, 0xc0);
        b32(j->b, n);
        gop(j->b, true, 0x01, RAX, M(CTX, (int64_t)offsetof(vm_jit_ctx, tadj))); /* add [tadj], rax */
    }
    gop(j->b, false, 0x83, 1, M(CTX, (int64_t)offsetof(vm_jit_ctx, fault))); /* or dword [fault], ADJUST */
    b1(j->b, VM_JIT_ADJUST);
}
/* c->off := ~r13d, or 0 outside bodies */
static void set_off(jc *j, int depth) {
    if (depth) {
        gop(j->b, false, 0x89, R13, R(RAX)); /* mov eax, r13d */
        uint8_t x[2] = {0xf7, 0xd0};         /* not eax */
        put(j->b, x, 2);
    } else gop(j->b, false, 0x31, RAX, R(RAX)); /* xor eax, eax */
    ctx_put(j, RAX, offsetof(vm_jit_ctx, off));
}
static void jump_to(cbuf *b, size_t pos) {
    size_t at = jmp32(b);
    if (b->oom) return;
    uint32_t d = (uint32_t)(pos - (at + 4));
    memcpy(b->p + at, &d, 4);
}

/* A stub for branch i (the record being emitted), its jumps for a split
 * (SIZE_MAX: none) and for every lane jumping, with the cache as it is. */
static void stub_add(jc *j, const vm_insn *i, size_t part, size_t all) {
    if (j->nst == j->cap) {
        int cap = j->cap ? 2 * j->cap : 8;
        ifstub *p = realloc(j->st, (size_t)cap * sizeof *p);
        if (!p) {
            j->b->oom = true;
            return;
        }
        j->st = p, j->cap = cap;
    }
    ifstub *x = &j->st[j->nst++];
    *x = (ifstub){.br = i, .k = j->now, .t = (uint32_t)(i->target - j->f->code), .depth = j->depth,
                  .stream = j->stream, .jpart = part, .jall = all};
    save_cache(j, &x->at_br);
}

/* The branch (edx: the group's lanes that jump, from exec_edx): none goes on,
 * all or some go to the stubs emitted after the run. */
static void ifconv(jc *j, const vm_insn *i) {
    cbuf *b = j->b;
    uint8_t t[2] = {0x85, 0xd2}; /* test edx, edx */
    put(b, t, 2);
    size_t none = jcc(b, 0x84);
    all_lanes(j);
    size_t all = jcc(b, 0x84), part = jmp32(b);
    land(b, none);
    stub_add(j, i, part, all);
}

/* Every lane of the group jumps: the records up to T are skipped. */
static void skip_stub(jc *j, const ifstub *x) {
    cbuf *b = j->b;
    uint32_t n = x->t - x->k - 1;
    land(b, x->jall);
    restore_cache(j, &x->at_br);
    gop(b, true, 0x81, 0, M(CTX, (int64_t)offsetof(vm_jit_ctx, wadj))); /* add qword [wadj], n */
    b32(b, n);
    if (x->depth) gop(b, false, 0x89, R13, R(RAX)); /* mov eax, r13d */
    tadj_add(j, n, !x->depth); /* the whole warp (stencil's interior warps): a constant */
    reconcile(j, x->t, &x->at_t);
    jump_to(b, x->t_pos);
}

static void region_split(jc *j, const ifstub *x);

/* The out-of-line code of stub s: the split (the body for the lanes that
 * stay) and the skip, each joining the inline code at T. */
static void ifconv_stub(jc *j, int s) {
    ifstub x = j->st[s];
    cbuf *b = j->b;
    int d = x.depth, depth = j->depth;
    uint32_t n = x.t - x.k - 1;
    if (!x.t_set) { /* cannot happen (the run holds the body); a safe exit nonetheless */
        if (x.jpart != SIZE_MAX) land(b, x.jpart);
        land(b, x.jall);
        b->oom = true;
        return;
    }
    if (j->rgn && j->rgn[x.k]) { /* a branch of a forward region */
        region_split(j, &x);
        skip_stub(j, &x);
        return;
    }
    /* split: what is live is in the frame for the lanes that jump */
    land(b, x.jpart);
    restore_cache(j, &x.at_br);
    j->now = x.k;
    flush(j, x.k, false);
    if (d) ctx_put(j, R13, offsetof(vm_jit_ctx, ms) + 4 * (size_t)d);
    ctx_put(j, RDX, offsetof(vm_jit_ctx, tk) + 4 * (size_t)d);
    mov_imm64(b, RAX, (uint64_t)(uintptr_t)x.br);
    gop(b, true, 0x89, RAX, M(CTX, (int64_t)(offsetof(vm_jit_ctx, br) + 8 * (size_t)d)));
    if (d) {
        gop(b, false, 0x89, RDX, R(RAX)); /* mov eax, edx; not eax; and r13d, eax */
        uint8_t nt[2] = {0xf7, 0xd0};
        put(b, nt, 2);
        gop(b, false, 0x21, RAX, R(R13));
    } else {
        gop(b, false, 0x89, RDX, R(R13)); /* mov r13d, edx; not r13d */
        uint8_t nt[3] = {0x41, 0xf7, 0xd5};
        put(b, nt, 3);
    }
    set_off(j, d + 1);
    int stream = j->stream;
    j->depth = d + 1;
    j->stream = ++j->nstream;
    for (uint32_t r = x.k + 1; r < x.t; r++) {
        ifconv_at(j, r);
        j->now = r;
        emit(j, &j->f->code[r]);
    }
    ifconv_at(j, x.t);
    j->stream = stream;
    j->depth = d;
    ctx_get(j, RAX, offsetof(vm_jit_ctx, tk) + 4 * (size_t)d);
    tadj_add(j, n, false);
    if (d) ctx_get(j, R13, offsetof(vm_jit_ctx, ms) + 4 * (size_t)d);
    set_off(j, d);
    reconcile(j, x.t, &x.at_t);
    jump_to(b, x.t_pos);
    skip_stub(j, &x);
    j->depth = depth;
}

/* Emits the stubs of the run just emitted (and those of the bodies they hold). */
static void ifconv_stubs(jc *j) {
    for (int s = 0; s < j->nst; s++) ifconv_stub(j, s);
    j->nst = 0;
    j->nstream = j->stream = 0;
}

/* ---- forward regions: if/else diamonds and other forward branching ----
 * A guarded forward branch that ifconv does not take (its body holds an
 * unguarded bra, as an if/else's `bra.uni JOIN` does, or a branch out of
 * it) opens a region [k, J): each branch in it goes forward to a record
 * of (itself, J], every other record is maskable, and nothing else branches
 * into it. Inline, the group follows its one path: a branch no lane takes
 * goes on, one every lane takes (and an unguarded one) jumps to its
 * target's inline code, the records passed over counted as skipped (the
 * skip stub). A branch that splits the group enters the region's masked
 * code at the next record, where each block (records between branches and
 * targets) runs for the lanes that reach it: r13d the lanes of the block,
 * c->pend the lanes waiting at each target; a block no lane reaches is
 * skipped, and the group, whole again at J, joins the inline code there.
 * That is the interpreter's order over forward branches: every record in
 * PC order by the lanes that reach it. The masked blocks start with an
 * empty cache, every dirty value stored (liveness follows one lane's path;
 * other lanes may still need what this block's lanes no longer do). */

/* Whether record t is the target of a branch of the region [k, e). */
static bool rg_target(const vm_func *f, uint32_t k, uint32_t e, uint32_t t) {
    for (uint32_t q = k; q < t && q < e; q++)
        if (f->code[q].op == VM_BRA && f->code[q].target == &f->code[t]) return true;
    return false;
}
/* The end of the block of the region [k, e) that holds record q. */
static uint32_t rg_block_end(const vm_func *f, uint32_t k, uint32_t e, uint32_t q) {
    for (uint32_t r = q + 1; r < e; r++)
        if (f->code[r - 1].op == VM_BRA || rg_target(f, k, e, r)) return r;
    return e;
}
/* J of the region branch k would open (its shape alone), else 0. */
static uint32_t rg_end(const vm_func *f, uint32_t k) {
    const vm_insn *i = &f->code[k];
    if (i->op != VM_BRA || !i->target || i->target <= i || (i->g == f->true_slot && i->gx == 0)) return 0;
    uint32_t e = (uint32_t)(i->target - f->code);
    for (uint32_t q = k + 1; q < e && e - k - 1 <= VM_JIT_REGION; q++) {
        const vm_insn *x = &f->code[q];
        if (x->op != VM_BRA) continue;
        if (!x->target || x->target <= x) return 0;
        if ((uint32_t)(x->target - f->code) > e) e = (uint32_t)(x->target - f->code);
    }
    return e - k - 1 <= VM_JIT_REGION && e <= f->ncode ? e : 0;
}
/* Record q emits (for the whole group and under a mask). */
static bool dry_ok(jc *dry, uint32_t q) {
    bool ok = true;
    for (int d = 0; d < 2 && ok; d++) {
        dry->b->n = 0;
        cache_reset(dry);
        dry->now = q;
        dry->depth = d;
        ok = emit(dry, &dry->f->code[q]);
    }
    dry->depth = 0;
    return ok;
}
/* The J of the region branch k opens, or 0: not one (ifconv takes it, its
 * shape, a record with no masked template or a superinstruction, the
 * after-prologue start inside, a branch from outside into it), or k could
 * head a run (the record before is a branch or is not compiled). */
static uint32_t rg_ok(const vm_func *f, uint32_t k, const uint8_t *conv, jc *dry) {
    uint32_t e = conv[k] || !k ? 0 : rg_end(f, k);
    const void *const *tab = vm_handler_table();
    const vm_insn *p = &f->code[k - !!e];
    if (!e || f->code[k].h != tab[VM_BRA] || k == f->nhoist || p->op == VM_BRA || p->op == VM_BRX ||
        p->h != tab[p->op] || !dry_ok(dry, k - 1))
        return 0;
    for (uint32_t q = k + 1; q < e; q++) {
        const vm_insn *x = &f->code[q];
        if (x->h != tab[x->op] || q == f->nhoist || (x->op != VM_BRA && (!maskable((vm_opid)x->op) || !dry_ok(dry, q))))
            return 0;
    }
    for (uint32_t q = 0; q < f->ncode; q++) {
        const vm_insn *y = &f->code[q];
        if (y->op == VM_BRX) {
            for (int64_t z = 0; z < y->imm; z++) {
                const vm_insn *t = ((const vm_insn *const *)y->p)[z];
                if (t > &f->code[k] && t < &f->code[e]) return 0;
            }
        } else if (y->op == VM_BRA && (q < k || q >= e) && y->target > &f->code[k] && y->target < &f->code[e])
            return 0;
    }
    return e;
}

/* A region's branch (emit's edx: the lanes that jump). Inline: ifconv's
 * test, or for an unguarded one a jump to the skip stub (what follows is
 * reached only through jumps). Masked: the lanes that jump wait at the
 * target (at J: nothing to note) and leave r13d. */
static void region_bra(jc *j, const vm_insn *i) {
    cbuf *b = j->b;
    uint32_t k = j->rgn[j->now] - 1, t = (uint32_t)(i->target - j->f->code);
    if (j->rmask) {
        if (t < j->rj) gop(b, false, 0x09, RDX, M(CTX, (int64_t)(offsetof(vm_jit_ctx, pend) + 4 * (t - k - 1))));
        gop(b, false, 0x89, RDX, R(RAX)); /* mov eax, edx; not eax; and r13d, eax */
        uint8_t nt[2] = {0xf7, 0xd0};
        put(b, nt, 2);
        gop(b, false, 0x21, RAX, R(R13));
        return;
    }
    if (j->now == k) j->rent[k] = SIZE_MAX; /* no masked code in this run yet */
    if (!(i->g == j->f->true_slot && i->gx == 0)) {
        ifconv(j, i);
        return;
    }
    stub_add(j, i, SIZE_MAX, jmp32(b));
    cache_reset(j);
    j->dead = true;
}

/* ecx := r13d; not ecx; and eax, ecx */
static void rg_not_r13(jc *j) {
    gop(j->b, false, 0x89, R13, R(RCX));
    uint8_t nt[2] = {0xf7, 0xd1};
    put(j->b, nt, 2);
    gop(j->b, false, 0x21, RCX, R(RAX));
}
/* Every dirty value stored, the cache empty (a block's start). */
static void flush_all(jc *j, uint32_t k) {
    const uint64_t *lv = j->live;
    j->live = NULL;
    flush(j, k, true);
    j->live = lv;
    j->nan_ok = false;
}

/* The masked code of region [k, e), its block starts in j->rent. */
static void region_masked(jc *j, uint32_t k, uint32_t e) {
    cbuf *b = j->b;
    const vm_func *f = j->f;
    const ifstub *join = NULL;
    for (int s = 0; s < j->nst; s++)
        if (j->st[s].stream == 0 && j->st[s].t == e && j->st[s].t_set) join = &j->st[s];
    if (!join) {
        b->oom = true;
        return;
    }
    int depth = j->depth;
    size_t skip = SIZE_MAX;
    j->rent[k] = 0;
    cache_reset(j);
    j->depth = j->base + 1, j->rmask = true, j->rk = k, j->rj = e;
    for (uint32_t q = k + 1; q < e; q++) {
        j->now = q;
        if (f->code[q - 1].op == VM_BRA || rg_target(f, k, e, q)) {
            uint32_t n = rg_block_end(f, k, e, q) - q;
            flush_all(j, q);
            if (skip != SIZE_MAX) land(b, skip);
            j->rent[q] = b->n;
            if (rg_target(f, k, e, q)) /* or r13d, [pend] */
                gop(b, false, 0x0b, R13, M(CTX, (int64_t)(offsetof(vm_jit_ctx, pend) + 4 * (q - k - 1))));
            gop(b, false, 0x85, R13, R(R13)); /* test r13d, r13d */
            size_t go = jcc(b, 0x85);
            gop(b, true, 0x81, 0, M(CTX, (int64_t)offsetof(vm_jit_ctx, wadj))); /* no lane: skipped */
            b32(b, n);
            ctx_get(j, RAX, offsetof(vm_jit_ctx, grp));
            tadj_add(j, n, false);
            skip = jmp32(b);
            land(b, go);
            ctx_get(j, RAX, offsetof(vm_jit_ctx, grp)); /* run by r13d: the rest of the group not */
            rg_not_r13(j);
            tadj_add(j, n, false);
            set_off(j, 1);
        }
        emit(j, &f->code[q]);
    }
    flush_all(j, e);
    if (skip != SIZE_MAX) land(b, skip);
    j->depth = depth, j->rmask = false;
    if (j->base) ctx_get(j, R13, offsetof(vm_jit_ctx, grp));
    set_off(j, j->base);
    reconcile(j, e, &join->at_t);
    jump_to(b, join->t_pos);
}

/* A region's branch splits the group (edx: the lanes that jump): they wait
 * at its target, the others enter the masked code at the next record. */
static void region_split(jc *j, const ifstub *x) {
    if (x->jpart == SIZE_MAX) return;
    cbuf *b = j->b;
    const vm_func *f = j->f;
    uint32_t k = j->rgn[x->k] - 1, e = rg_end(f, k);
    if (j->rent[k] == SIZE_MAX) region_masked(j, k, e);
    land(b, x->jpart);
    restore_cache(j, &x->at_br);
    j->now = x->k;
    flush(j, x->k, true);
    if (x->depth) ctx_put(j, R13, offsetof(vm_jit_ctx, grp));
    else {
        b1(b, 0xb8), b32(b, VM_FULL); /* mov eax, -1 */
        ctx_put(j, RAX, offsetof(vm_jit_ctx, grp));
    }
    for (uint32_t t = x->k + 1; t < e; t++)
        if (rg_target(f, k, e, t)) { /* mov dword [pend], 0 */
            gop(b, false, 0xc7, 0, M(CTX, (int64_t)(offsetof(vm_jit_ctx, pend) + 4 * (t - k - 1))));
            b32(b, 0);
        }
    if (x->t < e) ctx_put(j, RDX, offsetof(vm_jit_ctx, pend) + 4 * (x->t - k - 1));
    gop(b, false, 0x89, RDX, R(RAX)); /* r13d := the group's other lanes */
    uint8_t nt[2] = {0xf7, 0xd0};
    put(b, nt, 2);
    if (x->depth) gop(b, false, 0x21, RAX, R(R13));
    else gop(b, false, 0x89, RAX, R(R13));
    if (!b->oom) jump_to(b, j->rent[x->k + 1]);
}

/* A called record faulted in a region's masked code (active: its block's
 * lanes, n: the block's records from it on): the lanes waiting at targets
 * after it wait there, the rest of the group at J, the counts those of the
 * records before it, and the run returns it. */
static void region_unwind(vm_jit_ctx *c, const vm_insn *i, uint32_t k, uint32_t active, uint32_t n) {
    vm_warp *w = c->w;
    const vm_func *f = c->fr->fn;
    uint32_t e = rg_end(f, k), wait = c->grp & ~active;
    const vm_insn *stop = NULL;
    c->tadj -= (int64_t)n * __builtin_popcount(wait);
    for (uint32_t t = (uint32_t)(i - f->code) + 1; t <= e; t++) {
        uint32_t m = t == e ? wait : rg_target(f, k, e, t) ? c->pend[t - k - 1] & wait : 0;
        if (!m) continue;
        wait &= ~m;
        for (; m; m &= m - 1) w->lpc[__builtin_ctz(m)] = &f->code[t];
        if (!stop) stop = &f->code[t];
    }
    w->lpc_stop = stop ? stop : (const vm_insn *)UINTPTR_MAX;
    c->mask = active;
    c->fault |= VM_JIT_ADJUST | VM_JIT_SPLIT;
}
/* The call a faulted record's code makes: fn(c, i, edx, r13d, r8d) sets the
 * warp as the interpreter leaves it, and the run returns i. */
static void unwind_call(jc *j, const vm_insn *i, uint64_t fn, uint32_t edx, uint32_t r8d) {
    cbuf *b = j->b;
    gop(b, true, 0x89, CTX, R(RDI)); /* mov rdi, r12 */
    mov_imm64(b, RSI, (uint64_t)(uintptr_t)i);
    b1(b, 0xba); /* mov edx, imm32 */
    b32(b, edx);
    gop(b, false, 0x89, R13, R(RCX)); /* mov ecx, r13d */
    uint8_t r8[2] = {0x41, 0xb8};      /* mov r8d, imm32 */
    put(b, r8, 2);
    b32(b, r8d);
    mov_imm64(b, RAX, fn);
    uint8_t call[2] = {0xff, 0xd0};
    put(b, call, 2);
    ret_with(b, (uint64_t)(uintptr_t)i);
}

static void region_fault(jc *j, const vm_insn *i) {
    unwind_call(j, i, (uint64_t)(uintptr_t)region_unwind, j->rk, rg_block_end(j->f, j->rk, j->rj, j->now) - j->now);
}

/* A called record faulted in a body: the run returns it with the warp as the
 * interpreter leaves it (jit_unwind). */
static void jit_unwind(vm_jit_ctx *c, const vm_insn *i, int depth, uint32_t group, int base) {
    vm_warp *w = c->w;
    for (int d = base; d < depth; d++) {
        for (uint32_t m = c->tk[d]; m; m &= m - 1) w->lpc[__builtin_ctz(m)] = c->br[d]->target;
        c->tadj += (int64_t)(i - c->br[d] - 1) * __builtin_popcount(c->tk[d]);
    }
    w->lpc_stop = c->br[depth - 1]->target;
    c->mask = group;
    c->fault |= VM_JIT_ADJUST | VM_JIT_SPLIT;
}
static void body_fault(jc *j, const vm_insn *i) {
    if (j->rmask) region_fault(j, i);
    else unwind_call(j, i, (uint64_t)(uintptr_t)jit_unwind, (uint32_t)j->depth, (uint32_t)j->base);
}

/* atom.shared.add.u32/s32 with register operands (vm_atom_plain_regs), as
 * vm_atom's plain path: the executing lanes' addresses checked against the
 * CTA's window in one vector pass, then the read-modify-writes one lane at a
 * time in lane order, so lanes on one word see each other's sums; the old
 * values go to d unless it is the sink or dead. Any lane off the window, or
 * a window of less than a word, takes run_mem: vm_atom runs the record from
 * its first lane and reports the bad one. The lanes' addresses, values and
 * old values pass through 384 bytes of the stack. */
enum { ATOM_STACK = 448 };
static void atom_shared(jc *j, const vm_insn *i) {
    cbuf *b = j->b;
    const vm_alu *o = i->p;
    bool g = guarded(j, i), old = o->d[0].kind == VM_K_R32 && live_at(j, j->now + 1, o->d[0].off, 128);
    enum { R8 = 8 };
    size_t slow[3];
    int ns = 0;
    drop_dead(j);
    if (g) exec_edx(j, i);
    centry *a = src(j, i->a, false), *v = src(j, o->s[0].off, false);
    uint8_t sub[3] = {0x48, 0x81, 0xec}; /* sub rsp, imm32 */
    put(b, sub, 3);
    b32(b, ATOM_STACK);
    uint8_t al[9] = {0x48, 0x8d, 0x7c, 0x24, 0x3f, 0x48, 0x83, 0xe7, 0xc0}; /* lea rdi, [rsp+63]; and rdi, -64 */
    put(b, al, 9);
    /* ecx := smem_size - 4 (below 4: no word fits) */
    gop(b, true, 0x8b, RSI, M(CTX, (int64_t)offsetof(vm_jit_ctx, cta)));
    gop(b, false, 0x8b, RCX, M(RSI, (int64_t)offsetof(vm_cta, smem_size)));
    uint8_t s4[3] = {0x83, 0xe9, 0x04}; /* sub ecx, 4 */
    put(b, s4, 3);
    slow[ns++] = jcc(b, 0x82); /* jb */
    z(b, BCD_R, ZQ, 0, R(RCX), 0);
    b1(b, 0xb8); /* mov eax, imm */
    b32(b, (uint32_t)i->imm);
    z(b, BCD_R, ZT + 2, 0, R(RAX), 0);
    b1(b, 0xb8);
    b32(b, 3);
    z(b, BCD_R, ZT + 3, 0, R(RAX), 0);
    for (int h = 0; h < 2; h++) {
        z(b, ADDD, ZX, a->z[h], R(ZT + 2), 0);          /* the lanes' addresses */
        z(b, ST32, ZX, 0, M(RDI, 64 * h), 0);
        z(b, ST32, v->z[h], 0, M(RDI, 128 + 64 * h), 0); /* their values */
        zi(b, CMPUD, 2, ZX, R(ZQ), 0, 6);                /* k2 := past the last word */
        z(b, TESTMD, 3, ZX, R(ZT + 3), 0);               /* k3 := misaligned */
        klog(b, KORW, 2, 2, 3);
        if (g) {
            gop(b, false, 0x89, RDX, R(RAX)); /* mov eax, edx */
            if (h) shr_eax(b, 16);
            kmov(b, false, true, 3, RAX);
            klog(b, KANDW, 2, 2, 3);
        }
        kortest2(b, false);
        slow[ns++] = jcc(b, 0x85);
    }
    gop(b, true, 0x8b, RSI, M(RSI, (int64_t)offsetof(vm_cta, smem))); /* rsi := smem */
    /* the lanes one by one, in lane order */
    for (int l = 0; l < VM_LANES; l++) {
        size_t skip = 0;
        if (g) {
            uint8_t t[2] = {0xf7, 0xc2}; /* test edx, 1 << l */
            put(b, t, 2);
            b32(b, 1u << l);
            skip = jcc(b, 0x84);
        }
        gop(b, false, 0x8b, RAX, M(RDI, 4 * l));       /* eax := address */
        gop(b, false, 0x8b, RCX, M(RDI, 128 + 4 * l)); /* ecx := value */
        if (old) {
            uint8_t rmw[12] = {0x44, 0x8b, 0x04, 0x06,  /* mov r8d, [rsi+rax] */
                               0x46, 0x8d, 0x0c, 0x01,  /* lea r9d, [rcx+r8] */
                               0x44, 0x89, 0x0c, 0x06}; /* mov [rsi+rax], r9d */
            put(b, rmw, 12);
            gop(b, false, 0x89, R8, M(RDI, 256 + 4 * l));
        } else {
            uint8_t rmw[3] = {0x01, 0x0c, 0x06}; /* add [rsi+rax], ecx */
            put(b, rmw, 3);
        }
        if (g) land(b, skip);
    }
    if (old)
        for (int h = 0; h < 2; h++) z(b, LD32, ZT + h, 0, M(RDI, 256 + 64 * h), 0);
    uint8_t add[3] = {0x48, 0x81, 0xc4}; /* add rsp, imm32 */
    put(b, add, 3);
    b32(b, ATOM_STACK);
    size_t done = jmp32(b);
    for (int k = 0; k < ns; k++) land(b, slow[k]);
    put(b, add, 3);
    b32(b, ATOM_STACK);
    slow_call(j, i);
    if (g) exec_edx(j, i);
    if (old)
        for (int h = 0; h < 2; h++) z(b, LD32, ZT + h, 0, F(o->d[0].off + 64u * h), 0);
    land(b, done);
    j->nan_ok = false;
    if (old) commit_to(j, i, o->d[0].off, false);
}

/* Emits record i (number j->now); false when it has no template (it ends the run). */
#include "jit_lane.h"
#include "jit_vec.h"
#include "jit_dot.h"

static bool emit(jc *j, const vm_insn *i) {
    bool q = true;
    run4_step(j, i);
    if (fold_take(j, i)) return true;
    if (dot_take(j, i)) return true;
    if (guarded(j, i) && i->op != VM_LDG4 && i->op != VM_STG4 && i->op != VM_LDS4 && i->op != VM_STS4 &&
        i->op != VM_LD && i->op != VM_ST && i->op != VM_LDV && i->op != VM_STV && i->op != VM_ATOM &&
        i->op != VM_ALU)
        exec_edx(j, i);
    switch (i->op) {
    case VM_NOP: break;
    case VM_BRA:
        if (j->rgn && j->rgn[j->now]) region_bra(j, i);
        else if (j->conv && j->conv[j->now] && i->target <= &j->f->code[j->end]) ifconv(j, i);
        else bra(j, i);
        break;
    case VM_MOV32:
        if (!mov_konst(j, i)) mov(j, i, false);
        break;
    case VM_MOV64: mov(j, i, true); break;
    case VM_CVT_U64_U32: widen(j, i, false); break;
    case VM_CVT_S64_S32: widen(j, i, true); break;
    case VM_CVT_U32_U64: narrow(j, i); break;
    case VM_SELP32: selp(j, i, false); break;
    case VM_SELP64: selp(j, i, true); break;
    case VM_ADD32: bin_c(j, i, ADDD, false, false, false, true); break;
    case VM_SUB32: bin(j, i, SUBD, false, false, false); break;
    case VM_MUL32:
        if (mul_uniform(j, i)) {
            for (int p = 0; p < 2; p++) z(j->b, MOVA64, ZT + p, 0, R(ZQ), 0);
            commit(j, i, false);
        } else bin(j, i, MULLD, false, false, false);
        break;
    case VM_AND32: bin_c(j, i, ANDD, false, false, false, true); break;
    case VM_OR32: bin_c(j, i, ORD, false, false, false, true); break;
    case VM_XOR32: bin_c(j, i, XORD, false, false, false, true); break;
    case VM_SHL32: bin(j, i, SLLVD, false, false, false); break;
    case VM_SHRU32: bin(j, i, SRLVD, false, false, false); break;
    case VM_SHRS32: bin(j, i, SRAVD, false, false, false); break;
    case VM_MINS32: bin_c(j, i, MINSD, false, false, false, true); break;
    case VM_MAXS32: bin_c(j, i, MAXSD, false, false, false, true); break;
    case VM_MINU32: bin_c(j, i, MINUD, false, false, false, true); break;
    case VM_MAXU32: bin_c(j, i, MAXUD, false, false, false, true); break;
    case VM_MAD32: mad(j, i, false); break;
    case VM_DIVU32: divu(j, i, false); break;
    case VM_REMU32: divu(j, i, true); break;
    case VM_ADD64: bin_c(j, i, ADDQ, true, false, false, true); break;
    case VM_SUB64: bin(j, i, SUBQ, true, false, false); break;
    case VM_MUL64: bin_c(j, i, MULLQ, true, false, false, true); break;
    case VM_AND64: bin_c(j, i, ANDQ, true, false, false, true); break;
    case VM_OR64: bin_c(j, i, ORQ, true, false, false, true); break;
    case VM_XOR64: bin_c(j, i, XORQ, true, false, false, true); break;
    case VM_SHL64:
        if (!shl64_konst(j, i)) bin(j, i, SLLVQ, true, true, false);
        break;
    case VM_SHRU64: bin(j, i, SRLVQ, true, true, false); break;
    case VM_SHRS64: bin(j, i, SRAVQ, true, true, false); break;
    case VM_MAD64: mad(j, i, true); break;
    case VM_MULWS32:
    case VM_MULWU32:
    case VM_MADWS32:
    case VM_MADWU32: {
        bool sgn = i->op == VM_MULWS32 || i->op == VM_MADWS32, add = i->op == VM_MADWS32 || i->op == VM_MADWU32;
        if (!mulw_konst(j, i, sgn, add)) mulw(j, i, sgn, add);
        break;
    }
    case VM_NOT32:
        for (int p = 0; p < 2; p++) zi(j->b, TERND, ZT + p, ZT + p, S(j, i->a, false, p), 0, 0x55);
        commit(j, i, false);
        break;
    case VM_CVTF32S32:
    case VM_CVTF32U32: /* the host's conversion (MXCSR: nearest even), as exec.c's */
        for (int p = 0; p < 2; p++) z(j->b, i->op == VM_CVTF32S32 ? DQ2PS : UDQ2PS, ZT + p, 0, S(j, i->a, false, p), 0);
        commit(j, i, false);
        break;
    case VM_ADDF32: bin_c(j, i, ADDPS, false, false, true, true); break;
    case VM_SUBF32: bin(j, i, SUBPS, false, false, true); break;
    case VM_MULF32: bin_c(j, i, MULPS, false, false, true, true); break;
    case VM_FMAF32: {
        bool canon = !canon_later(j, i);
        if (canon) nan_const(j);
        fma213(j, FMA213PS, -1, i->a, -1, i->b, i->c, canon);
        commit(j, i, false);
        break;
    }
#define CMP6(T, O, W, EQ, NE, LT, LE, GT, GE)   \
    case VM_EQ_##T: cmp(j, i, O, W, EQ); break; \
    case VM_NE_##T: cmp(j, i, O, W, NE); break; \
    case VM_LT_##T: cmp(j, i, O, W, LT); break; \
    case VM_LE_##T: cmp(j, i, O, W, LE); break; \
    case VM_GT_##T: cmp(j, i, O, W, GT); break; \
    case VM_GE_##T: cmp(j, i, O, W, GE); break;
        /* vpcmp: 0 eq, 1 lt, 2 le, 4 ne, 5 nlt, 6 nle; vcmpps: the ordered quiet forms */
        CMP6(S32, CMPD, false, 0, 4, 1, 2, 6, 5)
        CMP6(U32, CMPUD, false, 0, 4, 1, 2, 6, 5)
        CMP6(S64, CMPQ, true, 0, 4, 1, 2, 6, 5)
        CMP6(U64, CMPUQ, true, 0, 4, 1, 2, 6, 5)
        CMP6(F32, CMPPS, false, 0x00, 0x0c, 0x11, 0x12, 0x1e, 0x1d)
#undef CMP6
    case VM_PAND:
    case VM_POR:
    case VM_PXOR:
    case VM_PNOT:
    case VM_MOVP: plogic(j, i); break;
    case VM_LD_KPARAM: q = ld_kparam(j, i); break;
    case VM_MOV_SREG: q = mov_sreg(j, i); break;
    case VM_CVTA_TO:
    case VM_CVTA_FROM: q = cvta(j, i); break;
    case VM_LDG4:
    case VM_STG4:
        if (i->imm == (int32_t)i->imm && j->f->prog->rt && j->f->prog->rt->arena) {
            if (i->op == VM_STG4) store_lanes(j, i, false);
            else mem4(j, i, false, false);
            break;
        }
        call_fn(j, i, run_mem);
        break;
    case VM_LDS4: mem4(j, i, false, true); break;
    case VM_STS4: store_lanes(j, i, true); break;
    case VM_ATOM:
        if (vm_atom_plain_regs(i)) {
            atom_shared(j, i);
            break;
        }
        call_fn(j, i, run_mem);
        break;
    case VM_LDV:
    case VM_STV:
        if (!vec_mem(j, i)) call_fn(j, i, run_mem);
        break;
    case VM_LD:
        if (!lds_fixed(j, i)) call_fn(j, i, run_mem);
        break;
    case VM_ST:
    case VM_ALU: call_fn(j, i, run_mem); break;
    case VM_SHFL:
        if (!shfl(j, i)) call_fn(j, i, run_shfl);
        break;
    case VM_EXT: q = fused(j, i); break;
    case VM_BAR: q = bar_sync(j, i); break;
    case VM_MINF32: minmax(j, i, false); break;
    case VM_MAXF32: minmax(j, i, true); break;
    default: q = false;
    }
    return q;
}

/* ---- regions ---- */

typedef struct jit_chunk {
    struct jit_chunk *next;
    void *code;
    size_t size;
    vm_jit_region *regions;
} jit_chunk;

enum { PROLOGUE_BYTES = 11 };
static void prologue(cbuf *b) {
    /* push rbx, r12, r13 (keeps rsp 16-aligned for calls); rbx := fb, r12 := ctx */
    uint8_t x[PROLOGUE_BYTES] = {0x53, 0x41, 0x54, 0x41, 0x55, 0x48, 0x89, 0xfb, 0x49, 0x89, 0xf4};
    put(b, x, sizeof x);
}
static void epilogue(cbuf *b, const vm_insn *end) {
    mov_imm64(b, RAX, (uint64_t)(uintptr_t)end);
    uint8_t ep[9] = {0x41, 0x5d, 0x41, 0x5c, 0x5b, 0xc5, 0xf8, 0x77, 0xc3};
    put(b, ep, 9);
}

/* Records that only the JIT handler may replace: their own handler, not a
 * superinstruction's (fuse.c). */
/* PTXI_JIT_PERFMAP=1: each compiled record's code is named in /tmp/perf-PID.map
 * ("ptxi:FUNC:RECORD:OP:PTXLINE"), where perf finds the symbols of generated
 * code; a masked run as "ptxi:FUNC:[START,END):masked". The same code, bytes
 * included, goes to /tmp/jit-PID.dump in perf's jitdump format, so that
 * `perf record -k mono` then `perf inject --jit` lets `perf annotate` show
 * the instructions of each record (bench/README.md, "Profiling compiled
 * code"). */
typedef struct jd_head { /* jitdump file header (version 1) */
    uint32_t magic, version, size, mach, pad, pid;
    uint64_t time, flags;
} jd_head;
typedef struct jd_load { /* JIT_CODE_LOAD; the name and the code follow */
    uint32_t id, size;
    uint64_t time;
    uint32_t pid, tid;
    uint64_t vma, addr, len, index;
} jd_load;

static uint64_t mono_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The dump file, opened and mapped once (perf finds it by that mapping); NULL if it cannot be. */
static FILE *jit_dump_file(void) {
    static FILE *d;
    static bool tried;
    if (tried) return d;
    tried = true;
    char path[64];
    snprintf(path, sizeof path, "/tmp/jit-%ld.dump", (long)getpid());
    FILE *f = fopen(path, "w+");
    if (!f) return NULL;
    jd_head h = {0x4A695444, 1, sizeof h, 62 /* EM_X86_64 */, 0, (uint32_t)getpid(), mono_ns(), 0};
    void *m = fwrite(&h, sizeof h, 1, f) == 1 && fflush(f) == 0
                  ? mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_EXEC, MAP_PRIVATE, fileno(f), 0)
                  : MAP_FAILED;
    if (m == MAP_FAILED) {
        fclose(f);
        return NULL;
    }
    return d = f; /* the mapping stays for the process's life, as perf wants */
}

static void perf_name(FILE *m, FILE *d, const uint8_t *at, size_t len, const char *name) {
    static uint64_t index;
    if (m) fprintf(m, "%lx %zx %s\n", (unsigned long)(uintptr_t)at, len, name);
    if (!d) return;
    size_t nl = strlen(name) + 1;
    jd_load r = {0, (uint32_t)(sizeof r + nl + len), mono_ns(), (uint32_t)getpid(), (uint32_t)getpid(),
                 (uint64_t)(uintptr_t)at, (uint64_t)(uintptr_t)at, len, index++};
    fwrite(&r, sizeof r, 1, d);
    fwrite(name, nl, 1, d);
    fwrite(at, len, 1, d);
}

static void perf_map(const vm_func *f, const uint8_t *code, const uint32_t *starts, const uint32_t *ends, uint32_t nr,
                     const size_t *roff, const size_t *moffs, size_t total) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    char path[64], name[300];
    snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
    pthread_mutex_lock(&lock);
    FILE *m = fopen(path, "a"), *d = jit_dump_file();
    for (uint32_t r = 0; r < nr; r++) {
        for (uint32_t k = starts[r]; k < ends[r]; k++) {
            snprintf(name, sizeof name, "ptxi:%s:%u:%s:%u", f->ir->name, k, vm_op_name[f->code[k].op],
                     f->src ? f->src[k].loc.line : 0);
            perf_name(m, d, code + roff[k], roff[k + 1] - roff[k], name);
        }
        if (moffs[r] == SIZE_MAX) continue;
        size_t next = total; /* the masked runs lie one after another, in order */
        for (uint32_t q = r + 1; q < nr && next == total; q++)
            if (moffs[q] != SIZE_MAX) next = moffs[q];
        snprintf(name, sizeof name, "ptxi:%s:[%u,%u):masked", f->ir->name, starts[r], ends[r]);
        perf_name(m, d, code + moffs[r], next - moffs[r], name);
    }
    if (m) fclose(m);
    if (d) fflush(d);
    pthread_mutex_unlock(&lock);
}

/* Run [k, e): its function, for the whole warp (base 0) or for the group
 * in c->mask (base 1: every record under r13d, as in a body). */
static bool emit_run(jc *j, uint32_t k, uint32_t e, int base, size_t *roff) {
    bool all = true;
    cache_reset(j);
    j->dead = false;
    j->end = e;
    j->loop = j->f->code[e - 1].op == VM_BRA && (j->f->code[e - 1].flags & VM_F_BACK);
    j->base = j->depth = base;
    prologue(j->b);
    if (base) ctx_get(j, R13, offsetof(vm_jit_ctx, mask));
    j->start = k, j->head_at = j->b->n;
    for (uint32_t r = k; r < e; r++) {
        if (roff) roff[r] = j->b->n;
        ifconv_at(j, r);
        j->now = r;
        all &= emit(j, &j->f->code[r]);
    }
    ifconv_at(j, e);
    flush(j, e, true);
    if (ends_kernel(j, e)) hand_over(j, e - 1);
    chain(j, e, 0);
    epilogue(j->b, &j->f->code[e]);
    ifconv_stubs(j);
    j->base = j->depth = 0;
    return all;
}

static void compile_func(vm_func *f, jit_chunk **list, bool log, bool pmap) {
    const void *const *tab = vm_handler_table();
    uint32_t n = f->ncode;
    uint8_t *target = calloc(n + 1, 1), *conv = calloc(n + 1, 1);
    uint32_t *rgn = calloc(n + 1, sizeof *rgn);
    size_t *rent = calloc(n + 1, sizeof *rent);
    cbuf b = {0}, scratch = {0};
    jc j = {.b = &b, .f = f, .conv = conv, .rgn = rgn, .rent = rent},
       dry = {.b = &scratch, .f = f}; /* dry: the same code decides, its bytes are dropped */
    if (!target || !conv || !rgn || !rent) {
        free(target);
        free(conv);
        free(rgn);
        free(rent);
        return;
    }
    for (uint32_t k = 0; k < n; k++) conv[k] = ifconv_ok(f, k, 0, &dry);
    for (uint32_t k = 0, e; k < n; k++)
        if ((e = rg_ok(f, k, conv, &dry))) {
            for (uint32_t q = k; q < e; q++) rgn[q] = k + 1;
            k = e - 1;
        }
    for (bool again = true; again;) { /* a region whose branch is a target would head a run: none */
        again = false;
        memset(target, 0, n + 1);
        for (uint32_t k = 0; k < n; k++) {
            const vm_insn *vi = &f->code[k];
            /* a converted branch, a region's branch, joins in its run */
            if (vi->op == VM_BRA && vi->target && !conv[k] && !rgn[k]) target[vi->target - f->code] = 1;
            /* lanes that leave a loop one by one wait after its back branch: the
             * masked version of the loop's run can run to there only if a run starts there */
            if (vi->op == VM_BRA && vi->target && vi->target <= vi && !(vi->g == f->true_slot && vi->gx == 0)) target[k + 1] = 1;
            if (vi->op == VM_BRX)
                for (int64_t t = 0; t < vi->imm; t++) target[((const vm_insn *const *)vi->p)[t] - f->code] = 1;
            if (vi->op == VM_BAR && k + 1 < n) target[k + 1] = 1; /* released warps resume there (jit_bar.h) */
        }
        if (f->nhoist && f->nhoist < n) target[f->nhoist] = 1; /* a warp whose frame holds the prologue starts there */
        for (uint32_t k = 0; k < n; k++)
            if (rgn[k] == k + 1 && target[k]) {
                for (uint32_t q = k; q < n && rgn[q] == k + 1; q++) rgn[q] = 0;
                again = true;
            }
    }
    for (uint32_t k = 0; k < n; k++)
        if (rgn[k]) conv[k] = 0;
    j.live = liveness(f, &j.nw);
    /* runs: [start, end) of records with templates, at least two, none a branch target but the first */
    uint32_t *starts = malloc((n + 1) * sizeof *starts), *ends = malloc((n + 1) * sizeof *ends);
    size_t *offs = malloc((n + 1) * sizeof *offs), *moffs = malloc((n + 1) * sizeof *moffs),
           *roff = pmap ? calloc(n + 1, sizeof *roff) : NULL;
    size_t *heads = malloc((n + 1) * sizeof *heads);
    uint32_t *chain_to = calloc(n + 1, sizeof *chain_to);
    j.chain_at = malloc(2 * (n + 1) * sizeof *j.chain_at), j.chain_run = malloc(2 * (n + 1) * sizeof *j.chain_run);
    j.chain_to = chain_to;
    uint32_t nr = 0;
    if (!starts || !ends || !offs || !moffs || (pmap && !roff) || !heads || !chain_to || !j.chain_at || !j.chain_run)
        goto done;
    for (uint32_t k = 0; k < n;) {
        if (f->code[k].op == VM_BRA) { /* a head's target becomes its region: a branch keeps its own */
            k++;
            continue;
        }
        uint32_t e = k;
        while (e < n && (e == k || !target[e]) && (f->code[e].h == tab[f->code[e].op] || dot_in(f, e))) {
            scratch.n = 0;
            cache_reset(&dry);
            dry.now = e;
            if (!emit(&dry, &f->code[e])) break;
            if (f->code[e++].op == VM_BRA && !guarded(&dry, &f->code[e - 1]) && !rgn[e - 1]) break; /* nothing follows in line */
        }
        if (log)
            fprintf(stderr, "ptxi jit: %s [%u,%u)%s%s%s\n", f->ir->name, k, e, e < n ? " stops at " : "",
                    e < n ? vm_op_name[f->code[e].op] : "",
                    e >= n                               ? ""
                    : e == f->nhoist                     ? " (after the prologue)"
                    : target[e]                          ? " (a branch target)"
                    : f->code[e].h != tab[f->code[e].op] ? " (a superinstruction)"
                                                         : "");
        if (e - k >= 2) starts[nr] = k, ends[nr] = e, nr++;
        k = e > k ? e : k + 1;
    }
    for (uint32_t r = 0; r < nr; r++) chain_to[starts[r]] = r + 1; /* runs that can be chained into (chain) */
    for (uint32_t r = 0; r < nr; r++) {
        /* the run's body (after the prologue), where loops go round and
         * warps hand over, starts a line of the code (the chunk is page
         * aligned); the bytes before it are never run */
        while ((b.n + PROLOGUE_BYTES) % 64) b1(&b, 0xcc);
        offs[r] = b.n;
        emit_run(&j, starts[r], ends[r], 0, roff);
        heads[r] = j.head_at;
        if (roff) roff[ends[r]] = b.n; /* the last record's code takes the run's exit and its bodies */
    }
    for (uint32_t c = 0; c < j.nchain && !b.oom; c++) {
        uint32_t d = (uint32_t)(heads[j.chain_run[c]] - (j.chain_at[c] + 4));
        memcpy(b.p + j.chain_at[c], &d, 4);
    }
    j.chain_to = NULL; /* the masked versions do not chain */
    for (uint32_t r = 0; r < nr; r++) { /* the masked versions, after all the others (kept apart from the hot code) */
        moffs[r] = b.n;
        if (!emit_run(&j, starts[r], ends[r], 1, NULL)) moffs[r] = SIZE_MAX; /* a template the mask does not allow: none */
    }
    if (!nr || b.oom) goto done;
    long pg = sysconf(_SC_PAGESIZE);
    size_t size = (b.n + (size_t)pg - 1) & ~((size_t)pg - 1);
    void *code = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED) goto done;
    memcpy(code, b.p, b.n);
    jit_chunk *ch = calloc(1, sizeof *ch);
    vm_jit_region *rg = calloc(nr, sizeof *rg);
    if (!ch || !rg || mprotect(code, size, PROT_READ | PROT_EXEC) != 0) {
        munmap(code, size);
        free(ch);
        free(rg);
        goto done;
    }
    if (roff) perf_map(f, code, starts, ends, nr, roff, moffs, b.n);
    ch->code = code, ch->size = size, ch->regions = rg, ch->next = *list;
    *list = ch;
    for (uint32_t r = 0; r < nr; r++) {
        vm_insn *head = &f->code[starts[r]];
        rg[r].fn = (vm_jit_fn)(void *)((uint8_t *)code + offs[r]);
        rg[r].mfn = moffs[r] == SIZE_MAX ? NULL : (vm_jit_fn)(void *)((uint8_t *)code + moffs[r]);
        rg[r].end = &f->code[ends[r]];
        rg[r].body = (uint8_t *)code + heads[r];
        head->target = (const vm_insn *)(const void *)&rg[r];
        head->h = tab[VM_JIT];
    }
done:
    free((void *)j.live);
    free(b.p);
    free(scratch.p);
    free(starts);
    free(ends);
    free(heads);
    free(chain_to);
    free(j.chain_at);
    free(j.chain_run);
    free(offs);
    free(moffs);
    free(roff);
    free(target);
    free(conv);
    free(rgn);
    free(rent);
    free(j.st);
    jc_free(&j);
    jc_free(&dry);
}

static bool host_ok(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
}

void vm_jit_program(vm_program *prog) {
    const char *env = getenv("PTXI_JIT");
    if ((env && env[0] == '0') || !host_ok()) return;
    if (prog->rt && (prog->rt->dbg || prog->rt->dbg_fault || prog->rt->san)) return;
    const char *lg = getenv("PTXI_JIT_LOG");
    bool log = lg && lg[0] == '1';
    const char *pm = getenv("PTXI_JIT_PERFMAP");
    jit_chunk *list = prog->jit;
    for (uint32_t k = 0; k < prog->nfuncs; k++)
        if (prog->funcs[k].ir->has_body && prog->funcs[k].code) compile_func(&prog->funcs[k], &list, log, pm && pm[0] == '1');
    prog->jit = list;
}

void vm_jit_free(vm_program *prog) {
    for (jit_chunk *c = prog->jit, *next; c; c = next) {
        next = c->next;
        munmap(c->code, c->size);
        free(c->regions);
        free(c);
    }
    prog->jit = NULL;
}

#else

void vm_jit_program(vm_program *prog) { (void)prog; }
void vm_jit_free(vm_program *prog) { (void)prog; }

#endif
