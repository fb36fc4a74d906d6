/* synccheck.c — `ptxi sanitize --tool synccheck`: barriers and warp
 * collectives used against their rules, reported as compute-sanitizer's
 * synccheck reports them. ptxi runs such code as an H100 does (a barrier that
 * part of a warp or block reaches completes when the rest exits; a collective
 * runs without the lanes that exited); only this tool says so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synccheck.h"

struct vm_sync_cta {
    const vm_insn *bar_at[16];   /* the instruction the first thread of this phase arrived at */
    uint32_t count[16];          /* the thread count it named (0: all) */
};

vm_sync_cta *vm_sync_cta_begin(vm_sync_cta *s) {
    if (!s) s = calloc(1, sizeof *s);
    else memset(s, 0, sizeof *s);
    return s;
}

void vm_sync_cta_free(vm_sync_cta *s) { free(s); }

/* One record per lane of `lanes`. */
static void records(vm_warp *w, const vm_insn *i, uint32_t lanes, const char *what) {
    vm_cta *cta = w->cta;
    const vm_launch_cfg *cfg = cta->grid->cfg;
    vm_san *s = cfg->kernel->prog->rt->san;
    char at[1024], text[1400];
    vm_san_at(vm_func_of(w, i), i, at, sizeof at);
    unsigned bx = cfg->block[0], by = cfg->block[1];
    for (int l = 0; l < VM_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        unsigned t = w->id * VM_LANES + (unsigned)l;
        snprintf(text, sizeof text,
                 "%s\n    at %s\n    by thread (%u,%u,%u) in block (%u,%u,%u)\n"
                 "    Saved host backtrace up to driver entry point at kernel launch time",
                 what, at, t % bx, t / bx % by, t / (bx * by), cta->ctaid[0], cta->ctaid[1], cta->ctaid[2]);
        vm_san_record(s, text);
    }
}

/* Lanes that are alive in w. */
static uint32_t live(const vm_warp *w) { return w->present & ~w->exited; }

void vm_sync_bar(vm_sync_cta *s, vm_warp *w, const vm_insn *i, uint32_t m, unsigned id, uint32_t count) {
    bool aligned = i->x & 2;
    if (aligned && m != live(w)) records(w, i, m, "Barrier error detected. Divergent thread(s) in warp.");
    if (s->bar_at[id] && s->bar_at[id] != i && !(i->x & 1))
        records(w, i, m, "Barrier error detected. Divergent thread(s) in block.");
    else if (s->bar_at[id] && s->count[id] != count)
        records(w, i, m, "Barrier error detected. Invalid arguments.");
    if (!s->bar_at[id] && !(i->x & 1)) s->bar_at[id] = i;
    if (!s->count[id]) s->count[id] = count;
}

void vm_sync_bar_done(vm_sync_cta *s, unsigned id) {
    s->bar_at[id] = NULL;
    s->count[id] = 0;
}

void vm_sync_members(vm_warp *w, const vm_insn *i, uint32_t m, const uint32_t *mm) {
    uint32_t bad = 0;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1 && (!(mm[l] >> l & 1) || (mm[l] & ~live(w)))) bad |= 1u << l;
    if (bad) records(w, i, bad, "Barrier error detected. Invalid arguments.");
}
