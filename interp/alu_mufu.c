/* alu_mufu.c — rcp/rsqrt/sqrt/ex2/lg2/sin/cos/tanh.approx.f32 as an H100/H200
 * gives them. Each function's results over the inputs that determine it were
 * recorded on the GPU (gpu/jobs/mufu_dump) and are embedded compressed
 * (interp/mufu/NAME.d32.zst); everything else follows from them by the rules
 * measured there (ALU.md): exponent scaling, ex2's fixed-point input, lg2's
 * truncated sum, the quarter-turn symmetry of sin/cos, tanh's input precision.
 * The build cuts each recording into independent slices (mufu/mufu_seg.c);
 * a slice is unpacked on its first use, so a small kernel pays for the few
 * slices its inputs touch, not for the whole tables. */
#include "alu_mufu.h"
#include "alu_mufu_seg.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* ---- embedded recordings ---- */

#define MUFU_TABLES(X) X(rcp) X(rsqrt) X(sqrt) X(ex2) X(lg2_1) X(lg2_05) X(tanh) X(sin)

/* NAME.seg is NAME.d32.zst cut at build time (mufu/mufu_seg.c) into one zstd
 * frame per MUFU_SEG results, after an index of the frames. */
#define MUFU_BLOB(name)                                                           \
    extern const unsigned char alu_mufu_z_##name[], alu_mufu_z_##name##_end[];    \
    __asm__(".pushsection .rodata\n.balign 16\n"                                  \
            ".globl alu_mufu_z_" #name "\n.hidden alu_mufu_z_" #name "\n"         \
            "alu_mufu_z_" #name ":\n.incbin \"" #name ".seg\"\n"                  \
            ".globl alu_mufu_z_" #name "_end\n.hidden alu_mufu_z_" #name "_end\n" \
            "alu_mufu_z_" #name "_end:\n.popsection\n");
MUFU_TABLES(MUFU_BLOB)

#define MUFU_ENUM(name) T_##name,
enum { MUFU_TABLES(MUFU_ENUM) T_COUNT };

static const unsigned char *const blob[T_COUNT] = {
#define MUFU_BLOB_REF(name) alu_mufu_z_##name,
    MUFU_TABLES(MUFU_BLOB_REF)};
static const unsigned char *const blob_end[T_COUNT] = {
#define MUFU_BLOB_END(name) alu_mufu_z_##name##_end,
    MUFU_TABLES(MUFU_BLOB_END)};
static const char *const tab_name[T_COUNT] = {
#define MUFU_NAME(name) #name,
    MUFU_TABLES(MUFU_NAME)};

/* ---- unpacked slices ---- */

enum { BLOCK_LOG = 8, BLOCK = 1 << BLOCK_LOG, SEG_BLOCKS = MUFU_SEG / BLOCK, MAX_SEGS = (1u << 24) / MUFU_SEG };

typedef struct {
    uint32_t base;  /* value at the block's start, less the smallest correction */
    int32_t slope;  /* per step, in 2^-16 units of the result bits */
    uint32_t width; /* bits per correction */
    uint32_t off;   /* bit offset of the block's corrections */
} mufu_block;

/* One slice of MUFU_SEG results: blocks of 256, each a line through its first
 * and last result plus bit-packed corrections. */
typedef struct {
    mufu_block blk[SEG_BLOCKS];
    uint8_t *bits;
} mufu_seg;

static _Atomic(mufu_seg *) segs[T_COUNT][MAX_SEGS];
static pthread_mutex_t seg_lock = PTHREAD_MUTEX_INITIALIZER;

static inline uint32_t seg_get(const mufu_seg *sg, uint32_t j0) {
    const mufu_block *b = &sg->blk[j0 >> BLOCK_LOG];
    uint32_t j = j0 & (BLOCK - 1), pos = b->off + j * b->width;
    uint64_t w;
    memcpy(&w, sg->bits + (pos >> 3), 8);
    uint32_t corr = b->width ? (uint32_t)(w >> (pos & 7)) & (uint32_t)(~0ull >> (64 - b->width)) : 0;
    return b->base + (uint32_t)(int32_t)(((int64_t)b->slope * j) >> 16) + corr;
}

static _Noreturn void fail(const char *name, const char *why) {
    fprintf(stderr, "ptxi: approximation table %s: %s\n", name, why);
    abort();
}

/* 32 corrections of width w into w words at p: with w a constant every
 * shift is one and no branch depends on the data (a loop through a register
 * mispredicted its flushes; an or into memory per result waited on the
 * previous one's store). */
static inline __attribute__((always_inline)) void pack32(uint8_t *p, const uint32_t *c, const unsigned w) {
    uint64_t acc = 0;
    unsigned nb = 0, o = 0;
#pragma GCC unroll 32
    for (unsigned k = 0; k < 32; k++) {
        acc |= (uint64_t)c[k] << nb;
        nb += w;
        if (nb >= 32) {
            uint32_t x = (uint32_t)acc;
            memcpy(p + 4 * o++, &x, 4);
            acc >>= 32, nb -= 32;
        }
    }
}

static void pack_groups(uint8_t *p, const uint32_t *c, uint32_t groups, unsigned w) {
    switch (w) {
#define PACK_W(n)                                                             \
    case n:                                                                   \
        for (uint32_t g = 0; g < groups; g++) pack32(p + 4 * (n) * g, c + 32 * g, (n)); \
        return;
#define PACK_W8(n) PACK_W(n) PACK_W(n + 1) PACK_W(n + 2) PACK_W(n + 3) PACK_W(n + 4) PACK_W(n + 5) PACK_W(n + 6) PACK_W(n + 7)
        PACK_W8(1) PACK_W8(9) PACK_W8(17) PACK_W8(25)
#undef PACK_W8
#undef PACK_W
    }
}

/* Packs one block of results v[0..cnt): a line through the first and last
 * and the corrections, in whole groups of 32 (so every block starts on a
 * 32-bit boundary). */
static void pack_block(mufu_seg *sg, const char *name, uint32_t bi, const uint32_t *v, uint32_t cnt, size_t *cap,
                       uint32_t *used) {
    int64_t slope = cnt > 1 ? (((int64_t)v[cnt - 1] - (int64_t)v[0]) * 65536) / (cnt - 1) : 0;
    if (slope > INT32_MAX || slope < INT32_MIN) slope = 0;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (uint32_t j = 0; j < cnt; j++) {
        int64_t d = (int64_t)v[j] - (int64_t)v[0] - ((slope * j) >> 16);
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
    }
    uint32_t width = 0;
    while (width < 32 && (uint64_t)(hi - lo) >> width) width++;
    mufu_block *b = &sg->blk[bi];
    b->base = (uint32_t)((int64_t)v[0] + lo);
    b->slope = (int32_t)slope;
    b->width = width;
    b->off = *used;
    uint32_t groups = (cnt + 31) / 32; /* a short block's last group padded with zeros */
    size_t need = (size_t)*used / 8 + (size_t)groups * 4 * width + 8; /* seg_get reads 8 bytes */
    if (need > *cap) {
        size_t old = *cap;
        while (need > *cap) *cap *= 2;
        sg->bits = realloc(sg->bits, *cap);
        if (!sg->bits) fail(name, "out of memory");
        memset(sg->bits + old, 0, *cap - old);
    }
    if (!width) return;
    uint32_t c[BLOCK]; /* the corrections, each below 2^width */
    for (uint32_t j = 0; j < cnt; j++) c[j] = (uint32_t)((int64_t)v[j] - (int64_t)v[0] - ((slope * j) >> 16) - lo);
    memset(c + cnt, 0, (groups * 32 - cnt) * sizeof *c);
    pack_groups(sg->bits + (*used >> 3), c, groups, width);
    *used += 32 * width * groups;
}

static uint32_t rd32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Table `which`'s number of results, its index checked. */
static uint32_t seg_count(int which) {
    const unsigned char *z = blob[which];
    size_t zn = (size_t)(blob_end[which] - z);
    if (zn < 12) fail(tab_name[which], "embedded data corrupt");
    uint32_t n = rd32(z), nseg = rd32(z + 4);
    if (n > 1u << 24 || nseg != (n + MUFU_SEG - 1) / MUFU_SEG || 4 * (3 + 2 * (size_t)nseg) > zn)
        fail(tab_name[which], "embedded data corrupt");
    return n;
}

/* The cnt results v packed block by block. */
static mufu_seg *pack_seg(const char *name, const uint32_t *v, uint32_t cnt) {
    mufu_seg *sg = calloc(1, sizeof *sg);
    size_t cap = cnt / 4 + 64; /* ~1-2 bits per result are typical */
    if (!sg || !(sg->bits = calloc(cap, 1))) fail(name, "out of memory");
    uint32_t used = 0;
    for (uint32_t b0 = 0; b0 < cnt; b0 += BLOCK)
        pack_block(sg, name, b0 >> BLOCK_LOG, v + b0, cnt - b0 < BLOCK ? cnt - b0 : BLOCK, &cap, &used);
    uint8_t *fit = realloc(sg->bits, (used + 7) / 8 + 8); /* seg_get reads 8 bytes */
    if (fit) sg->bits = fit;
    return sg;
}

/* Decompresses slice s of table `which` (the caller holds seg_lock) (its
 * int32 differences, little-endian like the hosts ptxi runs on), sums them up
 * from the slice's starting value and packs them. */
static mufu_seg *unpack_seg(int which, uint32_t s) {
    const unsigned char *z = blob[which];
    const char *name = tab_name[which];
    uint32_t n = seg_count(which), nseg = rd32(z + 4);
    size_t head = 4 * (3 + 2 * (size_t)nseg), zn = (size_t)(blob_end[which] - z);
    if (s >= nseg) fail(name, "embedded data corrupt");
    uint32_t lo = rd32(z + 8 + 8 * (size_t)s), acc = rd32(z + 12 + 8 * (size_t)s), hi = rd32(z + 16 + 8 * (size_t)s);
    uint32_t cnt = n - s * MUFU_SEG < MUFU_SEG ? n - s * MUFU_SEG : MUFU_SEG;
    if (lo > hi || hi > zn - head) fail(name, "embedded data corrupt");
    static uint32_t v[MUFU_SEG]; /* callers hold seg_lock */
    static ZSTD_DCtx *dctx;
    if (!dctx && !(dctx = ZSTD_createDCtx())) fail(name, "out of memory");
    size_t got = ZSTD_decompressDCtx(dctx, v, (size_t)cnt * 4, z + head + lo, hi - lo);
    if (ZSTD_isError(got) || got != (size_t)cnt * 4) fail(name, "embedded data corrupt");
    for (uint32_t j = 0; j < cnt; j++) v[j] = acc += v[j];
    return pack_seg(name, v, cnt);
}

/* Result i of table `which`; a slice is unpacked on its first use. */
static uint32_t look(int which, uint32_t i) {
    uint32_t s = i >> MUFU_SEG_LOG;
    if (s >= MAX_SEGS) fail(tab_name[which], "index out of range");
    _Atomic(mufu_seg *) *slot = &segs[which][s];
    mufu_seg *sg = atomic_load_explicit(slot, memory_order_acquire);
    if (!sg) {
        pthread_mutex_lock(&seg_lock);
        sg = atomic_load_explicit(slot, memory_order_relaxed);
        if (!sg) {
            sg = unpack_seg(which, s);
            atomic_store_explicit(slot, sg, memory_order_release);
        }
        pthread_mutex_unlock(&seg_lock);
    }
    return seg_get(sg, i & (MUFU_SEG - 1));
}

/* ---- bit helpers ---- */

static inline float fl(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint32_t bt(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
enum { SIGN = 0x80000000u, INF = 0x7f800000u, NAN32 = 0x7fffffffu, ONE = 0x3f800000u };

/* Normalises a nonzero magnitude a (subnormal or normal): returns the 23-bit
 * fraction and sets *e to the unbiased exponent. */
static inline uint32_t split(uint32_t a, int *e) {
    if (a & INF) {
        *e = (int)(a >> 23) - 127;
        return a & 0x7fffff;
    }
    int sh = __builtin_clz(a) - 8;
    *e = -126 - sh;
    return (a << sh) & 0x7fffff;
}

/* Sign, biased exponent (may be <= 0) and fraction to f32 bits, rounding a
 * subnormal to nearest even. */
static inline uint32_t pack_rn(uint32_t s, int be, uint32_t frac) {
    if (be > 0) return s | (uint32_t)be << 23 | frac;
    int sh = 1 - be;
    if (sh > 25) return s;
    uint32_t m = frac | 0x800000, q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    return s | (q + (rem > half || (rem == half && (q & 1))));
}

/* An exact double value truncated to f32. */
static inline float rz32(double t) {
    float r = (float)t;
    return fabs((double)r) > fabs(t) ? nextafterf(r, 0) : r;
}

/* ---- the functions ---- */

static uint32_t mu_rcp(uint32_t x, bool ftz) {
    uint32_t s = x & SIGN, a = x & ~SIGN;
    if (a > INF) return NAN32;
    if (a == INF) return s;
    if (a == 0 || (ftz && !(a & INF))) return s | INF;
    int e;
    uint32_t r = look(T_rcp, split(a, &e));
    int be = (int)(r >> 23) - e;
    if (be >= 255) return s | INF;
    if (be <= 0 && ftz) return s;
    return pack_rn(s, be, r & 0x7fffff);
}

/* rsqrt and sqrt: the [1,4) table, exponent halved. */
static uint32_t mu_root(uint32_t x, bool ftz, bool sq) {
    uint32_t s = x & SIGN, a = x & ~SIGN;
    if (a > INF) return NAN32;
    if (ftz && !(a & INF)) a = 0;
    if (a == 0) return sq ? s : s | INF;
    if (s) return NAN32;
    if (a == INF) return sq ? INF : 0;
    int e;
    uint32_t frac = split(a, &e);
    uint32_t r = look(sq ? T_sqrt : T_rsqrt, (e & 1) << 23 | frac);
    int k = e >> 1; /* floor */
    return r + (uint32_t)((sq ? k : -k) * (1 << 23));
}

/* ex2: the operand becomes fixed point with 23 fraction bits, magnitude
 * truncated (|x| = mant * 2^(e-150), so floor(|x| * 2^23) is mant shifted by
 * e - 127); a negative one with a nonzero fraction is complemented (~, not
 * -); the fraction indexes the [1,2) table (*i) and the integer part gives
 * the result's biased exponent (returned). For a normal x with |x| < 128. */
static inline int ex2_index(uint32_t x, uint32_t *i) {
    uint32_t a = x & ~SIGN, mant = (a & 0x7fffff) | 0x800000;
    int sh = (int)(a >> 23) - 127;
    int64_t X = sh >= 0 ? (int64_t)mant << sh : sh > -32 ? (int64_t)(mant >> -sh) : 0;
    if (x & SIGN) X = X & 0x7fffff ? ~X : -X;
    *i = (uint32_t)(X & 0x7fffff);
    return (int)(X >> 23) + 127;
}
/* ex2.approx.ftz of the operands ex2_index does not take: true, *r set. */
static inline bool ex2_special(uint32_t x, uint32_t *r) {
    uint32_t a = x & ~SIGN;
    if (a > INF) *r = NAN32;
    else if (!(a & INF)) *r = ONE;
    else if (a >= 0x43000000u) *r = x & SIGN ? 0 : INF; /* |x| >= 128 */
    else return false;
    return true;
}
/* The result from ex2_index's exponent and the table's entry. */
static inline uint32_t ex2_pack(int be, uint32_t r) {
    return be >= 255 ? INF : be <= 0 ? 0 : (uint32_t)be << 23 | (r & 0x7fffff);
}
static uint32_t mu_ex2_ftz(uint32_t x) {
    uint32_t r, i;
    if (ex2_special(x, &r)) return r;
    int be = ex2_index(x, &i);
    return ex2_pack(be, look(T_ex2, i));
}
static uint32_t mu_ex2(uint32_t x, bool ftz) {
    if (ftz || !(fl(x) < -126.0f)) return mu_ex2_ftz(x);
    /* below -126 the full form squares 2^(x/2), rounding once to a subnormal */
    float y = fl(mu_ex2_ftz(bt(fl(x) * 0.5f)));
    return bt((float)((double)y * y));
}

/* ex2.approx of x[l] into d[l] for the lanes l of m, as mu_ex2 lane by lane:
 * every lane's index first, fetching its table entry, then the lookups, so
 * the lanes' cache misses overlap instead of following one another (the
 * table is megabytes, and Triton's softmax reads it at random). */
void alu_mufu_ex2_warp(const uint32_t *x, uint32_t *d, uint32_t m, bool ftz) {
    const mufu_seg *sg[32];
    uint32_t j[32], hi[32];
    uint8_t lane[32];
    uint32_t n = 0;
    for (; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint32_t v = x[l], i;
        if (!ftz && fl(v) < -126.0f) {
            d[l] = mu_ex2(v, false);
            continue;
        }
        if (ex2_special(v, &d[l])) continue;
        int be = ex2_index(v, &i);
        const mufu_seg *g = atomic_load_explicit(&segs[T_ex2][i >> MUFU_SEG_LOG], memory_order_acquire);
        if (!g) d[l] = ex2_pack(be, look(T_ex2, i)); /* unpacks the slice */
        else if (be <= 0 || be >= 255) d[l] = ex2_pack(be, 0);
        else {
            j[n] = i & (MUFU_SEG - 1), hi[n] = (uint32_t)be << 23, sg[n] = g, lane[n++] = (uint8_t)l;
            __builtin_prefetch(&g->blk[j[n - 1] >> BLOCK_LOG]);
        }
    }
    for (uint32_t k = 0; k < n; k++) {
        const mufu_block *b = &sg[k]->blk[j[k] >> BLOCK_LOG];
        __builtin_prefetch(sg[k]->bits + ((b->off + (j[k] & (BLOCK - 1)) * b->width) >> 3));
    }
    for (uint32_t k = 0; k < n; k++) d[lane[k]] = hi[k] | (seg_get(sg[k], j[k]) & 0x7fffff);
}

/* lg2: log2 of the fraction (the [1,2) table) plus the exponent, truncated.
 * Below 1 the sum cancels: [0.5,1) has its own table, and further down the
 * unit's fraction is known to lie above the [1,2) result exactly when the
 * [0.5,1) result says so, which decides the truncation when the sum is exact. */
static uint32_t mu_lg2_ftz(uint32_t x) {
    uint32_t a = x & ~SIGN;
    if (a > INF) return NAN32;
    if (!(a & INF)) return SIGN | INF;
    if (x & SIGN) return NAN32;
    if (a == INF) return INF;
    int e = (int)(a >> 23) - 127;
    uint32_t frac = a & 0x7fffff;
    if (e == -1) return look(T_lg2_05, frac);
    uint32_t l = look(T_lg2_1, frac);
    double t = e + (double)fl(l);
    float r = rz32(t);
    if (e < -1 && (double)r == t && (double)fl(look(T_lg2_05, frac)) != -1 + (double)fl(l)) r = nextafterf(r, 0);
    return bt(r);
}
static uint32_t mu_lg2(uint32_t x, bool ftz) {
    uint32_t a = x & ~SIGN;
    if (!ftz && a && (x & SIGN)) return NAN32;
    if (ftz || a == 0 || (a & INF)) return mu_lg2_ftz(ftz && !(a & INF) ? x & SIGN : x);
    /* subnormal, full form: scaled by 2^24 first, 24 subtracted after */
    float y = fl(mu_lg2_ftz(bt(fl(a) * 0x1p24f)));
    return bt((float)((double)y - 24));
}

/* sin/cos: turns t = |x| * 0x3e22f983 truncated to f32; its fraction on a grid
 * of 2^-25 turn, folded into the first quarter with the index complemented
 * (~) in odd quarters; cos is sin a quarter turn on; sin is odd. */
static uint32_t mu_sincos(uint32_t x, bool cosine) {
    uint32_t s = x & SIGN, a = x & ~SIGN;
    if (a >= INF) return NAN32;
    if (!(a & INF)) a = 0;
    double t = rz32((double)fl(a) * (double)fl(0x3e22f983));
    uint32_t F = (uint32_t)floor((t - floor(t)) * 0x1p25) + (cosine ? 1u << 23 : 0);
    uint32_t f = F & 0x7fffff;
    uint32_t r = look(T_sin, F & 1u << 23 ? 0x7fffff - f : f);
    if (F & 1u << 24) r ^= SIGN;
    return cosine ? r : r ^ s;
}

/* tanh: x itself below 2^-8, +-1 from 8 on; between, the unit keeps 17-21
 * mantissa bits depending on the binade (drop[] low bits ignored). */
static uint32_t mu_tanh(uint32_t x) {
    static const uint8_t drop[11] = {6, 6, 6, 5, 5, 4, 4, 4, 3, 2, 3};
    uint32_t s = x & SIGN, a = x & ~SIGN;
    if (a > INF) return NAN32;
    if (a < 0x3b800000u) return x;
    if (a >= 0x41000000u) return s | ONE;
    uint32_t b = (a >> 23) - 0x77, i = 0;
    for (uint32_t k = 0; k < b; k++) i += 1u << (23 - drop[k]);
    return s | look(T_tanh, i + ((a & 0x7fffff) >> drop[b]));
}

/* The 20 fraction bits of the high word index the f32 tables (their low 3
 * bits zero); the f32 result's fraction is truncated to 20 bits. */
uint32_t alu_mufu_hi64(int fn, uint32_t hi) {
    bool rs = fn == ALU_MU_RSQRT;
    uint32_t s = hi & SIGN, a = hi & ~SIGN, frac = hi & 0xfffff;
    if (a >= 0x7ff00000u) return a > 0x7ff00000u || frac ? NAN32 : rs ? (s ? NAN32 : 0) : s;
    if (a < 0x00100000u) return s | 0x7ff00000u;
    if (rs && s) return NAN32;
    int e = (int)(a >> 20) - 1023, be;
    uint32_t r;
    if (rs) {
        r = look(T_rsqrt, (uint32_t)(e & 1) << 23 | frac << 3);
        be = (int)(r >> 23) - 127 - (e >> 1) + 1023; /* e >> 1: floor */
    } else {
        r = look(T_rcp, frac << 3);
        be = (int)(r >> 23) - 127 - e + 1023;
    }
    if (be <= 0) return s;
    return s | (uint32_t)be << 20 | (r & 0x7fffff) >> 3;
}

uint32_t alu_mufu_f32(int fn, uint32_t x, bool ftz) {
    switch (fn) {
    case ALU_MU_RCP: return mu_rcp(x, ftz);
    case ALU_MU_RSQRT: return mu_root(x, ftz, false);
    case ALU_MU_SQRT: return mu_root(x, ftz, true);
    case ALU_MU_EX2: return mu_ex2(x, ftz);
    case ALU_MU_LG2: return mu_lg2(x, ftz);
    case ALU_MU_SIN: return mu_sincos(x, false);
    case ALU_MU_COS: return mu_sincos(x, true);
    default: return mu_tanh(x);
    }
}
