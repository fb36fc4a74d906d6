/* async_mbar.c — mbarrier objects: init, inval, arrive (counts, .noComplete,
 * arrive_drop, arrive.expect_tx), expect_tx/complete_tx, test_wait/try_wait
 * (token and .parity forms) and pending_count, with the misuse checks the PTX
 * ISA implies. The state lives in the barrier's own 64-bit word (async_impl.h). */
#include "async_impl.h"

/* ---- finding a waiting block that can never wake up ----
 * A failed wait gives the host thread to other warps (VM_EXT_YIELD), so a
 * block whose warps all wait on phases nobody will complete would spin
 * forever. A CTA runs on one host thread, so each host thread counts barrier
 * changes (`epoch`) and, per warp, failed waits since the last change. When
 * every warp that is not done or parked at bar.sync has failed many waits in
 * a row with no change anywhere, nothing can change any more. */
#define AS_STUCK_WAITS 4096u
static __thread struct {
    uint64_t epoch;
    uint64_t fail_epoch[32];
    uint64_t fail_clock[32]; /* a smaller clock means a new CTA in the same slot */
    uint32_t fails[32];
} stuck;

static void mb_changed(void) { stuck.epoch++; }

static bool mb_deadlocked(vm_warp *w) {
    vm_cta *cta = w->cta;
    uint32_t id = w->id & 31;
    if (stuck.fail_epoch[id] != stuck.epoch || w->clock < stuck.fail_clock[id]) stuck.fails[id] = 0;
    stuck.fail_epoch[id] = stuck.epoch;
    stuck.fail_clock[id] = w->clock;
    if (++stuck.fails[id] < AS_STUCK_WAITS || cta->nwarps > 32) return false;
    for (uint32_t k = 0; k < cta->nwarps; k++) {
        const vm_warp *q = &cta->warps[k];
        if (q->state == VM_W_DONE || q->state == VM_W_BLOCKED || (q->exited & q->present) == q->present) continue;
        if (stuck.fail_epoch[k] != stuck.epoch || stuck.fails[k] < AS_STUCK_WAITS || q->clock < stuck.fail_clock[k])
            return false;
    }
    return true;
}

/* ---- addressing ---- */

uint8_t *as_shared(vm_warp *w, const vm_insn *i, const as_addr *ad, uint64_t a, int l, uint32_t n, uint32_t align,
                   const char *what) {
    vm_cta *cta = w->cta;
    uint64_t sa = a;
    if (ad->sp == VM_SP_GENERIC) {
        if (a - vm_shared_win >= VM_WIN_SIZE) {
            vm_fault_at(w, i, l, PTXI_INVALID_ADDRESS_SPACE, "%s at generic address 0x%llx is not in shared memory",
                        what, (unsigned long long)a);
            return NULL;
        }
        sa = a - vm_shared_win;
    } else if (a >= VM_WIN_SIZE) {
        vm_fault_at(w, i, l, PTXI_INVALID_ADDRESS_SPACE, "%s 0x%llx is not a shared-memory address%s", what,
                    (unsigned long long)a,
                    a - vm_shared_win < VM_WIN_SIZE ? " (it is a generic address: convert it with cvta.to.shared)"
                                                    : "");
        return NULL;
    }
    if (sa + n > cta->smem_full) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_ADDRESS,
                    "%s at shared address 0x%llx: %u bytes past the %u-byte shared window", what,
                    (unsigned long long)sa, n, cta->smem_full);
        return NULL;
    }
    if (sa & (align - 1)) {
        vm_fault_at(w, i, l, PTXI_MISALIGNED_ADDRESS, "misaligned %s: shared address 0x%llx is not %u-byte aligned",
                    what, (unsigned long long)sa, align);
        return NULL;
    }
    return cta->smem + sa;
}

/* The barrier word of lane l, checked to be an initialized barrier. */
static uint64_t *mb_word(vm_warp *w, const uint8_t *fb, const vm_insn *i, int l, bool need_valid, uint64_t *sa) {
    const as_rec *r = i->p;
    uint64_t a = as_ea(w, fb, &r->bar, l);
    uint64_t *p = (uint64_t *)as_shared(w, i, &r->bar, a, l, 8, 8, "mbarrier object");
    if (!p) return NULL;
    *sa = (uint64_t)((uint8_t *)p - w->cta->smem);
    if (need_valid && !(*p & MB_VALID)) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION,
                    "mbarrier at shared address 0x%llx is not initialized (no mbarrier.init, or it was invalidated)",
                    (unsigned long long)*sa);
        return NULL;
    }
    return p;
}

static uint32_t count_arg(const uint8_t *fb, const as_rec *r, int l) {
    return r->s[0].kind == VM_K_SINK ? 1 : (uint32_t)get_reg(fb, r->s[0].off, r->s[0].kind, l);
}

/* ---- state transitions ---- */

/* A phase completes when its pending arrivals and its transaction count are
 * both zero: the next phase starts with the expected count and no transactions. */
static uint64_t mb_settle(uint32_t pend, uint32_t exp, int32_t tx, unsigned phase) {
    if (pend == 0 && tx == 0) return mb_make(exp, exp, 0, phase + 1);
    return mb_make(pend, exp, tx, phase);
}

static bool mb_tx_add(vm_warp *w, const vm_insn *i, int l, uint64_t sa, int32_t *tx, int64_t delta) {
    int64_t t = (int64_t)*tx + delta;
    if (t > (int64_t)MB_MAX_COUNT || t < -(int64_t)MB_MAX_COUNT) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION,
                    "mbarrier at shared address 0x%llx: transaction count %lld is outside [-(2^20-1), 2^20-1]",
                    (unsigned long long)sa, (long long)t);
        return false;
    }
    *tx = (int32_t)t;
    return true;
}

bool as_arrive(vm_warp *w, const vm_insn *i, int l, uint64_t *bar, uint64_t sa, uint32_t count, uint16_t flags,
               uint64_t *old) {
    uint64_t s = *bar;
    uint32_t pend = MB_PEND(s), exp = MB_EXP(s);
    int32_t tx = MB_TX(s);
    *old = s;
    if (count == 0 || count > MB_MAX_COUNT) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION, "mbarrier arrive count %u is outside [1, 2^20-1]", count);
        return false;
    }
    if (count > pend) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION,
                    "mbarrier at shared address 0x%llx: %u arrival%s with %u pending would make the pending count "
                    "negative (phase %u)",
                    (unsigned long long)sa, count, count == 1 ? "" : "s", pend, MB_PHASE(s));
        return false;
    }
    if ((flags & AS_F_DROP) && count > exp) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION,
                    "mbarrier at shared address 0x%llx: arrive_drop of %u with an expected count of %u",
                    (unsigned long long)sa, count, exp);
        return false;
    }
    if ((flags & AS_F_NOCOMPLETE) && count == pend && tx == 0) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION,
                    "mbarrier at shared address 0x%llx: an arrive with .noComplete would complete the phase",
                    (unsigned long long)sa);
        return false;
    }
    if (flags & AS_F_DROP) exp -= count;
    *bar = mb_settle(pend - count, exp, tx, MB_PHASE(s));
    if (w->cta->san && MB_PHASE(*bar) != MB_PHASE(s)) vm_san_bar_done(w->cta, VM_SAN_MBARRIER);
    mb_changed();
    return true;
}

vm_cta *as_mc_cta(vm_warp *w, uint32_t r) {
    vm_cta *cta = w->cta;
    if (!cta->cluster) return r == 0 ? cta : NULL;
    return r < cta->grid->csize ? cta->cluster->cta[r] : NULL;
}

bool as_complete_tx(vm_warp *w, const vm_insn *i, int l, uint64_t *bar, uint64_t sa, uint32_t bytes) {
    uint64_t s = *bar;
    if (!(s & MB_VALID)) {
        vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION,
                    "complete_tx on the mbarrier at shared address 0x%llx, which is not initialized",
                    (unsigned long long)sa);
        return false;
    }
    int32_t tx = MB_TX(s);
    if (!mb_tx_add(w, i, l, sa, &tx, -(int64_t)bytes)) return false;
    *bar = mb_settle(MB_PEND(s), MB_EXP(s), tx, MB_PHASE(s));
    if (w->cta->san && MB_PHASE(*bar) != MB_PHASE(s)) vm_san_bar_done(w->cta, VM_SAN_MBARRIER);
    mb_changed();
    return true;
}

/* ---- run functions ---- */

int as_mbar_init(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint64_t sa, *p = mb_word(w, fb, i, l, false, &sa);
            if (!p) return VM_EXT_FAULT;
            uint32_t n = (uint32_t)get_reg(fb, r->s[0].off, r->s[0].kind, l);
            if (n == 0 || n > MB_MAX_COUNT) {
                vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION, "mbarrier.init count %u is outside [1, 2^20-1]", n);
                return VM_EXT_FAULT;
            }
            *p = mb_make(n, n, 0, 0);
        }
    mb_changed();
    return VM_EXT_NEXT;
}

int as_mbar_inval(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint64_t sa, *p = mb_word(w, fb, i, l, true, &sa);
            if (!p) return VM_EXT_FAULT;
            *p = 0;
        }
    mb_changed();
    return VM_EXT_NEXT;
}

/* arrive, arrive_drop, arrive.expect_tx (lanes in lane order, each getting
 * the state before its own arrival). */
int as_mbar_arrive(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint64_t sa, old, *p = mb_word(w, fb, i, l, true, &sa);
            if (!p) return VM_EXT_FAULT;
            if (r->flags & AS_F_EXPECT_TX) {
                uint64_t s = *p;
                int32_t tx = MB_TX(s);
                if (!mb_tx_add(w, i, l, sa, &tx, (int64_t)(uint32_t)get_reg(fb, r->s[0].off, r->s[0].kind, l)))
                    return VM_EXT_FAULT;
                *p = mb_make(MB_PEND(s), MB_EXP(s), tx, MB_PHASE(s));
            }
            uint32_t count = r->flags & AS_F_COUNT ? count_arg(fb, r, l) : 1;
            if (w->cta->san) vm_san_mbar(w, i, l, sa, MB_PHASE(*p), VM_SYNC_MB_ARRIVE);
            if (!as_arrive(w, i, l, p, sa, count, r->flags, &old)) return VM_EXT_FAULT;
            put_reg(fb, r->d.off, r->d.kind, l, old);
        }
    return VM_EXT_NEXT;
}

/* expect_tx / complete_tx */
int as_mbar_tx(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint64_t sa, *p = mb_word(w, fb, i, l, true, &sa);
            if (!p) return VM_EXT_FAULT;
            uint32_t n = (uint32_t)get_reg(fb, r->s[0].off, r->s[0].kind, l);
            if (r->flags & AS_F_COMPLETE_TX) {
                if (!as_complete_tx(w, i, l, p, sa, n)) return VM_EXT_FAULT;
            } else {
                uint64_t s = *p;
                int32_t tx = MB_TX(s);
                if (!mb_tx_add(w, i, l, sa, &tx, n)) return VM_EXT_FAULT;
                *p = mb_make(MB_PEND(s), MB_EXP(s), tx, MB_PHASE(s));
                mb_changed();
            }
        }
    return VM_EXT_NEXT;
}

/* test_wait / try_wait: true once the phase of the token (or the phase of the
 * given parity) has completed. A false result hands the host thread to other
 * warps; the program's loop comes back here when this warp runs again. */
int as_mbar_wait(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    bool all = true;
    uint64_t first_sa = 0, first_s = 0;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint64_t sa, *p = mb_word(w, fb, i, l, true, &sa);
            if (!p) return VM_EXT_FAULT;
            uint64_t s = *p;
            bool done;
            if (r->flags & AS_F_PARITY) {
                done = (MB_PHASE(s) & 1u) != ((uint32_t)get_reg(fb, r->s[0].off, r->s[0].kind, l) & 1u);
            } else {
                uint64_t tok = get_reg(fb, r->s[0].off, VM_K_R64, l);
                if (!(tok & MB_VALID)) {
                    vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION,
                                "mbarrier wait with 0x%llx, which is not a state returned by mbarrier.arrive",
                                (unsigned long long)tok);
                    return VM_EXT_FAULT;
                }
                unsigned age = (MB_PHASE(s) - MB_PHASE(tok)) & 3u;
                if (age > 1) {
                    vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION,
                                "mbarrier at shared address 0x%llx: wait with a token from %u phases ago (only the "
                                "current or the immediately preceding phase may be waited on)",
                                (unsigned long long)sa, age);
                    return VM_EXT_FAULT;
                }
                done = age == 1;
            }
            as_put_pred(fb, r->d, l, done);
            if (w->cta->san) vm_san_mbar(w, i, l, sa, MB_PHASE(s), VM_SYNC_MB_WAIT);
            if (!done && all) first_sa = sa, first_s = s, all = false;
        }
    if (all) return VM_EXT_NEXT;
    if (mb_deadlocked(w)) {
        vm_fault_at(w, i, __builtin_ctz(m), PTXI_BARRIER_DEADLOCK,
                    "mbarrier deadlock: every warp of the block waits on an mbarrier phase that can no longer "
                    "complete (barrier at shared address 0x%llx: %u of %u arrivals pending, transaction count %d)",
                    (unsigned long long)first_sa, MB_PEND(first_s), MB_EXP(first_s), MB_TX(first_s));
        return VM_EXT_FAULT;
    }
    return VM_EXT_YIELD;
}

int as_mbar_pending(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    (void)w;
    const as_rec *r = i->p;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) put_reg(fb, r->d.off, r->d.kind, l, MB_PEND(get_reg(fb, r->s[0].off, VM_K_R64, l)));
    return VM_EXT_NEXT;
}
