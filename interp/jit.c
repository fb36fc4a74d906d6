/* jit.c — a template JIT for x86-64 with AVX-512: each maximal straight-line
 * run of records (no branch, barrier, collective or call; split at branch
 * targets) becomes one function whose body is, per record, a few hand-encoded
 * AVX-512 instructions on the frame's lane arrays (a 32-bit register is two
 * zmm, a 64-bit one four), or a call to the memory handlers' own checked
 * paths. Why: the interpreter spends 4.5-6 ns per warp instruction on
 * dispatch, operand decoding and the guard, several times the work itself
 * (bench/README.md). */
#include "jit.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && !defined(PTXI_SWITCH_DISPATCH)
#include <sys/mman.h>
#include <unistd.h>

#include "exec_mem.h"

/* ---- the records' memory and ALU paths, called from compiled code ----
 * Each runs its record exactly as its handler in exec.c does for a converged
 * group (mask = all lanes): 1, or 0 with the fault recorded. */
static int run_mem(vm_jit_ctx *c, const vm_insn *i) {
    vm_frame *fr = c->fr;
    uint8_t *fb = fr->fb;
    uint32_t m = *(const uint32_t *)(fb + i->g) ^ i->gx;
    if (!m) return 1;
    vm_warp *w = c->w;
    bool ok;
    switch (i->op) {
    case VM_LDG4: {
        const uint64_t *a = (const uint64_t *)(fb + i->a);
        if (m == VM_FULL && vm_ldg4_full(fr->fn->prog->rt->arena, a, (uint64_t)i->imm, (uint32_t *)(fb + i->d))) {
            vm_prefetch_next_warp(c->cta, w->id, i, a[0] + (uint64_t)i->imm, a[VM_HALF] + (uint64_t)i->imm);
            return 1;
        }
        ok = vm_ld(w, fr, fb, i, m);
        break;
    }
    case VM_STG4:
        if (m == VM_FULL && vm_stg4_full(fr->fn->prog->rt->arena, (const uint64_t *)(fb + i->a), (uint64_t)i->imm,
                                         (const uint32_t *)(fb + i->b)))
            return 1;
        ok = vm_st(w, fr, fb, i, m);
        break;
    case VM_LDS4:
        if (m == VM_FULL &&
            vm_lds4_full(c->cta, (const uint32_t *)(fb + i->a), (uint32_t)i->imm, (uint32_t *)(fb + i->d)))
            return 1;
        ok = vm_ld(w, fr, fb, i, m);
        break;
    case VM_STS4:
        if (m == VM_FULL &&
            vm_sts4_full(c->cta, (const uint32_t *)(fb + i->a), (uint32_t)i->imm, (const uint32_t *)(fb + i->b)))
            return 1;
        ok = vm_st(w, fr, fb, i, m);
        break;
    case VM_LD: ok = vm_ld(w, fr, fb, i, m); break;
    case VM_ST: ok = vm_st(w, fr, fb, i, m); break;
    case VM_LDV: ok = vm_ldv(w, fr, fb, i, m); break;
    case VM_STV: ok = vm_stv(w, fr, fb, i, m); break;
    case VM_ATOM: ok = vm_atom(w, fr, fb, i, m); break;
    default: vm_alu_run(w, fb, i->p, m); return 1; /* VM_ALU */
    }
    if (!ok) c->fault = 1;
    return ok;
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

/* An r/m operand: a register (zmm, k or general) or [base + disp32]. */
typedef struct rm {
    bool mem;
    int r;
    int32_t d;
} rm;
static rm R(int r) { return (rm){false, r, 0}; }
static rm M(int base, int64_t d) { return (rm){true, base, (int32_t)d}; }
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

/* EVEX, 512-bit: op reg, vvvv, r/m with writemask k (0: none). */
static void evex(cbuf *b, int map, int pp, int w, uint8_t op, int reg, int v, rm o, int k) {
    int x = o.mem ? 0 : o.r >> 4 & 1;
    b1(b, 0x62);
    b1(b, (uint8_t)((!(reg & 8)) << 7 | (!x) << 6 | (!(o.r & 8)) << 5 | (!(reg & 16)) << 4 | map));
    b1(b, (uint8_t)(w << 7 | (~v & 15) << 3 | 4 | pp));
    b1(b, (uint8_t)(2 << 5 | (!(v & 16)) << 3 | (k & 7)));
    b1(b, op);
    modrm(b, reg, o);
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
                 ST64 = {M0F, PF3, 1, 0x7f}, MOVA32 = {M0F, P66, 0, 0x6f}, ZXDQ = {M0F38, P66, 0, 0x35},
                 SXDQ = {M0F38, P66, 0, 0x25}, QD = {M0F38, PF3, 0, 0x35}, BCD_R = {M0F38, P66, 0, 0x7c},
                 BCQ_R = {M0F38, P66, 1, 0x7c}, BLENDD = {M0F38, P66, 0, 0x64},
                 BLENDQ = {M0F38, P66, 1, 0x64}, ADDD = {M0F, P66, 0, 0xfe}, ADDQ = {M0F, P66, 1, 0xd4},
                 SUBD = {M0F, P66, 0, 0xfa}, SUBQ = {M0F, P66, 1, 0xfb}, MULLD = {M0F38, P66, 0, 0x40},
                 MULLQ = {M0F38, P66, 1, 0x40}, ANDD = {M0F, P66, 0, 0xdb}, ANDQ = {M0F, P66, 1, 0xdb},
                 ORD = {M0F, P66, 0, 0xeb}, ORQ = {M0F, P66, 1, 0xeb}, XORD = {M0F, P66, 0, 0xef},
                 XORQ = {M0F, P66, 1, 0xef}, SLLVD = {M0F38, P66, 0, 0x47}, SLLVQ = {M0F38, P66, 1, 0x47},
                 SRLVD = {M0F38, P66, 0, 0x45}, SRLVQ = {M0F38, P66, 1, 0x45}, SRAVD = {M0F38, P66, 0, 0x46},
                 SRAVQ = {M0F38, P66, 1, 0x46}, MINSD = {M0F38, P66, 0, 0x39}, MAXSD = {M0F38, P66, 0, 0x3d},
                 MINUD = {M0F38, P66, 0, 0x3b}, MAXUD = {M0F38, P66, 0, 0x3f}, MULDQ = {M0F38, P66, 1, 0x28},
                 MULUDQ = {M0F, P66, 1, 0xf4}, TERND = {M0F3A, P66, 0, 0x25}, CMPD = {M0F3A, P66, 0, 0x1f},
                 CMPUD = {M0F3A, P66, 0, 0x1e}, CMPQ = {M0F3A, P66, 1, 0x1f}, CMPUQ = {M0F3A, P66, 1, 0x1e},
                 CMPPS = {M0F, PNONE, 0, 0xc2}, ADDPS = {M0F, PNONE, 0, 0x58}, SUBPS = {M0F, PNONE, 0, 0x5c},
                 MULPS = {M0F, PNONE, 0, 0x59}, FMA213PS = {M0F38, P66, 0, 0xa8};

static void z(cbuf *b, zop o, int reg, int v, rm r, int k) { evex(b, o.map, o.pp, o.w, o.op, reg, v, r, k); }
static void zi(cbuf *b, zop o, int reg, int v, rm r, int k, uint8_t imm) {
    z(b, o, reg, v, r, k);
    b1(b, imm);
}

/* ---- per-record templates ---- */
enum { ZA = 0, ZB = 4, ZC = 8, ZD = 12, ZNAN = 31 }; /* operand registers: 4 each (64-bit: one per quarter) */

typedef struct jc {
    cbuf *b;
    const vm_func *f;
    bool nan_ok; /* zmm31 holds the canonical NaN (calls clobber it) */
} jc;

static bool guarded(const jc *j, const vm_insn *i) { return !(i->g == j->f->true_slot && i->gx == 0); }

/* edx := the lanes that execute (the group is the whole warp). */
static void exec_edx(jc *j, const vm_insn *i) {
    gop(j->b, false, 0x8b, RDX, F(i->g));
    if (i->gx) {
        uint8_t x[2] = {0x81, 0xf2}; /* xor edx, imm32 */
        put(j->b, x, 2);
        b32(j->b, i->gx);
    }
}

/* Stores the result registers ZD.. to d: whole, or only the executing lanes
 * (edx) when guarded. q64: four quarters of 64-bit lanes, else two halves. */
static void store(jc *j, const vm_insn *i, uint32_t d, bool q64) {
    int parts = q64 ? 4 : 2;
    bool g = guarded(j, i);
    for (int p = 0; p < parts; p++) {
        int k = 0;
        if (g) {
            gop(j->b, false, 0x89, RDX, R(RAX)); /* mov eax, edx */
            if (p) shr_eax(j->b, p * (q64 ? 8 : 16));
            kmov(j->b, q64, true, 1, RAX);
            k = 1;
        }
        z(j->b, q64 ? ST64 : ST32, ZD + p, 0, F(d + 64u * p), k);
    }
}

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

/* d := a op b, 32 or 64-bit lanes; sh64: b is a 32-bit shift count. */
static void bin(jc *j, const vm_insn *i, zop o, bool q64, bool sh64, bool fcanon) {
    int parts = q64 ? 4 : 2;
    if (fcanon) nan_const(j);
    for (int p = 0; p < parts; p++) {
        z(j->b, q64 ? LD64 : LD32, ZD + p, 0, F(i->a + 64u * p), 0);
        if (sh64) {
            z(j->b, ZXDQ, ZB + p, 0, F(i->b + 32u * p), 0);
            z(j->b, o, ZD + p, ZD + p, R(ZB + p), 0);
        } else z(j->b, o, ZD + p, ZD + p, F(i->b + 64u * p), 0);
        if (fcanon) canon32(j, ZD + p);
    }
    store(j, i, i->d, q64);
}

/* d := a * b + c (mad.lo: mul then add, wrapping). */
static void mad(jc *j, const vm_insn *i, bool q64) {
    int parts = q64 ? 4 : 2;
    for (int p = 0; p < parts; p++) {
        z(j->b, q64 ? LD64 : LD32, ZD + p, 0, F(i->a + 64u * p), 0);
        z(j->b, q64 ? MULLQ : MULLD, ZD + p, ZD + p, F(i->b + 64u * p), 0);
        z(j->b, q64 ? ADDQ : ADDD, ZD + p, ZD + p, F(i->c + 64u * p), 0);
    }
    store(j, i, i->d, q64);
}

/* 64-bit d := a * b (+ c) of 32-bit a, b: each quarter's lanes widened first. */
static void mulw(jc *j, const vm_insn *i, bool sgn, bool add) {
    for (int p = 0; p < 4; p++) {
        z(j->b, sgn ? SXDQ : ZXDQ, ZD + p, 0, F(i->a + 32u * p), 0);
        z(j->b, sgn ? SXDQ : ZXDQ, ZB + p, 0, F(i->b + 32u * p), 0);
        z(j->b, sgn ? MULDQ : MULUDQ, ZD + p, ZD + p, R(ZB + p), 0);
        if (add) z(j->b, ADDQ, ZD + p, ZD + p, F(i->c + 64u * p), 0);
    }
    store(j, i, i->d, true);
}

static void mov(jc *j, const vm_insn *i, bool q64) {
    for (int p = 0; p < (q64 ? 4 : 2); p++) z(j->b, q64 ? LD64 : LD32, ZD + p, 0, F(i->a + 64u * p), 0);
    store(j, i, i->d, q64);
}

/* cvt.u64.u32 / cvt.s64.s32. */
static void widen(jc *j, const vm_insn *i, bool sgn) {
    for (int p = 0; p < 4; p++) z(j->b, sgn ? SXDQ : ZXDQ, ZD + p, 0, F(i->a + 32u * p), 0);
    store(j, i, i->d, true);
}

/* cvt.u32.u64: the low halves, a quarter (8 lanes) at a time. */
static void narrow(jc *j, const vm_insn *i) {
    for (int p = 0; p < 4; p++) z(j->b, LD64, ZA + p, 0, F(i->a + 64u * p), 0);
    bool g = guarded(j, i);
    for (int p = 0; p < 4; p++) {
        int k = 0;
        if (g) {
            gop(j->b, false, 0x89, RDX, R(RAX));
            if (p) shr_eax(j->b, 8 * p);
            kmov(j->b, true, true, 1, RAX);
            k = 1;
        }
        z(j->b, QD, ZA + p, 0, F(i->d + 32u * p), k); /* vpmovqd [d], zmm */
    }
}

/* selp: d := (c ^ imm) ? a : b. */
static void selp(jc *j, const vm_insn *i, bool q64) {
    gop(j->b, false, 0x8b, RCX, F(i->c));
    if ((uint32_t)i->imm) {
        uint8_t x[2] = {0x81, 0xf1}; /* xor ecx, imm32 */
        put(j->b, x, 2);
        b32(j->b, (uint32_t)i->imm);
    }
    int parts = q64 ? 4 : 2;
    for (int p = 0; p < parts; p++) {
        gop(j->b, false, 0x89, RCX, R(RAX)); /* mov eax, ecx */
        if (p) shr_eax(j->b, p * (q64 ? 8 : 16));
        kmov(j->b, q64, true, 2, RAX);
        z(j->b, q64 ? LD64 : LD32, ZB + p, 0, F(i->b + 64u * p), 0);
        z(j->b, q64 ? BLENDQ : BLENDD, ZD + p, ZB + p, F(i->a + 64u * p), 2);
    }
    store(j, i, i->d, q64);
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
    int parts = q64 ? 4 : 2;
    for (int p = 0; p < parts; p++) {
        z(j->b, q64 ? LD64 : LD32, ZA + p, 0, F(i->a + 64u * p), 0);
        zi(j->b, o, 2, ZA + p, F(i->b + 64u * p), 0, pred);
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

/* A value the same in every lane: from rax (64-bit: rcx) broadcast, then stored. */
static void splat_store(jc *j, const vm_insn *i, bool q64) {
    z(j->b, q64 ? BCQ_R : BCD_R, ZD, 0, R(RAX), 0);
    for (int p = 1; p < (q64 ? 4 : 2); p++) z(j->b, MOVA32, ZD + p, 0, R(ZD), 0);
    store(j, i, i->d, q64);
}
/* rax := the context's field at off. */
static void ctx_field(jc *j, size_t off) { gop(j->b, true, 0x8b, RAX, M(CTX, (int64_t)off)); }

static bool ld_kparam(jc *j, const vm_insn *i) {
    bool d64 = i->flags & VM_F_D64;
    if (i->sz != 4 && i->sz != 8) return false;
    ctx_field(j, offsetof(vm_jit_ctx, params));
    if (i->sz == 8) gop(j->b, true, 0x8b, RAX, M(RAX, i->imm));                  /* mov rax, [rax+imm] */
    else if (d64 && (i->flags & VM_F_SIGNED)) gop(j->b, true, 0x63, RAX, M(RAX, i->imm)); /* movsxd */
    else gop(j->b, false, 0x8b, RAX, M(RAX, i->imm));                            /* mov eax, [rax+imm] */
    splat_store(j, i, d64);
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
            z(j->b, LD32, ZD + p, 0, M(RAX, (int64_t)offsetof(vm_warp, tid) + 4 * VM_LANES * c + 64 * p), 0);
        store(j, i, i->d, false);
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
    splat_store(j, i, d64);
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
    z(j->b, BCQ_R, ZB, 0, R(RAX), 0);
    for (int p = 0; p < 4; p++) {
        z(j->b, LD64, ZD + p, 0, F(i->a + 64u * p), 0);
        z(j->b, i->op == VM_CVTA_TO ? SUBQ : ADDQ, ZD + p, ZD + p, R(ZB), 0);
    }
    store(j, i, i->d, true);
    return true;
}

/* A record run by its handler's out-of-line path: run_mem(ctx, i); a fault
 * returns i at once. */
static void call_mem(jc *j, const vm_insn *i) {
    gop(j->b, true, 0x89, CTX, R(RDI)); /* mov rdi, r12 */
    mov_imm64(j->b, RSI, (uint64_t)(uintptr_t)i);
    mov_imm64(j->b, RAX, (uint64_t)(uintptr_t)run_mem);
    uint8_t call[4] = {0xff, 0xd0, 0x85, 0xc0}; /* call rax; test eax, eax */
    put(j->b, call, 4);
    /* jnz over the exit: mov rax, i (10); pop r13, r12, rbx (5); vzeroupper (3); ret (1) */
    uint8_t jnz[2] = {0x75, 19};
    put(j->b, jnz, 2);
    mov_imm64(j->b, RAX, (uint64_t)(uintptr_t)i);
    uint8_t ep[9] = {0x41, 0x5d, 0x41, 0x5c, 0x5b, 0xc5, 0xf8, 0x77, 0xc3};
    put(j->b, ep, 9);
    j->nan_ok = false;
}

/* Emits record i; false when it has no template (it ends the run). */
static bool emit(jc *j, const vm_insn *i) {
    bool q = true;
    if (guarded(j, i) && i->op != VM_LDG4 && i->op != VM_STG4 && i->op != VM_LDS4 && i->op != VM_STS4 &&
        i->op != VM_LD && i->op != VM_ST && i->op != VM_LDV && i->op != VM_STV && i->op != VM_ATOM &&
        i->op != VM_ALU)
        exec_edx(j, i);
    switch (i->op) {
    case VM_NOP: break;
    case VM_MOV32: mov(j, i, false); break;
    case VM_MOV64: mov(j, i, true); break;
    case VM_CVT_U64_U32: widen(j, i, false); break;
    case VM_CVT_S64_S32: widen(j, i, true); break;
    case VM_CVT_U32_U64: narrow(j, i); break;
    case VM_SELP32: selp(j, i, false); break;
    case VM_SELP64: selp(j, i, true); break;
    case VM_ADD32: bin(j, i, ADDD, false, false, false); break;
    case VM_SUB32: bin(j, i, SUBD, false, false, false); break;
    case VM_MUL32: bin(j, i, MULLD, false, false, false); break;
    case VM_AND32: bin(j, i, ANDD, false, false, false); break;
    case VM_OR32: bin(j, i, ORD, false, false, false); break;
    case VM_XOR32: bin(j, i, XORD, false, false, false); break;
    case VM_SHL32: bin(j, i, SLLVD, false, false, false); break;
    case VM_SHRU32: bin(j, i, SRLVD, false, false, false); break;
    case VM_SHRS32: bin(j, i, SRAVD, false, false, false); break;
    case VM_MINS32: bin(j, i, MINSD, false, false, false); break;
    case VM_MAXS32: bin(j, i, MAXSD, false, false, false); break;
    case VM_MINU32: bin(j, i, MINUD, false, false, false); break;
    case VM_MAXU32: bin(j, i, MAXUD, false, false, false); break;
    case VM_MAD32: mad(j, i, false); break;
    case VM_ADD64: bin(j, i, ADDQ, true, false, false); break;
    case VM_SUB64: bin(j, i, SUBQ, true, false, false); break;
    case VM_MUL64: bin(j, i, MULLQ, true, false, false); break;
    case VM_AND64: bin(j, i, ANDQ, true, false, false); break;
    case VM_OR64: bin(j, i, ORQ, true, false, false); break;
    case VM_XOR64: bin(j, i, XORQ, true, false, false); break;
    case VM_SHL64: bin(j, i, SLLVQ, true, true, false); break;
    case VM_SHRU64: bin(j, i, SRLVQ, true, true, false); break;
    case VM_SHRS64: bin(j, i, SRAVQ, true, true, false); break;
    case VM_MAD64: mad(j, i, true); break;
    case VM_MULWS32: mulw(j, i, true, false); break;
    case VM_MULWU32: mulw(j, i, false, false); break;
    case VM_MADWS32: mulw(j, i, true, true); break;
    case VM_MADWU32: mulw(j, i, false, true); break;
    case VM_NOT32:
        for (int p = 0; p < 2; p++) zi(j->b, TERND, ZD + p, ZD + p, F(i->a + 64u * p), 0, 0x55);
        store(j, i, i->d, false);
        break;
    case VM_ADDF32: bin(j, i, ADDPS, false, false, true); break;
    case VM_SUBF32: bin(j, i, SUBPS, false, false, true); break;
    case VM_MULF32: bin(j, i, MULPS, false, false, true); break;
    case VM_FMAF32:
        nan_const(j);
        for (int p = 0; p < 2; p++) {
            z(j->b, LD32, ZD + p, 0, F(i->a + 64u * p), 0);
            z(j->b, LD32, ZB + p, 0, F(i->b + 64u * p), 0);
            z(j->b, FMA213PS, ZD + p, ZB + p, F(i->c + 64u * p), 0); /* d := b * d + c */
            canon32(j, ZD + p);
        }
        store(j, i, i->d, false);
        break;
#define CMP6(T, O, W, EQ, NE, LT, LE, GT, GE)              \
    case VM_EQ_##T: cmp(j, i, O, W, EQ); break;            \
    case VM_NE_##T: cmp(j, i, O, W, NE); break;            \
    case VM_LT_##T: cmp(j, i, O, W, LT); break;            \
    case VM_LE_##T: cmp(j, i, O, W, LE); break;            \
    case VM_GT_##T: cmp(j, i, O, W, GT); break;            \
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
    case VM_LDS4:
    case VM_STS4:
    case VM_LD:
    case VM_ST:
    case VM_LDV:
    case VM_STV:
    case VM_ATOM:
    case VM_ALU: call_mem(j, i); break;
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

static void prologue(cbuf *b) {
    /* push rbx, r12, r13 (keeps rsp 16-aligned for calls); rbx := fb, r12 := ctx */
    uint8_t x[11] = {0x53, 0x41, 0x54, 0x41, 0x55, 0x48, 0x89, 0xfb, 0x49, 0x89, 0xf4};
    put(b, x, sizeof x);
}
static void epilogue(cbuf *b, const vm_insn *end) {
    mov_imm64(b, RAX, (uint64_t)(uintptr_t)end);
    uint8_t ep[9] = {0x41, 0x5d, 0x41, 0x5c, 0x5b, 0xc5, 0xf8, 0x77, 0xc3};
    put(b, ep, 9);
}

/* Records that only the JIT handler may replace: their own handler, not a
 * superinstruction's (fuse.c). */
static void compile_func(vm_func *f, jit_chunk **list) {
    const void *const *tab = vm_handler_table();
    uint32_t n = f->ncode;
    uint8_t *target = calloc(n + 1, 1);
    if (!target) return;
    for (uint32_t k = 0; k < n; k++) {
        const vm_insn *vi = &f->code[k];
        if (vi->op == VM_BRA && vi->target) target[vi->target - f->code] = 1;
        if (vi->op == VM_BRX)
            for (int64_t t = 0; t < vi->imm; t++) target[((const vm_insn *const *)vi->p)[t] - f->code] = 1;
    }
    cbuf b = {0}, scratch = {0};
    jc j = {.b = &b, .f = f}, dry = {.b = &scratch, .f = f}; /* dry: the same code decides, its bytes are dropped */
    /* runs: [start, end) of records with templates, at least two, none a branch target but the first */
    uint32_t *starts = malloc((n + 1) * sizeof *starts), *ends = malloc((n + 1) * sizeof *ends);
    size_t *offs = malloc((n + 1) * sizeof *offs);
    uint32_t nr = 0;
    if (!starts || !ends || !offs) goto done;
    for (uint32_t k = 0; k < n;) {
        uint32_t e = k;
        while (e < n && (e == k || !target[e]) && f->code[e].h == tab[f->code[e].op]) {
            scratch.n = 0;
            if (!emit(&dry, &f->code[e])) break;
            e++;
        }
        if (e - k >= 2) {
            starts[nr] = k, ends[nr] = e, offs[nr] = b.n;
            nr++;
            j.nan_ok = false;
            prologue(&b);
            for (uint32_t r = k; r < e; r++) emit(&j, &f->code[r]);
            epilogue(&b, &f->code[e]);
        }
        k = e > k ? e : k + 1;
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
    ch->code = code, ch->size = size, ch->regions = rg, ch->next = *list;
    *list = ch;
    for (uint32_t r = 0; r < nr; r++) {
        vm_insn *head = &f->code[starts[r]];
        rg[r].fn = (vm_jit_fn)(void *)((uint8_t *)code + offs[r]);
        rg[r].end = &f->code[ends[r]];
        head->target = (const vm_insn *)(const void *)&rg[r];
        head->h = tab[VM_JIT];
    }
done:
    free(b.p);
    free(scratch.p);
    free(starts);
    free(ends);
    free(offs);
    free(target);
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
    jit_chunk *list = prog->jit;
    for (uint32_t k = 0; k < prog->nfuncs; k++)
        if (prog->funcs[k].ir->has_body && prog->funcs[k].code) compile_func(&prog->funcs[k], &list);
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
