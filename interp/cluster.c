/* cluster.c — thread-block clusters: mapa and getctarank on distributed shared
 * memory, and barrier.cluster.arrive/wait. A cluster's CTAs run on one host
 * thread (sched.c), so none of this needs locks. Addresses: a shared::cluster
 * address of CTA rank r is its shared::cta offset plus (r + 1) << 24 (own-CTA
 * offsets stay valid as they are, as PTX requires); generic ones are the same
 * inside the shared window. exec_mem.h resolves them to the peer's memory. */
#include <stdlib.h>
#include <string.h>

#include "exec_mem.h"
#include "lower_ext.h"

enum { C_MAPA, C_RANK, C_ARRIVE, C_WAIT };

typedef struct cluster_rec {
    vm_ext_fn run;
    uint8_t kind;
    bool generic; /* mapa/getctarank on generic addresses */
    bool wide;    /* 64-bit address operands */
    vm_opnd d, a, b;
} cluster_rec;

/* Rank of the CTA a shared::cluster offset belongs to, and the offset in it. */
static uint32_t rank_of(const vm_cta *cta, uint64_t off, uint64_t *in) {
    *in = off & VM_DSMEM_OFF;
    return off > VM_DSMEM_OFF ? (uint32_t)(off >> VM_DSMEM_SHIFT) - 1 : cta->crank;
}

static int run_mapa(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const cluster_rec *r = i->p;
    vm_cta *cta = w->cta;
    uint8_t kind = r->wide ? VM_K_R64 : VM_K_R32;
    for (int l = 0; l < VM_LANES; l++) {
        if (!(m >> l & 1)) continue;
        uint64_t a = get_reg(fb, r->a.off, kind, l), off = a, in;
        bool win = !r->generic || a - vm_shared_win < VM_WIN_SIZE;
        if (r->generic && win) off = a - vm_shared_win;
        if (r->kind == C_RANK) {
            put_reg(fb, r->d.off, VM_K_R32, l, win ? rank_of(cta, off, &in) : 0);
            continue;
        }
        uint32_t want = (uint32_t)get_reg(fb, r->b.off, VM_K_R32, l);
        if (want >= cta->grid->csize) {
            vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION, "mapa to rank %u of a cluster of %u CTAs", want,
                        cta->grid->csize);
            return VM_EXT_FAULT;
        }
        rank_of(cta, off, &in);
        uint64_t d = win ? in + ((uint64_t)(want + 1) << VM_DSMEM_SHIFT) : a;
        put_reg(fb, r->d.off, kind, l, r->generic && win ? d + vm_shared_win : d);
    }
    return VM_EXT_NEXT;
}

/* Threads of the cluster that can still arrive (not exited). */
static uint32_t live_threads(const vm_cluster *cl, uint32_t n) {
    uint32_t live = 0;
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t k = 0; k < cl->cta[r]->nwarps; k++) {
            const vm_warp *w = &cl->cta[r]->warps[k];
            live += (uint32_t)__builtin_popcount(w->present & ~w->exited);
        }
    return live;
}

/* Completes the phase when every live thread has arrived. */
static void complete(vm_cluster *cl, uint32_t n) {
    if (cl->arrived && cl->arrived >= live_threads(cl, n)) cl->phase++, cl->arrived = 0;
}

static int run_barrier(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);

static bool is_wait(const vm_insn *p) {
    if (!p || p->op != VM_EXT || !p->p || *(const vm_ext_fn *)p->p != run_barrier) return false;
    return ((const cluster_rec *)p->p)->kind == C_WAIT;
}

/* True when the phase can never complete: every live thread of the cluster
 * either waits in barrier.cluster.wait having arrived, or is parked at a
 * barrier or collective (which the waiting ones will never reach). *who is
 * then a thread that never arrives. */
static bool deadlocked(const vm_cluster *cl, uint32_t n, const vm_cta **who_cta, uint32_t *who) {
    *who_cta = NULL;
    for (uint32_t r = 0; r < n; r++) {
        const vm_cta *cta = cl->cta[r];
        const uint32_t *want = cl->want + (size_t)r * cta->nthreads;
        for (uint32_t k = 0; k < cta->nwarps; k++) {
            const vm_warp *w = &cta->warps[k];
            uint32_t live = w->present & ~w->exited;
            for (int l = 0; l < VM_LANES; l++) {
                if (!(live >> l & 1)) continue;
                uint32_t t = k * VM_LANES + (uint32_t)l;
                const vm_insn *at = w->mask >> l & 1 ? w->pc : w->lpc[l];
                if (!want[t] && !*who_cta) *who_cta = cta, *who = t;
                if (w->blocked >> l & 1) continue;
                if (want[t] && is_wait(at)) continue;
                return false;
            }
        }
    }
    return *who_cta != NULL;
}

static int run_barrier(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    (void)fb;
    const cluster_rec *r = i->p;
    vm_cta *cta = w->cta;
    vm_cluster *cl = cta->cluster;
    if (!cl) return VM_EXT_NEXT; /* a cluster of one: the CTA barrier semantics reduce to nothing to wait for */
    uint32_t n = cta->grid->csize;
    if (!cl->want && !(cl->want = calloc((size_t)n * cta->nthreads, sizeof *cl->want))) {
        vm_fault_at(w, i, __builtin_ctz(m), PTXI_OUT_OF_MEMORY, "out of host memory for a cluster barrier");
        return VM_EXT_FAULT;
    }
    uint32_t *want = cl->want + (size_t)cta->crank * cta->nthreads + (size_t)w->id * VM_LANES;
    bool waiting = false;
    for (int l = 0; l < VM_LANES; l++) {
        if (!(m >> l & 1)) continue;
        if (r->kind == C_ARRIVE) {
            if (!want[l]) want[l] = cl->phase + 1, cl->arrived++;
        } else {
            complete(cl, n); /* threads may have exited since the last arrival */
            if (want[l] && cl->phase - want[l] < 0x80000000u) want[l] = 0; /* its phase is done */
            waiting |= want[l] != 0;
        }
    }
    if (r->kind == C_ARRIVE) complete(cl, n);
    if (!waiting) return VM_EXT_NEXT;
    const vm_cta *who_cta;
    uint32_t who;
    if ((++cl->fails & 255) == 0 && deadlocked(cl, n, &who_cta, &who)) {
        unsigned bx = cta->grid->cfg->block[0], by = cta->grid->cfg->block[1];
        vm_fault_at(w, i, __builtin_ctz(m), PTXI_BARRIER_DEADLOCK,
                    "barrier.cluster deadlock: %u of %u threads of the cluster arrived; thread (%u,%u,%u) of block "
                    "(%u,%u,%u) never arrives",
                    cl->arrived, live_threads(cl, n), who % bx, who / bx % by, who / (bx * by), who_cta->ctaid[0],
                    who_cta->ctaid[1], who_cta->ctaid[2]);
        return VM_EXT_FAULT;
    }
    return VM_EXT_RETRY;
}

bool vm_lower_cluster(lctx *lc, const ir_insn *in) {
    int kind = in->op == IR_OP_MAPA         ? C_MAPA
               : in->op == IR_OP_GETCTARANK ? C_RANK
               : (in->op == IR_OP_BARRIER || in->op == IR_OP_BAR) && ir_has_mod(in, IR_MOD_CLUSTER)
                   ? (ir_has_mod(in, IR_MOD_ARRIVE) ? C_ARRIVE
                      : ir_has_mod(in, IR_MOD_WAIT) ? C_WAIT
                                                    : -1)
                   : -1;
    if (kind < 0) return false;
    cluster_rec *r = calloc(1, sizeof *r);
    if (!r) {
        vm_lfail(lc, "out of memory");
        return true;
    }
    r->kind = (uint8_t)kind;
    if (kind == C_MAPA || kind == C_RANK) {
        if (in->nopnds < (kind == C_MAPA ? 3 : 2) || !in->ntypes) {
            free(r);
            return false;
        }
        r->wide = ir_type_bytes[in->types[0]] == 8;
        r->generic = !ir_has_mod(in, IR_MOD_SHARED_CLUSTER);
        uint8_t t = r->wide ? IR_T_B64 : IR_T_B32;
        r->d = vm_ldst(lc, &in->opnds[0]);
        r->a = vm_lsrc(lc, &in->opnds[1], t);
        if (kind == C_MAPA) r->b = vm_lsrc(lc, &in->opnds[2], IR_T_U32);
        r->run = run_mapa;
    } else {
        r->run = run_barrier;
    }
    vm_insn vi = vm_lbase(lc, VM_EXT);
    vi.p = r;
    vm_lemit(lc, vi);
    return true;
}
