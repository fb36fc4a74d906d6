/* regshare.h — frame slots shared by registers whose live ranges never meet (regshare.c). */
#ifndef PTXI_REGSHARE_H
#define PTXI_REGSHARE_H

#include <stdint.h>

#include "ir.h"

/* slot[r] for every register r of f but predicates: slot numbers from 0;
 * registers with the same number may share a frame slot, and a slot's
 * registers are all 16-byte, all 8-byte or all narrower. Returns the number of slots, -1
 * when out of memory (then slot is meaningless). live_in, when given
 * ((nregs + 64) / 64 words), gets bit r set for every register r (predicates
 * included) that some path from the entry reads before writing it (a
 * destination under a guard or with a selector counts as a read); it is
 * meaningful only when the return is not -1. */
int vm_share_slots(const ir_func *f, uint32_t *slot, uint64_t *live_in);

#endif
