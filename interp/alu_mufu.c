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
#include <sys/mman.h>
#ifdef __AVX512F__
#include <immintrin.h>
#endif
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
    uint32_t off;   /* bit offset of the block's corrections in the table's bits */
} mufu_block;

/* A table's unpacked slices: blocks of 256 results, each a line through its
 * first and last result plus bit-packed corrections. The blocks of the whole
 * table are one array, and the corrections fill one reserved address range
 * in the order slices are unpacked, so neither moves and a warp's lanes read
 * each with one gather. ready[s] is 0 until slice s is unpacked, then 1 + the
 * index of its first block: readers index the blocks with it, so their reads
 * of the blocks depend on (follow) their read of it. */
typedef struct {
    mufu_block *blk;
    uint8_t *bits;
    uint32_t used;      /* bits filled (under seg_lock) */
    uint32_t nseg;      /* slices unpacked (under seg_lock) */
    _Atomic bool whole; /* every slice unpacked */
    _Atomic uint32_t ready[MAX_SEGS];
} mufu_tab;

static mufu_tab tabs[T_COUNT];
static pthread_mutex_t seg_lock = PTHREAD_MUTEX_INITIALIZER;

/* Result j of the slice whose first block is b0. */
static inline uint32_t tab_get(const mufu_tab *t, uint32_t b0, uint32_t j) {
    const mufu_block *b = &t->blk[b0 + (j >> BLOCK_LOG)];
    uint32_t k = j & (BLOCK - 1), pos = b->off + k * b->width;
    uint64_t w;
    memcpy(&w, t->bits + (pos >> 3), 8);
    uint32_t corr = b->width ? (uint32_t)(w >> (pos & 7)) & (uint32_t)(~0ull >> (64 - b->width)) : 0;
    return b->base + (uint32_t)(int32_t)(((int64_t)b->slope * k) >> 16) + corr;
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
#define PACK_W(n)                                                                     \
    case n:                                                                           \
        for (uint32_t g = 0; g < groups; g++) pack32(p + 4 * (n)*g, c + 32 * g, (n)); \
        return;
#define PACK_W8(n) \
    PACK_W(n) PACK_W(n + 1) PACK_W(n + 2) PACK_W(n + 3) PACK_W(n + 4) PACK_W(n + 5) PACK_W(n + 6) PACK_W(n + 7)
        PACK_W8(1) PACK_W8(9) PACK_W8(17) PACK_W8(25)
#undef PACK_W8
#undef PACK_W
    }
}

/* Packs block bi of table t, results v[0..cnt): a line through the first and
 * last and the corrections, in whole groups of 32 (so every block starts on a
 * 32-bit boundary). */
static void pack_block(mufu_tab *t, uint32_t bi, const uint32_t *v, uint32_t cnt) {
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
    mufu_block *b = &t->blk[bi];
    b->base = (uint32_t)((int64_t)v[0] + lo);
    b->slope = (int32_t)slope;
    b->width = width;
    b->off = t->used;
    if (!width) return;
    uint32_t groups = (cnt + 31) / 32; /* a short block's last group padded with zeros */
    uint32_t c[BLOCK];                 /* the corrections, each below 2^width */
    for (uint32_t j = 0; j < cnt; j++) c[j] = (uint32_t)((int64_t)v[j] - (int64_t)v[0] - ((slope * j) >> 16) - lo);
    memset(c + cnt, 0, (groups * 32 - cnt) * sizeof *c);
    pack_groups(t->bits + (t->used >> 3), c, groups, width);
    t->used += 32 * width * groups;
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

/* Table `which`'s arrays, on its first use (the caller holds seg_lock): its
 * blocks, and room for the corrections of every slice at 32 bits a result
 * (reserved, not committed: a block takes 1-2 bits a result) and the 8
 * bytes after each slice that tab_get may read. */
static void tab_alloc(int which, uint32_t n) {
    mufu_tab *t = &tabs[which];
    if (t->blk) return;
    size_t room = (size_t)n * 4 + ((size_t)n / MUFU_SEG + 2) * 8;
    void *m = mmap(NULL, room, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED || !(t->blk = calloc((n + BLOCK - 1) / BLOCK, sizeof *t->blk)))
        fail(tab_name[which], "out of memory");
    t->bits = m;
}

/* Decompresses slice s of table `which` (the caller holds seg_lock) (its
 * int32 differences, little-endian like the hosts ptxi runs on), sums them up
 * from the slice's starting value and packs them. */
static void unpack_seg(int which, uint32_t s) {
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
    tab_alloc(which, n);
    for (uint32_t b0 = 0; b0 < cnt; b0 += BLOCK)
        pack_block(&tabs[which], s * SEG_BLOCKS + (b0 >> BLOCK_LOG), v + b0, cnt - b0 < BLOCK ? cnt - b0 : BLOCK);
    /* tab_get's 8-byte reads stay clear of the next slice, which another thread may be writing */
    tabs[which].used += 64;
}

/* Slice s of table `which`, unpacked on its first use: 1 + its first block. */
static uint32_t seg_ready(int which, uint32_t s) {
    if (s >= MAX_SEGS) fail(tab_name[which], "index out of range");
    _Atomic uint32_t *slot = &tabs[which].ready[s];
    uint32_t r = atomic_load_explicit(slot, memory_order_acquire);
    if (!r) {
        pthread_mutex_lock(&seg_lock);
        r = atomic_load_explicit(slot, memory_order_relaxed);
        if (!r) {
            unpack_seg(which, s);
            r = s * SEG_BLOCKS + 1;
            atomic_store_explicit(slot, r, memory_order_release);
            if (++tabs[which].nseg == (seg_count(which) + MUFU_SEG - 1) / MUFU_SEG)
                atomic_store_explicit(&tabs[which].whole, true, memory_order_release);
        }
        pthread_mutex_unlock(&seg_lock);
    }
    return r;
}

/* Result i of table `which`. */
static uint32_t look(int which, uint32_t i) {
    return tab_get(&tabs[which], seg_ready(which, i >> MUFU_SEG_LOG) - 1, i & (MUFU_SEG - 1));
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

#ifdef __AVX512F__
/* Lanes 8h..8h+7 of v (h a constant 0 or 1), and v with them replaced by w:
 * the immediate operand an -O0 build still sees as one. */
static inline __m256i half256(__m512i v, int h) {
    return h ? _mm512_extracti64x4_epi64(v, 1) : _mm512_castsi512_si256(v);
}
static inline __m512i with_half(__m512i v, __m256i w, int h) {
    return h ? _mm512_inserti64x4(v, w, 1) : _mm512_inserti64x4(v, w, 0);
}

/* tab_get of table `which` for sixteen lanes at once: results i of the lanes
 * in *go, their slices unpacked; lanes whose slice is not unpacked yet are
 * taken out of *go (their result 0). One gather for each field of the
 * lanes' blocks and one for their deviations (and, until every slice of the
 * table is unpacked, one for the slices' ready flags first). */
static __m512i tab_get16(int which, __m512i i, __mmask16 *go) {
    const __m512i one = _mm512_set1_epi32(1), z = _mm512_setzero_si512();
    mufu_tab *t = &tabs[which];
    __m512i bi = _mm512_srli_epi32(i, BLOCK_LOG); /* the block */
    if (!*go) return z;
    if (!atomic_load_explicit(&t->whole, memory_order_acquire)) {
        /* ready[s] - 1 is the slice's first block: the block's index depends on it */
        __m512i r = _mm512_mask_i32gather_epi32(z, *go, _mm512_srli_epi32(i, MUFU_SEG_LOG), (const void *)t->ready, 4);
        *go &= _mm512_test_epi32_mask(r, r);
        if (!*go) return z;
        uint32_t ix[16]; /* one ready flag read as an acquire, so that the arrays' addresses are read after it */
        _mm512_storeu_si512(ix, i);
        (void)atomic_load_explicit(&t->ready[ix[__builtin_ctz(*go)] >> MUFU_SEG_LOG], memory_order_acquire);
        bi = _mm512_add_epi32(_mm512_sub_epi32(r, one),
                              _mm512_srli_epi32(_mm512_and_si512(i, _mm512_set1_epi32(MUFU_SEG - 1)), BLOCK_LOG));
    }
    __mmask16 look = *go;
    bi = _mm512_slli_epi32(bi, 2); /* in words: a block is 4 */
    const int *blk = (const int *)t->blk;
    __m512i base = _mm512_mask_i32gather_epi32(z, look, bi, blk, 4);
    __m512i slope = _mm512_mask_i32gather_epi32(z, look, bi, blk + 1, 4);
    __m512i width = _mm512_mask_i32gather_epi32(z, look, bi, blk + 2, 4);
    __m512i off = _mm512_mask_i32gather_epi32(z, look, bi, blk + 3, 4);
    __m512i k = _mm512_and_si512(i, _mm512_set1_epi32(BLOCK - 1));
    __m512i pos = _mm512_add_epi32(off, _mm512_mullo_epi32(k, width));
    /* (slope * k) >> 16, exactly, in 32 bits: k < 2^8 */
    __m512i sk = _mm512_add_epi32(
        _mm512_mullo_epi32(_mm512_srai_epi32(slope, 16), k),
        _mm512_srli_epi32(_mm512_mullo_epi32(_mm512_and_si512(slope, _mm512_set1_epi32(0xffff)), k), 16));
    __m512i byte = _mm512_srli_epi32(pos, 3), shift = _mm512_and_si512(pos, _mm512_set1_epi32(7));
    __m512i corr2[2];
    for (int h = 0; h < 2; h++) {
        __m256i bh = half256(byte, h);
        __m512i w = _mm512_mask_i32gather_epi64(z, (__mmask8)(look >> 8 * h), bh, (const void *)t->bits, 1);
        __m512i s64 = _mm512_cvtepu32_epi64(half256(shift, h));
        __m512i w64 = _mm512_cvtepu32_epi64(half256(width, h));
        __m512i msk = _mm512_sub_epi64(_mm512_sllv_epi64(_mm512_set1_epi64(1), w64), _mm512_set1_epi64(1));
        corr2[h] = _mm512_and_si512(_mm512_srlv_epi64(w, s64), msk);
    }
    __m512i corr = with_half(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(corr2[0])), _mm512_cvtepi64_epi32(corr2[1]),
                             1);
    return _mm512_maskz_add_epi32(look, _mm512_add_epi32(base, sk), corr);
}

/* Sixteen lanes of ex2 (mu_ex2) at x, d; act the lanes to write. The
 * lanes mu_ex2 takes elsewhere than to a table entry through ex2_index
 * (NaN, ftz'd, |x| >= 128, below -126 in the full form) or whose slice is not
 * unpacked yet are returned, for mu_ex2. */
static __mmask16 ex2_x16(const uint32_t *x, uint32_t *d, __mmask16 act, bool ftz) {
    const __m512i one = _mm512_set1_epi32(1), frac = _mm512_set1_epi32(0x7fffff), inf = _mm512_set1_epi32(INF);
    __m512i v = _mm512_loadu_si512(x), a = _mm512_and_si512(v, _mm512_set1_epi32(~SIGN));
    __mmask16 neg = _mm512_cmplt_epi32_mask(v, _mm512_setzero_si512());
    __mmask16 odd = _mm512_cmpgt_epu32_mask(a, inf) | _mm512_testn_epi32_mask(a, inf) |
                    _mm512_cmpge_epu32_mask(a, _mm512_set1_epi32(0x43000000));
    if (!ftz) odd |= _mm512_cmp_ps_mask(_mm512_castsi512_ps(v), _mm512_set1_ps(-126.0f), _CMP_LT_OQ);
    __mmask16 go = act & ~odd;
    /* ex2_index: X = |x| in fixed point (srlv shifts 32 and more to 0) */
    __m512i mant = _mm512_or_si512(_mm512_and_si512(a, frac), _mm512_set1_epi32(0x800000));
    __m512i sh = _mm512_sub_epi32(_mm512_srli_epi32(a, 23), _mm512_set1_epi32(127));
    __m512i X = _mm512_mask_srlv_epi32(_mm512_sllv_epi32(mant, sh), _mm512_cmplt_epi32_mask(sh, _mm512_setzero_si512()),
                                       mant, _mm512_sub_epi32(_mm512_setzero_si512(), sh));
    __m512i nX = _mm512_mask_sub_epi32(_mm512_sub_epi32(_mm512_setzero_si512(), X), _mm512_test_epi32_mask(X, frac),
                                       _mm512_sub_epi32(_mm512_setzero_si512(), X), one); /* ~X = -X - 1 */
    X = _mm512_mask_mov_epi32(X, neg, nX);
    __m512i i = _mm512_and_si512(X, frac), be = _mm512_add_epi32(_mm512_srai_epi32(X, 23), _mm512_set1_epi32(127));
    __mmask16 zero = _mm512_cmple_epi32_mask(be, _mm512_setzero_si512()); /* ex2_pack: 0 */
    __mmask16 look = go & ~zero;
    __m512i val = tab_get16(T_ex2, i, &look);
    __m512i res = _mm512_maskz_or_epi32(look, _mm512_slli_epi32(be, 23), _mm512_and_si512(val, frac));
    _mm512_mask_storeu_epi32(d, go & (zero | look), res);
    return act & (odd | (go & ~zero & ~look));
}

/* Sixteen lanes of rcp (mu_rcp, with or without .ftz): lanes whose operand
 * is NaN, infinite, zero or subnormal, whose result leaves the normal range,
 * or whose slice is not unpacked yet are returned, for mu_rcp. */
static __mmask16 rcp_x16(const uint32_t *x, uint32_t *d, __mmask16 act) {
    const __m512i inf = _mm512_set1_epi32(INF), frac = _mm512_set1_epi32(0x7fffff);
    __m512i v = _mm512_loadu_si512(x), a = _mm512_and_si512(v, _mm512_set1_epi32(~SIGN));
    __mmask16 go = act & ~(_mm512_cmpge_epu32_mask(a, inf) | _mm512_testn_epi32_mask(a, inf));
    __m512i r = tab_get16(T_rcp, _mm512_and_si512(a, frac), &go); /* split: the fraction of a normal a */
    /* the result's biased exponent: r's less a's unbiased one */
    __m512i be = _mm512_sub_epi32(_mm512_add_epi32(_mm512_srli_epi32(r, 23), _mm512_set1_epi32(127)),
                                  _mm512_srli_epi32(a, 23));
    go &= _mm512_cmpgt_epi32_mask(be, _mm512_setzero_si512()) & _mm512_cmplt_epi32_mask(be, _mm512_set1_epi32(255));
    __m512i res = _mm512_or_si512(_mm512_and_si512(v, _mm512_set1_epi32((int)SIGN)),
                                  _mm512_or_si512(_mm512_slli_epi32(be, 23), _mm512_and_si512(r, frac)));
    _mm512_mask_storeu_epi32(d, go, res);
    return act & ~go;
}
#endif

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
 * mantissa bits depending on the binade b (tanh_drop[b] low bits ignored),
 * and the table holds the binades one after another (binade b's first entry
 * at tanh_first[b], the sum of 2^(23 - drop) over the binades below it).
 * Sixteen entries each, so that tanh_x16 permutes them by binade. */
static const uint32_t tanh_drop[16] = {6, 6, 6, 5, 5, 4, 4, 4, 3, 2, 3};
static const uint32_t tanh_first[16] = {0,       131072,  262144,  393216,  655360, 917504,
                                        1441792, 1966080, 2490368, 3538944, 5636096};
static uint32_t mu_tanh(uint32_t x) {
    uint32_t s = x & SIGN, a = x & ~SIGN;
    if (a > INF) return NAN32;
    if (a < 0x3b800000u) return x;
    if (a >= 0x41000000u) return s | ONE;
    uint32_t b = (a >> 23) - 0x77;
    return s | look(T_tanh, tanh_first[b] + ((a & 0x7fffff) >> tanh_drop[b]));
}

#ifdef __AVX512F__
/* Sixteen lanes of tanh (mu_tanh) for 2^-8 <= |x| < 8: the binade's first
 * entry and kept bits by a permute, the rest as mu_tanh; the other lanes (and
 * those whose slice is not unpacked) are returned, for mu_tanh. */
static __mmask16 tanh_x16(const uint32_t *x, uint32_t *d, __mmask16 act) {
    __m512i v = _mm512_loadu_si512(x), a = _mm512_and_si512(v, _mm512_set1_epi32(~SIGN));
    __mmask16 go = act & _mm512_cmpge_epu32_mask(a, _mm512_set1_epi32(0x3b800000)) &
                   _mm512_cmplt_epu32_mask(a, _mm512_set1_epi32(0x41000000));
    __m512i b = _mm512_sub_epi32(_mm512_srli_epi32(a, 23), _mm512_set1_epi32(0x77)); /* 0..10 */
    __m512i dr = _mm512_permutexvar_epi32(b, _mm512_loadu_si512(tanh_drop));
    __m512i i = _mm512_add_epi32(_mm512_permutexvar_epi32(b, _mm512_loadu_si512(tanh_first)),
                                 _mm512_srlv_epi32(_mm512_and_si512(a, _mm512_set1_epi32(0x7fffff)), dr));
    __m512i r = tab_get16(T_tanh, i, &go);
    _mm512_mask_storeu_epi32(d, go, _mm512_or_si512(_mm512_and_si512(v, _mm512_set1_epi32((int)SIGN)), r));
    return act & ~go;
}

/* Sixteen lanes of rsqrt / sqrt (mu_root) for positive normal x: the [1, 4)
 * table by the exponent's parity, the exponent halved; the other lanes (and
 * those whose slice is not unpacked) are returned, for mu_root. */
static __mmask16 root_x16(const uint32_t *x, uint32_t *d, __mmask16 act, bool sq) {
    __m512i v = _mm512_loadu_si512(x);
    __mmask16 go = act & _mm512_cmpge_epu32_mask(v, _mm512_set1_epi32(0x00800000)) &
                   _mm512_cmplt_epu32_mask(v, _mm512_set1_epi32(INF)); /* the sign bit makes v larger */
    __m512i e = _mm512_sub_epi32(_mm512_srli_epi32(v, 23), _mm512_set1_epi32(127));
    __m512i i = _mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(e, _mm512_set1_epi32(1)), 23),
                                _mm512_and_si512(v, _mm512_set1_epi32(0x7fffff)));
    __m512i r = tab_get16(sq ? T_sqrt : T_rsqrt, i, &go);
    __m512i k = _mm512_slli_epi32(_mm512_srai_epi32(e, 1), 23); /* floor(e / 2), in the exponent */
    _mm512_mask_storeu_epi32(d, go, sq ? _mm512_add_epi32(r, k) : _mm512_sub_epi32(r, k));
    return act & ~go;
}

/* Sixteen lanes of lg2 (mu_lg2_ftz) for positive normal x: the [0.5, 1)
 * table's result for x in [0.5, 1); else the [1, 2) one plus the exponent
 * in double, truncated to f32 (vcvtpd2ps toward zero), and where that sum
 * was exact below 0.25 the [0.5, 1) result decides one more unit toward 0.
 * The other lanes (and those whose slice is not unpacked) are returned. */
static __mmask16 lg2_x16(const uint32_t *x, uint32_t *d, __mmask16 act) {
    const __m512i frac = _mm512_set1_epi32(0x7fffff);
    __m512i v = _mm512_loadu_si512(x);
    __mmask16 go = act & _mm512_cmpge_epu32_mask(v, _mm512_set1_epi32(0x00800000)) &
                   _mm512_cmplt_epu32_mask(v, _mm512_set1_epi32(INF));
    __m512i e = _mm512_sub_epi32(_mm512_srli_epi32(v, 23), _mm512_set1_epi32(127)), f = _mm512_and_si512(v, frac);
    __mmask16 half = go & _mm512_cmpeq_epi32_mask(e, _mm512_set1_epi32(-1)), one = go & ~half;
    __m512i rh = tab_get16(T_lg2_05, f, &half), l = tab_get16(T_lg2_1, f, &one);
    __m512i r = _mm512_setzero_si512();
    __mmask16 exact = 0;
    for (int h = 0; h < 2; h++) {
        __m256i lh = half256(l, h);
        __m256i eh = half256(e, h);
        __m512d t = _mm512_add_pd(_mm512_cvtepi32_pd(eh), _mm512_cvtps_pd(_mm256_castsi256_ps(lh)));
        __m256 rf = _mm512_cvt_roundpd_ps(t, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
        exact |= (__mmask16)(_mm512_cmp_pd_mask(_mm512_cvtps_pd(rf), t, _CMP_EQ_OQ) << 8 * h);
        r = with_half(r, _mm256_castps_si256(rf), h);
    }
    __mmask16 fix = one & exact & _mm512_cmplt_epi32_mask(e, _mm512_set1_epi32(-1)), got = fix;
    if (fix) {
        __m512i l05 = tab_get16(T_lg2_05, f, &got);
        one &= ~(fix & ~got); /* the [0.5, 1) slice not unpacked: lane by lane */
        __mmask16 ne = 0;
        for (int h = 0; h < 2; h++) {
            __m256i ah = half256(l05, h);
            __m256i bh = half256(l, h);
            __m512d b1 = _mm512_add_pd(_mm512_set1_pd(-1.0), _mm512_cvtps_pd(_mm256_castsi256_ps(bh)));
            ne |= (__mmask16)(_mm512_cmp_pd_mask(_mm512_cvtps_pd(_mm256_castsi256_ps(ah)), b1, _CMP_NEQ_UQ) << 8 * h);
        }
        r = _mm512_mask_sub_epi32(r, got & ne, r, _mm512_set1_epi32(1)); /* nextafterf(r, 0): |r| >= 1 */
    }
    _mm512_mask_storeu_epi32(d, half | one, _mm512_mask_mov_epi32(r, half, rh));
    return act & ~(half | one);
}

/* Sixteen lanes of sin / cos (mu_sincos) for finite x: the turns truncated
 * to f32 (vcvtpd2ps toward zero), their fraction on the 2^-25 grid in
 * double, the quarter folding as mu_sincos; lanes whose slice is not
 * unpacked yet are returned. */
static __mmask16 sincos_x16(const uint32_t *x, uint32_t *d, __mmask16 act, bool cosine) {
    __m512i v = _mm512_loadu_si512(x), a = _mm512_and_si512(v, _mm512_set1_epi32(~SIGN));
    const __m512i inf = _mm512_set1_epi32(INF);
    __mmask16 go = act & _mm512_cmplt_epu32_mask(a, inf);
    a = _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(a, inf), a); /* subnormals as 0 */
    __m512i F = _mm512_setzero_si512();
    for (int h = 0; h < 2; h++) {
        __m256i ah = half256(a, h);
        __m512d p = _mm512_mul_pd(_mm512_cvtps_pd(_mm256_castsi256_ps(ah)), _mm512_set1_pd((double)fl(0x3e22f983)));
        __m512d t = _mm512_cvtps_pd(_mm512_cvt_roundpd_ps(p, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC));
        __m512d fr = _mm512_mul_pd(_mm512_sub_pd(t, _mm512_roundscale_pd(t, _MM_FROUND_TO_NEG_INF)),
                                   _mm512_set1_pd(0x1p25));
        __m256i fh = _mm512_cvttpd_epu32(_mm512_roundscale_pd(fr, _MM_FROUND_TO_NEG_INF));
        F = with_half(F, fh, h);
    }
    if (cosine) F = _mm512_add_epi32(F, _mm512_set1_epi32(1 << 23));
    __m512i f = _mm512_and_si512(F, _mm512_set1_epi32(0x7fffff));
    __m512i i = _mm512_mask_sub_epi32(f, _mm512_test_epi32_mask(F, _mm512_set1_epi32(1 << 23)),
                                      _mm512_set1_epi32(0x7fffff), f);
    __m512i r = tab_get16(T_sin, i, &go);
    r = _mm512_xor_si512(r, _mm512_and_si512(_mm512_slli_epi32(F, 7), _mm512_set1_epi32((int)SIGN)));
    if (!cosine) r = _mm512_xor_si512(r, _mm512_and_si512(v, _mm512_set1_epi32((int)SIGN)));
    _mm512_mask_storeu_epi32(d, go, r);
    return act & ~go;
}
#endif

/* Each x16 function does the lanes its table gives (for all but ex2 these
 * do not depend on .ftz) and returns the rest, for alu_mufu_f32. Triton's
 * softmax exponentiates every element, its x / y divides by a reciprocal per
 * lane: lane by lane, each lane's table reads missed one after another. */
void alu_mufu_warp(int fn, const uint32_t *x, uint32_t *d, uint32_t m, bool ftz) {
#ifdef __AVX512F__
    uint32_t rest = 0;
    for (int h = 0; h < 2; h++) {
        const uint32_t *xh = x + 16 * h;
        uint32_t *dh = d + 16 * h;
        __mmask16 mh = (__mmask16)(m >> 16 * h), r;
        switch (fn) {
        case ALU_MU_EX2: r = ex2_x16(xh, dh, mh, ftz); break;
        case ALU_MU_RCP: r = rcp_x16(xh, dh, mh); break;
        case ALU_MU_RSQRT:
        case ALU_MU_SQRT: r = root_x16(xh, dh, mh, fn == ALU_MU_SQRT); break;
        case ALU_MU_LG2: r = lg2_x16(xh, dh, mh); break;
        case ALU_MU_SIN:
        case ALU_MU_COS: r = sincos_x16(xh, dh, mh, fn == ALU_MU_COS); break;
        default: r = tanh_x16(xh, dh, mh); break;
        }
        rest |= (uint32_t)r << 16 * h;
    }
    m = rest;
#endif
    for (; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        d[l] = alu_mufu_f32(fn, x[l], ftz);
    }
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
