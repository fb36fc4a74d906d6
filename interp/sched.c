/* sched.c — scheduling: lane groups within a warp (smallest PC first), call
 * frames, barriers, warps within a CTA, and CTAs over a pool of host threads.
 * Also the fault report every bad access or trap ends in. */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sanitize.h"
#include "warp.h"

#define SLICE 4096                 /* backward branches per time slice */
#define NO_STOP ((const vm_insn *)UINTPTR_MAX)

double vm_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- faults ---- */

const vm_func *vm_func_of(const vm_warp *w, const vm_insn *i) {
    for (uint32_t d = w->depth; d-- > 0;) {
        const vm_func *f = w->frames[d].fn;
        if (i >= f->code && i <= f->code + f->ncode) return f;
    }
    return w->frames[0].fn;
}

/* Appends one assert message line to f->asserts (the GPU prints all of them;
 * past VM_ASSERT_TEXT_MAX bytes further lines are dropped, as a GPU drops them
 * past its own buffer: gpu/jobs/fidelity/recorded/assert_many.count). */
static void add_assert_line(vm_fault *f, const char *line) {
    size_t n = strlen(line);
    if (f->asserts_len + n + 1 > VM_ASSERT_TEXT_MAX) return;
    char *p = realloc(f->asserts, f->asserts_len + n + 2);
    if (!p) return;
    memcpy(p + f->asserts_len, line, n);
    p[f->asserts_len + n] = '\n';
    p[f->asserts_len + n + 1] = 0;
    f->asserts = p;
    f->asserts_len += n + 1;
}

void vm_fault_at(vm_warp *w, const vm_insn *i, int lane, int status, const char *fmt, ...) {
    vm_cta *cta = w->cta;
    vm_grid *g = cta->grid;
    bool first = false;
    pthread_mutex_lock(&g->lock);
    if (status == 102 && (!g->status || g->status == 102)) {
        /* every failed assert: one line each, as the GPU prints them */
        char what[1024];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        add_assert_line(g->fault, what);
    }
    if (!g->status) {
        first = true;
        const vm_func *f = vm_func_of(w, i);
        const vm_src *src = &f->src[i - f->code];
        char what[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        char cu[300] = "";
        const ir_module *m = f->prog->ir;
        if (src->dbg.file)
            for (uint32_t k = 0; k < m->nfiles; k++)
                if (m->files[k].index == src->dbg.file) {
                    snprintf(cu, sizeof cu, " (%s:%u)", m->files[k].name, src->dbg.line);
                    break;
                }
        unsigned t = w->id * VM_LANES + (unsigned)lane, bx = g->cfg->block[0], by = g->cfg->block[1];
        if (status == 102)   /* assert: the message is the GPU's line, printed at the next flush */
            snprintf(g->fault->msg, sizeof g->fault->msg, "%s\n", what);
        else
            snprintf(g->fault->msg, sizeof g->fault->msg,
                 "ptxi: kernel '%s': %s\n  at %s:%u:%u%s in %s\n  block (%u,%u,%u), thread (%u,%u,%u)",
                 g->cfg->kernel->ir->name, what, f->prog->path ? f->prog->path : "<ptx>", src->loc.line,
                 src->loc.col, cu, f->ir->name, cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], t % bx, t / bx % by,
                 t / (bx * by));
        g->fault->status = status;
        g->status = status;
    }
    pthread_mutex_unlock(&g->lock);
    vm_runtime *rt = g->cfg->kernel->prog->rt;
    if (first && rt && rt->dbg_fault) rt->dbg_fault(rt->dbg_ctx, w, i, lane, status, g->fault->msg);
    /* A failed assert ends its thread; the others run on, so what they print
     * and their own asserts come out as on a GPU. Every other fault stops the grid. */
    if (status != 102 || (rt && rt->dbg_fault)) atomic_store(&g->stop, 1);
}

/* ---- lane groups and frames ---- */

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
            if (w->depth == 1) { w->state = VM_W_DONE; return false; }
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

int vm_push_frame(vm_warp *w, vm_func *fn, uint32_t lanes, const vm_insn *call, const vm_insn *ret) {
    if (w->depth == w->cap) {
        uint32_t nc = w->cap ? w->cap * 2 : 8;
        if (nc > 4096) return -1;
        vm_frame *nf = realloc(w->frames, nc * sizeof *nf);
        if (!nf) return -1;
        w->frames = nf;
        w->cap = nc;
    }
    uint8_t *fb = aligned_alloc(64, (fn->frame_size + 63) & ~63u);
    if (!fb) return -1;
    memcpy(fb, fn->frame_init, fn->frame_size);
    uint32_t base = 0, align = fn->local_align ? fn->local_align : 1;
    for (int l = 0; l < VM_LANES; l++)
        if (lanes >> l & 1 && w->lsp[l] > base) base = w->lsp[l];
    base = (base + align - 1) & ~(align - 1);
    if ((uint64_t)base + fn->local_size > w->local_stride) { free(fb); return -2; }
    for (int l = 0; l < VM_LANES; l++)
        if (lanes >> l & 1) {
            w->lpc[l] = fn->code;
            w->lsp[l] = base + fn->local_size;
        }
    w->frames[w->depth++] = (vm_frame){fn, fb, ret, call, lanes, 0, base, w->cta->grid->cfg->params};
    return 0;
}

/* ---- barriers ---- */

static uint32_t live_threads(const vm_cta *cta) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < cta->nwarps; k++)
        n += (uint32_t)__builtin_popcount(cta->warps[k].present & ~cta->warps[k].exited);
    return n;
}

/* Releases barrier b if every thread it waits for has arrived. */
static void check_barrier(vm_cta *cta, unsigned b) {
    vm_barrier *bar = &cta->bars[b];
    if (!bar->arrived) return;
    uint32_t need = bar->expected ? bar->expected : live_threads(cta);
    if (bar->arrived < need) return;
    for (uint32_t k = 0; k < cta->nwarps; k++) {
        vm_warp *w = &cta->warps[k];
        uint32_t lanes = w->barwait[b];
        if (!lanes) continue;
        if (bar->redop) {
            /* bar.red: the result goes to each waiting lane's destination */
            uint32_t res = bar->redop == 1 ? bar->red : bar->redop == 2 ? (bar->red == bar->arrived) : (bar->red != 0);
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
        if (w->state == VM_W_BLOCKED) vm_reschedule(w);
    }
    *bar = (vm_barrier){0};
    if (cta->san) vm_san_bar_done(cta, b);
}

/* bar.sync / barrier.sync / bar.arrive / bar.red. Operands: a = barrier id,
 * b = thread count (when VM_F_SIGNED set), c = predicate for bar.red;
 * x = 1 for arrive-only, redop in sz (1 popc, 2 and, 3 or). */
int vm_bar_arrive(vm_warp *w, const vm_insn *i, uint32_t m) {
    vm_cta *cta = w->cta;
    uint8_t *fb = w->frames[w->depth - 1].fb;
    int l0 = __builtin_ctz(m);
    uint32_t id = ((uint32_t *)(fb + i->a))[l0];
    if (id >= 16) { vm_fault_at(w, i, l0, 105, "barrier id %u out of range (0..15)", id); return -1; }
    vm_barrier *bar = &cta->bars[id];
    uint32_t count = i->flags & VM_F_SIGNED ? ((uint32_t *)(fb + i->b))[l0] : 0;
    if (cta->san) count = vm_san_bar(w, i, m, id, count);
    if (count && (count % 32 || count > cta->nthreads + 31)) {
        vm_fault_at(w, i, l0, 105, "barrier thread count %u is not a multiple of 32 within the block", count);
        return -1;
    }
    if (count) bar->expected = count;
    if (i->op == VM_BAR_RED) {
        uint32_t p = *(uint32_t *)(fb + i->c) ^ (uint32_t)i->imm;
        bar->redop = i->sz;
        bar->red += (uint32_t)__builtin_popcount(p & m);
    }
    bar->arrived += (uint32_t)__builtin_popcount(m);
    vm_set_lpc(w, w->mask, i + 1);
    if (!(i->x & 1)) {
        w->blocked |= m;
        w->barwait[id] |= m;
    }
    check_barrier(cta, id);
    return 0;
}

/* ---- calls ---- */

static vm_func *func_from_addr(vm_program *p, uint64_t a) {
    for (uint32_t k = 0; k < p->nfuncs; k++)
        if (p->funcs[k].fnaddr == a) return &p->funcs[k];
    return NULL;
}

int vm_builtin_call(vm_warp *w, const vm_insn *i, vm_func *callee, uint32_t lanes);

int vm_do_call(vm_warp *w, const vm_insn *i, uint32_t m) {
    const vm_callinfo *ci = i->p;
    vm_frame *fr = &w->frames[w->depth - 1];
    for (int l = 0; l < VM_LANES; l++)
        if ((w->mask & ~m) >> l & 1) w->lpc[l] = i + 1;
    if (!m) return 0;
    vm_func *callee = ci->callee;
    uint32_t lanes = m;
    if (!callee) {
        const uint64_t *fp = (const uint64_t *)(fr->fb + ci->fptr);
        int l0 = __builtin_ctz(m);
        callee = func_from_addr(fr->fn->prog, fp[l0]);
        if (!callee) {
            vm_fault_at(w, i, l0, 105, "indirect call through 0x%llx, which is not a function address",
                        (unsigned long long)fp[l0]);
            return -1;
        }
        lanes = 0;
        for (int l = 0; l < VM_LANES; l++)
            if (m >> l & 1 && fp[l] == fp[l0]) lanes |= 1u << l;
        for (int l = 0; l < VM_LANES; l++)   /* lanes calling elsewhere call after this group returns */
            if ((m & ~lanes) >> l & 1) w->lpc[l] = i;
    }
    if (!callee->ir->has_body) {
        int r = vm_builtin_call(w, i, callee, lanes);
        if (r < 0) return -1;
        for (int l = 0; l < VM_LANES; l++)
            if (lanes >> l & 1) w->lpc[l] = i + 1;
        return 0;
    }
    int r = vm_push_frame(w, callee, lanes, i, i + 1);
    if (r < 0) {
        /* an H100 reports a stack overflow as an illegal address (tests/cudart/programs/stack_overflow.cu) */
        vm_fault_at(w, i, __builtin_ctz(lanes), 100, r == -2 ? "call to '%s' overflows the per-thread stack"
                                                              : "call to '%s' nests too deeply", callee->ir->name);
        return -1;
    }
    vm_frame *nf = &w->frames[w->depth - 1], *caller = &w->frames[w->depth - 2];
    for (uint32_t k = 0; k < ci->nargs && k < callee->ir->nparams; k++) {
        uint32_t sz = ci->argsize[k];
        for (int l = 0; l < VM_LANES; l++)
            if (lanes >> l & 1)
                memcpy(nf->fb + callee->param_off[k] + (size_t)l * sz, caller->fb + ci->argoff[k] + (size_t)l * sz, sz);
    }
    return 0;
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

static int init_cta(vm_cta *cta, vm_grid *g, uint64_t linear) {
    const vm_launch_cfg *cfg = g->cfg;
    cta->grid = g;
    cta->linear = linear;
    /* CTAs are numbered cluster by cluster (rank fastest), so that a worker
     * taking consecutive numbers takes whole clusters */
    const uint32_t *cd = g->cdim;
    uint64_t lc = linear / g->csize, nx = cfg->grid[0] / cd[0], ny = cfg->grid[1] / cd[1];
    uint32_t r = (uint32_t)(linear % g->csize);
    cta->crank = r;
    cta->ctaid[0] = (uint32_t)(lc % nx) * cd[0] + r % cd[0];
    cta->ctaid[1] = (uint32_t)(lc / nx % ny) * cd[1] + r / cd[0] % cd[1];
    cta->ctaid[2] = (uint32_t)(lc / (nx * ny)) * cd[2] + r / (cd[0] * cd[1]);
    if (cta->smem_size) memset(cta->smem, 0, cta->smem_size);
    memset(cta->bars, 0, sizeof cta->bars);
    if (g->san) vm_san_cta_begin(cta);
    vm_func *k = cfg->kernel;
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        vm_warp *w = &cta->warps[wi];
        for (uint32_t d = 1; d < w->depth; d++) free(w->frames[d].fb);
        w->blocked = w->collwait = 0;
        memset(w->barwait, 0, sizeof w->barwait);
        memset(w->lsp, 0, sizeof w->lsp);
        w->forced = false;
        w->clock = 0;
        w->sleep_until = 0;
        w->exited = ~w->present;
        if (w->depth && w->frames[0].fn == k) {
            /* the entry frame is reused: no allocation per CTA, and the
             * constant slots above the registers still hold their values
             * (nothing writes them), so only the predicates start afresh */
            w->frames[0].kparams = cfg->params;
            memcpy(w->frames[0].fb, k->frame_init, k->regs_lo);
            w->depth = 1;
            w->frames[0].done = 0;
            for (int l = 0; l < VM_LANES; l++) w->lpc[l] = k->code;
            for (int l = 0; l < VM_LANES; l++) w->lsp[l] = k->local_size;
        } else {
            if (w->depth) free(w->frames[0].fb);
            w->depth = 0;
            if (vm_push_frame(w, k, w->present, NULL, NULL) < 0) return -1;
        }
        w->pc = k->code;
        w->mask = w->present;
        w->lpc_stop = NO_STOP;
        w->state = VM_W_READY;
    }
    return 0;
}

static void report_deadlock(vm_cta *cta) {
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
            vm_fault_at(w, at, l, 107, "barrier %u deadlock: %u of %u threads arrived%s", b, bar->arrived, need, who);
        } else {
            vm_fault_at(w, at, l, 107, "warp collective waits for lanes that never arrive");
        }
        return;
    }
}

/* Runs one CTA's warps round robin until all are done. */
/* One round: every runnable warp of the CTA runs until it yields. */
enum { ROUND_DONE, ROUND_RAN, ROUND_IDLE, ROUND_FAULT };

static int cta_round(vm_cta *cta, uint64_t *sleeper, bool *waits) {
    vm_grid *g = cta->grid;
    uint32_t done = 0;
    bool ran = false, sleeping = false;
    for (uint32_t k = 0; k < cta->nwarps; k++) {
        vm_warp *w = &cta->warps[k];
        if (w->state == VM_W_DONE) { done++; continue; }
        if (w->state == VM_W_BLOCKED) continue;
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
        vm_yield y = vm_exec(w, SLICE);
        if (y == VM_Y_FAULT || atomic_load(&g->stop)) return ROUND_FAULT;
        if (y == VM_Y_SLICE) *waits = true;
        if (y == VM_Y_DONE) {
            w->state = VM_W_DONE;
            done++;
        }
        if (w->exited != exited)   /* exited threads no longer count toward barriers */
            for (unsigned b = 0; b < 16; b++) check_barrier(cta, b);
        if (y == VM_Y_SLICE && g->deadline && vm_now() > g->deadline) {
            vm_fault_at(w, w->pc, __builtin_ctz(w->mask | 1), 104, "watchdog: the launch ran longer than %.3g s",
                        g->cfg->timeout_s);
            return ROUND_FAULT;
        }
    }
    if (done == cta->nwarps) return ROUND_DONE;
    if (sleeping) *waits = true;
    if (ran || sleeping) return ran ? ROUND_RAN : ROUND_IDLE;
    /* nothing can run and nothing sleeps: the waits can never be satisfied */
    report_deadlock(cta);
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

typedef struct worker {
    vm_grid *g;
    unsigned nslots;
    vm_cta *cta;
    bool *allocated, *live;
    vm_cluster *clusters;       /* one per group of csize slots (with clusters) */
    uint64_t take, took;        /* CTAs [take, took) are this worker's, not yet admitted */
    pthread_t th;
} worker;

static void free_cta(vm_cta *cta) {
    if (cta->san) vm_san_cta_free(cta);
    for (uint32_t k = 0; k < cta->nwarps; k++) {
        vm_warp *w = &cta->warps[k];
        for (uint32_t d = 0; d < w->depth; d++) free(w->frames[d].fb);
        free(w->frames);
        free(w->local);
    }
    free(cta->warps);
    free(cta->smem);
}

static int alloc_cta(vm_cta *cta, const vm_launch_cfg *cfg) {
    memset(cta, 0, sizeof *cta);
    cta->nthreads = cfg->block[0] * cfg->block[1] * cfg->block[2];
    cta->nwarps = (cta->nthreads + VM_LANES - 1) / VM_LANES;
    cta->smem_size = cfg->kernel->prog->shared_static;
    if (cfg->dyn_shared) {
        uint32_t al = cfg->kernel->prog->dyn_shared_align ? cfg->kernel->prog->dyn_shared_align : 16;
        cta->smem_size = (cta->smem_size + al - 1) / al * al + cfg->dyn_shared;
    }
    cta->smem_full = cta->smem_size;
    /* whole cache lines, so two host threads' CTAs never share one */
    size_t sbytes = ((size_t)cta->smem_size + 16 + 63) & ~(size_t)63, wbytes = (cta->nwarps * sizeof *cta->warps + 63) & ~(size_t)63;
    cta->smem = aligned_alloc(64, sbytes);
    cta->warps = aligned_alloc(64, wbytes);
    if (!cta->smem || !cta->warps) return -1;
    memset(cta->smem, 0, sbytes);
    memset(cta->warps, 0, wbytes);
    for (uint32_t k = 0; k < cta->nwarps; k++) cta->warps[k].local_stride = cfg->stack_size;
    return 0;
}

static void out_of_memory(vm_grid *g) {
    pthread_mutex_lock(&g->lock);
    if (!g->status) {
        g->status = 2;
        g->fault->status = 2;
        snprintf(g->fault->msg, sizeof g->fault->msg, "ptxi: out of host memory for a CTA");
    }
    pthread_mutex_unlock(&g->lock);
    atomic_store(&g->stop, 1);
}

/* Takes the next CTA of the grid into slot s; false when the grid is exhausted. */
static bool admit(worker *wk, unsigned s) {
    vm_grid *g = wk->g;
    if (wk->take == wk->took) {
        wk->take = atomic_fetch_add(&g->next_cta, g->chunk);
        wk->took = wk->take + g->chunk;
    }
    uint64_t c = wk->take++;
    if (c >= g->ncta) return false;
    if (!wk->allocated[s]) {
        if (alloc_cta(&wk->cta[s], g->cfg) < 0) { out_of_memory(g); return false; }
        init_warps_once(&wk->cta[s], g->cfg);
        wk->allocated[s] = true;
    }
    if (init_cta(&wk->cta[s], g, c) < 0) { out_of_memory(g); return false; }
    wk->live[s] = true;
    if (wk->clusters) {   /* slot s holds rank s % csize of the group's cluster */
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

/* Admits a whole cluster (a single CTA without clusters) into the first group
 * of free slots; false when there is none or the grid is exhausted. */
static bool admit_group(worker *wk, bool *more) {
    unsigned u = wk->g->csize;
    for (unsigned s0 = 0; s0 < wk->nslots; s0 += u) {
        bool free = true;
        for (unsigned s = s0; s < s0 + u; s++) free &= !wk->live[s];
        if (!free) continue;
        for (unsigned s = s0; s < s0 + u; s++)
            if (!admit(wk, s)) { *more = false; return s > s0; }
        return true;
    }
    return false;
}

static void *worker_main(void *arg) {
    worker *wk = arg;
    vm_grid *g = wk->g;
    unsigned rounds = 0;
    bool more = true;
    for (;;) {
        if (atomic_load(&g->stop)) break;
        int nlive = 0;
        for (unsigned s = 0; s < wk->nslots; s++) nlive += wk->live[s];
        if (g->cfg->resident)   /* a cooperative grid: its CTAs wait for each other, all are admitted at once */
            while (more && (unsigned)nlive < wk->nslots && admit_group(wk, &more)) nlive++;
        else if (more && (nlive == 0 || (rounds >= ADMIT_AFTER && (unsigned)nlive < wk->nslots))) {
            if (admit_group(wk, &more)) nlive++;
            rounds = 0;
        }
        if (!nlive) break;
        bool ran = false, waits = g->cfg->resident != 0;
        uint64_t sleeper = 0;
        for (unsigned s = 0; s < wk->nslots; s++) {
            if (!wk->live[s]) continue;
            int r = cta_round(&wk->cta[s], &sleeper, &waits);
            if (r == ROUND_FAULT) goto end;
            if (r == ROUND_DONE) { wk->live[s] = false; rounds = 0; }
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
    for (unsigned s = 0; s < wk->nslots; s++) {
        atomic_fetch_add(&g->thread_insns, wk->cta[s].thread_insns);
        atomic_fetch_add(&g->warp_insns, wk->cta[s].warp_insns);
    }
    return NULL;
}

/* ---- the host threads ----
 * Launches reuse one pool of host threads, started as launches first ask for
 * them and kept, idle on a condition variable, until the process ends: a
 * launch then costs no thread creation, and its workers start together. The
 * launching thread runs worker 0 itself. A launch that finds the pool busy
 * (another host thread is launching) starts threads of its own, as does one
 * that cannot grow the pool. After fork() the child starts afresh. */
enum { POOL_MAX = 1024 };

static struct {
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    pthread_t th[POOL_MAX];
    unsigned nth;               /* threads started */
    worker *ws;                 /* the job: workers 1..n-1 */
    unsigned n, next, running;
    bool busy, quit;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .go = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

static void *pool_main(void *arg) {
    (void)arg;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (!pool.quit && pool.next >= pool.n) pthread_cond_wait(&pool.go, &pool.lock);
        if (pool.quit) break;
        worker *wk = &pool.ws[pool.next++];
        pthread_mutex_unlock(&pool.lock);
        worker_main(wk);
        pthread_mutex_lock(&pool.lock);
        if (--pool.running == 0) pthread_cond_signal(&pool.done);
    }
    pthread_mutex_unlock(&pool.lock);
    return NULL;
}

static void pool_after_fork(void) {
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.go, NULL);
    pthread_cond_init(&pool.done, NULL);
    pool.nth = pool.n = pool.next = pool.running = 0;
    pool.ws = NULL;
    pool.busy = pool.quit = false;
}

static void pool_atfork(void) { pthread_atfork(NULL, NULL, pool_after_fork); }

/* The pool's threads end with the process (or when the library is unloaded). */
__attribute__((destructor)) static void pool_stop(void) {
    pthread_mutex_lock(&pool.lock);
    if (pool.busy) { pthread_mutex_unlock(&pool.lock); return; }
    pool.quit = true;
    pthread_cond_broadcast(&pool.go);
    unsigned nth = pool.nth;
    pthread_mutex_unlock(&pool.lock);
    for (unsigned k = 0; k < nth; k++) pthread_join(pool.th[k], NULL);
}

/* Runs ws[0..n-1] on n host threads, the caller's among them. */
static void run_workers(worker *ws, unsigned n) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, pool_atfork);
    pthread_mutex_lock(&pool.lock);
    bool mine = !pool.busy && !pool.quit && n - 1 <= POOL_MAX;
    while (mine && pool.nth < n - 1)
        if (pthread_create(&pool.th[pool.nth], NULL, pool_main, NULL) == 0) pool.nth++;
        else mine = false;
    if (mine) {
        pool.busy = true;
        pool.ws = ws, pool.n = n, pool.next = 1, pool.running = n - 1;
        pthread_cond_broadcast(&pool.go);
    }
    pthread_mutex_unlock(&pool.lock);
    if (!mine) {   /* workers that get no thread run here, after the others started */
        unsigned made = 1;
        while (made < n && pthread_create(&ws[made].th, NULL, worker_main, &ws[made]) == 0) made++;
        for (unsigned k = made; k < n; k++) worker_main(&ws[k]);
        worker_main(&ws[0]);
        for (unsigned k = 1; k < made; k++) pthread_join(ws[k].th, NULL);
        return;
    }
    worker_main(&ws[0]);
    pthread_mutex_lock(&pool.lock);
    while (pool.running) pthread_cond_wait(&pool.done, &pool.lock);
    pool.ws = NULL, pool.n = pool.next = 0, pool.busy = false;
    pthread_mutex_unlock(&pool.lock);
}

int vm_launch(const vm_launch_cfg *cfg, vm_stats *stats, vm_fault *fault) {
    vm_grid g;
    memset(&g, 0, sizeof g);
    g.cfg = cfg;
    g.fault = fault;
    g.ncta = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
    pthread_mutex_init(&g.lock, NULL);
    if (cfg->timeout_s > 0) g.deadline = vm_now() + cfg->timeout_s;
    if (cfg->kernel->prog->rt && cfg->kernel->prog->rt->san) vm_san_launch_begin(&g);
    unsigned n = cfg->threads ? cfg->threads : 1;
    if (n > g.ncta) n = (unsigned)g.ncta;
    if (!n) n = 1;
    /* Workers take CTAs a few at a time from the shared counter, in order, so
     * that small CTAs do not make it the bottleneck; few enough that the grid
     * still ends evenly on all threads, and one at a time when every CTA must
     * be resident together (cooperative launches). */
    g.chunk = cfg->resident ? 1 : g.ncta / ((uint64_t)n * 64);
    if (g.chunk < 1) g.chunk = 1;
    if (g.chunk > 16) g.chunk = 16;
    /* Thread-block clusters (.reqnctapercluster, checked against the grid by
     * the runtime): taken and resident whole. */
    const uint32_t *rc3 = cfg->kernel->ir ? cfg->kernel->ir->reqnctapercluster : NULL;
    for (int d = 0; d < 3; d++) g.cdim[d] = cfg->cluster[d] ? cfg->cluster[d] : rc3 && rc3[d] ? rc3[d] : 1;
    g.csize = g.cdim[0] * g.cdim[1] * g.cdim[2];
    g.chunk *= g.csize;
    worker *ws = calloc(n, sizeof *ws);
    int rc = 0;
    if (!ws) rc = 2;
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
        if (g.csize > 1 && !(ws[k].clusters = calloc(slots / g.csize, sizeof *ws[k].clusters))) rc = 2;
        ws[k].cta = aligned_alloc(64, slots * sizeof *ws[k].cta);   /* vm_cta is line-aligned */
        if (ws[k].cta) memset(ws[k].cta, 0, slots * sizeof *ws[k].cta);
        ws[k].allocated = calloc(slots, sizeof *ws[k].allocated);
        ws[k].live = calloc(slots, sizeof *ws[k].live);
        if (!ws[k].cta || !ws[k].allocated || !ws[k].live) rc = 2;
    }
    if (!rc) {
        if (n == 1) worker_main(&ws[0]);
        else run_workers(ws, n);
    }
    for (unsigned k = 0; ws && k < n; k++) {
        for (unsigned s = 0; ws[k].allocated && s < ws[k].nslots; s++)
            if (ws[k].allocated[s]) free_cta(&ws[k].cta[s]);
        for (unsigned c = 0; ws[k].clusters && c < slots / g.csize; c++) free(ws[k].clusters[c].want);
        free(ws[k].clusters);
        free(ws[k].cta);
        free(ws[k].allocated);
        free(ws[k].live);
    }
    free(ws);
    if (g.san) vm_san_launch_end(&g);
    if (rc) {
        fault->status = rc;
        snprintf(fault->msg, sizeof fault->msg, "ptxi: out of host memory for the launch");
    }
    if (stats) {
        stats->thread_insns = atomic_load(&g.thread_insns);
        stats->warp_insns = atomic_load(&g.warp_insns);
        for (int k = 0; k < 16; k++) stats->pmevents[k] = atomic_load(&g.pmevents[k]);
    }
    pthread_mutex_destroy(&g.lock);
    return rc ? rc : g.status;
}
