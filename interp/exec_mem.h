/* exec_mem.h — the memory handlers' per-lane work: address computation,
 * translation of each state space (and of generic addresses through their
 * windows) to host memory, the checks that turn a bad access into a report,
 * and atomics. Included by exec.c only, so everything here inlines. */
#ifndef PTXI_EXEC_MEM_H
#define PTXI_EXEC_MEM_H

#include <string.h>

#include "sanitize.h"
#include "warp.h"

/* Atomic operations and types (vm_insn.x = op << 8 | type). */
enum { VM_AO_ADD, VM_AO_MIN, VM_AO_MAX, VM_AO_INC, VM_AO_DEC, VM_AO_AND, VM_AO_OR, VM_AO_XOR, VM_AO_EXCH, VM_AO_CAS };
enum {
    VM_AT_U32,
    VM_AT_S32,
    VM_AT_U64,
    VM_AT_S64,
    VM_AT_F32,
    VM_AT_F64,
    VM_AT_F16,
    VM_AT_BF16,
    VM_AT_F16X2,
    VM_AT_BF16X2,
    VM_AT_B16,
    VM_AT_B128
};

/* atom.exch.b128 / atom.cas.b128 at p (16-byte aligned): op is VM_AO_EXCH
 * (stores b) or VM_AO_CAS (stores c where the 16 bytes equal b); old gets the
 * bytes found. Values are {low 64 bits, high 64 bits}. Atomic against every
 * other 16-byte atomic of any host thread (atom128.c). */
void vm_atom128(uint8_t *p, unsigned op, const uint64_t b[2], const uint64_t c[2], uint64_t old[2]);

static inline uint64_t lane_addr(const vm_frame *fr, const uint8_t *fb, const vm_insn *i, int l) {
    uint64_t a;
    if (i->flags & VM_F_BASE_REG64) a = ((const uint64_t *)(fb + i->a))[l] + (uint64_t)i->imm;
    else if (i->flags & VM_F_BASE_REG32) a = (uint32_t)(((const uint32_t *)(fb + i->a))[l] + (uint32_t)i->imm);
    else a = (uint64_t)i->imm;
    if (i->flags & VM_F_FRAME_SYM) a += fr->local_base;
    if (i->flags & VM_F_PARAM_SYM) a += fr->kparams;
    return a;
}

static const char *const sp_name[] = {"global", "shared", "local", "const", "generic", "param", "param"};

/* Distributed shared memory (cluster.c): the shared::cluster address of
 * offset o in the CTA of rank r is o + ((r + 1) << VM_DSMEM_SHIFT). */
#define VM_DSMEM_SHIFT 24
#define VM_DSMEM_OFF (((uint64_t)1 << VM_DSMEM_SHIFT) - 1)

/* Host address of a shared::cluster address of another CTA of the cluster
 * (NULL when it is none). */
static inline uint8_t *vm_dsmem(const vm_cta *cta, uint64_t a, unsigned n) {
    uint64_t r = (a >> VM_DSMEM_SHIFT) - 1, o = a & VM_DSMEM_OFF;
    if (!cta->cluster || !(a >> VM_DSMEM_SHIFT) || r >= cta->grid->csize) return NULL;
    const vm_cta *peer = cta->cluster->cta[r];
    return peer && o + n <= peer->smem_full ? peer->smem + o : NULL;
}

/* Host address of n bytes at device address a for lane l, or NULL after
 * recording a fault. */
static inline uint8_t *xlate(vm_warp *w, uint8_t *fb, const vm_insn *i, int l, uint64_t a, unsigned n, bool wr) {
    vm_cta *cta = w->cta;
    vm_arena *arena = cta->grid->cfg->kernel->prog->rt->arena;
    int sp = i->sp;
    /* An H100 lets an 8-byte shared access at a 4-aligned address through (it
     * reads the two words there): shared accesses need only word alignment. */
    uint64_t amask = (sp == VM_SP_SHARED || (sp == VM_SP_GENERIC && a - vm_shared_win < VM_WIN_SIZE)) && n > 4 ? 3
                                                                                                               : n - 1;
    if (a & amask) {
        uint8_t *p = cta->grid->cfg->kernel->prog->rt->san ? vm_san_access(w, i, l, sp, a, n, wr, VM_SAN_MISALIGNED)
                                                           : NULL;
        if (p) return p;
        vm_fault_at(w, i, l, PTXI_MISALIGNED_ADDRESS, "misaligned %s %s of %u bytes at address 0x%llx", sp_name[sp],
                    wr ? "write" : "read", n, (unsigned long long)a);
        return NULL;
    }
    if (sp == VM_SP_GENERIC) {
        if (a - vm_shared_win < VM_WIN_SIZE) a -= vm_shared_win, sp = VM_SP_SHARED;
        else if (a - vm_local_win < VM_WIN_SIZE) a -= vm_local_win, sp = VM_SP_LOCAL;
        else sp = VM_SP_GLOBAL;
    }
    switch (sp) {
    case VM_SP_SHARED:
        if (a + n <= cta->smem_size) return cta->smem + a;
        if (cta->cluster) {
            uint8_t *p = vm_dsmem(cta, a, n);
            if (p) return p;
        }
        break;
    case VM_SP_LOCAL:
        if (a + n <= w->local_stride && vm_local_mem(w)) return w->local + (size_t)l * w->local_stride + a;
        break;
    case VM_SP_FPARAM:
        if (a + n <= i->x) return fb + i->c + (size_t)l * i->x + a;
        break;
    default:
        if (vm_arena_ok(arena, a, n, wr)) return (uint8_t *)(uintptr_t)a;
        if (vm_arena_external(arena, a, n) || vm_arena_peer_ok(arena, a, n, wr)) return (uint8_t *)(uintptr_t)a;
        if (wr && vm_arena_ok(arena, a, n, false)) {
            vm_fault_at(w, i, l, PTXI_ILLEGAL_ADDRESS, "write of %u bytes to read-only %s memory at 0x%llx", n,
                        vm_shadow(arena, a) == VM_SH_CONST ? ".const" : ".param", (unsigned long long)a);
            return NULL;
        }
        break;
    }
    if (cta->grid->cfg->kernel->prog->rt->san && sp != VM_SP_FPARAM) {
        uint8_t *p = vm_san_access(w, i, l, sp, a, n, wr, VM_SAN_OOB);
        if (p) return p;
    }
    char where[256];
    where[0] = 0;
    if (sp == VM_SP_GLOBAL || sp == VM_SP_CONST || sp == VM_SP_KPARAM) vm_describe_addr(arena, a, where, sizeof where);
    else
        snprintf(where, sizeof where, " (the %s window holds %u bytes)", sp == VM_SP_SHARED ? "shared" : "local",
                 sp == VM_SP_SHARED  ? cta->smem_full
                 : sp == VM_SP_LOCAL ? w->local_stride
                                     : i->x);
    /* the GPU reports a shared address outside the window as an illegal instruction */
    vm_fault_at(w, i, l, sp == VM_SP_SHARED ? PTXI_ILLEGAL_INSTRUCTION : PTXI_ILLEGAL_ADDRESS,
                "out-of-bounds %s %s of %u bytes at address 0x%llx%s", sp_name[i->sp], wr ? "write" : "read", n,
                (unsigned long long)a, where);
    return NULL;
}

/* ---- full-warp 4-byte accesses, one half-warp (16 lanes, one 64-byte
 * vector) at a time ----
 * Most warp accesses are one of two shapes per half-warp: every lane the same
 * address (A[ty][k] in a tiled loop) or 16 consecutive words (B[k][tx],
 * x[i]). Those need one range test and one 64-byte copy or one splat instead
 * of a per-lane gather (slow on every x86, very slow with the GDS microcode
 * fix). Anything else is gathered lane by lane. The helpers only say "done"
 * when every lane of the half is in range; otherwise the caller takes the
 * per-lane path, which reports the first bad lane as before. */
enum { VM_PAT_GATHER, VM_PAT_BCAST, VM_PAT_CONSEC };
#define VM_HALF 16

/* The pattern of 16 lane addresses. Written with AVX-512 compares where the
 * build has them: in the big dispatch function the compiler unrolls the plain
 * loop instead of vectorizing it. */
#ifdef __AVX512F__
#include <immintrin.h>
static inline int vm_pat32(const uint32_t *a) {
    __m512i v = _mm512_loadu_si512(a), s = _mm512_set1_epi32((int)a[0]);
    if (_mm512_cmpeq_epi32_mask(v, s) == 0xffff) return VM_PAT_BCAST;
    __m512i k = _mm512_set_epi32(60, 56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0);
    return _mm512_cmpeq_epi32_mask(v, _mm512_add_epi32(s, k)) == 0xffff ? VM_PAT_CONSEC : VM_PAT_GATHER;
}
static inline int vm_pat64(const uint64_t *a) {
    __m512i v0 = _mm512_loadu_si512(a), v1 = _mm512_loadu_si512(a + 8), s = _mm512_set1_epi64((long long)a[0]);
    if ((_mm512_cmpeq_epi64_mask(v0, s) & _mm512_cmpeq_epi64_mask(v1, s)) == 0xff) return VM_PAT_BCAST;
    __m512i k = _mm512_set_epi64(28, 24, 20, 16, 12, 8, 4, 0), s0 = _mm512_add_epi64(s, k);
    __m512i s1 = _mm512_add_epi64(s0, _mm512_set1_epi64(32));
    return (_mm512_cmpeq_epi64_mask(v0, s0) & _mm512_cmpeq_epi64_mask(v1, s1)) == 0xff ? VM_PAT_CONSEC : VM_PAT_GATHER;
}
#else
#define VM_PAT_FN(NAME, T)                                                       \
    static inline int NAME(const T *a) {                                         \
        T a0 = a[0], dc = 0, db = 0;                                             \
        for (int j = 0; j < VM_HALF; j++) {                                      \
            dc |= a[j] ^ (a0 + 4 * (T)j);                                        \
            db |= a[j] ^ a0;                                                     \
        }                                                                        \
        return db == 0 ? VM_PAT_BCAST : dc == 0 ? VM_PAT_CONSEC : VM_PAT_GATHER; \
    }
VM_PAT_FN(vm_pat32, uint32_t)
VM_PAT_FN(vm_pat64, uint64_t)
#endif

/* Half a warp of words or floats in one vector (GNU C vectors: the compiler
 * maps them to what the target has). */
typedef uint32_t vm_u16 __attribute__((vector_size(64)));
typedef float vm_f16 __attribute__((vector_size(64)));

/* Shared memory: addresses are 32-bit (a[l] + off, wrapping as in PTX);
 * *t receives the 16 words. pat is vm_pat32(a). */
static inline bool vm_lds4_half(const uint8_t *sm, uint32_t size, const uint32_t *a, int pat, uint32_t off, vm_u16 *t) {
    uint64_t b = (uint32_t)(a[0] + off);
    if (pat != VM_PAT_GATHER) {
        if (b & 3 || b + (pat == VM_PAT_CONSEC ? 64 : 4) > size) return false;
        if (pat == VM_PAT_CONSEC) {
            memcpy(t, sm + b, 64);
            return true;
        }
        uint32_t v;
        memcpy(&v, sm + b, 4);
        *t = (vm_u16){0} + v;
        return true;
    }
    uint32_t bad = size < 4, lim = size - 4;
    for (int j = 0; j < VM_HALF; j++) {
        uint32_t ad = a[j] + off;
        bad |= (ad & 3) | (uint32_t)(ad > lim);
    }
    if (bad) return false;
    const uint32_t *sw = (const uint32_t *)sm;
    vm_u16 r;
    for (int j = 0; j < VM_HALF; j++) r[j] = sw[(a[j] + off) >> 2];
    *t = r;
    return true;
}

/* ld.shared.b32 for all 32 lanes; d may be a. */
static inline bool vm_lds4_full(const vm_cta *cta, const uint32_t *a, uint32_t off, uint32_t *d) {
    vm_u16 t0, t1;
    if (!vm_lds4_half(cta->smem, cta->smem_size, a, vm_pat32(a), off, &t0) ||
        !vm_lds4_half(cta->smem, cta->smem_size, a + VM_HALF, vm_pat32(a + VM_HALF), off, &t1))
        return false;
    memcpy(d, &t0, sizeof t0);
    memcpy(d + VM_HALF, &t1, sizeof t1);
    return true;
}

/* st.shared.b32 for all 32 lanes when each half is 16 consecutive words.
 * Within a half no two lanes write the same word; where the halves overlap
 * the second half is copied last, as the higher lanes store last. When every
 * lane stores to one word (a warp's partial sum to its slot), the last lane's
 * value is what stays. */
static inline bool vm_sts4_full(const vm_cta *cta, const uint32_t *a, uint32_t off, const uint32_t *v) {
    uint64_t b0 = (uint32_t)(a[0] + off), b1 = (uint32_t)(a[VM_HALF] + off);
    int p0 = vm_pat32(a), p1 = vm_pat32(a + VM_HALF);
    if (p0 == VM_PAT_BCAST && p1 == VM_PAT_BCAST && b0 == b1) {
        if (b0 & 3 || b0 + 4 > cta->smem_size) return false;
        memcpy(cta->smem + b0, v + VM_LANES - 1, 4);
        return true;
    }
    if (p0 != VM_PAT_CONSEC || p1 != VM_PAT_CONSEC || (b0 | b1) & 3 || b0 + 64 > cta->smem_size ||
        b1 + 64 > cta->smem_size)
        return false;
    memcpy(cta->smem + b0, v, 64);
    memcpy(cta->smem + b1, v + VM_HALF, 64);
    return true;
}

static inline bool ldg4_half(const vm_arena *ar, const uint64_t *a, uint64_t off, uint32_t *t) {
    int pat = vm_pat64(a);
    uint64_t b = a[0] + off;
    if (pat == VM_PAT_GATHER) {
        uint32_t bad = 0;
        for (int j = 0; j < VM_HALF; j++) {
            uint64_t ad = a[j] + off;
            bad |= (uint32_t)((ad & 3) != 0 || vm_shadow(ar, ad) == VM_SH_NONE);
        }
        if (bad) return false;
        for (int j = 0; j < VM_HALF; j++) t[j] = *(const uint32_t *)(uintptr_t)(a[j] + off);
        return true;
    }
    if (b & 3 || !vm_arena_ok(ar, b, pat == VM_PAT_CONSEC ? 64 : 4, false)) return false;
    if (pat == VM_PAT_CONSEC) {
        memcpy(t, (const void *)(uintptr_t)b, 64);
        return true;
    }
    uint32_t v;
    memcpy(&v, (const void *)(uintptr_t)b, 4);
    for (int j = 0; j < VM_HALF; j++) t[j] = v;
    return true;
}

static inline bool vm_ldg4_full(const vm_arena *ar, const uint64_t *a, uint64_t off, uint32_t *d) {
    uint32_t t[VM_LANES];
    if (!ldg4_half(ar, a, off, t) || !ldg4_half(ar, a + VM_HALF, off, t + VM_HALF)) return false;
    memcpy(d, t, sizeof t);
    return true;
}

/* A whole-warp global access by warp `wid` at b0 (lanes 0-15) and b1 (16-31):
 * when the previous warp ran the same record, the next warp probably reads
 * as far from here as this one from there; start fetching its lines now.
 * When this warp itself ran it last (a loop, a grid-stride loop's stride of
 * the whole grid, too far apart for the host's own prefetcher), it
 * probably reads as far again in each coming iteration: fetch two ahead.
 * A prefetch never faults, so a wrong guess costs only the fetch. */
static inline void vm_prefetch_next_warp(vm_cta *cta, uint32_t wid, const vm_insn *i, uint64_t b0, uint64_t b1) {
    struct vm_pf *s = &cta->pf[((uintptr_t)i >> 6) & 7];
    if (s->rec == i && (s->warp + 1 == wid || s->warp == wid)) {
        uint64_t d = (b0 - s->addr) << (s->warp == wid);
        __builtin_prefetch((const void *)(uintptr_t)(b0 + d));
        __builtin_prefetch((const void *)(uintptr_t)(b0 + d + 63));
        __builtin_prefetch((const void *)(uintptr_t)(b1 + d));
        __builtin_prefetch((const void *)(uintptr_t)(b1 + d + 63));
    }
    s->rec = i;
    s->addr = b0;
    s->warp = wid;
}

/* Both halves consecutive: two 64-byte copies, in lane order as for shared. */
static inline bool vm_stg4_full(const vm_arena *ar, const uint64_t *a, uint64_t off, const uint32_t *v) {
    uint64_t b0 = a[0] + off, b1 = a[VM_HALF] + off;
    if (vm_pat64(a) != VM_PAT_CONSEC || vm_pat64(a + VM_HALF) != VM_PAT_CONSEC || (b0 | b1) & 3 ||
        !vm_arena_ok(ar, b0, 64, true) || !vm_arena_ok(ar, b1, 64, true))
        return false;
    memcpy((void *)(uintptr_t)b0, v, 64);
    memcpy((void *)(uintptr_t)b1, v + VM_HALF, 64);
    return true;
}

/* 4-byte shared and global accesses of the lanes m, any pattern: one pass
 * checks every lane (bounds, alignment; for global memory the shadow, and
 * for a store not read-only); false when any lane is bad (vm_ld / vm_st then
 * report it), else the plain gather or scatter. A few lanes (a lane-0
 * epilogue) check only those. */
static inline bool vm_sh4_ok(const vm_cta *cta, const uint32_t *a, uint32_t off, uint32_t m) {
    uint32_t bad = 0, lim = cta->smem_size - 4;
    for (int l = 0; l < VM_LANES; l++) {
        uint32_t ad = a[l] + off;
        bad |= ((ad & 3) | (uint32_t)(ad > lim)) & (0u - (m >> l & 1)); /* lane l's bit only */
    }
    return !bad && cta->smem_size >= 4;
}
#define VM_MLANES(m, stmt)                                                   \
    do {                                                                     \
        if ((m) == VM_FULL) {                                                \
            for (int l = 0; l < VM_LANES; l++) { stmt; }                     \
        } else                                                               \
            for (uint32_t r_ = (m); r_; r_ &= r_ - 1) {                      \
                int l = __builtin_ctz(r_);                                   \
                stmt;                                                        \
            }                                                                \
    } while (0)
static inline bool vm_lds4_part(const vm_cta *cta, const uint32_t *a, uint32_t off, uint32_t *d, uint32_t m) {
    if (!vm_sh4_ok(cta, a, off, m)) return false;
    const uint32_t *sw = (const uint32_t *)cta->smem;
    VM_MLANES(m, d[l] = sw[(a[l] + off) >> 2]);
    return true;
}
static inline bool vm_sts4_part(const vm_cta *cta, const uint32_t *a, uint32_t off, const uint32_t *v, uint32_t m) {
    if (!vm_sh4_ok(cta, a, off, m)) return false;
    uint32_t *sw = (uint32_t *)cta->smem;
    VM_MLANES(m, sw[(a[l] + off) >> 2] = v[l]);
    return true;
}
static inline bool vm_g4_ok(const vm_arena *ar, const uint64_t *a, uint64_t off, uint32_t m, bool wr) {
    uint32_t ok = 0;
#define G4_OK(l)                                                                                                 \
    do {                                                                                                         \
        uint64_t ad = a[l] + off;                                                                                \
        uint8_t sh = vm_shadow(ar, ad);                                                                          \
        ok |= (uint32_t)(!(ad & 3) && sh != VM_SH_NONE && (!wr || (sh != VM_SH_CONST && sh != VM_SH_PARAM))) << (l); \
    } while (0)
    if (__builtin_popcount(m) <= 4)
        for (uint32_t r = m; r; r &= r - 1) G4_OK(__builtin_ctz(r));
    else
        for (int l = 0; l < VM_LANES; l++) G4_OK(l);
#undef G4_OK
    return (ok & m) == m;
}
static inline bool vm_ldg4_part(const vm_arena *ar, const uint64_t *a, uint64_t off, uint32_t *d, uint32_t m) {
    if (!vm_g4_ok(ar, a, off, m, false)) return false;
    VM_MLANES(m, d[l] = *(const uint32_t *)(uintptr_t)(a[l] + off));
    return true;
}
static inline bool vm_stg4_part(const vm_arena *ar, const uint64_t *a, uint64_t off, const uint32_t *v, uint32_t m) {
    if (!vm_g4_ok(ar, a, off, m, true)) return false;
    VM_MLANES(m, *(uint32_t *)(uintptr_t)(a[l] + off) = v[l]);
    return true;
}

/* A strong load or store (VM_F_STRONG): p is aligned to n (xlate checked). */
static inline uint64_t load_strong(const uint8_t *p, unsigned n) {
    switch (n) {
    case 1: return __atomic_load_n(p, __ATOMIC_ACQUIRE);
    case 2: return __atomic_load_n((const uint16_t *)p, __ATOMIC_ACQUIRE);
    case 4: return __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE);
    default: return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
    }
}

static inline void store_strong(uint8_t *p, unsigned n, uint64_t v) {
    switch (n) {
    case 1: __atomic_store_n(p, (uint8_t)v, __ATOMIC_RELEASE); break;
    case 2: __atomic_store_n((uint16_t *)p, (uint16_t)v, __ATOMIC_RELEASE); break;
    case 4: __atomic_store_n((uint32_t *)p, (uint32_t)v, __ATOMIC_RELEASE); break;
    default: __atomic_store_n((uint64_t *)p, v, __ATOMIC_RELEASE); break;
    }
}

static inline uint64_t load_bits(const uint8_t *p, unsigned n, bool sgn) {
    switch (n) {
    case 1: return sgn ? (uint64_t)(int64_t) * (const int8_t *)p : *p;
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return sgn ? (uint64_t)(int64_t)(int16_t)v : v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return sgn ? (uint64_t)(int64_t)(int32_t)v : v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

static inline void store_bits(uint8_t *p, unsigned n, uint64_t v) {
    switch (n) {
    case 1: *p = (uint8_t)v; break;
    case 2: {
        uint16_t t = (uint16_t)v;
        memcpy(p, &t, 2);
        break;
    }
    case 4: {
        uint32_t t = (uint32_t)v;
        memcpy(p, &t, 4);
        break;
    }
    default: memcpy(p, &v, 8); break;
    }
}

static inline void put_reg(uint8_t *fb, uint32_t off, uint8_t kind, int l, uint64_t v) {
    if (kind == VM_K_R64) ((uint64_t *)(fb + off))[l] = v;
    else if (kind != VM_K_SINK) ((uint32_t *)(fb + off))[l] = (uint32_t)v;
}

static inline uint64_t get_reg(const uint8_t *fb, uint32_t off, uint8_t kind, int l) {
    return kind == VM_K_R64 ? ((const uint64_t *)(fb + off))[l] : ((const uint32_t *)(fb + off))[l];
}

static inline bool vm_ld(vm_warp *w, vm_frame *fr, uint8_t *fb, const vm_insn *i, uint32_t m) {
    unsigned n = i->sz;
    uint8_t kind = i->flags & VM_F_D64 ? VM_K_R64 : VM_K_R32;
    bool sgn = i->flags & VM_F_SIGNED;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint8_t *p = xlate(w, fb, i, l, lane_addr(fr, fb, i, l), n, false);
            if (!p) return false;
            uint64_t v;
            if (i->flags & VM_F_STRONG) { /* sign-extended as load_bits does */
                v = load_strong(p, n);
                if (sgn && n < 8) v = (uint64_t)((int64_t)(v << (64 - 8 * n)) >> (64 - 8 * n));
            } else v = load_bits(p, n, sgn);
            put_reg(fb, i->d, kind, l, v);
        }
    return true;
}

static inline bool vm_st(vm_warp *w, vm_frame *fr, uint8_t *fb, const vm_insn *i, uint32_t m) {
    unsigned n = i->sz;
    uint8_t kind = i->flags & VM_F_D64 ? VM_K_R64 : VM_K_R32;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint8_t *p = xlate(w, fb, i, l, lane_addr(fr, fb, i, l), n, true);
            if (!p) return false;
            if (i->flags & VM_F_STRONG) store_strong(p, n, get_reg(fb, i->b, kind, l));
            else store_bits(p, n, get_reg(fb, i->b, kind, l));
        }
    return true;
}

/* A ld/st.global.v1/.v2/.v4 of 32-bit elements whose executing lanes m
 * address one contiguous, aligned run (lane l at a[0] + l * the vector's
 * size), as Triton's loads and stores do (masked ones too, `{ %r }` the
 * single-element form it writes): one check per granule of the lanes' span
 * and a strided copy. Returns the address lane 0's element would have; NULL
 * when the access is not of that kind, or any byte of the span is not
 * accessible (the per-lane path then reports the lane). */
static inline uint8_t *vec_run(const vm_arena *ar, const uint8_t *fb, const vm_insn *i, const vm_vec *v, uint32_t m,
                               bool wr) {
    if (i->sp != VM_SP_GLOBAL || i->sz != 4 || (v->n != 1 && v->n != 2 && v->n != 4) ||
        (i->flags & (VM_F_BASE_REG64 | VM_F_FRAME_SYM | VM_F_PARAM_SYM)) != VM_F_BASE_REG64)
        return NULL;
    for (uint32_t k = 0; k < v->n; k++)
        if (v->e[k].kind != VM_K_R32) return NULL;
    const uint64_t *a = (const uint64_t *)(fb + i->a);
    uint64_t stride = 4 * v->n, b = a[0] + (uint64_t)i->imm, bad = b & (stride - 1);
    if (m == VM_FULL) {
        for (int l = 1; l < VM_LANES; l++) bad |= a[l] - a[0] - (uint64_t)l * stride;
        if (bad) return NULL;
        return vm_arena_ok(ar, b, VM_LANES * stride, wr) ? (uint8_t *)(uintptr_t)b : NULL;
    }
    for (int l = 1; l < VM_LANES; l++) bad |= (a[l] - a[0] - (uint64_t)l * stride) & (uint64_t) - (int64_t)(m >> l & 1);
    if (bad || !m) return NULL;
    int lo = __builtin_ctz(m), hi = 31 - __builtin_clz(m);
    return vm_arena_ok(ar, b + (uint64_t)lo * stride, (uint64_t)(hi - lo + 1) * stride, wr) ? (uint8_t *)(uintptr_t)b
                                                                                            : NULL;
}

/* stmt for every lane with the run's element count N_ a constant (1, 2 or 4,
 * vec_run's): a variable stride kept the copy a scalar loop, a fifth of the
 * Triton layer norm's time. */
#define VEC_RUN_LANES(n, stmt)                                          \
    do {                                                                \
        if ((n) == 1) {                                                 \
            enum { N_ = 1 };                                            \
            for (int l = 0; l < VM_LANES; l++) { stmt; }                \
        } else if ((n) == 2) {                                          \
            enum { N_ = 2 };                                            \
            for (int l = 0; l < VM_LANES; l++) { stmt; }                \
        } else {                                                        \
            enum { N_ = 4 };                                            \
            for (int l = 0; l < VM_LANES; l++) { stmt; }                \
        }                                                               \
    } while (0)

static inline bool vm_ldv(vm_warp *w, vm_frame *fr, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const vm_vec *v = i->p;
    unsigned n = i->sz;
    bool sgn = i->flags & VM_F_SIGNED;
    const uint32_t *run = (const uint32_t *)vec_run(w->cta->grid->cfg->kernel->prog->rt->arena, fb, i, v, m, false);
    if (run) {
        for (uint32_t k = 0; k < v->n; k++) {
            uint32_t *d = (uint32_t *)(fb + v->e[k].off);
            if (m == VM_FULL) VEC_RUN_LANES(v->n, d[l] = run[(uint32_t)l * N_ + k]);
            else
                for (uint32_t r = m; r; r &= r - 1) {
                    int l = __builtin_ctz(r);
                    d[l] = run[(uint32_t)l * v->n + k];
                }
        }
        return true;
    }
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint8_t *p = xlate(w, fb, i, l, lane_addr(fr, fb, i, l), n * v->n, false);
            if (!p) return false;
            for (uint32_t k = 0; k < v->n; k++) put_reg(fb, v->e[k].off, v->e[k].kind, l, load_bits(p + k * n, n, sgn));
        }
    return true;
}

static inline bool vm_stv(vm_warp *w, vm_frame *fr, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const vm_vec *v = i->p;
    unsigned n = i->sz;
    uint32_t *run = (uint32_t *)vec_run(w->cta->grid->cfg->kernel->prog->rt->arena, fb, i, v, m, true);
    if (run) {
        for (uint32_t k = 0; k < v->n; k++) {
            const uint32_t *s = (const uint32_t *)(fb + v->e[k].off);
            if (m == VM_FULL) VEC_RUN_LANES(v->n, run[(uint32_t)l * N_ + k] = s[l]);
            else
                for (uint32_t r = m; r; r &= r - 1) {
                    int l = __builtin_ctz(r);
                    run[(uint32_t)l * v->n + k] = s[l];
                }
        }
        return true;
    }
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint8_t *p = xlate(w, fb, i, l, lane_addr(fr, fb, i, l), n * v->n, true);
            if (!p) return false;
            for (uint32_t k = 0; k < v->n; k++)
                if (v->e[k].kind != VM_K_SINK) store_bits(p + k * n, n, get_reg(fb, v->e[k].off, v->e[k].kind, l));
        }
    return true;
}

/* f32 atomic add on the GPU rounds to nearest and flushes subnormal inputs
 * and results to sign-preserving zero. */
static inline float ftz32(float x) {
    union {
        float f;
        uint32_t u;
    } v = {x};
    if ((v.u & 0x7f800000u) == 0) v.u &= 0x80000000u;
    return v.f;
}

#define ATOM_CAS_LOOP(T, UT, p, NEWEXPR)                                                                       \
    do {                                                                                                       \
        UT o_ = __atomic_load_n((UT *)(p), __ATOMIC_RELAXED), n_;                                              \
        T ov_, nv_;                                                                                            \
        do {                                                                                                   \
            memcpy(&ov_, &o_, sizeof o_);                                                                      \
            nv_ = (NEWEXPR);                                                                                   \
            memcpy(&n_, &nv_, sizeof n_);                                                                      \
        } while (!__atomic_compare_exchange_n((UT *)(p), &o_, n_, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)); \
        old = o_;                                                                                              \
    } while (0)

/* The integer operations of one width: U unsigned, S signed, SIGNED the type
 * code that makes min/max signed. */
#define ATOM_INT(U, S, SIGNED)                                                                     \
    do {                                                                                           \
        U *q = (U *)p, bv = (U)b;                                                                  \
        switch (op) {                                                                              \
        case VM_AO_ADD: return __atomic_fetch_add(q, bv, __ATOMIC_SEQ_CST);                        \
        case VM_AO_AND: return __atomic_fetch_and(q, bv, __ATOMIC_SEQ_CST);                        \
        case VM_AO_OR: return __atomic_fetch_or(q, bv, __ATOMIC_SEQ_CST);                          \
        case VM_AO_XOR: return __atomic_fetch_xor(q, bv, __ATOMIC_SEQ_CST);                        \
        case VM_AO_EXCH: return __atomic_exchange_n(q, bv, __ATOMIC_SEQ_CST);                      \
        case VM_AO_CAS: {                                                                          \
            U e = bv;                                                                              \
            __atomic_compare_exchange_n(q, &e, (U)c, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
            return e;                                                                              \
        }                                                                                          \
        case VM_AO_MIN:                                                                            \
            if (ty == SIGNED) ATOM_CAS_LOOP(S, U, p, ov_ < (S)bv ? ov_ : (S)bv);                   \
            else ATOM_CAS_LOOP(U, U, p, ov_ < bv ? ov_ : bv);                                      \
            return old;                                                                            \
        case VM_AO_MAX:                                                                            \
            if (ty == SIGNED) ATOM_CAS_LOOP(S, U, p, ov_ > (S)bv ? ov_ : (S)bv);                   \
            else ATOM_CAS_LOOP(U, U, p, ov_ > bv ? ov_ : bv);                                      \
            return old;                                                                            \
        case VM_AO_INC: ATOM_CAS_LOOP(U, U, p, ov_ >= bv ? 0 : ov_ + 1); return old;               \
        case VM_AO_DEC: ATOM_CAS_LOOP(U, U, p, (ov_ == 0 || ov_ > bv) ? bv : ov_ - 1); return old; \
        }                                                                                          \
        return old;                                                                                \
    } while (0)

/* One lane's atomic. Returns the old value. `h` computes 16-bit float
 * operations (the ALU's add/min/max for f16, bf16 and their x2 forms). */
static inline uint64_t atom_lane(uint8_t *p, unsigned op, unsigned ty, uint64_t b, uint64_t c, const alu_op *h) {
    uint64_t old = 0;
    if (ty == VM_AT_F16 || ty == VM_AT_BF16) {
        uint16_t o = __atomic_load_n((uint16_t *)p, __ATOMIC_RELAXED), n;
        do {
            uint64_t s[2] = {o, b & 0xffff}, d[2] = {0, 0};
            uint32_t cc = 0;
            h->fn(h, d, s, &cc);
            n = (uint16_t)d[0];
        } while (!__atomic_compare_exchange_n((uint16_t *)p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
        return o;
    }
    if (ty == VM_AT_F16X2 || ty == VM_AT_BF16X2) {
        uint32_t o = __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED), n;
        do {
            uint64_t s[2] = {o, b & 0xffffffffu}, d[2] = {0, 0};
            uint32_t cc = 0;
            h->fn(h, d, s, &cc);
            n = (uint32_t)d[0];
        } while (!__atomic_compare_exchange_n((uint32_t *)p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
        return o;
    }
    if (ty == VM_AT_B16) {
        uint16_t e = (uint16_t)b;
        if (op == VM_AO_EXCH) return __atomic_exchange_n((uint16_t *)p, e, __ATOMIC_SEQ_CST);
        __atomic_compare_exchange_n((uint16_t *)p, &e, (uint16_t)c, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        return e;
    }
    bool wide = ty == VM_AT_U64 || ty == VM_AT_S64 || ty == VM_AT_F64;
    if (ty == VM_AT_F32 && op == VM_AO_ADD) {
        float fb_;
        uint32_t bb = (uint32_t)b;
        memcpy(&fb_, &bb, 4);
        ATOM_CAS_LOOP(float, uint32_t, p, ftz32(ftz32(ov_) + ftz32(fb_)));
        return old;
    }
    if (ty == VM_AT_F64 && op == VM_AO_ADD) {
        double fb_;
        memcpy(&fb_, &b, 8);
        ATOM_CAS_LOOP(double, uint64_t, p, ov_ + fb_);
        return old;
    }
    if (!wide) ATOM_INT(uint32_t, int32_t, VM_AT_S32);
    ATOM_INT(uint64_t, int64_t, VM_AT_S64);
}

/* atom / red: lanes in lane order; d is a sink for red. A CTA's shared
 * memory is only ever touched by the host thread running the CTA (a
 * cluster's CTAs too), so atom.shared.add of 32-bit integers, the counters
 * and histograms, needs no host atomic: a plain read-modify-write. The
 * plain case: */
static inline bool vm_atom_plain(const vm_insn *i) {
    unsigned op = i->x >> 8, ty = i->x & 0xff;
    return i->sp == VM_SP_SHARED && i->flags & VM_F_BASE_REG32 && op == VM_AO_ADD &&
           (ty == VM_AT_U32 || ty == VM_AT_S32) && !(i->flags & (VM_F_FRAME_SYM | VM_F_PARAM_SYM));
}
/* ... whose value and destination are 32-bit registers (or the sink `_`):
 * the vectorizable case below, and jit.c's inline template. */
static inline bool vm_atom_plain_regs(const vm_insn *i) {
    const vm_alu *ops = i->p;
    return vm_atom_plain(i) && ops->s[0].kind == VM_K_R32 &&
           (ops->d[0].kind == VM_K_R32 || ops->d[0].kind == VM_K_SINK);
}

static inline bool vm_atom(vm_warp *w, vm_frame *fr, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const vm_alu *ops = i->p; /* d[0] destination, s[0] value, s[1] compare/swap value */
    unsigned op = i->x >> 8, ty = i->x & 0xff, n = i->sz;
    vm_cta *cta = w->cta;
    bool plain = vm_atom_plain(i);
    if (vm_atom_plain_regs(i)) {
        /* every lane's word checked first (vectorizes), then the adds in
         * lane order: colliding lanes see each other's sums */
        const uint32_t *ad = (const uint32_t *)(fb + i->a), *v = (const uint32_t *)(fb + ops->s[0].off);
        uint32_t bad = 0, off = (uint32_t)i->imm, size = cta->smem_size;
        for (int l = 0; l < VM_LANES; l++) {
            uint32_t a = ad[l] + off;
            bad |= (uint32_t)((a & 3) || (uint64_t)a + 4 > size) << l;
        }
        if (!(bad & m)) {
            uint32_t *d = ops->d[0].kind == VM_K_R32 ? (uint32_t *)(fb + ops->d[0].off) : NULL;
            for (uint32_t r = m; r; r &= r - 1) {
                int l = __builtin_ctz(r);
                uint32_t *q = (uint32_t *)(cta->smem + ad[l] + off), old = *q;
                *q = old + v[l];
                if (d) d[l] = old;
            }
            return true;
        }
    }
    if (i->sp == VM_SP_GLOBAL && i->flags & VM_F_BASE_REG64 && op == VM_AO_ADD && (ty == VM_AT_U32 || ty == VM_AT_S32) &&
        !(i->flags & (VM_F_FRAME_SYM | VM_F_PARAM_SYM)) && ops->s[0].kind == VM_K_R32 &&
        (ops->d[0].kind == VM_K_R32 || ops->d[0].kind == VM_K_SINK)) {
        /* atom.global.add.u32: when every lane's word is where xlate finds it
         * at once (aligned, inside the arena, writable), the host atomics in
         * lane order; otherwise the lane-by-lane way below reports */
        const uint64_t *ad = (const uint64_t *)(fb + i->a);
        const uint32_t *v = (const uint32_t *)(fb + ops->s[0].off);
        const vm_arena *arena = cta->grid->cfg->kernel->prog->rt->arena;
        uint32_t bad = 0;
        for (uint32_t r = m; r; r &= r - 1) {
            uint64_t a = ad[__builtin_ctz(r)] + (uint64_t)i->imm;
            bad |= (a & 3) || !vm_arena_ok(arena, a, 4, true);
        }
        if (!bad) {
            uint32_t *d = ops->d[0].kind == VM_K_R32 ? (uint32_t *)(fb + ops->d[0].off) : NULL;
            for (uint32_t r = m; r; r &= r - 1) {
                int l = __builtin_ctz(r);
                uint32_t old = __atomic_fetch_add((uint32_t *)(uintptr_t)(ad[l] + (uint64_t)i->imm), v[l], __ATOMIC_SEQ_CST);
                if (d) d[l] = old;
            }
            return true;
        }
    }
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint32_t a = plain ? ((const uint32_t *)(fb + i->a))[l] + (uint32_t)i->imm : 1;
            if (!(a & 3) && (uint64_t)a + 4 <= cta->smem_size) { /* else the checked way */
                uint32_t *q = (uint32_t *)(cta->smem + a), old = *q;
                *q = old + (uint32_t)get_reg(fb, ops->s[0].off, ops->s[0].kind, l);
                put_reg(fb, ops->d[0].off, ops->d[0].kind, l, old);
                continue;
            }
            uint8_t *p = xlate(w, fb, i, l, lane_addr(fr, fb, i, l), n, true);
            if (!p) return false;
            if (ty == VM_AT_B128) { /* registers of two 64-bit halves (vm.h) */
                const uint64_t *bs = (const uint64_t *)(fb + ops->s[0].off),
                               *cs = (const uint64_t *)(fb + ops->s[1].off);
                uint64_t b2[2] = {bs[l], bs[l + VM_LANES]}, c2[2] = {0, 0}, o2[2];
                if (op == VM_AO_CAS) c2[0] = cs[l], c2[1] = cs[l + VM_LANES];
                vm_atom128(p, op, b2, c2, o2);
                if (ops->d[0].kind == VM_K_R128) {
                    uint64_t *d = (uint64_t *)(fb + ops->d[0].off);
                    d[l] = o2[0], d[l + VM_LANES] = o2[1];
                }
                continue;
            }
            uint64_t b = get_reg(fb, ops->s[0].off, ops->s[0].kind, l);
            uint64_t c = op == VM_AO_CAS ? get_reg(fb, ops->s[1].off, ops->s[1].kind, l) : 0;
            uint64_t old = atom_lane(p, op, ty, b, c, &ops->op);
            put_reg(fb, ops->d[0].off, ops->d[0].kind, l, old);
        }
    return true;
}

/* alloca / stacksave / stackrestore on the per-lane local stack. */
static inline bool vm_stackop(vm_warp *w, vm_frame *fr, uint8_t *fb, const vm_insn *i, uint32_t m) {
    (void)fr;
    uint8_t kind = i->flags & VM_F_D64 ? VM_K_R64 : VM_K_R32;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            if (i->op == VM_STACKSAVE) {
                put_reg(fb, i->d, kind, l, w->lsp[l]);
            } else if (i->op == VM_STACKRESTORE) {
                w->lsp[l] = (uint32_t)get_reg(fb, i->a, kind, l);
            } else {
                uint64_t size = get_reg(fb, i->a, kind, l);
                uint32_t align = i->imm > 0 ? (uint32_t)i->imm : 8;
                uint64_t at = ((uint64_t)w->lsp[l] + align - 1) & ~(uint64_t)(align - 1);
                if (at + size > w->local_stride) {
                    vm_fault_at(w, i, l, PTXI_ILLEGAL_ADDRESS, "alloca of %llu bytes overflows the %u-byte stack",
                                (unsigned long long)size, w->local_stride);
                    return false;
                }
                w->lsp[l] = (uint32_t)(at + size);
                put_reg(fb, i->d, kind, l, at);
            }
        }
    return true;
}

static inline bool vm_isspace(vm_warp *w, int sp, uint64_t a) {
    vm_arena *arena = w->cta->grid->cfg->kernel->prog->rt->arena;
    switch (sp) {
    case VM_SP_SHARED: return a - vm_shared_win < w->cta->smem_full;
    case VM_SP_LOCAL: return a - vm_local_win < w->local_stride;
    case VM_SP_CONST: return vm_shadow(arena, a) == VM_SH_CONST;
    /* On an H100 the generic address of a kernel parameter (__grid_constant__)
     * is a global address and not a .param one (ptx-samples/state_spaces). */
    case VM_SP_KPARAM: return false;
    default: {
        uint8_t s = vm_shadow(arena, a);
        return s == VM_SH_GLOBAL || s == VM_SH_HEAP || s == VM_SH_MANAGED || s == VM_SH_PARAM ||
               vm_arena_external(arena, a, 1) || vm_arena_peer_ok(arena, a, 1, false);
    }
    }
}

#endif
