/* pool.h — the host threads that run a launch (pool.c). */
#ifndef PTXI_POOL_H
#define PTXI_POOL_H

#include <stdbool.h>
#include <stddef.h>

/* Runs fn(items + k * stride) for k = 0..n-1, each on its own host thread, the
 * caller's among them (it runs item 0), and returns when all have returned. */
void vm_pool_run(void *(*fn)(void *), void *items, size_t stride, unsigned n);

#endif
