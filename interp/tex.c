/* tex.c — texture fetches (tex, tld4, txq) and surface accesses (suld.b,
 * sust.b, suq) on the object descriptors of tex.h, with what an H200 was
 * measured to do (gpu/jobs/tex_filter, tests/cudart/programs/texture.cu):
 *   - point sampling takes floor() of the exact coordinate;
 *   - linear filtering converts coordinate - 0.5 to fixed point with 8
 *     fraction bits (rounded half up); the 2D weights are w11 = round(a*b/256),
 *     w10 = a - w11, w01 = b - w11, w00 = 256 - the rest; the texels are
 *     aligned to the largest exponent among those with a non-zero weight and
 *     truncated to 28 bits below it; the weighted sum is exact and rounded to
 *     f32 once, ties away from zero;
 *   - normalized 8/16-bit texels are filtered in 16-bit fixed point, half
 *     floats in f32 with the result rounded to f16 (ties away);
 *   - channels a format lacks read as 0; a border texel is the border colour
 *     converted to the texel format and back (normalized reads), or the low
 *     bits of its f32 encoding (element-type reads of integer formats).
 * The trilinear (3D) weights follow the 2D rule by inclusion-exclusion; the
 * hardware's differ from that by one unit in 1/256 on some corners (45 % of
 * the fractions in probe2.txt), so 3D linear filtering is close, not exact.
 * Mipmapped textures are not supported (a lod or gradient samples level 0, as
 * the GPU does for a texture without mipmaps). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alu_half.h"
#include "exec_mem.h"
#include "lower_ext.h"
#include "tex.h"

enum { K_TEX, K_TLD4, K_TXQ, K_SULD, K_SUST, K_SUQ };
enum { G_1D, G_2D, G_3D, G_A1D, G_A2D, G_CUBE, G_ACUBE };
enum { B_TRAP, B_CLAMP, B_ZERO };
/* Normalized coordinates are truncated to this many fraction bits before they
 * are scaled to texels (gpu/jobs/tex_filter/recorded/probe2.txt: every one of
 * 21,504 samples near texel 1000 of a 65536-texel texture fits 22, no other). */
#define NORM_BITS 22

typedef struct tex_rec {
    vm_ext_fn run;
    uint8_t kind, geom;
    uint8_t dfloat;          /* result (tex) type: f32, else s32 / u32 (the raw bits) */
    uint8_t cint;            /* integer coordinates */
    uint8_t comp;            /* tld4: r g b a = 0..3 */
    uint16_t query;          /* txq/suq: the IR modifier */
    uint8_t vec, esz, bmode; /* suld/sust: elements, bytes each, B_* */
    vm_opnd h;
    vm_opnd d[4], c[4];
    uint8_t nd, nc;
} tex_rec;

/* ---- descriptor and texels ---- */

static vm_arena *arena_of(vm_warp *w) { return w->cta->grid->cfg->kernel->prog->rt->arena; }

static const vm_texdesc *desc_at(vm_warp *w, const vm_insn *i, int l, uint64_t h, bool surface) {
    vm_arena *a = arena_of(w);
    if (vm_arena_ok(a, h, sizeof(vm_texdesc), false)) {
        const vm_texdesc *d = (const vm_texdesc *)(uintptr_t)h;
        if (d->magic == VM_TEX_MAGIC && (d->surface == surface || !surface)) return d;
    }
    vm_fault_at(w, i, l, PTXI_ILLEGAL_ADDRESS, "0x%llx is not a %s object", (unsigned long long)h,
                surface ? "surface" : "texture");
    return NULL;
}

/* Host address of the n bytes at byte column xb of row y, slice z + layer, or
 * NULL after a fault. */
static uint8_t *elem_at(vm_warp *w, const vm_insn *i, int l, const vm_texdesc *d, int64_t xb, int64_t y, int64_t z,
                        int64_t layer, unsigned n, bool wr) {
    uint64_t at = d->base + (uint64_t)xb + (uint64_t)y * d->pitch + (uint64_t)(z + layer) * d->slice;
    if (vm_arena_ok_any(arena_of(w), at, n, wr)) return (uint8_t *)(uintptr_t)at;
    vm_fault_at(w, i, l, PTXI_ILLEGAL_ADDRESS, "the memory behind a %s object is gone (element at 0x%llx)",
                d->surface ? "surface" : "texture", (unsigned long long)at);
    return NULL;
}

static float bits_f(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t f_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The integer a channel of d's format holds in the low cbits of u. */
static int64_t channel_int(const vm_texdesc *d, uint32_t u) {
    if (d->cbits < 32) u &= (1u << d->cbits) - 1;
    int64_t v = u;
    if (d->fmt == VM_TEXF_SINT && d->cbits < 32 && (u >> (d->cbits - 1) & 1)) v -= (int64_t)1 << d->cbits;
    if (d->fmt == VM_TEXF_SINT && d->cbits == 32) v = (int32_t)u;
    return v;
}

/* Channel c of an element: the raw integer (sign-extended) and its float value
 * as the read mode gives it. */
static void channel(const vm_texdesc *d, const uint8_t *p, int c, int64_t *raw, float *val) {
    unsigned nb = d->cbits / 8;
    uint32_t u = 0;
    memcpy(&u, p + c * nb, nb);
    int64_t v = channel_int(d, u);
    *raw = v;
    if (d->fmt == VM_TEXF_FLOAT) *val = d->cbits == 16 ? bits_f(alu_f16_to_f32((uint16_t)u)) : bits_f(u);
    else if (!d->readnorm) *val = (float)v;
    else if (d->fmt == VM_TEXF_UINT) *val = (float)((double)v / (double)((1ull << d->cbits) - 1));
    else {
        float f = (float)((double)v / (double)((1ull << (d->cbits - 1)) - 1));
        *val = f < -1.0f ? -1.0f : f;
    }
}

/* The border colour as a texel of this format reads. */
static void border(const vm_texdesc *d, int c, int64_t *raw, float *val) {
    float b = d->border[c];
    if (d->fmt == VM_TEXF_FLOAT) {
        *val = d->cbits == 16 ? bits_f(alu_f16_to_f32(alu_f32_to_f16_rn(f_bits(b)))) : b;
        *raw = f_bits(*val);
        return;
    }
    double max = d->fmt == VM_TEXF_UINT ? (double)((1ull << d->cbits) - 1) : (double)((1ull << (d->cbits - 1)) - 1);
    if (d->readnorm) {
        /* the product in f32, then ties down (measured: 0.5 of 8 bits is 127,
         * 0.1f of 8 bits 25 and of 16 bits 6553: tests/cudart/programs/tex_border.cu) */
        double q = ceilf(b * (float)max - 0.5f);
        if (q > max) q = max;
        if (q < (d->fmt == VM_TEXF_UINT ? 0 : -max)) q = d->fmt == VM_TEXF_UINT ? 0 : -max;
        *raw = (int64_t)q;
        *val = (float)(q / max);
    } else {
        /* An element-type read of an integer format returns the low bits of
         * the border colour's f32 encoding, not its value (measured: 0.6f,
         * 0x3f19999a, reads as 0x9a from an 8-bit channel and 0x999a from a
         * 16-bit one; 1.0f and 200.0f read as 0). */
        *raw = channel_int(d, f_bits(b));
        *val = (float)*raw;
    }
}

/* Applies an address mode to index i of a dimension of n texels; false when
 * the texel is outside (border). */
static bool address(int mode, int64_t *i, int64_t n) {
    switch (mode) {
    case VM_TEXA_WRAP: *i = ((*i % n) + n) % n; return true;
    case VM_TEXA_MIRROR: {
        int64_t m = ((*i % (2 * n)) + 2 * n) % (2 * n);
        *i = m < n ? m : 2 * n - 1 - m;
        return true;
    }
    case VM_TEXA_BORDER: return *i >= 0 && *i < n;
    default: *i = *i < 0 ? 0 : *i >= n ? n - 1 : *i; return true;
    }
}

typedef struct texel {
    int64_t raw[4];
    float val[4];
} texel;

/* The texel at integer coordinates (after addressing), layer included. */
static bool fetch(vm_warp *w, const vm_insn *i, int l, const vm_texdesc *d, int64_t x, int64_t y, int64_t z,
                  int64_t layer, texel *t) {
    int64_t n[3] = {d->w, d->h, d->d}, c[3] = {x, y, z};
    bool inside = true;
    for (int k = 0; k < d->dims; k++) {
        int mode = d->linear                      ? VM_TEXA_BORDER
                   : d->normcoords                ? d->addr[k]
                   : d->addr[k] == VM_TEXA_BORDER ? VM_TEXA_BORDER
                                                  : VM_TEXA_CLAMP;
        inside &= address(mode, &c[k], n[k]);
    }
    memset(t, 0, sizeof *t);
    if (!inside) {
        if (!d->linear)
            for (int k = 0; k < d->nchan; k++) border(d, k, &t->raw[k], &t->val[k]);
        return true;
    }
    const uint8_t *p = elem_at(w, i, l, d, c[0] * d->esize, c[1], c[2] * (d->dims == 3), layer, d->esize, false);
    if (!p) return false;
    for (int k = 0; k < d->nchan; k++) channel(d, p, k, &t->raw[k], &t->val[k]);
    return true;
}

/* ---- the linear filter ---- */

/* f32 nearest to s * 2^e, ties away from zero. */
static float round_away(int64_t s, int e) {
    if (!s) return 0.0f;
    uint64_t m = (uint64_t)(s < 0 ? -s : s);
    int lead = 63 - __builtin_clzll(m);
    if (lead > 23) {
        int sh = lead - 23;
        uint64_t q = m >> sh, rem = m & ((1ull << sh) - 1);
        if (rem >= 1ull << (sh - 1)) q++;
        m = q;
        e += sh;
    }
    float f = ldexpf((float)m, e);
    return s < 0 ? -f : f;
}

/* Weighted sum of n texel values with integer weights summing to 256. */
static float filter(const float *v, const int *wt, int n) {
    int emax = INT32_MIN;
    for (int k = 0; k < n; k++)
        if (wt[k] && v[k] != 0.0f) {
            int e;
            frexpf(v[k], &e);
            if (e > emax) emax = e;
        }
    if (emax == INT32_MIN) return 0.0f;
    int q = emax - 1 - 28; /* texels truncated to multiples of 2^q */
    int64_t s = 0;
    for (int k = 0; k < n; k++) {
        if (!wt[k]) continue;
        double t = ldexp((double)v[k], -q);
        s += (int64_t)wt[k] * (int64_t)(t < 0 ? -floor(-t) : floor(t));
    }
    return round_away(s, q - 8);
}

/* Normalized integer texels are filtered as 16-bit fixed point (8-bit ones
 * widened by v * 257): the weighted sum is rounded to an integer, half up,
 * and divided by 65535 (32767 signed). */
static float filter_norm(const vm_texdesc *d, const int64_t *raw, const int *wt, int n) {
    int64_t s = 0;
    for (int k = 0; k < n; k++) s += (int64_t)wt[k] * (d->cbits == 8 ? raw[k] * 257 : raw[k]);
    int64_t r = (s + 128) >> 8;
    float f = (float)((double)r / (d->fmt == VM_TEXF_UINT ? 65535.0 : 32767.0));
    return f < -1.0f ? -1.0f : f;
}

/* Weights (summing to 256) of the 2^dims corners, corner k taking the upper
 * texel along axis j when bit j of k is set. With the axis fractions f_j (in
 * 1/256), P(S) = round(prod_{j in S} f_j / 256^(|S|-1)), half up, and each
 * weight follows by inclusion-exclusion: for 2D w11 = P(ab), w10 = a - w11,
 * w01 = b - w11, w00 = 256 - a - b + w11 (measured). */
static void corner_weights(int dims, const int64_t *fr, int *wt) {
    int64_t P[8];
    for (int S = 0; S < 1 << dims; S++) {
        int64_t p = 256;
        int nbits = 0;
        for (int j = 0; j < dims; j++)
            if (S >> j & 1) p = nbits++ ? p * fr[j] : fr[j];
        if (nbits > 1) p = (p + ((int64_t)1 << (8 * (nbits - 1) - 1))) >> (8 * (nbits - 1));
        P[S] = p;
    }
    for (int k = 0; k < 1 << dims; k++) {
        int64_t w = 0;
        for (int T = 0; T < 1 << dims; T++)
            if ((T & k) == k) w += (__builtin_popcount((unsigned)(T & ~k)) & 1 ? -1 : 1) * P[T];
        wt[k] = (int)w;
    }
}

/* Fixed-point coordinate with 8 fraction bits of c - 0.5 (linear filtering). */
static int64_t fix8(double c) { return (int64_t)floor((c - 0.5) * 256.0 + 0.5); }

/* ---- sampling ---- */

typedef struct coords {
    float f[3];   /* x y z */
    int64_t i[3]; /* integer coordinates */
    int64_t layer;
} coords;

/* Cubemap direction -> face (a layer) and normalized coordinates on it. */
static void cube(const float *dir, float *s, float *t, int64_t *face) {
    float x = dir[0], y = dir[1], z = dir[2], ax = fabsf(x), ay = fabsf(y), az = fabsf(z), ma, sc, tc;
    if (az >= ax && az >= ay) *face = z >= 0 ? 4 : 5, ma = az, sc = z >= 0 ? x : -x, tc = -y;
    else if (ay >= ax) *face = y >= 0 ? 2 : 3, ma = ay, sc = x, tc = y >= 0 ? z : -z;
    else *face = x >= 0 ? 0 : 1, ma = ax, sc = x >= 0 ? -z : z, tc = -y;
    *s = (sc / ma + 1.0f) * 0.5f;
    *t = (tc / ma + 1.0f) * 0.5f;
}

/* One lane's fetch into out[4] (bits of the destination registers). */
static bool sample(vm_warp *w, const vm_insn *i, int l, const tex_rec *r, const vm_texdesc *d, coords *c,
                   uint32_t *out) {
    int dims = d->dims;
    int64_t n[3] = {d->w, d->h, d->d};
    int64_t layer = 0;
    if (d->layered || d->cubemap) {
        int64_t nl = d->layers ? d->layers : 1;
        layer = c->layer < 0 ? 0 : c->layer >= nl ? nl - 1 : c->layer;
        if (d->cubemap) {
            float s, t;
            int64_t face;
            cube(c->f, &s, &t, &face);
            c->f[0] = s, c->f[1] = t;
            layer = layer * 6 + face;
        }
    }
    texel t[4];
    if (r->cint) {
        if (!fetch(w, i, l, d, c->i[0], c->i[1], c->i[2], layer, &t[0])) return false;
        for (int k = 0; k < 4; k++) out[k] = r->dfloat ? f_bits(t[0].val[k]) : (uint32_t)t[0].raw[k];
        return true;
    }
    double u[3];
    bool norm = d->normcoords || d->cubemap; /* a cube face's coordinates are in [0, 1] */
    for (int k = 0; k < dims; k++)
        u[k] = norm ? floor(ldexp(c->f[k], NORM_BITS)) * (double)n[k] / ldexp(1, NORM_BITS) : c->f[k];
    if (r->kind == K_TLD4 || (d->filter && r->dfloat)) {
        int64_t base[3] = {0, 0, 0}, fr[3] = {0, 0, 0};
        for (int k = 0; k < dims; k++) {
            int64_t q = fix8(u[k]);
            base[k] = q >> 8, fr[k] = q & 255;
        }
        if (r->kind == K_TLD4) {
            /* the 2x2 footprint in the order (0,1) (1,1) (1,0) (0,0) */
            static const int ox[4] = {0, 1, 1, 0}, oy[4] = {1, 1, 0, 0};
            for (int k = 0; k < 4; k++) {
                if (!fetch(w, i, l, d, base[0] + ox[k], base[1] + oy[k], 0, layer, &t[0])) return false;
                out[k] = r->dfloat ? f_bits(t[0].val[r->comp]) : (uint32_t)t[0].raw[r->comp];
            }
            return true;
        }
        int ncorner = 1 << dims, wt[8];
        texel tc[8];
        for (int k = 0; k < ncorner; k++)
            if (!fetch(w, i, l, d, base[0] + (k & 1), base[1] + (k >> 1 & 1), base[2] + (k >> 2 & 1), layer, &tc[k]))
                return false;
        corner_weights(dims, fr, wt);
        for (int ch = 0; ch < 4; ch++) {
            float v[8];
            int64_t raw[8];
            for (int k = 0; k < ncorner; k++) v[k] = tc[k].val[ch], raw[k] = tc[k].raw[ch];
            float f = ch >= d->nchan            ? 0.0f
                      : d->fmt != VM_TEXF_FLOAT ? filter_norm(d, raw, wt, ncorner)
                      : d->cbits == 16          ? bits_f(alu_f16_to_f32((uint16_t)alu_fp_convert(
                                                      ALU_FMT_F16, ALU_FMT_F32, f_bits(filter(v, wt, ncorner)), ALU_RNA, 0)))
                                                : filter(v, wt, ncorner);
            out[ch] = f_bits(f);
        }
        return true;
    }
    int64_t p[3] = {0, 0, 0};
    for (int k = 0; k < dims; k++) p[k] = (int64_t)floor(u[k]);
    if (!fetch(w, i, l, d, p[0], p[1], p[2], layer, &t[0])) return false;
    for (int k = 0; k < 4; k++) out[k] = r->dfloat ? f_bits(t[0].val[k]) : (uint32_t)t[0].raw[k];
    return true;
}

/* Reads lane l's coordinates as the geometry lays them out. */
static void read_coords(const tex_rec *r, const uint8_t *fb, int l, coords *c) {
    memset(c, 0, sizeof *c);
    int k0 = 0;
    if (r->geom == G_A1D || r->geom == G_A2D || r->geom == G_ACUBE) {
        c->layer = (int32_t)get_reg(fb, r->c[0].off, r->c[0].kind, l);
        k0 = 1;
    }
    for (int k = k0; k < r->nc && k - k0 < 3; k++) {
        uint32_t b = (uint32_t)get_reg(fb, r->c[k].off, r->c[k].kind, l);
        c->f[k - k0] = bits_f(b);
        c->i[k - k0] = (int32_t)b;
    }
}

static int run_tex(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const tex_rec *r = i->p;
    for (int l = 0; l < VM_LANES; l++) {
        if (!(m >> l & 1)) continue;
        const vm_texdesc *d = desc_at(w, i, l, get_reg(fb, r->h.off, r->h.kind, l), false);
        if (!d) return VM_EXT_FAULT;
        coords c;
        read_coords(r, fb, l, &c);
        uint32_t out[4];
        if (!sample(w, i, l, r, d, &c, out)) return VM_EXT_FAULT;
        for (int k = 0; k < r->nd; k++) put_reg(fb, r->d[k].off, r->d[k].kind, l, out[k]);
    }
    return VM_EXT_NEXT;
}

/* txq / suq: the attribute named by the modifier. */
static int64_t query(const vm_texdesc *d, uint16_t q) {
    switch (q) {
    case IR_MOD_WIDTH: return d->surface ? (int64_t)d->w * d->esize : d->w;
    case IR_MOD_HEIGHT: return d->h;
    case IR_MOD_DEPTH: return d->d;
    case IR_MOD_ARRAY_SIZE: return d->layers;
    case IR_MOD_NORMALIZED_COORDS: return d->normcoords;
    case IR_MOD_FILTER_MODE: return d->filter;
    case IR_MOD_ADDR_MODE_0: return d->addr[0];
    case IR_MOD_ADDR_MODE_1: return d->addr[1];
    case IR_MOD_ADDR_MODE_2: return d->addr[2];
    case IR_MOD_NUM_MIPMAP_LEVELS: return 1;
    case IR_MOD_NUM_SAMPLES: return 1;
    default: return d->fmt; /* channel_data_type / channel_order */
    }
}

static int run_query(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const tex_rec *r = i->p;
    for (int l = 0; l < VM_LANES; l++) {
        if (!(m >> l & 1)) continue;
        const vm_texdesc *d = desc_at(w, i, l, get_reg(fb, r->h.off, r->h.kind, l), r->kind == K_SUQ);
        if (!d) return VM_EXT_FAULT;
        put_reg(fb, r->d[0].off, r->d[0].kind, l, (uint64_t)query(d, r->query));
    }
    return VM_EXT_NEXT;
}

/* Surface coordinate k (x in bytes) against its extent; false: out of range
 * and not clamped. */
static bool surf_coord(int bmode, int64_t *v, int64_t n) {
    if (*v >= 0 && *v < n) return true;
    if (bmode != B_CLAMP) return false;
    *v = *v < 0 ? 0 : n - 1;
    return true;
}

static int run_surf(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const tex_rec *r = i->p;
    bool st = r->kind == K_SUST;
    unsigned nbytes = (unsigned)r->vec * r->esz;
    for (int l = 0; l < VM_LANES; l++) {
        if (!(m >> l & 1)) continue;
        const vm_texdesc *d = desc_at(w, i, l, get_reg(fb, r->h.off, r->h.kind, l), true);
        if (!d) return VM_EXT_FAULT;
        coords c;
        read_coords(r, fb, l, &c);
        int64_t x = c.i[0], y = d->dims > 1 ? c.i[1] : 0, z = d->dims > 2 ? c.i[2] : 0;
        int64_t layer = d->layered ? c.layer : 0, nl = d->layers ? d->layers : 1;
        if (x % nbytes) {
            vm_fault_at(w, i, l, PTXI_MISALIGNED_ADDRESS, "misaligned surface %s of %u bytes at x = %lld bytes",
                        st ? "write" : "read", nbytes, (long long)x);
            return VM_EXT_FAULT;
        }
        int64_t xe = x / nbytes, nx = (int64_t)d->w * d->esize / nbytes;
        bool in = surf_coord(r->bmode, &xe, nx) && surf_coord(r->bmode, &y, d->h) && surf_coord(r->bmode, &z, d->d) &&
                  surf_coord(r->bmode, &layer, nl);
        if (!in && r->bmode == B_TRAP) {
            vm_fault_at(w, i, l, PTXI_ILLEGAL_ADDRESS,
                        "out-of-bounds surface %s at (%lld bytes, %lld, %lld) of a %ux%ux%u surface",
                        st ? "write" : "read", (long long)c.i[0], (long long)(d->dims > 1 ? c.i[1] : 0),
                        (long long)(d->dims > 2 ? c.i[2] : 0), d->w, d->h, d->d);
            return VM_EXT_FAULT;
        }
        if (!in) { /* zero: reads give 0, writes are dropped */
            if (!st)
                for (int k = 0; k < r->nd; k++) put_reg(fb, r->d[k].off, r->d[k].kind, l, 0);
            continue;
        }
        uint8_t *p = elem_at(w, i, l, d, xe * nbytes, y, z, layer, nbytes, st);
        if (!p) return VM_EXT_FAULT;
        for (int k = 0; k < r->vec; k++) {
            if (st) store_bits(p + k * r->esz, r->esz, get_reg(fb, r->d[k].off, r->d[k].kind, l));
            else put_reg(fb, r->d[k].off, r->d[k].kind, l, load_bits(p + k * r->esz, r->esz, false));
        }
    }
    return VM_EXT_NEXT;
}

/* ---- lowering ---- */

static int geometry(const ir_insn *in) {
    static const struct {
        uint16_t mod;
        uint8_t g;
    } t[] = {
        {IR_MOD_1D, G_1D},   {IR_MOD_2D, G_2D},     {IR_MOD_3D, G_3D},       {IR_MOD_A1D, G_A1D},
        {IR_MOD_A2D, G_A2D}, {IR_MOD_CUBE, G_CUBE}, {IR_MOD_ACUBE, G_ACUBE},
    };
    for (size_t k = 0; k < sizeof t / sizeof *t; k++)
        if (ir_has_mod(in, t[k].mod)) return t[k].g;
    return -1;
}

static uint8_t regs(lctx *lc, const ir_operand *o, vm_opnd *out, bool dst, uint8_t type) {
    if (o->kind != IR_OPND_VEC) {
        out[0] = dst ? vm_ldst(lc, o) : vm_lsrc(lc, o, type);
        return 1;
    }
    uint8_t n = 0;
    for (uint32_t k = 0; k < o->nsub && n < 4; k++)
        out[n++] = dst ? vm_ldst(lc, &o->sub[k]) : vm_lsrc(lc, &o->sub[k], type);
    return n;
}

/* [handle, {coords}] -> the record's handle and coordinate operands. */
static bool handle_coords(lctx *lc, const ir_operand *a, tex_rec *r, uint8_t ctype) {
    if (a->kind != IR_OPND_ADDR || a->nsub < 1 || a->sub[0].kind != IR_OPND_REG) return false;
    r->h = vm_lsrc(lc, &a->sub[0], IR_T_U64);
    if (a->nsub >= 2) {
        const ir_operand *c = &a->sub[a->nsub - 1];
        if (c->kind != IR_OPND_VEC) {
            r->nc = regs(lc, c, r->c, false, ctype);
            return true;
        }
        bool layered = r->geom == G_A1D || r->geom == G_A2D || r->geom == G_ACUBE;
        for (uint32_t k = 0; k < c->nsub && r->nc < 4; k++)
            r->c[r->nc++] = vm_lsrc(lc, &c->sub[k], layered && k == 0 ? IR_T_S32 : ctype);
    }
    return true;
}

bool vm_lower_tex(lctx *lc, const ir_insn *in) {
    int kind = in->op == IR_OP_TEX    ? K_TEX
               : in->op == IR_OP_TLD4 ? K_TLD4
               : in->op == IR_OP_TXQ  ? K_TXQ
               : in->op == IR_OP_SULD ? K_SULD
               : in->op == IR_OP_SUST ? K_SUST
               : in->op == IR_OP_SUQ  ? K_SUQ
                                      : -1;
    if (kind < 0) return false;
    if (in->nopnds < 2) return false;
    tex_rec *r = calloc(1, sizeof *r);
    if (!r) {
        vm_lfail(lc, "out of memory");
        return true;
    }
    r->kind = (uint8_t)kind;
    vm_insn vi = vm_lbase(lc, VM_EXT);
    if (kind == K_TXQ || kind == K_SUQ) {
        for (int k = 0; k < in->nmods; k++)
            if (in->mods[k] != IR_MOD_LEVEL) r->query = in->mods[k];
        const ir_operand *a = &in->opnds[1];
        if (a->kind != IR_OPND_ADDR || a->nsub < 1 || a->sub[0].kind != IR_OPND_REG) goto unsupported;
        r->h = vm_lsrc(lc, &a->sub[0], IR_T_U64);
        r->d[0] = vm_ldst(lc, &in->opnds[0]);
        r->nd = 1;
        r->run = run_query;
    } else if (kind == K_TEX || kind == K_TLD4) {
        int g = geometry(in);
        if (g < 0 || in->ntypes < 2) goto unsupported;
        r->geom = (uint8_t)g;
        uint8_t dt = in->types[0], ct = in->types[1];
        if (dt != IR_T_F32 && dt != IR_T_S32 && dt != IR_T_U32) goto unsupported;
        r->dfloat = dt == IR_T_F32, r->cint = ct == IR_T_S32;
        if (kind == K_TLD4)
            r->comp = ir_has_mod(in, IR_MOD_G) ? 1 : ir_has_mod(in, IR_MOD_B) ? 2 : ir_has_mod(in, IR_MOD_A) ? 3 : 0;
        if (in->opnds[0].kind == IR_OPND_PAIR) goto unsupported; /* sparse-texture predicate */
        r->nd = regs(lc, &in->opnds[0], r->d, true, dt);
        if (!handle_coords(lc, &in->opnds[1], r, ct)) goto unsupported;
        r->run = run_tex;
    } else {
        int g = geometry(in);
        if (g < 0 || g == G_CUBE || g == G_ACUBE || !ir_has_mod(in, IR_MOD_B) || in->ntypes < 1) goto unsupported;
        r->geom = (uint8_t)g;
        uint8_t et = in->types[0];
        r->esz = et == IR_T_B8 ? 1 : et == IR_T_B16 ? 2 : et == IR_T_B32 ? 4 : et == IR_T_B64 ? 8 : 0;
        if (!r->esz) goto unsupported;
        r->bmode = ir_has_mod(in, IR_MOD_CLAMP) ? B_CLAMP : ir_has_mod(in, IR_MOD_ZERO) ? B_ZERO : B_TRAP;
        const ir_operand *data = &in->opnds[kind == K_SULD ? 0 : 1], *addr = &in->opnds[kind == K_SULD ? 1 : 0];
        r->vec = regs(lc, data, r->d, kind == K_SULD, et);
        r->nd = r->vec;
        if (!handle_coords(lc, addr, r, IR_T_S32)) goto unsupported;
        r->run = run_surf;
    }
    vi.p = r;
    vm_lemit(lc, vi);
    return true;
unsupported:
    free(r);
    return false;
}
