/* vm.h — the interpreter's internal model: lowered code (threaded-code records),
 * warps (32 lanes, per-lane PCs, lane-contiguous register frames), CTAs and
 * launches. Used by lowering (lower.c), execution (exec.c), scheduling (sched.c)
 * and the host runtime. */
#ifndef PTXI_VM_H
#define PTXI_VM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "alu.h"
#include "ir.h"
#include "mem.h"
#include "ptxi.h"

#define VM_LANES 32
#define VM_FULL 0xffffffffu

/* Handlers. X(NAME) — one per (operation, type, operand shape); see exec.c. */
#include "vm_ops.h"

typedef enum vm_opid {
#define X(n, ...) VM_##n,
    VM_OP_LIST(X)
#undef X
        VM_OP__COUNT
} vm_opid;
/* Handler ids of superinstructions follow the ops (never stored in vm_insn.op). */
enum {
    VM_FUSE__BASE = VM_OP__COUNT - 1,
#define X(n) VM_##n,
    VM_FUSE_LIST(X)
#undef X
        VM_HANDLER__COUNT
};
extern const char *const vm_op_name[VM_OP__COUNT];

struct vm_func;
struct vm_program;
struct vm_warp;

/* One lowered instruction. Register operands are byte offsets into the
 * frame (a 32-bit register is uint32_t[32], a 64-bit one uint64_t[32], a
 * predicate one uint32_t lane mask); immediates live in constant slots of the
 * same frame, so handlers never ask what kind an operand is. */
typedef struct vm_insn {
    const void *h;                /* handler address (computed goto) */
    uint16_t op;                  /* vm_opid */
    uint8_t sz;                   /* access size in bytes / misc small parameter */
    uint8_t flags;                /* VM_F_* */
    uint8_t sp;                   /* state space of a memory access (VM_SP_*) / misc */
    uint16_t x;                   /* misc: comparison, atomic op and type, shfl mode, ... */
    uint32_t g;                   /* guard predicate offset (an all-ones slot when unguarded) */
    uint32_t gx;                  /* xor applied to the guard: 0 or ~0 */
    uint32_t d, a, b, c;          /* operand offsets */
    int64_t imm;                  /* address offset / small constant */
    void *p;                      /* extra: alu op, vector operand list, call info, ... */
    const struct vm_insn *target; /* branch target; a compiled run's head: its vm_jit_region (jit.h) */
} vm_insn;

enum {
    VM_F_SIGNED = 1,     /* sign-extend loads */
    VM_F_D64 = 2,        /* destination register is 64-bit */
    VM_F_BASE_REG64 = 4, /* address = 64-bit register + imm */
    VM_F_BASE_REG32 = 8, /* address = 32-bit register + imm */
    VM_F_BACK = 16,      /* backward branch */
    VM_F_FRAME_SYM = 32, /* address is frame-relative (function-scope .param/.local) */
    VM_F_PARAM_SYM = 64, /* address is relative to the launch's parameter buffer */
    VM_F_STRONG = 128,   /* ld/st .volatile/.relaxed/.acquire/.release/.mmio: a host atomic access */
};

/* Modes of the warp collectives and barriers, chosen by lowering (lower.c)
 * and carried out by collectives.c and barrier.c: shfl, vote and match in x,
 * redux's operation in x (MINS/MAXS: the signed forms), bar.red's in sz, and
 * bar's x a set of VM_BAR_* bits. */
enum vm_shfl_mode { VM_SHFL_IDX, VM_SHFL_UP, VM_SHFL_DOWN, VM_SHFL_BFLY };
enum vm_vote_mode { VM_VOTE_ALL, VM_VOTE_ANY, VM_VOTE_UNI, VM_VOTE_BALLOT };
enum vm_match_mode { VM_MATCH_ANY, VM_MATCH_ALL };
enum vm_redux_op {
    VM_REDUX_ADD,
    VM_REDUX_MIN,
    VM_REDUX_MAX,
    VM_REDUX_AND,
    VM_REDUX_OR,
    VM_REDUX_XOR,
    VM_REDUX_MINS,
    VM_REDUX_MAXS
};
enum vm_bar_red_op { VM_BAR_RED_POPC = 1, VM_BAR_RED_AND, VM_BAR_RED_OR };
enum {
    VM_BAR_ARRIVE_ONLY = 1, /* bar.arrive: no wait */
    VM_BAR_COUNTED = 2,     /* b holds the thread count the barrier waits for */
};

/* State spaces as the memory handlers see them. */
enum { VM_SP_GLOBAL, VM_SP_SHARED, VM_SP_LOCAL, VM_SP_CONST, VM_SP_GENERIC, VM_SP_KPARAM, VM_SP_FPARAM };

/* The state space a generic address falls in: VM_SP_SHARED or VM_SP_LOCAL,
 * with *a made an address of that space (mem.h's windows), else VM_SP_GLOBAL. */
static inline int vm_generic_space(uint64_t *a) {
    if (*a - vm_shared_win < VM_WIN_SIZE) {
        *a -= vm_shared_win;
        return VM_SP_SHARED;
    }
    if (*a - vm_local_win < VM_WIN_SIZE) {
        *a -= vm_local_win;
        return VM_SP_LOCAL;
    }
    return VM_SP_GLOBAL;
}

/* Where an operand of a multi-operand instruction lives. */
typedef struct vm_opnd {
    uint32_t off; /* frame offset */
    uint8_t kind; /* VM_K_* */
} vm_opnd;
/* A .b128 register (VM_K_R128) is two 64-bit lane arrays, the low halves
 * first and the high halves VM_B128_HI bytes after them, so moves, loads and
 * stores of it are 64-bit operations on each half. */
enum { VM_K_R32, VM_K_R64, VM_K_PRED, VM_K_SINK, VM_K_R16, VM_K_R128 };
#define VM_B128_HI (8 * VM_LANES)

typedef struct vm_alu {
    alu_op op;
    vm_opnd d[2], s[6];
} vm_alu;

typedef struct vm_vec { /* ld/st .v2/.v4 register lists */
    uint32_t n;
    vm_opnd e[8];
} vm_vec;

typedef struct vm_callinfo {
    struct vm_func *callee; /* NULL for an indirect call */
    uint32_t nargs, nrets;
    uint32_t argoff[32], argsize[32]; /* caller frame offsets of per-lane .param regions */
    uint32_t retoff[8], retsize[8];
    uint32_t fptr; /* indirect: 64-bit register holding the function address */
} vm_callinfo;

/* Source position of each lowered instruction, for reports and the debugger. */
typedef struct vm_src {
    ir_loc loc;
    ir_dbgloc dbg;
} vm_src;

typedef struct vm_func {
    const ir_func *ir;
    struct vm_program *prog;
    vm_insn *code; /* ncode records + one trailing "fell off the end" */
    vm_src *src;
    uint32_t ncode;
    uint32_t nhoist;           /* .entry: the first nhoist records are its launch-invariant prologue (hoist.c) */
    uint32_t nhoist_free;      /* of those, records counted where a nop stands for them (VM_HOIST_LATER) */
    uint32_t frame_size;       /* bytes of registers, constants and per-lane params */
    uint8_t *frame_init;       /* initial frame image (constants set, registers zero) */
    uint32_t regs_lo, regs_hi; /* the 32/64-bit registers: undefined until written, so never copied */
    uint32_t true_slot;        /* offset of the all-ones predicate */
    uint32_t *param_off;       /* .func: frame offsets of per-lane param regions; .entry: offsets in the param buffer */
    uint32_t param_size;       /* .entry: bytes of the parameter buffer */
    uint32_t *ret_off;         /* .func return params */
    uint32_t local_size;       /* bytes of .local variables per thread */
    uint32_t shared_bytes;     /* static .shared bytes the function's own code refers to */
    uint32_t shared_end;       /* end of the static .shared variables it and its callees use (sanitize mode's bound) */
    uint32_t local_align;
    uint32_t *reg_off;     /* frame offset of each ir register */
    uint64_t fnaddr;       /* the value of the function's address in PTX (mov %rd, f) */
    int builtin;           /* a built-in device function (VM_BI_*, interp/devrt.c), set at lowering; 0: none */
    void (*host_fn)(void); /* bound host implementation of an .extern .func */
    void *ffi;             /* rt_ffi_sig for host_fn */
    /* .entry: what a CTA that reuses a warp's frame (sched.c) copies from
     * frame_init again. Bit k < 63: the k-th 64-byte line below regs_lo
     * holds a predicate some path reads before writing it (regshare.c's
     * liveness; every line when that was not run: under a debugger); bit 63:
     * lines 63 and up. The others are written before they are read. */
    uint64_t reset_lines;
    bool reset_cc; /* .entry: addc, subc or madc read the carry flag: it is cleared for each CTA */
} vm_func;

/* What the launch-invariant prologue of entry k counts as run (the records a
 * nop counts where they stood are not): a warp's count when it starts past
 * the prologue in a reused frame. */
static inline uint32_t vm_prologue_count(const vm_func *k) { return k->nhoist - k->nhoist_free; }

/* A module lowered. Owned by the runtime's module. */
typedef struct vm_program {
    const ir_module *ir;
    const char *path;
    uint32_t nfuncs;
    vm_func *funcs;            /* parallel to ir->funcs */
    uint64_t *gaddr;           /* device address of each ir global (parallel to ir->globals) */
    uint32_t shared_static;    /* bytes of static shared memory (all module .shared vars) */
    uint32_t *shared_off;      /* shared offset per global (for .shared vars) */
    uint32_t dyn_shared_align; /* alignment of extern .shared arrays */
    struct vm_runtime *rt;
    bool no_contract; /* lower mul/add as written (no fma contraction, contract.c) */
    void *jit;        /* machine code of the compiled runs (jit.c), NULL when none */
} vm_program;

/* A call into the device runtime (dynamic parallelism), decoded by interp/devrt.c and
 * carried out by the host runtime: the result is a cudaError_t code. */
enum {
    VM_DEV_PARAM_BUFFER, /* func, g, b, shmem (V1: a[0] alignment, a[1] size, func NULL) -> out */
    VM_DEV_LAUNCH,       /* a[0] parameter buffer, a[1] stream (V1: also func, g, b, shmem) */
    VM_DEV_LAST_ERROR,   /* -> out: the thread's last error; a[0] = 1 also clears it */
    VM_DEV_SET_ERROR,    /* a[0]: record this error as the thread's last */
    VM_DEV_ATTRIBUTE,    /* a[0] attribute, a[1] device -> out */
    VM_DEV_LIMIT,        /* a[0] cudaLimit -> out */
    VM_DEV_HANDLE,       /* a new stream or event handle -> out */
    VM_DEV_MEMCPY,       /* a[0] dst, a[1] src, a[2] bytes, a[3] stream */
    VM_DEV_MEMSET,       /* a[0] dst, a[1] byte value, a[2] bytes, a[3] stream */
    VM_DEV_ERROR_TEXT,   /* a[0] cudaError_t, a[1] 0 its name, 1 its message -> out: a device string */
};
typedef struct vm_devcall {
    int op;
    void *grid;      /* the calling grid's vm_launch_cfg.devq */
    uint64_t thread; /* the calling thread, unique within its grid */
    const struct vm_func *func;
    uint32_t g[3], b[3], shmem;
    uint64_t a[4];
    uint64_t out;
} vm_devcall;

/* Services the interpreter asks of the host runtime. */
typedef struct vm_runtime {
    vm_arena *arena;
    void *ctx;
    /* device printf: returns what vprintf returns (< -1: the format or a
     * string was unreadable). `read` copies generic device memory as the
     * calling thread sees it. */
    int (*vprintf)(void *ctx, uint64_t fmt, uint64_t args, int (*read)(void *, uint64_t, void *, size_t), void *rctx);
    uint64_t (*malloc)(void *ctx, uint64_t size, uint64_t align);
    int (*free)(void *ctx, uint64_t p); /* 0 ok, else the ptxi_status to report */
    /* resolves .extern .func / .extern variables: returns the vm_func or address */
    vm_func *(*resolve_func)(void *ctx, const char *name);
    uint64_t (*resolve_var)(void *ctx, const char *name);
    /* Debugger: when set before a module is loaded, every instruction of that
     * module first calls dbg(dbg_ctx, warp, insn) (struct vm_warp, warp.h).
     * Return 0 to execute it, -1 to stop the launch (kill). Normal runs never
     * pay for this: the trampoline is only in the code of debugged modules. */
    int (*dbg)(void *dbg_ctx, struct vm_warp *w, const struct vm_insn *i);
    void *dbg_ctx;
    /* Debugger: when set, vm_fault_at calls it once, for the first fault of a
     * launch, in the thread running the faulting warp, after the report is
     * recorded and before the grid stops: the warp's state is still intact. */
    void (*dbg_fault)(void *dbg_ctx, struct vm_warp *w, const struct vm_insn *i, int lane, int status,
                      const char *report);
    /* Calls the host function bound to an .extern .func (f->host_fn) for one
     * thread: args[k] point at the parameter bytes, ret receives the result. */
    void (*call_host)(void *ctx, const struct vm_func *f, void **args, void *ret);
    /* The device runtime (NULL: device code cannot launch kernels). */
    int (*devrt)(void *ctx, vm_devcall *c);
    /* Sanitize mode (sanitize.h): NULL in a normal run. */
    struct vm_san *san;
} vm_runtime;
#define VM_HAVE_DBG_FAULT 1 /* vm_runtime.dbg_fault exists */

/* Why a launch stopped early. */
typedef struct vm_fault {
    int status;     /* ptxi_status */
    char msg[1024]; /* the report (a failed assert: its message line) */
    /* Every failed assert's message line, each ending in \n, in the order the
     * threads failed (up to VM_ASSERT_TEXT_MAX bytes); malloc'd, NULL when no
     * assert failed: the caller of vm_launch frees it. */
    char *asserts;
    size_t asserts_len;
} vm_fault;
#define VM_ASSERT_TEXT_MAX ((size_t)16 << 20)

typedef struct vm_launch_cfg {
    vm_func *kernel;
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;
    uint64_t params;  /* device address of the parameter buffer */
    uint32_t threads; /* host threads */
    double timeout_s;
    uint32_t stack_size; /* local bytes per thread */
    uint32_t resident;   /* CTAs a host thread may keep resident at once */
    uint32_t cluster[3]; /* thread-block cluster shape; 0 = the kernel's .reqnctapercluster, or none */
    uint32_t envreg[32]; /* %envreg0..31 (a cooperative launch puts its grid workspace in 1 and 2) */
    void *devq;          /* the host runtime's record of the grid's device launches (vm_devcall.grid) */
} vm_launch_cfg;

typedef struct vm_stats {
    uint64_t thread_insns, warp_insns;
    uint64_t jit_warp_insns; /* of warp_insns, those run as compiled code (jit.c) */
    uint64_t pmevents[16];
    /* How the launch filled its host threads (vm_launch): how many ran it,
     * the last one's start after the launch began, their run times summed,
     * and the first one's end to the last one's. */
    unsigned threads;
    double late_s, busy_s, tail_s;
} vm_stats;

/* The built-in device function `name` stands for (VM_BI_*), 0 for none. */
int vm_builtin_id(const char *name);

/* Lowering: builds a vm_program for a parsed module. Global addresses must be
 * assigned (prog->gaddr) before lowering. Returns 0 or -1 with a message. */
int vm_lower(vm_program *prog, char *err, size_t errlen);
/* Every record of f against its handler's operand contract (vm_ops.h);
 * 0, or -1 with the first breach in err (check.c; debug builds run it after
 * lowering). */
int vm_check_records(const vm_func *f, char *err, size_t errlen);
void vm_program_free(vm_program *prog);

/* Runs a whole grid. Returns 0 or a ptxi_status with *fault filled. */
int vm_launch(const vm_launch_cfg *cfg, vm_stats *stats, vm_fault *fault);
/* Seconds on the monotonic clock. */
double vm_now(void);
/* The spin-wait hint: a waiting loop's step (lets the core's other thread run). */
#if defined(__x86_64__) || defined(__i386__)
#define VM_PAUSE() __builtin_ia32_pause()
#else
#define VM_PAUSE() ((void)0)
#endif

#endif
