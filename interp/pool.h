/* pool.h — the host threads that run a launch (pool.c). */
#ifndef PTXI_POOL_H
#define PTXI_POOL_H

#include <stdbool.h>
#include <stddef.h>

/* Runs fn(items + k * stride) for k = 0..n-1 on n host threads at once, the
 * caller's among them (it runs item 0; a pool thread done with one item may
 * take another that no thread has taken yet), and returns when all have
 * returned. */
void vm_pool_run(void *(*fn)(void *), void *items, size_t stride, unsigned n);
/* Wakes the pool's threads to spin for a while (SPIN_MAX) before they sleep
 * again, as a launch on many threads is expected soon: a sleeping thread
 * takes from tens to hundreds of microseconds to wake on a virtual machine. */
void vm_pool_heads_up(void);
/* Copies n bytes from src to dst as memmove does (src NULL: fills them with
 * c), spread over up to `threads` of the pool's host threads when n is large,
 * the pool is free and the ranges do not overlap. */
void vm_pool_copy(void *dst, const void *src, int c, size_t n, unsigned threads);
/* A block of n bytes, 64-byte aligned, from those this host thread freed
 * with vm_block_free (the same size rounded up to 64), else from the heap;
 * what either returns may go to free() as well. */
void *vm_block_alloc(size_t n);
void vm_block_free(void *p, size_t n);

#endif
