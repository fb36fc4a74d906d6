/* heap.c — the device heap: boundary-tag blocks kept in a host-side array
 * (address-ordered neighbours for coalescing, segregated free lists for
 * allocation, a hash of live allocations for free), all under one mutex.
 * Granule 16 bytes, so every pointer is 16-byte aligned and a heap of S bytes
 * holds S/16 allocations of 16 bytes. */
#include "heap.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX
#define GRAIN 16

struct rt_heap_block {
    size_t off, size;
    uint32_t prev, next;   /* neighbours by address (NIL at the ends) */
    uint32_t fprev, fnext; /* free-list links while free */
    bool free;
};

static unsigned bin_of(size_t size) {
    unsigned b = 63 - (unsigned)__builtin_clzll(size / GRAIN);
    return b < RT_HEAP_BINS ? b : RT_HEAP_BINS - 1;
}

/* ---- block records ---- */

static uint32_t blk_new(rt_heap *h) {
    if (h->spare != NIL) {
        uint32_t i = h->spare;
        h->spare = h->blk[i].next;
        return i;
    }
    if (h->nblk == h->capblk) {
        uint32_t cap = h->capblk ? h->capblk * 2 : 64;
        rt_heap_block *b = realloc(h->blk, sizeof *b * cap);
        if (!b) return NIL;
        h->blk = b;
        h->capblk = cap;
    }
    return h->nblk++;
}

static void blk_release(rt_heap *h, uint32_t i) {
    h->blk[i].next = h->spare;
    h->spare = i;
}

/* ---- free lists ---- */

static void bin_insert(rt_heap *h, uint32_t i) {
    rt_heap_block *b = &h->blk[i];
    uint32_t *head = &h->bins[bin_of(b->size)];
    b->free = true;
    b->fprev = NIL;
    b->fnext = *head;
    if (*head != NIL) h->blk[*head].fprev = i;
    *head = i;
}

static void bin_remove(rt_heap *h, uint32_t i) {
    rt_heap_block *b = &h->blk[i];
    if (b->fprev != NIL) h->blk[b->fprev].fnext = b->fnext;
    else h->bins[bin_of(b->size)] = b->fnext;
    if (b->fnext != NIL) h->blk[b->fnext].fprev = b->fprev;
    b->free = false;
}

/* ---- live allocations by offset (linear probing, backward-shift delete) ---- */

static uint32_t slot_of(const rt_heap *h, size_t off) {
    return (uint32_t)(((off / GRAIN) * 0x9E3779B97F4A7C15ull) >> 32) & (h->hash_cap - 1);
}

static uint32_t *hash_find(rt_heap *h, size_t off) {
    for (uint32_t s = slot_of(h, off);; s = (s + 1) & (h->hash_cap - 1)) {
        if (h->hash[s] == NIL || h->blk[h->hash[s]].off == off) return &h->hash[s];
    }
}

static bool hash_grow(rt_heap *h) {
    uint32_t *old = h->hash, n = h->hash_cap;
    uint32_t cap = n ? n * 2 : 256;
    uint32_t *t = malloc(sizeof *t * cap);
    if (!t) return false;
    memset(t, 0xff, sizeof *t * cap);
    h->hash = t;
    h->hash_cap = cap;
    for (uint32_t s = 0; s < n; s++)
        if (old[s] != NIL) *hash_find(h, h->blk[old[s]].off) = old[s];
    free(old);
    return true;
}

static void hash_delete(rt_heap *h, uint32_t *slot) {
    uint32_t m = h->hash_cap - 1, hole = (uint32_t)(slot - h->hash);
    for (uint32_t s = (hole + 1) & m; h->hash[s] != NIL; s = (s + 1) & m) {
        uint32_t want = slot_of(h, h->blk[h->hash[s]].off);
        /* move the entry into the hole unless its home lies cyclically in (hole, s] */
        if (((s - want) & m) >= ((s - hole) & m)) {
            h->hash[hole] = h->hash[s];
            hole = s;
        }
    }
    h->hash[hole] = NIL;
    h->hash_n--;
}

/* ---- the API ---- */

int rt_heap_init(rt_heap *h, void *base, size_t size) {
    memset(h, 0, sizeof *h);
    uintptr_t b = ((uintptr_t)base + GRAIN - 1) & ~(uintptr_t)(GRAIN - 1);
    size_t lost = b - (uintptr_t)base;
    h->base = (unsigned char *)b;
    h->size = size > lost ? (size - lost) & ~(size_t)(GRAIN - 1) : 0;
    h->spare = NIL;
    for (int i = 0; i < RT_HEAP_BINS; i++) h->bins[i] = NIL;
    if (!hash_grow(h)) return -1;
    pthread_mutex_init(&h->lock, NULL);
    if (h->size) {
        uint32_t i = blk_new(h);
        if (i == NIL) {
            rt_heap_fini(h);
            return -1;
        }
        h->blk[i] = (rt_heap_block){0, h->size, NIL, NIL, NIL, NIL, false};
        bin_insert(h, i);
    }
    return 0;
}

void rt_heap_fini(rt_heap *h) {
    free(h->blk);
    free(h->hash);
    pthread_mutex_destroy(&h->lock);
    memset(h, 0, sizeof *h);
}

/* Splits `size` bytes at the front of free block i off into a new free block
 * (i keeps the front part and leaves its free list). Returns the new block, or
 * NIL when out of host memory. */
static uint32_t split(rt_heap *h, uint32_t i, size_t size) {
    uint32_t j = blk_new(h);
    if (j == NIL) return NIL;
    rt_heap_block *b = &h->blk[i];
    h->blk[j] = (rt_heap_block){b->off + size, b->size - size, i, b->next, NIL, NIL, false};
    if (b->next != NIL) h->blk[b->next].prev = j;
    b->next = j;
    b->size = size;
    return j;
}

/* First block, searching from the size's class upwards, that holds `size`
 * bytes at an `align`-aligned address; *gap gets the bytes before that address. */
static uint32_t find_fit(rt_heap *h, size_t size, size_t align, size_t *gap) {
    for (unsigned b = bin_of(size); b < RT_HEAP_BINS; b++) {
        for (uint32_t i = h->bins[b]; i != NIL; i = h->blk[i].fnext) {
            const rt_heap_block *k = &h->blk[i];
            uintptr_t at = (uintptr_t)h->base + k->off;
            size_t g = ((at + align - 1) & ~(uintptr_t)(align - 1)) - at;
            if (k->size >= size && k->size - size >= g) {
                *gap = g;
                return i;
            }
        }
    }
    return NIL;
}

void *rt_heap_malloc(rt_heap *h, size_t n, size_t align) {
    if (!align || (align & (align - 1)) || n > SIZE_MAX - GRAIN) return NULL;
    align = align < GRAIN ? GRAIN : align;
    size_t size = n ? (n + GRAIN - 1) & ~(size_t)(GRAIN - 1) : GRAIN;
    void *p = NULL;
    pthread_mutex_lock(&h->lock);
    size_t gap = 0;
    uint32_t i = find_fit(h, size, align, &gap);
    if (i == NIL || ((h->hash_n + 1) * 2 > h->hash_cap && !hash_grow(h))) goto out;
    bin_remove(h, i);
    if (gap) {
        uint32_t j = split(h, i, gap);
        if (j == NIL) {
            bin_insert(h, i);
            goto out;
        }
        bin_insert(h, i);
        i = j;
    }
    if (h->blk[i].size > size) {
        uint32_t j = split(h, i, size);
        if (j != NIL) bin_insert(h, j); /* out of host memory: the block keeps its tail */
    }
    *hash_find(h, h->blk[i].off) = i;
    h->hash_n++;
    h->in_use += h->blk[i].size;
    p = h->base + h->blk[i].off;
out:
    pthread_mutex_unlock(&h->lock);
    return p;
}

/* Merges free block j into its free predecessor i (both out of the free lists). */
static void merge(rt_heap *h, uint32_t i, uint32_t j) {
    rt_heap_block *a = &h->blk[i], *b = &h->blk[j];
    a->size += b->size;
    a->next = b->next;
    if (b->next != NIL) h->blk[b->next].prev = i;
    blk_release(h, j);
}

ptxi_status rt_heap_free(rt_heap *h, void *p) {
    if (!p) return PTXI_SUCCESS;
    uintptr_t a = (uintptr_t)p, lo = (uintptr_t)h->base;
    if (a < lo || a >= lo + h->size) return PTXI_ILLEGAL_ADDRESS;
    ptxi_status st = PTXI_LAUNCH_FAILED;
    pthread_mutex_lock(&h->lock);
    uint32_t *slot = hash_find(h, a - lo);
    if (*slot == NIL) goto out;
    uint32_t i = *slot;
    hash_delete(h, slot);
    h->in_use -= h->blk[i].size;
    uint32_t nx = h->blk[i].next, pv = h->blk[i].prev;
    if (nx != NIL && h->blk[nx].free) {
        bin_remove(h, nx);
        merge(h, i, nx);
    }
    if (pv != NIL && h->blk[pv].free) {
        bin_remove(h, pv);
        merge(h, pv, i);
        i = pv;
    }
    bin_insert(h, i);
    st = PTXI_SUCCESS;
out:
    pthread_mutex_unlock(&h->lock);
    return st;
}

size_t rt_heap_in_use(rt_heap *h) {
    pthread_mutex_lock(&h->lock);
    size_t n = h->in_use;
    pthread_mutex_unlock(&h->lock);
    return n;
}
