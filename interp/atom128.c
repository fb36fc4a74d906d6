/* atom128.c — 16-byte atomics (atom.exch.b128, atom.cas.b128), what CUDA's
 * atomicExch/atomicCAS of a 16-byte type compile to on sm_90. A host has no
 * portable 16-byte compare-and-swap (x86-64 needs cmpxchg16b and -mcx16,
 * others a library), so each access takes one of 256 spin locks chosen by its
 * address: two 16-byte atomics on one cell always take the same lock, and
 * atomics on different cells rarely wait for each other. */
#include <stdatomic.h>
#include <string.h>

#include "exec_mem.h"

#define STRIPES 256

/* Zero-initialised static atomics are valid (C11 7.17.2.1); one cache line each. */
static struct {
    atomic_int held;
    char pad[60];
} stripes[STRIPES];

void vm_atom128(uint8_t *p, unsigned op, const uint64_t b[2], const uint64_t c[2], uint64_t old[2]) {
    atomic_int *lock = &stripes[((uintptr_t)p >> 4) % STRIPES].held;
    while (atomic_exchange_explicit(lock, 1, memory_order_acquire))
        while (atomic_load_explicit(lock, memory_order_relaxed)) VM_PAUSE();
    memcpy(old, p, 16);
    if (op == VM_AO_EXCH) memcpy(p, b, 16);
    else if (old[0] == b[0] && old[1] == b[1]) memcpy(p, c, 16);
    atomic_store_explicit(lock, 0, memory_order_release);
}
