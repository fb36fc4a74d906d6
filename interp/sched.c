/* sched.c — scheduling: lane groups within a warp (smallest PC first), warps
 * within a CTA, and CTAs over the host threads of the pool (pool.c). Calls and
 * frames are in call.c, barriers in barrier.c, the fault report in fault.c. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pool.h"
#include "sanitize.h"
#include "warp.h"

#define SLICE 4096 /* backward branches per time slice */
/* A cooperative grid's CTAs are all resident and wait for each other at grid.sync(),
 * where one warp of each spins until the last CTA arrives: a short slice keeps that
 * spinning from growing with the grid (each round costs every waiting CTA a slice). */
#define COOP_SLICE 256
#define NO_STOP ((const vm_insn *)UINTPTR_MAX)

double vm_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- lane groups ---- */

/* Independent thread scheduling: a group that spins (time slice over, or
 * nanosleep) lets the other groups of its warp run first, so a lane waiting
 * for a lock held by another lane of the same warp makes progress. */
bool vm_yield_group(vm_warp *w, const vm_insn *at) {
    vm_set_lpc(w, w->mask, at);
    w->avoid = w->mask;
    bool r = vm_reschedule(w);
    w->avoid = 0;
    return r;
}

bool vm_reschedule(vm_warp *w) {
    for (;;) {
        vm_frame *f = &w->frames[w->depth - 1];
        uint32_t live = f->lanes & ~f->done & ~w->exited;
        uint32_t cand = live & ~w->blocked;
        if (cand & ~w->avoid) cand &= ~w->avoid;
        if (!cand) {
            if (live) {
                /* Everyone left waits. Lanes waiting in a collective whose other
                 * members can never come run it now with the lanes that are there. */
                uint32_t cw = live & w->collwait;
                if (cw && (live & w->blocked & ~w->collwait) == 0) {
                    const vm_insn *lo = NO_STOP;
                    for (int l = 0; l < VM_LANES; l++)
                        if (cw >> l & 1 && w->lpc[l] < lo) lo = w->lpc[l];
                    uint32_t g = 0;
                    for (int l = 0; l < VM_LANES; l++)
                        if (cw >> l & 1 && w->lpc[l] == lo) g |= 1u << l;
                    w->blocked &= ~g;
                    w->collwait &= ~g;
                    w->forced = true;
                    w->pc = lo;
                    w->mask = g;
                    w->lpc_stop = NO_STOP;
                    return true;
                }
                w->state = VM_W_BLOCKED;
                return false;
            }
            if (w->depth == 1) {
                w->state = VM_W_DONE;
                return false;
            }
            /* Every lane of the frame returned: back to the caller. */
            vm_frame *c = &w->frames[w->depth - 2];
            const vm_callinfo *ci = f->call->p;
            uint32_t back = f->done & ~w->exited;
            for (uint32_t k = 0; k < ci->nrets && k < f->fn->ir->nrets; k++)
                for (int l = 0; l < VM_LANES; l++)
                    if (back >> l & 1)
                        memcpy(c->fb + ci->retoff[k] + (size_t)l * ci->retsize[k],
                               f->fb + f->fn->ret_off[k] + (size_t)l * ci->retsize[k], ci->retsize[k]);
            for (int l = 0; l < VM_LANES; l++)
                if (f->lanes >> l & 1) {
                    w->lpc[l] = f->ret;
                    w->lsp[l] = f->local_base;
                }
            free(f->fb);
            w->depth--;
            continue;
        }
        /* Usually every candidate lane is at one PC (after a barrier, a
         * merge): one vectorizable compare settles it. */
        const vm_insn *p0 = w->lpc[__builtin_ctz(cand)];
        uint32_t same = 0;
        for (int l = 0; l < VM_LANES; l++) same |= (uint32_t)(w->lpc[l] == p0) << l;
        if ((same & cand) == cand) {
            w->pc = p0;
            w->mask = cand;
            w->lpc_stop = NO_STOP;
            w->state = VM_W_READY;
            return true;
        }
        const vm_insn *lo = NO_STOP, *next = NO_STOP;
        for (int l = 0; l < VM_LANES; l++)
            if (cand >> l & 1 && w->lpc[l] < lo) lo = w->lpc[l];
        uint32_t g = 0;
        for (int l = 0; l < VM_LANES; l++)
            if (cand >> l & 1) {
                if (w->lpc[l] == lo) g |= 1u << l;
                else if (w->lpc[l] < next) next = w->lpc[l];
            }
        w->pc = lo;
        w->mask = g;
        w->lpc_stop = next;
        w->state = VM_W_READY;
        return true;
    }
}

/* ---- CTAs ---- */

/* Per-warp state that is the same for every CTA of the launch (thread ids,
 * lanes present) is set once per worker; a new CTA only resets what runs. */
static void init_warps_once(vm_cta *cta, const vm_launch_cfg *cfg) {
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        vm_warp *w = &cta->warps[wi];
        w->present = 0;
        w->id = wi;
        w->cta = cta;
        for (int l = 0; l < VM_LANES; l++) {
            uint32_t t = wi * VM_LANES + (uint32_t)l;
            if (t < cta->nthreads) w->present |= 1u << l;
            w->tid[0][l] = t % cfg->block[0];
            w->tid[1][l] = t / cfg->block[0] % cfg->block[1];
            w->tid[2][l] = t / (cfg->block[0] * cfg->block[1]);
        }
    }
}

/* The CTA's coordinates: one step on from the previous CTA of the slot when
 * it took the next number (a worker takes consecutive numbers), else from the
 * number (three 64-bit divisions, a tenth of a small CTA's start-up). */
static void cta_coords(vm_cta *cta, const vm_grid *g, uint64_t linear) {
    const vm_launch_cfg *cfg = g->cfg;
    uint32_t *id = cta->ctaid;
    if (g->csize == 1 && cta->grid == g && linear == cta->linear + 1) {
        if (++id[0] == cfg->grid[0]) {
            id[0] = 0;
            if (++id[1] == cfg->grid[1]) id[1] = 0, id[2]++;
        }
        return;
    }
    /* CTAs are numbered cluster by cluster (rank fastest), so that a worker
     * taking consecutive numbers takes whole clusters */
    const uint32_t *cd = g->cdim;
    uint64_t lc = linear / g->csize, nx = cfg->grid[0] / cd[0], ny = cfg->grid[1] / cd[1];
    uint32_t r = (uint32_t)(linear % g->csize);
    cta->crank = r;
    id[0] = (uint32_t)(lc % nx) * cd[0] + r % cd[0];
    id[1] = (uint32_t)(lc / nx % ny) * cd[1] + r / cd[0] % cd[1];
    id[2] = (uint32_t)(lc / (nx * ny)) * cd[2] + r / (cd[0] * cd[1]);
}

/* What a reused entry frame takes from frame_init again (vm_func.reset_lines,
 * reset_cc): whole lines, copied without a call. */
static void reset_frame(uint8_t *fb, const vm_func *k) {
    for (uint64_t r = k->reset_lines; r; r &= r - 1) {
        uint32_t line = (uint32_t)__builtin_ctzll(r), end = line < 63 ? line * 64 + 64 : k->regs_lo;
        for (uint32_t o = line * 64; o < end; o += 64) memcpy(fb + o, k->frame_init + o, 64);
    }
    if (k->reset_cc) memset(fb + k->frame_size - 4 * VM_LANES, 0, 4 * VM_LANES);
}

/* Whether the warps of kernel k's CTAs may exchange entry frames: not under
 * a sanitizer or a debugger (as the JIT), whose reports and views name a
 * warp's registers. */
static bool frames_move(const vm_func *k) {
    const vm_runtime *rt = k->prog->rt;
    return !(rt && (rt->san || rt->dbg || rt->dbg_fault));
}

/* Warps a and b exchange entry frames, when both are in kernel k's frame
 * only, with the same lanes (a partial warp's frame lacks the others'
 * prologue values) and frames_move. */
static void swap_frames(vm_warp *a, vm_warp *b, const vm_func *k) {
    if (a->depth != 1 || b->depth != 1 || a->frames[0].fn != k || b->frames[0].fn != k || a->present != b->present ||
        !frames_move(k))
        return;
    uint8_t *fb = a->frames[0].fb;
    a->frames[0].fb = b->frames[0].fb;
    b->frames[0].fb = fb;
}

/* Warp w of a CTA is done with its entry frame; nw, a later warp of it, has
 * not run since init_cta (it is still at the prologue's end with that count:
 * a warp's count grows with every record it runs). They exchange entry
 * frames, so that nw runs in the lines w's run left in the host's cache
 * rather than in its own, which the other warps' frames and the data they
 * stream have evicted by now (stencil's eight 5 KB frames and the data fill
 * the L1). Both frames hold what a reused one holds (init_cta): the
 * constants, the prologue's launch-invariant registers, and what a CTA does
 * not read before writing; nw's is reset as init_cta resets it. jit_next.h's
 * hand_over does the same in compiled code. */
void vm_pass_frame(vm_warp *w, vm_warp *nw) {
    const vm_func *k = w->frames[0].fn;
    if (nw->pc != k->code + k->nhoist || nw->clock != vm_prologue_count(k)) return;
    uint8_t *fb = w->frames[0].fb;
    swap_frames(w, nw, k);
    if (nw->frames[0].fb == fb) reset_frame(fb, k);
}

/* Sets a slot up for CTA number `linear`. What a finished CTA leaves behind
 * that the next one must not see is reset here; per-warp state that is the
 * same for every CTA (init_warps_once) is not. The lanes' resume addresses
 * (lpc) are not filled: they are read only for lanes outside the running
 * group, and a CTA starts with every present lane in it. */
static int init_cta(vm_cta *cta, vm_grid *g, uint64_t linear) {
    const vm_launch_cfg *cfg = g->cfg;
    cta_coords(cta, g, linear);
    cta->grid = g;
    cta->linear = linear;
    if (cta->smem_size) memset(cta->smem, 0, cta->smem_size);
    /* a barrier without arrivals is all zero, and no lane waits at it
     * (vm_check_barrier clears both) */
    uint32_t open = cta->bars_open;
    for (uint32_t o = open; o; o &= o - 1) cta->bars[__builtin_ctz(o)] = (vm_barrier){0};
    cta->bars_open = 0;
    if (g->san) vm_san_cta_begin(cta);
    vm_func *k = cfg->kernel;
    uint32_t rwarps = 0, rthreads = 0; /* warps (threads) that start after the prologue */
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        vm_warp *w = &cta->warps[wi];
        for (uint32_t d = 1; d < w->depth; d++) vm_block_free(w->frames[d].fb, w->frames[d].fn->frame_size);
        w->blocked = w->collwait = 0;
        if (open) memset(w->barwait, 0, sizeof w->barwait);
        w->forced = false;
        w->sleep_until = 0;
        w->san_bad = NULL;
        w->exited = ~w->present;
        if (w->depth && w->frames[0].fn == k) {
            /* the entry frame is reused: no allocation per CTA, and the
             * constant slots above the registers still hold their values
             * (nothing writes them), so only the predicates that may be read
             * before they are written, and the carry flag when it is read,
             * start afresh (layout()); the other predicates' lines are not
             * stored to (the data a CTA streams through evicts them) */
            w->frames[0].kparams = cfg->params;
            reset_frame(w->frames[0].fb, k);
            w->depth = 1;
            w->frames[0].done = 0;
            if (!g->fixed_lsp) /* else they are still where the frame's push put them */
                for (int l = 0; l < VM_LANES; l++) w->lsp[l] = k->local_size;
            /* and the launch-invariant prologue's registers still hold what it
             * computed in this launch (hoist.c): it counts as run */
            w->pc = k->code + k->nhoist;
            w->clock = vm_prologue_count(k);
            rwarps++;
            rthreads += (uint32_t)__builtin_popcount(w->present);
        } else {
            if (w->depth) vm_block_free(w->frames[0].fb, w->frames[0].fn->frame_size);
            w->depth = 0;
            w->clock = 0;
            memset(w->lsp, 0, sizeof w->lsp);
            if (vm_push_frame(w, k, w->present, NULL, NULL) < 0) return -1;
            w->pc = k->code;
            /* the prologue's records that nops count where they stood are
             * not counted here (they wrap round to the right totals) */
            w->clock = -(uint64_t)k->nhoist_free;
            cta->warp_insns -= k->nhoist_free;
            cta->thread_insns -= (uint64_t)k->nhoist_free * (uint32_t)__builtin_popcount(w->present);
        }
        w->mask = w->present;
        w->lpc_stop = NO_STOP;
        w->state = VM_W_READY;
    }
    /* the frame the last CTA's last warp ran in (vm_pass_frame hands one
     * frame on from warp to warp when they run one after another) goes to
     * the first warp */
    if (cta->ran && cta->ran->id + 1 == cta->nwarps && cta->ran != cta->warps) swap_frames(cta->warps, cta->ran, k);
    cta->warp_insns += (uint64_t)vm_prologue_count(k) * rwarps;
    cta->thread_insns += (uint64_t)vm_prologue_count(k) * rthreads;
    return 0;
}

/* Runs one CTA's warps round robin until all are done. */
/* One round: every runnable warp of the CTA runs until it yields. */
enum { ROUND_DONE, ROUND_RAN, ROUND_IDLE, ROUND_FAULT };

static int cta_round(vm_cta *cta, uint64_t *sleeper, bool *waits) {
    vm_grid *g = cta->grid;
    bool ran = false, sleeping = false;
    uint32_t slice = g->cfg->resident ? COOP_SLICE : SLICE;
    for (uint32_t k = 0; k < cta->nwarps; k++) {
        vm_warp *w = &cta->warps[k];
        if (w->state == VM_W_DONE || w->state == VM_W_BLOCKED) continue;
        if (w->sleep_until) {
            uint64_t now = (uint64_t)(vm_now() * 1e9);
            if (now < w->sleep_until) {
                if (!*sleeper || w->sleep_until < *sleeper) *sleeper = w->sleep_until;
                sleeping = true;
                continue;
            }
            w->sleep_until = 0;
        }
        ran = true;
        uint32_t exited = w->exited;
        cta->ran = w;
        cta->ran_exited = exited;
        vm_yield y = vm_exec(w, slice);
        if (cta->ran != w) { /* it ran on into other warps (the last one's exit into the first: jit_bar.h) */
            w = cta->ran;
            k = w->id;
            exited = ~w->exited;
        }
        if (y == VM_Y_FAULT || atomic_load(&g->stop)) return ROUND_FAULT;
        if (y == VM_Y_SLICE) *waits = true;
        if (y == VM_Y_DONE) w->state = VM_W_DONE;
        if (w->exited != exited) /* exited threads no longer count toward barriers */
            vm_recheck_barriers(cta);
        if (y == VM_Y_SLICE && g->deadline && vm_now() > g->deadline) {
            vm_fault_at(w, w->pc, __builtin_ctz(w->mask | 1), PTXI_LAUNCH_TIMEOUT,
                        "watchdog: the launch ran longer than %.3g s", g->cfg->timeout_s);
            return ROUND_FAULT;
        }
    }
    uint32_t done = 0;
    for (uint32_t k = 0; k < cta->nwarps; k++) done += cta->warps[k].state == VM_W_DONE;
    if (done == cta->nwarps) return ROUND_DONE;
    if (sleeping) *waits = true;
    if (ran || sleeping) return ran ? ROUND_RAN : ROUND_IDLE;
    /* nothing can run and nothing sleeps: the waits can never be satisfied */
    vm_report_deadlock(cta);
    return ROUND_FAULT;
}

/* A host thread keeps up to cfg->resident CTAs at once (8 by default, the whole
 * grid for a cooperative launch). A CTA that runs for several rounds in which
 * some warp used up its time slice or slept (it may be spinning on memory
 * another CTA will write) lets the worker admit the next one, as an SM holds
 * several blocks. A CTA that only ever stops at barriers runs alone: its
 * warps' registers and shared memory stay in the host's caches. A cooperative
 * launch admits its share of the grid at once: admitted one by one, every CTA
 * already waiting at grid.sync() spins a whole time slice per round while the
 * rest trickle in, quadratic in the grid's size. */
#define ADMIT_AFTER 4

/* Each worker's own line (the array of them is line-aligned): live and take
 * change with every CTA, and on a line shared with another worker each change
 * would evict it from that worker's cache. */
typedef struct vm_worker {
    _Alignas(64) vm_grid *g;
    unsigned nslots;
    vm_cta *cta;
    bool *allocated, *live; /* per slot; one line-aligned block of their own */
    bool follows;           /* CTAs may follow one another in a slot (vm_cta_follows): fixed per launch */
    vm_cluster *clusters; /* one per group of csize slots (with clusters) */
    uint64_t take, took;  /* CTAs [take, took) are this worker's, not yet admitted */
    double start, end;    /* vm_now() as it began and ended the launch (vm_stats) */
} worker;

/* The sizes alloc_cta gives a CTA's blocks: whole cache lines, so that two
 * host threads' CTAs never share one. */
static size_t smem_bytes(const vm_cta *cta) { return ((size_t)cta->smem_full + 16 + 63) & ~(size_t)63; }
static size_t warps_bytes(const vm_cta *cta) { return (cta->nwarps * sizeof *cta->warps + 63) & ~(size_t)63; }

static void free_cta(vm_cta *cta) {
    if (cta->san) vm_san_cta_free(cta);
    for (uint32_t k = 0; k < cta->nwarps; k++) {
        vm_warp *w = &cta->warps[k];
        for (uint32_t d = 0; d < w->depth; d++) vm_block_free(w->frames[d].fb, w->frames[d].fn->frame_size);
        if (w->frames != &w->frame0) free(w->frames);
        free(w->local);
    }
    vm_block_free(cta->warps, warps_bytes(cta));
    vm_block_free(cta->smem, smem_bytes(cta));
}

static int alloc_cta(vm_cta *cta, const vm_launch_cfg *cfg) {
    memset(cta, 0, sizeof *cta);
    cta->nthreads = cfg->block[0] * cfg->block[1] * cfg->block[2];
    cta->nwarps = (cta->nthreads + VM_LANES - 1) / VM_LANES;
    /* sanitize mode: the kernel's own static shared memory, as the GPU bounds it */
    cta->smem_size = cfg->kernel->prog->rt && cfg->kernel->prog->rt->san && !cfg->dyn_shared
                         ? cfg->kernel->shared_end
                         : cfg->kernel->prog->shared_static;
    if (cfg->dyn_shared) {
        uint32_t al = cfg->kernel->prog->dyn_shared_align ? cfg->kernel->prog->dyn_shared_align : 16;
        cta->smem_size = (cta->smem_size + al - 1) / al * al + cfg->dyn_shared;
    }
    cta->smem_full = cta->smem_size;
    size_t sbytes = smem_bytes(cta), wbytes = warps_bytes(cta);
    cta->smem = vm_block_alloc(sbytes);
    cta->warps = vm_block_alloc(wbytes);
    if (!cta->smem || !cta->warps) return -1;
    memset(cta->smem, 0, sbytes);
    memset(cta->warps, 0, wbytes);
    for (uint32_t k = 0; k < cta->nwarps; k++) cta->warps[k].local_stride = cfg->stack_size;
    return 0;
}

static void out_of_memory(vm_grid *g) {
    pthread_mutex_lock(&g->lock);
    if (!g->status) {
        g->status = PTXI_OUT_OF_MEMORY;
        g->fault->status = PTXI_OUT_OF_MEMORY;
        snprintf(g->fault->msg, sizeof g->fault->msg, "ptxi: out of host memory for a CTA");
    }
    pthread_mutex_unlock(&g->lock);
    atomic_store(&g->stop, 1);
}

/* The index of the worker's next CTA in *c; false when the grid has no more.
 * A worker takes 1/GUIDE of its fair share of the CTAs left (guided
 * self-scheduling): long runs of neighbouring CTAs while much is left, one
 * at a time at the end, so that the threads still end together. Taken 16 at
 * a time, stencil's CTAs (32 x 8 floats each) had every host thread read 10
 * rows in pieces of 2 KiB, one piece here and the next far away, and 16
 * threads ran it no faster than 16 copies of its C loop, which is twice as
 * fast; in long runs the rows stream (bench/README.md, round 15). Whole
 * clusters at a time. */
#define GUIDE 2

static bool take_cta(worker *wk, uint64_t *c) {
    vm_grid *g = wk->g;
    if (wk->take == wk->took) {
        uint64_t at = atomic_load_explicit(&g->next_cta, memory_order_relaxed), k;
        do {
            if (at >= g->ncta) return false;
            k = (g->ncta - at) / g->guide / g->csize * g->csize;
            if (k < g->csize) k = g->csize;
        } while (!atomic_compare_exchange_weak_explicit(&g->next_cta, &at, at + k, memory_order_relaxed,
                                                        memory_order_relaxed));
        wk->take = at, wk->took = at + k;
    }
    *c = wk->take++;
    return true;
}

/* Takes the next CTA of the grid into slot s; false when the grid is exhausted. */
static bool admit(worker *wk, unsigned s) {
    vm_grid *g = wk->g;
    uint64_t c;
    if (!take_cta(wk, &c)) return false;
    if (!wk->allocated[s]) {
        if (alloc_cta(&wk->cta[s], g->cfg) < 0) {
            out_of_memory(g);
            return false;
        }
        init_warps_once(&wk->cta[s], g->cfg);
        wk->cta[s].worker = wk;
        wk->allocated[s] = true;
    }
    if (init_cta(&wk->cta[s], g, c) < 0) {
        out_of_memory(g);
        return false;
    }
    wk->live[s] = true;
    if (wk->clusters) { /* slot s holds rank s % csize of the group's cluster */
        vm_cluster *cl = &wk->clusters[s / g->csize];
        if (s % g->csize == 0) {
            cl->phase = cl->arrived = cl->fails = 0;
            if (cl->want) memset(cl->want, 0, sizeof *cl->want * g->csize * wk->cta[s].nthreads);
        }
        cl->cta[s % g->csize] = &wk->cta[s];
        wk->cta[s].cluster = cl;
    }
    return true;
}

/* A CTA whose last warp leaves the kernel after all the others ends in
 * vm_exec, and the worker's loop then took the next CTA into the first free
 * slot and entered its first warp: for a grid of small CTAs (stencil's 8
 * warps of 32 records each) that was a third of the time of a CTA that
 * computes nothing. When the CTA is the worker's only live one, that next CTA
 * would run alone in a slot like this one: it starts here, in this slot,
 * and the last warp's vm_exec goes on into its first warp (cta_round takes
 * the warp it comes back with from cta->ran). Not for cooperative grids and
 * clusters (admitted otherwise), nor under a sanitizer or a debugger
 * (frames_move), whose views follow each CTA from its start. */
bool vm_cta_follows(vm_cta *cta, const vm_warp *last) {
    const worker *wk = cta->worker;
    if (!wk || !wk->follows || cta->bars_open || last->id + 1 != cta->nwarps ||
        atomic_load_explicit(&cta->grid->stop, memory_order_relaxed))
        return false;
    for (uint32_t k = 0; k + 1 < cta->nwarps; k++)
        if (cta->warps[k].state != VM_W_DONE) return false;
    for (unsigned s = 0; s < wk->nslots; s++)
        if (wk->live[s] && &wk->cta[s] != cta) return false;
    return true;
}

vm_warp *vm_next_cta(vm_cta *cta) {
    uint64_t c;
    if (!take_cta(cta->worker, &c)) return NULL;
    if (init_cta(cta, cta->grid, c) < 0) {
        out_of_memory(cta->grid);
        return NULL;
    }
    cta->ran = cta->warps;
    cta->ran_exited = cta->warps[0].exited;
    return cta->warps;
}

/* Admits a whole cluster (a single CTA without clusters) into the first group
 * of free slots; false when there is none or the grid is exhausted. */
static bool admit_group(worker *wk, bool *more) {
    unsigned u = wk->g->csize;
    for (unsigned s0 = 0; s0 < wk->nslots; s0 += u) {
        bool free = true;
        for (unsigned s = s0; s < s0 + u; s++) free &= !wk->live[s];
        if (!free) continue;
        for (unsigned s = s0; s < s0 + u; s++)
            if (!admit(wk, s)) {
                *more = false;
                return s > s0;
            }
        return true;
    }
    return false;
}

/* A worker's slots, set up by its own host thread as it starts: the launch's
 * setup and end, done by the launching thread for all workers, took a tenth
 * of a 0.5 ms launch on 16 threads (bench/README.md, round 14). */
static bool worker_alloc(worker *wk) {
    unsigned slots = wk->nslots, csize = wk->g->csize;
    if (csize > 1 && !(wk->clusters = calloc(slots / csize, sizeof *wk->clusters))) return false;
    wk->cta = vm_block_alloc(slots * sizeof *wk->cta); /* vm_cta is line-aligned */
    if (wk->cta) memset(wk->cta, 0, slots * sizeof *wk->cta);
    if ((wk->allocated = vm_block_alloc((size_t)slots * 2))) {
        memset(wk->allocated, 0, (size_t)slots * 2);
        wk->live = wk->allocated + slots;
    }
    return wk->cta && wk->allocated;
}

static void worker_free(worker *wk) {
    for (unsigned s = 0; wk->allocated && s < wk->nslots; s++)
        if (wk->allocated[s]) free_cta(&wk->cta[s]);
    for (unsigned c = 0; wk->clusters && c < wk->nslots / wk->g->csize; c++) free(wk->clusters[c].want);
    free(wk->clusters);
    vm_block_free(wk->cta, wk->nslots * sizeof *wk->cta);
    vm_block_free(wk->allocated, (size_t)wk->nslots * 2);
    wk->clusters = NULL, wk->cta = NULL, wk->allocated = wk->live = NULL;
}

static void *worker_main(void *arg) {
    worker *wk = arg;
    vm_grid *g = wk->g;
    unsigned rounds = 0;
    wk->start = vm_now();
    bool more = worker_alloc(wk);
    if (!more) {
        out_of_memory(g);
        goto end;
    }
    for (;;) {
        if (atomic_load(&g->stop)) break;
        int nlive = 0;
        for (unsigned s = 0; s < wk->nslots; s++) nlive += wk->live[s];
        if (g->cfg->resident) /* a cooperative grid: its CTAs wait for each other, all are admitted at once */
            while (more && (unsigned)nlive < wk->nslots && admit_group(wk, &more)) nlive++;
        else if (more && (nlive == 0 || (rounds >= ADMIT_AFTER && (unsigned)nlive < wk->nslots))) {
            if (admit_group(wk, &more)) nlive++;
            rounds = 0;
        }
        if (!nlive) break;
        bool ran = false, waits = g->cfg->resident != 0;
        uint64_t sleeper = 0;
        /* A CTA alone whose round neither used up a time slice nor slept (one
         * that stops only at barriers) would get the next round anyway, with
         * no CTA admitted before it: it runs that round at once. */
        bool alone = nlive == 1 && !(more && rounds >= ADMIT_AFTER && 1 < wk->nslots);
        for (unsigned s = 0; s < wk->nslots; s++) {
            if (!wk->live[s]) continue;
            int r;
            do r = cta_round(&wk->cta[s], &sleeper, &waits);
            while (r == ROUND_RAN && alone && !waits && !atomic_load(&g->stop));
            if (r == ROUND_FAULT) goto end;
            if (r == ROUND_DONE) {
                wk->live[s] = false;
                rounds = 0;
            }
            if (r != ROUND_IDLE) ran = true;
        }
        if (waits) rounds++;
        if (!ran && sleeper) {
            uint64_t now = (uint64_t)(vm_now() * 1e9);
            if (sleeper > now) {
                struct timespec ts = {0, (long)((sleeper - now) < 1000000 ? sleeper - now : 1000000)};
                nanosleep(&ts, NULL);
            }
        }
    }
end:
    for (unsigned s = 0; wk->cta && s < wk->nslots; s++) {
        atomic_fetch_add(&g->thread_insns, wk->cta[s].thread_insns);
        atomic_fetch_add(&g->warp_insns, wk->cta[s].warp_insns);
        atomic_fetch_add(&g->jit_warp_insns, wk->cta[s].jit_warp_insns);
    }
    /* the sanitizers' end of a CTA reads the whole grid's records: after all workers */
    if (!g->san) worker_free(wk);
    wk->end = vm_now();
    return NULL;
}

/* Whether no record of kernel k moves a lane's stack pointer (a call, or
 * alloca, stacksave, stackrestore): a reused entry frame's lanes then keep
 * the local_size its first CTA's push gave them. */
static bool keeps_lsp(const vm_func *k) {
    for (uint32_t r = 0; r < k->ncode; r++) {
        unsigned op = k->code[r].op;
        if (op == VM_CALL || op == VM_ALLOCA || op == VM_STACKSAVE || op == VM_STACKRESTORE) return false;
    }
    return true;
}

/* How the launch filled its n workers, begun at t0 (vm_stats). */
static void launch_times(vm_stats *st, const worker *ws, unsigned n, double t0) {
    double first_end = INFINITY, last_end = t0;
    st->threads = n;
    st->late_s = st->busy_s = st->tail_s = 0;
    for (unsigned k = 0; k < n; k++) {
        if (ws[k].start - t0 > st->late_s) st->late_s = ws[k].start - t0;
        st->busy_s += ws[k].end - ws[k].start;
        if (ws[k].end < first_end) first_end = ws[k].end;
        if (ws[k].end > last_end) last_end = ws[k].end;
    }
    if (n) st->tail_s = last_end - first_end;
}

int vm_launch(const vm_launch_cfg *cfg, vm_stats *stats, vm_fault *fault) {
    vm_grid g;
    memset(&g, 0, sizeof g);
    double t0 = vm_now();
    g.cfg = cfg;
    g.fault = fault;
    g.ncta = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
    g.fixed_lsp = keeps_lsp(cfg->kernel);
    pthread_mutex_init(&g.lock, NULL);
    if (cfg->timeout_s > 0) g.deadline = vm_now() + cfg->timeout_s;
    if (cfg->kernel->prog->rt && cfg->kernel->prog->rt->san) vm_san_launch_begin(&g);
    unsigned n = cfg->threads ? cfg->threads : 1;
    if (n > g.ncta) n = (unsigned)g.ncta;
    if (!n) n = 1;
    /* Thread-block clusters (.reqnctapercluster, checked against the grid by
     * the runtime): taken and resident whole. */
    const uint32_t *rc3 = cfg->kernel->ir ? cfg->kernel->ir->reqnctapercluster : NULL;
    for (int d = 0; d < 3; d++) g.cdim[d] = cfg->cluster[d] ? cfg->cluster[d] : rc3 && rc3[d] ? rc3[d] : 1;
    g.csize = g.cdim[0] * g.cdim[1] * g.cdim[2];
    g.guide = (uint64_t)n * GUIDE;
    worker *ws = aligned_alloc(64, n * sizeof *ws);
    if (ws) memset(ws, 0, n * sizeof *ws);
    int rc = 0;
    if (!ws) rc = PTXI_OUT_OF_MEMORY;
    unsigned slots = cfg->resident ? cfg->resident : 8;
    if (g.csize > 1) slots = (slots + g.csize - 1) / g.csize * g.csize;
    /* A cooperative grid is split evenly (in whole clusters) between the host
     * threads up front: taken from the shared counter, the thread that starts
     * first would hold most of the grid, and one thread would do the work of two. */
    uint64_t ngroups = g.ncta / g.csize;
    if (cfg->resident) atomic_store(&g.next_cta, g.ncta);
    for (unsigned k = 0; k < n && !rc; k++) {
        if (cfg->resident) {
            ws[k].take = ngroups * k / n * g.csize;
            ws[k].took = ngroups * (k + 1) / n * g.csize;
        }
        ws[k].g = &g;
        ws[k].nslots = slots;
        ws[k].follows = !cfg->resident && g.csize == 1 && frames_move(cfg->kernel);
    }
    if (!rc) {
        if (n == 1) worker_main(&ws[0]);
        else vm_pool_run(worker_main, ws, sizeof *ws, n);
    }
    if (stats) launch_times(stats, ws, rc ? 0 : n, t0);
    for (unsigned k = 0; ws && k < n; k++) worker_free(&ws[k]);
    free(ws);
    if (g.san) vm_san_launch_end(&g);
    if (rc) {
        fault->status = rc;
        snprintf(fault->msg, sizeof fault->msg, "ptxi: out of host memory for the launch");
    }
    if (stats) {
        stats->thread_insns = atomic_load(&g.thread_insns);
        stats->warp_insns = atomic_load(&g.warp_insns);
        stats->jit_warp_insns = atomic_load(&g.jit_warp_insns);
        for (int k = 0; k < 16; k++) stats->pmevents[k] = atomic_load(&g.pmevents[k]);
    }
    pthread_mutex_destroy(&g.lock);
    return rc ? rc : g.status;
}
