/* collectives.c — warp-wide instructions (shfl, vote, match, redux,
 * activemask, bar.warp.sync).
 * Collectives follow sm_70+ semantics: every live lane of the member mask
 * must arrive (lanes that exited, or that a partial warp lacks, count as
 * arrived, as on an H100); lanes that arrive from another branch are waited for. */
#include <stdlib.h>
#include <string.h>

#include "exec_mem.h"
#include "warp.h"

/* Collective operand layout: d = destination, a = source, b = lane/offset
 * (shfl) , c = clamp/segment (shfl), imm = frame offset of the member mask,
 * p = vm_alu with the optional predicate destination in d[1] and predicate
 * source in s[0]; x = mode (vm.h: vm_shfl_mode, vm_vote_mode, vm_match_mode,
 * vm_redux_op). */

/* Lanes that wait here until the rest of the member mask arrives. */
static int wait_for_members(vm_warp *w, const vm_insn *i, uint32_t m) {
    for (int l = 0; l < VM_LANES; l++)
        if (w->mask >> l & 1) w->lpc[l] = (m >> l & 1) ? i : i + 1;
    w->blocked |= m;
    w->collwait |= m;
    return 1;
}

/* Lanes that count as exited: those that executed exit and those a partial
 * last warp does not have. On an H100 a collective whose member mask names
 * them runs without them, and a shfl that reads one of them gets 0
 * (gpu/jobs/fidelity/recorded/warp_probe.*: blocks of 120 threads, and lanes
 * 24-31 returning before __shfl_down_sync / __ballot_sync / __syncwarp /
 * __reduce_add_sync with the full mask). */
static uint32_t gone(const vm_warp *w) { return ~w->present | w->exited; }

/* Joins lanes already waiting at i; returns the full set that executes, or 0
 * if members are still missing (then the caller waits). A member that is
 * alive but can never arrive (w->forced: every other lane is blocked) is an
 * error, reported for *fault_lane. */
static uint32_t gather(vm_warp *w, const vm_insn *i, uint32_t m, uint32_t members, int *fault_lane) {
    uint32_t here = 0;
    for (int l = 0; l < VM_LANES; l++)
        if (w->collwait >> l & 1 && w->lpc[l] == i) here |= 1u << l;
    uint32_t have = m | here;
    uint32_t missing = members & ~gone(w) & ~have;
    *fault_lane = -1;
    if (missing && !w->forced) return 0;
    if (missing) {
        *fault_lane = __builtin_ctz(missing);
        return 0;
    }
    return have;
}

int vm_collective_wait(vm_warp *w, const vm_insn *i, uint32_t m, uint32_t members) {
    int fl;
    uint32_t have = gather(w, i, m, members, &fl);
    bool forced = w->forced;
    w->forced = false;
    if (fl >= 0 || (!have && forced)) {
        vm_fault_at(w, i, __builtin_ctz(m), PTXI_LAUNCH_FAILED, "bar.warp.sync: member lane %d can never arrive", fl);
        return -1;
    }
    if (!have) return wait_for_members(w, i, m);
    w->blocked &= ~have;
    w->collwait &= ~have;
    for (int l = 0; l < VM_LANES; l++)
        if ((have | w->mask) >> l & 1) w->lpc[l] = i + 1;
    return 0;
}

static uint32_t fold(unsigned op, uint32_t x, uint32_t y) {
    switch (op) {
    case VM_REDUX_ADD: return x + y;
    case VM_REDUX_MIN: return x < y ? x : y;
    case VM_REDUX_MAX: return x > y ? x : y;
    case VM_REDUX_MINS: return (int32_t)x < (int32_t)y ? x : y;
    case VM_REDUX_MAXS: return (int32_t)x > (int32_t)y ? x : y;
    case VM_REDUX_AND: return x & y;
    case VM_REDUX_OR: return x | y;
    default: return x ^ y;
    }
}

/* Every lane from 0 (lane 0 against itself adds nothing): 32 lanes are two
 * whole vectors, where 31 left a vector, a half, a quarter and three lanes. */
static bool uniform32(const uint32_t *v) {
    uint32_t diff = 0;
    for (int l = 0; l < VM_LANES; l++) diff |= v[l] ^ v[0];
    return !diff;
}

/* shfl.sync of the whole warp with the full member mask and the same lane
 * operand and clamp for every lane (how compilers write reductions): the
 * source lanes follow from one formula, no per-lane membership to check.
 * False when the instruction is not of that kind. */
bool vm_shfl_full(uint8_t *fb, const vm_insn *i) {
    const uint32_t *mm = (const uint32_t *)(fb + (uint32_t)i->imm), *b = (const uint32_t *)(fb + i->b),
                   *c = (const uint32_t *)(fb + i->c);
    if (mm[0] != ~0u || !uniform32(mm) || !uniform32(b) || !uniform32(c)) return false;
    uint32_t bv = b[0] & 31, cv = c[0] & 31, seg = c[0] >> 8 & 31;
    uint32_t src[VM_LANES], pv = 0, *d = (uint32_t *)(fb + i->d);
    memcpy(src, fb + i->a, sizeof src);
    const vm_alu *o = i->p;
    uint32_t *pd = o && o->d[1].kind == VM_K_PRED ? (uint32_t *)(fb + o->d[1].off) : NULL;
    /* the whole-warp forms reductions and scans use: one shifted or permuted copy */
    bool down = i->x == VM_SHFL_DOWN && cv == 31, up = i->x == VM_SHFL_UP && cv == 0,
         bfly = i->x == VM_SHFL_BFLY && cv == 31;
    if (!seg && (down || up || bfly)) {
#ifdef __AVX512F__
        /* Two two-source permutes of the 32 values; lanes without a source
         * (down past 31, up below 0) keep their own value. A copy of a
         * variable length here was a call to memmove per shfl. */
        __m512i lo = _mm512_loadu_si512(src), hi = _mm512_loadu_si512(src + VM_HALF);
        __m512i x = _mm512_set1_epi32((int)bv),
                k0 = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        __m512i k1 = _mm512_add_epi32(k0, _mm512_set1_epi32(16)), i0, i1;
        if (bfly) i0 = _mm512_xor_si512(k0, x), i1 = _mm512_xor_si512(k1, x);
        else if (down) {
            __m512i top = _mm512_set1_epi32(31);
            i0 = _mm512_add_epi32(k0, x), i1 = _mm512_add_epi32(k1, x);
            i0 = _mm512_mask_mov_epi32(i0, _mm512_cmpgt_epi32_mask(i0, top), k0);
            i1 = _mm512_mask_mov_epi32(i1, _mm512_cmpgt_epi32_mask(i1, top), k1);
        } else {
            i0 = _mm512_sub_epi32(k0, x), i1 = _mm512_sub_epi32(k1, x);
            i0 = _mm512_mask_mov_epi32(i0, _mm512_cmplt_epi32_mask(i0, _mm512_setzero_si512()), k0);
            i1 = _mm512_mask_mov_epi32(i1, _mm512_cmplt_epi32_mask(i1, _mm512_setzero_si512()), k1);
        }
        _mm512_storeu_si512(d, _mm512_permutex2var_epi32(lo, i0, hi));
        _mm512_storeu_si512(d + VM_HALF, _mm512_permutex2var_epi32(lo, i1, hi));
#else
        for (uint32_t l = 0; l < VM_LANES; l++)
            d[l] = src[bfly ? l ^ bv : down ? (l + bv <= 31 ? l + bv : l) : (l >= bv ? l - bv : l)];
#endif
        if (pd) *pd = bfly ? ~0u : down ? (bv ? (1u << (VM_LANES - bv)) - 1 : ~0u) : ~((1u << bv) - 1);
        return true;
    }
    for (int l = 0; l < VM_LANES; l++) {
        bool ok;
        d[l] = src[vm_shfl_src(i->x, l, bv, cv, seg, &ok)];
        pv |= (uint32_t)ok << l;
    }
    if (pd) *pd = pv;
    return true;
}

int vm_collective(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const vm_alu *o = i->p;
    /* Each lane names its own member mask: tiles of one warp (16 lanes with
     * 0x0000ffff, 16 with 0xffff0000) run their collectives side by side. */
    uint32_t mm[VM_LANES], members = 0;
    for (int l = 0; l < VM_LANES; l++) {
        mm[l] = i->op == VM_ACTIVEMASK ? m : ((const uint32_t *)(fb + (uint32_t)i->imm))[l];
        if (m >> l & 1) members |= mm[l];
    }
    uint32_t have = m;
    bool joined = false;
    if (i->op != VM_ACTIVEMASK && (members & ~m)) {
        int fl;
        bool forced = w->forced;
        have = gather(w, i, m, members, &fl);
        w->forced = false;
        if (fl >= 0 || (!have && forced)) {
            vm_fault_at(w, i, __builtin_ctz(m), PTXI_LAUNCH_FAILED,
                        "%s: lane %d of member mask 0x%08x can never arrive", vm_op_name[i->op],
                        fl >= 0 ? fl : __builtin_ctz(members & ~m), members);
            return -1;
        }
        if (!have) return wait_for_members(w, i, m);
        joined = have != m;
    }
    w->forced = false;
    uint32_t *d = (uint32_t *)(fb + i->d);
    switch (i->op) {
    case VM_ACTIVEMASK:
        for (int l = 0; l < VM_LANES; l++)
            if (m >> l & 1) d[l] = w->mask;
        break;
    case VM_SHFL: {
        const uint32_t *a = (const uint32_t *)(fb + i->a), *b = (const uint32_t *)(fb + i->b),
                       *c = (const uint32_t *)(fb + i->c);
        uint32_t src[VM_LANES], pv = 0, g = gone(w);
        memcpy(src, a, sizeof src);
        for (int l = 0; l < VM_LANES; l++)
            if (g >> l & 1) src[l] = 0;
        for (int l = 0; l < VM_LANES; l++)
            if (have >> l & 1) {
                bool ok;
                d[l] = src[vm_shfl_src(i->x, l, b[l] & 31, c[l] & 31, c[l] >> 8 & 31, &ok)];
                pv |= (uint32_t)ok << l;
            }
        if (o && o->d[1].kind == VM_K_PRED) {
            uint32_t *p = (uint32_t *)(fb + o->d[1].off);
            *p = (*p & ~have) | (pv & have);
        }
        break;
    }
    case VM_VOTE: {
        uint32_t pv = *(uint32_t *)(fb + i->a) ^ (uint32_t)i->b, res = 0;
        for (int l = 0; l < VM_LANES; l++)
            if (have >> l & 1) {
                uint32_t act = have & mm[l], pred = pv & act;
                if (i->x == VM_VOTE_BALLOT) d[l] = pred;
                else
                    res |= (uint32_t)(i->x == VM_VOTE_ALL   ? pred == act
                                      : i->x == VM_VOTE_ANY ? pred != 0
                                                            : (pred == 0 || pred == act))
                           << l;
            }
        if (i->x != VM_VOTE_BALLOT) {
            uint32_t *p = (uint32_t *)(fb + i->d);
            *p = (*p & ~have) | (res & have);
        }
        break;
    }
    case VM_MATCH: {
        bool wide = i->flags & VM_F_D64;
        uint64_t v[VM_LANES];
        for (int l = 0; l < VM_LANES; l++)
            v[l] = wide ? ((const uint64_t *)(fb + i->a))[l] : ((const uint32_t *)(fb + i->a))[l];
        uint32_t pv = 0;
        for (int l = 0; l < VM_LANES; l++)
            if (have >> l & 1) {
                uint32_t same = 0, act = have & mm[l];
                for (int k = 0; k < VM_LANES; k++)
                    if (act >> k & 1 && v[k] == v[l]) same |= 1u << k;
                if (i->x == VM_MATCH_ANY) d[l] = same;
                else {
                    bool all = same == act;
                    d[l] = all ? act : 0;
                    pv |= (uint32_t)all << l;
                }
            }
        if (o && o->d[1].kind == VM_K_PRED) {
            uint32_t *p = (uint32_t *)(fb + o->d[1].off);
            *p = (*p & ~have) | (pv & have);
        }
        break;
    }
    case VM_REDUX: {
        const uint32_t *a = (const uint32_t *)(fb + i->a);
        uint32_t res[VM_LANES];
        for (int l = 0; l < VM_LANES; l++) {
            if (!(have >> l & 1)) continue;
            uint32_t act = have & mm[l], acc = 0;
            bool first = true;
            for (int k = 0; k < VM_LANES; k++)
                if (act >> k & 1) {
                    acc = first ? a[k] : fold(i->x, acc, a[k]);
                    first = false;
                }
            res[l] = acc;
        }
        for (int l = 0; l < VM_LANES; l++)
            if (have >> l & 1) d[l] = res[l];
        break;
    }
    default: break;
    }
    if (!joined) return 0;
    w->blocked &= ~have;
    w->collwait &= ~have;
    for (int l = 0; l < VM_LANES; l++)
        if ((have | w->mask) >> l & 1) w->lpc[l] = i + 1;
    return 2;
}
