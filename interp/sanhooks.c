/* sanhooks.c — where the scheduler and the handlers reach racecheck and
 * synccheck (sanitize.h): each hook hands the event to the tool in use. The
 * hooks run only where g->san / cta->san is set, so other runs never get here. */
#include "exec_mem.h"
#include "racecheck.h"
#include "synccheck.h"

static int tool_of(const vm_grid *g) { return g->cfg->kernel->prog->rt->san->tool; }

/* synccheck keeps nothing per launch: g->san only says it is on. */
static char sync_on;

void vm_san_launch_begin(vm_grid *g) {
    int t = tool_of(g);
    if (t == VM_SAN_RACECHECK) g->san = vm_race_grid_new(g->cfg->kernel->prog);
    else if (t == VM_SAN_SYNCCHECK) g->san = &sync_on;
}

void vm_san_launch_end(vm_grid *g) {
    if (tool_of(g) == VM_SAN_RACECHECK) vm_race_report(g->san, g->cfg->kernel->prog->rt->san);
    g->san = NULL;
}

void vm_san_cta_begin(vm_cta *cta) {
    if (tool_of(cta->grid) == VM_SAN_RACECHECK) {
        vm_race_cta_end(cta->grid->san, cta->san); /* the slot's previous CTA */
        cta->san = vm_race_cta_begin(cta->san, cta);
        /* every shared access takes the checked path (vm_san_shared); without
         * a shadow (out of host memory) the CTA runs unchecked */
        cta->smem_size = cta->san ? 0 : cta->smem_full;
        memset(cta->smem, 0, cta->smem_full);
    } else cta->san = vm_sync_cta_begin(cta->san);
}

void vm_san_cta_free(vm_cta *cta) {
    if (tool_of(cta->grid) == VM_SAN_RACECHECK) {
        vm_race_cta_end(cta->grid->san, cta->san);
        vm_race_cta_free(cta->san);
    } else vm_sync_cta_free(cta->san);
    cta->san = NULL;
}

uint32_t vm_san_bar(vm_warp *w, const vm_insn *i, uint32_t m, unsigned id, uint32_t count) {
    if (tool_of(w->cta->grid) != VM_SAN_SYNCCHECK) return count;
    return vm_sync_bar(w->cta->san, w, i, m, id, count);
}

void vm_san_bar_done(vm_cta *cta, unsigned id) {
    if (tool_of(cta->grid) == VM_SAN_RACECHECK) vm_race_barrier(cta->grid->san, cta->san);
    else vm_sync_bar_done(cta->san, id);
}

void vm_san_warp_sync(vm_warp *w, const vm_insn *i, uint32_t m, uint32_t members) {
    if (tool_of(w->cta->grid) == VM_SAN_RACECHECK) {
        vm_race_warp_sync(w->cta->san, w->id);
        return;
    }
    const uint8_t *fb = w->frames[w->depth - 1].fb;
    uint32_t mm[VM_LANES];
    for (int l = 0; l < VM_LANES; l++) mm[l] = i->a ? ((const uint32_t *)(fb + i->a))[l] : members;
    vm_sync_warp_sync(w, i, m, mm);
}

void vm_san_mbar(vm_warp *w, const vm_insn *i, int lane, uint64_t sa, unsigned phase, int ev) {
    if (tool_of(w->cta->grid) == VM_SAN_SYNCCHECK) vm_sync_mbar(w->cta->san, w, i, lane, (uint32_t)sa, phase, ev);
}

/* The n bytes lane l of a st/st.v record stores (false: another kind of write). */
static bool stored(const vm_warp *w, const vm_insn *i, int l, uint8_t *out, unsigned n) {
    const uint8_t *fb = w->frames[w->depth - 1].fb;
    if (i->op == VM_ST || i->op == VM_STS4) {
        uint64_t v = get_reg(fb, i->b, i->flags & VM_F_D64 ? VM_K_R64 : VM_K_R32, l);
        memcpy(out, &v, n < 8 ? n : 8);
        return n <= 8;
    }
    if (i->op != VM_STV) return false;
    const vm_vec *v = i->p;
    for (uint32_t k = 0; k < v->n && (k + 1) * i->sz <= n; k++) {
        uint64_t e = v->e[k].kind == VM_K_SINK ? 0 : get_reg(fb, v->e[k].off, v->e[k].kind, l);
        memcpy(out + k * i->sz, &e, i->sz);
    }
    return true;
}

uint8_t *vm_san_shared(vm_warp *w, const vm_insn *i, int lane, uint64_t a, unsigned n, bool wr) {
    vm_cta *cta = w->cta;
    if (a >> VM_DSMEM_SHIFT) { /* another CTA's shared memory: not checked */
        uint64_t r = (a >> VM_DSMEM_SHIFT) - 1, o = a & VM_DSMEM_OFF;
        if (!cta->cluster || r >= cta->grid->csize) return NULL;
        const vm_cta *peer = cta->cluster->cta[r];
        return peer && o + n <= peer->smem_full ? peer->smem + o : NULL;
    }
    if (a + n > cta->smem_full) return NULL;
    if (i->op != VM_ATOM) { /* atomics do not race with each other */
        uint8_t val[64];
        bool known = wr && n <= sizeof val && stored(w, i, lane, val, n);
        vm_race_access(cta->grid->san, cta->san, w, i, lane, (uint32_t)a, n, wr, known ? val : NULL);
    }
    return cta->smem + a;
}
