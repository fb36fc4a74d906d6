/* mem.c — the device arena: reserved address space backed as it is touched,
 * a sorted allocation table, next-fit placement over merged free ranges whose
 * whole pages go back to the host, a shadow map so a bad address is caught
 * instead of touching host memory, and the text a fault report gives for an
 * address. */
#include "mem.h"

#include "initcheck.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

static uint64_t page_size(void) {
    static uint64_t page;
    if (!__atomic_load_n(&page, __ATOMIC_RELAXED)) {
        long p = sysconf(_SC_PAGESIZE);
        __atomic_store_n(&page, p > 0 ? (uint64_t)p : 4096, __ATOMIC_RELAXED);
    }
    return __atomic_load_n(&page, __ATOMIC_RELAXED);
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

/* Every arena of the process is memory of the one device, and each of its
 * contexts sees all of it at the same addresses (unified addressing): an
 * address outside one arena may lie in another. `peers` lists the live
 * arenas; lookups hold it for reading, and an arena leaves it (for writing)
 * before it goes, so a peer found under the lock stays while it is held. */
static struct {
    pthread_rwlock_t lock;
    vm_arena **v;
    uint32_t n, cap;
    _Atomic uint32_t live; /* n, read without the lock: one arena has no peers */
} peers = {.lock = PTHREAD_RWLOCK_INITIALIZER};

static bool peers_join(vm_arena *a) {
    pthread_rwlock_wrlock(&peers.lock);
    bool ok = grow((void **)&peers.v, &peers.cap, peers.n, sizeof *peers.v);
    if (ok) peers.v[peers.n++] = a, atomic_store(&peers.live, peers.n);
    pthread_rwlock_unlock(&peers.lock);
    return ok;
}

static void peers_leave(vm_arena *a) {
    pthread_rwlock_wrlock(&peers.lock);
    for (uint32_t k = 0; k < peers.n; k++)
        if (peers.v[k] == a) {
            peers.v[k] = peers.v[--peers.n];
            break;
        }
    atomic_store(&peers.live, peers.n);
    pthread_rwlock_unlock(&peers.lock);
}

void vm_arenas_lock(void) { pthread_rwlock_rdlock(&peers.lock); }
void vm_arenas_unlock(void) { pthread_rwlock_unlock(&peers.lock); }

vm_arena *vm_arena_owner(vm_arena *self, uint64_t addr) {
    if (addr - (uint64_t)(uintptr_t)self->base < self->reserve) return self;
    for (uint32_t k = 0; k < peers.n; k++)
        if (addr - (uint64_t)(uintptr_t)peers.v[k]->base < peers.v[k]->reserve) return peers.v[k];
    return NULL;
}

bool vm_arena_peer_ok(vm_arena *self, uint64_t addr, uint64_t n, bool write) {
    if (atomic_load_explicit(&peers.live, memory_order_relaxed) < 2) return false;
    vm_arenas_lock();
    vm_arena *o = vm_arena_owner(self, addr);
    bool ok = o && o != self && vm_arena_ok_any(o, addr, n, write);
    vm_arenas_unlock();
    return ok;
}

int vm_arena_init(vm_arena *a, uint64_t reserve, uint64_t limit) { return vm_arena_init_at(a, reserve, limit, NULL); }

int vm_arena_init_at(vm_arena *a, uint64_t reserve, uint64_t limit, void *hint) {
    memset(a, 0, sizeof *a);
    pthread_once(&win_once, reserve_windows);
    reserve &= ~(page_size() * VM_GRANULE - 1); /* whole pages of shadow */
    if (!vm_shared_win || !reserve) return -1;
    void *p = mmap(hint, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return -1;
    /* Device memory in 2 MiB pages where the host gives them, as a GPU maps
     * it: a kernel that reads a large buffer at random (gather) otherwise
     * spends a tenth of its time in TLB misses. Only advice: a host without
     * transparent huge pages keeps small ones. */
    madvise(p, reserve, MADV_HUGEPAGE);
    void *s = mmap(NULL, reserve >> VM_GRANULE_SHIFT, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (s == MAP_FAILED) {
        munmap(p, reserve);
        return -1;
    }
    if (!grow((void **)&a->freed, &a->capfree, 0, sizeof *a->freed)) {
        munmap(p, reserve);
        munmap(s, reserve >> VM_GRANULE_SHIFT);
        return -1;
    }
    a->base = p;
    a->shadow = s;
    a->reserve = reserve;
    a->limit = limit;
    /* Offset 0 stays unused so no allocation sits at the arena's first byte. */
    a->freed[0][0] = a->cursor = VM_GRANULE;
    a->freed[0][1] = reserve - VM_GRANULE;
    a->nfree = 1;
    pthread_mutex_init(&a->lock, NULL);
    if (!peers_join(a)) {
        vm_arena_destroy(a);
        return -1;
    }
    return 0;
}

void vm_arena_destroy(vm_arena *a) {
    if (!a->base) return;
    peers_leave(a);
    munmap(a->base, a->reserve);
    munmap(a->shadow, a->reserve >> VM_GRANULE_SHIFT);
    free(a->v);
    free(a->freed);
    free(a->ext);
    free(a->quar);
    if (a->init) munmap(a->init, a->reserve);
    pthread_mutex_destroy(&a->lock);
    memset(a, 0, sizeof *a);
}

/* First allocation starting at or after addr. */
static uint32_t lower_bound(const vm_arena *a, uint64_t addr) {
    uint32_t lo = 0, hi = a->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (a->v[mid].addr < addr) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* First free range that ends after off. */
static uint32_t free_after(const vm_arena *a, uint64_t off) {
    uint32_t lo = 0, hi = a->nfree;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (a->freed[mid][0] + a->freed[mid][1] <= off) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static uint64_t span_of(uint64_t size) { return ((size ? size : 1) + VM_GRANULE - 1) & ~(VM_GRANULE - 1); }

/* Kernels read the shadow while other threads allocate: byte stores, atomic. */
static void shadow_fill(vm_arena *a, uint64_t off, uint64_t bytes, uint8_t kind) {
    for (uint64_t g = off >> VM_GRANULE_SHIFT, e = (off + bytes) >> VM_GRANULE_SHIFT; g < e; g++)
        __atomic_store_n(&a->shadow[g], kind, __ATOMIC_RELAXED);
}

/* Free range i gives up [at, at + need), which lies inside it (room for one
 * more range was made by the caller). */
static void carve(vm_arena *a, uint32_t i, uint64_t at, uint64_t need) {
    uint64_t lo = a->freed[i][0], hi = lo + a->freed[i][1];
    if (at == lo) {
        a->freed[i][0] += need;
        a->freed[i][1] -= need;
        if (!a->freed[i][1]) {
            a->nfree--;
            memmove(a->freed + i, a->freed + i + 1, (a->nfree - i) * sizeof *a->freed);
        }
    } else {
        a->freed[i][1] = at - lo;
        if (at + need < hi) { /* split: the rest follows as its own range */
            memmove(a->freed + i + 2, a->freed + i + 1, (a->nfree - i - 1) * sizeof *a->freed);
            a->freed[i + 1][0] = at + need;
            a->freed[i + 1][1] = hi - at - need;
            a->nfree++;
        }
    }
}

/* Takes `need` bytes of address space, next-fit from the cursor, wrapping
 * round once; returns the offset, 0 when no free range is large enough. */
static uint64_t take(vm_arena *a, uint64_t need) {
    if (!grow((void **)&a->freed, &a->capfree, a->nfree, sizeof *a->freed)) return 0;
    uint32_t first = free_after(a, a->cursor);
    if (!a->nfree) return 0;
    bool from_cursor = first < a->nfree;
    if (!from_cursor) first = 0;
    for (uint32_t k = 0; k <= a->nfree; k++) {
        uint32_t i = (first + k) % a->nfree;
        uint64_t lo = a->freed[i][0], hi = lo + a->freed[i][1];
        /* the range holding the cursor is searched from the cursor first, and
         * from its start only after the whole reserve has been gone round */
        uint64_t at = k == 0 && from_cursor && lo < a->cursor ? a->cursor : lo;
        if (hi - at < need) continue;
        carve(a, i, at, need);
        a->cursor = at + need;
        return at;
    }
    return 0;
}

/* Takes [off, off + need) when all of it is free; returns off, else 0. */
static uint64_t take_at(vm_arena *a, uint64_t off, uint64_t need) {
    if (!grow((void **)&a->freed, &a->capfree, a->nfree, sizeof *a->freed)) return 0;
    uint32_t i = free_after(a, off);
    if (i >= a->nfree || a->freed[i][0] > off || a->freed[i][0] + a->freed[i][1] - off < need) return 0;
    carve(a, i, off, need);
    return off;
}

/* vm_arena_alloc, at offset `at` of the reserve when it is not 0. */
static uint64_t alloc_in(vm_arena *a, uint64_t size, uint8_t kind, const char *what, uint64_t at) {
    if (size > a->reserve) return 0;
    uint64_t span = span_of(size), off = 0, addr = 0;
    bool counted = kind != VM_SH_PARAM;
    pthread_mutex_lock(&a->lock);
    if ((!counted || a->in_use + span <= a->limit) && grow((void **)&a->v, &a->cap, a->n, sizeof *a->v))
        off = at ? take_at(a, at, span + VM_GRANULE) : take(a, span + VM_GRANULE); /* the granule after it stays unused */
    if (off) {
        addr = (uint64_t)(uintptr_t)(a->base + off);
        uint32_t at = lower_bound(a, addr);
        memmove(a->v + at + 1, a->v + at, (a->n - at) * sizeof *a->v);
        a->v[at] = (vm_alloc){addr, size, kind, what};
        a->n++;
        if (counted) a->in_use += span;
        /* byte-exact: the program's allocations and module variables in global memory */
        bool tail = a->exact && (vm_alloc_program(&a->v[at]) || (what && kind == VM_SH_GLOBAL)) && size % VM_GRANULE;
        /* initcheck: every access to device memory takes the slow path */
        bool slow = a->init && !what && (kind == VM_SH_GLOBAL || kind == VM_SH_HEAP);
        shadow_fill(a, off, slow ? 0 : tail ? span - VM_GRANULE : span, kind);
    }
    pthread_mutex_unlock(&a->lock);
    return addr;
}

uint64_t vm_arena_alloc(vm_arena *a, uint64_t size, uint8_t kind, const char *what) {
    return alloc_in(a, size, kind, what, 0);
}

void vm_arena_set_what(vm_arena *a, uint64_t addr, const char *what) {
    pthread_mutex_lock(&a->lock);
    uint32_t at = lower_bound(a, addr);
    if (at < a->n && a->v[at].addr == addr) a->v[at].what = what;
    pthread_mutex_unlock(&a->lock);
}

uint64_t vm_arena_alloc_at(vm_arena *a, uint64_t addr, uint64_t size, uint8_t kind, const char *what) {
    uint64_t off = addr - (uint64_t)(uintptr_t)a->base;
    if (!a->base || off >= a->reserve || !off || off % VM_GRANULE) return 0;
    return alloc_in(a, size, kind, what, off);
}

/* The whole pages of the free range [lo, hi) that share a page with the
 * newly freed [from, to): those that became free with it. */
static void new_pages(uint64_t lo, uint64_t hi, uint64_t from, uint64_t to, uint64_t *p0, uint64_t *p1) {
    uint64_t pg = page_size();
    uint64_t s = from & ~(pg - 1), e = (to + pg - 1) & ~(pg - 1);
    if (s < lo) s = lo;
    if (e > hi) e = hi;
    *p0 = (s + pg - 1) & ~(pg - 1);
    *p1 = e & ~(pg - 1);
}

/* Returns [from, to) to the free list, merged with free neighbours: its whole
 * pages go back to the host, what shares a page with live memory is zeroed,
 * and the shadow pages that cover only free space are given back too. */
static void give_back(vm_arena *a, uint64_t from, uint64_t to) {
    uint32_t j = free_after(a, from); /* the first range after it */
    bool left = j > 0 && a->freed[j - 1][0] + a->freed[j - 1][1] == from;
    bool right = j < a->nfree && a->freed[j][0] == to;
    uint64_t lo = left ? a->freed[j - 1][0] : from, hi = right ? a->freed[j][0] + a->freed[j][1] : to;
    if (left && right) {
        a->freed[j - 1][1] = hi - lo;
        a->nfree--;
        memmove(a->freed + j, a->freed + j + 1, (a->nfree - j) * sizeof *a->freed);
    } else if (left) {
        a->freed[j - 1][1] = hi - lo;
    } else if (right) {
        a->freed[j][0] = lo;
        a->freed[j][1] = hi - lo;
    } else { /* room was made by the caller */
        memmove(a->freed + j + 1, a->freed + j, (a->nfree - j) * sizeof *a->freed);
        a->freed[j][0] = lo;
        a->freed[j][1] = hi - lo;
        a->nfree++;
    }
    uint64_t p0, p1;
    new_pages(lo, hi, from, to, &p0, &p1);
    if (p0 < p1 && !madvise(a->base + p0, p1 - p0, MADV_DONTNEED)) {
        /* what is left is at most a page at either end */
        if (from < p0) memset(a->base + from, 0, p0 - from);
        if (p1 < to) memset(a->base + p1, 0, to - p1);
    } else {
        memset(a->base + from, 0, to - from);
    }
    /* the shadow of [from, to) is already VM_SH_NONE where it is not given back */
    new_pages(lo >> VM_GRANULE_SHIFT, hi >> VM_GRANULE_SHIFT, from >> VM_GRANULE_SHIFT, to >> VM_GRANULE_SHIFT, &p0,
              &p1);
    if (p0 < p1) madvise(a->shadow + p0, p1 - p0, MADV_DONTNEED);
}

/* Sanitize mode: the freed range waits (its whole pages already back with
 * the host, so a large buffer costs no memory while it waits); the oldest
 * waiting one is given back. */
static void quarantine(vm_arena *a, uint64_t off, uint64_t bytes) {
    uint64_t pg = page_size(), p0 = (off + pg - 1) & ~(pg - 1), p1 = (off + bytes) & ~(pg - 1);
    if (p0 < p1) madvise(a->base + p0, p1 - p0, MADV_DONTNEED);
    uint64_t *slot = a->quar[a->nquar++ % VM_QUARANTINE];
    if (slot[1]) give_back(a, slot[0], slot[0] + slot[1]);
    slot[0] = off;
    slot[1] = bytes;
}

void vm_arena_set_exact(vm_arena *a) {
    if (!a->quar) a->quar = calloc(VM_QUARANTINE, sizeof *a->quar);
    a->exact = a->quar != NULL;
}

int vm_arena_free_kind(vm_arena *a, uint64_t addr, unsigned kinds) {
    pthread_mutex_lock(&a->lock);
    uint32_t at = lower_bound(a, addr);
    if (at >= a->n || a->v[at].addr != addr || !(kinds & VM_KIND(a->v[at].kind)) ||
        !grow((void **)&a->freed, &a->capfree, a->nfree, sizeof *a->freed)) {
        pthread_mutex_unlock(&a->lock);
        return -1;
    }
    vm_alloc gone = a->v[at];
    uint64_t span = span_of(gone.size), off = addr - (uint64_t)(uintptr_t)a->base;
    shadow_fill(a, off, span, VM_SH_NONE); /* accesses fault from now on */
    if (a->init) vm_init_forget(a, addr, span);
    if (a->exact) quarantine(a, off, span + VM_GRANULE);
    else give_back(a, off, off + span + VM_GRANULE);
    if (gone.kind != VM_SH_PARAM) a->in_use -= span;
    /* the program's own allocations are remembered, for reports of use after free */
    if (vm_alloc_program(&gone)) { /* ngone is read without the lock (initcheck.c) */
        a->gone[a->ngone % VM_GONE] = gone;
        __atomic_store_n(&a->ngone, a->ngone + 1, __ATOMIC_RELEASE);
    }
    memmove(a->v + at, a->v + at + 1, (a->n - at - 1) * sizeof *a->v);
    a->n--;
    pthread_mutex_unlock(&a->lock);
    return 0;
}

static bool contains(const vm_alloc *r, uint64_t addr) { return addr - r->addr < (r->size ? r->size : 1); }

bool vm_arena_find(vm_arena *a, uint64_t addr, vm_alloc *out) {
    pthread_mutex_lock(&a->lock);
    uint32_t at = lower_bound(a, addr + 1); /* first with start > addr */
    bool in = at > 0 && contains(&a->v[at - 1], addr);
    if (in) *out = a->v[at - 1];
    pthread_mutex_unlock(&a->lock);
    return in;
}

uint64_t vm_arena_in_use(vm_arena *a) {
    pthread_mutex_lock(&a->lock);
    uint64_t n = a->in_use;
    pthread_mutex_unlock(&a->lock);
    return n;
}

/* An address this close to an allocation (or to 0) is taken to be meant for
 * it: an index or offset gone a little wrong. Allocations larger than this
 * reach as far as their own size; further away, naming the nearest
 * allocation would only mislead. */
#define NEAR ((uint64_t)1 << 16)

static const vm_alloc *real_neighbour(const vm_arena *a, uint32_t at, int step);

bool vm_arena_ok_exact(vm_arena *a, uint64_t addr, uint64_t n, bool write) {
    vm_alloc r;
    if (!vm_arena_find(a, addr, &r) || addr + n < addr || addr + n > r.addr + r.size) return false;
    return !write || (r.kind != VM_SH_CONST && r.kind != VM_SH_PARAM);
}

int vm_arena_locate(vm_arena *a, uint64_t addr, vm_alloc *out) {
    int where = 0;
    pthread_mutex_lock(&a->lock);
    uint32_t at = lower_bound(a, addr + 1); /* first with start > addr */
    if (at > 0 && a->v[at - 1].kind != VM_SH_PARAM && contains(&a->v[at - 1], addr)) {
        *out = a->v[at - 1];
        where = 1;
    }
    for (uint32_t k = 0; !where && k < VM_GONE && k < a->ngone; k++) { /* newest first */
        const vm_alloc *r = &a->gone[(a->ngone - 1 - k) % VM_GONE];
        if (contains(r, addr)) *out = *r, where = 2;
    }
    if (!where) {
        const vm_alloc *lo = at > 0 ? real_neighbour(a, at - 1, -1) : NULL, *hi = real_neighbour(a, at, 1);
        uint64_t after = lo ? addr - lo->addr - lo->size : UINT64_MAX, before = hi ? hi->addr - addr : UINT64_MAX;
        if (lo && after <= before) *out = *lo, where = 3;
        else if (hi) *out = *hi, where = 3;
    }
    pthread_mutex_unlock(&a->lock);
    return where;
}

void vm_arena_each_alloc(vm_arena *a, unsigned kinds, void (*fn)(void *, const vm_alloc *), void *arg) {
    pthread_mutex_lock(&a->lock);
    for (uint32_t k = 0; k < a->n; k++)
        if (vm_alloc_program(&a->v[k]) && (kinds & VM_KIND(a->v[k].kind))) fn(arg, &a->v[k]);
    pthread_mutex_unlock(&a->lock);
}

void vm_arena_each_program_alloc(vm_arena *a, void (*fn)(void *, const vm_alloc *), void *arg) {
    vm_arena_each_alloc(a, VM_KIND(VM_SH_GLOBAL) | VM_KIND(VM_SH_MANAGED), fn, arg);
}

static void name_of(const vm_alloc *r, char *buf, size_t len) {
    if (r->what)
        snprintf(buf, len, "'%s' of %llu bytes at 0x%llx", r->what, (unsigned long long)r->size,
                 (unsigned long long)r->addr);
    else
        snprintf(buf, len, "the allocation of %llu bytes at 0x%llx", (unsigned long long)r->size,
                 (unsigned long long)r->addr);
}

/* Launch parameters are ptxi's own: never "nearest" to a stray address. */
static const vm_alloc *real_neighbour(const vm_arena *a, uint32_t at, int step) {
    for (; at < a->n; at += (uint32_t)step)
        if (a->v[at].kind != VM_SH_PARAM) return &a->v[at];
    return NULL;
}

void vm_describe_addr(vm_arena *a, uint64_t addr, char *buf, size_t len) {
    char name[200];
    if (!addr) {
        snprintf(buf, len, " (null pointer)");
        return;
    }
    if (addr < NEAR) {
        snprintf(buf, len, " (not in any allocation: %llu bytes past a null pointer)", (unsigned long long)addr);
        return;
    }
    pthread_mutex_lock(&a->lock);
    uint32_t at = lower_bound(a, addr + 1); /* first with start > addr */
    const vm_alloc *lo = at > 0 ? real_neighbour(a, at - 1, -1) : NULL, *hi = real_neighbour(a, at, 1), *gone = NULL;
    for (uint32_t k = 0; k < VM_GONE && k < a->ngone && !gone; k++) { /* newest first */
        const vm_alloc *r = &a->gone[(a->ngone - 1 - k) % VM_GONE];
        if (contains(r, addr)) gone = r;
    }
    uint64_t after = lo ? addr - lo->addr - (lo->size ? lo->size : 1) : 0, before = hi ? hi->addr - addr : 0;
    bool lo_near = lo && after < (lo->size > NEAR ? lo->size : NEAR);
    bool hi_near = hi && before < (hi->size > NEAR ? hi->size : NEAR);
    if (at > 0 && contains(&a->v[at - 1], addr)) {
        name_of(&a->v[at - 1], name, sizeof name);
        snprintf(buf, len, " (inside %s)", name);
    } else if (gone) {
        name_of(gone, name, sizeof name);
        snprintf(buf, len, " (inside %s, which has been freed)", name);
    } else if (lo_near && !(hi_near && before < after)) {
        name_of(lo, name, sizeof name);
        snprintf(buf, len, " (%llu bytes after the end of %s)", (unsigned long long)after, name);
    } else if (hi_near) {
        name_of(hi, name, sizeof name);
        snprintf(buf, len, " (%llu bytes before %s)", (unsigned long long)before, name);
    } else {
        snprintf(buf, len, " (not in any allocation)");
    }
    pthread_mutex_unlock(&a->lock);
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
        __atomic_store_n(&a->next, a->next + 1, __ATOMIC_RELAXED);
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
            __atomic_store_n(&a->next, a->next - 1, __ATOMIC_RELAXED);
            rc = 0;
            break;
        }
    pthread_mutex_unlock(&a->lock);
    return rc;
}

bool vm_arena_external(vm_arena *a, uint64_t addr, uint64_t n) {
    /* the common case, nothing registered, without the lock */
    if (!__atomic_load_n(&a->next, __ATOMIC_RELAXED)) return false;
    bool in = false;
    pthread_mutex_lock(&a->lock);
    for (uint32_t i = 0; i < a->next && !in; i++) in = addr >= a->ext[i][0] && addr + n <= a->ext[i][0] + a->ext[i][1];
    pthread_mutex_unlock(&a->lock);
    return in;
}
