/* synccheck.c — `ptxi sanitize --tool synccheck`: barriers used against their
 * rules, reported as compute-sanitizer's synccheck reports them on an H100
 * (gpu/jobs/sanrace-checks):
 *  - the threads of a block wait at one barrier from different instructions,
 *    or naming different thread counts: "Divergent thread(s) in block", for
 *    each thread that arrived before the one that differs;
 *  - bar.warp.sync (__syncwarp) whose member mask leaves out a lane that
 *    executes it: "Invalid arguments", for every lane that executes it;
 *  - a thread arrives on an mbarrier while an arrival of its own on it is
 *    not waited for: "Missing wait" (rules below, vm_sync_mbar).
 * ptxi runs such code on (a barrier with two counts completes with the
 * first); the launch then fails, as under compute-sanitizer. What an H100
 * allows since Volta is no error: a __syncthreads() that part of a warp or
 * block reaches while the rest exits, and *.sync collectives whose mask names
 * lanes that exited or leaves out lanes that call them (synccheck reports
 * none of these on sm_90). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synccheck.h"

/* Threads that arrived at a barrier together: from one instruction, one count. */
typedef struct arrival {
    const vm_insn *i;
    uint32_t warp, lanes, count;
    bool reported;
} arrival;

/* A thread's last mbarrier arrival not yet followed by a wait. */
typedef struct mb_arrival {
    uint32_t bar;        /* the barrier's shared offset + 1; 0: none */
    uint8_t phase;       /* the barrier's phase (mod 4) it arrived in */
    bool async;          /* cp.async.mbarrier.arrive (without .noinc) */
    bool reported;       /* the thread has its record: the GPU stops the grid there */
} mb_arrival;

struct vm_sync_cta {
    arrival *arr[16]; /* per barrier: the arrivals of this phase */
    uint32_t narr[16], cap[16];
    mb_arrival *mb; /* per thread of the CTA, from its first mbarrier arrival */
    uint32_t nmb;
};

vm_sync_cta *vm_sync_cta_begin(vm_sync_cta *s) {
    if (!s) return calloc(1, sizeof *s);
    memset(s->narr, 0, sizeof s->narr);
    if (s->mb) memset(s->mb, 0, s->nmb * sizeof *s->mb);
    return s;
}

void vm_sync_cta_free(vm_sync_cta *s) {
    if (!s) return;
    for (int b = 0; b < 16; b++) free(s->arr[b]);
    free(s->mb);
    free(s);
}

/* One record per lane of `lanes` of warp `warp`, at instruction i; `extra`
 * ends the record's own lines (before its Device Frame lines). */
static void records(vm_cta *cta, uint32_t warp, const vm_insn *i, uint32_t lanes, const char *what,
                    const char *extra) {
    const vm_launch_cfg *cfg = cta->grid->cfg;
    vm_san *s = cfg->kernel->prog->rt->san;
    char at[1024], frame[VM_SAN_FRAMES], text[4096];
    vm_san_at(vm_func_of(&cta->warps[warp], i), i, at, sizeof at, frame, sizeof frame);
    unsigned bx = cfg->block[0], by = cfg->block[1];
    for (int l = 0; l < VM_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        unsigned t = warp * VM_LANES + (unsigned)l;
        snprintf(text, sizeof text,
                 "Barrier error detected. %s\n    at %s\n    by thread (%u,%u,%u) in block (%u,%u,%u)%s%s\n"
                 "    Saved host backtrace up to driver entry point at kernel launch time",
                 what, at, t % bx, t / bx % by, t / (bx * by), cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], extra,
                 frame);
        vm_san_record(s, text);
    }
}

uint32_t vm_sync_bar(vm_sync_cta *s, vm_warp *w, const vm_insn *i, uint32_t m, unsigned id, uint32_t count) {
    if (!s || id >= 16 || i->x & VM_BAR_ARRIVE_ONLY) return count; /* bar.arrive: a producer's, from anywhere */
    uint32_t n = s->narr[id];
    for (uint32_t k = 0; k < n; k++) {
        arrival *a = &s->arr[id][k];
        if (!a->reported && (a->i != i || a->count != count)) {
            records(w->cta, a->warp, a->i, a->lanes, "Divergent thread(s) in block.", "");
            a->reported = true;
        }
    }
    if (n == s->cap[id]) {
        uint32_t nc = n ? 2 * n : 8;
        arrival *na = realloc(s->arr[id], nc * sizeof *na);
        if (!na) return count;
        s->arr[id] = na;
        s->cap[id] = nc;
    }
    s->arr[id][s->narr[id]++] = (arrival){i, w->id, m, count, false};
    return n ? s->arr[id][0].count : count; /* the barrier keeps the first count */
}

void vm_sync_bar_done(vm_sync_cta *s, unsigned id) {
    if (s && id < 16) s->narr[id] = 0;
}

void vm_sync_warp_sync(vm_warp *w, const vm_insn *i, uint32_t m, const uint32_t *mm) {
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1 && !(mm[l] >> l & 1)) {
            records(w->cta, w->id, i, m, "Invalid arguments.", "");
            return;
        }
}

/* The rules, read off compute-sanitizer's synccheck on an H100 (tests/sanitize/
 * expected/mbar.*, gpu/jobs/sanitize-more/recorded: the async samples): each
 * thread has one pending arrival, its last on any mbarrier, until it waits
 * (test_wait/try_wait on any mbarrier). Arriving on the same barrier again is
 * "Missing wait" when the pending arrival's phase has completed (arrive, no
 * wait, arrive in the next phase) or it was a cp.async.mbarrier.arrive without
 * .noinc (memcpy_async with a cuda::barrier, then arrive_and_wait: the
 * ptx-sample async_copy); two arrivals in one phase, one on another barrier
 * in between, a .noinc arrive-on, or a thread that exits without waiting are
 * not. The GPU stops the grid at the first record, so a thread gets one. */
void vm_sync_mbar(vm_sync_cta *s, vm_warp *w, const vm_insn *i, int lane, uint32_t sa, unsigned phase, int ev) {
    vm_cta *cta = w->cta;
    uint32_t t = w->id * VM_LANES + (uint32_t)lane;
    if (s->nmb < cta->nwarps * VM_LANES) { /* the first arrival, or a larger block in this slot */
        free(s->mb);
        s->nmb = cta->nwarps * VM_LANES;
        if (!(s->mb = calloc(s->nmb, sizeof *s->mb))) s->nmb = 0;
    }
    if (t >= s->nmb) return;
    mb_arrival *a = &s->mb[t];
    if (ev == VM_SYNC_MB_WAIT) {
        a->bar = 0;
        return;
    }
    if (ev == VM_SYNC_MB_ARRIVE && a->bar == sa + 1 && (a->async || a->phase != (phase & 3u)) && !a->reported) {
        char where[80];
        snprintf(where, sizeof where, "\n    Barrier is located at shared address 0x%x", sa + VM_SAN_SHARED_RESERVED);
        records(cta, w->id, i, 1u << lane, "Missing wait.", where);
        a->reported = true;
    }
    a->bar = sa + 1;
    a->phase = (uint8_t)(phase & 3u);
    a->async = ev == VM_SYNC_MB_CP_ARRIVE;
}
