/* mem.c — the device arena: reserved address space committed on use, a sorted
 * allocation table for reports, freed ranges reused first-fit, and a shadow map
 * so a bad address is caught instead of touching host memory. */
#include "mem.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

uint64_t vm_shared_win, vm_local_win;

static pthread_once_t win_once = PTHREAD_ONCE_INIT;

/* Reserve the two generic windows once per process. */
static void reserve_windows(void) {
    void *p = mmap(NULL, 2 * VM_WIN_SIZE + VM_WIN_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return;
    /* Start windows on a 4 GiB boundary so window offsets are the low 32 bits. */
    uint64_t w = ((uint64_t)(uintptr_t)p + VM_WIN_SIZE - 1) & ~(VM_WIN_SIZE - 1);
    vm_shared_win = w;
    vm_local_win = w + VM_WIN_SIZE;
}

int vm_arena_init(vm_arena *a, uint64_t reserve) {
    memset(a, 0, sizeof *a);
    pthread_once(&win_once, reserve_windows);
    if (!vm_shared_win) return -1;
    a->reserve = reserve;
    void *p = mmap(NULL, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return -1;
    void *s = mmap(NULL, reserve >> VM_GRANULE_SHIFT, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (s == MAP_FAILED) { munmap(p, reserve); return -1; }
    a->base = p;
    a->shadow = s;
    /* Offset 0 stays unused so no allocation sits at the arena's first byte. */
    a->top = VM_GRANULE;
    pthread_mutex_init(&a->lock, NULL);
    return 0;
}

void vm_arena_destroy(vm_arena *a) {
    if (!a->base) return;
    munmap(a->base, a->reserve);
    munmap(a->shadow, a->reserve >> VM_GRANULE_SHIFT);
    free(a->v);
    free(a->freed);
    free(a->ext);
    pthread_mutex_destroy(&a->lock);
    memset(a, 0, sizeof *a);
}

static uint32_t lower_bound(const vm_arena *a, uint64_t addr) {
    uint32_t lo = 0, hi = a->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (a->v[mid].addr < addr) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static bool grow(void **v, uint32_t *cap, uint32_t n, size_t elem) {
    if (n < *cap) return true;
    uint32_t nc = *cap ? *cap * 2 : 64;
    void *nv = realloc(*v, nc * elem);
    if (!nv) return false;
    *v = nv;
    *cap = nc;
    return true;
}

uint64_t vm_arena_alloc(vm_arena *a, uint64_t size, uint8_t kind, const char *what) {
    uint64_t span = ((size ? size : 1) + VM_GRANULE - 1) & ~(VM_GRANULE - 1);
    uint64_t off = 0;
    pthread_mutex_lock(&a->lock);
    for (uint32_t i = 0; i < a->nfree; i++)
        if (a->freed[i][1] >= span) {
            off = a->freed[i][0];
            a->freed[i][0] += span;
            a->freed[i][1] -= span;
            if (!a->freed[i][1]) {   /* used up: move the last range into its place */
                a->nfree--;
                a->freed[i][0] = a->freed[a->nfree][0];
                a->freed[i][1] = a->freed[a->nfree][1];
            }
            memset(a->base + off, 0, span);
            break;
        }
    /* A one-granule gap after each fresh allocation catches off-by-one overruns. */
    if (!off) {
        if (a->top + span + VM_GRANULE > a->reserve) { pthread_mutex_unlock(&a->lock); return 0; }
        off = a->top;
        a->top += span + VM_GRANULE;
        /* Back the pages now, as a GPU allocation is, so a kernel's first
         * touch of its buffers costs no page faults. */
        memset(a->base + off, 0, span);
    }
    if (!grow((void **)&a->v, &a->cap, a->n, sizeof *a->v)) { pthread_mutex_unlock(&a->lock); return 0; }
    uint64_t addr = (uint64_t)(uintptr_t)(a->base + off);
    uint32_t at = lower_bound(a, addr);
    memmove(a->v + at + 1, a->v + at, (a->n - at) * sizeof *a->v);
    a->v[at] = (vm_alloc){addr, size, kind, what};
    a->n++;
    a->in_use += span;
    memset(a->shadow + (off >> VM_GRANULE_SHIFT), kind, span >> VM_GRANULE_SHIFT);
    pthread_mutex_unlock(&a->lock);
    return addr;
}

int vm_arena_free(vm_arena *a, uint64_t addr) {
    pthread_mutex_lock(&a->lock);
    uint32_t at = lower_bound(a, addr);
    if (at >= a->n || a->v[at].addr != addr ||
        !grow((void **)&a->freed, &a->capfree, a->nfree, sizeof *a->freed)) {
        pthread_mutex_unlock(&a->lock);
        return -1;
    }
    uint64_t span = ((a->v[at].size ? a->v[at].size : 1) + VM_GRANULE - 1) & ~(VM_GRANULE - 1);
    uint64_t off = addr - (uint64_t)(uintptr_t)a->base;
    memset(a->shadow + (off >> VM_GRANULE_SHIFT), VM_SH_NONE, span >> VM_GRANULE_SHIFT);
    /* Give the pages back; the range stays reserved for reuse. */
    if (span >= 65536) madvise(a->base + off, span, MADV_DONTNEED);
    a->freed[a->nfree][0] = off;
    a->freed[a->nfree][1] = span;
    a->nfree++;
    a->in_use -= span;
    memmove(a->v + at, a->v + at + 1, (a->n - at - 1) * sizeof *a->v);
    a->n--;
    pthread_mutex_unlock(&a->lock);
    return 0;
}

const vm_alloc *vm_arena_find(vm_arena *a, uint64_t addr, bool *inside) {
    const vm_alloc *r = NULL;
    *inside = false;
    pthread_mutex_lock(&a->lock);
    uint32_t at = lower_bound(a, addr + 1);   /* first with start > addr */
    if (at > 0 && addr < a->v[at - 1].addr + (a->v[at - 1].size ? a->v[at - 1].size : 1)) {
        r = &a->v[at - 1];
        *inside = true;
    } else {
        const vm_alloc *lo = at > 0 ? &a->v[at - 1] : NULL, *hi = at < a->n ? &a->v[at] : NULL;
        if (lo && hi) r = addr - (lo->addr + lo->size) <= hi->addr - addr ? lo : hi;
        else r = lo ? lo : hi;
    }
    pthread_mutex_unlock(&a->lock);
    return r;
}

int vm_arena_register(vm_arena *a, uint64_t addr, uint64_t bytes) {
    int rc = -1;
    pthread_mutex_lock(&a->lock);
    bool overlap = false;
    for (uint32_t i = 0; i < a->next; i++)
        if (addr < a->ext[i][0] + a->ext[i][1] && a->ext[i][0] < addr + bytes) overlap = true;
    if (!overlap && grow((void **)&a->ext, &a->capext, a->next, sizeof *a->ext)) {
        a->ext[a->next][0] = addr;
        a->ext[a->next][1] = bytes;
        a->next++;
        rc = 0;
    }
    pthread_mutex_unlock(&a->lock);
    return rc;
}

int vm_arena_unregister(vm_arena *a, uint64_t addr) {
    int rc = -1;
    pthread_mutex_lock(&a->lock);
    for (uint32_t i = 0; i < a->next; i++)
        if (a->ext[i][0] == addr) {
            a->ext[i][0] = a->ext[a->next - 1][0];
            a->ext[i][1] = a->ext[a->next - 1][1];
            a->next--;
            rc = 0;
            break;
        }
    pthread_mutex_unlock(&a->lock);
    return rc;
}

bool vm_arena_external(vm_arena *a, uint64_t addr, uint64_t n) {
    if (!a->next) return false;
    bool in = false;
    pthread_mutex_lock(&a->lock);
    for (uint32_t i = 0; i < a->next && !in; i++)
        in = addr >= a->ext[i][0] && addr + n <= a->ext[i][0] + a->ext[i][1];
    pthread_mutex_unlock(&a->lock);
    return in;
}
