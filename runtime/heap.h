/* heap.h — the device heap behind malloc, free and __nv_aligned_device_malloc:
 * a fixed region given by the caller, carved into blocks whose bookkeeping
 * lives in host memory, so device code that overruns a block cannot corrupt
 * the allocator, and a bad free is always detected. */
#ifndef RT_HEAP_H
#define RT_HEAP_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "ptxi.h"

#define RT_HEAP_BINS 48

typedef struct rt_heap_block rt_heap_block;

/* Treat as opaque; the caller owns the struct, the heap owns what it points to. */
typedef struct rt_heap {
    pthread_mutex_t lock;
    unsigned char *base;
    size_t size, in_use;
    rt_heap_block *blk; /* block records; free records chain through `next` */
    uint32_t nblk, capblk, spare;
    uint32_t *hash; /* live allocations: open addressing by offset */
    uint32_t hash_cap, hash_n;
    uint32_t bins[RT_HEAP_BINS]; /* free blocks by size class */
} rt_heap;

/* Manages [base, base+size); base is rounded up to 16 bytes. 0, or -1 when out
 * of host memory. The region's contents are never read or written. */
int rt_heap_init(rt_heap *h, void *base, size_t size);
void rt_heap_fini(rt_heap *h); /* frees the bookkeeping, not the region */

/* n bytes aligned to max(align, 16), or NULL when the heap cannot hold them or
 * align is not a power of two (as __nv_aligned_device_malloc: align 0 or 3 give
 * NULL on an H100). malloc(0) returns a distinct pointer, as on the GPU.
 * Thread-safe. */
void *rt_heap_malloc(rt_heap *h, size_t n, size_t align);

/* free(): PTXI_SUCCESS (also for NULL); PTXI_ILLEGAL_ADDRESS for a pointer
 * outside the heap and PTXI_LAUNCH_FAILED for one inside it that is not a live
 * allocation (double free), which is what the H100 reports for each
 * (gpu/jobs/rt_defaults/recorded/heap2_foreign.txt, heap3_double.txt); the
 * heap is unchanged then. Thread-safe. */
ptxi_status rt_heap_free(rt_heap *h, void *p);

/* Bytes currently allocated (multiples of 16). */
size_t rt_heap_in_use(rt_heap *h);

#endif
