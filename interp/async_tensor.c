/* async_tensor.c — the tensor forms of the bulk asynchronous copies, tile
 * and im2col modes: cp.async.bulk.tensor loads a box (or an im2col column) of a tensor described by a tensor map
 * (async_tensor.h) into shared memory, out-of-bounds elements filled, with the
 * map's swizzle, and completes its bytes on an mbarrier; the store and
 * cp.reduce.async.bulk.tensor write (or reduce) the in-bounds elements back;
 * tensormap.replace edits a map. The shared layout (dimension 0 fastest,
 * dense), the swizzles, the NaN fill and how tensormap.replace reads its value
 * were checked against an H200 (gpu/jobs/async_tensor); element strides follow
 * the driver's documentation (the GPU rejected the case that recorded them).
 * The im2col walk (bounding box, offsets, strides, fill) was checked against
 * an H100 (gpu/jobs/async_im2col). */
#include "async_impl.h"
#include "async_tensor.h"

static const uint8_t tm_esz[VM_TM__COUNT] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};

_Static_assert(sizeof(vm_tmap) == 128, "a tensor map is 128 bytes");

static const uint32_t swz_span[4] = {0, 32, 64, 128};

/* The rules both encoders share (see ptxi_tmap_encode_tiled), checked while
 * filling *t; `inner` is the number of elements of dimension 0 one copy moves.
 * Returns 0 or 1. */
static int encode_common(vm_tmap *t, unsigned dtype, unsigned rank, uint64_t gaddr, const uint64_t *dims,
                         const uint64_t *strides, const uint32_t *estrides, unsigned interleave, unsigned swizzle,
                         unsigned l2promo, unsigned oobfill, uint32_t inner) {
    if (dtype >= VM_TM__COUNT || rank < 1 || rank > 5 || interleave > 2 || swizzle > 3 || l2promo > 3 || oobfill > 1 ||
        (interleave && rank < 3) || !dims || !estrides || (rank > 1 && !strides))
        return 1;
    uint32_t esz = tm_esz[dtype];
    if (gaddr & (interleave == 2 ? 31 : 15)) return 1;
    if (oobfill && (dtype < VM_TM_F16 || dtype == VM_TM_U64 || dtype == VM_TM_S64)) return 1;
    memset(t, 0, sizeof *t);
    t->magic = VM_TMAP_MAGIC;
    t->rank = (uint8_t)rank;
    t->esz = (uint8_t)esz;
    t->dtype = (uint8_t)dtype;
    t->interleave = (uint8_t)interleave;
    t->swizzle = (uint8_t)swizzle;
    t->l2promo = (uint8_t)l2promo;
    t->oobfill = (uint8_t)oobfill;
    t->base = gaddr;
    for (unsigned d = 0; d < rank; d++) {
        if (dims[d] == 0 || dims[d] > (1ull << 32) || estrides[d] == 0 || estrides[d] > 8) return 1;
        t->dim_m1[d] = (uint32_t)(dims[d] - 1);
        t->estride[d] = estrides[d];
        if (d > 0) {
            uint64_t s = strides[d - 1];
            if (s % (interleave == 2 ? 32 : 16) || s >= (1ull << 40)) return 1;
            t->stride[d - 1] = s;
        }
    }
    if (!interleave && (inner * esz) % 16) return 1;
    if (!interleave && swizzle && inner * esz > swz_span[swizzle]) return 1;
    return 0;
}

int ptxi_tmap_encode_tiled(void *map, unsigned dtype, unsigned rank, uint64_t gaddr, const uint64_t *dims,
                           const uint64_t *strides, const uint32_t *box, const uint32_t *estrides, unsigned interleave,
                           unsigned swizzle, unsigned l2promo, unsigned oobfill) {
    if (!map || !box || rank < 1 || rank > 5) return 1;
    vm_tmap t;
    if (encode_common(&t, dtype, rank, gaddr, dims, strides, estrides, interleave, swizzle, l2promo, oobfill, box[0]))
        return 1;
    for (unsigned d = 0; d < rank; d++) {
        if (box[d] == 0 || box[d] > 256) return 1;
        t.box[d] = box[d];
    }
    memcpy(map, &t, sizeof t);
    return 0;
}

int ptxi_tmap_replace_address(void *map, uint64_t gaddr) {
    vm_tmap *m = map;
    if (!m || m->magic != VM_TMAP_MAGIC || gaddr % 16) return 1;
    m->base = gaddr;
    return 0;
}

int ptxi_tmap_encode_im2col(void *map, unsigned dtype, unsigned rank, uint64_t gaddr, const uint64_t *dims,
                            const uint64_t *strides, const int *lower, const int *upper, uint32_t channels,
                            uint32_t pixels, const uint32_t *estrides, unsigned interleave, unsigned swizzle,
                            unsigned l2promo, unsigned oobfill) {
    static const int corner_bits[6] = {0, 0, 0, 15, 7, 4};
    if (!map || rank < 3 || rank > 5 || !lower || !upper || channels == 0 || channels > 256 || pixels == 0 ||
        pixels > 1024)
        return 1;
    vm_tmap t;
    if (encode_common(&t, dtype, rank, gaddr, dims, strides, estrides, interleave, swizzle, l2promo, oobfill, channels))
        return 1;
    int lim = 1 << corner_bits[rank];
    for (unsigned d = 0; d + 2 < rank; d++) {
        if (lower[d] < -lim || lower[d] >= lim || upper[d] < -lim || upper[d] >= lim) return 1;
        if ((int64_t)dims[d + 1] + upper[d] - lower[d] <= 0) return 1; /* an empty bounding box */
        t.lower[d] = (int16_t)lower[d];
        t.upper[d] = (int16_t)upper[d];
    }
    t.mode = VM_TMAP_IM2COL;
    t.box[0] = channels;
    t.box[1] = pixels;
    memcpy(map, &t, sizeof t);
    return 0;
}

/* The map of lane l, checked; false after a fault. */
static bool read_map(vm_warp *w, uint8_t *fb, const vm_insn *i, const as_addr *ad, int l, vm_tmap *t) {
    uint64_t a = as_ea(w, fb, ad, l);
    if (a & 63) {
        vm_fault_at(w, i, l, PTXI_MISALIGNED_ADDRESS, "tensor map at 0x%llx is not 64-byte aligned",
                    (unsigned long long)a);
        return false;
    }
    uint8_t *p0 = xlate(w, fb, i, l, a, 64, false), *p1 = p0 ? xlate(w, fb, i, l, a + 64, 64, false) : NULL;
    if (!p1) return false;
    memcpy(t, p0, 64);
    memcpy((uint8_t *)t + 64, p1, 64);
    if (t->magic != VM_TMAP_MAGIC || t->rank < 1 || t->rank > 5 || t->dtype >= VM_TM__COUNT) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION,
                    "the 128 bytes at 0x%llx are not a tensor map made by cuTensorMapEncodeTiled or Im2col",
                    (unsigned long long)a);
        return false;
    }
    if (t->interleave) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION, "interleaved tensor maps are not supported");
        return false;
    }
    return true;
}

/* Walks the box: calls `fn` for every element with its global address (0
 * when out of bounds) and its offset in the (unswizzled) shared box. */
typedef bool (*tm_elem_fn)(void *ctx, uint64_t gaddr, uint32_t off);

static uint32_t box_bytes(const vm_tmap *t) {
    if (t->mode == VM_TMAP_IM2COL) return t->box[0] * t->box[1] * t->esz;
    uint32_t n = t->esz;
    for (unsigned d = 0; d < t->rank; d++) n *= (t->box[d] + t->estride[d] - 1) / t->estride[d];
    return n;
}

static bool walk_box(const vm_tmap *t, const int32_t *c, tm_elem_fn fn, void *ctx) {
    uint32_t nel[5], j[5] = {0};
    for (unsigned d = 0; d < t->rank; d++) nel[d] = (t->box[d] + t->estride[d] - 1) / t->estride[d];
    for (uint32_t off = 0;; off += t->esz) {
        uint64_t ga = t->base;
        bool in = true;
        for (unsigned d = 0; d < t->rank; d++) {
            int64_t g = (int64_t)c[d] + (int64_t)j[d] * t->estride[d];
            if (g < 0 || g > (int64_t)t->dim_m1[d]) in = false;
            else ga += d ? (uint64_t)g * t->stride[d - 1] : (uint64_t)g * t->esz;
        }
        if (!fn(ctx, in ? ga : 0, off)) return false;
        unsigned d = 0;
        while (d < t->rank && ++j[d] == nel[d]) j[d++] = 0;
        if (d == t->rank) return true;
    }
}

/* Walks an im2col column: pixelsPerColumn pixels of channelsPerPixel elements
 * each (channels fastest). The pixel walk starts at the coordinates of
 * dimensions 1 .. rank-1 and steps through the bounding box, dimension 1
 * fastest: in spatial dimension d the walk covers [lower, globalDim + upper)
 * in steps of the element stride, and on leaving it returns to lower and
 * carries into the next dimension; the batch dimension (rank-1) has no bound.
 * Each pixel is read at its walk position plus the im2col offsets, which are
 * unsigned: an H100 reads an offset of -3 (0xfffd) as 65533. */
static bool walk_im2col(const vm_tmap *t, const int32_t *c, const uint16_t *o, tm_elem_fn fn, void *ctx) {
    unsigned r = t->rank;
    int64_t pos[5];
    for (unsigned d = 1; d < r; d++) pos[d] = c[d];
    uint32_t off = 0;
    for (uint32_t p = 0; p < t->box[1]; p++) {
        uint64_t pa = t->base;
        bool in = true;
        for (unsigned d = 1; d < r; d++) {
            int64_t g = pos[d] + (d + 1 < r ? o[d - 1] : 0);
            if (g < 0 || g > (int64_t)t->dim_m1[d]) in = false;
            else pa += (uint64_t)g * t->stride[d - 1];
        }
        for (uint32_t k = 0; k < t->box[0]; k++, off += t->esz) {
            int64_t g = (int64_t)c[0] + k;
            bool ok = in && g >= 0 && g <= (int64_t)t->dim_m1[0];
            if (!fn(ctx, ok ? pa + (uint64_t)g * t->esz : 0, off)) return false;
        }
        for (unsigned d = 1; d < r; d++) {
            pos[d] += t->estride[d];
            if (d + 1 == r) break;
            if (pos[d] < (int64_t)t->dim_m1[d] + 1 + t->upper[d - 1]) break;
            pos[d] = t->lower[d - 1];
        }
    }
    return true;
}

/* Shared address of box offset `off` after the swizzle: the 16-byte chunk
 * index (address bits 4..6) is xor-ed with address bits 7..9, masked to the
 * swizzle's span (32, 64 or 128 bytes). */
static uint32_t swizzle(unsigned mode, uint32_t sa) {
    static const uint32_t mask[4] = {0, 1, 3, 7};
    return sa ^ (((sa >> 7) & mask[mode]) << 4);
}

typedef struct tm_ctx {
    vm_warp *w;
    uint8_t *fb;
    const vm_insn *i;
    const as_rec *r;
    const vm_tmap *t;
    int lane;
    uint32_t sa;   /* shared address of the box */
    uint8_t *smem; /* the shared memory it goes to (a load) */
} tm_ctx;

/* The NaN an H200 fills f32 boxes with is 0x7ff77ff7; the other widths
 * repeat the same 16-bit pattern (not recorded). */
static const uint64_t tm_nan[VM_TM__COUNT] = {[VM_TM_F16] = 0x7ff7,
                                              [VM_TM_BF16] = 0x7ff7,
                                              [VM_TM_F32] = 0x7ff77ff7,
                                              [VM_TM_F32_FTZ] = 0x7ff77ff7,
                                              [VM_TM_TF32] = 0x7ff77ff7,
                                              [VM_TM_TF32_FTZ] = 0x7ff77ff7,
                                              [VM_TM_F64] = 0x7ff77ff77ff77ff7ull};

static bool load_elem(void *ctx, uint64_t ga, uint32_t off) {
    tm_ctx *c = ctx;
    const vm_tmap *t = c->t;
    uint8_t *dst = c->smem + swizzle(t->swizzle, c->sa + off);
    if (!ga) {
        store_bits(dst, t->esz, t->oobfill ? tm_nan[t->dtype] : 0);
        return true;
    }
    uint8_t *src = xlate(c->w, c->fb, c->i, c->lane, ga, t->esz, false);
    if (!src) return false;
    memcpy(dst, src, t->esz);
    return true;
}

/* Reductions take their element type from the map. */
static int tm_atom_type(unsigned dtype) {
    switch (dtype) {
    case VM_TM_U32: return VM_AT_U32;
    case VM_TM_S32: return VM_AT_S32;
    case VM_TM_U64: return VM_AT_U64;
    case VM_TM_S64: return VM_AT_S64;
    case VM_TM_F32:
    case VM_TM_F32_FTZ: return VM_AT_F32;
    case VM_TM_F64: return VM_AT_F64;
    case VM_TM_F16: return VM_AT_F16;
    case VM_TM_BF16: return VM_AT_BF16;
    default: return -1;
    }
}

static bool store_elem(void *ctx, uint64_t ga, uint32_t off) {
    tm_ctx *c = ctx;
    const vm_tmap *t = c->t;
    if (!ga) return true; /* out-of-bounds elements are not written */
    const uint8_t *src = c->w->cta->smem + swizzle(t->swizzle, c->sa + off);
    uint8_t *dst = xlate(c->w, c->fb, c->i, c->lane, ga, t->esz, true);
    if (!dst) return false;
    if (!(c->r->flags & AS_F_REDUCE)) {
        memcpy(dst, src, t->esz);
        return true;
    }
    int at = tm_atom_type(t->dtype);
    atom_lane(dst, c->r->redop, (unsigned)at, load_bits(src, t->esz, false), 0, &c->r->half[t->dtype == VM_TM_BF16]);
    return true;
}

static bool coords(uint8_t *fb, const as_rec *r, const vm_tmap *t, vm_warp *w, const vm_insn *i, int l, int32_t *c) {
    if (t->rank != r->rank) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION, "a %ud tensor copy with a tensor map of rank %u", r->rank,
                    t->rank);
        return false;
    }
    if ((t->mode == VM_TMAP_IM2COL) != !!(r->flags & AS_F_IM2COL)) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION, "a tensor copy in %s mode with a tensor map made for %s mode",
                    r->flags & AS_F_IM2COL ? "im2col" : "tile", t->mode == VM_TMAP_IM2COL ? "im2col" : "tile");
        return false;
    }
    for (unsigned d = 0; d < r->rank; d++) c[d] = (int32_t)get_reg(fb, r->crd[d].off, r->crd[d].kind, l);
    return true;
}

/* cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes [dst], [map, {c}], [mbar] */
int as_tensor_load(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            vm_tmap t;
            int32_t c[5];
            if (!read_map(w, fb, i, &r->src, l, &t) || !coords(fb, r, &t, w, i, l, c)) return VM_EXT_FAULT;
            uint32_t n = box_bytes(&t);
            uint8_t *dp = as_shared(w, i, &r->dst, as_ea(w, fb, &r->dst, l), l, n, 128, "tensor copy destination");
            uint8_t *bp = dp ? as_shared(w, i, &r->bar, as_ea(w, fb, &r->bar, l), l, 8, 8, "mbarrier object") : NULL;
            if (!bp) return VM_EXT_FAULT;
            uint16_t o[3] = {0, 0, 0};
            for (unsigned d = 0; d + 2 < r->rank && (r->flags & AS_F_IM2COL); d++)
                o[d] = (uint16_t)get_reg(fb, r->off[d].off, r->off[d].kind, l);
            /* without .multicast::cluster the box goes to this CTA only; with it,
             * to each CTA of the ctaMask (at the same offsets), read once per CTA */
            uint32_t mask = r->flags & AS_F_MULTICAST ? (uint16_t)get_reg(fb, r->s[1].off, r->s[1].kind, l) : 0;
            uint64_t bo = (uint64_t)(bp - w->cta->smem);
            for (uint32_t k = 0; k < 16 && (k == 0 || mask >> k); k++) {
                if (mask && !(mask >> k & 1)) continue;
                vm_cta *cta = mask ? as_mc_cta(w, k) : w->cta;
                if (!cta) continue;
                tm_ctx ctx = {w, fb, i, r, &t, l, (uint32_t)(dp - w->cta->smem), cta->smem};
                if (!((r->flags & AS_F_IM2COL) ? walk_im2col(&t, c, o, load_elem, &ctx)
                                               : walk_box(&t, c, load_elem, &ctx)))
                    return VM_EXT_FAULT;
                if (!as_complete_tx(w, i, l, (uint64_t *)(cta->smem + bo), bo, n)) return VM_EXT_FAULT;
                if (!mask) break;
            }
        }
    return VM_EXT_NEXT;
}

/* cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [map, {c}], [src] and the
 * cp.reduce.async.bulk.tensor form */
int as_tensor_store(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            vm_tmap t;
            int32_t c[5];
            if (!read_map(w, fb, i, &r->dst, l, &t) || !coords(fb, r, &t, w, i, l, c)) return VM_EXT_FAULT;
            if ((r->flags & AS_F_REDUCE) &&
                (tm_atom_type(t.dtype) < 0 ||
                 ((t.dtype == VM_TM_F16 || t.dtype == VM_TM_BF16) && !r->half[t.dtype == VM_TM_BF16].fn))) {
                vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION,
                            "this tensor reduction is not defined for the map's element type");
                return VM_EXT_FAULT;
            }
            uint32_t n = box_bytes(&t);
            uint8_t *sp = as_shared(w, i, &r->src, as_ea(w, fb, &r->src, l), l, n, 128, "tensor copy source");
            if (!sp) return VM_EXT_FAULT;
            tm_ctx ctx = {w, fb, i, r, &t, l, (uint32_t)(sp - w->cta->smem), w->cta->smem};
            if (!walk_box(&t, c, store_elem, &ctx)) return VM_EXT_FAULT;
        }
    return VM_EXT_NEXT;
}

/* ---- tensormap.replace and tensormap.cp_fenceproxy ---- */

/* The map of lane l for writing: in global memory or in shared memory. */
static uint8_t *map_ptr(vm_warp *w, uint8_t *fb, const vm_insn *i, const as_addr *ad, int l) {
    uint64_t a = as_ea(w, fb, ad, l);
    if (ad->sp == VM_SP_SHARED || (ad->sp == VM_SP_GENERIC && a - vm_shared_win < VM_WIN_SIZE))
        return as_shared(w, i, ad, a, l, 128, 64, "tensor map");
    if (a & 63) {
        vm_fault_at(w, i, l, PTXI_MISALIGNED_ADDRESS, "tensor map at 0x%llx is not 64-byte aligned",
                    (unsigned long long)a);
        return NULL;
    }
    uint8_t *p = xlate(w, fb, i, l, a, 64, true);
    return p && xlate(w, fb, i, l, a + 64, 64, true) ? p : NULL;
}

int as_tmap_replace(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    unsigned field = r->redop, ord = r->size;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint8_t *p = map_ptr(w, fb, i, &r->dst, l);
            if (!p) return VM_EXT_FAULT;
            vm_tmap t;
            memcpy(&t, p, sizeof t);
            uint64_t v = get_reg(fb, r->s[0].off, r->s[0].kind, l);
            if (ord > 4 || (field == AS_TM_GSTRIDE && ord > 3)) {
                vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION, "tensormap.replace: dimension %u out of range", ord);
                return VM_EXT_FAULT;
            }
            /* As an H200 reads new_val (gpu/jobs/async_tensor/replace.cu): the
             * rank minus one; box and global dimensions, strides in bytes and
             * the address as they are. */
            switch (field) {
            case AS_TM_ADDR: t.base = v; break;
            case AS_TM_RANK: t.rank = (uint8_t)(v + 1); break;
            case AS_TM_BOX: t.box[ord] = (uint32_t)v; break;
            case AS_TM_GDIM: t.dim_m1[ord] = (uint32_t)v - 1; break;
            case AS_TM_GSTRIDE: t.stride[ord] = v; break;
            case AS_TM_ESTRIDE: t.estride[ord] = (uint32_t)v; break;
            case AS_TM_ELEMTYPE:
                if (v < VM_TM__COUNT) t.dtype = (uint8_t)v, t.esz = tm_esz[v];
                break;
            case AS_TM_INTERLEAVE: t.interleave = (uint8_t)v; break;
            case AS_TM_SWIZZLE: t.swizzle = (uint8_t)v; break;
            case AS_TM_FILL: t.oobfill = (uint8_t)v; break;
            default: break; /* swizzle atomicity: no effect here */
            }
            memcpy(p, &t, sizeof t);
        }
    return VM_EXT_NEXT;
}

/* tensormap.cp_fenceproxy.global.shared::cta...: copies 128 bytes of map. */
int as_tmap_copy(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint8_t *d = map_ptr(w, fb, i, &r->dst, l), *s = d ? map_ptr(w, fb, i, &r->src, l) : NULL;
            if (!s) return VM_EXT_FAULT;
            memmove(d, s, 128);
        }
    return VM_EXT_NEXT;
}
