/* jit.h — straight-line runs of a function's records compiled to x86-64
 * AVX-512 machine code (jit.c), so that a run costs one dispatch instead of
 * one per record. The interpreter stays the reference: a compiled run is
 * entered only by a converged warp, memory records inside it call the same
 * checked paths as their handlers, and anything else is left to exec.c. */
#ifndef PTXI_JIT_H
#define PTXI_JIT_H

#include "warp.h"

enum {
    VM_JIT_FAULT = 1,
    VM_JIT_ADJUST = 2,
    VM_JIT_SPLIT = 4,
    VM_JIT_ROUND = 8,
    VM_JIT_CHAIN = 16,
    VM_JIT_NOCHAIN = 32,
    VM_JIT_WAITS = 64, /* the warp arrived at a barrier and waits, counted (jit.c run_bar) */
    VM_JIT_DONE = 128, /* the warp left the kernel at a barrier instead, counted (jit_bar.h run_bar_exit) */
    /* a fault, a split group or lanes waiting elsewhere: the run may not go
     * on into another warp (jit_next.h hand_over, jit_bar.h) */
    VM_JIT_HELD = VM_JIT_FAULT | VM_JIT_SPLIT | VM_JIT_NOCHAIN
};
enum { VM_JIT_REGION = 64 }; /* records of a forward region after its first branch (jit.c region_*) */

/* What compiled code reads besides the frame (built by the JIT handler in exec.c). */
typedef struct vm_jit_ctx {
    vm_warp *w;
    vm_frame *fr;
    vm_cta *cta;
    const vm_launch_cfg *cfg;
    uint64_t params; /* device (= host) address of the launch's parameter buffer */
    int fault;       /* VM_JIT_FAULT: a record in the run recorded a fault; VM_JIT_ADJUST, VM_JIT_SPLIT below */
    /* Chained runs (jit.c chain): a run of the whole warp that leaves by a
     * forward branch the warp takes, or by its end, for the first record of
     * another run goes on in that run's code unless exec.c set
     * VM_JIT_NOCHAIN (lanes wait at a merge point). It then sets
     * VM_JIT_CHAIN | VM_JIT_ADJUST, chead := that record, and adds the
     * records the branch skipped to wadj, tadj; what it returns is then that
     * of the last run chained into (chead->target's). */
    const vm_insn *chead;
    /* Where the warp's count starts (exec.c's seg) and the run it entered: a
     * run that ends the kernel may hand over to the CTA's next warp (jit.c
     * hand_over), which sets w, fr, seg and head to that warp's. */
    const vm_insn *seg, *head;
    const void *go; /* the next warp's run code, after a barrier hands over (jit.c run_bar) */
    /* The branch record through which the whole warp left the run (its
     * target is what the run returned), else NULL. */
    const vm_insn *taken;
    /* Rounds a loop's run may still go from its last record back to its
     * first without leaving (jit.c loop_back); each takes one away, takes
     * the run's records off wadj, tadj and sets VM_JIT_ROUND | VM_JIT_ADJUST
     * in `fault`. */
    uint32_t loops;
    /* If-converted branches (jit.c ifconv): the body of a forward branch that
     * splits the warp runs in the run for the lanes that do not jump. `off`:
     * lanes a called record leaves alone (0 outside bodies). With
     * VM_JIT_ADJUST, wadj and tadj are the warp and thread instructions by
     * which the handler's count over the run's span exceeds the real one
     * (skipped bodies, bodies run by fewer lanes; less loops' rounds). With
     * VM_JIT_SPLIT (a fault in a body), `mask` is the body's lanes, and the
     * lanes that jumped wait at their targets as the interpreter leaves them. Per nesting level: the
     * branch, the lanes that jumped, the enclosing group (not initialized). */
    uint32_t off;
    uint32_t mask;
    int64_t wadj, tadj;
    const vm_insn *br[5];
    uint32_t tk[5], ms[5];
    /* Forward regions (jit.c region_*) split by a branch: the group there,
     * and the lanes waiting at each record of the region, numbered from the
     * one after its first branch (written before they are read). */
    uint32_t grp;
    uint32_t pend[VM_JIT_REGION];
    /* Whether the lanes of an address register form one run of words, as
     * the access that tested them found; then (8-15) whether the arena
     * accepted the span of the loads a few bytes apart that one checked for
     * all (jit_addr.h; written before read). */
    uint8_t run4[16];
} vm_jit_ctx;

/* A compiled run: returns the first record it did not complete: `end`, the
 * record whose fault it recorded (c->fault set), a record it leaves to its
 * handler, or a branch target (c->taken set). */
typedef const vm_insn *(*vm_jit_fn)(uint8_t *fb, vm_jit_ctx *c);

/* Hung on the run's first record (its `target`, which only branches use
 * otherwise); the record's handler becomes the JIT handler. */
typedef struct vm_jit_region {
    vm_jit_fn fn;
    const vm_insn *end; /* one past the run's last record */
    /* The same run for a group that is not the whole warp: every record
     * under the group's lanes, c->mask (c->off its complement). */
    vm_jit_fn mfn;
    const void *body; /* fn's code after its prologue, where a hand-over enters (jit.c hand_over) */
} vm_jit_region;

/* Compiles the runs of every function of prog (after lowering; nothing when
 * the host lacks AVX-512, PTXI_JIT=0, or a debugger or sanitizer is attached). */
void vm_jit_program(vm_program *prog);
void vm_jit_free(vm_program *prog);

#endif
