/* synccheck.h — barrier and warp-collective misuse (synccheck.c), for
 * sanitize mode's synccheck tool. */
#ifndef PTXI_VM_SYNCCHECK_H
#define PTXI_VM_SYNCCHECK_H

#include "sanitize.h"

typedef struct vm_sync_cta vm_sync_cta; /* a CTA's barrier phases */

vm_sync_cta *vm_sync_cta_begin(vm_sync_cta *s);
void vm_sync_cta_free(vm_sync_cta *s);
/* Lanes m of w arrive at barrier id with thread count `count` (0: all);
 * returns the count the barrier is to wait for. */
uint32_t vm_sync_bar(vm_sync_cta *s, vm_warp *w, const vm_insn *i, uint32_t m, unsigned id, uint32_t count);
void vm_sync_bar_done(vm_sync_cta *s, unsigned id);
/* Lanes m of w execute bar.warp.sync, lane l naming member mask mm[l]. */
void vm_sync_warp_sync(vm_warp *w, const vm_insn *i, uint32_t m, const uint32_t *mm);
/* Lane `lane` of w arrives on (VM_SYNC_MB_ARRIVE: mbarrier.arrive and its
 * forms; VM_SYNC_MB_CP_ARRIVE: cp.async.mbarrier.arrive without .noinc) or
 * waits on (VM_SYNC_MB_WAIT) the mbarrier at shared offset sa, whose phase
 * is `phase` before the arrival. */
void vm_sync_mbar(vm_sync_cta *s, vm_warp *w, const vm_insn *i, int lane, uint32_t sa, unsigned phase, int ev);

#endif
