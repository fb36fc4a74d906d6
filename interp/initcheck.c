/* initcheck.c — reads of device memory nothing wrote (initcheck.h). */
#include "initcheck.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sanitize.h"

int vm_init_enable(vm_arena *a) {
    if (a->init) return 0;
    void *m = mmap(NULL, a->reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return -1;
    a->init = m;
    return 0;
}

/* The map's bytes for [addr, addr+n), clipped to the arena; NULL when none. */
static uint8_t *span(const vm_arena *a, uint64_t addr, uint64_t *n) {
    uint64_t off = addr - (uint64_t)(uintptr_t)a->base;
    if (!a->init || off >= a->reserve) return NULL;
    if (*n > a->reserve - off) *n = a->reserve - off;
    return a->init + off;
}

/* Kernels mark bytes while other threads check theirs: relaxed byte stores. */
void vm_init_wrote(vm_arena *a, uint64_t addr, uint64_t n) {
    uint8_t *m = span(a, addr, &n);
    for (uint64_t k = 0; m && k < n; k++) __atomic_store_n(&m[k], 1, __ATOMIC_RELAXED);
}

void vm_init_forget(vm_arena *a, uint64_t addr, uint64_t n) {
    uint8_t *m = span(a, addr, &n);
    if (!m) return;
    uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE), lo = (uint64_t)(uintptr_t)m, hi = lo + n;
    uint64_t p0 = (lo + pg - 1) & ~(pg - 1), p1 = hi & ~(pg - 1);
    if (p0 < p1 && !madvise((void *)(uintptr_t)p0, p1 - p0, MADV_DONTNEED)) {
        for (uint64_t k = lo; k < p0; k++) __atomic_store_n((uint8_t *)(uintptr_t)k, 0, __ATOMIC_RELAXED);
        for (uint64_t k = p1; k < hi; k++) __atomic_store_n((uint8_t *)(uintptr_t)k, 0, __ATOMIC_RELAXED);
    } else {
        for (uint64_t k = 0; k < n; k++) __atomic_store_n(&m[k], 0, __ATOMIC_RELAXED);
    }
}

uint64_t vm_init_first_unwritten(const vm_arena *a, uint64_t addr, uint64_t n) {
    uint64_t len = n;
    const uint8_t *m = span(a, addr, &len);
    for (uint64_t k = 0; m && k < len; k++)
        if (!__atomic_load_n(&m[k], __ATOMIC_RELAXED)) return k;
    return n;
}

/* Device memory the program allocated: what initcheck follows. */
static bool tracked(const vm_alloc *r) { return !r->what && (r->kind == VM_SH_GLOBAL || r->kind == VM_SH_HEAP); }

/* The allocation each host thread found last, while no program allocation
 * has been freed since (the arena's count of frees): most accesses of a
 * kernel fall in the allocation the one before fell in, and need no lock. */
static _Thread_local struct {
    const vm_arena *arena;
    const uint8_t *base; /* a context reset makes the arena anew */
    uint32_t frees;
    vm_alloc r;
} last;

bool vm_init_find(vm_arena *a, uint64_t addr, uint64_t n, vm_alloc *r) {
    uint32_t frees = __atomic_load_n(&a->ngone, __ATOMIC_ACQUIRE);
    if (last.arena == a && last.base == a->base && last.frees == frees && addr - last.r.addr < last.r.size &&
        n <= last.r.addr + last.r.size - addr) {
        *r = last.r;
        return true;
    }
    if (!vm_arena_find(a, addr, r) || n > r->addr + r->size - addr) return false;
    if (tracked(r)) last.arena = a, last.base = a->base, last.frees = frees, last.r = *r;
    return true;
}

uint8_t *vm_init_access(vm_warp *w, const vm_insn *i, int lane, uint64_t a, unsigned n, bool wr, const vm_alloc *r) {
    vm_runtime *rt = w->cta->grid->cfg->kernel->prog->rt;
    if (!tracked(r)) return (uint8_t *)(uintptr_t)a;
    /* an atomic reads before it writes: the H100 reports it as a read */
    if ((!wr || i->op == VM_ATOM) && vm_init_first_unwritten(rt->arena, a, n) != n) {
        char what[64];
        snprintf(what, sizeof what, "Uninitialized __global__ memory read of size %u bytes", n);
        vm_san_thread_record(w, i, lane, what, a);
    }
    if (wr) vm_init_wrote(rt->arena, a, n);
    return (uint8_t *)(uintptr_t)a;
}

/* The GPU checks a copy's source in 32-byte pieces: one record per piece
 * with an unwritten byte. */
#define HOST_PIECE 32

void vm_init_host_read(vm_arena *a, vm_san *s, uint64_t addr, uint64_t n) {
    vm_alloc r;
    if (!a->init || !s || !n || !vm_arena_find(a, addr, &r) || !tracked(&r)) return;
    char nb[32];
    vm_san_num(n, nb);
    for (uint64_t p = addr & ~(uint64_t)(HOST_PIECE - 1); p < addr + n; p += HOST_PIECE) {
        uint64_t lo = p > addr ? p : addr, hi = p + HOST_PIECE < addr + n ? p + HOST_PIECE : addr + n;
        if (vm_init_first_unwritten(a, lo, hi - lo) == hi - lo) continue;
        char text[512];
        snprintf(text, sizeof text,
                 "Host API memory access error at host access to 0x%llx of size %s bytes\n"
                 "    Uninitialized access to 0x%llx on access by cudaMemcpy source\n"
                 "    Saved host backtrace up to driver entry point at error",
                 (unsigned long long)addr, nb, (unsigned long long)lo);
        vm_san_record(s, text);
    }
}
