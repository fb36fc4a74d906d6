/* exec.c — the dispatch loop: runs one warp's current lane group through
 * threaded code until it must yield. Each handler works on all 32 lanes at
 * once over lane-contiguous registers, so its lane loop vectorizes; the same
 * bodies build as computed goto (default) or as a switch (PTXI_SWITCH_DISPATCH). */
#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "alu_core.h"
#include "exec_mem.h"
#include "jit.h"
#include "lower_ext.h"
#include "warp.h"

#ifdef PTXI_SWITCH_DISPATCH
#define CASE(n) case VM_##n:
#define DISPATCH goto dispatch
#else
#define CASE(n) L_##n:
/* (kept from clang-format, which would write `goto * i->h`) */
/* clang-format off */
#define DISPATCH goto *i->h
/* clang-format on */
#endif

#define R32(o) ((uint32_t *)(fb + (o)))
#define R64(o) ((uint64_t *)(fb + (o)))
#define F32(o) ((float *)(fb + (o)))
#define F64(o) ((double *)(fb + (o)))
#define PR(o) (*(uint32_t *)(fb + (o)))
/* Lanes that execute this instruction: the group, filtered by the guard. */
#define EXEC (mask & (PR(i->g) ^ i->gx))

/* Runs stmt for each lane of m; the full-mask loop is the one that vectorizes. */
#define LANES(m, stmt)                                   \
    do {                                                 \
        uint32_t m_ = (m);                               \
        if (m_ == VM_FULL) {                             \
            for (int l = 0; l < VM_LANES; l++) { stmt; } \
        } else {                                         \
            for (int l = 0; l < VM_LANES; l++)           \
                if (m_ >> l & 1) { stmt; }               \
        }                                                \
    } while (0)

/* Instructions run since `seg` by the group `mask` are added to the counters
 * only when the group or the PC changes non-sequentially, not per instruction. */
/* The pair thread_insns, warp_insns (adjacent in vm_cta) is always written
 * as one 16-byte add: written elsewhere as two 8-byte stores, the next
 * pair's load would wait on them (a failed store forward, a tenth of
 * reduce's vm_exec at each bar.sync after an if-converted run). */
typedef uint64_t vm_u64x2 __attribute__((vector_size(16), aligned(8), may_alias));
static inline void count_insns(vm_cta *cta, uint64_t warps, uint64_t threads) {
    _Static_assert(offsetof(vm_cta, warp_insns) == offsetof(vm_cta, thread_insns) + 8, "counter pair");
    *(vm_u64x2 *)&cta->thread_insns += (vm_u64x2){threads, warps};
}
#define ACCOUNT(upto)                                                           \
    do {                                                                        \
        uint64_t n_ = (uint64_t)((upto)-seg);                                   \
        count_insns(cta, n_, n_ * (uint64_t)__builtin_popcount(mask));          \
        w->clock += n_;                                                         \
    } while (0)

#define NEXT                                  \
    do {                                      \
        i++;                                  \
        if (__builtin_expect(i == stop, 0)) { \
            ACCOUNT(i);                       \
            goto merge;                       \
        }                                     \
        DISPATCH;                             \
    } while (0)

/* Leave the loop, saving the group so the warp resumes exactly here. */
#define SAVE() (w->pc = i, w->mask = mask)
/* A memory handler of the lanes m; on a fault the warp stops here. */
#define MEMCALL(fn)                      \
    do {                                 \
        if (m && !fn(w, fr, fb, i, m)) { \
            SAVE();                      \
            why = VM_Y_FAULT;            \
            goto out;                    \
        }                                \
    } while (0)

/* Families of handlers. T is the lane type; operands d, a, b, c are frame offsets. */
#define BIN(NAME, T, EXPR)                                                \
    CASE(NAME) {                                                          \
        T *d = (T *)(fb + i->d);                                          \
        const T *a = (const T *)(fb + i->a), *b = (const T *)(fb + i->b); \
        LANES(EXEC, d[l] = (EXPR));                                       \
    }                                                                     \
    NEXT;
#define TER(NAME, T, EXPR)                                                \
    CASE(NAME) {                                                          \
        T *d = (T *)(fb + i->d);                                          \
        const T *a = (const T *)(fb + i->a), *b = (const T *)(fb + i->b); \
        const T *c = (const T *)(fb + i->c);                              \
        LANES(EXEC, d[l] = (EXPR));                                       \
    }                                                                     \
    NEXT;
#define UN(NAME, TD, TA, EXPR)                 \
    CASE(NAME) {                               \
        TD *d = (TD *)(fb + i->d);             \
        const TA *a = (const TA *)(fb + i->a); \
        LANES(EXEC, d[l] = (EXPR));            \
    }                                          \
    NEXT;
/* Mixed widths: destination TD, sources TS (shift amounts are always 32-bit). */
#define BIN2(NAME, TD, TA, TB, EXPR)           \
    CASE(NAME) {                               \
        TD *d = (TD *)(fb + i->d);             \
        const TA *a = (const TA *)(fb + i->a); \
        const TB *b = (const TB *)(fb + i->b); \
        LANES(EXEC, d[l] = (EXPR));            \
    }                                          \
    NEXT;
#define TER2(NAME, TD, TA, EXPR)                                             \
    CASE(NAME) {                                                             \
        TD *d = (TD *)(fb + i->d);                                           \
        const TA *a = (const TA *)(fb + i->a), *b = (const TA *)(fb + i->b); \
        const TD *c = (const TD *)(fb + i->c);                               \
        LANES(EXEC, d[l] = (EXPR));                                          \
    }                                                                        \
    NEXT;
/* setp: builds the lane mask of the comparison, writes it under the exec mask. */
#define CMP(NAME, T, EXPR)                                                \
    CASE(NAME) {                                                          \
        const T *a = (const T *)(fb + i->a), *b = (const T *)(fb + i->b); \
        uint32_t r = 0, m = EXEC;                                         \
        for (int l = 0; l < VM_LANES; l++) r |= (uint32_t)(EXPR) << l;    \
        PR(i->d) = (PR(i->d) & ~m) | (r & m);                             \
    }                                                                     \
    NEXT;
#define CMPS(T, SUF)               \
    CMP(EQ_##SUF, T, a[l] == b[l]) \
    CMP(NE_##SUF, T, a[l] != b[l]) \
    CMP(LT_##SUF, T, a[l] < b[l])  \
    CMP(LE_##SUF, T, a[l] <= b[l]) CMP(GT_##SUF, T, a[l] > b[l]) CMP(GE_##SUF, T, a[l] >= b[l])
#ifdef __AVX512F__
/* 32-bit integer setp: two 16-lane compares straight into mask registers
 * (GCC compiles the lane loop above to compares, blends of bit constants and
 * an or reduction; mandelbrot 4% faster). P is the _MM_CMPINT_ code. */
#define CMP32(NAME, FN, P)                                                                          \
    CASE(NAME) {                                                                                    \
        const uint8_t *a = fb + i->a, *b = fb + i->b;                                               \
        uint32_t m = EXEC;                                                                          \
        uint32_t r = (uint32_t)FN(_mm512_loadu_si512(a), _mm512_loadu_si512(b), P) |                \
                     (uint32_t)FN(_mm512_loadu_si512(a + 64), _mm512_loadu_si512(b + 64), P) << 16; \
        PR(i->d) = (PR(i->d) & ~m) | (r & m);                                                       \
    }                                                                                               \
    NEXT;
#define CMPS32(T, SUF, FN)             \
    CMP32(EQ_##SUF, FN, _MM_CMPINT_EQ) \
    CMP32(NE_##SUF, FN, _MM_CMPINT_NE) \
    CMP32(LT_##SUF, FN, _MM_CMPINT_LT) \
    CMP32(LE_##SUF, FN, _MM_CMPINT_LE) CMP32(GT_##SUF, FN, _MM_CMPINT_NLE) CMP32(GE_##SUF, FN, _MM_CMPINT_NLT)
#else
#define CMPS32(T, SUF, FN) CMPS(T, SUF)
#endif
/* Float ne is ordered in PTX: false when either side is NaN. */
#define CMPF(T, SUF)                          \
    CMP(EQ_##SUF, T, a[l] == b[l])            \
    CMP(NE_##SUF, T, a[l]<b[l] || a[l]> b[l]) \
    CMP(LT_##SUF, T, a[l] < b[l])             \
    CMP(LE_##SUF, T, a[l] <= b[l]) CMP(GT_##SUF, T, a[l] > b[l]) CMP(GE_##SUF, T, a[l] >= b[l])

/* 32-bit quotients by double division (exact: see DIVU32); b != 0, and
 * sdiv32's b != -1 (INT_MIN / -1 would not fit). */
static inline uint32_t udiv32(uint32_t a, uint32_t b) { return (uint32_t)((double)a / (double)b); }
static inline uint32_t sdiv32(uint32_t a, uint32_t b) {
    return (uint32_t)(int32_t)((double)(int32_t)a / (double)(int32_t)b);
}

/* The GPU's canonical NaNs. */
static inline float canon_f32(float r) {
    union {
        uint32_t u;
        float f;
    } n = {0x7fffffffu};
    return r == r ? r : n.f;
}
/* f64 keeps NaN payloads (quieted); with two NaN operands the GPU returns b's,
 * where the host returns a's: pick b when the result is NaN and b is. */
static inline double quiet_f64(double x) {
    uint64_t u;
    memcpy(&u, &x, 8);
    u |= 1ull << 51;
    memcpy(&x, &u, 8);
    return x;
}
static inline double canon_f64(double r, double b) { return r == r || b == b ? r : quiet_f64(b); }
static inline double canon_fma64(double r, double b, double c) {
    return r == r ? r : b != b ? quiet_f64(b) : c != c ? quiet_f64(c) : r;
}

#ifndef PTXI_SWITCH_DISPATCH
/* These helpers return 64-byte vectors; they are static and inline, so the
 * psABI warning about such returns (builds without AVX-512) is moot. */
#pragma GCC diagnostic ignored "-Wpsabi"
static inline vm_f16 ldf16(const float *p) {
    vm_f16 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* fma.rn.f32 of 16 lanes with the GPU's canonical NaN. */
static inline vm_f16 fma16(const vm_f16 *a, const vm_f16 *b, const vm_f16 *c) {
    vm_f16 r;
#ifdef __AVX512F__
    r = (vm_f16)_mm512_fmadd_ps((__m512)*a, (__m512)*b, (__m512)*c);
#else
    for (int l = 0; l < VM_HALF; l++) r[l] = fmaf((*a)[l], (*b)[l], (*c)[l]);
#endif
    vm_u16 ok = (vm_u16)(r == r);
    return (vm_f16)(((vm_u16)r & ok) | (0x7fffffffu & ~ok));
}

/* The half-warp patterns (exec_mem.h) of two address registers, kept while
 * the registers are not written: in an unrolled loop every load goes through
 * the same one or two registers with different offsets. */
typedef struct addr_pats {
    uint32_t reg[2]; /* frame offsets; UINT32_MAX: empty */
    int pat[2][2];
    unsigned next;
} addr_pats;

static inline const int *pats_of(addr_pats *c, const uint8_t *fb, uint32_t reg) {
    for (int k = 0; k < 2; k++)
        if (c->reg[k] == reg) return c->pat[k];
    unsigned k = c->next;
    c->next ^= 1;
    c->reg[k] = reg;
    c->pat[k][0] = vm_pat32(R32(reg));
    c->pat[k][1] = vm_pat32(R32(reg) + VM_HALF);
    return c->pat[k];
}

static inline void pats_written(addr_pats *c, uint32_t reg) {
    for (int k = 0; k < 2; k++)
        if (c->reg[k] == reg) c->reg[k] = UINT32_MAX;
}

/* One ld.shared.b32 of the chain into *o0, *o1 (false: a bad lane). */
static inline bool dot_load(const vm_cta *cta, const uint8_t *fb, const vm_insn *i, addr_pats *pc, vm_u16 *o0,
                            vm_u16 *o1) {
    const int *p = pats_of(pc, fb, i->a);
    const uint32_t *a = R32(i->a);
    return vm_lds4_half(cta->smem, cta->smem_size, a, p[0], (uint32_t)i->imm, o0) &&
           vm_lds4_half(cta->smem, cta->smem_size, a + VM_HALF, p[1], (uint32_t)i->imm, o1);
}

static inline void st16x2(uint8_t *fb, uint32_t r, const void *v0, const void *v1) {
    memcpy(fb + r, v0, sizeof(vm_u16));
    memcpy(fb + r + sizeof(vm_u16), v1, sizeof(vm_u16));
}

/* An fma operand: a value the chain holds, else the frame. */
#define DOT_SRC(R, O0, O1)                                     \
    do {                                                       \
        if ((R) == yr) O0 = (vm_f16)y0, O1 = (vm_f16)y1;       \
        else if ((R) == xr) O0 = (vm_f16)x0, O1 = (vm_f16)x1;  \
        else O0 = ldf16(F32(R)), O1 = ldf16(F32(R) + VM_HALF); \
    } while (0)
/* Register r was written: what the chain held or knew of it is stale. */
#define DOT_WROTE(r)                                                      \
    do {                                                                  \
        pats_written(&pc, r);                                             \
        if ((r) == accreg) accreg = UINT32_MAX;                           \
        if ((r) == hacc) hacc = UINT32_MAX; /* overwritten: never read */ \
    } while (0)

/* ld.shared.b32, ld.shared.b32, fma.rn.f32 triples from i, for the whole warp
 * (a superinstruction, vm_ops.h). A chain of them (acc = fma(x, y, acc), as
 * an unrolled dot product is) runs in this loop with the loaded values and
 * the accumulator in host registers: results that no later record reads
 * (the head's VM_DOT_DEAD* bits, lower.c) are not stored at all, the others
 * as usual; what the loop still holds is stored before it returns. The
 * half-warp patterns of the address registers are cached until written.
 * Out of line so that it gets registers of its own. Returns the first record
 * not run: stop, a record for its own handler (*plain: a bad lane, which that
 * handler reports), or the next record to dispatch. */
static __attribute__((noinline)) const vm_insn *dot_chain(const vm_cta *cta, uint8_t *fb, const vm_insn *i,
                                                          const vm_insn *stop, const void *self, bool *plain) {
    vm_f16 acc0 = {0}, acc1 = {0};
    vm_u16 x0 = {0}, x1 = {0}, y0, y1;
    uint32_t accreg = UINT32_MAX; /* the frame register acc0/1 hold */
    uint32_t hx = UINT32_MAX;     /* held, not yet stored: x0/1 of this register */
    uint32_t hacc = UINT32_MAX;   /* held, not yet stored: acc0/1 of this register */
    addr_pats pc = {{UINT32_MAX, UINT32_MAX}, {{0, 0}, {0, 0}}, 0};
    for (;;) {
        unsigned dead = i->x;
        if (!dot_load(cta, fb, i, &pc, &x0, &x1)) {
            *plain = true;
            goto out;
        }
        uint32_t xr = i->d;
        if (dead & VM_DOT_DEAD0) hx = xr;
        else st16x2(fb, xr, &x0, &x1);
        DOT_WROTE(xr);
        if (++i == stop) goto out;
        if (!dot_load(cta, fb, i, &pc, &y0, &y1)) {
            *plain = true;
            goto out;
        }
        uint32_t yr = i->d;
        if (!(dead & VM_DOT_DEAD1)) st16x2(fb, yr, &y0, &y1);
        if (yr == hx) hx = UINT32_MAX;
        DOT_WROTE(yr);
        if (++i == stop) {
            if (dead & VM_DOT_DEAD1) st16x2(fb, yr, &y0, &y1);
            goto out;
        }
        vm_f16 a0, a1, b0, b1, c0 = acc0, c1 = acc1;
        DOT_SRC(i->a, a0, a1);
        DOT_SRC(i->b, b0, b1);
        if (i->c != accreg) c0 = ldf16(F32(i->c)), c1 = ldf16(F32(i->c) + VM_HALF);
        acc0 = fma16(&a0, &b0, &c0);
        acc1 = fma16(&a1, &b1, &c1);
        hx = hacc = UINT32_MAX; /* the loads' results and the previous acc died here */
        DOT_WROTE(i->d);
        if (dead & VM_DOT_DEADACC) hacc = i->d;
        else st16x2(fb, i->d, &acc0, &acc1);
        accreg = i->d;
        if (++i == stop || i->h != self) goto out;
    }
out:
    if (hx != UINT32_MAX) st16x2(fb, hx, &x0, &x1);
    if (hacc != UINT32_MAX) st16x2(fb, hacc, &acc0, &acc1);
    return i;
}
#undef DOT_SRC
#undef DOT_WROTE

/* Half a warp's value of one load of a planned chain: one word splat or 16
 * consecutive words, from a base already range-tested. */
static inline __attribute__((always_inline)) vm_f16 dot_half(const uint8_t *b, int pat) {
    if (pat == VM_PAT_CONSEC) return ldf16((const float *)b);
    uint32_t v; /* the bits as they are: a float add of 0 would turn -0 to +0 and quiet a signalling NaN */
    memcpy(&v, b, 4);
    return (vm_f16)((vm_u16){0} + v);
}

/* The k loop of a planned chain; pat[s][h] is the pattern of load s's
 * address register in half h (constants where the caller specializes).
 * NaNs are made canonical once, at the end: a NaN operand of fma gives a NaN
 * on the host as on the GPU, and only the last sum is stored. */
static inline __attribute__((always_inline)) void dot_loop(const vm_dotplan *p, const uint8_t *const base[2][2],
                                                           int pa0, int pa1, int pb0, int pb1, vm_f16 *c0, vm_f16 *c1) {
    vm_f16 a0 = *c0, a1 = *c1;
    for (uint32_t k = 0; k < p->n; k++) {
        int32_t o0 = p->off[k][0], o1 = p->off[k][1];
        vm_f16 x0 = dot_half(base[0][0] + o0, pa0), x1 = dot_half(base[0][1] + o0, pa1);
        vm_f16 y0 = dot_half(base[1][0] + o1, pb0), y1 = dot_half(base[1][1] + o1, pb1);
#ifdef __AVX512F__
        a0 = (vm_f16)_mm512_fmadd_ps((__m512)x0, (__m512)y0, (__m512)a0);
        a1 = (vm_f16)_mm512_fmadd_ps((__m512)x1, (__m512)y1, (__m512)a1);
#else
        for (int l = 0; l < VM_HALF; l++) a0[l] = fmaf(x0[l], y0[l], a0[l]), a1[l] = fmaf(x1[l], y1[l], a1[l]);
#endif
    }
    *c0 = a0, *c1 = a1;
}

/* A whole planned chain (vm_dotplan, vm_ops.h) for the whole warp; false
 * (nothing done) when an address is not one of the two shapes or any lane
 * would leave shared memory, for dot_chain to run it record by record. */
static __attribute__((noinline)) bool dot_plan_run(const vm_cta *cta, uint8_t *fb, const vm_dotplan *p) {
    const uint8_t *base[2][2];
    int pat[2][2];
    for (int s = 0; s < 2; s++)
        for (int h = 0; h < 2; h++) {
            const uint32_t *a = R32(p->ra[s]) + h * VM_HALF;
            int t = pat[s][h] = vm_pat32(a);
            int64_t b = a[0];
            if (t == VM_PAT_GATHER || b & 3 || b + p->lo[s] < 0 ||
                b + p->hi[s] + (t == VM_PAT_CONSEC ? 64 : 4) > (int64_t)cta->smem_size)
                return false;
            base[s][h] = cta->smem + b;
        }
    vm_f16 c0 = ldf16(F32(p->acc_in)), c1 = ldf16(F32(p->acc_in) + VM_HALF);
    enum { B = VM_PAT_BCAST, C = VM_PAT_CONSEC };
    if (pat[0][0] == pat[0][1] && pat[1][0] == pat[1][1]) {
        if (pat[0][0] == C && pat[1][0] == B) dot_loop(p, base, C, C, B, B, &c0, &c1);
        else if (pat[0][0] == B && pat[1][0] == C) dot_loop(p, base, B, B, C, C, &c0, &c1);
        else if (pat[0][0] == C) dot_loop(p, base, C, C, C, C, &c0, &c1);
        else dot_loop(p, base, B, B, B, B, &c0, &c1);
    } else dot_loop(p, base, pat[0][0], pat[0][1], pat[1][0], pat[1][1], &c0, &c1);
    for (int s = 0; s < 2; s++)
        if (p->last_d[s] != UINT32_MAX) {
            int32_t o = p->off[p->n - 1][s];
            vm_f16 v0 = dot_half(base[s][0] + o, pat[s][0]), v1 = dot_half(base[s][1] + o, pat[s][1]);
            st16x2(fb, p->last_d[s], &v0, &v1);
        }
    vm_u16 ok0 = (vm_u16)(c0 == c0), ok1 = (vm_u16)(c1 == c1);
    vm_u16 r0 = ((vm_u16)c0 & ok0) | (0x7fffffffu & ~ok0), r1 = ((vm_u16)c1 & ok1) | (0x7fffffffu & ~ok1);
    st16x2(fb, p->acc_out, &r0, &r1);
    return true;
}
#endif

static const void *const *handler_table;

static void init_handler_table(void) { vm_exec(NULL, 0); }

/* Modules may be loaded from several host threads at once. */
const void *const *vm_handler_table(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_handler_table);
    return handler_table;
}

vm_yield vm_exec(vm_warp *w, uint32_t budget) {
#ifndef PTXI_SWITCH_DISPATCH
    static const void *const labels[] = {
#define X(n, ...) &&L_##n,
        VM_OP_LIST(X) VM_FUSE_LIST(X)
#undef X
    };
    if (!w) {
        handler_table = labels;
        return VM_Y_DONE;
    }
#else
    if (!w) return VM_Y_DONE;
#endif
    vm_cta *cta = w->cta;
    const vm_insn *i, *stop, *seg;
    uint32_t mask;
    vm_frame *fr;
    uint8_t *fb;
    vm_yield why;
#ifdef PTXI_SWITCH_DISPATCH
    bool debugged;
#endif

reload:
    i = w->pc;
    mask = w->mask;
    stop = w->lpc_stop;
    fr = &w->frames[w->depth - 1];
    fb = fr->fb;
    seg = i;
#ifdef PTXI_SWITCH_DISPATCH
    debugged = fr->fn->prog->rt && fr->fn->prog->rt->dbg;
#endif
    DISPATCH;

#ifdef PTXI_SWITCH_DISPATCH
dispatch:
    if (__builtin_expect(debugged, 0)) goto debug_hook;
execute:
    switch ((vm_opid)i->op) {
#endif

        CASE(NOP) NEXT;

        /* bra: all executing lanes jump; if that splits the group, the lanes that
     * did not jump wait at the next instruction and the smallest PC runs first. */
        CASE(BRA) {
            uint32_t m = EXEC;
            if (m == mask) {
                bool back = i->flags & VM_F_BACK;
                ACCOUNT(i + 1);
                i = i->target;
                seg = i;
                if (back && --budget == 0) {
                    why = VM_Y_SLICE;
                    if (!vm_yield_group(w, i)) why = VM_Y_BLOCKED;
                    goto out_nosave;
                }
                if (i >= stop) goto merge;
                DISPATCH;
            }
            if (m == 0) NEXT;
            ACCOUNT(i + 1);
            if (i->target > i + 1 && w->depth == 1 && (mask | w->exited | ~w->present) == VM_FULL) {
                /* The whole live warp splits at a forward branch (if (lane == 0)
             * ...): no other lane waits anywhere, so the lanes that stay are
             * the smallest PC and run on at once, and the others wait at the
             * target, where the two merge. That is what vm_reschedule would
             * pick, without the round trip (a tenth of reduce's time). */
                for (uint32_t r = m; r; r &= r - 1) w->lpc[__builtin_ctz(r)] = i->target;
                mask &= ~m;
                stop = i->target;
                w->mask = mask;
                w->lpc_stop = stop;
                seg = ++i;
                DISPATCH;
            }
            for (int l = 0; l < VM_LANES; l++)
                if (mask >> l & 1) w->lpc[l] = (m >> l & 1) ? i->target : i + 1;
            goto resched;
        }
        /* brx.idx: per-lane index into a table of targets (i->p). */
        CASE(BRX) {
            uint32_t m = EXEC;
            const vm_insn *const *tab = i->p;
            const uint32_t *ix = R32(i->a);
            ACCOUNT(i + 1);
            for (int l = 0; l < VM_LANES; l++)
                if (mask >> l & 1) {
                    if (m >> l & 1) {
                        if (ix[l] >= (uint32_t)i->imm) {
                            SAVE();
                            vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION, "brx.idx index %u out of range (%u targets)",
                                        ix[l], (unsigned)i->imm);
                            why = VM_Y_FAULT;
                            goto out;
                        }
                        w->lpc[l] = tab[ix[l]];
                    } else w->lpc[l] = i + 1;
                }
            goto resched;
        }
        CASE(EXIT) {
            uint32_t m = EXEC;
            ACCOUNT(i + 1);
            w->exited |= m;
            if (m == mask) goto left;
            for (int l = 0; l < VM_LANES; l++)
                if ((mask & ~m) >> l & 1) w->lpc[l] = i + 1;
            goto resched;
        }
        CASE(RET) {
            uint32_t m = EXEC;
            ACCOUNT(i + 1);
            if (w->depth == 1) w->exited |= m; /* ret from the kernel ends the thread */
            else fr->done |= m;
            if (m == mask) goto left;
            for (int l = 0; l < VM_LANES; l++)
                if ((mask & ~m) >> l & 1) w->lpc[l] = i + 1;
            goto resched;
        }
        CASE(FALLOFF) {
            /* Falling off the end of a function body behaves as ret. */
            ACCOUNT(i);
            if (w->depth == 1) w->exited |= mask;
            else fr->done |= mask;
            goto left;
        }
        CASE(CALL) {
            uint32_t m = EXEC;
            ACCOUNT(i + 1);
            SAVE();
            int r = vm_do_call(w, i, m);
            if (r < 0) {
                why = VM_Y_FAULT;
                goto out;
            }
            /* vm_do_call set up lpc for every lane of the group */
            goto resched;
        }
        CASE(TRAP) {
            uint32_t m = EXEC;
            if (!m) NEXT;
            SAVE();
            if (i->x == 1)
                vm_fault_at(w, i, __builtin_ctz(m), PTXI_ILLEGAL_INSTRUCTION, "instruction '%s' is not supported",
                            (const char *)i->p);
            else {
                if (w->cta->grid->cfg->kernel->prog->rt->san) vm_san_stop(w, i, m & -m, "Trace/breakpoint trap");
                vm_fault_at(w, i, __builtin_ctz(m), PTXI_LAUNCH_FAILED, "trap instruction executed");
            }
            why = VM_Y_FAULT;
            goto out;
        }
        CASE(BRKPT) {
            /* Without a debugger attached the GPU stops the kernel as for trap. */
            uint32_t m = EXEC;
            if (!m) NEXT;
            SAVE();
            vm_fault_at(w, i, __builtin_ctz(m), PTXI_LAUNCH_FAILED,
                        "brkpt instruction executed with no debugger attached");
            why = VM_Y_FAULT;
            goto out;
        }
        CASE(BAR) CASE(BAR_RED) {
            uint32_t m = EXEC;
            if (!m) NEXT;
            ACCOUNT(i + 1);
            SAVE();
            int r = vm_bar_sync_whole(w, i, m);
            if (r > 0) { /* the last to arrive: on after the barrier */
                seg = i + 1;
                NEXT;
            }
            if (r == 0) {
                if (atomic_load_explicit(&cta->grid->stop, memory_order_relaxed)) {
                    why = VM_Y_FAULT;
                    goto out_nosave;
                }
                goto waits;
            }
            if (vm_bar_arrive(w, i, m) < 0) {
                why = VM_Y_FAULT;
                goto out;
            }
            goto resched;
        }
        CASE(BAR_WARP) {
            /* bar.warp.sync: the members must all be in the group; lanes from other
         * branches are waited for by the collective machinery (sched.c). */
            uint32_t m = EXEC;
            if (!m) NEXT;
            uint32_t members = i->a ? R32(i->a)[__builtin_ctz(m)] : VM_FULL;
            if (cta->san) vm_san_warp_sync(w, i, m, members);
            if ((members & w->present & ~w->exited & ~mask) == 0) NEXT;
            ACCOUNT(i);
            SAVE();
            int r = vm_collective_wait(w, i, m, members);
            if (r < 0) {
                why = VM_Y_FAULT;
                goto out;
            }
            goto resched;
        }
        CASE(NANOSLEEP) {
            uint32_t m = EXEC;
            if (!m) NEXT;
            ACCOUNT(i + 1);
            w->sleep_until = (uint64_t)(vm_now() * 1e9) + (i->a ? R32(i->a)[__builtin_ctz(m)] : 0);
            why = VM_Y_SLICE;
            if (!vm_yield_group(w, i + 1)) why = VM_Y_BLOCKED;
            else if (w->mask != mask) w->sleep_until = 0; /* another group of the warp runs meanwhile */
            goto out_nosave;
        }
        CASE(PMEVENT) {
            if (EXEC) atomic_fetch_add(&cta->grid->pmevents[i->imm & 15], 1);
            NEXT;
        }

        /* ---- moves ---- */
        UN(MOV32, uint32_t, uint32_t, a[l])
        UN(MOV64, uint64_t, uint64_t, a[l])
        CASE(MOVP) {
            uint32_t m = EXEC;
            PR(i->d) = (PR(i->d) & ~m) | ((PR(i->a) ^ (uint32_t)i->imm) & m);
        }
        NEXT;
        CASE(MOV_SREG) {
            uint32_t m = EXEC;
            ir_sreg sr = (ir_sreg)i->x;
            if (sr == IR_SREG_TID || sr == IR_SREG_LANEID || (sr >= IR_SREG_LANEMASK_EQ && sr <= IR_SREG_LANEMASK_GT)) {
                /* per-lane values */
                if (i->flags & VM_F_D64) {
                    uint64_t *d = R64(i->d);
                    LANES(m, d[l] = vm_sreg_value(w, i, l));
                } else if (sr == IR_SREG_TID) {
                    uint32_t *d = R32(i->d);
                    const uint32_t *t = w->tid[i->sz];
                    LANES(m, d[l] = t[l]);
                } else {
                    uint32_t *d = R32(i->d);
                    LANES(m, d[l] = (uint32_t)vm_sreg_value(w, i, l));
                }
            } else {
                /* the same for every lane of the warp: computed once */
                uint64_t v = vm_sreg_value(w, i, 0);
                if (i->flags & VM_F_D64) {
                    uint64_t *d = R64(i->d);
                    LANES(m, d[l] = v);
                } else {
                    uint32_t *d = R32(i->d);
                    LANES(m, d[l] = (uint32_t)v);
                }
            }
        }
        NEXT;
        /* Addresses known only at run time: kernel parameters and frame locals. */
        CASE(MOV_ADDR) {
            uint32_t m = EXEC;
            uint64_t v = i->sp == VM_SP_KPARAM ? cta->grid->cfg->params + (uint64_t)i->imm
                                               : (uint64_t)fr->local_base + (uint64_t)i->imm;
            if (i->flags & VM_F_D64) {
                uint64_t *d = R64(i->d);
                LANES(m, d[l] = v);
            } else {
                uint32_t *d = R32(i->d);
                LANES(m, d[l] = (uint32_t)v);
            }
        }
        NEXT;
        /* mov.b64 d, {a, b} and mov.b64 {a, b}, d (also b32 from b16 halves: sz = part bytes). */
        CASE(MOV_PACK) {
            const vm_vec *v = i->p;
            uint32_t m = EXEC;
            if (i->sz == 4) {
                uint64_t *d = R64(i->d);
                const uint32_t *lo = R32(v->e[0].off), *hi = R32(v->e[1].off);
                LANES(m, d[l] = (uint64_t)lo[l] | (uint64_t)hi[l] << 32);
            } else {
                uint32_t *d = R32(i->d);
                const uint32_t *lo = R32(v->e[0].off), *hi = R32(v->e[1].off);
                LANES(m, d[l] = (lo[l] & 0xffff) | hi[l] << 16);
            }
        }
        NEXT;
        CASE(MOV_UNPACK) {
            const vm_vec *v = i->p;
            uint32_t m = EXEC;
            if (i->sz == 4) {
                const uint64_t *a = R64(i->a);
                if (v->e[0].kind != VM_K_SINK) {
                    uint32_t *lo = R32(v->e[0].off);
                    LANES(m, lo[l] = (uint32_t)a[l]);
                }
                if (v->e[1].kind != VM_K_SINK) {
                    uint32_t *hi = R32(v->e[1].off);
                    LANES(m, hi[l] = (uint32_t)(a[l] >> 32));
                }
            } else {
                const uint32_t *a = R32(i->a);
                if (v->e[0].kind != VM_K_SINK) {
                    uint32_t *lo = R32(v->e[0].off);
                    LANES(m, lo[l] = a[l] & 0xffff);
                }
                if (v->e[1].kind != VM_K_SINK) {
                    uint32_t *hi = R32(v->e[1].off);
                    LANES(m, hi[l] = a[l] >> 16);
                }
            }
        }
        NEXT;
        /* cvta between generic and shared/local: the generic window base is added
     * or removed (i->imm = the window). Source/destination widths by flags. */
        CASE(CVTA_TO) CASE(CVTA_FROM) {
            uint32_t m = EXEC;
            uint64_t win = (uint64_t)i->imm;
            for (int l = 0; l < VM_LANES; l++)
                if (m >> l & 1) {
                    uint64_t a = i->flags & VM_F_BASE_REG64 ? R64(i->a)[l] : R32(i->a)[l];
                    uint64_t r = i->op == VM_CVTA_TO ? a - win : a + win;
                    if (i->flags & VM_F_D64) R64(i->d)[l] = r;
                    else R32(i->d)[l] = (uint32_t)r;
                }
        }
        NEXT;
        CASE(ISSPACEP) {
            uint32_t m = EXEC, r = 0;
            for (int l = 0; l < VM_LANES; l++)
                if (m >> l & 1) {
                    uint64_t a = i->flags & VM_F_BASE_REG64 ? R64(i->a)[l] : R32(i->a)[l];
                    r |= (uint32_t)(vm_isspace(w, i->sp, a) ||
                                    (i->x && a - vm_shared_win < VM_WIN_SIZE && vm_dsmem(cta, a - vm_shared_win, 1)))
                         << l;
                }
            PR(i->d) = (PR(i->d) & ~m) | (r & m);
        }
        NEXT;
        UN(CVT_U64_U32, uint64_t, uint32_t, (uint64_t)a[l])
        UN(CVT_S64_S32, uint64_t, uint32_t, (uint64_t)(int64_t)(int32_t)a[l])
        UN(CVT_U32_U64, uint32_t, uint64_t, (uint32_t)a[l])
        CASE(SELP32) {
            uint32_t *d = R32(i->d);
            const uint32_t *a = R32(i->a), *b = R32(i->b);
            uint32_t p = PR(i->c) ^ (uint32_t)i->imm;
            LANES(EXEC, d[l] = (p >> l & 1) ? a[l] : b[l]);
        }
        NEXT;
        CASE(SELP64) {
            uint64_t *d = R64(i->d);
            const uint64_t *a = R64(i->a), *b = R64(i->b);
            uint32_t p = PR(i->c) ^ (uint32_t)i->imm;
            LANES(EXEC, d[l] = (p >> l & 1) ? a[l] : b[l]);
        }
        NEXT;

        /* ---- integer ---- (unsigned arithmetic: PTX wraps, C's signed overflow would be undefined) */
        BIN(ADD32, uint32_t, a[l] + b[l])
        BIN(SUB32, uint32_t, a[l] - b[l])
        BIN(MUL32, uint32_t, a[l] * b[l])
        TER(MAD32, uint32_t, a[l] * b[l] + c[l])
        BIN(AND32, uint32_t, a[l] & b[l])
        BIN(OR32, uint32_t, a[l] | b[l])
        BIN(XOR32, uint32_t, a[l] ^ b[l])
        UN(NOT32, uint32_t, uint32_t, ~a[l])
        BIN(SHL32, uint32_t, b[l] > 31 ? 0 : a[l] << b[l])
        BIN(SHRU32, uint32_t, b[l] > 31 ? 0 : a[l] >> b[l])
        BIN(SHRS32, uint32_t, (uint32_t)((int32_t)a[l] >> (b[l] > 31 ? 31 : b[l])))
        /* as measured on sm_90 (ALU.md): x / 0 and x % 0 are all ones, INT_MIN / -1 is INT_MIN.
     * The quotients go through double division, which vectorizes (integer
     * division does not): for |a|, |b| < 2^32 the rounded double quotient
     * truncates to the exact one, since its error (< q * 2^-53) is below the
     * distance 1/b from a/b to the next integer when q * b < 2^53. */
        BIN(DIVU32, uint32_t, b[l] ? udiv32(a[l], b[l]) : 0xffffffffu)
        BIN(REMU32, uint32_t, b[l] ? a[l] - udiv32(a[l], b[l]) * b[l] : 0xffffffffu)
        BIN(DIVS32, uint32_t, !b[l] ? 0xffffffffu : b[l] == 0xffffffffu ? 0u - a[l] : sdiv32(a[l], b[l]))
        BIN(REMS32, uint32_t, !b[l] ? 0xffffffffu : b[l] == 0xffffffffu ? 0u : a[l] - sdiv32(a[l], b[l]) * b[l])
        BIN(MINS32, uint32_t, (int32_t)a[l] < (int32_t)b[l] ? a[l] : b[l])
        BIN(MAXS32, uint32_t, (int32_t)a[l] > (int32_t)b[l] ? a[l] : b[l])
        BIN(MINU32, uint32_t, a[l] < b[l] ? a[l] : b[l])
        BIN(MAXU32, uint32_t, a[l] > b[l] ? a[l] : b[l])
        BIN(ADD64, uint64_t, a[l] + b[l])
        BIN(SUB64, uint64_t, a[l] - b[l])
        BIN(MUL64, uint64_t, a[l] * b[l])
        TER(MAD64, uint64_t, a[l] * b[l] + c[l])
        BIN(AND64, uint64_t, a[l] & b[l])
        BIN(OR64, uint64_t, a[l] | b[l])
        BIN(XOR64, uint64_t, a[l] ^ b[l])
        UN(NOT64, uint64_t, uint64_t, ~a[l])
        BIN2(SHL64, uint64_t, uint64_t, uint32_t, b[l] > 63 ? 0 : a[l] << b[l])
        BIN2(SHRU64, uint64_t, uint64_t, uint32_t, b[l] > 63 ? 0 : a[l] >> b[l])
        BIN2(SHRS64, uint64_t, uint64_t, uint32_t, (uint64_t)((int64_t)a[l] >> (b[l] > 63 ? 63 : b[l])))
        BIN2(MULWS32, uint64_t, uint32_t, uint32_t, (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]))
        BIN2(MULWU32, uint64_t, uint32_t, uint32_t, (uint64_t)a[l] * b[l])
        TER2(MADWS32, uint64_t, uint32_t, (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]) + c[l])
        TER2(MADWU32, uint64_t, uint32_t, (uint64_t)a[l] * b[l] + c[l])
        BIN(MULHIU32, uint32_t, (uint32_t)(((uint64_t)a[l] * b[l]) >> 32))
        BIN(MULHIS32, uint32_t, (uint32_t)((uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]) >> 32))

        /* bit manipulation (alu_core.h holds the definitions the ALU tables use too) */
        TER(SHFLW, uint32_t, alu_shf(a[l], b[l], c[l], true, true))
        TER(SHFRW, uint32_t, alu_shf(a[l], b[l], c[l], false, true))
        TER(SHFLC, uint32_t, alu_shf(a[l], b[l], c[l], true, false))
        TER(SHFRC, uint32_t, alu_shf(a[l], b[l], c[l], false, false))
        TER(LOP3, uint32_t, alu_lop3(a[l], b[l], c[l], (unsigned)i->imm))
        TER(PRMT, uint32_t, alu_prmt(a[l], b[l], c[l], 0))
        TER(BFEU32, uint32_t, (uint32_t)alu_bfe(a[l], b[l], c[l], 32, false))
        TER(BFES32, uint32_t, (uint32_t)alu_bfe(a[l], b[l], c[l], 32, true))
        /* int -> f32 round to nearest is the host's conversion; f32 -> s32 .rzi saturates as the GPU */
        UN(CVTF32U32, float, uint32_t, (float)a[l])
        UN(CVTF32S32, float, int32_t, (float)a[l])
        UN(CVTRZIS32F32, uint32_t, uint32_t, alu_f32_to_s32(a[l], ALU_RZ, false))

        /* ---- float, round to nearest even, subnormals kept ---- */
        BIN(ADDF32, float, canon_f32(a[l] + b[l]))
        BIN(SUBF32, float, canon_f32(a[l] - b[l]))
        BIN(MULF32, float, canon_f32(a[l] * b[l]))
        TER(FMAF32, float, canon_f32(fmaf(a[l], b[l], c[l])))
        BIN(ADDF64, double, canon_f64(a[l] + b[l], b[l]))
        BIN(SUBF64, double, canon_f64(a[l] - b[l], b[l]))
        BIN(MULF64, double, canon_f64(a[l] * b[l], b[l]))
        TER(FMAF64, double, canon_fma64(fma(a[l], b[l], c[l]), b[l], c[l]))

        BIN(MINF32, uint32_t, alu_minmax_f32(a[l], b[l], false, false))
        BIN(MAXF32, uint32_t, alu_minmax_f32(a[l], b[l], true, false))
        BIN(DIVF32, float, canon_f32(a[l] / b[l]))
        UN(SQRTF32, float, float, canon_f32(sqrtf(a[l])))
        /* f64 division and square root keep NaN payloads as the host does (a's first) */
        BIN(DIVF64, double, a[l] / b[l])
        UN(SQRTF64, double, double, sqrt(a[l]))
        UN(NEGF32, uint32_t, uint32_t, alu_isnan32(a[l]) ? ALU_NAN32 : a[l] ^ 0x80000000u)
        UN(ABSF32, uint32_t, uint32_t, alu_isnan32(a[l]) ? ALU_NAN32 : a[l] & 0x7fffffffu)

        /* ---- comparisons ---- */
        CMPS32(int32_t, S32, _mm512_cmp_epi32_mask)
        CMPS32(uint32_t, U32, _mm512_cmp_epu32_mask)
        CMPS(int64_t, S64)
        CMPS(uint64_t, U64)
        CMPF(float, F32)
        CMPF(double, F64)
        /* predicate logic: i->imm / i->x carry the `!` of each source as xor masks */
        CASE(PAND) {
            uint32_t m = EXEC;
            PR(i->d) = (PR(i->d) & ~m) |
                       (((PR(i->a) ^ (uint32_t)i->imm) & (PR(i->b) ^ (uint32_t) - (int32_t)(i->x & 1))) & m);
        }
        NEXT;
        CASE(POR) {
            uint32_t m = EXEC;
            PR(i->d) = (PR(i->d) & ~m) |
                       (((PR(i->a) ^ (uint32_t)i->imm) | (PR(i->b) ^ (uint32_t) - (int32_t)(i->x & 1))) & m);
        }
        NEXT;
        CASE(PXOR) {
            uint32_t m = EXEC;
            PR(i->d) = (PR(i->d) & ~m) |
                       (((PR(i->a) ^ (uint32_t)i->imm) ^ (PR(i->b) ^ (uint32_t) - (int32_t)(i->x & 1))) & m);
        }
        NEXT;
        CASE(PNOT) {
            uint32_t m = EXEC;
            PR(i->d) = (PR(i->d) & ~m) | (~(PR(i->a) ^ (uint32_t)i->imm) & m);
        }
        NEXT;

        /* Every other ALU form: gather each lane's operands, call the table's
     * per-lane function, scatter the results (alu.h). */
        CASE(ALU) {
            uint32_t m = EXEC;
            if (m) vm_alu_run(w, fb, i->p, m);
        }
        NEXT;

        /* ---- memory ---- (exec_mem.h: per-lane translation and checks) */
        CASE(LD) {
            uint32_t m = EXEC;
            MEMCALL(vm_ld);
        }
        NEXT;
        CASE(ST) {
            uint32_t m = EXEC;
            MEMCALL(vm_st);
        }
        NEXT;
        /* 4-byte shared and global accesses with a register base: one pass checks
     * every lane (bounds, alignment); any bad lane falls back to vm_ld/vm_st,
     * which reports it. The common case is then a plain gather/scatter. */
        CASE(LDS4) {
            uint32_t m = EXEC;
            const uint32_t *a = R32(i->a);
            uint32_t *d = R32(i->d), off = (uint32_t)i->imm;
            /* the whole warp: by half-warp patterns (exec_mem.h) */
            if (__builtin_expect(m == VM_FULL, 1) && vm_lds4_full(cta, a, off, d)) NEXT;
            if (__builtin_expect(!vm_lds4_part(cta, a, off, d, m), 0)) MEMCALL(vm_ld);
        }
        NEXT;
        CASE(STS4) {
            uint32_t m = EXEC;
            const uint32_t *a = R32(i->a), *v = R32(i->b), off = (uint32_t)i->imm;
            if (__builtin_expect(m == VM_FULL, 1) && vm_sts4_full(cta, a, off, v)) NEXT;
            if (__builtin_expect(!vm_sts4_part(cta, a, off, v, m), 0)) MEMCALL(vm_st);
        }
        NEXT;
        CASE(LDG4) {
            uint32_t m = EXEC;
            const vm_arena *ar = fr->fn->prog->rt->arena;
            const uint64_t *a = R64(i->a);
            uint32_t *d = R32(i->d);
            if (__builtin_expect(m == VM_FULL, 1) && vm_ldg4_full(ar, a, (uint64_t)i->imm, d)) {
                vm_prefetch_next_warp(cta, w->id, i, a[0] + (uint64_t)i->imm, a[VM_HALF] + (uint64_t)i->imm);
                NEXT;
            }
            if (__builtin_expect(!vm_ldg4_part(ar, a, (uint64_t)i->imm, d, m), 0)) MEMCALL(vm_ld);
        }
        NEXT;
        CASE(STG4) {
            uint32_t m = EXEC;
            const vm_arena *ar = fr->fn->prog->rt->arena;
            const uint64_t *a = R64(i->a);
            const uint32_t *v = R32(i->b);
            if (__builtin_expect(m == VM_FULL, 1) && vm_stg4_full(ar, a, (uint64_t)i->imm, v)) NEXT;
            if (__builtin_expect(!vm_stg4_part(ar, a, (uint64_t)i->imm, v, m), 0)) MEMCALL(vm_st);
        }
        NEXT;
        CASE(LDV) {
            uint32_t m = EXEC;
            MEMCALL(vm_ldv);
        }
        NEXT;
        CASE(STV) {
            uint32_t m = EXEC;
            MEMCALL(vm_stv);
        }
        NEXT;
        /* ld.param of a kernel parameter: one value for every lane. */
        CASE(LD_KPARAM) {
            uint32_t m = EXEC;
            const uint8_t *src = (const uint8_t *)(uintptr_t)(cta->grid->cfg->params + (uint64_t)i->imm);
            /* One load of the parameter's own width: a memcpy of variable size
         * writes v in pieces, and reading it back whole then stalls on a
         * failed store forward (that made this handler a third of vecadd's
         * and stencil's interpretation time). */
            uint64_t v = 0;
            bool sx = i->flags & VM_F_SIGNED;
            if (i->sz == 4) {
                uint32_t t;
                memcpy(&t, src, 4);
                v = sx ? (uint64_t)(int64_t)(int32_t)t : t;
            } else if (i->sz == 8) memcpy(&v, src, 8);
            else {
                memcpy(&v, src, i->sz);
                if (sx && i->sz < 8) v = (uint64_t)((int64_t)(v << (64 - 8 * i->sz)) >> (64 - 8 * i->sz));
            }
            if (i->flags & VM_F_D64) {
                uint64_t *d = R64(i->d);
                LANES(m, d[l] = v);
            } else {
                uint32_t *d = R32(i->d);
                LANES(m, d[l] = (uint32_t)v);
            }
        }
        NEXT;
        CASE(ATOM) {
            uint32_t m = EXEC;
            MEMCALL(vm_atom);
        }
        NEXT;
        CASE(FENCE) {
            /* ThreadSanitizer does not model fences (GCC says so, -Wtsan); the
         * strong loads and stores carry the ordering it needs to see. */
#if defined(__SANITIZE_THREAD__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#endif
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
#if defined(__SANITIZE_THREAD__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic pop
#endif
        }
        NEXT;
        CASE(ALLOCA) CASE(STACKSAVE) CASE(STACKRESTORE) {
            uint32_t m = EXEC;
            MEMCALL(vm_stackop);
        }
        NEXT;

        /* ---- warp collectives ---- (all member lanes must be in the group; if some
     * are elsewhere the group waits for them: sched.c) */
        CASE(SHFL) CASE(VOTE) CASE(ACTIVEMASK) CASE(MATCH) CASE(REDUX) {
            uint32_t m = EXEC;
            if (!m) NEXT;
            if (m == VM_FULL && i->op == VM_SHFL && !w->forced && vm_shfl_full(fb, i)) NEXT;
            int r = vm_collective(w, fb, i, m);
            if (r == 0) NEXT;
            ACCOUNT(i + 1);
            SAVE();
            if (r < 0) {
                why = VM_Y_FAULT;
                goto out;
            }
            /* 1: the executing lanes wait at i for the others; 2: lanes that were
         * waiting joined in; either way every lane's position is set, pick again */
            goto resched;
        }

        /* Extension instructions (lower_ext.h): the record's p starts with its run function. */
        CASE(EXT) {
            uint32_t m = EXEC;
            if (!m) NEXT;
            SAVE();
            int r = (*(vm_ext_fn *)i->p)(w, fb, i, m);
            if (r == VM_EXT_NEXT) NEXT;
            ACCOUNT(i + 1);
            if (r < 0) {
                why = VM_Y_FAULT;
                goto out;
            }
            if (r == VM_EXT_YIELD || r == VM_EXT_RETRY) {
                why = VM_Y_SLICE;
                if (!vm_yield_group(w, r == VM_EXT_RETRY ? i : i + 1)) why = VM_Y_BLOCKED;
                goto out_nosave;
            }
            goto resched;
        }

#ifndef PTXI_SWITCH_DISPATCH
    /* ---- superinstructions (vm_ops.h) ----
     * Each step runs its record exactly as the record's own handler would,
     * by the shortcut only; anything else (a partial group, a bad lane)
     * continues in that record's own handler, at that record. */
    L_LDS4_LDS4_FMAF32 : {
        if (mask != VM_FULL) goto *labels[i->op];
        const vm_dotplan *p = i->p;
        if (p && ((uintptr_t)stop <= (uintptr_t)i || (uintptr_t)stop >= (uintptr_t)(i + 3 * p->n)) &&
            dot_plan_run(cta, fb, p)) {
            i += 3 * p->n;
            if (i == stop) {
                ACCOUNT(i);
                goto merge;
            }
            DISPATCH;
        }
        bool plain = false;
        i = dot_chain(cta, fb, i, stop, &&L_LDS4_LDS4_FMAF32, &plain);
        if (i == stop) {
            ACCOUNT(i);
            goto merge;
        }
        if (plain) goto *labels[i->op];
        DISPATCH;
    }

    /* A compiled run (jit.c): entered when the group does not merge inside
     * it, by the whole warp or (its masked version) by a part of it; its
     * records are done and i is the first left. A
     * fault inside was recorded by the record's own path, as here. */
    L_JIT : {
        const vm_jit_region *r = (const vm_jit_region *)(const void *)i->target;
        vm_jit_fn fn = mask == VM_FULL ? r->fn : r->mfn;
        if (!fn || ((uintptr_t)stop > (uintptr_t)i && (uintptr_t)stop < (uintptr_t)r->end)) goto *labels[i->op];
        vm_jit_ctx c; /* the per-level fields of if-converted bodies are written before they are read */
        c.w = w, c.fr = fr, c.cta = cta, c.cfg = cta->grid->cfg, c.params = cta->grid->cfg->params;
        c.fault = (uintptr_t)stop == UINTPTR_MAX ? 0 : VM_JIT_NOCHAIN; /* lanes wait somewhere: no chaining */
        c.taken = NULL, c.off = ~mask, c.mask = mask, c.wadj = c.tadj = 0;
        /* a loop's run goes round inside (jit.c loop_back) only while the
         * group does not merge at its head, and leaves its last backward
         * branch of the slice to the taken path below */
        const uint32_t loops = (uintptr_t)stop > (uintptr_t)i ? budget - 1 : 0;
        c.loops = loops;
        c.seg = seg, c.head = i;
        const vm_insn *head = i;
        i = fn(fb, &c);
        /* the CTA's next warps ran on (jit.c hand_over), or the last one's
         * exit went back to this one (jit_bar.h run_bar_exit): the last run */
        if (c.w != w || c.head != head || c.seg != seg) {
            w = c.w, fr = c.fr, fb = fr->fb;
            seg = c.seg, head = c.head;
            r = (const vm_jit_region *)(const void *)head->target;
        }
        /* loops went round k times in all, their records counted in wadj, tadj
         * (jit.c loop_back), by every warp that ran here; the backward branches taken off the budget */
        if (__builtin_expect(c.fault & VM_JIT_ROUND, 0)) budget -= loops - c.loops;
        if (__builtin_expect(c.fault & VM_JIT_WAITS, 0)) { /* the warp waits at a barrier, counted (jit.c run_bar) */
            if (atomic_load_explicit(&cta->grid->stop, memory_order_relaxed)) {
                why = VM_Y_FAULT;
                goto out_nosave;
            }
            goto waits;
        }
        /* it left the kernel at a barrier, counted (jit_bar.h run_bar_exit) */
        if (__builtin_expect(c.fault & VM_JIT_DONE, 0)) goto left;
        const vm_insn *upto = c.taken ? c.taken + 1 : i;
        cta->jit_warp_insns += (uint64_t)(upto - head);
        if (__builtin_expect(c.fault & VM_JIT_ADJUST, 0)) { /* if-converted bodies ran, runs chained, loops went round */
            /* ACCOUNT's shape, so that the two counters are written as the next
             * ACCOUNT reads them, and wadj, tadj read one by one as the code
             * wrote them (a mixed pair costs a store-forwarding stall) */
            uint64_t n_ = (uint64_t)(upto - seg), wa = (uint64_t) * (volatile int64_t *)&c.wadj,
                     ta = (uint64_t) * (volatile int64_t *)&c.tadj;
            count_insns(cta, n_ - wa, n_ * (uint64_t)__builtin_popcount(mask) - ta);
            w->clock += n_ - wa;
            cta->jit_warp_insns -= wa;
            seg = upto;
            if (c.fault & VM_JIT_SPLIT) mask = c.mask;
            if (c.fault & VM_JIT_CHAIN) r = (const vm_jit_region *)(const void *)c.chead->target; /* the last run it ran in */
        }
        if (__builtin_expect(c.fault & VM_JIT_FAULT, 0)) {
            SAVE();
            why = VM_Y_FAULT;
            goto out;
        }
        if (c.taken) { /* the whole warp took the branch c.taken: as BRA's handler */
            ACCOUNT(c.taken + 1);
            seg = i;
            if ((c.taken->flags & VM_F_BACK) && --budget == 0) {
                why = VM_Y_SLICE;
                if (!vm_yield_group(w, i)) why = VM_Y_BLOCKED;
                goto out_nosave;
            }
            if (i >= stop) goto merge;
            DISPATCH;
        }
        if (i == stop) {
            ACCOUNT(i);
            goto merge;
        }
        if (i != r->end) goto *labels[i->op]; /* a record the run left to its handler */
        DISPATCH;
    }
#endif

        CASE(DBG) {
            /* Reached only through i->h in debugged code (computed goto), or
         * before every instruction of a debugged module (switch build): ask
         * the debugger, then run the instruction's own handler. */
#ifdef PTXI_SWITCH_DISPATCH
        debug_hook:;
#endif
            vm_runtime *rt = fr->fn->prog->rt;
            SAVE();
            ACCOUNT(i);
            seg = i;
            if (rt->dbg && rt->dbg(rt->dbg_ctx, w, i) < 0) {
                vm_fault_at(w, i, __builtin_ctz(mask), PTXI_LAUNCH_FAILED, "killed by the debugger");
                why = VM_Y_FAULT;
                goto out_nosave;
            }
            /* the debugger may have changed registers, never the group or frame */
#ifndef PTXI_SWITCH_DISPATCH
            goto *labels[i->op];
#else
        goto execute;
#endif
        }

#ifdef PTXI_SWITCH_DISPATCH
    default: break;
    }
    SAVE();
    why = VM_Y_FAULT;
    goto out;
#endif

left:
    /* The whole group ended its thread or call. The last lanes of the warp
     * leaving the kernel end it here, without choosing among no lanes. */
    if (w->depth == 1 && (w->exited & w->present) == w->present) {
        w->state = VM_W_DONE;
        /* The CTA's next warp runs on here, as cta_round would run it next,
         * without the return and the call, when it is ready and no barrier
         * has arrivals (so none waits for this warp's exit). */
        vm_warp *nw = w + 1;
        if (w->id + 1 < cta->nwarps && nw->state == VM_W_READY && !nw->sleep_until && !cta->bars_open &&
            !atomic_load_explicit(&cta->grid->stop, memory_order_relaxed)) {
            vm_pass_frame(w, nw);
            w = cta->ran = nw;
            cta->ran_exited = nw->exited;
            goto reload;
        }
        /* the CTA's last warp: on into the next CTA's first (sched.c) */
        if (vm_cta_follows(cta, w) && (nw = vm_next_cta(cta))) {
            w = nw;
            goto reload;
        }
        why = VM_Y_DONE;
        goto out_nosave;
    }
    goto resched;

merge:
    /* The group reached the PC where other lanes wait: record where everyone is
     * and pick again (smallest PC first). */
    for (int l = 0; l < VM_LANES; l++)
        if (mask >> l & 1) w->lpc[l] = i;
resched:
    if (atomic_load_explicit(&cta->grid->stop, memory_order_relaxed)) {
        why = VM_Y_FAULT;
        goto out_nosave;
    }
    if (vm_reschedule(w)) goto reload;
waits: {
        /* Every lane waits (a barrier): the CTA's next warp runs on here, as
         * cta_round would run it next, when it is ready and none of this
         * warp's lanes exited since it was entered (cta_round would then
         * check the open barriers first). What a barrier costs a warp is
         * then its arrival, not a return to the CTA loop and a new entry. */
        vm_warp *nw = w + 1;
        if (w->state == VM_W_BLOCKED && w->exited == cta->ran_exited && w->id + 1 < cta->nwarps &&
            nw->state == VM_W_READY && !nw->sleep_until) {
            w = cta->ran = nw;
            cta->ran_exited = nw->exited;
            goto reload;
        }
        why = (w->exited & w->present) == w->present ? VM_Y_DONE : VM_Y_BLOCKED;
        goto out_nosave;
    }

out:
    ACCOUNT(i);
out_nosave:
    return why;
}

/* Special registers that vary per lane or over time. */
uint64_t vm_sreg_value(vm_warp *w, const vm_insn *i, int l) {
    const vm_cta *cta = w->cta;
    const vm_launch_cfg *cfg = cta->grid->cfg;
    unsigned c = i->sz;
    switch ((ir_sreg)i->x) {
    case IR_SREG_TID: return w->tid[c][l];
    case IR_SREG_NTID: return cfg->block[c];
    case IR_SREG_CTAID: return cta->ctaid[c];
    case IR_SREG_NCTAID: return cfg->grid[c];
    case IR_SREG_LANEID: return (uint32_t)l;
    case IR_SREG_WARPID: return w->id;
    case IR_SREG_NWARPID: return 64;
    case IR_SREG_SMID: return (uint32_t)(cta->linear % 132);
    case IR_SREG_NSMID: return 132;
    case IR_SREG_GRIDID: return 1;
    case IR_SREG_LANEMASK_EQ: return 1u << l;
    case IR_SREG_LANEMASK_LE: return (uint32_t)((2ull << l) - 1);
    case IR_SREG_LANEMASK_LT: return (1u << l) - 1;
    case IR_SREG_LANEMASK_GE: return ~((1u << l) - 1);
    case IR_SREG_LANEMASK_GT: return (uint32_t) ~((2ull << l) - 1);
    case IR_SREG_CLOCK: return (uint32_t)w->clock;
    case IR_SREG_CLOCK_HI: return (uint32_t)(w->clock >> 32);
    case IR_SREG_CLOCK64: return w->clock;
    case IR_SREG_GLOBALTIMER: return (uint64_t)(vm_now() * 1e9);
    case IR_SREG_GLOBALTIMER_LO: return (uint32_t)(uint64_t)(vm_now() * 1e9);
    case IR_SREG_GLOBALTIMER_HI: return (uint32_t)((uint64_t)(vm_now() * 1e9) >> 32);
    case IR_SREG_DYNAMIC_SMEM_SIZE: return cfg->dyn_shared;
    case IR_SREG_TOTAL_SMEM_SIZE: return cta->smem_full;
    case IR_SREG_AGGR_SMEM_SIZE: return cta->smem_full;
    case IR_SREG_NCLUSTERID: return cfg->grid[c] / cta->grid->cdim[c];
    case IR_SREG_CLUSTERID: return cta->ctaid[c] / cta->grid->cdim[c];
    case IR_SREG_CLUSTER_NCTAID: return cta->grid->cdim[c];
    case IR_SREG_CLUSTER_CTAID: return cta->ctaid[c] % cta->grid->cdim[c];
    case IR_SREG_CLUSTER_CTARANK: return cta->crank;
    case IR_SREG_CLUSTER_NCTARANK: return cta->grid->csize;
    case IR_SREG_IS_EXPLICIT_CLUSTER: return cfg->kernel->ir && cfg->kernel->ir->explicitcluster;
    case IR_SREG_ENVREG: return cfg->envreg[c & 31];
    default: return 0; /* %pmN, reserved offsets: zero as on a plain launch */
    }
}
