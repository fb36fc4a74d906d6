/* collectives.c — warp-wide instructions (shfl, vote, match, redux,
 * activemask, bar.warp.sync), the generic per-lane ALU handler, and the
 * built-in device functions (vprintf, malloc, free, __assertfail).
 * Collectives follow sm_70+ semantics: every live lane of the member mask
 * must arrive (lanes that exited, or that a partial warp lacks, count as
 * arrived, as on an H100); lanes that arrive from another branch are waited for. */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "exec_mem.h"
#include "warp.h"

/* Collective operand layout: d = destination, a = source, b = lane/offset
 * (shfl) , c = clamp/segment (shfl), imm = frame offset of the member mask,
 * p = vm_alu with the optional predicate destination in d[1] and predicate
 * source in s[0]; x = mode. */
enum { SH_IDX, SH_UP, SH_DOWN, SH_BFLY };
enum { VO_ALL, VO_ANY, VO_UNI, VO_BALLOT };
enum { MA_ANY, MA_ALL };
enum { RX_ADD, RX_MIN, RX_MAX, RX_AND, RX_OR, RX_XOR, RX_MINS, RX_MAXS };

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
    if (missing) { *fault_lane = __builtin_ctz(missing); return 0; }
    return have;
}

int vm_collective_wait(vm_warp *w, const vm_insn *i, uint32_t m, uint32_t members) {
    int fl;
    uint32_t have = gather(w, i, m, members, &fl);
    bool forced = w->forced;
    w->forced = false;
    if (fl >= 0 || (!have && forced)) {
        vm_fault_at(w, i, __builtin_ctz(m), 103, "bar.warp.sync: member lane %d can never arrive", fl);
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
    case RX_ADD: return x + y;
    case RX_MIN: return x < y ? x : y;
    case RX_MAX: return x > y ? x : y;
    case RX_MINS: return (int32_t)x < (int32_t)y ? x : y;
    case RX_MAXS: return (int32_t)x > (int32_t)y ? x : y;
    case RX_AND: return x & y;
    case RX_OR: return x | y;
    default: return x ^ y;
    }
}

/* The lane that lane l reads in a shfl of mode `mode` with lane operand bv,
 * clamp cv and segment mask seg; *ok = false when it is out of range (l then
 * reads its own value). */
static inline int shfl_src(int mode, int l, uint32_t bv, uint32_t cv, uint32_t seg, bool *ok) {
    uint32_t maxl = ((uint32_t)l & seg) | (cv & ~seg), minl = (uint32_t)l & seg;
    int j;
    switch (mode) {
    case SH_UP: j = l - (int)bv; *ok = j >= (int)maxl; break;
    case SH_DOWN: j = l + (int)bv; *ok = j <= (int)maxl; break;
    case SH_BFLY: j = l ^ (int)bv; *ok = j <= (int)maxl; break;
    default: j = (int)(minl | (bv & ~seg)); *ok = j <= (int)maxl; break;
    }
    return (*ok ? j : l) & 31;
}

static bool uniform32(const uint32_t *v) {
    uint32_t diff = 0;
    for (int l = 1; l < VM_LANES; l++) diff |= v[l] ^ v[0];
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
    if (!seg && ((i->x == SH_DOWN && cv == 31) || (i->x == SH_UP && cv == 0))) {
        bool down = i->x == SH_DOWN;
        memcpy(d, src, sizeof src);   /* lanes without a source keep their own value */
        if (down) memcpy(d, src + bv, (VM_LANES - bv) * sizeof *src);
        else memcpy(d + bv, src, (VM_LANES - bv) * sizeof *src);
        uint32_t ok = bv ? (1u << (VM_LANES - bv)) - 1 : ~0u;
        if (pd) *pd = down ? ok : ~((1u << bv) - 1);
        return true;
    }
    if (!seg && cv == 31 && i->x == SH_BFLY) {
        for (int l = 0; l < VM_LANES; l++) d[l] = src[l ^ bv];
        if (pd) *pd = ~0u;
        return true;
    }
    for (int l = 0; l < VM_LANES; l++) {
        bool ok;
        d[l] = src[shfl_src(i->x, l, bv, cv, seg, &ok)];
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
            vm_fault_at(w, i, __builtin_ctz(m), 103, "%s: lane %d of member mask 0x%08x can never arrive",
                        vm_op_name[i->op], fl >= 0 ? fl : __builtin_ctz(members & ~m), members);
            return -1;
        }
        if (!have) return wait_for_members(w, i, m);
        joined = have != m;
    }
    w->forced = false;
    uint32_t *d = (uint32_t *)(fb + i->d);
    switch (i->op) {
    case VM_ACTIVEMASK:
        for (int l = 0; l < VM_LANES; l++) if (m >> l & 1) d[l] = w->mask;
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
                d[l] = src[shfl_src(i->x, l, b[l] & 31, c[l] & 31, c[l] >> 8 & 31, &ok)];
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
                if (i->x == VO_BALLOT) d[l] = pred;
                else res |= (uint32_t)(i->x == VO_ALL ? pred == act : i->x == VO_ANY ? pred != 0
                                                                          : (pred == 0 || pred == act)) << l;
            }
        if (i->x != VO_BALLOT) {
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
                if (i->x == MA_ANY) d[l] = same;
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
        for (int l = 0; l < VM_LANES; l++) if (have >> l & 1) d[l] = res[l];
        break;
    }
    default:
        break;
    }
    if (!joined) return 0;
    w->blocked &= ~have;
    w->collwait &= ~have;
    for (int l = 0; l < VM_LANES; l++)
        if ((have | w->mask) >> l & 1) w->lpc[l] = i + 1;
    return 2;
}

/* ---- generic ALU ---- */

static inline uint64_t read_opnd(const uint8_t *fb, const vm_opnd *o, uint8_t bytes, int l) {
    switch (o->kind) {
    case VM_K_PRED: return (*(const uint32_t *)(fb + o->off) >> l) & 1;
    case VM_K_R64: {
        uint64_t v = ((const uint64_t *)(fb + o->off))[l];
        return bytes && bytes < 8 ? v & ((1ull << (8 * bytes)) - 1) : v;
    }
    default: {
        uint64_t v = ((const uint32_t *)(fb + o->off))[l];
        return bytes && bytes < 4 ? v & ((1ull << (8 * bytes)) - 1) : v;
    }
    }
}

static inline void write_opnd(uint8_t *fb, const vm_opnd *o, int l, uint64_t v) {
    switch (o->kind) {
    case VM_K_PRED: {
        uint32_t *p = (uint32_t *)(fb + o->off);
        *p = (*p & ~(1u << l)) | ((uint32_t)(v & 1) << l);
        break;
    }
    case VM_K_R64: ((uint64_t *)(fb + o->off))[l] = v; break;
    case VM_K_SINK: break;
    default: ((uint32_t *)(fb + o->off))[l] = (uint32_t)v; break;
    }
}

/* The carry flag lives in a hidden per-frame register at the end of the frame. */
void vm_alu_run(vm_warp *w, uint8_t *fb, const vm_alu *a, uint32_t m) {
    uint32_t *cc = (uint32_t *)(fb + w->frames[w->depth - 1].fn->frame_size - 4 * VM_LANES);
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint64_t s[6], d[2] = {0, 0};
            for (unsigned k = 0; k < a->op.ns; k++) s[k] = read_opnd(fb, &a->s[k], a->op.sbytes[k], l);
            a->op.fn(&a->op, d, s, &cc[l]);
            for (unsigned k = 0; k < a->op.nd; k++) write_opnd(fb, &a->d[k], l, d[k]);
        }
}

/* ---- built-in device functions ---- */

/* Device memory as one thread sees it: generic addresses through the shared
 * and local windows, else the arena. For vprintf's format, arguments and %s. */
typedef struct lane_view {
    vm_warp *w;
    int lane;
    uint64_t bad;
} lane_view;

uint8_t *vm_lane_ptr(vm_warp *w, int lane, uint64_t a, size_t n) {
    if (a - vm_shared_win < VM_WIN_SIZE) {
        uint64_t o = a - vm_shared_win;
        return o + n <= w->cta->smem_full ? w->cta->smem + o : NULL;
    }
    if (a - vm_local_win < VM_WIN_SIZE) {
        uint64_t o = a - vm_local_win;
        return o + n <= w->local_stride && vm_local_mem(w) ? w->local + (size_t)lane * w->local_stride + o : NULL;
    }
    vm_arena *ar = w->cta->grid->cfg->kernel->prog->rt->arena;
    return n && vm_arena_ok(ar, a, n, false) ? (uint8_t *)(uintptr_t)a : NULL;
}

static int lane_read(void *c, uint64_t a, void *dst, size_t n) {
    lane_view *v = c;
    const uint8_t *src = vm_lane_ptr(v->w, v->lane, a, n);
    if (!src) { v->bad = a; return 0; }
    memcpy(dst, src, n);
    return 1;
}

int vm_builtin_call(vm_warp *w, const vm_insn *i, vm_func *callee, uint32_t lanes) {
    const vm_callinfo *ci = i->p;
    vm_frame *fr = &w->frames[w->depth - 1];
    vm_runtime *rt = fr->fn->prog->rt;
    if (callee->builtin >= VM_BI_DEV_FIRST) return vm_devrt_call(w, i, callee, lanes);
#define ARG(k, l) (ci->nargs > (k) ? load_bits(fr->fb + ci->argoff[k] + (size_t)(l) * ci->argsize[k], \
                                               ci->argsize[k] > 8 ? 8 : ci->argsize[k], false) : 0)
#define RET(l, v) do { if (ci->nrets) store_bits(fr->fb + ci->retoff[0] + (size_t)(l) * ci->retsize[0], \
                                                 ci->retsize[0] > 8 ? 8 : ci->retsize[0], (v)); } while (0)
    for (int l = 0; l < VM_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        if (callee->host_fn) {
            void *args[32];
            for (uint32_t k = 0; k < ci->nargs; k++) args[k] = fr->fb + ci->argoff[k] + (size_t)l * ci->argsize[k];
            rt->call_host(rt->ctx, callee, args, ci->nrets ? fr->fb + ci->retoff[0] + (size_t)l * ci->retsize[0] : NULL);
        } else if (callee->builtin == VM_BI_VPRINTF) {
            lane_view v = {w, l, 0};
            int r = rt->vprintf(rt->ctx, ARG(0, l), ARG(1, l), lane_read, &v);
            if (r < -1) {
                vm_fault_at(w, i, l, 100, "printf: the format or a %%s argument at 0x%llx is not readable",
                            (unsigned long long)v.bad);
                return -1;
            }
            RET(l, (uint64_t)(int64_t)r);
        } else if (callee->builtin == VM_BI_MALLOC) {
            RET(l, rt->malloc(rt->ctx, ARG(0, l), 16));
        } else if (callee->builtin == VM_BI_ALIGNED_MALLOC) {
            RET(l, rt->malloc(rt->ctx, ARG(0, l), ARG(1, l)));
        } else if (callee->builtin == VM_BI_FREE) {
            uint64_t p = ARG(0, l);
            int st = p ? rt->free(rt->ctx, p) : 0;
            if (st) {
                vm_fault_at(w, i, l, st, "free(0x%llx): not a live device-heap allocation (%s)", (unsigned long long)p,
                            st == 100 ? "not a heap address" : "double free");
                return -1;
            }
        } else if (callee->builtin == VM_BI_ASSERTFAIL) {
            /* __assertfail(message, file, line, function, charSize) */
            char msg[256] = "?", file[256] = "?", fn[256] = "?";
            uint64_t pm = ARG(0, l), pf = ARG(1, l), pfn = ARG(3, l);
            vm_arena *ar = rt->arena;
            uint64_t ptrs[3] = {pm, pf, pfn};
            char *outs[3] = {msg, file, fn};
            for (int k = 0; k < 3; k++)
                for (size_t n = 0; n < 255 && vm_arena_ok(ar, ptrs[k] + n, 1, false); n++) {
                    outs[k][n] = *(const char *)(uintptr_t)(ptrs[k] + n);
                    outs[k][n + 1] = 0;
                    if (!outs[k][n]) break;
                }
            unsigned t = w->id * VM_LANES + (unsigned)l;
            const vm_launch_cfg *cfg = w->cta->grid->cfg;
            unsigned bx = cfg->block[0], by = cfg->block[1];
            vm_fault_at(w, i, l, 102, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.", file,
                        (unsigned)ARG(2, l), fn, w->cta->ctaid[0], w->cta->ctaid[1], w->cta->ctaid[2], t % bx,
                        t / bx % by, t / (bx * by), msg);
            if (atomic_load(&w->cta->grid->stop)) return -1;   /* under a debugger: stop here */
            w->exited |= 1u << l;                              /* the thread ends; the others go on */
        } else {
            vm_fault_at(w, i, l, 13, "call to '%s', an extern function that nothing defines", callee->ir->name);
            return -1;
        }
    }
#undef ARG
#undef RET
    return 0;
}
