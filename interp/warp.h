/* warp.h — execution state: a warp's whole state lives here (never on the C
 * stack), so it can be suspended before any instruction — at a barrier, a
 * collective waiting for lanes, nanosleep or the end of a time slice. */
#ifndef PTXI_WARP_H
#define PTXI_WARP_H

#include <stdlib.h>

#include "vm.h"

/* A call frame. The entry function is frame 0. Lanes not in `lanes` wait in
 * an outer frame at their lpc until every lane of this frame has returned. */
typedef struct vm_frame {
    vm_func *fn;
    uint8_t *fb;         /* register frame: registers, constants, per-lane params */
    const vm_insn *ret;  /* where returning lanes continue in the caller */
    const vm_insn *call; /* the call instruction (return values to copy) */
    uint32_t lanes;      /* lanes that entered the frame */
    uint32_t done;       /* lanes that have returned */
    uint32_t local_base; /* local address of this frame's .local variables */
    uint64_t kparams;    /* device address of the launch's parameter buffer */
} vm_frame;

typedef enum vm_wstate { VM_W_READY, VM_W_BLOCKED, VM_W_DONE, VM_W_SLEEP } vm_wstate;

struct vm_cta;

typedef struct vm_warp {
    /* Read or written at every start, run and end of the warp: the first two
     * lines, so that a CTA's start-up touches few lines per warp. */
    /* the lane group running now */
    const vm_insn *pc;
    uint32_t mask;
    uint32_t exited;         /* lanes that executed exit (or never existed) */
    uint32_t blocked;        /* lanes waiting at a barrier or collective */
    uint32_t collwait;       /* of those, lanes waiting in a warp collective for other lanes */
    const vm_insn *lpc_stop; /* smallest lpc of a waiting lane above pc: the group merges there */
    vm_frame *frames;
    uint32_t depth; /* frames in use */
    uint32_t cap;
    uint32_t present;     /* lanes that exist (a partial last warp has fewer) */
    uint32_t avoid;       /* lanes that just yielded: others go first */
    bool forced;          /* run the collective at pc with the lanes that are there */
    uint8_t state;        /* vm_wstate */
    uint8_t bar_id;       /* barrier waited on when blocked at a barrier */
    bool bar_one;         /* the blocked lanes all came in one bar.sync arrival (at one PC) */
    uint32_t bar_count;   /* thread count of that barrier instruction (0 = all) */
    uint64_t clock;       /* %clock64: advances with executed instructions */
    uint64_t sleep_until; /* ns, for nanosleep */
    const struct vm_insn *san_bad; /* memcheck: the instruction of the warp's first bad access */
    struct vm_cta *cta;
    uint8_t *local; /* per-lane local memory: lane l at local + l * local_stride */
    uint32_t local_stride;
    uint32_t id; /* warp index in the CTA */
    /* frames' storage while the warp has made no call (cap 1): the entry
     * frame next to what every start and barrier touches */
    _Alignas(64) vm_frame frame0;
    _Alignas(64) uint32_t barwait[16]; /* of the blocked lanes, those waiting at each named barrier */
    /* the lane arrays, each on whole lines (the compiled %tid read loads 64 bytes at a time) */
    uint32_t tid[3][VM_LANES];
    const vm_insn *lpc[VM_LANES]; /* where each lane not in the group continues */
    uint32_t lsp[VM_LANES];       /* per-lane local stack pointer (alloca) */
} vm_warp;

typedef struct vm_barrier {
    uint32_t arrived;  /* threads arrived in this phase */
    uint32_t expected; /* threads the barrier waits for (0 = unset) */
    uint32_t red;      /* bar.red accumulator */
    uint32_t live;     /* live threads, counted at this phase's first check (0 = not yet); vm_recheck_barriers recounts */
    uint8_t redop;
} vm_barrier;

/* Shared by every CTA of one launch. */
typedef struct vm_grid {
    const vm_launch_cfg *cfg;
    uint64_t ncta;
    uint64_t guide;          /* a worker takes 1/guide of the CTAs left (sched.c take_cta) */
    uint32_t cdim[3], csize; /* thread-block cluster shape (1x1x1 without clusters) */
    atomic_int stop;         /* set on the first fault */
    bool fixed_lsp;          /* the kernel has no call or stack record: its lanes' stack pointers stay put (sched.c) */
    pthread_mutex_t lock;
    vm_fault *fault;
    int status;
    double deadline; /* watchdog, seconds on the monotonic clock (0 = none) */
    atomic_uint_fast64_t thread_insns, warp_insns, jit_warp_insns;
    atomic_uint_fast64_t pmevents[16];
    void *san; /* racecheck's or synccheck's state of the launch (sanitize.h), else NULL */
    /* Written by every worker taking CTAs: a line of its own (the last
     * member, so the struct's padding fills the line), so that taking one
     * does not evict what the others read all the time (cfg, stop, san). */
    _Alignas(64) atomic_uint_fast64_t next_cta;
} vm_grid;

/* Cache-line aligned (and so padded to whole lines): the counters of a CTA
 * are written constantly by its host thread and must not share a line with
 * another thread's CTA. */
/* A thread-block cluster: its CTAs run on one host thread, in consecutive
 * slots, so distributed shared memory and the cluster barrier need no locks. */
typedef struct vm_cluster {
    struct vm_cta *cta[16];  /* by rank */
    uint32_t phase, arrived; /* barrier.cluster: completed phases, arrivals in this one */
    uint32_t fails;          /* failed waits: every so many, look for a deadlock */
    uint32_t *want;          /* per thread (rank * nthreads + tid): the phase it waits for, 0 = none */
} vm_cluster;

enum { VM_PF_SLOTS = 16 }; /* vm_cta.pf: the interpreter's handlers use the first 8 */

typedef struct vm_cta {
    _Alignas(64) vm_grid *grid;
    uint32_t ctaid[3];
    uint32_t crank;      /* rank in the cluster */
    vm_cluster *cluster; /* NULL without clusters */
    uint64_t linear;     /* linear CTA index */
    uint8_t *smem;
    uint32_t smem_size;
    uint32_t nwarps, nthreads;
    vm_warp *warps;
    vm_warp *ran; /* the warp vm_exec returned from: it runs on into the next ones once a warp is done or waits */
    uint32_t ran_exited; /* ran's exited lanes when it was entered: it runs on from a wait only if none left since */
    vm_barrier bars[16];
    uint32_t bars_open; /* barriers with arrivals: bit b for bars[b] */
    /* per-worker counters, added to the grid at the end */
    uint64_t thread_insns, warp_insns, jit_warp_insns;
    /* Where each global load record last read, and for which warp: warps of
     * a CTA usually read at a fixed distance from each other, so the next
     * warp's lines can be fetched while this one runs (exec_mem.h). */
    struct vm_pf {
        const struct vm_insn *rec;
        uint64_t addr;
        uint32_t warp;
        /* compiled loops (jit.c prefetch_warp): the address of this warp's
         * first round, and how far that lies from the warp before's */
        uint64_t first;
        int64_t step;
        /* compiled accesses outside loops: the record whose warps were found
         * a page or more apart in this launch, so that it fetches no more */
        const struct vm_insn *far;
    } pf[VM_PF_SLOTS];
    uint32_t smem_full; /* bytes of shared memory (racecheck sets smem_size to 0: every access is checked) */
    uint32_t div_d;     /* compiled div/rem.u32 by a uniform divisor: the last divisor (0: none) */
    uint64_t div_r;     /* and its magic number, with its shift less 1 in the high word (jit.c, magic_cached) */
    void *san;          /* racecheck's or synccheck's state of the CTA (sanitize.h), else NULL */
    struct vm_worker *worker; /* the host thread's scheduler holding the CTA (sched.c) */
} vm_cta;

/* What vm_exec returns. */
typedef enum vm_yield {
    VM_Y_DONE,    /* every lane exited */
    VM_Y_BLOCKED, /* waiting at a barrier / collective */
    VM_Y_SLICE,   /* time slice over (or nanosleep) */
    VM_Y_FAULT,   /* a fault was recorded in the grid */
} vm_yield;

/* Runs warp w until it yields; when it ends or waits, the next warps of its
 * CTA may run on (cta->ran says where it stopped: the warps before it are
 * done or blocked). */
vm_yield vm_exec(vm_warp *w, uint32_t budget);

/* The warp's local memory, allocated on first use (most kernels never touch
 * it, and a CTA of 32 warps would otherwise zero 1 MiB per launch). NULL when
 * out of host memory. */
static inline uint8_t *vm_local_mem(vm_warp *w) {
    if (!w->local) w->local = calloc(VM_LANES, w->local_stride ? w->local_stride : 1);
    return w->local;
}
/* Lanes m of the warp continue at pc. */
static inline void vm_set_lpc(vm_warp *w, uint32_t m, const vm_insn *pc) {
    if (m == VM_FULL)
        for (int l = 0; l < VM_LANES; l++) w->lpc[l] = pc; /* vectorizes */
    else
        for (int l = 0; l < VM_LANES; l++)
            if (m >> l & 1) w->lpc[l] = pc;
}

/* The handler address table (computed-goto builds), indexed by vm_opid, then
 * by the superinstruction ids (vm.h). */
const void *const *vm_handler_table(void);

/* The function whose code holds i (the warp's current frame or one it called from). */
const vm_func *vm_func_of(const vm_warp *w, const vm_insn *i);

/* Records the first fault of the launch: status, message naming kernel, PTX
 * line, .loc line, block, thread (lane) — then stops the grid. */
void vm_fault_at(vm_warp *w, const vm_insn *i, int lane, ptxi_status status, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Frame management (call.c). */
int vm_push_frame(vm_warp *w, vm_func *fn, uint32_t lanes, const vm_insn *call, const vm_insn *ret);
/* Chooses the next lane group: smallest PC first. Returns false when no lane
 * of the warp can run now (all exited or blocked). */
bool vm_reschedule(vm_warp *w);
/* The running group (about to continue at `at`) steps aside for the warp's other groups. */
bool vm_yield_group(vm_warp *w, const vm_insn *at);

/* Out-of-line parts of handlers (call.c, barrier.c, collectives.c). Negative = fault recorded. */
int vm_do_call(vm_warp *w, const vm_insn *i, uint32_t m);
int vm_bar_arrive(vm_warp *w, const vm_insn *i, uint32_t m);
/* A converged warp's bar.sync (barrier.c): -1 not that case, 0 it waits, 1 released, go on. */
int vm_bar_sync_whole(vm_warp *w, const vm_insn *i, uint32_t m);
/* Collectives: 0 = done, 1 = the group must wait for lanes elsewhere, -1 = fault. */
int vm_collective(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
bool vm_shfl_full(uint8_t *fb, const vm_insn *i); /* the converged full-mask shfl.sync, or false */
/* The lane that lane l reads in a shfl.sync of mode `mode` with lane operand bv,
 * clamp cv and segment mask seg; *ok = false when it is out of range (l then
 * reads its own value). */
static inline int vm_shfl_src(int mode, int l, uint32_t bv, uint32_t cv, uint32_t seg, bool *ok) {
    uint32_t maxl = ((uint32_t)l & seg) | (cv & ~seg), minl = (uint32_t)l & seg;
    int j;
    switch (mode) {
    case VM_SHFL_UP:
        j = l - (int)bv;
        *ok = j >= (int)maxl;
        break;
    case VM_SHFL_DOWN:
        j = l + (int)bv;
        *ok = j <= (int)maxl;
        break;
    case VM_SHFL_BFLY:
        j = l ^ (int)bv;
        *ok = j <= (int)maxl;
        break;
    default:
        j = (int)(minl | (bv & ~seg));
        *ok = j <= (int)maxl;
        break;
    }
    return (*ok ? j : l) & 31;
}

int vm_collective_wait(vm_warp *w, const vm_insn *i, uint32_t m, uint32_t members);
void vm_alu_run(vm_warp *w, uint8_t *fb, const vm_alu *a, uint32_t m);
/* Read by the debugger inside libcudart.so.13 from libptxi.so, which exports
 * ptxi_ names only (ptxi.map): the symbols carry the prefix. */
#define vm_sreg_value ptxi_vm_sreg_value
/* The special register an instruction reads (i->x = ir_sreg, i->sz = component) for lane l. */
uint64_t vm_sreg_value(vm_warp *w, const vm_insn *i, int l);
/* Releases named barrier b of the CTA if every thread it waits for has arrived (barrier.c). */
void vm_check_barrier(vm_cta *cta, unsigned b);
/* Threads of the CTA exited: checks every barrier with arrivals again, with
 * the live threads counted anew. */
void vm_recheck_barriers(vm_cta *cta);
/* n live threads of the CTA left the kernel: open barriers wait for n fewer. */
void vm_bar_exits(vm_cta *cta, uint32_t n);
/* Warp w, done, gives its entry frame to nw when nw has not run yet (sched.c). */
void vm_pass_frame(vm_warp *w, vm_warp *nw);
/* The CTA's last warp `last` is leaving the kernel, every other warp done:
 * whether its host thread would now take the grid's next CTA into this slot
 * and run it alone (sched.c), so that the warp may go on into that CTA's
 * first warp (exec.c `left:`, jit_bar.h run_next_cta). */
bool vm_cta_follows(vm_cta *cta, const vm_warp *last);
/* Then: the next CTA of this host thread's share started in cta (its first
 * warp, which runs next), or NULL when there is none left (or, out of host
 * memory, with the launch stopped). */
vm_warp *vm_next_cta(vm_cta *cta);
/* Records the fault of a CTA in which nothing can run: the first waiting warp's barrier or collective. */
void vm_report_deadlock(vm_cta *cta);

#endif
