/* builtin.c — the built-in device functions (builtin.h): vprintf, malloc,
 * free, __assertfail and the functions of a host library a program supplies;
 * the device runtime's are in devrt.c. Each callee is named at lowering
 * (vm_func.builtin), so a call dispatches on that number. */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "exec_mem.h"
#include "warp.h"

/* Device memory as one thread sees it: generic addresses through the shared
 * and local windows, else the arena. For vprintf's format, arguments and %s. */
typedef struct lane_view {
    vm_warp *w;
    int lane;
    uint64_t bad;
} lane_view;

uint8_t *vm_lane_ptr(vm_warp *w, int lane, uint64_t a, size_t n) {
    switch (vm_generic_space(&a)) {
    case VM_SP_SHARED: return a + n <= w->cta->smem_full ? w->cta->smem + a : NULL;
    case VM_SP_LOCAL:
        return a + n <= w->local_stride && vm_local_mem(w) ? w->local + (size_t)lane * w->local_stride + a : NULL;
    default: break;
    }
    vm_arena *ar = w->cta->grid->cfg->kernel->prog->rt->arena;
    return n && vm_arena_ok_any(ar, a, n, false) ? (uint8_t *)(uintptr_t)a : NULL;
}

static int lane_read(void *c, uint64_t a, void *dst, size_t n) {
    lane_view *v = c;
    const uint8_t *src = vm_lane_ptr(v->w, v->lane, a, n);
    if (!src) {
        v->bad = a;
        return 0;
    }
    memcpy(dst, src, n);
    return 1;
}

/* __assertfail(message, file, line, function, charSize) by lane l: the
 * thread ends (the others go on), or -1 when the grid stops here (a debugger). */
static int assert_fail(vm_warp *w, const vm_insn *i, vm_runtime *rt, uint64_t pm, uint64_t pf, unsigned line,
                       uint64_t pfn, int l) {
    char msg[256] = "?", file[256] = "?", fn[256] = "?";
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
    vm_fault_at(w, i, l, PTXI_ASSERT, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.", file,
                line, fn, w->cta->ctaid[0], w->cta->ctaid[1], w->cta->ctaid[2], t % bx, t / bx % by, t / (bx * by),
                msg);
    if (atomic_load(&w->cta->grid->stop)) return -1; /* under a debugger: stop here */
    w->exited |= 1u << l;
    return 0;
}

int vm_builtin_call(vm_warp *w, const vm_insn *i, vm_func *callee, uint32_t lanes) {
    const vm_callinfo *ci = i->p;
    vm_frame *fr = &w->frames[w->depth - 1];
    vm_runtime *rt = fr->fn->prog->rt;
    if (callee->builtin >= VM_BI_DEV_FIRST) return vm_devrt_call(w, i, callee, lanes);
#define ARG(k, l)                                                                     \
    (ci->nargs > (k) ? load_bits(fr->fb + ci->argoff[k] + (size_t)(l)*ci->argsize[k], \
                                 ci->argsize[k] > 8 ? 8 : ci->argsize[k], false)      \
                     : 0)
#define RET(l, v)                                                                                                    \
    do {                                                                                                             \
        if (ci->nrets)                                                                                               \
            store_bits(fr->fb + ci->retoff[0] + (size_t)(l)*ci->retsize[0], ci->retsize[0] > 8 ? 8 : ci->retsize[0], \
                       (v));                                                                                         \
    } while (0)
    for (int l = 0; l < VM_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        if (callee->host_fn) {
            void *args[32];
            for (uint32_t k = 0; k < ci->nargs; k++) args[k] = fr->fb + ci->argoff[k] + (size_t)l * ci->argsize[k];
            rt->call_host(rt->ctx, callee, args,
                          ci->nrets ? fr->fb + ci->retoff[0] + (size_t)l * ci->retsize[0] : NULL);
            continue;
        }
        switch (callee->builtin) {
        case VM_BI_VPRINTF: {
            lane_view v = {w, l, 0};
            int r = rt->vprintf(rt->ctx, ARG(0, l), ARG(1, l), lane_read, &v);
            if (r < -1) {
                vm_fault_at(w, i, l, PTXI_ILLEGAL_ADDRESS,
                            "printf: the format or a %%s argument at 0x%llx is not readable",
                            (unsigned long long)v.bad);
                return -1;
            }
            RET(l, (uint64_t)(int64_t)r);
            break;
        }
        case VM_BI_MALLOC: RET(l, rt->malloc(rt->ctx, ARG(0, l), 16)); break;
        case VM_BI_ALIGNED_MALLOC: RET(l, rt->malloc(rt->ctx, ARG(0, l), ARG(1, l))); break;
        case VM_BI_FREE: {
            uint64_t p = ARG(0, l);
            int st = p ? rt->free(rt->ctx, p) : 0;
            if (st && rt->san) { /* recorded; the launch fails when it ends */
                vm_san_bad_free(w, i, l, p, st == PTXI_LAUNCH_FAILED);
            } else if (st) {
                vm_fault_at(w, i, l, st, "free(0x%llx): not a live device-heap allocation (%s)", (unsigned long long)p,
                            st == PTXI_ILLEGAL_ADDRESS ? "not a heap address" : "double free");
                return -1;
            }
            break;
        }
        case VM_BI_ASSERTFAIL:
            if (assert_fail(w, i, rt, ARG(0, l), ARG(1, l), (unsigned)ARG(2, l), ARG(3, l), l) < 0) return -1;
            break;
        default:
            vm_fault_at(w, i, l, PTXI_UNRESOLVED_EXTERN, "call to '%s', an extern function that nothing defines",
                        callee->ir->name);
            return -1;
        }
    }
#undef ARG
#undef RET
    return 0;
}
