/* racecheck.h — shared-memory hazards between unordered threads of a CTA
 * (racecheck.c), for sanitize mode's racecheck tool. */
#ifndef PTXI_VM_RACECHECK_H
#define PTXI_VM_RACECHECK_H

#include "sanitize.h"

typedef struct vm_race_grid vm_race_grid; /* the hazards of one launch */
typedef struct vm_race_cta vm_race_cta;   /* a CTA's shadow of its shared memory */

/* The hazards of a launch of a kernel of p. */
vm_race_grid *vm_race_grid_new(const vm_program *p);
/* Prints the launch's hazards (compute-sanitizer's analysis records) and frees g. */
void vm_race_report(vm_race_grid *g, vm_san *s);
/* The shadow for a CTA starting (r: the slot's previous one, reused or freed;
 * its CTA ended with vm_race_cta_end). */
vm_race_cta *vm_race_cta_begin(vm_race_cta *r, vm_cta *cta);
/* The CTA ended: the accesses since its last barrier are checked. */
void vm_race_cta_end(vm_race_grid *g, vm_race_cta *r);
void vm_race_cta_free(vm_race_cta *r);
/* A barrier of the CTA completed: what came before is ordered before what follows. */
void vm_race_barrier(vm_race_grid *g, vm_race_cta *r);
/* bar.warp.sync completed in warp `warp`. */
void vm_race_warp_sync(vm_race_cta *r, uint32_t warp);
/* Lane `lane` of w accesses n bytes at shared offset a (in bounds); a write
 * stores val (NULL: not known). */
void vm_race_access(vm_race_grid *g, vm_race_cta *r, const vm_warp *w, const vm_insn *i, int lane, uint32_t a,
                    unsigned n, bool wr, const uint8_t *val);

#endif
