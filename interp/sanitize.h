/* sanitize.h — sanitize mode (`ptxi sanitize`, `ptxi run --sanitize`): memcheck
 * records in compute-sanitizer's format. A normal run never gets here: the
 * checks sit on the slow path of a bad access (the shadow map and the fast
 * paths are unchanged), which in sanitize mode reports the access and lets
 * the thread go on instead of stopping the grid. */
#ifndef PTXI_VM_SANITIZE_H
#define PTXI_VM_SANITIZE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "warp.h"

enum { VM_SAN_MEMCHECK = 1, VM_SAN_RACECHECK, VM_SAN_SYNCCHECK, VM_SAN_INITCHECK };
enum { VM_SAN_OOB, VM_SAN_MISALIGNED };

typedef struct vm_san {
    int tool;                    /* VM_SAN_* */
    int fd;                      /* where the records go */
    uint64_t print_limit;        /* records printed at most; 0: all */
    bool leak_check;             /* --leak-check full */
    _Atomic uint64_t errors;     /* records found, printed or not */
    _Atomic uint64_t hazards[2]; /* racecheck: error and warning records (not in errors) */
} vm_san;

/* VM_SAN_* of a --tool name; 0 for none ptxi has. */
int vm_san_tool(const char *name);
/* Sanitize settings from the environment (PTXI_SANITIZE=memcheck|racecheck|synccheck|initcheck,
 * PTXI_SANITIZE_PRINT_LIMIT, PTXI_SANITIZE_LEAK_CHECK=full); NULL when
 * PTXI_SANITIZE is unset or names no tool. The records go to fd. */
vm_san *vm_san_from_env(int fd);
/* Prints one record: each line of text (lines joined with \n, no prefix)
 * behind "========= ", then the closing "========= " line; counts an error. */
void vm_san_record(vm_san *s, const char *text);
/* "========= TEXT" lines that are no error (summaries). */
void vm_san_print(vm_san *s, const char *text);
/* n with thousands separators, as compute-sanitizer writes sizes. */
const char *vm_san_num(uint64_t n, char buf[32]);

/* The slow path of an access xlate could not pass: in space sp (resolved;
 * a is the offset in the window for shared and local) for n bytes. Returns
 * the memory to use: the real bytes where the access is in bounds after all
 * (the last, partial granule of an allocation), else after a record a
 * thread-private scratch (reads see zeros); NULL when n is too large. */
uint8_t *vm_san_access(vm_warp *w, const vm_insn *i, int lane, int sp, uint64_t a, unsigned n, bool wr, int why);

/* A device-side free of p that is no live device-heap block (a block freed
 * before when `twice`): the record. */
void vm_san_bad_free(vm_warp *w, const vm_insn *i, int lane, uint64_t p, bool twice);

/* memcheck's record of what stops `lanes` of w at i ("Stack overflow",
 * "Trace/breakpoint trap"), one for each lane. */
void vm_san_stop(vm_warp *w, const vm_insn *i, uint32_t lanes, const char *what);
/* A record of lane `lane` of w at i: WHAT, at, by thread, Address ADDR. */
void vm_san_thread_record(vm_warp *w, const vm_insn *i, int lane, const char *what, uint64_t addr);
/* "by thread (x,y,z) in block (x,y,z)" of lane `lane` of w. */
void vm_san_who(const vm_warp *w, int lane, char *out, size_t cap);
/* "KERNEL+0xOFFSET in FILE:LINE" for instruction i of f, as records name it.
 * Code inlined from a function (-lineinfo) is named as that function, and
 * *frame (when not NULL) gets one "\n        Device Frame: ..." line for each
 * caller it is inlined in, innermost first, the kernel last (else ""): the
 * record's last lines before "Saved host backtrace", as compute-sanitizer
 * prints them (tests/sanitize/expected/inline.*, mbar.*). */
void vm_san_at(const vm_func *f, const vm_insn *i, char *out, size_t cap, char *frame, size_t fcap);
#define VM_SAN_FRAMES 2048 /* room for a record's Device Frame lines */
/* Prints one racecheck record (an error, or a warning) and counts it in hazards. */
void vm_san_hazard(vm_san *s, const char *text, bool warning);

/* racecheck and synccheck: where g->san and cta->san are set (sanitize mode
 * with one of them), the scheduler and the handlers call these. */
void vm_san_launch_begin(vm_grid *g);
void vm_san_launch_end(vm_grid *g); /* prints what the launch found */
void vm_san_cta_begin(vm_cta *cta);
void vm_san_cta_free(vm_cta *cta);
/* Lanes m of w arrive at barrier id (bar.sync, barrier.sync, bar.arrive,
 * bar.red) with thread count `count` (0: all); returns the count to wait for. */
uint32_t vm_san_bar(vm_warp *w, const vm_insn *i, uint32_t m, unsigned id, uint32_t count);
/* Barrier id of the CTA completed (VM_SAN_MBARRIER: a phase of an mbarrier). */
void vm_san_bar_done(vm_cta *cta, unsigned id);
#define VM_SAN_MBARRIER 16
/* mbarrier events for synccheck (vm_sync_mbar): lane `lane` of w arrives on
 * or waits on the mbarrier at shared offset sa, in phase `phase`. */
enum { VM_SYNC_MB_ARRIVE, VM_SYNC_MB_CP_ARRIVE, VM_SYNC_MB_WAIT };
void vm_san_mbar(vm_warp *w, const vm_insn *i, int lane, uint64_t sa, unsigned phase, int ev);
/* H100 shared addresses, as records show them, start after the 1 KiB the
 * system reserves in each CTA. */
#define VM_SAN_SHARED_RESERVED 0x400
/* Lanes m of w execute bar.warp.sync with member mask `members`. */
void vm_san_warp_sync(vm_warp *w, const vm_insn *i, uint32_t m, uint32_t members);
/* racecheck: a shared access (offset a in the window, or a shared::cluster
 * address) that missed the handlers' paths; the memory, or NULL when out of bounds. */
uint8_t *vm_san_shared(vm_warp *w, const vm_insn *i, int lane, uint64_t a, unsigned n, bool wr);

#endif
