/* regshare.h — frame slots shared by registers whose live ranges never meet (regshare.c). */
#ifndef PTXI_REGSHARE_H
#define PTXI_REGSHARE_H

#include <stdint.h>

#include "ir.h"

/* slot[r] for every register r of f but predicates: slot numbers from 0;
 * registers with the same number may share a frame slot, and a slot's
 * registers are all 16-byte, all 8-byte or all narrower. Returns the number of slots, -1
 * when out of memory (then slot is meaningless). */
int vm_share_slots(const ir_func *f, uint32_t *slot);

#endif
