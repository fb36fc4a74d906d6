/* barrier.c — the CTA's named barriers (bar.sync, bar.arrive, bar.red,
 * barrier.sync): arrivals, release, and the report of a barrier that can never
 * be released. */
#include <string.h>

#include "sanitize.h"
#include "warp.h"

static uint32_t live_threads(const vm_cta *cta) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < cta->nwarps; k++)
        n += (uint32_t)__builtin_popcount(cta->warps[k].present & ~cta->warps[k].exited);
    return n;
}

/* A released warp whose every live lane waited at one bar.sync (they came in
 * one arrival and nothing else waits) resumes after it as one group: what
 * vm_reschedule would find, without looking at each lane. */
static bool resume_whole(vm_warp *w, uint32_t lanes) {
    const vm_frame *f = &w->frames[w->depth - 1];
    if (!w->bar_one || w->blocked || w->avoid || lanes != (f->lanes & ~f->done & ~w->exited)) return false;
    w->pc = w->lpc[__builtin_ctz(lanes)];
    w->mask = lanes;
    w->lpc_stop = (const vm_insn *)UINTPTR_MAX;
    w->state = VM_W_READY;
    return true;
}

/* The threads barrier b waits for in this phase. Threads only leave, and
 * every exit while a barrier has arrivals reaches vm_recheck_barriers before
 * the warp that exited is left for another: the count of the phase's first
 * check holds until then. */
static uint32_t bar_need(const vm_cta *cta, vm_barrier *bar) {
    if (bar->expected) return bar->expected;
    return bar->live ? bar->live : (bar->live = live_threads(cta));
}

/* Every thread barrier b waits for has arrived: the waiting warps go on. */
static void bar_release(vm_cta *cta, unsigned b) {
    vm_barrier *bar = &cta->bars[b];
    for (uint32_t k = 0; k < cta->nwarps; k++) {
        vm_warp *w = &cta->warps[k];
        uint32_t lanes = w->barwait[b];
        if (!lanes) continue;
        if (bar->redop) {
            /* bar.red: the result goes to each waiting lane's destination */
            uint32_t res = bar->redop == VM_BAR_RED_POPC  ? bar->red
                           : bar->redop == VM_BAR_RED_AND ? (bar->red == bar->arrived)
                                                          : (bar->red != 0);
            vm_frame *f = &w->frames[w->depth - 1];
            for (int l = 0; l < VM_LANES; l++) {
                const vm_insn *bi = w->lpc[l] - 1;
                if (!(lanes >> l & 1) || bi->op != VM_BAR_RED) continue;
                if (bi->sz == 1) ((uint32_t *)(f->fb + bi->d))[l] = res;
                else *(uint32_t *)(f->fb + bi->d) = (*(uint32_t *)(f->fb + bi->d) & ~(1u << l)) | (res << l);
            }
        }
        w->blocked &= ~lanes;
        w->barwait[b] = 0;
        /* A suspended warp resumes from its lanes' positions (it stopped at
         * the barrier itself); a running one picks them up at its next merge. */
        if (w->state == VM_W_BLOCKED && !resume_whole(w, lanes)) vm_reschedule(w);
    }
    *bar = (vm_barrier){0};
    cta->bars_open &= ~(1u << b);
    if (cta->san) vm_san_bar_done(cta, b);
}

/* Releases barrier b if every thread it waits for has arrived. */
void vm_check_barrier(vm_cta *cta, unsigned b) {
    vm_barrier *bar = &cta->bars[b];
    if (bar->arrived && bar->arrived >= bar_need(cta, bar)) bar_release(cta, b);
}

/* bar.sync / barrier.sync without a thread count, by a group that is every
 * live lane of its warp's frame while none of the warp's lanes waits (a
 * converged warp at __syncthreads): the arrival of vm_bar_arrive, and then
 * no look at the warp's lanes. The last arrival releases the others and its
 * group goes on after the barrier without stopping; any other leaves the
 * warp waiting as one group (resume_whole). -1: not this case (nothing
 * done), 0: the warp waits, 1: released, the group goes on at i + 1. */
int vm_bar_sync_whole(vm_warp *w, const vm_insn *i, uint32_t m) {
    vm_cta *cta = w->cta;
    const vm_frame *f = &w->frames[w->depth - 1];
    if (i->op != VM_BAR || i->x & (VM_BAR_COUNTED | VM_BAR_ARRIVE_ONLY) || cta->san || w->blocked ||
        m != (f->lanes & ~f->done & ~w->exited))
        return -1;
    /* the id: an immediate's (lower_bar) without a load from the frame */
    uint32_t id = i->imm ? (uint32_t)i->imm - 1 : ((const uint32_t *)(f->fb + i->a))[__builtin_ctz(m)];
    if (id >= 16) return -1; /* vm_bar_arrive reports it */
    vm_barrier *bar = &cta->bars[id];
    bar->arrived += (uint32_t)__builtin_popcount(m);
    cta->bars_open |= 1u << id;
    if (bar->arrived < bar_need(cta, bar)) {
        vm_set_lpc(w, m, i + 1);
        w->bar_one = true;
        w->blocked = m;
        w->barwait[id] = m;
        w->state = VM_W_BLOCKED;
        return 0;
    }
    bar_release(cta, id);
    return 1;
}

void vm_recheck_barriers(vm_cta *cta) {
    for (uint32_t o = cta->bars_open; o; o &= o - 1) {
        unsigned b = (unsigned)__builtin_ctz(o);
        cta->bars[b].live = 0;
        vm_check_barrier(cta, b);
    }
}

/* The live count a phase took at its first check (bar_need) drops by the
 * threads that left, as vm_recheck_barriers's recount would find. */
void vm_bar_exits(vm_cta *cta, uint32_t n) {
    for (uint32_t o = cta->bars_open; o; o &= o - 1) {
        unsigned b = (unsigned)__builtin_ctz(o);
        if (cta->bars[b].live) cta->bars[b].live -= n;
        vm_check_barrier(cta, b);
    }
}

/* bar.sync / barrier.sync / bar.arrive / bar.red. Operands: a = barrier id,
 * b = thread count (when x has VM_BAR_COUNTED), c = predicate for bar.red;
 * x has VM_BAR_ARRIVE_ONLY for bar.arrive, sz the vm_bar_red_op of bar.red;
 * bar.sync's imm is 1 + its id when that is an immediate (lower_bar), else 0. */
int vm_bar_arrive(vm_warp *w, const vm_insn *i, uint32_t m) {
    vm_cta *cta = w->cta;
    uint8_t *fb = w->frames[w->depth - 1].fb;
    int l0 = __builtin_ctz(m);
    uint32_t id = ((uint32_t *)(fb + i->a))[l0];
    if (id >= 16) {
        vm_fault_at(w, i, l0, PTXI_ILLEGAL_INSTRUCTION, "barrier id %u out of range (0..15)", id);
        return -1;
    }
    vm_barrier *bar = &cta->bars[id];
    uint32_t count = i->x & VM_BAR_COUNTED ? ((uint32_t *)(fb + i->b))[l0] : 0;
    if (cta->san) count = vm_san_bar(w, i, m, id, count);
    if (count && (count % 32 || count > cta->nthreads + 31)) {
        vm_fault_at(w, i, l0, PTXI_ILLEGAL_INSTRUCTION,
                    "barrier thread count %u is not a multiple of 32 within the block", count);
        return -1;
    }
    if (count) bar->expected = count;
    if (i->op == VM_BAR_RED) {
        uint32_t p = *(uint32_t *)(fb + i->c) ^ (uint32_t)i->imm;
        bar->redop = i->sz;
        bar->red += (uint32_t)__builtin_popcount(p & m);
    }
    bar->arrived += (uint32_t)__builtin_popcount(m);
    cta->bars_open |= 1u << id;
    vm_set_lpc(w, w->mask, i + 1);
    if (!(i->x & VM_BAR_ARRIVE_ONLY)) {
        w->bar_one = !w->blocked;
        w->blocked |= m;
        w->barwait[id] |= m;
    }
    vm_check_barrier(cta, id);
    return 0;
}

void vm_report_deadlock(vm_cta *cta) {
    for (uint32_t k = 0; k < cta->nwarps; k++) {
        vm_warp *w = &cta->warps[k];
        uint32_t waiting = w->blocked & ~w->exited;
        if (!waiting) continue;
        int l = __builtin_ctz(waiting);
        unsigned b = 0;
        while (b < 16 && !(w->barwait[b] >> l & 1)) b++;
        const vm_insn *at = w->lpc[l] - (b < 16 ? 1 : 0);
        if (b < 16) {
            vm_barrier *bar = &cta->bars[b];
            uint32_t need = bar->expected ? bar->expected : live_threads(cta);
            /* name the first thread that is neither exited nor waiting here */
            int mw = -1, ml = -1;
            for (uint32_t q = 0; q < cta->nwarps && mw < 0; q++) {
                uint32_t miss = cta->warps[q].present & ~cta->warps[q].exited & ~cta->warps[q].barwait[b];
                if (miss) mw = (int)q, ml = __builtin_ctz(miss);
            }
            char who[96] = "";
            if (mw >= 0) {
                unsigned t = (unsigned)mw * VM_LANES + (unsigned)ml, bx = cta->grid->cfg->block[0],
                         by = cta->grid->cfg->block[1];
                snprintf(who, sizeof who, "; thread (%u,%u,%u) never arrives", t % bx, t / bx % by, t / (bx * by));
            }
            vm_fault_at(w, at, l, PTXI_BARRIER_DEADLOCK, "barrier %u deadlock: %u of %u threads arrived%s", b,
                        bar->arrived, need, who);
        } else {
            vm_fault_at(w, at, l, PTXI_BARRIER_DEADLOCK, "warp collective waits for lanes that never arrive");
        }
        return;
    }
}
