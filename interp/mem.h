/* mem.h — device memory as the interpreter sees it: one reserved arena for
 * global/const/param/heap memory (device pointers are host addresses inside it),
 * a shadow map that makes every access checkable, and the generic-address
 * windows of the per-CTA shared and per-thread local spaces. */
#ifndef PTXI_VM_MEM_H
#define PTXI_VM_MEM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Shadow granule: allocations are aligned and padded to this, like cudaMalloc's 256 bytes. */
#define VM_GRANULE_SHIFT 8
#define VM_GRANULE ((uint64_t)1 << VM_GRANULE_SHIFT)

/* What a granule of the arena holds. */
enum { VM_SH_NONE = 0, VM_SH_GLOBAL = 1, VM_SH_CONST = 2, VM_SH_PARAM = 3, VM_SH_HEAP = 4, VM_SH_MANAGED = 5 };

/* Generic windows of the shared and local spaces: a generic address
 * VM_SHARED_WIN + a is shared address a of the running CTA; VM_LOCAL_WIN + a is
 * local address a of the running thread. Both windows are reserved (PROT_NONE)
 * in the host address space so nothing else can live there. */
/* Read by the debugger inside libcudart.so.13 from libptxi.so, which exports
 * ptxi_ names only (ptxi.map): the symbols carry the prefix. */
#define vm_shared_win ptxi_vm_shared_win
#define vm_local_win ptxi_vm_local_win
extern uint64_t vm_shared_win, vm_local_win;
#define VM_WIN_SIZE ((uint64_t)1 << 32)

typedef struct vm_alloc {
    uint64_t addr, size; /* size as requested */
    uint8_t kind;        /* VM_SH_* */
    const char *what;    /* symbol name for module variables, else NULL */
} vm_alloc;

#define VM_GONE 64 /* freed allocations remembered for fault reports */

/* Address space is handed out next-fit: each search starts where the last
 * allocation ended, so a freed range is reused only once the whole reserve
 * has been gone round (a dangling pointer seldom lands in a new allocation),
 * and freed ranges merge with their free neighbours. Every allocation is
 * followed by one unused granule, so an overrun by one faults. Free address
 * space always reads as zero: it was never touched, or its whole pages were
 * given back to the host (MADV_DONTNEED) and the rest zeroed when freed. */
typedef struct vm_arena {
    uint8_t *base;
    uint64_t reserve;     /* bytes of address space; fixed while the arena lives */
    uint64_t limit;       /* most bytes live at once: the device's memory; fixed too */
    uint8_t *shadow;      /* one byte per granule of the reserve, read and written atomically */
    pthread_mutex_t lock; /* guards everything below */
    uint64_t in_use;      /* bytes live, in whole granules; launch parameters not counted */
    uint64_t cursor;      /* offset where the next search for space starts */
    uint32_t n, cap;      /* allocations sorted by address */
    vm_alloc *v;
    uint32_t nfree, capfree; /* free address space, sorted and merged: {offset, bytes} */
    uint64_t (*freed)[2];
    uint32_t ngone; /* freed program allocations, a ring (gone[ngone % VM_GONE] is the oldest) */
    vm_alloc gone[VM_GONE];
    bool exact;     /* sanitize mode: byte-exact bounds and a quarantine (vm_arena_set_exact) */
    uint32_t nquar; /* freed ranges held back from reuse, a ring: {offset, bytes} */
    uint64_t (*quar)[2];
    uint32_t next, capext; /* host memory registered for device access (outside the arena) */
    uint64_t (*ext)[2];    /* {address, bytes} */
    uint8_t *init;         /* initcheck: one byte per byte of the reserve, 1 once written (initcheck.h) */
} vm_arena;

/* Reserves `reserve` bytes of address space, of which at most `limit` may be
 * allocated at once. 0, or -1 when the address space cannot be reserved. */
int vm_arena_init(vm_arena *a, uint64_t reserve, uint64_t limit);
/* The same, at `hint` when that address space is free (a reset that keeps
 * some addresses: runtime/context.c). */
int vm_arena_init_at(vm_arena *a, uint64_t reserve, uint64_t limit, void *hint);
void vm_arena_destroy(vm_arena *a);
/* Zeroed memory; returns the device address, or 0 when the limit or the
 * address space would be exceeded. Safe from any thread. */
uint64_t vm_arena_alloc(vm_arena *a, uint64_t size, uint8_t kind, const char *what);
/* The same at the device address addr (granule-aligned); 0 when any of the
 * range, or the granule after it, is taken. */
uint64_t vm_arena_alloc_at(vm_arena *a, uint64_t addr, uint64_t size, uint8_t kind, const char *what);
/* The allocation at addr is now named `what` (which lives as long as it). */
void vm_arena_set_what(vm_arena *a, uint64_t addr, const char *what);
/* Frees the allocation starting at addr if its kind is in `kinds` (a mask of
 * VM_KIND bits): 0, or -1 when there is no such allocation. */
#define VM_KIND(k) (1u << (k))
#define VM_ANY_KIND 0xffu
int vm_arena_free_kind(vm_arena *a, uint64_t addr, unsigned kinds);
static inline int vm_arena_free(vm_arena *a, uint64_t addr) { return vm_arena_free_kind(a, addr, VM_ANY_KIND); }
/* Copies out the live allocation containing addr; false when there is none. */
bool vm_arena_find(vm_arena *a, uint64_t addr, vm_alloc *out);
/* Bytes live (as counted against the limit). */
uint64_t vm_arena_in_use(vm_arena *a);
/* Writes " (...)" for a fault report: the allocation addr is in, the freed
 * one it was in, the real allocation it lies just outside of, or that it is
 * in none. */
void vm_describe_addr(vm_arena *a, uint64_t addr, char *buf, size_t len);

/* Sanitize mode, set before the first allocation: the last granule of a
 * program allocation whose size is not a whole number of granules reads as
 * VM_SH_NONE, so every access to it takes the slow path, where
 * vm_arena_ok_exact decides byte by byte; freed ranges wait in a quarantine
 * of VM_QUARANTINE frees before they can be reused. */
#define VM_QUARANTINE 1024
void vm_arena_set_exact(vm_arena *a);
bool vm_arena_ok_exact(vm_arena *a, uint64_t addr, uint64_t n, bool write);
/* vm_arena_ok, or in sanitize mode byte-exact, for accesses outside the
 * handlers' paths (texels, printf arguments, device-side copies). */
static inline bool vm_arena_ok_any(vm_arena *a, uint64_t addr, uint64_t n, bool write);
/* Where addr lies, for a sanitizer report: 1 inside *out (live), 2 inside
 * *out which has been freed, 3 outside, *out the nearest live program
 * allocation, 0 none of these. Launch parameters are never named. */
int vm_arena_locate(vm_arena *a, uint64_t addr, vm_alloc *out);
/* Calls fn for every live allocation of the program itself (not module variables). */
void vm_arena_each_program_alloc(vm_arena *a, void (*fn)(void *, const vm_alloc *), void *arg);
/* The same for the program's allocations of the kinds in `kinds` (VM_KIND bits). */
void vm_arena_each_alloc(vm_arena *a, unsigned kinds, void (*fn)(void *, const vm_alloc *), void *arg);
/* Is this one of the program's own allocations (cudaMalloc, managed memory,
 * a device-heap block in sanitize mode), not ptxi's or a module variable? */
static inline bool vm_alloc_program(const vm_alloc *r) {
    return !r->what && (r->kind == VM_SH_GLOBAL || r->kind == VM_SH_MANAGED || r->kind == VM_SH_HEAP);
}

/* Host memory the program registered (cudaHostRegister): kernels may access it
 * as global memory. 0 / -1 (overlap or out of memory); unregister by base. */
int vm_arena_register(vm_arena *a, uint64_t addr, uint64_t bytes);
int vm_arena_unregister(vm_arena *a, uint64_t addr);
/* Is [addr, addr+n) inside registered host memory? (the slow path of a check) */
bool vm_arena_external(vm_arena *a, uint64_t addr, uint64_t n);

/* Unified addressing: every arena of the process is memory of the one device,
 * which each context sees. vm_arena_owner: self if addr lies in its reserve,
 * else the other arena that holds addr, or NULL; call it between
 * vm_arenas_lock and vm_arenas_unlock, which keep the arena found alive.
 * vm_arena_peer_ok: vm_arena_ok_any in the arena other than self that holds
 * [addr, addr+n) (the slow path of a kernel's access check). */
void vm_arenas_lock(void);
void vm_arenas_unlock(void);
vm_arena *vm_arena_owner(vm_arena *self, uint64_t addr);
bool vm_arena_peer_ok(vm_arena *self, uint64_t addr, uint64_t n, bool write);

/* Shadow kind of the granule holding addr, VM_SH_NONE outside the arena.
 * The reserve never changes and the shadow is read and written with relaxed
 * atomics (plain byte loads on x86), so kernels may check addresses while
 * other host threads allocate and free. */
/* Writers store shadow bytes atomically. Readers use a plain byte load: a
 * relaxed atomic load is the same move on x86, but GCC optimizes the checking
 * loops around it less (hashfma 11% slower, measured), so only the
 * ThreadSanitizer build, which checks the protocol, reads atomically. */
#ifdef __SANITIZE_THREAD__
#define VM_SHADOW_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#else
#define VM_SHADOW_LOAD(p) (*(p))
#endif
static inline uint8_t vm_shadow(const vm_arena *a, uint64_t addr) {
    uint64_t off = addr - (uint64_t)(uintptr_t)a->base;
    return off < a->reserve ? VM_SHADOW_LOAD(&a->shadow[off >> VM_GRANULE_SHIFT]) : VM_SH_NONE;
}

/* Is [addr, addr+n) readable (write=false) or writable? One test per granule
 * touched (two for a run of up to 256 bytes); n = 0 tests addr's granule. */
static inline bool vm_arena_ok(const vm_arena *a, uint64_t addr, uint64_t n, bool write) {
    uint64_t last = n ? addr + n - 1 : addr;
    if (last < addr) return false;
    for (uint64_t at = addr;; at += VM_GRANULE) {
        uint64_t p = at < last ? at : last;
        uint8_t s = vm_shadow(a, p);
        if (!s || (write && (s == VM_SH_CONST || s == VM_SH_PARAM))) return false;
        if (p == last) return true;
    }
}

static inline bool vm_arena_ok_any(vm_arena *a, uint64_t addr, uint64_t n, bool write) {
    return vm_arena_ok(a, addr, n, write) || (a->exact && vm_arena_ok_exact(a, addr, n, write));
}

#endif
