/* mbarrier.h — the mbarrier object's state word: what the asynchronous
 * barrier (async_mbar.c) and copies keep in shared memory, and what the
 * debugger shows of it. */
#ifndef PTXI_MBARRIER_H
#define PTXI_MBARRIER_H

#include <stdint.h>

/* The mbarrier object is the 64-bit word in shared memory itself:
 *   bits  0..19  pending arrivals of the current phase
 *   bits 20..39  expected arrivals of each phase (arrive_drop lowers it)
 *   bits 40..60  transaction count, 21-bit two's complement
 *   bits 61..62  phase number modulo 4 (a token two or three phases old is caught)
 *   bit  63      set by init, cleared by inval: a zeroed or invalidated word is
 *                not a barrier, so arriving on it is reported.
 * A state token (what arrive returns) is the word as it was before the arrive. */
#define MB_MAX_COUNT 0xfffffu
#define MB_VALID (1ull << 63)
#define MB_PEND(s) ((uint32_t)(s)&MB_MAX_COUNT)
#define MB_EXP(s) ((uint32_t)((s) >> 20) & MB_MAX_COUNT)
#define MB_TX(s) ((int32_t)((uint32_t)((s) >> 40) << 11) >> 11)
#define MB_PHASE(s) ((unsigned)((s) >> 61) & 3u)

static inline uint64_t mb_make(uint32_t pend, uint32_t exp, int32_t tx, unsigned phase) {
    return MB_VALID | (uint64_t)(phase & 3u) << 61 | (uint64_t)((uint32_t)tx & 0x1fffffu) << 40 |
           (uint64_t)(exp & MB_MAX_COUNT) << 20 | (pend & MB_MAX_COUNT);
}

#endif
