/* initcheck.h — sanitize mode's initcheck (`ptxi sanitize --tool initcheck`):
 * reads of device memory that no kernel, memset or copy has written, byte by
 * byte. The arena keeps one byte per byte of its reserve (vm_arena.init, 1
 * once written); the program's device allocations (cudaMalloc, device-heap
 * blocks) have no fast-path shadow, so every kernel access to them comes to
 * vm_init_access, and the runtime's copies and sets call vm_init_wrote.
 * Managed and host memory count as written (the host writes it unseen). */
#ifndef PTXI_VM_INITCHECK_H
#define PTXI_VM_INITCHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "mem.h"

struct vm_warp;
struct vm_insn;

/* Turns the byte map on for an arena, before its first allocation: 0, or -1
 * when the address space for it cannot be reserved. */
int vm_init_enable(vm_arena *a);
/* [addr, addr+n) was written (by the host: a copy or a set). No-op where the
 * map is off or the range is not in the arena. */
void vm_init_wrote(vm_arena *a, uint64_t addr, uint64_t n);
/* [addr, addr+n) is unwritten again (freed): called by the arena, its lock held. */
void vm_init_forget(vm_arena *a, uint64_t addr, uint64_t n);
/* Bytes of [addr, addr+n) never written: the offset of the first, or n when all were. */
uint64_t vm_init_first_unwritten(const vm_arena *a, uint64_t addr, uint64_t n);

/* initcheck's records of a host API call that reads [addr, addr+n) of device
 * memory (a copy's source) with unwritten bytes. compute-sanitizer names every
 * copy cudaMemcpy there (cudaMemcpy2D's rows, cuMemcpyDtoH, cudaMemcpyToSymbol's
 * source: tests/sanitize/expected/copies.*). */
struct vm_san;
void vm_init_host_read(vm_arena *a, struct vm_san *s, uint64_t addr, uint64_t n);

/* The allocation holding all of [addr, addr+n), as vm_arena_find, with a
 * per-thread memory of the last one found; false when there is none. */
bool vm_init_find(vm_arena *a, uint64_t addr, uint64_t n, vm_alloc *r);

/* The slow path of a kernel's access to arena memory in initcheck mode: n
 * bytes at a of the allocation r. A read of unwritten bytes of a program
 * allocation is recorded; a write marks its bytes written. Returns the memory. */
uint8_t *vm_init_access(struct vm_warp *w, const struct vm_insn *i, int lane, uint64_t a, unsigned n, bool wr,
                        const vm_alloc *r);

#endif
